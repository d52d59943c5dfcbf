//! The digest decision step of the edit pipeline (after HASH upkeep, before
//! the layout): what the output's header digest will be, and the warnings
//! that follow from it.
//!
//! Every policy but one is decided when the plan is finished. With
//! [`DigestPolicy::Auto`], whether a signed input's digest is retail, debug
//! or invalid is only known after hashing the whole input; that pass is left
//! to the writer, which runs it beside its copy and the output's own hash (or
//! reuses it as the output's digest when the signed bytes are the input's) and
//! then completes the decision here, once ([`DigestDecision::resolve`]).

use crate::parts::EditWarning;
use crate::policy::DigestPolicy;
use dxcopy_read::digest::{self, Variant};
use dxcopy_read::DigestKind;
use std::sync::OnceLock;

/// The input's `(retail, debug)` digests, when computed.
pub(crate) type InputDigests = Option<([u8; 16], [u8; 16])>;

/// The digest an output carries, once decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ResolvedDigest {
    /// Fixed bytes to write, when not computed.
    pub(crate) fixed: [u8; 16],
    /// Compute this variant over the output instead.
    pub(crate) recompute: Option<Variant>,
    /// What the output's digest will be.
    pub(crate) kind: DigestKind,
    /// Auto met an invalid input digest and kept it.
    pub(crate) kind_is_invalid_kept: bool,
}

/// Decides the output digest. `classify_input` hashes the whole input, so it
/// is called only by [`DigestPolicy::Auto`], the one policy that depends on
/// whether the input's digest verifies; `input_digest` is the input's stored
/// digest (`None` for a new container).
fn resolve_digest(
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

/// What is known of the digest when the plan is finished.
#[derive(Debug, Clone, Copy)]
enum Known {
    /// Decided.
    Resolved(ResolvedDigest),
    /// `--digest=auto` on an input whose stored digest is neither zero nor a
    /// sentinel: re-sign if it verifies as retail or debug, else keep it.
    ClassifyInput {
        /// The input's stored digest.
        stored: [u8; 16],
    },
}

/// The decided digest with the warnings that depend on it.
#[derive(Debug, Clone)]
pub(crate) struct Resolution {
    pub(crate) digest: ResolvedDigest,
    pub(crate) warnings: Vec<EditWarning>,
    /// The input's digests, when they were computed to classify it.
    pub(crate) input_digests: InputDigests,
}

/// The digest decision for one output: made when the plan is finished, or
/// completed once by the first writer or caller that needs it.
#[derive(Debug, Clone)]
pub(crate) struct DigestDecision {
    known: Known,
    resolution: OnceLock<Resolution>,
    /// Warnings of the earlier steps, which every resolution carries first.
    plan_warnings: Vec<EditWarning>,
    /// Whether the DXIL part changed (a re-signed output then says that
    /// signing is not validation).
    dxil_changed: bool,
}

impl DigestDecision {
    /// Decides what can be decided now. `stored` is the input's stored digest
    /// (`None` for a new container); `known_kind` the input's digest kind when
    /// the caller already classified it.
    pub(crate) fn decide(
        policy: DigestPolicy,
        stored: Option<[u8; 16]>,
        known_kind: Option<DigestKind>,
        dxil_changed: bool,
        plan_warnings: Vec<EditWarning>,
    ) -> Self {
        let known_kind = known_kind.or_else(|| stored.and_then(|s| digest::sentinel_kind(&s)));
        let known = match (policy, stored, known_kind) {
            (DigestPolicy::Auto, Some(stored), None) => Known::ClassifyInput { stored },
            (policy, stored, known_kind) => {
                Known::Resolved(resolve_digest(policy, stored, || known_kind))
            }
        };
        let decision = DigestDecision {
            known,
            resolution: OnceLock::new(),
            plan_warnings,
            dxil_changed,
        };
        if let Known::Resolved(d) = decision.known {
            let _ = decision.resolution.set(decision.resolution_for(d, None));
        }
        decision
    }

    /// The decision, if it is made.
    pub(crate) fn resolved(&self) -> Option<&Resolution> {
        self.resolution.get()
    }

    /// The decision, completed with the input's digests when still open
    /// (`input_digests` is called only then).
    pub(crate) fn resolve(&self, input_digests: impl FnOnce() -> InputDigests) -> &Resolution {
        self.resolution.get_or_init(|| match self.known {
            Known::Resolved(d) => self.resolution_for(d, None),
            Known::ClassifyInput { stored } => {
                let input_digests = input_digests();
                let kind = digest::kind_from_digests(&stored, input_digests);
                let d = resolve_digest(DigestPolicy::Auto, Some(stored), || Some(kind));
                self.resolution_for(d, input_digests)
            }
        })
    }

    /// The digest bytes to write while the decision is open: the input's
    /// stored digest (kept if it does not verify), or the fixed one.
    pub(crate) fn provisional(&self) -> [u8; 16] {
        match self.known {
            Known::ClassifyInput { stored } => stored,
            Known::Resolved(d) => d.fixed,
        }
    }

    fn resolution_for(&self, digest: ResolvedDigest, input_digests: InputDigests) -> Resolution {
        let mut warnings = self.plan_warnings.clone();
        if digest.kind_is_invalid_kept {
            warnings.push(EditWarning::InvalidDigestKept);
        }
        if self.dxil_changed && digest.recompute.is_some() {
            warnings.push(EditWarning::ResignedWithoutValidation);
        }
        Resolution {
            digest,
            warnings,
            input_digests,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_auto_classifies_the_input() {
        let stored = Some([7; 16]);
        for policy in DigestPolicy::ALL.into_iter().skip(1) {
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
