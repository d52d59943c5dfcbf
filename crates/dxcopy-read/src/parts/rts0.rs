//! RTS0: serialized root signature, versions 1.0, 1.1 and 1.2 (docs/format/rts0.md).
//!
//! A 24-byte header (version, parameter count and offset, static sampler count
//! and offset, flags) is followed by 12-byte parameter headers, each pointing
//! at a payload (root constants, a root descriptor or a descriptor table with
//! ranges), and by the static samplers. Every offset is relative to the start
//! of the part. Record sizes depend on the version:
//!
//! | record | 1.0 | 1.1 | 1.2 |
//! |---|---|---|---|
//! | root descriptor | 8 | 12 (+ flags) | 12 |
//! | descriptor range | 20 | 24 (+ flags before the offset) | 24 |
//! | static sampler | 52 | 52 | 56 (+ flags) |
//!
//! [`RootSignature::parse`] is the strict reader: ranges are read at the
//! table's `RangesOffset`, every array must lie inside the part and the
//! version must be 1, 2 or 3. [`RootSignature::parse_llvm_compat`] follows
//! LLVM 22's reader for the obj2yaml view (see its documentation).

use super::Mode;
use crate::container::Part;
use crate::cursor::Cursor;
use crate::enums::{flag_set, open_enum};
use crate::error::Result;
use std::fmt;

/// Size of the RTS0 header.
pub const HEADER_SIZE: u32 = Rts0Header::SIZE as u32;
/// Size of a root parameter header.
pub const PARAMETER_HEADER_SIZE: u32 = ParameterHeader::SIZE as u32;
/// Size of root constants.
pub const ROOT_CONSTANTS_SIZE: u32 = RootConstants::SIZE as u32;
/// Size of a descriptor table header (range count and ranges offset).
pub const TABLE_HEADER_SIZE: u32 = TableHeader::SIZE as u32;

crate::record::record! {
    /// The RTS0 header (docs/format/rts0.md).
    pub struct Rts0Header: "RTS0 header" {
        /// Version.
        0 version: RootSignatureVersion => "RTS0 version";
        /// Number of parameters.
        4 num_parameters: u32 => "RTS0 NumParameters";
        /// Offset of the parameter headers.
        8 parameters_offset: u32 => "RTS0 ParametersOffset";
        /// Number of static samplers.
        12 num_static_samplers: u32 => "RTS0 NumStaticSamplers";
        /// Offset of the static samplers.
        16 static_samplers_offset: u32 => "RTS0 StaticSamplersOffset";
        /// Flags.
        20 flags: RootFlags => "RTS0 flags";
    }
}

crate::record::record! {
    /// A root parameter header; the payload lies at `payload_offset`.
    pub struct ParameterHeader: "RTS0 parameter header" {
        /// Parameter type (raw: an unknown type is an error, not a value).
        0 parameter_type: u32 => "RTS0 parameter type";
        /// Shader visibility.
        4 visibility: ShaderVisibility => "RTS0 parameter visibility";
        /// Offset of the payload from the start of the part.
        8 payload_offset: u32 => "RTS0 parameter offset";
    }
}

crate::record::record! {
    /// The payload of a descriptor table parameter; the ranges lie at
    /// `ranges_offset`.
    pub struct TableHeader: "RTS0 descriptor table" {
        /// Number of ranges.
        0 num_ranges: u32 => "RTS0 descriptor table range count";
        /// Offset of the first range from the start of the part.
        4 ranges_offset: u32 => "RTS0 descriptor table ranges offset";
    }
}

crate::record::record! {
    /// A version 1.0 descriptor range (20 bytes).
    pub struct DescriptorRange10: "descriptor range" {
        /// Range type.
        0 range_type: RangeType => "range type";
        /// Number of descriptors.
        4 num_descriptors: u32 => "range NumDescriptors";
        /// First shader register.
        8 base_shader_register: u32 => "range BaseShaderRegister";
        /// Register space.
        12 register_space: u32 => "range RegisterSpace";
        /// Offset in descriptors from the table start.
        16 offset_in_descriptors_from_table_start: u32 => "range offset";
    }
}

crate::record::record! {
    /// A version 1.1+ descriptor range (24 bytes): flags before the offset.
    pub struct DescriptorRange11: "descriptor range" {
        /// Range type.
        0 range_type: RangeType => "range type";
        /// Number of descriptors.
        4 num_descriptors: u32 => "range NumDescriptors";
        /// First shader register.
        8 base_shader_register: u32 => "range BaseShaderRegister";
        /// Register space.
        12 register_space: u32 => "range RegisterSpace";
        /// Flags.
        16 flags: DescriptorRangeFlags => "range flags";
        /// Offset in descriptors from the table start.
        20 offset_in_descriptors_from_table_start: u32 => "range offset";
    }
}

impl DescriptorRange {
    /// Appends the range as stored in a range record of `range_size` bytes
    /// (20: version 1.0, without flags; 24: with them, 0 when absent).
    pub fn write_to(&self, range_size: u32, out: &mut Vec<u8>) {
        if range_size >= DescriptorRange11::SIZE as u32 {
            DescriptorRange11 {
                range_type: self.range_type,
                num_descriptors: self.num_descriptors,
                base_shader_register: self.base_shader_register,
                register_space: self.register_space,
                flags: self.flags.unwrap_or_default(),
                offset_in_descriptors_from_table_start: self.offset_in_descriptors_from_table_start,
            }
            .write_to(out)
        } else {
            DescriptorRange10 {
                range_type: self.range_type,
                num_descriptors: self.num_descriptors,
                base_shader_register: self.base_shader_register,
                register_space: self.register_space,
                offset_in_descriptors_from_table_start: self.offset_in_descriptors_from_table_start,
            }
            .write_to(out)
        }
    }
}

open_enum! {
    /// Root signature version (`RootSignatureVersion`).
    pub enum RootSignatureVersion: u32 {
        /// Root signature 1.0.
        V1_0 = 1 => "1.0",
        /// Root signature 1.1 (descriptor and range flags).
        V1_1 = 2 => "1.1",
        /// Root signature 1.2 (static sampler flags).
        V1_2 = 3 => "1.2",
    }
}

impl RootSignatureVersion {
    /// Size of a root descriptor payload in this version.
    pub fn root_descriptor_size(self) -> Option<u32> {
        match self {
            RootSignatureVersion::V1_0 => Some(8),
            RootSignatureVersion::V1_1 | RootSignatureVersion::V1_2 => Some(12),
            RootSignatureVersion::Unknown(_) => None,
        }
    }

