//! The derived parts of a container checked against its module: each part
//! dxc derives must be present with the bytes dxc would write (its
//! validator rebuilds SFI0 and the signatures and compares them byte for
//! byte, and checks PSV0 field by field). A difference is reported as the
//! first field that disagrees, decoded from both sides.

use super::{derive_parts_with, psv::psv_version, validator_version, DeriveError, DERIVED_NAMES};
use crate::container::Container;
use crate::dxil::metadata::DxilMetadata;
use crate::dxil::model::Module;
use crate::name::PartName;
use crate::psv0::Psv0;
use crate::signature::{Signature, SignatureFormat};
use crate::ShaderKind;
use std::fmt;

/// A derived part that is missing, extra, or differs from what the module
/// gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartMismatch {
    /// The part.
    pub part: PartName,
    /// What disagrees, in words (`shader stage Vertex, the module's entry
    /// point is Compute`).
    pub detail: String,
}

impl fmt::Display for PartMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.part, self.detail)
    }
}

/// Compares the derived parts of `container` with those `module` (its DXIL
/// module) gives; one [`PartMismatch`] per part that disagrees, in dxc's
/// part order.
///
/// Errors: the module's metadata cannot give the parts.
pub fn check_parts(
    container: &Container<'_>,
    module: &Module,
) -> Result<Vec<PartMismatch>, DeriveError> {
    let metadata = DxilMetadata::read(module)?;
    let derived = derive_parts_with(module, &metadata)?;
    let kind = metadata.shader_kind().unwrap_or(ShaderKind::Library);
    let mut out = Vec::new();
    for name in DERIVED_NAMES {
        let ours = derived.iter().find(|p| p.name == name);
        let theirs = container.find(name);
        let detail = match (theirs, ours) {
            (None, None) => continue,
            (None, Some(_)) => "missing, the module needs one".to_string(),
            (Some(_), None) => match name {
                PartName::PSG1 => {
                    "present, the module has no patch constant or primitive signature".to_string()
                }
                _ => format!("present, a {} module has none", kind_name(kind)),
            },
            (Some(part), Some(ours)) => {
                if part.data == ours.data.as_slice() {
                    continue;
                }
                describe(name, part.data, &ours.data, kind, &metadata)
            }
        };
        out.push(PartMismatch { part: name, detail });
    }
    // The flags the module records against those its usage needs, as dxc's
    // validator compares them; a usage not derived here is not checked.
    if let Ok(usage) = super::feature_info::feature_usage(module, &metadata) {
        if usage.recorded != usage.needed {
            out.push(PartMismatch {
                part: PartName::SFI0,
                detail: usage_detail(usage.recorded, usage.needed),
            });
        }
    }
    // A library's RDAT, where it is derived from the module (see derive_rdat).
    if kind == ShaderKind::Library {
        let theirs = container.find(PartName::RDAT);
        if let Ok(ours) = super::derive_rdat(module, &metadata, theirs.map(|p| p.data)) {
            let detail = match theirs {
                None => Some("missing, the module needs one".to_string()),
                Some(part) if part.data == ours.data.as_slice() => None,
                Some(part) => Some(first_byte_difference(part.data, &ours.data)),
            };
            if let Some(detail) = detail {
                out.push(PartMismatch {
                    part: PartName::RDAT,
                    detail,
                });
            }
        }
    }
    Ok(out)
}

/// The flags recorded but not used, and used but not recorded, named.
fn usage_detail(recorded: u64, needed: u64) -> String {
    let names = |bits: u64| crate::sfi0::FeatureFlags(bits).names().join(", ");
    let mut sides = Vec::new();
    if recorded & !needed != 0 {
        sides.push(format!(
            "recorded but not used: {}",
            names(recorded & !needed)
        ));
    }
    if needed & !recorded != 0 {
        sides.push(format!(
            "used but not recorded: {}",
            names(needed & !recorded)
        ));
    }
    format!(
        "the module's shader flags do not match its usage (dxc's validator: \"Flags must match usage\"): {}",
        sides.join("; ")
    )
}

fn kind_name(kind: ShaderKind) -> String {
    kind.known_name()
        .map_or_else(|| format!("kind {}", kind.raw()), str::to_string)
}

