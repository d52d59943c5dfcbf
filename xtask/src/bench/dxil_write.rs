//! The DXIL writer workload: every DXIL, ILDB and STAT module of the corpus
//! read into the typed model and written back with the module writer, in
//! one process, next to reading them alone (the goal: read + write at most
//! 2× read). The program is the `dxil_write_bench` example of dxcopy-edit,
//! built in release.

use super::{collect_containers, measure, ratio, Cmd, Contender, Options, Report};
use anyhow::Result;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The goal: reading and writing costs at most this many times reading.
const GOAL: f64 = 2.0;

/// Runs the workload and adds its table and target to `report`.
pub(super) fn workload(opts: &Options, corpus: &Path, report: &mut Report) -> Result<()> {
    crate::run(crate::cargo().args([
        "build",
        "--release",
        "-p",
        "dxcopy-edit",
        "--example",
        "dxil_write_bench",
    ]))?;
    let program = crate::target_dir().join("release/examples/dxil_write_bench");
    let mut files: Vec<PathBuf> = Vec::new();
    collect_containers(corpus, &mut files)?;
    files.sort();
    let modes = ["read", "write"];
    let contenders: Vec<_> = modes
        .iter()
        .map(|mode| {
            let cmd = Cmd::new([program.as_os_str(), OsStr::new(mode)]).with_args(&files);
            Contender::new(&format!("dxil_write_bench {mode}"), cmd, || Ok(()))
        })
        .collect();
    let mut m = measure(&contenders, opts.reps)?;
    for (row, mode) in m.iter_mut().zip(modes) {
        row.command = format!(
            "dxil_write_bench {mode} FILES… ({} containers)",
            files.len()
        );
    }
    report.workload(
        &format!(
            "dxil-write: every program module of the corpus ({} containers, one process) read, then read and written back byte for byte",
            files.len()
        ),
        &m,
    );
    let r = ratio(m[1].median(), m[0].median());
    report.target(
        "dxil-write",
        "read + write / read of every corpus module, median",
        &format!("{r:.2}×"),
        &format!("≤ {GOAL}×"),
        Some(r <= GOAL),
    );
    Ok(())
}
