//! Typed read errors. Every error carries the absolute byte offset it was found at.

use crate::detail::{Detail, Words};
use crate::name::PartName;
use std::fmt;

/// An error found while reading a container or decoding a part.
///
/// `offset` is the absolute file offset where the problem was found; the
/// [`ReadErrorKind`] says what. The CLI prefixes the file name; the `Display`
/// form is one sentence that already names the part and offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// Absolute byte offset in the input where the problem lies.
    pub offset: u64,
    /// What went wrong.
    pub kind: ReadErrorKind,
}

/// Which part a decode error belongs to (index in the offset table and name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartRef {
    /// Index in the offset table.
    pub index: u32,
    /// Four-character part name.
    pub name: PartName,
    /// Offset of the part header in the file.
    pub offset: u64,
}

/// The kinds of [`ReadError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The file does not start with `DXBC`.
    BadMagic {
        /// The first bytes found (up to four).
        found: Vec<u8>,
    },
    /// The file is shorter than the 32-byte container header.
    FileTooShort {
        /// Length of the file.
        file_len: u64,
    },
    /// The offset table (`PartCount` u32 entries after the header) runs past the end of the file.
    OffsetTablePastEnd {
        /// PartCount from the header.
        part_count: u32,
        /// Length of the file.
        file_len: u64,
    },
    /// A part offset points inside the 32-byte header or the offset table.
    PartInsideHeader {
        /// Index of the part.
        index: u32,
        /// End of the header and offset table.
        header_end: u64,
    },
    /// The 8-byte part header does not fit in the file.
    PartHeaderPastEnd {
        /// Index of the part.
        index: u32,
        /// Length of the file.
        file_len: u64,
    },
    /// The part's data (size from its header) runs past the end of the file.
    PartDataPastEnd {
        /// The part.
        part: PartRef,
        /// Size field of the part header.
        size: u32,
        /// Length of the file.
        file_len: u64,
    },
    /// Two parts overlap (the 8-byte part header counts as part of a part).
    PartOverlap {
        /// The part that starts inside another.
        part: PartRef,
        /// The part it starts inside.
        other: PartRef,
    },
    /// A structure inside a part ends past the part's data.
    Truncated {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What was being read.
        what: &'static str,
        /// Bytes needed from `offset`.
        needed: u64,
        /// Bytes available from `offset`.
        available: u64,
    },
    /// A field holds a value its format does not define (a version, a type
    /// code, a token), or one this reader's mode does not accept.
    UnknownValue {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// The decoder's own words: which field, and the value found.
        detail: Detail,
    },
    /// A magic number that is not the one the structure needs.
    WrongMagic {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// The decoder's own words: the magic that was expected.
        detail: Detail,
    },
    /// A size or stride is smaller than the record it has to hold.
    TooSmall {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// The decoder's own words: which record, the size found and the
        /// smallest valid one.
        detail: Detail,
    },
    /// A range named by the data (an offset, a size) lies outside the bytes it
    /// points into.
    OutOfBounds {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// The decoder's own words: what the range is, where it lies and
        /// what it must lie in.
        detail: Detail,
    },
    /// A stored size or count disagrees with what the data holds or the
    /// format requires.
    SizeMismatch {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// The decoder's own words: which size or count, as stored and as
        /// the data holds it.
        detail: Detail,
    },
    /// A size that is not a multiple of the alignment its format requires.
    Unaligned {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What the size is.
        what: &'static str,
        /// The size found.
        value: u32,
        /// The required alignment.
        alignment: u32,
    },
    /// A string with no NUL terminator inside its bounds.
    NotNulTerminated {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What the string is.
        what: &'static str,
        /// Its offset in a string table, when it is read from one.
        table_offset: Option<u32>,
    },
    /// A field that must hold exactly one NUL-terminated string holds no
    /// terminator at its end, or a NUL inside.
    NotOneString {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What the string is.
        what: &'static str,
    },
    /// A count or depth over the limit this reader sets to bound its work and
    /// memory.
    LimitExceeded {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What is counted, and the limit: a [`Limit`] every reader shares,
        /// or a decoder's own words.
        detail: Detail,
    },
    /// Something the format requires is absent.
    Missing {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// The decoder's own words: what is absent.
        detail: Detail,
    },
    /// Compressed data that does not inflate.
    Inflate {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What the decompressor reported.
        message: String,
    },
    /// The requested part is not in the container (from a reader, an edit, a
    /// dump or a disassembly).
    PartNotFound {
        /// The name looked for.
        name: String,
    },
    /// The input does not start with the MSF 7.00 magic (`pdb.rs`).
    NotMsf {
        /// The first bytes found (up to 32).
        found: Vec<u8>,
    },
    /// An MSF block index points past the end of the file (`pdb.rs`).
    MsfBlockPastEnd {
        /// What the block belongs to: the directory, or stream `N`.
        owner: MsfBlockOwner,
        /// The block index found.
        block: u32,
        /// Blocks the file really holds (its length over the block size, rounded up).
        file_blocks: u64,
    },
    /// A part that must be unique occurs more than once, so which one is
    /// meant is ambiguous: the RTS0 of a root-signature file (`--root-signature`,
    /// `--set-root-signature`). The offset is the second part's.
    MultipleParts {
        /// The part name.
        name: PartName,
        /// Indices of the parts of that name.
        indices: Vec<u32>,
    },
    /// The PDB's stream 5 is missing, empty or not a DXBC container: fxc
    /// PDBs and ordinary program PDBs hold no DXIL container (`pdb.rs`).
    PdbNoContainer {
        /// Length of stream 5 (0 when the PDB has fewer than six streams).
        stream_len: u64,
    },
}

