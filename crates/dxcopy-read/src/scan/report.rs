//! The `dxinfo --scan` views of one find: a text line and a JSON object
//! (docs/scan.md).

use super::{Facts, Rejection};
use crate::fields::hex;

/// `PATH@OFFSET: KIND PROFILE, SIZE bytes, digest STATUS, hash HASH`, the
/// offset in hex (`0x…`) as hex editors show it; an `extracted` name is
/// appended as `-> NAME`.
pub fn text_line(path: &str, offset: u64, facts: &Facts, extracted: Option<&str>) -> String {
    let profile = facts
        .program
        .map(|p| format!(" {}", p.profile()))
        .unwrap_or_default();
    let hash = facts
        .shader_hash
        .map(|h| format!(", hash {}", hex(&h)))
        .unwrap_or_default();
    let to = extracted.map(|f| format!(" -> {f}")).unwrap_or_default();
    format!(
        "{path}@{offset:#x}: {}{profile}, {} bytes, digest {}{hash}{to}",
        facts.kind.as_str(),
        facts.size,
        facts.digest_status().as_str(),
    )
}

/// `PATH@OFFSET: rejected: REASON`.
pub fn rejected_line(path: &str, offset: u64, reason: &Rejection) -> String {
    format!("{path}@{offset:#x}: rejected: {reason}")
}

/// One JSON object per find: `path`, `offset`, `size`, `kind`, `stage`,
/// `shader_model`, `profile`, `digest` (retail, debug, unsigned or bad),
/// `digest_kind` (as `dxinfo --json` names it), `shader_hash`, and `file`
/// when extracted.
#[cfg(feature = "serde")]
pub fn json_value(
    path: &str,
    offset: u64,
    facts: &Facts,
    extracted: Option<&str>,
) -> serde_json::Value {
    let mut doc = serde_json::json!({
        "path": path,
        "offset": offset,
        "size": facts.size,
        "kind": facts.kind.as_str(),
        "stage": facts.program.map(|p| p.stage.to_string()),
        "shader_model": facts.program.map(|p| p.shader_model()),
        "profile": facts.program.map(|p| p.profile()),
        "digest": facts.digest_status().as_str(),
        "digest_kind": facts.digest_kind.as_str(),
        "shader_hash": facts.shader_hash.map(|h| hex(&h)),
    });
    if let Some(file) = extracted {
        doc["file"] = file.into();
    }
    doc
}

/// The JSON object of a rejected candidate: `path`, `offset`, `rejected`.
#[cfg(feature = "serde")]
pub fn rejected_json(path: &str, offset: u64, reason: &Rejection) -> serde_json::Value {
    serde_json::json!({ "path": path, "offset": offset, "rejected": reason.to_string() })
}

#[cfg(test)]
mod tests {
    use super::super::{ContainerKind, ProgramFacts};
    use super::*;
    use crate::{DigestKind, ShaderKind};

    #[test]
    fn the_text_line() {
        let facts = Facts {
            size: 1540,
            kind: ContainerKind::Dxil,
            program: Some(ProgramFacts {
                stage: ShaderKind::Compute,
                major: 6,
                minor: 5,
            }),
            digest_kind: DigestKind::Zero,
            digest: [0; 16],
            shader_hash: Some([0xab; 16]),
        };
        assert_eq!(
            text_line("a.zip!s.bin", 0x1f, &facts, Some("x.dxil")),
            format!(
                "a.zip!s.bin@0x1f: DXIL cs_6_5, 1540 bytes, digest unsigned, hash {} -> x.dxil",
                "ab".repeat(16)
            )
        );
        let reason = Rejection::Truncated { available: 9 };
        assert_eq!(
            rejected_line("f", 16, &reason),
            "f@0x10: rejected: only 9 bytes follow the magic, a header needs 32"
        );
    }
}
