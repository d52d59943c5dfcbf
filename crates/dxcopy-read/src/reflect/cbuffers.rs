//! DXIL constant buffers: `D3D12_SHADER_BUFFER_DESC` with its variables and
//! their type trees, read from the module's `dx.resources` (the cbuffers,
//! tbuffers and structured buffers with their HLSL types) and
//! `dx.typeAnnotations` (field names, constant-buffer offsets, component
//! types, matrix shapes, bit fields, usage), mapped as dxc's
//! `DxilContainerReflection.cpp` maps them
//! (`CShaderReflectionConstantBuffer::Initialize`, `InitializeTBuffer`,
//! `InitializeStructuredBuffer`, `CShaderReflectionType::Initialize`;
//! docs/reflection.md § DXIL).

use super::module::ModuleMetadata;
use super::*;
use crate::budget::{Budget, OverBudget};
use crate::dxil::metadata::layout::DataLayout;
use crate::dxil::metadata::{
    CompType, FieldAnnotation, MatrixOrientation, Resource, TypeAnnotations,
};
use crate::dxil::model::{Module, Type, TypeId};
use crate::psv0::ResourceKind;

/// Deepest struct nesting and array depth followed (a hostile type table
/// can make a struct contain itself): deeper is an error
/// ([`CbufferTypesError::TooDeep`]), never a type tree cut short.
pub(crate) const MAX_NESTING: u32 = 32;

/// Why the constant buffers' type trees were not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CbufferTypesError {
    /// Past the work budget (a struct shared at every level).
    OverBudget(OverBudget),
    /// Structs or arrays nest deeper than [`MAX_NESTING`] (or the data
    /// layout's [`crate::dxil::metadata::layout::MAX_DEPTH`]).
    TooDeep,
}

/// The module's types and annotations.
struct Types<'a> {
    module: &'a Module,
    annotations: &'a TypeAnnotations,
    layout: DataLayout,
    min_precision: bool,
    /// Validator 1.5+: the fields' usage flags are in the annotations.
    usage_in_metadata: bool,
    /// Struct types are a DAG (a member's type may be shared): the tree of
    /// type descriptions pays for every node it makes, and past the budget
    /// reflection stops with an error.
    budget: Budget,
    /// Whether a struct or array nested deeper than [`MAX_NESTING`]: the
    /// tree below it is not made, and reflection stops with an error.
    too_deep: std::cell::Cell<bool>,
}

/// The constant buffers of the module in dxc's order: every cbuffer
/// (`D3D_CT_CBUFFER`), then the structured-buffer UAVs
/// (`D3D_CT_RESOURCE_BIND_INFO`), then the SRVs that are structured buffers
/// or tbuffers (`D3D_CT_TBUFFER`), each class in its metadata order.
pub(super) fn constant_buffers(m: &ModuleMetadata) -> Result<Vec<BufferDesc>, CbufferTypesError> {
    let types = Types {
        module: &m.module,
        annotations: &m.metadata.type_annotations,
        layout: DataLayout::of(&m.module),
        min_precision: m.metadata.uses_min_precision(),
        usage_in_metadata: usage_in_metadata(m),
        budget: Budget::for_input(m.input_len),
        too_deep: std::cell::Cell::new(false),
    };
    let resources = m.metadata.module_resources();
    let mut buffers: Vec<BufferDesc> = resources
        .cbuffers
        .iter()
        .map(|b| buffer(&types, b, CbufferType::Cbuffer))
        .collect();
    for uav in &resources.uavs {
        if uav.kind == ResourceKind::StructuredBuffer {
            buffers.push(structured_buffer(&types, uav));
        }
    }
    for srv in &resources.srvs {
        match srv.kind {
            ResourceKind::StructuredBuffer => buffers.push(structured_buffer(&types, srv)),
            ResourceKind::TBuffer => buffers.push(buffer(&types, srv, CbufferType::Tbuffer)),
            _ => {}
        }
    }
    types
        .budget
        .spend(0)
        .map_err(CbufferTypesError::OverBudget)?;
    if types.too_deep.get() || types.layout.too_deep() {
        return Err(CbufferTypesError::TooDeep);
    }
    Ok(buffers)
}

/// Whether the module records which constant-buffer fields are used:
/// validator 1.5 and later, or 0.x (dxc's "latest": the STAT part's module
/// says 0.0), as dxc's `CompareVersions` decides. A module without
/// `dx.valver` is validator 1.0 to dxc.
pub(super) fn usage_in_metadata(m: &ModuleMetadata) -> bool {
    let (major, minor) = m.metadata.validator_version.unwrap_or((1, 0));
    major == 0 || (major, minor) >= (1, 5)
}

