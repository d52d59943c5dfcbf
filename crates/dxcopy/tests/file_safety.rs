//! File safety with odd paths and files: endless and special inputs, device
//! and FIFO outputs, in-place edits of non-regular files, self-overwrites,
//! modes, owners and times, read-only runs, signals, full outputs.
//!
//! Device nodes are made with `mknod` inside a temp dir only (never the
//! system's /dev), so those parts need root and say when they skip.

#![cfg(unix)]

use dxcopy_read::{Container, PartName};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

mod common;
use common::container;
use common::{bin, temp_files};

fn run(tool: &str, args: &[&str], dir: &Path) -> std::process::Output {
    common::run_in(tool, args, dir)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Makes a character device `major,minor` named `name` in `dir` (root only).
fn mknod(dir: &Path, name: &str, major: u32, minor: u32) -> PathBuf {
    let path = dir.join(name);
    let ok = Command::new("mknod")
        .arg(&path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "mknod {name}");
    path
}

fn mkfifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    assert!(Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap()
        .success());
    path
}

/// Runs `tool` with an endless stream of zeros on stdin; returns its output
/// and how long it took.
fn run_on_endless_stdin(tool: &str, args: &[&str], dir: &Path) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = Command::new(bin(tool))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let zeros = vec![0u8; 1 << 16];
        // Until the tool stops reading (EPIPE) or exits.
        while stdin.write_all(&zeros).is_ok() {}
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (out, started.elapsed())
}

