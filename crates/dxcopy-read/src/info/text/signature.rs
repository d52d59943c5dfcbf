//! The text view of signature parts (ISG1, OSGN, …).

use super::*;

pub(super) fn write(out: &mut Out<'_>, sig: &crate::signature::Signature<'_>) -> io::Result<()> {
    out.field("Format", format_args!("{:?}", sig.format))?;
    out.open(format_args!("Elements ({}) [", sig.elements.len()))?;
    for e in &sig.elements {
        let stream = e
            .stream
            .map(|s| format!(", stream {s}"))
            .unwrap_or_default();
        let precision = e
            .min_precision
            .map(|p| format!(", min precision {p}"))
            .unwrap_or_default();
        let register = if e.register == u32::MAX {
            "no register".to_string()
        } else {
            format!("register {}", e.register)
        };
        out.line(format_args!(
            "{}{}: {}, {}, {register}, mask {}, rw {}{precision}{stream}",
            e.name_lossy(),
            e.semantic_index,
            e.system_value,
            e.component_type,
            mask_letters(e.mask),
            mask_letters(e.rw_mask)
        ))?;
    }
    out.close("]")?;
    Ok(())
}
