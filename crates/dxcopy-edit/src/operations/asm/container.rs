//! Containers from assembled listings: a new one ([`build_container`]), an
//! existing one patched ([`patch_container`]), and the round-trip check
//! ([`check_round_trip`]).

use super::signature::SignatureTable;
use super::stat::recompute_statistics;
use super::{assemble, assemble_with, AsmError, AsmOptions, Assembly, FloatHints};
use crate::error::EditError;
use crate::plan::EditPlan;
use crate::policy::{DigestPolicy, HashPolicy};
use dxcopy_read::listing::dxbc::{self, sm4, ListingOptions};
use dxcopy_read::signature::Signature;
use dxcopy_read::{Container, PartName};

/// Why assembling into a container failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DxasmError {
    /// The listing does not assemble.
    #[error(transparent)]
    Asm(#[from] AsmError),
    /// The container could not be edited or written.
    #[error(transparent)]
    Edit(#[from] EditError),
    /// The container (`--into`, `--check`) has no SHDR/SHEX program.
    #[error(transparent)]
    Disasm(#[from] dxbc::DisasmError),
}

/// Something [`patch_container`] did that the caller should hear about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AsmWarning {
    /// The program changed and STAT's counts could not all be derived
    /// from it: STAT was removed rather than left stale.
    StatDropped,
    /// The program changed and STAT was recomputed from it.
    StatRecomputed,
    /// A signature table of the listing differs from the container's part,
    /// which was replaced.
    SignatureReplaced(PartName),
    /// The listing has a signature table the container lacks: the part was
    /// added.
    SignatureAdded(PartName),
}

impl std::fmt::Display for AsmWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AsmWarning::StatDropped => f.write_str(
                "the program changed and STAT's counts cannot all be derived from it: STAT removed",
            ),
            AsmWarning::StatRecomputed => {
                f.write_str("the program changed: STAT recomputed from it")
            }
            AsmWarning::SignatureReplaced(name) => {
                write!(
                    f,
                    "the listing's {name} table differs from the container's: {name} replaced"
                )
            }
            AsmWarning::SignatureAdded(name) => write!(f, "{name} added from the listing"),
        }
    }
}

/// A patched container and what was done to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patched {
    /// The container's bytes, signed.
    pub bytes: Vec<u8>,
    /// Whether the program part's bytes changed.
    pub program_changed: bool,
    /// Notes for the user.
    pub warnings: Vec<AsmWarning>,
}

/// A new container from an assembled listing: its signature parts (in
/// listing order) and program part, signed with the retail digest. No
/// RDEF: a listing does not carry all of it.
pub fn build_container(assembly: &Assembly) -> Result<Vec<u8>, DxasmError> {
    let mut plan = EditPlan::new();
    plan.digest_policy = DigestPolicy::Retail;
    plan.hash_policy = HashPolicy::Keep;
    for table in &assembly.signatures {
        let name = table.part_name();
        if plan.find(name).is_none() {
            plan.add(name, table.to_part(name))?;
        }
    }
    plan.add(assembly.program_part(), assembly.program.clone())?;
    Ok(plan.finish()?.to_vec())
}

/// The signature part of `container` that fills `table`'s role, if any.
fn matching_part<'c>(
    container: &Container<'c>,
    table: &SignatureTable,
) -> Option<dxcopy_read::Part<'c>> {
    use super::signature::TableRole::*;
    let names: &[&[u8; 4]] = match table.role {
        Input => &[b"ISGN", b"ISG1"],
        Output => &[b"OSGN", b"OSG5", b"OSG1"],
        PatchConstant => &[b"PCSG", b"PSG1"],
    };
    names.iter().find_map(|n| container.find(PartName(**n)))
}

/// Whether the container's part says what the table says (same elements;
/// the part's layout is not compared).
fn same_signature(part: &dxcopy_read::Part<'_>, table: &SignatureTable) -> bool {
    let Ok(Some(signature)) = Signature::parse(part) else {
        return false;
    };
    let rebuilt = table.to_part(part.name);
    let Ok(Some(ours)) = Signature::parse_data(
        &rebuilt,
        0,
        dxcopy_read::signature::SignatureFormat::for_part(part.name)
            .unwrap_or(dxcopy_read::signature::SignatureFormat::Dxbc),
    )
    .map(Some) else {
        return false;
    };
    signature.elements.len() == ours.elements.len()
        && signature.elements.iter().zip(&ours.elements).all(|(a, b)| {
            a.name == b.name
                && a.semantic_index == b.semantic_index
                && a.register == b.register
                && a.mask == b.mask
                && a.rw_mask == b.rw_mask
                && a.component_type == b.component_type
                && a.stream.unwrap_or(0) == b.stream.unwrap_or(0)
                && a.min_precision.map_or(0, |p| p.raw()) == b.min_precision.map_or(0, |p| p.raw())
                && (a.system_value == b.system_value
                    || (a.system_value.raw() == 0 || b.system_value.raw() == 0))
        })
}

