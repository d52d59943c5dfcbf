//! A typed reading of a DXIL module's `dx.*` named metadata: the DXIL and
//! validator versions, the shader model, the resources, the type
//! annotations, the entry points with their signatures and properties, and
//! the ViewID state (docs/format/dxil-metadata.md; dxc's
//! `DxilMetadataHelper.cpp` is the reference reader).
//!
//! [`DxilMetadata::read`] interprets the metadata of a [`Module`] the way
//! dxc's `DxilModule::LoadDxilMetadata` does. What a field refers to stays a
//! reference into the module ([`TypeId`], [`ValueId`], [`MetadataId`]), so
//! that the listing header ([`crate::listing::dxil::header`]) and reflection can
//! follow it; [`layout`] computes struct sizes and offsets with the
//! module's data layout.
//!
//! Malformed metadata (a field that is not an integer, a node with the wrong
//! operand count) is a [`MetadataError`], except in `dx.typeAnnotations`,
//! which dxc reads as optional: there an error leaves
//! [`DxilMetadata::type_annotations`] empty and is kept in
//! [`DxilMetadata::type_annotation_error`].

mod enums;
pub mod layout;
mod node;
mod read;

pub use enums::{
    interpolation_name, CompType, MatrixOrientation, ParamInputQualifier, SamplerFeedbackType,
    SamplerKind,
};

pub use node::{node_properties, NodeId, NodeIo, NodeProperties, NodeRecordType};

use crate::budget::Budget;
use crate::dxil::model::{MetadataId, Module, TypeId, ValueId};
use crate::psv0::{InterpolationMode, ResourceKind, SemanticKind};
use crate::ShaderKind;
use read::{
    bool_at, int, node, operand, required, string, string_at, tag_values, uint, uint_at, uint_list,
    value, Md,
};

/// Result of a metadata reading.
pub type Result<T> = std::result::Result<T, MetadataError>;

/// Metadata that does not have the shape DXIL gives it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MetadataError {
    /// A reference that should be a node is something else or out of range.
    #[error("{what}: metadata !{} is not a node", .id.0)]
    NotANode {
        /// What was read.
        what: &'static str,
        /// The metadata.
        id: MetadataId,
    },
    /// Reading the metadata as dxc does (each shared node once per use)
    /// expands past the budget ([`crate::budget`]).
    #[error("metadata !{}: reading the dx.* metadata expands past the work budget of {limit} units (shared nodes read once per use)", .id.0)]
    OverBudget {
        /// The node being read when the budget ran out.
        id: MetadataId,
        /// The budget's limit.
        limit: u64,
    },
    /// A node has fewer operands than the field needs, or a required
    /// operand is null.
    #[error("{what}: operand {index} is missing or null")]
    MissingOperand {
        /// What was read.
        what: &'static str,
        /// The operand's index.
        index: usize,
    },
    /// A node has an operand count DXIL does not give it.
    #[error("{what}: metadata !{} has {found} operands, not {expected}", .id.0)]
    OperandCount {
        /// What was read.
        what: &'static str,
        /// The node.
        id: MetadataId,
        /// Its operand count.
        found: usize,
        /// The count DXIL gives it.
        expected: usize,
    },
    /// An operand that should be an integer constant is not.
    #[error("{what}: metadata !{} is not an integer", .id.0)]
    NotAnInteger {
        /// What was read.
        what: &'static str,
        /// The metadata.
        id: MetadataId,
    },
    /// An operand that should be a string is not.
    #[error("{what}: metadata !{} is not a string", .id.0)]
    NotAString {
        /// What was read.
        what: &'static str,
        /// The metadata.
        id: MetadataId,
    },
    /// A tag/value list with an odd number of operands.
    #[error("{what}: tag list !{} has an odd number of operands", .id.0)]
    OddTagList {
        /// What was read.
        what: &'static str,
        /// The list.
        id: MetadataId,
    },
    /// A named metadata with more (or fewer) operands than DXIL allows.
    #[error("!{name} has {found} operands")]
    NamedCount {
        /// The named metadata.
        name: &'static str,
        /// Its operand count.
        found: usize,
    },
    /// A type annotation names something that is not a struct (or a
    /// function annotation something that is not a function).
    #[error("{what}: metadata !{} does not name a {expected}", .id.0)]
    NotAType {
        /// What was read.
        what: &'static str,
        /// The metadata.
        id: MetadataId,
        /// What it should name.
        expected: &'static str,
    },
}

impl MetadataError {
    /// The metadata the error is about, when it names one.
    pub fn id(&self) -> Option<MetadataId> {
        match self {
            MetadataError::NotANode { id, .. }
            | MetadataError::OverBudget { id, .. }
            | MetadataError::OperandCount { id, .. }
            | MetadataError::NotAnInteger { id, .. }
            | MetadataError::NotAString { id, .. }
            | MetadataError::OddTagList { id, .. }
            | MetadataError::NotAType { id, .. } => Some(*id),
            MetadataError::MissingOperand { .. } | MetadataError::NamedCount { .. } => None,
        }
    }
}

/// `dx.shaderModel`: `!{!"ps", i32 6, i32 0}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShaderModel {
    /// The kind as written (`ps`, `vs`, `cs`, `lib`, `as`, `ms`, …).
    pub kind_name: Vec<u8>,
    /// The kind (`None` for a name DXIL does not define).
    pub kind: Option<ShaderKind>,
    /// Major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

impl ShaderModel {
    /// The kind a shader-model name stands for (`ps` → Pixel, …).
    pub fn kind_of(name: &[u8]) -> Option<ShaderKind> {
        Some(match name {
            b"ps" => ShaderKind::Pixel,
            b"vs" => ShaderKind::Vertex,
            b"gs" => ShaderKind::Geometry,
            b"hs" => ShaderKind::Hull,
            b"ds" => ShaderKind::Domain,
            b"cs" => ShaderKind::Compute,
            b"lib" => ShaderKind::Library,
            b"ms" => ShaderKind::Mesh,
            b"as" => ShaderKind::Amplification,
            _ => return None,
        })
    }
}

