//! The Python package (crates/dxcopy-py): a virtual environment under
//! `target/pytest/venv` with maturin and pytest from PyPI and the package
//! installed the way a user installs it (`pip install ./crates/dxcopy-py`),
//! then pytest over crates/dxcopy-py/tests against the debug binaries.
//!
//! Without a usable python3 (none on PATH, or one without the venv module)
//! the tests are skipped with a message saying why.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The interpreter used to make the venv: `$PYTHON`, else `python3`.
fn system_python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Why the Python tests cannot run here, if they cannot.
fn unusable(python: &str) -> Option<String> {
    let probe = Command::new(python)
        .args([
            "-c",
            "import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 9) else 3)",
        ])
        .output();
    match probe {
        Err(_) => Some(format!("no `{python}` on PATH")),
        Ok(out) if out.status.code() == Some(3) => {
            Some(format!("`{python}` is older than Python 3.9"))
        }
        Ok(out) if !out.status.success() => Some(format!(
            "`{python}` has no venv/ensurepip module (Debian: apt-get install python3-venv): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(_) => None,
    }
}

/// The venv's interpreter.
fn venv_python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join("python.exe")
    } else {
        venv.join("bin").join("python")
    }
}

fn run_in_root(cmd: &mut Command) -> Result<()> {
    crate::run(cmd)
}

/// Makes (or reuses) the venv, installs maturin, pytest and the package from
/// this checkout, and returns the venv's interpreter. `None` (after printing
/// why) when there is no usable python3.
pub fn prepare() -> Result<Option<PathBuf>> {
    let python = system_python();
    if let Some(why) = unusable(&python) {
        if dxcopy_harness::corpus::under_ci() {
            anyhow::bail!("python tests cannot run under CI, where a test may not skip: {why}");
        }
        println!("python tests skipped: {why}");
        return Ok(None);
    }
    let venv = crate::target_dir().join("pytest/venv");
    let py = venv_python(&venv);
    if !py.exists() {
        eprintln!("python: creating {}", venv.display());
        run_in_root(Command::new(&python).arg("-m").arg("venv").arg(&venv))?;
    }
    let pip = |args: &[&str]| -> Result<()> {
        run_in_root(
            Command::new(&py)
                .args(["-m", "pip", "--disable-pip-version-check", "install"])
                .args(args)
                .env("PIP_NO_INPUT", "1"),
        )
    };
    pip(&["--quiet", "maturin>=1.9,<2", "pytest"])?;
    // The package's `survey` extra (Dask distributed, pyarrow), so the
    // survey tests run on a LocalCluster rather than skip.
    let extra = survey_extra()?;
    let mut args = vec!["--quiet"];
    args.extend(extra.iter().map(String::as_str));
    pip(&args)?;
    eprintln!("python: pip install ./crates/dxcopy-py (builds the extension with cargo)");
    pip(&[
        "--quiet",
        "--force-reinstall",
        "--no-deps",
        "./crates/dxcopy-py",
    ])?;
    Ok(Some(py))
}

/// The requirements of the `survey` extra, as the package's pyproject.toml
/// declares them (`[project.optional-dependencies] survey = [...]`, one
/// line).
fn survey_extra() -> Result<Vec<String>> {
    let path = crate::root().join("crates/dxcopy-py/pyproject.toml");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("survey = ["))
        .with_context(|| format!("{}: no `survey = [...]` extra", path.display()))?;
    let list = line.trim_end().trim_end_matches(']');
    Ok(list
        .split(',')
        .map(|item| item.trim().trim_matches('"').to_owned())
        .filter(|item| !item.is_empty())
        .collect())
}

/// `cargo xtask pytest [PYTEST ARGS]` and the Python step of `cargo xtask test`:
/// pytest over crates/dxcopy-py/tests, comparing with the debug binaries.
pub fn test(args: &[String]) -> Result<()> {
    let Some(py) = prepare()? else {
        return Ok(());
    };
    let bins = crate::target_dir().join("debug");
    if !bins.join("dxcopy").exists() {
        run_in_root(crate::cargo().args(["build", "--workspace", "--bins"]))?;
    }
    let status = Command::new(&py)
        .args(["-m", "pytest", "-q", "crates/dxcopy-py/tests"])
        .args(args)
        .env("DXCOPY_BIN_DIR", &bins)
        .current_dir(crate::root())
        .status()
        .with_context(|| format!("running {} -m pytest", py.display()))?;
    if !status.success() {
        bail!("pytest failed ({status})");
    }
    Ok(())
}
