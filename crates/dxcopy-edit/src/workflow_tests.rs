//! Driver tests for root signatures, RenderDoc debug paths, debug-file
//! search, PDBI in split and join, and the refusal of repeated program parts.

use crate::*;
use dxcopy_read::private::{PrivateContent, PrivateData};
use dxcopy_read::rts0::RootSignature;
use dxcopy_read::{Container, PartName};
use std::fs;
use std::path::{Path, PathBuf};

const BC: &[u8] = b"BC\xc0\xde\x35\x14\0\0\x05\0\0\0";

/// RTS0 1.1 with no parameters and `flags`.
fn rts0(flags: u32) -> Vec<u8> {
    [2u32, 0, 24, 0, 24, flags]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

fn shader(extra: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let mut b = ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .hash_of_dxil()
        .pixel_program(b"DXIL", BC);
    for (name, data) in extra {
        b = b.part(name, data);
    }
    b.digest(DigestPolicy::Retail).build().unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, bytes).unwrap();
    p
}

fn part_of(bytes: &[u8], name: PartName) -> Vec<u8> {
    Container::parse(bytes)
        .unwrap()
        .find(name)
        .map(|p| p.data.to_vec())
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn set_root_signature_from_container_or_part() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.dxil", &shader(&[]));
    let raw = write(dir.path(), "rs.bin", &rts0(1));
    let wrapped = ContainerBuilder::new()
        .part(b"RTS0", &rts0(2))
        .build()
        .unwrap();
    let wrapped = write(dir.path(), "rs.dxbc", &wrapped);
    let out = dir.path().join("out.dxil");
    // Added from bare data, then replaced from a container.
    let cfg = Config {
        edits: Edits {
            set_root_signature: Some(raw),
            ..Edits::default()
        },
        ..Config::default()
    };
    cfg.run(&input, Some(&out)).unwrap();
    assert_eq!(part_of(&fs::read(&out).unwrap(), PartName::RTS0), rts0(1));
    let cfg = Config {
        edits: Edits {
            set_root_signature: Some(wrapped),
            ..Edits::default()
        },
        ..Config::default()
    };
    cfg.run(&out, None).unwrap();
    let bytes = fs::read(&out).unwrap();
    let c = Container::parse(&bytes).unwrap();
    assert_eq!(c.parts().filter(|p| p.name == PartName::RTS0).count(), 1);
    let rs = RootSignature::parse(&c.find(PartName::RTS0).unwrap()).unwrap();
    assert_eq!(rs.flags.0, 2);
    assert_eq!(c.digest_kind(), dxcopy_read::DigestKind::Retail);
}

#[test]
fn set_root_signature_refuses_what_does_not_decode() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.dxil", &shader(&[]));
    let before = fs::read(&input).unwrap();
    let mut bad = rts0(0);
    bad[0] = 7; // version 7
    let cases = [
        write(dir.path(), "short.bin", b"RTS0"),
        write(dir.path(), "version.bin", &bad),
        write(
            dir.path(),
            "norts0.dxbc",
            &ContainerBuilder::new().part(b"PRIV", b"x").build().unwrap(),
        ),
    ];
    for path in cases {
        let cfg = Config {
            edits: Edits {
                set_root_signature: Some(path.clone()),
                ..Edits::default()
            },
            ..Config::default()
        };
        let e = cfg.run(&input, None).unwrap_err();
        assert!(
            matches!(&e, EditError::BadRootSignature { path: p, .. } if p == &path),
            "{e}"
        );
    }
    assert_eq!(fs::read(&input).unwrap(), before);
}

#[test]
fn update_section_rts0_unwraps_a_container_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.dxil", &shader(&[(b"RTS0", &rts0(0))]));
    let wrapped = ContainerBuilder::new()
        .part(b"RTS0", &rts0(4))
        .build()
        .unwrap();
    let wrapped = write(dir.path(), "rs.dxbc", &wrapped);
    let out = dir.path().join("out.dxil");
    let cfg = Config {
        edits: Edits {
            update: vec![("RTS0".into(), wrapped.clone())],
            ..Edits::default()
        },
        ..Config::default()
    };
    let report = cfg.run(&input, Some(&out)).unwrap();
    assert_eq!(part_of(&fs::read(&out).unwrap(), PartName::RTS0), rts0(4));
    assert_eq!(
        report.notes,
        [EditNote::UnwrappedRootSignature { path: wrapped }]
    );
    // Bare data is used as given, without a note.
    let raw = write(dir.path(), "rs.bin", &rts0(8));
    let cfg = Config {
        edits: Edits {
            update: vec![("RTS0".into(), raw)],
            ..Edits::default()
        },
        ..Config::default()
    };
    let report = cfg.run(&input, Some(&out)).unwrap();
    assert_eq!(part_of(&fs::read(&out).unwrap(), PartName::RTS0), rts0(8));
    assert!(report.notes.is_empty());
}

