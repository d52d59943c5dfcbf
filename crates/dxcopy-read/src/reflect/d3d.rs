//! The D3D enumerations and flag words of the reflection descriptors, named
//! by their constants in Microsoft's `d3dcommon.h` / `d3d12shader.h`
//! (`D3D_SIT_CBUFFER`, `D3D_SRV_DIMENSION_TEXTURE2D`, …), so each value can
//! be looked up in Microsoft's documentation. Values the headers do not name
//! keep their number (`Unknown(N)`).

use crate::enums::{flag_set, open_enum};

open_enum! {
    /// `D3D12_SHADER_VERSION_TYPE`: the program type in `Version`.
    pub enum ShaderVersionType: u32 {
        Pixel = 0 => "D3D12_SHVER_PIXEL_SHADER",
        Vertex = 1 => "D3D12_SHVER_VERTEX_SHADER",
        Geometry = 2 => "D3D12_SHVER_GEOMETRY_SHADER",
        Hull = 3 => "D3D12_SHVER_HULL_SHADER",
        Domain = 4 => "D3D12_SHVER_DOMAIN_SHADER",
        Compute = 5 => "D3D12_SHVER_COMPUTE_SHADER",
        Library = 6 => "D3D12_SHVER_LIBRARY",
        RayGeneration = 7 => "D3D12_SHVER_RAY_GENERATION_SHADER",
        Intersection = 8 => "D3D12_SHVER_INTERSECTION_SHADER",
        AnyHit = 9 => "D3D12_SHVER_ANY_HIT_SHADER",
        ClosestHit = 10 => "D3D12_SHVER_CLOSEST_HIT_SHADER",
        Miss = 11 => "D3D12_SHVER_MISS_SHADER",
        Callable = 12 => "D3D12_SHVER_CALLABLE_SHADER",
        Mesh = 13 => "D3D12_SHVER_MESH_SHADER",
        Amplification = 14 => "D3D12_SHVER_AMPLIFICATION_SHADER",
        Node = 15 => "D3D12_SHVER_NODE_SHADER",
    }
}

impl ShaderVersionType {
    /// The word dxc's reflection dumper prints for the type (`Pixel`, `Library`, …).
    pub fn dumper_name(self) -> &'static str {
        match self.raw() {
            0 => "Pixel",
            1 => "Vertex",
            2 => "Geometry",
            3 => "Hull",
            4 => "Domain",
            5 => "Compute",
            6 => "Library",
            7 => "RayGeneration",
            8 => "Intersection",
            9 => "AnyHit",
            10 => "ClosestHit",
            11 => "Miss",
            12 => "Callable",
            13 => "Mesh",
            14 => "Amplification",
            15 => "Invalid",
            _ => "<unknown>",
        }
    }
}

crate::enums::shader_input_type! { d3d,
    /// `D3D_SHADER_INPUT_TYPE` of a bound resource.
    pub enum ShaderInputType: u32
}

crate::enums::resource_return_type! { d3d,
    /// `D3D_RESOURCE_RETURN_TYPE` (0, written for resources without one, has no name).
    pub enum ResourceReturnType: u32
}

crate::enums::srv_dimension! { d3d,
    /// `D3D_SRV_DIMENSION` of a bound resource.
    pub enum SrvDimension: u32
}

crate::enums::cbuffer_type! { d3d,
    /// `D3D_CBUFFER_TYPE`.
    pub enum CbufferType: u32
}

crate::enums::variable_class! { d3d,
    /// `D3D_SHADER_VARIABLE_CLASS`.
    pub enum VariableClass: u32
}

crate::enums::variable_type! { d3d,
    /// `D3D_SHADER_VARIABLE_TYPE`.
    pub enum VariableType: u32
}

crate::enums::system_value! { d3d,
    /// `D3D_NAME`: the system value of a signature parameter.
    pub enum Name: u32
}

crate::enums::register_component_type! { d3d,
    /// `D3D_REGISTER_COMPONENT_TYPE`.
    pub enum RegisterComponentType: u32
}

crate::enums::min_precision! { d3d,
    /// `D3D_MIN_PRECISION`.
    pub enum MinPrecision: u32
}

