//! The DXIL listing workload: `dxinfo --disasm` (dxc's listing, printed
//! without LLVM) over every corpus container with DXIL bitcode in one
//! process, next to what the listing replaces: a shell loop of `dxcopy
//! --dump-bitcode` (the bitcode with its data layout made LLVM-readable) and
//! `llvm-dis-22` per file. Targets: at least 50× faster than the
//! loop, heap peak at most 10× the largest bitcode. The heap peak is the
//! process's largest `RssAnon`, which includes what any dxinfo run over the
//! same files holds (the runtime, the argument list, the file read); the
//! ratio uses the peak minus that of `dxinfo --parts` over the same files
//! (the baseline), and the absolute peak is reported next to it.

use super::{
    manifest, measure, probe, ratio, remove, times, Bins, Cmd, Contender, Options, Report,
};
use anyhow::Result;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

const LLVM_DIS: &str = "/usr/lib/llvm-22/bin/llvm-dis";

/// The corpus containers whose DXIL part holds bitcode, and the largest
/// bitcode's size.
fn dxil_containers(corpus: &Path) -> Result<(Vec<PathBuf>, usize)> {
    let mut files = Vec::new();
    let mut largest = 0;
    for (path, _, kind, parts) in manifest(corpus)? {
        if kind != "dxil" || !parts.split(',').any(|p| p == "DXIL") {
            continue;
        }
        let Ok(bytes) = fs::read(&path) else {
            continue;
        };
        let Ok(container) = dxcopy_read::Container::parse(&bytes) else {
            continue;
        };
        let Some(program) = container
            .find(dxcopy_read::PartName::DXIL)
            .and_then(|p| dxcopy_read::Program::parse(&p).ok())
            .filter(|p| p.has_bitcode_magic())
        else {
            continue;
        };
        largest = largest.max(program.bitcode.len());
        files.push(path);
    }
    files.sort();
    Ok((files, largest))
}

/// Runs the workload and adds its table and targets to `report`.
pub(super) fn workload(
    opts: &Options,
    bins: &Bins,
    dxinfo: &Path,
    dir: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let (files, largest) = dxil_containers(corpus)?;
    if files.is_empty() {
        report.note("dxil-listing skipped: no DXIL container in the corpus".into());
        return Ok(());
    }
    let bitcode = dir.join("listing.bc");
    let text = dir.join("listing.ll");
    let listing = Cmd::new([dxinfo.as_os_str(), OsStr::new("--disasm")]).with_args(&files);
    let mut ours = Contender::new("dxinfo --disasm", listing, || Ok(()));
    ours.allow_fail = true;
    let mut contenders = vec![ours];
    let llvm_dis = Path::new(LLVM_DIS);
    if llvm_dis.is_file() {
        let script = format!(
            "for f; do \"$0\" --dump-bitcode=DXIL={bc} \"$f\" && {dis} {bc} -o {ll} || exit 1; done",
            bc = bitcode.display(),
            ll = text.display(),
            dis = llvm_dis.display()
        );
        let cmd = Cmd::new([OsStr::new("sh"), OsStr::new("-c"), OsStr::new(&script)]).with_args(
            std::iter::once(bins.dxcopy.as_os_str()).chain(files.iter().map(|p| p.as_os_str())),
        );
        let clean = || {
            remove(&bitcode)?;
            remove(&text)
        };
        let mut loop_contender = Contender::new("dxcopy --dump-bitcode + llvm-dis-22", cmd, clean);
        loop_contender.allow_fail = true;
        contenders.push(loop_contender.no_probe());
    } else {
        report.note(format!(
            "dxil-listing: no {LLVM_DIS} (apt-get install llvm-22): the llvm-dis loop is not measured"
        ));
    }
    let mut m = measure(&contenders, opts.reps)?;
    m[0].command = format!("dxinfo --disasm FILES… ({} DXIL containers)", files.len());
    if m.len() > 1 {
        m[1].command = format!(
            "dxcopy --dump-bitcode=DXIL=x.bc FILE && llvm-dis-22 x.bc, per file ({} files)",
            files.len()
        );
    }
    report.workload(
        &format!(
            "dxil-listing: `dxinfo --disasm` (dxc's listing, no LLVM) over {} DXIL containers in one process, next to a loop of `dxcopy --dump-bitcode` + `llvm-dis-22` per file",
            files.len()
        ),
        &m,
    );
    if m.len() > 1 {
        let r = ratio(m[1].median(), m[0].median());
        report.target(
            "dxil-listing",
            "llvm-dis loop ÷ `dxinfo --disasm`, median",
            &times(r),
            "≥ 50×",
            Some(r >= 50.0),
        );
    }
    if let Some(mem) = m[0].memory {
        // The baseline: dxinfo over the same files without the listing
        // (largest of three probes: a short run may end between samples).
        let parts = Cmd::new([dxinfo.as_os_str(), OsStr::new("--parts")]).with_args(&files);
        let mut baseline_kib = 0;
        for _ in 0..3 {
            baseline_kib = baseline_kib.max(probe(&parts)?.heap_peak_kib);
        }
        let largest_kib = largest.max(1) as f64 / 1024.0;
        let added_kib = mem.heap_peak_kib.saturating_sub(baseline_kib);
        let r = added_kib as f64 / largest_kib;
        report.target(
            "dxil-listing",
            &format!(
                "heap peak of `dxinfo --disasm` minus that of `dxinfo --parts` over the same files ({:.2} − {:.2} MiB) ÷ the largest bitcode ({largest_kib:.1} KiB)",
                mem.heap_peak_kib as f64 / 1024.0,
                baseline_kib as f64 / 1024.0,
            ),
            &times(r),
            "≤ 10×",
            (mem.samples > 0).then_some(r <= 10.0),
        );
        report.target(
            "dxil-listing",
            &format!(
                "(absolute) heap peak of `dxinfo --disasm` ÷ the largest bitcode ({largest_kib:.1} KiB)"
            ),
            &times(mem.heap_peak_kib as f64 / largest_kib),
            "reported",
            None,
        );
    }
    Ok(())
}
