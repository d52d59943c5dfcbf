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
    /// A field holds a value its format does not define (a version, a type
    /// code, a token), or one this reader's mode does not accept.
    UnknownValue {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// Which field.
        field: ValueField,
        /// The raw value found.
        value: u64,
    },
    /// A magic number that is not the one the structure needs.
    WrongMagic {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// The magic that was expected.
        expected: Magic,
    },
    /// A size or stride is smaller than the record it has to hold.
    TooSmall {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// Which record.
        record: Record,
        /// The size or stride found.
        size: u64,
        /// The smallest valid size.
        minimum: u64,
    },
    /// A range named by the data (an offset, a size) lies outside the bytes it
    /// points into.
    OutOfBounds {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What the range is.
        what: Extent,
        /// Start of the range (an offset, or an index into a table).
        start: u32,
        /// Length of the range (bytes or entries).
        len: u32,
        /// Size of what it must lie in (bytes or entries).
        limit: u64,
    },
    /// A stored size or count disagrees with what the data holds or the
    /// format requires.
    SizeMismatch {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// Which size or count.
        what: Mismatch,
        /// The value stored in the file.
        stored: u64,
        /// The value the data holds or the format requires.
        actual: u64,
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
        /// What is counted.
        what: Limit,
        /// The value found (the limit plus one when counting stops there).
        value: u64,
        /// The limit.
        limit: u64,
    },
    /// Something the format requires is absent.
    Missing {
        /// The part being decoded, if any.
        part: Option<PartRef>,
        /// What is absent.
        what: MissingItem,
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
        Some(match self {
            UnknownValue { field, value, .. } => field.describe(*value, f),
            WrongMagic { expected, .. } => f.write_str(match expected {
                Magic::DxilBitcodeHeader => "bitcode header magic is not 'DXIL'",
                Magic::Msf => "data does not start with the MSF 7.00 magic",
            }),
            TooSmall {
                record,
                size,
                minimum,
                ..
            } => record.describe(*size, *minimum, f),
            OutOfBounds {
                what,
                start,
                len,
                limit,
                ..
            } => what.describe(*start, *len, *limit, f),
            SizeMismatch {
                what,
                stored,
                actual,
                ..
            } => what.describe(*stored, *actual, f),
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
            LimitExceeded {
                what, value, limit, ..
            } => what.describe(*value, *limit, f),
            Missing { what, .. } => f.write_str(match what {
                MissingItem::Sm2EndToken => "SM1-3 program has no end token",
                MissingItem::PdbInfoStream => "PDB has no info stream (stream 1)",
            }),
            Inflate { message, .. } => {
                write!(f, "source contents zlib stream is corrupt: {message}")
            }
            _ => return None,
        })
    }
}

/// The field of a [`ReadErrorKind::UnknownValue`] error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueField {
    /// An SM1-3 program's version token (neither vs nor ps).
    Sm2VersionToken,
    /// An SM1-3 instruction opcode this reader has no parameter count for.
    Sm1Opcode,
    /// An MSF superblock's block size (512, 1024, 2048 or 4096).
    MsfBlockSize,
    /// RTS0's version, in strict decoding.
    RootSignatureVersion,
    /// The root signature version a root descriptor is read in (the LLVM
    /// view knows no 1.2 root descriptor).
    RootDescriptorVersion,
    /// The root signature version a descriptor table is read in.
    DescriptorTableVersion,
    /// A root parameter's type.
    RootParameterType,
    /// A root parameter's shader visibility (LLVM view).
    ShaderVisibility,
    /// A static sampler field without a name in LLVM's enumeration (LLVM view).
    StaticSampler(SamplerField),
    /// A descriptor range's type (LLVM view).
    DescriptorRangeType,
    /// VERS flags (values 4 and up are not valid).
    CompilerVersionFlags,
    /// RDAT's version (0x10; anything else is a prerelease layout).
    RdatVersion,
    /// An SRCI section's type: unknown, or a second section of one type.
    SrciSectionType,
    /// SRCI's contents compression type (0 none, 1 zlib).
    SrciCompression,
    /// The source contents compression type in the LLVM view.
    SourceContentsCompression,
}

