//! MSF 7.00 ("Big MSF") PDB files, as far as DXIL tooling needs them: the
//! superblock, the stream directory, the PDB info stream (1) and the DXIL
//! container dxc stores in stream 5 of a companion PDB (`dxc -Fd`,
//! docs/format/pdb.md §2).
//!
//! # Why an own reader instead of a crate
//!
//! The maintained crates were tried on the 181 dxc PDBs and 2 fxc PDBs of the
//! shared corpus (`cargo info` versions as of this module):
//!
//! - `pdb` 0.8.0 and `pdb2` 0.11.0 read stream 5 of every corpus PDB. They are
//!   read-only, so the writer would still be ours; they read through a
//!   `Source` trait that copies every stream into an owned buffer (no
//!   borrowing from a memory map), and they bring `scroll`, `uuid` and
//!   `fallible-iterator` for three fields of stream 1.
//! - `ms-pdb-msf` 0.1.7 reads and writes, but refused all 181 dxc PDBs
//!   ("Page N is invalid; it is out of range (exceeds num_pages)") because it
//!   trusts the superblock's NumBlocks, which dxc writes one too low. Its
//!   writer is a page allocator with free-page maps and a commit protocol over
//!   a file, which cannot be made to reproduce dxc's fixed layout byte for
//!   byte; it needs edition 2024 and pulls in `anyhow`, `bitvec`, `zerocopy`,
//!   `tracing` and `sync_file`.
//!
//! dxc's layout is tiny and fixed (six streams, two of them non-empty, every
//! stream contiguous), the writer must match it byte for byte, and the reader
//! must tolerate dxc's quirks (a NumBlocks one less than the real count; a
//! stream 5 that readers see whole-block padded, so the container is sized by
//! its own FileSize). A few hundred lines of bounds-checked code on the
//! crate's own [`Cursor`] do all of that, borrow contiguous streams straight
//! from the input, and add no dependency.
//!
//! # Layout (docs/format/pdb.md §1, §2)
//!
//! Block 0 is the superblock: the 32-byte magic, then u32 BlockSize,
//! FreeBlockMapBlock, NumBlocks, NumDirectoryBytes, an unknown u32 and
//! BlockMapAddr. The block at BlockMapAddr lists the directory's blocks. The
//! directory is u32 NumStreams, NumStreams u32 stream sizes (`0xffffffff` =
//! nil stream), then each stream's block indices in stream order.
//!
//! Every field is untrusted: block indices are checked against the real file
//! length (never NumBlocks), a stream may claim at most as many bytes as the
//! file holds, and nothing is allocated beyond the file's size.

use crate::container::HEADER_SIZE;
use crate::cursor::{le_u32s, Cursor};
use crate::error::{MsfBlockOwner, ReadError, ReadErrorKind, Result};
use std::borrow::Cow;
use std::fmt;

/// The 32-byte MSF 7.00 magic at the start of the superblock.
pub const MSF_MAGIC: &[u8; 32] = b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0";
/// Size of the superblock fields (magic + six u32).
pub const SUPERBLOCK_SIZE: u64 = 56;
/// Block sizes MSF 7.00 allows.
pub const BLOCK_SIZES: [u32; 4] = [512, 1024, 2048, 4096];
/// The PDB info stream (version, signature, age, GUID).
pub const INFO_STREAM: u32 = 1;
/// The stream in which dxc stores the companion PDB's DXIL container.
pub const CONTAINER_STREAM: u32 = 5;
/// PDB info stream version VC70, the one dxc writes.
pub const PDB_VERSION_VC70: u32 = 20_000_404;
/// Size of the fixed head of the info stream: version, signature, age, GUID.
pub const INFO_HEAD_SIZE: u64 = 28;
/// Stream size value that marks a nil (deleted) stream.
const NIL_STREAM: u32 = u32::MAX;

/// Whether `data` starts with the MSF 7.00 magic.
pub fn is_msf(data: &[u8]) -> bool {
    data.starts_with(MSF_MAGIC)
}

crate::record::record! {
    /// The superblock fields after the 32-byte magic, as stored (read at
    /// [`SUPERBLOCK_FIELDS`]).
    #[derive(Eq)]
    pub struct SuperBlock: "MSF superblock" {
        /// Block size in bytes (512 for dxc).
        0 block_size: u32 => "MSF BlockSize";
        /// Block of the active free-block map (1 or 2).
        4 free_block_map_block: u32 => "MSF FreeBlockMapBlock";
        /// NumBlocks as stored. dxc writes one less than the real count; see
        /// [`Pdb::file_blocks`] for the number that is used.
        8 num_blocks: u32 => "MSF NumBlocks";
        /// Size of the stream directory in bytes.
        12 num_directory_bytes: u32 => "MSF NumDirectoryBytes";
        /// Not read.
        16 reserved: crate::record::Reserved<4>;
        /// Block holding the list of the directory's blocks.
        20 block_map_addr: u32 => "MSF BlockMapAddr";
    }
}

