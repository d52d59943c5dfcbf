//! The text view of SPDB and SDBG.

use super::*;

pub(super) fn write(out: &mut Out<'_>, b: &crate::spdb::DebugBlob) -> io::Result<()> {
    out.field("Size", b.size)?;
    match &b.msf {
        Some(msf) => {
            out.field("Content", "PDB file (MSF 7.00)")?;
            write_msf(out, msf)?;
        }
        None => out.field("Content", "opaque")?,
    }
    Ok(())
}
