//! Unit tests of the assembler: text → exact token words, per instruction
//! family and operand form; every form printed back by the disassembler
//! as it was written; errors with their line and column.

use super::*;
use dxcopy_read::listing::dxbc::sm4::write_instruction;
use dxcopy_read::sm4::Program;

/// The program words of `body` under profile `profile`, after the two
/// header tokens.
fn words_of(profile: &str, body: &str) -> Vec<u32> {
    let text = format!("{profile}\n{body}\n");
    let a = assemble(&text, &mut FloatHints::none()).unwrap_or_else(|e| panic!("{text}: {e}"));
    let w: Vec<u32> = a
        .program
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(w[1] as usize, w.len(), "length token");
    w[2..].to_vec()
}

fn words(body: &str) -> Vec<u32> {
    words_of("ps_5_0", body)
}

fn error(text: &str) -> AsmError {
    assemble(text, &mut FloatHints::none()).unwrap_err()
}

#[test]
fn header_tokens_name_the_stage_and_model() {
    for (profile, version) in [
        ("ps_4_0", 0x0000_0040u32),
        ("vs_4_1", 0x0001_0041),
        ("gs_5_0", 0x0002_0050),
        ("hs_5_0", 0x0003_0050),
        ("ds_5_1", 0x0004_0051),
        ("cs_5_0", 0x0005_0050),
    ] {
        let a = assemble(&format!("{profile}\nret\n"), &mut FloatHints::none()).unwrap();
        assert_eq!(
            a.program,
            [version, 3, 0x0100_003e]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>()
        );
        let part = if profile.contains("_5_") {
            b"SHEX"
        } else {
            b"SHDR"
        };
        assert_eq!(a.program_part(), PartName(*part));
    }
}

#[test]
fn arithmetic_operands_masks_swizzles_modifiers() {
    // add_sat: opcode 0, bit 13; r0.xy mask; -r1.xxyz swizzle with a
    // negate extended token; |v0.x| a selected component, absolute.
    assert_eq!(
        words("add_sat r0.xy, -r1.xxyz, |v0.x|"),
        [
            0x0900_2000,
            0x0010_0032,
            0,
            0x8010_0906,
            0x41,
            1,
            0x8010_100a,
            0x81,
            0
        ]
    );
    assert_eq!(
        words("mad r2.w, -|r0.z|, r1.y, r3.x"),
        [
            0x0a00_0032,
            0x0010_0082,
            2,
            0x8010_002a,
            0xc1,
            0,
            0x0010_001a,
            1,
            0x0010_000a,
            3
        ]
    );
}

#[test]
fn immediates_of_every_form() {
    assert_eq!(
        words("mov r0.x, l(1.500000)"),
        [0x0500_0036, 0x0010_0012, 0, 0x0000_4001, 0x3fc0_0000]
    );
    assert_eq!(
        words("mov r0.xyzw, l(1.000000,0,-1,0x12345678)"),
        [
            0x0800_0036,
            0x0010_00f2,
            0,
            0x0000_4002,
            0x3f80_0000,
            0,
            0xffff_ffff,
            0x1234_5678
        ]
    );
    // Doubles: two per four words, low word first.
    assert_eq!(
        words("dmov r0.xy, d(1.500000l, -2.000000l)"),
        [
            0x0800_00c7,
            0x0010_0032,
            0,
            0x0000_5002,
            0,
            0x3ff8_0000,
            0,
            0xc000_0000
        ]
    );
    // Microsoft's specials and free-syntax bare numbers.
    assert_eq!(
        words("mov r0.xyzw, l(1.#INF00, -1.#IND00, 1.#QNAN0, -0.000000)")[4..],
        [0x7f80_0000, 0xffc0_0000, 0x7fc0_0000, 0x8000_0000]
    );
    assert_eq!(words("mov r0.x, 2.0f")[3..], [0x0000_4001, 0x4000_0000]);
    assert_eq!(words("mov r0.x, -3")[3..], [0x0000_4001, 0xffff_fffd]);
}

