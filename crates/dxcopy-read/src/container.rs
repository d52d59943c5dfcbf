//! The container: header, offset table and parts, validated on parse.
//!
//! Layout (docs/format/container.md §1–§3): 32-byte header (`DXBC`, 16-byte digest, u16 major,
//! u16 minor, u32 FileSize, u32 PartCount), then PartCount u32 absolute part
//! offsets; each part is a 4-byte name, a u32 size and `size` bytes of data.

use crate::cursor::Cursor;
use crate::digest::{self, DigestKind};
use crate::error::{PartRef, ReadError, ReadErrorKind, Result};
use crate::name::PartName;

/// Size of the fixed container header.
pub const HEADER_SIZE: u64 = 32;
/// Size of a part header (name + size).
pub const PART_HEADER_SIZE: u64 = 8;
/// Offset of the header's digest field.
pub const DIGEST_FIELD: u64 = 4;
/// Offset of the header's FileSize field.
pub const FILE_SIZE_FIELD: u64 = 24;

crate::record::record! {
    /// The fixed 32-byte container header.
    pub struct Header: "container header" {
        /// `DXBC`.
        0 magic: [u8; 4] => "magic";
        /// The 16-byte digest at bytes 4..20.
        4 digest: [u8; 16] => "digest";
        /// Container format major version (1 in practice).
        20 major: u16 => "version";
        /// Container format minor version (0 in practice).
        22 minor: u16 => "version";
        /// FileSize as stored (may differ from the real length; see [`FindingKind::FileSizeMismatch`](crate::FindingKind::FileSizeMismatch)).
        24 file_size: u32 => "FileSize";
        /// Number of parts.
        28 part_count: u32 => "PartCount";
    }
}

impl Eq for Header {}

crate::record::record! {
    /// The 8-byte header in front of each part's data.
    pub struct PartHeader: "part header" {
        /// Four-byte name.
        0 name: [u8; 4] => "part name";
        /// Size of the data that follows.
        4 size: u32 => "part size";
    }
}

const _: () = assert!(Header::SIZE == HEADER_SIZE && PartHeader::SIZE == PART_HEADER_SIZE);

impl Header {
    /// End of header + offset table.
    pub fn table_end(&self) -> u64 {
        HEADER_SIZE + 4 * u64::from(self.part_count)
    }
}

/// One part: a borrowed view of its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part<'data> {
    /// Index in the offset table.
    pub index: u32,
    /// Four-byte name.
    pub name: PartName,
    /// Absolute offset of the part header.
    pub offset: u64,
    /// The part's data (after the 8-byte part header).
    pub data: &'data [u8],
}

impl<'data> Part<'data> {
    /// Size field of the part header (= data length).
    pub fn size(&self) -> u32 {
        self.data.len() as u32
    }

    /// Absolute offset of the first data byte.
    pub fn data_offset(&self) -> u64 {
        self.offset + PART_HEADER_SIZE
    }

    /// A bounds-checked cursor over the data, reporting absolute offsets.
    pub fn cursor(&self) -> Cursor<'data> {
        Cursor::new(self.data, self.data_offset())
    }

    /// The reference used in error messages.
    pub fn part_ref(&self) -> PartRef {
        PartRef {
            index: self.index,
            name: self.name,
            offset: self.offset,
        }
    }

    /// CRC-32 (IEEE) of the data, for listings.
    pub fn crc32(&self) -> u32 {
        crc32fast::hash(self.data)
    }
}

/// A parsed, validated container that borrows its input.
///
/// Parsing allocates nothing proportional to the part count unless the offset
/// table is unsorted, and then at most 8 bytes per part (the table itself is
/// 4 bytes per part and every valid part needs 8 more).
#[derive(Debug, Clone, Copy)]
pub struct Container<'data> {
    data: &'data [u8],
    header: Header,
}

