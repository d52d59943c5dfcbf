//! The header sections dxc prints from the module's `dx.*` metadata: the
//! entry's signature tables with InterpMode and DynIdx, `; Buffer
//! Definitions:`, `; Resource Bindings:` and `; ViewId state:`
//! (docs/format/dxil-listing-header.md §6–§9; dxc's `dxcdisassembler.cpp`:
//! `PrintDxilSignature`, `PrintBufferDefinitions`, `PrintResourceBindings`,
//! `PrintViewIdState`).

use std::fmt::Write;

use super::text::{indent, ljust, rjust};
use crate::budget::{Budget, OverBudget};
use crate::dxil::metadata::layout::DataLayout;
use crate::dxil::metadata::{
    interpolation_name, DxilMetadata, FieldAnnotation, MatrixOrientation, Resource, ResourceClass,
    ResourceDetail, SignatureElement, TypeAnnotations,
};
use crate::dxil::model::{Module, Type, TypeId};
use crate::listing::dxil::release::{DxcRelease, ListingRule};
use crate::psv0::ResourceKind;
use crate::ShaderKind;

/// Column where a field's `; Offset:` comment starts, counted from the
/// struct's own indentation (dxc's `offsetIndent`).
const OFFSET_INDENT: usize = 50;

/// Deepest struct nesting printed (a hostile type table can make a struct
/// contain itself): deeper is an error ([`BufferTablesError::TooDeep`]),
/// never a table cut short.
pub const MAX_NESTING: u32 = 32;

/// Why the buffer definitions were not printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BufferTablesError {
    /// The tables expand past their work budget (struct types sharing a
    /// member type at every level).
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    /// Struct or array types nest deeper than `limit` levels
    /// ([`MAX_NESTING`], or the data layout's
    /// [`crate::dxil::metadata::layout::MAX_DEPTH`]).
    #[error("the struct and array types nest deeper than {limit} levels")]
    TooDeep {
        /// The limit.
        limit: u32,
    },
}

/// The signature tables of the module's entry point (none for a library).
pub fn write_signatures(metadata: &DxilMetadata, release: &DxcRelease, out: &mut String) {
    let kind = metadata.shader_kind();
    if kind == Some(ShaderKind::Library) {
        return;
    }
    let Some(entry) = metadata.main_entry() else {
        return;
    };
    let signatures = &entry.signatures;
    write_signature("Input", &signatures.inputs, out);
    let titles = release.has(ListingRule::ModuleSignatureTitles);
    if titles && kind == Some(ShaderKind::Mesh) {
        write_signature("Vertex Output", &signatures.outputs, out);
        write_signature(
            "Primitive Output",
            &signatures.patch_constant_or_primitive,
            out,
        );
    } else {
        write_signature("Output", &signatures.outputs, out);
        let title = if titles {
            "Patch Constant"
        } else {
            "Patch Constant signature"
        };
        write_signature(title, &signatures.patch_constant_or_primitive, out);
    }
}

fn write_signature(title: &str, elements: &[SignatureElement], out: &mut String) {
    if elements.is_empty() {
        return;
    }
    let _ = write!(
        out,
        ";\n; {title} signature:\n;\n\
         ; Name                 Index             InterpMode DynIdx\n\
         ; -------------------- ----- ---------------------- ------\n"
    );
    for element in elements {
        out.push_str("; ");
        ljust(out, &String::from_utf8_lossy(&element.name), 20);
        let index = element.semantic_indices.first().copied().unwrap_or(0);
        let _ = write!(out, " {index:5} ");
        rjust(out, interpolation_name(element.interpolation), 22);
        out.push_str("   ");
        let mut mask = String::new();
        for (bit, letter) in ['x', 'y', 'z', 'w'].into_iter().enumerate() {
            if element.dynamic_index_mask & (1 << bit) != 0 {
                mask.push(letter);
            }
        }
        rjust(out, &mask, 4);
        out.push('\n');
    }
}