#[test]
fn endless_and_device_inputs_are_read_only_as_far_as_the_header_allows() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container()).unwrap();
    let bad_magic = "not a DirectX container: expected magic 'DXBC' at offset 0x0, found '\\x00\\x00\\x00\\x00'";
    // Standard input: the 32-byte header, then a clear error.
    let rows: &[(&str, &[&str], &str)] = &[
        ("dxinfo", &["-"], bad_magic),
        ("dxcopy", &["-R", "STAT", "-", "o.dxil"], bad_magic),
        (
            "dxcopy",
            &["--add-debug-from=-", "a.dxil", "o.dxil"],
            "dxcopy: error: '-' (--add-debug-from): not a DirectX container",
        ),
        (
            "dxcopy",
            &["--add-section=PRIV=-", "a.dxil", "o.dxil"],
            "dxcopy: error: '-' (--add-section): the data file is larger than the cap of 67108864 bytes read from a non-regular file (standard input, a pipe, a device); larger data must come from a regular file",
        ),
        (
            "dxcopy",
            &["--set-private=-", "a.dxil", "o.dxil"],
            "'-' (--set-private): the data file is larger than the cap of 67108864 bytes read from a non-regular file",
        ),
        (
            "dxcopy",
            &["--update-section=STAT=-", "a.dxil", "o.dxil"],
            "'-' (--update-section): the data file is larger than the cap of 67108864 bytes read from a non-regular file",
        ),
        (
            "dxinfo",
            &["--verify", "--root-signature=-", "a.dxil"],
            "dxinfo: error: '-' (--root-signature): the data file is larger than the cap of 67108864 bytes read from a non-regular file",
        ),
        (
            "dxstrip",
            &["--files-from=-"],
            "dxstrip: error: '-': line 1 holds a NUL byte: not a list of paths",
        ),
    ];
    for (tool, args, want) in rows {
        let (out, took) = run_on_endless_stdin(tool, args, d);
        assert_eq!(out.status.code(), Some(1), "{tool} {args:?}: {out:?}");
        assert!(
            stderr(&out).contains(want),
            "{tool} {args:?}: {}",
            stderr(&out)
        );
        assert!(
            took < Duration::from_secs(30),
            "{tool} {args:?} took {took:?}"
        );
        assert!(!d.join("o.dxil").exists());
        assert_eq!(temp_files(d), Vec::<String>::new());
    }
    // A FIFO fed endlessly, as an input.
    let fifo = mkfifo(d, "endless");
    let feeder = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let zeros = vec![0u8; 1 << 16];
            while f.write_all(&zeros).is_ok() {}
        })
    };
    let out = run("dxinfo", &["endless"], d);
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(bad_magic), "{}", stderr(&out));

    if !is_root() {
        eprintln!("skipping the device-node inputs: mknod needs root");
        return;
    }
    let zero = mknod(d, "zero", 1, 5);
    assert!(std::fs::metadata(&zero)
        .unwrap()
        .file_type()
        .is_char_device());
    let rows: &[(&str, &[&str], &str)] = &[
        (
            "dxinfo",
            &["zero"],
            "dxinfo: error: 'zero': not a DirectX container",
        ),
        (
            "dxinfo",
            &["--json", "zero"],
            "'zero': not a DirectX container",
        ),
        (
            "dxcopy",
            &["-R", "STAT", "zero", "o.dxil"],
            "'zero': not a DirectX container",
        ),
        (
            "dxcopy",
            &["--add-section=PRIV=zero", "a.dxil", "o.dxil"],
            "dxcopy: error: 'zero' (--add-section): the data file is larger than the cap of 67108864 bytes read from a non-regular file (standard input, a pipe, a device); larger data must come from a regular file",
        ),
        (
            "dxcopy",
            &["--set-private=zero", "a.dxil", "o.dxil"],
            "'zero' (--set-private)",
        ),
        (
            "dxcopy",
            &["--update-section=STAT=zero", "a.dxil", "o.dxil"],
            "'zero' (--update-section)",
        ),
        (
            "dxcopy",
            &["--add-debug-from=zero", "a.dxil", "o.dxil"],
            "'zero' (--add-debug-from): not a DirectX container",
        ),
        (
            "dxinfo",
            &["--verify", "--root-signature=zero", "a.dxil"],
            "dxinfo: error: 'zero' (--root-signature): the data file is larger than the cap of 67108864 bytes read from a non-regular file",
        ),
        (
            "dxstrip",
            &["--files-from=zero"],
            "dxstrip: error: 'zero': line 1 holds a NUL byte: not a list of paths",
        ),
    ];
    for (tool, args, want) in rows {
        let started = Instant::now();
        let out = run(tool, args, d);
        assert_eq!(out.status.code(), Some(1), "{tool} {args:?}: {out:?}");
        assert!(
            stderr(&out).contains(want),
            "{tool} {args:?}: {}",
            stderr(&out)
        );
        assert!(started.elapsed() < Duration::from_secs(30));
        assert!(!d.join("o.dxil").exists());
    }
    // dxinfo - < zero
    let out = Command::new(bin("dxinfo"))
        .arg("-")
        .stdin(std::fs::File::open(&zero).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(bad_magic), "{}", stderr(&out));
    assert!(std::fs::metadata(&zero)
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn device_and_fifo_outputs_are_written_into_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = container();
    std::fs::write(d.join("a.dxil"), &input).unwrap();
    // What a regular output holds, to compare with what the FIFO carries.
    assert!(run("dxcopy", &["-R", "STAT", "a.dxil", "want.dxil"], d)
        .status
        .success());
    let want = std::fs::read(d.join("want.dxil")).unwrap();
    let fifo = mkfifo(d, "pipe");
    let rows: &[(&str, &[&str], Vec<u8>)] = &[
        ("dxcopy", &["-R", "STAT", "a.dxil", "pipe"], want.clone()),
        (
            "dxcopy",
            &["--dump-section=STAT=pipe", "a.dxil"],
            b"stat".to_vec(),
        ),
        (
            "dxstrip",
            &["-R", "STAT", "-o", "pipe", "a.dxil"],
            want.clone(),
        ),
    ];
    for (tool, args, expected) in rows {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                std::fs::File::open(fifo)
                    .unwrap()
                    .read_to_end(&mut got)
                    .unwrap();
                got
            })
        };
        let out = run(tool, args, d);
        assert!(out.status.success(), "{tool} {args:?}: {out:?}");
        assert_eq!(&reader.join().unwrap(), expected, "{tool} {args:?}");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(temp_files(d), Vec::<String>::new());
    }
    assert_eq!(std::fs::read(d.join("a.dxil")).unwrap(), input);

    if !is_root() {
        eprintln!("skipping the device-node outputs: mknod needs root");
        return;
    }
    let null = mknod(d, "mynull", 1, 3);
    let rdev = std::fs::metadata(&null).unwrap().rdev();
    let rows: &[(&str, &[&str])] = &[
        ("dxcopy", &["a.dxil", "mynull"]),
        ("dxcopy", &["--dump-section=DXIL=mynull", "a.dxil"]),
        ("dxcopy", &["--split-debug=mynull", "a.dxil", "out.dxil"]),
        ("dxstrip", &["-o", "mynull", "a.dxil"]),
    ];
    for (tool, args) in rows {
        let out = run(tool, args, d);
        assert!(out.status.success(), "{tool} {args:?}: {out:?}");
        let meta = std::fs::metadata(&null).unwrap();
        assert!(
            meta.file_type().is_char_device(),
            "{tool} {args:?} replaced the device"
        );
        assert_eq!(meta.rdev(), rdev);
        assert_eq!(temp_files(d), Vec::<String>::new());
    }
    // The split wrote its PDB into the device and the container to out.dxil.
    let out = std::fs::read(d.join("out.dxil")).unwrap();
    assert!(Container::parse(&out)
        .unwrap()
        .find(PartName::ILDB)
        .is_none());
}

