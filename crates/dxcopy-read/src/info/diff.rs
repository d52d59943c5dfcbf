//! What differs between two containers, by meaning (`dxinfo --diff`): parts
//! added, removed or resized, every decoded field that changed (from the
//! same documents `dxinfo --json` prints), and for DXBC programs the lines
//! of the listing that changed. What only says "rebuilt" — the header
//! digest, the HASH part, the ILDN debug name, the PDB path in PRIV and
//! where each part lies in the file — is left out unless
//! [`DiffOptions::exact`].
//!
//! Parts are matched by name and, among parts of one name, by order.

use super::json::document;
use super::Inspection;
use crate::listing::dxbc::{self, ListingOptions};
use crate::name::PartName;
use serde_json::Value;

/// How [`diff`] compares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DiffOptions {
    /// Also report what a rebuild changes without changing the shader (the
    /// digest, HASH, ILDN, part offsets and checksums).
    pub exact: bool,
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// A part only the second container has.
    PartAdded {
        /// Its name.
        part: String,
        /// Its size.
        size: u32,
    },
    /// A part only the first container has.
    PartRemoved {
        /// Its name.
        part: String,
        /// Its size.
        size: u32,
    },
    /// A part of another size.
    PartResized {
        /// Its name.
        part: String,
        /// Size in the first container.
        from: u32,
        /// Size in the second.
        to: u32,
    },
    /// A decoded field (or a part's bytes, when it has no decoder) that
    /// differs.
    Field {
        /// `header` or the part's name.
        part: String,
        /// Where in the part's document (`decoded.resources[2].space`).
        path: String,
        /// The value in the first container (JSON), `null` when absent.
        from: String,
        /// The value in the second.
        to: String,
    },
    /// The DXBC listings differ: their changed lines, `-` first, `+` second.
    Listing {
        /// Unified-diff lines (`-ret `, `+ret `), with `@@ -a,n +b,m @@`
        /// headers.
        lines: Vec<String>,
    },
}

/// Every difference, in container order.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ContainerDiff {
    /// The differences.
    pub changes: Vec<Change>,
}

