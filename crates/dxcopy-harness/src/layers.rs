//! The import layering of the crates, checked from their source: every
//! `crate::`, `super::` and `self::` path in a file is resolved to the module
//! it names, and an import from a lower layer into a higher one, or a loop
//! between the top-level modules of a crate, is reported with its file and
//! line.
//!
//! A crate's layers are a list of module paths ([`Layer`]), bottom first; a
//! module belongs to the layer of the longest path that is a prefix of it. A
//! module that no layer names is reported too, so that a new top-level
//! module has to be placed. Test code (`tests.rs`, `*_tests.rs`, the test
//! builders, and everything after a file's `#[cfg(test)]`) is not checked:
//! a test may build its input with anything in the crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One layer: its name (for messages) and the module paths it holds
/// (`"parts"`, `"listing::dxbc"`; `""` is the crate root).
#[derive(Debug, Clone, Copy)]
pub struct Layer {
    /// Shown in messages.
    pub name: &'static str,
    /// The modules of the layer, as paths below the crate root.
    pub modules: &'static [&'static str],
}

/// An import that runs against the layering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The file, relative to the crate's `src`.
    pub file: String,
    /// 1-based line of the path.
    pub line: usize,
    /// What is wrong, in one sentence.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// The module path of a source file (`parts/psv0.rs` → `parts::psv0`,
/// `info/mod.rs` → `info`, `lib.rs` → the root).
pub fn module_of(file: &str) -> Vec<String> {
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    let mut segments: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if matches!(
        segments.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        segments.pop();
    }
    segments
}

/// Whether a file holds only test code.
pub(crate) fn is_test_file(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    name == "tests.rs"
        || name.ends_with("_tests.rs")
        || matches!(name, "testutil.rs" | "fixtures.rs" | "test_module.rs")
        || file.contains("/tests/")
}

/// The source with comments, string and char literals blanked (newlines
/// kept, so line numbers stay), cut at the first inline `#[cfg(test)]`
/// module.
pub(crate) fn code_of(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &source[i..];
        if let Some(after) = rest.strip_prefix("#[cfg(test)]") {
            // An inline test module ends the checked code; a declared one
            // (`mod tests;`) is a file of its own.
            let item = after.trim_start();
            let item = item.strip_prefix("pub(crate) ").unwrap_or(item);
            let inline = item
                .strip_prefix("mod ")
                .and_then(|m| m.find(['{', ';']).map(|e| m.as_bytes()[e] == b'{'));
            if inline == Some(true) {
                break;
            }
        }
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            i += end;
            continue;
        }
        if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |e| e + 2);
            out.extend(rest[..end].chars().filter(|c| *c == '\n'));
            i += end;
            continue;
        }
        let after_ident = i > 0 && {
            let p = bytes[i - 1];
            p.is_ascii_alphanumeric() || p == b'_'
        };
        if !after_ident && (rest.starts_with("r\"") || rest.starts_with("r#")) {
            // A raw string: `r"…"`, `r#"…"#`, with as many `#` to close.
            let hashes = rest[1..].bytes().take_while(|&b| b == b'#').count();
            if rest.as_bytes().get(1 + hashes) == Some(&b'"') {
                let close = format!("\"{}", "#".repeat(hashes));
                let body = 2 + hashes;
                let end = rest[body..]
                    .find(&close)
                    .map_or(rest.len(), |e| body + e + close.len());
                out.push_str("\"\"");
                out.extend(rest[..end].chars().filter(|c| *c == '\n'));
                i += end;
                continue;
            }
        }
        if let Some(quoted) = rest.strip_prefix('\'') {
            // A char literal (`'x'`, `'\''`, `'\u{1F}'`) is blanked; a
            // lifetime (`'a`) is kept.
            let end = if quoted.starts_with('\\') {
                rest.get(3..).and_then(|r| r.find('\'')).map(|e| 3 + e + 1)
            } else {
                let first = quoted.chars().next().map_or(0, char::len_utf8);
                (quoted.as_bytes().get(first) == Some(&b'\'')).then_some(2 + first)
            };
            if let Some(end) = end {
                out.push_str("' '");
                i += end;
                continue;
            }
        }
        if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() {
                match rest.as_bytes()[j] {
                    b'\\' => j += 2,
                    b'"' => break,
                    _ => j += 1,
                }
            }
            let end = (j + 1).min(rest.len());
            out.push_str("\"\"");
            out.extend(rest[..end].chars().filter(|c| *c == '\n'));
            i += end;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Every path starting at `crate::`, `super::` or `self::` in `code`, with its
