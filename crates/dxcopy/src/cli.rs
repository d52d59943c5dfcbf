//! Argument groups and message helpers shared by dxcopy, dxstrip and dxinfo.

use clap::Args;
use dxcopy_edit::{
    Config, DigestPolicy, EditError, EditWarning, HashPolicy, MatchStyle, Operation, OptionWarning,
    Remedy, StripClass,
};
use std::ffi::OsString;
use std::path::PathBuf;

/// Strip classes, keep patterns and signing policies (dxcopy and dxstrip).
#[derive(Debug, Clone, Args, Default)]
pub struct StripArgs {
    /// `--strip-debug` (help text: [`strip_help`])
    #[arg(short = 'g', long = "strip-debug", help = strip_help(StripClass::Debug))]
    pub strip_debug: bool,
    /// `--strip-all` (help text: [`strip_help`])
    #[arg(short = 'S', long = "strip-all", help = strip_help(StripClass::All))]
    pub strip_all: bool,
    /// `--strip-reflect` (help text: [`strip_help`])
    #[arg(long = "strip-reflect", help = strip_help(StripClass::Reflect))]
    pub strip_reflect: bool,
    /// `--strip-priv` (help text: [`strip_help`])
    #[arg(long = "strip-priv", help = strip_help(StripClass::Priv))]
    pub strip_priv: bool,
    /// `--strip-rootsig` (help text: [`strip_help`])
    #[arg(long = "strip-rootsig", help = strip_help(StripClass::RootSig))]
    pub strip_rootsig: bool,
    /// Remove parts matching PATTERN (glob; `!` negates; repeatable)
    #[arg(short = 'R', long = "remove-section", value_name = "PATTERN")]
    pub remove: Vec<String>,
    /// Never remove parts matching PATTERN, whatever else says so (repeatable)
    #[arg(long = "keep-section", value_name = "PATTERN")]
    pub keep: Vec<String>,
    /// Treat patterns as regular expressions instead of globs
    #[arg(long)]
    pub regex: bool,
    /// Accepted for llvm-objcopy compatibility: globs are on by default
    #[arg(short = 'w', long = "wildcard")]
    pub wildcard: bool,
    /// Header digest: auto (re-sign with the input's kind), retail, debug, zero, keep, bypass, preview
    #[arg(long, value_name = "POLICY", default_value = "auto", value_parser = parse_digest)]
    pub digest: DigestPolicy,
    /// HASH part: auto (recompute when its bitcode changed), keep, update
    #[arg(long, value_name = "POLICY", default_value = "auto", value_parser = parse_hash)]
    pub hash: HashPolicy,
    /// Keep the input's access and modification times on the output
    #[arg(short = 'p', long = "preserve-dates")]
    pub preserve_dates: bool,
    /// Remove struct type names (but dx.*), local value names and internal globals' names from the DXIL and ILDB bitcode (function names, external globals and metadata stay)
    #[arg(long = "strip-bitcode-names")]
    pub strip_bitcode_names: bool,
    /// Make the parts derived from the DXIL module again as dxc writes them (SFI0, ISG1, OSG1, PSG1, PSV0, HASH), adding missing ones and replacing stale ones; other parts stay
    #[arg(long = "rebuild-parts")]
    pub rebuild_parts: bool,
    /// Set the validator version (dx.valver) of the DXIL, ILDB and STAT modules and make PSV0 and HASH again for it; refused when the module needs a newer validator
    #[arg(long = "set-validator-version", value_name = "MAJOR.MINOR", value_parser = parse_validator_version)]
    pub set_validator_version: Option<(u32, u32)>,
}

fn parse_validator_version(text: &str) -> Result<(u32, u32), String> {
    dxcopy_edit::validator::parse_version(text)
        .ok_or_else(|| format!("'{text}' is not MAJOR.MINOR (e.g. 1.7)"))
}

/// The help text of a strip-class option, its part list read from the part
/// table (`dxcopy_read::PART_TABLE`).
pub fn strip_help(class: StripClass) -> String {
    let list = |c: StripClass| c.part_list(", ");
    match class {
        StripClass::Debug => format!("Remove debug parts: {} (ILDN stays)", list(class)),
        StripClass::Reflect => format!("Remove reflection parts: {} (RDAT stays)", list(class)),
        StripClass::Priv => format!("Remove the {} part", list(class)),
        StripClass::RootSig => format!("Remove the root signature ({})", list(class)),
        StripClass::All => {
            let rest: Vec<String> = StripClass::Priv
                .parts()
                .chain(StripClass::All.own_parts())
                .map(|n| n.to_string())
                .collect();
            format!(
                "Remove debug + reflection + {} (RTS0 stays)",
                rest.join(" + ")
            )
        }
    }
}

fn parse_digest(s: &str) -> Result<DigestPolicy, String> {
    DigestPolicy::parse(s).ok_or_else(|| EditError::UnknownDigestPolicy(s.to_string()).to_string())
}

fn parse_hash(s: &str) -> Result<HashPolicy, String> {
    HashPolicy::parse(s).ok_or_else(|| EditError::UnknownHashPolicy(s.to_string()).to_string())
}