/// The types and annotations the buffer tables are printed from.
struct Types<'a> {
    module: &'a Module,
    annotations: &'a TypeAnnotations,
    layout: DataLayout,
    min_precision: bool,
    semicolon: bool,
    /// Struct types are a DAG: the tables pay for every byte they print,
    /// so that a struct shared at every level stops them at the budget.
    budget: Budget,
    /// How much of the text has been paid for.
    paid: std::cell::Cell<usize>,
    /// Whether a struct or array nested deeper than [`MAX_NESTING`] (what
    /// is below it is not printed, and the tables are an error).
    too_deep: std::cell::Cell<bool>,
}

impl Types<'_> {
    /// Pays for what was printed to `out` since the last payment; an
    /// error past the budget.
    fn pay(&self, out: &str) -> Result<(), OverBudget> {
        let printed = out.len().saturating_sub(self.paid.get());
        self.paid.set(out.len());
        self.budget.spend(printed as u64)
    }
}

/// The bytes the struct types of `module` and their annotations take as
/// stored: what the buffer tables' budget is sized from.
fn stored_types(module: &Module, metadata: &DxilMetadata) -> usize {
    let members: usize = module
        .types
        .iter()
        .map(|t| match t {
            Type::Struct(st) => st.body.as_ref().map_or(0, Vec::len),
            _ => 1,
        })
        .sum();
    let fields: usize = metadata
        .type_annotations
        .structs
        .iter()
        .map(|s| s.fields.len() + 1)
        .sum();
    16 * (members + module.types.len()) + 64 * fields
}

/// `; Buffer Definitions:`: every constant buffer, then the SRVs that are
/// structured buffers or tbuffers, then the structured-buffer UAVs.
pub fn write_buffer_definitions(
    module: &Module,
    metadata: &DxilMetadata,
    release: &DxcRelease,
    out: &mut String,
) -> Result<(), BufferTablesError> {
    out.push_str(";\n; Buffer Definitions:\n;\n");
    let types = Types {
        module,
        annotations: &metadata.type_annotations,
        layout: DataLayout::of(module),
        min_precision: metadata.uses_min_precision(),
        semicolon: release.has(ListingRule::StructNameSemicolon),
        budget: Budget::for_stored(stored_types(module, metadata)),
        paid: std::cell::Cell::new(out.len()),
        too_deep: std::cell::Cell::new(false),
    };
    let resources = metadata.module_resources();
    for buffer in &resources.cbuffers {
        write_cbuffer(&types, buffer, "cbuffer", out);
    }
    let data_layout = release.has(ListingRule::StructuredBufferDataLayout);
    for srv in &resources.srvs {
        if srv.is_structured_buffer() {
            write_structured_buffer(&types, srv, data_layout, out);
        } else if srv.kind == ResourceKind::TBuffer {
            write_cbuffer(&types, srv, "tbuffer", out);
        }
    }
    for uav in &resources.uavs {
        if uav.is_structured_buffer() {
            write_structured_buffer(&types, uav, data_layout, out);
        }
    }
    types.pay(out)?;
    if types.too_deep.get() {
        return Err(BufferTablesError::TooDeep { limit: MAX_NESTING });
    }
    if types.layout.too_deep() {
        return Err(BufferTablesError::TooDeep {
            limit: crate::dxil::metadata::layout::MAX_DEPTH,
        });
    }
    Ok(())
}

