//! The HASH upkeep step of the edit pipeline (after the plan, before the
//! digest decision): under [`HashPolicy::Auto`] a HASH part that matched its
//! bitcode in the input is recomputed when that bitcode changed; under
//! [`HashPolicy::Update`] it is always recomputed, and added when missing.

use crate::error::Result;
use crate::parts::{program_changed, EditWarning, HashSkip, PartData, PlanPart};
use crate::policy::HashPolicy;
use dxcopy_read::hash::{md5_of, HashStatus, ShaderHash};
use dxcopy_read::{Container, PartName, Program};

/// Applies the HASH policy to the planned parts: keeps, recomputes or adds
/// the HASH part, and says what it did (or why it could not).
pub(crate) fn upkeep_hash(
    parts: &mut Vec<PlanPart<'_>>,
    input: Option<&Container<'_>>,
    policy: HashPolicy,
    warnings: &mut Vec<EditWarning>,
) -> Result<()> {
    if policy == HashPolicy::Keep {
        return Ok(());
    }
    let existing = parts
        .iter()
        .find(|p| p.name == PartName::HASH)
        .map(|p| ShaderHash::parse_data(p.bytes(), 0));
    let hash = match (existing, policy) {
        (None, HashPolicy::Auto) => return Ok(()),
        (None, _) => ShaderHash {
            flags: 0,
            digest: [0; 16],
        },
        (Some(Err(e)), _) => {
            warnings.push(EditWarning::HashNotUpdated {
                reason: HashSkip::HashUndecodable(e),
            });
            return Ok(());
        }
        (Some(Ok(h)), _) => h,
    };
    let source = hash.source_part();
    if policy == HashPolicy::Auto {
        if !program_changed(parts, input, source) {
            return Ok(());
        }
        let matched = input.is_some_and(|c| hash.verify(c) == HashStatus::Valid);
        if !matched {
            warnings.push(EditWarning::HashNotUpdated {
                reason: HashSkip::Mismatch { source },
            });
            return Ok(());
        }
    }
    let bitcode_md5 = match parts.iter().find(|p| p.name == source) {
        None => {
            warnings.push(EditWarning::HashNotUpdated {
                reason: HashSkip::SourceMissing { source },
            });
            return Ok(());
        }
        Some(p) => match Program::parse_data(p.bytes(), 0) {
            Ok(program) => md5_of(program.bitcode),
            Err(e) => {
                warnings.push(EditWarning::HashNotUpdated {
                    reason: HashSkip::SourceUndecodable { source, error: e },
                });
                return Ok(());
            }
        },
    };
    let new = ShaderHash {
        flags: hash.flags,
        digest: bitcode_md5,
    };
    match parts.iter_mut().find(|p| p.name == PartName::HASH) {
        Some(p) => {
            if p.bytes().get(..20) == Some(&new.to_bytes()[..]) {
                return Ok(());
            }
            // Keep any trailing bytes of an oversized HASH part.
            let mut data = p.bytes().to_vec();
            data[..20].copy_from_slice(&new.to_bytes());
            p.data = PartData::Owned(data);
            p.source = None;
        }
        None => {
            let at = parts
                .iter()
                .position(|p| p.name == PartName::DXIL)
                .or_else(|| parts.iter().position(|p| p.name == PartName::PRIV))
                .unwrap_or(parts.len());
            parts.insert(
                at,
                PlanPart {
                    name: PartName::HASH,
                    data: PartData::Owned(new.to_bytes().to_vec()),
                    source: None,
                    kept: false,
                },
            );
        }
    }
    warnings.push(EditWarning::HashUpdated);
    Ok(())
}
