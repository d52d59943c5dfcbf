//! The notes Microsoft's DXBC disassembler takes from the debug information
//! of `/Zi` builds: the `// Initial variable locations:` block after the
//! declarations, `#line N "file"` lines before instructions, and
//! `// r0.x <- variable` after instructions that move a variable into a
//! temporary register (docs/format/dxbc-debug-notes.md).
//!
//! Two parts carry that information: `SPDB` (d3dcompiler_47 era: a whole
//! MSF 7.00 PDB, decoded by [`spdb`]) and `SDBG` (the d3dcompiler_43 era
//! blob, decoded by [`sdbg`]). Both decode into one plain [`DebugNotes`];
//! the SM4 printer asks it for the notes of each instruction
//! ([`NotePrinter`]).
//!
//! The decoders are bounded like every other: reads are checked, counts
//! never size an allocation, names are built within a byte budget derived
//! from the part's size, and type trees are walked to a fixed depth.

pub mod sdbg;
pub mod spdb;

use crate::container::Container;
use crate::error::ReadError;
use crate::name::PartName;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How deep a variable's type tree is followed (struct in struct in array …).
pub const MAX_TYPE_DEPTH: u32 = 16;

/// What the notes' code positions count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeKey {
    /// Byte offset of the instruction from the start of the SHDR/SHEX data
    /// (the version token is offset 0): SPDB's code offsets.
    ByteOffset,
    /// Number of the instruction among the executable ones (declarations
    /// and hull-shader phase markers not counted): SDBG's instruction table.
    InstructionNumber,
}

/// A register the debug information names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NoteRegister {
    /// A register by operand type (`D3D10_SB_OPERAND_TYPE`, which SPDB's
    /// `CV_HLSLREG_e` follows) and index.
    Operand {
        /// Operand type (0 temp, 1 input, 2 output, …).
        kind: u8,
        /// Register index (0 for registers without one, like `vThreadID`).
        index: u32,
    },
    /// The first destination operand of the instruction the note belongs
    /// to, when it is the temporary register `index` (SDBG records only the
    /// index).
    Destination {
        /// Register index.
        index: u32,
    },
}

/// One component of a register holding (part of) a variable over a code
/// range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableLocation {
    /// The register.
    pub register: NoteRegister,
    /// The register component (0 = x … 3 = w).
    pub component: u8,
    /// First code position of the range ([`CodeKey`]).
    pub start: u32,
    /// Code position just past the range.
    pub end: u32,
    /// The variable path as the listing prints it (`input.pos.x`,
    /// `<main return value>.color.w`, `res.e[2]`).
    pub variable: String,
}

/// The source position of the code from `start` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineNote {
    /// Index into [`DebugNotes::files`].
    pub file: u32,
    /// Line number (1-based).
    pub line: u32,
}

/// Everything the listing's debug notes need, from one SPDB or SDBG part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugNotes {
    /// The part it came from.
    pub part: PartName,
    /// What code positions count.
    pub key: CodeKey,
    /// Source file names as stored.
    pub files: Vec<String>,
    /// Line notes by code position: each holds until the next one.
    pub lines: BTreeMap<u32, LineNote>,
    /// Variable locations in record order.
    pub locations: Vec<VariableLocation>,
}

/// Why a debug part gave no notes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DebugInfoError {
    /// A read ran past the data (or another bounds problem); the error's
    /// offset is absolute in the file unless `stream` is set and the stream
    /// is not stored in one run, when it counts from the stream's start.
    #[error("{part} part{}: {source}", stream_text(*stream))]
    Read {
        /// SPDB or SDBG.
        part: PartName,
        /// The MSF stream, for SPDB.
        stream: Option<u32>,
        /// What and where.
        source: ReadError,
    },
    /// A field holds a value the format does not allow.
    #[error("{part} part{}, byte {offset:#x}: {what}", stream_text(*stream))]
    Invalid {
        /// SPDB or SDBG.
        part: PartName,
        /// The MSF stream, for SPDB.
        stream: Option<u32>,
        /// Offset as for [`DebugInfoError::Read`].
        offset: u64,
        /// What is wrong.
        what: &'static str,
    },
    /// The names built from the type information would exceed what the
    /// part's size justifies.
    #[error("{part} part: the variable names need more than {limit} bytes")]
    NamesTooLarge {
        /// SPDB or SDBG.
        part: PartName,
        /// The budget.
        limit: u64,
    },
}

fn stream_text(stream: Option<u32>) -> String {
    stream
        .map(|s| format!(" (MSF stream {s})"))
        .unwrap_or_default()
}

