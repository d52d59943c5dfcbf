//! The two macros for the named numbers found inside parts: [`open_enum!`]
//! for numeric codes and [`flag_set!`] for flag words. Every decoder uses
//! them, so every code and flag word prints and serializes the same way.
//!
//! Files carry raw integers; a value the specification does not name must
//! still decode (and re-encode) unchanged, so every enumeration generated here
//! is "open": it has one variant per named value plus `Unknown(raw)`. Flag
//! words keep their raw bits and list the names of the bits that are set.
//!
//! Text (`Display`): a code prints its name, or `Unknown(N)` when unnamed; a
//! flag word prints its names joined with ` | `, the bits without a name as
//! one hex number after them, and `0` when no bit is set.
//!
//! JSON (`serde` feature, docs/dxinfo-json.md): a code serializes as that same
//! string; a flag word as `{"value": N, "names": [...]}`, the bits without a
//! name being one hex string at the end of `names`.

/// Defines an open enumeration over an integer type.
///
/// Each variant's documentation starts with its value and name (`` `0`
/// (All) ``); a doc comment on a row adds to that, so rows need one only to
/// say more than the value.
///
/// ```text
/// open_enum! {
///     /// Doc.
///     pub enum Visibility: u32 {
///         All = 0 => "All",
///         /// Only the vertex stage.
///         Vertex = 1 => "Vertex",
///     }
/// }
/// ```
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident : $repr:ty {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $(
                #[doc = concat!("`", stringify!($value), "` (", $text, ")")]
                $(#[$vmeta])*
                $variant,
            )*
            /// A value with no name in the specification (kept as read).
            Unknown($repr),
        }

        $crate::record::field_as_integer!($name, $repr, $name::from_raw, |v| v.raw());

        impl $name {
            /// Every named value with its name, in specification order.
            pub const KNOWN: &'static [($repr, &'static str)] = &[ $( ($value, $text), )* ];

            /// The enumeration value for a raw integer (`Unknown` when unnamed).
            pub fn from_raw(raw: $repr) -> Self {
                #[allow(unreachable_patterns)]
                match raw {
                    $( $value => $name::$variant, )*
                    other => $name::Unknown(other),
                }
            }

            /// The raw integer as stored in the file.
            pub fn raw(self) -> $repr {
                match self {
                    $( $name::$variant => $value, )*
                    $name::Unknown(raw) => raw,
                }
            }

            /// The specification's name of the value, or `None` when it has none.
            pub fn known_name(self) -> Option<&'static str> {
                match self {
                    $( $name::$variant => Some($text), )*
                    $name::Unknown(_) => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.known_name() {
                    Some(text) => f.write_str(text),
                    None => write!(f, "Unknown({})", self.raw()),
                }
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }
    };
}
pub(crate) use open_enum;

