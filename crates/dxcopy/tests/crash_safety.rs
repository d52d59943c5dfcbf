//! Crash safety of in-place edits.
//!
//! - `kill_during_in_place_edit` (ignored in normal runs; `cargo xtask
//!   kill-test` runs it on the release binaries): SIGKILLs dxcopy and dxstrip
//!   at random moments while they edit a 64 MiB container in place, 50 trials
//!   each. Afterwards the file must be byte-identical to its old or its new
//!   version, never anything else.
//! - `truncation_during_runs_is_an_error` (ignored; `cargo xtask kill-test`
//!   runs it on the release binaries): another process truncates the 64 MiB
//!   input at random moments while dxcopy (to a new file and in place),
//!   dxstrip and dxinfo (`--verify`, `--json`) read it, 20 trials each. The
//!   tool must exit 0 or 1 with a message (never die of SIGBUS), leave no
//!   temp file, and an output it wrote must be a whole container.
//!   `truncation_during_a_run_quick` does the same on 4 MiB, 3 trials each,
//!   in plain `cargo test`.
//! - After a normal run, successful or not, no temp file is left.
//! - A symlinked input: the target is edited and the link stays a link.

use dxcopy_edit::{ContainerBuilder, DigestPolicy};
use dxcopy_read::{Container, PartName};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{bin, temp_files};

/// A signed container with DXIL, ILDB, STAT and PRIV whose bitcode parts
/// make it `size` bytes or a little more.
fn container(size: usize) -> Vec<u8> {
    let fill = |len: usize, seed: u8| {
        let mut v = b"BC\xc0\xde".to_vec();
        v.extend((0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)));
        v
    };
    ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .hash_of_dxil()
        .pixel_program(b"DXIL", &fill(size / 4, 1))
        .pixel_program(b"ILDB", &fill(size * 3 / 4, 2))
        .part(b"STAT", &[7; 64])
        .part(b"PRIV", b"build info")
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap()
}

fn run(tool: &str, args: &[&str], dir: &Path) -> std::process::Output {
    common::run_in(tool, args, dir)
}

#[test]
fn no_temp_file_after_normal_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container(4096)).unwrap();
    std::fs::write(d.join("bad.dxil"), b"DXBC not really").unwrap();
    let runs: &[(&str, &[&str], bool)] = &[
        ("dxcopy", &["--strip-debug", "a.dxil"], true),
        ("dxcopy", &["-R", "STAT", "a.dxil", "b.dxil"], true),
        ("dxcopy", &["--dump-section=DXIL=a.bc", "a.dxil"], true),
        ("dxstrip", &["--strip-all", "b.dxil"], true),
        ("dxcopy", &["--strip-debug", "bad.dxil"], false),
        (
            "dxcopy",
            &["--add-section=SFI0=a.bc", "a.dxil", "c.dxil"],
            false,
        ),
        ("dxstrip", &["bad.dxil", "a.dxil"], false),
    ];
    for (tool, args, ok) in runs {
        let out = run(tool, args, d);
        assert_eq!(out.status.success(), *ok, "{tool} {args:?}: {out:?}");
        assert_eq!(temp_files(d), Vec::<String>::new(), "{tool} {args:?}");
    }
    assert!(!d.join("c.dxil").exists());
}

#[cfg(unix)]
#[test]
fn symlinked_input_edits_the_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("real")).unwrap();
    let target = d.join("real/shader.dxil");
    std::fs::write(&target, container(1024)).unwrap();
    std::os::unix::fs::symlink("real/shader.dxil", d.join("link.dxil")).unwrap();
    for (tool, args) in [
        ("dxcopy", &["-R", "STAT", "link.dxil"][..]),
        ("dxstrip", &["link.dxil"][..]),
    ] {
        let out = run(tool, args, d);
        assert!(out.status.success(), "{tool}: {out:?}");
        let meta = std::fs::symlink_metadata(d.join("link.dxil")).unwrap();
        assert!(meta.file_type().is_symlink(), "{tool} replaced the link");
        assert_eq!(temp_files(d), Vec::<String>::new());
        assert_eq!(temp_files(&d.join("real")), Vec::<String>::new());
    }
    let edited = std::fs::read(&target).unwrap();
    let c = Container::parse(&edited).unwrap();
    assert!(c.find(PartName::STAT).is_none());
    assert!(c.find(PartName::ILDB).is_none());
}

