//! `dxinfo --dump-all=DIR`: every part's data to its own file in DIR.
//!
//! Part names are four arbitrary bytes (`/`, `..`, NUL all occur in crafted
//! files), so a file name is built only from the part index and the name
//! with every byte other than an ASCII letter or digit escaped as `_xx`:
//! `03-PSV0.bin`, `04-a_2f_2e_2e.bin`. Such a name never holds a path
//! separator or a dot-dot component, and distinct parts never collide. A
//! destination that already exists as a symbolic link is refused, so a
//! planted link cannot redirect a write out of DIR.

use crate::{write_bytes_atomic, FileOptions};
use dxcopy_read::{Container, PartName};
use std::io;
use std::path::{Path, PathBuf};

/// Escapes bytes for a file name: ASCII letters and digits as they are,
/// everything else (including `_`) as `_xx`.
pub fn escape_file_name(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() {
            out.push(b as char);
        } else {
            out.push_str(&format!("_{b:02x}"));
        }
    }
    out
}

/// The file name for part `index` of `part_count` called `name`: the index
/// zero-padded to the width of the largest index (at least 2 digits), a dash,
/// the escaped name, `.bin`.
pub fn part_file_name(index: u32, part_count: u32, name: PartName) -> String {
    let width = part_count.saturating_sub(1).to_string().len().max(2);
    format!("{index:0width$}-{}.bin", escape_file_name(&name.0))
}

/// One file written by [`dump_all`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dumped {
    /// Index of the part.
    pub index: u32,
    /// Where it was written.
    pub path: PathBuf,
    /// Bytes written.
    pub size: u64,
}

/// Writes every part of `container` into `dir` (created when missing).
/// Each file is written atomically; the first failure stops the dump.
pub fn dump_all(dir: &Path, container: &Container<'_>) -> io::Result<Vec<Dumped>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for part in container.parts() {
        let path = dir.join(part_file_name(
            part.index,
            container.part_count(),
            part.name,
        ));
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "'{}' is a symbolic link; not writing through it",
                    path.display()
                ),
            ));
        }
        write_bytes_atomic(&path, part.data, &FileOptions::default())
            .map_err(|e| io::Error::other(e.to_string()))?;
        written.push(Dumped {
            index: part.index,
            path,
            size: part.data.len() as u64,
        });
    }
    Ok(written)
}

/// The directory for input number `file_index` when several inputs are
/// dumped into one DIR: `DIR/<index>-<escaped file name>`.
pub fn per_file_dir(dir: &Path, file_index: usize, file: &Path) -> PathBuf {
    let base = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "stdin".to_string());
    dir.join(format!(
        "{file_index}-{}",
        escape_file_name(base.as_bytes())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
        parts
            .iter()
            .fold(crate::ContainerBuilder::new(), |b, (name, data)| {
                b.part(name, data)
            })
            .build()
            .unwrap()
    }

    #[test]
    fn names_are_safe_and_distinct() {
        let rows: [(&[u8; 4], &str); 6] = [
            (b"PSV0", "03-PSV0.bin"),
            (b"a/..", "03-a_2f_2e_2e.bin"),
            (b"\0\0\0\0", "03-_00_00_00_00.bin"),
            (b"../x", "03-_2e_2e_2fx.bin"),
            (b"a_2f", "03-a_5f2f.bin"),
            (b"\\x41", "03-_5cx41.bin"),
        ];
        for (name, want) in rows {
            let got = part_file_name(3, 7, PartName(*name));
            assert_eq!(got, want);
            assert!(!got.contains('/') && !got.contains('\\') && !got.contains(".."));
        }
        assert_eq!(part_file_name(5, 250, PartName::DXIL), "005-DXIL.bin");
        assert_eq!(part_file_name(0, 0, PartName::DXIL), "00-DXIL.bin");
        assert_eq!(
            per_file_dir(Path::new("d"), 2, Path::new("x/a b.dxil")),
            Path::new("d/2-a_20b_2edxil")
        );
    }

    #[test]
    fn dumps_every_part_inside_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("parts");
        let bytes = build(&[(b"a/..", b"one"), (b"DXIL", b""), (b"..\\\0", b"three")]);
        let c = Container::parse(&bytes).unwrap();
        let written = dump_all(&dir, &c).unwrap();
        assert_eq!(written.len(), 3);
        for d in &written {
            assert_eq!(d.path.parent(), Some(dir.as_path()));
        }
        assert_eq!(std::fs::read(&written[0].path).unwrap(), b"one");
        assert_eq!(std::fs::read(&written[2].path).unwrap(), b"three");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
        assert!(std::fs::read_dir(tmp.path()).unwrap().count() == 1);
        // Rewriting replaces the files.
        assert_eq!(dump_all(&dir, &c).unwrap().len(), 3);
    }

    #[cfg(unix)]
    #[test]
    fn refuses_to_write_through_a_planted_link() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::write(&outside, b"keep").unwrap();
        let dir = tmp.path().join("parts");
        std::fs::create_dir(&dir).unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("00-DXIL.bin")).unwrap();
        let bytes = build(&[(b"DXIL", b"evil")]);
        let c = Container::parse(&bytes).unwrap();
        let e = dump_all(&dir, &c).unwrap_err();
        assert!(e.to_string().contains("symbolic link"));
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
    }
}
