//! Random edit scripts (remove, only, keep, strip, add, update, set-private,
//! replace-bitcode, digest and hash policies) → write → re-parse → layout
//! invariants (PRIV last and unpadded, new parts padded to 4, FileSize and
//! offsets true, untouched parts byte-identical, no-op rewrite identical).
//! Input: byte 0 = script length n, bytes 1..=n the script, then the container.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let script = dxcopy_harness::Script::decode(data);
    if let Err(v) = dxcopy_harness::roundtrip(&script) {
        panic!("invariant violated: {v}");
    }
});
