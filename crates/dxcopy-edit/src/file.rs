//! The one way files are written: a temp file in the destination directory,
//! written in full, then renamed over the destination. Readers never see a
//! partial file, an error leaves the destination untouched and removes the
//! temp file, and a killed process leaves either the old or the new file.

use crate::error::{EditError, Result};
use std::fs::{self, File, Permissions};
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Options for [`write_atomic`].
#[derive(Debug, Clone, Default)]
pub struct FileOptions {
    /// Give the new file these permissions (e.g. the input's when editing in place).
    pub permissions: Option<Permissions>,
    /// Set these access and modification times on the new file (`-p`).
    pub times: Option<(SystemTime, SystemTime)>,
}

impl FileOptions {
    /// Options that copy permissions (and, if `preserve_times`, times) from `meta`.
    pub fn like(meta: &fs::Metadata, preserve_times: bool) -> Self {
        FileOptions {
            permissions: meta.is_file().then(|| meta.permissions()),
            times: if preserve_times {
                meta.accessed().ok().zip(meta.modified().ok())
            } else {
                None
            },
        }
    }
}

/// Where a write to `path` really goes: a symlink is followed so the link stays
/// and its target is replaced.
pub fn resolve_target(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Writes `path` atomically with `write`, which receives the open temp file.
pub fn write_atomic<T>(
    path: &Path,
    options: &FileOptions,
    write: impl FnOnce(&mut File) -> io::Result<T>,
) -> Result<T> {
    let target = resolve_target(path);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let err = |e: io::Error| EditError::io(path, e);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".dxcopy-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created like any new file (0666 minus the umask) unless told otherwise.
        builder.permissions(Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(&dir).map_err(err)?;
    let value = write(temp.as_file_mut()).map_err(err)?;
    if let Some(p) = &options.permissions {
        temp.as_file().set_permissions(p.clone()).map_err(err)?;
    }
    if let Some((atime, mtime)) = options.times {
        let times = fs::FileTimes::new().set_accessed(atime).set_modified(mtime);
        temp.as_file().set_times(times).map_err(err)?;
    }
    temp.persist(&target).map_err(|e| err(e.error))?;
    Ok(value)
}

/// Writes `bytes` to `path` atomically.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8], options: &FileOptions) -> Result<()> {
    write_atomic(path, options, |f| io::Write::write_all(f, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replaces_and_cleans_up() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.bin");
        write_bytes_atomic(&p, b"one", &FileOptions::default()).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_bytes_atomic(&p, b"two", &FileOptions::default()).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        // A failing writer leaves the old file and no temp file.
        let r: Result<()> = write_atomic(&p, &FileOptions::default(), |_| {
            Err(io::Error::other("boom"))
        });
        assert!(r.is_err());
        assert_eq!(fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        // Missing directory: error naming the path.
        let e = write_bytes_atomic(&dir.path().join("no/such/x"), b"", &FileOptions::default())
            .unwrap_err();
        assert!(e.to_string().contains("no/such/x"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions_and_symlinks() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.bin");
        fs::write(&target, b"old").unwrap();
        fs::set_permissions(&target, Permissions::from_mode(0o751)).unwrap();
        let link = dir.path().join("link.bin");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let meta = fs::metadata(&link).unwrap();
        write_bytes_atomic(&link, b"new", &FileOptions::like(&meta, true)).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&target).unwrap(), b"new");
        let m = fs::metadata(&target).unwrap();
        assert_eq!(m.permissions().mode() & 0o777, 0o751);
        assert_eq!(m.modified().unwrap(), meta.modified().unwrap());
    }
}
