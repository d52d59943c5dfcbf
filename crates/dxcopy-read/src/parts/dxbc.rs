//! SHDR / SHEX, fxc's shader-model 4/5 token stream. The two leading tokens
//! are decoded here:
//!
//! * the version token: bits 0–3 minor, bits 4–7 major, bits 16–31 program
//!   type (0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute);
//! * the length token: the whole program in 32-bit words, both tokens included.
//!
//! The instructions after them are a code model ([`crate::sm4`], above the
//! decoders); the views summarise them
//! ([`ProgramSummary`](crate::listing::dxbc::summary::ProgramSummary): the
//! instruction count and the declarations as listing lines).

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::Result;
use crate::finding::{Finding, Rule};
pub use crate::stage::ProgramType;
use std::fmt;

crate::record::record! {
    /// The two tokens every SM4/5 program starts with.
    pub struct ProgramTokens: "program header" {
        /// Version token: bits 0–3 minor, 4–7 major, 16–31 program type.
        0 version_token: u32 => "version token";
        /// Program length in 32-bit words, both tokens included.
        4 length_dwords: u32 => "length token";
    }
}

/// A decoded SHDR or SHEX part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ShaderBytecode {
    /// The raw version token.
    pub version_token: u32,
    /// Program type.
    pub program_type: ProgramType,
    /// Shader model major.
    pub major: u8,
    /// Shader model minor.
    pub minor: u8,
    /// Program length in 32-bit words (both leading tokens included).
    pub length_dwords: u32,
    /// Length disagreements with the part size.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

impl ShaderBytecode {
    /// Decodes SHDR/SHEX data located at absolute offset `base`.
    pub fn parse_data(data: &[u8], base: u64) -> Result<ShaderBytecode> {
        let c = Cursor::new(data, base);
        let ProgramTokens {
            version_token,
            length_dwords,
        } = ProgramTokens::read(&c, 0)?;
        let mut issues = Vec::new();
        let bytes = u64::from(length_dwords) * 4;
        if bytes > c.len() {
            issues.push(Finding::at(
                c.abs(4),
                ProgramLengthRule::ProgramLengthPastPart {
                    words: length_dwords,
                    part_size: c.len(),
                },
            ));
        } else if bytes < 8 {
            issues.push(Finding::at(
                c.abs(4),
                ProgramLengthRule::ProgramLengthShort {
                    words: length_dwords,
                },
            ));
        } else if bytes != c.len() {
            issues.push(Finding::at(
                c.abs(4),
                ProgramLengthRule::ProgramLengthMismatch {
                    bytes,
                    part_size: c.len(),
                },
            ));
        }
        Ok(ShaderBytecode {
            version_token,
            program_type: ProgramType::from_raw((version_token >> 16) as u16),
            major: ((version_token >> 4) & 0xf) as u8,
            minor: (version_token & 0xf) as u8,
            length_dwords,
            issues,
        })
    }

    /// Decodes an SHDR or SHEX part.
    pub fn parse(part: &Part<'_>) -> Result<ShaderBytecode> {
        ShaderBytecode::parse_data(part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// `ps_5_0`-style profile.
    pub fn profile(&self) -> String {
        format!(
            "{}_{}_{}",
            self.program_type.profile_prefix(),
            self.major,
            self.minor
        )
    }
}

/// The rules the SHDR/SHEX decoder checks (its length token).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramLengthRule {
    /// The program length runs past the part.
    ProgramLengthPastPart {
        /// Length token, in words.
        words: u32,
        /// Part size.
        part_size: u64,
    },
    /// The program length is shorter than its two header tokens.
    ProgramLengthShort {
        /// Length token, in words.
        words: u32,
    },
    /// The program length differs from the part size.
    ProgramLengthMismatch {
        /// Length in bytes.
        bytes: u64,
        /// Part size.
        part_size: u64,
    },
}

impl fmt::Display for ProgramLengthRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ProgramLengthRule::*;
        match self {
            ProgramLengthPastPart { words, part_size } => write!(
                f,
                "program length {words} words ({} bytes) runs past the part ({part_size} bytes)",
                u64::from(*words) * 4
            ),
            ProgramLengthShort { words } => write!(
                f,
                "program length {words} words is shorter than its two header tokens"
            ),
            ProgramLengthMismatch { bytes, part_size } => write!(
                f,
                "program length {bytes} bytes differs from the part size {part_size}"
            ),
        }
    }
}

impl Rule for ProgramLengthRule {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_has_its_sentence() {
        use ProgramLengthRule::*;
        crate::testutil::rules_say(vec![
            (
                ProgramLengthPastPart {
                    words: 9,
                    part_size: 16,
                },
                "program length 9 words (36 bytes) runs past the part (16 bytes)",
            ),
            (
                ProgramLengthShort { words: 1 },
                "program length 1 words is shorter than its two header tokens",
            ),
            (
                ProgramLengthMismatch {
                    bytes: 12,
                    part_size: 16,
                },
                "program length 12 bytes differs from the part size 16",
            ),
        ]);
    }

    fn tokens(version: u32, len: u32, total_words: usize) -> Vec<u8> {
        let mut v = version.to_le_bytes().to_vec();
        v.extend_from_slice(&len.to_le_bytes());
        v.resize(total_words * 4, 0);
        v
    }

    #[test]
    fn table() {
        // (version token, length, words in part, profile, issue fragment)
        let rows = [
            (0x0000_0050, 3, 3, "ps_5_0", ""),
            (0x0001_0040, 2, 2, "vs_4_0", ""),
            (0x0005_0051, 4, 4, "cs_5_1", ""),
            (0x0003_0050, 4, 4, "hs_5_0", ""),
            (0x0004_0050, 4, 4, "ds_5_0", ""),
            (0x0002_0041, 4, 4, "gs_4_1", ""),
            (0x0009_0050, 4, 4, "??_5_0", ""),
            (0x0000_0050, 9, 4, "ps_5_0", "past"),
            (0x0000_0050, 1, 4, "ps_5_0", "short"),
            (0x0000_0050, 3, 4, "ps_5_0", "differs"),
        ];
        for (version, len, words, profile, issue) in rows {
            let s = ShaderBytecode::parse_data(&tokens(version, len, words), 0).unwrap();
            assert_eq!(s.profile(), profile);
            // The length token (at 4) against the 16-byte part.
            let kind = match issue {
                "past" => ProgramLengthRule::ProgramLengthPastPart {
                    words: len,
                    part_size: 16,
                },
                "short" => ProgramLengthRule::ProgramLengthShort { words: len },
                "differs" => ProgramLengthRule::ProgramLengthMismatch {
                    bytes: 12,
                    part_size: 16,
                },
                _ => {
                    assert!(s.issues.is_empty(), "{:?}", s.issues);
                    continue;
                }
            };
            assert_eq!(s.issues, [Finding::at(4, kind)]);
        }
        assert_eq!(ProgramType::from_raw(9).to_string(), "Unknown(9)");
        assert!(ShaderBytecode::parse_data(&[0; 7], 0).is_err());
    }
}
