//! The listing notes from an `SPDB` part: a whole MSF 7.00 PDB as fxc
//! writes it for `/Zi` (docs/format/dxbc-debug-notes.md §SPDB).
//!
//! What is read, in order: the named-stream map of the info stream (1) for
//! `/names`; the string table there; the type stream (2) for the struct,
//! array, vector and matrix records that turn a byte offset inside a
//! variable into a member path; the DBI stream (3) for the module list;
//! each module stream's CodeView symbols (`S_LOCAL`, `S_DEFRANGE_HLSL`,
//! `S_INLINESITE`) and its C13 subsections (file checksums, lines, inlinee
//! lines). The MSF layer is the crate's [`Pdb`] reader.

use super::{
    name_budget, CodeKey, DebugInfoError, DebugNotes, LineNote, NoteRegister, VariableLocation,
    COMPONENTS, MAX_TYPE_DEPTH,
};
use crate::cursor::Cursor;
use crate::error::ReadError;
use crate::name::PartName;
use crate::pdb::{Pdb, INFO_HEAD_SIZE, INFO_STREAM};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

const PART: PartName = PartName(*b"SPDB");
const TYPE_STREAM: u32 = 2;
const DBI_STREAM: u32 = 3;

// Type record kinds (LLVM CodeViewTypes.def; cvinfo.h for the HLSL ones).
const LF_MODIFIER: u16 = 0x1001;
const LF_FIELDLIST: u16 = 0x1203;
const LF_ARRAY: u16 = 0x1503;
const LF_CLASS: u16 = 0x1504;
const LF_STRUCTURE: u16 = 0x1505;
const LF_ALIAS: u16 = 0x150a;
const LF_MEMBER: u16 = 0x150d;
const LF_STRIDED_ARRAY: u16 = 0x1516;
const LF_MODIFIER_EX: u16 = 0x1518;
const LF_INTERFACE: u16 = 0x1519;
const LF_VECTOR: u16 = 0x151b;
const LF_MATRIX: u16 = 0x151c;

// Symbol record kinds (LLVM CodeViewSymbols.def).
const S_LOCAL: u16 = 0x113e;
const S_DEFRANGE_HLSL: u16 = 0x1150;
const S_INLINESITE: u16 = 0x114d;
/// Procedure symbols (`S_LPROC32`, `S_GPROC32`, and their `_ID` forms):
/// the code offset of the function, from which an inline site's binary
/// annotations count.
const PROCEDURES: [u16; 4] = [0x110f, 0x1110, 0x1146, 0x1147];
/// A line entry's `fStatement` bit.
const STATEMENT: u32 = 0x8000_0000;

// C13 subsection kinds.
const DEBUG_S_LINES: u32 = 0xf2;
const DEBUG_S_FILECHKSMS: u32 = 0xf4;
const DEBUG_S_INLINEELINES: u32 = 0xf6;

/// Operand types whose defranges the listing does not print: indexable
/// temporaries (`x#[]`, addressed by array element) and streams.
const SKIPPED_REGISTERS: [u16; 2] = [3, 16];

/// Decodes the SPDB data `data` (absolute file offset `base`) into notes.
pub fn decode(data: &[u8], base: u64) -> Result<DebugNotes, DebugInfoError> {
    let pdb = Pdb::parse(data).map_err(|e| DebugInfoError::Read {
        part: PART,
        stream: None,
        source: ReadError::new(base.saturating_add(e.offset), e.kind),
    })?;
    let msf = Msf { pdb, base };
    let notes = DebugNotes {
        part: PART,
        key: CodeKey::ByteOffset,
        files: Vec::new(),
        lines: BTreeMap::new(),
        locations: Vec::new(),
    };
    // A PDB without the DBI stream has no modules and so no notes.
    if msf.pdb.stream_size(DBI_STREAM).is_none_or(|size| size == 0) {
        return Ok(notes);
    }
    let names_stream = msf.named_stream(b"/names")?;
    let names = match names_stream {
        Some(index) => Some(msf.stream(index)?),
        None => None,
    };
    let names = names.as_ref().map(|s| s.cursor());
    let types = match msf.stream(TYPE_STREAM) {
        Ok(s) => Types::parse(&s)?,
        Err(_) => Types::default(),
    };
    let dbi = msf.stream(DBI_STREAM)?;
    let modules = modules(&dbi)?;
    let mut decoder = Decoder {
        notes,
        types: &types,
        budget: name_budget(data.len()),
        limit: name_budget(data.len()),
    };
    for module in modules {
        if module.stream == u16::MAX {
            continue;
        }
        let stream = msf.stream(u32::from(module.stream))?;
        decoder.module(&stream, &module, names.as_ref())?;
    }
    Ok(decoder.notes)
}

/// The PDB and where its data lies in the file.
struct Msf<'data> {
    pdb: Pdb<'data>,
    base: u64,
}

/// One stream's bytes and how errors inside it are placed.
struct Stream<'data> {
    bytes: Cow<'data, [u8]>,
    index: u32,
    base: u64,
}

