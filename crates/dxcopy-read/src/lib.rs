//! Zero-copy reader for DirectX Container files (DXBC / DXIL containers).
//!
//! [`Container::parse`] validates a byte slice and borrows from it; parts are
//! slices of the input, so a memory-mapped file ([`MappedFile`]) costs nothing
//! to open. Every read is bounds-checked and returns a [`ReadError`] carrying
//! the absolute offset instead of panicking.
//!
//! ```
//! use dxcopy_read::{Container, PartName};
//! # let bytes = {
//! #     let mut b = b"DXBC".to_vec(); b.extend_from_slice(&[0; 16]);
//! #     b.extend_from_slice(&[1, 0, 0, 0]); b.extend_from_slice(&48u32.to_le_bytes());
//! #     b.extend_from_slice(&1u32.to_le_bytes()); b.extend_from_slice(&36u32.to_le_bytes());
//! #     b.extend_from_slice(b"SFI0"); b.extend_from_slice(&4u32.to_le_bytes()); b.extend_from_slice(&[0; 4]); b };
//! let container = Container::parse(&bytes)?;
//! for part in container.parts() {
//!     println!("{} at {:#x}, {} bytes", part.name, part.offset, part.size());
//! }
//! assert!(container.find(PartName::SFI0).is_some());
//! # Ok::<(), dxcopy_read::ReadError>(())
//! ```

pub mod aon9;
pub mod container;
pub mod cursor;
pub mod debug_name;
pub mod decode;
pub mod digest;
pub mod dxbc;
mod enums;
pub mod error;
pub mod fields;
pub mod hash;
pub mod mapped;
pub mod name;
pub mod pdb;
pub mod private;
pub mod program;
pub mod psv0;
pub mod rdat;
pub mod rdef;
pub mod rts0;
pub mod sfi0;
pub mod signature;
pub mod source_info;
pub mod spdb;
pub mod stat;
#[cfg(test)]
pub(crate) mod testutil;
pub mod version;

pub use container::{Container, Finding, Header, Part, Severity};
pub use debug_name::DebugName;
pub use decode::{decode_all, decode_part, Decoded};
pub use digest::DigestKind;
pub use error::{MsfBlockOwner, PartRef, ReadError, ReadErrorKind};
pub use fields::Issue;
pub use hash::{HashStatus, ShaderHash};
pub use mapped::MappedFile;
pub use name::PartName;
pub use pdb::{container_input, is_msf, ContainerInput, ContainerSource, Pdb, PdbInfo};
pub use program::{Program, ShaderKind};
