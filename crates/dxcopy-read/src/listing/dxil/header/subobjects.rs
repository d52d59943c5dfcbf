//! `; Subobjects:` of a library, from the RDAT subobject table
//! (docs/format/dxil-listing-header.md §10; dxc's `PrintSubobjects` in
//! `dxcdisassembler.cpp`, `LoadSubobjectsFromRDAT`).

use std::fmt::Write;

use super::parts::c_string;
use crate::listing::dxil::release::{DxcRelease, ListingRule};
use crate::rdat::{RdatSubobject, SubobjectDetail};

/// The subobjects section (nothing when there are none). Records of kinds
/// DXIL does not define are skipped, and a name seen before keeps its
/// first record, as dxc's name-keyed map does.
pub fn write_subobjects(subobjects: &[RdatSubobject<'_>], release: &DxcRelease, out: &mut String) {
    let mut shown: Vec<&RdatSubobject<'_>> = Vec::new();
    for subobject in subobjects {
        if matches!(subobject.detail, SubobjectDetail::Unknown) {
            continue;
        }
        if shown.iter().any(|s| s.name == subobject.name) {
            continue;
        }
        shown.push(subobject);
    }
    if shown.is_empty() {
        return;
    }
    out.push_str(";\n; Subobjects:\n;\n");
    for subobject in shown {
        let kind = subobject.kind.known_name().unwrap_or("<invalid kind>");
        let _ = write!(out, ";  {kind} {} = {{ ", c_string(subobject.name));
        match &subobject.detail {
            SubobjectDetail::StateObjectConfig { flags } => {
                write_flags(*flags, state_object_flag, out);
            }
            SubobjectDetail::RootSignature { size, .. } => {
                let _ = write!(out, "<{size} bytes>");
            }
            SubobjectDetail::SubobjectToExportsAssociation { subobject, exports } => {
                let _ = write!(out, "\"{}\", {{ ", c_string(subobject));
                for (index, export) in exports.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "\"{}\"", c_string(export));
                }
                out.push_str(" } ");
            }
            SubobjectDetail::RaytracingShaderConfig {
                max_payload_size,
                max_attribute_size,
            } => {
                let _ = write!(
                    out,
                    "MaxPayloadSizeInBytes = {max_payload_size}, MaxAttributeSizeInBytes = {max_attribute_size}"
                );
            }
            SubobjectDetail::RaytracingPipelineConfig {
                max_trace_recursion_depth,
            } => {
                let _ = write!(out, "MaxTraceRecursionDepth = {max_trace_recursion_depth}");
            }
            SubobjectDetail::HitGroup {
                hit_group_type,
                any_hit,
                closest_hit,
                intersection,
            } => {
                let kind = match hit_group_type {
                    0 => "Triangle",
                    1 => "ProceduralPrimitive",
                    _ => "<invalid HitGroupType>",
                };
                let _ = write!(
                    out,
                    "HitGroupType = {kind}, Anyhit = \"{}\", Closesthit = \"{}\", Intersection = \"{}\"",
                    c_string(any_hit),
                    c_string(closest_hit),
                    c_string(intersection)
                );
            }
            SubobjectDetail::RaytracingPipelineConfig1 {
                max_trace_recursion_depth,
                flags,
            } => {
                let _ = write!(
                    out,
                    "MaxTraceRecursionDepth = {max_trace_recursion_depth}, Flags = "
                );
                let micromaps = release.has(ListingRule::OpacityMicromapsFlagName);
                write_flags(*flags, |flag| pipeline_flag(flag, micromaps), out);
            }
            SubobjectDetail::Unknown => {}
        }
        out.push_str(" };\n");
    }
    out.push_str(";\n");
}

/// `0`, or each set bit's name, lowest first, joined by ` | `.
fn write_flags(flags: u32, name: impl Fn(u32) -> &'static str, out: &mut String) {
    if flags == 0 {
        out.push('0');
        return;
    }
    let mut rest = flags;
    let mut first = true;
    while rest != 0 {
        let flag = rest & rest.wrapping_neg();
        rest ^= flag;
        if !first {
            out.push_str(" | ");
        }
        first = false;
        out.push_str(name(flag));
    }
}

fn state_object_flag(flag: u32) -> &'static str {
    match flag {
        1 => "STATE_OBJECT_FLAG_ALLOW_LOCAL_DEPENDENCIES_ON_EXTERNAL_DEFINITIONS",
        2 => "STATE_OBJECT_FLAG_ALLOW_EXTERNAL_DEPENDENCIES_ON_LOCAL_DEFINITIONS",
        4 => "STATE_OBJECT_FLAG_ALLOW_STATE_OBJECT_ADDITIONS",
        _ => "<invalid StateObjectFlag>",
    }
}

fn pipeline_flag(flag: u32, micromaps: bool) -> &'static str {
    match flag {
        0x100 => "RAYTRACING_PIPELINE_FLAG_SKIP_TRIANGLES",
        0x200 => "RAYTRACING_PIPELINE_FLAG_SKIP_PROCEDURAL_PRIMITIVES",
        0x400 if micromaps => "RAYTRACING_PIPELINE_FLAG_ALLOW_OPACITY_MICROMAPS",
        _ => "<invalid RaytracingPipelineFlags>",
    }
}