/// The four resource classes (`DXIL::ResourceClass`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceClass {
    /// Shader resource view (`t`).
    Srv,
    /// Unordered access view (`u`).
    Uav,
    /// Constant buffer (`cb`).
    CBuffer,
    /// Sampler (`s`).
    Sampler,
}

impl ResourceClass {
    /// dxc's class name in the bindings table (`texture`, `UAV`, `cbuffer`, `sampler`).
    pub fn name(self) -> &'static str {
        match self {
            ResourceClass::Srv => "texture",
            ResourceClass::Uav => "UAV",
            ResourceClass::CBuffer => "cbuffer",
            ResourceClass::Sampler => "sampler",
        }
    }

    /// The ID prefix (`T`, `U`, `CB`, `S`).
    pub fn id_prefix(self) -> &'static str {
        match self {
            ResourceClass::Srv => "T",
            ResourceClass::Uav => "U",
            ResourceClass::CBuffer => "CB",
            ResourceClass::Sampler => "S",
        }
    }

    /// The register prefix (`t`, `u`, `cb`, `s`).
    pub fn bind_prefix(self) -> &'static str {
        match self {
            ResourceClass::Srv => "t",
            ResourceClass::Uav => "u",
            ResourceClass::CBuffer => "cb",
            ResourceClass::Sampler => "s",
        }
    }
}

/// One record of `dx.resources` (or an entry point's resource list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// The class (which list the record is in).
    pub class: ResourceClass,
    /// Field 0: the ID, unique within the class.
    pub id: u32,
    /// Field 1: the global symbol (a global variable or an `undef`
    /// constant; `None` when the field is not a value).
    pub symbol: Option<ValueId>,
    /// The symbol's HLSL type: the type of field 1 (a pointer to the
    /// resource struct or an array of it), or for SM 6.6+ the destination
    /// type of the bitcast that field 1 is.
    pub hlsl_type: Option<TypeId>,
    /// Field 2: the name.
    pub name: Vec<u8>,
    /// Field 3: the register space.
    pub space: u32,
    /// Field 4: the lower bound (`u32::MAX`: not bound).
    pub lower_bound: u32,
    /// Field 5: the range size (`u32::MAX`: unbounded).
    pub range_size: u32,
    /// The resource kind (field 6 of SRVs and UAVs; `CBuffer`, `TBuffer`
    /// or `Sampler` for the others).
    pub kind: ResourceKind,
    /// What the class adds.
    pub detail: ResourceDetail,
    /// The extended properties (last field) as tag/value pairs, read into
    /// `detail` where DXIL names the tag.
    pub properties: Vec<(u32, Option<MetadataId>)>,
}

/// The class-specific fields of a [`Resource`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceDetail {
    /// An SRV: `!{id, symbol, name, space, lower, range, kind, sample count, props}`.
    Srv {
        /// Sample count (multisampled textures).
        sample_count: u32,
        /// Element type of a typed resource (property tag 0).
        element_type: CompType,
        /// Element stride (property tag 1 for structured buffers; 1 for raw
        /// buffers and 4 otherwise by default).
        element_stride: u32,
    },
    /// A UAV: `!{id, symbol, name, space, lower, range, kind,
    /// globallycoherent, counter, rov, props}`.
    Uav {
        /// `globallycoherent`.
        globally_coherent: bool,
        /// The structured buffer has a hidden counter.
        has_counter: bool,
        /// Rasterizer ordered view.
        rasterizer_ordered: bool,
        /// Element type of a typed resource (property tag 0).
        element_type: CompType,
        /// Element stride (property tag 1).
        element_stride: u32,
        /// Sampler feedback type (property tag 2).
        sampler_feedback: Option<SamplerFeedbackType>,
        /// Used by 64-bit atomics (property tag 3).
        atomic64_use: bool,
        /// `reordercoherent` (property tag 4).
        reorder_coherent: bool,
    },
    /// A constant buffer: `!{id, symbol, name, space, lower, range, size, props}`.
    CBuffer {
        /// Size in bytes.
        size: u32,
    },
    /// A sampler: `!{id, symbol, name, space, lower, range, sampler kind, props}`.
    Sampler {
        /// The sampler kind.
        sampler_kind: SamplerKind,
    },
}

impl Resource {
    /// Whether the resource is a structured buffer.
    pub fn is_structured_buffer(&self) -> bool {
        self.kind == ResourceKind::StructuredBuffer
    }

    /// The UAV's counter flag (false for other classes).
    pub fn has_counter(&self) -> bool {
        matches!(
            self.detail,
            ResourceDetail::Uav {
                has_counter: true,
                ..
            }
        )
    }

    /// The SRV's sample count (0 for other classes).
    pub fn sample_count(&self) -> u32 {
        match self.detail {
            ResourceDetail::Srv { sample_count, .. } => sample_count,
            _ => 0,
        }
    }

    /// The element type of a typed SRV or UAV (`Invalid` otherwise).
    pub fn element_type(&self) -> CompType {
        match self.detail {
            ResourceDetail::Srv { element_type, .. } | ResourceDetail::Uav { element_type, .. } => {
                element_type
            }
            _ => CompType::Invalid,
        }
    }

    /// The constant buffer's size in bytes (0 for other classes).
    pub fn cbuffer_size(&self) -> u32 {
        match self.detail {
            ResourceDetail::CBuffer { size } => size,
            _ => 0,
        }
    }

    /// The resource's struct type in `module`: the pointee of its HLSL
    /// type with every array level removed (a cbuffer's layout struct, a
    /// `class.StructuredBuffer<T>`, a `class.Texture2D<…>`), with the array
    /// dimensions removed, outermost first (`T b[2][3]` gives `[2, 3]`).
    pub fn struct_type(&self, module: &Module) -> Option<(TypeId, Vec<u64>)> {
        use crate::dxil::model::Type;
        let mut ty = match module.ty(self.hlsl_type?)? {
            Type::Pointer { pointee, .. } => *pointee,
            _ => return None,
        };
        let mut dims = Vec::new();
        while let Some(Type::Array { len, element }) = module.ty(ty) {
            if dims.len() >= layout::MAX_DEPTH as usize {
                return None;
            }
            dims.push(*len);
            ty = *element;
        }
        matches!(module.ty(ty), Some(Type::Struct(_))).then_some((ty, dims))
    }