impl<'data> Container<'data> {
    /// Parses and validates `data`.
    ///
    /// Fatal errors: bad magic, a file shorter than the header, an offset table
    /// past the end, a part (8-byte header or data) past the end, a part that
    /// starts inside the header/table or inside another part. All arithmetic is
    /// done in u64.
    pub fn parse(data: &'data [u8]) -> Result<Container<'data>> {
        let file_len = data.len() as u64;
        let c = Cursor::new(data, 0);
        let magic = c.rest(0);
        // Empty, or cut short inside the magic: too short, not a wrong magic.
        if magic.len() < 4 && b"DXBC".starts_with(magic) {
            return Err(ReadError::new(0, ReadErrorKind::FileTooShort { file_len }));
        }
        if magic.len() < 4 || &magic[..4] != b"DXBC" {
            return Err(ReadError::new(
                0,
                ReadErrorKind::BadMagic {
                    found: magic[..magic.len().min(4)].to_vec(),
                },
            ));
        }
        if file_len < HEADER_SIZE {
            return Err(ReadError::new(0, ReadErrorKind::FileTooShort { file_len }));
        }
        let header = Header::read(&c, 0)?;
        let table_end = header.table_end();
        if table_end > file_len {
            return Err(ReadError::new(
                HEADER_SIZE,
                ReadErrorKind::OffsetTablePastEnd {
                    part_count: header.part_count,
                    file_len,
                },
            ));
        }
        let container = Container { data, header };
        // Per-part bounds; remember whether offsets ascend so overlap checking
        // stays linear and allocation-free in the common case.
        let mut sorted = true;
        let mut prev: Option<Part<'data>> = None;
        for index in 0..header.part_count {
            let part = container.read_part(index)?;
            if let Some(p) = prev {
                if part.offset < p.offset {
                    sorted = false;
                } else if part.offset < p.data_offset() + p.data.len() as u64 {
                    return Err(overlap(part, p));
                }
            }
            prev = Some(part);
        }
        if !sorted {
            container.check_overlaps_unsorted()?;
        }
        Ok(container)
    }

    fn read_part(&self, index: u32) -> Result<Part<'data>> {
        let file_len = self.data.len() as u64;
        let c = Cursor::new(self.data, 0);
        let entry = HEADER_SIZE + 4 * u64::from(index);
        let offset = u64::from(c.u32(entry, "part offset")?);
        if offset < self.header.table_end() {
            return Err(ReadError::new(
                offset,
                ReadErrorKind::PartInsideHeader {
                    index,
                    header_end: self.header.table_end(),
                },
            ));
        }
        if offset + PART_HEADER_SIZE > file_len {
            return Err(ReadError::new(
                offset,
                ReadErrorKind::PartHeaderPastEnd { index, file_len },
            ));
        }
        let PartHeader { name, size } = PartHeader::read(&c, offset)?;
        let name = PartName(name);
        let data_offset = offset + PART_HEADER_SIZE;
        let part_ref = PartRef {
            index,
            name,
            offset,
        };
        let data = c
            .bytes(data_offset, u64::from(size), "part data")
            .map_err(|_| {
                ReadError::new(
                    offset,
                    ReadErrorKind::PartDataPastEnd {
                        part: part_ref,
                        size,
                        file_len,
                    },
                )
            })?;
        Ok(Part {
            index,
            name,
            offset,
            data,
        })
    }

    fn check_overlaps_unsorted(&self) -> Result<()> {
        // At most 8 bytes per part; each valid part occupies 12 bytes of the file.
        let mut starts: Vec<(u32, u32)> =
            self.parts().map(|p| (p.offset as u32, p.index)).collect();
        starts.sort_unstable();
        for pair in starts.windows(2) {
            let a = self.part(pair[0].1).expect("validated");
            let b = self.part(pair[1].1).expect("validated");
            if b.offset < a.data_offset() + a.data.len() as u64 {
                return Err(overlap(b, a));
            }
        }
        Ok(())
    }

    /// The input bytes.
    pub fn data(&self) -> &'data [u8] {
        self.data
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Number of parts.
    pub fn part_count(&self) -> u32 {
        self.header.part_count
    }