/// The budget for the bytes of all variable names of a part of `size`
/// bytes: a name repeats text of the part (type member names) once per
/// level, so a bounded multiple of the part is enough for real data.
pub(crate) fn name_budget(size: usize) -> u64 {
    (size as u64).saturating_mul(u64::from(MAX_TYPE_DEPTH)) + 65_536
}

impl DebugNotes {
    /// The notes of `container`'s SPDB part, else its SDBG part; `None`
    /// when it has neither.
    pub fn from_container(container: &Container<'_>) -> Option<Result<DebugNotes, DebugInfoError>> {
        if let Some(part) = container.find(PartName::SPDB) {
            return Some(spdb::decode(part.data, part.data_offset()));
        }
        container
            .find(PartName(*b"SDBG"))
            .map(|part| sdbg::decode(part.data, part.data_offset()))
    }

    /// The line note in force at code position `key`.
    pub fn line_at(&self, key: u32) -> Option<LineNote> {
        self.lines.range(..=key).next_back().map(|(_, l)| *l)
    }

    /// The locations of the initial-locations block, grouped by register
    /// in the listing's order: the input registers in the order the
    /// records first name them, then the output registers (operand names
    /// starting with `o`) likewise; within a register by component.
    /// Temporaries and destination-relative locations are not part of it;
    /// the first location of a register component wins.
    ///
    /// With byte-offset positions (SPDB) only the locations that hold at
    /// `first`, the first executable instruction, are initial: a register
    /// that takes a variable later gets its note after the instruction
    /// that writes it (`NotePrinter::after`).
    pub fn initial_locations(&self, first: Option<u32>) -> Vec<InitialRegister<'_>> {
        // (is output, first record naming the register) → the register's
        // components.
        let mut registers: BTreeMap<(bool, usize), RegisterComponents<'_>> = BTreeMap::new();
        let mut seen: BTreeMap<NoteRegister, (bool, usize)> = BTreeMap::new();
        for (record, location) in self.locations.iter().enumerate() {
            let NoteRegister::Operand { kind, .. } = location.register else {
                continue;
            };
            if kind == TEMP || kind == INDEXABLE_TEMP || location.component > 3 {
                continue;
            }
            if let (CodeKey::ByteOffset, Some(first)) = (self.key, first) {
                if !(location.start <= first && first < location.end) {
                    continue;
                }
            }
            let key = *seen
                .entry(location.register)
                .or_insert((is_output(kind), record));
            registers
                .entry(key)
                .or_insert_with(|| (location.register, BTreeMap::new()))
                .1
                .entry(location.component)
                .or_insert(&location.variable);
        }
        registers
            .into_values()
            .map(|(register, components)| (register, components.into_iter().collect()))
            .collect()
    }
}

/// One line of the initial-locations block: a register and its
/// components' variables.
pub type InitialRegister<'a> = (NoteRegister, Vec<(u8, &'a str)>);

/// A register and its components' variables while the block is gathered.
type RegisterComponents<'a> = (NoteRegister, BTreeMap<u8, &'a str>);

const TEMP: u8 = 0;
const INDEXABLE_TEMP: u8 = 3;

fn is_output(kind: u8) -> bool {
    crate::sm4::names::register(kind).is_some_and(|(name, _)| name.starts_with('o'))
}

/// The listing name of a register (`r3`, `v0`, `vThreadID`).
pub fn register_name(kind: u8, index: u32) -> String {
    use crate::sm4::names::RegisterForm;
    match crate::sm4::names::register(kind) {
        Some((name, RegisterForm::Fixed)) => name.to_string(),
        Some((name, _)) => format!("{name}{index}"),
        None => format!("<register type {kind}>{index}"),
    }
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// The state of the notes while a program's listing is written: the last
/// `#line` printed, whether the initial block is out, the count of
/// executable instructions so far.
#[derive(Debug)]
pub struct NotePrinter<'notes> {
    notes: &'notes DebugNotes,
    /// Register locations by (start, operand type, register index,
    /// component), the first in record order; SDBG's destination-relative
    /// locations under the temporary type.
    by_start: BTreeMap<(u32, u8, u32, u8), &'notes str>,
    initial_done: bool,
    last_line: Option<LineNote>,
    after_initial_block: bool,
    executed: u32,
}

/// Hull-shader phase markers (`hs_decls` … `hs_join_phase`), which are
/// not instructions of the debug information's count.
const PHASE_MARKERS: std::ops::RangeInclusive<u16> = 113..=116;

