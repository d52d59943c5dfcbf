//! Containers from DXIL listings: a new one ([`build_dxil_container`]), an
//! existing one with its module replaced ([`patch_dxil_container`]), and
//! the round trip check ([`check_dxil_round_trip`]); and which assembler a
//! listing is for ([`listing_kind`]).

use super::{assemble_module, ParseError};
use crate::bitcode::{write_module, write_program, ModuleWriteError};
use crate::error::EditError;
use crate::matcher::NameMatcher;
use crate::plan::EditPlan;
use crate::policy::DigestPolicy;
use crate::rebuild::rebuild_parts;
use dxcopy_read::dxil::metadata::DxilMetadata;
use dxcopy_read::dxil::Module;
use dxcopy_read::listing::dxil::{container_listing, ListingError, ListingOptions};
use dxcopy_read::program::build_program_data;
use dxcopy_read::{Container, PartName, Program};

/// Which assembler a listing is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListingKind {
    /// A DXBC listing (`ps_5_0`, `dcl_…`, …).
    Dxbc,
    /// A DXIL listing (LLVM 3.7 assembly with dxc's comments).
    Dxil,
}

/// Tells a DXIL listing from a DXBC one by its first line that is neither
/// blank nor a comment: LLVM assembly starts with `target`, `define`,
/// `declare`, a global, a type, `attributes` or metadata; a DXBC listing
/// with its profile (`vs_5_0`).
pub fn listing_kind(text: &str) -> ListingKind {
    for line in text.lines() {
        let line = line.trim_start();
        if line.is_empty() || line.starts_with(';') || line.starts_with("//") {
            continue;
        }
        let dxil = [
            "target ",
            "define ",
            "declare ",
            "attributes ",
            "module asm",
        ]
        .iter()
        .any(|w| line.starts_with(w))
            || line.starts_with(['@', '%', '!', '$']);
        return if dxil {
            ListingKind::Dxil
        } else {
            ListingKind::Dxbc
        };
    }
    ListingKind::Dxbc
}

/// Why a DXIL listing could not become a container.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DxilAsmError {
    /// The listing does not parse or check (line and column in it).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The module the listing gives cannot be written as dxc writes.
    #[error("the module cannot be written: {0}")]
    Write(#[from] ModuleWriteError),
    /// The module has no `dx.shaderModel` or `dx.version` to make the
    /// program header from.
    #[error("the module has no {0} metadata: the program header cannot be made")]
    NoShaderModel(&'static str),
    /// The container (`--into`, `--check`) has no DXIL part, or its
    /// module does not read.
    #[error("{0}")]
    Original(String),
    /// The container could not be edited (the derived parts rebuilt, the
    /// parts laid out).
    #[error(transparent)]
    Edit(#[from] EditError),
    /// The container's listing could not be made (`--check`).
    #[error(transparent)]
    Listing(#[from] ListingError),
}

/// Something [`patch_dxil_container`] did that the caller should hear about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DxilAsmWarning {
    /// The module changed: ILDB, the debug module, no longer matches it and
    /// was removed.
    IldbDropped,
    /// The module changed: STAT, the reflection module dxc keeps beside it,
    /// still describes the original module.
    StatStale,
    /// The listing is of the debug module (ILDB): ILDB was replaced, the
    /// DXIL module is the original's.
    IldbReplaced,
}

impl std::fmt::Display for DxilAsmWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DxilAsmWarning::IldbDropped => f.write_str(
                "the module changed: ILDB (the debug module) no longer matches it and was removed",
            ),
            DxilAsmWarning::StatStale => f.write_str(
                "the module changed: STAT (the reflection module) still describes the original",
            ),
            DxilAsmWarning::IldbReplaced => f.write_str(
                "the listing is of the debug module: ILDB replaced, the DXIL module left as it was \
                 (list DXIL with dxinfo --disasm=DXIL to patch the shader itself)",
            ),
        }
    }
}

/// A patched container and what was done to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DxilPatched {
    /// The container's bytes, signed as the original was.
    pub bytes: Vec<u8>,
    /// Whether the DXIL part's bytes changed.
    pub module_changed: bool,
    /// Notes for the user.
    pub warnings: Vec<DxilAsmWarning>,
}

fn version_field(value: u32, what: &'static str) -> Result<u8, DxilAsmError> {
    u8::try_from(value).map_err(|_| DxilAsmError::NoShaderModel(what))
}

