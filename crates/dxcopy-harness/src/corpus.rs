//! Where the shared corpus of real containers is, for every test and xtask
//! task that reads it: `$DXCOPY_SHARED/corpus`, else `../shared/corpus`
//! beside the workspace. The corpus is never copied into the repository.
//!
//! A test that needs it carries
//! `#[cfg_attr(not(dxcopy_corpus), ignore = "…")]` (the cfg comes from
//! `build-support/test_inputs.rs`), so without the corpus it shows as
//! ignored. Should it run anyway and find the corpus missing, the `*_or_skip`
//! functions here print why and return `None` — except under CI, which has
//! the corpus: there they fail the test ([`under_ci`]).

use dxcopy_edit::dump::dumps_as_bitcode;
use dxcopy_read::{container_input, Container, Program};
use std::path::{Path, PathBuf};

/// Environment variable naming the `shared` folder (the one holding `corpus/`).
pub const SHARED_ENV: &str = "DXCOPY_SHARED";

/// The workspace root (this crate lives in `crates/dxcopy-harness`).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `shared` folder: `$DXCOPY_SHARED`, or `../shared` beside the workspace.
/// It may not exist.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os(SHARED_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared"),
    }
}

/// The corpus folder (the one holding `MANIFEST.tsv`), or why it is missing.
pub fn corpus_dir() -> Result<PathBuf, String> {
    let corpus = shared_dir().join("corpus");
    if corpus.join("MANIFEST.tsv").is_file() {
        Ok(corpus)
    } else {
        Err(format!(
            "no corpus at {} (no MANIFEST.tsv; set {SHARED_ENV} to the shared folder)",
            corpus.display()
        ))
    }
}

/// Whether this runs under CI (`CI` set and not `false`), where every test
/// input is installed and a missing one is a failure.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false")
}

/// Reports that `test` cannot run: prints why, or fails the test under CI.
pub fn skip(test: &str, why: &str) {
    assert!(
        !under_ci(),
        "{test}: its input is missing under CI, where a test may not skip: {why}"
    );
    println!("{test}: skipped: {why}");
}

/// The corpus folder, or `None` after printing that `test` is skipped
/// (a failure under CI).
pub fn corpus_or_skip(test: &str) -> Option<PathBuf> {
    match corpus_dir() {
        Ok(corpus) => Some(corpus),
        Err(why) => {
            skip(test, &why);
            None
        }
    }
}

/// The corpus folder when it holds Microsoft's reference listings
/// (`listings/LISTINGS.tsv`, which maps each listing to its container), or
/// `None` after printing that `test` is skipped.
pub fn listings_or_skip(test: &str) -> Option<PathBuf> {
    let corpus = shared_dir().join("corpus");
    if corpus.join("listings/LISTINGS.tsv").is_file() {
        Some(corpus)
    } else {
        skip(
            test,
            &format!(
                "no reference listings at {} (set {SHARED_ENV} to the shared folder)",
                corpus.join("listings").display()
            ),
        );
        None
    }
}

/// The program part of an SM4/SM5 listing: from the profile line (`ps_4_0`,
/// `cs_5_1`, …) to the end; empty when the listing has no profile line.
pub fn listing_program_portion(listing: &str) -> &str {
    let mut offset = 0;
    for line in listing.split_inclusive('\n') {
        let b = line.trim_end().as_bytes();
        if b.len() == 6
            && matches!(&b[..2], b"ps" | b"vs" | b"gs" | b"hs" | b"ds" | b"cs")
            && b[2] == b'_'
            && b[3].is_ascii_digit()
            && b[4] == b'_'
            && b[5].is_ascii_digit()
        {
            return &listing[offset..];
        }
        offset += line.len();
    }
    ""
}

/// Every file under `dir` (recursively), sorted; none when `dir` is missing.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                stack.push(path);
            } else if path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The LLVM bitcode of every program part (DXIL, ILDB, dxc's STAT) that
/// starts with the bitcode magic, in the containers under `corpus/bin` and
/// the containers inside the PDBs under `corpus/pdb`, in path order: (file,
/// part name, bitcode). Files that are not containers are passed over.
pub fn program_bitcode(corpus: &Path) -> Vec<(String, String, Vec<u8>)> {
    let mut paths = files_under(&corpus.join("bin"));
    paths.extend(files_under(&corpus.join("pdb")));
    let mut out = Vec::new();
    for path in paths {
        let data =
            std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let Ok(input) = container_input(&data) else {
            continue;
        };
        let Ok(container) = Container::parse(&input.bytes) else {
            continue;
        };
        for part in container.parts().filter(dumps_as_bitcode) {
            let Ok(program) = Program::parse(&part) else {
                continue;
            };
            if program.has_bitcode_magic() {
                out.push((
                    path.display().to_string(),
                    part.name.to_string(),
                    program.bitcode.to_vec(),
                ));
            }
        }
    }
    out
}

/// One row of the corpus's MANIFEST.tsv.
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

    /// Whether the row is a container (not an MSF PDB).
    pub fn is_container(&self) -> bool {
        self.kind != "msf-pdb"
    }
}

