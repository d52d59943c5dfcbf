//! The LLVM bitstream layer: reader (every entry and record field), module
//! facts, re-emission, the data layout fix and name stripping. Input: raw
//! bitcode (the `BC 0xC0DE` magic is added when missing). A broken
//! invariant (dxcopy_harness::exercise_bitcode) is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(v) = dxcopy_harness::bitcode_input(data) {
        panic!("{v}");
    }
});
