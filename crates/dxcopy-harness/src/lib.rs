//! Hardening harness: runs every reader, decoder and writer of dxcopy over
//! untrusted bytes and checks what they produce.
//!
//! One crate so that the mutation sweep (`cargo xtask sweep`), the fuzz targets
//! in `fuzz/` and the regression tests replaying their crash inputs all run the
//! same code paths with the same checks:
//!
//! - [`exercise`]: parse + check, every part decoder, the obj2yaml view, the
//!   fixed edit plans the sweep uses (strip-debug, remove STAT, set-private,
//!   dump DXIL, extract, split-debug into a companion PDB), each written to
//!   memory and verified; an MSF PDB goes through the PDB reader
//!   ([`exercise_pdb`]) and then its stream-5 container through the rest.
//! - [`decode_one`] / [`decode_input`]: every part decoder, through the
//!   library's dispatch by part name.
//! - [`attacks`]: hostile DXIL modules built at any size (the work budget's
//!   tests, sweep inputs and fuzz seeds); [`dxil_bitcode_input`]: fuzz
//!   bytes read as bitstream operations ([`bitcode_ops`]) and exercised.
//! - [`exercise_bitcode`] / [`bitcode_input`]: the LLVM bitstream reader,
//!   module facts, re-emission, the data layout fix and name stripping.
//! - [`exercise_module`] / [`dxil_module_input`]: the DXIL module reader
//!   (`dxcopy_read::dxil`) with the model's ID invariants checked.
//! - [`roundtrip`]: an edit script decoded from bytes ([`Script`]) applied to a
//!   container, written, re-parsed and checked against the layout invariants.
//! - [`verify_output`]: the invariants every written container must satisfy.
//!
//! Pass means: an `Err` or a result, never a panic and never a
//! [`Violation`]. The harness itself never panics on purpose; a panic comes
//! from the library under test.

pub mod alloc;
pub mod attacks;
mod bitcode;
mod bitcode_diff;
pub mod bitcode_ops;
pub mod corpus;
mod decode;
pub mod dxc_listings;
mod dxil;
mod dxil_header;
mod dxil_write;
mod exercise;
pub mod layers;
pub mod llvm;
mod script;
pub mod shapes;
pub mod sizes;
pub mod text_attacks;
mod verify;

pub use bitcode::{bitcode_input, dxil_bitcode_input, exercise_bitcode};
pub use bitcode_diff::first_bitstream_difference;
pub use decode::{
    debug_notes_data, decode_input, decode_named, decode_one, decode_part_compat, decode_seed,
    disasm_data, disasm_input, CountingSink, DecodeInput, DECODE_NAMES,
};
pub use dxil::{dxil_module_input, exercise_module};
pub use dxil_write::dxil_write_input;
pub use exercise::{exercise, exercise_file_writer, exercise_pdb, Summary};
pub use script::{roundtrip, Op, Script};
pub use verify::{verify_output, Violation};

/// The part names of a container, in table order (panics when `bytes` is not
/// a container: for tests that just built or wrote one).
pub fn part_names(bytes: &[u8]) -> Vec<String> {
    dxcopy_read::Container::parse(bytes)
        .expect("a container")
        .parts()
        .map(|p| p.name.to_string())
        .collect()
}

/// Where formatted output goes: counted and dropped, so that formatting runs
/// in full (Display, Debug, JSON) but memory measurements see only what the
/// library itself keeps.
#[derive(Debug, Default)]
pub struct Discard {
    /// Bytes formatted so far.
    pub bytes: u64,
}

impl std::fmt::Write for Discard {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.bytes += s.len() as u64;
        Ok(())
    }
}
