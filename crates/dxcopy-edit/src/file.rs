//! The one way files are written.
//!
//! Every output of a run is first *staged*: a temp file in the destination's
//! directory (`.dxcopy-*.tmp`), written in full. Only when every output of
//! the run is ready are they renamed over their destinations, so a run
//! writes all of its outputs or none, readers never see a partial file, and a
//! killed process leaves each destination either old or new ([`Outputs`]).
//!
//! Destinations are classified first ([`Destination`]):
//! - a new path: the file gets the default mode minus the umask;
//! - an existing regular file (an in-place edit, or an output written
//!   again): it keeps its mode without setuid/setgid, and its owner and
//!   group where the process may set them; a symlink is followed, so the
//!   link stays and its target is replaced; hard links to the old file keep
//!   the old contents (the new file is a new inode);
//! - a character device or FIFO (`/dev/null`, a named pipe): written into,
//!   never replaced, after every staged file is ready and before any rename;
//! - a directory, a path ending in `/`, a block device or a socket: refused.
//!
//! Temp files are removed when a run fails or unwinds, and
//! [`remove_temp_files`] removes those of a run that is interrupted by a
//! signal (the command-line tools call it from their signal handler).

pub use crate::error::FileKind;
use crate::error::{EditError, Result};
use std::fs::{self, File, Metadata, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, RwLock};
use std::time::SystemTime;

/// Options for a written file.
#[derive(Debug, Clone, Default)]
pub struct FileOptions {
    /// Give the new file these permissions instead of the default (a new
    /// destination: 0666 minus the umask; an existing one: its own mode
    /// without setuid/setgid).
    pub permissions: Option<Permissions>,
    /// Set these access and modification times on the new file (`-p`).
    pub times: Option<(SystemTime, SystemTime)>,
}

impl FileOptions {
    /// Options that copy permissions (without setuid/setgid) and, if
    /// `preserve_times`, the access and modification times from `meta`.
    pub fn like(meta: &Metadata, preserve_times: bool) -> Self {
        FileOptions {
            permissions: meta.is_file().then(|| without_set_id(meta.permissions())),
            times: if preserve_times { times_of(meta) } else { None },
        }
    }

    /// Options that only keep the access and modification times of `meta`
    /// (`-p`); the mode and owner follow the destination's rules.
    pub fn times_of(meta: &Metadata) -> Self {
        FileOptions {
            permissions: None,
            times: times_of(meta),
        }
    }
}

fn times_of(meta: &Metadata) -> Option<(SystemTime, SystemTime)> {
    meta.accessed().ok().zip(meta.modified().ok())
}

/// `permissions` without the setuid and setgid bits.
fn without_set_id(permissions: Permissions) -> Permissions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Permissions::from_mode(permissions.mode() & 0o1777)
    }
    #[cfg(not(unix))]
    permissions
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

/// An input opened for an in-place edit (see [`open_in_place`]).
#[derive(Debug)]
pub struct InPlaceInput {
    /// The open file.
    pub file: File,
    /// Its metadata (`fstat` of the open file).
    pub metadata: Metadata,
    /// The path named the file itself, not a symbolic link to it: the
    /// in-place destination is this file.
    pub plain: bool,
}

/// Opens `path` for an in-place edit, which needs a regular file: anything
/// else (a FIFO, a device, a directory, a symbolic link to one of them) is
/// refused with [`EditError::NotRegularInPlace`] before a byte is read. The
/// file is opened without waiting (a FIFO with no writer would block an
/// ordinary open) and without becoming a controlling terminal, then
/// checked with one `fstat`; a symbolic link is opened again, followed.
pub fn open_in_place(path: &Path) -> Result<InPlaceInput> {
    let io_err = |e: io::Error| EditError::io(path, e);
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let (file, plain) = {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        let open = |follow: bool| {
            let mut flags = OFlags::NONBLOCK | OFlags::NOCTTY;
            if !follow {
                flags |= OFlags::NOFOLLOW;
            }
            fs::OpenOptions::new()
                .read(true)
                .custom_flags(flags.bits() as i32)
                .open(path)
        };
        match open(false) {
            Ok(file) => (file, true),
            // ELOOP: the last component is a symbolic link.
            Err(e) if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) => {
                (open(true).map_err(io_err)?, false)
            }
            Err(e) => return Err(io_err(e)),
        }
    };
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let (file, plain) = {
        // Checked before opening: opening a FIFO would wait for a writer.
        let meta = fs::metadata(path).map_err(io_err)?;
        if !meta.is_file() {
            return Err(EditError::NotRegularInPlace {
                path: path.to_path_buf(),
                kind: file_kind(&meta),
            });
        }
        (File::open(path).map_err(io_err)?, false)
    };
    let metadata = file.metadata().map_err(io_err)?;
    if !metadata.is_file() {
        return Err(EditError::NotRegularInPlace {
            path: path.to_path_buf(),
            kind: file_kind(&metadata),
        });
    }
    Ok(InPlaceInput {
        file,
        metadata,
        plain,
    })
}

