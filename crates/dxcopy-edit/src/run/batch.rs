//! Choosing the files of a batch (dxstrip): directories walked recursively,
//! containers recognised by their magic rather than their extension,
//! `--include`/`--exclude` globs, `--files-from` lists, and the glob
//! expansion that Windows shells leave to the program.

use crate::error::{EditError, Operation, Result};
use crate::matcher::{MatchStyle, NameMatcher};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

/// The first bytes of every DirectX container.
pub const CONTAINER_MAGIC: &[u8; 4] = b"DXBC";

/// Whether the file at `path` starts with the container magic. Reads four
/// bytes; a file shorter than that is not a container.
pub fn is_container_file(path: &Path) -> std::io::Result<bool> {
    let mut head = [0u8; 4];
    let mut file = std::fs::File::open(path)?;
    let mut filled = 0;
    while filled < head.len() {
        match file.read(&mut head[filled..]) {
            Ok(0) => return Ok(false),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(&head == CONTAINER_MAGIC)
}

/// `--include` / `--exclude` patterns for files found in directories. A
/// pattern matches a file when it matches its name or its path relative to
/// the directory given (with `/` separators), so `*.dxil` and
/// `third_party/*` both work.
#[derive(Debug, Clone, Default)]
pub struct FileFilter {
    include: NameMatcher,
    exclude: NameMatcher,
}

impl FileFilter {
    /// Compiles the globs (llvm-objcopy's glob syntax; `\` escapes).
    pub fn new<S: AsRef<str>>(include: &[S], exclude: &[S]) -> Result<Self> {
        Ok(FileFilter {
            include: NameMatcher::from_patterns(include, MatchStyle::Glob)?,
            exclude: NameMatcher::from_patterns(exclude, MatchStyle::Glob)?,
        })
    }

    /// Whether a file at `relative` (below the walked directory) is selected.
    pub fn selects(&self, relative: &Path) -> bool {
        let rel = relative_text(relative);
        let name = relative
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let hit =
            |m: &NameMatcher| m.matches_bytes(name.as_bytes()) || m.matches_bytes(rel.as_bytes());
        (self.include.is_empty() || hit(&self.include)) && !hit(&self.exclude)
    }
}

fn relative_text(relative: &Path) -> String {
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// How a directory walk treats symbolic links.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WalkOptions {
    /// Follow symbolic links found below the walked directory, to files and
    /// to directories (`dxstrip -r -L`, as `find -L`). Off by default: a
    /// link found by the walk is left alone, so an in-place edit never
    /// reaches a file outside the tree through a link. A directory is
    /// walked once however many links lead to it, so a link cycle ends.
    pub follow_symlinks: bool,
}

/// What a directory walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// Files selected by the filter, in path order: regular files (and,
    /// with [`WalkOptions::follow_symlinks`], symbolic links to them).
    /// Which of them are containers is decided by their first bytes when
    /// each is opened to be edited
    /// ([`Config::run_if_container`](crate::Config::run_if_container), so a
    /// file is opened once), or by [`is_container_file`].
    pub files: Vec<PathBuf>,
    /// Directories that could not be read (and entries whose kind could not
    /// be learnt), each an [`EditError::WalkFailed`]: the walk goes on
    /// without them.
    pub errors: Vec<EditError>,
    /// Entries selected by the filter that are neither files, directories
    /// nor symbolic links (FIFOs, devices, sockets): never opened by the
    /// walk, so a caller can report them instead of skipping them silently.
    pub special: Vec<PathBuf>,
}

/// Walks `root` recursively with the default [`WalkOptions`] (symbolic
/// links below `root` not followed); see [`walk_with`].
pub fn walk(root: &Path, filter: &FileFilter) -> Walk {
    walk_with(root, filter, WalkOptions::default())
}

/// Walks `root` recursively: every regular file selected by `filter`. The
/// walk reads directories only: the kind of an entry comes with it, and
/// only a symbolic link is looked up, when links are followed. `root`
/// itself is followed when it is a link (it was named by the caller).
///
/// A directory that cannot be read (no permission, a path past PATH_MAX,
/// removed meanwhile) is one error in [`Walk::errors`]; the rest of the
/// tree is still walked. The walk keeps its own stack, so a deep tree
/// cannot overflow the thread's.
pub fn walk_with(root: &Path, filter: &FileFilter, options: WalkOptions) -> Walk {
    let mut found = Walk::default();
    let mut visited = Vec::new();
    if options.follow_symlinks {
        if let Ok(meta) = std::fs::metadata(root) {
            visited.push(Identity::of(root, &meta));
        }
    }
    // One list of entries per directory being walked, each in name order.
    let mut stack = vec![read_entries(root, Path::new(""), &mut found)];
    while let Some(level) = stack.last_mut() {
        let Some((path, rel, kind)) = level.next() else {
            stack.pop();
            continue;
        };
        let (is_dir, is_file) = if kind.is_symlink() {
            if !options.follow_symlinks {
                continue;
            }
            match std::fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => {
                    let id = Identity::of(&path, &meta);
                    if visited.contains(&id) {
                        continue;
                    }
                    visited.push(id);
                    (true, false)
                }
                Ok(meta) => (false, meta.is_file()),
                // A dangling link leads nowhere: nothing to edit.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    found.errors.push(EditError::WalkFailed { path, source: e });
                    continue;
                }
            }
        } else if kind.is_dir() {
            if options.follow_symlinks {
                // Reached also through a link, it is walked once.
                if let Ok(meta) = std::fs::metadata(&path) {
                    let id = Identity::of(&path, &meta);
                    if visited.contains(&id) {
                        continue;
                    }
                    visited.push(id);
                }
            }
            (true, false)
        } else {
            if !kind.is_file() && filter.selects(&rel) {
                found.special.push(path);
                continue;
            }
            (false, true)
        };
        if is_dir {
            let entries = read_entries(&path, &rel, &mut found);
            stack.push(entries);
        } else if is_file && filter.selects(&rel) {
            found.files.push(path);
        }
    }
    found
}

