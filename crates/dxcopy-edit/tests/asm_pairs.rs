//! Microsoft's own assembler test pairs (tests/data/dxbc2dxil-asm, from
//! DirectXShaderCompiler; see the README there): each `.asm`, in Microsoft's
//! free syntax, assembled by dxcopy's assembler, compared with the program
//! of the `.dxbc` Microsoft's assembler made from it. And `patch_container`
//! (`dxasm --into`) keeping every other part byte for byte.

use dxcopy_edit::asm::{self, AsmOptions, FloatHints, ImmediateEncoding};
use dxcopy_edit::{ContainerBuilder, DigestPolicy};
use dxcopy_read::{Container, DigestKind, PartName};
use std::path::Path;

fn data(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/dxbc2dxil-asm")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn program_of(container: &[u8]) -> Vec<u8> {
    let c = Container::parse(container).unwrap();
    dxcopy_read::listing::dxbc::shader_part(&c)
        .unwrap()
        .data
        .to_vec()
}

#[test]
fn microsoft_pairs_assemble_to_their_programs() {
    let mut identical = Vec::new();
    for name in ["call2", "cs3", "hs3", "indexabletemp4", "indexabletemp6"] {
        let text = String::from_utf8(data(&format!("{name}.asm"))).unwrap();
        let a = asm::assemble(&text, &mut FloatHints::none())
            .unwrap_or_else(|e| panic!("{name}.asm:{e}"));
        assert_eq!(
            a.program,
            program_of(&data(&format!("{name}.dxbc"))),
            "{name}"
        );
        identical.push(name);
    }
    // cyclecounter.asm writes `mov r0, l(0,0,0,0)`: Microsoft's assembler
    // made that a one-value immediate, fxc (whose listings print the same
    // text for four values) writes four. dxcopy follows fxc by default and
    // Microsoft's assembler with `ImmediateEncoding::Compact`.
    let text = String::from_utf8(data("cyclecounter.asm")).unwrap();
    let theirs = program_of(&data("cyclecounter.dxbc"));
    let compact = AsmOptions {
        immediates: ImmediateEncoding::Compact,
    };
    let ours = asm::assemble_with(&text, &mut FloatHints::none(), &compact)
        .unwrap()
        .program;
    assert_eq!(ours, theirs, "cyclecounter, compact immediates");
    identical.push("cyclecounter");
    let fxc = asm::assemble(&text, &mut FloatHints::none())
        .unwrap()
        .program;
    let words = |d: &[u8]| -> Vec<u32> {
        d.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let (fxc, theirs) = (words(&fxc), words(&theirs));
    // mov r0.xyzw, l(0,0,0,0): 8 words as fxc writes it, 5 in Microsoft's.
    assert_eq!(
        fxc[9..17],
        [0x0800_0036, 0x0010_00f2, 0, 0x0000_4002, 0, 0, 0, 0]
    );
    assert_eq!(theirs[9..14], [0x0500_0036, 0x0010_00f2, 0, 0x0000_4001, 0]);
    assert_eq!(fxc[17..], theirs[14..]);
    assert_eq!(identical.len(), 6);
    println!(
        "6 of 6 Microsoft pairs identical: {identical:?} (cyclecounter with compact immediates)"
    );
}

/// Compact immediates: only four values with the same bits become one;
/// different values, one value and doubles are unchanged.
#[test]
fn compact_immediates_shrink_only_four_equal_values() {
    let program = |body: &str, immediates| {
        let text = format!("ps_5_0\ndcl_temps 1\n{body}\nret\n");
        let a =
            asm::assemble_with(&text, &mut FloatHints::none(), &AsmOptions { immediates }).unwrap();
        a.program[8..a.program.len() - 4]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect::<Vec<u32>>()
    };
    let c = ImmediateEncoding::Compact;
    // dcl_temps 1 is 2 words; the mov follows.
    assert_eq!(
        program("mov r0.xyzw, l(1.0, 1.0, 1.0, 1.0)", c)[2..],
        [0x0500_0036, 0x0010_00f2, 0, 0x0000_4001, 0x3f80_0000]
    );
    assert_eq!(
        program("mov r0.xyzw, l(1.0, 1.0, 1.0, 2.0)", c)[2..],
        [
            0x0800_0036,
            0x0010_00f2,
            0,
            0x0000_4002,
            0x3f80_0000,
            0x3f80_0000,
            0x3f80_0000,
            0x4000_0000
        ]
    );
    // -0.0 and 0.0 differ in their bits: kept as four.
    assert_eq!(
        program("mov r0.xyzw, l(0, -0.0, 0, 0)", c)[2..5],
        [0x0800_0036, 0x0010_00f2, 0]
    );
    assert_eq!(
        program("mov r0.xyzw, l(7)", c),
        program("mov r0.xyzw, l(7)", ImmediateEncoding::Fxc)
    );
}

const LISTING: &str = "\
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// TEXCOORD                 0   xy          0     NONE   float   xy  
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
mov o0.xyzw, l(0.333333, 0.500000, 0.000000, 1.000000)
ret 
// Approximately 2 instruction slots used
";

#[test]
fn into_keeps_every_other_part_and_resigns() {
    let original_assembly = asm::assemble(LISTING, &mut FloatHints::none()).unwrap();
    // An "original" whose float is 1/3 exactly as fxc would have written it.
    let third = (1.0f32 / 3.0).to_bits().to_le_bytes();
    let mut program = original_assembly.program.clone();
    let at = program
        .windows(4)
        .position(|w| w == 0.333333f32.to_bits().to_le_bytes())
        .unwrap();
    program[at..at + 4].copy_from_slice(&third);
    let isgn = original_assembly.signatures[0].to_part(PartName::ISGN);
    let osgn = original_assembly.signatures[1].to_part(PartName::OSGN);
    let stat = vec![7u8; 148];
    let original = ContainerBuilder::new()
        .part(b"RDEF", b"resource definitions, kept")
        .padded_part(b"ISGN", &isgn)
        .padded_part(b"OSGN", &osgn)
        .padded_part(b"SHEX", &program)
        .padded_part(b"STAT", &stat)
        .part(b"PRIV", b"private")
        .digest(DigestPolicy::Retail)
        .build()
        .unwrap();
    // Unchanged listing: the same program (1/3 recovered from the original).
    let same = asm::patch_container(&original, LISTING).unwrap();
    assert!(!same.program_changed);
    assert!(same.warnings.is_empty(), "{:?}", same.warnings);
    assert_eq!(same.bytes, original);
    // An edit: every other part byte for byte, STAT handled, re-signed.
    let edited = LISTING.replace(
        "ret ",
        "mul o0.xyzw, o0.xyzw, l(2.000000, 2.000000, 2.000000, 2.000000)\nret ",
    );
    let patched = asm::patch_container(&original, &edited).unwrap();
    assert!(patched.program_changed);
    let before = Container::parse(&original).unwrap();
    let after = Container::parse(&patched.bytes).unwrap();
    assert_eq!(after.digest_kind(), DigestKind::Retail);
    for name in [b"RDEF", b"ISGN", b"OSGN", b"PRIV"] {
        let name = PartName(*name);
        assert_eq!(
            after.find(name).unwrap().data,
            before.find(name).unwrap().data,
            "{name}"
        );
    }
    let shex = after.find(PartName(*b"SHEX")).unwrap().data;
    assert_ne!(shex, before.find(PartName(*b"SHEX")).unwrap().data);
    // The untouched immediate keeps the original's bits.
    assert!(shex.windows(4).any(|w| w == third));
    // This STAT is not fxc's for the old program: it is dropped, said so.
    assert!(after.find(PartName::STAT).is_none());
    assert_eq!(patched.warnings, [asm::AsmWarning::StatDropped]);
}

#[test]
fn a_new_container_holds_the_signatures_and_program_signed() {
    let a = asm::assemble(LISTING, &mut FloatHints::none()).unwrap();
    let bytes = asm::build_container(&a).unwrap();
    let c = Container::parse(&bytes).unwrap();
    let names: Vec<String> = c.parts().map(|p| p.name.to_string()).collect();
    assert_eq!(names, ["ISGN", "OSGN", "SHEX"]);
    assert_eq!(c.digest_kind(), DigestKind::Retail);
    // The signature parts read back as the tables say.
    let isgn = dxcopy_read::signature::Signature::parse(&c.find(PartName::ISGN).unwrap())
        .unwrap()
        .unwrap();
    let e = &isgn.elements[0];
    assert_eq!(
        (e.name, e.semantic_index, e.register, e.mask, e.rw_mask),
        (&b"TEXCOORD"[..], 0, 0, 3, 3)
    );
    let osgn = dxcopy_read::signature::Signature::parse(&c.find(PartName::OSGN).unwrap())
        .unwrap()
        .unwrap();
    let e = &osgn.elements[0];
    assert_eq!(
        (e.name, e.system_value.raw(), e.mask, e.rw_mask),
        (&b"SV_Target"[..], 0, 0xf, 0)
    );
}

/// A comment-class `customdata` block is not printed (by Microsoft's
/// disassembler nor dxinfo): the check names the first token that differs.
#[test]
fn check_names_the_first_differing_token() {
    // ps_5_0: customdata (class 0, 3 words), ret.
    let words = [0x50u32, 6, 0x0000_0035, 3, 0xdead_beef, 0x0100_003e];
    let data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let bytes = ContainerBuilder::new()
        .part(b"SHEX", &data)
        .build()
        .unwrap();
    let c = Container::parse(&bytes).unwrap();
    let result = asm::check_round_trip(&c, &Default::default()).unwrap();
    assert_eq!(
        result,
        asm::RoundTrip::Differs {
            token: 1,
            original: Some(6),
            assembled: Some(3),
            line: "ps_5_0".into(),
        }
    );
}
