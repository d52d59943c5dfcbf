//! The listing text of a decoded program, spelled as Microsoft's
//! disassembler spells it (docs/format/sm4-listing.md).

use super::opcode::{self, op, ImmediateStyle, OpClass};
use super::operand_type as ot;
use super::{
    Body, Components, Declaration, DecodeError, Index, Instruction, Instructions, Operand, Program,
};
use crate::disasm::number::{fixed6, float_text, int_text, untyped_text};
use crate::disasm::ListingOptions;
use std::fmt::Write;

/// Writes the program's listing: the profile line, every declaration and
/// instruction (indented inside blocks), and — when `slots` is given — the
/// closing `// Approximately N instruction slots used` line, where `N` is
/// the instruction count of the STAT part (0 when the container has none).
pub fn write_program<W: Write>(
    program: &Program,
    slots: Option<u32>,
    options: &ListingOptions,
    out: &mut W,
) -> std::fmt::Result {
    writeln!(out, "{}", program.profile())?;
    let mut lines = Lines::default();
    for instruction in &program.instructions {
        lines.write(program, instruction, options, out)?;
    }
    if let Some(slots) = slots {
        writeln!(out, "// Approximately {slots} instruction slots used")?;
    }
    Ok(())
}

/// [`write_program`] for a program decoded as it is written
/// ([`Program::stream`]): at most one instruction and one line are held,
/// and the decoder bounds the nesting
/// ([`MAX_BLOCK_DEPTH`](super::MAX_BLOCK_DEPTH)) and so the indentation.
/// The slot line (`slots` is asked for it) follows only when every
/// instruction decoded; otherwise the listing stops before the bad one and
/// its error is returned.
pub fn write_streamed<W: Write>(
    header: &Program,
    instructions: Instructions,
    slots: impl FnOnce() -> u32,
    options: &ListingOptions,
    out: &mut W,
) -> Result<Option<DecodeError>, std::fmt::Error> {
    writeln!(out, "{}", header.profile())?;
    let mut lines = Lines::default();
    for instruction in instructions {
        match instruction {
            Ok(instruction) => lines.write(header, &instruction, options, out)?,
            Err(e) => return Ok(Some(e)),
        }
    }
    writeln!(out, "// Approximately {} instruction slots used", slots())?;
    Ok(None)
}

/// The listing's lines: the block depth so far and one line's buffer.
#[derive(Default)]
struct Lines {
    depth: usize,
    line: String,
}

impl Lines {
    fn write<W: Write>(
        &mut self,
        program: &Program,
        instruction: &Instruction,
        options: &ListingOptions,
        out: &mut W,
    ) -> std::fmt::Result {
        if matches!(instruction.body, Body::CustomData { .. }) {
            return Ok(());
        }
        if opcode::closes_block(instruction.opcode) {
            self.depth = self.depth.saturating_sub(1);
        }
        let indent = if instruction.opcode == op::ELSE {
            self.depth.saturating_sub(1)
        } else {
            self.depth
        };
        self.line.clear();
        for _ in 0..indent {
            self.line.push_str("  ");
        }
        write_instruction(program, instruction, options, &mut self.line);
        self.line.push('\n');
        if opcode::opens_block(instruction.opcode) {
            self.depth += 1;
        }
        out.write_str(&self.line)
    }
}

