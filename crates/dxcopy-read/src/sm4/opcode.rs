//! The SM4/SM5 opcode table: number, listing name, and how immediates of
//! each source operand are written.
//!
//! Numbers and names follow the tokenized program format header
//! (`d3d10tokenizedprogramformat.hpp` / `d3d11TokenizedProgramFormat.hpp`,
//! `D3D10_SB_OPCODE_TYPE`) and the names Microsoft's disassembler prints
//! (docs/format/sm4-listing.md).

/// How an immediate (`l(...)`) source operand is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImmediateStyle {
    /// Every component as `%f`, separated by `, `.
    Float,
    /// Every component as an integer (decimal when small, else `0x%08x`), separated by `, `.
    Int,
    /// Each component guessed from its bits (float when the exponent is neither
    /// 0 nor all ones, else integer), separated by `,` — `mov` and `movc`.
    Untyped,
    /// `d(%fl, %fl)` doubles.
    Double,
}

/// What kind of instruction an opcode is, for decoding and printing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpClass {
    /// An instruction whose operands fill its length.
    Plain,
    /// A conditional flow instruction (`_z` / `_nz` from bit 18).
    Conditional,
    /// A declaration with its own layout.
    Declaration,
    /// `customdata` (its length is the second token).
    CustomData,
}

/// One row of the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// Listing name (`mad`, `dcl_input_ps`, …).
    pub name: &'static str,
    /// Decoding/printing class.
    pub class: OpClass,
}

macro_rules! opcodes {
    ($($num:literal $konst:ident $name:literal $class:ident;)*) => {
        /// Opcode numbers (`D3D10_SB_OPCODE_TYPE`).
        #[allow(missing_docs)]
        pub mod op {
            $(pub const $konst: u16 = $num;)*
        }
        /// Every opcode number and its listing name, in number order.
        pub const NAMES: &[(u16, &str)] = &[$(($num, $name),)*];
        /// The table row of opcode `opcode`, or `None` for numbers no shader model defines.
        pub fn info(opcode: u16) -> Option<OpInfo> {
            match opcode {
                $($num => Some(OpInfo { name: $name, class: OpClass::$class }),)*
                _ => None,
            }
        }
    };
}

