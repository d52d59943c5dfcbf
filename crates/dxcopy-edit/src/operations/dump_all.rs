//! `dxinfo --dump-all=DIR`: every part's data to its own file in DIR.
//!
//! Part names are four arbitrary bytes (`/`, `..`, NUL all occur in crafted
//! files), so a file name is built only from the part index and the name
//! with every byte other than an ASCII letter or digit escaped as `_xx`:
//! `03-PSV0.bin`, `04-a_2f_2e_2e.bin`. Such a name never holds a path
//! separator or a dot-dot component, and distinct parts never collide.
//!
//! DIR itself is the user's: it is created when missing and may be a
//! symbolic link to a directory. Everything the dump creates *inside* DIR
//! (the per-file subdirectories and the part files) must be its own: an
//! existing entry of that name that is a symbolic link, a FIFO, a device or
//! anything else than a directory (for a subdirectory) or a regular file
//! (for a part file) is refused before anything is written, so a planted
//! link cannot redirect a write out of DIR. The parts of one container are
//! staged and renamed together: all are written or none, and a directory the
//! run created (DIR or a per-file subdirectory) is removed again when the
//! dump fails (a full disk), so a failed run leaves nothing behind.

use crate::error::{EditError, FileKind, Operation, Result};
use crate::file::{DirEntryKind, DirHandle, FileId, Outputs, Sink};
use dxcopy_read::{Container, PartName};
use std::io::{self, Write};
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

/// Writes every part of `container` into `dir` (created when missing; an
/// existing path that is not a directory is an error naming it). All the
/// part files are written or none. `input`, the file the container was read
/// from, is never overwritten (a part file that is the input, under any
/// name, is an error).
pub fn dump_all(
    dir: &Path,
    container: &Container<'_>,
    input: Option<&Path>,
) -> Result<Vec<Dumped>> {
    let (dir, created) = prepare_dir(dir)?;
    let written = write_parts(&dir, container, input)?;
    created.keep();
    Ok(written)
}

/// [`dump_all`] for input number `file_index` of several: into
/// [`per_file_dir`]`(dir, file_index, file)`, a directory of the dump's own
/// (created when missing; refused when it is a symbolic link or not a
/// directory). The subdirectory is opened once, without following a link,
/// and every part file is checked, created and renamed relative to it, so a
/// link put in its place after the check cannot lead a write out of DIR.
pub fn dump_all_per_file(
    dir: &Path,
    file_index: usize,
    file: &Path,
    container: &Container<'_>,
    input: Option<&Path>,
) -> Result<Vec<Dumped>> {
    let (dir, mut created) = prepare_dir(dir)?;
    let sub = per_file_dir(dir.path(), file_index, file);
    let name = sub
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let io_err = |e: io::Error| EditError::io(&sub, e);
    match dir.entry(&name).map_err(io_err)? {
        DirEntryKind::Directory => {}
        DirEntryKind::Missing => match dir.create_dir(&name) {
            Ok(()) => created.push(sub.clone()),
            // Made meanwhile by someone else: checked when opened.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_err(e)),
        },
        DirEntryKind::File(_) => return Err(refused(&sub, FileKind::Regular)),
        DirEntryKind::Other(kind) => return Err(refused(&sub, kind)),
    }
    let sub_dir = match dir.open_own_dir(&name) {
        Ok(d) => d,
        // Swapped for a link or a file since the check.
        Err(e) => {
            return Err(match dir.entry(&name) {
                Ok(DirEntryKind::Other(kind)) => refused(&sub, kind),
                Ok(DirEntryKind::File(_)) => refused(&sub, FileKind::Regular),
                _ => io_err(e),
            })
        }
    };
    let written = write_parts(&sub_dir, container, input)?;
    created.keep();
    Ok(written)
}

/// Directories a dump created, in the order they were made (a parent
/// before what is in it): removed again, deepest first, when dropped (the
/// dump failed) unless [`keep`](Self::keep) was called. Only empty
/// directories are removed, so nothing anyone put there is lost.
#[derive(Debug, Default)]
pub(crate) struct CreatedDirs(pub(crate) Vec<PathBuf>);

