//! An objcopy-style invocation as data ([`Config`]), turned into an edit plan
//! over a container, and the driver that opens the input, writes dumps and
//! extracts, and writes the output (in place, to a path, or to stdout).
//!
//! Order of work, whatever the order of options (as llvm-objcopy):
//! dumps and extracts read the *input*; then keep marks, `-j` (which
//! overrides `-R`) or `-R`, strip classes, updates, adds, set-private; then
//! layout, HASH and digest upkeep. Everything is checked before the first file
//! is written, so an error leaves no output and never touches the input.

use crate::copy;
use crate::dump::{self, DumpMode};
use crate::error::{EditError, Result};
use crate::file::{write_atomic, FileOptions};
use crate::matcher::{MatchStyle, NameMatcher};
use crate::output::Output;
use crate::plan::{EditPlan, EditWarning};
use crate::policy::{DigestPolicy, HashPolicy};
use crate::strip::StripClass;
use dxcopy_read::{Container, DigestKind, MappedFile, PartName};
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// Everything one dxcopy / dxstrip invocation asks for.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// How patterns are matched (glob by default, `--regex`).
    pub match_style: MatchStyle,
    /// `--dump-section` / `--dump-section-raw`, in order.
    pub dumps: Vec<DumpSpec>,
    /// `--extract-section NAME=FILE`, in order.
    pub extracts: Vec<(String, PathBuf)>,
    /// `-R` patterns.
    pub remove: Vec<String>,
    /// `-j` patterns (override `-R`).
    pub only: Vec<String>,
    /// `--keep-section` patterns.
    pub keep: Vec<String>,
    /// `--add-section NAME=FILE`.
    pub add: Vec<(String, PathBuf)>,
    /// `--update-section NAME=FILE`.
    pub update: Vec<(String, PathBuf)>,
    /// Strip classes.
    pub strip: Vec<StripClass>,
    /// `--set-private FILE`.
    pub set_private: Option<PathBuf>,
    /// `--digest`.
    pub digest: DigestPolicy,
    /// `--hash`.
    pub hash: HashPolicy,
    /// `-p`: keep the input's access and modification times on the output.
    pub preserve_dates: bool,
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
}

/// Parses a four-byte part name given on the command line.
pub fn part_name(s: &str) -> Result<PartName> {
    PartName::from_str_exact(s).ok_or_else(|| EditError::BadName(s.to_string()))
}

fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| EditError::io(path, e))
}

impl Config {
    /// Whether the invocation only reads (dumps/extracts) and writes no container.
    pub fn is_read_only(&self) -> bool {
        (!self.dumps.is_empty() || !self.extracts.is_empty()) && !self.modifies()
    }

    /// Whether any option changes the container.
    pub fn modifies(&self) -> bool {
        !(self.remove.is_empty()
            && self.only.is_empty()
            && self.add.is_empty()
            && self.update.is_empty()
            && self.strip.is_empty()
            && self.set_private.is_none()
            && self.digest == DigestPolicy::Auto
            && self.hash == HashPolicy::Auto)
    }

    fn matcher(&self, patterns: &[String]) -> Result<NameMatcher> {
        NameMatcher::from_patterns(patterns, self.match_style)
    }

