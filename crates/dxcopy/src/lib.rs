//! Library side of the dxcopy command-line tools: shared argument groups and
//! the dxinfo views (text, JSON, obj2yaml YAML). All format logic lives in
//! `dxcopy-read` and `dxcopy-edit`; this crate maps options to library calls.

pub mod cli;
pub mod info;