/// The first field of part `name` where `found` (the container's bytes)
/// and `derived` (the module's) disagree.
fn describe(
    name: PartName,
    found: &[u8],
    derived: &[u8],
    kind: ShaderKind,
    metadata: &DxilMetadata,
) -> String {
    let field = match name {
        PartName::SFI0 => describe_feature_info(found, derived),
        PartName::PSV0 => describe_psv(found, derived, kind, metadata),
        _ => SignatureFormat::for_part(name).and_then(|f| describe_signature(found, derived, f)),
    };
    field.unwrap_or_else(|| first_byte_difference(found, derived))
}

fn first_byte_difference(found: &[u8], derived: &[u8]) -> String {
    match found.iter().zip(derived).position(|(a, b)| a != b) {
        Some(at) => format!(
            "byte {at:#x} is {:#04x}, the module gives {:#04x}",
            found[at], derived[at]
        ),
        None => format!(
            "{} bytes, the module gives {} bytes",
            found.len(),
            derived.len()
        ),
    }
}

/// `what A, the module gives B` when the two differ.
fn differ<T: PartialEq + fmt::Debug>(what: &str, found: T, derived: T) -> Option<String> {
    (found != derived).then(|| format!("{what} {found:?}, the module gives {derived:?}"))
}

fn describe_feature_info(found: &[u8], derived: &[u8]) -> Option<String> {
    let value = |data: &[u8]| {
        crate::sfi0::Sfi0::parse_data(data, 0)
            .ok()
            .map(|s| s.flags.bits())
    };
    let (found, derived) = (value(found)?, value(derived)?);
    (found != derived)
        .then(|| format!("feature flags {found:#x}, the module's shader flags give {derived:#x}"))
}

fn describe_signature(found: &[u8], derived: &[u8], format: SignatureFormat) -> Option<String> {
    let found = Signature::parse_data(found, 0, format).ok()?;
    let derived = Signature::parse_data(derived, 0, format).ok()?;
    if found.elements.len() != derived.elements.len() {
        return Some(format!(
            "{}, the module's signature has {}",
            elements(found.elements.len()),
            derived.elements.len()
        ));
    }
    for (i, (a, b)) in found.elements.iter().zip(&derived.elements).enumerate() {
        let label = format!("element {i} ({}{})", a.name_lossy(), a.semantic_index);
        let checks = [
            differ("semantic name", a.name_lossy(), b.name_lossy()),
            differ("semantic index", a.semantic_index, b.semantic_index),
            differ("system value", a.system_value, b.system_value),
            differ("component type", a.component_type, b.component_type),
            differ("register", a.register, b.register),
            differ("mask", a.mask, b.mask),
            differ("read/write mask", a.rw_mask, b.rw_mask),
            differ("minimum precision", a.min_precision, b.min_precision),
            differ("stream", a.stream, b.stream),
            differ("name offset", a.name_offset, b.name_offset),
        ];
        if let Some(detail) = checks.into_iter().flatten().next() {
            return Some(format!("{label} {detail}"));
        }
    }
    None
}

/// `1 element`, `3 elements`.
fn elements(count: usize) -> String {
    format!("{count} element{}", if count == 1 { "" } else { "s" })
}

fn stage_name(raw: Option<u8>) -> String {
    match raw {
        Some(raw) => kind_name(ShaderKind::from_raw(u16::from(raw))),
        None => "(none: version 0)".to_string(),
    }
}