/// Defines a flag word: a newtype over the raw integer with the named masks.
///
/// Masks are matched in table order, and the bits of a matched mask are not
/// matched again, so a table may name a combination before its single bits
/// (`OptimizationLevel2 = 0xc000` before `OptimizationLevel0 = 0x4000`).
///
/// Each mask's documentation starts with its value and name, as in
/// [`open_enum!`].
///
/// ```text
/// flag_set! {
///     /// Doc.
///     pub struct VersionFlags: u32 {
///         DEBUG = 0x1 => "Debug",
///     }
/// }
/// ```
macro_rules! flag_set {
    (
        $(#[$meta:meta])*
        pub struct $name:ident : $repr:ty {
            $( $(#[$fmeta:meta])* $flag:ident = $value:literal => $text:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $name(pub $repr);

        $crate::record::field_as_integer!($name, $repr, $name, |v| v.0);

        impl $name {
            $(
                #[doc = concat!("`", stringify!($value), "` (", $text, ")")]
                $(#[$fmeta])*
                pub const $flag: $repr = $value;
            )*

            /// Every named mask with its name, in specification order.
            pub const KNOWN: &'static [($repr, &'static str)] = &[ $( ($value, $text), )* ];

            /// The raw flag word.
            pub fn bits(self) -> $repr {
                self.0
            }

            /// Whether every bit of `flag` is set (a zero `flag` is never "set").
            pub fn contains(self, flag: $repr) -> bool {
                flag != 0 && self.0 & flag == flag
            }

            /// Names of the matched masks, in specification order, and the
            /// bits left over (those no mask names).
            fn split(self) -> (Vec<&'static str>, $repr) {
                let mut rest = self.0;
                let mut names = Vec::new();
                for &(mask, text) in Self::KNOWN {
                    if mask != 0 && rest & mask == mask {
                        names.push(text);
                        rest &= !mask;
                    }
                }
                (names, rest)
            }

            /// Names of the set masks, in specification order (bits without a
            /// name are left out: see [`Self::unknown_bits`]).
            pub fn names(self) -> Vec<&'static str> {
                self.split().0
            }

            /// Set bits that no named mask covers.
            pub fn unknown_bits(self) -> $repr {
                self.split().1
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                $crate::enums::write_flags(f, &self.names(), u64::from(self.unknown_bits()))
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                $crate::enums::serialize_flags(
                    serializer,
                    u64::from(self.0),
                    &self.names(),
                    u64::from(self.unknown_bits()),
                )
            }
        }
    };
}
pub(crate) use flag_set;

/// `Display` of a flag word: `names` joined with ` | `, then `unknown` in hex
/// when non-zero; `0` when both are empty.
pub(crate) fn write_flags(
    f: &mut std::fmt::Formatter<'_>,
    names: &[&str],
    unknown: u64,
) -> std::fmt::Result {
    let mut first = true;
    for text in names {
        if !first {
            f.write_str(" | ")?;
        }
        f.write_str(text)?;
        first = false;
    }
    if unknown != 0 {
        if !first {
            f.write_str(" | ")?;
        }
        write!(f, "{unknown:#x}")?;
        first = false;
    }
    if first {
        f.write_str("0")?;
    }
    Ok(())
}

/// JSON of a flag word: `{"value": N, "names": [...]}`, `unknown` (when
/// non-zero) as one hex string at the end of `names`.
#[cfg(feature = "serde")]
pub(crate) fn serialize_flags<S: serde::Serializer>(
    serializer: S,
    value: u64,
    names: &[&str],
    unknown: u64,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut all: Vec<std::borrow::Cow<'_, str>> = names.iter().map(|n| (*n).into()).collect();
    if unknown != 0 {
        all.push(format!("{unknown:#x}").into());
    }
    let mut s = serializer.serialize_struct("Flags", 2)?;
    s.serialize_field("value", &value)?;
    s.serialize_field("names", &all)?;
    s.end()
}

// ---------------------------------------------------------------------
// The D3D enumerations and flag words found both in parts (RDEF, the
// signatures) and in reflection, each declared once with two name columns:
// the constant of Microsoft's `d3dcommon.h` / `d3d12shader.h`
// (`D3D_SIT_CBUFFER`, which the reflection view prints) and the word the
// part views print (`cbuffer`). `-` in a column: the value has no name there
// (it still decodes, as `Unknown(N)`).
//
// Each table is a macro taking the column (`d3d` or `part`) and the
// declaration of the type to generate; the reader's and reflection's types
// are two instantiations of one table, so their values cannot drift apart.

/// Generates an [`open_enum!`](crate::enums::open_enum) from rows with two
/// name columns (`Variant = value => "D3D_NAME" / "part name",`), keeping the
/// column asked for and leaving out the rows with `-` there.
macro_rules! d3d_enum {
    ($column:ident, $(#[$meta:meta])* pub enum $name:ident : $repr:ty { $($rows:tt)* }) => {
        $crate::enums::d3d_enum!(@rows $column [$(#[$meta])*] $name $repr [] $($rows)*);
    };
    (@rows $column:ident [$($meta:tt)*] $name:ident $repr:ty [$($out:tt)*]) => {
        $crate::enums::open_enum! { $($meta)* pub enum $name : $repr { $($out)* } }
    };
    (@rows d3d $meta:tt $name:ident $repr:ty [$($out:tt)*] $variant:ident = $value:literal => - / $part:tt, $($rest:tt)*) => {
        $crate::enums::d3d_enum!(@rows d3d $meta $name $repr [$($out)*] $($rest)*);
    };
    (@rows d3d $meta:tt $name:ident $repr:ty [$($out:tt)*] $variant:ident = $value:literal => $d3d:literal / $part:tt, $($rest:tt)*) => {
        $crate::enums::d3d_enum!(@rows d3d $meta $name $repr [$($out)* $variant = $value => $d3d,] $($rest)*);
    };
    (@rows part $meta:tt $name:ident $repr:ty [$($out:tt)*] $variant:ident = $value:literal => $d3d:tt / -, $($rest:tt)*) => {
        $crate::enums::d3d_enum!(@rows part $meta $name $repr [$($out)*] $($rest)*);
    };
    (@rows part $meta:tt $name:ident $repr:ty [$($out:tt)*] $variant:ident = $value:literal => $d3d:tt / $part:literal, $($rest:tt)*) => {
        $crate::enums::d3d_enum!(@rows part $meta $name $repr [$($out)* $variant = $value => $part,] $($rest)*);
    };
}
pub(crate) use d3d_enum;

/// Generates a [`flag_set!`](crate::enums::flag_set) from masks with two name
/// columns (`MASK = value => "D3D_NAME" / "part name",`), keeping the column
/// asked for.
macro_rules! d3d_flags {
    (d3d, $(#[$meta:meta])* pub struct $name:ident : $repr:ty { $( $flag:ident = $value:literal => $d3d:literal / $part:literal, )* }) => {
        $crate::enums::flag_set! { $(#[$meta])* pub struct $name : $repr { $( $flag = $value => $d3d, )* } }
    };
    (part, $(#[$meta:meta])* pub struct $name:ident : $repr:ty { $( $flag:ident = $value:literal => $d3d:literal / $part:literal, )* }) => {
        $crate::enums::flag_set! { $(#[$meta])* pub struct $name : $repr { $( $flag = $value => $part, )* } }
    };
}
pub(crate) use d3d_flags;

/// The rows of `D3D_SHADER_VARIABLE_CLASS`.
macro_rules! variable_class {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Scalar = 0 => "D3D_SVC_SCALAR" / "Scalar",
            Vector = 1 => "D3D_SVC_VECTOR" / "Vector",
            MatrixRows = 2 => "D3D_SVC_MATRIX_ROWS" / "MatrixRows",
            MatrixColumns = 3 => "D3D_SVC_MATRIX_COLUMNS" / "MatrixColumns",
            Object = 4 => "D3D_SVC_OBJECT" / "Object",
            Struct = 5 => "D3D_SVC_STRUCT" / "Struct",
            InterfaceClass = 6 => "D3D_SVC_INTERFACE_CLASS" / "InterfaceClass",
            InterfacePointer = 7 => "D3D_SVC_INTERFACE_POINTER" / "InterfacePointer",
            BitField = 8 => "D3D_SVC_BIT_FIELD" / "BitField",
        }}
    };
}
pub(crate) use variable_class;

/// The rows of `D3D_SHADER_VARIABLE_TYPE`.
macro_rules! variable_type {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Void = 0 => "D3D_SVT_VOID" / "void",
            Bool = 1 => "D3D_SVT_BOOL" / "bool",
            Int = 2 => "D3D_SVT_INT" / "int",
            Float = 3 => "D3D_SVT_FLOAT" / "float",
            String = 4 => "D3D_SVT_STRING" / "string",
            Texture = 5 => "D3D_SVT_TEXTURE" / "texture",
            Texture1D = 6 => "D3D_SVT_TEXTURE1D" / "Texture1D",
            Texture2D = 7 => "D3D_SVT_TEXTURE2D" / "Texture2D",
            Texture3D = 8 => "D3D_SVT_TEXTURE3D" / "Texture3D",
            TextureCube = 9 => "D3D_SVT_TEXTURECUBE" / "TextureCube",
            Sampler = 10 => "D3D_SVT_SAMPLER" / "sampler",
            Sampler1D = 11 => "D3D_SVT_SAMPLER1D" / "sampler1D",
            Sampler2D = 12 => "D3D_SVT_SAMPLER2D" / "sampler2D",
            Sampler3D = 13 => "D3D_SVT_SAMPLER3D" / "sampler3D",
            SamplerCUBE = 14 => "D3D_SVT_SAMPLERCUBE" / "samplerCUBE",
            PixelShader = 15 => "D3D_SVT_PIXELSHADER" / "PixelShader",
            VertexShader = 16 => "D3D_SVT_VERTEXSHADER" / "VertexShader",
            PixelFragment = 17 => "D3D_SVT_PIXELFRAGMENT" / "PixelFragment",
            VertexFragment = 18 => "D3D_SVT_VERTEXFRAGMENT" / "VertexFragment",
            Uint = 19 => "D3D_SVT_UINT" / "uint",
            Uint8 = 20 => "D3D_SVT_UINT8" / "uint8",
            GeometryShader = 21 => "D3D_SVT_GEOMETRYSHADER" / "GeometryShader",
            RasterizerState = 22 => "D3D_SVT_RASTERIZER" / "RasterizerState",
            DepthStencilState = 23 => "D3D_SVT_DEPTHSTENCIL" / "DepthStencilState",
            BlendState = 24 => "D3D_SVT_BLEND" / "BlendState",
            Buffer = 25 => "D3D_SVT_BUFFER" / "Buffer",
            Cbuffer = 26 => "D3D_SVT_CBUFFER" / "cbuffer",
            Tbuffer = 27 => "D3D_SVT_TBUFFER" / "tbuffer",
            Texture1DArray = 28 => "D3D_SVT_TEXTURE1DARRAY" / "Texture1DArray",
            Texture2DArray = 29 => "D3D_SVT_TEXTURE2DARRAY" / "Texture2DArray",
            RenderTargetView = 30 => "D3D_SVT_RENDERTARGETVIEW" / "RenderTargetView",
            DepthStencilView = 31 => "D3D_SVT_DEPTHSTENCILVIEW" / "DepthStencilView",
            Texture2DMS = 32 => "D3D_SVT_TEXTURE2DMS" / "Texture2DMS",
            Texture2DMSArray = 33 => "D3D_SVT_TEXTURE2DMSARRAY" / "Texture2DMSArray",
            TextureCubeArray = 34 => "D3D_SVT_TEXTURECUBEARRAY" / "TextureCubeArray",
            HullShader = 35 => "D3D_SVT_HULLSHADER" / "HullShader",
            DomainShader = 36 => "D3D_SVT_DOMAINSHADER" / "DomainShader",
            InterfacePointer = 37 => "D3D_SVT_INTERFACE_POINTER" / "InterfacePointer",
            ComputeShader = 38 => "D3D_SVT_COMPUTESHADER" / "ComputeShader",
            Double = 39 => "D3D_SVT_DOUBLE" / "double",
            RWTexture1D = 40 => "D3D_SVT_RWTEXTURE1D" / "RWTexture1D",
            RWTexture1DArray = 41 => "D3D_SVT_RWTEXTURE1DARRAY" / "RWTexture1DArray",
            RWTexture2D = 42 => "D3D_SVT_RWTEXTURE2D" / "RWTexture2D",
            RWTexture2DArray = 43 => "D3D_SVT_RWTEXTURE2DARRAY" / "RWTexture2DArray",
            RWTexture3D = 44 => "D3D_SVT_RWTEXTURE3D" / "RWTexture3D",
            RWBuffer = 45 => "D3D_SVT_RWBUFFER" / "RWBuffer",
            ByteAddressBuffer = 46 => "D3D_SVT_BYTEADDRESS_BUFFER" / "ByteAddressBuffer",
            RWByteAddressBuffer = 47 => "D3D_SVT_RWBYTEADDRESS_BUFFER" / "RWByteAddressBuffer",
            StructuredBuffer = 48 => "D3D_SVT_STRUCTURED_BUFFER" / "StructuredBuffer",
            RWStructuredBuffer = 49 => "D3D_SVT_RWSTRUCTURED_BUFFER" / "RWStructuredBuffer",
            AppendStructuredBuffer = 50 => "D3D_SVT_APPEND_STRUCTURED_BUFFER" / "AppendStructuredBuffer",
            ConsumeStructuredBuffer = 51 => "D3D_SVT_CONSUME_STRUCTURED_BUFFER" / "ConsumeStructuredBuffer",
            Min8Float = 52 => "D3D_SVT_MIN8FLOAT" / "min8float",
            Min10Float = 53 => "D3D_SVT_MIN10FLOAT" / "min10float",
            Min16Float = 54 => "D3D_SVT_MIN16FLOAT" / "min16float",
            Min12Int = 55 => "D3D_SVT_MIN12INT" / "min12int",
            Min16Int = 56 => "D3D_SVT_MIN16INT" / "min16int",
            Min16Uint = 57 => "D3D_SVT_MIN16UINT" / "min16uint",
            Int16 = 58 => "D3D_SVT_INT16" / "int16_t",
            Uint16 = 59 => "D3D_SVT_UINT16" / "uint16_t",
            Float16 = 60 => "D3D_SVT_FLOAT16" / "float16_t",
            Int64 = 61 => "D3D_SVT_INT64" / "int64_t",
            Uint64 = 62 => "D3D_SVT_UINT64" / "uint64_t",
        }}
    };
}
pub(crate) use variable_type;

/// The rows of `D3D_SHADER_INPUT_TYPE` of a bound resource.
macro_rules! shader_input_type {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Cbuffer = 0 => "D3D_SIT_CBUFFER" / "cbuffer",
            Tbuffer = 1 => "D3D_SIT_TBUFFER" / "tbuffer",
            Texture = 2 => "D3D_SIT_TEXTURE" / "texture",
            Sampler = 3 => "D3D_SIT_SAMPLER" / "sampler",
            UavRwTyped = 4 => "D3D_SIT_UAV_RWTYPED" / "UAVTyped",
            Structured = 5 => "D3D_SIT_STRUCTURED" / "structured",
            UavRwStructured = 6 => "D3D_SIT_UAV_RWSTRUCTURED" / "UAVStructured",
            ByteAddress = 7 => "D3D_SIT_BYTEADDRESS" / "byteaddress",
            UavRwByteAddress = 8 => "D3D_SIT_UAV_RWBYTEADDRESS" / "UAVByteAddress",
            UavAppendStructured = 9 => "D3D_SIT_UAV_APPEND_STRUCTURED" / "UAVAppendStructured",
            UavConsumeStructured = 10 => "D3D_SIT_UAV_CONSUME_STRUCTURED" / "UAVConsumeStructured",
            UavRwStructuredWithCounter = 11 => "D3D_SIT_UAV_RWSTRUCTURED_WITH_COUNTER" / "UAVStructuredWithCounter",
            RtAccelerationStructure = 12 => "D3D_SIT_RTACCELERATIONSTRUCTURE" / "RTAccelerationStructure",
            UavFeedbackTexture = 13 => "D3D_SIT_UAV_FEEDBACKTEXTURE" / "UAVFeedbackTexture",
        }}
    };
}
pub(crate) use shader_input_type;

/// The rows of `D3D_RESOURCE_RETURN_TYPE` (0 for resources without one).
macro_rules! resource_return_type {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Unorm = 1 => "D3D_RETURN_TYPE_UNORM" / "unorm",
            Snorm = 2 => "D3D_RETURN_TYPE_SNORM" / "snorm",
            Sint = 3 => "D3D_RETURN_TYPE_SINT" / "sint",
            Uint = 4 => "D3D_RETURN_TYPE_UINT" / "uint",
            Float = 5 => "D3D_RETURN_TYPE_FLOAT" / "float",
            Mixed = 6 => "D3D_RETURN_TYPE_MIXED" / "mixed",
            Double = 7 => "D3D_RETURN_TYPE_DOUBLE" / "double",
            Continued = 8 => "D3D_RETURN_TYPE_CONTINUED" / "continued",
            NotApplicable = 0 => - / "NA",
        }}
    };
}
pub(crate) use resource_return_type;