    /// Size of a descriptor range in this version.
    pub fn descriptor_range_size(self) -> Option<u32> {
        match self {
            RootSignatureVersion::V1_0 => Some(20),
            RootSignatureVersion::V1_1 | RootSignatureVersion::V1_2 => Some(24),
            RootSignatureVersion::Unknown(_) => None,
        }
    }

    /// Size of a static sampler in this version (LLVM: 52 up to 1.1, 56 after).
    pub fn static_sampler_size(self) -> u32 {
        if self.raw() <= 2 {
            52
        } else {
            56
        }
    }
}

flag_set! {
    /// Root signature flags (docs/format/enums.md §10).
    pub struct RootFlags: u32 {
        ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT = 0x1 => "AllowInputAssemblerInputLayout",
        DENY_VERTEX_SHADER_ROOT_ACCESS = 0x2 => "DenyVertexShaderRootAccess",
        DENY_HULL_SHADER_ROOT_ACCESS = 0x4 => "DenyHullShaderRootAccess",
        DENY_DOMAIN_SHADER_ROOT_ACCESS = 0x8 => "DenyDomainShaderRootAccess",
        DENY_GEOMETRY_SHADER_ROOT_ACCESS = 0x10 => "DenyGeometryShaderRootAccess",
        DENY_PIXEL_SHADER_ROOT_ACCESS = 0x20 => "DenyPixelShaderRootAccess",
        ALLOW_STREAM_OUTPUT = 0x40 => "AllowStreamOutput",
        LOCAL_ROOT_SIGNATURE = 0x80 => "LocalRootSignature",
        DENY_AMPLIFICATION_SHADER_ROOT_ACCESS = 0x100 => "DenyAmplificationShaderRootAccess",
        DENY_MESH_SHADER_ROOT_ACCESS = 0x200 => "DenyMeshShaderRootAccess",
        CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED = 0x400 => "CBVSRVUAVHeapDirectlyIndexed",
        SAMPLER_HEAP_DIRECTLY_INDEXED = 0x800 => "SamplerHeapDirectlyIndexed",
    }
}

flag_set! {
    /// Root descriptor flags, version 1.1+ (docs/format/enums.md §11).
    pub struct RootDescriptorFlags: u32 {
        DATA_VOLATILE = 0x2 => "DATA_VOLATILE",
        DATA_STATIC_WHILE_SET_AT_EXECUTE = 0x4 => "DATA_STATIC_WHILE_SET_AT_EXECUTE",
        DATA_STATIC = 0x8 => "DATA_STATIC",
    }
}

flag_set! {
    /// Descriptor range flags, version 1.1+ (docs/format/enums.md §11).
    pub struct DescriptorRangeFlags: u32 {
        DESCRIPTORS_VOLATILE = 0x1 => "DESCRIPTORS_VOLATILE",
        DATA_VOLATILE = 0x2 => "DATA_VOLATILE",
        DATA_STATIC_WHILE_SET_AT_EXECUTE = 0x4 => "DATA_STATIC_WHILE_SET_AT_EXECUTE",
        DATA_STATIC = 0x8 => "DATA_STATIC",
        DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS = 0x1_0000 => "DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS",
    }
}

flag_set! {
    /// Static sampler flags, version 1.2 (docs/format/enums.md §11).
    pub struct StaticSamplerFlags: u32 {
        UINT_BORDER_COLOR = 0x1 => "SAMPLER_FLAG_UINT_BORDER_COLOR",
        NON_NORMALIZED_COORDINATES = 0x2 => "SAMPLER_FLAG_NON_NORMALIZED_COORDINATES",
    }
}

open_enum! {
    /// Root parameter type (docs/format/rts0.md §2).
    pub enum ParameterType: u32 {
        DescriptorTable = 0 => "DescriptorTable",
        Constants32Bit = 1 => "Constants32Bit",
        Cbv = 2 => "CBV",
        Srv = 3 => "SRV",
        Uav = 4 => "UAV",
    }
}

open_enum! {
    /// Shader visibility of a parameter or static sampler (docs/format/enums.md §12).
    pub enum ShaderVisibility: u32 {
        All = 0 => "All",
        Vertex = 1 => "Vertex",
        Hull = 2 => "Hull",
        Domain = 3 => "Domain",
        Geometry = 4 => "Geometry",
        Pixel = 5 => "Pixel",
        Amplification = 6 => "Amplification",
        Mesh = 7 => "Mesh",
    }
}

open_enum! {
    /// Descriptor range type (`dxil::ResourceClass`; docs/format/enums.md §11).
    pub enum RangeType: u32 {
        Srv = 0 => "SRV",
        Uav = 1 => "UAV",
        CBuffer = 2 => "CBuffer",
        Sampler = 3 => "Sampler",
    }
}

