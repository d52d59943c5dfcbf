//! `dxinfo --rows=jsonl` against `dxinfo --json` for the same containers:
//! every column of every row is read again here from the JSON document, by
//! the JSON paths docs/rows.md names, and must be the row's cell. The rows
//! take their cells from the decoded values directly (no JSON document), so
//! this is a second reading of the same facts by another route. Over the
//! containers in the repository always, over every corpus container when
//! the corpus is there.

mod common;

use common::bin;
use dxcopy_read::scan::rows::{column_names, STAT_PREFIX};
use dxcopy_read::stat::STAT_COUNTERS;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `decoded` object of the first part named `name` (null when absent
/// or when its decoder failed).
fn decoded<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["parts"]
        .as_array()
        .and_then(|parts| parts.iter().find(|p| p["name"] == name))
        .map(|p| &p["decoded"])
        .unwrap_or(&Value::Null)
}

/// The program part: DXIL, else SHEX, else SHDR (the first that decodes).
fn program(doc: &Value) -> &Value {
    ["DXIL", "SHEX", "SHDR"]
        .iter()
        .map(|name| decoded(doc, name))
        .find(|d| !d.is_null())
        .unwrap_or(&Value::Null)
}

fn module(doc: &Value) -> &Value {
    &decoded(doc, "DXIL")["module"]
}

fn program_summary(doc: &Value) -> &Value {
    match decoded(doc, "SHEX") {
        Value::Null => &decoded(doc, "SHDR")["program"],
        shex => &shex["program"],
    }
}

fn has_part(doc: &Value, name: &str) -> bool {
    doc["parts"]
        .as_array()
        .is_some_and(|parts| parts.iter().any(|p| p["name"] == name))
}

fn version_of(v: &Value) -> Value {
    match (&v["major"], &v["minor"]) {
        (Value::Number(major), Value::Number(minor)) => format!("{major}.{minor}").into(),
        _ => Value::Null,
    }
}

fn joined(list: &Value, separator: &str) -> Value {
    match list.as_array() {
        Some(items) => {
            let texts: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            texts.join(separator).into()
        }
        None => Value::Null,
    }
}

/// docs/rows.md's resource classes, by the type names the JSON gives.
fn resource_class(type_name: &str) -> Option<&'static str> {
    Some(match type_name {
        "CBV" | "cbuffer" => "cbv",
        "Sampler" | "sampler" => "sampler",
        "texture" | "tbuffer" | "structured" | "byteaddress" | "RTAccelerationStructure" => "srv",
        t if t.starts_with("SRV") => "srv",
        t if t.starts_with("UAV") => "uav",
        _ => return None,
    })
}

fn resources(doc: &Value, class: &str) -> Value {
    let count = |list: &Value, key: &str| {
        list.as_array().map(|items| {
            items
                .iter()
                .filter(|r| r[key].as_str().and_then(resource_class) == Some(class))
                .count()
        })
    };
    if let Some(n) = count(&decoded(doc, "PSV0")["resources"], "resource_type") {
        return n.into();
    }
    if let Some(n) = count(&decoded(doc, "RDEF")["resources"], "input_type") {
        return n.into();
    }
    let key = match class {
        "cbv" => "cbuffers",
        "srv" => "srvs",
        "uav" => "uavs",
        _ => "samplers",
    };
    module(doc)["resources"][key].clone()
}

fn threads(doc: &Value, axis: usize) -> Value {
    if let Some(n) = decoded(doc, "PSV0")["runtime_info"]["num_threads"].get(axis) {
        return n.clone();
    }
    let declarations = program_summary(doc)["declarations"].as_array();
    let group = declarations.into_iter().flatten().find_map(|d| {
        let sizes = d["text"].as_str()?.strip_prefix("dcl_thread_group ")?;
        Some(
            sizes
                .split(',')
                .map(|n| n.trim().to_owned())
                .collect::<Vec<_>>(),
        )
    });
    group
        .and_then(|sizes| sizes.get(axis).and_then(|n| n.parse::<u64>().ok()))
        .map_or(Value::Null, Value::from)
}

/// The parts `dxstrip --strip-debug` removes, by name (docs/strip.md).
fn debug_bytes(doc: &Value) -> Value {
    let debug = |name: &str| {
        dxcopy_read::PartName::from_str_exact(name)
            .is_some_and(|n| dxcopy_read::StripClass::Debug.covers(&n))
    };
    let parts = doc["parts"].as_array().expect("parts");
    let total: u64 = parts
        .iter()
        .filter(|p| p["name"].as_str().is_some_and(debug))
        .map(|p| p["size"].as_u64().expect("size") + 8)
        .sum();
    total.into()
}

