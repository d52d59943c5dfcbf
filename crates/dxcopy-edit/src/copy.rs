//! Copying byte ranges of an input file to an output file without passing
//! them through this process: `copy_file_range` on Linux (the page cache
//! copies file to file, as `cp` does), and a plain write from memory
//! elsewhere or when the kernel declines (different file systems, an output
//! opened for appending, a file system without support).

use dxcopy_read::MappedFile;
use std::fs::File;
use std::io::{self, Write};

/// Ranges shorter than this are written from memory: one buffered write costs
/// less than a system call of its own.
pub const KERNEL_COPY_MIN: usize = 64 << 10;

/// Copies `bytes`, which are the `bytes.len()` bytes of `input` at `offset`,
/// to the current position of `out`, in the kernel where possible; whatever
/// the kernel does not copy is written from `bytes`.
pub fn copy_range(input: &File, offset: u64, bytes: &[u8], out: &File) -> io::Result<()> {
    let copied = kernel_copy(input, offset, bytes.len(), out)?;
    (&*out).write_all(&bytes[copied..])
}

/// Writes `bytes`, a slice of `input`'s mapping or any other bytes, to the
/// current position of `out`: in the kernel when they lie in the mapped file,
/// from memory otherwise.
pub fn write_from_input(input: &MappedFile, bytes: &[u8], out: &File) -> io::Result<()> {
    match (input.file(), input.file_offset_of(bytes)) {
        (Some(file), Some(offset)) => copy_range(file, offset, bytes, out),
        _ => (&*out).write_all(bytes),
    }
}

/// Copies up to `len` bytes in the kernel; returns how many it copied (fewer
/// when the kernel declines or the input ends early).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn kernel_copy(input: &File, offset: u64, len: usize, out: &File) -> io::Result<usize> {
    use rustix::io::Errno;
    let mut in_offset = offset;
    let mut copied = 0;
    while copied < len {
        // One call copies at most about 2 GiB; ask for 1 GiB at a time.
        let chunk = (len - copied).min(1 << 30);
        match rustix::fs::copy_file_range(input, Some(&mut in_offset), out, None, chunk) {
            Ok(0) => break,
            Ok(n) => copied += n,
            Err(Errno::INTR) => {}
            // Not possible for this pair of files: write the rest from memory.
            Err(
                Errno::XDEV
                | Errno::INVAL
                | Errno::NOSYS
                | Errno::OPNOTSUPP
                | Errno::BADF
                | Errno::PERM
                | Errno::TXTBSY,
            ) => break,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(copied)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn kernel_copy(_input: &File, _offset: u64, _len: usize, _out: &File) -> io::Result<usize> {
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, SeekFrom};

    fn read_back(mut f: &File) -> Vec<u8> {
        f.seek(SeekFrom::Start(0)).unwrap();
        let mut v = Vec::new();
        f.read_to_end(&mut v).unwrap();
        v
    }

    #[test]
    fn copies_ranges_at_the_output_position() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("in.bin");
        let data: Vec<u8> = (0..300_000u32).map(|i| (i * 13 + 7) as u8).collect();
        std::fs::write(&src, &data).unwrap();
        let input = MappedFile::open(&src).unwrap();
        // (offset, len): empty, small, large, unaligned, up to the end.
        let cases = [
            (0, 0),
            (5, 17),
            (0, 200_000),
            (4097, 150_001),
            (100, data.len() - 100),
        ];
        for (offset, len) in cases {
            let out = tempfile::tempfile().unwrap();
            (&out).write_all(b"head").unwrap();
            write_from_input(&input, &input[offset..offset + len], &out).unwrap();
            (&out).write_all(b"tail").unwrap();
            let mut want = b"head".to_vec();
            want.extend_from_slice(&data[offset..offset + len]);
            want.extend_from_slice(b"tail");
            assert_eq!(read_back(&out), want, "offset {offset} len {len}");
        }
        // Bytes not in the mapping are written from memory.
        let out = tempfile::tempfile().unwrap();
        write_from_input(&input, b"elsewhere", &out).unwrap();
        assert_eq!(read_back(&out), b"elsewhere");
    }

    #[test]
    fn an_appending_output_falls_back_to_memory() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("in.bin");
        let data = vec![0xA5u8; 100_000];
        std::fs::write(&src, &data).unwrap();
        let input = File::open(&src).unwrap();
        let dst = dir.path().join("out.bin");
        std::fs::write(&dst, b"x").unwrap();
        // copy_file_range refuses O_APPEND outputs (EBADF): the copy still succeeds.
        let out = std::fs::OpenOptions::new().append(true).open(&dst).unwrap();
        copy_range(&input, 10, &data[10..], &out).unwrap();
        let got = std::fs::read(&dst).unwrap();
        assert_eq!(got.len(), 1 + data.len() - 10);
        assert_eq!(got[0], b'x');
    }
}
