//! Plan, layout, digest and HASH upkeep tests over containers made by the builder.

use crate::*;
use dxcopy_read::hash::{md5_of, HashStatus, ShaderHash};
use dxcopy_read::ShaderKind;
use dxcopy_read::{Container, DigestKind, PartName, Program, ReadError, ReadErrorKind};

const BC: &[u8] = b"BC\xc0\xde\x01\x02\x03";
const BC_DEBUG: &[u8] = b"BC\xc0\xde\x09\x09\x09\x09\x09";

fn signed_shader() -> Vec<u8> {
    ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .part(b"ILDN", b"\0\0\x05\0a.pdb\0\0\0")
        .hash_of_dxil()
        .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), BC)
        .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), BC_DEBUG)
        .part(b"STAT", b"stat")
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap()
}

use dxcopy_harness::part_names as names;

fn run(input: &[u8], edit: impl FnOnce(&mut EditPlan<'_>)) -> (Vec<u8>, Vec<EditWarning>) {
    let c = Container::parse(input).unwrap();
    let mut plan = EditPlan::from_container(&c);
    edit(&mut plan);
    let out = plan.finish().unwrap();
    (out.to_vec(), out.warnings().to_vec())
}

fn glob(p: &str) -> NameMatcher {
    NameMatcher::from_patterns(&[p], MatchStyle::Glob).unwrap()
}

#[test]
fn builder_output_is_valid_and_signed() {
    let bytes = signed_shader();
    let c = Container::parse(&bytes).unwrap();
    assert_eq!(
        names(&bytes),
        ["SFI0", "ILDN", "HASH", "DXIL", "ILDB", "STAT"]
    );
    assert_eq!(c.digest_kind(), DigestKind::Retail);
    assert!(c.is_contiguous());
    let h = ShaderHash::parse(&c.find(PartName::HASH).unwrap()).unwrap();
    assert_eq!(h.verify(&c), HashStatus::Valid);
    assert_eq!(h.digest, md5_of(BC));
}

#[test]
fn noop_rewrite_is_byte_identical() {
    let bytes = signed_shader();
    let (out, warnings) = run(&bytes, |_| {});
    assert_eq!(out, bytes);
    assert!(warnings.is_empty());
}

#[test]
fn empty_container_layout() {
    let out = EditPlan::new().finish().unwrap().to_vec();
    let mut want = b"DXBC".to_vec();
    want.extend_from_slice(&[0; 16]);
    want.extend_from_slice(&[1, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(out, want);
    // Removing everything gives the same 32-byte container.
    let (out, _) = run(&signed_shader(), |p| {
        p.remove(&glob("*"));
        p.digest_policy = DigestPolicy::Zero;
    });
    assert_eq!(out, want);
}

#[test]
fn strip_debug_resigns_and_keeps_hash() {
    let bytes = signed_shader();
    let (out, warnings) = run(&bytes, |p| {
        assert_eq!(p.strip(StripClass::Debug), 1);
    });
    assert_eq!(names(&out), ["SFI0", "ILDN", "HASH", "DXIL", "STAT"]);
    let c = Container::parse(&out).unwrap();
    assert_eq!(c.digest_kind(), DigestKind::Retail);
    assert_eq!(
        c.find(PartName::HASH).unwrap().data,
        Container::parse(&bytes)
            .unwrap()
            .find(PartName::HASH)
            .unwrap()
            .data
    );
    assert!(c.is_contiguous());
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn keep_exempts_from_removal_and_strip() {
    let (out, _) = run(&signed_shader(), |p| {
        p.keep(&glob("ILDB"));
        p.strip(StripClass::All);
        p.remove(&glob("IL*"));
    });
    assert_eq!(names(&out), ["SFI0", "HASH", "DXIL", "ILDB"]);
}

#[test]
fn only_keeps_matching() {
    let (out, _) = run(&signed_shader(), |p| {
        p.only(&glob("?XIL"));
    });
    assert_eq!(names(&out), ["DXIL"]);
}

#[test]
fn add_pads_to_four_and_priv_stays_last_unpadded() {
    let (out, _) = run(&signed_shader(), |p| {
        p.set_private(vec![0xde, 0xad, 0xbe, 0xef, 0x42]);
        p.add(PartName(*b"FKE0"), b"abcde".to_vec()).unwrap();
    });
    let c = Container::parse(&out).unwrap();
    let parts: Vec<_> = c.parts().collect();
    let n = parts.len();
    assert_eq!(parts[n - 2].name.0, *b"FKE0");
    assert_eq!(parts[n - 2].data, b"abcde\0\0\0");
    assert_eq!(parts[n - 1].name, PartName::PRIV);
    assert_eq!(parts[n - 1].data, &[0xde, 0xad, 0xbe, 0xef, 0x42]);
    assert_eq!(out.len() as u64, parts[n - 1].data_offset() + 5);
    assert_eq!(c.header().file_size as usize, out.len());
    let findings = c.check();
    // Only the unknown FKE0 name is reported: no PRIV, gap or FileSize findings.
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].kind, dxcopy_read::FindingKind::UnknownPart);
}

#[test]
fn set_private_replaces_and_strip_priv_removes() {
    let (once, _) = run(&signed_shader(), |p| p.set_private(b"one".to_vec()));
    let (twice, _) = run(&once, |p| p.set_private(b"second".to_vec()));
    let c = Container::parse(&twice).unwrap();
    assert_eq!(c.find(PartName::PRIV).unwrap().data, b"second");
    assert_eq!(c.parts().filter(|p| p.name == PartName::PRIV).count(), 1);
    let (none, _) = run(&twice, |p| {
        p.strip(StripClass::Priv);
    });
    assert!(Container::parse(&none)
        .unwrap()
        .find(PartName::PRIV)
        .is_none());
    assert_eq!(none, signed_shader());
}

#[test]
fn priv_not_last_in_input_is_moved() {
    // Hand-laid: PRIV first (the builder would already move it last).
    let mut input = b"DXBC".to_vec();
    input.extend_from_slice(&[0; 16]);
    input.extend_from_slice(&[
        1, 0, 0, 0, 67, 0, 0, 0, 2, 0, 0, 0, 40, 0, 0, 0, 51, 0, 0, 0,
    ]);
    input.extend_from_slice(b"PRIV\x03\0\0\0xyz");
    input.extend_from_slice(b"SFI0\x08\0\0\0\0\0\0\0\0\0\0\0");
    assert_eq!(input.len(), 67);
    assert_eq!(names(&input), ["PRIV", "SFI0"]);
    let (out, warnings) = run(&input, |_| {});
    assert_eq!(names(&out), ["SFI0", "PRIV"]);
    assert_eq!(warnings, [EditWarning::PrivMovedLast]);
}

#[test]
fn errors() {
    let bytes = signed_shader();
    let c = Container::parse(&bytes).unwrap();
    let mut plan = EditPlan::from_container(&c);
    assert!(matches!(
        plan.add(PartName::DXIL, vec![]),
        Err(EditError::AlreadyExists(n)) if n == PartName::DXIL
    ));
    assert!(matches!(
        plan.update(PartName(*b"NOPE"), vec![]),
        Err(EditError::Read(ReadError { kind: ReadErrorKind::PartNotFound { name }, .. })) if name == "NOPE"
    ));
    assert!(matches!(
        plan.replace_bitcode(PartName::PRIV, BC),
        Err(EditError::Read(ReadError { kind: ReadErrorKind::PartNotFound { name }, .. })) if name == "PRIV"
    ));
    assert!(matches!(
        plan.replace_bitcode(PartName::STAT, BC),
        Err(EditError::NotAProgram { .. })
    ));
    let two_priv = ContainerBuilder::new()
        .part(b"PRIV", b"a")
        .part(b"PRIV", b"b")
        .build();
    assert!(matches!(two_priv, Err(EditError::MultiplePriv(2))));
    let e = EditError::AlreadyExists(PartName::HASH);
    // The library says what happened; the front ends name what helps.
    assert_eq!(e.to_string(), "part 'HASH' already exists");
    assert_eq!(e.remedy(), Some(Remedy::UpdateInstead));
    let wrapped = EditError::InPdbStream(Box::new(EditError::MultiplePriv(2)));
    assert_eq!(wrapped.remedy(), Some(Remedy::StripOrReplacePriv));
    assert_eq!(
        EditError::NotBitcode(PartName::RDEF).remedy(),
        Some(Remedy::BitcodePart)
    );
    assert_eq!(EditError::EmptyPart(PartName::RDEF).remedy(), None);
}

#[test]
fn odd_sized_input_parts_keep_their_bytes_and_alignment() {
    // Old dxc wrote odd-sized ISG1; a no-op rewrite must keep it byte for byte.
    let input = ContainerBuilder::new()
        .part(b"ISG1", b"odd")
        .part(b"OSG1", b"x")
        .part(b"SFI0", &[0; 8])
        .build()
        .unwrap();
    let c = Container::parse(&input).unwrap();
    assert_eq!(c.part(1).unwrap().offset, 32 + 12 + 11);
    let (out, _) = run(&input, |_| {});
    assert_eq!(out, input);
    // Removing the first shifts the rest but keeps every byte.
    let (out, _) = run(&input, |p| {
        p.remove(&glob("ISG1"));
    });
    let c = Container::parse(&out).unwrap();
    assert_eq!(c.part(0).unwrap().data, b"x");
    assert_eq!(c.part(1).unwrap().offset, 32 + 8 + 9);
}

/// What `check` says about the layout (gaps, alignment, FileSize).
fn layout_findings(c: &Container<'_>) -> Vec<dxcopy_read::Finding> {
    use dxcopy_read::FindingKind as F;
    c.check()
        .into_iter()
        .filter(|f| {
            matches!(
                f.kind,
                F::Gap { .. } | F::Misaligned | F::FileSizeMismatch { .. }
            )
        })
        .collect()
}

#[test]
fn placed_parts_start_on_a_four_byte_boundary() {
    // Table end 40; SFI0 at 40..56; ISG1 at 56, ending unaligned at 67.
    let input = ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .part(b"ISG1", b"odd")
        .build()
        .unwrap();
    assert_eq!(input.len(), 40 + 16 + 8 + 3);
    let (out, _) = run(&input, |p| {
        p.add(PartName(*b"ZZZZ"), b"zz".to_vec()).unwrap()
    });
    // The table grew by 4: ISG1 now ends at 71; ZZZZ goes to 72 after one zero.
    let c = Container::parse(&out).unwrap();
    assert_eq!(c.part(1).unwrap().offset, 44 + 16);
    assert_eq!(c.part(1).unwrap().data, b"odd");
    assert_eq!(out[71], 0);
    assert_eq!(c.part(2).unwrap().offset, 72);
    assert_eq!(c.part(2).unwrap().data, b"zz\0\0");
    assert_eq!(layout_findings(&c), []);
    // PRIV too: aligned start, exact size, last.
    let (out, _) = run(&input, |p| p.set_private(b"p".to_vec()));
    let c = Container::parse(&out).unwrap();
    assert_eq!(c.part(2).unwrap().offset, 72);
    assert_eq!(c.part(2).unwrap().data, b"p");
    assert_eq!(out.len(), 72 + 8 + 1);
    assert_eq!(layout_findings(&c), []);
    // A replaced part is placed too.
    let (out, _) = run(&input, |p| {
        p.update(PartName(*b"ISG1"), b"even".to_vec()).unwrap()
    });
    let c = Container::parse(&out).unwrap();
    assert_eq!(c.part(1).unwrap().offset, 56);
    assert_eq!(out.len(), 56 + 8 + 4);
    // A no-op copy of the aligned output keeps its padding byte for byte,
    // and removing a part before it keeps the aligned part aligned.
    let (aligned, _) = run(&input, |p| {
        p.add(PartName(*b"ZZZZ"), b"zz".to_vec()).unwrap()
    });
    let (copy, _) = run(&aligned, |_| {});
    assert_eq!(copy, aligned);
    let (out, _) = run(&aligned, |p| {
        p.remove(&glob("SFI0"));
    });
    let c = Container::parse(&out).unwrap();
    assert_eq!(c.part(0).unwrap().offset, 40);
    assert_eq!(c.part(1).unwrap().offset, 40 + 8 + 3 + 1);
    assert_eq!(layout_findings(&c), []);
    // Input parts carried over keep their packing (as llvm-objcopy's do).
    let (out, _) = run(&input, |p| {
        p.remove(&glob("SFI0"));
    });
    assert_eq!(out.len(), 36 + 8 + 3);
}

#[test]
fn update_program_with_raw_bitcode_keeps_header_and_updates_hash() {
    let bytes = signed_shader();
    let new_bc = b"BC\xc0\xde\x07\x07\x07\x07\x07\x07".to_vec();
    let (out, warnings) = run(&bytes, |p| {
        p.update(PartName::DXIL, new_bc.clone()).unwrap()
    });
    let c = Container::parse(&out).unwrap();
    let prog = Program::parse(&c.find(PartName::DXIL).unwrap()).unwrap();
    assert_eq!(prog.bitcode, &new_bc[..]);
    assert_eq!(prog.shader_kind, ShaderKind::Pixel);
    assert_eq!((prog.model_major, prog.model_minor), (6, 0));
    assert!(prog.size_matches(c.find(PartName::DXIL).unwrap().size()));
    assert_eq!(c.find(PartName::DXIL).unwrap().size() % 4, 0);
    let h = ShaderHash::parse(&c.find(PartName::HASH).unwrap()).unwrap();
    assert_eq!(h.verify(&c), HashStatus::Valid);
    assert_eq!(c.digest_kind(), DigestKind::Retail);
    assert!(warnings.contains(&EditWarning::HashUpdated));
    assert!(warnings.contains(&EditWarning::ResignedWithoutValidation));
}

#[test]
fn hash_policies() {
    let bytes = signed_shader();
    let new_bc = b"BC\xc0\xde\x05".to_vec();
    // keep: HASH untouched (now stale).
    let (out, _) = run(&bytes, |p| {
        p.hash_policy = HashPolicy::Keep;
        p.replace_bitcode(PartName::DXIL, &new_bc).unwrap();
    });
    let c = Container::parse(&out).unwrap();
    let h = ShaderHash::parse(&c.find(PartName::HASH).unwrap()).unwrap();
    assert!(matches!(h.verify(&c), HashStatus::Mismatch { .. }));
    // auto with a stale HASH in the input: not updated, warned.
    let (out2, warnings) = run(&out, |p| p.replace_bitcode(PartName::DXIL, BC).unwrap());
    assert!(
        matches!(warnings[0], EditWarning::HashNotUpdated { .. }),
        "{warnings:?}"
    );
    let c2 = Container::parse(&out2).unwrap();
    assert_eq!(
        c2.find(PartName::HASH).unwrap().data,
        c.find(PartName::HASH).unwrap().data
    );
    // update: fixed.
    let (out3, _) = run(&out, |p| p.hash_policy = HashPolicy::Update);
    let c3 = Container::parse(&out3).unwrap();
    let h3 = ShaderHash::parse(&c3.find(PartName::HASH).unwrap()).unwrap();
    assert_eq!(h3.verify(&c3), HashStatus::Valid);
    // update with no HASH part: one is added before DXIL.
    let (no_hash, _) = run(&bytes, |p| {
        p.remove(&glob("HASH"));
    });
    let (added, _) = run(&no_hash, |p| p.hash_policy = HashPolicy::Update);
    assert_eq!(
        names(&added),
        ["SFI0", "ILDN", "HASH", "DXIL", "ILDB", "STAT"]
    );
    assert_eq!(added, bytes);
}

#[test]
fn hash_with_includes_source_follows_ildb() {
    let input = ContainerBuilder::new()
        .part(b"HASH", &ContainerBuilder::hash_part(1, BC_DEBUG))
        .program(b"DXIL", ShaderKind::Compute, (6, 6), (1, 6), BC)
        .program(b"ILDB", ShaderKind::Compute, (6, 6), (1, 6), BC_DEBUG)
        .build()
        .unwrap();
    // DXIL change does not touch a flags-1 HASH.
    let (out, w) = run(&input, |p| {
        p.replace_bitcode(PartName::DXIL, b"BC\xc0\xde\0").unwrap()
    });
    assert!(!w.contains(&EditWarning::HashUpdated));
    // ILDB change does.
    let (out, w) = run(&out, |p| {
        p.replace_bitcode(PartName::ILDB, b"BC\xc0\xde\x11")
            .unwrap()
    });
    assert!(w.contains(&EditWarning::HashUpdated));
    let c = Container::parse(&out).unwrap();
    let h = ShaderHash::parse(&c.find(PartName::HASH).unwrap()).unwrap();
    assert_eq!(h.flags, 1);
    assert_eq!(h.digest, md5_of(b"BC\xc0\xde\x11"));
    // Stripping ILDB leaves the flags-1 HASH as is (it still names the shader).
    let (stripped, w) = run(&out, |p| {
        p.strip(StripClass::Debug);
    });
    assert!(w.is_empty(), "{w:?}");
    let cs = Container::parse(&stripped).unwrap();
    assert_eq!(
        cs.find(PartName::HASH).unwrap().data,
        c.find(PartName::HASH).unwrap().data
    );
}

#[test]
fn digest_policies() {
    let retail = signed_shader();
    let strip = |input: &[u8], policy| {
        run(input, |p| {
            p.digest_policy = policy;
            p.strip(StripClass::Reflect);
        })
    };
    let table = [
        (DigestPolicy::Auto, DigestKind::Retail),
        (DigestPolicy::Retail, DigestKind::Retail),
        (DigestPolicy::Debug, DigestKind::Debug),
        (DigestPolicy::Zero, DigestKind::Zero),
        (DigestPolicy::Bypass, DigestKind::Bypass),
        (DigestPolicy::Preview, DigestKind::Preview),
        (DigestPolicy::Keep, DigestKind::Invalid),
    ];
    for (policy, want) in table {
        let (out, _) = strip(&retail, policy);
        assert_eq!(
            Container::parse(&out).unwrap().digest_kind(),
            want,
            "{policy:?}"
        );
    }
    // Keep copies the bytes.
    let (kept, _) = strip(&retail, DigestPolicy::Keep);
    assert_eq!(kept[4..20], retail[4..20]);
    // Auto follows the input's kind.
    for (input_policy, want) in [
        (DigestPolicy::Debug, DigestKind::Debug),
        (DigestPolicy::Zero, DigestKind::Zero),
        (DigestPolicy::Bypass, DigestKind::Bypass),
        (DigestPolicy::Preview, DigestKind::Preview),
    ] {
        let (input, _) = strip(&retail, input_policy);
        let (out, _) = run(&input, |p| {
            p.remove(&glob("SFI0"));
        });
        assert_eq!(
            Container::parse(&out).unwrap().digest_kind(),
            want,
            "{input_policy:?}"
        );
    }
    // Auto with an invalid input digest keeps it and warns.
    let (invalid, _) = strip(&retail, DigestPolicy::Keep);
    let (out, w) = run(&invalid, |p| {
        p.remove(&glob("SFI0"));
    });
    assert_eq!(out[4..20], retail[4..20]);
    assert!(w.contains(&EditWarning::InvalidDigestKept));
}

#[test]
fn finish_uses_a_digest_kind_the_caller_already_knows() {
    let retail = signed_shader();
    let c = Container::parse(&retail).unwrap();
    let finish = |kind: Option<DigestKind>, policy| {
        let mut plan = EditPlan::from_container(&c);
        plan.digest_policy = policy;
        if let Some(kind) = kind {
            plan.set_input_digest_kind(kind);
        }
        Container::parse(&plan.finish().unwrap().to_vec())
            .unwrap()
            .digest_kind()
    };
    assert_eq!(finish(None, DigestPolicy::Auto), DigestKind::Retail);
    // A deliberately different kind shows that finish did not classify the input itself.
    assert_eq!(
        finish(Some(DigestKind::Debug), DigestPolicy::Auto),
        DigestKind::Debug
    );
    // Other policies do not depend on the input's kind.
    assert_eq!(
        finish(Some(DigestKind::Debug), DigestPolicy::Retail),
        DigestKind::Retail
    );
    assert_eq!(
        finish(Some(DigestKind::Zero), DigestPolicy::Keep),
        DigestKind::Retail
    );
}

#[test]
fn seekable_and_plain_writers_agree() {
    let c_bytes = signed_shader();
    let c = Container::parse(&c_bytes).unwrap();
    let mut plan = EditPlan::from_container(&c);
    plan.strip(StripClass::Debug);
    let out = plan.finish().unwrap();
    let mut plain = Vec::new();
    let d1 = out.write_to(&mut plain).unwrap();
    let seek = out.to_vec();
    assert_eq!(plain, seek);
    assert_eq!(d1, out.digest());
    assert_eq!(out.file_size() as usize, seek.len());
    assert_eq!(out.digest_kind(), DigestKind::Retail);
}

#[test]
fn dump_and_extract() {
    let bytes = signed_shader();
    let c = Container::parse(&bytes).unwrap();
    assert_eq!(
        &dump(&c, &glob("DXIL"), "DXIL", DumpMode::Bitcode).unwrap()[..],
        BC
    );
    assert_eq!(
        &dump(&c, &glob("ILDB"), "ILDB", DumpMode::Bitcode).unwrap()[..],
        BC_DEBUG
    );
    let raw = dump(&c, &glob("DXIL"), "DXIL", DumpMode::Raw).unwrap();
    assert_eq!(raw.len(), 24 + BC.len() + 1);
    // fxc-style STAT is not a program part: dumped raw.
    assert_eq!(
        &dump(&c, &glob("STAT"), "STAT", DumpMode::Bitcode).unwrap()[..],
        b"stat"
    );
    assert!(matches!(
        dump(&c, &glob("NOPE"), "NOPE", DumpMode::Raw),
        Err(EditError::Read(ReadError { kind: ReadErrorKind::PartNotFound { name }, .. })) if name == "NOPE"
    ));
    let empty = ContainerBuilder::new().part(b"FKE0", b"").build().unwrap();
    let ce = Container::parse(&empty).unwrap();
    // An empty part: the exact (empty) data raw, an error as bitcode.
    assert_eq!(
        &dump(&ce, &glob("FKE0"), "FKE0", DumpMode::Raw).unwrap()[..],
        b""
    );
    assert!(matches!(
        dump(&ce, &glob("FKE0"), "FKE0", DumpMode::Bitcode),
        Err(EditError::EmptyPart(_))
    ));
    let plan = extract(&c, &glob("SFI0"), "SFI0").unwrap();
    let one = plan.finish().unwrap().to_vec();
    assert_eq!(names(&one), ["SFI0"]);
    assert_eq!(
        Container::parse(&one).unwrap().digest_kind(),
        DigestKind::Retail
    );
    assert_eq!(one.len(), 32 + 4 + 8 + 8);
}
