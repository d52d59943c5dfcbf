//! The container parts dxc derives from a DXIL module, rebuilt from the
//! module alone, byte for byte as dxc's container writer makes them
//! (docs/format/derived-parts.md).
//!
//! [`derive_parts`] gives SFI0 ([`feature_info`]), ISG1 / OSG1 / PSG1
//! ([`signature`]) and PSV0 ([`psv`]) in dxc's part order, each shaped by
//! the module's validator version as dxc shapes it (PSV0 version, signature
//! packing and name sharing, the validator-1.4 signature masks).
//! [`check_parts`] compares a container's parts with the derived ones and
//! names the first field that differs, the checks dxc's validator makes on
//! a container.
//!
//! [`derive_rdat`] gives a library's RDAT where every field it holds is
//! made from the module (see its limits); HASH depends on the program
//! part's bitcode and is made by the edit pipeline.

pub mod check;
pub mod feature_info;
pub mod psv;
mod rdat;
pub mod signature;
#[cfg(test)]
mod tests;
mod usage;

pub use check::{check_parts, PartMismatch};

use crate::dxil::metadata::{DxilMetadata, EntryPoint, MetadataError};
use crate::dxil::model::Module;
use crate::name::PartName;
use crate::ShaderKind;

/// Why the derived parts could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeriveError {
    /// The module's `dx.*` metadata does not have DXIL's shape.
    #[error("module metadata: {0}")]
    Metadata(#[from] MetadataError),
    /// The module has no `dx.shaderModel` naming a shader kind.
    #[error("the module has no dx.shaderModel with a known shader kind")]
    NoShaderModel,
    /// A non-library module without its entry point record.
    #[error("the module has no dx.entryPoints record")]
    NoEntryPoint,
    /// A count that the part stores in a byte is larger than 255.
    #[error("{what}: {count} does not fit the part's 8-bit field")]
    TooMany {
        /// What was counted.
        what: &'static str,
        /// The count.
        count: usize,
    },
    /// The module is not a library: only libraries carry RDAT.
    #[error("RDAT: the module is not a library")]
    NotALibrary,
    /// The library uses something whose RDAT fields this derivation does
    /// not compute (the part is then kept as it is).
    #[error("RDAT: not derived for a library with {0}")]
    RdatUnsupported(&'static str),
    /// The serialized ViewID state is shorter than its own counts say.
    #[error("dx.viewIdState: {found} words, the counts need more")]
    ViewIdStateShort {
        /// The words the state has.
        found: usize,
    },
}

/// One derived part: its name and its bytes as dxc writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DerivedPart {
    /// The part's four-character code.
    pub name: PartName,
    /// Its bytes (the size dxc gives the part, padding included).
    pub data: Vec<u8>,
}

/// The names of the parts [`derive_parts`] can make, in dxc's order.
pub const DERIVED_NAMES: [PartName; 5] = [
    PartName::SFI0,
    PartName::ISG1,
    PartName::OSG1,
    PartName::PSG1,
    PartName::PSV0,
];

/// The validator version dxc shapes the parts by: `dx.valver`, or 1.0
/// when the module has none (dxc's `DxilModule` default).
///
/// Major version 0 (dxc writes 0.0 into a module "not meant to ever be
/// validated": offline `lib_6_x` targets, `-validator-version 0.0`, the
/// STAT reflection module) is returned as [`UNBOUND_VALIDATOR`]: dxc's
/// `DXIL::CompareVersions` orders major 0 after every 1.x, so such a
/// module's parts take every validator-dependent feature (the newest PSV0,
/// HASH, aligned parts, deduplicated records).
pub fn validator_version(metadata: &DxilMetadata) -> (u32, u32) {
    match metadata.validator_version.unwrap_or((1, 0)) {
        (0, _) => UNBOUND_VALIDATOR,
        version => version,
    }
}

/// The version [`validator_version`] gives for `dx.valver` 0.x: later than
/// every released validator in every comparison.
pub const UNBOUND_VALIDATOR: (u32, u32) = (u32::MAX, u32::MAX);

/// Whether validator version `have` is older than `major.minor`.
pub(crate) fn older_than(have: (u32, u32), major: u32, minor: u32) -> bool {
    have < (major, minor)
}