impl Stream<'_> {
    fn cursor(&self) -> Cursor<'_> {
        Cursor::new(&self.bytes, self.base)
    }

    fn read_error(&self) -> impl Fn(ReadError) -> DebugInfoError + '_ {
        move |source| DebugInfoError::Read {
            part: PART,
            stream: Some(self.index),
            source,
        }
    }

    /// An [`DebugInfoError::Invalid`] at `offset`, placed as the stream's
    /// cursors place it (their `abs`).
    fn invalid(&self, offset: u64, what: &'static str) -> DebugInfoError {
        DebugInfoError::Invalid {
            part: PART,
            stream: Some(self.index),
            offset,
            what,
        }
    }
}

impl<'data> Msf<'data> {
    fn stream(&self, index: u32) -> Result<Stream<'data>, DebugInfoError> {
        let bytes = self.pdb.stream(index).ok_or(DebugInfoError::Invalid {
            part: PART,
            stream: Some(index),
            offset: self.base,
            what: "the MSF has no such stream",
        })?;
        // Offsets inside a stream stored in one run are file offsets; others
        // count from the stream's start.
        let base = if self.pdb.is_contiguous(index) {
            self.pdb
                .stream_offset(index)
                .map_or(0, |o| self.base.saturating_add(o))
        } else {
            0
        };
        Ok(Stream { bytes, index, base })
    }

    /// The stream that the info stream's name map gives `name`.
    // docs/format/dxbc-debug-notes.md §SPDB: the named-stream map.
    fn named_stream(&self, name: &[u8]) -> Result<Option<u32>, DebugInfoError> {
        let info = self.stream(INFO_STREAM)?;
        // An info stream of the fixed head alone has no name map.
        if info.bytes.len() as u64 <= INFO_HEAD_SIZE {
            return Ok(None);
        }
        let c = info.cursor();
        let err = info.read_error();
        let mut pos = INFO_HEAD_SIZE;
        let string_bytes = c
            .take_u32(&mut pos, "named-stream strings size")
            .map_err(&err)?;
        let strings = c
            .take_sub(&mut pos, u64::from(string_bytes), "named-stream strings")
            .map_err(&err)?;
        let _size = c.take_u32(&mut pos, "name map size").map_err(&err)?;
        let capacity = c.take_u32(&mut pos, "name map capacity").map_err(&err)?;
        let present_words = c.take_u32(&mut pos, "present bit words").map_err(&err)?;
        let present = c
            .take_u32s(&mut pos, u64::from(present_words), "present bits")
            .map_err(&err)?;
        let deleted_words = c.take_u32(&mut pos, "deleted bit words").map_err(&err)?;
        c.take_u32s(&mut pos, u64::from(deleted_words), "deleted bits")
            .map_err(&err)?;
        for (word_index, word) in present.enumerate() {
            for bit in 0..32u64 {
                if word & (1 << bit) == 0 || (word_index as u64) * 32 + bit >= u64::from(capacity) {
                    continue;
                }
                let key = c.take_u32(&mut pos, "name map key").map_err(&err)?;
                let value = c.take_u32(&mut pos, "name map value").map_err(&err)?;
                let text = strings
                    .cstr(u64::from(key), strings.len(), "stream name")
                    .map_err(&err)?;
                if text == name {
                    return Ok(Some(value));
                }
            }
        }
        Ok(None)
    }
}

crate::record::record! {
    /// The head of the `/names` string table: magic 0xEFFEEFFE, version,
    /// then the size of the strings that follow.
    struct NamesHeader: "string table" {
        /// Not read (magic and version).
        0 reserved: crate::record::Reserved<8>;
        /// Size of the strings.
        8 size: u32 => "string table size";
    }
}

crate::record::record! {
    /// The DBI stream header (64 bytes).
    struct DbiHeader: "DBI header" {
        /// Not read.
        0 reserved: crate::record::Reserved<24>;
        /// Size of the module-info records after the header.
        24 module_info_size: u32 => "DBI module-info size";
        /// Not read.
        28 reserved2: crate::record::Reserved<36>;
    }
}

crate::record::record! {
    /// The fixed part of a DBI module-info record (two names follow).
    struct ModuleInfoRecord: "module-info record" {
        /// Not read.
        0 reserved: crate::record::Reserved<34>;
        /// The module's symbol stream.
        34 stream: u16 => "module stream";
        /// Bytes of symbols.
        36 symbols: u32 => "module symbol bytes";
        /// Bytes of C11 line information.
        40 c11_lines: u32 => "module C11 line bytes";
        /// Bytes of C13 line information.
        44 c13_lines: u32 => "module C13 line bytes";
        /// Not read.
        48 reserved2: crate::record::Reserved<16>;
    }
}

crate::record::record! {
    /// The TPI stream header.
    struct TpiHeader: "TPI header" {
        /// Not read (version).
        0 reserved: crate::record::Reserved<4>;
        /// Size of this header.
        4 header_size: u32 => "TPI header size";
        /// The first type index.
        8 first: u32 => "TPI first type index";
        /// Not read (end type index).
        12 reserved2: crate::record::Reserved<4>;
        /// Bytes of type records.
        16 data_size: u32 => "TPI data size";
    }
}

