//! `dxcopy --extract-sources=DIR`: the source files a container carries in
//! its SRCI part (dxc's `/Zi /Qembed_debug`, or its companion PDB's stream-5
//! container) written below DIR under their recorded names, as
//! `dxa -extractfile` does.
//!
//! The names are untrusted: each becomes a path below DIR by
//! [`extraction_path`] (drive letters, leading separators and UNC prefixes
//! dropped, `..` turned into `__`), so nothing is written outside DIR.
//! Every folder below DIR the extraction goes through is opened without
//! following a symbolic link, and an entry of a name it needs that is a
//! link, a FIFO or another special file is refused before anything is
//! written. All files are staged and renamed together; folders the run
//! created are removed again when it fails.

use crate::dump_all::{prepare_dir, CreatedDirs};
use crate::error::{EditError, FileKind, Operation, Result};
use crate::file::{DirEntryKind, DirHandle, FileId, Outputs, Sink};
use dxcopy_read::source_info::{extraction_path, SourceInfo};
use dxcopy_read::{Container, PartName};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// One source file of a container, ready to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The name SRCI records (lossy UTF-8).
    pub recorded: String,
    /// The path below the extraction folder, as components.
    pub path: Vec<String>,
    /// The file's text (empty when SRCI holds its name only).
    pub content: Vec<u8>,
    /// Whether SRCI holds the file's contents.
    pub has_content: bool,
    /// Whether it is the main file (what was compiled).
    pub main: bool,
}

/// What [`extract_sources`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtractedSources {
    /// Each file written (path including the folder) and its size.
    pub files: Vec<(PathBuf, u64)>,
    /// The main file's path, when SRCI names one.
    pub main: Option<PathBuf>,
    /// Recorded names whose contents SRCI does not hold (not written).
    pub without_contents: Vec<String>,
}

/// The most components (folders and the file) a recorded source path may
/// have below the extraction folder: deeper names are an error before
/// anything is written, so a crafted SRCI cannot make thousands of nested
/// folders (dxc records the path a file was opened by, a few levels deep).
pub const MAX_SOURCE_DEPTH: usize = 128;

/// The most bytes a recorded source path may have below the extraction
/// folder (its components joined by `/`): Linux's `PATH_MAX`.
pub const MAX_SOURCE_PATH: usize = 4096;

/// Recorded paths as a tree of components: a file at a node, folders on the
/// way. Each name is checked against the others in time linear in its
/// length.
#[derive(Default)]
struct PathTree {
    /// The index of the file that lands here.
    file: Option<usize>,
    /// The components below.
    children: BTreeMap<String, PathTree>,
    /// The index of the first file below this node (for a clash with a file
    /// here).
    first_below: Option<usize>,
}

impl PathTree {
    /// Adds `path` for file `index`, or the clash: the path that two files
    /// need (the same path, or a file where a folder is needed or a folder
    /// where a file is) and the index of the first of them.
    fn insert(&mut self, path: &[String], index: usize) -> std::result::Result<(), (usize, usize)> {
        let mut node = self;
        for (depth, component) in path.iter().enumerate() {
            if let Some(first) = node.file {
                return Err((depth, first));
            }
            node.first_below.get_or_insert(index);
            node = node.children.entry(component.clone()).or_default();
        }
        if let Some(first) = node.file.or(node.first_below) {
            return Err((path.len(), first));
        }
        node.file = Some(index);
        Ok(())
    }
}