impl Types<'_> {
    fn ty(&self, id: TypeId) -> Option<&Type> {
        self.module.ty(id)
    }

    fn struct_elements(&self, ty: TypeId) -> &[TypeId] {
        match self.ty(ty) {
            Some(Type::Struct(st)) => st.body.as_deref().unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The pointee of a resource's HLSL type (the symbol's pointer type).
    fn pointee(&self, resource: &Resource) -> Option<TypeId> {
        resource.hlsl_type.and_then(|t| match self.ty(t) {
            Some(Type::Pointer { pointee, .. }) => Some(*pointee),
            _ => None,
        })
    }

    /// `ty` without its arrays, and how many array levels were stripped
    /// (more than [`MAX_NESTING`] is noted as too deep).
    fn strip_arrays(&self, mut ty: TypeId) -> (TypeId, u32) {
        let mut levels = 0;
        while let Some(Type::Array { element, .. }) = self.ty(ty) {
            if levels == MAX_NESTING {
                self.too_deep.set(true);
                break;
            }
            ty = *element;
            levels += 1;
        }
        (ty, levels)
    }
}

/// One cbuffer or tbuffer. A cbuffer's size is the resource's, a tbuffer's
/// the end of its last variable, each rounded up to 16 bytes.
fn buffer(types: &Types<'_>, b: &Resource, buffer_type: CbufferType) -> BufferDesc {
    let tbuffer = buffer_type == CbufferType::Tbuffer;
    let mut desc = BufferDesc {
        name: String::from_utf8_lossy(&b.name).into_owned(),
        buffer_type,
        size: if tbuffer {
            0
        } else {
            b.cbuffer_size().saturating_add(15) & !15
        },
        flags: CbufferFlags(0),
        variables: Vec::new(),
    };
    // ConstantBuffer<T> b[2]: the element struct (the count is in the
    // bindings); a tbuffer's type is the struct itself.
    let pointee = types.pointee(b);
    let is_array = pointee.is_some_and(|p| matches!(types.ty(p), Some(Type::Array { .. })));
    let st = if tbuffer {
        pointee
    } else {
        pointee.map(|p| types.strip_arrays(p).0)
    };
    let annotation = st.and_then(|t| types.annotations.struct_annotation(t));
    let (Some(st), Some(annotation)) = (st, annotation) else {
        return desc;
    };
    let elements = types.struct_elements(st);
    // One member is used if it is there; without usage in the metadata
    // (before validator 1.5) every field starts used, and the function
    // bodies decide (`usage::apply`).
    let all_used = elements.len() < 2 || !types.usage_in_metadata;
    for (index, &element) in elements.iter().enumerate() {
        let field = annotation.fields.get(index).cloned().unwrap_or_default();
        let (mut var_type, cb_size) =
            type_desc(types, element, &field, field.cbuffer_offset, true, 0);
        if !tbuffer && (b.range_size > 1 || (is_array && b.range_size == 1)) {
            // dxc repeats fxc: Elements 1 for the struct of a cbuffer array.
            var_type.elements = 1;
        }
        let used = all_used || field.cbuffer_used == Some(true);
        // dxc leaves a cbuffer variable's texture and sampler slots 0 and
        // gives a tbuffer's UINT_MAX.
        let slot = if tbuffer { u32::MAX } else { 0 };
        desc.variables.push(VariableDesc {
            name: String::from_utf8_lossy(field.name.as_deref().unwrap_or(b"")).into_owned(),
            start_offset: field.cbuffer_offset,
            size: cb_size,
            flags: VariableFlags(if used { VariableFlags::USED } else { 0 }),
            used,
            default_value: None,
            start_texture: Some(slot),
            texture_size: Some(0),
            start_sampler: Some(slot),
            sampler_size: Some(0),
            var_type,
        });
        if tbuffer {
            desc.size = desc.size.max(field.cbuffer_offset.saturating_add(cb_size));
        }
    }
    if tbuffer {
        desc.size = desc.size.saturating_add(15) & !15;
    }
    desc
}

/// The type dxc gives a variable without annotations: every field zero.
fn empty_type() -> TypeDesc {
    TypeDesc {
        name: None,
        class: VariableClass::Scalar,
        base_type: VariableType::Void,
        rows: 0,
        columns: 0,
        elements: 0,
        offset: 0,
        members: Vec::new(),
    }
}

/// A structured buffer as dxc reports it among the constant buffers
/// (`InitializeStructuredBuffer`): `D3D_CT_RESOURCE_BIND_INFO` named after
/// the resource (`[0]` per array level), one used variable `$Element` whose
/// size is the element's allocation size under the module's data layout,
/// typed by the element (the first field of the resource's struct) with
/// members at their data-layout offsets.
fn structured_buffer(types: &Types<'_>, r: &Resource) -> BufferDesc {
    let mut name = String::from_utf8_lossy(&r.name).into_owned();
    let pointee = types.pointee(r);
    let (wrapper, levels) = match pointee {
        Some(p) => types.strip_arrays(p),
        None => (TypeId(u32::MAX), 0),
    };
    for _ in 0..levels {
        name.push_str("[0]");
    }
    let size = types
        .layout
        .alloc_size(types.module, wrapper)
        .map_or(0, |s| u32::try_from(s).unwrap_or(u32::MAX));
    let var_type = match (
        types.annotations.struct_annotation(wrapper),
        types.struct_elements(wrapper).first(),
    ) {
        (Some(annotation), Some(&element)) => {
            let field = annotation.fields.first().cloned().unwrap_or_default();
            type_desc(types, element, &field, 0, false, 0).0
        }
        _ => empty_type(),
    };
    BufferDesc {
        name,
        buffer_type: CbufferType::ResourceBindInfo,
        size,
        flags: CbufferFlags(0),
        variables: vec![VariableDesc {
            name: "$Element".into(),
            start_offset: 0,
            size,
            flags: VariableFlags(VariableFlags::USED),
            used: true,
            default_value: None,
            start_texture: Some(u32::MAX),
            texture_size: Some(0),
            start_sampler: Some(u32::MAX),
            sampler_size: Some(0),
            var_type,
        }],
    }
}

