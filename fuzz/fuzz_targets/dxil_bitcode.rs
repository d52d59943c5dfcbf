//! Structure-aware DXIL bitcode: the input is a program of bitstream
//! operations (blocks, abbreviations and BLOCKINFO, records, metadata
//! nodes, repeats) that `dxcopy_harness::bitcode_ops` writes as well-formed
//! bitcode, then the bitstream reader, module facts, the module reader and
//! its listing, re-emission and name stripping run on it
//! (dxcopy_harness::exercise_bitcode). A broken invariant is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(v) = dxcopy_harness::dxil_bitcode_input(data) {
        panic!("{v}");
    }
});
