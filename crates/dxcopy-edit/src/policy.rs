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

pub(crate) fn resolve_digest(
    policy: DigestPolicy,
    input_kind: Option<DigestKind>,
    input_digest: [u8; 16],
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
        DigestPolicy::Keep => fixed(
            input_digest,
            input_kind.map_or(DigestKind::Zero, |k| match k {
                // Kept bytes of a signed input no longer match once parts change;
                // the writer reports what was kept, not whether it still verifies.
                DigestKind::Retail | DigestKind::Debug => DigestKind::Invalid,
                other => other,
            }),
        ),
        DigestPolicy::Auto => match input_kind {
            None | Some(DigestKind::Zero) => fixed(digest::ZERO, DigestKind::Zero),
            Some(DigestKind::Retail) => compute(Variant::Retail),
            Some(DigestKind::Debug) => compute(Variant::Debug),
            Some(DigestKind::Bypass) => fixed(digest::BYPASS, DigestKind::Bypass),
            Some(DigestKind::Preview) => fixed(digest::PREVIEW, DigestKind::Preview),
            Some(DigestKind::Invalid) => ResolvedDigest {
                kind_is_invalid_kept: true,
                ..fixed(input_digest, DigestKind::Invalid)
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
