//! DXBC reflection: RDEF, STAT, the signatures, the SHDR/SHEX declarations
//! and SFI0, read as d3dcompiler_47's `D3DReflect` reads them
//! (docs/reflection.md § DXBC).

use super::*;
use crate::error::ReadError;
use crate::rdef::{self, ResourceDefinitions};
use crate::sfi0::Sfi0;
use crate::sm4::{self, Body, Declaration};
use crate::stat::Statistics;
use crate::PartName;

/// SM4/5 opcodes of the declarations reflection reads (docs/format/sm4-listing.md).
mod opcode {
    pub const DCL_MAX_OUTPUT_VERTEX_COUNT: u16 = 0x5e;
    pub const DCL_GS_INSTANCE_COUNT: u16 = 0xce;
    pub const DCL_INPUT_CONTROL_POINT_COUNT: u16 = 0x93;
    pub const DCL_OUTPUT_CONTROL_POINT_COUNT: u16 = 0x94;
    pub const HS_DECLS: u16 = 0x71;
}

/// The `forceEarlyDepthStencil` bit of `dcl_globalFlags` (after the shift).
const GLOBAL_FLAG_FORCE_EARLY_DEPTH_STENCIL: u32 = 0x4;

/// What the declarations of the program say (before the first executable
/// instruction).
#[derive(Default)]
struct Declared {
    global_flags: u32,
    thread_group: Option<[u32; 3]>,
    input_primitive: Option<u8>,
    output_topology: Option<u8>,
    max_output_vertices: Option<u32>,
    gs_instances: Option<u32>,
    input_control_points: Option<u32>,
    output_control_points: Option<u32>,
    domain: Option<u8>,
    partitioning: Option<u8>,
    output_primitive: Option<u8>,
}

/// Reads the declarations at the head of an SM4/5 program; `None` when the
/// program header does not decode.
fn declarations(data: &[u8], base: u64) -> Option<(sm4::Program, Declared)> {
    let (program, instructions) = sm4::Program::stream(data, base).ok()?;
    let mut d = Declared::default();
    for instruction in instructions {
        let Ok(instruction) = instruction else { break };
        match &instruction.body {
            Body::Plain if instruction.opcode == opcode::HS_DECLS => {}
            Body::Plain => break,
            Body::CustomData { .. } => {}
            Body::Declaration(decl) => match decl {
                Declaration::GlobalFlags(flags) => d.global_flags = *flags,
                Declaration::ThreadGroup(size) => d.thread_group = Some(*size),
                Declaration::InputPrimitive(p) => d.input_primitive = Some(*p),
                Declaration::OutputTopology(t) => d.output_topology = Some(*t),
                Declaration::TessDomain(v) => d.domain = Some(*v),
                Declaration::TessPartitioning(v) => d.partitioning = Some(*v),
                Declaration::TessOutputPrimitive(v) => d.output_primitive = Some(*v),
                Declaration::Count(n) => match instruction.opcode {
                    opcode::DCL_MAX_OUTPUT_VERTEX_COUNT => d.max_output_vertices = Some(*n),
                    opcode::DCL_GS_INSTANCE_COUNT => d.gs_instances = Some(*n),
                    opcode::DCL_INPUT_CONTROL_POINT_COUNT => d.input_control_points = Some(*n),
                    opcode::DCL_OUTPUT_CONTROL_POINT_COUNT => d.output_control_points = Some(*n),
                    _ => {}
                },
                _ => {}
            },
        }
    }
    Some((program, d))
}

/// `D3D_SHADER_VARIABLE_*` type tree of an RDEF type.
fn type_desc(t: &rdef::ShaderType<'_>, offset: u32) -> TypeDesc {
    TypeDesc {
        name: t.name.map(|n| crate::fields::lossy(n).into_owned()),
        class: VariableClass::from_raw(u32::from(t.class.raw())),
        base_type: VariableType::from_raw(u32::from(t.base_type.raw())),
        rows: u32::from(t.rows),
        columns: u32::from(t.columns),
        elements: u32::from(t.elements),
        offset,
        members: t
            .members
            .iter()
            .map(|m| MemberDesc {
                name: crate::fields::lossy(m.name).into_owned(),
                member_type: type_desc(&m.member_type, m.offset),
            })
            .collect(),
    }
}

