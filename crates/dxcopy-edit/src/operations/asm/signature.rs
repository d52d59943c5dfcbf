//! Signature parts rebuilt from a listing's `// Input signature:`,
//! `// Output signature:` and `// Patch Constant signature:` tables
//! (the columns dxcopy-read's `listing::dxbc::header::signatures` prints; names
//! read back through its `system_value_name` and `component_type_name`).
//!
//! The table's form says the part: an `m1:` stream prefix on a semantic
//! name makes OSG5, a minimum precision in the Format column makes
//! ISG1/OSG1/PSG1, otherwise ISGN/OSGN/PCSG. The part is laid out as fxc
//! lays it out: the elements, then each distinct semantic name once, NUL
//! terminated, the end padded to four bytes with `0xAB`.

use super::{AsmError, AsmErrorKind};
use dxcopy_read::listing::dxbc::header::signatures::{component_type_name, system_value_name};
use dxcopy_read::{PartName, ShaderKind};

/// Which table a signature fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableRole {
    /// `// Input signature:`.
    Input,
    /// `// Output signature:`.
    Output,
    /// `// Patch Constant signature:`.
    PatchConstant,
}

/// One row of a signature table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureRow {
    /// Semantic name.
    pub name: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// `D3D_NAME` as stored (0 for a pixel shader's targets and depth).
    pub system_value: u32,
    /// Register component type.
    pub component_type: u32,
    /// Register (`u32::MAX` for `oDepth` and the other register-less ones).
    pub register: u32,
    /// Component mask.
    pub mask: u8,
    /// Read/write mask as stored.
    pub rw_mask: u8,
    /// Stream (`m1:` prefix).
    pub stream: u32,
    /// Minimum precision (0 none).
    pub min_precision: u32,
}

/// A signature table read from a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureTable {
    /// The table.
    pub role: TableRole,
    /// Its rows.
    pub rows: Vec<SignatureRow>,
    /// 1-based line of the table's heading.
    pub line: u32,
}

impl SignatureTable {
    /// The part the table's form implies.
    pub fn part_name(&self) -> PartName {
        let streams = self.rows.iter().any(|r| r.stream != 0);
        let precise = self.rows.iter().any(|r| r.min_precision != 0);
        PartName(*match (self.role, precise, streams) {
            (TableRole::Input, false, _) => b"ISGN",
            (TableRole::Input, true, _) => b"ISG1",
            (TableRole::Output, true, _) => b"OSG1",
            (TableRole::Output, false, true) => b"OSG5",
            (TableRole::Output, false, false) => b"OSGN",
            (TableRole::PatchConstant, false, _) => b"PCSG",
            (TableRole::PatchConstant, true, _) => b"PSG1",
        })
    }

    /// The part's bytes, as fxc lays them out, for `name` (one of the
    /// seven signature parts).
    pub fn to_part(&self, name: PartName) -> Vec<u8> {
        let (stream, precision) = match &name.0 {
            b"OSG5" => (true, false),
            b"ISG1" | b"OSG1" | b"PSG1" => (true, true),
            _ => (false, false),
        };
        let element_size = 24 + 4 * u32::from(stream) + 4 * u32::from(precision);
        let elements_end = 8 + element_size * self.rows.len() as u32;
        let mut names: Vec<(&str, u32)> = Vec::new();
        let mut strings = Vec::new();
        let mut out = Vec::new();
        let push = |out: &mut Vec<u8>, v: u32| out.extend(v.to_le_bytes());
        push(&mut out, self.rows.len() as u32);
        push(&mut out, 8);
        for row in &self.rows {
            let offset = match names.iter().find(|(n, _)| *n == row.name) {
                Some((_, o)) => *o,
                None => {
                    let o = elements_end + strings.len() as u32;
                    strings.extend(row.name.as_bytes());
                    strings.push(0);
                    names.push((&row.name, o));
                    o
                }
            };
            if stream {
                push(&mut out, row.stream);
            }
            push(&mut out, offset);
            push(&mut out, row.semantic_index);
            push(&mut out, row.system_value);
            push(&mut out, row.component_type);
            push(&mut out, row.register);
            out.extend([row.mask, row.rw_mask, 0, 0]);
            if precision {
                push(&mut out, row.min_precision);
            }
        }
        out.extend(strings);
        while out.len() % 4 != 0 {
            out.push(0xab);
        }
        out
    }
}

fn letters_mask(text: &str) -> Option<u8> {
    let mut mask = 0;
    for c in text.chars() {
        mask |= match c {
            'x' | 'r' => 1,
            'y' | 'g' => 2,
            'z' | 'b' => 4,
            'w' | 'a' => 8,
            ' ' => 0,
            _ => return None,
        };
    }
    Some(mask)
}

const MIN_PRECISION_FORMATS: [(&str, u32, u32); 5] = [
    // (format column, min precision, component type)
    ("min16f", 1, 3),
    ("min2_8f", 2, 3),
    ("min12i", 3, 2),
    ("min16i", 4, 2),
    ("min16u", 5, 1),
];

fn system_value_code(name: &str) -> Option<u32> {
    (0..=128).find(|&c| system_value_name(c).eq_ignore_ascii_case(name))
}

