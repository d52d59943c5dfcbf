//! Digest and HASH policies (what to do with header bytes 4..20 and the HASH
//! part when the container changes).

use crate::error::Result;
use crate::plan::{EditPlan, EditWarning, PartData, PlanPart};
use dxcopy_read::digest::{self, Variant};
use dxcopy_read::hash::{md5_of, HashStatus, ShaderHash};
use dxcopy_read::{DigestKind, PartName, Program};

/// What to write into the header digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DigestPolicy {
    /// Re-sign with the kind the input had: retail → retail, debug → debug,
    /// zero stays zero, BYPASS/PREVIEW kept, an invalid digest kept with a warning.
    /// A new container (no input) gets a zero digest.
    #[default]
    Auto,
    /// Compute the retail digest.
    Retail,
    /// Compute the debug digest.
    Debug,
    /// Write zeros (unsigned).
    Zero,
    /// Copy the input's digest bytes unchanged (llvm-objcopy's behaviour).
    Keep,
    /// Write the BYPASS sentinel.
    Bypass,
    /// Write the PREVIEW sentinel.
    Preview,
}

impl DigestPolicy {
    /// Parses `auto|retail|debug|zero|keep|bypass|preview`.
    pub fn parse(s: &str) -> Option<DigestPolicy> {
        Some(match s {
            "auto" => DigestPolicy::Auto,
            "retail" => DigestPolicy::Retail,
            "debug" => DigestPolicy::Debug,
            "zero" => DigestPolicy::Zero,
            "keep" => DigestPolicy::Keep,
            "bypass" => DigestPolicy::Bypass,
            "preview" => DigestPolicy::Preview,
            _ => return None,
        })
    }
}

/// What to do with the HASH part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HashPolicy {
    /// Recompute HASH when it matched its bitcode in the input and that bitcode changed.
    #[default]
    Auto,
    /// Never touch HASH.
    Keep,
    /// Always recompute HASH from the output's bitcode (adding a HASH part if missing).
    Update,
}

impl HashPolicy {
    /// Parses `auto|keep|update`.
    pub fn parse(s: &str) -> Option<HashPolicy> {
        Some(match s {
            "auto" => HashPolicy::Auto,
            "keep" => HashPolicy::Keep,
            "update" => HashPolicy::Update,
            _ => return None,
        })
    }
}

/// The digest decision for one output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResolvedDigest {
    /// Fixed bytes to write, when not computed.
    pub fixed: [u8; 16],
    /// Compute this variant over the output instead.
    pub recompute: Option<Variant>,
    /// What the output's digest will be.
    pub kind: DigestKind,
    /// Auto met an invalid input digest and kept it.
    pub kind_is_invalid_kept: bool,
}

/// Decides the output digest. `classify_input` hashes the whole input, so it
/// is called only by [`DigestPolicy::Auto`], the one policy that depends on
/// whether the input's digest verifies; `input_digest` is the input's stored
/// digest (`None` for a new container).
pub(crate) fn resolve_digest(
    policy: DigestPolicy,
    input_digest: Option<[u8; 16]>,
    classify_input: impl FnOnce() -> Option<DigestKind>,
) -> ResolvedDigest {
    let fixed = |bytes: [u8; 16], kind| ResolvedDigest {
        fixed: bytes,
        recompute: None,
        kind,
        kind_is_invalid_kept: false,
    };
    let compute = |v: Variant| ResolvedDigest {
        fixed: [0; 16],
        recompute: Some(v),
        kind: if v == Variant::Retail {
            DigestKind::Retail
        } else {
            DigestKind::Debug
        },
        kind_is_invalid_kept: false,
    };
    match policy {
        DigestPolicy::Retail => compute(Variant::Retail),
        DigestPolicy::Debug => compute(Variant::Debug),
        DigestPolicy::Zero => fixed(digest::ZERO, DigestKind::Zero),
        DigestPolicy::Bypass => fixed(digest::BYPASS, DigestKind::Bypass),
        DigestPolicy::Preview => fixed(digest::PREVIEW, DigestKind::Preview),
        DigestPolicy::Keep => {
            let kept = input_digest.unwrap_or(digest::ZERO);
            // Kept bytes of a signed input no longer match once parts change;
            // the writer reports what was kept, not whether it still verifies,
            // so only the sentinels are named and nothing is hashed.
            let kind = match kept {
                digest::ZERO => DigestKind::Zero,
                digest::BYPASS => DigestKind::Bypass,
                digest::PREVIEW => DigestKind::Preview,
                _ => DigestKind::Invalid,
            };
            fixed(kept, kind)
        }
        DigestPolicy::Auto => match classify_input() {
            None | Some(DigestKind::Zero) => fixed(digest::ZERO, DigestKind::Zero),
            Some(DigestKind::Retail) => compute(Variant::Retail),
            Some(DigestKind::Debug) => compute(Variant::Debug),
            Some(DigestKind::Bypass) => fixed(digest::BYPASS, DigestKind::Bypass),
            Some(DigestKind::Preview) => fixed(digest::PREVIEW, DigestKind::Preview),
            Some(DigestKind::Invalid) => ResolvedDigest {
                kind_is_invalid_kept: true,
                ..fixed(input_digest.unwrap_or(digest::ZERO), DigestKind::Invalid)
            },
        },
    }
}

