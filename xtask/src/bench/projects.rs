//! The workloads of projects' shaders: `dxinfo --stats` over the whole corpus next
//! to `du -s` of it (`stats`), and `dxinfo --parts` over C headers next to
//! the same containers as files (`headers`).

use super::{collect_containers, measure, ratio, times, Cmd, Contender, Options, Report};
use anyhow::{Context, Result};
use dxcopy_edit::c_header::{write_header, HeaderOptions, HeaderStyle};
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

/// `dxinfo --stats CORPUS` (every file below it, walked and read in
/// parallel) next to `du -s CORPUS` (the same walk, sizes only).
pub(super) fn stats(
    opts: &Options,
    dxinfo: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let files = count_files(corpus)?;
    let du = Cmd::new([OsStr::new("du"), OsStr::new("-s"), corpus.as_os_str()]);
    let ours = Cmd::new([
        dxinfo.as_os_str(),
        OsStr::new("--stats"),
        corpus.as_os_str(),
    ]);
    let cs = [
        Contender::new("du -s", du, || Ok(())).no_probe(),
        Contender::new("dxinfo --stats", ours, || Ok(())),
    ];
    let m = measure(&cs, opts.reps)?;
    report.workload(
        &format!(
            "stats `dxinfo --stats` over the whole corpus ({files} files) next to `du -s` of it"
        ),
        &m,
    );
    let r = ratio(m[1].median(), m[0].median());
    report.target(
        "stats",
        "`dxinfo --stats` over the corpus against `du -s`",
        &times(r),
        "reported",
        None,
    );
    Ok(())
}

fn count_files(dir: &Path) -> Result<usize> {
    let mut count = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).with_context(|| d.display().to_string())? {
            let e = e?;
            if e.file_type()?.is_dir() {
                stack.push(e.path());
            } else {
                count += 1;
            }
        }
    }
    Ok(count)
}

/// How many corpus containers the headers workload writes as headers.
const HEADERS: usize = 500;

/// `dxinfo --parts` over C headers (each holding one corpus container in
/// fxc's layout) next to the same command over the containers as files:
/// what reading the arrays costs.
pub(super) fn headers(
    opts: &Options,
    dxinfo: &Path,
    dir: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let mut all = Vec::new();
    collect_containers(corpus, &mut all)?;
    all.sort();
    let chosen: Vec<PathBuf> = all.into_iter().take(HEADERS).collect();
    let as_files = dir.join("headers-files");
    let as_headers = dir.join("headers-h");
    fs::create_dir_all(&as_files)?;
    fs::create_dir_all(&as_headers)?;
    let (mut files, mut headers) = (Vec::new(), Vec::new());
    let mut bytes = 0u64;
    for (i, src) in chosen.iter().enumerate() {
        let data = fs::read(src)?;
        bytes += data.len() as u64;
        let file = as_files.join(format!("{i:04}.dxbc"));
        fs::write(&file, &data)?;
        let header = as_headers.join(format!("{i:04}.h"));
        let text = write_header(
            &data,
            &format!("g_{i}"),
            None,
            &HeaderOptions::new(HeaderStyle::Fxc),
        )?;
        fs::write(&header, text)?;
        files.push(file);
        headers.push(header);
    }
    let parts =
        |list: &[PathBuf]| Cmd::new([dxinfo.as_os_str(), OsStr::new("--parts")]).with_args(list);
    let cs = [
        Contender::new("dxinfo --parts (containers)", parts(&files), || Ok(())),
        Contender::new("dxinfo --parts (C headers)", parts(&headers), || Ok(())),
    ];
    let mut m = measure(&cs, opts.reps)?;
    m[0].command = format!("dxinfo --parts FILES… ({} containers)", files.len());
    m[1].command = format!("dxinfo --parts FILES… ({} fxc /Fh headers)", headers.len());
    report.workload(
        &format!(
            "headers `dxinfo --parts` over {} containers ({} KiB) as files and as fxc /Fh headers",
            files.len(),
            bytes / 1024
        ),
        &m,
    );
    let r = ratio(m[1].median(), m[0].median());
    report.target(
        "headers",
        "header input against the same containers as files",
        &times(r),
        "reported",
        None,
    );
    Ok(())
}