opcodes! {
    0 ADD "add" Plain;
    1 AND "and" Plain;
    2 BREAK "break" Plain;
    3 BREAKC "breakc" Conditional;
    4 CALL "call" Plain;
    5 CALLC "callc" Conditional;
    6 CASE "case" Plain;
    7 CONTINUE "continue" Plain;
    8 CONTINUEC "continuec" Conditional;
    9 CUT "cut" Plain;
    10 DEFAULT "default" Plain;
    11 DERIV_RTX "deriv_rtx" Plain;
    12 DERIV_RTY "deriv_rty" Plain;
    13 DISCARD "discard" Conditional;
    14 DIV "div" Plain;
    15 DP2 "dp2" Plain;
    16 DP3 "dp3" Plain;
    17 DP4 "dp4" Plain;
    18 ELSE "else" Plain;
    19 EMIT "emit" Plain;
    20 EMITTHENCUT "emit_then_cut" Plain;
    21 ENDIF "endif" Plain;
    22 ENDLOOP "endloop" Plain;
    23 ENDSWITCH "endswitch" Plain;
    24 EQ "eq" Plain;
    25 EXP "exp" Plain;
    26 FRC "frc" Plain;
    27 FTOI "ftoi" Plain;
    28 FTOU "ftou" Plain;
    29 GE "ge" Plain;
    30 IADD "iadd" Plain;
    31 IF "if" Conditional;
    32 IEQ "ieq" Plain;
    33 IGE "ige" Plain;
    34 ILT "ilt" Plain;
    35 IMAD "imad" Plain;
    36 IMAX "imax" Plain;
    37 IMIN "imin" Plain;
    38 IMUL "imul" Plain;
    39 INE "ine" Plain;
    40 INEG "ineg" Plain;
    41 ISHL "ishl" Plain;
    42 ISHR "ishr" Plain;
    43 ITOF "itof" Plain;
    44 LABEL "label" Plain;
    45 LD "ld" Plain;
    46 LD_MS "ldms" Plain;
    47 LOG "log" Plain;
    48 LOOP "loop" Plain;
    49 LT "lt" Plain;
    50 MAD "mad" Plain;
    51 MIN "min" Plain;
    52 MAX "max" Plain;
    53 CUSTOMDATA "customdata" CustomData;
    54 MOV "mov" Plain;
    55 MOVC "movc" Plain;
    56 MUL "mul" Plain;
    57 NE "ne" Plain;
    58 NOP "nop" Plain;
    59 NOT "not" Plain;
    60 OR "or" Plain;
    61 RESINFO "resinfo" Plain;
    62 RET "ret" Plain;
    63 RETC "retc" Conditional;
    64 ROUND_NE "round_ne" Plain;
    65 ROUND_NI "round_ni" Plain;
    66 ROUND_PI "round_pi" Plain;
    67 ROUND_Z "round_z" Plain;
    68 RSQ "rsq" Plain;
    69 SAMPLE "sample" Plain;
    70 SAMPLE_C "sample_c" Plain;
    71 SAMPLE_C_LZ "sample_c_lz" Plain;
    72 SAMPLE_L "sample_l" Plain;
    73 SAMPLE_D "sample_d" Plain;
    74 SAMPLE_B "sample_b" Plain;
    75 SQRT "sqrt" Plain;
    76 SWITCH "switch" Plain;
    77 SINCOS "sincos" Plain;
    78 UDIV "udiv" Plain;
    79 ULT "ult" Plain;
    80 UGE "uge" Plain;
    81 UMUL "umul" Plain;
    82 UMAD "umad" Plain;
    83 UMAX "umax" Plain;
    84 UMIN "umin" Plain;
    85 USHR "ushr" Plain;
    86 UTOF "utof" Plain;
    87 XOR "xor" Plain;
    88 DCL_RESOURCE "dcl_resource" Declaration;
    89 DCL_CONSTANT_BUFFER "dcl_constantbuffer" Declaration;
    90 DCL_SAMPLER "dcl_sampler" Declaration;
    91 DCL_INDEX_RANGE "dcl_indexrange" Declaration;
    92 DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY "dcl_outputtopology" Declaration;
    93 DCL_GS_INPUT_PRIMITIVE "dcl_inputprimitive" Declaration;
    94 DCL_MAX_OUTPUT_VERTEX_COUNT "dcl_maxout" Declaration;
    95 DCL_INPUT "dcl_input" Declaration;
    96 DCL_INPUT_SGV "dcl_input_sgv" Declaration;
    97 DCL_INPUT_SIV "dcl_input_siv" Declaration;
    98 DCL_INPUT_PS "dcl_input_ps" Declaration;
    99 DCL_INPUT_PS_SGV "dcl_input_ps_sgv" Declaration;
    100 DCL_INPUT_PS_SIV "dcl_input_ps_siv" Declaration;
    101 DCL_OUTPUT "dcl_output" Declaration;
    102 DCL_OUTPUT_SGV "dcl_output_sgv" Declaration;
    103 DCL_OUTPUT_SIV "dcl_output_siv" Declaration;
    104 DCL_TEMPS "dcl_temps" Declaration;
    105 DCL_INDEXABLE_TEMP "dcl_indexableTemp" Declaration;
    106 DCL_GLOBAL_FLAGS "dcl_globalFlags" Declaration;
    108 LOD "lod" Plain;
    109 GATHER4 "gather4" Plain;
    110 SAMPLE_POS "samplepos" Plain;
    111 SAMPLE_INFO "sampleinfo" Plain;
    113 HS_DECLS "hs_decls" Plain;
    114 HS_CONTROL_POINT_PHASE "hs_control_point_phase" Plain;
    115 HS_FORK_PHASE "hs_fork_phase" Plain;
    116 HS_JOIN_PHASE "hs_join_phase" Plain;
    117 EMIT_STREAM "emit_stream" Plain;
    118 CUT_STREAM "cut_stream" Plain;
    119 EMITTHENCUT_STREAM "emit_then_cut_stream" Plain;
    120 INTERFACE_CALL "fcall" Plain;
    121 BUFINFO "bufinfo" Plain;
    122 DERIV_RTX_COARSE "deriv_rtx_coarse" Plain;
    123 DERIV_RTX_FINE "deriv_rtx_fine" Plain;
    124 DERIV_RTY_COARSE "deriv_rty_coarse" Plain;
    125 DERIV_RTY_FINE "deriv_rty_fine" Plain;
    126 GATHER4_C "gather4_c" Plain;
    127 GATHER4_PO "gather4_po" Plain;
    128 GATHER4_PO_C "gather4_po_c" Plain;
    129 RCP "rcp" Plain;
    130 F32TOF16 "f32tof16" Plain;
    131 F16TOF32 "f16tof32" Plain;
    132 UADDC "uaddc" Plain;
    133 USUBB "usubb" Plain;
    134 COUNTBITS "countbits" Plain;
    135 FIRSTBIT_HI "firstbit_hi" Plain;
    136 FIRSTBIT_LO "firstbit_lo" Plain;
    137 FIRSTBIT_SHI "firstbit_shi" Plain;
    138 UBFE "ubfe" Plain;
    139 IBFE "ibfe" Plain;
    140 BFI "bfi" Plain;
    141 BFREV "bfrev" Plain;
    142 SWAPC "swapc" Plain;
    143 DCL_STREAM "dcl_stream" Declaration;
    144 DCL_FUNCTION_BODY "dcl_function_body" Declaration;
    145 DCL_FUNCTION_TABLE "dcl_function_table" Declaration;
    146 DCL_INTERFACE "dcl_interface" Declaration;
    147 DCL_INPUT_CONTROL_POINT_COUNT "dcl_input_control_point_count" Declaration;
    148 DCL_OUTPUT_CONTROL_POINT_COUNT "dcl_output_control_point_count" Declaration;
    149 DCL_TESS_DOMAIN "dcl_tessellator_domain" Declaration;
    150 DCL_TESS_PARTITIONING "dcl_tessellator_partitioning" Declaration;
    151 DCL_TESS_OUTPUT_PRIMITIVE "dcl_tessellator_output_primitive" Declaration;
    152 DCL_HS_MAX_TESSFACTOR "dcl_hs_max_tessfactor" Declaration;
    153 DCL_HS_FORK_PHASE_INSTANCE_COUNT "dcl_hs_fork_phase_instance_count" Declaration;
    154 DCL_HS_JOIN_PHASE_INSTANCE_COUNT "dcl_hs_join_phase_instance_count" Declaration;
    155 DCL_THREAD_GROUP "dcl_thread_group" Declaration;
    156 DCL_UAV_TYPED "dcl_uav_typed" Declaration;
    157 DCL_UAV_RAW "dcl_uav_raw" Declaration;
    158 DCL_UAV_STRUCTURED "dcl_uav_structured" Declaration;
    159 DCL_TGSM_RAW "dcl_tgsm_raw" Declaration;
    160 DCL_TGSM_STRUCTURED "dcl_tgsm_structured" Declaration;
    161 DCL_RESOURCE_RAW "dcl_resource_raw" Declaration;
    162 DCL_RESOURCE_STRUCTURED "dcl_resource_structured" Declaration;
    163 LD_UAV_TYPED "ld_uav_typed" Plain;
    164 STORE_UAV_TYPED "store_uav_typed" Plain;
    165 LD_RAW "ld_raw" Plain;
    166 STORE_RAW "store_raw" Plain;
    167 LD_STRUCTURED "ld_structured" Plain;
    168 STORE_STRUCTURED "store_structured" Plain;
    169 ATOMIC_AND "atomic_and" Plain;
    170 ATOMIC_OR "atomic_or" Plain;
    171 ATOMIC_XOR "atomic_xor" Plain;
    172 ATOMIC_CMP_STORE "atomic_cmp_store" Plain;
    173 ATOMIC_IADD "atomic_iadd" Plain;
    174 ATOMIC_IMAX "atomic_imax" Plain;
    175 ATOMIC_IMIN "atomic_imin" Plain;
    176 ATOMIC_UMAX "atomic_umax" Plain;
    177 ATOMIC_UMIN "atomic_umin" Plain;
    178 IMM_ATOMIC_ALLOC "imm_atomic_alloc" Plain;
    179 IMM_ATOMIC_CONSUME "imm_atomic_consume" Plain;
    180 IMM_ATOMIC_IADD "imm_atomic_iadd" Plain;
    181 IMM_ATOMIC_AND "imm_atomic_and" Plain;
    182 IMM_ATOMIC_OR "imm_atomic_or" Plain;
    183 IMM_ATOMIC_XOR "imm_atomic_xor" Plain;
    184 IMM_ATOMIC_EXCH "imm_atomic_exch" Plain;
    185 IMM_ATOMIC_CMP_EXCH "imm_atomic_cmp_exch" Plain;
    186 IMM_ATOMIC_IMAX "imm_atomic_imax" Plain;
    187 IMM_ATOMIC_IMIN "imm_atomic_imin" Plain;
    188 IMM_ATOMIC_UMAX "imm_atomic_umax" Plain;
    189 IMM_ATOMIC_UMIN "imm_atomic_umin" Plain;
    190 SYNC "sync" Plain;
    191 DADD "dadd" Plain;
    192 DMAX "dmax" Plain;
    193 DMIN "dmin" Plain;
    194 DMUL "dmul" Plain;
    195 DEQ "deq" Plain;
    196 DGE "dge" Plain;
    197 DLT "dlt" Plain;
    198 DNE "dne" Plain;
    199 DMOV "dmov" Plain;
    200 DMOVC "dmovc" Plain;
    201 DTOF "dtof" Plain;
    202 FTOD "ftod" Plain;
    203 EVAL_SNAPPED "eval_snapped" Plain;
    204 EVAL_SAMPLE_INDEX "eval_sample_index" Plain;
    205 EVAL_CENTROID "eval_centroid" Plain;
    206 DCL_GS_INSTANCE_COUNT "dcl_gsinstances" Declaration;
    207 ABORT "abort" Plain;
    208 DEBUG_BREAK "debug_break" Plain;
    210 DDIV "ddiv" Plain;
    211 DFMA "dfma" Plain;
    212 DRCP "drcp" Plain;
    213 MSAD "msad" Plain;
    214 DTOI "dtoi" Plain;
    215 DTOU "dtou" Plain;
    216 ITOD "itod" Plain;
    217 UTOD "utod" Plain;
    219 GATHER4_S "gather4_s" Plain;
    220 GATHER4_C_S "gather4_c_s" Plain;
    221 GATHER4_PO_S "gather4_po_s" Plain;
    222 GATHER4_PO_C_S "gather4_po_c_s" Plain;
    223 LD_S "ld_s" Plain;
    224 LD_MS_S "ldms_s" Plain;
    225 LD_UAV_TYPED_S "ld_uav_typed_s" Plain;
    226 LD_RAW_S "ld_raw_s" Plain;
    227 LD_STRUCTURED_S "ld_structured_s" Plain;
    228 SAMPLE_L_S "sample_l_s" Plain;
    229 SAMPLE_C_LZ_S "sample_c_lz_s" Plain;
    230 SAMPLE_CL_S "sample_cl_s" Plain;
    231 SAMPLE_B_CL_S "sample_b_cl_s" Plain;
    232 SAMPLE_D_CL_S "sample_d_cl_s" Plain;
    233 SAMPLE_C_CL_S "sample_c_cl_s" Plain;
    234 CHECK_ACCESS_FULLY_MAPPED "check_access_fully_mapped" Plain;
}