/// The clap value parser of `NAME=FILE` options (`value_parser =
/// NameEqFile`): NAME is text, FILE any path the system allows (on Unix,
/// bytes that are not UTF-8 too). Messages name the option by the long
/// name clap gives the argument, so it is written once, in `#[arg]`.
#[derive(Debug, Clone, Copy)]
pub struct NameEqFile;

impl NameEqFile {
    /// Splits `value` at its first `=`; `option` (as `--add-section`)
    /// names the option in the message.
    pub fn parse(
        &self,
        option: &str,
        value: &std::ffi::OsStr,
    ) -> Result<(String, PathBuf), String> {
        let bad = || format!("bad format for {option}, expected NAME=FILE");
        let (name, file) = split_name_eq_file(value).ok_or_else(bad)?;
        if name.is_empty() || file.is_empty() {
            return Err(bad());
        }
        Ok((name, PathBuf::from(file)))
    }
}

#[cfg(unix)]
fn split_name_eq_file(value: &std::ffi::OsStr) -> Option<(String, OsString)> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = value.as_bytes();
    let at = bytes.iter().position(|&b| b == b'=')?;
    let name = std::str::from_utf8(&bytes[..at]).ok()?.to_string();
    Some((
        name,
        std::ffi::OsStr::from_bytes(&bytes[at + 1..]).to_os_string(),
    ))
}

#[cfg(not(unix))]
fn split_name_eq_file(value: &std::ffi::OsStr) -> Option<(String, OsString)> {
    let (name, file) = value.to_str()?.split_once('=')?;
    Some((name.to_string(), file.into()))
}

impl clap::builder::TypedValueParser for NameEqFile {
    type Value = (String, PathBuf);

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let long = arg.and_then(clap::Arg::get_long);
        let option = long.map_or_else(|| "NAME=FILE".to_string(), |l| format!("--{l}"));
        self.parse(&option, value).map_err(|message| {
            let arg = arg.map_or_else(|| option.clone(), ToString::to_string);
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!(
                    "invalid value '{}' for '{arg}': {message}\n",
                    value.to_string_lossy()
                ),
            )
            .with_cmd(cmd)
        })
    }
}

/// Removes the temp files of a run interrupted by SIGINT, SIGTERM or SIGHUP
/// and ends the process with status 128 + the signal (130, 143, 129), as a
/// shell reports a process the signal ended.
pub fn clean_up_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                dxcopy_edit::file::remove_temp_files();
                std::process::exit(128 + signal);
            }
        });
    }
}

impl StripArgs {
    /// The strip classes asked for.
    pub fn classes(&self) -> Vec<StripClass> {
        let mut v = Vec::new();
        for (on, class) in [
            (self.strip_debug, StripClass::Debug),
            (self.strip_all, StripClass::All),
            (self.strip_reflect, StripClass::Reflect),
            (self.strip_priv, StripClass::Priv),
            (self.strip_rootsig, StripClass::RootSig),
        ] {
            if on {
                v.push(class);
            }
        }
        v
    }

    /// Fills the shared fields of a [`Config`].
    pub fn apply(&self, config: &mut Config) {
        config.match_style = if self.regex {
            MatchStyle::Regex
        } else {
            MatchStyle::Glob
        };
        config.edits.strip = self.classes();
        config.edits.remove = self.remove.clone();
        config.keep = self.keep.clone();
        config.digest = self.digest;
        config.hash = self.hash;
        config.preserve_dates = self.preserve_dates;
        config.edits.strip_bitcode_names = self.strip_bitcode_names;
        config.edits.rebuild_parts = self.rebuild_parts;
        config.edits.set_validator_version = self.set_validator_version;
    }
}

