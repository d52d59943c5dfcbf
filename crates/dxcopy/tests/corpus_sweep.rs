//! Corpus sweep: every container of `../shared/corpus` (all MANIFEST.tsv rows
//! except the MSF PDBs) through the reader and the edit plan, in process.
//!
//! Per file: it parses; its layout and digest kind are what the manifest says;
//! a no-op rewrite is byte-identical when the input is contiguous (and a clean
//! re-layout of the same parts when not); strip-debug, `-R STAT` and
//! set-private give containers that re-parse with the expected parts, no new
//! warnings, a valid digest of the input's kind (an invalid digest is copied
//! byte for byte) and an unchanged HASH part. On contiguous inputs, adding
//! then stripping PRIV, and replacing the DXIL bitcode with itself, give the
//! input back byte for byte.

mod common;

use dxcopy_edit::{EditPlan, EditWarning, MatchStyle, NameMatcher, StripClass};
use dxcopy_harness::corpus::{manifest_or_skip, Row};
use dxcopy_read::{Container, DigestKind, Finding, FindingKind, PartName, Program, Severity};
use std::collections::{BTreeMap, BTreeSet};

/// PRIV data for set-private: an odd size, so the part stays unpadded and last.
const PRIVATE_DATA: &[u8] = b"dxcopy corpus sweep";

