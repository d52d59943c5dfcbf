//! The first step of the edit pipeline: what a plan is made of. A part's
//! bytes are borrowed from the input or owned new data ([`PartData`]); new
//! data is padded by one rule ([`pad_for`]); and the warnings every later step
//! may add ([`EditWarning`]) are defined here, so that no step needs another
//! step's types.
//!
//! The pipeline, one file per step, each importing only the steps before it:
//! parts (this file) → [`plan`](crate::plan) (the operations) → HASH upkeep →
//! digest decision → layout → writers ([`output`](crate::output)), driven in
//! that order by [`EditPlan::finish`](crate::EditPlan::finish).

use crate::error::{Operation, PdbMismatchReason, Spelling};
use dxcopy_read::{Container, PartName, ReadError};

/// A part's bytes: borrowed from the input (or a mapped data file), or
/// owned new data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartData<'data> {
    /// Exact bytes of an input part, or the whole data of a mapped data file
    /// that needs no padding.
    Borrowed(&'data [u8]),
    /// New bytes (already padded as the layout rules require).
    Owned(Vec<u8>),
    /// A large mapped data file whose length is not a multiple of 4: its
    /// bytes, then `zeros` (1–3) zero bytes of padding that belong to the
    /// part. The writers stream the bytes from the mapping, so a big
    /// `--add-section` file is never copied to the heap.
    Padded {
        /// The file's bytes.
        bytes: &'data [u8],
        /// Zero bytes after them.
        zeros: u8,
    },
}

/// Mapped data up to this size is copied and padded like any new data;
/// larger data keeps pointing into its mapping ([`PartData::Padded`]).
const COPY_SMALL_DATA: usize = 64 << 10;

impl<'data> PartData<'data> {
    /// The bytes (for [`Padded`](Self::Padded) data, without its padding
    /// zeros; [`len`](Self::len) counts them).
    pub fn as_slice(&self) -> &[u8] {
        match self {
            PartData::Borrowed(b) | PartData::Padded { bytes: b, .. } => b,
            PartData::Owned(v) => v,
        }
    }

    /// The zero bytes that follow [`as_slice`](Self::as_slice) in the part.
    pub fn zeros(&self) -> usize {
        match self {
            PartData::Padded { zeros, .. } => usize::from(*zeros),
            _ => 0,
        }
    }

    /// The part's data size: the bytes and the padding zeros.
    pub fn len(&self) -> usize {
        self.as_slice().len() + self.zeros()
    }

    /// Whether the part has no data.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether both hold the same part data (padding included), whatever
    /// their form.
    pub fn same_bytes(&self, other: &PartData<'_>) -> bool {
        let (a, b) = (self.as_slice(), other.as_slice());
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        self.len() == other.len()
            && long.starts_with(short)
            && long[short.len()..].iter().all(|&x| x == 0)
    }

    /// New data for a part named `name` from bytes that live as long as the
    /// plan (a mapped data file), padded by the rule of `pad_for`: borrowed
    /// when no padding is needed, copied when small, else
    /// [`Padded`](Self::Padded).
    pub fn new_data(name: PartName, bytes: &'data [u8]) -> Self {
        let zeros = if name == PartName::PRIV {
            0
        } else {
            bytes.len().next_multiple_of(4) - bytes.len()
        };
        if zeros == 0 {
            PartData::Borrowed(bytes)
        } else if bytes.len() <= COPY_SMALL_DATA {
            PartData::Owned(pad_for(name, bytes.to_vec()))
        } else {
            PartData::Padded {
                bytes,
                zeros: zeros as u8,
            }
        }
    }
}

/// One part of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanPart<'data> {
    /// Four-byte name.
    pub name: PartName,
    /// Its bytes.
    pub data: PartData<'data>,
    /// Index of the input part it came from, unchanged; `None` for new or replaced data.
    pub source: Option<u32>,
    /// Exempt from removal and strip classes (`--keep-section`).
    pub kept: bool,
}

