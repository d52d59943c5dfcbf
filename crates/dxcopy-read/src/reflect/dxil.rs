//! DXIL reflection: the module's metadata first ([`super::module`]), and the
//! parts beside the module — PSV0 (bindings, stage fields, thread-group
//! size), RDAT (library functions, resources with names), the signatures,
//! SFI0 — mapped as dxc's `DxilContainerReflection.cpp` maps the module's
//! resources (docs/reflection.md § DXIL).

use super::cbuffers::CbufferTypesError;
use super::counters::Counters;
use super::module::ModuleMetadata;
use super::*;
use crate::dxil::facts::ModuleFacts;
use crate::error::ReadError;
use crate::psv0::{Psv0, ResourceKind, ResourceType, StageInfo};
use crate::rdat::{self, ResourceClass, RuntimeData};
use crate::sfi0::Sfi0;
use crate::{PartName, Program, ShaderKind};

/// `OptFeatureInfo_UsesDerivatives`, masked out of a function's required flags.
const USES_DERIVATIVES: u64 = 0x0000_0100_0000_0000;

/// The DXIL program part: DXIL, else ILDB (a dxc companion PDB holds only
/// the debug module).
fn program_part<'data>(container: &Container<'data>) -> Option<crate::Part<'data>> {
    [PartName::DXIL, PartName::ILDB]
        .into_iter()
        .filter_map(|name| container.find(name))
        .find(|p| crate::program::is_program_data(p.data))
}

/// Whether the container holds a DXIL program (or only its debug module).
pub(super) fn is_dxil(container: &Container<'_>) -> bool {
    program_part(container).is_some()
}

/// A resource as PSV0 or RDAT records it, in D3D terms.
struct Resource<'a> {
    name: Option<&'a [u8]>,
    class: ResourceClass,
    /// `None`: PSV0 before version 2 records no kind.
    kind: Option<ResourceKind>,
    has_counter: bool,
    id: u32,
    space: u32,
    lower: u32,
    upper: u32,
}

/// `D3D12_SHADER_INPUT_BIND_DESC` of a resource, as dxc's reflection fills
/// it; the fields neither PSV0 nor RDAT records (typed resources' return
/// type and component flags, structured strides, sample counts, comparison
/// samplers) are `None`.
fn bind_desc(res: &Resource<'_>) -> BindDesc {
    use ResourceKind as K;
    let uav = res.class == ResourceClass::Uav;
    let kind = res.kind;
    let bind_count = if res.upper == u32::MAX {
        // dxc: an unbounded cbuffer range says UINT_MAX, the others 0.
        if res.class == ResourceClass::CBuffer {
            u32::MAX
        } else {
            0
        }
    } else {
        res.upper.wrapping_sub(res.lower).wrapping_add(1)
    };
    let zero = Some(ResourceReturnType::from_raw(0));
    let mixed = Some(ResourceReturnType::Mixed);
    let (input_type, dimension, return_type, num_samples, flags) = match res.class {
        ResourceClass::CBuffer => (
            ShaderInputType::Cbuffer,
            Some(SrvDimension::Unknown0),
            zero,
            Some(0),
            Some(InputFlags(InputFlags::USER_PACKED)),
        ),
        ResourceClass::Sampler => (
            ShaderInputType::Sampler,
            Some(SrvDimension::Unknown0),
            zero,
            Some(0),
            None,
        ),
        _ => match kind {
            Some(K::RawBuffer) => (
                if uav {
                    ShaderInputType::UavRwByteAddress
                } else {
                    ShaderInputType::ByteAddress
                },
                Some(SrvDimension::Buffer),
                mixed,
                Some(0),
                Some(InputFlags(0)),
            ),
            Some(K::StructuredBuffer) => (
                match (uav, res.has_counter) {
                    (false, _) => ShaderInputType::Structured,
                    (true, true) => ShaderInputType::UavRwStructuredWithCounter,
                    (true, false) => ShaderInputType::UavRwStructured,
                },
                Some(SrvDimension::Buffer),
                mixed,
                None,
                Some(InputFlags(0)),
            ),
            Some(K::TBuffer) => (
                ShaderInputType::Tbuffer,
                Some(SrvDimension::Unknown0),
                zero,
                Some(0),
                Some(InputFlags(InputFlags::USER_PACKED)),
            ),
            Some(K::RTAccelerationStructure) => (
                ShaderInputType::RtAccelerationStructure,
                Some(SrvDimension::Unknown0),
                None,
                Some(u32::MAX),
                Some(InputFlags(0)),
            ),
            Some(K::FeedbackTexture2D) | Some(K::FeedbackTexture2DArray) => (
                ShaderInputType::UavFeedbackTexture,
                Some(if kind == Some(K::FeedbackTexture2D) {
                    SrvDimension::Texture2D
                } else {
                    SrvDimension::Texture2DArray
                }),
                None,
                Some(u32::MAX),
                None,
            ),
            _ => {
                let dimension = match kind {
                    Some(K::TypedBuffer) => Some(SrvDimension::Buffer),
                    Some(K::Texture1D) => Some(SrvDimension::Texture1D),
                    Some(K::Texture1DArray) => Some(SrvDimension::Texture1DArray),
                    Some(K::Texture2D) => Some(SrvDimension::Texture2D),
                    Some(K::Texture2DArray) => Some(SrvDimension::Texture2DArray),
                    Some(K::Texture2DMS) => Some(SrvDimension::Texture2DMS),
                    Some(K::Texture2DMSArray) => Some(SrvDimension::Texture2DMSArray),
                    Some(K::Texture3D) => Some(SrvDimension::Texture3D),
                    Some(K::TextureCube) => Some(SrvDimension::TextureCube),
                    Some(K::TextureCubeArray) => Some(SrvDimension::TextureCubeArray),
                    _ => None,
                };
                let multisampled = matches!(kind, Some(K::Texture2DMS | K::Texture2DMSArray));
                (
                    if uav {
                        ShaderInputType::UavRwTyped
                    } else {
                        ShaderInputType::Texture
                    },
                    dimension,
                    None,
                    if multisampled || kind.is_none() {
                        None
                    } else {
                        Some(u32::MAX)
                    },
                    None,
                )
            }
        },
    };
    BindDesc {
        name: res.name.map(|n| crate::fields::lossy(n).into_owned()),
        input_type,
        bind_point: res.lower,
        bind_count,
        flags,
        return_type,
        dimension,
        num_samples,
        space: res.space,
        id: res.id,
    }
}

