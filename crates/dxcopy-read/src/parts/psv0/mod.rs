//! PSV0: pipeline state validation (docs/format/psv0.md).
//!
//! The part starts with the size of a `RuntimeInfo` record whose version
//! (0–4) follows from that size alone (24 / 36 / 48 / 52 / 56 bytes or
//! more), as dxc's reader derives it. The
//! first 16 bytes of the record are a union selected by the shader stage. Then
//! come the resource bindings and, from version 1 on, a string table, a
//! semantic index table, the signature elements and the ViewID / input-output
//! dependency tables whose sizes are computed from the vector counts in the
//! record (docs/format/psv0.md §4).
//!
//! The stage is not stored in a version-0 record, and LLVM takes it from the
//! DXIL program header for every version. [`Psv0::parse`] therefore takes the
//! program's [`ShaderKind`] as a parameter; without one it falls back to the
//! record's own `ShaderStage` byte (version 1 and later) and, for version 0,
//! decodes everything except the stage union ([`StageInfo::Unknown`]).
//!
//! Two decoding modes exist. [`Psv0::parse`] is the strict reader: every table
//! must lie inside the part, names and index ranges must resolve, and strides
//! must cover the version-0 records. [`Psv0::parse_llvm_compat`] reproduces
//! what LLVM 22's `PSVRuntimeInfo::parse` and obj2yaml read, including their
//! quirks, so that the obj2yaml view can match obj2yaml byte for byte.

use super::Mode;
use crate::container::Part;
use crate::cursor::Cursor;
use crate::enums::{flag_set, open_enum};
use crate::error::{ReadErrorKind, Result};
use crate::program::ShaderKind;
use crate::signature::ComponentType;
use std::fmt;

/// Size of a version-0 `RuntimeInfo` record.
pub const RUNTIME_INFO_V0_SIZE: u32 = RuntimeInfoRecord::size_for(0) as u32;
/// Size of a version-1 `RuntimeInfo` record.
pub const RUNTIME_INFO_V1_SIZE: u32 = RuntimeInfoRecord::size_for(1) as u32;
/// Size of a version-2 `RuntimeInfo` record.
pub const RUNTIME_INFO_V2_SIZE: u32 = RuntimeInfoRecord::size_for(2) as u32;
/// Size of a version-3 `RuntimeInfo` record.
pub const RUNTIME_INFO_V3_SIZE: u32 = RuntimeInfoRecord::size_for(3) as u32;
/// Size of a version-4 `RuntimeInfo` record (adds `NumBytesGroupSharedMemory`).
pub const RUNTIME_INFO_V4_SIZE: u32 = RuntimeInfoRecord::size_for(4) as u32;
/// Size of a version-0/1 resource binding record.
pub const RESOURCE_V0_SIZE: u32 = ResourceRecord::size_for(0) as u32;
/// Size of a version-2 resource binding record (adds kind and flags).
pub const RESOURCE_V2_SIZE: u32 = ResourceRecord::size_for(2) as u32;
/// Size of a PSV signature element record.
pub const ELEMENT_SIZE: u32 = ElementRecord::SIZE as u32;

open_enum! {
    /// Resource type of a PSV resource binding (docs/format/enums.md §7).
    pub enum ResourceType: u32 {
        Invalid = 0 => "Invalid",
        Sampler = 1 => "Sampler",
        Cbv = 2 => "CBV",
        SrvTyped = 3 => "SRVTyped",
        SrvRaw = 4 => "SRVRaw",
        SrvStructured = 5 => "SRVStructured",
        UavTyped = 6 => "UAVTyped",
        UavRaw = 7 => "UAVRaw",
        UavStructured = 8 => "UAVStructured",
        UavStructuredWithCounter = 9 => "UAVStructuredWithCounter",
    }
}

open_enum! {
    /// `DXIL::ResourceKind`, the resource kind (dimension) of a version-2 PSV resource binding and of
    /// an RDAT resource record (docs/format/enums.md §8).
    pub enum ResourceKind: u32 {
        Invalid = 0 => "Invalid",
        Texture1D = 1 => "Texture1D",
        Texture2D = 2 => "Texture2D",
        Texture2DMS = 3 => "Texture2DMS",
        Texture3D = 4 => "Texture3D",
        TextureCube = 5 => "TextureCube",
        Texture1DArray = 6 => "Texture1DArray",
        Texture2DArray = 7 => "Texture2DArray",
        Texture2DMSArray = 8 => "Texture2DMSArray",
        TextureCubeArray = 9 => "TextureCubeArray",
        TypedBuffer = 10 => "TypedBuffer",
        RawBuffer = 11 => "RawBuffer",
        StructuredBuffer = 12 => "StructuredBuffer",
        CBuffer = 13 => "CBuffer",
        Sampler = 14 => "Sampler",
        TBuffer = 15 => "TBuffer",
        RTAccelerationStructure = 16 => "RTAccelerationStructure",
        FeedbackTexture2D = 17 => "FeedbackTexture2D",
        FeedbackTexture2DArray = 18 => "FeedbackTexture2DArray",
    }
}

flag_set! {
    /// Flags of a version-2 PSV resource binding (docs/format/enums.md §3).
    pub struct ResourceFlags: u32 {
        /// Bit 0: the resource is used by 64-bit atomics.
        USED_BY_ATOMIC64 = 0x1 => "UsedByAtomic64",
    }
}

