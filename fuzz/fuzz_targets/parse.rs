//! Container parse + check, every part decoder, and the sweep's fixed edit
//! plans (strip-debug, remove STAT, set-private, dump and extract DXIL), each
//! written to memory and verified. Seeds: the corpus containers as they are.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(v) = dxcopy_harness::exercise(data) {
        panic!("invariant violated: {v}");
    }
});
