//! The DXIL module reader (`dxcopy_read::dxil::Module`): the whole module
//! read with and without function bodies, the model's IDs checked, the
//! module facts. Input: raw bitcode (the `BC 0xC0DE` magic is added when
//! missing). A broken invariant (dxcopy_harness::exercise_module) is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(v) = dxcopy_harness::dxil_module_input(data) {
        panic!("{v}");
    }
});
