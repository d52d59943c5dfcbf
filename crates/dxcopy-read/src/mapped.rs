//! Opening inputs: memory-map regular files, read everything else (stdin,
//! pipes, devices) only as far as a container's or PDB's header allows.

use crate::cursor::Cursor;
use crate::fault_guard::{self, Registration};
use crate::pdb::{MSF_MAGIC, SUPERBLOCK_SIZE};
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::ops::Deref;
use std::path::Path;

/// The most bytes read from an input that is not a regular file: a container
/// is at most 4 GiB (its FileSize is a u32), and so is the PDB holding one.
pub const MAX_STREAM_INPUT: u64 = u32::MAX as u64;

/// The most bytes read from an input that is not a regular file and starts
/// as text (a C header on standard input): 64 MiB, a header of about a
/// 10 MiB container. Larger headers must come from a regular file.
pub const MAX_STREAM_TEXT: u64 = 64 << 20;

/// Regular files up to this size are read into memory with one `read`
/// instead of being mapped: for a small file a map costs more system calls
/// (`mmap`, `munmap`, a page fault, the fault guard) than the copy it saves.
pub const READ_LIMIT: u64 = 256 << 10;

/// The bytes of an input file: a read-only memory map for regular files
/// larger than [`READ_LIMIT`], the bytes read into memory for smaller ones,
/// an owned buffer for stdin, pipes, character devices and empty files.
///
/// Another process may truncate or rewrite a file while it is in use.
/// On Linux a read past the new end of a mapped file does not kill the
/// process (see the `fault_guard` module): it reads zeros, and
/// [`changed`](Self::changed) says so; callers ask it before they commit
/// anything derived from the bytes. A regular file that was read is checked
/// the same way (its length and modification time now against those it was
/// opened with). dxcopy itself never writes to an input in place (edits go
/// to a temp file that is renamed over it).
pub struct MappedFile {
    inner: Inner,
    /// The file's metadata, taken before any byte of it was read (so its
    /// access time is the one from before this run).
    metadata: Option<Metadata>,
}

enum Inner {
    /// The map and the file it maps, kept open so writers can copy byte
    /// ranges of it in the kernel (copy_file_range) instead of through memory.
    /// Declared before the map so the guard's slot is freed first.
    Map(Option<Registration>, memmap2::Mmap, File),
    /// A small regular file read into memory, and the file, kept open so
    /// [`MappedFile::changed`] can ask whether it changed since. `short`:
    /// the file ended before the length it had when opened.
    Read(Vec<u8>, File, bool),
    Owned(Vec<u8>),
}

/// How an input changed while it was in use (see [`MappedFile::changed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputChange {
    /// A read of the mapped bytes hit a page past the file's new end.
    Truncated,
    /// The file's length is not the one it had when it was opened.
    Length {
        /// When opened.
        was: u64,
        /// Now.
        now: u64,
    },
    /// The file's modification time moved (it was written to).
    Modified,
}

impl std::fmt::Display for InputChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputChange::Truncated => write!(f, "it was truncated while it was read"),
            InputChange::Length { was, now } => {
                write!(
                    f,
                    "its length changed from {was} to {now} bytes while it was read"
                )
            }
            InputChange::Modified => write!(f, "it was modified while it was read"),
        }
    }
}

impl MappedFile {
    /// Opens `path`; `-` means standard input.
    pub fn open(path: &Path) -> io::Result<MappedFile> {
        if path.as_os_str() == "-" {
            return MappedFile::from_reader(io::stdin().lock());
        }
        let file = File::open(path)?;
        MappedFile::from_file(file)
    }

    /// Maps an open file when it is a regular file larger than
    /// [`READ_LIMIT`], reads a smaller one, and reads anything else as far
    /// as its header allows (see [`read_bounded`]).
    pub fn from_file(file: File) -> io::Result<MappedFile> {
        let meta = file.metadata()?;
        MappedFile::from_file_with(file, meta)
    }

