//! The file-to-file writer (`Output::write_file_from`) against the in-memory
//! one (`to_vec`): same bytes, digest, digest kind and warnings, over inputs
//! large enough for kernel copies and parallel hashing, contiguous or not,
//! under every digest policy.

use crate::*;
use dxcopy_read::digest::{self, BYPASS};
use dxcopy_read::ShaderKind;
use dxcopy_read::{Container, DigestKind, MappedFile, PartName};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};

const BC: &[u8] = b"BC\xc0\xde\x35\x14\0\0\x05\0\0\0";

fn filler(len: usize, seed: u32) -> Vec<u8> {
    (0..len as u32)
        .map(|i| (i.wrapping_mul(2_654_435_761).wrapping_add(seed) >> 13) as u8)
        .collect()
}

/// SFI0, HASH, DXIL, a big ILDB and a big PRIV: kernel-copy sized.
fn big(policy: DigestPolicy) -> Vec<u8> {
    let mut debug_bc = b"BC\xc0\xde".to_vec();
    debug_bc.extend(filler(100_000, 1));
    ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .hash_of_dxil()
        .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), BC)
        .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), &debug_bc)
        .part(b"STAT", b"stat")
        .part(b"PRIV", &filler(80_001, 2))
        .digest(policy)
        .build()
        .unwrap()
}

/// A small container: written in one call from memory.
fn small(policy: DigestPolicy) -> Vec<u8> {
    ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .hash_of_dxil()
        .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), BC)
        .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xdedbg")
        .part(b"PRIV", b"private")
        .digest(policy)
        .build()
        .unwrap()
}

/// `bytes` re-laid with a 3-byte gap before every part and the offset table
/// listing the parts in reverse file order; signed with `policy`.
fn scattered(bytes: &[u8], policy: DigestPolicy) -> Vec<u8> {
    let c = Container::parse(bytes).unwrap();
    let parts: Vec<_> = c.parts().collect();
    let table_end = 32 + 4 * parts.len();
    let mut out = bytes[..table_end].to_vec();
    let mut offsets = Vec::new();
    for p in &parts {
        out.extend_from_slice(b"gap");
        offsets.push(out.len() as u32);
        out.extend_from_slice(&p.name.0);
        out.extend_from_slice(&(p.data.len() as u32).to_le_bytes());
        out.extend_from_slice(p.data);
    }
    for (i, o) in offsets.iter().rev().enumerate() {
        out[32 + 4 * i..36 + 4 * i].copy_from_slice(&o.to_le_bytes());
    }
    let len = out.len() as u32;
    out[24..28].copy_from_slice(&len.to_le_bytes());
    sign(&mut out, policy);
    out
}

fn sign(bytes: &mut [u8], policy: DigestPolicy) {
    let d = match policy {
        DigestPolicy::Retail => digest::retail(&bytes[20..]),
        DigestPolicy::Debug => digest::debug(&bytes[20..]),
        DigestPolicy::Bypass => BYPASS,
        // Invalid: bytes that are no digest of the container.
        DigestPolicy::Keep => [0x5a; 16],
        _ => [0; 16],
    };
    bytes[4..20].copy_from_slice(&d);
}

