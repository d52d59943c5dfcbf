//! The default dxinfo view: readable text in the style of llvm-readobj.
//!
//! ```text
//! File: shader.dxil
//! Format: DXContainer
//! Version: 1.0
//! FileSize: 5970 (0x1752)
//! Digest: 8a3c…91 (retail)
//! PartCount: 7
//! Parts [
//!   #  Name  Offset      Size  CRC32     Note
//!   0  SFI0  0x00000040     8  1b7d2a01
//!   …
//! ]
//! Part 0 SFI0 {
//!   …decoded fields…
//! }
//! ```
//!
//! The fields of each decoder family are written by a file of their own,
//! named as the decoder's module in `parts/` (`text/psv0.rs` for
//! `parts/psv0.rs`); `write_decoded` picks it by an exhaustive `match` over
//! [`Decoded`], so a new family does not compile until it has one.

mod aon9;
mod debug_name;
mod dxbc;
mod hash;
mod private;
mod program;
mod psv0;
mod rdat;
mod rdef;
mod rts0;
mod sfi0;
mod signature;
mod source_info;
mod spdb;
mod stat;
mod version;

use super::verify::verify;
use super::{alignment_note, Inspection};
use crate::decode::Decoded;
use crate::fields::lossy;
use crate::private::PrivateContent;
use crate::spdb::MsfSuperblock;
use crate::Finding;
use crate::{Container, HashStatus, Part};
use std::fmt::Display;
use std::io::{self, Write};

/// Options of the text view.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions {
    /// Print the source text held in SRCI parts, not only the file names.
    pub sources: bool,
}

/// An indenting line writer.
struct Out<'w> {
    w: &'w mut dyn Write,
    indent: usize,
}

impl Out<'_> {
    fn line(&mut self, text: impl Display) -> io::Result<()> {
        writeln!(self.w, "{:width$}{text}", "", width = self.indent * 2)
    }

    fn field(&mut self, name: &str, value: impl Display) -> io::Result<()> {
        self.line(format_args!("{name}: {value}"))
    }

    fn open(&mut self, text: impl Display) -> io::Result<()> {
        self.line(text)?;
        self.indent += 1;
        Ok(())
    }

    fn close(&mut self, text: &str) -> io::Result<()> {
        self.indent = self.indent.saturating_sub(1);
        self.line(text)
    }

    fn issues(&mut self, issues: &[&Finding]) -> io::Result<()> {
        for &i in issues {
            // Inside the part's block: the sentence without the part.
            let i = Finding {
                part: None,
                ..i.clone()
            };
            self.line(format_args!("issue: {i}"))?;
        }
        Ok(())
    }
}

/// Quoted text, with control characters and quotes escaped.
fn quoted(bytes: &[u8]) -> String {
    format!("{:?}", lossy(bytes))
}

/// Writes the one-line-per-part listing (`--parts`).
pub fn write_parts(w: &mut dyn Write, container: &Container<'_>) -> io::Result<()> {
    for p in container.parts() {
        writeln!(w, "{}", part_row(&p))?;
    }
    Ok(())
}

/// One row of the parts table: index, name, header offset, size, CRC-32, note.
pub fn part_row(p: &Part<'_>) -> String {
    let row = format!(
        "{:<3} {:<4}  {:#010x} {:>9}  {:08x}  {}",
        p.index,
        p.name,
        p.offset,
        p.size(),
        p.crc32(),
        alignment_note(p).unwrap_or("")
    );
    row.trim_end().to_string()
}

/// Writes the full text view of one container.
pub fn write_text(
    w: &mut dyn Write,
    file: &str,
    insp: &Inspection<'_>,
    options: TextOptions,
) -> io::Result<()> {
    let c = &insp.container;
    let h = c.header();
    let mut out = Out { w, indent: 0 };
    out.field("File", file)?;
    out.field("Format", "DXContainer")?;
    out.field("Version", format_args!("{}.{}", h.major, h.minor))?;
    let len = c.data().len() as u64;
    if u64::from(h.file_size) == len {
        out.field(
            "FileSize",
            format_args!("{} ({:#x})", h.file_size, h.file_size),
        )?;
    } else {
        out.field(
            "FileSize",
            format_args!(
                "{} ({:#x}), file length {len} ({len:#x})",
                h.file_size, h.file_size
            ),
        )?;
    }
    out.field(
        "Digest",
        format_args!("{} ({})", crate::fields::hex(&h.digest), c.digest_kind()),
    )?;
    out.field("PartCount", h.part_count)?;
    if let Some(info) = &insp.pdb {
        out.open("PDB {")?;
        out.line("Source: dxc companion PDB (MSF 7.00); the container above is its stream 5")?;
        out.field("GUID", info.guid_string())?;
        let matches = match insp.pdb_guid_matches_hash() {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "no HASH part",
        };
        out.field("GUID = HASH digest", matches)?;
        out.field("Age", info.age)?;
        out.field("Signature", info.signature)?;
        out.field("Version", info.version)?;
        out.close("}")?;
    }
    out.open("Parts [")?;
    out.line("#   Name  Offset          Size  CRC32     Note")?;
    for p in &insp.parts {
        out.line(part_row(&p.part))?;
    }
    out.close("]")?;
    for p in &insp.parts {
        out.open(format_args!("Part {} {} {{", p.part.index, p.part.name))?;
        match &p.decoded {
            Ok(d) => write_decoded(&mut out, insp, p, d, options)?,
            Err(e) => out.line(format_args!("error: {e}"))?,
        }
        match p.module.as_deref() {
            Some(Ok(facts)) => {
                out.open("Module {")?;
                for (name, value) in facts.text_fields() {
                    out.field(name, value)?;
                }
                out.close("}")?;
            }
            Some(Err(_)) => {
                out.open("Module {")?;
                if let Some(message) = p.module_error_message() {
                    out.line(format_args!("error: {message}"))?;
                }
                out.close("}")?;
            }
            None => {}
        }
        out.close("}")?;
    }
    let v = verify(insp);
    if !v.checks.is_empty() {
        out.open("Findings [")?;
        for check in &v.checks {
            out.line(format_args!("{}: {check}", check.severity()))?;
        }
        out.close("]")?;
    }
    Ok(())
}