/// Where the [`SuperBlock`] fields start: after the magic.
pub const SUPERBLOCK_FIELDS: u64 = MSF_MAGIC.len() as u64;

crate::record::record! {
    /// The fixed head of the PDB info stream (stream 1).
    #[derive(Eq)]
    pub struct PdbInfo: "PDB info" {
        /// Format version (20000404 = VC70 for dxc).
        0 version: u32 => "PDB info version";
        /// Signature (a time stamp for MSVC; 0 for dxc).
        4 signature: u32 => "PDB info signature";
        /// Age (1 for dxc).
        8 age: u32 => "PDB info age";
        /// The 16-byte GUID as stored. For a dxc PDB it is the HASH part's digest.
        12 guid: [u8; 16] => "PDB info GUID";
    }
}

impl PdbInfo {
    /// The GUID in registry format as Windows tools and `llvm-pdbutil` print
    /// it: the first three fields are little-endian u32, u16, u16, e.g.
    /// `{13A4C1A6-64CB-BF61-4BDE-0AC75320078F}`.
    pub fn guid_string(&self) -> String {
        let g = &self.guid;
        let data1 = u32::from_le_bytes([g[0], g[1], g[2], g[3]]);
        let data2 = u16::from_le_bytes([g[4], g[5]]);
        let data3 = u16::from_le_bytes([g[6], g[7]]);
        let tail: String = g[10..].iter().map(|b| format!("{b:02X}")).collect();
        format!(
            "{{{data1:08X}-{data2:04X}-{data3:04X}-{:02X}{:02X}-{tail}}}",
            g[8], g[9]
        )
    }
}

/// One directory entry, validated at parse time.
#[derive(Debug, Clone, Copy)]
struct StreamEntry {
    /// Size in bytes (0 for a nil stream).
    size: u32,
    /// Whether the size was the nil marker.
    nil: bool,
    /// Offset of the stream's block list inside the directory.
    list_at: u64,
    /// Number of blocks in the list.
    block_count: u64,
    /// File offset of the stream when its blocks form one ascending run.
    contiguous_at: Option<u64>,
}

/// A parsed MSF 7.00 PDB borrowing its input.
///
/// Parsing validates the superblock, the block map, the whole directory and
/// every stream's block list against the real file length, and decodes the
/// info stream; reading a stream afterwards cannot fail. Contiguous streams
/// (all of a dxc PDB's) are borrowed; others are gathered on request into a
/// buffer no larger than the file.
#[derive(Debug, Clone)]
pub struct Pdb<'data> {
    data: &'data [u8],
    superblock: SuperBlock,
    directory: Cow<'data, [u8]>,
    streams: Vec<StreamEntry>,
    info: PdbInfo,
}

