//! The assembler's lexer: source text to tokens with line and column.
//!
//! Comments (`//` and `;` to the end of the line, `/* … */`) and `#`
//! directive lines (`#line 12 "file"`) are dropped; line ends are kept as
//! tokens, since an instruction ends at the end of its line (except inside
//! braces, which the parser handles).

use super::{AsmError, AsmErrorKind};
use dxcopy_read::budget::Budget;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    /// A name: `mov`, `r0`, `xyzw`, `_uint`.
    Ident(&'a str),
    /// A number as written: `1`, `0x3f800000`, `1.500000`, `1.#INF00`, `2.0f`.
    Number(&'a str),
    /// One punctuation character.
    Punct(char),
    /// The end of a line.
    Newline,
}

/// A token and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub tok: Tok<'a>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
    /// Whether whitespace (or a comment) comes right before it.
    pub spaced: bool,
}

/// Whether `line` (from its `#` to the end of the line) is a `#line N`
/// or `#line N "file"` directive, the only `#` line fxc's listings hold
/// (between the instructions of a program compiled with debug
/// information). It says where the next instructions came from; the
/// program's bytes do not depend on it, so it is read and dropped.
pub(crate) fn is_line_directive(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("#line") else {
        return false;
    };
    let rest = rest.trim_end_matches([' ', '\t', '\r']);
    let number = rest.trim_start_matches([' ', '\t']);
    if number.len() == rest.len() {
        return false;
    }
    let digits = number.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let file = &number[digits..];
    if file.is_empty() {
        return true;
    }
    let quoted = file.trim_start_matches([' ', '\t']);
    quoted.len() < file.len()
        && quoted.len() >= 2
        && quoted.starts_with('"')
        && quoted.ends_with('"')
        && !quoted[1..quoted.len() - 1].contains('"')
}

/// `text` cut to its first 40 characters, for an error message.
pub(crate) fn cut(text: &str) -> String {
    let text = text.trim_end_matches(['\r', ' ', '\t']);
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Splits `text` into tokens, borrowing it. Line numbers start at
/// `first_line`. Spends one unit of `budget` per byte looked at and per
/// character a column is counted over (an error past it): what the tests
/// assert as the lexer's work.
pub(crate) fn tokenize<'a>(
    text: &'a str,
    first_line: u32,
    budget: &Budget,
) -> Result<Vec<Token<'a>>, AsmError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::with_capacity(text.len() / 6);
    let (mut i, mut line, mut line_start_at) = (0usize, first_line, 0usize);
    let mut spaced = true;
    let mut line_start = true;
    // Columns count characters: only comments may hold non-ASCII text. The
    // column is carried forward from the last position asked about, so a
    // long line costs its length once, not once per token.
    let mut counted = (0usize, 1u32);
    // Returns the column and the characters counted to find it.
    let mut column_of = |at: usize, line_start_at: usize| -> (u32, usize) {
        if counted.0 < line_start_at || counted.0 > at {
            counted = (line_start_at, 1);
        }
        let (from, column) = counted;
        let step = text.get(from..at).map_or(at - from, |s| s.chars().count());
        counted = (at, column.saturating_add(step as u32));
        (counted.1, at - from)
    };
    // Where the last token's scan started: the bytes since are what it
    // looked at.
    let mut scanned = 0usize;
    while i < bytes.len() {
        let c = bytes[i];
        let (column, counted_over) = column_of(i, line_start_at);
        let looked_at = (i - scanned) + counted_over + 1;
        scanned = i;
        if budget.spend(looked_at as u64).is_err() {
            return Err(AsmError::new(
                line,
                column,
                AsmErrorKind::OverBudget {
                    limit: budget.limit(),
                },
            ));
        }
        let start_line = line;
        let push = |tokens: &mut Vec<Token<'a>>, tok: Tok<'a>, spaced: bool| {
            tokens.push(Token {
                tok,
                line: start_line,
                column,
                spaced,
            })
        };
        if c == b'\n' {
            push(&mut tokens, Tok::Newline, spaced);
            i += 1;
            line += 1;
            line_start_at = i;
            spaced = true;
            line_start = true;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            spaced = true;
            continue;
        }
        let next = bytes.get(i + 1).copied();
        if c == b'#' && line_start {
            let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
            if !is_line_directive(&text[i..end]) {
                return Err(AsmError::new(
                    start_line,
                    column,
                    AsmErrorKind::UnknownDirective(cut(&text[i..end])),
                ));
            }
            i = end;
            spaced = true;
            continue;
        }
        if (c == b'/' && next == Some(b'/')) || c == b';' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            spaced = true;
            continue;
        }
        if c == b'/' && next == Some(b'*') {
            i += 2;
            loop {
                match bytes.get(i) {
                    None => {
                        return Err(AsmError::new(
                            start_line,
                            column,
                            AsmErrorKind::UnclosedComment,
                        ))
                    }
                    Some(b'*') if bytes.get(i + 1) == Some(&b'/') => {
                        i += 2;
                        break;
                    }
                    Some(b'\n') => {
                        // The comment's line ends still end statements.
                        push(&mut tokens, Tok::Newline, true);
                        i += 1;
                        line += 1;
                        line_start_at = i;
                    }
                    Some(_) => i += 1,
                }
            }
            spaced = true;
            continue;
        }
        line_start = false;
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            i = ident_end(bytes, start);
            push(&mut tokens, Tok::Ident(&text[start..i]), spaced);
            spaced = false;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && next.is_some_and(|n| n.is_ascii_digit())) {
            let start = i;
            i = number_end(bytes, start);
            push(&mut tokens, Tok::Number(&text[start..i]), spaced);
            spaced = false;
            continue;
        }
        if b"[](){},+-|.:=*".contains(&c) {
            push(&mut tokens, Tok::Punct(char::from(c)), spaced);
            i += 1;
            spaced = false;
            continue;
        }
        let character = text[i..].chars().next().unwrap_or('?');
        return Err(AsmError::new(
            line,
            column,
            AsmErrorKind::UnexpectedCharacter(character),
        ));
    }
    tokens.push(Token {
        tok: Tok::Newline,
        line,
        column: column_of(bytes.len(), line_start_at).0,
        spaced: true,
    });
    Ok(tokens)
}