#[test]
fn renderdoc_debug_path_in_priv() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.dxil", &shader(&[(b"PRIV", b"old")]));
    let out = dir.path().join("out.dxil");
    let cfg = Config {
        edits: Edits {
            set_renderdoc_debug_path: Some("pdbs/shader.pdb".into()),
            ..Edits::default()
        },
        ..Config::default()
    };
    cfg.run(&input, Some(&out)).unwrap();
    let bytes = fs::read(&out).unwrap();
    let data = part_of(&bytes, PartName::PRIV);
    let mut want = vec![
        0x20, 0x55, 0xb2, 0xea, 0x70, 0x66, 0x65, 0x48, 0x84, 0x29, 0x6c, 0x08, 0x51, 0x54, 0x00,
        0xff,
    ];
    want.extend_from_slice(b"pdbs/shader.pdb\0");
    assert_eq!(data, want);
    let decoded = PrivateData::parse_data(&data, 0).unwrap();
    assert!(matches!(
        decoded.content,
        PrivateContent::DebugPath {
            path: b"pdbs/shader.pdb",
            ..
        }
    ));
    for bad in ["", "a\0b"] {
        let cfg = Config {
            edits: Edits {
                set_renderdoc_debug_path: Some(bad.into()),
                ..Edits::default()
            },
            ..Config::default()
        };
        assert!(matches!(
            cfg.run(&input, Some(&out)),
            Err(EditError::BadRenderDocDebugPath)
        ));
    }
}

#[test]
fn repeated_program_parts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in [b"DXIL", b"ILDB", b"STAT"] {
        let bytes = ContainerBuilder::new()
            .pixel_program(b"DXIL", BC)
            .part(b"SFI0", &[0; 8])
            .part(name, b"abcdefghijklmnopqrstuvwx")
            .part(name, b"abcdefghijklmnopqrstuvwx")
            .build()
            .unwrap();
        let input = write(dir.path(), "two.dxil", &bytes);
        for cfg in [
            Config::default(),
            Config {
                edits: Edits {
                    strip: vec![StripClass::Debug],
                    ..Edits::default()
                },
                ..Config::default()
            },
        ] {
            let e = cfg.run(&input, Some(&dir.path().join("o"))).unwrap_err();
            let want_indices: Vec<u32> = if name == b"DXIL" {
                vec![0, 2, 3]
            } else {
                vec![2, 3]
            };
            assert!(
                matches!(&e, EditError::MultipleProgramParts { name: n, indices } if n.0 == *name && *indices == want_indices),
                "{e}"
            );
        }
        assert!(!dir.path().join("o").exists());
    }
}

/// A shader with debug info, its split PDB in `pdbs/<sub>/a.pdb` named in
/// ILDN as `name`, and the stripped shader.
fn split_into(dir: &Path, ildn_name: &str, pdb_rel: &str) -> (PathBuf, Vec<u8>) {
    let full = ContainerBuilder::new()
        .hash_of_dxil()
        .pixel_program(b"DXIL", BC)
        .pixel_program(b"ILDB", b"BC\xc0\xdedbg!")
        .part(b"PDBI", b"pdb info")
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap();
    let input = write(dir, "full.dxil", &full);
    let stripped = dir.join("stripped.dxil");
    let cfg = Config {
        edits: Edits {
            split_debug: Some(dir.join("tmp.pdb").display().to_string()),
            set_debug_name: None,
            ..Edits::default()
        },
        ..Config::default()
    };
    cfg.run(&input, Some(&stripped)).unwrap();
    let target = dir.join("pdbs").join(pdb_rel);
    fs::create_dir_all(target.parent().unwrap()).unwrap();
    fs::rename(dir.join("tmp.pdb"), &target).unwrap();
    let cfg = Config {
        edits: Edits {
            set_debug_name: Some(ildn_name.to_string()),
            ..Edits::default()
        },
        ..Config::default()
    };
    cfg.run(&stripped, None).unwrap();
    (stripped, full)
}

#[test]
fn split_and_join_carry_pdbi() {
    let dir = tempfile::tempdir().unwrap();
    let (stripped, full) = split_into(dir.path(), "a.pdb", "a.pdb");
    let bytes = fs::read(&stripped).unwrap();
    let c = Container::parse(&bytes).unwrap();
    assert!(c.find(PartName::PDBI).is_none());
    assert!(c.find(PartName::ILDB).is_none());
    let pdb = fs::read(dir.path().join("pdbs/a.pdb")).unwrap();
    let inner = dxcopy_read::container_input(&pdb).unwrap();
    let pdb_container = Container::parse(&inner.bytes).unwrap();
    assert_eq!(
        pdb_container.find(PartName::PDBI).unwrap().data,
        b"pdb info"
    );
    let joined = dir.path().join("joined.dxil");
    let cfg = Config {
        edits: Edits {
            add_debug_from: Some(dir.path().join("pdbs/a.pdb")),
            ..Edits::default()
        },
        ..Config::default()
    };
    cfg.run(&stripped, Some(&joined)).unwrap();
    let joined = fs::read(&joined).unwrap();
    assert_eq!(
        part_of(&joined, PartName::PDBI),
        part_of(&full, PartName::PDBI)
    );
    assert_eq!(
        part_of(&joined, PartName::ILDB),
        part_of(&full, PartName::ILDB)
    );
}

