//! The dxcopy command-line tools (dxcopy, dxstrip, dxinfo): clap argument
//! parsing, messages and exit codes. Every behaviour lives in the libraries —
//! reading, decoding and the dxinfo views in `dxcopy-read`, editing, layout,
//! signing and file writing in `dxcopy-edit` — and this crate maps options to
//! library calls.

pub mod args;
pub mod cli;
pub mod cmd;
pub mod header_args;
pub mod listing_args;

/// The dxinfo views, which live in the libraries; re-exported here so
/// `dxcopy::info::…` paths keep working.
pub mod info {
    pub use dxcopy_edit::dump_all as dump;
    pub use dxcopy_read::info::*;
}

/// Version string shown by `--version`: the crate version, plus the git commit
/// when built from a checkout (set by build.rs).
pub const VERSION: &str = env!("DXCOPY_VERSION");
