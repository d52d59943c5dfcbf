//! Debug-info workflows after compilation, as edit-plan operations: what dxc
//! does at compile time with `-Fd`, `-Qembed_debug`, `-Qpdb_in_private` and
//! ILDN naming, done to an existing container.
//!
//! - [`split_debug`]: move ILDB, SRCI and PDBI into a companion PDB (written as dxc
//!   writes it, see [`crate::pdb`]), name it in ILDN, and optionally embed the
//!   PDB in PRIV.
//! - [`add_debug_from`]: put a PDB's ILDB, SRCI and PDBI back into its shader, after
//!   checking that the PDB belongs to it.
//! - [`set_debug_name`]: write the ILDN part.
//! - [`extract_private_pdb`]: the PDB a `-Qpdb_in_private` shader carries in PRIV.
//!
//! Part placement follows LLVM's `llvm/docs/DirectX/DXContainer.md` "Part Placement"
//! (docs/format/pdb.md §2): DXIL stays in the
//! main container only; ILDN and HASH go to both; SRCI to the PDB only; VERS
//! to both; ILDB to the PDB, and also stays in the main container when it is
//! marked kept (`--keep-section=ILDB`, dxc's `-Fd` with `-Qembed_debug`); PRIV
//! (holding the PDB) only to the main container.

use crate::error::{EditError, PdbMismatchReason, Result};
use crate::hash_upkeep::upkeep_hash;
use crate::output::Output;
use crate::parts::{EditWarning, PartData, PlanPart};
use crate::pdb::{pdb_container_from_parts, write_companion_pdb, PDB_CONTAINER_PARTS};
use crate::plan::EditPlan;
use crate::policy::HashPolicy;
use dxcopy_read::digest;
use dxcopy_read::fields::hex;
use dxcopy_read::hash::{md5_of, ShaderHash, FLAG_INCLUDES_SOURCE};
use dxcopy_read::{debug_name, is_msf, Container, PartName, Program, ReadError};
use std::path::PathBuf;

/// Where `--split-debug=PATH` puts the PDB, and the name ILDN records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PdbTarget {
    /// A file path: the PDB is written there and ILDN records the path
    /// exactly as given (dxc `-Fd file`).
    File(String),
    /// A directory (the path ended in `/` or `\`): the PDB is
    /// `<32 hex digits of the HASH digest>.pdb` in it and ILDN records that
    /// file name (dxc `-Fd dir\`). An empty directory means the current one.
    Directory(String),
}

impl PdbTarget {
    /// Reads a `--split-debug` argument: a trailing `/` or `\` means a directory.
    pub fn parse(path: &str) -> PdbTarget {
        if path.is_empty() || path.ends_with('/') || path.ends_with('\\') {
            PdbTarget::Directory(path.to_string())
        } else {
            PdbTarget::File(path.to_string())
        }
    }

    /// The name recorded in ILDN for a shader with `hash`.
    pub fn debug_name(&self, hash: &ShaderHash) -> String {
        match self {
            PdbTarget::File(path) => path.clone(),
            PdbTarget::Directory(_) => hash.pdb_name(),
        }
    }

    /// The file the PDB is written to for a shader with `hash`.
    pub fn file_path(&self, hash: &ShaderHash) -> PathBuf {
        match self {
            PdbTarget::File(path) => native_path(path),
            PdbTarget::Directory(dir) => native_path(&format!("{dir}{}", hash.pdb_name())),
        }
    }
}

/// A path written with `/` or `\` separators as a path of this system: on
/// Windows both already work; elsewhere `\` becomes `/`, so names written for
/// dxc on Windows (`out\shaders\a.pdb`) work unchanged.
pub fn native_path(path: &str) -> PathBuf {
    if cfg!(windows) {
        PathBuf::from(path)
    } else {
        PathBuf::from(path.replace('\\', "/"))
    }
}