impl<'notes> NotePrinter<'notes> {
    /// A printer over `notes`.
    pub fn new(notes: &'notes DebugNotes) -> Self {
        let mut by_start = BTreeMap::new();
        for l in &notes.locations {
            let (kind, index) = match l.register {
                NoteRegister::Operand { kind, .. } if kind == INDEXABLE_TEMP => continue,
                // SDBG names temporaries only.
                NoteRegister::Operand { kind, index }
                    if kind == TEMP || notes.key == CodeKey::ByteOffset =>
                {
                    (kind, index)
                }
                NoteRegister::Destination { index } => (TEMP, index),
                NoteRegister::Operand { .. } => continue,
            };
            by_start
                .entry((l.start, kind, index, l.component))
                .or_insert(l.variable.as_str());
        }
        NotePrinter {
            notes,
            by_start,
            initial_done: false,
            last_line: None,
            after_initial_block: false,
            executed: 0,
        }
    }

    /// The notes it prints.
    pub fn notes(&self) -> &'notes DebugNotes {
        self.notes
    }

    /// Writes what goes before `instruction` (the initial-locations block
    /// before the first executable instruction, a `#line` when the source
    /// line changes) and returns the code position of the instruction when
    /// it is executable.
    pub(crate) fn before(
        &mut self,
        instruction: &crate::sm4::Instruction,
        out: &mut String,
    ) -> Option<u32> {
        if !matches!(instruction.body, crate::sm4::Body::Plain)
            || PHASE_MARKERS.contains(&instruction.opcode)
        {
            return None;
        }
        let key = match self.notes.key {
            CodeKey::ByteOffset => instruction.token.saturating_mul(4),
            CodeKey::InstructionNumber => self.executed,
        };
        self.executed = self.executed.saturating_add(1);
        if !self.initial_done {
            self.initial_done = true;
            self.write_initial_block(key, out);
        }
        if let Some(line) = self.notes.line_at(key) {
            if self.last_line != Some(line) {
                if !self.after_initial_block {
                    out.push('\n');
                }
                let _ = write!(out, "#line {}", line.line);
                if self.last_line.map(|l| l.file) != Some(line.file) {
                    let file = self
                        .notes
                        .files
                        .get(line.file as usize)
                        .map_or("", String::as_str);
                    let _ = write!(out, " \"{file}\"");
                }
                out.push('\n');
                self.last_line = Some(line);
            }
        }
        self.after_initial_block = false;
        Some(key)
    }

    fn write_initial_block(&mut self, first: u32, out: &mut String) {
        let registers = self.notes.initial_locations(Some(first));
        if registers.is_empty() {
            return;
        }
        out.push_str("//\n// Initial variable locations:\n");
        let last = registers.len() - 1;
        for (i, (register, components)) in registers.iter().enumerate() {
            let NoteRegister::Operand { kind, index } = *register else {
                continue;
            };
            let name = register_name(kind, index);
            out.push_str("//   ");
            let count = components.len();
            for (j, (component, variable)) in components.iter().enumerate() {
                let letter = COMPONENTS[usize::from(*component & 3)];
                let _ = write!(out, "{name}.{letter} <- {variable}");
                // Every entry but the block's last ends with "; ".
                if i != last || j + 1 != count {
                    out.push_str("; ");
                }
            }
            out.push('\n');
        }
        out.push_str("//\n");
        self.after_initial_block = true;
    }

    /// Writes the `  // r0.x <- var; …` note of the instruction at code
    /// position `key` (what [`NotePrinter::before`] returned), if any: the
    /// components of its destination register (the first operand, with a
    /// write mask) whose variable's location starts with the result. With
    /// SPDB's byte offsets a location's range starts where the register
    /// holds the variable, which is past the instruction that writes it:
    /// the instruction's end (`movc r1.xyz, …  // r1.x <- <f return
    /// value>.x` where the range starts at the next instruction; the same
    /// for an output whose range resumes after a gap). SDBG records the
    /// writing instruction itself, and temporaries only.
    pub(crate) fn after(&self, instruction: &crate::sm4::Instruction, key: u32, out: &mut String) {
        let Some(destination) = instruction.operands.first() else {
            return;
        };
        let start = match self.notes.key {
            CodeKey::ByteOffset => key.saturating_add(instruction.length.saturating_mul(4)),
            CodeKey::InstructionNumber if destination.kind == TEMP => key,
            CodeKey::InstructionNumber => return,
        };
        let crate::sm4::Components::Mask(mask) = destination.components else {
            return;
        };
        let Some(index) = destination
            .indices
            .first()
            .filter(|i| i.relative.is_none())
            .and_then(|i| u32::try_from(i.value).ok())
        else {
            return;
        };
        let mut first = true;
        for component in 0..4u8 {
            if mask & (1 << component) == 0 {
                continue;
            }
            if let Some(variable) = self
                .by_start
                .get(&(start, destination.kind, index, component))
            {
                out.push_str(if first { "  // " } else { "; " });
                first = false;
                let _ = write!(
                    out,
                    "{}.{} <- {variable}",
                    register_name(destination.kind, index),
                    COMPONENTS[usize::from(component)]
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;
