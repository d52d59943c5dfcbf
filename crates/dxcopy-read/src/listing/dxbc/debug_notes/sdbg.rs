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
/// One source-file record.
pub const FILE_SIZE: u64 = 16;
/// One instruction record.
pub const INSTRUCTION_SIZE: u64 = 396;
/// One variable record.
pub const VARIABLE_SIZE: u64 = 24;
/// One symbol record.
pub const SYMBOL_SIZE: u64 = 20;
/// One scope record.
pub const SCOPE_SIZE: u64 = 20;
/// One type record.
pub const TYPE_SIZE: u64 = 44;

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
    for (_, file) in sdbg.table(sdbg.files, FILE_SIZE, "SDBG source files")? {
        let name_at = file.u32(0, "file name offset").map_err(read)?;
        let name_len = file.u32(4, "file name length").map_err(read)?;
        let name = sdbg.string(name_at, name_len)?;
        spend(name.len() as u64)?;
        notes.files.push(name);
    }
    for (_, instruction) in sdbg.table(sdbg.instructions, INSTRUCTION_SIZE, "SDBG instructions")? {
        let number = instruction.u32(0, "instruction number").map_err(read)?;
        let destination = instruction
            .i32(16, "instruction destination")
            .map_err(read)?;
        let symbol = instruction.i32(372, "instruction symbol").map_err(read)?;
        if let Some(symbol) = sdbg.record(sdbg.symbols, SYMBOL_SIZE, symbol)? {
            let file = symbol.u32(0, "symbol file").map_err(read)?;
            let line = symbol.u32(4, "symbol line").map_err(read)?;
            if (file as usize) < notes.files.len() {
                notes.lines.insert(number, LineNote { file, line });
            }
        }
        let Ok(index) = u32::try_from(destination) else {
            continue;
        };
        for component in 0..4u8 {
            let mask = instruction
                .i32(24 + 4 * u64::from(component), "destination mask")
                .map_err(read)?;
            if mask != i32::from(component) {
                continue;
            }
            let variable = instruction
                .i32(40 + 36 * u64::from(component), "component variable")
                .map_err(read)?;
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
        let Some(symbol) = self.record(self.symbols, SYMBOL_SIZE, index)? else {
            return Ok(String::new());
        };
        let len = symbol.u32(12, "symbol name length").map_err(read)?;
        let at = symbol.u32(16, "symbol name offset").map_err(read)?;
        let name = self.string(at, len)?;
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
        let Some(record) = self.record(self.variables, VARIABLE_SIZE, variable)? else {
            return Ok(None);
        };
        let symbol = record.i32(0, "variable symbol").map_err(read)?;
        let ty = record.i32(16, "variable type").map_err(read)?;
        let component = record.u32(20, "variable component").map_err(read)?;
        let Some(type_record) = self.record(self.types, TYPE_SIZE, ty)? else {
            return Ok(None);
        };
        let is_function = type_record.u32(4, "type is function").map_err(read)? != 0;
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
            let Some(t) = self.record(self.types, TYPE_SIZE, ty)? else {
                return Ok(());
            };
            let class = t.u32(8, "type class").map_err(read)?;
            let rows = t.u32(12, "type rows").map_err(read)?;
            let cols = t.u32(16, "type columns").map_err(read)?;
            let scope = t.i32(20, "type scope").map_err(read)?;
            let dimensions = t.u32(24, "type array dimensions").map_err(read)?;
            let strides = t.u32(32, "type strides offset").map_err(read)?;
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
                let Some(s) = self.record(self.scopes, SCOPE_SIZE, scope)? else {
                    return Ok(());
                };
                let count = s.u32(12, "scope member count").map_err(read)?;
                let members = s.u32(16, "scope members offset").map_err(read)?;
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
                    let Some(mt) = self.record(self.types, TYPE_SIZE, member)? else {
                        return Ok(());
                    };
                    let floats = u64::from(mt.u32(36, "type float count").map_err(read)?);
                    if offset < start + floats {
                        let symbol = mt.i32(0, "type symbol").map_err(read)?;
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