/// The owner of an MSF block, for [`ReadErrorKind::MsfBlockPastEnd`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MsfBlockOwner {
    /// The stream directory (listed in the block map).
    Directory,
    /// Stream `n` (listed in the directory).
    Stream(u32),
}

impl fmt::Display for MsfBlockOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MsfBlockOwner::Directory => f.write_str("the stream directory"),
            MsfBlockOwner::Stream(n) => write!(f, "stream {n}"),
        }
    }
}

impl ReadError {
    /// Creates an error at `offset`.
    pub fn new(offset: u64, kind: ReadErrorKind) -> Self {
        ReadError { offset, kind }
    }

    /// A [`ReadErrorKind::PartNotFound`] error: no part named `name` (the
    /// offset is 0, as the error is about the whole container).
    pub fn part_not_found(name: impl Into<String>) -> Self {
        ReadError::new(0, ReadErrorKind::PartNotFound { name: name.into() })
    }

    /// What went wrong.
    pub fn kind(&self) -> &ReadErrorKind {
        &self.kind
    }

    /// The part the error is about, when it is about one part.
    pub fn part(&self) -> Option<PartRef> {
        match &self.kind {
            ReadErrorKind::PartDataPastEnd { part, .. }
            | ReadErrorKind::PartOverlap { part, .. } => Some(*part),
            kind => kind.decode_part().copied(),
        }
    }

    /// Attaches the part a decode error belongs to (if not already set).
    pub fn in_part(mut self, part_ref: PartRef) -> Self {
        if let Some(part) = self.kind.decode_part_mut() {
            if part.is_none() {
                *part = Some(part_ref);
            }
        }
        self
    }
}

impl ReadErrorKind {
    /// The `part` field of the kinds a part decoder returns.
    fn decode_part_slot(&self) -> Option<&Option<PartRef>> {
        use ReadErrorKind::*;
        match self {
            Truncated { part, .. }
            | UnknownValue { part, .. }
            | WrongMagic { part, .. }
            | TooSmall { part, .. }
            | OutOfBounds { part, .. }
            | SizeMismatch { part, .. }
            | Unaligned { part, .. }
            | NotNulTerminated { part, .. }
            | NotOneString { part, .. }
            | LimitExceeded { part, .. }
            | Missing { part, .. }
            | Inflate { part, .. } => Some(part),
            _ => None,
        }
    }

    fn decode_part(&self) -> Option<&PartRef> {
        self.decode_part_slot().and_then(Option::as_ref)
    }

    fn decode_part_mut(&mut self) -> Option<&mut Option<PartRef>> {
        use ReadErrorKind::*;
        match self {
            Truncated { part, .. }
            | UnknownValue { part, .. }
            | WrongMagic { part, .. }
            | TooSmall { part, .. }
            | OutOfBounds { part, .. }
            | SizeMismatch { part, .. }
            | Unaligned { part, .. }
            | NotNulTerminated { part, .. }
            | NotOneString { part, .. }
            | LimitExceeded { part, .. }
            | Missing { part, .. }
            | Inflate { part, .. } => Some(part),
            _ => None,
        }
    }