/// Inserts `part` before the first part named in `before`; failing that,
/// before PRIV (which stays last); failing that, at the end.
fn insert_before<'data>(plan: &mut EditPlan<'data>, part: PlanPart<'data>, before: &[PartName]) {
    let parts = plan.parts_mut();
    let at = parts
        .iter()
        .position(|p| before.contains(&p.name))
        .or_else(|| parts.iter().position(|p| p.name == PartName::PRIV))
        .unwrap_or(parts.len());
    parts.insert(at, part);
}

/// Replaces every part named `name` with `data`, or inserts a new one with
/// [`insert_before`] rules when there is none.
fn put_part(plan: &mut EditPlan<'_>, name: PartName, data: Vec<u8>, before: &[PartName]) {
    let mut found = false;
    for p in plan.parts_mut().iter_mut().filter(|p| p.name == name) {
        p.replace_data(data.clone());
        found = true;
    }
    if !found {
        let part = PlanPart {
            name,
            data: PartData::Owned(data),
            source: None,
            kept: false,
        };
        insert_before(plan, part, before);
    }
}

/// Sets the ILDN part to `name` (u16 flags 0, u16 length, the name, a NUL,
/// zero padding to 4). A new ILDN goes before HASH or DXIL, where dxc puts it.
pub fn set_debug_name(plan: &mut EditPlan<'_>, name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(EditError::EmptyDebugName);
    }
    let data = debug_name::encode(name.as_bytes())
        .ok_or(EditError::BadDebugName { length: name.len() })?;
    put_part(
        plan,
        PartName::ILDN,
        data,
        &[PartName::HASH, PartName::DXIL],
    );
    Ok(())
}

/// The plan's HASH part, decoded; when there is none, one is computed and
/// added before DXIL: the MD5 of the DXIL bitcode (flags 0, dxc's default),
/// or of the ILDB bitcode with the IncludesSource flag when there is no DXIL.
/// Returns the hash and, when it was added, the part it covers.
pub fn ensure_hash(plan: &mut EditPlan<'_>) -> Result<(ShaderHash, Option<PartName>)> {
    if let Some(p) = plan.find(PartName::HASH) {
        let hash = ShaderHash::parse_data(p.bytes(), 0)
            .map_err(|source| EditError::BadHashPart { source })?;
        return Ok((hash, None));
    }
    let (source, flags) = if plan.find(PartName::DXIL).is_some() {
        (PartName::DXIL, 0)
    } else if plan.find(PartName::ILDB).is_some() {
        (PartName::ILDB, FLAG_INCLUDES_SOURCE)
    } else {
        return Err(EditError::NoProgramToHash);
    };
    let data = plan.find(source).map(PlanPart::bytes).unwrap_or_default();
    let program = Program::parse_data(data, 0).map_err(|e| EditError::HashSourceNotAProgram {
        name: source,
        source: e,
    })?;
    let hash = ShaderHash {
        flags,
        digest: md5_of(program.bitcode),
    };
    put_part(
        plan,
        PartName::HASH,
        hash.to_bytes().to_vec(),
        &[PartName::DXIL],
    );
    Ok((hash, Some(source)))
}

/// The parts a split moves from the shader to the PDB, and a join puts back.
pub const SPLIT_PARTS: [PartName; 3] = [PartName::ILDB, PartName::SRCI, PartName::PDBI];

/// What `--split-debug` / `--pdb-in-private` asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SplitOptions {
    /// Where to write the PDB (`None`: nowhere, for `--pdb-in-private` alone;
    /// ILDN then gets dxc's default `<hash>.pdb`).
    pub target: Option<PdbTarget>,
    /// Embed the PDB in PRIV (last, unpadded), replacing any PRIV.
    pub pdb_in_private: bool,
}

/// The result of [`split_debug`].
#[derive(Debug, Clone)]
pub struct SplitDebug<'data> {
    /// The main container, ready to write.
    pub main: Output<'data>,
    /// The companion PDB file.
    pub pdb: Vec<u8>,
    /// Where to write the PDB (`None` when no target was given).
    pub pdb_path: Option<PathBuf>,
    /// The name recorded in ILDN.
    pub debug_name: String,
    /// The shader's HASH (its digest is the PDB's GUID).
    pub hash: ShaderHash,
    /// Things to tell the user besides `main.warnings()`.
    pub warnings: Vec<EditWarning>,
}