    /// A structured buffer's element type: the first member of its
    /// `class.StructuredBuffer<T>` struct (dxc's `GetRetType`).
    pub fn element_struct_member(&self, module: &Module) -> Option<TypeId> {
        use crate::dxil::model::Type;
        let (class, _) = self.struct_type(module)?;
        match module.ty(class)? {
            Type::Struct(st) => st.body.as_ref()?.first().copied(),
            _ => None,
        }
    }
}

/// The four resource lists, each in metadata order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resources {
    /// SRVs.
    pub srvs: Vec<Resource>,
    /// UAVs.
    pub uavs: Vec<Resource>,
    /// Constant buffers.
    pub cbuffers: Vec<Resource>,
    /// Samplers.
    pub samplers: Vec<Resource>,
}

/// A matrix field's shape and orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatrixAnnotation {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// Row or column major.
    pub orientation: MatrixOrientation,
}

/// A struct field's (or parameter's) annotation: a tag/value list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldAnnotation {
    /// Tag 6: the field name.
    pub name: Option<Vec<u8>>,
    /// Tag 3: the offset in a constant buffer.
    pub cbuffer_offset: u32,
    /// Tag 7: the component type.
    pub comp_type: Option<CompType>,
    /// Tag 2: matrix shape and orientation.
    pub matrix: Option<MatrixAnnotation>,
    /// Tag 4: the semantic.
    pub semantic: Option<Vec<u8>>,
    /// Tag 5: the interpolation mode.
    pub interpolation: Option<InterpolationMode>,
    /// Tag 8: `precise`.
    pub precise: bool,
    /// Tag 9: the constant-buffer variable is used.
    pub cbuffer_used: Option<bool>,
    /// Tag 10: resource properties (a constant of the module).
    pub resource_properties: Option<ValueId>,
    /// Tag 11: the bit fields packed into this field.
    pub bit_fields: Vec<FieldAnnotation>,
    /// Tag 12: a bit field's width.
    pub bit_field_width: Option<u32>,
    /// Tag 13: the vector size (long vectors).
    pub vector_size: Option<u32>,
    /// Tags DXIL does not define, as read.
    pub unknown: Vec<(u32, Option<MetadataId>)>,
}

impl FieldAnnotation {
    /// The component type, `Invalid` when the annotation has none.
    pub fn comp_type(&self) -> CompType {
        self.comp_type.unwrap_or(CompType::Invalid)
    }
}

/// The annotation of one struct type: `undef %struct.S` then `!{size,
/// field…}` in `dx.typeAnnotations`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructAnnotation {
    /// The struct type annotated.
    pub ty: TypeId,
    /// Its size in a constant buffer.
    pub cbuffer_size: u32,
    /// One annotation per field.
    pub fields: Vec<FieldAnnotation>,
    /// The struct had no fields (`!{size}` only).
    pub empty: bool,
    /// Template arguments (dxc 1.5+, an extra operand): the raw node.
    pub template_args: Option<MetadataId>,
}

/// A function parameter's (or return value's) annotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParameterAnnotation {
    /// How the parameter is passed.
    pub qualifier: ParamInputQualifier,
    /// The field-style annotation (semantic, interpolation, …).
    pub field: FieldAnnotation,
    /// Semantic indices.
    pub semantic_indices: Vec<u32>,
}

/// A function's annotation: its return value and parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionAnnotation {
    /// The function (`None` when the field is not a value).
    pub function: Option<ValueId>,
    /// The return value.
    pub ret: ParameterAnnotation,
    /// The parameters, in order.
    pub parameters: Vec<ParameterAnnotation>,
}

/// `dx.typeAnnotations`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypeAnnotations {
    /// Struct annotations, in metadata order.
    pub structs: Vec<StructAnnotation>,
    /// Function annotations, in metadata order.
    pub functions: Vec<FunctionAnnotation>,
}

impl TypeAnnotations {
    /// The annotation of struct type `ty`.
    pub fn struct_annotation(&self, ty: TypeId) -> Option<&StructAnnotation> {
        self.structs.iter().find(|s| s.ty == ty)
    }
}

/// One signature element of an entry point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureElement {
    /// Field 0: the element ID.
    pub id: u32,
    /// Field 1: the semantic name.
    pub name: Vec<u8>,
    /// Field 2: the component type.
    pub comp_type: CompType,
    /// Field 3: the semantic kind (system value).
    pub kind: SemanticKind,
    /// Field 4: the semantic indices (a system value without one reads as `[0]`, as dxc does).
    pub semantic_indices: Vec<u32>,
    /// Field 5: the interpolation mode.
    pub interpolation: InterpolationMode,
    /// Field 6: rows.
    pub rows: u32,
    /// Field 7: columns.
    pub cols: u8,
    /// Field 8: start row (-1: not allocated).
    pub start_row: i32,
    /// Field 9: start column (-1: not allocated).
    pub start_col: i8,
    /// Property tag 0: the output stream.
    pub output_stream: u32,
    /// Property tag 2: the dynamically indexed components.
    pub dynamic_index_mask: u32,
    /// Property tag 3: the components used.
    pub usage_mask: u32,
}

/// An entry point's signatures.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signatures {
    /// Inputs.
    pub inputs: Vec<SignatureElement>,
    /// Outputs (a mesh shader's vertex outputs).
    pub outputs: Vec<SignatureElement>,
    /// Patch constants (a mesh shader's primitive outputs).
    pub patch_constant_or_primitive: Vec<SignatureElement>,
}

/// Geometry shader state (property tag 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GsState {
    /// Input primitive (`DXIL::InputPrimitive`).
    pub input_primitive: u32,
    /// Maximum vertex count.
    pub max_vertex_count: u32,
    /// Active stream mask.
    pub active_stream_mask: u32,
    /// Output topology (`DXIL::PrimitiveTopology`).
    pub output_topology: u32,
    /// Instance count.
    pub instance_count: u32,
}

/// Domain shader state (property tag 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DsState {
    /// Tessellator domain.
    pub domain: u32,
    /// Input control point count.
    pub input_control_points: u32,
}

