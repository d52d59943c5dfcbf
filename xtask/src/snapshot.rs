//! `cargo xtask snapshot`: record everything a user sees for the corpus, so a
//! refactoring can show that no output changed.
//!
//! `snapshot --out DIR` runs the debug binaries over every file of the corpus
//! (see [`crate::sweep::corpus_files`]) and writes, per input, one file per
//! view: the exit status, stdout and stderr of dxinfo (text, `--parts`,
//! `--json`, `--yaml`, `--yaml --upstream-keys`, `--verify`, `--sources`), and
//! for a stride of the inputs (`--edit-stride N`, default 1 = all) the same
//! record plus every file written by a set of dxcopy edits (no-op copy,
//! `--strip-debug`, `-R STAT`, `--set-private`, `--dump-section DXIL`,
//! `--extract-section` of the last part, `--split-debug` to a PDB) and by
//! `dxinfo --dump-all`. dxinfo also runs once per corpus folder over all its
//! files (text and `--json`), for the multi-file output.
//!
//! `snapshot --compare A B` compares two such directories byte for byte and
//! lists the files that differ or exist on one side only; it fails when any do.
//!
//! Every command runs in a scratch directory with relative output names and
//! the canonical corpus path as input, so two runs over the same corpus give
//! identical bytes.

use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// dxinfo views recorded for every input: (record name, arguments).
const INFO_VIEWS: &[(&str, &[&str])] = &[
    ("info-text", &[]),
    ("info-parts", &["--parts"]),
    ("info-json", &["--json"]),
    ("info-yaml", &["--yaml"]),
    ("info-yaml-upstream", &["--yaml", "--upstream-keys"]),
    ("info-verify", &["--verify"]),
    ("info-sources", &["--sources"]),
];

/// The private data `--set-private` adds (an odd length: PRIV is unpadded).
const PRIV_BLOB: &[u8] = b"dxcopy snapshot private data\x00\x01\x02";

/// One command of the edit set: record name, tool, arguments before the input,
/// whether the output container follows the input.
struct Edit {
    name: &'static str,
    tool: &'static str,
    args: Vec<String>,
    output: bool,
}

fn edits(last_part: Option<&str>) -> Vec<Edit> {
    let e = |name, tool, args: &[&str], output| Edit {
        name,
        tool,
        args: args.iter().map(|s| s.to_string()).collect(),
        output,
    };
    let mut v = vec![
        e("copy", "dxcopy", &[], true),
        e("strip-debug", "dxcopy", &["--strip-debug"], true),
        e("remove-stat", "dxcopy", &["-R", "STAT"], true),
        e(
            "set-private",
            "dxcopy",
            &["--set-private", "priv.bin"],
            true,
        ),
        e(
            "dump-dxil",
            "dxcopy",
            &["--dump-section", "DXIL=dxil.bc"],
            false,
        ),
        e(
            "split-debug",
            "dxcopy",
            &["--split-debug", "split.pdb"],
            true,
        ),
        e("dump-all", "dxinfo", &["--dump-all", "parts"], false),
    ];
    if let Some(name) = last_part {
        v.push(Edit {
            name: "extract-last",
            tool: "dxcopy",
            args: vec!["--extract-section".into(), format!("{name}=part.dxbc")],
            output: false,
        });
    }
    v
}

/// Runs the task.
pub fn run(args: &[String]) -> Result<()> {
    let mut out = None;
    let mut compare = None;
    let mut stride = 1usize;
    let mut jobs = 2usize;
    let mut bins = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(it.next().context("--out DIR")?)),
            "--compare" => {
                let a = it.next().context("--compare A B")?;
                let b = it.next().context("--compare A B")?;
                compare = Some((PathBuf::from(a), PathBuf::from(b)));
            }
            "--edit-stride" => stride = it.next().context("--edit-stride N")?.parse()?,
            "--jobs" => jobs = it.next().context("--jobs N")?.parse()?,
            "--bins" => bins = Some(PathBuf::from(it.next().context("--bins DIR")?)),
            other => bail!("unknown snapshot option '{other}'"),
        }
    }
    if let Some((a, b)) = compare {
        return compare_dirs(&a, &b);
    }
    let Some(out) = out else {
        bail!("usage: cargo xtask snapshot --out DIR [--edit-stride N] [--jobs N] [--bins DIR] | --compare A B");
    };
    let bins = match bins {
        Some(b) => b,
        None => {
            crate::run(crate::cargo().args(["build", "-p", "dxcopy", "--bins"]))?;
            crate::target_dir().join("debug")
        }
    };
    record(&out, &bins.canonicalize()?, stride.max(1), jobs.max(1))
}

struct Job {
    rel: String,
    input: PathBuf,
    edits: bool,
}

