//! Token streams built by hand, one family of instructions per test, with
//! the text Microsoft's disassembler writes for them.

use super::*;
use crate::listing::dxbc::sm4::write_program;
use crate::listing::dxbc::ListingOptions;

const PS40: u32 = 0x0000_0040;
const PS50: u32 = 0x0000_0050;
const VS40: u32 = 0x0001_0040;
const GS50: u32 = 0x0002_0050;
const HS50: u32 = 0x0003_0050;
const CS50: u32 = 0x0005_0050;
const CS51: u32 = 0x0005_0051;

/// One instruction: the opcode token without its length, then the rest.
/// The length field is filled in by [`program`].
fn ins(opcode: u16, controls: u32, rest: &[&[u32]]) -> Vec<u32> {
    let mut v = vec![u32::from(opcode) | controls];
    for r in rest {
        v.extend_from_slice(r);
    }
    v
}

fn program(version: u32, instructions: &[Vec<u32>]) -> Vec<u8> {
    let mut words = vec![version, 0];
    for i in instructions {
        let mut i = i.clone();
        if i[0] & 0x7ff != u32::from(op::CUSTOMDATA) {
            i[0] |= (i.len() as u32) << 24;
        }
        words.extend(i);
    }
    words[1] = words.len() as u32;
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The listing lines after the profile line, without the slot line.
fn text(version: u32, instructions: &[Vec<u32>]) -> String {
    let p = Program::decode(&program(version, instructions), 0).unwrap();
    let mut out = String::new();
    write_program(&p, Some(0), &ListingOptions::default(), &mut out).unwrap();
    let mut lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        lines.pop(),
        Some("// Approximately 0 instruction slots used")
    );
    lines.join("\n")
}

// Operand encoders: type in bits 12–19, one immediate index.
fn one_d(kind: u32) -> u32 {
    (kind << 12) | (1 << 20)
}
fn mask(kind: u32, reg: u32, m: u32) -> Vec<u32> {
    vec![2 | (m << 4) | one_d(kind), reg]
}
fn swz(kind: u32, reg: u32, s: [u32; 4]) -> Vec<u32> {
    let bits = s[0] | (s[1] << 2) | (s[2] << 4) | (s[3] << 6);
    vec![2 | (1 << 2) | (bits << 4) | one_d(kind), reg]
}
fn sel(kind: u32, reg: u32, c: u32) -> Vec<u32> {
    vec![2 | (2 << 2) | (c << 4) | one_d(kind), reg]
}
fn none(kind: u32, reg: u32) -> Vec<u32> {
    vec![one_d(kind), reg]
}
fn l1(v: u32) -> Vec<u32> {
    vec![1 | (4 << 12), v]
}
fn l4(v: [u32; 4]) -> Vec<u32> {
    let mut w = vec![2 | (4 << 12)];
    w.extend_from_slice(&v);
    w
}
/// An extended operand token with `modifier` (1 neg, 2 abs, 3 both).
fn modified(mut operand: Vec<u32>, modifier: u32) -> Vec<u32> {
    operand[0] |= 0x8000_0000;
    operand.insert(1, 1 | (modifier << 6));
    operand
}
fn f(v: f32) -> u32 {
    v.to_bits()
}
const XYZW: [u32; 4] = [0, 1, 2, 3];
const R: u32 = 0; // temp
const V: u32 = 1; // input
const O: u32 = 2; // output
const CB: u32 = 8;

#[test]
fn float_arithmetic_swizzles_masks_modifiers_and_saturate() {
    let cb = vec![
        2 | (1 << 2) | (0b00_10_01_00 << 4) | (CB << 12) | (2 << 20),
        0,
        3,
    ];
    let got = text(
        PS40,
        &[
            ins(
                op::MAD,
                0,
                &[
                    &mask(R, 1, 0b0111),
                    &swz(R, 0, [0, 1, 2, 0]),
                    &modified(swz(R, 2, [3; 4]), 1),
                    &cb,
                ],
            ),
            ins(
                op::ADD,
                1 << 13,
                &[
                    &mask(O, 0, 0xf),
                    &modified(swz(V, 1, XYZW), 3),
                    &l4([f(1.0), f(0.5), f(0.0), f(-0.04)]),
                ],
            ),
            ins(
                op::MUL,
                0,
                &[
                    &mask(R, 0, 1),
                    &modified(sel(R, 0, 3), 2),
                    &l1(f(std::f32::consts::PI)),
                ],
            ),
            ins(
                op::DP3,
                1 << 13,
                &[
                    &mask(R, 0, 2),
                    &swz(R, 1, [0, 1, 2, 0]),
                    &swz(R, 1, [0, 1, 2, 0]),
                ],
            ),
            ins(op::RET, 0, &[]),
        ],
    );
    assert_eq!(
        got,
        "mad r1.xyz, r0.xyzx, -r2.wwww, cb0[3].xyzx\n\
         add_sat o0.xyzw, -|v1.xyzw|, l(1.000000, 0.500000, 0.000000, -0.040000)\n\
         mul r0.x, |r0.w|, l(3.141593)\n\
         dp3_sat r0.y, r1.xyzx, r1.xyzx\n\
         ret "
    );
}

