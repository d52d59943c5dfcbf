//! The header sections dxc prints from container parts alone: the SFI0
//! feature notes, the ISG1 / OSG1 / PSG1 signature tables, the debug name
//! and the shader hash (docs/format/dxil-listing-header.md §1–§4; dxc's
//! `dxcdisassembler.cpp`: `PrintFeatureInfo`, `PrintSignature`).

use std::fmt::Write;

use super::text::{ljust, rjust};
use crate::debug_name::DebugName;
use crate::hash::{ShaderHash, FLAG_INCLUDES_SOURCE};
use crate::listing::dxil::release::{DxcRelease, ListingRule};
use crate::sfi0::FEATURE_TEXTS;
use crate::signature::{ComponentType, Signature, SignatureElement, SystemValue};

/// dxc's names of the optional feature bits (bit 40 on,
/// `g_pOptFeatureInfoNames`).
pub const OPTIONAL_FEATURE_NAMES: [&str; 2] = [
    "Function uses derivatives",
    "Function requires visible group",
];

/// First optional feature bit (`OptFeatureInfoShift`).
pub const OPTIONAL_FEATURE_SHIFT: u32 = 40;

/// The name `release` prints for feature bit `bit`; `None` for a bit it has
/// no name for (and does not print).
pub fn feature_name(release: &DxcRelease, bit: u32) -> Option<&'static str> {
    let known = if release.has(ListingRule::FeatureNamesDxil18) {
        33
    } else if release.has(ListingRule::FeatureNamesDxil17) {
        31
    } else if release.has(ListingRule::FeatureNamesDxil16) {
        29
    } else if release.has(ListingRule::FeatureNamesDxil15) {
        22
    } else {
        19
    };
    if bit >= known {
        return None;
    }
    if bit == 27 && !release.has(ListingRule::FeatureWaveMatrixName) {
        return Some("<RESERVED>");
    }
    FEATURE_TEXTS.get(usize::try_from(bit).ok()?)?.dxc_name
}

/// `; Note: shader requires additional functionality:` and the names of
/// the SFI0 bits that are set (nothing when no bit is).
pub fn write_feature_info(flags: u64, release: &DxcRelease, out: &mut String) {
    if flags == 0 {
        return;
    }
    out.push_str(";\n; Note: shader requires additional functionality:\n");
    for bit in 0..64 {
        if flags & (1u64 << bit) != 0 {
            if let Some(name) = feature_name(release, bit) {
                let _ = writeln!(out, ";       {name}");
            }
        }
    }
    out.push_str(";\n");
    if !release.has(ListingRule::OptionalFeatureNotes) {
        return;
    }
    let optional = flags >> OPTIONAL_FEATURE_SHIFT;
    if optional == 0 {
        return;
    }
    out.push_str("; Note: shader has optional feature flags set:\n");
    for (bit, name) in OPTIONAL_FEATURE_NAMES.iter().enumerate() {
        if optional & (1u64 << bit) != 0 {
            let _ = writeln!(out, ";       {name}");
        }
    }
    out.push_str(";\n");
}

/// Which signature part a table shows (its title; inputs print their
/// read mask, outputs and patch constants the complement of theirs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureKind {
    /// ISG1.
    Input,
    /// OSG1.
    Output,
    /// PSG1.
    PatchConstant,
}

/// The table dxc prints for a signature part (`; Input signature:` …).
pub fn write_signature(
    kind: SignatureKind,
    signature: &Signature<'_>,
    release: &DxcRelease,
    out: &mut String,
) {
    let title = match kind {
        SignatureKind::Input => "Input",
        SignatureKind::Output => "Output",
        SignatureKind::PatchConstant if release.has(ListingRule::PartPatchConstantTitle) => {
            "Patch Constant"
        }
        SignatureKind::PatchConstant => "Patch Constant signature",
    };
    let _ = write!(
        out,
        ";\n; {title} signature:\n;\n\
         ; Name                 Index   Mask Register SysValue  Format   Used\n\
         ; -------------------- ----- ------ -------- -------- ------- ------\n"
    );
    if signature.elements.is_empty() {
        out.push_str("; no parameters\n");
        return;
    }
    let has_streams = signature
        .elements
        .iter()
        .any(|element| element.stream.unwrap_or(0) != 0);
    for element in &signature.elements {
        write_signature_element(element, kind == SignatureKind::Input, has_streams, out);
    }
    out.push_str(";\n");
}

