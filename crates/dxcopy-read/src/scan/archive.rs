//! The archives a scan walks into: zip files (stored and deflated members)
//! and gzip streams (a whole file, or a stream at any offset inside other
//! bytes), read with a bound on every inflated size.
//!
//! Zip (docs/format/archives.md): the end-of-central-directory record is
//! found in the last 64 KiB + 22 bytes; each central-directory entry gives a
//! member's name, method, sizes and the offset of its local header, whose
//! name and extra lengths give where the data starts. Zip64 sizes and
//! offsets are read from the entry's zip64 extra field. Every size and
//! offset is checked against the file before it is used; a member whose
//! declared or actual inflated size passes the limit is reported, never
//! inflated past it.

use crate::cursor::Cursor;
use std::io::Read;

/// The first bytes of a gzip member (RFC 1952: ID1, ID2, CM = deflate).
pub const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

const EOCD_SIGNATURE: u32 = 0x0605_4b50;
const EOCD64_LOCATOR_SIGNATURE: u32 = 0x0706_4b50;
const EOCD64_SIGNATURE: u32 = 0x0606_4b50;
const CENTRAL_SIGNATURE: u32 = 0x0201_4b50;
const LOCAL_SIGNATURE: u32 = 0x0403_4b50;
const EOCD_SIZE: usize = 22;
const MAX_COMMENT: usize = 0xffff;
const ZIP64_EXTRA: u16 = 0x0001;

/// Why an archive or one of its members is not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// The central directory or a local header lies outside the file or
    /// does not carry its signature.
    #[error("zip: {what} at offset {offset} is damaged or outside the file")]
    Damaged {
        /// Which structure.
        what: &'static str,
        /// Its offset in the file.
        offset: u64,
    },
    /// A member's inflated size passes the limit.
    #[error("inflates past the limit of {limit} bytes{}", declared_note(*declared))]
    OverLimit {
        /// The limit.
        limit: u64,
        /// The size the archive declares (0 for gzip, which keeps only the
        /// size modulo 2^32, at the end of the stream).
        declared: u64,
    },
    /// A member stored with a method other than stored (0) or deflate (8).
    #[error("zip: compression method {0} is not one a scan inflates (stored and deflate are)")]
    Method(u16),
    /// An encrypted member.
    #[error("zip: the member is encrypted")]
    Encrypted,
    /// The deflate or gzip data does not inflate.
    #[error("does not inflate: {0}")]
    Inflate(String),
    /// A stored member whose two sizes differ.
    #[error("zip: stored member with compressed size {compressed} and size {size}")]
    StoredSizes {
        /// Compressed size.
        compressed: u64,
        /// Uncompressed size.
        size: u64,
    },
}

/// ` (declared size N)` when the archive declares one.
fn declared_note(declared: u64) -> String {
    if declared == 0 {
        String::new()
    } else {
        format!(" (declared size {declared})")
    }
}

/// How a zip member is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Method 0: the bytes as they are.
    Stored,
    /// Method 8: raw deflate.
    Deflated,
    /// Anything else.
    Other(u16),
}

/// One zip member, as the central directory and its local header describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipMember {
    /// Its name as stored (lossy UTF-8).
    pub name: String,
    /// How it is stored.
    pub method: Method,
    /// Whether bit 0 of its flags (encryption) is set.
    pub encrypted: bool,
    /// The size of its data in the file.
    pub compressed_size: u64,
    /// The size it declares inflated.
    pub size: u64,
    /// Where its data starts in the file.
    pub data_offset: u64,
}

impl ZipMember {
    /// Its data as stored in the file (checked against the file's length
    /// by [`zip_members`]).
    pub fn stored_data<'a>(&self, zip: &'a [u8]) -> &'a [u8] {
        let start = self.data_offset as usize;
        &zip[start..start + self.compressed_size as usize]
    }

    /// Its bytes, inflated when deflated, refused when its declared or
    /// actual size passes `limit`.
    pub fn read<'a>(
        &self,
        zip: &'a [u8],
        limit: u64,
    ) -> Result<std::borrow::Cow<'a, [u8]>, ArchiveError> {
        if self.encrypted {
            return Err(ArchiveError::Encrypted);
        }
        if self.size > limit {
            return Err(ArchiveError::OverLimit {
                limit,
                declared: self.size,
            });
        }
        let data = self.stored_data(zip);
        match self.method {
            Method::Stored if self.compressed_size != self.size => Err(ArchiveError::StoredSizes {
                compressed: self.compressed_size,
                size: self.size,
            }),
            Method::Stored => Ok(std::borrow::Cow::Borrowed(data)),
            Method::Deflated => {
                let reader = flate2::read::DeflateDecoder::new(data);
                inflate_bounded(reader, limit, self.size).map(std::borrow::Cow::Owned)
            }
            Method::Other(method) => Err(ArchiveError::Method(method)),
        }
    }
}

