//! C headers: any bytes read as a header, each array written back with a listing
//! (which must not escape its `#if 0` block) and read again; a container is
//! written as the compiler's header. Seeds: many small arrays, a signature
//! name that tries to end the `#if 0` block.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dxcopy_harness::text_attacks::c_header_input(data);
});