impl<'data> Pdb<'data> {
    /// Parses an MSF 7.00 file.
    pub fn parse(data: &'data [u8]) -> Result<Pdb<'data>> {
        let c = Cursor::new(data, 0);
        if !is_msf(data) {
            return Err(ReadError::new(
                0,
                ReadErrorKind::NotMsf {
                    found: data[..data.len().min(MSF_MAGIC.len())].to_vec(),
                },
            ));
        }
        let superblock = SuperBlock::read(&c, SUPERBLOCK_FIELDS)?;
        if !BLOCK_SIZES.contains(&superblock.block_size) {
            return Err(c.error(
                32,
                ReadErrorKind::unknown_value(PdbError::BlockSize {
                    value: superblock.block_size,
                }),
            ));
        }
        let block_size = u64::from(superblock.block_size);
        let file_len = c.len();
        let directory_len = u64::from(superblock.num_directory_bytes);
        if directory_len < 4 || directory_len > file_len {
            return Err(c.error(
                44,
                ReadErrorKind::out_of_bounds(PdbError::DirectorySize {
                    len: superblock.num_directory_bytes,
                    file_len,
                }),
            ));
        }
        // The block map: one u32 per directory block.
        let map_offset = u64::from(superblock.block_map_addr) * block_size;
        let map = c.bytes(
            map_offset,
            4 * directory_len.div_ceil(block_size),
            "MSF block map",
        )?;
        let directory_run = check_blocks(
            file_len,
            block_size,
            map,
            directory_len,
            MsfBlockOwner::Directory,
            |k| map_offset + k,
        )?;
        let directory = gather(data, block_size, map, directory_len, directory_run);
        // Absolute file offset of directory byte `k`, for error messages.
        let dir_abs = |k: u64| -> u64 {
            let index = k / block_size;
            let block = Cursor::new(map, 0)
                .u32(index * 4, "MSF block map")
                .unwrap_or(0);
            u64::from(block) * block_size + k % block_size
        };
        let dir = Cursor::new(&directory, 0);
        let relocate = |e: ReadError| ReadError {
            offset: dir_abs(e.offset),
            ..e
        };
        let stream_count = dir.u32(0, "MSF NumStreams").map_err(relocate)?;
        let mut list_at = 4;
        let sizes = dir
            .take_u32s(&mut list_at, u64::from(stream_count), "MSF stream sizes")
            .map_err(relocate)?;
        let mut streams = Vec::with_capacity(stream_count as usize);
        for (index, raw) in sizes.enumerate() {
            let nil = raw == NIL_STREAM;
            let size = if nil { 0 } else { raw };
            let size_at = 4 + 4 * index as u64;
            if u64::from(size) > file_len {
                return Err(ReadError::new(
                    dir_abs(size_at),
                    ReadErrorKind::out_of_bounds(PdbError::StreamSize {
                        index: index as u32,
                        len: size,
                        file_len,
                    }),
                ));
            }
            let block_count = u64::from(size).div_ceil(block_size);
            let start = list_at;
            let list = dir
                .take_bytes(&mut list_at, 4 * block_count, "MSF stream block list")
                .map_err(relocate)?;
            let contiguous_at = check_blocks(
                file_len,
                block_size,
                list,
                u64::from(size),
                MsfBlockOwner::Stream(index as u32),
                |k| dir_abs(start + k),
            )?;
            streams.push(StreamEntry {
                size,
                nil,
                list_at: start,
                block_count,
                contiguous_at,
            });
        }
        let mut pdb = Pdb {
            data,
            superblock,
            directory,
            streams,
            info: PdbInfo {
                version: 0,
                signature: 0,
                age: 0,
                guid: [0; 16],
            },
        };
        pdb.info = pdb.read_info()?;
        Ok(pdb)
    }

    fn read_info(&self) -> Result<PdbInfo> {
        let Some(stream) = self.stream(INFO_STREAM).filter(|s| !s.is_empty()) else {
            return Err(ReadError::new(
                SUPERBLOCK_SIZE,
                ReadErrorKind::missing(PdbError::InfoStreamMissing),
            ));
        };
        let c = Cursor::new(&stream, self.stream_offset(INFO_STREAM).unwrap_or(0));
        PdbInfo::read(&c, 0)
    }

    /// The input bytes.
    pub fn data(&self) -> &'data [u8] {
        self.data
    }

    /// The superblock as stored.
    pub fn superblock(&self) -> &SuperBlock {
        &self.superblock
    }

    /// The number of blocks the file really holds: its length over the block
    /// size, rounded up. Used instead of the stored NumBlocks (dxc writes one less).
    pub fn file_blocks(&self) -> u64 {
        (self.data.len() as u64).div_ceil(u64::from(self.superblock.block_size))
    }

    /// The decoded head of the info stream (stream 1).
    pub fn info(&self) -> PdbInfo {
        self.info
    }

    /// Number of streams in the directory.
    pub fn stream_count(&self) -> u32 {
        self.streams.len() as u32
    }

    /// Size of stream `index` in bytes (0 for a nil stream), or `None` past the last stream.
    pub fn stream_size(&self, index: u32) -> Option<u32> {
        self.streams.get(index as usize).map(|s| s.size)
    }

    /// Whether stream `index` is marked nil (size `0xffffffff`).
    pub fn is_nil_stream(&self, index: u32) -> bool {
        self.streams.get(index as usize).is_some_and(|s| s.nil)
    }