/// Hull shader state (property tag 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HsState {
    /// The patch constant function (`None` when the field is not a value).
    pub patch_constant_function: Option<ValueId>,
    /// Input control point count.
    pub input_control_points: u32,
    /// Output control point count.
    pub output_control_points: u32,
    /// Tessellator domain.
    pub domain: u32,
    /// Tessellator partitioning.
    pub partitioning: u32,
    /// Tessellator output primitive.
    pub output_primitive: u32,
    /// Maximum tessellation factor (the float's bits).
    pub max_tess_factor_bits: Option<u64>,
}

/// Mesh shader state (property tag 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MsState {
    /// Thread group size.
    pub num_threads: [u32; 3],
    /// Maximum vertex count.
    pub max_vertex_count: u32,
    /// Maximum primitive count.
    pub max_primitive_count: u32,
    /// Output topology (`DXIL::MeshOutputTopology`).
    pub output_topology: u32,
    /// Payload size in bytes.
    pub payload_size: u32,
}

/// Amplification shader state (property tag 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsState {
    /// Thread group size.
    pub num_threads: [u32; 3],
    /// Payload size in bytes.
    pub payload_size: u32,
}

/// Wave size (tag 11) or wave size range (tag 23).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaveSize {
    /// Minimum (the only value of tag 11).
    pub min: u32,
    /// Maximum (tag 23).
    pub max: Option<u32>,
    /// Preferred (tag 23).
    pub preferred: Option<u32>,
}

/// An entry point's properties (the tag/value list of its field 4).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EntryProperties {
    /// Tag 0: the shader flags (`ShaderFlags` raw bits).
    pub shader_flags: Option<u64>,
    /// Tag 1.
    pub gs: Option<GsState>,
    /// Tag 2.
    pub ds: Option<DsState>,
    /// Tag 3.
    pub hs: Option<HsState>,
    /// Tag 4: thread group size.
    pub num_threads: Option<[u32; 3]>,
    /// Tag 5: the space of automatically bound resources.
    pub auto_binding_space: Option<u32>,
    /// Tag 6: ray payload size.
    pub ray_payload_size: Option<u32>,
    /// Tag 7: ray attribute size.
    pub ray_attribute_size: Option<u32>,
    /// Tag 8: a library function's shader kind.
    pub shader_kind: Option<ShaderKind>,
    /// Tag 9.
    pub ms: Option<MsState>,
    /// Tag 10.
    pub amplification: Option<AsState>,
    /// Tags 11 and 23.
    pub wave_size: Option<WaveSize>,
    /// Tag 12: the entry's root signature (the raw node).
    pub root_signature: Option<MetadataId>,
    /// Tag 24: the group shared memory limit.
    pub group_shared_limit: Option<u32>,
    /// Work-graph node properties (tags 13–22) and tags DXIL does not
    /// define, as read.
    pub other: Vec<(u32, Option<MetadataId>)>,
}

/// Shader flag bit 21: the shader uses the view ID.
pub const SHADER_FLAG_VIEW_ID: u64 = 1 << 21;
/// Shader flag bit 23: native 16-bit types instead of minimum precision.
pub const SHADER_FLAG_NATIVE_LOW_PRECISION: u64 = 1 << 23;

/// One `dx.entryPoints` record: `!{function, name, signatures, resources, properties}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    /// The function (`None`: a library's module-level record).
    pub function: Option<ValueId>,
    /// The entry name.
    pub name: Vec<u8>,
    /// The signatures.
    pub signatures: Signatures,
    /// The resources listed by the entry (field 3).
    pub resources: Resources,
    /// The properties.
    pub properties: EntryProperties,
}

/// Everything the `dx.*` named metadata says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DxilMetadata {
    /// `dx.version`.
    pub dxil_version: Option<(u32, u32)>,
    /// `dx.valver`.
    pub validator_version: Option<(u32, u32)>,
    /// `dx.shaderModel`.
    pub shader_model: Option<ShaderModel>,
    /// `dx.resources` (empty without it).
    pub resources: Resources,
    /// `dx.typeAnnotations`.
    pub type_annotations: TypeAnnotations,
    /// Why `dx.typeAnnotations` could not be read (dxc then goes on
    /// without annotations).
    pub type_annotation_error: Option<MetadataError>,
    /// `dx.entryPoints`, in order.
    pub entry_points: Vec<EntryPoint>,
    /// `dx.viewIdState`: the serialized ViewID state (`None` without it;
    /// empty for a `zeroinitializer`).
    pub view_id_state: Option<Vec<u32>>,
}

impl DxilMetadata {
    /// Reads the `dx.*` metadata of `module`.
    pub fn read(module: &Module) -> Result<DxilMetadata> {
        let budget = Budget::for_stored(stored_size(module));
        DxilMetadata::read_within(module, &budget)
    }

    /// [`DxilMetadata::read`] spending `budget`: a unit per byte of every
    /// node's operands and string each time the reading reaches it, and
    /// the size of every entry point, signature element and resource it
    /// makes. A reading past the budget stops with
    /// [`MetadataError::OverBudget`].
    pub fn read_within(module: &Module, budget: &Budget) -> Result<DxilMetadata> {
        let module = &Md { module, budget };
        let mut metadata = DxilMetadata {
            dxil_version: version_pair(module, "dx.version")?,
            validator_version: version_pair(module, "dx.valver")?,
            ..DxilMetadata::default()
        };
        if let Some(first) = single(module, "dx.shaderModel")? {
            let ops = node(module, first, "dx.shaderModel")?;
            let kind_name = string_at(module, ops, 0, "dx.shaderModel")?;
            metadata.shader_model = Some(ShaderModel {
                kind: ShaderModel::kind_of(&kind_name),
                kind_name,
                major: uint_at(module, ops, 1, "dx.shaderModel")?,
                minor: uint_at(module, ops, 2, "dx.shaderModel")?,
            });
        }
        if let Some(list) = single(module, "dx.resources")? {
            metadata.resources = read_resources(module, Some(list))?;
        }
        if let Some(named) = module.named_metadata(b"dx.entryPoints") {
            for &entry in &named.operands {
                metadata.entry_points.push(read_entry_point(module, entry)?);
            }
        }
        match read_type_annotations(module) {
            Ok(annotations) => metadata.type_annotations = annotations,
            Err(error) => metadata.type_annotation_error = Some(error),
        }
        if let Some(state) = single(module, "dx.viewIdState")? {
            metadata.view_id_state = Some(read_view_id_state(module, state)?);
        }
        Ok(metadata)
    }

