//! Driver tests on real files in a temp directory.

use crate::*;
use dxcopy_read::ShaderKind;
use dxcopy_read::{Container, DigestKind, PartName};
use std::fs;
use std::path::PathBuf;

const BC: &[u8] = b"BC\xc0\xde\x35\x14\0\0\x05\0\0\0";

fn sample() -> Vec<u8> {
    ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .hash_of_dxil()
        .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), BC)
        .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xdedbg")
        .part(b"STAT", b"stat")
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap()
}

fn setup() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.dxil");
    let bytes = sample();
    fs::write(&input, &bytes).unwrap();
    (dir, input, bytes)
}

use dxcopy_harness::part_names as names;

#[test]
fn dumps_only_do_not_rewrite_input() {
    let (dir, input, bytes) = setup();
    let before = fs::metadata(&input).unwrap().modified().unwrap();
    let out = dir.path().join("x.bc");
    let cfg = Config {
        dumps: vec![DumpSpec {
            pattern: "DXIL".into(),
            path: out.clone(),
            mode: DumpMode::Bitcode,
        }],
        ..Config::default()
    };
    assert!(cfg.is_read_only());
    let r = cfg.run(&input, None).unwrap();
    assert!(!r.wrote_output);
    assert_eq!(fs::read(&out).unwrap(), BC);
    assert_eq!(fs::read(&input).unwrap(), bytes);
    assert_eq!(fs::metadata(&input).unwrap().modified().unwrap(), before);
}

/// "does this run edit" is derived from [`Edits`], never listed:
/// each part-changing option, given alone beside a dump, makes the run
/// write a container, and the modifiers alone do not.
#[test]
fn every_edit_beside_a_dump_makes_the_run_edit() {
    let dump = vec![DumpSpec {
        pattern: "DXIL".into(),
        path: "x.bc".into(),
        mode: DumpMode::Bitcode,
    }];
    let p = || Some(PathBuf::from("f"));
    let s = || Some("f".to_string());
    let named = || vec![("PRIV".to_string(), PathBuf::from("f"))];
    let d = Edits::default;
    let edits = [
        Edits {
            remove: vec!["STAT".into()],
            ..d()
        },
        Edits {
            only: vec!["DXIL".into()],
            ..d()
        },
        Edits {
            add: named(),
            ..d()
        },
        Edits {
            update: named(),
            ..d()
        },
        Edits {
            strip: vec![StripClass::Debug],
            ..d()
        },
        Edits {
            set_private: p(),
            ..d()
        },
        Edits {
            split_debug: s(),
            ..d()
        },
        Edits {
            pdb_in_private: true,
            ..d()
        },
        Edits {
            add_debug_from: p(),
            ..d()
        },
        Edits {
            set_debug_name: s(),
            ..d()
        },
        Edits {
            strip_bitcode_names: true,
            ..d()
        },
        Edits {
            set_root_signature: p(),
            ..d()
        },
        Edits {
            set_renderdoc_debug_path: s(),
            ..d()
        },
    ];
    for edits in edits {
        assert!(!edits.is_empty(), "{edits:?}");
        let cfg = Config {
            dumps: dump.clone(),
            edits,
            ..Config::default()
        };
        assert!(!cfg.is_read_only(), "{cfg:?}");
        assert!(cfg.modifies(), "{cfg:?}");
    }
    let modifiers = Config {
        dumps: dump,
        keep: vec!["STAT".into()],
        force: true,
        preserve_dates: true,
        match_style: MatchStyle::Regex,
        ..Config::default()
    };
    assert!(modifiers.is_read_only());
    assert!(!modifiers.modifies());
}

#[test]
fn in_place_strip_keeps_digest_kind() {
    let (_dir, input, _) = setup();
    let cfg = Config {
        edits: Edits {
            strip: vec![StripClass::Debug, StripClass::Reflect],
            ..Edits::default()
        },
        ..Config::default()
    };
    let r = cfg.run(&input, None).unwrap();
    assert!(r.wrote_output);
    assert_eq!((r.parts_before, r.parts_after), (5, 3));
    let out = fs::read(&input).unwrap();
    assert_eq!(names(&out), ["SFI0", "HASH", "DXIL"]);
    assert_eq!(
        Container::parse(&out).unwrap().digest_kind(),
        DigestKind::Retail
    );
}

#[test]
fn dump_reads_input_before_removal_and_only_overrides_remove() {
    let (dir, input, _) = setup();
    let output = dir.path().join("out.dxil");
    let dumped = dir.path().join("ildb.bc");
    let cfg = Config {
        edits: Edits {
            remove: vec!["DXIL".into()],
            only: vec!["DXIL".into(), "HASH".into()],
            ..Edits::default()
        },
        dumps: vec![DumpSpec {
            pattern: "ILDB".into(),
            path: dumped.clone(),
            mode: DumpMode::Bitcode,
        }],
        ..Config::default()
    };
    cfg.run(&input, Some(&output)).unwrap();
    assert_eq!(fs::read(&dumped).unwrap(), b"BC\xc0\xdedbg");
    assert_eq!(names(&fs::read(&output).unwrap()), ["HASH", "DXIL"]);
}

