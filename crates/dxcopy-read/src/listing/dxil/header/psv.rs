//! `; Pipeline Runtime Information:` from PSV0 (docs/format/dxil-listing-header.md
//! §5; dxc's `PrintPipelineStateValidationRuntimeInfo` in
//! `dxcdisassembler.cpp` up to 1.8.2407, `hlsl::PrintPSVRuntimeInfo` in
//! `DxilPipelineStateValidation.cpp` from 1.8.2502 on).

use std::fmt::Write;

use crate::listing::dxil::release::{DxcRelease, ListingRule};
use crate::psv0::{Psv0, RuntimeInfo};
use crate::ShaderKind;

/// The runtime-information section for a PSV0 record; `kind` is the
/// program header's shader kind.
pub fn write_runtime_info(
    psv: &Psv0<'_>,
    kind: ShaderKind,
    release: &DxcRelease,
    out: &mut String,
) {
    out.push_str(";\n; Pipeline Runtime Information: \n;\n");
    if release.has(ListingRule::PsvRuntimeInfoBlock) {
        write_block(psv, kind, release, out);
    } else {
        write_stage(psv, kind, release, out);
        let info = &psv.runtime_info;
        if release.has(ListingRule::PsvWaveSize)
            && info.minimum_wave_lane_count == info.maximum_wave_lane_count
        {
            let _ = writeln!(out, "; WaveSize={}", info.minimum_wave_lane_count);
        }
    }
    out.push_str(";\n");
}

/// The `;PSVRuntimeInfo:` block (1.8.2502 on).
fn write_block(psv: &Psv0<'_>, kind: ShaderKind, release: &DxcRelease, out: &mut String) {
    let info = &psv.runtime_info;
    // The record's own stage wins over the program's (version 1 on).
    let kind = match info.shader_stage {
        Some(stage) if release.has(ListingRule::PsvRuntimeInfo4) => {
            ShaderKind::from_raw(u16::from(stage))
        }
        _ => kind,
    };
    out.push_str(";PSVRuntimeInfo:\n");
    write_stage(psv, kind, release, out);
    if info.minimum_wave_lane_count == info.maximum_wave_lane_count {
        let _ = writeln!(out, "; WaveSize={}", info.minimum_wave_lane_count);
    } else {
        let _ = writeln!(
            out,
            "; MinimumExpectedWaveLaneCount: {}\n; MaximumExpectedWaveLaneCount: {}",
            info.minimum_wave_lane_count, info.maximum_wave_lane_count
        );
    }
    if psv.version >= 1 {
        let _ = writeln!(
            out,
            "; UsesViewID: {}",
            if info.uses_view_id.unwrap_or(0) != 0 {
                "true"
            } else {
                "false"
            }
        );
        let count = |value: Option<u8>| value.unwrap_or(0);
        let _ = writeln!(
            out,
            "; SigInputElements: {}",
            count(info.sig_input_elements)
        );
        let _ = writeln!(
            out,
            "; SigOutputElements: {}",
            count(info.sig_output_elements)
        );
        let _ = writeln!(
            out,
            "; SigPatchConstOrPrimElements: {}",
            count(info.sig_patch_or_prim_elements)
        );
        let _ = writeln!(out, "; SigInputVectors: {}", count(info.sig_input_vectors));
        let vectors = info.sig_output_vectors.unwrap_or([0; 4]);
        for (stream, count) in vectors.iter().enumerate() {
            let _ = writeln!(out, "; SigOutputVectors[{stream}]: {count}");
        }
    }
    if psv.version >= 3 {
        let name = psv
            .entry_name
            .map(super::parts::c_string)
            .unwrap_or_default();
        let _ = writeln!(out, "; EntryFunctionName: {name}");
    }
}

