//! `dxcopy.Edit`: the edits of one dxcopy invocation, collected call by call
//! and applied by the library in the command's fixed order.

use crate::buffer::buffer_bytes;
use crate::error::warning_text;
use crate::input::Input;
use dxcopy_edit::config::part_name;
use dxcopy_edit::{Config, DigestPolicy, EditError, HashPolicy, NameMatcher, StripClass};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An edit of a container, made by `Container.edit()`.
///
/// Collect the edits with remove, only, keep, strip, add, update and
/// set_private (each returns the Edit, so calls chain), then produce the
/// result with finish() (bytes) or write(path). As with the dxcopy command,
/// the order of the calls does not matter: keep marks come first, then only
/// (which overrides remove) or remove, strip classes, updates, adds and
/// set_private; then the HASH part and the header digest are brought up to
/// date. The result is byte-identical to the dxcopy command given the same
/// options. The input is never modified by finish(); write() replaces its
/// destination atomically.
#[pyclass(module = "dxcopy")]
pub struct Edit {
    input: Arc<Input>,
    /// The edits as one dxcopy invocation; data given in memory is its
    /// `inline_data`, named after the call that gave it.
    config: Config,
    warnings: Vec<String>,
}

fn invalid(py: Python<'_>, e: EditError) -> PyErr {
    crate::error::to_py(py, &e, None)
}

fn policies(py: Python<'_>, digest: &str, hash: &str) -> PyResult<(DigestPolicy, HashPolicy)> {
    let digest = DigestPolicy::parse(digest)
        .ok_or_else(|| invalid(py, EditError::UnknownDigestPolicy(digest.to_string())))?;
    let hash = HashPolicy::parse(hash)
        .ok_or_else(|| invalid(py, EditError::UnknownHashPolicy(hash.to_string())))?;
    Ok((digest, hash))
}

/// The strip class named `name`, or the error naming the valid ones.
pub fn strip_class(py: Python<'_>, name: &str) -> PyResult<StripClass> {
    let every = [
        StripClass::Debug,
        StripClass::Reflect,
        StripClass::Priv,
        StripClass::RootSig,
        StripClass::All,
    ];
    let found = every.into_iter().find(|c| c.as_str() == name);
    found.ok_or_else(|| invalid(py, EditError::UnknownStripClass(name.to_string())))
}

/// Whether `a` and `b` name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

impl Edit {
    pub fn new(input: Arc<Input>, config: Config) -> Edit {
        Edit {
            input,
            config,
            warnings: Vec::new(),
        }
    }

    fn check_pattern(&self, py: Python<'_>, pattern: &str) -> PyResult<()> {
        NameMatcher::from_patterns(&[pattern], self.config.match_style)
            .map(|_| ())
            .map_err(|e| invalid(py, e))
    }

