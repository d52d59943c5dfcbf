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

open_enum! {
    /// `D3D_SHADER_INPUT_TYPE` of a bound resource.
    pub enum ShaderInputType: u32 {
        Cbuffer = 0 => "D3D_SIT_CBUFFER",
        Tbuffer = 1 => "D3D_SIT_TBUFFER",
        Texture = 2 => "D3D_SIT_TEXTURE",
        Sampler = 3 => "D3D_SIT_SAMPLER",
        UavRwTyped = 4 => "D3D_SIT_UAV_RWTYPED",
        Structured = 5 => "D3D_SIT_STRUCTURED",
        UavRwStructured = 6 => "D3D_SIT_UAV_RWSTRUCTURED",
        ByteAddress = 7 => "D3D_SIT_BYTEADDRESS",
        UavRwByteAddress = 8 => "D3D_SIT_UAV_RWBYTEADDRESS",
        UavAppendStructured = 9 => "D3D_SIT_UAV_APPEND_STRUCTURED",
        UavConsumeStructured = 10 => "D3D_SIT_UAV_CONSUME_STRUCTURED",
        UavRwStructuredWithCounter = 11 => "D3D_SIT_UAV_RWSTRUCTURED_WITH_COUNTER",
        RtAccelerationStructure = 12 => "D3D_SIT_RTACCELERATIONSTRUCTURE",
        UavFeedbackTexture = 13 => "D3D_SIT_UAV_FEEDBACKTEXTURE",
    }
}

open_enum! {
    /// `D3D_RESOURCE_RETURN_TYPE` (0, written for resources without one, has no name).
    pub enum ResourceReturnType: u32 {
        Unorm = 1 => "D3D_RETURN_TYPE_UNORM",
        Snorm = 2 => "D3D_RETURN_TYPE_SNORM",
        Sint = 3 => "D3D_RETURN_TYPE_SINT",
        Uint = 4 => "D3D_RETURN_TYPE_UINT",
        Float = 5 => "D3D_RETURN_TYPE_FLOAT",
        Mixed = 6 => "D3D_RETURN_TYPE_MIXED",
        Double = 7 => "D3D_RETURN_TYPE_DOUBLE",
        Continued = 8 => "D3D_RETURN_TYPE_CONTINUED",
    }
}

open_enum! {
    /// `D3D_SRV_DIMENSION` of a bound resource.
    pub enum SrvDimension: u32 {
        Unknown0 = 0 => "D3D_SRV_DIMENSION_UNKNOWN",
        Buffer = 1 => "D3D_SRV_DIMENSION_BUFFER",
        Texture1D = 2 => "D3D_SRV_DIMENSION_TEXTURE1D",
        Texture1DArray = 3 => "D3D_SRV_DIMENSION_TEXTURE1DARRAY",
        Texture2D = 4 => "D3D_SRV_DIMENSION_TEXTURE2D",
        Texture2DArray = 5 => "D3D_SRV_DIMENSION_TEXTURE2DARRAY",
        Texture2DMS = 6 => "D3D_SRV_DIMENSION_TEXTURE2DMS",
        Texture2DMSArray = 7 => "D3D_SRV_DIMENSION_TEXTURE2DMSARRAY",
        Texture3D = 8 => "D3D_SRV_DIMENSION_TEXTURE3D",
        TextureCube = 9 => "D3D_SRV_DIMENSION_TEXTURECUBE",
        TextureCubeArray = 10 => "D3D_SRV_DIMENSION_TEXTURECUBEARRAY",
        BufferEx = 11 => "D3D_SRV_DIMENSION_BUFFEREX",
    }
}

open_enum! {
    /// `D3D_CBUFFER_TYPE`.
    pub enum CbufferType: u32 {
        Cbuffer = 0 => "D3D_CT_CBUFFER",
        Tbuffer = 1 => "D3D_CT_TBUFFER",
        InterfacePointers = 2 => "D3D_CT_INTERFACE_POINTERS",
        ResourceBindInfo = 3 => "D3D_CT_RESOURCE_BIND_INFO",
    }
}

