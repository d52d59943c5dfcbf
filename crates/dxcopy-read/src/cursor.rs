//! Bounds-checked little-endian reads over a byte slice. Every read returns a
//! [`ReadError`] carrying the absolute file offset instead of panicking.

use crate::detail::Words;
use crate::error::{ReadError, ReadErrorKind, Result};

/// A view of `data` that lives at absolute file offset `base`.
///
/// Offsets passed to the read methods are relative to `data`; errors report
/// `base + offset`.
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'data> {
    data: &'data [u8],
    base: u64,
}

impl<'data> Cursor<'data> {
    /// A cursor over `data`, which starts at absolute offset `base` in the file.
    pub fn new(data: &'data [u8], base: u64) -> Self {
        Cursor { data, base }
    }

    /// The underlying bytes.
    pub fn data(&self) -> &'data [u8] {
        self.data
    }

    /// Length of the underlying bytes.
    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }

    /// Whether the view is empty.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Absolute offset of the first byte.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Absolute offset of relative offset `offset` (saturating).
    pub fn abs(&self, offset: u64) -> u64 {
        self.base.saturating_add(offset)
    }

    /// `len` bytes at `offset`, or a `Truncated` error naming `what`.
    pub fn bytes(&self, offset: u64, len: u64, what: &'static str) -> Result<&'data [u8]> {
        let available = self.len().saturating_sub(offset);
        let start = usize::try_from(offset).ok();
        let end = offset
            .checked_add(len)
            .and_then(|e| usize::try_from(e).ok());
        match (start, end) {
            (Some(s), Some(e)) if e <= self.data.len() => Ok(&self.data[s..e]),
            _ => Err(ReadError::new(
                self.abs(offset),
                ReadErrorKind::Truncated {
                    part: None,
                    what,
                    needed: len,
                    available,
                },
            )),
        }
    }

    /// Everything from `offset` to the end (empty when `offset` is at or past the end).
    pub fn rest(&self, offset: u64) -> &'data [u8] {
        usize::try_from(offset)
            .ok()
            .and_then(|o| self.data.get(o..))
            .unwrap_or(&[])
    }

    /// A sub-cursor of `len` bytes at `offset`.
    pub fn sub(&self, offset: u64, len: u64, what: &'static str) -> Result<Cursor<'data>> {
        Ok(Cursor::new(
            self.bytes(offset, len, what)?,
            self.abs(offset),
        ))
    }

    /// Fixed-size array at `offset`.
    pub fn array<const N: usize>(&self, offset: u64, what: &'static str) -> Result<[u8; N]> {
        let b = self.bytes(offset, N as u64, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// `u8` at `offset`.
    pub fn u8(&self, offset: u64, what: &'static str) -> Result<u8> {
        Ok(self.array::<1>(offset, what)?[0])
    }

    /// Little-endian `u16` at `offset`.
    pub fn u16(&self, offset: u64, what: &'static str) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array(offset, what)?))
    }

    /// Little-endian `u32` at `offset`.
    pub fn u32(&self, offset: u64, what: &'static str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(offset, what)?))
    }

    /// Little-endian `i32` at `offset`.
    pub fn i32(&self, offset: u64, what: &'static str) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array(offset, what)?))
    }

    /// Little-endian `u64` at `offset`.
    pub fn u64(&self, offset: u64, what: &'static str) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array(offset, what)?))
    }

    /// Little-endian `f32` at `offset`.
    pub fn f32(&self, offset: u64, what: &'static str) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array(offset, what)?))
    }

    /// A NUL-terminated string starting at `offset` whose terminator must lie
    /// within `max_len` bytes (and within the data). Returns the bytes without the NUL.
    pub fn cstr(&self, offset: u64, max_len: u64, what: &'static str) -> Result<&'data [u8]> {
        let avail = self.rest(offset);
        let window = &avail[..avail
            .len()
            .min(usize::try_from(max_len).unwrap_or(usize::MAX))];
        match window.iter().position(|&b| b == 0) {
            Some(n) => Ok(&window[..n]),
            None => Err(self.error(
                offset,
                ReadErrorKind::NotNulTerminated {
                    part: None,
                    what,
                    table_offset: None,
                },
            )),
        }
    }

    /// `count` little-endian `u32` words at `offset`, checked as one run of
    /// `4 * count` bytes (a `Truncated` error naming `what` otherwise).
    pub fn u32s(&self, offset: u64, count: u64, what: &'static str) -> Result<U32s<'data>> {
        Ok(le_u32s(self.bytes(
            offset,
            count.saturating_mul(4),
            what,
        )?))
    }

    /// `count` little-endian `u16` values at `offset`, checked as one run of
    /// `2 * count` bytes (a `Truncated` error naming `what` otherwise).
    pub fn u16s(&self, offset: u64, count: u64, what: &'static str) -> Result<U16s<'data>> {
        Ok(LeValues::new(self.bytes(
            offset,
            count.saturating_mul(2),
            what,
        )?))
    }

    /// `count` records of `stride` bytes starting at `offset`, checked as one
    /// run of `count * stride` bytes (a `Truncated` error naming `what`
    /// otherwise). Yields each record's relative offset and a cursor over it.
    pub fn records(
        &self,
        offset: u64,
        count: u64,
        stride: u64,
        what: &'static str,
    ) -> Result<Records<'data>> {
        let all = self.sub(offset, count.saturating_mul(stride), what)?;
        Ok(Records {
            all,
            offset,
            stride,
            next: 0,
            count,
        })
    }

    /// Advancing read: `len` bytes at `*pos`, then moves `*pos` past them.
    /// On error `*pos` is left as it was.
    pub fn take_bytes(&self, pos: &mut u64, len: u64, what: &'static str) -> Result<&'data [u8]> {
        let b = self.bytes(*pos, len, what)?;
        *pos += len;
        Ok(b)
    }

    /// Advancing read: a sub-cursor of `len` bytes at `*pos`, then moves `*pos` past it.
    pub fn take_sub(&self, pos: &mut u64, len: u64, what: &'static str) -> Result<Cursor<'data>> {
        let c = self.sub(*pos, len, what)?;
        *pos += len;
        Ok(c)
    }

    /// Advancing read: the little-endian `u16` at `*pos`, then moves `*pos` by 2.
    pub fn take_u16(&self, pos: &mut u64, what: &'static str) -> Result<u16> {
        let v = self.u16(*pos, what)?;
        *pos += 2;
        Ok(v)
    }

    /// Advancing read: the little-endian `u32` at `*pos`, then moves `*pos` by 4.
    pub fn take_u32(&self, pos: &mut u64, what: &'static str) -> Result<u32> {
        let v = self.u32(*pos, what)?;
        *pos += 4;
        Ok(v)
    }

    /// Advancing read: `count` `u32` words at `*pos` (see [`Cursor::u32s`]),
    /// then moves `*pos` past them.
    pub fn take_u32s(&self, pos: &mut u64, count: u64, what: &'static str) -> Result<U32s<'data>> {
        let words = self.u32s(*pos, count, what)?;
        *pos += count * 4;
        Ok(words)
    }

    /// Advancing read: the NUL-terminated string at `*pos` (see
    /// [`Cursor::cstr`]), then moves `*pos` past its terminator.
    pub fn take_cstr(
        &self,
        pos: &mut u64,
        max_len: u64,
        what: &'static str,
    ) -> Result<&'data [u8]> {
        let s = self.cstr(*pos, max_len, what)?;
        *pos += s.len() as u64 + 1;
        Ok(s)
    }

    /// Advancing read: `count` records of `stride` bytes at `*pos` (see
    /// [`Cursor::records`]), then moves `*pos` past them.
    pub fn take_records(
        &self,
        pos: &mut u64,
        count: u64,
        stride: u64,
        what: &'static str,
    ) -> Result<Records<'data>> {
        let records = self.records(*pos, count, stride, what)?;
        *pos += count * stride;
        Ok(records)
    }

    /// `count` little-endian `u32` words at `offset`, each read only when the
    /// iterator reaches it: word `i` is `self.u32(offset + 4 * i, what)`, so a
    /// short run fails at the first word that is missing, after the words
    /// before it (and whatever the caller read in between) were used. For
    /// tables whose entries are acted on one by one, where checking the whole
    /// run first would report a different error.
    pub fn u32_each(&self, offset: u64, count: u64, what: &'static str) -> U32Each<'data> {
        U32Each {
            cursor: *self,
            offset,
            left: count,
            what,
        }
    }

    /// Advancing read: `count` little-endian `u32` words at `*pos`, then
    /// moves `*pos` past them. A short run fails as reading the words one by
    /// one would: at the first word that is missing (not at the start of the
    /// run, as [`Cursor::take_u32s`] does). On error `*pos` is left as it was.
    pub fn take_u32_each(
        &self,
        pos: &mut u64,
        count: u64,
        what: &'static str,
    ) -> Result<U32s<'data>> {
        match self.u32s(*pos, count, what) {
            Ok(words) => {
                *pos += count * 4;
                Ok(words)
            }
            Err(whole_run) => {
                let first_missing = pos.saturating_add(self.len().saturating_sub(*pos) / 4 * 4);
                Err(self.u32(first_missing, what).err().unwrap_or(whole_run))
            }
        }
    }

    /// Advancing read that cuts instead of failing: the whole `u32` words of
    /// the `count` at `*pos` that lie inside the data (fewer, or none, when
    /// the data ends first), then moves `*pos` by `4 * count` all the same.
    pub fn take_u32s_cut(&self, pos: &mut u64, count: u64) -> std::iter::Take<U32s<'data>> {
        let words = le_u32s(self.rest(*pos)).take(usize::try_from(count).unwrap_or(usize::MAX));
        *pos = pos.saturating_add(count.saturating_mul(4));
        words
    }

    /// An error of `kind` at relative `offset`.
    pub fn error(&self, offset: u64, kind: ReadErrorKind) -> ReadError {
        ReadError::new(self.abs(offset), kind)
    }

    /// A [`ReadErrorKind::UnknownValue`] error at relative `offset`, in the
    /// decoder's own `words` (which field, and the value found).
    pub fn unknown_value(&self, offset: u64, words: impl Words) -> ReadError {
        self.error(offset, ReadErrorKind::unknown_value(words))
    }
}

/// The whole little-endian `u32` words of `bytes`, in order (a trailing
/// partial word is ignored).
pub fn le_u32s(bytes: &[u8]) -> U32s<'_> {
    LeValues::new(bytes)
}

/// A little-endian integer as stored: its width and its decoding.
pub trait LeValue: Copy {
    /// Width in bytes.
    const SIZE: usize;
    /// The value of exactly [`Self::SIZE`] little-endian bytes.
    fn from_le(bytes: &[u8]) -> Self;
}

impl LeValue for u16 {
    const SIZE: usize = 2;
    fn from_le(bytes: &[u8]) -> u16 {
        u16::from_le_bytes([bytes[0], bytes[1]])
    }
}

impl LeValue for u32 {
    const SIZE: usize = 4;
    fn from_le(bytes: &[u8]) -> u32 {
        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
    }
}

/// Iterator over the whole little-endian values of a byte run; see
/// [`Cursor::u32s`], [`Cursor::u16s`] and [`le_u32s`].
#[derive(Debug, Clone)]
pub struct LeValues<'data, T> {
    values: std::slice::ChunksExact<'data, u8>,
    value: std::marker::PhantomData<T>,
}

impl<'data, T: LeValue> LeValues<'data, T> {
    fn new(bytes: &'data [u8]) -> Self {
        LeValues {
            values: bytes.chunks_exact(T::SIZE),
            value: std::marker::PhantomData,
        }
    }
}

impl<T: LeValue> Iterator for LeValues<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        self.values.next().map(T::from_le)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.values.size_hint()
    }
}

