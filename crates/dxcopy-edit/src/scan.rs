//! Scanning files and folders for containers (`dxinfo --scan`, `--rows`,
//! `dxcopy.survey`), and writing each distinct container once
//! (`--scan-extract`).
//!
//! Only regular files are opened: a FIFO, device or socket, named or found
//! in a walked tree, is one reported failure and is never opened, so a scan
//! cannot hang on it. Large files are memory-mapped ([`MappedFile`]), so
//! scanning one costs no heap proportional to its size.

use crate::batch::{walk, FileFilter};
use crate::error::{EditError, FileKind};
use crate::file::{file_kind, write_bytes_atomic, FileOptions};
use dxcopy_read::info::Inspection;
use dxcopy_read::mapped::InputChange;
use dxcopy_read::pdb::container_input;
use dxcopy_read::scan::rows::{row_of, Cell};
use dxcopy_read::scan::source::{scan_bytes, Event, ScanOptions};
use dxcopy_read::scan::{ContainerKind, Verified};
use dxcopy_read::{Container, DigestKind, MappedFile};
use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Why an input was not scanned, or not entirely.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A FIFO, device or socket: never opened.
    #[error("'{}' is {kind}: not read (only regular files are scanned)", path.display())]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is.
        kind: FileKind,
    },
    /// A directory named without `-r`.
    #[error("'{}' is a directory (-r scans the files below it)", path.display())]
    Directory {
        /// The path.
        path: PathBuf,
    },
    /// Standard input, which cannot be mapped.
    #[error("standard input is not scanned: name a file")]
    Stdin,
    /// Opening or reading failed.
    #[error("'{}': {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A directory of a walk that could not be read.
    #[error(transparent)]
    Walk(EditError),
    /// The file changed while it was read: what was found in it may be wrong.
    #[error("'{}': {change}", path.display())]
    Changed {
        /// The path.
        path: PathBuf,
        /// How.
        change: InputChange,
    },
    /// A file read as one container (`--rows` without `--scan`) that is none.
    #[error("'{path}': {message}")]
    NotAContainer {
        /// The path.
        path: String,
        /// The reader's error.
        message: String,
    },
}

/// What a scan of files reports: the events inside each file, and the
/// inputs that could not be read.
#[derive(Debug)]
pub enum Scanned<'a> {
    /// A container, rejected candidate or unreadable archive member.
    Event(Event<'a>),
    /// An input that was not read.
    Failed(&'a InputError),
}

/// The regular files `paths` name: directories walked when `recursive`
/// (symbolic links below them not followed), every other input a failure.
pub fn input_files(paths: &[PathBuf], recursive: bool) -> (Vec<PathBuf>, Vec<InputError>) {
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            failures.push(InputError::Stdin);
            continue;
        }
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(source) => {
                failures.push(InputError::Io {
                    path: path.clone(),
                    source,
                });
                continue;
            }
        };
        if meta.is_dir() {
            if !recursive {
                failures.push(InputError::Directory { path: path.clone() });
                continue;
            }
            let found = walk(path, &FileFilter::default());
            failures.extend(found.errors.into_iter().map(InputError::Walk));
            files.extend(found.files);
            for special in found.special {
                let kind = std::fs::symlink_metadata(&special)
                    .map(|m| file_kind(&m))
                    .unwrap_or(FileKind::Other);
                failures.push(InputError::NotRegular {
                    path: special,
                    kind,
                });
            }
        } else if meta.is_file() {
            files.push(path.clone());
        } else {
            failures.push(InputError::NotRegular {
                path: path.clone(),
                kind: file_kind(&meta),
            });
        }
    }
    (files, failures)
}

/// Opens a regular file without blocking (a FIFO put in its place after it
/// was listed is refused, not waited on) and maps or reads it.
pub fn open_regular(path: &Path) -> Result<MappedFile, InputError> {
    let io = |source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let file: File = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            path: path.to_path_buf(),
            kind: file_kind(&meta),
        });
    }
    MappedFile::from_file_with(file, meta).map_err(io)
}

/// Scans every input (see [`input_files`]) for containers, calling `visit`
/// with each event and failure, file by file in path order.
pub fn scan_paths(
    paths: &[PathBuf],
    recursive: bool,
    options: &ScanOptions,
    visit: &mut dyn FnMut(Scanned<'_>),
) {
    let (files, failures) = input_files(paths, recursive);
    for failure in &failures {
        visit(Scanned::Failed(failure));
    }
    for path in &files {
        let bytes = match open_regular(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                visit(Scanned::Failed(&e));
                continue;
            }
        };
        let shown = path.display().to_string();
        scan_bytes(&shown, &bytes, options, &mut |event| {
            visit(Scanned::Event(event))
        });
        if let Some(change) = bytes.changed() {
            visit(Scanned::Failed(&InputError::Changed {
                path: path.clone(),
                change,
            }));
        }
    }
}

