//! Reading DXIL metadata operands as dxc's `DxilMDHelper` does
//! (`ConstMDToUint32`, `StringMDToString`, …), with typed errors instead of
//! its exceptions.

use super::{MetadataError, Result};
use crate::budget::Budget;
use crate::dxil::model::{Metadata, MetadataId, Module, TypeId, ValueId};

/// The module being read and the reading's work budget: every node's
/// operands are paid for each time a reading reaches the node, so a DAG of
/// shared nodes read as a tree stops at the budget
/// ([`MetadataError::OverBudget`]).
pub(crate) struct Md<'m> {
    pub module: &'m Module,
    pub budget: &'m Budget,
}

impl std::ops::Deref for Md<'_> {
    type Target = Module;
    fn deref(&self) -> &Module {
        self.module
    }
}

impl Md<'_> {
    /// Pays `units` for what was reached at `id`.
    pub(crate) fn spend(&self, id: MetadataId, units: u64) -> Result<()> {
        self.budget
            .spend(units)
            .map_err(|e| MetadataError::OverBudget { id, limit: e.limit })
    }
}

/// The operands of node `id` (`what` names the node in an error).
pub(crate) fn node<'m>(
    module: &Md<'m>,
    id: MetadataId,
    what: &'static str,
) -> Result<&'m [Option<MetadataId>]> {
    let operands = module
        .module
        .metadata_node(id)
        .ok_or(MetadataError::NotANode { what, id })?;
    module.spend(id, 8 * (operands.len() as u64 + 1))?;
    Ok(operands)
}

/// Node operand `index`, which may be null (`None`); an error when the node
/// has fewer operands.
pub(crate) fn operand(
    operands: &[Option<MetadataId>],
    index: usize,
    what: &'static str,
) -> Result<Option<MetadataId>> {
    operands
        .get(index)
        .copied()
        .ok_or(MetadataError::MissingOperand { what, index })
}

/// Node operand `index`, which must be present and not null.
pub(crate) fn required(
    operands: &[Option<MetadataId>],
    index: usize,
    what: &'static str,
) -> Result<MetadataId> {
    operand(operands, index, what)?.ok_or(MetadataError::MissingOperand { what, index })
}

/// The integer operand `id` wraps, as a signed 64-bit value.
pub(crate) fn int(module: &Md<'_>, id: MetadataId, what: &'static str) -> Result<i64> {
    module
        .metadata_int(id)
        .ok_or(MetadataError::NotAnInteger { what, id })
}

/// The integer truncated to 32 bits, as `ConstMDToUint32` reads it.
pub(crate) fn uint(module: &Md<'_>, id: MetadataId, what: &'static str) -> Result<u32> {
    Ok(low_u32(int(module, id, what)?))
}

/// The low 32 bits of a metadata integer (dxc reads every integer field
/// through `getZExtValue` into an `unsigned`).
pub(crate) fn low_u32(value: i64) -> u32 {
    (value as u64 & 0xffff_ffff) as u32
}

/// Operand `index` as a 32-bit unsigned integer.
pub(crate) fn uint_at(
    module: &Md<'_>,
    operands: &[Option<MetadataId>],
    index: usize,
    what: &'static str,
) -> Result<u32> {
    uint(module, required(operands, index, what)?, what)
}

/// Operand `index` as a flag (any non-zero integer).
pub(crate) fn bool_at(
    module: &Md<'_>,
    operands: &[Option<MetadataId>],
    index: usize,
    what: &'static str,
) -> Result<bool> {
    Ok(int(module, required(operands, index, what)?, what)? != 0)
}

/// The string `id` is.
pub(crate) fn string(module: &Md<'_>, id: MetadataId, what: &'static str) -> Result<Vec<u8>> {
    let text = module
        .metadata_string(id)
        .ok_or(MetadataError::NotAString { what, id })?;
    module.spend(id, text.len() as u64 + 8)?;
    Ok(text.to_vec())
}

/// Operand `index` as a string; a null operand reads as the empty string.
pub(crate) fn string_at(
    module: &Md<'_>,
    operands: &[Option<MetadataId>],
    index: usize,
    what: &'static str,
) -> Result<Vec<u8>> {
    match operand(operands, index, what)? {
        Some(id) => string(module, id, what),
        None => Ok(Vec::new()),
    }
}

/// The value metadata `id` wraps, with its type (`None` for other metadata).
pub(crate) fn value(module: &Md<'_>, id: MetadataId) -> Option<(TypeId, ValueId)> {
    match module.metadata(id)? {
        Metadata::Value { ty, value } => Some((*ty, *value)),
        _ => None,
    }
}

/// A node of integers, as `ConstMDTupleToUint32Vector` reads it.
pub(crate) fn uint_list(module: &Md<'_>, id: MetadataId, what: &'static str) -> Result<Vec<u32>> {
    node(module, id, what)?
        .iter()
        .map(|operand| {
            let id = operand.ok_or(MetadataError::MissingOperand { what, index: 0 })?;
            uint(module, id, what)
        })
        .collect()
}

/// A tag/value list (`!{i32 tag, value, i32 tag, value, …}`) as pairs; an
/// error when the count is odd or a tag is not an integer.
pub(crate) fn tag_values(
    module: &Md<'_>,
    id: Option<MetadataId>,
    what: &'static str,
) -> Result<Vec<(u32, Option<MetadataId>)>> {
    let Some(id) = id else {
        return Ok(Vec::new());
    };
    let operands = node(module, id, what)?;
    if operands.len() % 2 != 0 {
        return Err(MetadataError::OddTagList { what, id });
    }
    operands
        .chunks_exact(2)
        .map(|pair| {
            let tag = pair[0].ok_or(MetadataError::MissingOperand { what, index: 0 })?;
            Ok((uint(module, tag, what)?, pair[1]))
        })
        .collect()
}
