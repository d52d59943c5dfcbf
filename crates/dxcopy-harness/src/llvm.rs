//! The LLVM 22 tools the tests compare against (`llvm-objcopy`, `llvm-as`,
//! `llvm-dis`, `opt`, …): where they are, and running one that must succeed.
//! A test that needs a tool carries `#[cfg_attr(not(dxcopy_llvm), ignore =
//! "…")]` and shows as ignored without LLVM 22; run anyway, it prints that it
//! skipped, or fails under CI (see [`crate::corpus::skip`]).

use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Environment variable naming the folder of the LLVM tools.
pub const LLVM_BIN_ENV: &str = "DXCOPY_LLVM_BIN";
/// Where Debian's LLVM 22 packages install the tools (and where CI installs them).
pub const LLVM_BIN_DEFAULT: &str = "/usr/lib/llvm-22/bin";

/// The folder of the LLVM tools: `$DXCOPY_LLVM_BIN`, else [`LLVM_BIN_DEFAULT`].
pub fn llvm_bin() -> PathBuf {
    std::env::var_os(LLVM_BIN_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(LLVM_BIN_DEFAULT))
}

/// The LLVM tool `name` (e.g. `llvm-objcopy`), or `None` after printing why
/// the test `test` is skipped.
pub fn llvm_tool_or_skip(test: &str, name: &str) -> Option<PathBuf> {
    let tool = llvm_bin().join(name);
    if tool.is_file() {
        Some(tool)
    } else {
        crate::corpus::skip(
            test,
            &format!(
                "{} not found (install LLVM 22 or set {LLVM_BIN_ENV})",
                tool.display()
            ),
        );
        None
    }
}

/// Runs `tool args` and returns its output; panics (failing the test) with
/// `what`, the command and its stderr when it cannot start or fails.
pub fn run_tool<A: AsRef<OsStr> + Debug>(tool: &Path, args: &[A], what: &str) -> Output {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {}: {e}", tool.display()));
    assert!(
        out.status.success(),
        "{what}: {} {args:?} failed ({}): {}",
        tool.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_tool_returns_output_and_fails_on_error() {
        let out = run_tool(Path::new("/bin/sh"), &["-c", "printf ok"], "sh");
        assert_eq!(out.stdout, b"ok");
        let failed = std::panic::catch_unwind(|| {
            run_tool(Path::new("/bin/sh"), &["-c", "echo bad >&2; exit 3"], "sh")
        });
        let message = failed.unwrap_err();
        let message = message.downcast_ref::<String>().unwrap();
        assert!(message.starts_with("sh: /bin/sh"), "{message}");
        assert!(message.ends_with("bad\n"), "{message}");
        // A missing tool skips the test, or fails it under CI.
        let missing = std::panic::catch_unwind(|| llvm_tool_or_skip("t", "no-such-llvm-tool"));
        if crate::corpus::under_ci() {
            assert!(missing.is_err());
        } else {
            assert!(missing.unwrap().is_none());
        }
    }
}
