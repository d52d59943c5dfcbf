//! `dxinfo --disasm` of DXIL runs llvm-dis; one that fails or hangs is
//! reported with its exit status and stderr, or stopped at the time limit.
//! The tool is a fake: a shell script in a temp dir, named by
//! `$LLVM_DIS`.
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn disasm(tool: &Path, timeout: Option<&str>) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(common::bin("dxinfo"));
    cmd.args(["--disasm", "--disasm-with=llvm-dis", SAMPLE])
        .env("LLVM_DIS", tool)
        .env_remove("LLVM_DIS_TIMEOUT")
        .stdin(Stdio::null());
    if let Some(seconds) = timeout {
        cmd.env("LLVM_DIS_TIMEOUT", seconds);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_failing_llvm_dis_is_reported_with_its_status_and_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let tool = script(
        dir.path(),
        "llvm-dis",
        "cat > /dev/null; echo 'llvm-dis: error: Unknown attribute kind (86)' >&2; exit 3",
    );
    let (code, out, err) = disasm(&tool, None);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert_eq!(
        err,
        format!(
            "dxinfo: error: '{SAMPLE}': {}: failed (exit status: 3): llvm-dis: error: Unknown attribute kind (86)\n",
            tool.display()
        )
    );
}

#[test]
fn a_hanging_llvm_dis_is_stopped_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let tool = script(dir.path(), "llvm-dis", "exec sleep 20");
    let start = Instant::now();
    let (code, out, err) = disasm(&tool, Some("0.5"));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert_eq!(
        err,
        format!(
            "dxinfo: error: '{SAMPLE}': {}: did not finish within 0.5 s and was stopped (set LLVM_DIS_TIMEOUT=SECONDS to allow longer, 0 for no limit)\n",
            tool.display()
        )
    );
    let (code, _, err) = disasm(&tool, Some("soon"));
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        "dxinfo: error: LLVM_DIS_TIMEOUT: 'soon' is not a number of seconds (0 for no limit)\n"
    );
}
