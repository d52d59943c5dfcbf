//! Bitcode → [`Module`]: LLVM 3.7's reader, block by block
//! (docs/format/dxil-module.md; facts from dxc's `BitcodeReader.cpp` and
//! `LLVMBitCodes.h`).
//!
//! The reader is iterative: no step recurses on the input's structure, so
//! deep constant expressions, metadata or types cannot exhaust the stack.
//! Tables grow only as records arrive (a count field never sizes an
//! allocation), and forward references are tracked (by their largest ID, or
//! in a function body by a map holding each one's type) until the
//! value, type or metadata they name is read.

mod attributes;
mod constants;
mod function;
mod globals;
pub(crate) use function::{Outline, Streamed};
mod metadata;
mod types;

use super::model::*;
use crate::bitcode::codes::block;
use crate::bitcode::error::{BitcodeError, BitcodeErrorKind, Result};
use crate::bitcode::reader::{Bitcode, Entry, Record, StreamReader};
use std::collections::{BTreeMap, HashMap};

/// What to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Read function bodies (FUNCTION_BLOCKs). Without them every
    /// [`Function::body`] is `None` and the blocks are skipped by their
    /// length words, which is all the module-level facts need.
    pub function_bodies: bool,
    /// Keep the fields of debug-info nodes (DILocation, DIFile, …). Without
    /// them each such node is a [`DebugNode`] with its kind and empty
    /// `fields` (its metadata ID kept): what a reader of the `dx.*` named
    /// metadata needs, at a fraction of a debug module's cost.
    pub debug_info: bool,
    /// Read the attribute blocks (PARAMATTR_GROUP, PARAMATTR). Without them
    /// the blocks are skipped by their length words, unchecked:
    /// [`Module::attribute_groups`] and [`Module::attribute_lists`] are
    /// empty, and [`Function::attributes`] keeps the list number the record
    /// gives.
    pub attributes: bool,
    /// Read the metadata kinds (METADATA_KIND records and blocks: `dbg`,
    /// `tbaa`, …, what names instruction attachments). Without them the
    /// records are stepped over, neither decoded nor checked, and
    /// [`Module::metadata_kinds`] is empty; the metadata IDs are the same.
    pub metadata_kinds: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            function_bodies: true,
            debug_info: true,
            attributes: true,
            metadata_kinds: true,
        }
    }
}

impl ReadOptions {
    /// What the module-level facts of a module need
    /// ([`crate::dxil::facts::ModuleFacts`]): the globals, the constants, the
    /// type table and the metadata nodes, strings and names; no function
    /// bodies, no fields of debug-info nodes, no attributes, no metadata kinds.
    pub fn module_level() -> ReadOptions {
        ReadOptions {
            function_bodies: false,
            debug_info: false,
            attributes: false,
            metadata_kinds: false,
        }
    }
}

/// MODULE_BLOCK record codes (dxc's LLVM 3.7 plus the later ones).
mod module_code {
    pub const VERSION: u32 = 1;
    pub const TRIPLE: u32 = 2;
    pub const DATALAYOUT: u32 = 3;
    pub const ASM: u32 = 4;
    pub const SECTIONNAME: u32 = 5;
    pub const DEPLIB: u32 = 6;
    pub const GLOBALVAR: u32 = 7;
    pub const FUNCTION: u32 = 8;
    pub const ALIAS_OLD: u32 = 9;
    pub const PURGEVALS: u32 = 10;
    pub const GCNAME: u32 = 11;
    pub const COMDAT: u32 = 12;
    pub const VSTOFFSET: u32 = 13;
    pub const ALIAS: u32 = 14;
    pub const SOURCE_FILENAME: u32 = 16;
    pub const HASH: u32 = 17;
}