impl<'data> PlanPart<'data> {
    /// The part's data bytes (without the padding zeros of
    /// [`PartData::Padded`] data; [`size`](Self::size) counts them).
    pub fn bytes(&self) -> &[u8] {
        self.data.as_slice()
    }

    /// The part's data size, as its part header gives it.
    pub fn size(&self) -> usize {
        self.data.len()
    }

    /// Gives the part new data. Data equal to what it holds leaves it as it
    /// is: a carried-over part stays carried over (same place, same packing).
    pub fn replace_data(&mut self, data: Vec<u8>) {
        self.replace_part_data(PartData::Owned(data));
    }

    /// [`replace_data`](Self::replace_data) with data in any form.
    pub fn replace_part_data(&mut self, data: PartData<'data>) {
        if !self.data.same_bytes(&data) {
            self.data = data;
            self.source = None;
        }
    }
}

/// Things the caller should tell the user (the library never prints).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditWarning {
    /// The input digest was invalid; under [`DigestPolicy::Auto`](crate::DigestPolicy::Auto)
    /// it is copied unchanged.
    InvalidDigestKept,
    /// DXIL bytes changed and the output was re-signed: signing is not validation.
    ResignedWithoutValidation,
    /// The HASH part could not be recomputed.
    HashNotUpdated {
        /// Why.
        reason: HashSkip,
    },
    /// The HASH part was recomputed.
    HashUpdated,
    /// PRIV was not last in the input and was moved to the end.
    PrivMovedLast,
    /// A split needed a HASH part (it names and pairs the PDB) and one was added.
    HashAdded {
        /// The digest, as 32 lower-case hex digits.
        digest: String,
        /// The part whose bitcode it covers (DXIL, or ILDB when there is no DXIL).
        source: PartName,
    },
    /// Embedding the split-off PDB as PRIV replaced an existing PRIV part.
    PrivateReplacedByPdb,
    /// Debug info was added, as forced, from a PDB that does not belong to the shader.
    PdbMismatchForced {
        /// What did not match.
        reason: PdbMismatchReason,
    },
    /// Bitcode names were stripped, but the output keeps a dxc STAT part:
    /// its bitcode, a copy of the shader's with reflection, keeps every name.
    StatKeepsBitcodeNames,
}

/// Why the HASH part was not recomputed ([`EditWarning::HashNotUpdated`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HashSkip {
    /// The HASH part itself does not decode.
    HashUndecodable(ReadError),
    /// Under [`HashPolicy::Auto`](crate::HashPolicy::Auto): the HASH did not
    /// match the input's bitcode of `source`, so it is not the bitcode's MD5
    /// and is left alone ([`HashPolicy::Update`](crate::HashPolicy::Update)
    /// recomputes it anyway).
    Mismatch {
        /// The part the HASH covers.
        source: PartName,
    },
    /// The output has no `source` part to hash.
    SourceMissing {
        /// The part the HASH covers.
        source: PartName,
    },
    /// The output's `source` part does not decode as a program.
    SourceUndecodable {
        /// The part the HASH covers.
        source: PartName,
        /// Why.
        error: ReadError,
    },
}