    /// [`from_file`](Self::from_file) with the file's metadata already taken
    /// (one `fstat` per file: the caller's).
    pub fn from_file_with(mut file: File, meta: Metadata) -> io::Result<MappedFile> {
        if meta.is_file() && meta.len() > 0 && meta.len() <= READ_LIMIT {
            let (buf, short) = read_exact_len(&mut file, meta.len() as usize)?;
            return Ok(MappedFile {
                inner: Inner::Read(buf, file, short),
                metadata: Some(meta),
            });
        }
        if meta.is_file() && meta.len() > 0 {
            // The length is the one just taken: memmap2 would ask again.
            let len = usize::try_from(meta.len()).ok();
            #[allow(unsafe_code)]
            // SAFETY: `Mmap::map` makes a read-only *shared* mapping
            // (PROT_READ, MAP_SHARED), not a private one: nothing here can
            // write through it, and this type only hands out `&[u8]`, never
            // `&mut`, so this process breaks no aliasing rule. Because it is
            // shared, another process's writes show through it; the tools
            // never write an input in place (edits go to a temporary file
            // renamed over it, which leaves the mapped inode untouched). A
            // truncation by another process is caught by the fault guard
            // when the map got a guard slot (Linux: pages past the new end
            // read as zeros instead of raising SIGBUS), and `changed`
            // re-checks the length and modification time, so callers report
            // such an input before they use results.
            let map = len.map(|len| unsafe { memmap2::MmapOptions::new().len(len).map(&file) });
            if let Some(Ok(map)) = map {
                // Without a guard slot, a large file is still mapped (as
                // before the guard existed); a small one is read instead.
                let guard = fault_guard::register(map.as_ptr() as usize, map.len());
                if guard.is_some() || map.len() > 1 << 20 {
                    return Ok(MappedFile {
                        inner: Inner::Map(guard, map, file),
                        metadata: Some(meta),
                    });
                }
            }
        }
        let buf = read_bounded(&mut file)?;
        Ok(MappedFile {
            inner: Inner::Owned(buf),
            metadata: Some(meta),
        })
    }

    /// Reads from `reader` as far as the header allows (see [`read_bounded`]).
    pub fn from_reader(mut reader: impl Read) -> io::Result<MappedFile> {
        Ok(MappedFile::from_vec(read_bounded(&mut reader)?))
    }

    /// Wraps bytes already in memory.
    pub fn from_vec(buf: Vec<u8>) -> MappedFile {
        MappedFile {
            inner: Inner::Owned(buf),
            metadata: None,
        }
    }

    /// Whether the bytes come from a memory map.
    pub fn is_mapped(&self) -> bool {
        matches!(self.inner, Inner::Map(..))
    }

    /// The open file behind a memory map (`None` for bytes read into memory).
    pub fn file(&self) -> Option<&File> {
        match &self.inner {
            Inner::Map(_, _, file) => Some(file),
            Inner::Read(..) | Inner::Owned(_) => None,
        }
    }

    /// The metadata of the opened file, taken before it was read (`None` for
    /// standard input and bytes given in memory).
    pub fn metadata(&self) -> Option<&Metadata> {
        self.metadata.as_ref()
    }

    /// Whether the file changed since it was opened: a read of the map hit
    /// a page past its new end, a read of a small file ended early, or its
    /// length or modification time now differ (one `fstat`). `None` for
    /// bytes that did not come from a regular file (stdin, a pipe: what was
    /// read is all there is) and for unchanged files.
    pub fn changed(&self) -> Option<InputChange> {
        if let Some(change) = self.changed_while_read() {
            return Some(change);
        }
        let (file, was) = match &self.inner {
            Inner::Map(_, map, file) => (file, map.len() as u64),
            Inner::Read(_, file, _) => (file, self.metadata.as_ref()?.len()),
            Inner::Owned(_) => return None,
        };
        let now = file.metadata().ok()?;
        if now.len() != was {
            return Some(InputChange::Length {
                was,
                now: now.len(),
            });
        }
        let before = self.metadata.as_ref().and_then(|m| m.modified().ok());
        if before.is_some() && before != now.modified().ok() {
            return Some(InputChange::Modified);
        }
        None
    }