/// Writes one instruction or declaration (no indentation, no newline).
pub fn write_instruction(
    program: &Program,
    ins: &Instruction,
    options: &ListingOptions,
    out: &mut String,
) {
    let ctx = Ctx {
        sm51: program.is_sm51(),
        options: *options,
    };
    let info = ins.info();
    if let Body::Declaration(decl) = &ins.body {
        write_declaration(&ctx, ins, decl, out);
        return;
    }
    out.push_str(info.name);
    if info.class == OpClass::Conditional {
        out.push_str(if ins.test_nonzero() { "_nz" } else { "_z" });
    }
    if ins.saturate() {
        out.push_str("_sat");
    }
    if ins.opcode == op::SYNC {
        let c = ins.controls >> 11;
        if c & 8 != 0 {
            out.push_str("_uglobal");
        }
        if c & 4 != 0 {
            out.push_str("_ugroup");
        }
        if c & 2 != 0 {
            out.push_str("_g");
        }
        if c & 1 != 0 {
            out.push_str("_t");
        }
    }
    // Both extended tokens: `_aoffimmi_indexable(u,v,w)(texture2d)`.
    match (ins.texel_offset, ins.resource_dim) {
        (Some([u, v, w]), Some(_)) => {
            let _ = write!(out, "_aoffimmi_indexable({u},{v},{w})(");
        }
        (Some([u, v, w]), None) => {
            let _ = write!(out, "_aoffimmi({u},{v},{w})");
        }
        (None, Some(_)) => out.push_str("_indexable("),
        (None, None) => {}
    }
    if let Some((dim, stride)) = ins.resource_dim {
        out.push_str(resource_dimension(dim));
        if stride != 0 {
            let _ = write!(out, ", stride={stride}");
        }
        out.push(')');
    }
    if let Some(rt) = ins.return_type {
        write_return_type(rt, out);
    }
    match ins.opcode {
        op::RESINFO => match (ins.controls >> 11) & 3 {
            1 => out.push_str("_rcpFloat"),
            2 => out.push_str("_uint"),
            _ => {}
        },
        op::SAMPLE_INFO if (ins.controls >> 11) & 1 != 0 => out.push_str("_uint"),
        _ => {}
    }
    let precise = ins.precise_mask();
    if precise != 0 {
        out.push_str(" [precise");
        if precise != 0xf {
            out.push('(');
            out.push_str(&mask_letters(precise));
            out.push(')');
        }
        out.push(']');
    }
    // Every instruction is followed by a space (`ret `, `loop `), operands
    // or not, except `sync`, which has none.
    if ins.opcode != op::SYNC {
        out.push(' ');
    }
    let destinations = destinations(ins.opcode).min(ins.operands.len());
    // The first destination's minimum precision is the operation's: a source
    // of another precision is converted (`{def32 as min16f}`), except where
    // the sources are of another kind than the result (type conversions, a
    // resource's address and the resource itself).
    let converts = destinations > 0
        && !opcode::converts_type(ins.opcode)
        && !ins.operands.iter().any(|o| {
            matches!(
                o.kind,
                ot::SAMPLER
                    | ot::RESOURCE
                    | ot::UNORDERED_ACCESS_VIEW
                    | ot::THREAD_GROUP_SHARED_MEMORY
            )
        });
    let operation = converts.then(|| ins.operands[0].min_precision);
    for (i, operand) in ins.operands.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let (style, converted_to) = if i < destinations {
            (ImmediateStyle::Int, None)
        } else {
            (
                opcode::immediate_style(ins.opcode, i - destinations),
                operation,
            )
        };
        write_operand(&ctx, operand, style, false, converted_to, out);
        if i == 0 {
            if let Some(site) = ins.call_site {
                let _ = write!(out, "[{site}]");
            }
        }
    }
}

