//! The text view of SHDR and SHEX.

use super::*;

pub(super) fn write(
    out: &mut Out<'_>,
    s: &crate::dxbc::ShaderBytecode,
    program: Option<&crate::listing::dxbc::summary::ProgramSummary>,
) -> io::Result<()> {
    out.field("Profile", s.profile())?;
    out.field("ProgramType", s.program_type)?;
    out.field("LengthInWords", s.length_dwords)?;
    if let Some(p) = program {
        out.field("Instructions", p.instruction_count)?;
        out.field("Declarations", p.declaration_count)?;
        if let Some(e) = &p.error {
            out.field("ProgramError", e)?;
        }
    }
    Ok(())
}