/// Reads `reader` to its end, refusing to hold more than `limit` bytes.
/// `declared` is the size the archive states (reported with the error).
pub fn inflate_bounded(
    reader: impl Read,
    limit: u64,
    declared: u64,
) -> Result<Vec<u8>, ArchiveError> {
    let mut out = Vec::new();
    // One byte past the limit tells an over-limit member from one that
    // ends exactly at it.
    let read = reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| ArchiveError::Inflate(e.to_string()))?;
    if read as u64 > limit {
        return Err(ArchiveError::OverLimit { limit, declared });
    }
    Ok(out)
}

/// Whether `bytes` start like a gzip member: the magic (ID1, ID2, CM =
/// deflate) and header flags whose reserved bits 5–7 are clear (RFC 1952
/// §2.3.1 has a reader refuse a member with them set).
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&GZIP_MAGIC) && bytes.get(3).is_some_and(|flags| flags & 0xe0 == 0)
}

/// The offset of every gzip member header ([`is_gzip`]) in `bytes`, at any
/// offset, in order.
pub fn gzip_headers(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memmem::find_iter(bytes, &GZIP_MAGIC)
        .filter(move |&at| bytes.get(at..).is_some_and(is_gzip))
}

/// A gzip stream inflated by [`gunzip_at`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gunzipped {
    /// The original file name its first header records, if any.
    pub name: Option<String>,
    /// The inflated bytes of all its members.
    pub data: Vec<u8>,
    /// How many bytes of the input the stream takes (headers, deflate data
    /// and trailers of all its members).
    pub stored_len: u64,
}

/// The gzip stream whose first member starts at `at` in `bytes`: that member
/// and the members that follow it directly, inflated and concatenated as
/// `gzip -d` does, refused past `limit` bytes in all. The bytes after the
/// stream are not its own (an archive or cache holds other data there).
/// `Err` when the first member does not inflate (a header that only looks
/// like one, or a cut stream) or passes the limit; a later "member" that
/// does not inflate is taken for other data and ends the stream.
pub fn gunzip_at(bytes: &[u8], at: usize, limit: u64) -> Result<Gunzipped, ArchiveError> {
    let start = bytes.get(at..).unwrap_or_default();
    let mut rest = start;
    let mut data = Vec::new();
    let mut name = None;
    loop {
        let first = rest.len() == start.len();
        let mut member = Vec::new();
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        let budget = limit.saturating_sub(data.len() as u64);
        let read = (&mut decoder)
            .take(budget.saturating_add(1))
            .read_to_end(&mut member);
        match read {
            Ok(n) if n as u64 > budget => {
                return Err(ArchiveError::OverLimit { limit, declared: 0 })
            }
            Ok(_) => {}
            Err(e) if first => return Err(ArchiveError::Inflate(e.to_string())),
            Err(_) => break,
        }
        if first {
            name = decoder
                .header()
                .and_then(|h| h.filename())
                .map(|n| String::from_utf8_lossy(n).into_owned());
        }
        data.extend_from_slice(&member);
        rest = decoder.into_inner();
        if !is_gzip(rest) {
            break;
        }
    }
    Ok(Gunzipped {
        name,
        data,
        stored_len: (start.len() - rest.len()) as u64,
    })
}

/// The members of the zip archive ending `bytes`, or `None` when `bytes`
/// holds no end-of-central-directory record (not a zip). `Err` when the
/// record is there but the directory it points at is not.
pub fn zip_members(bytes: &[u8]) -> Option<Result<Vec<ZipMember>, ArchiveError>> {
    let eocd = find_eocd(bytes)?;
    Some(read_directory(bytes, eocd))
}

/// The offset of the end-of-central-directory record: the last one whose
/// comment length reaches exactly the end of the file.
fn find_eocd(bytes: &[u8]) -> Option<usize> {
    let len = bytes.len();
    let earliest = len.saturating_sub(EOCD_SIZE + MAX_COMMENT);
    let last = len.checked_sub(EOCD_SIZE)?;
    let c = Cursor::new(bytes, 0);
    (earliest..=last).rev().find(|&at| {
        c.u32(at as u64, "EOCD").ok() == Some(EOCD_SIGNATURE)
            && c.u16(at as u64 + 20, "EOCD").ok().map(usize::from) == Some(len - at - EOCD_SIZE)
    })
}

