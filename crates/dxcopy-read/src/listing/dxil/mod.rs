//! dxc's listing of a DXIL container (`dxc -dumpbin`, `/Fc`, the `#if 0`
//! block of `/Fh`): the comment header ([`header`]) and the module
//! as LLVM 3.7 prints it ([`ir`]), for the release that wrote the
//! file (docs/format/dxil-listing.md).
//!
//! ```
//! use dxcopy_read::listing::dxil::{container_listing, ListingOptions};
//! # fn show(container: &dxcopy_read::Container<'_>) -> Result<(), dxcopy_read::listing::dxil::ListingError> {
//! let text = container_listing(container, &ListingOptions::default())?;
//! print!("{text}");
//! # Ok(()) }
//! ```

pub mod header;
pub mod ir;
pub mod release;

use crate::bitcode::BitcodeError;
use crate::container::Container;
use crate::dxil::metadata::DxilMetadata;
use crate::dxil::model::{Metadata, Module};
use crate::dxil::OutlinedModule;
use crate::error::ReadError;
use crate::listing::dxil::header::HeaderError;
use crate::listing::dxil::ir::{write_outlined_text, write_outlined_to, AsmError, AsmOptions};
use crate::listing::dxil::release::DxcRelease;
use crate::name::PartName;
use crate::program::Program;

/// What to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ListingOptions {
    /// The module part: `DXIL` or `ILDB`; `None` as dxc chooses (ILDB when
    /// the container has one, else DXIL).
    pub part: Option<PartName>,
    /// Print as this dxc release (`None`: the release that wrote the file).
    pub release: Option<DxcRelease>,
}

/// Why a listing could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ListingError {
    /// A part the listing reads does not decode, or the part asked for is
    /// missing.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// `part` is neither DXIL nor ILDB.
    #[error("part {0} holds no DXIL module (use DXIL or ILDB)")]
    NotAModule(PartName),
    /// The module's bitcode could not be read: decoding stopped at the
    /// error's bit offset.
    #[error("{part} module: {source}")]
    Module {
        /// The part.
        part: PartName,
        /// Where and why decoding stopped.
        source: BitcodeError,
    },
    /// The header's tables could not be printed.
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// The module text could not be printed: it would be larger than any
    /// real module's ([`AsmError::TooLarge`]), or a function body read
    /// again for printing did not decode ([`AsmError::Read`]).
    #[error(transparent)]
    TooLarge(#[from] AsmError),
}

/// The program part a listing prints: the one asked for, else ILDB when
/// the container has one, else DXIL.
fn program_part(
    container: &Container<'_>,
    asked: Option<PartName>,
) -> Result<PartName, ListingError> {
    match asked {
        Some(name) if name == PartName::DXIL || name == PartName::ILDB => {
            container.require(name)?;
            Ok(name)
        }
        Some(name) => Err(ListingError::NotAModule(name)),
        None if container.find(PartName::ILDB).is_some() => Ok(PartName::ILDB),
        None => {
            container.require(PartName::DXIL)?;
            Ok(PartName::DXIL)
        }
    }
}

/// Reads the module of program part `part`, its function bodies outlined
/// (checked whole, their instructions read again when printed).
fn read_program<'data>(
    container: &Container<'data>,
    part: PartName,
) -> Result<OutlinedModule<'data>, ListingError> {
    let data = container.require(part)?;
    let program = Program::parse(&data)?;
    OutlinedModule::parse(program.bitcode).map_err(|source| ListingError::Module { part, source })
}

/// Appends dxc's listing of `container` to `out`.
///
/// When the module cannot be read, `out` holds the header's part sections
/// (feature notes, signatures, hash, runtime information) and the error
/// names the bit offset where decoding stopped: what dxc can say without
/// the module, never a listing that looks complete.
pub fn write_container_listing(
    container: &Container<'_>,
    options: &ListingOptions,
    out: &mut String,
) -> Result<(), ListingError> {
    let (module, release) = write_header_part(container, options, out)?;
    write_outlined_text(&module, &AsmOptions::from(&release), out)?;
    Ok(())
}

