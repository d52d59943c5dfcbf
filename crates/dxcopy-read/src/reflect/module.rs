//! DXIL reflection from the module's `dx.*` metadata ([`DxilMetadata`]),
//! mapped as dxc's `DxilContainerReflection.cpp` maps it: the resources of
//! `dx.resources` with their names, return types, component flags,
//! comparison samplers, sample counts and structured strides, and the entry
//! point's properties (GS instance count, HS partitioning, early
//! depth-stencil). The module is the STAT part's when it carries the
//! metadata (`-Qstrip_reflect` moves reflection there), else the DXIL part's.

use super::*;
use crate::dxil::metadata::layout::DataLayout;
use crate::dxil::metadata::{
    CompType, DxilMetadata, EntryPoint, Resource, ResourceClass, ResourceDetail, SamplerKind,
};
use crate::dxil::model::{Module, Type};
use crate::dxil::ReadOptions;
use crate::psv0::ResourceKind;
use crate::{PartName, Program};

/// `ShaderFlags` bit 3: `m_bForceEarlyDepthStencil`.
pub(super) const SHADER_FLAG_FORCE_EARLY_DEPTH_STENCIL: u64 = 1 << 3;

/// A module with its metadata, and the part it was read from.
pub(super) struct ModuleMetadata {
    /// The module (with its function bodies when `has_bodies`).
    pub module: Module,
    /// Whether the function bodies were read (the DXIL and ILDB modules;
    /// STAT's module has none).
    pub has_bodies: bool,
    /// Its `dx.*` metadata.
    pub metadata: DxilMetadata,
    /// `STAT`, `DXIL` or `ILDB`.
    pub part: &'static str,
    /// The size of the module's bitcode: what the budget of a pass over
    /// its structure is sized from ([`crate::budget`]).
    pub input_len: usize,
}

/// Why there is no module to reflect from.
#[derive(Debug)]
pub(super) enum NoModule {
    /// A note saying why (the parts beside the module are read instead).
    Note(String),
    /// The module's structure expands past the work budget: an error, not
    /// a reason to fall back.
    OverBudget(crate::ReadError),
}

/// The error for `what` in program part `part` past its budget of `limit`,
/// at `offset` in the file.
pub(super) fn over_budget(
    part: &crate::Part<'_>,
    offset: u64,
    what: crate::error::Budgeted,
    limit: u64,
) -> crate::ReadError {
    crate::ReadError::new(
        offset,
        crate::error::ReadErrorKind::limit_exceeded(crate::error::Limit::WorkBudget {
            what,
            limit,
        }),
    )
    .in_part(part.part_ref())
}

/// The module holding reflection: STAT's when it has `dx.version`, else the
/// DXIL part's, else the debug module's (ILDB). The DXIL and ILDB modules
/// are read with their function bodies (instruction counts, constant-buffer
/// usage), or without them when the bodies do not read. `Err` is the note
/// saying why there is none.
pub(super) fn read(container: &Container<'_>) -> Result<ModuleMetadata, NoModule> {
    let mut why = String::from("no DXIL module");
    for (name, text) in [
        (PartName::STAT, "STAT"),
        (PartName::DXIL, "DXIL"),
        (PartName::ILDB, "ILDB"),
    ] {
        let Some(part) = container.find(name) else {
            continue;
        };
        if !crate::program::is_program_data(part.data) {
            continue;
        }
        let program = match Program::parse(&part) {
            Ok(p) => p,
            Err(e) => {
                why = format!("the {text} program does not decode: {e}");
                continue;
            }
        };
        let with_bodies = name != PartName::STAT;
        let budget_error = |e: &crate::bitcode::error::BitcodeError| match &e.kind {
            crate::bitcode::BitcodeErrorKind::OverBudget(o) => {
                Some(NoModule::OverBudget(over_budget(
                    &part,
                    program.bitcode_file_offset + e.bit_offset / 8,
                    crate::error::Budgeted::ModuleBitcode,
                    o.limit,
                )))
            }
            _ => None,
        };
        let (module, has_bodies) = match parse(program.bitcode, with_bodies) {
            Ok(m) => (m, with_bodies),
            Err(e) => {
                if let Some(stop) = budget_error(&e) {
                    return Err(stop);
                }
                match with_bodies.then(|| parse(program.bitcode, false)) {
                    Some(Ok(m)) => (m, false),
                    _ => {
                        why = format!("the {text} module does not read: {e}");
                        continue;
                    }
                }
            }
        };
        if module.named_metadata(b"dx.version").is_none() {
            why = format!("the {text} module has no dx.* metadata");
            continue;
        }
        match DxilMetadata::read(&module) {
            Ok(metadata) => {
                return Ok(ModuleMetadata {
                    module,
                    has_bodies,
                    metadata,
                    part: text,
                    input_len: program.bitcode.len(),
                })
            }
            Err(crate::dxil::metadata::MetadataError::OverBudget { limit, .. }) => {
                return Err(NoModule::OverBudget(over_budget(
                    &part,
                    program.bitcode_file_offset,
                    crate::error::Budgeted::ModuleMetadata,
                    limit,
                )))
            }
            Err(e) => why = format!("the {text} module's metadata does not read: {e}"),
        }
    }
    Err(NoModule::Note(why))
}

