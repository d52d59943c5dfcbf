//! Hardening harness: runs every reader, decoder and writer of dxcopy over
//! untrusted bytes and checks what they produce.
//!
//! One crate so that the mutation sweep (`cargo xtask sweep`), the fuzz targets
//! in `fuzz/` and the regression tests replaying their crash inputs all run the
//! same code paths with the same checks:
//!
//! - [`exercise`]: parse + check, every part decoder, the fixed edit plans the
//!   sweep uses (strip-debug, remove STAT, set-private, dump DXIL, extract),
//!   each written to memory and verified.
//! - [`roundtrip`]: an edit script decoded from bytes ([`Script`]) applied to a
//!   container, written, re-parsed and checked against the layout invariants.
//! - [`verify_output`]: the invariants every written container must satisfy.
//!
//! Pass means: an `Err` or a result, never a panic and never a
//! [`Violation`]. The harness itself never panics on purpose; a panic comes
//! from the library under test.

mod exercise;
mod script;
mod verify;

pub use exercise::{exercise, Summary};
pub use script::{roundtrip, Op, Script};
pub use verify::{verify_output, Violation};
