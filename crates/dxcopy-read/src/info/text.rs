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

use super::verify::verify;
use super::{alignment_note, Inspection};
use crate::decode::Decoded;
use crate::fields::lossy;
use crate::private::PrivateContent;
use crate::rdef::ShaderType;
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
            Ok(d) => write_decoded(&mut out, insp, d, options)?,
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
    decoded: &Decoded<'_>,
    options: TextOptions,
) -> io::Result<()> {
    match decoded {
        Decoded::Program(p) => {
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
        }
        Decoded::Hash(h) => {
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
        }
        Decoded::Signature(sig) => {
            out.field("Format", format_args!("{:?}", sig.format))?;
            out.open(format_args!("Elements ({}) [", sig.elements.len()))?;
            for e in &sig.elements {
                let stream = e
                    .stream
                    .map(|s| format!(", stream {s}"))
                    .unwrap_or_default();
                let precision = e
                    .min_precision
                    .map(|p| format!(", min precision {p}"))
                    .unwrap_or_default();
                let register = if e.register == u32::MAX {
                    "no register".to_string()
                } else {
                    format!("register {}", e.register)
                };
                out.line(format_args!(
                    "{}{}: {}, {}, {register}, mask {}, rw {}{precision}{stream}",
                    e.name_lossy(),
                    e.semantic_index,
                    e.system_value,
                    e.component_type,
                    mask_letters(e.mask),
                    mask_letters(e.rw_mask)
                ))?;
            }
            out.close("]")?;
        }
        Decoded::Psv0(p) => {
            out.field("Version", p.version)?;
            out.field("RuntimeInfoSize", p.runtime_info_size)?;
            if let Some(stage) = p.stage {
                out.field("Stage", stage.to_string())?;
            }
            out.field("StageInfo", format_args!("{:?}", p.runtime_info.stage_info))?;
            out.field(
                "WaveLaneCount",
                format_args!(
                    "{}..{}",
                    p.runtime_info.minimum_wave_lane_count, p.runtime_info.maximum_wave_lane_count
                ),
            )?;
            if let Some(n) = p
                .runtime_info
                .num_threads
                .filter(|n| n.iter().any(|&x| x != 0))
            {
                out.field("NumThreads", format_args!("{} {} {}", n[0], n[1], n[2]))?;
            }
            if let Some(name) = p.entry_name {
                out.field("EntryName", quoted(name))?;
            }
            out.open(format_args!("Resources ({}) [", p.resources.len()))?;
            for r in &p.resources {
                let kind = r.kind.map(|k| format!(" {k}")).unwrap_or_default();
                out.line(format_args!(
                    "{}{kind}: space {} [{}..{}]",
                    r.resource_type,
                    r.space,
                    r.lower_bound,
                    if r.upper_bound == u32::MAX {
                        "unbounded".to_string()
                    } else {
                        r.upper_bound.to_string()
                    }
                ))?;
            }
            out.close("]")?;
            for (title, list) in [
                ("InputElements", &p.input_elements),
                ("OutputElements", &p.output_elements),
                ("PatchOrPrimElements", &p.patch_or_prim_elements),
            ] {
                if list.is_empty() {
                    continue;
                }
                out.open(format_args!("{title} ({}) [", list.len()))?;
                for e in list {
                    out.line(format_args!(
                        "{} {:?}: {} {}, rows {} from {}, cols {} from {}, {}",
                        lossy(e.name),
                        e.indices,
                        e.kind,
                        e.component_type,
                        e.rows,
                        e.start_row,
                        e.cols,
                        e.start_col,
                        e.interpolation
                    ))?;
                }
                out.close("]")?;
            }
        }
        Decoded::RootSignature(rs) => {
            out.field("Version", rs.version)?;
            out.field("Flags", rs.flags)?;
            out.open(format_args!("Parameters ({}) [", rs.parameters.len()))?;
            for (i, param) in rs.parameters.iter().enumerate() {
                let payload = match &param.payload {
                    crate::rts0::ParameterPayload::Constants(c) => format!(
                        "{} values at b{} space {}",
                        c.num_32bit_values, c.shader_register, c.register_space
                    ),
                    crate::rts0::ParameterPayload::Descriptor(d) => format!(
                        "register {} space {}{}",
                        d.shader_register,
                        d.register_space,
                        d.flags.map(|f| format!(", {f}")).unwrap_or_default()
                    ),
                    crate::rts0::ParameterPayload::Table(t) => {
                        let ranges: Vec<String> = t
                            .ranges
                            .iter()
                            .map(|r| {
                                format!(
                                    "{} x{} from {} space {}",
                                    r.range_type,
                                    r.num_descriptors as i32,
                                    r.base_shader_register,
                                    r.register_space
                                )
                            })
                            .collect();
                        format!("table [{}]", ranges.join("; "))
                    }
                };
                out.line(format_args!(
                    "{i}: {} ({}): {payload}",
                    param.parameter_type, param.visibility
                ))?;
            }
            out.close("]")?;
            out.open(format_args!(
                "StaticSamplers ({}) [",
                rs.static_samplers.len()
            ))?;
            for sm in &rs.static_samplers {
                out.line(format_args!(
                    "s{} space {} ({}): {}, address {}/{}/{}, {}",
                    sm.shader_register,
                    sm.register_space,
                    sm.visibility,
                    sm.filter,
                    sm.address_u,
                    sm.address_v,
                    sm.address_w,
                    sm.comparison_func
                ))?;
            }
            out.close("]")?;
        }
        Decoded::FeatureFlags(f) => {
            out.field("Flags", format_args!("{:#x}", f.flags.0))?;
            for name in f.flags.names() {
                out.line(format_args!("  {name}"))?;
            }
        }
        Decoded::DebugName(d) => {
            out.field("Flags", d.flags)?;
            out.field("NameLength", d.name_length)?;
            out.field("Name", quoted(d.name))?;
        }
        Decoded::Version(v) => {
            out.field("Version", format_args!("{}.{}", v.major, v.minor))?;
            out.field("Flags", v.flags)?;
            out.field("CommitCount", v.commit_count)?;
            out.field("CommitSha", quoted(v.commit_sha))?;
            out.field("VersionString", quoted(v.version_string))?;
        }
        Decoded::SourceInfo(s) => {
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
        }
        Decoded::Private(p) => {
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
        }
        Decoded::Shader(s) => {
            out.field("Profile", s.profile())?;
            out.field("ProgramType", s.program_type)?;
            out.field("LengthInWords", s.length_dwords)?;
            if let Some(p) = &s.program {
                out.field("Instructions", p.instruction_count)?;
                out.field("Declarations", p.declaration_count)?;
                if let Some(e) = &p.error {
                    out.field("ProgramError", e)?;
                }
            }
        }
        Decoded::Rdef(r) => {
            out.field("Target", r.profile())?;
            out.field("Creator", quoted(r.creator))?;
            out.field("CompileFlags", r.compile_flags)?;
            if let Some(h) = &r.rd11 {
                out.field(
                    "RD11",
                    format_args!(
                        "header {}, cbuffer {}, binding {}, variable {}, type {}, member {}, interface slots {}",
                        h.header_size,
                        h.cbuffer_size,
                        h.binding_size,
                        h.variable_size,
                        h.type_size,
                        h.member_size,
                        h.interface_slots
                    ),
                )?;
            }
            out.open(format_args!(
                "ConstantBuffers ({}) [",
                r.constant_buffers.len()
            ))?;
            for cb in &r.constant_buffers {
                out.open(format_args!(
                    "{} {} {{ // {} bytes{}",
                    cb.kind,
                    lossy(cb.name),
                    cb.size,
                    if cb.flags.bits() != 0 {
                        format!(", {}", cb.flags)
                    } else {
                        String::new()
                    }
                ))?;
                for v in &cb.variables {
                    write_member(
                        out,
                        &v.var_type,
                        v.name,
                        &format!(
                            "offset {}, size {}{}",
                            v.start_offset,
                            v.size,
                            if v.flags.bits() != 0 {
                                format!(", {}", v.flags)
                            } else {
                                String::new()
                            }
                        ),
                        0,
                    )?;
                }
                out.close("}")?;
            }
            out.close("]")?;
            out.open(format_args!("BoundResources ({}) [", r.resources.len()))?;
            for b in &r.resources {
                let mut line = format!(
                    "{} {}: slot {}, count {}",
                    b.input_type,
                    lossy(b.name),
                    b.bind_point,
                    b.bind_count
                );
                if b.return_type.raw() != 0 {
                    line.push_str(&format!(", {} {}", b.return_type, b.dimension));
                }
                // NumSamples holds the stride for structured buffers.
                if matches!(b.input_type.raw(), 5 | 6 | 9 | 10 | 11) {
                    line.push_str(&format!(", stride {}", b.sample_count));
                } else if matches!(b.dimension.raw(), 6 | 7) && b.sample_count != u32::MAX {
                    line.push_str(&format!(", {} samples", b.sample_count));
                }
                if let Some(space) = b.space {
                    line.push_str(&format!(", space {space}"));
                }
                if b.flags.bits() != 0 {
                    line.push_str(&format!(", {}", b.flags));
                }
                out.line(line)?;
            }
            out.close("]")?;
        }
        Decoded::Stat(s) => {
            for (name, value) in &s.counters {
                out.field(name, value)?;
            }
        }
        Decoded::Aon9(a) => {
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
        }
        Decoded::Rdat(r) => {
            out.field("Version", format_args!("{:#x}", r.version))?;
            out.open(format_args!("Parts ({}) [", r.parts.len()))?;
            for p in &r.parts {
                match (p.record_count, p.record_stride) {
                    (Some(n), Some(stride)) => out.line(format_args!(
                        "{}: {} records of {} bytes",
                        p.part_type, n, stride
                    ))?,
                    _ => out.line(format_args!("{}: {} bytes", p.part_type, p.size))?,
                }
            }
            out.close("]")?;
            out.field("Strings", r.strings.len())?;
            out.field("IndexWords", r.index_words)?;
            out.field("RawBytes", r.raw_bytes_size)?;
            out.open(format_args!("Resources ({}) [", r.resources.len()))?;
            for res in &r.resources {
                out.line(format_args!(
                    "{} {} {}: space {} [{}..{}], id {}{}",
                    res.class,
                    res.kind,
                    quoted(res.name),
                    res.space,
                    res.lower_bound,
                    if res.upper_bound == u32::MAX {
                        "unbounded".to_string()
                    } else {
                        res.upper_bound.to_string()
                    },
                    res.id,
                    if res.flags.bits() != 0 {
                        format!(", {}", res.flags)
                    } else {
                        String::new()
                    }
                ))?;
            }
            out.close("]")?;
            out.open(format_args!("Functions ({}) [", r.functions.len()))?;
            for f in &r.functions {
                out.line(format_args!(
                    "{} {} ({}): {} resources, {} dependencies, feature flags {:#x}",
                    f.shader_kind,
                    quoted(f.unmangled_name),
                    quoted(f.name),
                    f.resources.len(),
                    f.dependencies.len(),
                    f.feature_flags
                ))?;
            }
            out.close("]")?;
        }
        Decoded::DebugBlob(b) => {
            out.field("Size", b.size)?;
            match &b.msf {
                Some(msf) => {
                    out.field("Content", "PDB file (MSF 7.00)")?;
                    write_msf(out, msf)?;
                }
                None => out.field("Content", "opaque")?,
            }
        }
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
    "xyzw"
        .chars()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, c)| c)
        .collect()
}

