//! Typed editing errors.

use dxcopy_read::{PartName, ReadError};
use std::path::PathBuf;

/// An error from building, laying out or writing an edit.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// The input could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// `add` of a name that is already present ([`Remedy::UpdateInstead`]).
    #[error("part '{0}' already exists")]
    AlreadyExists(PartName),
    /// A dump of an empty part (or empty bitcode).
    #[error("part '{0}' is empty")]
    EmptyPart(PartName),
    /// More than one PRIV part would be written ([`Remedy::StripOrReplacePriv`]).
    #[error("more than one PRIV part ({0})")]
    MultiplePriv(usize),
    /// The output would exceed the u32 FileSize.
    #[error("output of {0:#x} bytes exceeds the 4 GiB limit of a container")]
    TooLarge(u64),
    /// A part name given by the caller that is not four ASCII characters.
    #[error("part name '{0}' is not exactly 4 ASCII characters")]
    BadName(String),
    /// An array name for a written C header that is not a C identifier
    /// (letters, digits and `_`, not starting with a digit).
    #[error("array name '{}' is not a C identifier (letters, digits and _, not starting with a digit)", .0.escape_debug())]
    BadArrayName(String),
    /// A bad pattern: a glob, or a regular expression.
    #[error("invalid pattern '{pattern}': {message}")]
    BadPattern {
        /// The pattern as given.
        pattern: String,
        /// What is wrong.
        message: String,
    },
    /// Replacing bitcode requires a decodable program part.
    #[error("cannot replace the bitcode of part '{name}': {source}")]
    NotAProgram {
        /// DXIL or ILDB.
        name: PartName,
        /// Why the existing part does not decode.
        source: ReadError,
    },
    /// A digest policy name that is not one of [`DigestPolicy`](crate::DigestPolicy)'s.
    #[error("unknown digest policy '{0}' (auto, retail, debug, zero, keep, bypass, preview)")]
    UnknownDigestPolicy(String),
    /// A HASH policy name that is not one of [`HashPolicy`](crate::HashPolicy)'s.
    #[error("unknown hash policy '{0}' (auto, keep, update)")]
    UnknownHashPolicy(String),
    /// A strip class name that is not one of [`StripClass`](crate::StripClass)'s.
    #[error("unknown strip class '{0}' (debug, reflect, priv, rootsig, all)")]
    UnknownStripClass(String),
    /// Splitting off the debug info with an empty PDB path.
    #[error("{}", split_debug_without_path(Operation::describe))]
    SplitDebugWithoutPath,
    /// A RenderDoc debug path that is empty or holds a NUL character.
    #[error("the RenderDoc debug path must be non-empty and without NUL characters")]
    BadRenderDocDebugPath,
    /// An empty debug name (ILDN).
    #[error("the debug name is empty")]
    EmptyDebugName,
    /// A debug name (ILDN) longer than 65535 bytes or holding a NUL character.
    #[error(
        "the debug name must be at most 65535 bytes without NUL characters ({length} bytes given)"
    )]
    BadDebugName {
        /// Its length in bytes.
        length: usize,
    },
    /// The HASH part a split or a pairing needs does not decode.
    #[error("the HASH part does not decode: {source}")]
    BadHashPart {
        /// Why.
        source: ReadError,
    },
    /// A HASH part is needed but there is no DXIL or ILDB program to compute it from.
    #[error("cannot compute a HASH part: the container has no DXIL or ILDB program")]
    NoProgramToHash,
    /// A HASH part is needed but the program it would cover does not decode.
    #[error("cannot compute a HASH part: the {name} part is not a DXIL program ({source})")]
    HashSourceNotAProgram {
        /// DXIL or ILDB.
        name: PartName,
        /// Why it does not decode.
        source: ReadError,
    },
    /// A file list (one path a line) larger than the cap.
    #[error("'{}': file list larger than {limit} bytes", path.display())]
    FileListTooLarge {
        /// The list.
        path: PathBuf,
        /// The cap in bytes.
        limit: u64,
    },
    /// A line of a file list longer than any path.
    #[error("'{}': line {line} is longer than {limit} bytes: not a list of paths", path.display())]
    FileListLineTooLong {
        /// The list.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// The longest line accepted, in bytes.
        limit: usize,
    },
    /// A line of a file list holding a NUL byte, which no path holds: the
    /// list is a binary file.
    #[error("'{}': line {line} holds a NUL byte: not a list of paths", path.display())]
    FileListLineHasNul {
        /// The list.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
    },
    /// A directory of a batch walk (or an entry in it) that could not be
    /// read: one failure of the batch, whose other files are still edited.
    #[error("'{}': cannot walk the directory: {source}", path.display())]
    WalkFailed {
        /// The directory (or entry).
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A line of a file list that is not UTF-8 (where paths are text).
    #[error("'{}': line {line} is not UTF-8", path.display())]
    FileListLineNotUtf8 {
        /// The list.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
    },
    /// A disassembly asked for a part that holds no program.
    #[error("{}", not_disassemblable(*.0, Operation::describe))]
    NotDisassemblable(PartName),
    /// Splitting off the debug info on a container with nothing to split off.
    #[error("nothing to split: the container has no ILDB, SRCI or PDBI part, so a PDB would hold no debug info (the shader was compiled without /Zi, or its debug info was already stripped or split off)")]
    NoDebugInfo,
    /// Adding debug info from a PDB (or PDB container) holding no ILDB, SRCI or PDBI.
    #[error("the PDB holds no ILDB, SRCI or PDBI part to add")]
    PdbWithoutDebugInfo,
    /// Adding debug info from a PDB that does not belong to the shader
    /// ([`Remedy::Force`]).
    #[error("the PDB does not belong to this shader: {reason}")]
    PdbMismatch {
        /// What was compared.
        reason: PdbMismatchReason,
    },
    /// Extracting the PDB from a PRIV part that is not an MSF file.
    #[error("the PRIV part does not hold a PDB: it does not start with the MSF 7.00 magic")]
    PrivNotPdb,
    /// A PDB input would be edited in place.
    #[error("the input is a PDB: the container in its stream 5 can be read or written to another file, but editing in place would replace the PDB with a container; give an output file")]
    PdbInPlace,
    /// An error about the container found in a PDB's stream 5.
    #[error("in the container in PDB stream 5: {0}")]
    InPdbStream(Box<EditError>),
    /// The LLVM bitcode of a program part cannot be read or rewritten.
    #[error("part '{name}': {source}")]
    Bitcode {
        /// DXIL, ILDB or STAT.
        name: PartName,
        /// Why.
        source: crate::bitcode::RewriteError,
    },
    /// The derived parts cannot be rebuilt: the container has no DXIL
    /// program whose module reads.
    #[error("cannot rebuild the derived parts: {reason}")]
    RebuildParts {
        /// Why.
        reason: RebuildFailure,
    },
    /// The validator version cannot be set.
    #[error("cannot set the validator version: {reason}")]
    SetValidatorVersion {
        /// Why.
        reason: ValidatorFailure,
    },
    /// A bitcode dump of a part that holds no LLVM bitcode ([`Remedy::BitcodePart`]).
    #[error("part '{0}' holds no LLVM bitcode")]
    NotBitcode(PartName),
    /// An output that is neither a regular file, a new path, a character
    /// device nor a FIFO (a block device or a socket).
    #[error("'{}' is {kind}: refusing to write a container or part to it", path.display())]
    SpecialOutput {
        /// The output as given.
        path: PathBuf,
        /// What it is, e.g. [`FileKind::BlockDevice`].
        kind: FileKind,
    },
    /// An in-place edit of something that is not a regular file.
    /// The front end says what to do instead ([`Remedy::GiveOutput`],
    /// [`Remedy::WalkDirectory`]).
    #[error("{}", not_regular_in_place(path, *kind))]
    NotRegularInPlace {
        /// The input as given.
        path: PathBuf,
        /// What it is (after following symlinks), e.g. [`FileKind::Fifo`].
        kind: FileKind,
    },
    /// The input changed (truncated or written to) while the run read it.
    #[error("'{}': {change}; nothing was written", path.display())]
    InputChanged {
        /// The input.
        path: PathBuf,
        /// What changed.
        change: dxcopy_read::InputChange,
    },
    /// An output of the run is the input file itself (under any spelling).
    #[error("{}", output_is_input(path, *what, Operation::describe))]
    OutputIsInput {
        /// The output as given.
        path: PathBuf,
        /// What writes it, e.g. [`Operation::DumpSection`].
        what: Operation,
    },
    /// Two outputs of one run name the same file.
    #[error("{}", duplicate_output(first, *first_what, second, *second_what, Operation::describe))]
    DuplicateOutput {
        /// The earlier output.
        first: PathBuf,
        /// What writes it.
        first_what: Operation,
        /// The later output.
        second: PathBuf,
        /// What writes it.
        second_what: Operation,
    },
    /// A data file given to an operation ([`Operation::AddSection`],
    /// [`Operation::AddDebugFrom`], …) is not what that operation needs.
    #[error("{}", data_file(path, *option, &source.to_string(), Operation::describe))]
    DataFile {
        /// The data file.
        path: PathBuf,
        /// The operation that named it.
        option: Operation,
        /// What is wrong with it.
        source: Box<EditError>,
    },
    /// A data file larger than a container can hold, or, read from
    /// something that is not a regular file, larger than the cap for such
    /// data.
    #[error("{}", data_too_large(path, *option, *limit, *streamed, Operation::describe))]
    DataTooLarge {
        /// The data file.
        path: PathBuf,
        /// The operation that named it.
        option: Operation,
        /// The limit in bytes.
        limit: u64,
        /// The data was streamed (standard input, a pipe, a device), so the
        /// limit is the cap on data read into memory, not a container's size.
        streamed: bool,
    },
    /// A dump of every part ([`dump_all`](crate::dump_all())): a name the dump
    /// would create inside its directory already exists as something it may
    /// not write through (a symbolic link, a FIFO, a device, a regular file
    /// where a subdirectory goes).
    #[error("{}", dump_all_refused(path, *kind, *by, Operation::describe))]
    DumpAllRefused {
        /// The entry.
        path: PathBuf,
        /// What it is, e.g. [`FileKind::SymbolicLink`].
        kind: FileKind,
        /// What was writing: [`Operation::DumpAll`] or
        /// [`Operation::ExtractSources`].
        by: Operation,
    },
    /// Standard input named by two arguments of one run.
    #[error("{}", stdin_twice(*first, *second, Operation::describe))]
    StdinTwice {
        /// The first reader: [`Operation::Input`] or an operation's data.
        first: Operation,
        /// The second.
        second: Operation,
    },
    /// One part name added twice by one run.
    #[error("{}", added_twice(*.0, Operation::describe))]
    AddedTwice(PartName),
    /// A root-signature file that is not a valid root signature.
    #[error("'{}': not a valid root signature: {source}", path.display())]
    BadRootSignature {
        /// The file given.
        path: PathBuf,
        /// Why it does not decode.
        source: ReadError,
    },
    /// More than one DXIL, ILDB or STAT part: which one a tool reads is ambiguous.
    #[error("more than one {name} part (parts {}): which one is the shader's is ambiguous, so the file is not edited (llvm-objcopy refuses it too); dxinfo shows them", join_indices(.indices))]
    MultipleProgramParts {
        /// DXIL, ILDB or STAT.
        name: PartName,
        /// Indices of the parts of that name.
        indices: Vec<u32>,
    },
    /// Adding debug info from a directory that holds no debug file for the shader.
    #[error("no debug file for this shader in '{}' (tried {})", dir.display(), join_paths(.tried))]
    DebugFileNotFound {
        /// The directory searched.
        dir: PathBuf,
        /// The paths tried, in order.
        tried: Vec<PathBuf>,
    },
    /// A C header input that does not read (the line and column of the fault).
    #[error("{0}")]
    Header(#[from] dxcopy_read::c_header::HeaderError),
    /// A C header input without a byte array.
    #[error("no byte array (`const BYTE NAME[] = {{ … }};`) in the C header")]
    NoArrays,
    /// A C header input without the array asked for.
    #[error("no array named '{name}' in the C header (it holds {})", names.join(", "))]
    NoSuchArray {
        /// The name asked for.
        name: String,
        /// The arrays the header holds, in file order.
        names: Vec<String>,
    },
    /// A C header input with several arrays, none chosen ([`Remedy::ChooseArray`]).
    #[error("the C header holds {} arrays ({}): which one to use is ambiguous", names.len(), names.join(", "))]
    AmbiguousArray {
        /// The arrays, in file order.
        names: Vec<String>,
    },
    /// An array chosen for an input that is a container (or PDB), not a
    /// C header.
    #[error("the input is a container, not a C header: it has no array '{0}' to choose")]
    NotAHeader(String),
    /// An error about the container held in one array of a C header.
    #[error("array '{name}' (line {line}): {source}")]
    InArray {
        /// The array's name.
        name: String,
        /// Its line in the header.
        line: usize,
        /// The error.
        source: Box<EditError>,
    },
    /// The listing a C header output holds could not be made.
    #[error("cannot write the header's listing: {0}")]
    Listing(dxcopy_read::listing::dxbc::DisasmError),
    /// dxc's listing of a DXIL container, for the `#if 0` block of a C
    /// header output, could not be made (the module does not read, or its
    /// listing is past the work budget): as `dxinfo --disasm`, nothing is
    /// written.
    #[error("cannot write the header's listing: {0}")]
    DxilListing(dxcopy_read::listing::dxil::ListingError),
    /// A C header output asked for without an output file: in place, it
    /// would replace the container with text ([`Remedy::GiveOutput`]).
    #[error("a C header output replaces nothing in place")]
    HeaderOutputInPlace,
    /// Extracting sources from a container without SRCI.
    #[error("no source files to extract: the container has no SRCI part (dxc embeds one with /Zi /Qembed_debug, or writes it to the companion PDB)")]
    NoSources,
    /// Two recorded source names that land on one path below the
    /// extraction folder (or one on a folder of the other).
    #[error("source files '{first}' and '{second}' both map to '{}' below the extraction folder", path.display())]
    SourcePathClash {
        /// The path below the folder.
        path: PathBuf,
        /// The first recorded name.
        first: String,
        /// The second.
        second: String,
    },
    /// A recorded source name deeper or longer than an extraction takes
    /// (the limits are the extraction's, `sources::MAX_SOURCE_DEPTH` folders
    /// and `sources::MAX_SOURCE_PATH` bytes).
    #[error(
        "SRCI: source file {index} ('{recorded}') has a path of {depth} components and {length} bytes below the extraction folder; at most {max_depth} and {max_length} are extracted; nothing was written"
    )]
    SourcePathTooLong {
        /// The file's 0-based index in SRCI's names.
        index: usize,
        /// The recorded name's first 80 characters.
        recorded: String,
        /// Its components below the folder.
        depth: usize,
        /// Its length in bytes below the folder (`/` between components).
        length: usize,
        /// The most components extracted.
        max_depth: usize,
        /// The most bytes extracted.
        max_length: usize,
    },
    /// An I/O error on a named file.
    #[error("'{}': {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// What a file is, for errors about a file that is not what an operation
