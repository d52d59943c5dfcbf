//! Containers on disk compared and totalled: `dxinfo --diff A B` over two
//! files or two folders ([`diff_paths`]) and `dxinfo --stats DIR...` over
//! many files in parallel ([`stats_paths`]). The comparison and the totals
//! themselves are [`dxcopy_read::info::diff`] and
//! [`dxcopy_read::info::stats`]; this module finds and opens the files.

use crate::batch::{walk, FileFilter, CONTAINER_MAGIC};
use crate::error::{EditError, Result};
use crate::parallel::{default_jobs, run_each};
use dxcopy_read::info::diff::{diff, Change, ContainerDiff, DiffOptions};
use dxcopy_read::info::stats::{TreeStats, PART_OVERHEAD};
use dxcopy_read::info::Inspection;
use dxcopy_read::pdb::{container_input, ContainerSource, MSF_MAGIC};
use dxcopy_read::{Container, MappedFile};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The comparison of one pair of files.
#[derive(Debug)]
pub struct FileDiff {
    /// The path below both folders (the file names when two files were
    /// compared).
    pub path: PathBuf,
    /// What differs, or why the pair could not be compared.
    pub outcome: std::result::Result<ContainerDiff, EditError>,
}

/// What [`diff_paths`] found.
#[derive(Debug, Default)]
pub struct TreeDiff {
    /// Every pair compared, in path order.
    pub files: Vec<FileDiff>,
    /// Containers only the first folder holds.
    pub only_in_a: Vec<PathBuf>,
    /// Containers only the second folder holds.
    pub only_in_b: Vec<PathBuf>,
    /// Directories that could not be read.
    pub errors: Vec<EditError>,
}

impl TreeDiff {
    /// Whether both sides hold the same containers with no difference.
    pub fn is_equal(&self) -> bool {
        self.only_in_a.is_empty()
            && self.only_in_b.is_empty()
            && self
                .files
                .iter()
                .all(|f| f.outcome.as_ref().is_ok_and(ContainerDiff::is_empty))
    }

    /// Whether any pair or directory could not be read.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty() || self.files.iter().any(|f| f.outcome.is_err())
    }
}

/// One change as a line of text (the listing's lines follow it).
fn change_lines(change: &Change) -> Vec<String> {
    match change {
        Change::PartAdded { part, size } => vec![format!("part {part} added ({size} bytes)")],
        Change::PartRemoved { part, size } => vec![format!("part {part} removed ({size} bytes)")],
        Change::PartResized { part, from, to } => {
            vec![format!("part {part} resized: {from} -> {to} bytes")]
        }
        Change::Field {
            part,
            path,
            from,
            to,
        } => vec![format!("{part} {path}: {from} -> {to}")],
        Change::Listing { lines } => std::iter::once("listing:".to_string())
            .chain(lines.iter().cloned())
            .collect(),
    }
}

impl TreeDiff {
    /// The text `dxinfo --diff` prints: for each pair that differs a
    /// `--- A/PATH` / `+++ B/PATH` header and one line per change (the
    /// listing as a unified diff), then the containers one side lacks.
    /// Pairs that could not be compared are the caller's to report.
    pub fn write_text(&self, a: &Path, b: &Path, out: &mut dyn Write) -> std::io::Result<()> {
        let pair = self.files.len() == 1 && self.only_in_a.is_empty() && self.only_in_b.is_empty();
        for file in &self.files {
            let Ok(found) = &file.outcome else { continue };
            if found.is_empty() {
                continue;
            }
            let (left, right) = if pair && !a.is_dir() {
                (a.to_path_buf(), b.to_path_buf())
            } else {
                (a.join(&file.path), b.join(&file.path))
            };
            writeln!(out, "--- {}", left.display())?;
            writeln!(out, "+++ {}", right.display())?;
            for change in &found.changes {
                for line in change_lines(change) {
                    writeln!(out, "{line}")?;
                }
            }
        }
        for path in &self.only_in_a {
            writeln!(out, "Only in {}: {}", a.display(), path.display())?;
        }
        for path in &self.only_in_b {
            writeln!(out, "Only in {}: {}", b.display(), path.display())?;
        }
        Ok(())
    }