    /// The shader kind of `dx.shaderModel`.
    pub fn shader_kind(&self) -> Option<ShaderKind> {
        self.shader_model.as_ref().and_then(|sm| sm.kind)
    }

    /// The first entry point: the shader's own for a non-library module,
    /// the module-level record of a library.
    pub fn main_entry(&self) -> Option<&EntryPoint> {
        self.entry_points.first()
    }

    /// The shader flags of the main entry (0 without).
    pub fn shader_flags(&self) -> u64 {
        self.main_entry()
            .and_then(|entry| entry.properties.shader_flags)
            .unwrap_or(0)
    }

    /// Whether the module uses minimum precision rather than native 16-bit
    /// types (dxc's `DxilModule::GetUseMinPrecision`).
    pub fn uses_min_precision(&self) -> bool {
        self.shader_flags() & SHADER_FLAG_NATIVE_LOW_PRECISION == 0
    }

    /// The resources dxc's `DxilModule` loads: the main entry's list (field
    /// 3, the same node as `dx.resources`), or `dx.resources` for a module
    /// without entry points.
    pub fn module_resources(&self) -> &Resources {
        match self.main_entry() {
            Some(entry) => &entry.resources,
            None => &self.resources,
        }
    }
}

/// The one operand of named metadata `name` (`None` without it; an error
/// with more than one).
fn single(module: &Md<'_>, name: &'static str) -> Result<Option<MetadataId>> {
    let Some(named) = module.named_metadata(name.as_bytes()) else {
        return Ok(None);
    };
    match named.operands.as_slice() {
        [] => Ok(None),
        [only] => Ok(Some(*only)),
        more => Err(MetadataError::NamedCount {
            name,
            found: more.len(),
        }),
    }
}

fn version_pair(module: &Md<'_>, name: &'static str) -> Result<Option<(u32, u32)>> {
    let Some(id) = single(module, name)? else {
        return Ok(None);
    };
    let ops = node(module, id, name)?;
    Ok(Some((
        uint_at(module, ops, 0, name)?,
        uint_at(module, ops, 1, name)?,
    )))
}

/// `!{srvs, uavs, cbuffers, samplers}` (each may be null).
fn read_resources(module: &Md<'_>, list: Option<MetadataId>) -> Result<Resources> {
    let mut resources = Resources::default();
    let Some(list) = list else {
        return Ok(resources);
    };
    let ops = node(module, list, "resource lists")?;
    if ops.len() != 4 {
        return Err(MetadataError::OperandCount {
            what: "resource lists",
            id: list,
            found: ops.len(),
            expected: 4,
        });
    }
    for (index, class) in [
        ResourceClass::Srv,
        ResourceClass::Uav,
        ResourceClass::CBuffer,
        ResourceClass::Sampler,
    ]
    .into_iter()
    .enumerate()
    {
        let Some(records) = ops[index] else {
            continue;
        };
        let out = match class {
            ResourceClass::Srv => &mut resources.srvs,
            ResourceClass::Uav => &mut resources.uavs,
            ResourceClass::CBuffer => &mut resources.cbuffers,
            ResourceClass::Sampler => &mut resources.samplers,
        };
        for &record in node(module, records, "resource list")? {
            let record = record.ok_or(MetadataError::MissingOperand {
                what: "resource list",
                index,
            })?;
            out.push(read_resource(module, class, record)?);
        }
    }
    Ok(resources)
}

fn read_resource(module: &Md<'_>, class: ResourceClass, id: MetadataId) -> Result<Resource> {
    const WHAT: &str = "resource record";
    module.spend(id, std::mem::size_of::<Resource>() as u64)?;
    let ops = node(module, id, WHAT)?;
    let expected = match class {
        ResourceClass::Srv => 9,
        ResourceClass::Uav => 11,
        ResourceClass::CBuffer | ResourceClass::Sampler => 8,
    };
    if ops.len() != expected {
        return Err(MetadataError::OperandCount {
            what: WHAT,
            id,
            found: ops.len(),
            expected,
        });
    }
    let (symbol, hlsl_type) = resource_symbol(module, operand(ops, 1, WHAT)?);
    let properties = tag_values(module, ops[expected - 1], "resource properties")?;
    let prop = |tag: u32| {
        properties
            .iter()
            .find(|(t, _)| *t == tag)
            .and_then(|(_, value)| *value)
    };
    let prop_uint = |tag: u32| -> Result<Option<u32>> {
        prop(tag)
            .map(|v| uint(module, v, "resource property"))
            .transpose()
    };
    let (kind, detail) = match class {
        ResourceClass::Srv | ResourceClass::Uav => {
            let kind = ResourceKind::from_raw(uint_at(module, ops, 6, WHAT)?);
            let element_type = prop_uint(0)?
                .map(CompType::from_raw)
                .unwrap_or(CompType::Invalid);
            let default_stride = if kind == ResourceKind::RawBuffer {
                1
            } else {
                4
            };
            let element_stride = prop_uint(1)?.unwrap_or(default_stride);
            let detail = if class == ResourceClass::Srv {
                ResourceDetail::Srv {
                    sample_count: uint_at(module, ops, 7, WHAT)?,
                    element_type,
                    element_stride,
                }
            } else {
                ResourceDetail::Uav {
                    globally_coherent: bool_at(module, ops, 7, WHAT)?,
                    has_counter: bool_at(module, ops, 8, WHAT)?,
                    rasterizer_ordered: bool_at(module, ops, 9, WHAT)?,
                    element_type,
                    element_stride,
                    sampler_feedback: prop_uint(2)?.map(SamplerFeedbackType::from_raw),
                    atomic64_use: prop_uint(3)?.unwrap_or(0) != 0,
                    reorder_coherent: prop_uint(4)?.unwrap_or(0) != 0,
                }
            };
            (kind, detail)
        }
        ResourceClass::CBuffer => {
            let tbuffer = prop_uint(0)?.unwrap_or(0) != 0;
            let kind = if tbuffer {
                ResourceKind::TBuffer
            } else {
                ResourceKind::CBuffer
            };
            (
                kind,
                ResourceDetail::CBuffer {
                    size: uint_at(module, ops, 6, WHAT)?,
                },
            )
        }
        ResourceClass::Sampler => (
            ResourceKind::Sampler,
            ResourceDetail::Sampler {
                sampler_kind: SamplerKind::from_raw(uint_at(module, ops, 6, WHAT)?),
            },
        ),
    };
    Ok(Resource {
        class,
        id: uint_at(module, ops, 0, WHAT)?,
        symbol,
        hlsl_type,
        name: string_at(module, ops, 2, WHAT)?,
        space: uint_at(module, ops, 3, WHAT)?,
        lower_bound: uint_at(module, ops, 4, WHAT)?,
        range_size: uint_at(module, ops, 5, WHAT)?,
        kind,
        detail,
        properties,
    })
}