#[test]
fn integer_and_untyped_immediates() {
    let null = vec![(13 << 12)];
    let got = text(
        VS40,
        &[
            ins(
                op::AND,
                0,
                &[
                    &mask(R, 0, 0xf),
                    &swz(R, 0, XYZW),
                    &l4([0x7f80_0000, 255, 0x8000, 0]),
                ],
            ),
            ins(
                op::IADD,
                0,
                &[&mask(R, 0, 1), &modified(sel(R, 2, 0), 1), &l1(113)],
            ),
            ins(
                op::IMUL,
                0,
                &[
                    &null,
                    &mask(R, 0, 3),
                    &swz(V, 3, [0, 1, 0, 0]),
                    &l4([3, 3, 0, 0]),
                ],
            ),
            ins(
                op::ISHL,
                0,
                &[&mask(R, 0, 1), &sel(R, 0, 0), &l1(0xffff_ffff)],
            ),
            ins(op::MOV, 0, &[&mask(O, 0, 0b1100), &l4([0, 0, 0, f(1.0)])]),
            ins(op::MOV, 0, &[&mask(R, 1, 1), &l1(0)]),
            ins(
                op::MOVC,
                0,
                &[
                    &mask(R, 8, 7),
                    &swz(R, 8, [0, 1, 2, 0]),
                    &l4([f(0.5); 4]),
                    &l4([f(-0.5), f(-0.5), f(-0.5), 0]),
                ],
            ),
        ],
    );
    assert_eq!(
        got,
        "and r0.xyzw, r0.xyzw, l(0x7f800000, 255, 0x00008000, 0)\n\
         iadd r0.x, -r2.x, l(113)\n\
         imul null, r0.xy, v3.xyxx, l(3, 3, 0, 0)\n\
         ishl r0.x, r0.x, l(-1)\n\
         mov o0.zw, l(0,0,0,1.000000)\n\
         mov r1.x, l(0)\n\
         movc r8.xyz, r8.xyzx, l(0.500000,0.500000,0.500000,0.500000), l(-0.500000,-0.500000,-0.500000,0)"
    );
}

#[test]
fn flow_control_indents_blocks() {
    let got = text(
        PS40,
        &[
            ins(op::LOOP, 0, &[]),
            ins(op::BREAKC, 1 << 18, &[&sel(R, 6, 0)]),
            ins(op::IF, 0, &[&sel(R, 0, 1)]),
            ins(op::DISCARD, 1 << 18, &[&sel(R, 1, 0)]),
            ins(op::ELSE, 0, &[]),
            ins(op::SWITCH, 0, &[&sel(R, 0, 0)]),
            ins(op::CASE, 0, &[&l1(0)]),
            ins(op::BREAK, 0, &[]),
            ins(op::DEFAULT, 0, &[]),
            ins(op::RETC, 1 << 18, &[&sel(R, 0, 2)]),
            ins(op::ENDSWITCH, 0, &[]),
            ins(op::ENDIF, 0, &[]),
            ins(op::CONTINUEC, 0, &[&sel(R, 0, 3)]),
            ins(op::ENDLOOP, 0, &[]),
            ins(op::RET, 0, &[]),
        ],
    );
    assert_eq!(
        got,
        "loop \n  breakc_nz r6.x\n  if_z r0.y\n    discard_nz r1.x\n  else \n    switch r0.x\n      \
         case l(0)\n      break \n      default \n      retc_nz r0.z\n    endswitch \n  endif \n  \
         continuec_z r0.w\nendloop \nret "
    );
}

