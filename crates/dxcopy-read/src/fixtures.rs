//! Builders of small, well-formed part data for tests: RDAT, an MSF (PDB)
//! file and SRCI. They are made by the project, not copied from any corpus.
//!
//! Compiled for this crate's own tests and, for other crates' tests, with the
//! `testutil` feature (enabled by their dev-dependencies); not part of the
//! library's API otherwise.

use crate::pdb::MSF_MAGIC;
use crate::rdat::RDAT_VERSION_10;
use crate::source_info::{
    CONTENT_ENTRY_SIZE, NAME_ENTRY_SIZE, SECTION_HEADER_SIZE, SOURCE_INFO_HEADER_SIZE,
};

/// RDAT part data (version 0x10) holding the given (part type, part data)
/// pairs in order, each after its 8-byte part header.
pub fn build_rdat(parts: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut out = RDAT_VERSION_10.to_le_bytes().to_vec();
    out.extend_from_slice(&(parts.len() as u32).to_le_bytes());
    let mut at = 8 + 4 * parts.len();
    for (_, data) in parts {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += 8 + data.len();
    }
    for (ty, data) in parts {
        out.extend_from_slice(&ty.to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
    }
    out
}

/// An MSF file of `blocks` blocks of `block_size` bytes whose
/// superblock stores `num_blocks`. With at least 6 blocks it is a readable
/// PDB: block map in block 3, directory (streams 0 and 1) in block 4, the
/// 28-byte info stream (VC70, GUID 00 01 … 0f) in block 5.
pub fn build_msf(block_size: u32, blocks: u32, num_blocks: u32) -> Vec<u8> {
    let size = block_size as usize;
    let mut out = vec![0u8; size * (blocks as usize)];
    let mut put = |at: usize, words: &[u32]| {
        for (i, w) in words.iter().enumerate() {
            let o = at + 4 * i;
            if let Some(dst) = out.get_mut(o..o + 4) {
                dst.copy_from_slice(&w.to_le_bytes());
            }
        }
    };
    put(32, &[block_size, 1, num_blocks, 16, 0, 3]);
    if blocks >= 6 {
        put(3 * size, &[4]);
        put(4 * size, &[2, 0, 28, 5]);
        put(
            5 * size,
            &[
                20_000_404,
                0,
                1,
                0x0302_0100,
                0x0706_0504,
                0x0b0a_0908,
                0x0f0e_0d0c,
            ],
        );
    }
    let n = MSF_MAGIC.len().min(out.len());
    out[..n].copy_from_slice(&MSF_MAGIC[..n]);
    out
}

/// SRCI part data from (file name, text) pairs and
/// argument pairs, compressing the contents with zlib when `zlib` is set.
pub fn build_source_info(files: &[(&[u8], &[u8])], args: &[(&[u8], &[u8])], zlib: bool) -> Vec<u8> {
    fn pad(v: &mut Vec<u8>) {
        while !v.len().is_multiple_of(4) {
            v.push(0);
        }
    }
    fn section(kind: u16, body: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        let size = (SECTION_HEADER_SIZE + body.len() as u64).next_multiple_of(4) as u32;
        v.extend_from_slice(&size.to_le_bytes());
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&kind.to_le_bytes());
        v.extend_from_slice(body);
        pad(&mut v);
        v
    }
    let mut name_entries = Vec::new();
    let mut content_entries = Vec::new();
    for (name, text) in files {
        let mut e = Vec::new();
        let len = (NAME_ENTRY_SIZE as usize + name.len() + 1).div_ceil(4) * 4;
        e.extend_from_slice(&(len as u32).to_le_bytes());
        e.extend_from_slice(&0u32.to_le_bytes());
        e.extend_from_slice(&(name.len() as u32 + 1).to_le_bytes());
        e.extend_from_slice(&(text.len() as u32 + 1).to_le_bytes());
        e.extend_from_slice(name);
        e.push(0);
        pad(&mut e);
        name_entries.extend_from_slice(&e);
        let mut t = Vec::new();
        let len = (CONTENT_ENTRY_SIZE as usize + text.len() + 1).div_ceil(4) * 4;
        t.extend_from_slice(&(len as u32).to_le_bytes());
        t.extend_from_slice(&0u32.to_le_bytes());
        t.extend_from_slice(&(text.len() as u32 + 1).to_le_bytes());
        t.extend_from_slice(text);
        t.push(0);
        pad(&mut t);
        content_entries.extend_from_slice(&t);
    }
    let mut names = Vec::new();
    names.extend_from_slice(&0u32.to_le_bytes());
    names.extend_from_slice(&(files.len() as u32).to_le_bytes());
    names.extend_from_slice(&(name_entries.len() as u16).to_le_bytes());
    names.extend_from_slice(&name_entries);
    let stored = if zlib {
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut enc, &content_entries).expect("in-memory write");
        enc.finish().expect("in-memory write")
    } else {
        content_entries.clone()
    };
    let mut contents = Vec::new();
    contents.extend_from_slice(&0u32.to_le_bytes());
    contents.extend_from_slice(&0u16.to_le_bytes());
    contents.extend_from_slice(&u16::from(zlib).to_le_bytes());
    contents.extend_from_slice(&(stored.len() as u32).to_le_bytes());
    contents.extend_from_slice(&(content_entries.len() as u32).to_le_bytes());
    contents.extend_from_slice(&(files.len() as u32).to_le_bytes());
    contents.extend_from_slice(&stored);
    let mut arg_bytes = Vec::new();
    for (n, v) in args {
        arg_bytes.extend_from_slice(n);
        arg_bytes.push(0);
        arg_bytes.extend_from_slice(v);
        arg_bytes.push(0);
    }
    let mut arg_body = Vec::new();
    arg_body.extend_from_slice(&0u32.to_le_bytes());
    arg_body.extend_from_slice(&(arg_bytes.len() as u32).to_le_bytes());
    arg_body.extend_from_slice(&(args.len() as u32).to_le_bytes());
    arg_body.extend_from_slice(&arg_bytes);
    let mut sections = section(1, &names);
    sections.extend_from_slice(&section(0, &contents));
    sections.extend_from_slice(&section(2, &arg_body));
    let mut out = Vec::new();
    out.extend_from_slice(
        &((SOURCE_INFO_HEADER_SIZE as usize + sections.len()) as u32).to_le_bytes(),
    );
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&3u16.to_le_bytes());
    out.extend_from_slice(&sections);
    out
}
