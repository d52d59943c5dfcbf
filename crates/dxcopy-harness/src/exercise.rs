//! Everything the tools do to an input, in process, on one byte string.

use crate::verify::{verify_output, Violation};
use dxcopy_edit::{dump, DumpMode, EditPlan, NameMatcher, StripClass};
use dxcopy_read::{Container, PartName, Program, ShaderHash};
use std::fmt::Write as _;

/// What [`exercise`] got through, for the sweep's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// The container parsed.
    pub parsed: bool,
    /// Part decodes attempted (program, HASH, and the part decoders).
    pub decodes: usize,
    /// Edit plans that finished and were written and verified.
    pub written: usize,
    /// Edit plans or dumps that ended in an error (a pass: hostile input).
    pub edit_errors: usize,
}

/// Parse + check, every decoder, then the sweep's edit plans (strip-debug,
/// remove STAT, set-private, dump DXIL bitcode and raw, extract DXIL), each
/// written to memory and checked with [`verify_output`].
///
/// Errors from the library are a pass and are counted; a [`Violation`] is a
/// bug. Panics propagate (the sweep catches them, the fuzzer reports them).
pub fn exercise(bytes: &[u8]) -> Result<Summary, Violation> {
    let mut summary = Summary::default();
    let mut sink = String::new();
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
    for part in container.parts() {
        let _ = part.crc32();
        if matches!(part.name, PartName::DXIL | PartName::ILDB | PartName::STAT) {
            summary.decodes += 1;
            match Program::parse(&part) {
                Ok(p) => {
                    let _ = (
                        p.profile(),
                        p.has_bitcode_magic(),
                        p.size_matches(part.size()),
                    );
                    let _ = write!(sink, "{}", p.shader_kind.name());
                }
                Err(e) => {
                    let _ = write!(sink, "{e}");
                }
            }
        }
        if part.name == PartName::HASH {
            summary.decodes += 1;
            match ShaderHash::parse(&part) {
                Ok(h) => {
                    let _ = (h.verify(&container), h.pdb_name());
                }
                Err(e) => {
                    let _ = write!(sink, "{e}");
                }
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
    Ok(summary)
}
