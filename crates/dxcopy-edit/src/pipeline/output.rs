//! The writers, the last step of the edit pipeline: a laid-out container
//! with its digest decision, written to memory, to any `Write`, or file to
//! file.
//!
//! Writing streams the output as a list of segments: the header, offset table,
//! part headers and new parts from memory, input parts from the input. No
//! writer but [`Output::to_vec`] holds the whole output in memory, and parts
//! that are not kept are never read. [`Output::write_file_from`] copies runs
//! of input bytes file to file in the kernel and hashes beside the copy.
//!
//! When the digest decision is still open (`--digest=auto` on a signed
//! input, see the digest decision step), the writer hashes the input beside
//! the copy and the output's own hash, or reuses that hash as the output's
//! digest when the output's signed bytes are the input's.

use crate::copy::{self, KERNEL_COPY_MIN};
use crate::digest_decision::{DigestDecision, InputDigests, Resolution};
use crate::layout::{Layout, SIGNED_FROM};
use crate::parts::{EditWarning, PlanPart};
use dxcopy_read::digest::{self, DigestHasher, Variant};
use dxcopy_read::mapped::offset_within;
use dxcopy_read::{DigestKind, MappedFile};
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};

/// Outputs up to this size are assembled in memory and written with one call.
const SMALL_OUTPUT: u64 = 64 << 10;

/// See [`Output::digest_work`].
#[derive(Debug, Clone, Copy)]
enum DigestWork {
    Known([u8; 16]),
    Hash(Variant),
}

/// A run of output bytes and where they come from.
#[derive(Debug, Clone, Copy)]
enum Segment<'a> {
    /// Bytes in memory: header, offset table, part headers, new parts.
    Memory(&'a [u8]),
    /// Bytes of the input container at `offset` (also readable as `bytes`).
    Input { offset: u64, bytes: &'a [u8] },
}

impl<'a> Segment<'a> {
    fn bytes(&self) -> &'a [u8] {
        match *self {
            Segment::Memory(b) | Segment::Input { bytes: b, .. } => b,
        }
    }
}

/// A finished edit: everything needed to write the container.
#[derive(Debug, Clone)]
pub struct Output<'data> {
    layout: Layout<'data>,
    /// The input container's bytes, to locate borrowed parts in the input.
    input: Option<&'data [u8]>,
    digest: DigestDecision,
    /// The input's digests, when the caller computed them ahead.
    input_digests: Option<InputDigests>,
}

impl<'data> Output<'data> {
    pub(crate) fn new(
        layout: Layout<'data>,
        input: Option<&'data [u8]>,
        digest: DigestDecision,
    ) -> Self {
        Output {
            layout,
            input,
            digest,
            input_digests: None,
        }
    }

    /// The same output, with the input's digests already known (computed
    /// for several inputs at once), so classifying the input hashes nothing.
    pub(crate) fn with_input_digests(mut self, digests: InputDigests) -> Self {
        self.input_digests = Some(digests);
        self
    }

    /// Total size of the container (its FileSize).
    pub fn file_size(&self) -> u32 {
        self.layout.file_size
    }

    /// The parts in output order.
    pub fn parts(&self) -> &[PlanPart<'data>] {
        &self.layout.parts
    }

    /// Absolute offset of each part header.
    pub fn part_offsets(&self) -> &[u32] {
        &self.layout.offsets
    }

    /// Warnings gathered while finishing the plan. Under `--digest=auto` with
    /// a signed input this classifies the input's digest (one pass over it)
    /// unless a writer has done so already.
    pub fn warnings(&self) -> &[EditWarning] {
        &self.resolution().warnings
    }

    /// The kind of digest the written container carries (may classify the
    /// input, as [`warnings`](Self::warnings)).
    pub fn digest_kind(&self) -> DigestKind {
        self.resolution().digest.kind
    }

    fn input_digests(&self) -> InputDigests {
        match self.input_digests {
            Some(known) => known,
            None => self.input.and_then(digest::container_digests),
        }
    }

    fn resolution(&self) -> &Resolution {
        self.digest.resolve(|| self.input_digests())
    }

    /// What it takes to know the output's digest: nothing for a fixed one or
    /// for the input's own when the signed bytes are the same, else a hash.
    fn digest_work(&self, r: &Resolution) -> DigestWork {
        let Some(variant) = r.digest.recompute else {
            return DigestWork::Known(r.digest.fixed);
        };
        match r.input_digests {
            Some((retail, debug)) if self.same_signed_bytes_as_input() => {
                DigestWork::Known(match variant {
                    Variant::Retail => retail,
                    Variant::Debug => debug,
                })
            }
            _ => DigestWork::Hash(variant),
        }
    }