/// The resources of a PSV0 part: class from the type, the id being the
/// position within its class (dxc writes each class in id order).
fn psv_resources(psv: &Psv0<'_>) -> Vec<BindDesc> {
    let mut next_id = [0u32; 4];
    psv.resources
        .iter()
        .map(|b| {
            let (class, kind_from_type) = match b.resource_type {
                ResourceType::Sampler => (ResourceClass::Sampler, Some(ResourceKind::Sampler)),
                ResourceType::Cbv => (ResourceClass::CBuffer, Some(ResourceKind::CBuffer)),
                ResourceType::SrvRaw => (ResourceClass::Srv, Some(ResourceKind::RawBuffer)),
                ResourceType::SrvStructured => {
                    (ResourceClass::Srv, Some(ResourceKind::StructuredBuffer))
                }
                ResourceType::UavRaw => (ResourceClass::Uav, Some(ResourceKind::RawBuffer)),
                ResourceType::UavStructured | ResourceType::UavStructuredWithCounter => {
                    (ResourceClass::Uav, Some(ResourceKind::StructuredBuffer))
                }
                ResourceType::UavTyped => (ResourceClass::Uav, None),
                _ => (ResourceClass::Srv, None),
            };
            let slot = match class {
                ResourceClass::CBuffer => 0,
                ResourceClass::Sampler => 1,
                ResourceClass::Srv => 2,
                _ => 3,
            };
            let id = next_id[slot];
            next_id[slot] = id.wrapping_add(1);
            bind_desc(&Resource {
                name: None,
                class,
                kind: b
                    .kind
                    .filter(|k| *k != ResourceKind::Invalid)
                    .or(kind_from_type),
                has_counter: b.resource_type == ResourceType::UavStructuredWithCounter,
                id,
                space: b.space,
                lower: b.lower_bound,
                upper: b.upper_bound,
            })
        })
        .collect()
}

/// An RDAT resource record in D3D terms.
fn rdat_resource(r: &rdat::RdatResource<'_>) -> BindDesc {
    bind_desc(&Resource {
        name: Some(r.name),
        class: r.class,
        kind: Some(r.kind),
        has_counter: r.flags.contains(rdat::ResourceFlags::UAV_COUNTER),
        id: r.id,
        space: r.space,
        lower: r.lower_bound,
        upper: r.upper_bound,
    })
}

