//! The DXBC assembler: a Shader Model 4.0–5.1 listing, as Microsoft's
//! disassembler or dxinfo prints it (or written by hand in the same
//! syntax), assembled into the SHDR/SHEX program fxc would have written,
//! and into a signed container.
//!
//! - [`assemble`] parses a listing: the program from its `ps_5_0`-style
//!   profile line on, and the signature tables in the comments above it.
//!   Errors carry the line and column ([`AsmError`]).
//! - [`build_container`] makes a new container (signatures and program,
//!   signed); [`patch_container`] replaces the program (and the signatures
//!   that changed) of an existing one, keeping every other part byte for
//!   byte, and recomputes or drops STAT.
//! - [`check_round_trip`] disassembles a container's program and assembles
//!   the listing again, comparing token by token.
//!
//! Names and numbers come from dxcopy-read's tables
//! ([`dxcopy_read::sm4::opcode`], [`dxcopy_read::sm4::names`]),
//! the same rows the disassembler prints from.

mod container;
mod hints;
mod lex;
mod parse;
mod signature;
mod stat;
#[cfg(test)]
mod tests;

pub use container::{
    build_container, check_round_trip, patch_container, patch_container_with, AsmWarning,
    DxasmError, Patched, RoundTrip,
};
pub use hints::FloatHints;
pub use parse::{MAX_INDICES, MAX_RELATIVE_DEPTH};
pub use signature::{SignatureRow, SignatureTable, TableRole};
pub use stat::{count_statistics, recompute_statistics};

use dxcopy_read::budget::Budget;
use dxcopy_read::sm4::Program;
use dxcopy_read::{PartName, ShaderKind};
use std::fmt;

/// An assembly error: where (1-based line and column) and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: error: {kind}")]
pub struct AsmError {
    /// 1-based line of the listing.
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
    /// What is wrong.
    pub kind: AsmErrorKind,
}

impl AsmError {
    pub(crate) fn new(line: u32, column: u32, kind: AsmErrorKind) -> AsmError {
        AsmError { line, column, kind }
    }
}

/// The kinds of [`AsmError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AsmErrorKind {
    /// No `vs_4_0`-style profile line (SM4.0–5.1) starts a program.
    NoProfile,
    /// A character no token starts with.
    UnexpectedCharacter(char),
    /// A `/*` comment without its `*/`.
    UnclosedComment,
    /// Something else was expected here.
    Expected {
        /// What would have fit.
        expected: &'static str,
        /// What was found (quoted) or `the end of the line`.
        found: String,
    },
    /// A mnemonic no shader model defines.
    UnknownInstruction(String),
    /// A suffix the instruction does not take (`_sat` on a declaration, …).
    UnknownSuffix {
        /// The suffix, without its `_`.
        suffix: String,
        /// The whole mnemonic.
        instruction: String,
    },
    /// A register name no operand type has.
    UnknownRegister(String),
    /// A name that is not one of its field's values.
    UnknownName {
        /// The field (`resource dimension`, `system value`, …).
        what: &'static str,
        /// The name written.
        name: String,
    },
    /// Component letters that are not a mask, swizzle or selection here.
    BadComponents(String),
    /// A number that does not parse or does not fit 32 bits.
    BadNumber(String),
    /// A number outside its field.
    OutOfRange {
        /// The field.
        what: &'static str,
        /// The value written.
        value: i64,
    },
    /// An immediate with other than one or four values (two doubles).
    ImmediateCount(usize),
    /// A conditional instruction without `_z` or `_nz`.
    MissingTest(String),
    /// An instruction longer than the opcode token's 7-bit length.
    InstructionTooLong(usize),
    /// A signature table row that does not read.
    BadSignatureRow(String),
    /// Relative indices nested deeper than the limit
    /// ([`MAX_RELATIVE_DEPTH`]).
    NestedTooDeep {
        /// The deepest nesting taken.
        limit: u32,
    },
    /// An operand with more indices than its token can count
    /// ([`MAX_INDICES`]), at the `[` of the one too many.
    TooManyIndices {
        /// The most an operand takes.
        limit: u32,
    },
    /// A mnemonic with an empty suffix: a doubled `_` (`mov__sat`) or a
    /// trailing one (`mov_`); the mnemonic is cut to its first 40
    /// characters.
    EmptySuffix(String),
    /// Reading the listing took more than its work budget
    /// ([`dxcopy_read::budget`]; linear in the text, so only a budget set
    /// smaller than the text's can be spent).
    OverBudget {
        /// The budget's limit.
        limit: u64,
    },
    /// A line starting with `#` that is not a `#line N ["file"]` directive
    /// (the only one fxc's listings hold); the line is cut to its first 40
    /// characters.
    UnknownDirective(String),
}