/// How many leading operands of `opcode` are destinations.
fn destinations(opcode: u16) -> usize {
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

struct Ctx {
    sm51: bool,
    options: ListingOptions,
}

fn write_declaration(ctx: &Ctx, ins: &Instruction, decl: &Declaration, out: &mut String) {
    let name = ins.info().name;
    let operand = ins.operands.first();
    let first_operand = |out: &mut String| {
        if let Some(o) = operand {
            write_operand(ctx, o, ImmediateStyle::Int, true, None, out);
        }
    };
    let space = |space: &Option<u32>, out: &mut String| {
        if let Some(s) = space {
            let _ = write!(out, ", space={s}");
        }
    };
    match decl {
        Declaration::GlobalFlags(flags) => {
            out.push_str(name);
            out.push(' ');
            write_global_flags(*flags, out);
        }
        Declaration::ConstantBuffer {
            dynamic,
            size,
            space: sp,
        } => {
            out.push_str(name);
            out.push(' ');
            first_operand(out);
            if let Some(size) = size {
                let _ = write!(out, "[{size}]");
            }
            out.push_str(if *dynamic {
                ", dynamicIndexed"
            } else {
                ", immediateIndexed"
            });
            space(sp, out);
        }
        Declaration::Sampler { mode, space: sp } => {
            out.push_str(name);
            out.push(' ');
            first_operand(out);
            out.push_str(match mode {
                1 => ", mode_comparison",
                2 => ", mode_mono",
                _ => ", mode_default",
            });
            space(sp, out);
        }
        Declaration::Typed {
            uav,
            dimension,
            sample_count,
            return_type,
            flags,
            space: sp,
        } => {
            out.push_str(if *uav {
                "dcl_uav_typed_"
            } else {
                "dcl_resource_"
            });
            out.push_str(resource_dimension(*dimension));
            if !uav && matches!(dimension, 4 | 9) {
                let _ = write!(out, "({sample_count})");
            }
            write_uav_flags(*flags, out);
            out.push(' ');
            write_return_type(*return_type, out);
            out.push(' ');
            first_operand(out);
            space(sp, out);
        }
        Declaration::Raw {
            flags, space: sp, ..
        } => {
            out.push_str(name);
            write_uav_flags(*flags, out);
            out.push(' ');
            first_operand(out);
            space(sp, out);
        }
        Declaration::Structured {
            stride,
            flags,
            space: sp,
            ..
        } => {
            out.push_str(name);
            write_uav_flags(*flags, out);
            out.push(' ');
            first_operand(out);
            let _ = write!(out, ", {stride}");
            // fxc writes `dcl_resource_structured t6, 24 ` with a trailing
            // space (not `dcl_uav_structured`).
            if ins.opcode == op::DCL_RESOURCE_STRUCTURED && sp.is_none() {
                out.push(' ');
            }
            space(sp, out);
        }
        Declaration::TgsmRaw { bytes } => {
            out.push_str(name);
            out.push(' ');
            first_operand(out);
            let _ = write!(out, ", {bytes}");
        }
        Declaration::TgsmStructured { stride, count } => {
            out.push_str(name);
            out.push(' ');
            first_operand(out);
            let _ = write!(out, ", {stride}, {count}");
        }
        Declaration::Register {
            system_value,
            interpolation,
        } => {
            out.push_str(name);
            let shown = match ins.opcode {
                op::DCL_INPUT_PS_SGV => ctx.options.layout().sgv_interpolation,
                _ => true,
            };
            if let Some(mode) = interpolation.filter(|_| shown) {
                let mode = interpolation_mode(mode);
                if !mode.is_empty() {
                    out.push(' ');
                    out.push_str(mode);
                }
            }
            out.push(' ');
            first_operand(out);
            if let Some(sv) = system_value {
                out.push_str(", ");
                out.push_str(&system_value_name(*sv));
            }
        }
        Declaration::Temps(n) => {
            let _ = write!(out, "{name} {n}");
        }
        Declaration::IndexableTemp {
            register,
            size,
            components,
        } => {
            let _ = write!(out, "{name} x{register}[{size}], {components}");
        }
        Declaration::IndexRange(count) => {
            out.push_str(name);
            out.push(' ');
            first_operand(out);
            let _ = write!(out, " {count}");
        }
        Declaration::InputPrimitive(p) => {
            let _ = write!(out, "{name} {} ", input_primitive(*p));
        }
        Declaration::OutputTopology(t) => {
            let _ = write!(out, "{name} {} ", output_topology(*t));
        }
        Declaration::Count(n) => {
            let _ = write!(out, "{name} {n}");
        }
        Declaration::Stream => {
            out.push_str(name);
            out.push(' ');
            first_operand(out);
        }
        Declaration::ThreadGroup([x, y, z]) => {
            let _ = write!(out, "{name} {x}, {y}, {z}");
        }
        Declaration::TessDomain(d) => {
            let text = match d {
                1 => "domain_isoline",
                2 => "domain_tri",
                3 => "domain_quad",
                _ => "domain_undefined",
            };
            let _ = write!(out, "{name} {text}");
        }
        Declaration::TessPartitioning(p) => {
            let text = match p {
                1 => "partitioning_integer",
                2 => "partitioning_pow2",
                3 => "partitioning_fractional_odd",
                4 => "partitioning_fractional_even",
                _ => "partitioning_undefined",
            };
            let _ = write!(out, "{name} {text}");
        }
        Declaration::TessOutputPrimitive(p) => {
            let text = match p {
                1 => "output_point",
                2 => "output_line",
                3 => "output_triangle_cw",
                4 => "output_triangle_ccw",
                _ => "output_undefined",
            };
            let _ = write!(out, "{name} {text}");
        }
        Declaration::MaxTessFactor(f) => {
            let _ = write!(out, "{name} l({})", float_text(*f, ctx.options.rounding));
        }
        Declaration::FunctionBody(n) => {
            let _ = write!(out, "{name} fb{n}");
        }
        Declaration::FunctionTable { table, bodies } => {
            let _ = write!(out, "{name} ft{table} = {{");
            for (i, b) in bodies.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "fb{b}");
            }
            out.push('}');
        }
        Declaration::Interface {
            interface,
            dynamic,
            call_sites,
            array_len,
            tables,
        } => {
            out.push_str(name);
            if *dynamic {
                out.push_str("_dynamicindexed");
            }
            let _ = write!(out, " fp{interface}[{array_len}][{call_sites}] = {{");
            for (i, t) in tables.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "ft{t}");
            }
            out.push('}');
        }
        Declaration::ImmediateConstantBuffer(words) => {
            const LEAD: &str = "dcl_immediateConstantBuffer { ";
            out.push_str(LEAD);
            let rows = words.chunks(4);
            let count = rows.len();
            for (i, row) in rows.enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                    for _ in 0..LEAD.len() {
                        out.push(' ');
                    }
                }
                out.push_str("{ ");
                for (j, w) in row.iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&untyped_text(*w, ctx.options.rounding));
                }
                out.push('}');
            }
            if count == 0 {
                out.push('}');
            } else {
                out.push_str(" }");
            }
        }
    }
}

