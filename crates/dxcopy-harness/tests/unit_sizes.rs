//! No file over [`FILE_LIMIT`] lines and no function of non-test code over
//! [`FN_LIMIT`] lines unless its doc comment says why (a `Long:` sentence):
//! measured from the source by [`dxcopy_harness::sizes`]. The files and
//! functions still over the limits are listed; the test fails on one that is
//! not listed, and on a listed one that is no longer over, so the lists only
//! shrink.

use dxcopy_harness::layers::read_tree;
use dxcopy_harness::sizes::functions;
use std::path::{Path, PathBuf};

/// Lines a file may have.
const FILE_LIMIT: usize = 1_500;

/// Lines a function may have without a reason in its doc comment.
const FN_LIMIT: usize = 150;

/// The source trees measured, from the workspace root.
const TREES: &[&str] = &[
    "crates/dxcopy-read/src",
    "crates/dxcopy-edit/src",
    "crates/dxcopy/src",
    "crates/dxcopy-py/src",
    "crates/dxcopy-harness/src",
    "xtask/src",
];

/// Files still over [`FILE_LIMIT`].
const LONG_FILES: &[&str] = &[
    "crates/dxcopy-read/src/dxil/tests.rs",
    "crates/dxcopy-read/src/listing/dxil/ir/write.rs",
    "crates/dxcopy-edit/src/operations/asm/parse.rs",
    "crates/dxcopy-edit/src/operations/dxil_asm/parse.rs",
    "xtask/src/bench.rs",
];

/// Functions (file, name) still over [`FN_LIMIT`] without a reason.
const LONG_FUNCTIONS: &[(&str, &str)] = &[
    (
        "crates/dxcopy-read/src/dxil/derived/rdat.rs",
        "write_library_rdat",
    ),
    (
        "crates/dxcopy-read/src/dxil/reader/metadata.rs",
        "read_metadata",
    ),
    (
        "crates/dxcopy-read/src/listing/dxil/ir/write.rs",
        "function",
    ),
    ("crates/dxcopy-read/src/parts/psv0/mod.rs", "decode"),
    ("crates/dxcopy-read/src/parts/source_info/mod.rs", "decode"),
    ("crates/dxcopy-read/src/reflect/dxil.rs", "reflect"),
    (
        "crates/dxcopy-edit/src/bitcode/dxil_writer/function.rs",
        "instruction",
    ),
    (
        "crates/dxcopy-edit/src/bitcode/dxil_writer/module.rs",
        "module_info",
    ),
    (
        "crates/dxcopy-edit/src/bitcode/dxil_writer/module.rs",
        "constants_block",
    ),
    (
        "crates/dxcopy-edit/src/operations/asm/parse.rs",
        "instruction",
    ),
    (
        "crates/dxcopy-edit/src/operations/asm/parse.rs",
        "declaration",
    ),
    (
        "crates/dxcopy-edit/src/operations/dxil_asm/body.rs",
        "function_body",
    ),
    (
        "crates/dxcopy-edit/src/operations/dxil_asm/debug.rs",
        "layout",
    ),
    (
        "crates/dxcopy-edit/src/operations/dxil_asm/body.rs",
        "instruction",
    ),
    (
        "crates/dxcopy-edit/src/operations/dxil_asm/parse.rs",
        "parse_constant_inner",
    ),
    (
        "crates/dxcopy-edit/src/operations/dxil_asm/parse.rs",
        "constant_expression_inner",
    ),
    ("crates/dxcopy-edit/src/run/config/driver.rs", "run_with"),
    ("crates/dxcopy/src/cmd/dxinfo/mod.rs", "run_view"),
    (
        "crates/dxcopy-harness/src/exercise.rs",
        "exercise_container",
    ),
    ("xtask/src/bench.rs", "copy_large"),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn trees() -> Vec<(String, String)> {
    let mut all = Vec::new();
    for tree in TREES {
        for (file, source) in read_tree(&root().join(tree)).unwrap() {
            all.push((format!("{tree}/{file}"), source));
        }
    }
    all
}

#[test]
fn files_and_functions_stay_within_their_limits() {
    let files = trees();
    assert!(files.len() > 100, "sources not found");
    let long_files: Vec<String> = files
        .iter()
        .filter(|(_, s)| s.lines().count() > FILE_LIMIT)
        .map(|(f, s)| format!("{f} ({} lines)", s.lines().count()))
        .collect();
    let long_fns: Vec<String> = functions(&files)
        .into_iter()
        .filter(|f| f.lines > FN_LIMIT && !f.has_reason)
        .map(|f| format!("{}:{}: {} ({} lines)", f.file, f.line, f.name, f.lines))
        .collect();
    if std::env::var_os("SHOW_SIZES").is_some() {
        for f in long_files.iter().chain(&long_fns) {
            eprintln!("LONG {f}");
        }
    }
    let unlisted_files: Vec<&String> = long_files
        .iter()
        .filter(|f| !LONG_FILES.iter().any(|l| f.starts_with(&format!("{l} ("))))
        .collect();
    let unlisted_fns: Vec<&String> = long_fns
        .iter()
        .filter(|f| {
            !LONG_FUNCTIONS.iter().any(|(file, name)| {
                f.starts_with(&format!("{file}:")) && f.contains(&format!(": {name} ("))
            })
        })
        .collect();
    assert!(
        unlisted_files.is_empty() && unlisted_fns.is_empty(),
        "over the limits ({FILE_LIMIT} lines a file, {FN_LIMIT} a function without a `Long:` reason):\n{}",
        unlisted_files
            .iter()
            .chain(&unlisted_fns)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let gone_files: Vec<&&str> = LONG_FILES
        .iter()
        .filter(|l| !long_files.iter().any(|f| f.starts_with(&format!("{l} ("))))
        .collect();
    let gone_fns: Vec<&(&str, &str)> = LONG_FUNCTIONS
        .iter()
        .filter(|(file, name)| {
            !long_fns
                .iter()
                .any(|f| f.starts_with(&format!("{file}:")) && f.contains(&format!(": {name} (")))
        })
        .collect();
    assert!(
        gone_files.is_empty() && gone_fns.is_empty(),
        "within the limits now, remove from the lists: {gone_files:?} {gone_fns:?}"
    );
}