#[test]
fn flow_control_and_test_flags() {
    assert_eq!(words("if_nz r0.x"), [0x0304_001f, 0x0010_000a, 0]);
    assert_eq!(words("if_z r0.x"), [0x0300_001f, 0x0010_000a, 0]);
    assert_eq!(words("discard_nz r1.y")[0], 0x0304_000d);
    assert_eq!(
        words("else\nendif\nloop\nendloop\nbreak\ncontinue"),
        [
            0x0100_0012,
            0x0100_0015,
            0x0100_0030,
            0x0100_0016,
            0x0100_0002,
            0x0100_0007
        ]
    );
    assert_eq!(
        words("switch r0.x\ncase l(3)\ndefault\nendswitch")[3..7],
        [0x0300_0006, 0x0000_4001, 3, 0x0100_000a]
    );
}

#[test]
fn declarations() {
    assert_eq!(
        words("dcl_constantbuffer CB0[4], immediateIndexed"),
        [0x0400_0059, 0x0020_8e46, 0, 4]
    );
    assert_eq!(
        words("dcl_constantbuffer cb2[7], dynamicIndexed")[0],
        0x0400_0859
    );
    assert_eq!(
        words("dcl_sampler s1, mode_comparison"),
        [0x0300_085a, 0x0010_6000, 1]
    );
    // dimension 3 (texture2d) in bits 11–15, return types 5 in every nibble.
    assert_eq!(
        words("dcl_resource_texture2d (float,float,float,float) t0"),
        [0x0400_1858, 0x0010_7000, 0, 0x5555]
    );
    assert_eq!(
        words("dcl_resource_texture2dms(4) (float,float,float,float) t1")[0],
        0x0404_2058
    );
    assert_eq!(
        words("dcl_input_ps linear centroid v1.xy"),
        [0x0300_1862, 0x0010_1032, 1]
    );
    assert_eq!(
        words("dcl_output_siv o0.xyzw, position"),
        [0x0400_0067, 0x0010_20f2, 0, 1]
    );
    assert_eq!(words("dcl_temps 4"), [0x0200_0068, 4]);
    assert_eq!(words("dcl_indexableTemp x1[8], 4"), [0x0400_0069, 1, 8, 4]);
    assert_eq!(
        words("dcl_globalFlags refactoringAllowed | enableRawAndStructuredBuffers"),
        [0x0100_486a]
    );
    assert_eq!(
        words_of("cs_5_0", "dcl_thread_group 8, 4, 1"),
        [0x0400_009b, 8, 4, 1]
    );
    assert_eq!(
        words_of("cs_5_0", "dcl_tgsm_structured g0, 16, 64"),
        [0x0500_00a0, 0x0011_f000, 0, 16, 64]
    );
    // glc is bit 16 of the opcode token; structured UAVs: the stride.
    assert_eq!(
        words_of("cs_5_0", "dcl_uav_structured_glc u2, 12"),
        [0x0401_009e, 0x0011_e000, 2, 12]
    );
    // customdata class 3: opcode token, length, the values.
    assert_eq!(
        words("dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},\n  { 2, 3, 4, 5} }"),
        [0x0000_1835, 10, 0x3f80_0000, 0, 0, 0, 2, 3, 4, 5]
    );
}

#[test]
fn extended_opcode_tokens() {
    // _aoffimmi(-1,0,1): type 1, 4-bit offsets at 9, 13, 17.
    let w = words("sample_aoffimmi(-1,0,1) r0.xyzw, v0.xyxx, t0.xyzw, s0");
    assert_eq!(&w[..2], &[0x8a00_0045, 0x0002_1e01]);
    // _indexable(texture2d)(float,…): dimension token then return types,
    // chained by bit 31.
    let w = words("ld_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.xyzw, t0.xyzw");
    assert_eq!(&w[..3], &[0x8900_002d, 0x8000_00c2, 0x0015_5543]);
    let w = words("ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.x, r1.x, l(0), t0.xxxx");
    assert_eq!(w[1], 0x8000_8302);
    assert_eq!(
        words("resinfo_uint r0.x, l(0), t0.xyzw")[0] & 0x1800,
        0x1000
    );
    assert_eq!(words_of("cs_5_0", "sync_g_t")[0], 0x0100_18be);
    assert_eq!(words_of("cs_5_0", "sync_uglobal_g")[0], 0x0100_50be);
    // [precise(x)]: bits 19–22.
    assert_eq!(
        words("mul [precise(x)] r0.x, r1.x, r2.x")[0] & 0x0078_0000,
        0x0008_0000
    );
}