/// [`write_container_listing`] written to `out` as it is made: the header,
/// then the module text a few KiB at a time, so that the listing is never
/// held in memory whole (`dxinfo --disasm` over many files). The outer
/// `Err` is a write error. On a listing error, what
/// [`write_container_listing`] would have left in its string has been
/// written (the header's sections; for a module past the printer's node
/// budget, also the module text printed before the budget ran out).
pub fn write_container_listing_to(
    container: &Container<'_>,
    options: &ListingOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Result<(), ListingError>> {
    let mut header = String::new();
    let prepared = write_header_part(container, options, &mut header);
    out.write_all(header.as_bytes())?;
    drop(header);
    let (module, release) = match prepared {
        Ok(prepared) => prepared,
        Err(e) => return Ok(Err(e)),
    };
    Ok(write_outlined_to(&module, &AsmOptions::from(&release), out)?.map_err(ListingError::from))
}

/// Reads the module a listing prints and appends dxc's comment header to
/// `out`; returns the module and the release it is printed as. When the
/// module cannot be read, `out` gets the header's part sections. The STAT
/// module read for the header's tables is dropped before the module text
/// is printed.
fn write_header_part<'data>(
    container: &Container<'data>,
    options: &ListingOptions,
    out: &mut String,
) -> Result<(OutlinedModule<'data>, DxcRelease), ListingError> {
    let part = program_part(container, options.part)?;
    let module = match read_program(container, part) {
        Ok(module) => module,
        Err(e) => {
            let release = options
                .release
                .unwrap_or_else(|| DxcRelease::of_container(container));
            header::write_part_sections(container, &release, out)?;
            return Err(e);
        }
    };
    let release = options
        .release
        .unwrap_or_else(|| DxcRelease::of_module(container, Some(module.module())));
    // dxc takes the buffer, binding and ViewID tables from STAT's module
    // when the container has one (the DXIL part's reflection may be
    // stripped).
    let reflection = match container.find(PartName::STAT) {
        Some(_) => Some(read_program(container, PartName::STAT)?),
        None => None,
    };
    header::write_header_with(
        container,
        Some(module.module()),
        reflection.as_ref().map(OutlinedModule::module),
        &release,
        out,
    )?;
    Ok((module, release))
}

/// dxc's listing of `container` (see [`write_container_listing`]).
pub fn container_listing(
    container: &Container<'_>,
    options: &ListingOptions,
) -> Result<String, ListingError> {
    let mut out = String::new();
    write_container_listing(container, options, &mut out)?;
    Ok(out)
}

/// The release a module names by itself: its `llvm.ident` with its
/// `dx.valver` ([`DxcRelease::detect`] without the container's parts).
pub fn module_release(module: &Module) -> DxcRelease {
    let strings = |name: &[u8]| -> Vec<Vec<u8>> {
        let Some(named) = module.named_metadata(name) else {
            return Vec::new();
        };
        named
            .operands
            .iter()
            .filter_map(|node| module.metadata_node(*node))
            .flat_map(|ops| ops.iter().flatten().copied())
            .filter_map(|op| match module.metadata(op) {
                Some(Metadata::String(s)) => Some(s.clone()),
                _ => None,
            })
            .collect()
    };
    let idents: Vec<String> = strings(b"llvm.ident")
        .into_iter()
        .map(|s| String::from_utf8_lossy(&s).into_owned())
        .collect();
    let validator = module
        .named_metadata(b"dx.valver")
        .and_then(|named| named.operands.first())
        .and_then(|node| module.metadata_node(*node))
        .and_then(|ops| {
            let major = module.metadata_int((*ops.first()?)?)?;
            let minor = module.metadata_int((*ops.get(1)?)?)?;
            Some((u32::try_from(major).ok()?, u32::try_from(minor).ok()?))
        });
    DxcRelease::detect(None, &idents, validator, None)
}

/// dxc's listing of a module part alone (a DXIL, ILDB or STAT part's bytes,
/// or bare bitcode), as `dxc -dumpbin` prints a program that is not in a
/// container: the module's signature, buffer, binding and ViewID tables
/// when it has `dx.version`, then the module. `release` `None`: the one
/// the module's `llvm.ident` and `dx.valver` name.
pub fn module_listing(part: &[u8], release: Option<DxcRelease>) -> Result<String, ListingError> {
    let bitcode = if crate::program::is_program_data(part) {
        Program::parse_data(part, 0)?.bitcode
    } else {
        part
    };
    let outlined = OutlinedModule::parse(bitcode).map_err(|source| ListingError::Module {
        part: PartName::DXIL,
        source,
    })?;
    let module = outlined.module();
    let release = release.unwrap_or_else(|| module_release(module));
    let mut out = String::new();
    if module.named_metadata(b"dx.version").is_some() {
        let metadata = DxilMetadata::read(module).map_err(HeaderError::from)?;
        header::module::write_signatures(&metadata, &release, &mut out);
        header::module::write_buffer_definitions(module, &metadata, &release, &mut out)
            .map_err(HeaderError::from)?;
        header::module::write_resource_bindings(&metadata, &release, &mut out);
        header::module::write_view_id_state(&metadata, &mut out).map_err(HeaderError::from)?;
    }
    write_outlined_text(&outlined, &AsmOptions::from(&release), &mut out)?;
    Ok(out)
}
