//! Survey rows: one flat row per container, with stable column names
//! (docs/rows.md), for pandas, DuckDB and spreadsheets.
//!
//! A row is read from the container's `dxinfo --json` document
//! ([`crate::info::json::document`]): every cell is a fact a decoder
//! already returned, so a row and the JSON of the same container always
//! agree. The columns are one table, [`COLUMNS`], followed by one column
//! per STAT counter ([`STAT_COUNTERS`], `stat_<Counter>`); [`column_names`]
//! lists them all in order.

use crate::info::json::document;
use crate::info::Inspection;
use crate::stat::STAT_COUNTERS;
use crate::{PartName, StripClass};
use serde_json::Value;
use std::io::{self, Write};

/// One cell: a JSON scalar (`null` for "the container does not record it").
pub type Cell = Value;

/// What a column reads: the document of one container and where it was
/// found.
pub struct Source<'a> {
    /// Where it was found: a file, or `archive.zip!member`.
    pub path: &'a str,
    /// Its offset there.
    pub offset: u64,
    /// Its `dxinfo --json` document.
    pub doc: &'a Value,
}

/// The type of a column's cells (besides null), for typed tables (Arrow,
/// Parquet, DuckDB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    /// Text.
    Text,
    /// A whole number (fits in a signed 64-bit integer).
    Integer,
    /// True or false.
    Bool,
}

impl ColumnType {
    /// `text`, `integer` or `bool`.
    pub fn as_str(self) -> &'static str {
        match self {
            ColumnType::Text => "text",
            ColumnType::Integer => "integer",
            ColumnType::Bool => "bool",
        }
    }
}