/// `D3D_SHADER_VARIABLE_TYPE` and the HLSL name of a component type; the
/// third value is the component's size in a constant buffer.
fn component(comp: CompType, min_precision: bool) -> (VariableType, &'static str, u32) {
    use CompType as C;
    match comp {
        C::I1 => (VariableType::Bool, "bool", 4),
        C::I16 if min_precision => (VariableType::Min16Int, "min16int", 4),
        C::I16 => (VariableType::Int16, "int16_t", 2),
        C::U16 if min_precision => (VariableType::Min16Uint, "min16uint", 4),
        C::U16 => (VariableType::Uint16, "uint16_t", 2),
        C::I64 => (VariableType::Int64, "int64_t", 8),
        C::I32 => (VariableType::Int, "int", 4),
        C::U64 => (VariableType::Uint64, "uint64_t", 8),
        C::U32 => (VariableType::Uint, "uint", 4),
        C::F16 | C::SNormF16 | C::UNormF16 if min_precision => {
            (VariableType::Min16Float, "min16float", 4)
        }
        C::F16 | C::SNormF16 | C::UNormF16 => (VariableType::Float16, "float16_t", 2),
        C::F32 | C::SNormF32 | C::UNormF32 => (VariableType::Float, "float", 4),
        C::F64 | C::SNormF64 | C::UNormF64 => (VariableType::Double, "double", 8),
        _ => (VariableType::Void, "", 4),
    }
}

/// dxc's `MatchVectorOrMatrixType`: whether `ty` (arrays and vectors) holds
/// exactly `count` scalars, at most `max_depth` levels deep.
fn matches_vector_or_matrix(types: &Types<'_>, ty: TypeId, count: u64, max_depth: u32) -> bool {
    match types.ty(ty) {
        Some(Type::Array { len, element }) => {
            if max_depth < 1 || *len == 0 || count < *len || !count.is_multiple_of(*len) {
                return false;
            }
            matches_vector_or_matrix(types, *element, count / *len, max_depth - 1)
        }
        Some(Type::Vector { len, .. }) => max_depth >= 1 && *len == count,
        _ => count == 1,
    }
}

/// dxc's `TryToDetectObjectType`: the `D3D_SVT_*` of a struct that is an
/// HLSL object (texture, sampler, buffer, stream), told by its name as dxc
/// tells it (including its `ltrim` of character sets, under which the
/// `RW` resources are not recognised); `None` for other structs.
fn object_type(name: &[u8]) -> Option<VariableType> {
    use VariableType as T;
    if name.starts_with(b"dx.types.wave_t") {
        return Some(T::Void);
    }
    let name = trim_prefix(name, b"class.");
    let name = trim_prefix(name, b"struct.");
    if name.ends_with(b"_slice_type") {
        return None;
    }
    if name == b"SamplerState" || name == b"SamplerComparisonState" {
        return Some(T::Sampler);
    }
    for stream in [&b"TriangleStream"[..], b"PointStream", b"LineStream"] {
        if name.starts_with(stream) {
            return Some(T::Void);
        }
    }
    for (prefix, ty) in [
        (&b"AppendStructuredBuffer"[..], T::AppendStructuredBuffer),
        (b"ConsumeStructuredBuffer", T::ConsumeStructuredBuffer),
        (b"ConstantBuffer", T::Cbuffer),
    ] {
        if name.starts_with(prefix) {
            return Some(ty);
        }
    }
    let name = trim_prefix(name, b"RasterizerOrdered");
    if name == b"ByteAddressBuffer" {
        return Some(T::ByteAddressBuffer);
    }
    if name == b"RWByteAddressBuffer" {
        return Some(T::RWByteAddressBuffer);
    }
    for (prefix, ty) in [
        (&b"Buffer"[..], T::Buffer),
        (b"RWBuffer", T::RWBuffer),
        (b"StructuredBuffer", T::StructuredBuffer),
        (b"RWStructuredBuffer", T::RWStructuredBuffer),
        (b"Texture1D", T::Texture1D),
        (b"RWTexture1D", T::RWTexture1D),
        (b"Texture1DArray", T::Texture1DArray),
        (b"RWTexture1DArray", T::RWTexture1DArray),
        (b"Texture2D", T::Texture2D),
        (b"RWTexture2D", T::RWTexture2D),
        (b"Texture2DArray", T::Texture2DArray),
        (b"RWTexture2DArray", T::RWTexture2DArray),
        (b"Texture3D", T::Texture3D),
        (b"RWTexture3D", T::RWTexture3D),
        (b"TextureCube", T::TextureCube),
        (b"TextureCubeArray", T::TextureCubeArray),
        (b"Texture2DMS", T::Texture2DMS),
        (b"Texture2DMSArray", T::Texture2DMSArray),
    ] {
        if name.starts_with(prefix) {
            return Some(ty);
        }
    }
    None
}

