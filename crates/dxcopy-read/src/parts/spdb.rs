//! Debug-information blobs inside containers: fxc's `SPDB` (a complete MSF
//! 7.00 PDB file), fxc's `SDBG` (legacy D3D10 debug info, reported by size),
//! and the MSF superblock reader that `PRIV` (dxc `-Qpdb_in_private`) uses too.
//!
//! MSF superblock (docs/format/pdb.md §1): the 32-byte magic
//! `Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0`, then `u32 BlockSize`,
//! `u32 FreeBlockMapBlock`, `u32 NumBlocks`, `u32 NumDirectoryBytes`,
//! `u32 Unknown`, `u32 BlockMapAddr`. dxc writes NumBlocks one less than the
//! real count, so the block count is reported, not trusted.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::{ReadError, ReadErrorKind, Result};
use crate::finding::{Finding, Rule};
use crate::name::PartName;
use crate::pdb::{
    is_msf, Pdb, PdbError, SuperBlock, BLOCK_SIZES, CONTAINER_STREAM, SUPERBLOCK_FIELDS,
};
use std::fmt;

/// The superblock of an embedded MSF 7.00 file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MsfSuperblock {
    /// Block (page) size in bytes: 512 for dxc, 512–4096 in general.
    pub block_size: u32,
    /// Block holding the active free-block map (1 or 2).
    pub free_block_map_block: u32,
    /// NumBlocks as stored.
    pub num_blocks: u32,
    /// Size of the stream directory in bytes.
    pub num_directory_bytes: u32,
    /// Block holding the directory's block map.
    pub block_map_addr: u32,
    /// Whether NumBlocks is exactly one less than the blocks the data holds
    /// (dxc's known off-by-one; readers recompute it).
    pub dxc_block_count_quirk: bool,
    /// Number of streams, when the stream directory reads (see [`Pdb`]).
    pub streams: Option<u32>,
    /// The PDB GUID in registry format, when the info stream reads.
    pub guid: Option<String>,
    /// Size of stream 5, where dxc keeps a companion PDB's DXIL container.
    pub container_stream_size: Option<u32>,
    /// Inconsistencies: odd block size, block counts that disagree with the
    /// size, a stream directory that does not read.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

impl MsfSuperblock {
    /// Reads the superblock of the MSF file in `data` (absolute offset `base`).
    /// Fails when the magic is missing or the superblock is truncated.
    pub fn parse_data(data: &[u8], base: u64) -> Result<MsfSuperblock> {
        let c = Cursor::new(data, base);
        if !is_msf(data) {
            return Err(c.error(0, ReadErrorKind::wrong_magic(PdbError::MsfMagic)));
        }
        let SuperBlock {
            block_size,
            free_block_map_block,
            num_blocks,
            num_directory_bytes,
            block_map_addr,
            ..
        } = SuperBlock::read(&c, SUPERBLOCK_FIELDS)?;
        let mut issues = Vec::new();
        let mut dxc_block_count_quirk = false;
        if !BLOCK_SIZES.contains(&block_size) {
            issues.push(Finding::at(
                c.abs(32),
                MsfRule::BlockSize { size: block_size },
            ));
        } else {
            let size = u64::from(block_size);
            let held = c.len() / size;
            if !c.len().is_multiple_of(size) {
                issues.push(Finding::at(
                    c.abs(0),
                    MsfRule::PartialBlock {
                        len: c.len(),
                        block_size,
                    },
                ));
            }
            if held == u64::from(num_blocks) + 1 {
                dxc_block_count_quirk = true;
            } else if held != u64::from(num_blocks) {
                issues.push(Finding::at(
                    c.abs(40),
                    MsfRule::BlockCountMismatch {
                        stated: num_blocks,
                        held,
                    },
                ));
            }
            if u64::from(block_map_addr) >= held.max(u64::from(num_blocks)) {
                issues.push(Finding::at(
                    c.abs(52),
                    MsfRule::BlockMapPastEnd {
                        address: block_map_addr,
                    },
                ));
            }
        }
        let (mut streams, mut guid, mut container_stream_size) = (None, None, None);
        match Pdb::parse(data) {
            Ok(pdb) => {
                streams = Some(pdb.stream_count());
                guid = Some(pdb.info().guid_string());
                container_stream_size = pdb.stream_size(CONTAINER_STREAM);
            }
            Err(e) => issues.push(Finding::at(
                base.saturating_add(e.offset),
                MsfRule::PdbUnreadable { error: e },
            )),
        }
        Ok(MsfSuperblock {
            block_size,
            free_block_map_block,
            num_blocks,
            num_directory_bytes,
            block_map_addr,
            dxc_block_count_quirk,
            streams,
            guid,
            container_stream_size,
            issues,
        })
    }
}

/// A decoded SPDB or SDBG part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DebugBlob {
    /// The part name (SPDB or SDBG).
    pub part: PartName,
    /// Size of the part data.
    pub size: u32,
    /// The MSF superblock (always present for SPDB).
    pub msf: Option<MsfSuperblock>,
}