open_enum! {
    /// Semantic kind of a PSV signature element (docs/format/enums.md §3).
    pub enum SemanticKind: u8 {
        Arbitrary = 0 => "Arbitrary",
        VertexId = 1 => "VertexID",
        InstanceId = 2 => "InstanceID",
        Position = 3 => "Position",
        RenderTargetArrayIndex = 4 => "RenderTargetArrayIndex",
        ViewPortArrayIndex = 5 => "ViewPortArrayIndex",
        ClipDistance = 6 => "ClipDistance",
        CullDistance = 7 => "CullDistance",
        OutputControlPointId = 8 => "OutputControlPointID",
        DomainLocation = 9 => "DomainLocation",
        PrimitiveId = 10 => "PrimitiveID",
        GsInstanceId = 11 => "GSInstanceID",
        SampleIndex = 12 => "SampleIndex",
        IsFrontFace = 13 => "IsFrontFace",
        Coverage = 14 => "Coverage",
        InnerCoverage = 15 => "InnerCoverage",
        Target = 16 => "Target",
        Depth = 17 => "Depth",
        DepthLessEqual = 18 => "DepthLessEqual",
        DepthGreaterEqual = 19 => "DepthGreaterEqual",
        StencilRef = 20 => "StencilRef",
        DispatchThreadId = 21 => "DispatchThreadID",
        GroupId = 22 => "GroupID",
        GroupIndex = 23 => "GroupIndex",
        GroupThreadId = 24 => "GroupThreadID",
        TessFactor = 25 => "TessFactor",
        InsideTessFactor = 26 => "InsideTessFactor",
        ViewId = 27 => "ViewID",
        Barycentrics = 28 => "Barycentrics",
        ShadingRate = 29 => "ShadingRate",
        /// 30 (also LLVM's `Invalid`, which shares the value; the first name is used)
        CullPrimitive = 30 => "CullPrimitive",
    }
}

open_enum! {
    /// Interpolation mode of a PSV signature element (docs/format/enums.md §3).
    pub enum InterpolationMode: u8 {
        Undefined = 0 => "Undefined",
        Constant = 1 => "Constant",
        Linear = 2 => "Linear",
        LinearCentroid = 3 => "LinearCentroid",
        LinearNoperspective = 4 => "LinearNoperspective",
        LinearNoperspectiveCentroid = 5 => "LinearNoperspectiveCentroid",
        LinearSample = 6 => "LinearSample",
        LinearNoperspectiveSample = 7 => "LinearNoperspectiveSample",
        Invalid = 8 => "Invalid",
    }
}

crate::record::record! {
    /// The stored `RuntimeInfo` record (docs/format/psv0.md §1–2). It grows
    /// by version: 24 bytes (v0), 36 (v1), 48 (v2), 52 (v3), 56 (v4); a
    /// field added by a version is `None` in the versions before it.
    pub struct RuntimeInfoRecord: "PSV0 RuntimeInfo" {
        /// The stage union (see [`StageInfo`]).
        0 stage_info: [u8; 16] => "PSV0 stage info";
        /// Minimum wave lane count.
        16 minimum_wave_lane_count: u32 => "PSV0 MinimumWaveLaneCount";
        /// Maximum wave lane count.
        20 maximum_wave_lane_count: u32 => "PSV0 MaximumWaveLaneCount";
        /// The shader stage (ShaderKind numbering).
        24 shader_stage: u8 => "PSV0 ShaderStage", since 1;
        /// Whether the shader uses the view ID.
        25 uses_view_id: u8 => "PSV0 UsesViewID", since 1;
        /// The 16-bit union at offset 26 (see [`RuntimeInfo::geometry_data`]).
        26 geometry_data: u16 => "PSV0 geometry data", since 1;
        /// Number of input signature elements.
        28 sig_input_elements: u8 => "PSV0 SigInputElements", since 1;
        /// Number of output signature elements.
        29 sig_output_elements: u8 => "PSV0 SigOutputElements", since 1;
        /// Number of patch-constant or primitive signature elements.
        30 sig_patch_or_prim_elements: u8 => "PSV0 SigPatchOrPrimElements", since 1;
        /// Number of packed input vectors.
        31 sig_input_vectors: u8 => "PSV0 SigInputVectors", since 1;
        /// Number of packed output vectors per stream.
        32 sig_output_vectors: [u8; 4] => "PSV0 SigOutputVectors", since 1;
        /// Thread group size X.
        36 num_threads_x: u32 => "PSV0 NumThreadsX", since 2;
        /// Thread group size Y.
        40 num_threads_y: u32 => "PSV0 NumThreadsY", since 2;
        /// Thread group size Z.
        44 num_threads_z: u32 => "PSV0 NumThreadsZ", since 2;
        /// Offset of the entry point name in the string table.
        48 entry_name_offset: u32 => "PSV0 EntryNameOffset", since 3;
        /// Bytes of group shared memory the shader uses.
        52 num_bytes_group_shared_memory: u32 => "PSV0 NumBytesGroupSharedMemory", since 4;
    }
}

crate::record::record! {
    /// A stored resource binding: 16 bytes in versions 0 and 1, 24 from
    /// version 2 (docs/format/psv0.md §3).
    pub struct ResourceRecord: "PSV0 resource binding" {
        /// Resource type.
        0 resource_type: ResourceType;
        /// Register space.
        4 space: u32;
        /// First register.
        8 lower_bound: u32;
        /// Last register.
        12 upper_bound: u32;
        /// Resource kind.
        16 kind: ResourceKind, since 2;
        /// Resource flags.
        20 flags: ResourceFlags, since 2;
    }
}

crate::record::record! {
    /// A stored PSV signature element (docs/format/psv0.md §3).
    pub struct ElementRecord: "PSV0 signature element" {
        /// Offset of the name in the string table.
        0 name_offset: u32;
        /// Index of the first semantic index in the semantic index table.
        4 indices_offset: u32;
        /// Number of rows.
        8 rows: u8;
        /// First row.
        9 start_row: u8;
        /// Columns (bits 0–3), first column (bits 4–5), allocated (bit 6).
        10 cols_start_col_allocated: u8;
        /// Semantic kind.
        11 kind: SemanticKind;
        /// Component type.
        12 component_type: u8;
        /// Interpolation mode.
        13 interpolation: InterpolationMode;
        /// Dynamic mask (bits 0–3) and output stream (bits 4–5).
        14 dynamic_mask_stream: u8;
        /// Reserved byte.
        15 reserved: u8;
    }
}

