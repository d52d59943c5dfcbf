//! Shader model 1–3 (Direct3D 9) bytecode, as fxc embeds it in the Aon9
//! part of `*_4_0_level_9_x` shaders: a decoded token stream, the debug
//! information fxc stores in a `DBUG` comment, and a printer that writes the
//! listing the way Microsoft's disassembler does (`ps_2_0`, `dcl t0  // pin<0,1,2,3>`,
//! `#line 12 "file"`, `// approximately N instruction slots used`).
//!
//! Token layout (Direct3D 9 driver documentation; vkd3d `d3dbc.c`, facts only):
//! a version token (`0xFFFE` vs / `0xFFFF` ps in the high half, major and
//! minor in the low bytes), then instruction tokens (opcode in bits 0–15,
//! opcode controls in 16–23, length in tokens in 24–27 from shader model 2,
//! predicated bit 28, co-issue bit 30) each followed by their parameter
//! tokens, comments (`0xFFFE` with the length in bits 16–30) and the end token
//! `0x0000FFFF`. A parameter token holds the register number (bits 0–10), the
//! register type (bits 28–30 and 11–12), relative addressing (bit 13), and
//! for a destination the write mask (16–19), result modifier (20–23) and
//! shift (24–27), for a source the swizzle (16–23) and modifier (24–27).
//!
//! The `DBUG` comment is `D3DXSHADER_DEBUGINFO` (d3dx9shader.h): size,
//! creator, source, file table, instruction table (`u16 line`, `u16 file`,
//! `u32 byte offset` from the version token), variable table (`scope`,
//! `name`, `type`, `write count`, `writes`) and the entry point name; a
//! write is `u32 instruction index` and four `u16` variable components
//! (`0xFFFF` = none). All offsets are from the start of the comment data
//! after the `DBUG` tag.

pub mod opcode;

use crate::cursor::Cursor;
use crate::error::{Limit, ReadError, ReadErrorKind, Result};
use crate::listing::dxbc::number::{general9, FloatRounding};
use crate::listing::dxbc::ListingOptions;
use crate::sm4::MAX_BLOCK_DEPTH;
use crate::stage::{ShaderKind, TargetType};
use opcode::{op, Block, Sm1Params};
use std::fmt::{self, Write};

/// Most instructions decoded from one program (a program cannot hold more
/// instructions than it has tokens; this bounds the work on hostile input).
pub const MAX_INSTRUCTIONS: usize = 1 << 20;

/// The version token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sm2Version {
    /// [`ShaderKind::Vertex`] (`0xFFFE`) or [`ShaderKind::Pixel`] (`0xFFFF`),
    /// the codes of an RDEF target ([`TargetType`]).
    pub kind: ShaderKind,
    /// Major shader model.
    pub major: u8,
    /// Minor shader model (1 prints as `x`, 0xFF as `sw`).
    pub minor: u8,
}

impl Sm2Version {
    /// The profile as the disassembler prints it (`vs_2_0`, `ps_2_x`, `ps_3_sw`).
    pub fn profile(&self) -> String {
        let kind = self.kind.profile_prefix();
        let minor = match self.minor {
            0xff => "sw".to_string(),
            m if self.major >= 2 && m != 0 => "x".to_string(),
            m => m.to_string(),
        };
        format!("{kind}_{}_{minor}", self.major)
    }
}

/// One decoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sm2Instruction {
    /// Byte offset of the instruction token from the version token.
    pub offset: u32,
    /// Opcode (bits 0–15 of the instruction token).
    pub opcode: u16,
    /// Opcode-specific controls (bits 16–23): comparison or texld variant.
    pub controls: u8,
    /// Predicated (bit 28): the predicate register follows the destination.
    pub predicated: bool,
    /// Co-issued with the previous instruction (bit 30).
    pub coissue: bool,
    /// The parameter tokens that follow the instruction token.
    pub params: Vec<u32>,
}

/// A register reference decoded from a parameter token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sm2Register {
    /// `D3DSHADER_PARAM_REGISTER_TYPE` (0 temp, 1 input, 2 const, 3 address/texture, …).
    pub register_type: u8,
    /// Register number.
    pub number: u32,
    /// Relative addressing bit.
    pub relative: bool,
}

impl Sm2Register {
    /// Decodes the register fields of a parameter token.
    pub fn from_token(token: u32) -> Sm2Register {
        Sm2Register {
            register_type: (((token >> 28) & 7) | ((token >> 8) & 0x18)) as u8,
            number: token & 0x7ff,
            relative: token & (1 << 13) != 0,
        }
    }
}

/// A variable written by an instruction (`D3DXSHADER_WRITEINFO`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableWrite<'data> {
    /// Scope (function name), empty for none.
    pub scope: &'data [u8],
    /// Variable name.
    pub name: &'data [u8],
    /// Index into the instruction table.
    pub instruction: u32,
    /// Variable components per output component (`0xFFFF` = none).
    pub components: [u16; 4],
}

/// An instruction's source position (`D3DXSHADER_INSTRUCTIONINFO`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstructionSource {
    /// Source line.
    pub line: u16,
    /// File index (`0xFFFF` = none).
    pub file: u16,
    /// Byte offset of the instruction from the version token.
    pub offset: u32,
}