#[test]
fn in_place_edits_need_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    mkfifo(d, "fifo");
    std::os::unix::fs::symlink("fifo", d.join("link")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    let rows: &[(&str, &[&str], &str)] = &[
        (
            "dxcopy",
            &["-R", "STAT", "fifo"],
            "dxcopy: error: 'fifo' is a FIFO, not a regular file: it cannot be edited in place (give an output file)\n",
        ),
        (
            "dxstrip",
            &["fifo"],
            "dxstrip: error: 'fifo' is a FIFO, not a regular file: it cannot be edited in place (give an output file)\n",
        ),
        (
            "dxcopy",
            &["-R", "STAT", "link"],
            "dxcopy: error: 'link' is a FIFO, not a regular file: it cannot be edited in place (give an output file)\n",
        ),
        (
            "dxstrip",
            &["sub"],
            "dxstrip: error: 'sub' is a directory: it cannot be edited in place; use dxstrip -r to walk it\n",
        ),
    ];
    for (tool, args, want) in rows {
        // Would hang on opening the FIFO if it were opened.
        let out = run(tool, args, d);
        assert_eq!(out.status.code(), Some(1), "{tool} {args:?}");
        let text = stderr(&out);
        assert_eq!(text.lines().next(), want.lines().next(), "{tool} {args:?}");
        assert!(std::fs::metadata(d.join("fifo"))
            .unwrap()
            .file_type()
            .is_fifo());
        assert!(std::fs::symlink_metadata(d.join("link"))
            .unwrap()
            .file_type()
            .is_symlink());
    }
}

#[test]
fn hard_links_of_the_input_are_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = container();
    std::fs::write(d.join("in.dxil"), &input).unwrap();
    std::fs::hard_link(d.join("in.dxil"), d.join("hard.dxil")).unwrap();
    std::os::unix::fs::symlink("in.dxil", d.join("soft.dxil")).unwrap();
    for dest in ["hard.dxil", "soft.dxil"] {
        let arg = format!("--dump-section=DXIL={dest}");
        let out = run("dxcopy", &[&arg, "in.dxil"], d);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stderr(&out).contains(&format!("'{dest}' is the input file")),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(d.join("in.dxil")).unwrap(), input);
    }
    // An in-place edit writes a new file: the other hard link keeps the old
    // contents (README: "In-place edits").
    assert!(run("dxcopy", &["-R", "STAT", "in.dxil"], d)
        .status
        .success());
    assert_eq!(std::fs::read(d.join("hard.dxil")).unwrap(), input);
    assert_ne!(std::fs::read(d.join("in.dxil")).unwrap(), input);
}