/// The stage-specific first 16 bytes of `RuntimeInfo` (docs/format/psv0.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum StageInfo {
    /// Pixel shader.
    Pixel {
        /// Whether the shader writes depth.
        depth_output: u8,
        /// Whether the shader runs at sample frequency.
        sample_frequency: u8,
    },
    /// Vertex shader.
    Vertex {
        /// Whether SV_Position is written.
        output_position_present: u8,
    },
    /// Geometry shader.
    Geometry {
        /// Input primitive.
        input_primitive: u32,
        /// Output topology.
        output_topology: u32,
        /// Mask of the output streams in use.
        output_stream_mask: u32,
        /// Whether SV_Position is written.
        output_position_present: u8,
    },
    /// Hull shader.
    Hull {
        /// Input control points.
        input_control_point_count: u32,
        /// Output control points.
        output_control_point_count: u32,
        /// Tessellator domain.
        tessellator_domain: u32,
        /// Tessellator output primitive.
        tessellator_output_primitive: u32,
    },
    /// Domain shader.
    Domain {
        /// Input control points.
        input_control_point_count: u32,
        /// Whether SV_Position is written.
        output_position_present: u8,
        /// Tessellator domain.
        tessellator_domain: u32,
    },
    /// Mesh shader.
    Mesh {
        /// Group shared memory used.
        group_shared_bytes_used: u32,
        /// Group shared memory that depends on the view ID.
        group_shared_bytes_dependent_on_view_id: u32,
        /// Payload size.
        payload_size_in_bytes: u32,
        /// Maximum output vertices.
        max_output_vertices: u16,
        /// Maximum output primitives.
        max_output_primitives: u16,
    },
    /// Amplification shader.
    Amplification {
        /// Payload size.
        payload_size_in_bytes: u32,
    },
    /// A stage without stage-specific data (compute, library, ray tracing, node, …).
    None,
    /// The stage is not known (a version-0 record decoded without a program part).
    Unknown,
}

impl StageInfo {
    /// Decodes the 16-byte union for `stage`.
    pub fn decode(raw: &[u8; 16], stage: Option<ShaderKind>) -> StageInfo {
        let u32_at = |o: usize| u32::from_le_bytes([raw[o], raw[o + 1], raw[o + 2], raw[o + 3]]);
        let u16_at = |o: usize| u16::from_le_bytes([raw[o], raw[o + 1]]);
        match stage {
            None => StageInfo::Unknown,
            Some(ShaderKind::Pixel) => StageInfo::Pixel {
                depth_output: raw[0],
                sample_frequency: raw[1],
            },
            Some(ShaderKind::Vertex) => StageInfo::Vertex {
                output_position_present: raw[0],
            },
            Some(ShaderKind::Geometry) => StageInfo::Geometry {
                input_primitive: u32_at(0),
                output_topology: u32_at(4),
                output_stream_mask: u32_at(8),
                output_position_present: raw[12],
            },
            Some(ShaderKind::Hull) => StageInfo::Hull {
                input_control_point_count: u32_at(0),
                output_control_point_count: u32_at(4),
                tessellator_domain: u32_at(8),
                tessellator_output_primitive: u32_at(12),
            },
            Some(ShaderKind::Domain) => StageInfo::Domain {
                input_control_point_count: u32_at(0),
                output_position_present: raw[4],
                tessellator_domain: u32_at(8),
            },
            Some(ShaderKind::Mesh) => StageInfo::Mesh {
                group_shared_bytes_used: u32_at(0),
                group_shared_bytes_dependent_on_view_id: u32_at(4),
                payload_size_in_bytes: u32_at(8),
                max_output_vertices: u16_at(12),
                max_output_primitives: u16_at(14),
            },
            Some(ShaderKind::Amplification) => StageInfo::Amplification {
                payload_size_in_bytes: u32_at(0),
            },
            Some(_) => StageInfo::None,
        }
    }
}

/// The `RuntimeInfo` record; fields that a version lacks are `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RuntimeInfo {
    /// The stage union as stored.
    pub stage_info_raw: [u8; 16],
    /// The stage union decoded for [`Psv0::stage`].
    pub stage_info: StageInfo,
    /// Minimum wave lane count (0 if unused).
    pub minimum_wave_lane_count: u32,
    /// Maximum wave lane count (0xFFFFFFFF if unused).
    pub maximum_wave_lane_count: u32,
    /// v1+: the PSV's own shader stage byte (ShaderKind numbering).
    pub shader_stage: Option<u8>,
    /// v1+: whether the shader uses the view ID.
    pub uses_view_id: Option<u8>,
    /// v1+: the 16-bit union at offset 26: geometry `MaxVertexCount`; hull and
    /// domain `SigPatchConstOrPrimVectors` (low byte); mesh `SigPrimVectors`
    /// (low byte) and `MeshOutputTopology` (high byte).
    pub geometry_data: Option<u16>,
    /// v1+: number of input signature elements.
    pub sig_input_elements: Option<u8>,
    /// v1+: number of output signature elements.
    pub sig_output_elements: Option<u8>,
    /// v1+: number of patch-constant (hull/domain) or primitive (mesh) elements.
    pub sig_patch_or_prim_elements: Option<u8>,
    /// v1+: number of packed input vectors.
    pub sig_input_vectors: Option<u8>,
    /// v1+: number of packed output vectors per stream.
    pub sig_output_vectors: Option<[u8; 4]>,
    /// v2+: thread group size X, Y, Z.
    pub num_threads: Option<[u32; 3]>,
    /// v3: offset of the entry point name in the string table.
    pub entry_name_offset: Option<u32>,
    /// `PSVRuntimeInfo4` (a record of 56 bytes or more): bytes of group
    /// shared memory the shader uses.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub num_bytes_group_shared_memory: Option<u32>,
}

