//! SFI0 from the module: the shader flags of the entry record's property
//! list (tag 0, dxc's `ShaderFlags` bit field as a raw `u64`) mapped to the
//! feature bits dxc's `ShaderFlags::GetFeatureInfo` writes
//! (docs/format/derived-parts.md §SFI0).
//!
//! dxc computes the flags from the module's usage when it compiles and
//! stores them in the metadata; the validator recomputes them and refuses a
//! module whose metadata disagrees ("Flags must match usage"), so the
//! metadata's flags are the usage flags of a valid module. A library's
//! record carries the flags collected over all its functions.

use super::usage::{function_flags, ModuleFacts};
use super::{DeriveError, Facts};
use crate::sfi0::FeatureFlags;
use crate::ShaderKind;

/// Bits of the raw shader flags (in dxc's bit-field order).
mod raw {
    pub const ENABLE_DOUBLE_PRECISION: u32 = 2;
    pub const LOW_PRECISION_PRESENT: u32 = 5;
    pub const ENABLE_DOUBLE_EXTENSIONS: u32 = 6;
    pub const ENABLE_MSAD: u32 = 7;
    pub const VIEWPORT_AND_RT_ARRAY_INDEX: u32 = 9;
    pub const INNER_COVERAGE: u32 = 10;
    pub const STENCIL_REF: u32 = 11;
    pub const TILED_RESOURCES: u32 = 12;
    pub const UAV_LOAD_ADDITIONAL_FORMATS: u32 = 13;
    pub const LEVEL9_COMPARISON_FILTERING: u32 = 14;
    pub const UAVS_64: u32 = 15;
    pub const UAVS_AT_EVERY_STAGE: u32 = 16;
    pub const CS_RAW_AND_STRUCTURED_VIA_SHADER_4X: u32 = 17;
    pub const ROVS: u32 = 18;
    pub const WAVE_OPS: u32 = 19;
    pub const INT64_OPS: u32 = 20;
    pub const VIEW_ID: u32 = 21;
    pub const BARYCENTRICS: u32 = 22;
    pub const USE_NATIVE_LOW_PRECISION: u32 = 23;
    pub const SHADING_RATE: u32 = 24;
    pub const RAYTRACING_TIER_1_1: u32 = 25;
    pub const SAMPLER_FEEDBACK: u32 = 26;
    pub const ATOMIC_INT64_ON_TYPED_RESOURCE: u32 = 27;
    pub const ATOMIC_INT64_ON_GROUP_SHARED: u32 = 28;
    pub const DERIVATIVES_IN_MESH_AND_AMP: u32 = 29;
    pub const RESOURCE_DESCRIPTOR_HEAP_INDEXING: u32 = 30;
    pub const SAMPLER_DESCRIPTOR_HEAP_INDEXING: u32 = 31;
    pub const ATOMIC_INT64_ON_HEAP_RESOURCE: u32 = 32;
    pub const ADVANCED_TEXTURE_OPS: u32 = 34;
    pub const WRITEABLE_MSAA_TEXTURES: u32 = 35;
    pub const SAMPLE_CMP_GRADIENT_OR_BIAS: u32 = 37;
    pub const EXTENDED_COMMAND_INFO: u32 = 38;
    pub const USES_DERIVATIVES: u32 = 39;
    pub const REQUIRES_GROUP: u32 = 40;
}

/// Feature bit dxc sets for each raw flag that maps one to one.
const ONE_TO_ONE: [(u32, u64); 30] = [
    (raw::ENABLE_DOUBLE_PRECISION, 0x1),
    (raw::ENABLE_DOUBLE_EXTENSIONS, 0x20),
    (raw::WAVE_OPS, 0x4000),
    (raw::INT64_OPS, 0x8000),
    (raw::ROVS, 0x1000),
    (raw::VIEWPORT_AND_RT_ARRAY_INDEX, 0x2000),
    (raw::INNER_COVERAGE, 0x400),
    (raw::STENCIL_REF, 0x200),
    (raw::TILED_RESOURCES, 0x100),
    (raw::ENABLE_MSAD, 0x40),
    (raw::CS_RAW_AND_STRUCTURED_VIA_SHADER_4X, 0x2),
    (raw::UAVS_AT_EVERY_STAGE, 0x4),
    (raw::UAVS_64, 0x8),
    (raw::LEVEL9_COMPARISON_FILTERING, 0x80),
    (raw::UAV_LOAD_ADDITIONAL_FORMATS, 0x800),
    (raw::VIEW_ID, 0x1_0000),
    (raw::BARYCENTRICS, 0x2_0000),
    (raw::SHADING_RATE, 0x8_0000),
    (raw::RAYTRACING_TIER_1_1, 0x10_0000),
    (raw::SAMPLER_FEEDBACK, 0x20_0000),
    (raw::ATOMIC_INT64_ON_TYPED_RESOURCE, 0x40_0000),
    (raw::ATOMIC_INT64_ON_GROUP_SHARED, 0x80_0000),
    (raw::DERIVATIVES_IN_MESH_AND_AMP, 0x100_0000),
    (raw::RESOURCE_DESCRIPTOR_HEAP_INDEXING, 0x200_0000),
    (raw::SAMPLER_DESCRIPTOR_HEAP_INDEXING, 0x400_0000),
    (raw::ATOMIC_INT64_ON_HEAP_RESOURCE, 0x1000_0000),
    (raw::ADVANCED_TEXTURE_OPS, 0x2000_0000),
    (raw::WRITEABLE_MSAA_TEXTURES, 0x4000_0000),
    (raw::SAMPLE_CMP_GRADIENT_OR_BIAS, 0x8000_0000),
    (raw::EXTENDED_COMMAND_INFO, 0x1_0000_0000),
];