open_enum! {
    /// `D3D_PRIMITIVE`: a geometry or hull shader's input primitive.
    pub enum Primitive: u32 {
        Undefined = 0 => "D3D_PRIMITIVE_UNDEFINED",
        Point = 1 => "D3D_PRIMITIVE_POINT",
        Line = 2 => "D3D_PRIMITIVE_LINE",
        Triangle = 3 => "D3D_PRIMITIVE_TRIANGLE",
        LineAdj = 6 => "D3D_PRIMITIVE_LINE_ADJ",
        TriangleAdj = 7 => "D3D_PRIMITIVE_TRIANGLE_ADJ",
        Patch1 = 8 => "D3D_PRIMITIVE_1_CONTROL_POINT_PATCH",
        Patch2 = 9 => "D3D_PRIMITIVE_2_CONTROL_POINT_PATCH",
        Patch3 = 10 => "D3D_PRIMITIVE_3_CONTROL_POINT_PATCH",
        Patch4 = 11 => "D3D_PRIMITIVE_4_CONTROL_POINT_PATCH",
        Patch5 = 12 => "D3D_PRIMITIVE_5_CONTROL_POINT_PATCH",
        Patch6 = 13 => "D3D_PRIMITIVE_6_CONTROL_POINT_PATCH",
        Patch7 = 14 => "D3D_PRIMITIVE_7_CONTROL_POINT_PATCH",
        Patch8 = 15 => "D3D_PRIMITIVE_8_CONTROL_POINT_PATCH",
        Patch9 = 16 => "D3D_PRIMITIVE_9_CONTROL_POINT_PATCH",
        Patch10 = 17 => "D3D_PRIMITIVE_10_CONTROL_POINT_PATCH",
        Patch11 = 18 => "D3D_PRIMITIVE_11_CONTROL_POINT_PATCH",
        Patch12 = 19 => "D3D_PRIMITIVE_12_CONTROL_POINT_PATCH",
        Patch13 = 20 => "D3D_PRIMITIVE_13_CONTROL_POINT_PATCH",
        Patch14 = 21 => "D3D_PRIMITIVE_14_CONTROL_POINT_PATCH",
        Patch15 = 22 => "D3D_PRIMITIVE_15_CONTROL_POINT_PATCH",
        Patch16 = 23 => "D3D_PRIMITIVE_16_CONTROL_POINT_PATCH",
        Patch17 = 24 => "D3D_PRIMITIVE_17_CONTROL_POINT_PATCH",
        Patch18 = 25 => "D3D_PRIMITIVE_18_CONTROL_POINT_PATCH",
        Patch19 = 26 => "D3D_PRIMITIVE_19_CONTROL_POINT_PATCH",
        Patch20 = 27 => "D3D_PRIMITIVE_20_CONTROL_POINT_PATCH",
        Patch21 = 28 => "D3D_PRIMITIVE_21_CONTROL_POINT_PATCH",
        Patch22 = 29 => "D3D_PRIMITIVE_22_CONTROL_POINT_PATCH",
        Patch23 = 30 => "D3D_PRIMITIVE_23_CONTROL_POINT_PATCH",
        Patch24 = 31 => "D3D_PRIMITIVE_24_CONTROL_POINT_PATCH",
        Patch25 = 32 => "D3D_PRIMITIVE_25_CONTROL_POINT_PATCH",
        Patch26 = 33 => "D3D_PRIMITIVE_26_CONTROL_POINT_PATCH",
        Patch27 = 34 => "D3D_PRIMITIVE_27_CONTROL_POINT_PATCH",
        Patch28 = 35 => "D3D_PRIMITIVE_28_CONTROL_POINT_PATCH",
        Patch29 = 36 => "D3D_PRIMITIVE_29_CONTROL_POINT_PATCH",
        Patch30 = 37 => "D3D_PRIMITIVE_30_CONTROL_POINT_PATCH",
        Patch31 = 38 => "D3D_PRIMITIVE_31_CONTROL_POINT_PATCH",
        Patch32 = 39 => "D3D_PRIMITIVE_32_CONTROL_POINT_PATCH",
    }
}