    /// The sentence fragment of a decode error's kind (without the part
    /// prefix and the offset suffix), or `None` for the other kinds.
    fn decode_message(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        use ReadErrorKind::*;
        if let Some(detail) = self.detail_words() {
            return Some(write!(f, "{detail}"));
        }
        Some(match self {
            Unaligned {
                what,
                value,
                alignment,
                ..
            } => write!(f, "{what} {value} is not a multiple of {alignment}"),
            NotNulTerminated {
                what,
                table_offset: None,
                ..
            } => write!(f, "{what} is not NUL-terminated"),
            NotNulTerminated {
                what,
                table_offset: Some(offset),
                ..
            } => write!(
                f,
                "{what} at string table offset {offset} is not NUL-terminated"
            ),
            NotOneString { what, .. } => write!(f, "{what} is not one NUL-terminated string"),
            Inflate { message, .. } => {
                write!(f, "source contents zlib stream is corrupt: {message}")
            }
            _ => return None,
        })
    }
}

/// The limits every reader shares, carried by
/// [`ReadErrorKind::LimitExceeded`] (a decoder's own limits are in its words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Limit {
    /// Nesting of if/loop/switch blocks in a shader program.
    BlockDepth {
        /// The deepest nesting read.
        limit: u64,
    },
    /// Work units of one pass over untrusted structure
    /// ([`crate::budget`]): what the structure expands to.
    WorkBudget {
        /// The structure.
        what: Budgeted,
        /// The budget.
        limit: u64,
    },
    /// Nesting of the struct and array types of a DXIL module's constant
    /// buffers (reflection), or of its types under the data layout.
    ConstantBufferTypeDepth {
        /// The deepest nesting read.
        limit: u64,
    },
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::BlockDepth { limit } => write!(f, "blocks nest deeper than {limit} levels"),
            Limit::ConstantBufferTypeDepth { limit } => write!(
                f,
                "the constant buffers' struct and array types nest deeper than {limit} levels"
            ),
            Limit::WorkBudget { what, limit } => write!(
                f,
                "{} expands past its work budget of {limit} units (shared or re-used structure)",
                what.what()
            ),
        }
    }
}

/// The structure of a [`Limit::WorkBudget`] error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Budgeted {
    /// A DXIL module's bitcode (records, abbreviations, BLOCKINFO).
    ModuleBitcode,
    /// A DXIL module's `dx.*` metadata, shared nodes read per use.
    ModuleMetadata,
    /// The struct types of the constant buffers, shared members per use.
    ConstantBufferTypes,
}

impl Budgeted {
    fn what(self) -> &'static str {
        match self {
            Budgeted::ModuleBitcode => "the module's bitcode",
            Budgeted::ModuleMetadata => "the module's dx.* metadata",
            Budgeted::ConstantBufferTypes => "the constant buffers' struct types",
        }
    }
}

/// The decode classes, each in a decoder's own words.
impl ReadErrorKind {
    /// [`ReadErrorKind::UnknownValue`] in `words`.
    pub fn unknown_value(words: impl Words) -> ReadErrorKind {
        ReadErrorKind::UnknownValue {
            part: None,
            detail: Detail::new(words),
        }
    }

    /// [`ReadErrorKind::WrongMagic`] in `words`.
    pub fn wrong_magic(words: impl Words) -> ReadErrorKind {
        ReadErrorKind::WrongMagic {
            part: None,
            detail: Detail::new(words),
        }
    }

    /// [`ReadErrorKind::TooSmall`] in `words`.
    pub fn too_small(words: impl Words) -> ReadErrorKind {
        ReadErrorKind::TooSmall {
            part: None,
            detail: Detail::new(words),
        }
    }

    /// [`ReadErrorKind::OutOfBounds`] in `words`.
    pub fn out_of_bounds(words: impl Words) -> ReadErrorKind {
        ReadErrorKind::OutOfBounds {
            part: None,
            detail: Detail::new(words),
        }
    }

