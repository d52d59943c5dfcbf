//! The DXIL module writer (`dxcopy_edit::bitcode::write_module`): every
//! module that reads is written back; the writer writes it or fails with
//! an error, and what it writes reads back as the same model and writes
//! again as the same bytes. Input: raw bitcode (the `BC 0xC0DE` magic is
//! added when missing). A broken invariant is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(v) = dxcopy_harness::dxil_write_input(data) {
        panic!("{v}");
    }
});
