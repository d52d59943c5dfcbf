//! SHDR / SHEX, fxc's shader-model 4/5 token stream. The two leading tokens
//! are decoded here:
//!
//! * the version token: bits 0–3 minor, bits 4–7 major, bits 16–31 program
//!   type (0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute);
//! * the length token: the whole program in 32-bit words, both tokens included.
//!
//! The instructions after them are decoded by [`crate::sm4`]; the
//! part keeps a [`ProgramSummary`] of them (instruction count and the
//! declarations as listing lines), which is what `dxinfo --json` shows.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::Result;
use crate::finding::{Finding, FindingKind};
use crate::sm4::{self, Body};
pub use crate::stage::ProgramType;

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
    /// The decoded instruction stream, summarised; `None` when the two
    /// header tokens are unusable (the reason is in `issues`).
    pub program: Option<ProgramSummary>,
}

/// What the instruction stream of an SHDR/SHEX part holds, from
/// [`sm4::Program::decode_prefix`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ProgramSummary {
    /// Instructions that are neither declarations nor `customdata` blocks:
    /// the listing lines after the `dcl_*` block, `ret` included.
    pub instruction_count: u32,
    /// Number of declarations (`dcl_*`, an immediate constant buffer included).
    pub declaration_count: u32,
    /// The declarations in program order.
    pub declarations: Vec<DeclarationLine>,
    /// Where decoding stopped on a malformed token, with its token index and
    /// byte offset; the counts cover the instructions before it.
    pub error: Option<String>,
}

/// One declaration as the listing prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DeclarationLine {
    /// Index of its opcode token from the start of the program.
    pub token: u32,
    /// Absolute file offset of its opcode token.
    pub offset: u64,
    /// The declaration's name as printed (`dcl_constantbuffer`,
    /// `dcl_input_ps`, `dcl_immediateConstantBuffer`, …).
    pub opcode: String,
    /// The listing text (several lines for `dcl_immediateConstantBuffer`).
    pub text: String,
}

impl ProgramSummary {
    /// Decodes the token stream in `data` (absolute offset `base`); `None`
    /// when the header tokens are unusable.
    pub fn decode(data: &[u8], base: u64) -> Option<ProgramSummary> {
        let (program, error) = sm4::Program::decode_prefix(data, base).ok()?;
        let mut instruction_count = 0u32;
        let mut declarations = Vec::new();
        for ins in &program.instructions {
            match ins.body {
                Body::Plain => instruction_count += 1,
                Body::Declaration(_) => {
                    let mut text = String::new();
                    crate::listing::dxbc::sm4::write_instruction(
                        &program,
                        ins,
                        &Default::default(),
                        &mut text,
                    );
                    declarations.push(DeclarationLine {
                        token: ins.token,
                        offset: base.saturating_add(u64::from(ins.token) * 4),
                        opcode: text
                            .split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_owned(),
                        text,
                    });
                }
                Body::CustomData { .. } => {}
            }
        }
        Some(ProgramSummary {
            instruction_count,
            declaration_count: declarations.len() as u32,
            declarations,
            error: error.map(|e| e.to_string()),
        })
    }
}

impl ShaderBytecode {
    /// Decodes SHDR/SHEX data located at absolute offset `base`.
    pub fn parse_data(data: &[u8], base: u64) -> Result<ShaderBytecode> {
        let c = Cursor::new(data, base);
        let version_token = c.u32(0, "version token")?;
        let length_dwords = c.u32(4, "length token")?;
        let mut issues = Vec::new();
        let bytes = u64::from(length_dwords) * 4;
        if bytes > c.len() {
            issues.push(Finding::at(
                c.abs(4),
                FindingKind::ProgramLengthPastPart {
                    words: length_dwords,
                    part_size: c.len(),
                },
            ));
        } else if bytes < 8 {
            issues.push(Finding::at(
                c.abs(4),
                FindingKind::ProgramLengthShort {
                    words: length_dwords,
                },
            ));
        } else if bytes != c.len() {
            issues.push(Finding::at(
                c.abs(4),
                FindingKind::ProgramLengthMismatch {
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
            program: ProgramSummary::decode(data, base),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// ps_5_0: dcl_globalFlags refactoringAllowed, dcl_temps 2, then two
    /// `ret`s (opcode 62); `extra` words are appended after them.
    fn small_program(extra: &[u32]) -> Vec<u8> {
        let mut words = vec![
            0x0000_0050,
            0,
            0x0100_086a,
            0x0200_0068,
            2,
            0x0100_003e,
            0x0100_003e,
        ];
        words.extend_from_slice(extra);
        words[1] = words.len() as u32;
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn summary_counts_instructions_and_prints_declarations() {
        let s = ShaderBytecode::parse_data(&small_program(&[]), 0x40).unwrap();
        let p = s.program.unwrap();
        assert_eq!(p.instruction_count, 2);
        assert_eq!(p.declaration_count, 2);
        assert_eq!(p.error, None);
        let got: Vec<(u32, u64, &str, &str)> = p
            .declarations
            .iter()
            .map(|d| (d.token, d.offset, d.opcode.as_str(), d.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    2,
                    0x48,
                    "dcl_globalFlags",
                    "dcl_globalFlags refactoringAllowed"
                ),
                (3, 0x4c, "dcl_temps", "dcl_temps 2"),
            ]
        );
    }

    #[test]
    fn summary_stops_at_a_malformed_token_and_keeps_the_prefix() {
        // An instruction of length 0 at token 7 (byte 0x40 + 28).
        let s = ShaderBytecode::parse_data(&small_program(&[0x0000_003e]), 0x40).unwrap();
        let p = s.program.unwrap();
        assert_eq!((p.instruction_count, p.declaration_count), (2, 2));
        let e = p.error.unwrap();
        assert!(e.starts_with("token 7 (byte 0x5c)"), "{e}");
        // A length token past the part: no program at all, and an issue.
        let mut bytes = small_program(&[]);
        bytes[4] = 99;
        let s = ShaderBytecode::parse_data(&bytes, 0).unwrap();
        assert_eq!(s.program, None);
        assert_eq!(s.issues.len(), 1);
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
                "past" => FindingKind::ProgramLengthPastPart {
                    words: len,
                    part_size: 16,
                },
                "short" => FindingKind::ProgramLengthShort { words: len },
                "differs" => FindingKind::ProgramLengthMismatch {
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