/// What kind of file a destination is.
#[derive(Debug)]
pub enum Destination {
    /// Standard output (`-`).
    Stdout,
    /// A path that does not exist yet.
    New(PathBuf),
    /// An existing regular file (after following symlinks), with its metadata.
    Existing(PathBuf, Metadata),
    /// A character device or FIFO: written into, never replaced.
    Stream(PathBuf),
}

/// The kind of a file, for messages.
pub fn file_kind(meta: &Metadata) -> FileKind {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return FileKind::Fifo;
        }
        if t.is_char_device() {
            return FileKind::CharacterDevice;
        }
        if t.is_block_device() {
            return FileKind::BlockDevice;
        }
        if t.is_socket() {
            return FileKind::Socket;
        }
    }
    if t.is_dir() {
        FileKind::Directory
    } else if t.is_file() {
        FileKind::Regular
    } else if t.is_symlink() {
        FileKind::SymbolicLink
    } else {
        FileKind::Other
    }
}

/// The OS's "Is a directory" error (EISDIR), worded as the OS words it.
pub(crate) fn is_a_directory() -> io::Error {
    #[cfg(unix)]
    {
        // EISDIR is 21 on Linux, the BSDs and macOS.
        io::Error::from_raw_os_error(21)
    }
    #[cfg(not(unix))]
    io::Error::from(io::ErrorKind::IsADirectory)
}

/// Whether `path` ends in a path separator (names a directory).
fn ends_in_separator(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes.last() == Some(&b'/') || (cfg!(windows) && bytes.last() == Some(&b'\\'))
}

impl Destination {
    /// Classifies `path` as an output (`-` is standard output).
    pub fn of(path: &Path) -> Result<Destination> {
        if path.as_os_str() == "-" {
            return Ok(Destination::Stdout);
        }
        let is_dir = || EditError::io(path, is_a_directory());
        if ends_in_separator(path) {
            return Err(is_dir());
        }
        // One look-up for the usual case (a new path, or a file that is no
        // symbolic link); a link is followed to its target.
        let (target, meta) = match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                match fs::metadata(&target) {
                    Ok(m) => (target, m),
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        return Ok(Destination::New(target))
                    }
                    Err(e) => return Err(EditError::io(path, e)),
                }
            }
            Ok(m) => (path.to_path_buf(), m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Destination::New(path.to_path_buf()))
            }
            Err(e) => return Err(EditError::io(path, e)),
        };
        if meta.is_file() {
            return Ok(Destination::Existing(target, meta));
        }
        if meta.is_dir() {
            return Err(is_dir());
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            let t = meta.file_type();
            if t.is_char_device() || t.is_fifo() {
                return Ok(Destination::Stream(target));
            }
        }
        Err(EditError::SpecialOutput {
            path: path.to_path_buf(),
            kind: file_kind(&meta),
        })
    }

    /// Which file this is, to find two names of one file (see [`FileId`]).
    pub fn id(&self) -> Result<FileId> {
        match self {
            Destination::Stdout => Ok(FileId::Stdout),
            Destination::Existing(_, meta) => Ok(FileId::of(meta)),
            Destination::Stream(path) => fs::metadata(path)
                .map(|m| FileId::of(&m))
                .map_err(|e| EditError::io(path, e)),
            Destination::New(path) => {
                let parent = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let dir = fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf());
                Ok(FileId::New(dir.join(path.file_name().unwrap_or_default())))
            }
        }
    }
}

