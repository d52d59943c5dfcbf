//! The bitstream cursor: blocks with their length words, BLOCKINFO,
//! DEFINE_ABBREV and records, read lazily from the borrowed bytes
//! (docs/format/bitcode.md: stream structure).

use super::abbrev::{Abbrev, AbbrevOp};
use super::bits::BitReader;
use super::error::{err, BitcodeError, BitcodeErrorKind, Result};
use crate::budget::Budget;
use std::rc::Rc;

/// `BC 0xC0DE`, the LLVM IR bitcode magic.
pub const MAGIC: [u8; 4] = [b'B', b'C', 0xc0, 0xde];
/// The wrapper header's magic, `0x0B17C0DE` little-endian.
pub const WRAPPER_MAGIC: [u8; 4] = [0xde, 0xc0, 0x17, 0x0b];
/// Blocks may nest at most this deep (LLVM's writer nests 3 deep).
pub const MAX_DEPTH: usize = 64;

/// Builtin abbreviation IDs.
pub mod abbrev_id {
    /// END_BLOCK
    pub const END_BLOCK: u32 = 0;
    /// ENTER_SUBBLOCK
    pub const ENTER_SUBBLOCK: u32 = 1;
    /// DEFINE_ABBREV
    pub const DEFINE_ABBREV: u32 = 2;
    /// UNABBREV_RECORD
    pub const UNABBREV_RECORD: u32 = 3;
    /// The first ID of a defined abbreviation.
    pub const FIRST_DEFINED: u32 = 4;
}

/// The BLOCKINFO block's ID and its SETBID record code.
pub const BLOCKINFO_BLOCK_ID: u32 = 0;
/// BLOCKINFO record: `SETBID [blockid]`.
pub const BLOCKINFO_CODE_SETBID: u32 = 1;

/// The optional wrapper header (five little-endian u32 fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrapperHeader {
    /// Version field (0).
    pub version: u32,
    /// Offset of the bitcode from the start of the wrapper.
    pub offset: u32,
    /// Size of the bitcode in bytes.
    pub size: u32,
    /// CPU type field.
    pub cpu_type: u32,
}

/// LLVM bitcode, borrowed: where the bitstream lies inside the data.
#[derive(Debug, Clone, Copy)]
pub struct Bitcode<'a> {
    /// All the bytes (wrapper header included).
    pub data: &'a [u8],
    /// The wrapper header, if the data starts with one.
    pub wrapper: Option<WrapperHeader>,
    /// Byte offset of the `BC 0xC0DE` magic.
    pub stream_start: usize,
    /// Byte offset of the end of the stream.
    pub stream_end: usize,
}

impl<'a> Bitcode<'a> {
    /// Checks the wrapper header (if any), the magic and the stream length.
    pub fn parse(data: &'a [u8]) -> Result<Bitcode<'a>> {
        let mut wrapper = None;
        let (mut start, mut end) = (0usize, data.len());
        if data.starts_with(&WRAPPER_MAGIC) {
            let field = |i: usize| -> Result<u32> {
                data.get(i * 4..i * 4 + 4)
                    .and_then(|b| b.try_into().ok())
                    .map(u32::from_le_bytes)
                    .ok_or(BitcodeError {
                        bit_offset: (i * 32) as u64,
                        kind: BitcodeErrorKind::Truncated {
                            what: "wrapper header",
                        },
                    })
            };
            let header = WrapperHeader {
                version: field(1)?,
                offset: field(2)?,
                size: field(3)?,
                cpu_type: field(4)?,
            };
            let bad = || BitcodeError {
                bit_offset: 64,
                kind: BitcodeErrorKind::BadWrapper {
                    offset: header.offset,
                    size: header.size,
                    len: data.len() as u64,
                },
            };
            start = usize::try_from(header.offset).map_err(|_| bad())?;
            end = start
                .checked_add(usize::try_from(header.size).map_err(|_| bad())?)
                .filter(|e| *e <= data.len() && start >= 20)
                .ok_or_else(bad)?;
            wrapper = Some(header);
        }
        let stream = &data[start..end];
        if !stream.starts_with(&MAGIC) {
            return err(
                start as u64 * 8,
                BitcodeErrorKind::BadMagic {
                    found: stream.iter().take(4).copied().collect(),
                },
            );
        }
        if !stream.len().is_multiple_of(4) {
            return err(
                end as u64 * 8,
                BitcodeErrorKind::UnalignedLength {
                    len: stream.len() as u64,
                },
            );
        }
        Ok(Bitcode {
            data,
            wrapper,
            stream_start: start,
            stream_end: end,
        })
    }

    /// A cursor at the first top-level block.
    pub fn reader(&self) -> StreamReader<'a> {
        StreamReader {
            bits: BitReader::new(
                self.data,
                (self.stream_start as u64 + 4) * 8,
                self.stream_end as u64 * 8,
            ),
            stream_end: self.stream_end as u64 * 8,
            scopes: Vec::new(),
            blockinfo: Vec::new(),
            blockinfo_target: None,
            budget: Budget::for_input(self.stream_end - self.stream_start),
        }
    }
}

