//! A laid-out container ready to write: header, offset table and parts.
//!
//! Layout rules: header 32 + 4 × PartCount bytes; parts back to back in plan
//! order; each part is its 8-byte header plus its data (input parts keep their
//! exact bytes and size, so odd sizes give unaligned successors as in the
//! input); FileSize, PartCount and the offsets are recomputed.

use crate::error::{EditError, Result};
use crate::plan::{EditWarning, PlanPart};
use crate::policy::ResolvedDigest;
use dxcopy_read::digest::DigestHasher;
use dxcopy_read::DigestKind;
use std::io::{self, Seek, SeekFrom, Write};

/// A finished edit: everything needed to write the container.
#[derive(Debug, Clone)]
pub struct Output<'data> {
    prefix: Vec<u8>,
    offsets: Vec<u32>,
    parts: Vec<PlanPart<'data>>,
    digest: ResolvedDigest,
    warnings: Vec<EditWarning>,
    file_size: u32,
}

impl<'data> Output<'data> {
    pub(crate) fn new(
        version: (u16, u16),
        parts: Vec<PlanPart<'data>>,
        digest: ResolvedDigest,
        warnings: Vec<EditWarning>,
    ) -> Result<Self> {
        let table_end = 32 + 4 * parts.len() as u64;
        let mut offsets = Vec::with_capacity(parts.len());
        let mut next = table_end;
        for p in &parts {
            if next > u64::from(u32::MAX) {
                return Err(EditError::TooLarge(next));
            }
            offsets.push(next as u32);
            next += 8 + p.bytes().len() as u64;
        }
        if next > u64::from(u32::MAX) {
            return Err(EditError::TooLarge(next));
        }
        let mut prefix = Vec::with_capacity(table_end as usize);
        prefix.extend_from_slice(b"DXBC");
        prefix.extend_from_slice(&digest.fixed);
        prefix.extend_from_slice(&version.0.to_le_bytes());
        prefix.extend_from_slice(&version.1.to_le_bytes());
        prefix.extend_from_slice(&(next as u32).to_le_bytes());
        prefix.extend_from_slice(&(parts.len() as u32).to_le_bytes());
        for o in &offsets {
            prefix.extend_from_slice(&o.to_le_bytes());
        }
        Ok(Output {
            prefix,
            offsets,
            parts,
            digest,
            warnings,
            file_size: next as u32,
        })
    }

    /// Total size of the container (its FileSize).
    pub fn file_size(&self) -> u32 {
        self.file_size
    }

    /// The parts in output order.
    pub fn parts(&self) -> &[PlanPart<'data>] {
        &self.parts
    }

    /// Absolute offset of each part header.
    pub fn part_offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// Warnings gathered while finishing the plan.
    pub fn warnings(&self) -> &[EditWarning] {
        &self.warnings
    }

    /// The kind of digest the written container carries.
    pub fn digest_kind(&self) -> DigestKind {
        self.digest.kind
    }

    fn feed(&self, mut sink: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        sink(&self.prefix)?;
        for p in &self.parts {
            let data = p.bytes();
            let mut head = [0u8; 8];
            head[..4].copy_from_slice(&p.name.0);
            head[4..].copy_from_slice(&(data.len() as u32).to_le_bytes());
            sink(&head)?;
            sink(data)?;
        }
        Ok(())
    }

    fn hash_all(&self) -> Option<[u8; 16]> {
        let variant = self.digest.recompute?;
        let mut h = DigestHasher::new();
        let mut first = true;
        self.feed(|b| {
            if first {
                h.update(&b[20..]);
                first = false;
            } else {
                h.update(b);
            }
            Ok(())
        })
        .expect("hashing does not fail");
        Some(h.finish(variant))
    }

    /// The digest the container will carry (computed when the policy says so).
    pub fn digest(&self) -> [u8; 16] {
        self.hash_all().unwrap_or(self.digest.fixed)
    }

    /// Writes the container to any writer. A computed digest takes a first
    /// pass over the data; use [`write_to_seekable`](Self::write_to_seekable)
    /// for files to hash while writing.
    pub fn write_to<W: Write>(&self, mut w: W) -> io::Result<[u8; 16]> {
        let digest = self.digest();
        let mut first = true;
        self.feed(|b| {
            if first {
                first = false;
                w.write_all(&b[..4])?;
                w.write_all(&digest)?;
                w.write_all(&b[20..])
            } else {
                w.write_all(b)
            }
        })?;
        w.flush()?;
        Ok(digest)
    }

    /// Writes the container in one pass, hashing as it goes, then writes the
    /// digest at offset 4. `w` must be positioned at the container's start.
    pub fn write_to_seekable<W: Write + Seek>(&self, w: W) -> io::Result<[u8; 16]> {
        let mut w = io::BufWriter::with_capacity(1 << 16, w);
        let start = w.stream_position()?;
        let mut hasher = self.digest.recompute.map(|v| (DigestHasher::new(), v));
        let mut first = true;
        self.feed(|b| {
            if let Some((h, _)) = hasher.as_mut() {
                h.update(if first { &b[20..] } else { b });
            }
            first = false;
            w.write_all(b)
        })?;
        let digest = match hasher {
            Some((h, v)) => {
                let d = h.finish(v);
                w.seek(SeekFrom::Start(start + 4))?;
                w.write_all(&d)?;
                w.seek(SeekFrom::Start(start + u64::from(self.file_size)))?;
                d
            }
            None => self.digest.fixed,
        };
        w.flush()?;
        Ok(digest)
    }

    /// The container as bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.file_size as usize);
        self.write_to_seekable(io::Cursor::new(&mut v))
            .expect("writing to memory does not fail");
        v
    }
}
