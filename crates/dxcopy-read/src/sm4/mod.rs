//! SM4/SM5 token stream (SHDR / SHEX) decoded into instructions, operands
//! and typed declarations: the SM4 code model. Its printer, the way
//! Microsoft's disassembler prints it, is [`crate::listing::dxbc::sm4`].
//!
//! The layout (docs/format/sm4-listing.md, from the tokenized program format
//! header): a version token, a length token (the whole program in 32-bit
//! words), then instructions. An instruction starts with an opcode token —
//! bits 0–10 opcode, 11–23 opcode-specific controls, 24–30 length in words,
//! bit 31 "an extended opcode token follows" — then up to three extended
//! opcode tokens, then its operands. `customdata` blocks carry their length
//! in the second word instead.
//!
//! Decoding is bounded: every read is checked against the program, each
//! instruction must fit inside its stated length and advance at least one
//! word, and relative-index operands nest at most [`MAX_RELATIVE_DEPTH`]
//! deep, so hostile input costs time linear in its size.

pub mod names;
pub mod opcode;
#[cfg(test)]
mod tests;

pub use opcode::{ImmediateStyle, OpClass, OpInfo};

use crate::stage::{ProgramType, ShaderKind};
use opcode::op;
use std::fmt;

/// How deep relative indices may nest (`cb0[r0.x + 1]` is depth 1).
pub const MAX_RELATIVE_DEPTH: u32 = 4;

/// How deeply `if`, `loop` and `switch` blocks may nest. Direct3D allows
/// far less; the bound keeps a hostile program from making the listing's
/// indentation (two spaces a level) grow with the square of its length.
pub const MAX_BLOCK_DEPTH: usize = 256;

/// Where and why decoding failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("token {token} (byte {offset:#x}): {kind}")]
pub struct DecodeError {
    /// Index of the 32-bit token (from the start of the program) where the
    /// problem was found.
    pub token: u32,
    /// Absolute byte offset of that token in the file (or in the data given
    /// to [`Program::decode`] when its base is 0).
    pub offset: u64,
    /// What went wrong.
    pub kind: DecodeErrorKind,
}

/// The kinds of [`DecodeError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// Fewer than the two header tokens.
    ProgramTooShort,
    /// The length token says more words than the part holds.
    LengthPastPart {
        /// Length token.
        length: u32,
        /// Words in the part.
        available: u32,
    },
    /// An instruction whose stated length is zero (would never advance).
    ZeroLength,
    /// An instruction runs past the end of the program.
    InstructionPastEnd {
        /// Stated length in words.
        length: u32,
    },
    /// An operand or declaration field runs past the end of its instruction.
    OperandPastInstruction,
    /// An opcode number no shader model defines.
    UnknownOpcode(u16),
    /// An operand field with a value the format does not define.
    BadOperand(&'static str),
    /// Relative indices nested deeper than [`MAX_RELATIVE_DEPTH`].
    RelativeTooDeep,
    /// A block opened inside [`MAX_BLOCK_DEPTH`] others.
    BlocksTooDeep,
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::ProgramTooShort => {
                f.write_str("the program is shorter than its two header tokens")
            }
            DecodeErrorKind::LengthPastPart { length, available } => write!(
                f,
                "the length token says {length} words but the part holds {available}"
            ),
            DecodeErrorKind::ZeroLength => f.write_str("an instruction has length 0"),
            DecodeErrorKind::InstructionPastEnd { length } => write!(
                f,
                "an instruction of {length} words runs past the end of the program"
            ),
            DecodeErrorKind::OperandPastInstruction => {
                f.write_str("an operand runs past the end of its instruction")
            }
            DecodeErrorKind::UnknownOpcode(op) => write!(f, "unknown opcode {op}"),
            DecodeErrorKind::BadOperand(what) => write!(f, "invalid operand: {what}"),
            DecodeErrorKind::RelativeTooDeep => write!(
                f,
                "relative indices nest deeper than {MAX_RELATIVE_DEPTH} levels"
            ),
            DecodeErrorKind::BlocksTooDeep => write!(
                f,
                "if/loop/switch blocks nest deeper than {MAX_BLOCK_DEPTH} levels"
            ),
        }
    }
}

/// A decoded SM4/SM5 program.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Shader stage (bits 16–31 of the version token).
    pub stage: ProgramType,
    /// Shader model major version.
    pub major: u8,
    /// Shader model minor version.
    pub minor: u8,
    /// Instructions and declarations in program order.
    pub instructions: Vec<Instruction>,
}