/// The header of a block, as ENTER_SUBBLOCK gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockHeader {
    /// Bit offset of the ENTER_SUBBLOCK abbreviation ID.
    pub bit_offset: u64,
    /// The block ID.
    pub block_id: u32,
    /// Width of abbreviation IDs inside the block.
    pub abbrev_width: u32,
    /// The length word: 32-bit words after it up to the end of the block.
    pub length_words: u32,
    /// Bit offset of the block's first entry (after the length word).
    pub body_start: u64,
}

impl BlockHeader {
    /// Bit offset of the end of the block.
    pub fn end(&self) -> u64 {
        self.body_start + u64::from(self.length_words) * 32
    }
}

/// One entry of the stream, in order.
#[derive(Debug, Clone)]
pub enum Entry<'a> {
    /// ENTER_SUBBLOCK.
    EnterBlock(BlockHeader),
    /// END_BLOCK of the innermost block.
    EndBlock {
        /// Bit offset of the END_BLOCK abbreviation ID.
        bit_offset: u64,
        /// The block it ends.
        block_id: u32,
    },
    /// DEFINE_ABBREV (inside BLOCKINFO it applies to the block chosen by SETBID).
    DefineAbbrev {
        /// Bit offset of the DEFINE_ABBREV abbreviation ID.
        bit_offset: u64,
        /// The abbreviation.
        abbrev: Rc<Abbrev>,
    },
    /// A record, abbreviated or not.
    Record(Record<'a>),
}

#[derive(Debug, Clone)]
struct Scope {
    block_id: u32,
    abbrev_width: u32,
    abbrevs: Vec<Rc<Abbrev>>,
    end: u64,
}

/// Reads a bitstream entry by entry ([`StreamReader::next_entry`]), keeping
/// the block stack, the abbreviations in scope and BLOCKINFO. No entry is
/// copied: records re-read their fields from the borrowed bytes on demand.
#[derive(Debug, Clone)]
pub struct StreamReader<'a> {
    bits: BitReader<'a>,
    stream_end: u64,
    scopes: Vec<Scope>,
    blockinfo: Vec<(u32, Vec<Rc<Abbrev>>)>,
    blockinfo_target: Option<u32>,
    /// What reading spends: [`FIELD_COST`] per field walked (literals and
    /// abbreviation operands included) and per abbreviation copied into a
    /// block from BLOCKINFO, so that a stream re-using a large abbreviation
    /// many times stops instead of expanding.
    budget: Budget,
}

/// Budget units per field or abbreviation operand the reader walks (the
/// bytes a decoded field takes).
pub const FIELD_COST: u64 = 8;

impl<'a> StreamReader<'a> {
    /// Current bit position.
    pub fn pos(&self) -> u64 {
        self.bits.pos()
    }