impl Types<'_> {
    fn ty(&self, id: TypeId) -> Option<&Type> {
        self.module.ty(id)
    }

    /// The pointee of a resource's HLSL type.
    fn pointee(&self, resource: &Resource) -> Option<TypeId> {
        match self.ty(resource.hlsl_type?)? {
            Type::Pointer { pointee, .. } => Some(*pointee),
            _ => None,
        }
    }

    /// `ty` with every array level removed (more than [`MAX_NESTING`] is
    /// noted as too deep).
    fn strip_arrays(&self, mut ty: TypeId) -> TypeId {
        let mut levels = 0;
        while let Some(Type::Array { element, .. }) = self.ty(ty) {
            if levels == MAX_NESTING {
                self.too_deep.set(true);
                break;
            }
            ty = *element;
            levels += 1;
        }
        ty
    }

    fn struct_name(&self, ty: TypeId) -> Option<&[u8]> {
        match self.ty(ty)? {
            Type::Struct(st) => Some(st.name.as_deref().unwrap_or(b"")),
            _ => None,
        }
    }

    fn is_struct(&self, ty: TypeId) -> bool {
        matches!(self.ty(ty), Some(Type::Struct(_)))
    }

    /// HLMatrixType::isa: a named struct whose name starts `class.matrix.`.
    fn is_matrix(&self, ty: TypeId) -> bool {
        matches!(self.ty(ty), Some(Type::Struct(st))
            if st.name.as_deref().is_some_and(|n| n.starts_with(b"class.matrix.")))
    }

    fn struct_elements(&self, ty: TypeId) -> &[TypeId] {
        match self.ty(ty) {
            Some(Type::Struct(st)) => st.body.as_deref().unwrap_or(&[]),
            _ => &[],
        }
    }

    fn alloc_size(&self, ty: TypeId) -> u64 {
        self.layout.alloc_size(self.module, ty).unwrap_or(0)
    }
}

/// A constant buffer or tbuffer.
fn write_cbuffer(types: &Types<'_>, buffer: &Resource, keyword: &str, out: &mut String) {
    let name = String::from_utf8_lossy(&buffer.name);
    let _ = write!(out, "; {keyword} {name}\n; {{\n;\n");
    // ConstantBuffer<T> b[2]: the element type (the count is in the bindings).
    let ty = types.pointee(buffer).map(|ty| match types.ty(ty) {
        Some(Type::Array { element, .. }) => *element,
        _ => ty,
    });
    let annotation = ty
        .filter(|ty| types.is_struct(*ty))
        .and_then(|ty| Some((ty, types.annotations.struct_annotation(ty)?)));
    match annotation {
        None if keyword == "tbuffer" => out.push_str(";   (type annotation not present)\n;\n"),
        None => {
            let _ = write!(
                out,
                ";   [{} x i8] (type annotation not present)\n;\n",
                buffer.cbuffer_size()
            );
        }
        Some((ty, annotation)) => {
            let size = if keyword == "tbuffer" {
                annotation.cbuffer_size
            } else {
                buffer.cbuffer_size()
            };
            write_struct(
                types,
                ty,
                None,
                &name,
                0,
                3,
                OFFSET_INDENT,
                u64::from(size),
                0,
                out,
            );
        }
    }
    out.push_str("; }\n;\n");
}

/// A structured buffer's element layout.
fn write_structured_buffer(
    types: &Types<'_>,
    buffer: &Resource,
    data_layout: bool,
    out: &mut String,
) {
    let name = String::from_utf8_lossy(&buffer.name);
    let _ = write!(out, "; Resource bind info for {name}\n; {{\n;\n");
    // The buffer's class struct (`%"class.StructuredBuffer<T>" = type { T }`).
    let class = types.pointee(buffer).map(|ty| types.strip_arrays(ty));
    let element = class.and_then(|class| types.struct_elements(class).first().copied());
    match (class, element) {
        (Some(class), Some(element)) if !types.is_struct(element) || types.is_matrix(element) => {
            let size = types.alloc_size(class);
            match types.annotations.struct_annotation(class) {
                None => {
                    let _ = writeln!(out, ";   [{size} x i8] (type annotation not present)");
                }
                Some(annotation) => {
                    let mut field = annotation.fields.first().cloned().unwrap_or_default();
                    field.name = Some(b"$Element".to_vec());
                    write_field(
                        types,
                        element,
                        &field,
                        None,
                        0,
                        3,
                        OFFSET_INDENT,
                        size,
                        0,
                        out,
                    );
                }
            }
            out.push_str(";\n");
        }
        (Some(_), Some(element)) => {
            let size = types.alloc_size(element);
            match types.annotations.struct_annotation(element) {
                None => {
                    let _ = writeln!(out, ";   [{size} x i8] (type annotation not present)");
                }
                Some(_) => {
                    let layout = data_layout.then_some(&types.layout);
                    let var = if types.semicolon {
                        "$Element"
                    } else {
                        "$Element;"
                    };
                    write_struct(
                        types,
                        element,
                        layout,
                        var,
                        0,
                        3,
                        OFFSET_INDENT,
                        size,
                        0,
                        out,
                    );
                }
            }
        }
        _ => out.push_str(";   [0 x i8] (type annotation not present)\n"),
    }
    out.push_str("; }\n;\n");
}