/// `D3D12_SHADER_VERSION_TYPE` of a DXIL shader kind.
fn version_type(kind: ShaderKind) -> ShaderVersionType {
    ShaderVersionType::from_raw(u32::from(kind.raw()))
}

/// Fills `r` from the parts of a dxc container.
pub(super) fn reflect(container: &Container<'_>, r: &mut Reflection) -> Result<(), ReadError> {
    let Some(dxil) = program_part(container) else {
        return Ok(());
    };
    if dxil.name == PartName::ILDB {
        r.notes
            .push("no DXIL part: reflected from the debug module (ILDB)".into());
    }
    let program = Program::parse(&dxil)?;
    let kind = program.shader_kind;
    let version = ShaderVersion {
        kind: version_type(kind),
        major: u32::from(program.model_major),
        minor: u32::from(program.model_minor),
    };
    // The module's dx.* metadata first (STAT's module when it carries it);
    // without it, the parts beside the module.
    let module = match super::module::read(container) {
        Ok(m) => Some(m),
        Err(super::module::NoModule::OverBudget(e)) => return Err(e),
        Err(super::module::NoModule::Note(why)) => {
            r.notes.push(format!(
                "{why}: the parts beside the module (PSV0, RDAT, signatures) are read instead"
            ));
            None
        }
    };
    // llvm.ident is the creator; a module the reader cannot read leaves it unknown.
    let creator = match &module {
        Some(m) => {
            let creator = super::module::creator(&m.module);
            if creator.is_none() {
                r.notes
                    .push("the DXIL module has no llvm.ident: no creator".into());
            }
            creator
        }
        None => match ModuleFacts::decode(program.bitcode) {
            Ok(facts) => {
                let creator = facts.ident.into_iter().next();
                if creator.is_none() {
                    r.notes
                        .push("the DXIL module has no llvm.ident: no creator".into());
                }
                creator
            }
            Err(_) => {
                r.notes
                    .push("the DXIL module could not be read: no creator (llvm.ident)".into());
                None
            }
        },
    };
    let rdat = match container.find(PartName::RDAT) {
        Some(part) => Some(RuntimeData::parse(&part)?),
        None => None,
    };
    let sfi0 = match container.find(PartName::SFI0) {
        Some(part) => Some(Sfi0::parse(&part)?),
        None => None,
    };
    // Constant buffers: dx.resources' cbuffers, structured buffers and
    // tbuffers with the layouts of dx.typeAnnotations; the usage of
    // validator-1.4 modules from their bodies.
    let buffers = match &module {
        Some(m) => Some(
            module_buffers(m, kind == ShaderKind::Library, &mut r.notes).map_err(|e| match e {
                CbufferTypesError::OverBudget(e) => super::module::over_budget(
                    &dxil,
                    program.bitcode_file_offset,
                    crate::error::Budgeted::ConstantBufferTypes,
                    e.limit,
                ),
                CbufferTypesError::TooDeep => crate::ReadError::new(
                    program.bitcode_file_offset,
                    crate::error::ReadErrorKind::limit_exceeded(
                        crate::error::Limit::ConstantBufferTypeDepth {
                            limit: u64::from(super::cbuffers::MAX_NESTING),
                        },
                    ),
                )
                .in_part(dxil.part_ref()),
            })?,
        ),
        None => None,
    };
    if kind == ShaderKind::Library {
        r.interface = "ID3D12LibraryReflection";
        library(r, rdat.as_ref(), module.as_ref(), version, creator, buffers);
        return Ok(());
    }

    // Constant buffers: dx.resources' cbuffers and tbuffers with the
    // layouts of dx.typeAnnotations.
    match (&module, buffers) {
        (Some(m), Some(buffers)) => {
            r.constant_buffers = buffers;
            r.source.constant_buffers.push(m.part);
        }
        _ => r.notes.push(
            "constant-buffer layouts are recorded only in the DXIL module's metadata (dx.typeAnnotations): no constant_buffers"
                .into(),
        ),
    }

    read_signatures(container, r)?;
    for p in r
        .input_parameters
        .iter_mut()
        .chain(r.output_parameters.iter_mut())
        .chain(r.patch_constant_parameters.iter_mut())
    {
        // dxc reports the names of system values in upper case.
        if p.system_value_type != Name::Undefined
            || p.semantic_name
                .get(..3)
                .is_some_and(|s| s.eq_ignore_ascii_case("SV_"))
        {
            p.semantic_name.make_ascii_uppercase();
        }
    }

    let mut shader = ShaderDesc::new(version);
    r.source.shader.push("DXIL");
    shader.creator = creator;
    // dxc's constant answers: no compile flags, no interface slots, no
    // sample-frequency test, and 0 for the fxc-only counters.
    shader.flags = Some(CompileFlags(0));
    shader.num_interface_slots = Some(0);
    shader.is_sample_frequency_shader = Some(false);
    for counter in [
        &mut shader.temp_register_count,
        &mut shader.def_count,
        &mut shader.dcl_count,
        &mut shader.static_flow_control_count,
        &mut shader.macro_instruction_count,
        &mut shader.mov_instruction_count,
        &mut shader.movc_instruction_count,
        &mut shader.conversion_instruction_count,
        &mut shader.bitwise_instruction_count,
    ] {
        *counter = Some(0);
    }
    shader.min_feature_level = Some(FeatureLevel::Level12_0);
    match instruction_counts(container, module.as_ref(), &mut r.notes) {
        Some((counters, part)) => {
            counters.apply(&mut shader);
            r.source.statistics.push(part);
        }
        None => r
            .notes
            .push("no function bodies read: the instruction counts are unknown".into()),
    }

    // Bindings: RDAT's records (with names) when it has them, else PSV0's.
    let psv = match container.find(PartName::PSV0) {
        Some(part) => Some(Psv0::parse(&part, Some(kind))?),
        None => None,
    };
    match (&module, &rdat, &psv) {
        (Some(m), _, _) => {
            r.bound_resources = super::module::bound_resources(m);
            r.source.resources.push(m.part);
        }
        (None, Some(rdat), _) if !rdat.resources.is_empty() => {
            r.bound_resources = rdat.resources.iter().map(rdat_resource).collect();
            r.source.resources.push("RDAT");
        }
        (None, _, Some(psv)) => {
            r.bound_resources = psv_resources(psv);
            r.source.resources.push("PSV0");
            if !r.bound_resources.is_empty() {
                r.notes.push(
                    "resource names are recorded only in the DXIL module's metadata (dx.resources): PSV0 has the bindings without names"
                        .into(),
                );
            }
            if psv.version < 2 && !psv.resources.is_empty() {
                r.notes.push(
                    "PSV0 before version 2 records no resource kind: texture dimensions are unknown"
                        .into(),
                );
            }
        }
        (None, _, None) => r.notes.push("no PSV0 part: no resource bindings".into()),
    }

    // Stage fields: 0 where the stage has none, PSV0's where it has them.
    shader.gs_output_topology = Some(PrimitiveTopology::Undefined);
    shader.gs_max_output_vertex_count = Some(0);
    shader.input_primitive = Some(Primitive::Undefined);
    shader.gs_instance_count = Some(0);
    shader.control_points = Some(0);
    shader.hs_output_primitive = Some(TessellatorOutputPrimitive::Undefined);
    shader.hs_partitioning = Some(TessellatorPartitioning::Undefined);
    shader.tessellator_domain = Some(TessellatorDomain::Undefined);
    if let Some(psv) = &psv {
        r.source.stage.push("PSV0");
        stage_from_psv(psv, kind, &mut shader, &mut r.notes, module.is_some());
    } else if module.is_none()
        && matches!(
            kind,
            ShaderKind::Geometry
                | ShaderKind::Hull
                | ShaderKind::Domain
                | ShaderKind::Compute
                | ShaderKind::Mesh
                | ShaderKind::Amplification
                | ShaderKind::Pixel
        )
    {
        r.notes
            .push("no PSV0 part: the stage fields and thread-group size are unknown".into());
        shader.gs_output_topology = None;
        shader.gs_max_output_vertex_count = None;
        shader.input_primitive = None;
        shader.gs_instance_count = None;
        shader.control_points = None;
        shader.hs_output_primitive = None;
        shader.hs_partitioning = None;
        shader.tessellator_domain = None;
    }

    // Requires flags: SFI0 without bit 1 (early depth-stencil in D3D terms).
    if let Some(sfi0) = sfi0 {
        shader.requires_flags = Some(RequiresFlags(
            sfi0.flags.0 & !RequiresFlags::EARLY_DEPTH_STENCIL,
        ));
        r.source.requires_flags.push("SFI0");
        if kind == ShaderKind::Pixel && module.is_none() {
            r.notes.push(
                "D3D_SHADER_REQUIRES_EARLY_DEPTH_STENCIL is recorded only in the module's entry-point properties: requires_flags leaves it out"
                    .into(),
            );
        }
    } else {
        r.notes.push("no SFI0 part: requires flags unknown".into());
    }
    if let Some(m) = &module {
        if let Some(entry) = m.metadata.main_entry() {
            super::module::entry_properties(entry, &m.metadata, &mut shader);
            r.source.stage.push(m.part);
        }
    }
    r.shader = Some(shader);
    Ok(())
}