    /// The IDs of the open blocks, outermost first.
    pub fn block_path(&self) -> impl Iterator<Item = u32> + '_ {
        self.scopes.iter().map(|s| s.block_id)
    }

    /// The reader's work budget (what it has spent is the work count).
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    fn spend(&self, fields: u64, bit_offset: u64) -> Result<()> {
        self.budget
            .spend(fields.saturating_mul(FIELD_COST))
            .map_err(|e| BitcodeError {
                bit_offset,
                kind: BitcodeErrorKind::OverBudget(e),
            })
    }

    /// Number of open blocks.
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// The innermost open block.
    pub fn current_block(&self) -> Option<u32> {
        self.scopes.last().map(|s| s.block_id)
    }

    /// The abbreviation with `id` in the innermost block.
    pub fn abbrev(&self, id: u32) -> Option<&Rc<Abbrev>> {
        let index = id.checked_sub(abbrev_id::FIRST_DEFINED)?;
        self.scopes.last()?.abbrevs.get(index as usize)
    }

    /// The next entry, or `None` at the end of the stream (after the last top-level block).
    pub fn next_entry(&mut self) -> Result<Option<Entry<'a>>> {
        self.next_entry_with(&mut Vec::new(), |_| false)
    }

    /// [`StreamReader::next_entry`] that also decodes a record's fields
    /// while it walks them, for a record whose code `want` accepts: `fields`
    /// is cleared at each entry and then holds what [`Record::values_into`]
    /// would append (literals and array elements included, the blob
    /// excluded). One pass over the bits instead of a walk to find the
    /// record's end and a second pass for its values; a record `want`
    /// declines is stepped over as [`StreamReader::next_entry`] does. The
    /// errors are the same, at the same offsets.
    pub fn next_entry_with(
        &mut self,
        fields: &mut Vec<u64>,
        want: impl FnOnce(u32) -> bool,
    ) -> Result<Option<Entry<'a>>> {
        fields.clear();
        let bit_offset = self.bits.pos();
        let Some(scope) = self.scopes.last() else {
            if self.bits.at_end() {
                return Ok(None);
            }
            let id = self.bits.read(2, "abbreviation ID")?;
            if id != u64::from(abbrev_id::ENTER_SUBBLOCK) {
                return err(bit_offset, BitcodeErrorKind::NotABlock { id });
            }
            return self.enter(bit_offset).map(Some);
        };
        let width = scope.abbrev_width;
        let block_id = scope.block_id;
        let id = self.bits.read(width, "abbreviation ID")?;
        let entry = match id {
            0 => {
                self.bits.align32("END_BLOCK")?;
                let scope = self.scopes.pop().ok_or(BitcodeError {
                    bit_offset,
                    kind: BitcodeErrorKind::BadRecord {
                        reason: "END_BLOCK outside a block",
                    },
                })?;
                if self.bits.pos() != scope.end {
                    return err(
                        bit_offset,
                        BitcodeErrorKind::BlockLengthMismatch {
                            block_id: scope.block_id,
                            actual_end: self.bits.pos(),
                            declared_end: scope.end,
                        },
                    );
                }
                if scope.block_id == BLOCKINFO_BLOCK_ID {
                    self.blockinfo_target = None;
                }
                let parent_end = self.scopes.last().map_or(self.stream_end, |s| s.end);
                self.bits.set_end(parent_end);
                Entry::EndBlock {
                    bit_offset,
                    block_id,
                }
            }
            1 => self.enter(bit_offset)?,
            2 => {
                let abbrev = Rc::new(self.read_abbrev(bit_offset)?);
                if block_id == BLOCKINFO_BLOCK_ID {
                    let Some(target) = self.blockinfo_target else {
                        return err(bit_offset, BitcodeErrorKind::BlockInfoWithoutSetBid);
                    };
                    self.blockinfo_abbrevs_mut(target).push(abbrev.clone());
                } else if let Some(scope) = self.scopes.last_mut() {
                    scope.abbrevs.push(abbrev.clone());
                }
                Entry::DefineAbbrev { bit_offset, abbrev }
            }
            3 => {
                let code = self.bits.read_vbr(6, "record code")?;
                let num_ops = self.bits.read_vbr(6, "operand count")?;
                if num_ops.saturating_mul(6) > self.bits.remaining() {
                    return err(
                        bit_offset,
                        BitcodeErrorKind::Truncated {
                            what: "unabbreviated record operands",
                        },
                    );
                }
                let num_ops = u32::try_from(num_ops).map_err(|_| BitcodeError {
                    bit_offset,
                    kind: BitcodeErrorKind::OutOfRange {
                        what: "operand count",
                        value: num_ops,
                    },
                })?;
                self.spend(u64::from(num_ops) + 1, bit_offset)?;
                let body_start = self.bits.pos();
                if u32::try_from(code).is_ok_and(want) {
                    // The count was checked against the bits left above.
                    fields.reserve(num_ops as usize);
                    for _ in 0..num_ops {
                        fields.push(self.bits.read_vbr(6, "record operand")?);
                    }
                } else {
                    self.bits
                        .skip_vbrs(6, u64::from(num_ops), "record operand")?;
                }
                Entry::Record(Record {
                    bit_offset,
                    abbrev_id: abbrev_id::UNABBREV_RECORD,
                    code: code_u32(code, bit_offset)?,
                    block_id,
                    data: self.bits.data(),
                    body_start,
                    end: self.bits.pos(),
                    layout: Layout::Unabbreviated { num_ops },
                    blob: None,
                    array_len: 0,
                })
            }
            _ => {
                let abbrev = self.abbrev(id as u32).cloned().ok_or(BitcodeError {
                    bit_offset,
                    kind: BitcodeErrorKind::UnknownAbbrev { id, block_id },
                })?;
                self.read_abbreviated(bit_offset, id as u32, block_id, abbrev, fields, want)?
            }
        };
        if let Entry::Record(r) = &entry {
            if block_id == BLOCKINFO_BLOCK_ID && r.code == BLOCKINFO_CODE_SETBID {
                let target = r.values().next().ok_or(BitcodeError {
                    bit_offset,
                    kind: BitcodeErrorKind::BadRecord {
                        reason: "SETBID without a block ID",
                    },
                })?;
                self.blockinfo_target = Some(code_u32(target, bit_offset)?);
            }
        }
        Ok(Some(entry))
    }

    /// Skips the rest of the innermost block (using its length word) and
    /// closes it. BLOCKINFO is read through so its abbreviations still apply.
    pub fn skip_block(&mut self) -> Result<()> {
        let Some(scope) = self.scopes.last() else {
            return Ok(());
        };
        if scope.block_id == BLOCKINFO_BLOCK_ID {
            let depth = self.scopes.len();
            while self.scopes.len() >= depth {
                if self.next_entry()?.is_none() {
                    break;
                }
            }
            return Ok(());
        }
        let end = scope.end;
        self.scopes.pop();
        let parent_end = self.scopes.last().map_or(self.stream_end, |s| s.end);
        self.bits.set_end(parent_end);
        self.bits.seek(end, "skipped block")
    }

    fn blockinfo_abbrevs_mut(&mut self, block_id: u32) -> &mut Vec<Rc<Abbrev>> {
        let index = match self.blockinfo.iter().position(|(id, _)| *id == block_id) {
            Some(i) => i,
            None => {
                self.blockinfo.push((block_id, Vec::new()));
                self.blockinfo.len() - 1
            }
        };
        &mut self.blockinfo[index].1
    }

    fn enter(&mut self, bit_offset: u64) -> Result<Entry<'a>> {
        let block_id = self.bits.read_vbr(8, "block ID")?;
        let block_id = code_u32(block_id, bit_offset)?;
        let abbrev_width = self.bits.read_vbr(4, "abbreviation width")?;
        if abbrev_width == 0 || abbrev_width > 32 {
            return err(
                bit_offset,
                BitcodeErrorKind::OutOfRange {
                    what: "abbreviation width",
                    value: abbrev_width,
                },
            );
        }
        self.bits.align32("block length word")?;
        let length_words = self.bits.read(32, "block length word")? as u32;
        let body_start = self.bits.pos();
        let header = BlockHeader {
            bit_offset,
            block_id,
            abbrev_width: abbrev_width as u32,
            length_words,
            body_start,
        };
        if header.end() > self.bits.end() {
            return err(
                bit_offset,
                BitcodeErrorKind::Truncated {
                    what: "block (by its length word)",
                },
            );
        }
        if self.scopes.len() >= MAX_DEPTH {
            return err(bit_offset, BitcodeErrorKind::TooDeep { limit: MAX_DEPTH });
        }
        let inherited = self
            .blockinfo
            .iter()
            .find(|(id, _)| *id == block_id)
            .map_or(0, |(_, a)| a.len());
        self.spend(inherited as u64 + 1, bit_offset)?;
        let abbrevs = self
            .blockinfo
            .iter()
            .find(|(id, _)| *id == block_id)
            .map(|(_, a)| a.clone())
            .unwrap_or_default();
        self.scopes.push(Scope {
            block_id,
            abbrev_width: header.abbrev_width,
            abbrevs,
            end: header.end(),
        });
        self.bits.set_end(header.end());
        Ok(Entry::EnterBlock(header))
    }

    fn read_abbrev(&mut self, bit_offset: u64) -> Result<Abbrev> {
        let count = self.bits.read_vbr(5, "abbreviation operand count")?;
        // Each operand takes at least 4 bits.
        if count.saturating_mul(4) > self.bits.remaining() {
            return err(
                bit_offset,
                BitcodeErrorKind::Truncated {
                    what: "abbreviation operands",
                },
            );
        }
        self.spend(count + 1, bit_offset)?;
        // The count was checked against the bits left above.
        let mut ops = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let is_literal = self.bits.read(1, "abbreviation operand")?;
            if is_literal == 1 {
                ops.push(AbbrevOp::Literal(
                    self.bits.read_vbr(8, "abbreviation literal")?,
                ));
                continue;
            }
            let encoding = self.bits.read(3, "abbreviation encoding")?;
            let op = match encoding {
                1 | 2 => {
                    let width = self.bits.read_vbr(5, "abbreviation width")?;
                    let limit = if encoding == 1 { 64 } else { 32 };
                    if width > limit {
                        return err(
                            bit_offset,
                            BitcodeErrorKind::BadAbbrev {
                                reason: "fixed width above 64 or VBR width above 32",
                            },
                        );
                    }
                    if encoding == 1 {
                        AbbrevOp::Fixed(width as u8)
                    } else {
                        AbbrevOp::Vbr(width as u8)
                    }
                }
                3 => AbbrevOp::Array,
                4 => AbbrevOp::Char6,
                5 => AbbrevOp::Blob,
                _ => {
                    return err(
                        bit_offset,
                        BitcodeErrorKind::BadAbbrev {
                            reason: "unknown operand encoding",
                        },
                    )
                }
            };
            ops.push(op);
        }
        Abbrev::new(ops).map_err(|reason| BitcodeError {
            bit_offset,
            kind: BitcodeErrorKind::BadAbbrev { reason },
        })
    }

    fn read_abbreviated(
        &mut self,
        bit_offset: u64,
        id: u32,
        block_id: u32,
        abbrev: Rc<Abbrev>,
        fields: &mut Vec<u64>,
        want: impl FnOnce(u32) -> bool,
    ) -> Result<Entry<'a>> {
        let ops = abbrev.ops();
        self.spend(ops.len() as u64, bit_offset)?;
        let code = read_scalar(&mut self.bits, ops[0], "record code")?;
        let keep = u32::try_from(code).is_ok_and(want);
        let body_start = self.bits.pos();
        let mut blob = None;
        let mut array_len = 0;
        let mut i = 1;
        while i < ops.len() {
            match ops[i] {
                AbbrevOp::Literal(v) => {
                    if keep {
                        fields.push(v);
                    }
                }
                AbbrevOp::Array if keep => {
                    let elem = ops[i + 1];
                    let count = self.bits.read_vbr(6, "array length")?;
                    if count.saturating_mul(scalar_min_bits(elem)) > self.bits.remaining() {
                        return err(
                            bit_offset,
                            BitcodeErrorKind::Truncated {
                                what: "array elements",
                            },
                        );
                    }
                    self.spend(count, bit_offset)?;
                    array_len = count as u32;
                    // The count was checked against the bits left above.
                    fields.reserve(count as usize);
                    for _ in 0..count {
                        fields.push(read_scalar(&mut self.bits, elem, "array element")?);
                    }
                    i += 1;
                }
                AbbrevOp::Array => {
                    let elem = ops[i + 1];
                    let count = self.bits.read_vbr(6, "array length")?;
                    let min_bits = scalar_min_bits(elem);
                    if count.saturating_mul(min_bits) > self.bits.remaining() {
                        return err(
                            bit_offset,
                            BitcodeErrorKind::Truncated {
                                what: "array elements",
                            },
                        );
                    }
                    self.spend(count, bit_offset)?;
                    array_len = count as u32;
                    match elem {
                        // Fixed-width elements are stepped over at once (the
                        // check above made sure they fit).
                        AbbrevOp::Fixed(_) | AbbrevOp::Char6 => {
                            self.bits.skip(count * min_bits, "array elements")?;
                        }
                        AbbrevOp::Vbr(w) if w > 0 => {
                            self.bits.skip_vbrs(u32::from(w), count, "array element")?;
                        }
                        _ => {
                            for _ in 0..count {
                                read_scalar(&mut self.bits, elem, "array element")?;
                            }
                        }
                    }
                    i += 1;
                }
                AbbrevOp::Blob => {
                    let len = self.bits.read_vbr(6, "blob length")?;
                    self.bits.align32("blob")?;
                    let start = self.bits.pos();
                    if len.saturating_mul(8) > self.bits.remaining() {
                        return err(bit_offset, BitcodeErrorKind::Truncated { what: "blob" });
                    }
                    let byte = (start / 8) as usize;
                    blob = Some(&self.bits.data()[byte..byte + len as usize]);
                    self.bits.seek(start + len * 8, "blob")?;
                    self.bits.align32("blob padding")?;
                }
                op => {
                    let v = read_scalar(&mut self.bits, op, "record field")?;
                    if keep {
                        fields.push(v);
                    }
                }
            }
            i += 1;
        }
        Ok(Entry::Record(Record {
            bit_offset,
            abbrev_id: id,
            code: code_u32(code, bit_offset)?,
            block_id,
            data: self.bits.data(),
            body_start,
            end: self.bits.pos(),
            layout: Layout::Abbreviated(abbrev),
            blob,
            array_len,
        }))
    }
}

