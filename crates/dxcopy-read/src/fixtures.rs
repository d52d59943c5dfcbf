//! Builders of small, well-formed part data for tests: RDAT, an MSF (PDB)
//! file and SRCI. They are made by the project, not copied from any corpus.
//!
//! Compiled for this crate's own tests and, for other crates' tests, with the
//! `testutil` feature (enabled by their dev-dependencies); not part of the
//! library's API otherwise.

use crate::pdb::MSF_MAGIC;
use crate::rdat::{write_rdat, RdatPartType};
use crate::source_info::{
    ArgsHeader, Compression, ContentEntryHeader, ContentsHeader, NameEntryHeader, NamesHeader,
    SectionHeader, SectionType, SourceInfoHeader, CONTENT_ENTRY_SIZE, NAME_ENTRY_SIZE,
    SECTION_HEADER_SIZE, SOURCE_INFO_HEADER_SIZE,
};

/// RDAT part data (version 0x10) holding the given (part type, part data)
/// pairs in order, each after its 8-byte part header.
pub fn build_rdat(parts: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let parts: Vec<(RdatPartType, &[u8])> = parts
        .iter()
        .map(|(ty, data)| (RdatPartType::from_raw(*ty), data.as_slice()))
        .collect();
    write_rdat(&parts)
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
        v.resize(v.len().next_multiple_of(4), 0);
    }
    fn section(kind: u16, body: &[u8]) -> Vec<u8> {
        let mut v = SectionHeader {
            aligned_size: (SECTION_HEADER_SIZE + body.len() as u64).next_multiple_of(4) as u32,
            flags: 0,
            section_type: SectionType::from_raw(kind),
        }
        .to_bytes();
        v.extend_from_slice(body);
        pad(&mut v);
        v
    }
    let mut name_entries = Vec::new();
    let mut content_entries = Vec::new();
    for (name, text) in files {
        let start = name_entries.len();
        NameEntryHeader {
            aligned_size: (NAME_ENTRY_SIZE as usize + name.len() + 1).next_multiple_of(4) as u32,
            flags: 0,
            name_size: name.len() as u32 + 1,
            content_size: text.len() as u32 + 1,
        }
        .write_to(&mut name_entries);
        name_entries.extend_from_slice(name);
        name_entries.push(0);
        name_entries.resize(start + (name_entries.len() - start).next_multiple_of(4), 0);
        let start = content_entries.len();
        ContentEntryHeader {
            aligned_size: (CONTENT_ENTRY_SIZE as usize + text.len() + 1).next_multiple_of(4) as u32,
            flags: 0,
            content_size: text.len() as u32 + 1,
        }
        .write_to(&mut content_entries);
        content_entries.extend_from_slice(text);
        content_entries.push(0);
        content_entries.resize(
            start + (content_entries.len() - start).next_multiple_of(4),
            0,
        );
    }
    let mut names = NamesHeader {
        flags: 0,
        count: files.len() as u32,
        entries_size: name_entries.len() as u16,
    }
    .to_bytes();
    names.extend_from_slice(&name_entries);
    let stored = if zlib {
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut enc, &content_entries).expect("in-memory write");
        enc.finish().expect("in-memory write")
    } else {
        content_entries.clone()
    };
    // The contents header's size field is written as 0, as this fixture always did.
    let mut contents = ContentsHeader {
        aligned_size: 0,
        flags: 0,
        compression: Compression::from_raw(u16::from(zlib)),
        entries_size: stored.len() as u32,
        uncompressed_size: content_entries.len() as u32,
        count: files.len() as u32,
    }
    .to_bytes();
    contents.extend_from_slice(&stored);
    let mut arg_bytes = Vec::new();
    for (n, v) in args {
        arg_bytes.extend_from_slice(n);
        arg_bytes.push(0);
        arg_bytes.extend_from_slice(v);
        arg_bytes.push(0);
    }
    let mut arg_body = ArgsHeader {
        flags: 0,
        size: arg_bytes.len() as u32,
        count: args.len() as u32,
    }
    .to_bytes();
    arg_body.extend_from_slice(&arg_bytes);
    let mut sections = section(1, &names);
    sections.extend_from_slice(&section(0, &contents));
    sections.extend_from_slice(&section(2, &arg_body));
    let mut out = SourceInfoHeader {
        aligned_size: (SOURCE_INFO_HEADER_SIZE as usize + sections.len()) as u32,
        flags: 0,
        section_count: 3,
    }
    .to_bytes();
    out.extend_from_slice(&sections);
    out
}

