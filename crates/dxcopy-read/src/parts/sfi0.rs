//! SFI0: shader feature info, one little-endian `u64` of feature flags
//! (docs/format/small-parts.md §1; bit names and meanings in docs/format/enums.md §2).
//!
//! LLVM reads only the first 8 bytes; a longer part is accepted and the rest
//! ignored, a shorter one is an error. Bits without a name are kept.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::enums::flag_set;
use crate::error::Result;

flag_set! {
    /// The SFI0 feature flags (`SHADER_FEATURE_FLAG`, `1 << bit`; docs/format/enums.md §2).
    pub struct FeatureFlags: u64 {
        /// Bit 0: double-precision floating point.
        DOUBLES = 0x1 => "Doubles",
        /// Bit 1: raw and structured buffers on compute shader 4.x.
        COMPUTE_SHADERS_PLUS_RAW_AND_STRUCTURED_BUFFERS = 0x2 => "ComputeShadersPlusRawAndStructuredBuffers",
        /// Bit 2: UAVs at every shader stage.
        UAVS_AT_EVERY_STAGE = 0x4 => "UAVsAtEveryStage",
        /// Bit 3: 64 UAV slots.
        MAX_64_UAVS = 0x8 => "Max64UAVs",
        /// Bit 4: minimum-precision data types.
        MINIMUM_PRECISION = 0x10 => "MinimumPrecision",
        /// Bit 5: double-precision extensions for 11.1.
        DX11_1_DOUBLE_EXTENSIONS = 0x20 => "DX11_1_DoubleExtensions",
        /// Bit 6: shader extensions for 11.1.
        DX11_1_SHADER_EXTENSIONS = 0x40 => "DX11_1_ShaderExtensions",
        /// Bit 7: comparison filtering for feature level 9.
        LEVEL9_COMPARISON_FILTERING = 0x80 => "LEVEL9ComparisonFiltering",
        /// Bit 8: tiled resources.
        TILED_RESOURCES = 0x100 => "TiledResources",
        /// Bit 9: pixel shader output stencil ref.
        STENCIL_REF = 0x200 => "StencilRef",
        /// Bit 10: pixel shader inner coverage.
        INNER_COVERAGE = 0x400 => "InnerCoverage",
        /// Bit 11: typed UAV load additional formats.
        TYPED_UAV_LOAD_ADDITIONAL_FORMATS = 0x800 => "TypedUAVLoadAdditionalFormats",
        /// Bit 12: raster ordered UAVs.
        ROVS = 0x1000 => "ROVs",
        /// Bit 13: SV_RenderTargetArrayIndex / SV_ViewportArrayIndex from any shader feeding the rasterizer.
        VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER = 0x2000 => "ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer",
        /// Bit 14: wave-level operations.
        WAVE_OPS = 0x4000 => "WaveOps",
        /// Bit 15: 64-bit integers.
        INT64_OPS = 0x8000 => "Int64Ops",
        /// Bit 16: view instancing.
        VIEW_ID = 0x1_0000 => "ViewID",
        /// Bit 17: barycentrics.
        BARYCENTRICS = 0x2_0000 => "Barycentrics",
        /// Bit 18: native low-precision data types.
        NATIVE_LOW_PRECISION = 0x4_0000 => "NativeLowPrecision",
        /// Bit 19: shading rate.
        SHADING_RATE = 0x8_0000 => "ShadingRate",
        /// Bit 20: raytracing tier 1.1 features.
        RAYTRACING_TIER_1_1 = 0x10_0000 => "Raytracing_Tier_1_1",
        /// Bit 21: sampler feedback.
        SAMPLER_FEEDBACK = 0x20_0000 => "SamplerFeedback",
        /// Bit 22: 64-bit atomics on typed resources.
        ATOMIC_INT64_ON_TYPED_RESOURCE = 0x40_0000 => "AtomicInt64OnTypedResource",
        /// Bit 23: 64-bit atomics on group shared memory.
        ATOMIC_INT64_ON_GROUP_SHARED = 0x80_0000 => "AtomicInt64OnGroupShared",
        /// Bit 24: derivatives in mesh and amplification shaders.
        DERIVATIVES_IN_MESH_AND_AMP_SHADERS = 0x100_0000 => "DerivativesInMeshAndAmpShaders",
        /// Bit 25: resource descriptor heap indexing.
        RESOURCE_DESCRIPTOR_HEAP_INDEXING = 0x200_0000 => "ResourceDescriptorHeapIndexing",
        /// Bit 26: sampler descriptor heap indexing.
        SAMPLER_DESCRIPTOR_HEAP_INDEXING = 0x400_0000 => "SamplerDescriptorHeapIndexing",
        /// Bit 27: reserved.
        RESERVED = 0x800_0000 => "RESERVED",
        /// Bit 28: 64-bit atomics on heap resources.
        ATOMIC_INT64_ON_HEAP_RESOURCE = 0x1000_0000 => "AtomicInt64OnHeapResource",
        /// Bit 29: advanced texture operations.
        ADVANCED_TEXTURE_OPS = 0x2000_0000 => "AdvancedTextureOps",
        /// Bit 30: writeable MSAA textures.
        WRITEABLE_MSAA_TEXTURES = 0x4000_0000 => "WriteableMSAATextures",
        /// Bit 31: SampleCmp with gradient or bias.
        SAMPLE_CMP_WITH_GRADIENT_OR_BIAS = 0x8000_0000 => "SampleCmpWithGradientOrBias",
        /// Bit 32: extended command information.
        EXTENDED_COMMAND_INFO = 0x1_0000_0000 => "ExtendedCommandInfo",
        /// Bit 33: LLVM's marker for the next unused bit (not a feature).
        NEXT_UNUSED_BIT = 0x2_0000_0000 => "NextUnusedBit",
    }
}

