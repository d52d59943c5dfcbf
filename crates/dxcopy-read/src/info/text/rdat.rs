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
    if !r.signature_elements.is_empty() {
        out.open(format_args!(
            "SignatureElements ({}) [",
            r.signature_elements.len()
        ))?;
        for e in &r.signature_elements {
            let component = crate::dxil::metadata::CompType::from_raw(u32::from(e.component_type));
            let row = if e.start_row == 0xff {
                "unallocated".to_string()
            } else {
                format!("row {} col {}", e.start_row, e.start_col)
            };
            // DXIL::SemanticKind and InterpolationMode number as PSV0's.
            out.line(format_args!(
                "{}{:?}: {}, {}, {}, {} cols, {row}, stream {}, usage {:#x}, dynamic {:#x}",
                lossy(e.semantic_name),
                e.semantic_indices,
                crate::psv0::SemanticKind::from_raw(e.semantic_kind),
                component,
                crate::psv0::InterpolationMode::from_raw(e.interpolation_mode),
                e.cols,
                e.output_stream,
                e.usage_mask,
                e.dynamic_index_mask
            ))?;
        }
        out.close("]")?;
    }
    Ok(())
}
