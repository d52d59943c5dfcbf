//! The DXBC assembler (dxasm): any bytes, as UTF-8 text, assembled; a listing that
//! assembles is built into a container that must parse. Seeds: the harness's
//! text attacks (long lines, runs of `_`, nested relative indices, hidden text).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dxcopy_harness::text_attacks::asm_input(data);
});
