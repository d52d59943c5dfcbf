//! Zero-copy reader for DirectX Container files (DXBC / DXIL containers).
//!
//! [`Container::parse`] validates a byte slice and borrows from it; parts are
//! slices of the input, so a memory-mapped file ([`MappedFile`]) costs nothing
//! to open. Every read is bounds-checked and returns a [`ReadError`] carrying
//! the absolute offset instead of panicking.
//!
//! ## Open a container, list its parts, dump the DXIL bitcode
//!
//! ```
//! use dxcopy_read::{Container, MappedFile, PartName, Program};
//! # let dir = std::env::temp_dir().join(format!("dxcopy-read-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("shader.dxil");
//! # let mut dxil = vec![0x60, 0, 0, 0, 10, 0, 0, 0]; // ps_6_0, 10 dwords
//! # dxil.extend_from_slice(b"DXIL\x00\x01\0\0"); // DXIL 1.0
//! # dxil.extend_from_slice(&16u32.to_le_bytes()); dxil.extend_from_slice(&16u32.to_le_bytes());
//! # dxil.extend_from_slice(b"BC\xc0\xde\x35\x14\0\0\x05\0\0\0\x62\x0c\x30\x24");
//! # let mut file = b"DXBC".to_vec(); file.extend_from_slice(&[0; 16]);
//! # file.extend_from_slice(&[1, 0, 0, 0]);
//! # file.extend_from_slice(&(36 + 8 + dxil.len() as u32).to_le_bytes());
//! # file.extend_from_slice(&1u32.to_le_bytes()); file.extend_from_slice(&36u32.to_le_bytes());
//! # file.extend_from_slice(b"DXIL"); file.extend_from_slice(&(dxil.len() as u32).to_le_bytes());
//! # file.extend_from_slice(&dxil);
//! # std::fs::write(&path, &file)?;
//! let file = MappedFile::open(&path)?; // memory-mapped; `-` reads stdin
//! let container = Container::parse(&file)?;
//! for part in container.parts() {
//!     println!("{} at {:#x}, {} bytes", part.name, part.offset, part.size());
//! }
//! let dxil = container.require(PartName::DXIL)?;
//! let program = Program::parse(&dxil)?; // bitcode located by the bitcode header
//! assert_eq!(program.profile(), "ps_6_0");
//! assert!(program.has_bitcode_magic());
//! std::fs::write(dir.join("shader.bc"), program.bitcode)?; // what llvm-dis reads
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Decode PSV0 and RTS0
//!
//! Every part family has a decoder returning a plain struct;
//! [`decode_part`] dispatches by name.
//!
//! ```
//! use dxcopy_read::psv0::Psv0;
//! use dxcopy_read::rts0::{ParameterPayload, RootSignature};
//! use dxcopy_read::{Container, PartName, ShaderKind};
//! # fn le(v: &[u32]) -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() }
//! # // RTS0 1.1: one parameter of 4 root constants at b0, visible to all stages.
//! # let rts0 = le(&[2, 1, 24, 0, 48, 1, /* param */ 1, 0, 36, /* constants */ 0, 0, 4]);
//! # // PSV0 v0: 24-byte runtime info (pixel union + wave lane counts), no resources.
//! # let mut psv0 = le(&[24]); psv0.extend(le(&[0, 0, 0, 0, 0, u32::MAX])); psv0.extend(le(&[0]));
//! # let mut bytes = b"DXBC".to_vec(); bytes.extend_from_slice(&[0; 16]); bytes.extend_from_slice(&[1, 0, 0, 0]);
//! # let total = 40 + 8 + rts0.len() + 8 + psv0.len();
//! # bytes.extend(le(&[total as u32, 2, 40, 48 + rts0.len() as u32]));
//! # bytes.extend_from_slice(b"RTS0"); bytes.extend(le(&[rts0.len() as u32])); bytes.extend(&rts0);
//! # bytes.extend_from_slice(b"PSV0"); bytes.extend(le(&[psv0.len() as u32])); bytes.extend(&psv0);
//! let container = Container::parse(&bytes)?;
//! let rs = RootSignature::parse(&container.require(PartName::RTS0)?)?;
//! assert_eq!(rs.parameters.len(), 1);
//! assert!(matches!(
//!     rs.parameters[0].payload,
//!     ParameterPayload::Constants(ref c) if c.num_32bit_values == 4
//! ));
//! // PSV0's stage union needs the shader kind (normally from the DXIL part).
//! let psv = Psv0::parse(&container.require(PartName::PSV0)?, Some(ShaderKind::Pixel))?;
//! assert_eq!(psv.version, 0);
//! assert!(psv.resources.is_empty());
//! # Ok::<(), dxcopy_read::ReadError>(())
//! ```

pub mod bitcode;
pub mod budget;
pub mod c_header;
pub mod container;
pub mod cursor;
pub mod detail;
pub mod digest;
pub mod dxil;
mod enums;
pub mod error;
mod fault_guard;
pub mod fields;
#[cfg(any(test, feature = "testutil"))]
pub mod fixtures;
pub mod info;
pub mod listing;
pub mod mapped;
pub mod name;
mod part_table;
mod parts;
pub mod pdb;
pub mod record;
pub mod reflect;
pub mod scan;
pub mod sm4;
mod stage;
#[cfg(test)]
pub(crate) mod testutil;

// The decoder modules keep their paths at the crate root (`dxcopy_read::psv0`).
pub use parts::{
    aon9, debug_name, decode, dxbc, finding, hash, private, program, psv0, rdat, rdef, rts0,
    rts0_coverage, sfi0, signature, source_info, spdb, stat, version,
};

pub use container::{Container, Header, Part, PartHeader};
pub use debug_name::DebugName;
pub use decode::{decode_all, decode_part, Decoded};
pub use digest::DigestKind;
pub use error::{MsfBlockOwner, PartRef, ReadError, ReadErrorKind};
pub use finding::{Finding, FindingKind, Severity};
pub use hash::{HashStatus, ShaderHash};
pub use mapped::{InputChange, MappedFile};
pub use name::PartName;
pub use part_table::{decoded_names, part_info, Family, Llvm, PartInfo, StripClass, PART_TABLE};
pub use pdb::{container_input, is_msf, ContainerInput, ContainerSource, Pdb, PdbInfo};
pub use program::Program;
pub use reflect::Reflection;
pub use stage::ShaderKind;
