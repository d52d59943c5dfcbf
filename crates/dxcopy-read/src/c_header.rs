//! Containers stored in C headers, as projects ship them: `fxc /Fh`
//! (`const BYTE g_main[] = { 68, 88, … };`), `dxc -Fh` (`const unsigned
//! char g_main[] = { 0x44, 0x58, … };`), DirectXTK's `.inc` files and other
//! hand-made layouts (docs/format/c-header.md).
//!
//! [`arrays`] finds every byte array of a header — one of
//! `BYTE`/`unsigned char`/`uint8_t`/`char`/`signed char`/`unsigned __int8`,
//! with any of `static`, `const`, `constexpr`, `extern`, `inline`,
//! `alignas(…)`, `__declspec(…)` around it — skipping comments and
//! `#if 0` … `#endif` blocks (the listing the compilers put there), and
//! decodes its elements: decimal, hex, octal or character literals with
//! `u`/`U` suffixes, 0 to 255 (or −128 to −1 for signed bytes). Arrays of
//! other element types are left alone. Bad input is an error naming the
//! line and column.

use crate::budget::Budget;
use std::ops::Range;

/// One byte array of a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderArray {
    /// The array's name.
    pub name: String,
    /// 1-based line of the name.
    pub line: usize,
    /// The element values.
    pub bytes: Vec<u8>,
    /// Byte range of the initializer's contents in the text: from after `{`
    /// to before `}` (what a rewrite replaces).
    pub body: Range<usize>,
    /// Byte range of the `#if 0` block right before the declaration (only
    /// blanks and comments between): from the line after `#if 0` to the
    /// start of the `#endif` line — the listing fxc and dxc put there.
    pub listing: Option<Range<usize>>,
}

/// Why a header could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct HeaderError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in bytes).
    pub column: usize,
    /// What is wrong there.
    pub kind: HeaderErrorKind,
}

/// The kinds of [`HeaderError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeaderErrorKind {
    /// An element that is not an integer or character literal.
    #[error("'{0}' is not a byte value")]
    NotAByte(String),
    /// An integer outside 0..=255 (and −128..=−1).
    #[error("{0} does not fit in a byte")]
    OutOfRange(String),
    /// The initializer or a comment is not closed.
    #[error("unterminated {0}")]
    Unterminated(&'static str),
    /// A `#if` without its `#endif`.
    #[error("#if 0 without #endif")]
    UnterminatedIf,
    /// Reading the header took more than its work budget
    /// ([`crate::budget`]; linear in the text, so only a budget set smaller
    /// than the text's can be spent).
    #[error("reading the header takes more than its work budget of {limit} units")]
    OverBudget {
        /// The budget's limit.
        limit: u64,
    },
}

