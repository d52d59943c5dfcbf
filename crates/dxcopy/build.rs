//! Records the git commit (when built from a checkout) for `--version`, and
//! tells the tests whether the shared corpus and LLVM 22 are there
//! (`cfg(dxcopy_corpus)`, `cfg(dxcopy_llvm)`; see the included file).

use std::process::Command;

include!("../../build-support/test_inputs.rs");

fn main() {
    emit_test_inputs();
    let version = env!("CARGO_PKG_VERSION");
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let full = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) if !commit.is_empty() => format!("{version} ({commit})"),
        _ => version.to_string(),
    };
    println!("cargo:rustc-env=DXCOPY_VERSION={full}");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/refs/heads");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
