//! Writing dxc companion PDBs: the stream-5 container ([`build_pdb_container`])
//! and the MSF 7.00 file around it ([`write_companion_pdb`]).
//!
//! The MSF writer is our own, like the reader in `dxcopy_read::pdb` (whose
//! module doc compares it with the `pdb`, `pdb2` and `ms-pdb-msf` crates): the
//! output must match dxc byte for byte, and dxc's layout is small and fixed.
//!
//! # Layout (docs/format/pdb.md §2)
//!
//! - 512-byte blocks, the file a whole number of them, zero-filled.
//! - Block 0: superblock — magic, BlockSize, FreeBlockMapBlock 1, NumBlocks,
//!   NumDirectoryBytes, 0, BlockMapAddr 3. dxc writes NumBlocks one less than
//!   the real count; we write the real count (the only byte difference).
//! - Blocks 1 and 2: free block maps, all zero.
//! - Block 3: the block map, listing the directory blocks 4, 5, ….
//! - The directory: six streams sized 0, 56, 0, 0, 0 and the container size,
//!   then the block lists of streams 1 and 5.
//! - Stream 1 (56 bytes, the block after the directory): VC70, signature 0,
//!   age 1, the GUID, then an empty named-stream table (seven u32: 0, 0, 1, 0,
//!   0, 0, 0).
//! - Stream 5: the container, right after stream 1, padded with zeros to its block.
//!
//! A container so large that its directory's block list no longer fits in
//! the one block-map block (more than about 8 MiB with 512-byte blocks) is
//! written with the smallest larger block size that fits (1024, 2048 or
//! 4096); dxc's own writer has no such case in the corpus.

use crate::error::{EditError, Result};
use crate::parts::{PartData, PlanPart};
use crate::plan::EditPlan;
use crate::policy::{DigestPolicy, HashPolicy};
use dxcopy_read::pdb::{BLOCK_SIZES, CONTAINER_STREAM, MSF_MAGIC, PDB_VERSION_VC70};
use dxcopy_read::{Container, PartName};

/// The parts of a companion PDB's container, in dxc's order.
pub const PDB_CONTAINER_PARTS: [PartName; 6] = [
    PartName::ILDN,
    PartName::HASH,
    PartName::PDBI,
    PartName::SRCI,
    PartName::VERS,
    PartName::ILDB,
];

/// Number of streams dxc writes (0 to 5).
const STREAM_COUNT: u32 = CONTAINER_STREAM + 1;
/// Size of stream 1 as dxc writes it.
const INFO_STREAM_SIZE: usize = 56;
/// Block holding the block map.
const BLOCK_MAP_BLOCK: u32 = 3;
/// First directory block.
const FIRST_DIRECTORY_BLOCK: u32 = 4;

/// Where everything goes in a companion PDB of a given container size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PdbLayout {
    /// Block size (512 unless the container is too large for it).
    pub block_size: u32,
    /// Size of the stream directory in bytes.
    pub directory_bytes: u32,
    /// Number of directory blocks (they start at block 4).
    pub directory_blocks: u32,
    /// Block of stream 1.
    pub info_block: u32,
    /// First block of stream 5.
    pub container_block: u32,
    /// Blocks of stream 5.
    pub container_blocks: u32,
    /// Blocks in the file, written as NumBlocks.
    pub total_blocks: u32,
}

impl PdbLayout {
    /// The layout for a container of `container_len` bytes, or `None` when no
    /// MSF block size can hold it.
    pub fn for_container(container_len: u64) -> Option<PdbLayout> {
        let container_size = u32::try_from(container_len).ok()?;
        BLOCK_SIZES.iter().find_map(|&block_size| {
            let container_blocks = container_size.div_ceil(block_size);
            // NumStreams, the six sizes, one block for stream 1, stream 5's blocks.
            let directory_bytes = 4u32
                .checked_add(4 * STREAM_COUNT)?
                .checked_add(4u32.checked_mul(1 + container_blocks)?)?;
            let directory_blocks = directory_bytes.div_ceil(block_size);
            if directory_blocks * 4 > block_size {
                return None;
            }
            let info_block = FIRST_DIRECTORY_BLOCK + directory_blocks;
            let container_block = info_block + 1;
            let total_blocks = container_block.checked_add(container_blocks)?;
            u64::from(total_blocks).checked_mul(u64::from(block_size))?;
            Some(PdbLayout {
                block_size,
                directory_bytes,
                directory_blocks,
                info_block,
                container_block,
                container_blocks,
                total_blocks,
            })
        })
    }

