//! The edit plan: an ordered list of parts, each borrowed from the input or
//! owned new bytes. Operations only rearrange that list; [`EditPlan::finish`]
//! computes the layout, the HASH part and the digest, giving an [`Output`].

use crate::error::{EditError, Result};
use crate::matcher::NameMatcher;
use crate::output::{DigestDecision, Output};
use crate::policy::{DigestPolicy, HashPolicy};
use crate::strip::StripClass;
use dxcopy_read::digest;
use dxcopy_read::program::{self, Program};
use dxcopy_read::{Container, DigestKind, PartName};

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

/// An ordered list of parts plus header fields and signing policies.
#[derive(Debug, Clone)]
pub struct EditPlan<'data> {
    input: Option<Container<'data>>,
    /// Container format version (major, minor).
    pub version: (u16, u16),
    parts: Vec<PlanPart<'data>>,
    /// What to do with the header digest.
    pub digest_policy: DigestPolicy,
    /// What to do with the HASH part.
    pub hash_policy: HashPolicy,
    /// The input's digest kind, when the caller already classified it.
    input_digest_kind: Option<DigestKind>,
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

impl<'data> EditPlan<'data> {
    /// An empty plan for a new version-1.0 container (unsigned unless a policy says otherwise).
    pub fn new() -> Self {
        EditPlan {
            input: None,
            version: (1, 0),
            parts: Vec::new(),
            digest_policy: DigestPolicy::Auto,
            hash_policy: HashPolicy::Auto,
            input_digest_kind: None,
        }
    }

    /// A plan that reproduces `container`: every part borrowed, in table order.
    pub fn from_container(container: &Container<'data>) -> Self {
        let h = container.header();
        EditPlan {
            input: Some(*container),
            version: (h.major, h.minor),
            parts: container
                .parts()
                .map(|p| PlanPart {
                    name: p.name,
                    data: PartData::Borrowed(p.data),
                    source: Some(p.index),
                    kept: false,
                })
                .collect(),
            digest_policy: DigestPolicy::Auto,
            hash_policy: HashPolicy::Auto,
            input_digest_kind: None,
        }
    }

    /// Records the input's digest kind, so that `finish` does not hash the
    /// whole input again to classify it. For callers that make several plans
    /// over one input (dumps, extracts and the main output); only
    /// [`DigestPolicy::Auto`] uses it. `kind` must be the input's real kind.
    pub fn set_input_digest_kind(&mut self, kind: DigestKind) {
        self.input_digest_kind = Some(kind);
    }