/// TYPE_BLOCK_NEW record codes.
mod type_code {
    pub const NUMENTRY: u32 = 1;
    pub const VOID: u32 = 2;
    pub const FLOAT: u32 = 3;
    pub const DOUBLE: u32 = 4;
    pub const LABEL: u32 = 5;
    pub const OPAQUE: u32 = 6;
    pub const INTEGER: u32 = 7;
    pub const POINTER: u32 = 8;
    pub const FUNCTION_OLD: u32 = 9;
    pub const HALF: u32 = 10;
    pub const ARRAY: u32 = 11;
    pub const VECTOR: u32 = 12;
    pub const X86_FP80: u32 = 13;
    pub const FP128: u32 = 14;
    pub const PPC_FP128: u32 = 15;
    pub const METADATA: u32 = 16;
    pub const X86_MMX: u32 = 17;
    pub const STRUCT_ANON: u32 = 18;
    pub const STRUCT_NAME: u32 = 19;
    pub const STRUCT_NAMED: u32 = 20;
    pub const FUNCTION: u32 = 21;
    pub const OPAQUE_POINTER: u32 = 25;
}

/// The widest integer type LLVM 3.7 allows (`IntegerType::MAX_INT_BITS`).
const MAX_INT_BITS: u64 = (1 << 23) - 1;

pub(crate) fn invalid(r: &Record<'_>, reason: &'static str) -> BitcodeError {
    BitcodeError {
        bit_offset: r.bit_offset,
        kind: BitcodeErrorKind::InvalidRecord {
            block_id: r.block_id,
            code: r.code,
            reason,
        },
    }
}

pub(crate) fn structure(bit_offset: u64, reason: &'static str) -> BitcodeError {
    BitcodeError {
        bit_offset,
        kind: BitcodeErrorKind::InvalidModule { reason },
    }
}

/// A u64 field as u32, or the record's error.
pub(crate) fn u32_field(r: &Record<'_>, v: u64, reason: &'static str) -> Result<u32> {
    u32::try_from(v).map_err(|_| invalid(r, reason))
}

/// LLVM's alignment field: log2(alignment) + 1, 0 for none.
pub(crate) fn alignment(r: &Record<'_>, exponent: u64) -> Result<u64> {
    // Value::MaxAlignmentExponent is 29.
    if exponent > 30 {
        return Err(invalid(r, "alignment exponent above 2^29"));
    }
    Ok((1u64 << exponent) >> 1)
}

/// The largest ID referred to before its definition, with the bit offset
/// of its first reference: whether any forward reference stays unresolved
/// is whether this one does (a map per ID would allocate per reference).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct ForwardMax(Option<(u32, u64)>);

impl ForwardMax {
    pub(crate) fn note(&mut self, id: u32, at: u64) {
        match self.0 {
            Some((max, _)) if max >= id => {}
            _ => self.0 = Some((id, at)),
        }
    }

    /// The reference that `count` defined IDs leave unresolved, if any.
    pub(crate) fn unresolved(&self, count: u64) -> Option<(u32, u64)> {
        self.0.filter(|(id, _)| u64::from(*id) >= count)
    }
}

/// A structural key for the derived types the reader looks up (the result
/// types of instructions): the type table holds each at most once in
/// LLVM-written bitcode, the first one wins otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum TypeKey {
    Int(u32),
    Pointer(TypeId, u32),
    OpaquePointer(u32),
    Vector(u64, TypeId),
    LiteralStruct(Vec<TypeId>, bool),
}