/// The identity of a file, whatever path names it: device and inode of an
/// existing file (so `a`, `./a`, `../d/a`, a symlink to it and a hard link
/// of it are one file), the canonical directory and name of a file not yet
/// created, or standard input/output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileId {
    /// Standard input or output (`-`).
    Stdout,
    /// An existing file: device and inode (on other systems, its canonical path).
    Existing(u64, u64),
    /// A file to be created at this canonical path.
    New(PathBuf),
}

impl FileId {
    /// The identity of the file `meta` describes.
    pub fn of(meta: &Metadata) -> FileId {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileId::Existing(meta.dev(), meta.ino())
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            FileId::New(PathBuf::new())
        }
    }
}

/// Where an output's bytes go when its writer runs.
pub enum Sink<'w> {
    /// A staged temp file (seekable, positioned at 0).
    File(&'w mut File),
    /// A device, FIFO or standard output: written in order, no seeking.
    Stream(&'w mut dyn Write),
}

type Writer<'a> = Box<dyn FnOnce(Sink<'_>) -> io::Result<()> + 'a>;

/// Temp files of runs in progress, for [`remove_temp_files`].
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Set by [`remove_temp_files`]: no temp file may be created and no rename
/// may follow. Creating a temp file and renaming one hold it shared (so
/// workers do not wait for each other's file-system calls, the slowest part
/// of an edit); [`remove_temp_files`] holds it exclusively, so it waits for
/// every create and rename in flight and none starts after it.
static ABANDONED: RwLock<bool> = RwLock::new(false);

fn temps() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Holds the gate shared; `None` once the temp files were removed.
fn gate() -> Option<std::sync::RwLockReadGuard<'static, bool>> {
    let g = ABANDONED.read().unwrap_or_else(|e| e.into_inner());
    (!*g).then_some(g)
}

