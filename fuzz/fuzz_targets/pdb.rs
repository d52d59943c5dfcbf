//! The PDB reader: MSF superblock, block map, directory, every stream, and
//! the stream-5 container, which then goes through everything the parse
//! target does. Seeds: the corpus's dxc companion PDBs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(v) = dxcopy_harness::exercise_pdb(data) {
        panic!("invariant violated: {v}");
    }
});