/// Constant buffers and bound resources of a decoded RDEF.
pub(super) fn from_rdef(rd: &ResourceDefinitions<'_>, r: &mut Reflection) {
    let text = |b: &[u8]| crate::fields::lossy(b).into_owned();
    r.constant_buffers = rd
        .constant_buffers
        .iter()
        .map(|cb| BufferDesc {
            name: text(cb.name),
            buffer_type: CbufferType::from_raw(cb.kind.raw()),
            size: cb.size,
            flags: CbufferFlags(cb.flags.0),
            variables: cb
                .variables
                .iter()
                .map(|v| VariableDesc {
                    name: text(v.name),
                    start_offset: v.start_offset,
                    size: v.size,
                    flags: VariableFlags(v.flags.0),
                    used: v.flags.0 & VariableFlags::USED != 0,
                    default_value: v.default_value.map(crate::fields::hex),
                    start_texture: v.start_texture,
                    texture_size: v.texture_size,
                    start_sampler: v.start_sampler,
                    sampler_size: v.sampler_size,
                    var_type: type_desc(&v.var_type, 0),
                })
                .collect(),
        })
        .collect();
    r.bound_resources = rd
        .resources
        .iter()
        .map(|b| BindDesc {
            name: Some(text(b.name)),
            input_type: ShaderInputType::from_raw(b.input_type.raw()),
            bind_point: b.bind_point,
            bind_count: b.bind_count,
            flags: Some(InputFlags(b.flags.0)),
            return_type: Some(ResourceReturnType::from_raw(b.return_type.raw())),
            dimension: Some(SrvDimension::from_raw(b.dimension.raw())),
            num_samples: Some(b.sample_count),
            space: b.space.unwrap_or(0),
            // Before SM 5.1 the id is the binding's register (as D3DReflect reports it).
            id: b.id.unwrap_or(b.bind_point),
        })
        .collect();
}

/// Fills `r` from the parts of an fxc container.
pub(super) fn reflect(container: &Container<'_>, r: &mut Reflection) -> Result<(), ReadError> {
    let program_part = crate::listing::dxbc::shader_part(container);
    let rdef = match container.find(PartName::RDEF) {
        Some(part) => Some(ResourceDefinitions::parse(&part)?),
        None => None,
    };
    let stat = match container.find(PartName::STAT) {
        Some(part) if !crate::program::is_program_data(part.data) => {
            Some(Statistics::parse(&part)?)
        }
        _ => None,
    };
    let decoded = program_part.and_then(|p| declarations(p.data, p.data_offset()));

    // Version: the program's version token, else RDEF's target.
    let version = match (&decoded, &rdef) {
        (Some((program, _)), _) => Some(ShaderVersion {
            kind: ShaderVersionType::from_raw(u32::from(program.stage.raw())),
            major: u32::from(program.major),
            minor: u32::from(program.minor),
        }),
        (None, Some(rd)) => rd.target.stage().map(|stage| ShaderVersion {
            kind: ShaderVersionType::from_raw(u32::from(stage.raw())),
            major: u32::from(rd.major),
            minor: u32::from(rd.minor),
        }),
        (None, None) => None,
    };
    if program_part.is_some() {
        r.format = "DXBC";
    } else if rdef.is_some() {
        r.format = "DXBC";
        r.notes.push("no SHDR/SHEX part: no program".into());
    } else {
        r.notes
            .push("no program part (DXIL, SHDR, SHEX) and no RDEF: nothing to reflect".into());
    }

    // Signatures.
    read_signatures(container, r)?;

    let Some(version) = version else {
        return Ok(());
    };
    if version.kind == ShaderVersionType::Pixel {
        pixel_output_system_values(&mut r.output_parameters);
    }
    let mut shader = ShaderDesc::new(version);
    if let Some(part) = program_part {
        r.source.shader.push(part_str(part.name));
    }
    if rdef.is_some() {
        r.source.shader.push("RDEF");
    }

    match &rdef {
        Some(rd) => {
            from_rdef(rd, r);
            r.source.resources.push("RDEF");
            r.source.constant_buffers.push("RDEF");
            shader.creator = Some(crate::fields::lossy(rd.creator).into_owned());
            shader.flags = Some(CompileFlags(rd.compile_flags.0));
            shader.num_interface_slots = Some(rd.rd11.map_or(0, |h| h.interface_slots));
        }
        None => r.notes.push(
            "no RDEF part (stripped reflection): no constant buffers, bound resources, creator or compile flags"
                .into(),
        ),
    }

    let stage = ShaderVersionType::from_raw(version.kind.raw());
    match &stat {
        Some(stat) => {
            r.source.statistics.push("STAT");
            r.source.stage.push("STAT");
            stat_counters(stat, &mut shader);
        }
        None => {
            r.notes
                .push("no fxc STAT part: no instruction counts".into());
            if let (Some((_, d)), Some(part)) = (&decoded, program_part) {
                r.source.stage.push(part_str(part.name));
                stage_from_declarations(stage, d, &mut shader);
            }
        }
    }
    if let Some((_, d)) = &decoded {
        if stage == ShaderVersionType::Compute {
            shader.thread_group_size = d.thread_group;
        }
    }

    // Requires flags: SFI0's bits, bit 1 being early depth-stencil (from
    // dcl_globalFlags) rather than SFI0's CS4 raw/structured-buffer bit.
    let sfi0 = match container.find(PartName::SFI0) {
        Some(part) => Some(Sfi0::parse(&part)?),
        None => None,
    };
    if let Some((_, d)) = &decoded {
        let mut bits = sfi0.map_or(0, |s| s.flags.0) & !RequiresFlags::EARLY_DEPTH_STENCIL;
        if d.global_flags & GLOBAL_FLAG_FORCE_EARLY_DEPTH_STENCIL != 0 {
            bits |= RequiresFlags::EARLY_DEPTH_STENCIL;
        }
        shader.requires_flags = Some(RequiresFlags(bits));
        if sfi0.is_some() {
            r.source.requires_flags.push("SFI0");
        }
        if let Some(part) = program_part {
            r.source.requires_flags.push(part_str(part.name));
        }
    }
    shader.min_feature_level = Some(min_feature_level(container, version)?);
    r.shader = Some(shader);
    Ok(())
}

