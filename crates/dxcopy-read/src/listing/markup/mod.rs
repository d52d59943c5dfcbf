//! Colour for listings: [`spans`] classifies each line of a DXBC or DXIL
//! listing into instructions, registers, literals and comments, and
//! [`MarkupWriter`] writes the listing with that colour as ANSI escapes (a
//! terminal) or as an HTML page (`--disasm-html`, fxc's `/Cc`). Both
//! writers take their classes from [`spans`], so a terminal and a browser
//! never colour a token differently, and both only add markup: the text
//! stays the plain listing's, byte for byte (docs/format/listing-colour.md).
//!
//! The classifier works on bytes (every token boundary is ASCII), so names
//! from the file that are not UTF-8 pass through unchanged; the work is one
//! pass over each line. [`PageWriter`] puts the HTML of one or more
//! listings into one page.

mod write;

pub use write::{markup, page, MarkupWriter, PageWriter};

/// Which listing a text is: the comment syntax and the shape of a statement
/// differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// fxc's listing of a DXBC program (`//` comments, `mov r0.x, l(1.0)`).
    Dxbc,
    /// dxc's listing of a DXIL module: LLVM IR (`;` comments, `%3 = call …`).
    Dxil,
}

/// What a span of a listing line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Spaces, punctuation, types and keywords: no colour.
    Plain,
    /// The instruction or directive a statement starts with (`mov`,
    /// `dcl_input_ps`, `ps_5_0`; `call`, `define`, `ret`).
    Instruction,
    /// A register or named value (`r0.xyzw`, `cb0`, `vThreadID`; `%3`,
    /// `@main`, `!12`).
    Register,
    /// A number, string or constant (`l(`, `1.000000`, `0x3f800000`;
    /// `"name"`, `true`, `undef`).
    Literal,
    /// A comment, to the end of the line.
    Comment,
}

/// How [`MarkupWriter`] marks up a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// ANSI colour escapes for a terminal.
    Ansi,
    /// HTML for the `<pre>` of a [`PageWriter`] page: each class a
    /// `<span>`, the text escaped.
    Html,
}

/// Calls `emit` with each span of `line` (one line of a listing, without
/// its line end) and its class, in order; the spans join to `line`.
pub fn spans(line: &[u8], dialect: Dialect, mut emit: impl FnMut(Class, &[u8])) {
    let mut at = 0;
    // The first word of a statement is its instruction; in DXIL a value
    // name and `=` may come before it (`%3 = call …`), in a numbered DXBC
    // listing the instruction's number.
    let mut statement_start = true;
    while at < line.len() {
        let rest = &line[at..];
        let (class, len) = if starts_comment(rest, dialect) {
            (Class::Comment, rest.len())
        } else {
            let (class, len) = token(rest, dialect, statement_start);
            // A metadata definition (`!1 = !{…}`) has no instruction.
            let metadata = class == Class::Register && rest[0] == b'!';
            statement_start &= class != Class::Instruction && !metadata;
            (class, len)
        };
        emit(class, &rest[..len]);
        at += len;
    }
}

#[inline]
fn starts_comment(rest: &[u8], dialect: Dialect) -> bool {
    match dialect {
        Dialect::Dxbc => rest.starts_with(b"//"),
        Dialect::Dxil => rest[0] == b';',
    }
}

/// The class and length of the token `rest` starts with (never 0).
fn token(rest: &[u8], dialect: Dialect, statement_start: bool) -> (Class, usize) {
    let first = rest[0];
    if first == b'"' {
        return (Class::Literal, quoted_len(rest));
    }
    if dialect == Dialect::Dxil && matches!(first, b'%' | b'@' | b'!') && rest.len() > 1 {
        let name = &rest[1..];
        let len = if name[0] == b'"' {
            quoted_len(name)
        } else {
            run(name, |b| is_dxil_name_byte(*b))
        };
        // A lone `!` opens a metadata tuple (`!{`) or string (`!"…"`).
        if len > 0 && (first != b'!' || name[0] != b'"') {
            let class = if first == b'%' && is_dxil_type_name(name) {
                Class::Plain
            } else {
                Class::Register
            };
            return (class, 1 + len);
        }
    }
    let signed = matches!(first, b'-' | b'+') && rest.get(1).is_some_and(u8::is_ascii_digit);
    if first.is_ascii_digit() || signed {
        return (Class::Literal, number_len(rest));
    }
    if is_word_byte(first) {
        // A swizzle or mask stays with its register (`r0.xyzw`).
        let len = run(rest, |b| is_word_byte(*b) || *b == b'.');
        let word = &rest[..len];
        let label = dialect == Dialect::Dxil && rest.get(len) == Some(&b':');
        let class = if statement_start && label {
            // A block's label (`entry:`), which `br label %entry` names.
            Class::Register
        } else if statement_start {
            Class::Instruction
        } else {
            word_class(word, rest.get(len).copied(), dialect)
        };
        return (class, len);
    }
    (Class::Plain, 1 + run(&rest[1..], |b| is_plain_run_byte(*b)))
}

