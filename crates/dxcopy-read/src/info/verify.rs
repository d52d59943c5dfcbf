//! `--verify`: everything that can be checked about a container, as a list
//! of findings with a level. Notes are informational (an unsigned container,
//! parts older dxc left unaligned); warnings and errors make the container
//! fail verification.
//!
//! Checked: the header digest (kind and validity), each HASH part against
//! the bitcode it covers, the structural findings of
//! [`Container::check`](crate::Container::check), each part's decode
//! error, each decoder's rule violations, and the LLVM bitstream of each
//! program part (DXIL, ILDB, dxc STAT) as the module-facts reader read it
//! ([`Inspected::module`](super::Inspected::module)).

use super::Inspection;
use crate::digest::{self, DigestKind};
use crate::root_signature_check::{check_container, CheckAgainst, ContainerCoverage};
use crate::{Container, Decoded, Finding, HashStatus, PartRef, Severity};

/// Offset of the header's digest field (docs/format: header layout).
const DIGEST_FIELD: u64 = 4;
/// Offset of the header's FileSize field.
const FILE_SIZE_FIELD: u64 = 24;
/// Offset of the offset table (one u32 per part).
const OFFSET_TABLE: u64 = 32;

/// One finding.
///
/// `part` and `offset` say where it lies, for programs that act on findings
/// (the Python package's `Finding`); the text views print only `level` and
/// `message`, and the JSON document leaves them out.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Check {
    /// How serious it is.
    pub level: Severity,
    /// One sentence.
    pub message: String,
    /// The part it is about, when it is about one part.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub part: Option<PartRef>,
    /// Absolute offset of the offending bytes, when they are known.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub offset: Option<u64>,
}

impl Check {
    fn new(level: Severity, message: String, part: Option<PartRef>, offset: Option<u64>) -> Check {
        Check {
            level,
            message,
            part,
            offset,
        }
    }
}

/// Where a structural finding lies: its part and offset.
fn finding_location(
    container: &Container<'_>,
    finding: &Finding,
) -> (Option<PartRef>, Option<u64>) {
    match finding {
        Finding::FileSizeMismatch { .. } => (None, Some(FILE_SIZE_FIELD)),
        Finding::Gap { offset, .. } => (None, Some(*offset)),
        Finding::UnsortedOffsets { index } => (
            container.part(*index).map(|p| p.part_ref()),
            Some(OFFSET_TABLE + 4 * u64::from(*index)),
        ),
        Finding::DuplicateName { part, .. }
        | Finding::PrivNotLast { part }
        | Finding::MultiplePriv { part }
        | Finding::UnknownPart { part }
        | Finding::Misaligned { part } => (Some(*part), Some(part.offset)),
        Finding::DigestInvalid { .. } => (None, Some(DIGEST_FIELD)),
    }
}

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
    /// Findings in order: digest, HASH, structure, then part by part.
    pub checks: Vec<Check>,
}

#[cfg(feature = "serde")]
fn ser_digest_kind<S: serde::Serializer>(k: &DigestKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(k.as_str())
}

impl Verification {
    /// Whether nothing worse than a note was found.
    pub fn is_clean(&self) -> bool {
        self.checks.iter().all(|c| c.level == Severity::Note)
    }