#[test]
fn relative_and_multi_dimensional_indices() {
    // cb0[r5.w + 16].xyzx: index 1 is immediate + relative.
    let rel_cb = {
        let mut w = vec![
            2 | (1 << 2) | (0b00_10_01_00 << 4) | (CB << 12) | (2 << 20) | (3 << 25),
            0,
            16,
        ];
        w.extend(sel(R, 5, 3));
        w
    };
    // icb[r0.x + 0].xyzw: purely relative index.
    let icb = {
        let mut w = vec![2 | (1 << 2) | (0b11_10_01_00 << 4) | (9 << 12) | (1 << 20) | (2 << 22)];
        w.extend(sel(R, 0, 0));
        w
    };
    // v[0][1].x in a geometry shader: two immediate indices.
    let gs_in = vec![2 | (2 << 2) | (1 << 12) | (2 << 20), 0, 1];
    // x0[1].x: indexable temp.
    let x0 = vec![2 | (2 << 2) | (3 << 12) | (2 << 20), 0, 1];
    let got = text(
        GS50,
        &[
            ins(op::MOV, 0, &[&mask(R, 1, 7), &rel_cb]),
            ins(op::DP4, 0, &[&mask(R, 0, 1), &swz(R, 1, XYZW), &icb]),
            ins(op::MOV, 0, &[&mask(R, 2, 1), &gs_in]),
            ins(op::MOV, 0, &[&mask(R, 3, 1), &x0]),
        ],
    );
    assert_eq!(
        got,
        "mov r1.xyz, cb0[r5.w + 16].xyzx\n\
         dp4 r0.x, r1.xyzw, icb[r0.x + 0].xyzw\n\
         mov r2.x, v[0][1].x\n\
         mov r3.x, x0[1].x"
    );
}

#[test]
fn sm4_declarations() {
    let cb_decl = vec![
        2 | (1 << 2) | (0b11_10_01_00 << 4) | (CB << 12) | (2 << 20),
        0,
        24,
    ];
    let got = text(
        PS40,
        &[
            ins(op::DCL_GLOBAL_FLAGS, (1 | 4 | 2) << 11, &[]),
            ins(op::DCL_CONSTANT_BUFFER, 1 << 11, &[&cb_decl]),
            ins(op::DCL_SAMPLER, 1 << 11, &[&none(6, 1)]),
            ins(op::DCL_RESOURCE, 3 << 11, &[&none(7, 0), &[0x5555]]),
            ins(
                op::DCL_RESOURCE,
                (4 | (8 << 5)) << 11,
                &[&none(7, 1), &[0x3333]],
            ),
            ins(op::DCL_INPUT_PS, 2 << 11, &[&mask(V, 2, 3)]),
            ins(op::DCL_INPUT_PS, 1 << 11, &[&mask(V, 0, 1)]),
            ins(op::DCL_INPUT_PS_SIV, 4 << 11, &[&mask(V, 0, 0xf), &[1]]),
            ins(op::DCL_INPUT_PS_SGV, 1 << 11, &[&mask(V, 3, 1), &[9]]),
            ins(op::DCL_INPUT_SGV, 0, &[&mask(V, 1, 1), &[6]]),
            ins(op::DCL_OUTPUT, 0, &[&mask(O, 0, 0xf)]),
            ins(op::DCL_OUTPUT_SIV, 0, &[&mask(O, 1, 1), &[4]]),
            ins(op::DCL_OUTPUT, 0, &[&[12 << 12]]),
            ins(op::DCL_TEMPS, 0, &[&[8]]),
            ins(op::DCL_INDEXABLE_TEMP, 0, &[&[0, 16, 4]]),
        ],
    );
    assert_eq!(
        got,
        "dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps | forceEarlyDepthStencil\n\
         dcl_constantbuffer CB0[24], dynamicIndexed\n\
         dcl_sampler s1, mode_comparison\n\
         dcl_resource_texture2d (float,float,float,float) t0\n\
         dcl_resource_texture2dms(8) (sint,sint,sint,sint) t1\n\
         dcl_input_ps linear v2.xy\n\
         dcl_input_ps constant v0.x\n\
         dcl_input_ps_siv linear noperspective v0.xyzw, position\n\
         dcl_input_ps_sgv constant v3.x, is_front_face\n\
         dcl_input_sgv v1.x, vertex_id\n\
         dcl_output o0.xyzw\n\
         dcl_output_siv o1.x, rendertarget_array_index\n\
         dcl_output oDepth\n\
         dcl_temps 8\n\
         dcl_indexableTemp x0[16], 4"
    );
}