    /// Size of the file in bytes.
    pub fn file_len(&self) -> usize {
        self.total_blocks as usize * self.block_size as usize
    }
}

/// The PDB info stream dxc writes: VC70, signature 0, age 1, `guid`, and an
/// empty named-stream hash table of capacity 1.
pub fn info_stream(guid: [u8; 16]) -> [u8; INFO_STREAM_SIZE] {
    let mut out = [0u8; INFO_STREAM_SIZE];
    out[0..4].copy_from_slice(&PDB_VERSION_VC70.to_le_bytes());
    out[8..12].copy_from_slice(&1u32.to_le_bytes());
    out[12..28].copy_from_slice(&guid);
    // String-table bytes 0, hash-table size 0, capacity 1, then empty bit vectors.
    out[36..40].copy_from_slice(&1u32.to_le_bytes());
    out
}

/// Writes a dxc companion PDB holding `container_bytes` in stream 5, with
/// `guid` (the HASH part's digest) in stream 1. Byte for byte what dxc
/// writes, except that NumBlocks is the real block count.
///
/// Fails only for a container too large for any MSF layout (within 400 KiB of 4 GiB).
pub fn write_companion_pdb(container_bytes: &[u8], guid: [u8; 16]) -> Result<Vec<u8>> {
    let layout = PdbLayout::for_container(container_bytes.len() as u64)
        .ok_or(EditError::TooLarge(container_bytes.len() as u64))?;
    let block = layout.block_size as usize;
    let mut out = vec![0u8; layout.file_len()];
    let mut put = |at: usize, bytes: &[u8]| out[at..at + bytes.len()].copy_from_slice(bytes);
    put(0, MSF_MAGIC);
    put(
        32,
        &le_words([
            layout.block_size,
            1,
            layout.total_blocks,
            layout.directory_bytes,
            0,
            BLOCK_MAP_BLOCK,
        ]),
    );
    put(
        BLOCK_MAP_BLOCK as usize * block,
        &le_words(FIRST_DIRECTORY_BLOCK..layout.info_block),
    );
    let sizes = [
        0,
        INFO_STREAM_SIZE as u32,
        0,
        0,
        0,
        container_bytes.len() as u32,
    ];
    let directory = le_words(
        [STREAM_COUNT]
            .into_iter()
            .chain(sizes)
            .chain([layout.info_block])
            .chain(layout.container_block..layout.total_blocks),
    );
    debug_assert_eq!(directory.len(), layout.directory_bytes as usize);
    put(FIRST_DIRECTORY_BLOCK as usize * block, &directory);
    put(layout.info_block as usize * block, &info_stream(guid));
    put(layout.container_block as usize * block, container_bytes);
    Ok(out)
}

/// Builds the container dxc puts in a companion PDB's stream 5 from a main
/// container: its ILDN, HASH, SRCI, VERS and ILDB parts (those present), in
/// that order, each with its exact bytes; version 1.0; the header digest a
/// byte copy of `digest` (dxc copies the main shader's final digest, which
/// is how a PDB is paired with its shader).
pub fn build_pdb_container(main: &Container<'_>, digest: [u8; 16]) -> Result<Vec<u8>> {
    let parts = PDB_CONTAINER_PARTS
        .iter()
        .filter_map(|&name| main.find(name))
        .map(|p| PlanPart {
            name: p.name,
            data: PartData::Borrowed(p.data),
            source: Some(p.index),
            kept: false,
        })
        .collect();
    pdb_container_from_parts(parts, digest)
}

/// Lays out `parts` (already selected and ordered) as a version-1.0
/// container carrying `digest` unchanged.
pub(crate) fn pdb_container_from_parts<'data>(
    parts: Vec<PlanPart<'data>>,
    digest: [u8; 16],
) -> Result<Vec<u8>> {
    let mut plan = EditPlan::new();
    *plan.parts_mut() = parts;
    plan.version = (1, 0);
    plan.hash_policy = HashPolicy::Keep;
    plan.digest_policy = DigestPolicy::Zero;
    let mut bytes = plan.finish()?.to_vec();
    // A copy, not a digest of these bytes: written after the layout.
    bytes[4..20].copy_from_slice(&digest);
    Ok(bytes)
}

