//! Bit-level reads: fixed-width fields and VBR values, least significant bit
//! first, as BitCodeFormat.rst describes (docs/format/bitcode.md).

use super::error::{err, BitcodeErrorKind, Result};

/// A bounds-checked bit cursor over a byte slice. Positions are absolute bit
/// offsets into `data`; reads stop at `end` (a bit offset, at most `data.len() * 8`).
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    data: &'a [u8],
    pos: u64,
    end: u64,
}

impl<'a> BitReader<'a> {
    /// A cursor over `data` from bit `pos` to bit `end` (clamped to the data).
    pub fn new(data: &'a [u8], pos: u64, end: u64) -> BitReader<'a> {
        let data_bits = (data.len() as u64).saturating_mul(8);
        let end = end.min(data_bits);
        BitReader {
            data,
            pos: pos.min(end),
            end,
        }
    }

    /// The data the cursor reads.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Current bit position.
    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// End bit position.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// Moves the end (clamped to the data); reads stop there.
    pub fn set_end(&mut self, end: u64) {
        self.end = end.min((self.data.len() as u64).saturating_mul(8));
    }

    /// Bits left before the end.
    pub fn remaining(&self) -> u64 {
        self.end - self.pos
    }

    /// Whether the cursor is at the end.
    pub fn at_end(&self) -> bool {
        self.pos >= self.end
    }

    /// Moves to bit `pos`, which must not lie past the end.
    pub fn seek(&mut self, pos: u64, what: &'static str) -> Result<()> {
        if pos > self.end {
            return err(self.pos, BitcodeErrorKind::Truncated { what });
        }
        self.pos = pos;
        Ok(())
    }

    /// The 64 bits starting at the current position's byte, shifted so that
    /// bit 0 is the current bit, and how many of them lie before the end
    /// (at most 57, so a window never needs a ninth byte). `None` near the
    /// end of the data, where the byte-wise path takes over.
    #[inline]
    pub(crate) fn window(&self) -> Option<(u64, u64)> {
        let byte = (self.pos / 8) as usize;
        let bytes: [u8; 8] = self.data.get(byte..byte.checked_add(8)?)?.try_into().ok()?;
        let shift = self.pos % 8;
        let valid = (64 - shift).min(self.end - self.pos);
        Some((u64::from_le_bytes(bytes) >> shift, valid))
    }

    /// Reads a `width`-bit field (`width` ≤ 64).
    #[inline]
    pub fn read(&mut self, width: u32, what: &'static str) -> Result<u64> {
        debug_assert!(width <= 64);
        if width == 0 {
            return Ok(0);
        }
        if width < 57 {
            if let Some((word, valid)) = self.window() {
                if u64::from(width) <= valid {
                    self.pos += u64::from(width);
                    return Ok(word & ((1u64 << width) - 1));
                }
            }
        }
        if u64::from(width) > self.remaining() {
            return err(self.pos, BitcodeErrorKind::Truncated { what });
        }
        let value = read_bits(self.data, self.pos, width);
        self.pos += u64::from(width);
        Ok(value)
    }

    /// Reads a VBR value with `width`-bit chunks (`width` in 2..=32).
    #[inline]
    pub fn read_vbr(&mut self, width: u32, what: &'static str) -> Result<u64> {
        // Fast path: the whole value lies in one window and has few enough
        // chunks that it cannot overflow 64 bits; anything else (the end of
        // the data or the block, long values) takes the checked path.
        if let Some((word, valid)) = self.window() {
            let payload = width - 1;
            let chunk_mask = (1u64 << width) - 1;
            let high = 1u64 << payload;
            let max_chunks = (valid / u64::from(width)).min(u64::from(64 / payload)) as u32;
            let mut value = 0u64;
            for k in 0..max_chunks {
                let chunk = (word >> (k * width)) & chunk_mask;
                value |= (chunk & (high - 1)) << (k * payload);
                if chunk & high == 0 {
                    self.pos += u64::from((k + 1) * width);
                    return Ok(value);
                }
            }
        }
        self.read_vbr_checked(width, what)
    }

    /// Steps over `count` VBR values with `width`-bit chunks (`width` in
    /// 2..=32), as `count` calls of [`BitReader::read_vbr`] would, with the
    /// same errors at the same offsets. Whole windows of chunks are stepped
    /// over at once by counting the chunks without a continuation bit.
    pub fn skip_vbrs(&mut self, width: u32, mut count: u64, what: &'static str) -> Result<()> {
        let payload = width - 1;
        // A value of at most this many chunks cannot overflow 64 bits.
        let safe_chunks = u64::from(64 / payload);
        let per_window = 57 / width;
        let window_bits = u64::from(per_window * width);
        // One bit per chunk: its continuation bit.
        let ones = ((1u64 << window_bits) - 1) / ((1u64 << width) - 1);
        let high = ones << payload;
        // Chunks of the current value already passed.
        let mut run = 0u64;
        while count > 0 {
            let Some((word, valid)) = self.window() else {
                break;
            };
            if valid < window_bits {
                break;
            }
            let ends = !word & high;
            if ends == 0 {
                if run + u64::from(per_window) >= safe_chunks {
                    break;
                }
                run += u64::from(per_window);
                self.pos += window_bits;
                continue;
            }
            // The value in progress ends at the first end in the window.
            let first = u64::from(ends.trailing_zeros() / width);
            if run + first + 1 > safe_chunks {
                break;
            }
            let found = u64::from(ends.count_ones());
            if found < count {
                count -= found;
                let last = u64::from((63 - ends.leading_zeros()) / width);
                run = u64::from(per_window) - 1 - last;
                self.pos += window_bits;
                continue;
            }
            // The `count`-th end lies in this window.
            let mut rest = ends;
            for _ in 1..count {
                rest &= rest - 1;
            }
            let chunk = u64::from(rest.trailing_zeros() / width);
            self.pos += (chunk + 1) * u64::from(width);
            return Ok(());
        }
        // The end of the data or the block is near, or a long value: go back
        // to the start of the value in progress and read value by value.
        self.pos -= run * u64::from(width);
        for _ in 0..count {
            self.read_vbr_checked(width, what)?;
        }
        Ok(())
    }

    /// [`BitReader::read_vbr`] chunk by chunk, with every bound and overflow check.
    fn read_vbr_checked(&mut self, width: u32, what: &'static str) -> Result<u64> {
        let start = self.pos;
        let payload = width - 1;
        let high = 1u64 << payload;
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let chunk = self.read(width, what)?;
            let bits = chunk & (high - 1);
            if bits != 0 {
                if shift + payload > 64 && bits >> (64 - shift) != 0 {
                    return err(start, BitcodeErrorKind::VbrOverflow);
                }
                value |= bits << shift;
            }
            if chunk & high == 0 {
                return Ok(value);
            }
            shift += payload;
            if shift >= 64 {
                return err(start, BitcodeErrorKind::VbrOverflow);
            }
        }
    }

