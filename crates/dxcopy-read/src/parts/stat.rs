//! fxc's STAT part: shader statistics as consecutive u32 counters, in the
//! order of `D3D11_SHADER_DESC` plus the ID3D11ShaderReflection extras. fxc
//! writes 28 counters (0x70 bytes, oldest), 29 (0x74, SM4) or 37 (0x94, SM5).
//!
//! dxc's STAT is different: a program part holding reflection bitcode; use
//! [`crate::program::is_program_data`] to tell them apart and
//! [`crate::Program`] to decode it.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::Result;
use crate::finding::{Finding, Rule};
use std::fmt;

/// Counter names in file order.
pub const STAT_COUNTERS: [&str; 37] = [
    "InstructionCount",
    "TempRegisterCount",
    "DefCount",
    "DclCount",
    "FloatInstructionCount",
    "IntInstructionCount",
    "UintInstructionCount",
    "StaticFlowControlCount",
    "DynamicFlowControlCount",
    "MacroInstructionCount",
    "TempArrayCount",
    "ArrayInstructionCount",
    "CutInstructionCount",
    "EmitInstructionCount",
    "TextureNormalInstructions",
    "TextureLoadInstructions",
    "TextureCompInstructions",
    "TextureBiasInstructions",
    "TextureGradientInstructions",
    "MovInstructionCount",
    "MovcInstructionCount",
    "ConversionInstructionCount",
    "BitwiseInstructionCount",
    "InputPrimitive",
    "GSOutputTopology",
    "GSMaxOutputVertexCount",
    "TextureGatherInstructions",
    "TextureLodInstructions",
    "IsSampleFrequency",
    "GSInstanceCount",
    "ControlPoints",
    "HSOutputPrimitive",
    "HSPartitioning",
    "TessellatorDomain",
    "BarrierInstructions",
    "InterlockedInstructions",
    "TextureStoreInstructions",
];

/// Part sizes fxc writes.
pub const STAT_SIZES: [usize; 3] = [28 * 4, 29 * 4, 37 * 4];

/// A decoded fxc STAT part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Statistics {
    /// Counters present, by name, in file order.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser_counters"))]
    pub counters: Vec<(&'static str, u32)>,
    /// Unexpected sizes.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

#[cfg(feature = "serde")]
fn ser_counters<S: serde::Serializer>(
    counters: &[(&'static str, u32)],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(counters.len()))?;
    for (k, v) in counters {
        m.serialize_entry(k, v)?;
    }
    m.end()
}

impl Statistics {
    /// Decodes fxc STAT data located at absolute offset `base`. Every whole
    /// counter present is read; a size other than fxc's three is an issue,
    /// not an error.
    pub fn parse_data(data: &[u8], base: u64) -> Result<Statistics> {
        let c = Cursor::new(data, base);
        let mut issues = Vec::new();
        if !STAT_SIZES.contains(&data.len()) {
            issues.push(Finding::at(
                c.abs(0),
                StatRule::StatSize { size: data.len() },
            ));
        }
        let mut counters = Vec::new();
        for (i, name) in STAT_COUNTERS.iter().enumerate() {
            let offset = i as u64 * 4;
            if offset + 4 > c.len() {
                break;
            }
            counters.push((*name, c.u32(offset, "STAT counter")?));
        }
        Ok(Statistics { counters, issues })
    }

    /// Decodes an fxc STAT part.
    pub fn parse(part: &Part<'_>) -> Result<Statistics> {
        Statistics::parse_data(part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// The counter called `name`, when present.
    pub fn get(&self, name: &str) -> Option<u32> {
        self.counters
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }
}

/// The rule the STAT decoder checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatRule {
    /// A size none of fxc's STAT layouts has.
    StatSize {
        /// The part size.
        size: usize,
    },
}

impl fmt::Display for StatRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use StatRule::*;
        match self {
            StatSize { size } => write!(
                f,
                "size {size} is none of fxc's STAT sizes (112, 116, 148 bytes)"
            ),
        }
    }
}

impl Rule for StatRule {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_has_its_sentence() {
        use StatRule::*;
        crate::testutil::rules_say(vec![(
            StatSize { size: 100 },
            "size 100 is none of fxc's STAT sizes (112, 116, 148 bytes)",
        )]);
    }

    #[test]
    fn sizes() {
        for (words, n, issues) in [
            (37, 37, 0),
            (29, 29, 0),
            (28, 28, 0),
            (40, 37, 1),
            (3, 3, 1),
            (0, 0, 1),
        ] {
            let data: Vec<u8> = (0..words as u32)
                .flat_map(|i| (i * 10).to_le_bytes())
                .collect();
            let s = Statistics::parse_data(&data, 0).unwrap();
            assert_eq!(s.counters.len(), n);
            assert_eq!(s.issues.len(), issues);
            if n > 2 {
                assert_eq!(s.get("DefCount"), Some(20));
            }
        }
        let s = Statistics::parse_data(&[1, 0, 0, 0, 9], 0).unwrap();
        assert_eq!(s.counters, vec![("InstructionCount", 1)]);
        assert_eq!(s.get("TessellatorDomain"), None);
    }
}
