//! The listing text of a decoded program, spelled as Microsoft's
//! disassembler spells it (docs/format/sm4-listing.md).

use crate::listing::dxbc::debug_notes::{DebugNotes, NotePrinter};
use crate::listing::dxbc::number::{fixed6, float_text, int_text, untyped_text};
use crate::listing::dxbc::ListingOptions;
use crate::sm4::names::{self, RegisterForm};
use crate::sm4::opcode::{self, op, ImmediateStyle, OpClass};
use crate::sm4::operand_type as ot;
use crate::sm4::{
    Body, Components, Declaration, DecodeError, Index, Instruction, Instructions, Operand, Program,
};
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
    let mut lines = Lines::default();
    lines.write_profile(program, options, out)?;
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
/// ([`MAX_BLOCK_DEPTH`](crate::sm4::MAX_BLOCK_DEPTH)) and so the indentation.
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
    write_streamed_with_notes(header, instructions, slots, options, None, out)
}

/// [`write_streamed`] with the debug-information notes of `notes`
/// (docs/format/dxbc-debug-notes.md): the initial variable locations
/// before the first executable instruction, `#line` lines and the
/// `// r0.x <- variable` notes after instructions.
pub fn write_streamed_with_notes<W: Write>(
    header: &Program,
    instructions: Instructions,
    slots: impl FnOnce() -> u32,
    options: &ListingOptions,
    notes: Option<&DebugNotes>,
    out: &mut W,
) -> Result<Option<DecodeError>, std::fmt::Error> {
    let mut lines = Lines {
        notes: notes.map(NotePrinter::new),
        ..Lines::default()
    };
    lines.write_profile(header, options, out)?;
    for instruction in instructions {
        match instruction {
            Ok(instruction) => lines.write(header, &instruction, options, out)?,
            Err(e) => return Ok(Some(e)),
        }
    }
    writeln!(out, "// Approximately {} instruction slots used", slots())?;
    Ok(None)
}

/// The listing's lines: the block depth so far, one line's buffer, the
/// number of the next executable instruction (`/Ni`) and the state of the
/// debug notes, if any.
#[derive(Default)]
struct Lines<'notes> {
    depth: usize,
    line: String,
    number: u32,
    notes: Option<NotePrinter<'notes>>,
}

impl Lines<'_> {
    /// The profile line (`ps_5_0`), at offset 0 of the shader part.
    fn write_profile<W: Write>(
        &mut self,
        program: &Program,
        options: &ListingOptions,
        out: &mut W,
    ) -> std::fmt::Result {
        self.line.clear();
        write_line_prefix(options, None, 0, &mut self.line);
        self.line.push_str(&program.profile());
        self.line.push('\n');
        out.write_str(&self.line)
    }

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
        let key = match &mut self.notes {
            Some(notes) => notes.before(instruction, &mut self.line),
            None => None,
        };
        let number = is_numbered(instruction).then(|| {
            self.number = self.number.wrapping_add(1);
            self.number - 1
        });
        let offset = u64::from(instruction.token) * 4;
        write_line_prefix(options, number, offset, &mut self.line);
        for _ in 0..indent {
            self.line.push_str("  ");
        }
        write_instruction(program, instruction, options, &mut self.line);
        if let (Some(notes), Some(key)) = (&self.notes, key) {
            notes.after(instruction, key, &mut self.line);
        }
        self.line.push('\n');
        if opcode::opens_block(instruction.opcode) {
            self.depth += 1;
        }
        out.write_str(&self.line)
    }
}

/// Whether `/Ni` numbers the instruction: every one that executes, not
/// the declarations nor the hull-shader phase markers that open the
/// declaration and phase sections.
fn is_numbered(instruction: &Instruction) -> bool {
    !matches!(instruction.body, Body::Declaration(_))
        && !matches!(
            instruction.opcode,
            op::HS_DECLS | op::HS_CONTROL_POINT_PHASE | op::HS_FORK_PHASE | op::HS_JOIN_PHASE
        )
}

