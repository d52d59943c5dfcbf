//! Shared by the integration tests: the tools under test, where the LLVM 22
//! tools are, and summaries of failures. The corpus and its MANIFEST.tsv rows come from
//! `dxcopy_harness::corpus`.
//!
//! Every test that needs one of them says clearly that it skipped when it is
//! missing, and passes.

// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use std::path::PathBuf;

/// The path of this package's binary `name` (`dxcopy`, `dxstrip` or `dxinfo`).
pub fn bin(name: &str) -> PathBuf {
    match name {
        "dxcopy" => PathBuf::from(env!("CARGO_BIN_EXE_dxcopy")),
        "dxstrip" => PathBuf::from(env!("CARGO_BIN_EXE_dxstrip")),
        "dxinfo" => PathBuf::from(env!("CARGO_BIN_EXE_dxinfo")),
        other => panic!("no binary {other}"),
    }
}

/// Environment variable naming the folder of the LLVM tools.
pub const LLVM_BIN_ENV: &str = "DXCOPY_LLVM_BIN";
/// Where Debian's LLVM 22 packages install the tools (and where CI installs them).
pub const LLVM_BIN_DEFAULT: &str = "/usr/lib/llvm-22/bin";

/// The LLVM tool `name` (e.g. `llvm-objcopy`), or `None` after printing why
/// the test `test` is skipped.
pub fn llvm_tool_or_skip(test: &str, name: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(LLVM_BIN_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(LLVM_BIN_DEFAULT));
    let tool = dir.join(name);
    if tool.is_file() {
        Some(tool)
    } else {
        println!(
            "{test}: skipped: {} not found (install LLVM 22 or set {LLVM_BIN_ENV})",
            tool.display()
        );
        None
    }
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
