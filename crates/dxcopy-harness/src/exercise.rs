//! Everything the tools do to an input, in process, on one byte string.

use crate::decode::{decode_named, decode_one, decode_part_compat};
use crate::verify::{ensure, verify_output, Violation};
use dxcopy_edit::debug::{extract_private_pdb, split_debug, PdbTarget, SplitOptions};
use dxcopy_edit::{dump, DumpMode, EditPlan, NameMatcher, StripClass};
use dxcopy_read::info::json::{self, write_json};
use dxcopy_read::info::text::{write_parts, write_text, TextOptions};
use dxcopy_read::info::verify::verify;
use dxcopy_read::info::yaml::{to_obj2yaml, YamlOptions};
use dxcopy_read::info::Inspection;
use dxcopy_read::{container_input, is_msf, Container, PartName, Pdb, Program, ShaderHash};
use std::fmt::Write as _;

/// What [`exercise`] got through, for the sweep's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// The container parsed (for a PDB: its stream-5 container).
    pub parsed: bool,
    /// The input was an MSF PDB that the PDB reader accepted.
    pub pdb_parsed: bool,
    /// Part decodes attempted (program, HASH, and the part decoders).
    pub decodes: usize,
    /// Edit plans that finished and were written and verified.
    pub written: usize,
    /// Edit plans or dumps that ended in an error (a pass: hostile input).
    pub edit_errors: usize,
}

/// Parse + check, every decoder, the obj2yaml view, then the sweep's edit
/// plans (strip-debug, remove STAT, set-private, dump DXIL bitcode and raw,
/// extract DXIL, split-debug), each written to memory and checked with
/// [`verify_output`]. An MSF PDB goes through [`exercise_pdb`].
///
/// Errors from the library are a pass and are counted; a [`Violation`] is a
/// bug. Panics propagate (the sweep catches them, the fuzzer reports them).
pub fn exercise(bytes: &[u8]) -> Result<Summary, Violation> {
    if is_msf(bytes) {
        return exercise_pdb(bytes);
    }
    exercise_container(bytes)
}

/// The PDB reader on `bytes`: parse, info, every stream, the stream-5
/// container (which then goes through everything [`exercise`] does).
pub fn exercise_pdb(bytes: &[u8]) -> Result<Summary, Violation> {
    let mut sink = crate::Discard::default();
    let pdb = match Pdb::parse(bytes) {
        Ok(p) => p,
        Err(e) => {
            let _ = write!(sink, "{e} {e:?}");
            let _ = container_input(bytes).map(|c| c.is_from_pdb());
            return Ok(Summary::default());
        }
    };
    let info = pdb.info();
    let _ = write!(
        sink,
        "{} {info:?} {}",
        info.guid_string(),
        pdb.file_blocks()
    );
    for i in 0..pdb.stream_count() {
        let size = pdb.stream_size(i);
        let _ = (
            pdb.is_nil_stream(i),
            pdb.stream_offset(i),
            pdb.is_contiguous(i),
        );
        let blocks = pdb.stream_blocks(i).count();
        if let Some(stream) = pdb.stream(i) {
            ensure!(
                size.is_some_and(|s| s as usize == stream.len()),
                "PDB stream {i}: {} bytes read, size says {size:?}",
                stream.len()
            );
            ensure!(
                stream.len() <= bytes.len() && blocks as u64 <= pdb.file_blocks(),
                "PDB stream {i} is larger than the file"
            );
        }
    }
    // An fxc PDB (`/Fd`) is what fxc embeds as SPDB: the listing's notes
    // decoder reads it too.
    crate::decode::debug_notes_data(PartName(*b"SPDB"), bytes, 0, &mut sink);
    let input = container_input(bytes);
    let mut summary = match pdb.container_bytes() {
        Ok(container) => {
            ensure!(
                input.as_ref().is_ok_and(|i| i.bytes == container),
                "container_input and container_bytes disagree"
            );
            exercise_container(&container)?
        }
        Err(e) => {
            let _ = write!(sink, "{e}");
            Summary::default()
        }
    };
    summary.pdb_parsed = true;
    Ok(summary)
}