#[test]
fn new_outputs_follow_the_umask_and_edits_keep_mode_owner_and_times() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = container();
    let a = d.join("a.dxil");
    std::fs::write(&a, &input).unwrap();
    std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o4755)).unwrap();
    let sh = |script: &str| {
        let out = Command::new("sh")
            .arg("-c")
            .arg(script)
            .env("DXCOPY", bin("dxcopy"))
            .env("DXSTRIP", bin("dxstrip"))
            .current_dir(d)
            .output()
            .unwrap();
        assert!(out.status.success(), "{script}: {out:?}");
    };
    let mode = |name: &str| std::fs::metadata(d.join(name)).unwrap().mode() & 0o7777;
    // New files: 0666 minus the umask, whatever the input's mode.
    sh("umask 077; \"$DXCOPY\" -R STAT a.dxil new.dxil");
    assert_eq!(mode("new.dxil"), 0o600);
    sh("umask 022; \"$DXCOPY\" --dump-section=DXIL=d.bc --extract-section=STAT=e.dxil a.dxil");
    assert_eq!(mode("d.bc"), 0o644);
    assert_eq!(mode("e.dxil"), 0o644);
    // Edited files: their old mode without setuid/setgid.
    sh("umask 077; \"$DXCOPY\" -R STAT a.dxil");
    assert_eq!(mode("a.dxil"), 0o755);
    std::fs::set_permissions(d.join("new.dxil"), std::fs::Permissions::from_mode(0o2640)).unwrap();
    sh("umask 077; \"$DXSTRIP\" new.dxil");
    assert_eq!(mode("new.dxil"), 0o640);
    // A mode the umask keeps is already right after the create; the sticky
    // bit is not, and must still be set.
    for kept in [0o644, 0o1644, 0o600] {
        std::fs::set_permissions(d.join("new.dxil"), std::fs::Permissions::from_mode(kept))
            .unwrap();
        sh("umask 022; \"$DXCOPY\" --add-section=XTRA=a.dxil new.dxil && \"$DXCOPY\" -R XTRA new.dxil");
        assert_eq!(mode("new.dxil"), kept, "{kept:o}");
    }

    // -p keeps the times the input had before this run read it.
    let old_atime = SystemTime::UNIX_EPOCH + Duration::from_secs(946_684_800); // 2000-01-01
    let old_mtime = SystemTime::UNIX_EPOCH + Duration::from_secs(978_307_200); // 2001-01-01
    let set_times = |p: &Path| {
        let f = std::fs::File::options().write(true).open(p).unwrap();
        f.set_times(
            std::fs::FileTimes::new()
                .set_accessed(old_atime)
                .set_modified(old_mtime),
        )
        .unwrap();
    };
    std::fs::write(&a, &input).unwrap();
    set_times(&a);
    let out = run("dxcopy", &["-p", "-R", "STAT", "a.dxil", "p.dxil"], d);
    assert!(out.status.success(), "{out:?}");
    let m = std::fs::metadata(d.join("p.dxil")).unwrap();
    assert_eq!(m.accessed().unwrap(), old_atime);
    assert_eq!(m.modified().unwrap(), old_mtime);
    set_times(&a);
    assert!(run("dxcopy", &["-p", "-R", "STAT", "a.dxil"], d)
        .status
        .success());
    let m = std::fs::metadata(&a).unwrap();
    assert_eq!(m.accessed().unwrap(), old_atime);
    assert_eq!(m.modified().unwrap(), old_mtime);

    if !is_root() {
        eprintln!("skipping the owner check: chown needs root");
        return;
    }
    std::fs::write(&a, &input).unwrap();
    std::os::unix::fs::chown(&a, Some(65534), Some(65534)).unwrap();
    for (tool, args) in [
        ("dxcopy", &["-R", "STAT", "a.dxil"][..]),
        ("dxstrip", &["a.dxil"][..]),
    ] {
        assert!(run(tool, args, d).status.success());
        let m = std::fs::metadata(&a).unwrap();
        assert_eq!((m.uid(), m.gid()), (65534, 65534), "{tool}");
    }
}