impl fmt::Display for AsmErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use AsmErrorKind::*;
        match self {
            NoProfile => f.write_str("no shader profile line (vs_4_0 … cs_5_1) starts a program"),
            UnexpectedCharacter(c) => write!(f, "unexpected character '{c}'"),
            UnclosedComment => f.write_str("unterminated /* comment"),
            Expected { expected, found } => write!(f, "expected {expected}, found {found}"),
            // Text quoted from the listing is cut to 40 characters: a
            // megabyte of digits or `_` is not repeated in the message.
            UnknownInstruction(name) => write!(f, "unknown instruction '{}'", lex::cut(name)),
            UnknownSuffix {
                suffix,
                instruction,
            } => write!(f, "unknown suffix '_{suffix}' in '{instruction}'"),
            UnknownRegister(name) => write!(f, "unknown register type '{}'", lex::cut(name)),
            UnknownName { what, name } => write!(f, "unknown {what} '{}'", lex::cut(name)),
            BadComponents(letters) => {
                write!(f, "invalid component letters '{}'", lex::cut(letters))
            }
            BadNumber(text) => write!(f, "invalid number '{}'", lex::cut(text)),
            OutOfRange { what, value } => write!(f, "{what} {value} is out of range"),
            ImmediateCount(n) => write!(f, "an immediate has 1 or 4 values, not {n}"),
            MissingTest(name) => write!(f, "'{name}' needs a test: '{name}_z' or '{name}_nz'"),
            InstructionTooLong(n) => write!(f, "instruction of {n} words is longer than 127"),
            BadSignatureRow(row) => write!(f, "unreadable signature row '{row}'"),
            NestedTooDeep { limit } => {
                write!(f, "relative indices nested deeper than {limit} levels")
            }
            TooManyIndices { limit } => {
                write!(f, "an operand takes at most {limit} indices")
            }
            OverBudget { limit } => write!(
                f,
                "reading the listing takes more than its work budget of {limit} units"
            ),
            EmptySuffix(name) => write!(
                f,
                "empty suffix in '{name}' (a doubled or trailing '_'): suffixes are '_sat', '_z', …"
            ),
            UnknownDirective(line) => write!(
                f,
                "'{line}' is not a directive a listing holds (only '#line N [\"file\"]')"
            ),
        }
    }
}

/// A float immediate whose listing text may have lost digits (`%f` keeps
/// six decimals), assembled as the nearest value because no reference
/// program said which float it was (see [`FloatHints`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InexactImmediate {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The text (`0.333333`, `1.#QNAN0`).
    pub text: String,
}

/// An assembled listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembly {
    /// The stage of the profile line.
    pub stage: ShaderKind,
    /// Shader model (major, minor).
    pub model: (u8, u8),
    /// The program part's data (SHDR for SM4.x, SHEX for SM5.x).
    pub program: Vec<u8>,
    /// The signature tables of the listing's comments, in listing order.
    pub signatures: Vec<SignatureTable>,
    /// Float texts taken as the nearest value that may have lost digits.
    pub inexact: Vec<InexactImmediate>,
}

impl Assembly {
    /// SHEX for Shader Model 5, SHDR for 4.
    pub fn program_part(&self) -> PartName {
        if self.model.0 >= 5 {
            PartName(*b"SHEX")
        } else {
            PartName(*b"SHDR")
        }
    }
}

