//! `--set-validator-version=MAJOR.MINOR`: the module's `dx.valver` set to
//! another validator version, the bitcode written again as dxc writes it
//! (the model edited, numbered again and written: [`crate::bitcode`]), and
//! the parts that follow the validator version made again
//! ([`crate::rebuild::rebuild_parts`]: PSV0's version and size, HASH from
//! 1.5, part alignment from 1.7).
//!
//! dxc keeps `dx.valver` in the modules it writes into the container: the
//! DXIL program and the debug module ILDB carry the program's version and
//! are both changed; the reflection module STAT carries 0.0 (not validated)
//! and stays as it is. The program header holds the shader
//! model and DXIL version only: nothing in it follows the validator.
//!
//! 0.0 is what dxc writes into a module "not meant to ever be validated"
//! (`-validator-version 0.0`, offline library targets): dxc's version
//! comparison puts major 0 after every 1.x, so the parts are made as for
//! the newest validator, the DXIL version is not checked against it, and
//! dxc's validator refuses such a module. STAT always keeps dxc's 0.0.
//!
//! Refused (nothing changes): a version that is neither 1.x nor 0.0 (dxc
//! refuses 0.x with x > 0); a version older than the module's DXIL version (a validator 1.x validates
//! DXIL up to 1.x, shader model 6.x: dxc refuses such a pair); below 1.8 a
//! container with VERS (dxc writes it from 1.8; it holds the compiler's
//! version, which the module cannot give back); a library whose RDAT is not
//! derived from its module (`derive_rdat`: flags that need the resource
//! behind a handle). A library's RDAT is made again for the new version
//! (record deduplication from 1.7, the 1.8 function records), its
//! subobjects carried over. Setting the version the module already has
//! changes nothing.

use crate::bitcode::{
    add_constant, add_metadata, keeps_first_use_order, renumber_with, write_program,
};
pub use crate::error::ValidatorFailure;
use crate::error::{EditError, Result};
use crate::plan::EditPlan;
use crate::rebuild::{rebuild_parts, Rebuilt};
use dxcopy_read::dxil::derived::{derive_rdat, UNBOUND_VALIDATOR};
use dxcopy_read::dxil::metadata::DxilMetadata;
use dxcopy_read::dxil::{Constant, ConstantKind, Metadata, Module};
use dxcopy_read::ShaderKind;
use dxcopy_read::{PartName, Program};

/// What setting the validator version changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorChange {
    /// The module's version before (1.0 when it had none).
    pub from: (u32, u32),
    /// The version set.
    pub to: (u32, u32),
    /// The program parts whose module was written again.
    pub modules: Vec<PartName>,
    /// The derived parts made again.
    pub rebuilt: Rebuilt,
}

fn failure(reason: ValidatorFailure) -> EditError {
    EditError::SetValidatorVersion { reason }
}

/// The module of program part `name` in `plan`, if the part is there.
fn read_module(plan: &EditPlan<'_>, name: PartName) -> Result<Option<Module>> {
    let Some(part) = plan.find(name) else {
        return Ok(None);
    };
    let program = Program::parse_data(part.bytes(), 0)
        .map_err(|source| failure(ValidatorFailure::NotAProgram { name, source }))?;
    let module = Module::parse(program.bitcode)
        .map_err(|source| failure(ValidatorFailure::Module { name, source }))?;
    Ok(Some(module))
}

