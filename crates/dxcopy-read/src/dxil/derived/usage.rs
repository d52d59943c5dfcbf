//! The feature flags one function's instructions need, collected as dxc's
//! `ShaderFlags::CollectShaderFlags` collects them (validator-version rules
//! included), given as SFI0 feature bits (`ShaderFlags::GetFeatureInfo`:
//! the low 33 bits, and bits 40/41 for the per-function "uses derivatives"
//! and "requires group" flags).
//!
//! What needs the resource a handle was made from to decide (typed UAV
//! loads with more than one component, 64-bit atomics, writable MSAA
//! textures from validator 1.8) is [`DeriveError::RdatUnsupported`] where
//! the module could set it, never a guess.

use super::DeriveError;
use crate::dxil::metadata::{DxilMetadata, EntryPoint};
use crate::dxil::model::{
    BinOp, CastOp, ConstantKind, FunctionBody, InstructionKind, Module, Operand, Type, TypeId,
};
use crate::psv0::{ResourceKind, SemanticKind};
use crate::ShaderKind;

/// The SFI0 feature bits (dxc's `ShaderFeatureInfo_*`).
pub(crate) mod feature {
    pub const DOUBLES: u64 = 0x1;
    pub const MINIMUM_PRECISION: u64 = 0x10;
    pub const DOUBLE_EXTENSIONS: u64 = 0x20;
    pub const MSAD: u64 = 0x40;
    pub const TILED_RESOURCES: u64 = 0x100;
    pub const STENCIL_REF: u64 = 0x200;
    pub const INNER_COVERAGE: u64 = 0x400;
    pub const VIEWPORT_AND_RT_ARRAY_INDEX: u64 = 0x2000;
    pub const WAVE_OPS: u64 = 0x4000;
    pub const INT64_OPS: u64 = 0x8000;
    pub const VIEW_ID: u64 = 0x1_0000;
    pub const BARYCENTRICS: u64 = 0x2_0000;
    pub const NATIVE_LOW_PRECISION: u64 = 0x4_0000;
    pub const SHADING_RATE: u64 = 0x8_0000;
    pub const RAYTRACING_TIER_1_1: u64 = 0x10_0000;
    pub const SAMPLER_FEEDBACK: u64 = 0x20_0000;
    pub const ATOMIC_INT64_ON_TYPED_RESOURCE: u64 = 0x40_0000;
    pub const ATOMIC_INT64_ON_GROUP_SHARED: u64 = 0x80_0000;
    pub const DERIVATIVES_IN_MESH_AND_AMP: u64 = 0x100_0000;
    pub const RESOURCE_DESCRIPTOR_HEAP_INDEXING: u64 = 0x200_0000;
    pub const SAMPLER_DESCRIPTOR_HEAP_INDEXING: u64 = 0x400_0000;
    pub const ATOMIC_INT64_ON_HEAP_RESOURCE: u64 = 0x1000_0000;
    pub const ADVANCED_TEXTURE_OPS: u64 = 0x2000_0000;
    pub const WRITEABLE_MSAA_TEXTURES: u64 = 0x4000_0000;
    pub const SAMPLE_CMP_GRADIENT_OR_BIAS: u64 = 0x8000_0000;
    pub const EXTENDED_COMMAND_INFO: u64 = 0x1_0000_0000;
    pub const USES_DERIVATIVES: u64 = 1 << 40;
    pub const REQUIRES_GROUP: u64 = 1 << 41;
}

fn unsupported(why: &'static str) -> DeriveError {
    DeriveError::RdatUnsupported(why)
}

/// What the flag collection reads from the module as a whole.
pub(crate) struct ModuleFacts {
    pub validator: (u32, u32),
    /// Native 16-bit types rather than minimum precision.
    pub native_low_precision: bool,
    /// A UAV of a typed kind (textures, typed buffers) exists.
    pub typed_uav: bool,
    /// A writable multisampled texture exists.
    pub msaa_uav: bool,
    /// The module's shader model is mesh or amplification.
    pub mesh_or_amplification: bool,
}

impl ModuleFacts {
    pub fn new(metadata: &DxilMetadata, validator: (u32, u32)) -> ModuleFacts {
        let uavs = &metadata.module_resources().uavs;
        let typed = |k: ResourceKind| {
            !matches!(
                k,
                ResourceKind::RawBuffer | ResourceKind::StructuredBuffer | ResourceKind::Invalid
            )
        };
        ModuleFacts {
            validator,
            native_low_precision: !metadata.uses_min_precision(),
            typed_uav: uavs.iter().any(|u| typed(u.kind)),
            msaa_uav: uavs.iter().any(|u| {
                matches!(
                    u.kind,
                    ResourceKind::Texture2DMS | ResourceKind::Texture2DMSArray
                )
            }),
            mesh_or_amplification: matches!(
                metadata.shader_kind(),
                Some(ShaderKind::Mesh | ShaderKind::Amplification)
            ),
        }
    }
}

