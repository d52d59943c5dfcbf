//! `dxinfo --reflect --text`: the layout of dxc's `D3DReflectionDumper`
//! (what `dxa -dumpreflection` and dxc's reflection tests print), so the
//! output diffs against dxc's own. Two spaces per level; enum values by
//! their D3D names, `<unknown: 0x…>` when unnamed; flag words as
//! `(A | B)`, or `0`. A value the container does not record prints as
//! `<not recorded>` (dxc would compute it from the module).

use super::*;
use std::fmt::{self, Write};

/// What a field the container does not record prints as.
pub const NOT_RECORDED: &str = "<not recorded>";

struct Dumper<'w, W: Write> {
    out: &'w mut W,
    indent: usize,
}

impl<W: Write> Dumper<'_, W> {
    fn line(&mut self, args: fmt::Arguments<'_>) -> fmt::Result {
        // dxc caps the indentation at 32 spaces.
        let width = if self.indent > 16 {
            32
        } else {
            self.indent * 2
        };
        write!(self.out, "{:width$}", "")?;
        self.out.write_fmt(args)?;
        self.out.write_char('\n')
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self) -> fmt::Result) -> fmt::Result {
        self.indent += 1;
        let result = f(self);
        self.indent -= 1;
        result
    }
}

/// `0`, or `0x…` (C++ `std::hex << std::showbase`).
fn hex(value: u64) -> String {
    if value == 0 {
        "0".into()
    } else {
        format!("{value:#x}")
    }
}

/// An enum value: its name, or `<unknown: 0x…>`.
fn enum_text(name: Option<&'static str>, raw: u32) -> String {
    match name {
        Some(name) => name.into(),
        None => format!("<unknown: {}>", hex(raw.into())),
    }
}

/// A flag word as dxc's `FlagsValue` prints it: `0`, or each set bit's name
/// from the lowest bit up, joined by ` | ` in parentheses.
fn flags_text(bits: u32, names: &[(u32, &'static str)]) -> String {
    if bits == 0 {
        return "0".into();
    }
    let mut parts = Vec::new();
    let mut rest = bits;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        parts.push(match names.iter().find(|(mask, _)| *mask == bit) {
            Some((_, name)) => (*name).to_string(),
            None => format!("<unknown: {}>", hex(bit.into())),
        });
    }
    format!("({})", parts.join(" | "))
}

fn opt<T: fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| NOT_RECORDED.to_string(), |v| v.to_string())
}

fn opt_enum<E: Copy>(value: Option<E>, f: impl Fn(E) -> String) -> String {
    value.map_or_else(|| NOT_RECORDED.to_string(), f)
}

/// dxc's `EscapedString`: printable ASCII except `\` and `"` as is, other
/// bytes as `\XX`.
fn escaped(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if (0x20..0x7f).contains(&b) && b != b'\\' && b != b'"' {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "\\{b:02X}");
        }
    }
    out
}

/// `Component mask` letters (`xy--`), as dxc's `CompMaskToString`.
fn mask(mask: u8) -> String {
    if mask > 15 {
        return "<invalid mask>".into();
    }
    let mut s = String::new();
    for (bit, letter) in [(1, 'x'), (2, 'y'), (4, 'z'), (8, 'w')] {
        s.push(if mask & bit != 0 { letter } else { '-' });
    }
    s
}

fn version_text(v: ShaderVersion) -> String {
    format!("{} {}.{}", v.kind.dumper_name(), v.major, v.minor)
}

macro_rules! line {
    ($d:expr, $($arg:tt)*) => { $d.line(format_args!($($arg)*)) };
}