impl Program {
    /// `ps_5_0`-style profile.
    pub fn profile(&self) -> String {
        // An unknown program type prints as `xs`, as Microsoft's disassembler does.
        let prefix = self.stage.stage().map_or("xs", ShaderKind::profile_prefix);
        format!("{prefix}_{}_{}", self.major, self.minor)
    }

    /// Whether the program is Shader Model 5.1 or later (resource ranges and
    /// register spaces).
    pub fn is_sm51(&self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }

    /// Instructions that are not declarations (nor `customdata`).
    pub fn executable_count(&self) -> usize {
        self.instructions
            .iter()
            .filter(|i| matches!(i.body, Body::Plain))
            .count()
    }

    /// The declarations in program order.
    pub fn declarations(&self) -> impl Iterator<Item = &Declaration> {
        self.instructions.iter().filter_map(|i| match &i.body {
            Body::Declaration(d) => Some(d),
            _ => None,
        })
    }

    /// Decodes the SHDR/SHEX data `data`, which starts at absolute file
    /// offset `base` (used in error offsets).
    pub fn decode(data: &[u8], base: u64) -> Result<Program, DecodeError> {
        let (program, error) = Program::decode_prefix(data, base)?;
        match error {
            Some(e) => Err(e),
            None => Ok(program),
        }
    }

    /// Decodes as much of `data` as is well formed: the program up to the
    /// first malformed instruction, and the error that stopped it. Fails
    /// outright only when the two header tokens are unusable.
    pub fn decode_prefix(
        data: &[u8],
        base: u64,
    ) -> Result<(Program, Option<DecodeError>), DecodeError> {
        let (mut program, instructions) = Program::stream(data, base)?;
        for instruction in instructions {
            match instruction {
                Ok(instruction) => program.instructions.push(instruction),
                Err(e) => return Ok((program, Some(e))),
            }
        }
        Ok((program, None))
    }

    /// The program's header (with no instructions) and an iterator that
    /// decodes its instructions one at a time, for readers that need not
    /// hold them all (the listing). The iterator ends after the first error.
    pub fn stream(data: &[u8], base: u64) -> Result<(Program, Instructions), DecodeError> {
        let words = crate::cursor::le_u32s(data);
        let err = |token: usize, kind| DecodeError {
            token: token as u32,
            offset: base.saturating_add(token as u64 * 4),
            kind,
        };
        let mut header = words.clone();
        let (Some(version), Some(length)) = (header.next(), header.next()) else {
            return Err(err(0, DecodeErrorKind::ProgramTooShort));
        };
        if length < 2 {
            return Err(err(1, DecodeErrorKind::ProgramTooShort));
        }
        if length as usize > words.len() {
            return Err(err(
                1,
                DecodeErrorKind::LengthPastPart {
                    length,
                    available: words.len() as u32,
                },
            ));
        }
        let program = Program {
            stage: ProgramType::from_raw((version >> 16) as u16),
            major: ((version >> 4) & 0xf) as u8,
            minor: (version & 0xf) as u8,
            instructions: Vec::new(),
        };
        let instructions = Instructions {
            tokens: words.take(length as usize).collect(),
            pos: 2,
            sm51: program.is_sm51(),
            depth: 0,
            base,
            failed: false,
        };
        Ok((program, instructions))
    }
}

/// The instructions of a program, decoded one at a time
/// ([`Program::stream`]).
#[derive(Debug, Clone)]
pub struct Instructions {
    tokens: Vec<u32>,
    /// Index of the next instruction's opcode token.
    pos: usize,
    sm51: bool,
    /// Blocks open before the next instruction.
    depth: usize,
    base: u64,
    failed: bool,
}

impl Iterator for Instructions {
    type Item = Result<Instruction, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.tokens.len() {
            return None;
        }
        let err = |token: usize, kind| DecodeError {
            token: token as u32,
            offset: self.base.saturating_add(token as u64 * 4),
            kind,
        };
        let result = match decode_instruction(&self.tokens, self.pos, self.sm51) {
            Ok(instruction) => {
                if opcode::closes_block(instruction.opcode) {
                    self.depth = self.depth.saturating_sub(1);
                } else if opcode::opens_block(instruction.opcode) {
                    self.depth += 1;
                }
                if self.depth > MAX_BLOCK_DEPTH {
                    Err(err(self.pos, DecodeErrorKind::BlocksTooDeep))
                } else {
                    self.pos += instruction.length as usize;
                    Ok(instruction)
                }
            }
            Err((token, kind)) => Err(err(token, kind)),
        };
        self.failed = result.is_err();
        Some(result)
    }
}

