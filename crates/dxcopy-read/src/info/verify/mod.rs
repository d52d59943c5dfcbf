//! `--verify`: everything that can be checked about a container, as a list
//! of [`Finding`]s, each with its [`Severity`]. Notes are informational (an
//! unsigned container, parts older dxc left unaligned); warnings and errors
//! make the container fail verification.
//!
//! Checked: the header digest (kind and validity), each HASH part against
//! the bitcode it covers, the structural findings of
//! [`Container::check`](crate::Container::check), each part's decode
//! error, each decoder's rule violations, and the LLVM bitstream of each
//! program part (DXIL, ILDB, dxc STAT) as the module-facts reader read it
//! ([`Inspected::module`](super::Inspected::module)).

/// The root-signature coverage check, at its old path (it is a check of
/// parts against each other, so it sits with the decoders).
pub use crate::parts::rts0_coverage as root_signature;

use super::{Inspected, Inspection};
use crate::container::{DIGEST_FIELD, FILE_SIZE_FIELD};
use crate::digest::{self, DigestKind};
use crate::error::PartRef;
use crate::program::Program;
use crate::rts0_coverage::{
    check_container, BindingSource, CheckAgainst, ContainerCoverage, NotChecked,
};
use crate::{Container, Decoded, Finding, FindingKind, HashStatus, Severity};

/// The outcome of HASH verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "snake_case")
)]
pub enum HashCheck {
    /// No HASH part.
    Absent,
    /// The digest matches the bitcode.
    Valid,
    /// The digest differs from the bitcode's MD5.
    Mismatch,
    /// The part it covers (DXIL, or ILDB for flag 1) is missing or undecodable.
    Unverifiable,
    /// The HASH part itself does not decode.
    Undecodable,
}

impl HashCheck {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            HashCheck::Absent => "absent",
            HashCheck::Valid => "valid",
            HashCheck::Mismatch => "mismatch",
            HashCheck::Unverifiable => "unverifiable",
            HashCheck::Undecodable => "undecodable",
        }
    }
}

/// Everything `--verify` reports for one container.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Verification {
    /// Kind of the stored header digest.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser_digest_kind"))]
    pub digest: DigestKind,
    /// HASH part status.
    pub hash: HashCheck,
    /// Number of parts whose decoder failed.
    pub decode_errors: usize,
    /// Findings in order: digest, HASH, structure, then part by part, each
    /// with its part (when it is about one) and offset. The JSON document
    /// holds each as `{ "level", "message" }`.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::checks")
    )]
    pub checks: Vec<Finding>,
}

#[cfg(feature = "serde")]
fn ser_digest_kind<S: serde::Serializer>(k: &DigestKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(k.as_str())
}

impl Verification {
    /// Whether nothing worse than a note was found.
    pub fn is_clean(&self) -> bool {
        self.checks.iter().all(|c| c.severity() == Severity::Note)
    }

    /// Number of warnings and errors.
    pub fn problems(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.severity() > Severity::Note)
            .count()
    }

    /// Whether the container passes: nothing worse than a note, or with
    /// `strict` (`dxinfo --verify --strict`) nothing at all, notes (an
    /// unknown part, an unsigned container, …) being failures too.
    pub fn passes(&self, strict: bool) -> bool {
        if strict {
            self.checks.is_empty()
        } else {
            self.is_clean()
        }
    }

    /// One-line summary: `OK (digest retail, HASH valid, 7 parts decoded)` or
    /// `FAILED (2 problems; digest invalid, …)`.
    pub fn summary(&self, part_count: usize) -> String {
        self.summary_with(part_count, false)
    }

    /// [`Verification::summary`], where with `strict` every finding, notes
    /// included, is a problem ([`Verification::passes`]).
    pub fn summary_with(&self, part_count: usize, strict: bool) -> String {
        let detail = format!(
            "digest {}, HASH {}, {} of {part_count} parts decoded",
            self.digest,
            self.hash.as_str(),
            part_count - self.decode_errors
        );
        if self.passes(strict) {
            format!("OK ({detail})")
        } else {
            let n = if strict {
                self.checks.len()
            } else {
                self.problems()
            };
            format!(
                "FAILED ({n} problem{}; {detail})",
                if n == 1 { "" } else { "s" }
            )
        }
    }
}

