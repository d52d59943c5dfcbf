//! The text view of PRIV.

use super::*;

pub(super) fn write(out: &mut Out<'_>, p: &crate::private::PrivateData<'_>) -> io::Result<()> {
    out.field("Size", p.size)?;
    match &p.content {
        PrivateContent::Opaque => out.field("Content", "opaque")?,
        PrivateContent::Pdb(msf) => {
            out.field("Content", "PDB file (MSF 7.00)")?;
            write_msf(out, msf)?;
        }
        PrivateContent::DebugPath { path, lz4 } => {
            out.field("Content", "RenderDoc debug-info path")?;
            out.field("Path", quoted(path))?;
            out.field("LZ4", lz4)?;
        }
    }
    Ok(())
}