/// Field 1 of a resource: the symbol and its HLSL type. A bitcast constant
/// expression (SM 6.6 libraries) gives its operand as the symbol and its
/// own type as the HLSL type.
fn resource_symbol(module: &Md<'_>, id: Option<MetadataId>) -> (Option<ValueId>, Option<TypeId>) {
    let Some((ty, symbol)) = id.and_then(|id| value(module, id)) else {
        return (None, None);
    };
    if let Some(constant) = module.constant(symbol) {
        if let crate::dxil::model::ConstantKind::Cast { value, .. } = constant.kind {
            return (Some(value), Some(ty));
        }
    }
    (Some(symbol), Some(ty))
}

fn read_entry_point(module: &Md<'_>, id: MetadataId) -> Result<EntryPoint> {
    const WHAT: &str = "dx.entryPoints record";
    module.spend(id, std::mem::size_of::<EntryPoint>() as u64)?;
    let ops = node(module, id, WHAT)?;
    if ops.len() != 5 {
        return Err(MetadataError::OperandCount {
            what: WHAT,
            id,
            found: ops.len(),
            expected: 5,
        });
    }
    let function = ops[0].and_then(|f| value(module, f)).map(|(_, v)| v);
    let signatures = match ops[2] {
        None => Signatures::default(),
        Some(list) => {
            let sig_ops = node(module, list, "entry signatures")?;
            if sig_ops.len() != 3 {
                return Err(MetadataError::OperandCount {
                    what: "entry signatures",
                    id: list,
                    found: sig_ops.len(),
                    expected: 3,
                });
            }
            Signatures {
                inputs: read_signature(module, sig_ops[0])?,
                outputs: read_signature(module, sig_ops[1])?,
                patch_constant_or_primitive: read_signature(module, sig_ops[2])?,
            }
        }
    };
    Ok(EntryPoint {
        function,
        name: string_at(module, ops, 1, WHAT)?,
        signatures,
        resources: read_resources(module, ops[3])?,
        properties: read_entry_properties(module, ops[4])?,
    })
}

fn read_signature(module: &Md<'_>, list: Option<MetadataId>) -> Result<Vec<SignatureElement>> {
    const WHAT: &str = "signature element";
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let mut elements = Vec::new();
    for &element in node(module, list, "signature")? {
        module.spend(list, std::mem::size_of::<SignatureElement>() as u64)?;
        let element = element.ok_or(MetadataError::MissingOperand {
            what: "signature",
            index: elements.len(),
        })?;
        let ops = node(module, element, WHAT)?;
        if ops.len() != 11 {
            return Err(MetadataError::OperandCount {
                what: WHAT,
                id: element,
                found: ops.len(),
                expected: 11,
            });
        }
        let kind = SemanticKind::from_raw((uint_at(module, ops, 3, WHAT)? & 0xff) as u8);
        let mut semantic_indices = uint_list(module, required(ops, 4, WHAT)?, WHAT)?;
        if semantic_indices.is_empty() && kind != SemanticKind::Arbitrary {
            semantic_indices.push(0);
        }
        let mut parsed = SignatureElement {
            id: uint_at(module, ops, 0, WHAT)?,
            name: string(module, required(ops, 1, WHAT)?, WHAT)?,
            comp_type: CompType::from_raw(uint_at(module, ops, 2, WHAT)? & 0xff),
            kind,
            semantic_indices,
            interpolation: InterpolationMode::from_raw(
                (uint_at(module, ops, 5, WHAT)? & 0xff) as u8,
            ),
            rows: uint_at(module, ops, 6, WHAT)?,
            cols: (uint_at(module, ops, 7, WHAT)? & 0xff) as u8,
            start_row: uint_at(module, ops, 8, WHAT)? as i32,
            start_col: (uint_at(module, ops, 9, WHAT)? & 0xff) as u8 as i8,
            output_stream: 0,
            dynamic_index_mask: 0,
            usage_mask: 0,
        };
        for (tag, value) in tag_values(module, ops[10], "signature element properties")? {
            let value = || -> Result<u32> {
                let id = value.ok_or(MetadataError::MissingOperand {
                    what: "signature element properties",
                    index: 1,
                })?;
                uint(module, id, "signature element properties")
            };
            match tag {
                0 => parsed.output_stream = value()?,
                2 => parsed.dynamic_index_mask = value()?,
                3 => parsed.usage_mask = value()?,
                _ => {}
            }
        }
        elements.push(parsed);
    }
    Ok(elements)
}

fn three(module: &Md<'_>, id: MetadataId, what: &'static str) -> Result<[u32; 3]> {
    let ops = node(module, id, what)?;
    Ok([
        uint_at(module, ops, 0, what)?,
        uint_at(module, ops, 1, what)?,
        uint_at(module, ops, 2, what)?,
    ])
}