fn exercise_container(bytes: &[u8]) -> Result<Summary, Violation> {
    let mut summary = Summary::default();
    let mut sink = crate::Discard::default();
    let container = match Container::parse(bytes) {
        Ok(c) => c,
        Err(e) => {
            // Formatting must not panic either.
            let _ = write!(sink, "{e}");
            return Ok(summary);
        }
    };
    summary.parsed = true;
    for finding in container.check() {
        let _ = write!(sink, "{finding} {:?}", finding.severity());
    }
    let _ = container.is_contiguous();
    let _ = container.digest_kind();
    let kind = [PartName::DXIL, PartName::ILDB]
        .iter()
        .find_map(|&n| container.find(n))
        .and_then(|p| Program::parse(&p).ok())
        .map(|p| p.shader_kind);
    for part in container.parts() {
        let _ = part.crc32();
        summary.decodes += decode_named(part.name, part.data, part.data_offset(), kind, &mut sink);
        summary.decodes += decode_one(&container, &part, &mut sink);
        summary.decodes += decode_part_compat(&part, kind, &mut sink);
        if matches!(part.name, PartName::DXIL | PartName::ILDB | PartName::STAT) {
            if let Ok(p) = Program::parse(&part) {
                let _ = (p.has_bitcode_magic(), p.size_matches(part.size()));
                let _ = write!(sink, "{}", p.shader_kind);
                summary.decodes += crate::bitcode::exercise_bitcode(p.bitcode, &mut sink)
                    .map_err(|v| Violation(format!("part {} bitcode: {v}", part.name)))?;
            }
        }
        if part.name == PartName::HASH {
            if let Ok(h) = ShaderHash::parse(&part) {
                let _ = h.verify(&container);
            }
        }
    }
    // The disassembler's sections before the program (RDEF, signatures, Level9).
    let mut listing = String::new();
    let legacy = dxcopy_read::listing::dxbc::ListingOptions {
        rounding: dxcopy_read::listing::dxbc::FloatRounding::Legacy,
        release: Some(dxcopy_read::listing::dxbc::FxcRelease::V9_29),
        ..Default::default()
    };
    if let Err(e) =
        dxcopy_read::listing::dxbc::header::write_header_sections(&container, &legacy, &mut listing)
    {
        let _ = write!(sink, "{e} {e:?}");
    }
    summary.decodes += 1;
    // The DXIL listing's header and the module's dx.* metadata.
    summary.decodes += crate::dxil_header::exercise_header(&container, &mut sink);
    // dxinfo --disasm: the whole listing (cut short at a malformed token).
    // Streamed, as dxinfo writes it.
    let mut counted = crate::decode::CountingSink(0);
    match dxcopy_read::listing::dxbc::write_listing(
        &container,
        "sweep",
        &Default::default(),
        &mut counted,
    ) {
        Ok(Ok(errors)) => {
            let _ = write!(sink, "{} {:?}", counted.0, errors);
        }
        Ok(Err(e)) => {
            let _ = write!(sink, "{e}");
        }
        Err(e) => {
            let _ = write!(sink, "{e}");
        }
    }
    // dxinfo --reflect: JSON and dxc's dump layout (a decode error is a pass).
    match dxcopy_read::Reflection::from_container(&container) {
        Ok(r) => {
            let _ = dxcopy_read::reflect::write_json(&mut std::io::sink(), "in", &r, false);
            let _ = write!(sink, "{}", dxcopy_read::reflect::text::to_text(&r).len());
        }
        Err(e) => {
            let _ = write!(sink, "{e}");
        }
    }
    summary.decodes += 1;
    // dxinfo's views: text (with sources), JSON, --verify, --parts.
    let inspection = Inspection::new(container);
    // Streamed to a sink, as dxinfo streams to stdout: what is measured is
    // the views' own memory, not the size of their output.
    let mut view = std::io::sink();
    let _ = write_text(&mut view, "in", &inspection, TextOptions { sources: true });
    let _ = write_parts(&mut view, &container);
    let _ = write_json(&mut view, &json::document("in", &inspection), true);
    let verification = verify(&inspection);
    let _ = (
        verification.summary(container.part_count() as usize),
        verification.is_clean(),
    );
    for upstream_keys in [false, true] {
        match to_obj2yaml(&container, &YamlOptions { upstream_keys }) {
            Ok(yaml) => drop(yaml),
            Err(e) => {
                let _ = write!(sink, "{e:?}");
            }
        }
    }

    type Edit = fn(&mut EditPlan<'_>);
    let plans: [(&str, Edit); 3] = [
        ("strip-debug", |p| {
            p.strip(StripClass::Debug);
        }),
        ("remove STAT", |p| {
            p.remove(&NameMatcher::exact(PartName::STAT));
        }),
        ("set-private", |p| p.set_private(b"dxcopy sweep".to_vec())),
    ];
    for (what, edit) in plans {
        let mut plan = EditPlan::from_container(&container);
        edit(&mut plan);
        match plan.finish() {
            Ok(out) => {
                let written = out.to_vec();
                verify_output(Some(&container), &out, &written)
                    .map_err(|v| Violation(format!("{what}: {v}")))?;
                summary.written += 1;
            }
            Err(e) => {
                let _ = write!(sink, "{e}");
                summary.edit_errors += 1;
            }
        }
    }

    let dxil = NameMatcher::exact(PartName::DXIL);
    for mode in [DumpMode::Bitcode, DumpMode::Raw] {
        match dump(&container, &dxil, "DXIL", mode) {
            Ok(bytes) => {
                // The dump is a slice of the input (zero-copy), never more.
                let inside = container.data().as_ptr_range();
                let range = bytes.as_ptr_range();
                crate::verify::ensure!(
                    inside.start <= range.start && range.end <= inside.end,
                    "dump DXIL ({mode:?}) is not a slice of the input"
                );
            }
            Err(e) => {
                let _ = write!(sink, "{e}");
                summary.edit_errors += 1;
            }
        }
    }
    match dxcopy_edit::extract(&container, &dxil, "DXIL").and_then(|p| p.finish()) {
        Ok(out) => {
            let written = out.to_vec();
            verify_output(Some(&container), &out, &written)
                .map_err(|v| Violation(format!("extract DXIL: {v}")))?;
            summary.written += 1;
        }
        Err(e) => {
            let _ = write!(sink, "{e}");
            summary.edit_errors += 1;
        }
    }
    for (target, pdb_in_private) in [(None, true), (Some(PdbTarget::parse("out/")), false)] {
        let options = SplitOptions {
            target,
            pdb_in_private,
        };
        match split_debug(EditPlan::from_container(&container), &options) {
            Ok(split) => {
                let written = split.main.to_vec();
                verify_output(Some(&container), &split.main, &written)
                    .map_err(|v| Violation(format!("split-debug: {v}")))?;
                let pdb = Pdb::parse(&split.pdb)
                    .map_err(|e| Violation(format!("split-debug PDB does not parse: {e}")))?;
                ensure!(
                    pdb.info().guid == split.hash.digest,
                    "split-debug PDB GUID is not the HASH digest"
                );
                let inner = pdb
                    .container_bytes()
                    .map_err(|e| Violation(format!("split-debug PDB has no container: {e}")))?;
                Container::parse(&inner)
                    .map_err(|e| Violation(format!("split-debug PDB container: {e}")))?;
                let main = Container::parse(&written).map_err(|e| Violation(e.to_string()))?;
                ensure!(
                    main.find(PartName::ILDB).is_none() && main.find(PartName::SRCI).is_none(),
                    "split-debug left debug parts in the main container"
                );
                if pdb_in_private {
                    ensure!(
                        extract_private_pdb(&main).is_ok_and(|p| p == split.pdb),
                        "PDB in PRIV: the PRIV part is not the split-off PDB"
                    );
                }
                summary.written += 1;
            }
            Err(e) => {
                let _ = write!(sink, "{e}");
                summary.edit_errors += 1;
            }
        }
    }
    Ok(summary)
}

/// The file-to-file writer ([`dxcopy_edit::Output::write_file_from`]: kernel
/// copies from the memory-mapped input, hashing beside the copy) against the
/// in-memory writer: `bytes` is written to `dir/in.bin`, mapped, and each of
/// the sweep's plans (plus forced retail, debug and keep digests) is written
/// both ways; the files must be identical and the returned digest the stored
/// one. Only inputs above the writer's 64 KiB small-output threshold take its
/// copy path, so smaller ones are skipped. Returns how many outputs were compared.
pub fn exercise_file_writer(bytes: &[u8], dir: &std::path::Path) -> Result<usize, Violation> {
    use dxcopy_edit::DigestPolicy;
    use dxcopy_read::MappedFile;
    if bytes.len() <= 64 << 10 || Container::parse(bytes).is_err() {
        return Ok(0);
    }
    let io = |e: std::io::Error| Violation(format!("file writer I/O: {e}"));
    let input_path = dir.join("in.bin");
    std::fs::write(&input_path, bytes).map_err(io)?;
    let mapped = MappedFile::open(&input_path).map_err(io)?;
    let container = Container::parse(&mapped).map_err(|e| Violation(e.to_string()))?;
    type Edit = fn(&mut EditPlan<'_>);
    let plans: [(&str, Edit); 7] = [
        ("no-op", |_| {}),
        ("strip-debug", |p| {
            p.strip(StripClass::Debug);
        }),
        ("remove STAT", |p| {
            p.remove(&NameMatcher::exact(PartName::STAT));
        }),
        ("set-private", |p| p.set_private(b"dxcopy sweep".to_vec())),
        ("digest retail", |p| p.digest_policy = DigestPolicy::Retail),
        ("digest debug + strip-all", |p| {
            p.digest_policy = DigestPolicy::Debug;
            p.strip(StripClass::All);
        }),
        ("digest keep + remove DXIL", |p| {
            p.digest_policy = DigestPolicy::Keep;
            p.remove(&NameMatcher::exact(PartName::DXIL));
        }),
    ];
    let mut compared = 0;
    let out_path = dir.join("out.bin");
    for (what, edit) in plans {
        let mut plan = EditPlan::from_container(&container);
        edit(&mut plan);
        let Ok(out) = plan.finish() else { continue };
        let expected = out.to_vec();
        let mut file = std::fs::File::create(&out_path).map_err(io)?;
        let digest = out.write_file_from(&mapped, &mut file).map_err(io)?;
        drop(file);
        let written = std::fs::read(&out_path).map_err(io)?;
        ensure!(
            written == expected,
            "{what}: write_file_from wrote {} bytes that differ from to_vec's {}",
            written.len(),
            expected.len()
        );
        ensure!(
            written.get(4..20) == Some(&digest[..]),
            "{what}: write_file_from returned a digest that is not the stored one"
        );
        verify_output(Some(&container), &out, &written)
            .map_err(|v| Violation(format!("{what} (file writer): {v}")))?;
        compared += 1;
    }
    Ok(compared)
}