    /// The input container, if the plan was made from one.
    pub fn input(&self) -> Option<&Container<'data>> {
        self.input.as_ref()
    }

    /// The parts in order.
    pub fn parts(&self) -> &[PlanPart<'data>] {
        &self.parts
    }

    /// The first part named `name`.
    pub fn find(&self, name: PartName) -> Option<&PlanPart<'data>> {
        self.parts.iter().find(|p| p.name == name)
    }

    /// Marks matching parts as exempt from removal and strip classes. Returns how many.
    pub fn keep(&mut self, matcher: &NameMatcher) -> usize {
        let mut n = 0;
        for p in self.parts.iter_mut().filter(|p| matcher.matches(&p.name)) {
            p.kept = true;
            n += 1;
        }
        n
    }

    fn remove_where(&mut self, mut pred: impl FnMut(&PlanPart<'data>) -> bool) -> usize {
        let before = self.parts.len();
        self.parts.retain(|p| p.kept || !pred(p));
        before - self.parts.len()
    }

    /// Removes every matching part that is not kept. Returns how many.
    pub fn remove(&mut self, matcher: &NameMatcher) -> usize {
        self.remove_where(|p| matcher.matches(&p.name))
    }

    /// Keeps only matching (or kept) parts. Returns how many were removed.
    pub fn only(&mut self, matcher: &NameMatcher) -> usize {
        self.remove_where(|p| !matcher.matches(&p.name))
    }

    /// Removes the parts of a strip class (except kept ones). Returns how many.
    pub fn strip(&mut self, class: StripClass) -> usize {
        self.remove_where(|p| class.covers(&p.name))
    }

    /// Adds a new part (PRIV at the end, unpadded; others padded to 4 and placed
    /// before any PRIV). Error if a part of that name exists.
    pub fn add(&mut self, name: PartName, data: Vec<u8>) -> Result<()> {
        if self.find(name).is_some() {
            return Err(EditError::AlreadyExists(name));
        }
        self.insert_new(name, pad_for(name, data));
        Ok(())
    }

    /// Appends a part with exactly these bytes (no padding, no duplicate check).
    /// For builders and tests that need unusual layouts; `finish` still moves PRIV last.
    pub fn add_raw(&mut self, name: PartName, data: Vec<u8>) {
        self.parts.push(PlanPart {
            name,
            data: PartData::Owned(data),
            source: None,
            kept: false,
        });
    }

    fn insert_new(&mut self, name: PartName, data: Vec<u8>) {
        let part = PlanPart {
            name,
            data: PartData::Owned(data),
            source: None,
            kept: false,
        };
        let at = if name == PartName::PRIV {
            self.parts.len()
        } else {
            self.parts
                .iter()
                .position(|p| p.name == PartName::PRIV)
                .unwrap_or(self.parts.len())
        };
        self.parts.insert(at, part);
    }

    /// Replaces the data of every part named `name`. For DXIL/ILDB, data that is
    /// raw LLVM bitcode (`BC 0xC0DE`) replaces only the bitcode and keeps the
    /// program header. Error if the part is missing.
    pub fn update(&mut self, name: PartName, data: Vec<u8>) -> Result<()> {
        if self.find(name).is_none() {
            return Err(EditError::NotFound(name.to_string()));
        }
        let is_program = name == PartName::DXIL || name == PartName::ILDB;
        if is_program && data.starts_with(&program::BITCODE_MAGIC) {
            return self.replace_bitcode(name, &data);
        }
        let data = pad_for(name, data);
        for p in self.parts.iter_mut().filter(|p| p.name == name) {
            p.data = PartData::Owned(data.clone());
            p.source = None;
        }
        Ok(())
    }

    /// Adds PRIV, or replaces every PRIV part with one holding `data`.
    pub fn set_private(&mut self, data: Vec<u8>) {
        self.parts.retain(|p| p.name != PartName::PRIV);
        self.insert_new(PartName::PRIV, data);
    }

    /// Replaces the bitcode of a DXIL or ILDB part, keeping its program
    /// header's shader kind and versions and rewriting its sizes.
    pub fn replace_bitcode(&mut self, name: PartName, bitcode: &[u8]) -> Result<()> {
        let part = self
            .parts
            .iter_mut()
            .find(|p| p.name == name)
            .ok_or_else(|| EditError::NotFound(name.to_string()))?;
        let old = Program::parse_data(part.bytes(), 0)
            .map_err(|source| EditError::NotAProgram { name, source })?;
        let data = program::build_program_data(
            old.model_major,
            old.model_minor,
            old.shader_kind,
            old.dxil_major,
            old.dxil_minor,
            bitcode,
        );
        part.data = PartData::Owned(data);
        part.source = None;
        Ok(())
    }

    /// Lays out the parts, applies the HASH and digest policies and returns the
    /// output, ready to write. Warnings are collected in [`Output::warnings`].
    pub fn finish(mut self) -> Result<Output<'data>> {
        let mut warnings = Vec::new();
        let privs = self
            .parts
            .iter()
            .filter(|p| p.name == PartName::PRIV)
            .count();
        if privs > 1 {
            return Err(EditError::MultiplePriv(privs));
        }
        if let Some(i) = self.parts.iter().position(|p| p.name == PartName::PRIV) {
            if i + 1 != self.parts.len() {
                let p = self.parts.remove(i);
                self.parts.push(p);
                warnings.push(EditWarning::PrivMovedLast);
            }
        }
        crate::policy::upkeep_hash(&mut self, &mut warnings)?;
        let dxil_changed = self.program_changed(PartName::DXIL);
        let stored = self.input.map(|c| c.header().digest);
        let known_kind = self
            .input_digest_kind
            .or_else(|| stored.and_then(|s| digest::sentinel_kind(&s)));
        let decision = match (self.digest_policy, stored, known_kind) {
            // Whether a signed input verifies is left to the writer, which
            // hashes the input beside its own work (see output.rs).
            (DigestPolicy::Auto, Some(s), None) => DigestDecision::ClassifyInput { stored: s },
            (policy, stored, known_kind) => {
                DigestDecision::Resolved(crate::policy::resolve_digest(policy, stored, || {
                    known_kind
                }))
            }
        };
        Output::new(
            self.version,
            self.parts,
            self.input.map(|c| c.data()),
            decision,
            dxil_changed,
            warnings,
        )
    }

    /// Whether the plan's `name` program part differs from the input's.
    pub(crate) fn program_changed(&self, name: PartName) -> bool {
        let now = self.find(name);
        let before = self.input.as_ref().and_then(|c| c.find(name));
        match (now, before) {
            (Some(n), Some(b)) => n.source != Some(b.index) && n.bytes() != b.data,
            (Some(_), None) => true,
            _ => false,
        }
    }

    pub(crate) fn parts_mut(&mut self) -> &mut Vec<PlanPart<'data>> {
        &mut self.parts
    }
}

impl Default for EditPlan<'_> {
    fn default() -> Self {
        Self::new()
    }
}
