//! The reflect workload: `dxinfo --reflect` over every container in the
//! corpus, in one process, next to `dxinfo --json` over the same files
//! (the goal: at most 1.2× the JSON view, which decodes every part).

use super::{collect_containers, measure, ratio, Cmd, Contender, Options, Report};
use anyhow::Result;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The goal: `--reflect` costs at most this many times `--json`.
const GOAL: f64 = 1.2;

/// Runs the workload and adds its table and target to `report`.
pub(super) fn workload(
    opts: &Options,
    dxinfo: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let mut files: Vec<PathBuf> = Vec::new();
    collect_containers(corpus, &mut files)?;
    files.sort();
    let mut contenders = Vec::new();
    for view in ["--reflect", "--json"] {
        let cmd = Cmd::new([dxinfo.as_os_str(), OsStr::new(view)]).with_args(&files);
        let mut c = Contender::new(&format!("dxinfo {view}"), cmd, || Ok(()));
        c.allow_fail = true;
        contenders.push(c);
    }
    let mut m = measure(&contenders, opts.reps)?;
    for (row, view) in m.iter_mut().zip(["--reflect", "--json"]) {
        row.command = format!("dxinfo {view} FILES… ({} containers)", files.len());
    }
    report.workload(
        &format!(
            "reflect: `dxinfo --reflect` over every container in the corpus ({} files, one process), next to `dxinfo --json`",
            files.len()
        ),
        &m,
    );
    let r = ratio(m[0].median(), m[1].median());
    report.target(
        "reflect",
        "`dxinfo --reflect` / `dxinfo --json` over the corpus, median",
        &format!("{r:.2}×"),
        &format!("≤ {GOAL}×"),
        Some(r <= GOAL),
    );
    Ok(())
}