#[test]
fn indices_relative_and_sm51_ranges() {
    // cb0[r0.x + 2]: 2-D, the second index immediate + relative
    // (representation 3 in bits 25–27).
    assert_eq!(
        words("mov r1.x, cb0[r0.x + 2].y"),
        [
            0x0800_0036,
            0x0010_0012,
            1,
            0x0620_801a,
            0,
            2,
            0x0010_000a,
            0
        ]
    );
    // x0[r1.x + 0]: 2-D (register, then the relative index alone:
    // representation 2, no immediate).
    assert_eq!(
        words("mov r0.x, x0[r1.x + 0].x")[3..],
        [0x0420_300a, 0, 0x0010_000a, 1]
    );
    // SM5.1: T0[0:3] range and space, then the operand as 2-D.
    let w = words_of(
        "ps_5_1",
        "dcl_resource_texture2d (float,float,float,float) T0[0:3], space=1",
    );
    assert_eq!(w, [0x0700_1858, 0x0030_7e46, 0, 0, 3, 0x5555, 1]);
    let w = words_of(
        "ps_5_1",
        "dcl_constantbuffer CB1[2:2][16], immediateIndexed, space=0",
    );
    assert_eq!(w, [0x0700_0059, 0x0030_8e46, 1, 2, 2, 16, 0]);
    // nonuniform: bit 17 of the extended operand token.
    let w = words_of(
        "ps_5_1",
        "sample r0.xyzw, v0.xyxx, T0[r1.x + 0].xyzw { nonuniform }, S0[0]",
    );
    assert_eq!(w[5] & 0x8000_0000, 0x8000_0000);
    assert_eq!(w[6], 0x0002_0001);
}

#[test]
fn minimum_precision_annotations() {
    let w = words("add r0.x {min16f}, r1.x {min16f}, r2.x {def32 as min16f}");
    assert_eq!(w[1], 0x8010_0012);
    assert_eq!(w[2], 1 | (1 << 14));
    // The operand's own precision is the first name.
    assert_eq!(w[7..], [0x0010_000a, 2]);
}

