//! The listing's spellings of the SM4/SM5 token fields — one table per
//! field, read by the printer ([`crate::listing::dxbc::sm4::write_instruction`]) and by
//! dxcopy-edit's assembler, which searches the same rows to go from a name
//! back to its number (docs/format/sm4-listing.md).
//!
//! Numbers follow the tokenized program format header
//! (`d3d11TokenizedProgramFormat.hpp`): `D3D10_SB_RESOURCE_DIMENSION`,
//! `D3D10_SB_INTERPOLATION_MODE`, `D3D10_SB_NAME`, `D3D10_SB_PRIMITIVE`,
//! `D3D10_SB_PRIMITIVE_TOPOLOGY`, `D3D10_SB_RESOURCE_RETURN_TYPE`,
//! `D3D11_SB_TESSELLATOR_*`, `D3D11_SB_OPERAND_MIN_PRECISION` and the
//! operand types.

use super::operand_type as ot;

/// Resource dimensions (`D3D10_SB_RESOURCE_DIMENSION`), index = number.
pub const RESOURCE_DIMENSIONS: [&str; 13] = [
    "unknown",
    "buffer",
    "texture1d",
    "texture2d",
    "texture2dms",
    "texture3d",
    "texturecube",
    "texture1darray",
    "texture2darray",
    "texture2dmsarray",
    "texturecubearray",
    "raw_buffer",
    "structured_buffer",
];

/// Resource return types (`D3D10_SB_RESOURCE_RETURN_TYPE`), index = number.
pub const RETURN_TYPES: [&str; 10] = [
    "unknown",
    "unorm",
    "snorm",
    "sint",
    "uint",
    "float",
    "mixed",
    "double",
    "continued",
    "unused",
];

/// Pixel-shader input interpolation modes, index = number (0 prints nothing).
pub const INTERPOLATION_MODES: [&str; 8] = [
    "",
    "constant",
    "linear",
    "linear centroid",
    "linear noperspective",
    "linear noperspective centroid",
    "linear sample",
    "linear noperspective sample",
];

/// System values of `dcl_*_siv` / `_sgv` (`D3D10_SB_NAME`), index = number.
pub const SYSTEM_VALUES: [&str; 23] = [
    "undefined",
    "position",
    "clip_distance",
    "cull_distance",
    "rendertarget_array_index",
    "viewport_array_index",
    "vertex_id",
    "primitive_id",
    "instance_id",
    "is_front_face",
    "sampleIndex",
    "finalQuadUeq0EdgeTessFactor",
    "finalQuadVeq0EdgeTessFactor",
    "finalQuadUeq1EdgeTessFactor",
    "finalQuadVeq1EdgeTessFactor",
    "finalQuadUInsideTessFactor",
    "finalQuadVInsideTessFactor",
    "finalTriUeq0EdgeTessFactor",
    "finalTriVeq0EdgeTessFactor",
    "finalTriWeq0EdgeTessFactor",
    "finalTriInsideTessFactor",
    "finalLineDetailTessFactor",
    "finalLineDensityTessFactor",
];

/// Output topologies of `dcl_outputtopology` (`(number, name)`).
pub const OUTPUT_TOPOLOGIES: [(u8, &str); 9] = [
    (1, "pointlist"),
    (2, "linelist"),
    (3, "linestrip"),
    (4, "trianglelist"),
    (5, "trianglestrip"),
    (10, "linelist_adj"),
    (11, "linestrip_adj"),
    (12, "trianglelist_adj"),
    (13, "trianglestrip_adj"),
];

/// Input primitives of `dcl_inputprimitive` besides `patchN` (8 + N - 1).
pub const INPUT_PRIMITIVES: [(u8, &str); 5] = [
    (1, "point"),
    (2, "line"),
    (3, "triangle"),
    (6, "lineadj"),
    (7, "triangleadj"),
];

/// `dcl_tessellator_domain` values, index = number.
pub const TESS_DOMAINS: [&str; 4] = [
    "domain_undefined",
    "domain_isoline",
    "domain_tri",
    "domain_quad",
];

/// `dcl_tessellator_partitioning` values, index = number.
pub const TESS_PARTITIONINGS: [&str; 5] = [
    "partitioning_undefined",
    "partitioning_integer",
    "partitioning_pow2",
    "partitioning_fractional_odd",
    "partitioning_fractional_even",
];

/// `dcl_tessellator_output_primitive` values, index = number.
pub const TESS_OUTPUT_PRIMITIVES: [&str; 5] = [
    "output_undefined",
    "output_point",
    "output_line",
    "output_triangle_cw",
    "output_triangle_ccw",
];

/// `dcl_sampler` modes, index = number.
pub const SAMPLER_MODES: [&str; 3] = ["mode_default", "mode_comparison", "mode_mono"];