/// Removes every temp file of the runs in progress and stops them from
/// renaming anything afterwards (their commit fails). For a signal handler
/// thread that is about to end the process; returns how many were removed.
pub fn remove_temp_files() -> usize {
    let mut abandoned = ABANDONED.write().unwrap_or_else(|e| e.into_inner());
    *abandoned = true;
    let mut removed = 0;
    for t in temps().drain(..) {
        if fs::remove_file(&t).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// This process's id, asked once (it is part of every temp file's name).
fn process_id() -> u32 {
    static ID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *ID.get_or_init(std::process::id)
}

/// A directory held open: names in it are checked, created and renamed
/// relative to the open directory (`openat`, `renameat`), never by a path
/// looked up again, so a directory swapped for a symbolic link after it was
/// opened cannot redirect a write elsewhere (Linux; on other systems the
/// directory's path is used).
#[derive(Debug, Clone)]
pub struct DirHandle {
    path: PathBuf,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fd: std::sync::Arc<std::os::fd::OwnedFd>,
}

/// What a name in a [`DirHandle`] is (the name itself, links not followed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirEntryKind {
    /// Nothing of that name.
    Missing,
    /// A regular file, and which.
    File(FileId),
    /// A directory.
    Directory,
    /// Anything else (a symbolic link, a FIFO, …).
    Other(FileKind),
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn kind_of_type(t: rustix::fs::FileType) -> DirEntryKind {
    use rustix::fs::FileType;
    DirEntryKind::Other(match t {
        FileType::Symlink => FileKind::SymbolicLink,
        FileType::Fifo => FileKind::Fifo,
        FileType::CharacterDevice => FileKind::CharacterDevice,
        FileType::BlockDevice => FileKind::BlockDevice,
        FileType::Socket => FileKind::Socket,
        FileType::Directory => return DirEntryKind::Directory,
        _ => FileKind::Other,
    })
}

impl DirHandle {
    /// Opens the directory `path` (a symbolic link to a directory is
    /// followed: this is the user's directory).
    pub fn open(path: &Path) -> io::Result<DirHandle> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            use rustix::fs::{Mode, OFlags, CWD};
            let fd = rustix::fs::openat(
                CWD,
                path,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            Ok(DirHandle {
                path: path.to_path_buf(),
                fd: std::sync::Arc::new(fd),
            })
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            if !fs::metadata(path)?.is_dir() {
                return Err(io::Error::from(io::ErrorKind::NotADirectory));
            }
            Ok(DirHandle {
                path: path.to_path_buf(),
            })
        }
    }

    /// The directory's path, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What `name` is in this directory (not following a symbolic link).
    pub fn entry(&self, name: &str) -> io::Result<DirEntryKind> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let found = rustix::fs::statat(&*self.fd, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
            .map_err(io::Error::from)
            .map(|st| {
                let t = rustix::fs::FileType::from_raw_mode(st.st_mode);
                if t == rustix::fs::FileType::RegularFile {
                    DirEntryKind::File(FileId::Existing(st.st_dev, st.st_ino))
                } else {
                    kind_of_type(t)
                }
            });
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        let found = fs::symlink_metadata(self.path.join(name)).map(|meta| {
            if meta.is_file() {
                DirEntryKind::File(FileId::of(&meta))
            } else if meta.is_dir() {
                DirEntryKind::Directory
            } else {
                DirEntryKind::Other(file_kind(&meta))
            }
        });
        match found {
            Ok(kind) => Ok(kind),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(DirEntryKind::Missing),
            Err(e) => Err(e),
        }
    }

    /// Creates the directory `name` in this one (0777 minus the umask).
    pub fn create_dir(&self, name: &str) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return Ok(rustix::fs::mkdirat(
            &*self.fd,
            name,
            rustix::fs::Mode::from_raw_mode(0o777),
        )?);
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        fs::create_dir(self.path.join(name))
    }

    /// Opens the directory `name` in this one, refusing a symbolic link
    /// (ELOOP) and anything that is not a directory (ENOTDIR).
    pub fn open_own_dir(&self, name: &str) -> io::Result<DirHandle> {
        let path = self.path.join(name);
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            use rustix::fs::{Mode, OFlags};
            let fd = rustix::fs::openat(
                &*self.fd,
                name,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            Ok(DirHandle {
                path,
                fd: std::sync::Arc::new(fd),
            })
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            if !fs::symlink_metadata(&path)?.is_dir() {
                return Err(io::Error::from(io::ErrorKind::NotADirectory));
            }
            Ok(DirHandle { path })
        }
    }

    /// Creates the new file `name` (0666 minus the umask), failing if it exists.
    fn create_new(&self, name: &str) -> io::Result<File> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            use rustix::fs::{Mode, OFlags};
            let fd = rustix::fs::openat(
                &*self.fd,
                name,
                OFlags::RDWR | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o666),
            )?;
            Ok(File::from(fd))
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(self.path.join(name))
    }

    fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return Ok(rustix::fs::renameat(&*self.fd, from, &*self.fd, to)?);
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        fs::rename(self.path.join(from), self.path.join(to))
    }

    fn remove(&self, name: &str) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return Ok(rustix::fs::unlinkat(
            &*self.fd,
            name,
            rustix::fs::AtFlags::empty(),
        )?);
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        fs::remove_file(self.path.join(name))
    }
}

/// Where a staged file lives: by path, or by name in a held directory.
enum Place {
    Path {
        temp: PathBuf,
        target: PathBuf,
    },
    In {
        dir: DirHandle,
        temp: String,
        target: String,
    },
}

/// A staged temp file; removed on drop unless renamed.
struct TempFile {
    /// The temp file's path, for [`remove_temp_files`].
    path: PathBuf,
    file: File,
    place: Place,
    shown: PathBuf,
    committed: bool,
}

