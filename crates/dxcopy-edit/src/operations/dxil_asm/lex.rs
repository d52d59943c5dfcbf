//! The lexer of LLVM 3.7 assembly: one token at a time, with its line and
//! column, in one pass over the bytes (nothing is held but the current
//! token, so a large listing costs no memory beyond its text).

/// A token's kind and payload.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    /// The end of the text.
    Eof,
    /// `%name` or `%"name"`.
    LocalName(Vec<u8>),
    /// `%N`.
    LocalId(u32),
    /// `@name` or `@"name"`.
    GlobalName(Vec<u8>),
    /// `@N`.
    GlobalId(u32),
    /// `!name` (named metadata, or a specialized node's name: `!DILocation`).
    MetaName(Vec<u8>),
    /// `!N`.
    MetaId(u32),
    /// `!"text"`.
    MetaString(Vec<u8>),
    /// A lone `!` (before `{`).
    Bang,
    /// `#N`.
    AttrGroup(u32),
    /// `"text"`, escapes decoded.
    Str(Vec<u8>),
    /// `c"text"`, escapes decoded.
    CStr(Vec<u8>),
    /// `name:` or `"name":` at the start of a basic block.
    Label(Vec<u8>),
    /// An integer, as written (`-12`, `4294967295`).
    Int(String),
    /// A decimal floating-point number, as written (`1.000000e+00`).
    Float(String),
    /// `0x…` (`0xH…`, `0xK…`, `0xL…`, `0xM…`): the letter (or `' '`) and the digits.
    HexFloat(char, String),
    /// A keyword or type name (`define`, `i32`, `DW_TAG_member`, `x`).
    Word(String),
    /// One of `= , * [ ] { } ( ) < > | :`.
    Punct(u8),
    /// `...`
    Ellipsis,
}

/// A token with its position (1-based line and column, in bytes).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

/// A lexical error: the position and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LexError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// The lexer's position in the text; cloning it is how the parser looks ahead.
#[derive(Debug, Clone)]
pub(super) struct Lexer<'t> {
    text: &'t [u8],
    pos: usize,
    line: u32,
    line_start: usize,
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_')
}

