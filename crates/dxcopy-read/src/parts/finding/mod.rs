//! Findings: something noteworthy about a container that does not stop it
//! from being read. One type for all of them: the structural findings of
//! [`Container::check`](crate::Container::check), the rule violations the
//! part decoders list in their `issues`, and the outcomes of `--verify`
//! ([`info::verify`](crate::info::verify)).
//!
//! A [`Finding`] is a typed [`FindingKind`] (with its numbers), the part it
//! is about and the offset of the bytes at fault; its [`Severity`] follows
//! from the kind. Its `Display` is the sentence `dxinfo --verify` prints;
//! the kind's `Display` is the same sentence without the part and offset.
//!
//! The structural and verification kinds are declared here. A decoder's
//! own rules are declared in its module (an enum implementing [`Rule`],
//! with its sentences) and carried as [`FindingKind::Rule`]; only the two
//! field rules several decoders share ([`FindingKind::FlagsSet`],
//! [`FindingKind::NotFixedValue`]) are here.

mod container;
mod rule;

pub use rule::Rule;

use crate::bitcode::BitcodeError;
use crate::detail::{leading_name, Detail};
use crate::error::{PartRef, ReadError};
use crate::fields::hex;
use crate::name::PartName;
use crate::rts0_coverage::{NotChecked, UncoveredBinding};
use std::fmt;

/// How serious a finding is, and a line the tools print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "lowercase")
)]
pub enum Severity {
    /// Worth knowing; the container is fine (e.g. unaligned parts written by
    /// older dxc, an unsigned container).
    Note,
    /// Something is wrong or non-conforming; the container fails verification.
    Warning,
    /// Broken (a part that does not decode, a digest that does not match); the
    /// container fails verification.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One finding: what (the kind, with its numbers), where (part and offset).
///
/// Decoders make findings without a part (they do not know which part they
/// decode); [`verify`](crate::info::verify::verify) fills it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What was found.
    pub kind: FindingKind,
    /// The part it is about, when it is about one part.
    pub part: Option<PartRef>,
    /// Absolute offset of the offending bytes, when they are known.
    pub offset: Option<u64>,
}

impl Finding {
    /// A finding about the whole container, at no particular offset.
    pub fn new(kind: FindingKind) -> Finding {
        Finding {
            kind,
            part: None,
            offset: None,
        }
    }

    /// A finding at absolute `offset` (what decoders make): `kind` is a
    /// [`FindingKind`] or a decoder's own [`Rule`].
    pub fn at(offset: u64, kind: impl Into<FindingKind>) -> Finding {
        Finding {
            kind: kind.into(),
            part: None,
            offset: Some(offset),
        }
    }

    /// The same finding, about `part`.
    pub fn in_part(self, part: impl Into<Option<PartRef>>) -> Finding {
        Finding {
            part: part.into(),
            ..self
        }
    }

    /// How serious it is (the kind's severity).
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }
}

/// How a kind's sentence is placed in a finding's sentence.
enum Place {
    /// The kind's sentence says it all.
    Whole,
    /// `part I 'NAME' at offset X: ` before it.
    PartAt,
    /// `part I 'NAME': ` before it.
    Part,
    /// A decoder's rule: `part I 'NAME': ` before it (when the part is
    /// known) and ` (at offset X)` after it.
    Rule,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind.place(), self.part) {
            (Place::PartAt, Some(p)) => write!(
                f,
                "part {} '{}' at offset {:#x}: ",
                p.index, p.name, p.offset
            )?,
            (Place::Part | Place::Rule, Some(p)) => write!(f, "part {} '{}': ", p.index, p.name)?,
            _ => {}
        }
        write!(f, "{}", self.kind)?;
        match (self.kind.place(), self.offset) {
            (Place::Rule, Some(offset)) => write!(f, " (at offset {offset:#x})"),
            _ => Ok(()),
        }
    }
}