impl TempFile {
    /// Creates a temp file in `dir` with `mode` minus the umask (0666 for a
    /// new file; a replaced file's own mode, so its new contents are never
    /// readable by more users than its old ones, even while staged).
    fn create(dir: &Path, target: &Path, shown: &Path, mode: u32) -> Result<TempFile> {
        Self::create_with(dir, shown, |name| {
            let path = dir.join(name);
            let mut open = fs::OpenOptions::new();
            open.read(true).write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut open, mode);
            #[cfg(not(unix))]
            let _ = mode;
            let file = open.open(&path)?;
            Ok((
                file,
                Place::Path {
                    temp: path,
                    target: target.to_path_buf(),
                },
            ))
        })
    }

    /// Creates a temp file in the held directory `dir`, to become `target` there.
    fn create_in(dir: &DirHandle, target: &str, shown: &Path) -> Result<TempFile> {
        Self::create_with(&dir.path, shown, |name| {
            let file = dir.create_new(name)?;
            Ok((
                file,
                Place::In {
                    dir: dir.clone(),
                    temp: name.to_string(),
                    target: target.to_string(),
                },
            ))
        })
    }

    fn create_with(
        dir: &Path,
        shown: &Path,
        open: impl Fn(&str) -> io::Result<(File, Place)>,
    ) -> Result<TempFile> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let seed = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        for _ in 0..100 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let tag = seed
                .wrapping_add(n.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .wrapping_mul(0xbf58_476d_1ce4_e5b9);
            let name = format!(".dxcopy-{}-{:012x}.tmp", process_id(), tag >> 16);
            let path = dir.join(&name);
            // Registered before it exists, so a signal never misses it.
            let Some(_gate) = gate() else {
                return Err(EditError::io(
                    shown,
                    io::Error::from(io::ErrorKind::Interrupted),
                ));
            };
            temps().push(path.clone());
            match open(&name) {
                Ok((file, place)) => {
                    return Ok(TempFile {
                        path,
                        file,
                        place,
                        shown: shown.to_path_buf(),
                        committed: false,
                    });
                }
                Err(e) => {
                    temps().retain(|t| t != &path);
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        continue;
                    }
                    // The OS error alone: the temp file's name means nothing to the user.
                    return Err(EditError::io(shown, e));
                }
            }
        }
        Err(EditError::io(
            shown,
            io::Error::other("could not create a temp file (100 names taken)"),
        ))
    }

    fn rename(&mut self) -> Result<()> {
        let Some(_gate) = gate() else {
            return Err(EditError::io(
                &self.shown,
                io::Error::from(io::ErrorKind::Interrupted),
            ));
        };
        match &self.place {
            Place::Path { temp, target } => fs::rename(temp, target),
            Place::In { dir, temp, target } => dir.rename(temp, target),
        }
        .map_err(|e| EditError::io(&self.shown, e))?;
        self.committed = true;
        temps().retain(|t| t != &self.path);
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = match &self.place {
                Place::Path { temp, .. } => fs::remove_file(temp),
                Place::In { dir, temp, .. } => dir.remove(temp),
            };
            temps().retain(|t| t != &self.path);
        }
    }
}

/// Applies `options`, or the existing destination's mode and owner, to a
/// staged file.
fn finish_temp(file: &File, existing: Option<&Metadata>, options: &FileOptions) -> io::Result<()> {
    let permissions = options
        .permissions
        .clone()
        .or_else(|| existing.map(|m| without_set_id(m.permissions())));
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        // What the create gave the staged file (the process's owner, the
        // umask): a change of owner or mode is made only where it differs,
        // as each one is a journalled inode update, and most replaced files
        // already belong to the user with a mode the umask keeps.
        let staged = if existing.is_some() || permissions.is_some() {
            Some(file.metadata()?)
        } else {
            None
        };
        let mut owner_changed = false;
        if let (Some(meta), Some(staged)) = (existing, &staged) {
            // Owner and group where allowed (root, or a group the user is
            // in); before the mode, as a change of owner clears setuid bits.
            if (meta.uid(), meta.gid()) != (staged.uid(), staged.gid()) {
                owner_changed = true;
                if std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).is_err() {
                    let _ = std::os::unix::fs::fchown(file, None, Some(meta.gid()));
                }
            }
        }
        if let (Some(p), Some(staged)) = (permissions, &staged) {
            if owner_changed || p.mode() & 0o7777 != staged.mode() & 0o7777 {
                file.set_permissions(p)?;
            }
        }
    }
    #[cfg(not(unix))]
    if let Some(p) = permissions {
        file.set_permissions(p)?;
    }
    if let Some((atime, mtime)) = options.times {
        let times = fs::FileTimes::new().set_accessed(atime).set_modified(mtime);
        file.set_times(times)?;
    }
    Ok(())
}

