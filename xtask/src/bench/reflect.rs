//! The reflect workload: `dxinfo --reflect` over every container in the
//! corpus, in one process, next to `dxinfo --json` over the same files
//! (the goal: at most 1.2× the JSON view, which decodes every part).

use super::{corpus_views, ratio, Options, Report};
use anyhow::Result;
use std::path::Path;

/// The goal: `--reflect` costs at most this many times `--json`.
const GOAL: f64 = 1.2;

/// Runs the workload and adds its table and target to `report`.
pub(super) fn workload(
    opts: &Options,
    dxinfo: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let (m, files) = corpus_views(opts, dxinfo, corpus, &[&["--reflect"], &["--json"]])?;
    report.workload(
        &format!(
            "reflect: `dxinfo --reflect` over every container in the corpus ({} files, one process), next to `dxinfo --json`",
            files
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
