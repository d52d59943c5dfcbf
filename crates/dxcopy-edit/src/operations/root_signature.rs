//! Adding or replacing the root signature (RTS0) from a file, and the
//! container unwrapping that `--update-section=RTS0=FILE` does when FILE is
//! a whole root-signature container rather than a part.

use crate::error::{EditError, Result};
use crate::plan::EditPlan;
use dxcopy_read::info::verify::root_signature::read_root_signature_file;
use dxcopy_read::PartName;
use std::path::Path;

/// Where RTS0 data came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootSignatureSource {
    /// The file was the bare part data.
    Part,
    /// The file was a container; its RTS0 part was used.
    Container,
}

/// Reads and decodes a root signature file (a container holding RTS0, or bare
/// RTS0 data); a file that does not decode is refused, naming the file.
pub fn load(path: &Path, bytes: &[u8]) -> Result<(Vec<u8>, RootSignatureSource)> {
    let file = read_root_signature_file(bytes).map_err(|source| EditError::BadRootSignature {
        path: path.to_path_buf(),
        source,
    })?;
    let source = if file.from_container {
        RootSignatureSource::Container
    } else {
        RootSignatureSource::Part
    };
    Ok((file.data.to_vec(), source))
}

/// `--set-root-signature`: replaces every RTS0 part of `plan` with `data`, or
/// adds one (before PRIV, padded to 4 bytes) when there is none.
pub fn set_root_signature(plan: &mut EditPlan<'_>, data: Vec<u8>) -> Result<()> {
    if plan.find(PartName::RTS0).is_some() {
        plan.update(PartName::RTS0, data)
    } else {
        plan.add(PartName::RTS0, data)
    }
}

/// For `--update-section=NAME=FILE`: when NAME is RTS0 and FILE is a
/// container (it starts with the container magic), the data of its RTS0 part,
/// decoded first; `None` when FILE is to be used as it is.
pub fn unwrap_update(name: PartName, path: &Path, bytes: &[u8]) -> Result<Option<Vec<u8>>> {
    if name != PartName::RTS0 || !bytes.starts_with(b"DXBC") {
        return Ok(None);
    }
    let (data, _) = load(path, bytes)?;
    Ok(Some(data))
}