/// The decoded `DBUG` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugInfo<'data> {
    /// Creator string.
    pub creator: &'data [u8],
    /// Source file names.
    pub files: Vec<&'data [u8]>,
    /// Source position of each instruction.
    pub instructions: Vec<InstructionSource>,
    /// Variable writes, in variable-table order.
    pub writes: Vec<VariableWrite<'data>>,
    /// Entry point name.
    pub entry_point: &'data [u8],
}

/// A decoded SM1–3 program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sm2Program<'data> {
    /// The version token.
    pub version: Sm2Version,
    /// Instructions in order (comments and the end token excluded).
    pub instructions: Vec<Sm2Instruction>,
    /// fxc's debug information, when the program has a `DBUG` comment.
    pub debug: Option<DebugInfo<'data>>,
}

/// Number of parameter tokens for shader model 1 instructions, which carry no length.
fn sm1_param_count(opcode: u16, version: Sm2Version) -> Option<usize> {
    match opcode::info(opcode)?.sm1_params {
        Sm1Params::None => None,
        Sm1Params::Fixed(n) => Some(usize::from(n)),
        Sm1Params::Texture if version.kind == ShaderKind::Pixel && version.minor >= 4 => Some(2),
        Sm1Params::Texture => Some(1),
    }
}

fn read_version(token: u32, at: u64) -> Result<Sm2Version> {
    let kind = match TargetType::from_raw((token >> 16) as u16).stage() {
        Some(kind @ (ShaderKind::Vertex | ShaderKind::Pixel)) => kind,
        _ => {
            return Err(ReadError::new(
                at,
                ReadErrorKind::unknown_value(Sm2Error::VersionToken { value: token }),
            ))
        }
    };
    Ok(Sm2Version {
        kind,
        major: ((token >> 8) & 0xff) as u8,
        minor: (token & 0xff) as u8,
    })
}