    /// The block indices of stream `index`, in stream order (empty past the last stream).
    pub fn stream_blocks(&self, index: u32) -> impl Iterator<Item = u32> + '_ {
        le_u32s(self.block_list(index))
    }

    /// File offset of stream `index`'s first byte, when it has one.
    pub fn stream_offset(&self, index: u32) -> Option<u64> {
        let first = self.stream_blocks(index).next()?;
        Some(u64::from(first) * u64::from(self.superblock.block_size))
    }

    /// Whether stream `index` is stored as one ascending run of blocks (and
    /// so is borrowed by [`Pdb::stream`]).
    pub fn is_contiguous(&self, index: u32) -> bool {
        self.streams
            .get(index as usize)
            .is_some_and(|s| s.size == 0 || s.contiguous_at.is_some())
    }

    fn block_list(&self, index: u32) -> &[u8] {
        self.streams
            .get(index as usize)
            .and_then(|s| {
                let start = usize::try_from(s.list_at).ok()?;
                let end = usize::try_from(s.list_at + 4 * s.block_count).ok()?;
                self.directory.get(start..end)
            })
            .unwrap_or(&[])
    }

    /// The bytes of stream `index` (exactly its directory size), or `None`
    /// past the last stream. Contiguous streams are borrowed from the input;
    /// others are gathered into an owned buffer.
    pub fn stream(&self, index: u32) -> Option<Cow<'data, [u8]>> {
        let entry = self.streams.get(index as usize)?;
        Some(gather(
            self.data,
            u64::from(self.superblock.block_size),
            self.block_list(index),
            u64::from(entry.size),
            entry.contiguous_at,
        ))
    }

    /// The DXIL container in stream 5, trimmed to the container's own
    /// FileSize (dxc's readers see the stream whole-block padded).
    ///
    /// Fails with [`ReadErrorKind::PdbNoContainer`] when stream 5 is absent,
    /// empty or does not start with `DXBC` (fxc PDBs), and with a
    /// `Truncated` error when the container's FileSize runs past the stream.
    pub fn container_bytes(&self) -> Result<Cow<'data, [u8]>> {
        let base = self.stream_offset(CONTAINER_STREAM).unwrap_or(0);
        let stream = self
            .stream(CONTAINER_STREAM)
            .filter(|s| s.starts_with(b"DXBC"))
            .ok_or_else(|| {
                ReadError::new(
                    base,
                    ReadErrorKind::PdbNoContainer {
                        stream_len: u64::from(self.stream_size(CONTAINER_STREAM).unwrap_or(0)),
                    },
                )
            })?;
        let c = Cursor::new(&stream, base);
        let file_size = u64::from(c.u32(24, "FileSize of the container in PDB stream 5")?);
        if file_size < HEADER_SIZE {
            return Err(c.error(
                24,
                ReadErrorKind::too_small(PdbError::ContainerFileSize {
                    size: file_size,
                    minimum: HEADER_SIZE,
                }),
            ));
        }
        c.bytes(0, file_size, "container in PDB stream 5 (its FileSize)")?;
        let len = file_size as usize;
        Ok(match stream {
            Cow::Borrowed(b) => Cow::Borrowed(&b[..len]),
            Cow::Owned(mut v) => {
                v.truncate(len);
                Cow::Owned(v)
            }
        })
    }
}

/// Checks that a block list of `len` bytes only names blocks whose needed
/// bytes lie inside the file. Returns the file offset of the data when the
/// blocks form one ascending run. `list_abs(k)` maps byte `k` of the list to
/// its file offset for error messages.
fn check_blocks(
    file_len: u64,
    block_size: u64,
    list: &[u8],
    len: u64,
    owner: MsfBlockOwner,
    list_abs: impl Fn(u64) -> u64,
) -> Result<Option<u64>> {
    let mut first: Option<u64> = None;
    let mut contiguous = true;
    for (k, block) in le_u32s(list).enumerate() {
        let k = k as u64;
        let chunk = block_size.min(len - k * block_size);
        let start = u64::from(block) * block_size;
        if start + chunk > file_len {
            return Err(ReadError::new(
                list_abs(4 * k),
                ReadErrorKind::MsfBlockPastEnd {
                    owner,
                    block,
                    file_blocks: file_len.div_ceil(block_size),
                },
            ));
        }
        match first {
            None => first = Some(u64::from(block)),
            Some(f) => contiguous &= u64::from(block) == f + k,
        }
    }
    Ok(first.filter(|_| contiguous).map(|f| f * block_size))
}

/// The `len` bytes named by a block list already validated by [`check_blocks`].
fn gather<'data>(
    data: &'data [u8],
    block_size: u64,
    list: &[u8],
    len: u64,
    contiguous_at: Option<u64>,
) -> Cow<'data, [u8]> {
    let slice = |start: u64, n: u64| -> &'data [u8] {
        usize::try_from(start)
            .ok()
            .zip(usize::try_from(start + n).ok())
            .and_then(|(s, e)| data.get(s..e))
            .unwrap_or(&[])
    };
    if len == 0 {
        return Cow::Borrowed(&[]);
    }
    if let Some(start) = contiguous_at {
        return Cow::Borrowed(slice(start, len));
    }
    // `len` was checked against the file length, so this is bounded by it.
    let mut out = Vec::with_capacity(len as usize);
    for (k, block) in le_u32s(list).enumerate() {
        let chunk = block_size.min(len - k as u64 * block_size);
        out.extend_from_slice(slice(u64::from(block) * block_size, chunk));
    }
    Cow::Owned(out)
}

/// Where the container of a [`ContainerInput`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerSource {
    /// The input is a container itself.
    Container,
    /// The input is a dxc companion PDB; the container is its stream 5.
    PdbStream5 {
        /// The PDB's info stream (its GUID is the HASH digest).
        info: PdbInfo,
    },
}

/// The container bytes found in an input file, and where they came from.
#[derive(Debug, Clone)]
pub struct ContainerInput<'data> {
    /// The container: the input itself, or stream 5 of a PDB trimmed to its FileSize.
    pub bytes: Cow<'data, [u8]>,
    /// Whether it came from a PDB.
    pub source: ContainerSource,
}

