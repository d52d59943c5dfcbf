//! `--rebuild-parts`: every part dxc derives from the DXIL module (SFI0,
//! ISG1, OSG1, PSG1, PSV0, a library's RDAT, and HASH from validator 1.5)
//! made again from the module and put where dxc puts it, replacing stale
//! ones, adding missing ones and removing those dxc would not write (a
//! HASH below validator 1.5, a PSG1 without patch constants, a library's
//! signatures); parts that cannot be derived (RTS0, ILDB, ILDN, SRCI, STAT,
//! VERS, PRIV, …) stay as they are, and so does a library's RDAT that needs
//! feature flags not derived here ([`derive_rdat`]); its subobjects, which
//! dxc keeps only in RDAT, are carried over into the rebuilt one.
//!
//! The parts follow the module's validator version as dxc's container
//! writer does: below 1.7 dxc leaves parts unaligned, so the plan places
//! the rebuilt parts without padding then.

use crate::error::{EditError, RebuildFailure, Result};
use crate::parts::{PartData, PlanPart};
use crate::plan::EditPlan;
use crate::policy::HashPolicy;
use dxcopy_read::dxil::derived::{
    derive_parts_with, derive_rdat, validator_version, DERIVED_NAMES,
};
use dxcopy_read::dxil::metadata::DxilMetadata;
use dxcopy_read::dxil::Module;
use dxcopy_read::hash::{md5_of, ShaderHash};
use dxcopy_read::{PartName, Program};

/// dxc's part order (`SerializeDxilContainerForModule`): a part's rank.
fn rank(name: PartName) -> Option<u8> {
    const ORDER: [PartName; 14] = [
        PartName::SFI0,
        PartName::ISG1,
        PartName::OSG1,
        PartName::PSG1,
        PartName::VERS,
        PartName::RDAT,
        PartName::PSV0,
        PartName::RTS0,
        PartName::ILDB,
        PartName::STAT,
        PartName::ILDN,
        PartName::HASH,
        PartName::DXIL,
        PartName::PRIV,
    ];
    ORDER.iter().position(|&n| n == name).map(|i| i as u8)
}

/// Which parts the rebuild changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rebuilt {
    /// Parts that were missing and were added.
    pub added: Vec<PartName>,
    /// Parts whose bytes changed.
    pub replaced: Vec<PartName>,
    /// Parts present that the module does not derive, removed (a PSG1
    /// without patch constants, a library's PSV0).
    pub removed: Vec<PartName>,
}

fn failure(reason: RebuildFailure) -> EditError {
    EditError::RebuildParts { reason }
}

/// Rebuilds the derived parts of `plan` from its DXIL module.
///
/// Errors: no DXIL part, a DXIL part that is not a program or whose module
/// does not read, metadata that cannot give the parts. Nothing in the plan
/// changes on error.
pub fn rebuild_parts(plan: &mut EditPlan<'_>) -> Result<Rebuilt> {
    let dxil = plan
        .find(PartName::DXIL)
        .ok_or(failure(RebuildFailure::NoProgram))?;
    let program = Program::parse_data(dxil.bytes(), 0)
        .map_err(|e| failure(RebuildFailure::NotAProgram(e)))?;
    let module = Module::parse(program.bitcode).map_err(|e| failure(RebuildFailure::Module(e)))?;
    let metadata =
        DxilMetadata::read(&module).map_err(|e| failure(RebuildFailure::Derive(e.into())))?;
    let derived =
        derive_parts_with(&module, &metadata).map_err(|e| failure(RebuildFailure::Derive(e)))?;
    let validator = validator_version(&metadata);
    let hash = derived_hash(plan, validator)?;

    let mut rebuilt = Rebuilt::default();
    let mut new_parts = derived;
    // A library's RDAT (its subobjects carried over); where the module
    // cannot give it (flags not derived) the part stays as it is.
    let existing = plan.find(PartName::RDAT).map(|p| p.bytes().to_vec());
    if let Ok(rdat) = derive_rdat(&module, &metadata, existing.as_deref()) {
        new_parts.push(rdat);
    }
    if let Some(hash) = hash {
        new_parts.push(dxcopy_read::dxil::derived::DerivedPart {
            name: PartName::HASH,
            data: hash,
        });
    }
    let parts = plan.parts_mut();
    for name in DERIVED_NAMES.into_iter().chain([PartName::HASH]) {
        let had = parts.iter().any(|p| p.name == name);
        if had && !new_parts.iter().any(|p| p.name == name) {
            parts.retain(|p| p.name != name || p.kept);
            rebuilt.removed.push(name);
        }
    }
    for part in new_parts {
        match parts.iter_mut().find(|p| p.name == part.name) {
            Some(existing) if existing.bytes() == part.data.as_slice() => {}
            Some(existing) => {
                existing.replace_data(part.data);
                rebuilt.replaced.push(part.name);
            }
            None => {
                let at = insert_position(parts, part.name);
                parts.insert(
                    at,
                    PlanPart {
                        name: part.name,
                        data: PartData::Owned(part.data),
                        source: None,
                        kept: false,
                    },
                );
                rebuilt.added.push(part.name);
            }
        }
    }
    if validator < (1, 7) {
        plan.align_placed_parts = false;
    }
    if validator >= (1, 5) {
        // The HASH part is the new bitcode's already; the upkeep step would
        // judge it against the input's bitcode.
        plan.hash_policy = HashPolicy::Keep;
    }
    Ok(rebuilt)
}

/// Where dxc would put a new part `name` among `parts`: before the first
/// part dxc writes after it.
fn insert_position(parts: &[PlanPart<'_>], name: PartName) -> usize {
    let Some(own) = rank(name) else {
        return parts.len();
    };
    parts
        .iter()
        .position(|p| rank(p.name).is_some_and(|r| r > own))
        .unwrap_or(parts.len())
}

/// The HASH part dxc writes from validator 1.5 (none below): the MD5 of
/// the DXIL bitcode with flags 0, or of the ILDB bitcode when the
/// container's HASH says it includes the source (flag 1). Such a HASH stays
/// as it is when ILDB is gone (stripped or split off into a PDB): nothing
/// is left to compute it from.
fn derived_hash(plan: &EditPlan<'_>, validator: (u32, u32)) -> Result<Option<Vec<u8>>> {
    if validator < (1, 5) {
        return Ok(None);
    }
    let existing = plan.find(PartName::HASH);
    let decoded = existing.and_then(|p| ShaderHash::parse_data(p.bytes(), 0).ok());
    let mut hash = ShaderHash {
        flags: decoded.map_or(0, |h| h.flags),
        digest: [0; 16],
    };
    let source = match (plan.find(hash.source_part()), decoded) {
        (Some(part), _) => part,
        (None, Some(kept)) => return Ok(Some(kept.to_bytes())),
        (None, None) => return Err(failure(RebuildFailure::NoProgram)),
    };
    let program = Program::parse_data(source.bytes(), 0).map_err(|source| {
        EditError::HashSourceNotAProgram {
            name: hash.source_part(),
            source,
        }
    })?;
    hash.digest = md5_of(program.bitcode);
    Ok(Some(hash.to_bytes()))
}