    /// The JSON `dxinfo --diff --json` prints: `a`, `b`, `equal`, `files`
    /// (each `path` with its `changes`, or its `error`), `only_in_a`,
    /// `only_in_b` (docs/dxinfo.md).
    pub fn to_json(&self, a: &Path, b: &Path) -> serde_json::Value {
        let files: Vec<serde_json::Value> = self
            .files
            .iter()
            .map(|f| match &f.outcome {
                Ok(found) => serde_json::json!({
                    "path": f.path.display().to_string(),
                    "equal": found.is_empty(),
                    "changes": found.changes,
                }),
                Err(e) => serde_json::json!({
                    "path": f.path.display().to_string(),
                    "error": e.to_string(),
                }),
            })
            .collect();
        let shown = |list: &[PathBuf]| -> Vec<String> {
            list.iter().map(|p| p.display().to_string()).collect()
        };
        serde_json::json!({
            "a": a.display().to_string(),
            "b": b.display().to_string(),
            "equal": self.is_equal(),
            "files": files,
            "only_in_a": shown(&self.only_in_a),
            "only_in_b": shown(&self.only_in_b),
        })
    }
}

/// Whether `bytes` start like a container or a dxc companion PDB.
fn is_container_or_pdb(bytes: &[u8]) -> bool {
    bytes.starts_with(CONTAINER_MAGIC) || bytes.starts_with(MSF_MAGIC)
}