/// One instruction or declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Index of the opcode token from the start of the program.
    pub token: u32,
    /// Opcode number (see [`opcode::op`]).
    pub opcode: u16,
    /// Length in words, opcode token included.
    pub length: u32,
    /// Bits 11–23 of the opcode token (opcode-specific controls), unshifted.
    pub controls: u32,
    /// Texel offsets from an extended sample-controls token (`_aoffimmi`).
    pub texel_offset: Option<[i8; 3]>,
    /// Resource dimension and structure stride from an extended token (`_indexable`).
    pub resource_dim: Option<(u8, u32)>,
    /// Per-component return types from an extended token.
    pub return_type: Option<[u8; 4]>,
    /// For `fcall`: the call-site index (the word before the operand).
    pub call_site: Option<u32>,
    /// Operands in token order (destinations first).
    pub operands: Vec<Operand>,
    /// Declaration payload, `customdata`, or nothing.
    pub body: Body,
}

impl Instruction {
    /// The opcode's table row.
    pub fn info(&self) -> OpInfo {
        // Decoding only accepts known opcodes.
        opcode::info(self.opcode).unwrap_or(OpInfo {
            name: "unknown",
            class: OpClass::Plain,
        })
    }

    /// `_sat` (bit 13).
    pub fn saturate(&self) -> bool {
        self.controls & (1 << 13) != 0
    }

    /// Conditional test: `true` for `_nz` (bit 18).
    pub fn test_nonzero(&self) -> bool {
        self.controls & (1 << 18) != 0
    }

    /// Precise mask (bits 19–22), one bit per component.
    pub fn precise_mask(&self) -> u8 {
        ((self.controls >> 19) & 0xf) as u8
    }
}

/// What an instruction carries besides its operands.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// An ordinary instruction.
    Plain,
    /// A declaration.
    Declaration(Declaration),
    /// A `customdata` block other than an immediate constant buffer.
    CustomData {
        /// Class (bits 11–31 of the opcode token).
        class: u32,
        /// Payload words.
        words: u32,
    },
}

