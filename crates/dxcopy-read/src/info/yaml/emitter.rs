//! A small YAML writer that prints what LLVM's `yaml::Output` prints for the
//! shapes obj2yaml uses, and LLVM's scalar spellings (quoting, `%g`, hex).

// ---------------------------------------------------------------------------
// Scalars

pub(super) fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// `yaml::Hex8/16/32/64`: `0x` and upper-case digits without padding.
pub(super) fn hex(v: u64) -> String {
    format!("0x{v:X}")
}

/// printf `%g` (6 significant digits) of a double, as LLVM prints floats.
pub fn format_g(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    let scientific = format!("{v:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..6).contains(&exponent) {
        let mantissa = trim_fraction(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        let decimals = (5 - exponent) as usize;
        trim_fraction(&format!("{v:.decimals$}")).to_string()
    }
}

pub(super) fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// How LLVM's YAML writer quotes a string scalar (`yaml::needsQuotes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quoting {
    None,
    Single,
    Double,
}

pub(super) fn is_numeric(s: &[u8]) -> bool {
    let skip_digits = |s: &[u8]| -> usize { s.iter().take_while(|c| c.is_ascii_digit()).count() };
    if s.is_empty() || s == b"+" || s == b"-" {
        return false;
    }
    if s == b".nan" || s == b".NaN" || s == b".NAN" {
        return true;
    }
    let tail = if s[0] == b'-' || s[0] == b'+' {
        &s[1..]
    } else {
        s
    };
    if tail == b".inf" || tail == b".Inf" || tail == b".INF" {
        return true;
    }
    if let Some(rest) = s.strip_prefix(b"0o") {
        return !rest.is_empty() && rest.iter().all(|c| (b'0'..=b'7').contains(c));
    }
    if let Some(rest) = s.strip_prefix(b"0x") {
        return !rest.is_empty() && rest.iter().all(|c| c.is_ascii_hexdigit());
    }
    let mut s = tail;
    if s.first() == Some(&b'.') && (s.len() == 1 || !s[1].is_ascii_digit()) {
        return false;
    }
    if matches!(s.first(), Some(b'e' | b'E')) {
        return false;
    }
    s = &s[skip_digits(s)..];
    if s.is_empty() {
        return true;
    }
    if s[0] == b'.' {
        s = &s[1..];
        s = &s[skip_digits(s)..];
        if s.is_empty() {
            return true;
        }
        if !matches!(s[0], b'e' | b'E') {
            return false;
        }
        s = &s[1..];
    } else if matches!(s[0], b'e' | b'E') {
        s = &s[1..];
    } else {
        return false;
    }
    if s.is_empty() {
        return false;
    }
    if s[0] == b'+' || s[0] == b'-' {
        s = &s[1..];
        if s.is_empty() {
            return false;
        }
    }
    skip_digits(s) == s.len()
}

pub(super) fn needs_quotes(s: &[u8]) -> Quoting {
    if s.is_empty() {
        return Quoting::Single;
    }
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let mut quoting = Quoting::None;
    if is_space(s[0]) || is_space(s[s.len() - 1]) {
        quoting = Quoting::Single;
    }
    let null = matches!(s, b"null" | b"Null" | b"NULL" | b"~");
    let boolean = matches!(
        s,
        b"true" | b"True" | b"TRUE" | b"false" | b"False" | b"FALSE"
    );
    if null || boolean || is_numeric(s) {
        quoting = Quoting::Single;
    }
    if b"-?:\\,[]{}#&*!|>'\"%@`".contains(&s[0]) {
        quoting = Quoting::Single;
    }
    for &c in s {
        if c.is_ascii_alphanumeric() {
            continue;
        }
        match c {
            b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t' => continue,
            b'\n' | b'\r' | 0x7f => return Quoting::Double,
            c if c <= 0x1f || c & 0x80 != 0 => return Quoting::Double,
            _ => quoting = Quoting::Single,
        }
    }
    quoting
}

/// Whether LLVM's `sys::unicode::isPrintable` treats a code point as printable.
/// Approximation: control, format, separator (other than space), surrogate,
/// private-use and non-character code points are not printable; unassigned
/// code points are treated as printable.
pub(super) fn is_printable(c: u32) -> bool {
    !matches!(c,
        0x80..=0x9f
        | 0xad
        | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890..=0x891 | 0x8e2
        | 0x180e
        | 0x200b..=0x200f | 0x2028..=0x202e | 0x2060..=0x206f
        | 0xd800..=0xf8ff
        | 0xfeff | 0xfff9..=0xfffb | 0xfffe..=0xffff
        | 0x110bd | 0x110cd | 0x13430..=0x1343f | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a
        | 0xe0001 | 0xe0020..=0xe007f
        | 0xf0000..=0x10ffff)
        && (c & 0xfffe) != 0xfffe
}