/// The rows of `D3D_SRV_DIMENSION` of a bound resource.
macro_rules! srv_dimension {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Unknown0 = 0 => "D3D_SRV_DIMENSION_UNKNOWN" / "NA",
            Buffer = 1 => "D3D_SRV_DIMENSION_BUFFER" / "buf",
            Texture1D = 2 => "D3D_SRV_DIMENSION_TEXTURE1D" / "1d",
            Texture1DArray = 3 => "D3D_SRV_DIMENSION_TEXTURE1DARRAY" / "1darray",
            Texture2D = 4 => "D3D_SRV_DIMENSION_TEXTURE2D" / "2d",
            Texture2DArray = 5 => "D3D_SRV_DIMENSION_TEXTURE2DARRAY" / "2darray",
            Texture2DMS = 6 => "D3D_SRV_DIMENSION_TEXTURE2DMS" / "2dMS",
            Texture2DMSArray = 7 => "D3D_SRV_DIMENSION_TEXTURE2DMSARRAY" / "2dMSarray",
            Texture3D = 8 => "D3D_SRV_DIMENSION_TEXTURE3D" / "3d",
            TextureCube = 9 => "D3D_SRV_DIMENSION_TEXTURECUBE" / "cube",
            TextureCubeArray = 10 => "D3D_SRV_DIMENSION_TEXTURECUBEARRAY" / "cubearray",
            BufferEx = 11 => "D3D_SRV_DIMENSION_BUFFEREX" / "bufex",
        }}
    };
}
pub(crate) use srv_dimension;