/// dxc's `PrintStructLayout`: `struct NAME { fields } var; ; Offset: … Size: …`.
/// `layout` is the data layout for structured buffers (`None`: the
/// annotations' constant-buffer offsets).
#[allow(clippy::too_many_arguments)]
fn write_struct(
    types: &Types<'_>,
    ty: TypeId,
    layout: Option<&DataLayout>,
    var_name: &str,
    offset: u64,
    struct_indent: usize,
    offset_indent: usize,
    size: u64,
    depth: u32,
    out: &mut String,
) {
    let name = types.struct_name(ty).unwrap_or(b"");
    out.push(';');
    indent(out, struct_indent);
    let _ = writeln!(out, "struct {}", String::from_utf8_lossy(name));
    out.push(';');
    indent(out, struct_indent);
    out.push_str("{\n;\n");
    let field_indent = struct_indent + 4;
    match types.annotations.struct_annotation(ty) {
        None => {
            out.push(';');
            indent(out, field_indent);
            if size == 0 {
                out.push_str("/* empty struct */\n");
            } else {
                let _ = writeln!(out, "[{size} x i8] (type annotation not present)");
            }
        }
        Some(annotation) => {
            let elements = types.struct_elements(ty);
            let struct_layout = layout.and_then(|l| l.struct_layout(types.module, ty));
            for (index, &element) in elements.iter().enumerate() {
                // Past the budget the table stops; the caller reports it.
                if types.pay(out).is_err() {
                    break;
                }
                let field = annotation.fields.get(index).cloned().unwrap_or_default();
                let field_offset = match &struct_layout {
                    Some(sl) => offset + sl.offsets.get(index).copied().unwrap_or(0),
                    None => offset + u64::from(field.cbuffer_offset),
                };
                if depth >= MAX_NESTING {
                    types.too_deep.set(true);
                    break;
                }
                write_field(
                    types,
                    element,
                    &field,
                    layout,
                    field_offset,
                    field_indent,
                    offset_indent.saturating_sub(4),
                    0,
                    depth + 1,
                    out,
                );
            }
        }
    }
    out.push(';');
    indent(out, struct_indent);
    out.push('\n');
    out.push(';');
    indent(out, struct_indent);
    out.push_str("} ");
    let mut var = var_name.to_string();
    if types.semicolon {
        var.push(';');
    }
    ljust(out, &var, offset_indent.saturating_sub(2));
    let _ = write!(out, "; Offset:");
    rjust(out, &offset.to_string(), 5);
    if size != 0 {
        out.push_str(" Size: ");
        rjust(out, &size.to_string(), 5);
    }
    out.push_str("\n;\n");
}