/// A declaration as typed values. Operands stay in [`Instruction::operands`]
/// (the declared register is operand 0).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Declaration {
    /// `dcl_globalFlags` (flag bits 11–23 of the opcode token, shifted down).
    GlobalFlags(u32),
    /// `dcl_constantbuffer`.
    ConstantBuffer {
        /// `dynamicIndexed` (else `immediateIndexed`).
        dynamic: bool,
        /// SM5.1: size in 16-byte vectors.
        size: Option<u32>,
        /// SM5.1: register space.
        space: Option<u32>,
    },
    /// `dcl_sampler`.
    Sampler {
        /// 0 default, 1 comparison, 2 mono.
        mode: u8,
        /// SM5.1 register space.
        space: Option<u32>,
    },
    /// `dcl_resource_*` and `dcl_uav_typed_*`.
    Typed {
        /// UAV (`dcl_uav_typed`) rather than SRV.
        uav: bool,
        /// Resource dimension (1 buffer … 10 texturecubearray).
        dimension: u8,
        /// Sample count of multisampled textures.
        sample_count: u8,
        /// Return type per component (1 unorm … 9 unused).
        return_type: [u8; 4],
        /// UAV flags (bit 16 globally coherent, 17 rasterizer ordered).
        flags: u32,
        /// SM5.1 register space.
        space: Option<u32>,
    },
    /// `dcl_resource_raw` / `dcl_uav_raw`.
    Raw {
        /// UAV rather than SRV.
        uav: bool,
        /// UAV flags.
        flags: u32,
        /// SM5.1 register space.
        space: Option<u32>,
    },
    /// `dcl_resource_structured` / `dcl_uav_structured`.
    Structured {
        /// UAV rather than SRV.
        uav: bool,
        /// Structure stride in bytes.
        stride: u32,
        /// UAV flags (bit 23: hidden counter).
        flags: u32,
        /// SM5.1 register space.
        space: Option<u32>,
    },
    /// `dcl_tgsm_raw`.
    TgsmRaw {
        /// Size in bytes.
        bytes: u32,
    },
    /// `dcl_tgsm_structured`.
    TgsmStructured {
        /// Stride in bytes.
        stride: u32,
        /// Number of structures.
        count: u32,
    },
    /// `dcl_input`, `dcl_output` and their `_siv` / `_sgv` / `_ps` forms.
    Register {
        /// System value (`_siv` / `_sgv`).
        system_value: Option<u32>,
        /// Interpolation mode (`_ps` forms).
        interpolation: Option<u8>,
    },
    /// `dcl_temps`.
    Temps(u32),
    /// `dcl_indexableTemp xN[size], components`.
    IndexableTemp {
        /// Register number.
        register: u32,
        /// Number of registers.
        size: u32,
        /// Components per register.
        components: u32,
    },
    /// `dcl_indexrange`.
    IndexRange(u32),
    /// `dcl_inputprimitive`.
    InputPrimitive(u8),
    /// `dcl_outputtopology`.
    OutputTopology(u8),
    /// `dcl_maxout`, `dcl_gsinstances`, control point and phase instance counts.
    Count(u32),
    /// `dcl_stream`.
    Stream,
    /// `dcl_thread_group`.
    ThreadGroup([u32; 3]),
    /// `dcl_tessellator_domain`.
    TessDomain(u8),
    /// `dcl_tessellator_partitioning`.
    TessPartitioning(u8),
    /// `dcl_tessellator_output_primitive`.
    TessOutputPrimitive(u8),
    /// `dcl_hs_max_tessfactor`.
    MaxTessFactor(f32),
    /// `dcl_function_body fbN`.
    FunctionBody(u32),
    /// `dcl_function_table ftN = {fb…}`.
    FunctionTable {
        /// Table number.
        table: u32,
        /// Function bodies.
        bodies: Vec<u32>,
    },
    /// `dcl_interface fpN[array][call sites] = {ft…}`.
    Interface {
        /// Interface number.
        interface: u32,
        /// Dynamically indexed.
        dynamic: bool,
        /// Number of call sites (function table length).
        call_sites: u32,
        /// Array length.
        array_len: u32,
        /// Function tables.
        tables: Vec<u32>,
    },
    /// `dcl_immediateConstantBuffer` (from `customdata` class 3).
    ImmediateConstantBuffer(Vec<u32>),
}

/// Component selection of an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Components {
    /// No components (samplers, `null`, …).
    None,
    /// One component (written without a suffix).
    One,
    /// Four components with a write mask (bits x=1, y=2, z=4, w=8).
    Mask(u8),
    /// Four components with a swizzle.
    Swizzle([u8; 4]),
    /// Four components, one selected.
    Select(u8),
}

/// One operand index.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    /// Immediate part (0 when the index is purely relative).
    pub value: u64,
    /// Relative part (`[r0.x + value]`).
    pub relative: Option<Box<Operand>>,
}

/// An operand.
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    /// Operand type (`D3D10_SB_OPERAND_TYPE`: 0 temp, 1 input, 2 output, …).
    pub kind: u8,
    /// Component selection.
    pub components: Components,
    /// Indices (0–3).
    pub indices: Vec<Index>,
    /// 0 none, 1 negate, 2 absolute, 3 both.
    pub modifier: u8,
    /// Minimum precision (0 default, 1 float16, 2 float 2.8, 4 sint16, 5 uint16).
    pub min_precision: u8,
    /// Non-uniform resource index (SM5.1).
    pub nonuniform: bool,
    /// Immediate values, one word per component (`d(...)` packs two doubles in four words).
    pub immediate: Vec<u32>,
}

