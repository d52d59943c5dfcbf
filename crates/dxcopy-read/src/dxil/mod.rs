//! The DXIL module: the whole LLVM 3.7 module a DXIL, ILDB or STAT part
//! carries, as a typed model ([`model`]) read from the bitcode without LLVM
//! (docs/format/dxil-module.md).
//!
//! The model keeps what LLVM 3.7's AsmWriter needs to print the module as
//! dxc does: the type table, globals, functions with their bodies, value
//! numbering, constants, attribute groups and lists, and metadata with its
//! debug-info nodes. [`ops`] is dxc's operation table, [`facts`] the module facts the
//! views read, [`derived`] the container parts dxc derives from the module,
//! and [`crate::listing::dxil::ir`] prints the module as dxc's disassembler
//! does.

pub mod derived;
pub mod facts;
pub mod metadata;
pub mod model;
pub mod ops;
mod reader;
#[cfg(test)]
pub(crate) mod test_module;
#[cfg(test)]
mod tests;

pub use reader::{metadata_record_offsets, ReadOptions};
pub(crate) use reader::{Bodies, Outline, OutlinedModule};

pub use model::*;