impl DebugBlob {
    /// Decodes SPDB (must be an MSF 7.00 file) or SDBG (opaque) data.
    pub fn parse_data(name: PartName, data: &[u8], base: u64) -> Result<DebugBlob> {
        let msf = if name == PartName::SPDB || is_msf(data) {
            Some(MsfSuperblock::parse_data(data, base)?)
        } else {
            None
        };
        Ok(DebugBlob {
            part: name,
            size: data.len() as u32,
            msf,
        })
    }

    /// Decodes an SPDB or SDBG part.
    pub fn parse(part: &Part<'_>) -> Result<DebugBlob> {
        DebugBlob::parse_data(part.name, part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }
}

/// The rules the SPDB/SDBG decoder checks in the MSF file it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MsfRule {
    /// A block size other than 512, 1024, 2048 or 4096.
    BlockSize {
        /// The block size.
        size: u32,
    },
    /// The data is not a whole number of blocks.
    PartialBlock {
        /// Data size.
        len: u64,
        /// Block size.
        block_size: u32,
    },
    /// NumBlocks differs from the blocks the data holds.
    BlockCountMismatch {
        /// NumBlocks.
        stated: u32,
        /// Blocks held.
        held: u64,
    },
    /// The block map address is past the last block.
    BlockMapPastEnd {
        /// BlockMapAddr.
        address: u32,
    },
    /// The PDB does not read.
    PdbUnreadable {
        /// Why (offsets relative to the PDB).
        error: ReadError,
    },
}

impl fmt::Display for MsfRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MsfRule::*;
        match self {
            BlockSize { size } => write!(f, "block size {size} is not 512, 1024, 2048 or 4096"),
            PartialBlock { len, block_size } => write!(
                f,
                "{len} bytes are not a whole number of {block_size}-byte blocks"
            ),
            BlockCountMismatch { stated, held } => {
                write!(f, "NumBlocks is {stated} but the data holds {held} blocks")
            }
            BlockMapPastEnd { address } => {
                write!(f, "block map address {address} is past the last block")
            }
            PdbUnreadable { error } => write!(f, "the PDB does not read: {error}"),
        }
    }
}

impl Rule for MsfRule {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;
    use crate::fixtures::build_msf;

    #[test]
    fn each_rule_has_its_sentence() {
        use MsfRule::*;
        crate::testutil::rules_say(vec![
        (BlockSize { size: 100 }, "block size 100 is not 512, 1024, 2048 or 4096"),
        (PartialBlock { len: 1000, block_size: 512 }, "1000 bytes are not a whole number of 512-byte blocks"),
        (BlockCountMismatch { stated: 3, held: 5 }, "NumBlocks is 3 but the data holds 5 blocks"),
        (BlockMapPastEnd { address: 9 }, "block map address 9 is past the last block"),
        (PdbUnreadable { error: ReadError::new(0, crate::error::ReadErrorKind::FileTooShort { file_len: 2 }) }, "the PDB does not read: file is 0x2 bytes, shorter than the 32-byte container header"),
        ]);
    }

    #[test]
    fn superblock_table() {
        // (file, quirk, issue count)
        let rows = [
            (build_msf(512, 8, 8), false, 0),
            (build_msf(512, 8, 7), true, 0),
            (build_msf(512, 8, 5), false, 1),
            (build_msf(4096, 6, 6), false, 0),
            (build_msf(4096, 4, 4), false, 1), // no directory: does not read
            (build_msf(300, 6, 6), false, 2),  // bad block size, does not read
        ];
        for (data, quirk, issues) in rows {
            let s = MsfSuperblock::parse_data(&data, 0).unwrap();
            assert_eq!(s.dxc_block_count_quirk, quirk);
            assert_eq!(s.issues.len(), issues, "{:?}", s.issues);
        }
        // Not whole blocks, block map past the end.
        let mut data = build_msf(512, 2, 2);
        data.push(0);
        let s = MsfSuperblock::parse_data(&data, 0).unwrap();
        assert_eq!(s.issues.len(), 3, "{:?}", s.issues);
        // A readable PDB reports streams, GUID and stream 5 (absent here).
        let s = MsfSuperblock::parse_data(&build_msf(512, 6, 5), 0).unwrap();
        assert_eq!(s.streams, Some(2));
        assert_eq!(
            s.guid.as_deref(),
            Some("{03020100-0504-0706-0809-0A0B0C0D0E0F}")
        );
        assert_eq!(s.container_stream_size, None);
    }

    #[test]
    fn spdb_and_sdbg() {
        let msf = build_msf(512, 6, 5);
        let d = DebugBlob::parse_data(PartName::SPDB, &msf, 0).unwrap();
        assert_eq!(d.size, 3072);
        assert!(d.msf.unwrap().dxc_block_count_quirk);
        let e = DebugBlob::parse_data(PartName::SPDB, b"not a pdb", 0x30).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::WrongMagic { .. }));
        assert!(matches!(e.kind.detail(), Some(PdbError::MsfMagic)));
        assert_eq!(e.offset, 0x30);
        let e = DebugBlob::parse_data(PartName::SPDB, &msf[..40], 0).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Truncated { .. }));
        let d = DebugBlob::parse_data(PartName::SDBG, &[1, 2, 3], 0).unwrap();
        assert_eq!((d.size, d.msf.is_none()), (3, true));
    }
}
