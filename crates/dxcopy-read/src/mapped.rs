//! Opening inputs: memory-map regular files, read everything else (stdin, pipes).

use std::fs::File;
use std::io::{self, Read};
use std::ops::Deref;
use std::path::Path;

/// The bytes of an input file: a read-only memory map for regular files, an
/// owned buffer for stdin, pipes, character devices and empty files.
///
/// A mapped file must not be truncated by another process while it is in use;
/// dxcopy never writes to an input in place (edits go to a temp file that is
/// renamed over it), so its own edits are safe.
pub struct MappedFile {
    inner: Inner,
}

enum Inner {
    /// The map and the file it maps, kept open so writers can copy byte
    /// ranges of it in the kernel (copy_file_range) instead of through memory.
    Map(memmap2::Mmap, File),
    Owned(Vec<u8>),
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

    /// Maps an open file (reads it when it is not a non-empty regular file).
    pub fn from_file(mut file: File) -> io::Result<MappedFile> {
        let meta = file.metadata()?;
        if meta.is_file() && meta.len() > 0 {
            #[allow(unsafe_code)]
            // SAFETY: `Mmap::map` makes a read-only *shared* mapping
            // (PROT_READ, MAP_SHARED): nothing here can write through it, and
            // this type only ever hands out `&[u8]`, never `&mut`, so no
            // aliasing rule is broken by this process. Because the mapping is
            // shared, a change another process makes to the file shows
            // through it, and a truncation turns reads past the new end into
            // SIGBUS; nothing here detects either. Soundness therefore rests
            // on the file not being modified while it is mapped: the tools
            // never write an input in place (edits go to a temporary file
            // renamed over it, which leaves the mapped inode untouched), and
            // the type's docs state the requirement for everyone else.
            let map = unsafe { memmap2::Mmap::map(&file) };
            if let Ok(map) = map {
                return Ok(MappedFile {
                    inner: Inner::Map(map, file),
                });
            }
        }
        let mut buf = Vec::new();
        file.read_to_end(&mut buf)?;
        Ok(MappedFile::from_vec(buf))
    }

    /// Reads everything from `reader`.
    pub fn from_reader(mut reader: impl Read) -> io::Result<MappedFile> {
        let mut buf = Vec::new();
        reader.read_to_end(&mut buf)?;
        Ok(MappedFile::from_vec(buf))
    }

    /// Wraps bytes already in memory.
    pub fn from_vec(buf: Vec<u8>) -> MappedFile {
        MappedFile {
            inner: Inner::Owned(buf),
        }
    }

    /// Whether the bytes come from a memory map.
    pub fn is_mapped(&self) -> bool {
        matches!(self.inner, Inner::Map(..))
    }

    /// The open file behind a memory map (`None` for bytes read into memory).
    pub fn file(&self) -> Option<&File> {
        match &self.inner {
            Inner::Map(_, file) => Some(file),
            Inner::Owned(_) => None,
        }
    }

    /// Maps the pages of `bytes`, a sub-slice of this mapping, into the
    /// process ahead of one sequential read of them (`MADV_POPULATE_READ` on
    /// Linux 5.14+: one call instead of a page fault per few pages). Pages
    /// come from the page cache, so they count as resident file pages, not
    /// heap. Does nothing for other bytes, other systems or older kernels.
    pub fn populate(&self, bytes: &[u8]) {
        #[cfg(target_os = "linux")]
        if let (Inner::Map(map, _), Some(offset)) = (&self.inner, offset_within(self, bytes)) {
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
            Inner::Map(m, _) => m,
            Inner::Owned(v) => v,
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
    fn maps_regular_files_and_reads_empty_ones() {
        let dir = std::env::temp_dir().join(format!("dxcopy-mapped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.bin");
        std::fs::write(&p, b"DXBC1234").unwrap();
        let m = MappedFile::open(&p).unwrap();
        assert!(m.is_mapped());
        assert_eq!(&m[..], b"DXBC1234");
        assert!(m.file().is_some());
        assert_eq!(m.file_offset_of(&m[4..]), Some(4));
        assert_eq!(m.file_offset_of(&m[8..]), Some(8));
        assert_eq!(m.file_offset_of(b"1234"), None);
        // A hint only: any sub-slice, empty or not, and foreign bytes are fine.
        m.populate(&m[2..]);
        m.populate(&m[8..]);
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
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
