//! The listing notes from an `SDBG` part, the debug blob of the
//! d3dcompiler_43 era (docs/format/dxbc-debug-notes.md §SDBG).
//!
//! The part is one header of 21 words, then tables the header places
//! (offsets count from the header's end): source files, one record per
//! executable instruction, variables (one per component), input
//! registers, symbols (file, line, column, name), scopes, types, a table of
//! 32-bit integers and the text they all point into.

use super::{
    name_budget, CodeKey, DebugInfoError, DebugNotes, LineNote, NoteRegister, VariableLocation,
    COMPONENTS, MAX_TYPE_DEPTH,
};
use crate::cursor::Cursor;
use crate::error::ReadError;
use crate::name::PartName;
use std::collections::BTreeMap;

const PART: PartName = PartName(*b"SDBG");
/// The header: 21 little-endian 32-bit words.
pub const HEADER_SIZE: u64 = 84;
crate::record::record! {
    /// A source-file record.
    pub struct FileRecord: "SDBG source file" {
        /// The name in the text.
        0 name_offset: u32 => "file name offset";
        /// Its length.
        4 name_len: u32 => "file name length";
        /// Not read.
        8 reserved: crate::record::Reserved<8>;
    }
}

crate::record::record! {
    /// What an instruction record keeps for one component of its destination.
    pub struct ComponentRecord: "SDBG instruction component" {
        /// The variable the component writes (-1 for none).
        0 variable: i32 => "component variable";
        /// Not read.
        4 reserved: crate::record::Reserved<32>;
    }
}

crate::record::record! {
    /// An instruction record.
    pub struct InstructionRecord: "SDBG instruction" {
        /// The instruction's number in the program.
        0 number: u32 => "instruction number";
        /// Not read.
        4 reserved: crate::record::Reserved<12>;
        /// Its destination register (-1 for none).
        16 destination: i32 => "instruction destination";
        /// Not read.
        20 reserved2: crate::record::Reserved<4>;
        /// The component written to x (equal to 0 when x is written).
        24 mask_x: i32 => "destination mask";
        /// y (1 when written).
        28 mask_y: i32 => "destination mask";
        /// z (2 when written).
        32 mask_z: i32 => "destination mask";
        /// w (3 when written).
        36 mask_w: i32 => "destination mask";
        /// x's variable.
        40 x: ComponentRecord;
        /// y's variable.
        76 y: ComponentRecord;
        /// z's variable.
        112 z: ComponentRecord;
        /// w's variable.
        148 w: ComponentRecord;
        /// Not read.
        184 reserved3: crate::record::Reserved<188>;
        /// Its symbol (file and line; -1 for none).
        372 symbol: i32 => "instruction symbol";
        /// Not read.
        376 reserved4: crate::record::Reserved<20>;
    }
}

crate::record::record! {
    /// A variable record: one component of a variable.
    pub struct VariableRecord: "SDBG variable" {
        /// Its symbol.
        0 symbol: i32 => "variable symbol";
        /// Not read.
        4 reserved: crate::record::Reserved<12>;
        /// Its type.
        16 ty: i32 => "variable type";
        /// The component, counted in floats from the variable's first.
        20 component: u32 => "variable component";
    }
}

crate::record::record! {
    /// A symbol record.
    pub struct SymbolRecord: "SDBG symbol" {
        /// Source file index.
        0 file: u32 => "symbol file";
        /// Line.
        4 line: u32 => "symbol line";
        /// Not read (the column).
        8 reserved: crate::record::Reserved<4>;
        /// Length of its name.
        12 name_len: u32 => "symbol name length";
        /// Its name in the text.
        16 name_offset: u32 => "symbol name offset";
    }
}

crate::record::record! {
    /// A scope record.
    pub struct ScopeRecord: "SDBG scope" {
        /// Not read.
        0 reserved: crate::record::Reserved<12>;
        /// Number of members.
        12 member_count: u32 => "scope member count";
        /// Offset of the members' type indices in the integer table.
        16 members: u32 => "scope members offset";
    }
}

crate::record::record! {
    /// A type record.
    pub struct TypeRecord: "SDBG type" {
        /// Its symbol (a member's name).
        0 symbol: i32 => "type symbol";
        /// Whether the type is a function's.
        4 is_function: u32 => "type is function";
        /// Class.
        8 class: u32 => "type class";
        /// Rows.
        12 rows: u32 => "type rows";
        /// Columns.
        16 cols: u32 => "type columns";
        /// Its scope (the members of a struct; -1 for none).
        20 scope: i32 => "type scope";
        /// Array dimensions.
        24 dimensions: u32 => "type array dimensions";
        /// Not read.
        28 reserved: crate::record::Reserved<4>;
        /// Offset of the strides of its dimensions in the integer table.
        32 strides: u32 => "type strides offset";
        /// Its size in floats.
        36 floats: u32 => "type float count";
        /// Not read.
        40 reserved2: crate::record::Reserved<4>;
    }
}

/// A table's place: (count, byte offset after the header).
#[derive(Debug, Clone, Copy)]
struct Table {
    count: u32,
    offset: u32,
}