/// An MSF 7.00 file of 512-byte blocks holding `streams` in order (stream
/// 0 first), each stored contiguously; `split` stores stream `split`'s
/// blocks in reverse order, so that it is not one run. Block 0 is the
/// superblock, 1 and 2 the free-block maps, 3 the directory's block map.
pub fn build_msf_streams(streams: &[Vec<u8>], split: Option<usize>) -> Vec<u8> {
    const BLOCK: usize = 512;
    let blocks_of = |len: usize| len.div_ceil(BLOCK);
    let mut next = 4usize;
    let mut lists = Vec::new();
    for (i, s) in streams.iter().enumerate() {
        let n = blocks_of(s.len());
        let mut list: Vec<usize> = (next..next + n).collect();
        if split == Some(i) {
            list.reverse();
        }
        next += n;
        lists.push(list);
    }
    let mut directory = (streams.len() as u32).to_le_bytes().to_vec();
    for s in streams {
        directory.extend_from_slice(&(s.len() as u32).to_le_bytes());
    }
    for list in &lists {
        for b in list {
            directory.extend_from_slice(&(*b as u32).to_le_bytes());
        }
    }
    let directory_blocks: Vec<usize> = (next..next + blocks_of(directory.len())).collect();
    let total = next + directory_blocks.len();
    let mut out = vec![0u8; total * BLOCK];
    out[..MSF_MAGIC.len()].copy_from_slice(MSF_MAGIC);
    for (i, w) in [BLOCK as u32, 1, total as u32, directory.len() as u32, 0, 3]
        .iter()
        .enumerate()
    {
        out[32 + 4 * i..36 + 4 * i].copy_from_slice(&w.to_le_bytes());
    }
    for (i, b) in directory_blocks.iter().enumerate() {
        out[3 * BLOCK + 4 * i..3 * BLOCK + 4 * i + 4].copy_from_slice(&(*b as u32).to_le_bytes());
    }
    let mut put = |list: &[usize], bytes: &[u8]| {
        for (chunk, b) in bytes.chunks(BLOCK).zip(list) {
            out[b * BLOCK..b * BLOCK + chunk.len()].copy_from_slice(chunk);
        }
    };
    for (list, s) in lists.iter().zip(streams) {
        put(list, s);
    }
    put(&directory_blocks, &directory);
    out
}

/// CodeView records for [`SpdbSpec`] (docs/format/dxbc-debug-notes.md).
pub mod codeview {
    fn record(kind: u16, body: &[u8]) -> Vec<u8> {
        let mut out = kind.to_le_bytes().to_vec();
        out.extend_from_slice(body);
        out
    }

    fn cstr(out: &mut Vec<u8>, text: &str) {
        out.extend_from_slice(text.as_bytes());
        out.push(0);
    }

    /// `S_LOCAL`: type, flags (0x1 parameter, 0x80 return value), name.
    pub fn local(ty: u32, flags: u16, name: &str) -> Vec<u8> {
        let mut b = ty.to_le_bytes().to_vec();
        b.extend_from_slice(&flags.to_le_bytes());
        cstr(&mut b, name);
        record(0x113e, &b)
    }

    /// `S_DEFRANGE_HLSL` with one register dimension and no gaps: register
    /// type, byte offset and size in the variable, code range, and the
    /// register offset (`index * 16 + component * 4`).
    pub fn defrange(
        register_type: u16,
        offset_in_parent: u16,
        size_in_parent: u16,
        start: u32,
        length: u16,
        register_offset: u32,
    ) -> Vec<u8> {
        defrange_with_gaps(
            register_type,
            (offset_in_parent, size_in_parent),
            (start, length),
            &[],
            register_offset,
        )
    }

