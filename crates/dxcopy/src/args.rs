//! Response files: an argument `@FILE` is replaced by the arguments written in
//! FILE, with llvm-objcopy's rules (LLVM's GNU-style tokenizer):
//!
//! - arguments are separated by whitespace (spaces, tabs, newlines);
//! - `'…'` and `"…"` group characters, whitespace included, and are removed;
//! - a backslash takes the next character literally, inside quotes too;
//! - an argument of FILE that starts with `@` is expanded in turn (nested
//!   response files, named relative to the current directory, as LLVM does);
//! - `@FILE` naming no existing file is kept as a literal argument;
//! - arguments after `--` are never expanded.
//!
//! FILE may be a regular file, a FIFO or a character device (`@<(…)` in a
//! shell is a pipe); it is read up to [`MAX_RESPONSE_FILE`] bytes, and a NUL
//! byte ends the read at once (arguments are text: `@/dev/zero` fails in its
//! first block). A directory or anything else is an error saying what it is.
//!
//! A file that expands into itself, directly or not, is an error.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Response files nested deeper than this are refused (a guard against
/// chains of distinct files that never end).
pub const MAX_DEPTH: usize = 64;

/// A response file larger than this is refused before more is read (a
/// command line of arguments, not a data file).
pub const MAX_RESPONSE_FILE: u64 = 16 << 20;

/// Why a response file could not be expanded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResponseFileError {
    /// The file exists but could not be read.
    #[error("cannot read response file '{}': {source}", path.display())]
    Read {
        /// The response file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("response file '{}' is not UTF-8 text", path.display())]
    NotUtf8 {
        /// The response file.
        path: PathBuf,
    },
    /// The file names itself, directly or through other response files.
    #[error("response file '{}' includes itself", path.display())]
    Recursive {
        /// The response file.
        path: PathBuf,
    },
    /// A response file larger than [`MAX_RESPONSE_FILE`].
    #[error("response file '{}' is larger than {MAX_RESPONSE_FILE} bytes", path.display())]
    TooLarge {
        /// The response file.
        path: PathBuf,
    },
    /// The file names a directory, a socket or a block device.
    #[error("response file '{}' is {kind}, not a file of arguments", path.display())]
    NotAFile {
        /// The response file.
        path: PathBuf,
        /// What it is.
        kind: dxcopy_edit::FileKind,
    },
    /// The file holds a NUL byte: it is binary, not arguments.
    #[error("response file '{}' holds a NUL byte: not a text file of arguments", path.display())]
    NulByte {
        /// The response file.
        path: PathBuf,
    },
    /// Too many nested response files.
    #[error("response files nested more than {MAX_DEPTH} deep at '{}'", path.display())]
    TooDeep {
        /// The innermost response file.
        path: PathBuf,
    },
}

/// Splits the text of a response file into arguments (see the module docs).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    // `""` alone yields no argument, as in LLVM (a shell would pass "").
    let mut token = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(next) => token.push(next),
                None => token.push('\\'),
            },
            '\'' | '"' => {
                let quote = c;
                loop {
                    match chars.next() {
                        None => break,
                        Some(q) if q == quote => break,
                        Some('\\') => match chars.next() {
                            Some(next) => token.push(next),
                            None => token.push('\\'),
                        },
                        Some(other) => token.push(other),
                    }
                }
            }
            c if c.is_ascii_whitespace() => {
                if !token.is_empty() {
                    args.push(std::mem::take(&mut token));
                }
            }
            c => token.push(c),
        }
    }
    if !token.is_empty() {
        args.push(token);
    }
    args
}

/// Expands every `@FILE` argument in `args` (the first element, the program
/// name, is left alone).
pub fn expand(args: Vec<OsString>) -> Result<Vec<OsString>, ResponseFileError> {
    let mut out = Vec::with_capacity(args.len());
    let mut iter = args.into_iter();
    if let Some(program) = iter.next() {
        out.push(program);
    }
    let mut literal = false;
    for arg in iter {
        if literal {
            out.push(arg);
            continue;
        }
        if arg == "--" {
            literal = true;
            out.push(arg);
            continue;
        }
        expand_one(arg, &mut Vec::new(), &mut out, &mut literal)?;
    }
    Ok(out)
}