/// needs (an output that cannot be written, an input that cannot be edited
/// in place, an entry a dump may not write through).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileKind {
    /// A regular file.
    Regular,
    /// A directory.
    Directory,
    /// A symbolic link (when links are not followed).
    SymbolicLink,
    /// A FIFO (named pipe).
    Fifo,
    /// A character device.
    CharacterDevice,
    /// A block device.
    BlockDevice,
    /// A socket.
    Socket,
    /// Something else.
    Other,
}

impl std::fmt::Display for FileKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileKind::Regular => "a regular file",
            FileKind::Directory => "a directory",
            FileKind::SymbolicLink => "a symbolic link",
            FileKind::Fifo => "a FIFO",
            FileKind::CharacterDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Socket => "a socket",
            FileKind::Other => "not a regular file",
        })
    }
}

/// What did not match when a PDB was paired with a shader (neither the
/// PDB's GUID nor its HASH part is the shader's HASH, and its container
/// does not carry the shader's digest).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PdbMismatchReason {
    /// A PDB file: its GUID is not the shader's HASH digest.
    Guid {
        /// The PDB's GUID.
        guid: [u8; 16],
        /// The shader's HASH digest, when it has a HASH part.
        shader_hash: Option<[u8; 16]>,
    },
    /// A PDB's container: its HASH part is not the shader's.
    HashPart {
        /// The PDB container's HASH digest, when it has a HASH part.
        pdb_hash: Option<[u8; 16]>,
        /// The shader's HASH digest, when it has a HASH part.
        shader_hash: Option<[u8; 16]>,
    },
}