impl<'data> Sm2Program<'data> {
    /// Decodes SM1–3 bytecode located at absolute offset `base`.
    ///
    /// Errors name the offset of the bad token: a truncated instruction or
    /// comment, an unknown shader-model-1 opcode, a missing end token.
    pub fn parse(data: &'data [u8], base: u64) -> Result<Sm2Program<'data>> {
        let c = Cursor::new(data, base);
        let version = read_version(c.u32(0, "SM1-3 version token")?, base)?;
        let mut instructions = Vec::new();
        let mut debug = None;
        let mut depth = 0usize;
        // Byte position of the next token; every step moves it by whole tokens.
        let mut p: u64 = 4;
        loop {
            if c.len().saturating_sub(p) < 4 {
                return Err(c.error(p, ReadErrorKind::missing(Sm2Error::EndTokenMissing)));
            }
            let token_at = p;
            let token = c.take_u32(&mut p, "SM1-3 instruction token")?;
            if token == 0x0000_ffff {
                break;
            }
            let opcode = (token & 0xffff) as u16;
            if opcode == 0xfffe {
                let len = u64::from((token >> 16) & 0x7fff);
                let body = c.take_sub(&mut p, len * 4, "SM1-3 comment")?;
                if body.data().starts_with(b"DBUG") && debug.is_none() {
                    debug = Some(DebugInfo::parse(body.rest(4), body.abs(4))?);
                }
                continue;
            }
            let count = if version.major >= 2 {
                u64::from((token >> 24) & 0xf)
            } else {
                match sm1_param_count(opcode, version) {
                    Some(n) => n as u64,
                    None => {
                        return Err(c.error(
                            token_at,
                            ReadErrorKind::unknown_value(Sm2Error::Sm1Opcode { value: opcode }),
                        ))
                    }
                }
            };
            let params = c
                .take_u32_each(&mut p, count, "SM1-3 instruction parameter")?
                .collect();
            // An else closes one block and opens the next: no change.
            if block(opcode) == Block::Close {
                depth = depth.saturating_sub(1);
            } else if block(opcode) == Block::Open {
                depth += 1;
                if depth > MAX_BLOCK_DEPTH {
                    return Err(c.error(
                        token_at,
                        ReadErrorKind::limit_exceeded(Limit::BlockDepth {
                            limit: MAX_BLOCK_DEPTH as u64,
                        }),
                    ));
                }
            }
            if instructions.len() >= MAX_INSTRUCTIONS {
                return Err(c.error(
                    token_at,
                    ReadErrorKind::limit_exceeded(Sm2Error::TooManyInstructions),
                ));
            }
            instructions.push(Sm2Instruction {
                offset: token_at as u32,
                opcode,
                controls: ((token >> 16) & 0xff) as u8,
                predicated: token & (1 << 28) != 0,
                coissue: token & (1 << 30) != 0,
                params,
            });
        }
        Ok(Sm2Program {
            version,
            instructions,
            debug,
        })
    }
}

crate::record::record! {
    /// The header of a `DBUG` comment (offsets count from its start).
    struct DbugHeader: "DBUG header" {
        /// Not read (size).
        0 reserved: crate::record::Reserved<4>;
        /// The creator string.
        4 creator: u32;
        /// Not read.
        8 reserved2: crate::record::Reserved<4>;
        /// Number of source files.
        12 file_count: u32;
        /// Their name offsets.
        16 file_table: u32;
        /// Number of instruction records.
        20 instruction_count: u32;
        /// Where they are.
        24 instruction_table: u32;
        /// Number of variable records.
        28 variable_count: u32;
        /// Where they are.
        32 variable_table: u32;
        /// The entry point's name.
        36 entry_point: u32;
    }
}

crate::record::record! {
    /// Where an instruction came from.
    struct DbugInstruction: "DBUG instruction" {
        /// Source line.
        0 line: u16;
        /// Source file index.
        2 file: u16;
        /// Byte offset of the instruction.
        4 offset: u32;
    }
}

crate::record::record! {
    /// A variable and where its writes are listed.
    struct DbugVariable: "DBUG variable" {
        /// Its scope's name.
        0 scope: u32;
        /// Its name.
        4 name: u32;
        /// Not read.
        8 reserved: crate::record::Reserved<4>;
        /// Number of write records.
        12 write_count: u32;
        /// Where they are.
        16 write_table: u32;
    }
}

crate::record::record! {
    /// One write of a variable: the instruction and the component of the
    /// variable each destination component holds.
    struct DbugWrite: "DBUG write" {
        /// The instruction.
        0 instruction: u32;
        /// x's component.
        4 x: u16;
        /// y's.
        6 y: u16;
        /// z's.
        8 z: u16;
        /// w's.
        10 w: u16;
    }
}

impl<'data> DebugInfo<'data> {
    /// Decodes the data of a `DBUG` comment (after the tag) at absolute offset `base`.
    pub fn parse(data: &'data [u8], base: u64) -> Result<DebugInfo<'data>> {
        let c = Cursor::new(data, base);
        let string = |offset: u32, what: &'static str| -> Result<&'data [u8]> {
            if offset == 0 {
                return Ok(&[]);
            }
            c.cstr(u64::from(offset), c.len(), what)
        };
        let header = DbugHeader::read(&c, 0)?;
        let creator = string(header.creator, "DBUG creator")?;
        let entry_point = string(header.entry_point, "DBUG entry point")?;
        // Every table must lie inside the comment before anything is allocated.
        let file_table = c.u32s(
            u64::from(header.file_table),
            u64::from(header.file_count),
            "DBUG file table",
        )?;
        let instruction_table = c.records(
            u64::from(header.instruction_table),
            u64::from(header.instruction_count),
            DbugInstruction::SIZE,
            "DBUG instruction table",
        )?;
        let variable_table = c.records(
            u64::from(header.variable_table),
            u64::from(header.variable_count),
            DbugVariable::SIZE,
            "DBUG variable table",
        )?;
        let files = file_table
            .map(|name| string(name, "DBUG file name"))
            .collect::<Result<Vec<_>>>()?;
        let mut instructions = Vec::new();
        for (_, r) in instruction_table {
            let r = DbugInstruction::read(&r, 0)?;
            instructions.push(InstructionSource {
                line: r.line,
                file: r.file,
                offset: r.offset,
            });
        }
        let mut writes = Vec::new();
        for (_, v) in variable_table {
            let v = DbugVariable::read(&v, 0)?;
            let scope = string(v.scope, "DBUG variable scope")?;
            let name = string(v.name, "DBUG variable name")?;
            for (_, w) in c.records(
                u64::from(v.write_table),
                u64::from(v.write_count),
                DbugWrite::SIZE,
                "DBUG variable writes",
            )? {
                let w = DbugWrite::read(&w, 0)?;
                let instruction = w.instruction;
                let components = [w.x, w.y, w.z, w.w];
                writes.push(VariableWrite {
                    scope,
                    name,
                    instruction,
                    components,
                });
            }
        }
        Ok(DebugInfo {
            creator,
            files,
            instructions,
            writes,
            entry_point,
        })
    }
}

/// Instruction slots and whether they are texture slots, for the closing
/// statistics line (1 arithmetic slot for numbers the table lacks).
fn slots(opcode: u16) -> (u32, bool) {
    opcode::info(opcode).map_or((1, false), |i| (i.slots, i.texture))
}

/// The mnemonic: the table's, but shader model 1 spells two opcodes its own
/// way (`texcrd` in ps_1_4, `tex` before it).
fn mnemonic(opcode: u16, version: Sm2Version) -> Option<&'static str> {
    let ps14 = version.kind == ShaderKind::Pixel && version.major == 1 && version.minor >= 4;
    match opcode {
        op::TEXCOORD if ps14 => Some("texcrd"),
        op::TEX if version.major < 2 && !(version.major == 1 && version.minor >= 4) => Some("tex"),
        _ => opcode::info(opcode)?.name,
    }
}

/// Whether the instruction's first parameter is a destination (numbers the
/// table lacks are printed as if it were).
fn has_destination(opcode: u16) -> bool {
    opcode::info(opcode).is_none_or(|i| i.destination)
}

/// The block structure of `opcode`.
fn block(opcode: u16) -> Block {
    opcode::info(opcode).map_or(Block::None, |i| i.block)
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

fn comparison(controls: u8) -> &'static str {
    match controls & 7 {
        1 => "gt",
        2 => "eq",
        3 => "ge",
        4 => "lt",
        5 => "ne",
        6 => "le",
        _ => "??",
    }
}

const USAGES: [&str; 14] = [
    "position",
    "blendweight",
    "blendindices",
    "normal",
    "psize",
    "texcoord",
    "tangent",
    "binormal",
    "tessfactor",
    "positiont",
    "color",
    "fog",
    "depth",
    "sample",
];

struct Printer<'a> {
    version: Sm2Version,
    rounding: FloatRounding,
    out: &'a mut String,
}

