//! fxc's STAT counters recomputed from a program (the counter order is
//! dxcopy-read's [`STAT_COUNTERS`]).
//!
//! Each counter is a count over the instructions or a declared value. The
//! model is checked on the program it replaces: when counting the original
//! program does not give the original STAT back exactly, the counts are not
//! derivable for this shader and [`recompute_statistics`] returns `None`
//! (the caller drops STAT with a warning rather than ship stale numbers).

use dxcopy_read::sm4::opcode::{self, op};
use dxcopy_read::sm4::{Body, Declaration, Program};
use dxcopy_read::stat::STAT_COUNTERS;

fn counter(name: &str) -> usize {
    STAT_COUNTERS.iter().position(|n| *n == name).unwrap_or(0)
}

/// The 37 counters of `program` as this model derives them.
pub fn count_statistics(program: &Program) -> [u32; 37] {
    let mut c = [0u32; 37];
    let mut sample_frequency = false;
    let mut add = |name: &str, n: u32| c[counter(name)] += n;
    for ins in &program.instructions {
        match &ins.body {
            Body::Declaration(d) => {
                match d {
                    Declaration::Temps(n) => add("TempRegisterCount", *n),
                    Declaration::IndexableTemp {
                        size,
                        components: _,
                        ..
                    } => {
                        add("TempArrayCount", *size);
                    }
                    Declaration::InputPrimitive(p) => add("InputPrimitive", u32::from(*p)),
                    Declaration::OutputTopology(t) => add("GSOutputTopology", u32::from(*t)),
                    Declaration::Count(n) if ins.opcode == op::DCL_MAX_OUTPUT_VERTEX_COUNT => {
                        add("GSMaxOutputVertexCount", *n)
                    }
                    Declaration::Count(n) if ins.opcode == op::DCL_GS_INSTANCE_COUNT => {
                        add("GSInstanceCount", *n)
                    }
                    Declaration::Count(n)
                        if ins.opcode == op::DCL_INPUT_CONTROL_POINT_COUNT
                            || ins.opcode == op::DCL_OUTPUT_CONTROL_POINT_COUNT =>
                    {
                        let i = counter("ControlPoints");
                        let _ = i;
                        add("ControlPoints", 0);
                        let _ = n;
                    }
                    Declaration::TessOutputPrimitive(p) => add("HSOutputPrimitive", u32::from(*p)),
                    Declaration::TessPartitioning(p) => add("HSPartitioning", u32::from(*p)),
                    Declaration::TessDomain(d) => add("TessellatorDomain", u32::from(*d)),
                    Declaration::Register {
                        interpolation: Some(6 | 7),
                        ..
                    } => sample_frequency = true,
                    _ => {}
                }
                // DclCount: the input and output declarations.
                if (op::DCL_INPUT..=op::DCL_OUTPUT_SIV).contains(&ins.opcode) {
                    add("DclCount", 1);
                }
            }
            Body::CustomData { .. } => {}
            Body::Plain => {
                let o = ins.opcode;
                if matches!(
                    o,
                    op::HS_DECLS
                        | op::HS_CONTROL_POINT_PHASE
                        | op::HS_FORK_PHASE
                        | op::HS_JOIN_PHASE
                        | op::LABEL
                ) {
                    continue;
                }
                add("InstructionCount", 1);
                match o {
                    op::ADD
                    | op::DIV
                    | op::DP2
                    | op::DP3
                    | op::DP4
                    | op::EQ
                    | op::EXP
                    | op::FRC
                    | op::GE
                    | op::LOG
                    | op::LT
                    | op::MAD
                    | op::MIN
                    | op::MAX
                    | op::MUL
                    | op::NE
                    | op::ROUND_NE
                    | op::ROUND_NI
                    | op::ROUND_PI
                    | op::ROUND_Z
                    | op::RSQ
                    | op::SQRT
                    | op::SINCOS
                    | op::RCP
                    | op::DERIV_RTX
                    | op::DERIV_RTY
                    | op::DERIV_RTX_COARSE
                    | op::DERIV_RTX_FINE
                    | op::DERIV_RTY_COARSE
                    | op::DERIV_RTY_FINE => add("FloatInstructionCount", 1),
                    op::IADD
                    | op::IEQ
                    | op::IGE
                    | op::ILT
                    | op::IMAD
                    | op::IMAX
                    | op::IMIN
                    | op::IMUL
                    | op::INE
                    | op::INEG
                    | op::ISHL
                    | op::ISHR
                    | op::IBFE => add("IntInstructionCount", 1),
                    op::UDIV
                    | op::ULT
                    | op::UGE
                    | op::UMUL
                    | op::UMAD
                    | op::UMAX
                    | op::UMIN
                    | op::USHR
                    | op::UBFE
                    | op::UADDC
                    | op::USUBB => add("UintInstructionCount", 1),
                    op::AND
                    | op::OR
                    | op::XOR
                    | op::NOT
                    | op::BFI
                    | op::BFREV
                    | op::COUNTBITS
                    | op::FIRSTBIT_HI
                    | op::FIRSTBIT_LO
                    | op::FIRSTBIT_SHI => add("BitwiseInstructionCount", 1),
                    op::MOV | op::DMOV => add("MovInstructionCount", 1),
                    op::MOVC | op::DMOVC | op::SWAPC => add("MovcInstructionCount", 1),
                    o if opcode::converts_type(o) => add("ConversionInstructionCount", 1),
                    op::IF
                    | op::ELSE
                    | op::ENDIF
                    | op::LOOP
                    | op::ENDLOOP
                    | op::BREAK
                    | op::BREAKC
                    | op::CONTINUE
                    | op::CONTINUEC
                    | op::SWITCH
                    | op::CASE
                    | op::DEFAULT
                    | op::ENDSWITCH
                    | op::CALL
                    | op::CALLC
                    | op::RETC => add("DynamicFlowControlCount", 1),
                    op::RET => add("StaticFlowControlCount", 1),
                    op::CUT | op::CUT_STREAM => add("CutInstructionCount", 1),
                    op::EMIT | op::EMIT_STREAM => add("EmitInstructionCount", 1),
                    op::EMITTHENCUT | op::EMITTHENCUT_STREAM => {
                        add("CutInstructionCount", 1);
                        add("EmitInstructionCount", 1);
                    }
                    op::SAMPLE | op::SAMPLE_CL_S => add("TextureNormalInstructions", 1),
                    op::LD
                    | op::LD_MS
                    | op::LD_S
                    | op::LD_MS_S
                    | op::LD_RAW
                    | op::LD_RAW_S
                    | op::LD_STRUCTURED
                    | op::LD_STRUCTURED_S
                    | op::LD_UAV_TYPED
                    | op::LD_UAV_TYPED_S => add("TextureLoadInstructions", 1),
                    op::SAMPLE_C | op::SAMPLE_C_LZ | op::SAMPLE_C_LZ_S | op::SAMPLE_C_CL_S => {
                        add("TextureCompInstructions", 1)
                    }
                    op::SAMPLE_B | op::SAMPLE_B_CL_S => add("TextureBiasInstructions", 1),
                    op::SAMPLE_D | op::SAMPLE_D_CL_S => add("TextureGradientInstructions", 1),
                    op::SAMPLE_L | op::SAMPLE_L_S => add("TextureNormalInstructions", 1),
                    op::GATHER4
                    | op::GATHER4_C
                    | op::GATHER4_PO
                    | op::GATHER4_PO_C
                    | op::GATHER4_S
                    | op::GATHER4_C_S
                    | op::GATHER4_PO_S
                    | op::GATHER4_PO_C_S => add("TextureGatherInstructions", 1),
                    op::LOD => add("TextureLodInstructions", 1),
                    op::SYNC => add("BarrierInstructions", 1),
                    op::ATOMIC_AND..=op::IMM_ATOMIC_UMIN => add("InterlockedInstructions", 1),
                    op::STORE_RAW | op::STORE_STRUCTURED | op::STORE_UAV_TYPED => {
                        add("TextureStoreInstructions", 1)
                    }
                    _ => {}
                }
            }
        }
    }
    c[counter("IsSampleFrequency")] = u32::from(sample_frequency);
    c
}

/// The STAT part for `new_program` (SHDR/SHEX data) in the layout of
/// `original_stat`, or `None` when this model does not give
/// `original_stat` back from `original_program` (the counts are then not
/// derivable for this shader).
pub fn recompute_statistics(
    original_program: &[u8],
    new_program: &[u8],
    original_stat: &[u8],
) -> Option<Vec<u8>> {
    let original = Program::decode(original_program, 0).ok()?;
    let new = Program::decode(new_program, 0).ok()?;
    let len = original_stat.len();
    if !len.is_multiple_of(4) || len / 4 > STAT_COUNTERS.len() {
        return None;
    }
    let encode = |c: &[u32; 37]| -> Vec<u8> {
        c.iter()
            .take(len / 4)
            .flat_map(|v| v.to_le_bytes())
            .collect()
    };
    if encode(&count_statistics(&original)) != original_stat {
        return None;
    }
    Some(encode(&count_statistics(&new)))
}