/// dxc's `PrintFieldLayout`.
#[allow(clippy::too_many_arguments)]
fn write_field(
    types: &Types<'_>,
    ty: TypeId,
    field: &FieldAnnotation,
    layout: Option<&DataLayout>,
    offset: u64,
    field_indent: usize,
    offset_indent: usize,
    size: u64,
    depth: u32,
    out: &mut String,
) {
    let field_name = String::from_utf8_lossy(field.name.as_deref().unwrap_or(b"")).into_owned();
    if types.is_struct(ty) && field.matrix.is_none() {
        write_struct(
            types,
            ty,
            layout,
            &field_name,
            offset,
            field_indent,
            offset_indent,
            0,
            depth,
            out,
        );
        return;
    }
    let mut element = ty;
    let mut array_size: u64 = 0;
    let mut array_level = 0;
    if !types.is_matrix(element) && matches!(types.ty(element), Some(Type::Array { .. })) {
        array_size = 1;
        while let Some(Type::Array {
            len,
            element: inner,
        }) = types.ty(element)
        {
            if types.is_matrix(element) {
                break;
            }
            if array_level >= MAX_NESTING {
                types.too_deep.set(true);
                break;
            }
            array_size = array_size.saturating_mul(*len);
            element = *inner;
            array_level += 1;
        }
    }
    if let Some(matrix) = field.matrix {
        let divisor = match matrix.orientation {
            MatrixOrientation::RowMajor => Some(matrix.rows),
            MatrixOrientation::ColumnMajor => Some(matrix.cols),
            _ => None,
        };
        if let Some(divisor) = divisor {
            array_size = array_size
                .checked_div(u64::from(divisor))
                .unwrap_or(array_size);
        }
        if let Some(Type::Vector { element: inner, .. }) = types.ty(element) {
            element = *inner;
        } else if types.is_matrix(element) {
            element = matrix_register_type(types, element).unwrap_or(element);
        }
        if array_level == 1 {
            array_size = 0;
        }
    }
    if !types.is_matrix(element) && types.is_struct(element) {
        let mut name = field_name;
        if array_size != 0 {
            let _ = write!(name, "[{array_size}]");
        }
        name.push(';');
        write_struct(
            types,
            element,
            layout,
            &name,
            offset,
            field_indent,
            offset_indent,
            0,
            depth,
            out,
        );
        return;
    }
    out.push(';');
    indent(out, field_indent);
    let text = type_and_name(types, ty, field, &field_name, array_size);
    ljust(out, &text, offset_indent);
    out.push_str("; Offset:");
    rjust(out, &offset.to_string(), 5);
    if size != 0 {
        out.push_str(" Size: ");
        rjust(out, &size.to_string(), 5);
    }
    out.push('\n');
}

/// A `class.matrix.T.RxC` struct's register element type (its one member,
/// an array of vectors, down to the scalar).
fn matrix_register_type(types: &Types<'_>, ty: TypeId) -> Option<TypeId> {
    let mut inner = *types.struct_elements(ty).first()?;
    for _ in 0..MAX_NESTING {
        match types.ty(inner)? {
            Type::Array { element, .. } | Type::Vector { element, .. } => inner = *element,
            _ => return Some(inner),
        }
    }
    None
}

/// dxc's `PrintTypeAndName`: `float4 name[3];`, `row_major float4x4 m;`.
fn type_and_name(
    types: &Types<'_>,
    ty: TypeId,
    field: &FieldAnnotation,
    name: &str,
    array_size: u64,
) -> String {
    let ty = types.strip_arrays(ty);
    let comp = field.comp_type().hlsl_name(types.min_precision);
    let mut text = String::new();
    if let Some(matrix) = field.matrix {
        match matrix.orientation {
            MatrixOrientation::RowMajor => text.push_str("row_major "),
            MatrixOrientation::ColumnMajor => text.push_str("column_major "),
            _ => {}
        }
        let _ = write!(text, "{comp}{}x{}", matrix.rows, matrix.cols);
    } else if let Some(Type::Vector { len, .. }) = types.ty(ty) {
        let _ = write!(text, "{comp}{len}");
    } else {
        text.push_str(comp);
    }
    let _ = write!(text, " {name}");
    if array_size != 0 {
        let _ = write!(text, "[{array_size}]");
    }
    text.push(';');
    text
}

/// `; Resource Bindings:`: constant buffers, samplers, SRVs, UAVs.
pub fn write_resource_bindings(metadata: &DxilMetadata, release: &DxcRelease, out: &mut String) {
    out.push_str(
        ";\n; Resource Bindings:\n;\n\
         ; Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n\
         ; ------------------------------ ---------- ------- ----------- ------- -------------- ------\n",
    );
    let resources = metadata.module_resources();
    for resource in resources
        .cbuffers
        .iter()
        .chain(&resources.samplers)
        .chain(&resources.srvs)
        .chain(&resources.uavs)
    {
        write_binding(resource, release, out);
    }
    out.push_str(";\n");
}

