//! The input of a `dxcopy.Container`: the file as read or mapped, and the
//! container inside it. Shared by `Container` and `Edit` (an edit reads the
//! input its container was opened from).

use crate::error::to_py;
use dxcopy_edit::EditError;
use dxcopy_read::info::Inspection;
use dxcopy_read::{container_input, Container as Parsed, ContainerSource};
use dxcopy_read::{InputChange, MappedFile, PdbInfo, ReadError};
use pyo3::prelude::*;
use std::path::PathBuf;

/// The bytes behind a [`Container`]: the input as read or mapped, and the
/// container taken out of it when the input is a PDB.
pub struct Input {
    /// The file the input was read from (None for bytes given in memory).
    pub path: Option<PathBuf>,
    /// How the input is named in documents (`file` of `to_dict()`).
    pub name: String,
    /// The whole input.
    pub file: MappedFile,
    /// For a dxc companion PDB: the container in its stream 5 and the PDB's info stream.
    pub pdb: Option<(Vec<u8>, PdbInfo)>,
}

impl Input {
    /// Reads the container in `file` (a container or a dxc companion PDB),
    /// checking it as the dxcopy command does.
    pub(crate) fn load(
        file: MappedFile,
        path: Option<PathBuf>,
        name: String,
    ) -> Result<Input, (EditError, Option<PathBuf>)> {
        let found = match container_input(&file) {
            Ok(found) => found,
            Err(e) => return Err((e.into(), path)),
        };
        let pdb = match found.source {
            ContainerSource::PdbStream5 { info } => Some((found.bytes.into_owned(), info)),
            ContainerSource::Container => None,
        };
        let input = Input {
            path,
            name,
            file,
            pdb,
        };
        // A file that changed while it was read: that is the error, whatever
        // else the bytes say.
        let checked = match input.file.changed() {
            Some(change) => Err(input.changed_error(change)),
            None => input
                .container()
                .map(|_| ())
                .map_err(|e| input.in_stream(e.into())),
        };
        match checked {
            Ok(()) => Ok(input),
            Err(e) => Err((e, input.path)),
        }
    }

    /// The memory-mapped file the container's bytes are read from, each
    /// time they are read (`None` for bytes read into memory when the input
    /// was opened: small files, PDBs, stdin and bytes given in memory).
    pub fn mapped_file(&self) -> Option<&MappedFile> {
        (self.pdb.is_none() && self.file.is_mapped()).then_some(&self.file)
    }

    /// How the input changed since it was opened, in a way that makes the
    /// bytes read from it wrong: for a mapped file, a truncation (its pages
    /// past the new end read as zeros), a new length or modification time,
    /// as the dxcopy command checks before it writes anything. Bytes read
    /// into memory were checked when they were read.
    pub fn changed(&self) -> Option<InputChange> {
        match self.mapped_file() {
            Some(file) => file.changed(),
            None => None,
        }
    }

    pub(crate) fn changed_error(&self, change: InputChange) -> EditError {
        EditError::InputChanged {
            path: self.path.clone().unwrap_or_else(|| PathBuf::from("-")),
            change,
        }
    }

    /// `result`, unless the input changed since it was opened (see
    /// [`changed`](Self::changed)): then that is the error, as it explains
    /// any other (a part past the new end, zeros where data was).
    pub fn checked<T>(&self, result: Result<T, EditError>) -> Result<T, EditError> {
        match self.changed() {
            Some(change) => Err(self.changed_error(change)),
            None => result,
        }
    }

    /// [`checked`](Self::checked), as the Python exception.
    pub fn checked_py<T>(&self, py: Python<'_>, result: Result<T, EditError>) -> PyResult<T> {
        self.checked(result).map_err(|e| self.error(py, e))
    }

    /// The container's bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.pdb {
            Some((bytes, _)) => bytes,
            None => &self.file,
        }
    }

    /// The parsed container (checked when the input was loaded).
    pub fn container(&self) -> Result<Parsed<'_>, ReadError> {
        Parsed::parse(self.bytes())
    }

    /// Whether the container came from a PDB's stream 5.
    pub fn is_pdb(&self) -> bool {
        self.pdb.is_some()
    }

    /// For a PDB input, an error about its container says so, like the CLI's.
    pub fn in_stream(&self, e: EditError) -> EditError {
        match e {
            EditError::Io { .. } | EditError::PdbInPlace => e,
            other if self.is_pdb() => EditError::InPdbStream(Box::new(other)),
            other => other,
        }
    }

    /// The Python exception for an error about this input.
    pub fn error(&self, py: Python<'_>, e: EditError) -> PyErr {
        to_py(py, &self.in_stream(e), self.path.as_deref())
    }

    pub(crate) fn parsed(&self, py: Python<'_>) -> PyResult<Parsed<'_>> {
        self.checked_py(py, self.container().map_err(Into::into))
    }

    /// The container with every part decoded, as dxinfo inspects it (with
    /// the PDB's info stream for a PDB input).
    pub(crate) fn inspection(&self) -> Result<Inspection<'_>, ReadError> {
        let insp = Inspection::new(self.container()?);
        Ok(match &self.pdb {
            Some((_, info)) => insp.from_pdb(*info),
            None => insp,
        })
    }
}