fn code_u32(value: u64, bit_offset: u64) -> Result<u32> {
    u32::try_from(value).map_err(|_| BitcodeError {
        bit_offset,
        kind: BitcodeErrorKind::OutOfRange {
            what: "code or block ID",
            value,
        },
    })
}

fn scalar_min_bits(op: AbbrevOp) -> u64 {
    match op {
        AbbrevOp::Fixed(w) | AbbrevOp::Vbr(w) => u64::from(w),
        AbbrevOp::Char6 => 6,
        _ => 0,
    }
}

/// Reads one scalar operand (a literal reads nothing).
#[inline]
fn read_scalar(bits: &mut BitReader<'_>, op: AbbrevOp, what: &'static str) -> Result<u64> {
    match op {
        AbbrevOp::Literal(v) => Ok(v),
        AbbrevOp::Fixed(w) => bits.read(u32::from(w), what),
        AbbrevOp::Vbr(0) => Ok(0),
        AbbrevOp::Vbr(w) => bits.read_vbr(u32::from(w), what),
        AbbrevOp::Char6 => Ok(u64::from(decode_char6(bits.read(6, what)? as u8))),
        AbbrevOp::Array | AbbrevOp::Blob => err(
            bits.pos(),
            BitcodeErrorKind::BadRecord {
                reason: "array or blob where a scalar is expected",
            },
        ),
    }
}

