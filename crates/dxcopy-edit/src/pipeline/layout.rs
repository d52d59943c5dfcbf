//! The layout step of the edit pipeline (after the digest decision, before
//! the writers): where every part goes.
//!
//! Rules: header 32 + 4 × PartCount bytes; parts back to back in plan order;
//! each part is its 8-byte header plus its data. Parts carried over from the
//! input keep their exact bytes and size and follow their predecessor
//! directly, so odd sizes give unaligned successors as in the input (and as
//! llvm-objcopy writes them). A part dxcopy places — new or replaced data —
//! starts on a 4-byte boundary: 1–3 zero bytes go before it when its
//! predecessor ends unaligned (readers treat them as alignment padding, not
//! as a gap), and an input part that had such padding before it keeps it, so
//! a no-op copy of an aligned file stays byte-identical. FileSize, PartCount
//! and the offsets are recomputed. The digest is not part
//! of the layout: the header's bytes 4..20 are zero here and filled in by the
//! writer.

use crate::error::{EditError, Result};
use crate::parts::PlanPart;
use dxcopy_read::{Header, PartHeader};

/// Bytes 20.. of the header: what the digest covers from the header on.
pub(crate) const SIGNED_FROM: usize = 20;

/// The parts with their offsets, part headers and the container header.
#[derive(Debug, Clone)]
pub(crate) struct Layout<'data> {
    /// Header and offset table, with a zero digest at bytes 4..20.
    pub(crate) prefix: Vec<u8>,
    /// Absolute offset of each part header.
    pub(crate) offsets: Vec<u32>,
    /// Each part's 8-byte header (name, size).
    pub(crate) part_headers: Vec<[u8; 8]>,
    /// Zero bytes (0–3) before each part header: alignment of placed parts.
    pub(crate) padding: Vec<u8>,
    /// The parts in output order.
    pub(crate) parts: Vec<PlanPart<'data>>,
    /// Total size (FileSize).
    pub(crate) file_size: u32,
}

impl<'data> Layout<'data> {
    /// Lays out `parts` in a container of format `version`, aligning placed
    /// parts when `align`, and the input parts whose index is `true` in
    /// `input_padded` (they had alignment padding before them in the input).
    /// Error if the container would not fit the header's 32-bit sizes.
    pub(crate) fn new(
        version: (u16, u16),
        parts: Vec<PlanPart<'data>>,
        align: bool,
        input_padded: &[bool],
    ) -> Result<Self> {
        let table_end = 32 + 4 * parts.len() as u64;
        let mut offsets = Vec::with_capacity(parts.len());
        let mut part_headers = Vec::with_capacity(parts.len());
        let mut padding = Vec::with_capacity(parts.len());
        let mut next = table_end;
        for p in &parts {
            let aligned = match p.source {
                None => align,
                Some(i) => input_padded.get(i as usize).copied().unwrap_or(false),
            };
            let pad = if aligned {
                next.next_multiple_of(4) - next
            } else {
                0
            };
            padding.push(pad as u8);
            next += pad;
            if next > u64::from(u32::MAX) {
                return Err(EditError::TooLarge(next));
            }
            offsets.push(next as u32);
            let size = p.size() as u64;
            let mut head = [0u8; 8];
            let header = PartHeader {
                name: p.name.0,
                size: size as u32,
            };
            head.copy_from_slice(&header.to_bytes());
            part_headers.push(head);
            next += 8 + size;
        }
        if next > u64::from(u32::MAX) {
            return Err(EditError::TooLarge(next));
        }
        let mut prefix = Vec::with_capacity(table_end as usize);
        Header {
            magic: *b"DXBC",
            digest: [0; 16],
            major: version.0,
            minor: version.1,
            file_size: next as u32,
            part_count: parts.len() as u32,
        }
        .write_to(&mut prefix);
        for o in &offsets {
            prefix.extend_from_slice(&o.to_le_bytes());
        }
        Ok(Layout {
            prefix,
            offsets,
            part_headers,
            padding,
            parts,
            file_size: next as u32,
        })
    }

    /// The zero bytes to write before part `i`.
    pub(crate) fn padding_before(&self, i: usize) -> &'static [u8] {
        &[0u8; 3][..usize::from(self.padding[i])]
    }

    /// The header and table with `digest` at bytes 4..20.
    pub(crate) fn head_with(&self, digest: &[u8; 16]) -> Vec<u8> {
        let mut head = self.prefix.clone();
        head[4..SIGNED_FROM].copy_from_slice(digest);
        head
    }
}