/// The rows of `D3D_CBUFFER_TYPE`.
macro_rules! cbuffer_type {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Cbuffer = 0 => "D3D_CT_CBUFFER" / "cbuffer",
            Tbuffer = 1 => "D3D_CT_TBUFFER" / "tbuffer",
            InterfacePointers = 2 => "D3D_CT_INTERFACE_POINTERS" / "InterfacePointers",
            ResourceBindInfo = 3 => "D3D_CT_RESOURCE_BIND_INFO" / "ResourceBindInfo",
        }}
    };
}
pub(crate) use cbuffer_type;

/// The rows of `D3D_NAME` / `D3DSystemValue`: the system value of a signature element (docs/format/enums.md §5).
macro_rules! system_value {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Undefined = 0 => "D3D_NAME_UNDEFINED" / "Undefined",
            Position = 1 => "D3D_NAME_POSITION" / "Position",
            ClipDistance = 2 => "D3D_NAME_CLIP_DISTANCE" / "ClipDistance",
            CullDistance = 3 => "D3D_NAME_CULL_DISTANCE" / "CullDistance",
            RenderTargetArrayIndex = 4 => "D3D_NAME_RENDER_TARGET_ARRAY_INDEX" / "RenderTargetArrayIndex",
            ViewPortArrayIndex = 5 => "D3D_NAME_VIEWPORT_ARRAY_INDEX" / "ViewPortArrayIndex",
            VertexId = 6 => "D3D_NAME_VERTEX_ID" / "VertexID",
            PrimitiveId = 7 => "D3D_NAME_PRIMITIVE_ID" / "PrimitiveID",
            InstanceId = 8 => "D3D_NAME_INSTANCE_ID" / "InstanceID",
            IsFrontFace = 9 => "D3D_NAME_IS_FRONT_FACE" / "IsFrontFace",
            SampleIndex = 10 => "D3D_NAME_SAMPLE_INDEX" / "SampleIndex",
            FinalQuadEdgeTessfactor = 11 => "D3D_NAME_FINAL_QUAD_EDGE_TESSFACTOR" / "FinalQuadEdgeTessfactor",
            FinalQuadInsideTessfactor = 12 => "D3D_NAME_FINAL_QUAD_INSIDE_TESSFACTOR" / "FinalQuadInsideTessfactor",
            FinalTriEdgeTessfactor = 13 => "D3D_NAME_FINAL_TRI_EDGE_TESSFACTOR" / "FinalTriEdgeTessfactor",
            FinalTriInsideTessfactor = 14 => "D3D_NAME_FINAL_TRI_INSIDE_TESSFACTOR" / "FinalTriInsideTessfactor",
            FinalLineDetailTessfactor = 15 => "D3D_NAME_FINAL_LINE_DETAIL_TESSFACTOR" / "FinalLineDetailTessfactor",
            FinalLineDensityTessfactor = 16 => "D3D_NAME_FINAL_LINE_DENSITY_TESSFACTOR" / "FinalLineDensityTessfactor",
            Barycentrics = 23 => "D3D_NAME_BARYCENTRICS" / "Barycentrics",
            ShadingRate = 24 => "D3D_NAME_SHADINGRATE" / "ShadingRate",
            CullPrimitive = 25 => "D3D_NAME_CULLPRIMITIVE" / "CullPrimitive",
            Target = 64 => "D3D_NAME_TARGET" / "Target",
            Depth = 65 => "D3D_NAME_DEPTH" / "Depth",
            Coverage = 66 => "D3D_NAME_COVERAGE" / "Coverage",
            DepthGreaterEqual = 67 => "D3D_NAME_DEPTH_GREATER_EQUAL" / "DepthGE",
            DepthLessEqual = 68 => "D3D_NAME_DEPTH_LESS_EQUAL" / "DepthLE",
            StencilRef = 69 => "D3D_NAME_STENCIL_REF" / "StencilRef",
            InnerCoverage = 70 => "D3D_NAME_INNER_COVERAGE" / "InnerCoverage",
        }}
    };
}
pub(crate) use system_value;