/// The opcode whose listing name is `name` (ASCII case ignored), read
/// from the same rows as [`info`].
pub fn by_name(name: &str) -> Option<u16> {
    NAMES
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name))
        .map(|(num, _)| *num)
}

/// How immediates in source operand `source` (0-based, after the
/// destinations) of `opcode` are written. `sources` is the number of source
/// operands of the instruction.
pub fn immediate_style(opcode: u16, source: usize) -> ImmediateStyle {
    use op::*;
    use ImmediateStyle::*;
    match opcode {
        MOV => Untyped,
        MOVC | SWAPC => {
            if source == 0 {
                Int
            } else {
                Untyped
            }
        }
        DMOVC => {
            if source == 0 {
                Int
            } else {
                Double
            }
        }
        DADD | DMAX | DMIN | DMUL | DEQ | DGE | DLT | DNE | DMOV | DTOF | DDIV | DFMA | DRCP
        | DTOI | DTOU => Double,
        // Conversions and compares whose sources are floats.
        ADD | DIV | DP2 | DP3 | DP4 | EQ | EXP | FRC | FTOI | FTOU | GE | DERIV_RTX | DERIV_RTY
        | LOG | LT | MAD | MIN | MAX | MUL | NE | ROUND_NE | ROUND_NI | ROUND_PI | ROUND_Z
        | RSQ | SQRT | SINCOS | DERIV_RTX_COARSE | DERIV_RTX_FINE | DERIV_RTY_COARSE
        | DERIV_RTY_FINE | RCP | F32TOF16 | FTOD | EVAL_CENTROID | EVAL_SNAPPED => Float,
        EVAL_SAMPLE_INDEX => {
            if source == 0 {
                Float
            } else {
                Int
            }
        }
        // Sampling: coordinates, LOD, bias, reference and derivatives are
        // floats; texel offsets (gather4_po) and resources are not.
        SAMPLE | SAMPLE_C | SAMPLE_C_LZ | SAMPLE_L | SAMPLE_D | SAMPLE_B | LOD | GATHER4
        | GATHER4_C | SAMPLE_L_S | SAMPLE_C_LZ_S | SAMPLE_CL_S | SAMPLE_B_CL_S | SAMPLE_D_CL_S
        | SAMPLE_C_CL_S | GATHER4_S | GATHER4_C_S => Float,
        GATHER4_PO | GATHER4_PO_C | GATHER4_PO_S | GATHER4_PO_C_S => {
            if source == 1 {
                Int
            } else {
                Float
            }
        }
        // Stores: addresses are integers, the stored value is untyped.
        STORE_RAW => {
            if source == 1 {
                Untyped
            } else {
                Int
            }
        }
        STORE_STRUCTURED => {
            if source == 2 {
                Untyped
            } else {
                Int
            }
        }
        // The address as well as the value (`l(1,1,1,1), l(0,0,0,0)`).
        STORE_UAV_TYPED => Untyped,
        _ => Int,
    }
}

