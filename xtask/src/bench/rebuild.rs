//! The rebuild-parts workload: `dxstrip --rebuild-parts` in place over
//! every DXIL container of the corpus (one process), next to the same run
//! without it (a no-op copy: `--keep-section='*'` keeps dxstrip's default
//! strip from removing anything). The ratio is what rebuilding SFI0, the
//! signatures, PSV0 and HASH from each module costs. Containers whose module
//! the library cannot rebuild from (LLVM test inputs whose bitcode does not
//! read) are left out, and their number is said.

use super::{manifest, measure, ratio, set_writable, Bins, Cmd, Contender, Options, Report};
use anyhow::{bail, Result};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

/// Runs the workload and adds its table and ratio to `report`.
pub(super) fn workload(
    opts: &Options,
    bins: &Bins,
    dir: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let sources: Vec<PathBuf> = manifest(corpus)?
        .into_iter()
        .filter(|(_, _, kind, parts)| kind == "dxil" && parts.split(',').any(|p| p == "DXIL"))
        .map(|(path, ..)| path)
        .collect();
    let all = sources.len();
    let sources: Vec<PathBuf> = sources.into_iter().filter(|p| rebuilds(p)).collect();
    if sources.is_empty() {
        bail!("rebuild-parts: no DXIL container in the corpus rebuilds");
    }
    let left_out = all - sources.len();
    let pristine = dir.join("rebuild-pristine");
    let work = dir.join("rebuild");
    fs::create_dir_all(&pristine)?;
    fs::create_dir_all(&work)?;
    let names: Vec<String> = (0..sources.len()).map(|i| format!("{i:04}.dxil")).collect();
    for (name, source) in names.iter().zip(&sources) {
        let p = pristine.join(name);
        fs::copy(source, &p)?;
        set_writable(&p)?;
    }
    let files: Vec<PathBuf> = names.iter().map(|n| work.join(n)).collect();
    let restore = || -> Result<()> {
        for (name, file) in names.iter().zip(&files) {
            fs::copy(pristine.join(name), file)?;
        }
        Ok(())
    };
    let run = |extra: &[&str]| {
        let mut v: Vec<OsString> = vec![bins.dxstrip.clone().into(), "--keep-section=*".into()];
        v.extend(extra.iter().map(OsString::from));
        Cmd(v).with_args(&files)
    };
    let contenders = vec![
        Contender::new(
            "dxstrip --rebuild-parts",
            run(&["--rebuild-parts"]),
            restore,
        ),
        Contender::new("dxstrip no-op", run(&[]), restore),
    ];
    let mut m = measure(&contenders, opts.reps)?;
    for (row, what) in m.iter_mut().zip(["--rebuild-parts ", ""]) {
        row.command = format!(
            "dxstrip --keep-section='*' {what}FILES… ({} DXIL containers, in place)",
            files.len()
        );
    }
    report.workload(
        &format!(
            "rebuild-parts: `dxstrip --rebuild-parts` over every DXIL container in the corpus that rebuilds ({} files, one process; {left_out} whose module does not read left out), next to a no-op run",
            files.len()
        ),
        &m,
    );
    let r = ratio(m[0].median(), m[1].median());
    report.target(
        "rebuild-parts",
        "`--rebuild-parts` / no-op copy over the corpus's DXIL containers, median",
        &format!("{r:.2}×"),
        "reported",
        None,
    );
    Ok(())
}

/// Whether the library rebuilds the derived parts of the container in `path`.
fn rebuilds(path: &Path) -> bool {
    let Ok(bytes) = fs::read(path) else {
        return false;
    };
    let Ok(container) = dxcopy_read::Container::parse(&bytes) else {
        return false;
    };
    let mut plan = dxcopy_edit::EditPlan::from_container(&container);
    dxcopy_edit::rebuild::rebuild_parts(&mut plan).is_ok()
}
