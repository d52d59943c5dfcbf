//! The SM4/SM5 disassembler (`dxinfo --disasm`). Input: the data of an SHEX
//! part; it is decoded and printed directly and as the program of a
//! one-part container (the whole listing).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dxcopy_harness::disasm_input(data);
});