/// Statements printed back by the disassembler exactly as written.
#[test]
fn every_family_prints_back_as_written() {
    let cases = [
        ("ps_5_0", "dcl_input_ps_siv linear noperspective v0.xyzw, position"),
        ("ps_5_0", "dcl_input_ps_sgv constant v2.x, is_front_face"),
        ("ps_5_0", "dcl_output oDepth"),
        ("ps_5_0", "dcl_resource_structured t6, 24 "),
        ("ps_5_0", "dcl_resource_raw t1"),
        ("ps_5_0", "dcl_uav_typed_texture2d (float,float,float,float) u1"),
        ("ps_5_0", "dcl_uav_raw_glc u0"),
        ("ps_5_0", "sample_l_indexable(texture2darray)(float,float,float,float) r0.xyzw, r1.xyzx, t2.xyzw, s1, l(0.000000)"),
        ("ps_5_0", "gather4_po_c_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, r1.xyxx, t0.xyzw, s0.x, r0.z"),
        ("ps_5_0", "movc r0.xyzw, r1.xxxx, l(1.000000,2.000000,0,0), r2.xyzw"),
        ("ps_5_0", "eval_sample_index r0.xy, v1.xyxx, l(3)"),
        ("ps_5_0", "imm_atomic_iadd r0.x, u0, l(0), l(1)"),
        ("ps_5_0", "store_structured u1.xyzw, r0.x, l(0), r2.xyzw"),
        ("ps_5_0", "dadd r0.xy, r1.xyxy, d(1.000000l, 0.000000l)"),
        ("ps_5_0", "ftod r0.xy, r1.x"),
        ("ps_5_0", "deriv_rtx_coarse r0.xy, v0.xyxx"),
        ("gs_5_0", "dcl_inputprimitive triangle "),
        ("gs_5_0", "dcl_outputtopology trianglestrip "),
        ("gs_5_0", "dcl_maxout 3"),
        ("gs_5_0", "dcl_stream m0"),
        ("gs_5_0", "emit_stream m1"),
        ("gs_5_0", "dcl_gsinstances 4"),
        ("gs_5_0", "mov o0.xyzw, v[2][0].xyzw"),
        ("hs_5_0", "hs_decls "),
        ("hs_5_0", "dcl_input_control_point_count 3"),
        ("hs_5_0", "dcl_tessellator_partitioning partitioning_fractional_odd"),
        ("hs_5_0", "dcl_tessellator_output_primitive output_triangle_cw"),
        ("hs_5_0", "dcl_hs_max_tessfactor l(64.000000)"),
        ("hs_5_0", "hs_fork_phase "),
        ("hs_5_0", "dcl_hs_fork_phase_instance_count 3"),
        ("hs_5_0", "mov o[r0.x + 0].x, vicp[0][1].x"),
        ("ds_5_0", "dcl_tessellator_domain domain_tri"),
        ("cs_5_0", "dcl_tgsm_raw g0, 1024"),
        ("cs_5_0", "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.xy, r1.x, t0.xyxx"),
        ("cs_5_0", "atomic_cmp_store g0, r1.x, r2.x, r3.x"),
        ("cs_5_0", "bfi r0.x, l(5), l(3), r1.x, r2.x"),
        ("ps_5_0", "dcl_function_body fb0"),
        ("ps_5_0", "dcl_function_table ft0 = {fb0, fb1}"),
        ("ps_5_0", "dcl_interface_dynamicindexed fp0[2][1] = {ft0, ft1}"),
        ("ps_5_0", "fcall fp0[r0.x + 0][0]"),
        ("ps_5_0", "mov r0.xyzw, this[0].xyzw"),
        ("ps_5_0", "sincos null, r0.x, r1.x"),
        ("ps_5_1", "dcl_uav_structured U0[1:*], 16, space=2"),
        ("ps_5_1", "dcl_sampler S2[0:0], mode_default, space=0"),
    ];
    for (profile, line) in cases {
        let text = format!("{profile}\n{line}\n");
        let a = assemble(&text, &mut FloatHints::none()).unwrap_or_else(|e| panic!("{line}: {e}"));
        let program = Program::decode(&a.program, 0).unwrap();
        let mut printed = String::new();
        write_instruction(
            &program,
            &program.instructions[0],
            &Default::default(),
            &mut printed,
        );
        assert_eq!(printed, line, "{profile}");
    }
}

#[test]
fn free_syntax_comments_case_and_spacing() {
    let text = "/* a block\n comment */ ps_5_0 // the profile\n; a semicolon comment\n\n  DCL_TEMPS   2 \nMov R0.XYZW ,  V0.xyzw  // trailing\n#line 3 \"x.hlsl\"\nret\n// Approximately 2 instruction slots used\n";
    let a = assemble(text, &mut FloatHints::none()).unwrap();
    let plain = assemble(
        "ps_5_0\ndcl_temps 2\nmov r0.xyzw, v0.xyzw\nret\n",
        &mut FloatHints::none(),
    )
    .unwrap();
    assert_eq!(a.program, plain.program);
    // Microsoft's free syntax: letters left out mean all four.
    assert_eq!(words("mov r0, v1"), words("mov r0.xyzw, v1.xyzw"));
    assert_eq!(words("MOV R0.X, L(2)"), words("mov r0.x, l(2)"));
    assert_eq!(words("mov r0.xyz, v1.xyz"), words("mov r0.xyz, v1.xyzz"));
    assert_eq!(
        words("dcl_output_sv o0.x, finalQuadUeq0EdgeTessFactor"),
        words("dcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor")
    );
    assert_eq!(words("dcl_indexRange o[0], o[3]")[3], 4);
}

