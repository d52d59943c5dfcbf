//! Digest and HASH policies: what the caller asks for header bytes 4..20 and
//! the HASH part when the container changes. What they mean for one output is
//! decided by the HASH upkeep and digest decision steps of the pipeline.

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
    /// Every policy, in declaration order (the order `--digest`'s values are
    /// documented in).
    pub const ALL: [DigestPolicy; 7] = [
        DigestPolicy::Auto,
        DigestPolicy::Retail,
        DigestPolicy::Debug,
        DigestPolicy::Zero,
        DigestPolicy::Keep,
        DigestPolicy::Bypass,
        DigestPolicy::Preview,
    ];

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