impl CreatedDirs {
    /// Creates `dir` and its missing parents, remembering which were made.
    pub(crate) fn create_all(dir: &Path) -> io::Result<CreatedDirs> {
        let mut missing = Vec::new();
        let mut at = Some(dir);
        while let Some(p) = at.filter(|p| !p.as_os_str().is_empty()) {
            if std::fs::symlink_metadata(p).is_ok() {
                break;
            }
            missing.push(p.to_path_buf());
            at = p.parent();
        }
        missing.reverse();
        let created = CreatedDirs(missing);
        std::fs::create_dir_all(dir)?;
        Ok(created)
    }

    /// `dir` was made (after its parent, which is removed after it).
    pub(crate) fn push(&mut self, dir: PathBuf) {
        self.0.push(dir);
    }

    /// The dump succeeded: what it created stays.
    pub(crate) fn keep(mut self) {
        self.0.clear();
    }
}

impl Drop for CreatedDirs {
    fn drop(&mut self) {
        for dir in self.0.iter().rev() {
            // Fails, and keeps the directory, when it is not empty.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The user's DIR: an existing directory (a symbolic link to one included),
/// or created (and then removed again if the dump fails); then held open.
pub(crate) fn prepare_dir(dir: &Path) -> Result<(DirHandle, CreatedDirs)> {
    let created = match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => CreatedDirs::default(),
        Ok(_) => return Err(EditError::io(dir, not_a_directory())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            CreatedDirs::create_all(dir).map_err(|e| EditError::io(dir, e))?
        }
        Err(e) => return Err(EditError::io(dir, e)),
    };
    let handle = DirHandle::open(dir).map_err(|e| EditError::io(dir, e))?;
    Ok((handle, created))
}

/// The OS's "Not a directory" error (ENOTDIR), worded as the OS words it.
fn not_a_directory() -> io::Error {
    #[cfg(unix)]
    {
        // ENOTDIR is 20 on Linux, the BSDs and macOS.
        io::Error::from_raw_os_error(20)
    }
    #[cfg(not(unix))]
    io::Error::from(io::ErrorKind::NotADirectory)
}

fn refused(path: &Path, kind: FileKind) -> EditError {
    EditError::DumpAllRefused {
        path: path.to_path_buf(),
        kind,
        by: Operation::DumpAll,
    }
}

/// Checks every destination in `dir` first, then stages every part and
/// renames them together, all relative to the held directory.
fn write_parts(
    dir: &DirHandle,
    container: &Container<'_>,
    input: Option<&Path>,
) -> Result<Vec<Dumped>> {
    let input_id = input
        .filter(|p| p.as_os_str() != "-")
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| FileId::of(&m));
    let mut written = Vec::new();
    for part in container.parts() {
        let name = part_file_name(part.index, container.part_count(), part.name);
        let path = dir.path().join(&name);
        match dir.entry(&name).map_err(|e| EditError::io(&path, e))? {
            DirEntryKind::File(id) => {
                if input_id.as_ref() == Some(&id) {
                    return Err(EditError::OutputIsInput {
                        path,
                        what: crate::error::Operation::DumpAll,
                    });
                }
            }
            DirEntryKind::Missing => {}
            DirEntryKind::Directory => return Err(refused(&path, FileKind::Directory)),
            DirEntryKind::Other(kind) => return Err(refused(&path, kind)),
        }
        written.push((
            Dumped {
                index: part.index,
                path,
                size: part.data.len() as u64,
            },
            name,
            part.data,
        ));
    }
    let mut outputs = Outputs::new();
    for (_, name, data) in &written {
        outputs.add_in(dir, name, move |sink| match sink {
            Sink::File(f) => f.write_all(data),
            Sink::Stream(w) => w.write_all(data),
        })?;
    }
    outputs.commit(|| Ok(()))?;
    Ok(written.into_iter().map(|(d, ..)| d).collect())
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
        let written = dump_all(&dir, &c, None).unwrap();
        assert_eq!(written.len(), 3);
        for d in &written {
            assert_eq!(d.path.parent(), Some(dir.as_path()));
        }
        assert_eq!(std::fs::read(&written[0].path).unwrap(), b"one");
        assert_eq!(std::fs::read(&written[2].path).unwrap(), b"three");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
        assert!(std::fs::read_dir(tmp.path()).unwrap().count() == 1);
        // Rewriting replaces the files.
        assert_eq!(dump_all(&dir, &c, None).unwrap().len(), 3);
    }