/// line; a `use` tree (`crate::a::{b, c::d}`) gives one path per leaf.
fn paths_of(code: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate", "super", "self"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start).map(|a| a + from) {
            from = at + start.len();
            let before = at.checked_sub(1).map(|b| bytes[b]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            if !code[from..].trim_start().starts_with("::") {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            let (trees, _) = tree(code, at);
            for path in trees {
                found.push((line, path));
            }
        }
    }
    found
}

/// Parses a path tree at `at`: the leaf paths and the end offset.
fn tree(code: &str, mut at: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    loop {
        let rest = &code[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with('{') {
            at += 1;
            let mut leaves = Vec::new();
            loop {
                let (sub, end) = tree(code, at);
                at = end;
                leaves.extend(sub.into_iter().map(|s| [prefix.clone(), s].concat()));
                let rest = &code[at..];
                let trimmed = rest.trim_start();
                at += rest.len() - trimmed.len();
                if let Some(t) = trimmed.strip_prefix(',') {
                    at += 1;
                    if t.trim_start().starts_with('}') {
                        at += t.len() - t.trim_start().len() + 1;
                        break;
                    }
                } else {
                    if trimmed.starts_with('}') {
                        at += 1;
                    }
                    break;
                }
            }
            return (leaves, at);
        }
        let len = trimmed
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '*'))
            .unwrap_or(trimmed.len());
        if len == 0 {
            return (vec![prefix], at);
        }
        prefix.push(trimmed[..len].to_owned());
        at += len;
        let rest = &code[at..];
        match rest.trim_start().strip_prefix("::") {
            Some(_) => at += rest.len() - rest.trim_start().len() + 2,
            None => return (vec![prefix], at),
        }
    }
}

