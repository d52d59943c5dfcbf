//! `dxcopy.strip_files`: dxstrip from Python — many files stripped in
//! place, in parallel, with the GIL released.

use crate::edit::strip_class;
use crate::error::to_py;
use dxcopy_edit::{batch, run_many, Config};
use pyo3::prelude::*;
use std::path::PathBuf;

/// The outcome of stripping one file with strip_files().
#[pyclass(module = "dxcopy", frozen)]
pub struct StripResult {
    /// The file, as given.
    #[pyo3(get)]
    path: String,
    /// How many parts were removed (0 when the file failed).
    #[pyo3(get)]
    removed: usize,
    /// The dxcopy.Error for this file, or None when it was stripped.
    #[pyo3(get)]
    error: Option<Py<PyAny>>,
    /// Warnings for this file, as dxstrip prints them.
    #[pyo3(get)]
    warnings: Vec<String>,
    /// The earlier path of `paths` that names the same file (a link, a hard
    /// link, another spelling), or None: a file is stripped once, so this
    /// path was not stripped again; its error is that file's, its removed 0.
    #[pyo3(get)]
    same_as: Option<String>,
}

#[pymethods]
impl StripResult {
    /// Whether the file was stripped (error is None).
    #[getter]
    fn ok(&self) -> bool {
        self.error.is_none()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match &self.error {
            None => format!(
                "<dxcopy.StripResult {:?} removed={}>",
                self.path, self.removed
            ),
            Some(e) => format!(
                "<dxcopy.StripResult {:?} error={}>",
                self.path,
                e.bind(py).str().map(|s| s.to_string()).unwrap_or_default()
            ),
        }
    }
}

/// Strips parts from many containers in place, like dxstrip.
///
/// Every file of `paths` is edited in place (a temp file renamed over it,
/// permissions kept); `classes` are strip classes ("debug", "reflect",
/// "priv", "rootsig", "all"). Files are processed in parallel by `jobs`
/// threads (default: two per core) with the GIL released. A bad file does
/// not stop the others: the result list has one StripResult per path, in
/// the order given, whose error is a dxcopy.Error with dxstrip's message.
/// A file named by several paths (links, hard links, `x` and `./x`) is
/// stripped once, as by dxstrip: the later paths' results have `same_as`
/// set to the first path and `removed` 0, so summing `removed` counts each
/// file once.
#[pyfunction]
#[pyo3(signature = (paths, classes = vec!["debug".to_string()], jobs = None))]
pub fn strip_files(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    classes: Vec<String>,
    jobs: Option<usize>,
) -> PyResult<Vec<StripResult>> {
    let mut config = Config::default();
    // A C header among the paths has every array stripped, as by dxstrip.
    config.headers.all_arrays = true;
    for name in &classes {
        config.edits.strip.push(strip_class(py, name)?);
    }
    if jobs == Some(0) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "jobs must be at least 1",
        ));
    }
    let same = batch::same_files(&paths);
    let unique: Vec<PathBuf> = (paths.iter().zip(&same))
        .filter(|(_, s)| s.is_none())
        .map(|(p, _)| p.clone())
        .collect();
    let outcomes = py.detach(|| {
        let mut outcomes = Vec::with_capacity(unique.len());
        run_many(&config, &unique, None, jobs, || {}, |_, r| outcomes.push(r));
        outcomes
    });
    let mut outcomes = outcomes.into_iter();
    let mut results: Vec<StripResult> = Vec::with_capacity(paths.len());
    for (path, same) in paths.iter().zip(same) {
        let shown = path.to_string_lossy().into_owned();
        if let Some(first) = same {
            let first = &results[first];
            let error = first.error.as_ref().map(|e| e.clone_ref(py));
            let same_as = Some(first.same_as.clone().unwrap_or_else(|| first.path.clone()));
            results.push(StripResult {
                path: shown,
                removed: 0,
                error,
                warnings: Vec::new(),
                same_as,
            });
            continue;
        }
        let Some(outcome) = outcomes.next() else {
            break;
        };
        results.push(match outcome {
            Ok(report) => StripResult {
                path: shown,
                removed: report.parts_before.saturating_sub(report.parts_after),
                error: None,
                warnings: report
                    .warnings
                    .iter()
                    .map(crate::error::warning_text)
                    .collect(),
                same_as: None,
            },
            Err(e) => StripResult {
                path: shown,
                removed: 0,
                error: Some(to_py(py, &e, Some(path)).into_value(py).into_any()),
                warnings: Vec::new(),
                same_as: None,
            },
        });
    }
    Ok(results)
}