impl ContainerDiff {
    /// Whether the containers are the same (for what was compared).
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

/// Document fields that change whenever a container is rebuilt.
const REBUILD_FIELDS: &[&str] = &["offset", "data_offset", "crc32", "alignment", "index"];

/// Whether the decoded field `path` of part `part` is a file offset (a
/// declaration's or section's place in the file), which moves whenever a
/// part before it changes size. RDEF's `offset` fields are places inside
/// the part (a struct member's byte offset), not file offsets.
fn is_file_offset(part: &str, path: &str) -> bool {
    part != "RDEF"
        && path.starts_with("decoded.")
        && (path.ends_with(".offset") || path.ends_with("_file_offset"))
}

/// Compares `a` with `b`.
pub fn diff(a: &Inspection<'_>, b: &Inspection<'_>, options: &DiffOptions) -> ContainerDiff {
    let mut changes = Vec::new();
    let doc =
        |insp: &Inspection<'_>| serde_json::to_value(document("", insp)).unwrap_or(Value::Null);
    let (da, db) = (doc(a), doc(b));
    // The header: version and sizes; the digest only when exact.
    let mut header = |key: &str, exact_only: bool| {
        if exact_only && !options.exact {
            return;
        }
        let (x, y) = (&da["header"][key], &db["header"][key]);
        if x != y {
            changes.push(Change::Field {
                part: "header".into(),
                path: key.into(),
                from: x.to_string(),
                to: y.to_string(),
            });
        }
    };
    header("version", false);
    header("digest", true);
    header("digest_kind", true);
    let parts = |d: &Value| d["parts"].as_array().cloned().unwrap_or_default();
    let (pa, pb) = (parts(&da), parts(&db));
    let key = |p: &Value| p["name"].as_str().unwrap_or_default().to_owned();
    let nth = |list: &[Value], name: &str, n: usize| {
        list.iter().filter(|p| key(p) == name).nth(n).cloned()
    };
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut occurrence = |name: &str| {
        let n = seen.iter().filter(|(s, _)| s == name).count();
        seen.push((name.to_owned(), n));
        n
    };
    for p in &pa {
        let name = key(p);
        let n = occurrence(&name);
        let size = |p: &Value| p["size"].as_u64().unwrap_or(0) as u32;
        match nth(&pb, &name, n) {
            None => changes.push(Change::PartRemoved {
                part: name,
                size: size(p),
            }),
            Some(q) => {
                if !options.exact && is_rebuild_part(&name) {
                    continue;
                }
                if size(p) != size(&q) {
                    changes.push(Change::PartResized {
                        part: name.clone(),
                        from: size(p),
                        to: size(&q),
                    });
                }
                let mut fields = Vec::new();
                compare(p, &q, String::new(), options, &mut fields);
                if !options.exact {
                    fields.retain(|(path, ..)| !is_file_offset(&name, path));
                }
                if p["decoded"]["kind"] == "unknown" || p["decoded"].is_null() {
                    // No decoder: the bytes say it.
                    if p["crc32"] != q["crc32"] && !options.exact {
                        fields.push((
                            "bytes".into(),
                            p["crc32"].to_string(),
                            q["crc32"].to_string(),
                        ));
                    }
                }
                changes.extend(fields.into_iter().map(|(path, from, to)| Change::Field {
                    part: name.clone(),
                    path,
                    from,
                    to,
                }));
            }
        }
    }
    let mut counts: Vec<(String, usize)> = Vec::new();
    for q in &pb {
        let name = key(q);
        let n = counts.iter().filter(|(s, _)| *s == name).count();
        counts.push((name.clone(), n));
        if nth(&pa, &name, n).is_none() {
            changes.push(Change::PartAdded {
                part: name,
                size: q["size"].as_u64().unwrap_or(0) as u32,
            });
        }
    }
    let listing = |insp: &Inspection<'_>| {
        dxbc::listing(&insp.container, "", &ListingOptions::default())
            .ok()
            .map(|l| l.text)
    };
    if let (Some(x), Some(y)) = (listing(a), listing(b)) {
        if x != y {
            changes.push(Change::Listing {
                lines: line_diff(&x, &y),
            });
        }
    }
    ContainerDiff { changes }
}

/// Parts whose content only a rebuild changes.
fn is_rebuild_part(name: &str) -> bool {
    name == PartName::HASH.to_string() || name == PartName::ILDN.to_string()
}

/// The fields of two part documents that differ, as (path, from, to).
fn compare(
    a: &Value,
    b: &Value,
    path: String,
    options: &DiffOptions,
    out: &mut Vec<(String, String, String)>,
) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                // The name matched the parts; a new size is PartResized.
                if path.is_empty()
                    && (k == "name"
                        || k == "size"
                        || (!options.exact && REBUILD_FIELDS.contains(&k.as_str())))
                {
                    continue;
                }
                let child = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                compare(
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                    child,
                    options,
                    out,
                );
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                compare(
                    x.get(i).unwrap_or(&Value::Null),
                    y.get(i).unwrap_or(&Value::Null),
                    format!("{path}[{i}]"),
                    options,
                    out,
                );
            }
        }
        _ if a != b => out.push((path, a.to_string(), b.to_string())),
        _ => {}
    }
}