impl<W: Write> Dumper<'_, W> {
    fn shader_desc(&mut self, s: &ShaderDesc) -> fmt::Result {
        line!(self, "D3D12_SHADER_DESC:")?;
        self.nested(|d| {
            line!(d, "Shader Version: {}", version_text(s.version))?;
            line!(
                d,
                "Creator: {}",
                s.creator.as_deref().unwrap_or("<nullptr>")
            )?;
            line!(
                d,
                "Flags: {}",
                s.flags
                    .map_or(NOT_RECORDED.to_string(), |f| hex(f.0.into()))
            )?;
            line!(d, "ConstantBuffers: {}", opt(s.constant_buffers))?;
            line!(d, "BoundResources: {}", s.bound_resources)?;
            line!(d, "InputParameters: {}", s.input_parameters)?;
            line!(d, "OutputParameters: {}", s.output_parameters)?;
            let topology = |v: PrimitiveTopology| enum_text(v.known_name(), v.raw());
            let primitive = |v: Primitive| enum_text(v.known_name(), v.raw());
            match s.version.kind {
                ShaderVersionType::Geometry => {
                    line!(d, "cGSInstanceCount: {}", opt(s.gs_instance_count))?;
                    line!(
                        d,
                        "GSMaxOutputVertexCount: {}",
                        opt(s.gs_max_output_vertex_count)
                    )?;
                    line!(
                        d,
                        "GSOutputTopology: {}",
                        opt_enum(s.gs_output_topology, topology)
                    )?;
                    line!(
                        d,
                        "InputPrimitive: {}",
                        opt_enum(s.input_primitive, primitive)
                    )?;
                }
                ShaderVersionType::Hull => {
                    line!(
                        d,
                        "PatchConstantParameters: {}",
                        s.patch_constant_parameters
                    )?;
                    line!(d, "cControlPoints: {}", opt(s.control_points))?;
                    line!(
                        d,
                        "InputPrimitive: {}",
                        opt_enum(s.input_primitive, primitive)
                    )?;
                    line!(
                        d,
                        "HSOutputPrimitive: {}",
                        opt_enum(s.hs_output_primitive, |v| enum_text(
                            v.known_name(),
                            v.raw()
                        ))
                    )?;
                    line!(
                        d,
                        "HSPartitioning: {}",
                        opt_enum(s.hs_partitioning, |v| enum_text(v.known_name(), v.raw()))
                    )?;
                    line!(
                        d,
                        "TessellatorDomain: {}",
                        opt_enum(s.tessellator_domain, |v| enum_text(v.known_name(), v.raw()))
                    )?;
                }
                ShaderVersionType::Domain => {
                    line!(
                        d,
                        "PatchConstantParameters: {}",
                        s.patch_constant_parameters
                    )?;
                    line!(d, "cControlPoints: {}", opt(s.control_points))?;
                    line!(
                        d,
                        "TessellatorDomain: {}",
                        opt_enum(s.tessellator_domain, |v| enum_text(v.known_name(), v.raw()))
                    )?;
                }
                ShaderVersionType::Mesh => {
                    line!(
                        d,
                        "PatchConstantParameters: {} (output primitive parameters for mesh shader)",
                        s.patch_constant_parameters
                    )?;
                }
                _ => {}
            }
            for (name, value) in [
                ("InstructionCount", s.instruction_count),
                ("TempArrayCount", s.temp_array_count),
                ("DynamicFlowControlCount", s.dynamic_flow_control_count),
                ("ArrayInstructionCount", s.array_instruction_count),
                ("TextureNormalInstructions", s.texture_normal_instructions),
                ("TextureLoadInstructions", s.texture_load_instructions),
                ("TextureCompInstructions", s.texture_comp_instructions),
                ("TextureBiasInstructions", s.texture_bias_instructions),
                (
                    "TextureGradientInstructions",
                    s.texture_gradient_instructions,
                ),
                ("FloatInstructionCount", s.float_instruction_count),
                ("IntInstructionCount", s.int_instruction_count),
                ("UintInstructionCount", s.uint_instruction_count),
                ("CutInstructionCount", s.cut_instruction_count),
                ("EmitInstructionCount", s.emit_instruction_count),
                ("cBarrierInstructions", s.barrier_instructions),
                ("cInterlockedInstructions", s.interlocked_instructions),
                ("cTextureStoreInstructions", s.texture_store_instructions),
            ] {
                line!(d, "{name}: {}", opt(value))?;
            }
            Ok(())
        })
    }

    fn parameters(&mut self, title: &str, list: &[SignatureParameter]) -> fmt::Result {
        if list.is_empty() {
            return Ok(());
        }
        line!(self, "{title} Elements: {}", list.len())?;
        self.nested(|d| {
            for p in list {
                line!(
                    d,
                    "D3D12_SIGNATURE_PARAMETER_DESC: SemanticName: {} SemanticIndex: {}",
                    p.semantic_name,
                    p.semantic_index
                )?;
                d.nested(|d| {
                    line!(d, "Register: {}", p.register)?;
                    line!(
                        d,
                        "SystemValueType: {}",
                        enum_text(p.system_value_type.known_name(), p.system_value_type.raw())
                    )?;
                    line!(
                        d,
                        "ComponentType: {}",
                        enum_text(p.component_type.known_name(), p.component_type.raw())
                    )?;
                    line!(d, "Mask: {} ({})", mask(p.mask), p.mask)?;
                    line!(
                        d,
                        "ReadWriteMask: {} ({}) (AlwaysReads/NeverWrites)",
                        mask(p.read_write_mask),
                        p.read_write_mask
                    )?;
                    line!(d, "Stream: {}", p.stream)?;
                    line!(
                        d,
                        "MinPrecision: {}",
                        enum_text(p.min_precision.known_name(), p.min_precision.raw())
                    )
                })?;
            }
            Ok(())
        })
    }

    fn type_tree(&mut self, t: &TypeDesc) -> fmt::Result {
        line!(self, "ID3D12ShaderReflectionType:")?;
        self.nested(|d| {
            line!(
                d,
                "D3D12_SHADER_TYPE_DESC: Name: {}",
                t.name.as_deref().unwrap_or("<nullptr>")
            )?;
            d.nested(|d| {
                line!(
                    d,
                    "Class: {}",
                    enum_text(t.class.known_name(), t.class.raw())
                )?;
                line!(
                    d,
                    "Type: {}",
                    enum_text(t.base_type.known_name(), t.base_type.raw())
                )?;
                line!(d, "Elements: {}", t.elements)?;
                line!(d, "Rows: {}", t.rows)?;
                line!(d, "Columns: {}", t.columns)?;
                line!(d, "Members: {}", t.members.len())?;
                line!(d, "Offset: {}", t.offset)
            })?;
            if !t.members.is_empty() {
                line!(d, "{{")?;
                d.nested(|d| {
                    for m in &t.members {
                        d.type_tree(&m.member_type)?;
                    }
                    Ok(())
                })?;
                line!(d, "}}")?;
            }
            Ok(())
        })
    }

    fn buffer(&mut self, b: &BufferDesc) -> fmt::Result {
        line!(self, "ID3D12ShaderReflectionConstantBuffer:")?;
        self.nested(|d| {
            line!(d, "D3D12_SHADER_BUFFER_DESC: Name: {}", b.name)?;
            d.nested(|d| {
                line!(
                    d,
                    "Type: {}",
                    enum_text(b.buffer_type.known_name(), b.buffer_type.raw())
                )?;
                line!(d, "Size: {}", b.size)?;
                line!(d, "uFlags: {}", flags_text(b.flags.0, CbufferFlags::KNOWN))?;
                line!(d, "Num Variables: {}", b.variables.len())
            })?;
            if !b.variables.is_empty() {
                line!(d, "{{")?;
                d.nested(|d| {
                    for v in &b.variables {
                        line!(d, "ID3D12ShaderReflectionVariable:")?;
                        d.nested(|d| {
                            line!(d, "D3D12_SHADER_VARIABLE_DESC: Name: {}", v.name)?;
                            d.nested(|d| {
                                line!(d, "Size: {}", v.size)?;
                                line!(d, "StartOffset: {}", v.start_offset)?;
                                line!(
                                    d,
                                    "uFlags: {}",
                                    flags_text(v.flags.0, VariableFlags::KNOWN)
                                )?;
                                line!(
                                    d,
                                    "DefaultValue: {}",
                                    if v.default_value.is_some() {
                                        "<present>"
                                    } else {
                                        "<nullptr>"
                                    }
                                )
                            })?;
                            d.type_tree(&v.var_type)?;
                            line!(d, "CBuffer: {}", b.name)
                        })?;
                    }
                    Ok(())
                })?;
                line!(d, "}}")?;
            }
            Ok(())
        })
    }

    fn bind(&mut self, b: &BindDesc) -> fmt::Result {
        line!(
            self,
            "D3D12_SHADER_INPUT_BIND_DESC: Name: {}",
            b.name.as_deref().unwrap_or(NOT_RECORDED)
        )?;
        self.nested(|d| {
            line!(
                d,
                "Type: {}",
                enum_text(b.input_type.known_name(), b.input_type.raw())
            )?;
            line!(d, "uID: {}", b.id)?;
            line!(d, "BindCount: {}", b.bind_count)?;
            line!(d, "BindPoint: {}", b.bind_point)?;
            line!(d, "Space: {}", b.space)?;
            line!(
                d,
                "ReturnType: {}",
                opt_enum(b.return_type, |v| enum_text(v.known_name(), v.raw()))
            )?;
            line!(
                d,
                "Dimension: {}",
                opt_enum(b.dimension, |v| enum_text(v.known_name(), v.raw()))
            )?;
            line!(d, "NumSamples (or stride): {}", opt(b.num_samples))?;
            line!(
                d,
                "uFlags: {}",
                opt_enum(b.flags, |f| flags_text(f.0, InputFlags::KNOWN))
            )
        })
    }

    fn buffers_and_bindings(&mut self, buffers: &[BufferDesc], binds: &[BindDesc]) -> fmt::Result {
        if !buffers.is_empty() {
            line!(self, "Constant Buffers:")?;
            self.nested(|d| buffers.iter().try_for_each(|b| d.buffer(b)))?;
        }
        if !binds.is_empty() {
            line!(self, "Bound Resources:")?;
            self.nested(|d| binds.iter().try_for_each(|b| d.bind(b)))?;
        }
        Ok(())
    }

    fn shader(&mut self, r: &Reflection, s: &ShaderDesc) -> fmt::Result {
        line!(self, "ID3D12ShaderReflection:")?;
        self.nested(|d| {
            d.shader_desc(s)?;
            d.parameters("InputParameter", &r.input_parameters)?;
            d.parameters("OutputParameter", &r.output_parameters)?;
            d.parameters("PatchConstantParameter", &r.patch_constant_parameters)?;
            d.buffers_and_bindings(&r.constant_buffers, &r.bound_resources)
        })
    }

    fn library(&mut self, r: &Reflection, l: &LibraryDesc) -> fmt::Result {
        line!(self, "ID3D12LibraryReflection:")?;
        self.nested(|d| {
            line!(d, "D3D12_LIBRARY_DESC:")?;
            d.nested(|d| {
                line!(
                    d,
                    "Creator: {}",
                    l.creator.as_deref().unwrap_or("<nullptr>")
                )?;
                line!(d, "Flags: {}", hex(l.flags.into()))?;
                line!(d, "FunctionCount: {}", l.function_count)
            })?;
            for f in &r.functions {
                line!(d, "ID3D12FunctionReflection:")?;
                d.nested(|d| {
                    line!(d, "D3D12_FUNCTION_DESC: Name: {}", escaped(&f.name))?;
                    d.nested(|d| {
                        line!(d, "Shader Version: {}", version_text(f.version))?;
                        line!(
                            d,
                            "Creator: {}",
                            f.creator.as_deref().unwrap_or("<nullptr>")
                        )?;
                        line!(d, "Flags: {}", hex(f.flags.into()))?;
                        line!(d, "RequiredFeatureFlags: {}", hex(f.required_feature_flags))?;
                        line!(d, "ConstantBuffers: {}", opt(f.constant_buffer_count))?;
                        line!(d, "BoundResources: {}", f.bound_resource_count)?;
                        line!(
                            d,
                            "FunctionParameterCount: {}",
                            opt(f.function_parameter_count)
                        )?;
                        line!(
                            d,
                            "HasReturn: {}",
                            opt(f.has_return.map(|b| if b { "TRUE" } else { "FALSE" }))
                        )
                    })?;
                    d.buffers_and_bindings(&f.constant_buffers, &f.bound_resources)
                })?;
            }
            Ok(())
        })
    }
}

/// Writes `reflection` in the layout of dxc's `D3DReflectionDumper`.
pub fn write_text<W: Write>(out: &mut W, reflection: &Reflection) -> fmt::Result {
    let mut d = Dumper { out, indent: 0 };
    if let Some(library) = &reflection.library {
        d.library(reflection, library)
    } else if let Some(shader) = &reflection.shader {
        d.shader(reflection, shader)
    } else {
        // Nothing to reflect: the interface line alone, as dxc prints on failure.
        line!(d, "{}:", reflection.interface)?;
        d.nested(|d| line!(d, "Failed: GetDesc"))
    }
}

/// [`write_text`] into a `String`.
pub fn to_text(reflection: &Reflection) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_text(&mut s, reflection);
    s
}
