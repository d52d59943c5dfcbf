//! `--strip-bitcode-names` as an edit-plan operation: the names of the DXIL
//! and ILDB parts' bitcode are stripped with [`strip_names()`], and the changed
//! bitcode replaces the old through the plan, so HASH and digest upkeep see it
//! like any other program change.

use crate::bitcode::{strip_names, StripStats};
use crate::error::{EditError, Result};
use crate::plan::EditPlan;
use dxcopy_read::{PartName, Program};

/// Strips the names of the DXIL and ILDB parts of `plan` ([`strip_names()`]);
/// changed bitcode replaces the old through [`EditPlan::replace_bitcode`], so
/// the HASH part and the digest are kept up to date as for any DXIL change.
pub fn strip_plan_names(plan: &mut EditPlan<'_>) -> Result<StripStats> {
    let mut total = StripStats::default();
    for name in [PartName::DXIL, PartName::ILDB] {
        let Some(part) = plan.find(name) else {
            continue;
        };
        let program = Program::parse_data(part.bytes(), 0)
            .map_err(|source| EditError::NotAProgram { name, source })?;
        let (bitcode, stats) =
            strip_names(program.bitcode).map_err(|source| EditError::Bitcode { name, source })?;
        if stats.total() > 0 {
            plan.replace_bitcode(name, &bitcode)?;
        }
        total.struct_names += stats.struct_names;
        total.local_names += stats.local_names;
        total.global_names += stats.global_names;
    }
    Ok(total)
}