fn read_directory(bytes: &[u8], eocd: usize) -> Result<Vec<ZipMember>, ArchiveError> {
    let c = Cursor::new(bytes, 0);
    let at = eocd as u64;
    let damaged = |what, offset| ArchiveError::Damaged { what, offset };
    let field16 = |o: u64| c.u16(o, "zip").map_err(|_| damaged("the end record", at));
    let mut count = u64::from(field16(at + 10)?);
    let mut dir_offset = u64::from(
        c.u32(at + 16, "zip")
            .map_err(|_| damaged("the end record", at))?,
    );
    // Zip64: the locator sits just before the end record.
    if count == 0xffff || dir_offset == 0xffff_ffff {
        if let Some(locator) = at.checked_sub(20) {
            if c.u32(locator, "zip").ok() == Some(EOCD64_LOCATOR_SIGNATURE) {
                let record = c
                    .u64(locator + 8, "zip")
                    .map_err(|_| damaged("the zip64 locator", locator))?;
                if c.u32(record, "zip").ok() != Some(EOCD64_SIGNATURE) {
                    return Err(damaged("the zip64 end record", record));
                }
                let read = |o| {
                    c.u64(record + o, "zip")
                        .map_err(|_| damaged("the zip64 end record", record))
                };
                count = read(32)?;
                dir_offset = read(48)?;
            }
        }
    }
    // An archive appended to other bytes (a self-extracting stub) keeps
    // offsets from its own start: the directory then ends where the end
    // record starts, and every offset moves by the same amount.
    let dir_size = u64::from(
        c.u32(at + 12, "zip")
            .map_err(|_| damaged("the end record", at))?,
    );
    let mut shift = 0;
    if c.u32(dir_offset, "zip").ok() != Some(CENTRAL_SIGNATURE) && count > 0 {
        if let Some(moved) = at.checked_sub(dir_size).filter(|m| *m > dir_offset) {
            if c.u32(moved, "zip").ok() == Some(CENTRAL_SIGNATURE) {
                shift = moved - dir_offset;
            }
        }
    }
    let mut members = Vec::new();
    let mut entry = dir_offset + shift;
    for _ in 0..count {
        let (member, next) = read_entry(bytes, entry, shift)?;
        members.push(member);
        entry = next;
    }
    Ok(members)
}

/// One central-directory entry at `entry` and its local header (its
/// offset moved by `shift`): the member and the offset of the next entry.
fn read_entry(bytes: &[u8], entry: u64, shift: u64) -> Result<(ZipMember, u64), ArchiveError> {
    let c = Cursor::new(bytes, 0);
    let damaged = |what, offset| ArchiveError::Damaged { what, offset };
    let bad_entry = |_| damaged("a central directory entry", entry);
    if c.u32(entry, "zip").map_err(bad_entry)? != CENTRAL_SIGNATURE {
        return Err(damaged("a central directory entry", entry));
    }
    let flags = c.u16(entry + 8, "zip").map_err(bad_entry)?;
    let method = c.u16(entry + 10, "zip").map_err(bad_entry)?;
    let mut compressed_size = u64::from(c.u32(entry + 20, "zip").map_err(bad_entry)?);
    let mut size = u64::from(c.u32(entry + 24, "zip").map_err(bad_entry)?);
    let name_len = u64::from(c.u16(entry + 28, "zip").map_err(bad_entry)?);
    let extra_len = u64::from(c.u16(entry + 30, "zip").map_err(bad_entry)?);
    let comment_len = u64::from(c.u16(entry + 32, "zip").map_err(bad_entry)?);
    let mut local = u64::from(c.u32(entry + 42, "zip").map_err(bad_entry)?);
    let name = c.bytes(entry + 46, name_len, "zip").map_err(bad_entry)?;
    let extra = c
        .bytes(entry + 46 + name_len, extra_len, "zip")
        .map_err(bad_entry)?;
    // The zip64 extra field holds, in this order, the fields whose 32-bit
    // value is all ones.
    let mut zip64 = extra_fields(extra)
        .find(|(tag, _)| *tag == ZIP64_EXTRA)
        .map(|(_, data)| {
            data.chunks_exact(8)
                .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
        })
        .into_iter()
        .flatten();
    for field in [&mut size, &mut compressed_size, &mut local] {
        if *field == 0xffff_ffff {
            *field = zip64
                .next()
                .ok_or_else(|| damaged("a zip64 extra field", entry))?;
        }
    }
    let local = local
        .checked_add(shift)
        .ok_or_else(|| damaged("a local header", local))?;
    if c.u32(local, "zip").ok() != Some(LOCAL_SIGNATURE) {
        return Err(damaged("a local header", local));
    }
    let bad_local = |_| damaged("a local header", local);
    let local_name = u64::from(c.u16(local + 26, "zip").map_err(bad_local)?);
    let local_extra = u64::from(c.u16(local + 28, "zip").map_err(bad_local)?);
    let data_offset = local + 30 + local_name + local_extra;
    // The data must lie inside the file before anyone slices it.
    c.bytes(data_offset, compressed_size, "zip")
        .map_err(|_| damaged("a member's data", data_offset))?;
    let member = ZipMember {
        name: String::from_utf8_lossy(name).into_owned(),
        method: match method {
            0 => Method::Stored,
            8 => Method::Deflated,
            other => Method::Other(other),
        },
        encrypted: flags & 1 != 0,
        compressed_size,
        size,
        data_offset,
    };
    Ok((member, entry + 46 + name_len + extra_len + comment_len))
}

/// The (tag, data) records of a zip extra field, up to the first that does
/// not fit.
fn extra_fields(extra: &[u8]) -> impl Iterator<Item = (u16, &[u8])> {
    let mut rest = extra;
    std::iter::from_fn(move || {
        let tag = u16::from_le_bytes([*rest.first()?, *rest.get(1)?]);
        let len = usize::from(u16::from_le_bytes([*rest.get(2)?, *rest.get(3)?]));
        let data = rest.get(4..4 + len)?;
        rest = &rest[4 + len..];
        Some((tag, data))
    })
}