open_enum! {
    /// `D3D_PRIMITIVE_TOPOLOGY`: a geometry shader's output topology.
    pub enum PrimitiveTopology: u32 {
        Undefined = 0 => "D3D_PRIMITIVE_TOPOLOGY_UNDEFINED",
        PointList = 1 => "D3D_PRIMITIVE_TOPOLOGY_POINTLIST",
        LineList = 2 => "D3D_PRIMITIVE_TOPOLOGY_LINELIST",
        LineStrip = 3 => "D3D_PRIMITIVE_TOPOLOGY_LINESTRIP",
        TriangleList = 4 => "D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST",
        TriangleStrip = 5 => "D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP",
        LineListAdj = 10 => "D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ",
        LineStripAdj = 11 => "D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ",
        TriangleListAdj = 12 => "D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ",
        TriangleStripAdj = 13 => "D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ",
        PatchList1 = 33 => "D3D_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST",
        PatchList2 = 34 => "D3D_PRIMITIVE_TOPOLOGY_2_CONTROL_POINT_PATCHLIST",
        PatchList3 = 35 => "D3D_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST",
        PatchList4 = 36 => "D3D_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST",
        PatchList5 = 37 => "D3D_PRIMITIVE_TOPOLOGY_5_CONTROL_POINT_PATCHLIST",
        PatchList6 = 38 => "D3D_PRIMITIVE_TOPOLOGY_6_CONTROL_POINT_PATCHLIST",
        PatchList7 = 39 => "D3D_PRIMITIVE_TOPOLOGY_7_CONTROL_POINT_PATCHLIST",
        PatchList8 = 40 => "D3D_PRIMITIVE_TOPOLOGY_8_CONTROL_POINT_PATCHLIST",
        PatchList9 = 41 => "D3D_PRIMITIVE_TOPOLOGY_9_CONTROL_POINT_PATCHLIST",
        PatchList10 = 42 => "D3D_PRIMITIVE_TOPOLOGY_10_CONTROL_POINT_PATCHLIST",
        PatchList11 = 43 => "D3D_PRIMITIVE_TOPOLOGY_11_CONTROL_POINT_PATCHLIST",
        PatchList12 = 44 => "D3D_PRIMITIVE_TOPOLOGY_12_CONTROL_POINT_PATCHLIST",
        PatchList13 = 45 => "D3D_PRIMITIVE_TOPOLOGY_13_CONTROL_POINT_PATCHLIST",
        PatchList14 = 46 => "D3D_PRIMITIVE_TOPOLOGY_14_CONTROL_POINT_PATCHLIST",
        PatchList15 = 47 => "D3D_PRIMITIVE_TOPOLOGY_15_CONTROL_POINT_PATCHLIST",
        PatchList16 = 48 => "D3D_PRIMITIVE_TOPOLOGY_16_CONTROL_POINT_PATCHLIST",
        PatchList17 = 49 => "D3D_PRIMITIVE_TOPOLOGY_17_CONTROL_POINT_PATCHLIST",
        PatchList18 = 50 => "D3D_PRIMITIVE_TOPOLOGY_18_CONTROL_POINT_PATCHLIST",
        PatchList19 = 51 => "D3D_PRIMITIVE_TOPOLOGY_19_CONTROL_POINT_PATCHLIST",
        PatchList20 = 52 => "D3D_PRIMITIVE_TOPOLOGY_20_CONTROL_POINT_PATCHLIST",
        PatchList21 = 53 => "D3D_PRIMITIVE_TOPOLOGY_21_CONTROL_POINT_PATCHLIST",
        PatchList22 = 54 => "D3D_PRIMITIVE_TOPOLOGY_22_CONTROL_POINT_PATCHLIST",
        PatchList23 = 55 => "D3D_PRIMITIVE_TOPOLOGY_23_CONTROL_POINT_PATCHLIST",
        PatchList24 = 56 => "D3D_PRIMITIVE_TOPOLOGY_24_CONTROL_POINT_PATCHLIST",
        PatchList25 = 57 => "D3D_PRIMITIVE_TOPOLOGY_25_CONTROL_POINT_PATCHLIST",
        PatchList26 = 58 => "D3D_PRIMITIVE_TOPOLOGY_26_CONTROL_POINT_PATCHLIST",
        PatchList27 = 59 => "D3D_PRIMITIVE_TOPOLOGY_27_CONTROL_POINT_PATCHLIST",
        PatchList28 = 60 => "D3D_PRIMITIVE_TOPOLOGY_28_CONTROL_POINT_PATCHLIST",
        PatchList29 = 61 => "D3D_PRIMITIVE_TOPOLOGY_29_CONTROL_POINT_PATCHLIST",
        PatchList30 = 62 => "D3D_PRIMITIVE_TOPOLOGY_30_CONTROL_POINT_PATCHLIST",
        PatchList31 = 63 => "D3D_PRIMITIVE_TOPOLOGY_31_CONTROL_POINT_PATCHLIST",
        PatchList32 = 64 => "D3D_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST",
    }
}