impl<'t> Lexer<'t> {
    pub(super) fn new(text: &'t [u8]) -> Lexer<'t> {
        Lexer {
            text,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    fn peek_byte(&self, at: usize) -> Option<u8> {
        self.text.get(self.pos + at).copied()
    }

    fn error(&self, start: usize, message: impl Into<String>) -> LexError {
        LexError {
            line: self.line,
            col: col_of(start, self.line_start),
            message: message.into(),
        }
    }

    fn skip_space(&mut self) {
        while let Some(b) = self.peek_byte(0) {
            match b {
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.pos;
                }
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b';' => {
                    while let Some(c) = self.peek_byte(0) {
                        if c == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    /// Reads a quoted string from `self.pos` (at the opening quote),
    /// decoding `\\` and `\XX` escapes.
    fn quoted(&mut self) -> Result<Vec<u8>, LexError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek_byte(0) else {
                return Err(self.error(start, "end of text in a quoted string"));
            };
            self.pos += 1;
            match b {
                b'"' => return Ok(out),
                b'\\' => {
                    if self.peek_byte(0) == Some(b'\\') {
                        self.pos += 1;
                        out.push(b'\\');
                        continue;
                    }
                    let hi = self.peek_byte(0).and_then(hex_digit);
                    let lo = self.peek_byte(1).and_then(hex_digit);
                    match (hi, lo) {
                        (Some(h), Some(l)) => {
                            out.push(h << 4 | l);
                            self.pos += 2;
                        }
                        _ => out.push(b'\\'),
                    }
                }
                b'\n' => {
                    out.push(b);
                    self.line += 1;
                    self.line_start = self.pos;
                }
                _ => out.push(b),
            }
        }
    }

    fn ident_run(&mut self, allow_backslash: bool) -> Vec<u8> {
        let start = self.pos;
        while let Some(b) = self.peek_byte(0) {
            if is_ident(b) || (allow_backslash && b == b'\\') {
                self.pos += 1;
            } else {
                break;
            }
        }
        let raw = &self.text[start..self.pos];
        if !allow_backslash || !raw.contains(&b'\\') {
            return raw.to_vec();
        }
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            if raw[i] == b'\\' && i + 2 < raw.len() + 1 {
                if let (Some(h), Some(l)) = (
                    raw.get(i + 1).copied().and_then(hex_digit),
                    raw.get(i + 2).copied().and_then(hex_digit),
                ) {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
            }
            out.push(raw[i]);
            i += 1;
        }
        out
    }

    fn number_id(&self, start: usize, digits: &[u8]) -> Result<u32, LexError> {
        std::str::from_utf8(digits)
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| self.error(start, "number too large"))
    }

    /// `%…` or `@…`.
    fn variable(&mut self, start: usize, local: bool) -> Result<Tok, LexError> {
        self.pos += 1;
        match self.peek_byte(0) {
            Some(b'"') => {
                let name = self.quoted()?;
                Ok(if local {
                    Tok::LocalName(name)
                } else {
                    Tok::GlobalName(name)
                })
            }
            Some(b) if b.is_ascii_digit() => {
                let s = self.pos;
                while self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                    self.pos += 1;
                }
                let id = self.number_id(start, &self.text[s..self.pos])?;
                Ok(if local {
                    Tok::LocalId(id)
                } else {
                    Tok::GlobalId(id)
                })
            }
            Some(b) if is_ident(b) => {
                let name = self.ident_run(false);
                Ok(if local {
                    Tok::LocalName(name)
                } else {
                    Tok::GlobalName(name)
                })
            }
            _ => Err(self.error(start, "a name or number must follow '%' or '@'")),
        }
    }

    fn number(&mut self, start: usize) -> Result<Tok, LexError> {
        if self.peek_byte(0) == Some(b'0') && self.peek_byte(1) == Some(b'x') {
            self.pos += 2;
            let kind = match self.peek_byte(0) {
                Some(c @ (b'H' | b'K' | b'L' | b'M')) => {
                    self.pos += 1;
                    char::from(c)
                }
                _ => ' ',
            };
            let s = self.pos;
            while self.peek_byte(0).is_some_and(|b| b.is_ascii_hexdigit()) {
                self.pos += 1;
            }
            if s == self.pos {
                return Err(self.error(start, "hexadecimal digits must follow '0x'"));
            }
            let digits = String::from_utf8_lossy(&self.text[s..self.pos]).into_owned();
            return Ok(Tok::HexFloat(kind, digits));
        }
        if matches!(self.peek_byte(0), Some(b'-' | b'+')) {
            self.pos += 1;
        }
        while self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        let mut float = false;
        if self.peek_byte(0) == Some(b'.') {
            float = true;
            self.pos += 1;
            while self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1;
            }
            if matches!(self.peek_byte(0), Some(b'e' | b'E')) {
                let back = self.pos;
                self.pos += 1;
                if matches!(self.peek_byte(0), Some(b'-' | b'+')) {
                    self.pos += 1;
                }
                if self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                    while self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                        self.pos += 1;
                    }
                } else {
                    self.pos = back;
                }
            }
        }
        let text = String::from_utf8_lossy(&self.text[start..self.pos]).into_owned();
        if text == "-" || text == "+" {
            return Err(self.error(start, "a digit must follow the sign"));
        }
        Ok(if float {
            Tok::Float(text)
        } else {
            Tok::Int(text)
        })
    }

    /// The next token.
    pub(super) fn next_token(&mut self) -> Result<Token, LexError> {
        self.skip_space();
        let start = self.pos;
        let line = self.line;
        let col = col_of(start, self.line_start);
        let tok = self.token_at(start)?;
        Ok(Token { tok, line, col })
    }