impl Printer<'_> {
    fn register_name(&self, reg: Sm2Register) -> String {
        let n = reg.number;
        let vs = self.version.kind == ShaderKind::Vertex;
        match reg.register_type {
            0 => format!("r{n}"),
            1 => format!("v{n}"),
            2 => format!("c{n}"),
            3 => {
                if vs {
                    format!("a{n}")
                } else {
                    format!("t{n}")
                }
            }
            4 => match n {
                0 => "oPos".into(),
                1 => "oFog".into(),
                _ => "oPts".into(),
            },
            5 => format!("oD{n}"),
            6 => {
                if vs && self.version.major >= 3 {
                    format!("o{n}")
                } else {
                    format!("oT{n}")
                }
            }
            7 => format!("i{n}"),
            8 => format!("oC{n}"),
            9 => "oDepth".into(),
            10 => format!("s{n}"),
            11 => format!("c{}", n + 2048),
            12 => format!("c{}", n + 4096),
            13 => format!("c{}", n + 6144),
            14 => format!("b{n}"),
            15 => "aL".into(),
            16 => format!("half{n}"),
            17 => {
                if n == 0 {
                    "vPos".into()
                } else {
                    "vFace".into()
                }
            }
            18 => format!("l{n}"),
            19 => format!("p{n}"),
            t => format!("?{t}_{n}"),
        }
    }

    fn mask(mask: u32) -> String {
        if mask == 0xf || mask == 0 {
            return String::new();
        }
        let mut s = String::from(".");
        for (i, c) in COMPONENTS.iter().enumerate() {
            if mask & (1 << i) != 0 {
                s.push(*c);
            }
        }
        s
    }

    fn swizzle(swizzle: u32) -> String {
        let comps: Vec<usize> = (0..4)
            .map(|i| ((swizzle >> (2 * i)) & 3) as usize)
            .collect();
        if comps == [0, 1, 2, 3] {
            return String::new();
        }
        if comps.iter().all(|&c| c == comps[0]) {
            return format!(".{}", COMPONENTS[comps[0]]);
        }
        let mut s = String::from(".");
        for c in comps {
            s.push(COMPONENTS[c]);
        }
        s
    }

    fn destination(&self, token: u32) -> String {
        let reg = Sm2Register::from_token(token);
        format!(
            "{}{}",
            self.register_name(reg),
            Self::mask((token >> 16) & 0xf)
        )
    }

    /// A source operand starting at `params[*i]`; advances past a relative-address token.
    fn source(&self, params: &[u32], i: &mut usize) -> String {
        let Some(&token) = params.get(*i) else {
            return "?".into();
        };
        *i += 1;
        let reg = Sm2Register::from_token(token);
        let mut name = self.register_name(reg);
        if reg.relative {
            if self.version.major >= 2 {
                if let Some(&addr) = params.get(*i) {
                    *i += 1;
                    let areg = Sm2Register::from_token(addr);
                    let comp = COMPONENTS[((addr >> 16) & 3) as usize];
                    if areg.register_type == 15 {
                        name.push_str(&format!("[{}]", self.register_name(areg)));
                    } else {
                        name.push_str(&format!("[{}.{comp}]", self.register_name(areg)));
                    }
                }
            } else {
                name.push_str("[a0.x]");
            }
        }
        let swizzle = Self::swizzle((token >> 16) & 0xff);
        match (token >> 24) & 0xf {
            1 => format!("-{name}{swizzle}"),
            2 => format!("{name}_bias{swizzle}"),
            3 => format!("-{name}_bias{swizzle}"),
            4 => format!("{name}_bx2{swizzle}"),
            5 => format!("-{name}_bx2{swizzle}"),
            6 => format!("1 - {name}{swizzle}"),
            7 => format!("{name}_x2{swizzle}"),
            8 => format!("-{name}_x2{swizzle}"),
            9 => format!("{name}_dz{swizzle}"),
            10 => format!("{name}_dw{swizzle}"),
            11 => format!("{name}_abs{swizzle}"),
            12 => format!("-{name}_abs{swizzle}"),
            13 => format!("!{name}{swizzle}"),
            _ => format!("{name}{swizzle}"),
        }
    }

    fn result_modifiers(token: u32) -> String {
        let mut s = String::new();
        match (token >> 24) & 0xf {
            1 => s.push_str("_x2"),
            2 => s.push_str("_x4"),
            3 => s.push_str("_x8"),
            15 => s.push_str("_d2"),
            14 => s.push_str("_d4"),
            13 => s.push_str("_d8"),
            _ => {}
        }
        let modifier = (token >> 20) & 0xf;
        if modifier & 1 != 0 {
            s.push_str("_sat");
        }
        if modifier & 2 != 0 {
            s.push_str("_pp");
        }
        if modifier & 4 != 0 {
            s.push_str("_centroid");
        }
        s
    }

    /// The text of one instruction (without indentation and notes).
    fn instruction(&self, ins: &Sm2Instruction) -> String {
        let p = &ins.params;
        let name = mnemonic(ins.opcode, self.version)
            .map(str::to_string)
            .unwrap_or_else(|| format!("op{}", ins.opcode));
        match ins.opcode {
            op::DCL => {
                // dcl: usage token, then the declared register.
                let usage = p.first().copied().unwrap_or(0);
                let dest = p.get(1).copied().unwrap_or(0);
                let reg = Sm2Register::from_token(dest);
                let mods = Self::result_modifiers(dest);
                let suffix = if reg.register_type == 10 {
                    match (usage >> 27) & 0xf {
                        1 => "_1d".to_string(),
                        2 => "_2d".to_string(),
                        3 => "_cube".to_string(),
                        4 => "_volume".to_string(),
                        t => format!("_unknown{t}"),
                    }
                } else if self.declares_usage(reg) {
                    let kind = USAGES.get((usage & 0x1f) as usize).unwrap_or(&"unknown");
                    let index = (usage >> 16) & 0xf;
                    if index == 0 {
                        format!("_{kind}")
                    } else {
                        format!("_{kind}{index}")
                    }
                } else {
                    String::new()
                };
                format!("dcl{suffix}{mods} {}", self.destination(dest))
            }
            op::DEF => {
                let dest = p.first().copied().unwrap_or(0);
                let values: Vec<String> = p
                    .iter()
                    .skip(1)
                    .map(|v| general9(f32::from_bits(*v), self.rounding))
                    .collect();
                format!("def {}, {}", self.destination(dest), values.join(", "))
            }
            op::DEFI => {
                let dest = p.first().copied().unwrap_or(0);
                let values: Vec<String> =
                    p.iter().skip(1).map(|v| (*v as i32).to_string()).collect();
                format!("defi {}, {}", self.destination(dest), values.join(", "))
            }
            op::DEFB => {
                let dest = p.first().copied().unwrap_or(0);
                let value = if p.get(1).copied().unwrap_or(0) != 0 {
                    "true"
                } else {
                    "false"
                };
                format!("defb {}, {value}", self.destination(dest))
            }
            _ => self.generic(ins, name),
        }
    }

    fn declares_usage(&self, reg: Sm2Register) -> bool {
        match self.version.kind {
            ShaderKind::Vertex => true,
            _ => self.version.major >= 3 && reg.register_type == 1,
        }
    }

    fn generic(&self, ins: &Sm2Instruction, name: String) -> String {
        let p = &ins.params;
        let mut text = String::new();
        if ins.coissue {
            text.push('+');
        }
        let mut i = 0;
        let mut operands = Vec::new();
        let mut mods = String::new();
        if has_destination(ins.opcode) && !p.is_empty() {
            let dest = p[0];
            i = 1;
            mods = Self::result_modifiers(dest);
            if Sm2Register::from_token(dest).relative && self.version.major >= 3 {
                i += 1;
            }
            operands.push(self.destination(dest));
        }
        if ins.predicated && i < p.len() {
            let pred = self.source(p, &mut i);
            text.push_str(&format!("({pred}) "));
        }
        let mut full = name;
        match ins.opcode {
            op::IFC | op::BREAKC | op::SETP => {
                full.push('_');
                full.push_str(comparison(ins.controls));
            }
            op::TEX if self.version.major >= 2 => match ins.controls & 3 {
                1 => full.push('p'),
                2 => full.push('b'),
                _ => {}
            },
            _ => {}
        }
        full.push_str(&mods);
        while i < p.len() {
            operands.push(self.source(p, &mut i));
        }
        text.push_str(&full);
        if !operands.is_empty() {
            text.push(' ');
            text.push_str(&operands.join(", "));
        }
        text
    }
}