fn parse(
    bitcode: &[u8],
    function_bodies: bool,
) -> Result<Module, crate::bitcode::error::BitcodeError> {
    Module::parse_with(
        bitcode,
        ReadOptions {
            function_bodies,
            debug_info: false,
            ..ReadOptions::default()
        },
    )
}

/// The program module with its function bodies (DXIL, else ILDB), for the
/// instruction counts when the reflection module (STAT) has none; `Err`
/// says why there is none.
pub(super) fn read_bodies(container: &Container<'_>) -> Result<(Module, &'static str), String> {
    let mut why = String::from("no DXIL program part");
    for (name, text) in [(PartName::DXIL, "DXIL"), (PartName::ILDB, "ILDB")] {
        let Some(part) = container.find(name) else {
            continue;
        };
        if !crate::program::is_program_data(part.data) {
            continue;
        }
        match Program::parse(&part)
            .map_err(|e| e.to_string())
            .and_then(|p| parse(p.bitcode, true).map_err(|e| e.to_string()))
        {
            Ok(module) => return Ok((module, text)),
            Err(e) => why = format!("the {text} module's function bodies do not read: {e}"),
        }
    }
    Err(why)
}

/// The strings of the module's `llvm.ident`, the first being the creator.
pub(super) fn creator(module: &Module) -> Option<String> {
    let named = module.named_metadata(b"llvm.ident")?;
    named
        .operands
        .iter()
        .filter_map(|&node| module.metadata_node(node))
        .flat_map(|operands| operands.iter().flatten())
        .find_map(|&id| module.metadata_string(id))
        .map(|text| crate::fields::lossy(text).into_owned())
}

/// `ResourceToReturnType`.
fn return_type(resource: &Resource) -> ResourceReturnType {
    if matches!(
        resource.class,
        ResourceClass::CBuffer | ResourceClass::Sampler
    ) || resource.kind == ResourceKind::TBuffer
    {
        return ResourceReturnType::from_raw(0);
    }
    use CompType as C;
    match resource.element_type() {
        C::F64 => ResourceReturnType::Double,
        C::UNormF16 | C::UNormF32 | C::UNormF64 => ResourceReturnType::Unorm,
        C::SNormF16 | C::SNormF32 | C::SNormF64 => ResourceReturnType::Snorm,
        C::I16 | C::I32 | C::I64 => ResourceReturnType::Sint,
        C::U16 | C::U32 | C::U64 | C::PackedS8x32 | C::PackedU8x32 => ResourceReturnType::Uint,
        C::F16 | C::F32 => ResourceReturnType::Float,
        _ => ResourceReturnType::Mixed,
    }
}

