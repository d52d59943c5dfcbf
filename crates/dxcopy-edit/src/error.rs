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
    /// A part name given on the command line that is not four ASCII characters.
    #[error("part name '{0}' is not exactly 4 ASCII characters")]
    BadName(String),
    /// A bad pattern for --regex or a glob.
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
    /// A value given for an option is not valid.
    #[error("{0}")]
    Invalid(String),
    /// `--split-debug` / `--pdb-in-private` on a container with nothing to split off.
    #[error("nothing to split: the container has no ILDB, SRCI or PDBI part, so a PDB would hold no debug info (the shader was compiled without /Zi, or its debug info was already stripped or split off)")]
    NoDebugInfo,
    /// `--add-debug-from` with a PDB (or PDB container) holding no ILDB, SRCI or PDBI.
    #[error("the PDB holds no ILDB, SRCI or PDBI part to add")]
    PdbWithoutDebugInfo,
    /// Adding debug info from a PDB that does not belong to the shader
    /// ([`Remedy::Force`]).
    #[error("the PDB does not belong to this shader: {reason}")]
    PdbMismatch {
        /// What was compared, as a sentence fragment.
        reason: String,
    },
    /// `--extract-private-pdb` on a PRIV part that is not an MSF file.
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
    /// A bitcode dump of a part that holds no LLVM bitcode ([`Remedy::BitcodePart`]).
    #[error("part '{0}' holds no LLVM bitcode")]
    NotBitcode(PartName),
    /// An output that is neither a regular file, a new path, a character
    /// device nor a FIFO (a block device or a socket).
    #[error("'{}' is {kind}: refusing to write a container or part to it", path.display())]
    SpecialOutput {
        /// The output as given.
        path: PathBuf,
        /// What it is, e.g. "a block device".
        kind: &'static str,
    },
    /// An in-place edit of something that is not a regular file.
    #[error("'{}' is {kind}, not a regular file: it cannot be edited in place (give an output file)", path.display())]
    NotRegularInPlace {
        /// The input as given.
        path: PathBuf,
        /// What it is (after following symlinks), e.g. "a FIFO".
        kind: &'static str,
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
    #[error("'{}' is the input file: writing {what} to it would destroy the input; nothing was written", path.display())]
    OutputIsInput {
        /// The output as given.
        path: PathBuf,
        /// Which option writes it, e.g. "--dump-section".
        what: String,
    },
    /// Two outputs of one run name the same file.
    #[error("{second_what} '{}' and {first_what} '{}' are the same file: a run writes each file once; nothing was written", second.display(), first.display())]
    DuplicateOutput {
        /// The earlier output.
        first: PathBuf,
        /// Which option writes it.
        first_what: String,
        /// The later output.
        second: PathBuf,
        /// Which option writes it.
        second_what: String,
    },
    /// A data file given to an option (`--add-section`, `--add-debug-from`,
    /// …) is not what that option needs.
    #[error("'{}' ({option}): {source}", path.display())]
    DataFile {
        /// The data file.
        path: PathBuf,
        /// The option that named it.
        option: &'static str,
        /// What is wrong with it.
        source: Box<EditError>,
    },
    /// A data file larger than a container can hold, or, read from
    /// something that is not a regular file, larger than the cap for such
    /// data.
    #[error("{}", data_too_large(path, option, *limit, *streamed))]
    DataTooLarge {
        /// The data file.
        path: PathBuf,
        /// The option that named it.
        option: &'static str,
        /// The limit in bytes.
        limit: u64,
        /// The data was streamed (standard input, a pipe, a device), so the
        /// limit is the cap on data read into memory, not a container's size.
        streamed: bool,
    },
    /// `dxinfo --dump-all`: a name the dump would create inside its
    /// directory already exists as something it may not write through (a
    /// symbolic link, a FIFO, a device, a regular file where a subdirectory
    /// goes).
    #[error("'{}' is {kind}: --dump-all writes only regular files and directories of its own inside its directory; nothing was written", path.display())]
    DumpAllRefused {
        /// The entry.
        path: PathBuf,
        /// What it is, e.g. "a symbolic link".
        kind: &'static str,
    },
    /// Standard input named by two arguments of one run.
    #[error("standard input ('-') is given for both {first} and {second}; it can be read once")]
    StdinTwice {
        /// The first argument reading it.
        first: &'static str,
        /// The second.
        second: &'static str,
    },
    /// `--add-section` given twice for one name.
    #[error("--add-section: part '{0}' is given twice")]
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
    /// `--add-debug-from=DIR` found no debug file.
    #[error("no debug file for this shader in '{}' (tried {})", dir.display(), join_paths(.tried))]
    DebugFileNotFound {
        /// The directory searched.
        dir: PathBuf,
        /// The paths tried, in order.
        tried: Vec<PathBuf>,
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
            EditError::InPdbStream(inner) | EditError::DataFile { source: inner, .. } => {
                inner.remedy()
            }
            _ => None,
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
                | EditError::DumpAllRefused { .. }
        )
    }

    /// The one-line message the tools print for this error about `file`:
    /// `'file': message`, without repeating a path the error already names.
    pub fn file_message(&self, file: &std::path::Path) -> String {
        if self.names_its_file() {
            self.to_string()
        } else {
            format!("'{}': {self}", file.display())
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

/// The message of [`EditError::DataTooLarge`].
fn data_too_large(path: &std::path::Path, option: &str, limit: u64, streamed: bool) -> String {
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