/// dxc's `IsObjectType`: `ty`, arrays stripped, is an object struct.
fn is_object(types: &Types<'_>, ty: TypeId) -> bool {
    let (ty, _) = types.strip_arrays(ty);
    match types.ty(ty) {
        Some(Type::Struct(st)) => object_type(st.name.as_deref().unwrap_or(b"")).is_some(),
        _ => false,
    }
}

/// dxc's `CShaderReflectionType::Initialize`: the type of a field, with
/// its size in a constant buffer. In a constant buffer (`cbuffer`) a
/// type's `Offset` is its annotation's offset less `base_offset` (0 for a
/// variable's own type, the member's offset in its struct for members);
/// elsewhere (structured buffers) it is `base_offset`, the member's offset
/// under the data layout.
fn type_desc(
    types: &Types<'_>,
    mut ty: TypeId,
    field: &FieldAnnotation,
    base_offset: u32,
    cbuffer: bool,
    depth: u32,
) -> (TypeDesc, u32) {
    let mut desc = empty_type();
    // Past the budget nothing more is expanded: the caller's error is what
    // is reported, never the truncated tree.
    // A member as it is kept: its description, and the room its vector
    // holds for it (up to twice its size).
    let cost = 2 * std::mem::size_of::<MemberDesc>() as u64;
    if types.budget.spend(cost).is_err() {
        return (desc, 0);
    }
    desc.offset = if cbuffer {
        field.cbuffer_offset.wrapping_sub(base_offset)
    } else {
        base_offset
    };
    let (mut cb_rows, mut cb_cols) = (1u32, 1u32);
    if let Some(matrix) = field.matrix {
        desc.class = if matrix.orientation == MatrixOrientation::RowMajor {
            VariableClass::MatrixRows
        } else {
            VariableClass::MatrixColumns
        };
        desc.rows = matrix.rows;
        desc.columns = matrix.cols;
        (cb_rows, cb_cols) = (matrix.rows, matrix.cols);
        if desc.class == VariableClass::MatrixColumns {
            std::mem::swap(&mut cb_rows, &mut cb_cols);
        }
    } else if let Some(cols) = field.vector_size.filter(|c| *c != 0) {
        desc.class = VariableClass::Vector;
        desc.rows = 1;
        desc.columns = cols;
        (cb_rows, cb_cols) = (1, cols);
    }
    // Arrays multiply out into Elements, until what is left is the vector
    // or matrix itself.
    let mut levels = 0;
    while let Some(Type::Array { len, element }) = types.ty(ty) {
        if levels == MAX_NESTING {
            types.too_deep.set(true);
            break;
        }
        levels += 1;
        if desc.class != VariableClass::Scalar {
            let max_depth = if desc.class == VariableClass::Vector || cb_rows == 1 {
                1
            } else {
                2
            };
            let count = u64::from(cb_rows) * u64::from(cb_cols);
            if matches_vector_or_matrix(types, ty, count, max_depth) {
                break;
            }
        }
        if desc.elements == 0 {
            desc.elements = 1;
        }
        desc.elements = desc
            .elements
            .wrapping_mul(u32::try_from(*len).unwrap_or(u32::MAX));
        ty = *element;
    }
    let (base_type, comp_name, comp_size) = component(field.comp_type(), types.min_precision);
    desc.base_type = base_type;
    let mut name = comp_name.to_string();
    let mut cb_size = 0u32;
    if desc.class != VariableClass::Scalar {
        if desc.class == VariableClass::Vector {
            name.push_str(&desc.columns.to_string());
        } else {
            name.push_str(&format!("{}x{}", desc.rows, desc.columns));
        }
    } else {
        match types.ty(ty) {
            Some(Type::Vector { len, .. }) => {
                desc.class = VariableClass::Vector;
                desc.rows = 1;
                desc.columns = u32::try_from(*len).unwrap_or(u32::MAX);
                (cb_rows, cb_cols) = (1, desc.columns);
                name.push_str(&desc.columns.to_string());
            }
            Some(Type::Struct(st)) => {
                let raw = st.name.as_deref().unwrap_or(b"");
                if let Some(object) = object_type(raw) {
                    desc.class = VariableClass::Object;
                    desc.base_type = object;
                } else {
                    cb_size = struct_members(types, ty, raw, cbuffer, depth, &mut desc);
                    name = desc.name.take().unwrap_or_default();
                }
            }
            // dxc cannot reflect a pointer: a scalar of no rows and columns.
            Some(Type::Pointer { .. }) => {}
            Some(Type::Void) => {
                name = "void".into();
                desc.rows = 1;
                desc.columns = 1;
            }
            _ => {
                desc.rows = 1;
                desc.columns = 1;
                if desc.base_type == VariableType::Uint {
                    // A scalar uint is a `dword`, as in fxc.
                    name = "dword".into();
                }
                (cb_rows, cb_cols) = (1, 1);
            }
        }
    }
    if matches!(
        desc.class,
        VariableClass::Scalar
            | VariableClass::Vector
            | VariableClass::MatrixRows
            | VariableClass::MatrixColumns
    ) {
        if desc.elements > 1 {
            cb_rows = cb_rows.wrapping_mul(desc.elements);
        }
        let row_stride: u32 = if comp_size > 4 && cb_cols > 2 { 32 } else { 16 };
        cb_size = row_stride
            .wrapping_mul(cb_rows.wrapping_sub(1))
            .wrapping_add(comp_size.wrapping_mul(cb_cols));
    }
    desc.name = Some(name);
    (desc, cb_size)
}

