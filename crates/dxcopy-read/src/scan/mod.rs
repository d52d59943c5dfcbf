//! Carving: finding the containers stored inside arbitrary bytes
//! (executables, archives, caches, memory dumps) and verifying each one.
//!
//! [`candidates`] looks for the magic `DXBC` at every byte offset (not only
//! 4-byte aligned ones) and checks each hit as a container header
//! (docs/format/container.md §1–§3): version 1.0, a FileSize that holds the
//! header and offset table and stays inside the bytes, a part table whose
//! parts all lie inside FileSize without overlapping ([`Container::parse`]),
//! and parts that end where FileSize says the container ends. A hit that
//! passes is a [`Verified`] container with its [`Facts`] (kind, stage,
//! shader model, digest status, HASH); one that fails is a [`Rejection`]
//! saying why. The search resumes after a verified container, so the parts
//! of a container are never reported as containers of their own.
//!
//! [`source`] walks into zip members and gzip streams (found at any offset
//! too); [`rows`] (with the
//! `serde` feature) is the survey view, one flat row per container.

pub mod archive;
pub mod report;
#[cfg(feature = "serde")]
pub mod rows;
pub mod source;

use crate::container::{Container, HEADER_SIZE, PART_HEADER_SIZE};
use crate::cursor::Cursor;
use crate::digest::{self, DigestKind};
use crate::dxbc::ShaderBytecode;
use crate::error::ReadError;
use crate::name::PartName;
use crate::program::Program;
use crate::{ShaderHash, ShaderKind};

/// The container magic.
pub const MAGIC: &[u8; 4] = b"DXBC";

/// Whether a verified container holds DXIL (a `DXIL` part) or DXBC-era
/// bytecode only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContainerKind {
    /// No DXIL part: fxc output, root signatures, effects.
    Dxbc,
    /// A DXIL part: dxc output.
    Dxil,
}

impl ContainerKind {
    /// `DXBC` or `DXIL`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContainerKind::Dxbc => "DXBC",
            ContainerKind::Dxil => "DXIL",
        }
    }

    /// The file extension extraction gives it: `dxbc` or `dxil`.
    pub fn extension(self) -> &'static str {
        match self {
            ContainerKind::Dxbc => "dxbc",
            ContainerKind::Dxil => "dxil",
        }
    }
}

/// The digest status the scan reports: retail, debug, unsigned or bad.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DigestStatus {
    /// A valid retail digest.
    Retail,
    /// A valid debug digest.
    Debug,
    /// No digest: all zero, or the BYPASS / PREVIEW sentinel.
    Unsigned,
    /// A digest that matches neither variant of the bytes.
    Bad,
}

impl DigestStatus {
    /// From the container digest's classification.
    pub fn of(kind: DigestKind) -> DigestStatus {
        match kind {
            DigestKind::Retail => DigestStatus::Retail,
            DigestKind::Debug => DigestStatus::Debug,
            DigestKind::Zero | DigestKind::Bypass | DigestKind::Preview => DigestStatus::Unsigned,
            DigestKind::Invalid => DigestStatus::Bad,
        }
    }

    /// `retail`, `debug`, `unsigned` or `bad`.
    pub fn as_str(self) -> &'static str {
        match self {
            DigestStatus::Retail => "retail",
            DigestStatus::Debug => "debug",
            DigestStatus::Unsigned => "unsigned",
            DigestStatus::Bad => "bad",
        }
    }
}

/// What the scan tells of a verified container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// Its length in bytes (its FileSize).
    pub size: u64,
    /// DXBC or DXIL.
    pub kind: ContainerKind,
    /// The stage and shader model of its program part (DXIL, else SHEX or
    /// SHDR), when it has one that decodes.
    pub program: Option<ProgramFacts>,
    /// The stored digest's classification.
    pub digest_kind: DigestKind,
    /// The stored container digest.
    pub digest: [u8; 16],
    /// The HASH part's digest (the shader hash), when it has a HASH part.
    pub shader_hash: Option<[u8; 16]>,
}