/// The end of the identifier that starts at `start` (letters, digits, `_`
/// after its first character).
fn ident_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    i
}

/// The end of the number that starts at `start`: digits, letters (hex,
/// suffixes), `.`, `#` (`1.#INF`) and an exponent's sign (`1e-5`).
fn number_end(bytes: &[u8], start: usize) -> usize {
    let hex = bytes[start] == b'0' && matches!(bytes.get(start + 1), Some(b'x' | b'X'));
    let mut i = start;
    while i < bytes.len() {
        let d = bytes[i];
        let part_of_number = d.is_ascii_alphanumeric() || d == b'.' || d == b'#';
        let exponent_sign = (d == b'+' || d == b'-')
            && !hex
            && matches!(bytes[i - 1], b'e' | b'E')
            && bytes[start..i - 1]
                .iter()
                .all(|c| c.is_ascii_digit() || *c == b'.');
        if !(part_of_number || exponent_sign) {
            break;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokenize(text: &str, first_line: u32) -> Result<Vec<Token<'_>>, AsmError> {
        super::tokenize(text, first_line, &Budget::for_input(text.len()))
    }

    fn toks(text: &str) -> Vec<Tok<'_>> {
        tokenize(text, 1)
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn words_numbers_and_comments() {
        use Tok::*;
        let id = Ident;
        let num = Number;
        assert_eq!(
            toks("mov r0.xy, l(1.#INF00, -2e-3) // c\n; x\n/* a\n b */ret"),
            vec![
                id("mov"),
                id("r0"),
                Punct('.'),
                id("xy"),
                Punct(','),
                id("l"),
                Punct('('),
                num("1.#INF00"),
                Punct(','),
                Punct('-'),
                num("2e-3"),
                Punct(')'),
                Newline,
                Newline,
                Newline,
                id("ret"),
                Newline
            ]
        );
        assert_eq!(
            toks("#line 3 \"a\"\nret"),
            vec![Newline, id("ret"), Newline]
        );
        let t = tokenize("\n  mov  r1", 10).unwrap();
        assert_eq!((t[1].line, t[1].column, t[2].column), (11, 3, 8));
        assert_eq!(
            tokenize("mov @", 1).unwrap_err(),
            AsmError::new(1, 5, AsmErrorKind::UnexpectedCharacter('@'))
        );
    }

    #[test]
    fn work_is_the_bytes_looked_at() {
        // Each byte once, and each column counted on from the last.
        let count = |text: &str| {
            let budget = Budget::for_input(text.len());
            super::tokenize(text, 1, &budget).unwrap();
            budget.used()
        };
        let line = |n: usize| format!("mov {}r0.x, r1.x\n", " ".repeat(n));
        let (a, b) = (count(&line(10_000)), count(&line(40_000)));
        assert!((10_000..=3 * 10_000 + 100).contains(&a), "{a}");
        assert!(b <= 4 * a + 100, "{a} then {b}");
        // A budget too small stops the lexer with an error at its place.
        let budget = Budget::with_limit(8);
        let e = super::tokenize("mov r0.x, r1.x", 1, &budget).unwrap_err();
        assert_eq!(e.kind, AsmErrorKind::OverBudget { limit: 8 });
        assert_eq!(e.line, 1);
    }
}