impl ValueField {
    fn describe(self, value: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ValueField::*;
        match self {
            Sm2VersionToken => write!(f, "SM1-3 version token {value:#010x} is not a vs/ps token"),
            Sm1Opcode => write!(f, "unknown shader model 1 opcode {value}"),
            MsfBlockSize => write!(f, "MSF block size {value} is not 512, 1024, 2048 or 4096"),
            RootSignatureVersion => write!(f, "unsupported root signature version {value}"),
            RootDescriptorVersion => write!(f, "Invalid Root Signature version: {value}"),
            DescriptorTableVersion => write!(
                f,
                "descriptor table in unsupported root signature version {value}"
            ),
            RootParameterType => write!(f, "invalid root parameter type {value}"),
            ShaderVisibility => write!(f, "invalid shader visibility {value}"),
            StaticSampler(field) => {
                write!(f, "Invalid value for static sampler {}", field.name())
            }
            DescriptorRangeType => f.write_str("Invalid value for descriptor range type"),
            CompilerVersionFlags => {
                f.write_str("Incorrect shader compiler version flags combination")
            }
            RdatVersion => write!(
                f,
                "RDAT version {value:#x} is not 0x10 (a prerelease layout)"
            ),
            SrciSectionType => write!(f, "invalid or repeated SRCI section type {value}"),
            SrciCompression => write!(f, "unknown SRCI compression type {value}"),
            SourceContentsCompression => {
                write!(f, "unknown source contents compression type {value}")
            }
        }
    }
}

/// The static sampler field of [`ValueField::StaticSampler`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SamplerField {
    /// Filter.
    Filter,
    /// AddressU.
    AddressU,
    /// AddressV.
    AddressV,
    /// AddressW.
    AddressW,
    /// ComparisonFunc.
    ComparisonFunc,
    /// BorderColor.
    BorderColor,
    /// ShaderVisibility.
    ShaderVisibility,
}

impl SamplerField {
    /// The field's name in messages (LLVM's spelling).
    pub fn name(self) -> &'static str {
        match self {
            SamplerField::Filter => "filter",
            SamplerField::AddressU => "AddressU",
            SamplerField::AddressV => "AddressV",
            SamplerField::AddressW => "AddressW",
            SamplerField::ComparisonFunc => "ComparisonFunc",
            SamplerField::BorderColor => "BorderColor",
            SamplerField::ShaderVisibility => "ShaderVisibility",
        }
    }
}

/// The magic of a [`ReadErrorKind::WrongMagic`] error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Magic {
    /// `DXIL` in a program part's bitcode header.
    DxilBitcodeHeader,
    /// The MSF 7.00 magic at the start of an SPDB/SDBG part.
    Msf,
}

/// The record of a [`ReadErrorKind::TooSmall`] error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Record {
    /// PSV0's resource binding stride.
    Psv0ResourceStride,
    /// PSV0's signature element stride.
    Psv0ElementStride,
    /// An SRCI section header's AlignedSizeInBytes.
    SrciSection,
    /// An SRCI source-name entry's size (strict decoding).
    SrciNameEntry,
    /// A source-name entry's AlignedSizeInBytes (LLVM view).
    SourceNameEntry,
    /// A source-contents entry's AlignedSizeInBytes (LLVM view).
    SourceContentsEntry,
    /// An RD11 record size.
    Rd11(Rd11Record),
    /// The FileSize of the container in a PDB's stream 5.
    PdbContainerFileSize,
}

impl Record {
    fn describe(self, size: u64, minimum: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Record::*;
        match self {
            Psv0ResourceStride => write!(
                f,
                "resource stride {size} is smaller than the {minimum}-byte record"
            ),
            Psv0ElementStride => write!(
                f,
                "signature element stride {size} is smaller than the {minimum}-byte record"
            ),
            SrciSection => write!(
                f,
                "section AlignedSizeInBytes {size} is smaller than its header"
            ),
            SrciNameEntry => write!(f, "SRCI name entry size {size} is too small"),
            SourceNameEntry => write!(
                f,
                "source name entry AlignedSizeInBytes {size} is smaller than its header"
            ),
            SourceContentsEntry => write!(
                f,
                "source contents entry AlignedSizeInBytes {size} is smaller than its header"
            ),
            Rd11(record) => write!(
                f,
                "RD11 {} record size {size} is below the minimum {minimum}",
                record.name()
            ),
            PdbContainerFileSize => write!(
                f,
                "container in PDB stream 5 has FileSize {size:#x}, less than its {minimum}-byte header"
            ),
        }
    }
}