/// dxc's `GetResDimName`.
pub fn dimension_name(kind: ResourceKind) -> &'static str {
    const NAMES: [&str; 19] = [
        "invalid",
        "1d",
        "2d",
        "2dMS",
        "3d",
        "cube",
        "1darray",
        "2darray",
        "2darrayMS",
        "cubearray",
        "buf",
        "rawbuf",
        "structbuf",
        "cbuffer",
        "sampler",
        "tbuffer",
        "ras",
        "fbtex2d",
        "fbtex2darray",
    ];
    usize::try_from(kind.raw())
        .ok()
        .and_then(|i| NAMES.get(i))
        .copied()
        .unwrap_or("invalid")
}

fn write_binding(resource: &Resource, release: &DxcRelease, out: &mut String) {
    out.push_str("; ");
    ljust(out, &String::from_utf8_lossy(&resource.name), 31);
    rjust(out, resource.class.name(), 10);
    let view = matches!(resource.class, ResourceClass::Srv | ResourceClass::Uav);
    let format = if !view {
        "NA"
    } else {
        match resource.kind {
            ResourceKind::RawBuffer => "byte",
            ResourceKind::StructuredBuffer => "struct",
            _ => resource.element_type().short_name(),
        }
    };
    rjust(out, format, 8);
    let dimension = if !view {
        "NA".to_string()
    } else {
        match resource.kind {
            ResourceKind::RawBuffer | ResourceKind::StructuredBuffer => {
                match (&resource.detail, resource.has_counter()) {
                    (ResourceDetail::Srv { .. }, _) => "r/o".into(),
                    (_, false) => "r/w".into(),
                    (_, true) => "r/w+cnt".into(),
                }
            }
            ResourceKind::TypedBuffer => "buf".into(),
            ResourceKind::Texture2DMS | ResourceKind::Texture2DMSArray => {
                let mut name = dimension_name(resource.kind).to_string();
                let count = resource.sample_count();
                if count != 0 {
                    if release.has(ListingRule::SampleCountDigits) {
                        let _ = write!(name, "{count}");
                    } else {
                        // dxc before 1.6 appended the count as one char.
                        name.push(char::from((count & 0xff) as u8));
                    }
                }
                name
            }
            kind => dimension_name(kind).into(),
        }
    };
    rjust(out, &dimension, 12);
    rjust(
        out,
        &format!("{}{}", resource.class.id_prefix(), resource.id),
        8,
    );
    let mut bind = format!("{}{}", resource.class.bind_prefix(), resource.lower_bound);
    if resource.space != 0 {
        let _ = write!(bind, ",space{}", resource.space);
    }
    rjust(out, &bind, 15);
    if resource.range_size == u32::MAX {
        rjust(out, "unbounded", 6);
    } else {
        rjust(out, &resource.range_size.to_string(), 6);
    }
    out.push('\n');
}

/// Why a serialized ViewID state could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("dx.viewIdState: the serialized state ends at word {word} of {len}")]
pub struct ViewIdStateError {
    /// The word where more data was needed.
    pub word: usize,
    /// The state's length in words.
    pub len: usize,
}

/// A decoded ViewID state (dxc's `DxilViewIdState::Deserialize`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ViewIdState {
    /// Input signature scalars.
    pub inputs: u32,
    /// Output scalars per stream (one stream unless a geometry shader).
    pub outputs: Vec<u32>,
    /// Per stream: the outputs that depend on the view ID.
    pub outputs_dependent_on_view_id: Vec<Vec<u32>>,
    /// Per stream: for each output (ascending) the inputs it depends on.
    pub inputs_contributing_to_outputs: Vec<Vec<(u32, Vec<u32>)>>,
    /// Patch constant (hull, domain) or primitive (mesh) scalars.
    pub patch_constant_or_primitive: Option<u32>,
    /// Hull / mesh: patch-constant or primitive outputs dependent on the view ID.
    pub pc_outputs_dependent_on_view_id: Vec<u32>,
    /// Hull / mesh: inputs contributing to each patch-constant or primitive output.
    pub inputs_contributing_to_pc_outputs: Vec<(u32, Vec<u32>)>,
    /// Domain: patch-constant inputs contributing to each output.
    pub pc_inputs_contributing_to_outputs: Vec<(u32, Vec<u32>)>,
}