/// A unified diff of two texts' lines (three lines of context), by longest
/// common subsequence over the lines that differ once the common head and
/// tail are set aside; a change too large for that (more than 4,000 lines
/// on both sides) is shown whole.
fn line_diff(a: &str, b: &str) -> Vec<String> {
    let (x, y): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let head = x.iter().zip(&y).take_while(|(p, q)| p == q).count();
    let tail = x[head..]
        .iter()
        .rev()
        .zip(y[head..].iter().rev())
        .take_while(|(p, q)| p == q)
        .count();
    let (mx, my) = (&x[head..x.len() - tail], &y[head..y.len() - tail]);
    // Edit script over the middle: (kind, line).
    let mut script: Vec<(char, &str)> = Vec::new();
    if mx.len().saturating_mul(my.len()) <= 16_000_000 {
        let (n, m) = (mx.len(), my.len());
        let mut lcs = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i * (m + 1) + j] = if mx[i] == my[j] {
                    lcs[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    lcs[(i + 1) * (m + 1) + j].max(lcs[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && mx[i] == my[j] {
                script.push((' ', mx[i]));
                i += 1;
                j += 1;
            } else if i < n && (j == m || lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) {
                script.push(('-', mx[i]));
                i += 1;
            } else {
                script.push(('+', my[j]));
                j += 1;
            }
        }
    } else {
        script.extend(mx.iter().map(|l| ('-', *l)));
        script.extend(my.iter().map(|l| ('+', *l)));
    }
    // The whole script: the common head and tail around the middle.
    let mut full: Vec<(char, &str)> = x[..head].iter().map(|l| (' ', *l)).collect();
    full.extend(script);
    full.extend(x[x.len() - tail..].iter().map(|l| (' ', *l)));
    hunks(&full, 3)
}

/// Unified-diff hunks of an edit script, `context` lines around each
/// change; changes closer than twice that share a hunk.
fn hunks(script: &[(char, &str)], context: usize) -> Vec<String> {
    let changed: Vec<usize> = (0..script.len()).filter(|&i| script[i].0 != ' ').collect();
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &i in &changed {
        let (start, end) = (
            i.saturating_sub(context),
            (i + context + 1).min(script.len()),
        );
        match groups.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => groups.push((start, end)),
        }
    }
    let mut lines = Vec::new();
    for (start, end) in groups {
        let count = |range: &[(char, &str)], kind: char| {
            range
                .iter()
                .filter(|(k, _)| *k == ' ' || *k == kind)
                .count()
        };
        let (before, hunk) = (&script[..start], &script[start..end]);
        let (count_a, count_b) = (count(hunk, '-'), count(hunk, '+'));
        let (line_a, line_b) = (count(before, '-') + 1, count(before, '+') + 1);
        // An empty side starts at the line before, as diff writes it.
        let at = |line: usize, n: usize| if n == 0 { line - 1 } else { line };
        lines.push(format!(
            "@@ -{},{count_a} +{},{count_b} @@",
            at(line_a, count_a),
            at(line_b, count_b)
        ));
        lines.extend(hunk.iter().map(|(kind, line)| format!("{kind}{line}")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{build, sign};

    fn inspect(bytes: &[u8]) -> Inspection<'_> {
        Inspection::parse(bytes).unwrap()
    }

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn a_rebuild_is_no_difference_unless_exact() {
        let a = sign(build(&[(b"SFI0", &[0; 8]), (b"ILDN", b"\0\0\x03\0a.p\0")]));
        let mut b = build(&[(b"SFI0", &[0; 8]), (b"ILDN", b"\0\0\x03\0b.p\0")]);
        b[4] = 1; // another digest
        let d = diff(&inspect(&a), &inspect(&b), &DiffOptions::default());
        assert!(d.is_empty(), "{d:?}");
        let d = diff(&inspect(&a), &inspect(&b), &DiffOptions { exact: true });
        let paths: Vec<String> = d
            .changes
            .iter()
            .map(|c| match c {
                Change::Field { part, path, .. } => format!("{part}.{path}"),
                other => format!("{other:?}"),
            })
            .collect();
        assert!(paths.contains(&"header.digest".to_string()), "{paths:?}");
        assert!(
            paths.contains(&"ILDN.decoded.name".to_string()),
            "{paths:?}"
        );
    }

    #[test]
    fn parts_fields_and_listings() {
        // vs_4_0: ret, and then a second program with mov r0.x, l(1.0).
        let a = build(&[
            (b"SFI0", &[0; 8]),
            (b"SHDR", &le(&[0x0001_0040, 3, 0x0100_003e])),
            (b"PRIV", b"x"),
        ]);
        let mov = [0x0500_0036, 0x0010_0012, 0, 0x0000_4001, 1.0f32.to_bits()];
        let mut words = vec![0x0001_0040, 9];
        words.extend(mov);
        words.push(0x0100_003e);
        words[1] = words.len() as u32;
        let b = build(&[
            (b"SFI0", &[2, 0, 0, 0, 0, 0, 0, 0]),
            (b"SHDR", &le(&words)),
            (b"STAT", &[0; 4]),
        ]);
        let d = diff(&inspect(&a), &inspect(&b), &DiffOptions::default());
        let kinds: Vec<String> = d
            .changes
            .iter()
            .map(|c| match c {
                Change::PartAdded { part, .. } => format!("+{part}"),
                Change::PartRemoved { part, .. } => format!("-{part}"),
                Change::PartResized { part, from, to } => format!("{part} {from}->{to}"),
                Change::Field { part, path, .. } => format!("{part}.{path}"),
                Change::Listing { lines } => format!("listing {}", lines.join("|")),
            })
            .collect();
        assert!(
            kinds.contains(&"SFI0.decoded.flags.value".to_string()),
            "{kinds:?}"
        );
        assert!(kinds.contains(&"SHDR 12->32".to_string()), "{kinds:?}");
        assert!(!kinds.contains(&"SHDR.size".to_string()), "{kinds:?}");
        assert!(kinds.contains(&"-PRIV".to_string()), "{kinds:?}");
        assert!(kinds.contains(&"+STAT".to_string()), "{kinds:?}");
        let listing = kinds.iter().find(|k| k.starts_with("listing")).unwrap();
        assert!(listing.contains("|+mov r0.x, l(1.000000)|"), "{listing}");
    }

    /// A part that grows moves the declarations after it: their file
    /// offsets are no difference unless exact.
    #[test]
    fn moved_declarations_are_no_difference() {
        let program = le(&[0x0000_0040, 5, 0x0200_0068, 1, 0x0100_003e]);
        let a = build(&[(b"SFI0", &[0; 8]), (b"SHDR", &program)]);
        let b = build(&[(b"SFI0", &[0; 8]), (b"PRIV", &[0; 16]), (b"SHDR", &program)]);
        let d = diff(&inspect(&a), &inspect(&b), &DiffOptions::default());
        assert_eq!(
            d.changes,
            [Change::PartAdded {
                part: "PRIV".into(),
                size: 16
            }]
        );
        let d = diff(&inspect(&a), &inspect(&b), &DiffOptions { exact: true });
        assert!(
            d.changes
                .iter()
                .any(|c| matches!(c, Change::Field { path, .. }
                if path == "decoded.program.declarations[0].offset")),
            "{d:?}"
        );
        assert!(is_file_offset(
            "SHEX",
            "decoded.program.declarations[3].offset"
        ));
        assert!(!is_file_offset(
            "RDEF",
            "decoded.constant_buffers[0].variables[1].offset"
        ));
    }

    #[test]
    fn line_diffs_are_unified() {
        let a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
        let b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\neleven\n";
        assert_eq!(
            line_diff(a, b),
            [
                "@@ -2,9 +2,10 @@",
                " 2",
                " 3",
                " 4",
                "-5",
                "+five",
                " 6",
                " 7",
                " 8",
                " 9",
                " 10",
                "+eleven",
            ]
        );
        // Changes far apart get hunks of their own.
        let many: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let other = many.replace("2\n3\n", "2\nthree\n").replace("18\n", "");
        assert_eq!(
            line_diff(&many, &other),
            [
                "@@ -1,6 +1,6 @@",
                " 1",
                " 2",
                "-3",
                "+three",
                " 4",
                " 5",
                " 6",
                "@@ -15,6 +15,5 @@",
                " 15",
                " 16",
                " 17",
                "-18",
                " 19",
                " 20",
            ]
        );
        assert!(line_diff(a, a).is_empty());
    }
}