/// The texts of one SFI0 feature bit, for the three views that name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureText {
    /// dxinfo's one-line description (docs/format/enums.md §2).
    pub description: &'static str,
    /// The name dxc's listing prints (`g_pFeatureInfoNames`); which of them a
    /// release knows is decided by the DXIL listing. `None` past dxc's names.
    pub dxc_name: Option<&'static str>,
    /// The note fxc's listing prints for a shader model 5 program; `None`
    /// when it prints none for the bit.
    pub fxc_note: Option<&'static str>,
}

/// The texts of the named bits, indexed by bit number.
pub const FEATURE_TEXTS: [FeatureText; 34] = [
    FeatureText {
        description: "Double-precision floating point",
        dxc_name: Some("Double-precision floating point"),
        fxc_note: Some("Double-precision floating point"),
    },
    FeatureText {
        description: "CS4 raw and structured buffers",
        dxc_name: Some("Raw and Structured buffers"),
        fxc_note: Some("Early depth-stencil"),
    },
    FeatureText {
        description: "UAVs at every shader stage",
        dxc_name: Some("UAVs at every shader stage"),
        fxc_note: None,
    },
    FeatureText {
        description: "64 UAV slots",
        dxc_name: Some("64 UAV slots"),
        fxc_note: Some("64 UAV slots"),
    },
    FeatureText {
        description: "Minimum-precision data types",
        dxc_name: Some("Minimum-precision data types"),
        fxc_note: Some("Minimum-precision data types"),
    },
    FeatureText {
        description: "Double-precision extensions for 11.1",
        dxc_name: Some("Double-precision extensions for 11.1"),
        fxc_note: Some("Double-precision extensions for 11.1"),
    },
    FeatureText {
        description: "Shader extensions for 11.1",
        dxc_name: Some("Shader extensions for 11.1"),
        fxc_note: Some("Shader extensions for 11.1"),
    },
    FeatureText {
        description: "Comparison filtering for feature level 9",
        dxc_name: Some("Comparison filtering for feature level 9"),
        fxc_note: Some("Comparison filtering for feature level 9"),
    },
    FeatureText {
        description: "Tiled resources",
        dxc_name: Some("Tiled resources"),
        fxc_note: Some("Tiled resources"),
    },
    FeatureText {
        description: "PS Output Stencil Ref",
        dxc_name: Some("PS Output Stencil Ref"),
        fxc_note: Some("PS Output Stencil Ref"),
    },
    FeatureText {
        description: "PS Inner Coverage",
        dxc_name: Some("PS Inner Coverage"),
        fxc_note: Some("PS Inner Coverage"),
    },
    FeatureText {
        description: "Typed UAV Load Additional Formats",
        dxc_name: Some("Typed UAV Load Additional Formats"),
        fxc_note: Some("Typed UAV Load Additional Formats"),
    },
    FeatureText {
        description: "Raster Ordered UAVs",
        dxc_name: Some("Raster Ordered UAVs"),
        fxc_note: Some("Raster Ordered UAVs"),
    },
    FeatureText {
        description:
            "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer",
        dxc_name: Some(
            "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer",
        ),
        fxc_note: Some(
            "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer",
        ),
    },
    FeatureText {
        description: "Wave level operations",
        dxc_name: Some("Wave level operations"),
        fxc_note: None,
    },
    FeatureText {
        description: "64-Bit integer",
        dxc_name: Some("64-Bit integer"),
        fxc_note: None,
    },
    FeatureText {
        description: "View Instancing",
        dxc_name: Some("View Instancing"),
        fxc_note: None,
    },
    FeatureText {
        description: "Barycentrics",
        dxc_name: Some("Barycentrics"),
        fxc_note: None,
    },
    FeatureText {
        description: "Native low-precision data types",
        dxc_name: Some("Use native low precision"),
        fxc_note: None,
    },
    FeatureText {
        description: "Shading Rate",
        dxc_name: Some("Shading Rate"),
        fxc_note: None,
    },
    FeatureText {
        description: "Raytracing tier 1.1 features",
        dxc_name: Some("Raytracing tier 1.1 features"),
        fxc_note: None,
    },
    FeatureText {
        description: "Sampler feedback",
        dxc_name: Some("Sampler feedback"),
        fxc_note: None,
    },
    FeatureText {
        description: "64-bit Atomics on Typed Resources",
        dxc_name: Some("64-bit Atomics on Typed Resources"),
        fxc_note: None,
    },
    FeatureText {
        description: "64-bit Atomics on Group Shared",
        dxc_name: Some("64-bit Atomics on Group Shared"),
        fxc_note: None,
    },
    FeatureText {
        description: "Derivatives in mesh and amplification shaders",
        dxc_name: Some("Derivatives in mesh and amplification shaders"),
        fxc_note: None,
    },
    FeatureText {
        description: "Resource descriptor heap indexing",
        dxc_name: Some("Resource descriptor heap indexing"),
        fxc_note: None,
    },
    FeatureText {
        description: "Sampler descriptor heap indexing",
        dxc_name: Some("Sampler descriptor heap indexing"),
        fxc_note: None,
    },
    FeatureText {
        description: "<RESERVED>",
        dxc_name: Some("Wave Matrix"),
        fxc_note: None,
    },
    FeatureText {
        description: "64-bit Atomics on Heap Resources",
        dxc_name: Some("64-bit Atomics on Heap Resources"),
        fxc_note: None,
    },
    FeatureText {
        description: "Advanced Texture Ops",
        dxc_name: Some("Advanced Texture Ops"),
        fxc_note: None,
    },
    FeatureText {
        description: "Writeable MSAA Textures",
        dxc_name: Some("Writeable MSAA Textures"),
        fxc_note: None,
    },
    FeatureText {
        description: "SampleCmp with gradient or bias",
        dxc_name: Some("SampleCmp with gradient or bias"),
        fxc_note: None,
    },
    FeatureText {
        description: "Extended command information",
        dxc_name: Some("Extended command info"),
        fxc_note: None,
    },
    FeatureText {
        description: "Next reserved shader flag bit (not a flag)",
        dxc_name: None,
        fxc_note: None,
    },
];