/// The outputs of one run: staged as temp files as they are added, written
/// to their destinations only by [`commit`](Self::commit). Dropping it
/// without a commit removes every temp file.
#[derive(Default)]
pub struct Outputs<'a> {
    staged: Vec<TempFile>,
    streams: Vec<(PathBuf, Option<PathBuf>, Writer<'a>)>,
}

impl<'a> Outputs<'a> {
    /// No outputs yet.
    pub fn new() -> Self {
        Outputs {
            staged: Vec::new(),
            streams: Vec::new(),
        }
    }

    /// Adds the output `path`: a regular or new destination is written now to
    /// a temp file by `write`; standard output, a device or a FIFO is written
    /// by `write` during the commit.
    pub fn add(
        &mut self,
        path: &Path,
        options: &FileOptions,
        write: impl FnOnce(Sink<'_>) -> io::Result<()> + 'a,
    ) -> Result<()> {
        self.add_to(path, Destination::of(path)?, options, write)
    }

    /// [`add`](Self::add) with the destination already classified.
    pub fn add_to(
        &mut self,
        path: &Path,
        destination: Destination,
        options: &FileOptions,
        write: impl FnOnce(Sink<'_>) -> io::Result<()> + 'a,
    ) -> Result<()> {
        let (target, existing) = match destination {
            Destination::Stdout => {
                self.streams
                    .push((path.to_path_buf(), None, Box::new(write)));
                return Ok(());
            }
            Destination::Stream(target) => {
                self.streams
                    .push((path.to_path_buf(), Some(target), Box::new(write)));
                return Ok(());
            }
            Destination::New(target) => (target, None),
            Destination::Existing(target, meta) => (target, Some(meta)),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            let kept = options
                .permissions
                .clone()
                .or_else(|| existing.as_ref().map(|m| without_set_id(m.permissions())));
            kept.map_or(0o666, |p| p.mode() & 0o777)
        };
        #[cfg(not(unix))]
        let mode = 0o666;
        let mut temp = TempFile::create(&dir, &target, path, mode)?;
        let err = |e: io::Error| EditError::io(path, e);
        write(Sink::File(&mut temp.file)).map_err(err)?;
        temp.file.flush().map_err(err)?;
        finish_temp(&temp.file, existing.as_ref(), options).map_err(err)?;
        self.staged.push(temp);
        Ok(())
    }

    /// Adds the new or replaced regular file `name` in the held directory
    /// `dir`, written now to a temp file there by `write` (0666 minus the
    /// umask); `name` must not be a path. Checking what `name` is now (a
    /// symbolic link, a FIFO) is the caller's part: the rename replaces the
    /// name itself, whatever it is then, and never writes through it.
    pub fn add_in(
        &mut self,
        dir: &DirHandle,
        name: &str,
        write: impl FnOnce(Sink<'_>) -> io::Result<()> + 'a,
    ) -> Result<()> {
        let shown = dir.path.join(name);
        let mut temp = TempFile::create_in(dir, name, &shown)?;
        let err = |e: io::Error| EditError::io(&shown, e);
        write(Sink::File(&mut temp.file)).map_err(err)?;
        temp.file.flush().map_err(err)?;
        self.staged.push(temp);
        Ok(())
    }

    /// Writes the streamed outputs, then calls `check` (e.g. that the input
    /// did not change), then renames every staged file over its destination.
    /// Nothing is renamed when a stream write or `check` fails.
    pub fn commit(mut self, check: impl FnOnce() -> Result<()>) -> Result<()> {
        if self.staged.is_empty() && self.streams.is_empty() {
            // Nothing to write: nothing the check could protect.
            return Ok(());
        }
        for (path, device, write) in self.streams.drain(..) {
            let err = |e: io::Error| EditError::io(&path, e);
            match device {
                None => {
                    let stdout = io::stdout();
                    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
                    write(Sink::Stream(&mut out)).map_err(err)?;
                    out.flush().map_err(err)?;
                }
                Some(device) => {
                    let file = fs::OpenOptions::new()
                        .write(true)
                        .open(&device)
                        .map_err(err)?;
                    let mut out = io::BufWriter::with_capacity(1 << 16, file);
                    write(Sink::Stream(&mut out)).map_err(err)?;
                    out.flush().map_err(err)?;
                }
            }
        }
        check()?;
        for temp in &mut self.staged {
            temp.rename()?;
        }
        Ok(())
    }
}

/// Writes `path` atomically with `write`, which receives the open temp file
/// (or, for a device or FIFO destination, the device itself, written at once).
pub fn write_atomic<T>(
    path: &Path,
    options: &FileOptions,
    write: impl FnOnce(&mut File) -> io::Result<T>,
) -> Result<T> {
    let destination = Destination::of(path)?;
    if let Destination::Stream(device) = &destination {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .open(device)
            .map_err(|e| EditError::io(path, e))?;
        return write(&mut file).map_err(|e| EditError::io(path, e));
    }
    if let Destination::Stdout = destination {
        // A file named `-`: this function writes files only.
        return write_atomic_to(path, Destination::New(path.to_path_buf()), options, write);
    }
    write_atomic_to(path, destination, options, write)
}

fn write_atomic_to<T>(
    path: &Path,
    destination: Destination,
    options: &FileOptions,
    write: impl FnOnce(&mut File) -> io::Result<T>,
) -> Result<T> {
    let mut value = None;
    let mut outputs = Outputs::new();
    outputs.add_to(path, destination, options, |sink| {
        let Sink::File(f) = sink else {
            return Err(io::Error::other("not a file"));
        };
        value = Some(write(f)?);
        Ok(())
    })?;
    outputs.commit(|| Ok(()))?;
    value.ok_or_else(|| EditError::io(path, io::Error::other("nothing written")))
}

/// Writes `bytes` to `path` atomically.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8], options: &FileOptions) -> Result<()> {
    write_atomic(path, options, |f| io::Write::write_all(f, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// Stages `bytes` for `path` with the default options.
    fn stage(outputs: &mut Outputs<'_>, path: &Path, bytes: &'static [u8]) -> Result<()> {
        outputs.add(path, &FileOptions::default(), move |s| match s {
            Sink::File(f) => f.write_all(bytes),
            Sink::Stream(w) => w.write_all(bytes),
        })
    }

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
        assert_eq!(names(dir.path()), ["out.bin"]);
        // Missing directory: error naming the path, not the temp file.
        let e = write_bytes_atomic(&dir.path().join("no/such/x"), b"", &FileOptions::default())
            .unwrap_err();
        let text = e.to_string();
        assert!(text.contains("no/such/x"), "{text}");
        assert!(!text.contains(".dxcopy-"), "{text}");
    }

    #[test]
    fn a_run_writes_all_outputs_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let (a, b) = (d.join("a.bin"), d.join("b.bin"));
        fs::write(&b, b"old").unwrap();
        // The second output cannot be staged: the first is not written.
        let mut outputs = Outputs::new();
        stage(&mut outputs, &a, b"A").unwrap();
        let e = outputs
            .add(
                &d.join("missing/c.bin"),
                &FileOptions::default(),
                |_| Ok(()),
            )
            .err()
            .unwrap();
        assert!(
            matches!(&e, EditError::Io { path, .. } if path.ends_with("missing/c.bin")),
            "{e:?}"
        );
        drop(outputs);
        assert_eq!(names(d), ["b.bin"]);
        // A failing check: nothing renamed, no temp file left.
        let mut outputs = Outputs::new();
        for p in [&a, &b] {
            stage(&mut outputs, p, b"new").unwrap();
        }
        let e = outputs.commit(|| Err(EditError::PdbInPlace)).unwrap_err();
        assert!(matches!(e, EditError::PdbInPlace), "{e}");
        assert_eq!(names(d), ["b.bin"]);
        assert_eq!(fs::read(&b).unwrap(), b"old");
        // Both, when all is well.
        let mut outputs = Outputs::new();
        for p in [&a, &b] {
            stage(&mut outputs, p, b"new").unwrap();
        }
        outputs.commit(|| Ok(())).unwrap();
        assert_eq!(names(d), ["a.bin", "b.bin"]);
        assert_eq!(fs::read(&a).unwrap(), b"new");
    }

    #[test]
    fn directories_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        for p in [sub.clone(), PathBuf::from(format!("{}/", sub.display()))] {
            let e = Destination::of(&p).unwrap_err();
            let EditError::Io { source, .. } = &e else {
                panic!("{e:?}")
            };
            assert_eq!(source.kind(), io::ErrorKind::IsADirectory, "{e}");
        }
        let new = dir.path().join("new/");
        assert!(Destination::of(&new).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions_and_symlinks() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.bin");
        fs::write(&target, b"old").unwrap();
        fs::set_permissions(&target, Permissions::from_mode(0o4751)).unwrap();
        let link = dir.path().join("link.bin");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let meta = fs::metadata(&link).unwrap();
        write_bytes_atomic(&link, b"new", &FileOptions::times_of(&meta)).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        // Before reading it back (a read may move the access time).
        let m = fs::metadata(&target).unwrap();
        assert_eq!(m.accessed().unwrap(), meta.accessed().unwrap());
        assert_eq!(m.modified().unwrap(), meta.modified().unwrap());
        // The old mode without setuid.
        assert_eq!(m.permissions().mode() & 0o7777, 0o751);
        assert_eq!(fs::read(&target).unwrap(), b"new");
    }

    #[test]
    fn identities_see_through_spellings() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("a"), b"x").unwrap();
        fs::create_dir(d.join("sub")).unwrap();
        let id = |p: PathBuf| Destination::of(&p).unwrap().id().unwrap();
        assert_eq!(id(d.join("a")), id(d.join("sub/../a")));
        assert_eq!(id(d.join("new")), id(d.join("sub/../new")));
        assert_ne!(id(d.join("new")), id(d.join("a")));
        assert_eq!(id(PathBuf::from("-")), FileId::Stdout);
        #[cfg(unix)]
        {
            fs::hard_link(d.join("a"), d.join("hard")).unwrap();
            std::os::unix::fs::symlink(d.join("a"), d.join("soft")).unwrap();
            assert_eq!(id(d.join("a")), id(d.join("hard")));
            assert_eq!(id(d.join("a")), id(d.join("soft")));
        }
    }