impl RuntimeInfo {
    /// The decoded record, its stage union decoded for `stage`.
    pub fn from_record(record: &RuntimeInfoRecord, stage: Option<ShaderKind>) -> RuntimeInfo {
        let num_threads = match (
            record.num_threads_x,
            record.num_threads_y,
            record.num_threads_z,
        ) {
            (Some(x), Some(y), Some(z)) => Some([x, y, z]),
            _ => None,
        };
        RuntimeInfo {
            stage_info_raw: record.stage_info,
            stage_info: StageInfo::decode(&record.stage_info, stage),
            minimum_wave_lane_count: record.minimum_wave_lane_count,
            maximum_wave_lane_count: record.maximum_wave_lane_count,
            shader_stage: record.shader_stage,
            uses_view_id: record.uses_view_id,
            geometry_data: record.geometry_data,
            sig_input_elements: record.sig_input_elements,
            sig_output_elements: record.sig_output_elements,
            sig_patch_or_prim_elements: record.sig_patch_or_prim_elements,
            sig_input_vectors: record.sig_input_vectors,
            sig_output_vectors: record.sig_output_vectors,
            num_threads,
            entry_name_offset: record.entry_name_offset,
            num_bytes_group_shared_memory: record.num_bytes_group_shared_memory,
        }
    }

    /// The record as stored: the raw stage union and every field present.
    pub fn to_record(&self) -> RuntimeInfoRecord {
        RuntimeInfoRecord {
            stage_info: self.stage_info_raw,
            minimum_wave_lane_count: self.minimum_wave_lane_count,
            maximum_wave_lane_count: self.maximum_wave_lane_count,
            shader_stage: self.shader_stage,
            uses_view_id: self.uses_view_id,
            geometry_data: self.geometry_data,
            sig_input_elements: self.sig_input_elements,
            sig_output_elements: self.sig_output_elements,
            sig_patch_or_prim_elements: self.sig_patch_or_prim_elements,
            sig_input_vectors: self.sig_input_vectors,
            sig_output_vectors: self.sig_output_vectors,
            num_threads_x: self.num_threads.map(|t| t[0]),
            num_threads_y: self.num_threads.map(|t| t[1]),
            num_threads_z: self.num_threads.map(|t| t[2]),
            entry_name_offset: self.entry_name_offset,
            num_bytes_group_shared_memory: self.num_bytes_group_shared_memory,
        }
    }

    /// Geometry shaders: the maximum vertex count (the whole 16-bit union).
    pub fn max_vertex_count(&self) -> Option<u16> {
        self.geometry_data
    }

    /// The low byte of the union at offset 26: hull/domain patch-constant
    /// vectors, mesh primitive vectors (what LLVM uses for table sizes).
    pub fn sig_patch_const_or_prim_vectors(&self) -> Option<u8> {
        self.geometry_data.map(|g| g as u8)
    }

    /// Mesh shaders: the output topology (high byte of the union at offset 26).
    pub fn mesh_output_topology(&self) -> Option<u8> {
        self.geometry_data.map(|g| (g >> 8) as u8)
    }
}

/// One resource binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ResourceBinding {
    /// Resource type.
    pub resource_type: ResourceType,
    /// Register space.
    pub space: u32,
    /// First register.
    pub lower_bound: u32,
    /// Last register (0xFFFFFFFF = unbounded).
    pub upper_bound: u32,
    /// Resource kind (records of 20 bytes or more).
    pub kind: Option<ResourceKind>,
    /// Resource flags (records of 24 bytes or more).
    pub flags: Option<ResourceFlags>,
}

/// One PSV signature element (docs/format/psv0.md §3).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PsvElement<'data> {
    /// Offset of the name in the string table.
    pub name_offset: u32,
    /// The semantic name (without its NUL).
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Index (in entries) of the first semantic index in the semantic index table.
    pub indices_offset: u32,
    /// Number of rows (= number of semantic indices).
    pub rows: u8,
    /// The semantic indices (`rows` entries of the semantic index table).
    pub indices: Vec<u32>,
    /// First row.
    pub start_row: u8,
    /// Number of columns (4 bits).
    pub cols: u8,
    /// First column (2 bits).
    pub start_col: u8,
    /// Whether the element is allocated to registers.
    pub allocated: bool,
    /// Semantic kind.
    pub kind: SemanticKind,
    /// Component type (stored as a byte).
    pub component_type: ComponentType,
    /// Interpolation mode.
    pub interpolation: InterpolationMode,
    /// Dynamically indexed components (4 bits).
    pub dynamic_mask: u8,
    /// Output stream (2 bits).
    pub stream: u8,
    /// The reserved byte 15 as stored.
    pub reserved: u8,
}

impl PsvElement<'_> {
    /// The record as stored (the name and the indices by their offsets).
    pub fn to_record(&self) -> ElementRecord {
        ElementRecord {
            name_offset: self.name_offset,
            indices_offset: self.indices_offset,
            rows: self.rows,
            start_row: self.start_row,
            cols_start_col_allocated: (self.cols & 0xf)
                | ((self.start_col & 0x3) << 4)
                | (u8::from(self.allocated) << 6),
            kind: self.kind,
            component_type: self.component_type.raw() as u8,
            interpolation: self.interpolation,
            dynamic_mask_stream: (self.dynamic_mask & 0xf) | ((self.stream & 0x3) << 4),
            reserved: self.reserved,
        }
    }

    /// The semantic name as text (lossy for bytes that are not UTF-8).
    pub fn name_lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.name)
    }
}