    /// [`ReadErrorKind::SizeMismatch`] in `words`.
    pub fn size_mismatch(words: impl Words) -> ReadErrorKind {
        ReadErrorKind::SizeMismatch {
            part: None,
            detail: Detail::new(words),
        }
    }

    /// [`ReadErrorKind::LimitExceeded`] in `words` (a [`Limit`], or a
    /// decoder's own).
    pub fn limit_exceeded(words: impl Words) -> ReadErrorKind {
        ReadErrorKind::LimitExceeded {
            part: None,
            detail: Detail::new(words),
        }
    }

    /// [`ReadErrorKind::Missing`] in `words`.
    pub fn missing(words: impl Words) -> ReadErrorKind {
        ReadErrorKind::Missing {
            part: None,
            detail: Detail::new(words),
        }
    }

    /// The decoder's own words of a decode error, when they are of the
    /// decoder type `T` (`e.kind.detail::<Rts0Error>()`).
    pub fn detail<T: Words>(&self) -> Option<&T> {
        self.detail_words()?.get()
    }

    /// The decoder's own words of the classes that carry them.
    fn detail_words(&self) -> Option<&Detail> {
        use ReadErrorKind::*;
        match self {
            UnknownValue { detail, .. }
            | WrongMagic { detail, .. }
            | TooSmall { detail, .. }
            | OutOfBounds { detail, .. }
            | SizeMismatch { detail, .. }
            | LimitExceeded { detail, .. }
            | Missing { detail, .. } => Some(detail),
            _ => None,
        }
    }
}