/// Little-endian bytes of a sequence of u32.
fn le_words(values: impl IntoIterator<Item = u32>) -> Vec<u8> {
    values.into_iter().flat_map(u32::to_le_bytes).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ContainerBuilder;
    use dxcopy_read::pdb::Pdb;
    use dxcopy_read::ShaderKind;

    fn guid() -> [u8; 16] {
        std::array::from_fn(|i| i as u8 * 17)
    }

    #[test]
    fn layout_table() {
        // (container bytes, block size, directory blocks, total blocks)
        let table = [
            (0u64, 512, 1, 6),
            (32, 512, 1, 7),
            (512, 512, 1, 7),
            (513, 512, 1, 8),
            // 120 blocks of stream 5: directory 4+24+4*121 = 512 bytes, one block.
            (120 * 512, 512, 1, 126),
            (121 * 512, 512, 2, 128),
            // The most 512-byte blocks can hold: 128 directory blocks.
            (
                (128 * 512 - 32) / 4 * 512,
                512,
                128,
                133 + (128 * 512 - 32) / 4,
            ),
            ((128 * 512 - 32) / 4 * 512 + 1, 1024, 33, 4 + 33 + 1 + 8189),
        ];
        for (len, block_size, directory_blocks, total) in table {
            let l = PdbLayout::for_container(len).unwrap();
            assert_eq!(
                (l.block_size, l.directory_blocks, u64::from(l.total_blocks)),
                (block_size, directory_blocks, total),
                "container of {len} bytes"
            );
            assert_eq!(l.info_block, 4 + directory_blocks);
            assert_eq!(l.container_block, l.info_block + 1);
        }
        // With 4096-byte blocks the one block-map block lists 1024 directory
        // blocks, enough for 1048568 container blocks; beyond that (and past
        // u32) there is no layout.
        let largest = 1_048_568 * 4096;
        assert_eq!(PdbLayout::for_container(largest).unwrap().block_size, 4096);
        assert!(PdbLayout::for_container(largest + 1).is_none());
        assert!(PdbLayout::for_container(u64::from(u32::MAX) + 1).is_none());
    }

    #[test]
    fn written_pdb_reads_back() {
        let container = ContainerBuilder::new()
            .part(b"ILDN", &dxcopy_read::debug_name::encode(b"x.pdb").unwrap())
            .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), &[7; 1500])
            .build()
            .unwrap();
        let bytes = write_companion_pdb(&container, guid()).unwrap();
        assert_eq!(bytes.len() % 512, 0);
        let pdb = Pdb::parse(&bytes).unwrap();
        assert_eq!(u64::from(pdb.superblock().num_blocks), pdb.file_blocks());
        assert_eq!(pdb.stream_count(), 6);
        assert_eq!(pdb.info().guid, guid());
        assert_eq!((pdb.info().age, pdb.info().signature), (1, 0));
        assert_eq!(&pdb.container_bytes().unwrap()[..], &container[..]);
        assert!((0..6).all(|i| pdb.is_contiguous(i)));
    }

    #[test]
    fn large_container_switches_block_size() {
        let len = (128 * 512 - 32) / 4 * 512 + 1;
        let mut container = vec![0u8; len];
        container[..4].copy_from_slice(b"DXBC");
        container[24..28].copy_from_slice(&(len as u32).to_le_bytes());
        let bytes = write_companion_pdb(&container, guid()).unwrap();
        let pdb = Pdb::parse(&bytes).unwrap();
        assert_eq!(pdb.superblock().block_size, 1024);
        assert_eq!(pdb.container_bytes().unwrap().len(), len);
    }

    #[test]
    fn pdb_container_selects_orders_and_copies_digest() {
        let main = ContainerBuilder::new()
            .part(b"SFI0", &[0; 8])
            .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xdedbg")
            .part(b"VERS", &[1; 20])
            .part(b"ILDN", &[2; 8])
            .part(b"HASH", &[3; 20])
            .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xderet")
            .part(b"SRCI", &[4; 12])
            .digest(DigestPolicy::Retail)
            .build()
            .unwrap();
        let main = Container::parse(&main).unwrap();
        let digest = [0x5a; 16];
        let bytes = build_pdb_container(&main, digest).unwrap();
        let c = Container::parse(&bytes).unwrap();
        let names: Vec<String> = c.parts().map(|p| p.name.to_string()).collect();
        assert_eq!(names, ["ILDN", "HASH", "SRCI", "VERS", "ILDB"]);
        assert_eq!(c.header().digest, digest);
        assert_eq!((c.header().major, c.header().minor), (1, 0));
        assert!(c.is_contiguous());
        for p in c.parts() {
            assert_eq!(p.data, main.find(p.name).unwrap().data);
        }
    }
}
