//! The text view of Aon9, XNAS and XNAP.

use super::*;

pub(super) fn write(out: &mut Out<'_>, a: &crate::aon9::Level9Shader) -> io::Result<()> {
    out.field("Profile", a.profile())?;
    out.field("Size", a.size)?;
    out.field(
        "Program",
        format_args!("{} bytes at {:#x}", a.program_size, a.program_offset),
    )?;
    if let Some(t) = a.program_version_token {
        out.field("ProgramVersionToken", format_args!("{t:#010x}"))?;
    }
    for m in &a.mappings {
        out.field(
            &format!("{}Mappings", m.name),
            format_args!("{} at {:#x}", m.count, m.offset),
        )?;
    }
    Ok(())
}
