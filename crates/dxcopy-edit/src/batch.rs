//! Choosing the files of a batch (dxstrip): directories walked recursively,
//! containers recognised by their magic rather than their extension,
//! `--include`/`--exclude` globs, `--files-from` lists, and the glob
//! expansion that Windows shells leave to the program.

use crate::error::{EditError, Result};
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

/// What a directory walk found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Walk {
    /// Files selected by the filter, in path order: regular files and
    /// symbolic links to them. Which of them are containers is decided by
    /// their first bytes when each is opened to be edited
    /// ([`Config::run_if_container`](crate::Config::run_if_container), so a
    /// file is opened once), or by [`is_container_file`].
    pub files: Vec<PathBuf>,
}

/// Walks `root` recursively: every regular file (symbolic links to files
/// included) selected by `filter`. The walk reads directories only: the
/// kind of an entry comes with it, and only a symbolic link is looked up
/// (to see whether it leads to a file). Symbolic links to directories are
/// not followed, so a link cycle cannot make the walk endless.
pub fn walk(root: &Path, filter: &FileFilter) -> Result<Walk> {
    let mut found = Walk::default();
    walk_into(root, Path::new(""), filter, &mut found)?;
    Ok(found)
}

fn walk_into(dir: &Path, relative: &Path, filter: &FileFilter, found: &mut Walk) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| EditError::io(dir, e))?;
    let mut entries: Vec<_> = entries
        .collect::<std::io::Result<_>>()
        .map_err(|e| EditError::io(dir, e))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let rel = relative.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| EditError::io(&path, e))?;
        if kind.is_dir() {
            walk_into(&path, &rel, filter, found)?;
            continue;
        }
        let is_file = if kind.is_symlink() {
            std::fs::metadata(&path).is_ok_and(|m| m.is_file())
        } else {
            kind.is_file()
        };
        if is_file && filter.selects(&rel) {
            found.files.push(path);
        }
    }
    Ok(())
}

/// The longest line of a `--files-from` list: far more than any path
/// (PATH_MAX is 4096 on Linux), so an endless or binary file fails fast.
pub const MAX_LIST_LINE: usize = 64 << 10;

/// The largest `--files-from` list read.
pub const MAX_LIST_BYTES: u64 = 256 << 20;

/// Reads a `--files-from` list: one path per line, `\r\n` accepted, empty
/// lines skipped; `-` reads standard input. A line longer than
/// [`MAX_LIST_LINE`] bytes, or a list over [`MAX_LIST_BYTES`], is an error
/// naming the list (a FIFO or `/dev/zero` is read no further).
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
        let all = walk(root, &FileFilter::default()).unwrap();
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
        let some = walk(root, &f).unwrap();
        let rel: Vec<_> = some
            .files
            .iter()
            .map(|p| relative_text(p.strip_prefix(root).unwrap()))
            .collect();
        assert_eq!(rel, ["a.dxil", "sub/deeper/c.dxil"]);
    }

    #[cfg(unix)]
    #[test]
    fn walk_does_not_follow_directory_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(&root.join("x/a.dxil"), b"DXBC....");
        std::os::unix::fs::symlink(root, root.join("x/loop")).unwrap();
        std::os::unix::fs::symlink(root.join("x/a.dxil"), root.join("x/link.dxil")).unwrap();
        let found = walk(root, &FileFilter::default()).unwrap();
        assert_eq!(found.files.len(), 2, "{found:?}");
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
        // An endless line (a list that is `/dev/zero`) fails at the line cap.
        let endless = std::io::BufReader::new(std::io::repeat(0));
        let e = parse_file_list(endless, Path::new("/dev/zero")).unwrap_err();
        assert!(
            matches!(&e, EditError::FileListLineTooLong { path, line: 1, limit: MAX_LIST_LINE } if path == Path::new("/dev/zero")),
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