/// The entries of `dir` in name order, with their paths, paths relative to
/// the walked root and kinds; an error reading it goes to `found.errors`.
fn read_entries(
    dir: &Path,
    relative: &Path,
    found: &mut Walk,
) -> std::vec::IntoIter<(PathBuf, PathBuf, std::fs::FileType)> {
    let failed = |source| EditError::WalkFailed {
        path: dir.to_path_buf(),
        source,
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            found.errors.push(failed(e));
            return Vec::new().into_iter();
        }
    };
    let mut list = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                // Reading the directory failed part way: what was read stands.
                found.errors.push(failed(e));
                break;
            }
        };
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) => list.push((path, relative.join(entry.file_name()), kind)),
            Err(e) => found.errors.push(EditError::WalkFailed { path, source: e }),
        }
    }
    list.sort_by(|a, b| a.0.cmp(&b.0));
    list.into_iter()
}

/// Which file a path names, to find several names of one file: device and
/// inode on Unix (links, hard links, `x` and `./x` are one file), the
/// canonical path elsewhere, the path as given when it cannot be looked up
/// (so the same missing name given twice fails once).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Identity {
    #[cfg_attr(not(unix), allow(dead_code))]
    Inode(u64, u64),
    Path(PathBuf),
}

impl Identity {
    fn of(path: &Path, meta: &std::fs::Metadata) -> Identity {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let _ = path;
            Identity::Inode(meta.dev(), meta.ino())
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            Identity::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
        }
    }

    fn lookup(path: &Path) -> Identity {
        match std::fs::metadata(path) {
            Ok(meta) => Identity::of(path, &meta),
            Err(_) => Identity::Path(path.to_path_buf()),
        }
    }
}

/// For each path of `paths`, the index of the first earlier path naming the
/// same file (after following links: device and inode on Unix), or `None`
/// for the first name of a file. A batch edits each file once: a file
/// reached by several names (symbolic or hard links, `x.dxil ./x.dxil`, a
/// repeated `--files-from` line) would otherwise be rewritten once per
/// name, concurrently. `-` (standard input) is never a duplicate here; see
/// [`check_stdin_once`].
pub fn same_files(paths: &[PathBuf]) -> Vec<Option<usize>> {
    let mut first = std::collections::HashMap::new();
    paths
        .iter()
        .enumerate()
        .map(|(i, path)| {
            if path.as_os_str() == "-" {
                return None;
            }
            match first.entry(Identity::lookup(path)) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i);
                    None
                }
            }
        })
        .collect()
}