#[test]
fn add_debug_from_directory_searches_like_renderdoc() {
    let dir = tempfile::tempdir().unwrap();
    // ILDN names C:\build\out\shaders\a.pdb; the file is pdbs/shaders/a.pdb.
    let (stripped, full) = split_into(
        dir.path(),
        "C:\\build\\out\\shaders\\a.pdb",
        "shaders/a.pdb",
    );
    let joined = dir.path().join("joined.dxil");
    let cfg = Config {
        edits: Edits {
            add_debug_from: Some(dir.path().join("pdbs")),
            ..Edits::default()
        },
        ..Config::default()
    };
    let report = cfg.run(&stripped, Some(&joined)).unwrap();
    let used = dir.path().join("pdbs").join("shaders/a.pdb");
    assert_eq!(report.notes, [EditNote::DebugFileUsed { path: used }]);
    assert_eq!(
        part_of(&fs::read(&joined).unwrap(), PartName::ILDB),
        part_of(&full, PartName::ILDB)
    );

    // Found by the HASH name when the ILDN name leads nowhere.
    let hash = dxcopy_read::ShaderHash::parse_data(&part_of(&full, PartName::HASH), 0).unwrap();
    let by_hash = dir.path().join("by-hash");
    fs::create_dir(&by_hash).unwrap();
    fs::copy(
        dir.path().join("pdbs/shaders/a.pdb"),
        by_hash.join(hash.pdb_name()),
    )
    .unwrap();
    let cfg = Config {
        edits: Edits {
            add_debug_from: Some(by_hash.clone()),
            ..Edits::default()
        },
        ..Config::default()
    };
    let report = cfg.run(&stripped, Some(&joined)).unwrap();
    assert_eq!(
        report.notes,
        [EditNote::DebugFileUsed {
            path: by_hash.join(hash.pdb_name())
        }]
    );

    // Nothing there: the error lists what was tried.
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let cfg = Config {
        edits: Edits {
            add_debug_from: Some(empty.clone()),
            ..Edits::default()
        },
        ..Config::default()
    };
    match cfg.run(&stripped, Some(&joined)).unwrap_err() {
        EditError::DebugFileNotFound { dir, tried } => {
            assert_eq!(dir, empty);
            assert_eq!(tried.len(), 5, "{tried:?}");
            assert_eq!(tried[4], empty.join(hash.pdb_name()));
        }
        e => panic!("{e}"),
    }
}

#[test]
fn split_debug_creates_a_missing_directory() {
    let dir = tempfile::tempdir().unwrap();
    let full = ContainerBuilder::new()
        .hash_of_dxil()
        .pixel_program(b"DXIL", BC)
        .pixel_program(b"ILDB", b"BC\xc0\xdedbg!")
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap();
    let input = write(dir.path(), "full.dxil", &full);
    let target = format!("{}/new/deeper/", dir.path().display());
    let cfg = Config {
        edits: Edits {
            split_debug: Some(target),
            ..Edits::default()
        },
        ..Config::default()
    };
    let report = cfg.run(&input, Some(&dir.path().join("o.dxil"))).unwrap();
    let pdb = report.pdb_written.unwrap();
    assert!(pdb.starts_with(dir.path().join("new/deeper")));
    assert!(dxcopy_read::is_msf(&fs::read(pdb).unwrap()));
}