open_enum! {
    /// `D3D_TESSELLATOR_OUTPUT_PRIMITIVE`.
    pub enum TessellatorOutputPrimitive: u32 {
        Undefined = 0 => "D3D_TESSELLATOR_OUTPUT_UNDEFINED",
        Point = 1 => "D3D_TESSELLATOR_OUTPUT_POINT",
        Line = 2 => "D3D_TESSELLATOR_OUTPUT_LINE",
        TriangleCw = 3 => "D3D_TESSELLATOR_OUTPUT_TRIANGLE_CW",
        TriangleCcw = 4 => "D3D_TESSELLATOR_OUTPUT_TRIANGLE_CCW",
    }
}

open_enum! {
    /// `D3D_TESSELLATOR_PARTITIONING`.
    pub enum TessellatorPartitioning: u32 {
        Undefined = 0 => "D3D_TESSELLATOR_PARTITIONING_UNDEFINED",
        Integer = 1 => "D3D_TESSELLATOR_PARTITIONING_INTEGER",
        Pow2 = 2 => "D3D_TESSELLATOR_PARTITIONING_POW2",
        FractionalOdd = 3 => "D3D_TESSELLATOR_PARTITIONING_FRACTIONAL_ODD",
        FractionalEven = 4 => "D3D_TESSELLATOR_PARTITIONING_FRACTIONAL_EVEN",
    }
}

open_enum! {
    /// `D3D_TESSELLATOR_DOMAIN`.
    pub enum TessellatorDomain: u32 {
        Undefined = 0 => "D3D_TESSELLATOR_DOMAIN_UNDEFINED",
        Isoline = 1 => "D3D_TESSELLATOR_DOMAIN_ISOLINE",
        Tri = 2 => "D3D_TESSELLATOR_DOMAIN_TRI",
        Quad = 3 => "D3D_TESSELLATOR_DOMAIN_QUAD",
    }
}

open_enum! {
    /// `D3D_FEATURE_LEVEL`.
    pub enum FeatureLevel: u32 {
        Level1_0Core = 0x1000 => "D3D_FEATURE_LEVEL_1_0_CORE",
        Level9_1 = 0x9100 => "D3D_FEATURE_LEVEL_9_1",
        Level9_2 = 0x9200 => "D3D_FEATURE_LEVEL_9_2",
        Level9_3 = 0x9300 => "D3D_FEATURE_LEVEL_9_3",
        Level10_0 = 0xa000 => "D3D_FEATURE_LEVEL_10_0",
        Level10_1 = 0xa100 => "D3D_FEATURE_LEVEL_10_1",
        Level11_0 = 0xb000 => "D3D_FEATURE_LEVEL_11_0",
        Level11_1 = 0xb100 => "D3D_FEATURE_LEVEL_11_1",
        Level12_0 = 0xc000 => "D3D_FEATURE_LEVEL_12_0",
        Level12_1 = 0xc100 => "D3D_FEATURE_LEVEL_12_1",
        Level12_2 = 0xc200 => "D3D_FEATURE_LEVEL_12_2",
    }
}

crate::enums::variable_flags! { d3d,
    /// `D3D_SHADER_VARIABLE_FLAGS`.
    pub struct VariableFlags: u32
}

crate::enums::shader_input_flags! { d3d,
    /// `D3D_SHADER_INPUT_FLAGS` (`D3D_SIF_TEXTURE_COMPONENTS` is both component bits).
    pub struct InputFlags: u32
}

crate::enums::cbuffer_flags! { d3d,
    /// `D3D_SHADER_CBUFFER_FLAGS`.
    pub struct CbufferFlags: u32
}

crate::enums::compile_flags! { d3d,
    /// `D3DCOMPILE_*` flags: `D3D12_SHADER_DESC.Flags` (optimization level 2 is both level bits).
    pub struct CompileFlags: u32
}

