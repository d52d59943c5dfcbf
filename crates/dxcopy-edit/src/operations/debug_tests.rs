//! Split / join / naming tests, including one test per row of LLVM's DXContainer.md
//! "Part Placement" table (DXIL, ILDB, ILDN, HASH, SRCI, VERS, PRIV).

use crate::debug::*;
use crate::*;
use dxcopy_read::hash::{md5_of, HashStatus, ShaderHash, FLAG_INCLUDES_SOURCE};
use dxcopy_read::pdb::Pdb;
use dxcopy_read::ShaderKind;
use dxcopy_read::{Container, DebugName, DigestKind, PartName, ReadError, ReadErrorKind};
use std::path::PathBuf;

const BC: &[u8] = b"BC\xc0\xde\x35\x14\0\0\x05\0\0\0";
const BC_DEBUG: &[u8] = b"BC\xc0\xde\x35\x14\0\0debug info";

fn ildn(name: &str) -> Vec<u8> {
    dxcopy_read::debug_name::encode(name.as_bytes()).unwrap()
}

/// A dxc `/Zi /Qembed_debug` shader, plus SRCI and VERS so every row of the
/// placement table has a part to move.
fn full_shader(extra: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let mut b = ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .pixel_program(b"ILDB", BC_DEBUG)
        .part(b"STAT", b"stat")
        .part(b"ILDN", &ildn("old.pdb"))
        .hash_of_dxil()
        .pixel_program(b"DXIL", BC)
        .part(
            b"VERS",
            &[
                1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, b'a', 0, b'b', 0,
            ],
        )
        .part(b"SRCI", &[9; 16]);
    for (name, data) in extra {
        b = b.part(name, data);
    }
    b.digest(DigestPolicy::Retail).build().unwrap()
}

fn names(c: &Container<'_>) -> Vec<String> {
    c.parts().map(|p| p.name.to_string()).collect()
}

/// The owned results of a split.
struct Split {
    main: Vec<u8>,
    pdb: Vec<u8>,
    pdb_container: Vec<u8>,
    pdb_path: Option<PathBuf>,
    debug_name: String,
    hash: ShaderHash,
    warnings: Vec<EditWarning>,
}