/// One survey result: a row, or an input that gave none.
#[derive(Debug)]
pub enum Surveyed<'a> {
    /// The row of one container ([`dxcopy_read::scan::rows`]).
    Row(Vec<Cell>),
    /// An input, or an archive member, that could not be read.
    Failed(String),
    /// A rejected candidate (`--scan-all`).
    Rejected(&'a Event<'a>),
}

/// The survey: one row per container. With `scan`, the containers found in
/// the files (at any offset, in archives); without, each file read as one
/// container (a dxc PDB's stream 5 included), where files found in walked
/// folders that do not start like a container are left out.
pub fn survey_paths(
    paths: &[PathBuf],
    recursive: bool,
    scan: Option<&ScanOptions>,
    visit: &mut dyn FnMut(Surveyed<'_>),
) {
    if let Some(options) = scan {
        scan_paths(paths, recursive, options, &mut |scanned| match scanned {
            Scanned::Event(Event::Container {
                path,
                offset,
                verified,
            }) => {
                let insp = Inspection::new(verified.container);
                visit(Surveyed::Row(row_of(path, offset, &insp)));
            }
            Scanned::Event(ref event @ Event::Rejected { .. }) => {
                visit(Surveyed::Rejected(event));
            }
            Scanned::Event(Event::Failed { path, error }) => {
                visit(Surveyed::Failed(format!("'{path}': {error}")));
            }
            Scanned::Failed(e) => visit(Surveyed::Failed(e.to_string())),
        });
        return;
    }
    let (files, failures) = input_files(paths, recursive);
    for failure in failures {
        visit(Surveyed::Failed(failure.to_string()));
    }
    // A set: a survey names thousands of files.
    let named_paths: std::collections::HashSet<&Path> =
        paths.iter().map(PathBuf::as_path).collect();
    for path in &files {
        let named = named_paths.contains(path.as_path());
        let bytes = match open_regular(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                visit(Surveyed::Failed(e.to_string()));
                continue;
            }
        };
        let shown = path.display().to_string();
        let looks_like = bytes.starts_with(b"DXBC") || dxcopy_read::is_msf(&bytes);
        if !named && !looks_like {
            continue;
        }
        let parsed = container_input(&bytes).and_then(|input| {
            let container = Container::parse(&input.bytes)?;
            let insp = Inspection::new(container);
            Ok(row_of(&shown, 0, &insp))
        });
        match parsed {
            Ok(row) => visit(Surveyed::Row(row)),
            Err(e) => visit(Surveyed::Failed(
                InputError::NotAContainer {
                    path: shown,
                    message: e.to_string(),
                }
                .to_string(),
            )),
        }
    }
}

/// One distinct container written by [`Extractor`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// Its file name below the directory.
    pub file: String,
    /// MD5 of its bytes: what makes two finds the same container.
    pub md5: [u8; 16],
    /// Its size.
    pub size: u64,
    /// DXBC or DXIL.
    pub kind: ContainerKind,
    /// The HASH part's digest, hex, when it has one.
    pub shader_hash: Option<String>,
    /// The digest classification.
    pub digest_kind: DigestKind,
    /// Every place it was found: path and offset.
    pub places: Vec<(String, u64)>,
    /// Whether this run wrote the file (false when an identical file was there).
    pub written: bool,
}

/// Writes each distinct container once below a directory, named by its
/// hash, and the manifest of where each was found (docs/scan.md):
///
/// * the name is `<hash>.dxil` or `<hash>.dxbc`, where `<hash>` is the
///   HASH part's digest when the container has one, else its container
///   digest when that is a valid retail or debug digest, else the MD5 of its
///   bytes — all lower-case hex;
/// * two finds are the same container when their bytes are (MD5 of the
///   bytes); a different container whose name is taken (two builds of one
///   shader share a HASH) gets `<hash>-<md5 of its bytes>` instead;
/// * a file already there with the same bytes is not rewritten; one with
///   other bytes is never replaced (the new container takes the longer name).
///
/// Names are hex digits only, so nothing is written outside the directory.
#[derive(Debug)]
pub struct Extractor {
    dir: PathBuf,
    by_md5: HashMap<[u8; 16], usize>,
    taken: HashMap<String, [u8; 16]>,
    extracted: Vec<Extracted>,
}

impl Extractor {
    /// Creates `dir` (and its parents) when missing.
    pub fn new(dir: &Path) -> Result<Extractor, EditError> {
        std::fs::create_dir_all(dir).map_err(|e| EditError::io(dir, e))?;
        Ok(Extractor {
            dir: dir.to_path_buf(),
            by_md5: HashMap::new(),
            taken: HashMap::new(),
            extracted: Vec::new(),
        })
    }