    /// Whether bytes 20..FileSize of the output are those of the input, so
    /// their digests are the same: same header fields and offset table, and
    /// every part borrowed from the input at the offset it will have.
    fn same_signed_bytes_as_input(&self) -> bool {
        let Some(input) = self.input else {
            return false;
        };
        let Layout {
            prefix,
            offsets,
            part_headers,
            parts,
            ..
        } = &self.layout;
        if input.get(SIGNED_FROM..prefix.len()) != Some(&prefix[SIGNED_FROM..]) {
            return false;
        }
        let layout = parts.iter().zip(offsets).zip(part_headers).enumerate();
        layout.into_iter().all(|(i, ((p, &offset), head))| {
            let offset = offset as usize;
            let pad = self.layout.padding_before(i);
            p.data.zeros() == 0
                && offset_within(input, p.bytes()) == Some(offset as u64 + 8)
                && input.get(offset..offset + 8) == Some(&head[..])
                && input.get(offset - pad.len()..offset) == Some(pad)
        })
    }

    /// The output as segments, merging runs of input bytes that stay
    /// contiguous (an input part header is reused when it equals the new one).
    fn segments(&self) -> Vec<Segment<'_>> {
        let Layout {
            prefix,
            part_headers,
            parts,
            ..
        } = &self.layout;
        let mut segs = Vec::with_capacity(1 + 2 * parts.len());
        segs.push(Segment::Memory(prefix));
        for (i, (p, head)) in parts.iter().zip(part_headers).enumerate() {
            let pad = self.layout.padding_before(i);
            if !pad.is_empty() {
                segs.push(Segment::Memory(pad));
            }
            let data = p.bytes();
            let located = self
                .input
                .and_then(|input| Some((input, offset_within(input, data)? as usize)));
            let Some((input, data_offset)) = located else {
                segs.push(Segment::Memory(head));
                segs.push(Segment::Memory(data));
                // The padding zeros of data streamed from a mapped data file.
                if p.data.zeros() > 0 {
                    segs.push(Segment::Memory(&[0u8; 3][..p.data.zeros()]));
                }
                continue;
            };
            let end = data_offset + data.len();
            let start = match data_offset.checked_sub(8) {
                Some(h) if input.get(h..data_offset) == Some(&head[..]) => h,
                _ => {
                    segs.push(Segment::Memory(head));
                    data_offset
                }
            };
            if let Some(Segment::Input { offset, bytes }) = segs.last_mut() {
                let prev_start = *offset as usize;
                if prev_start + bytes.len() == start {
                    *bytes = &input[prev_start..end];
                    continue;
                }
            }
            segs.push(Segment::Input {
                offset: start as u64,
                bytes: &input[start..end],
            });
        }
        segs
    }

    /// Hashes the output's signed bytes (20..end) from memory; input runs are
    /// first mapped in from `mapped` in one call each (no page faults).
    fn hash_segments(segs: &[Segment<'_>], mapped: Option<&MappedFile>) -> DigestHasher {
        let mut h = DigestHasher::new();
        for (i, s) in segs.iter().enumerate() {
            let b = s.bytes();
            if let (Some(m), Segment::Input { .. }) = (mapped, s) {
                m.populate(b);
            }
            h.update(if i == 0 { &b[SIGNED_FROM..] } else { b });
        }
        h
    }

    /// The input's digests, its pages mapped in first.
    fn input_digests_from(&self, mapped: &MappedFile) -> InputDigests {
        if let (Some(input), None) = (self.input, self.input_digests) {
            mapped.populate(input);
        }
        self.input_digests()
    }

    /// The digest the container will carry (computed when the policy says so).
    pub fn digest(&self) -> [u8; 16] {
        match self.digest_work(self.resolution()) {
            DigestWork::Known(d) => d,
            DigestWork::Hash(variant) => {
                Self::hash_segments(&self.segments(), None).finish(variant)
            }
        }
    }

    /// Writes the container to any writer. A computed digest takes a first
    /// pass over the data; use [`write_to_seekable`](Self::write_to_seekable)
    /// for files to hash while writing.
    pub fn write_to<W: Write>(&self, mut w: W) -> io::Result<[u8; 16]> {
        let digest = self.digest();
        w.write_all(&self.layout.head_with(&digest))?;
        for s in &self.segments()[1..] {
            w.write_all(s.bytes())?;
        }
        w.flush()?;
        Ok(digest)
    }

    /// Writes the container in one pass, hashing as it goes, then writes the
    /// digest at offset 4. `w` must be positioned at the container's start.
    pub fn write_to_seekable<W: Write + Seek>(&self, w: W) -> io::Result<[u8; 16]> {
        let mut w = io::BufWriter::with_capacity(1 << 16, w);
        let start = w.stream_position()?;
        let segs = self.segments();
        let (head, mut hasher) = match self.digest_work(self.resolution()) {
            DigestWork::Known(d) => (self.layout.head_with(&d), None),
            DigestWork::Hash(variant) => (self.layout.head_with(&[0; 16]), Some(variant)),
        };
        let mut h = DigestHasher::new();
        for (i, s) in segs.iter().enumerate() {
            let b = if i == 0 { &head[..] } else { s.bytes() };
            if hasher.is_some() {
                h.update(if i == 0 { &b[SIGNED_FROM..] } else { b });
            }
            w.write_all(b)?;
        }
        let mut digest = [0; 16];
        digest.copy_from_slice(&head[4..SIGNED_FROM]);
        if let Some(variant) = hasher.take() {
            digest = h.finish(variant);
            w.seek(SeekFrom::Start(start + 4))?;
            w.write_all(&digest)?;
            w.seek(SeekFrom::Start(start + u64::from(self.layout.file_size)))?;
        }
        w.flush()?;
        Ok(digest)
    }

    /// The container as bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.layout.file_size as usize);
        self.write_to_seekable(io::Cursor::new(&mut v))
            .expect("writing to memory does not fail");
        v
    }

    /// Writes the container to `out` (positioned at the container's start)
    /// with the input's parts copied file to file in the kernel where the
    /// platform allows it (`copy_file_range` on Linux).
    ///
    /// `input` must hold the bytes the edited container was parsed from (the
    /// plan's input borrowed from it); otherwise this is
    /// [`write_to_seekable`](Self::write_to_seekable). A small output is
    /// assembled in memory and written with one call. A digest to compute
    /// is hashed from the mapping in this thread while another copies; under
    /// `--digest=auto` the input's own digest is checked beside them, and
    /// when the signed bytes are unchanged that one pass gives both answers.
    /// The digest is then written at offset 4, so `out` must not be opened
    /// for appending.
    pub fn write_file_from(&self, input: &MappedFile, out: &mut File) -> io::Result<[u8; 16]> {
        if u64::from(self.layout.file_size) <= SMALL_OUTPUT {
            let bytes = self.to_vec();
            out.write_all(&bytes)?;
            let mut d = [0; 16];
            d.copy_from_slice(&bytes[4..SIGNED_FROM]);
            return Ok(d);
        }
        if self.input.and_then(|i| input.file_offset_of(i)).is_none() {
            return self.write_to_seekable(out);
        }
        let start = out.stream_position()?;
        let segs = self.segments();
        let out: &File = out;
        let copy = |head: &[u8]| copy_segments(&segs, head, input, out, start);
        let (written, digest) = match self.digest.resolved().map(|r| self.digest_work(r)) {
            Some(DigestWork::Known(d)) => {
                copy(&self.layout.head_with(&d))?;
                return Ok(d);
            }
            Some(DigestWork::Hash(variant)) => {
                let head = self.layout.head_with(&[0; 16]);
                let hasher = std::thread::scope(|s| {
                    let copier = s.spawn(|| copy(&head));
                    let h = Self::hash_segments(&segs, Some(input));
                    join(copier).map(|()| h)
                })?;
                ([0; 16], hasher.finish(variant))
            }
            None => {
                // Undecided: classify the input beside the copy, and hash the
                // output too unless its signed bytes are the input's.
                let stored = self.digest.provisional();
                let head = self.layout.head_with(&stored);
                let same = self.same_signed_bytes_as_input();
                let (input_digests, hasher) = std::thread::scope(|s| {
                    let copier = s.spawn(|| copy(&head));
                    let result = if same {
                        (self.input_digests_from(input), None)
                    } else {
                        let classifier = s.spawn(|| Ok(self.input_digests_from(input)));
                        let h = Self::hash_segments(&segs, Some(input));
                        (join(classifier)?, Some(h))
                    };
                    join(copier).map(|()| result)
                })?;
                let r = self.digest.resolve(|| input_digests);
                let digest = match (self.digest_work(r), hasher) {
                    (DigestWork::Known(d), _) => d,
                    (DigestWork::Hash(variant), Some(h)) => h.finish(variant),
                    (DigestWork::Hash(variant), None) => {
                        Self::hash_segments(&segs, Some(input)).finish(variant)
                    }
                };
                (stored, digest)
            }
        };
        if digest != written {
            write_all_at(out, &digest, start + 4)?;
        }
        Ok(digest)
    }
}