/// A new container from a DXIL listing: the DXIL part (program header from
/// `dx.shaderModel` and `dx.version`) and every part the module derives
/// (SFI0, ISG1/OSG1/PSG1, PSV0, a library's RDAT, HASH), in dxc's order,
/// signed with the retail digest.
pub fn build_dxil_container(text: &str) -> Result<Vec<u8>, DxilAsmError> {
    let module = assemble_module(text, None)?;
    let bitcode = write_module(&module)?;
    let metadata = DxilMetadata::read(&module)
        .map_err(|e| DxilAsmError::Original(format!("the module's metadata: {e}")))?;
    let model = metadata
        .shader_model
        .as_ref()
        .ok_or(DxilAsmError::NoShaderModel("dx.shaderModel"))?;
    let kind = model
        .kind
        .ok_or(DxilAsmError::NoShaderModel("dx.shaderModel"))?;
    let (dxil_major, dxil_minor) = metadata
        .dxil_version
        .ok_or(DxilAsmError::NoShaderModel("dx.version"))?;
    let data = build_program_data(
        version_field(model.major, "dx.shaderModel")?,
        version_field(model.minor, "dx.shaderModel")?,
        kind,
        version_field(dxil_major, "dx.version")?,
        version_field(dxil_minor, "dx.version")?,
        &bitcode,
    );
    let mut plan = EditPlan::new();
    plan.digest_policy = DigestPolicy::Retail;
    plan.add(PartName::DXIL, data)?;
    rebuild_parts(&mut plan)?;
    Ok(plan.finish()?.to_vec())
}

/// The program part `name` of `container` and its module.
fn original_module<'c>(
    container: &Container<'c>,
    name: PartName,
) -> Result<(dxcopy_read::Part<'c>, Module), DxilAsmError> {
    let part = container
        .find(name)
        .ok_or_else(|| DxilAsmError::Original(format!("the container has no {name} part")))?;
    let program = Program::parse(&part)
        .map_err(|e| DxilAsmError::Original(format!("the {name} part is not a program: {e}")))?;
    let module = Module::parse(program.bitcode)
        .map_err(|e| DxilAsmError::Original(format!("the {name} module does not read: {e}")))?;
    Ok((part, module))
}

/// Whether the text is the listing of a debug module (it names the
/// compile units: what `dxinfo --disasm` and `dxc -dumpbin` print for a
/// container with ILDB).
fn lists_debug_module(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("!llvm.dbg.cu = "))
}

/// Replaces the DXIL module of `original` with the listing's, rebuilds
/// the parts the module derives, keeps every other part (RTS0, SRCI, ILDN,
/// PRIV, STAT, …) byte for byte, and signs as the original was signed.
/// When the module changed, ILDB (the debug module, which no longer
/// matches) is removed. The original module gives what the text does not
/// carry ([`assemble_module`]'s template).
///
/// A listing of the debug module (the one `dxinfo --disasm` prints for a
/// container with ILDB) replaces ILDB instead, and the DXIL module stays.
pub fn patch_dxil_container(original: &[u8], text: &str) -> Result<DxilPatched, DxilAsmError> {
    let container = Container::parse(original).map_err(EditError::from)?;
    let target = if container.find(PartName::ILDB).is_some() && lists_debug_module(text) {
        PartName::ILDB
    } else {
        PartName::DXIL
    };
    let (part, template) = original_module(&container, target)?;
    let module = assemble_module(text, Some(&template))?;
    let data = write_program(part.data, &module)?;
    let changed = data != part.data;
    let mut plan = EditPlan::from_container(&container);
    let mut warnings = Vec::new();
    if changed {
        plan.update(target, data)?;
        if target == PartName::ILDB {
            warnings.push(DxilAsmWarning::IldbReplaced);
        } else {
            if container.find(PartName::ILDB).is_some() {
                plan.remove(&NameMatcher::exact(PartName::ILDB));
                warnings.push(DxilAsmWarning::IldbDropped);
            }
            if container.find(PartName::STAT).is_some() {
                warnings.push(DxilAsmWarning::StatStale);
            }
        }
    }
    rebuild_parts(&mut plan)?;
    let bytes = plan.finish()?.to_vec();
    Ok(DxilPatched {
        bytes,
        module_changed: changed && target == PartName::DXIL,
        warnings,
    })
}

/// The result of [`check_dxil_round_trip`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DxilRoundTrip {
    /// The container came back byte for byte.
    Identical,
    /// The first byte that differs, and the part it is in (`None` in the
    /// header or part table, or past the end of one of the two).
    Differs {
        /// Byte offset.
        offset: usize,
        /// The original's part holding that byte.
        part: Option<PartName>,
    },
}

/// `dxinfo --disasm F | dxasm --into F -`: the container's DXIL listing
/// (as dxinfo prints it, from the DXIL part), assembled into the container
/// again, compared byte for byte with it.
pub fn check_dxil_round_trip(bytes: &[u8]) -> Result<DxilRoundTrip, DxilAsmError> {
    let container = Container::parse(bytes).map_err(EditError::from)?;
    let options = ListingOptions {
        part: Some(PartName::DXIL),
        release: None,
        ..ListingOptions::default()
    };
    let text = container_listing(&container, &options)?;
    let patched = patch_dxil_container(bytes, &text)?;
    if patched.bytes == bytes {
        return Ok(DxilRoundTrip::Identical);
    }
    let offset = patched
        .bytes
        .iter()
        .zip(bytes)
        .position(|(a, b)| a != b)
        .unwrap_or(patched.bytes.len().min(bytes.len()));
    let part = container
        .parts()
        .find(|p| {
            let start = p.data_offset() as usize;
            (start..start + p.data.len()).contains(&offset)
        })
        .map(|p| p.name);
    Ok(DxilRoundTrip::Differs { offset, part })
}
