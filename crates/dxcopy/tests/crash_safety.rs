//! Crash safety of in-place edits.
//!
//! - `kill_during_in_place_edit` (ignored in normal runs; `cargo xtask
//!   kill-test` runs it on the release binaries): SIGKILLs dxcopy and dxstrip
//!   at random moments while they edit a 64 MiB container in place, 50 trials
//!   each. Afterwards the file must be byte-identical to its old or its new
//!   version, never anything else.
//! - After a normal run, successful or not, no temp file is left.
//! - A symlinked input: the target is edited and the link stays a link.

use dxcopy_edit::{ContainerBuilder, DigestPolicy};
use dxcopy_read::program::ShaderKind;
use dxcopy_read::{Container, PartName};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin(name: &str) -> PathBuf {
    match name {
        "dxcopy" => PathBuf::from(env!("CARGO_BIN_EXE_dxcopy")),
        "dxstrip" => PathBuf::from(env!("CARGO_BIN_EXE_dxstrip")),
        other => panic!("no binary {other}"),
    }
}

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

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
        .program(
            b"DXIL",
            ShaderKind::Pixel,
            (6, 0),
            (1, 0),
            &fill(size / 4, 1),
        )
        .program(
            b"ILDB",
            ShaderKind::Pixel,
            (6, 0),
            (1, 0),
            &fill(size * 3 / 4, 2),
        )
        .part(b"STAT", &[7; 64])
        .part(b"PRIV", b"build info")
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap()
}

fn run(tool: &str, args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(bin(tool))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
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