/// Sets the validator version of `plan`'s modules to `version` and makes
/// the derived parts again; `None` when the DXIL module already has it
/// (nothing changes). Nothing in the plan changes on error.
pub fn set_validator_version(
    plan: &mut EditPlan<'_>,
    version: (u32, u32),
) -> Result<Option<ValidatorChange>> {
    let (major, minor) = version;
    // dxc takes 1.x, and 0.0 for a module not meant to be validated; its
    // option parser refuses 0.x with x > 0.
    if major > 1 || (major == 0 && minor != 0) {
        return Err(failure(ValidatorFailure::NotAValidator { major, minor }));
    }
    let unbound = version == (0, 0);
    // The version the parts are shaped by (0.0 after every 1.x).
    let shaped = if unbound { UNBOUND_VALIDATOR } else { version };
    let dxil = read_module(plan, PartName::DXIL)?.ok_or(failure(ValidatorFailure::NoProgram))?;
    let metadata =
        DxilMetadata::read(&dxil).map_err(|_| failure(ValidatorFailure::NoValidatorVersion))?;
    let from = metadata.validator_version.unwrap_or((1, 0));
    if from == version {
        return Ok(None);
    }
    // dxc checks the DXIL version against a validator it will run, not
    // against 0.0.
    if let Some((dxil_major, dxil_minor)) = metadata.dxil_version.filter(|_| !unbound) {
        if (dxil_major, dxil_minor) > version {
            return Err(failure(ValidatorFailure::TooOld {
                major,
                minor,
                dxil_major,
                dxil_minor,
            }));
        }
    }
    if shaped < (1, 8) && plan.find(PartName::VERS).is_some() {
        return Err(failure(ValidatorFailure::VersBelow18 { major, minor }));
    }
    let library = metadata
        .shader_model
        .as_ref()
        .is_some_and(|sm| sm.kind == Some(ShaderKind::Library));
    let library_rdat = match plan.find(PartName::RDAT) {
        Some(rdat) if library => Some(rdat.bytes().to_vec()),
        _ => None,
    };
    let mut rewritten: Vec<(PartName, Vec<u8>)> = Vec::new();
    for name in [PartName::DXIL, PartName::ILDB, PartName::STAT] {
        let module = if name == PartName::DXIL {
            Some(dxil.clone())
        } else {
            read_module(plan, name)?
        };
        let Some(mut module) = module else { continue };
        // dxc writes the reflection module (STAT) with validator 0.0 whatever
        // the program's version, so it stays; the debug module follows the
        // program where it has the program's version.
        if name == PartName::STAT
            || (name != PartName::DXIL
                && DxilMetadata::read(&module)
                    .ok()
                    .and_then(|m| m.validator_version)
                    != metadata.validator_version)
        {
            continue;
        }
        // Whether dxc sorted the constants is read before the edit, which
        // changes the use counts the reading compares with.
        let preserve = keeps_first_use_order(&module)
            .map_err(|source| failure(ValidatorFailure::Renumber { name, source }))?;
        if !set_valver(&mut module, version) {
            if name == PartName::DXIL {
                return Err(failure(ValidatorFailure::NoValidatorVersion));
            }
            continue;
        }
        renumber_with(&mut module, preserve)
            .map_err(|source| failure(ValidatorFailure::Renumber { name, source }))?;
        if name == PartName::DXIL {
            if let Some(rdat) = &library_rdat {
                // The RDAT follows the version: it must come from the module.
                let edited = DxilMetadata::read(&module)
                    .map_err(|_| failure(ValidatorFailure::NoValidatorVersion))?;
                derive_rdat(&module, &edited, Some(rdat))
                    .map_err(|source| failure(ValidatorFailure::LibraryRdat { source }))?;
            }
        }
        let template = plan.find(name).map(|p| p.bytes()).unwrap_or_default();
        let bytes = write_program(template, &module)
            .map_err(|source| failure(ValidatorFailure::Write { name, source }))?;
        rewritten.push((name, bytes));
    }
    let modules = rewritten.iter().map(|(n, _)| *n).collect();
    // rebuild_parts changes nothing on error: keep the modules' old bytes
    // until it has run on a copy of the plan's parts.
    let saved = plan.parts_mut().clone();
    for (name, bytes) in rewritten {
        if let Some(part) = plan.parts_mut().iter_mut().find(|p| p.name == name) {
            part.replace_data(bytes);
        }
    }
    match rebuild_parts(plan) {
        Ok(rebuilt) => Ok(Some(ValidatorChange {
            from,
            to: version,
            modules,
            rebuilt,
        })),
        Err(e) => {
            *plan.parts_mut() = saved;
            Err(e)
        }
    }
}

/// Points `dx.valver` at a new node `!{i32 major, i32 minor}` (the old node
/// may be `dx.version`'s too: LLVM unifies equal nodes); whether the module
/// has a `dx.valver` of two integers.
fn set_valver(module: &mut Module, (major, minor): (u32, u32)) -> bool {
    let Some(named) = module
        .named_metadata
        .iter()
        .position(|n| n.name == b"dx.valver")
    else {
        return false;
    };
    let Some(&node) = module.named_metadata[named].operands.first() else {
        return false;
    };
    let ty = match module.metadata_node(node) {
        Some([Some(a), Some(_)]) => match module.metadata(*a) {
            Some(Metadata::Value { ty, .. }) => *ty,
            _ => return false,
        },
        _ => return false,
    };
    let mut operands = Vec::with_capacity(2);
    for v in [major, minor] {
        let value = add_constant(
            module,
            Constant {
                ty,
                kind: ConstantKind::Integer(i64::from(v)),
            },
        );
        operands.push(Some(add_metadata(module, Metadata::Value { ty, value })));
    }
    let new = add_metadata(
        module,
        Metadata::Node {
            distinct: false,
            operands,
        },
    );
    module.named_metadata[named].operands[0] = new;
    true
}

/// Reads `MAJOR.MINOR`.
pub fn parse_version(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || !digits(minor) {
        return None;
    }
    Some((major.parse().ok()?, minor.parse().ok()?))
}
