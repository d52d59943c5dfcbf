//! Every input a fuzz target ever failed on, replayed through the same code
//! (tests/data/fuzz-regressions/<target>/<name>). A new crash input is added
//! here by `cargo xtask fuzz keep <target> <artifact> <name>` together with
//! the library fix and its unit test.

use std::path::Path;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz-regressions")
        .join(target);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn parse_regressions() {
    for (name, bytes) in inputs("parse") {
        if let Err(v) = dxcopy_harness::exercise(&bytes) {
            panic!("parse/{name}: {v}");
        }
    }
}

#[test]
fn edit_roundtrip_regressions() {
    let all = inputs("edit_roundtrip");
    assert!(!all.is_empty());
    for (name, bytes) in all {
        let script = dxcopy_harness::Script::decode(&bytes);
        if let Err(v) = dxcopy_harness::roundtrip(&script) {
            panic!("edit_roundtrip/{name}: {v}");
        }
    }
}

#[test]
fn decode_regressions() {
    for (_name, bytes) in inputs("decode") {
        dxcopy_harness::decode_input(&bytes);
    }
}

#[test]
fn pdb_regressions() {
    for (name, bytes) in inputs("pdb") {
        if let Err(v) = dxcopy_harness::exercise_pdb(&bytes) {
            panic!("pdb/{name}: {v}");
        }
    }
}