    /// Part `index` in offset-table order.
    pub fn part(&self, index: u32) -> Option<Part<'data>> {
        if index < self.header.part_count {
            self.read_part(index).ok()
        } else {
            None
        }
    }

    /// All parts in offset-table order.
    pub fn parts(&self) -> impl Iterator<Item = Part<'data>> + '_ {
        (0..self.header.part_count).filter_map(move |i| self.read_part(i).ok())
    }

    /// The first part named `name`.
    pub fn find(&self, name: PartName) -> Option<Part<'data>> {
        self.parts().find(|p| p.name == name)
    }

    /// The first part named `name`, or a `PartNotFound` error.
    pub fn require(&self, name: PartName) -> Result<Part<'data>> {
        self.find(name)
            .ok_or_else(|| ReadError::part_not_found(name.to_string()))
    }

    /// Classifies the stored digest (retail, debug, zero, bypass, preview or invalid).
    pub fn digest_kind(&self) -> DigestKind {
        digest::classify(self.data)
    }

    /// Whether the parts are laid out back to back right after the offset table,
    /// in table order, ending exactly at FileSize = file length. A no-op rewrite
    /// of such a container is byte-identical.
    pub fn is_contiguous(&self) -> bool {
        let mut next = self.header.table_end();
        for p in self.parts() {
            if p.offset != next && !(p.offset > next && self.is_alignment_padding(next, p.offset)) {
                return false;
            }
            next = p.data_offset() + p.data.len() as u64;
        }
        next == self.data.len() as u64 && u64::from(self.header.file_size) == next
    }

    /// Whether the unused bytes `from..to` only align what follows: 1–3 zero
    /// bytes up to a 4-byte boundary, as writers put before a part they place
    /// after one of odd size. Such bytes are not a [`FindingKind::Gap`](crate::FindingKind::Gap).
    pub(crate) fn is_alignment_padding(&self, from: u64, to: u64) -> bool {
        to - from < 4
            && to.is_multiple_of(4)
            && to < self.data.len() as u64
            && self.data[from as usize..to as usize]
                .iter()
                .all(|&b| b == 0)
    }

    /// For each part in table order, whether alignment padding (1–3 zero
    /// bytes up to a 4-byte boundary) comes before it in the file, as dxcopy
    /// writes before the parts it places. Writers keep such parts aligned.
    pub fn padded_parts(&self) -> Vec<bool> {
        let mut order: Vec<(u64, u64, usize)> = self
            .parts()
            .enumerate()
            .map(|(i, p)| (p.offset, p.data_offset() + p.data.len() as u64, i))
            .collect();
        order.sort_unstable();
        let mut padded = vec![false; order.len()];
        let mut cursor = self.header.table_end();
        for (start, stop, i) in order {
            padded[i] = start > cursor && self.is_alignment_padding(cursor, start);
            cursor = cursor.max(stop);
        }
        padded
    }
}

