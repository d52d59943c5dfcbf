//! Typed read errors. Every error carries the absolute byte offset it was found at.

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
    /// A value inside a part is not valid.
    Invalid {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What is wrong, as a sentence fragment.
        message: String,
    },
    /// The requested part is not in the container.
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

    /// An [`ReadErrorKind::Invalid`] error at `offset` with no part attached yet.
    pub fn invalid(offset: u64, message: impl Into<String>) -> Self {
        ReadError::new(
            offset,
            ReadErrorKind::Invalid {
                part: None,
                message: message.into(),
            },
        )
    }

    /// Attaches the part a decode error belongs to (if not already set).
    pub fn in_part(mut self, part_ref: PartRef) -> Self {
        match &mut self.kind {
            ReadErrorKind::Truncated { part, .. } | ReadErrorKind::Invalid { part, .. }
                if part.is_none() =>
            {
                *part = Some(part_ref);
            }
            _ => {}
        }
        self
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
            Invalid { part, message } => {
                part_prefix(f, part)?;
                write!(f, "{message} (at offset {:#x})", self.offset)
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
        }
    }
}

impl std::error::Error for ReadError {}

/// Result type of the reader.
pub type Result<T, E = ReadError> = std::result::Result<T, E>;
