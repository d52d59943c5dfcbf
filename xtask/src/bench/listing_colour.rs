//! The listing-colour workload: `dxinfo --disasm --color=always` and
//! `dxinfo --disasm-html` over every container in the corpus, in one
//! process each, next to plain `dxinfo --disasm` over the same files (the
//! goal: each at most 1.3× the plain listing).

use super::{corpus_views, ratio, Options, Report};
use anyhow::Result;
use std::path::Path;

/// The goal: a coloured listing costs at most this many times the plain one.
const GOAL: f64 = 1.3;

/// The three runs, the plain listing first.
const VIEWS: [&[&str]; 3] = [
    &["--disasm"],
    &["--disasm", "--color=always"],
    &["--disasm-html"],
];

/// Runs the workload and adds its table and targets to `report`.
pub(super) fn workload(
    opts: &Options,
    dxinfo: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    // Containers without a listing (root signatures, effects) exit 1.
    let (m, files) = corpus_views(opts, dxinfo, corpus, &VIEWS)?;
    report.workload(
        &format!(
            "listing-colour: `dxinfo --disasm --color=always` and `dxinfo --disasm-html` over every container in the corpus ({} files, one process), next to plain `dxinfo --disasm`",
            files
        ),
        &m,
    );
    for (row, tag) in m[1..]
        .iter()
        .zip(["listing-colour ansi", "listing-colour html"])
    {
        let r = ratio(row.median(), m[0].median());
        report.target(
            tag,
            &format!(
                "`{}` / `dxinfo --disasm` over the corpus, median",
                row.label
            ),
            &format!("{r:.2}×"),
            &format!("≤ {GOAL}×"),
            Some(r <= GOAL),
        );
    }
    Ok(())
}
