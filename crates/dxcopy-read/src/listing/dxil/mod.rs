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
use crate::listing::dxil::ir::{write_outlined_text, AsmError, AsmOptions};
use crate::listing::dxil::release::DxcRelease;
use crate::listing::{DisasmFlag, DisasmFlags};
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
    /// The `D3D_DISASM_*` flags. dxc's DXIL disassembler implements none of
    /// them: [`DisasmFlags::offsets`] is this listing's own (` ; bit offset
    /// N` after each instruction: the bit offset of its record from the
    /// start of the bitcode); any other is refused
    /// ([`ListingError::Unsupported`]).
    pub flags: DisasmFlags,
}

/// Why a listing could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ListingError {
    /// A `D3D_DISASM_*` flag dxc does not implement for DXIL: dxc accepts
    /// `/Ni`, `/Lx` and the others and prints the same listing, so a
    /// listing that claimed to honour them would print nothing dxc prints.
    #[error(
        "{0}: dxc does not implement this flag for DXIL (its listing is the same without it); only DXBC listings take it"
    )]
    Unsupported(DisasmFlag),
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
    /// The header's tables could not be printed: named with the module
    /// part they were printed from (a STAT part's module for the buffer,
    /// binding and ViewID tables when the container has one), the file
    /// offset of its bitcode and, for a metadata node that does not read,
    /// the bit offset of the record that defines it.
    #[error("{part} module (bitcode at offset {offset:#x}){}: {source}", record_at(*record))]
    Header {
        /// The module's part.
        part: PartName,
        /// File offset of the part's bitcode.
        offset: u64,
        /// The bit offset, from the start of the bitcode, of the record of
        /// the metadata node the error names.
        record: Option<u64>,
        /// What stopped the tables.
        source: HeaderError,
    },
    /// The module text could not be printed: it would be larger than any
    /// real module's ([`AsmError::TooLarge`]), its types or constants nest
    /// too deep ([`AsmError::TooDeep`]), or a function body read again for
    /// printing did not decode ([`AsmError::Read`]). Named with the module
    /// part and the file offset of its bitcode.
    #[error("{part} module (bitcode at offset {offset:#x}): {source}")]
    TooLarge {
        /// The module's part.
        part: PartName,
        /// File offset of the part's bitcode.
        offset: u64,
        /// What stopped the text.
        source: AsmError,
    },
}

/// `, metadata record at bit N` for [`ListingError::Header`].
fn record_at(record: Option<u64>) -> String {
    record.map_or_else(String::new, |bit| format!(", metadata record at bit {bit}"))
}

/// A module read for a listing: the model, its bitcode, its part and the
/// file offset of its bitcode (what the listing's errors name).
struct ProgramModule<'data> {
    module: OutlinedModule<'data>,
    bitcode: &'data [u8],
    part: PartName,
    offset: u64,
}

impl ProgramModule<'_> {
    fn header_error(&self, source: impl Into<HeaderError>) -> ListingError {
        let source = source.into();
        // The record of the node named: the module is read again to find
        // it, only now that there is an error to report.
        let record = match &source {
            HeaderError::Metadata(e) => e.id().and_then(|id| {
                crate::dxil::metadata_record_offsets(self.bitcode)
                    .ok()?
                    .get(id.0 as usize)
                    .copied()
            }),
            _ => None,
        };
        ListingError::Header {
            part: self.part,
            offset: self.offset,
            record,
            source,
        }
    }

    fn text_error(&self, source: AsmError) -> ListingError {
        ListingError::TooLarge {
            part: self.part,
            offset: self.offset,
            source,
        }
    }
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
) -> Result<ProgramModule<'data>, ListingError> {
    let data = container.require(part)?;
    let program = Program::parse(&data)?;
    let module = OutlinedModule::parse(program.bitcode)
        .map_err(|source| ListingError::Module { part, source })?;
    Ok(ProgramModule {
        module,
        bitcode: program.bitcode,
        part,
        offset: program.bitcode_file_offset,
    })
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
    let asm = AsmOptions {
        record_offsets: options.flags.offsets,
        ..AsmOptions::from(&release)
    };
    write_outlined_text(&module.module, &asm, out).map_err(|e| module.text_error(e))?;
    Ok(())
}

/// [`write_container_listing`] written to `out` only once it is whole
/// (`dxinfo --disasm`): the listing is made in memory (its size is bounded
/// by the work budget of the passes that make it) and written in one go,
/// so that a listing that fails — a module that does not read, a header
/// or module text past its budget, types nested too deep — writes
/// nothing at all, never the part of a listing made before the error.
/// The outer `Err` is a write error.
pub fn write_container_listing_to(
    container: &Container<'_>,
    options: &ListingOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Result<(), ListingError>> {
    let mut text = String::new();
    if let Err(e) = write_container_listing(container, options, &mut text) {
        return Ok(Err(e));
    }
    out.write_all(text.as_bytes())?;
    Ok(Ok(()))
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
) -> Result<(ProgramModule<'data>, DxcRelease), ListingError> {
    check_flags(&options.flags)?;
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
        .unwrap_or_else(|| DxcRelease::of_module(container, Some(module.module.module())));
    // dxc takes the buffer, binding and ViewID tables from STAT's module
    // when the container has one (the DXIL part's reflection may be
    // stripped).
    let reflection = match container.find(PartName::STAT) {
        Some(_) => Some(read_program(container, PartName::STAT)?),
        None => None,
    };
    header::write_header_with(
        container,
        Some(module.module.module()),
        reflection.as_ref().map(|r| r.module.module()),
        &release,
        out,
    )
    .map_err(|source| {
        // The tables come from STAT's module when it has `dx.*` metadata;
        // the signatures from the listed module, read first.
        let from_stat = reflection.as_ref().is_some_and(|r| {
            let stat = r.module.module();
            stat.named_metadata(b"dx.version").is_some()
                && DxilMetadata::read(module.module.module()).is_ok()
        });
        match (&reflection, from_stat) {
            (Some(stat), true) => stat.header_error(source),
            _ => module.header_error(source),
        }
    })?;
    Ok((module, release))
}

/// Refuses the flags dxc does not implement for DXIL: all but the offsets,
/// which are this listing's own.
pub fn check_flags(flags: &DisasmFlags) -> Result<(), ListingError> {
    match flags.set().find(|f| *f != DisasmFlag::Offsets) {
        Some(flag) => Err(ListingError::Unsupported(flag)),
        None => Ok(()),
    }
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
    // The offset of the bitcode in what was given.
    let source = ProgramModule {
        offset: (bitcode.as_ptr() as usize - part.as_ptr() as usize) as u64,
        module: outlined,
        bitcode,
        part: PartName::DXIL,
    };
    let module = source.module.module();
    let release = release.unwrap_or_else(|| module_release(module));
    let mut out = String::new();
    if module.named_metadata(b"dx.version").is_some() {
        let metadata = DxilMetadata::read(module).map_err(|e| source.header_error(e))?;
        header::module::write_signatures(&metadata, &release, &mut out);
        header::module::write_buffer_definitions(module, &metadata, &release, &mut out)
            .map_err(|e| source.header_error(e))?;
        header::module::write_resource_bindings(&metadata, &release, &mut out);
        header::module::write_view_id_state(&metadata, &mut out)
            .map_err(|e| source.header_error(e))?;
    }
    write_outlined_text(&source.module, &AsmOptions::from(&release), &mut out)
        .map_err(|e| source.text_error(e))?;
    Ok(out)
}