open_enum! {
    /// `D3D_SHADER_VARIABLE_CLASS`.
    pub enum VariableClass: u32 {
        Scalar = 0 => "D3D_SVC_SCALAR",
        Vector = 1 => "D3D_SVC_VECTOR",
        MatrixRows = 2 => "D3D_SVC_MATRIX_ROWS",
        MatrixColumns = 3 => "D3D_SVC_MATRIX_COLUMNS",
        Object = 4 => "D3D_SVC_OBJECT",
        Struct = 5 => "D3D_SVC_STRUCT",
        InterfaceClass = 6 => "D3D_SVC_INTERFACE_CLASS",
        InterfacePointer = 7 => "D3D_SVC_INTERFACE_POINTER",
        BitField = 8 => "D3D_SVC_BIT_FIELD",
    }
}

open_enum! {
    /// `D3D_SHADER_VARIABLE_TYPE`.
    pub enum VariableType: u32 {
        Void = 0 => "D3D_SVT_VOID",
        Bool = 1 => "D3D_SVT_BOOL",
        Int = 2 => "D3D_SVT_INT",
        Float = 3 => "D3D_SVT_FLOAT",
        String = 4 => "D3D_SVT_STRING",
        Texture = 5 => "D3D_SVT_TEXTURE",
        Texture1D = 6 => "D3D_SVT_TEXTURE1D",
        Texture2D = 7 => "D3D_SVT_TEXTURE2D",
        Texture3D = 8 => "D3D_SVT_TEXTURE3D",
        TextureCube = 9 => "D3D_SVT_TEXTURECUBE",
        Sampler = 10 => "D3D_SVT_SAMPLER",
        Sampler1D = 11 => "D3D_SVT_SAMPLER1D",
        Sampler2D = 12 => "D3D_SVT_SAMPLER2D",
        Sampler3D = 13 => "D3D_SVT_SAMPLER3D",
        SamplerCube = 14 => "D3D_SVT_SAMPLERCUBE",
        PixelShader = 15 => "D3D_SVT_PIXELSHADER",
        VertexShader = 16 => "D3D_SVT_VERTEXSHADER",
        PixelFragment = 17 => "D3D_SVT_PIXELFRAGMENT",
        VertexFragment = 18 => "D3D_SVT_VERTEXFRAGMENT",
        Uint = 19 => "D3D_SVT_UINT",
        Uint8 = 20 => "D3D_SVT_UINT8",
        GeometryShader = 21 => "D3D_SVT_GEOMETRYSHADER",
        Rasterizer = 22 => "D3D_SVT_RASTERIZER",
        DepthStencil = 23 => "D3D_SVT_DEPTHSTENCIL",
        Blend = 24 => "D3D_SVT_BLEND",
        Buffer = 25 => "D3D_SVT_BUFFER",
        Cbuffer = 26 => "D3D_SVT_CBUFFER",
        Tbuffer = 27 => "D3D_SVT_TBUFFER",
        Texture1DArray = 28 => "D3D_SVT_TEXTURE1DARRAY",
        Texture2DArray = 29 => "D3D_SVT_TEXTURE2DARRAY",
        RenderTargetView = 30 => "D3D_SVT_RENDERTARGETVIEW",
        DepthStencilView = 31 => "D3D_SVT_DEPTHSTENCILVIEW",
        Texture2DMS = 32 => "D3D_SVT_TEXTURE2DMS",
        Texture2DMSArray = 33 => "D3D_SVT_TEXTURE2DMSARRAY",
        TextureCubeArray = 34 => "D3D_SVT_TEXTURECUBEARRAY",
        HullShader = 35 => "D3D_SVT_HULLSHADER",
        DomainShader = 36 => "D3D_SVT_DOMAINSHADER",
        InterfacePointer = 37 => "D3D_SVT_INTERFACE_POINTER",
        ComputeShader = 38 => "D3D_SVT_COMPUTESHADER",
        Double = 39 => "D3D_SVT_DOUBLE",
        RwTexture1D = 40 => "D3D_SVT_RWTEXTURE1D",
        RwTexture1DArray = 41 => "D3D_SVT_RWTEXTURE1DARRAY",
        RwTexture2D = 42 => "D3D_SVT_RWTEXTURE2D",
        RwTexture2DArray = 43 => "D3D_SVT_RWTEXTURE2DARRAY",
        RwTexture3D = 44 => "D3D_SVT_RWTEXTURE3D",
        RwBuffer = 45 => "D3D_SVT_RWBUFFER",
        ByteAddressBuffer = 46 => "D3D_SVT_BYTEADDRESS_BUFFER",
        RwByteAddressBuffer = 47 => "D3D_SVT_RWBYTEADDRESS_BUFFER",
        StructuredBuffer = 48 => "D3D_SVT_STRUCTURED_BUFFER",
        RwStructuredBuffer = 49 => "D3D_SVT_RWSTRUCTURED_BUFFER",
        AppendStructuredBuffer = 50 => "D3D_SVT_APPEND_STRUCTURED_BUFFER",
        ConsumeStructuredBuffer = 51 => "D3D_SVT_CONSUME_STRUCTURED_BUFFER",
        Min8Float = 52 => "D3D_SVT_MIN8FLOAT",
        Min10Float = 53 => "D3D_SVT_MIN10FLOAT",
        Min16Float = 54 => "D3D_SVT_MIN16FLOAT",
        Min12Int = 55 => "D3D_SVT_MIN12INT",
        Min16Int = 56 => "D3D_SVT_MIN16INT",
        Min16Uint = 57 => "D3D_SVT_MIN16UINT",
        Int16 = 58 => "D3D_SVT_INT16",
        Uint16 = 59 => "D3D_SVT_UINT16",
        Float16 = 60 => "D3D_SVT_FLOAT16",
        Int64 = 61 => "D3D_SVT_INT64",
        Uint64 = 62 => "D3D_SVT_UINT64",
    }
}