/// The lead of a program line under `/Ni` and `/No`
/// (docs/format/listing-options.md): the instruction number right-aligned
/// in four columns (four spaces on a line without a number), then with
/// `/No` two spaces and the byte offset as `0x%08X`, then `: `; with `/Ni`
/// alone an unnumbered line takes two spaces for the `: `. `/No` alone
/// leads every line with `0x%08X: `.
fn write_line_prefix(options: &ListingOptions, number: Option<u32>, offset: u64, out: &mut String) {
    let flags = &options.flags;
    if flags.numbers {
        match number {
            Some(n) => {
                let _ = write!(out, "{n:>4}");
            }
            None => out.push_str("    "),
        }
    }
    if flags.offsets {
        if flags.numbers {
            out.push_str("  ");
        }
        let _ = write!(out, "0x{offset:08X}: ");
    } else if flags.numbers {
        out.push_str(if number.is_some() { ": " } else { "  " });
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
        for (bit, suffix) in names::SYNC_FLAGS {
            if c & bit != 0 {
                out.push_str(suffix);
            }
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
    let destinations = opcode::destinations(ins.opcode).min(ins.operands.len());
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

struct Ctx {
    sm51: bool,
    options: ListingOptions,
}

/// One declaration as fxc's listing prints it.
///
/// Long: one arm per declaration opcode, each with its own layout; the table
/// reads best whole, like fxc's own.
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
            out.push_str(", ");
            out.push_str(names::name_or(
                &names::SAMPLER_MODES,
                usize::from(*mode),
                "mode_default",
            ));
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
            let text = names::name_or(&names::TESS_DOMAINS, usize::from(*d), "domain_undefined");
            let _ = write!(out, "{name} {text}");
        }
        Declaration::TessPartitioning(p) => {
            let text = names::name_or(
                &names::TESS_PARTITIONINGS,
                usize::from(*p),
                "partitioning_undefined",
            );
            let _ = write!(out, "{name} {text}");
        }
        Declaration::TessOutputPrimitive(p) => {
            let text = names::name_or(
                &names::TESS_OUTPUT_PRIMITIVES,
                usize::from(*p),
                "output_undefined",
            );
            let _ = write!(out, "{name} {text}");
        }
        Declaration::MaxTessFactor(f) if ctx.options.flags.hex => {
            let _ = write!(out, "{name} l(0x{:08x})", f.to_bits());
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
                    if ctx.options.flags.hex {
                        let _ = write!(out, "0x{w:08x}");
                    } else {
                        out.push_str(&untyped_text(*w, ctx.options.rounding));
                    }
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
    let mut first = true;
    for (bit, name) in names::GLOBAL_FLAGS.iter().enumerate() {
        if flags & (1 << bit) != 0 {
            if !first {
                out.push_str(" | ");
            }
            out.push_str(name);
            first = false;
        }
    }
    let rest = flags & !((1 << names::GLOBAL_FLAGS.len()) - 1);
    if rest != 0 {
        if !first {
            out.push_str(" | ");
        }
        let _ = write!(out, "unknown({:#x})", rest << 11);
    }
}

fn write_uav_flags(flags: u32, out: &mut String) {
    for (bit, suffix) in names::UAV_FLAGS {
        if flags & bit != 0 {
            out.push_str(suffix);
        }
    }
}

fn write_return_type(rt: [u8; 4], out: &mut String) {
    out.push('(');
    for (i, t) in rt.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(names::name_or(
            &names::RETURN_TYPES,
            usize::from(*t),
            "unknown",
        ));
    }
    out.push(')');
}

fn resource_dimension(dim: u8) -> &'static str {
    names::name_or(&names::RESOURCE_DIMENSIONS, usize::from(dim), "unknown")
}

fn interpolation_mode(mode: u8) -> &'static str {
    names::name_or(&names::INTERPOLATION_MODES, usize::from(mode), "")
}

fn system_value_name(sv: u32) -> String {
    match names::SYSTEM_VALUES.get(sv as usize) {
        Some(name) => (*name).to_string(),
        None => format!("unknown({sv})"),
    }
}

fn input_primitive(p: u8) -> String {
    if let Some((_, name)) = names::INPUT_PRIMITIVES.iter().find(|(n, _)| *n == p) {
        return (*name).to_string();
    }
    match p {
        8..=39 => format!("patch{}", p - 7),
        _ => "undefined".into(),
    }
}

fn output_topology(t: u8) -> &'static str {
    names::OUTPUT_TOPOLOGIES
        .iter()
        .find(|(n, _)| *n == t)
        .map_or("undefined", |(_, name)| name)
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
    match names::MIN_PRECISIONS.iter().find(|(n, _)| *n == precision) {
        Some((_, name)) => (*name).to_string(),
        None => format!("min_precision{precision}"),
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
        ot::IMMEDIATE32 => return write_immediate32(ctx, &o.immediate, style, out),
        ot::IMMEDIATE64 => {
            out.push_str("d(");
            for (i, pair) in o.immediate.chunks(2).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let bits = u64::from(pair[0]) | (u64::from(*pair.get(1).unwrap_or(&0)) << 32);
                if ctx.options.flags.hex {
                    let _ = write!(out, "0x{bits:016x}");
                } else {
                    out.push_str(&fixed6(f64::from_bits(bits), ctx.options.rounding));
                    out.push('l');
                }
            }
            out.push(')');
            return;
        }
        _ => {}
    }
    let Some((name, form)) = names::register(o.kind) else {
        let _ = write!(out, "unknown{}", o.kind);
        for index in idx {
            write_index(ctx, index, true, out);
        }
        return;
    };
    match form {
        RegisterForm::Fixed => out.push_str(name),
        RegisterForm::Numbered => numbered(name, out),
        RegisterForm::Bracketed => bracketed(name, out),
        RegisterForm::NumberedOrBracketed if idx.len() >= 2 => bracketed(name, out),
        RegisterForm::NumberedOrBracketed => numbered(name, out),
        RegisterForm::Resource(upper) => {
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
                numbered(name, out)
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
        if ctx.options.flags.hex {
            let _ = write!(out, "0x{v:08x}");
            continue;
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
