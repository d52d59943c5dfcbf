//! Editing DirectX Container files: an edit plan over a parsed container
//! (remove, keep, add, update, set-private, replace-bitcode, strip classes),
//! a layout engine (offsets, 4-byte padding of new parts, PRIV last and
//! unpadded, FileSize), digest and HASH upkeep, and writers that never leave a
//! partial file.
//!
//! ```
//! use dxcopy_edit::{ContainerBuilder, DigestPolicy, EditPlan, StripClass};
//! use dxcopy_read::{program::ShaderKind, Container, DigestKind, PartName};
//!
//! let input = ContainerBuilder::new()
//!     .program(b"DXIL", ShaderKind::Vertex, (6, 0), (1, 0), b"BC\xc0\xderetail")
//!     .program(b"ILDB", ShaderKind::Vertex, (6, 0), (1, 0), b"BC\xc0\xdedebug")
//!     .digest(DigestPolicy::Retail)
//!     .build()?;
//! let container = Container::parse(&input)?;
//! let mut plan = EditPlan::from_container(&container);
//! plan.strip(StripClass::Debug);
//! plan.set_private(b"build 42".to_vec());
//! let output = plan.finish()?; // digest policy auto: re-signed as retail
//! let bytes = output.to_vec();
//! let edited = Container::parse(&bytes)?;
//! assert!(edited.find(PartName::ILDB).is_none());
//! assert_eq!(edited.digest_kind(), DigestKind::Retail);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod batch;
pub mod bitcode;
pub mod builder;
pub mod c_header;
pub mod config;
#[cfg(test)]
mod config_tests;
pub mod copy;
pub mod debug;
pub mod debug_search;
#[cfg(test)]
mod debug_tests;
mod digest_decision;
pub mod dump;
pub mod dump_all;
pub mod error;
pub mod file;
mod finish;
mod hash_upkeep;
mod layout;
pub mod llvm_dis;
pub mod matcher;
pub mod name_strip;
pub mod output;
#[cfg(test)]
mod output_tests;
pub mod parallel;
pub mod parts;
pub mod pdb;
pub mod plan;
pub mod policy;
pub mod root_signature;
pub mod strip;
#[cfg(test)]
mod tests;
pub mod unchanged;
#[cfg(test)]
mod workflow_tests;

pub use builder::ContainerBuilder;
pub use config::{Config, DumpSpec, EditNote, Edits, OptionWarning, Report};
pub use dump::{dump, extract, DumpMode};
pub use dump_all::{dump_all, dump_all_per_file, Dumped};
pub use error::{EditError, FileKind, Operation, PdbMismatchReason, Remedy, Result, Spelling};
pub use file::{write_atomic, write_bytes_atomic, FileOptions};
pub use matcher::{MatchStyle, NameMatcher};
pub use output::Output;
pub use parallel::{run_many, run_many_walked};
pub use parts::{EditWarning, HashSkip, PartData, PlanPart};
pub use plan::EditPlan;
pub use policy::{DigestPolicy, HashPolicy};
pub use strip::StripClass;