#[test]
fn float_hints_recover_inexact_immediates() {
    // 1/3 prints as 0.333333; the nearest float to that text is another.
    let third = (1.0f32 / 3.0).to_bits();
    let reference = [0x50u32, 7, 0x0500_0036, 0x0010_0012, 0, 0x0000_4001, third];
    let program = Program::decode(
        &reference
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
        0,
    )
    .unwrap();
    let text = "ps_5_0\nmov r0.x, l(0.333333)\n";
    let nearest = assemble(text, &mut FloatHints::none()).unwrap();
    assert_eq!(nearest.program[24..28], 0.333333f32.to_bits().to_le_bytes());
    // Said so: the text may have lost digits (a sixth decimal not zero).
    assert_eq!(
        nearest.inexact,
        [InexactImmediate {
            line: 2,
            column: 13,
            text: "0.333333".into()
        }]
    );
    let hinted = assemble(text, &mut FloatHints::from_program(&program)).unwrap();
    assert_eq!(hinted.program[24..28], third.to_le_bytes());
    assert!(hinted.inexact.is_empty());
    // Exact-looking texts are not reported.
    let round = assemble("ps_5_0\nmov r0.x, l(0.500000)\n", &mut FloatHints::none()).unwrap();
    assert!(round.inexact.is_empty());
}

#[test]
fn errors_name_line_and_column() {
    let cases: [(&str, u32, u32, AsmErrorKind); 9] = [
        (
            "ps_5_0\ndcl_temps 1\n    mov q0.x, r0.x\n",
            3,
            9,
            AsmErrorKind::UnknownRegister("q0".into()),
        ),
        (
            "ps_5_0\nmovv r0.x, r1.x\n",
            2,
            1,
            AsmErrorKind::UnknownInstruction("movv".into()),
        ),
        (
            "ps_5_0\nif r0.x\n",
            2,
            1,
            AsmErrorKind::MissingTest("if".into()),
        ),
        (
            "ps_5_0\nmov r0.x, l(1.2.3)\n",
            2,
            13,
            AsmErrorKind::BadNumber("1.2.3".into()),
        ),
        (
            "ps_5_0\nmov r0.xq, r1.x\n",
            2,
            8,
            AsmErrorKind::BadComponents("xq".into()),
        ),
        (
            "ps_5_0\nmov r0.x r1.x\n",
            2,
            10,
            AsmErrorKind::Expected {
                expected: "',' between operands",
                found: "'r1'".into(),
            },
        ),
        ("// header\nmov r0.x, r1.x\n", 2, 1, AsmErrorKind::NoProfile),
        (
            "ps_5_0\nadd_foo r0.x, r1.x, r2.x\n",
            2,
            1,
            AsmErrorKind::UnknownSuffix {
                suffix: "foo".into(),
                instruction: "add_foo".into(),
            },
        ),
        (
            "ps_5_0\ndcl_resource_texture9d (float,float,float,float) t0\n",
            2,
            1,
            AsmErrorKind::UnknownSuffix {
                suffix: "texture9d".into(),
                instruction: "dcl_resource_texture9d".into(),
            },
        ),
    ];
    for (text, line, column, kind) in cases {
        assert_eq!(error(text), AsmError::new(line, column, kind), "{text}");
    }
    assert_eq!(
        error("ps_5_0\n\n  mov q0.x, r0.x\n").to_string(),
        "3:7: error: unknown register type 'q0'"
    );
}

#[test]
fn every_byte_is_assembled_or_an_error() {
    // The rest of the profile line.
    let e = error("ps_5_0 mov r0.x, r1.x\nret\n");
    assert_eq!((e.line, e.column), (1, 8));
    assert!(matches!(e.kind, AsmErrorKind::Expected { .. }), "{e}");
    // A comment after the profile is fine.
    words("ret // done");
    assert!(assemble("ps_5_0 // pixel\nret\n", &mut FloatHints::none()).is_ok());
    assert!(assemble("ps_5_0 /* a */ ; b\nret\n", &mut FloatHints::none()).is_ok());
    // An unclosed `/*` is an error at the `/*`, not the end of the program.
    let e = error("ps_5_0\nret\n  /* x\nmov r0.x, r1.x\n");
    assert_eq!(
        (e.line, e.column, e.kind),
        (3, 3, AsmErrorKind::UnclosedComment)
    );
    // A `/*` inside a `//` or `;` comment opens nothing.
    assert!(assemble("ps_5_0\nret // a /* b\n; c /* d\n", &mut FloatHints::none()).is_ok());
    // CR-only line ends end lines: the same program as with line feeds.
    let lf = assemble(
        "ps_5_0\ndcl_temps 1\nmov r0.x, r1.x\nret\n",
        &mut FloatHints::none(),
    );
    let cr = assemble(
        "ps_5_0\rdcl_temps 1\rmov r0.x, r1.x\rret\r",
        &mut FloatHints::none(),
    );
    let crlf = assemble(
        "ps_5_0\r\ndcl_temps 1\r\nmov r0.x, r1.x\r\nret\r\n",
        &mut FloatHints::none(),
    );
    assert_eq!(lf.as_ref().unwrap().program, cr.unwrap().program);
    assert_eq!(lf.unwrap().program, crlf.unwrap().program);
    // An error after CR-only line ends names its line.
    let e = error("ps_5_0\rret\r  movv r0.x, r1.x\r");
    assert_eq!((e.line, e.column), (3, 3));
}