/// SplitMix64 for the kill delays (seed from `DXCOPY_KILL_SEED`, default fixed).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[test]
#[ignore = "64 MiB files, 100 trials: run with `cargo xtask kill-test`"]
fn kill_during_in_place_edit() {
    let trials: usize = std::env::var("DXCOPY_KILL_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let seed = std::env::var("DXCOPY_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6b11);
    let mut rng = Rng(seed);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let old = container(64 << 20);
    let file = d.join("big.dxil");
    let cases: [(&str, &[&str]); 2] = [
        ("dxcopy", &["--strip-debug", "big.dxil"]),
        ("dxstrip", &["big.dxil"]),
    ];
    println!(
        "kill test: {} MiB container, {trials} trials per tool, seed {seed:#x}",
        old.len() >> 20
    );
    let mut failures = Vec::new();
    for (tool, args) in cases {
        // The new version, and how long a normal run takes.
        std::fs::write(&file, &old).unwrap();
        let started = Instant::now();
        let out = run(tool, args, d);
        let normal = started.elapsed();
        assert!(out.status.success(), "{tool}: {out:?}");
        let new = std::fs::read(&file).unwrap();
        assert_ne!(new, old);
        assert_eq!(temp_files(d), Vec::<String>::new(), "normal {tool} run");
        let (mut as_old, mut as_new, mut other, mut mid_run, mut leftovers) = (0, 0, 0, 0, 0);
        for trial in 0..trials {
            std::fs::write(&file, &old).unwrap();
            // Delays spread over 0..1.2× a normal run: most kills land mid-run.
            let window = normal.as_micros() as u64 * 6 / 5 + 1;
            let delay = Duration::from_micros(rng.next() % window);
            let mut child = Command::new(bin(tool))
                .args(args)
                .current_dir(d)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(delay);
            if child.try_wait().unwrap().is_none() {
                mid_run += 1;
            }
            child.kill().ok(); // SIGKILL
            child.wait().unwrap();
            let now = std::fs::read(&file).unwrap();
            if now == old {
                as_old += 1;
            } else if now == new {
                as_new += 1;
            } else {
                other += 1;
                failures.push(format!(
                    "{tool} trial {trial} (killed after {delay:?}): file is neither old nor new ({} bytes)",
                    now.len()
                ));
            }
            // A killed process cannot remove its temp file; count and clear them.
            for t in temp_files(d) {
                leftovers += 1;
                std::fs::remove_file(d.join(t)).unwrap();
            }
        }
        println!(
            "{tool}: normal run {normal:.2?}; {trials} trials: {mid_run} killed mid-run; file afterwards old {as_old}, new {as_new}, other {other}; temp files left by killed runs: {leftovers}"
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Truncates the input of each tool at random moments of its run; see the
/// module docs. Returns a summary line per tool.
fn truncation_trials(size: usize, trials: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let old = container(size);
    let file = d.join("v.dxil");
    let cases: [(&str, &[&str], Option<&str>); 5] = [
        (
            "dxcopy",
            &["-R", "STAT", "v.dxil", "out.dxil"],
            Some("out.dxil"),
        ),
        ("dxcopy", &["-R", "STAT", "v.dxil"], None),
        ("dxstrip", &["v.dxil"], None),
        ("dxinfo", &["--verify", "v.dxil"], None),
        ("dxinfo", &["--json", "v.dxil"], None),
    ];
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for (tool, args, output) in cases {
        std::fs::write(&file, &old).unwrap();
        let started = Instant::now();
        let out = run(tool, args, d);
        let normal = started.elapsed();
        // dxinfo --verify exits 1 on its findings (the test STAT's size).
        let normal_code = out.status.code();
        assert!(
            matches!(normal_code, Some(0 | 1)),
            "{tool} {args:?}: {out:?}"
        );
        let (mut changed, mut other_errors, mut ok) = (0, 0, 0);
        for trial in 0..trials {
            std::fs::write(&file, &old).unwrap();
            if let Some(o) = output {
                let _ = std::fs::remove_file(d.join(o));
            }
            let window = normal.as_micros() as u64 + 1;
            let delay = Duration::from_micros(rng.next() % window);
            let child = Command::new(bin(tool))
                .args(args)
                .current_dir(d)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            std::thread::sleep(delay);
            // Another process shrinks the file (in place, not a rename).
            std::fs::OpenOptions::new()
                .write(true)
                .open(&file)
                .unwrap()
                .set_len(4096)
                .unwrap();
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let what = format!("{tool} {args:?} trial {trial} (truncated after {delay:?})");
            match out.status.code() {
                Some(1) if stderr.contains("while it was read") => changed += 1,
                code if code == normal_code => ok += 1,
                Some(1) if !stderr.is_empty() && !stderr.contains("panicked") => other_errors += 1,
                _ => failures.push(format!("{what}: {:?}, stderr {stderr}", out.status)),
            }
            let left = temp_files(d);
            if !left.is_empty() {
                failures.push(format!("{what}: temp files left: {left:?}"));
                for t in left {
                    std::fs::remove_file(d.join(t)).unwrap();
                }
            }
            // A written output is a whole container, never a torn one.
            if let Some(o) = output.filter(|o| d.join(o).exists()) {
                let bytes = std::fs::read(d.join(o)).unwrap();
                if let Err(e) = Container::parse(&bytes) {
                    failures.push(format!("{what}: output does not parse: {e}"));
                }
            }
        }
        summary.push(format!(
            "{tool} {args:?}: normal run {normal:.2?}; {trials} trials: input changed reported {changed}, other errors {other_errors}, finished before the truncation {ok}"
        ));
    }
    assert!(failures.is_empty(), "{failures:#?}");
    summary
}

#[test]
fn truncation_during_a_run_quick() {
    for line in truncation_trials(4 << 20, 3, 0x7a11) {
        println!("{line}");
    }
}

#[test]
#[ignore = "64 MiB files, 100 trials: run with `cargo xtask kill-test`"]
fn truncation_during_runs_is_an_error() {
    let trials = std::env::var("DXCOPY_TRUNCATE_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let seed = std::env::var("DXCOPY_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x7a11);
    println!("truncation test: 64 MiB container, {trials} trials per tool, seed {seed:#x}");
    for line in truncation_trials(64 << 20, trials, seed) {
        println!("{line}");
    }
}
