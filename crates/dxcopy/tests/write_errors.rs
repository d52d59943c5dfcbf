//! Write errors on stdout and stderr: a full device exits
//! 1 with a message when one can still be written, a closed pipe ends the
//! run quietly, and nothing panics (exit 101).
#![cfg(target_os = "linux")]

mod common;

use std::fs::File;
use std::process::{Command, Output, Stdio};

const TOOLS: [&str; 3] = ["dxcopy", "dxstrip", "dxinfo"];
const HELP_AND_VERSION: [&str; 4] = ["--help", "-h", "--version", "-V"];

fn full() -> Stdio {
    Stdio::from(File::create("/dev/full").expect("/dev/full opens for writing"))
}

/// The write end of a pipe whose read end is already closed: every write
/// fails with EPIPE.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Stdio::from(writer)
}

fn run(tool: &str, args: &[&str], stdout: Stdio, stderr: Stdio) -> Output {
    let tmp = tempfile::tempdir().unwrap();
    Command::new(common::bin(tool))
        .args(args)
        .current_dir(tmp.path())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_and_version_on_a_full_stdout_exit_1_and_say_so() {
    for tool in TOOLS {
        for arg in HELP_AND_VERSION {
            let out = run(tool, &[arg], full(), Stdio::piped());
            let err = text(&out.stderr);
            assert_eq!(
                (out.status.code(), err.as_str()),
                (
                    Some(1),
                    format!(
                        "{tool}: error: writing output: No space left on device (os error 28)\n"
                    )
                    .as_str()
                ),
                "{tool} {arg}"
            );
        }
    }
}

#[test]
fn help_and_version_on_a_closed_pipe_exit_0_quietly() {
    for tool in TOOLS {
        for arg in HELP_AND_VERSION {
            let out = run(tool, &[arg], closed_pipe(), Stdio::piped());
            assert_eq!(
                (out.status.code(), text(&out.stderr).as_str()),
                (Some(0), ""),
                "{tool} {arg}"
            );
        }
    }
}

#[test]
fn errors_on_a_full_or_closed_stderr_exit_1() {
    let cases: [(&str, &[&str]); 6] = [
        ("dxcopy", &["missing.dxil"]),
        ("dxcopy", &["--bogus"]),
        ("dxcopy", &["@missing.rsp"]),
        ("dxstrip", &["missing.dxil"]),
        ("dxinfo", &["--bogus"]),
        ("dxinfo", &["missing.dxil"]),
    ];
    for (tool, args) in cases {
        let out = run(tool, args, Stdio::piped(), full());
        assert_eq!(
            (out.status.code(), text(&out.stdout).as_str()),
            (Some(1), ""),
            "{tool} {args:?} 2>/dev/full"
        );
        let out = run(tool, args, Stdio::piped(), closed_pipe());
        assert_eq!(
            (out.status.code(), text(&out.stdout).as_str()),
            (Some(1), ""),
            "{tool} {args:?} 2>closed pipe"
        );
    }
    // The same usage error with a working stderr: the message, no panic.
    let out = run("dxinfo", &["--bogus"], Stdio::piped(), Stdio::piped());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.starts_with("error: unexpected argument '--bogus'"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// A warning that cannot be written is not lost silently: the edit is made
/// and the status says something went wrong. On a closed pipe it is the
/// reader's choice, and the run succeeds.
#[test]
fn a_warning_lost_to_a_full_stderr_makes_the_status_1() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
    for (stderr, want) in [(full(), 1), (closed_pipe(), 0)] {
        let tmp = tempfile::tempdir().unwrap();
        let output = tmp.path().join("out.dxil");
        let out = Command::new(common::bin("dxcopy"))
            .args(["-R", "NOPE", sample, output.to_str().unwrap()])
            .stdin(Stdio::null())
            .stderr(stderr)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(want));
        assert_eq!(
            std::fs::read(&output).unwrap(),
            std::fs::read(sample).unwrap()
        );
    }
    // dxstrip's summary line.
    let tmp = tempfile::tempdir().unwrap();
    for name in ["a.dxil", "b.dxil"] {
        std::fs::copy(sample, tmp.path().join(name)).unwrap();
    }
    let out = Command::new(common::bin("dxstrip"))
        .args(["a.dxil", "b.dxil"])
        .current_dir(tmp.path())
        .stdin(Stdio::null())
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// dxinfo's listing on a full stdout and on a closed pipe, as before.
#[test]
fn dxinfo_output_on_a_full_stdout_or_a_closed_pipe() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
    let out = run("dxinfo", &[sample], full(), Stdio::piped());
    assert_eq!(
        (out.status.code(), text(&out.stderr).as_str()),
        (
            Some(1),
            "dxinfo: error: writing output: No space left on device (os error 28)\n"
        )
    );
    let out = run("dxinfo", &[sample], closed_pipe(), Stdio::piped());
    assert_eq!(
        (out.status.code(), text(&out.stderr).as_str()),
        (Some(0), "")
    );
}