#[cfg(unix)]
#[test]
fn a_file_needing_no_change_is_not_rewritten() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.dxil", &shader(&[(b"STAT", b"stat")]));
    let strip = Config {
        edits: Edits {
            strip: vec![StripClass::Debug],
            ..Edits::default()
        },
        ..Config::default()
    };
    // Nothing to strip: same inode, same modification time, same bytes.
    let before = fs::metadata(&input).unwrap();
    let bytes = fs::read(&input).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let report = strip.run(&input, None).unwrap();
    assert!(report.unchanged && !report.wrote_output);
    let after = fs::metadata(&input).unwrap();
    assert_eq!(
        (after.ino(), after.mtime_nsec(), after.mtime()),
        (before.ino(), before.mtime_nsec(), before.mtime())
    );
    assert_eq!(fs::read(&input).unwrap(), bytes);
    // Naming the input as the output is the same edit in place.
    assert!(strip.run(&input, Some(&input)).unwrap().unchanged);
    // The same no-op to another file writes it, identical to the input.
    let out = dir.path().join("out.dxil");
    let report = strip.run(&input, Some(&out)).unwrap();
    assert!(!report.unchanged && report.wrote_output);
    assert_eq!(fs::read(&out).unwrap(), bytes);
    // Policies that may change the digest always write.
    let resign = Config {
        digest: DigestPolicy::Retail,
        ..Config::default()
    };
    assert!(!resign.run(&input, None).unwrap().unchanged);
    // A real change is written.
    let reflect = Config {
        edits: Edits {
            strip: vec![StripClass::Reflect],
            ..Edits::default()
        },
        ..Config::default()
    };
    let bytes_before = fs::read(&input).unwrap();
    let report = reflect.run(&input, None).unwrap();
    assert!(!report.unchanged && report.wrote_output);
    let now = fs::read(&input).unwrap();
    assert!(now.len() < bytes_before.len());
}

#[test]
fn unchanged_needs_an_exact_layout() {
    // A FileSize that differs from the file's length is rewritten (fixed).
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = shader(&[]);
    bytes.extend_from_slice(&[0; 4]); // trailing bytes FileSize does not cover
    let input = write(dir.path(), "in.dxil", &bytes);
    let report = Config {
        digest: DigestPolicy::Keep,
        ..Config::default()
    }
    .run(&input, None)
    .unwrap();
    assert!(!report.unchanged);
    assert_eq!(fs::read(&input).unwrap().len(), bytes.len() - 4);
}

#[test]
fn option_warnings_name_patterns_that_match_nothing() {
    let bytes = shader(&[(b"STAT", b"stat")]);
    let c = Container::parse(&bytes).unwrap();
    let nothing = |option, pattern: &str| OptionWarning::PatternMatchesNothing {
        option,
        pattern: pattern.to_string(),
    };
    let rows: Vec<(Config, Vec<OptionWarning>)> = vec![
        (Config::default(), vec![]),
        (
            Config {
                edits: Edits {
                    only: vec!["DXLI".into(), "DX*".into()],
                    remove: vec!["NONE".into()],
                    ..Edits::default()
                },
                ..Config::default()
            },
            vec![nothing(Operation::OnlySection, "DXLI")],
        ),
        (
            Config {
                edits: Edits {
                    remove: vec!["STAT".into(), "ILDB".into(), "!HASH".into()],
                    ..Edits::default()
                },
                keep: vec!["R?S0".into()],
                ..Config::default()
            },
            vec![
                nothing(Operation::RemoveSection, "ILDB"),
                nothing(Operation::KeepSection, "R?S0"),
            ],
        ),
        (
            Config {
                edits: Edits {
                    remove: vec!["^ST".into(), "^Q".into()],
                    ..Edits::default()
                },
                match_style: MatchStyle::Regex,
                ..Config::default()
            },
            vec![nothing(Operation::RemoveSection, "^Q")],
        ),
        (
            Config {
                digest: DigestPolicy::Zero,
                ..Config::default()
            },
            vec![OptionWarning::ZeroDigest],
        ),
    ];
    for (cfg, want) in rows {
        assert_eq!(cfg.option_warnings(&c).unwrap(), want, "{cfg:?}");
    }
}

#[test]
fn an_extracted_container_is_signed_for_itself() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = shader(&[]);
    // Change a byte of SFI0: the stored digest no longer verifies.
    let sfi0 = Container::parse(&bytes)
        .unwrap()
        .find(PartName::SFI0)
        .unwrap()
        .data_offset() as usize;
    bytes[sfi0] ^= 1;
    let input = write(dir.path(), "in.dxil", &bytes);
    assert_eq!(
        Container::parse(&bytes).unwrap().digest_kind(),
        dxcopy_read::DigestKind::Invalid
    );
    let out = dir.path().join("sfi0.dxbc");
    for (policy, want) in [
        (DigestPolicy::Auto, dxcopy_read::DigestKind::Retail),
        (DigestPolicy::Debug, dxcopy_read::DigestKind::Debug),
        (DigestPolicy::Keep, dxcopy_read::DigestKind::Invalid),
    ] {
        let cfg = Config {
            extracts: vec![("SFI0".into(), out.clone())],
            digest: policy,
            ..Config::default()
        };
        cfg.run(&input, Some(&dir.path().join("main.dxil")))
            .unwrap();
        assert_eq!(fs::read(&input).unwrap(), bytes);
        let extracted = fs::read(&out).unwrap();
        assert_eq!(
            Container::parse(&extracted).unwrap().digest_kind(),
            want,
            "{policy:?}"
        );
    }
}