/// The rows of Register component type (`D3D_REGISTER_COMPONENT_TYPE` / LLVM `SigComponentType`,.
macro_rules! register_component_type {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Unspecified = 0 => "D3D_REGISTER_COMPONENT_UNKNOWN" / "Unknown",
            UInt32 = 1 => "D3D_REGISTER_COMPONENT_UINT32" / "UInt32",
            SInt32 = 2 => "D3D_REGISTER_COMPONENT_SINT32" / "SInt32",
            Float32 = 3 => "D3D_REGISTER_COMPONENT_FLOAT32" / "Float32",
            UInt16 = 4 => "D3D_REGISTER_COMPONENT_UINT16" / "UInt16",
            SInt16 = 5 => "D3D_REGISTER_COMPONENT_SINT16" / "SInt16",
            Float16 = 6 => "D3D_REGISTER_COMPONENT_FLOAT16" / "Float16",
            UInt64 = 7 => "D3D_REGISTER_COMPONENT_UINT64" / "UInt64",
            SInt64 = 8 => "D3D_REGISTER_COMPONENT_SINT64" / "SInt64",
            Float64 = 9 => "D3D_REGISTER_COMPONENT_FLOAT64" / "Float64",
        }}
    };
}
pub(crate) use register_component_type;

/// The rows of Minimum precision of a signature element (`D3D_MIN_PRECISION`; docs/format/enums.md §6).
macro_rules! min_precision {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_enum! { $column, $($decl)* {
            Default = 0 => "D3D_MIN_PRECISION_DEFAULT" / "Default",
            Float16 = 1 => "D3D_MIN_PRECISION_FLOAT_16" / "Float16",
            Float2_8 = 2 => "D3D_MIN_PRECISION_FLOAT_2_8" / "Float2_8",
            Reserved = 3 => "D3D_MIN_PRECISION_RESERVED" / "Reserved",
            SInt16 = 4 => "D3D_MIN_PRECISION_SINT_16" / "SInt16",
            UInt16 = 5 => "D3D_MIN_PRECISION_UINT_16" / "UInt16",
            Any16 = 0xf0 => "D3D_MIN_PRECISION_ANY_16" / "Any16",
            Any10 = 0xf1 => "D3D_MIN_PRECISION_ANY_10" / "Any10",
        }}
    };
}
pub(crate) use min_precision;

