//! The size of the code's units, measured from the source: lines per file,
//! and lines per function of the code that is not test code (as
//! [`crate::layers`] tells them apart). A function is long when its body runs
//! past a limit; it may stay long when its doc comment says why, in a
//! sentence that starts with `Long:` (a dispatch with one arm per opcode
//! reads best whole).

use crate::layers::{code_of, is_test_file};

/// A function of non-test code, with its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The file, relative to the tree given to [`functions`].
    pub file: String,
    /// 1-based line of `fn`.
    pub line: usize,
    /// The function's name.
    pub name: String,
    /// Lines from `fn` to its closing brace, both included.
    pub lines: usize,
    /// Whether its doc comment has a `Long:` sentence.
    pub has_reason: bool,
}

/// The name of the function declared on `line`, if any (`pub(crate) const
/// unsafe fn name` and the like).
fn declared_fn(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        let before = rest;
        for prefix in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "unsafe ",
            "async ",
        ] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        if rest.starts_with("extern ") {
            rest = rest.split_once("\" ").map_or(rest, |(_, r)| r);
        }
        if rest == before {
            break;
        }
    }
    let name = rest.strip_prefix("fn ")?;
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    (end > 0).then(|| &name[..end])
}

/// Every function with a body in the non-test code of `files` (path, source).
pub fn functions(files: &[(String, String)]) -> Vec<Function> {
    let mut out = Vec::new();
    for (file, source) in files {
        if is_test_file(file) {
            continue;
        }
        let code = code_of(source);
        let code_lines: Vec<&str> = code.lines().collect();
        let raw_lines: Vec<&str> = source.lines().collect();
        for (i, line) in code_lines.iter().enumerate() {
            let Some(name) = declared_fn(line) else {
                continue;
            };
            let Some(end) = body_end(&code_lines, i) else {
                continue;
            };
            let has_reason = raw_lines[..i]
                .iter()
                .rev()
                .map(|l| l.trim_start())
                .take_while(|l| l.starts_with("///") || l.starts_with("#["))
                .any(|l| l.contains("Long:"));
            out.push(Function {
                file: file.clone(),
                line: i + 1,
                name: name.to_owned(),
                lines: end - i + 1,
                has_reason,
            });
        }
    }
    out
}

/// The 0-based line of the brace closing the body of the `fn` on line
/// `start` (`None` for a declaration without a body).
fn body_end(lines: &[&str], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut opened = false;
    for (i, line) in lines.iter().enumerate().skip(start) {
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth = depth.saturating_sub(1),
                ';' if !opened && depth == 0 => return None,
                _ => {}
            }
            if opened && depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_measured_and_their_reasons_found() {
        let source = "\
/// Short.
pub(crate) fn short() {
    let s = \"{\";
    let (c, d, r) = (b'{', '\\'', r#\"}\"#);
}

/// Long: one arm per opcode.
#[inline]
fn long(x: u32) -> u32 {
    match x {
        0 => 1,
        _ => 2,
    }
}

fn declared();

#[cfg(test)]
mod tests {
    fn not_counted() {}
}
";
        let files = vec![("a.rs".to_owned(), source.to_owned())];
        let found = functions(&files);
        let got: Vec<(usize, &str, usize, bool)> = found
            .iter()
            .map(|f| (f.line, f.name.as_str(), f.lines, f.has_reason))
            .collect();
        assert_eq!(got, [(2, "short", 4, false), (9, "long", 6, true)]);
        let tests = vec![("x/tests.rs".to_owned(), source.to_owned())];
        assert!(functions(&tests).is_empty());
    }
}
