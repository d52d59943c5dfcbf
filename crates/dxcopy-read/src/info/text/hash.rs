//! The text view of HASH.

use super::*;

pub(super) fn write(
    out: &mut Out<'_>,
    insp: &Inspection<'_>,
    h: &crate::hash::ShaderHash,
) -> io::Result<()> {
    out.field(
        "Flags",
        match h.flags {
            0 => "0 (None)".to_string(),
            1 => "1 (IncludesSource)".to_string(),
            f => format!("{f:#x}"),
        },
    )?;
    out.field("Digest", crate::fields::hex(&h.digest))?;
    out.field("DefaultPDBName", h.pdb_name())?;
    let status = match h.verify(&insp.container) {
        HashStatus::Valid => format!("matches the {} bitcode", h.source_part()),
        HashStatus::Mismatch { computed } => format!(
            "MISMATCH: the {} bitcode hashes to {}",
            h.source_part(),
            crate::fields::hex(&computed)
        ),
        HashStatus::NoBitcode { source } => format!("not checked: no {source} part"),
    };
    out.field("Status", status)?;
    Ok(())
}