#[test]
fn compute_uav_tgsm_atomics_and_sync() {
    let u0 = mask(30, 0, 1);
    let g0 = mask(31, 0, 1);
    let got = text(
        CS50,
        &[
            ins(
                op::DCL_UAV_TYPED,
                (3 << 11) | (1 << 16),
                &[&none(30, 0), &[0x4444]],
            ),
            ins(op::DCL_UAV_RAW, 0, &[&none(30, 1)]),
            ins(op::DCL_UAV_STRUCTURED, 1 << 23, &[&none(30, 2), &[16]]),
            ins(op::DCL_RESOURCE_RAW, 0, &[&none(7, 0)]),
            ins(op::DCL_RESOURCE_STRUCTURED, 0, &[&none(7, 1), &[12]]),
            ins(op::DCL_TGSM_RAW, 0, &[&none(31, 0), &[1024]]),
            ins(op::DCL_TGSM_STRUCTURED, 0, &[&none(31, 1), &[4, 64]]),
            ins(op::DCL_INPUT, 0, &[&[2 | (3 << 4) | (32 << 12)]]),
            ins(op::DCL_INPUT, 0, &[&[1 | (36 << 12)]]),
            ins(op::DCL_THREAD_GROUP, 0, &[&[8, 8, 1]]),
            ins(op::ATOMIC_IADD, 0, &[&u0, &l1(0), &l1(1)]),
            ins(
                op::IMM_ATOMIC_CMP_EXCH,
                0,
                &[&mask(R, 0, 1), &u0, &l1(4), &sel(R, 1, 0), &l1(0xffff_ffff)],
            ),
            ins(
                op::STORE_STRUCTURED,
                0,
                &[&g0, &[2 | (2 << 2) | (32 << 12)], &l1(0), &l1(f(1.0))],
            ),
            ins(op::SYNC, (1 | 2) << 11, &[]),
            ins(op::SYNC, (8 | 2 | 1) << 11, &[]),
        ],
    );
    assert_eq!(
        got,
        "dcl_uav_typed_texture2d_glc (uint,uint,uint,uint) u0\n\
         dcl_uav_raw u1\n\
         dcl_uav_structured_opc u2, 16\n\
         dcl_resource_raw t0\n\
         dcl_resource_structured t1, 12 \n\
         dcl_tgsm_raw g0, 1024\n\
         dcl_tgsm_structured g1, 4, 64\n\
         dcl_input vThreadID.xy\n\
         dcl_input vThreadIDInGroupFlattened\n\
         dcl_thread_group 8, 8, 1\n\
         atomic_iadd u0.x, l(0), l(1)\n\
         imm_atomic_cmp_exch r0.x, u0.x, l(4), r1.x, l(-1)\n\
         store_structured g0.x, vThreadID.x, l(0), l(1.000000)\n\
         sync_g_t\n\
         sync_uglobal_g_t"
    );
}

#[test]
fn extended_opcodes_indexable_offsets_and_resinfo() {
    // Extended tokens: sample controls (1), resource dim (2), return type (3).
    let offsets = 0x8000_0000 | 1 | ((15 & 0xf) << 9) | (1 << 13);
    let dim = 0x8000_0000 | 2 | (3 << 6);
    let ret = 3 | (0x5555 << 6);
    let structured = 0x8000_0000 | 2 | (12 << 6) | (64 << 11);
    let mixed = 3 | (0x6666 << 6);
    let t0 = swz(7, 0, XYZW);
    let s0 = none(6, 0);
    let got = text(
        PS50,
        &[
            ins(
                op::SAMPLE_L,
                0x8000_0000,
                &[
                    &[offsets, dim, ret],
                    &mask(R, 0, 7),
                    &swz(V, 1, [0, 1, 0, 0]),
                    &t0,
                    &s0,
                    &l1(f(0.0)),
                ],
            ),
            ins(
                op::LD_STRUCTURED,
                0x8000_0000,
                &[
                    &[structured, mixed],
                    &mask(R, 1, 0xf),
                    &sel(V, 0, 0),
                    &l1(44),
                    &swz(7, 1, XYZW),
                ],
            ),
            ins(
                op::RESINFO,
                0x8000_0000 | (2 << 11),
                &[&[dim, ret], &mask(R, 0, 3), &l1(0), &t0],
            ),
            ins(
                op::SAMPLE,
                0,
                &[&mask(R, 0, 0xf), &swz(V, 2, [0, 1, 0, 0]), &t0, &s0],
            ),
            ins(
                op::GATHER4,
                0x8000_0000,
                &[
                    &[dim, ret],
                    &mask(R, 0, 0xf),
                    &swz(V, 2, [0, 1, 0, 0]),
                    &t0,
                    &sel(6, 0, 0),
                ],
            ),
        ],
    );
    assert_eq!(
        got,
        "sample_l_aoffimmi_indexable(-1,1,0)(texture2d)(float,float,float,float) r0.xyz, v1.xyxx, t0.xyzw, s0, l(0.000000)\n\
         ld_structured_indexable(structured_buffer, stride=64)(mixed,mixed,mixed,mixed) r1.xyzw, v0.x, l(44), t1.xyzw\n\
         resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw\n\
         sample r0.xyzw, v2.xyxx, t0.xyzw, s0\n\
         gather4_indexable(texture2d)(float,float,float,float) r0.xyzw, v2.xyxx, t0.xyzw, s0.x"
    );
}