/// Where the program starts: the 0-based line of its profile line, the
/// stage and the model. Lines before it are comments, blank, or the Level9
/// listing (after its `// Level9 shader bytecode:` heading). `text` has its
/// block comments blanked ([`blank_block_comments`]). The profile line holds
/// the profile and at most a comment: anything else on it is an error.
fn find_profile(text: &str) -> Result<(usize, ShaderKind, (u8, u8)), AsmError> {
    let mut level9 = false;
    let mut count = 0;
    for (number, raw) in text.lines().enumerate() {
        count = number + 1;
        let line = raw.trim();
        if line.starts_with("//") || line.starts_with(';') || line.is_empty() {
            if line.contains("Level9 shader bytecode") {
                level9 = true;
            }
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        let word = line
            .split(|c: char| c.is_whitespace() || c == ';' || c == '/')
            .next()
            .unwrap_or("");
        if let Some(found) = parse_profile(word) {
            let after = &line[word.len()..];
            let rest = after.trim_start();
            if !(rest.is_empty() || rest.starts_with("//") || rest.starts_with(';')) {
                let at = indent + word.len() + (after.len() - rest.len());
                return Err(AsmError::new(
                    number as u32 + 1,
                    raw[..at].chars().count() as u32 + 1,
                    AsmErrorKind::Expected {
                        expected: "the end of the profile line",
                        found: format!("'{}'", rest.chars().take(40).collect::<String>()),
                    },
                ));
            }
            return Ok((number, found.0, found.1));
        }
        if line.starts_with('#') {
            // The same rule as between instructions (the lexer's).
            if !lex::is_line_directive(line) {
                return Err(AsmError::new(
                    number as u32 + 1,
                    raw[..indent].chars().count() as u32 + 1,
                    AsmErrorKind::UnknownDirective(lex::cut(line)),
                ));
            }
            continue;
        }
        if !level9 {
            return Err(AsmError::new(
                number as u32 + 1,
                raw[..indent].chars().count() as u32 + 1,
                AsmErrorKind::NoProfile,
            ));
        }
    }
    Err(AsmError::new(
        count.max(1) as u32,
        1,
        AsmErrorKind::NoProfile,
    ))
}

/// `text` with each line end that is a lone CR (classic Mac OS) turned into
/// a line feed, so that every line end ends a line; a CR before a line feed
/// stays (it is white space). The length, and so every column, is kept.
fn line_feeds(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(if c == '\r' && chars.peek() != Some(&'\n') {
            '\n'
        } else {
            c
        });
    }
    std::borrow::Cow::Owned(out)
}

/// `text` with each `/* … */` comment turned into spaces (its line ends
/// kept), so that lines keep their numbers and columns. A `/*` without its
/// `*/` is an error at the `/*`: the rest of the file is not dropped unread.
fn blank_block_comments(text: &str) -> Result<std::borrow::Cow<'_, str>, AsmError> {
    if !text.contains("/*") {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        // A `//` or `;` comment before it on the same line hides it.
        let line_start = rest[..start].rfind('\n').map_or(0, |i| i + 1);
        let before = &rest[line_start..start];
        if before.contains("//") || before.contains(';') {
            let end = rest[start..].find('\n').map_or(rest.len(), |i| start + i);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        out.push_str(&rest[..start]);
        let Some(close) = rest[start + 2..].find("*/") else {
            let before = &text[..text.len() - rest.len() + start];
            let line = before.bytes().filter(|b| *b == b'\n').count() + 1;
            let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
                .chars()
                .count()
                + 1;
            return Err(AsmError::new(
                line as u32,
                column as u32,
                AsmErrorKind::UnclosedComment,
            ));
        };
        let end = start + 2 + close + 2;
        for c in rest[start..end].chars() {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    Ok(std::borrow::Cow::Owned(out))
}

/// `ps_5_0` → (pixel, (5, 0)); SM4.0–5.1 only.
fn parse_profile(word: &str) -> Option<(ShaderKind, (u8, u8))> {
    let mut parts = word.split('_');
    let (prefix, major, minor) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let model = (major.parse().ok()?, minor.parse().ok()?);
    if !matches!(model, (4, 0) | (4, 1) | (5, 0) | (5, 1)) {
        return None;
    }
    let stage = (0..=5u16)
        .map(ShaderKind::from_raw)
        .find(|k| k.profile_prefix().eq_ignore_ascii_case(prefix))?;
    Some((stage, model))
}

/// How four-value immediates are encoded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ImmediateEncoding {
    /// As fxc writes them: `l(a,b,c,d)` always carries four values, even
    /// when they are the same.
    #[default]
    Fxc,
    /// As Microsoft's free-syntax assembler (`testasm`, the assembler of
    /// DirectXShaderCompiler's `projects/dxilconv/test/dxbc2dxil-asm` pairs)
    /// writes them: four values with the same bits become a one-value
    /// immediate, which the hardware replicates to every component
    /// (`l(0,0,0,0)` → `l(0)`, 3 tokens fewer). Different values keep four.
    Compact,
}

/// Choices of [`assemble_with`] beyond the listing's text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AsmOptions {
    /// How four-value immediates are encoded.
    pub immediates: ImmediateEncoding,
    /// [`patch_container_with`]: patch a container whose program is of
    /// another stage than the listing's (refused otherwise).
    pub force: bool,
}

