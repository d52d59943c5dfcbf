//! DXIL constant buffers: `D3D12_SHADER_BUFFER_DESC` with its variables and
//! their type trees, read from the module's `dx.resources` (the cbuffers and
//! tbuffers with their HLSL types) and `dx.typeAnnotations` (field names,
//! constant-buffer offsets, component types, matrix shapes, usage), mapped
//! as dxc's `DxilContainerReflection.cpp` maps them
//! (`CShaderReflectionConstantBuffer::Initialize`,
//! `CShaderReflectionType::Initialize`; docs/reflection.md § DXIL).

use super::module::ModuleMetadata;
use super::*;
use crate::dxil::metadata::{
    CompType, FieldAnnotation, MatrixOrientation, Resource, TypeAnnotations,
};
use crate::dxil::model::{Module, Type, TypeId};
use crate::psv0::ResourceKind;

/// Deepest struct nesting and array depth followed (a hostile type table
/// can make a struct contain itself).
const MAX_NESTING: u32 = 32;

/// The module's types and annotations.
struct Types<'a> {
    module: &'a Module,
    annotations: &'a TypeAnnotations,
    min_precision: bool,
    /// Validator 1.5+: the fields' usage flags are in the annotations.
    usage_in_metadata: bool,
}

/// The constant buffers of the module: every cbuffer (`D3D_CT_CBUFFER`),
/// then the tbuffer SRVs (`D3D_CT_TBUFFER`), as dxc orders them.
pub(super) fn constant_buffers(m: &ModuleMetadata) -> Vec<BufferDesc> {
    let types = Types {
        module: &m.module,
        annotations: &m.metadata.type_annotations,
        min_precision: m.metadata.uses_min_precision(),
        usage_in_metadata: usage_in_metadata(m),
    };
    let resources = m.metadata.module_resources();
    let cbuffers = resources.cbuffers.iter().map(|b| (b, CbufferType::Cbuffer));
    let tbuffers = resources
        .srvs
        .iter()
        .filter(|s| s.kind == ResourceKind::TBuffer)
        .map(|b| (b, CbufferType::Tbuffer));
    cbuffers
        .chain(tbuffers)
        .map(|(b, kind)| buffer(&types, b, kind))
        .collect()
}

/// Whether the module records which constant-buffer fields are used
/// (validator 1.5 and later, as dxc decides).
pub(super) fn usage_in_metadata(m: &ModuleMetadata) -> bool {
    m.metadata
        .validator_version
        .is_some_and(|version| version >= (1, 5))
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

    /// The number of scalars in `ty` (arrays and vectors multiplied out).
    fn scalar_count(&self, mut ty: TypeId) -> u64 {
        let mut count: u64 = 1;
        for _ in 0..MAX_NESTING {
            match self.ty(ty) {
                Some(Type::Array { len, element }) | Some(Type::Vector { len, element }) => {
                    count = count.saturating_mul(*len);
                    ty = *element;
                }
                _ => break,
            }
        }
        count
    }
}