#[test]
fn sm51_ranges_spaces_and_operands() {
    // Declarations carry three indices (id, lower, upper) and a space word.
    let three = |kind: u32, id: u32, lo: u32, hi: u32| vec![(kind << 12) | (3 << 20), id, lo, hi];
    let cb_use = vec![
        2 | (1 << 2) | (0b01_01_01_01 << 4) | (CB << 12) | (3 << 20),
        0,
        0,
        0,
    ];
    let t_use = vec![
        2 | (1 << 2) | (0b11_10_01_00 << 4) | (7 << 12) | (2 << 20),
        0,
        1,
    ];
    let u_rel = {
        // U0[r0.x + 0]: index 1 purely relative, non-uniform.
        let mut w = vec![
            0x8000_0000 | 2 | (1 << 2) | (0b11_10_01_00 << 4) | (30 << 12) | (2 << 20) | (2 << 25),
            1 | (1 << 17),
            0,
        ];
        w.extend(sel(R, 0, 0));
        w
    };
    let got = text(
        CS51,
        &[
            ins(op::DCL_GLOBAL_FLAGS, (1 | 256) << 11, &[]),
            ins(op::DCL_CONSTANT_BUFFER, 0, &[&three(CB, 0, 0, 0), &[1, 0]]),
            ins(op::DCL_SAMPLER, 0, &[&three(6, 0, 0, 0), &[2]]),
            ins(
                op::DCL_RESOURCE,
                3 << 11,
                &[&three(7, 0, 1, 4), &[0x5555, 1]],
            ),
            ins(
                op::DCL_UAV_TYPED,
                3 << 11,
                &[&three(30, 0, 0, u32::MAX), &[0x5555, 3]],
            ),
            ins(
                op::DCL_RESOURCE_STRUCTURED,
                0,
                &[&three(7, 1, 5, 5), &[16, 0]],
            ),
            ins(op::MUL, 0, &[&mask(R, 0, 0b1100), &cb_use, &t_use]),
            ins(
                op::STORE_UAV_TYPED,
                0,
                &[&u_rel, &swz(32, 0, [0, 1, 1, 1]), &swz(R, 0, XYZW)],
            ),
        ],
    );
    assert_eq!(
        got,
        "dcl_globalFlags refactoringAllowed | allResourcesBound\n\
         dcl_constantbuffer CB0[0:0][1], immediateIndexed, space=0\n\
         dcl_sampler S0[0:0], mode_default, space=2\n\
         dcl_resource_texture2d (float,float,float,float) T0[1:4], space=1\n\
         dcl_uav_typed_texture2d (float,float,float,float) U0[0:*], space=3\n\
         dcl_resource_structured T1[5:5], 16, space=0\n\
         mul r0.zw, CB0[0][0].yyyy, T0[1].xyzw\n\
         store_uav_typed U0[r0.x + 0].xyzw { nonuniform }, vThreadID.xyyy, r0.xyzw"
    );
}

#[test]
fn geometry_and_hull_declarations() {
    let got = text(
        GS50,
        &[
            ins(op::DCL_GS_INPUT_PRIMITIVE, 3 << 11, &[]),
            ins(op::DCL_STREAM, 0, &[&none(16, 0)]),
            ins(op::DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY, 5 << 11, &[]),
            ins(op::DCL_MAX_OUTPUT_VERTEX_COUNT, 0, &[&[12]]),
            ins(op::DCL_GS_INSTANCE_COUNT, 0, &[&[4]]),
            ins(
                op::DCL_INPUT_SIV,
                0,
                &[&[2 | (0xf << 4) | (1 << 12) | (2 << 20), 3, 0], &[1]],
            ),
            ins(op::EMIT_STREAM, 0, &[&none(16, 0)]),
            ins(op::CUT_STREAM, 0, &[&none(16, 0)]),
        ],
    );
    assert_eq!(
        got,
        "dcl_inputprimitive triangle \n\
         dcl_stream m0\n\
         dcl_outputtopology trianglestrip \n\
         dcl_maxout 12\n\
         dcl_gsinstances 4\n\
         dcl_input_siv v[3][0].xyzw, position\n\
         emit_stream m0\n\
         cut_stream m0"
    );
    let got = text(
        HS50,
        &[
            ins(op::HS_DECLS, 0, &[]),
            ins(op::DCL_INPUT_CONTROL_POINT_COUNT, 3 << 11, &[]),
            ins(op::DCL_OUTPUT_CONTROL_POINT_COUNT, 3 << 11, &[]),
            ins(op::DCL_TESS_DOMAIN, 2 << 11, &[]),
            ins(op::DCL_TESS_PARTITIONING, 3 << 11, &[]),
            ins(op::DCL_TESS_OUTPUT_PRIMITIVE, 3 << 11, &[]),
            ins(op::DCL_HS_MAX_TESSFACTOR, 0, &[&[f(64.0)]]),
            ins(op::HS_FORK_PHASE, 0, &[]),
            ins(op::DCL_HS_FORK_PHASE_INSTANCE_COUNT, 0, &[&[3]]),
            ins(op::DCL_INPUT, 0, &[&[23 << 12]]),
            ins(
                op::MOV,
                0,
                &[
                    &[
                        2 | (1 << 4) | (2 << 12) | (1 << 20) | (3 << 22),
                        0,
                        1 | (23 << 12),
                    ],
                    &[2 | (2 << 2) | (25 << 12) | (2 << 20), 0, 0],
                ],
            ),
        ],
    );
    assert_eq!(
        got,
        "hs_decls \n\
         dcl_input_control_point_count 3\n\
         dcl_output_control_point_count 3\n\
         dcl_tessellator_domain domain_tri\n\
         dcl_tessellator_partitioning partitioning_fractional_odd\n\
         dcl_tessellator_output_primitive output_triangle_cw\n\
         dcl_hs_max_tessfactor l(64.000000)\n\
         hs_fork_phase \n\
         dcl_hs_fork_phase_instance_count 3\n\
         dcl_input vForkInstanceID\n\
         mov o[vForkInstanceID + 0].x, vicp[0][0].x"
    );
}

