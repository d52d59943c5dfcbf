//! `dxinfo --disasm --disasm-format=RELEASE`: the listing in the layout of
//! the fxc release asked for, whatever RDEF's creator says.

mod common;

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// ps_4_0: `dcl_constantbuffer CB0[1], immediateIndexed`, `ret`, no RDEF.
fn container() -> Vec<u8> {
    let shdr = le(&[0x40, 7, 0x0400_0059, 0x0020_8e46, 0, 1, 0x0100_003e]);
    dxcopy_edit::ContainerBuilder::new()
        .part(b"SHDR", &shdr)
        .build()
        .unwrap()
}

fn listing(args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cb.dxbc"), container()).unwrap();
    let mut all = vec!["--disasm"];
    all.extend_from_slice(args);
    all.push("cb.dxbc");
    let out = common::run_in("dxinfo", &all, dir.path());
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_release_chooses_the_layout() {
    let program = "ps_4_0\ndcl_constantbuffer CB0[1], immediateIndexed\nret \n";
    // No RDEF: today's layout.
    let (status, current, err) = listing(&[]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert!(current.contains(program), "{current}");
    for release in ["10.1", "10.0.10011", "10.0.10011.16384"] {
        assert_eq!(listing(&[&format!("--disasm-format={release}")]).1, current);
    }
    // Before 10.0 the declaration names the buffer in lower case.
    let (status, old, _) = listing(&["--disasm-format=6.3"]);
    assert_eq!(status, 0);
    assert!(
        old.contains("\ndcl_constantbuffer cb0[1], immediateIndexed\n"),
        "{old}"
    );
    // 9.30 writes `///` under the banner; 9.29 two more `//` lines (where
    // its compile command line went).
    let banner = |text: &str| {
        text.lines()
            .skip(2)
            .take_while(|l| !l.starts_with("ps_"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(banner(&current), ["//", "//"]);
    assert_eq!(
        banner(&listing(&["--disasm-format=9.30"]).1),
        ["//", "//", "///"]
    );
    assert_eq!(
        banner(&listing(&["--disasm-format=9.29"]).1),
        ["//", "//", "//", "//"]
    );
}

#[test]
fn an_unknown_release_is_a_usage_error() {
    let (status, out, err) = listing(&["--disasm-format=7.0"]);
    assert_eq!((status, out.as_str()), (1, ""));
    assert!(
        err.contains(
            "'7.0' is not an fxc release this listing knows (9.29, 9.30, 6.3, 10.0.10011, 10.1)"
        ),
        "{err}"
    );
    // It only means something with --disasm.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cb.dxbc"), container()).unwrap();
    let out = common::run_in("dxinfo", &["--disasm-format=6.3", "cb.dxbc"], dir.path());
    assert_eq!(out.status.code(), Some(1));
}

/// `--disasm` without a part lists ILDB when the container has one, as dxc
/// does, whichever disassembler prints it: the built-in listing and
/// `--disasm-with=llvm-dis` (a stand-in tool that prints a digest of the
/// bitcode it is given) show the same module as `--disasm=ILDB`, not DXIL's.
#[cfg(unix)]
#[test]
fn one_default_module_for_both_disassemblers() {
    use std::os::unix::fs::PermissionsExt;
    let dxil = dxcopy_harness::attacks::wide_metadata(1);
    let ildb = dxcopy_harness::attacks::wide_metadata(3);
    let bytes = dxcopy_edit::ContainerBuilder::new()
        .pixel_program(b"DXIL", &dxil)
        .pixel_program(b"ILDB", &ildb)
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("both.dxil"), bytes).unwrap();
    let tool = dir.path().join("fake-llvm-dis");
    std::fs::write(&tool, "#!/bin/sh\nmd5sum\n").unwrap();
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(common::bin("dxinfo"))
            .args(args)
            .arg("both.dxil")
            .env("LLVM_DIS", &tool)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    for with in [&[][..], &["--disasm-with=llvm-dis"]] {
        let listing = |part: &str| {
            let mut args = vec![part];
            args.extend_from_slice(with);
            run(&args)
        };
        let default = listing("--disasm");
        assert_eq!(default, listing("--disasm=ILDB"), "{with:?}");
        assert_ne!(default, listing("--disasm=DXIL"), "{with:?}");
    }
}