/// What a [`Finding`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FindingKind {
    // --- Structure (`Container::check`) ---
    /// Header FileSize differs from the real length.
    FileSizeMismatch {
        /// Stored FileSize.
        stored: u32,
        /// Real length of the input.
        actual: u64,
    },
    /// Bytes that belong to no part between the offset table, parts and FileSize.
    Gap {
        /// Absolute offset of the first unused byte.
        offset: u64,
        /// Number of unused bytes.
        len: u64,
    },
    /// Offsets in the table are not in ascending file order.
    UnsortedOffsets {
        /// First part whose offset is below its predecessor's.
        index: u32,
    },
    /// A part name appears more than once (the finding's part is the repeat).
    DuplicateName {
        /// The first part of that name.
        first: u32,
    },
    /// A PRIV part that is not the last part in the file.
    PrivNotLast,
    /// A second (or later) PRIV part.
    MultiplePriv,
    /// A part name that no known compiler writes.
    UnknownPart,
    /// A part header not at a 4-byte-aligned offset (older dxc writes these).
    Misaligned,
    /// The stored digest is neither a valid retail/debug digest nor a known
    /// sentinel (what `Container::check` says; `--verify` says
    /// [`DigestMismatch`](FindingKind::DigestMismatch) or
    /// [`DigestUncheckable`](FindingKind::DigestUncheckable)).
    DigestInvalid {
        /// The stored digest.
        stored: [u8; 16],
    },

    // --- Verification (`info::verify`) ---
    /// The header digest is zero: the container is not signed.
    DigestZero,
    /// The header digest is the BYPASS sentinel (01…01).
    DigestBypass,
    /// The header digest is the PREVIEW sentinel (02…02).
    DigestPreview,
    /// A dxc PDB's container holds its shader's digest, not its own.
    DigestOfShader {
        /// The stored digest.
        stored: [u8; 16],
    },
    /// The header digest is neither the retail nor the debug digest.
    DigestMismatch {
        /// The stored digest.
        stored: [u8; 16],
        /// The container's retail digest.
        retail: [u8; 16],
    },
    /// The header digest cannot be computed: FileSize is outside the file.
    DigestUncheckable {
        /// The stored digest.
        stored: [u8; 16],
        /// Header FileSize.
        file_size: u32,
    },
    /// The HASH digest differs from the MD5 of the bitcode it covers.
    HashMismatch {
        /// The digest the HASH part holds.
        stored: [u8; 16],
        /// The part whose bitcode it covers (DXIL, or ILDB).
        source: PartName,
        /// The MD5 of that bitcode.
        computed: [u8; 16],
    },
    /// No decodable part holds the bitcode the HASH digest covers.
    HashUnverifiable {
        /// The part it covers (DXIL, or ILDB).
        source: PartName,
    },
    /// A dxc PDB's GUID equals its HASH digest.
    PdbGuidMatchesHash {
        /// The GUID in registry format.
        guid: String,
    },
    /// A dxc PDB's GUID differs from its HASH digest.
    PdbGuidDiffers {
        /// The GUID in registry format.
        guid: String,
    },
    /// A dxc PDB's container has no decodable HASH part.
    PdbWithoutHash,
    /// A part does not decode.
    Undecodable {
        /// Why.
        error: ReadError,
    },
    /// A program header's size in words differs from the part size.
    ProgramSizeMismatch {
        /// The program header's size, in 4-byte words.
        words: u32,
        /// The part size in bytes.
        part_size: u32,
    },
    /// A program part's bitcode lacks the LLVM magic.
    BitcodeMagic,
    /// A program part's LLVM bitstream does not read.
    BitstreamUnreadable {
        /// Why.
        error: BitcodeError,
        /// File offset of the byte at fault.
        at: u64,
        /// File offset of the bitcode.
        start: u64,
    },
    /// A resource binding (PSV0's, else RDEF's) a root signature does not
    /// cover.
    RootSignatureUncovered {
        /// The binding.
        binding: UncoveredBinding,
        /// The root signature, as the sentence names it ("its RTS0").
        against: String,
    },
    /// A root signature given to check against could not be checked.
    RootSignatureNotChecked {
        /// The root signature, as the sentence names it.
        against: String,
        /// Why.
        reason: NotChecked,
    },

    // --- Decoder rules (a decoded part's `issues`) ---
    /// A rule of one decoder's own (its enum, beside its reading code).
    Rule(Detail),
    /// A flags field holds bits that must be zero.
    FlagsSet {
        /// The field, e.g. "section flags".
        field: &'static str,
        /// Its value.
        flags: u32,
    },
    /// A field has another value than the one the format fixes.
    NotFixedValue {
        /// The field, e.g. "SectionCount".
        field: &'static str,
        /// Its value.
        value: u32,
        /// The value the format fixes.
        expected: u32,
    },

    // --- The parts derived from the DXIL module ---
    /// A part dxc derives from the module is missing, extra, or differs
    /// from what the module gives.
    DerivedPartDiffers {
        /// The part.
        part: PartName,
        /// The first field that disagrees, in words.
        detail: String,
    },
    /// The module's metadata cannot give the derived parts, so they were
    /// not checked.
    DerivedPartsUnchecked {
        /// Why.
        reason: String,
    },
}