fn write_decoded(
    out: &mut Out<'_>,
    insp: &Inspection<'_>,
    part: &super::Inspected<'_>,
    decoded: &Decoded<'_>,
    options: TextOptions,
) -> io::Result<()> {
    match decoded {
        Decoded::Program(p) => program::write(out, p)?,
        Decoded::Hash(h) => hash::write(out, insp, h)?,
        Decoded::Signature(sig) => signature::write(out, sig)?,
        Decoded::Psv0(p) => psv0::write(out, p)?,
        Decoded::RootSignature(rs) => rts0::write(out, rs)?,
        Decoded::FeatureFlags(f) => sfi0::write(out, f)?,
        Decoded::DebugName(d) => debug_name::write(out, d)?,
        Decoded::Version(v) => version::write(out, v)?,
        Decoded::SourceInfo(s) => source_info::write(out, options, s)?,
        Decoded::Private(p) => private::write(out, p)?,
        Decoded::Shader(s) => dxbc::write(out, s, part.program.as_deref())?,
        Decoded::Rdef(r) => rdef::write(out, r)?,
        Decoded::Stat(s) => stat::write(out, s)?,
        Decoded::Aon9(a) => aon9::write(out, a)?,
        Decoded::Rdat(r) => rdat::write(out, r)?,
        Decoded::DebugBlob(b) => spdb::write(out, b)?,
        Decoded::Unknown => out.line("(no decoder for this part)")?,
    }
    out.issues(&decoded.issues())
}

fn write_msf(out: &mut Out<'_>, msf: &MsfSuperblock) -> io::Result<()> {
    out.field("BlockSize", msf.block_size)?;
    out.field(
        "NumBlocks",
        format_args!(
            "{}{}",
            msf.num_blocks,
            if msf.dxc_block_count_quirk {
                " (one less than stored: dxc's off-by-one)"
            } else {
                ""
            }
        ),
    )?;
    out.field("DirectoryBytes", msf.num_directory_bytes)?;
    out.field("BlockMapBlock", msf.block_map_addr)?;
    if let Some(n) = msf.streams {
        out.field("Streams", n)?;
    }
    if let Some(g) = &msf.guid {
        out.field("GUID", g)?;
    }
    if let Some(n) = msf.container_stream_size {
        out.field(
            "Stream5",
            format_args!("{n} bytes (dxc keeps the DXIL container here)"),
        )?;
    }
    Ok(())
}