fn record(out: &Path, bins: &Path, stride: usize, jobs: usize) -> Result<()> {
    let corpus = match dxcopy_harness::corpus::corpus_dir() {
        Ok(c) => c.canonicalize()?,
        Err(why) => bail!("{why}"),
    };
    if out.exists() {
        std::fs::remove_dir_all(out).with_context(|| format!("clearing {}", out.display()))?;
    }
    std::fs::create_dir_all(out)?;
    let out = out.canonicalize()?;
    // Private copies of the binaries, so a build running meanwhile cannot
    // swap or remove them halfway through.
    let bins_dir = out.join(".bins");
    std::fs::create_dir_all(&bins_dir)?;
    for tool in ["dxcopy", "dxinfo"] {
        std::fs::copy(bins.join(tool), bins_dir.join(tool))
            .with_context(|| format!("copying {}", bins.join(tool).display()))?;
    }
    let bins = bins_dir.as_path();
    let files = crate::sweep::corpus_files(&corpus)?;
    let work: Vec<Job> = files
        .iter()
        .enumerate()
        .map(|(i, (rel, p))| Job {
            rel: rel.clone(),
            input: p.clone(),
            edits: i % stride == 0,
        })
        .collect();
    let start = std::time::Instant::now();
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for t in 0..jobs {
            let (work, next, failure, out) = (&work, &next, &failure, &out);
            s.spawn(move || {
                let scratch = out.join(format!(".scratch-{t}"));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = work.get(i) else { break };
                    if let Err(e) = record_one(job, bins, out, &scratch) {
                        *failure.lock().unwrap() = Some(e.context(job.rel.clone()));
                        break;
                    }
                }
                let _ = std::fs::remove_dir_all(&scratch);
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    // Multi-file runs, one per folder of the corpus.
    let mut folders: Vec<(String, Vec<PathBuf>)> = Vec::new();
    for (rel, p) in &files {
        let folder = Path::new(rel)
            .parent()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        match folders.last_mut() {
            Some((f, v)) if *f == folder => v.push(p.clone()),
            _ => folders.push((folder, vec![p.clone()])),
        }
    }
    for (folder, paths) in &folders {
        let dir = out.join("multi").join(folder);
        std::fs::create_dir_all(&dir)?;
        for (name, args) in [("info-text", &[][..]), ("info-json", &["--json"][..])] {
            let mut cmd = Command::new(bins.join("dxinfo"));
            cmd.args(args).args(paths).current_dir(&dir);
            std::fs::write(dir.join(format!("{name}.txt")), run_record(&mut cmd)?)?;
        }
    }
    std::fs::remove_dir_all(&bins_dir)?;
    let edited = work.iter().filter(|j| j.edits).count();
    println!(
        "snapshot: {} inputs ({} with edits, stride {stride}), {} folders, in {:.1?} -> {}",
        work.len(),
        edited,
        folders.len(),
        start.elapsed(),
        out.display()
    );
    Ok(())
}

/// Exit status, stdout and stderr of a command, as one byte string.
fn run_record(cmd: &mut Command) -> Result<Vec<u8>> {
    let o = cmd.output().with_context(|| format!("running {cmd:?}"))?;
    let mut rec = format!("exit: {:?}\n--- stdout\n", o.status.code()).into_bytes();
    rec.extend_from_slice(&o.stdout);
    rec.extend_from_slice(b"\n--- stderr\n");
    rec.extend_from_slice(&o.stderr);
    Ok(rec)
}

fn record_one(job: &Job, bins: &Path, out: &Path, scratch: &Path) -> Result<()> {
    let dir = out.join(&job.rel);
    std::fs::create_dir_all(&dir)?;
    for (name, args) in INFO_VIEWS {
        let mut cmd = Command::new(bins.join("dxinfo"));
        cmd.args(*args).arg(&job.input).current_dir(out);
        std::fs::write(dir.join(format!("{name}.txt")), run_record(&mut cmd)?)?;
    }
    if !job.edits {
        return Ok(());
    }
    let bytes = std::fs::read(&job.input)?;
    let last = dxcopy_read::Container::parse(&bytes)
        .ok()
        .and_then(|c| c.parts().last())
        .filter(|p| p.name.as_bytes().iter().all(u8::is_ascii_alphanumeric))
        .map(|p| p.name.to_lossy_string());
    for edit in edits(last.as_deref()) {
        if scratch.exists() {
            std::fs::remove_dir_all(scratch)?;
        }
        std::fs::create_dir_all(scratch)?;
        std::fs::write(scratch.join("priv.bin"), PRIV_BLOB)?;
        let mut cmd = Command::new(bins.join(edit.tool));
        cmd.args(&edit.args).arg(&job.input);
        if edit.output {
            cmd.arg("out.bin");
        }
        cmd.current_dir(scratch);
        let rec = run_record(&mut cmd)?;
        let edir = dir.join(edit.name);
        std::fs::create_dir_all(&edir)?;
        std::fs::write(edir.join("run.txt"), rec)?;
        std::fs::remove_file(scratch.join("priv.bin"))?;
        copy_tree(scratch, &edir)?;
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let dest = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            std::fs::create_dir_all(&dest)?;
            copy_tree(&e.path(), &dest)?;
        } else {
            std::fs::copy(e.path(), &dest)?;
        }
    }
    Ok(())
}

fn list(root: &Path) -> Result<BTreeSet<PathBuf>> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
            let e = e?;
            let p = e.path();
            if e.file_type()?.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(root)?.to_path_buf());
            }
        }
    }
    Ok(out)
}

fn compare_dirs(a: &Path, b: &Path) -> Result<()> {
    let (la, lb) = (list(a)?, list(b)?);
    let mut identical = 0usize;
    let mut differ = Vec::new();
    for p in la.intersection(&lb) {
        if std::fs::read(a.join(p))? == std::fs::read(b.join(p))? {
            identical += 1;
        } else {
            differ.push(p);
        }
    }
    let only_a: Vec<_> = la.difference(&lb).collect();
    let only_b: Vec<_> = lb.difference(&la).collect();
    for p in &differ {
        println!("differs: {}", p.display());
    }
    for p in &only_a {
        println!("only in {}: {}", a.display(), p.display());
    }
    for p in &only_b {
        println!("only in {}: {}", b.display(), p.display());
    }
    println!(
        "snapshot compare: {} files compared, {identical} identical, {} differ, {} only in A, {} only in B",
        la.intersection(&lb).count(),
        differ.len(),
        only_a.len(),
        only_b.len()
    );
    if differ.is_empty() && only_a.is_empty() && only_b.is_empty() {
        Ok(())
    } else {
        bail!("the snapshots differ")
    }
}