struct Sdbg<'data> {
    body: Cursor<'data>,
    /// Struct members still allowed to be looked at while names are built.
    work: std::cell::Cell<u64>,
    files: Table,
    instructions: Table,
    variables: Table,
    symbols: Table,
    scopes: Table,
    types: Table,
    integers: u32,
    text: Cursor<'data>,
}

fn read(source: ReadError) -> DebugInfoError {
    DebugInfoError::Read {
        part: PART,
        stream: None,
        source,
    }
}

/// Decodes SDBG data `data` (absolute file offset `base`) into notes keyed
/// by instruction number.
pub fn decode(data: &[u8], base: u64) -> Result<DebugNotes, DebugInfoError> {
    let c = Cursor::new(data, base);
    let word = |at: u64, what| c.u32(at, what).map_err(read);
    let table = |at: u64, what| -> Result<Table, DebugInfoError> {
        Ok(Table {
            count: word(at, what)?,
            offset: word(at + 4, what)?,
        })
    };
    let files = table(20, "SDBG file table")?;
    let instructions = table(28, "SDBG instruction table")?;
    let variables = table(36, "SDBG variable table")?;
    let symbols = table(52, "SDBG symbol table")?;
    let scopes = table(60, "SDBG scope table")?;
    let types = table(68, "SDBG type table")?;
    let integers = word(76, "SDBG integer table offset")?;
    let text_at = word(80, "SDBG text offset")?;
    let body = c
        .sub(
            HEADER_SIZE,
            c.len().saturating_sub(HEADER_SIZE),
            "SDBG tables",
        )
        .map_err(read)?;
    let text = body
        .sub(
            u64::from(text_at),
            body.len().saturating_sub(u64::from(text_at)),
            "SDBG text",
        )
        .map_err(read)?;
    let sdbg = Sdbg {
        body,
        work: std::cell::Cell::new(name_budget(data.len())),
        files,
        instructions,
        variables,
        symbols,
        scopes,
        types,
        integers,
        text,
    };
    let mut notes = DebugNotes {
        part: PART,
        key: CodeKey::InstructionNumber,
        files: Vec::new(),
        lines: BTreeMap::new(),
        locations: Vec::new(),
    };
    let mut budget = name_budget(data.len());
    let limit = budget;
    let mut spend = |bytes: u64| -> Result<(), DebugInfoError> {
        budget = budget
            .checked_sub(bytes)
            .ok_or(DebugInfoError::NamesTooLarge { part: PART, limit })?;
        Ok(())
    };
    for (_, file) in sdbg.table(sdbg.files, FileRecord::SIZE, "SDBG source files")? {
        let file = FileRecord::read(&file, 0).map_err(read)?;
        let name = sdbg.string(file.name_offset, file.name_len)?;
        spend(name.len() as u64)?;
        notes.files.push(name);
    }
    for (_, instruction) in sdbg.table(
        sdbg.instructions,
        InstructionRecord::SIZE,
        "SDBG instructions",
    )? {
        let instruction = InstructionRecord::read(&instruction, 0).map_err(read)?;
        let number = instruction.number;
        if let Some(symbol) = sdbg.record(sdbg.symbols, SymbolRecord::SIZE, instruction.symbol)? {
            let symbol = SymbolRecord::read(&symbol, 0).map_err(read)?;
            let (file, line) = (symbol.file, symbol.line);
            if (file as usize) < notes.files.len() {
                notes.lines.insert(number, LineNote { file, line });
            }
        }
        let Ok(index) = u32::try_from(instruction.destination) else {
            continue;
        };
        let components = [
            (instruction.mask_x, instruction.x),
            (instruction.mask_y, instruction.y),
            (instruction.mask_z, instruction.z),
            (instruction.mask_w, instruction.w),
        ];
        for (component, (mask, written)) in (0..4u8).zip(components) {
            if mask != i32::from(component) {
                continue;
            }
            let variable = written.variable;
            let Some(name) = sdbg.variable_name(variable)? else {
                continue;
            };
            spend(name.len() as u64)?;
            notes.locations.push(VariableLocation {
                register: NoteRegister::Destination { index },
                component,
                start: number,
                end: number.saturating_add(1),
                variable: name,
            });
        }
    }
    Ok(notes)
}

