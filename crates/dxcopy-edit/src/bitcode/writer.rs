//! Bitstream writer: fixed and VBR fields, blocks with back-patched length
//! words, DEFINE_ABBREV (BLOCKINFO included) and abbreviated or unabbreviated
//! records (docs/format/bitcode.md).

use dxcopy_read::bitcode::reader::{BLOCKINFO_BLOCK_ID, BLOCKINFO_CODE_SETBID};
use dxcopy_read::bitcode::{abbrev_id, encode_char6, Abbrev, AbbrevOp};
use std::rc::Rc;

/// Why a record or block could not be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The abbreviation ID is not defined in the current block.
    #[error("abbreviation ID {0} is not defined in the current block")]
    UnknownAbbrev(u32),
    /// A value does not fit its abbreviation operand.
    #[error("value {value} does not fit the abbreviation operand {op:?}")]
    DoesNotFit {
        /// The value.
        value: u64,
        /// The operand.
        op: AbbrevOp,
    },
    /// Fewer values than the abbreviation needs, or values left over.
    #[error("the values do not match the abbreviation's operands")]
    ValueCount,
    /// END_BLOCK or a record outside any block.
    #[error("no open block")]
    NoBlock,
    /// A block longer than a 32-bit length word can hold.
    #[error("block too long for its length word")]
    BlockTooLong,
}

/// Bits appended least significant first.
#[derive(Debug, Default, Clone)]
pub struct BitWriter {
    buf: Vec<u8>,
    bit_len: u64,
}

impl BitWriter {
    /// An empty writer.
    pub fn new() -> BitWriter {
        BitWriter::default()
    }

    /// Bits written so far.
    pub fn bit_len(&self) -> u64 {
        self.bit_len
    }

    /// Appends the low `width` bits of `value` (`width` ≤ 64).
    pub fn emit(&mut self, mut value: u64, mut width: u32) {
        while width > 0 {
            let bit = (self.bit_len % 8) as u32;
            if bit == 0 {
                self.buf.push(0);
            }
            let take = (8 - bit).min(width);
            let chunk = (value & ((1u64 << take) - 1)) as u8;
            if let Some(last) = self.buf.last_mut() {
                *last |= chunk << bit;
            }
            value = if take == 64 { 0 } else { value >> take };
            width -= take;
            self.bit_len += u64::from(take);
        }
    }

    /// Appends `value` as VBR with `width`-bit chunks (`width` ≥ 2).
    pub fn emit_vbr(&mut self, mut value: u64, width: u32) {
        let payload = width - 1;
        let threshold = 1u64 << payload;
        while value >= threshold {
            self.emit((value & (threshold - 1)) | threshold, width);
            value >>= payload;
        }
        self.emit(value, width);
    }

    /// Pads with zero bits to a multiple of 32.
    pub fn align32(&mut self) {
        let pad = (32 - (self.bit_len % 32) as u32) % 32;
        self.emit(0, pad);
    }

    /// Appends bytes (the writer must be byte aligned).
    pub fn bytes(&mut self, data: &[u8]) {
        debug_assert_eq!(self.bit_len % 8, 0);
        self.buf.extend_from_slice(data);
        self.bit_len += data.len() as u64 * 8;
    }