/// The stage's own lines (`; Pixel Shader`, `; DepthOutput=0`, …).
fn write_stage(psv: &Psv0<'_>, kind: ShaderKind, release: &DxcRelease, out: &mut String) {
    let info = &psv.runtime_info;
    let raw = &info.stage_info_raw;
    let u32_at = |offset: usize| {
        raw.get(offset..offset + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
            .unwrap_or(0)
    };
    let flag = |offset: usize| u8::from(raw.get(offset).copied().unwrap_or(0) != 0);
    let block = release.has(ListingRule::PsvRuntimeInfoBlock);
    let compute_stages = block || release.has(ListingRule::PsvComputeStages);
    match kind {
        ShaderKind::Hull => {
            let _ = writeln!(
                out,
                "; Hull Shader\n; InputControlPointCount={}\n; OutputControlPointCount={}",
                u32_at(0),
                u32_at(4)
            );
            let _ = writeln!(out, "; Domain={}", tessellator_domain(u32_at(8)));
            let _ = writeln!(out, "; OutputPrimitive={}", tessellator_output(u32_at(12)));
        }
        ShaderKind::Domain => {
            let _ = writeln!(
                out,
                "; Domain Shader\n; InputControlPointCount={}\n; OutputPositionPresent={}",
                u32_at(0),
                flag(4)
            );
        }
        ShaderKind::Geometry => {
            let _ = writeln!(out, "; Geometry Shader");
            let _ = writeln!(out, "; InputPrimitive={}", input_primitive(u32_at(0)));
            let _ = writeln!(out, "; OutputTopology={}", output_topology(u32_at(4)));
            let _ = writeln!(out, "; OutputStreamMask={}", u32_at(8));
            let _ = writeln!(out, "; OutputPositionPresent={}", flag(12));
        }
        ShaderKind::Vertex => {
            let _ = writeln!(out, "; Vertex Shader\n; OutputPositionPresent={}", flag(0));
        }
        ShaderKind::Pixel => {
            let _ = writeln!(
                out,
                "; Pixel Shader\n; DepthOutput={}\n; SampleFrequency={}",
                flag(0),
                flag(1)
            );
        }
        ShaderKind::Compute if compute_stages => {
            out.push_str("; Compute Shader\n");
            write_group(psv, info, block, out);
        }
        ShaderKind::Amplification if compute_stages => {
            out.push_str("; Amplification Shader\n");
            write_group(psv, info, block, out);
        }
        ShaderKind::Mesh if compute_stages => {
            out.push_str("; Mesh Shader\n");
            if psv.version >= 1 {
                let topology = match info.mesh_output_topology().unwrap_or(0) {
                    0 => "undefined",
                    1 => "line",
                    2 => "triangle",
                    _ => "invalid",
                };
                let _ = writeln!(out, "; MeshOutputTopology={topology}");
            }
            write_group(psv, info, block, out);
        }
        _ => {}
    }
}

/// `; NumThreads=(x,y,z)` (version 2 on) and, in the block, the group
/// shared memory size (version 4 on).
fn write_group(psv: &Psv0<'_>, info: &RuntimeInfo, block: bool, out: &mut String) {
    if let Some([x, y, z]) = info.num_threads.filter(|_| psv.version >= 2) {
        let _ = writeln!(out, "; NumThreads=({x},{y},{z})");
    }
    if block {
        if let Some(bytes) = info.num_bytes_group_shared_memory {
            let _ = writeln!(out, "; NumBytesGroupSharedMemory: {bytes}");
        }
    }
}

fn tessellator_domain(value: u32) -> &'static str {
    match value {
        1 => "isoline",
        2 => "tri",
        3 => "quad",
        _ => "invalid",
    }
}

fn tessellator_output(value: u32) -> &'static str {
    match value {
        1 => "point",
        2 => "line",
        3 => "triangle_cw",
        4 => "triangle_ccw",
        _ => "invalid",
    }
}

fn input_primitive(value: u32) -> String {
    match value {
        1 => "point".into(),
        2 => "line".into(),
        3 => "triangle".into(),
        6 => "lineadj".into(),
        7 => "triangleadj".into(),
        8..=39 => format!("patch{}", value - 7),
        _ => "invalid".into(),
    }
}

fn output_topology(value: u32) -> &'static str {
    match value {
        1 => "point",
        3 => "line",
        5 => "triangle",
        _ => "invalid",
    }
}
