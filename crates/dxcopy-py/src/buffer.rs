//! Bytes from Python objects: anything with the buffer protocol, copied.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView};

/// Bytes from any object that supports the buffer protocol (bytes,
/// bytearray, memoryview, mmap, array, …). Anything else is a TypeError:
/// `bytes(x)` is not used, as it turns an int into that many zero bytes and
/// a list of ints into bytes.
pub fn buffer_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = data.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    let not_bytes = || {
        let type_name = data
            .get_type()
            .name()
            .map_or_else(|_| "that type".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!("expected a bytes-like object, not {type_name}"))
    };
    // A str has no buffer; memoryview() accepts exactly the buffer-protocol objects.
    let view = PyMemoryView::from(data).map_err(|_| not_bytes())?;
    let bytes = view.call_method0("tobytes")?;
    Ok(bytes.cast::<PyBytes>()?.as_bytes().to_vec())
}