/// A column: its name, what it holds and how it is read.
pub struct Column {
    /// The stable name.
    pub name: &'static str,
    /// The type of its cells.
    pub ty: ColumnType,
    /// What it holds (docs/rows.md lists the same).
    pub doc: &'static str,
    /// The cell of one container.
    pub read: fn(&Source<'_>) -> Cell,
}

/// The columns before the STAT counters, in order.
#[rustfmt::skip]
pub const COLUMNS: &[Column] = &[
    Column { name: "path", ty: ColumnType::Text, doc: "the file, or archive!member, holding the container", read: |s| s.path.into() },
    Column { name: "offset", ty: ColumnType::Integer, doc: "byte offset of the container in that file or member", read: |s| s.offset.into() },
    Column { name: "size", ty: ColumnType::Integer, doc: "the container's FileSize", read: |s| s.doc["header"]["file_size"].clone() },
    Column { name: "kind", ty: ColumnType::Text, doc: "DXIL when it has a DXIL part, else DXBC", read: kind },
    Column { name: "stage", ty: ColumnType::Text, doc: "the program's stage (DXIL part, else SHEX/SHDR): Pixel, Vertex, Compute, …", read: stage },
    Column { name: "shader_model", ty: ColumnType::Text, doc: "the program's shader model, major.minor", read: shader_model },
    Column { name: "digest_kind", ty: ColumnType::Text, doc: "retail, debug, zero, bypass, preview or invalid", read: |s| s.doc["header"]["digest_kind"].clone() },
    Column { name: "digest", ty: ColumnType::Text, doc: "the stored container digest, hex", read: |s| s.doc["header"]["digest"].clone() },
    Column { name: "hash", ty: ColumnType::Text, doc: "the HASH part's digest (the shader hash), hex", read: |s| decoded(s, "HASH")["digest"].clone() },
    Column { name: "hash_status", ty: ColumnType::Text, doc: "HASH against its bitcode: valid, mismatch, unverifiable or absent", read: |s| s.doc["verify"]["hash"].clone() },
    Column { name: "compiler", ty: ColumnType::Text, doc: "RDEF's creator string, else the DXIL module's llvm.ident", read: compiler },
    Column { name: "compiler_release", ty: ColumnType::Text, doc: "the dxc release in VERS (1.8.2403.1)", read: |s| decoded(s, "VERS")["version_string"].clone() },
    Column { name: "validator_version", ty: ColumnType::Text, doc: "the DXIL module's dx.valver, major.minor", read: |s| version_of(&module(s)["validator_version"]) },
    Column { name: "dxil_version", ty: ColumnType::Text, doc: "the DXIL module's dx.version, major.minor", read: |s| version_of(&module(s)["dxil_version"]) },
    Column { name: "entry_points", ty: ColumnType::Text, doc: "the DXIL module's entry points, `;`-separated", read: entry_points },
    Column { name: "part_count", ty: ColumnType::Integer, doc: "number of parts", read: |s| s.doc["header"]["part_count"].clone() },
    Column { name: "parts", ty: ColumnType::Text, doc: "every part as NAME:size, space-separated, in table order", read: parts },
    Column { name: "debug_bytes", ty: ColumnType::Integer, doc: "bytes of the parts dxstrip --strip-debug removes (data and part headers)", read: debug_bytes },
    Column { name: "instruction_count", ty: ColumnType::Integer, doc: "SHEX/SHDR instructions (DXBC; empty for DXIL)", read: |s| program_summary(s)["instruction_count"].clone() },
    Column { name: "declaration_count", ty: ColumnType::Integer, doc: "SHEX/SHDR declarations (DXBC; empty for DXIL)", read: |s| program_summary(s)["declaration_count"].clone() },
    Column { name: "res_cbv", ty: ColumnType::Integer, doc: "constant buffers bound (PSV0, else RDEF, else the module's counts)", read: |s| resources(s, ResourceClass::Cbv) },
    Column { name: "res_srv", ty: ColumnType::Integer, doc: "shader resource views bound", read: |s| resources(s, ResourceClass::Srv) },
    Column { name: "res_uav", ty: ColumnType::Integer, doc: "unordered access views bound", read: |s| resources(s, ResourceClass::Uav) },
    Column { name: "res_sampler", ty: ColumnType::Integer, doc: "samplers bound", read: |s| resources(s, ResourceClass::Sampler) },
    Column { name: "threads_x", ty: ColumnType::Integer, doc: "thread-group size X (PSV0 v2+, else dcl_thread_group)", read: |s| threads(s, 0) },
    Column { name: "threads_y", ty: ColumnType::Integer, doc: "thread-group size Y", read: |s| threads(s, 1) },
    Column { name: "threads_z", ty: ColumnType::Integer, doc: "thread-group size Z", read: |s| threads(s, 2) },
    Column { name: "feature_flags", ty: ColumnType::Integer, doc: "SFI0's flag bits", read: |s| decoded(s, "SFI0")["flags"]["value"].clone() },
    Column { name: "feature_flag_names", ty: ColumnType::Text, doc: "SFI0's flag names, `|`-separated", read: |s| joined(&decoded(s, "SFI0")["flags"]["names"], "|") },
    Column { name: "compile_flags", ty: ColumnType::Text, doc: "RDEF's compile flags (D3DCOMPILE_*) names, `|`-separated", read: |s| joined(&decoded(s, "RDEF")["compile_flags"]["names"], "|") },
    Column { name: "decode_errors", ty: ColumnType::Integer, doc: "parts whose decoder failed", read: |s| s.doc["verify"]["decode_errors"].clone() },
    Column { name: "clean", ty: ColumnType::Bool, doc: "whether dxinfo --verify finds no warning or error", read: |s| s.doc["verify"]["clean"].clone() },
];

/// The prefix of the STAT counter columns.
pub const STAT_PREFIX: &str = "stat_";

/// Every column name in order: [`COLUMNS`], then `stat_<Counter>` for each
/// of [`STAT_COUNTERS`].
pub fn column_names() -> Vec<String> {
    let fixed = COLUMNS.iter().map(|c| c.name.to_owned());
    fixed
        .chain(STAT_COUNTERS.iter().map(|c| format!("{STAT_PREFIX}{c}")))
        .collect()
}

/// Every column's name and type, in order ([`column_names`]; the STAT
/// counters are integers).
pub fn column_types() -> Vec<(String, ColumnType)> {
    let fixed = COLUMNS.iter().map(|c| (c.name.to_owned(), c.ty));
    let stat = STAT_COUNTERS
        .iter()
        .map(|c| (format!("{STAT_PREFIX}{c}"), ColumnType::Integer));
    fixed.chain(stat).collect()
}

/// The row of one container, in [`column_names`] order.
pub fn row(source: &Source<'_>) -> Vec<Cell> {
    let counters = &decoded(source, "STAT")["counters"];
    COLUMNS
        .iter()
        .map(|c| (c.read)(source))
        .chain(STAT_COUNTERS.iter().map(|c| counters[*c].clone()))
        .collect()
}

/// The `dxinfo --json` document of `insp` as a value, and its row.
pub fn row_of(path: &str, offset: u64, insp: &Inspection<'_>) -> Vec<Cell> {
    let doc = serde_json::to_value(document(path, insp)).unwrap_or(Value::Null);
    row(&Source {
        path,
        offset,
        doc: &doc,
    })
}

/// The survey formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowFormat {
    /// Comma-separated values with a header line (RFC 4180 quoting).
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// Writes rows in one format: the header line (CSV) first, then each row.
pub struct RowWriter<'w> {
    out: &'w mut dyn Write,
    format: RowFormat,
    names: Vec<String>,
    started: bool,
}