/// The class of a word after a statement's first: registers by their shape,
/// literal words by name.
fn word_class(word: &[u8], next: Option<u8>, dialect: Dialect) -> Class {
    match dialect {
        Dialect::Dxbc => {
            // `l(…)` and `d(…)` hold immediate values.
            if matches!(word, b"l" | b"d") && next == Some(b'(') {
                return Class::Literal;
            }
            if is_dxbc_register(word) {
                Class::Register
            } else {
                Class::Plain
            }
        }
        Dialect::Dxil => match word {
            b"true" | b"false" | b"null" | b"undef" | b"zeroinitializer" | b"c" => Class::Literal,
            _ => Class::Plain,
        },
    }
}

/// `r0`, `cb12`, `x3`, `CB0` (letters then digits, a swizzle or mask after a
/// dot), `icb`, `null` and the named input and output registers
/// (`vThreadID`, `oDepth`, `vCoverage`).
fn is_dxbc_register(word: &[u8]) -> bool {
    let base = word.split(|b| *b == b'.').next().unwrap_or(word);
    let letters = run(base, u8::is_ascii_alphabetic);
    let digits = &base[letters..];
    if letters > 0 && !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        return true;
    }
    match base {
        b"icb" | b"null" | b"this" | b"vicp" | b"vocp" | b"vpc" | b"fb" | b"fp" => true,
        [b'v' | b'o', second, ..] => second.is_ascii_uppercase(),
        _ => false,
    }
}

/// The named types of dxc's modules (`%dx.types.Handle`,
/// `%struct.PSInput`, `%"class.Texture2D<…>"`): types print plain, like
/// `i32`.
fn is_dxil_type_name(name: &[u8]) -> bool {
    let name = name.strip_prefix(b"\"").unwrap_or(name);
    [&b"dx.types."[..], b"struct.", b"class.", b"hostlayout."]
        .iter()
        .any(|prefix| name.starts_with(prefix))
}

/// Byte classes, one table lookup each (the classifier's inner loops).
const WORD: u8 = 1;
const DXIL_NAME: u8 = 2;
const PLAIN_RUN: u8 = 4;
/// Bytes an HTML writer escapes.
pub(super) const HTML_SPECIAL: u8 = 8;

const BYTE_CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        let word = byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$';
        let mut class = 0;
        if word {
            class |= WORD;
        }
        if word || matches!(byte, b'.' | b'-') {
            class |= DXIL_NAME;
        }
        // Anything that cannot start another token or a comment.
        if !(word || matches!(byte, b'"' | b'%' | b'@' | b'!' | b'-' | b'+' | b'/' | b';')) {
            class |= PLAIN_RUN;
        }
        if matches!(byte, b'&' | b'<' | b'>' | b'"' | b'\'') {
            class |= HTML_SPECIAL;
        }
        table[b] = class;
        b += 1;
    }
    table
};

#[inline]
pub(super) fn has_class(b: u8, class: u8) -> bool {
    BYTE_CLASSES[b as usize] & class != 0
}

#[inline]
fn is_word_byte(b: u8) -> bool {
    has_class(b, WORD)
}

#[inline]
fn is_dxil_name_byte(b: u8) -> bool {
    has_class(b, DXIL_NAME)
}

/// Bytes that continue a plain run: anything that cannot start another
/// token or a comment.
#[inline]
fn is_plain_run_byte(b: u8) -> bool {
    has_class(b, PLAIN_RUN)
}

#[inline]
fn run(bytes: &[u8], keep: impl Fn(&u8) -> bool) -> usize {
    bytes.iter().position(|b| !keep(b)).unwrap_or(bytes.len())
}

/// A number: digits, letters (`0x…`, `e`, `#INF`), dots, and a sign right
/// after an exponent's `e`.
fn number_len(rest: &[u8]) -> usize {
    let mut len = 1;
    while let Some(&b) = rest.get(len) {
        let exponent_sign =
            matches!(b, b'+' | b'-') && matches!(rest[len - 1], b'e' | b'E') && !is_hex(rest);
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'#' || b == b'_' || exponent_sign {
            len += 1;
        } else {
            break;
        }
    }
    len
}

fn is_hex(number: &[u8]) -> bool {
    let digits = number.strip_prefix(b"-").unwrap_or(number);
    digits.starts_with(b"0x") || digits.starts_with(b"0X")
}

/// A `"…"` string to its closing quote (LLVM escapes bytes as `\XX`, so a
/// quote never appears inside), or to the end of the line.
fn quoted_len(rest: &[u8]) -> usize {
    match rest[1..].iter().position(|b| *b == b'"') {
        Some(close) => close + 2,
        None => rest.len(),
    }
}

#[cfg(test)]
mod tests;
