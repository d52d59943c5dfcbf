//! The text view of PSV0.

use super::*;

pub(super) fn write(out: &mut Out<'_>, p: &crate::psv0::Psv0<'_>) -> io::Result<()> {
    out.field("Version", p.version)?;
    out.field("RuntimeInfoSize", p.runtime_info_size)?;
    if let Some(stage) = p.stage {
        out.field("Stage", stage.to_string())?;
    }
    out.field("StageInfo", format_args!("{:?}", p.runtime_info.stage_info))?;
    out.field(
        "WaveLaneCount",
        format_args!(
            "{}..{}",
            p.runtime_info.minimum_wave_lane_count, p.runtime_info.maximum_wave_lane_count
        ),
    )?;
    if let Some(n) = p
        .runtime_info
        .num_threads
        .filter(|n| n.iter().any(|&x| x != 0))
    {
        out.field("NumThreads", format_args!("{} {} {}", n[0], n[1], n[2]))?;
    }
    if let Some(name) = p.entry_name {
        out.field("EntryName", quoted(name))?;
    }
    if let Some(bytes) = p.runtime_info.num_bytes_group_shared_memory {
        out.field("NumBytesGroupSharedMemory", bytes)?;
    }
    out.open(format_args!("Resources ({}) [", p.resources.len()))?;
    for r in &p.resources {
        let kind = r.kind.map(|k| format!(" {k}")).unwrap_or_default();
        out.line(format_args!(
            "{}{kind}: space {} [{}..{}]",
            r.resource_type,
            r.space,
            r.lower_bound,
            if r.upper_bound == u32::MAX {
                "unbounded".to_string()
            } else {
                r.upper_bound.to_string()
            }
        ))?;
    }
    out.close("]")?;
    for (title, list) in [
        ("InputElements", &p.input_elements),
        ("OutputElements", &p.output_elements),
        ("PatchOrPrimElements", &p.patch_or_prim_elements),
    ] {
        if list.is_empty() {
            continue;
        }
        out.open(format_args!("{title} ({}) [", list.len()))?;
        for e in list {
            out.line(format_args!(
                "{} {:?}: {} {}, rows {} from {}, cols {} from {}, {}",
                lossy(e.name),
                e.indices,
                e.kind,
                e.component_type,
                e.rows,
                e.start_row,
                e.cols,
                e.start_col,
                e.interpolation
            ))?;
        }
        out.close("]")?;
    }
    Ok(())
}
