//! The import layering of dxcopy-read, dxcopy-edit, dxcopy-py and dxcopy,
//! checked from their source by [`dxcopy_harness::layers`]: an import from a
//! lower layer into a higher one, a loop between top-level modules, or a
//! top-level module in no layer fails with its file and line.
//!
//! The layers, bottom first, are the shape README.md and HELPERS describe:
//! in the reader cursor, errors, the part table and names; then the record
//! decoders; then the code models (SM4 program, DXIL module); then the views
//! (text/JSON/YAML, listings, reflection, verify). The edit crate sits on the
//! reader (a crate boundary, so Cargo keeps it); inside it errors and the
//! bitcode writer, then the edit pipeline, the operations, running on files,
//! and dxinfo's extras. The CLI and the Python module are on top.

use dxcopy_harness::layers::{check, read_tree, Layer};
use std::path::Path;

const READ: &[Layer] = &[
    Layer {
        name: "base",
        modules: &[
            "",
            "error",
            "cursor",
            "name",
            "part_table",
            "enums",
            "fields",
            "fault_guard",
            "stage",
            "digest",
            "container",
            "record",
            "budget",
            "detail",
        ],
    },
    Layer {
        name: "record decoders",
        modules: &["parts", "pdb", "bitcode", "mapped"],
    },
    Layer {
        name: "code models",
        modules: &["sm4", "dxil"],
    },
    Layer {
        name: "views",
        modules: &["info", "listing", "reflect", "c_header", "scan"],
    },
];

const EDIT: &[Layer] = &[
    Layer {
        name: "base",
        modules: &["", "error", "file", "bitcode"],
    },
    Layer {
        name: "pipeline",
        modules: &["pipeline", "builder"],
    },
    Layer {
        name: "operations",
        modules: &["operations"],
    },
    Layer {
        name: "run",
        modules: &["run", "scan"],
    },
];

const PY: &[Layer] = &[
    Layer {
        name: "base",
        modules: &["", "error", "buffer", "input"],
    },
    Layer {
        name: "classes",
        modules: &[
            "container",
            "edit",
            "module",
            "strip",
            "projects",
            "survey",
            "assemble",
        ],
    },
];

const CLI: &[Layer] = &[
    Layer {
        name: "base",
        modules: &["", "args", "cli", "header_args", "listing_args"],
    },
    Layer {
        name: "tools",
        modules: &["cmd"],
    },
    Layer {
        name: "binaries",
        modules: &["bin"],
    },
];

fn crate_src(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

fn violations(name: &str, layers: &[Layer]) -> Vec<String> {
    let files = read_tree(&crate_src(name)).unwrap();
    assert!(files.len() > 3, "{name}: no sources found");
    check(&files, layers)
        .into_iter()
        .map(|v| format!("crates/{name}/src/{v}"))
        .collect()
}

#[test]
fn no_import_runs_against_the_layering() {
    let mut all = Vec::new();
    for (name, layers) in [
        ("dxcopy-read", READ),
        ("dxcopy-edit", EDIT),
        ("dxcopy-py", PY),
        ("dxcopy", CLI),
    ] {
        all.extend(violations(name, layers));
    }
    assert!(
        all.is_empty(),
        "{} imports against the layering:\n{}",
        all.len(),
        all.join("\n")
    );
}