    #[cfg(unix)]
    #[test]
    fn in_place_inputs_are_regular_files_and_links_are_told() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("a.bin"), b"abc").unwrap();
        std::os::unix::fs::symlink("a.bin", d.join("link")).unwrap();
        fs::create_dir(d.join("sub")).unwrap();
        std::os::unix::fs::symlink("sub", d.join("dirlink")).unwrap();
        let plain = open_in_place(&d.join("a.bin")).unwrap();
        assert!(plain.plain);
        assert_eq!(plain.metadata.len(), 3);
        let linked = open_in_place(&d.join("link")).unwrap();
        assert!(!linked.plain);
        assert_eq!(FileId::of(&linked.metadata), FileId::of(&plain.metadata));
        for (name, kind) in [
            ("sub", FileKind::Directory),
            ("dirlink", FileKind::Directory),
        ] {
            let e = open_in_place(&d.join(name)).unwrap_err();
            assert!(
                matches!(&e, EditError::NotRegularInPlace { kind: k, .. } if *k == kind),
                "{name}: {e}"
            );
        }
        let e = open_in_place(&d.join("missing")).unwrap_err();
        assert!(
            matches!(&e, EditError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_staged_replacement_is_no_more_readable_than_the_file_it_replaces() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("private.bin");
        fs::write(&p, b"old").unwrap();
        fs::set_permissions(&p, Permissions::from_mode(0o600)).unwrap();
        let mut outputs = Outputs::new();
        stage(&mut outputs, &p, b"new").unwrap();
        let staged: Vec<_> = names(dir.path())
            .into_iter()
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert_eq!(staged.len(), 1, "{staged:?}");
        let mode = fs::metadata(dir.path().join(&staged[0]))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        outputs.commit(|| Ok(())).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
}