/// One edit applied to every container.
struct Edit {
    label: &'static str,
    apply: fn(&mut EditPlan<'_>),
    /// Whether an input part of this name survives the edit.
    keeps: fn(PartName) -> bool,
    /// Whether the edit appends PRIV holding [`PRIVATE_DATA`].
    adds_private: bool,
}

const EDITS: &[Edit] = &[
    Edit {
        label: "no-op",
        apply: |_| {},
        keeps: |_| true,
        adds_private: false,
    },
    Edit {
        label: "strip-debug",
        apply: |plan| {
            plan.strip(StripClass::Debug);
        },
        keeps: |name| !StripClass::Debug.covers(&name),
        adds_private: false,
    },
    Edit {
        label: "-R STAT",
        apply: |plan| {
            let stat = NameMatcher::from_patterns(&["STAT"], MatchStyle::Glob).expect("pattern");
            plan.remove(&stat);
        },
        keeps: |name| name != PartName::STAT,
        adds_private: false,
    },
    Edit {
        label: "set-private",
        apply: |plan| plan.set_private(PRIVATE_DATA.to_vec()),
        keeps: |name| name != PartName::PRIV,
        adds_private: true,
    },
];

/// Counts for one edit over the corpus.
#[derive(Default)]
struct EditTally {
    /// Outputs that passed every check.
    valid: usize,
    /// Outputs whose part list differs from the input's.
    changed: usize,
    /// Outputs of signed (retail/debug) inputs that were re-signed with the same kind.
    resigned: usize,
    /// Outputs of invalid-digest inputs whose digest bytes were copied.
    invalid_copied: usize,
    /// Outputs of inputs with a HASH part that kept it byte for byte.
    hash_unchanged: usize,
}

#[derive(Default)]
struct Sweep {
    files: usize,
    file_kinds: BTreeMap<String, usize>,
    parsed: usize,
    layout_matches: usize,
    digest_matches: usize,
    digest_kinds: BTreeMap<&'static str, usize>,
    contiguous: usize,
    noop_identical: usize,
    /// `file: reasons` for inputs that are not contiguous.
    not_contiguous: Vec<String>,
    /// Contiguous inputs restored byte for byte by set-private then strip-priv.
    private_round_trips: usize,
    /// Contiguous inputs whose DXIL part holds LLVM bitcode.
    with_dxil: usize,
    /// Of those, byte-identical after replacing the DXIL bitcode with itself.
    dxil_self_updates: usize,
    edits: Vec<EditTally>,
    failures: Vec<String>,
}

/// A finding reduced to what it is about, without offsets that move when the
/// container is rewritten, so input and output findings can be compared.
fn finding_key(finding: &Finding) -> String {
    let name = finding.part.map(|p| p.name.to_string()).unwrap_or_default();
    match &finding.kind {
        FindingKind::FileSizeMismatch { .. } => "FileSize mismatch".into(),
        FindingKind::Gap { .. } => "gap".into(),
        FindingKind::UnsortedOffsets { .. } => "unsorted offsets".into(),
        FindingKind::DuplicateName { .. } => format!("duplicate {name}"),
        FindingKind::PrivNotLast => "PRIV not last".into(),
        FindingKind::MultiplePriv => "more than one PRIV".into(),
        FindingKind::UnknownPart => format!("unknown part {name}"),
        FindingKind::Misaligned => format!("misaligned {name}"),
        FindingKind::DigestInvalid { .. } => "digest invalid".into(),
        other => format!("{other:?}"),
    }
}

fn warning_keys(container: &Container<'_>) -> BTreeSet<String> {
    container
        .check()
        .iter()
        .filter(|f| f.severity() == Severity::Warning)
        .map(finding_key)
        .collect()
}

/// Why a container is not contiguous, from its findings.
fn non_contiguous_reasons(container: &Container<'_>) -> String {
    let reasons: Vec<String> = container
        .check()
        .iter()
        .filter(|f| {
            matches!(
                f.kind,
                FindingKind::FileSizeMismatch { .. }
                    | FindingKind::Gap { .. }
                    | FindingKind::UnsortedOffsets { .. }
                    | FindingKind::PrivNotLast
            )
        })
        .map(ToString::to_string)
        .collect();
    if reasons.is_empty() {
        "no finding explains it".into()
    } else {
        reasons.join("; ")
    }
}

/// Adds PRIV, re-parses, strips it again: the bytes of the second output.
fn private_round_trip(input: &Container<'_>) -> Result<Vec<u8>, String> {
    let mut plan = EditPlan::from_container(input);
    plan.set_private(PRIVATE_DATA.to_vec());
    let with_private = plan.finish().map_err(|e| e.to_string())?.to_vec();
    let c = Container::parse(&with_private).map_err(|e| e.to_string())?;
    let mut plan = EditPlan::from_container(&c);
    plan.strip(StripClass::Priv);
    Ok(plan.finish().map_err(|e| e.to_string())?.to_vec())
}

fn check_manifest_layout(row: &Row, container: &Container<'_>) -> Result<(), String> {
    let size = container.data().len() as u64;
    if size != row.size {
        return Err(format!("size {size}, manifest says {}", row.size));
    }
    let names: Vec<String> = container.parts().map(|p| p.name.to_string()).collect();
    let sizes: Vec<u32> = container.parts().map(|p| p.size()).collect();
    if names != row.parts || sizes != row.part_sizes {
        return Err(format!(
            "parts {names:?} {sizes:?}, manifest says {:?} {:?}",
            row.parts, row.part_sizes
        ));
    }
    Ok(())
}

/// Applies `edit` to `input`, checks the output and counts it in `tally`.
fn check_edit(input: &Container<'_>, edit: &Edit, tally: &mut EditTally) -> Result<(), String> {
    let input_kind = input.digest_kind();
    let input_findings = input.check();
    let priv_not_last = input_findings
        .iter()
        .any(|f| f.kind == FindingKind::PrivNotLast);

    let mut plan = EditPlan::from_container(input);
    (edit.apply)(&mut plan);
    let output = plan.finish().map_err(|e| format!("finish: {e}"))?;
    let unexpected: Vec<String> = output
        .warnings()
        .iter()
        .filter(|w| match w {
            EditWarning::InvalidDigestKept => input_kind != DigestKind::Invalid,
            EditWarning::PrivMovedLast => !priv_not_last,
            _ => true,
        })
        .map(ToString::to_string)
        .collect();
    if !unexpected.is_empty() {
        return Err(format!("unexpected warnings: {}", unexpected.join("; ")));
    }
    let bytes = output.to_vec();
    let out = Container::parse(&bytes).map_err(|e| format!("output does not parse: {e}"))?;
    if !out.is_contiguous() {
        return Err("output is not contiguous".into());
    }

    // Parts: the input's survivors byte for byte, PRIV last, then any new PRIV.
    let mut expected: Vec<(PartName, &[u8])> = input
        .parts()
        .filter(|p| (edit.keeps)(p.name))
        .map(|p| (p.name, p.data))
        .collect();
    if let Some(i) = expected.iter().position(|(n, _)| *n == PartName::PRIV) {
        let private = expected.remove(i);
        expected.push(private);
    }
    if edit.adds_private {
        expected.push((PartName::PRIV, PRIVATE_DATA));
    }
    let got: Vec<(PartName, &[u8])> = out.parts().map(|p| (p.name, p.data)).collect();
    if got != expected {
        let names = |v: &[(PartName, &[u8])]| -> Vec<String> {
            v.iter().map(|(n, d)| format!("{n}:{}", d.len())).collect()
        };
        return Err(format!(
            "parts {:?}, expected {:?}",
            names(&got),
            names(&expected)
        ));
    }

    // A part dxcopy places starts on a 4-byte boundary, whatever the input's
    // packing (1-3 zero bytes before it are alignment, not a gap: the
    // contiguity check above and the warning check below both hold).
    if edit.adds_private {
        let private = out.parts().last().expect("PRIV");
        if private.offset % 4 != 0 {
            return Err(format!(
                "PRIV placed at unaligned offset {:#x}",
                private.offset
            ));
        }
    }

    let new_warnings: Vec<String> = warning_keys(&out)
        .difference(&warning_keys(input))
        .cloned()
        .collect();
    if !new_warnings.is_empty() {
        return Err(format!("new warnings: {}", new_warnings.join(", ")));
    }

    let output_kind = out.digest_kind();
    if output_kind != input_kind {
        return Err(format!(
            "digest kind {output_kind}, input's is {input_kind}"
        ));
    }
    if input_kind == DigestKind::Invalid && out.header().digest != input.header().digest {
        return Err("invalid input digest was not copied byte for byte".into());
    }

    let input_hash = input.find(PartName::HASH).map(|p| p.data);
    let output_hash = out.find(PartName::HASH).map(|p| p.data);
    if input_hash != output_hash {
        return Err(format!(
            "HASH part changed: {input_hash:02x?} became {output_hash:02x?}"
        ));
    }

    tally.valid += 1;
    if got.len() != input.part_count() as usize || edit.adds_private {
        tally.changed += 1;
    }
    match input_kind {
        DigestKind::Retail | DigestKind::Debug => tally.resigned += 1,
        DigestKind::Invalid => tally.invalid_copied += 1,
        _ => {}
    }
    if input_hash.is_some() {
        tally.hash_unchanged += 1;
    }
    Ok(())
}

fn sweep_file(row: &Row, sweep: &mut Sweep) {
    let fail = |sweep: &mut Sweep, what: &str, msg: String| {
        sweep.failures.push(format!("{}: {what}: {msg}", row.rel));
    };
    let data = match std::fs::read(&row.path) {
        Ok(d) => d,
        Err(e) => return fail(sweep, "read", e.to_string()),
    };
    let container = match Container::parse(&data) {
        Ok(c) => c,
        Err(e) => return fail(sweep, "parse", e.to_string()),
    };
    sweep.parsed += 1;

    match check_manifest_layout(row, &container) {
        Ok(()) => sweep.layout_matches += 1,
        Err(msg) => fail(sweep, "manifest layout", msg),
    }

    let kind = container.digest_kind();
    if kind.as_str() == row.digest_kind {
        sweep.digest_matches += 1;
        *sweep.digest_kinds.entry(kind.as_str()).or_default() += 1;
    } else {
        fail(
            sweep,
            "digest kind",
            format!("{kind}, manifest says {}", row.digest_kind),
        );
    }

    if container.is_contiguous() {
        sweep.contiguous += 1;
        match EditPlan::from_container(&container).finish() {
            Ok(out) if out.to_vec() == data => sweep.noop_identical += 1,
            Ok(_) => fail(sweep, "no-op", "rewrite is not byte-identical".into()),
            Err(e) => fail(sweep, "no-op", e.to_string()),
        }
        match private_round_trip(&container) {
            Ok(bytes) if bytes == data => sweep.private_round_trips += 1,
            Ok(_) => fail(
                sweep,
                "set-private + strip-priv",
                "not byte-identical".into(),
            ),
            Err(msg) => fail(sweep, "set-private + strip-priv", msg),
        }
        if let Some(program) = container
            .find(PartName::DXIL)
            .and_then(|p| Program::parse(&p).ok())
            .filter(Program::has_bitcode_magic)
        {
            sweep.with_dxil += 1;
            let mut plan = EditPlan::from_container(&container);
            match plan
                .update(PartName::DXIL, program.bitcode.to_vec())
                .and_then(|()| plan.finish())
            {
                Ok(out) if out.to_vec() == data => sweep.dxil_self_updates += 1,
                Ok(_) => fail(sweep, "DXIL self-update", "not byte-identical".into()),
                Err(e) => fail(sweep, "DXIL self-update", e.to_string()),
            }
        }
    } else {
        sweep.not_contiguous.push(format!(
            "{} ({})",
            row.short(),
            non_contiguous_reasons(&container)
        ));
    }

    for (edit, tally) in EDITS.iter().zip(sweep.edits.iter_mut()) {
        if let Err(msg) = check_edit(&container, edit, tally) {
            sweep
                .failures
                .push(format!("{}: {}: {msg}", row.rel, edit.label));
        }
    }
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_sweep() {
    let Some((_, rows)) = manifest_or_skip("corpus sweep") else {
        return;
    };
    let mut sweep = Sweep {
        edits: EDITS.iter().map(|_| EditTally::default()).collect(),
        ..Sweep::default()
    };
    for row in rows.iter().filter(|r| r.is_container()) {
        sweep.files += 1;
        *sweep.file_kinds.entry(row.kind.clone()).or_default() += 1;
        sweep_file(row, &mut sweep);
    }
    let skipped_pdbs = rows.len() - sweep.files;

    println!(
        "corpus sweep: {} files ({}; {skipped_pdbs} msf-pdb rows not containers), {} parsed, {} match the manifest's size and parts",
        sweep.files,
        common::tally(&sweep.file_kinds),
        sweep.parsed,
        sweep.layout_matches
    );
    println!(
        "corpus sweep: {} digest kinds match the manifest ({})",
        sweep.digest_matches,
        common::tally(&sweep.digest_kinds)
    );
    println!(
        "corpus sweep: {} no-op identical of {} contiguous ({} not contiguous: {})",
        sweep.noop_identical,
        sweep.contiguous,
        sweep.not_contiguous.len(),
        sweep.not_contiguous.join("; ")
    );
    println!(
        "corpus sweep: {} set-private + strip-priv round trips identical, {} of {} DXIL bitcode self-updates identical (contiguous inputs)",
        sweep.private_round_trips, sweep.dxil_self_updates, sweep.with_dxil
    );
    for (edit, tally) in EDITS.iter().zip(&sweep.edits) {
        println!(
            "corpus sweep: {}: {} valid outputs ({} with changed parts), re-parse with no new warnings; {} re-signed with the input's kind, {} invalid digests copied, {} HASH parts unchanged",
            edit.label, tally.valid, tally.changed, tally.resigned, tally.invalid_copied, tally.hash_unchanged
        );
    }

    common::assert_no_failures("corpus sweep", &sweep.failures);
    assert!(sweep.files > 0);
    assert_eq!(sweep.parsed, sweep.files);
    assert_eq!(sweep.layout_matches, sweep.files);
    assert_eq!(sweep.digest_matches, sweep.files);
    assert_eq!(sweep.noop_identical, sweep.contiguous);
    assert_eq!(sweep.contiguous + sweep.not_contiguous.len(), sweep.files);
    assert_eq!(sweep.private_round_trips, sweep.contiguous);
    assert_eq!(sweep.dxil_self_updates, sweep.with_dxil);
    assert!(sweep.with_dxil > 0);
    for tally in &sweep.edits {
        assert_eq!(tally.valid, sweep.files);
    }
}