open_enum! {
    /// Static sampler filter (`D3D12_FILTER`; docs/format/enums.md §13).
    pub enum Filter: u32 {
        MinMagMipPoint = 0x0 => "MinMagMipPoint",
        MinMagPointMipLinear = 0x1 => "MinMagPointMipLinear",
        MinPointMagLinearMipPoint = 0x4 => "MinPointMagLinearMipPoint",
        MinPointMagMipLinear = 0x5 => "MinPointMagMipLinear",
        MinLinearMagMipPoint = 0x10 => "MinLinearMagMipPoint",
        MinLinearMagPointMipLinear = 0x11 => "MinLinearMagPointMipLinear",
        MinMagLinearMipPoint = 0x14 => "MinMagLinearMipPoint",
        MinMagMipLinear = 0x15 => "MinMagMipLinear",
        Anisotropic = 0x55 => "Anisotropic",
        ComparisonMinMagMipPoint = 0x80 => "ComparisonMinMagMipPoint",
        ComparisonMinMagPointMipLinear = 0x81 => "ComparisonMinMagPointMipLinear",
        ComparisonMinPointMagLinearMipPoint = 0x84 => "ComparisonMinPointMagLinearMipPoint",
        ComparisonMinPointMagMipLinear = 0x85 => "ComparisonMinPointMagMipLinear",
        ComparisonMinLinearMagMipPoint = 0x90 => "ComparisonMinLinearMagMipPoint",
        ComparisonMinLinearMagPointMipLinear = 0x91 => "ComparisonMinLinearMagPointMipLinear",
        ComparisonMinMagLinearMipPoint = 0x94 => "ComparisonMinMagLinearMipPoint",
        ComparisonMinMagMipLinear = 0x95 => "ComparisonMinMagMipLinear",
        ComparisonAnisotropic = 0xd5 => "ComparisonAnisotropic",
        MinimumMinMagMipPoint = 0x100 => "MinimumMinMagMipPoint",
        MinimumMinMagPointMipLinear = 0x101 => "MinimumMinMagPointMipLinear",
        MinimumMinPointMagLinearMipPoint = 0x104 => "MinimumMinPointMagLinearMipPoint",
        MinimumMinPointMagMipLinear = 0x105 => "MinimumMinPointMagMipLinear",
        MinimumMinLinearMagMipPoint = 0x110 => "MinimumMinLinearMagMipPoint",
        MinimumMinLinearMagPointMipLinear = 0x111 => "MinimumMinLinearMagPointMipLinear",
        MinimumMinMagLinearMipPoint = 0x114 => "MinimumMinMagLinearMipPoint",
        MinimumMinMagMipLinear = 0x115 => "MinimumMinMagMipLinear",
        MinimumAnisotropic = 0x155 => "MinimumAnisotropic",
        MaximumMinMagMipPoint = 0x180 => "MaximumMinMagMipPoint",
        MaximumMinMagPointMipLinear = 0x181 => "MaximumMinMagPointMipLinear",
        MaximumMinPointMagLinearMipPoint = 0x184 => "MaximumMinPointMagLinearMipPoint",
        MaximumMinPointMagMipLinear = 0x185 => "MaximumMinPointMagMipLinear",
        MaximumMinLinearMagMipPoint = 0x190 => "MaximumMinLinearMagMipPoint",
        MaximumMinLinearMagPointMipLinear = 0x191 => "MaximumMinLinearMagPointMipLinear",
        MaximumMinMagLinearMipPoint = 0x194 => "MaximumMinMagLinearMipPoint",
        MaximumMinMagMipLinear = 0x195 => "MaximumMinMagMipLinear",
        MaximumAnisotropic = 0x1d5 => "MaximumAnisotropic",
    }
}

open_enum! {
    /// Texture address mode (docs/format/enums.md §14).
    pub enum TextureAddressMode: u32 {
        Wrap = 1 => "Wrap",
        Mirror = 2 => "Mirror",
        Clamp = 3 => "Clamp",
        Border = 4 => "Border",
        MirrorOnce = 5 => "MirrorOnce",
    }
}

open_enum! {
    /// Comparison function (docs/format/enums.md §15).
    pub enum ComparisonFunc: u32 {
        Never = 1 => "Never",
        Less = 2 => "Less",
        Equal = 3 => "Equal",
        LessEqual = 4 => "LessEqual",
        Greater = 5 => "Greater",
        NotEqual = 6 => "NotEqual",
        GreaterEqual = 7 => "GreaterEqual",
        Always = 8 => "Always",
    }
}

open_enum! {
    /// Static border color (docs/format/enums.md §16).
    pub enum StaticBorderColor: u32 {
        TransparentBlack = 0 => "TransparentBlack",
        OpaqueBlack = 1 => "OpaqueBlack",
        OpaqueWhite = 2 => "OpaqueWhite",
        OpaqueBlackUint = 3 => "OpaqueBlackUint",
        OpaqueWhiteUint = 4 => "OpaqueWhiteUint",
    }
}

crate::record::record! {
    /// Root constants (parameter type `Constants32Bit`).
    #[derive(Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    pub struct RootConstants: "RTS0 root constants" {
        /// Shader register (`b` register).
        0 shader_register: u32 => "root constants ShaderRegister";
        /// Register space.
        4 register_space: u32 => "root constants RegisterSpace";
        /// Number of 32-bit values.
        8 num_32bit_values: u32 => "root constants Num32BitValues";
    }
}

crate::record::record! {
    /// A root descriptor (parameter types CBV, SRV, UAV): 8 bytes in
    /// version 1.0, 12 from 1.1 (versions numbered as stored: 1, 2, 3).
    #[derive(Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    pub struct RootDescriptor: "RTS0 root descriptor" {
        /// Shader register.
        0 shader_register: u32 => "root descriptor ShaderRegister";
        /// Register space.
        4 register_space: u32 => "root descriptor RegisterSpace";
        /// Flags (version 1.1+).
        8 flags: RootDescriptorFlags => "root descriptor flags", since 2;
    }
}

/// One descriptor range of a descriptor table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DescriptorRange {
    /// Range type.
    pub range_type: RangeType,
    /// Number of descriptors (0xFFFFFFFF = unbounded).
    pub num_descriptors: u32,
    /// First shader register.
    pub base_shader_register: u32,
    /// Register space.
    pub register_space: u32,
    /// Flags (version 1.1+; stored before the offset).
    pub flags: Option<DescriptorRangeFlags>,
    /// Offset in descriptors from the table start (0xFFFFFFFF = append).
    pub offset_in_descriptors_from_table_start: u32,
}

/// A descriptor table.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DescriptorTable {
    /// Number of ranges as stored.
    pub num_ranges: u32,
    /// Offset of the first range from the start of the part, as stored.
    pub ranges_offset: u32,
    /// The ranges.
    pub ranges: Vec<DescriptorRange>,
}

/// The payload of a root parameter, by parameter type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ParameterPayload {
    /// Root constants.
    Constants(RootConstants),
    /// A root CBV, SRV or UAV.
    Descriptor(RootDescriptor),
    /// A descriptor table.
    Table(DescriptorTable),
}

/// One root parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RootParameter {
    /// Parameter type.
    pub parameter_type: ParameterType,
    /// Shader visibility.
    pub visibility: ShaderVisibility,
    /// Offset of the payload from the start of the part.
    pub payload_offset: u32,
    /// The payload.
    pub payload: ParameterPayload,
}