/// Component mask as letters: `xyzw` with `-` for clear bits, `-` for 0.
pub fn mask_letters(mask: u8) -> String {
    if mask & 0xf == 0 {
        return "-".to_string();
    }
    crate::listing::dxbc::sm4::mask_letters(mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug_name::encode as build_debug_name;
    use crate::fixtures::build_source_info;
    use crate::hash::md5_of;
    use crate::private::build_debug_path;
    use crate::program::{build_program_data, ShaderKind};
    use crate::testutil::{build, sign};

    fn text_of(bytes: &[u8], options: TextOptions) -> String {
        let insp = Inspection::parse(bytes).unwrap();
        let mut out = Vec::new();
        write_text(&mut out, "x.dxil", &insp, options).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn header_table_and_parts() {
        let bitcode = b"BC\xc0\xde\x01\x02\x03\x04";
        let dxil = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, bitcode);
        let mut hash = 0u32.to_le_bytes().to_vec();
        hash.extend_from_slice(&md5_of(bitcode));
        let srci = build_source_info(
            &[(b"main.hlsl", b"line1\nline2")],
            &[(b"T", b"ps_6_0"), (b"Zi", b""), (b"", b"main.hlsl")],
            false,
        );
        let bytes = sign(build(&[
            (b"ILDN", &build_debug_name(b"a.pdb").unwrap()),
            (b"HASH", &hash),
            (b"DXIL", &dxil),
            (b"SRCI", &srci),
            (b"FKE0", b"abc"),
            (b"PRIV", &build_debug_path(b"lz4#d/x.pdb")),
        ]));
        let t = text_of(&bytes, TextOptions::default());
        assert!(
            t.starts_with("File: x.dxil\nFormat: DXContainer\nVersion: 1.0\n"),
            "{t}"
        );
        assert!(t.contains("(retail)"), "{t}");
        assert!(t.contains("PartCount: 6"));
        assert!(t.contains("  2   DXIL  0x"), "{t}");
        assert!(t.contains("unpadded size"));
        assert!(t.contains("Part 2 DXIL {\n  Profile: ps_6_0\n"), "{t}");
        assert!(t.contains("Status: matches the DXIL bitcode"));
        assert!(t.contains("Name: \"a.pdb\""));
        assert!(t.contains("Args: -T ps_6_0 -Zi main.hlsl"), "{t}");
        assert!(t.contains("\"main.hlsl\" (11 bytes, 2 lines)"));
        assert!(!t.contains("| line1"));
        assert!(t.contains("Path: \"d/x.pdb\"\n  LZ4: true"), "{t}");
        assert!(t.contains("(no decoder for this part)"));
        assert!(
            t.contains("Findings [\n  note: part 4 'FKE0' at offset"),
            "{t}"
        );
        let t = text_of(&bytes, TextOptions { sources: true });
        assert!(t.contains("| line1\n"), "{t}");
    }

    #[test]
    fn errors_issues_and_mismatches() {
        let dxil = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, b"BC\xc0\xde");
        let bytes = build(&[
            (b"HASH", &[0; 20]),
            (b"DXIL", &dxil),
            (b"SHEX", &[1]),
            (b"ILDN", &[3, 0, 0, 0, 0, 0, 0, 0]),
        ]);
        let t = text_of(&bytes, TextOptions::default());
        assert!(t.contains("Status: MISMATCH"), "{t}");
        assert!(t.contains("error: part 2 'SHEX'"), "{t}");
        assert!(
            t.contains("issue: reserved flags are 0x3, not 0 (at offset"),
            "{t}"
        );
        assert!(t.contains("(zero)"));
    }

    #[test]
    fn module_block_under_each_program_part() {
        // examples/sample.dxil: DXIL, ILDB and STAT hold the same llvm-as 22 bitcode.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
        let sample = std::fs::read(path).unwrap();
        let t = text_of(&sample, TextOptions::default());
        assert_eq!(
            t.matches("  BitcodeMagic: BC C0DE\n  Module {\n").count(),
            3,
            "{t}"
        );
        assert!(t.contains("  Module {\n    Producer: \"LLVM"), "{t}");
        assert!(
            t.contains(
                "    Triple: \"dxil-unknown-shadermodel6.0-pixel\"\n    DataLayout: \"e-m:e-p:32:32-i1:32-i8:8-"
            ),
            "{t}"
        );
        assert!(
            t.contains(
                "    FunctionsDefined: \"main\"\n    FunctionsDeclared: 0\n    DxOps: none\n  }\n}"
            ),
            "{t}"
        );
        // Without module facts: the same text minus the blocks.
        let insp = Inspection::with_module_facts(Container::parse(&sample).unwrap(), false);
        let mut out = Vec::new();
        write_text(&mut out, "x.dxil", &insp, TextOptions::default()).unwrap();
        let without = String::from_utf8(out).unwrap();
        assert!(!without.contains("Module {"), "{without}");
        assert_eq!(without.lines().count() + 3 * 8, t.lines().count());

        // A block whose length word runs past the stream.
        let dxil = build_program_data(
            6,
            0,
            ShaderKind::Pixel,
            1,
            0,
            &[0x42, 0x43, 0xc0, 0xde, 0x21, 0x0c, 0, 0, 1, 0, 0, 0],
        );
        let bytes = build(&[(b"DXIL", &dxil)]);
        let t = text_of(&bytes, TextOptions::default());
        // The part's data starts at 44, the bitcode 24 bytes further.
        assert!(
            t.contains("  Module {\n    error: part 0 'DXIL': bitcode at bit "),
            "{t}"
        );
        assert!(
            t.contains("(the bitcode starts at file offset 0x44)\n  }\n}"),
            "{t}"
        );
    }

    #[test]
    fn parts_listing() {
        let bytes = build(&[(b"DXIL", b"abcd"), (b"a\0/b", b"x")]);
        let c = Container::parse(&bytes).unwrap();
        let mut out = Vec::new();
        write_parts(&mut out, &c).unwrap();
        let t = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].starts_with("0   DXIL  0x00000028         4  "),
            "{t}"
        );
        assert!(lines[1].starts_with("1   a\\x00/b  0x00000034"), "{t}");
        assert!(lines[1].ends_with("unpadded size"));
    }
}