impl<'data> Sdbg<'data> {
    fn table(
        &self,
        table: Table,
        stride: u64,
        what: &'static str,
    ) -> Result<crate::cursor::Records<'data>, DebugInfoError> {
        self.body
            .records(
                u64::from(table.offset),
                u64::from(table.count),
                stride,
                what,
            )
            .map_err(read)
    }

    /// Record `index` of `table`, `None` for a negative or too large index.
    fn record(
        &self,
        table: Table,
        stride: u64,
        index: i32,
    ) -> Result<Option<Cursor<'data>>, DebugInfoError> {
        let Ok(index) = u32::try_from(index) else {
            return Ok(None);
        };
        if index >= table.count {
            return Ok(None);
        }
        let at = u64::from(table.offset) + u64::from(index) * stride;
        self.body
            .sub(at, stride, "SDBG record")
            .map(Some)
            .map_err(read)
    }

    fn string(&self, offset: u32, len: u32) -> Result<String, DebugInfoError> {
        let bytes = self
            .text
            .bytes(u64::from(offset), u64::from(len), "SDBG text")
            .map_err(read)?;
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }

    /// The name of symbol `index`, without its `Scope::` prefix.
    fn symbol_name(&self, index: i32) -> Result<String, DebugInfoError> {
        let Some(symbol) = self.record(self.symbols, SymbolRecord::SIZE, index)? else {
            return Ok(String::new());
        };
        let symbol = SymbolRecord::read(&symbol, 0).map_err(read)?;
        let name = self.string(symbol.name_offset, symbol.name_len)?;
        Ok(match name.rfind("::") {
            Some(cut) => name[cut + 2..].to_string(),
            None => name,
        })
    }

    fn integer(&self, byte_offset: u32, index: u64) -> Result<u32, DebugInfoError> {
        let at = u64::from(self.integers) + u64::from(byte_offset) + 4 * index;
        self.body.u32(at, "SDBG integer").map_err(read)
    }

    /// `variable`'s path (`res.e[2]`, `<main return value>.color.w`), `None`
    /// for no variable (-1).
    fn variable_name(&self, variable: i32) -> Result<Option<String>, DebugInfoError> {
        let Some(record) = self.record(self.variables, VariableRecord::SIZE, variable)? else {
            return Ok(None);
        };
        let VariableRecord {
            symbol,
            ty,
            component,
            ..
        } = VariableRecord::read(&record, 0).map_err(read)?;
        let Some(type_record) = self.record(self.types, TypeRecord::SIZE, ty)? else {
            return Ok(None);
        };
        let is_function = TypeRecord::read(&type_record, 0).map_err(read)?.is_function != 0;
        let name = self.symbol_name(symbol)?;
        let mut out = if is_function {
            format!("<{name} return value>")
        } else {
            name
        };
        // The component counts floats from the variable's first (for a
        // function: its return value's first).
        let offset = u64::from(component);
        self.path(ty, offset, &mut out)?;
        Ok(Some(out))
    }

    /// Appends the path of float `offset` inside type `ty`.
    fn path(&self, ty: i32, offset: u64, out: &mut String) -> Result<(), DebugInfoError> {
        let (mut ty, mut offset) = (ty, offset);
        for _ in 0..MAX_TYPE_DEPTH {
            let Some(t) = self.record(self.types, TypeRecord::SIZE, ty)? else {
                return Ok(());
            };
            let TypeRecord {
                class,
                rows,
                cols,
                scope,
                dimensions,
                strides,
                ..
            } = TypeRecord::read(&t, 0).map_err(read)?;
            let mut offset_in_element = offset;
            for dimension in 0..u64::from(dimensions).min(u64::from(MAX_TYPE_DEPTH)) {
                let stride = u64::from(self.integer(strides, dimension)?);
                if stride == 0 {
                    return Ok(());
                }
                let index = offset_in_element / stride;
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
                offset_in_element -= index * stride;
            }
            offset = offset_in_element;
            if scope >= 0 {
                let Some(s) = self.record(self.scopes, ScopeRecord::SIZE, scope)? else {
                    return Ok(());
                };
                let ScopeRecord {
                    member_count: count,
                    members,
                    ..
                } = ScopeRecord::read(&s, 0).map_err(read)?;
                let mut start = 0u64;
                let mut next = None;
                for m in 0..u64::from(count) {
                    let left =
                        self.work
                            .get()
                            .checked_sub(1)
                            .ok_or(DebugInfoError::NamesTooLarge {
                                part: PART,
                                limit: name_budget(self.body.len() as usize + HEADER_SIZE as usize),
                            })?;
                    self.work.set(left);
                    let member = self.integer(members, m)?;
                    let Ok(member) = i32::try_from(member) else {
                        return Ok(());
                    };
                    let Some(mt) = self.record(self.types, TypeRecord::SIZE, member)? else {
                        return Ok(());
                    };
                    let mt = TypeRecord::read(&mt, 0).map_err(read)?;
                    let floats = u64::from(mt.floats);
                    if offset < start + floats {
                        let symbol = mt.symbol;
                        out.push('.');
                        out.push_str(&self.symbol_name(symbol)?);
                        next = Some((member, offset - start));
                        break;
                    }
                    start += floats;
                }
                match next {
                    Some((member, rest)) => {
                        ty = member;
                        offset = rest;
                        continue;
                    }
                    None => return Ok(()),
                }
            }
            match class {
                1 if cols > 1 || rows > 1 => {
                    if let Some(letter) = COMPONENTS.get(offset as usize) {
                        out.push('.');
                        out.push(*letter);
                    }
                }
                3 if cols > 0 => {
                    let (row, col) = (offset / u64::from(cols), offset % u64::from(cols));
                    if row < u64::from(rows) {
                        out.push_str(&format!("._m{row}{col}"));
                    }
                }
                _ => {}
            }
            return Ok(());
        }
        Ok(())
    }
}