/// The state of a module read.
pub(crate) struct Reader {
    pub(crate) options: ReadOptions,
    pub(crate) module: Module,
    /// The type table's declared size (NUMENTRY).
    num_types: Option<u64>,
    /// Named structs referred to before their record, by type ID.
    forward_structs: BTreeMap<u32, u64>,
    pending_struct_name: Option<Vec<u8>>,
    type_index: HashMap<TypeKey, TypeId>,
    /// The type of each module value ([`Module::values`]); `None` while a
    /// global's pointer type is missing from the table.
    pub(crate) value_types: Vec<Option<TypeId>>,
    /// Value IDs referred to by module constants and global records before
    /// they were defined, with the bit offset of the first reference.
    pending_values: ForwardMax,
    /// Indices into `module.functions` of the definitions, in record order;
    /// the n-th FUNCTION_BLOCK is the body of the n-th.
    definitions: Vec<u32>,
    bodies_read: usize,
    /// (value ID, name) from the module VALUE_SYMTAB.
    names: Vec<(u32, Vec<u8>)>,
    /// (value ID, strtab offset, size) for version 2 modules.
    strtab_names: Vec<(u32, u64, u64)>,
    strtab: Vec<u8>,
    seen_module: bool,
    seen_types: bool,
    /// Bit offset of the MODULE block, for errors found at the end.
    module_offset: u64,
    /// Metadata IDs referred to before being defined (module level), with the
    /// bit offset of the first reference.
    pub(crate) md_forward: ForwardMax,
    /// With [`metadata_record_offsets`]: the bit offset of the record that
    /// defined each module-level metadata ID, in ID order.
    pub(crate) md_offsets: Option<Vec<u64>>,
    /// How function bodies' instructions are kept.
    keep: function::Keep,
    /// With [`function::Keep::Outline`], each body read: its function, its
    /// outline, and the module's value and metadata counts at its block.
    outlines: Vec<(u32, function::Outline, (u32, u32))>,
}

impl Module {
    /// Reads the whole module from LLVM bitcode (a wrapper header is
    /// accepted), as LLVM 3.7's reader does.
    pub fn parse(bitcode: &[u8]) -> Result<Module> {
        Module::parse_with(bitcode, ReadOptions::default())
    }

    /// Reads the module of a DXIL, ILDB or STAT part ([`crate::Program`]
    /// finds the bitcode after the program header). Bit offsets in errors
    /// count from the start of the bitcode, at
    /// [`crate::Program::bitcode_file_offset`] in the file.
    pub fn from_program(program: &crate::Program<'_>) -> Result<Module> {
        Module::parse(program.bitcode)
    }

    /// Reads the module with `options`.
    pub fn parse_with(bitcode: &[u8], options: ReadOptions) -> Result<Module> {
        let mut reader = Reader::new(options);
        read_module(bitcode, &mut reader, &mut Vec::new())?;
        reader.finish()
    }
}

/// The bit offset (from the start of `bitcode`) of the record that defines
/// each module-level metadata ID, indexed by [`MetadataId`]: what an error
/// about a node of the `dx.*` metadata names, found by reading the module
/// again (only when such an error is reported). The IDs are numbered as
/// [`Module::parse`] numbers them; a STRINGS record defines many.
pub fn metadata_record_offsets(bitcode: &[u8]) -> Result<Vec<u64>> {
    let mut reader = Reader::new(ReadOptions {
        function_bodies: false,
        ..ReadOptions::default()
    });
    reader.md_offsets = Some(Vec::new());
    read_module(bitcode, &mut reader, &mut Vec::new())?;
    Ok(reader.md_offsets.unwrap_or_default())
}

/// Reads the module into `reader`; with [`function::Keep::Outline`], the
/// stream just inside the first function block goes to `saved`.
fn read_module<'a>(
    bitcode: &'a [u8],
    reader: &mut Reader,
    saved: &mut Vec<StreamReader<'a>>,
) -> Result<()> {
    let bitcode = Bitcode::parse(bitcode)?;
    let mut stream = bitcode.reader();
    while let Some(entry) = stream.next_entry()? {
        match entry {
            Entry::EnterBlock(h) => match h.block_id {
                block::MODULE => {
                    if reader.seen_module {
                        return Err(structure(h.bit_offset, "a second MODULE block"));
                    }
                    reader.seen_module = true;
                    reader.module_offset = h.bit_offset;
                    reader.module_block(&mut stream, saved)?;
                }
                block::IDENTIFICATION => reader.identification_block(&mut stream)?,
                block::STRTAB => reader.strtab_block(&mut stream)?,
                _ => stream.skip_block()?,
            },
            Entry::EndBlock { .. } | Entry::DefineAbbrev { .. } | Entry::Record(_) => {}
        }
    }
    if !reader.seen_module {
        return Err(BitcodeError {
            bit_offset: stream.pos(),
            kind: BitcodeErrorKind::NoModule,
        });
    }
    Ok(())
}