#[test]
fn interfaces_and_function_calls() {
    // dcl_function_table and dcl_interface carry their length in a second word.
    let table = vec![
        u32::from(op::DCL_FUNCTION_TABLE) | 0x8000_0000,
        6,
        0,
        2,
        0,
        1,
    ];
    let interface = vec![
        u32::from(op::DCL_INTERFACE) | 0x8000_0000,
        6,
        0,
        1,
        1 | (1 << 16),
        0,
    ];
    let fp = vec![(19 << 12) | (2 << 20), 0, 0];
    let mut words = vec![PS50, 0];
    words.extend(
        program(PS50, &[ins(op::DCL_FUNCTION_BODY, 0, &[&[0]])])[8..]
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    words.extend(&table);
    words.extend(&interface);
    let mut call = ins(op::INTERFACE_CALL, 0, &[&[7], &fp]);
    call[0] |= (call.len() as u32) << 24;
    words.extend(&call);
    let mut label = ins(op::LABEL, 0, &[&none(10, 0)]);
    label[0] |= (label.len() as u32) << 24;
    words.extend(&label);
    words[1] = words.len() as u32;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let p = Program::decode(&bytes, 0).unwrap();
    let mut out = String::new();
    write_program(&p, Some(3), &ListingOptions::default(), &mut out).unwrap();
    assert_eq!(
        out,
        "ps_5_0\ndcl_function_body fb0\ndcl_function_table ft0 = {fb0, fb1}\n\
         dcl_interface fp0[1][1] = {ft0}\nfcall fp0[0][7]\nlabel l0\n\
         // Approximately 3 instruction slots used\n"
    );
    assert!(matches!(
        p.instructions[2].body,
        Body::Declaration(Declaration::Interface {
            call_sites: 1,
            array_len: 1,
            ..
        })
    ));
}

#[test]
fn immediate_constant_buffer_and_customdata() {
    let icb = vec![
        u32::from(op::CUSTOMDATA) | (3 << 11),
        10,
        f(1.0),
        0,
        0,
        0,
        2,
        1,
        f(-1.0),
        f(1.0),
    ];
    let comment = vec![u32::from(op::CUSTOMDATA), 3, 0x1234];
    let got = text(PS50, &[icb, comment, ins(op::RET, 0, &[])]);
    assert_eq!(
        got,
        "dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},\n                              \
         { 2, 1, -1.000000, 1.000000} }\nret "
    );
}

#[test]
fn doubles_precise_and_min_precision() {
    let d = |v: f64| [v.to_bits() as u32, (v.to_bits() >> 32) as u32];
    let imm64 = {
        let mut w = vec![2 | (5 << 12)];
        w.extend(d(1.5));
        w.extend(d(-0.25));
        w
    };
    let min16 = {
        let mut w = mask(R, 0, 1);
        w[0] |= 0x8000_0000;
        w.insert(1, 1 | (1 << 14));
        w
    };
    let got = text(
        CS50,
        &[
            ins(
                op::DADD,
                0,
                &[&mask(R, 0, 3), &swz(R, 1, [0, 1, 0, 1]), &imm64],
            ),
            ins(
                op::MUL,
                0xf << 19,
                &[&mask(R, 0, 1), &sel(R, 0, 0), &sel(R, 0, 1)],
            ),
            ins(op::ADD, 0b0011 << 19, &[&min16, &sel(R, 0, 0), &l1(f(2.0))]),
        ],
    );
    assert_eq!(
        got,
        "dadd r0.xy, r1.xyxy, d(1.500000l, -0.250000l)\n\
         mul [precise] r0.x, r0.x, r0.y\n\
         add [precise(xy)] r0.x {min16f}, r0.x {def32 as min16f}, l(2.000000) {def32 as min16f}"
    );
}

#[test]
fn errors_name_the_token() {
    let base = 0x100;
    // Length token larger than the data.
    let e = Program::decode(&[0x40, 0, 0, 0, 9, 0, 0, 0], base).unwrap_err();
    assert_eq!((e.token, e.offset), (1, base + 4));
    assert!(matches!(
        e.kind,
        DecodeErrorKind::LengthPastPart {
            length: 9,
            available: 2
        }
    ));
    // Too short.
    assert!(matches!(
        Program::decode(&[0; 7], 0).unwrap_err().kind,
        DecodeErrorKind::ProgramTooShort
    ));
    // Zero-length instruction at token 2.
    let words = [PS40, 3, u32::from(op::MOV)];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let e = Program::decode(&bytes, base).unwrap_err();
    assert_eq!(
        (e.token, e.offset, e.kind.clone()),
        (2, base + 8, DecodeErrorKind::ZeroLength)
    );
    // Unknown opcode 300 at token 3.
    let words = [PS40, 4, u32::from(op::RET) | (1 << 24), 300 | (1 << 24)];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let e = Program::decode(&bytes, 0).unwrap_err();
    assert_eq!((e.token, e.kind), (3, DecodeErrorKind::UnknownOpcode(300)));
    // An instruction longer than the program.
    let words = [PS40, 3, u32::from(op::RET) | (5 << 24)];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert!(matches!(
        Program::decode(&bytes, 0).unwrap_err().kind,
        DecodeErrorKind::InstructionPastEnd { length: 5 }
    ));
    // An operand that runs past its instruction: mov with length 2.
    let words = [PS40, 5, u32::from(op::MOV) | (2 << 24), mask(R, 0, 1)[0], 0];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let e = Program::decode(&bytes, 0).unwrap_err();
    assert_eq!(
        (e.token, e.kind),
        (4, DecodeErrorKind::OperandPastInstruction)
    );
    // Relative indices nested without end.
    let rel = 2 | (2 << 2) | one_d(0) & !(7 << 22) | (2 << 22);
    let mut words = vec![PS40, 0, u32::from(op::MOV) | (40 << 24)];
    words.extend(std::iter::repeat_n(rel, 39));
    words[1] = words.len() as u32;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(
        Program::decode(&bytes, 0).unwrap_err().kind,
        DecodeErrorKind::RelativeTooDeep
    );
    // The error text names the token and byte.
    let e = Program::decode(&[0x40, 0, 0, 0, 9, 0, 0, 0], 0x20).unwrap_err();
    assert_eq!(
        e.to_string(),
        "token 1 (byte 0x24): the length token says 9 words but the part holds 2"
    );
}

#[test]
fn decoded_values_are_typed() {
    let bytes = program(
        PS40,
        &[
            ins(op::DCL_TEMPS, 0, &[&[2]]),
            ins(op::DCL_RESOURCE, 6 << 11, &[&none(7, 4), &[0x5555]]),
            ins(
                op::MOV,
                1 << 13,
                &[&mask(O, 0, 0xf), &swz(R, 1, [3, 2, 1, 0])],
            ),
            ins(op::RET, 0, &[]),
        ],
    );
    let p = Program::decode(&bytes, 0).unwrap();
    assert_eq!(p.profile(), "ps_4_0");
    assert_eq!(p.executable_count(), 2);
    let decls: Vec<_> = p.declarations().collect();
    assert_eq!(decls[0], &Declaration::Temps(2));
    assert!(matches!(
        decls[1],
        Declaration::Typed {
            dimension: 6,
            return_type: [5, 5, 5, 5],
            ..
        }
    ));
    let mov = &p.instructions[2];
    assert!(mov.saturate());
    assert_eq!(
        mov.operands[1].components,
        Components::Swizzle([3, 2, 1, 0])
    );
    assert_eq!(mov.token, 8);
}

/// An operand with a minimum-precision extended token (1 = min16f).
fn with_precision(mut operand: Vec<u32>, precision: u32) -> Vec<u32> {
    operand[0] |= 0x8000_0000;
    operand.insert(1, 1 | (precision << 14));
    operand
}

#[test]
fn min_precision_conversions_are_named_where_the_operation_converts() {
    let half = |o: Vec<u32>| with_precision(o, 1);
    let got = text(
        PS50,
        &[
            // A min16f operation: its def32 sources and immediates convert.
            ins(
                op::MAD,
                0,
                &[
                    &half(mask(R, 4, 0xf)),
                    &half(swz(R, 4, [0, 1, 2, 3])),
                    &swz(R, 3, [0, 1, 2, 3]),
                    &l4([f(1.0); 4]),
                ],
            ),
            // A def32 operation reading a min16f register.
            ins(
                op::DIV,
                0,
                &[&mask(R, 2, 8), &half(sel(R, 5, 0)), &sel(R, 2, 3)],
            ),
            // Type conversions do not: their sources are of another kind.
            ins(op::ITOF, 0, &[&half(mask(R, 7, 1)), &sel(R, 6, 0)]),
        ],
    );
    assert_eq!(
        got,
        "mad r4.xyzw {min16f}, r4.xyzw {min16f}, r3.xyzw {def32 as min16f}, \
         l(1.000000, 1.000000, 1.000000, 1.000000) {def32 as min16f}\n\
         div r2.w, r5.x {min16f as def32}, r2.w\n\
         itof r7.x {min16f}, r6.x"
    );
}

/// The whole listing of `instructions` with `flags`.
fn listing_with(
    version: u32,
    instructions: &[Vec<u32>],
    flags: crate::listing::DisasmFlags,
) -> String {
    let p = Program::decode(&program(version, instructions), 0).unwrap();
    let mut out = String::new();
    let options = ListingOptions {
        flags,
        ..ListingOptions::default()
    };
    write_program(&p, None, &options, &mut out).unwrap();
    out
}

#[test]
fn numbers_offsets_and_hex_literals() {
    use crate::listing::DisasmFlags;
    let d = |v: f64| [v.to_bits() as u32, (v.to_bits() >> 32) as u32];
    let imm64 = {
        let mut w = vec![2 | (5 << 12)];
        w.extend(d(1.5));
        w.extend(d(-0.25));
        w
    };
    let icb = vec![
        u32::from(op::CUSTOMDATA) | (3 << 11),
        6,
        f(1.0),
        0,
        2,
        u32::MAX,
    ];
    let body = [
        icb,
        ins(op::DCL_TEMPS, 0, &[&[2]]),
        ins(
            op::DADD,
            0,
            &[&mask(R, 0, 3), &swz(R, 1, [0, 1, 0, 1]), &imm64],
        ),
        ins(op::MOV, 0, &[&mask(R, 1, 1), &l1(f(0.5))]),
        ins(op::RET, 0, &[]),
    ];
    let all = DisasmFlags {
        numbers: true,
        offsets: true,
        hex: true,
        ..DisasmFlags::default()
    };
    // Offsets count from the version token: the ICB (6 words) at 8, the
    // temps declaration at 32, dadd (10 words) at 40, mov at 80, ret at 100.
    assert_eq!(
        listing_with(CS50, &body, all),
        "      0x00000000: cs_5_0\n      \
         0x00000008: dcl_immediateConstantBuffer { { 0x3f800000, 0x00000000, 0x00000002, 0xffffffff} }\n      \
         0x00000020: dcl_temps 2\n   \
         0  0x00000028: dadd r0.xy, r1.xyxy, d(0x3ff8000000000000, 0xbfd0000000000000)\n   \
         1  0x00000050: mov r1.x, l(0x3f000000)\n   \
         2  0x00000064: ret \n"
    );
    let numbers = DisasmFlags {
        numbers: true,
        ..DisasmFlags::default()
    };
    assert_eq!(
        listing_with(CS50, &body[1..], numbers),
        "      cs_5_0\n      dcl_temps 2\n   0: dadd r0.xy, r1.xyxy, d(1.500000l, -0.250000l)\n   \
         1: mov r1.x, l(0.500000)\n   2: ret \n"
    );
    let offsets = DisasmFlags {
        offsets: true,
        ..DisasmFlags::default()
    };
    assert_eq!(
        listing_with(CS50, &body[3..], offsets),
        "0x00000000: cs_5_0\n0x00000008: mov r1.x, l(0.500000)\n0x0000001C: ret \n"
    );
    // The flags change nothing else: the default is the plain listing.
    assert_eq!(
        listing_with(CS50, &body[3..], DisasmFlags::default()),
        "cs_5_0\nmov r1.x, l(0.500000)\nret \n"
    );
}

#[test]
fn hull_shader_phase_markers_take_no_number() {
    let numbers = crate::listing::DisasmFlags {
        numbers: true,
        ..Default::default()
    };
    let got = listing_with(
        HS50,
        &[
            ins(op::HS_DECLS, 0, &[]),
            ins(op::HS_FORK_PHASE, 0, &[]),
            ins(op::MOV, 0, &[&mask(R, 0, 1), &l1(1)]),
            ins(op::RET, 0, &[]),
        ],
        numbers,
    );
    assert_eq!(
        got,
        "      hs_5_0\n      hs_decls \n      hs_fork_phase \n   0: mov r0.x, l(1)\n   1: ret \n"
    );
}