impl FindingKind {
    /// The kind's name as spelled in this enum (`"DuplicateName"`), for
    /// programs that do not see the Rust type (the Python package's
    /// `Finding.kind`).
    pub fn name(&self) -> String {
        match self {
            FindingKind::Rule(rule) => rule.name(),
            _ => leading_name(&format!("{self:?}")),
        }
    }

    /// The decoder's rule, when the kind is one of the decoder type `T`.
    pub fn rule<T: Rule>(&self) -> Option<&T> {
        match self {
            FindingKind::Rule(rule) => rule.get(),
            _ => None,
        }
    }

    /// How serious a finding of this kind is.
    pub fn severity(&self) -> Severity {
        match self {
            // A gap under four bytes is padding a writer left, not data.
            FindingKind::Gap { len, .. } if *len < 4 => Severity::Note,
            _ => self.class().0,
        }
    }

    fn place(&self) -> Place {
        self.class().1
    }

    /// Severity and place of each kind: every kind is named once, so a new
    /// one cannot compile without its row. Notes: a part no compiler writes
    /// is what `--add-section` adds, and the runtime skips parts it does not
    /// know: worth knowing, not wrong.
    fn class(&self) -> (Severity, Place) {
        use FindingKind::*;
        match self {
            HashMismatch { .. } | BitstreamUnreadable { .. } => (Severity::Error, Place::Part),
            DigestMismatch { .. }
            | DigestUncheckable { .. }
            | PdbGuidDiffers { .. }
            | Undecodable { .. }
            | DerivedPartDiffers { .. } => (Severity::Error, Place::Whole),
            ProgramSizeMismatch { .. } | BitcodeMagic => (Severity::Warning, Place::Part),
            DuplicateName { .. } | PrivNotLast | MultiplePriv => (Severity::Warning, Place::PartAt),
            FlagsSet { .. } | NotFixedValue { .. } | Rule(_) => (Severity::Warning, Place::Rule),
            FileSizeMismatch { .. }
            | Gap { .. }
            | UnsortedOffsets { .. }
            | DigestInvalid { .. }
            | PdbWithoutHash
            | RootSignatureUncovered { .. }
            | RootSignatureNotChecked { .. } => (Severity::Warning, Place::Whole),
            HashUnverifiable { .. } => (Severity::Note, Place::Part),
            UnknownPart | Misaligned => (Severity::Note, Place::PartAt),
            DigestZero
            | DigestBypass
            | DigestPreview
            | DigestOfShader { .. }
            | PdbGuidMatchesHash { .. }
            | DerivedPartsUnchecked { .. } => (Severity::Note, Place::Whole),
        }
    }
}

