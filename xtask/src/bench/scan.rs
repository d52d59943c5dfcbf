//! The carving and survey workloads: `dxinfo --scan` of a large file with
//! containers sparsely planted in random bytes next to `cat FILE
//! >/dev/null` (`scan`), and `dxinfo --rows=csv` over the corpus next to
//! `dxinfo --json` (`rows`).

use super::{
    collect_containers, measure, random_bytes, ratio, times, Cmd, Contender, Options, Report,
};
use anyhow::{Context, Result};
use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The size of the scanned file: 1 GiB.
const SCAN_BYTES: u64 = 1 << 30;
/// One container planted per this many bytes, at a random place in it.
const PLANT_EVERY: u64 = 8 << 20;

/// The scanned file, made once and kept under target/ (it is 1 GiB of
/// random bytes with a container every 8 MiB, from the corpus when it is
/// there, else examples/sample.dxil); returns its path and how many
/// containers it holds.
fn big_file(corpus: Option<&Path>) -> Result<(PathBuf, usize)> {
    let mut containers = Vec::new();
    if let Some(corpus) = corpus {
        let mut files = Vec::new();
        collect_containers(corpus, &mut files)?;
        files.sort();
        for f in files.iter().step_by((files.len() / 64).max(1)) {
            containers.push(fs::read(f)?);
        }
    }
    if containers.is_empty() {
        containers.push(fs::read(crate::root().join("examples/sample.dxil"))?);
    }
    let count = (SCAN_BYTES / PLANT_EVERY) as usize;
    let dir = crate::target_dir().join("bench-scan");
    fs::create_dir_all(&dir)?;
    let path = dir.join(format!(
        "planted-{}m-{}.bin",
        SCAN_BYTES >> 20,
        containers.len()
    ));
    if fs::metadata(&path).is_ok_and(|m| m.len() == SCAN_BYTES) {
        return Ok((path, count));
    }
    eprintln!(
        "bench: writing {} ({} MiB)",
        path.display(),
        SCAN_BYTES >> 20
    );
    let temp = path.with_extension("tmp");
    let mut out = std::io::BufWriter::new(fs::File::create(&temp)?);
    // One block of random bytes, varied per stretch by its first word, so
    // generating the file costs little next to scanning it.
    let block = random_bytes(PLANT_EVERY as usize, 0x5ca1);
    for i in 0..count {
        let c = &containers[i % containers.len()];
        let at = (i * 7919 * 4099 + 13) % (PLANT_EVERY as usize - c.len() - 8) + 1;
        let mut stretch = block.clone();
        stretch[..8].copy_from_slice(&(i as u64).to_le_bytes());
        stretch[at..at + c.len()].copy_from_slice(c);
        out.write_all(&stretch)?;
    }
    out.flush()?;
    drop(out);
    fs::rename(&temp, &path)?;
    Ok((path, count))
}

/// `dxinfo --scan BIG` next to `cat BIG` (both to /dev/null, the file in
/// the page cache after the first round).
pub(super) fn scan(
    opts: &Options,
    dxinfo: &Path,
    corpus: Option<&Path>,
    report: &mut Report,
) -> Result<()> {
    let (big, planted) = big_file(corpus).context("making the scan input")?;
    let cat = Cmd::new([OsStr::new("cat"), big.as_os_str()]);
    let ours = Cmd::new([dxinfo.as_os_str(), OsStr::new("--scan"), big.as_os_str()]);
    let cs = [
        Contender::new("cat FILE", cat, || Ok(())).no_probe(),
        Contender::new("dxinfo --scan FILE", ours, || Ok(())),
    ];
    let m = measure(&cs, opts.reps)?;
    report.workload(
        &format!(
            "scan `dxinfo --scan` of a {} MiB file of random bytes with {planted} containers planted next to `cat FILE >/dev/null`",
            SCAN_BYTES >> 20
        ),
        &m,
    );
    let r = ratio(m[1].median(), m[0].median());
    report.target(
        "scan",
        "`dxinfo --scan` of 1 GiB against `cat`",
        &times(r),
        "≤ 1.5×",
        Some(r <= 1.5),
    );
    Ok(())
}

/// `dxinfo --rows=csv` over every corpus container next to `dxinfo --json`
/// over the same files.
pub(super) fn rows(
    opts: &Options,
    dxinfo: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let mut files = Vec::new();
    collect_containers(corpus, &mut files)?;
    files.sort();
    let json = Cmd::new([dxinfo.as_os_str(), OsStr::new("--json")]).with_args(&files);
    let csv = Cmd::new([dxinfo.as_os_str(), OsStr::new("--rows=csv")]).with_args(&files);
    let mut a = Contender::new("dxinfo --json", json, || Ok(()));
    a.allow_fail = true;
    let mut b = Contender::new("dxinfo --rows=csv", csv, || Ok(()));
    b.allow_fail = true;
    let mut m = measure(&[a, b], opts.reps)?;
    m[0].command = format!("dxinfo --json FILES… ({} containers)", files.len());
    m[1].command = format!("dxinfo --rows=csv FILES… ({} containers)", files.len());
    report.workload(
        &format!(
            "rows `dxinfo --rows=csv` over every corpus container ({} files) next to `dxinfo --json`",
            files.len()
        ),
        &m,
    );
    let r = ratio(m[1].median(), m[0].median());
    report.target(
        "rows",
        "`dxinfo --rows=csv` over the corpus against `--json`",
        &times(r),
        "reported",
        None,
    );
    Ok(())
}