fn read_entry_properties(module: &Md<'_>, list: Option<MetadataId>) -> Result<EntryProperties> {
    const WHAT: &str = "entry properties";
    let mut props = EntryProperties::default();
    for (tag, value) in tag_values(module, list, WHAT)? {
        let Some(value) = value else {
            return Err(MetadataError::MissingOperand {
                what: WHAT,
                index: 1,
            });
        };
        match tag {
            0 => props.shader_flags = Some(int(module, value, WHAT)? as u64),
            1 => {
                let ops = node(module, value, "GS state")?;
                props.gs = Some(GsState {
                    input_primitive: uint_at(module, ops, 0, "GS state")?,
                    max_vertex_count: uint_at(module, ops, 1, "GS state")?,
                    active_stream_mask: uint_at(module, ops, 2, "GS state")?,
                    output_topology: uint_at(module, ops, 3, "GS state")?,
                    instance_count: uint_at(module, ops, 4, "GS state")?,
                });
            }
            2 => {
                let ops = node(module, value, "DS state")?;
                props.ds = Some(DsState {
                    domain: uint_at(module, ops, 0, "DS state")?,
                    input_control_points: uint_at(module, ops, 1, "DS state")?,
                });
            }
            3 => {
                const HS: &str = "HS state";
                let ops = node(module, value, HS)?;
                let max_tess_factor_bits = operand(ops, 6, HS)?
                    .and_then(|id| module.metadata_constant(id))
                    .and_then(|c| match c.kind {
                        crate::dxil::model::ConstantKind::Float(bits) => Some(bits),
                        _ => None,
                    });
                props.hs = Some(HsState {
                    patch_constant_function: operand(ops, 0, HS)?
                        .and_then(|id| value_of(module, id)),
                    input_control_points: uint_at(module, ops, 1, HS)?,
                    output_control_points: uint_at(module, ops, 2, HS)?,
                    domain: uint_at(module, ops, 3, HS)?,
                    partitioning: uint_at(module, ops, 4, HS)?,
                    output_primitive: uint_at(module, ops, 5, HS)?,
                    max_tess_factor_bits,
                });
            }
            4 => props.num_threads = Some(three(module, value, "numthreads")?),
            5 => {
                let ops = node(module, value, "auto binding space")?;
                props.auto_binding_space = Some(uint_at(module, ops, 0, "auto binding space")?);
            }
            6 => props.ray_payload_size = Some(uint(module, value, WHAT)?),
            7 => props.ray_attribute_size = Some(uint(module, value, WHAT)?),
            8 => {
                let raw = uint(module, value, WHAT)?;
                props.shader_kind = Some(ShaderKind::from_raw((raw & 0xffff) as u16));
            }
            9 => {
                const MS: &str = "MS state";
                let ops = node(module, value, MS)?;
                props.ms = Some(MsState {
                    num_threads: three(module, required(ops, 0, MS)?, MS)?,
                    max_vertex_count: uint_at(module, ops, 1, MS)?,
                    max_primitive_count: uint_at(module, ops, 2, MS)?,
                    output_topology: uint_at(module, ops, 3, MS)?,
                    payload_size: uint_at(module, ops, 4, MS)?,
                });
            }
            10 => {
                const AS: &str = "AS state";
                let ops = node(module, value, AS)?;
                props.amplification = Some(AsState {
                    num_threads: three(module, required(ops, 0, AS)?, AS)?,
                    payload_size: uint_at(module, ops, 1, AS)?,
                });
            }
            11 => {
                let ops = node(module, value, "wave size")?;
                props.wave_size = Some(WaveSize {
                    min: uint_at(module, ops, 0, "wave size")?,
                    max: None,
                    preferred: None,
                });
            }
            23 => {
                let [min, max, preferred] = three(module, value, "wave size range")?;
                props.wave_size = Some(WaveSize {
                    min,
                    max: Some(max),
                    preferred: Some(preferred),
                });
            }
            12 => props.root_signature = Some(value),
            24 => props.group_shared_limit = Some(uint(module, value, WHAT)?),
            _ => props.other.push((tag, Some(value))),
        }
    }
    Ok(props)
}

/// The global value metadata `id` wraps.
fn value_of(module: &Md<'_>, id: MetadataId) -> Option<ValueId> {
    value(module, id).map(|(_, v)| v)
}

fn read_type_annotations(module: &Md<'_>) -> Result<TypeAnnotations> {
    let mut annotations = TypeAnnotations::default();
    let Some(named) = module.named_metadata(b"dx.typeAnnotations") else {
        return Ok(annotations);
    };
    if named.operands.len() > 2 {
        return Err(MetadataError::NamedCount {
            name: "dx.typeAnnotations",
            found: named.operands.len(),
        });
    }
    for &list in &named.operands {
        const WHAT: &str = "dx.typeAnnotations";
        let ops = node(module, list, WHAT)?;
        if ops.len() % 2 != 1 {
            return Err(MetadataError::OddTagList {
                what: WHAT,
                id: list,
            });
        }
        let tag = uint_at(module, ops, 0, WHAT)?;
        for pair in ops[1..].chunks_exact(2) {
            let target = pair[0].ok_or(MetadataError::MissingOperand {
                what: WHAT,
                index: 1,
            })?;
            let body = pair[1].ok_or(MetadataError::MissingOperand {
                what: WHAT,
                index: 2,
            })?;
            if tag == 0 {
                annotations
                    .structs
                    .push(read_struct_annotation(module, target, body)?);
            } else {
                annotations
                    .functions
                    .push(read_function_annotation(module, target, body)?);
            }
        }
    }
    Ok(annotations)
}

fn read_struct_annotation(
    module: &Md<'_>,
    target: MetadataId,
    body: MetadataId,
) -> Result<StructAnnotation> {
    const WHAT: &str = "struct annotation";
    let (ty, _) = value(module, target).ok_or(MetadataError::NotAType {
        what: WHAT,
        id: target,
        expected: "struct",
    })?;
    let field_count = match module.ty(ty) {
        Some(crate::dxil::model::Type::Struct(st)) => st.body.as_ref().map_or(0, Vec::len),
        _ => {
            return Err(MetadataError::NotAType {
                what: WHAT,
                id: target,
                expected: "struct",
            })
        }
    };
    let ops = node(module, body, WHAT)?;
    let template_args = if ops.len() == field_count + 2 {
        ops[field_count + 1]
    } else if ops.len() == field_count + 1 {
        None
    } else {
        return Err(MetadataError::OperandCount {
            what: WHAT,
            id: body,
            found: ops.len(),
            expected: field_count + 1,
        });
    };
    let mut fields = Vec::with_capacity(field_count);
    for index in 0..field_count {
        fields.push(read_field_annotation(
            module,
            required(ops, index + 1, WHAT)?,
        )?);
    }
    Ok(StructAnnotation {
        ty,
        cbuffer_size: uint_at(module, ops, 0, WHAT)?,
        fields,
        empty: ops.len() == 1,
        template_args,
    })
}