/// A module read with its function bodies outlined
/// ([`function::Keep::Outline`]): each body holds its arguments,
/// constants, metadata and values but no instructions; the instructions
/// are read again, one at a time, when they are wanted
/// ([`OutlinedModule::instructions`]). What a printer of a large module
/// uses so as never to hold every instruction at once. One stream is kept
/// (at the first body) and walked forward from body to body, so that a
/// module of many bodies costs no more than one saved stream.
pub(crate) struct OutlinedModule<'a> {
    reader: Reader,
    /// The stream just inside the first FUNCTION_BLOCK.
    first: Option<StreamReader<'a>>,
    /// Each function's place in [`Reader::outlines`] (`u32::MAX`: none).
    positions: Vec<u32>,
    /// Where the last read again left the stream.
    cursor: std::cell::RefCell<Option<Cursor<'a>>>,
}

/// A stream inside body number `body` (in body order), or just after it.
struct Cursor<'a> {
    body: usize,
    inside: bool,
    stream: StreamReader<'a>,
}

impl<'a> OutlinedModule<'a> {
    /// Reads `bitcode`, checking it as [`Module::parse`] does.
    pub(crate) fn parse(bitcode: &'a [u8]) -> Result<OutlinedModule<'a>> {
        let mut reader = Reader::new(ReadOptions::default());
        reader.keep = function::Keep::Outline;
        let mut streams = Vec::new();
        read_module(bitcode, &mut reader, &mut streams)?;
        reader.finish_in_place()?;
        let mut positions = vec![u32::MAX; reader.module.functions.len()];
        for (at, (function, _, _)) in reader.outlines.iter().enumerate() {
            if let Some(slot) = positions.get_mut(*function as usize) {
                *slot = at as u32;
            }
        }
        Ok(OutlinedModule {
            reader,
            first: streams.pop(),
            positions,
            cursor: std::cell::RefCell::new(None),
        })
    }

    /// The module (bodies without instructions).
    pub(crate) fn module(&self) -> &Module {
        &self.reader.module
    }

    /// The outline of function `function`'s body.
    pub(crate) fn outline(&self, function: u32) -> Option<&function::Outline> {
        let at = *self.positions.get(function as usize)?;
        self.reader.outlines.get(at as usize).map(|(_, o, _)| o)
    }

    /// Reads function `function`'s instructions again and gives each, in
    /// order, to `sink` with its block (names and attachments are the
    /// outline's). Bodies read in module order cost one pass over the
    /// module.
    pub(crate) fn instructions(
        &self,
        function: u32,
        sink: &mut dyn FnMut(function::Streamed),
    ) -> Result<()> {
        let Some(&at) = self.positions.get(function as usize) else {
            return Ok(());
        };
        let at = at as usize;
        let (Some((_, outline, counts)), Some(skeleton), Some(first)) = (
            self.reader.outlines.get(at),
            self.reader
                .module
                .functions
                .get(function as usize)
                .and_then(|f| f.body.as_ref()),
            self.first.as_ref(),
        ) else {
            return Ok(());
        };
        let reuse = |c: &Cursor<'a>| if c.inside { c.body <= at } else { c.body < at };
        let mut cursor = match self.cursor.borrow_mut().take() {
            Some(c) if reuse(&c) => c,
            _ => Cursor {
                body: 0,
                inside: true,
                stream: first.clone(),
            },
        };
        if !cursor.inside {
            next_body(&mut cursor.stream)?;
            cursor.body += 1;
        }
        while cursor.body < at {
            cursor.stream.skip_block()?;
            next_body(&mut cursor.stream)?;
            cursor.body += 1;
        }
        function::stream_body(
            &self.reader,
            &mut cursor.stream,
            function,
            *counts,
            (skeleton, outline),
            sink,
        )?;
        cursor.inside = false;
        *self.cursor.borrow_mut() = Some(cursor);
        Ok(())
    }
}

/// Function bodies whose instructions are read again when wanted (what the
/// printer takes from an [`OutlinedModule`], its stream's lifetime left
/// out).
pub(crate) trait Bodies {
    /// The outline of function `function`'s body.
    fn outline(&self, function: u32) -> Option<&Outline>;
    /// Function `function`'s instructions in order, with their blocks.
    fn instructions(&self, function: u32, sink: &mut dyn FnMut(Streamed)) -> Result<()>;
}

impl Bodies for OutlinedModule<'_> {
    fn outline(&self, function: u32) -> Option<&Outline> {
        OutlinedModule::outline(self, function)
    }