impl<T: Rule> From<T> for FindingKind {
    fn from(rule: T) -> FindingKind {
        FindingKind::Rule(Detail::new(rule))
    }
}

impl fmt::Display for FindingKind {
    /// The sentence `dxinfo --verify` prints for the kind.
    ///
    /// Long: one sentence per finding kind, each beside its numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FindingKind::*;
        match self {
            FileSizeMismatch { stored, actual } if u64::from(*stored) < *actual => write!(
                f,
                "header FileSize {stored:#x} is less than the file length {actual:#x} ({} trailing bytes)",
                actual - u64::from(*stored)
            ),
            FileSizeMismatch { stored, actual } => write!(
                f,
                "header FileSize {stored:#x} is more than the file length {actual:#x} (file is short)"
            ),
            Gap { offset, len } => {
                write!(f, "{len} unused bytes at offset {offset:#x} belong to no part")
            }
            UnsortedOffsets { index } => write!(
                f,
                "part {index}: offset table is not in ascending file order"
            ),
            DuplicateName { first } => write!(f, "duplicate name (first seen as part {first})"),
            PrivNotLast => f.write_str("PRIV is not the last part"),
            MultiplePriv => f.write_str("more than one PRIV part"),
            UnknownPart => f.write_str("unknown part name"),
            Misaligned => f.write_str("not 4-byte aligned"),
            DigestInvalid { stored } => write!(
                f,
                "header digest {} is not a valid retail or debug digest of the container",
                hex(stored)
            ),
            DigestZero => f.write_str("header digest is zero: the container is not signed"),
            DigestBypass => f.write_str("header digest is the BYPASS sentinel (01…01)"),
            DigestPreview => f.write_str("header digest is the PREVIEW sentinel (02…02)"),
            DigestOfShader { stored } => write!(
                f,
                "header digest {} is not this container's own: dxc copies the main shader's digest into the PDB's container",
                hex(stored)
            ),
            DigestMismatch { stored, retail } => write!(
                f,
                "header digest {} is not a valid retail or debug digest (the retail digest is {})",
                hex(stored),
                hex(retail)
            ),
            DigestUncheckable { stored, file_size } => write!(
                f,
                "header digest {} cannot be checked: FileSize {file_size:#x} is outside the file",
                hex(stored)
            ),
            HashMismatch {
                stored,
                source,
                computed,
            } => write!(
                f,
                "digest {} does not match the MD5 of the {source} bitcode ({})",
                hex(stored),
                hex(computed)
            ),
            HashUnverifiable { source } => write!(
                f,
                "no decodable {source} part to check the digest against"
            ),
            PdbGuidMatchesHash { guid } => write!(f, "PDB GUID {guid} equals the HASH digest"),
            PdbGuidDiffers { guid } => write!(
                f,
                "PDB GUID {guid} differs from the HASH digest: the PDB will not be found by its shader"
            ),
            PdbWithoutHash => f.write_str(
                "PDB container has no decodable HASH part to check the GUID against",
            ),
            Undecodable { error } => write!(f, "{error}"),
            ProgramSizeMismatch { words, part_size } => write!(
                f,
                "program header says {words} words ({} bytes), the part has {part_size}",
                u64::from(*words) * 4
            ),
            BitcodeMagic => f.write_str("bitcode does not start with the LLVM magic 'BC' 0xC0DE"),
            BitstreamUnreadable { error, at, start } => write!(
                f,
                "LLVM bitstream does not read: {error} (file offset {at:#x}; the bitcode starts at {start:#x})"
            ),
            RootSignatureUncovered { binding, against } => {
                write!(f, "{} {binding} ({against})", binding.source)
            }
            RootSignatureNotChecked { against, reason } => {
                write!(f, "bindings not checked against {against}: {reason}")
            }
            FlagsSet { field, flags } => write!(f, "{field} are {flags:#x}"),
            NotFixedValue {
                field,
                value,
                expected,
            } => write!(f, "{field} is {value}, not {expected}"),
            DerivedPartDiffers { part, detail } => write!(f, "{part}: {detail}"),
            DerivedPartsUnchecked { reason } => write!(
                f,
                "the parts derived from the DXIL module were not checked: {reason}"
            ),
            Rule(rule) => write!(f, "{rule}"),
        }
    }
}

