//! Argument groups and message helpers shared by dxcopy, dxstrip and dxinfo.

use clap::Args;
use dxcopy_edit::{Config, DigestPolicy, EditError, HashPolicy, MatchStyle, StripClass};
use std::ffi::OsString;
use std::path::PathBuf;

/// Strip classes, keep patterns and signing policies (dxcopy and dxstrip).
#[derive(Debug, Clone, Args, Default)]
pub struct StripArgs {
    /// Remove debug parts: ILDB, SRCI, PDBI, SDBG, SPDB (ILDN stays)
    #[arg(short = 'g', long = "strip-debug")]
    pub strip_debug: bool,
    /// Remove debug + reflection + PRIV + ILDN + VERS (RTS0 stays)
    #[arg(short = 'S', long = "strip-all")]
    pub strip_all: bool,
    /// Remove reflection parts: STAT, RDEF (RDAT stays)
    #[arg(long = "strip-reflect")]
    pub strip_reflect: bool,
    /// Remove the PRIV part
    #[arg(long = "strip-priv")]
    pub strip_priv: bool,
    /// Remove the root signature (RTS0)
    #[arg(long = "strip-rootsig")]
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
}

fn parse_digest(s: &str) -> Result<DigestPolicy, String> {
    DigestPolicy::parse(s).ok_or_else(|| {
        format!("unknown digest policy '{s}' (auto, retail, debug, zero, keep, bypass, preview)")
    })
}

fn parse_hash(s: &str) -> Result<HashPolicy, String> {
    HashPolicy::parse(s).ok_or_else(|| format!("unknown hash policy '{s}' (auto, keep, update)"))
}

/// Parses `NAME=FILE`.
pub fn name_eq_file(
    option: &'static str,
) -> impl Fn(&str) -> Result<(String, PathBuf), String> + Clone {
    move |s: &str| match s.split_once('=') {
        Some((name, file)) if !name.is_empty() && !file.is_empty() => {
            Ok((name.to_string(), PathBuf::from(file)))
        }
        _ => Err(format!("bad format for {option}, expected NAME=FILE")),
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
        config.strip = self.classes();
        config.remove = self.remove.clone();
        config.keep = self.keep.clone();
        config.digest = self.digest;
        config.hash = self.hash;
        config.preserve_dates = self.preserve_dates;
        config.strip_bitcode_names = self.strip_bitcode_names;
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
];

/// Rejects llvm-objcopy options that do not apply, naming the option and why.
pub fn reject_unsupported(args: &[OsString]) -> Result<(), String> {
    for a in args.iter().skip(1) {
        let Some(a) = a.to_str() else { continue };
        if a == "--" {
            break;
        }
        let key = a.split_once('=').map_or(a, |(k, _)| k);
        if let Some((opt, why)) = UNSUPPORTED.iter().find(|(o, _)| *o == key) {
            return Err(format!(
                "option '{opt}' is not supported for DirectX containers: {why}"
            ));
        }
    }
    Ok(())
}

/// Parses arguments with clap; usage errors exit with status 1 (help and
/// version with 0), and unsupported llvm-objcopy options are named.
pub fn parse_or_exit<T: clap::Parser>(tool: &str) -> T {
    let args: Vec<OsString> = std::env::args_os().collect();
    if let Err(msg) = reject_unsupported(&args) {
        emit(tool, Level::Error, &msg);
        std::process::exit(1);
    }
    match T::try_parse_from(&args) {
        Ok(t) => t,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            std::process::exit(code);
        }
    }
}

/// Severity of a diagnostic line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// `tool: error: …`
    Error,
    /// `tool: warning: …`
    Warning,
    /// `tool: note: …`
    Note,
}

/// Whether diagnostics are coloured: stderr is a terminal and `NO_COLOR` is unset or empty.
pub fn use_color() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

/// Formats `tool: error: message` / `tool: warning: message` / `tool: note: message`,
/// with ANSI colour when asked.
pub fn diagnostic(tool: &str, level: Level, message: &str, color: bool) -> String {
    let (word, code) = match level {
        Level::Error => ("error", "1;31"),
        Level::Warning => ("warning", "1;33"),
        Level::Note => ("note", "1;36"),
    };
    if color {
        format!("{tool}: \x1b[{code}m{word}:\x1b[0m {message}")
    } else {
        format!("{tool}: {word}: {message}")
    }
}

/// Prints a diagnostic line on stderr.
pub fn emit(tool: &str, level: Level, message: &str) {
    eprintln!("{}", diagnostic(tool, level, message, use_color()));
}

/// One-line message for an error about `file`: `'file': message`, without
/// repeating a path the error already names.
pub fn file_message(file: &std::path::Path, err: &EditError) -> String {
    match err {
        EditError::Io { .. } => err.to_string(),
        _ => format!("'{}': {err}", file.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_unsupported_with_reason() {
        let args: Vec<OsString> = ["dxcopy", "--strip-unneeded", "a"]
            .iter()
            .map(Into::into)
            .collect();
        let e = reject_unsupported(&args).unwrap_err();
        assert_eq!(
            e,
            "option '--strip-unneeded' is not supported for DirectX containers: DirectX containers have no symbols"
        );
        let args: Vec<OsString> = ["dxcopy", "--pad-to=4", "a"]
            .iter()
            .map(Into::into)
            .collect();
        assert!(reject_unsupported(&args)
            .unwrap_err()
            .contains("'--pad-to'"));
        let args: Vec<OsString> = ["dxcopy", "-R", "STAT", "--", "-x"]
            .iter()
            .map(Into::into)
            .collect();
        assert!(reject_unsupported(&args).is_ok());
    }

    #[test]
    fn diagnostics_prefix_and_colour() {
        assert_eq!(
            diagnostic("dxcopy", Level::Error, "'a': bad", false),
            "dxcopy: error: 'a': bad"
        );
        assert_eq!(
            diagnostic("dxstrip", Level::Warning, "w", false),
            "dxstrip: warning: w"
        );
        assert_eq!(
            diagnostic("dxcopy", Level::Error, "x", true),
            "dxcopy: \x1b[1;31merror:\x1b[0m x"
        );
    }

    #[test]
    fn name_eq_file_parses() {
        let p = name_eq_file("--dump-section");
        assert_eq!(
            p("DXIL=a=b").unwrap(),
            ("DXIL".to_string(), PathBuf::from("a=b"))
        );
        assert_eq!(
            p("DXIL").unwrap_err(),
            "bad format for --dump-section, expected NAME=FILE"
        );
        assert!(p("=x").is_err());
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