fn part_prefix(f: &mut fmt::Formatter<'_>, part: &Option<PartRef>) -> fmt::Result {
    if let Some(p) = part {
        write!(
            f,
            "part {} '{}' at offset {:#x}: ",
            p.index, p.name, p.offset
        )?;
    }
    Ok(())
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ReadErrorKind::*;
        match &self.kind {
            BadMagic { found } => write!(
                f,
                "not a DirectX container: expected magic 'DXBC' at offset 0x0, found '{}'",
                crate::name::escape_bytes(found)
            ),
            FileTooShort { file_len } => write!(
                f,
                "file is {file_len:#x} bytes, shorter than the 32-byte container header"
            ),
            OffsetTablePastEnd {
                part_count,
                file_len,
            } => write!(
                f,
                "offset table of {part_count} parts at offset 0x20 runs past the end of the file ({file_len:#x} bytes)"
            ),
            PartInsideHeader { index, header_end } => write!(
                f,
                "part {index} at offset {:#x} starts inside the header and offset table (which end at {header_end:#x})",
                self.offset
            ),
            PartHeaderPastEnd { index, file_len } => write!(
                f,
                "part {index} at offset {:#x}: the 8-byte part header runs past the end of the file ({file_len:#x} bytes)",
                self.offset
            ),
            PartDataPastEnd {
                part,
                size,
                file_len,
            } => write!(
                f,
                "part {} '{}' at offset {:#x}: size {size:#x} runs past the end of the file ({file_len:#x} bytes)",
                part.index, part.name, part.offset
            ),
            PartOverlap { part, other } => write!(
                f,
                "part {} '{}' at offset {:#x} starts inside part {} '{}' at offset {:#x}",
                part.index, part.name, part.offset, other.index, other.name, other.offset
            ),
            Truncated {
                part,
                what,
                needed,
                available,
            } => {
                part_prefix(f, part)?;
                write!(
                    f,
                    "{what} at offset {:#x} needs {needed:#x} bytes but only {available:#x} remain",
                    self.offset
                )
            }
            PartNotFound { name } => write!(f, "part '{name}' not found"),
            NotMsf { found } => write!(
                f,
                "not an MSF 7.00 PDB: expected 'Microsoft C/C++ MSF 7.00' at offset 0x0, found '{}'",
                crate::name::escape_bytes(found)
            ),
            MsfBlockPastEnd {
                owner,
                block,
                file_blocks,
            } => write!(
                f,
                "PDB block {block} of {owner} (listed at offset {:#x}) is past the end of the file, which holds {file_blocks} blocks",
                self.offset
            ),
            PdbNoContainer { .. } => {
                f.write_str("PDB has no DXIL container in stream 5 (an fxc PDB?)")
            }
            MultipleParts { name, indices } => {
                let list: Vec<String> = indices.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "more than one {name} part (parts {}): which one is meant is ambiguous",
                    list.join(", ")
                )
            }
            kind => {
                if let Some(part) = kind.decode_part_slot() {
                    part_prefix(f, part)?;
                }
                if let Some(result) = kind.decode_message(f) {
                    result?;
                }
                write!(f, " (at offset {:#x})", self.offset)
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// Result type of the reader.
pub type Result<T, E = ReadError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Errors travel by value through every decoder: the kinds stay as small
    /// as the largest one had been before they were typed.
    #[test]
    fn kinds_stay_small() {
        assert!(std::mem::size_of::<ReadErrorKind>() <= 56);
    }

    /// Every decode kind's sentence, exactly as the tools print it (docs/errors.md).
    #[test]
    fn decode_kinds_print_their_sentence() {
        use ReadErrorKind::*;
        let part = PartRef {
            index: 2,
            name: PartName(*b"PSV0"),
            offset: 0x40,
        };
        // A decoder's own words, as each decode class carries them.
        #[derive(Debug, Clone, PartialEq)]
        struct Words(&'static str);
        impl fmt::Display for Words {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.0)
            }
        }
        let words = |text| Detail::new(Words(text));
        let detail = || words("the decoder's sentence");
        let limit = |limit: Limit| LimitExceeded {
            part: None,
            detail: Detail::new(limit),
        };
        let rows: Vec<(ReadErrorKind, &str)> = vec![
            (UnknownValue { part: None, detail: detail() }, "the decoder's sentence"),
            (WrongMagic { part: None, detail: detail() }, "the decoder's sentence"),
            (TooSmall { part: None, detail: detail() }, "the decoder's sentence"),
            (OutOfBounds { part: None, detail: detail() }, "the decoder's sentence"),
            (SizeMismatch { part: None, detail: detail() }, "the decoder's sentence"),
            (LimitExceeded { part: None, detail: detail() }, "the decoder's sentence"),
            (Missing { part: None, detail: detail() }, "the decoder's sentence"),
            (
                limit(Limit::BlockDepth { limit: 64 }),
                "blocks nest deeper than 64 levels",
            ),
            (
                limit(Limit::ConstantBufferTypeDepth { limit: 32 }),
                "the constant buffers' struct and array types nest deeper than 32 levels",
            ),
            (
                limit(Limit::WorkBudget { what: Budgeted::ModuleMetadata, limit: 1000 }),
                "the module's dx.* metadata expands past its work budget of 1000 units (shared or re-used structure)",
            ),
            (
                Unaligned {
                    part: None,
                    what: "string table size",
                    value: 5,
                    alignment: 4,
                },
                "string table size 5 is not a multiple of 4",
            ),
            (
                NotNulTerminated {
                    part: None,
                    what: "VERS CommitSha",
                    table_offset: None,
                },
                "VERS CommitSha is not NUL-terminated",
            ),
            (
                NotNulTerminated {
                    part: None,
                    what: "semantic name",
                    table_offset: Some(11),
                },
                "semantic name at string table offset 11 is not NUL-terminated",
            ),
            (
                NotOneString {
                    part: None,
                    what: "SRCI file content",
                },
                "SRCI file content is not one NUL-terminated string",
            ),
            (
                Inflate {
                    part: None,
                    message: "corrupt deflate stream".into(),
                },
                "source contents zlib stream is corrupt: corrupt deflate stream",
            ),
        ];
        let mut known = 0;
        for (kind, sentence) in rows {
            known += usize::from(kind.detail::<Words>().is_some());
            let e = ReadError::new(0x48, kind);
            assert_eq!(e.to_string(), format!("{sentence} (at offset 0x48)"));
            assert_eq!(e.part(), None);
            let e = e.in_part(part);
            assert_eq!(
                e.to_string(),
                format!("part 2 'PSV0' at offset 0x40: {sentence} (at offset 0x48)")
            );
            assert_eq!(e.part(), Some(part));
            // A part already attached stays.
            let other = PartRef { index: 3, ..part };
            assert_eq!(e.in_part(other).part(), Some(part));
        }
        assert_eq!(known, 7);
        assert_eq!(words("x"), words("x"));
        assert_ne!(words("x"), Detail::new(Limit::BlockDepth { limit: 1 }));
    }
}