crate::record::record! {
    /// `S_DEFRANGE_HLSL`'s fixed fields (gaps and register offsets follow).
    struct DefRangeHlsl: "defrange" {
        /// The register's operand type.
        0 register_type: u16 => "defrange register type";
        /// Flags: bits 0–1 the number of register-offset dimensions.
        2 flags: u16 => "defrange flags";
        /// Offset of the range in its variable.
        4 offset_in_parent: u16 => "defrange offset in parent";
        /// Size of the range in its variable.
        6 size_in_parent: u16 => "defrange size in parent";
        /// First code offset.
        8 start: u32 => "defrange start";
        /// Not read (section).
        12 reserved: crate::record::Reserved<2>;
        /// Code bytes covered.
        14 length: u16 => "defrange length";
    }
}

crate::record::record! {
    /// A `DEBUG_S_LINES` subsection's header.
    struct LinesHeader: "lines" {
        /// Code offset the lines count from.
        0 code_start: u32 => "lines code offset";
        /// Not read (segment).
        4 reserved: crate::record::Reserved<2>;
        /// Flags: bit 0, columns follow the lines.
        6 flags: u16 => "lines flags";
        /// Not read (code size).
        8 reserved2: crate::record::Reserved<4>;
    }
}

crate::record::record! {
    /// A block of lines of one file.
    struct LineBlock: "line block" {
        /// The file (its checksum entry).
        0 file: u32 => "line block file";
        /// Number of lines.
        4 count: u32 => "line block count";
        /// Size of the block, this header included.
        8 size: u32 => "line block size";
    }
}

crate::record::record! {
    /// One line of a block.
    struct LineEntry: "line entry" {
        /// Code offset from the subsection's start.
        0 offset: u32 => "line offset";
        /// Line number in bits 0–23, flags above.
        4 line: u32 => "line number";
    }
}

/// A name from the `/names` string table at `offset`.
fn string_at(names: Option<&Cursor<'_>>, offset: u32) -> String {
    // docs/format/dxbc-debug-notes.md §SPDB: /names is magic 0xEFFEEFFE,
    // version, u32 size, then the NUL-terminated strings.
    let Some(c) = names else {
        return String::new();
    };
    let Ok(header) = NamesHeader::read(c, 0) else {
        return String::new();
    };
    let Ok(strings) = c.sub(NamesHeader::SIZE, u64::from(header.size), "string table") else {
        return String::new();
    };
    strings
        .cstr(u64::from(offset), strings.len(), "string")
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .unwrap_or_default()
}

/// One DBI module: its symbol stream and the sizes of its sections.
struct Module {
    stream: u16,
    symbols: u32,
    c11_lines: u32,
    c13_lines: u32,
}

// docs/format/dxbc-debug-notes.md §SPDB: DBI header (64 bytes, module-info
// size at 24) and module-info records (64 fixed bytes, two names, align 4).
fn modules(dbi: &Stream<'_>) -> Result<Vec<Module>, DebugInfoError> {
    let c = dbi.cursor();
    let err = dbi.read_error();
    let size = DbiHeader::read(&c, 0).map_err(&err)?.module_info_size;
    let info = c
        .sub(DbiHeader::SIZE, u64::from(size), "DBI module info")
        .map_err(&err)?;
    let mut out = Vec::new();
    let mut pos = 0u64;
    while pos < info.len() {
        let record = info
            .sub(pos, ModuleInfoRecord::SIZE, "module-info record")
            .map_err(&err)?;
        let ModuleInfoRecord {
            stream,
            symbols,
            c11_lines,
            c13_lines,
            ..
        } = ModuleInfoRecord::read(&record, 0).map_err(&err)?;
        pos += ModuleInfoRecord::SIZE;
        for what in ["module name", "object name"] {
            let name = info.cstr(pos, info.len(), what).map_err(&err)?;
            pos += name.len() as u64 + 1;
        }
        pos = pos.next_multiple_of(4);
        out.push(Module {
            stream,
            symbols,
            c11_lines,
            c13_lines,
        });
    }
    Ok(out)
}

/// Reads a CodeView numeric leaf at `*pos`.
fn numeric(c: &Cursor<'_>, pos: &mut u64) -> Result<u64, ReadError> {
    let lead = c.take_u16(pos, "numeric leaf")?;
    Ok(match lead {
        v if v < 0x8000 => u64::from(v),
        0x8000 => {
            let v = c.u8(*pos, "numeric leaf")?;
            *pos += 1;
            u64::from(v)
        }
        0x8001 | 0x8002 => u64::from(c.take_u16(pos, "numeric leaf")?),
        0x8003 | 0x8004 => u64::from(c.take_u32(pos, "numeric leaf")?),
        0x8009 | 0x800a => {
            let v = c.u64(*pos, "numeric leaf")?;
            *pos += 8;
            v
        }
        _ => {
            return Err(c.error(
                pos.saturating_sub(2),
                crate::error::ReadErrorKind::Truncated {
                    part: None,
                    what: "numeric leaf of a known kind",
                    needed: 2,
                    available: 0,
                },
            ))
        }
    })
}