    /// The directories a failed dump created are removed again,
    /// deepest first, and only when empty; those that existed stay.
    #[test]
    fn directories_a_failed_dump_created_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::create_dir(d.join("existing")).unwrap();
        let target = d.join("existing/new/deeper/parts");
        let created = CreatedDirs::create_all(&target).unwrap();
        assert_eq!(
            created.0,
            [
                d.join("existing/new"),
                d.join("existing/new/deeper"),
                target.clone(),
            ]
        );
        assert!(target.is_dir());
        drop(created); // the dump failed
        assert!(!d.join("existing/new").exists());
        assert!(d.join("existing").is_dir());
        // Something put in a created directory keeps it (and its parents).
        let created = CreatedDirs::create_all(&target).unwrap();
        std::fs::write(d.join("existing/new/keep"), b"keep").unwrap();
        drop(created);
        assert!(!d.join("existing/new/deeper").exists());
        assert_eq!(std::fs::read(d.join("existing/new/keep")).unwrap(), b"keep");
        // A dump that succeeds keeps what it created.
        let created = CreatedDirs::create_all(&target).unwrap();
        created.keep();
        assert!(target.is_dir());
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
        let e = dump_all(&dir, &c, None).unwrap_err();
        assert!(
            matches!(&e, EditError::DumpAllRefused { path, kind: FileKind::SymbolicLink, .. } if path == &dir.join("00-DXIL.bin")),
            "{e:?}"
        );
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
    }

    /// The per-file subfolder is held open: a link put in its place after
    /// it was checked and opened does not lead the part files anywhere else.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn a_link_swapped_in_after_the_check_does_not_redirect_writes() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let outside = d.join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::create_dir_all(d.join("parts/0-a")).unwrap();
        let parts = DirHandle::open(&d.join("parts")).unwrap();
        let sub = parts.open_own_dir("0-a").unwrap();
        // Swapped after the open: the real folder moved, a link in its place.
        std::fs::rename(d.join("parts/0-a"), d.join("parts/moved")).unwrap();
        std::os::unix::fs::symlink(&outside, d.join("parts/0-a")).unwrap();
        let bytes = build(&[(b"SFI0", b"one"), (b"DXIL", b"two")]);
        let c = Container::parse(&bytes).unwrap();
        let written = write_parts(&sub, &c, None).unwrap();
        assert_eq!(written.len(), 2);
        assert!(names(&outside).is_empty(), "{:?}", names(&outside));
        assert_eq!(
            names(&d.join("parts/moved")),
            ["00-SFI0.bin", "01-DXIL.bin"]
        );
        assert_eq!(
            std::fs::read(d.join("parts/moved/01-DXIL.bin")).unwrap(),
            b"two"
        );
        // Opening the name now finds the link and refuses it.
        // (O_DIRECTORY with O_NOFOLLOW: Linux says ENOTDIR for a link.)
        let e = parts.open_own_dir("0-a").unwrap_err();
        assert!(
            [Some(20), Some(libc_eloop())].contains(&e.raw_os_error()),
            "{e}"
        );
        assert_eq!(
            parts.entry("0-a").unwrap(),
            DirEntryKind::Other(FileKind::SymbolicLink)
        );
        // And the per-file dump refuses it by name before writing.
        let e = dump_all_per_file(&d.join("parts"), 0, Path::new("a"), &c, None).unwrap_err();
        assert!(
            matches!(&e, EditError::DumpAllRefused { path, kind: FileKind::SymbolicLink, .. } if path == &d.join("parts/0-a")),
            "{e:?}"
        );
        assert!(names(&outside).is_empty());
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn libc_eloop() -> i32 {
        rustix::io::Errno::LOOP.raw_os_error()
    }

    /// Lists `dir` (names, sorted).
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_per_file_link_or_special_file_is_refused_before_writing() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let dir = tmp.path().join("parts");
        std::fs::create_dir(&dir).unwrap();
        let bytes = build(&[(b"SFI0", b"one"), (b"DXIL", b"two")]);
        let c = Container::parse(&bytes).unwrap();
        // The per-file subfolder of input 1 is a link to a directory outside DIR.
        let sub = per_file_dir(&dir, 1, Path::new("x/a.dxil"));
        std::os::unix::fs::symlink(&outside, &sub).unwrap();
        let e = dump_all_per_file(&dir, 1, Path::new("x/a.dxil"), &c, None).unwrap_err();
        assert!(
            matches!(&e, EditError::DumpAllRefused { path, kind: FileKind::SymbolicLink, .. } if path == &sub),
            "{e:?}"
        );
        assert!(names(&outside).is_empty());
        // Input 0 gets a real subfolder.
        let written = dump_all_per_file(&dir, 0, Path::new("x/a.dxil"), &c, None).unwrap();
        assert_eq!(written.len(), 2);
        let sub0 = per_file_dir(&dir, 0, Path::new("x/a.dxil"));
        assert_eq!(names(&sub0), ["00-SFI0.bin", "01-DXIL.bin"]);
        // A FIFO named like the second part file: nothing is written, the
        // first part file keeps its old bytes, no temp file is left.
        std::fs::write(sub0.join("00-SFI0.bin"), b"old").unwrap();
        std::fs::remove_file(sub0.join("01-DXIL.bin")).unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(sub0.join("01-DXIL.bin"))
            .status()
            .unwrap();
        assert!(status.success());
        let e = dump_all_per_file(&dir, 0, Path::new("x/a.dxil"), &c, None).unwrap_err();
        assert!(
            matches!(
                &e,
                EditError::DumpAllRefused {
                    kind: FileKind::Fifo,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(std::fs::read(sub0.join("00-SFI0.bin")).unwrap(), b"old");
        assert_eq!(names(&sub0), ["00-SFI0.bin", "01-DXIL.bin"]);
        // A subfolder name that is a regular file.
        let sub2 = per_file_dir(&dir, 2, Path::new("b.dxil"));
        std::fs::write(&sub2, b"file").unwrap();
        let e = dump_all_per_file(&dir, 2, Path::new("b.dxil"), &c, None).unwrap_err();
        assert!(
            matches!(&e, EditError::DumpAllRefused { path, kind: FileKind::Regular, .. } if path == &sub2),
            "{e:?}"
        );
    }

    #[test]
    fn the_input_is_never_a_part_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("parts");
        std::fs::create_dir(&dir).unwrap();
        let bytes = build(&[(b"SFI0", b"one")]);
        let input = dir.join("00-SFI0.bin");
        std::fs::write(&input, &bytes).unwrap();
        let c = Container::parse(&bytes).unwrap();
        let e = dump_all(&dir, &c, Some(&input)).unwrap_err();
        assert!(matches!(e, EditError::OutputIsInput { .. }), "{e}");
        assert_eq!(std::fs::read(&input).unwrap(), bytes);
    }

    #[test]
    fn dir_that_is_a_file_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f.bin");
        std::fs::write(&file, b"x").unwrap();
        let bytes = build(&[(b"SFI0", b"one")]);
        let c = Container::parse(&bytes).unwrap();
        let e = dump_all(&file, &c, None).unwrap_err();
        assert!(
            matches!(&e, EditError::Io { path, source } if path == &file && source.raw_os_error() == Some(20)),
            "{e:?}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"x");
    }
}