/// The resource struct a resource's HLSL type points to, arrays stripped.
fn resource_struct(module: &Module, resource: &Resource) -> Option<TypeId> {
    let mut ty = match module.ty(resource.hlsl_type?)? {
        Type::Pointer { pointee, .. } => *pointee,
        _ => resource.hlsl_type?,
    };
    for _ in 0..64 {
        match module.ty(ty)? {
            Type::Array { element, .. } => ty = *element,
            _ => return Some(ty),
        }
    }
    None
}

use crate::dxil::model::TypeId;

/// The element count of a typed resource's return type (the first field
/// of its struct: `<4 x float>` → 4, a scalar → 1).
fn return_components(module: &Module, resource: &Resource) -> Option<u64> {
    let Type::Struct(s) = module.ty(resource_struct(module, resource)?)? else {
        return None;
    };
    let first = *s.body.as_ref()?.first()?;
    Some(match module.ty(first)? {
        Type::Vector { len, .. } => *len,
        _ => 1,
    })
}

/// `D3D12_SHADER_INPUT_BIND_DESC` of a `dx.resources` record.
fn bind(module: &Module, layout: &DataLayout, resource: &Resource) -> BindDesc {
    use ResourceKind as K;
    let class = resource.class;
    let uav = class == ResourceClass::Uav;
    let kind = resource.kind;
    let input_type = match class {
        ResourceClass::CBuffer => ShaderInputType::Cbuffer,
        ResourceClass::Sampler => ShaderInputType::Sampler,
        _ => match kind {
            K::RawBuffer if uav => ShaderInputType::UavRwByteAddress,
            K::RawBuffer => ShaderInputType::ByteAddress,
            K::StructuredBuffer if !uav => ShaderInputType::Structured,
            K::StructuredBuffer if resource.has_counter() => {
                ShaderInputType::UavRwStructuredWithCounter
            }
            K::StructuredBuffer => ShaderInputType::UavRwStructured,
            K::TBuffer => ShaderInputType::Tbuffer,
            K::RTAccelerationStructure => ShaderInputType::RtAccelerationStructure,
            K::FeedbackTexture2D | K::FeedbackTexture2DArray => ShaderInputType::UavFeedbackTexture,
            _ if uav => ShaderInputType::UavRwTyped,
            _ => ShaderInputType::Texture,
        },
    };
    let dimension = match kind {
        K::StructuredBuffer | K::TypedBuffer | K::RawBuffer => SrvDimension::Buffer,
        K::Texture1D => SrvDimension::Texture1D,
        K::Texture1DArray => SrvDimension::Texture1DArray,
        K::Texture2D | K::FeedbackTexture2D => SrvDimension::Texture2D,
        K::Texture2DArray | K::FeedbackTexture2DArray => SrvDimension::Texture2DArray,
        K::Texture2DMS => SrvDimension::Texture2DMS,
        K::Texture2DMSArray => SrvDimension::Texture2DMSArray,
        K::Texture3D => SrvDimension::Texture3D,
        K::TextureCube => SrvDimension::TextureCube,
        K::TextureCubeArray => SrvDimension::TextureCubeArray,
        _ => SrvDimension::Unknown0,
    };
    let num_samples = match class {
        ResourceClass::CBuffer | ResourceClass::Sampler => 0,
        _ => match resource.sample_count() {
            0 if kind == K::StructuredBuffer => resource_struct(module, resource)
                .and_then(|ty| layout.alloc_size(module, ty))
                .map_or(0, |size| u32::try_from(size).unwrap_or(u32::MAX)),
            0 if matches!(
                kind,
                K::RawBuffer | K::TBuffer | K::Texture2DMS | K::Texture2DMSArray
            ) =>
            {
                0
            }
            0 => u32::MAX,
            n => n,
        },
    };
    let texture_like = matches!(
        kind,
        K::Texture1D
            | K::Texture1DArray
            | K::Texture2D
            | K::Texture2DArray
            | K::Texture2DMS
            | K::Texture2DMSArray
            | K::Texture3D
            | K::TextureCube
            | K::TextureCubeArray
            | K::FeedbackTexture2D
            | K::FeedbackTexture2DArray
            | K::TypedBuffer
    );
    let flags = match (&resource.detail, class) {
        (_, ResourceClass::CBuffer) => InputFlags::USER_PACKED,
        (ResourceDetail::Sampler { sampler_kind }, _)
            if *sampler_kind == SamplerKind::Comparison =>
        {
            InputFlags::COMPARISON_SAMPLER
        }
        (ResourceDetail::Sampler { .. }, _) => 0,
        _ if texture_like => match return_components(module, resource) {
            Some(4) => InputFlags::TEXTURE_COMPONENT0 | InputFlags::TEXTURE_COMPONENT1,
            Some(3) => InputFlags::TEXTURE_COMPONENT1,
            Some(2) => InputFlags::TEXTURE_COMPONENT0,
            _ => 0,
        },
        _ if kind == K::TBuffer => InputFlags::USER_PACKED,
        _ => 0,
    };
    // dxc: an unbounded range says UINT_MAX for cbuffers, 0 for the others.
    let bind_count = if resource.range_size == u32::MAX && class != ResourceClass::CBuffer {
        0
    } else {
        resource.range_size
    };
    BindDesc {
        name: Some(crate::fields::lossy(&resource.name).into_owned()),
        input_type,
        bind_point: resource.lower_bound,
        bind_count,
        flags: Some(InputFlags(flags)),
        return_type: Some(return_type(resource)),
        dimension: Some(dimension),
        num_samples: Some(num_samples),
        space: resource.space,
        id: resource.id,
    }
}