/// Fails with [`EditError::StdinTwice`] when standard input (`-`) is named
/// by more than one of `readers` (what reads it, and the path it was given),
/// before anything is read: it can be read only once.
pub fn check_stdin_once<'p>(
    readers: impl IntoIterator<Item = (Operation, &'p Path)>,
) -> Result<()> {
    let mut first = None;
    for (operation, path) in readers {
        if path.as_os_str() != "-" {
            continue;
        }
        match first {
            None => first = Some(operation),
            Some(first) => {
                return Err(EditError::StdinTwice {
                    first,
                    second: operation,
                })
            }
        }
    }
    Ok(())
}

/// What a batch is made of: the files named, those listed by
/// `--files-from`, and (with [`recursive`](Self::recursive)) those found in
/// named directories.
#[derive(Debug, Clone, Default)]
pub struct BatchOptions {
    /// Walk named directories.
    pub recursive: bool,
    /// How the walk treats symbolic links.
    pub walk: WalkOptions,
    /// Which walked files are taken.
    pub filter: FileFilter,
}

/// The files of a batch, each file once.
#[derive(Debug, Default)]
pub struct Batch {
    /// The files, in the order named and walked; a file reached by several
    /// names is here once, under its first name.
    pub files: Vec<PathBuf>,
    /// `walked[i]`: `files[i]` was found by walking a directory (edited only
    /// when it is a container, see
    /// [`run_many_walked`](crate::run_many_walked)).
    pub walked: Vec<bool>,
    /// Directories that could not be walked: one failure each.
    pub errors: Vec<EditError>,
    /// Names left out because an earlier name reaches the same file.
    pub duplicates: usize,
}

/// Gathers a batch from `named` (arguments, then `--files-from` lines):
/// with [`BatchOptions::recursive`], a named directory (a link to one
/// included: what is named is followed) is replaced by the files walked
/// below it. Each file is taken once ([`same_files`]).
pub fn gather(named: Vec<PathBuf>, options: &BatchOptions) -> Batch {
    let mut files = Vec::with_capacity(named.len());
    let mut walked = Vec::with_capacity(named.len());
    let mut errors = Vec::new();
    for path in named {
        if options.recursive && path.as_os_str() != "-" && path.is_dir() {
            let found = walk_with(&path, &options.filter, options.walk);
            walked.resize(walked.len() + found.files.len(), true);
            files.extend(found.files);
            errors.extend(found.errors);
        } else {
            files.push(path);
            walked.push(false);
        }
    }
    let same = same_files(&files);
    let duplicates = same.iter().filter(|s| s.is_some()).count();
    let mut keep = same.iter().map(Option::is_none);
    walked.retain(|_| keep.next().unwrap_or(true));
    let mut keep = same.iter().map(Option::is_none);
    files.retain(|_| keep.next().unwrap_or(true));
    Batch {
        files,
        walked,
        errors,
        duplicates,
    }
}

/// The counts of a batch run, for its summary line: files, not names (each
/// file is edited once, see [`same_files`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files edited or attempted, directories that could not be walked
    /// included; walked files that are not containers are not counted.
    pub files: usize,
    /// Files rewritten.
    pub changed: usize,
    /// Files that needed no change (not rewritten).
    pub unchanged: usize,
    /// Files (and directories) that failed.
    pub failed: usize,
    /// Parts removed over all files.
    pub parts_removed: usize,
}

impl Summary {
    /// Counts one file's outcome (`Ok(None)`: a walked file that is not a
    /// container, not counted).
    pub fn record(&mut self, outcome: &Result<Option<crate::Report>>) {
        match outcome {
            Ok(None) => {}
            Ok(Some(report)) => {
                self.files += 1;
                if report.unchanged {
                    self.unchanged += 1;
                } else {
                    self.changed += 1;
                }
                self.parts_removed += report.parts_before.saturating_sub(report.parts_after);
            }
            Err(_) => self.record_failure(),
        }
    }

    /// Counts a failure that is not a file's edit (a directory not walked).
    pub fn record_failure(&mut self) {
        self.files += 1;
        self.failed += 1;
    }
}

/// `count` and `noun`, plural unless `count` is 1.
fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} changed ({} removed), {} unchanged (not rewritten), {} failed",
            counted(self.files, "file"),
            self.changed,
            counted(self.parts_removed, "part"),
            self.unchanged,
            self.failed
        )
    }
}