crate::record::record! {
    /// One static sampler: 52 bytes up to version 1.1, 56 in 1.2
    /// (versions numbered as stored: 1, 2, 3).
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    pub struct StaticSampler: "RTS0 static sampler" {
        /// Filter.
        0 filter: Filter => "sampler filter";
        /// Address mode U.
        4 address_u: TextureAddressMode => "sampler AddressU";
        /// Address mode V.
        8 address_v: TextureAddressMode => "sampler AddressV";
        /// Address mode W.
        12 address_w: TextureAddressMode => "sampler AddressW";
        /// Mip LOD bias.
        16 mip_lod_bias: f32 => "sampler MipLODBias";
        /// Maximum anisotropy.
        20 max_anisotropy: u32 => "sampler MaxAnisotropy";
        /// Comparison function.
        24 comparison_func: ComparisonFunc => "sampler ComparisonFunc";
        /// Border color.
        28 border_color: StaticBorderColor => "sampler BorderColor";
        /// Minimum LOD.
        32 min_lod: f32 => "sampler MinLOD";
        /// Maximum LOD.
        36 max_lod: f32 => "sampler MaxLOD";
        /// Shader register (`s` register).
        40 shader_register: u32 => "sampler ShaderRegister";
        /// Register space.
        44 register_space: u32 => "sampler RegisterSpace";
        /// Shader visibility.
        48 visibility: ShaderVisibility => "sampler ShaderVisibility";
        /// Flags (version 1.2).
        52 flags: StaticSamplerFlags => "sampler flags", since 3;
    }
}

/// A decoded RTS0 part.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RootSignature {
    /// Version.
    pub version: RootSignatureVersion,
    /// Number of parameters as stored.
    pub num_parameters: u32,
    /// Offset of the parameter headers.
    pub parameters_offset: u32,
    /// Number of static samplers as stored.
    pub num_static_samplers: u32,
    /// Offset of the static samplers.
    pub static_samplers_offset: u32,
    /// Flags.
    pub flags: RootFlags,
    /// The parameters (in compat mode, the ones whose headers lie in the part).
    pub parameters: Vec<RootParameter>,
    /// The static samplers (in compat mode, the ones that lie in the part).
    pub static_samplers: Vec<StaticSampler>,
}

/// Writes `bytes` at `offset` in `out`, growing it with zeros as needed.
fn put_at(out: &mut Vec<u8>, offset: u32, bytes: &[u8]) {
    let start = offset as usize;
    if out.len() < start + bytes.len() {
        out.resize(start + bytes.len(), 0);
    }
    out[start..start + bytes.len()].copy_from_slice(bytes);
}

impl RootSignature {
    /// Encodes the part data with every piece at its stored offset: the
    /// header, the parameter headers at `parameters_offset`, each payload
    /// at its `payload_offset` (a table's ranges at its `ranges_offset`),
    /// the static samplers at `static_samplers_offset`; zeros in any gap.
    /// Record sizes follow `version`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Rts0Header {
            version: self.version,
            num_parameters: self.num_parameters,
            parameters_offset: self.parameters_offset,
            num_static_samplers: self.num_static_samplers,
            static_samplers_offset: self.static_samplers_offset,
            flags: self.flags,
        }
        .to_bytes();
        let range_size = self.version.descriptor_range_size().unwrap_or(24);
        for (i, parameter) in self.parameters.iter().enumerate() {
            let header = ParameterHeader {
                parameter_type: parameter.parameter_type.raw(),
                visibility: parameter.visibility,
                payload_offset: parameter.payload_offset,
            };
            let at = self.parameters_offset + i as u32 * PARAMETER_HEADER_SIZE;
            put_at(&mut out, at, &header.to_bytes());
            let payload = match &parameter.payload {
                ParameterPayload::Constants(constants) => constants.to_bytes(),
                ParameterPayload::Descriptor(descriptor) => descriptor.to_bytes(),
                ParameterPayload::Table(table) => {
                    let mut ranges = Vec::new();
                    for range in &table.ranges {
                        range.write_to(range_size, &mut ranges);
                    }
                    put_at(&mut out, table.ranges_offset, &ranges);
                    TableHeader {
                        num_ranges: table.num_ranges,
                        ranges_offset: table.ranges_offset,
                    }
                    .to_bytes()
                }
            };
            put_at(&mut out, parameter.payload_offset, &payload);
        }
        let mut samplers = Vec::new();
        for sampler in &self.static_samplers {
            sampler.write_to(&mut samplers);
        }
        if !samplers.is_empty() {
            put_at(&mut out, self.static_samplers_offset, &samplers);
        }
        out
    }

    /// Decodes an RTS0 part strictly.
    pub fn parse(part: &Part<'_>) -> Result<RootSignature> {
        decode(part.cursor(), Mode::Strict).map_err(|e| e.in_part(part.part_ref()))
    }

    /// Decodes RTS0 part data located at absolute offset `base`, strictly.
    pub fn parse_data(data: &[u8], base: u64) -> Result<RootSignature> {
        decode(Cursor::new(data, base), Mode::Strict)
    }

    /// Decodes an RTS0 part the way LLVM 22's reader and obj2yaml do:
    ///
    /// * the parameter header and sampler arrays are cut to the whole records
    ///   that lie in the part (no error);
    /// * descriptor ranges are read right after the 8-byte table header
    ///   (`RangesOffset` is reported but not followed);
    /// * a parameter payload must end before the static samplers when there
    ///   are any (else before the end of the part);
    /// * a root descriptor in a version other than 1 or 2 is an error
    ///   ("Invalid Root Signature version"), as are descriptor tables in an
    ///   unknown version, and parameter types, visibilities, range types and
    ///   static sampler enumerations without a name;
    /// * other versions are accepted for the header, constants and samplers.
    pub fn parse_llvm_compat(part: &Part<'_>) -> Result<RootSignature> {
        decode(part.cursor(), Mode::LlvmCompat).map_err(|e| e.in_part(part.part_ref()))
    }
}

