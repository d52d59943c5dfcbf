//! Aon9 (and the Xbox XNAS / XNAP parts, which share its layout): the
//! shader-model 2 program fxc embeds in `*_4_0_level_9_x` shaders so feature
//! level 9 hardware can run them.
//!
//! Layout, as fxc writes it (all offsets relative to the part data):
//!
//! | off | size | field |
//! |---|---|---|
//! | 0 | 4 | size of the part data |
//! | 4 | 4 | SM2 version token (`0xFFFE0200` vs_2_0, `0xFFFF0200` ps_2_0) |
//! | 8 | 4 | size of the SM2 program in bytes |
//! | 12 | 4 | offset of the SM2 program |
//! | 16 | 5 × (u16 count, u16 offset) | mapping tables: constant buffers, loop registers, a third kind, samplers, runtime constants |
//!
//! The mapping tables and the SM2 program follow; only their counts and
//! locations are reported.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::Result;
use crate::finding::{Finding, Rule};
use crate::name::PartName;
use std::fmt;

crate::record::record! {
    /// One mapping table's place in the header: its entry count and offset.
    pub struct MappingEntry: "Aon9 mapping table" {
        /// Number of entries.
        0 count: u16;
        /// Offset in the part data.
        2 offset: u16;
    }
}

crate::record::record! {
    /// The fixed Aon9 header.
    pub struct Aon9Header: "Aon9 header" {
        /// Size of the part.
        0 size: u32;
        /// SM2 version token.
        4 version_token: u32;
        /// Size of the SM2 program.
        8 program_size: u32;
        /// Offset of the SM2 program in the part.
        12 program_offset: u32;
        /// The five mapping tables, in [`MAPPING_TABLES`] order.
        16 constant_buffers: MappingEntry;
        /// Loop registers.
        20 loop_registers: MappingEntry;
        /// Not known.
        24 unknown: MappingEntry;
        /// Samplers.
        28 samplers: MappingEntry;
        /// Runtime constants.
        32 runtime_constants: MappingEntry;
    }
}

/// Size of the fixed Aon9 header.
pub const AON9_HEADER_SIZE: u64 = Aon9Header::SIZE;

/// Names of the five mapping tables, in header order.
pub const MAPPING_TABLES: [&str; 5] = [
    "ConstantBuffers",
    "LoopRegisters",
    "Unknown",
    "Samplers",
    "RuntimeConstants",
];

/// One mapping table's location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MappingTable {
    /// Which table (see [`MAPPING_TABLES`]).
    pub name: &'static str,
    /// Number of entries.
    pub count: u16,
    /// Offset in the part data.
    pub offset: u16,
}

/// A decoded Aon9 / XNAS / XNAP part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Level9Shader {
    /// The part name (Aon9, XNAS or XNAP).
    pub part: PartName,
    /// Size field of the header.
    pub size: u32,
    /// SM2 version token from the header.
    pub version_token: u32,
    /// `vs` or `ps` (from the version token's high half: 0xFFFE / 0xFFFF).
    pub shader_type: &'static str,
    /// Shader model major.
    pub major: u8,
    /// Shader model minor.
    pub minor: u8,
    /// Size of the SM2 program.
    pub program_size: u32,
    /// Offset of the SM2 program in the part.
    pub program_offset: u32,
    /// Version token at the start of the SM2 program. fxc may write a newer
    /// minor version here than in the header (`ps_2_x` code under a `ps_2_0` header).
    pub program_version_token: Option<u32>,
    /// The five mapping tables.
    pub mappings: Vec<MappingTable>,
    /// Disagreements between sizes, offsets and tokens.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

impl Level9Shader {
    /// Decodes Aon9-layout data located at absolute offset `base`.
    pub fn parse_data(part: PartName, data: &[u8], base: u64) -> Result<Level9Shader> {
        let c = Cursor::new(data, base);
        let header = Aon9Header::read(&c, 0)?;
        let Aon9Header {
            size,
            version_token,
            program_size,
            program_offset,
            ..
        } = header;
        let mappings: Vec<MappingTable> = [
            header.constant_buffers,
            header.loop_registers,
            header.unknown,
            header.samplers,
            header.runtime_constants,
        ]
        .into_iter()
        .zip(MAPPING_TABLES)
        .map(|(entry, name)| MappingTable {
            name,
            count: entry.count,
            offset: entry.offset,
        })
        .collect();
        let mut issues = Vec::new();
        if u64::from(size) != c.len() {
            issues.push(Finding::at(
                c.abs(0),
                Aon9Rule::SizeFieldMismatch {
                    size,
                    part_size: c.len(),
                },
            ));
        }
        let shader_type = match version_token >> 16 {
            0xfffe => "vs",
            0xffff => "ps",
            _ => {
                issues.push(Finding::at(
                    c.abs(4),
                    Aon9Rule::VersionTokenNotShader {
                        token: version_token,
                    },
                ));
                "??"
            }
        };
        let program_version_token = match c.bytes(
            u64::from(program_offset),
            u64::from(program_size),
            "Aon9 program",
        ) {
            Ok(program) => Cursor::new(program, c.abs(u64::from(program_offset)))
                .u32(0, "Aon9 program version token")
                .ok(),
            Err(_) => {
                issues.push(Finding::at(
                    c.abs(8),
                    Aon9Rule::ProgramPastPart {
                        size: program_size,
                        offset: program_offset,
                    },
                ));
                None
            }
        };
        for m in &mappings {
            if m.count != 0 && u64::from(m.offset) >= c.len() {
                issues.push(Finding::at(
                    c.abs(16),
                    Aon9Rule::MappingTablePastPart {
                        table: m.name,
                        offset: m.offset,
                    },
                ));
            }
        }
        Ok(Level9Shader {
            part,
            size,
            version_token,
            shader_type,
            major: ((version_token >> 8) & 0xff) as u8,
            minor: (version_token & 0xff) as u8,
            program_size,
            program_offset,
            program_version_token,
            mappings,
            issues,
        })
    }