/// The character a char6 value stands for.
pub fn decode_char6(v: u8) -> u8 {
    match v {
        0..=25 => b'a' + v,
        26..=51 => b'A' + (v - 26),
        52..=61 => b'0' + (v - 52),
        62 => b'.',
        _ => b'_',
    }
}

/// The char6 value of a character, if it has one.
pub fn encode_char6(c: u8) -> Option<u8> {
    Some(match c {
        b'a'..=b'z' => c - b'a',
        b'A'..=b'Z' => c - b'A' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'.' => 62,
        b'_' => 63,
        _ => return None,
    })
}

/// How a record's fields are encoded.
#[derive(Debug, Clone)]
pub enum Layout {
    /// UNABBREV_RECORD: code, count and operands, all VBR6.
    Unabbreviated {
        /// Number of operands.
        num_ops: u32,
    },
    /// Encoded with a defined abbreviation.
    Abbreviated(Rc<Abbrev>),
}

/// A record: its code, how it is encoded and where; fields are decoded on
/// demand from the borrowed bytes.
#[derive(Debug, Clone)]
pub struct Record<'a> {
    /// Bit offset of the abbreviation ID.
    pub bit_offset: u64,
    /// Abbreviation ID (3 = unabbreviated).
    pub abbrev_id: u32,
    /// The record code.
    pub code: u32,
    /// The block the record is in.
    pub block_id: u32,
    data: &'a [u8],
    body_start: u64,
    end: u64,
    /// How the fields are encoded.
    pub layout: Layout,
    blob: Option<&'a [u8]>,
    array_len: u32,
}