fn overlap(part: Part<'_>, other: Part<'_>) -> ReadError {
    ReadError::new(
        part.offset,
        ReadErrorKind::PartOverlap {
            part: part.part_ref(),
            other: other.part_ref(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Finding, FindingKind};
    use crate::testutil::{build, raw_container};

    /// The kinds of `findings`.
    fn kinds(findings: &[Finding]) -> Vec<FindingKind> {
        findings.iter().map(|f| f.kind.clone()).collect()
    }

    /// Whether `findings` holds `kind` about part `index`.
    fn about(findings: &[Finding], kind: FindingKind, index: u32) -> bool {
        findings
            .iter()
            .any(|f| f.kind == kind && f.part.map(|p| p.index) == Some(index))
    }

    #[test]
    fn parses_parts_in_table_order() {
        let bytes = build(&[(b"SFI0", &[1, 0, 0, 0, 0, 0, 0, 0]), (b"FKE0", b"abc")]);
        let c = Container::parse(&bytes).unwrap();
        assert_eq!(c.part_count(), 2);
        let parts: Vec<_> = c.parts().collect();
        assert_eq!(parts[0].name, PartName::SFI0);
        assert_eq!(parts[0].offset, 40);
        assert_eq!(parts[1].offset, 56);
        assert_eq!(parts[1].data, b"abc");
        assert_eq!(c.find(PartName(*b"FKE0")).unwrap().index, 1);
        assert!(c.find(PartName::DXIL).is_none());
        assert!(c.is_contiguous());
        assert_eq!(c.header().file_size as usize, bytes.len());
    }

    #[test]
    fn empty_container_is_valid() {
        let bytes = build(&[]);
        let c = Container::parse(&bytes).unwrap();
        assert_eq!(c.part_count(), 0);
        assert!(c.is_contiguous());
    }

    fn err(bytes: &[u8]) -> ReadError {
        Container::parse(bytes).unwrap_err()
    }

    #[test]
    fn fatal_errors() {
        assert!(matches!(
            err(b"").kind,
            ReadErrorKind::FileTooShort { file_len: 0 }
        ));
        assert!(matches!(
            err(b"DX").kind,
            ReadErrorKind::FileTooShort { file_len: 2 }
        ));
        assert!(matches!(err(b"x\n").kind, ReadErrorKind::BadMagic { .. }));
        assert!(matches!(
            err(b"DXBX00000000000000000000000000000000").kind,
            ReadErrorKind::BadMagic { .. }
        ));
        assert!(matches!(
            err(b"DXBC").kind,
            ReadErrorKind::FileTooShort { file_len: 4 }
        ));
        // PartCount 2, no table.
        let bytes = raw_container(2, &[], &[]);
        assert!(matches!(
            err(&bytes).kind,
            ReadErrorKind::OffsetTablePastEnd { part_count: 2, .. }
        ));
        // PartCount huge.
        let bytes = raw_container(0xffff_ffff, &[], &[0; 8]);
        assert!(matches!(
            err(&bytes).kind,
            ReadErrorKind::OffsetTablePastEnd { .. }
        ));
        // Offset into table.
        let bytes = raw_container(1, &[32], &[b'A', b'B', b'C', b'D', 0, 0, 0, 0]);
        let e = err(&bytes);
        assert_eq!(e.offset, 32);
        assert!(matches!(
            e.kind,
            ReadErrorKind::PartInsideHeader {
                index: 0,
                header_end: 36
            }
        ));
        // Part header past end.
        let bytes = raw_container(1, &[36], b"ABCD");
        assert!(matches!(
            err(&bytes).kind,
            ReadErrorKind::PartHeaderPastEnd { index: 0, .. }
        ));
        // Offset far past end.
        let bytes = raw_container(1, &[0xffff_fff0], b"ABCD");
        assert!(matches!(
            err(&bytes).kind,
            ReadErrorKind::PartHeaderPastEnd { .. }
        ));
        // Data past end, with the message format of the issue.
        let mut body = b"PSV0".to_vec();
        body.extend_from_slice(&0x7fff_ffffu32.to_le_bytes());
        let bytes = raw_container(1, &[36], &body);
        let e = err(&bytes);
        assert!(matches!(
            e.kind,
            ReadErrorKind::PartDataPastEnd {
                size: 0x7fff_ffff,
                ..
            }
        ));
        assert_eq!(
            e.to_string(),
            "part 0 'PSV0' at offset 0x24: size 0x7fffffff runs past the end of the file (0x2c bytes)"
        );
    }

    #[test]
    fn overlap_counts_part_header() {
        // Part 0 at 40 with 8 data bytes ends at 56; part 1 at 52 starts in its
        // last 4 data bytes (LLVM accepts this: it ignores the part header).
        let body = b"AAAA\x08\0\0\0xxxxBBBB\0\0\0\0".to_vec();
        let bytes = raw_container(2, &[40, 52], &body);
        let e = err(&bytes);
        assert!(matches!(e.kind, ReadErrorKind::PartOverlap { .. }), "{e:?}");
        assert_eq!(e.offset, 52);
        // Same parts, unsorted table: still detected.
        let bytes = raw_container(2, &[52, 40], &body);
        assert!(matches!(
            err(&bytes).kind,
            ReadErrorKind::PartOverlap { .. }
        ));
        // Same offset twice.
        let bytes = raw_container(2, &[40, 40], &body);
        assert!(matches!(
            err(&bytes).kind,
            ReadErrorKind::PartOverlap { .. }
        ));
    }

    #[test]
    fn unsorted_disjoint_is_valid_with_finding() {
        let body = b"AAAA\0\0\0\0BBBB\0\0\0\0".to_vec();
        let mut bytes = raw_container(2, &[48, 40], &body);
        let len = bytes.len() as u32;
        bytes[24..28].copy_from_slice(&len.to_le_bytes());
        let c = Container::parse(&bytes).unwrap();
        let f = c.check();
        // Where the table says part 1 is, and which part that is.
        let unsorted = &f[0];
        assert_eq!(
            unsorted.kind,
            FindingKind::UnsortedOffsets { index: 1 },
            "{f:?}"
        );
        assert_eq!(unsorted.offset, Some(36));
        assert_eq!(unsorted.part.map(|p| (p.index, p.offset)), Some((1, 40)));
        assert!(!f.iter().any(|x| matches!(x.kind, FindingKind::Gap { .. })));
    }

    #[test]
    fn findings() {
        let mut bytes = build(&[(b"PRIV", b"x"), (b"FKE0", b"abcd"), (b"PRIV", b"y")]);
        bytes.extend_from_slice(&[0, 0]); // trailing bytes
        bytes[4] = 7; // neither zero nor a valid digest
        let c = Container::parse(&bytes).unwrap();
        let f = c.check();
        let len = bytes.len() as u64;
        assert!(f.contains(&Finding::at(
            FILE_SIZE_FIELD,
            FindingKind::FileSizeMismatch {
                stored: (len - 2) as u32,
                actual: len
            }
        )));
        assert!(about(&f, FindingKind::PrivNotLast, 0));
        assert!(about(&f, FindingKind::MultiplePriv, 2));
        assert!(about(&f, FindingKind::DuplicateName { first: 0 }, 2));
        assert!(about(&f, FindingKind::UnknownPart, 1));
        // PRIV of 1 byte makes the next part unaligned.
        assert!(about(&f, FindingKind::Misaligned, 1));
        // Part findings lie at their part's header.
        let part_1 = c.part(1).unwrap().offset;
        assert!(f
            .iter()
            .filter(|x| x.part.map(|p| p.index) == Some(1))
            .all(|x| x.offset == Some(part_1)));
        let digest = f
            .iter()
            .find(|x| matches!(x.kind, FindingKind::DigestInvalid { .. }))
            .unwrap();
        assert_eq!((digest.part, digest.offset), (None, Some(DIGEST_FIELD)));
        assert!(!c.is_contiguous());
        // check_layout: the same findings without the digest's.
        let layout = c.check_layout();
        let without_digest: Vec<Finding> = f
            .iter()
            .filter(|x| !matches!(x.kind, FindingKind::DigestInvalid { .. }))
            .cloned()
            .collect();
        assert_eq!(layout, without_digest);
        assert_eq!(layout.len() + 1, f.len());
    }

    #[test]
    fn check_is_linear_in_distinct_names() {
        // 200k parts with distinct names (2.4 MB). The old linear name search
        // made check() take minutes here (a map keeps it linear); what is
        // asserted is the result, not the time.
        let n = 200_000u32;
        let table_end = 32 + 4 * n;
        let offsets: Vec<u32> = (0..n).map(|i| table_end + 8 * i).collect();
        let mut body = Vec::with_capacity(8 * n as usize);
        for i in 0..n {
            body.extend_from_slice(&i.to_le_bytes());
            body.extend_from_slice(&[0; 4]);
        }
        let bytes = raw_container(n, &offsets, &body);
        let c = Container::parse(&bytes).unwrap();
        let findings = c.check();
        assert_eq!(c.part_count(), n);
        assert!(!findings
            .iter()
            .any(|f| matches!(f.kind, FindingKind::DuplicateName { .. })));
        // And duplicates are still found, with the first index.
        let bytes = build(&[(b"AAAA", b""), (b"BBBB", b""), (b"AAAA", b"")]);
        let c = Container::parse(&bytes).unwrap();
        assert!(about(
            &c.check(),
            FindingKind::DuplicateName { first: 0 },
            2
        ));
    }

    #[test]
    fn alignment_padding_is_not_a_gap() {
        // AAAA holds 1 byte (ends at 49); BBBB starts at the next 4-byte
        // boundary, 52, after three zero bytes.
        let body = b"AAAA\x01\0\0\0x\0\0\0BBBB\0\0\0\0".to_vec();
        let mut bytes = raw_container(2, &[40, 52], &body);
        let len = bytes.len() as u32;
        bytes[24..28].copy_from_slice(&len.to_le_bytes());
        let c = Container::parse(&bytes).unwrap();
        assert!(!c
            .check()
            .iter()
            .any(|f| matches!(f.kind, FindingKind::Gap { .. })));
        assert!(c.is_contiguous());
        assert_eq!(c.padded_parts(), [false, true]);
        // The same three bytes, not zero: a gap.
        let mut dirty = bytes.clone();
        dirty[49] = 0xee;
        let c = Container::parse(&dirty).unwrap();
        assert!(kinds(&c.check()).contains(&FindingKind::Gap { offset: 49, len: 3 }));
        assert!(!c.is_contiguous());
        assert_eq!(c.padded_parts(), [false, false]);
        // Zero bytes that do not end on a boundary: a gap.
        let body = b"AAAA\x01\0\0\0x\0\0BBBB\0\0\0\0".to_vec();
        let mut bytes = raw_container(2, &[40, 51], &body);
        let len = bytes.len() as u32;
        bytes[24..28].copy_from_slice(&len.to_le_bytes());
        let c = Container::parse(&bytes).unwrap();
        assert!(kinds(&c.check()).contains(&FindingKind::Gap { offset: 49, len: 2 }));
        // Zero bytes after the last part: trailing bytes, still a gap.
        let mut bytes = build(&[(b"AAAA", b"x")]);
        bytes.extend_from_slice(&[0, 0, 0]);
        let len = bytes.len() as u32;
        bytes[24..28].copy_from_slice(&len.to_le_bytes());
        let c = Container::parse(&bytes).unwrap();
        assert!(kinds(&c.check()).contains(&FindingKind::Gap { offset: 45, len: 3 }));
    }

    #[test]
    fn gap_between_parts_is_reported() {
        let body = b"AAAA\0\0\0\0\xee\xee\xee\xee\xee\xeeBBBB\0\0\0\0".to_vec();
        let mut bytes = raw_container(2, &[40, 54], &body);
        let len = bytes.len() as u32;
        bytes[24..28].copy_from_slice(&len.to_le_bytes());
        let c = Container::parse(&bytes).unwrap();
        assert!(kinds(&c.check()).contains(&FindingKind::Gap { offset: 48, len: 6 }));
    }
}
