//! Writing LLVM bitcode: a bitstream writer, re-emission of a read stream
//! with record edits, and the two edits dxcopy makes — the data layout fix
//! that lets LLVM 17+ read dxc's bitcode ([`datalayout`]) and name stripping
//! ([`strip_names()`]).
//!
//! ```
//! use dxcopy_edit::bitcode::{rewrite, RecordEdit};
//! // `BC C0DE` and one empty block 8.
//! let bytes = [0x42, 0x43, 0xc0, 0xde, 0x21, 0x0c, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
//! let same = rewrite(&bytes, |_, _| RecordEdit::Keep)?;
//! assert_eq!(same, bytes);
//! # Ok::<(), dxcopy_edit::bitcode::RewriteError>(())
//! ```

pub mod datalayout;
pub mod dxil_writer;
pub mod renumber;
pub mod rewrite;
pub mod strip_names;
#[cfg(test)]
mod tests;
pub mod writer;

pub use datalayout::{fix_data_layout, fixed_layout, LayoutFix};
pub use dxil_writer::{write_module, write_program, ModuleWriteError};
pub use renumber::{
    add_constant, add_metadata, keeps_first_use_order, renumber, renumber_with, RenumberError,
    RenumberStats,
};
pub use rewrite::{rewrite, NewRecord, RecordEdit, RewriteError};
pub use strip_names::{strip_names, StripStats};
pub use writer::{BitWriter, StreamWriter, WriteError};
