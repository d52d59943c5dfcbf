//! The `dxstrip` command: strip parts from many DirectX containers in place, in parallel.

use crate::cli::{self, StripArgs};
use crate::header_args::ListingArgs;
use clap::Parser;
use dxcopy_edit::{batch, Config, EditError, Operation};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  dxstrip build/shaders/*.dxil                  strip debug parts in place (default class)
  dxstrip --strip-all -j 8 shaders/*.cso        everything not needed at run time, 8 workers
  dxstrip --strip-reflect --keep-section=STAT a.dxil
  dxstrip -o shipped.dxil debug.dxil            one file to a new output
  dxstrip -r build/                             every container below build/ (by magic; PDBs untouched)
  dxstrip -r -L build/                          the same, following symbolic links found below build/
  dxstrip -r --include='*.cso' --exclude='third_party/*' out/
  find . -name '*.dxil' | dxstrip --files-from=-   paths from standard input
  dxstrip @args.rsp                             arguments from a response file
  dxstrip --strip-reflect --listing shaders.h   every array of a C header, listings rewritten";

/// Batches at least this long show a progress bar when stderr is a terminal.
const PROGRESS_MIN_FILES: usize = 100;

/// Strip parts from DirectX containers, like llvm-strip.
///
/// Every FILE is edited in place (a temp file renamed over it); a C header
/// (fxc /Fh, dxc -Fh) has each array stripped, every other byte kept. With no strip
/// class (-g, -S, --strip-reflect, --strip-priv, --strip-rootsig) and no -R,
/// debug parts are stripped as by --strip-debug, whatever other options are
/// given (--strip-bitcode-names, --keep-section, --digest, ...). A file reached
/// by several names (links, repeated paths) is edited and counted once. Files
/// are processed in parallel; a bad file (or a directory -r cannot read) is
/// reported and the others still processed. Long batches show a progress bar
/// when stderr is a terminal.
#[derive(Debug, Parser)]
#[command(name = "dxstrip", version = crate::VERSION, after_help = EXAMPLES)]
pub struct Opts {
    /// Containers to strip (directories with -r)
    #[arg(required_unless_present = "files_from")]
    pub files: Vec<PathBuf>,
    /// Walk directories: strip every file below them that is a container (by its magic, whatever its extension; PDBs and other files untouched). Symbolic links found below are not followed (see -L); a directory that cannot be read is one failure, the rest is still stripped
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// With -r: follow symbolic links found below the directories, to files and directories (as find -L); without it they are left alone. Links named as FILE are always followed
    #[arg(short = 'L', long = "follow-symlinks", requires = "recursive")]
    pub follow_symlinks: bool,
    /// With -r: only files whose name or relative path matches GLOB (repeatable)
    #[arg(long, value_name = "GLOB", requires = "recursive")]
    pub include: Vec<String>,
    /// With -r: skip files whose name or relative path matches GLOB (repeatable)
    #[arg(long, value_name = "GLOB", requires = "recursive")]
    pub exclude: Vec<String>,
    /// Read more paths from FILE, one per line (`-` for standard input)
    #[arg(long = "files-from", value_name = "FILE")]
    pub files_from: Option<PathBuf>,
    /// Write to OUT instead of in place (one input file only)
    #[arg(short = 'o', value_name = "OUT")]
    pub output: Option<PathBuf>,
    #[allow(missing_docs)] // flattened: its fields carry the help text
    #[command(flatten)]
    pub strip: StripArgs,
    #[allow(missing_docs)] // flattened: its fields carry the help text
    #[command(flatten)]
    pub headers: ListingArgs,
    /// Worker threads (default: two per core)
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    pub jobs: Option<usize>,
    /// Do not print warnings, the summary or a progress bar
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

/// A progress bar on stderr for long batches, when stderr is a terminal.
fn progress_bar(total: usize, quiet: bool) -> Option<ProgressBar> {
    if quiet || total < PROGRESS_MIN_FILES || !std::io::stderr().is_terminal() {
        return None;
    }
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {eta} left")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    Some(ProgressBar::new(total as u64).with_style(style))
}

/// The files to strip: the arguments (glob-expanded on Windows, whose shell
/// does not), the `--files-from` list, and with -r the files found in
/// directories (see [`batch::gather`]), each file once.
fn gather(opts: &Opts) -> Result<batch::Batch, EditError> {
    let mut named: Vec<PathBuf> = Vec::new();
    for f in &opts.files {
        if cfg!(windows) {
            match f.to_str() {
                Some(text) => named.extend(batch::expand_glob(text, true, true)),
                None => named.push(f.clone()),
            }
        } else {
            named.push(f.clone());
        }
    }
    let list = opts
        .files_from
        .iter()
        .map(|p| (Operation::FileList, p.as_path()));
    batch::check_stdin_once(list.chain(named.iter().map(|p| (Operation::Input, p.as_path()))))?;
    if let Some(list) = &opts.files_from {
        named.extend(batch::read_file_list(list)?);
    }
    batch::check_stdin_once(named.iter().map(|p| (Operation::Input, p.as_path())))?;
    let options = batch::BatchOptions {
        recursive: opts.recursive,
        walk: batch::WalkOptions {
            follow_symlinks: opts.follow_symlinks,
        },
        filter: batch::FileFilter::new(&opts.include, &opts.exclude)?,
    };
    Ok(batch::gather(named, &options))
}

/// Runs the command with the process arguments and exits.
pub fn main() {
    let mut opts: Opts = cli::parse_or_exit("dxstrip");
    cli::clean_up_on_signals();
    let found = match gather(&opts) {
        Ok(found) => found,
        Err(e) => {
            cli::emit("dxstrip", cli::Severity::Error, &cli::error_message(&e));
            cli::exit(1);
        }
    };
    opts.files = found.files;
    let mut walked = found.walked;
    let mut summary = batch::Summary::default();
    for e in &found.errors {
        summary.record_failure();
        cli::emit("dxstrip", cli::Severity::Error, &cli::error_message(e));
    }
    if opts.output.is_some() {
        // One output for one input: which walked files count is settled first.
        let keep: Vec<bool> = walked
            .iter()
            .zip(&opts.files)
            .map(|(&w, f)| !w || batch::is_container_file(f).unwrap_or(true))
            .collect();
        let mut keep = keep.into_iter();
        opts.files.retain(|_| keep.next().unwrap_or(true));
        walked = vec![false; opts.files.len()];
    }
    let no_containers = |quiet: bool| {
        if !quiet {
            cli::emit_line("dxstrip: no containers to strip");
        }
    };
    if opts.files.is_empty() && summary.failed == 0 {
        no_containers(opts.quiet);
        cli::exit(0);
    }
    if opts.output.is_some() && opts.files.len() != 1 {
        cli::emit(
            "dxstrip",
            cli::Severity::Error,
            "-o takes exactly one input file",
        );
        cli::exit(1);
    }
    let mut cfg = Config::default();
    opts.strip.apply(&mut cfg);
    cfg.apply_strip_default();
    // A C header named as FILE: every array in it is stripped in place.
    if let Err(message) = opts.headers.check_flags_used(None) {
        cli::emit("dxstrip", cli::Severity::Error, &message);
        cli::exit(1);
    }
    cfg.headers = opts.headers.header_run(true);
    let progress = progress_bar(opts.files.len(), opts.quiet);
    // Messages go around the bar so it is redrawn below them.
    let say = |level: cli::Severity, msg: &str| match &progress {
        Some(bar) => bar.suspend(|| cli::emit("dxstrip", level, msg)),
        None => cli::emit("dxstrip", level, msg),
    };
    dxcopy_edit::run_many_walked(
        &cfg,
        &opts.files,
        &walked,
        opts.output.as_deref(),
        opts.jobs,
        || {
            if let Some(bar) = &progress {
                bar.inc(1);
            }
        },
        |i, r| {
            let file = &opts.files[i];
            summary.record(&r);
            match r {
                Ok(None) => {}
                Ok(Some(report)) => {
                    if !opts.quiet {
                        let warnings = (report.option_warnings.iter())
                            .map(cli::option_warning_message)
                            .chain(report.warnings.iter().map(cli::warning_message));
                        for w in warnings {
                            say(
                                cli::Severity::Warning,
                                &format!("'{}': {w}", file.display()),
                            );
                        }
                    }
                }
                Err(e) => say(cli::Severity::Error, &cli::file_message(file, &e)),
            }
        },
    );
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if summary.files == 0 {
        no_containers(opts.quiet);
        cli::exit(0);
    }
    if !opts.quiet && (summary.files > 1 || summary.failed > 0) {
        cli::emit_line(&format!("dxstrip: {summary}"));
    }
    cli::exit(if summary.failed > 0 { 1 } else { 0 });
}