impl Facts {
    /// Retail, debug, unsigned or bad.
    pub fn digest_status(&self) -> DigestStatus {
        DigestStatus::of(self.digest_kind)
    }
}

/// A program part's stage and shader model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramFacts {
    /// The stage.
    pub stage: ShaderKind,
    /// Shader model major version.
    pub major: u8,
    /// Shader model minor version.
    pub minor: u8,
}

impl ProgramFacts {
    /// `6.0`-style shader model.
    pub fn shader_model(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }

    /// `ps_6_0`-style profile.
    pub fn profile(&self) -> String {
        format!(
            "{}_{}_{}",
            self.stage.profile_prefix(),
            self.major,
            self.minor
        )
    }
}

/// Why a candidate found in the bytes is not reported: a `DXBC` that is no
/// container, or a gzip header whose stream does not inflate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// Fewer bytes left than a header needs.
    #[error("only {available} bytes follow the magic, a header needs 32")]
    Truncated {
        /// Bytes from the magic to the end.
        available: u64,
    },
    /// A version other than 1.0.
    #[error("version {major}.{minor} (containers are 1.0)")]
    Version {
        /// Major.
        major: u16,
        /// Minor.
        minor: u16,
    },
    /// FileSize smaller than the header and offset table.
    #[error(
        "FileSize {file_size} is smaller than its header and offset table ({table_end} bytes)"
    )]
    FileSizeTooSmall {
        /// FileSize as stored.
        file_size: u32,
        /// Header plus offset table.
        table_end: u64,
    },
    /// FileSize past the end of the bytes.
    #[error("FileSize {file_size} runs past the end ({available} bytes follow the magic)")]
    FileSizePastEnd {
        /// FileSize as stored.
        file_size: u32,
        /// Bytes from the magic to the end.
        available: u64,
    },
    /// More parts than FileSize can hold.
    #[error("{part_count} parts cannot fit in FileSize {file_size}")]
    TooManyParts {
        /// PartCount as stored.
        part_count: u32,
        /// FileSize as stored.
        file_size: u32,
    },
    /// The part table does not read inside FileSize (a part past the end,
    /// inside the header, overlapping another).
    #[error("{0}")]
    PartTable(ReadError),
    /// A gzip member header (magic and sane flags) whose stream does not
    /// inflate: a cut stream, or bytes that only look like a header.
    #[error("gzip header, but {0}")]
    Gzip(archive::ArchiveError),
    /// FileSize larger than the parts: the bytes past the last part are
    /// not the container's.
    #[error("the parts end at {parts_end} but FileSize is {file_size}")]
    SizeBeyondParts {
        /// Where the last part's data ends.
        parts_end: u64,
        /// FileSize as stored.
        file_size: u32,
    },
}

/// A container found and verified.
#[derive(Debug, Clone)]
pub struct Verified<'data> {
    /// The container, borrowing exactly its FileSize bytes.
    pub container: Container<'data>,
    /// Its facts.
    pub facts: Facts,
}

/// One place where the magic was found, at `offset` in the scanned bytes.
#[derive(Debug, Clone)]
pub struct Candidate<'data> {
    /// Offset of the magic.
    pub offset: u64,
    /// The container, or why it is none.
    pub outcome: Result<Verified<'data>, Rejection>,
}

/// Every candidate in `bytes`, in offset order (see the module docs).
pub fn candidates(bytes: &[u8]) -> Candidates<'_> {
    Candidates {
        bytes,
        next: 0,
        finder: memchr::memmem::Finder::new(MAGIC),
    }
}

/// The iterator of [`candidates`].
#[derive(Debug, Clone)]
pub struct Candidates<'data> {
    bytes: &'data [u8],
    next: usize,
    finder: memchr::memmem::Finder<'static>,
}

impl<'data> Iterator for Candidates<'data> {
    type Item = Candidate<'data>;