/// The source files of `container`'s SRCI part, with their paths below an
/// extraction folder; two names that land on one path, a file on a folder
/// another needs, or a path deeper than [`MAX_SOURCE_DEPTH`] or longer than
/// [`MAX_SOURCE_PATH`] are an error (nothing would be written).
pub fn source_files(container: &Container<'_>) -> Result<Vec<SourceFile>> {
    let part = container.find(PartName::SRCI).ok_or(EditError::NoSources)?;
    let info = SourceInfo::parse(&part)?;
    let main = info.main_file();
    let mut files: Vec<SourceFile> = Vec::new();
    let mut tree = PathTree::default();
    for (index, (name, content)) in info.files().into_iter().enumerate() {
        let path = extraction_path(name);
        let recorded = String::from_utf8_lossy(name).into_owned();
        let length = path.iter().map(String::len).sum::<usize>() + path.len() - 1;
        if path.len() > MAX_SOURCE_DEPTH || length > MAX_SOURCE_PATH {
            return Err(EditError::SourcePathTooLong {
                index,
                recorded: recorded.chars().take(80).collect(),
                depth: path.len(),
                length,
                max_depth: MAX_SOURCE_DEPTH,
                max_length: MAX_SOURCE_PATH,
            });
        }
        if let Err((depth, first)) = tree.insert(&path, index) {
            return Err(EditError::SourcePathClash {
                path: path[..depth].iter().collect(),
                first: files[first].recorded.clone(),
                second: recorded,
            });
        }
        files.push(SourceFile {
            main: main == Some(name),
            recorded,
            path,
            has_content: content.is_some(),
            content: content.map(<[u8]>::to_vec).unwrap_or_default(),
        });
    }
    Ok(files)
}

/// Writes the source files of `container` below `dir` (created when
/// missing). All are written or none; `input`, the file the container was
/// read from, is never overwritten.
pub fn extract_sources(
    dir: &Path,
    container: &Container<'_>,
    input: Option<&Path>,
) -> Result<ExtractedSources> {
    let files = source_files(container)?;
    write_sources(dir, &files, input)
}

/// Writes `files` (from [`source_files`]) below `dir`.
pub fn write_sources(
    dir: &Path,
    files: &[SourceFile],
    input: Option<&Path>,
) -> Result<ExtractedSources> {
    let (root, mut created) = prepare_dir(dir)?;
    let input_id = input
        .filter(|p| p.as_os_str() != "-")
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| FileId::of(&m));
    let mut result = ExtractedSources::default();
    // Folders opened so far: the root first.
    let mut folders = vec![Folder {
        handle: root,
        children: BTreeMap::new(),
    }];
    let mut staged: Vec<(DirHandle, String, &[u8])> = Vec::new();
    for file in files {
        if !file.has_content {
            result.without_contents.push(file.recorded.clone());
            continue;
        }
        let Some((name, parents)) = file.path.split_last() else {
            continue;
        };
        let folder = open_folders(&mut folders, parents, &mut created)?;
        let path = folder.path().join(name);
        match folder.entry(name).map_err(|e| EditError::io(&path, e))? {
            DirEntryKind::Missing => {}
            DirEntryKind::File(id) => {
                if input_id.as_ref() == Some(&id) {
                    return Err(EditError::OutputIsInput {
                        path,
                        what: Operation::Output,
                    });
                }
            }
            DirEntryKind::Directory => return Err(refused(&path, FileKind::Directory)),
            DirEntryKind::Other(kind) => return Err(refused(&path, kind)),
        }
        if file.main {
            result.main = Some(path.clone());
        }
        result.files.push((path, file.content.len() as u64));
        staged.push((folder, name.clone(), &file.content));
    }
    let mut outputs = Outputs::new();
    for (folder, name, content) in &staged {
        outputs.add_in(folder, name, move |sink| match sink {
            Sink::File(f) => f.write_all(content),
            Sink::Stream(w) => w.write_all(content),
        })?;
    }
    outputs.commit(|| Ok(()))?;
    created.keep();
    Ok(result)
}

/// A folder below the extraction folder opened by [`open_folders`]: its
/// held handle and the folders opened below it, by name (index into the
/// list of folders).
struct Folder {
    handle: DirHandle,
    children: BTreeMap<String, usize>,
}