/// Operand type numbers (`D3D10_SB_OPERAND_TYPE`).
#[allow(missing_docs)]
pub mod operand_type {
    pub const TEMP: u8 = 0;
    pub const INPUT: u8 = 1;
    pub const OUTPUT: u8 = 2;
    pub const INDEXABLE_TEMP: u8 = 3;
    pub const IMMEDIATE32: u8 = 4;
    pub const IMMEDIATE64: u8 = 5;
    pub const SAMPLER: u8 = 6;
    pub const RESOURCE: u8 = 7;
    pub const CONSTANT_BUFFER: u8 = 8;
    pub const IMMEDIATE_CONSTANT_BUFFER: u8 = 9;
    pub const LABEL: u8 = 10;
    pub const INPUT_PRIMITIVEID: u8 = 11;
    pub const OUTPUT_DEPTH: u8 = 12;
    pub const NULL: u8 = 13;
    pub const RASTERIZER: u8 = 14;
    pub const OUTPUT_COVERAGE_MASK: u8 = 15;
    pub const STREAM: u8 = 16;
    pub const FUNCTION_BODY: u8 = 17;
    pub const FUNCTION_TABLE: u8 = 18;
    pub const INTERFACE: u8 = 19;
    pub const FUNCTION_INPUT: u8 = 20;
    pub const FUNCTION_OUTPUT: u8 = 21;
    pub const OUTPUT_CONTROL_POINT_ID: u8 = 22;
    pub const INPUT_FORK_INSTANCE_ID: u8 = 23;
    pub const INPUT_JOIN_INSTANCE_ID: u8 = 24;
    pub const INPUT_CONTROL_POINT: u8 = 25;
    pub const OUTPUT_CONTROL_POINT: u8 = 26;
    pub const INPUT_PATCH_CONSTANT: u8 = 27;
    pub const INPUT_DOMAIN_POINT: u8 = 28;
    pub const THIS_POINTER: u8 = 29;
    pub const UNORDERED_ACCESS_VIEW: u8 = 30;
    pub const THREAD_GROUP_SHARED_MEMORY: u8 = 31;
    pub const INPUT_THREAD_ID: u8 = 32;
    pub const INPUT_THREAD_GROUP_ID: u8 = 33;
    pub const INPUT_THREAD_ID_IN_GROUP: u8 = 34;
    pub const INPUT_COVERAGE_MASK: u8 = 35;
    pub const INPUT_THREAD_ID_IN_GROUP_FLATTENED: u8 = 36;
    pub const INPUT_GS_INSTANCE_ID: u8 = 37;
    pub const OUTPUT_DEPTH_GREATER_EQUAL: u8 = 38;
    pub const OUTPUT_DEPTH_LESS_EQUAL: u8 = 39;
    pub const CYCLE_COUNTER: u8 = 40;
    pub const OUTPUT_STENCIL_REF: u8 = 41;
    pub const INNER_COVERAGE: u8 = 42;
}

type Fail = (usize, DecodeErrorKind);

/// Reads words of one instruction, never past its end.
struct Reader<'t> {
    tokens: &'t [u32],
    pos: usize,
    end: usize,
}

impl Reader<'_> {
    fn next(&mut self) -> Result<u32, Fail> {
        if self.pos >= self.end {
            return Err((self.pos, DecodeErrorKind::OperandPastInstruction));
        }
        let w = self.tokens[self.pos];
        self.pos += 1;
        Ok(w)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.end
    }
}

