//! `--extract-sources`: the source files of a container's SRCI and their paths
//! below the folder (within the depth and length limits, never leaving it).
//! Seeds: a deeply nested recorded path.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dxcopy_harness::text_attacks::sources_input(data);
});