/// GS/HS/DS fields, sample frequency and the thread-group size from PSV0's
/// runtime info.
fn stage_from_psv(
    psv: &Psv0<'_>,
    kind: ShaderKind,
    shader: &mut ShaderDesc,
    notes: &mut Vec<String>,
    has_module: bool,
) {
    let info = &psv.runtime_info;
    shader.group_shared_bytes = info.num_bytes_group_shared_memory;
    match info.stage_info {
        StageInfo::Geometry {
            input_primitive,
            output_topology,
            ..
        } => {
            shader.input_primitive = Some(Primitive::from_raw(input_primitive));
            shader.gs_output_topology = Some(PrimitiveTopology::from_raw(output_topology));
            shader.gs_max_output_vertex_count = info.geometry_data.map(u32::from);
            shader.gs_instance_count = None;
            if !has_module {
                notes.push(
                    "the GS instance count is recorded only in the module's entry-point properties"
                        .into(),
                );
            }
            if info.geometry_data.is_none() {
                notes.push("PSV0 version 0 records no GS max vertex count".into());
            }
        }
        StageInfo::Hull {
            input_control_point_count,
            output_control_point_count,
            tessellator_domain,
            tessellator_output_primitive,
        } => {
            shader.control_points = Some(output_control_point_count);
            shader.input_primitive = Some(if (1..=32).contains(&input_control_point_count) {
                Primitive::from_raw(Primitive::Patch1.raw() + input_control_point_count - 1)
            } else {
                Primitive::Undefined
            });
            shader.tessellator_domain = Some(TessellatorDomain::from_raw(tessellator_domain));
            shader.hs_output_primitive = Some(TessellatorOutputPrimitive::from_raw(
                tessellator_output_primitive,
            ));
            shader.hs_partitioning = None;
            if !has_module {
                notes.push(
                    "the HS partitioning is recorded only in the module's entry-point properties"
                        .into(),
                );
            }
        }
        StageInfo::Domain {
            input_control_point_count,
            tessellator_domain,
            ..
        } => {
            shader.control_points = Some(input_control_point_count);
            shader.tessellator_domain = Some(TessellatorDomain::from_raw(tessellator_domain));
        }
        _ => {}
    }
    if matches!(
        kind,
        ShaderKind::Compute | ShaderKind::Mesh | ShaderKind::Amplification
    ) {
        shader.thread_group_size = info.num_threads;
        if info.num_threads.is_none() {
            notes.push("PSV0 before version 2 records no thread-group size".into());
        }
    }
}

