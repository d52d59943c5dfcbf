//! Survey rows: one flat row per container, with stable column names
//! (docs/rows.md), for pandas, DuckDB and spreadsheets.
//!
//! A row reads the same decoded values `dxinfo --json` prints (the
//! container's [`Inspection`] and its [`Verification`]): every cell is a
//! field a decoder, the module facts or the verifier already returned, taken
//! directly, without building the JSON document, so a row and the JSON of
//! the same container agree by construction. The columns are one table,
//! [`COLUMNS`], followed by one column per STAT counter ([`STAT_COUNTERS`],
//! `stat_<Counter>`); [`column_names`] lists them all in order.

use crate::dxbc::ShaderBytecode;
use crate::dxil::facts::ModuleFacts;
use crate::info::verify::{verify, Verification};
use crate::info::{Inspected, Inspection};
use crate::listing::dxbc::summary::ProgramSummary;
use crate::stat::STAT_COUNTERS;
use crate::{Decoded, PartName, Program, StripClass};
use serde_json::Value;
use std::io::{self, Write};

/// One cell: a JSON scalar (`null` for "the container does not record it").
pub type Cell = Value;

/// What a column reads: one container's decoded parts and verification,
/// and where it was found.
pub struct Source<'a> {
    /// Where it was found: a file, or `archive.zip!member`.
    pub path: &'a str,
    /// Its offset there.
    pub offset: u64,
    /// The container with every part decoded.
    pub inspection: &'a Inspection<'a>,
    /// What `dxinfo --verify` finds in it.
    pub verification: &'a Verification,
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
    Column { name: "size", ty: ColumnType::Integer, doc: "the container's FileSize", read: |s| s.inspection.container.header().file_size.into() },
    Column { name: "kind", ty: ColumnType::Text, doc: "DXIL when it has a DXIL part, else DXBC", read: kind },
    Column { name: "stage", ty: ColumnType::Text, doc: "the program's stage (DXIL part, else SHEX/SHDR): Pixel, Vertex, Compute, …", read: stage },
    Column { name: "shader_model", ty: ColumnType::Text, doc: "the program's shader model, major.minor", read: shader_model },
    Column { name: "digest_kind", ty: ColumnType::Text, doc: "retail, debug, zero, bypass, preview or invalid", read: |s| s.verification.digest.as_str().into() },
    Column { name: "digest", ty: ColumnType::Text, doc: "the stored container digest, hex", read: |s| crate::fields::hex(&s.inspection.container.header().digest).into() },
    Column { name: "hash", ty: ColumnType::Text, doc: "the HASH part's digest (the shader hash), hex", read: hash },
    Column { name: "hash_status", ty: ColumnType::Text, doc: "HASH against its bitcode: valid, mismatch, unverifiable or absent", read: |s| s.verification.hash.as_str().into() },
    Column { name: "compiler", ty: ColumnType::Text, doc: "RDEF's creator string, else the DXIL module's llvm.ident", read: compiler },
    Column { name: "compiler_release", ty: ColumnType::Text, doc: "the dxc release in VERS (1.8.2403.1)", read: compiler_release },
    Column { name: "validator_version", ty: ColumnType::Text, doc: "the DXIL module's dx.valver, major.minor", read: |s| module(s).and_then(|m| m.validator_version).map_or(Value::Null, |v| format!("{}.{}", v.major, v.minor).into()) },
    Column { name: "dxil_version", ty: ColumnType::Text, doc: "the DXIL module's dx.version, major.minor", read: |s| module(s).and_then(|m| m.dxil_version).map_or(Value::Null, |v| format!("{}.{}", v.major, v.minor).into()) },
    Column { name: "entry_points", ty: ColumnType::Text, doc: "the DXIL module's entry points, `;`-separated", read: |s| module(s).map_or(Value::Null, |m| m.entry_points.join(";").into()) },
    Column { name: "part_count", ty: ColumnType::Integer, doc: "number of parts", read: |s| s.inspection.container.header().part_count.into() },
    Column { name: "parts", ty: ColumnType::Text, doc: "every part as NAME:size, space-separated, in table order", read: parts },
    Column { name: "debug_bytes", ty: ColumnType::Integer, doc: "bytes of the parts dxstrip --strip-debug removes (data and part headers)", read: debug_bytes },
    Column { name: "instruction_count", ty: ColumnType::Integer, doc: "DXIL: the instructions of the DXIL module's function bodies; DXBC: SHEX/SHDR's instructions", read: instruction_count },
    Column { name: "declaration_count", ty: ColumnType::Integer, doc: "SHEX/SHDR declarations (DXBC; empty for DXIL)", read: |s| program_summary(s).map_or(Value::Null, |p| p.declaration_count.into()) },
    Column { name: "res_cbv", ty: ColumnType::Integer, doc: "constant buffers bound (PSV0, else RDEF, else the module's counts)", read: |s| resources(s, ResourceClass::Cbv) },
    Column { name: "res_srv", ty: ColumnType::Integer, doc: "shader resource views bound", read: |s| resources(s, ResourceClass::Srv) },
    Column { name: "res_uav", ty: ColumnType::Integer, doc: "unordered access views bound", read: |s| resources(s, ResourceClass::Uav) },
    Column { name: "res_sampler", ty: ColumnType::Integer, doc: "samplers bound", read: |s| resources(s, ResourceClass::Sampler) },
    Column { name: "threads_x", ty: ColumnType::Integer, doc: "thread-group size X (PSV0 v2+, else dcl_thread_group)", read: |s| threads(s, 0) },
    Column { name: "threads_y", ty: ColumnType::Integer, doc: "thread-group size Y", read: |s| threads(s, 1) },
    Column { name: "threads_z", ty: ColumnType::Integer, doc: "thread-group size Z", read: |s| threads(s, 2) },
    Column { name: "feature_flags", ty: ColumnType::Integer, doc: "SFI0's flag bits", read: |s| feature_flags(s).map_or(Value::Null, |f| f.bits().into()) },
    Column { name: "feature_flag_names", ty: ColumnType::Text, doc: "SFI0's flag names, `|`-separated", read: |s| feature_flags(s).map_or(Value::Null, |f| flag_names(&f.names(), f.unknown_bits()).into()) },
    Column { name: "compile_flags", ty: ColumnType::Text, doc: "RDEF's compile flags (D3DCOMPILE_*) names, `|`-separated", read: compile_flags },
    Column { name: "decode_errors", ty: ColumnType::Integer, doc: "parts whose decoder failed", read: |s| s.verification.decode_errors.into() },
    Column { name: "clean", ty: ColumnType::Bool, doc: "whether dxinfo --verify finds no warning or error", read: |s| s.verification.is_clean().into() },
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
    let counters = match decoded(source, PartName::STAT) {
        Some(Decoded::Stat(stat)) => Some(&stat.counters),
        _ => None,
    };
    let stat = STAT_COUNTERS.iter().map(|name| {
        counters
            .and_then(|list| list.iter().find(|(n, _)| n == name))
            .map_or(Value::Null, |(_, value)| (*value).into())
    });
    COLUMNS
        .iter()
        .map(|c| (c.read)(source))
        .chain(stat)
        .collect()
}