impl EditWarning {
    /// The message with every [`Operation`] it names spelled by `spell`
    /// (`to_string()` is `message_with(Operation::describe)`).
    pub fn message_with(&self, spell: Spelling) -> String {
        match self {
            EditWarning::InvalidDigestKept => format!(
                "the input's digest is not valid; it was copied unchanged (use {} to re-sign)",
                spell(Operation::DigestRetail)
            ),
            EditWarning::ResignedWithoutValidation => "the DXIL part changed and the container was re-signed; signing is not validation (run dxv to validate)".to_string(),
            EditWarning::HashNotUpdated { reason } => {
                let reason = match reason {
                    HashSkip::HashUndecodable(e) => format!("the HASH part does not decode: {e}"),
                    HashSkip::Mismatch { source } => format!(
                        "it did not match the {source} bitcode in the input (use {} to force)",
                        spell(Operation::HashUpdate)
                    ),
                    HashSkip::SourceMissing { source } => {
                        format!("the output has no {source} part to hash")
                    }
                    HashSkip::SourceUndecodable { source, error } => {
                        format!("the {source} part does not decode: {error}")
                    }
                };
                format!("HASH part not updated: {reason}")
            }
            EditWarning::HashUpdated => "HASH part recomputed from the new bitcode".to_string(),
            EditWarning::PrivMovedLast => "PRIV part moved to the end of the container".to_string(),
            EditWarning::HashAdded { digest, source } => format!(
                "the container had no HASH part; added one ({digest}, MD5 of the {source} bitcode) to name and pair the PDB"
            ),
            EditWarning::PrivateReplacedByPdb => format!(
                "the existing PRIV part was replaced by the PDB ({})",
                spell(Operation::PdbInPrivate)
            ),
            EditWarning::PdbMismatchForced { reason } => format!(
                "the PDB does not belong to this shader ({reason}); its debug info was added anyway ({})",
                spell(Operation::Force)
            ),
            EditWarning::StatKeepsBitcodeNames => format!(
                "the STAT part keeps its bitcode names ({} strips DXIL and ILDB; STAT holds a copy of the shader's bitcode with reflection); use {} to remove it",
                spell(Operation::StripBitcodeNames),
                spell(Operation::StripReflect)
            ),
        }
    }
}

impl std::fmt::Display for EditWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message_with(Operation::describe))
    }
}

fn pad4(mut data: Vec<u8>) -> Vec<u8> {
    let padded = data.len().div_ceil(4) * 4;
    data.resize(padded, 0);
    data
}

/// Applies the layout rule for new data: PRIV keeps its exact size, every
/// other part is zero-padded to a multiple of 4 (the size includes the padding).
pub fn pad_for(name: PartName, data: Vec<u8>) -> Vec<u8> {
    if name == PartName::PRIV {
        data
    } else {
        pad4(data)
    }
}