/// What the derivations read from a module: its metadata, shader kind and
/// entry record.
pub(crate) struct Facts<'a> {
    pub module: &'a Module,
    pub metadata: &'a DxilMetadata,
    pub kind: ShaderKind,
    pub entry: Option<&'a EntryPoint>,
    pub validator: (u32, u32),
}

impl<'a> Facts<'a> {
    pub(crate) fn new(module: &'a Module, metadata: &'a DxilMetadata) -> Result<Self, DeriveError> {
        let kind = metadata.shader_kind().ok_or(DeriveError::NoShaderModel)?;
        let entry = metadata.main_entry();
        if kind != ShaderKind::Library && entry.is_none() {
            return Err(DeriveError::NoEntryPoint);
        }
        Ok(Facts {
            module,
            metadata,
            kind,
            entry,
            validator: validator_version(metadata),
        })
    }
}

/// The parts dxc derives from `module`, in dxc's order: SFI0, then for a
/// shader (not a library) ISG1, OSG1, PSG1 (only when the patch-constant or
/// primitive signature has elements) and PSV0.
///
/// ```
/// # fn show(module: &dxcopy_read::dxil::Module) -> Result<(), Box<dyn std::error::Error>> {
/// use dxcopy_read::dxil::derived::derive_parts;
/// for part in derive_parts(module)? {
///     println!("{}: {} bytes", part.name, part.data.len());
/// }
/// # Ok(()) }
/// ```
pub fn derive_parts(module: &Module) -> Result<Vec<DerivedPart>, DeriveError> {
    let metadata = DxilMetadata::read(module)?;
    derive_parts_with(module, &metadata)
}

/// [`derive_parts`] with the module's metadata already read.
pub fn derive_parts_with(
    module: &Module,
    metadata: &DxilMetadata,
) -> Result<Vec<DerivedPart>, DeriveError> {
    let facts = Facts::new(module, metadata)?;
    let mut parts = vec![DerivedPart {
        name: PartName::SFI0,
        data: crate::sfi0::Sfi0Record {
            flags: crate::sfi0::FeatureFlags(feature_info::feature_info(&facts)),
        }
        .to_bytes(),
    }];
    if facts.kind == ShaderKind::Library {
        return Ok(parts);
    }
    for kind in signature::SignatureKind::ALL {
        let elements = signature::elements_of(&facts, kind);
        if kind == signature::SignatureKind::PatchConstantOrPrimitive && elements.is_empty() {
            continue;
        }
        parts.push(DerivedPart {
            name: kind.part_name(),
            data: signature::write_signature(&facts, kind),
        });
    }
    parts.push(DerivedPart {
        name: PartName::PSV0,
        data: psv::write_psv(&facts)?,
    });
    Ok(parts)
}

/// A library's RDAT part, as dxc writes it for the module's validator
/// version: string buffer, resource and function tables, index arrays, raw
/// bytes and subobjects, work-graph tables.
///
/// `existing` is the container's RDAT, if any: dxc takes the library's
/// subobjects out of the module when it puts them into RDAT, so they are
/// carried over from it (without it the part has none).
///
/// Errors: [`DeriveError::NotALibrary`]; [`DeriveError::RdatUnsupported`]
/// for a library whose RDAT needs what is not derived here: flags that
/// depend on the resource behind a handle (typed UAV loads, 64-bit atomics
/// on resources, writable MSAA textures from 1.8), `dx.subobjects` still in
/// the module, an existing RDAT with tables past the released ones, a
/// validator below 1.5.
pub fn derive_rdat(
    module: &Module,
    metadata: &DxilMetadata,
    existing: Option<&[u8]>,
) -> Result<DerivedPart, DeriveError> {
    let facts = Facts::new(module, metadata)?;
    if facts.kind != ShaderKind::Library {
        return Err(DeriveError::NotALibrary);
    }
    if let Some(existing) = existing {
        rdat::only_derived_tables(existing)?;
    }
    let data = rdat::write_library_rdat(&facts, existing)?;
    Ok(DerivedPart {
        name: PartName::RDAT,
        data,
    })
}