/// The opcode of a DXIL operation call (`None` for any other instruction).
pub(crate) fn dxil_opcode(
    module: &Module,
    body: &FunctionBody,
    kind: &InstructionKind,
) -> Option<u32> {
    let InstructionKind::Call {
        callee: Operand::Value(callee),
        args,
        ..
    } = kind
    else {
        return None;
    };
    if !module.global_name(*callee)?.starts_with(b"dx.op.") {
        return None;
    }
    const_int(module, body, args, 0).and_then(|v| u32::try_from(v).ok())
}

/// Call argument `index` as an integer constant.
pub(crate) fn const_int(
    module: &Module,
    body: &FunctionBody,
    args: &[Operand],
    index: usize,
) -> Option<u64> {
    let Some(Operand::Value(v)) = args.get(index) else {
        return None;
    };
    match module.constant(*v).or(body.constant(*v))?.kind {
        ConstantKind::Integer(v) => Some(v as u64),
        ConstantKind::Null => Some(0),
        _ => None,
    }
}

/// Whether call argument `index` is a constant (undef included).
fn is_constant(module: &Module, body: &FunctionBody, args: &[Operand], index: usize) -> bool {
    match args.get(index) {
        Some(Operand::Value(v)) => module.constant(*v).or(body.constant(*v)).is_some(),
        _ => false,
    }
}

/// dxc's `hasSampleClamp`: the last argument is a non-zero constant or not
/// a constant at all (undef is no clamp).
fn has_clamp(module: &Module, body: &FunctionBody, args: &[Operand]) -> bool {
    let Some(Operand::Value(v)) = args.last() else {
        return false;
    };
    match module.constant(*v).or(body.constant(*v)) {
        Some(c) => match c.kind {
            ConstantKind::Float(bits) => bits & !(1 << 63) != 0 && bits != 0x8000_0000,
            ConstantKind::Undef => false,
            ConstantKind::Null => false,
            _ => true,
        },
        None => true,
    }
}

/// Barrier memory type flags: group shared memory; node input and output.
const MEMORY_GROUP: u64 = 0x2;
const MEMORY_NODE: u64 = 0xc;
const MEMORY_ALL: u64 = 0xf;
/// Barrier semantic flags: group sync and scope; reorder scope.
const SEMANTIC_GROUP: u64 = 0x3;
const SEMANTIC_REORDER: u64 = 0x8;

/// The barrier facts dxc's `OP::BarrierRequires*` and
/// `TranslateToBarrierMode` compute for one barrier call.
#[derive(Default)]
pub(crate) struct Barrier {
    pub group: bool,
    pub node: bool,
    pub reorder: bool,
    /// A BarrierByMemoryType that the legacy Barrier cannot express.
    pub untranslatable: bool,
}

pub(crate) fn barrier(module: &Module, body: &FunctionBody, op: u32, args: &[Operand]) -> Barrier {
    let mut b = Barrier::default();
    let memory = const_int(module, body, args, 1);
    let semantic = const_int(module, body, args, 2);
    match op {
        80 => b.group = memory.is_some_and(|mode| mode != 2),
        244..=246 => {
            if op == 244 {
                if let Some(m) = memory {
                    let without = |mask: u64| if m == MEMORY_ALL { m & !mask } else { m };
                    b.group = without(MEMORY_GROUP) & MEMORY_GROUP != 0;
                    b.node = without(MEMORY_NODE) & MEMORY_NODE != 0;
                }
                let m = memory.unwrap_or(0);
                let m = if m == MEMORY_ALL { m & 0x3 } else { m };
                let s = semantic.unwrap_or(0);
                let mut mode = 0;
                if m & 0x2 != 0 {
                    mode |= 8;
                }
                if m & 0x1 != 0 && s & 0x6 != 0 {
                    mode |= if s & 0x4 != 0 { 2 } else { 4 };
                }
                if s & 0x1 != 0 {
                    mode |= 1;
                }
                b.untranslatable = s & !0x7 != 0 || m & !0x3 != 0 || mode == 0;
            }
            if op == 246 {
                b.node = true;
            }
            b.group |= semantic.is_some_and(|s| s & SEMANTIC_GROUP != 0);
            b.reorder =
                matches!(op, 244 | 245) && semantic.is_some_and(|s| s & SEMANTIC_REORDER != 0);
        }
        _ => {}
    }
    b
}

