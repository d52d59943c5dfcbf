//! dxstrip batches: `-r` stays inside its tree unless `-L`, each
//! file is edited and counted once whatever the number of names reaching
//! it, a directory that cannot be read is one failure and the rest is still
//! stripped, and the default class is debug whatever else is asked.
//!
//! Everything happens in a temp dir; the unreadable directory is made in a
//! way that works as root too (a path past PATH_MAX).

#![cfg(unix)]

use dxcopy_read::Container;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::container;

fn parts(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let c = Container::parse(&bytes).unwrap();
    c.parts().map(|p| p.name.to_string()).collect()
}

fn stripped(path: &Path) -> bool {
    !parts(path).iter().any(|n| n == "ILDB")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn recursive_strip_stays_in_its_tree_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("build/a.dxil"), &container());
    write(&d.join("sdk/cache/b.dxil"), &container());
    write(&d.join("sdk/named.dxil"), &container());
    symlink("../sdk/cache/b.dxil", d.join("build/link.dxil")).unwrap();
    symlink("../sdk", d.join("build/sdk")).unwrap();
    symlink("sdk/named.dxil", d.join("named-link.dxil")).unwrap();
    let out = common::run_in("dxstrip", &["-r", "build", "named-link.dxil"], d);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "dxstrip: 2 files: 2 changed (2 parts removed), 0 unchanged (not rewritten), 0 failed\n"
    );
    assert!(stripped(&d.join("build/a.dxil")));
    // A link named on the command line is followed, as before.
    assert!(stripped(&d.join("sdk/named.dxil")));
    assert!(d.join("named-link.dxil").is_symlink());
    // Links found by the walk are left alone: the SDK is untouched.
    assert_eq!(
        std::fs::read(d.join("sdk/cache/b.dxil")).unwrap(),
        container()
    );
    // -L follows them (-L is dxstrip's own, not llvm-objcopy's).
    for option in ["-L", "--follow-symlinks"] {
        write(&d.join("sdk/cache/b.dxil"), &container());
        let out = common::run_in("dxstrip", &["-r", option, "build"], d);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        // a.dxil, b.dxil (reached twice: link.dxil, sdk/cache/b.dxil) and
        // sdk/named.dxil: three files.
        assert_eq!(
            stderr(&out),
            "dxstrip: 3 files: 1 changed (1 part removed), 2 unchanged (not rewritten), 0 failed\n"
        );
        assert!(stripped(&d.join("sdk/cache/b.dxil")));
        assert!(d.join("build/link.dxil").is_symlink());
    }
    let out = common::run_in("dxstrip", &["-L", "build/a.dxil"], d);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--recursive"), "{}", stderr(&out));
}

#[test]
fn each_file_is_stripped_and_counted_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("x.dxil"), &container());
    write(&d.join("y.dxil"), &container());
    std::fs::hard_link(d.join("y.dxil"), d.join("hard.dxil")).unwrap();
    symlink("x.dxil", d.join("soft.dxil")).unwrap();
    write(&d.join("list"), b"x.dxil\n./x.dxil\nsoft.dxil\nx.dxil\n");
    let out = common::run_in(
        "dxstrip",
        &[
            "x.dxil",
            "./x.dxil",
            "y.dxil",
            "hard.dxil",
            "soft.dxil",
            "--files-from=list",
        ],
        d,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "dxstrip: 2 files: 2 changed (2 parts removed), 0 unchanged (not rewritten), 0 failed\n"
    );
    assert!(stripped(&d.join("x.dxil")) && stripped(&d.join("y.dxil")));
    // One file under two names: stripped once, no summary for one file.
    write(&d.join("z.dxil"), &container());
    let out = common::run_in("dxstrip", &["z.dxil", "./z.dxil"], d);
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    assert!(stripped(&d.join("z.dxil")));
}