fn join<T>(handle: std::thread::ScopedJoinHandle<'_, io::Result<T>>) -> io::Result<T> {
    handle
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Writes `head` (the header and table) and the remaining segments to `out`,
/// positioned at `start`: memory runs through a small buffer, long input runs
/// file to file (see the copy module).
fn copy_segments(
    segs: &[Segment<'_>],
    head: &[u8],
    input: &MappedFile,
    out: &File,
    start: u64,
) -> io::Result<()> {
    let mut w = io::BufWriter::with_capacity(KERNEL_COPY_MIN, out);
    w.write_all(head)?;
    let mut position = start + head.len() as u64;
    for s in &segs[1..] {
        let bytes = s.bytes();
        match *s {
            Segment::Input { .. } if bytes.len() >= KERNEL_COPY_MIN => {
                w.flush()?;
                copy::write_run(input, bytes, out, position)?;
            }
            _ => w.write_all(bytes)?,
        }
        position += bytes.len() as u64;
    }
    w.flush()
}

#[cfg(unix)]
fn write_all_at(out: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(out, bytes, offset)
}

#[cfg(not(unix))]
fn write_all_at(mut out: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
    let end = out.stream_position()?;
    out.seek(SeekFrom::Start(offset))?;
    out.write_all(bytes)?;
    out.seek(SeekFrom::Start(end))?;
    Ok(())
}