impl Sm2Program<'_> {
    /// Writes the listing: the profile line, every instruction with its
    /// `#line` and variable notes, a blank line and the instruction-slot count.
    pub fn write_listing(&self, options: &ListingOptions, out: &mut String) {
        let printer = Printer {
            version: self.version,
            rounding: options.rounding,
            out,
        };
        let mut text = String::new();
        text.push_str(&format!("    {}\n", self.version.profile()));
        // Source positions and notes keyed by the instruction's byte offset.
        let mut sources = std::collections::HashMap::new();
        let mut notes: std::collections::HashMap<u32, Vec<String>> =
            std::collections::HashMap::new();
        if let Some(debug) = &self.debug {
            for src in &debug.instructions {
                sources.entry(src.offset).or_insert(*src);
            }
            for w in &debug.writes {
                let Some(src) = debug.instructions.get(w.instruction as usize) else {
                    continue;
                };
                let comps: Vec<String> = w
                    .components
                    .iter()
                    .filter(|&&c| c != 0xffff)
                    .map(|c| c.to_string())
                    .collect();
                let name = String::from_utf8_lossy(w.name);
                let label = if w.scope.is_empty() {
                    format!("::{name}")
                } else if w.scope == debug.entry_point {
                    name.to_string()
                } else {
                    format!("{}::{name}", String::from_utf8_lossy(w.scope))
                };
                notes
                    .entry(src.offset)
                    .or_default()
                    .push(format!("{label}<{}>", comps.join(",")));
            }
        }
        let mut last_line: Option<(u16, u16)> = None;
        let mut last_file: Option<u16> = None;
        let mut depth = 0usize;
        let (mut total, mut texture) = (0u32, 0u32);
        for ins in &self.instructions {
            if let Some(src) = sources.get(&ins.offset) {
                // A new `#line` when the file changes or the line moves by
                // three or more from the previous instruction's.
                let moved = match last_line {
                    Some((line, file)) => {
                        file != src.file || (i32::from(src.line) - i32::from(line)).abs() >= 3
                    }
                    None => true,
                };
                if src.file != 0xffff && moved {
                    text.push_str(&format!("\n#line {}", src.line));
                    if last_file != Some(src.file) {
                        let file = self
                            .debug
                            .as_ref()
                            .and_then(|d| d.files.get(src.file as usize))
                            .map(|f| String::from_utf8_lossy(f).into_owned())
                            .unwrap_or_default();
                        text.push_str(&format!(" \"{file}\""));
                        last_file = Some(src.file);
                    }
                    text.push('\n');
                }
                last_line = (src.file != 0xffff).then_some((src.line, src.file));
            }
            if matches!(block(ins.opcode), Block::Close | Block::Else) {
                depth = depth.saturating_sub(1);
            }
            text.push_str("    ");
            for _ in 0..depth {
                text.push_str("  ");
            }
            text.push_str(&printer.instruction(ins));
            if let Some(n) = notes.get(&ins.offset) {
                text.push_str("  // ");
                text.push_str(&n.join(", "));
            }
            text.push('\n');
            if matches!(block(ins.opcode), Block::Open | Block::Else) {
                depth += 1;
            }
            let (n, is_texture) = slots(ins.opcode);
            total += n;
            if is_texture {
                texture += n;
            }
        }
        text.push('\n');
        let word = if total > 1 { "slots" } else { "slot" };
        let arithmetic = total - texture;
        if self.version.kind == ShaderKind::Pixel && arithmetic != total {
            let _ = writeln!(
                text,
                "// approximately {total} instruction {word} used ({texture} texture, {arithmetic} arithmetic)"
            );
        } else {
            let _ = writeln!(text, "// approximately {total} instruction {word} used");
        }
        printer.out.push_str(&text);
    }
}