impl ContainerInput<'_> {
    /// Whether the container was taken from a PDB's stream 5.
    pub fn is_from_pdb(&self) -> bool {
        matches!(self.source, ContainerSource::PdbStream5 { .. })
    }
}

/// Finds the container in any input so read-only operations can accept PDBs:
/// an MSF PDB yields its stream-5 container, anything else is returned as is
/// (and [`crate::Container::parse`] reports a bad magic for non-containers).
pub fn container_input(data: &[u8]) -> Result<ContainerInput<'_>> {
    if is_msf(data) {
        let pdb = Pdb::parse(data)?;
        return Ok(ContainerInput {
            bytes: pdb.container_bytes()?,
            source: ContainerSource::PdbStream5 { info: pdb.info() },
        });
    }
    Ok(ContainerInput {
        bytes: Cow::Borrowed(data),
        source: ContainerSource::Container,
    })
}

/// The MSF/PDB reader's errors, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PdbError {
    /// The data does not start with the MSF 7.00 magic (an SPDB/SDBG part).
    MsfMagic,
    /// A block size other than 512, 1024, 2048 or 4096.
    BlockSize {
        /// The block size.
        value: u32,
    },
    /// The stream directory's size is under 4 bytes or over the file.
    DirectorySize {
        /// NumDirectoryBytes.
        len: u32,
        /// The file length.
        file_len: u64,
    },
    /// A stream's size is more than the whole file.
    StreamSize {
        /// The stream.
        index: u32,
        /// Its size.
        len: u32,
        /// The file length.
        file_len: u64,
    },
    /// No info stream (stream 1).
    InfoStreamMissing,
    /// The container in stream 5 is shorter than a container header.
    ContainerFileSize {
        /// Its FileSize.
        size: u64,
        /// The container header's size.
        minimum: u64,
    },
}