impl FeatureFlags {
    /// The description of each set named bit, in bit order.
    pub fn descriptions(self) -> Vec<&'static str> {
        FEATURE_TEXTS
            .iter()
            .enumerate()
            .filter(|(bit, _)| self.0 & (1u64 << bit) != 0)
            .map(|(_, text)| text.description)
            .collect()
    }
}

crate::record::record! {
    /// The stored SFI0 record: one flag word.
    pub struct Sfi0Record: "SFI0" {
        /// The feature flags.
        0 flags: FeatureFlags => "SFI0 flags";
    }
}

/// A decoded SFI0 part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Sfi0 {
    /// The feature flags.
    pub flags: FeatureFlags,
    /// Bytes after the 8-byte flag word (0 for every known producer).
    pub trailing_bytes: u32,
}

impl Sfi0 {
    /// Decodes SFI0 part data located at absolute offset `base`.
    pub fn parse_data(data: &[u8], base: u64) -> Result<Sfi0> {
        let Sfi0Record { flags } = Sfi0Record::read(&Cursor::new(data, base), 0)?;
        Ok(Sfi0 {
            flags,
            trailing_bytes: (data.len() as u64 - Sfi0Record::SIZE) as u32,
        })
    }

    /// Encodes the part data: the flag word, then `trailing_bytes` zero bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Sfi0Record { flags: self.flags }.to_bytes();
        out.resize(out.len() + self.trailing_bytes as usize, 0);
        out
    }

    /// Decodes an SFI0 part.
    pub fn parse(part: &Part<'_>) -> Result<Sfi0> {
        Sfi0::parse_data(part.data, part.data_offset()).map_err(|e| e.in_part(part.part_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    #[test]
    fn every_bit_has_a_name_and_description() {
        // The named bits are the low ones, each once, in bit order, and
        // every one of them has a name and a description.
        let count = FeatureFlags::KNOWN.len();
        assert!(count > 0 && count < 64);
        for (bit, (value, _)) in FeatureFlags::KNOWN.iter().enumerate() {
            assert_eq!(*value, 1u64 << bit);
        }
        let all = FeatureFlags((1u64 << count) - 1);
        assert_eq!(all.names().len(), count);
        assert_eq!(all.descriptions().len(), count);
        assert_eq!(all.unknown_bits(), 0);
        assert_eq!(FeatureFlags(1 << count).unknown_bits(), 1 << count);
    }

    #[test]
    fn decodes() {
        // (bytes, flags, names, unknown bits, trailing)
        type Row<'a> = (&'a [u8], u64, &'a [&'a str], u64, u32);
        let rows: &[Row] = &[
            (&[0; 8], 0, &[], 0, 0),
            (
                &[0x01, 0xc0, 0, 0, 0x01, 0, 0, 0],
                0x1_0000_c001,
                &["Doubles", "WaveOps", "Int64Ops", "ExtendedCommandInfo"],
                0,
                0,
            ),
            (&[0, 0, 0, 0, 0, 0, 0, 0x80, 0xaa], 1 << 63, &[], 1 << 63, 1),
            (&[0, 0, 0, 0, 0x04, 0, 0, 0], 1 << 34, &[], 1 << 34, 0),
        ];
        for (bytes, flags, names, unknown, trailing) in rows {
            let sfi = Sfi0::parse_data(bytes, 0).unwrap();
            assert_eq!(sfi.flags.bits(), *flags);
            assert_eq!(sfi.flags.names(), *names);
            assert_eq!(sfi.flags.unknown_bits(), *unknown);
            assert_eq!(sfi.trailing_bytes, *trailing);
        }
        assert!(FeatureFlags(0x4000).contains(FeatureFlags::WAVE_OPS));
        assert_eq!(
            FeatureFlags(0x4001).descriptions()[1],
            "Wave level operations"
        );
        assert_eq!(
            FeatureFlags(0x4001 | (1 << 40)).to_string(),
            "Doubles | WaveOps | 0x10000000000"
        );
        assert_eq!(FeatureFlags(0).to_string(), "0");
    }

    #[test]
    fn short_part_is_truncated_error() {
        let err = Sfi0::parse_data(&[1, 2, 3], 0x30).unwrap_err();
        assert_eq!(err.offset, 0x30);
        assert!(matches!(
            err.kind,
            ReadErrorKind::Truncated { needed: 8, .. }
        ));
    }
}