/// `dcl_globalFlags` names, index = bit (of the flags shifted down by 11).
pub const GLOBAL_FLAGS: [&str; 9] = [
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

/// UAV declaration flags: `(bit of the opcode token, suffix)`.
pub const UAV_FLAGS: [(u32, &str); 3] = [(1 << 16, "_glc"), (1 << 17, "_rov"), (1 << 23, "_opc")];

/// `sync` flags: `(bit of the controls shifted down by 11, suffix)`, in
/// listing order.
pub const SYNC_FLAGS: [(u32, &str); 4] = [(8, "_uglobal"), (4, "_ugroup"), (2, "_g"), (1, "_t")];

/// Minimum precisions (`D3D11_SB_OPERAND_MIN_PRECISION`): `(number, name)`.
pub const MIN_PRECISIONS: [(u8, &str); 5] = [
    (0, "def32"),
    (1, "min16f"),
    (2, "min2_8f"),
    (4, "min16i"),
    (5, "min16u"),
];

/// How a register's indices are written after its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegisterForm {
    /// No index (`vPrim`, `oDepth`).
    Fixed,
    /// The first index joined to the name, further ones bracketed (`r0`, `cb0[4]`).
    Numbered,
    /// Every index bracketed (`icb[1]`, `vicp[2][0]`).
    Bracketed,
    /// Numbered with one index, bracketed with two or more (`v0`, `v[3][1]`).
    NumberedOrBracketed,
    /// Resources: lower-case and numbered (`t0`); SM5.1 and the constant
    /// buffer declaration use the upper-case name (`T0[1]`, `CB0[4]`).
    Resource(&'static str),
}

/// Register names: `(operand type, name, form)`.
pub const REGISTERS: [(u8, &str, RegisterForm); 41] = {
    use RegisterForm::*;
    [
        (ot::TEMP, "r", Numbered),
        (ot::INPUT, "v", NumberedOrBracketed),
        (ot::OUTPUT, "o", NumberedOrBracketed),
        (ot::INDEXABLE_TEMP, "x", Numbered),
        (ot::SAMPLER, "s", Resource("S")),
        (ot::RESOURCE, "t", Resource("T")),
        (ot::CONSTANT_BUFFER, "cb", Resource("CB")),
        (ot::UNORDERED_ACCESS_VIEW, "u", Resource("U")),
        (ot::IMMEDIATE_CONSTANT_BUFFER, "icb", Bracketed),
        (ot::LABEL, "l", Numbered),
        (ot::INPUT_PRIMITIVEID, "vPrim", Fixed),
        (ot::OUTPUT_DEPTH, "oDepth", Fixed),
        (ot::NULL, "null", Fixed),
        (ot::RASTERIZER, "rasterizer", Fixed),
        (ot::OUTPUT_COVERAGE_MASK, "oMask", Fixed),
        (ot::STREAM, "m", Numbered),
        (ot::FUNCTION_BODY, "fb", Numbered),
        (ot::FUNCTION_TABLE, "ft", Numbered),
        (ot::INTERFACE, "fp", Numbered),
        (ot::FUNCTION_INPUT, "fi", Numbered),
        (ot::FUNCTION_OUTPUT, "fo", Numbered),
        (ot::OUTPUT_CONTROL_POINT_ID, "vOutputControlPointID", Fixed),
        (ot::INPUT_FORK_INSTANCE_ID, "vForkInstanceID", Fixed),
        (ot::INPUT_JOIN_INSTANCE_ID, "vJoinInstanceID", Fixed),
        (ot::INPUT_CONTROL_POINT, "vicp", Bracketed),
        (ot::OUTPUT_CONTROL_POINT, "vocp", Bracketed),
        (ot::INPUT_PATCH_CONSTANT, "vpc", Numbered),
        (ot::INPUT_DOMAIN_POINT, "vDomain", Fixed),
        (ot::THIS_POINTER, "this", Bracketed),
        (ot::THREAD_GROUP_SHARED_MEMORY, "g", Numbered),
        (ot::INPUT_THREAD_ID, "vThreadID", Fixed),
        (ot::INPUT_THREAD_GROUP_ID, "vThreadGroupID", Fixed),
        (ot::INPUT_THREAD_ID_IN_GROUP, "vThreadIDInGroup", Fixed),
        (ot::INPUT_COVERAGE_MASK, "vCoverage", Fixed),
        (
            ot::INPUT_THREAD_ID_IN_GROUP_FLATTENED,
            "vThreadIDInGroupFlattened",
            Fixed,
        ),
        (ot::INPUT_GS_INSTANCE_ID, "vGSInstanceID", Fixed),
        (ot::OUTPUT_DEPTH_GREATER_EQUAL, "oDepthGE", Fixed),
        (ot::OUTPUT_DEPTH_LESS_EQUAL, "oDepthLE", Fixed),
        (ot::CYCLE_COUNTER, "vCycleCounter", Fixed),
        (ot::OUTPUT_STENCIL_REF, "oStencilRef", Fixed),
        (ot::INNER_COVERAGE, "vInnerCoverage", Fixed),
    ]
};

/// The table row of operand type `kind`, if it has a name.
pub fn register(kind: u8) -> Option<(&'static str, RegisterForm)> {
    REGISTERS
        .iter()
        .find(|(k, _, _)| *k == kind)
        .map(|(_, name, form)| (*name, *form))
}

/// The name of entry `index` of `table`, or `fallback` past its end.
pub(crate) fn name_or(
    table: &[&'static str],
    index: usize,
    fallback: &'static str,
) -> &'static str {
    table.get(index).copied().unwrap_or(fallback)
}
