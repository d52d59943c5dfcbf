//! Tells the tests whether the shared corpus and LLVM 22 are there
//! (`cfg(dxcopy_corpus)`, `cfg(dxcopy_llvm)`; see the included file).

include!("../../build-support/test_inputs.rs");

fn main() {
    emit_test_inputs();
    println!("cargo::rerun-if-changed=build.rs");
}