impl std::fmt::Display for PdbMismatchReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use dxcopy_read::fields::hex;
        let shader = |h: &Option<[u8; 16]>| {
            h.as_ref()
                .map_or("none (the shader has no HASH part)".to_string(), |h| hex(h))
        };
        match self {
            PdbMismatchReason::Guid { guid, shader_hash } => write!(
                f,
                "its GUID {} is not the shader's HASH digest {}",
                hex(guid),
                shader(shader_hash)
            )?,
            PdbMismatchReason::HashPart {
                pdb_hash,
                shader_hash,
            } => write!(
                f,
                "its HASH part {} is not the shader's {}",
                pdb_hash.as_ref().map_or("(none)".to_string(), |h| hex(h)),
                shader(shader_hash)
            )?,
        }
        f.write_str(", and its container does not carry the shader's digest")
    }
}

/// Why `--rebuild-parts` could not derive the parts from the module.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RebuildFailure {
    /// The container has no DXIL part.
    #[error("the container has no DXIL part")]
    NoProgram,
    /// The DXIL part is not a program.
    #[error("the DXIL part is not a DXIL program ({0})")]
    NotAProgram(ReadError),
    /// The DXIL part's bitcode does not read.
    #[error("the DXIL module does not read ({0})")]
    Module(dxcopy_read::bitcode::BitcodeError),
    /// The module's metadata does not give the parts.
    #[error("{0}")]
    Derive(dxcopy_read::dxil::derived::DeriveError),
}