/// Builds below `root` a directory whose path is longer than PATH_MAX
/// without naming a path that long (a chain moved under another), so it
/// cannot be read, as root too. Returns its path.
fn deeper_than_path_max(root: &Path) -> PathBuf {
    let name = "d".repeat(200);
    let upper: PathBuf = std::iter::repeat_n(name.as_str(), 12).collect();
    std::fs::create_dir_all(root.join(&upper)).unwrap();
    let lower: PathBuf = std::iter::repeat_n(name.as_str(), 12).collect();
    std::fs::create_dir_all(root.join("chain").join(&lower)).unwrap();
    std::fs::rename(root.join("chain"), root.join(&upper).join("chain")).unwrap();
    let mut deep = root.join(&upper).join("chain");
    while deep.as_os_str().len() < 4096 {
        deep.push(&name);
    }
    deep
}

#[test]
fn an_unreadable_directory_is_one_failure_and_the_rest_is_stripped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("tree/a.dxil"), &container());
    write(&d.join("tree/z/b.dxil"), &container());
    write(&d.join("named.dxil"), &container());
    let deep = deeper_than_path_max(&d.join("tree"));
    let out = common::run_in("dxstrip", &["-r", "tree", "named.dxil"], d);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let shown = deep.strip_prefix(d).unwrap().display().to_string();
    assert_eq!(
        stderr(&out),
        format!(
            "dxstrip: error: '{shown}': cannot walk the directory: File name too long (os error 36)\n\
             dxstrip: 4 files: 3 changed (3 parts removed), 0 unchanged (not rewritten), 1 failed\n"
        )
    );
    for f in ["tree/a.dxil", "tree/z/b.dxil", "named.dxil"] {
        assert!(stripped(&d.join(f)), "{f}");
    }
    // The same with a mode-000 directory, where it is unreadable (not as root).
    use std::os::unix::fs::PermissionsExt;
    let locked = d.join("tree2/locked");
    write(&locked.join("c.dxil"), &container());
    write(&d.join("tree2/e.dxil"), &container());
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read_dir(&locked).is_ok() {
        eprintln!("skipped the mode-000 case: the directory is readable here (root)");
    } else {
        let out = common::run_in("dxstrip", &["-r", "tree2"], d);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            stderr(&out),
            "dxstrip: error: 'tree2/locked': cannot walk the directory: Permission denied (os error 13)\n\
             dxstrip: 2 files: 1 changed (1 part removed), 0 unchanged (not rewritten), 1 failed\n"
        );
        assert!(stripped(&d.join("tree2/e.dxil")));
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The default class is debug when no class and no -R is given, whatever
/// else is: `--strip-bitcode-names` used to turn it off.
#[test]
fn the_default_strips_debug_parts_with_other_options_too() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sample.dxil");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let rows: &[(&[&str], &[&str])] = &[
        (&[], &["SFI0", "ILDN", "HASH", "DXIL", "STAT", "PRIV"]),
        (
            &["--strip-bitcode-names"],
            &["SFI0", "ILDN", "HASH", "DXIL", "STAT", "PRIV"],
        ),
        (
            &["--keep-section=STAT", "--digest=keep"],
            &["SFI0", "ILDN", "HASH", "DXIL", "STAT", "PRIV"],
        ),
        // A class or -R replaces the default.
        (
            &["--strip-priv", "--strip-bitcode-names"],
            &["SFI0", "ILDN", "HASH", "DXIL", "ILDB", "STAT"],
        ),
        (
            &["-R", "STAT"],
            &["SFI0", "ILDN", "HASH", "DXIL", "ILDB", "PRIV"],
        ),
    ];
    for (args, want) in rows {
        std::fs::copy(&sample, d.join("s.dxil")).unwrap();
        let mut all = args.to_vec();
        all.push("s.dxil");
        let out = common::run_in("dxstrip", &all, d);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(parts(&d.join("s.dxil")), *want, "{args:?}");
    }
}