impl<'w> RowWriter<'w> {
    /// A writer of all the columns to `out`.
    pub fn new(out: &'w mut dyn Write, format: RowFormat) -> RowWriter<'w> {
        RowWriter {
            out,
            format,
            names: column_names(),
            started: false,
        }
    }

    /// Writes the CSV header line if it is not written yet (so that a
    /// survey that finds nothing still prints its columns).
    pub fn start(&mut self) -> io::Result<()> {
        if !self.started && self.format == RowFormat::Csv {
            let line: Vec<String> = self.names.iter().map(|n| csv_field(n)).collect();
            writeln!(self.out, "{}", line.join(","))?;
        }
        self.started = true;
        Ok(())
    }

    /// Writes one row (from [`row`]).
    pub fn write(&mut self, cells: &[Cell]) -> io::Result<()> {
        self.start()?;
        match self.format {
            RowFormat::Csv => {
                let line: Vec<String> = cells.iter().map(csv_cell).collect();
                writeln!(self.out, "{}", line.join(","))
            }
            RowFormat::Jsonl => {
                let mut line = String::from("{");
                for (i, (name, cell)) in self.names.iter().zip(cells).enumerate() {
                    if i > 0 {
                        line.push(',');
                    }
                    line.push_str(&Value::from(name.as_str()).to_string());
                    line.push(':');
                    line.push_str(&cell.to_string());
                }
                line.push('}');
                writeln!(self.out, "{line}")
            }
        }
    }
}

/// A cell as a CSV field: empty for null, numbers and booleans as JSON
/// writes them, text quoted when it holds a comma, quote or line break.
pub fn csv_cell(cell: &Cell) -> String {
    match cell {
        Value::Null => String::new(),
        Value::String(text) => csv_field(text),
        other => other.to_string(),
    }
}

/// RFC 4180 quoting: a field holding `,`, `"`, CR or LF (or starting with a
/// space) is quoted, with its quotes doubled.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ') {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The `decoded` object of the first part named `name` (null when absent).
fn decoded<'a>(s: &Source<'a>, name: &str) -> &'a Value {
    s.doc["parts"]
        .as_array()
        .and_then(|parts| parts.iter().find(|p| p["name"] == name))
        .map(|p| &p["decoded"])
        .unwrap_or(&Value::Null)
}

