//! `cargo xtask dxil-disasm-conformance`: `dxinfo --disasm` against the
//! listings dxc printed for the containers of `../shared/corpus/dxc-listings`
//! (comparison rules in `dxcopy_harness::dxc_listings`).
//!
//! Prints the identical and differing counts, per dxc release (the
//! `llvm.ident` METADATA.tsv records), and the first differing line of
//! every differing file (`--all`; the first 12 otherwise); fails when any
//! listing differs.

use anyhow::{bail, Context, Result};
use std::process::Command;

use crate::disasm::Counts;
use dxcopy_harness::dxc_listings::{dxc_listings, dxc_listings_or_skip};

/// How many differing files are shown without `--all`.
const SHOWN: usize = 12;

/// Runs the comparison with the debug `dxinfo` (built first).
pub fn run(args: &[String]) -> Result<()> {
    let show_all = args.iter().any(|a| a == "--all");
    let Some(counts) = dxc_counts()? else {
        return Ok(());
    };
    let shown = if show_all { usize::MAX } else { SHOWN };
    counts.print(
        "dxil-disasm-conformance (dxc listings, per llvm.ident)",
        shown,
    );
    if !counts.differing.is_empty() {
        bail!("{} dxc listings differ", counts.differing.len());
    }
    Ok(())
}

/// The counts per dxc release (the `llvm.ident` METADATA.tsv records);
/// `None` (after saying so) without the shared corpus.
pub fn dxc_counts() -> Result<Option<Counts>> {
    let Some(dir) = dxc_listings_or_skip("dxil-disasm-conformance") else {
        return Ok(None);
    };
    crate::run(crate::cargo().args(["build", "-p", "dxcopy", "--bin", "dxinfo"]))?;
    let dxinfo = crate::target_dir().join("debug/dxinfo");
    let entries = dxc_listings(&dir).map_err(anyhow::Error::msg)?;
    if entries.is_empty() {
        bail!("{}: METADATA.tsv lists no file", dir.display());
    }
    let mut counts = Counts::default();
    for entry in &entries {
        let want = entry.reference().map_err(anyhow::Error::msg)?;
        let output = Command::new(&dxinfo)
            .arg("--disasm")
            .arg(&entry.container)
            .output()
            .with_context(|| format!("running {}", dxinfo.display()))?;
        let ours = String::from_utf8_lossy(&output.stdout).into_owned();
        let same = output.status.success() && entry.same(&ours, &want);
        let difference = (!same).then(|| {
            let detail = match entry.difference(&ours, &want) {
                Some((line, a, b)) => {
                    format!("line {line}:\n      ours: {a}\n      want: {b}")
                }
                None => "(only trailing whitespace or the exit status differs)".into(),
            };
            let stderr = String::from_utf8_lossy(&output.stderr);
            let status = if output.status.success() {
                String::new()
            } else {
                format!("\n      exit {}: {}", output.status, stderr.trim())
            };
            format!("{detail}{status}")
        });
        counts.add("dxc-listings", entry.ident.clone(), &entry.file, difference);
    }
    Ok(Some(counts))
}
