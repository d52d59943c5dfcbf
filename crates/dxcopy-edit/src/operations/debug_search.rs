//! Finding a shader's separate debug file in a directory the way RenderDoc
//! does: the debug name the shader records (ILDN) as given, then with its
//! leading directories dropped one at a time, then `<HASH digest hex>.pdb`.
//!
//! The debug name comes from the file and is untrusted, so the search never
//! leaves the directory: the name is split at `/` and `\`, and a candidate
//! containing a `..` component, a drive letter or any other `:` is skipped
//! (dropping leading directories reduces `C:\build\a.pdb` or `../x/a.pdb` to
//! `build/a.pdb`, `a.pdb`, `x/a.pdb`). A candidate that resolves outside the
//! directory through a symbolic link is skipped too.

use std::path::{Path, PathBuf};

/// The relative paths to try, in order, for a debug name and a HASH-based
/// name (`<hex>.pdb`), without duplicates.
pub fn candidates(debug_name: Option<&str>, hash_name: Option<&str>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut push = |components: &[&str]| {
        let safe = !components.is_empty()
            && components
                .iter()
                .all(|c| *c != ".." && !c.contains(':') && !c.contains('\0'));
        if !safe {
            return;
        }
        let path: PathBuf = components.iter().collect();
        if !out.contains(&path) {
            out.push(path);
        }
    };
    if let Some(name) = debug_name {
        let components: Vec<&str> = name
            .split(['/', '\\'])
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        for start in 0..components.len() {
            push(&components[start..]);
        }
    }
    if let Some(name) = hash_name {
        push(&[name]);
    }
    out
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The file used.
    pub path: PathBuf,
    /// Every path tried, the found one last.
    pub tried: Vec<PathBuf>,
}

/// Searches `dir` for the first candidate that is a regular file inside it.
/// `Err` carries every path tried when none is.
pub fn search(dir: &Path, candidates: &[PathBuf]) -> Result<Found, Vec<PathBuf>> {
    let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut tried = Vec::new();
    for candidate in candidates {
        let path = dir.join(candidate);
        tried.push(path.clone());
        let inside = std::fs::canonicalize(&path).is_ok_and(|real| real.starts_with(&root));
        if inside && path.is_file() {
            return Ok(Found { path, tried });
        }
    }
    Err(tried)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(v: &[&str]) -> Vec<PathBuf> {
        v.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn candidate_order_and_confinement() {
        let hash = Some("00ff.pdb");
        let rows: &[(Option<&str>, &[&str])] = &[
            (Some("a.pdb"), &["a.pdb", "00ff.pdb"]),
            (
                Some("C:\\build\\shaders\\a.pdb"),
                &["build/shaders/a.pdb", "shaders/a.pdb", "a.pdb", "00ff.pdb"],
            ),
            (Some("/abs/a.pdb"), &["abs/a.pdb", "a.pdb", "00ff.pdb"]),
            (Some("../../etc/x.pdb"), &["etc/x.pdb", "x.pdb", "00ff.pdb"]),
            (Some("a/../b.pdb"), &["b.pdb", "00ff.pdb"]),
            (Some("./pdb/./a.pdb"), &["pdb/a.pdb", "a.pdb", "00ff.pdb"]),
            (Some("x.pdb:stream"), &["00ff.pdb"]),
            (Some(".."), &["00ff.pdb"]),
            (Some("00ff.pdb"), &["00ff.pdb"]),
            (None, &["00ff.pdb"]),
        ];
        for (name, want) in rows {
            assert_eq!(candidates(*name, hash), paths(want), "{name:?}");
        }
        assert!(candidates(None, None).is_empty());
    }

    #[test]
    fn search_takes_the_first_existing_file_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pdbs");
        std::fs::create_dir_all(root.join("shaders")).unwrap();
        std::fs::write(root.join("a.pdb"), b"x").unwrap();
        std::fs::write(root.join("00ff.pdb"), b"x").unwrap();
        std::fs::create_dir(root.join("dir.pdb")).unwrap();
        let c = candidates(Some("C:\\build\\shaders\\a.pdb"), Some("00ff.pdb"));
        let found = search(&root, &c).unwrap();
        assert_eq!(found.path, root.join("a.pdb"));
        assert_eq!(found.tried.len(), 3);
        // A directory is not a debug file.
        let found = search(&root, &candidates(Some("dir.pdb"), Some("00ff.pdb"))).unwrap();
        assert_eq!(found.path, root.join("00ff.pdb"));
        let tried = search(&root, &candidates(Some("b.pdb"), None)).unwrap_err();
        assert_eq!(tried, [root.join("b.pdb")]);
    }

    #[cfg(unix)]
    #[test]
    fn links_leading_outside_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pdbs");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(dir.path().join("secret.pdb"), b"x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.pdb"), root.join("a.pdb")).unwrap();
        assert!(search(&root, &candidates(Some("a.pdb"), None)).is_err());
    }
}