/// Why the validator version cannot be set.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidatorFailure {
    /// The container has no DXIL part.
    #[error("the container has no DXIL part")]
    NoProgram,
    /// A program part is not a program.
    #[error("part '{name}' is not a DXIL program ({source})")]
    NotAProgram {
        /// DXIL, ILDB or STAT.
        name: PartName,
        /// Why.
        source: ReadError,
    },
    /// A program part's module does not read.
    #[error("part '{name}': the module does not read ({source})")]
    Module {
        /// DXIL, ILDB or STAT.
        name: PartName,
        /// Why.
        source: dxcopy_read::bitcode::BitcodeError,
    },
    /// The DXIL module has no `dx.valver` node of two integers.
    #[error("the DXIL module has no dx.valver of two integers to change")]
    NoValidatorVersion,
    /// Not a validator version dxc takes (1.x, or 0.0: not to be validated).
    #[error("{major}.{minor} is not a validator version (dxc's validators are 1.0, 1.1, …; 0.0 marks a module not meant to be validated)")]
    NotAValidator {
        /// The version asked for.
        major: u32,
        /// The version asked for.
        minor: u32,
    },
    /// The module's DXIL version is newer than the validator.
    #[error(
        "the module is DXIL {dxil_major}.{dxil_minor} (shader model 6.{dxil_minor}); validator {major}.{minor} cannot validate it (at least {dxil_major}.{dxil_minor} is needed)"
    )]
    TooOld {
        /// The version asked for.
        major: u32,
        /// The version asked for.
        minor: u32,
        /// The module's `dx.version`.
        dxil_major: u32,
        /// The module's `dx.version`.
        dxil_minor: u32,
    },
    /// VERS below validator 1.8.
    #[error(
        "dxc writes VERS only from validator 1.8, and it cannot be made again once removed: remove it first (-R VERS) to set {major}.{minor}"
    )]
    VersBelow18 {
        /// The version asked for.
        major: u32,
        /// The version asked for.
        minor: u32,
    },
    /// A library's RDAT, which follows the validator version, is not
    /// derived from its module.
    #[error("a library's RDAT part follows the validator version and cannot be made again from the module ({source})")]
    LibraryRdat {
        /// Why the RDAT is not derived.
        source: dxcopy_read::dxil::derived::DeriveError,
    },
    /// The edited module cannot be numbered again.
    #[error("part '{name}': {source}")]
    Renumber {
        /// DXIL, ILDB or STAT.
        name: PartName,
        /// Why.
        source: crate::bitcode::RenumberError,
    },
    /// The edited module cannot be written.
    #[error("part '{name}': {source}")]
    Write {
        /// DXIL, ILDB or STAT.
        name: PartName,
        /// Why.
        source: crate::bitcode::ModuleWriteError,
    },
}

/// An operation or setting of a run that a message names: an output it
/// writes, a data file it reads, a pattern list, a policy. The library says
/// it in neutral words ([`describe`](Self::describe)); a front end spells it
/// as the user asks for it — the command-line tools as an option
/// (`--add-section`), the Python package as a method or argument — through
/// the `*_with` message functions ([`EditError::message_with`],
/// [`EditWarning::message_with`](crate::EditWarning::message_with),
/// [`OptionWarning::message_with`](crate::OptionWarning::message_with)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// Reading the run's input.
    Input,
    /// Reading a list of input paths (`--files-from`).
    FileList,
    /// Writing the run's main output (the edited container).
    Output,
    /// Adding a part from a data file.
    AddSection,
    /// Replacing a part with a data file.
    UpdateSection,
    /// Adding or replacing the PRIV part with a data file.
    SetPrivate,
    /// Adding debug info back from a PDB or a PDB's container.
    AddDebugFrom,
    /// Adding or replacing the root signature from a file.
    SetRootSignature,
    /// Reading a root signature to verify a container against.
    VerifyRootSignature,
    /// The patterns of the only parts to keep.
    OnlySection,
    /// The patterns of the parts to remove.
    RemoveSection,
    /// The patterns of the parts never removed.
    KeepSection,
    /// Writing a part's data (a program part's bitcode) to a file.
    DumpSection,
    /// Writing a part's exact data to a file.
    DumpSectionRaw,
    /// Writing a program part's bitcode, its data layout fixed, to a file.
    DumpBitcode,
    /// Writing a one-part container to a file.
    ExtractSection,
    /// Writing the PDB held in the PRIV part to a file.
    ExtractPrivatePdb,
    /// Splitting the debug info off into a PDB.
    SplitDebug,
    /// Writing the PDB the debug info is split off into.
    SplitDebugPdb,
    /// Writing every part to a file of its own in a directory.
    DumpAll,
    /// Writing the source files SRCI holds below a directory.
    ExtractSources,
    /// Disassembling a program part.
    Disasm,
    /// The digest policy that writes an all-zero digest.
    DigestZero,
    /// The digest policy that signs as the retail validator does.
    DigestRetail,
    /// The HASH policy that always recomputes the HASH part.
    HashUpdate,
    /// Embedding the split-off PDB as the PRIV part.
    PdbInPrivate,
    /// Adding debug info from a PDB that does not belong to the shader.
    Force,
    /// Removing the names from the DXIL and ILDB bitcode.
    StripBitcodeNames,
    /// Removing the reflection parts (STAT, RDEF).
    StripReflect,
}

