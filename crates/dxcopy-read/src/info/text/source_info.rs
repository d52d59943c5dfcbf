//! The text view of SRCI.

use super::*;

pub(super) fn write(
    out: &mut Out<'_>,
    options: TextOptions,
    s: &crate::source_info::SourceInfo<'_>,
) -> io::Result<()> {
    out.field("AlignedSize", s.aligned_size)?;
    out.field("Flags", s.flags)?;
    out.open("Sections [")?;
    for sec in &s.sections {
        out.line(format_args!(
            "{} at {:#x}, {} bytes",
            sec.section_type, sec.offset, sec.aligned_size
        ))?;
    }
    out.close("]")?;
    if let Some(c) = &s.contents {
        out.field(
            "Contents",
            format_args!(
                "{} entries, {} ({} bytes stored, {} uncompressed)",
                c.count, c.compression, c.entries_size, c.uncompressed_size
            ),
        )?;
    }
    out.open("Files [")?;
    for (name, text) in s.files() {
        match text {
            Some(t) => out.line(format_args!(
                "{} ({} bytes, {} lines)",
                quoted(name),
                t.len(),
                t.split(|&b| b == b'\n').count()
            ))?,
            None => out.line(format_args!("{} (no contents)", quoted(name)))?,
        }
        if options.sources {
            if let Some(t) = text {
                out.indent += 1;
                for l in lossy(t).lines() {
                    out.line(format_args!("| {l}"))?;
                }
                out.indent -= 1;
            }
        }
    }
    out.close("]")?;
    if let Some(a) = &s.args {
        let rendered: Vec<String> = a
            .args
            .iter()
            .map(|arg| match (arg.name.is_empty(), arg.value.is_empty()) {
                (true, _) => lossy(arg.value).into_owned(),
                (false, true) => format!("-{}", lossy(arg.name)),
                (false, false) => format!("-{} {}", lossy(arg.name), lossy(arg.value)),
            })
            .collect();
        out.field("Args", rendered.join(" "))?;
    }
    Ok(())
}