/// Splits the debug info off `plan` (after all other edits): ILDB, SRCI and PDBI
/// move to a companion PDB, the main container gets a HASH (computed when
/// missing) and an ILDN naming the PDB. The PDB's container holds ILDN,
/// HASH, SRCI, VERS and ILDB and copies the main container's final digest;
/// its GUID is the HASH digest. With `pdb_in_private` the PDB also becomes
/// the main container's PRIV part (the PDB then carries the digest the
/// container had before PRIV was added, as with dxc).
///
/// Refuses ([`EditError::NoDebugInfo`]) a container with neither ILDB nor SRCI.
pub fn split_debug<'data>(
    mut plan: EditPlan<'data>,
    options: &SplitOptions,
) -> Result<SplitDebug<'data>> {
    let is_debug = |p: &PlanPart<'_>| SPLIT_PARTS.contains(&p.name);
    if !plan.parts().iter().any(is_debug) {
        return Err(EditError::NoDebugInfo);
    }
    // HASH first: it names the PDB and becomes its GUID, so later upkeep must not change it.
    let mut warnings = Vec::new();
    let input = plan.input().copied();
    let policy = plan.hash_policy;
    upkeep_hash(plan.parts_mut(), input.as_ref(), policy, &mut warnings)?;
    plan.hash_policy = HashPolicy::Keep;
    let (hash, added_from) = ensure_hash(&mut plan)?;
    if let Some(source) = added_from {
        warnings.push(EditWarning::HashAdded {
            digest: hex(&hash.digest),
            source,
        });
    }
    let target = options
        .target
        .clone()
        .unwrap_or_else(|| PdbTarget::Directory(String::new()));
    let debug_name = target.debug_name(&hash);
    set_debug_name(&mut plan, &debug_name)?;
    let debug_parts: Vec<PlanPart<'data>> = plan
        .parts()
        .iter()
        .filter(|p| is_debug(p))
        .cloned()
        .collect();
    plan.parts_mut().retain(|p| p.kept || !is_debug(p));
    let stripped = plan.clone().finish()?;
    let pdb_parts = PDB_CONTAINER_PARTS
        .iter()
        .filter_map(|&name| {
            let from: &[PlanPart<'data>] = if SPLIT_PARTS.contains(&name) {
                &debug_parts
            } else {
                stripped.parts()
            };
            from.iter().find(|p| p.name == name).cloned()
        })
        .collect();
    let container = pdb_container_from_parts(pdb_parts, stripped.digest())?;
    let pdb = write_companion_pdb(&container, hash.digest)?;
    let main = if options.pdb_in_private {
        if plan.find(PartName::PRIV).is_some() {
            warnings.push(EditWarning::PrivateReplacedByPdb);
        }
        plan.set_private(pdb.clone());
        plan.finish()?
    } else {
        stripped
    };
    Ok(SplitDebug {
        main,
        pdb,
        pdb_path: options.target.as_ref().map(|t| t.file_path(&hash)),
        debug_name,
        hash,
        warnings,
    })
}

/// How [`add_debug_from`] knew the PDB belongs to the shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pairing {
    /// The PDB's GUID is the shader's HASH digest.
    GuidIsHash,
    /// The PDB's container carries the shader's digest (dxc copies it).
    DigestCopied,
    /// The PDB's HASH part equals the shader's.
    SameHashPart,
    /// Nothing matched, and the pairing was forced.
    Forced {
        /// What did not match.
        reason: PdbMismatchReason,
    },
}