/// The feature bits of one function's own instructions, and of its
/// signatures when it is the entry `entry` (dxc's `CollectShaderFlags`).
pub(crate) fn function_flags(
    module: &Module,
    body: &FunctionBody,
    facts: &ModuleFacts,
    entry: Option<&EntryPoint>,
) -> Result<u64, DeriveError> {
    use feature::*;
    let validator = facts.validator;
    let is = |ty: Option<TypeId>, want: &dyn Fn(&Type) -> bool| {
        ty.and_then(|t| module.ty(t)).is_some_and(want)
    };
    let mut flags = 0u64;
    let mut has16 = false;
    let mut lod_clamp = false;
    let mut derivatives = false;
    let mut requires_group = false;
    let mut check_access = false;
    let mut sample_cmp_gradient_or_bias = false;
    let mut sampler_feedback = false;
    let mut barycentrics = false;
    for block in &body.blocks {
        for instruction in &block.instructions {
            let kind = &instruction.kind;
            let op = dxil_opcode(module, body, kind);
            if matches!(kind, InstructionKind::Call { .. }) && op.is_none() {
                // Calls of functions other than DXIL operations are skipped
                // (an operation whose opcode is not a constant too).
                let name = match kind {
                    InstructionKind::Call {
                        callee: Operand::Value(c),
                        ..
                    } => module.global_name(*c).unwrap_or_default(),
                    _ => b"",
                };
                if name.starts_with(b"dx.op.") {
                    return Err(unsupported(
                        "a DXIL operation call without a constant opcode",
                    ));
                }
                continue;
            }
            let mut types = vec![instruction.ty];
            let group_pointer = |t: &Type| {
                matches!(
                    t,
                    Type::Pointer {
                        address_space: 3,
                        ..
                    }
                )
            };
            requires_group |= is(instruction.ty, &group_pointer);
            if matches!(
                kind,
                InstructionKind::ExtractElement { .. } | InstructionKind::InsertElement { .. }
            ) {
                continue;
            }
            for operand in kind.operands() {
                if let Operand::Value(id) = operand {
                    let ty = module.value_type_in(Some(body), id);
                    requires_group |= is(ty, &group_pointer);
                    types.push(ty);
                }
            }
            let any = |want: &dyn Fn(&Type) -> bool| types.iter().any(|t| is(*t, want));
            let double = any(&|t| matches!(t, Type::Double));
            let int64 = any(&|t| matches!(t, Type::Integer { bits: 64 }));
            has16 |= any(&|t| matches!(t, Type::Half | Type::Integer { bits: 16 }));
            if double {
                flags |= DOUBLES;
                let extension = match kind {
                    InstructionKind::BinOp { op, .. } => *op == BinOp::FDiv,
                    InstructionKind::Cast { op, .. } => {
                        matches!(
                            op,
                            CastOp::UiToFp | CastOp::SiToFp | CastOp::FpToUi | CastOp::FpToSi
                        )
                    }
                    _ => false,
                };
                if extension {
                    flags |= DOUBLE_EXTENSIONS;
                }
            }
            if int64 {
                flags |= INT64_OPS;
                if matches!(
                    kind,
                    InstructionKind::CmpXchg { .. } | InstructionKind::AtomicRmw { .. }
                ) {
                    flags |= ATOMIC_INT64_ON_GROUP_SHARED;
                }
            }
            let (Some(op), InstructionKind::Call { args, .. }) = (op, kind) else {
                continue;
            };
            let constant_offsets =
                |first: usize| (first..first + 3).all(|i| is_constant(module, body, args, i));
            match op {
                110..=123 | 135 | 136 | 165..=167 | 222 => flags |= WAVE_OPS,
                174..=177 => sampler_feedback = true,
                71 => check_access = true,
                50 => flags |= MSAD,
                66 | 68 => {
                    if op == 66 && !constant_offsets(6) {
                        flags |= ADVANCED_TEXTURE_OPS;
                    }
                    // Typed UAV loads of more than one component need the
                    // handle's resource; a module without typed UAVs (from
                    // validator 1.1) cannot set the flag.
                    if validator == (1, 0) || facts.typed_uav {
                        return Err(unsupported("a typed or texture load"));
                    }
                }
                47 if double => flags |= DOUBLE_EXTENSIONS,
                91 => flags |= INNER_COVERAGE,
                138 => flags |= VIEW_ID,
                178 | 213 | 258 => flags |= RAYTRACING_TIER_1_1,
                137 => barycentrics = true,
                78 | 79 if int64 => return Err(unsupported("a 64-bit atomic operation")),
                62 | 65 if !constant_offsets(7) => flags |= ADVANCED_TEXTURE_OPS,
                63 | 254 => {
                    if !constant_offsets(7) {
                        flags |= ADVANCED_TEXTURE_OPS;
                    }
                    lod_clamp |= has_clamp(module, body, args);
                    sample_cmp_gradient_or_bias = op == 254;
                }
                60 | 61 | 64 | 255 => {
                    if !constant_offsets(7) {
                        flags |= ADVANCED_TEXTURE_OPS;
                    }
                    lod_clamp |= has_clamp(module, body, args);
                    sample_cmp_gradient_or_bias = op == 255;
                    derivatives = true;
                }
                81 | 83..=86 => derivatives = true,
                218 => match const_int(module, body, args, 2) {
                    Some(0) => flags |= RESOURCE_DESCRIPTOR_HEAP_INDEXING,
                    Some(_) => flags |= SAMPLER_DESCRIPTOR_HEAP_INDEXING,
                    None => return Err(unsupported("a heap handle of unknown kind")),
                },
                57 | 160 | 216 if facts.msaa_uav && validator >= (1, 8) => {
                    return Err(unsupported("a writable multisampled texture"))
                }
                225 => flags |= WRITEABLE_MSAA_TEXTURES | ADVANCED_TEXTURE_OPS,
                223 | 224 => flags |= ADVANCED_TEXTURE_OPS,
                256 | 257 => flags |= EXTENDED_COMMAND_INFO,
                80 | 244..=246 => requires_group |= barrier(module, body, op, args).group,
                op if op >= 1 << 31 => return Err(unsupported("an experimental operation")),
                _ => {}
            }
        }
    }

    if let Some(entry) = entry {
        let kind = entry.properties.shader_kind;
        let is_kind = |k: ShaderKind| kind == Some(k);
        let mut input_rt = is_kind(ShaderKind::Geometry);
        if validator >= (1, 4) {
            input_rt |= is_kind(ShaderKind::Domain) || is_kind(ShaderKind::Hull);
        }
        let output_rt =
            is_kind(ShaderKind::Vertex) || is_kind(ShaderKind::Domain) || is_kind(ShaderKind::Hull);
        for e in &entry.signatures.inputs {
            match e.kind {
                SemanticKind::ViewPortArrayIndex | SemanticKind::RenderTargetArrayIndex
                    if input_rt =>
                {
                    flags |= VIEWPORT_AND_RT_ARRAY_INDEX
                }
                SemanticKind::ShadingRate => flags |= SHADING_RATE,
                SemanticKind::Barycentrics => barycentrics = true,
                _ => {}
            }
        }
        for e in &entry.signatures.outputs {
            match e.kind {
                SemanticKind::ViewPortArrayIndex | SemanticKind::RenderTargetArrayIndex
                    if output_rt =>
                {
                    flags |= VIEWPORT_AND_RT_ARRAY_INDEX
                }
                SemanticKind::StencilRef if is_kind(ShaderKind::Pixel) => flags |= STENCIL_REF,
                SemanticKind::InnerCoverage if is_kind(ShaderKind::Pixel) => {
                    flags |= INNER_COVERAGE
                }
                SemanticKind::ShadingRate => flags |= SHADING_RATE,
                _ => {}
            }
        }
        if derivatives && (is_kind(ShaderKind::Mesh) || is_kind(ShaderKind::Amplification)) {
            flags |= DERIVATIVES_IN_MESH_AND_AMP;
        }
    }

    if derivatives && validator < (1, 8) {
        derivatives = false;
        if !facts.mesh_or_amplification {
            flags &= !DERIVATIVES_IN_MESH_AND_AMP;
        }
    }
    if validator < (1, 8) {
        requires_group = false;
    }
    if sampler_feedback && validator >= (1, 9) {
        flags |= SAMPLER_FEEDBACK;
    }
    if barycentrics && validator >= (1, 6) {
        flags |= BARYCENTRICS;
    }
    if check_access || (validator >= (1, 8) && lod_clamp) {
        flags |= TILED_RESOURCES;
    }
    if has16 {
        flags |= if facts.native_low_precision {
            NATIVE_LOW_PRECISION
        } else {
            MINIMUM_PRECISION
        };
    }
    if sample_cmp_gradient_or_bias {
        flags |= SAMPLE_CMP_GRADIENT_OR_BIAS;
    }
    if facts.msaa_uav && validator < (1, 8) {
        flags |= WRITEABLE_MSAA_TEXTURES;
    }
    if derivatives {
        flags |= USES_DERIVATIVES;
    }
    if requires_group {
        flags |= REQUIRES_GROUP;
    }
    Ok(flags)
}