/// A struct member.
#[derive(Debug, Clone)]
struct Member {
    name: String,
    offset: u64,
    ty: u32,
}

/// The type records that shape a variable.
#[derive(Debug, Clone)]
enum TypeRecord {
    Struct {
        fields: u32,
        size: u64,
    },
    FieldList(Vec<Member>),
    Array {
        element: u32,
        stride: u64,
        size: u64,
    },
    Vector {
        count: u32,
        size: u64,
    },
    Matrix {
        rows: u32,
        cols: u32,
        row_major: bool,
        size: u64,
    },
    Same(u32),
    Other,
}

/// The type stream's records by type index.
#[derive(Debug, Default)]
struct Types {
    first: u32,
    records: Vec<TypeRecord>,
}

impl Types {
    // docs/format/dxbc-debug-notes.md §SPDB: TPI header (version,
    // header size, first and end type index, data size), then records of
    // u16 length, u16 kind, payload.
    fn parse(stream: &Stream<'_>) -> Result<Types, DebugInfoError> {
        let c = stream.cursor();
        let err = stream.read_error();
        let TpiHeader {
            header_size,
            first,
            data_size,
            ..
        } = TpiHeader::read(&c, 0).map_err(&err)?;
        let data = c
            .sub(u64::from(header_size), u64::from(data_size), "TPI records")
            .map_err(&err)?;
        let mut records = Vec::new();
        let mut pos = 0u64;
        while pos < data.len() {
            let len = u64::from(data.u16(pos, "type record length").map_err(&err)?);
            if len < 2 {
                return Err(stream.invalid(data.abs(pos), "type record shorter than its kind"));
            }
            let record = data.sub(pos + 2, len, "type record").map_err(&err)?;
            records.push(type_record(&record).map_err(&err)?);
            pos += 2 + len;
        }
        Ok(Types { first, records })
    }

    fn get(&self, index: u32) -> Option<&TypeRecord> {
        let n = index.checked_sub(self.first)?;
        self.records.get(n as usize)
    }

    /// Follows modifiers and aliases.
    fn resolve(&self, mut index: u32) -> (u32, Option<&TypeRecord>) {
        for _ in 0..MAX_TYPE_DEPTH {
            match self.get(index) {
                Some(TypeRecord::Same(next)) => index = *next,
                other => return (index, other),
            }
        }
        (index, None)
    }

    fn size(&self, index: u32) -> u64 {
        if index < 0x1000 {
            return basic_size(index);
        }
        match self.resolve(index).1 {
            Some(
                TypeRecord::Struct { size, .. }
                | TypeRecord::Array { size, .. }
                | TypeRecord::Vector { size, .. }
                | TypeRecord::Matrix { size, .. },
            ) => *size,
            _ => 0,
        }
    }

    /// Appends the path of the 4-byte unit at `offset` inside a value of
    /// type `index` (`.member`, `[i]`, `.x`, `._m01`). A unit that is the
    /// whole of a struct or array ends the path there: it names the value
    /// itself (`input` for `struct { uint vI; } input`, as fxc's listing
    /// prints it). Each struct member looked at costs one unit of `work`;
    /// `false` when it ran out.
    fn path(&self, index: u32, offset: u64, out: &mut String, work: &mut u64) -> bool {
        let (mut index, mut offset) = (index, offset);
        for _ in 0..MAX_TYPE_DEPTH {
            let record = self.resolve(index).1;
            if offset == 0
                && self.size(index) == 4
                && matches!(
                    record,
                    Some(TypeRecord::Struct { .. } | TypeRecord::Array { .. })
                )
            {
                return true;
            }
            match record {
                Some(TypeRecord::Struct { fields, size }) => {
                    let Some(TypeRecord::FieldList(members)) = self.resolve(*fields).1 else {
                        return true;
                    };
                    // The member whose bytes hold the offset; members of
                    // size 0 run to the next member (or the struct's end).
                    let mut exhausted = false;
                    let found = members.iter().enumerate().find(|(i, m)| {
                        match work.checked_sub(1) {
                            Some(left) => *work = left,
                            None => {
                                exhausted = true;
                                return true;
                            }
                        }
                        let mut len = self.size(m.ty);
                        if len == 0 {
                            let next = members.get(i + 1).map_or(*size, |n| n.offset);
                            len = next.saturating_sub(m.offset);
                        }
                        m.offset <= offset && offset < m.offset.saturating_add(len)
                    });
                    if exhausted {
                        return false;
                    }
                    let Some((_, member)) = found else {
                        return true;
                    };
                    out.push('.');
                    out.push_str(&member.name);
                    offset -= member.offset;
                    index = member.ty;
                }
                Some(TypeRecord::Array {
                    element, stride, ..
                }) => {
                    let stride = if *stride == 0 {
                        self.size(*element)
                    } else {
                        *stride
                    };
                    if stride == 0 {
                        return true;
                    }
                    let element_index = offset / stride;
                    out.push('[');
                    out.push_str(&element_index.to_string());
                    out.push(']');
                    offset -= element_index * stride;
                    index = *element;
                }
                Some(TypeRecord::Vector { count, .. }) => {
                    if *count > 1 {
                        if let Some(letter) = COMPONENTS.get((offset / 4) as usize) {
                            out.push('.');
                            out.push(*letter);
                        }
                    }
                    return true;
                }
                Some(TypeRecord::Matrix {
                    rows,
                    cols,
                    row_major,
                    ..
                }) => {
                    // Each row (row-major) or column is one 16-byte register.
                    let (vector, component) = (offset / 16, (offset % 16) / 4);
                    let (row, col) = if *row_major {
                        (vector, component)
                    } else {
                        (component, vector)
                    };
                    if row < u64::from(*rows) && col < u64::from(*cols) {
                        out.push_str(&format!("._m{row}{col}"));
                    }
                    return true;
                }
                _ => return true,
            }
        }
        true
    }
}