/// The row of `insp` (verified here), found at `path` and `offset`.
pub fn row_of(path: &str, offset: u64, insp: &Inspection<'_>) -> Vec<Cell> {
    let verification = verify(insp);
    row(&Source {
        path,
        offset,
        inspection: insp,
        verification: &verification,
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

/// The first part named `name`.
fn first<'a>(s: &Source<'a>, name: PartName) -> Option<&'a Inspected<'a>> {
    s.inspection.parts.iter().find(|p| p.part.name == name)
}

/// The decoded value of the first part named `name` (`None` when absent or
/// when its decoder failed).
fn decoded<'a>(s: &Source<'a>, name: PartName) -> Option<&'a Decoded<'a>> {
    first(s, name)?.decoded.as_ref().ok()
}

/// The program part: DXIL, else SHEX, else SHDR (the first that decodes).
enum ProgramPart<'a> {
    Dxil(&'a Program<'a>),
    Dxbc(&'a ShaderBytecode),
}

fn program<'a>(s: &Source<'a>) -> Option<ProgramPart<'a>> {
    [PartName::DXIL, PartName::SHEX, PartName::SHDR]
        .into_iter()
        .find_map(|name| match decoded(s, name)? {
            Decoded::Program(p) => Some(ProgramPart::Dxil(p)),
            Decoded::Shader(b) => Some(ProgramPart::Dxbc(b)),
            _ => None,
        })
}

/// The module facts of the first DXIL part.
fn module<'a>(s: &Source<'a>) -> Option<&'a ModuleFacts> {
    let part = first(s, PartName::DXIL)?;
    part.decoded.as_ref().ok()?;
    part.module.as_deref()?.as_ref().ok()
}

/// SHEX's program summary, else SHDR's.
fn program_summary<'a>(s: &Source<'a>) -> Option<&'a ProgramSummary> {
    let shader = [PartName::SHEX, PartName::SHDR]
        .into_iter()
        .filter_map(|name| first(s, name))
        .find(|p| matches!(p.decoded, Ok(Decoded::Shader(_))))?;
    shader.program.as_deref()
}

fn has_part(s: &Source<'_>, name: PartName) -> bool {
    first(s, name).is_some()
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
    match program(s) {
        Some(ProgramPart::Dxil(p)) => p.shader_kind.to_string().into(),
        Some(ProgramPart::Dxbc(b)) => b.program_type.to_string().into(),
        None => Value::Null,
    }
}