#[test]
fn relative_indices_nest_to_a_limit() {
    let nested = |depth: usize| {
        let mut operand = "r0.x".to_string();
        for _ in 0..depth {
            operand = format!("x0[{operand} + 1].x");
        }
        format!("ps_5_0\ndcl_indexableTemp x0[4], 4\nmov r1.x, {operand}\nret\n")
    };
    let depth = MAX_RELATIVE_DEPTH as usize;
    assert!(assemble(&nested(depth), &mut FloatHints::none()).is_ok());
    let e = error(&nested(depth + 1));
    assert_eq!(
        e.kind,
        AsmErrorKind::NestedTooDeep {
            limit: MAX_RELATIVE_DEPTH
        }
    );
    assert_eq!(e.line, 3);
    // Thousands deep: the same error, no deep recursion.
    assert_eq!(error(&nested(5000)).kind, e.kind);
}

/// The operand token counts its indices in two bits: a fourth index is an
/// error at its `[` (it shifted a representation past the token's 32 bits,
/// found by the asm fuzz target).
#[test]
fn an_operand_takes_at_most_three_indices() {
    let three = "ps_5_1\ndcl_constantbuffer CB0[0:1][4], immediateIndexed, space=0\nret\n";
    if let Err(e) = assemble(three, &mut FloatHints::none()) {
        panic!("{e}");
    }
    let e = error("ps_5_0\ndcl_temps 1\nmov r0.x, cb0[1][2][3].x\nret\n");
    assert_eq!(
        e.kind,
        AsmErrorKind::TooManyIndices {
            limit: MAX_INDICES as u32
        }
    );
    assert_eq!((e.line, e.column), (3, 20));
    assert_eq!(
        e.to_string(),
        "3:20: error: an operand takes at most 3 indices"
    );
    // The fuzzer's input: five indices on a relative operand's register.
    let e = error("ps_5_0\ndcl_indexableTemp x0[0], 4\nmov r1.x, x0[x0[x0[x0].x+  1].x + 1][x0[x.x+  1].x + 1][x000][x]t\n");
    assert!(
        matches!(
            e.kind,
            AsmErrorKind::TooManyIndices { .. } | AsmErrorKind::UnknownRegister(_)
        ),
        "{e}"
    );
}

#[test]
fn long_lines_and_mnemonics_are_errors_with_their_columns() {
    // Columns count characters, carried along a long line.
    let text = format!("ps_5_0\n{}é\n", " ".repeat(100_000));
    let e = error(&text);
    assert_eq!((e.line, e.column), (2, 100_001));
    let text = format!("ps_5_0\n// é\n{}movv r0.x\n", "\t".repeat(1000));
    assert_eq!((error(&text).line, error(&text).column), (3, 1001));
    // A mnemonic of many `_`: an empty suffix at the first, found in one pass.
    let text = format!("ps_5_0\nmov{}x r0.x, r1.x\n", "_".repeat(200_000));
    let e = error(&text);
    assert!(matches!(e.kind, AsmErrorKind::EmptySuffix(_)), "{e}");
    assert_eq!((e.line, e.column), (2, 4));
    let text = format!("ps_5_0\n{} r0.x, r1.x\n", "_".repeat(200_000));
    assert!(matches!(
        error(&text).kind,
        AsmErrorKind::UnknownInstruction(_)
    ));
}

#[test]
fn no_mnemonic_is_longer_than_the_lookup_bound() {
    for (_, name) in dxcopy_read::sm4::opcode::NAMES {
        assert!(name.len() <= super::parse::LONGEST_MNEMONIC, "{name}");
    }
}