    /// Moves `bits` bits forward, which must not pass the end.
    #[inline]
    pub fn skip(&mut self, bits: u64, what: &'static str) -> Result<()> {
        if bits > self.remaining() {
            return err(self.pos, BitcodeErrorKind::Truncated { what });
        }
        self.pos += bits;
        Ok(())
    }

    /// Skips to the next multiple of 32 bits.
    pub fn align32(&mut self, what: &'static str) -> Result<()> {
        let aligned = self.pos.div_ceil(32) * 32;
        self.seek(aligned, what)
    }
}

/// The `width` bits at bit `pos` of `data` (caller checked the bounds).
fn read_bits(data: &[u8], pos: u64, width: u32) -> u64 {
    let byte = (pos / 8) as usize;
    let shift = (pos % 8) as u32;
    let mut value: u128 = 0;
    let needed = (shift + width).div_ceil(8) as usize;
    for (i, b) in data[byte..byte + needed].iter().enumerate() {
        value |= u128::from(*b) << (8 * i);
    }
    let value = value >> shift;
    let mask = if width == 64 {
        u128::from(u64::MAX)
    } else {
        (1u128 << width) - 1
    };
    (value & mask) as u64
}

/// Number of bits a VBR encoding of `value` with `width`-bit chunks takes.
pub fn vbr_len(value: u64, width: u32) -> u64 {
    let payload = u64::from(width - 1);
    let significant = u64::from(64 - value.leading_zeros()).max(1);
    significant.div_ceil(payload) * u64::from(width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_fields_are_read_lsb_first_across_bytes() {
        let data = [0b1010_1101, 0b0000_0011, 0xff, 0x00];
        let mut r = BitReader::new(&data, 0, 32);
        assert_eq!(r.read(3, "x").unwrap(), 0b101);
        assert_eq!(r.read(7, "x").unwrap(), 0b111_0101);
        assert_eq!(r.read(14, "x").unwrap(), 0b11_1111_1100_0000);
        assert_eq!(r.pos(), 24);
        assert!(r.read(9, "x").is_err());
        assert_eq!(r.read(8, "x").unwrap(), 0);
        assert!(r.at_end());
    }

    #[test]
    fn vbr_values_decode_and_their_length_is_known() {
        // 100 in VBR6: 100 = 0b11_00100 -> chunks 1_00100 (low 5 bits + continue), 0_00011.
        let mut bytes = [0u8; 4];
        let packed: u32 = 0b100100 | (0b000011 << 6);
        bytes.copy_from_slice(&packed.to_le_bytes());
        let mut r = BitReader::new(&bytes, 0, 32);
        assert_eq!(r.read_vbr(6, "x").unwrap(), 100);
        assert_eq!(r.pos(), 12);
        assert_eq!(vbr_len(100, 6), 12);
        assert_eq!(vbr_len(0, 6), 6);
        assert_eq!(vbr_len(31, 6), 6);
        assert_eq!(vbr_len(32, 6), 12);
        assert_eq!(vbr_len(u64::MAX, 8), 80);
    }

    #[test]
    fn overlong_vbr_is_an_error() {
        let bytes = [0xffu8; 16];
        let mut r = BitReader::new(&bytes, 0, 128);
        let e = r.read_vbr(4, "x").unwrap_err();
        assert_eq!(e.kind, BitcodeErrorKind::VbrOverflow);
        assert_eq!(e.bit_offset, 0);
    }

    /// Bytes from a small xorshift generator; `dense` makes continuation
    /// bits frequent, so long and overflowing values occur.
    fn noise(len: usize, seed: u64, dense: bool) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let b = x as u8;
                if dense {
                    b | (x >> 8) as u8
                } else {
                    b
                }
            })
            .collect()
    }

    #[test]
    fn skipping_vbr_values_matches_reading_them_one_by_one() {
        let (mut passed, mut overflowed, mut truncated) = (0, 0, 0);
        for seed in 1..40u64 {
            for dense in [false, true] {
                let data = noise(48 + (seed as usize % 13), seed, dense);
                for width in [2u32, 3, 4, 5, 6, 7, 8, 11, 16, 31, 32] {
                    for start in [0u64, 3, 13] {
                        for end_cut in [0u64, 5, 29] {
                            let end = data.len() as u64 * 8 - end_cut;
                            for count in [0u64, 1, 2, 5, 9, 40, 400] {
                                let mut one = BitReader::new(&data, start, end);
                                let expected = (0..count)
                                    .try_for_each(|_| one.read_vbr(width, "x").map(|_| ()));
                                let mut all = BitReader::new(&data, start, end);
                                let got = all.skip_vbrs(width, count, "x");
                                assert_eq!(
                                    got, expected,
                                    "seed {seed} width {width} count {count}"
                                );
                                match got {
                                    Ok(()) => {
                                        assert_eq!(
                                            all.pos(),
                                            one.pos(),
                                            "seed {seed} width {width}"
                                        );
                                        passed += 1;
                                    }
                                    Err(e) if e.kind == BitcodeErrorKind::VbrOverflow => {
                                        overflowed += 1
                                    }
                                    Err(_) => truncated += 1,
                                }
                            }
                        }
                    }
                }
            }
        }
        // Every path was taken: whole values, overflows and the end of the data.
        assert!(passed > 5_000 && overflowed > 100 && truncated > 100);
    }

    #[test]
    fn fast_and_checked_vbr_reads_agree() {
        for seed in 1..60u64 {
            let data = noise(40, seed, seed % 2 == 0);
            for width in [2u32, 4, 6, 8, 12, 32] {
                let end = data.len() as u64 * 8 - seed % 9;
                let mut fast = BitReader::new(&data, seed % 7, end);
                let mut slow = fast.clone();
                loop {
                    let a = fast.read_vbr(width, "x");
                    let b = slow.read_vbr_checked(width, "x");
                    assert_eq!(a, b, "seed {seed} width {width}");
                    assert_eq!(fast.pos(), slow.pos());
                    if a.is_err() {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn align32_moves_to_the_next_word() {
        let bytes = [0u8; 8];
        let mut r = BitReader::new(&bytes, 0, 64);
        r.read(5, "x").unwrap();
        r.align32("x").unwrap();
        assert_eq!(r.pos(), 32);
        r.align32("x").unwrap();
        assert_eq!(r.pos(), 32);
    }
}