/// Checks one crate: `files` are (path relative to `src`, source) pairs,
/// `layers` bottom first.
pub fn check(files: &[(String, String)], layers: &[Layer]) -> Vec<Violation> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(f, _)| module_of(f)).collect();
    let aliases = files
        .iter()
        .find(|(f, _)| f == "lib.rs")
        .map(|(_, s)| aliases_of(&code_of(s), &modules))
        .unwrap_or_default();
    let layer_of = |module: &[String]| -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for (rank, layer) in layers.iter().enumerate() {
            for m in layer.modules {
                let path: Vec<&str> = if m.is_empty() {
                    Vec::new()
                } else {
                    m.split("::").collect()
                };
                let matches = if path.is_empty() {
                    module.is_empty()
                } else {
                    path.len() <= module.len()
                        && path.iter().zip(module).all(|(a, b)| *a == b.as_str())
                };
                if matches && best.is_none_or(|(len, _)| path.len() > len) {
                    best = Some((path.len(), rank));
                }
            }
        }
        best.map(|(_, rank)| rank)
    };
    let mut violations = Vec::new();
    let mut top_edges: BTreeMap<String, BTreeMap<String, (String, usize)>> = BTreeMap::new();
    for (file, source) in files {
        let here = module_of(file);
        if is_test_file(file) {
            continue;
        }
        let Some(from_layer) = layer_of(&here) else {
            violations.push(Violation {
                file: file.clone(),
                line: 1,
                message: format!("module `{}` is in no layer", here.join("::")),
            });
            continue;
        };
        for (line, path) in paths_of(&code_of(source)) {
            let mut target: Vec<String> = match path.first().map(String::as_str) {
                Some("crate") => Vec::new(),
                _ => here.clone(),
            };
            let mut rest = path
                .iter()
                .skip(usize::from(path.first().is_some_and(|s| s == "crate")));
            for segment in rest.by_ref() {
                match segment.as_str() {
                    "super" => {
                        target.pop();
                    }
                    "self" => {}
                    _ => {
                        target.push(segment.clone());
                        break;
                    }
                }
            }
            target.extend(rest.cloned());
            if let Some(real) = target.first().and_then(|first| aliases.get(first)) {
                if !modules.contains(&target[..1]) {
                    target.splice(..1, real.iter().cloned());
                }
            }
            let Some(module) = (0..=target.len())
                .rev()
                .map(|n| target[..n].to_vec())
                .find(|m| modules.contains(m))
            else {
                continue;
            };
            if module.is_empty() || module == here {
                continue;
            }
            let Some(to_layer) = layer_of(&module) else {
                continue;
            };
            if to_layer > from_layer {
                violations.push(Violation {
                    file: file.clone(),
                    line,
                    message: format!(
                        "`{}` ({}) imports `{}` ({}), a higher layer",
                        here.join("::"),
                        layers[from_layer].name,
                        module.join("::"),
                        layers[to_layer].name
                    ),
                });
            }
            if let (Some(a), Some(b)) = (here.first(), module.first()) {
                if a != b {
                    top_edges
                        .entry(a.clone())
                        .or_default()
                        .entry(b.clone())
                        .or_insert((file.clone(), line));
                }
            }
        }
    }
    for (a, bs) in &top_edges {
        for (b, (file, line)) in bs {
            if a < b && reaches(&top_edges, b, a) {
                violations.push(Violation {
                    file: file.clone(),
                    line: *line,
                    message: format!("`{a}` imports `{b}`, and `{b}` imports `{a}` back: a loop"),
                });
            }
        }
    }
    violations
}

/// The crate root's short names for modules (`use parts::{psv0, rts0};`,
/// `pub use run::config;`): the name, and the module it stands for.
fn aliases_of(code: &str, modules: &BTreeSet<Vec<String>>) -> BTreeMap<String, Vec<String>> {
    let mut aliases = BTreeMap::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("use ").map(|a| a + from) {
        from = at + 4;
        if at > 0 && code.as_bytes()[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        for path in tree(code, from).0 {
            if path.len() > 1 && modules.contains(&path) {
                if let Some(last) = path.last() {
                    aliases.insert(last.clone(), path.clone());
                }
            }
        }
    }
    aliases
}

/// Whether `to` is reachable from `from` along the edges.
fn reaches(
    edges: &BTreeMap<String, BTreeMap<String, (String, usize)>>,
    from: &str,
    to: &str,
) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_owned()];
    while let Some(m) = stack.pop() {
        if m == to {
            return true;
        }
        if seen.insert(m.clone()) {
            stack.extend(edges.get(&m).into_iter().flat_map(|e| e.keys().cloned()));
        }
    }
    false
}