/// The bound resources of the module: constant buffers, samplers, SRVs,
/// UAVs, each in metadata order (as dxc's reflection lists them).
pub(super) fn bound_resources(m: &ModuleMetadata) -> Vec<BindDesc> {
    let layout = DataLayout::of(&m.module);
    let r = m.metadata.module_resources();
    r.cbuffers
        .iter()
        .chain(&r.samplers)
        .chain(&r.srvs)
        .chain(&r.uavs)
        .map(|res| bind(&m.module, &layout, res))
        .collect()
}

/// The entry point's properties dxc's `D3D12_SHADER_DESC` reads that PSV0
/// does not record: the GS instance count, the HS partitioning, and early
/// depth-stencil into the requires flags.
pub(super) fn entry_properties(
    entry: &EntryPoint,
    metadata: &DxilMetadata,
    shader: &mut ShaderDesc,
) {
    let p = &entry.properties;
    if let Some(gs) = &p.gs {
        shader.gs_instance_count = Some(gs.instance_count);
        shader.gs_max_output_vertex_count = Some(gs.max_vertex_count);
        shader.input_primitive = Some(Primitive::from_raw(gs.input_primitive));
        shader.gs_output_topology = Some(PrimitiveTopology::from_raw(gs.output_topology));
    }
    if let Some(hs) = &p.hs {
        shader.hs_partitioning = Some(TessellatorPartitioning::from_raw(hs.partitioning));
        shader.hs_output_primitive =
            Some(TessellatorOutputPrimitive::from_raw(hs.output_primitive));
        shader.tessellator_domain = Some(TessellatorDomain::from_raw(hs.domain));
        shader.control_points = Some(hs.output_control_points);
    }
    if let Some(ds) = &p.ds {
        shader.tessellator_domain = Some(TessellatorDomain::from_raw(ds.domain));
        shader.control_points = Some(ds.input_control_points);
    }
    if let Some(threads) = p
        .num_threads
        .or(p.ms.as_ref().map(|m| m.num_threads))
        .or(p.amplification.as_ref().map(|a| a.num_threads))
    {
        shader.thread_group_size = Some(threads);
    }
    if let Some(flags) = &mut shader.requires_flags {
        if metadata.shader_flags() & SHADER_FLAG_FORCE_EARLY_DEPTH_STENCIL != 0 {
            flags.0 |= RequiresFlags::EARLY_DEPTH_STENCIL;
        }
    }
}
