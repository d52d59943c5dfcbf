//! The text view of DXIL, ILDB and dxc STAT parts: the program header.

use super::*;

pub(super) fn write(out: &mut Out<'_>, p: &crate::program::Program<'_>) -> io::Result<()> {
    out.field("Profile", p.profile())?;
    out.field("ShaderKind", p.shader_kind.to_string())?;
    out.field(
        "ShaderModel",
        format_args!("{}.{}", p.model_major, p.model_minor),
    )?;
    out.field(
        "DXILVersion",
        format_args!("{}.{}", p.dxil_major, p.dxil_minor),
    )?;
    out.field("SizeInWords", p.size_in_words)?;
    out.field("BitcodeOffset", p.bitcode_offset)?;
    out.field("BitcodeSize", p.bitcode_size)?;
    out.field(
        "BitcodeMagic",
        if p.has_bitcode_magic() {
            "BC C0DE"
        } else {
            "missing"
        },
    )?;
    Ok(())
}