/// The struct case of `type_desc`: the name, the members (object fields
/// skipped, bit fields as `D3D_SVC_BIT_FIELD` members of their integer),
/// `Columns` as the number of scalars in it; returns the size in a
/// constant buffer (the end of the last member, and for arrays the
/// 16-byte-aligned stride times the elements before it).
fn struct_members(
    types: &Types<'_>,
    ty: TypeId,
    raw_name: &[u8],
    cbuffer: bool,
    depth: u32,
    desc: &mut TypeDesc,
) -> u32 {
    desc.class = VariableClass::Struct;
    desc.rows = 1;
    let raw = trim_prefix(raw_name, b"dx.alignment.legacy.");
    let raw = trim_prefix(raw, b"hostlayout.");
    desc.name = Some(String::from_utf8_lossy(trim_prefix(raw, b"struct.")).into_owned());
    let layout = if cbuffer {
        None
    } else {
        types.layout.struct_layout(types.module, ty)
    };
    let annotation = types
        .annotations
        .struct_annotation(ty)
        .filter(|a| !a.fields.is_empty());
    if annotation.is_some() && depth >= MAX_NESTING {
        types.too_deep.set(true);
        return 0;
    }
    let elements = match annotation {
        Some(_) => types.struct_elements(ty),
        None => &[],
    };
    let mut columns = 0u32;
    let mut last: Option<(u32, u32)> = None;
    for (index, &element) in elements.iter().enumerate() {
        if is_object(types, element) {
            continue;
        }
        let field = annotation
            .and_then(|a| a.fields.get(index))
            .cloned()
            .unwrap_or_default();
        let element_offset = layout
            .as_ref()
            .and_then(|l| l.offsets.get(index))
            .map_or(0, |o| u32::try_from(*o).unwrap_or(u32::MAX));
        let (mut member_type, member_size) =
            type_desc(types, element, &field, element_offset, cbuffer, depth + 1);
        last = Some((member_type.offset, member_size));
        let empty_struct =
            matches!(types.ty(element), Some(Type::Struct(_))) && member_type.columns == 0;
        if !empty_struct {
            columns = columns.wrapping_add(
                member_type
                    .columns
                    .max(1)
                    .wrapping_mul(member_type.rows.max(1))
                    .wrapping_mul(member_type.elements.max(1)),
            );
            // Bit fields: members of the integer that holds them, each with
            // its width as Columns and its bit offset as Offset.
            let mut bit_offset = 0u32;
            for bit_field in &field.bit_fields {
                let (mut bit_type, _) =
                    type_desc(types, element, &field, element_offset, cbuffer, depth + 1);
                let width = bit_field.bit_field_width.unwrap_or(0);
                bit_type.class = VariableClass::BitField;
                bit_type.columns = width;
                bit_type.offset = bit_offset;
                bit_offset = bit_offset.wrapping_add(width);
                member_type.members.push(MemberDesc {
                    name: String::from_utf8_lossy(bit_field.name.as_deref().unwrap_or(b""))
                        .into_owned(),
                    member_type: bit_type,
                });
            }
        }
        desc.members.push(MemberDesc {
            name: String::from_utf8_lossy(field.name.as_deref().unwrap_or(b"")).into_owned(),
            member_type,
        });
    }
    desc.columns = columns;
    let Some((last_offset, last_size)) = last else {
        return 0;
    };
    let mut size = last_offset.wrapping_add(last_size);
    if desc.elements > 1 {
        let aligned = size.wrapping_add(15) & !15;
        size = size.wrapping_add((desc.elements - 1).wrapping_mul(aligned));
    }
    size
}