/// A decoded PSV0 part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Psv0<'data> {
    /// The `RuntimeInfo` size prefix.
    pub runtime_info_size: u32,
    /// Record version 0–4, derived from `runtime_info_size` (at most 3 from
    /// [`Psv0::parse_llvm_compat`]: LLVM 22 knows no version 4).
    pub version: u8,
    /// The stage used to decode the union and the stage-dependent tables: the
    /// program's shader kind when given, else the record's `ShaderStage` (v1+),
    /// else `None`.
    pub stage: Option<ShaderKind>,
    /// The runtime info record.
    pub runtime_info: RuntimeInfo,
    /// v3: the entry point name.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::fields::ser::opt_text")
    )]
    pub entry_name: Option<&'data [u8]>,
    /// Number of resource bindings as stored.
    pub resource_count: u32,
    /// Resource record stride as stored (24 when there are no resources, as LLVM reports).
    pub resource_stride: u32,
    /// The resource bindings.
    pub resources: Vec<ResourceBinding>,
    /// v1+: the string table (NUL-separated names, padded to 4 bytes).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub string_table: &'data [u8],
    /// v1+: the semantic index table.
    pub semantic_index_table: Vec<u32>,
    /// v1+: the element record stride (0 when there are no elements).
    pub element_stride: u32,
    /// v1+: input signature elements.
    pub input_elements: Vec<PsvElement<'data>>,
    /// v1+: output signature elements.
    pub output_elements: Vec<PsvElement<'data>>,
    /// v1+: patch-constant or primitive signature elements.
    pub patch_or_prim_elements: Vec<PsvElement<'data>>,
    /// v1+ with ViewID: per stream, the output components that depend on the view ID.
    pub output_vector_masks: [Vec<u32>; 4],
    /// v1+ with ViewID, hull (and, in strict mode, mesh): patch-constant or
    /// primitive components that depend on the view ID.
    pub patch_or_prim_masks: Vec<u32>,
    /// v1+: per stream, for each input component the output components it affects.
    pub input_output_maps: [Vec<u32>; 4],
    /// v1+, hull: for each input component the patch-constant components it affects.
    pub input_patch_map: Vec<u32>,
    /// v1+, domain: for each patch-constant component the output components it affects.
    pub patch_output_map: Vec<u32>,
    /// Bytes after the last table.
    pub trailing_bytes: u32,
}

/// Record version for a `RuntimeInfo` size (docs/format/psv0.md §2).
pub fn version_for_size(size: u32) -> u8 {
    if size >= RUNTIME_INFO_V4_SIZE {
        4
    } else if size >= RUNTIME_INFO_V3_SIZE {
        3
    } else if size >= RUNTIME_INFO_V2_SIZE {
        2
    } else if size >= RUNTIME_INFO_V1_SIZE {
        1
    } else {
        0
    }
}

/// Number of u32 words in a ViewID mask over `vectors` 4-component vectors.
pub fn mask_dwords(vectors: u8) -> u32 {
    (u32::from(vectors) + 7) >> 3
}

/// Number of u32 words in a dependency table from `inputs` to `outputs` vectors.
pub fn map_table_dwords(inputs: u8, outputs: u8) -> u32 {
    mask_dwords(outputs) * u32::from(inputs) * 4
}

