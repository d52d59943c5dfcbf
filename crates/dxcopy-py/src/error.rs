//! `dxcopy.Error`: every read and edit failure, with the command-line
//! tools' message as its text and `.path`, `.part`, `.offset` attributes.

use dxcopy_edit::{EditError, EditWarning, Operation, Remedy};
use dxcopy_read::{ReadError, ReadErrorKind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::Path;

pyo3::create_exception!(
    dxcopy,
    Error,
    PyValueError,
    "A container could not be read or edited.\n\n\
     The text is the message the dxcopy command prints for the same failure, \
     except that where the command names an option, it names the Python \
     method or argument. \
     Attributes (None when not known): path (str, the file), part (str, the \
     part's name), offset (int, the absolute byte offset of the problem)."
);

/// `dxcopy.FileNotFoundError`, made when the module is loaded.
static NOT_FOUND: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();

/// Adds `Error` to the module, with its attributes defaulting to None, and
/// `FileNotFoundError`: a file that does not exist is both a `dxcopy.Error`
/// and Python's own `FileNotFoundError` (`except FileNotFoundError` works,
/// `errno` and `filename` are set; the text is dxcopy's message).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let class = py.get_type::<Error>();
    for attribute in ["path", "part", "offset"] {
        class.setattr(attribute, py.None())?;
    }
    m.add("Error", &class)?;
    let builtins = py.import("builtins")?;
    let members = pyo3::types::PyDict::new(py);
    // dxcopy's message as the text, not OSError's `[Errno 2] …` form.
    members.set_item(
        "__str__",
        builtins.getattr("BaseException")?.getattr("__str__")?,
    )?;
    members.set_item("__module__", "dxcopy")?;
    members.set_item(
        "__doc__",
        "A file that does not exist: a dxcopy.Error and a FileNotFoundError.",
    )?;
    let bases = pyo3::types::PyTuple::new(
        py,
        [class.into_any(), builtins.getattr("FileNotFoundError")?],
    )?;
    let not_found = builtins
        .getattr("type")?
        .call1(("FileNotFoundError", bases, members))?;
    m.add("FileNotFoundError", &not_found)?;
    let _ = NOT_FOUND.set(py, not_found.unbind());
    Ok(())
}

/// The exception for `message`: `dxcopy.FileNotFoundError` for a missing
/// file, else `dxcopy.Error`.
fn new_error(py: Python<'_>, e: &EditError, message: String) -> PyErr {
    let EditError::Io { path, source } = e else {
        return Error::new_err(message);
    };
    let Some(class) = NOT_FOUND
        .get(py)
        .filter(|_| source.kind() == std::io::ErrorKind::NotFound)
    else {
        return Error::new_err(message);
    };
    let made = class.bind(py).call1((message,)).and_then(|value| {
        value.setattr("errno", source.raw_os_error().unwrap_or(2))?;
        value.setattr("filename", path.display().to_string())?;
        Ok(PyErr::from_value(value))
    });
    made.unwrap_or_else(|e| e)
}

/// Where an error lies, as far as the error says.
#[derive(Debug, Default, PartialEq, Eq)]
struct Location {
    path: Option<String>,
    part: Option<String>,
    offset: Option<u64>,
}

fn read_location(e: &ReadError) -> Location {
    match &e.kind {
        // About the whole container: no offset to point at.
        ReadErrorKind::PartNotFound { name } => Location {
            part: Some(name.clone()),
            ..Location::default()
        },
        _ => Location {
            path: None,
            part: e.part().map(|p| p.name.to_string()),
            offset: Some(e.offset),
        },
    }
}

fn edit_location(e: &EditError) -> Location {
    match e {
        EditError::Read(r) => read_location(r),
        EditError::InPdbStream(inner) => edit_location(inner),
        EditError::NotAProgram { name, source } => Location {
            part: Some(name.to_string()),
            ..read_location(source)
        },
        EditError::AlreadyExists(name) | EditError::EmptyPart(name) => Location {
            part: Some(name.to_string()),
            ..Location::default()
        },
        EditError::Io { path, .. } => Location {
            path: Some(path.display().to_string()),
            ..Location::default()
        },
        _ => Location::default(),
    }
}