/// serde helpers for lists of findings, in the two shapes of the JSON
/// document (docs/dxinfo-json.md).
#[cfg(feature = "serde")]
pub mod ser {
    use super::Finding;
    use serde::ser::{SerializeStruct, Serializer};
    use serde::Serialize;

    /// A decoded part's `issues`: `{ "offset": N, "message": "…" }`, the
    /// message without the part or offset.
    pub fn issues<S: Serializer>(list: &[Finding], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(list.iter().map(Issue))
    }

    /// `--verify`'s `checks`: `{ "level": "…", "message": "…" }`, the
    /// message as `--verify` prints it.
    pub fn checks<S: Serializer>(list: &[Finding], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(list.iter().map(Check))
    }

    struct Issue<'a>(&'a Finding);

    impl Serialize for Issue<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("Issue", 2)?;
            st.serialize_field("offset", &self.0.offset)?;
            st.serialize_field("message", &self.0.kind.to_string())?;
            st.end()
        }
    }

    struct Check<'a>(&'a Finding);

    impl Serialize for Check<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("Check", 2)?;
            st.serialize_field("level", &self.0.severity())?;
            st.serialize_field("message", &self.0.to_string())?;
            st.end()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitcode::BitcodeErrorKind;
    use crate::error::ReadErrorKind;
    use crate::psv0::{ResourceBinding, ResourceType};
    use crate::rts0::RangeType;
    use crate::rts0_coverage::Uncovered;
    use FindingKind::*;

    const D1: [u8; 16] = [0x11; 16];
    const D2: [u8; 16] = [0xab; 16];

    fn too_short() -> ReadError {
        ReadError::new(0, ReadErrorKind::FileTooShort { file_len: 2 })
    }

    fn binding() -> UncoveredBinding {
        UncoveredBinding {
            source: crate::rts0_coverage::BindingSource::Psv0,
            binding: ResourceBinding {
                resource_type: ResourceType::from_raw(2),
                space: 0,
                lower_bound: 3,
                upper_bound: 3,
                kind: None,
                flags: None,
            },
            class: RangeType::Srv,
            reason: Uncovered::NotBound,
            stage: None,
        }
    }

    /// Every kind with its sentence and severity: the one place that pins
    /// the wording (dxinfo's text, `--verify` and the JSON show these).
    fn table() -> Vec<(FindingKind, Severity, String)> {
        use Severity::{Error as E, Note as N, Warning as W};
        let bitcode = BitcodeError {
            bit_offset: 32,
            kind: BitcodeErrorKind::Truncated { what: "block" },
        };
        let rows: Vec<(FindingKind, Severity, &str)> = vec![
            (FileSizeMismatch { stored: 0x10, actual: 0x13 }, W,
             "header FileSize 0x10 is less than the file length 0x13 (3 trailing bytes)"),
            (FileSizeMismatch { stored: 0x20, actual: 0x13 }, W,
             "header FileSize 0x20 is more than the file length 0x13 (file is short)"),
            (Gap { offset: 0x31, len: 3 }, N, "3 unused bytes at offset 0x31 belong to no part"),
            (Gap { offset: 0x30, len: 4 }, W, "4 unused bytes at offset 0x30 belong to no part"),
            (UnsortedOffsets { index: 2 }, W, "part 2: offset table is not in ascending file order"),
            (DuplicateName { first: 1 }, W, "duplicate name (first seen as part 1)"),
            (PrivNotLast, W, "PRIV is not the last part"),
            (MultiplePriv, W, "more than one PRIV part"),
            (UnknownPart, N, "unknown part name"),
            (Misaligned, N, "not 4-byte aligned"),
            (DigestInvalid { stored: D1 }, W, "header digest 11111111111111111111111111111111 is not a valid retail or debug digest of the container"),
            (DigestZero, N, "header digest is zero: the container is not signed"),
            (DigestBypass, N, "header digest is the BYPASS sentinel (01…01)"),
            (DigestPreview, N, "header digest is the PREVIEW sentinel (02…02)"),
            (DigestOfShader { stored: D1 }, N, "header digest 11111111111111111111111111111111 is not this container's own: dxc copies the main shader's digest into the PDB's container"),
            (DigestMismatch { stored: D1, retail: D2 }, E, "header digest 11111111111111111111111111111111 is not a valid retail or debug digest (the retail digest is abababababababababababababababab)"),
            (DigestUncheckable { stored: D1, file_size: 0x99 }, E, "header digest 11111111111111111111111111111111 cannot be checked: FileSize 0x99 is outside the file"),
            (HashMismatch { stored: D1, source: PartName::ILDB, computed: D2 }, E, "digest 11111111111111111111111111111111 does not match the MD5 of the ILDB bitcode (abababababababababababababababab)"),
            (HashUnverifiable { source: PartName::DXIL }, N, "no decodable DXIL part to check the digest against"),
            (PdbGuidMatchesHash { guid: "{G}".into() }, N, "PDB GUID {G} equals the HASH digest"),
            (PdbGuidDiffers { guid: "{G}".into() }, E, "PDB GUID {G} differs from the HASH digest: the PDB will not be found by its shader"),
            (PdbWithoutHash, W, "PDB container has no decodable HASH part to check the GUID against"),
            (Undecodable { error: too_short() }, E, "file is 0x2 bytes, shorter than the 32-byte container header"),
            (ProgramSizeMismatch { words: 5, part_size: 24 }, W, "program header says 5 words (20 bytes), the part has 24"),
            (BitcodeMagic, W, "bitcode does not start with the LLVM magic 'BC' 0xC0DE"),
            (BitstreamUnreadable { error: bitcode, at: 0x54, start: 0x50 }, E, "LLVM bitstream does not read: bitcode at bit 32 (byte 0x4): block runs past the end of the enclosing block or of the stream (file offset 0x54; the bitcode starts at 0x50)"),
            (FlagsSet { field: "section flags", flags: 0x10 }, W, "section flags are 0x10"),
            (NotFixedValue { field: "SectionCount", value: 2, expected: 3 }, W, "SectionCount is 2, not 3"),
            (DerivedPartDiffers { part: PartName::PSV0, detail: "shader stage Vertex, the module's entry point is Compute".into() }, E, "PSV0: shader stage Vertex, the module's entry point is Compute"),
            (DerivedPartsUnchecked { reason: "the module has no dx.entryPoints record".into() }, N, "the parts derived from the DXIL module were not checked: the module has no dx.entryPoints record"),
        ];
        let mut rows: Vec<(FindingKind, Severity, String)> = rows
            .into_iter()
            .map(|(k, s, t)| (k, s, t.to_string()))
            .collect();
        rows.push((
            RootSignatureUncovered {
                binding: binding(),
                against: "its RTS0".into(),
            },
            W,
            format!("PSV0 {} (its RTS0)", binding()),
        ));
        rows.push((
            RootSignatureNotChecked {
                against: "root signature 'rs.bin'".into(),
                reason: NotChecked::NoBindings,
            },
            W,
            "bindings not checked against root signature 'rs.bin': the container records no resource bindings (no PSV0 or RDEF part; reflection was stripped)".into(),
        ));
        rows
    }

    #[test]
    fn each_kind_has_its_sentence_and_severity() {
        let rows = table();
        assert!(rows.len() > 30);
        let mut names = std::collections::BTreeSet::new();
        for (kind, severity, sentence) in rows {
            assert_eq!(kind.to_string(), sentence, "{kind:?}");
            let name = kind.name();
            assert!(format!("{kind:?}").starts_with(&name) && !name.is_empty());
            names.insert(name);
            assert_eq!(kind.severity(), severity, "{kind:?}");
            // Without a part, a finding says what its kind says (rules add
            // their offset).
            let alone = Finding::new(kind.clone());
            assert_eq!(alone.to_string(), sentence);
            assert_eq!(alone.severity(), severity);
        }
        // One name per kind (FileSizeMismatch and Gap have two rows each).
        assert_eq!(names.len(), table().len() - 2);
        assert!(names.contains("DuplicateName") && names.contains("DigestZero"));
    }

    #[test]
    fn a_finding_names_its_part_and_offset_as_its_kind_says() {
        let part = PartRef {
            index: 2,
            name: PartName::DXIL,
            offset: 0x48,
        };
        let say = |kind: FindingKind| Finding::at(0x54, kind).in_part(part).to_string();
        // Structure: the part and its offset first.
        assert_eq!(
            say(Misaligned),
            "part 2 'DXIL' at offset 0x48: not 4-byte aligned"
        );
        // Verification of one part: the part first.
        assert_eq!(
            say(BitcodeMagic),
            "part 2 'DXIL': bitcode does not start with the LLVM magic 'BC' 0xC0DE"
        );
        // A decoder's rule: the part first, the offset last; without the part
        // (as the decoder makes it) only the offset.
        assert_eq!(
            say(crate::debug_name::DebugNameRule::NameUnterminated.into()),
            "part 2 'DXIL': name is not NUL-terminated (at offset 0x54)"
        );
        assert_eq!(
            Finding::at(0x54, crate::debug_name::DebugNameRule::NameUnterminated).to_string(),
            "name is not NUL-terminated (at offset 0x54)"
        );
        // Sentences that say where they are themselves.
        assert_eq!(say(DigestZero), DigestZero.to_string());
        let error = too_short();
        assert_eq!(
            say(Undecodable {
                error: error.clone()
            }),
            error.to_string()
        );
        let f = Finding::new(PdbWithoutHash).in_part(None);
        assert_eq!((f.part, f.offset), (None, None));
    }

    #[test]
    fn severities_order_and_words() {
        let all = [Severity::Note, Severity::Warning, Severity::Error];
        let words: Vec<String> = all.iter().map(Severity::to_string).collect();
        assert_eq!(words, ["note", "warning", "error"]);
        assert!(Severity::Note < Severity::Warning && Severity::Warning < Severity::Error);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn the_two_json_shapes() {
        #[derive(serde::Serialize)]
        struct Doc {
            #[serde(serialize_with = "ser::issues")]
            issues: Vec<Finding>,
            #[serde(serialize_with = "ser::checks")]
            checks: Vec<Finding>,
        }
        let part = PartRef {
            index: 1,
            name: PartName::ILDN,
            offset: 0x30,
        };
        let flags = Finding::at(
            0x38,
            crate::debug_name::DebugNameRule::ReservedFlags { flags: 1 },
        );
        let doc = Doc {
            issues: vec![flags.clone()],
            checks: vec![flags.in_part(part), Finding::at(4, DigestZero)],
        };
        assert_eq!(
            serde_json::to_string(&doc).unwrap(),
            concat!(
                r#"{"issues":[{"offset":56,"message":"reserved flags are 0x1, not 0"}],"#,
                r#""checks":[{"level":"warning","message":"part 1 'ILDN': reserved flags are 0x1, not 0 (at offset 0x38)"},"#,
                r#"{"level":"note","message":"header digest is zero: the container is not signed"}]}"#
            )
        );
    }
}
