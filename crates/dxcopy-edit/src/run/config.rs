//! An objcopy-style invocation as data ([`Config`]), turned into an edit plan
//! over a container, and the driver that opens the input, writes dumps and
//! extracts, and writes the output (in place, to a path, or to stdout).
//!
//! Order of work, whatever the order of options (as llvm-objcopy):
//! dumps and extracts read the *input*; then keep marks, `-j` (which
//! overrides `-R`) or `-R`, strip classes, updates, adds, set-private,
//! add-debug-from, set-debug-name; then split-debug / pdb-in-private; then
//! layout, HASH and digest upkeep. Everything is checked before the first file
//! is written, so an error leaves no output and never touches the input.
//!
//! A PDB input (MSF magic) is read as the container in its stream 5; it can
//! be read from or written to another file, never edited in place.

use crate::c_header;
use crate::copy;
use crate::debug::{self, PdbTarget, SplitOptions};
use crate::debug_search;
use crate::digest_decision::InputDigests;
use crate::dump::{self, DumpMode};
use crate::error::{EditError, Operation, Result, Spelling};
use crate::file::{Destination, FileId, FileOptions, Outputs, Sink};
use crate::header_run::{is_header_input, HeaderRun, HeaderTarget};
use crate::matcher::{MatchStyle, NameMatcher};
use crate::operations::rebuild;
use crate::output::Output;
use crate::plan::{EditPlan, EditWarning, PartData};
use crate::policy::{DigestPolicy, HashPolicy};
use crate::root_signature;
use crate::sources::{self, ExtractedSources};
use crate::strip::StripClass;
use crate::unchanged;
use dxcopy_read::{
    container_input, digest, private, program, Container, ContainerSource, DebugName, DigestKind,
    MappedFile, PartName, ShaderHash,
};
use std::borrow::Cow;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The most bytes read from a data file (`--add-section`, `--update-section`,
/// `--set-private`) that is a regular file: no part can be larger than the
/// 4 GiB a container holds.
pub const MAX_DATA_FILE: u64 = u32::MAX as u64;

/// The most bytes read from a data file that is not a regular file (standard
/// input, a pipe, a device), which has no length to check first and is read
/// into memory: 64 MiB. Larger data must come from a regular file.
pub const MAX_STREAMED_DATA: u64 = 64 << 20;

/// One `--dump-section`: the first part matching `pattern` goes to `path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpSpec {
    /// Part name or pattern.
    pub pattern: String,
    /// Destination file (`-` = stdout).
    pub path: PathBuf,
    /// Bitcode for program parts, or raw part data.
    pub mode: DumpMode,
}

/// The options that change the parts of a container: a run edits its input
/// exactly when its [`Edits`] differ from the default ([`Edits::is_empty`]),
/// so an option added here is an edit without being listed anywhere else.
/// Modifiers that change nothing on their own (`--keep-section`, `--force`,
/// the digest and HASH policies, `-p`, `--regex`) live in [`Config`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edits {
    /// `-R` patterns.
    pub remove: Vec<String>,
    /// `-j` patterns (override `-R`).
    pub only: Vec<String>,
    /// `--add-section NAME=FILE`.
    pub add: Vec<(String, PathBuf)>,
    /// `--update-section NAME=FILE`.
    pub update: Vec<(String, PathBuf)>,
    /// Strip classes.
    pub strip: Vec<StripClass>,
    /// `--set-private FILE`.
    pub set_private: Option<PathBuf>,
    /// `--split-debug=PATH`: move ILDB, SRCI and PDBI to a companion PDB at PATH
    /// (a trailing `/` or `\` means `<hash>.pdb` in that directory).
    pub split_debug: Option<String>,
    /// `--pdb-in-private`: split the debug info off and embed the PDB as PRIV.
    pub pdb_in_private: bool,
    /// `--add-debug-from=PDB`: put the PDB's ILDB, SRCI and PDBI back.
    pub add_debug_from: Option<PathBuf>,
    /// `--set-debug-name=NAME`: write the ILDN part.
    pub set_debug_name: Option<String>,
    /// `--strip-bitcode-names`: remove struct, local-value and local-global
    /// names from the DXIL and ILDB bitcode.
    pub strip_bitcode_names: bool,
    /// `--set-root-signature=FILE`: add or replace RTS0 from a root-signature
    /// container or bare RTS0 data (decoded first).
    pub set_root_signature: Option<PathBuf>,
    /// `--set-renderdoc-debug-path=PATH`: write a PRIV part in RenderDoc's
    /// debug-path convention.
    pub set_renderdoc_debug_path: Option<String>,
    /// `--rebuild-parts`: make the parts derived from the DXIL module
    /// (SFI0, signatures, PSV0, HASH) again, as dxc writes them.
    pub rebuild_parts: bool,
    /// `--set-validator-version=MAJOR.MINOR`: set the modules' `dx.valver`
    /// and make the parts that follow it again.
    pub set_validator_version: Option<(u32, u32)>,
}

impl Edits {
    /// Whether no option changes the parts (every field at its default).
    pub fn is_empty(&self) -> bool {
        *self == Edits::default()
    }

    /// dxstrip's default strip class: when no strip class and no `-R`
    /// pattern is given, debug parts are stripped (as `--strip-debug`),
    /// whatever else is asked (`--strip-bitcode-names`, `--keep-section`,
    /// `--digest`, …): a user who names no class expects the debug parts
    /// gone. Returns whether the default was applied.
    pub fn apply_strip_default(&mut self) -> bool {
        if self.strip.is_empty() && self.remove.is_empty() {
            self.strip.push(StripClass::Debug);
            return true;
        }
        false
    }
}

/// Everything one dxcopy / dxstrip invocation asks for.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// How patterns are matched (glob by default, `--regex`).
    pub match_style: MatchStyle,
    /// `--dump-section` / `--dump-section-raw`, in order.
    pub dumps: Vec<DumpSpec>,
    /// `--extract-section NAME=FILE`, in order.
    pub extracts: Vec<(String, PathBuf)>,
    /// `--extract-private-pdb=FILE`: write the PDB held in PRIV to FILE.
    pub extract_private_pdb: Option<PathBuf>,
    /// The options that change the parts.
    pub edits: Edits,
    /// `--keep-section` patterns.
    pub keep: Vec<String>,
    /// `--digest`.
    pub digest: DigestPolicy,
    /// `--hash`.
    pub hash: HashPolicy,
    /// `-p`: keep the input's access and modification times on the output.
    pub preserve_dates: bool,
    /// `--force`: add debug info from a PDB that does not match the shader.
    pub force: bool,
    /// Data given in memory for the FILE of `NAME=FILE` and FILE arguments
    /// (add, update, set-private, set-root-signature, add-debug-from): a
    /// path listed here is not read from disk but stands for these bytes.
    /// Library and Python callers name their data this way, so that every
    /// edit takes the one code path of the command line.
    pub inline_data: Vec<(PathBuf, Vec<u8>)>,
    /// C header inputs and outputs (`--array`, `--output-format=header`,
    /// dxstrip's every-array edits).
    pub headers: HeaderRun,
    /// `--extract-sources=DIR`: write the SRCI source files below DIR.
    pub extract_sources: Option<PathBuf>,
}

