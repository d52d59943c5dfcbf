//! The survey from Python: `dxinfo --rows` as a list of dicts or a
//! `pyarrow.Table` (docs/rows.md), and the helpers that make it a Parquet
//! file.

use dxcopy_edit::scan::{survey_paths, Surveyed};
use dxcopy_read::scan::rows::{column_types, Cell, ColumnType};
use dxcopy_read::scan::source::ScanOptions;
use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;

/// One row per container found in `paths` (files and folders, walked when
/// `recursive`), with the columns of `dxinfo --rows` (docs/rows.md), or
/// only `columns`, in their order. With `scan`, the containers inside any
/// file (at any offset, in zip members and gzip streams, as `dxinfo
/// --scan`); without, each file read as one container.
///
/// Returns a `pyarrow.Table` when pyarrow is installed (`table=None`) or
/// asked for (`table=True`), else a list of dicts. The files that could not
/// be read are not rows: `errors`, when a list is given, receives their
/// messages. The work runs with the GIL released.
#[pyfunction]
#[pyo3(signature = (paths, columns = None, *, scan = false, recursive = true, table = None, errors = None, member_limit = None))]
#[allow(clippy::too_many_arguments)]
pub fn survey<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    columns: Option<Vec<String>>,
    scan: bool,
    recursive: bool,
    table: Option<bool>,
    errors: Option<Bound<'py, PyList>>,
    member_limit: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let all = column_types();
    let picked: Vec<usize> = match &columns {
        None => (0..all.len()).collect(),
        Some(names) => names
            .iter()
            .map(|name| {
                all.iter()
                    .position(|(n, _)| n == name)
                    .ok_or_else(|| PyValueError::new_err(format!("no survey column '{name}'")))
            })
            .collect::<PyResult<_>>()?,
    };
    let mut options = ScanOptions::default();
    if let Some(limit) = member_limit {
        options.member_limit = limit;
    }
    let (rows, failures) = py.detach(|| {
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        let mut failures = Vec::new();
        let scan = scan.then_some(&options);
        survey_paths(&paths, recursive, scan, &mut |item| match item {
            Surveyed::Row(row) => rows.push(row),
            Surveyed::Failed(message) => failures.push(message),
            Surveyed::Rejected(_) => {}
        });
        (rows, failures)
    });
    if let Some(list) = errors {
        for message in failures {
            list.append(message)?;
        }
    }
    let list = PyList::empty(py);
    for row in &rows {
        let dict = PyDict::new(py);
        for &i in &picked {
            dict.set_item(&all[i].0, cell(py, &row[i])?)?;
        }
        list.append(dict)?;
    }
    let arrow = match table {
        Some(false) => return Ok(list.into_any()),
        Some(true) => Some(py.import("pyarrow")?),
        None => match py.import("pyarrow") {
            Ok(pa) => Some(pa),
            Err(e) if e.is_instance_of::<PyImportError>(py) => None,
            Err(e) => return Err(e),
        },
    };
    match arrow {
        Some(pa) => {
            let names: Vec<String> = picked.iter().map(|&i| all[i].0.clone()).collect();
            to_table(py, &pa, list.into_any(), Some(names))
        }
        None => Ok(list.into_any()),
    }
}

/// The survey columns as `(name, type)`, type `text`, `integer` or `bool`,
/// in order.
#[pyfunction]
pub fn survey_columns() -> Vec<(String, &'static str)> {
    column_types()
        .into_iter()
        .map(|(name, ty)| (name, ty.as_str()))
        .collect()
}

/// Writes survey rows (a list of dicts from `survey`, or a `pyarrow.Table`)
/// to a Parquet file at `path`, typed by the column types (needs pyarrow).
#[pyfunction]
pub fn to_parquet(py: Python<'_>, rows: Bound<'_, PyAny>, path: PathBuf) -> PyResult<()> {
    let pa = py.import("pyarrow")?;
    let table = if rows.is_instance(&pa.getattr("Table")?)? {
        rows
    } else {
        let names = rows
            .cast::<PyList>()
            .ok()
            .and_then(|list| list.get_item(0).ok())
            .and_then(|first| first.cast_into::<PyDict>().ok())
            .map(|first| {
                first
                    .keys()
                    .iter()
                    .filter_map(|k| k.extract::<String>().ok())
                    .collect()
            });
        to_table(py, &pa, rows, names)?
    };
    let parquet = py.import("pyarrow.parquet")?;
    parquet.call_method1("write_table", (table, path))?;
    Ok(())
}

/// A `pyarrow.Table` of `rows` with the schema of the survey columns
/// `names` (all of them when `None`).
fn to_table<'py>(
    py: Python<'py>,
    pa: &Bound<'py, PyModule>,
    rows: Bound<'py, PyAny>,
    names: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let all = column_types();
    let fields = PyList::empty(py);
    let wanted = names.unwrap_or_else(|| all.iter().map(|(n, _)| n.clone()).collect());
    for name in &wanted {
        let ty = all
            .iter()
            .find(|(n, _)| n == name)
            .map_or(ColumnType::Text, |(_, ty)| *ty);
        let arrow_type = match ty {
            ColumnType::Text => pa.call_method0("string")?,
            ColumnType::Integer => pa.call_method0("int64")?,
            ColumnType::Bool => pa.call_method0("bool_")?,
        };
        fields.append(pa.call_method1("field", (name, arrow_type))?)?;
    }
    let schema = pa.call_method1("schema", (fields,))?;
    let table = pa.getattr("Table")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("schema", schema)?;
    table.call_method("from_pylist", (rows,), Some(&kwargs))
}

/// A cell as a Python value: None, int, str or bool.
fn cell<'py>(py: Python<'py>, value: &Cell) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    match value {
        Cell::Null => Ok(py.None().into_bound(py)),
        Cell::Bool(b) => b.into_bound_py_any(py),
        Cell::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py),
            (None, Some(i)) => i.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or_default().into_bound_py_any(py),
        },
        Cell::String(s) => s.into_bound_py_any(py),
        other => other.to_string().into_bound_py_any(py),
    }
}