fn read_field_annotation(module: &Md<'_>, id: MetadataId) -> Result<FieldAnnotation> {
    const WHAT: &str = "field annotation";
    let mut field = FieldAnnotation::default();
    for (tag, value) in tag_values(module, Some(id), WHAT)? {
        let value = value.ok_or(MetadataError::MissingOperand {
            what: WHAT,
            index: 1,
        })?;
        match tag {
            8 => field.precise = int(module, value, WHAT)? != 0,
            2 => {
                let ops = node(module, value, "matrix annotation")?;
                if ops.len() != 3 {
                    return Err(MetadataError::OperandCount {
                        what: "matrix annotation",
                        id: value,
                        found: ops.len(),
                        expected: 3,
                    });
                }
                field.matrix = Some(MatrixAnnotation {
                    rows: uint_at(module, ops, 0, "matrix annotation")?,
                    cols: uint_at(module, ops, 1, "matrix annotation")?,
                    orientation: MatrixOrientation::from_raw(uint_at(
                        module,
                        ops,
                        2,
                        "matrix annotation",
                    )?),
                });
            }
            3 => field.cbuffer_offset = uint(module, value, WHAT)?,
            4 => field.semantic = Some(string(module, value, WHAT)?),
            5 => {
                field.interpolation = Some(InterpolationMode::from_raw(
                    (uint(module, value, WHAT)? & 0xff) as u8,
                ))
            }
            6 => field.name = Some(string(module, value, WHAT)?),
            7 => field.comp_type = Some(CompType::from_raw(uint(module, value, WHAT)?)),
            9 => field.cbuffer_used = Some(int(module, value, WHAT)? != 0),
            10 => field.resource_properties = value_of(module, value),
            11 => {
                for &bit_field in node(module, value, "bit fields")? {
                    let bit_field = bit_field.ok_or(MetadataError::MissingOperand {
                        what: "bit fields",
                        index: 0,
                    })?;
                    field
                        .bit_fields
                        .push(read_field_annotation(module, bit_field)?);
                }
            }
            12 => field.bit_field_width = Some(uint(module, value, WHAT)?),
            13 => field.vector_size = Some(uint(module, value, WHAT)?),
            _ => field.unknown.push((tag, Some(value))),
        }
    }
    Ok(field)
}

fn read_function_annotation(
    module: &Md<'_>,
    target: MetadataId,
    body: MetadataId,
) -> Result<FunctionAnnotation> {
    const WHAT: &str = "function annotation";
    let ops = node(module, body, WHAT)?;
    let mut params = Vec::with_capacity(ops.len());
    for index in 0..ops.len() {
        let param = required(ops, index, WHAT)?;
        let param_ops = node(module, param, "parameter annotation")?;
        if param_ops.len() != 3 {
            return Err(MetadataError::OperandCount {
                what: "parameter annotation",
                id: param,
                found: param_ops.len(),
                expected: 3,
            });
        }
        params.push(ParameterAnnotation {
            qualifier: ParamInputQualifier::from_raw(uint_at(
                module,
                param_ops,
                0,
                "parameter annotation",
            )?),
            field: read_field_annotation(module, required(param_ops, 1, "parameter annotation")?)?,
            semantic_indices: match param_ops[2] {
                Some(list) => uint_list(module, list, "parameter annotation")?,
                None => Vec::new(),
            },
        });
    }
    if params.is_empty() {
        return Err(MetadataError::MissingOperand {
            what: WHAT,
            index: 0,
        });
    }
    let ret = params.remove(0);
    Ok(FunctionAnnotation {
        function: value_of(module, target),
        ret,
        parameters: params,
    })
}

/// `dx.viewIdState`: `!{[N x i32] [...]}` (or `zeroinitializer`: empty).
fn read_view_id_state(module: &Md<'_>, id: MetadataId) -> Result<Vec<u32>> {
    const WHAT: &str = "dx.viewIdState";
    let ops = node(module, id, WHAT)?;
    if ops.len() != 1 {
        return Err(MetadataError::OperandCount {
            what: WHAT,
            id,
            found: ops.len(),
            expected: 1,
        });
    }
    let data = required(ops, 0, WHAT)?;
    let constant = module
        .metadata_constant(data)
        .ok_or(MetadataError::NotAnInteger {
            what: WHAT,
            id: data,
        })?;
    use crate::dxil::model::ConstantKind;
    match &constant.kind {
        ConstantKind::Null => Ok(Vec::new()),
        ConstantKind::Data(words) => Ok(words.iter().map(|w| (w & 0xffff_ffff) as u32).collect()),
        ConstantKind::Aggregate(values) => values
            .iter()
            .map(|v| match module.constant(*v).map(|c| &c.kind) {
                Some(ConstantKind::Integer(i)) => Ok(read::low_u32(*i)),
                Some(ConstantKind::Null) => Ok(0),
                _ => Err(MetadataError::NotAnInteger {
                    what: WHAT,
                    id: data,
                }),
            })
            .collect(),
        _ => Err(MetadataError::NotAnInteger {
            what: WHAT,
            id: data,
        }),
    }
}

/// The bytes `module`'s metadata takes as stored (its nodes' operands and
/// its strings): what a reading's budget is sized from, in proportion to
/// the bitcode that defined them.
pub(crate) fn stored_size(module: &Module) -> usize {
    use crate::dxil::model::Metadata;
    module
        .metadata
        .iter()
        .map(|m| match m {
            Metadata::String(s) => s.len() + 8,
            Metadata::Node { operands, .. } => 8 * operands.len() + 8,
            _ => 16,
        })
        .sum::<usize>()
        + 8 * module
            .named_metadata
            .iter()
            .map(|n| n.operands.len() + 1)
            .sum::<usize>()
}