/// One scalar field of a record: where it is, how it is encoded, its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Bit offset of the field (of the literal's abbreviation for a literal).
    pub bit_offset: u64,
    /// Its encoding (`Vbr(6)` for unabbreviated operands).
    pub encoding: AbbrevOp,
    /// The value (a char6 field gives the character).
    pub value: u64,
}

impl<'a> Record<'a> {
    /// Bit offset just past the record.
    pub fn end_bit(&self) -> u64 {
        self.end
    }

    /// The blob operand, if the abbreviation has one.
    pub fn blob(&self) -> Option<&'a [u8]> {
        self.blob
    }

    /// Number of elements of the array operand (0 without one).
    pub fn array_len(&self) -> u32 {
        self.array_len
    }

    /// The abbreviation, for an abbreviated record.
    pub fn abbrev(&self) -> Option<&Rc<Abbrev>> {
        match &self.layout {
            Layout::Abbreviated(a) => Some(a),
            Layout::Unabbreviated { .. } => None,
        }
    }

    /// The scalar fields after the code in order (literals and array
    /// elements included, the blob excluded), as LLVM's `readRecord` lists them.
    pub fn fields(&self) -> Fields<'a> {
        fields_of(self.data, self.body_start, self.end, &self.layout)
    }

    /// Where the fields lie, without the bytes: what a caller keeps to read
    /// them later with [`FieldSpan::fields`] (module facts keep one per
    /// metadata node and read only the nodes a named node reaches).
    pub fn field_span(&self) -> FieldSpan {
        FieldSpan {
            body_start: self.body_start,
            end: self.end,
            layout: self.layout.clone(),
        }
    }

    /// The values of [`Record::fields`].
    pub fn values(&self) -> impl Iterator<Item = u64> + 'a {
        self.fields().map(|f| f.value)
    }

    /// Appends the values of [`Record::fields`] to `out`, in one tight loop
    /// (what a reader that needs every field calls). The count is bounded by
    /// the record's bits, checked when the record was read.
    pub fn values_into(&self, out: &mut Vec<u64>) {
        let mut bits = BitReader::new(self.data, self.body_start, self.end);
        match &self.layout {
            Layout::Unabbreviated { num_ops } => {
                out.reserve(*num_ops as usize);
                for _ in 0..*num_ops {
                    match bits.read_vbr(6, "record operand") {
                        Ok(v) => out.push(v),
                        Err(_) => return,
                    }
                }
            }
            Layout::Abbreviated(abbrev) => {
                let ops = abbrev.ops();
                let mut i = 1;
                while i < ops.len() {
                    match ops[i] {
                        AbbrevOp::Array => {
                            let Some(&elem) = ops.get(i + 1) else {
                                return;
                            };
                            let Ok(count) = bits.read_vbr(6, "array length") else {
                                return;
                            };
                            out.reserve(self.array_len as usize);
                            for _ in 0..count {
                                match read_scalar(&mut bits, elem, "array element") {
                                    Ok(v) => out.push(v),
                                    Err(_) => return,
                                }
                            }
                            return;
                        }
                        AbbrevOp::Blob => return,
                        op => match read_scalar(&mut bits, op, "record field") {
                            Ok(v) => out.push(v),
                            Err(_) => return,
                        },
                    }
                    i += 1;
                }
            }
        }
    }

    /// The values as bytes (characters of a string record), or `None` if one
    /// does not fit a byte.
    pub fn string_from(&self, skip: usize) -> Option<Vec<u8>> {
        if let Some((width, bits, len, skip)) = self.char_array(skip) {
            return Record::char_array_string(width, bits, len, skip);
        }
        // Unabbreviated (how LLVM writes METADATA_KIND): VBR6 operands,
        // read in one loop.
        if let Layout::Unabbreviated { num_ops } = self.layout {
            let mut bits = BitReader::new(self.data, self.body_start, self.end);
            let mut out = Vec::with_capacity((num_ops as usize).saturating_sub(skip));
            for i in 0..num_ops as usize {
                let value = bits.read_vbr(6, "record operand").ok()?;
                if i >= skip {
                    out.push(u8::try_from(value).ok()?);
                }
            }
            return Some(out);
        }
        // The field count is bounded by the record's bits (checked when it was read).
        let fields = match &self.layout {
            Layout::Unabbreviated { num_ops } => *num_ops as usize,
            Layout::Abbreviated(a) => a.ops().len() + self.array_len as usize,
        };
        let mut out = Vec::with_capacity(fields.saturating_sub(skip));
        for value in self.values().skip(skip) {
            out.push(u8::try_from(value).ok()?);
        }
        Some(out)
    }
}

