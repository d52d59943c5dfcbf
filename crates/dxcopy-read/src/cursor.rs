//! Bounds-checked little-endian reads over a byte slice. Every read returns a
//! [`ReadError`] carrying the absolute file offset instead of panicking.

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
            None => Err(ReadError::invalid(
                self.abs(offset),
                format!("{what} is not NUL-terminated"),
            )),
        }
    }

    /// An error of kind `Invalid` at relative `offset`.
    pub fn invalid(&self, offset: u64, message: impl Into<String>) -> ReadError {
        ReadError::invalid(self.abs(offset), message)
    }
}

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
}