fn split_with(
    input: &[u8],
    options: SplitOptions,
    edit: impl FnOnce(&mut EditPlan<'_>),
) -> Result<Split> {
    let c = Container::parse(input).unwrap();
    let mut plan = EditPlan::from_container(&c);
    edit(&mut plan);
    let done = split_debug(plan, &options)?;
    let pdb_container = Pdb::parse(&done.pdb)
        .unwrap()
        .container_bytes()
        .unwrap()
        .to_vec();
    Ok(Split {
        main: done.main.to_vec(),
        pdb: done.pdb,
        pdb_container,
        pdb_path: done.pdb_path,
        debug_name: done.debug_name,
        hash: done.hash,
        warnings: done.warnings,
    })
}

fn split(input: &[u8]) -> Split {
    split_with(
        input,
        SplitOptions {
            target: Some(PdbTarget::parse("out/")),
            pdb_in_private: false,
        },
        |_| {},
    )
    .unwrap()
}

fn has(bytes: &[u8], name: PartName) -> bool {
    Container::parse(bytes).unwrap().find(name).is_some()
}

fn part(bytes: &[u8], name: PartName) -> &[u8] {
    Container::parse(bytes).unwrap().find(name).unwrap().data
}

// --- LLVM DXContainer.md "Part Placement", one test per row --------------------

#[test]
fn placement_dxil_main_only() {
    let s = split(&full_shader(&[]));
    assert!(has(&s.main, PartName::DXIL));
    assert!(!has(&s.pdb_container, PartName::DXIL));
}

#[test]
fn placement_ildb_pdb_and_main_only_when_embedded() {
    let input = full_shader(&[]);
    let s = split(&input);
    assert!(!has(&s.main, PartName::ILDB));
    assert_eq!(
        part(&s.pdb_container, PartName::ILDB),
        part(&input, PartName::ILDB)
    );
    // Kept ILDB = dxc -Fd with -Qembed_debug: in both outputs.
    let s = split_with(
        &input,
        SplitOptions {
            target: Some(PdbTarget::parse("a.pdb")),
            pdb_in_private: false,
        },
        |plan| {
            plan.keep(&NameMatcher::from_patterns(&["ILDB"], MatchStyle::Glob).unwrap());
        },
    )
    .unwrap();
    assert_eq!(part(&s.main, PartName::ILDB), part(&input, PartName::ILDB));
    assert!(has(&s.pdb_container, PartName::ILDB));
    // Slim (/Zs): no ILDB anywhere, SRCI still split off.
    let slim = ContainerBuilder::new()
        .hash_of_dxil()
        .pixel_program(b"DXIL", BC)
        .part(b"SRCI", &[9; 16])
        .build()
        .unwrap();
    let s = split(&slim);
    assert!(!has(&s.main, PartName::ILDB));
    assert!(!has(&s.pdb_container, PartName::ILDB));
    assert!(has(&s.pdb_container, PartName::SRCI));
}

#[test]
fn placement_ildn_both_naming_the_pdb() {
    let s = split(&full_shader(&[]));
    let name = s.hash.pdb_name();
    for bytes in [&s.main, &s.pdb_container] {
        let c = Container::parse(bytes).unwrap();
        let n = DebugName::parse(&c.find(PartName::ILDN).unwrap()).unwrap();
        assert_eq!(n.name, name.as_bytes());
    }
    assert_eq!(s.debug_name, name);
    assert_eq!(s.pdb_path, Some(PathBuf::from(format!("out/{name}"))));
}

#[test]
fn placement_hash_both_and_guid() {
    let input = full_shader(&[]);
    let s = split(&input);
    assert_eq!(part(&s.main, PartName::HASH), part(&input, PartName::HASH));
    assert_eq!(
        part(&s.pdb_container, PartName::HASH),
        part(&input, PartName::HASH)
    );
    let pdb = Pdb::parse(&s.pdb).unwrap();
    assert_eq!(pdb.info().guid, md5_of(BC));
    assert_eq!(s.hash.digest, md5_of(BC));
}

#[test]
fn placement_srci_pdb_only() {
    let input = full_shader(&[]);
    let s = split(&input);
    assert!(!has(&s.main, PartName::SRCI));
    assert_eq!(
        part(&s.pdb_container, PartName::SRCI),
        part(&input, PartName::SRCI)
    );
}

#[test]
fn placement_vers_both() {
    let input = full_shader(&[]);
    let s = split(&input);
    assert_eq!(part(&s.main, PartName::VERS), part(&input, PartName::VERS));
    assert_eq!(
        part(&s.pdb_container, PartName::VERS),
        part(&input, PartName::VERS)
    );
}

#[test]
fn placement_priv_main_only_holding_the_pdb() {
    let input = full_shader(&[(b"PRIV", b"old private")]);
    let s = split_with(
        &input,
        SplitOptions {
            target: None,
            pdb_in_private: true,
        },
        |_| {},
    )
    .unwrap();
    let main = Container::parse(&s.main).unwrap();
    let priv_part = main.find(PartName::PRIV).unwrap();
    assert_eq!(priv_part.index + 1, main.part_count(), "PRIV is last");
    assert_eq!(priv_part.data, &s.pdb[..], "PRIV holds the PDB, unpadded");
    assert!(!has(&s.pdb_container, PartName::PRIV));
    assert!(s.warnings.contains(&EditWarning::PrivateReplacedByPdb));
    assert_eq!(s.pdb_path, None);
    assert_eq!(main.digest_kind(), DigestKind::Retail);
    assert_eq!(extract_private_pdb(&main).unwrap(), &s.pdb[..]);
}

// --- split --------------------------------------------------------------

#[test]
fn split_layout_order_digest_and_signing() {
    let input = full_shader(&[]);
    let s = split(&input);
    let main = Container::parse(&s.main).unwrap();
    assert_eq!(
        names(&main),
        ["SFI0", "STAT", "ILDN", "HASH", "DXIL", "VERS"]
    );
    assert_eq!(main.digest_kind(), DigestKind::Retail);
    let pc = Container::parse(&s.pdb_container).unwrap();
    assert_eq!(names(&pc), ["ILDN", "HASH", "SRCI", "VERS", "ILDB"]);
    assert_eq!(pc.header().digest, main.header().digest, "digest copied");
    assert_eq!((pc.header().major, pc.header().minor), (1, 0));
    assert_eq!(pc.digest_kind(), DigestKind::Invalid);
}

#[test]
fn split_refuses_without_debug_info() {
    let input = ContainerBuilder::new()
        .hash_of_dxil()
        .pixel_program(b"DXIL", BC)
        .build()
        .unwrap();
    let e = split_with(&input, SplitOptions::default(), |_| {})
        .err()
        .unwrap();
    assert!(matches!(e, EditError::NoDebugInfo), "{e:?}");
}

#[test]
fn split_computes_missing_hash() {
    let input = ContainerBuilder::new()
        .program(b"DXIL", ShaderKind::Vertex, (6, 0), (1, 0), BC)
        .program(b"ILDB", ShaderKind::Vertex, (6, 0), (1, 0), BC_DEBUG)
        .build()
        .unwrap();
    let s = split(&input);
    let main = Container::parse(&s.main).unwrap();
    assert_eq!(names(&main), ["ILDN", "HASH", "DXIL"]);
    let h = ShaderHash::parse(&main.find(PartName::HASH).unwrap()).unwrap();
    assert_eq!((h.flags, h.digest), (0, md5_of(BC)));
    assert_eq!(h.verify(&main), HashStatus::Valid);
    assert!(matches!(
        &s.warnings[..],
        [EditWarning::HashAdded {
            source: PartName::DXIL,
            ..
        }]
    ));
    // No DXIL: the hash covers the ILDB bitcode, flagged IncludesSource.
    let input = ContainerBuilder::new()
        .part(b"PSV0", &[0; 8])
        .program(b"ILDB", ShaderKind::Vertex, (6, 0), (1, 0), BC_DEBUG)
        .build()
        .unwrap();
    let s = split(&input);
    let pc = Container::parse(&s.pdb_container).unwrap();
    let h = ShaderHash::parse(&pc.find(PartName::HASH).unwrap()).unwrap();
    assert_eq!(
        (h.flags, h.digest),
        (FLAG_INCLUDES_SOURCE, md5_of(BC_DEBUG))
    );
    assert_eq!(h.verify(&pc), HashStatus::Valid);
    // Neither program: nothing to hash.
    let input = ContainerBuilder::new()
        .part(b"SRCI", &[0; 4])
        .build()
        .unwrap();
    let e = split_with(&input, SplitOptions::default(), |_| {})
        .err()
        .unwrap();
    assert!(matches!(e, EditError::NoProgramToHash), "{e:?}");
}

#[test]
fn pdb_targets_and_separators() {
    let hash = ShaderHash {
        flags: 0,
        digest: [0xab; 16],
    };
    let hex = "ab".repeat(16);
    // (argument, ILDN name, file written)
    let table: &[(&str, String, String)] = &[
        ("shader.pdb", "shader.pdb".into(), "shader.pdb".into()),
        (
            "out/shader.pdb",
            "out/shader.pdb".into(),
            "out/shader.pdb".into(),
        ),
        (
            "out\\shader.pdb",
            "out\\shader.pdb".into(),
            native("out\\shader.pdb"),
        ),
        ("out/", format!("{hex}.pdb"), format!("out/{hex}.pdb")),
        (
            "out\\",
            format!("{hex}.pdb"),
            native(&format!("out\\{hex}.pdb")),
        ),
        (
            "a\\b/",
            format!("{hex}.pdb"),
            native(&format!("a\\b/{hex}.pdb")),
        ),
        ("", format!("{hex}.pdb"), format!("{hex}.pdb")),
    ];
    for (arg, name, file) in table {
        let t = PdbTarget::parse(arg);
        assert_eq!(&t.debug_name(&hash), name, "{arg}");
        assert_eq!(t.file_path(&hash), PathBuf::from(file), "{arg}");
    }
}

fn native(path: &str) -> String {
    if cfg!(windows) {
        path.to_string()
    } else {
        path.replace('\\', "/")
    }
}

#[test]
fn split_file_target_names_ildn_exactly() {
    let s = split_with(
        &full_shader(&[]),
        SplitOptions {
            target: Some(PdbTarget::parse("..\\pdb\\forward_ps.pdb")),
            pdb_in_private: false,
        },
        |_| {},
    )
    .unwrap();
    let main = Container::parse(&s.main).unwrap();
    let n = DebugName::parse(&main.find(PartName::ILDN).unwrap()).unwrap();
    assert_eq!(n.name, b"..\\pdb\\forward_ps.pdb");
    assert_eq!(n.file_name(), b"forward_ps.pdb");
    assert_eq!(
        s.pdb_path,
        Some(PathBuf::from(native("..\\pdb\\forward_ps.pdb")))
    );
}

// --- join ---------------------------------------------------------------

fn join(main: &[u8], pdb_file_or_container: &[u8], force: bool) -> Result<(Vec<u8>, Pairing)> {
    let input = dxcopy_read::container_input(pdb_file_or_container).unwrap();
    let guid = match input.source {
        dxcopy_read::ContainerSource::PdbStream5 { info } => Some(info.guid),
        dxcopy_read::ContainerSource::Container => None,
    };
    let pdb = Container::parse(&input.bytes).unwrap();
    let c = Container::parse(main).unwrap();
    let mut plan = EditPlan::from_container(&c);
    let pairing = add_debug_from(&mut plan, &pdb, guid, force)?;
    Ok((plan.finish()?.to_vec(), pairing))
}

#[test]
fn split_then_join_restores_the_shader_byte_for_byte() {
    // dxc /Zi /Qembed_debug output: no SRCI in the main container; the
    // ILDN already holds the default name, so the round trip is exact.
    let plain = ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .pixel_program(b"ILDB", BC_DEBUG)
        .part(b"STAT", b"stat")
        .part(
            b"ILDN",
            &ildn(
                &ShaderHash {
                    flags: 0,
                    digest: md5_of(BC),
                }
                .pdb_name(),
            ),
        )
        .hash_of_dxil()
        .pixel_program(b"DXIL", BC)
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap();
    let s = split(&plain);
    let (joined, pairing) = join(&s.main, &s.pdb, false).unwrap();
    assert_eq!(pairing, Pairing::GuidIsHash);
    assert_eq!(joined, plain);
    // From the bare stream-5 container: paired by the copied digest.
    let (joined, pairing) = join(&s.main, &s.pdb_container, false).unwrap();
    assert_eq!(pairing, Pairing::DigestCopied);
    assert_eq!(joined, plain);
}

#[test]
fn join_puts_srci_and_ildb_back() {
    let input = full_shader(&[]);
    let s = split(&input);
    let (joined, _) = join(&s.main, &s.pdb, false).unwrap();
    let c = Container::parse(&joined).unwrap();
    assert_eq!(
        names(&c),
        ["SFI0", "SRCI", "ILDB", "STAT", "ILDN", "HASH", "DXIL", "VERS"]
    );
    for name in [PartName::ILDB, PartName::SRCI] {
        assert_eq!(part(&joined, name), part(&input, name));
    }
    // Joining into the PDB-style container (no DXIL) keeps dxc's PDB order.
    let pc = Container::parse(&s.pdb_container).unwrap();
    let mut plan = EditPlan::from_container(&pc);
    plan.parts_mut()
        .retain(|p| p.name != PartName::ILDB && p.name != PartName::SRCI);
    add_debug_from(&mut plan, &pc, None, false).unwrap();
    let rebuilt = plan.finish().unwrap().to_vec();
    assert_eq!(rebuilt, s.pdb_container);
}

#[test]
fn join_refuses_a_foreign_pdb_unless_forced() {
    let s = split(&full_shader(&[]));
    let other = ContainerBuilder::new()
        .hash_of_dxil()
        .pixel_program(b"DXIL", b"BC\xc0\xdeother")
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap();
    let e = join(&other, &s.pdb, false).err().unwrap();
    assert!(
        matches!(
            &e,
            EditError::PdbMismatch {
                reason: PdbMismatchReason::Guid {
                    shader_hash: Some(shader),
                    guid,
                },
            } if shader != guid
        ),
        "{e:?}"
    );
    assert_eq!(e.remedy(), Some(Remedy::Force));
    let (joined, pairing) = join(&other, &s.pdb, true).unwrap();
    assert!(matches!(pairing, Pairing::Forced { .. }));
    assert!(has(&joined, PartName::ILDB));
    // Bare container, shader without HASH and unsigned: nothing to pair by.
    let unsigned = ContainerBuilder::new()
        .pixel_program(b"DXIL", BC)
        .build()
        .unwrap();
    let e = join(&unsigned, &s.pdb_container, false).err().unwrap();
    assert!(
        matches!(
            &e,
            EditError::PdbMismatch {
                reason: PdbMismatchReason::HashPart {
                    shader_hash: None,
                    ..
                },
            }
        ),
        "{e:?}"
    );
    // Same HASH part, different digests: paired.
    let mut main = s.main.clone();
    main[4] ^= 1;
    let (_, pairing) = join(&main, &s.pdb_container, false).unwrap();
    assert_eq!(pairing, Pairing::SameHashPart);
    // A PDB container without debug parts.
    let empty = ContainerBuilder::new()
        .part(b"HASH", &[0; 20])
        .build()
        .unwrap();
    let e = join(&s.main, &empty, true).err().unwrap();
    assert!(matches!(e, EditError::PdbWithoutDebugInfo));
}

// --- naming and PRIV extraction -----------------------------------------

#[test]
fn set_debug_name_replaces_or_inserts() {
    let input = full_shader(&[]);
    let c = Container::parse(&input).unwrap();
    let mut plan = EditPlan::from_container(&c);
    set_debug_name(&mut plan, "dir\\new name.pdb").unwrap();
    let out = plan.finish().unwrap().to_vec();
    assert_eq!(part(&out, PartName::ILDN), &ildn("dir\\new name.pdb")[..]);
    assert_eq!(names(&Container::parse(&out).unwrap()), names(&c));
    // Inserted before HASH, or before DXIL when there is no HASH.
    for (with_hash, want) in [
        (true, &["SFI0", "ILDN", "HASH", "DXIL"][..]),
        (false, &["SFI0", "ILDN", "DXIL"][..]),
    ] {
        let mut b = ContainerBuilder::new().part(b"SFI0", &[0; 8]);
        if with_hash {
            b = b.hash_of_dxil();
        }
        let bytes = b.pixel_program(b"DXIL", BC).build().unwrap();
        let c = Container::parse(&bytes).unwrap();
        let mut plan = EditPlan::from_container(&c);
        set_debug_name(&mut plan, "x.pdb").unwrap();
        let out = plan.finish().unwrap().to_vec();
        assert_eq!(names(&Container::parse(&out).unwrap()), want);
        assert_eq!(part(&out, PartName::ILDN), b"\0\0\x05\0x.pdb\0\0\0");
    }
    let mut plan = EditPlan::from_container(&c);
    assert!(matches!(
        set_debug_name(&mut plan, ""),
        Err(EditError::EmptyDebugName)
    ));
    assert!(matches!(
        set_debug_name(&mut plan, "a\0b"),
        Err(EditError::BadDebugName { length: 3 })
    ));
    assert!(matches!(
        set_debug_name(&mut plan, &"x".repeat(70_000)),
        Err(EditError::BadDebugName { length: 70_000 })
    ));
}

#[test]
fn extract_private_pdb_checks_magic() {
    let none = full_shader(&[]);
    let e = extract_private_pdb(&Container::parse(&none).unwrap()).unwrap_err();
    assert!(matches!(
        e,
        EditError::Read(ReadError { kind: ReadErrorKind::PartNotFound { name }, .. }) if name == "PRIV"
    ));
    let not_pdb = full_shader(&[(b"PRIV", b"just data")]);
    let e = extract_private_pdb(&Container::parse(&not_pdb).unwrap()).unwrap_err();
    assert!(matches!(e, EditError::PrivNotPdb));
}

// --- driver (Config) ------------------------------------------------------

#[test]
fn config_splits_reads_pdbs_and_refuses_pdb_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.dxil");
    std::fs::write(&input, full_shader(&[])).unwrap();
    let pdb_path = dir.path().join("x.pdb");
    let split = Config {
        edits: Edits {
            split_debug: Some(pdb_path.to_string_lossy().into_owned()),
            ..Edits::default()
        },
        ..Config::default()
    };
    assert!(split.modifies());
    let out = dir.path().join("out.dxil");
    let r = split.run(&input, Some(&out)).unwrap();
    assert_eq!(r.pdb_written.as_deref(), Some(pdb_path.as_path()));
    assert!(!r.input_is_pdb);
    let pdb = std::fs::read(&pdb_path).unwrap();
    assert!(Pdb::parse(&pdb).is_ok());
    // Read-only on the PDB: works on stream 5 and says so.
    let dumped = dir.path().join("ildb.bc");
    let dump = Config {
        dumps: vec![DumpSpec {
            pattern: "ILDB".into(),
            path: dumped.clone(),
            mode: DumpMode::Bitcode,
        }],
        ..Config::default()
    };
    let r = dump.run(&pdb_path, None).unwrap();
    assert!(r.input_is_pdb && !r.wrote_output);
    assert_eq!(std::fs::read(&dumped).unwrap(), BC_DEBUG);
    // In place on a PDB is refused before anything is written; to a file it is a container.
    let e = Config::default().run(&pdb_path, None).unwrap_err();
    assert!(matches!(e, EditError::PdbInPlace));
    assert_eq!(std::fs::read(&pdb_path).unwrap(), pdb);
    let copy = dir.path().join("stream5.dxil");
    Config::default().run(&pdb_path, Some(&copy)).unwrap();
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        Pdb::parse(&pdb)
            .unwrap()
            .container_bytes()
            .unwrap()
            .to_vec()
    );
    // Errors about the stream-5 container say where they come from.
    let missing = Config {
        dumps: vec![DumpSpec {
            pattern: "RTS0".into(),
            path: dir.path().join("rts0.bin"),
            mode: DumpMode::Raw,
        }],
        ..Config::default()
    };
    let e = missing.run(&pdb_path, None).unwrap_err();
    assert!(matches!(e, EditError::InPdbStream(_)), "{e}");
    assert!(
        e.to_string()
            .starts_with("in the container in PDB stream 5"),
        "{e}"
    );
    // Join through the driver restores ILDB and SRCI.
    let join = Config {
        edits: Edits {
            add_debug_from: Some(pdb_path.clone()),
            ..Edits::default()
        },
        ..Config::default()
    };
    let joined = dir.path().join("joined.dxil");
    let r = join.run(&out, Some(&joined)).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let joined = std::fs::read(&joined).unwrap();
    assert!(has(&joined, PartName::ILDB) && has(&joined, PartName::SRCI));
}