    /// What [`changed`](Self::changed) knows without asking the OS: a read
    /// of the map that hit a page past the file's new end, or a read of a
    /// small file that ended before its length. For a run that writes
    /// nothing, this is all that matters: its bytes were read as they were.
    pub fn changed_while_read(&self) -> Option<InputChange> {
        match &self.inner {
            Inner::Map(guard, ..) if guard.as_ref().is_some_and(Registration::faulted) => {
                Some(InputChange::Truncated)
            }
            Inner::Read(_, _, true) => Some(InputChange::Truncated),
            _ => None,
        }
    }

    /// Maps the pages of `bytes`, a sub-slice of this mapping, into the
    /// process ahead of one sequential read of them (`MADV_POPULATE_READ` on
    /// Linux 5.14+: one call instead of a page fault per few pages). Pages
    /// come from the page cache, so they count as resident file pages, not
    /// heap. Does nothing for other bytes, other systems or older kernels.
    pub fn populate(&self, bytes: &[u8]) {
        #[cfg(target_os = "linux")]
        if let (Inner::Map(_, map, _), Some(offset)) = (&self.inner, offset_within(self, bytes)) {
            // Only a hint: an error (an older kernel) leaves the pages to fault in.
            let _ = map.advise_range(memmap2::Advice::PopulateRead, offset as usize, bytes.len());
        }
        #[cfg(not(target_os = "linux"))]
        let _ = bytes;
    }

    /// Where `bytes` lies in the mapped file: the file offset of its first
    /// byte, when `bytes` is a sub-slice of this mapping (found by address,
    /// so no byte is read). `None` for bytes held in memory or borrowed from
    /// elsewhere.
    pub fn file_offset_of(&self, bytes: &[u8]) -> Option<u64> {
        self.file()?;
        offset_within(self, bytes)
    }
}

/// Reads `len` bytes, the length of a regular file, normally with one
/// `read` (no second call to see the end: a file that grew meanwhile is
/// found by [`MappedFile::changed`] through its length). Returns fewer bytes,
/// and `true`, when the file ends early (it shrank meanwhile).
fn read_exact_len(file: &mut File, len: usize) -> io::Result<(Vec<u8>, bool)> {
    let mut buf = vec![0u8; len];
    let mut filled = 0;
    while filled < len {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(filled);
    Ok((buf, filled < len))
}

/// Reads an input that is not a regular file (or reports a length of 0):
/// the first bytes say whether it is a container (`DXBC`, whose FileSize
/// gives its length) or a PDB (MSF, block size × block count); only that
/// many bytes are read, at most [`MAX_STREAM_INPUT`]. Text (32 bytes
/// without a NUL: a C header) is read to its end, to the first NUL byte or
/// to [`MAX_STREAM_TEXT`], whichever comes first. Anything else stops after
/// the 32-byte header, so an endless input (`/dev/zero`) costs 32 bytes and
/// the container reader reports what it found.
pub fn read_bounded(reader: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    reader.take(32).read_to_end(&mut buf)?;
    // A header field, 0 when the input ended before it.
    let field = |buf: &[u8], at: u64| {
        Cursor::new(buf, 0)
            .u32(at, "input header")
            .map_or(0, u64::from)
    };
    let want = if buf.starts_with(b"DXBC") && buf.len() == 32 {
        field(&buf, 24)
    } else if buf[..] == MSF_MAGIC[..] {
        reader.take(SUPERBLOCK_SIZE - 32).read_to_end(&mut buf)?;
        (field(&buf, 32) * field(&buf, 40)).min(MAX_STREAM_INPUT)
    } else if buf.len() == 32 && !buf.contains(&0) {
        let mut chunk = [0u8; 1 << 16];
        while (buf.len() as u64) < MAX_STREAM_TEXT {
            let room = (MAX_STREAM_TEXT - buf.len() as u64).min(chunk.len() as u64) as usize;
            let n = match reader.read(&mut chunk[..room]) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            buf.extend_from_slice(&chunk[..n]);
            if chunk[..n].contains(&0) {
                break;
            }
        }
        return Ok(buf);
    } else {
        return Ok(buf);
    };
    let have = buf.len() as u64;
    if want > have {
        reader.take(want - have).read_to_end(&mut buf)?;
    }
    Ok(buf)
}

/// The offset of `inner` within `outer` when `inner` is a sub-slice of it
/// (compared by address; an empty `inner` matches any address in range).
pub fn offset_within(outer: &[u8], inner: &[u8]) -> Option<u64> {
    let start = outer.as_ptr() as usize;
    let at = inner.as_ptr() as usize;
    let offset = at.checked_sub(start)?;
    let end = offset.checked_add(inner.len())?;
    (end <= outer.len()).then_some(offset as u64)
}

impl Deref for MappedFile {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.inner {
            Inner::Map(_, m, _) => m,
            Inner::Read(v, ..) | Inner::Owned(v) => v,
        }
    }
}