/// Warnings about the options themselves (the edit warnings are
/// [`EditWarning`]s).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionWarning {
    /// A pattern of [`Operation::OnlySection`], [`Operation::RemoveSection`]
    /// or [`Operation::KeepSection`] that matches no part of the input.
    PatternMatchesNothing {
        /// The pattern list it belongs to.
        option: Operation,
        /// The pattern.
        pattern: String,
    },
    /// [`DigestPolicy::Zero`]: D3D treats an all-zero digest as invalid.
    ZeroDigest,
}

impl OptionWarning {
    /// The message with every [`Operation`] it names spelled by `spell`
    /// (`to_string()` is `message_with(Operation::describe)`).
    pub fn message_with(&self, spell: Spelling) -> String {
        match self {
            OptionWarning::PatternMatchesNothing { option, pattern } => {
                format!("{} pattern '{pattern}' matches no part", spell(*option))
            }
            OptionWarning::ZeroDigest => format!(
                "{} writes an all-zero digest, which D3D treats as unsigned: the runtime refuses to load the shader outside developer mode (hlsl-specs INF-0004)",
                spell(Operation::DigestZero)
            ),
        }
    }
}

impl std::fmt::Display for OptionWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message_with(Operation::describe))
    }
}

/// Things a run tells the user that are neither errors nor warnings.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditNote {
    /// `--update-section=RTS0=FILE` was given a container: its RTS0 part was used.
    UnwrappedRootSignature {
        /// The file given.
        path: PathBuf,
    },
    /// `--add-debug-from=DIR` used this file.
    DebugFileUsed {
        /// The file found in the directory.
        path: PathBuf,
    },
    /// `--update-section=DXIL=…` changed the module and the parts derived
    /// from it were not rebuilt.
    DerivedPartsStale {
        /// The derived parts the container holds.
        parts: Vec<PartName>,
    },
}

impl std::fmt::Display for EditNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditNote::UnwrappedRootSignature { path } => write!(
                f,
                "'{}' is a container: its RTS0 part was used as the new RTS0",
                path.display()
            ),
            EditNote::DebugFileUsed { path } => {
                write!(f, "debug info taken from '{}'", path.display())
            }
            EditNote::DerivedPartsStale { parts } => {
                let names: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
                write!(
                    f,
                    "the DXIL module changed: {} still describe the former module (give --rebuild-parts to make them again)",
                    names.join(", ")
                )
            }
        }
    }
}

/// What a run did, for the caller to report.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Warnings to show the user.
    pub warnings: Vec<EditWarning>,
    /// Whether a container was written (false for read-only runs).
    pub wrote_output: bool,
    /// Digest kind of the written container.
    pub output_digest: Option<DigestKind>,
    /// Files written by dumps and extracts.
    pub dumped: Vec<PathBuf>,
    /// Number of parts in the input.
    pub parts_before: usize,
    /// Number of parts written (0 when no container was written).
    pub parts_after: usize,
    /// The input was a PDB: the run worked on the container in its stream 5.
    pub input_is_pdb: bool,
    /// The companion PDB written by `--split-debug`.
    pub pdb_written: Option<PathBuf>,
    /// Notes to show the user.
    pub notes: Vec<EditNote>,
    /// Warnings about the options (shown with [`warnings`](Self::warnings)).
    pub option_warnings: Vec<OptionWarning>,
    /// The edit changed nothing and the output is the input file itself, so
    /// it was not rewritten (its inode and modification time stay).
    pub unchanged: bool,
    /// The source files `--extract-sources` wrote.
    pub sources: Option<ExtractedSources>,
}

/// Parses a part name given on the command line: four ASCII characters.
pub fn part_name(s: &str) -> Result<PartName> {
    if !s.is_ascii() {
        return Err(EditError::BadName(s.to_string()));
    }
    PartName::from_str_exact(s).ok_or_else(|| EditError::BadName(s.to_string()))
}

/// Reads a data file of `option` (`-` is standard input): at most
/// [`MAX_DATA_FILE`] bytes from a regular file, checked before reading, and
/// [`MAX_STREAMED_DATA`] from anything else; more is an error naming the file.
pub fn read_data_file(path: &Path, option: Operation) -> Result<Vec<u8>> {
    let io_err = |e: std::io::Error| EditError::io(path, e);
    let too_large = |limit| EditError::DataTooLarge {
        path: path.to_path_buf(),
        option,
        limit,
        streamed: limit == MAX_STREAMED_DATA,
    };
    let (mut reader, limit): (Box<dyn Read>, u64) = if path.as_os_str() == "-" {
        (Box::new(std::io::stdin().lock()), MAX_STREAMED_DATA)
    } else {
        let file = std::fs::File::open(path).map_err(io_err)?;
        let meta = file.metadata().map_err(io_err)?;
        if meta.is_dir() {
            return Err(io_err(crate::file::is_a_directory()));
        }
        if meta.is_file() && meta.len() > MAX_DATA_FILE {
            return Err(too_large(MAX_DATA_FILE));
        }
        let limit = if meta.is_file() && meta.len() > 0 {
            MAX_DATA_FILE
        } else {
            MAX_STREAMED_DATA
        };
        (Box::new(file), limit)
    };
    let mut buf = Vec::new();
    reader
        .by_ref()
        .take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(io_err)?;
    if buf.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(buf)
}

/// The data files of a run (`--add-section`, `--update-section`,
/// `--set-private`) that are regular files, mapped before the plan is made:
/// their bytes go from the page cache to the output as the input's kept
/// parts do, never copied to the heap, however large. Other data files
/// (standard input, pipes, devices) are read with the caps of
/// [`read_data_file`] when the plan is made.
#[derive(Default)]
struct DataFiles {
    mapped: Vec<(PathBuf, MappedFile)>,
}

impl DataFiles {
    /// Maps every regular data file of `config` that has no inline data.
    fn open(config: &Config) -> Result<DataFiles> {
        let mut files = DataFiles::default();
        let edits = &config.edits;
        let named = edits.add.iter().map(|(_, p)| (Operation::AddSection, p));
        let named = named.chain((edits.update.iter()).map(|(_, p)| (Operation::UpdateSection, p)));
        let named = named.chain(edits.set_private.iter().map(|p| (Operation::SetPrivate, p)));
        for (option, path) in named {
            let inline = config.inline_data.iter().any(|(p, _)| p == path);
            if inline || path.as_os_str() == "-" || files.get(path).is_some() {
                continue;
            }
            let meta = std::fs::metadata(path).map_err(|e| EditError::io(path, e))?;
            if !meta.is_file() {
                continue;
            }
            if meta.len() > MAX_DATA_FILE {
                return Err(EditError::DataTooLarge {
                    path: path.clone(),
                    option,
                    limit: MAX_DATA_FILE,
                    streamed: false,
                });
            }
            let file = MappedFile::open(path).map_err(|e| EditError::io(path, e))?;
            files.mapped.push((path.clone(), file));
        }
        Ok(files)
    }

