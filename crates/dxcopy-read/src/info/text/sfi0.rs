//! The text view of SFI0.

use super::*;

pub(super) fn write(out: &mut Out<'_>, f: &crate::sfi0::Sfi0) -> io::Result<()> {
    out.field("Flags", format_args!("{:#x}", f.flags.0))?;
    for name in f.flags.names() {
        out.line(format_args!("  {name}"))?;
    }
    Ok(())
}