/// `yaml::escape(S, /*EscapePrintable=*/false)`: the body of a double-quoted scalar.
pub(super) fn escape_double(s: &[u8]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        match c {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            0 => out.push_str("\\0"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x09 => out.push_str("\\t"),
            0x0a => out.push_str("\\n"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            0x0d => out.push_str("\\r"),
            0x1b => out.push_str("\\e"),
            c if c < 0x20 => out.push_str(&format!("\\x{c:02X}")),
            c if c & 0x80 != 0 => {
                let Some((ch, len)) = decode_utf8(&s[i..]) else {
                    // LLVM writes U+FFFD for an invalid sequence and stops.
                    out.push('\u{fffd}');
                    return out;
                };
                match ch as u32 {
                    0x85 => out.push_str("\\N"),
                    0xa0 => out.push_str("\\_"),
                    0x2028 => out.push_str("\\L"),
                    0x2029 => out.push_str("\\P"),
                    cp if is_printable(cp) => out.push(ch),
                    cp if cp <= 0xff => out.push_str(&format!("\\x{cp:02X}")),
                    cp if cp <= 0xffff => out.push_str(&format!("\\u{cp:04X}")),
                    cp => out.push_str(&format!("\\U{cp:08X}")),
                }
                i += len;
                continue;
            }
            c => out.push(c as char),
        }
        i += 1;
    }
    out
}

/// Decodes one UTF-8 sequence the way LLVM's `decodeUTF8` accepts it
/// (shortest form, no surrogates, at most U+10FFFF).
pub(super) fn decode_utf8(s: &[u8]) -> Option<(char, usize)> {
    let len = match s[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let text = std::str::from_utf8(s.get(..len)?).ok()?;
    text.chars().next().map(|c| (c, len))
}

// ---------------------------------------------------------------------------
// The writer

/// What LLVM's `yaml::Output` has pending before the next token: a line break
/// (and indentation) or the padding after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    Newline,
    Spaces(usize),
}

/// A small model of LLVM's `yaml::Output` for the shapes obj2yaml prints:
/// block mappings, block sequences of mappings, flow sequences of scalars
/// (wrapped after column 70) and block sequences of flow sequences.
pub(super) struct Emitter {
    buf: String,
    pending: Pending,
}

impl Emitter {
    pub(super) fn new() -> Self {
        Emitter {
            buf: "--- !dxcontainer".to_string(),
            pending: Pending::Newline,
        }
    }

    pub(super) fn finish(mut self) -> String {
        self.buf.push_str("\n...\n");
        self.buf
    }

    /// Starts a token: the pending padding, or a new line indented to `indent`
    /// with a `- ` marker when `dash`.
    pub(super) fn start(&mut self, indent: usize, dash: bool) {
        match self.pending {
            Pending::Spaces(n) => self.buf.extend(std::iter::repeat_n(' ', n)),
            Pending::Newline => {
                self.buf.push('\n');
                if dash {
                    self.buf
                        .extend(std::iter::repeat_n(' ', indent.saturating_sub(2)));
                    self.buf.push_str("- ");
                } else {
                    self.buf.extend(std::iter::repeat_n(' ', indent));
                }
            }
        }
        self.pending = Pending::Newline;
    }

    pub(super) fn key_text(&mut self, name: &str) {
        self.buf.push_str(name);
        self.buf.push(':');
        self.pending = Pending::Spaces(if name.len() < 16 { 16 - name.len() } else { 1 });
    }

    /// A mapping key at column `col`.
    pub(super) fn key(&mut self, col: usize, name: &str) {
        self.start(col, false);
        self.key_text(name);
    }

    /// The first key of a sequence item: `- ` two columns left of `col`.
    pub(super) fn item_key(&mut self, col: usize, name: &str) {
        self.pending = Pending::Newline;
        self.start(col, true);
        self.key_text(name);
    }

    /// The value of the preceding key is a nested mapping (or a sequence).
    pub(super) fn begin_mapping(&mut self) {
        self.pending = Pending::Newline;
    }

    /// A plain scalar value.
    pub(super) fn scalar(&mut self, text: &str) {
        self.start(0, false);
        self.buf.push_str(text);
        self.pending = Pending::Newline;
    }

    /// An enumeration value: its name, or — like obj2yaml for a value without
    /// a name — nothing at all (the key's padding stays pending).
    pub(super) fn enum_value(&mut self, name: Option<&str>) {
        if let Some(name) = name {
            self.scalar(name);
        }
    }

    /// A string value, quoted and escaped as LLVM does.
    pub(super) fn string(&mut self, bytes: &[u8]) {
        let text = match needs_quotes(bytes) {
            Quoting::None => String::from_utf8_lossy(bytes).into_owned(),
            Quoting::Single => {
                format!("'{}'", String::from_utf8_lossy(bytes).replace('\'', "''"))
            }
            Quoting::Double => format!("\"{}\"", escape_double(bytes)),
        };
        self.scalar(&text);
    }

    /// `[]` for an empty block sequence.
    pub(super) fn empty_sequence(&mut self) {
        self.scalar("[]");
    }

    pub(super) fn column(&self) -> usize {
        self.buf.len() - self.buf.rfind('\n').map_or(0, |i| i + 1)
    }

    /// A flow sequence as the value of the preceding key.
    pub(super) fn flow(&mut self, items: impl IntoIterator<Item = String>) {
        self.start(0, false);
        self.flow_body(items);
    }

    /// A flow sequence as an item of a block sequence (`- [ … ]`), the dash at `col - 2`.
    pub(super) fn flow_item(&mut self, col: usize, items: impl IntoIterator<Item = String>) {
        self.pending = Pending::Newline;
        self.start(col, true);
        self.flow_body(items);
    }

    pub(super) fn flow_body(&mut self, items: impl IntoIterator<Item = String>) {
        let start = self.column();
        self.buf.push_str("[ ");
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.buf.push_str(", ");
            }
            // LLVM checks before every element, the first included.
            if self.column() > 70 {
                self.buf.push('\n');
                self.buf.extend(std::iter::repeat_n(' ', start + 2));
            }
            self.buf.push_str(&item);
        }
        self.buf.push_str(" ]");
        self.pending = Pending::Newline;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_g() {
        let rows: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.25, "0.25"),
            (1.1f32 as f64, "1.1"),
            (1000.0, "1000"),
            (15.0, "15"),
            (f32::MAX as f64, "3.40282e+38"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (1234565.0, "1.23456e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (999999.5, "1e+06"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (v, want) in rows {
            assert_eq!(format_g(*v), *want, "{v}");
        }
    }

    #[test]
    fn quoting() {
        let rows: &[(&[u8], Quoting)] = &[
            (b"POSITION", Quoting::None),
            (b"A B", Quoting::None),
            (b"tab\tX", Quoting::None),
            (b"PLAIN_name.1", Quoting::None),
            (b"", Quoting::Single),
            (b"-x", Quoting::Single),
            (b"true", Quoting::Single),
            (b"123", Quoting::Single),
            (b"1.5e3", Quoting::Single),
            (b"0x1F", Quoting::Single),
            (b"0o17", Quoting::Single),
            (b"~", Quoting::Single),
            (b"Null", Quoting::Single),
            (b"a/b", Quoting::Single),
            (b"sp ", Quoting::Single),
            (b"new\nline", Quoting::Double),
            (b"del\x7f", Quoting::Double),
            (b"caf\xc3\xa9", Quoting::Double),
            (b"a\x01", Quoting::Double),
        ];
        for (s, want) in rows {
            assert_eq!(needs_quotes(s), *want, "{}", String::from_utf8_lossy(s));
        }
        assert_eq!(escape_double(b"bs\\x\n"), "bs\\\\x\\n");
        assert_eq!(escape_double(b"ctl\x01z"), "ctl\\x01z");
        assert_eq!(escape_double(b"ab\xffcd"), "ab\u{fffd}");
        assert_eq!(
            escape_double("x\u{85}y\u{200b}z\u{a0}".as_bytes()),
            "x\\Ny\\u200Bz\\_"
        );
    }

    #[test]
    fn flow_wrapping() {
        let mut e = Emitter::new();
        e.key(2, "Hash");
        e.flow((0..16).map(|_| hex(0)));
        let text = e.finish();
        assert_eq!(
            text,
            "--- !dxcontainer\n  Hash:            [ 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, \n                     0x0, 0x0, 0x0, 0x0, 0x0, 0x0 ]\n...\n"
        );
    }
}
