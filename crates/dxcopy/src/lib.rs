//! Library side of the dxcopy command-line tools: shared argument groups and
//! the dxinfo views (text, JSON, obj2yaml YAML). All format logic lives in
//! `dxcopy-read` and `dxcopy-edit`; this crate maps options to library calls.

pub mod args;
pub mod cli;
pub mod cmd;
pub mod info;

/// Version string shown by `--version`: the crate version, plus the git commit
/// when built from a checkout (set by build.rs).
pub const VERSION: &str = env!("DXCOPY_VERSION");