impl<T: LeValue> ExactSizeIterator for LeValues<'_, T> {}

/// Iterator over little-endian `u32` words.
pub type U32s<'data> = LeValues<'data, u32>;
/// Iterator over little-endian `u16` values.
pub type U16s<'data> = LeValues<'data, u16>;

/// Iterator over `u32` words read one at a time; see [`Cursor::u32_each`].
#[derive(Debug, Clone)]
pub struct U32Each<'data> {
    cursor: Cursor<'data>,
    offset: u64,
    left: u64,
    what: &'static str,
}

impl Iterator for U32Each<'_> {
    type Item = Result<u32>;

    fn next(&mut self) -> Option<Result<u32>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let word = self.cursor.u32(self.offset, self.what);
        self.offset = self.offset.saturating_add(4);
        Some(word)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.left).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

impl ExactSizeIterator for U32Each<'_> {}

/// Iterator over fixed-stride records; see [`Cursor::records`].
#[derive(Debug, Clone)]
pub struct Records<'data> {
    all: Cursor<'data>,
    offset: u64,
    stride: u64,
    next: u64,
    count: u64,
}

impl<'data> Iterator for Records<'data> {
    /// The record's offset relative to the cursor it came from, and a cursor over its bytes.
    type Item = (u64, Cursor<'data>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.count {
            return None;
        }
        let at = self.next * self.stride;
        self.next += 1;
        // The whole run was checked when the iterator was made.
        let record = self.all.sub(at, self.stride, "record").ok()?;
        Some((self.offset + at, record))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.count - self.next).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Records<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_bounds() {
        let c = Cursor::new(&[1, 2, 3, 4, 5, 0, 7], 100);
        assert_eq!(c.u16(0, "x").unwrap(), 0x0201);
        assert_eq!(c.u32(1, "x").unwrap(), 0x0504_0302);
        let e = c.u32(4, "field").unwrap_err();
        assert_eq!(e.offset, 104);
        assert!(matches!(
            e.kind,
            ReadErrorKind::Truncated {
                needed: 4,
                available: 3,
                ..
            }
        ));
        assert!(c.bytes(u64::MAX, 2, "x").is_err());
        assert!(c.bytes(2, u64::MAX, "x").is_err());
        assert_eq!(c.rest(6), &[7]);
        assert_eq!(c.rest(60), &[] as &[u8]);
    }

    #[test]
    fn cstr_needs_terminator_within_limit() {
        let c = Cursor::new(b"ab\0cd", 0);
        assert_eq!(c.cstr(0, 3, "s").unwrap(), b"ab");
        assert!(c.cstr(0, 2, "s").is_err());
        assert!(c.cstr(3, 10, "s").is_err());
    }

    #[test]
    fn word_arrays() {
        let c = Cursor::new(&[1, 0, 0, 0, 2, 0, 0, 0, 0xff], 10);
        assert_eq!(c.u32s(0, 2, "w").unwrap().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(c.u32s(4, 1, "w").unwrap().len(), 1);
        assert_eq!(c.u32s(9, 0, "w").unwrap().count(), 0);
        let e = c.u32s(4, 2, "words").unwrap_err();
        assert_eq!(e.offset, 14);
        assert!(matches!(
            e.kind,
            ReadErrorKind::Truncated {
                what: "words",
                needed: 8,
                available: 5,
                ..
            }
        ));
        assert!(c.u32s(0, u64::MAX, "w").is_err());
        assert_eq!(c.u16s(3, 2, "h").unwrap().collect::<Vec<_>>(), [0x0200, 0]);
        let e = c.u16s(6, 2, "halves").unwrap_err();
        assert_eq!(e.offset, 16);
        assert!(matches!(
            e.kind,
            ReadErrorKind::Truncated {
                what: "halves",
                needed: 4,
                available: 3,
                ..
            }
        ));
        assert!(c.u16s(0, u64::MAX, "h").is_err());
        assert_eq!(le_u32s(&[3, 0, 0, 0, 9]).collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn strided_records() {
        let data: Vec<u8> = (0..10).collect();
        let c = Cursor::new(&data, 100);
        let recs: Vec<_> = c.records(1, 3, 3, "r").unwrap().collect();
        assert_eq!(recs.len(), 3);
        assert_eq!(recs[0].0, 1);
        assert_eq!(recs[2].0, 7);
        assert_eq!(recs[2].1.data(), &[7, 8, 9]);
        assert_eq!(recs[1].1.base(), 104);
        assert_eq!(c.records(0, 4, 0, "r").unwrap().count(), 4);
        let e = c.records(2, 3, 3, "records").unwrap_err();
        assert_eq!(e.offset, 102);
        assert!(matches!(
            e.kind,
            ReadErrorKind::Truncated {
                what: "records",
                needed: 9,
                available: 8,
                ..
            }
        ));
        assert!(c.records(0, u64::MAX, 2, "r").is_err());
    }

    #[test]
    fn words_one_at_a_time() {
        let data = [1, 0, 0, 0, 2, 0, 0, 0, 3, 0];
        let c = Cursor::new(&data, 50);
        let each: Vec<_> = c.u32_each(0, 3, "table").collect();
        assert_eq!(each.len(), 3);
        assert_eq!((each[0].clone().unwrap(), each[1].clone().unwrap()), (1, 2));
        // The third word fails exactly as `u32` at its own offset does.
        assert_eq!(each[2].clone().unwrap_err(), c.u32(8, "table").unwrap_err());
        assert_eq!(each[2].clone().unwrap_err().offset, 58);
        assert_eq!(c.u32_each(4, 0, "t").count(), 0);
        assert_eq!(c.u32_each(0, u64::MAX, "t").len(), usize::MAX);

        let mut p = 0;
        let words: Vec<u32> = c.take_u32_each(&mut p, 2, "w").unwrap().collect();
        assert_eq!((words, p), (vec![1, 2], 8));
        // A short run reports its first missing word, not the start of the run.
        let mut p = 0;
        let e = c.take_u32_each(&mut p, 3, "words").unwrap_err();
        assert_eq!(p, 0, "a failed read leaves the position alone");
        assert_eq!(e.offset, 58);
        assert!(matches!(
            e.kind,
            ReadErrorKind::Truncated {
                what: "words",
                needed: 4,
                available: 2,
                ..
            }
        ));
        let mut far = 40;
        let e = c.take_u32_each(&mut far, 1, "w").unwrap_err();
        assert_eq!((e.offset, far), (90, 40));
        let mut p = 4;
        assert!(c.take_u32_each(&mut p, u64::MAX, "w").is_err());
        assert_eq!(
            c.take_u32_each(&mut 0, 5, "w").unwrap_err(),
            c.u32(8, "w").unwrap_err()
        );
    }

    #[test]
    fn cut_words_and_advancing_records() {
        let data = [1, 0, 0, 0, 2, 0, 0, 0, 3, 0];
        let c = Cursor::new(&data, 0);
        let mut p = 4;
        assert_eq!(c.take_u32s_cut(&mut p, 3).collect::<Vec<_>>(), [2]);
        assert_eq!(p, 16, "moves by the whole count even when cut");
        assert_eq!(c.take_u32s_cut(&mut p, 2).count(), 0);
        assert_eq!(p, 24);
        let mut p = 0;
        assert_eq!(c.take_u32s_cut(&mut p, 1).collect::<Vec<_>>(), [1]);
        assert_eq!(p, 4);

        let mut p = 1;
        let recs: Vec<_> = c.take_records(&mut p, 2, 3, "r").unwrap().collect();
        assert_eq!((recs[1].0, recs[1].1.data(), p), (4, &[2, 0, 0][..], 7));
        let e = c.take_records(&mut p, 2, 2, "recs").unwrap_err();
        assert_eq!((e.offset, p), (7, 7));
    }

    #[test]
    fn advancing_reads() {
        let data = [
            7, 0, 0, 0, b'h', b'i', 0, 1, 0, 0, 0, 2, 0, 0, 0, 0xaa, 0xbb,
        ];
        let c = Cursor::new(&data, 0);
        let mut p = 0;
        assert_eq!(c.take_u32(&mut p, "n").unwrap(), 7);
        assert_eq!(p, 4);
        let mut q = 0;
        assert_eq!(c.take_u16(&mut q, "n").unwrap(), 7);
        assert_eq!(q, 2);
        assert_eq!(c.take_cstr(&mut p, 8, "s").unwrap(), b"hi");
        assert_eq!(p, 7);
        let words: Vec<u32> = c.take_u32s(&mut p, 2, "w").unwrap().collect();
        assert_eq!((words, p), (vec![1, 2], 15));
        assert!(c.take_bytes(&mut p, 3, "b").is_err());
        assert_eq!(p, 15, "a failed read leaves the position alone");
        let sub = c.take_sub(&mut p, 1, "b").unwrap();
        assert_eq!((sub.data(), sub.base(), p), (&[0xaa][..], 15, 16));
        assert_eq!(c.take_bytes(&mut p, 1, "b").unwrap(), &[0xbb]);
        assert!(c.take_u32(&mut p, "n").is_err());
        assert!(c.take_cstr(&mut p, 4, "s").is_err());
        assert_eq!(p, 17);
    }
}
