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

/// Whether `plan` keeps a STAT part holding bitcode (dxc's copy of the
/// shader with reflection), whose names [`strip_plan_names`] leaves alone.
pub fn stat_keeps_names(plan: &EditPlan<'_>) -> bool {
    plan.find(PartName::STAT)
        .is_some_and(|part| Program::parse_data(part.bytes(), 0).is_ok())
}

#[cfg(test)]
mod tests {
    use crate::{Config, EditWarning, Edits, StripClass};

    /// examples/sample.dxil holds DXIL, ILDB and a dxc STAT with bitcode.
    const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");

    fn warns(config: Config) -> bool {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.dxil");
        let report = config
            .run(std::path::Path::new(SAMPLE), Some(&out))
            .unwrap();
        report
            .warnings
            .contains(&EditWarning::StatKeepsBitcodeNames)
    }

    /// A kept STAT keeps its names: the run says so, unless STAT goes.
    #[test]
    fn a_kept_stat_part_is_named_when_bitcode_names_are_stripped() {
        let names = || Config {
            edits: Edits {
                strip_bitcode_names: true,
                ..Edits::default()
            },
            ..Config::default()
        };
        assert!(warns(names()));
        assert!(!warns(Config {
            edits: Edits {
                strip: vec![StripClass::Reflect],
                ..names().edits
            },
            ..names()
        }));
        assert!(!warns(Config {
            edits: Edits {
                remove: vec!["STAT".into()],
                ..names().edits
            },
            ..names()
        }));
        assert!(warns(Config {
            edits: Edits {
                strip: vec![StripClass::Reflect],
                ..names().edits
            },
            keep: vec!["STAT".into()],
            ..names()
        }));
        // Without --strip-bitcode-names there is nothing to say.
        assert!(!warns(Config::default()));
        assert_eq!(
            EditWarning::StatKeepsBitcodeNames.to_string(),
            "the STAT part keeps its bitcode names (stripping bitcode names strips DXIL and ILDB; STAT holds a copy of the shader's bitcode with reflection); use the reflection strip class to remove it"
        );
    }
}
