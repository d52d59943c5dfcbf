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

/// A part's bytes: borrowed from the input, or owned new data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartData<'data> {
    /// Exact bytes of an input part.
    Borrowed(&'data [u8]),
    /// New bytes (already padded as the layout rules require).
    Owned(Vec<u8>),
}

impl PartData<'_> {
    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            PartData::Borrowed(b) => b,
            PartData::Owned(v) => v,
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

impl PlanPart<'_> {
    /// The part's data bytes.
    pub fn bytes(&self) -> &[u8] {
        self.data.as_slice()
    }

    /// Gives the part new data. Data equal to what it holds leaves it as it
    /// is: a carried-over part stays carried over (same place, same packing).
    pub fn replace_data(&mut self, data: Vec<u8>) {
        if self.bytes() != data {
            self.data = PartData::Owned(data);
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