#[test]
fn an_empty_suffix_is_an_error_at_its_underscore() {
    // `mov__sat`: not `mov_sat` with an empty suffix dropped.
    let e = error("ps_5_0\n  mov__sat r0.x, r1.x\nret\n");
    assert_eq!((e.line, e.column), (2, 6));
    assert_eq!(e.kind, AsmErrorKind::EmptySuffix("mov__sat".into()));
    assert_eq!(
        e.to_string(),
        "2:6: error: empty suffix in 'mov__sat' (a doubled or trailing '_'): suffixes are '_sat', '_z', …"
    );
    // A trailing `_`, and a doubled one between two real suffixes.
    let e = error("ps_5_0\nmov_ r0.x, r1.x\n");
    assert_eq!((e.line, e.column), (2, 4));
    let e = error("ps_5_0\nif_nz__sat r0.x\n");
    assert_eq!((e.line, e.column), (2, 6));
    assert!(matches!(e.kind, AsmErrorKind::EmptySuffix(_)), "{e}");
    // After a parenthesised suffix (`sample_indexable(…)(…)__sat`).
    let e = error(
        "ps_5_0\ndcl_temps 1\nsample_indexable(texture2d)(float,float,float,float)__sat r0.xyzw, r0.xyxx, t0.xyzw, s0\n",
    );
    assert!(matches!(e.kind, AsmErrorKind::EmptySuffix(_)), "{e}");
    assert_eq!(e.line, 3);
    assert_eq!(e.column, 53);
    // The real suffixes still assemble.
    assert_eq!(words("mov_sat r0.x, r1.x"), words("mov_sat  r0.x, r1.x"));
}

#[test]
fn hash_lines_are_line_directives_or_errors() {
    // fxc's debug listings hold `#line N ["file"]` between instructions:
    // read and dropped, before the profile line as after it.
    let plain = words("mov r0.x, r1.x\nret");
    let with_lines = words_of(
        "ps_5_0",
        "#line 46 \"c:\\src\\a.hlsl\"\nmov r0.x, r1.x\n  #line 50\nret",
    );
    assert_eq!(plain, with_lines);
    let before = assemble(
        "#line 1 \"a.hlsl\"\nps_5_0\nmov r0.x, r1.x\nret\n",
        &mut FloatHints::none(),
    )
    .unwrap();
    let bare = assemble("ps_5_0\nmov r0.x, r1.x\nret\n", &mut FloatHints::none()).unwrap();
    assert_eq!(before.program, bare.program);
    // Any other `#` line is an error at its `#`, wherever it is.
    for (text, at) in [
        ("# comment\nps_5_0\nret\n", (1, 1)),
        ("  #define X 1\nps_5_0\nret\n", (1, 3)),
        ("ps_5_0\n#pragma x\nret\n", (2, 1)),
        ("ps_5_0\n  #line\nret\n", (2, 3)),
        ("ps_5_0\n#line x\nret\n", (2, 1)),
        ("ps_5_0\n#line 4 a.hlsl\nret\n", (2, 1)),
        ("ps_5_0\n#line 4 \"a\" mov\nret\n", (2, 1)),
        ("ps_5_0\n#linex 4\nret\n", (2, 1)),
    ] {
        let e = error(text);
        assert_eq!((e.line, e.column), at, "{text:?}: {e}");
        assert!(
            matches!(e.kind, AsmErrorKind::UnknownDirective(_)),
            "{text:?}: {e}"
        );
    }
}

#[test]
fn text_quoted_in_an_error_is_cut_short() {
    // A megabyte of digits: the message quotes 40 of them.
    let text = format!("ps_5_0\ndcl_temps {}\nret\n", "9".repeat(1 << 20));
    let e = error(&text);
    assert!(matches!(e.kind, AsmErrorKind::BadNumber(_)), "{e}");
    let message = e.to_string();
    assert_eq!(
        message,
        format!("2:11: error: invalid number '{}…'", "9".repeat(40))
    );
    let e = error(&format!("ps_5_0\n{} r0.x\n", "q".repeat(100_000)));
    assert!(e.to_string().len() < 100, "{e}");
}