/// Library reflection from RDAT: the functions (sorted by name, as dxc
/// lists them) with the resources each uses.
fn library(
    r: &mut Reflection,
    rdat: Option<&RuntimeData<'_>>,
    module: Option<&ModuleMetadata>,
    version: ShaderVersion,
    creator: Option<String>,
    buffers: Option<Vec<BufferDesc>>,
) {
    // dxc's library reflection leaves Creator unset (and Flags 0); the
    // module's llvm.ident is kept in a note.
    if let Some(ident) = &creator {
        r.notes.push(format!(
            "a library's Creator is unset in dxc's reflection: the module's llvm.ident is '{ident}'"
        ));
    }
    if buffers.is_none() {
        r.notes.push(
            "constant-buffer layouts are recorded only in the DXIL module's metadata: the functions' constant_buffers are unknown"
                .into(),
        );
    }
    let Some(rdat) = rdat else {
        r.notes
            .push("no RDAT part: the library's functions are unknown".into());
        r.library = Some(LibraryDesc {
            creator: None,
            flags: 0,
            function_count: 0,
        });
        return;
    };
    r.source.functions.push("RDAT");
    r.source.resources.push("RDAT");
    let mut functions: Vec<&rdat::RdatFunction<'_>> = rdat.functions.iter().collect();
    functions.sort_by(|a, b| a.name.cmp(b.name));
    r.functions = functions
        .into_iter()
        .map(|f| {
            let kind = f
                .shader_kind
                .stage()
                .map_or(ShaderVersionType::Library, version_type);
            let bound_resources: Vec<BindDesc> = f
                .resources
                .iter()
                .filter_map(|&i| rdat.resources.get(i as usize))
                .map(rdat_resource)
                .collect();
            let mut required = f.feature_flags & !RequiresFlags::EARLY_DEPTH_STENCIL;
            required &= !USES_DERIVATIVES;
            // A pixel shader's early depth-stencil comes from its entry's
            // shader flags in the module, as dxc's function reflection does.
            if kind == ShaderVersionType::Pixel
                && module.is_some_and(|m| forces_early_depth_stencil(m, f.name))
            {
                required |= RequiresFlags::EARLY_DEPTH_STENCIL;
            }
            let constant_buffers = buffers.as_ref().map(|buffers| {
                function_buffers(
                    buffers,
                    f.resources
                        .iter()
                        .filter_map(|&i| rdat.resources.get(i as usize)),
                )
            });
            FunctionDesc {
                name: crate::fields::lossy(f.name).into_owned(),
                unmangled_name: crate::fields::lossy(f.unmangled_name).into_owned(),
                version: ShaderVersion { kind, ..version },
                creator: None,
                flags: 0,
                required_feature_flags: required,
                constant_buffer_count: constant_buffers.as_ref().map(|b| b.len() as u32),
                bound_resource_count: bound_resources.len() as u32,
                // dxc's function reflection leaves both unset (0, FALSE).
                function_parameter_count: Some(0),
                has_return: Some(false),
                constant_buffers: constant_buffers.unwrap_or_default(),
                bound_resources,
            }
        })
        .collect();
    r.library = Some(LibraryDesc {
        creator: None,
        flags: 0,
        function_count: r.functions.len() as u32,
    });
    if module.is_none() {
        r.notes.push(
            "pixel shaders' early depth-stencil flag is recorded only in the DXIL module: not reported"
                .into(),
        );
    }
}