fn decode_instruction(tokens: &[u32], pos: usize, sm51: bool) -> Result<Instruction, Fail> {
    let token0 = tokens[pos];
    let opcode = (token0 & 0x7ff) as u16;
    let info = opcode::info(opcode).ok_or((pos, DecodeErrorKind::UnknownOpcode(opcode)))?;
    let controls = token0 & 0x00ff_f800;
    let remaining = tokens.len() - pos;

    if info.class == OpClass::CustomData {
        let length = *tokens
            .get(pos + 1)
            .ok_or((pos, DecodeErrorKind::InstructionPastEnd { length: 2 }))?;
        if length < 2 {
            return Err((pos + 1, DecodeErrorKind::ZeroLength));
        }
        if length as usize > remaining {
            return Err((pos, DecodeErrorKind::InstructionPastEnd { length }));
        }
        let class = token0 >> 11;
        let payload = &tokens[pos + 2..pos + length as usize];
        let body = if class == 3 {
            Body::Declaration(Declaration::ImmediateConstantBuffer(payload.to_vec()))
        } else {
            Body::CustomData {
                class,
                words: length - 2,
            }
        };
        return Ok(Instruction {
            token: pos as u32,
            opcode,
            length,
            controls: 0,
            texel_offset: None,
            resource_dim: None,
            return_type: None,
            call_site: None,
            operands: Vec::new(),
            body,
        });
    }

    let extended = token0 & 0x8000_0000 != 0;
    let mut length = (token0 >> 24) & 0x7f;
    let mut r = Reader {
        tokens,
        pos: pos + 1,
        end: tokens.len(),
    };
    let mut instruction = Instruction {
        token: pos as u32,
        opcode,
        length: 0,
        controls,
        texel_offset: None,
        resource_dim: None,
        return_type: None,
        call_site: None,
        operands: Vec::new(),
        body: Body::Plain,
    };
    if extended && matches!(opcode, op::DCL_INTERFACE | op::DCL_FUNCTION_TABLE) {
        // These declarations can be longer than 7 bits of length allow: the
        // real length follows the opcode token.
        length = r.next()?;
    } else if extended {
        // Up to three extended opcode tokens, chained by bit 31.
        let mut more = true;
        let mut count = 0;
        while more {
            let t = r.next()?;
            count += 1;
            more = t & 0x8000_0000 != 0 && count < 3;
            match t & 0x3f {
                1 => {
                    let field = |shift: u32| -> i8 {
                        let v = ((t >> shift) & 0xf) as i8;
                        if v & 0x8 != 0 {
                            v - 16
                        } else {
                            v
                        }
                    };
                    instruction.texel_offset = Some([field(9), field(13), field(17)]);
                }
                2 => instruction.resource_dim = Some((((t >> 6) & 0x1f) as u8, (t >> 11) & 0xfff)),
                3 => {
                    let mut rt = [0u8; 4];
                    for (i, c) in rt.iter_mut().enumerate() {
                        *c = ((t >> (6 + 4 * i)) & 0xf) as u8;
                    }
                    instruction.return_type = Some(rt);
                }
                _ => {
                    return Err((
                        r.pos - 1,
                        DecodeErrorKind::BadOperand("extended opcode type"),
                    ))
                }
            }
        }
    }
    if length == 0 {
        return Err((pos, DecodeErrorKind::ZeroLength));
    }
    if length as usize > remaining {
        return Err((pos, DecodeErrorKind::InstructionPastEnd { length }));
    }
    r.end = pos + length as usize;
    instruction.length = length;

    if info.class == OpClass::Declaration {
        let decl = decode_declaration(&mut r, &mut instruction, sm51)?;
        instruction.body = Body::Declaration(decl);
    } else {
        if opcode == op::INTERFACE_CALL {
            instruction.call_site = Some(r.next()?);
        }
        while !r.at_end() {
            let operand = decode_operand(&mut r, 0)?;
            instruction.operands.push(operand);
        }
    }
    if !r.at_end() {
        return Err((
            r.pos,
            DecodeErrorKind::BadOperand("words left over in a declaration"),
        ));
    }
    Ok(instruction)
}