open_enum! {
    /// `D3D_NAME`: the system value of a signature parameter.
    pub enum Name: u32 {
        Undefined = 0 => "D3D_NAME_UNDEFINED",
        Position = 1 => "D3D_NAME_POSITION",
        ClipDistance = 2 => "D3D_NAME_CLIP_DISTANCE",
        CullDistance = 3 => "D3D_NAME_CULL_DISTANCE",
        RenderTargetArrayIndex = 4 => "D3D_NAME_RENDER_TARGET_ARRAY_INDEX",
        ViewportArrayIndex = 5 => "D3D_NAME_VIEWPORT_ARRAY_INDEX",
        VertexId = 6 => "D3D_NAME_VERTEX_ID",
        PrimitiveId = 7 => "D3D_NAME_PRIMITIVE_ID",
        InstanceId = 8 => "D3D_NAME_INSTANCE_ID",
        IsFrontFace = 9 => "D3D_NAME_IS_FRONT_FACE",
        SampleIndex = 10 => "D3D_NAME_SAMPLE_INDEX",
        FinalQuadEdgeTessfactor = 11 => "D3D_NAME_FINAL_QUAD_EDGE_TESSFACTOR",
        FinalQuadInsideTessfactor = 12 => "D3D_NAME_FINAL_QUAD_INSIDE_TESSFACTOR",
        FinalTriEdgeTessfactor = 13 => "D3D_NAME_FINAL_TRI_EDGE_TESSFACTOR",
        FinalTriInsideTessfactor = 14 => "D3D_NAME_FINAL_TRI_INSIDE_TESSFACTOR",
        FinalLineDetailTessfactor = 15 => "D3D_NAME_FINAL_LINE_DETAIL_TESSFACTOR",
        FinalLineDensityTessfactor = 16 => "D3D_NAME_FINAL_LINE_DENSITY_TESSFACTOR",
        Barycentrics = 23 => "D3D_NAME_BARYCENTRICS",
        ShadingRate = 24 => "D3D_NAME_SHADINGRATE",
        CullPrimitive = 25 => "D3D_NAME_CULLPRIMITIVE",
        Target = 64 => "D3D_NAME_TARGET",
        Depth = 65 => "D3D_NAME_DEPTH",
        Coverage = 66 => "D3D_NAME_COVERAGE",
        DepthGreaterEqual = 67 => "D3D_NAME_DEPTH_GREATER_EQUAL",
        DepthLessEqual = 68 => "D3D_NAME_DEPTH_LESS_EQUAL",
        StencilRef = 69 => "D3D_NAME_STENCIL_REF",
        InnerCoverage = 70 => "D3D_NAME_INNER_COVERAGE",
    }
}

