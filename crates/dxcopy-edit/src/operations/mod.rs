//! What an edit does to a container, each on the pipeline's plan or beside
//! it: dumps and extracts ([`dump`], [`dump_all`]),
//! scalar constants changed in place ([`constants`]),
//! debug information moved to and from PDBs ([`debug`], [`debug_search`],
//! [`pdb`]), bitcode name stripping ([`name_strip`]; the bitcode reader-writer
//! itself is `crate::bitcode`, below the pipeline), the root
//! signature ([`root_signature`]), C headers ([`c_header`]) and embedded
//! source files ([`sources`]).

pub mod asm;
pub mod c_header;
pub mod constants;
pub mod debug;
pub(crate) mod debug_search;
#[cfg(test)]
mod debug_tests;
pub mod dump;
pub mod dump_all;
pub mod dxil_asm;
pub(crate) mod name_strip;
pub mod pdb;
pub mod rebuild;
pub(crate) mod root_signature;
pub mod sources;
pub mod validator;
