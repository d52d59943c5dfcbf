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
    Map(memmap2::Mmap),
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
            // SAFETY: the map is read-only and private to this process; the
            // tools never modify an input in place (see the type's docs).
            let map = unsafe { memmap2::Mmap::map(&file) };
            if let Ok(map) = map {
                return Ok(MappedFile {
                    inner: Inner::Map(map),
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
        matches!(self.inner, Inner::Map(_))
    }
}

impl Deref for MappedFile {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.inner {
            Inner::Map(m) => m,
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
    fn maps_regular_files_and_reads_empty_ones() {
        let dir = std::env::temp_dir().join(format!("dxcopy-mapped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.bin");
        std::fs::write(&p, b"DXBC1234").unwrap();
        let m = MappedFile::open(&p).unwrap();
        assert!(m.is_mapped());
        assert_eq!(&m[..], b"DXBC1234");
        let e = dir.join("empty.bin");
        std::fs::write(&e, b"").unwrap();
        let m = MappedFile::open(&e).unwrap();
        assert!(!m.is_mapped());
        assert!(m.is_empty());
        assert!(MappedFile::open(&dir.join("missing")).is_err());
        let r = MappedFile::from_reader(&b"xyz"[..]).unwrap();
        assert_eq!(&r[..], b"xyz");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
