//! The edit pipeline, driven in one straight line by [`EditPlan::finish`]:
//! parts → plan → HASH upkeep → digest decision → layout → writers. Each step
//! lives in its own file and imports only the steps before it; this driver is
//! the only file that imports them all.

use crate::digest_decision::DigestDecision;
use crate::error::Result;
use crate::hash_upkeep::upkeep_hash;
use crate::layout::Layout;
use crate::output::Output;
use crate::parts::program_changed;
use crate::plan::{EditPlan, Planned};
use dxcopy_read::PartName;

impl<'data> EditPlan<'data> {
    /// Lays out the parts, applies the HASH and digest policies and returns the
    /// output, ready to write. Warnings are collected in [`Output::warnings`].
    pub fn finish(mut self) -> Result<Output<'data>> {
        let mut warnings = Vec::new();
        warnings.extend(self.place_private_last()?);
        let Planned {
            input,
            version,
            mut parts,
            digest_policy,
            hash_policy,
            align_placed_parts,
            input_digest_kind,
        } = self.into_planned();
        upkeep_hash(&mut parts, input.as_ref(), hash_policy, &mut warnings)?;
        let digest = DigestDecision::decide(
            digest_policy,
            input.map(|c| c.header().digest),
            input_digest_kind,
            program_changed(&parts, input.as_ref(), PartName::DXIL),
            warnings,
        );
        let layout = Layout::new(
            version,
            parts,
            align_placed_parts,
            &input.map(|c| c.padded_parts()).unwrap_or_default(),
        )?;
        Ok(Output::new(layout, input.map(|c| c.data()), digest))
    }
}