#[test]
fn errors_write_nothing() {
    let (dir, input, bytes) = setup();
    let output = dir.path().join("out.dxil");
    let dumped = dir.path().join("d.bin");
    let blob = dir.path().join("blob");
    fs::write(&blob, b"1234").unwrap();
    let cfg = Config {
        edits: Edits {
            add: vec![("DXIL".into(), blob.clone())],
            ..Edits::default()
        },
        dumps: vec![DumpSpec {
            pattern: "SFI0".into(),
            path: dumped.clone(),
            mode: DumpMode::Raw,
        }],
        ..Config::default()
    };
    let e = cfg.run(&input, Some(&output)).unwrap_err();
    assert!(matches!(e, EditError::AlreadyExists(n) if n == PartName::DXIL));
    assert!(!output.exists());
    assert!(!dumped.exists());
    // Same with in-place: input untouched.
    assert!(cfg.run(&input, None).is_err());
    assert_eq!(fs::read(&input).unwrap(), bytes);
    // A missing add file names itself.
    let cfg = Config {
        edits: Edits {
            add: vec![("FKE0".into(), dir.path().join("missing"))],
            ..Edits::default()
        },
        ..Config::default()
    };
    let e = cfg.run(&input, Some(&output)).unwrap_err();
    assert!(
        matches!(&e, EditError::Io { path, .. } if path == &dir.path().join("missing")),
        "{e:?}"
    );
    // Bad part name.
    let cfg = Config {
        edits: Edits {
            add: vec![("TOOLONG".into(), blob)],
            ..Edits::default()
        },
        ..Config::default()
    };
    assert!(matches!(
        cfg.run(&input, Some(&output)),
        Err(EditError::BadName(_))
    ));
    // Only the input and the blob: no output, dump or temp file.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn add_update_set_private_and_extract() {
    let (dir, input, _) = setup();
    let output = dir.path().join("out.dxil");
    let priv_blob = dir.path().join("priv.bin");
    fs::write(&priv_blob, b"\x01\x02\x03").unwrap();
    let sfi = dir.path().join("sfi.bin");
    fs::write(&sfi, [1u8, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    let extracted = dir.path().join("sfi0.dxbc");
    let cfg = Config {
        edits: Edits {
            update: vec![("SFI0".into(), sfi)],
            add: vec![("PRIV".into(), priv_blob)],
            ..Edits::default()
        },
        extracts: vec![("SFI0".into(), extracted.clone())],
        ..Config::default()
    };
    cfg.run(&input, Some(&output)).unwrap();
    let out = fs::read(&output).unwrap();
    let c = Container::parse(&out).unwrap();
    assert_eq!(
        names(&out),
        ["SFI0", "HASH", "DXIL", "ILDB", "STAT", "PRIV"]
    );
    assert_eq!(
        c.find(PartName::SFI0).unwrap().data,
        [1, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(c.find(PartName::PRIV).unwrap().data, [1, 2, 3]);
    assert_eq!(c.digest_kind(), DigestKind::Retail);
    // The extract reads the input, not the updated SFI0.
    let one = fs::read(&extracted).unwrap();
    assert_eq!(names(&one), ["SFI0"]);
    assert_eq!(
        Container::parse(&one)
            .unwrap()
            .find(PartName::SFI0)
            .unwrap()
            .data,
        [0; 8]
    );
}

/// dxstrip's default class is debug whenever no strip class and
/// no `-R` is given, whatever other options say (`--strip-bitcode-names`
/// used to turn it off).
#[test]
fn dxstrip_default_strips_debug_whatever_else_is_asked() {
    let rows: Vec<(Config, bool)> = vec![
        (Config::default(), true),
        (
            Config {
                edits: Edits {
                    strip_bitcode_names: true,
                    ..Edits::default()
                },
                ..Config::default()
            },
            true,
        ),
        (
            Config {
                keep: vec!["STAT".into()],
                digest: DigestPolicy::Zero,
                preserve_dates: true,
                ..Config::default()
            },
            true,
        ),
        (
            Config {
                edits: Edits {
                    remove: vec!["STAT".into()],
                    ..Edits::default()
                },
                ..Config::default()
            },
            false,
        ),
        (
            Config {
                edits: Edits {
                    strip: vec![StripClass::Reflect],
                    strip_bitcode_names: true,
                    ..Edits::default()
                },
                ..Config::default()
            },
            false,
        ),
    ];
    for (mut config, applied) in rows {
        let before = config.edits.strip.clone();
        assert_eq!(config.apply_strip_default(), applied, "{config:?}");
        if applied {
            assert_eq!(config.edits.strip, [StripClass::Debug]);
        } else {
            assert_eq!(config.edits.strip, before);
        }
    }
    // And the debug part is gone from the file.
    let (_dir, input, _) = setup();
    let mut config = Config {
        keep: vec!["STAT".into()],
        ..Config::default()
    };
    config.apply_strip_default();
    config.run(&input, None).unwrap();
    assert_eq!(
        names(&fs::read(&input).unwrap()),
        ["SFI0", "HASH", "DXIL", "STAT"]
    );
}