/// Opens `path` and compares nothing: the inspection of its container (a
/// dxc PDB's stream-5 container too) is handed to `f`.
fn with_inspection<T>(
    path: &Path,
    module_facts: bool,
    f: impl FnOnce(&Inspection<'_>) -> T,
) -> Result<T> {
    let file = MappedFile::open(path).map_err(|e| EditError::io(path, e))?;
    let input = container_input(&file)?;
    let container = Container::parse(&input.bytes)?;
    let inspection = Inspection::with_module_facts(container, module_facts);
    let inspection = match &input.source {
        ContainerSource::PdbStream5 { info } => inspection.from_pdb(*info),
        ContainerSource::Container => inspection,
    };
    let value = f(&inspection);
    match file.changed() {
        Some(change) => Err(EditError::InputChanged {
            path: path.to_path_buf(),
            change,
        }),
        None => Ok(value),
    }
}

/// Compares the containers in the files `a` and `b`.
pub fn diff_files(a: &Path, b: &Path, options: &DiffOptions) -> Result<ContainerDiff> {
    let bytes_a = MappedFile::open(a).map_err(|e| EditError::io(a, e))?;
    let input_a = container_input(&bytes_a)?;
    let container_a = Container::parse(&input_a.bytes)?;
    let inspection_a = Inspection::new(container_a);
    let found = with_inspection(b, true, |inspection_b| {
        diff(&inspection_a, inspection_b, options)
    })
    .map_err(|e| name_file(b, e))?;
    match bytes_a.changed() {
        Some(change) => Err(EditError::InputChanged {
            path: a.to_path_buf(),
            change,
        }),
        None => Ok(found),
    }
}

/// `e` with the file it is about, unless it names it.
fn name_file(path: &Path, e: EditError) -> EditError {
    if e.names_its_file() || matches!(e, EditError::InputChanged { .. }) {
        e
    } else {
        EditError::io(path, std::io::Error::other(e.to_string()))
    }
}

/// Compares `a` with `b`: two files, or two folders whose containers (and
/// dxc PDBs) are matched by their path below each folder. Other files are
/// left out.
pub fn diff_paths(a: &Path, b: &Path, options: &DiffOptions) -> Result<TreeDiff> {
    let (dir_a, dir_b) = (a.is_dir(), b.is_dir());
    if !dir_a && !dir_b {
        let name = a.file_name().map(PathBuf::from).unwrap_or_default();
        let outcome = diff_files(a, b, options).map_err(|e| name_file(a, e));
        return Ok(TreeDiff {
            files: vec![FileDiff {
                path: name,
                outcome,
            }],
            ..TreeDiff::default()
        });
    }
    if dir_a != dir_b {
        let file = if dir_a { b } else { a };
        return Err(EditError::io(
            file,
            std::io::Error::other("a folder is compared with a folder, not with a file"),
        ));
    }
    let mut found = TreeDiff::default();
    let containers = |root: &Path, errors: &mut Vec<EditError>| {
        let walked = walk(root, &FileFilter::default());
        errors.extend(walked.errors);
        let mut relative: Vec<PathBuf> = walked
            .files
            .into_iter()
            .filter(|p| starts_like_container(p))
            .filter_map(|p| p.strip_prefix(root).ok().map(Path::to_path_buf))
            .collect();
        relative.sort();
        relative
    };
    let in_a = containers(a, &mut found.errors);
    let in_b = containers(b, &mut found.errors);
    let (mut i, mut j) = (0, 0);
    while i < in_a.len() || j < in_b.len() {
        match (in_a.get(i), in_b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                let outcome = diff_files(&a.join(x), &b.join(y), options)
                    .map_err(|e| name_file(&a.join(x), e));
                found.files.push(FileDiff {
                    path: x.clone(),
                    outcome,
                });
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                found.only_in_a.push(x.clone());
                i += 1;
            }
            (Some(x), None) => {
                found.only_in_a.push(x.clone());
                i += 1;
            }
            (_, Some(y)) => {
                found.only_in_b.push(y.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    Ok(found)
}

/// Whether the file at `path` starts with a container's or PDB's magic.
fn starts_like_container(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 32];
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut filled = 0;
    while filled < head.len() {
        match file.read(&mut head[filled..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => filled += n,
        }
    }
    is_container_or_pdb(&head[..filled])
}

/// What [`stats_paths`] found.
#[derive(Debug, Default)]
pub struct StatsRun {
    /// The totals.
    pub stats: TreeStats,
    /// Files and directories that could not be read.
    pub errors: Vec<EditError>,
}

impl StatsRun {
    /// The JSON `dxinfo --stats --json` prints: the totals, each part
    /// name's `count`, `files`, `bytes` and `share` (percent of the
    /// container bytes), the structure and debug bytes, and the largest
    /// files (docs/dxinfo.md).
    pub fn to_json(&self) -> serde_json::Value {
        let s = &self.stats;
        let share = |bytes: u64| {
            if s.container_bytes == 0 {
                0.0
            } else {
                100.0 * bytes as f64 / s.container_bytes as f64
            }
        };
        let parts: serde_json::Map<String, serde_json::Value> = s
            .parts
            .iter()
            .map(|(name, t)| {
                let row = serde_json::json!({
                    "count": t.count,
                    "files": t.files,
                    "bytes": t.bytes,
                    "share": share(t.bytes),
                });
                (name.clone(), row)
            })
            .collect();
        let structure = s
            .parts
            .values()
            .map(|t| t.count * PART_OVERHEAD)
            .sum::<u64>()
            + s.other_bytes;
        let largest: Vec<serde_json::Value> = s
            .largest
            .iter()
            .map(|(path, bytes)| serde_json::json!({ "path": path, "bytes": bytes }))
            .collect();
        serde_json::json!({
            "files": s.files,
            "containers": s.containers,
            "bytes": s.bytes,
            "container_bytes": s.container_bytes,
            "parts": parts,
            "structure_bytes": structure,
            "debug_bytes": s.debug_bytes,
            "debug_share": share(s.debug_bytes),
            "largest": largest,
            "errors": self.errors.len(),
        })
    }
}

/// The files `stats_paths` looks at: each path given, and every file below
/// those that are folders, in path order. A file named (not found in a
/// folder) that is not a container is an error, not another file: it was
/// asked about by name.
pub fn stats_files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<EditError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.is_dir() {
            let walked = walk(path, &FileFilter::default());
            files.extend(walked.files);
            errors.extend(walked.errors);
        } else {
            match not_a_container(path) {
                Some(e) => errors.push(e),
                None => files.push(path.clone()),
            }
        }
    }
    (files, errors)
}

/// Why the file `path` is not a container, when it can be read and is not
/// (one that cannot be read is left to [`stats_paths`] to report).
fn not_a_container(path: &Path) -> Option<EditError> {
    let file = MappedFile::open(path).ok()?;
    let e = Container::parse(&file).err()?;
    Some(EditError::io(
        path,
        std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
    ))
}

/// The totals of one file: a container's parts, or its size as another file.
fn file_stats(path: &Path) -> Result<TreeStats> {
    let file = MappedFile::open(path).map_err(|e| EditError::io(path, e))?;
    let mut stats = TreeStats::default();
    match Container::parse(&file) {
        Ok(container) if file.starts_with(CONTAINER_MAGIC) => {
            stats.add_container(&path.display().to_string(), &container)
        }
        _ => stats.add_other(file.len() as u64),
    }
    match file.changed() {
        Some(change) => Err(EditError::InputChanged {
            path: path.to_path_buf(),
            change,
        }),
        None => Ok(stats),
    }
}

/// Totals over `files` (from [`stats_files`]) on `jobs` workers (`None`:
/// two per core), `on_done` called on the calling thread as files finish
/// (for a progress bar). A file that does not parse as a container counts
/// as another file; one that cannot be read is an error and is left out.
pub fn stats_paths(files: &[PathBuf], jobs: Option<usize>, on_done: impl FnMut()) -> StatsRun {
    let mut run = StatsRun::default();
    let jobs = jobs.unwrap_or_else(default_jobs);
    // Several small files a worker at a time: one file's work is a few
    // system calls, less than taking the next index and handing back.
    let chunk = files.len().div_ceil(jobs.max(1) * 8).clamp(1, 64);
    run_each(
        files.len(),
        Some(jobs),
        chunk,
        |range| range.map(|i| file_stats(&files[i])).collect(),
        on_done,
        |_, result| match result {
            Ok(stats) => run.stats.merge(stats),
            Err(e) => run.errors.push(e),
        },
    );
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ContainerBuilder;
    use dxcopy_read::digest::container_digests;

    fn container(sfi: u8, extra: Option<&[u8]>) -> Vec<u8> {
        let mut b = ContainerBuilder::new().part(b"SFI0", &[sfi, 0, 0, 0, 0, 0, 0, 0]);
        if let Some(data) = extra {
            b = b.part(b"PRIV", data);
        }
        b.build().unwrap()
    }

    fn signed(mut bytes: Vec<u8>) -> Vec<u8> {
        let (retail, _) = container_digests(&bytes).unwrap();
        bytes[4..20].copy_from_slice(&retail);
        bytes
    }

    #[test]
    fn folders_are_matched_by_path() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        for dir in [&a, &b] {
            std::fs::create_dir_all(dir.join("sub")).unwrap();
        }
        // Same shader, another digest: no difference.
        std::fs::write(a.join("same.dxbc"), container(0, None)).unwrap();
        std::fs::write(b.join("same.dxbc"), signed(container(0, None))).unwrap();
        // Another flag value.
        std::fs::write(a.join("sub/flag.dxbc"), container(0, None)).unwrap();
        std::fs::write(b.join("sub/flag.dxbc"), container(1, None)).unwrap();
        std::fs::write(a.join("gone.dxbc"), container(0, None)).unwrap();
        std::fs::write(b.join("new.dxbc"), container(0, Some(b"x"))).unwrap();
        // Not containers: left out.
        std::fs::write(a.join("notes.txt"), "a").unwrap();
        std::fs::write(b.join("notes.txt"), "b").unwrap();
        let found = diff_paths(&a, &b, &DiffOptions::default()).unwrap();
        let paths: Vec<String> = found
            .files
            .iter()
            .map(|f| f.path.display().to_string())
            .collect();
        assert_eq!(paths, ["same.dxbc", "sub/flag.dxbc"]);
        assert!(found.files[0].outcome.as_ref().unwrap().is_empty());
        assert!(!found.files[1].outcome.as_ref().unwrap().is_empty());
        assert_eq!(found.only_in_a, [PathBuf::from("gone.dxbc")]);
        assert_eq!(found.only_in_b, [PathBuf::from("new.dxbc")]);
        assert!(!found.is_equal() && !found.has_errors());
        let mut text = Vec::new();
        found.write_text(&a, &b, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let (ad, bd) = (a.display(), b.display());
        assert_eq!(
            text,
            format!(
                "--- {ad}/sub/flag.dxbc\n+++ {bd}/sub/flag.dxbc\n\
                 SFI0 decoded.flags.names[0]: null -> \"Doubles\"\nSFI0 decoded.flags.value: 0 -> 1\n\
                 Only in {ad}: gone.dxbc\nOnly in {bd}: new.dxbc\n"
            )
        );
        let json = found.to_json(&a, &b);
        assert_eq!(json["equal"], false);
        assert_eq!(json["files"][0]["equal"], true);
        assert_eq!(json["files"][1]["changes"][0]["change"], "field");
        assert_eq!(json["only_in_b"][0], "new.dxbc");
        // --exact sees the digest.
        let exact = diff_files(
            &a.join("same.dxbc"),
            &b.join("same.dxbc"),
            &DiffOptions { exact: true },
        )
        .unwrap();
        assert!(!exact.is_empty());
        // A file against a folder is an error; a file that is not a container too.
        assert!(diff_paths(&a, &b.join("same.dxbc"), &DiffOptions::default()).is_err());
        let pair = diff_paths(
            &a.join("notes.txt"),
            &b.join("notes.txt"),
            &DiffOptions::default(),
        )
        .unwrap();
        assert!(pair.has_errors());
    }

    #[test]
    fn stats_total_a_tree_in_parallel() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("tree");
        std::fs::create_dir_all(root.join("d")).unwrap();
        let mut expected_bytes = 0;
        for i in 0..40u8 {
            let bytes = container(i, (i % 2 == 0).then_some(&b"priv"[..]));
            expected_bytes += bytes.len() as u64;
            std::fs::write(root.join("d").join(format!("{i}.dxbc")), bytes).unwrap();
        }
        std::fs::write(root.join("readme.txt"), "12345").unwrap();
        let (files, errors) = stats_files(std::slice::from_ref(&root));
        assert!(errors.is_empty());
        assert_eq!(files.len(), 41);
        let mut done = 0;
        let run = stats_paths(&files, Some(3), || done += 1);
        assert!(run.errors.is_empty());
        assert_eq!(done, 41);
        let s = &run.stats;
        assert_eq!((s.files, s.containers), (41, 40));
        assert_eq!(s.container_bytes, expected_bytes);
        assert_eq!(s.bytes, expected_bytes + 5);
        assert_eq!(s.parts["SFI0"].count, 40);
        assert_eq!(s.parts["PRIV"].files, 20);
        assert_eq!(s.largest.len(), dxcopy_read::info::stats::LARGEST_KEPT);
        let json = run.to_json();
        assert_eq!(json["parts"]["PRIV"]["count"], 20);
        assert_eq!(json["containers"], 40);
        assert_eq!(json["debug_bytes"], 0);
        let parts: u64 = s.parts.values().map(|t| t.bytes).sum();
        assert_eq!(
            parts + json["structure_bytes"].as_u64().unwrap(),
            s.container_bytes
        );
    }
}
