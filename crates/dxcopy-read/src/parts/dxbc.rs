//! SHDR / SHEX, fxc's shader-model 4/5 token stream. Only the two leading
//! tokens are decoded:
//!
//! * the version token: bits 0–3 minor, bits 4–7 major, bits 16–31 program
//!   type (0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute);
//! * the length token: the whole program in 32-bit words, both tokens included.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::Result;
use crate::fields::{named_code, Issue};

named_code!(
    /// SM4/5 program type (bits 16–31 of the version token).
    ProgramType: u16 {
        0 => "Pixel", 1 => "Vertex", 2 => "Geometry", 3 => "Hull", 4 => "Domain", 5 => "Compute",
    }
);

impl ProgramType {
    /// Profile prefix (`ps`, `vs`, …; `??` for unknown types).
    pub fn profile_prefix(self) -> &'static str {
        match self.0 {
            0 => "ps",
            1 => "vs",
            2 => "gs",
            3 => "hs",
            4 => "ds",
            5 => "cs",
            _ => "??",
        }
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
    pub issues: Vec<Issue>,
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
            issues.push(Issue::new(
                c.abs(4),
                format!(
                    "program length {length_dwords} words ({bytes} bytes) runs past the part ({} bytes)",
                    c.len()
                ),
            ));
        } else if bytes < 8 {
            issues.push(Issue::new(
                c.abs(4),
                format!(
                    "program length {length_dwords} words is shorter than its two header tokens"
                ),
            ));
        } else if bytes != c.len() {
            issues.push(Issue::new(
                c.abs(4),
                format!(
                    "program length {bytes} bytes differs from the part size {}",
                    c.len()
                ),
            ));
        }
        Ok(ShaderBytecode {
            version_token,
            program_type: ProgramType((version_token >> 16) as u16),
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

#[cfg(test)]
mod tests {
    use super::*;

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
            (0x0000_0050, 9, 4, "ps_5_0", "runs past"),
            (0x0000_0050, 1, 4, "ps_5_0", "shorter than"),
            (0x0000_0050, 3, 4, "ps_5_0", "differs"),
        ];
        for (version, len, words, profile, issue) in rows {
            let s = ShaderBytecode::parse_data(&tokens(version, len, words), 0).unwrap();
            assert_eq!(s.profile(), profile);
            if issue.is_empty() {
                assert!(s.issues.is_empty(), "{:?}", s.issues);
            } else {
                assert!(s.issues[0].message.contains(issue), "{:?}", s.issues);
            }
        }
        assert_eq!(ProgramType(9).to_string(), "Unknown(9)");
        assert!(ShaderBytecode::parse_data(&[0; 7], 0).is_err());
    }
}
