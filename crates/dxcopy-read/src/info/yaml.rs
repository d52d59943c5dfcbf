//! The obj2yaml view: the `--- !dxcontainer` document that LLVM's `obj2yaml`
//! prints for a container (docs/format/obj2yaml.md).
//!
//! For every file that `obj2yaml` from LLVM 22.1.8 accepts, [`to_obj2yaml`]
//! returns the same bytes (checked against the shared corpus by
//! `tests/conformance.rs`). Part data is decoded with the `dxcopy-read`
//! decoders in their LLVM-compatible modes, so LLVM's reading quirks (the
//! PSV0 string table aligned in file offsets, descriptor ranges read right
//! after the table header, truncated arrays cut short) are reproduced.
//!
//! Where obj2yaml 22 rejects a file, this view still prints when it can, and
//! differs from obj2yaml only in that obj2yaml printed nothing:
//!
//! * PSV0 without a DXIL part: version 1–3 records are printed with their own
//!   `ShaderStage`; a version-0 record has no stage and is an error
//!   ([`YamlError::PsvWithoutProgram`]).
//! * PSV0 that LLVM misreads (a part at a file offset that is not a multiple of
//!   4, as older dxc wrote them): the strict decoding is printed.
//! * RTS0 1.2 with root CBV/SRV/UAV descriptors (LLVM: "Invalid Root Signature
//!   version: 3"), or laid out so that LLVM's bounds rule rejects it: the strict
//!   decoding is printed, descriptors with their flags as for 1.1.
//! * Signature names stored before the element array, duplicate DXIL, SFI0,
//!   HASH, PSV0 or RTS0 parts: printed (each part its own content; the shader
//!   kind comes from the first DXIL part).
//!
//! Values that have no name in LLVM's enumerations make obj2yaml print the key
//! and nothing else (its "bad runtime enum value" path in a release build); the
//! same output is reproduced.
//!
//! With [`YamlOptions::upstream_keys`] the parts LLVM 22 shows as `Name`/`Size`
//! only but upstream LLVM decodes (ILDB, ILDN, VERS, SRCI, PRIV) get the keys
//! upstream's tests show (`Program`, `DebugName`, `CompilerVersion`,
//! `SourceInfo`, `PrivateData`), and PSV0 may take its shader kind from ILDB.
//! There is no upstream binary to compare against, so that output follows the
//! upstream test expectations (docs/format/obj2yaml.md §2) rather than a byte-checked oracle.

use crate::error::PartRef;
use crate::psv0::{Psv0, PsvElement, StageInfo};
use crate::rts0::{ParameterPayload, RootSignature};
use crate::sfi0::FeatureFlags;
use crate::signature::{Signature, SignatureFormat};
use crate::{Container, Part, PartName, Program, ReadError, ShaderKind};
use std::fmt;

/// Options of the obj2yaml view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct YamlOptions {
    /// Print the keys upstream LLVM (main) prints for ILDB, ILDN, VERS, SRCI and
    /// PRIV instead of `Name`/`Size` only (what LLVM 22.1.8 prints).
    pub upstream_keys: bool,
}

/// Why the YAML view could not be produced.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum YamlError {
    /// A part whose content the view prints could not be decoded.
    Decode(ReadError),
    /// A version-0 PSV0 record has no shader stage of its own and the container
    /// has no DXIL part (nor ILDB with `upstream_keys`) to take it from. obj2yaml
    /// 22 rejects every PSV0 without DXIL ("Cannot fully parse pipeline state
    /// validation information without DXIL part."); upstream also accepts ILDB.
    PsvWithoutProgram {
        /// The PSV0 part.
        part: PartRef,
    },
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            YamlError::Decode(e) => write!(f, "{e}"),
            YamlError::PsvWithoutProgram { part } => write!(
                f,
                "part {} 'PSV0' at offset {:#x}: a version-0 PSV0 needs the shader kind of a DXIL \
                 part, and there is none (obj2yaml 22 rejects any PSV0 without DXIL; upstream \
                 LLVM also accepts ILDB, which the upstream-keys option enables)",
                part.index, part.offset
            ),
        }
    }
}

impl std::error::Error for YamlError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            YamlError::Decode(e) => Some(e),
            YamlError::PsvWithoutProgram { .. } => None,
        }
    }
}

impl From<ReadError> for YamlError {
    fn from(e: ReadError) -> Self {
        YamlError::Decode(e)
    }
}