/// HLSL-like spelling of a type: `float4`, `float4x4`, `uint`, a struct name.
pub fn type_name(t: &ShaderType<'_>) -> String {
    if let Some(n) = t.name {
        if !n.is_empty() {
            return lossy(n).into_owned();
        }
    }
    let base = t.base_type.to_string();
    match t.class.raw() {
        1 => format!("{base}{}", t.columns),
        2 | 3 => format!("{base}{}x{}", t.rows, t.columns),
        5 => "struct".to_string(),
        _ => base,
    }
}

fn write_member(
    out: &mut Out<'_>,
    t: &ShaderType<'_>,
    name: &[u8],
    comment: &str,
    depth: usize,
) -> io::Result<()> {
    let array = if t.elements > 0 {
        format!("[{}]", t.elements)
    } else {
        String::new()
    };
    if t.members.is_empty() || depth > 16 {
        out.line(format_args!(
            "{} {}{array}; // {comment}",
            type_name(t),
            lossy(name)
        ))
    } else {
        out.open(format_args!("{} {{", type_name(t)))?;
        for m in &t.members {
            write_member(
                out,
                &m.member_type,
                m.name,
                &format!("offset {}", m.offset),
                depth + 1,
            )?;
        }
        out.close(&format!("}} {}{array}; // {comment}", lossy(name)))
    }
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
            t.contains("Findings [\n  warning: part 4 'FKE0' at offset"),
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

    #[test]
    fn type_names() {
        use crate::rdef::{VariableClass, VariableType};
        let mut t = ShaderType {
            offset: 0,
            class: VariableClass::from_raw(1),
            base_type: VariableType::from_raw(3),
            rows: 1,
            columns: 3,
            elements: 0,
            member_count: 0,
            name: None,
            members: Vec::new(),
        };
        assert_eq!(type_name(&t), "float3");
        t.class = VariableClass::from_raw(3);
        t.rows = 4;
        t.columns = 4;
        assert_eq!(type_name(&t), "float4x4");
        t.class = VariableClass::from_raw(0);
        t.base_type = VariableType::from_raw(19);
        assert_eq!(type_name(&t), "uint");
        t.name = Some(b"MyStruct");
        assert_eq!(type_name(&t), "MyStruct");
    }
}