/// Replaces the program of `original` with the listing's (and each
/// signature the listing's tables change), keeps every other part byte for
/// byte, recomputes STAT when the program changed (or drops it when its
/// counts cannot be derived), and re-signs with the retail digest.
///
/// Float immediates the listing prints inexactly take their bits from the
/// original program (see [`FloatHints`]).
pub fn patch_container(original: &[u8], listing: &str) -> Result<Patched, DxasmError> {
    patch_container_with(original, listing, &AsmOptions::default())
}

/// [`patch_container`] assembling with `options`.
pub fn patch_container_with(
    original: &[u8],
    listing: &str,
    options: &AsmOptions,
) -> Result<Patched, DxasmError> {
    let container = Container::parse(original).map_err(EditError::from)?;
    let part = dxbc::shader_part(&container).ok_or(dxbc::DisasmError::NoShaderPart)?;
    let mut hints = dxcopy_read::sm4::Program::decode(part.data, 0)
        .map(|p| FloatHints::from_program(&p))
        .unwrap_or_default();
    let assembly = assemble_with(listing, &mut hints, options)?;
    let mut plan = EditPlan::from_container(&container);
    plan.digest_policy = DigestPolicy::Retail;
    let mut warnings = Vec::new();
    let new_name = assembly.program_part();
    let program_changed = part.data != assembly.program.as_slice() || part.name != new_name;
    if program_changed {
        if part.name == new_name {
            plan.update(new_name, assembly.program.clone())?;
        } else {
            plan.remove(&crate::matcher::NameMatcher::exact(part.name));
            plan.add(new_name, assembly.program.clone())?;
        }
        if let Some(stat) = container.find(PartName::STAT) {
            if !dxcopy_read::program::is_program_data(stat.data) {
                match recompute_statistics(part.data, &assembly.program, stat.data) {
                    Some(data) => {
                        plan.update(PartName::STAT, data)?;
                        warnings.push(AsmWarning::StatRecomputed);
                    }
                    None => {
                        plan.remove(&crate::matcher::NameMatcher::exact(PartName::STAT));
                        warnings.push(AsmWarning::StatDropped);
                    }
                }
            }
        }
    }
    for table in &assembly.signatures {
        match matching_part(&container, table) {
            Some(existing) if same_signature(&existing, table) => {}
            Some(existing) => {
                plan.update(existing.name, table.to_part(existing.name))?;
                warnings.push(AsmWarning::SignatureReplaced(existing.name));
            }
            None => {
                let name = table.part_name();
                plan.add(name, table.to_part(name))?;
                warnings.push(AsmWarning::SignatureAdded(name));
            }
        }
    }
    let bytes = plan.finish()?.to_vec();
    Ok(Patched {
        bytes,
        program_changed,
        warnings,
    })
}

/// The result of [`check_round_trip`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundTrip {
    /// The program came back byte for byte.
    Identical {
        /// Its length in 32-bit tokens.
        tokens: usize,
    },
    /// The first token that differs.
    Differs {
        /// Token index from the start of the program.
        token: usize,
        /// The original's token (`None` past its end).
        original: Option<u32>,
        /// The reassembled token (`None` past its end).
        assembled: Option<u32>,
        /// The listing line of the instruction holding that token.
        line: String,
    },
}

/// Disassembles the program of `container` (the listing dxinfo prints),
/// assembles it again with the original's immediates as hints, and
/// compares the two programs token by token.
pub fn check_round_trip(
    container: &Container<'_>,
    options: &ListingOptions,
) -> Result<RoundTrip, DxasmError> {
    let part = dxbc::shader_part(container).ok_or(dxbc::DisasmError::NoShaderPart)?;
    let program =
        dxcopy_read::sm4::Program::decode(part.data, part.data_offset()).map_err(|source| {
            dxbc::DisasmError::Decode {
                part: part.name,
                source,
            }
        })?;
    let options = options.for_container(container);
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = sm4::write_program(&program, None, &options, &mut text);
    let mut hints = FloatHints::from_program_printed(&program, Some(options.rounding));
    let assembly = assemble(&text, &mut hints)?;
    Ok(compare(part.data, &assembly.program, &program, &options))
}

fn words(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn compare(
    original: &[u8],
    assembled: &[u8],
    program: &dxcopy_read::sm4::Program,
    options: &ListingOptions,
) -> RoundTrip {
    let a = words(original);
    let length = a.get(1).map_or(a.len(), |&l| (l as usize).min(a.len()));
    let a = &a[..length];
    let b = words(assembled);
    if a == b.as_slice() {
        return RoundTrip::Identical { tokens: a.len() };
    }
    let token = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let line = program
        .instructions
        .iter()
        .rev()
        .find(|i| i.token as usize <= token)
        .map(|i| {
            let mut s = String::new();
            sm4::write_instruction(program, i, options, &mut s);
            s
        })
        .unwrap_or_else(|| program.profile());
    RoundTrip::Differs {
        token,
        original: a.get(token).copied(),
        assembled: b.get(token).copied(),
        line,
    }
}