    /// The mapped bytes of `path`, when it was mapped.
    fn get(&self, path: &Path) -> Option<&[u8]> {
        self.mapped
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, f)| &f[..])
    }

    /// No data file changed since it was mapped.
    fn check_unchanged(&self) -> Result<()> {
        for (path, file) in &self.mapped {
            if let Some(change) = file.changed() {
                return Err(EditError::InputChanged {
                    path: path.clone(),
                    change,
                });
            }
        }
        Ok(())
    }
}

/// Opens a container or PDB data file (`--add-debug-from`): mapped when it
/// is a regular file, else read as far as its header allows.
fn open_data_container(path: &Path) -> Result<MappedFile> {
    let meta = if path.as_os_str() == "-" {
        None
    } else {
        Some(std::fs::metadata(path).map_err(|e| EditError::io(path, e))?)
    };
    if meta.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(EditError::io(path, crate::file::is_a_directory()));
    }
    MappedFile::open(path).map_err(|e| EditError::io(path, e))
}

/// `--add-debug-from=DIR`: the debug file RenderDoc would use for the
/// shader in `plan`, found by its ILDN name or its HASH (see [`debug_search`]).
fn find_debug_file(plan: &EditPlan<'_>, dir: &Path) -> Result<PathBuf> {
    let name = plan
        .find(PartName::ILDN)
        .and_then(|p| DebugName::parse_data(p.bytes(), 0).ok())
        .map(|n| String::from_utf8_lossy(n.name).into_owned());
    let hash = plan
        .find(PartName::HASH)
        .and_then(|p| ShaderHash::parse_data(p.bytes(), 0).ok())
        .map(|h| h.pdb_name());
    let candidates = debug_search::candidates(name.as_deref(), hash.as_deref());
    debug_search::search(dir, &candidates)
        .map(|found| found.path)
        .map_err(|tried| EditError::DebugFileNotFound {
            dir: dir.to_path_buf(),
            tried,
        })
}

impl Config {
    /// A data-file argument of `option`: its
    /// [`inline_data`](Self::inline_data) if it has some, else the file's
    /// bytes, read with the data-file size cap (see [`read_data_file`]).
    fn read_file(&self, path: &Path, option: Operation) -> Result<Vec<u8>> {
        if let Some((_, data)) = self.inline_data.iter().find(|(p, _)| p == path) {
            return Ok(data.clone());
        }
        read_data_file(path, option)
    }

