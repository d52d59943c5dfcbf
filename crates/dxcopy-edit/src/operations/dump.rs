//! Reading parts out: `--dump-section` (part data, or the bitcode of program
//! parts) and `--extract-section` (a one-part container).

use crate::error::{EditError, Result};
use crate::matcher::NameMatcher;
use crate::parts::{PartData, PlanPart};
use crate::plan::EditPlan;
use dxcopy_read::{program, Container, Part, PartName, Program, ReadError};
use std::borrow::Cow;

/// What `dump` returns for a part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DumpMode {
    /// Program parts (DXIL, ILDB, and a STAT that is a program part) give their
    /// LLVM bitcode, located by the bitcode header; other parts their data.
    #[default]
    Bitcode,
    /// The exact part data.
    Raw,
    /// `--dump-bitcode`: the bitcode of a program part with its data layout
    /// fixed so that LLVM 17+ reads it ([`crate::bitcode::fix_data_layout`]).
    FixedBitcode,
}

/// Whether `part` is dumped as bitcode in [`DumpMode::Bitcode`].
pub fn dumps_as_bitcode(part: &Part<'_>) -> bool {
    part.name == PartName::DXIL
        || part.name == PartName::ILDB
        || (part.name == PartName::STAT && program::is_program_data(part.data))
}

/// The first part matching `matcher` (`what` names it in the not-found error).
pub fn first_match<'data>(
    container: &Container<'data>,
    matcher: &NameMatcher,
    what: &str,
) -> Result<Part<'data>> {
    container
        .parts()
        .find(|p| matcher.matches(&p.name))
        .ok_or_else(|| ReadError::part_not_found(what).into())
}

/// The bytes `--dump-section` (or `--dump-bitcode`) writes for the first
/// part matching `matcher`. Zero-copy except for a fixed data layout: a slice
/// of the input. In [`DumpMode::Bitcode`] and [`DumpMode::FixedBitcode`] an
/// empty result is an error, as in llvm-objcopy; [`DumpMode::Raw`] gives the
/// exact part data, empty or not.
pub fn dump<'data>(
    container: &Container<'data>,
    matcher: &NameMatcher,
    what: &str,
    mode: DumpMode,
) -> Result<Cow<'data, [u8]>> {
    let part = first_match(container, matcher, what)?;
    let bytes = match mode {
        DumpMode::Bitcode if dumps_as_bitcode(&part) => Program::parse(&part)?.bitcode,
        DumpMode::Bitcode | DumpMode::Raw => part.data,
        DumpMode::FixedBitcode => {
            if !dumps_as_bitcode(&part) {
                return Err(EditError::NotBitcode(part.name));
            }
            let bitcode = Program::parse(&part)?.bitcode;
            if bitcode.is_empty() {
                return Err(EditError::EmptyPart(part.name));
            }
            let fix =
                crate::bitcode::fix_data_layout(bitcode).map_err(|source| EditError::Bitcode {
                    name: part.name,
                    source,
                })?;
            return Ok(fix.bytes);
        }
    };
    if bytes.is_empty() && mode == DumpMode::Bitcode {
        return Err(EditError::EmptyPart(part.name));
    }
    Ok(Cow::Borrowed(bytes))
}

/// A plan for a one-part container holding the first part matching `matcher`,
/// with the input's version; the digest follows the plan's policy (auto:
/// re-signed with the input's kind; keep: llvm-objcopy's copied digest).
pub fn extract<'data>(
    container: &Container<'data>,
    matcher: &NameMatcher,
    what: &str,
) -> Result<EditPlan<'data>> {
    let part = first_match(container, matcher, what)?;
    let mut plan = EditPlan::from_container(container);
    let keep = PlanPart {
        name: part.name,
        data: PartData::Borrowed(part.data),
        source: Some(part.index),
        kept: false,
    };
    let parts = plan.parts_mut();
    parts.clear();
    parts.push(keep);
    Ok(plan)
}
