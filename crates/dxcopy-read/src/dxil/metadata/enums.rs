//! The numbered enumerations of DXIL metadata (dxc's `DxilConstants.h`),
//! open: a value DXIL does not name decodes as `Unknown(n)`.

use crate::enums::open_enum;

open_enum! {
    /// `DXIL::ComponentType`: the component type of a typed resource, a
    /// signature element or a struct field.
    pub enum CompType: u32 {
        Invalid = 0 => "Invalid",
        I1 = 1 => "I1",
        I16 = 2 => "I16",
        U16 = 3 => "U16",
        I32 = 4 => "I32",
        U32 = 5 => "U32",
        I64 = 6 => "I64",
        U64 = 7 => "U64",
        F16 = 8 => "F16",
        F32 = 9 => "F32",
        F64 = 10 => "F64",
        SNormF16 = 11 => "SNormF16",
        UNormF16 = 12 => "UNormF16",
        SNormF32 = 13 => "SNormF32",
        UNormF32 = 14 => "UNormF32",
        SNormF64 = 15 => "SNormF64",
        UNormF64 = 16 => "UNormF64",
        PackedS8x32 = 17 => "PackedS8x32",
        PackedU8x32 = 18 => "PackedU8x32",
        I8 = 19 => "I8",
        U8 = 20 => "U8",
        F8E4M3 = 21 => "F8_E4M3FN",
        F8E5M2 = 22 => "F8_E5M2",
        BFloat16 = 23 => "BFloat16",
    }
}

impl CompType {
    /// dxc's short name (`CompType::GetName`: `f32`, `u32`, `snorm_f16`, …;
    /// empty for the SM 6.9+ kinds its table does not cover).
    pub fn short_name(self) -> &'static str {
        const NAMES: [&str; 19] = [
            "invalid",
            "i1",
            "i16",
            "u16",
            "i32",
            "u32",
            "i64",
            "u64",
            "f16",
            "f32",
            "f64",
            "snorm_f16",
            "unorm_f16",
            "snorm_f32",
            "unorm_f32",
            "snorm_f64",
            "unorm_f64",
            "p32i8",
            "p32u8",
        ];
        usize::try_from(self.raw())
            .ok()
            .and_then(|i| NAMES.get(i))
            .copied()
            .unwrap_or("")
    }

    /// dxc's HLSL name (`CompType::GetHLSLName`): `float`, `uint`, `half`,
    /// …, or with minimum precision `min16float`, `min16i`, ….
    pub fn hlsl_name(self, min_precision: bool) -> &'static str {
        const NAMES: [&str; 19] = [
            "unknown",
            "bool",
            "int16_t",
            "uint16_t",
            "int",
            "uint",
            "int64_t",
            "uint64_t",
            "half",
            "float",
            "double",
            "snorm_half",
            "unorm_half",
            "snorm_float",
            "unorm_float",
            "snorm_double",
            "unorm_double",
            "int8_t_packed",
            "uint8_t_packed",
        ];
        const MIN_PRECISION: [&str; 19] = [
            "unknown",
            "bool",
            "min16i",
            "min16ui",
            "int",
            "uint",
            "int64_t",
            "uint64_t",
            "min16float",
            "float",
            "double",
            "snorm_min16f",
            "unorm_min16f",
            "snorm_float",
            "unorm_float",
            "snorm_double",
            "unorm_double",
            "int8_t_packed",
            "uint8_t_packed",
        ];
        let table = if min_precision {
            &MIN_PRECISION
        } else {
            &NAMES
        };
        usize::try_from(self.raw())
            .ok()
            .and_then(|i| table.get(i))
            .copied()
            .unwrap_or("")
    }
}

open_enum! {
    /// `DXIL::SamplerKind`.
    pub enum SamplerKind: u32 {
        Default = 0 => "Default",
        Comparison = 1 => "Comparison",
        Mono = 2 => "Mono",
    }
}

open_enum! {
    /// `DXIL::SamplerFeedbackType` of a FeedbackTexture2D UAV.
    pub enum SamplerFeedbackType: u32 {
        MinMip = 0 => "MinMip",
        MipRegionUsed = 1 => "MipRegionUsed",
    }
}

open_enum! {
    /// `MatrixOrientation` of a matrix field annotation.
    pub enum MatrixOrientation: u32 {
        Undefined = 0 => "Undefined",
        RowMajor = 1 => "RowMajor",
        ColumnMajor = 2 => "ColumnMajor",
    }
}

open_enum! {
    /// `DxilParamInputQual`: how a function parameter is passed.
    pub enum ParamInputQualifier: u32 {
        In = 0 => "In",
        Out = 1 => "Out",
        Inout = 2 => "Inout",
        InputPatch = 3 => "InputPatch",
        OutputPatch = 4 => "OutputPatch",
        OutStream0 = 5 => "OutStream0",
        OutStream1 = 6 => "OutStream1",
        OutStream2 = 7 => "OutStream2",
        OutStream3 = 8 => "OutStream3",
        InputPrimitive = 9 => "InputPrimitive",
        OutIndices = 10 => "OutIndices",
        OutVertices = 11 => "OutVertices",
        OutPrimitives = 12 => "OutPrimitives",
        InPayload = 13 => "InPayload",
        NodeIO = 14 => "NodeIO",
    }
}

/// dxc's name of an interpolation mode (`InterpolationMode::GetName`:
/// empty for undefined, `linear`, `noperspective centroid`, …).
pub fn interpolation_name(mode: crate::psv0::InterpolationMode) -> &'static str {
    match mode.raw() {
        0 => "",
        1 => "nointerpolation",
        2 => "linear",
        3 => "centroid",
        4 => "noperspective",
        5 => "noperspective centroid",
        6 => "sample",
        7 => "noperspective sample",
        _ => "invalid",
    }
}