/// Renders `container` as obj2yaml does (see the module documentation).
pub fn to_obj2yaml(container: &Container<'_>, opts: &YamlOptions) -> Result<String, YamlError> {
    let mut out = Emitter::new();
    let header = container.header();
    out.key(0, "Header");
    out.begin_mapping();
    out.key(2, "Hash");
    out.flow(header.digest.iter().map(|b| hex(u64::from(*b))));
    out.key(2, "Version");
    out.begin_mapping();
    out.key(4, "Major");
    out.scalar(&header.major.to_string());
    out.key(4, "Minor");
    out.scalar(&header.minor.to_string());
    out.key(2, "FileSize");
    out.scalar(&header.file_size.to_string());
    out.key(2, "PartCount");
    out.scalar(&header.part_count.to_string());
    out.key(2, "PartOffsets");
    out.flow(container.parts().map(|p| p.offset.to_string()));

    let program_kind = program_shader_kind(container, opts)?;
    // LLVM keeps one decoded signature per kind, re-initialised by every part
    // of that name, and prints the last one for each of them.
    let mut last_signature: [Option<Signature<'_>>; 3] = [None, None, None];
    for part in container.parts() {
        if let Some(slot) = signature_slot(part.name) {
            last_signature[slot] = Signature::parse(&part)?;
        }
    }

    out.key(0, "Parts");
    if container.part_count() == 0 {
        out.empty_sequence();
    }
    for part in container.parts() {
        out.item_key(4, "Name");
        out.string(part.name.as_bytes());
        out.key(4, "Size");
        out.scalar(&part.size().to_string());
        match &part.name.0 {
            b"DXIL" => program(&mut out, container, &part)?,
            b"ILDB" if opts.upstream_keys => program(&mut out, container, &part)?,
            b"SFI0" => sfi0(&mut out, &part)?,
            b"HASH" => hash(&mut out, &part)?,
            b"PSV0" => psv0(&mut out, &part, program_kind)?,
            b"RTS0" => rts0(&mut out, &part)?,
            b"ISG1" | b"OSG1" | b"PSG1" => {
                let slot = signature_slot(part.name);
                if let Some(sig) = slot.and_then(|slot| last_signature[slot].as_ref()) {
                    signature(&mut out, sig);
                }
            }
            b"ILDN" if opts.upstream_keys => upstream::debug_name(&mut out, &part)?,
            b"VERS" if opts.upstream_keys => upstream::compiler_version(&mut out, &part)?,
            b"SRCI" if opts.upstream_keys => upstream::source_info(&mut out, &part)?,
            b"PRIV" if opts.upstream_keys => {
                out.key(4, "PrivateData");
                out.flow(part.data.iter().map(|b| hex(u64::from(*b))));
            }
            _ => {}
        }
    }
    Ok(out.finish())
}

fn signature_slot(name: PartName) -> Option<usize> {
    match &name.0 {
        b"ISG1" => Some(0),
        b"OSG1" => Some(1),
        b"PSG1" => Some(2),
        _ => None,
    }
}

/// The raw shader kind of the first DXIL part (or ILDB with upstream keys).
fn program_shader_kind(
    container: &Container<'_>,
    opts: &YamlOptions,
) -> Result<Option<u16>, YamlError> {
    let kind_of = |name: PartName| -> Result<Option<u16>, YamlError> {
        match container.find(name) {
            Some(part) => Ok(Some(
                Program::parse_llvm_compat(&part, container.data())?
                    .shader_kind
                    .raw(),
            )),
            None => Ok(None),
        }
    };
    let dxil = kind_of(PartName::DXIL)?;
    if dxil.is_some() || !opts.upstream_keys {
        return Ok(dxil);
    }
    kind_of(PartName::ILDB)
}

// ---------------------------------------------------------------------------
// Parts

fn program(out: &mut Emitter, container: &Container<'_>, part: &Part<'_>) -> Result<(), YamlError> {
    let p = Program::parse_llvm_compat(part, container.data())?;
    out.key(4, "Program");
    out.begin_mapping();
    out.key(6, "MajorVersion");
    out.scalar(&p.model_major.to_string());
    out.key(6, "MinorVersion");
    out.scalar(&p.model_minor.to_string());
    out.key(6, "ShaderKind");
    out.scalar(&p.shader_kind.raw().to_string());
    out.key(6, "Size");
    out.scalar(&p.size_in_words.to_string());
    out.key(6, "DXILMajorVersion");
    out.scalar(&p.dxil_major.to_string());
    out.key(6, "DXILMinorVersion");
    out.scalar(&p.dxil_minor.to_string());
    out.key(6, "DXILSize");
    out.scalar(&p.bitcode_size.to_string());
    out.key(6, "DXIL");
    out.flow(p.bitcode.iter().map(|b| hex(u64::from(*b))));
    Ok(())
}

fn sfi0(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
    let flags = crate::sfi0::Sfi0::parse(part)?.flags;
    if flags.bits() == 0 {
        return Ok(());
    }
    out.key(4, "Flags");
    out.begin_mapping();
    for (bit, name) in FeatureFlags::KNOWN {
        out.key(6, name);
        out.scalar(bool_text(flags.bits() & bit != 0));
    }
    Ok(())
}

fn hash(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
    let hash = crate::ShaderHash::parse(part)?;
    if hash.flags == 0 && hash.digest == [0; 16] {
        return Ok(());
    }
    out.key(4, "Hash");
    out.begin_mapping();
    out.key(6, "IncludesSource");
    out.scalar(bool_text(hash.flags & 1 != 0));
    out.key(6, "Digest");
    out.flow(hash.digest.iter().map(|b| hex(u64::from(*b))));
    Ok(())
}

fn signature(out: &mut Emitter, sig: &Signature<'_>) {
    debug_assert_eq!(sig.format, SignatureFormat::Dxil);
    out.key(4, "Signature");
    out.begin_mapping();
    out.key(6, "Parameters");
    if sig.elements.is_empty() {
        out.empty_sequence();
    }
    for e in &sig.elements {
        out.item_key(10, "Stream");
        out.scalar(&e.stream.unwrap_or(0).to_string());
        out.key(10, "Name");
        out.string(e.name);
        out.key(10, "Index");
        out.scalar(&e.semantic_index.to_string());
        out.key(10, "SystemValue");
        out.enum_value(e.system_value.known_name());
        out.key(10, "CompType");
        out.enum_value(e.component_type.known_name());
        out.key(10, "Register");
        out.scalar(&e.register.to_string());
        out.key(10, "Mask");
        out.scalar(&e.mask.to_string());
        out.key(10, "ExclusiveMask");
        out.scalar(&e.rw_mask.to_string());
        out.key(10, "MinPrecision");
        out.enum_value(e.min_precision.and_then(|m| m.known_name()));
    }
}

fn psv0(out: &mut Emitter, part: &Part<'_>, program_kind: Option<u16>) -> Result<(), YamlError> {
    let kind = program_kind.map(ShaderKind::from_raw);
    let psv = match Psv0::parse_llvm_compat(part, kind) {
        Ok(psv) => psv,
        Err(compat_error) => Psv0::parse(part, kind).map_err(|_| compat_error)?,
    };
    // The stage that selects the printed keys: the program's kind for a
    // version-0 record (truncated to a byte, as LLVM stores it), the record's
    // own ShaderStage byte otherwise.
    let print_stage: u8 = match psv.runtime_info.shader_stage {
        Some(stage) => stage,
        None => match program_kind {
            Some(k) => k as u8,
            None => {
                return Err(YamlError::PsvWithoutProgram {
                    part: part.part_ref(),
                })
            }
        },
    };
    let stage_kind = ShaderKind::from_raw(u16::from(print_stage));
    let ri = &psv.runtime_info;
    out.key(4, "PSVInfo");
    out.begin_mapping();
    out.key(6, "Version");
    out.scalar(&psv.version.to_string());
    out.key(6, "ShaderStage");
    out.scalar(&print_stage.to_string());
    let field = |out: &mut Emitter, name: &str, value: u64| {
        out.key(6, name);
        out.scalar(&value.to_string());
    };
    match StageInfo::decode(&ri.stage_info_raw, Some(stage_kind)) {
        StageInfo::Pixel {
            depth_output,
            sample_frequency,
        } => {
            field(out, "DepthOutput", depth_output.into());
            field(out, "SampleFrequency", sample_frequency.into());
        }
        StageInfo::Vertex {
            output_position_present,
        } => {
            field(out, "OutputPositionPresent", output_position_present.into());
        }
        StageInfo::Geometry {
            input_primitive,
            output_topology,
            output_stream_mask,
            output_position_present,
        } => {
            field(out, "InputPrimitive", input_primitive.into());
            field(out, "OutputTopology", output_topology.into());
            field(out, "OutputStreamMask", output_stream_mask.into());
            field(out, "OutputPositionPresent", output_position_present.into());
        }
        StageInfo::Hull {
            input_control_point_count,
            output_control_point_count,
            tessellator_domain,
            tessellator_output_primitive,
        } => {
            field(
                out,
                "InputControlPointCount",
                input_control_point_count.into(),
            );
            field(
                out,
                "OutputControlPointCount",
                output_control_point_count.into(),
            );
            field(out, "TessellatorDomain", tessellator_domain.into());
            field(
                out,
                "TessellatorOutputPrimitive",
                tessellator_output_primitive.into(),
            );
        }
        StageInfo::Domain {
            input_control_point_count,
            output_position_present,
            tessellator_domain,
        } => {
            field(
                out,
                "InputControlPointCount",
                input_control_point_count.into(),
            );
            field(out, "OutputPositionPresent", output_position_present.into());
            field(out, "TessellatorDomain", tessellator_domain.into());
        }
        StageInfo::Mesh {
            group_shared_bytes_used,
            group_shared_bytes_dependent_on_view_id,
            payload_size_in_bytes,
            max_output_vertices,
            max_output_primitives,
        } => {
            field(out, "GroupSharedBytesUsed", group_shared_bytes_used.into());
            field(
                out,
                "GroupSharedBytesDependentOnViewID",
                group_shared_bytes_dependent_on_view_id.into(),
            );
            field(out, "PayloadSizeInBytes", payload_size_in_bytes.into());
            field(out, "MaxOutputVertices", max_output_vertices.into());
            field(out, "MaxOutputPrimitives", max_output_primitives.into());
        }
        StageInfo::Amplification {
            payload_size_in_bytes,
        } => {
            field(out, "PayloadSizeInBytes", payload_size_in_bytes.into());
        }
        StageInfo::None | StageInfo::Unknown => {}
    }
    field(
        out,
        "MinimumWaveLaneCount",
        ri.minimum_wave_lane_count.into(),
    );
    field(
        out,
        "MaximumWaveLaneCount",
        ri.maximum_wave_lane_count.into(),
    );
    if psv.version >= 1 {
        field(out, "UsesViewID", ri.uses_view_id.unwrap_or(0).into());
        let geometry_data = ri.geometry_data.unwrap_or(0);
        match stage_kind {
            ShaderKind::Geometry => field(out, "MaxVertexCount", geometry_data.into()),
            ShaderKind::Hull | ShaderKind::Domain => field(
                out,
                "SigPatchConstOrPrimVectors",
                u64::from(geometry_data & 0xff),
            ),
            ShaderKind::Mesh => {
                field(out, "SigPrimVectors", u64::from(geometry_data & 0xff));
                field(out, "MeshOutputTopology", u64::from(geometry_data >> 8));
            }
            _ => {}
        }
        field(
            out,
            "SigInputVectors",
            ri.sig_input_vectors.unwrap_or(0).into(),
        );
        out.key(6, "SigOutputVectors");
        out.flow(
            ri.sig_output_vectors
                .unwrap_or([0; 4])
                .iter()
                .map(|v| v.to_string()),
        );
    }
    if let Some([x, y, z]) = ri.num_threads {
        field(out, "NumThreadsX", x.into());
        field(out, "NumThreadsY", y.into());
        field(out, "NumThreadsZ", z.into());
    }
    if psv.version >= 3 {
        out.key(6, "EntryName");
        out.string(psv.entry_name.unwrap_or(&[]));
    }
    field(out, "ResourceStride", psv.resource_stride.into());
    out.key(6, "Resources");
    if psv.resources.is_empty() {
        out.empty_sequence();
    }
    for r in &psv.resources {
        out.item_key(10, "Type");
        out.enum_value(r.resource_type.known_name());
        field_at(out, 10, "Space", r.space.into());
        field_at(out, 10, "LowerBound", r.lower_bound.into());
        field_at(out, 10, "UpperBound", r.upper_bound.into());
        if psv.version >= 2 {
            out.key(10, "Kind");
            out.enum_value(r.kind.and_then(|k| k.known_name()));
            out.key(10, "Flags");
            out.begin_mapping();
            out.key(12, "UsedByAtomic64");
            out.scalar(bool_text(r.flags.is_some_and(|f| f.bits() & 1 != 0)));
        }
    }
    if psv.version == 0 {
        return Ok(());
    }
    for (name, elements) in [
        ("SigInputElements", &psv.input_elements),
        ("SigOutputElements", &psv.output_elements),
        ("SigPatchOrPrimElements", &psv.patch_or_prim_elements),
    ] {
        out.key(6, name);
        if elements.is_empty() {
            out.empty_sequence();
        }
        for e in elements {
            psv_element(out, e);
        }
    }
    let hull = stage_kind == ShaderKind::Hull;
    if ri.uses_view_id.unwrap_or(0) != 0 {
        out.key(6, "OutputVectorMasks");
        for mask in &psv.output_vector_masks {
            out.flow_item(10, mask.iter().map(|w| hex(u64::from(*w))));
        }
        if hull {
            out.key(6, "PatchOrPrimMasks");
            out.flow(psv.patch_or_prim_masks.iter().map(|w| hex(u64::from(*w))));
        }
    }
    out.key(6, "InputOutputMap");
    for map in &psv.input_output_maps {
        out.flow_item(10, map.iter().map(|w| hex(u64::from(*w))));
    }
    if hull {
        out.key(6, "InputPatchMap");
        out.flow(psv.input_patch_map.iter().map(|w| hex(u64::from(*w))));
    }
    if stage_kind == ShaderKind::Domain {
        out.key(6, "PatchOutputMap");
        out.flow(psv.patch_output_map.iter().map(|w| hex(u64::from(*w))));
    }
    Ok(())
}

fn field_at(out: &mut Emitter, col: usize, name: &str, value: u64) {
    out.key(col, name);
    out.scalar(&value.to_string());
}

fn psv_element(out: &mut Emitter, e: &PsvElement<'_>) {
    out.item_key(10, "Name");
    out.string(e.name);
    out.key(10, "Indices");
    out.flow(e.indices.iter().map(|i| i.to_string()));
    field_at(out, 10, "StartRow", e.start_row.into());
    field_at(out, 10, "Cols", e.cols.into());
    field_at(out, 10, "StartCol", e.start_col.into());
    out.key(10, "Allocated");
    out.scalar(bool_text(e.allocated));
    out.key(10, "Kind");
    out.enum_value(e.kind.known_name());
    out.key(10, "ComponentType");
    out.enum_value(e.component_type.known_name());
    out.key(10, "Interpolation");
    out.enum_value(e.interpolation.known_name());
    out.key(10, "DynamicMask");
    out.scalar(&hex(u64::from(e.dynamic_mask)));
    field_at(out, 10, "Stream", e.stream.into());
}

fn rts0(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
    let rs = match RootSignature::parse_llvm_compat(part) {
        Ok(rs) => rs,
        Err(compat_error) => RootSignature::parse(part).map_err(|_| compat_error)?,
    };
    let version = rs.version.raw();
    out.key(4, "RootSignature");
    out.begin_mapping();
    field_at(out, 6, "Version", version.into());
    field_at(out, 6, "NumRootParameters", rs.parameters.len() as u64);
    field_at(out, 6, "RootParametersOffset", rs.parameters_offset.into());
    field_at(out, 6, "NumStaticSamplers", rs.num_static_samplers.into());
    field_at(
        out,
        6,
        "StaticSamplersOffset",
        rs.static_samplers_offset.into(),
    );
    out.key(6, "Parameters");
    if rs.parameters.is_empty() {
        out.empty_sequence();
    }
    for p in &rs.parameters {
        out.item_key(10, "ParameterType");
        out.enum_value(p.parameter_type.known_name());
        out.key(10, "ShaderVisibility");
        out.enum_value(p.visibility.known_name());
        match &p.payload {
            ParameterPayload::Constants(c) => {
                out.key(10, "Constants");
                out.begin_mapping();
                field_at(out, 12, "Num32BitValues", c.num_32bit_values.into());
                field_at(out, 12, "RegisterSpace", c.register_space.into());
                field_at(out, 12, "ShaderRegister", c.shader_register.into());
            }
            ParameterPayload::Descriptor(d) => {
                out.key(10, "Descriptor");
                out.begin_mapping();
                field_at(out, 12, "RegisterSpace", d.register_space.into());
                field_at(out, 12, "ShaderRegister", d.shader_register.into());
                if version > 1 {
                    if let Some(flags) = d.flags {
                        set_flags(
                            out,
                            12,
                            flags.bits(),
                            crate::rts0::RootDescriptorFlags::KNOWN,
                        );
                    }
                }
            }
            ParameterPayload::Table(t) => {
                out.key(10, "Table");
                out.begin_mapping();
                field_at(out, 12, "NumRanges", t.num_ranges.into());
                field_at(out, 12, "RangesOffset", t.ranges_offset.into());
                out.key(12, "Ranges");
                if t.ranges.is_empty() {
                    out.empty_sequence();
                }
                for r in &t.ranges {
                    out.item_key(16, "RangeType");
                    out.enum_value(r.range_type.known_name());
                    out.key(16, "NumDescriptors");
                    if r.num_descriptors == u32::MAX {
                        out.scalar("-1");
                    } else {
                        out.scalar(&r.num_descriptors.to_string());
                    }
                    field_at(out, 16, "BaseShaderRegister", r.base_shader_register.into());
                    field_at(out, 16, "RegisterSpace", r.register_space.into());
                    field_at(
                        out,
                        16,
                        "OffsetInDescriptorsFromTableStart",
                        r.offset_in_descriptors_from_table_start.into(),
                    );
                    if let Some(flags) = r.flags {
                        set_flags(
                            out,
                            16,
                            flags.bits(),
                            crate::rts0::DescriptorRangeFlags::KNOWN,
                        );
                    }
                }
            }
        }
    }
    if !rs.static_samplers.is_empty() {
        out.key(6, "Samplers");
    }
    for s in &rs.static_samplers {
        out.item_key(10, "Filter");
        out.enum_value(s.filter.known_name());
        out.key(10, "AddressU");
        out.enum_value(s.address_u.known_name());
        out.key(10, "AddressV");
        out.enum_value(s.address_v.known_name());
        out.key(10, "AddressW");
        out.enum_value(s.address_w.known_name());
        out.key(10, "MipLODBias");
        out.scalar(&format_g(f64::from(s.mip_lod_bias)));
        field_at(out, 10, "MaxAnisotropy", s.max_anisotropy.into());
        out.key(10, "ComparisonFunc");
        out.enum_value(s.comparison_func.known_name());
        out.key(10, "BorderColor");
        out.enum_value(s.border_color.known_name());
        out.key(10, "MinLOD");
        out.scalar(&format_g(f64::from(s.min_lod)));
        out.key(10, "MaxLOD");
        out.scalar(&format_g(f64::from(s.max_lod)));
        field_at(out, 10, "ShaderRegister", s.shader_register.into());
        field_at(out, 10, "RegisterSpace", s.register_space.into());
        out.key(10, "ShaderVisibility");
        out.enum_value(s.visibility.known_name());
        if let Some(flags) = s.flags {
            set_flags(
                out,
                10,
                flags.bits(),
                crate::rts0::StaticSamplerFlags::KNOWN,
            );
        }
    }
    set_flags(out, 6, rs.flags.bits(), crate::rts0::RootFlags::KNOWN);
    Ok(())
}

/// Prints `NAME: true` for every named flag that is set (LLVM maps each flag
/// as an optional bool defaulting to false).
fn set_flags(out: &mut Emitter, col: usize, bits: u32, known: &[(u32, &str)]) {
    for (bit, name) in known {
        if bits & bit != 0 {
            out.key(col, name);
            out.scalar("true");
        }
    }
}

// ---------------------------------------------------------------------------
// Upstream-only parts (YamlOptions::upstream_keys)

mod upstream {
    //! Renders the parts upstream LLVM decodes and LLVM 22 does not, read by
    //! the decoders' LLVM-compatible variants (`parse_llvm_compat`).

    use super::{field_at, Emitter, YamlError};
    use crate::debug_name::DebugName;
    use crate::source_info::{SectionType, SourceInfo, SourceSection};
    use crate::version::CompilerVersion;
    use crate::Part;

    /// ILDN (docs/format/small-parts.md §3).
    pub(super) fn debug_name(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
        let d = DebugName::parse_llvm_compat(part)?;
        out.key(4, "DebugName");
        out.begin_mapping();
        field_at(out, 6, "Flags", d.flags.into());
        field_at(out, 6, "NameLength", d.name_length.into());
        out.key(6, "DebugName");
        out.string(d.name);
        Ok(())
    }

    /// VERS (docs/format/small-parts.md §5).
    pub(super) fn compiler_version(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
        let v = CompilerVersion::parse_llvm_compat(part)?;
        out.key(4, "CompilerVersion");
        out.begin_mapping();
        field_at(out, 6, "Major", v.major.into());
        field_at(out, 6, "Minor", v.minor.into());
        out.key(6, "IsDebugBuild");
        out.scalar(super::bool_text(v.flags.bits() & 1 != 0));
        out.key(6, "IsValidated");
        out.scalar(super::bool_text(v.flags.bits() & 2 != 0));
        field_at(out, 6, "CommitCount", v.commit_count.into());
        field_at(out, 6, "ContentSizeInBytes", v.content_size.into());
        out.key(6, "CommitSha");
        out.string(v.commit_sha);
        out.key(6, "CustomVersionString");
        out.string(v.version_string);
        Ok(())
    }

    fn section_header(out: &mut Emitter, info: &SourceInfo<'_>, kind: SectionType) {
        let Some(h) = info.sections.iter().find(|s| s.section_type == kind) else {
            return;
        };
        let h: &SourceSection = h;
        out.key(8, "SectionHeader");
        out.begin_mapping();
        field_at(out, 10, "AlignedSizeInBytes", h.aligned_size.into());
        field_at(out, 10, "Flags", h.flags.into());
        out.key(10, "Type");
        out.scalar(["SourceContents", "SourceNames", "Args"][usize::from(h.section_type.raw())]);
    }

    /// SRCI (docs/format/small-parts.md §6).
    pub(super) fn source_info(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
        let info = SourceInfo::parse_llvm_compat(part)?;
        out.key(4, "SourceInfo");
        out.begin_mapping();
        out.key(6, "Header");
        out.begin_mapping();
        field_at(out, 8, "AlignedSizeInBytes", info.aligned_size.into());
        field_at(out, 8, "Flags", info.flags.into());
        field_at(out, 8, "SectionCount", info.section_count.into());
        if let Some(names) = &info.names {
            out.key(6, "Names");
            out.begin_mapping();
            section_header(out, &info, SectionType::from_raw(1));
            out.key(8, "Header");
            out.begin_mapping();
            field_at(out, 10, "Flags", names.flags.into());
            field_at(out, 10, "Count", names.count.into());
            field_at(out, 10, "EntriesSizeInBytes", names.entries_size.into());
            out.key(8, "Entries");
            if names.entries.is_empty() {
                out.empty_sequence();
            }
            for e in &names.entries {
                out.item_key(12, "AlignedSizeInBytes");
                out.scalar(&e.aligned_size.to_string());
                field_at(out, 12, "Flags", e.flags.into());
                field_at(out, 12, "NameSizeInBytes", e.name_size.into());
                field_at(out, 12, "ContentSizeInBytes", e.content_size.into());
                out.key(12, "FileName");
                out.string(e.name);
            }
        }
        if let Some(contents) = &info.contents {
            out.key(6, "Contents");
            out.begin_mapping();
            section_header(out, &info, SectionType::from_raw(0));
            out.key(8, "Header");
            out.begin_mapping();
            field_at(out, 10, "AlignedSizeInBytes", contents.aligned_size.into());
            field_at(out, 10, "Flags", contents.flags.into());
            out.key(10, "Type");
            out.scalar(if contents.compression.raw() == 0 {
                "None"
            } else {
                "Zlib"
            });
            field_at(out, 10, "EntriesSizeInBytes", contents.entries_size.into());
            field_at(
                out,
                10,
                "UncompressedEntriesSizeInBytes",
                contents.uncompressed_size.into(),
            );
            field_at(out, 10, "Count", contents.count.into());
            out.key(8, "Entries");
            if contents.entries.is_empty() {
                out.empty_sequence();
            }
            for e in &contents.entries {
                out.item_key(12, "AlignedSizeInBytes");
                out.scalar(&e.aligned_size.to_string());
                field_at(out, 12, "Flags", e.flags.into());
                field_at(out, 12, "ContentSizeInBytes", e.content_size.into());
                out.key(12, "FileContent");
                out.string(&e.content);
            }
        }
        if let Some(args) = &info.args {
            out.key(6, "Args");
            out.begin_mapping();
            section_header(out, &info, SectionType::from_raw(2));
            out.key(8, "Header");
            out.begin_mapping();
            field_at(out, 10, "Flags", args.flags.into());
            field_at(out, 10, "SizeInBytes", args.size.into());
            field_at(out, 10, "Count", args.count.into());
            out.key(8, "Args");
            if args.args.is_empty() {
                out.empty_sequence();
            }
            for a in &args.args {
                out.item_key(12, "Arg");
                out.string(a.name);
                out.key(12, "Value");
                out.string(a.value);
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Scalars

fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// `yaml::Hex8/16/32/64`: `0x` and upper-case digits without padding.
fn hex(v: u64) -> String {
    format!("0x{v:X}")
}

/// printf `%g` (6 significant digits) of a double, as LLVM prints floats.
pub fn format_g(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    let scientific = format!("{v:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..6).contains(&exponent) {
        let mantissa = trim_fraction(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        let decimals = (5 - exponent) as usize;
        trim_fraction(&format!("{v:.decimals$}")).to_string()
    }
}

fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// How LLVM's YAML writer quotes a string scalar (`yaml::needsQuotes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quoting {
    None,
    Single,
    Double,
}

fn is_numeric(s: &[u8]) -> bool {
    let skip_digits = |s: &[u8]| -> usize { s.iter().take_while(|c| c.is_ascii_digit()).count() };
    if s.is_empty() || s == b"+" || s == b"-" {
        return false;
    }
    if s == b".nan" || s == b".NaN" || s == b".NAN" {
        return true;
    }
    let tail = if s[0] == b'-' || s[0] == b'+' {
        &s[1..]
    } else {
        s
    };
    if tail == b".inf" || tail == b".Inf" || tail == b".INF" {
        return true;
    }
    if let Some(rest) = s.strip_prefix(b"0o") {
        return !rest.is_empty() && rest.iter().all(|c| (b'0'..=b'7').contains(c));
    }
    if let Some(rest) = s.strip_prefix(b"0x") {
        return !rest.is_empty() && rest.iter().all(|c| c.is_ascii_hexdigit());
    }
    let mut s = tail;
    if s.first() == Some(&b'.') && (s.len() == 1 || !s[1].is_ascii_digit()) {
        return false;
    }
    if matches!(s.first(), Some(b'e' | b'E')) {
        return false;
    }
    s = &s[skip_digits(s)..];
    if s.is_empty() {
        return true;
    }
    if s[0] == b'.' {
        s = &s[1..];
        s = &s[skip_digits(s)..];
        if s.is_empty() {
            return true;
        }
        if !matches!(s[0], b'e' | b'E') {
            return false;
        }
        s = &s[1..];
    } else if matches!(s[0], b'e' | b'E') {
        s = &s[1..];
    } else {
        return false;
    }
    if s.is_empty() {
        return false;
    }
    if s[0] == b'+' || s[0] == b'-' {
        s = &s[1..];
        if s.is_empty() {
            return false;
        }
    }
    skip_digits(s) == s.len()
}

fn needs_quotes(s: &[u8]) -> Quoting {
    if s.is_empty() {
        return Quoting::Single;
    }
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let mut quoting = Quoting::None;
    if is_space(s[0]) || is_space(s[s.len() - 1]) {
        quoting = Quoting::Single;
    }
    let null = matches!(s, b"null" | b"Null" | b"NULL" | b"~");
    let boolean = matches!(
        s,
        b"true" | b"True" | b"TRUE" | b"false" | b"False" | b"FALSE"
    );
    if null || boolean || is_numeric(s) {
        quoting = Quoting::Single;
    }
    if b"-?:\\,[]{}#&*!|>'\"%@`".contains(&s[0]) {
        quoting = Quoting::Single;
    }
    for &c in s {
        if c.is_ascii_alphanumeric() {
            continue;
        }
        match c {
            b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t' => continue,
            b'\n' | b'\r' | 0x7f => return Quoting::Double,
            c if c <= 0x1f || c & 0x80 != 0 => return Quoting::Double,
            _ => quoting = Quoting::Single,
        }
    }
    quoting
}

/// Whether LLVM's `sys::unicode::isPrintable` treats a code point as printable.
/// Approximation: control, format, separator (other than space), surrogate,
/// private-use and non-character code points are not printable; unassigned
/// code points are treated as printable.
fn is_printable(c: u32) -> bool {
    !matches!(c,
        0x80..=0x9f
        | 0xad
        | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890..=0x891 | 0x8e2
        | 0x180e
        | 0x200b..=0x200f | 0x2028..=0x202e | 0x2060..=0x206f
        | 0xd800..=0xf8ff
        | 0xfeff | 0xfff9..=0xfffb | 0xfffe..=0xffff
        | 0x110bd | 0x110cd | 0x13430..=0x1343f | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a
        | 0xe0001 | 0xe0020..=0xe007f
        | 0xf0000..=0x10ffff)
        && (c & 0xfffe) != 0xfffe
}

/// `yaml::escape(S, /*EscapePrintable=*/false)`: the body of a double-quoted scalar.
fn escape_double(s: &[u8]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        match c {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            0 => out.push_str("\\0"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x09 => out.push_str("\\t"),
            0x0a => out.push_str("\\n"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            0x0d => out.push_str("\\r"),
            0x1b => out.push_str("\\e"),
            c if c < 0x20 => out.push_str(&format!("\\x{c:02X}")),
            c if c & 0x80 != 0 => {
                let Some((ch, len)) = decode_utf8(&s[i..]) else {
                    // LLVM writes U+FFFD for an invalid sequence and stops.
                    out.push('\u{fffd}');
                    return out;
                };
                match ch as u32 {
                    0x85 => out.push_str("\\N"),
                    0xa0 => out.push_str("\\_"),
                    0x2028 => out.push_str("\\L"),
                    0x2029 => out.push_str("\\P"),
                    cp if is_printable(cp) => out.push(ch),
                    cp if cp <= 0xff => out.push_str(&format!("\\x{cp:02X}")),
                    cp if cp <= 0xffff => out.push_str(&format!("\\u{cp:04X}")),
                    cp => out.push_str(&format!("\\U{cp:08X}")),
                }
                i += len;
                continue;
            }
            c => out.push(c as char),
        }
        i += 1;
    }
    out
}

/// Decodes one UTF-8 sequence the way LLVM's `decodeUTF8` accepts it
/// (shortest form, no surrogates, at most U+10FFFF).
fn decode_utf8(s: &[u8]) -> Option<(char, usize)> {
    let len = match s[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let text = std::str::from_utf8(s.get(..len)?).ok()?;
    text.chars().next().map(|c| (c, len))
}

// ---------------------------------------------------------------------------
// The writer

/// What LLVM's `yaml::Output` has pending before the next token: a line break
/// (and indentation) or the padding after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    Newline,
    Spaces(usize),
}

/// A small model of LLVM's `yaml::Output` for the shapes obj2yaml prints:
/// block mappings, block sequences of mappings, flow sequences of scalars
/// (wrapped after column 70) and block sequences of flow sequences.
struct Emitter {
    buf: String,
    pending: Pending,
}

impl Emitter {
    fn new() -> Self {
        Emitter {
            buf: "--- !dxcontainer".to_string(),
            pending: Pending::Newline,
        }
    }

    fn finish(mut self) -> String {
        self.buf.push_str("\n...\n");
        self.buf
    }

    /// Starts a token: the pending padding, or a new line indented to `indent`
    /// with a `- ` marker when `dash`.
    fn start(&mut self, indent: usize, dash: bool) {
        match self.pending {
            Pending::Spaces(n) => self.buf.extend(std::iter::repeat_n(' ', n)),
            Pending::Newline => {
                self.buf.push('\n');
                if dash {
                    self.buf
                        .extend(std::iter::repeat_n(' ', indent.saturating_sub(2)));
                    self.buf.push_str("- ");
                } else {
                    self.buf.extend(std::iter::repeat_n(' ', indent));
                }
            }
        }
        self.pending = Pending::Newline;
    }

    fn key_text(&mut self, name: &str) {
        self.buf.push_str(name);
        self.buf.push(':');
        self.pending = Pending::Spaces(if name.len() < 16 { 16 - name.len() } else { 1 });
    }

    /// A mapping key at column `col`.
    fn key(&mut self, col: usize, name: &str) {
        self.start(col, false);
        self.key_text(name);
    }

    /// The first key of a sequence item: `- ` two columns left of `col`.
    fn item_key(&mut self, col: usize, name: &str) {
        self.pending = Pending::Newline;
        self.start(col, true);
        self.key_text(name);
    }

    /// The value of the preceding key is a nested mapping (or a sequence).
    fn begin_mapping(&mut self) {
        self.pending = Pending::Newline;
    }

    /// A plain scalar value.
    fn scalar(&mut self, text: &str) {
        self.start(0, false);
        self.buf.push_str(text);
        self.pending = Pending::Newline;
    }

    /// An enumeration value: its name, or — like obj2yaml for a value without
    /// a name — nothing at all (the key's padding stays pending).
    fn enum_value(&mut self, name: Option<&str>) {
        if let Some(name) = name {
            self.scalar(name);
        }
    }

    /// A string value, quoted and escaped as LLVM does.
    fn string(&mut self, bytes: &[u8]) {
        let text = match needs_quotes(bytes) {
            Quoting::None => String::from_utf8_lossy(bytes).into_owned(),
            Quoting::Single => {
                format!("'{}'", String::from_utf8_lossy(bytes).replace('\'', "''"))
            }
            Quoting::Double => format!("\"{}\"", escape_double(bytes)),
        };
        self.scalar(&text);
    }

    /// `[]` for an empty block sequence.
    fn empty_sequence(&mut self) {
        self.scalar("[]");
    }

    fn column(&self) -> usize {
        self.buf.len() - self.buf.rfind('\n').map_or(0, |i| i + 1)
    }

    /// A flow sequence as the value of the preceding key.
    fn flow(&mut self, items: impl IntoIterator<Item = String>) {
        self.start(0, false);
        self.flow_body(items);
    }

    /// A flow sequence as an item of a block sequence (`- [ … ]`), the dash at `col - 2`.
    fn flow_item(&mut self, col: usize, items: impl IntoIterator<Item = String>) {
        self.pending = Pending::Newline;
        self.start(col, true);
        self.flow_body(items);
    }

    fn flow_body(&mut self, items: impl IntoIterator<Item = String>) {
        let start = self.column();
        self.buf.push_str("[ ");
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.buf.push_str(", ");
            }
            // LLVM checks before every element, the first included.
            if self.column() > 70 {
                self.buf.push('\n');
                self.buf.extend(std::iter::repeat_n(' ', start + 2));
            }
            self.buf.push_str(&item);
        }
        self.buf.push_str(" ]");
        self.pending = Pending::Newline;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_g() {
        let rows: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.25, "0.25"),
            (1.1f32 as f64, "1.1"),
            (1000.0, "1000"),
            (15.0, "15"),
            (f32::MAX as f64, "3.40282e+38"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (1234565.0, "1.23456e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (999999.5, "1e+06"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (v, want) in rows {
            assert_eq!(format_g(*v), *want, "{v}");
        }
    }

    #[test]
    fn quoting() {
        let rows: &[(&[u8], Quoting)] = &[
            (b"POSITION", Quoting::None),
            (b"A B", Quoting::None),
            (b"tab\tX", Quoting::None),
            (b"PLAIN_name.1", Quoting::None),
            (b"", Quoting::Single),
            (b"-x", Quoting::Single),
            (b"true", Quoting::Single),
            (b"123", Quoting::Single),
            (b"1.5e3", Quoting::Single),
            (b"0x1F", Quoting::Single),
            (b"0o17", Quoting::Single),
            (b"~", Quoting::Single),
            (b"Null", Quoting::Single),
            (b"a/b", Quoting::Single),
            (b"sp ", Quoting::Single),
            (b"new\nline", Quoting::Double),
            (b"del\x7f", Quoting::Double),
            (b"caf\xc3\xa9", Quoting::Double),
            (b"a\x01", Quoting::Double),
        ];
        for (s, want) in rows {
            assert_eq!(needs_quotes(s), *want, "{}", String::from_utf8_lossy(s));
        }
        assert_eq!(escape_double(b"bs\\x\n"), "bs\\\\x\\n");
        assert_eq!(escape_double(b"ctl\x01z"), "ctl\\x01z");
        assert_eq!(escape_double(b"ab\xffcd"), "ab\u{fffd}");
        assert_eq!(
            escape_double("x\u{85}y\u{200b}z\u{a0}".as_bytes()),
            "x\\Ny\\u200Bz\\_"
        );
    }

    /// A contiguous container with a zero digest.
    fn container(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
        let table_end = 32 + 4 * parts.len();
        let mut offsets = Vec::new();
        let mut body = Vec::new();
        for (name, data) in parts {
            offsets.extend(((table_end + body.len()) as u32).to_le_bytes());
            body.extend_from_slice(*name);
            body.extend((data.len() as u32).to_le_bytes());
            body.extend_from_slice(data);
        }
        let total = (table_end + body.len()) as u32;
        let mut out = b"DXBC".to_vec();
        out.extend([0; 16]);
        out.extend([1, 0, 0, 0]);
        out.extend(total.to_le_bytes());
        out.extend((parts.len() as u32).to_le_bytes());
        out.extend(offsets);
        out.extend(body);
        out
    }

    fn words(values: &[u32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// ISG1 data: (system value, component type, min precision, name) per element.
    fn isg1(elements: &[(u32, u32, u32, &[u8])]) -> Vec<u8> {
        let n = elements.len() as u32;
        let mut out = words(&[n, 8]);
        let mut names = Vec::new();
        for (i, (sv, ct, mp, name)) in elements.iter().enumerate() {
            let offset = 8 + 32 * n + names.len() as u32;
            names.extend_from_slice(name);
            names.push(0);
            out.extend(words(&[0, offset, 0, *sv, *ct, i as u32]));
            out.extend([1, 0, 0, 0]);
            out.extend(words(&[*mp]));
        }
        out.extend(names);
        out
    }

    fn program(kind: u16) -> Vec<u8> {
        let mut p = vec![0x60, 0];
        p.extend(kind.to_le_bytes());
        p.extend(words(&[6]));
        p.extend(b"DXIL");
        p.extend([0, 1, 0, 0]);
        p.extend(words(&[16, 0]));
        p
    }

    fn yaml(bytes: &[u8], upstream_keys: bool) -> Result<String, YamlError> {
        let c = Container::parse(bytes).unwrap();
        to_obj2yaml(&c, &YamlOptions { upstream_keys })
    }

    /// The text from `Parts:` on.
    fn parts(bytes: &[u8], upstream_keys: bool) -> String {
        let text = yaml(bytes, upstream_keys).unwrap();
        text[text.find("\nParts:").unwrap() + 1..].to_string()
    }

    // Expected texts below are obj2yaml 22.1.8's output for the same bytes.

    #[test]
    fn empty_container() {
        let want = "--- !dxcontainer
Header:
  Hash:            [ 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, \n                     0x0, 0x0, 0x0, 0x0, 0x0, 0x0 ]
  Version:
    Major:           1
    Minor:           0
  FileSize:        32
  PartCount:       0
  PartOffsets:     [  ]
Parts:           []
...
";
        assert_eq!(yaml(&container(&[]), false).unwrap(), want);
    }

    #[test]
    fn unnamed_enum_values_print_the_key_only() {
        let bytes = container(&[(b"ISG1", &isg1(&[(17, 42, 7, b"A")]))]);
        let want = "Parts:
  - Name:            ISG1
    Size:            42
    Signature:
      Parameters:
        - Stream:          0
          Name:            A
          Index:           0
          SystemValue:     CompType:        Register:        0
          Mask:            1
          ExclusiveMask:   0
          MinPrecision:
...
";
        assert_eq!(parts(&bytes, false), want);
    }

    #[test]
    fn part_names_and_strings_are_quoted_like_llvm() {
        let bytes = container(&[(b"a:b\0", b"xx"), (b"-x y", b""), (b"\xc3\xa9ab", b"")]);
        let want = "Parts:
  - Name:            \"a:b\\0\"
    Size:            2
  - Name:            '-x y'
    Size:            0
  - Name:            \"\u{e9}ab\"
    Size:            0
...
";
        assert_eq!(parts(&bytes, false), want);
        let names: [&[u8]; 3] = [b"ab\xffcd", "x\u{85}y\u{200b}z\u{a0}".as_bytes(), b"-"];
        let sig = isg1(&names.map(|n| (0, 3, 0, n)));
        let text = parts(&container(&[(b"ISG1", &sig)]), false);
        let got: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("Name:  "))
            .skip(1)
            .collect();
        assert_eq!(
            got,
            [
                "          Name:            \"ab\u{fffd}\"",
                "          Name:            \"x\\Ny\\u200Bz\\_\"",
                "          Name:            '-'",
            ]
        );
    }

    #[test]
    fn empty_descriptor_table() {
        let mut rs = words(&[2, 1, 24, 0, 44, 0]);
        rs.extend(words(&[0, 0, 36, 0, 44]));
        let want = "Parts:
  - Name:            RTS0
    Size:            44
    RootSignature:
      Version:         2
      NumRootParameters: 1
      RootParametersOffset: 24
      NumStaticSamplers: 0
      StaticSamplersOffset: 44
      Parameters:
        - ParameterType:   DescriptorTable
          ShaderVisibility: All
          Table:
            NumRanges:       0
            RangesOffset:    44
            Ranges:          []
...
";
        assert_eq!(parts(&container(&[(b"RTS0", &rs)]), false), want);
    }

    #[test]
    fn sfi0_with_only_unnamed_bits_prints_every_key_false() {
        let bytes = container(&[(b"SFI0", &(1u64 << 40).to_le_bytes())]);
        let text = parts(&bytes, false);
        assert!(text.contains("    Flags:\n      Doubles:         false\n"));
        assert_eq!(text.matches("false\n").count(), 34);
    }

    #[test]
    fn where_obj2yaml_rejects_the_file() {
        // PSV0 v1 without DXIL: printed with the record's own stage.
        let mut psv = words(&[36]);
        psv.extend([0u8; 24]);
        psv.extend([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        psv.extend(words(&[0, 4, 0, 0]));
        let text = parts(&container(&[(b"PSV0", &psv)]), false);
        assert!(
            text.contains("      ShaderStage:     1\n      OutputPositionPresent: 0\n"),
            "{text}"
        );
        // PSV0 v0 without DXIL: no stage to print.
        let mut psv = words(&[24]);
        psv.extend([0u8; 24]);
        psv.extend(words(&[0]));
        let bytes = container(&[(b"PSV0", &psv)]);
        let err = yaml(&bytes, false).unwrap_err();
        assert!(matches!(err, YamlError::PsvWithoutProgram { part } if part.index == 0));
        // ... which upstream keys take from ILDB.
        let text = parts(&container(&[(b"PSV0", &psv), (b"ILDB", &program(1))]), true);
        assert!(
            text.contains("      ShaderStage:     1\n      OutputPositionPresent: 0\n"),
            "{text}"
        );
        assert!(text.contains("  - Name:            ILDB\n    Size:            24\n    Program:\n"));
        // RTS0 1.2 with a root CBV (LLVM 22: "Invalid Root Signature version: 3").
        let mut rs = words(&[3, 1, 24, 0, 48, 0]);
        rs.extend(words(&[2, 0, 36, 7, 8, 2]));
        let text = parts(&container(&[(b"RTS0", &rs)]), false);
        assert!(
            text.contains(
                "          Descriptor:\n            RegisterSpace:   8\n            ShaderRegister:  \
                 7\n            DATA_VOLATILE:   true\n"
            ),
            "{text}"
        );
        // A part that cannot be decoded at all is an error.
        let err = yaml(&container(&[(b"SFI0", &[1, 2, 3])]), false).unwrap_err();
        assert!(matches!(err, YamlError::Decode(_)));
    }

    /// An SRCI part laid out as upstream's `SRCIPart.yaml` test describes it,
    /// with the contents stored raw or zlib-compressed.
    fn srci(zlib: bool) -> Vec<u8> {
        let mut names = words(&[0, 1]);
        names.extend(28u16.to_le_bytes());
        names.extend(words(&[28, 0, 11, 40]));
        names.extend(b"fd_zs.hlsl\0\0");
        let content = b"float4 main() : SV_Target { return 0; }\0";
        let mut entries = words(&[52, 0, 40]);
        entries.extend(content);
        let stored = if zlib {
            use std::io::Write;
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            z.write_all(&entries).unwrap();
            z.finish().unwrap()
        } else {
            entries.clone()
        };
        let mut contents = words(&[20 + stored.len() as u32]);
        contents.extend([0, 0]);
        contents.extend(u16::from(zlib).to_le_bytes());
        contents.extend(words(&[stored.len() as u32, 52, 1]));
        contents.extend(&stored);
        let args_bytes = b"-T\0ps_6_0\0-E\0main\0";
        let mut args = words(&[0, args_bytes.len() as u32, 2]);
        args.extend(args_bytes);
        let mut sections = Vec::new();
        for (kind, mut body) in [(1u16, names), (0, contents), (2, args)] {
            body.resize((body.len() + 3) & !3, 0);
            sections.extend(words(&[8 + body.len() as u32]));
            sections.extend([0, 0]);
            sections.extend(kind.to_le_bytes());
            sections.extend(body);
        }
        let mut out = words(&[8 + sections.len() as u32]);
        out.extend([0, 0, 3, 0]);
        out.extend(sections);
        out
    }

    #[test]
    fn srci_zlib_declared_size_is_capped() {
        // Declared uncompressed size past the hard limit: refused before any
        // inflating (it was capped only by the declared size, up to 4 GiB).
        let mut bomb = srci(true);
        let stream = bomb.windows(2).position(|w| w == [0x78, 0xda]).unwrap();
        let at = stream - 8;
        assert_eq!(&bomb[at..at + 4], &52u32.to_le_bytes());
        let limit = crate::source_info::MAX_SOURCE_CONTENTS as u32;
        bomb[at..at + 4].copy_from_slice(&(limit + 1).to_le_bytes());
        let bytes = container(&[(b"SRCI", &bomb)]);
        let r = yaml(&bytes, true);
        assert!(
            matches!(
                &r,
                Err(YamlError::Decode(e)) if matches!(
                    e.kind,
                    crate::ReadErrorKind::LimitExceeded {
                        what: crate::error::Limit::SourceContentsSize,
                        ..
                    }
                )
            ),
            "{r:?}"
        );
        // The honest part still prints its decompressed contents.
        let bytes = container(&[(b"SRCI", &srci(true))]);
        assert!(parts(&bytes, true).contains("float4 main"));
    }

    #[test]
    fn upstream_keys() {
        let mut ildn = vec![0, 0, 7, 0];
        ildn.extend(b"a/b.pdb\0");
        let mut vers = vec![1, 0, 10, 0];
        vers.extend(words(&[1, 5267, 20]));
        vers.extend(b"21f060b7\0");
        vers.extend(b"1.9.0.1526\0");
        let bytes = container(&[
            (b"ILDN", &ildn),
            (b"VERS", &vers),
            (b"SRCI", &srci(false)),
            (b"PRIV", &[0xde, 0xad, 0xbe, 0xef, 0x42]),
        ]);
        // LLVM 22 prints names and sizes only.
        let plain = parts(&bytes, false);
        assert_eq!(plain.lines().count(), 10);
        let text = parts(&bytes, true);
        assert!(text.contains(
            "    DebugName:\n      Flags:           0\n      NameLength:      7\n      \
             DebugName:       'a/b.pdb'\n"
        ));
        assert!(text.contains(
            "    CompilerVersion:\n      Major:           1\n      Minor:           10\n      \
             IsDebugBuild:    true\n      IsValidated:     false\n      CommitCount:     5267\n      \
             ContentSizeInBytes: 20\n      CommitSha:       21f060b7\n      CustomVersionString: \
             1.9.0.1526\n"
        ));
        assert!(text.contains("    PrivateData:     [ 0xDE, 0xAD, 0xBE, 0xEF, 0x42 ]\n"));
        let expected_srci = "    SourceInfo:
      Header:
        AlignedSizeInBytes: 176
        Flags:           0
        SectionCount:    3
      Names:
        SectionHeader:
          AlignedSizeInBytes: 48
          Flags:           0
          Type:            SourceNames
        Header:
          Flags:           0
          Count:           1
          EntriesSizeInBytes: 28
        Entries:
          - AlignedSizeInBytes: 28
            Flags:           0
            NameSizeInBytes: 11
            ContentSizeInBytes: 40
            FileName:        fd_zs.hlsl
      Contents:
        SectionHeader:
          AlignedSizeInBytes: 80
          Flags:           0
          Type:            SourceContents
        Header:
          AlignedSizeInBytes: 72
          Flags:           0
          Type:            None
          EntriesSizeInBytes: 52
          UncompressedEntriesSizeInBytes: 52
          Count:           1
        Entries:
          - AlignedSizeInBytes: 52
            Flags:           0
            ContentSizeInBytes: 40
            FileContent:     'float4 main() : SV_Target { return 0; }'
      Args:
        SectionHeader:
          AlignedSizeInBytes: 40
          Flags:           0
          Type:            Args
        Header:
          Flags:           0
          SizeInBytes:     18
          Count:           2
        Args:
          - Arg:             '-T'
            Value:           ps_6_0
          - Arg:             '-E'
            Value:           main
";
        assert!(text.contains(expected_srci), "{text}");
        // Compressed contents print the decompressed entries.
        let text = parts(&container(&[(b"SRCI", &srci(true))]), true);
        assert!(text.contains("          Type:            Zlib\n"));
        assert!(text
            .contains("            FileContent:     'float4 main() : SV_Target { return 0; }'\n"));
        // Malformed upstream parts are errors.
        vers[4] = 4;
        assert!(yaml(&container(&[(b"VERS", &vers)]), true).is_err());
        ildn[2] = 9;
        assert!(yaml(&container(&[(b"ILDN", &ildn)]), true).is_err());
    }

    #[test]
    fn flow_wrapping() {
        let mut e = Emitter::new();
        e.key(2, "Hash");
        e.flow((0..16).map(|_| hex(0)));
        let text = e.finish();
        assert_eq!(
            text,
            "--- !dxcontainer\n  Hash:            [ 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, \n                     0x0, 0x0, 0x0, 0x0, 0x0, 0x0 ]\n...\n"
        );
    }
}