/// The longest line of a `--files-from` list: PATH_MAX on Linux, longer
/// than any path a system call takes, so an endless or binary file fails
/// after a few kilobytes.
pub const MAX_LIST_LINE: usize = 4096;

/// The largest `--files-from` list read.
pub const MAX_LIST_BYTES: u64 = 256 << 20;

/// Reads a `--files-from` list: one path per line, `\r\n` accepted, empty
/// lines skipped; `-` reads standard input. A line longer than
/// [`MAX_LIST_LINE`] bytes or holding a NUL byte (no path does: the list is
/// binary), or a list over [`MAX_LIST_BYTES`], is an error naming the list
/// and the line, found as soon as that line is read (a FIFO, `/dev/zero` or
/// `/dev/urandom` is read no further).
pub fn read_file_list(source: &Path) -> Result<Vec<PathBuf>> {
    if source.as_os_str() == "-" {
        return parse_file_list(std::io::stdin().lock(), source);
    }
    let file = std::fs::File::open(source).map_err(|e| EditError::io(source, e))?;
    parse_file_list(std::io::BufReader::new(file), source)
}

/// [`read_file_list`] over any reader (`source` names it in errors).
pub fn parse_file_list(reader: impl BufRead, source: &Path) -> Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    let mut reader = reader.take(MAX_LIST_BYTES + 1);
    let mut line = Vec::new();
    let mut total = 0u64;
    for number in 1.. {
        line.clear();
        let n = (&mut reader)
            .take(MAX_LIST_LINE as u64 + 2)
            .read_until(b'\n', &mut line)
            .map_err(|e| EditError::io(source, e))?;
        if n == 0 {
            break;
        }
        total += n as u64;
        if total > MAX_LIST_BYTES {
            return Err(EditError::FileListTooLarge {
                path: source.to_path_buf(),
                limit: MAX_LIST_BYTES,
            });
        }
        if line.contains(&0) {
            return Err(EditError::FileListLineHasNul {
                path: source.to_path_buf(),
                line: number,
            });
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > MAX_LIST_LINE {
            return Err(EditError::FileListLineTooLong {
                path: source.to_path_buf(),
                line: number,
                limit: MAX_LIST_LINE,
            });
        }
        if !line.is_empty() {
            paths.push(list_path(&line, source, number)?);
        }
    }
    Ok(paths)
}

/// One line of a file list as a path: any bytes on Unix, UTF-8 elsewhere.
fn list_path(line: &[u8], source: &Path, number: usize) -> Result<PathBuf> {
    #[cfg(unix)]
    {
        let _ = (source, number);
        use std::os::unix::ffi::OsStrExt;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(line)))
    }
    #[cfg(not(unix))]
    match std::str::from_utf8(line) {
        Ok(text) => Ok(PathBuf::from(text)),
        Err(_) => Err(EditError::FileListLineNotUtf8 {
            path: source.to_path_buf(),
            line: number,
        }),
    }
}

/// Whether an argument has glob characters (`*`, `?`, `[`).
pub fn has_glob(arg: &str) -> bool {
    arg.contains(['*', '?', '['])
}