impl ViewIdState {
    /// Decodes `data` for a shader of `kind` (`uses_view_id`: shader flag
    /// bit 21, which says whether the view-ID masks are present).
    pub fn decode(
        data: &[u32],
        kind: Option<ShaderKind>,
        uses_view_id: bool,
    ) -> Result<ViewIdState, ViewIdStateError> {
        let mut reader = Words { data, at: 0 };
        let mut state = ViewIdState {
            inputs: reader.next()?,
            ..ViewIdState::default()
        };
        let streams = if kind == Some(ShaderKind::Geometry) {
            4
        } else {
            1
        };
        for _ in 0..streams {
            let outputs = reader.next()?;
            state.outputs.push(outputs);
            let dependent = if uses_view_id {
                reader.mask(outputs)?
            } else {
                Vec::new()
            };
            state.outputs_dependent_on_view_id.push(dependent);
            let table = reader.table(state.inputs, outputs)?;
            state.inputs_contributing_to_outputs.push(table);
        }
        if matches!(
            kind,
            Some(ShaderKind::Hull | ShaderKind::Domain | ShaderKind::Mesh)
        ) {
            let pcs = reader.next()?;
            state.patch_constant_or_primitive = Some(pcs);
            if kind == Some(ShaderKind::Domain) {
                let outputs = state.outputs.first().copied().unwrap_or(0);
                state.pc_inputs_contributing_to_outputs = reader.table(pcs, outputs)?;
            } else {
                if uses_view_id {
                    state.pc_outputs_dependent_on_view_id = reader.mask(pcs)?;
                }
                state.inputs_contributing_to_pc_outputs = reader.table(state.inputs, pcs)?;
            }
        }
        Ok(state)
    }
}

struct Words<'a> {
    data: &'a [u32],
    at: usize,
}

impl Words<'_> {
    fn error(&self) -> ViewIdStateError {
        ViewIdStateError {
            word: self.at,
            len: self.data.len(),
        }
    }

    fn next(&mut self) -> Result<u32, ViewIdStateError> {
        let word = *self.data.get(self.at).ok_or_else(|| self.error())?;
        self.at += 1;
        Ok(word)
    }

    fn take(&mut self, words: u64) -> Result<&[u32], ViewIdStateError> {
        let end = usize::try_from(words)
            .ok()
            .and_then(|w| self.at.checked_add(w))
            .filter(|end| *end <= self.data.len())
            .ok_or_else(|| self.error())?;
        let slice = &self.data[self.at..end];
        self.at = end;
        Ok(slice)
    }

    /// A bit set of `count` entries: the indices that are set.
    fn mask(&mut self, count: u32) -> Result<Vec<u32>, ViewIdStateError> {
        let words = self.take(u64::from(count).div_ceil(32))?;
        Ok(set_bits(words, count))
    }

    /// `inputs` rows of `outputs`-bit sets: per output, its inputs.
    fn table(
        &mut self,
        inputs: u32,
        outputs: u32,
    ) -> Result<Vec<(u32, Vec<u32>)>, ViewIdStateError> {
        let row_words = u64::from(outputs).div_ceil(32);
        let row_len = usize::try_from(row_words).map_err(|_| self.error())?;
        let words = self.take(u64::from(inputs).saturating_mul(row_words))?;
        let mut per_output: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
        if row_len == 0 {
            return Ok(Vec::new());
        }
        for (input, row) in words.chunks_exact(row_len).enumerate() {
            for output in set_bits(row, outputs) {
                per_output
                    .entry(output)
                    .or_default()
                    .push(u32::try_from(input).unwrap_or(u32::MAX));
            }
        }
        Ok(per_output.into_iter().collect())
    }
}

fn set_bits(words: &[u32], count: u32) -> Vec<u32> {
    let mut set = Vec::new();
    for (index, word) in words.iter().enumerate() {
        let mut bits = *word;
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            let Some(position) = u32::try_from(index)
                .ok()
                .and_then(|i| i.checked_mul(32))
                .and_then(|i| i.checked_add(bit))
            else {
                continue;
            };
            if position < count {
                set.push(position);
            }
        }
    }
    set
}