    /// Builds the edit plan for `container` (reads the files named by add,
    /// update and set-private).
    pub fn plan<'data>(&self, container: &Container<'data>) -> Result<EditPlan<'data>> {
        let mut plan = EditPlan::from_container(container);
        plan.digest_policy = self.digest;
        plan.hash_policy = self.hash;
        plan.keep(&self.matcher(&self.keep)?);
        if !self.only.is_empty() {
            plan.only(&self.matcher(&self.only)?);
        } else if !self.remove.is_empty() {
            plan.remove(&self.matcher(&self.remove)?);
        }
        for class in &self.strip {
            plan.strip(*class);
        }
        for (name, path) in &self.update {
            plan.update(part_name(name)?, read_file(path)?)?;
        }
        for (name, path) in &self.add {
            let name = part_name(name)?;
            if plan.find(name).is_some() {
                return Err(EditError::AlreadyExists(name));
            }
            plan.add(name, read_file(path)?)?;
        }
        if let Some(path) = &self.set_private {
            plan.set_private(read_file(path)?);
        }
        Ok(plan)
    }

    /// Runs the invocation on `input` (a path, or `-` for stdin). `output`
    /// `None` edits in place (or writes to stdout when the input is stdin);
    /// read-only invocations write no container at all.
    ///
    /// A regular input file is memory-mapped and its kept bytes are copied
    /// file to file in the kernel (dumps too); bytes that are not kept are
    /// never read.
    pub fn run(&self, input: &Path, output: Option<&Path>) -> Result<Report> {
        let file = MappedFile::open(input).map_err(|e| EditError::io(input, e))?;
        let container = Container::parse(&file)?;
        self.run_with(&container, Some(&file), input, output)
    }

    /// [`run`](Self::run) on an already parsed container read from `input`.
    pub fn run_on(
        &self,
        container: &Container<'_>,
        input: &Path,
        output: Option<&Path>,
    ) -> Result<Report> {
        self.run_with(container, None, input, output)
    }

    fn run_with(
        &self,
        container: &Container<'_>,
        mapped: Option<&MappedFile>,
        input: &Path,
        output: Option<&Path>,
    ) -> Result<Report> {
        let mut report = Report {
            parts_before: container.part_count() as usize,
            ..Report::default()
        };
        // 1. Resolve every dump and extract first: nothing is written if one fails.
        let mut dumps = Vec::new();
        for d in &self.dumps {
            let m = NameMatcher::from_patterns(&[&d.pattern], self.match_style)?;
            dumps.push((dump::dump(container, &m, &d.pattern, d.mode)?, &d.path));
        }
        let mut extracts = Vec::new();
        for (pattern, path) in &self.extracts {
            let m = NameMatcher::from_patterns(&[pattern], self.match_style)?;
            let mut plan = dump::extract(container, &m, pattern)?;
            plan.digest_policy = self.digest;
            plan.hash_policy = HashPolicy::Keep;
            extracts.push((plan.finish()?, path));
        }
        // 2. The main edit.
        let write_main = output.is_some() || !self.is_read_only();
        let main = if write_main {
            let out = self.plan(container)?.finish()?;
            report.parts_after = out.parts().len();
            Some(out)
        } else {
            None
        };
        // 3. Write: dumps, extracts, then the container.
        let fresh = FileOptions::default();
        let write_output = |out: &Output<'_>, f: &mut std::fs::File| match mapped {
            Some(m) => out.write_file_from(m, f),
            None => out.write_to_seekable(f),
        };
        for (bytes, path) in dumps {
            if path.as_os_str() == "-" {
                std::io::stdout()
                    .lock()
                    .write_all(bytes)
                    .map_err(|e| EditError::io(path, e))?;
            } else {
                write_atomic(path, &fresh, |f| match mapped {
                    Some(m) => copy::write_from_input(m, bytes, f),
                    None => f.write_all(bytes),
                })?;
            }
            report.dumped.push(path.clone());
        }
        for (out, path) in extracts {
            write_atomic(path, &fresh, |f| write_output(&out, f))?;
            report.warnings.extend(out.warnings().iter().cloned());
            report.dumped.push(path.clone());
        }
        if let Some(out) = main {
            let stdin = input.as_os_str() == "-";
            let dest = output.unwrap_or(input);
            if dest.as_os_str() == "-" || (stdin && output.is_none()) {
                let stdout = std::io::stdout();
                out.write_to(std::io::BufWriter::with_capacity(1 << 16, stdout.lock()))
                    .map_err(|e| EditError::io("-", e))?;
            } else {
                let options = if stdin {
                    FileOptions::default()
                } else {
                    let meta = match mapped.and_then(MappedFile::file) {
                        Some(f) => f.metadata(),
                        None => std::fs::metadata(input),
                    };
                    let meta = meta.map_err(|e| EditError::io(input, e))?;
                    FileOptions::like(&meta, self.preserve_dates)
                };
                write_atomic(dest, &options, |f| write_output(&out, f))?;
            }
            // After writing: the writer may have classified the input's digest.
            report.warnings.extend(out.warnings().iter().cloned());
            report.output_digest = Some(out.digest_kind());
            report.wrote_output = true;
        }
        Ok(report)
    }
}