/// The rows of `D3D_SHADER_INPUT_FLAGS`.
macro_rules! shader_input_flags {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_flags! { $column, $($decl)* {
            USER_PACKED = 0x1 => "D3D_SIF_USERPACKED" / "UserPacked",
            COMPARISON_SAMPLER = 0x2 => "D3D_SIF_COMPARISON_SAMPLER" / "ComparisonSampler",
            TEXTURE_COMPONENT0 = 0x4 => "D3D_SIF_TEXTURE_COMPONENT_0" / "TextureComponent0",
            TEXTURE_COMPONENT1 = 0x8 => "D3D_SIF_TEXTURE_COMPONENT_1" / "TextureComponent1",
            UNUSED = 0x10 => "D3D_SIF_UNUSED" / "Unused",
        }}
    };
}
pub(crate) use shader_input_flags;

/// The rows of `D3D_SHADER_VARIABLE_FLAGS`.
macro_rules! variable_flags {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_flags! { $column, $($decl)* {
            USER_PACKED = 0x1 => "D3D_SVF_USERPACKED" / "UserPacked",
            USED = 0x2 => "D3D_SVF_USED" / "Used",
            INTERFACE_POINTER = 0x4 => "D3D_SVF_INTERFACE_POINTER" / "InterfacePointer",
            INTERFACE_PARAMETER = 0x8 => "D3D_SVF_INTERFACE_PARAMETER" / "InterfaceParameter",
        }}
    };
}
pub(crate) use variable_flags;

