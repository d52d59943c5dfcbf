//! The text view of RDAT.

use super::*;

pub(super) fn write(out: &mut Out<'_>, r: &crate::rdat::RuntimeData<'_>) -> io::Result<()> {
    out.field("Version", format_args!("{:#x}", r.version))?;
    out.open(format_args!("Parts ({}) [", r.parts.len()))?;
    for p in &r.parts {
        match (p.record_count, p.record_stride) {
            (Some(n), Some(stride)) => out.line(format_args!(
                "{}: {} records of {} bytes",
                p.part_type, n, stride
            ))?,
            _ => out.line(format_args!("{}: {} bytes", p.part_type, p.size))?,
        }
    }
    out.close("]")?;
    out.field("Strings", r.strings.len())?;
    out.field("IndexWords", r.index_words)?;
    out.field("RawBytes", r.raw_bytes_size)?;
    out.open(format_args!("Resources ({}) [", r.resources.len()))?;
    for res in &r.resources {
        out.line(format_args!(
            "{} {} {}: space {} [{}..{}], id {}{}",
            res.class,
            res.kind,
            quoted(res.name),
            res.space,
            res.lower_bound,
            if res.upper_bound == u32::MAX {
                "unbounded".to_string()
            } else {
                res.upper_bound.to_string()
            },
            res.id,
            if res.flags.bits() != 0 {
                format!(", {}", res.flags)
            } else {
                String::new()
            }
        ))?;
    }
    out.close("]")?;
    out.open(format_args!("Functions ({}) [", r.functions.len()))?;
    for f in &r.functions {
        out.line(format_args!(
            "{} {} ({}): {} resources, {} dependencies, feature flags {:#x}",
            f.shader_kind,
            quoted(f.unmangled_name),
            quoted(f.name),
            f.resources.len(),
            f.dependencies.len(),
            f.feature_flags
        ))?;
    }
    out.close("]")?;
    Ok(())
}