/// The program part: DXIL, else SHEX, else SHDR.
fn program<'a>(s: &Source<'a>) -> &'a Value {
    ["DXIL", "SHEX", "SHDR"]
        .iter()
        .map(|name| decoded(s, name))
        .find(|d| !d.is_null())
        .unwrap_or(&Value::Null)
}

fn module<'a>(s: &Source<'a>) -> &'a Value {
    &decoded(s, "DXIL")["module"]
}

fn program_summary<'a>(s: &Source<'a>) -> &'a Value {
    match decoded(s, "SHEX") {
        Value::Null => &decoded(s, "SHDR")["program"],
        shex => &shex["program"],
    }
}

fn has_part(s: &Source<'_>, name: PartName) -> bool {
    let name = name.to_string();
    s.doc["parts"]
        .as_array()
        .is_some_and(|parts| parts.iter().any(|p| p["name"] == name.as_str()))
}

fn kind(s: &Source<'_>) -> Cell {
    if has_part(s, PartName::DXIL) {
        "DXIL"
    } else {
        "DXBC"
    }
    .into()
}

fn stage(s: &Source<'_>) -> Cell {
    let p = program(s);
    match &p["shader_kind"] {
        Value::Null => p["program_type"].clone(),
        kind => kind.clone(),
    }
}

fn shader_model(s: &Source<'_>) -> Cell {
    let p = program(s);
    let (major, minor) = match p["kind"].as_str() {
        Some("program") => (&p["model_major"], &p["model_minor"]),
        Some("shader") => (&p["major"], &p["minor"]),
        _ => return Value::Null,
    };
    format!("{major}.{minor}").into()
}

fn version_of(v: &Value) -> Cell {
    match (&v["major"], &v["minor"]) {
        (Value::Number(major), Value::Number(minor)) => format!("{major}.{minor}").into(),
        _ => Value::Null,
    }
}

fn compiler(s: &Source<'_>) -> Cell {
    match &decoded(s, "RDEF")["creator"] {
        Value::String(creator) => creator.as_str().into(),
        _ => module(s)["ident"]
            .as_array()
            .and_then(|idents| idents.first())
            .cloned()
            .unwrap_or(Value::Null),
    }
}

fn joined(list: &Value, separator: &str) -> Cell {
    match list.as_array() {
        Some(items) => {
            let texts: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            texts.join(separator).into()
        }
        None => Value::Null,
    }
}

fn entry_points(s: &Source<'_>) -> Cell {
    joined(&module(s)["entry_points"], ";")
}

fn parts(s: &Source<'_>) -> Cell {
    let Some(parts) = s.doc["parts"].as_array() else {
        return Value::Null;
    };
    let list: Vec<String> = parts
        .iter()
        .map(|p| {
            let name = p["name"].as_str().unwrap_or_default();
            format!("{name}:{}", p["size"])
        })
        .collect();
    list.join(" ").into()
}

fn debug_bytes(s: &Source<'_>) -> Cell {
    let Some(parts) = s.doc["parts"].as_array() else {
        return Value::Null;
    };
    let total: u64 = parts
        .iter()
        .filter(|p| {
            p["name"]
                .as_str()
                .and_then(PartName::from_str_exact)
                .is_some_and(|name| StripClass::Debug.covers(&name))
        })
        .map(|p| p["size"].as_u64().unwrap_or(0) + crate::container::PART_HEADER_SIZE)
        .sum();
    total.into()
}

/// The four binding classes the resource columns count.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ResourceClass {
    Cbv,
    Srv,
    Uav,
    Sampler,
}

/// The class of a PSV0 resource type or an RDEF input type.
fn resource_class(type_name: &str) -> Option<ResourceClass> {
    Some(match type_name {
        "CBV" | "cbuffer" => ResourceClass::Cbv,
        "Sampler" | "sampler" => ResourceClass::Sampler,
        t if t.starts_with("SRV")
            || matches!(
                t,
                "texture" | "tbuffer" | "structured" | "byteaddress" | "RTAccelerationStructure"
            ) =>
        {
            ResourceClass::Srv
        }
        t if t.starts_with("UAV") => ResourceClass::Uav,
        _ => return None,
    })
}