/// Whether `text` is read as a C header: text (no NUL byte, not a
/// container) holding a byte-array declaration — a byte element type word
/// (`BYTE_TYPES`) in the statement before `[…] = {`. Other text (a README,
/// a listing) is not a header, so reading it as a container says what magic
/// it found instead of a C syntax error. Each declaration is looked at
/// once, back to the start of its statement (at most
/// [`DECLARATION_LOOKBACK`] bytes).
pub fn looks_like_header(text: &[u8]) -> bool {
    if text.starts_with(b"DXBC") || text.contains(&0) {
        return false;
    }
    // One pass: where the current statement starts (after `;`, `{`, `}`)
    // and the last `[` in it; a `]` followed by `= {` checks the words
    // between the two, which the next `{` puts behind the statement start.
    let (mut statement_start, mut open) = (0usize, None);
    for (i, &b) in text.iter().enumerate() {
        match b {
            b';' | b'{' | b'}' => (statement_start, open) = (i + 1, None),
            b'[' => open = Some(i),
            b']' => {
                let Some(open) = open else { continue };
                let after = text[i + 1..].trim_ascii_start();
                let Some(after) = after.strip_prefix(b"=") else {
                    continue;
                };
                if after.trim_ascii_start().first() != Some(&b'{') {
                    continue;
                }
                let start = statement_start.max(open.saturating_sub(DECLARATION_LOOKBACK));
                let mut words = text[start..open]
                    .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                    .filter(|w| !w.is_empty());
                if words.any(|w| {
                    BYTE_TYPES
                        .iter()
                        .any(|t| t.last().is_some_and(|last| last.as_bytes() == w))
                }) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// How far before an array's `[` [`looks_like_header`] looks for its
/// element type: a declaration's words fit in far less.
pub const DECLARATION_LOOKBACK: usize = 1024;

/// Element type words that make an array a byte array.
const BYTE_TYPES: &[&[&str]] = &[
    &["BYTE"],
    &["uint8_t"],
    &["UINT8"],
    &["unsigned", "char"],
    &["signed", "char"],
    &["char"],
    &["unsigned", "__int8"],
    &["__int8"],
];

struct Scanner<'a> {
    text: &'a [u8],
    pos: usize,
    /// The contents of the last `#if 0` block skipped since the last token.
    last_if_zero: Option<Range<usize>>,
    /// Bytes looked at other than by moving `pos` on: back to a line's
    /// start, ahead to a line's end (the work [`arrays_with_budget`]
    /// counts besides the bytes passed).
    looked_aside: u64,
}

impl<'a> Scanner<'a> {
    fn error(&self, at: usize, kind: HeaderErrorKind) -> HeaderError {
        let before = &self.text[..at.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = at
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        HeaderError { line, column, kind }
    }

    fn peek(&self, offset: usize) -> Option<u8> {
        self.text.get(self.pos + offset).copied()
    }

    fn at_line_start(&mut self) -> bool {
        let mut looked = 0u64;
        let blank = self.text[..self.pos]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .inspect(|_| looked += 1)
            .all(|b| b.is_ascii_whitespace());
        self.looked_aside += looked;
        blank
    }

    /// Skips blanks, comments and preprocessor lines (`#if 0` blocks whole).
    fn skip_trivia(&mut self) -> Result<(), HeaderError> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(b), _) if b.is_ascii_whitespace() => self.pos += 1,
                (Some(b'/'), Some(b'/')) => self.skip_line(),
                (Some(b'/'), Some(b'*')) => {
                    let start = self.pos;
                    match find(self.text, self.pos + 2, b"*/") {
                        Some(end) => self.pos = end + 2,
                        None => {
                            return Err(self.error(start, HeaderErrorKind::Unterminated("comment")))
                        }
                    }
                }
                (Some(b'#'), _) if self.at_line_start() => {
                    let start = self.pos;
                    let if_zero = is_if_zero(self.line_text());
                    self.skip_line();
                    if if_zero {
                        self.skip_if_block(start)?;
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn line_text(&mut self) -> &'a [u8] {
        let end = find(self.text, self.pos, b"\n").unwrap_or(self.text.len());
        self.looked_aside += (end - self.pos) as u64;
        &self.text[self.pos..end]
    }

    fn skip_line(&mut self) {
        self.pos = find(self.text, self.pos, b"\n").map_or(self.text.len(), |p| p + 1);
    }

    /// After `#if 0`: up to and past its `#endif`, nested `#if`s counted.
    fn skip_if_block(&mut self, start: usize) -> Result<(), HeaderError> {
        let mut depth = 1usize;
        let contents = self.pos;
        while self.pos < self.text.len() {
            let line_start = self.pos;
            let directive = self.line_text().trim_ascii_start();
            if let Some(rest) = directive.strip_prefix(b"#") {
                // The directive's whole name, as the preprocessor reads it:
                // `#endif13` or `#iffy` is no directive of a skipped block.
                let rest = rest.trim_ascii_start();
                let name_len = rest
                    .iter()
                    .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                    .unwrap_or(rest.len());
                match &rest[..name_len] {
                    b"if" | b"ifdef" | b"ifndef" => depth += 1,
                    b"endif" => depth -= 1,
                    _ => {}
                }
            }
            self.skip_line();
            if depth == 0 {
                self.last_if_zero = Some(contents..line_start);
                return Ok(());
            }
        }
        Err(self.error(start, HeaderErrorKind::UnterminatedIf))
    }

    fn word(&mut self) -> Option<&str> {
        let start = self.pos;
        while self
            .peek(0)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.pos += 1;
        }
        std::str::from_utf8(&self.text[start..self.pos])
            .ok()
            .filter(|w| !w.is_empty())
    }
}

fn find(text: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    text.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn is_if_zero(line: &[u8]) -> bool {
    let rest = line.trim_ascii_start().strip_prefix(b"#").unwrap_or(b"");
    let rest = rest.trim_ascii_start();
    rest.strip_prefix(b"if")
        .is_some_and(|r| r.first().is_some_and(u8::is_ascii_whitespace) && r.trim_ascii() == b"0")
}

/// Every byte array of the header `text`, in file order.
pub fn arrays(text: &[u8]) -> Result<Vec<HeaderArray>, HeaderError> {
    arrays_with_budget(text, &Budget::for_input(text.len()))
}

/// [`arrays`], spending one unit of `budget` per byte passed, per byte
/// looked at besides (back to a line's start for a `#`, ahead to a line's
/// end, lines counted for an array's line number) and per step of the
/// scan (an error past it). `budget.used()` afterwards is the work done:
/// the tests assert it grows with the text and no faster.
pub fn arrays_with_budget(text: &[u8], budget: &Budget) -> Result<Vec<HeaderArray>, HeaderError> {
    let mut s = Scanner {
        text,
        pos: 0,
        last_if_zero: None,
        looked_aside: 0,
    };
    // What has been paid for: `pos` and the bytes looked at aside.
    let mut paid = (0usize, 0u64);
    // The `#if 0` block right before the declaration being read.
    let mut listing: Option<Range<usize>> = None;
    let mut found = Vec::new();
    // The words of the declaration so far (reset at `;`, `}` and `{`).
    let mut words: Vec<(String, usize)> = Vec::new();
    // Lines are counted on from the last array's name, not from the start
    // of the text for each array.
    let mut counted = (0usize, 1usize);
    loop {
        s.skip_trivia()?;
        let step = (s.pos - paid.0) as u64 + (s.looked_aside - paid.1) + 1;
        paid = (s.pos, s.looked_aside);
        if budget.spend(step).is_err() {
            return Err(s.error(
                s.pos,
                HeaderErrorKind::OverBudget {
                    limit: budget.limit(),
                },
            ));
        }
        let Some(b) = s.peek(0) else {
            return Ok(found);
        };
        let if_zero = s.last_if_zero.take();
        if words.is_empty() {
            listing = if_zero;
        }
        if b.is_ascii_alphabetic() || b == b'_' {
            let at = s.pos;
            if let Some(w) = s.word() {
                words.push((w.to_owned(), at));
            }
            continue;
        }
        if b == b'(' {
            // alignas(16), __declspec(align(16)): skip the parentheses.
            let mut depth = 0usize;
            while let Some(c) = s.peek(0) {
                s.pos += 1;
                match c {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            continue;
        }
        if b == b'[' {
            let name = words.last().cloned();
            let type_words: Vec<&str> = words
                .iter()
                .rev()
                .skip(1)
                .map(|(w, _)| w.as_str())
                .filter(|w| {
                    !matches!(
                        *w,
                        "static"
                            | "const"
                            | "constexpr"
                            | "extern"
                            | "inline"
                            | "volatile"
                            | "alignas"
                            | "__declspec"
                            | "align"
                            | "DECLSPEC_ALIGN"
                    )
                })
                .collect();
            let is_bytes = BYTE_TYPES.iter().any(|t| {
                t.len() <= type_words.len() && t.iter().rev().zip(&type_words).all(|(a, b)| a == b)
            });
            // To `]`, then `=` and `{`.
            let Some(close) = find(text, s.pos, b"]") else {
                return Ok(found);
            };
            s.pos = close + 1;
            s.skip_trivia()?;
            let assigned = s.peek(0) == Some(b'=');
            if assigned {
                s.pos += 1;
                s.skip_trivia()?;
            }
            match (name, assigned && s.peek(0) == Some(b'{'), is_bytes) {
                (Some((name, at)), true, true) => {
                    let open = s.pos;
                    s.pos += 1;
                    let bytes = elements(&mut s, open)?;
                    let body = open + 1..s.pos;
                    s.pos += 1; // `}`
                    let newlines = text[counted.0..at].iter().filter(|&&c| c == b'\n').count();
                    s.looked_aside += (at - counted.0) as u64;
                    counted = (at, counted.1 + newlines);
                    let line = counted.1;
                    found.push(HeaderArray {
                        name,
                        line,
                        bytes,
                        body,
                        listing: listing.take(),
                    });
                }
                (_, true, false) => skip_braces(&mut s)?,
                _ => {}
            }
            words.clear();
            continue;
        }
        if b == b'"' || b == b'\'' {
            skip_quoted(&mut s)?;
            continue;
        }
        if matches!(b, b';' | b'{' | b'}') {
            words.clear();
        }
        s.pos += 1;
    }
}

/// Past a `{ … }` group (an array of another element type).
fn skip_braces(s: &mut Scanner<'_>) -> Result<(), HeaderError> {
    let open = s.pos;
    let mut depth = 0usize;
    loop {
        s.skip_trivia()?;
        match s.peek(0) {
            None => return Err(s.error(open, HeaderErrorKind::Unterminated("initializer"))),
            Some(b'{') => depth += 1,
            Some(b'}') => {
                depth -= 1;
                if depth == 0 {
                    s.pos += 1;
                    return Ok(());
                }
            }
            Some(b'"' | b'\'') => {
                skip_quoted(s)?;
                continue;
            }
            _ => {}
        }
        s.pos += 1;
    }
}

fn skip_quoted(s: &mut Scanner<'_>) -> Result<(), HeaderError> {
    let start = s.pos;
    let quote = s.text[start];
    s.pos += 1;
    while let Some(c) = s.peek(0) {
        s.pos += 1;
        if c == b'\\' {
            s.pos += 1;
        } else if c == quote {
            return Ok(());
        } else if c == b'\n' {
            break;
        }
    }
    Err(s.error(start, HeaderErrorKind::Unterminated("literal")))
}

/// The elements of an initializer, from after `{` to its `}` (left at).
fn elements(s: &mut Scanner<'_>, open: usize) -> Result<Vec<u8>, HeaderError> {
    // Grown as elements are read: a header of many small arrays must not
    // reserve the rest of the file for each of them.
    let mut bytes = Vec::new();
    loop {
        s.skip_trivia()?;
        let Some(c) = s.peek(0) else {
            return Err(s.error(open, HeaderErrorKind::Unterminated("initializer")));
        };
        if c == b'}' {
            return Ok(bytes);
        }
        if c == b',' {
            s.pos += 1;
            continue;
        }
        let start = s.pos;
        if c == b'\'' {
            skip_quoted(s)?;
            let literal = &s.text[start..s.pos];
            let value = char_literal(literal)
                .ok_or_else(|| s.error(start, HeaderErrorKind::NotAByte(lossy(literal))))?;
            bytes.push(value);
            continue;
        }
        while s
            .peek(0)
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'_'))
        {
            s.pos += 1;
        }
        if s.pos == start {
            s.pos += 1;
        }
        let token = &s.text[start..s.pos];
        bytes.push(byte_value(token).map_err(|kind| s.error(start, kind))?);
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// An integer literal's value as a byte.
fn byte_value(token: &[u8]) -> Result<u8, HeaderErrorKind> {
    let text = std::str::from_utf8(token).map_err(|_| HeaderErrorKind::NotAByte(lossy(token)))?;
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let digits = digits.trim_end_matches(['u', 'U']);
    let value = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        u32::from_str_radix(hex, 16)
    } else if digits.len() > 1 && digits.starts_with('0') {
        u32::from_str_radix(&digits[1..], 8)
    } else {
        digits.parse::<u32>()
    }
    .map_err(|_| HeaderErrorKind::NotAByte(text.to_owned()))?;
    match (negative, value) {
        (false, 0..=255) => Ok(value as u8),
        (true, 1..=128) => Ok((256 - value) as u8),
        (true, 0) => Ok(0),
        _ => Err(HeaderErrorKind::OutOfRange(text.to_owned())),
    }
}

/// `'A'`, `'\n'`, `'\x7f'`, `'\177'`.
fn char_literal(literal: &[u8]) -> Option<u8> {
    let inner = literal.strip_prefix(b"'")?.strip_suffix(b"'")?;
    match inner {
        [c] if *c != b'\\' => Some(*c),
        [b'\\', rest @ ..] => match rest {
            [b'n'] => Some(b'\n'),
            [b't'] => Some(b'\t'),
            [b'r'] => Some(b'\r'),
            [b'0'] => Some(0),
            [b'\\'] => Some(b'\\'),
            [b'\''] => Some(b'\''),
            [b'"'] => Some(b'"'),
            [b'x', hex @ ..] => u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok(),
            octal => u8::from_str_radix(std::str::from_utf8(octal).ok()?, 8).ok(),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fxc_dxc_and_other_layouts() {
        let text = b"#if 0\n//\n// Generated by Microsoft (R) HLSL Shader Compiler 10.1\n\
            // x[] = { 1 };\n#line 3 \"a.fx\"\n#endif\n\n\
            const BYTE g_ps[] =\n{\n     68,  88,  66,  67, 248, 115, \n    208\n};\n\
            /* const BYTE not[] = { 999 }; */\n\
            const unsigned char g_vs[] = {\r\n  0x44, 0x58,\r\n  0x42, 0x43\r\n};\r\n\
            static const uint32_t words[] = { 0x12345678, 2 };\n\
            alignas(16) static constexpr uint8_t g_cs[4] = { 'D', '\\x58', 0102, 67u, };\n\
            __declspec(align(16)) const signed char neg[] = { -1, -128, 0 };\n";
        let got = arrays(text).unwrap();
        let summary: Vec<(&str, usize, &[u8])> = got
            .iter()
            .map(|a| (a.name.as_str(), a.line, a.bytes.as_slice()))
            .collect();
        assert_eq!(
            summary,
            [
                ("g_ps", 8, &[68, 88, 66, 67, 248, 115, 208][..]),
                ("g_vs", 14, b"DXBC"),
                ("g_cs", 19, b"DXBC"),
                ("neg", 20, &[255, 128, 0]),
            ]
        );
        // The body is the text between the braces.
        let body = &text[got[1].body.clone()];
        assert_eq!(body, b"\r\n  0x44, 0x58,\r\n  0x42, 0x43\r\n");
        // The `#if 0` block right before g_ps is its listing; the others have none.
        let listing = got[0].listing.clone().map(|r| &text[r]);
        assert_eq!(
            listing,
            Some(&b"//\n// Generated by Microsoft (R) HLSL Shader Compiler 10.1\n// x[] = { 1 };\n#line 3 \"a.fx\"\n"[..])
        );
        assert!(got[1..].iter().all(|a| a.listing.is_none()));
    }

    #[test]
    fn a_listing_belongs_to_the_next_declaration_only() {
        let text = b"#if 0\nA\n#endif\n// note\nconst BYTE a[] = { 1 };\n\
            #if 0\nB\n#endif\nint x;\nconst BYTE b[] = { 2 };\n\
            #if 0\r\nC\r\n#endif\r\nstatic const BYTE c[] = { 3 };\n";
        let got = arrays(text).unwrap();
        let listings: Vec<Option<&[u8]>> = got
            .iter()
            .map(|a| a.listing.clone().map(|r| &text[r]))
            .collect();
        assert_eq!(listings, [Some(&b"A\n"[..]), None, Some(b"C\r\n")]);
    }

    #[test]
    fn bad_elements_name_their_line_and_column() {
        for (text, line, column, kind) in [
            (
                &b"const BYTE a[] = {\n  1, 2, x3 };"[..],
                2,
                9,
                HeaderErrorKind::NotAByte("x3".into()),
            ),
            (
                b"const BYTE a[] = { 1, 256 };",
                1,
                23,
                HeaderErrorKind::OutOfRange("256".into()),
            ),
            (
                b"const BYTE a[] = { 1, -129 };",
                1,
                23,
                HeaderErrorKind::OutOfRange("-129".into()),
            ),
            (
                b"const BYTE a[] = { 1, 2",
                1,
                18,
                HeaderErrorKind::Unterminated("initializer"),
            ),
            (b"\n/* open", 2, 1, HeaderErrorKind::Unterminated("comment")),
            (b"#if 0\n// x\n", 1, 1, HeaderErrorKind::UnterminatedIf),
        ] {
            let e = arrays(text).unwrap_err();
            assert_eq!((e.line, e.column, &e.kind), (line, column, &kind), "{e}");
        }
    }

    #[test]
    fn nested_if_blocks_and_odd_text_are_skipped() {
        let text =
            b"#if 0\n#ifdef X\nconst BYTE a[] = { 1 };\n#endif\nconst BYTE b[] = { 2 };\n#endif\n\
            char *s = \"[] = {\";\nconst BYTE c[] = { 3 };\n";
        let got = arrays(text).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(
            (got[0].name.as_str(), got[0].bytes.as_slice()),
            ("c", &[3u8][..])
        );
        assert!(arrays(b"").unwrap().is_empty());
        // A directive is its whole name: `#endif13` and `#iffy` neither end
        // nor open a block (the c_header fuzz target's find: a listing
        // line the writer rightly left alone ended the block early).
        let text = b"#if 0\n#endif13\n#iffy\nx[] = {\n#endif\nconst BYTE d[] = { 4 };\n";
        let got = arrays(text).unwrap();
        assert_eq!((got.len(), got[0].bytes.as_slice()), (1, &[4u8][..]));
        assert!(!looks_like_header(b"DXBC{["));
        assert!(looks_like_header(b"const BYTE a[] = {1};"));
        assert!(looks_like_header(
            b"// x\n#if 0\n[x] = {\n#endif\nstatic const unsigned char g_x[12] =\n{ 1 };"
        ));
        // Text with brackets and braces that declares no byte array.
        assert!(!looks_like_header(
            b"# README\n`a[i] = {x}` and ```{[]}```\n"
        ));
        assert!(!looks_like_header(b"const float f[] = {1.0};"));
        assert!(!looks_like_header(b"int a[3];\n{ char b; }"));
    }

    /// No-panic test over hostile input: every truncation of a header, and
    /// every byte of it replaced by each of a few troublesome bytes, ends in
    /// arrays or an error, and the arrays never hold more bytes than the
    /// text has characters.
    #[test]
    fn no_panic_on_truncated_or_mutated_headers() {
        let text: &[u8] = b"#if 0\n// x\n#endif\n/* c */ const unsigned char a[] = { 0x44, 'X', 0102, -1, 7u, };\n\
            static const uint32_t w[] = { 1, { 2 } };\nchar *s = \"[] = {\";\nconst BYTE b[] =\n{\n  1, 2\n};\n";
        let check = |t: &[u8]| {
            if let Ok(found) = arrays(t) {
                for a in found {
                    assert!(a.bytes.len() <= t.len());
                    assert!(a.body.end <= t.len() && a.body.start <= a.body.end);
                }
            }
        };
        for end in 0..=text.len() {
            check(&text[..end]);
        }
        for at in 0..text.len() {
            for b in [
                b'{', b'}', b'[', b']', b'/', b'*', b'#', b'\'', b'"', b'\\', b'\n', b',', b'-',
                b'x', 0, 0xff,
            ] {
                let mut t = text.to_vec();
                t[at] = b;
                check(&t);
            }
        }
    }
}