    fn next(&mut self) -> Option<Candidate<'data>> {
        let rest = self.bytes.get(self.next..)?;
        let at = self.next + self.finder.find(rest)?;
        let outcome = verify_at(self.bytes, at);
        self.next = match &outcome {
            // Within a verified container only its parts follow.
            Ok(v) => at + v.container.data().len(),
            Err(_) => at + 1,
        };
        Some(Candidate {
            offset: at as u64,
            outcome,
        })
    }
}

/// Checks the magic at `at` in `bytes` as a container header and, when the
/// header holds, parses and classifies the container.
pub fn verify_at(bytes: &[u8], at: usize) -> Result<Verified<'_>, Rejection> {
    let rest = bytes.get(at..).unwrap_or_default();
    let available = rest.len() as u64;
    if available < HEADER_SIZE {
        return Err(Rejection::Truncated { available });
    }
    let c = Cursor::new(rest, 0);
    let field = |offset| c.u32(offset, "header").unwrap_or_default();
    let (version, file_size, part_count) = (field(20), field(24), field(28));
    let (major, minor) = (version as u16, (version >> 16) as u16);
    if (major, minor) != (1, 0) {
        return Err(Rejection::Version { major, minor });
    }
    let table_end = HEADER_SIZE + 4 * u64::from(part_count);
    if u64::from(file_size) < table_end {
        // Say which of the two is wrong: the part count or the size.
        if u64::from(part_count) * (4 + PART_HEADER_SIZE) + HEADER_SIZE > available {
            return Err(Rejection::TooManyParts {
                part_count,
                file_size,
            });
        }
        return Err(Rejection::FileSizeTooSmall {
            file_size,
            table_end,
        });
    }
    if u64::from(file_size) > available {
        return Err(Rejection::FileSizePastEnd {
            file_size,
            available,
        });
    }
    if u64::from(part_count) * (4 + PART_HEADER_SIZE) > u64::from(file_size) - HEADER_SIZE {
        return Err(Rejection::TooManyParts {
            part_count,
            file_size,
        });
    }
    let data = &rest[..file_size as usize];
    let container = Container::parse(data).map_err(Rejection::PartTable)?;
    let parts_end = container
        .parts()
        .map(|p| p.data_offset() + u64::from(p.size()))
        .max()
        .unwrap_or(table_end);
    // The writers pad nothing after the last part but, at most, the bytes
    // that bring it to a 4-byte boundary.
    if parts_end + 3 < u64::from(file_size) {
        return Err(Rejection::SizeBeyondParts {
            parts_end,
            file_size,
        });
    }
    let facts = facts_of(&container);
    Ok(Verified { container, facts })
}

/// The facts of a parsed container: its kind, its program's stage and
/// shader model (from the DXIL part, else SHEX or SHDR), the digest
/// classification and the HASH digest.
pub fn facts_of(container: &Container<'_>) -> Facts {
    let dxil = container.find(PartName::DXIL);
    let program = match dxil {
        Some(part) => Program::parse(&part).ok().map(|p| ProgramFacts {
            stage: p.shader_kind,
            major: p.model_major,
            minor: p.model_minor,
        }),
        None => container
            .find(PartName::SHEX)
            .or_else(|| container.find(PartName::SHDR))
            .and_then(|part| ShaderBytecode::parse(&part).ok())
            .and_then(|b| {
                Some(ProgramFacts {
                    stage: b.program_type.stage()?,
                    major: b.major,
                    minor: b.minor,
                })
            }),
    };
    let header = container.header();
    Facts {
        size: container.data().len() as u64,
        kind: if dxil.is_some() {
            ContainerKind::Dxil
        } else {
            ContainerKind::Dxbc
        },
        program,
        digest_kind: digest::classify(container.data()),
        digest: header.digest,
        shader_hash: container
            .find(PartName::HASH)
            .and_then(|p| ShaderHash::parse(&p).ok())
            .map(|h| h.digest),
    }
}

#[cfg(test)]
mod tests;