fn decode(c: Cursor<'_>, mode: Mode) -> Result<RootSignature> {
    let strict = mode == Mode::Strict;
    c.bytes(0, u64::from(HEADER_SIZE), "RTS0 header")?;
    let Rts0Header {
        version,
        num_parameters,
        parameters_offset,
        num_static_samplers,
        static_samplers_offset,
        flags,
    } = Rts0Header::read(&c, 0)?;
    if strict && version.known_name().is_none() {
        return Err(c.unknown_value(
            0,
            Rts0Error::Version {
                value: version.raw(),
            },
        ));
    }

    // Number of whole records of `size` bytes available for a declared count.
    let available = |offset: u32, count: u32, size: u32, what: &'static str| -> Result<u64> {
        let want = u64::from(count) * u64::from(size);
        if strict {
            c.bytes(u64::from(offset), want, what)?;
            Ok(u64::from(count))
        } else {
            Ok(u64::from(count).min(c.rest(u64::from(offset)).len() as u64 / u64::from(size)))
        }
    };

    let header_count = available(
        parameters_offset,
        num_parameters,
        PARAMETER_HEADER_SIZE,
        "RTS0 parameter headers",
    )?;
    let end_of_params = if num_static_samplers == 0 || strict {
        c.len()
    } else {
        u64::from(static_samplers_offset).min(c.len())
    };
    let mut parameters = Vec::with_capacity(header_count as usize);
    for i in 0..header_count {
        let at = u64::from(parameters_offset) + i * u64::from(PARAMETER_HEADER_SIZE);
        let ParameterHeader {
            parameter_type: raw_type,
            visibility,
            payload_offset,
        } = ParameterHeader::read(&c, at)?;
        let parameter_type = ParameterType::from_raw(raw_type);
        if parameter_type.known_name().is_none() {
            return Err(c.unknown_value(at, Rts0Error::ParameterType { value: raw_type }));
        }
        if !strict && visibility.known_name().is_none() {
            return Err(c.unknown_value(
                at + 4,
                Rts0Error::ShaderVisibility {
                    value: visibility.raw(),
                },
            ));
        }
        let payload = decode_payload(
            &c,
            mode,
            version,
            parameter_type,
            payload_offset,
            end_of_params,
        )?;
        parameters.push(RootParameter {
            parameter_type,
            visibility,
            payload_offset,
            payload,
        });
    }

    let sampler_size = version.static_sampler_size();
    let sampler_count = available(
        static_samplers_offset,
        num_static_samplers,
        sampler_size,
        "RTS0 static samplers",
    )?;
    let mut static_samplers = Vec::with_capacity(sampler_count as usize);
    for i in 0..sampler_count {
        let s = c.sub(
            u64::from(static_samplers_offset) + i * u64::from(sampler_size),
            u64::from(sampler_size),
            "RTS0 static sampler",
        )?;
        // The record version whose size is `sampler_size`.
        let sampler_version = if sampler_size >= StaticSampler::SIZE as u32 {
            3
        } else {
            2
        };
        let sampler = StaticSampler::read_version(&s, 0, sampler_version)?;
        if !strict {
            llvm_named_sampler_fields(&s, &sampler)?;
        }
        static_samplers.push(sampler);
    }

    Ok(RootSignature {
        version,
        num_parameters,
        parameters_offset,
        num_static_samplers,
        static_samplers_offset,
        flags,
        parameters,
        static_samplers,
    })
}

/// LLVM 22's obj2yaml rejects a static sampler field whose value has no
/// name in its enumeration: the LLVM view's error for the first such field.
fn llvm_named_sampler_fields(s: &Cursor<'_>, sampler: &StaticSampler) -> Result<()> {
    // Each field: its name in the error, whether LLVM names its value, the value.
    macro_rules! field {
        ($field:ident, $value:ident) => {
            (
                SamplerField::$field,
                sampler.$value.known_name(),
                sampler.$value.raw(),
            )
        };
    }
    let checks = [
        field!(Filter, filter),
        field!(AddressU, address_u),
        field!(AddressV, address_v),
        field!(AddressW, address_w),
        field!(ComparisonFunc, comparison_func),
        field!(BorderColor, border_color),
        field!(ShaderVisibility, visibility),
    ];
    if let Some((field, _, raw)) = checks.iter().find(|(_, name, _)| name.is_none()) {
        return Err(s.unknown_value(
            0,
            Rts0Error::StaticSampler {
                field: *field,
                value: *raw,
            },
        ));
    }
    Ok(())
}

fn decode_payload(
    c: &Cursor<'_>,
    mode: Mode,
    version: RootSignatureVersion,
    parameter_type: ParameterType,
    offset: u32,
    end_of_params: u64,
) -> Result<ParameterPayload> {
    let strict = mode == Mode::Strict;
    let at = u64::from(offset);
    // Compat: LLVM requires the payload to end before the samplers (if any).
    let section = if strict {
        *c
    } else {
        c.sub(0, end_of_params, "RTS0 parameter section")?
    };
    match parameter_type {
        ParameterType::Constants32Bit => {
            let p = section.sub(at, u64::from(ROOT_CONSTANTS_SIZE), "RTS0 root constants")?;
            Ok(ParameterPayload::Constants(RootConstants::read(&p, 0)?))
        }
        ParameterType::Cbv | ParameterType::Srv | ParameterType::Uav => {
            let size = match (mode, version) {
                (Mode::LlvmCompat, RootSignatureVersion::V1_2)
                | (_, RootSignatureVersion::Unknown(_)) => {
                    return Err(c.unknown_value(
                        at,
                        Rts0Error::RootDescriptorVersion {
                            value: version.raw(),
                        },
                    ))
                }
                (_, v) => v.root_descriptor_size().unwrap_or(12),
            };
            let p = section.sub(at, u64::from(size), "RTS0 root descriptor")?;
            let descriptor_version = if u64::from(size) >= RootDescriptor::SIZE {
                2
            } else {
                1
            };
            Ok(ParameterPayload::Descriptor(RootDescriptor::read_version(
                &p,
                0,
                descriptor_version,
            )?))
        }
        ParameterType::DescriptorTable => {
            let range_size = version.descriptor_range_size().ok_or_else(|| {
                c.unknown_value(
                    at,
                    Rts0Error::DescriptorTableVersion {
                        value: version.raw(),
                    },
                )
            })?;
            let TableHeader {
                num_ranges,
                ranges_offset,
            } = TableHeader::read(&section, at)?;
            let ranges_bytes = u64::from(num_ranges) * u64::from(range_size);
            let ranges_at = match mode {
                Mode::Strict => u64::from(ranges_offset),
                Mode::LlvmCompat => at + u64::from(TABLE_HEADER_SIZE),
            };
            // Checked before allocating: the whole range array must be in the part.
            let ranges_data = section.sub(ranges_at, ranges_bytes, "RTS0 descriptor ranges")?;
            let mut ranges = Vec::with_capacity(num_ranges as usize);
            for i in 0..u64::from(num_ranges) {
                let r = ranges_data.sub(
                    i * u64::from(range_size),
                    u64::from(range_size),
                    "descriptor range",
                )?;
                let range = if u64::from(range_size) >= DescriptorRange11::SIZE {
                    let r = DescriptorRange11::read(&r, 0)?;
                    DescriptorRange {
                        range_type: r.range_type,
                        num_descriptors: r.num_descriptors,
                        base_shader_register: r.base_shader_register,
                        register_space: r.register_space,
                        flags: Some(r.flags),
                        offset_in_descriptors_from_table_start: r
                            .offset_in_descriptors_from_table_start,
                    }
                } else {
                    let r = DescriptorRange10::read(&r, 0)?;
                    DescriptorRange {
                        range_type: r.range_type,
                        num_descriptors: r.num_descriptors,
                        base_shader_register: r.base_shader_register,
                        register_space: r.register_space,
                        flags: None,
                        offset_in_descriptors_from_table_start: r
                            .offset_in_descriptors_from_table_start,
                    }
                };
                if !strict && range.range_type.known_name().is_none() {
                    return Err(r.unknown_value(
                        0,
                        Rts0Error::DescriptorRangeType {
                            value: range.range_type.raw(),
                        },
                    ));
                }
                ranges.push(range);
            }
            Ok(ParameterPayload::Table(DescriptorTable {
                num_ranges,
                ranges_offset,
                ranges,
            }))
        }
        ParameterType::Unknown(raw) => {
            Err(c.unknown_value(at, Rts0Error::ParameterType { value: raw }))
        }
    }
}