/// The held folder `components` below the root (`folders[0]`), each level
/// opened without following a link and created when missing. Each
/// component is looked up once by name below its parent: the work is
/// linear in the path.
fn open_folders(
    folders: &mut Vec<Folder>,
    components: &[String],
    created: &mut CreatedDirs,
) -> Result<DirHandle> {
    let mut at = 0;
    for name in components {
        if let Some(&next) = folders[at].children.get(name) {
            at = next;
            continue;
        }
        let parent = folders[at].handle.clone();
        let path = parent.path().join(name);
        let io_err = |e: io::Error| EditError::io(&path, e);
        match parent.entry(name).map_err(io_err)? {
            DirEntryKind::Directory => {}
            DirEntryKind::Missing => match parent.create_dir(name) {
                Ok(()) => created.push(path.clone()),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io_err(e)),
            },
            DirEntryKind::File(_) => return Err(refused(&path, FileKind::Regular)),
            DirEntryKind::Other(kind) => return Err(refused(&path, kind)),
        }
        let handle = parent
            .open_own_dir(name)
            .map_err(|e| match parent.entry(name) {
                Ok(DirEntryKind::Other(kind)) => refused(&path, kind),
                _ => io_err(e),
            })?;
        folders.push(Folder {
            handle,
            children: BTreeMap::new(),
        });
        let next = folders.len() - 1;
        folders[at].children.insert(name.clone(), next);
        at = next;
    }
    Ok(folders[at].handle.clone())
}