impl<'data> Psv0<'data> {
    /// Decodes a PSV0 part strictly. `kind` is the shader kind of the DXIL (or
    /// ILDB) program part, if there is one.
    pub fn parse(part: &Part<'data>, kind: Option<ShaderKind>) -> Result<Self> {
        Psv0::parse_data(part.data, part.data_offset(), kind)
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// Decodes PSV0 part data located at absolute offset `base`, strictly.
    pub fn parse_data(data: &'data [u8], base: u64, kind: Option<ShaderKind>) -> Result<Self> {
        decode(Cursor::new(data, base), kind, Mode::Strict)
    }

    /// Decodes a PSV0 part the way LLVM 22's reader does, for the obj2yaml view:
    ///
    /// * the string table is aligned to 4 bytes in *file* offsets (LLVM aligns
    ///   the absolute pointer), so a part at an odd offset is misread, exactly as
    ///   obj2yaml misreads it;
    /// * dependency tables cut short by the end of the part are shortened
    ///   instead of being an error;
    /// * names and entry names resolve like `StringRef::substr`/`find`
    ///   (an offset past the table gives an empty name, a missing NUL runs to
    ///   the end of the table) and index lists are clamped to the table;
    /// * strides below the record size read zero-filled records, and a zero
    ///   stride reads no records;
    /// * mesh shaders have no primitive ViewID mask.
    pub fn parse_llvm_compat(part: &Part<'data>, kind: Option<ShaderKind>) -> Result<Self> {
        decode(part.cursor(), kind, Mode::LlvmCompat).map_err(|e| e.in_part(part.part_ref()))
    }

    /// Encodes the part data from the stored fields (docs/format/psv0.md §5):
    /// the `RuntimeInfo` record of `runtime_info_size` bytes (the fields
    /// present in [`Psv0::runtime_info`], then zeros), the resource
    /// bindings at `resource_stride`, and from version 1 on the string
    /// table, the semantic index table, the elements at `element_stride`
    /// and the dependency tables, then `trailing_bytes` zeros. Names and
    /// index lists are written through their offsets into `string_table`
    /// and `semantic_index_table`; the decoded `name`, `indices`,
    /// `stage_info` and `entry_name` are not read.
    ///
    /// A record or stride shorter than the version-0 record is cut, a
    /// longer one is padded with zeros.
    pub fn to_bytes(&self) -> Vec<u8> {
        fn put_sized(out: &mut Vec<u8>, start: usize, size: usize) {
            out.resize(start + size, 0);
        }
        fn put_words(out: &mut Vec<u8>, words: &[u32]) {
            for w in words {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let mut out = self.runtime_info_size.to_le_bytes().to_vec();
        let start = out.len();
        self.runtime_info.to_record().write_to(&mut out);
        put_sized(&mut out, start, self.runtime_info_size as usize);
        put_words(&mut out, &[self.resource_count]);
        if self.resource_count > 0 {
            put_words(&mut out, &[self.resource_stride]);
            for r in &self.resources {
                let start = out.len();
                ResourceRecord {
                    resource_type: r.resource_type,
                    space: r.space,
                    lower_bound: r.lower_bound,
                    upper_bound: r.upper_bound,
                    kind: Some(r.kind.unwrap_or(ResourceKind::Invalid)),
                    flags: Some(r.flags.unwrap_or_default()),
                }
                .write_to(&mut out);
                put_sized(&mut out, start, self.resource_stride as usize);
            }
        }
        if self.version >= 1 {
            out.resize(out.len().next_multiple_of(4), 0);
            put_words(&mut out, &[self.string_table.len() as u32]);
            out.extend_from_slice(self.string_table);
            put_words(&mut out, &[self.semantic_index_table.len() as u32]);
            put_words(&mut out, &self.semantic_index_table);
            if self.elements().next().is_some() {
                put_words(&mut out, &[self.element_stride]);
                for e in self.elements() {
                    let start = out.len();
                    e.to_record().write_to(&mut out);
                    put_sized(&mut out, start, self.element_stride as usize);
                }
            }
            for table in self
                .output_vector_masks
                .iter()
                .chain([&self.patch_or_prim_masks])
                .chain(&self.input_output_maps)
                .chain([&self.input_patch_map, &self.patch_output_map])
            {
                put_words(&mut out, table);
            }
        }
        out.resize(out.len() + self.trailing_bytes as usize, 0);
        out
    }

    /// The signature elements of all three lists, in file order.
    pub fn elements(&self) -> impl Iterator<Item = &PsvElement<'data>> {
        self.input_elements
            .iter()
            .chain(&self.output_elements)
            .chain(&self.patch_or_prim_elements)
    }
}

fn align4(v: u64) -> u64 {
    (v + 3) & !3
}

/// Reads `count` records of `stride` bytes starting at `*p` (all of which
/// must lie in `c`, else a `Truncated` error naming `what`), each through
/// `read` on a cursor over a zero-filled 24-byte copy holding
/// `min(stride, 24)` bytes, with the record's relative offset, and moves `*p`
/// past them. A stride of 0 reads nothing.
fn read_records<T>(
    c: &Cursor<'_>,
    p: &mut u64,
    count: u64,
    stride: u32,
    what: &'static str,
    mut read: impl FnMut(&Cursor<'_>, u64) -> Result<T>,
) -> Result<Vec<T>> {
    if stride == 0 {
        return Ok(Vec::new());
    }
    let records = c.take_records(p, count, u64::from(stride), what)?;
    records
        .map(|(at, record)| {
            let bytes = record.data();
            let mut padded = [0u8; 24];
            let n = bytes.len().min(24);
            padded[..n].copy_from_slice(&bytes[..n]);
            read(&Cursor::new(&padded, record.base()), at)
        })
        .collect()
}

fn decode<'data>(c: Cursor<'data>, kind: Option<ShaderKind>, mode: Mode) -> Result<Psv0<'data>> {
    let strict = mode == Mode::Strict;
    let size = c.u32(0, "PSV0 RuntimeInfo size")?;
    let version = version_for_size(size);
    let info = c.sub(4, u64::from(size), "PSV0 RuntimeInfo").map_err(|_| {
        c.error(
            0,
            ReadErrorKind::out_of_bounds(Psv0Error::RuntimeInfoSize {
                len: size,
                part_size: c.len(),
            }),
        )
    })?;
    let min_size = [
        RUNTIME_INFO_V0_SIZE,
        RUNTIME_INFO_V1_SIZE,
        RUNTIME_INFO_V2_SIZE,
        RUNTIME_INFO_V3_SIZE,
        RUNTIME_INFO_V4_SIZE,
    ][version as usize];
    // A record shorter than 24 bytes cannot hold the version-0 fields.
    info.bytes(0, u64::from(min_size), "PSV0 RuntimeInfo")?;
    let record = RuntimeInfoRecord::read_version(&info, 0, version)?;
    // LLVM 22's PSVRuntimeInfo reads a version-4 record as version 3 (its
    // newest): the group-shared field is kept, the version is LLVM's.
    let version = match mode {
        Mode::Strict => version,
        Mode::LlvmCompat => version.min(3),
    };
    let stage = kind.or_else(|| {
        record
            .shader_stage
            .map(|s| ShaderKind::from_raw(u16::from(s)))
    });
    let runtime_info = RuntimeInfo::from_record(&record, stage);

    let mut p = 4 + u64::from(size);
    let resource_count = c.take_u32(&mut p, "PSV0 resource count")?;
    let mut resource_stride = RESOURCE_V2_SIZE;
    let mut resources = Vec::new();
    if resource_count > 0 {
        let stride_at = p;
        resource_stride = c.take_u32(&mut p, "PSV0 resource stride")?;
        if strict && resource_stride < RESOURCE_V0_SIZE {
            return Err(c.error(
                stride_at,
                ReadErrorKind::too_small(Psv0Error::ResourceStride {
                    size: resource_stride,
                    minimum: RESOURCE_V0_SIZE,
                }),
            ));
        }
        resources = read_records(
            &c,
            &mut p,
            u64::from(resource_count),
            resource_stride,
            "PSV0 resource bindings",
            |r, _| {
                let record = ResourceRecord::read(r, 0)?;
                Ok(ResourceBinding {
                    resource_type: record.resource_type,
                    space: record.space,
                    lower_bound: record.lower_bound,
                    upper_bound: record.upper_bound,
                    kind: record.kind.filter(|_| !strict || resource_stride >= 20),
                    flags: record.flags.filter(|_| !strict || resource_stride >= 24),
                })
            },
        )?;
    }

    let mut psv = Psv0 {
        runtime_info_size: size,
        version,
        stage,
        runtime_info,
        entry_name: None,
        resource_count,
        resource_stride,
        resources,
        string_table: &[],
        semantic_index_table: Vec::new(),
        element_stride: 0,
        input_elements: Vec::new(),
        output_elements: Vec::new(),
        patch_or_prim_elements: Vec::new(),
        output_vector_masks: Default::default(),
        patch_or_prim_masks: Vec::new(),
        input_output_maps: Default::default(),
        input_patch_map: Vec::new(),
        patch_output_map: Vec::new(),
        trailing_bytes: 0,
    };
    if version == 0 {
        psv.trailing_bytes = c.len().saturating_sub(p) as u32;
        return Ok(psv);
    }

    // docs/format/psv0.md §4: the string table starts 4-byte aligned. LLVM aligns the
    // absolute address; within a part laid out by dxc the offset is aligned already.
    p = match mode {
        Mode::Strict => align4(p),
        Mode::LlvmCompat => align4(c.base() + p) - c.base(),
    };
    let table_size_at = p;
    let table_size = c.take_u32(&mut p, "PSV0 string table size")?;
    if table_size % 4 != 0 {
        return Err(c.error(
            table_size_at,
            ReadErrorKind::Unaligned {
                part: None,
                what: "string table size",
                value: table_size,
                alignment: 4,
            },
        ));
    }
    psv.string_table = c.take_bytes(&mut p, u64::from(table_size), "PSV0 string table")?;

    let index_count = c.take_u32(&mut p, "PSV0 semantic index count")?;
    psv.semantic_index_table = c
        .take_u32s(&mut p, u64::from(index_count), "PSV0 semantic index table")?
        .collect();

    let counts = [
        psv.runtime_info.sig_input_elements.unwrap_or(0),
        psv.runtime_info.sig_output_elements.unwrap_or(0),
        psv.runtime_info.sig_patch_or_prim_elements.unwrap_or(0),
    ];
    let element_count: u64 = counts.iter().map(|&n| u64::from(n)).sum();
    if element_count > 0 {
        let stride_at = p;
        let stride = c.take_u32(&mut p, "PSV0 signature element stride")?;
        if strict && stride < ELEMENT_SIZE {
            return Err(c.error(
                stride_at,
                ReadErrorKind::too_small(Psv0Error::ElementStride {
                    size: stride,
                    minimum: ELEMENT_SIZE,
                }),
            ));
        }
        psv.element_stride = stride;
        c.bytes(
            p,
            element_count * u64::from(stride),
            "PSV0 signature elements",
        )?;
        let table = psv.string_table;
        let index_table = &psv.semantic_index_table;
        let mut lists: [Vec<PsvElement<'data>>; 3] = Default::default();
        for (list, &count) in lists.iter_mut().zip(&counts) {
            *list = read_records(
                &c,
                &mut p,
                u64::from(count),
                stride,
                "PSV0 signature element",
                |r, at| decode_element(&c, r, at, table, index_table, mode),
            )?;
        }
        let [inputs, outputs, patch] = lists;
        psv.input_elements = inputs;
        psv.output_elements = outputs;
        psv.patch_or_prim_elements = patch;
    }

    if let Some(offset) = psv.runtime_info.entry_name_offset {
        psv.entry_name = Some(resolve_name(
            &c,
            psv.string_table,
            offset,
            4 + 48,
            mode,
            ("entry name", |offset, table_len| {
                Psv0Error::EntryNameOffset { offset, table_len }
            }),
        )?);
    }

    // Dependency tables (docs/format/psv0.md §4).
    let ri = psv.runtime_info;
    let outputs = ri.sig_output_vectors.unwrap_or([0; 4]);
    let inputs = ri.sig_input_vectors.unwrap_or(0);
    let patch = ri.sig_patch_const_or_prim_vectors().unwrap_or(0);
    let hull = stage == Some(ShaderKind::Hull);
    let mesh = stage == Some(ShaderKind::Mesh);
    let domain = stage == Some(ShaderKind::Domain);
    let mut table = |words: u32, what: &'static str| -> Result<Vec<u32>> {
        match mode {
            Mode::Strict => Ok(c.take_u32s(&mut p, u64::from(words), what)?.collect()),
            Mode::LlvmCompat => {
                // LLVM reads what is there: a short table is cut, not an error.
                Ok(c.take_u32s_cut(&mut p, u64::from(words)).collect())
            }
        }
    };
    if ri.uses_view_id.unwrap_or(0) != 0 {
        for (mask, &count) in psv.output_vector_masks.iter_mut().zip(&outputs) {
            *mask = table(mask_dwords(count), "PSV0 ViewID output mask")?;
        }
        if (hull || (strict && mesh)) && patch > 0 {
            psv.patch_or_prim_masks =
                table(mask_dwords(patch), "PSV0 ViewID patch/primitive mask")?;
        }
    }
    for (map, &count) in psv.input_output_maps.iter_mut().zip(&outputs) {
        if inputs > 0 && count > 0 {
            *map = table(map_table_dwords(inputs, count), "PSV0 input-output map")?;
        }
    }
    if hull && patch > 0 && inputs > 0 {
        psv.input_patch_map = table(map_table_dwords(inputs, patch), "PSV0 input-patch map")?;
    }
    if domain && patch > 0 && outputs[0] > 0 {
        psv.patch_output_map = table(map_table_dwords(patch, outputs[0]), "PSV0 patch-output map")?;
    }
    psv.trailing_bytes = c.len().saturating_sub(p) as u32;
    Ok(psv)
}

/// Resolves a NUL-terminated name at `offset` in the string table.
fn resolve_name<'data>(
    c: &Cursor<'data>,
    table: &'data [u8],
    offset: u32,
    at: u64,
    mode: Mode,
    (what, outside): (&'static str, fn(u32, u64) -> Psv0Error),
) -> Result<&'data [u8]> {
    let rest = table.get(offset as usize..);
    match (mode, rest) {
        (Mode::LlvmCompat, None) => Ok(&[]),
        (Mode::LlvmCompat, Some(rest)) => {
            Ok(&rest[..rest.iter().position(|&b| b == 0).unwrap_or(rest.len())])
        }
        (Mode::Strict, Some(rest)) if !rest.is_empty() => match rest.iter().position(|&b| b == 0) {
            Some(end) => Ok(&rest[..end]),
            None => Err(c.error(
                at,
                ReadErrorKind::NotNulTerminated {
                    part: None,
                    what,
                    table_offset: Some(offset),
                },
            )),
        },
        (Mode::Strict, _) => Err(c.error(
            at,
            ReadErrorKind::out_of_bounds(outside(offset, table.len() as u64)),
        )),
    }
}