/// llvm-objcopy / llvm-strip options that make no sense for DirectX
/// containers, with the reason given when one is used.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("--strip-unneeded", "DirectX containers have no symbols"),
    ("--strip-symbol", "DirectX containers have no symbols"),
    ("--strip-symbols", "DirectX containers have no symbols"),
    ("--keep-symbol", "DirectX containers have no symbols"),
    ("--add-symbol", "DirectX containers have no symbols"),
    ("--weaken", "DirectX containers have no symbols"),
    ("--weaken-symbol", "DirectX containers have no symbols"),
    ("--globalize-symbol", "DirectX containers have no symbols"),
    ("--localize-symbol", "DirectX containers have no symbols"),
    ("--redefine-sym", "DirectX containers have no symbols"),
    ("--discard-all", "DirectX containers have no symbols"),
    ("-x", "DirectX containers have no symbols"),
    ("-X", "DirectX containers have no symbols"),
    ("--discard-locals", "DirectX containers have no symbols"),
    (
        "--strip-sections",
        "a container without part headers cannot be read",
    ),
    (
        "--strip-non-alloc",
        "parts have no alloc flag; use -R or a --strip-* class",
    ),
    ("--only-keep-debug", "use --split-debug or -j ILDB"),
    ("--strip-dwo", "there is no DWARF; use --strip-debug"),
    (
        "--extract-dwo",
        "there is no DWARF; use --dump-section=ILDB=FILE",
    ),
    (
        "--split-dwo",
        "there is no DWARF; use --dump-section=ILDB=FILE",
    ),
    ("--add-gnu-debuglink", "ILDN names the PDB of a container"),
    (
        "--rename-section",
        "part names identify their format; add and remove instead",
    ),
    ("--set-section-flags", "parts have no flags"),
    ("--set-section-type", "parts have no types"),
    (
        "--set-section-alignment",
        "part alignment is fixed by the format (4 bytes, PRIV unpadded)",
    ),
    ("--prefix-alloc-sections", "parts have no alloc flag"),
    ("--change-section-lma", "parts have no addresses"),
    ("--change-section-address", "parts have no addresses"),
    ("--change-section-vma", "parts have no addresses"),
    ("--pad-to", "parts have no addresses"),
    ("--gap-fill", "parts have no addresses"),
    ("--compress-debug-sections", "parts are not compressed"),
    ("--decompress-debug-sections", "parts are not compressed"),
    ("--compress-sections", "parts are not compressed"),
    (
        "--output-target",
        "the output is always a DirectX container",
    ),
    ("-O", "the output is always a DirectX container"),
    ("--input-target", "the input is always a DirectX container"),
    ("-I", "the input is always a DirectX container"),
    (
        "--binary-architecture",
        "the input is always a DirectX container",
    ),
    ("-B", "the input is always a DirectX container"),
    ("--set-start", "containers have no entry address"),
    ("--extract-partition", "containers have no partitions"),
    ("--extract-main-partition", "containers have no partitions"),
    ("--remove-note", "containers have no notes"),
    ("--add-note", "containers have no notes"),
    ("--verify-note-sections", "containers have no notes"),
    ("--strip-all-gnu", "use --strip-all"),
    ("-N", "DirectX containers have no symbols"),
    ("-K", "DirectX containers have no symbols"),
    ("--keep-symbols", "DirectX containers have no symbols"),
    ("--keep-global-symbol", "DirectX containers have no symbols"),
    (
        "--keep-global-symbols",
        "DirectX containers have no symbols",
    ),
    ("-G", "DirectX containers have no symbols"),
    ("--keep-file-symbols", "DirectX containers have no symbols"),
    ("--keep-undefined", "DirectX containers have no symbols"),
    ("--globalize-symbols", "DirectX containers have no symbols"),
    ("--localize-symbols", "DirectX containers have no symbols"),
    ("-L", "DirectX containers have no symbols"),
    ("--localize-hidden", "DirectX containers have no symbols"),
    ("--weaken-symbols", "DirectX containers have no symbols"),
    ("-W", "DirectX containers have no symbols"),
    ("--redefine-syms", "DirectX containers have no symbols"),
    ("--prefix-symbols", "DirectX containers have no symbols"),
    (
        "--remove-symbol-prefix",
        "DirectX containers have no symbols",
    ),
    ("--skip-symbol", "DirectX containers have no symbols"),
    ("--skip-symbols", "DirectX containers have no symbols"),
    (
        "--strip-unneeded-symbol",
        "DirectX containers have no symbols",
    ),
    (
        "--strip-unneeded-symbols",
        "DirectX containers have no symbols",
    ),
    (
        "--new-symbol-visibility",
        "DirectX containers have no symbols",
    ),
    (
        "--set-symbol-visibility",
        "DirectX containers have no symbols",
    ),
    (
        "--set-symbols-visibility",
        "DirectX containers have no symbols",
    ),
    ("-T", "DirectX containers have no (Swift) symbols"),
    ("--allow-broken-links", "parts do not link to each other"),
    ("--adjust-section-vma", "parts have no addresses"),
    ("--adjust-start", "containers have no entry address"),
    ("--change-start", "containers have no entry address"),
    (
        "--target",
        "the input and output are always DirectX containers",
    ),
    ("-F", "the input and output are always DirectX containers"),
    (
        "--enable-deterministic-archives",
        "containers are not archives, and the output is always deterministic",
    ),
    (
        "-D",
        "containers are not archives, and the output is always deterministic",
    ),
    (
        "--disable-deterministic-archives",
        "containers are not archives, and the output is always deterministic",
    ),
    (
        "-U",
        "containers are not archives, and the output is always deterministic",
    ),
    ("--no-verify-note-sections", "containers have no notes"),
    ("--subsystem", "containers are not PE images"),
    (
        "--update-resource",
        "containers hold no Windows resources; use --update-section",
    ),
    (
        "--no-strip-all",
        "use the --strip-* classes and -R to choose what goes",
    ),
    ("-d", "use -g / --strip-debug"),
    ("-s", "use -S / --strip-all"),
];

/// llvm-strip options that dxstrip leaves to dxcopy.
const STRIP_UNSUPPORTED: &[(&str, &str)] = &[(
    "--extract-section",
    "dxstrip only removes parts; use dxcopy --extract-section",
)];

/// llvm-objcopy options whose letter dxstrip uses for one of its own
/// (`-L`: follow symbolic links under -r, as `find -L`).
const STRIP_OWN: &[&str] = &["-L"];