/// `s` without the leading bytes that are in `set` (LLVM's
/// `StringRef::ltrim`, which dxc uses to drop `struct.` and the other type
/// name prefixes: it trims characters, not a prefix).
fn trim_prefix<'a>(s: &'a [u8], set: &[u8]) -> &'a [u8] {
    let start = s.iter().position(|b| !set.contains(b)).unwrap_or(s.len());
    &s[start..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxil::metadata::DxilMetadata;
    use crate::dxil::model::MetadataId;
    use crate::dxil::test_module::Builder;

    /// A validator 1.5 pixel shader with `cbuffer Globals { float4x4 world;
    /// float4 color; float weights[2]; int count; }` where only `color` is
    /// used, and a tbuffer of one struct `Light { float3 dir; uint id; }`.
    fn module() -> ModuleMetadata {
        let mut b = Builder::new();
        b.versions("ps", 6, 5);
        let float = b.float();
        let i32_ty = b.int_ty(32);
        let float4 = b.vector(4, float);
        let float3 = b.vector(3, float);
        let matrix = b.array(4, float4);
        let weights = b.array(2, float);
        let cb = b.named_struct("hostlayout.Globals", vec![matrix, float4, weights, i32_ty]);
        let cb_ptr = b.pointer(cb);
        let light = b.named_struct("struct.Light", vec![float3, i32_ty]);
        let tb = b.named_struct("tbuffer.Lights", vec![light]);
        let tb_ptr = b.pointer(tb);

        let resource = |b: &mut Builder, ptr, id, name: &str, size: Option<i64>, kind| {
            let symbol = b.undef(ptr);
            let mut f = vec![
                b.i32(id),
                symbol,
                b.string(name),
                b.i32(0),
                b.i32(0),
                b.i32(1),
            ];
            match size {
                Some(size) => f.push(b.i32(size)),
                None => {
                    f.push(b.i32(kind));
                    f.push(b.i32(0));
                }
            }
            let mut operands: Vec<_> = f.into_iter().map(Some).collect();
            operands.push(None);
            b.node(operands)
        };
        let cbuffer = resource(&mut b, cb_ptr, 0, "Globals", Some(104), 0);
        let tbuffer = resource(&mut b, tb_ptr, 0, "Lights", None, 15);
        let srvs = b.node(vec![Some(tbuffer)]);
        let cbs = b.node(vec![Some(cbuffer)]);
        let resources = b.node(vec![Some(srvs), None, Some(cbs), None]);
        b.named("dx.resources", vec![resources]);

        let field = |b: &mut Builder, name: &str, offset, comp, extra: Vec<(i64, MetadataId)>| {
            let mut pairs = vec![(6, b.string(name)), (3, b.i32(offset)), (7, b.i32(comp))];
            pairs.extend(extra);
            b.field(pairs)
        };
        let row_major = b.ints(&[4, 4, 1]);
        let one = b.i32(1);
        let world = field(&mut b, "world", 0, 9, vec![(2, row_major)]);
        let color = field(&mut b, "color", 64, 9, vec![(9, one)]);
        let weights = field(&mut b, "weights", 80, 9, vec![]);
        let count = field(&mut b, "count", 100, 4, vec![]);
        let size = b.i32(104);
        let cb_annotation = b.node(vec![
            Some(size),
            Some(world),
            Some(color),
            Some(weights),
            Some(count),
        ]);
        let dir = field(&mut b, "dir", 0, 9, vec![]);
        let id = field(&mut b, "id", 12, 5, vec![]);
        let size = b.i32(16);
        let light_annotation = b.node(vec![Some(size), Some(dir), Some(id)]);
        let lights = field(&mut b, "lights", 0, 0, vec![]);
        let size = b.i32(16);
        let tb_annotation = b.node(vec![Some(size), Some(lights)]);
        with_struct_annotations(
            b,
            &[
                (cb, cb_annotation),
                (light, light_annotation),
                (tb, tb_annotation),
            ],
        )
    }

    /// The module with `dx.typeAnnotations` holding one struct annotation
    /// per (struct type, annotation node), and its metadata read.
    fn with_struct_annotations(
        mut b: Builder,
        structs: &[(crate::dxil::model::TypeId, MetadataId)],
    ) -> ModuleMetadata {
        let mut operands = vec![Some(b.i32(0))];
        for &(ty, annotation) in structs {
            operands.push(Some(b.undef(ty)));
            operands.push(Some(annotation));
        }
        let annotations = b.node(operands);
        b.named("dx.typeAnnotations", vec![annotations]);
        let metadata = DxilMetadata::read(&b.module).unwrap();
        ModuleMetadata {
            module: b.module,
            has_bodies: false,
            metadata,
            part: "DXIL",
            input_len: 0,
        }
    }

    fn ty(name: &str, class: VariableClass, base: VariableType, shape: [u32; 3]) -> TypeDesc {
        TypeDesc {
            name: Some(name.into()),
            class,
            base_type: base,
            rows: shape[0],
            columns: shape[1],
            elements: shape[2],
            offset: 0,
            members: Vec::new(),
        }
    }

    /// A cbuffer variable: dxc leaves its texture and sampler slots 0, and
    /// its type's offset is 0 (the offset is the variable's).
    fn var(name: &str, offset: u32, size: u32, used: bool, var_type: TypeDesc) -> VariableDesc {
        VariableDesc {
            name: name.into(),
            start_offset: offset,
            size,
            flags: VariableFlags(if used { VariableFlags::USED } else { 0 }),
            used,
            default_value: None,
            start_texture: Some(0),
            texture_size: Some(0),
            start_sampler: Some(0),
            sampler_size: Some(0),
            var_type,
        }
    }

    #[test]
    fn cbuffer_and_tbuffer_layouts() {
        use VariableClass as C;
        use VariableType as T;
        let m = module();
        assert!(usage_in_metadata(&m));
        let buffers = constant_buffers(&m).unwrap();
        let globals = BufferDesc {
            name: "Globals".into(),
            buffer_type: CbufferType::Cbuffer,
            size: 112,
            flags: CbufferFlags(0),
            variables: vec![
                var(
                    "world",
                    0,
                    64,
                    false,
                    ty("float4x4", C::MatrixRows, T::Float, [4, 4, 0]),
                ),
                var(
                    "color",
                    64,
                    16,
                    true,
                    ty("float4", C::Vector, T::Float, [1, 4, 0]),
                ),
                var(
                    "weights",
                    80,
                    20,
                    false,
                    ty("float", C::Scalar, T::Float, [1, 1, 2]),
                ),
                var(
                    "count",
                    100,
                    4,
                    false,
                    ty("int", C::Scalar, T::Int, [1, 1, 0]),
                ),
            ],
        };
        let mut light = ty("Light", C::Struct, T::Void, [1, 4, 0]);
        let mut dir = ty("float3", C::Vector, T::Float, [1, 3, 0]);
        dir.offset = 0;
        let mut id = ty("dword", C::Scalar, T::Uint, [1, 1, 0]);
        id.offset = 12;
        light.members = vec![
            MemberDesc {
                name: "dir".into(),
                member_type: dir,
            },
            MemberDesc {
                name: "id".into(),
                member_type: id,
            },
        ];
        let lights = BufferDesc {
            name: "Lights".into(),
            buffer_type: CbufferType::Tbuffer,
            size: 16,
            flags: CbufferFlags(0),
            // The only member is used; a tbuffer's slots are UINT_MAX.
            variables: vec![VariableDesc {
                start_texture: Some(u32::MAX),
                start_sampler: Some(u32::MAX),
                ..var("lights", 0, 16, true, light)
            }],
        };
        assert_eq!(buffers, vec![globals, lights]);
    }

    #[test]
    fn ltrim_drops_characters_not_a_prefix() {
        assert_eq!(trim_prefix(b"struct.S", b"struct."), b"S");
        // dxc's quirk: `ltrim` also eats the leading `c` of `cbS`.
        assert_eq!(trim_prefix(b"struct.cbS", b"struct."), b"bS");
        assert_eq!(trim_prefix(b"struct.", b"struct."), b"");
    }

    /// A validator-1.4 pixel shader with `RWStructuredBuffer<S> sb[2]`
    /// where `struct S { float3 pos; uint bits : lo 3, hi 5; SamplerState
    /// s; float w[2]; }` (the sampler is an object member, skipped), and a
    /// `StructuredBuffer<float4> colors`.
    fn structured_module() -> ModuleMetadata {
        let mut b = Builder::new();
        b.versions("ps", 6, 0);
        let valver = b.ints(&[1, 4]);
        b.module
            .named_metadata
            .retain(|n| n.name != b"dx.valver".to_vec());
        b.named("dx.valver", vec![valver]);
        let float = b.float();
        let i32_ty = b.int_ty(32);
        let float3 = b.vector(3, float);
        let float4 = b.vector(4, float);
        let w = b.array(2, float);
        let sampler = b.named_struct("struct.SamplerState", vec![i32_ty]);
        let s = b.named_struct("struct.S", vec![float3, i32_ty, sampler, w]);
        let wrapper = b.named_struct("class.RWStructuredBuffer<S>", vec![s]);
        let wrappers = b.array(2, wrapper);
        let sb_ptr = b.pointer(wrappers);
        let colors_ty = b.named_struct("class.StructuredBuffer<vector<float, 4> >", vec![float4]);
        let colors_ptr = b.pointer(colors_ty);

        let sb_symbol = b.undef(sb_ptr);
        let mut sb = vec![
            b.i32(0),
            sb_symbol,
            b.string("sb"),
            b.i32(0),
            b.i32(0),
            b.i32(2),
        ];
        sb.extend([b.i32(12), b.i32(0), b.i32(0), b.i32(0)]);
        let mut sb: Vec<_> = sb.into_iter().map(Some).collect();
        sb.push(None);
        let sb = b.node(sb);
        let colors_symbol = b.undef(colors_ptr);
        let mut colors = vec![
            b.i32(0),
            colors_symbol,
            b.string("colors"),
            b.i32(0),
            b.i32(0),
            b.i32(1),
        ];
        colors.extend([b.i32(12), b.i32(0)]);
        let mut colors: Vec<_> = colors.into_iter().map(Some).collect();
        colors.push(None);
        let colors = b.node(colors);
        let srvs = b.node(vec![Some(colors)]);
        let uavs = b.node(vec![Some(sb)]);
        let resources = b.node(vec![Some(srvs), Some(uavs), None, None]);
        b.named("dx.resources", vec![resources]);

        let field = |b: &mut Builder, name: &str, comp: i64, extra: Vec<(i64, MetadataId)>| {
            let mut pairs = vec![(6, b.string(name)), (3, b.i32(0)), (7, b.i32(comp))];
            pairs.extend(extra);
            b.field(pairs)
        };
        let lo = {
            let name = b.string("lo");
            let width = b.i32(3);
            b.field(vec![(6, name), (12, width)])
        };
        let hi = {
            let name = b.string("hi");
            let width = b.i32(5);
            b.field(vec![(6, name), (12, width)])
        };
        let bit_fields = b.node(vec![Some(lo), Some(hi)]);
        let pos = field(&mut b, "pos", 9, vec![]);
        let bits = field(&mut b, "bits", 5, vec![(11, bit_fields)]);
        let sampler_field = field(&mut b, "s", 0, vec![]);
        let w_field = field(&mut b, "w", 9, vec![]);
        let size = b.i32(44);
        let s_annotation = b.node(vec![
            Some(size),
            Some(pos),
            Some(bits),
            Some(sampler_field),
            Some(w_field),
        ]);
        let h = field(&mut b, "h", 0, vec![]);
        let size = b.i32(44);
        let wrapper_annotation = b.node(vec![Some(size), Some(h)]);
        let h4 = field(&mut b, "h", 9, vec![]);
        let size = b.i32(16);
        let colors_annotation = b.node(vec![Some(size), Some(h4)]);
        with_struct_annotations(
            b,
            &[
                (s, s_annotation),
                (wrapper, wrapper_annotation),
                (colors_ty, colors_annotation),
            ],
        )
    }

    #[test]
    fn structured_buffers_bit_fields_and_objects() {
        use VariableClass as C;
        use VariableType as T;
        let m = structured_module();
        assert!(!usage_in_metadata(&m));
        let buffers = constant_buffers(&m).unwrap();
        let member = |name: &str, mut t: TypeDesc, offset: u32| {
            t.offset = offset;
            MemberDesc {
                name: name.into(),
                member_type: t,
            }
        };
        let mut bits = ty("dword", C::Scalar, T::Uint, [1, 1, 0]);
        let bit = |width: u32, offset: u32| TypeDesc {
            class: C::BitField,
            columns: width,
            offset,
            ..ty("dword", C::Scalar, T::Uint, [1, 1, 0])
        };
        bits.members = vec![
            MemberDesc {
                name: "lo".into(),
                member_type: bit(3, 0),
            },
            MemberDesc {
                name: "hi".into(),
                member_type: bit(5, 3),
            },
        ];
        // pos 3 + bits 1 + w 2 scalars; the sampler member is skipped.
        let mut s = ty("S", C::Struct, T::Void, [1, 6, 0]);
        s.members = vec![
            member("pos", ty("float3", C::Vector, T::Float, [1, 3, 0]), 0),
            member("bits", bits, 12),
            member("w", ty("float", C::Scalar, T::Float, [1, 1, 2]), 20),
        ];
        let element = |var_type: TypeDesc, size: u32| VariableDesc {
            name: "$Element".into(),
            start_offset: 0,
            size,
            flags: VariableFlags(VariableFlags::USED),
            used: true,
            default_value: None,
            start_texture: Some(u32::MAX),
            texture_size: Some(0),
            start_sampler: Some(u32::MAX),
            sampler_size: Some(0),
            var_type,
        };
        // UAVs first: `sb[0]`, its element 28 bytes under the data layout
        // (the sampler's i32 at 16, w at 20); then the SRV.
        assert_eq!(
            buffers,
            vec![
                BufferDesc {
                    name: "sb[0]".into(),
                    buffer_type: CbufferType::ResourceBindInfo,
                    size: 28,
                    flags: CbufferFlags(0),
                    variables: vec![element(s, 28)],
                },
                BufferDesc {
                    name: "colors".into(),
                    buffer_type: CbufferType::ResourceBindInfo,
                    size: 16,
                    flags: CbufferFlags(0),
                    variables: vec![element(ty("float4", C::Vector, T::Float, [1, 4, 0]), 16)],
                },
            ]
        );
    }

    #[test]
    fn object_types_by_name_as_dxc_tells_them() {
        use VariableType as T;
        for (name, want) in [
            (&b"struct.SamplerState"[..], Some(T::Sampler)),
            (b"struct.SamplerComparisonState", Some(T::Sampler)),
            (b"class.Texture2D<vector<float, 4> >", Some(T::Texture2D)),
            // Prefixes in dxc's order: Texture2DMSArray matches Texture2D first.
            (b"class.Texture2DMSArray<float, 0>", Some(T::Texture2D)),
            (b"class.StructuredBuffer<S>", Some(T::StructuredBuffer)),
            (b"class.ByteAddressBuffer", Some(T::ByteAddressBuffer)),
            (b"class.ConstantBuffer<C>", Some(T::Cbuffer)),
            (
                b"class.AppendStructuredBuffer<S>",
                Some(T::AppendStructuredBuffer),
            ),
            (b"class.TriangleStream<V>", Some(T::Void)),
            (b"dx.types.wave_t", Some(T::Void)),
            (
                b"class.RasterizerOrderedTexture2D<float>",
                Some(T::Texture2D),
            ),
            // dxc's `ltrim("RasterizerOrdered")` eats the R of RW: not objects.
            (b"class.RWTexture2D<float>", None),
            (b"class.RWStructuredBuffer<S>", None),
            (b"class.RWByteAddressBuffer", None),
            (b"class.matrix<float, 4, 4>_slice_type", None),
            (b"struct.Light", None),
        ] {
            assert_eq!(object_type(name), want, "{}", String::from_utf8_lossy(name));
        }
    }
}