impl Operation {
    /// The operation in neutral words, as it reads in the library's messages.
    pub fn describe(self) -> &'static str {
        match self {
            Operation::Input => "the input",
            Operation::FileList => "the file list",
            Operation::Output => "the output",
            Operation::AddSection => "adding a part",
            Operation::UpdateSection => "updating a part",
            Operation::SetPrivate => "setting the PRIV part",
            Operation::AddDebugFrom => "adding debug info from a PDB",
            Operation::SetRootSignature => "setting the root signature",
            Operation::VerifyRootSignature => "verifying against a root signature",
            Operation::OnlySection => "keep-only",
            Operation::RemoveSection => "remove",
            Operation::KeepSection => "keep",
            Operation::DumpSection => "a part dump",
            Operation::DumpSectionRaw => "a raw part dump",
            Operation::DumpBitcode => "a fixed bitcode dump",
            Operation::ExtractSection => "an extracted part",
            Operation::ExtractPrivatePdb => "the PDB extracted from PRIV",
            Operation::SplitDebug => "splitting off the debug info",
            Operation::SplitDebugPdb => "the split-off PDB",
            Operation::DumpAll => "a dump of every part",
            Operation::ExtractSources => "the extraction of the sources",
            Operation::Disasm => "disassembly",
            Operation::DigestZero => "the zero digest policy",
            Operation::DigestRetail => "the retail digest policy",
            Operation::HashUpdate => "the update HASH policy",
            Operation::PdbInPrivate => "embedding the PDB as PRIV",
            Operation::Force => "forced",
            Operation::StripBitcodeNames => "stripping bitcode names",
            Operation::StripReflect => "the reflection strip class",
        }
    }
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe())
    }
}

/// How a front end spells an [`Operation`] in messages
/// ([`Operation::describe`] is the library's own).
pub type Spelling = fn(Operation) -> &'static str;

/// What the user can do about an error, for a front end to say in its own
/// terms (the command-line tools name an option, the Python package a method).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Remedy {
    /// Replace the existing part instead of adding one of the same name.
    UpdateInstead,
    /// Strip the PRIV parts, or replace them with one.
    StripOrReplacePriv,
    /// Override the check that refused the edit.
    Force,
    /// Dump the bitcode of a part that holds some: DXIL, ILDB or a dxc STAT.
    BitcodePart,
    /// Write to another file: the input (a FIFO, a device) can be read but
    /// not replaced.
    GiveOutput,
    /// Walk the directory (`dxstrip -r`) to edit the files in it.
    WalkDirectory,
    /// Name one array of the C header.
    ChooseArray,
}

impl EditError {
    /// What the user can do about this error, when there is something (looks
    /// through the wrappers whose message ends with the inner error's).
    pub fn remedy(&self) -> Option<Remedy> {
        match self {
            EditError::AlreadyExists(_) => Some(Remedy::UpdateInstead),
            EditError::MultiplePriv(_) => Some(Remedy::StripOrReplacePriv),
            EditError::PdbMismatch { .. } => Some(Remedy::Force),
            EditError::NotBitcode(_) => Some(Remedy::BitcodePart),
            EditError::NotRegularInPlace {
                kind: FileKind::Directory,
                ..
            } => Some(Remedy::WalkDirectory),
            EditError::NotRegularInPlace { .. } | EditError::HeaderOutputInPlace => {
                Some(Remedy::GiveOutput)
            }
            EditError::AmbiguousArray { .. } => Some(Remedy::ChooseArray),
            EditError::InPdbStream(inner)
            | EditError::DataFile { source: inner, .. }
            | EditError::InArray { source: inner, .. } => inner.remedy(),
            _ => None,
        }
    }

    /// The message with every [`Operation`] it names spelled by `spell`
    /// (`to_string()` is `message_with(Operation::describe)`).
    pub fn message_with(&self, spell: Spelling) -> String {
        match self {
            EditError::SplitDebugWithoutPath => split_debug_without_path(spell),
            EditError::NotDisassemblable(name) => not_disassemblable(*name, spell),
            EditError::OutputIsInput { path, what } => output_is_input(path, *what, spell),
            EditError::DuplicateOutput {
                first,
                first_what,
                second,
                second_what,
            } => duplicate_output(first, *first_what, second, *second_what, spell),
            EditError::DataFile {
                path,
                option,
                source,
            } => data_file(path, *option, &source.message_with(spell), spell),
            EditError::DataTooLarge {
                path,
                option,
                limit,
                streamed,
            } => data_too_large(path, *option, *limit, *streamed, spell),
            EditError::DumpAllRefused { path, kind, by } => {
                dump_all_refused(path, *kind, *by, spell)
            }
            EditError::StdinTwice { first, second } => stdin_twice(*first, *second, spell),
            EditError::AddedTwice(name) => added_twice(*name, spell),
            EditError::InPdbStream(inner) => {
                format!(
                    "in the container in PDB stream 5: {}",
                    inner.message_with(spell)
                )
            }
            EditError::InArray { name, line, source } => format!(
                "array '{name}' (line {line}): {}",
                source.message_with(spell)
            ),
            _ => self.to_string(),
        }
    }

    /// Whether the message already names the file it is about (so callers
    /// do not prefix the input's name), or is about the options, not a file.
    pub fn names_its_file(&self) -> bool {
        matches!(
            self,
            EditError::Io { .. }
                | EditError::SpecialOutput { .. }
                | EditError::NotRegularInPlace { .. }
                | EditError::InputChanged { .. }
                | EditError::OutputIsInput { .. }
                | EditError::DuplicateOutput { .. }
                | EditError::DataFile { .. }
                | EditError::DataTooLarge { .. }
                | EditError::StdinTwice { .. }
                | EditError::AddedTwice(_)
                | EditError::BadName(_)
                | EditError::BadArrayName(_)
                | EditError::DumpAllRefused { .. }
                | EditError::FileListTooLarge { .. }
                | EditError::FileListLineTooLong { .. }
                | EditError::FileListLineNotUtf8 { .. }
                | EditError::FileListLineHasNul { .. }
                | EditError::WalkFailed { .. }
        )
    }

    /// The one-line message for this error about `file`:
    /// `'file': message`, without repeating a path the error already names.
    pub fn file_message(&self, file: &std::path::Path) -> String {
        self.file_message_with(file, Operation::describe)
    }

    /// [`file_message`](Self::file_message) with the operations spelled by
    /// `spell` (see [`message_with`](Self::message_with)).
    pub fn file_message_with(&self, file: &std::path::Path, spell: Spelling) -> String {
        if self.names_its_file() {
            self.message_with(spell)
        } else {
            format!("'{}': {}", file.display(), self.message_with(spell))
        }
    }

