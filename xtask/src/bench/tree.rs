//! The strip-tree workload: `dxstrip -r` over a directory tree of N small
//! corpus containers (with a few files that are not containers beside
//! them), next to a `cp -r` of the same tree, and a second `dxstrip -r` over
//! the tree it already stripped, which has nothing to write.
//!
//! What a shipping build does on every run: the first pass rewrites the
//! files that hold debug parts, the second must cost less than copying the
//! tree, because unchanged files are not rewritten (same inode, same mtime).

use super::{measure, ratio, small_containers, times, Bins, Cmd, Contender, Options, Report};
use anyhow::{bail, Context, Result};
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Files per subdirectory of the tree.
const PER_DIR: usize = 50;
/// Files that are not containers (by magic), spread over the tree.
const OTHERS: usize = 20;

/// Runs the workload and adds its table and targets to `report`.
pub(super) fn workload(
    opts: &Options,
    bins: &Bins,
    dir: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let sources = small_containers(corpus, "strip-tree")?;
    let src = dir.join("strip-tree-src");
    let (bytes, with_debug) = make_tree(&src, &sources, opts.files)?;
    let copy = dir.join("strip-tree-copy");
    let fresh = dir.join("strip-tree-fresh");
    let stripped = dir.join("strip-tree-stripped");

    let cp = |to: &Path| {
        Cmd::new([
            OsStr::new("cp"),
            OsStr::new("-r"),
            src.as_os_str(),
            to.as_os_str(),
        ])
    };
    let dxstrip = |tree: &Path| {
        Cmd::new([
            bins.dxstrip.as_os_str(),
            OsStr::new("-q"),
            OsStr::new("-r"),
            tree.as_os_str(),
        ])
    };
    let cs = [
        Contender::new("cp -r", cp(&copy), || remove_tree(&copy)).no_probe(),
        Contender::new("dxstrip -r (first run)", dxstrip(&fresh), || {
            remove_tree(&fresh)?;
            copy_tree(&src, &fresh)
        }),
        Contender::new("dxstrip -r (already stripped)", dxstrip(&stripped), || {
            if !stripped.exists() {
                copy_tree(&src, &stripped)?;
            }
            Ok(())
        }),
    ];
    let m = measure(&cs, opts.strip_many_reps.max(3))?;
    report.workload(
        &format!(
            "strip-tree `dxstrip -r` over a tree of {} small real containers ({} with debug parts, \
             {} KiB in all) and {OTHERS} other files in {} directories, next to `cp -r` of the tree",
            opts.files,
            with_debug,
            bytes / 1024,
            opts.files.div_ceil(PER_DIR)
        ),
        &m,
    );
    let first = ratio(m[1].median(), m[0].median());
    report.target(
        "strip-tree",
        "dxstrip -r (first run) ÷ cp -r",
        &times(first),
        "≤ 1.2×",
        Some(first <= 1.2),
    );
    let second = ratio(m[2].median(), m[0].median());
    report.target(
        "strip-tree",
        "dxstrip -r (already stripped) ÷ cp -r",
        &times(second),
        "≤ 0.3×",
        Some(second <= 0.3),
    );
    Ok(())
}

/// Writes `count` containers (cycling through `sources`) into subdirectories
/// of `root`, plus [`OTHERS`] files that are not containers. Returns the
/// bytes written and how many containers hold a debug part.
fn make_tree(root: &Path, sources: &[PathBuf], count: usize) -> Result<(u64, usize)> {
    let mut bytes = 0;
    let mut with_debug = 0;
    for i in 0..count {
        let sub = root.join(format!("d{:03}", i / PER_DIR));
        fs::create_dir_all(&sub)?;
        let from = &sources[i % sources.len()];
        let data = fs::read(from).with_context(|| format!("reading {}", from.display()))?;
        if has_debug_part(&data) {
            with_debug += 1;
        }
        let ext = from.extension().and_then(OsStr::to_str).unwrap_or("dxbc");
        fs::write(sub.join(format!("{i:04}.{ext}")), &data)?;
        bytes += data.len() as u64;
    }
    for i in 0..OTHERS {
        let sub = root.join(format!("d{:03}", (i * PER_DIR) % count.max(1) / PER_DIR));
        fs::create_dir_all(&sub)?;
        fs::write(
            sub.join(format!("notes{i}.dxil")),
            format!("not a container {i}\n"),
        )?;
    }
    Ok((bytes, with_debug))
}

fn has_debug_part(data: &[u8]) -> bool {
    dxcopy_read::Container::parse(data).is_ok_and(|c| {
        c.parts()
            .any(|p| dxcopy_edit::StripClass::Debug.covers(&p.name))
    })
}

fn remove_tree(path: &Path) -> Result<()> {
    match fs::remove_dir_all(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
        _ => Ok(()),
    }
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    let status = Command::new("cp")
        .arg("-r")
        .arg(from)
        .arg(to)
        .status()
        .context("running cp -r")?;
    if !status.success() {
        bail!("cp -r {} {} failed", from.display(), to.display());
    }
    Ok(())
}