fn refused(path: &Path, kind: FileKind) -> EditError {
    EditError::DumpAllRefused {
        path: path.to_path_buf(),
        kind,
        by: Operation::ExtractSources,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxcopy_read::fixtures::build_source_info;

    fn container(files: &[(&[u8], &[u8])], args: &[(&[u8], &[u8])]) -> Vec<u8> {
        crate::ContainerBuilder::new()
            .part(b"SRCI", &build_source_info(files, args, true))
            .build()
            .unwrap()
    }

    fn tree(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        for entry in walk(dir) {
            let rel = entry
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push(rel);
        }
        out.sort();
        out
    }

    fn walk(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn files_land_below_the_folder_under_their_names() {
        let bytes = container(
            &[
                (
                    b"shaders/main.hlsl",
                    b"float4 main() : SV_Target { return 1; }",
                ),
                (b"C:\\inc\\common.hlsli", b"// common"),
            ],
            &[(b"E", b"main"), (b"", b"shaders/main.hlsl")],
        );
        let c = Container::parse(&bytes).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("src");
        let got = extract_sources(&out, &c, None).unwrap();
        assert_eq!(tree(&out), ["inc/common.hlsli", "shaders/main.hlsl"]);
        assert_eq!(got.main, Some(out.join("shaders").join("main.hlsl")));
        assert_eq!(
            std::fs::read(out.join("inc/common.hlsli")).unwrap(),
            b"// common"
        );
        assert_eq!(got.files.len(), 2);
    }

    /// Hostile names: absolute paths, `..`, drive letters, UNC prefixes and
    /// control characters all stay inside the folder.
    #[test]
    fn hostile_names_never_leave_the_folder() {
        let bytes = container(
            &[
                (b"../../escape.txt", b"a"),
                (b"/etc/passwd", b"b"),
                (b"\\\\server\\share\\x.h", b"c"),
                (b"D:..\\..\\y.h", b"d"),
                (b"a\x01b.h", b"e"),
                (b"", b"f"),
            ],
            &[],
        );
        let c = Container::parse(&bytes).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("inside").join("src");
        extract_sources(&out, &c, None).unwrap();
        assert_eq!(
            tree(&out),
            [
                "__/__/escape.txt",
                "__/__/y.h",
                "a_b.h",
                "etc/passwd",
                "server/share/x.h",
                "unnamed",
            ]
        );
        // Nothing beside the folder.
        let mut beside: Vec<String> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        beside.sort();
        assert_eq!(beside, ["inside"]);
    }

    #[test]
    fn clashing_names_and_planted_links_are_refused_before_writing() {
        let tmp = tempfile::tempdir().unwrap();
        let bytes = container(&[(b"a/../b.h", b"1"), (b"a/__/b.h", b"2")], &[]);
        let c = Container::parse(&bytes).unwrap();
        let out = tmp.path().join("clash");
        let e = extract_sources(&out, &c, None).unwrap_err();
        assert!(matches!(e, EditError::SourcePathClash { .. }), "{e}");
        assert!(!out.exists(), "a failed run leaves no folder behind");
        // A file where another needs a folder.
        let bytes = container(&[(b"a", b"1"), (b"a/b.h", b"2")], &[]);
        let c = Container::parse(&bytes).unwrap();
        assert!(matches!(
            source_files(&c).unwrap_err(),
            EditError::SourcePathClash { .. }
        ));
        // A link planted where a folder goes is not followed.
        #[cfg(unix)]
        {
            let out = tmp.path().join("linked");
            std::fs::create_dir(&out).unwrap();
            let elsewhere = tmp.path().join("elsewhere");
            std::fs::create_dir(&elsewhere).unwrap();
            std::os::unix::fs::symlink(&elsewhere, out.join("inc")).unwrap();
            let bytes = container(&[(b"inc/x.h", b"1"), (b"y.h", b"2")], &[]);
            let c = Container::parse(&bytes).unwrap();
            let e = extract_sources(&out, &c, None).unwrap_err();
            assert!(
                matches!(
                    e,
                    EditError::DumpAllRefused {
                        kind: FileKind::SymbolicLink,
                        ..
                    }
                ),
                "{e}"
            );
            assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
            assert!(!out.join("y.h").exists());
        }
        // No SRCI: a clear error.
        let bytes = crate::ContainerBuilder::new()
            .part(b"SFI0", &[0; 8])
            .build()
            .unwrap();
        let c = Container::parse(&bytes).unwrap();
        assert!(matches!(
            extract_sources(&tmp.path().join("none"), &c, None).unwrap_err(),
            EditError::NoSources
        ));
    }

    #[test]
    fn deep_and_long_paths_are_refused_before_anything_is_written() {
        let tmp = tempfile::tempdir().unwrap();
        let deep = |depth: usize| "a/".repeat(depth - 1) + "x.h";
        // At the limit: written.
        let at_limit = deep(MAX_SOURCE_DEPTH);
        let bytes = container(&[(at_limit.as_bytes(), b"1")], &[]);
        let c = Container::parse(&bytes).unwrap();
        let out = tmp.path().join("limit");
        let done = extract_sources(&out, &c, None).unwrap();
        assert_eq!(done.files.len(), 1);
        assert!(out.join(&at_limit).is_file());
        // Past it, and 10,000 deep: an error, no folder left behind.
        for depth in [MAX_SOURCE_DEPTH + 1, 10_000] {
            let name = deep(depth);
            let bytes = container(&[(b"ok.h", b"1"), (name.as_bytes(), b"2")], &[]);
            let c = Container::parse(&bytes).unwrap();
            let out = tmp.path().join(format!("deep{depth}"));
            let e = extract_sources(&out, &c, None).unwrap_err();
            assert!(
                matches!(e, EditError::SourcePathTooLong { index: 1, depth: d, .. } if d == depth),
                "{e}"
            );
            assert!(!out.exists());
        }
        // Long without being deep.
        let long = format!("{}/{}", "b".repeat(250), "c".repeat(250)).repeat(9);
        let bytes = container(&[(long.as_bytes(), b"1")], &[]);
        let c = Container::parse(&bytes).unwrap();
        assert!(matches!(
            source_files(&c).unwrap_err(),
            EditError::SourcePathTooLong { length, .. } if length > MAX_SOURCE_PATH
        ));
        // Many files: each checked against the others once (a folder where
        // a file is, found whichever comes first).
        let names: Vec<String> = (0..2000).map(|i| format!("d{i}/f.h")).collect();
        let mut files: Vec<(&[u8], &[u8])> =
            names.iter().map(|n| (n.as_bytes(), &b"1"[..])).collect();
        files.push((b"d7", b"2"));
        let bytes = container(&files, &[]);
        let c = Container::parse(&bytes).unwrap();
        assert!(matches!(
            source_files(&c).unwrap_err(),
            EditError::SourcePathClash { ref first, ref second, .. } if first == "d7/f.h" && second == "d7"
        ));
    }
}