/// The counters of fxc's STAT part, as D3DReflect reports them: a shorter
/// (SM4) STAT leaves the later counters 0.
fn stat_counters(stat: &Statistics, shader: &mut ShaderDesc) {
    let get = |name: &str| Some(stat.get(name).unwrap_or(0));
    shader.instruction_count = get("InstructionCount");
    shader.temp_register_count = get("TempRegisterCount");
    shader.def_count = get("DefCount");
    shader.dcl_count = get("DclCount");
    shader.float_instruction_count = get("FloatInstructionCount");
    shader.int_instruction_count = get("IntInstructionCount");
    shader.uint_instruction_count = get("UintInstructionCount");
    shader.static_flow_control_count = get("StaticFlowControlCount");
    shader.dynamic_flow_control_count = get("DynamicFlowControlCount");
    shader.macro_instruction_count = get("MacroInstructionCount");
    shader.temp_array_count = get("TempArrayCount");
    shader.array_instruction_count = get("ArrayInstructionCount");
    shader.cut_instruction_count = get("CutInstructionCount");
    shader.emit_instruction_count = get("EmitInstructionCount");
    shader.texture_normal_instructions = get("TextureNormalInstructions");
    shader.texture_load_instructions = get("TextureLoadInstructions");
    shader.texture_comp_instructions = get("TextureCompInstructions");
    shader.texture_bias_instructions = get("TextureBiasInstructions");
    shader.texture_gradient_instructions = get("TextureGradientInstructions");
    shader.mov_instruction_count = get("MovInstructionCount");
    shader.movc_instruction_count = get("MovcInstructionCount");
    shader.conversion_instruction_count = get("ConversionInstructionCount");
    shader.bitwise_instruction_count = get("BitwiseInstructionCount");
    shader.input_primitive = get("InputPrimitive").map(Primitive::from_raw);
    shader.gs_output_topology = get("GSOutputTopology").map(PrimitiveTopology::from_raw);
    shader.gs_max_output_vertex_count = get("GSMaxOutputVertexCount");
    shader.is_sample_frequency_shader = get("IsSampleFrequency").map(|v| v != 0);
    shader.gs_instance_count = get("GSInstanceCount");
    shader.control_points = get("ControlPoints");
    shader.hs_output_primitive = get("HSOutputPrimitive").map(TessellatorOutputPrimitive::from_raw);
    shader.hs_partitioning = get("HSPartitioning").map(TessellatorPartitioning::from_raw);
    shader.tessellator_domain = get("TessellatorDomain").map(TessellatorDomain::from_raw);
    shader.barrier_instructions = get("BarrierInstructions");
    shader.interlocked_instructions = get("InterlockedInstructions");
    shader.texture_store_instructions = get("TextureStoreInstructions");
}