/// The rows of `D3D_SHADER_CBUFFER_FLAGS`.
macro_rules! cbuffer_flags {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_flags! { $column, $($decl)* {
            USER_PACKED = 0x1 => "D3D_CBF_USERPACKED" / "UserPacked",
        }}
    };
}
pub(crate) use cbuffer_flags;

/// The rows of `D3DCOMPILE_*` flags recorded in the header (optimization level 2 is both level bits).
macro_rules! compile_flags {
    ($column:ident, $($decl:tt)*) => {
        $crate::enums::d3d_flags! { $column, $($decl)* {
            DEBUG = 0x1 => "D3DCOMPILE_DEBUG" / "Debug",
            SKIP_VALIDATION = 0x2 => "D3DCOMPILE_SKIP_VALIDATION" / "SkipValidation",
            SKIP_OPTIMIZATION = 0x4 => "D3DCOMPILE_SKIP_OPTIMIZATION" / "SkipOptimization",
            PACK_MATRIX_ROW_MAJOR = 0x8 => "D3DCOMPILE_PACK_MATRIX_ROW_MAJOR" / "PackMatrixRowMajor",
            PACK_MATRIX_COLUMN_MAJOR = 0x10 => "D3DCOMPILE_PACK_MATRIX_COLUMN_MAJOR" / "PackMatrixColumnMajor",
            PARTIAL_PRECISION = 0x20 => "D3DCOMPILE_PARTIAL_PRECISION" / "PartialPrecision",
            FORCE_VS_SOFTWARE_NO_OPT = 0x40 => "D3DCOMPILE_FORCE_VS_SOFTWARE_NO_OPT" / "ForceVSSoftwareNoOpt",
            FORCE_PS_SOFTWARE_NO_OPT = 0x80 => "D3DCOMPILE_FORCE_PS_SOFTWARE_NO_OPT" / "ForcePSSoftwareNoOpt",
            NO_PRESHADER = 0x100 => "D3DCOMPILE_NO_PRESHADER" / "NoPreshader",
            AVOID_FLOW_CONTROL = 0x200 => "D3DCOMPILE_AVOID_FLOW_CONTROL" / "AvoidFlowControl",
            PREFER_FLOW_CONTROL = 0x400 => "D3DCOMPILE_PREFER_FLOW_CONTROL" / "PreferFlowControl",
            ENABLE_STRICTNESS = 0x800 => "D3DCOMPILE_ENABLE_STRICTNESS" / "EnableStrictness",
            ENABLE_BACKWARDS_COMPATIBILITY = 0x1000 => "D3DCOMPILE_ENABLE_BACKWARDS_COMPATIBILITY" / "EnableBackwardsCompatibility",
            IEEE_STRICTNESS = 0x2000 => "D3DCOMPILE_IEEE_STRICTNESS" / "IEEEStrictness",
            OPTIMIZATION_LEVEL2 = 0xc000 => "D3DCOMPILE_OPTIMIZATION_LEVEL2" / "OptimizationLevel2",
            OPTIMIZATION_LEVEL0 = 0x4000 => "D3DCOMPILE_OPTIMIZATION_LEVEL0" / "OptimizationLevel0",
            OPTIMIZATION_LEVEL3 = 0x8000 => "D3DCOMPILE_OPTIMIZATION_LEVEL3" / "OptimizationLevel3",
            WARNINGS_ARE_ERRORS = 0x40000 => "D3DCOMPILE_WARNINGS_ARE_ERRORS" / "WarningsAreErrors",
            RESOURCES_MAY_ALIAS = 0x80000 => "D3DCOMPILE_RESOURCES_MAY_ALIAS" / "ResourcesMayAlias",
            ENABLE_UNBOUNDED_DESCRIPTOR_TABLES = 0x100000 => "D3DCOMPILE_ENABLE_UNBOUNDED_DESCRIPTOR_TABLES" / "EnableUnboundedDescriptorTables",
            ALL_RESOURCES_BOUND = 0x200000 => "D3DCOMPILE_ALL_RESOURCES_BOUND" / "AllResourcesBound",
            DEBUG_NAME_FOR_SOURCE = 0x400000 => "D3DCOMPILE_DEBUG_NAME_FOR_SOURCE" / "DebugNameForSource",
            DEBUG_NAME_FOR_BINARY = 0x800000 => "D3DCOMPILE_DEBUG_NAME_FOR_BINARY" / "DebugNameForBinary",
        }}
    };
}
pub(crate) use compile_flags;