fn resources(s: &Source<'_>, class: ResourceClass) -> Cell {
    let count = |list: &Value, key: &str| {
        list.as_array().map(|items| {
            items
                .iter()
                .filter(|r| r[key].as_str().and_then(resource_class) == Some(class))
                .count()
        })
    };
    if let Some(n) = count(&decoded(s, "PSV0")["resources"], "resource_type") {
        return n.into();
    }
    if let Some(n) = count(&decoded(s, "RDEF")["resources"], "input_type") {
        return n.into();
    }
    let key = match class {
        ResourceClass::Cbv => "cbuffers",
        ResourceClass::Srv => "srvs",
        ResourceClass::Uav => "uavs",
        ResourceClass::Sampler => "samplers",
    };
    module(s)["resources"][key].clone()
}

fn threads(s: &Source<'_>, axis: usize) -> Cell {
    if let Some(n) = decoded(s, "PSV0")["runtime_info"]["num_threads"].get(axis) {
        return n.clone();
    }
    let declarations = program_summary(s)["declarations"].as_array();
    let group = declarations.into_iter().flatten().find_map(|d| {
        d["text"]
            .as_str()?
            .strip_prefix("dcl_thread_group ")
            .map(|sizes| sizes.split(',').map(str::trim).collect::<Vec<_>>())
    });
    group
        .and_then(|sizes| sizes.get(axis).and_then(|n| n.parse::<u64>().ok()))
        .map_or(Value::Null, Value::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quoting_follows_rfc_4180() {
        let cases: &[(&str, &str)] = &[
            ("plain", "plain"),
            ("a,b", "\"a,b\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("two\nlines", "\"two\nlines\""),
            ("cr\r", "\"cr\r\""),
            (" lead", "\" lead\""),
            ("", ""),
        ];
        for (text, want) in cases {
            assert_eq!(csv_field(text), *want, "{text:?}");
        }
        assert_eq!(csv_cell(&Value::Null), "");
        assert_eq!(csv_cell(&Value::from(12u64)), "12");
        assert_eq!(csv_cell(&Value::from(true)), "true");
    }

    #[test]
    fn column_names_are_unique_and_end_with_the_stat_counters() {
        let names = column_names();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert_eq!(names.len(), COLUMNS.len() + STAT_COUNTERS.len());
        assert_eq!(names[0], "path");
        assert_eq!(names[COLUMNS.len()], "stat_InstructionCount");
    }

    #[test]
    fn docs_rows_md_lists_every_column_in_order_with_its_type() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rows.md");
        let text = std::fs::read_to_string(path).expect("docs/rows.md");
        let documented: Vec<(String, String)> = text
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| {
                let (name, rest) = l.split_once("` | ")?;
                let ty = rest.split(" |").next()?;
                Some((name.to_owned(), ty.to_owned()))
            })
            .collect();
        let mut want: Vec<(String, String)> = COLUMNS
            .iter()
            .map(|c| (c.name.to_owned(), c.ty.as_str().to_owned()))
            .collect();
        want.push(("stat_<Counter>".to_owned(), "integer".to_owned()));
        assert_eq!(documented, want);
    }

    #[test]
    fn resource_classes() {
        let cases = [
            ("CBV", Some(ResourceClass::Cbv)),
            ("cbuffer", Some(ResourceClass::Cbv)),
            ("SRVStructured", Some(ResourceClass::Srv)),
            ("texture", Some(ResourceClass::Srv)),
            ("tbuffer", Some(ResourceClass::Srv)),
            ("UAVByteAddress", Some(ResourceClass::Uav)),
            ("UAVTyped", Some(ResourceClass::Uav)),
            ("Sampler", Some(ResourceClass::Sampler)),
            ("Invalid", None),
        ];
        for (name, want) in cases {
            assert!(resource_class(name) == want, "{name}");
        }
    }
}