/// Size of a CodeView basic type (`T_REAL32` …): the low byte names it.
fn basic_size(index: u32) -> u64 {
    match index & 0xff {
        0x10 | 0x20 | 0x68 | 0x69 | 0x30 => 1,
        0x11 | 0x21 | 0x72 | 0x73 | 0x46 | 0x31 => 2,
        0x13 | 0x23 | 0x76 | 0x77 | 0x41 | 0x33 => 8,
        _ => 4,
    }
}

fn type_record(c: &Cursor<'_>) -> Result<TypeRecord, ReadError> {
    let kind = c.u16(0, "type record kind")?;
    let mut pos = 2u64;
    Ok(match kind {
        LF_STRUCTURE | LF_CLASS | LF_INTERFACE => {
            let _count = c.take_u16(&mut pos, "member count")?;
            let _property = c.take_u16(&mut pos, "struct properties")?;
            let fields = c.take_u32(&mut pos, "field list")?;
            let _derived = c.take_u32(&mut pos, "derived list")?;
            let _vshape = c.take_u32(&mut pos, "vshape")?;
            let size = numeric(c, &mut pos)?;
            TypeRecord::Struct { fields, size }
        }
        LF_FIELDLIST => {
            let mut members = Vec::new();
            while pos < c.len() {
                let lead = c.u8(pos, "field list")?;
                if lead >= 0xf0 {
                    pos += u64::from(lead & 0x0f).max(1);
                    continue;
                }
                if c.take_u16(&mut pos, "member kind")? != LF_MEMBER {
                    // Methods, base classes …: nothing a variable path needs,
                    // and their lengths are not self-described.
                    break;
                }
                let _attributes = c.take_u16(&mut pos, "member attributes")?;
                let ty = c.take_u32(&mut pos, "member type")?;
                let offset = numeric(c, &mut pos)?;
                let name = c.cstr(pos, c.len(), "member name")?;
                pos += name.len() as u64 + 1;
                members.push(Member {
                    name: String::from_utf8_lossy(name).into_owned(),
                    offset,
                    ty,
                });
            }
            TypeRecord::FieldList(members)
        }
        LF_ARRAY => {
            let element = c.take_u32(&mut pos, "array element type")?;
            let _index_type = c.take_u32(&mut pos, "array index type")?;
            let size = numeric(c, &mut pos)?;
            TypeRecord::Array {
                element,
                stride: 0,
                size,
            }
        }
        LF_STRIDED_ARRAY => {
            let element = c.take_u32(&mut pos, "array element type")?;
            let _index_type = c.take_u32(&mut pos, "array index type")?;
            let stride = u64::from(c.take_u32(&mut pos, "array stride")?);
            let size = numeric(c, &mut pos)?;
            TypeRecord::Array {
                element,
                stride,
                size,
            }
        }
        LF_VECTOR => {
            let _element = c.take_u32(&mut pos, "vector element type")?;
            let count = c.take_u32(&mut pos, "vector count")?;
            let size = numeric(c, &mut pos)?;
            TypeRecord::Vector { count, size }
        }
        LF_MATRIX => {
            let _element = c.take_u32(&mut pos, "matrix element type")?;
            let rows = c.take_u32(&mut pos, "matrix rows")?;
            let cols = c.take_u32(&mut pos, "matrix columns")?;
            let _major_stride = c.take_u32(&mut pos, "matrix major stride")?;
            let attributes = c.u8(pos, "matrix attributes")?;
            pos += 1;
            let size = numeric(c, &mut pos)?;
            TypeRecord::Matrix {
                rows,
                cols,
                row_major: attributes & 1 != 0,
                size,
            }
        }
        LF_MODIFIER | LF_MODIFIER_EX | LF_ALIAS => {
            TypeRecord::Same(c.take_u32(&mut pos, "modified type")?)
        }
        _ => TypeRecord::Other,
    })
}

/// A location inside an inline site, before the site's base line is known.
struct InlineLocation {
    start: u32,
    end: u32,
    line: i64,
    file: Option<u32>,
    /// The range kind (`ChangeRangeKind`): 1 statement (the kind before
    /// any change), 0 expression.
    statement: bool,
}