impl fmt::Display for PdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdbError::MsfMagic => f.write_str("data does not start with the MSF 7.00 magic"),
            PdbError::BlockSize { value } => {
                write!(f, "MSF block size {value} is not 512, 1024, 2048 or 4096")
            }
            PdbError::DirectorySize { len, file_len } => write!(
                f,
                "MSF directory size {len:#x} is not between 4 and the file length {file_len:#x}"
            ),
            PdbError::StreamSize {
                index,
                len,
                file_len,
            } => write!(
                f,
                "MSF stream {index} claims {len:#x} bytes, more than the whole file ({file_len:#x})"
            ),
            PdbError::InfoStreamMissing => f.write_str("PDB has no info stream (stream 1)"),
            PdbError::ContainerFileSize { size, minimum } => write!(
                f,
                "container in PDB stream 5 has FileSize {size:#x}, less than its {minimum}-byte header"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::build;

    #[test]
    fn each_error_says_its_sentence() {
        use PdbError::*;
        crate::testutil::errors_say(vec![
            (MsfMagic, "data does not start with the MSF 7.00 magic"),
            (
                BlockSize { value: 100 },
                "MSF block size 100 is not 512, 1024, 2048 or 4096",
            ),
            (
                DirectorySize {
                    len: 3,
                    file_len: 0x1000,
                },
                "MSF directory size 0x3 is not between 4 and the file length 0x1000",
            ),
            (
                StreamSize {
                    index: 5,
                    len: 0x7fff_ffff,
                    file_len: 0x1000,
                },
                "MSF stream 5 claims 0x7fffffff bytes, more than the whole file (0x1000)",
            ),
            (InfoStreamMissing, "PDB has no info stream (stream 1)"),
            (
                ContainerFileSize {
                    size: 8,
                    minimum: 32,
                },
                "container in PDB stream 5 has FileSize 0x8, less than its 32-byte header",
            ),
        ]);
    }

    /// Test MSF builder: `streams` get the given block lists; `blocks` is the
    /// number of blocks in the file; the directory goes in `dir_blocks`.
    struct TestMsf {
        block_size: u32,
        blocks: u32,
        num_blocks_field: u32,
        map_block: u32,
        dir_blocks: Vec<u32>,
        streams: Vec<(u32, Vec<u32>, Vec<u8>)>,
    }

    impl TestMsf {
        fn new(blocks: u32) -> Self {
            TestMsf {
                block_size: 512,
                blocks,
                num_blocks_field: blocks,
                map_block: 3,
                dir_blocks: vec![4],
                streams: Vec::new(),
            }
        }

        fn stream(mut self, size: u32, blocks: &[u32], data: &[u8]) -> Self {
            self.streams.push((size, blocks.to_vec(), data.to_vec()));
            self
        }

        fn directory(&self) -> Vec<u8> {
            let mut d = (self.streams.len() as u32).to_le_bytes().to_vec();
            for (size, _, _) in &self.streams {
                d.extend_from_slice(&size.to_le_bytes());
            }
            for (_, blocks, _) in &self.streams {
                for b in blocks {
                    d.extend_from_slice(&b.to_le_bytes());
                }
            }
            d
        }

        fn build(&self) -> Vec<u8> {
            let bs = self.block_size as usize;
            let mut f = vec![0u8; bs * self.blocks as usize];
            let mut put = |at: usize, bytes: &[u8]| {
                let end = (at + bytes.len()).min(f.len());
                f[at..end].copy_from_slice(&bytes[..end - at]);
            };
            let dir = self.directory();
            put(0, MSF_MAGIC);
            for (i, v) in [
                self.block_size,
                1,
                self.num_blocks_field,
                dir.len() as u32,
                0,
                self.map_block,
            ]
            .iter()
            .enumerate()
            {
                put(32 + 4 * i, &v.to_le_bytes());
            }
            for (i, b) in self.dir_blocks.iter().enumerate() {
                put(self.map_block as usize * bs + 4 * i, &b.to_le_bytes());
            }
            for (i, chunk) in dir.chunks(bs).enumerate() {
                put(self.dir_blocks[i] as usize * bs, chunk);
            }
            for (_, blocks, data) in &self.streams {
                for (k, chunk) in data.chunks(bs).enumerate() {
                    put(blocks[k] as usize * bs, chunk);
                }
            }
            f
        }
    }

    fn info_stream(guid: [u8; 16]) -> Vec<u8> {
        let mut s = Vec::new();
        for v in [PDB_VERSION_VC70, 0, 1] {
            s.extend_from_slice(&v.to_le_bytes());
        }
        s.extend_from_slice(&guid);
        s.extend_from_slice(&[0; 28]);
        s
    }

    fn guid() -> [u8; 16] {
        [
            0xa6, 0xc1, 0xa4, 0x13, 0xcb, 0x64, 0x61, 0xbf, 0x4b, 0xde, 0x0a, 0xc7, 0x53, 0x20,
            0x07, 0x8f,
        ]
    }

    /// A dxc-shaped PDB holding `container` in stream 5 at blocks 6.. .
    fn dxc_like(container: &[u8]) -> TestMsf {
        let n5 = container.len().div_ceil(512) as u32;
        let mut msf = TestMsf::new(6 + n5);
        msf.num_blocks_field = 5 + n5;
        msf.stream(0, &[], &[])
            .stream(56, &[5], &info_stream(guid()))
            .stream(0, &[], &[])
            .stream(0, &[], &[])
            .stream(0, &[], &[])
            .stream(
                container.len() as u32,
                &(6..6 + n5).collect::<Vec<_>>(),
                container,
            )
    }

    #[test]
    fn reads_dxc_layout_and_borrows() {
        let container = build(&[(b"ILDN", &[0, 0, 1, 0, b'a', 0, 0, 0]), (b"HASH", &[7; 20])]);
        let bytes = dxc_like(&container).build();
        assert!(is_msf(&bytes));
        let pdb = Pdb::parse(&bytes).unwrap();
        assert_eq!(pdb.stream_count(), 6);
        assert_eq!(pdb.file_blocks(), 7);
        assert_eq!(pdb.superblock().num_blocks, 6);
        let info = pdb.info();
        assert_eq!(
            (info.version, info.signature, info.age, info.guid),
            (PDB_VERSION_VC70, 0, 1, guid())
        );
        assert_eq!(info.guid_string(), "{13A4C1A6-64CB-BF61-4BDE-0AC75320078F}");
        let c = pdb.container_bytes().unwrap();
        assert!(matches!(c, Cow::Borrowed(_)));
        assert_eq!(&c[..], &container[..]);
        assert_eq!(pdb.stream_size(1), Some(56));
        assert_eq!(pdb.stream(6), None);
        assert!(pdb.is_contiguous(5));
        let input = container_input(&bytes).unwrap();
        assert!(input.is_from_pdb());
        assert_eq!(&input.bytes[..], &container[..]);
        let plain = container_input(&container).unwrap();
        assert_eq!(plain.source, ContainerSource::Container);
    }

    #[test]
    fn whole_block_padded_stream_is_trimmed_to_file_size() {
        let container = build(&[(b"HASH", &[7; 20])]);
        let mut msf = dxc_like(&container);
        let mut padded = container.clone();
        padded.resize(512, 0);
        msf.streams[5] = (512, vec![6], padded);
        let bytes = msf.build();
        let pdb = Pdb::parse(&bytes).unwrap();
        assert_eq!(pdb.stream(5).unwrap().len(), 512);
        assert_eq!(&pdb.container_bytes().unwrap()[..], &container[..]);
    }

    #[test]
    fn non_contiguous_stream_is_gathered() {
        let data: Vec<u8> = (0..1100u32).map(|i| i as u8).collect();
        let bytes = TestMsf::new(10)
            .stream(0, &[], &[])
            .stream(56, &[5], &info_stream(guid()))
            .stream(1100, &[8, 6, 9], &data)
            .build();
        let pdb = Pdb::parse(&bytes).unwrap();
        let s = pdb.stream(2).unwrap();
        assert!(matches!(s, Cow::Owned(_)));
        assert_eq!(&s[..], &data[..]);
        assert!(!pdb.is_contiguous(2));
        assert_eq!(pdb.stream_blocks(2).collect::<Vec<_>>(), vec![8, 6, 9]);
    }

    #[test]
    fn multi_block_directory_is_gathered() {
        // 100 streams of one block each: the directory (800 bytes) needs two
        // blocks, listed out of order (5, 4).
        let mut msf = TestMsf::new(7 + 98);
        msf.dir_blocks = vec![5, 4];
        msf = msf
            .stream(0, &[], &[])
            .stream(56, &[6], &info_stream(guid()));
        for i in 0..98u32 {
            msf = msf.stream(4, &[7 + i], &i.to_le_bytes());
        }
        assert_eq!(msf.directory().len(), 800);
        let bytes = msf.build();
        let pdb = Pdb::parse(&bytes).unwrap();
        assert_eq!(pdb.stream_count(), 100);
        assert_eq!(&pdb.stream(99).unwrap()[..], &97u32.to_le_bytes());
        assert_eq!(pdb.info().guid, guid());
    }

    #[test]
    fn nil_streams_read_as_empty() {
        let bytes = TestMsf::new(6)
            .stream(NIL_STREAM, &[], &[])
            .stream(56, &[5], &info_stream(guid()))
            .build();
        let pdb = Pdb::parse(&bytes).unwrap();
        assert!(pdb.is_nil_stream(0));
        assert_eq!(pdb.stream_size(0), Some(0));
        assert!(pdb.stream(0).unwrap().is_empty());
        let e = pdb.container_bytes().unwrap_err();
        assert!(matches!(
            e.kind,
            ReadErrorKind::PdbNoContainer { stream_len: 0 }
        ));
        assert_eq!(
            e.to_string(),
            "PDB has no DXIL container in stream 5 (an fxc PDB?)"
        );
    }

    fn parse_err(bytes: &[u8]) -> ReadError {
        Pdb::parse(bytes).unwrap_err()
    }

    #[test]
    fn rejects_bad_headers() {
        assert!(matches!(parse_err(b"").kind, ReadErrorKind::NotMsf { .. }));
        assert!(matches!(
            parse_err(b"Microsoft C/C++ program database 2.00\r\n").kind,
            ReadErrorKind::NotMsf { .. }
        ));
        assert!(!is_msf(b"DXBC"));
        // Magic only: the superblock fields are truncated.
        assert!(matches!(
            parse_err(MSF_MAGIC).kind,
            ReadErrorKind::Truncated { .. }
        ));
        let good = dxc_like(&build(&[])).build();
        let set = |at: usize, v: u32| {
            let mut b = good.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        for bs in [0, 1, 500, 8192, u32::MAX] {
            let e = parse_err(&set(32, bs));
            assert_eq!(
                e.kind,
                ReadErrorKind::unknown_value(PdbError::BlockSize { value: bs }),
                "{e}"
            );
            assert_eq!(e.offset, 32);
        }
        // Directory bigger than the file, or too small for NumStreams.
        for ndb in [0, 3, good.len() as u32 + 1, u32::MAX] {
            let e = parse_err(&set(44, ndb));
            assert!(matches!(e.kind, ReadErrorKind::OutOfBounds { .. }));
            assert!(matches!(
                e.kind.detail(),
                Some(PdbError::DirectorySize { len, .. }) if *len == ndb
            ));
        }
        // Block map past the end.
        assert!(matches!(
            parse_err(&set(52, 1000)).kind,
            ReadErrorKind::Truncated { .. }
        ));
        assert!(matches!(
            parse_err(&set(52, u32::MAX)).kind,
            ReadErrorKind::Truncated { .. }
        ));
        // Directory block past the end.
        let e = parse_err(&set(3 * 512, 99));
        assert_eq!(e.offset, 3 * 512);
        assert!(matches!(
            e.kind,
            ReadErrorKind::MsfBlockPastEnd {
                owner: MsfBlockOwner::Directory,
                block: 99,
                file_blocks: 7
            }
        ));
        // NumStreams huge.
        let e = parse_err(&set(4 * 512, 0x4000_0000));
        assert!(matches!(e.kind, ReadErrorKind::Truncated { .. }));
        assert_eq!(e.offset, 4 * 512 + 4);
        // NumBlocks is never trusted: zero or huge both read.
        assert!(Pdb::parse(&set(40, 0)).is_ok());
        assert!(Pdb::parse(&set(40, u32::MAX)).is_ok());
    }

    #[test]
    fn rejects_bad_streams() {
        let good = dxc_like(&build(&[])).build();
        let set = |at: usize, v: u32| {
            let mut b = good.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        let dir = 4 * 512;
        // Stream 5 size larger than the file.
        let e = parse_err(&set(dir + 4 + 5 * 4, 0x7fff_ffff));
        assert!(matches!(e.kind, ReadErrorKind::OutOfBounds { .. }));
        assert!(matches!(
            e.kind.detail(),
            Some(PdbError::StreamSize {
                index: 5,
                len: 0x7fff_ffff,
                ..
            })
        ));
        assert_eq!(e.offset, (dir + 24) as u64);
        // Stream 5 needs two blocks but the directory ends after one.
        assert!(matches!(
            parse_err(&set(dir + 24, 600)).kind,
            ReadErrorKind::Truncated { .. }
        ));
        // Stream 1's block past the end; the error points at the list entry.
        let e = parse_err(&set(dir + 28, 1_000_000));
        assert_eq!(e.offset, (dir + 28) as u64);
        assert!(matches!(
            e.kind,
            ReadErrorKind::MsfBlockPastEnd {
                owner: MsfBlockOwner::Stream(1),
                block: 1_000_000,
                ..
            }
        ));
        // Truncated file: the last block of stream 5 is partly missing.
        let e = parse_err(&good[..good.len() - 500]);
        assert!(matches!(
            e.kind,
            ReadErrorKind::MsfBlockPastEnd {
                owner: MsfBlockOwner::Stream(5),
                ..
            }
        ));
        // No info stream.
        let bytes = TestMsf::new(6).stream(0, &[], &[]).build();
        assert!(matches!(
            parse_err(&bytes).kind,
            ReadErrorKind::Missing { .. }
        ));
        assert_eq!(
            parse_err(&bytes).kind.detail(),
            Some(&PdbError::InfoStreamMissing)
        );
        // Info stream too short.
        let bytes = TestMsf::new(6)
            .stream(0, &[], &[])
            .stream(20, &[5], &[0; 20])
            .build();
        assert!(matches!(
            parse_err(&bytes).kind,
            ReadErrorKind::Truncated { .. }
        ));
    }

    #[test]
    fn container_errors() {
        // Stream 5 that is not a container.
        let mut msf = dxc_like(&build(&[]));
        msf.streams[5] = (8, vec![6], b"notDXBC!".to_vec());
        let bytes = msf.build();
        let e = Pdb::parse(&bytes).unwrap().container_bytes().unwrap_err();
        assert_eq!(e.offset, 6 * 512);
        assert!(matches!(
            e.kind,
            ReadErrorKind::PdbNoContainer { stream_len: 8 }
        ));
        // Container whose FileSize runs past the stream.
        let mut c = build(&[(b"HASH", &[7; 20])]);
        c[24..28].copy_from_slice(&1000u32.to_le_bytes());
        let bytes = dxc_like(&c).build();
        let e = Pdb::parse(&bytes).unwrap().container_bytes().unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Truncated { .. }), "{e}");
        // FileSize below the header.
        c[24..28].copy_from_slice(&8u32.to_le_bytes());
        let bytes = dxc_like(&c).build();
        let e = Pdb::parse(&bytes).unwrap().container_bytes().unwrap_err();
        assert!(
            matches!(
                e.kind.detail(),
                Some(PdbError::ContainerFileSize {
                    size: 8,
                    minimum: 32,
                })
            ) && matches!(e.kind, ReadErrorKind::TooSmall { .. }),
            "{e}"
        );
        // Header cut short.
        let bytes = dxc_like(b"DXBC\0\0\0\0").build();
        let e = Pdb::parse(&bytes).unwrap().container_bytes().unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Truncated { .. }), "{e}");
        // container_input passes errors through.
        assert!(container_input(&bytes).is_err());
    }

    #[test]
    fn repeated_blocks_cannot_inflate_allocations() {
        // A stream listing block 5 many times is bounded by the file length check.
        let mut msf = TestMsf::new(8);
        msf = msf
            .stream(0, &[], &[])
            .stream(56, &[5], &info_stream(guid()))
            .stream(512 * 7, &[5; 7], &[]);
        let bytes = msf.build();
        let pdb = Pdb::parse(&bytes).unwrap();
        assert_eq!(pdb.stream(2).unwrap().len(), 512 * 7);
        msf.streams[2] = (512 * 9, vec![5; 9], vec![]);
        let e = parse_err(&msf.build());
        assert!(
            matches!(e.kind.detail(), Some(PdbError::StreamSize { index: 2, .. }))
                && matches!(e.kind, ReadErrorKind::OutOfBounds { .. }),
            "{e}"
        );
    }
}