fn decode_element<'data>(
    c: &Cursor<'data>,
    record: &Cursor<'_>,
    at: u64,
    table: &'data [u8],
    index_table: &[u32],
    mode: Mode,
) -> Result<PsvElement<'data>> {
    let r = ElementRecord::read(record, 0)?;
    let (name_offset, indices_offset, rows) = (r.name_offset, r.indices_offset, r.rows);
    let name = resolve_name(
        c,
        table,
        name_offset,
        at,
        mode,
        ("semantic name", |offset, table_len| {
            Psv0Error::SemanticNameOffset { offset, table_len }
        }),
    )?;
    let start = indices_offset as usize;
    let indices = match index_table.get(start..start.saturating_add(usize::from(rows))) {
        Some(slice) => slice.to_vec(),
        None if mode == Mode::LlvmCompat => index_table
            .get(start.min(index_table.len())..)
            .map(|s| s[..s.len().min(usize::from(rows))].to_vec())
            .unwrap_or_default(),
        None => {
            return Err(c.error(
                at + 4,
                ReadErrorKind::out_of_bounds(Psv0Error::SemanticIndices {
                    start: indices_offset,
                    rows: u32::from(rows),
                    table_len: index_table.len() as u64,
                }),
            ))
        }
    };
    Ok(PsvElement {
        name_offset,
        name,
        indices_offset,
        rows,
        indices,
        start_row: r.start_row,
        cols: r.cols_start_col_allocated & 0xf,
        start_col: (r.cols_start_col_allocated >> 4) & 0x3,
        allocated: (r.cols_start_col_allocated >> 6) & 1 != 0,
        kind: r.kind,
        component_type: ComponentType::from_raw(u32::from(r.component_type)),
        interpolation: r.interpolation,
        dynamic_mask: r.dynamic_mask_stream & 0xf,
        stream: (r.dynamic_mask_stream >> 4) & 0x3,
        reserved: r.reserved,
    })
}