/// Whether the library entry named `name` has the force-early-depth-stencil
/// shader flag in its `dx.entryPoints` properties.
fn forces_early_depth_stencil(m: &ModuleMetadata, name: &[u8]) -> bool {
    m.metadata.entry_points.iter().any(|e| {
        e.function.and_then(|f| m.module.global_name(f)) == Some(name)
            && e.properties.shader_flags.unwrap_or(0)
                & super::module::SHADER_FLAG_FORCE_EARLY_DEPTH_STENCIL
                != 0
    })
}

/// The constant buffers a library function uses, as dxc's
/// `AddResourceDependencies` finds them among the module's buffers from
/// the function's RDAT resources: a cbuffer by its ID; a structured buffer
/// by name among the bind-info buffers (an array's buffer, named `name[0]`,
/// is not found, as in dxc); a tbuffer by name among the cbuffers and
/// tbuffers; each once, in the order first used.
fn function_buffers<'a>(
    buffers: &[BufferDesc],
    resources: impl Iterator<Item = &'a rdat::RdatResource<'a>>,
) -> Vec<BufferDesc> {
    let by_name = |name: &[u8], bind_info: bool| {
        buffers.iter().rposition(|b| {
            b.name.as_bytes() == name
                && (b.buffer_type == CbufferType::ResourceBindInfo) == bind_info
        })
    };
    let mut used: Vec<usize> = Vec::new();
    for res in resources {
        let index = match (res.class, res.kind) {
            (ResourceClass::CBuffer, _) => Some(res.id as usize).filter(|&i| {
                buffers
                    .get(i)
                    .is_some_and(|b| b.buffer_type == CbufferType::Cbuffer)
            }),
            (ResourceClass::Srv | ResourceClass::Uav, ResourceKind::StructuredBuffer) => {
                by_name(res.name, true)
            }
            (ResourceClass::Srv, ResourceKind::TBuffer) => by_name(res.name, false),
            _ => None,
        };
        if let Some(index) = index.filter(|i| !used.contains(i)) {
            used.push(index);
        }
    }
    used.into_iter().map(|i| buffers[i].clone()).collect()
}