    /// Wraps an I/O error with its path.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        EditError::Io {
            path: path.into(),
            source,
        }
    }
}

fn join_indices(indices: &[u32]) -> String {
    let text: Vec<String> = indices.iter().map(u32::to_string).collect();
    text.join(", ")
}

fn join_paths(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "nothing: the shader has no ILDN or HASH part".to_string();
    }
    let text: Vec<String> = paths.iter().map(|p| format!("'{}'", p.display())).collect();
    text.join(", ")
}

/// Result type of the editing library.
pub type Result<T, E = EditError> = std::result::Result<T, E>;

// The sentences of the variants that name an operation, each written once
// and spelled by the caller's `Spelling`.

/// [`EditError::SplitDebugWithoutPath`].
fn split_debug_without_path(spell: Spelling) -> String {
    format!(
        "{} needs a path (a file, or a directory ending in /)",
        spell(Operation::SplitDebug)
    )
}

/// [`EditError::NotDisassemblable`].
fn not_disassemblable(name: PartName, spell: Spelling) -> String {
    format!(
        "{} takes DXIL, ILDB, SHEX or SHDR, not '{name}'",
        spell(Operation::Disasm)
    )
}

/// [`EditError::OutputIsInput`].
fn output_is_input(path: &std::path::Path, what: Operation, spell: Spelling) -> String {
    format!(
        "'{}' is the input file: writing {} to it would destroy the input; nothing was written",
        path.display(),
        spell(what)
    )
}

/// [`EditError::DuplicateOutput`].
fn duplicate_output(
    first: &std::path::Path,
    first_what: Operation,
    second: &std::path::Path,
    second_what: Operation,
    spell: Spelling,
) -> String {
    format!(
        "{} '{}' and {} '{}' are the same file: a run writes each file once; nothing was written",
        spell(second_what),
        second.display(),
        spell(first_what),
        first.display()
    )
}

/// [`EditError::DataFile`], with the inner error's message.
fn data_file(path: &std::path::Path, option: Operation, inner: &str, spell: Spelling) -> String {
    format!("'{}' ({}): {inner}", path.display(), spell(option))
}

/// [`EditError::DataTooLarge`].
fn data_too_large(
    path: &std::path::Path,
    option: Operation,
    limit: u64,
    streamed: bool,
    spell: Spelling,
) -> String {
    let option = spell(option);
    if streamed {
        format!(
            "'{}' ({option}): the data file is larger than the cap of {limit} bytes read from a non-regular file (standard input, a pipe, a device); larger data must come from a regular file",
            path.display()
        )
    } else {
        format!(
            "'{}' ({option}): more than {limit} bytes, larger than a container can hold",
            path.display()
        )
    }
}

/// [`EditError::DumpAllRefused`].
fn dump_all_refused(
    path: &std::path::Path,
    kind: FileKind,
    by: Operation,
    spell: Spelling,
) -> String {
    format!(
        "'{}' is {kind}: {} writes only regular files and directories of its own inside its directory; nothing was written",
        path.display(),
        spell(by)
    )
}

/// [`EditError::NotRegularInPlace`].
fn not_regular_in_place(path: &std::path::Path, kind: FileKind) -> String {
    match kind {
        FileKind::Directory => format!(
            "'{}' is a directory: it cannot be edited in place",
            path.display()
        ),
        kind => format!(
            "'{}' is {kind}, not a regular file: it cannot be edited in place",
            path.display()
        ),
    }
}

/// [`EditError::StdinTwice`].
fn stdin_twice(first: Operation, second: Operation, spell: Spelling) -> String {
    if first == second {
        return format!(
            "standard input ('-') is given twice for {}; it can be read only once, so nothing was read",
            spell(first)
        );
    }
    format!(
        "standard input ('-') is given for both {} and {}; it can be read only once, so nothing was read",
        spell(first),
        spell(second)
    )
}