/// The PSV0 decoder's errors, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Psv0Error {
    /// The pipeline state data's size prefix runs past the part.
    RuntimeInfoSize {
        /// The size prefix.
        len: u32,
        /// The part size.
        part_size: u64,
    },
    /// The entry function name's offset is outside the string table.
    EntryNameOffset {
        /// The offset.
        offset: u32,
        /// The string table's size.
        table_len: u64,
    },
    /// A signature element's semantic name offset is outside the string
    /// table.
    SemanticNameOffset {
        /// The offset.
        offset: u32,
        /// The string table's size.
        table_len: u64,
    },
    /// A signature element's rows are outside the semantic index table.
    SemanticIndices {
        /// The element's first entry.
        start: u32,
        /// Its rows.
        rows: u32,
        /// The entries of the index table.
        table_len: u64,
    },
    /// The resource binding stride is smaller than the version-0 record.
    ResourceStride {
        /// The stride.
        size: u32,
        /// The record's size.
        minimum: u32,
    },
    /// The signature element stride is smaller than the element record.
    ElementStride {
        /// The stride.
        size: u32,
        /// The record's size.
        minimum: u32,
    },
}

impl fmt::Display for Psv0Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Psv0Error::RuntimeInfoSize { len, part_size } => write!(
                f,
                "pipeline state data of {len:#x} bytes extends beyond the {part_size}-byte part"
            ),
            Psv0Error::EntryNameOffset { offset, table_len } => write!(
                f,
                "entry name offset {offset} is outside the {table_len}-byte string table"
            ),
            Psv0Error::SemanticNameOffset { offset, table_len } => write!(
                f,
                "semantic name offset {offset} is outside the {table_len}-byte string table"
            ),
            Psv0Error::SemanticIndices {
                start,
                rows,
                table_len,
            } => write!(
                f,
                "semantic indices {start}..{} are outside the {table_len}-entry index table",
                u64::from(*start) + u64::from(*rows)
            ),
            Psv0Error::ResourceStride { size, minimum } => write!(
                f,
                "resource stride {size} is smaller than the {minimum}-byte record"
            ),
            Psv0Error::ElementStride { size, minimum } => write!(
                f,
                "signature element stride {size} is smaller than the {minimum}-byte record"
            ),
        }
    }
}

#[cfg(test)]
mod tests;