/// The RTS0 decoder's errors, in its words (the LLVM view's words are
/// LLVM 22's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rts0Error {
    /// RTS0's version, in strict decoding.
    Version {
        /// The version found.
        value: u32,
    },
    /// The root signature version a root descriptor is read in (the LLVM
    /// view knows no 1.2 root descriptor).
    RootDescriptorVersion {
        /// The version.
        value: u32,
    },
    /// The root signature version a descriptor table is read in.
    DescriptorTableVersion {
        /// The version.
        value: u32,
    },
    /// A root parameter's type.
    ParameterType {
        /// The type found.
        value: u32,
    },
    /// A root parameter's shader visibility (LLVM view).
    ShaderVisibility {
        /// The visibility found.
        value: u32,
    },
    /// A static sampler field without a name in LLVM's enumeration (LLVM view).
    StaticSampler {
        /// The field.
        field: SamplerField,
        /// Its value.
        value: u32,
    },
    /// A descriptor range's type (LLVM view).
    DescriptorRangeType {
        /// The type found.
        value: u32,
    },
}

impl fmt::Display for Rts0Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rts0Error::Version { value } => {
                write!(f, "unsupported root signature version {value}")
            }
            Rts0Error::RootDescriptorVersion { value } => {
                write!(f, "Invalid Root Signature version: {value}")
            }
            Rts0Error::DescriptorTableVersion { value } => write!(
                f,
                "descriptor table in unsupported root signature version {value}"
            ),
            Rts0Error::ParameterType { value } => write!(f, "invalid root parameter type {value}"),
            Rts0Error::ShaderVisibility { value } => write!(f, "invalid shader visibility {value}"),
            Rts0Error::StaticSampler { field, .. } => {
                write!(f, "Invalid value for static sampler {}", field.name())
            }
            Rts0Error::DescriptorRangeType { .. } => {
                f.write_str("Invalid value for descriptor range type")
            }
        }
    }
}

/// The static sampler field of [`Rts0Error::StaticSampler`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SamplerField {
    /// Filter.
    Filter,
    /// AddressU.
    AddressU,
    /// AddressV.
    AddressV,
    /// AddressW.
    AddressW,
    /// ComparisonFunc.
    ComparisonFunc,
    /// BorderColor.
    BorderColor,
    /// ShaderVisibility.
    ShaderVisibility,
}

