// Included by the build scripts of the crates whose tests read the shared
// corpus or run LLVM 22 (dxcopy-read, dxcopy-edit, dxcopy): it tells those
// tests whether their inputs are there, so that a test without them shows as
// ignored instead of passing.
//
// - `cfg(dxcopy_corpus)`: `$DXCOPY_SHARED/corpus/MANIFEST.tsv`, else
//   `../shared/corpus/MANIFEST.tsv` beside the workspace, exists;
// - `cfg(dxcopy_llvm)`: `$DXCOPY_LLVM_BIN/llvm-objcopy`, else
//   `/usr/lib/llvm-22/bin/llvm-objcopy`, exists;
// - `cfg(dxcopy_chromium)`: `$DXCOPY_CHROMIUM`, else `/usr/bin/chromium`,
//   exists (the HTML listing's browser test).
//
// Under CI (`CI` set and not `false`) the first two are set whatever is
// found: CI has the inputs, and a test that finds one missing there fails
// (`dxcopy_harness::corpus::corpus_or_skip` and `llvm::llvm_tool_or_skip`
// panic under CI) instead of being skipped. Chromium may fail to install
// (.ci/run warns), so its test is skipped without it, under CI too.

/// Prints the `cargo::` lines for the three cfgs (see the file's comment).
fn emit_test_inputs() {
    use std::path::{Path, PathBuf};
    println!("cargo::rustc-check-cfg=cfg(dxcopy_corpus)");
    println!("cargo::rustc-check-cfg=cfg(dxcopy_llvm)");
    println!("cargo::rustc-check-cfg=cfg(dxcopy_chromium)");
    for var in ["DXCOPY_SHARED", "DXCOPY_LLVM_BIN", "DXCOPY_CHROMIUM", "CI"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let from_env = |var: &str, default: PathBuf| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or(default)
    };
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let shared = from_env("DXCOPY_SHARED", manifest_dir.join("../../../shared"));
    let corpus = shared.join("corpus/MANIFEST.tsv");
    let llvm = from_env("DXCOPY_LLVM_BIN", PathBuf::from("/usr/lib/llvm-22/bin")).join("llvm-objcopy");
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
    let present = |path: &Path| {
        // Watched only when present: a missing path would rerun this script
        // on every build. Set DXCOPY_SHARED / DXCOPY_LLVM_BIN (or touch
        // build.rs) after installing one.
        let there = path.is_file();
        if there {
            println!("cargo::rerun-if-changed={}", path.display());
        }
        there
    };
    if present(&corpus) || ci {
        println!("cargo::rustc-cfg=dxcopy_corpus");
    }
    if present(&llvm) || ci {
        println!("cargo::rustc-cfg=dxcopy_llvm");
    }
    if present(&from_env("DXCOPY_CHROMIUM", PathBuf::from("/usr/bin/chromium"))) {
        println!("cargo::rustc-cfg=dxcopy_chromium");
    }
}