/// The SFI0 feature bits of raw shader flags `flags` (dxc's
/// `ShaderFlags::GetFeatureInfo`).
pub fn feature_bits(flags: u64) -> u64 {
    let has = |bit: u32| flags & (1u64 << bit) != 0;
    let mut out = 0;
    for (bit, feature) in ONE_TO_ONE {
        if has(bit) {
            out |= feature;
        }
    }
    if has(raw::LOW_PRECISION_PRESENT) {
        out |= if has(raw::USE_NATIVE_LOW_PRECISION) {
            FeatureFlags::NATIVE_LOW_PRECISION
        } else {
            FeatureFlags::MINIMUM_PRECISION
        };
    }
    // The per-function optional features (bits 40 and 41 of SFI0).
    if has(raw::USES_DERIVATIVES) {
        out |= 1 << 40;
    }
    if has(raw::REQUIRES_GROUP) {
        out |= 1 << 41;
    }
    out
}

/// The module's SFI0 value.
pub(crate) fn feature_info(facts: &Facts<'_>) -> u64 {
    feature_bits(facts.metadata.shader_flags())
}

/// The SFI0 bits dxc's validator compares (`GetShaderFlagsRawForCollection`
/// mapped to feature bits): every bit the collection can set; not ROVs,
/// level-9 comparison filtering or the reserved bit.
pub const USAGE_CHECKED: u64 = !(0x80 | 0x1000 | 0x800_0000) & ((1 << 33) - 1) | (0b11 << 40);

/// The feature bits the module's usage needs, as dxc's
/// `CollectShaderFlagsForModule` collects them: each defined function's
/// instructions (and the entry's signatures), combined; the local
/// per-function bits cleared; then the UAV counts.
pub(crate) fn usage_bits(facts: &Facts<'_>) -> Result<u64, DeriveError> {
    use super::usage::feature::*;
    let module = facts.module;
    let validator = facts.validator;
    let usage = ModuleFacts::new(facts.metadata, validator);
    let mut combined = 0;
    for f in &module.functions {
        let Some(body) = &f.body else { continue };
        let entry = facts
            .metadata
            .entry_points
            .iter()
            .rev()
            .find(|e| e.function == Some(f.common.value));
        let kind = entry.map(|e| match e.properties.shader_kind {
            Some(kind) => kind,
            None if facts.kind != ShaderKind::Library => facts.kind,
            None => ShaderKind::Library,
        });
        let mut flags = function_flags(module, body, &usage, entry.zip(kind))?;
        if validator >= (1, 8)
            && flags & USES_DERIVATIVES != 0
            && matches!(kind, Some(ShaderKind::Mesh | ShaderKind::Amplification))
        {
            flags |= DERIVATIVES_IN_MESH_AND_AMP;
        }
        combined |= flags;
    }
    if combined & USES_DERIVATIVES != 0
        && matches!(facts.kind, ShaderKind::Mesh | ShaderKind::Amplification)
    {
        combined |= DERIVATIVES_IN_MESH_AND_AMP;
    }
    combined &= !(USES_DERIVATIVES | REQUIRES_GROUP);
    let uavs = &facts.metadata.module_resources().uavs;
    let count: u32 = uavs.iter().map(|u| u.range_size.min(9)).sum();
    let many = if validator < (1, 6) {
        uavs.len() > 8
    } else {
        count > 8
    };
    if many {
        combined |= 0x8;
    }
    use ShaderKind::*;
    let every_stage = if validator < (1, 8) {
        !matches!(facts.kind, Compute | Pixel)
    } else {
        matches!(facts.kind, Vertex | Hull | Domain | Geometry)
    };
    if count > 0 && every_stage {
        combined |= 0x4;
    }
    // Before 1.8 dxc set the DXR 1.1 flag from subobjects, which are gone
    // from the module by then; the validator lets it stand.
    let recorded = feature_bits(facts.metadata.shader_flags());
    if ((1, 5)..(1, 8)).contains(&validator) && recorded & RAYTRACING_TIER_1_1 != 0 {
        combined |= RAYTRACING_TIER_1_1;
    }
    Ok(combined)
}

/// A module's feature flags as recorded and as its usage needs them, in
/// the SFI0 bits dxc's validator compares ([`USAGE_CHECKED`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureUsage {
    /// From the entry record's shader flags (what SFI0 holds).
    pub recorded: u64,
    /// From the instructions, signatures and resources.
    pub needed: u64,
}

/// The recorded and needed feature bits of `module`; dxc's validator
/// refuses a module where they differ ("Flags must match usage").
///
/// Errors: the metadata cannot be read, or the usage needs what is not
/// derived here ([`DeriveError::RdatUnsupported`]: an operation whose
/// opcode is not a constant, experimental operations).
pub fn feature_usage(
    module: &crate::dxil::model::Module,
    metadata: &crate::dxil::metadata::DxilMetadata,
) -> Result<FeatureUsage, DeriveError> {
    let facts = Facts::new(module, metadata)?;
    usage_of(&facts)
}

pub(crate) fn usage_of(facts: &Facts<'_>) -> Result<FeatureUsage, DeriveError> {
    Ok(FeatureUsage {
        recorded: feature_bits(facts.metadata.shader_flags()) & USAGE_CHECKED,
        needed: usage_bits(facts)? & USAGE_CHECKED,
    })
}
