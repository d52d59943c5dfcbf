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
//! A file that expands into itself, directly or not, is an error.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Response files nested deeper than this are refused (a guard against
/// chains of distinct files that never end).
pub const MAX_DEPTH: usize = 64;

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

/// The file an argument names when it is a response file reference.
fn response_path(arg: &OsStr) -> Option<PathBuf> {
    let text = arg.to_str()?;
    let name = text.strip_prefix('@')?;
    if name.is_empty() {
        return None;
    }
    let path = PathBuf::from(name);
    path.is_file().then_some(path)
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
    let bytes = std::fs::read(&path).map_err(|source| ResponseFileError::Read {
        path: path.clone(),
        source,
    })?;
    let text =
        String::from_utf8(bytes).map_err(|_| ResponseFileError::NotUtf8 { path: path.clone() })?;
    stack.push(identity);
    for inner in tokenize(&text) {
        expand_one(inner.into(), stack, out, literal)?;
    }
    stack.pop();
    Ok(())
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

    #[test]
    fn non_utf8_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.rsp");
        std::fs::write(&a, b"-g \xff").unwrap();
        let err = expand(os(&["dxinfo", &format!("@{}", a.display())])).unwrap_err();
        assert!(matches!(err, ResponseFileError::NotUtf8 { .. }));
    }
}
