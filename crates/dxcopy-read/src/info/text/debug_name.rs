//! The text view of ILDN.

use super::*;

pub(super) fn write(out: &mut Out<'_>, d: &crate::debug_name::DebugName<'_>) -> io::Result<()> {
    out.field("Flags", d.flags)?;
    out.field("NameLength", d.name_length)?;
    out.field("Name", quoted(d.name))?;
    Ok(())
}
