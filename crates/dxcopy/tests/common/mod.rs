//! Shared by the corpus and LLVM tests: where `../shared/corpus` and the LLVM
//! 22 tools are, and the rows of the corpus's MANIFEST.tsv.
//!
//! Every test that needs one of them says clearly that it skipped when it is
//! missing, and passes.

// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Environment variable naming the `shared` folder (the one holding `corpus/`).
pub const SHARED_ENV: &str = "DXCOPY_SHARED";
/// Environment variable naming the folder of the LLVM tools.
pub const LLVM_BIN_ENV: &str = "DXCOPY_LLVM_BIN";
/// Where Debian's LLVM 22 packages install the tools (and where CI installs them).
pub const LLVM_BIN_DEFAULT: &str = "/usr/lib/llvm-22/bin";

/// One row of MANIFEST.tsv.
#[derive(Debug, Clone)]
pub struct Row {
    /// Path relative to the corpus folder, as written in the manifest.
    pub rel: String,
    /// Absolute path.
    pub path: PathBuf,
    /// File size in bytes.
    pub size: u64,
    /// `dxbc`, `dxil`, `fx`, `rootsig`, `other` or `msf-pdb`.
    pub kind: String,
    /// Part names in offset-table order.
    pub parts: Vec<String>,
    /// Part sizes in offset-table order.
    pub part_sizes: Vec<u32>,
    /// `retail`, `debug`, `zero`, `invalid` (or `n/a` for PDBs).
    pub digest_kind: String,
    /// Free-form notes (layout oddities).
    pub notes: String,
}

impl Row {
    /// A short name for messages: the file name without its folders.
    pub fn short(&self) -> &str {
        self.rel.rsplit('/').next().unwrap_or(&self.rel)
    }

    /// Whether the row is a container the tests edit (not an MSF PDB).
    pub fn is_container(&self) -> bool {
        self.kind != "msf-pdb"
    }
}

/// The `shared` folder: `$DXCOPY_SHARED`, or `../shared` beside the workspace.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os(SHARED_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// The corpus folder and its manifest rows, or `None` after printing why the
/// test `test` is skipped.
pub fn corpus_or_skip(test: &str) -> Option<(PathBuf, Vec<Row>)> {
    let corpus = shared_dir().join("corpus");
    let manifest = corpus.join("MANIFEST.tsv");
    if !manifest.is_file() {
        println!(
            "{test}: skipped: ../shared/corpus not found (no {}; set {SHARED_ENV} to the shared folder)",
            manifest.display()
        );
        return None;
    }
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", manifest.display()));
    let rows = parse_manifest(&corpus, &text);
    assert!(!rows.is_empty(), "{} lists no files", manifest.display());
    Some((corpus, rows))
}

/// Parses MANIFEST.tsv, finding columns by their header names.
pub fn parse_manifest(corpus: &Path, text: &str) -> Vec<Row> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("manifest header").split('\t').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("MANIFEST.tsv has no '{name}' column"))
    };
    let (path, size, kind) = (column("path"), column("size"), column("kind"));
    let (parts, part_sizes) = (column("parts"), column("part_sizes"));
    let (digest_kind, notes) = (column("digest_kind"), column("notes"));
    let list = |s: &str| -> Vec<String> {
        if s.is_empty() {
            Vec::new()
        } else {
            s.split(',').map(str::to_string).collect()
        }
    };
    lines
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            let cols: Vec<&str> = line.split('\t').collect();
            let col = |c: usize| cols.get(c).copied().unwrap_or("");
            let rel = col(path).to_string();
            Row {
                path: corpus.join(&rel),
                size: col(size)
                    .parse()
                    .unwrap_or_else(|_| panic!("manifest line {}: bad size", i + 2)),
                kind: col(kind).to_string(),
                parts: list(col(parts)),
                part_sizes: list(col(part_sizes))
                    .iter()
                    .map(|s| s.parse().unwrap_or(u32::MAX))
                    .collect(),
                digest_kind: col(digest_kind).to_string(),
                notes: col(notes).to_string(),
                rel,
            }
        })
        .collect()
}

/// The LLVM tool `name` (e.g. `llvm-objcopy`), or `None` after printing why
/// the test `test` is skipped.
pub fn llvm_tool_or_skip(test: &str, name: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(LLVM_BIN_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(LLVM_BIN_DEFAULT));
    let tool = dir.join(name);
    if tool.is_file() {
        Some(tool)
    } else {
        println!(
            "{test}: skipped: {} not found (install LLVM 22 or set {LLVM_BIN_ENV})",
            tool.display()
        );
        None
    }
}

/// `count name` pairs joined for a summary line, e.g. `1886 retail, 6 debug`.
pub fn tally<K: std::fmt::Display>(counts: &std::collections::BTreeMap<K, usize>) -> String {
    counts
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fails the test with the first `limit` messages if there are any.
pub fn assert_no_failures(what: &str, failures: &[String]) {
    const LIMIT: usize = 40;
    if failures.is_empty() {
        return;
    }
    let shown: Vec<&str> = failures.iter().take(LIMIT).map(String::as_str).collect();
    panic!(
        "{what}: {} failures{}:\n  {}",
        failures.len(),
        if failures.len() > LIMIT {
            format!(" (first {LIMIT})")
        } else {
            String::new()
        },
        shown.join("\n  ")
    );
}