#[test]
fn read_only_runs_never_write_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = d.join("a.dxil");
    std::fs::write(&a, container()).unwrap();
    let before = std::fs::metadata(&a).unwrap();
    for policy in ["--digest=keep", "--hash=keep", "--digest=retail"] {
        let out = run("dxcopy", &["--dump-section=DXIL=x.bc", policy, "a.dxil"], d);
        assert!(out.status.success(), "{policy}: {out:?}");
        let now = std::fs::metadata(&a).unwrap();
        assert_eq!(now.ino(), before.ino(), "{policy} rewrote the input");
        assert_eq!(now.mtime_nsec(), before.mtime_nsec(), "{policy}");
        assert_eq!(
            std::fs::read(d.join("x.bc")).unwrap(),
            b"BC\xc0\xde\x01\x02"
        );
    }
    // Without a dump, --digest is an edit in place.
    let out = run("dxcopy", &["--digest=zero", "a.dxil"], d);
    assert!(out.status.success());
    assert_ne!(std::fs::metadata(&a).unwrap().ino(), before.ino());
}

#[test]
fn directory_outputs_are_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container()).unwrap();
    std::fs::create_dir(d.join("outdir")).unwrap();
    for (args, shown) in [
        (&["a.dxil", "outdir/"][..], "outdir/"),
        (&["a.dxil", "outdir"][..], "outdir"),
        (&["--dump-section=DXIL=outdir/", "a.dxil"][..], "outdir/"),
        (&["a.dxil", "newdir/"][..], "newdir/"),
    ] {
        let out = run("dxcopy", args, d);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&out),
            format!("dxcopy: error: '{shown}': Is a directory (os error 21)\n"),
            "{args:?}"
        );
    }
    assert!(!d.join("newdir").exists());
}

#[test]
fn name_eq_file_options_take_non_utf8_paths() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container()).unwrap();
    let name = OsStr::from_bytes(b"d\xff.bin");
    std::fs::write(d.join(name), b"blob").unwrap();
    let mut add = b"--add-section=FKE1=".to_vec();
    add.extend_from_slice(name.as_bytes());
    let mut dump = b"--dump-section=FKE1=".to_vec();
    dump.extend_from_slice(b"out\xfe.bin");
    let out = Command::new(bin("dxcopy"))
        .args([
            OsStr::from_bytes(&add),
            OsStr::new("a.dxil"),
            OsStr::new("b.dxil"),
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let out = Command::new(bin("dxcopy"))
        .args([OsStr::from_bytes(&dump), OsStr::new("b.dxil")])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        std::fs::read(d.join(OsStr::from_bytes(b"out\xfe.bin"))).unwrap(),
        b"blob"
    );
}

/// A run that stages its dumps and then blocks on a FIFO output nobody
/// reads: interrupted by each signal, it exits 128 + the signal and leaves
/// neither its temp files nor any output.
#[test]
fn signals_remove_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container()).unwrap();
    mkfifo(d, "pipe");
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let mut child = Command::new(bin("dxcopy"))
            .args(["--dump-section=DXIL=d.bc", "-R", "STAT", "a.dxil", "pipe"])
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while temp_files(d).is_empty() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no temp file appeared"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        // The dump is staged; the FIFO blocks the commit.
        std::thread::sleep(Duration::from_millis(50));
        let ok = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}: {status:?}");
        assert_eq!(temp_files(d), Vec::<String>::new(), "SIG{signal}");
        assert!(!d.join("d.bc").exists());
    }
}