/// Every cell of the row of `doc` (found at `path`, offset 0), by name.
fn expected(doc: &Value, path: &str) -> Vec<(String, Value)> {
    let p = program(doc);
    let stage = match &p["shader_kind"] {
        Value::Null => p["program_type"].clone(),
        kind => kind.clone(),
    };
    let shader_model = match p["kind"].as_str() {
        Some("program") => format!("{}.{}", p["model_major"], p["model_minor"]).into(),
        Some("shader") => format!("{}.{}", p["major"], p["minor"]).into(),
        _ => Value::Null,
    };
    let compiler = match &decoded(doc, "RDEF")["creator"] {
        Value::String(creator) => creator.as_str().into(),
        _ => module(doc)["ident"]
            .as_array()
            .and_then(|idents| idents.first())
            .cloned()
            .unwrap_or(Value::Null),
    };
    let parts: Vec<String> = doc["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .map(|p| format!("{}:{}", p["name"].as_str().expect("name"), p["size"]))
        .collect();
    let instruction_count = if has_part(doc, "DXIL") {
        module(doc)["instruction_count"].clone()
    } else {
        program_summary(doc)["instruction_count"].clone()
    };
    let kind = if has_part(doc, "DXIL") {
        "DXIL"
    } else {
        "DXBC"
    };
    let sfi0 = &decoded(doc, "SFI0")["flags"];
    let mut cells: Vec<(&str, Value)> = vec![
        ("path", path.into()),
        ("offset", 0.into()),
        ("size", doc["header"]["file_size"].clone()),
        ("kind", kind.into()),
        ("stage", stage),
        ("shader_model", shader_model),
        ("digest_kind", doc["header"]["digest_kind"].clone()),
        ("digest", doc["header"]["digest"].clone()),
        ("hash", decoded(doc, "HASH")["digest"].clone()),
        ("hash_status", doc["verify"]["hash"].clone()),
        ("compiler", compiler),
        (
            "compiler_release",
            decoded(doc, "VERS")["version_string"].clone(),
        ),
        (
            "validator_version",
            version_of(&module(doc)["validator_version"]),
        ),
        ("dxil_version", version_of(&module(doc)["dxil_version"])),
        ("entry_points", joined(&module(doc)["entry_points"], ";")),
        ("part_count", doc["header"]["part_count"].clone()),
        ("parts", parts.join(" ").into()),
        ("debug_bytes", debug_bytes(doc)),
        ("instruction_count", instruction_count),
        (
            "declaration_count",
            program_summary(doc)["declaration_count"].clone(),
        ),
        ("res_cbv", resources(doc, "cbv")),
        ("res_srv", resources(doc, "srv")),
        ("res_uav", resources(doc, "uav")),
        ("res_sampler", resources(doc, "sampler")),
        ("threads_x", threads(doc, 0)),
        ("threads_y", threads(doc, 1)),
        ("threads_z", threads(doc, 2)),
        ("feature_flags", sfi0["value"].clone()),
        ("feature_flag_names", joined(&sfi0["names"], "|")),
        (
            "compile_flags",
            joined(&decoded(doc, "RDEF")["compile_flags"]["names"], "|"),
        ),
        ("decode_errors", doc["verify"]["decode_errors"].clone()),
        ("clean", doc["verify"]["clean"].clone()),
    ];
    let counters = &decoded(doc, "STAT")["counters"];
    let stat: Vec<(String, Value)> = STAT_COUNTERS
        .iter()
        .map(|c| (format!("{STAT_PREFIX}{c}"), counters[*c].clone()))
        .collect();
    cells
        .drain(..)
        .map(|(n, v)| (n.to_owned(), v))
        .chain(stat)
        .collect()
}

/// The JSON lines `dxinfo ARGS FILES` prints.
fn json_lines(args: &[&str], files: &[PathBuf]) -> Vec<Value> {
    let out = Command::new(bin("dxinfo"))
        .args(args)
        .args(files)
        .output()
        .expect("dxinfo runs");
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Compares the rows of `files` with their JSON documents, column by
/// column; returns how many rows were compared, and the DXIL rows with an
/// instruction count.
fn compare(files: &[PathBuf]) -> (usize, usize) {
    let docs = json_lines(&["--json"], files);
    let rows = json_lines(&["--rows=jsonl"], files);
    let by_path: HashMap<&str, &Value> = docs
        .iter()
        .map(|d| (d["file"].as_str().expect("file"), d))
        .collect();
    assert_eq!(rows.len(), docs.len(), "one row per JSON document");
    let mut sorted_names = column_names();
    sorted_names.sort();
    let sorted_names: Vec<&String> = sorted_names.iter().collect();
    let mut mismatches = Vec::new();
    let mut dxil_counted = 0;
    for row in &rows {
        let path = row["path"].as_str().expect("path");
        let doc = by_path[path];
        // (serde_json's map sorts the keys: the set is compared here, the
        // order is the CSV header's.)
        let keys: Vec<&String> = row.as_object().expect("an object").keys().collect();
        assert_eq!(keys, sorted_names, "{path}: the columns");
        for (name, want) in expected(doc, path) {
            if row[&name] != want {
                mismatches.push(format!("{path}: {name}: row {} json {want}", row[&name]));
            }
        }
        if row["kind"] == "DXIL" && row["instruction_count"].is_u64() {
            dxil_counted += 1;
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} cells differ, the first: {:#?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(20)]
    );
    (rows.len(), dxil_counted)
}

fn repository_containers() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![
        root.join("examples/sample.dxil"),
        root.join("examples/learn-sdl-gpu/shader.frag.dxil"),
    ];
    let asm = root.join("crates/dxcopy-edit/tests/data/dxbc2dxil-asm");
    let mut dxbc: Vec<PathBuf> = std::fs::read_dir(&asm)
        .expect("test data")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dxbc"))
        .collect();
    dxbc.sort();
    files.extend(dxbc);
    files
}

#[test]
fn rows_of_the_repository_containers_are_their_json() {
    let files = repository_containers();
    let (rows, dxil_counted) = compare(&files);
    assert_eq!(rows, files.len());
    assert_eq!(dxil_counted, 2, "both DXIL examples have a count");
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn rows_of_every_corpus_container_are_its_json() {
    let Some((_, manifest)) = dxcopy_harness::corpus::manifest_or_skip("rows against json") else {
        return;
    };
    let files: Vec<PathBuf> = manifest
        .iter()
        .filter(|r| r.kind == "dxil" || r.kind == "dxbc")
        .map(|r| r.path.clone())
        .collect();
    let (rows, dxil_counted) = compare(&files);
    assert!(rows > 2000, "{rows} rows");
    assert!(dxil_counted > 600, "{dxil_counted} DXIL rows with a count");
}