/// Rejects llvm-objcopy (for dxcopy) or llvm-strip (for dxstrip) options that
/// do not apply, naming the option and why.
pub fn reject_unsupported(tool: &str, args: &[OsString]) -> Result<(), String> {
    let (extra, own) = if tool == "dxstrip" {
        (STRIP_UNSUPPORTED, STRIP_OWN)
    } else {
        (&[][..], &[][..])
    };
    for a in args.iter().skip(1) {
        let Some(a) = a.to_str() else { continue };
        if a == "--" {
            break;
        }
        let key = a.split_once('=').map_or(a, |(k, _)| k);
        if own.contains(&key) {
            continue;
        }
        if let Some((opt, why)) = UNSUPPORTED.iter().chain(extra).find(|(o, _)| *o == key) {
            return Err(format!(
                "option '{opt}' is not supported for DirectX containers: {why}"
            ));
        }
    }
    Ok(())
}

/// Parses arguments with clap after expanding `@FILE` response files; usage
/// errors exit with status 1 (help and version with 0), and unsupported
/// llvm-objcopy options are named.
pub fn parse_or_exit<T: clap::Parser>(tool: &str) -> T {
    let args = match crate::args::expand(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(e) => {
            emit(tool, Severity::Error, &e.to_string());
            exit(1);
        }
    };
    if let Err(msg) = reject_unsupported(tool, &args) {
        emit(tool, Severity::Error, &msg);
        exit(1);
    }
    match T::try_parse_from(&args) {
        Ok(t) => t,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let rendered = e.render();
            let stream = if e.use_stderr() {
                Stream::Stderr
            } else {
                Stream::Stdout
            };
            let text = if stream.wants_color() {
                rendered.ansi().to_string()
            } else {
                rendered.to_string()
            };
            print_and_exit(tool, stream, &text, code)
        }
    }
}

/// A standard stream the tools write their own text to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output: help, version, listings.
    Stdout,
    /// Standard error: usage errors and diagnostics.
    Stderr,
}

impl Stream {
    /// Whether text for this stream may carry ANSI colour: it is a terminal
    /// and `NO_COLOR` is unset or empty.
    pub fn wants_color(self) -> bool {
        use std::io::IsTerminal;
        let terminal = match self {
            Stream::Stdout => std::io::stdout().is_terminal(),
            Stream::Stderr => std::io::stderr().is_terminal(),
        };
        std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && terminal
    }

    /// Writes `text` and flushes, returning the error instead of panicking
    /// as `print!` and `eprint!` do.
    pub fn write(self, text: &str) -> std::io::Result<()> {
        use std::io::Write;
        match self {
            Stream::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes())?;
                out.flush()
            }
            Stream::Stderr => {
                let mut err = std::io::stderr().lock();
                err.write_all(text.as_bytes())?;
                err.flush()
            }
        }
    }
}