/// How the Python API spells an operation of the library in messages: the
/// method or argument that asks for it (the command-line tools name their
/// options instead; operations Python does not offer keep the library's words).
pub fn python_name(operation: Operation) -> &'static str {
    match operation {
        Operation::AddSection => "Edit.add()",
        Operation::UpdateSection => "Edit.update()",
        Operation::SetPrivate => "Edit.set_private()",
        Operation::OnlySection => "Edit.only()",
        Operation::RemoveSection => "Edit.remove()",
        Operation::KeepSection => "Edit.keep()",
        Operation::DigestZero => "digest=\"zero\"",
        Operation::DigestRetail => "digest=\"retail\"",
        Operation::HashUpdate => "hash=\"update\"",
        Operation::StripReflect => "Edit.strip(\"reflect\")",
        other => other.describe(),
    }
}

/// The text of an edit warning in the Python API's terms.
pub fn warning_text(warning: &EditWarning) -> String {
    warning.message_with(python_name)
}

/// What helps, in the Python API's terms, as the end of a message. (The
/// command-line tools name their options instead.)
fn method_hint(remedy: Remedy) -> &'static str {
    match remedy {
        Remedy::UpdateInstead => "; use Edit.update() to replace it",
        Remedy::StripOrReplacePriv => {
            "; remove them with Edit.strip(\"priv\") or replace them with Edit.set_private()"
        }
        Remedy::WalkDirectory => {
            "; strip_files() takes files: list the ones in it (e.g. with pathlib's rglob)"
        }
        Remedy::ChooseArray => "; read_header() gives every array by name",
        _ => "",
    }
}

/// The Python exception for `e`, an error about the file `file` (None for
/// bytes given in memory): its text is the command-line message, in the
/// Python API's terms.
pub fn to_py(py: Python<'_>, e: &EditError, file: Option<&Path>) -> PyErr {
    let mut message = match file {
        Some(file) => e.file_message_with(file, python_name),
        None => e.message_with(python_name),
    };
    if let Some(remedy) = e.remedy() {
        message.push_str(method_hint(remedy));
    }
    let mut location = edit_location(e);
    if location.path.is_none() {
        location.path = file.map(|f| f.display().to_string());
    }
    let err = new_error(py, e, message);
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("path", location.path)?;
        value.setattr("part", location.part)?;
        value.setattr("offset", location.offset)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// [`to_py`] for a read error.
pub fn read_to_py(py: Python<'_>, e: ReadError, file: Option<&Path>) -> PyErr {
    to_py(py, &EditError::Read(e), file)
}

/// The Python exception for a DXIL listing that could not be made: a read
/// error as [`read_to_py`], otherwise the message with `path` and, when it
/// is about the module of one part, `part`.
pub fn listing_to_py(
    py: Python<'_>,
    e: dxcopy_read::listing::dxil::ListingError,
    file: Option<&Path>,
) -> PyErr {
    use dxcopy_read::listing::dxil::ListingError;
    let part = match &e {
        ListingError::Read(read) => return read_to_py(py, read.clone(), file),
        ListingError::Module { part, .. }
        | ListingError::Header { part, .. }
        | ListingError::TooLarge { part, .. } => Some(part.to_string()),
        _ => None,
    };
    error_with(py, &e, file, part)
}

/// The Python exception for a DXBC listing cut short or not made: a read
/// error as [`read_to_py`], otherwise the message with `path` and, for a
/// token stream that does not decode, `part` (SHDR or SHEX).
pub fn disasm_to_py(
    py: Python<'_>,
    e: dxcopy_read::listing::dxbc::DisasmError,
    file: Option<&Path>,
) -> PyErr {
    use dxcopy_read::listing::dxbc::DisasmError;
    let part = match &e {
        DisasmError::Read(read) => return read_to_py(py, read.clone(), file),
        DisasmError::Decode { part, .. } => Some(part.to_string()),
        _ => None,
    };
    error_with(py, &e, file, part)
}

/// dxcopy.Error with the message of `e` (naming `file`) and its `path`
/// and `part` attributes.
fn error_with(
    py: Python<'_>,
    e: &dyn std::fmt::Display,
    file: Option<&Path>,
    part: Option<String>,
) -> PyErr {
    let message = match file {
        Some(file) => format!("'{}': {e}", file.display()),
        None => e.to_string(),
    };
    let err = Error::new_err(message);
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("path", file.map(|f| f.display().to_string()))?;
        value.setattr("part", part)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}