/// Expands a glob argument the way a Unix shell would, for systems whose
/// shell does not (Windows): each component with `*`, `?` or `[…]` is matched
/// against the directory's entries (case-insensitively when `ignore_case`, as
/// Windows file names are). A name that exists as given, or a pattern
/// matching nothing, is returned unchanged, so the error names what was typed.
/// Both `/` and `\` separate components when `backslash_separates`.
pub fn expand_glob(arg: &str, ignore_case: bool, backslash_separates: bool) -> Vec<PathBuf> {
    if !has_glob(arg) || Path::new(arg).exists() {
        return vec![PathBuf::from(arg)];
    }
    let is_sep = |c: char| c == '/' || (backslash_separates && c == '\\');
    // The leading part without wildcards is the starting directory.
    let components: Vec<&str> = arg.split(is_sep).collect();
    let first_glob = components.iter().position(|c| has_glob(c)).unwrap_or(0);
    let base = components[..first_glob].join("/");
    let mut current: Vec<PathBuf> = vec![if first_glob == 0 {
        PathBuf::new()
    } else if base.is_empty() {
        PathBuf::from("/")
    } else {
        PathBuf::from(&base)
    }];
    for (i, component) in components.iter().enumerate().skip(first_glob) {
        let last = i + 1 == components.len();
        let mut next = Vec::new();
        for dir in &current {
            if component.is_empty() {
                next.push(dir.clone());
                continue;
            }
            if !has_glob(component) {
                let candidate = dir.join(component);
                if candidate.exists() {
                    next.push(candidate);
                }
                continue;
            }
            let pattern = if ignore_case {
                component.to_lowercase()
            } else {
                (*component).to_string()
            };
            let Ok(matcher) = NameMatcher::from_patterns(&[pattern], MatchStyle::Glob) else {
                return vec![PathBuf::from(arg)];
            };
            let listing = if dir.as_os_str().is_empty() {
                std::fs::read_dir(".")
            } else {
                std::fs::read_dir(dir)
            };
            let Ok(listing) = listing else { continue };
            let mut names: Vec<String> = listing
                .filter_map(|e| e.ok())
                .filter(|e| last || e.file_type().is_ok_and(|t| t.is_dir()))
                .filter_map(|e| e.file_name().into_string().ok())
                // Hidden names only match a pattern that starts with a dot.
                .filter(|n| !n.starts_with('.') || component.starts_with('.'))
                .filter(|n| {
                    let name = if ignore_case {
                        n.to_lowercase()
                    } else {
                        n.clone()
                    };
                    matcher.matches_bytes(name.as_bytes())
                })
                .collect();
            names.sort();
            next.extend(names.into_iter().map(|n| dir.join(n)));
        }
        current = next;
    }
    if current.is_empty() {
        vec![PathBuf::from(arg)]
    } else {
        current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path, bytes: &[u8]) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    #[test]
    fn magic_not_extension() {
        let dir = tempfile::tempdir().unwrap();
        let rows: &[(&str, &[u8], bool)] = &[
            ("a.bin", b"DXBC\0\0\0\0", true),
            ("b.dxil", b"Microsoft C/C++ MSF 7.00\r\n", false),
            ("c.dxil", b"DXB", false),
            ("d", b"", false),
            ("e.txt", b"DXBC", true),
        ];
        for (name, bytes, want) in rows {
            let p = dir.path().join(name);
            touch(&p, bytes);
            assert_eq!(is_container_file(&p).unwrap(), *want, "{name}");
        }
    }

    #[test]
    fn walk_selects_containers_and_filters() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(&root.join("a.dxil"), b"DXBC....");
        touch(&root.join("sub/b.cso"), b"DXBC....");
        touch(&root.join("sub/deeper/c.dxil"), b"DXBC....");
        touch(
            &root.join("sub/shader.pdb"),
            b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0",
        );
        touch(&root.join("third_party/d.dxil"), b"DXBC....");
        touch(&root.join("notes.txt"), b"hello");
        let all = walk(root, &FileFilter::default());
        let rel: Vec<_> = all
            .files
            .iter()
            .map(|p| relative_text(p.strip_prefix(root).unwrap()))
            .collect();
        assert_eq!(
            rel,
            [
                "a.dxil",
                "notes.txt",
                "sub/b.cso",
                "sub/deeper/c.dxil",
                "sub/shader.pdb",
                "third_party/d.dxil"
            ]
        );
        let containers: Vec<_> = all
            .files
            .iter()
            .filter(|p| is_container_file(p).unwrap())
            .map(|p| relative_text(p.strip_prefix(root).unwrap()))
            .collect();
        assert_eq!(
            containers,
            [
                "a.dxil",
                "sub/b.cso",
                "sub/deeper/c.dxil",
                "third_party/d.dxil"
            ]
        );

        let f = FileFilter::new(&["*.dxil"], &["third_party/*"]).unwrap();
        let some = walk(root, &f);
        let rel: Vec<_> = some
            .files
            .iter()
            .map(|p| relative_text(p.strip_prefix(root).unwrap()))
            .collect();
        assert_eq!(rel, ["a.dxil", "sub/deeper/c.dxil"]);
    }

    fn names(found: &[PathBuf], root: &Path) -> Vec<String> {
        found
            .iter()
            .map(|p| relative_text(p.strip_prefix(root).unwrap()))
            .collect()
    }

    /// Links below the walked tree are left alone unless asked;
    /// followed, a directory is walked once and a link cycle ends.
    #[cfg(unix)]
    #[test]
    fn walk_leaves_links_alone_unless_asked() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = &dir.path().join("tree");
        let outside = &dir.path().join("sdk");
        touch(&root.join("x/a.dxil"), b"DXBC....");
        touch(&outside.join("cache/b.dxil"), b"DXBC....");
        symlink(root, root.join("x/loop")).unwrap();
        symlink(root.join("x/a.dxil"), root.join("x/link.dxil")).unwrap();
        symlink(outside.join("cache/b.dxil"), root.join("out.dxil")).unwrap();
        symlink(outside, root.join("sdk")).unwrap();
        symlink(dir.path().join("nowhere"), root.join("dangling.dxil")).unwrap();
        let found = walk(root, &FileFilter::default());
        assert_eq!(names(&found.files, root), ["x/a.dxil"]);
        assert!(found.errors.is_empty(), "{:?}", found.errors);
        let follow = WalkOptions {
            follow_symlinks: true,
        };
        let found = walk_with(root, &FileFilter::default(), follow);
        assert_eq!(
            names(&found.files, root),
            ["out.dxil", "sdk/cache/b.dxil", "x/a.dxil", "x/link.dxil"]
        );
        assert!(found.errors.is_empty(), "{:?}", found.errors);
        // The root named by a link is followed: it was named.
        symlink(root, dir.path().join("named")).unwrap();
        let found = walk(&dir.path().join("named"), &FileFilter::default());
        assert_eq!(found.files, [dir.path().join("named/x/a.dxil")]);
    }

    /// A directory past PATH_MAX cannot be read (as root too):
    /// one error naming it, and the rest of the tree is still walked.
    #[cfg(target_os = "linux")]
    #[test]
    fn walk_goes_on_past_a_directory_it_cannot_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = &dir.path().join("tree");
        touch(&root.join("a.dxil"), b"DXBC....");
        touch(&root.join("z.dxil"), b"DXBC....");
        let (deep, rest) = deeper_than_path_max(root);
        let found = walk(root, &FileFilter::default());
        let mut want = vec!["a.dxil".to_string()];
        want.extend(rest);
        want.push("z.dxil".into());
        assert_eq!(names(&found.files, root), want);
        assert_eq!(found.errors.len(), 1, "{:?}", found.errors);
        let EditError::WalkFailed { path, source } = &found.errors[0] else {
            panic!("{:?}", found.errors);
        };
        assert_eq!(path, &deep);
        assert_eq!(source.raw_os_error(), Some(36), "ENAMETOOLONG: {source}");
        assert!(found.errors[0]
            .to_string()
            .ends_with("': cannot walk the directory: File name too long (os error 36)"));
    }

    /// Builds below `root` a directory whose path is longer than PATH_MAX
    /// (4096) without naming any path that long: a chain of short-enough
    /// paths is moved under another. Returns that directory and the files
    /// the walk still finds (relative to `root`, in walk order).
    #[cfg(target_os = "linux")]
    pub(crate) fn deeper_than_path_max(root: &Path) -> (PathBuf, Vec<String>) {
        let name = "d".repeat(200);
        let upper: PathBuf = std::iter::repeat_n(name.as_str(), 12).collect();
        std::fs::create_dir_all(root.join(&upper)).unwrap();
        touch(&root.join(&upper).join("m.dxil"), b"DXBC....");
        let lower: PathBuf = std::iter::repeat_n(name.as_str(), 12).collect();
        let chain = root.join("chain");
        std::fs::create_dir_all(chain.join(&lower)).unwrap();
        std::fs::rename(&chain, root.join(&upper).join("chain")).unwrap();
        // 12 + 1 + 12 components of about 200 bytes: the walk cannot read
        // the first directory whose path reaches 4096 bytes.
        let mut deep = root.join(&upper).join("chain");
        while deep.as_os_str().len() < 4096 {
            deep.push(&name);
        }
        let m = relative_text(&upper.join("m.dxil"));
        (deep, vec![m])
    }

    /// The mode-000 directory of the issue: unreadable for a user, not for
    /// root (skipped, saying so).
    #[cfg(unix)]
    #[test]
    fn walk_goes_on_past_a_directory_without_permission() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(&root.join("a.dxil"), b"DXBC....");
        touch(&root.join("locked/b.dxil"), b"DXBC....");
        touch(&root.join("z/c.dxil"), b"DXBC....");
        let locked = root.join("locked");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        if std::fs::read_dir(&locked).is_ok() {
            std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
            eprintln!("skipped: a mode-000 directory is readable here (running as root)");
            return;
        }
        let found = walk(root, &FileFilter::default());
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(names(&found.files, root), ["a.dxil", "z/c.dxil"]);
        assert!(
            matches!(&found.errors[..], [EditError::WalkFailed { path, source }]
                if path == &locked && source.kind() == std::io::ErrorKind::PermissionDenied),
            "{:?}",
            found.errors
        );
    }

    /// Every name of one file is found to be that file.
    #[cfg(unix)]
    #[test]
    fn same_files_finds_every_name_of_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        touch(&d.join("x.dxil"), b"DXBC");
        touch(&d.join("y.dxil"), b"DXBC");
        std::fs::hard_link(d.join("x.dxil"), d.join("hard.dxil")).unwrap();
        std::os::unix::fs::symlink(d.join("x.dxil"), d.join("soft.dxil")).unwrap();
        let p = |name: &str| d.join(name);
        let paths = [
            p("x.dxil"),
            p("y.dxil"),
            d.join(".").join("x.dxil"),
            p("hard.dxil"),
            p("soft.dxil"),
            p("sub/../x.dxil"),
            p("missing.dxil"),
            p("missing.dxil"),
            PathBuf::from("-"),
            PathBuf::from("-"),
            p("y.dxil"),
        ];
        assert_eq!(
            same_files(&paths),
            [
                None,
                None,
                Some(0),
                Some(0),
                Some(0),
                // `sub` does not exist: that name is not the file.
                None,
                None,
                Some(6),
                None,
                None,
                Some(1)
            ]
        );
        let batch = gather(paths.to_vec(), &BatchOptions::default());
        assert_eq!(batch.duplicates, 5);
        assert_eq!(
            batch.files,
            [
                p("x.dxil"),
                p("y.dxil"),
                p("sub/../x.dxil"),
                p("missing.dxil"),
                PathBuf::from("-"),
                PathBuf::from("-")
            ]
        );
        assert_eq!(batch.walked, [false; 6]);
    }

    /// A file named and reached by the walk (and by a link the
    /// walk follows) is in the batch once.
    #[cfg(unix)]
    #[test]
    fn gather_takes_each_file_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = &dir.path().join("tree");
        touch(&root.join("a.dxil"), b"DXBC....");
        touch(&root.join("sub/b.dxil"), b"DXBC....");
        std::os::unix::fs::symlink(root.join("sub"), root.join("again")).unwrap();
        let named = vec![root.join("a.dxil"), root.clone(), root.join("./sub/b.dxil")];
        let mut options = BatchOptions {
            recursive: true,
            ..BatchOptions::default()
        };
        // Followed, the link `again` comes first in name order and its
        // directory is walked once, under that name.
        for (follow, b) in [(false, "sub/b.dxil"), (true, "again/b.dxil")] {
            options.walk.follow_symlinks = follow;
            let batch = gather(named.clone(), &options);
            assert_eq!(batch.files, [root.join("a.dxil"), root.join(b)]);
            assert_eq!(batch.walked, [false, true]);
            assert_eq!(batch.duplicates, 2);
            assert!(batch.errors.is_empty());
        }
    }

    #[test]
    fn stdin_is_read_once() {
        let dash = Path::new("-");
        let other = Path::new("a.dxil");
        assert!(check_stdin_once([(Operation::Input, other), (Operation::FileList, dash)]).is_ok());
        let e = check_stdin_once([
            (Operation::FileList, dash),
            (Operation::Input, other),
            (Operation::Input, dash),
        ])
        .unwrap_err();
        assert!(matches!(
            e,
            EditError::StdinTwice {
                first: Operation::FileList,
                second: Operation::Input
            }
        ));
    }

    /// The summary counts files, with "1 file" and "1 part" in the singular.
    #[test]
    fn summary_counts_and_plurals() {
        use crate::Report;
        let report = |before, after, unchanged| Report {
            parts_before: before,
            parts_after: after,
            unchanged,
            ..Report::default()
        };
        let mut s = Summary::default();
        s.record(&Err(EditError::EmptyDebugName));
        assert_eq!(
            s.to_string(),
            "1 file: 0 changed (0 parts removed), 0 unchanged (not rewritten), 1 failed"
        );
        s.record(&Ok(Some(report(3, 2, false))));
        s.record(&Ok(None));
        assert_eq!(
            s.to_string(),
            "2 files: 1 changed (1 part removed), 0 unchanged (not rewritten), 1 failed"
        );
        s.record(&Ok(Some(report(2, 2, true))));
        s.record_failure();
        assert_eq!(
            s,
            Summary {
                files: 4,
                changed: 1,
                unchanged: 1,
                failed: 2,
                parts_removed: 1
            }
        );
    }

    #[test]
    fn file_lists() {
        let text = "a.dxil\r\n\nsub dir/b.dxil\nc\n";
        let got = parse_file_list(text.as_bytes(), Path::new("list")).unwrap();
        assert_eq!(
            got,
            [
                PathBuf::from("a.dxil"),
                PathBuf::from("sub dir/b.dxil"),
                PathBuf::from("c")
            ]
        );
        // An endless line fails at the line cap (PATH_MAX), having read
        // no more than that.
        let mut endless = std::io::BufReader::new(std::io::repeat(b'a')).take(1 << 30);
        let e = parse_file_list(&mut endless, Path::new("fifo")).unwrap_err();
        assert!(
            matches!(&e, EditError::FileListLineTooLong { path, line: 1, limit: 4096 } if path == Path::new("fifo")),
            "{e:?}"
        );
        assert!(
            endless.limit() > (1 << 30) - 16384,
            "read {}",
            (1 << 30) - endless.limit()
        );
        // A NUL byte (`/dev/zero`, `/dev/urandom`, any binary file) fails
        // on its line, at once: a list of short random lines is not read
        // to the 256 MiB cap.
        let mut zeros = std::io::BufReader::new(std::io::repeat(0)).take(1 << 30);
        let e = parse_file_list(&mut zeros, Path::new("/dev/zero")).unwrap_err();
        assert!(
            matches!(&e, EditError::FileListLineHasNul { path, line: 1 } if path == Path::new("/dev/zero")),
            "{e:?}"
        );
        assert!(zeros.limit() > (1 << 30) - 16384);
        let binary = b"a.dxil\nb\0c\nd.dxil\n";
        let e = parse_file_list(&binary[..], Path::new("list")).unwrap_err();
        assert!(
            matches!(e, EditError::FileListLineHasNul { line: 2, .. }),
            "{e:?}"
        );
        // A line of exactly the cap is a path; a last line without newline too.
        let long = format!("{}\n{}", "a".repeat(MAX_LIST_LINE), "b");
        let got = parse_file_list(long.as_bytes(), Path::new("list")).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[1], PathBuf::from("b"));
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let got = parse_file_list(&b"\xff.dxil\n"[..], Path::new("list")).unwrap();
            assert_eq!(got[0].as_os_str().as_bytes(), b"\xff.dxil");
        }
    }

    #[test]
    fn glob_expansion() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(&root.join("s/A.dxil"), b"x");
        touch(&root.join("s/b.dxil"), b"x");
        touch(&root.join("s/c.cso"), b"x");
        touch(&root.join("s/.hidden.dxil"), b"x");
        touch(&root.join("t/d.dxil"), b"x");
        let base = root.display().to_string();
        let rel = |v: Vec<PathBuf>| -> Vec<String> {
            v.iter()
                .map(|p| relative_text(p.strip_prefix(root).unwrap()))
                .collect()
        };
        assert_eq!(
            rel(expand_glob(&format!("{base}/s/*.dxil"), false, false)),
            ["s/A.dxil", "s/b.dxil"]
        );
        assert_eq!(
            rel(expand_glob(&format!("{base}/*/[ab].dxil"), true, false)),
            ["s/A.dxil", "s/b.dxil"]
        );
        assert_eq!(
            rel(expand_glob(&format!("{base}/*/[ab].dxil"), false, false)),
            ["s/b.dxil"]
        );
        assert_eq!(
            rel(expand_glob(&format!("{base}\\?\\d.dxil"), false, true)),
            ["t/d.dxil"]
        );
        let none = format!("{base}/s/*.nothing");
        assert_eq!(expand_glob(&none, false, false), [PathBuf::from(&none)]);
        assert_eq!(
            expand_glob("plain.dxil", false, false),
            [PathBuf::from("plain.dxil")]
        );
    }
}
