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
//!
//! The options and their checks are here; the data files they name are read
//! in `data_files`, the plan is made in `plan`, and `driver` runs it on files.

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

mod data_files;
mod driver;
mod plan;

pub use data_files::read_data_file;
use data_files::{find_debug_file, DataFiles};

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

impl Config {
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