    /// [`read_file`](Self::read_file), borrowing the bytes of a data file
    /// mapped in `files` instead of reading it.
    fn data_file<'f>(
        &self,
        path: &Path,
        option: Operation,
        files: Option<&'f DataFiles>,
    ) -> Result<Cow<'f, [u8]>> {
        let inline = self.inline_data.iter().any(|(p, _)| p == path);
        match files.and_then(|f| f.get(path)) {
            Some(bytes) if !inline => Ok(Cow::Borrowed(bytes)),
            _ => self.read_file(path, option).map(Cow::Owned),
        }
    }

    /// A container argument of `option` (`--add-debug-from`): its
    /// [`inline_data`](Self::inline_data) if it has some, else the file,
    /// mapped when it is a regular file.
    fn open_container_file(&self, path: &Path) -> Result<MappedFile> {
        if let Some((_, data)) = self.inline_data.iter().find(|(p, _)| p == path) {
            return Ok(MappedFile::from_vec(data.clone()));
        }
        open_data_container(path)
    }

    /// dxstrip's default strip class (see [`Edits::apply_strip_default`]).
    /// Returns whether the default was applied.
    pub fn apply_strip_default(&mut self) -> bool {
        self.edits.apply_strip_default()
    }

    /// Whether the invocation only reads (dumps/extracts) and writes no
    /// container. `--digest` and `--hash` only say how containers are
    /// written (the extracts too), so alone they do not make a run edit its
    /// input.
    pub fn is_read_only(&self) -> bool {
        (!self.dumps.is_empty()
            || !self.extracts.is_empty()
            || self.extract_private_pdb.is_some()
            || self.extract_sources.is_some())
            && self.edits.is_empty()
    }

    /// Whether any option changes the container.
    pub fn modifies(&self) -> bool {
        !self.edits.is_empty() || self.digest != DigestPolicy::Auto || self.hash != HashPolicy::Auto
    }

    /// Checks the options on their own, before any file is opened.
    fn check_options(&self, input: &Path) -> Result<()> {
        if self.edits.split_debug.as_deref() == Some("") {
            return Err(EditError::SplitDebugWithoutPath);
        }
        for (name, _) in &self.edits.update {
            part_name(name)?;
        }
        let mut names = Vec::new();
        for (name, _) in &self.edits.add {
            let name = part_name(name)?;
            if names.contains(&name) {
                return Err(EditError::AddedTwice(name));
            }
            names.push(name);
        }
        let data = self
            .edits
            .add
            .iter()
            .map(|(_, p)| (Operation::AddSection, p));
        let data = data.chain(
            self.edits
                .update
                .iter()
                .map(|(_, p)| (Operation::UpdateSection, p)),
        );
        let data = data.chain(
            self.edits
                .set_private
                .iter()
                .map(|p| (Operation::SetPrivate, p)),
        );
        let data =
            data.chain((self.edits.add_debug_from.iter()).map(|p| (Operation::AddDebugFrom, p)));
        let data = data.chain(
            (self.edits.set_root_signature.iter()).map(|p| (Operation::SetRootSignature, p)),
        );
        crate::batch::check_stdin_once(
            std::iter::once((Operation::Input, input))
                .chain(data.map(|(option, path)| (option, path.as_path()))),
        )?;
        Ok(())
    }

    fn matcher(&self, patterns: &[String]) -> Result<NameMatcher> {
        NameMatcher::from_patterns(patterns, self.match_style)
    }

    /// Refuses a container with more than one DXIL, ILDB or STAT part, as
    /// llvm-objcopy does: which one a tool would read is ambiguous.
    pub fn check_single_programs(container: &Container<'_>) -> Result<()> {
        for name in [PartName::DXIL, PartName::ILDB, PartName::STAT] {
            let indices: Vec<u32> = container
                .parts()
                .filter(|p| p.name == name)
                .map(|p| p.index)
                .collect();
            if indices.len() > 1 {
                return Err(EditError::MultipleProgramParts { name, indices });
            }
        }
        Ok(())
    }

    /// Warnings about the options for `container`: each `-j`, `-R` and
    /// `--keep-section` pattern that matches none of its parts (negated
    /// patterns excluded: they only narrow the others; `-R` is not checked
    /// when `-j` overrides it), and `--digest=zero`.
    pub fn option_warnings(&self, container: &Container<'_>) -> Result<Vec<OptionWarning>> {
        let mut out = Vec::new();
        let mut lists = vec![
            (Operation::OnlySection, &self.edits.only),
            (Operation::KeepSection, &self.keep),
        ];
        if self.edits.only.is_empty() {
            lists.insert(1, (Operation::RemoveSection, &self.edits.remove));
        }
        for (option, patterns) in lists {
            for pattern in patterns.iter().filter(|p| !p.starts_with('!')) {
                let m = self.matcher(std::slice::from_ref(pattern))?;
                if !container.parts().any(|p| m.matches(&p.name)) {
                    out.push(OptionWarning::PatternMatchesNothing {
                        option,
                        pattern: pattern.clone(),
                    });
                }
            }
        }
        if self.digest == DigestPolicy::Zero {
            out.push(OptionWarning::ZeroDigest);
        }
        Ok(out)
    }

    /// Builds the edit plan for `container` (reads the files named by add,
    /// update, set-private and add-debug-from). Split-debug is applied by
    /// [`run_on`](Self::run_on), after the plan.
    pub fn plan<'data>(&self, container: &Container<'data>) -> Result<EditPlan<'data>> {
        self.plan_with_warnings(container, &mut Vec::new())
    }

    fn plan_with_warnings<'data>(
        &self,
        container: &Container<'data>,
        warnings: &mut Vec<EditWarning>,
    ) -> Result<EditPlan<'data>> {
        self.plan_with_notes(container, None, warnings, &mut Vec::new())
    }

    /// The plan; data files mapped in `files` are borrowed, not read.
    fn plan_with_notes<'data>(
        &self,
        container: &Container<'data>,
        files: Option<&'data DataFiles>,
        warnings: &mut Vec<EditWarning>,
        notes: &mut Vec<EditNote>,
    ) -> Result<EditPlan<'data>> {
        let mut plan = EditPlan::from_container(container);
        plan.digest_policy = self.digest;
        plan.hash_policy = self.hash;
        plan.keep(&self.matcher(&self.keep)?);
        if !self.edits.only.is_empty() {
            plan.only(&self.matcher(&self.edits.only)?);
        } else if !self.edits.remove.is_empty() {
            plan.remove(&self.matcher(&self.edits.remove)?);
        }
        for class in &self.edits.strip {
            plan.strip(*class);
        }
        for (name, path) in &self.edits.update {
            let name = part_name(name)?;
            let data = self.data_file(path, Operation::UpdateSection, files)?;
            let data = match root_signature::unwrap_update(name, path, &data)? {
                Some(inner) => {
                    notes.push(EditNote::UnwrappedRootSignature { path: path.clone() });
                    Cow::Owned(inner)
                }
                None => data,
            };
            let is_program = name == PartName::DXIL || name == PartName::ILDB;
            let data = match data {
                // Raw bitcode replaces only the bitcode: never padded.
                Cow::Borrowed(b) if is_program && b.starts_with(&program::BITCODE_MAGIC) => {
                    PartData::Borrowed(b)
                }
                Cow::Borrowed(b) => PartData::new_data(name, b),
                Cow::Owned(v) => {
                    plan.update(name, v)?;
                    continue;
                }
            };
            plan.update_data(name, data)?;
        }
        if let Some(path) = &self.edits.set_root_signature {
            let (data, _) =
                root_signature::load(path, &self.read_file(path, Operation::SetRootSignature)?)?;
            root_signature::set_root_signature(&mut plan, data)?;
        }
        for (name, path) in &self.edits.add {
            let name = part_name(name)?;
            if plan.find(name).is_some() {
                return Err(EditError::AlreadyExists(name));
            }
            match self.data_file(path, Operation::AddSection, files)? {
                Cow::Borrowed(b) => plan.add_data(name, PartData::new_data(name, b))?,
                Cow::Owned(v) => plan.add(name, v)?,
            }
        }
        if let Some(path) = &self.edits.set_private {
            match self.data_file(path, Operation::SetPrivate, files)? {
                Cow::Borrowed(b) => plan.set_private_data(PartData::Borrowed(b)),
                Cow::Owned(v) => plan.set_private(v),
            }
        }
        if let Some(path) = &self.edits.set_renderdoc_debug_path {
            if path.is_empty() || path.contains('\0') {
                return Err(EditError::BadRenderDocDebugPath);
            }
            plan.set_private(private::build_debug_path(path.as_bytes()));
        }
        if let Some(given) = &self.edits.add_debug_from {
            let path = if given.is_dir() {
                let found = find_debug_file(&plan, given)?;
                notes.push(EditNote::DebugFileUsed {
                    path: found.clone(),
                });
                found
            } else {
                given.clone()
            };
            let path = &path;
            let option = Operation::AddDebugFrom;
            let in_file = |e: EditError| EditError::DataFile {
                path: path.clone(),
                option,
                source: Box::new(e),
            };
            let file = self.open_container_file(path)?;
            let found = container_input(&file).map_err(|e| in_file(e.into()))?;
            let guid = match found.source {
                ContainerSource::PdbStream5 { info } => Some(info.guid),
                ContainerSource::Container => None,
            };
            let pdb = Container::parse(&found.bytes).map_err(|e| in_file(e.into()))?;
            let pairing = debug::add_debug_from(&mut plan, &pdb, guid, self.force);
            if let Some(change) = file.changed() {
                return Err(EditError::InputChanged {
                    path: path.clone(),
                    change,
                });
            }
            if let debug::Pairing::Forced { reason } = pairing? {
                warnings.push(EditWarning::PdbMismatchForced { reason });
            }
        }
        if let Some(name) = &self.edits.set_debug_name {
            debug::set_debug_name(&mut plan, name)?;
        }
        if self.edits.strip_bitcode_names {
            crate::name_strip::strip_plan_names(&mut plan)?;
            if crate::name_strip::stat_keeps_names(&plan) {
                warnings.push(EditWarning::StatKeepsBitcodeNames);
            }
        }
        let mut rebuilt = false;
        if let Some(version) = self.edits.set_validator_version {
            rebuilt = crate::validator::set_validator_version(&mut plan, version)?.is_some();
        }
        if self.edits.rebuild_parts {
            rebuild::rebuild_parts(&mut plan)?;
        } else if rebuilt {
        } else if let Some(stale) = stale_derived_parts(container, &plan) {
            notes.push(EditNote::DerivedPartsStale { parts: stale });
        }
        Ok(plan)
    }

    /// Runs the invocation on `input` (a path, or `-` for stdin). `output`
    /// `None` edits in place (or writes to stdout when the input is stdin);
    /// read-only invocations write no container at all.
    ///
    /// A regular input file is memory-mapped and the kept bytes of a
    /// container file go from it straight to the output (dumps too); bytes
    /// that are not kept are never read. Anything else (stdin, a pipe, a
    /// device) is read only as far as its header allows. An in-place edit
    /// needs a regular file. Every output is staged and renamed only when all
    /// are ready, after checking that the input did not change meanwhile.
    pub fn run(&self, input: &Path, output: Option<&Path>) -> Result<Report> {
        self.run_input(input, output, false)
            .map(|r| r.expect("every input is run"))
    }

    /// [`run`](Self::run) on a file found by walking a directory: a file
    /// whose first bytes are not the container magic is left alone and
    /// `None` is returned (a PDB or any other file beside the shaders). The
    /// file is opened and read once for both the check and the run.
    pub fn run_if_container(&self, input: &Path, output: Option<&Path>) -> Result<Option<Report>> {
        self.run_input(input, output, true)
    }

    fn run_input(
        &self,
        input: &Path,
        output: Option<&Path>,
        containers_only: bool,
    ) -> Result<Option<Report>> {
        let (file, plain) = self.open_input(input, output)?;
        if containers_only && !file.starts_with(crate::batch::CONTAINER_MAGIC) {
            return Ok(None);
        }
        self.run_opened(&file, plain, input, output, None).map(Some)
    }

    /// Checks the options for `input` and opens it: once, as the in-place
    /// edit's regular file (`true` when `input` named it without a link),
    /// or for reading only.
    fn open_input(&self, input: &Path, output: Option<&Path>) -> Result<(MappedFile, bool)> {
        self.check_options(input)?;
        let stdin = input.as_os_str() == "-";
        if output.is_none() && !stdin && !self.is_read_only() {
            let opened = crate::file::open_in_place(input)?;
            let file = MappedFile::from_file_with(opened.file, opened.metadata)
                .map_err(|e| EditError::io(input, e))?;
            Ok((file, opened.plain))
        } else {
            let file = MappedFile::open(input).map_err(|e| EditError::io(input, e))?;
            Ok((file, false))
        }
    }

    /// Runs on the opened `file`; `digests` are its digests when they were
    /// computed ahead (see [`run_batch`](Self::run_batch)).
    fn run_opened(
        &self,
        file: &MappedFile,
        plain: bool,
        input: &Path,
        output: Option<&Path>,
        digests: Option<InputDigests>,
    ) -> Result<Report> {
        let result = self.run_file(file, input, output, plain, digests);
        input_change_wins(file, input, result)
    }

    /// Whether a batch should hash `bytes` ahead: `--digest=auto` will
    /// classify the input's digest (it is not zero or a sentinel) because
    /// the strip classes remove one of its parts, so the output differs.
    /// Only a guess of speed: digests computed ahead are the input's own,
    /// so an edit that ends up not needing them is still right.
    pub(crate) fn hashes_ahead(&self, bytes: &[u8]) -> bool {
        self.batches_digests()
            && bytes
                .get(4..20)
                .is_some_and(|stored| digest::sentinel_kind(stored).is_none())
            && Container::parse(bytes).is_ok_and(|c| {
                c.parts()
                    .any(|p| self.edits.strip.iter().any(|class| class.covers(&p.name)))
            })
    }

    /// Whether [`run_batch`](Self::run_batch) hashes inputs ahead for this
    /// configuration: `--digest=auto` strips by class (dxstrip's runs)
    /// with no `--keep-section` or `-j` that could save the parts.
    pub(crate) fn batches_digests(&self) -> bool {
        self.digest == DigestPolicy::Auto
            && !self.edits.strip.is_empty()
            && self.keep.is_empty()
            && self.edits.only.is_empty()
    }

    /// [`run`](Self::run) on each of `inputs`, with the digests of the
    /// inputs `--digest=auto` will classify computed together, several
    /// messages side by side ([`digest::container_digests_many`]), before
    /// the edits. The inputs are opened and read first, all of them; each
    /// result is what [`run`](Self::run) gives for that input.
    pub fn run_batch(&self, inputs: &[PathBuf], output: Option<&Path>) -> Vec<Result<Report>> {
        self.run_batch_walked(inputs, &[], output)
            .into_iter()
            .map(|r| r.map(|r| r.expect("every input is run")))
            .collect()
    }

    /// [`run_batch`](Self::run_batch) where `walked[i]` says that input `i`
    /// was found by walking a directory and is left alone (`Ok(None)`) when
    /// it is not a container, as [`run_if_container`](Self::run_if_container)
    /// does.
    pub(crate) fn run_batch_walked(
        &self,
        inputs: &[PathBuf],
        walked: &[bool],
        output: Option<&Path>,
    ) -> Vec<Result<Option<Report>>> {
        let opened: Vec<Result<Option<(MappedFile, bool)>>> = inputs
            .iter()
            .enumerate()
            .map(|(i, input)| {
                let (file, plain) = self.open_input(input, output)?;
                let skip = walked.get(i).copied().unwrap_or(false)
                    && !file.starts_with(crate::batch::CONTAINER_MAGIC);
                Ok((!skip).then_some((file, plain)))
            })
            .collect();
        let ahead: Vec<(usize, &[u8])> = opened
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let (file, _) = o.as_ref().ok()?.as_ref()?;
                self.hashes_ahead(file).then_some((i, &file[..]))
            })
            .collect();
        let bytes: Vec<&[u8]> = ahead.iter().map(|(_, b)| *b).collect();
        let mut digests: Vec<Option<InputDigests>> = vec![None; inputs.len()];
        for ((i, _), d) in ahead.iter().zip(digest::container_digests_many(&bytes)) {
            digests[*i] = Some(d);
        }
        opened
            .into_iter()
            .zip(inputs)
            .zip(digests)
            .map(|((o, input), d)| match o? {
                Some((file, plain)) => self.run_opened(&file, plain, input, output, d).map(Some),
                None => Ok(None),
            })
            .collect()
    }

    fn run_file(
        &self,
        file: &MappedFile,
        input: &Path,
        output: Option<&Path>,
        plain: bool,
        digests: Option<InputDigests>,
    ) -> Result<Report> {
        if is_header_input(file) {
            return self.run_header(file, input, output, plain);
        }
        if let Some(array) = &self.headers.array {
            return Err(EditError::NotAHeader(array.clone()));
        }
        let found = container_input(file)?;
        let source = InputSource {
            path: input,
            file: Some(file),
            copy_from: !found.is_from_pdb(),
            plain,
            // Digests of the file's bytes are the container's only when
            // they are the container (not a PDB's stream).
            digests: digests.filter(|_| !found.is_from_pdb()),
            header: None,
        };
        if !found.is_from_pdb() {
            let container = Container::parse(file)?;
            return self.run_with(&container, &source, output);
        }
        let in_stream = |e: EditError| {
            if e.names_its_file() {
                e
            } else {
                EditError::InPdbStream(Box::new(e))
            }
        };
        if output.is_none() && !self.is_read_only() {
            return Err(EditError::PdbInPlace);
        }
        let container = Container::parse(&found.bytes).map_err(|e| in_stream(e.into()))?;
        let mut report = self
            .run_with(&container, &source, output)
            .map_err(in_stream)?;
        report.input_is_pdb = true;
        Ok(report)
    }

    /// [`run`](Self::run) on an already parsed container read from `input`.
    pub fn run_on(
        &self,
        container: &Container<'_>,
        input: &Path,
        output: Option<&Path>,
    ) -> Result<Report> {
        self.check_options(input)?;
        let source = InputSource {
            path: input,
            file: None,
            copy_from: false,
            plain: false,
            digests: None,
            header: None,
        };
        self.run_with(container, &source, output)
    }

    /// [`run_on`](Self::run_on) for a container whose bytes are those of
    /// `file`, opened from `input` some time before (a Python `Container`):
    /// as [`run`](Self::run) does, the outputs are renamed only when `file`
    /// did not change since it was opened, and a change (a truncation read
    /// as zeros through the map, a new length or modification time) is the
    /// error reported, whatever else failed.
    pub fn run_on_file(
        &self,
        container: &Container<'_>,
        file: &MappedFile,
        input: &Path,
        output: Option<&Path>,
    ) -> Result<Report> {
        let result = self.check_options(input).and_then(|()| {
            let source = InputSource {
                path: input,
                file: Some(file),
                copy_from: false,
                plain: false,
                digests: None,
                header: None,
            };
            self.run_with(container, &source, output)
        });
        input_change_wins(file, input, result)
    }

    /// The container of one array of the C header `file` (see
    /// [`run_header`](Self::run_header)): its main output is `target`
    /// rewritten when given.
    pub(crate) fn run_header_array(
        &self,
        container: &Container<'_>,
        file: &MappedFile,
        input: &Path,
        output: Option<&Path>,
        plain: bool,
        target: Option<&HeaderTarget<'_>>,
    ) -> Result<Report> {
        let source = InputSource {
            path: input,
            file: Some(file),
            copy_from: false,
            plain,
            digests: None,
            header: target,
        };
        self.run_with(container, &source, output)
    }

    /// The edited container's bytes, for an array of a header edited beside
    /// the run's own (dxstrip's every-array runs); its warnings, notes and
    /// part counts go to `report`.
    pub(crate) fn edit_in_memory(
        &self,
        container: &Container<'_>,
        report: &mut Report,
    ) -> Result<Vec<u8>> {
        Self::check_single_programs(container)?;
        let plan =
            self.plan_with_notes(container, None, &mut report.warnings, &mut report.notes)?;
        let out = plan.finish()?;
        report.parts_before += container.part_count() as usize;
        report.parts_after += out.parts().len();
        report.warnings.extend(out.warnings().iter().cloned());
        Ok(out.to_vec())
    }

    /// [`run_on`](Self::run_on), with the file the input was read from.
    fn run_with(
        &self,
        container: &Container<'_>,
        source: &InputSource<'_>,
        output: Option<&Path>,
    ) -> Result<Report> {
        Self::check_single_programs(container)?;
        let input = source.path;
        let mapped = source.file.filter(|_| source.copy_from);
        let mut report = Report {
            parts_before: container.part_count() as usize,
            ..Report::default()
        };
        report.option_warnings = self.option_warnings(container)?;
        // 1. Resolve every dump and extract first: nothing is written if one fails.
        let mut dumps = Vec::new();
        for d in &self.dumps {
            let m = NameMatcher::from_patterns(&[&d.pattern], self.match_style)?;
            let what = match d.mode {
                DumpMode::Bitcode => Operation::DumpSection,
                DumpMode::Raw => Operation::DumpSectionRaw,
                DumpMode::FixedBitcode => Operation::DumpBitcode,
            };
            dumps.push((
                dump::dump(container, &m, &d.pattern, d.mode)?,
                &d.path,
                what,
            ));
        }
        let mut extracts = Vec::new();
        for (pattern, path) in &self.extracts {
            let m = NameMatcher::from_patterns(&[pattern], self.match_style)?;
            let mut plan = dump::extract(container, &m, pattern)?;
            // The container is new: under auto it is signed for itself, since
            // the input's digest does not cover it.
            plan.digest_policy = match self.digest {
                DigestPolicy::Auto => DigestPolicy::Retail,
                other => other,
            };
            plan.hash_policy = HashPolicy::Keep;
            extracts.push((plan.finish()?, path));
        }
        let private_pdb = match &self.extract_private_pdb {
            Some(path) => Some((debug::extract_private_pdb(container)?, path)),
            None => None,
        };
        let source_files = match &self.extract_sources {
            Some(dir) => Some((sources::source_files(container)?, dir)),
            None => None,
        };
        // 2. The main edit, then the debug split (which needs the final parts).
        let write_main = output.is_some() || !self.is_read_only();
        let mut companion = None;
        let data_files = if write_main {
            DataFiles::open(self)?
        } else {
            DataFiles::default()
        };
        let main = if write_main {
            let plan = self.plan_with_notes(
                container,
                Some(&data_files),
                &mut report.warnings,
                &mut report.notes,
            )?;
            let out = if self.edits.split_debug.is_some() || self.edits.pdb_in_private {
                let options = SplitOptions {
                    target: self.edits.split_debug.as_deref().map(PdbTarget::parse),
                    pdb_in_private: self.edits.pdb_in_private,
                };
                let split = debug::split_debug(plan, &options)?;
                report.warnings.extend(split.warnings);
                companion = split.pdb_path.map(|path| (path, split.pdb));
                split.main
            } else {
                plan.finish()?
            };
            report.parts_after = out.parts().len();
            Some(match source.digests {
                Some(d) => out.with_input_digests(d),
                None => out,
            })
        } else {
            None
        };
        let stdin = input.as_os_str() == "-";
        // An in-place edit that would write the input's own bytes leaves the
        // file alone (same inode and modification time): it has no destination.
        let in_place = !stdin && (output.is_none() || output == Some(input));
        // A C header as the main output: the input header rewritten, or the
        // header a compiler writes.
        if self.headers.output.is_some() && main.is_some() && in_place {
            return Err(EditError::HeaderOutputInPlace);
        }
        let main_text = match (&main, source.header, &self.headers.output) {
            (Some(out), Some(target), _) => Some(target.rewrite(&out.to_vec(), &self.headers)?),
            (Some(out), None, Some(spec)) => {
                Some(c_header::compiler_header(&out.to_vec(), spec)?.into_bytes())
            }
            _ => None,
        };
        let unchanged = main.as_ref().is_some_and(|out| {
            in_place && mapped.is_some() && unchanged::reproduces_input(out, container, self.digest)
        }) || (in_place
            && source.header.is_some()
            && main_text.as_deref() == source.file.map(|f| &f[..]));
        let main_dest: Option<PathBuf> =
            main.as_ref().filter(|_| !unchanged).map(|_| match output {
                Some(o) => o.to_path_buf(),
                None if stdin => PathBuf::from("-"),
                None => input.to_path_buf(),
            });
        // 3. Check where everything goes before anything is written: no
        //    output may be the input (the main output in place excepted) and
        //    no two outputs one file.
        let mut planned: Vec<(&Path, Operation)> = Vec::new();
        for (_, path, what) in &dumps {
            planned.push((path, *what));
        }
        for (_, path) in &extracts {
            planned.push((path, Operation::ExtractSection));
        }
        if let Some((_, path)) = &private_pdb {
            planned.push((path, Operation::ExtractPrivatePdb));
        }
        if let Some((path, _)) = &companion {
            planned.push((path, Operation::SplitDebugPdb));
        }
        let destinations = check_destinations(source, &planned, main_dest.as_deref())?;
        let mut destinations = destinations.into_iter();
        let mut next_destination = || destinations.next().expect("one per output");
        // 4. Stage every output, then commit them together.
        let fresh = FileOptions::default();
        let write_output = |out: &Output<'_>, sink: Sink<'_>| match (sink, mapped) {
            (Sink::File(f), Some(m)) => out.write_file_from(m, f).map(drop),
            (Sink::File(f), None) => out.write_to_seekable(f).map(drop),
            (Sink::Stream(w), _) => out.write_to(w).map(drop),
        };
        // Declared first so it is dropped last, after the temp files in it.
        let mut created_dirs = CreatedDirs::default();
        let mut outputs = Outputs::new();
        for (bytes, path, _) in &dumps {
            let path: &PathBuf = path;
            outputs.add_to(path, next_destination(), &fresh, move |sink| match sink {
                Sink::File(f) => match (mapped, bytes) {
                    // Zero-copy dumps go from the mapped input; a fixed
                    // bitcode (`--dump-bitcode`) is written from memory.
                    (Some(m), std::borrow::Cow::Borrowed(bytes)) => {
                        copy::write_from_input(m, bytes, f)
                    }
                    _ => f.write_all(bytes),
                },
                Sink::Stream(w) => w.write_all(bytes),
            })?;
            report.dumped.push(path.clone());
        }
        for (out, path) in &extracts {
            outputs.add_to(path, next_destination(), &fresh, |sink| {
                write_output(out, sink)
            })?;
            report.dumped.push(path.to_path_buf());
        }
        if let Some((bytes, path)) = private_pdb {
            outputs.add_to(path, next_destination(), &fresh, move |sink| match sink {
                Sink::File(f) => f.write_all(bytes),
                Sink::Stream(w) => w.write_all(bytes),
            })?;
            report.dumped.push(path.clone());
        }
        if let Some((path, bytes)) = &companion {
            // `--split-debug=dir/` names a directory: make it when missing.
            let into_directory = self
                .edits
                .split_debug
                .as_deref()
                .is_some_and(|t| matches!(PdbTarget::parse(t), PdbTarget::Directory(_)));
            if into_directory {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    created_dirs.create(dir)?;
                }
            }
            outputs.add_to(path, next_destination(), &fresh, |sink| match sink {
                Sink::File(f) => f.write_all(bytes),
                Sink::Stream(w) => w.write_all(bytes),
            })?;
            report.pdb_written = Some(path.clone());
        }
        if let (Some(out), Some(dest)) = (&main, &main_dest) {
            // -p: the times read before the input was (so its access time is
            // the old one); mode and owner follow the destination.
            let meta = match source.file.and_then(MappedFile::metadata) {
                Some(meta) => Some(meta.clone()),
                // An input parsed by the caller (run_on): its file, when it has one.
                None if self.preserve_dates && !stdin => std::fs::metadata(input).ok(),
                None => None,
            };
            let options = match &meta {
                Some(meta) if self.preserve_dates && !stdin => FileOptions::times_of(meta),
                _ => FileOptions::default(),
            };
            let text = main_text.as_deref();
            outputs.add_to(dest, next_destination(), &options, move |sink| {
                match (text, sink) {
                    (Some(text), Sink::File(f)) => f.write_all(text),
                    (Some(text), Sink::Stream(w)) => w.write_all(text),
                    (None, sink) => write_output(out, sink),
                }
            })?;
        }
        // The sources are written before the edit is committed, so an in-place
        // edit that removes them never loses them.
        if let Some((files, dir)) = &source_files {
            let input_path = Some(input).filter(|_| !stdin);
            report.sources = Some(sources::write_sources(dir, files, input_path)?);
        }
        outputs.commit(|| {
            source.check_unchanged()?;
            data_files.check_unchanged()
        })?;
        created_dirs.keep();
        for (out, _) in &extracts {
            report.warnings.extend(out.warnings().iter().cloned());
        }
        if unchanged {
            report.unchanged = true;
            return Ok(report);
        }
        if let Some(out) = &main {
            // After writing: the writer may have classified the input's digest.
            report.warnings.extend(out.warnings().iter().cloned());
            report.output_digest = Some(out.digest_kind());
            report.wrote_output = true;
        }
        Ok(report)
    }
}