    /// Overwrites the little-endian u32 at byte `offset`.
    pub fn patch_u32(&mut self, offset: usize, value: u32) {
        if let Some(word) = self.buf.get_mut(offset..offset + 4) {
            word.copy_from_slice(&value.to_le_bytes());
        }
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

/// Writes `width` bits of `value` at bit `pos` of `buf`, in place.
pub fn put_bits(buf: &mut [u8], pos: u64, value: u64, width: u32) {
    for i in 0..u64::from(width) {
        let bit = pos + i;
        let Some(byte) = buf.get_mut((bit / 8) as usize) else {
            return;
        };
        let mask = 1u8 << (bit % 8);
        if (value >> i) & 1 == 1 {
            *byte |= mask;
        } else {
            *byte &= !mask;
        }
    }
}

#[derive(Debug)]
struct Scope {
    block_id: u32,
    abbrev_width: u32,
    abbrevs: Vec<Rc<Abbrev>>,
    length_offset: usize,
}

/// Writes a bitstream: the caller enters and ends blocks and emits
/// abbreviation definitions and records; the writer keeps the abbreviations
/// in scope (BLOCKINFO included) and fills in each block's length word.
#[derive(Debug, Default)]
pub struct StreamWriter {
    bits: BitWriter,
    scopes: Vec<Scope>,
    blockinfo: Vec<(u32, Vec<Rc<Abbrev>>)>,
    blockinfo_target: Option<u32>,
}

impl StreamWriter {
    /// A writer that starts with the `BC 0xC0DE` magic.
    pub fn new() -> StreamWriter {
        let mut w = StreamWriter::default();
        w.bits.bytes(&dxcopy_read::bitcode::reader::MAGIC);
        w
    }

    fn width(&self) -> u32 {
        self.scopes.last().map_or(2, |s| s.abbrev_width)
    }

    /// ENTER_SUBBLOCK with a placeholder length word.
    pub fn enter_block(&mut self, block_id: u32, abbrev_width: u32) {
        self.bits
            .emit(u64::from(abbrev_id::ENTER_SUBBLOCK), self.width());
        self.bits.emit_vbr(u64::from(block_id), 8);
        self.bits.emit_vbr(u64::from(abbrev_width), 4);
        self.bits.align32();
        let length_offset = (self.bits.bit_len() / 8) as usize;
        self.bits.emit(0, 32);
        let abbrevs = self
            .blockinfo
            .iter()
            .find(|(id, _)| *id == block_id)
            .map(|(_, a)| a.clone())
            .unwrap_or_default();
        self.scopes.push(Scope {
            block_id,
            abbrev_width,
            abbrevs,
            length_offset,
        });
    }

    /// END_BLOCK, padding, and the block's length word.
    pub fn end_block(&mut self) -> Result<(), WriteError> {
        let width = self.width();
        let scope = self.scopes.pop().ok_or(WriteError::NoBlock)?;
        self.bits.emit(u64::from(abbrev_id::END_BLOCK), width);
        self.bits.align32();
        let body_start = scope.length_offset as u64 + 4;
        let words = (self.bits.bit_len() / 8 - body_start) / 4;
        let words = u32::try_from(words).map_err(|_| WriteError::BlockTooLong)?;
        self.bits.patch_u32(scope.length_offset, words);
        if scope.block_id == BLOCKINFO_BLOCK_ID {
            self.blockinfo_target = None;
        }
        Ok(())
    }

    /// DEFINE_ABBREV; inside BLOCKINFO it applies to the block of the last SETBID.
    pub fn define_abbrev(&mut self, abbrev: Rc<Abbrev>) -> Result<(), WriteError> {
        let width = self.width();
        self.bits.emit(u64::from(abbrev_id::DEFINE_ABBREV), width);
        self.bits.emit_vbr(abbrev.ops().len() as u64, 5);
        for op in abbrev.ops() {
            match *op {
                AbbrevOp::Literal(v) => {
                    self.bits.emit(1, 1);
                    self.bits.emit_vbr(v, 8);
                }
                op => {
                    self.bits.emit(0, 1);
                    self.bits.emit(op.encoding_code(), 3);
                    if let AbbrevOp::Fixed(w) | AbbrevOp::Vbr(w) = op {
                        self.bits.emit_vbr(u64::from(w), 5);
                    }
                }
            }
        }
        let scope = self.scopes.last_mut().ok_or(WriteError::NoBlock)?;
        if scope.block_id == BLOCKINFO_BLOCK_ID {
            let target = self.blockinfo_target.ok_or(WriteError::NoBlock)?;
            match self.blockinfo.iter_mut().find(|(id, _)| *id == target) {
                Some((_, list)) => list.push(abbrev),
                None => self.blockinfo.push((target, vec![abbrev])),
            }
        } else {
            scope.abbrevs.push(abbrev);
        }
        Ok(())
    }

    /// A record with abbreviation `id` (3 = unabbreviated): the code, the
    /// scalar values (literals and array elements included) and the blob.
    pub fn record(
        &mut self,
        id: u32,
        code: u32,
        values: &[u64],
        blob: Option<&[u8]>,
    ) -> Result<(), WriteError> {
        let scope = self.scopes.last().ok_or(WriteError::NoBlock)?;
        let width = scope.abbrev_width;
        if scope.block_id == BLOCKINFO_BLOCK_ID && code == BLOCKINFO_CODE_SETBID {
            self.blockinfo_target = values.first().and_then(|v| u32::try_from(*v).ok());
        }
        if id == abbrev_id::UNABBREV_RECORD {
            self.bits.emit(u64::from(id), width);
            self.bits.emit_vbr(u64::from(code), 6);
            self.bits.emit_vbr(values.len() as u64, 6);
            for v in values {
                self.bits.emit_vbr(*v, 6);
            }
            return Ok(());
        }
        let abbrev = id
            .checked_sub(abbrev_id::FIRST_DEFINED)
            .and_then(|i| scope.abbrevs.get(i as usize))
            .cloned()
            .ok_or(WriteError::UnknownAbbrev(id))?;
        let ops = abbrev.ops();
        // Check everything before the first bit so a failure writes nothing.
        check_scalar(ops[0], u64::from(code))?;
        let mut rest = values;
        let mut i = 1;
        while i < ops.len() {
            match ops[i] {
                AbbrevOp::Array => {
                    for v in rest {
                        check_scalar(ops[i + 1], *v)?;
                    }
                    rest = &[];
                    i += 1;
                }
                AbbrevOp::Blob => {
                    if blob.is_none() {
                        return Err(WriteError::ValueCount);
                    }
                }
                op => {
                    let (v, tail) = rest.split_first().ok_or(WriteError::ValueCount)?;
                    check_scalar(op, *v)?;
                    rest = tail;
                }
            }
            i += 1;
        }
        if !rest.is_empty() {
            return Err(WriteError::ValueCount);
        }
        self.bits.emit(u64::from(id), width);
        self.emit_scalar(ops[0], u64::from(code));
        let mut rest = values;
        let mut i = 1;
        while i < ops.len() {
            match ops[i] {
                AbbrevOp::Array => {
                    self.bits.emit_vbr(rest.len() as u64, 6);
                    for v in rest {
                        self.emit_scalar(ops[i + 1], *v);
                    }
                    rest = &[];
                    i += 1;
                }
                AbbrevOp::Blob => {
                    let blob = blob.unwrap_or_default();
                    self.bits.emit_vbr(blob.len() as u64, 6);
                    self.bits.align32();
                    self.bits.bytes(blob);
                    self.bits.align32();
                }
                op => {
                    if let Some((v, tail)) = rest.split_first() {
                        self.emit_scalar(op, *v);
                        rest = tail;
                    }
                }
            }
            i += 1;
        }
        Ok(())
    }

    fn emit_scalar(&mut self, op: AbbrevOp, value: u64) {
        match op {
            AbbrevOp::Literal(_) | AbbrevOp::Vbr(0) => {}
            AbbrevOp::Fixed(w) => self.bits.emit(value, u32::from(w)),
            AbbrevOp::Vbr(w) => self.bits.emit_vbr(value, u32::from(w)),
            AbbrevOp::Char6 => self
                .bits
                .emit(u64::from(encode_char6(value as u8).unwrap_or(0)), 6),
            AbbrevOp::Array | AbbrevOp::Blob => {}
        }
    }

    /// The stream written (magic included). All blocks must be ended.
    pub fn finish(self) -> Result<Vec<u8>, WriteError> {
        if !self.scopes.is_empty() {
            return Err(WriteError::NoBlock);
        }
        Ok(self.bits.into_bytes())
    }
}

/// Whether `value` can be written with `op`.
pub fn check_scalar(op: AbbrevOp, value: u64) -> Result<(), WriteError> {
    let fits = match op {
        AbbrevOp::Literal(v) => v == value,
        AbbrevOp::Fixed(w) => w >= 64 || value >> w == 0,
        AbbrevOp::Vbr(0) => value == 0,
        AbbrevOp::Vbr(_) => true,
        AbbrevOp::Char6 => u8::try_from(value).ok().and_then(encode_char6).is_some(),
        AbbrevOp::Array | AbbrevOp::Blob => false,
    };
    if fits {
        Ok(())
    } else {
        Err(WriteError::DoesNotFit { value, op })
    }
}