impl SamplerField {
    /// The field's name in messages (LLVM's spelling).
    pub fn name(self) -> &'static str {
        match self {
            SamplerField::Filter => "filter",
            SamplerField::AddressU => "AddressU",
            SamplerField::AddressV => "AddressV",
            SamplerField::AddressW => "AddressW",
            SamplerField::ComparisonFunc => "ComparisonFunc",
            SamplerField::BorderColor => "BorderColor",
            SamplerField::ShaderVisibility => "ShaderVisibility",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    #[test]
    fn each_error_says_its_sentence() {
        use Rts0Error::*;
        crate::testutil::errors_say(vec![
            (Version { value: 9 }, "unsupported root signature version 9"),
            (
                RootDescriptorVersion { value: 3 },
                "Invalid Root Signature version: 3",
            ),
            (
                DescriptorTableVersion { value: 7 },
                "descriptor table in unsupported root signature version 7",
            ),
            (ParameterType { value: 9 }, "invalid root parameter type 9"),
            (ShaderVisibility { value: 8 }, "invalid shader visibility 8"),
            (
                StaticSampler {
                    field: SamplerField::AddressU,
                    value: 0x99,
                },
                "Invalid value for static sampler AddressU",
            ),
            (
                DescriptorRangeType { value: 4 },
                "Invalid value for descriptor range type",
            ),
        ]);
    }

    enum Param {
        Constants(u32, [u32; 3]),
        Descriptor(u32, u32, [u32; 3]),
        Table(u32, Vec<[u32; 6]>),
    }

    /// Lays out an RTS0 part the way dxc and yaml2obj do: header, parameter
    /// headers, payloads in parameter order, then the samplers.
    fn build(version: u32, flags: u32, params: &[Param], samplers: usize) -> Vec<u8> {
        let v = RootSignatureVersion::from_raw(version);
        let range_size = v.descriptor_range_size().unwrap_or(24);
        let mut payloads = Vec::new();
        let payload_start = HEADER_SIZE + PARAMETER_HEADER_SIZE * params.len() as u32;
        let mut headers = Vec::new();
        for p in params {
            let payload_offset = payload_start + payloads.len() as u32;
            let (ty, vis) = match p {
                Param::Constants(vis, [register, space, count]) => {
                    RootConstants {
                        shader_register: *register,
                        register_space: *space,
                        num_32bit_values: *count,
                    }
                    .write_to(&mut payloads);
                    (1, *vis)
                }
                Param::Descriptor(ty, vis, [register, space, descriptor_flags]) => {
                    RootDescriptor {
                        shader_register: *register,
                        register_space: *space,
                        flags: (version >= 2).then_some(RootDescriptorFlags(*descriptor_flags)),
                    }
                    .write_to(&mut payloads);
                    (*ty, *vis)
                }
                Param::Table(vis, ranges) => {
                    TableHeader {
                        num_ranges: ranges.len() as u32,
                        ranges_offset: payload_offset + TABLE_HEADER_SIZE,
                    }
                    .write_to(&mut payloads);
                    for r in ranges {
                        DescriptorRange {
                            range_type: RangeType::from_raw(r[0]),
                            num_descriptors: r[1],
                            base_shader_register: r[2],
                            register_space: r[3],
                            flags: Some(DescriptorRangeFlags(r[4])),
                            offset_in_descriptors_from_table_start: r[5],
                        }
                        .write_to(range_size, &mut payloads);
                    }
                    (0, *vis)
                }
            };
            ParameterHeader {
                parameter_type: ty,
                visibility: ShaderVisibility::from_raw(vis),
                payload_offset,
            }
            .write_to(&mut headers);
        }
        let mut out = Rts0Header {
            version: v,
            num_parameters: params.len() as u32,
            parameters_offset: HEADER_SIZE,
            num_static_samplers: samplers as u32,
            static_samplers_offset: payload_start + payloads.len() as u32,
            flags: RootFlags(flags),
        }
        .to_bytes();
        out.extend(headers);
        out.extend(payloads);
        for i in 0..samplers {
            StaticSampler {
                filter: Filter::from_raw(0x55),
                address_u: TextureAddressMode::from_raw(1),
                address_v: TextureAddressMode::from_raw(4),
                address_w: TextureAddressMode::from_raw(3),
                mip_lod_bias: -1.5,
                max_anisotropy: 16,
                comparison_func: ComparisonFunc::from_raw(1),
                border_color: StaticBorderColor::from_raw(2),
                min_lod: 0.0,
                max_lod: f32::MAX,
                shader_register: i as u32,
                register_space: 7,
                visibility: ShaderVisibility::from_raw(5),
                flags: (v.static_sampler_size() == 56).then_some(StaticSamplerFlags(3)),
            }
            .write_to(&mut out);
        }
        out
    }

    #[test]
    fn written_again_equals_the_built_bytes() {
        for version in [1u32, 2, 3] {
            let data = build(version, 0x41, &sample_params(), 2);
            let rs = RootSignature::parse_data(&data, 0).unwrap();
            assert_eq!(rs.to_bytes(), data, "version {version}");
        }
    }

    fn sample_params() -> Vec<Param> {
        vec![
            Param::Constants(0, [15, 14, 16]),
            Param::Descriptor(2, 5, [31, 32, 4]),
            Param::Table(
                3,
                vec![[0, u32::MAX, 42, 43, 3, 41], [3, 3, 0, 0, 0, u32::MAX]],
            ),
        ]
    }

    #[test]
    fn decodes_every_version() {
        for version in [1u32, 2, 3] {
            let data = build(version, 0x821, &sample_params(), 2);
            let rs = RootSignature::parse_data(&data, 0).unwrap();
            assert_eq!(rs.version.raw(), version);
            assert_eq!(
                rs.flags.names(),
                [
                    "AllowInputAssemblerInputLayout",
                    "DenyPixelShaderRootAccess",
                    "SamplerHeapDirectlyIndexed"
                ]
            );
            assert_eq!(rs.parameters.len(), 3);
            let p = &rs.parameters;
            assert_eq!(p[0].parameter_type, ParameterType::Constants32Bit);
            assert_eq!(
                p[0].payload,
                ParameterPayload::Constants(RootConstants {
                    shader_register: 15,
                    register_space: 14,
                    num_32bit_values: 16
                })
            );
            assert_eq!(p[1].visibility, ShaderVisibility::Pixel);
            let ParameterPayload::Descriptor(d) = &p[1].payload else {
                panic!()
            };
            assert_eq!((d.shader_register, d.register_space), (31, 32));
            assert_eq!(d.flags, (version > 1).then_some(RootDescriptorFlags(4)));
            let ParameterPayload::Table(t) = &p[2].payload else {
                panic!()
            };
            assert_eq!(t.num_ranges, 2);
            assert_eq!(t.ranges_offset, p[2].payload_offset + 8);
            let r = t.ranges[0];
            assert_eq!(r.range_type, RangeType::Srv);
            assert_eq!(r.num_descriptors, u32::MAX);
            assert_eq!((r.base_shader_register, r.register_space), (42, 43));
            assert_eq!(r.offset_in_descriptors_from_table_start, 41);
            assert_eq!(
                r.flags.map(|f| f.names()),
                (version > 1).then(|| vec!["DESCRIPTORS_VOLATILE", "DATA_VOLATILE"])
            );
            assert_eq!(t.ranges[1].range_type.known_name(), Some("Sampler"));
            assert_eq!(t.ranges[1].offset_in_descriptors_from_table_start, u32::MAX);
            assert_eq!(rs.static_samplers.len(), 2);
            let s = rs.static_samplers[1];
            assert_eq!(s.filter, Filter::Anisotropic);
            assert_eq!(
                (s.address_u, s.address_v, s.address_w),
                (
                    TextureAddressMode::Wrap,
                    TextureAddressMode::Border,
                    TextureAddressMode::Clamp
                )
            );
            assert_eq!(s.mip_lod_bias, -1.5);
            assert_eq!(s.comparison_func, ComparisonFunc::Never);
            assert_eq!(s.border_color, StaticBorderColor::OpaqueWhite);
            assert_eq!(s.max_lod, f32::MAX);
            assert_eq!(
                (s.shader_register, s.register_space, s.visibility),
                (1, 7, ShaderVisibility::Pixel)
            );
            assert_eq!(
                s.flags.map(|f| f.names()),
                (version == 3).then(|| vec![
                    "SAMPLER_FLAG_UINT_BORDER_COLOR",
                    "SAMPLER_FLAG_NON_NORMALIZED_COORDINATES"
                ])
            );
        }
    }

    #[test]
    fn empty_signature() {
        let data = build(2, 0, &[], 0);
        let rs = RootSignature::parse_data(&data, 0).unwrap();
        assert!(rs.parameters.is_empty() && rs.static_samplers.is_empty());
        assert_eq!(rs.static_samplers_offset, 24);
        assert_eq!(rs.flags.to_string(), "0");
    }

    #[test]
    fn strict_errors() {
        type Mutation = fn(&mut Vec<u8>);
        // `None`: a Truncated error; otherwise the field and value an
        // UnknownValue error names.
        type Expected = Option<Rts0Error>;
        let rows: &[(&str, Mutation, Expected)] = &[
            ("short header", |d| d.truncate(20), None),
            (
                "version 0",
                |d| d[0..4].copy_from_slice(&0u32.to_le_bytes()),
                Some(Rts0Error::Version { value: 0 }),
            ),
            (
                "version 4",
                |d| d[0..4].copy_from_slice(&4u32.to_le_bytes()),
                Some(Rts0Error::Version { value: 4 }),
            ),
            (
                "parameter headers past end",
                |d| d[4..8].copy_from_slice(&1000u32.to_le_bytes()),
                None,
            ),
            (
                "samplers past end",
                |d| d[12..16].copy_from_slice(&3u32.to_le_bytes()),
                None,
            ),
            (
                "bad parameter type",
                |d| d[24..28].copy_from_slice(&9u32.to_le_bytes()),
                Some(Rts0Error::ParameterType { value: 9 }),
            ),
            (
                "payload past end",
                |d| d[32..36].copy_from_slice(&0xffff_fff0u32.to_le_bytes()),
                None,
            ),
            (
                "too many ranges",
                |d| {
                    let at = u32::from_le_bytes(d[56..60].try_into().unwrap()) as usize;
                    d[at..at + 4].copy_from_slice(&0x4000_0000u32.to_le_bytes());
                },
                None,
            ),
        ];
        for (what, mutate, expected) in rows {
            let mut data = build(2, 0, &sample_params(), 1);
            mutate(&mut data);
            let err = RootSignature::parse_data(&data, 0x50).unwrap_err();
            assert!(err.offset >= 0x50, "{what}");
            match expected {
                None => assert!(
                    matches!(err.kind, ReadErrorKind::Truncated { .. }),
                    "{what}: {err}"
                ),
                Some(words) => assert_eq!(
                    err.kind,
                    ReadErrorKind::unknown_value(words.clone()),
                    "{what}: {err}"
                ),
            }
        }
        // Unknown visibility is kept in strict mode.
        let mut data = build(2, 0, &sample_params(), 1);
        data[28..32].copy_from_slice(&9u32.to_le_bytes());
        let rs = RootSignature::parse_data(&data, 0).unwrap();
        assert_eq!(rs.parameters[0].visibility, ShaderVisibility::Unknown(9));
    }

    fn compat(data: &[u8]) -> Result<RootSignature> {
        let bytes = crate::testutil::build(&[(b"RTS0", data)]);
        let c = crate::Container::parse(&bytes).unwrap();
        RootSignature::parse_llvm_compat(&c.part(0).unwrap())
    }

    #[test]
    fn compat_mode_quirks() {
        // Root descriptors in 1.2 are rejected by LLVM 22 (strict mode reads them).
        let data = build(3, 0, &sample_params(), 0);
        assert!(RootSignature::parse_data(&data, 0).is_ok());
        let err = compat(&data).unwrap_err();
        assert!(
            matches!(
                err.kind.detail(),
                Some(Rts0Error::RootDescriptorVersion { value: 3 })
            ) && matches!(err.kind, ReadErrorKind::UnknownValue { .. }),
            "{err}"
        );
        // A 1.2 signature without root descriptors is fine.
        let params = vec![Param::Constants(4, [2, 3, 1])];
        assert!(compat(&build(3, 0, &params, 1)).is_ok());
        // Truncated parameter and sampler arrays are cut to what fits.
        let mut data = build(2, 0, &params, 1);
        let len = data.len() as u32;
        data[8..12].copy_from_slice(&len.to_le_bytes());
        data[12..16].copy_from_slice(&9u32.to_le_bytes());
        assert!(RootSignature::parse_data(&data, 0).is_err());
        let rs = compat(&data).unwrap();
        assert_eq!(rs.num_parameters, 1);
        assert!(rs.parameters.is_empty());
        assert_eq!(rs.static_samplers.len(), 1);
        // Ranges are read after the table header, not at RangesOffset.
        let table = vec![Param::Table(0, vec![[1, 1, 2, 3, 0, 4]])];
        let mut data = build(2, 0, &table, 0);
        data[40..44].copy_from_slice(&0u32.to_le_bytes());
        assert!(compat(&data).is_ok());
        assert_eq!(
            RootSignature::parse_data(&data, 0).unwrap().parameters[0].payload,
            {
                let r = &data[0..24];
                let w = |i: usize| u32::from_le_bytes(r[i * 4..i * 4 + 4].try_into().unwrap());
                ParameterPayload::Table(DescriptorTable {
                    num_ranges: 1,
                    ranges_offset: 0,
                    ranges: vec![DescriptorRange {
                        range_type: RangeType::from_raw(w(0)),
                        num_descriptors: w(1),
                        base_shader_register: w(2),
                        register_space: w(3),
                        flags: Some(DescriptorRangeFlags(w(4))),
                        offset_in_descriptors_from_table_start: w(5),
                    }],
                })
            }
        );
        // A payload that runs into the samplers is an error for LLVM.
        let mut data = build(2, 0, &params, 1);
        let sampler_offset = u32::from_le_bytes(data[16..20].try_into().unwrap());
        data[16..20].copy_from_slice(&(sampler_offset - 4).to_le_bytes());
        assert!(compat(&data).is_err());
        // Unknown visibility, range type or sampler enumeration is an error for LLVM.
        let mut data = build(2, 0, &params, 0);
        data[28..32].copy_from_slice(&8u32.to_le_bytes());
        let e = compat(&data).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::UnknownValue { .. }));
        assert_eq!(
            e.kind.detail(),
            Some(&Rts0Error::ShaderVisibility { value: 8 })
        );
        let mut data = build(2, 0, &table, 0);
        data[44..48].copy_from_slice(&4u32.to_le_bytes());
        assert!(RootSignature::parse_data(&data, 0).is_ok());
        let e = compat(&data).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::UnknownValue { .. }));
        assert_eq!(
            e.kind.detail(),
            Some(&Rts0Error::DescriptorRangeType { value: 4 })
        );
        let sampler_fields = [
            (0usize, SamplerField::Filter),
            (4, SamplerField::AddressU),
            (8, SamplerField::AddressV),
            (12, SamplerField::AddressW),
            (24, SamplerField::ComparisonFunc),
            (28, SamplerField::BorderColor),
            (48, SamplerField::ShaderVisibility),
        ];
        for (field, name) in sampler_fields {
            let mut data = build(2, 0, &params, 1);
            let at = data.len() - 52 + field;
            data[at..at + 4].copy_from_slice(&0x99u32.to_le_bytes());
            assert!(RootSignature::parse_data(&data, 0).is_ok());
            let err = compat(&data).unwrap_err();
            assert_eq!(
                err.kind.detail(),
                Some(&Rts0Error::StaticSampler {
                    field: name,
                    value: 0x99
                }),
                "{err}"
            );
        }
    }
}