/// Puts the ILDB, SRCI and PDBI parts of `pdb` (a PDB's stream-5 container, with
/// the PDB's GUID when it came from a PDB file) into `plan`, replacing any
/// there. Before that it checks that the PDB belongs to the shader: its GUID
/// is the shader's HASH digest, or its container carries the shader's
/// (non-sentinel) digest, or its HASH part equals the shader's; otherwise
/// [`EditError::PdbMismatch`] unless `force`.
///
/// New parts go where dxc puts them: in a shader (DXIL present), ILDB
/// before STAT/ILDN/HASH/DXIL and SRCI before ILDB; in a container without
/// DXIL (a PDB container), ILDB at the end and SRCI before VERS/ILDB.
pub fn add_debug_from(
    plan: &mut EditPlan<'_>,
    pdb: &Container<'_>,
    guid: Option<[u8; 16]>,
    force: bool,
) -> Result<Pairing> {
    let ildb = pdb.find(PartName::ILDB);
    let srci = pdb.find(PartName::SRCI);
    let pdbi = pdb.find(PartName::PDBI);
    if ildb.is_none() && srci.is_none() && pdbi.is_none() {
        return Err(EditError::PdbWithoutDebugInfo);
    }
    let pairing = pairing(plan, pdb, guid);
    if let Pairing::Forced { reason } = &pairing {
        if !force {
            return Err(EditError::PdbMismatch {
                reason: reason.clone(),
            });
        }
    }
    let in_shader = plan.find(PartName::DXIL).is_some();
    if let Some(part) = ildb {
        let before: &[PartName] = if in_shader {
            &[
                PartName::STAT,
                PartName::ILDN,
                PartName::HASH,
                PartName::DXIL,
            ]
        } else {
            &[]
        };
        put_part(plan, PartName::ILDB, part.data.to_vec(), before);
    }
    if let Some(part) = srci {
        let before: &[PartName] = if in_shader {
            &[PartName::ILDB]
        } else {
            &[PartName::VERS, PartName::ILDB]
        };
        put_part(plan, PartName::SRCI, part.data.to_vec(), before);
    }
    if let Some(part) = pdbi {
        let before: &[PartName] = if in_shader {
            &[PartName::SRCI, PartName::ILDB]
        } else {
            &[PartName::SRCI, PartName::VERS, PartName::ILDB]
        };
        put_part(plan, PartName::PDBI, part.data.to_vec(), before);
    }
    Ok(pairing)
}

fn pairing(plan: &EditPlan<'_>, pdb: &Container<'_>, guid: Option<[u8; 16]>) -> Pairing {
    let hash_of = |data: Option<&[u8]>| data.and_then(|d| ShaderHash::parse_data(d, 0).ok());
    let shader_hash = hash_of(plan.find(PartName::HASH).map(PlanPart::bytes));
    let pdb_hash = hash_of(pdb.find(PartName::HASH).map(|p| p.data));
    if let (Some(h), Some(g)) = (shader_hash, guid) {
        if h.digest == g {
            return Pairing::GuidIsHash;
        }
    }
    let shader_digest = plan.input().map(|c| c.header().digest);
    let sentinel = |d: &[u8; 16]| [digest::ZERO, digest::BYPASS, digest::PREVIEW].contains(d);
    if let Some(d) = shader_digest {
        if d == pdb.header().digest && !sentinel(&d) {
            return Pairing::DigestCopied;
        }
    }
    if let (Some(a), Some(b)) = (shader_hash, pdb_hash) {
        if a == b {
            return Pairing::SameHashPart;
        }
    }
    let shader_hash = shader_hash.map(|h| h.digest);
    let reason = match guid {
        Some(guid) => PdbMismatchReason::Guid { guid, shader_hash },
        None => PdbMismatchReason::HashPart {
            pdb_hash: pdb_hash.map(|h| h.digest),
            shader_hash,
        },
    };
    Pairing::Forced { reason }
}

/// The PDB a shader carries in PRIV (`-Qpdb_in_private`, `--pdb-in-private`):
/// the PRIV part's bytes, checked to start with the MSF 7.00 magic.
pub fn extract_private_pdb<'data>(container: &Container<'data>) -> Result<&'data [u8]> {
    let part = container
        .find(PartName::PRIV)
        .ok_or_else(|| ReadError::part_not_found("PRIV"))?;
    if is_msf(part.data) {
        Ok(part.data)
    } else {
        Err(EditError::PrivNotPdb)
    }
}
