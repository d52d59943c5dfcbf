//! `dxcopy.assemble`: a listing (DXBC or DXIL, told from the text) into a
//! new container, or into an existing one, as dxasm does.

use crate::buffer::buffer_bytes;
use crate::error::Error;
use dxcopy_edit::asm::{self, FloatHints};
use dxcopy_edit::dxil_asm::{self, ListingKind};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

fn error(message: impl std::fmt::Display) -> PyErr {
    Error::new_err(message.to_string())
}

/// Assembles a listing into a container, as dxasm does.
///
/// `text` is a DXBC listing (Shader Model 4.0-5.1) or a DXIL listing
/// (dxc's, LLVM 3.7 assembly); which is told from the text. Without `into`,
/// a new signed container; with `into` (the bytes of a container), that
/// container with its program replaced (DXIL: the module replaced, the
/// parts it derives rebuilt, ILDB dropped when the module changed).
///
/// Raises dxcopy.Error when the listing does not assemble (the message
/// starts with `line:column: error:`) or the container cannot take it.
#[pyfunction]
#[pyo3(signature = (text, into = None))]
pub fn assemble<'py>(
    py: Python<'py>,
    text: &str,
    into: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let original = into.map(buffer_bytes).transpose()?;
    let bytes = match (dxil_asm::listing_kind(text), original) {
        (ListingKind::Dxil, None) => dxil_asm::build_dxil_container(text).map_err(error)?,
        (ListingKind::Dxil, Some(original)) => {
            dxil_asm::patch_dxil_container(&original, text)
                .map_err(error)?
                .bytes
        }
        (ListingKind::Dxbc, None) => {
            let assembly = asm::assemble(text, &mut FloatHints::none()).map_err(error)?;
            asm::build_container(&assembly).map_err(error)?
        }
        (ListingKind::Dxbc, Some(original)) => {
            asm::patch_container(&original, text).map_err(error)?.bytes
        }
    };
    Ok(PyBytes::new(py, &bytes))
}
