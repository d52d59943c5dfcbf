//! PRIV, private data (docs/format/small-parts.md §4): opaque bytes, always the last part,
//! possibly of unaligned size. Two contents are recognised:
//!
//! * a whole PDB file, as dxc `-Qpdb_in_private` writes it (MSF 7.00 magic);
//! * RenderDoc's debug-path convention (docs/format/small-parts.md §4): the 16 bytes of GUID
//!   `{eab25520-6670-4865-8429-6c08515400ff}` in memory order, then a
//!   NUL-terminated path to separate debug info; a `lz4#` prefix on the path
//!   says that file is LZ4-compressed.

use crate::container::Part;
use crate::error::Result;
use crate::finding::{Finding, Rule};
use crate::pdb::is_msf;
use crate::spdb::MsfSuperblock;
use std::fmt;

/// RenderDoc's shader-debug magic GUID as bytes (x86 memory order).
pub const RENDERDOC_DEBUG_GUID: [u8; 16] = [
    0x20, 0x55, 0xb2, 0xea, 0x70, 0x66, 0x65, 0x48, 0x84, 0x29, 0x6c, 0x08, 0x51, 0x54, 0x00, 0xff,
];
/// Path prefix marking an LZ4-compressed debug file in RenderDoc's convention.
pub const LZ4_PREFIX: &[u8] = b"lz4#";

/// What a PRIV part holds.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
pub enum PrivateContent<'data> {
    /// Bytes with no recognised structure.
    Opaque,
    /// A whole PDB (MSF 7.00) file.
    Pdb(MsfSuperblock),
    /// RenderDoc's pointer to separate debug info.
    DebugPath {
        /// The path (after any `lz4#` prefix, without the NUL).
        #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
        path: &'data [u8],
        /// Whether the path had the `lz4#` prefix.
        lz4: bool,
    },
}

/// A decoded PRIV part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PrivateData<'data> {
    /// Size of the data.
    pub size: u32,
    /// What the data was recognised as.
    pub content: PrivateContent<'data>,
    /// Problems with a recognised layout (a debug path without NUL).
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

impl<'data> PrivateData<'data> {
    /// Decodes PRIV data located at absolute offset `base`. Opaque data never
    /// fails; a truncated embedded PDB superblock does.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<PrivateData<'data>> {
        let mut issues = Vec::new();
        let content = if is_msf(data) {
            PrivateContent::Pdb(MsfSuperblock::parse_data(data, base)?)
        } else if let Some(rest) = data.strip_prefix(&RENDERDOC_DEBUG_GUID[..]) {
            let path_offset = base.saturating_add(RENDERDOC_DEBUG_GUID.len() as u64);
            let path = match rest.iter().position(|&b| b == 0) {
                Some(nul) => &rest[..nul],
                None => {
                    issues.push(Finding::at(path_offset, PrivateRule::DebugPathUnterminated));
                    rest
                }
            };
            if path.is_empty() {
                issues.push(Finding::at(path_offset, PrivateRule::DebugPathEmpty));
            }
            match path.strip_prefix(LZ4_PREFIX) {
                Some(p) => PrivateContent::DebugPath { path: p, lz4: true },
                None => PrivateContent::DebugPath { path, lz4: false },
            }
        } else {
            PrivateContent::Opaque
        };
        Ok(PrivateData {
            size: data.len() as u32,
            content,
            issues,
        })
    }

    /// Decodes a PRIV part.
    pub fn parse(part: &Part<'data>) -> Result<PrivateData<'data>> {
        PrivateData::parse_data(part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }
}

/// Builds PRIV data in RenderDoc's debug-path convention.
pub fn build_debug_path(path: &[u8]) -> Vec<u8> {
    let mut out = RENDERDOC_DEBUG_GUID.to_vec();
    out.extend_from_slice(path);
    out.push(0);
    out
}

/// The rules the PRIV decoder checks (its debug path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrivateRule {
    /// The debug path has no NUL.
    DebugPathUnterminated,
    /// The debug path is empty.
    DebugPathEmpty,
}

impl fmt::Display for PrivateRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PrivateRule::*;
        match self {
            DebugPathUnterminated => f.write_str("debug path is not NUL-terminated"),
            DebugPathEmpty => f.write_str("debug path is empty"),
        }
    }
}

impl Rule for PrivateRule {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::build_msf;

    #[test]
    fn each_rule_has_its_sentence() {
        use PrivateRule::*;
        crate::testutil::rules_say(vec![
            (DebugPathUnterminated, "debug path is not NUL-terminated"),
            (DebugPathEmpty, "debug path is empty"),
        ]);
    }

    #[test]
    fn recognises_contents() {
        let p = PrivateData::parse_data(b"\x01\x02\x03", 0).unwrap();
        assert_eq!((p.size, p.content), (3, PrivateContent::Opaque));
        let p = PrivateData::parse_data(&[], 0).unwrap();
        assert_eq!(p.content, PrivateContent::Opaque);

        let data = build_debug_path(b"C:\\pdbs\\shader.pdb");
        let p = PrivateData::parse_data(&data, 0).unwrap();
        assert_eq!(
            p.content,
            PrivateContent::DebugPath {
                path: b"C:\\pdbs\\shader.pdb",
                lz4: false
            }
        );
        assert!(p.issues.is_empty());

        let data = build_debug_path(b"lz4#dbg/x.bin");
        let p = PrivateData::parse_data(&data, 0).unwrap();
        assert_eq!(
            p.content,
            PrivateContent::DebugPath {
                path: b"dbg/x.bin",
                lz4: true
            }
        );

        let mut data = RENDERDOC_DEBUG_GUID.to_vec();
        data.extend_from_slice(b"abc");
        let p = PrivateData::parse_data(&data, 0x100).unwrap();
        assert_eq!(
            p.issues,
            [Finding::at(0x110, PrivateRule::DebugPathUnterminated)]
        );
        let p = PrivateData::parse_data(&RENDERDOC_DEBUG_GUID, 0).unwrap();
        assert!(p
            .issues
            .iter()
            .any(|i| i.kind == PrivateRule::DebugPathEmpty.into()));

        let msf = build_msf(512, 6, 5);
        let p = PrivateData::parse_data(&msf, 0).unwrap();
        match p.content {
            PrivateContent::Pdb(s) => assert!(s.dxc_block_count_quirk),
            other => panic!("{other:?}"),
        }
        assert!(PrivateData::parse_data(&msf[..40], 0).is_err());
    }
}