/// Whether the `name` part of `parts` differs from the input's: present now
/// but not in the input, or replaced by other bytes.
pub(crate) fn program_changed(
    parts: &[PlanPart<'_>],
    input: Option<&Container<'_>>,
    name: PartName,
) -> bool {
    let now = parts.iter().find(|p| p.name == name);
    let before = input.and_then(|c| c.find(name));
    match (now, before) {
        (Some(n), Some(b)) => n.source != Some(b.index) && n.bytes() != b.data,
        (Some(_), None) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every warning's sentence in the library's words, and with a front
    /// end's spelling of the operations it names.
    #[test]
    fn every_warning_has_its_sentence() {
        fn flag(op: Operation) -> &'static str {
            match op {
                Operation::DigestRetail => "RETAIL",
                Operation::HashUpdate => "UPDATE",
                Operation::PdbInPrivate => "IN-PRIV",
                Operation::Force => "FORCE",
                _ => "OTHER",
            }
        }
        let read = ReadError::part_not_found("HASH");
        let rows = [
            (
                EditWarning::InvalidDigestKept,
                "the input's digest is not valid; it was copied unchanged (use the retail digest policy to re-sign)".to_string(),
                "the input's digest is not valid; it was copied unchanged (use RETAIL to re-sign)".to_string(),
            ),
            (
                EditWarning::ResignedWithoutValidation,
                "the DXIL part changed and the container was re-signed; signing is not validation (run dxv to validate)".to_string(),
                "the DXIL part changed and the container was re-signed; signing is not validation (run dxv to validate)".to_string(),
            ),
            (
                EditWarning::HashNotUpdated {
                    reason: HashSkip::HashUndecodable(read.clone()),
                },
                format!("HASH part not updated: the HASH part does not decode: {read}"),
                format!("HASH part not updated: the HASH part does not decode: {read}"),
            ),
            (
                EditWarning::HashNotUpdated {
                    reason: HashSkip::Mismatch {
                        source: PartName::DXIL,
                    },
                },
                "HASH part not updated: it did not match the DXIL bitcode in the input (use the update HASH policy to force)".to_string(),
                "HASH part not updated: it did not match the DXIL bitcode in the input (use UPDATE to force)".to_string(),
            ),
            (
                EditWarning::HashNotUpdated {
                    reason: HashSkip::SourceMissing {
                        source: PartName::ILDB,
                    },
                },
                "HASH part not updated: the output has no ILDB part to hash".to_string(),
                "HASH part not updated: the output has no ILDB part to hash".to_string(),
            ),
            (
                EditWarning::HashNotUpdated {
                    reason: HashSkip::SourceUndecodable {
                        source: PartName::DXIL,
                        error: read.clone(),
                    },
                },
                format!("HASH part not updated: the DXIL part does not decode: {read}"),
                format!("HASH part not updated: the DXIL part does not decode: {read}"),
            ),
            (
                EditWarning::HashUpdated,
                "HASH part recomputed from the new bitcode".to_string(),
                "HASH part recomputed from the new bitcode".to_string(),
            ),
            (
                EditWarning::PrivMovedLast,
                "PRIV part moved to the end of the container".to_string(),
                "PRIV part moved to the end of the container".to_string(),
            ),
            (
                EditWarning::HashAdded {
                    digest: "00112233445566778899aabbccddeeff".into(),
                    source: PartName::DXIL,
                },
                "the container had no HASH part; added one (00112233445566778899aabbccddeeff, MD5 of the DXIL bitcode) to name and pair the PDB".to_string(),
                "the container had no HASH part; added one (00112233445566778899aabbccddeeff, MD5 of the DXIL bitcode) to name and pair the PDB".to_string(),
            ),
            (
                EditWarning::PrivateReplacedByPdb,
                "the existing PRIV part was replaced by the PDB (embedding the PDB as PRIV)".to_string(),
                "the existing PRIV part was replaced by the PDB (IN-PRIV)".to_string(),
            ),
            (
                EditWarning::PdbMismatchForced {
                    reason: PdbMismatchReason::HashPart {
                        pdb_hash: None,
                        shader_hash: None,
                    },
                },
                "the PDB does not belong to this shader (its HASH part (none) is not the shader's none (the shader has no HASH part), and its container does not carry the shader's digest); its debug info was added anyway (forced)".to_string(),
                "the PDB does not belong to this shader (its HASH part (none) is not the shader's none (the shader has no HASH part), and its container does not carry the shader's digest); its debug info was added anyway (FORCE)".to_string(),
            ),
        ];
        for (w, neutral, spelled) in rows {
            assert_eq!(w.to_string(), neutral, "{w:?}");
            assert_eq!(w.message_with(flag), spelled, "{w:?}");
        }
    }

    #[test]
    fn new_data_is_padded_like_owned_data() {
        let big = vec![5u8; COPY_SMALL_DATA + 1];
        let name = PartName(*b"BIGE");
        let d = PartData::new_data(name, &big);
        assert_eq!(
            d,
            PartData::Padded {
                bytes: &big,
                zeros: 3
            }
        );
        assert_eq!((d.len(), d.zeros()), (big.len() + 3, 3));
        let owned = PartData::Owned(pad_for(name, big.clone()));
        assert!(d.same_bytes(&owned) && owned.same_bytes(&d));
        assert!(!d.same_bytes(&PartData::Borrowed(&big)));
        // No padding needed: borrowed; PRIV is never padded; small data is copied.
        let aligned = vec![1u8; COPY_SMALL_DATA + 4];
        assert_eq!(
            PartData::new_data(name, &aligned),
            PartData::Borrowed(&aligned)
        );
        assert_eq!(
            PartData::new_data(PartName::PRIV, &big),
            PartData::Borrowed(&big)
        );
        assert_eq!(
            PartData::new_data(name, b"abcde"),
            PartData::Owned(b"abcde\0\0\0".to_vec())
        );
        // A different last byte is different data.
        let mut other = big.clone();
        *other.last_mut().unwrap() = 6;
        assert!(!d.same_bytes(&PartData::new_data(name, &other)));
    }
}