fn shader_model(s: &Source<'_>) -> Cell {
    match program(s) {
        Some(ProgramPart::Dxil(p)) => format!("{}.{}", p.model_major, p.model_minor).into(),
        Some(ProgramPart::Dxbc(b)) => format!("{}.{}", b.major, b.minor).into(),
        None => Value::Null,
    }
}

fn hash(s: &Source<'_>) -> Cell {
    match decoded(s, PartName::HASH) {
        Some(Decoded::Hash(h)) => crate::fields::hex(&h.digest).into(),
        _ => Value::Null,
    }
}

fn rdef<'a>(s: &Source<'a>) -> Option<&'a crate::rdef::ResourceDefinitions<'a>> {
    match decoded(s, PartName::RDEF)? {
        Decoded::Rdef(r) => Some(r),
        _ => None,
    }
}

fn compiler(s: &Source<'_>) -> Cell {
    if let Some(r) = rdef(s) {
        return crate::fields::lossy(r.creator).into_owned().into();
    }
    module(s)
        .and_then(|m| m.ident.first())
        .map_or(Value::Null, |ident| ident.as_str().into())
}

fn compiler_release(s: &Source<'_>) -> Cell {
    match decoded(s, PartName::VERS) {
        Some(Decoded::Version(v)) => crate::fields::lossy(v.version_string).into_owned().into(),
        _ => Value::Null,
    }
}

fn parts(s: &Source<'_>) -> Cell {
    let mut out = String::new();
    for (i, p) in s.inspection.parts.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{}:{}", p.part.name, p.part.size()));
    }
    out.into()
}

fn debug_bytes(s: &Source<'_>) -> Cell {
    let total: u64 = s
        .inspection
        .parts
        .iter()
        .filter(|p| StripClass::Debug.covers(&p.part.name))
        .map(|p| u64::from(p.part.size()) + crate::container::PART_HEADER_SIZE)
        .sum();
    total.into()
}

/// A DXIL container's count is its DXIL module's (the module facts count
/// the instructions of the function bodies); a DXBC container's is SHEX's,
/// else SHDR's.
fn instruction_count(s: &Source<'_>) -> Cell {
    if has_part(s, PartName::DXIL) {
        return module(s)
            .and_then(|m| m.instruction_count)
            .map_or(Value::Null, Value::from);
    }
    program_summary(s).map_or(Value::Null, |p| p.instruction_count.into())
}

fn feature_flags(s: &Source<'_>) -> Option<crate::sfi0::FeatureFlags> {
    match decoded(s, PartName::SFI0)? {
        Decoded::FeatureFlags(f) => Some(f.flags),
        _ => None,
    }
}

fn compile_flags(s: &Source<'_>) -> Cell {
    rdef(s).map_or(Value::Null, |r| {
        flag_names(
            &r.compile_flags.names(),
            u64::from(r.compile_flags.unknown_bits()),
        )
        .into()
    })
}

/// A flag word's names joined with `|`, the bits no name covers last in
/// hex: the names `dxinfo --json` lists.
fn flag_names(names: &[&str], unknown: u64) -> String {
    let mut out = names.join("|");
    if unknown != 0 {
        if !out.is_empty() {
            out.push('|');
        }
        out.push_str(&format!("{unknown:#x}"));
    }
    out
}

/// The four binding classes the resource columns count.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ResourceClass {
    Cbv,
    Srv,
    Uav,
    Sampler,
}

/// The class of a PSV0 resource type or an RDEF input type, by the name
/// `dxinfo --json` gives it.
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
    let of_class = |name: String| resource_class(&name) == Some(class);
    if let Some(Decoded::Psv0(psv)) = decoded(s, PartName::PSV0) {
        let n = psv
            .resources
            .iter()
            .filter(|r| of_class(r.resource_type.to_string()));
        return n.count().into();
    }
    if let Some(r) = rdef(s) {
        let n = r
            .resources
            .iter()
            .filter(|r| of_class(r.input_type.to_string()));
        return n.count().into();
    }
    module(s)
        .and_then(|m| m.resources)
        .map_or(Value::Null, |counts| {
            match class {
                ResourceClass::Cbv => counts.cbuffers,
                ResourceClass::Srv => counts.srvs,
                ResourceClass::Uav => counts.uavs,
                ResourceClass::Sampler => counts.samplers,
            }
            .into()
        })
}

fn threads(s: &Source<'_>, axis: usize) -> Cell {
    if let Some(Decoded::Psv0(psv)) = decoded(s, PartName::PSV0) {
        if let Some(sizes) = psv.runtime_info.num_threads {
            return sizes[axis].into();
        }
    }
    let declarations = program_summary(s).map(|p| p.declarations.as_slice());
    let group = declarations.into_iter().flatten().find_map(|d| {
        d.text
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