/// The file an argument names when it is a response file reference: `@`
/// and the name of something that exists (following links). A name that
/// cannot be looked up is no reference (the argument is kept as it is).
fn response_path(arg: &OsStr) -> Option<PathBuf> {
    let text = arg.to_str()?;
    let name = text.strip_prefix('@')?;
    if name.is_empty() {
        return None;
    }
    let path = PathBuf::from(name);
    path.exists().then_some(path)
}

/// Refuses a response file that cannot be read as a stream of text: a
/// directory, a socket, a block device.
fn check_readable(path: &Path) -> Result<(), ResponseFileError> {
    let meta = std::fs::metadata(path).map_err(|source| ResponseFileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let kind = dxcopy_edit::file::file_kind(&meta);
    match kind {
        dxcopy_edit::FileKind::Regular
        | dxcopy_edit::FileKind::Fifo
        | dxcopy_edit::FileKind::CharacterDevice => Ok(()),
        kind => Err(ResponseFileError::NotAFile {
            path: path.to_path_buf(),
            kind,
        }),
    }
}

fn expand_one(
    arg: OsString,
    stack: &mut Vec<PathBuf>,
    out: &mut Vec<OsString>,
    literal: &mut bool,
) -> Result<(), ResponseFileError> {
    if *literal {
        out.push(arg);
        return Ok(());
    }
    let Some(path) = response_path(&arg) else {
        if arg == "--" {
            *literal = true;
        }
        out.push(arg);
        return Ok(());
    };
    let identity = identity(&path);
    if stack.contains(&identity) {
        return Err(ResponseFileError::Recursive { path });
    }
    if stack.len() >= MAX_DEPTH {
        return Err(ResponseFileError::TooDeep { path });
    }
    check_readable(&path)?;
    let bytes = read_bounded(&path)?;
    let text =
        String::from_utf8(bytes).map_err(|_| ResponseFileError::NotUtf8 { path: path.clone() })?;
    stack.push(identity);
    for inner in tokenize(&text) {
        expand_one(inner.into(), stack, out, literal)?;
    }
    stack.pop();
    Ok(())
}

/// The bytes of a response file, at most [`MAX_RESPONSE_FILE`] of them,
/// read a block at a time and given up at the first NUL byte.
fn read_bounded(path: &Path) -> Result<Vec<u8>, ResponseFileError> {
    use std::io::Read;
    let read_error = |source| ResponseFileError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut file = file.take(MAX_RESPONSE_FILE + 1);
    let mut bytes = Vec::new();
    let mut block = [0u8; 8192];
    loop {
        let n = match file.read(&mut block) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(read_error(e)),
        };
        if block[..n].contains(&0) {
            return Err(ResponseFileError::NulByte {
                path: path.to_path_buf(),
            });
        }
        bytes.extend_from_slice(&block[..n]);
    }
    if bytes.len() as u64 > MAX_RESPONSE_FILE {
        return Err(ResponseFileError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    Ok(bytes)
}

/// A name for cycle detection: the canonical path when there is one.
fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_rules() {
        let rows: &[(&str, &[&str])] = &[
            ("", &[]),
            ("  a  b\tc\n d\r\n", &["a", "b", "c", "d"]),
            ("'a b' \"c d\"", &["a b", "c d"]),
            ("x'a b'y", &["xa by"]),
            (r"a\ b", &["a b"]),
            (r#""a\"b""#, &["a\"b"]),
            (r"'a\'b'", &["a'b"]),
            (r"\\", &["\\"]),
            ("trailing\\", &["trailing\\"]),
            ("'' \"\" x", &["x"]),
            ("'unterminated quote", &["unterminated quote"]),
            (
                "--dump-section=DXIL='my file.bc'",
                &["--dump-section=DXIL=my file.bc"],
            ),
        ];
        for (text, want) in rows {
            assert_eq!(tokenize(text), *want, "{text:?}");
        }
    }

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn expands_nested_files_and_keeps_unknown_ones() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("inner.rsp");
        std::fs::write(&inner, "-R STAT 'name with space.dxil'").unwrap();
        let outer = dir.path().join("outer.rsp");
        std::fs::write(&outer, format!("--strip-debug\n@{}\n", inner.display())).unwrap();
        let missing = format!("@{}", dir.path().join("missing.rsp").display());
        let args = os(&[
            "dxcopy",
            &format!("@{}", outer.display()),
            &missing,
            "@",
            "--",
            &format!("@{}", inner.display()),
        ]);
        let want = os(&[
            "dxcopy",
            "--strip-debug",
            "-R",
            "STAT",
            "name with space.dxil",
            &missing,
            "@",
            "--",
            &format!("@{}", inner.display()),
        ]);
        assert_eq!(expand(args).unwrap(), want);
    }

    #[test]
    fn a_double_dash_inside_a_file_ends_expansion() {
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other.rsp");
        std::fs::write(&other, "-g").unwrap();
        let rsp = dir.path().join("a.rsp");
        std::fs::write(&rsp, format!("-- @{}", other.display())).unwrap();
        let got = expand(os(&["dxstrip", &format!("@{}", rsp.display())])).unwrap();
        assert_eq!(
            got,
            os(&["dxstrip", "--", &format!("@{}", other.display())])
        );
    }

    #[test]
    fn self_inclusion_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.rsp");
        let b = dir.path().join("b.rsp");
        std::fs::write(&a, format!("-g @{}", b.display())).unwrap();
        std::fs::write(&b, format!("@{}", a.display())).unwrap();
        let err = expand(os(&["dxinfo", &format!("@{}", a.display())])).unwrap_err();
        assert!(
            matches!(&err, ResponseFileError::Recursive { path } if path == &a),
            "{err}"
        );
    }

    /// `@.`, `@/dev/zero` and `@fifo` were taken for missing
    /// files; they are read (a FIFO, a device) or refused saying what they are.
    #[cfg(unix)]
    #[test]
    fn directories_fifos_and_binary_streams_say_what_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let at = |p: &Path| format!("@{}", p.display());
        // A directory.
        let err = expand(os(&["dxcopy", &at(d)])).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "response file '{}' is a directory, not a file of arguments",
                d.display()
            )
        );
        // A FIFO with arguments in it (what `@<(echo -g)` gives) is read.
        let fifo = d.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, "-g 'a b.dxil'\n").unwrap())
        };
        let got = expand(os(&["dxstrip", &at(&fifo)])).unwrap();
        writer.join().unwrap();
        assert_eq!(got, os(&["dxstrip", "-g", "a b.dxil"]));
        // An endless stream of zeros (what /dev/zero gives) fails in its
        // first block, not after 16 MiB.
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                use std::io::Write;
                let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
                let mut written = 0usize;
                while f.write_all(&[0u8; 4096]).is_ok() {
                    written += 4096;
                }
                written
            })
        };
        let err = expand(os(&["dxstrip", &at(&fifo)])).unwrap_err();
        let written = writer.join().unwrap();
        assert!(
            matches!(&err, ResponseFileError::NulByte { path } if path == &fifo),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "response file '{}' holds a NUL byte: not a text file of arguments",
                fifo.display()
            )
        );
        assert!(written < 1 << 20, "{written} bytes were read");
        // A regular file with a NUL byte.
        let binary = d.join("binary.rsp");
        std::fs::write(&binary, b"-g\0").unwrap();
        let err = expand(os(&["dxinfo", &at(&binary)])).unwrap_err();
        assert!(matches!(err, ResponseFileError::NulByte { .. }), "{err}");
    }

    #[test]
    fn non_utf8_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.rsp");
        std::fs::write(&a, b"-g \xff").unwrap();
        let err = expand(os(&["dxinfo", &format!("@{}", a.display())])).unwrap_err();
        assert!(matches!(err, ResponseFileError::NotUtf8 { .. }));
    }
}