    fn instructions(&self, function: u32, sink: &mut dyn FnMut(Streamed)) -> Result<()> {
        OutlinedModule::instructions(self, function, sink)
    }
}

/// Walks the MODULE block from just after a FUNCTION_BLOCK to just inside
/// the next one, stepping over the blocks between (as the first read did).
fn next_body(stream: &mut StreamReader<'_>) -> Result<()> {
    loop {
        let at = stream.pos();
        match stream.next_entry()? {
            Some(Entry::EnterBlock(h)) if h.block_id == block::FUNCTION => return Ok(()),
            Some(Entry::EnterBlock(_)) => stream.skip_block()?,
            Some(Entry::Record(_) | Entry::DefineAbbrev { .. }) => {}
            Some(Entry::EndBlock { .. }) | None => {
                return Err(structure(at, "a function body is missing when read again"))
            }
        }
    }
}

/// Reads the entries of the block just entered until its END_BLOCK, calling
/// `on_record` for each record and `on_block` for each sub-block (which
/// must read or skip it).
pub(crate) fn each_entry<'a>(
    stream: &mut StreamReader<'a>,
    mut on_record: impl FnMut(&Record<'a>) -> Result<()>,
    mut on_block: impl FnMut(&mut StreamReader<'a>, u32, u64) -> Result<()>,
) -> Result<()> {
    let depth = stream.depth();
    loop {
        let at = stream.pos();
        match stream.next_entry()? {
            None => return Err(structure(at, "the stream ends inside a block")),
            Some(Entry::EndBlock { .. }) if stream.depth() < depth => return Ok(()),
            Some(Entry::EnterBlock(h)) => on_block(stream, h.block_id, h.bit_offset)?,
            Some(Entry::Record(r)) => on_record(&r)?,
            Some(Entry::EndBlock { .. }) | Some(Entry::DefineAbbrev { .. }) => {}
        }
    }
}

/// Reads a block whose sub-blocks are all skipped.
/// A USELIST_BLOCK's records, kept as they are.
pub(crate) fn use_list_block(stream: &mut StreamReader<'_>, out: &mut Vec<UseList>) -> Result<()> {
    flat_block(stream, |r| {
        if r.code == 1 || r.code == 2 {
            out.push(UseList {
                block: r.code == 2,
                fields: r.values().collect(),
            });
        }
        Ok(())
    })
}

pub(crate) fn flat_block<'a>(
    stream: &mut StreamReader<'a>,
    on_record: impl FnMut(&Record<'a>) -> Result<()>,
) -> Result<()> {
    each_entry(stream, on_record, |s, _, _| s.skip_block())
}

/// Reads the records of the block just entered until its END_BLOCK, sub-blocks
/// skipped, calling `on_record` with each record and its fields: decoded in
/// the same pass as the record is walked when `want` accepts its code
/// ([`StreamReader::next_entry_with`]), empty otherwise. `fields` is the
/// buffer they are decoded into (reused from record to record).
pub(crate) fn flat_block_with<'a>(
    stream: &mut StreamReader<'a>,
    fields: &mut Vec<u64>,
    want: impl Fn(u32) -> bool,
    mut on_record: impl FnMut(&Record<'a>, &[u64]) -> Result<()>,
) -> Result<()> {
    let depth = stream.depth();
    loop {
        let at = stream.pos();
        match stream.next_entry_with(fields, &want)? {
            None => return Err(structure(at, "the stream ends inside a block")),
            Some(Entry::EndBlock { .. }) if stream.depth() < depth => return Ok(()),
            Some(Entry::EnterBlock(_)) => stream.skip_block()?,
            Some(Entry::Record(r)) => on_record(&r, fields)?,
            Some(Entry::EndBlock { .. }) | Some(Entry::DefineAbbrev { .. }) => {}
        }
    }
}

/// The fields of `r` into `out` (cleared first). The count is bounded by the
/// record's bits, checked when the record was read.
pub(crate) fn fields_into(r: &Record<'_>, out: &mut Vec<u64>) {
    out.clear();
    r.values_into(out);
}

/// The record's fields from `skip` on as bytes (a string record).
pub(crate) fn string_field(r: &Record<'_>, skip: usize) -> Result<Vec<u8>> {
    r.string_from(skip)
        .ok_or_else(|| invalid(r, "a character does not fit in a byte"))
}

fn lossy(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

impl Reader {
    fn new(options: ReadOptions) -> Reader {
        Reader {
            options,
            module: Module::default(),
            num_types: None,
            forward_structs: BTreeMap::new(),
            pending_struct_name: None,
            type_index: HashMap::new(),
            value_types: Vec::new(),
            pending_values: ForwardMax::default(),
            definitions: Vec::new(),
            bodies_read: 0,
            names: Vec::new(),
            strtab_names: Vec::new(),
            strtab: Vec::new(),
            seen_module: false,
            seen_types: false,
            module_offset: 0,
            md_forward: ForwardMax::default(),
            md_offsets: None,
            keep: function::Keep::All,
            outlines: Vec::new(),
        }
    }

    fn identification_block(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        let mut id: Option<Identification> = None;
        flat_block(stream, |r| {
            match r.code {
                1 => {
                    id = Some(Identification {
                        producer: lossy(string_field(r, 0)?),
                        epoch: None,
                    })
                }
                2 => {
                    if let Some(id) = &mut id {
                        id.epoch = r.values().next();
                    }
                }
                _ => {}
            }
            Ok(())
        })?;
        self.module.identification = id;
        Ok(())
    }

    fn strtab_block(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        let mut blob = None;
        flat_block(stream, |r| {
            if r.code == 1 {
                blob = r.blob();
            }
            Ok(())
        })?;
        if let Some(b) = blob {
            self.strtab = b.to_vec();
        }
        Ok(())
    }

    fn module_block<'a>(
        &mut self,
        stream: &mut StreamReader<'a>,
        saved: &mut Vec<StreamReader<'a>>,
    ) -> Result<()> {
        let depth = stream.depth();
        let mut fields = Vec::new();
        loop {
            let at = stream.pos();
            // String records read their characters themselves.
            let wanted = |code| {
                use module_code as c;
                !matches!(
                    code,
                    c::TRIPLE
                        | c::DATALAYOUT
                        | c::ASM
                        | c::SECTIONNAME
                        | c::DEPLIB
                        | c::GCNAME
                        | c::SOURCE_FILENAME
                )
            };
            let Some(entry) = stream.next_entry_with(&mut fields, wanted)? else {
                return Err(structure(at, "the stream ends inside the MODULE block"));
            };
            match entry {
                Entry::EndBlock { .. } if stream.depth() < depth => return Ok(()),
                Entry::EnterBlock(h) => match h.block_id {
                    block::TYPE => {
                        if self.seen_types {
                            return Err(structure(h.bit_offset, "a second type table"));
                        }
                        self.seen_types = true;
                        self.type_block(stream)?;
                    }
                    block::PARAMATTR_GROUP => self.attribute_group_block(stream)?,
                    block::PARAMATTR => self.attribute_block(stream)?,
                    block::CONSTANTS => self.module_constants(stream)?,
                    block::METADATA => self.module_metadata(stream)?,
                    block::METADATA_KIND => self.metadata_kind_block(stream)?,
                    block::VALUE_SYMTAB => self.module_symtab(stream)?,
                    block::FUNCTION => self.function_block(stream, h.bit_offset, saved)?,
                    block::USELIST => use_list_block(stream, &mut self.module.use_lists)?,
                    _ => stream.skip_block()?,
                },
                Entry::Record(r) => self.module_record_fields(&r, &fields)?,
                Entry::EndBlock { .. } | Entry::DefineAbbrev { .. } => {}
            }
        }
    }

    // ------------------------------------------------------------ types

    fn module_constants(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        let first = self.module.values.len() as u32;
        let constants = self.read_constants(stream, first)?;
        self.module.constants.reserve(constants.len());
        self.module.values.reserve(constants.len());
        self.value_types.reserve(constants.len());
        for c in constants {
            let index = self.module.constants.len() as u32;
            self.new_module_value(ModuleValue::Constant(index), Some(c.ty));
            self.module.constants.push(c);
        }
        Ok(())
    }

    // ------------------------------------------------------------ symbol table

    fn module_symtab(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        let names = &mut self.names;
        flat_block(stream, |r| {
            let skip = match r.code {
                1 => 1,
                3 => 2,
                _ => return Ok(()),
            };
            let id = r
                .values()
                .next()
                .ok_or_else(|| invalid(r, "too few fields"))?;
            let id = u32_field(r, id, "value ID out of range")?;
            names.push((id, string_field(r, skip)?));
            Ok(())
        })
    }

    fn function_block<'a>(
        &mut self,
        stream: &mut StreamReader<'a>,
        at: u64,
        saved: &mut Vec<StreamReader<'a>>,
    ) -> Result<()> {
        let Some(&index) = self.definitions.get(self.bodies_read) else {
            return Err(structure(
                at,
                "a function body without a function definition",
            ));
        };
        self.bodies_read += 1;
        if !self.options.function_bodies {
            return stream.skip_block();
        }
        if self.keep == function::Keep::Outline && saved.is_empty() {
            saved.push(stream.clone());
        }
        let counts = (
            self.module.values.len() as u32,
            self.module.metadata.len() as u32,
        );
        let (body, outline) = function::read_body(self, stream, index, self.keep)?;
        if self.keep == function::Keep::Outline {
            self.outlines.push((index, outline, counts));
        }
        if let Some(f) = self.module.functions.get_mut(index as usize) {
            f.body = Some(body);
        }
        Ok(())
    }

    // ------------------------------------------------------------ the end

    fn finish(mut self) -> Result<Module> {
        self.finish_in_place()?;
        Ok(self.module)
    }

    /// The checks and names of the module's end, leaving the reader whole.
    fn finish_in_place(&mut self) -> Result<()> {
        let count = self.module.values.len();
        if let Some((id, at)) = self.pending_values.unresolved(count as u64) {
            return Err(BitcodeError {
                bit_offset: at,
                kind: BitcodeErrorKind::Unresolved {
                    what: "value",
                    id: u64::from(id),
                },
            });
        }
        let md_count = self.module.metadata.len() as u32;
        if let Some((id, at)) = self.md_forward.unresolved(u64::from(md_count)) {
            return Err(BitcodeError {
                bit_offset: at,
                kind: BitcodeErrorKind::Unresolved {
                    what: "metadata",
                    id: u64::from(id),
                },
            });
        }
        self.module.symbol_order = self.names.iter().map(|(id, _)| ValueId(*id)).collect();
        for (id, name) in std::mem::take(&mut self.names) {
            self.set_global_name(id, name);
        }
        for (id, offset, size) in std::mem::take(&mut self.strtab_names) {
            if let Some(name) = self.strtab_slice(offset, size) {
                self.set_global_name(id, name);
            }
        }
        if self.options.function_bodies && self.bodies_read < self.definitions.len() {
            return Err(structure(
                self.module_offset,
                "a function definition has no body",
            ));
        }
        Ok(())
    }

    fn set_global_name(&mut self, id: u32, name: Vec<u8>) {
        let m = &mut self.module;
        let common = match m.values.get(id as usize) {
            Some(ModuleValue::Global(i)) => m.globals.get_mut(*i as usize).map(|g| &mut g.common),
            Some(ModuleValue::Function(i)) => {
                m.functions.get_mut(*i as usize).map(|g| &mut g.common)
            }
            Some(ModuleValue::Alias(i)) => m.aliases.get_mut(*i as usize).map(|g| &mut g.common),
            _ => None,
        };
        if let Some(c) = common {
            c.name = name;
        }
    }
}

