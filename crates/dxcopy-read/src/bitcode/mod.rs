//! LLVM bitstream reader for the bitcode in DXIL, ILDB and dxc STAT parts
//! (docs/format/bitcode.md; facts from LLVM's BitCodeFormat.rst and dxc's
//! LLVMBitCodes.h).
//!
//! [`Bitcode::parse`] checks the magic and the optional wrapper header;
//! [`StreamReader`] walks blocks, abbreviation definitions (BLOCKINFO
//! included) and records without copying: a [`Record`] re-reads its fields
//! from the borrowed bytes. Every read is bounds-checked against the stream
//! and the enclosing block's length word, every error is a [`BitcodeError`]
//! with its bit offset, and no count read from the stream sizes an
//! allocation. [`ModuleFacts`](crate::dxil::facts::ModuleFacts) decodes what a DXIL module declares
//! (triple, layout, `dx.*` named metadata, functions) without LLVM.
//!
//! ```
//! use dxcopy_read::bitcode::{Bitcode, Entry};
//! // `BC C0DE`, then one empty block 8 (ENTER_SUBBLOCK, id 8, width 3, length 1, END_BLOCK).
//! let bytes = [0x42, 0x43, 0xc0, 0xde, 0x21, 0x0c, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
//! let bitcode = Bitcode::parse(&bytes)?;
//! let mut reader = bitcode.reader();
//! let Some(Entry::EnterBlock(block)) = reader.next_entry()? else { panic!() };
//! assert_eq!((block.block_id, block.abbrev_width, block.length_words), (8, 3, 1));
//! assert!(matches!(reader.next_entry()?, Some(Entry::EndBlock { block_id: 8, .. })));
//! assert!(reader.next_entry()?.is_none());
//! # Ok::<(), dxcopy_read::bitcode::BitcodeError>(())
//! ```

pub mod abbrev;
pub mod bits;
pub mod codes;
pub mod error;
pub mod reader;
#[cfg(test)]
mod tests;

pub use abbrev::{Abbrev, AbbrevOp};
pub use error::{BitcodeError, BitcodeErrorKind};
pub use reader::{
    abbrev_id, decode_char6, encode_char6, Bitcode, BlockHeader, Entry, Field, FieldSpan, Layout,
    Record, StreamReader, WrapperHeader,
};
