//! Shared by the integration tests: the tools under test and summaries of
//! failures. The corpus and its MANIFEST.tsv rows come from
//! `dxcopy_harness::corpus`, the LLVM 22 tools from `dxcopy_harness::llvm`.
//!
//! Every test that needs one of them says clearly that it skipped when it is
//! missing, and passes.

// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The path of this package's binary `name` (`dxcopy`, `dxstrip`, `dxinfo`
/// or `dxasm`).
pub fn bin(name: &str) -> PathBuf {
    match name {
        "dxcopy" => PathBuf::from(env!("CARGO_BIN_EXE_dxcopy")),
        "dxstrip" => PathBuf::from(env!("CARGO_BIN_EXE_dxstrip")),
        "dxinfo" => PathBuf::from(env!("CARGO_BIN_EXE_dxinfo")),
        "dxasm" => PathBuf::from(env!("CARGO_BIN_EXE_dxasm")),
        other => panic!("no binary {other}"),
    }
}

#[allow(unused_imports)]
pub use dxcopy_harness::llvm::{llvm_tool_or_skip, run_tool};

/// A signed container with SFI0, HASH, DXIL, ILDB and STAT.
pub fn container() -> Vec<u8> {
    dxcopy_edit::ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .hash_of_dxil()
        .pixel_program(b"DXIL", b"BC\xc0\xde\x01\x02")
        .pixel_program(b"ILDB", b"BC\xc0\xde\x03\x04")
        .part(b"STAT", b"stat")
        .digest(dxcopy_edit::DigestPolicy::Retail)
        .build()
        .unwrap()
}

/// Runs this package's binary `tool` with `args` in `dir` (stdin empty).
pub fn run_in(tool: &str, args: &[&str], dir: &Path) -> std::process::Output {
    std::process::Command::new(bin(tool))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// The names of the temp files (`*.tmp`) left in `dir`.
pub fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// `count name` pairs joined for a summary line, e.g. `1886 retail, 6 debug`.
pub fn tally<K: std::fmt::Display>(counts: &std::collections::BTreeMap<K, usize>) -> String {
    counts
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fails the test with the first `limit` messages if there are any.
pub fn assert_no_failures(what: &str, failures: &[String]) {
    const LIMIT: usize = 40;
    if failures.is_empty() {
        return;
    }
    let shown: Vec<&str> = failures.iter().take(LIMIT).map(String::as_str).collect();
    panic!(
        "{what}: {} failures{}:\n  {}",
        failures.len(),
        if failures.len() > LIMIT {
            format!(" (first {LIMIT})")
        } else {
            String::new()
        },
        shown.join("\n  ")
    );
}
