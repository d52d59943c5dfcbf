//! The comment header dxc prints before a DXIL module's `target datalayout`
//! (`dxc -dumpbin`, `/Fc`, the `#if 0` block of `/Fh`), as the release that
//! wrote the container printed it (docs/format/dxil-listing-header.md).
//!
//! [`write_header`] is the one entry point: it prints, in dxc's order,
//! 1. the SFI0 feature notes, the ISG1 / OSG1 / PSG1 tables, the ILDN debug
//!    name and the HASH line ([`parts`]);
//! 2. `; Pipeline Runtime Information:` from PSV0 ([`psv`]);
//! 3. from the module's `dx.*` metadata (when a module is given and has
//!    `dx.version`): its signature tables with InterpMode and DynIdx,
//!    `; Buffer Definitions:`, `; Resource Bindings:`, `; ViewId state:`
//!    ([`module`]), and a library's subobjects from RDAT ([`subobjects`]).
//!
//! The text is dxc's byte for byte, `\n` line ends and trailing spaces
//! included.

pub mod module;
pub mod parts;
pub mod psv;
pub mod subobjects;
#[cfg(test)]
mod tests;
mod text;

use crate::container::Container;
use crate::debug_name::DebugName;
use crate::dxil::metadata::{DxilMetadata, MetadataError};
use crate::dxil::model::Module;
use crate::error::ReadError;
use crate::hash::ShaderHash;
use crate::listing::dxil::release::DxcRelease;
use crate::name::PartName;
use crate::program::Program;
use crate::psv0::Psv0;
use crate::sfi0::Sfi0;
use crate::signature::Signature;

use parts::SignatureKind;

/// The sections printed from parts alone (everything before the module's
/// tables): feature notes, signature parts, debug name, hash and runtime
/// information. The program whose shader kind PSV0 is printed with is ILDB
/// when the container has one (dxc prints the debug module then), else
/// DXIL.
///
/// Errors: a part dxc reads that does not decode (SFI0, a signature, HASH,
/// PSV0, the program header), and a container without DXIL or ILDB.
pub fn write_part_sections(
    container: &Container<'_>,
    release: &DxcRelease,
    out: &mut String,
) -> Result<(), ReadError> {
    if let Some(part) = container.find(PartName::SFI0) {
        parts::write_feature_info(Sfi0::parse(&part)?.flags.bits(), release, out);
    }
    for (name, kind) in [
        (PartName::ISG1, SignatureKind::Input),
        (PartName::OSG1, SignatureKind::Output),
        (PartName::PSG1, SignatureKind::PatchConstant),
    ] {
        if let Some(part) = container.find(name) {
            if let Some(signature) = Signature::parse(&part)? {
                parts::write_signature(kind, &signature, release, out);
            }
        }
    }
    if let Some(part) = container.find(PartName::ILDN) {
        let name = DebugName::parse(&part);
        parts::write_debug_name(name.as_ref().map_err(|_| ()), out);
    }
    if let Some(part) = container.find(PartName::HASH) {
        parts::write_hash(&ShaderHash::parse(&part)?, out);
    }
    let program_part = match container.find(PartName::ILDB) {
        Some(part) => part,
        None => container.require(PartName::DXIL)?,
    };
    let program = Program::parse(&program_part)?;
    if let Some(part) = container.find(PartName::PSV0) {
        let psv = Psv0::parse(&part, Some(program.shader_kind))?;
        psv::write_runtime_info(&psv, program.shader_kind, release, out);
    }
    Ok(())
}

/// Why the header could not be printed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeaderError {
    /// A part dxc reads does not decode, or the container has no DXIL.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The module's `dx.*` metadata does not have DXIL's shape.
    #[error("module metadata: {0}")]
    Metadata(#[from] MetadataError),
    /// The ViewID state is shorter than its counts say.
    #[error(transparent)]
    ViewIdState(#[from] module::ViewIdStateError),
    /// The buffer definitions expand past their work budget (struct types
    /// sharing a member type at every level), or their types nest deeper
    /// than the tables print.
    #[error("buffer definitions: {0}")]
    BufferTables(#[from] module::BufferTablesError),
    /// The STAT part's module (the reflection dxc prints the tables from)
    /// does not read.
    #[error("STAT module: {0}")]
    Reflection(#[from] crate::bitcode::BitcodeError),
}

/// dxc's comment header for `container`, everything before `target
/// datalayout`, appended to `out`.
///
/// `module` is the module the listing prints (ILDB's when the container has
/// one, else DXIL's); without it only the part sections are printed. The
/// buffer, binding and ViewID tables come from `reflection` when given (the
/// STAT part's module: dxc prints those from it when the DXIL part's
/// reflection was stripped), else from `module`. Nothing of the module is
/// printed when it has no `dx.version` (dxc then prints the IR alone).
///
/// ```
/// use dxcopy_read::listing::dxil::header::write_header_with;
/// use dxcopy_read::listing::dxil::release::DxcRelease;
/// # use dxcopy_read::Container;
/// # fn show(container: &Container<'_>, module: &dxcopy_read::dxil::Module) -> Result<(), Box<dyn std::error::Error>> {
/// let release = DxcRelease::of_container(container);
/// let mut text = String::new();
/// write_header_with(container, Some(module), None, &release, &mut text)?;
/// # Ok(()) }
/// ```
pub fn write_header_with(
    container: &Container<'_>,
    module: Option<&Module>,
    reflection: Option<&Module>,
    release: &DxcRelease,
    out: &mut String,
) -> Result<(), HeaderError> {
    write_part_sections(container, release, out)?;
    let Some(module) = module else {
        return Ok(());
    };
    if module.named_metadata(b"dx.version").is_none() {
        return Ok(());
    }
    let metadata = DxilMetadata::read(module)?;
    let (reflection_module, reflection_metadata) = match reflection {
        Some(stat) if stat.named_metadata(b"dx.version").is_some() => {
            (stat, DxilMetadata::read(stat)?)
        }
        _ => (module, metadata.clone()),
    };
    module::write_signatures(&metadata, release, out);
    module::write_buffer_definitions(reflection_module, &reflection_metadata, release, out)?;
    module::write_resource_bindings(&reflection_metadata, release, out);
    module::write_view_id_state(&reflection_metadata, out)?;
    if let Some(part) = container.find(PartName::RDAT) {
        // dxc reads what it can of RDAT; a part that does not decode has
        // no subobject table for it.
        if let Ok(rdat) = crate::rdat::RuntimeData::parse(&part) {
            subobjects::write_subobjects(&rdat.subobjects, release, out);
        }
    }
    Ok(())
}

/// dxc's comment header for `container`: [`write_header_with`] with the
/// STAT part's module as the reflection when the container has a STAT part
/// with a program header (dxc reads it then, and fails when it does not
/// read).
///
/// This is the call a listing makes: `module` is the module it prints.
pub fn write_header(
    container: &Container<'_>,
    module: Option<&Module>,
    release: &DxcRelease,
    out: &mut String,
) -> Result<(), HeaderError> {
    let reflection = match (module, container.find(PartName::STAT)) {
        (Some(_), Some(part)) => match Program::parse(&part) {
            Ok(program) => Some(Module::parse(program.bitcode)?),
            // Not a program (an older STAT layout): dxc passes it over.
            Err(_) => None,
        },
        _ => None,
    };
    write_header_with(container, module, reflection.as_ref(), release, out)
}
