//! Copying byte ranges of an input file to an output file without an
//! intermediate buffer.
//!
//! Two ways, chosen by measurement (Linux 6.x, ext4; see docs/bench.md):
//! - `copy_file_range`, the page cache copying file to file as `cp` does,
//!   when the range keeps its position within a page (source and
//!   destination offsets equal modulo the page size). Elsewhere the kernel
//!   splits every page in two and this costs about 15% more CPU than
//! - writing from the input's memory map after mapping the range's pages in
//!   one call ([`MappedFile::populate`]): one copy, page cache to page cache,
//!   no page faults. This is also the fallback where the kernel declines a
//!   copy (other systems, different file systems, an output opened for
//!   appending).

use dxcopy_read::MappedFile;
use std::fs::File;
use std::io::{self, Seek, Write};

/// Ranges shorter than this are written from memory: one buffered write costs
/// less than a system call of its own.
pub const KERNEL_COPY_MIN: usize = 64 << 10;

/// Page size for the alignment test (a wrong guess only costs speed).
const PAGE: u64 = 4096;

/// Writes from a mapping go out in pieces of this size.
const WRITE_CHUNK: usize = 1 << 20;

/// Writes `bytes`, a slice of `input`'s mapping or any other bytes, to the
/// current position of `out`, by the cheaper of a kernel copy and a write
/// from the mapping (see the module docs).
pub fn write_from_input(input: &MappedFile, bytes: &[u8], out: &File) -> io::Result<()> {
    let position = (&*out).stream_position()?;
    write_run(input, bytes, out, position)
}

/// [`write_from_input`] when the caller knows `out`'s current position.
pub(crate) fn write_run(
    input: &MappedFile,
    bytes: &[u8],
    out: &File,
    position: u64,
) -> io::Result<()> {
    let located = input.file().zip(input.file_offset_of(bytes));
    let Some((file, offset)) = located.filter(|_| bytes.len() >= KERNEL_COPY_MIN) else {
        return (&*out).write_all(bytes);
    };
    let copied = if offset % PAGE == position % PAGE {
        kernel_copy(file, offset, bytes.len(), out)?
    } else {
        0
    };
    let rest = &bytes[copied..];
    input.populate(rest);
    for chunk in rest.chunks(WRITE_CHUNK) {
        (&*out).write_all(chunk)?;
    }
    Ok(())
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
        // (offset, len) after 4 bytes of output: empty, small; large in the
        // same page position (kernel copy) and in others (from the mapping);
        // up to the end.
        let cases = [
            (0, 0),
            (5, 17),
            (4, 200_000),
            (8196, 150_001),
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
        let dst = dir.path().join("out.bin");
        std::fs::write(&dst, b"x").unwrap();
        // copy_file_range refuses O_APPEND outputs (EBADF): the copy still succeeds.
        let out = std::fs::OpenOptions::new().append(true).open(&dst).unwrap();
        let mapped = MappedFile::open(&src).unwrap();
        write_run(&mapped, &mapped[4097..], &out, 1).unwrap();
        let got = std::fs::read(&dst).unwrap();
        assert_eq!(got.len(), 1 + data.len() - 4097);
        assert_eq!(got[0], b'x');
    }
}