    /// [`defrange`] with gaps: `(start from the range's start, length)`
    /// pairs where the register does not hold the variable.
    pub fn defrange_with_gaps(
        register_type: u16,
        (offset_in_parent, size_in_parent): (u16, u16),
        (start, length): (u32, u16),
        gaps: &[(u16, u16)],
        register_offset: u32,
    ) -> Vec<u8> {
        let mut b = register_type.to_le_bytes().to_vec();
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&offset_in_parent.to_le_bytes());
        b.extend_from_slice(&size_in_parent.to_le_bytes());
        b.extend_from_slice(&start.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&length.to_le_bytes());
        for (gap_start, gap_length) in gaps {
            b.extend_from_slice(&gap_start.to_le_bytes());
            b.extend_from_slice(&gap_length.to_le_bytes());
        }
        b.extend_from_slice(&register_offset.to_le_bytes());
        record(0x1150, &b)
    }

    /// `S_GPROC32` of a function at code offset `start`, `length` bytes.
    pub fn procedure(start: u32, length: u32, name: &str) -> Vec<u8> {
        let mut b = vec![0u8; 12];
        b.extend_from_slice(&length.to_le_bytes());
        b.extend_from_slice(&[0; 12]);
        b.extend_from_slice(&start.to_le_bytes());
        b.extend_from_slice(&[0; 3]);
        cstr(&mut b, name);
        record(0x1110, &b)
    }

    /// `S_INLINESITE` of `inlinee` with binary annotation bytes.
    pub fn inline_site(inlinee: u32, annotations: &[u8]) -> Vec<u8> {
        let mut b = vec![0u8; 8];
        b.extend_from_slice(&inlinee.to_le_bytes());
        b.extend_from_slice(annotations);
        while !(b.len() + 2).is_multiple_of(4) {
            b.push(0);
        }
        record(0x114d, &b)
    }

    /// `S_INLINESITE_END`.
    pub fn inline_site_end() -> Vec<u8> {
        record(0x114e, &[])
    }

    /// `LF_STRUCTURE` over field list `fields`, `size` bytes.
    pub fn structure(fields: u32, size: u16, name: &str) -> Vec<u8> {
        let mut b = 1u16.to_le_bytes().to_vec();
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&fields.to_le_bytes());
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&size.to_le_bytes());
        cstr(&mut b, name);
        record(0x1505, &b)
    }

    /// `LF_FIELDLIST` of `LF_MEMBER`s (type, byte offset, name), padded
    /// with `LF_PAD` bytes as MSVC pads them.
    pub fn field_list(members: &[(u32, u16, &str)]) -> Vec<u8> {
        let mut b = Vec::new();
        for (ty, offset, name) in members {
            b.extend_from_slice(&0x150du16.to_le_bytes());
            b.extend_from_slice(&3u16.to_le_bytes());
            b.extend_from_slice(&ty.to_le_bytes());
            b.extend_from_slice(&offset.to_le_bytes());
            cstr(&mut b, name);
            let pad = (4 - (b.len() + 2) % 4) % 4;
            for i in (1..=pad).rev() {
                b.push(0xf0 | i as u8);
            }
        }
        record(0x1203, &b)
    }

    /// `LF_VECTOR` of `count` elements of `element`.
    pub fn vector(element: u32, count: u32, size: u16, name: &str) -> Vec<u8> {
        let mut b = element.to_le_bytes().to_vec();
        b.extend_from_slice(&count.to_le_bytes());
        b.extend_from_slice(&size.to_le_bytes());
        cstr(&mut b, name);
        record(0x151b, &b)
    }

    /// `LF_ARRAY` of `element`, `size` bytes.
    pub fn array(element: u32, size: u16) -> Vec<u8> {
        let mut b = element.to_le_bytes().to_vec();
        b.extend_from_slice(&0x75u32.to_le_bytes());
        b.extend_from_slice(&size.to_le_bytes());
        cstr(&mut b, "");
        record(0x1503, &b)
    }

    /// `LF_MATRIX` of `rows` × `cols` floats.
    pub fn matrix(rows: u32, cols: u32, row_major: bool, size: u16, name: &str) -> Vec<u8> {
        let mut b = 0x40u32.to_le_bytes().to_vec();
        b.extend_from_slice(&rows.to_le_bytes());
        b.extend_from_slice(&cols.to_le_bytes());
        b.extend_from_slice(&16u32.to_le_bytes());
        b.push(u8::from(row_major));
        b.extend_from_slice(&size.to_le_bytes());
        cstr(&mut b, name);
        record(0x151c, &b)
    }
}

/// What [`build_spdb`] puts in an fxc-style SPDB.
#[derive(Debug, Default, Clone)]
pub struct SpdbSpec {
    /// Source file names, one checksum entry each (MD5 length 16).
    pub files: Vec<String>,
    /// Line entries: (code byte offset, file index, line), statements.
    pub lines: Vec<(u32, u32, u32)>,
    /// Expression line entries (fStatement clear), written after the
    /// statement entry of their offset as fxc writes them.
    pub expression_lines: Vec<(u32, u32, u32)>,
    /// Type records (kind + body, see [`codeview`]), indices from 0x1000.
    pub types: Vec<Vec<u8>>,
    /// Symbol records (kind + body) of the one module.
    pub symbols: Vec<Vec<u8>>,
    /// Inlinee lines: (inlinee id, file index, base line).
    pub inlinees: Vec<(u32, u32, u32)>,
    /// Store the module stream's blocks out of order.
    pub split_module: bool,
}

