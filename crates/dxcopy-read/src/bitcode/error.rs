//! Typed bitstream errors: every error carries the bit offset (from the start
//! of the bitcode, wrapper header included) where the problem was found.

/// An error found while reading an LLVM bitstream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bitcode at bit {bit_offset} (byte {:#x}): {kind}", bit_offset / 8)]
pub struct BitcodeError {
    /// Bit offset from the start of the bitcode where the problem lies.
    pub bit_offset: u64,
    /// What went wrong.
    pub kind: BitcodeErrorKind,
}

/// The kinds of [`BitcodeError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BitcodeErrorKind {
    /// The data does not start with `BC 0xC0DE` (nor with a wrapper header).
    #[error("not LLVM bitcode (found {found:02x?} instead of 42 43 c0 de)")]
    BadMagic {
        /// The first bytes found (up to four).
        found: Vec<u8>,
    },
    /// The wrapper header's offset and size do not lie inside the data.
    #[error(
        "wrapper header places the bitcode at {offset:#x}+{size:#x}, outside the {len:#x} bytes"
    )]
    BadWrapper {
        /// Offset field.
        offset: u32,
        /// Size field.
        size: u32,
        /// Length of the data.
        len: u64,
    },
    /// The stream length is not a multiple of 4 bytes.
    #[error("stream length {len:#x} is not a multiple of 4 bytes")]
    UnalignedLength {
        /// Length of the stream in bytes.
        len: u64,
    },
    /// A read runs past the end of the stream or of the enclosing block.
    #[error("{what} runs past the end of the enclosing block or of the stream")]
    Truncated {
        /// What was being read.
        what: &'static str,
    },
    /// A VBR value has more than 64 significant bits.
    #[error("VBR value does not fit in 64 bits")]
    VbrOverflow,
    /// A value does not fit the field it describes.
    #[error("{what} {value} is out of range")]
    OutOfRange {
        /// What the value is.
        what: &'static str,
        /// The value.
        value: u64,
    },
    /// An abbreviation ID that is neither a builtin nor defined in scope.
    #[error("abbreviation ID {id} is not defined in block {block_id}")]
    UnknownAbbrev {
        /// The ID read.
        id: u64,
        /// The enclosing block.
        block_id: u32,
    },
    /// An abbreviation definition that LLVM rejects.
    #[error("invalid abbreviation definition: {reason}")]
    BadAbbrev {
        /// Why.
        reason: &'static str,
    },
    /// A literal operand used where a value must be read, or similar misuse.
    #[error("invalid record: {reason}")]
    BadRecord {
        /// Why.
        reason: &'static str,
    },
    /// Something other than a block at the top level of the stream.
    #[error("abbreviation ID {id} at the top level (only blocks may appear there)")]
    NotABlock {
        /// The ID read.
        id: u64,
    },
    /// A block's END_BLOCK is not where its length word says it ends.
    #[error("block {block_id} ends at bit {actual_end}, its length word says bit {declared_end}")]
    BlockLengthMismatch {
        /// The block.
        block_id: u32,
        /// Where END_BLOCK left the stream.
        actual_end: u64,
        /// Where the length word puts the end.
        declared_end: u64,
    },
    /// A BLOCKINFO block defines an abbreviation before any SETBID record.
    #[error("BLOCKINFO defines an abbreviation before SETBID")]
    BlockInfoWithoutSetBid,
    /// A record of a DXIL module that LLVM 3.7's reader rejects (too few
    /// fields, an ID out of range, a type that does not fit, …).
    #[error("invalid record (block {block_id}, code {code}): {reason}")]
    InvalidRecord {
        /// The block the record is in.
        block_id: u32,
        /// The record code.
        code: u32,
        /// Why.
        reason: &'static str,
    },
    /// A record code the module reader does not know where it must (a
    /// function body's instruction codes, the type table's codes).
    #[error("unknown record code {code} in block {block_id}")]
    UnknownRecord {
        /// The block.
        block_id: u32,
        /// The record code.
        code: u32,
    },
    /// A value, type or metadata ID referred to but never defined.
    #[error("{what} {id} is referred to but never defined")]
    Unresolved {
        /// What kind of ID.
        what: &'static str,
        /// The ID.
        id: u64,
    },
    /// A block of a DXIL module where the module does not allow it, or a
    /// module-level inconsistency (a second MODULE block, a function body
    /// without a function, …).
    #[error("invalid module structure: {reason}")]
    InvalidModule {
        /// Why.
        reason: &'static str,
    },
    /// A bitstream without a MODULE block (the magic alone, say).
    #[error("no MODULE block")]
    NoModule,
    /// The stream expands past its work budget ([`crate::budget`]):
    /// abbreviations whose literals, or BLOCKINFO abbreviations whose
    /// copies, add up to far more fields than the stream has bits.
    #[error("{0}")]
    OverBudget(#[from] crate::budget::OverBudget),
    /// Blocks nested more deeply than the reader allows.
    #[error("blocks nested more than {limit} deep")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
}

/// Result with [`BitcodeError`].
pub type Result<T> = std::result::Result<T, BitcodeError>;

pub(crate) fn err<T>(bit_offset: u64, kind: BitcodeErrorKind) -> Result<T> {
    Err(BitcodeError { bit_offset, kind })
}