/// Runs every check on an inspected container.
pub fn verify(insp: &Inspection<'_>) -> Verification {
    let container = &insp.container;
    let mut checks = Vec::new();

    let (digest_kind, digest_finding) = digest_check(insp);
    checks.extend(digest_finding);

    let (hash, hash_part) = hash_checks(insp, &mut checks);

    if let Some(info) = &insp.pdb {
        let guid = info.guid_string();
        checks.push(match insp.pdb_guid_matches_hash() {
            Some(true) => Finding::new(FindingKind::PdbGuidMatchesHash { guid }).in_part(hash_part),
            Some(false) => Finding::new(FindingKind::PdbGuidDiffers { guid }).in_part(hash_part),
            None => Finding::new(FindingKind::PdbWithoutHash),
        });
    }

    // The digest is reported above, with the expected value.
    checks.extend(container.check_layout());

    let mut decode_errors = 0;
    for p in &insp.parts {
        let part = p.part.part_ref();
        match &p.decoded {
            Err(e) => {
                decode_errors += 1;
                checks.push(
                    Finding::at(e.offset, FindingKind::Undecodable { error: e.clone() })
                        .in_part(part),
                );
            }
            Ok(d) => {
                if let Decoded::Program(program) = d {
                    program_checks(p, program, &mut checks);
                }
                checks.extend(d.issues().into_iter().map(|f| f.clone().in_part(part)));
            }
        }
    }
    checks.extend(coverage_checks(container, CheckAgainst::Own, "its RTS0"));
    // Only where the module facts were read (the bitstream is not read at
    // all under `--no-module-facts`).
    let module_read = insp.parts.iter().any(|p| {
        p.part.name == crate::PartName::DXIL && matches!(p.module.as_deref(), Some(Ok(_)))
    });
    if module_read {
        checks.extend(derived_part_checks(container));
    }

    Verification {
        digest: digest_kind,
        hash,
        decode_errors,
        checks,
    }
}

/// The header digest's kind and, unless it is a valid retail or debug
/// digest, what `--verify` says of it.
fn digest_check(insp: &Inspection<'_>) -> (DigestKind, Option<Finding>) {
    let container = &insp.container;
    let data = container.data();
    let stored = container.header().digest;
    // One pass over the container tells the kind and, for a mismatch, the
    // digest expected (the sentinels need none).
    let computed = match digest::sentinel_kind(&stored) {
        Some(_) => None,
        None => digest::container_digests(data),
    };
    let digest_kind = digest::kind_from_digests(&stored, computed);
    let at_digest = |kind| Some(Finding::at(DIGEST_FIELD, kind));
    let finding = match digest_kind {
        DigestKind::Retail | DigestKind::Debug => None,
        DigestKind::Zero => at_digest(FindingKind::DigestZero),
        DigestKind::Bypass => at_digest(FindingKind::DigestBypass),
        DigestKind::Preview => at_digest(FindingKind::DigestPreview),
        // dxc copies the main shader's digest into its PDB's container.
        DigestKind::Invalid if insp.pdb.is_some() => {
            at_digest(FindingKind::DigestOfShader { stored })
        }
        DigestKind::Invalid => match computed {
            Some((retail, _)) => at_digest(FindingKind::DigestMismatch { stored, retail }),
            None => Some(Finding::at(
                FILE_SIZE_FIELD,
                FindingKind::DigestUncheckable {
                    stored,
                    file_size: container.header().file_size,
                },
            )),
        },
    };
    (digest_kind, finding)
}

/// The HASH part's check (the last HASH part's, when there are several)
/// and that part; its findings go to `checks`.
fn hash_checks(insp: &Inspection<'_>, checks: &mut Vec<Finding>) -> (HashCheck, Option<PartRef>) {
    let container = &insp.container;
    let mut hash = HashCheck::Absent;
    let mut hash_part = None;
    for p in &insp.parts {
        if p.part.name != crate::PartName::HASH {
            continue;
        }
        let part = p.part.part_ref();
        hash_part = hash_part.or(Some(part));
        hash = match &p.decoded {
            Ok(Decoded::Hash(h)) => match h.verify(container) {
                HashStatus::Valid => HashCheck::Valid,
                HashStatus::Mismatch { computed } => {
                    checks.push(
                        // The digest follows the 4-byte flags.
                        Finding::at(
                            p.part.data_offset() + 4,
                            FindingKind::HashMismatch {
                                stored: h.digest,
                                source: h.source_part(),
                                computed,
                            },
                        )
                        .in_part(part),
                    );
                    HashCheck::Mismatch
                }
                HashStatus::NoBitcode { source } => {
                    checks.push(
                        Finding::at(p.part.offset, FindingKind::HashUnverifiable { source })
                            .in_part(part),
                    );
                    HashCheck::Unverifiable
                }
            },
            _ => HashCheck::Undecodable,
        };
    }
    (hash, hash_part)
}