fn write_global_flags(flags: u32, out: &mut String) {
    const NAMES: [&str; 9] = [
        "refactoringAllowed",
        "enableDoublePrecisionFloatOps",
        "forceEarlyDepthStencil",
        "enableRawAndStructuredBuffers",
        "skipOptimization",
        "enableMinimumPrecision",
        "enable11_1DoubleExtensions",
        "enable11_1ShaderExtensions",
        "allResourcesBound",
    ];
    let mut first = true;
    for (bit, name) in NAMES.iter().enumerate() {
        if flags & (1 << bit) != 0 {
            if !first {
                out.push_str(" | ");
            }
            out.push_str(name);
            first = false;
        }
    }
    let rest = flags & !((1 << NAMES.len()) - 1);
    if rest != 0 {
        if !first {
            out.push_str(" | ");
        }
        let _ = write!(out, "unknown({:#x})", rest << 11);
    }
}

fn write_uav_flags(flags: u32, out: &mut String) {
    if flags & (1 << 16) != 0 {
        out.push_str("_glc");
    }
    if flags & (1 << 17) != 0 {
        out.push_str("_rov");
    }
    if flags & (1 << 23) != 0 {
        out.push_str("_opc");
    }
}

fn write_return_type(rt: [u8; 4], out: &mut String) {
    out.push('(');
    for (i, t) in rt.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(match t {
            1 => "unorm",
            2 => "snorm",
            3 => "sint",
            4 => "uint",
            5 => "float",
            6 => "mixed",
            7 => "double",
            8 => "continued",
            9 => "unused",
            _ => "unknown",
        });
    }
    out.push(')');
}