/// Directories a run created for its outputs (`--split-debug=dir/`): removed
/// again, deepest first and only while empty, unless the run commits, so a
/// failed run leaves nothing behind.
#[derive(Default)]
struct CreatedDirs {
    dirs: Vec<PathBuf>,
    kept: bool,
}

impl CreatedDirs {
    /// Creates `dir` and its missing parents, remembering those it made.
    fn create(&mut self, dir: &Path) -> Result<()> {
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .take_while(|a| std::fs::symlink_metadata(a).is_err())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(dir).map_err(|e| EditError::io(dir, e))?;
        self.dirs.extend(missing);
        Ok(())
    }

    /// The run committed: the directories stay.
    fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for CreatedDirs {
    fn drop(&mut self) {
        if !self.kept {
            // `dirs` lists each directory before its parents.
            for d in &self.dirs {
                let _ = std::fs::remove_dir(d);
            }
        }
    }
}

/// The input of a run: its path, the file it was read from, and whether the
/// parsed container's bytes are that file's (so writers may copy from it).
struct InputSource<'a> {
    path: &'a Path,
    file: Option<&'a MappedFile>,
    copy_from: bool,
    /// `path` named the regular file `file` itself (no symbolic link) when
    /// it was opened for an in-place edit: the in-place destination is that
    /// file, classified from its metadata without another look-up.
    plain: bool,
    /// The container's `(retail, debug)` digests, when computed ahead.
    digests: Option<InputDigests>,
    /// The C header the container came from, when the main output is that
    /// header rewritten.
    header: Option<&'a HeaderTarget<'a>>,
}

