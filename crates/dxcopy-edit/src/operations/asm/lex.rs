//! The assembler's lexer: source text to tokens with line and column.
//!
//! Comments (`//` and `;` to the end of the line, `/* … */`) and `#`
//! directive lines (`#line 12 "file"`) are dropped; line ends are kept as
//! tokens, since an instruction ends at the end of its line (except inside
//! braces, which the parser handles).

use super::{AsmError, AsmErrorKind};

/// What a token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A name: `mov`, `r0`, `xyzw`, `_uint`.
    Ident(String),
    /// A number as written: `1`, `0x3f800000`, `1.500000`, `1.#INF00`, `2.0f`.
    Number(String),
    /// One punctuation character.
    Punct(char),
    /// The end of a line.
    Newline,
}

/// A token and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
    /// Whether whitespace (or a comment) comes right before it.
    pub spaced: bool,
}

/// Splits `text` (a whole file, or the part of it from `first_line` on)
/// into tokens. Line numbers start at `first_line`.
pub(crate) fn tokenize(text: &str, first_line: u32) -> Result<Vec<Token>, AsmError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line, mut column) = (0usize, first_line, 1u32);
    let mut spaced = true;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        let (start_line, start_column) = (line, column);
        let push = |tokens: &mut Vec<Token>, tok: Tok, spaced: bool| {
            tokens.push(Token {
                tok,
                line: start_line,
                column: start_column,
                spaced,
            })
        };
        if c == '\n' {
            push(&mut tokens, Tok::Newline, spaced);
            i += 1;
            line += 1;
            column = 1;
            spaced = true;
            line_start = true;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            column += 1;
            spaced = true;
            continue;
        }
        let next = chars.get(i + 1).copied();
        if (c == '/' && next == Some('/')) || c == ';' || (c == '#' && line_start) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            spaced = true;
            continue;
        }
        if c == '/' && next == Some('*') {
            i += 2;
            column += 2;
            loop {
                match chars.get(i) {
                    None => {
                        return Err(AsmError::new(
                            start_line,
                            start_column,
                            AsmErrorKind::UnclosedComment,
                        ))
                    }
                    Some('*') if chars.get(i + 1) == Some(&'/') => {
                        i += 2;
                        column += 2;
                        break;
                    }
                    Some('\n') => {
                        // The comment's line ends still end statements.
                        push(&mut tokens, Tok::Newline, true);
                        i += 1;
                        line += 1;
                        column = 1;
                    }
                    Some(_) => {
                        i += 1;
                        column += 1;
                    }
                }
            }
            spaced = true;
            continue;
        }
        line_start = false;
        if c.is_ascii_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            i = i.max(start + 1);
            let word: String = chars[start..i].iter().collect();
            column += (i - start) as u32;
            push(&mut tokens, Tok::Ident(word), spaced);
            spaced = false;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && next.is_some_and(|n| n.is_ascii_digit())) {
            let start = i;
            let hex = c == '0' && matches!(next, Some('x' | 'X'));
            while i < chars.len() {
                let d = chars[i];
                if d.is_ascii_alphanumeric() || d == '.' || d == '#' {
                    i += 1;
                } else if (d == '+' || d == '-')
                    && !hex
                    && matches!(chars[i - 1], 'e' | 'E')
                    && chars[start..i - 1]
                        .iter()
                        .all(|c| c.is_ascii_digit() || *c == '.')
                {
                    // An exponent's sign: `1e-5`.
                    i += 1;
                } else {
                    break;
                }
            }
            let word: String = chars[start..i].iter().collect();
            column += (i - start) as u32;
            push(&mut tokens, Tok::Number(word), spaced);
            spaced = false;
            continue;
        }
        if "[](){},+-|.:=*".contains(c) {
            push(&mut tokens, Tok::Punct(c), spaced);
            i += 1;
            column += 1;
            spaced = false;
            continue;
        }
        return Err(AsmError::new(
            line,
            column,
            AsmErrorKind::UnexpectedCharacter(c),
        ));
    }
    tokens.push(Token {
        tok: Tok::Newline,
        line,
        column,
        spaced: true,
    });
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        tokenize(text, 1)
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn words_numbers_and_comments() {
        use Tok::*;
        let id = |s: &str| Ident(s.into());
        let num = |s: &str| Number(s.into());
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
}