fn resource_dimension(dim: u8) -> &'static str {
    match dim {
        1 => "buffer",
        2 => "texture1d",
        3 => "texture2d",
        4 => "texture2dms",
        5 => "texture3d",
        6 => "texturecube",
        7 => "texture1darray",
        8 => "texture2darray",
        9 => "texture2dmsarray",
        10 => "texturecubearray",
        11 => "raw_buffer",
        12 => "structured_buffer",
        _ => "unknown",
    }
}

fn interpolation_mode(mode: u8) -> &'static str {
    match mode {
        1 => "constant",
        2 => "linear",
        3 => "linear centroid",
        4 => "linear noperspective",
        5 => "linear noperspective centroid",
        6 => "linear sample",
        7 => "linear noperspective sample",
        _ => "",
    }
}

fn system_value_name(sv: u32) -> String {
    let name = match sv {
        0 => "undefined",
        1 => "position",
        2 => "clip_distance",
        3 => "cull_distance",
        4 => "rendertarget_array_index",
        5 => "viewport_array_index",
        6 => "vertex_id",
        7 => "primitive_id",
        8 => "instance_id",
        9 => "is_front_face",
        10 => "sampleIndex",
        11 => "finalQuadUeq0EdgeTessFactor",
        12 => "finalQuadVeq0EdgeTessFactor",
        13 => "finalQuadUeq1EdgeTessFactor",
        14 => "finalQuadVeq1EdgeTessFactor",
        15 => "finalQuadUInsideTessFactor",
        16 => "finalQuadVInsideTessFactor",
        17 => "finalTriUeq0EdgeTessFactor",
        18 => "finalTriVeq0EdgeTessFactor",
        19 => "finalTriWeq0EdgeTessFactor",
        20 => "finalTriInsideTessFactor",
        21 => "finalLineDetailTessFactor",
        22 => "finalLineDensityTessFactor",
        _ => return format!("unknown({sv})"),
    };
    name.to_string()
}

fn input_primitive(p: u8) -> String {
    match p {
        1 => "point".into(),
        2 => "line".into(),
        3 => "triangle".into(),
        6 => "lineadj".into(),
        7 => "triangleadj".into(),
        8..=39 => format!("patch{}", p - 7),
        _ => "undefined".into(),
    }
}

fn output_topology(t: u8) -> &'static str {
    match t {
        1 => "pointlist",
        2 => "linelist",
        3 => "linestrip",
        4 => "trianglelist",
        5 => "trianglestrip",
        10 => "linelist_adj",
        11 => "linestrip_adj",
        12 => "trianglelist_adj",
        13 => "trianglestrip_adj",
        _ => "undefined",
    }
}

/// The letters of the set components of `mask` (`xz`; empty for 0).
pub(crate) fn mask_letters(mask: u8) -> String {
    "xyzw"
        .chars()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, c)| c)
        .collect()
}

const LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

/// Writes one operand. `decl` is set for the register of a declaration
/// (SM5.1 ranges `T0[0:3]`).
/// Writes an operand; `converted_to` is the minimum precision of the
/// operation a source operand feeds, which the listing names when it
/// differs from the operand's own (`r3.xyzw {def32 as min16f}`).
fn write_operand(
    ctx: &Ctx,
    o: &Operand,
    style: ImmediateStyle,
    decl: bool,
    converted_to: Option<u8>,
    out: &mut String,
) {
    if o.modifier & 1 != 0 {
        out.push('-');
    }
    let abs = o.modifier & 2 != 0;
    if abs {
        out.push('|');
    }
    write_register(ctx, o, style, decl, out);
    let resource = matches!(
        o.kind,
        ot::SAMPLER | ot::RESOURCE | ot::UNORDERED_ACCESS_VIEW | ot::CONSTANT_BUFFER
    );
    let components = if decl && resource {
        Components::None
    } else {
        o.components
    };
    match components {
        Components::Mask(m) if m != 0 && o.kind != ot::IMMEDIATE32 && o.kind != ot::IMMEDIATE64 => {
            out.push('.');
            out.push_str(&mask_letters(m));
        }
        Components::Swizzle(s) if o.kind != ot::IMMEDIATE32 && o.kind != ot::IMMEDIATE64 => {
            out.push('.');
            for c in s {
                out.push(LETTERS[c as usize & 3]);
            }
        }
        Components::Select(c) if o.kind != ot::IMMEDIATE32 && o.kind != ot::IMMEDIATE64 => {
            out.push('.');
            out.push(LETTERS[c as usize & 3]);
        }
        _ => {}
    }
    if abs {
        out.push('|');
    }
    match converted_to {
        Some(to) if to != o.min_precision => {
            let _ = write!(
                out,
                " {{{} as {}}}",
                precision_name(o.min_precision),
                precision_name(to)
            );
        }
        _ if o.min_precision != 0 => {
            let _ = write!(out, " {{{}}}", precision_name(o.min_precision));
        }
        _ => {}
    }
    if o.nonuniform {
        out.push_str(" { nonuniform }");
    }
}