/// fxc stores 0 as the system value of a pixel shader's `SV_Target`,
/// `SV_Depth*` and `SV_Coverage` outputs; d3dcompiler reports the system
/// value their (case-insensitive) name means, with or without RDEF (Wine's
/// `test_reflection_desc_ps_output`).
fn pixel_output_system_values(outputs: &mut [SignatureParameter]) {
    const BY_NAME: [(&str, Name); 5] = [
        ("SV_Target", Name::Target),
        ("SV_Depth", Name::Depth),
        ("SV_Coverage", Name::Coverage),
        ("SV_DepthGreaterEqual", Name::DepthGreaterEqual),
        ("SV_DepthLessEqual", Name::DepthLessEqual),
    ];
    for p in outputs {
        if p.system_value_type != Name::Undefined {
            continue;
        }
        if let Some((_, name)) = BY_NAME
            .iter()
            .find(|(text, _)| p.semantic_name.eq_ignore_ascii_case(text))
        {
            p.system_value_type = *name;
        }
    }
}

/// The GS/HS/DS fields from the declarations (containers without STAT).
fn stage_from_declarations(stage: ShaderVersionType, d: &Declared, shader: &mut ShaderDesc) {
    match stage {
        ShaderVersionType::Geometry => {
            shader.input_primitive = d.input_primitive.map(|p| Primitive::from_raw(p.into()));
            shader.gs_output_topology = d
                .output_topology
                .map(|t| PrimitiveTopology::from_raw(t.into()));
            shader.gs_max_output_vertex_count = d.max_output_vertices;
            shader.gs_instance_count = d.gs_instances;
        }
        ShaderVersionType::Hull => {
            shader.control_points = d.output_control_points;
            shader.input_primitive = d
                .input_control_points
                .filter(|n| (1..=32).contains(n))
                .map(|n| Primitive::from_raw(Primitive::Patch1.raw() + n - 1));
            shader.hs_output_primitive = d
                .output_primitive
                .map(|v| TessellatorOutputPrimitive::from_raw(v.into()));
            shader.hs_partitioning = d
                .partitioning
                .map(|v| TessellatorPartitioning::from_raw(v.into()));
            shader.tessellator_domain = d.domain.map(|v| TessellatorDomain::from_raw(v.into()));
        }
        ShaderVersionType::Domain => {
            shader.control_points = d.input_control_points;
            shader.tessellator_domain = d.domain.map(|v| TessellatorDomain::from_raw(v.into()));
        }
        _ => {}
    }
}

/// The feature level the shader model needs: 9_1 / 9_3 for a program with a
/// Level 9 (Aon9) part (shader model 2.0 / 2.x), else 10_0 for 4.0, 10_1 for
/// 4.1, 11_0 for 5.x (docs/reflection.md: the shader-model floor).
fn min_feature_level(
    container: &Container<'_>,
    version: ShaderVersion,
) -> Result<FeatureLevel, ReadError> {
    if let Some(part) = container.find(PartName::Aon9) {
        let level9 = crate::aon9::Level9Shader::parse(&part)?;
        return Ok(if (level9.major, level9.minor) > (2, 0) {
            FeatureLevel::Level9_3
        } else {
            FeatureLevel::Level9_1
        });
    }
    Ok(match (version.major, version.minor) {
        (4, 0) => FeatureLevel::Level10_0,
        (4, _) => FeatureLevel::Level10_1,
        (5, _) => FeatureLevel::Level11_0,
        (major, _) if major < 4 => FeatureLevel::Level9_1,
        _ => FeatureLevel::Level12_0,
    })
}

/// `SHEX` or `SHDR`.
fn part_str(name: PartName) -> &'static str {
    if name.0 == *b"SHEX" {
        "SHEX"
    } else {
        "SHDR"
    }
}