/// Test helpers: a small SM2 program builder with a `DBUG` comment.
#[cfg(test)]
pub(crate) mod build {
    /// A `DBUG` comment body (tag included): one file, the given instruction
    /// positions `(line, file, byte offset)`, variables `(scope, name, writes)`
    /// with writes `(instruction index, components)`, entry point `main`.
    #[allow(clippy::type_complexity)]
    pub fn dbug(
        files: &[&str],
        instructions: &[(u16, u16, u32)],
        variables: &[(&str, &str, &[(u32, [u16; 4])])],
    ) -> Vec<u8> {
        let mut d = vec![0u8; 40];
        let string = |d: &mut Vec<u8>, s: &str| -> u32 {
            if s.is_empty() {
                return 0;
            }
            let at = d.len() as u32;
            d.extend_from_slice(s.as_bytes());
            d.push(0);
            d.resize(d.len().div_ceil(4) * 4, 0);
            at
        };
        let creator = string(&mut d, "test compiler");
        let entry = string(&mut d, "main");
        let file_names: Vec<u32> = files.iter().map(|f| string(&mut d, f)).collect();
        let var_names: Vec<(u32, u32)> = variables
            .iter()
            .map(|(scope, name, _)| {
                let scope = if *scope == "main" {
                    entry
                } else {
                    string(&mut d, scope)
                };
                (scope, string(&mut d, name))
            })
            .collect();
        let file_table = d.len() as u32;
        for f in &file_names {
            d.extend_from_slice(&f.to_le_bytes());
        }
        let instr_table = d.len() as u32;
        for (line, file, offset) in instructions {
            d.extend_from_slice(&line.to_le_bytes());
            d.extend_from_slice(&file.to_le_bytes());
            d.extend_from_slice(&offset.to_le_bytes());
        }
        let mut write_tables = Vec::new();
        for (_, _, writes) in variables {
            write_tables.push(d.len() as u32);
            for (instruction, comps) in writes.iter() {
                d.extend_from_slice(&instruction.to_le_bytes());
                for c in comps {
                    d.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        let var_table = d.len() as u32;
        for (i, (_, _, writes)) in variables.iter().enumerate() {
            for v in [
                var_names[i].0,
                var_names[i].1,
                0,
                writes.len() as u32,
                write_tables[i],
            ] {
                d.extend_from_slice(&v.to_le_bytes());
            }
        }
        let header = [
            40,
            creator,
            0,
            files.len() as u32,
            file_table,
            instructions.len() as u32,
            instr_table,
            variables.len() as u32,
            var_table,
            entry,
        ];
        for (i, v) in header.iter().enumerate() {
            d[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
        }
        let mut out = b"DBUG".to_vec();
        out.extend_from_slice(&d);
        out
    }

    /// Tokens of a program: version, a comment holding `comment`, `body`, end.
    pub fn program(version: u32, comment: &[u8], body: &[u32]) -> Vec<u8> {
        let mut out = version.to_le_bytes().to_vec();
        if !comment.is_empty() {
            let words = comment.len().div_ceil(4);
            out.extend_from_slice(&(0xfffe | ((words as u32) << 16)).to_le_bytes());
            out.extend_from_slice(comment);
            out.resize(out.len() + words * 4 - comment.len(), 0);
        }
        for t in body {
            out.extend_from_slice(&t.to_le_bytes());
        }
        out.extend_from_slice(&0x0000_ffffu32.to_le_bytes());
        out
    }
}

/// The SM1-3 decoder's errors, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sm2Error {
    /// The version token is neither a vs nor a ps token.
    VersionToken {
        /// The token.
        value: u32,
    },
    /// An SM1 opcode this reader has no parameter count for.
    Sm1Opcode {
        /// The opcode.
        value: u16,
    },
    /// No end token before the data ends.
    EndTokenMissing,
    /// More instructions than [`MAX_INSTRUCTIONS`].
    TooManyInstructions,
}

impl fmt::Display for Sm2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sm2Error::VersionToken { value } => {
                write!(f, "SM1-3 version token {value:#010x} is not a vs/ps token")
            }
            Sm2Error::Sm1Opcode { value } => write!(f, "unknown shader model 1 opcode {value}"),
            Sm2Error::EndTokenMissing => f.write_str("SM1-3 program has no end token"),
            Sm2Error::TooManyInstructions => f.write_str("SM1-3 program has too many instructions"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::build::{dbug, program};
    use super::*;

    #[test]
    fn each_error_says_its_sentence() {
        use Sm2Error::*;
        crate::testutil::errors_say(vec![
            (
                VersionToken { value: 0x1234_0200 },
                "SM1-3 version token 0x12340200 is not a vs/ps token",
            ),
            (Sm1Opcode { value: 99 }, "unknown shader model 1 opcode 99"),
            (EndTokenMissing, "SM1-3 program has no end token"),
            (
                TooManyInstructions,
                "SM1-3 program has too many instructions",
            ),
        ]);
    }

    /// dcl t0; dcl_2d s0; def c0; texld r0, t0, s0; mad_sat r1.xy, r0.x, -c0.yzxw, t0; mov oC0, r0.
    const BODY: [u32; 24] = [
        0x0200_001f,
        0x8000_0000,
        0xb00f_0000,
        0x0200_001f,
        0x9000_0000,
        0xa00f_0800,
        0x0500_0051,
        0xa00f_0000,
        0x3f00_0000,
        0x8000_0000,
        0x3727_c5ac,
        0x4000_0000,
        0x0300_0042,
        0x800f_0000,
        0xb0e4_0000,
        0xa0e4_0800,
        0x0400_0004,
        0x8013_0001,
        0x8000_0000,
        0xa1c9_0000,
        0xb0e4_0000,
        0x0200_0001,
        0x800f_0800,
        0x80e4_0000,
    ];

    fn sample_program(with_debug: bool) -> Vec<u8> {
        let body = &BODY[..];
        // Byte offsets after the version token and the comment.
        let comment = if with_debug {
            let probe = dbug(
                &["a.fx"],
                &[(0, 0, 0); 5],
                &[
                    ("main", "pin", &[(0, [0, 1, 2, 3])]),
                    ("", "color", &[(2, [0, 1, 2, 3])]),
                    ("Foo", "x", &[(4, [0, 0xffff, 0xffff, 0xffff])]),
                    ("", "y", &[(4, [0xffff, 1, 0xffff, 0xffff])]),
                ],
            );
            let start = 4 + 4 + probe.len().div_ceil(4) as u32 * 4;
            let at = |tokens: u32| start + tokens * 4;
            dbug(
                &["a.fx"],
                &[
                    (0, 0xffff, at(0)),
                    (0, 0xffff, at(3)),
                    (10, 0, at(12)),
                    (11, 0, at(16)),
                    (20, 0, at(21)),
                ],
                &[
                    ("main", "pin", &[(0, [0, 1, 2, 3])]),
                    ("", "color", &[(2, [0, 1, 2, 3])]),
                    ("Foo", "x", &[(4, [0, 0xffff, 0xffff, 0xffff])]),
                    ("", "y", &[(4, [0xffff, 1, 0xffff, 0xffff])]),
                ],
            )
        } else {
            Vec::new()
        };
        program(0xffff_0200, &comment, body)
    }

    #[test]
    fn prints_program_with_lines_and_notes() {
        let bytes = sample_program(true);
        let p = Sm2Program::parse(&bytes, 0).unwrap();
        assert_eq!(p.version.profile(), "ps_2_0");
        assert_eq!(p.instructions.len(), 6);
        let debug = p.debug.as_ref().unwrap();
        assert_eq!(debug.entry_point, b"main");
        assert_eq!(debug.files, vec![&b"a.fx"[..]]);
        let mut out = String::new();
        p.write_listing(&ListingOptions::default(), &mut out);
        assert_eq!(
            out,
            "    ps_2_0\n\
             \x20   dcl t0  // pin<0,1,2,3>\n\
             \x20   dcl_2d s0\n\
             \x20   def c0, 0.5, -0, 9.99999975e-006, 2\n\
             \n\
             #line 10 \"a.fx\"\n\
             \x20   texld r0, t0, s0  // ::color<0,1,2,3>\n\
             \x20   mad_sat r1.xy, r0.x, -c0.yzxw, t0\n\
             \n\
             #line 20\n\
             \x20   mov oC0, r0  // Foo::x<0>, ::y<1>\n\
             \n\
             // approximately 3 instruction slots used (1 texture, 2 arithmetic)\n"
        );
    }

    #[test]
    fn prints_program_without_debug_info() {
        let bytes = sample_program(false);
        let p = Sm2Program::parse(&bytes, 0).unwrap();
        assert!(p.debug.is_none());
        let mut out = String::new();
        p.write_listing(&ListingOptions::default(), &mut out);
        assert!(out.contains("\n    texld r0, t0, s0\n    mad_sat"), "{out}");
        assert!(!out.contains("#line"));
    }

    #[test]
    fn vertex_program_operands() {
        // vs_2_x: dcl_texcoord1 v1; mova a0.w, v1.x; mad oPos.xy, c3[a0.w], v1.x, -c2_abs; nrm r0.xyz, v1.
        let body = [
            0x0200_001f,
            0x8001_0005,
            0x900f_0001,
            0x0200_002e,
            0xb008_0000,
            0x9000_0001,
            0x0500_0004,
            0xc003_0000,
            0xa0e4_2003,
            0xb0ff_0000,
            0x9000_0001,
            0xa0e4_0002 | (0xc << 24),
            0x0200_0024,
            0x8007_0000,
            0x90e4_0001,
        ];
        let bytes = program(0xfffe_0201, &[], &body);
        let p = Sm2Program::parse(&bytes, 0).unwrap();
        let mut out = String::new();
        p.write_listing(&ListingOptions::default(), &mut out);
        assert_eq!(
            out,
            "    vs_2_x\n\
             \x20   dcl_texcoord1 v1\n\
             \x20   mova a0.w, v1.x\n\
             \x20   mad oPos.xy, c3[a0.w], v1.x, -c2_abs\n\
             \x20   nrm r0.xyz, v1\n\
             \n\
             // approximately 5 instruction slots used\n"
        );
    }

    #[test]
    fn blocks_nested_past_the_limit_are_an_error_naming_the_token() {
        // ps_3_0, `depth` × `rep i0`, as many `endrep`, end.
        let program = |depth: usize| {
            let mut words = vec![0xffff_0300u32];
            for _ in 0..depth {
                words.extend_from_slice(&[38 | (1 << 24), 0xf0e4_0000]);
            }
            words.extend(std::iter::repeat_n(39u32, depth));
            words.push(0x0000_ffff);
            words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>()
        };
        let bytes = program(MAX_BLOCK_DEPTH);
        let at_limit = Sm2Program::parse(&bytes, 100).unwrap();
        let mut text = String::new();
        at_limit.write_listing(&ListingOptions::default(), &mut text);
        let deepest = format!("    {}rep i0\n", "  ".repeat(MAX_BLOCK_DEPTH - 1));
        assert!(text.contains(&deepest), "{text}");
        let e = Sm2Program::parse(&program(MAX_BLOCK_DEPTH + 1), 100).unwrap_err();
        // The rep past the limit: after the version token and 256 reps.
        assert_eq!(e.offset, 100 + 4 + 8 * MAX_BLOCK_DEPTH as u64);
        assert!(
            matches!(e.kind.detail(), Some(Limit::BlockDepth { limit: 256 }))
                && matches!(e.kind, ReadErrorKind::LimitExceeded { .. }),
            "{e}"
        );
    }

    #[test]
    fn malformed_programs_name_the_offset() {
        // No end token.
        let mut bytes = sample_program(false);
        bytes.truncate(bytes.len() - 4);
        let e = Sm2Program::parse(&bytes, 100).unwrap_err();
        assert_eq!(e.offset, 100 + bytes.len() as u64);
        assert!(
            matches!(e.kind, ReadErrorKind::Missing { .. })
                && e.kind.detail() == Some(&Sm2Error::EndTokenMissing),
            "{e}"
        );
        // An instruction whose length runs past the data.
        let bytes = program(0xffff_0200, &[], &[0x0f00_0001]);
        let e = Sm2Program::parse(&bytes[..8], 0).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Truncated { .. }), "{e}");
        assert_eq!(e.offset, 8);
        // Three parameters of which one is there: the error names the second,
        // as reading them one by one does.
        let bytes = program(0xffff_0200, &[], &[0x0300_0001, 0x800f_0000, 1, 2]);
        let e = Sm2Program::parse(&bytes[..14], 100).unwrap_err();
        assert_eq!(e.offset, 112);
        assert_eq!(
            e.kind,
            ReadErrorKind::Truncated {
                part: None,
                what: "SM1-3 instruction parameter",
                needed: 4,
                available: 2,
            }
        );
        // A comment longer than the program.
        let bytes = [0xffff_0200u32, 0x7fff_fffe]
            .iter()
            .flat_map(|t| t.to_le_bytes())
            .collect::<Vec<u8>>();
        let e = Sm2Program::parse(&bytes, 0).unwrap_err();
        assert_eq!(e.offset, 8);
        // Not a vs/ps version token.
        let e = Sm2Program::parse(&0x1234_0200u32.to_le_bytes(), 0).unwrap_err();
        assert_eq!(
            e.kind,
            ReadErrorKind::unknown_value(Sm2Error::VersionToken { value: 0x1234_0200 }),
            "{e}"
        );
        // A DBUG table past the comment.
        let mut d = dbug(&["a.fx"], &[(1, 0, 4)], &[]);
        d[4 + 24..4 + 28].copy_from_slice(&0xfff0u32.to_le_bytes());
        let bytes = program(0xffff_0200, &d, &[]);
        let e = Sm2Program::parse(&bytes, 0).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Truncated { .. }), "{e}");
        assert_eq!(e.offset, 12 + 0xfff0);
    }
}