/// The listing's name of a minimum precision (`D3D11_SB_OPERAND_MIN_PRECISION`).
fn precision_name(precision: u8) -> String {
    match precision {
        0 => "def32".into(),
        1 => "min16f".into(),
        2 => "min2_8f".into(),
        4 => "min16i".into(),
        5 => "min16u".into(),
        other => format!("min_precision{other}"),
    }
}

fn write_index(ctx: &Ctx, index: &Index, bracket: bool, out: &mut String) {
    match &index.relative {
        Some(rel) => {
            out.push('[');
            write_operand(ctx, rel, ImmediateStyle::Int, false, None, out);
            let _ = write!(out, " + {}]", index.value);
        }
        None if bracket => {
            let _ = write!(out, "[{}]", index.value);
        }
        None => {
            let _ = write!(out, "{}", index.value);
        }
    }
}

fn write_register(ctx: &Ctx, o: &Operand, style: ImmediateStyle, decl: bool, out: &mut String) {
    let idx = &o.indices;
    let fixed = |name: &str, out: &mut String| out.push_str(name);
    // A register written as prefix + first index, further indices bracketed.
    let numbered = |prefix: &str, out: &mut String| {
        out.push_str(prefix);
        for (i, index) in idx.iter().enumerate() {
            write_index(ctx, index, i > 0, out);
        }
    };
    // A register whose indices are all bracketed.
    let bracketed = |prefix: &str, out: &mut String| {
        out.push_str(prefix);
        for index in idx {
            write_index(ctx, index, true, out);
        }
    };
    match o.kind {
        ot::TEMP => numbered("r", out),
        ot::INPUT => {
            if idx.len() >= 2 {
                bracketed("v", out)
            } else {
                numbered("v", out)
            }
        }
        ot::OUTPUT => {
            if idx.len() >= 2 {
                bracketed("o", out)
            } else {
                numbered("o", out)
            }
        }
        ot::INDEXABLE_TEMP => numbered("x", out),
        ot::IMMEDIATE32 => write_immediate32(ctx, &o.immediate, style, out),
        ot::IMMEDIATE64 => {
            out.push_str("d(");
            for (i, pair) in o.immediate.chunks(2).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let bits = u64::from(pair[0]) | (u64::from(*pair.get(1).unwrap_or(&0)) << 32);
                out.push_str(&fixed6(f64::from_bits(bits), ctx.options.rounding));
                out.push('l');
            }
            out.push(')');
        }
        ot::SAMPLER | ot::RESOURCE | ot::UNORDERED_ACCESS_VIEW | ot::CONSTANT_BUFFER => {
            let (lower, upper) = match o.kind {
                ot::SAMPLER => ("s", "S"),
                ot::RESOURCE => ("t", "T"),
                ot::UNORDERED_ACCESS_VIEW => ("u", "U"),
                _ => ("cb", "CB"),
            };
            let cb = o.kind == ot::CONSTANT_BUFFER;
            if ctx.sm51 && decl && idx.len() >= 3 {
                // T0[lower:upper] (CB0[lower:upper] plus the size written by the caller).
                out.push_str(upper);
                write_index(ctx, &idx[0], false, out);
                let _ = write!(out, "[{}:", idx[1].value);
                if idx[2].value == u64::from(u32::MAX) {
                    out.push_str("*]");
                } else {
                    let _ = write!(out, "{}]", idx[2].value);
                }
            } else if ctx.sm51 || (decl && cb && !ctx.options.layout().lowercase_constant_buffer) {
                // SM5.1 operands (T0[1]) and the SM4/5.0 constant-buffer
                // declaration (CB0[size]; cb0[size] before fxc 10.0) use the
                // capital names.
                numbered(upper, out)
            } else {
                numbered(lower, out)
            }
        }
        ot::IMMEDIATE_CONSTANT_BUFFER => bracketed("icb", out),
        ot::LABEL => numbered("l", out),
        ot::INPUT_PRIMITIVEID => fixed("vPrim", out),
        ot::OUTPUT_DEPTH => fixed("oDepth", out),
        ot::NULL => fixed("null", out),
        ot::RASTERIZER => fixed("rasterizer", out),
        ot::OUTPUT_COVERAGE_MASK => fixed("oMask", out),
        ot::STREAM => numbered("m", out),
        ot::FUNCTION_BODY => numbered("fb", out),
        ot::FUNCTION_TABLE => numbered("ft", out),
        ot::INTERFACE => numbered("fp", out),
        ot::FUNCTION_INPUT => numbered("fi", out),
        ot::FUNCTION_OUTPUT => numbered("fo", out),
        ot::OUTPUT_CONTROL_POINT_ID => fixed("vOutputControlPointID", out),
        ot::INPUT_FORK_INSTANCE_ID => fixed("vForkInstanceID", out),
        ot::INPUT_JOIN_INSTANCE_ID => fixed("vJoinInstanceID", out),
        ot::INPUT_CONTROL_POINT => bracketed("vicp", out),
        ot::OUTPUT_CONTROL_POINT => bracketed("vocp", out),
        ot::INPUT_PATCH_CONSTANT => numbered("vpc", out),
        ot::INPUT_DOMAIN_POINT => fixed("vDomain", out),
        ot::THIS_POINTER => bracketed("this", out),
        ot::THREAD_GROUP_SHARED_MEMORY => numbered("g", out),
        ot::INPUT_THREAD_ID => fixed("vThreadID", out),
        ot::INPUT_THREAD_GROUP_ID => fixed("vThreadGroupID", out),
        ot::INPUT_THREAD_ID_IN_GROUP => fixed("vThreadIDInGroup", out),
        ot::INPUT_COVERAGE_MASK => fixed("vCoverage", out),
        ot::INPUT_THREAD_ID_IN_GROUP_FLATTENED => fixed("vThreadIDInGroupFlattened", out),
        ot::INPUT_GS_INSTANCE_ID => fixed("vGSInstanceID", out),
        ot::OUTPUT_DEPTH_GREATER_EQUAL => fixed("oDepthGE", out),
        ot::OUTPUT_DEPTH_LESS_EQUAL => fixed("oDepthLE", out),
        ot::CYCLE_COUNTER => fixed("vCycleCounter", out),
        ot::OUTPUT_STENCIL_REF => fixed("oStencilRef", out),
        ot::INNER_COVERAGE => fixed("vInnerCoverage", out),
        other => {
            let _ = write!(out, "unknown{other}");
            for index in idx {
                write_index(ctx, index, true, out);
            }
        }
    }
}

fn write_immediate32(ctx: &Ctx, values: &[u32], style: ImmediateStyle, out: &mut String) {
    let rounding = ctx.options.rounding;
    out.push_str("l(");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(if style == ImmediateStyle::Untyped {
                ","
            } else {
                ", "
            });
        }
        match style {
            ImmediateStyle::Float | ImmediateStyle::Double => {
                out.push_str(&float_text(f32::from_bits(*v), rounding))
            }
            ImmediateStyle::Int => out.push_str(&int_text(*v)),
            ImmediateStyle::Untyped => out.push_str(&untyped_text(*v, rounding)),
        }
    }
    out.push(')');
}