fn describe_psv(
    found: &[u8],
    derived: &[u8],
    kind: ShaderKind,
    metadata: &DxilMetadata,
) -> Option<String> {
    let a = Psv0::parse_data(found, 0, Some(kind)).ok()?;
    let b = Psv0::parse_data(derived, 0, Some(kind)).ok()?;
    let (ra, rb) = (&a.runtime_info, &b.runtime_info);
    if let (Some(sa), Some(sb)) = (ra.shader_stage, rb.shader_stage) {
        if sa != sb {
            return Some(format!(
                "shader stage {}, the module's entry point is {}",
                stage_name(Some(sa)),
                stage_name(Some(sb))
            ));
        }
    }
    if a.version != b.version || a.runtime_info_size != b.runtime_info_size {
        let (major, minor) = metadata.validator_version.unwrap_or((1, 0));
        return Some(format!(
            "version {} ({}-byte runtime information), the module's validator version {major}.{minor} gives version {} ({} bytes)",
            a.version,
            a.runtime_info_size,
            psv_version(validator_version(metadata)),
            b.runtime_info_size
        ));
    }
    let entry = |p: &Psv0<'_>| {
        p.entry_name
            .map(|n| String::from_utf8_lossy(n).into_owned())
    };
    let checks = [
        differ("entry point name", entry(&a), entry(&b)),
        differ("stage information", ra.stage_info, rb.stage_info),
        differ(
            "minimum wave lane count",
            ra.minimum_wave_lane_count,
            rb.minimum_wave_lane_count,
        ),
        differ(
            "maximum wave lane count",
            ra.maximum_wave_lane_count,
            rb.maximum_wave_lane_count,
        ),
        differ("uses view ID", ra.uses_view_id, rb.uses_view_id),
        differ(
            "stage data at offset 26",
            ra.geometry_data,
            rb.geometry_data,
        ),
        differ(
            "input elements",
            ra.sig_input_elements,
            rb.sig_input_elements,
        ),
        differ(
            "output elements",
            ra.sig_output_elements,
            rb.sig_output_elements,
        ),
        differ(
            "patch constant or primitive elements",
            ra.sig_patch_or_prim_elements,
            rb.sig_patch_or_prim_elements,
        ),
        differ("input vectors", ra.sig_input_vectors, rb.sig_input_vectors),
        differ(
            "output vectors",
            ra.sig_output_vectors,
            rb.sig_output_vectors,
        ),
        differ("thread group size", ra.num_threads, rb.num_threads),
        differ(
            "group shared bytes",
            ra.num_bytes_group_shared_memory,
            rb.num_bytes_group_shared_memory,
        ),
        differ("resource count", a.resources.len(), b.resources.len()),
    ];
    if let Some(detail) = checks.into_iter().flatten().next() {
        return Some(detail);
    }
    for (i, (x, y)) in a.resources.iter().zip(&b.resources).enumerate() {
        if let Some(detail) = differ(&format!("resource {i}"), x, y) {
            return Some(detail);
        }
    }
    let elements_a: Vec<_> = a.elements().collect();
    let elements_b: Vec<_> = b.elements().collect();
    for (i, (x, y)) in elements_a.iter().zip(&elements_b).enumerate() {
        let label = format!("signature element {i} ({})", x.name_lossy());
        let checks = [
            differ("semantic name", x.name_lossy(), y.name_lossy()),
            differ("semantic indices", &x.indices, &y.indices),
            differ("rows", x.rows, y.rows),
            differ("start row", x.start_row, y.start_row),
            differ("columns", x.cols, y.cols),
            differ("start column", x.start_col, y.start_col),
            differ("allocated", x.allocated, y.allocated),
            differ("semantic kind", x.kind, y.kind),
            differ("component type", x.component_type, y.component_type),
            differ("interpolation", x.interpolation, y.interpolation),
            differ("dynamic index mask", x.dynamic_mask, y.dynamic_mask),
            differ("stream", x.stream, y.stream),
        ];
        if let Some(detail) = checks.into_iter().flatten().next() {
            return Some(format!("{label} {detail}"));
        }
    }
    let checks = [
        differ("string table", a.string_table, b.string_table),
        differ(
            "semantic index table",
            &a.semantic_index_table,
            &b.semantic_index_table,
        ),
        differ(
            "ViewID output masks",
            &a.output_vector_masks,
            &b.output_vector_masks,
        ),
        differ(
            "ViewID patch constant mask",
            &a.patch_or_prim_masks,
            &b.patch_or_prim_masks,
        ),
        differ(
            "input-to-output tables",
            &a.input_output_maps,
            &b.input_output_maps,
        ),
        differ(
            "input-to-patch-constant table",
            &a.input_patch_map,
            &b.input_patch_map,
        ),
        differ(
            "patch-constant-to-output table",
            &a.patch_output_map,
            &b.patch_output_map,
        ),
    ];
    checks.into_iter().flatten().next()
}
