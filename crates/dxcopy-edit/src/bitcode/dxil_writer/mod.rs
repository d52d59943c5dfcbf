//! Writing a DXIL module ([`dxcopy_read::dxil::Module`]) as LLVM 3.7 bitcode,
//! the way dxc's writer (its fork of LLVM 3.7's `BitcodeWriter.cpp`) lays
//! it out: the same blocks in the same order, the same abbreviations defined
//! and chosen by the same rules, the same record forms. The model's value,
//! type and metadata IDs are written as they are: for a module that was read
//! they are the order dxc's value enumerator gave (docs/format/dxil-writer.md).
//!
//! A model holding something dxc's writer never writes (a record form of
//! another LLVM, a field that does not fit dxc's abbreviation) is an error
//! naming the record, never a different file.
//!
//! ```
//! use dxcopy_edit::bitcode::write_module;
//! use dxcopy_read::dxil::{Module, Type};
//! let module = Module {
//!     version: 1,
//!     types: vec![Type::Void, Type::Integer { bits: 32 }],
//!     ..Module::default()
//! };
//! let bitcode = write_module(&module)?;
//! // Read back, the same model; written again, the same bytes.
//! let read = Module::parse(&bitcode)?;
//! assert_eq!(read, module);
//! assert_eq!(write_module(&read)?, bitcode);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod function;
mod module;

use super::writer::{StreamWriter, WriteError};
use dxcopy_read::bitcode::{Abbrev, AbbrevOp};
use dxcopy_read::dxil::Module;
use dxcopy_read::Program;
use std::rc::Rc;

/// Why a module could not be written exactly as dxc writes it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModuleWriteError {
    /// The model holds something dxc's writer does not write, or refers to
    /// an ID it does not define.
    #[error("{place}: {record}: {reason}")]
    Unwritable {
        /// The block (and function) being written.
        place: String,
        /// The record.
        record: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// A record does not fit the abbreviation dxc uses for it.
    #[error("{place}: {record}: {source}")]
    Stream {
        /// The block (and function) being written.
        place: String,
        /// The record.
        record: &'static str,
        /// The bitstream writer's error.
        source: WriteError,
    },
    /// The bitcode is larger than a program part's size fields can hold.
    #[error("the bitcode is larger than a program part can hold")]
    TooLarge,
}

/// Writes `module` as dxc writes a module: `BC 0xC0DE` and the module block.
pub fn write_module(module: &Module) -> Result<Vec<u8>, ModuleWriteError> {
    let mut e = Emitter::new(module);
    e.module_block()?;
    e.s.finish().map_err(|source| ModuleWriteError::Stream {
        place: "module".into(),
        record: "end of stream",
        source,
    })
}

/// Writes a program part (DXIL, ILDB, STAT) holding `module`, from the part
/// `template` (the part the module was read from): its header fields
/// (shader model and kind, `DXIL` magic, DXIL version, bitcode offset) and
/// any bytes around the bitcode (Xbox parts carry data after it) are kept,
/// the part and bitcode sizes follow the new bitcode. A part of a new
/// module without a template is [`dxcopy_read::program::build_program_data`].
pub fn write_program(template: &[u8], module: &Module) -> Result<Vec<u8>, ModuleWriteError> {
    let program = Program::parse_data(template, 0).map_err(|_| ModuleWriteError::Unwritable {
        place: "program header".into(),
        record: "DXIL program header",
        reason: "the template is not a program part",
    })?;
    let bitcode = write_module(module)?;
    let start = 8 + program.bitcode_offset as usize;
    if start < 24 {
        return Err(ModuleWriteError::Unwritable {
            place: "program header".into(),
            record: "DXIL program header",
            reason: "the bitcode overlaps the bitcode header",
        });
    }
    let old_end = start + program.bitcode.len();
    let (Some(head), Some(tail)) = (template.get(..start), template.get(old_end..)) else {
        return Err(ModuleWriteError::TooLarge);
    };
    let delta = bitcode.len() as i64 - program.bitcode.len() as i64;
    let words = i64::from(program.size_in_words) + delta / 4;
    let (Ok(words), Ok(size)) = (u32::try_from(words), u32::try_from(bitcode.len())) else {
        return Err(ModuleWriteError::TooLarge);
    };
    let mut out = Vec::with_capacity(head.len() + bitcode.len() + tail.len());
    out.extend_from_slice(head);
    out[4..8].copy_from_slice(&words.to_le_bytes());
    out[20..24].copy_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&bitcode);
    out.extend_from_slice(tail);
    Ok(out)
}

/// Block IDs.
mod block {
    pub const BLOCKINFO: u32 = 0;
    pub const MODULE: u32 = 8;
    pub const PARAMATTR: u32 = 9;
    pub const PARAMATTR_GROUP: u32 = 10;
    pub const CONSTANTS: u32 = 11;
    pub const FUNCTION: u32 = 12;
    pub const VALUE_SYMTAB: u32 = 14;
    pub const METADATA: u32 = 15;
    pub const METADATA_ATTACHMENT: u32 = 16;
    pub const TYPE: u32 = 17;
    pub const USELIST: u32 = 18;
}

