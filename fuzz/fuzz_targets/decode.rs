//! Every part decoder, dispatched by part name. Input: byte 0 picks the part
//! name (dxcopy_harness::DECODE_NAMES), byte 1 the shader kind (bit 7: place
//! the part at an odd file offset), the rest is the part data. The data is
//! decoded directly and as the part of a one-part container (the
//! LLVM-compatible readers of the obj2yaml view need a whole part).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dxcopy_harness::decode_input(data);
});