/// The program header's size and magic, and whether its bitstream reads.
fn program_checks(p: &Inspected<'_>, program: &Program<'_>, checks: &mut Vec<Finding>) {
    let part = p.part.part_ref();
    if !program.size_matches(p.part.size()) {
        checks.push(
            // The size in words follows the 4-byte version.
            Finding::at(
                p.part.data_offset() + 4,
                FindingKind::ProgramSizeMismatch {
                    words: program.size_in_words,
                    part_size: p.part.size(),
                },
            )
            .in_part(part),
        );
    }
    if !program.has_bitcode_magic() {
        checks.push(
            Finding::at(program.bitcode_file_offset, FindingKind::BitcodeMagic).in_part(part),
        );
    }
    // The bitstream as the module-facts reader read it (views
    // without module facts do not read it); one that reads
    // is read as a module too, since what the facts do not
    // look at (constants, function bodies) may not read: a
    // constant that contains itself, say.
    let module_error = match p.module.as_deref() {
        // Bitcode without a MODULE block has no facts, and no
        // module to read either.
        Some(Ok(_)) => crate::dxil::OutlinedModule::parse(program.bitcode)
            .err()
            .filter(|e| e.kind != crate::bitcode::BitcodeErrorKind::NoModule),
        Some(Err(e)) => Some(e.clone()),
        None => None,
    };
    if let Some(e) = &module_error {
        let start = program.bitcode_file_offset;
        let at = start + e.bit_offset / 8;
        checks.push(
            Finding::at(
                at,
                FindingKind::BitstreamUnreadable {
                    error: e.clone(),
                    at,
                    start,
                },
            )
            .in_part(part),
        );
    }
}

/// The parts dxc derives from the DXIL module (SFI0, ISG1, OSG1, PSG1,
/// PSV0) checked against the module: one error per part that is missing,
/// extra or different, naming the first field that disagrees. A DXIL part
/// whose module does not read is reported by the bitstream check instead,
/// a module without `dx.version` (not a DXIL module) is passed over, and a
/// module whose metadata cannot give the parts gets a note.
pub fn derived_part_checks(container: &Container<'_>) -> Vec<Finding> {
    use crate::dxil::derived::check_parts;
    let Some(part) = container.find(crate::PartName::DXIL) else {
        return Vec::new();
    };
    let Ok(program) = crate::Program::parse(&part) else {
        return Vec::new();
    };
    let Ok(module) = crate::dxil::Module::parse(program.bitcode) else {
        return Vec::new();
    };
    if module.named_metadata(b"dx.version").is_none() {
        return Vec::new();
    }
    match check_parts(container, &module) {
        Ok(list) => list
            .into_iter()
            .map(|m| {
                let part = container.find(m.part).map(|p| p.part_ref());
                Finding {
                    kind: FindingKind::DerivedPartDiffers {
                        part: m.part,
                        detail: m.detail,
                    },
                    part,
                    offset: part.map(|p| p.offset),
                }
            })
            .collect(),
        Err(e) => vec![Finding::new(FindingKind::DerivedPartsUnchecked {
            reason: e.to_string(),
        })],
    }
}