fn component_type_code(name: &str) -> Option<u32> {
    (0..=9).find(|&c| component_type_name(c).eq_ignore_ascii_case(name))
}

fn parse_row(row: &str, role: TableRole, stage: ShaderKind) -> Option<SignatureRow> {
    let row = row.trim_end();
    let mut words = row.split_whitespace();
    let mut name = words.next()?.to_string();
    let mut stream = 0;
    if let Some((m, rest)) = name.split_once(':') {
        stream = m.strip_prefix('m')?.parse().ok()?;
        name = rest.to_string();
    }
    let semantic_index: u32 = words.next()?.parse().ok()?;
    // The rest after the index: the mask (letters and spaces), then the
    // register, system value, format and used columns.
    let after_index = {
        let start = row.find(&name)? + name.len();
        let tail = &row[start..];
        let index_text = semantic_index.to_string();
        let at = tail.find(&index_text)? + index_text.len();
        &tail[at..]
    };
    let inverted = match role {
        TableRole::Input => false,
        TableRole::Output => true,
        TableRole::PatchConstant => stage == ShaderKind::Hull,
    };
    let (format, rest_words): (String, Vec<&str>);
    let (register, mask, used);
    let trimmed = after_index.trim_start();
    if let Some(rest) = trimmed.strip_prefix("N/A") {
        let w: Vec<&str> = rest.split_whitespace().collect();
        // register name, system value, format, YES/NO
        let [_, sv, fmt, yes] = w.as_slice() else {
            return None;
        };
        register = u32::MAX;
        mask = 1;
        format = fmt.to_string();
        rest_words = vec![sv];
        used = u8::from(yes.eq_ignore_ascii_case("YES"));
    } else {
        let digit = after_index.find(|c: char| c.is_ascii_digit())?;
        mask = letters_mask(&after_index[..digit].trim().replace(' ', ""))?;
        let rest = &after_index[digit..];
        let mut it = rest.splitn(2, char::is_whitespace);
        register = it.next()?.parse().ok()?;
        let rest = it.next()?.trim_start();
        let mut it = rest.splitn(2, char::is_whitespace);
        let sv = it.next()?;
        let rest = it.next()?.trim_start();
        let mut it = rest.splitn(2, char::is_whitespace);
        format = it.next()?.to_string();
        used = letters_mask(it.next().unwrap_or("").trim())?;
        rest_words = vec![sv];
    }
    let mut system_value =
        system_value_code(rest_words[0]).or_else(|| rest_words[0].parse().ok())?;
    if role == TableRole::Output && stage == ShaderKind::Pixel && system_value >= 64 {
        // The listing names a pixel shader's targets and depth outputs;
        // the part stores 0.
        system_value = 0;
    }
    let (component_type, min_precision) = match MIN_PRECISION_FORMATS
        .iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(&format))
    {
        Some((_, p, t)) => (*t, *p),
        None => (
            component_type_code(&format).or_else(|| format.parse().ok())?,
            0,
        ),
    };
    let rw_mask = if inverted { !used & 0xf } else { used };
    Some(SignatureRow {
        name,
        semantic_index,
        system_value,
        component_type,
        register,
        mask,
        rw_mask,
        stream,
        min_precision,
    })
}

/// The signature tables in the comment lines before line `profile_line`
/// (0-based) of `text`.
pub(crate) fn parse_tables(
    text: &str,
    profile_line: usize,
    stage: ShaderKind,
) -> Result<Vec<SignatureTable>, AsmError> {
    let mut tables = Vec::new();
    let lines: Vec<&str> = text.lines().take(profile_line).collect();
    let mut i = 0;
    while i < lines.len() {
        let body = comment_body(lines[i]);
        let role = match body.map(str::trim) {
            Some("Input signature:") => TableRole::Input,
            Some("Output signature:") => TableRole::Output,
            Some("Patch Constant signature:") => TableRole::PatchConstant,
            _ => {
                i += 1;
                continue;
            }
        };
        let heading = i;
        i += 1;
        let mut rows = Vec::new();
        let mut seen_dashes = false;
        while i < lines.len() {
            let Some(body) = comment_body(lines[i]) else {
                break;
            };
            let t = body.trim();
            if t.starts_with("---") {
                seen_dashes = true;
            } else if t.starts_with("Name ") || t.starts_with("no ") {
            } else if t.is_empty() {
                if seen_dashes || !rows.is_empty() {
                    i += 1;
                    break;
                }
            } else if seen_dashes {
                let row = parse_row(body, role, stage).ok_or_else(|| {
                    let column = lines[i].find(t).unwrap_or(0) + 1;
                    AsmError::new(
                        i as u32 + 1,
                        column as u32,
                        AsmErrorKind::BadSignatureRow(t.to_string()),
                    )
                })?;
                rows.push(row);
            } else {
                break;
            }
            i += 1;
        }
        tables.push(SignatureTable {
            role,
            rows,
            line: heading as u32 + 1,
        });
    }
    Ok(tables)
}

/// The text after `//` of a comment line.
fn comment_body(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let body = t.strip_prefix("//")?;
    Some(body.strip_prefix(' ').unwrap_or(body))
}