/// Decodes the operands of a declaration opcode.
///
/// Long: one arm per declaration opcode and its operand layout (the
/// `D3D10_SB_OPCODE_DCL_*` / `D3D11_SB_OPCODE_DCL_*` table of the token
/// format).
fn decode_declaration(
    r: &mut Reader<'_>,
    ins: &mut Instruction,
    sm51: bool,
) -> Result<Declaration, Fail> {
    let c = ins.controls >> 11;
    let space = |r: &mut Reader<'_>| -> Result<Option<u32>, Fail> {
        if sm51 {
            Ok(Some(r.next()?))
        } else {
            Ok(None)
        }
    };
    let return_type = |w: u32| -> [u8; 4] {
        let mut rt = [0u8; 4];
        for (i, v) in rt.iter_mut().enumerate() {
            *v = ((w >> (4 * i)) & 0xf) as u8;
        }
        rt
    };
    Ok(match ins.opcode {
        op::DCL_GLOBAL_FLAGS => Declaration::GlobalFlags(c),
        op::DCL_CONSTANT_BUFFER => {
            ins.operands.push(decode_operand(r, 0)?);
            let size = if sm51 { Some(r.next()?) } else { None };
            Declaration::ConstantBuffer {
                dynamic: c & 1 != 0,
                size,
                space: space(r)?,
            }
        }
        op::DCL_SAMPLER => {
            ins.operands.push(decode_operand(r, 0)?);
            Declaration::Sampler {
                mode: (c & 0xf) as u8,
                space: space(r)?,
            }
        }
        op::DCL_RESOURCE | op::DCL_UAV_TYPED => {
            ins.operands.push(decode_operand(r, 0)?);
            let rt = r.next()?;
            let uav = ins.opcode == op::DCL_UAV_TYPED;
            Declaration::Typed {
                uav,
                dimension: (c & 0x1f) as u8,
                sample_count: if uav { 0 } else { ((c >> 5) & 0x7f) as u8 },
                return_type: return_type(rt),
                flags: if uav { ins.controls & 0x00ff_0000 } else { 0 },
                space: space(r)?,
            }
        }
        op::DCL_RESOURCE_RAW | op::DCL_UAV_RAW => {
            ins.operands.push(decode_operand(r, 0)?);
            let uav = ins.opcode == op::DCL_UAV_RAW;
            Declaration::Raw {
                uav,
                flags: if uav { ins.controls & 0x00ff_0000 } else { 0 },
                space: space(r)?,
            }
        }
        op::DCL_RESOURCE_STRUCTURED | op::DCL_UAV_STRUCTURED => {
            ins.operands.push(decode_operand(r, 0)?);
            let stride = r.next()?;
            let uav = ins.opcode == op::DCL_UAV_STRUCTURED;
            Declaration::Structured {
                uav,
                stride,
                flags: if uav { ins.controls & 0x00ff_0000 } else { 0 },
                space: space(r)?,
            }
        }
        op::DCL_TGSM_RAW => {
            ins.operands.push(decode_operand(r, 0)?);
            Declaration::TgsmRaw { bytes: r.next()? }
        }
        op::DCL_TGSM_STRUCTURED => {
            ins.operands.push(decode_operand(r, 0)?);
            let stride = r.next()?;
            Declaration::TgsmStructured {
                stride,
                count: r.next()?,
            }
        }
        op::DCL_INPUT | op::DCL_OUTPUT => {
            ins.operands.push(decode_operand(r, 0)?);
            Declaration::Register {
                system_value: None,
                interpolation: None,
            }
        }
        op::DCL_INPUT_SGV | op::DCL_INPUT_SIV | op::DCL_OUTPUT_SGV | op::DCL_OUTPUT_SIV => {
            ins.operands.push(decode_operand(r, 0)?);
            Declaration::Register {
                system_value: Some(r.next()?),
                interpolation: None,
            }
        }
        op::DCL_INPUT_PS => {
            ins.operands.push(decode_operand(r, 0)?);
            Declaration::Register {
                system_value: None,
                interpolation: Some((c & 0xf) as u8),
            }
        }
        op::DCL_INPUT_PS_SGV | op::DCL_INPUT_PS_SIV => {
            ins.operands.push(decode_operand(r, 0)?);
            Declaration::Register {
                system_value: Some(r.next()?),
                interpolation: Some((c & 0xf) as u8),
            }
        }
        op::DCL_TEMPS => Declaration::Temps(r.next()?),
        op::DCL_INDEXABLE_TEMP => {
            let register = r.next()?;
            let size = r.next()?;
            Declaration::IndexableTemp {
                register,
                size,
                components: r.next()?,
            }
        }
        op::DCL_INDEX_RANGE => {
            ins.operands.push(decode_operand(r, 0)?);
            Declaration::IndexRange(r.next()?)
        }
        op::DCL_GS_INPUT_PRIMITIVE => Declaration::InputPrimitive((c & 0x3f) as u8),
        op::DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => Declaration::OutputTopology((c & 0x7f) as u8),
        op::DCL_MAX_OUTPUT_VERTEX_COUNT
        | op::DCL_GS_INSTANCE_COUNT
        | op::DCL_HS_FORK_PHASE_INSTANCE_COUNT
        | op::DCL_HS_JOIN_PHASE_INSTANCE_COUNT => Declaration::Count(r.next()?),
        op::DCL_INPUT_CONTROL_POINT_COUNT | op::DCL_OUTPUT_CONTROL_POINT_COUNT => {
            Declaration::Count(c & 0x3f)
        }
        op::DCL_STREAM => {
            ins.operands.push(decode_operand(r, 0)?);
            Declaration::Stream
        }
        op::DCL_THREAD_GROUP => {
            let x = r.next()?;
            let y = r.next()?;
            Declaration::ThreadGroup([x, y, r.next()?])
        }
        op::DCL_TESS_DOMAIN => Declaration::TessDomain((c & 0x3) as u8),
        op::DCL_TESS_PARTITIONING => Declaration::TessPartitioning((c & 0x7) as u8),
        op::DCL_TESS_OUTPUT_PRIMITIVE => Declaration::TessOutputPrimitive((c & 0x7) as u8),
        op::DCL_HS_MAX_TESSFACTOR => Declaration::MaxTessFactor(f32::from_bits(r.next()?)),
        op::DCL_FUNCTION_BODY => Declaration::FunctionBody(r.next()?),
        op::DCL_FUNCTION_TABLE => {
            let table = r.next()?;
            let count = r.next()?;
            let mut bodies = Vec::new();
            for _ in 0..count {
                bodies.push(r.next()?);
            }
            Declaration::FunctionTable { table, bodies }
        }
        op::DCL_INTERFACE => {
            let interface = r.next()?;
            let call_sites = r.next()?;
            let counts = r.next()?;
            let mut tables = Vec::new();
            for _ in 0..(counts & 0xffff) {
                tables.push(r.next()?);
            }
            Declaration::Interface {
                interface,
                dynamic: c & 1 != 0,
                call_sites,
                array_len: counts >> 16,
                tables,
            }
        }
        _ => return Err((r.pos, DecodeErrorKind::UnknownOpcode(ins.opcode))),
    })
}