impl InputSource<'_> {
    /// The input did not change since it was opened.
    fn check_unchanged(&self) -> Result<()> {
        match self.file.and_then(MappedFile::changed) {
            Some(change) => Err(EditError::InputChanged {
                path: self.path.to_path_buf(),
                change,
            }),
            None => Ok(()),
        }
    }

    /// The input's identity, when it is a file.
    fn id(&self) -> Option<FileId> {
        if self.path.as_os_str() == "-" {
            return None;
        }
        match self.file.and_then(MappedFile::metadata) {
            Some(meta) => Some(FileId::of(meta)),
            None => std::fs::metadata(self.path).ok().map(|m| FileId::of(&m)),
        }
    }
}

/// Classifies every output (the `planned` side outputs, then the main one)
/// and checks that none is the input (the main output may be: that is an
/// in-place edit) and no two are one file. Returns the destinations in the
/// same order.
fn check_destinations(
    source: &InputSource<'_>,
    planned: &[(&Path, Operation)],
    main: Option<&Path>,
) -> Result<Vec<Destination>> {
    if planned.is_empty() && main.is_none() {
        return Ok(Vec::new());
    }
    let input_id = source.id();
    let mut seen: Vec<(FileId, &Path, Operation)> = Vec::new();
    let mut destinations = Vec::new();
    let main = main.map(|m| (m, Operation::Output));
    for (index, (path, what)) in planned.iter().copied().chain(main).enumerate() {
        let is_main = index == planned.len();
        let destination = match source.file.and_then(MappedFile::metadata) {
            // The input itself, opened through this very name, which was
            // no symbolic link: the file and its metadata are known.
            Some(meta) if is_main && source.plain && path == source.path => {
                Destination::Existing(path.to_path_buf(), meta.clone())
            }
            _ => Destination::of(path)?,
        };
        if planned.is_empty() {
            // The only output: there is nothing to compare it with (the
            // main output may be the input), so its identity is not needed.
            destinations.push(destination);
            break;
        }
        let id = destination.id()?;
        if !is_main && input_id.as_ref() == Some(&id) {
            return Err(EditError::OutputIsInput {
                path: path.to_path_buf(),
                what,
            });
        }
        if let Some((_, first, first_what)) = seen.iter().find(|(seen_id, ..)| *seen_id == id) {
            return Err(EditError::DuplicateOutput {
                first: first.to_path_buf(),
                first_what: *first_what,
                second: path.to_path_buf(),
                second_what: what,
            });
        }
        seen.push((id, path, what));
        destinations.push(destination);
    }
    Ok(destinations)
}