/// [`EditError::AddedTwice`].
fn added_twice(name: PartName, spell: Spelling) -> String {
    format!(
        "{}: part '{name}' is given twice",
        spell(Operation::AddSection)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxcopy_read::InputChange;

    /// Every variant's sentence, in the library's neutral words.
    #[test]
    fn every_error_has_its_sentence() {
        let read = ReadError::part_not_found("DXIL");
        let io = || std::io::Error::from_raw_os_error(2);
        let p = PathBuf::from;
        let rows: Vec<(EditError, String)> = vec![
            (EditError::Read(read.clone()), "part 'DXIL' not found".into()),
            (EditError::AlreadyExists(PartName::HASH), "part 'HASH' already exists".into()),
            (EditError::EmptyPart(PartName::RDEF), "part 'RDEF' is empty".into()),
            (EditError::MultiplePriv(2), "more than one PRIV part (2)".into()),
            (
                EditError::TooLarge(0x1_0000_0000),
                "output of 0x100000000 bytes exceeds the 4 GiB limit of a container".into(),
            ),
            (
                EditError::BadName("TOOLONG".into()),
                "part name 'TOOLONG' is not exactly 4 ASCII characters".into(),
            ),
            (
                EditError::BadPattern {
                    pattern: "(".into(),
                    message: "unclosed group".into(),
                },
                "invalid pattern '(': unclosed group".into(),
            ),
            (
                EditError::NotAProgram {
                    name: PartName::DXIL,
                    source: read.clone(),
                },
                format!("cannot replace the bitcode of part 'DXIL': {read}"),
            ),
            (
                EditError::UnknownDigestPolicy("signed".into()),
                "unknown digest policy 'signed' (auto, retail, debug, zero, keep, bypass, preview)"
                    .into(),
            ),
            (
                EditError::UnknownHashPolicy("x".into()),
                "unknown hash policy 'x' (auto, keep, update)".into(),
            ),
            (
                EditError::UnknownStripClass("symbols".into()),
                "unknown strip class 'symbols' (debug, reflect, priv, rootsig, all)".into(),
            ),
            (
                EditError::SplitDebugWithoutPath,
                "splitting off the debug info needs a path (a file, or a directory ending in /)"
                    .into(),
            ),
            (
                EditError::BadRenderDocDebugPath,
                "the RenderDoc debug path must be non-empty and without NUL characters".into(),
            ),
            (EditError::EmptyDebugName, "the debug name is empty".into()),
            (
                EditError::BadDebugName { length: 70_000 },
                "the debug name must be at most 65535 bytes without NUL characters (70000 bytes given)"
                    .into(),
            ),
            (
                EditError::BadHashPart {
                    source: read.clone(),
                },
                format!("the HASH part does not decode: {read}"),
            ),
            (
                EditError::NoProgramToHash,
                "cannot compute a HASH part: the container has no DXIL or ILDB program".into(),
            ),
            (
                EditError::HashSourceNotAProgram {
                    name: PartName::ILDB,
                    source: read.clone(),
                },
                format!("cannot compute a HASH part: the ILDB part is not a DXIL program ({read})"),
            ),
            (
                EditError::FileListTooLarge {
                    path: p("list"),
                    limit: 10,
                },
                "'list': file list larger than 10 bytes".into(),
            ),
            (
                EditError::FileListLineTooLong {
                    path: p("list"),
                    line: 3,
                    limit: 8,
                },
                "'list': line 3 is longer than 8 bytes: not a list of paths".into(),
            ),
            (
                EditError::FileListLineHasNul {
                    path: p("/dev/urandom"),
                    line: 1,
                },
                "'/dev/urandom': line 1 holds a NUL byte: not a list of paths".into(),
            ),
            (
                EditError::WalkFailed {
                    path: p("tree/locked"),
                    source: io(),
                },
                format!("'tree/locked': cannot walk the directory: {}", io()),
            ),
            (
                EditError::FileListLineNotUtf8 {
                    path: p("list"),
                    line: 2,
                },
                "'list': line 2 is not UTF-8".into(),
            ),
            (
                EditError::RebuildParts {
                    reason: RebuildFailure::NoProgram,
                },
                "cannot rebuild the derived parts: the container has no DXIL part".into(),
            ),
            (
                EditError::NotDisassemblable(PartName::RDEF),
                "disassembly takes DXIL, ILDB, SHEX or SHDR, not 'RDEF'".into(),
            ),
            (
                EditError::NoDebugInfo,
                "nothing to split: the container has no ILDB, SRCI or PDBI part, so a PDB would hold no debug info (the shader was compiled without /Zi, or its debug info was already stripped or split off)".into(),
            ),
            (
                EditError::PdbWithoutDebugInfo,
                "the PDB holds no ILDB, SRCI or PDBI part to add".into(),
            ),
            (
                EditError::PdbMismatch {
                    reason: PdbMismatchReason::Guid {
                        guid: [0x11; 16],
                        shader_hash: Some([0xab; 16]),
                    },
                },
                format!(
                    "the PDB does not belong to this shader: its GUID {} is not the shader's HASH digest {}, and its container does not carry the shader's digest",
                    "11".repeat(16),
                    "ab".repeat(16)
                ),
            ),
            (
                EditError::PdbMismatch {
                    reason: PdbMismatchReason::Guid {
                        guid: [0x11; 16],
                        shader_hash: None,
                    },
                },
                format!(
                    "the PDB does not belong to this shader: its GUID {} is not the shader's HASH digest none (the shader has no HASH part), and its container does not carry the shader's digest",
                    "11".repeat(16)
                ),
            ),
            (
                EditError::PdbMismatch {
                    reason: PdbMismatchReason::HashPart {
                        pdb_hash: Some([0x22; 16]),
                        shader_hash: Some([0xab; 16]),
                    },
                },
                format!(
                    "the PDB does not belong to this shader: its HASH part {} is not the shader's {}, and its container does not carry the shader's digest",
                    "22".repeat(16),
                    "ab".repeat(16)
                ),
            ),
            (
                EditError::PdbMismatch {
                    reason: PdbMismatchReason::HashPart {
                        pdb_hash: None,
                        shader_hash: None,
                    },
                },
                "the PDB does not belong to this shader: its HASH part (none) is not the shader's none (the shader has no HASH part), and its container does not carry the shader's digest".into(),
            ),
            (
                EditError::PrivNotPdb,
                "the PRIV part does not hold a PDB: it does not start with the MSF 7.00 magic"
                    .into(),
            ),
            (
                EditError::PdbInPlace,
                "the input is a PDB: the container in its stream 5 can be read or written to another file, but editing in place would replace the PDB with a container; give an output file".into(),
            ),
            (
                EditError::InPdbStream(Box::new(EditError::MultiplePriv(3))),
                "in the container in PDB stream 5: more than one PRIV part (3)".into(),
            ),
            (
                EditError::Bitcode {
                    name: PartName::DXIL,
                    source: crate::bitcode::RewriteError::TooLarge,
                },
                "part 'DXIL': the rewritten bitcode is too large for the wrapper header".into(),
            ),
            (
                EditError::NotBitcode(PartName::RDEF),
                "part 'RDEF' holds no LLVM bitcode".into(),
            ),
            (
                EditError::SpecialOutput {
                    path: p("/dev/sda"),
                    kind: FileKind::BlockDevice,
                },
                "'/dev/sda' is a block device: refusing to write a container or part to it".into(),
            ),
            (
                EditError::NotRegularInPlace {
                    path: p("fifo"),
                    kind: FileKind::Fifo,
                },
                "'fifo' is a FIFO, not a regular file: it cannot be edited in place".into(),
            ),
            (
                EditError::NotRegularInPlace {
                    path: p("shaders"),
                    kind: FileKind::Directory,
                },
                "'shaders' is a directory: it cannot be edited in place".into(),
            ),
            (
                EditError::InputChanged {
                    path: p("in.dxil"),
                    change: InputChange::Truncated,
                },
                format!("'in.dxil': {}; nothing was written", InputChange::Truncated),
            ),
            (
                EditError::OutputIsInput {
                    path: p("in.dxil"),
                    what: Operation::DumpSection,
                },
                "'in.dxil' is the input file: writing a part dump to it would destroy the input; nothing was written".into(),
            ),
            (
                EditError::DuplicateOutput {
                    first: p("a"),
                    first_what: Operation::DumpSection,
                    second: p("b"),
                    second_what: Operation::Output,
                },
                "the output 'b' and a part dump 'a' are the same file: a run writes each file once; nothing was written".into(),
            ),
            (
                EditError::DataFile {
                    path: p("p.pdb"),
                    option: Operation::AddDebugFrom,
                    source: Box::new(EditError::PdbWithoutDebugInfo),
                },
                "'p.pdb' (adding debug info from a PDB): the PDB holds no ILDB, SRCI or PDBI part to add".into(),
            ),
            (
                EditError::DataTooLarge {
                    path: p("-"),
                    option: Operation::AddSection,
                    limit: 64 << 20,
                    streamed: true,
                },
                "'-' (adding a part): the data file is larger than the cap of 67108864 bytes read from a non-regular file (standard input, a pipe, a device); larger data must come from a regular file".into(),
            ),
            (
                EditError::DataTooLarge {
                    path: p("big"),
                    option: Operation::SetPrivate,
                    limit: u32::MAX.into(),
                    streamed: false,
                },
                "'big' (setting the PRIV part): more than 4294967295 bytes, larger than a container can hold".into(),
            ),
            (
                EditError::DumpAllRefused {
                    path: p("d/00-DXIL.bin"),
                    kind: FileKind::SymbolicLink,
                    by: Operation::DumpAll,
                },
                "'d/00-DXIL.bin' is a symbolic link: a dump of every part writes only regular files and directories of its own inside its directory; nothing was written".into(),
            ),
            (
                EditError::StdinTwice {
                    first: Operation::Input,
                    second: Operation::SetPrivate,
                },
                "standard input ('-') is given for both the input and setting the PRIV part; it can be read only once, so nothing was read".into(),
            ),
            (
                EditError::StdinTwice {
                    first: Operation::Input,
                    second: Operation::Input,
                },
                "standard input ('-') is given twice for the input; it can be read only once, so nothing was read".into(),
            ),
            (
                EditError::AddedTwice(PartName::PRIV),
                "adding a part: part 'PRIV' is given twice".into(),
            ),
            (
                EditError::BadRootSignature {
                    path: p("rs.bin"),
                    source: read.clone(),
                },
                format!("'rs.bin': not a valid root signature: {read}"),
            ),
            (
                EditError::MultipleProgramParts {
                    name: PartName::DXIL,
                    indices: vec![1, 3],
                },
                "more than one DXIL part (parts 1, 3): which one is the shader's is ambiguous, so the file is not edited (llvm-objcopy refuses it too); dxinfo shows them".into(),
            ),
            (
                EditError::DebugFileNotFound {
                    dir: p("pdbs"),
                    tried: vec![],
                },
                "no debug file for this shader in 'pdbs' (tried nothing: the shader has no ILDN or HASH part)".into(),
            ),
            (
                EditError::DebugFileNotFound {
                    dir: p("pdbs"),
                    tried: vec![p("pdbs/a.pdb"), p("pdbs/b.pdb")],
                },
                "no debug file for this shader in 'pdbs' (tried 'pdbs/a.pdb', 'pdbs/b.pdb')".into(),
            ),
            (
                EditError::io("x", io()),
                format!("'x': {}", io()),
            ),
        ];
        for (e, want) in rows {
            assert_eq!(e.to_string(), want, "{e:?}");
            assert_eq!(e.message_with(Operation::describe), want, "{e:?}");
        }
    }

    /// Every file kind in the words the messages use.
    #[test]
    fn every_file_kind_has_its_words() {
        let rows = [
            (FileKind::Regular, "a regular file"),
            (FileKind::Directory, "a directory"),
            (FileKind::SymbolicLink, "a symbolic link"),
            (FileKind::Fifo, "a FIFO"),
            (FileKind::CharacterDevice, "a character device"),
            (FileKind::BlockDevice, "a block device"),
            (FileKind::Socket, "a socket"),
            (FileKind::Other, "not a regular file"),
        ];
        for (kind, want) in rows {
            assert_eq!(kind.to_string(), want);
        }
    }

    /// A front end's spelling replaces every operation a message names,
    /// inside wrappers too, and nothing else.
    #[test]
    fn message_with_spells_each_operation() {
        fn upper(op: Operation) -> &'static str {
            match op {
                Operation::AddSection => "ADD",
                Operation::DumpSection => "DUMP",
                Operation::Output => "OUT",
                _ => "OTHER",
            }
        }
        let p = PathBuf::from;
        let rows = [
            (
                EditError::AddedTwice(PartName::PRIV),
                "ADD: part 'PRIV' is given twice",
            ),
            (
                EditError::InPdbStream(Box::new(EditError::DuplicateOutput {
                    first: p("a"),
                    first_what: Operation::DumpSection,
                    second: p("a"),
                    second_what: Operation::Output,
                })),
                "in the container in PDB stream 5: OUT 'a' and DUMP 'a' are the same file: a run writes each file once; nothing was written",
            ),
            (
                EditError::DataFile {
                    path: p("d"),
                    option: Operation::AddSection,
                    source: Box::new(EditError::DataTooLarge {
                        path: p("d"),
                        option: Operation::AddSection,
                        limit: 4,
                        streamed: false,
                    }),
                },
                "'d' (ADD): 'd' (ADD): more than 4 bytes, larger than a container can hold",
            ),
            (
                EditError::NotDisassemblable(PartName::RDEF),
                "OTHER takes DXIL, ILDB, SHEX or SHDR, not 'RDEF'",
            ),
            (EditError::MultiplePriv(2), "more than one PRIV part (2)"),
        ];
        for (e, want) in rows {
            assert_eq!(e.message_with(upper), want);
        }
        let e = EditError::OutputIsInput {
            path: p("in"),
            what: Operation::DumpSection,
        };
        assert_eq!(
            e.file_message_with(std::path::Path::new("x"), upper),
            "'in' is the input file: writing DUMP to it would destroy the input; nothing was written"
        );
        assert_eq!(
            EditError::MultiplePriv(2).file_message_with(std::path::Path::new("x"), upper),
            "'x': more than one PRIV part (2)"
        );
    }
}