#[test]
fn dxinfo_reports_a_full_output() {
    if !is_root() {
        eprintln!("skipping: mknod needs root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container()).unwrap();
    let full = mknod(d, "full", 1, 7);
    for args in [
        &["a.dxil"][..],
        &["--json", "a.dxil"][..],
        &["--parts", "a.dxil"][..],
    ] {
        let out = Command::new(bin("dxinfo"))
            .args(args)
            .current_dir(d)
            .stdout(std::fs::File::options().write(true).open(&full).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&out),
            "dxinfo: error: writing output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn response_files_are_read_with_a_cap() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container()).unwrap();
    // A 17 MiB file of blanks: refused after 16 MiB, nothing written.
    std::fs::write(d.join("big.rsp"), vec![b' '; 17 << 20]).unwrap();
    for tool in ["dxcopy", "dxstrip", "dxinfo"] {
        let out = run(tool, &["@big.rsp", "a.dxil"], d);
        assert_eq!(out.status.code(), Some(1), "{tool}");
        assert_eq!(
            stderr(&out),
            format!("{tool}: error: response file 'big.rsp' is larger than 16777216 bytes\n")
        );
    }
    assert_eq!(std::fs::read(d.join("a.dxil")).unwrap(), container());
}

/// `dxinfo --dump-all=D`: D is the user's; what the dump creates inside it
/// is its own, never a planted link's target.
#[test]
fn dump_all_never_writes_outside_its_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container()).unwrap();
    std::fs::write(d.join("b.dxil"), container()).unwrap();
    std::fs::create_dir(d.join("outside")).unwrap();
    std::fs::create_dir(d.join("D")).unwrap();
    // The subfolder of the second file is a link to a directory outside D.
    std::os::unix::fs::symlink(d.join("outside"), d.join("D/1-b_2edxil")).unwrap();
    let out = run("dxinfo", &["--dump-all=D", "a.dxil", "b.dxil"], d);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "dxinfo: error: 'b.dxil': --dump-all: 'D/1-b_2edxil' is a symbolic link: --dump-all writes only regular files and directories of its own inside its directory; nothing was written\n"
    );
    assert_eq!(std::fs::read_dir(d.join("outside")).unwrap().count(), 0);
    // The first file's parts are in its own subfolder.
    assert_eq!(
        std::fs::read_dir(d.join("D/0-a_2edxil")).unwrap().count(),
        5
    );
    // A part file that is a link to a file outside: refused, the file kept.
    std::fs::write(d.join("outside/keep"), b"keep").unwrap();
    std::fs::create_dir(d.join("E")).unwrap();
    std::os::unix::fs::symlink(d.join("outside/keep"), d.join("E/02-DXIL.bin")).unwrap();
    let out = run("dxinfo", &["--dump-all=E", "a.dxil"], d);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("'E/02-DXIL.bin' is a symbolic link"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(d.join("outside/keep")).unwrap(), b"keep");
    // All or nothing: no other part file was written.
    assert_eq!(std::fs::read_dir(d.join("E")).unwrap().count(), 1);
    assert_eq!(temp_files(&d.join("E")), Vec::<String>::new());
    // The input itself where a part file goes: refused, the input kept.
    std::fs::create_dir(d.join("F")).unwrap();
    std::fs::write(d.join("F/00-SFI0.bin"), container()).unwrap();
    let out = run("dxinfo", &["--dump-all=F", "F/00-SFI0.bin"], d);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(
            "'F/00-SFI0.bin' is the input file: writing --dump-all to it would destroy the input"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(d.join("F/00-SFI0.bin")).unwrap(), container());
    // DIR that is an existing file: named in the error.
    let out = run("dxinfo", &["--dump-all=b.dxil", "a.dxil"], d);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "dxinfo: error: 'a.dxil': --dump-all: 'b.dxil': Not a directory (os error 20)\n"
    );
    assert_eq!(std::fs::read(d.join("b.dxil")).unwrap(), container());
}

/// `dxinfo --dump-all=D` that fails to write (a full disk; here a
/// file-size limit of 0, SIGXFSZ ignored so the write fails with EFBIG)
/// removes the directories it created; a directory that was there stays.
#[test]
fn a_failed_dump_all_leaves_no_directory_it_created() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.dxil"), container()).unwrap();
    std::fs::create_dir(d.join("mine")).unwrap();
    std::fs::write(d.join("mine/notes"), b"keep").unwrap();
    let limited = |args: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!(
                "trap '' XFSZ; ulimit -f 0; exec '{}' {args}",
                bin("dxinfo").display()
            ))
            .current_dir(d)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let rows = [
        (
            "--dump-all=new/parts a.dxil",
            "dxinfo: error: 'a.dxil': --dump-all: 'new/parts/00-SFI0.bin': File too large (os error 27)\n",
        ),
        (
            "--dump-all=new a.dxil a.dxil",
            "dxinfo: error: 'a.dxil': --dump-all: 'new/0-a_2edxil/00-SFI0.bin': File too large (os error 27)\n\
             dxinfo: error: 'a.dxil': --dump-all: 'new/1-a_2edxil/00-SFI0.bin': File too large (os error 27)\n",
        ),
        (
            "--dump-all=mine a.dxil a.dxil",
            "dxinfo: error: 'a.dxil': --dump-all: 'mine/0-a_2edxil/00-SFI0.bin': File too large (os error 27)\n\
             dxinfo: error: 'a.dxil': --dump-all: 'mine/1-a_2edxil/00-SFI0.bin': File too large (os error 27)\n",
        ),
    ];
    for (args, want) in rows {
        let out = limited(args);
        assert_eq!(out.status.code(), Some(1), "{args}");
        assert_eq!(stderr(&out), want, "{args}");
        assert!(!d.join("new").exists(), "{args}");
        let left: Vec<_> = std::fs::read_dir(d.join("mine"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["notes"], "{args}");
    }
    // Without the limit the same dump is written.
    let out = run("dxinfo", &["--dump-all=new/parts", "a.dxil"], d);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(d.join("new/parts")).unwrap().count(), 5);
}

