//! The edit plan: an ordered list of parts, each borrowed from the input or
//! owned new bytes. Operations only rearrange that list and never compute
//! offsets; [`EditPlan::finish`] (in the pipeline driver) hands the list to
//! HASH upkeep, the digest decision, the layout and the writers, in that order.

use crate::error::{EditError, Result};
use crate::matcher::NameMatcher;
pub use crate::parts::{pad_for, EditWarning, PartData, PlanPart};
use crate::policy::{DigestPolicy, HashPolicy};
use crate::strip::StripClass;
use dxcopy_read::program::{self, Program};
use dxcopy_read::{Container, DigestKind, PartName, ReadError};

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
    /// Start every part with new or replaced data on a 4-byte boundary (1–3
    /// zero bytes before it when its predecessor ends unaligned). On by
    /// default; parts carried over from the input always keep their packing.
    pub align_placed_parts: bool,
    /// The input's digest kind, when the caller already classified it.
    input_digest_kind: Option<DigestKind>,
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
            align_placed_parts: true,
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
            align_placed_parts: true,
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
        self.add_data(name, PartData::Owned(pad_for(name, data)))
    }

    /// [`add`](Self::add) with data already padded (see
    /// [`PartData::new_data`]), e.g. borrowed from a mapped data file.
    pub fn add_data(&mut self, name: PartName, data: PartData<'data>) -> Result<()> {
        if self.find(name).is_some() {
            return Err(EditError::AlreadyExists(name));
        }
        self.insert_new(name, data);
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

    fn insert_new(&mut self, name: PartName, data: PartData<'data>) {
        let part = PlanPart {
            name,
            data,
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
        let is_program = name == PartName::DXIL || name == PartName::ILDB;
        if is_program && data.starts_with(&program::BITCODE_MAGIC) {
            return self.update_data(name, PartData::Owned(data));
        }
        self.update_data(name, PartData::Owned(pad_for(name, data)))
    }

    /// [`update`](Self::update) with data already padded (see
    /// [`PartData::new_data`]). Raw bitcode for DXIL/ILDB is recognised by
    /// its first bytes, as there (such data is never padded: it is a multiple
    /// of 4 bytes, or small).
    pub fn update_data(&mut self, name: PartName, data: PartData<'data>) -> Result<()> {
        if self.find(name).is_none() {
            return Err(ReadError::part_not_found(name.to_string()).into());
        }
        let is_program = name == PartName::DXIL || name == PartName::ILDB;
        if is_program && data.as_slice().starts_with(&program::BITCODE_MAGIC) {
            return self.replace_bitcode(name, data.as_slice());
        }
        for p in self.parts.iter_mut().filter(|p| p.name == name) {
            p.replace_part_data(data.clone());
        }
        Ok(())
    }

    /// Adds PRIV, or replaces every PRIV part with one holding `data`.
    pub fn set_private(&mut self, data: Vec<u8>) {
        self.set_private_data(PartData::Owned(data));
    }

    /// [`set_private`](Self::set_private) with data in any form (PRIV is
    /// never padded).
    pub fn set_private_data(&mut self, data: PartData<'data>) {
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
            .ok_or_else(|| ReadError::part_not_found(name.to_string()))?;
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
        part.replace_data(data);
        Ok(())
    }

    /// Checks that there is at most one PRIV part and moves it to the end,
    /// where the layout rules put it; says so when it moved.
    pub(crate) fn place_private_last(&mut self) -> Result<Option<EditWarning>> {
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
                return Ok(Some(EditWarning::PrivMovedLast));
            }
        }
        Ok(None)
    }

    /// The plan taken apart for the steps after it.
    pub(crate) fn into_planned(self) -> Planned<'data> {
        Planned {
            input: self.input,
            version: self.version,
            parts: self.parts,
            digest_policy: self.digest_policy,
            hash_policy: self.hash_policy,
            align_placed_parts: self.align_placed_parts,
            input_digest_kind: self.input_digest_kind,
        }
    }

    pub(crate) fn parts_mut(&mut self) -> &mut Vec<PlanPart<'data>> {
        &mut self.parts
    }
}

/// What the steps after the plan take from it (see [`EditPlan::into_planned`]).
pub(crate) struct Planned<'data> {
    pub input: Option<Container<'data>>,
    pub version: (u16, u16),
    pub parts: Vec<PlanPart<'data>>,
    pub digest_policy: DigestPolicy,
    pub hash_policy: HashPolicy,
    pub align_placed_parts: bool,
    pub input_digest_kind: Option<DigestKind>,
}

impl Default for EditPlan<'_> {
    fn default() -> Self {
        Self::new()
    }
}