/// The RD11 record of a [`Record::Rd11`] size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rd11Record {
    /// A constant buffer.
    ConstantBuffer,
    /// A bound resource.
    BoundResource,
    /// A constant buffer variable.
    Variable,
    /// A type.
    Type,
    /// A struct member.
    Member,
}

impl Rd11Record {
    /// The record's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Rd11Record::ConstantBuffer => "constant buffer",
            Rd11Record::BoundResource => "bound resource",
            Rd11Record::Variable => "variable",
            Rd11Record::Type => "type",
            Rd11Record::Member => "member",
        }
    }
}

/// The range of a [`ReadErrorKind::OutOfBounds`] error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Extent {
    /// PSV0's pipeline state data (its size prefix against the part).
    Psv0RuntimeInfo,
    /// The entry function name's offset in PSV0's string table.
    Psv0EntryName,
    /// A signature element's semantic name offset in PSV0's string table.
    Psv0SemanticName,
    /// A signature element's rows in PSV0's semantic index table (entries).
    Psv0SemanticIndices,
    /// A signature element's semantic name offset against the part.
    SemanticName,
    /// SRCI's AlignedSizeInBytes against the part.
    SrciSize,
    /// The MSF stream directory's size (at least 4, at most the file).
    MsfDirectory,
    /// An MSF stream's size against the file.
    MsfStream(u32),
}

impl Extent {
    fn describe(self, start: u32, len: u32, limit: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Extent::*;
        match self {
            Psv0RuntimeInfo => write!(
                f,
                "pipeline state data of {len:#x} bytes extends beyond the {limit}-byte part"
            ),
            Psv0EntryName => write!(
                f,
                "entry name offset {start} is outside the {limit}-byte string table"
            ),
            Psv0SemanticName => write!(
                f,
                "semantic name offset {start} is outside the {limit}-byte string table"
            ),
            Psv0SemanticIndices => write!(
                f,
                "semantic indices {start}..{} are outside the {limit}-entry index table",
                u64::from(start) + u64::from(len)
            ),
            SemanticName => write!(
                f,
                "semantic name offset {start:#x} is outside the {limit}-byte part"
            ),
            SrciSize => write!(f, "SRCI size {len} exceeds the {limit}-byte part"),
            MsfDirectory => write!(
                f,
                "MSF directory size {len:#x} is not between 4 and the file length {limit:#x}"
            ),
            MsfStream(index) => write!(
                f,
                "MSF stream {index} claims {len:#x} bytes, more than the whole file ({limit:#x})"
            ),
        }
    }
}

/// The size or count of a [`ReadErrorKind::SizeMismatch`] error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mismatch {
    /// ILDN's NameLength against the name's real length.
    DebugNameLength,
    /// SRCI's SectionCount against the three sections the format has.
    SrciSectionCount,
    /// An SRCI section's size against its content.
    SrciSectionSize,
    /// SRCI's declared uncompressed size against what the contents inflate to.
    SrciInflatedSize,
    /// The LLVM view's declared uncompressed size, when the contents inflate to more.
    SourceContentsInflatedSize,
}

impl Mismatch {
    fn describe(self, stored: u64, actual: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Mismatch::*;
        match self {
            DebugNameLength => write!(
                f,
                "debug file name length mismatch: NameLength {stored}, name of {actual} bytes"
            ),
            SrciSectionCount => write!(f, "SRCI has {stored} sections, expected {actual}"),
            SrciSectionSize => write!(
                f,
                "SRCI section size {stored} does not match its content ({actual})"
            ),
            SrciInflatedSize => f.write_str("SRCI contents decompress to the wrong size"),
            SourceContentsInflatedSize => write!(
                f,
                "source contents inflate to more than the declared {stored} bytes"
            ),
        }
    }
}