/// Assembles a listing. `hints` recovers the exact bits of float immediates
/// printed inexactly (see [`FloatHints`]); [`FloatHints::none`] parses each
/// as the nearest value. Immediates are encoded as fxc does
/// ([`assemble_with`] chooses otherwise).
pub fn assemble(text: &str, hints: &mut FloatHints) -> Result<Assembly, AsmError> {
    assemble_with(text, hints, &AsmOptions::default())
}

/// [`assemble`] with `options`.
pub fn assemble_with(
    text: &str,
    hints: &mut FloatHints,
    options: &AsmOptions,
) -> Result<Assembly, AsmError> {
    assemble_with_budget(text, hints, options, &Budget::for_input(text.len()))
}

/// [`assemble_with`], spending the work of reading the text from `budget`
/// (an error past it): one unit per byte the lexer looks at and per
/// character a column is counted over, and one per token the parser takes
/// and per mnemonic byte and table lookup. `budget.used()` afterwards,
/// whether it assembled or not, is the work done: the tests assert it
/// grows with the text and no faster.
pub fn assemble_with_budget(
    text: &str,
    hints: &mut FloatHints,
    options: &AsmOptions,
    budget: &Budget,
) -> Result<Assembly, AsmError> {
    let text = &*line_feeds(text);
    let text = &*blank_block_comments(text)?;
    let (profile_line, stage, model) = find_profile(text)?;
    let signatures = signature::parse_tables(text, profile_line, stage)?;
    // The program: from the line after the profile, numbered as in the file.
    let mut offset = 0;
    for line in text.split_inclusive('\n').take(profile_line + 1) {
        offset += line.len();
    }
    let tokens = lex::tokenize(&text[offset..], profile_line as u32 + 2, budget)?;
    let mut parser = parse::Parser::new(&tokens, model >= (5, 1), hints);
    parser.compact_immediates = options.immediates == ImmediateEncoding::Compact;
    let parsed = parser.run();
    let spent = budget.spend(parser.work);
    parsed?;
    if spent.is_err() {
        let last = tokens.last().map_or((1, 1), |t| (t.line, t.column));
        return Err(AsmError::new(
            last.0,
            last.1,
            AsmErrorKind::OverBudget {
                limit: budget.limit(),
            },
        ));
    }
    let mut words = Vec::with_capacity(parser.words.len() + 2);
    words.push((u32::from(stage.raw()) << 16) | (u32::from(model.0) << 4) | u32::from(model.1));
    words.push(parser.words.len() as u32 + 2);
    words.extend(parser.words);
    Ok(Assembly {
        stage,
        model,
        program: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        signatures,
        inexact: parser.inexact,
    })
}

/// [`assemble`] with the immediates of `reference` (a program part's data,
/// SHDR/SHEX) as hints; a reference that does not decode gives none.
pub fn assemble_with_reference(text: &str, reference: Option<&[u8]>) -> Result<Assembly, AsmError> {
    let mut hints = reference
        .and_then(|data| Program::decode(data, 0).ok())
        .map(|p| FloatHints::from_program(&p))
        .unwrap_or_default();
    assemble(text, &mut hints)
}