fn fields_of<'a>(data: &'a [u8], body_start: u64, end: u64, layout: &Layout) -> Fields<'a> {
    let (ops, left) = match layout {
        Layout::Abbreviated(a) => (Some(a.clone()), 0),
        Layout::Unabbreviated { num_ops } => (None, *num_ops),
    };
    Fields {
        bits: BitReader::new(data, body_start, end),
        ops,
        index: 1,
        left,
        in_array: false,
    }
}

/// A record's fields detached from the record ([`Record::field_span`]).
#[derive(Debug, Clone)]
pub struct FieldSpan {
    body_start: u64,
    end: u64,
    layout: Layout,
}

impl FieldSpan {
    /// The fields, read from `data` (the data the record was read from; other
    /// data gives whatever lies at the same bits, never a panic).
    pub fn fields<'a>(&self, data: &'a [u8]) -> Fields<'a> {
        fields_of(data, self.body_start, self.end, &self.layout)
    }
}

impl<'a> Record<'a> {
    /// For a record abbreviated as `[code, scalars…, array of fixed or
    /// char6]` (how LLVM writes strings) whose first `skip` fields cover the
    /// scalars: the element width (0 for char6), a cursor at the first
    /// element, the element count and how many elements `skip` leaves out.
    fn char_array(&self, skip: usize) -> Option<(u32, BitReader<'a>, u64, usize)> {
        let Layout::Abbreviated(a) = &self.layout else {
            return None;
        };
        let [_, scalars @ .., AbbrevOp::Array, elem] = a.ops() else {
            return None;
        };
        let skip_elements = skip.checked_sub(scalars.len())?;
        let width = match *elem {
            AbbrevOp::Fixed(w) => u32::from(w),
            AbbrevOp::Char6 => 0,
            _ => return None,
        };
        let mut bits = BitReader::new(self.data, self.body_start, self.end);
        for op in scalars {
            read_scalar(&mut bits, *op, "record field").ok()?;
        }
        let len = bits.read_vbr(6, "array length").ok()?;
        Some((width, bits, len, skip_elements))
    }