/// An `S_INLINESITE` with its decoded binary annotations.
struct InlineSite {
    inlinee: u32,
    locations: Vec<InlineLocation>,
}

struct Decoder<'t> {
    notes: DebugNotes,
    types: &'t Types,
    /// Bytes of names (and line patches) still allowed.
    budget: u64,
    /// The whole budget, for the error.
    limit: u64,
}

impl Decoder<'_> {
    fn module(
        &mut self,
        stream: &Stream<'_>,
        module: &Module,
        names: Option<&Cursor<'_>>,
    ) -> Result<(), DebugInfoError> {
        let c = stream.cursor();
        let err = stream.read_error();
        let symbols = c
            .sub(0, u64::from(module.symbols), "module symbols")
            .map_err(&err)?;
        let mut inline_sites = Vec::new();
        let mut local: Option<(String, u32)> = None;
        // The code offset of the procedure the symbols belong to.
        let mut procedure_start = 0u32;
        // The first word is the CodeView signature (4 = C13).
        let mut pos = 4u64.min(symbols.len());
        while pos < symbols.len() {
            let len = u64::from(symbols.u16(pos, "symbol length").map_err(&err)?);
            if len < 2 {
                return Err(stream.invalid(symbols.abs(pos), "symbol record shorter than its kind"));
            }
            let record = symbols.sub(pos + 2, len, "symbol record").map_err(&err)?;
            let kind = record.u16(0, "symbol kind").map_err(&err)?;
            let body = record.sub(2, len - 2, "symbol").map_err(&err)?;
            match kind {
                S_LOCAL => {
                    // The name as stored: fxc stores a return value's
                    // local as `<main return value>` itself.
                    let ty = body.u32(0, "local type").map_err(&err)?;
                    let name = body.cstr(6, body.len(), "local name").map_err(&err)?;
                    let name = String::from_utf8_lossy(name).into_owned();
                    self.spend(name.len() as u64)?;
                    local = Some((name, ty));
                }
                S_DEFRANGE_HLSL => {
                    if let Some((name, ty)) = &local {
                        self.defrange(stream, &body, name, *ty)?;
                    }
                }
                S_INLINESITE => {
                    inline_sites.push(inline_site(&body, procedure_start).map_err(&err)?)
                }
                kind if PROCEDURES.contains(&kind) => {
                    procedure_start = body.u32(28, "procedure code offset").map_err(&err)?;
                }
                _ => {}
            }
            pos += 2 + len;
        }
        let lines_at = u64::from(module.symbols).saturating_add(u64::from(module.c11_lines));
        let c13 = c
            .sub(
                lines_at,
                u64::from(module.c13_lines),
                "C13 line information",
            )
            .map_err(&err)?;
        self.c13(stream, &c13, names, &inline_sites)
    }

    fn spend(&mut self, bytes: u64) -> Result<(), DebugInfoError> {
        self.budget = self
            .budget
            .checked_sub(bytes)
            .ok_or(DebugInfoError::NamesTooLarge {
                part: PART,
                limit: self.limit,
            })?;
        Ok(())
    }

    // docs/format/dxbc-debug-notes.md §SPDB: S_DEFRANGE_HLSL.
    fn defrange(
        &mut self,
        stream: &Stream<'_>,
        body: &Cursor<'_>,
        name: &str,
        ty: u32,
    ) -> Result<(), DebugInfoError> {
        let err = stream.read_error();
        let range = DefRangeHlsl::read(body, 0).map_err(&err)?;
        let DefRangeHlsl {
            register_type,
            flags,
            start,
            ..
        } = range;
        let offset_in_parent = u64::from(range.offset_in_parent);
        let size_in_parent = u64::from(range.size_in_parent);
        let length = u32::from(range.length);
        // The register offsets (one per dimension) end the record, after
        // the gaps.
        let dimensions = u64::from(flags & 3);
        let register_offset = if dimensions == 0 {
            0
        } else {
            let at = body
                .len()
                .checked_sub(4 * dimensions)
                .filter(|&a| a >= 16)
                .ok_or_else(|| {
                    stream.invalid(body.abs(0), "defrange too short for its register")
                })?;
            body.u32(at, "defrange register offset").map_err(&err)?
        };
        let Ok(kind) = u8::try_from(register_type) else {
            return Ok(());
        };
        if SKIPPED_REGISTERS.contains(&register_type) {
            return Ok(());
        }
        // The gaps (u16 start from the range's start, u16 length) between
        // the fixed fields and the register offsets: the register holds
        // the variable over the range less its gaps.
        let gaps_end = body.len().saturating_sub(4 * dimensions);
        let mut live: Vec<(u32, u32)> = Vec::new();
        let mut from = start;
        let mut at = DefRangeHlsl::SIZE;
        while at + 4 <= gaps_end {
            let gap_start =
                start.saturating_add(u32::from(body.u16(at, "defrange gap start").map_err(&err)?));
            let gap_length = u32::from(body.u16(at + 2, "defrange gap length").map_err(&err)?);
            if gap_start > from {
                live.push((from, gap_start));
            }
            from = from.max(gap_start.saturating_add(gap_length));
            at += 4;
        }
        let end = start.saturating_add(length);
        if from < end || live.is_empty() {
            live.push((from.min(end), end));
        }
        let index = register_offset / 16;
        let first = u64::from((register_offset % 16) / 4);
        for unit in 0..(size_in_parent / 4).min(4) {
            let component = first + unit;
            if component > 3 {
                break;
            }
            let mut variable = name.to_string();
            if !self.types.path(
                ty,
                offset_in_parent + 4 * unit,
                &mut variable,
                &mut self.budget,
            ) {
                return Err(DebugInfoError::NamesTooLarge {
                    part: PART,
                    limit: self.limit,
                });
            }
            for &(start, end) in &live {
                self.spend(variable.len() as u64)?;
                self.notes.locations.push(VariableLocation {
                    register: NoteRegister::Operand { kind, index },
                    component: component as u8,
                    start,
                    end,
                    variable: variable.clone(),
                });
            }
        }
        Ok(())
    }

    fn c13(
        &mut self,
        stream: &Stream<'_>,
        c13: &Cursor<'_>,
        names: Option<&Cursor<'_>>,
        inline_sites: &[InlineSite],
    ) -> Result<(), DebugInfoError> {
        let err = stream.read_error();
        let mut checksum_files: HashMap<u32, u32> = HashMap::new();
        // (code offset, file, line, is a statement).
        let mut blocks: Vec<(u32, u32, u32, bool)> = Vec::new();
        let mut inlinees: HashMap<u32, (u32, u32)> = HashMap::new();
        let mut pos = 0u64;
        while pos + 8 <= c13.len() {
            let kind = c13.u32(pos, "subsection kind").map_err(&err)?;
            let len = c13.u32(pos + 4, "subsection length").map_err(&err)?;
            let body = c13
                .sub(pos + 8, u64::from(len), "subsection")
                .map_err(&err)?;
            match kind {
                DEBUG_S_FILECHKSMS => {
                    let mut at = 0u64;
                    while at + 6 <= body.len() {
                        let name = body.u32(at, "checksum file name").map_err(&err)?;
                        let hash_len = body.u8(at + 4, "checksum length").map_err(&err)?;
                        let index = self.notes.files.len() as u32;
                        let text = string_at(names, name);
                        self.spend(text.len() as u64)?;
                        self.notes.files.push(text);
                        checksum_files.insert(at as u32, index);
                        at = (at + 6 + u64::from(hash_len)).next_multiple_of(4);
                    }
                }
                DEBUG_S_LINES => {
                    let LinesHeader {
                        code_start, flags, ..
                    } = LinesHeader::read(&body, 0).map_err(&err)?;
                    let mut at = LinesHeader::SIZE;
                    while at < body.len() {
                        let LineBlock { file, count, size } =
                            LineBlock::read(&body, at).map_err(&err)?;
                        let per_line = if flags & 1 != 0 { 12 } else { 8 };
                        let needed = LineBlock::SIZE + u64::from(count) * per_line;
                        if u64::from(size) < needed {
                            return Err(
                                stream.invalid(body.abs(at), "line block smaller than its lines")
                            );
                        }
                        let lines = body
                            .sub(
                                at + LineBlock::SIZE,
                                u64::from(count) * LineEntry::SIZE,
                                "line entries",
                            )
                            .map_err(&err)?;
                        for i in 0..u64::from(count) {
                            let entry =
                                LineEntry::read(&lines, LineEntry::SIZE * i).map_err(&err)?;
                            let (offset, line) = (entry.offset, entry.line & 0xff_ffff);
                            blocks.push((
                                code_start.saturating_add(offset),
                                file,
                                line,
                                entry.line & STATEMENT != 0,
                            ));
                        }
                        at += u64::from(size);
                    }
                }
                DEBUG_S_INLINEELINES => {
                    let signature = body.u32(0, "inlinee lines signature").map_err(&err)?;
                    let mut at = 4u64;
                    while at + 12 <= body.len() {
                        let inlinee = body.u32(at, "inlinee").map_err(&err)?;
                        let file = body.u32(at + 4, "inlinee file").map_err(&err)?;
                        let line = body.u32(at + 8, "inlinee line").map_err(&err)?;
                        inlinees.entry(inlinee).or_insert((file, line));
                        at += 12;
                        if signature == 1 {
                            let extra = body.u32(at, "inlinee extra files").map_err(&err)?;
                            at = at.saturating_add(4 + 4 * u64::from(extra));
                        }
                    }
                }
                _ => {}
            }
            pos = (pos + 8 + u64::from(len)).next_multiple_of(4);
        }
        // fxc writes two entries per instruction: the statement's line
        // (fStatement set), then the line of the expression inside it.
        // The listing's `#line`s follow statements: the first statement
        // entry of an offset; every entry when a table marks none.
        let any_statement = blocks.iter().any(|b| b.3);
        for (offset, file, line, statement) in blocks {
            if any_statement && !statement {
                continue;
            }
            if let Some(&file) = checksum_files.get(&file) {
                self.notes
                    .lines
                    .entry(offset)
                    .or_insert(LineNote { file, line });
            }
        }
        // Inline sites, outer before inner, give the code of their
        // statement ranges their line (expression ranges, like expression
        // line entries, print nothing); the line in force after a range
        // comes back at its end. The work is bounded by the part's size.
        for site in inline_sites {
            let Some(&(site_file, base_line)) = inlinees.get(&site.inlinee) else {
                continue;
            };
            for location in site.locations.iter().filter(|l| l.statement) {
                let file = location.file.unwrap_or(site_file);
                let Some(&file) = checksum_files.get(&file) else {
                    continue;
                };
                let line = i64::from(base_line) + location.line;
                let Ok(line) = u32::try_from(line) else {
                    continue;
                };
                let end = location.end.max(location.start + 1);
                if let Some(after) = self.notes.line_at(end) {
                    self.notes.lines.entry(end).or_insert(after);
                }
                self.notes
                    .lines
                    .entry(location.start)
                    .or_insert(LineNote { file, line });
                for (_, note) in self.notes.lines.range_mut(location.start..end) {
                    self.budget =
                        self.budget
                            .checked_sub(1)
                            .ok_or(DebugInfoError::NamesTooLarge {
                                part: PART,
                                limit: self.limit,
                            })?;
                    *note = LineNote { file, line };
                }
            }
        }
        Ok(())
    }
}