/// The abbreviation IDs BLOCKINFO gives (4 is the first defined ID).
mod blockinfo {
    pub const VST_ENTRY_8: u32 = 4;
    pub const VST_ENTRY_7: u32 = 5;
    pub const VST_ENTRY_6: u32 = 6;
    pub const VST_BBENTRY_6: u32 = 7;
    pub const CONSTANTS_SETTYPE: u32 = 4;
    pub const CONSTANTS_INTEGER: u32 = 5;
    pub const CONSTANTS_CE_CAST: u32 = 6;
    pub const FUNCTION_INST_LOAD: u32 = 4;
    pub const FUNCTION_INST_BINOP: u32 = 5;
    pub const FUNCTION_INST_BINOP_FLAGS: u32 = 6;
    pub const FUNCTION_INST_CAST: u32 = 7;
    pub const FUNCTION_INST_RET_VOID: u32 = 8;
    pub const FUNCTION_INST_RET_VAL: u32 = 9;
    pub const FUNCTION_INST_UNREACHABLE: u32 = 10;
    pub const FUNCTION_INST_GEP: u32 = 11;
}

const UNABBREV: u32 = 3;

/// LLVM's `Log2_32_Ceil` (32 for 0).
fn log2_ceil(x: u64) -> u8 {
    let x = x as u32;
    if x == 0 {
        32
    } else {
        (32 - (x - 1).leading_zeros()) as u8
    }
}

/// LLVM's alignment field: `Log2_32(align) + 1`, 0 for none.
fn encode_align(align: u64) -> u64 {
    if align == 0 {
        0
    } else {
        u64::from(63 - align.leading_zeros()) + 1
    }
}

/// LLVM's `emitSignedInt64`: the magnitude shifted left, the sign in bit 0.
fn signed(v: i64) -> u64 {
    if v >= 0 {
        (v as u64) << 1
    } else {
        ((v as u64).wrapping_neg() << 1) | 1
    }
}

/// Whether every byte is a char6 character (`[a-zA-Z0-9._]`).
fn is_char6(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_')
}

/// The writer's state: the stream, the module, and the block being
/// written (for error messages).
struct Emitter<'m> {
    m: &'m Module,
    s: StreamWriter,
    place: String,
    vals: Vec<u64>,
    /// Bits of a type index (`computeBitsRequiredForTypeIndicies`).
    type_bits: u8,
}

impl<'m> Emitter<'m> {
    fn new(m: &'m Module) -> Emitter<'m> {
        Emitter {
            m,
            s: StreamWriter::new(),
            place: "module".into(),
            vals: Vec::new(),
            type_bits: log2_ceil(m.types.len() as u64 + 1),
        }
    }

    fn fail(&self, record: &'static str, reason: &'static str) -> ModuleWriteError {
        ModuleWriteError::Unwritable {
            place: self.place.clone(),
            record,
            reason,
        }
    }

    /// Emits the record in `self.vals` with `abbrev` (3: unabbreviated).
    fn emit(
        &mut self,
        record: &'static str,
        abbrev: u32,
        code: u32,
    ) -> Result<(), ModuleWriteError> {
        self.s
            .record(abbrev, code, &self.vals, None)
            .map_err(|source| ModuleWriteError::Stream {
                place: self.place.clone(),
                record,
                source,
            })?;
        self.vals.clear();
        Ok(())
    }

    /// Defines an abbreviation in the current block (or, in BLOCKINFO, for
    /// the block of the last SETBID).
    fn define(&mut self, ops: &[AbbrevOp]) -> Result<(), ModuleWriteError> {
        let abbrev =
            Abbrev::new(ops.to_vec()).map_err(|reason| self.fail("DEFINE_ABBREV", reason))?;
        self.s
            .define_abbrev(Rc::new(abbrev))
            .map_err(|source| ModuleWriteError::Stream {
                place: self.place.clone(),
                record: "DEFINE_ABBREV",
                source,
            })
    }

    fn end_block(&mut self) -> Result<(), ModuleWriteError> {
        self.s
            .end_block()
            .map_err(|source| ModuleWriteError::Stream {
                place: self.place.clone(),
                record: "END_BLOCK",
                source,
            })
    }

    /// A record of bytes (`WriteStringRecord`): `abbrev` when every byte is
    /// char6, unabbreviated otherwise.
    fn string_record(
        &mut self,
        record: &'static str,
        code: u32,
        bytes: &[u8],
        char6_abbrev: Option<u32>,
    ) -> Result<(), ModuleWriteError> {
        self.vals.extend(bytes.iter().map(|&b| u64::from(b)));
        let abbrev = match char6_abbrev {
            Some(a) if is_char6(bytes) => a,
            _ => UNABBREV,
        };
        self.emit(record, abbrev, code)
    }
}

#[cfg(test)]
mod tests;
