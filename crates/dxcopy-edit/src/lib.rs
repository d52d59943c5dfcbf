//! Editing DirectX Container files: an edit plan over a parsed container
//! (remove, keep, add, update, set-private, replace-bitcode, strip classes),
//! a layout engine (offsets, 4-byte padding of new parts, PRIV last and
//! unpadded, FileSize), digest and HASH upkeep, and writers that never leave a
//! partial file.
//!
//! ```
//! use dxcopy_edit::{ContainerBuilder, DigestPolicy, EditPlan, StripClass};
//! use dxcopy_read::{Container, DigestKind, PartName, ShaderKind};
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

// The crate in three folders: the edit pipeline (parts → plan → HASH
// upkeep → digest decision → layout → writers), the operations on it, and
// running them on files. Modules are private; each public type has one path,
// at the crate root or under one of the public module paths below.
pub mod bitcode;
mod builder;
mod error;
pub mod file;
mod operations;
mod pipeline;
mod run;
pub mod scan;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod workflow_tests;

// Crate-internal short paths (`crate::plan`, `crate::config`, …), so that
// each file names the step it uses.
use operations::{debug_search, name_strip, root_signature};
use pipeline::{
    copy, digest_decision, hash_upkeep, layout, matcher, output, parts, plan, policy, strip,
    unchanged,
};
use run::parallel;

/// Module paths used by name from other crates.
pub use operations::{
    asm, c_header, constants, debug, dump, dump_all, dxil_asm, pdb, rebuild, sources, validator,
};
pub use run::{batch, config, header_run, llvm_dis, tree};

pub use builder::ContainerBuilder;
pub use config::{Config, DumpSpec, EditNote, Edits, OptionWarning, Report};
pub use dump::{dump, extract, DumpMode};
pub use dump_all::{dump_all, dump_all_per_file, Dumped};
pub use error::{
    EditError, FileKind, Operation, PdbMismatchReason, RebuildFailure, Remedy, Result, Spelling,
};
pub use file::{write_atomic, write_bytes_atomic, FileOptions};
pub use matcher::{MatchStyle, NameMatcher};
pub use output::Output;
pub use parallel::{run_many, run_many_walked};
pub use parts::{EditWarning, HashSkip, PartData, PlanPart};
pub use plan::EditPlan;
pub use policy::{DigestPolicy, HashPolicy};
pub use strip::StripClass;