    /// Number of warnings and errors.
    pub fn problems(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.level > Severity::Note)
            .count()
    }

    /// One-line summary: `OK (digest retail, HASH valid, 7 parts decoded)` or
    /// `FAILED (2 problems; digest invalid, …)`.
    pub fn summary(&self, part_count: usize) -> String {
        let detail = format!(
            "digest {}, HASH {}, {} of {part_count} parts decoded",
            self.digest,
            self.hash.as_str(),
            part_count - self.decode_errors
        );
        if self.is_clean() {
            format!("OK ({detail})")
        } else {
            let n = self.problems();
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
    let data = container.data();
    let mut checks = Vec::new();
    let mut push = |level, message: String, part: Option<PartRef>, offset: Option<u64>| {
        checks.push(Check::new(level, message, part, offset))
    };
    let at_digest = Some(DIGEST_FIELD);

    let digest_kind = container.digest_kind();
    let stored = crate::fields::hex(&container.header().digest);
    match digest_kind {
        DigestKind::Retail | DigestKind::Debug => {}
        DigestKind::Zero => push(Severity::Note, "header digest is zero: the container is not signed".into(), None, at_digest),
        DigestKind::Bypass => push(Severity::Note, "header digest is the BYPASS sentinel (01…01)".into(), None, at_digest),
        DigestKind::Preview => push(Severity::Note, "header digest is the PREVIEW sentinel (02…02)".into(), None, at_digest),
        // dxc copies the main shader's digest into its PDB's container.
        DigestKind::Invalid if insp.pdb.is_some() => push(
            Severity::Note,
            format!("header digest {stored} is not this container's own: dxc copies the main shader's digest into the PDB's container"),
            None,
            at_digest,
        ),
        DigestKind::Invalid => match digest::container_digests(data) {
            Some((retail, _)) => push(
                Severity::Error,
                format!(
                    "header digest {stored} is not a valid retail or debug digest (the retail digest is {})",
                    crate::fields::hex(&retail)
                ),
                None,
                at_digest,
            ),
            None => push(
                Severity::Error,
                format!(
                    "header digest {stored} cannot be checked: FileSize {:#x} is outside the file",
                    container.header().file_size
                ),
                None,
                Some(FILE_SIZE_FIELD),
            ),
        },
    }

    let mut hash = HashCheck::Absent;
    let mut hash_part = None;
    for p in &insp.parts {
        if p.part.name != crate::PartName::HASH {
            continue;
        }
        let prefix = format!("part {} 'HASH'", p.part.index);
        let part = Some(p.part.part_ref());
        hash_part = hash_part.or(part);
        hash = match &p.decoded {
            Ok(Decoded::Hash(h)) => match h.verify(container) {
                HashStatus::Valid => HashCheck::Valid,
                HashStatus::Mismatch { computed } => {
                    push(
                        Severity::Error,
                        format!(
                            "{prefix}: digest {} does not match the MD5 of the {} bitcode ({})",
                            crate::fields::hex(&h.digest),
                            h.source_part(),
                            crate::fields::hex(&computed)
                        ),
                        part,
                        // The digest follows the 4-byte flags.
                        Some(p.part.data_offset() + 4),
                    );
                    HashCheck::Mismatch
                }
                HashStatus::NoBitcode { source } => {
                    push(
                        Severity::Note,
                        format!("{prefix}: no decodable {source} part to check the digest against"),
                        part,
                        Some(p.part.offset),
                    );
                    HashCheck::Unverifiable
                }
            },
            _ => HashCheck::Undecodable,
        };
    }

    if let Some(info) = &insp.pdb {
        match insp.pdb_guid_matches_hash() {
            Some(true) => push(
                Severity::Note,
                format!("PDB GUID {} equals the HASH digest", info.guid_string()),
                hash_part,
                None,
            ),
            Some(false) => push(
                Severity::Error,
                format!(
                    "PDB GUID {} differs from the HASH digest: the PDB will not be found by its shader",
                    info.guid_string()
                ),
                hash_part,
                None,
            ),
            None => push(
                Severity::Warning,
                "PDB container has no decodable HASH part to check the GUID against".into(),
                None,
                None,
            ),
        }
    }

    for finding in container.check() {
        if matches!(finding, Finding::DigestInvalid { .. }) {
            continue; // reported above, with the expected value
        }
        let (part, offset) = finding_location(container, &finding);
        push(finding.severity(), finding.to_string(), part, offset);
    }

    let mut decode_errors = 0;
    for p in &insp.parts {
        let prefix = format!("part {} '{}'", p.part.index, p.part.name);
        let part = Some(p.part.part_ref());
        match &p.decoded {
            Err(e) => {
                decode_errors += 1;
                push(Severity::Error, e.to_string(), part, Some(e.offset));
            }
            Ok(d) => {
                if let Decoded::Program(program) = d {
                    if !program.size_matches(p.part.size()) {
                        push(
                            Severity::Warning,
                            format!(
                                "{prefix}: program header says {} words ({} bytes), the part has {}",
                                program.size_in_words,
                                u64::from(program.size_in_words) * 4,
                                p.part.size()
                            ),
                            part,
                            // The size in words follows the 4-byte version.
                            Some(p.part.data_offset() + 4),
                        );
                    }
                    if !program.has_bitcode_magic() {
                        push(
                            Severity::Warning,
                            format!(
                                "{prefix}: bitcode does not start with the LLVM magic 'BC' 0xC0DE"
                            ),
                            part,
                            Some(program.bitcode_file_offset),
                        );
                    }
                    // The bitstream as the module-facts reader read it (views
                    // without module facts do not read it).
                    if let Some(Err(e)) = p.module.as_deref() {
                        let start = program.bitcode_file_offset;
                        let at = start + e.bit_offset / 8;
                        push(
                            Severity::Error,
                            format!(
                                "{prefix}: LLVM bitstream does not read: {e} (file offset {at:#x}; the bitcode starts at {start:#x})"
                            ),
                            part,
                            Some(at),
                        );
                    }
                }
                for issue in d.issues() {
                    push(
                        Severity::Warning,
                        format!("{prefix}: {issue}"),
                        part,
                        Some(issue.offset),
                    );
                }
            }
        }
    }
    checks.extend(coverage_checks(container, CheckAgainst::Own, "its RTS0"));

    Verification {
        digest: digest_kind,
        hash,
        decode_errors,
        checks,
    }
}

/// Root-signature coverage of the PSV0 resource bindings: one warning per
/// binding that `against` does not cover (`what` names the root signature in
/// the messages). Nothing without PSV0 or a root signature; a PSV0 or RTS0
/// that does not decode is reported by its decoder instead.
pub fn coverage_checks(
    container: &Container<'_>,
    against: CheckAgainst<'_>,
    what: &str,
) -> Vec<Check> {
    match check_container(container, against) {
        Ok(ContainerCoverage::Uncovered(list)) => {
            let psv0 = container.find(crate::PartName::PSV0).map(|p| p.part_ref());
            list.iter()
                .map(|u| {
                    Check::new(
                        Severity::Warning,
                        format!("PSV0 {u} ({what})"),
                        psv0,
                        psv0.map(|p| p.offset),
                    )
                })
                .collect()
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
        let mut h = 0u32.to_le_bytes().to_vec();
        h.extend_from_slice(&md5_of(bitcode));
        h
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
        assert!(v.checks[0].message.contains("the retail digest is"));
        assert!(v.checks[1]
            .message
            .contains("does not match the MD5 of the DXIL bitcode"));
        assert!(v.summary(2).starts_with("FAILED (2 problems;"));

        // Unsigned, HASH without DXIL, undecodable part, rule violation, duplicate.
        let bytes = build(&[
            (b"HASH", &hash_part(BITCODE)),
            (b"ILDN", &[1, 0, 0, 0, 0, 0, 0, 0]),
            (b"SHEX", &[0; 4]),
            (b"ILDN", &[0, 0, 0, 0, 0, 0, 0, 0]),
        ]);
        let v = run(&bytes);
        let levels: Vec<(Severity, &str)> = v
            .checks
            .iter()
            .map(|c| (c.level, c.message.as_str()))
            .collect();
        assert_eq!(v.digest, DigestKind::Zero);
        assert_eq!(v.hash, HashCheck::Unverifiable);
        assert_eq!(v.decode_errors, 1);
        assert_eq!(levels[0].0, Severity::Note);
        assert!(levels[0].1.contains("not signed"));
        assert!(levels[1].1.contains("no decodable DXIL part"));
        assert!(levels
            .iter()
            .any(|(l, m)| *l == Severity::Warning && m.contains("duplicate")));
        assert!(levels
            .iter()
            .any(|(l, m)| *l == Severity::Error && m.starts_with("part 2 'SHEX'")));
        assert!(levels
            .iter()
            .any(|(l, m)| *l == Severity::Warning && m.contains("part 1 'ILDN': reserved flags")));
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
        let find = |text: &str| {
            v.checks
                .iter()
                .find(|c| c.message.contains(text))
                .unwrap_or_else(|| panic!("no finding with {text:?}: {:?}", v.checks))
        };
        let part_offsets: Vec<u64> = insp.parts.iter().map(|p| p.part.offset).collect();
        assert_eq!(part_offsets, [44, 60, 72]);
        let duplicate = find("duplicate");
        assert_eq!(duplicate.part.map(|p| (p.index, p.offset)), Some((2, 72)));
        assert_eq!(duplicate.offset, Some(72));
        let shex = find("part 1 'SHEX'");
        let error = insp.parts[1].decoded.as_ref().unwrap_err();
        assert_eq!(shex.part.map(|p| p.index), Some(1));
        assert_eq!(shex.offset, Some(error.offset));
        let flags = find("reserved flags");
        assert_eq!(flags.part.map(|p| p.index), Some(0));
        // The flags word is the first of ILDN's data.
        assert_eq!(flags.offset, Some(52));
        assert_eq!(find("not signed").offset, Some(4));
    }

    /// examples/sample.dxil (DXIL, ILDB and STAT hold llvm-as 22 bitcode)
    /// with `corrupt` applied to the DXIL bitcode; the DXIL part's bitstream
    /// finding and the bitcode's file offset.
    fn corrupted_sample(corrupt: impl Fn(&mut [u8])) -> (Option<Check>, u64) {
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
            .find(|c| c.message.contains("LLVM bitstream does not read"));
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
        assert_eq!(f.level, Severity::Error);
        assert_eq!(f.part.map(|p| p.name.to_string()).as_deref(), Some("DXIL"));
        assert!(
            f.message.starts_with("part 3 'DXIL': LLVM bitstream does not read: bitcode at bit 32 (byte 0x4): block (by its length word) runs past"),
            "{}",
            f.message
        );
        assert_eq!(f.offset, Some(start + 4));
        assert!(f.message.ends_with(&format!(
            "(file offset {:#x}; the bitcode starts at {start:#x})",
            start + 4
        )));

        // An abbreviation definition with no operands.
        let (f, start) = corrupted_sample(|bc| {
            let (_, at, width) = sample_offsets(bc);
            // The abbreviation ID, then the VBR5 operand count (one chunk).
            clear_bits(bc, at + u64::from(width), 5);
        });
        let f = f.expect("a finding for the abbreviation");
        assert_eq!(f.level, Severity::Error);
        assert!(
            f.message
                .contains("invalid abbreviation definition: no operands"),
            "{}",
            f.message
        );
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
        let file = std::fs::read(path).unwrap();
        let c = Container::parse(&file).unwrap();
        let p = crate::Program::parse(&c.require(crate::PartName::DXIL).unwrap()).unwrap();
        let (_, at, _) = sample_offsets(p.bitcode);
        assert!(
            f.message
                .contains(&format!("bitcode at bit {at} (byte {:#x})", at / 8)),
            "{}",
            f.message
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
            .find(|c| c.message.contains("does not start with the LLVM magic"))
            .expect("magic warning");
        assert_eq!(magic.level, Severity::Warning);
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
        assert!(v.checks[0].message.contains("BYPASS"));
        bytes[4..20].copy_from_slice(&[2; 16]);
        assert!(run(&bytes).checks[0].message.contains("PREVIEW"));
    }
}
