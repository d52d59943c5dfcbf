//! The Python package's workload: strip the debug parts of N corpus
//! containers in place from Python with `dxcopy.strip_files`, next to
//! `dxstrip` on the same files and to a Python loop that runs the `dxcopy`
//! binary once per file (what a build script does without the package).
//!
//! The files are copies of the corpus containers that hold debug parts
//! (the parts of the debug strip class), repeated to N, so every file is really
//! stripped. They are restored from pristine copies and synced to disk
//! before every timed run. The package is built and installed into target/pytest/venv as
//! by `cargo xtask pytest` (the `python` profile: release without LTO).

use super::{
    files_shown, manifest, measure, ratio, set_writable, times, Bins, Cmd, Contender, Options,
    Report,
};
use anyhow::{bail, Result};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};

const STRIP_FILES: &str = "import sys, dxcopy\n\
results = dxcopy.strip_files(sys.argv[1:])\n\
sys.exit(1 if any(r.error for r in results) else 0)";

const SUBPROCESS_LOOP: &str = "import subprocess, sys\n\
dxcopy = sys.argv[1]\n\
for f in sys.argv[2:]:\n    subprocess.run([dxcopy, '--strip-debug', f], check=True)";

/// Runs the workload and adds its table and targets to `report`.
pub(super) fn workload(
    opts: &Options,
    bins: &Bins,
    dir: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let Some(python) = crate::python::prepare()? else {
        report.note("Python workload skipped: no python3 with the venv module".into());
        return Ok(());
    };
    let sources: Vec<PathBuf> = manifest(corpus)?
        .into_iter()
        .filter(|(_, _, kind, parts)| {
            (kind == "dxil" || kind == "dxbc")
                && parts
                    .split(',')
                    .any(|p| ["ILDB", "SRCI", "PDBI", "SDBG", "SPDB"].contains(&p))
        })
        .map(|(p, ..)| p)
        .collect();
    if sources.is_empty() {
        bail!("Python workload: no corpus containers with debug parts");
    }
    let pristine = dir.join("py-pristine");
    let work = dir.join("py");
    fs::create_dir_all(&pristine)?;
    fs::create_dir_all(&work)?;
    let names: Vec<String> = (0..opts.files)
        .map(|i| {
            let src = &sources[i % sources.len()];
            let ext = src.extension().and_then(OsStr::to_str).unwrap_or("dxbc");
            format!("{i:04}.{ext}")
        })
        .collect();
    let mut bytes_total = 0;
    for (i, name) in names.iter().enumerate() {
        let p = pristine.join(name);
        bytes_total += fs::copy(&sources[i % sources.len()], &p)?;
        set_writable(&p)?;
    }
    let files: Vec<PathBuf> = names.iter().map(|n| work.join(n)).collect();
    // The restored files are written back before each timed run, so no
    // contender competes with the writeback of the harness's own copies
    // (each contender still pays for the writes it makes).
    let restore = || -> Result<()> {
        for (name, file) in names.iter().zip(&files) {
            fs::copy(pristine.join(name), file)?;
        }
        // `sync` is best effort: without it the runs are only noisier.
        let _ = std::process::Command::new("sync").status();
        Ok(())
    };
    let with_files = |mut v: Vec<OsString>| {
        v.extend(files.iter().map(|f| f.clone().into_os_string()));
        Cmd(v)
    };
    let dxstrip = with_files(vec![bins.dxstrip.clone().into(), "-q".into()]);
    let strip_files = with_files(vec![python.clone().into(), "-c".into(), STRIP_FILES.into()]);
    let subprocess_loop = with_files(vec![
        python.clone().into(),
        "-c".into(),
        SUBPROCESS_LOOP.into(),
        bins.dxcopy.clone().into(),
    ]);
    let contenders = [
        Contender::new("dxstrip", dxstrip, restore),
        Contender::new("dxcopy.strip_files", strip_files, restore),
        Contender::new("Python loop of dxcopy", subprocess_loop, restore).no_probe(),
    ];
    let mut m = measure(&contenders, opts.strip_many_reps)?;
    for x in &mut m {
        x.command = x
            .command
            .replace(&files_shown(&files), "FILES…")
            .replace(STRIP_FILES, "dxcopy.strip_files(FILES)")
            .replace(
                SUBPROCESS_LOOP,
                "for f in FILES: subprocess.run([dxcopy, '--strip-debug', f])",
            );
    }
    report.workload(
        &format!(
            "Python: strip debug parts of {} corpus containers in place ({} KiB in all; {} distinct containers with debug parts)",
            files.len(),
            bytes_total / 1024,
            sources.len().min(files.len())
        ),
        &m,
    );
    let package = ratio(m[1].median(), m[0].median());
    report.target(
        "Python",
        "dxcopy.strip_files ÷ dxstrip",
        &times(package),
        "≤ 1.3×",
        Some(package <= 1.3),
    );
    let speedup = ratio(m[2].median(), m[1].median());
    report.target(
        "Python",
        "loop of dxcopy processes ÷ dxcopy.strip_files",
        &times(speedup),
        "≥ 20×",
        Some(speedup >= 20.0),
    );
    Ok(())
}