/// A compressed unsigned integer of a binary annotation (1, 2 or 4 bytes).
fn compressed(c: &Cursor<'_>, pos: &mut u64) -> Result<u32, ReadError> {
    let first = c.u8(*pos, "annotation operand")?;
    *pos += 1;
    if first & 0x80 == 0 {
        return Ok(u32::from(first));
    }
    if first & 0xc0 == 0x80 {
        let second = c.u8(*pos, "annotation operand")?;
        *pos += 1;
        return Ok((u32::from(first & 0x3f) << 8) | u32::from(second));
    }
    let rest = c.array::<3>(*pos, "annotation operand")?;
    *pos += 3;
    Ok((u32::from(first & 0x1f) << 24)
        | (u32::from(rest[0]) << 16)
        | (u32::from(rest[1]) << 8)
        | u32::from(rest[2]))
}

fn signed(value: u32) -> i64 {
    if value & 1 != 0 {
        -i64::from(value >> 1)
    } else {
        i64::from(value >> 1)
    }
}

// docs/format/dxbc-debug-notes.md §SPDB: S_INLINESITE binary annotations.
// Code offsets count from the procedure's start (`procedure_start`) until
// a `CodeOffset` annotation sets one outright.
fn inline_site(body: &Cursor<'_>, procedure_start: u32) -> Result<InlineSite, ReadError> {
    let inlinee = body.u32(8, "inline site inlinee")?;
    let mut locations: Vec<InlineLocation> = Vec::new();
    let (mut base, mut offset, mut line, mut file) = (0u32, procedure_start, 0i64, None);
    let mut statement = true;
    let mut pos = 12u64;
    while pos < body.len() {
        let op = body.u8(pos, "annotation opcode")?;
        pos += 1;
        if op == 0 {
            break;
        }
        let value = compressed(body, &mut pos)?;
        match op {
            1 => offset = value,
            2 => base = value,
            3 => {
                offset = offset.saturating_add(value);
                emit(
                    &mut locations,
                    base.saturating_add(offset),
                    None,
                    line,
                    file,
                    statement,
                );
            }
            4 => {
                // The length of the location just emitted.
                if let Some(last) = locations.last_mut().filter(|l| l.end == l.start) {
                    last.end = last.start.saturating_add(value);
                }
                offset = offset.saturating_add(value);
            }
            5 => file = Some(value),
            6 => line += signed(value),
            8 => statement = value != 0,
            11 => {
                offset = offset.saturating_add(value & 0xf);
                line += signed(value >> 4);
                emit(
                    &mut locations,
                    base.saturating_add(offset),
                    None,
                    line,
                    file,
                    statement,
                );
            }
            12 => {
                let delta = compressed(body, &mut pos)?;
                offset = offset.saturating_add(delta);
                emit(
                    &mut locations,
                    base.saturating_add(offset),
                    Some(value),
                    line,
                    file,
                    statement,
                );
            }
            7 | 9 | 10 | 13 => {}
            _ => break,
        }
    }
    // A last location without a length covers the instruction it starts at.
    if let Some(last) = locations.last_mut() {
        if last.end == last.start {
            last.end = last.start.saturating_add(1);
        }
    }
    Ok(InlineSite { inlinee, locations })
}

/// Appends an inline location at `start`, closing an open previous one there.
fn emit(
    locations: &mut Vec<InlineLocation>,
    start: u32,
    length: Option<u32>,
    line: i64,
    file: Option<u32>,
    statement: bool,
) {
    if let Some(last) = locations.last_mut().filter(|l| l.end == l.start) {
        last.end = start;
    }
    let end = length.map_or(start, |l| start.saturating_add(l));
    locations.push(InlineLocation {
        start,
        end,
        line,
        file,
        statement,
    });
}