fn decode_operand(r: &mut Reader<'_>, depth: u32) -> Result<Operand, Fail> {
    let at = r.pos;
    let t = r.next()?;
    let kind = ((t >> 12) & 0xff) as u8;
    let components = match t & 3 {
        0 => Components::None,
        1 => Components::One,
        2 => match (t >> 2) & 3 {
            0 => Components::Mask(((t >> 4) & 0xf) as u8),
            1 => Components::Swizzle([
                ((t >> 4) & 3) as u8,
                ((t >> 6) & 3) as u8,
                ((t >> 8) & 3) as u8,
                ((t >> 10) & 3) as u8,
            ]),
            2 => Components::Select(((t >> 4) & 3) as u8),
            _ => {
                return Err((
                    at,
                    DecodeErrorKind::BadOperand("component selection mode 3"),
                ))
            }
        },
        _ => return Err((at, DecodeErrorKind::BadOperand("N-component operand"))),
    };
    let dims = ((t >> 20) & 3) as usize;
    let mut operand = Operand {
        kind,
        components,
        indices: Vec::new(),
        modifier: 0,
        min_precision: 0,
        nonuniform: false,
        immediate: Vec::new(),
    };
    if t & 0x8000_0000 != 0 {
        let e = r.next()?;
        if e & 0x3f == 1 {
            operand.modifier = ((e >> 6) & 0xff) as u8;
            operand.min_precision = ((e >> 14) & 0x7) as u8;
            operand.nonuniform = e & (1 << 17) != 0;
        }
    }
    if kind == operand_type::IMMEDIATE32 || kind == operand_type::IMMEDIATE64 {
        // One word per component for both kinds: a 64-bit immediate
        // packs two doubles into its four words.
        let words = match t & 3 {
            1 => 1,
            2 => 4,
            _ => {
                return Err((
                    at,
                    DecodeErrorKind::BadOperand("immediate without components"),
                ))
            }
        };
        for _ in 0..words {
            operand.immediate.push(r.next()?);
        }
    }
    for i in 0..dims {
        let representation = (t >> (22 + 3 * i)) & 7;
        let index = match representation {
            0 => Index {
                value: u64::from(r.next()?),
                relative: None,
            },
            1 => {
                let hi = r.next()?;
                let lo = r.next()?;
                Index {
                    value: (u64::from(hi) << 32) | u64::from(lo),
                    relative: None,
                }
            }
            2 => Index {
                value: 0,
                relative: Some(Box::new(relative(r, depth)?)),
            },
            3 => {
                let value = u64::from(r.next()?);
                Index {
                    value,
                    relative: Some(Box::new(relative(r, depth)?)),
                }
            }
            4 => {
                let hi = r.next()?;
                let lo = r.next()?;
                Index {
                    value: (u64::from(hi) << 32) | u64::from(lo),
                    relative: Some(Box::new(relative(r, depth)?)),
                }
            }
            _ => return Err((at, DecodeErrorKind::BadOperand("index representation"))),
        };
        operand.indices.push(index);
    }
    Ok(operand)
}

fn relative(r: &mut Reader<'_>, depth: u32) -> Result<Operand, Fail> {
    if depth >= MAX_RELATIVE_DEPTH {
        return Err((r.pos, DecodeErrorKind::RelativeTooDeep));
    }
    decode_operand(r, depth + 1)
}