/// Where the optional fields of a global record are.
#[derive(Clone, Copy)]
struct Fields {
    visibility: Option<usize>,
    unnamed_addr: Option<usize>,
    dll_storage: Option<usize>,
    comdat: Option<usize>,
}

fn known_kind(r: &Record<'_>, code: Option<u64>) -> Result<AttributeKind> {
    let kind = AttributeKind(code.ok_or_else(|| invalid(r, "attribute without kind"))?);
    if kind.name().is_none() {
        return Err(invalid(r, "unknown attribute kind"));
    }
    Ok(kind)
}

/// A NUL-terminated string of an attribute record from field `i`; returns it
/// and the index after the NUL.
fn c_string(r: &Record<'_>, f: &[u64], i: usize) -> Result<(Vec<u8>, usize)> {
    let rest = f.get(i..).unwrap_or_default();
    let len = rest
        .iter()
        .position(|&c| c == 0)
        .ok_or_else(|| invalid(r, "attribute string without NUL"))?;
    let mut s = Vec::with_capacity(len);
    for &c in &rest[..len] {
        s.push(u8::try_from(c).map_err(|_| invalid(r, "attribute character above 255"))?);
    }
    Ok((s, i + len + 1))
}

/// LLVM 3.7's `getDecodedLinkage`.
pub(crate) fn decode_linkage(v: u64) -> Linkage {
    match v {
        2 => Linkage::Appending,
        3 => Linkage::Internal,
        7 => Linkage::ExternWeak,
        8 => Linkage::Common,
        9 | 13 | 14 => Linkage::Private,
        12 => Linkage::AvailableExternally,
        1 | 16 => Linkage::WeakAny,
        10 | 17 => Linkage::WeakOdr,
        4 | 18 => Linkage::LinkOnceAny,
        11 | 19 => Linkage::LinkOnceOdr,
        _ => Linkage::External,
    }
}

fn decode_visibility(v: u64) -> Visibility {
    match v {
        1 => Visibility::Hidden,
        2 => Visibility::Protected,
        _ => Visibility::Default,
    }
}

fn decode_tls(v: u64) -> ThreadLocal {
    match v {
        0 => ThreadLocal::NotThreadLocal,
        2 => ThreadLocal::LocalDynamic,
        3 => ThreadLocal::InitialExec,
        4 => ThreadLocal::LocalExec,
        _ => ThreadLocal::GeneralDynamic,
    }
}