/// The module's constant buffers in dxc's order; for a module that records
/// no usage (validator before 1.5) the variables its bodies never load are
/// marked unused, as dxc's `SetCBufferUsage` does.
fn module_buffers(
    m: &ModuleMetadata,
    library: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<BufferDesc>, CbufferTypesError> {
    let mut buffers = super::cbuffers::constant_buffers(m)?;
    if super::cbuffers::usage_in_metadata(m) {
        return Ok(buffers);
    }
    let cbuffers = &m.metadata.module_resources().cbuffers;
    let count = cbuffers.len().min(buffers.len());
    let min_precision = m.metadata.uses_min_precision();
    if !m.has_bodies && count > 0 {
        notes.push(format!(
            "the {} module records no constant-buffer usage (validator before 1.5) and its function bodies are not read: every variable is reported used",
            m.part
        ));
        return Ok(buffers);
    }
    if library {
        for (buffer, resource) in buffers.iter_mut().zip(cbuffers.iter()).take(count) {
            let usage = resource.symbol.map_or_else(Vec::new, |symbol| {
                super::usage::library_usage(&m.module, symbol, min_precision)
            });
            super::usage::apply(buffer, &usage);
        }
    } else if let Some(usage) = super::usage::shader_usage(&m.module, count, min_precision) {
        for (buffer, usage) in buffers.iter_mut().zip(&usage) {
            super::usage::apply(buffer, usage);
        }
    }
    Ok(buffers)
}

/// dxc's counters: the module's `dx.counters`, else the same count over the
/// DXIL module's function bodies (with a note), with the part they came
/// from; `None` when neither is there.
fn instruction_counts(
    container: &Container<'_>,
    module: Option<&ModuleMetadata>,
    notes: &mut Vec<String>,
) -> Option<(Counters, &'static str)> {
    if let Some(m) = module {
        if let Some(counters) = Counters::from_metadata(&m.module) {
            return Some((counters, m.part));
        }
    }
    let counted = match module.filter(|m| m.has_bodies) {
        Some(m) => Ok((Counters::count(&m.module), m.part)),
        None => super::module::read_bodies(container)
            .map(|(module, part)| (Counters::count(&module), part)),
    };
    match counted {
        Ok((counters, part)) => {
            notes.push(format!(
                "the module has no dx.counters: the instruction counts are counted from the {part} module's function bodies as dxc counts them when it writes dx.counters (dxc's reflection itself reports 0 without them)"
            ));
            Some((counters, part))
        }
        Err(why) => {
            notes.push(why);
            None
        }
    }
}

#[cfg(test)]
mod library_tests {
    use super::*;
    use crate::dxil::metadata::{DxilMetadata, EntryPoint, EntryProperties};
    use crate::dxil::model::Type;
    use crate::dxil::test_module::Builder;

    /// Two library pixel entries: the one whose shader flags force early
    /// depth-stencil (bit 3) reports it, the other and unknown names do not.
    #[test]
    fn a_library_pixel_entry_forces_early_depth_stencil_from_its_flags() {
        let mut b = Builder::new();
        let void = b.ty(Type::Void);
        let early = b.function("early", void, &[], None);
        let late = b.function("late", void, &[], None);
        let entry = |function, name: &[u8], flags| EntryPoint {
            function: Some(function),
            name: name.to_vec(),
            signatures: Default::default(),
            resources: Default::default(),
            properties: EntryProperties {
                shader_flags: Some(flags),
                shader_kind: Some(ShaderKind::Pixel),
                ..Default::default()
            },
        };
        let m = ModuleMetadata {
            module: b.module,
            has_bodies: false,
            metadata: DxilMetadata {
                entry_points: vec![entry(early, b"early", 0x18), entry(late, b"late", 0x10)],
                ..Default::default()
            },
            part: "DXIL",
            input_len: 0,
        };
        assert!(forces_early_depth_stencil(&m, b"early"));
        assert!(!forces_early_depth_stencil(&m, b"late"));
        assert!(!forces_early_depth_stencil(&m, b"missing"));
    }
}
