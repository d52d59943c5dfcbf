//! The keys obj2yaml prints for each part it decodes, read by the decoders'
//! LLVM-compatible variants (`parse_llvm_compat`).

use super::emitter::{bool_text, format_g, hex, Emitter};
use super::YamlError;
use crate::psv0::{Psv0, PsvElement, StageInfo};
use crate::rts0::{ParameterPayload, RootSignature};
use crate::sfi0::FeatureFlags;
use crate::signature::{Signature, SignatureFormat};
use crate::{Container, Part, Program, ShaderKind};

pub(super) fn program(
    out: &mut Emitter,
    container: &Container<'_>,
    part: &Part<'_>,
) -> Result<(), YamlError> {
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

pub(super) fn sfi0(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
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

pub(super) fn hash(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
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

pub(super) fn signature(out: &mut Emitter, sig: &Signature<'_>) {
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

/// PSV0 as obj2yaml prints it.
///
/// Long: every field of every PSV0 version in obj2yaml's order, one line each.
pub(super) fn psv0(
    out: &mut Emitter,
    part: &Part<'_>,
    program_kind: Option<u16>,
) -> Result<(), YamlError> {
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
    // obj2yaml 22 names a version-4 record version 3 (the newest it knows)
    // and has no key for its group-shared size.
    out.scalar(&psv.version.min(3).to_string());
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

pub(super) fn rts0(out: &mut Emitter, part: &Part<'_>) -> Result<(), YamlError> {
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

pub(super) mod upstream {
    //! Renders the parts upstream LLVM decodes and LLVM 22 does not, read by
    //! the decoders' LLVM-compatible variants (`parse_llvm_compat`).

    use super::{field_at, hex, Emitter, YamlError};
    use crate::debug_name::DebugName;
    use crate::source_info::{SectionType, SourceInfo, SourceSection};
    use crate::version::CompilerVersion;
    use crate::Part;

    /// PRIV: its bytes.
    pub(in crate::info::yaml) fn private_data(out: &mut Emitter, part: &Part<'_>) {
        out.key(4, "PrivateData");
        out.flow(part.data.iter().map(|b| hex(u64::from(*b))));
    }

    /// ILDN (docs/format/small-parts.md §3).
    pub(in crate::info::yaml) fn debug_name(
        out: &mut Emitter,
        part: &Part<'_>,
    ) -> Result<(), YamlError> {
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
    pub(in crate::info::yaml) fn compiler_version(
        out: &mut Emitter,
        part: &Part<'_>,
    ) -> Result<(), YamlError> {
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
    pub(in crate::info::yaml) fn source_info(
        out: &mut Emitter,
        part: &Part<'_>,
    ) -> Result<(), YamlError> {
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