#[cfg(test)]
mod tests {
    open_enum! {
        /// A test code.
        pub enum Colour: u16 {
            Red = 0 => "Red",
            Blue = 7 => "Blue",
            White = 0xffff => "White",
        }
    }

    flag_set! {
        /// A test flag word; `BOTH` names a combination before its single bits.
        pub struct Bits: u32 {
            A = 0x1 => "A",
            BOTH = 0xc => "Both",
            C = 0x4 => "C",
            D = 0x8 => "D",
        }
    }

    #[test]
    fn open_enum_keeps_every_value() {
        assert_eq!(Colour::from_raw(7), Colour::Blue);
        assert_eq!(Colour::from_raw(0xffff), Colour::White);
        assert_eq!(Colour::from_raw(3), Colour::Unknown(3));
        for raw in [0u16, 3, 7, 8, 0xfffe, 0xffff] {
            assert_eq!(Colour::from_raw(raw).raw(), raw);
        }
        assert_eq!(Colour::KNOWN, &[(0, "Red"), (7, "Blue"), (0xffff, "White")]);
        assert_eq!(Colour::Blue.known_name(), Some("Blue"));
        assert_eq!(Colour::Unknown(3).known_name(), None);
        assert_eq!(Colour::Red.to_string(), "Red");
        assert_eq!(Colour::from_raw(3).to_string(), "Unknown(3)");
    }

    #[test]
    fn flag_set_names_masks_in_order_and_keeps_unknown_bits() {
        let f = Bits(0x35);
        assert_eq!(f.bits(), 0x35);
        assert_eq!(f.names(), vec!["A", "C"]);
        assert_eq!(f.unknown_bits(), 0x30);
        assert_eq!(f.to_string(), "A | C | 0x30");
        // A combination takes its bits: they are not named again one by one.
        assert_eq!(Bits(0xd).names(), vec!["A", "Both"]);
        assert_eq!(Bits(0xd).unknown_bits(), 0);
        assert_eq!(Bits(0x8).to_string(), "D");
        assert_eq!(Bits(0x40).to_string(), "0x40");
        assert_eq!(Bits(0).to_string(), "0");
        assert_eq!(Bits::default(), Bits(0));
        assert!(Bits(0xc).contains(Bits::C));
        assert!(!Bits(0x4).contains(Bits::BOTH));
        assert!(!Bits(0xff).contains(0));
        assert!(Bits(0x9).contains(Bits::A | Bits::D));
        assert_eq!(Bits::KNOWN[1], (0xc, "Both"));
    }

    #[cfg(feature = "serde")]
    fn json<T: serde::Serialize>(value: &T) -> String {
        serde_json::to_string(value).unwrap()
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_shapes() {
        assert_eq!(json(&Colour::Blue), r#""Blue""#);
        assert_eq!(json(&Colour::from_raw(3)), r#""Unknown(3)""#);
        assert_eq!(
            json(&Bits(0x35)),
            r#"{"value":53,"names":["A","C","0x30"]}"#
        );
        assert_eq!(json(&Bits(0xd)), r#"{"value":13,"names":["A","Both"]}"#);
        assert_eq!(json(&Bits(0)), r#"{"value":0,"names":[]}"#);
    }
}
