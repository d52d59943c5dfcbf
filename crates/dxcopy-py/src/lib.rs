//! The Python module `dxcopy`: bindings over `dxcopy-read` and `dxcopy-edit`.
//!
//! Everything here converts between Python and the libraries; every format
//! rule lives in the libraries, so a Python script gets exactly what the
//! command-line tools do (the same bytes, the same error messages). The
//! Python-facing documentation is in the docstrings and in `dxcopy.pyi`.

mod assemble;
mod buffer;
mod container;
mod edit;
mod error;
mod input;
mod module;
mod projects;
mod strip;
mod survey;

use pyo3::prelude::*;

/// Read, inspect, edit and strip DirectX Container files (DXBC/DXIL shaders).
///
/// The same library as the dxcopy, dxstrip and dxinfo commands: results are
/// byte-identical to theirs and errors carry the same messages.
///
/// Example:
///
///     import dxcopy
///     c = dxcopy.Container.open("shader.dxil")
///     print([p.name for p in c.parts], c.digest_kind)
///     c.edit().strip("debug").set_private(b"build 42").write("shipped.dxil")
///     for r in dxcopy.strip_files(["a.dxil", "b.dxil"]):
///         print(r.path, r.removed, r.error)
#[pymodule(name = "dxcopy")]
fn dxcopy_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    error::register(m)?;
    m.add_class::<container::Container>()?;
    m.add_class::<container::Part>()?;
    m.add_class::<container::Finding>()?;
    m.add_class::<edit::Edit>()?;
    m.add_class::<module::Module>()?;
    m.add_class::<module::Constant>()?;
    m.add_function(wrap_pyfunction!(module::read_module, m)?)?;
    m.add_function(wrap_pyfunction!(assemble::assemble, m)?)?;
    m.add_class::<strip::StripResult>()?;
    m.add_function(wrap_pyfunction!(strip::strip_files, m)?)?;
    m.add_function(wrap_pyfunction!(projects::read_header, m)?)?;
    m.add_function(wrap_pyfunction!(projects::write_header, m)?)?;
    m.add_function(wrap_pyfunction!(projects::diff, m)?)?;
    m.add_function(wrap_pyfunction!(projects::stats, m)?)?;
    m.add_function(wrap_pyfunction!(projects::extract_sources, m)?)?;
    m.add_function(wrap_pyfunction!(survey::survey, m)?)?;
    m.add_function(wrap_pyfunction!(survey::survey_columns, m)?)?;
    m.add_function(wrap_pyfunction!(survey::to_parquet, m)?)?;
    Ok(())
}