/// Reads every `.rs` file below `src` as (relative path, source) pairs.
pub fn read_tree(src: &Path) -> std::io::Result<Vec<(String, String)>> {
    let mut files = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).unwrap_or(&path);
                let rel = rel.to_string_lossy().replace('\\', "/");
                files.push((rel, std::fs::read_to_string(&path)?));
            }
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYERS: &[Layer] = &[
        Layer {
            name: "bottom",
            modules: &["", "cursor"],
        },
        Layer {
            name: "decoders",
            modules: &["parts"],
        },
        Layer {
            name: "views",
            modules: &["info"],
        },
    ];

    fn tree(files: &[(&str, &str)]) -> Vec<(String, String)> {
        files
            .iter()
            .map(|(f, s)| (f.to_string(), s.to_string()))
            .collect()
    }

    #[test]
    fn a_downward_import_passes() {
        let files = tree(&[
            ("lib.rs", "mod cursor; mod parts; mod info;"),
            ("cursor.rs", "pub struct Cursor;"),
            ("parts/mod.rs", "pub mod psv0;"),
            (
                "parts/psv0.rs",
                "use crate::cursor::Cursor;\nuse super::super::cursor;",
            ),
            ("info/mod.rs", "use crate::parts::{psv0::X, self};\n"),
        ]);
        assert_eq!(check(&files, LAYERS), []);
    }

    #[test]
    fn an_upward_import_is_named_with_file_and_line() {
        let files = tree(&[
            ("lib.rs", ""),
            ("cursor.rs", "// crate::info::x in a comment is no import\nuse crate::{\n    info::text::Line,\n};"),
            ("parts/mod.rs", "fn f() { let s = \"crate::info\"; }"),
            ("info/mod.rs", "pub mod text;"),
            ("info/text.rs", ""),
        ]);
        let found = check(&files, LAYERS);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].file, "cursor.rs");
        assert_eq!(found[0].line, 2);
        assert!(
            found[0].message.contains("`info::text` (views)"),
            "{}",
            found[0]
        );
    }

    #[test]
    fn a_loop_between_top_level_modules_is_found() {
        let files = tree(&[
            ("lib.rs", ""),
            ("parts/mod.rs", "pub mod a; pub mod b;"),
            ("parts/a.rs", "use super::b::X;"),
            ("parts/b.rs", "use crate::parts::a::Y;"),
            ("cursor.rs", ""),
            ("info/mod.rs", "use crate::cursor::C;"),
        ]);
        // parts::a ↔ parts::b is inside one top-level module: allowed.
        assert_eq!(check(&files, LAYERS), []);
        let looped = tree(&[
            ("lib.rs", ""),
            ("cursor.rs", ""),
            ("parts/mod.rs", "pub mod a;"),
            ("parts/a.rs", ""),
            ("info/mod.rs", ""),
            ("other.rs", ""),
        ]);
        let mut layers = LAYERS.to_vec();
        layers.push(Layer {
            name: "top",
            modules: &["other", "more"],
        });
        let mut files = looped.clone();
        files.push(("more.rs".into(), "use crate::other::Z;".into()));
        files.retain(|(f, _)| f != "other.rs");
        files.push(("other.rs".into(), "fn f() { crate::more::g(); }".into()));
        let found = check(&files, &layers);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].message.contains("a loop"), "{}", found[0]);
    }

    #[test]
    fn a_module_in_no_layer_and_test_code_are_told_apart() {
        let files = tree(&[
            ("lib.rs", ""),
            (
                "cursor.rs",
                "fn f() {}\n#[cfg(test)]\nmod tests { use crate::info::X; }",
            ),
            ("parts/tests.rs", "use crate::info::X;"),
            ("info/mod.rs", ""),
            ("stray.rs", ""),
        ]);
        let found = check(&files, LAYERS);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].file, "stray.rs");
        assert!(found[0].message.contains("in no layer"));
    }

    /// A short name the crate root gives a module (`use info::text;`) is
    /// followed to the module, past a declared `#[cfg(test)] mod tests;`.
    #[test]
    fn a_root_alias_is_followed() {
        let files = tree(&[
            ("lib.rs", "#[cfg(test)]\nmod tests;\nuse info::text;"),
            ("cursor.rs", "use crate::text::Line;"),
            ("parts/mod.rs", ""),
            ("info/mod.rs", "pub mod text;"),
            ("info/text.rs", ""),
        ]);
        let found = check(&files, LAYERS);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].file.as_str(), found[0].line), ("cursor.rs", 1));
    }
}