/// The count of a [`ReadErrorKind::LimitExceeded`] error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Limit {
    /// Nesting of RDEF type records.
    RdefTypeDepth,
    /// RDEF type records read in one part.
    RdefTypeRecords,
    /// Instructions of an SM1-3 program.
    Sm2Instructions,
    /// Nesting of if/loop/switch blocks in a shader program.
    BlockDepth,
    /// Declared uncompressed bytes of source contents.
    SourceContentsSize,
    /// Work units of one pass over untrusted structure
    /// ([`crate::budget`]): what the structure expands to.
    WorkBudget(Budgeted),
    /// Nesting of the struct and array types of a DXIL module's constant
    /// buffers (reflection), or of its types under the data layout.
    ConstantBufferTypeDepth,
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

impl Limit {
    fn describe(self, value: u64, limit: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Limit::*;
        match self {
            RdefTypeDepth => write!(f, "type nesting is deeper than {limit}"),
            RdefTypeRecords => write!(f, "more than {limit} type records"),
            Sm2Instructions => f.write_str("SM1-3 program has too many instructions"),
            BlockDepth => write!(f, "blocks nest deeper than {limit} levels"),
            SourceContentsSize => write!(
                f,
                "source contents declare {value} uncompressed bytes, more than the {limit}-byte limit"
            ),
            ConstantBufferTypeDepth => write!(
                f,
                "the constant buffers' struct and array types nest deeper than {limit} levels"
            ),
            WorkBudget(what) => write!(
                f,
                "{} expands past its work budget of {limit} units (shared or re-used structure)",
                what.what()
            ),
        }
    }
}