/// The corpus folder and its manifest rows, or `None` after printing that
/// `test` is skipped. Panics (failing the test) on an unreadable or empty
/// manifest.
pub fn manifest_or_skip(test: &str) -> Option<(PathBuf, Vec<Row>)> {
    let corpus = corpus_or_skip(test)?;
    let manifest = corpus.join("MANIFEST.tsv");
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", manifest.display()));
    let rows = parse_manifest(&corpus, &text);
    assert!(!rows.is_empty(), "{} lists no files", manifest.display());
    Some((corpus, rows))
}

/// Parses MANIFEST.tsv, finding columns by their header names. Panics on a
/// missing column or a bad size (the manifest is test input).
pub fn parse_manifest(corpus: &Path, text: &str) -> Vec<Row> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_columns_are_found_by_name() {
        let text = "kind\tpath\tsize\tparts\tpart_sizes\tdigest_kind\tnotes\n\
                    dxil\tbin/a.dxil\t120\tDXIL,HASH\t64,20\tretail\t\n\
                    msf-pdb\tpdb/b.pdb\t4096\t\t\tn/a\tno container\n";
        let rows = parse_manifest(Path::new("/c"), text);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].rel, "bin/a.dxil");
        assert_eq!(rows[0].path, Path::new("/c/bin/a.dxil"));
        assert_eq!(rows[0].size, 120);
        assert_eq!(rows[0].parts, ["DXIL", "HASH"]);
        assert_eq!(rows[0].part_sizes, [64, 20]);
        assert_eq!(rows[0].short(), "a.dxil");
        assert!(rows[0].is_container());
        assert!(rows[1].parts.is_empty());
        assert!(!rows[1].is_container());
        assert_eq!(rows[1].notes, "no container");
    }

    #[test]
    fn program_bitcode_reads_bin_and_pdb_containers() {
        let dir = std::env::temp_dir().join(format!("dxcopy-bitcode-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bin/sub")).unwrap();
        std::fs::create_dir_all(dir.join("pdb")).unwrap();
        let container = |bitcode: &[u8]| {
            dxcopy_edit::ContainerBuilder::new()
                .pixel_program(b"DXIL", bitcode)
                .build()
                .unwrap()
        };
        std::fs::write(dir.join("bin/sub/b.dxil"), container(b"BC\xc0\xde\x02")).unwrap();
        std::fs::write(dir.join("bin/a.dxil"), container(b"BC\xc0\xde\x01")).unwrap();
        std::fs::write(dir.join("bin/c.dxil"), container(b"not bitcode")).unwrap();
        std::fs::write(dir.join("pdb/notes.txt"), b"not a container").unwrap();
        let found = program_bitcode(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        let found: Vec<_> = found
            .iter()
            .map(|(file, part, bitcode)| {
                let rel = Path::new(file).strip_prefix(&dir).unwrap().to_path_buf();
                (rel, part.as_str(), bitcode.as_slice())
            })
            .collect();
        assert_eq!(
            found,
            [
                (PathBuf::from("bin/a.dxil"), "DXIL", &b"BC\xc0\xde\x01"[..]),
                (
                    PathBuf::from("bin/sub/b.dxil"),
                    "DXIL",
                    &b"BC\xc0\xde\x02"[..]
                ),
            ]
        );
    }

    #[test]
    fn files_under_lists_nested_files_sorted() {
        let dir = std::env::temp_dir().join(format!("dxcopy-corpus-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("b/c")).unwrap();
        std::fs::write(dir.join("b/c/z"), b"").unwrap();
        std::fs::write(dir.join("a"), b"").unwrap();
        std::fs::write(dir.join("b/y"), b"").unwrap();
        let got: Vec<_> = files_under(&dir)
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().to_path_buf())
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(got, [Path::new("a"), Path::new("b/c/z"), Path::new("b/y")]);
        assert!(files_under(&dir).is_empty());
    }
}