/// One cbuffer or tbuffer. The size is the resource's, rounded up to 16
/// bytes (a tbuffer records its size in the struct annotation).
fn buffer(types: &Types<'_>, b: &Resource, buffer_type: CbufferType) -> BufferDesc {
    let mut desc = BufferDesc {
        name: String::from_utf8_lossy(&b.name).into_owned(),
        buffer_type,
        size: 0,
        flags: CbufferFlags(0),
        variables: Vec::new(),
    };
    // ConstantBuffer<T> b[2]: the element struct (the count is in the bindings).
    let pointee = b.hlsl_type.and_then(|t| match types.ty(t) {
        Some(Type::Pointer { pointee, .. }) => Some(*pointee),
        _ => None,
    });
    let is_array = pointee.is_some_and(|p| matches!(types.ty(p), Some(Type::Array { .. })));
    let mut st = pointee;
    for _ in 0..MAX_NESTING {
        match st.and_then(|t| types.ty(t)) {
            Some(Type::Array { element, .. }) => st = Some(*element),
            _ => break,
        }
    }
    let annotation = st.and_then(|t| types.annotations.struct_annotation(t));
    let size = match (buffer_type, annotation) {
        (CbufferType::Tbuffer, Some(a)) => a.cbuffer_size,
        _ => b.cbuffer_size(),
    };
    desc.size = size.saturating_add(15) & !15;
    let (Some(st), Some(annotation)) = (st, annotation) else {
        return desc;
    };
    let elements = types.struct_elements(st);
    // One member is used if it is there; without usage in the metadata
    // (before validator 1.5) every field counts as used.
    let all_used = elements.len() < 2 || !types.usage_in_metadata;
    for (index, &element) in elements.iter().enumerate() {
        let field = annotation.fields.get(index).cloned().unwrap_or_default();
        let (mut var_type, cb_size) = type_desc(types, element, &field, field.cbuffer_offset, 0);
        if b.range_size > 1 || (is_array && b.range_size == 1) {
            var_type.elements = 1;
        }
        let used = all_used || field.cbuffer_used == Some(true);
        desc.variables.push(VariableDesc {
            name: String::from_utf8_lossy(field.name.as_deref().unwrap_or(b"")).into_owned(),
            start_offset: field.cbuffer_offset,
            size: cb_size,
            flags: VariableFlags(if used { VariableFlags::USED } else { 0 }),
            used,
            default_value: None,
            start_texture: Some(u32::MAX),
            texture_size: Some(0),
            start_sampler: Some(u32::MAX),
            sampler_size: Some(0),
            var_type,
        });
    }
    if buffer_type == CbufferType::Tbuffer {
        // A tbuffer's size: the end of its last variable, rounded up.
        let end = desc
            .variables
            .iter()
            .map(|v| v.start_offset.saturating_add(v.size))
            .max()
            .unwrap_or(0);
        desc.size = end.saturating_add(15) & !15;
    }
    desc
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

/// dxc's `CShaderReflectionType::Initialize`: the type of a field at
/// `offset`, with its size in the constant buffer.
fn type_desc(
    types: &Types<'_>,
    mut ty: TypeId,
    field: &FieldAnnotation,
    offset: u32,
    depth: u32,
) -> (TypeDesc, u32) {
    let mut desc = TypeDesc {
        name: None,
        class: VariableClass::Scalar,
        base_type: VariableType::Void,
        rows: 0,
        columns: 0,
        elements: 0,
        offset,
        members: Vec::new(),
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
    for _ in 0..MAX_NESTING {
        let Some(Type::Array { len, element }) = types.ty(ty) else {
            break;
        };
        if desc.class != VariableClass::Scalar
            && types.scalar_count(ty) == u64::from(cb_rows) * u64::from(cb_cols)
        {
            break;
        }
        if desc.elements == 0 {
            desc.elements = 1;
        }
        desc.elements = desc
            .elements
            .saturating_mul(u32::try_from(*len).unwrap_or(u32::MAX));
        ty = *element;
    }
    let (base_type, comp_name, comp_size) = component(field.comp_type(), types.min_precision);
    desc.base_type = base_type;
    let mut name = comp_name.to_string();
    match desc.class {
        VariableClass::Vector => name.push_str(&desc.columns.to_string()),
        VariableClass::MatrixRows | VariableClass::MatrixColumns => {
            name.push_str(&format!("{}x{}", desc.rows, desc.columns));
        }
        _ => {}
    }
    let mut cb_size = 0u32;
    match types.ty(ty) {
        Some(Type::Vector { len, .. }) if desc.class == VariableClass::Scalar => {
            desc.class = VariableClass::Vector;
            desc.rows = 1;
            desc.columns = u32::try_from(*len).unwrap_or(u32::MAX);
            (cb_rows, cb_cols) = (1, desc.columns);
            name.push_str(&desc.columns.to_string());
        }
        Some(Type::Struct(st)) if field.matrix.is_none() => {
            desc.class = VariableClass::Struct;
            desc.base_type = VariableType::Void;
            desc.rows = 1;
            let raw = st.name.as_deref().unwrap_or(b"");
            let raw = trim_prefix(raw, b"dx.alignment.legacy.");
            let raw = trim_prefix(raw, b"hostlayout.");
            name = String::from_utf8_lossy(trim_prefix(raw, b"struct.")).into_owned();
            let mut columns = 0u32;
            let mut last: Option<(u32, u32)> = None;
            if let (Some(annotation), true) =
                (types.annotations.struct_annotation(ty), depth < MAX_NESTING)
            {
                for (index, &element) in types.struct_elements(ty).iter().enumerate() {
                    let member = annotation.fields.get(index).cloned().unwrap_or_default();
                    let (member_type, member_size) =
                        type_desc(types, element, &member, member.cbuffer_offset, depth + 1);
                    columns = columns.saturating_add(
                        member_type
                            .columns
                            .max(1)
                            .saturating_mul(member_type.rows.max(1))
                            .saturating_mul(member_type.elements.max(1)),
                    );
                    last = Some((member_type.offset, member_size));
                    desc.members.push(MemberDesc {
                        name: String::from_utf8_lossy(member.name.as_deref().unwrap_or(b""))
                            .into_owned(),
                        member_type,
                    });
                }
            }
            desc.columns = columns;
            if let Some((last_offset, last_size)) = last {
                cb_size = last_offset.saturating_add(last_size);
                if desc.elements > 1 {
                    let aligned = cb_size.saturating_add(15) & !15;
                    cb_size = cb_size.saturating_add((desc.elements - 1).saturating_mul(aligned));
                }
            }
            desc.name = Some(name);
            return (desc, cb_size);
        }
        _ if desc.class == VariableClass::Scalar => {
            desc.rows = 1;
            desc.columns = 1;
            if base_type == VariableType::Uint {
                name = "dword".into();
            }
        }
        _ => {}
    }
    if desc.elements > 1 {
        cb_rows = cb_rows.saturating_mul(desc.elements);
    }
    let row_stride = if comp_size > 4 && cb_cols > 2 { 32 } else { 16 };
    cb_size = row_stride * cb_rows.saturating_sub(1) + comp_size.saturating_mul(cb_cols);
    desc.name = Some(name);
    (desc, cb_size)
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
        let tag = b.i32(0);
        let cb_undef = b.undef(cb);
        let light_undef = b.undef(light);
        let tb_undef = b.undef(tb);
        let annotations = b.node(vec![
            Some(tag),
            Some(cb_undef),
            Some(cb_annotation),
            Some(light_undef),
            Some(light_annotation),
            Some(tb_undef),
            Some(tb_annotation),
        ]);
        b.named("dx.typeAnnotations", vec![annotations]);
        let metadata = DxilMetadata::read(&b.module).unwrap();
        ModuleMetadata {
            module: b.module,
            metadata,
            part: "DXIL",
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

    fn var(name: &str, offset: u32, size: u32, used: bool, mut var_type: TypeDesc) -> VariableDesc {
        var_type.offset = offset;
        VariableDesc {
            name: name.into(),
            start_offset: offset,
            size,
            flags: VariableFlags(if used { VariableFlags::USED } else { 0 }),
            used,
            default_value: None,
            start_texture: Some(u32::MAX),
            texture_size: Some(0),
            start_sampler: Some(u32::MAX),
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
        let buffers = constant_buffers(&m);
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
            // The only member is used.
            variables: vec![var("lights", 0, 16, true, light)],
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
}