    /// The `(name, data path)` pair `add`/`update` record: `name` checked as
    /// a part name, `data` recorded through [`Self::inline`].
    fn named_data(
        &mut self,
        py: Python<'_>,
        call: &str,
        name: &str,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<(String, PathBuf)> {
        part_name(name).map_err(|e| invalid(py, e))?;
        let bytes = buffer_bytes(data)?;
        let path = self.inline(&format!("{call}('{name}')"), bytes);
        Ok((name.to_string(), path))
    }

    /// Records `data` under a name that says which call gave it (the name
    /// appears in messages about the data) and returns that name.
    fn inline(&mut self, call: &str, data: Vec<u8>) -> PathBuf {
        let n = self.config.inline_data.len() + 1;
        let path = PathBuf::from(format!("<data #{n} of {call}>"));
        self.config.inline_data.push((path.clone(), data));
        path
    }

    fn with_policies(&self, py: Python<'_>, digest: &str, hash: &str) -> PyResult<Config> {
        let (digest, hash) = policies(py, digest, hash)?;
        Ok(Config {
            digest,
            hash,
            ..self.config.clone()
        })
    }
}

#[pymethods]
impl Edit {
    /// Removes the parts matching `pattern` (like -R; a glob, or a regular
    /// expression with edit(regex=True); "!pattern" excludes).
    fn remove<'py>(mut slf: PyRefMut<'py, Self>, pattern: &str) -> PyResult<PyRefMut<'py, Self>> {
        slf.check_pattern(slf.py(), pattern)?;
        slf.config.edits.remove.push(pattern.to_string());
        Ok(slf)
    }

    /// Keeps only the parts matching `pattern` (like -j; overrides remove).
    fn only<'py>(mut slf: PyRefMut<'py, Self>, pattern: &str) -> PyResult<PyRefMut<'py, Self>> {
        slf.check_pattern(slf.py(), pattern)?;
        slf.config.edits.only.push(pattern.to_string());
        Ok(slf)
    }

    /// Never removes the parts matching `pattern` (like --keep-section).
    fn keep<'py>(mut slf: PyRefMut<'py, Self>, pattern: &str) -> PyResult<PyRefMut<'py, Self>> {
        slf.check_pattern(slf.py(), pattern)?;
        slf.config.keep.push(pattern.to_string());
        Ok(slf)
    }

    /// Strips a class of parts: "debug" (ILDB, SRCI, PDBI, SDBG, SPDB),
    /// "reflect" (STAT, RDEF), "priv" (PRIV), "rootsig" (RTS0) or "all"
    /// (debug, reflect, priv, ILDN and VERS), like --strip-debug and friends.
    fn strip<'py>(mut slf: PyRefMut<'py, Self>, cls: &str) -> PyResult<PyRefMut<'py, Self>> {
        let class = strip_class(slf.py(), cls)?;
        slf.config.edits.strip.push(class);
        Ok(slf)
    }

    /// Adds part `name` with `data` (like --add-section; an error at finish
    /// if the part exists). Data other than PRIV's is zero-padded to 4 bytes.
    fn add<'py>(
        mut slf: PyRefMut<'py, Self>,
        name: &str,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let py = slf.py();
        let entry = slf.named_data(py, "add", name, data)?;
        slf.config.edits.add.push(entry);
        Ok(slf)
    }

    /// Replaces part `name` with `data` (like --update-section). Raw LLVM
    /// bitcode for DXIL or ILDB keeps the part's program header and rewrites
    /// its sizes.
    fn update<'py>(
        mut slf: PyRefMut<'py, Self>,
        name: &str,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let py = slf.py();
        let entry = slf.named_data(py, "update", name, data)?;
        slf.config.edits.update.push(entry);
        Ok(slf)
    }

    /// Adds or replaces the PRIV part with `data` (last, exact size), like --set-private.
    fn set_private<'py>(
        mut slf: PyRefMut<'py, Self>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let bytes = buffer_bytes(data)?;
        let path = slf.inline("set_private()", bytes);
        slf.config.edits.set_private = Some(path);
        Ok(slf)
    }

    /// Rebuilds every part derived from the DXIL module (SFI0, ISG1, OSG1,
    /// PSG1, PSV0 and HASH, as dxc writes them for the module's validator
    /// version), like --rebuild-parts: stale ones replaced, missing ones
    /// added in dxc's order, ones the module does not derive removed; the
    /// other parts are kept. Done after update(), so a module put back
    /// with update("DXIL", module.to_program()) gets its own parts.
    fn rebuild_parts(mut slf: PyRefMut<'_, Self>) -> PyRefMut<'_, Self> {
        slf.config.edits.rebuild_parts = true;
        slf
    }

    /// The edited container as bytes.
    ///
    /// `digest` is the header digest policy ("auto", "retail", "debug",
    /// "zero", "keep", "bypass", "preview") and `hash` the HASH part policy
    /// ("auto", "keep", "update"), as dxcopy's --digest and --hash. Raises
    /// dxcopy.Error when an edit cannot be made (the message is dxcopy's).
    #[pyo3(signature = (digest = "auto", hash = "auto"))]
    fn finish<'py>(
        &mut self,
        py: Python<'py>,
        digest: &str,
        hash: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let config = self.with_policies(py, digest, hash)?;
        let input = &self.input;
        let result = py.detach(|| {
            let edited = || -> Result<_, EditError> {
                let container = input.container()?;
                // What `Config::run` does for the main output, kept in memory.
                Config::check_single_programs(&container)?;
                let out = config.plan(&container)?.finish()?;
                let warnings: Vec<String> = out.warnings().iter().map(warning_text).collect();
                Ok((out.to_vec(), warnings))
            };
            // A mapped input truncated meanwhile reads as zeros: that
            // explains any result.
            input.checked(edited())
        });
        let (bytes, warnings) = result.map_err(|e| self.input.error(py, e))?;
        self.warnings = warnings;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Writes the edited container to `path` the way dxcopy writes its
    /// output: to a temp file in the same directory that is renamed over
    /// `path` (a symbolic link is followed); a new file gets 0666 minus the
    /// umask, an existing one keeps its mode (without setuid/setgid) and
    /// owner; preserve_dates=True keeps the input's times (like -p). Writing
    /// to the opened file itself edits it in place. A failure leaves `path`
    /// untouched.
    #[pyo3(signature = (path, digest = "auto", hash = "auto", *, preserve_dates = false))]
    fn write(
        &mut self,
        py: Python<'_>,
        path: PathBuf,
        digest: &str,
        hash: &str,
        preserve_dates: bool,
    ) -> PyResult<()> {
        let mut config = self.with_policies(py, digest, hash)?;
        config.preserve_dates = preserve_dates;
        let input = &self.input;
        let result = py.detach(|| -> Result<Vec<String>, EditError> {
            if let (true, Some(from)) = (input.is_pdb(), input.path.as_deref()) {
                if same_file(from, &path) {
                    return Err(EditError::PdbInPlace);
                }
            }
            let container = input.checked(input.container().map_err(EditError::from))?;
            // The opened data, written as dxcopy writes: `-` stands for an input without a file.
            let from = input.path.as_deref().unwrap_or(Path::new("-"));
            // A mapped input is checked before the output is renamed into
            // place, as dxcopy checks its input.
            let report = match input.mapped_file() {
                Some(file) => config.run_on_file(&container, file, from, Some(&path))?,
                None => config.run_on(&container, from, Some(&path))?,
            };
            Ok(report.warnings.iter().map(warning_text).collect())
        });
        self.warnings = result.map_err(|e| self.input.error(py, e))?;
        Ok(())
    }

    /// The warnings of the last finish() or write(), as dxcopy prints them
    /// (e.g. a digest that could not be kept valid), with the Python
    /// method or argument where dxcopy names an option.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn __repr__(&self) -> String {
        let e = &self.config.edits;
        format!(
            "<dxcopy.Edit remove={:?} only={:?} keep={:?} strip={:?} update={:?} add={:?} set_private={}>",
            e.remove,
            e.only,
            self.config.keep,
            e.strip.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
            e.update.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            e.add.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            if e.set_private.is_some() { "True" } else { "False" },
        )
    }
}