#[test]
fn dxasm_reads_fifos_and_devices_to_a_cap_and_never_patches_them_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("ps.asm"), "ps_5_0\nret\n").unwrap();
    // --into a FIFO in place: refused before it is opened (no writer: an
    // open would wait forever).
    mkfifo(d, "fifo");
    let out = run("dxasm", &["--into", "fifo", "ps.asm"], d);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "dxasm: error: 'fifo' is a FIFO, not a regular file: it cannot be edited in place (give an output file)\n"
    );
    // A listing from standard input that never ends: read to the 64 MiB cap.
    let (out, _) = run_on_endless_stdin("dxasm", &["-", "-o", "out.dxbc"], d);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the data file is larger than the cap of 67108864 bytes"),
        "{}",
        stderr(&out)
    );
    assert!(!d.join("out.dxbc").exists());
    // A listing from a FIFO with a writer: read like any listing.
    let fifo = d.join("fifo");
    let writer = std::thread::spawn(move || std::fs::write(fifo, "ps_5_0\nret\n").unwrap());
    let out = run("dxasm", &["fifo", "-o", "from-fifo.dxbc"], d);
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(Container::parse(&std::fs::read(d.join("from-fifo.dxbc")).unwrap()).is_ok());
    if !is_root() {
        eprintln!("skipping the device-node listing: mknod needs root");
        return;
    }
    // A device that never ends (a zero device made here, never /dev's).
    mknod(d, "zero", 1, 5);
    let out = run("dxasm", &["zero", "-o", "zero.dxbc"], d);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("'zero' (the input): the data file is larger than the cap"));
    assert!(!d.join("zero.dxbc").exists());
    let out = run("dxasm", &["--into", "zero", "ps.asm"], d);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("'zero' is a character device, not a regular file"));
}

#[test]
fn dxasm_never_writes_over_its_listing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let listing = "ps_5_0\nret\n";
    std::fs::write(d.join("ps.asm"), listing).unwrap();
    std::fs::hard_link(d.join("ps.asm"), d.join("hard.asm")).unwrap();
    std::os::unix::fs::symlink("ps.asm", d.join("link.asm")).unwrap();
    let vs = dxcopy_edit::ContainerBuilder::new()
        .part(b"SHEX", &[0x50, 0, 1, 0, 3, 0, 0, 0, 0x3e, 0, 0, 1])
        .build()
        .unwrap();
    std::fs::write(d.join("vs.dxbc"), vs).unwrap();
    for args in [
        &["ps.asm", "-o", "ps.asm"][..],
        &["ps.asm", "-o", "./ps.asm"],
        &["ps.asm", "-o", "hard.asm"],
        &["ps.asm", "-o", "link.asm"],
        &["--into", "vs.dxbc", "--force", "ps.asm", "-o", "ps.asm"],
        &["--into", "link.asm", "ps.asm"],
    ] {
        let out = run("dxasm", args, d);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out)
                .contains("is the listing: writing the container to it would destroy the listing"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(d.join("ps.asm")).unwrap(), listing);
    }
}