flag_set! {
    /// `D3D_SHADER_REQUIRES_*`: what `GetRequiresFlags` returns. The bits are
    /// SFI0's feature bits, except bit 1, which is early depth-stencil here.
    pub struct RequiresFlags: u64 {
        DOUBLES = 0x1 => "D3D_SHADER_REQUIRES_DOUBLES",
        EARLY_DEPTH_STENCIL = 0x2 => "D3D_SHADER_REQUIRES_EARLY_DEPTH_STENCIL",
        UAVS_AT_EVERY_STAGE = 0x4 => "D3D_SHADER_REQUIRES_UAVS_AT_EVERY_STAGE",
        UAVS_64 = 0x8 => "D3D_SHADER_REQUIRES_64_UAVS",
        MINIMUM_PRECISION = 0x10 => "D3D_SHADER_REQUIRES_MINIMUM_PRECISION",
        DOUBLE_EXTENSIONS_11_1 = 0x20 => "D3D_SHADER_REQUIRES_11_1_DOUBLE_EXTENSIONS",
        SHADER_EXTENSIONS_11_1 = 0x40 => "D3D_SHADER_REQUIRES_11_1_SHADER_EXTENSIONS",
        LEVEL_9_COMPARISON_FILTERING = 0x80 => "D3D_SHADER_REQUIRES_LEVEL_9_COMPARISON_FILTERING",
        TILED_RESOURCES = 0x100 => "D3D_SHADER_REQUIRES_TILED_RESOURCES",
        STENCIL_REF = 0x200 => "D3D_SHADER_REQUIRES_STENCIL_REF",
        INNER_COVERAGE = 0x400 => "D3D_SHADER_REQUIRES_INNER_COVERAGE",
        TYPED_UAV_LOAD_ADDITIONAL_FORMATS = 0x800 => "D3D_SHADER_REQUIRES_TYPED_UAV_LOAD_ADDITIONAL_FORMATS",
        ROVS = 0x1000 => "D3D_SHADER_REQUIRES_ROVS",
        VIEWPORT_AND_RT_ARRAY_INDEX = 0x2000 => "D3D_SHADER_REQUIRES_VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER",
        WAVE_OPS = 0x4000 => "D3D_SHADER_REQUIRES_WAVE_OPS",
        INT64_OPS = 0x8000 => "D3D_SHADER_REQUIRES_INT64_OPS",
        VIEW_ID = 0x1_0000 => "D3D_SHADER_REQUIRES_VIEW_ID",
        BARYCENTRICS = 0x2_0000 => "D3D_SHADER_REQUIRES_BARYCENTRICS",
        NATIVE_16BIT_OPS = 0x4_0000 => "D3D_SHADER_REQUIRES_NATIVE_16BIT_OPS",
        SHADING_RATE = 0x8_0000 => "D3D_SHADER_REQUIRES_SHADING_RATE",
        RAYTRACING_TIER_1_1 = 0x10_0000 => "D3D_SHADER_REQUIRES_RAYTRACING_TIER_1_1",
        SAMPLER_FEEDBACK = 0x20_0000 => "D3D_SHADER_REQUIRES_SAMPLER_FEEDBACK",
        ATOMIC_INT64_ON_TYPED_RESOURCE = 0x40_0000 => "D3D_SHADER_REQUIRES_ATOMIC_INT64_ON_TYPED_RESOURCE",
        ATOMIC_INT64_ON_GROUP_SHARED = 0x80_0000 => "D3D_SHADER_REQUIRES_ATOMIC_INT64_ON_GROUP_SHARED",
        DERIVATIVES_IN_MESH_AND_AMPLIFICATION_SHADERS = 0x100_0000 => "D3D_SHADER_REQUIRES_DERIVATIVES_IN_MESH_AND_AMPLIFICATION_SHADERS",
        RESOURCE_DESCRIPTOR_HEAP_INDEXING = 0x200_0000 => "D3D_SHADER_REQUIRES_RESOURCE_DESCRIPTOR_HEAP_INDEXING",
        SAMPLER_DESCRIPTOR_HEAP_INDEXING = 0x400_0000 => "D3D_SHADER_REQUIRES_SAMPLER_DESCRIPTOR_HEAP_INDEXING",
        WAVE_MMA = 0x800_0000 => "D3D_SHADER_REQUIRES_WAVE_MMA",
        ATOMIC_INT64_ON_DESCRIPTOR_HEAP_RESOURCE = 0x1000_0000 => "D3D_SHADER_REQUIRES_ATOMIC_INT64_ON_DESCRIPTOR_HEAP_RESOURCE",
        ADVANCED_TEXTURE_OPS = 0x2000_0000 => "D3D_SHADER_REQUIRES_ADVANCED_TEXTURE_OPS",
        WRITEABLE_MSAA_TEXTURES = 0x4000_0000 => "D3D_SHADER_REQUIRES_WRITEABLE_MSAA_TEXTURES",
        SAMPLE_CMP_GRADIENT_OR_BIAS = 0x8000_0000 => "D3D_SHADER_REQUIRES_SAMPLE_CMP_GRADIENT_OR_BIAS",
        EXTENDED_COMMAND_INFO = 0x1_0000_0000 => "D3D_SHADER_REQUIRES_EXTENDED_COMMAND_INFO",
    }
}