/// Applies the HASH policy to the plan (called by `finish`).
pub(crate) fn upkeep_hash(plan: &mut EditPlan<'_>, warnings: &mut Vec<EditWarning>) -> Result<()> {
    let policy = plan.hash_policy;
    if policy == HashPolicy::Keep {
        return Ok(());
    }
    let existing = plan
        .find(PartName::HASH)
        .map(|p| (ShaderHash::parse_data(p.bytes(), 0), p.source));
    let hash = match (existing, policy) {
        (None, HashPolicy::Auto) => return Ok(()),
        (None, _) => ShaderHash {
            flags: 0,
            digest: [0; 16],
        },
        (Some((Err(e), _)), _) => {
            warnings.push(EditWarning::HashNotUpdated {
                reason: format!("the HASH part does not decode: {e}"),
            });
            return Ok(());
        }
        (Some((Ok(h), _)), _) => h,
    };
    let source = hash.source_part();
    if policy == HashPolicy::Auto {
        if !plan.program_changed(source) {
            return Ok(());
        }
        let matched = plan
            .input()
            .is_some_and(|c| hash.verify(c) == HashStatus::Valid);
        if !matched {
            warnings.push(EditWarning::HashNotUpdated {
                reason: format!(
                    "it did not match the {source} bitcode in the input (use --hash=update to force)"
                ),
            });
            return Ok(());
        }
    }
    let bitcode_md5 = match plan.find(source) {
        None => {
            warnings.push(EditWarning::HashNotUpdated {
                reason: format!("the output has no {source} part to hash"),
            });
            return Ok(());
        }
        Some(p) => match Program::parse_data(p.bytes(), 0) {
            Ok(program) => md5_of(program.bitcode),
            Err(e) => {
                warnings.push(EditWarning::HashNotUpdated {
                    reason: format!("the {source} part does not decode: {e}"),
                });
                return Ok(());
            }
        },
    };
    let new = ShaderHash {
        flags: hash.flags,
        digest: bitcode_md5,
    };
    let parts = plan.parts_mut();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_auto_classifies_the_input() {
        let stored = Some([7; 16]);
        for policy in [
            DigestPolicy::Retail,
            DigestPolicy::Debug,
            DigestPolicy::Zero,
            DigestPolicy::Keep,
            DigestPolicy::Bypass,
            DigestPolicy::Preview,
        ] {
            resolve_digest(policy, stored, || panic!("{policy:?} hashed the input"));
        }
        let calls = std::cell::Cell::new(0);
        let auto = resolve_digest(DigestPolicy::Auto, stored, || {
            calls.set(calls.get() + 1);
            Some(DigestKind::Debug)
        });
        assert_eq!(calls.get(), 1);
        assert_eq!(auto.recompute, Some(Variant::Debug));
    }

    #[test]
    fn keep_names_the_kept_bytes_without_hashing() {
        let table = [
            (None, [0; 16], DigestKind::Zero),
            (Some(digest::ZERO), digest::ZERO, DigestKind::Zero),
            (Some(digest::BYPASS), digest::BYPASS, DigestKind::Bypass),
            (Some(digest::PREVIEW), digest::PREVIEW, DigestKind::Preview),
            (Some([7; 16]), [7; 16], DigestKind::Invalid),
        ];
        for (stored, bytes, kind) in table {
            let r = resolve_digest(DigestPolicy::Keep, stored, || unreachable!());
            assert_eq!(
                (r.fixed, r.recompute, r.kind),
                (bytes, None, kind),
                "{stored:?}"
            );
            assert!(!r.kind_is_invalid_kept);
        }
    }
}