/// How many leading operands of `opcode` are destinations.
pub fn destinations(opcode: u16) -> usize {
    match opcode {
        op::IF
        | op::BREAKC
        | op::CONTINUEC
        | op::DISCARD
        | op::RETC
        | op::SWITCH
        | op::CASE
        | op::CALL
        | op::CALLC
        | op::LABEL
        | op::EMIT_STREAM
        | op::CUT_STREAM
        | op::EMITTHENCUT_STREAM
        | op::INTERFACE_CALL => 0,
        op::IMUL | op::UMUL | op::UDIV | op::UADDC | op::USUBB | op::SINCOS | op::SWAPC => 2,
        op::IMM_ATOMIC_IADD..=op::IMM_ATOMIC_UMIN => 2,
        op::GATHER4_S..=op::SAMPLE_C_CL_S => 2,
        _ => 1,
    }
}

/// Whether `opcode` converts between number types (`itof`, `ftou`,
/// `f32tof16`, `dtof`, …): its sources are not of its result's kind.
pub fn converts_type(opcode: u16) -> bool {
    matches!(
        opcode,
        op::FTOI
            | op::FTOU
            | op::ITOF
            | op::UTOF
            | op::F32TOF16
            | op::F16TOF32
            | op::DTOF
            | op::FTOD
            | op::DTOI
            | op::DTOU
            | op::ITOD
            | op::UTOD
    )
}

/// Whether `opcode` opens a block (the lines after it are indented).
pub fn opens_block(opcode: u16) -> bool {
    matches!(opcode, op::IF | op::LOOP | op::SWITCH)
}

/// Whether `opcode` closes a block (it and the lines after it are outdented).
pub fn closes_block(opcode: u16) -> bool {
    matches!(opcode, op::ENDIF | op::ENDLOOP | op::ENDSWITCH)
}