/// An SPDB part's data as fxc lays one out: streams 0 (old directory),
/// 1 (info with the `/names` entry of the name map), 2 (TPI), 3 (DBI with
/// one module), 4 (IPI, empty), 5 (`/names`), 6 (the module's symbols and
/// C13 lines).
pub fn build_spdb(spec: &SpdbSpec) -> Vec<u8> {
    fn u32s(out: &mut Vec<u8>, words: &[u32]) {
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    fn with_length(rec: &[u8]) -> Vec<u8> {
        let mut out = (rec.len() as u16).to_le_bytes().to_vec();
        out.extend_from_slice(rec);
        out
    }
    // /names: magic, version, size, strings (offset 0 is the empty string).
    let mut strings = vec![0u8];
    let mut name_offsets = Vec::new();
    for f in &spec.files {
        name_offsets.push(strings.len() as u32);
        strings.extend_from_slice(f.as_bytes());
        strings.push(0);
    }
    let mut names = Vec::new();
    u32s(&mut names, &[0xeffe_effe, 1, strings.len() as u32]);
    names.extend_from_slice(&strings);
    u32s(&mut names, &[0, 0]);
    // Info stream: VC70 head, the name map {"/names" -> 5}.
    let mut info = Vec::new();
    u32s(&mut info, &[20_000_404, 0, 1, 0, 0, 0, 0]);
    let map_strings = b"/names\0";
    u32s(&mut info, &[map_strings.len() as u32]);
    info.extend_from_slice(map_strings);
    u32s(&mut info, &[1, 2, 1, 0b01, 0, 0, 5, 0]);
    // TPI.
    let mut records = Vec::new();
    for t in &spec.types {
        records.extend_from_slice(&with_length(t));
    }
    let mut tpi = Vec::new();
    u32s(
        &mut tpi,
        &[
            20_040_203,
            56,
            0x1000,
            0x1000 + spec.types.len() as u32,
            records.len() as u32,
        ],
    );
    tpi.resize(56, 0);
    tpi.extend_from_slice(&records);
    // Module stream: signature 4, symbols, C13 subsections.
    let mut module = 4u32.to_le_bytes().to_vec();
    for s in &spec.symbols {
        module.extend_from_slice(&with_length(s));
    }
    let symbols_len = module.len() as u32;
    let mut c13 = Vec::new();
    let mut sub = |kind: u32, body: &[u8]| {
        u32s(&mut c13, &[kind, body.len() as u32]);
        c13.extend_from_slice(body);
        while !c13.len().is_multiple_of(4) {
            c13.push(0);
        }
    };
    let mut checksums = Vec::new();
    let mut checksum_at = Vec::new();
    for offset in &name_offsets {
        checksum_at.push(checksums.len() as u32);
        u32s(&mut checksums, &[*offset]);
        checksums.extend_from_slice(&[16, 1]);
        checksums.extend_from_slice(&[0xab; 16]);
        while !checksums.len().is_multiple_of(4) {
            checksums.push(0);
        }
    }
    sub(0xf4, &checksums);
    let mut lines = Vec::new();
    u32s(&mut lines, &[0]);
    lines.extend_from_slice(&[0, 0, 0, 0]);
    u32s(&mut lines, &[0]);
    for (file, at) in checksum_at.iter().enumerate() {
        let mut entries: Vec<(u32, u32, bool)> = spec
            .lines
            .iter()
            .map(|l| (l, true))
            .chain(spec.expression_lines.iter().map(|l| (l, false)))
            .filter(|(l, _)| l.1 as usize == file)
            .map(|(l, statement)| (l.0, l.2, statement))
            .collect();
        if entries.is_empty() {
            continue;
        }
        // By offset, the statement first (a stable sort keeps the order).
        entries.sort_by_key(|e| (e.0, !e.2));
        u32s(
            &mut lines,
            &[*at, entries.len() as u32, 12 + 8 * entries.len() as u32],
        );
        for (offset, line, statement) in entries {
            let flag = if statement { 0x8000_0000 } else { 0 };
            u32s(&mut lines, &[offset, line | flag]);
        }
    }
    sub(0xf2, &lines);
    if !spec.inlinees.is_empty() {
        let mut inl = 0u32.to_le_bytes().to_vec();
        for (id, file, line) in &spec.inlinees {
            let at = checksum_at.get(*file as usize).copied().unwrap_or(u32::MAX);
            u32s(&mut inl, &[*id, at, *line]);
        }
        sub(0xf6, &inl);
    }
    let c13_len = c13.len() as u32;
    module.extend_from_slice(&c13);
    // DBI: header, one module-info record.
    let mut modi = vec![0u8; 64];
    modi[34..36].copy_from_slice(&6u16.to_le_bytes());
    modi[36..40].copy_from_slice(&symbols_len.to_le_bytes());
    modi[44..48].copy_from_slice(&c13_len.to_le_bytes());
    modi.extend_from_slice(b"shader\0shader\0");
    while !modi.len().is_multiple_of(4) {
        modi.push(0);
    }
    let mut dbi = Vec::new();
    u32s(
        &mut dbi,
        &[u32::MAX, 19_990_903, 1, 0, 0, 0, modi.len() as u32],
    );
    dbi.resize(64, 0);
    dbi.extend_from_slice(&modi);
    let streams = vec![Vec::new(), info, tpi, dbi, Vec::new(), names, module];
    build_msf_streams(&streams, spec.split_module.then_some(6))
}