/// Set when a diagnostic could not be written to stderr for another reason
/// than a closed pipe: the run then exits with status 1 (see [`exit`]), so
/// no message is lost silently.
static STDERR_LOST: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records the result of writing a diagnostic to stderr. A closed pipe
/// (EPIPE) is the reader's choice and is not an error; any other failure
/// makes the exit status 1.
pub fn note_stderr_result(result: std::io::Result<()>) {
    if let Err(e) = result {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            STDERR_LOST.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The exit status of a run that would end with `code`: at least 1 when a
/// diagnostic could not be written to stderr.
pub fn exit_status(code: i32) -> i32 {
    if STDERR_LOST.load(std::sync::atomic::Ordering::Relaxed) {
        code.max(1)
    } else {
        code
    }
}

/// Ends the process with [`exit_status`]`(code)`.
pub fn exit(code: i32) -> ! {
    std::process::exit(exit_status(code))
}

/// Writes the tool's own `text` (help, version, a usage error) to `stream`
/// and exits with `code`. A write error other than a closed pipe exits with
/// status 1, after saying so on stderr when it was stdout that failed; a
/// closed pipe ends the run quietly with `code`, as `dxinfo … | head` does.
pub fn print_and_exit(tool: &str, stream: Stream, text: &str, code: i32) -> ! {
    match stream.write(text) {
        Ok(()) => exit(code),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit(code),
        Err(e) => {
            if stream == Stream::Stdout {
                emit(tool, Severity::Error, &format!("writing output: {e}"));
            }
            exit(1)
        }
    }
}

/// Severity of a diagnostic line: `tool: error: …`, `tool: warning: …`, `tool: note: …`.
pub use dxcopy_read::Severity;

/// Whether diagnostics are coloured: stderr is a terminal and `NO_COLOR` is unset or empty.
pub fn use_color() -> bool {
    Stream::Stderr.wants_color()
}

/// Formats `tool: error: message` / `tool: warning: message` / `tool: note: message`,
/// with ANSI colour when asked.
pub fn diagnostic(tool: &str, level: Severity, message: &str, color: bool) -> String {
    let (word, code) = match level {
        Severity::Error => ("error", "1;31"),
        Severity::Warning => ("warning", "1;33"),
        Severity::Note => ("note", "1;36"),
    };
    if color {
        format!("{tool}: \x1b[{code}m{word}:\x1b[0m {message}")
    } else {
        format!("{tool}: {word}: {message}")
    }
}

/// Prints a diagnostic line on stderr; a failed write makes the exit
/// status 1 (see [`note_stderr_result`]).
pub fn emit(tool: &str, level: Severity, message: &str) {
    emit_line(&diagnostic(tool, level, message, use_color()));
}

/// Prints `line` and a newline on stderr; a failed write makes the exit
/// status 1 (see [`note_stderr_result`]).
pub fn emit_line(line: &str) {
    note_stderr_result(Stream::Stderr.write(&format!("{line}\n")));
}

/// One-line message for an error about `file`: `'file': message`, without
/// repeating a path the error already names, with operations named by
/// their options and the option that helps, if any.
pub fn file_message(file: &std::path::Path, err: &EditError) -> String {
    let mut message = err.file_message_with(file, option_name);
    if let Some(remedy) = err.remedy() {
        message.push_str(option_hint(remedy));
    }
    message
}

/// What `--extract-sources` wrote, in one sentence: how many files where,
/// the main file, and the names SRCI holds no contents for.
pub fn sources_message(sources: &dxcopy_edit::sources::ExtractedSources) -> String {
    let count = sources.files.len();
    let mut text = format!(
        "wrote {count} source file{}",
        if count == 1 { "" } else { "s" }
    );
    match &sources.main {
        Some(main) => text.push_str(&format!("; main file '{}'", main.display())),
        None => text.push_str("; no main file recorded"),
    }
    if !sources.without_contents.is_empty() {
        text.push_str(&format!(
            "; no contents recorded for {}",
            sources.without_contents.join(", ")
        ));
    }
    text
}

/// The message of an error that names no file of its own, with operations
/// named by their options.
pub fn error_message(err: &EditError) -> String {
    err.message_with(option_name)
}

/// The message of an edit warning, with operations named by their options.
pub fn warning_message(warning: &EditWarning) -> String {
    warning.message_with(option_name)
}

/// The message of a warning about the options, named as they are written.
pub fn option_warning_message(warning: &OptionWarning) -> String {
    warning.message_with(option_name)
}

/// How the tools spell an operation of the library in messages: the option
/// that asks for it.
pub fn option_name(operation: Operation) -> &'static str {
    match operation {
        Operation::Input => "the input",
        Operation::FileList => "--files-from",
        Operation::Output => "the output",
        Operation::AddSection => "--add-section",
        Operation::UpdateSection => "--update-section",
        Operation::SetPrivate => "--set-private",
        Operation::AddDebugFrom => "--add-debug-from",
        Operation::SetRootSignature => "--set-root-signature",
        Operation::VerifyRootSignature => "--root-signature",
        Operation::OnlySection => "-j",
        Operation::RemoveSection => "-R",
        Operation::KeepSection => "--keep-section",
        Operation::DumpSection => "--dump-section",
        Operation::DumpSectionRaw => "--dump-section-raw",
        Operation::DumpBitcode => "--dump-bitcode",
        Operation::ExtractSection => "--extract-section",
        Operation::ExtractPrivatePdb => "--extract-private-pdb",
        Operation::SplitDebug => "--split-debug",
        Operation::SplitDebugPdb => "the --split-debug PDB",
        Operation::DumpAll => "--dump-all",
        Operation::ExtractSources => "--extract-sources",
        Operation::Disasm => "--disasm",
        Operation::DigestZero => "--digest=zero",
        Operation::DigestRetail => "--digest=retail",
        Operation::HashUpdate => "--hash=update",
        Operation::PdbInPrivate => "--pdb-in-private",
        Operation::Force => "--force",
        Operation::StripBitcodeNames => "--strip-bitcode-names",
        Operation::StripReflect => "--strip-reflect",
        other => other.describe(),
    }
}

/// The options that address an error, as the end of its message.
fn option_hint(remedy: Remedy) -> &'static str {
    match remedy {
        Remedy::UpdateInstead => "; use --update-section to replace it",
        Remedy::StripOrReplacePriv => {
            "; remove them with --strip-priv or replace them with --set-private"
        }
        Remedy::Force => "; use --force to add its debug info anyway",
        Remedy::BitcodePart => " (--dump-bitcode takes DXIL, ILDB or a dxc STAT)",
        Remedy::GiveOutput => " (give an output file)",
        Remedy::WalkDirectory => "; use dxstrip -r to walk it",
        Remedy::ChooseArray => "; choose one with --array=NAME",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strip options' help, read from the part table, is the text the
    /// options have always shown (a new row in a class shows up here).
    #[test]
    fn strip_help_reads_the_part_table() {
        let rows = [
            (
                StripClass::Debug,
                "Remove debug parts: ILDB, SRCI, PDBI, SDBG, SPDB (ILDN stays)",
            ),
            (
                StripClass::All,
                "Remove debug + reflection + PRIV + ILDN + VERS (RTS0 stays)",
            ),
            (
                StripClass::Reflect,
                "Remove reflection parts: STAT, RDEF (RDAT stays)",
            ),
            (StripClass::Priv, "Remove the PRIV part"),
            (StripClass::RootSig, "Remove the root signature (RTS0)"),
        ];
        for (class, want) in rows {
            assert_eq!(strip_help(class), want);
        }
        use clap::CommandFactory;
        #[derive(clap::Parser)]
        struct Probe {
            #[command(flatten)]
            strip: StripArgs,
        }
        let cmd = Probe::command();
        let help = |long: &str| {
            let arg = cmd.get_arguments().find(|a| a.get_long() == Some(long));
            arg.and_then(|a| a.get_help()).map(|h| h.to_string())
        };
        assert_eq!(help("strip-debug").as_deref(), Some(rows[0].1));
        assert_eq!(help("strip-rootsig").as_deref(), Some(rows[4].1));
    }

    #[test]
    fn file_messages_name_the_option_that_helps() {
        use std::path::Path;
        let file = Path::new("out.dxil");
        let rows = [
            (
                EditError::AlreadyExists(dxcopy_read::PartName::PRIV),
                "'out.dxil': part 'PRIV' already exists; use --update-section to replace it",
            ),
            (
                EditError::MultiplePriv(2),
                "'out.dxil': more than one PRIV part (2); remove them with --strip-priv or replace them with --set-private",
            ),
            (
                EditError::PdbMismatch {
                    reason: dxcopy_edit::PdbMismatchReason::HashPart {
                        pdb_hash: None,
                        shader_hash: None,
                    },
                },
                "'out.dxil': the PDB does not belong to this shader: its HASH part (none) is not the shader's none (the shader has no HASH part), and its container does not carry the shader's digest; use --force to add its debug info anyway",
            ),
            (
                EditError::NotBitcode(dxcopy_read::PartName::RDEF),
                "'out.dxil': part 'RDEF' holds no LLVM bitcode (--dump-bitcode takes DXIL, ILDB or a dxc STAT)",
            ),
            (
                EditError::InPdbStream(Box::new(EditError::MultiplePriv(3))),
                "'out.dxil': in the container in PDB stream 5: more than one PRIV part (3); remove them with --strip-priv or replace them with --set-private",
            ),
            (
                EditError::EmptyPart(dxcopy_read::PartName::RDEF),
                "'out.dxil': part 'RDEF' is empty",
            ),
        ];
        for (e, want) in rows {
            assert_eq!(file_message(file, &e), want);
        }
    }

    /// The library's sentences with each operation spelled as the option
    /// that asks for it: the tools' messages, word for word.
    #[test]
    fn messages_name_operations_by_their_options() {
        use dxcopy_edit::HashSkip;
        use dxcopy_read::PartName;
        use std::path::Path;
        let file = Path::new("in.dxil");
        let p = PathBuf::from;
        let errors = [
            (
                EditError::OutputIsInput {
                    path: p("in.dxil"),
                    what: Operation::DumpSectionRaw,
                },
                "'in.dxil' is the input file: writing --dump-section-raw to it would destroy the input; nothing was written",
            ),
            (
                EditError::OutputIsInput {
                    path: p("in.dxil"),
                    what: Operation::DumpAll,
                },
                "'in.dxil' is the input file: writing --dump-all to it would destroy the input; nothing was written",
            ),
            (
                EditError::DuplicateOutput {
                    first: p("a.pdb"),
                    first_what: Operation::SplitDebugPdb,
                    second: p("a.pdb"),
                    second_what: Operation::Output,
                },
                "the output 'a.pdb' and the --split-debug PDB 'a.pdb' are the same file: a run writes each file once; nothing was written",
            ),
            (
                EditError::DuplicateOutput {
                    first: p("x"),
                    first_what: Operation::ExtractSection,
                    second: p("x"),
                    second_what: Operation::ExtractPrivatePdb,
                },
                "--extract-private-pdb 'x' and --extract-section 'x' are the same file: a run writes each file once; nothing was written",
            ),
            (
                EditError::DataFile {
                    path: p("a.pdb"),
                    option: Operation::AddDebugFrom,
                    source: Box::new(EditError::PdbWithoutDebugInfo),
                },
                "'a.pdb' (--add-debug-from): the PDB holds no ILDB, SRCI or PDBI part to add",
            ),
            (
                EditError::DataTooLarge {
                    path: p("/dev/zero"),
                    option: Operation::AddSection,
                    limit: 67108864,
                    streamed: true,
                },
                "'/dev/zero' (--add-section): the data file is larger than the cap of 67108864 bytes read from a non-regular file (standard input, a pipe, a device); larger data must come from a regular file",
            ),
            (
                EditError::DataTooLarge {
                    path: p("big"),
                    option: Operation::SetPrivate,
                    limit: 4294967295,
                    streamed: false,
                },
                "'big' (--set-private): more than 4294967295 bytes, larger than a container can hold",
            ),
            (
                EditError::DumpAllRefused {
                    path: p("d/00-DXIL.bin"),
                    kind: dxcopy_edit::FileKind::SymbolicLink,
                    by: Operation::DumpAll,
                },
                "'d/00-DXIL.bin' is a symbolic link: --dump-all writes only regular files and directories of its own inside its directory; nothing was written",
            ),
            (
                EditError::DumpAllRefused {
                    path: p("src/inc"),
                    kind: dxcopy_edit::FileKind::SymbolicLink,
                    by: Operation::ExtractSources,
                },
                "'src/inc' is a symbolic link: --extract-sources writes only regular files and directories of its own inside its directory; nothing was written",
            ),
            (
                EditError::StdinTwice {
                    first: Operation::Input,
                    second: Operation::UpdateSection,
                },
                "standard input ('-') is given for both the input and --update-section; it can be read only once, so nothing was read",
            ),
            (
                EditError::AddedTwice(PartName::PRIV),
                "--add-section: part 'PRIV' is given twice",
            ),
            (
                EditError::SplitDebugWithoutPath,
                "'in.dxil': --split-debug needs a path (a file, or a directory ending in /)",
            ),
            (
                EditError::NotDisassemblable(PartName::RDEF),
                "'in.dxil': --disasm takes DXIL, ILDB, SHEX or SHDR, not 'RDEF'",
            ),
            (
                EditError::InPdbStream(Box::new(EditError::SplitDebugWithoutPath)),
                "'in.dxil': in the container in PDB stream 5: --split-debug needs a path (a file, or a directory ending in /)",
            ),
        ];
        for (e, want) in errors {
            assert_eq!(file_message(file, &e), want);
        }
        let warnings = [
            (
                EditWarning::InvalidDigestKept,
                "the input's digest is not valid; it was copied unchanged (use --digest=retail to re-sign)",
            ),
            (
                EditWarning::HashNotUpdated {
                    reason: HashSkip::Mismatch {
                        source: PartName::DXIL,
                    },
                },
                "HASH part not updated: it did not match the DXIL bitcode in the input (use --hash=update to force)",
            ),
            (
                EditWarning::PrivateReplacedByPdb,
                "the existing PRIV part was replaced by the PDB (--pdb-in-private)",
            ),
            (
                EditWarning::PdbMismatchForced {
                    reason: dxcopy_edit::PdbMismatchReason::HashPart {
                        pdb_hash: None,
                        shader_hash: None,
                    },
                },
                "the PDB does not belong to this shader (its HASH part (none) is not the shader's none (the shader has no HASH part), and its container does not carry the shader's digest); its debug info was added anyway (--force)",
            ),
            (
                EditWarning::StatKeepsBitcodeNames,
                "the STAT part keeps its bitcode names (--strip-bitcode-names strips DXIL and ILDB; STAT holds a copy of the shader's bitcode with reflection); use --strip-reflect to remove it",
            ),
        ];
        for (w, want) in warnings {
            assert_eq!(warning_message(&w), want);
        }
        let pattern = |option| OptionWarning::PatternMatchesNothing {
            option,
            pattern: "DX*".into(),
        };
        let option_warnings = [
            (
                pattern(Operation::OnlySection),
                "-j pattern 'DX*' matches no part",
            ),
            (
                pattern(Operation::RemoveSection),
                "-R pattern 'DX*' matches no part",
            ),
            (
                pattern(Operation::KeepSection),
                "--keep-section pattern 'DX*' matches no part",
            ),
            (
                OptionWarning::ZeroDigest,
                "--digest=zero writes an all-zero digest, which D3D treats as unsigned: the runtime refuses to load the shader outside developer mode (hlsl-specs INF-0004)",
            ),
        ];
        for (w, want) in option_warnings {
            assert_eq!(option_warning_message(&w), want);
        }
    }

    #[test]
    fn rejects_unsupported_with_reason() {
        let args: Vec<OsString> = ["dxcopy", "--strip-unneeded", "a"]
            .iter()
            .map(Into::into)
            .collect();
        let e = reject_unsupported("dxcopy", &args).unwrap_err();
        assert_eq!(
            e,
            "option '--strip-unneeded' is not supported for DirectX containers: DirectX containers have no symbols"
        );
        let args: Vec<OsString> = ["dxcopy", "--pad-to=4", "a"]
            .iter()
            .map(Into::into)
            .collect();
        assert!(reject_unsupported("dxcopy", &args)
            .unwrap_err()
            .contains("'--pad-to'"));
        let args: Vec<OsString> = ["dxcopy", "-R", "STAT", "--", "-x"]
            .iter()
            .map(Into::into)
            .collect();
        assert!(reject_unsupported("dxcopy", &args).is_ok());
    }

    /// Every option of llvm-objcopy 22 and llvm-strip 22 (their `--help`) is
    /// either one dxcopy / dxstrip understands or one refused with a reason.
    #[test]
    fn every_llvm_option_is_known_or_refused_with_a_reason() {
        const OBJCOPY: &str =
            "--add-gnu-debuglink --add-section --add-symbol --adjust-section-vma \
            --adjust-start --allow-broken-links --binary-architecture --change-section-address \
            --change-section-lma --change-start --compress-debug-sections --compress-sections \
            --decompress-debug-sections --disable-deterministic-archives --discard-all \
            --discard-locals --dump-section --enable-deterministic-archives --extract-dwo \
            --extract-main-partition --extract-partition --extract-section --gap-fill \
            --globalize-symbol --globalize-symbols -g --input-target -j --keep-file-symbols \
            --keep-global-symbol --keep-global-symbols --keep-section --keep-symbol --keep-symbols \
            --localize-hidden --localize-symbol --localize-symbols --new-symbol-visibility \
            --no-verify-note-sections --only-keep-debug --only-section --output-target --pad-to \
            --prefix-alloc-sections --prefix-symbols --preserve-dates -p --redefine-sym \
            --redefine-syms --regex --remove-note --remove-section --remove-symbol-prefix \
            --rename-section --set-section-alignment --set-section-flags --set-section-type \
            --set-start --set-symbol-visibility --set-symbols-visibility --skip-symbol \
            --skip-symbols --split-dwo --strip-all-gnu --strip-all --strip-debug --strip-dwo \
            --strip-non-alloc --strip-sections --strip-symbol --strip-symbols \
            --strip-unneeded-symbol --strip-unneeded-symbols --strip-unneeded --target \
            --update-section --verify-note-sections --version --weaken-symbol --weaken-symbols \
            --weaken --wildcard -w -x --subsystem --keep-undefined -B -D -F -G -I -K -L -N -O \
            -R -S -U -V -W -X";
        const STRIP: &str = "--allow-broken-links --disable-deterministic-archives \
            --discard-all --discard-locals -d --enable-deterministic-archives --extract-section -g \
            --keep-file-symbols --keep-section --keep-symbol --no-strip-all --only-keep-debug -o \
            --preserve-dates -p --regex --remove-section --strip-all-gnu --strip-all \
            --strip-debug --strip-sections --strip-symbol --strip-unneeded -s --version --wildcard \
            -w -x --keep-undefined -D -K -N -R -S -T -U -V -X";
        fn known(cmd: &clap::Command, option: &str) -> bool {
            if option == "--version" || option == "-V" {
                return true;
            }
            cmd.get_arguments()
                .any(|a| match option.strip_prefix("--") {
                    Some(long) => {
                        a.get_long() == Some(long)
                            || a.get_all_aliases().is_some_and(|v| v.contains(&long))
                    }
                    None => a.get_short().map(|c| format!("-{c}")).as_deref() == Some(option),
                })
        }
        use clap::CommandFactory;
        for (tool, list, cmd) in [
            ("dxcopy", OBJCOPY, crate::cmd::dxcopy::Opts::command()),
            ("dxstrip", STRIP, crate::cmd::dxstrip::Opts::command()),
        ] {
            let mut unknown = Vec::new();
            for option in list.split_whitespace() {
                let args: Vec<OsString> = [tool, option].iter().map(Into::into).collect();
                let refused = reject_unsupported(tool, &args).is_err();
                if !refused && !known(&cmd, option) {
                    unknown.push(option);
                }
            }
            assert!(
                unknown.is_empty(),
                "{tool}: no support and no reason for {unknown:?}"
            );
        }
        // --update-resource is not an llvm-objcopy option, but users try it.
        let args: Vec<OsString> = ["dxcopy", "--update-resource=x"]
            .iter()
            .map(Into::into)
            .collect();
        assert!(reject_unsupported("dxcopy", &args)
            .unwrap_err()
            .contains("--update-section"));
    }

    #[test]
    fn diagnostics_prefix_and_colour() {
        assert_eq!(
            diagnostic("dxcopy", Severity::Error, "'a': bad", false),
            "dxcopy: error: 'a': bad"
        );
        assert_eq!(
            diagnostic("dxstrip", Severity::Warning, "w", false),
            "dxstrip: warning: w"
        );
        assert_eq!(
            diagnostic("dxcopy", Severity::Error, "x", true),
            "dxcopy: \x1b[1;31merror:\x1b[0m x"
        );
    }

    #[test]
    fn name_eq_file_parses() {
        let p = |s: &str| NameEqFile.parse("--dump-section", std::ffi::OsStr::new(s));
        assert_eq!(
            p("DXIL=a=b").unwrap(),
            ("DXIL".to_string(), PathBuf::from("a=b"))
        );
        assert_eq!(
            p("DXIL").unwrap_err(),
            "bad format for --dump-section, expected NAME=FILE"
        );
        assert!(p("=x").is_err());
        assert!(p("DXIL=").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn name_eq_file_keeps_non_utf8_paths() {
        use std::os::unix::ffi::{OsStrExt, OsStringExt};
        let p = |s: &[u8]| NameEqFile.parse("--add-section", std::ffi::OsStr::from_bytes(s));
        let (name, path) = p(b"PRIV=d\xff.bin").unwrap();
        assert_eq!(name, "PRIV");
        assert_eq!(path.into_os_string().into_vec(), b"d\xff.bin");
        // The name must be text.
        assert!(p(b"P\xffIV=x").is_err());
    }

    #[test]
    fn classes_from_flags() {
        let a = StripArgs {
            strip_debug: true,
            strip_rootsig: true,
            ..StripArgs::default()
        };
        assert_eq!(a.classes(), [StripClass::Debug, StripClass::RootSig]);
    }
}