/// The outcome of a run on a memory-mapped `file`: a change of the input
/// explains any other error (a part past the new end, a short copy), so it
/// is the one reported. A run that succeeded checked the file before it
/// renamed anything; one that wrote nothing only needs its bytes to have
/// been read whole.
fn input_change_wins(file: &MappedFile, input: &Path, result: Result<Report>) -> Result<Report> {
    let change = match &result {
        Ok(_) => file.changed_while_read(),
        Err(_) => file.changed(),
    };
    match change {
        Some(change) => Err(EditError::InputChanged {
            path: input.to_path_buf(),
            change,
        }),
        None => result,
    }
}

#[cfg(test)]
mod message_tests {
    use super::*;

    /// Every option warning's sentence in the library's words, and with a
    /// front end's spelling of the operations it names.
    #[test]
    fn every_option_warning_has_its_sentence() {
        fn flag(op: Operation) -> &'static str {
            match op {
                Operation::OnlySection => "ONLY",
                Operation::RemoveSection => "REMOVE",
                Operation::KeepSection => "KEEP",
                Operation::DigestZero => "ZERO",
                _ => "OTHER",
            }
        }
        let nothing = |option| OptionWarning::PatternMatchesNothing {
            option,
            pattern: "DX*".into(),
        };
        let tail = "writes an all-zero digest, which D3D treats as unsigned: the runtime refuses to load the shader outside developer mode (hlsl-specs INF-0004)";
        let rows = [
            (
                nothing(Operation::OnlySection),
                "keep-only pattern 'DX*' matches no part".to_string(),
                "ONLY pattern 'DX*' matches no part".to_string(),
            ),
            (
                nothing(Operation::RemoveSection),
                "remove pattern 'DX*' matches no part".to_string(),
                "REMOVE pattern 'DX*' matches no part".to_string(),
            ),
            (
                nothing(Operation::KeepSection),
                "keep pattern 'DX*' matches no part".to_string(),
                "KEEP pattern 'DX*' matches no part".to_string(),
            ),
            (
                OptionWarning::ZeroDigest,
                format!("the zero digest policy {tail}"),
                format!("ZERO {tail}"),
            ),
        ];
        for (w, neutral, spelled) in rows {
            assert_eq!(w.to_string(), neutral, "{w:?}");
            assert_eq!(w.message_with(flag), spelled, "{w:?}");
        }
    }
}