/// What is absent, for [`ReadErrorKind::Missing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MissingItem {
    /// The end token of an SM1-3 program.
    Sm2EndToken,
    /// A PDB's info stream (stream 1).
    PdbInfoStream,
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
        let unknown = |field, value| UnknownValue {
            part: None,
            field,
            value,
        };
        let too_small = |record, size, minimum| TooSmall {
            part: None,
            record,
            size,
            minimum,
        };
        let bounds = |what, start, len, limit| OutOfBounds {
            part: None,
            what,
            start,
            len,
            limit,
        };
        let mismatch = |what, stored, actual| SizeMismatch {
            part: None,
            what,
            stored,
            actual,
        };
        let limit = |what, value, limit| LimitExceeded {
            part: None,
            what,
            value,
            limit,
        };
        let rows: Vec<(ReadErrorKind, &str)> = vec![
            (
                unknown(ValueField::Sm2VersionToken, 0x1234_0200),
                "SM1-3 version token 0x12340200 is not a vs/ps token",
            ),
            (
                unknown(ValueField::Sm1Opcode, 99),
                "unknown shader model 1 opcode 99",
            ),
            (
                unknown(ValueField::MsfBlockSize, 100),
                "MSF block size 100 is not 512, 1024, 2048 or 4096",
            ),
            (
                unknown(ValueField::RootSignatureVersion, 9),
                "unsupported root signature version 9",
            ),
            (
                unknown(ValueField::RootDescriptorVersion, 3),
                "Invalid Root Signature version: 3",
            ),
            (
                unknown(ValueField::DescriptorTableVersion, 7),
                "descriptor table in unsupported root signature version 7",
            ),
            (
                unknown(ValueField::RootParameterType, 9),
                "invalid root parameter type 9",
            ),
            (
                unknown(ValueField::ShaderVisibility, 8),
                "invalid shader visibility 8",
            ),
            (
                unknown(ValueField::StaticSampler(SamplerField::AddressU), 0x99),
                "Invalid value for static sampler AddressU",
            ),
            (
                unknown(ValueField::DescriptorRangeType, 4),
                "Invalid value for descriptor range type",
            ),
            (
                unknown(ValueField::CompilerVersionFlags, 4),
                "Incorrect shader compiler version flags combination",
            ),
            (
                unknown(ValueField::RdatVersion, 0x11),
                "RDAT version 0x11 is not 0x10 (a prerelease layout)",
            ),
            (
                unknown(ValueField::SrciSectionType, 5),
                "invalid or repeated SRCI section type 5",
            ),
            (
                unknown(ValueField::SrciCompression, 2),
                "unknown SRCI compression type 2",
            ),
            (
                unknown(ValueField::SourceContentsCompression, 2),
                "unknown source contents compression type 2",
            ),
            (
                WrongMagic {
                    part: None,
                    expected: Magic::DxilBitcodeHeader,
                },
                "bitcode header magic is not 'DXIL'",
            ),
            (
                WrongMagic {
                    part: None,
                    expected: Magic::Msf,
                },
                "data does not start with the MSF 7.00 magic",
            ),
            (
                too_small(Record::Psv0ResourceStride, 8, 16),
                "resource stride 8 is smaller than the 16-byte record",
            ),
            (
                too_small(Record::Psv0ElementStride, 12, 16),
                "signature element stride 12 is smaller than the 16-byte record",
            ),
            (
                too_small(Record::SrciSection, 4, 8),
                "section AlignedSizeInBytes 4 is smaller than its header",
            ),
            (
                too_small(Record::SrciNameEntry, 4, 16),
                "SRCI name entry size 4 is too small",
            ),
            (
                too_small(Record::SourceNameEntry, 4, 16),
                "source name entry AlignedSizeInBytes 4 is smaller than its header",
            ),
            (
                too_small(Record::SourceContentsEntry, 4, 12),
                "source contents entry AlignedSizeInBytes 4 is smaller than its header",
            ),
            (
                too_small(Record::Rd11(Rd11Record::Variable), 4, 24),
                "RD11 variable record size 4 is below the minimum 24",
            ),
            (
                too_small(Record::PdbContainerFileSize, 8, 32),
                "container in PDB stream 5 has FileSize 0x8, less than its 32-byte header",
            ),
            (
                bounds(Extent::Psv0RuntimeInfo, 4, 100, 8),
                "pipeline state data of 0x64 bytes extends beyond the 8-byte part",
            ),
            (
                bounds(Extent::Psv0SemanticName, 400, 0, 24),
                "semantic name offset 400 is outside the 24-byte string table",
            ),
            (
                bounds(Extent::Psv0EntryName, 40, 0, 24),
                "entry name offset 40 is outside the 24-byte string table",
            ),
            (
                bounds(Extent::Psv0SemanticIndices, 1, 2, 2),
                "semantic indices 1..3 are outside the 2-entry index table",
            ),
            (
                bounds(Extent::SemanticName, 0x80, 0, 64),
                "semantic name offset 0x80 is outside the 64-byte part",
            ),
            (
                bounds(Extent::SrciSize, 0, 100, 64),
                "SRCI size 100 exceeds the 64-byte part",
            ),
            (
                bounds(Extent::MsfDirectory, 0, 3, 0x1000),
                "MSF directory size 0x3 is not between 4 and the file length 0x1000",
            ),
            (
                bounds(Extent::MsfStream(5), 0, 0x7fff_ffff, 0x1000),
                "MSF stream 5 claims 0x7fffffff bytes, more than the whole file (0x1000)",
            ),
            (
                mismatch(Mismatch::DebugNameLength, 7, 6),
                "debug file name length mismatch: NameLength 7, name of 6 bytes",
            ),
            (
                mismatch(Mismatch::SrciSectionCount, 2, 3),
                "SRCI has 2 sections, expected 3",
            ),
            (
                mismatch(Mismatch::SrciSectionSize, 24, 20),
                "SRCI section size 24 does not match its content (20)",
            ),
            (
                mismatch(Mismatch::SrciInflatedSize, 52, 40),
                "SRCI contents decompress to the wrong size",
            ),
            (
                mismatch(Mismatch::SourceContentsInflatedSize, 10, 11),
                "source contents inflate to more than the declared 10 bytes",
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
                limit(Limit::RdefTypeDepth, 65, 64),
                "type nesting is deeper than 64",
            ),
            (
                limit(Limit::RdefTypeRecords, 4097, 4096),
                "more than 4096 type records",
            ),
            (
                limit(Limit::Sm2Instructions, 2, 1),
                "SM1-3 program has too many instructions",
            ),
            (
                limit(Limit::SourceContentsSize, 300, 200),
                "source contents declare 300 uncompressed bytes, more than the 200-byte limit",
            ),
            (
                Missing {
                    part: None,
                    what: MissingItem::Sm2EndToken,
                },
                "SM1-3 program has no end token",
            ),
            (
                Missing {
                    part: None,
                    what: MissingItem::PdbInfoStream,
                },
                "PDB has no info stream (stream 1)",
            ),
            (
                Inflate {
                    part: None,
                    message: "corrupt deflate stream".into(),
                },
                "source contents zlib stream is corrupt: corrupt deflate stream",
            ),
        ];
        for (kind, sentence) in rows {
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
    }
}
