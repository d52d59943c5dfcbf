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
use crate::dxil::metadata::{DxilMetadata, EntryPoint, Resource, ResourceClass, Resources};
use crate::dxil::model::{
    BinOp, CastOp, ConstantKind, FunctionBody, Instruction, InstructionKind, LocalValue, Module,
    Operand, Type, TypeId, ValueId,
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
    pub const UAV_LOAD_ADDITIONAL_FORMATS: u64 = 0x800;
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
pub(crate) struct ModuleFacts<'a> {
    pub validator: (u32, u32),
    /// The module's resources (dxc's `DxilModule` lists).
    pub resources: &'a Resources,
    /// Native 16-bit types rather than minimum precision.
    pub native_low_precision: bool,
    /// A writable multisampled texture exists.
    pub msaa_uav: bool,
    /// The module's shader model is mesh or amplification.
    pub mesh_or_amplification: bool,
}

impl<'a> ModuleFacts<'a> {
    pub fn new(metadata: &'a DxilMetadata, validator: (u32, u32)) -> ModuleFacts<'a> {
        let uavs = &metadata.module_resources().uavs;
        ModuleFacts {
            validator,
            resources: metadata.module_resources(),
            native_low_precision: !metadata.uses_min_precision(),
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

/// The flags an entry's signatures set, and whether an input is
/// barycentric (its flag follows the validator version).
fn signature_flags(entry: &EntryPoint, kind: ShaderKind, validator: (u32, u32)) -> (u64, bool) {
    use feature::*;
    use ShaderKind::*;
    let mut flags = 0;
    let mut barycentrics = false;
    // Validator 1.3 and older checked the inputs of geometry shaders only.
    let mut input_rt = kind == Geometry;
    if validator >= (1, 4) {
        input_rt |= matches!(kind, Domain | Hull);
    }
    let output_rt = matches!(kind, Vertex | Domain | Hull);
    for e in &entry.signatures.inputs {
        match e.kind {
            SemanticKind::ViewPortArrayIndex | SemanticKind::RenderTargetArrayIndex if input_rt => {
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
            SemanticKind::StencilRef if kind == Pixel => flags |= STENCIL_REF,
            SemanticKind::InnerCoverage if kind == Pixel => flags |= INNER_COVERAGE,
            SemanticKind::ShadingRate => flags |= SHADING_RATE,
            _ => {}
        }
    }
    (flags, barycentrics)
}

/// The feature bits of one function's own instructions, and of its
/// signatures when it is the entry `entry` (dxc's `CollectShaderFlags`).
///
/// Long: one pass over the instructions with one arm per DXIL operation
/// that sets a flag, side by side as in dxc's function, then the
/// validator-version rules that clear or set flags at the end.
pub(crate) fn function_flags(
    module: &Module,
    body: &FunctionBody,
    facts: &ModuleFacts,
    entry: Option<(&EntryPoint, ShaderKind)>,
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
    let mut msaa = false;
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
                    let props = handle_operand(module, body, facts, args.get(1));
                    if let Some(p) = props.filter(|p| p.is_uav) {
                        // Validator 1.0 took every UAV load for a
                        // multi-component one.
                        if validator == (1, 0) || (p.is_typed() && p.components > 1) {
                            flags |= UAV_LOAD_ADDITIONAL_FORMATS;
                        }
                    }
                }
                47 if double => flags |= DOUBLE_EXTENSIONS,
                92 => flags |= INNER_COVERAGE,
                138 => flags |= VIEW_ID,
                178 | 213 | 258 => flags |= RAYTRACING_TIER_1_1,
                137 => barycentrics = true,
                78 | 79 if int64 => {
                    let handle = handle_call(module, body, args.get(1));
                    let props = handle.and_then(|h| handle_props(module, body, facts, h));
                    if props.is_some_and(|p| p.is_typed()) {
                        flags |= ATOMIC_INT64_ON_TYPED_RESOURCE;
                    }
                    if !handle.is_some_and(|h| bound_resource(module, body, facts, h)) {
                        flags |= ATOMIC_INT64_ON_HEAP_RESOURCE;
                    }
                }
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
                57 | 160 | 216 => {
                    let props = handle_props(module, body, facts, instruction);
                    if props.is_some_and(|p| p.is_uav && p.is_msaa()) {
                        msaa = true;
                    }
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

    if let Some((entry, kind)) = entry {
        let (signature, barycentric_input) = signature_flags(entry, kind, validator);
        flags |= signature;
        barycentrics |= barycentric_input;
        if derivatives && matches!(kind, ShaderKind::Mesh | ShaderKind::Amplification) {
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
    // Before validator 1.8 any writable MSAA texture in the module counted;
    // from 1.8 one the function makes a handle for.
    if (validator < (1, 8) && facts.msaa_uav) || (validator >= (1, 8) && msaa) {
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

/// What a handle's resource is, as dxc's `DxilResourceProperties` says it.
#[derive(Clone, Copy)]
pub(crate) struct HandleProps {
    pub is_uav: bool,
    pub kind: ResourceKind,
    /// Components of a typed resource's element (dxc's `CompCount`).
    pub components: u32,
}

impl HandleProps {
    /// dxc's `DXIL::IsTyped`: the textures and typed buffers.
    fn is_typed(&self) -> bool {
        use ResourceKind::*;
        matches!(
            self.kind,
            Texture1D
                | Texture2D
                | Texture2DMS
                | Texture3D
                | TextureCube
                | Texture1DArray
                | Texture2DArray
                | Texture2DMSArray
                | TextureCubeArray
                | TypedBuffer
        )
    }

    fn is_msaa(&self) -> bool {
        matches!(
            self.kind,
            ResourceKind::Texture2DMS | ResourceKind::Texture2DMSArray
        )
    }
}

/// The instruction that defines local value `id`.
fn defining(body: &FunctionBody, id: ValueId) -> Option<&Instruction> {
    match body.local(id)? {
        LocalValue::Instruction { block, index } => body.instruction(block, index),
        _ => None,
    }
}

/// dxc's `FindCallToCreateHandle`: from a handle operand through phis
/// (first incoming value) and selects (the true value) to a call.
fn handle_call<'b>(
    module: &Module,
    body: &'b FunctionBody,
    operand: Option<&Operand>,
) -> Option<&'b Instruction> {
    let _ = module;
    let mut value = match operand? {
        Operand::Value(v) => *v,
        Operand::Metadata(_) => return None,
    };
    for _ in 0..body.values.len() + 1 {
        let instruction = defining(body, value)?;
        if let InstructionKind::Call { .. } = instruction.kind {
            return Some(instruction);
        }
        value = phi_or_select_source(instruction)?;
    }
    None
}

/// The value dxc follows through a phi (its first incoming value) or a
/// select (its true value).
fn phi_or_select_source(instruction: &Instruction) -> Option<ValueId> {
    let source = match &instruction.kind {
        InstructionKind::Phi { incoming } => &incoming.first()?.value,
        InstructionKind::Select { if_true, .. } => if_true,
        _ => return None,
    };
    match source {
        Operand::Value(v) => Some(*v),
        Operand::Metadata(_) => None,
    }
}

fn handle_operand(
    module: &Module,
    body: &FunctionBody,
    facts: &ModuleFacts<'_>,
    operand: Option<&Operand>,
) -> Option<HandleProps> {
    handle_props(module, body, facts, handle_call(module, body, operand)?)
}

/// A constant integer, followed through phis and selects as dxc's
/// `GetArbitraryConstantRangeID` does.
fn arbitrary_constant(
    module: &Module,
    body: &FunctionBody,
    operand: Option<&Operand>,
) -> Option<u64> {
    let mut value = match operand? {
        Operand::Value(v) => *v,
        Operand::Metadata(_) => return None,
    };
    for _ in 0..body.values.len() + 1 {
        if let Some(c) = module.constant(value).or(body.constant(value)) {
            return match c.kind {
                ConstantKind::Integer(v) => Some(v as u64),
                ConstantKind::Null => Some(0),
                _ => None,
            };
        }
        value = phi_or_select_source(defining(body, value)?)?;
    }
    None
}

/// dxc's `GetResourceComponentCount`.
fn component_count(module: &Module, ty: TypeId, depth: u32) -> u32 {
    if depth > 16 {
        return 1;
    }
    match module.ty(ty) {
        Some(Type::Array { len, element }) => {
            (*len as u32).saturating_mul(component_count(module, *element, depth + 1))
        }
        Some(Type::Struct(st)) => st
            .body
            .iter()
            .flatten()
            .map(|t| component_count(module, *t, depth + 1))
            .fold(0u32, u32::saturating_add),
        Some(Type::Vector { len, .. }) => *len as u32,
        _ => 1,
    }
}

/// dxc's `loadPropsFromResourceBase` for an SRV or UAV record.
fn props_of_resource(module: &Module, r: &Resource) -> HandleProps {
    let mut components = 0;
    let typed = HandleProps {
        is_uav: false,
        kind: r.kind,
        components: 0,
    }
    .is_typed();
    if typed {
        // The element type: the resource struct's first field (arrays of
        // resources stripped), counted.
        let mut ty = match r.hlsl_type.and_then(|t| module.ty(t)) {
            Some(Type::Pointer { pointee, .. }) => Some(*pointee),
            _ => None,
        };
        for _ in 0..16 {
            match ty.and_then(|t| module.ty(t)) {
                Some(Type::Array { element, .. }) => ty = Some(*element),
                _ => break,
            }
        }
        if let Some(Type::Struct(st)) = ty.and_then(|t| module.ty(t)) {
            if let Some(first) = st.body.as_ref().and_then(|b| b.first()) {
                components = component_count(module, *first, 0);
            }
        }
    }
    HandleProps {
        is_uav: r.class == ResourceClass::Uav,
        kind: r.kind,
        components,
    }
}

/// The global a `load` instruction reads (createHandleForLib's operand).
fn loaded_global(body: &FunctionBody, operand: Option<&Operand>) -> Option<ValueId> {
    let Operand::Value(v) = operand? else {
        return None;
    };
    match &defining(body, *v)?.kind {
        InstructionKind::Load {
            pointer: Operand::Value(p),
            ..
        } => Some(*p),
        _ => None,
    }
}

/// dxc's `GetResourcePropertyFromHandleCall` for the call `call`.
pub(crate) fn handle_props(
    module: &Module,
    body: &FunctionBody,
    facts: &ModuleFacts<'_>,
    call: &Instruction,
) -> Option<HandleProps> {
    let InstructionKind::Call { args, .. } = &call.kind else {
        return None;
    };
    match dxil_opcode(module, body, &call.kind)? {
        // CreateHandle: class and range ID.
        57 => {
            let class = const_int(module, body, args, 1)?;
            let range = arbitrary_constant(module, body, args.get(2))? as usize;
            let list = match class {
                0 => &facts.resources.srvs,
                1 => &facts.resources.uavs,
                _ => return None,
            };
            list.get(range).map(|r| props_of_resource(module, r))
        }
        // CreateHandleForLib: the UAV whose symbol the loaded global is.
        160 => {
            let global = loaded_global(body, args.get(1))?;
            let uav = facts
                .resources
                .uavs
                .iter()
                .rev()
                .find(|u| u.symbol == Some(global))?;
            Some(props_of_resource(module, uav))
        }
        // AnnotateHandle: the packed properties.
        216 => {
            let Some(Operand::Value(props)) = args.get(2) else {
                return None;
            };
            let c = module.constant(*props).or(body.constant(*props))?;
            let words: Vec<u64> = match &c.kind {
                ConstantKind::Aggregate(elements) => elements
                    .iter()
                    .map(
                        |e| match module.constant(*e).or(body.constant(*e)).map(|c| &c.kind) {
                            Some(ConstantKind::Integer(v)) => Some(*v as u64),
                            Some(ConstantKind::Null | ConstantKind::Undef) => Some(0),
                            _ => None,
                        },
                    )
                    .collect::<Option<_>>()?,
                ConstantKind::Null => vec![0, 0],
                _ => return None,
            };
            let (d0, d1) = (*words.first()? as u32, *words.get(1)? as u32);
            Some(HandleProps {
                is_uav: d0 & (1 << 12) != 0,
                kind: ResourceKind::from_raw(d0 & 0xff),
                components: (d1 >> 8) & 0xff,
            })
        }
        _ => Some(HandleProps {
            is_uav: false,
            kind: ResourceKind::Invalid,
            components: 0,
        }),
    }
}

/// dxc's `GetResourceFromAnnotateHandle`: whether `call` annotates a
/// handle made from a binding of one of the module's UAVs (or a library
/// handle of one); a heap handle or any other is not.
fn bound_resource(
    module: &Module,
    body: &FunctionBody,
    facts: &ModuleFacts<'_>,
    call: &Instruction,
) -> bool {
    let InstructionKind::Call { args, .. } = &call.kind else {
        return false;
    };
    if dxil_opcode(module, body, &call.kind) != Some(216) {
        return false;
    }
    let Some(Operand::Value(inner)) = args.get(1) else {
        return false;
    };
    let Some(create) = defining(body, *inner) else {
        return false;
    };
    let InstructionKind::Call {
        args: inner_args, ..
    } = &create.kind
    else {
        return false;
    };
    match dxil_opcode(module, body, &create.kind) {
        Some(217) => {
            let Some(Operand::Value(binding)) = inner_args.get(1) else {
                return false;
            };
            let Some(c) = module.constant(*binding).or(body.constant(*binding)) else {
                return false;
            };
            let fields: Vec<u64> = match &c.kind {
                ConstantKind::Aggregate(elements) => elements
                    .iter()
                    .map(
                        |e| match module.constant(*e).or(body.constant(*e)).map(|c| &c.kind) {
                            Some(ConstantKind::Integer(v)) => *v as u64 & 0xffff_ffff,
                            _ => 0,
                        },
                    )
                    .collect(),
                _ => vec![0; 4],
            };
            let [lower, upper, space, class] =
                [0, 1, 2, 3].map(|i| fields.get(i).copied().unwrap_or(0));
            class == 1
                && facts.resources.uavs.iter().any(|u| {
                    let u_upper = if u.range_size == u32::MAX {
                        u64::from(u32::MAX)
                    } else {
                        u64::from(u.lower_bound.wrapping_add(u.range_size).wrapping_sub(1))
                    };
                    u64::from(u.space) == space
                        && u64::from(u.lower_bound) == lower
                        && u_upper == upper
                })
        }
        Some(160) => loaded_global(body, inner_args.get(1))
            .is_some_and(|g| facts.resources.uavs.iter().any(|u| u.symbol == Some(g))),
        _ => false,
    }
}