/// Root-signature coverage of the resource bindings (PSV0's, else RDEF's):
/// one warning per binding that `against` does not cover (`what` names the
/// root signature in the messages). Without a root signature of its own a
/// container gets nothing; checked against an external one but recording no
/// bindings, a warning says that nothing was checked and why. A PSV0, RDEF
/// or RTS0 that does not decode is reported by its decoder instead.
pub fn coverage_checks(
    container: &Container<'_>,
    against: CheckAgainst<'_>,
    what: &str,
) -> Vec<Finding> {
    match check_container(container, against) {
        Ok(ContainerCoverage::Uncovered(list)) => list
            .iter()
            .map(|&binding| {
                let name = match binding.source {
                    BindingSource::Psv0 => crate::PartName::PSV0,
                    BindingSource::Rdef => crate::PartName::RDEF,
                };
                let part = container.find(name).map(|p| p.part_ref());
                Finding {
                    kind: FindingKind::RootSignatureUncovered {
                        binding,
                        against: what.to_string(),
                    },
                    part,
                    offset: part.map(|p| p.offset),
                }
            })
            .collect(),
        Ok(ContainerCoverage::NotChecked(reason @ NotChecked::NoBindings))
            if matches!(against, CheckAgainst::External(_)) =>
        {
            vec![Finding {
                kind: FindingKind::RootSignatureNotChecked {
                    against: what.to_string(),
                    reason,
                },
                part: None,
                offset: None,
            }]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::md5_of;
    use crate::program::{build_program_data, ShaderKind};
    use crate::testutil::{build, sign};

    fn hash_part(bitcode: &[u8]) -> Vec<u8> {
        crate::ShaderHash {
            flags: 0,
            digest: md5_of(bitcode),
        }
        .to_bytes()
    }

    /// The magic and one empty module block (ENTER_SUBBLOCK 8, width 3,
    /// length 1, END_BLOCK): the smallest bitstream that reads.
    const BITCODE: &[u8] = &[
        0x42, 0x43, 0xc0, 0xde, 0x21, 0x0c, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
    ];

    fn good() -> Vec<u8> {
        let dxil = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, BITCODE);
        sign(build(&[(b"HASH", &hash_part(BITCODE)), (b"DXIL", &dxil)]))
    }

    fn run(bytes: &[u8]) -> Verification {
        verify(&Inspection::parse(bytes).unwrap())
    }

    #[test]
    fn clean_container() {
        let v = run(&good());
        assert!(v.is_clean(), "{:?}", v.checks);
        assert_eq!(v.digest, DigestKind::Retail);
        assert_eq!(v.hash, HashCheck::Valid);
        assert_eq!(
            v.summary(2),
            "OK (digest retail, HASH valid, 2 of 2 parts decoded)"
        );
    }

    #[test]
    fn broken_containers() {
        // Stale digest after a byte flip in the bitcode: digest and HASH both fail.
        let mut bytes = good();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let v = run(&bytes);
        assert_eq!(v.digest, DigestKind::Invalid);
        assert_eq!(v.hash, HashCheck::Mismatch);
        assert!(!v.is_clean());
        assert_eq!(v.problems(), 2, "{:?}", v.checks);
        assert!(matches!(
            v.checks[0].kind,
            FindingKind::DigestMismatch { .. }
        ));
        assert!(matches!(
            v.checks[1].kind,
            FindingKind::HashMismatch {
                source: crate::PartName::DXIL,
                ..
            }
        ));
        assert!(v.summary(2).starts_with("FAILED (2 problems;"));

        // Unsigned, HASH without DXIL, undecodable part, rule violation, duplicate.
        let bytes = build(&[
            (b"HASH", &hash_part(BITCODE)),
            (b"ILDN", &[1, 0, 0, 0, 0, 0, 0, 0]),
            (b"SHEX", &[0; 4]),
            (b"ILDN", &[0, 0, 0, 0, 0, 0, 0, 0]),
        ]);
        let v = run(&bytes);
        let found: Vec<(Severity, Option<u32>, &FindingKind)> = v
            .checks
            .iter()
            .map(|c| (c.severity(), c.part.map(|p| p.index), &c.kind))
            .collect();
        assert_eq!(v.digest, DigestKind::Zero);
        assert_eq!(v.hash, HashCheck::Unverifiable);
        assert_eq!(v.decode_errors, 1);
        assert_eq!(found[0], (Severity::Note, None, &FindingKind::DigestZero));
        assert_eq!(
            found[1],
            (
                Severity::Note,
                Some(0),
                &FindingKind::HashUnverifiable {
                    source: crate::PartName::DXIL
                }
            )
        );
        assert!(found.contains(&(
            Severity::Warning,
            Some(3),
            &FindingKind::DuplicateName { first: 1 }
        )));
        assert!(found.iter().any(|f| matches!(
            f,
            (Severity::Error, Some(2), FindingKind::Undecodable { .. })
        )));
        assert!(found.contains(&(
            Severity::Warning,
            Some(1),
            &crate::debug_name::DebugNameRule::ReservedFlags { flags: 1 }.into()
        )));
        assert!(!v.is_clean());
    }

    #[test]
    fn findings_say_where_they_lie() {
        // Stale digest and HASH: the digest field, then the HASH digest (after its flags).
        let mut bytes = good();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let v = run(&bytes);
        let located: Vec<(Option<String>, Option<u64>)> = v
            .checks
            .iter()
            .map(|c| (c.part.map(|p| p.name.to_string()), c.offset))
            .collect();
        // Two parts: the table ends at 40, HASH's header there, its data at 48.
        assert_eq!(
            located,
            [(None, Some(4)), (Some("HASH".to_string()), Some(52))]
        );

        // Undecodable SHEX, ILDN with reserved flags, a duplicate ILDN.
        let bytes = build(&[
            (b"ILDN", &[1, 0, 0, 0, 0, 0, 0, 0]),
            (b"SHEX", &[0; 4]),
            (b"ILDN", &[0, 0, 0, 0, 0, 0, 0, 0]),
        ]);
        let insp = Inspection::parse(&bytes).unwrap();
        let v = verify(&insp);
        let find = |what: fn(&FindingKind) -> bool| {
            v.checks
                .iter()
                .find(|c| what(&c.kind))
                .unwrap_or_else(|| panic!("no such finding: {:?}", v.checks))
        };
        let part_offsets: Vec<u64> = insp.parts.iter().map(|p| p.part.offset).collect();
        assert_eq!(part_offsets, [44, 60, 72]);
        let duplicate = find(|k| matches!(k, FindingKind::DuplicateName { .. }));
        assert_eq!(duplicate.part.map(|p| (p.index, p.offset)), Some((2, 72)));
        assert_eq!(duplicate.offset, Some(72));
        let shex = find(|k| matches!(k, FindingKind::Undecodable { .. }));
        let error = insp.parts[1].decoded.as_ref().unwrap_err();
        assert_eq!(
            shex.kind,
            FindingKind::Undecodable {
                error: error.clone()
            }
        );
        assert_eq!(shex.part.map(|p| p.index), Some(1));
        assert_eq!(shex.offset, Some(error.offset));
        let flags = find(|k| {
            matches!(
                k.rule(),
                Some(crate::debug_name::DebugNameRule::ReservedFlags { .. })
            )
        });
        assert_eq!(flags.part.map(|p| p.index), Some(0));
        // The flags word is the first of ILDN's data.
        assert_eq!(flags.offset, Some(52));
        assert_eq!(find(|k| *k == FindingKind::DigestZero).offset, Some(4));
    }

    /// examples/sample.dxil (DXIL, ILDB and STAT hold llvm-as 22 bitcode)
    /// with `corrupt` applied to the DXIL bitcode; the DXIL part's bitstream
    /// finding and the bitcode's file offset.
    fn corrupted_sample(corrupt: impl Fn(&mut [u8])) -> (Option<Finding>, u64) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
        let mut file = std::fs::read(path).unwrap();
        let (start, len) = {
            let c = Container::parse(&file).unwrap();
            let p = crate::Program::parse(&c.require(crate::PartName::DXIL).unwrap()).unwrap();
            (p.bitcode_file_offset as usize, p.bitcode.len())
        };
        corrupt(&mut file[start..start + len]);
        let v = run(&file);
        let found = v
            .checks
            .into_iter()
            .find(|c| matches!(c.kind, FindingKind::BitstreamUnreadable { .. }));
        (found, start as u64)
    }

    /// Found by walking the sample's bitcode: the first top-level block, and
    /// the bit offset of the first DEFINE_ABBREV with the abbreviation-ID
    /// width of its block.
    fn sample_offsets(bitcode: &[u8]) -> (crate::bitcode::BlockHeader, u64, u32) {
        use crate::bitcode::{Bitcode, Entry};
        let b = Bitcode::parse(bitcode).unwrap();
        let mut r = b.reader();
        let mut widths = Vec::new();
        let mut first_block = None;
        loop {
            match r.next_entry().unwrap().unwrap() {
                Entry::EnterBlock(h) => {
                    first_block.get_or_insert(h);
                    widths.push(h.abbrev_width);
                }
                Entry::EndBlock { .. } => {
                    widths.pop();
                }
                Entry::DefineAbbrev { bit_offset, .. } => {
                    return (first_block.unwrap(), bit_offset, *widths.last().unwrap());
                }
                Entry::Record(_) => {}
            }
        }
    }

    fn clear_bits(data: &mut [u8], from: u64, count: u64) {
        for bit in from..from + count {
            data[(bit / 8) as usize] &= !(1 << (bit % 8));
        }
    }

    #[test]
    fn unreadable_bitstreams_are_errors_with_their_offsets() {
        // Untouched: every program part reads.
        let (none, _) = corrupted_sample(|_| {});
        assert!(none.is_none(), "{none:?}");

        // A block whose length word runs past the stream.
        let (f, start) = corrupted_sample(|bc| {
            let (block, _, _) = sample_offsets(bc);
            let word = (block.body_start / 8) as usize - 4;
            bc[word..word + 4].copy_from_slice(&0x0fff_ffffu32.to_le_bytes());
        });
        let f = f.expect("a finding for the length word");
        assert_eq!(f.severity(), Severity::Error);
        assert_eq!(
            f.part.map(|p| (p.index, p.name)),
            Some((3, crate::PartName::DXIL))
        );
        assert_eq!(
            f.kind,
            FindingKind::BitstreamUnreadable {
                error: crate::bitcode::BitcodeError {
                    bit_offset: 32,
                    kind: crate::bitcode::BitcodeErrorKind::Truncated {
                        what: "block (by its length word)"
                    }
                },
                at: start + 4,
                start
            }
        );
        assert_eq!(f.offset, Some(start + 4));

        // An abbreviation definition with no operands.
        let (f, start) = corrupted_sample(|bc| {
            let (_, at, width) = sample_offsets(bc);
            // The abbreviation ID, then the VBR5 operand count (one chunk).
            clear_bits(bc, at + u64::from(width), 5);
        });
        let f = f.expect("a finding for the abbreviation");
        assert_eq!(f.severity(), Severity::Error);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
        let file = std::fs::read(path).unwrap();
        let c = Container::parse(&file).unwrap();
        let p = crate::Program::parse(&c.require(crate::PartName::DXIL).unwrap()).unwrap();
        let (_, at, _) = sample_offsets(p.bitcode);
        assert_eq!(
            f.kind,
            FindingKind::BitstreamUnreadable {
                error: crate::bitcode::BitcodeError {
                    bit_offset: at,
                    kind: crate::bitcode::BitcodeErrorKind::BadAbbrev {
                        reason: "no operands"
                    }
                },
                at: start + at / 8,
                start
            }
        );
        assert_eq!(f.offset, Some(start + at / 8));

        // Bad magic: the magic warning (at the bitcode's first byte) says it;
        // the bitstream is not read.
        let (f, start) = corrupted_sample(|bc| bc[0] = b'X');
        assert!(f.is_none(), "{f:?}");
        let mut file = file.clone();
        file[start as usize] = b'X';
        let v = run(&file);
        let magic = v
            .checks
            .iter()
            .find(|c| c.kind == FindingKind::BitcodeMagic)
            .expect("magic warning");
        assert_eq!(magic.severity(), Severity::Warning);
        assert_eq!(magic.offset, Some(start));
    }

    #[test]
    fn program_size_and_magic() {
        let mut dxil = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, b"XXXXXXXX");
        dxil[4] = 99;
        let v = run(&sign(build(&[(b"DXIL", &dxil)])));
        assert_eq!(v.problems(), 2, "{:?}", v.checks);
        assert_eq!(v.hash, HashCheck::Absent);
        // Notes alone keep a container clean: the sentinel digests.
        let mut bytes = build(&[]);
        bytes[4..20].copy_from_slice(&[1; 16]);
        let v = run(&bytes);
        assert!(v.is_clean());
        assert_eq!(v.checks[0].kind, FindingKind::DigestBypass);
        bytes[4..20].copy_from_slice(&[2; 16]);
        assert_eq!(run(&bytes).checks[0].kind, FindingKind::DigestPreview);
    }
}