    fn token_at(&mut self, start: usize) -> Result<Tok, LexError> {
        let Some(b) = self.peek_byte(0) else {
            return Ok(Tok::Eof);
        };
        Ok(match b {
            b'%' => self.variable(start, true)?,
            b'@' => self.variable(start, false)?,
            b'!' => {
                self.pos += 1;
                match self.peek_byte(0) {
                    Some(b'"') => Tok::MetaString(self.quoted()?),
                    Some(c) if c.is_ascii_digit() => {
                        let s = self.pos;
                        while self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                            self.pos += 1;
                        }
                        Tok::MetaId(self.number_id(start, &self.text[s..self.pos])?)
                    }
                    Some(c) if is_ident(c) || c == b'\\' => Tok::MetaName(self.ident_run(true)),
                    _ => Tok::Bang,
                }
            }
            b'#' => {
                self.pos += 1;
                let s = self.pos;
                while self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                    self.pos += 1;
                }
                if s == self.pos {
                    return Err(self.error(start, "a number must follow '#'"));
                }
                Tok::AttrGroup(self.number_id(start, &self.text[s..self.pos])?)
            }
            b'"' => {
                let text = self.quoted()?;
                if self.peek_byte(0) == Some(b':') {
                    self.pos += 1;
                    Tok::Label(text)
                } else {
                    Tok::Str(text)
                }
            }
            b'.' if self.peek_byte(1) == Some(b'.') && self.peek_byte(2) == Some(b'.') => {
                self.pos += 3;
                Tok::Ellipsis
            }
            b'0'..=b'9' | b'-' | b'+' => {
                // A label may start with a digit or '-' too (`-1:`): look
                // for the colon after an identifier run.
                let mut end = self.pos;
                while self.text.get(end).copied().is_some_and(is_ident) {
                    end += 1;
                }
                if self.text.get(end) == Some(&b':') && end > self.pos {
                    let name = self.text[self.pos..end].to_vec();
                    self.pos = end + 1;
                    Tok::Label(name)
                } else {
                    self.number(start)?
                }
            }
            b'c' if self.peek_byte(1) == Some(b'"') => {
                self.pos += 1;
                Tok::CStr(self.quoted()?)
            }
            c if is_ident(c) => {
                let word = self.ident_run(false);
                if self.peek_byte(0) == Some(b':') {
                    self.pos += 1;
                    Tok::Label(word)
                } else {
                    Tok::Word(String::from_utf8_lossy(&word).into_owned())
                }
            }
            b'=' | b',' | b'*' | b'[' | b']' | b'{' | b'}' | b'(' | b')' | b'<' | b'>' | b'|'
            | b':' => {
                self.pos += 1;
                Tok::Punct(b)
            }
            other => {
                return Err(self.error(
                    start,
                    format!(
                        "unexpected character '{}'",
                        char::from(other).escape_default()
                    ),
                ))
            }
        })
    }
}

fn col_of(pos: usize, line_start: usize) -> u32 {
    u32::try_from(pos - line_start + 1).unwrap_or(u32::MAX)
}

fn hex_digit(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<Tok> {
        let mut lexer = Lexer::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            let t = lexer.next_token().unwrap();
            if t.tok == Tok::Eof {
                return out;
            }
            out.push(t.tok);
        }
    }

    #[test]
    fn names_numbers_and_metadata() {
        assert_eq!(
            all("%1 = fadd fast float %x, 1.000000e+00 ; comment\n!dx.version = !{!1}"),
            vec![
                Tok::LocalId(1),
                Tok::Punct(b'='),
                Tok::Word("fadd".into()),
                Tok::Word("fast".into()),
                Tok::Word("float".into()),
                Tok::LocalName(b"x".to_vec()),
                Tok::Punct(b','),
                Tok::Float("1.000000e+00".into()),
                Tok::MetaName(b"dx.version".to_vec()),
                Tok::Punct(b'='),
                Tok::Bang,
                Tok::Punct(b'{'),
                Tok::MetaId(1),
                Tok::Punct(b'}'),
            ]
        );
        assert_eq!(
            all("@\"a\\22b\" c\"x\\00\" 0x3FB99999A0000000 0xH3C00 if.then: !\"s\" #0 -7"),
            vec![
                Tok::GlobalName(b"a\"b".to_vec()),
                Tok::CStr(b"x\0".to_vec()),
                Tok::HexFloat(' ', "3FB99999A0000000".into()),
                Tok::HexFloat('H', "3C00".into()),
                Tok::Label(b"if.then".to_vec()),
                Tok::MetaString(b"s".to_vec()),
                Tok::AttrGroup(0),
                Tok::Int("-7".into()),
            ]
        );
    }

    #[test]
    fn positions_are_lines_and_columns() {
        let mut lexer = Lexer::new(b"a\n  %b");
        lexer.next_token().unwrap();
        let t = lexer.next_token().unwrap();
        assert_eq!((t.line, t.col), (2, 3));
        let e = Lexer::new(b"\n  \"open").next_token().unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
    }
}