type Edit = fn(&mut EditPlan<'_>);

const EDITS: [(&str, Edit); 6] = [
    ("no-op", |_| {}),
    ("strip debug", |p| {
        p.strip(StripClass::Debug);
    }),
    ("remove PRIV", |p| {
        p.strip(StripClass::Priv);
    }),
    ("only ILDB", |p| {
        p.only(&NameMatcher::from_patterns(&["ILDB"], MatchStyle::Glob).unwrap());
    }),
    ("new PRIV", |p| p.set_private(filler(70_000, 3))),
    ("add part", |p| {
        p.add(PartName(*b"FKE0"), b"abc".to_vec()).unwrap()
    }),
];

const POLICIES: [DigestPolicy; 5] = [
    DigestPolicy::Auto,
    DigestPolicy::Retail,
    DigestPolicy::Debug,
    DigestPolicy::Keep,
    DigestPolicy::Zero,
];

fn read_all(mut f: &File) -> Vec<u8> {
    f.seek(SeekFrom::Start(0)).unwrap();
    let mut v = Vec::new();
    f.read_to_end(&mut v).unwrap();
    v
}

/// Checks write_file_from against to_vec for one input file and every edit
/// and policy; `lead` bytes are written before the container.
fn check_input(input: &[u8], what: &str, lead: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.dxbc");
    std::fs::write(&path, input).unwrap();
    let mapped = MappedFile::open(&path).unwrap();
    let container = Container::parse(&mapped).unwrap();
    for (edit_name, edit) in EDITS {
        for policy in POLICIES {
            let case = format!("{what}, {edit_name}, {policy:?}");
            let finish = || {
                let mut plan = EditPlan::from_container(&container);
                plan.digest_policy = policy;
                edit(&mut plan);
                plan.finish().unwrap()
            };
            let reference = finish();
            let want = reference.to_vec();
            // A fresh output: the digest decision is the writer's to make.
            let out = finish();
            let mut file = tempfile::tempfile().unwrap();
            file.write_all(lead).unwrap();
            let d = out.write_file_from(&mapped, &mut file).unwrap();
            let got = read_all(&file);
            assert_eq!(&got[..lead.len()], lead, "{case}");
            let got = &got[lead.len()..];
            assert!(got == want, "{case}: bytes differ");
            assert_eq!(d, want[4..20], "{case}: returned digest");
            assert_eq!(out.digest_kind(), reference.digest_kind(), "{case}");
            assert_eq!(out.warnings(), reference.warnings(), "{case}");
            assert_eq!(out.digest(), d, "{case}: digest()");
            // The digest computed beside the copy equals the two-pass one.
            match reference.digest_kind() {
                DigestKind::Retail => assert_eq!(d, digest::retail(&want[20..]), "{case}"),
                DigestKind::Debug => assert_eq!(d, digest::debug(&want[20..]), "{case}"),
                _ => {}
            }
            // Writing again (decision now cached) gives the same bytes.
            let mut again = tempfile::tempfile().unwrap();
            out.write_file_from(&mapped, &mut again).unwrap();
            assert!(read_all(&again) == want, "{case}: second write");
        }
    }
}

#[test]
fn file_writer_matches_memory_writer() {
    let inputs = [
        ("big retail", big(DigestPolicy::Retail)),
        ("big debug", big(DigestPolicy::Debug)),
        ("big zero", big(DigestPolicy::Zero)),
        ("big bypass", big(DigestPolicy::Bypass)),
        ("small retail", small(DigestPolicy::Retail)),
    ];
    for (what, bytes) in &inputs {
        check_input(bytes, what, b"");
    }
    let mut invalid = big(DigestPolicy::Zero);
    sign(&mut invalid, DigestPolicy::Keep);
    check_input(&invalid, "big invalid", b"");
    check_input(&big(DigestPolicy::Retail), "big retail after lead", b"lead");
}

#[test]
fn file_writer_over_scattered_inputs() {
    let base = big(DigestPolicy::Zero);
    for policy in [DigestPolicy::Retail, DigestPolicy::Keep, DigestPolicy::Zero] {
        let bytes = scattered(&base, policy);
        let c = Container::parse(&bytes).unwrap();
        assert!(!c.is_contiguous());
        check_input(&bytes, &format!("scattered {policy:?}"), b"");
    }
}

#[test]
fn noop_of_a_contiguous_signed_input_is_identical() {
    for policy in [DigestPolicy::Retail, DigestPolicy::Debug] {
        let input = big(policy);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.dxbc");
        std::fs::write(&path, &input).unwrap();
        let mapped = MappedFile::open(&path).unwrap();
        let c = Container::parse(&mapped).unwrap();
        let out = EditPlan::from_container(&c).finish().unwrap();
        let mut file = tempfile::tempfile().unwrap();
        out.write_file_from(&mapped, &mut file).unwrap();
        assert!(read_all(&file) == input, "{policy:?}");
        assert_eq!(out.warnings(), []);
    }
}

#[test]
fn file_writer_with_another_source_writes_from_memory() {
    // The container is parsed from memory, not from the mapped file: every
    // byte is written from memory and the result is still right.
    let bytes = big(DigestPolicy::Retail);
    let c = Container::parse(&bytes).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.bin");
    std::fs::write(&other, &bytes).unwrap();
    let unrelated = MappedFile::open(&other).unwrap();
    let mut plan = EditPlan::from_container(&c);
    plan.strip(StripClass::Debug);
    let out = plan.finish().unwrap();
    let mut file = tempfile::tempfile().unwrap();
    out.write_file_from(&unrelated, &mut file).unwrap();
    let got = read_all(&file);
    assert!(got == out.to_vec());
    assert_eq!(
        Container::parse(&got).unwrap().digest_kind(),
        DigestKind::Retail
    );
}

#[test]
fn big_dumps_and_extracts_are_byte_identical() {
    let input = big(DigestPolicy::Retail);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.dxbc");
    std::fs::write(&path, &input).unwrap();
    let c = Container::parse(&input).unwrap();
    let cfg = Config {
        dumps: ["PRIV", "ILDB"]
            .iter()
            .map(|name| DumpSpec {
                pattern: name.to_string(),
                path: dir.path().join(name),
                mode: DumpMode::Raw,
            })
            .chain([DumpSpec {
                pattern: "ILDB".into(),
                path: dir.path().join("ILDB.bc"),
                mode: DumpMode::Bitcode,
            }])
            .collect(),
        extracts: vec![("PRIV".into(), dir.path().join("PRIV.dxbc"))],
        ..Config::default()
    };
    cfg.run(&path, None).unwrap();
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert!(read("PRIV") == c.find(PartName::PRIV).unwrap().data);
    let ildb = c.find(PartName::ILDB).unwrap();
    assert!(read("ILDB") == ildb.data);
    let program = dxcopy_read::Program::parse(&ildb).unwrap();
    assert!(read("ILDB.bc") == program.bitcode);
    let extracted = read("PRIV.dxbc");
    let e = Container::parse(&extracted).unwrap();
    assert_eq!(e.digest_kind(), DigestKind::Retail);
    assert!(e.find(PartName::PRIV).unwrap().data == c.find(PartName::PRIV).unwrap().data);
    // The input is untouched.
    assert!(std::fs::read(&path).unwrap() == input);
}

#[test]
fn config_run_writes_big_outputs_like_to_vec() {
    for policy in [DigestPolicy::Retail, DigestPolicy::Zero] {
        let input = big(policy);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.dxbc");
        std::fs::write(&path, &input).unwrap();
        let c = Container::parse(&input).unwrap();
        let mut plan = EditPlan::from_container(&c);
        plan.strip(StripClass::Debug);
        let want = plan.finish().unwrap().to_vec();
        let cfg = Config {
            edits: Edits {
                strip: vec![StripClass::Debug],
                ..Edits::default()
            },
            ..Config::default()
        };
        // To a new path, then in place: both give the in-memory writer's bytes.
        let out = dir.path().join("out.dxbc");
        let report = cfg.run(&path, Some(&out)).unwrap();
        assert!(std::fs::read(&out).unwrap() == want, "{policy:?}");
        assert_eq!(report.output_digest, Some(c.digest_kind()));
        assert_eq!(report.parts_after, 5);
        cfg.run(&path, None).unwrap();
        assert!(std::fs::read(&path).unwrap() == want, "{policy:?} in place");
    }
}