/// `; ViewId state:` (nothing when the module has no `dx.viewIdState`).
pub fn write_view_id_state(
    metadata: &DxilMetadata,
    out: &mut String,
) -> Result<(), ViewIdStateError> {
    let Some(data) = &metadata.view_id_state else {
        return Ok(());
    };
    let kind = metadata.shader_kind();
    let uses_view_id = metadata.shader_flags() & crate::dxil::metadata::SHADER_FLAG_VIEW_ID != 0;
    let state = ViewIdState::decode(data, kind, uses_view_id)?;
    let gs = kind == Some(ShaderKind::Geometry);
    let _ = write!(
        out,
        ";\n; ViewId state:\n;\n; Number of inputs: {}",
        state.inputs
    );
    let outputs = |stream: usize| state.outputs.get(stream).copied().unwrap_or(0);
    if gs {
        let _ = write!(
            out,
            ", outputs per stream: {{ {}, {}, {}, {} }}",
            outputs(0),
            outputs(1),
            outputs(2),
            outputs(3)
        );
    } else {
        let _ = write!(out, ", outputs: {}", outputs(0));
    }
    let pcs = state.patch_constant_or_primitive.unwrap_or(0);
    match kind {
        Some(ShaderKind::Hull | ShaderKind::Domain) => {
            let _ = write!(out, ", patchconst: {pcs}");
        }
        Some(ShaderKind::Mesh) => {
            let _ = write!(out, ", primitive outputs: {pcs}");
        }
        _ => {}
    }
    out.push('\n');
    let empty = Vec::new();
    let dependent = |stream: usize| {
        state
            .outputs_dependent_on_view_id
            .get(stream)
            .unwrap_or(&empty)
    };
    // The output tables: one per stream that has outputs for a geometry
    // shader, else one.
    let for_each_output_table = |out: &mut String, write: &dyn Fn(&str, usize, &mut String)| {
        if gs {
            for stream in (0..4).filter(|&s| outputs(s) > 0) {
                write(&format!("Outputs for Stream {stream}"), stream, out);
            }
        } else {
            write("Outputs", 0, out);
        }
    };
    for_each_output_table(out, &|title, stream, out| {
        write_dependent(title, dependent(stream), out)
    });
    match kind {
        Some(ShaderKind::Hull) => {
            write_dependent("PCOutputs", &state.pc_outputs_dependent_on_view_id, out)
        }
        Some(ShaderKind::Mesh) => write_dependent(
            "Primitive Outputs",
            &state.pc_outputs_dependent_on_view_id,
            out,
        ),
        _ => {}
    }
    let no_table = Vec::new();
    let table = |stream: usize| {
        state
            .inputs_contributing_to_outputs
            .get(stream)
            .unwrap_or(&no_table)
    };
    for_each_output_table(out, &|title, stream, out| {
        write_contributing("Inputs", title, table(stream), out)
    });
    match kind {
        Some(ShaderKind::Hull) => write_contributing(
            "Inputs",
            "PCOutputs",
            &state.inputs_contributing_to_pc_outputs,
            out,
        ),
        Some(ShaderKind::Mesh) => write_contributing(
            "Inputs",
            "Primitive Outputs",
            &state.inputs_contributing_to_pc_outputs,
            out,
        ),
        Some(ShaderKind::Domain) => write_contributing(
            "PCInputs",
            "Outputs",
            &state.pc_inputs_contributing_to_outputs,
            out,
        ),
        _ => {}
    }
    out.push_str(";\n");
    Ok(())
}

fn write_dependent(title: &str, outputs: &[u32], out: &mut String) {
    let list: Vec<String> = outputs.iter().map(u32::to_string).collect();
    let _ = writeln!(
        out,
        "; {title} dependent on ViewId: {{ {} }}",
        list.join(", ")
    );
}

fn write_contributing(inputs: &str, outputs: &str, table: &[(u32, Vec<u32>)], out: &mut String) {
    let _ = writeln!(out, "; {inputs} contributing to computation of {outputs}:");
    for (output, sources) in table {
        let list: Vec<String> = sources.iter().map(u32::to_string).collect();
        let _ = writeln!(
            out,
            ";   output {output} depends on inputs: {{ {} }}",
            list.join(", ")
        );
    }
}