#[cfg(test)]
mod data_file_tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_streamed_data_file_over_the_cap_says_so() {
        // A device has no length to check first: read up to the cap, no further.
        let e = read_data_file(Path::new("/dev/zero"), Operation::AddSection).unwrap_err();
        assert!(
            matches!(
                &e,
                EditError::DataTooLarge {
                    limit: MAX_STREAMED_DATA,
                    streamed: true,
                    ..
                }
            ),
            "{e:?}"
        );
        // A regular file is only checked against the container's limit.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.bin");
        std::fs::write(&path, b"data").unwrap();
        assert_eq!(
            read_data_file(&path, Operation::AddSection).unwrap(),
            b"data"
        );
    }

    #[test]
    fn mapped_data_files_are_borrowed_and_checked_for_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.bin");
        std::fs::write(&path, vec![7u8; 100_000]).unwrap();
        let config = Config {
            edits: Edits {
                add: vec![("BIGE".into(), path.clone())],
                set_private: Some(PathBuf::from("-")),
                ..Edits::default()
            },
            ..Config::default()
        };
        let files = DataFiles::open(&config).unwrap();
        // Regular files are mapped; standard input is read later.
        assert_eq!(files.mapped.len(), 1);
        let data = config
            .data_file(&path, Operation::AddSection, Some(&files))
            .unwrap();
        assert!(matches!(data, Cow::Borrowed(b) if b.len() == 100_000));
        assert!(files.check_unchanged().is_ok());
        // Shrunk by another process: the commit check names the data file.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(10)
            .unwrap();
        let e = files.check_unchanged().unwrap_err();
        assert!(
            matches!(&e, EditError::InputChanged { path: p, .. } if p == &path),
            "{e}"
        );
        // Inline data wins over the file.
        let config = Config {
            inline_data: vec![(path.clone(), b"abc".to_vec())],
            ..config
        };
        let files = DataFiles::open(&config).unwrap();
        assert!(files.mapped.is_empty());
        let data = config
            .data_file(&path, Operation::AddSection, Some(&files))
            .unwrap();
        assert_eq!(&data[..], b"abc");
    }

    /// `run_on_file` (the Python package's `write()`): a mapped input that
    /// shrank after it was opened is the error, and nothing is written.
    #[test]
    fn run_on_file_refuses_an_input_that_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.dxbc");
        // Larger than READ_LIMIT, so it is mapped.
        let big = vec![1u8; 300_000];
        let bytes = crate::ContainerBuilder::new()
            .part(b"SFI0", &[0; 8])
            .part(b"BIGP", &big)
            .build()
            .unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let file = MappedFile::open(&path).unwrap();
        let container = Container::parse(&file).unwrap();
        let config = Config {
            edits: Edits {
                remove: vec!["SFI0".into()],
                ..Edits::default()
            },
            ..Config::default()
        };
        let out = dir.path().join("out.dxbc");
        config
            .run_on_file(&container, &file, &path, Some(&out))
            .unwrap();
        // SFI0 went: its 8 bytes, its 8-byte header and its offset entry.
        assert_eq!(std::fs::read(&out).unwrap().len(), bytes.len() - 20);
        std::fs::remove_file(&out).unwrap();
        if !file.is_mapped() {
            println!(
                "no fault guard slot: the input was read, not mapped; skipping the truncation"
            );
            return;
        }
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100)
            .unwrap();
        let e = config
            .run_on_file(&container, &file, &path, Some(&out))
            .unwrap_err();
        assert!(
            matches!(&e, EditError::InputChanged { path: p, .. } if p == &path),
            "{e}"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the input is left");
    }
}

/// The derived parts of `plan` when its DXIL bitcode differs from the
/// input's (they describe the former module); `None` when the module is
/// unchanged or there is no derived part.
fn stale_derived_parts(container: &Container<'_>, plan: &EditPlan<'_>) -> Option<Vec<PartName>> {
    let bitcode = |bytes: &[u8]| {
        dxcopy_read::Program::parse_data(bytes, 0)
            .ok()
            .map(|p| p.bitcode.to_vec())
    };
    let before = container.find(PartName::DXIL)?;
    let after = plan.find(PartName::DXIL)?;
    if bitcode(before.data)? == bitcode(after.bytes())? {
        return None;
    }
    let parts: Vec<PartName> = dxcopy_read::dxil::derived::DERIVED_NAMES
        .into_iter()
        .filter(|&name| plan.find(name).is_some())
        .collect();
    (!parts.is_empty()).then_some(parts)
}
