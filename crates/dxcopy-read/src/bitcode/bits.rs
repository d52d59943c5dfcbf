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

    /// Reads a `width`-bit field (`width` ≤ 64).
    pub fn read(&mut self, width: u32, what: &'static str) -> Result<u64> {
        debug_assert!(width <= 64);
        if width == 0 {
            return Ok(0);
        }
        if u64::from(width) > self.remaining() {
            return err(self.pos, BitcodeErrorKind::Truncated { what });
        }
        let value = read_bits(self.data, self.pos, width);
        self.pos += u64::from(width);
        Ok(value)
    }

    /// Reads a VBR value with `width`-bit chunks (`width` in 2..=32).
    pub fn read_vbr(&mut self, width: u32, what: &'static str) -> Result<u64> {
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