    /// [`Record::string_from`] for a `[code, scalars…, array of fixed or char6]` record.
    fn char_array_string(
        width: u32,
        mut bits: BitReader<'a>,
        len: u64,
        skip: usize,
    ) -> Option<Vec<u8>> {
        let step = if width == 0 { 6 } else { u64::from(width) };
        let skip = (skip as u64).min(len);
        bits.skip(skip * step, "array element").ok()?;
        let count = len - skip;
        // Bytes on byte boundaries are the string itself.
        if width == 8 && bits.pos().is_multiple_of(8) {
            let start = (bits.pos() / 8) as usize;
            let bytes = usize::try_from(count)
                .ok()
                .and_then(|n| bits.data().get(start..start.checked_add(n)?))?;
            bits.skip(count * 8, "array element").ok()?;
            return Some(bytes.to_vec());
        }
        // Bytes off byte boundaries: each character is the high bits of one
        // byte and the low bits of the next (bit 0 of a field is the first
        // bit read). The characters end inside the record, so the byte
        // holding the last character's high bits is in the data.
        if width == 8 && count > 0 {
            let start = (bits.pos() / 8) as usize;
            let shift = (bits.pos() % 8) as u32;
            let n = usize::try_from(count).ok()?;
            let bytes = bits
                .data()
                .get(start..start.checked_add(n)?.checked_add(1)?)?;
            bits.skip(count * 8, "array element").ok()?;
            return Some(
                bytes
                    .windows(2)
                    .map(|w| (w[0] >> shift) | (w[1] << (8 - shift)))
                    .collect(),
            );
        }
        // The count was checked against the record's bits when it was read.
        let mut out = Vec::with_capacity(usize::try_from(count).ok()?);
        let mut left = count;
        // Characters narrower than a byte (char6, 7-bit): as many from one
        // window of bits as it holds.
        if step < 8 {
            let mask = (1u64 << step) - 1;
            while let Some((word, valid)) = bits.window() {
                let n = (valid / step).min(left);
                for k in 0..n {
                    let c = ((word >> (k * step)) & mask) as u8;
                    out.push(if width == 0 { decode_char6(c) } else { c });
                }
                bits.skip(n * step, "array element").ok()?;
                left -= n;
                if n == 0 || left == 0 {
                    break;
                }
            }
        }
        for _ in 0..left {
            let value = if width == 0 {
                u64::from(decode_char6(bits.read(6, "array element").ok()? as u8))
            } else {
                bits.read(width, "array element").ok()?
            };
            out.push(u8::try_from(value).ok()?);
        }
        Some(out)
    }
}

/// Iterator over a record's fields ([`Record::fields`]).
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    bits: BitReader<'a>,
    ops: Option<Rc<Abbrev>>,
    index: usize,
    left: u32,
    in_array: bool,
}

impl Iterator for Fields<'_> {
    type Item = Field;

    fn next(&mut self) -> Option<Field> {
        let Some(abbrev) = &self.ops else {
            if self.left == 0 {
                return None;
            }
            self.left -= 1;
            let bit_offset = self.bits.pos();
            let value = self.bits.read_vbr(6, "record operand").ok()?;
            return Some(Field {
                bit_offset,
                encoding: AbbrevOp::Vbr(6),
                value,
            });
        };
        let ops = abbrev.ops();
        loop {
            if self.in_array {
                if self.left == 0 {
                    return None;
                }
                self.left -= 1;
                let encoding = *ops.get(self.index + 1)?;
                let bit_offset = self.bits.pos();
                let value = read_scalar(&mut self.bits, encoding, "array element").ok()?;
                return Some(Field {
                    bit_offset,
                    encoding,
                    value,
                });
            }
            let op = *ops.get(self.index)?;
            match op {
                AbbrevOp::Array => {
                    self.left = self.bits.read_vbr(6, "array length").ok()? as u32;
                    self.in_array = true;
                }
                AbbrevOp::Blob => return None,
                _ => {
                    self.index += 1;
                    let bit_offset = self.bits.pos();
                    let value = read_scalar(&mut self.bits, op, "record field").ok()?;
                    return Some(Field {
                        bit_offset,
                        encoding: op,
                        value,
                    });
                }
            }
        }
    }
}