    /// Records a container found at `path`/`offset`, writing it when it is
    /// new; returns its entry.
    pub fn add(
        &mut self,
        path: &str,
        offset: u64,
        verified: &Verified<'_>,
    ) -> Result<&Extracted, EditError> {
        let bytes = verified.container.data();
        let md5 = dxcopy_read::hash::md5_of(bytes);
        if let Some(&index) = self.by_md5.get(&md5) {
            let entry = &mut self.extracted[index];
            entry.places.push((path.to_owned(), offset));
            return Ok(entry);
        }
        let facts = &verified.facts;
        let hex = dxcopy_read::fields::hex;
        let base = match (facts.shader_hash, facts.digest_kind) {
            (Some(hash), _) => hex(&hash),
            (None, DigestKind::Retail | DigestKind::Debug) => hex(&facts.digest),
            (None, _) => hex(&md5),
        };
        let ext = facts.kind.extension();
        let mut file = format!("{base}.{ext}");
        let mut written = true;
        let clash = |name: &str, taken: &HashMap<String, [u8; 16]>| {
            taken.get(name).is_some_and(|m| *m != md5)
        };
        if clash(&file, &self.taken) {
            file = format!("{base}-{}.{ext}", hex(&md5));
        }
        match std::fs::read(self.dir.join(&file)) {
            Ok(existing) if existing == bytes => written = false,
            Ok(_) => {
                // Another file by that name: kept, and this one renamed.
                file = format!("{base}-{}.{ext}", hex(&md5));
                match std::fs::read(self.dir.join(&file)) {
                    Ok(existing) if existing == bytes => written = false,
                    _ => {}
                }
            }
            Err(_) => {}
        }
        if written {
            write_bytes_atomic(&self.dir.join(&file), bytes, &FileOptions::default())?;
        }
        self.taken.insert(file.clone(), md5);
        self.by_md5.insert(md5, self.extracted.len());
        self.extracted.push(Extracted {
            file,
            md5,
            size: bytes.len() as u64,
            kind: facts.kind,
            shader_hash: facts.shader_hash.map(|h| hex(&h)),
            digest_kind: facts.digest_kind,
            places: vec![(path.to_owned(), offset)],
            written,
        });
        Ok(self.extracted.last().expect("just pushed"))
    }

    /// The containers so far, in the order first found.
    pub fn extracted(&self) -> &[Extracted] {
        &self.extracted
    }

    /// Writes `manifest.tsv` and `manifest.json` (each left alone when it
    /// already holds the same text) and returns the entries.
    pub fn finish(self) -> Result<Vec<Extracted>, EditError> {
        let tsv = manifest_tsv(&self.extracted);
        let json = manifest_json(&self.extracted);
        for (name, text) in [("manifest.tsv", tsv), ("manifest.json", json)] {
            let path = self.dir.join(name);
            if std::fs::read(&path).ok().as_deref() != Some(text.as_bytes()) {
                write_bytes_atomic(&path, text.as_bytes(), &FileOptions::default())?;
            }
        }
        Ok(self.extracted)
    }
}

/// The TSV manifest: a header line, then one line per place a container
/// was found (`file md5 kind size shader_hash digest_kind path offset`).
pub fn manifest_tsv(extracted: &[Extracted]) -> String {
    let mut out = String::from("file\tmd5\tkind\tsize\tshader_hash\tdigest_kind\tpath\toffset\n");
    for e in extracted {
        for (path, offset) in &e.places {
            // A tab or line break in a path would break the columns.
            let path: String = path
                .chars()
                .map(|c| {
                    if matches!(c, '\t' | '\n' | '\r') {
                        ' '
                    } else {
                        c
                    }
                })
                .collect();
            out.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{path}\t{offset}\n",
                e.file,
                dxcopy_read::fields::hex(&e.md5),
                e.kind.as_str(),
                e.size,
                e.shader_hash.as_deref().unwrap_or(""),
                e.digest_kind.as_str(),
            ));
        }
    }
    out
}

/// The JSON manifest: `{"containers": [{file, md5, kind, size,
/// shader_hash, digest_kind, places: [{path, offset}]}]}`.
pub fn manifest_json(extracted: &[Extracted]) -> String {
    let containers: Vec<serde_json::Value> = extracted
        .iter()
        .map(|e| {
            let places: Vec<serde_json::Value> = e
                .places
                .iter()
                .map(|(path, offset)| serde_json::json!({ "path": path, "offset": offset }))
                .collect();
            serde_json::json!({
                "file": e.file,
                "md5": dxcopy_read::fields::hex(&e.md5),
                "kind": e.kind.as_str(),
                "size": e.size,
                "shader_hash": e.shader_hash,
                "digest_kind": e.digest_kind.as_str(),
                "places": places,
            })
        })
        .collect();
    let doc = serde_json::json!({ "containers": containers });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}

#[cfg(test)]
mod tests;
