//! A DXIL module as dxc's disassembler prints it: LLVM 3.7's AsmWriter with
//! dxc's annotation writer (the `; OpName(args)` comment after each `dx.op`
//! call, and ` ; line:` / ` ; var:` comments for debug modules)
//! (docs/format/dxil-listing.md).
//!
//! The printer walks a [`Module`] the way LLVM 3.7 does: the TypeFinder's
//! order for the named struct types, the SlotTracker's numbering for
//! unnamed values, metadata nodes and attribute groups, and the writer's
//! spelling for every instruction, constant and debug-info node. A module
//! that could not be read has no listing. The container listing reads the
//! module outlined (each body checked whole, its instructions not kept) and
//! the printer reads each function's instructions again as it prints them,
//! one at a time: the listing of a large module never holds all of its
//! instructions (docs/format/dxil-listing.md, "Memory").

pub mod dwarf;
mod metadata;
pub mod number;
mod slots;
mod write;

#[cfg(test)]
mod tests;

use super::release::{DxcRelease, ListingRule, ReleaseOrigin};
use crate::dxil::model::Module;
use crate::dxil::ops::OpRelease;
use crate::dxil::OutlinedModule;

/// What the dxc release that wrote a module prints differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsmOptions {
    /// The release whose operation names the `dx.op` comments use (`None`:
    /// the newest).
    pub release: Option<OpRelease>,
    /// ` ; line:N col:M` after instructions with a debug location and
    /// ` ; var:"name" !DIExpression(…)` after `llvm.dbg.*` calls (dxc
    /// 1.5.2010 on).
    pub debug_comments: bool,
    /// ` func:"name"` at the end of the ` ; var:` comment (dxc 1.6.2112 on).
    pub variable_function: bool,
    /// ` ; bit offset N` at the end of each instruction: the bit offset of
    /// its record from the start of the bitcode. Not dxc's: what
    /// `--disasm-offsets` prints for DXIL, where dxc prints nothing.
    /// Printed for a module read with its bodies outlined
    /// (`write_outlined_text`), the one whose records are read again.
    pub record_offsets: bool,
}

impl AsmOptions {
    /// The options of `release` (`None`: the newest release).
    pub fn for_release(release: Option<OpRelease>) -> AsmOptions {
        let since = |first: OpRelease| release.is_none_or(|have| have >= first);
        AsmOptions {
            release,
            debug_comments: since((1, 5, 2010)),
            variable_function: since((1, 6, 2112)),
            record_offsets: false,
        }
    }
}

impl From<&DxcRelease> for AsmOptions {
    /// The options of the release that wrote a file (rules by release, or
    /// by build month for builds known by their month). A version line
    /// known without its month (`clang version 3.7` with `dx.valver` 1.6)
    /// gets ` func:` from 1.7 on: two of the three 1.6 releases (2104, 2106)
    /// print none.
    fn from(release: &DxcRelease) -> AsmOptions {
        let (major, minor, month) = release.version();
        let variable_function = match release.origin {
            ReleaseOrigin::Line => (release.major, release.minor) >= (1, 7),
            _ => release.has(ListingRule::DebugVariableFunction),
        };
        AsmOptions {
            release: Some((major, minor, u32::from(month))),
            debug_comments: release.has(ListingRule::DebugLineComments),
            variable_function,
            record_offsets: false,
        }
    }
}

impl Default for AsmOptions {
    fn default() -> AsmOptions {
        AsmOptions::for_release(None)
    }
}

/// Why a module has no listing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AsmError {
    /// Its types or constants would print more than `nodes` nodes: shared
    /// parts nested level after level, which only a hostile module has.
    #[error(
        "the module's types and constants print more than {nodes} nodes (nested shared parts)"
    )]
    TooLarge {
        /// The budget.
        nodes: u64,
    },
    /// Its types or constants nest deeper than `limit` levels (a type that
    /// contains itself, a constant expression chain no compiler writes).
    #[error("the module's {what} nest more than {limit} levels deep")]
    TooDeep {
        /// Types or constants.
        what: &'static str,
        /// [`crate::budget::MAX_NESTING`].
        limit: usize,
    },
    /// A function body read again for printing (the listing reads each
    /// body twice so as not to hold them all) did not decode as it did
    /// the first time.
    #[error("{0}")]
    Read(#[from] crate::bitcode::BitcodeError),
}

/// The module's text, from `target datalayout` to the last metadata node,
/// as dxc prints it after its comment header.
pub fn module_text(module: &Module, options: &AsmOptions) -> Result<String, AsmError> {
    let mut out = String::new();
    write_module_text(module, options, &mut out)?;
    Ok(out)
}

/// [`module_text`] appended to `out` (no second copy of the text); on
/// error `out` is left as it was.
pub fn write_module_text(
    module: &Module,
    options: &AsmOptions,
    out: &mut String,
) -> Result<(), AsmError> {
    print_into(
        write::Printer::new(module, options, std::mem::take(out)),
        out,
    )
}

/// [`module_text`] written to `out` as it is printed, a few KiB at a time,
/// so the whole text is never held in memory (what a listing of many
/// modules to a file or a pipe wants). The outer `Err` is a write error;
/// the inner one is the node budget's ([`AsmError::TooLarge`]): then the
/// text printed before the budget ran out may have been written, and
/// nothing after it.
pub fn write_module_to(
    module: &Module,
    options: &AsmOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Result<(), AsmError>> {
    print_to_sink(write::Printer::new(module, options, String::new()).with_sink(out))
}

/// [`write_module_text`] for a module read outlined: each function's
/// instructions are read again as they are printed, so that they are never
/// all held at once.
pub(crate) fn write_outlined_text(
    source: &OutlinedModule<'_>,
    options: &AsmOptions,
    out: &mut String,
) -> Result<(), AsmError> {
    print_into(
        write::Printer::outlined(source, options, std::mem::take(out)),
        out,
    )
}

/// [`write_module_to`] for a module read outlined (see
/// [`write_outlined_text`]).
#[cfg(test)]
pub(crate) fn write_outlined_to(
    source: &OutlinedModule<'_>,
    options: &AsmOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Result<(), AsmError>> {
    print_to_sink(write::Printer::outlined(source, options, String::new()).with_sink(out))
}

/// Prints the module after the text `printer` was given (taken from
/// `out`), and puts the text back in `out`; on error `out` is left as it
/// was.
fn print_into(mut printer: write::Printer<'_>, out: &mut String) -> Result<(), AsmError> {
    let start = printer.text_len();
    printer.print_module();
    let (text, result) = printer.into_text();
    *out = text;
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Prints the module to the printer's sink (see [`write_module_to`]).
fn print_to_sink(mut printer: write::Printer<'_>) -> std::io::Result<Result<(), AsmError>> {
    printer.print_module();
    if let Some(e) = printer.take_sink_error() {
        return Err(e);
    }
    let (_, result) = printer.into_text();
    Ok(result)
}
