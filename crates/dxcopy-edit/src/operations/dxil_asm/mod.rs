//! Assembling LLVM 3.7 assembly — the module text dxc prints (`dxc
//! -dumpbin`, `-Fc`, `dxinfo --disasm`) — back into the DXIL module model,
//! numbered as dxc's writer numbers it, so that
//! [`crate::bitcode::write_module`] gives the bitcode dxc would
//! (docs/format/dxil-assembler.md).
//!
//! The parser sits in the editing crate, beside the writer and the
//! renumbering it needs: reading text is the first step of writing a
//! module, and the model it fills is the reader's, shared, not copied.
//!
//! - [`parse_module`]: text to model, checking names, numbers and types as
//!   LLVM's parser does; errors carry the line and column.
//! - [`assemble_module`]: [`parse_module`], then what the text does not
//!   carry and dxc's writer derives: the value and metadata numbering
//!   ([`crate::bitcode::renumber_with`]), the type table's order and the
//!   attribute groups and lists in the enumerator's order. The metadata
//!   kinds a module registers but never uses are not in the text: a
//!   template module (the one the text was printed from) gives them.
//!
//! The lexer reads one token at a time and types and constants may nest
//! at most [`MAX_DEPTH`] levels: a hostile text costs time and memory in
//! proportion to its length, and the parser's recursion depth is bounded.
//!
//! ```
//! use dxcopy_edit::dxil_asm::assemble_module;
//! let text = "target triple = \"dxil-ms-dx\"\n\
//!             define void @main() {\n  ret void\n}\n";
//! let module = assemble_module(text, None)?;
//! assert_eq!(module.functions[0].name(), b"main");
//! # Ok::<(), dxcopy_edit::dxil_asm::ParseError>(())
//! ```

mod body;
mod container;
mod debug;
mod finish;
mod lex;
mod order;
mod parse;
#[cfg(test)]
mod tests;

use dxcopy_read::dxil::Module;

pub use container::{
    build_dxil_container, check_dxil_round_trip, listing_kind, patch_dxil_container, DxilAsmError,
    DxilAsmWarning, DxilPatched, DxilRoundTrip, ListingKind,
};
pub use parse::MAX_DEPTH;

/// An error in the text: where (1-based line and column) and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: error: {message}")]
pub struct ParseError {
    /// The line.
    pub line: u32,
    /// The column (in bytes).
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    /// The error as a compiler prints it, after the file's name
    /// (`edited.ll:812:17: error: …`).
    pub fn in_file(&self, file: &str) -> String {
        format!("{file}:{self}")
    }
}

/// The module the text describes, in the parser's numbering (global
/// values as defined, constants as met, no attribute lists yet resolved
/// into dxc's order): what [`assemble_module`] starts from.
pub fn parse_module(text: &str) -> Result<Module, ParseError> {
    let mut p = parse::Parser::new(text)?;
    p.parse_module()?;
    Ok(p.m)
}

/// The module the text describes, numbered and ordered as dxc's writer
/// would (ready for [`crate::bitcode::write_module`]). `template`, the
/// module the text was printed from, gives what the text cannot: the
/// metadata kinds the module registers (used or not) and the order of the
/// symbol tables of the releases that did not sort them.
pub fn assemble_module(text: &str, template: Option<&Module>) -> Result<Module, ParseError> {
    let mut m = parse_module(text)?;
    finish::canonical_order(&mut m, template).map_err(|message| ParseError {
        line: 1,
        column: 1,
        message,
    })?;
    Ok(m)
}