open_enum! {
    /// `D3D_REGISTER_COMPONENT_TYPE`.
    pub enum RegisterComponentType: u32 {
        Unknown0 = 0 => "D3D_REGISTER_COMPONENT_UNKNOWN",
        Uint32 = 1 => "D3D_REGISTER_COMPONENT_UINT32",
        Sint32 = 2 => "D3D_REGISTER_COMPONENT_SINT32",
        Float32 = 3 => "D3D_REGISTER_COMPONENT_FLOAT32",
        Uint16 = 4 => "D3D_REGISTER_COMPONENT_UINT16",
        Sint16 = 5 => "D3D_REGISTER_COMPONENT_SINT16",
        Float16 = 6 => "D3D_REGISTER_COMPONENT_FLOAT16",
        Uint64 = 7 => "D3D_REGISTER_COMPONENT_UINT64",
        Sint64 = 8 => "D3D_REGISTER_COMPONENT_SINT64",
        Float64 = 9 => "D3D_REGISTER_COMPONENT_FLOAT64",
    }
}

open_enum! {
    /// `D3D_MIN_PRECISION`.
    pub enum MinPrecision: u32 {
        Default = 0 => "D3D_MIN_PRECISION_DEFAULT",
        Float16 = 1 => "D3D_MIN_PRECISION_FLOAT_16",
        Float2_8 = 2 => "D3D_MIN_PRECISION_FLOAT_2_8",
        Reserved = 3 => "D3D_MIN_PRECISION_RESERVED",
        Sint16 = 4 => "D3D_MIN_PRECISION_SINT_16",
        Uint16 = 5 => "D3D_MIN_PRECISION_UINT_16",
        Any16 = 0xf0 => "D3D_MIN_PRECISION_ANY_16",
        Any10 = 0xf1 => "D3D_MIN_PRECISION_ANY_10",
    }
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

flag_set! {
    /// `D3D_SHADER_VARIABLE_FLAGS`.
    pub struct VariableFlags: u32 {
        USERPACKED = 0x1 => "D3D_SVF_USERPACKED",
        USED = 0x2 => "D3D_SVF_USED",
        INTERFACE_POINTER = 0x4 => "D3D_SVF_INTERFACE_POINTER",
        INTERFACE_PARAMETER = 0x8 => "D3D_SVF_INTERFACE_PARAMETER",
    }
}

flag_set! {
    /// `D3D_SHADER_INPUT_FLAGS` (`D3D_SIF_TEXTURE_COMPONENTS` is both component bits).
    pub struct InputFlags: u32 {
        USERPACKED = 0x1 => "D3D_SIF_USERPACKED",
        COMPARISON_SAMPLER = 0x2 => "D3D_SIF_COMPARISON_SAMPLER",
        TEXTURE_COMPONENT_0 = 0x4 => "D3D_SIF_TEXTURE_COMPONENT_0",
        TEXTURE_COMPONENT_1 = 0x8 => "D3D_SIF_TEXTURE_COMPONENT_1",
        UNUSED = 0x10 => "D3D_SIF_UNUSED",
    }
}

flag_set! {
    /// `D3D_SHADER_CBUFFER_FLAGS`.
    pub struct CbufferFlags: u32 {
        USERPACKED = 0x1 => "D3D_CBF_USERPACKED",
    }
}

flag_set! {
    /// `D3DCOMPILE_*` flags: `D3D12_SHADER_DESC.Flags` (optimization level 2 is both level bits).
    pub struct CompileFlags: u32 {
        DEBUG = 0x1 => "D3DCOMPILE_DEBUG",
        SKIP_VALIDATION = 0x2 => "D3DCOMPILE_SKIP_VALIDATION",
        SKIP_OPTIMIZATION = 0x4 => "D3DCOMPILE_SKIP_OPTIMIZATION",
        PACK_MATRIX_ROW_MAJOR = 0x8 => "D3DCOMPILE_PACK_MATRIX_ROW_MAJOR",
        PACK_MATRIX_COLUMN_MAJOR = 0x10 => "D3DCOMPILE_PACK_MATRIX_COLUMN_MAJOR",
        PARTIAL_PRECISION = 0x20 => "D3DCOMPILE_PARTIAL_PRECISION",
        FORCE_VS_SOFTWARE_NO_OPT = 0x40 => "D3DCOMPILE_FORCE_VS_SOFTWARE_NO_OPT",
        FORCE_PS_SOFTWARE_NO_OPT = 0x80 => "D3DCOMPILE_FORCE_PS_SOFTWARE_NO_OPT",
        NO_PRESHADER = 0x100 => "D3DCOMPILE_NO_PRESHADER",
        AVOID_FLOW_CONTROL = 0x200 => "D3DCOMPILE_AVOID_FLOW_CONTROL",
        PREFER_FLOW_CONTROL = 0x400 => "D3DCOMPILE_PREFER_FLOW_CONTROL",
        ENABLE_STRICTNESS = 0x800 => "D3DCOMPILE_ENABLE_STRICTNESS",
        ENABLE_BACKWARDS_COMPATIBILITY = 0x1000 => "D3DCOMPILE_ENABLE_BACKWARDS_COMPATIBILITY",
        IEEE_STRICTNESS = 0x2000 => "D3DCOMPILE_IEEE_STRICTNESS",
        OPTIMIZATION_LEVEL2 = 0xc000 => "D3DCOMPILE_OPTIMIZATION_LEVEL2",
        OPTIMIZATION_LEVEL0 = 0x4000 => "D3DCOMPILE_OPTIMIZATION_LEVEL0",
        OPTIMIZATION_LEVEL3 = 0x8000 => "D3DCOMPILE_OPTIMIZATION_LEVEL3",
        WARNINGS_ARE_ERRORS = 0x40000 => "D3DCOMPILE_WARNINGS_ARE_ERRORS",
        RESOURCES_MAY_ALIAS = 0x80000 => "D3DCOMPILE_RESOURCES_MAY_ALIAS",
        ENABLE_UNBOUNDED_DESCRIPTOR_TABLES = 0x100000 => "D3DCOMPILE_ENABLE_UNBOUNDED_DESCRIPTOR_TABLES",
        ALL_RESOURCES_BOUND = 0x200000 => "D3DCOMPILE_ALL_RESOURCES_BOUND",
        DEBUG_NAME_FOR_SOURCE = 0x400000 => "D3DCOMPILE_DEBUG_NAME_FOR_SOURCE",
        DEBUG_NAME_FOR_BINARY = 0x800000 => "D3DCOMPILE_DEBUG_NAME_FOR_BINARY",
    }
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