fn write_signature_element(
    element: &SignatureElement<'_>,
    is_input: bool,
    has_streams: bool,
    out: &mut String,
) {
    let name = c_string(element.name);
    out.push_str("; ");
    if has_streams {
        let _ = write!(out, "m{}:", element.stream.unwrap_or(0));
        ljust(out, &name, 17);
    } else {
        ljust(out, &name, 20);
    }
    let _ = write!(out, " {:5}", element.semantic_index);
    if element.register == u32::MAX {
        out.push_str("    N/A");
        let special = match name.to_ascii_lowercase().as_str() {
            "sv_depth" => "   oDepth",
            "sv_depthgreaterequal" => " oDepthGE",
            "sv_depthlessequal" => " oDepthLE",
            "sv_coverage" => "    oMask",
            "sv_stencilref" => "    oStencilRef",
            _ if element.system_value == SystemValue::PrimitiveId => "   primID",
            _ => "  special",
        };
        out.push_str(special);
    } else {
        out.push_str("   ");
        push_mask(out, element.mask);
        let _ = write!(out, " {:8}", element.register);
    }
    rjust(out, system_value_name(element.system_value), 9);
    rjust(out, component_type_name(element.component_type), 8);
    let rw_mask = if is_input {
        element.rw_mask
    } else {
        !element.rw_mask
    };
    if element.register == u32::MAX {
        out.push_str(if rw_mask != 0 { "    YES" } else { "     NO" });
    } else {
        out.push_str("   ");
        push_mask(out, rw_mask);
    }
    out.push('\n');
}

/// `xyzw` with a space for each clear bit of the low four.
pub(crate) fn push_mask(out: &mut String, mask: u8) {
    for (bit, letter) in ['x', 'y', 'z', 'w'].into_iter().enumerate() {
        out.push(if mask & (1 << bit) != 0 { letter } else { ' ' });
    }
}

/// dxc's short name of a signature system value (`POS`, `TARGET`, …;
/// `NONE` for arbitrary semantics and values it does not name).
pub fn system_value_name(value: SystemValue) -> &'static str {
    match value {
        SystemValue::ClipDistance => "CLIPDST",
        SystemValue::CullDistance => "CULLDST",
        SystemValue::Position => "POS",
        SystemValue::RenderTargetArrayIndex => "RTINDEX",
        SystemValue::ViewPortArrayIndex => "VPINDEX",
        SystemValue::VertexId => "VERTID",
        SystemValue::PrimitiveId => "PRIMID",
        SystemValue::InstanceId => "INSTID",
        SystemValue::IsFrontFace => "FFACE",
        SystemValue::SampleIndex => "SAMPLE",
        SystemValue::Target => "TARGET",
        SystemValue::Depth => "DEPTH",
        SystemValue::DepthGreaterEqual => "DEPTHGE",
        SystemValue::DepthLessEqual => "DEPTHLE",
        SystemValue::Coverage => "COVERAGE",
        SystemValue::InnerCoverage => "INNERCOV",
        SystemValue::StencilRef => "STENCILREF",
        SystemValue::FinalQuadEdgeTessfactor => "QUADEDGE",
        SystemValue::FinalQuadInsideTessfactor => "QUADINT",
        SystemValue::FinalTriEdgeTessfactor => "TRIEDGE",
        SystemValue::FinalTriInsideTessfactor => "TRIINT",
        SystemValue::FinalLineDetailTessfactor => "LINEDET",
        SystemValue::FinalLineDensityTessfactor => "LINEDEN",
        SystemValue::Barycentrics => "BARYCEN",
        SystemValue::ShadingRate => "SHDINGRATE",
        SystemValue::CullPrimitive => "CULLPRIM",
        _ => "NONE",
    }
}

/// dxc's name of a signature component type (`float`, `uint`, `fp16`, …;
/// `unknown` otherwise).
pub fn component_type_name(value: ComponentType) -> &'static str {
    match value {
        ComponentType::Float32 => "float",
        ComponentType::SInt32 => "int",
        ComponentType::UInt32 => "uint",
        ComponentType::UInt16 => "uint16",
        ComponentType::SInt16 => "int16",
        ComponentType::Float16 => "fp16",
        ComponentType::UInt64 => "uint64",
        ComponentType::SInt64 => "int64",
        ComponentType::Float64 => "double",
        _ => "unknown",
    }
}

/// `; shader debug name: NAME` (nothing for an empty name; dxc's
/// corruption note when the part does not decode).
pub fn write_debug_name(name: Result<&DebugName<'_>, ()>, out: &mut String) {
    match name {
        Err(()) => out.push_str("; shader debug name present; corruption detected\n"),
        Ok(name) => {
            let text = c_string(name.name);
            if !text.is_empty() {
                let _ = writeln!(out, "; shader debug name: {text}");
            }
        }
    }
}

/// `; shader hash: <32 hex digits>[ (includes source)]`.
pub fn write_hash(hash: &ShaderHash, out: &mut String) {
    out.push_str("; shader hash: ");
    for byte in hash.digest {
        let _ = write!(out, "{byte:02x}");
    }
    if hash.flags & FLAG_INCLUDES_SOURCE != 0 {
        out.push_str(" (includes source)");
    }
    out.push('\n');
}

/// Bytes up to the first NUL, as text (invalid UTF-8 replaced).
pub(crate) fn c_string(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}