impl AsRef<[u8]> for MappedFile {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_within_by_address() {
        let outer = [0u8; 16];
        let cases: [(&[u8], Option<u64>); 5] = [
            (&outer[..], Some(0)),
            (&outer[3..9], Some(3)),
            (&outer[16..], Some(16)),
            (&outer[..0], Some(0)),
            (&[1u8, 2][..], None),
        ];
        for (i, (inner, want)) in cases.into_iter().enumerate() {
            assert_eq!(offset_within(&outer, inner), want, "case {i}");
        }
        // A slice that starts inside but runs past the end is not within.
        let big = [0u8; 32];
        assert_eq!(offset_within(&big[..16], &big[8..24]), None);
    }

    #[test]
    fn maps_large_files_and_reads_small_and_empty_ones() {
        let dir = tempfile_dir("kinds");
        let p = dir.join("a.bin");
        std::fs::write(&p, b"DXBC1234").unwrap();
        let m = MappedFile::open(&p).unwrap();
        assert!(!m.is_mapped());
        assert_eq!(&m[..], b"DXBC1234");
        assert!(m.file().is_none());
        assert_eq!(m.file_offset_of(&m[4..]), None);
        assert_eq!(m.metadata().map(|m| m.len()), Some(8));
        assert_eq!(m.changed(), None);
        // Above the read limit: mapped, with the file kept for kernel copies.
        let big: Vec<u8> = (0..READ_LIMIT + 5).map(|i| (i % 251) as u8).collect();
        let b = dir.join("big.bin");
        std::fs::write(&b, &big).unwrap();
        let m = MappedFile::open(&b).unwrap();
        assert!(m.is_mapped());
        assert_eq!(&m[..], &big[..]);
        assert!(m.file().is_some());
        assert_eq!(m.file_offset_of(&m[4..]), Some(4));
        assert_eq!(m.file_offset_of(&m[big.len()..]), Some(big.len() as u64));
        assert_eq!(m.file_offset_of(b"1234"), None);
        // A hint only: any sub-slice, empty or not, and foreign bytes are fine.
        m.populate(&m[2..]);
        m.populate(&m[big.len()..]);
        m.populate(b"elsewhere");
        let e = dir.join("empty.bin");
        std::fs::write(&e, b"").unwrap();
        let m = MappedFile::open(&e).unwrap();
        assert!(!m.is_mapped());
        assert!(m.is_empty());
        assert!(MappedFile::open(&dir.join("missing")).is_err());
        let r = MappedFile::from_reader(&b"xyz"[..]).unwrap();
        assert_eq!(&r[..], b"xyz");
        assert!(r.file().is_none());
        assert_eq!(r.file_offset_of(&r[1..]), None);
        assert_eq!(r.changed(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_small_file_that_changes_after_it_was_read_is_reported() {
        let dir = tempfile_dir("small-change");
        let p = dir.join("s.bin");
        std::fs::write(&p, vec![1u8; 5000]).unwrap();
        let m = MappedFile::open(&p).unwrap();
        assert_eq!(m.len(), 5000);
        assert_eq!(m.changed_while_read(), None);
        // Grown by another process: the bytes read stay, the length tells.
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        std::io::Write::write_all(&mut f, b"more").unwrap();
        assert_eq!(m[4999], 1);
        assert_eq!(
            m.changed(),
            Some(InputChange::Length {
                was: 5000,
                now: 5004
            })
        );
        assert_eq!(m.changed_while_read(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_short_read_is_a_truncation() {
        let dir = tempfile_dir("short");
        let p = dir.join("s.bin");
        std::fs::write(&p, vec![3u8; 100]).unwrap();
        let mut file = File::open(&p).unwrap();
        assert_eq!(
            read_exact_len(&mut file, 100).unwrap(),
            (vec![3u8; 100], false)
        );
        // The metadata said 200 bytes; the file has 100 by the time it is read.
        let mut file = File::open(&p).unwrap();
        let (bytes, short) = read_exact_len(&mut file, 200).unwrap();
        assert_eq!((bytes.len(), short), (100, true));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_truncated_map_reads_zeros_and_reports_the_change() {
        let dir = tempfile_dir("trunc");
        let p = dir.join("big.bin");
        let len = (READ_LIMIT as usize + (64 << 10)) & !4095;
        std::fs::write(&p, vec![0xA5u8; len]).unwrap();
        let m = MappedFile::open(&p).unwrap();
        assert!(m.is_mapped());
        assert_eq!(m.changed(), None);
        assert_eq!(m[len - 100], 0xA5);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(4096)
            .unwrap();
        // Without the guard this read would raise SIGBUS and end the test run.
        let tail: u32 = m[8192..].iter().map(|&b| u32::from(b)).sum();
        assert_eq!(tail, 0);
        assert_eq!(m[100], 0xA5);
        assert_eq!(m.changed_while_read(), Some(InputChange::Truncated));
        assert_eq!(m.changed(), Some(InputChange::Truncated));
        drop(m);
        // Only the length moved (no read past the end): still reported.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(len as u64)
            .unwrap();
        let m = MappedFile::open(&p).unwrap();
        assert!(m.is_mapped());
        std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(len as u64 + 8192)
            .unwrap();
        assert_eq!(
            m.changed(),
            Some(InputChange::Length {
                was: len as u64,
                now: len as u64 + 8192
            })
        );
        assert_eq!(m.changed_while_read(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempfile_dir(tag: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("dxcopy-mapped-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn streams_are_read_as_far_as_the_header_allows() {
        // Endless zeros: the 32-byte header only.
        let mut zeros = std::io::repeat(0);
        assert_eq!(read_bounded(&mut zeros).unwrap(), vec![0u8; 32]);
        // A container: FileSize bytes, the rest of the stream left unread.
        let mut head = b"DXBC".to_vec();
        head.extend_from_slice(&[0; 20]);
        head.extend_from_slice(&40u32.to_le_bytes());
        head.extend_from_slice(&0u32.to_le_bytes());
        let mut r = std::io::Cursor::new(head.clone()).chain(std::io::repeat(7));
        let got = read_bounded(&mut r).unwrap();
        assert_eq!(got.len(), 40);
        assert_eq!(&got[32..], &[7; 8]);
        // A container claiming more than the stream holds: what there is.
        let mut short = &head[..];
        assert_eq!(read_bounded(&mut short).unwrap().len(), 32);
        // Short input and empty input.
        assert_eq!(read_bounded(&mut &b"DX"[..]).unwrap(), b"DX");
        assert!(read_bounded(&mut &b""[..]).unwrap().is_empty());
        // A PDB: block size x block count.
        let mut msf = MSF_MAGIC.to_vec();
        msf.extend_from_slice(&512u32.to_le_bytes());
        msf.extend_from_slice(&1u32.to_le_bytes());
        msf.extend_from_slice(&3u32.to_le_bytes());
        let mut r = std::io::Cursor::new(msf).chain(std::io::repeat(1));
        assert_eq!(read_bounded(&mut r).unwrap().len(), 1536);
        // Text (a C header): to its end, to a NUL byte, or to the cap.
        let header = b"const BYTE g_main[] =\n{\n     68,  88\n};\n".repeat(3);
        assert_eq!(read_bounded(&mut &header[..]).unwrap(), header);
        let mut r = std::io::Cursor::new(header.clone()).chain(std::io::repeat(0));
        let got = read_bounded(&mut r).unwrap();
        assert!(got.starts_with(&header) && got.len() <= header.len() + (1 << 16));
        let mut endless = std::io::repeat(b'x');
        assert_eq!(
            read_bounded(&mut endless).unwrap().len() as u64,
            MAX_STREAM_TEXT
        );
    }
}