    /// Decodes an Aon9, XNAS or XNAP part.
    pub fn parse(part: &Part<'_>) -> Result<Level9Shader> {
        Level9Shader::parse_data(part.name, part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// `ps_2_0`-style profile of the embedded program.
    pub fn profile(&self) -> String {
        format!("{}_{}_{}", self.shader_type, self.major, self.minor)
    }
}

/// The rules the Aon9 decoder checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Aon9Rule {
    /// The size field differs from the part size.
    SizeFieldMismatch {
        /// The size field.
        size: u32,
        /// The part size.
        part_size: u64,
    },
    /// The version token is not a vs/ps token.
    VersionTokenNotShader {
        /// The token.
        token: u32,
    },
    /// The SM2 program runs past the part.
    ProgramPastPart {
        /// Program size.
        size: u32,
        /// Program offset in the part.
        offset: u32,
    },
    /// A mapping table's offset is past the part.
    MappingTablePastPart {
        /// The table.
        table: &'static str,
        /// Its offset in the part.
        offset: u16,
    },
}

impl fmt::Display for Aon9Rule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Aon9Rule::*;
        match self {
            SizeFieldMismatch { size, part_size } => {
                write!(
                    f,
                    "size field {size} differs from the part size {part_size}"
                )
            }
            VersionTokenNotShader { token } => {
                write!(f, "version token {token:#010x} is not a vs/ps token")
            }
            ProgramPastPart { size, offset } => write!(
                f,
                "program of {size} bytes at offset {offset} runs past the part"
            ),
            MappingTablePastPart { table, offset } => {
                write!(f, "{table} mapping table offset {offset} is past the part")
            }
        }
    }
}

impl Rule for Aon9Rule {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_has_its_sentence() {
        use Aon9Rule::*;
        crate::testutil::rules_say(vec![
            (
                SizeFieldMismatch {
                    size: 9,
                    part_size: 8,
                },
                "size field 9 differs from the part size 8",
            ),
            (
                VersionTokenNotShader { token: 0x1234 },
                "version token 0x00001234 is not a vs/ps token",
            ),
            (
                ProgramPastPart {
                    size: 64,
                    offset: 40,
                },
                "program of 64 bytes at offset 40 runs past the part",
            ),
            (
                MappingTablePastPart {
                    table: "sampler",
                    offset: 90,
                },
                "sampler mapping table offset 90 is past the part",
            ),
        ]);
    }

    /// Aon9 with one sampler mapping, one constant-buffer mapping and a
    /// 3-word SM2 program, laid out as fxc does.
    fn sample(version: u32) -> Vec<u8> {
        let mut v = Vec::new();
        for x in [64u32, version, 12, 52] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        for (count, offset) in [(1u16, 40u16), (0, 52), (0, 52), (1, 36), (0, 52)] {
            v.extend_from_slice(&count.to_le_bytes());
            v.extend_from_slice(&offset.to_le_bytes());
        }
        v.extend_from_slice(&[0; 4]); // sampler mapping at 36
        v.extend_from_slice(&[0; 12]); // constant-buffer mapping at 40
        v.extend_from_slice(&version.to_le_bytes()); // SM2 program at 52
        v.extend_from_slice(&[0xff; 8]);
        v
    }

    #[test]
    fn fxc_layout() {
        let data = sample(0xffff_0200);
        assert_eq!(data.len(), 64);
        let s = Level9Shader::parse_data(PartName(*b"Aon9"), &data, 0).unwrap();
        assert!(s.issues.is_empty(), "{:?}", s.issues);
        assert_eq!(s.profile(), "ps_2_0");
        assert_eq!(s.program_version_token, Some(0xffff_0200));
        assert_eq!(s.mappings[3].name, "Samplers");
        assert_eq!(s.mappings[3].count, 1);
        let s = Level9Shader::parse_data(PartName(*b"XNAS"), &sample(0xfffe_0201), 0).unwrap();
        assert_eq!(s.profile(), "vs_2_1");
    }

    #[test]
    fn issues() {
        let mut data = sample(0xffff_0200);
        data[0] = 99; // size field
        data[6] = 0x12; // token type
        data[18] = 200; // cb table offset past the part (count is 1)
        let s = Level9Shader::parse_data(PartName(*b"Aon9"), &data, 0).unwrap();
        assert_eq!(s.shader_type, "??");
        assert_eq!(
            s.issues,
            [
                Finding::at(
                    0,
                    Aon9Rule::SizeFieldMismatch {
                        size: 99,
                        part_size: 64
                    }
                ),
                Finding::at(4, Aon9Rule::VersionTokenNotShader { token: 0xff12_0200 }),
                Finding::at(
                    16,
                    Aon9Rule::MappingTablePastPart {
                        table: "ConstantBuffers",
                        offset: 200
                    }
                ),
            ]
        );
        data[8] = 200; // program size past the part
        let s = Level9Shader::parse_data(PartName(*b"Aon9"), &data, 0).unwrap();
        assert!(s.program_version_token.is_none());
        assert!(s.issues.contains(&Finding::at(
            8,
            Aon9Rule::ProgramPastPart {
                size: 200,
                offset: 52
            }
        )));
        assert!(Level9Shader::parse_data(PartName(*b"Aon9"), &data[..30], 0).is_err());
    }
}
