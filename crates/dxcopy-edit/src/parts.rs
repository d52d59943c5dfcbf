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

use dxcopy_read::{Container, PartName};

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
    /// plan (a mapped data file), padded by the rule of [`pad_for`]: borrowed
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
    /// The input digest was invalid; with `--digest=auto` it is copied unchanged.
    InvalidDigestKept,
    /// DXIL bytes changed and the output was re-signed: signing is not validation.
    ResignedWithoutValidation,
    /// The HASH part could not be recomputed.
    HashNotUpdated {
        /// Why.
        reason: String,
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
    /// `--pdb-in-private` replaced an existing PRIV part.
    PrivateReplacedByPdb,
    /// `--force` added debug info from a PDB that does not belong to the shader.
    PdbMismatchForced {
        /// What did not match.
        reason: String,
    },
}

impl std::fmt::Display for EditWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditWarning::InvalidDigestKept => f.write_str(
                "the input's digest is not valid; it was copied unchanged (use --digest=retail to re-sign)",
            ),
            EditWarning::ResignedWithoutValidation => f.write_str(
                "the DXIL part changed and the container was re-signed; signing is not validation (run dxv to validate)",
            ),
            EditWarning::HashNotUpdated { reason } => write!(f, "HASH part not updated: {reason}"),
            EditWarning::HashUpdated => f.write_str("HASH part recomputed from the new bitcode"),
            EditWarning::PrivMovedLast => f.write_str("PRIV part moved to the end of the container"),
            EditWarning::HashAdded { digest, source } => write!(
                f,
                "the container had no HASH part; added one ({digest}, MD5 of the {source} bitcode) to name and pair the PDB"
            ),
            EditWarning::PrivateReplacedByPdb => {
                f.write_str("the existing PRIV part was replaced by the PDB (--pdb-in-private)")
            }
            EditWarning::PdbMismatchForced { reason } => write!(
                f,
                "the PDB does not belong to this shader ({reason}); its debug info was added anyway (--force)"
            ),
        }
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
