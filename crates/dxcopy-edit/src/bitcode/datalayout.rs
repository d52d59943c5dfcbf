//! The data layout fix for `--dump-bitcode`: dxc writes `i8:32` in its data
//! layout and LLVM 17+ rejects any i8 ABI alignment but 8 ("i8 must be 8-bit
//! aligned"). The fix rewrites the alignment to `08` — the same length, and
//! the same number of bits in every encoding a DATALAYOUT record can use
//! (char6, fixed 8-bit, VBR6: `'3'`/`'0'` and `'2'`/`'8'` take two VBR6
//! chunks each). The record is found by walking the bitstream to the MODULE
//! block's DATALAYOUT record, never by searching bytes; when its encoding
//! cannot hold the new characters in the same bits (a literal operand, a
//! blob, a non-canonical VBR), the stream is re-emitted with an
//! unabbreviated DATALAYOUT record and recomputed block lengths.

use super::rewrite::{rewrite, NewRecord, RecordEdit, RewriteError};
use super::writer::{check_scalar, put_bits, BitWriter};
use dxcopy_read::bitcode::bits::{vbr_len, BitReader};
use dxcopy_read::bitcode::codes::{block, module};
use dxcopy_read::bitcode::{abbrev_id, encode_char6, AbbrevOp, Bitcode, Entry, Field};
use std::borrow::Cow;

/// The layout with every i8 ABI alignment other than 8 replaced by 8,
/// zero-padded to the same number of digits (`i8:32` → `i8:08`), or `None`
/// when nothing needs to change.
pub fn fixed_layout(layout: &str) -> Option<String> {
    let mut changed = false;
    let specs: Vec<String> = layout
        .split('-')
        .map(|spec| {
            let mut parts: Vec<String> = spec.split(':').map(str::to_string).collect();
            if parts.len() >= 2 && parts[0] == "i8" {
                let abi = &parts[1];
                let digits = abi.len();
                let is_eight = abi.parse::<u64>().ok() == Some(8);
                if !is_eight && digits > 0 && abi.bytes().all(|b| b.is_ascii_digit()) {
                    parts[1] = format!("{:0>digits$}", "8");
                    changed = true;
                }
            }
            parts.join(":")
        })
        .collect();
    changed.then(|| specs.join("-"))
}

/// The result of [`fix_data_layout`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutFix<'a> {
    /// The bitcode to write (borrowed when nothing changed).
    pub bytes: Cow<'a, [u8]>,
    /// The data layout found, if any.
    pub old_layout: Option<String>,
    /// The layout written, when it changed.
    pub new_layout: Option<String>,
    /// Whether the change was a same-length patch of the record's bits
    /// (otherwise the stream was re-emitted).
    pub in_place: bool,
}

/// Rewrites the module's data layout so that LLVM 17+ reads the bitcode;
/// nothing else changes.
pub fn fix_data_layout(data: &[u8]) -> Result<LayoutFix<'_>, RewriteError> {
    let bitcode = Bitcode::parse(data)?;
    let mut reader = bitcode.reader();
    let mut found = None;
    while let Some(entry) = reader.next_entry()? {
        match entry {
            Entry::EnterBlock(h) if reader.depth() == 1 && h.block_id == block::MODULE => {}
            Entry::EnterBlock(_) => reader.skip_block()?,
            Entry::Record(r) if r.block_id == block::MODULE && r.code == module::DATALAYOUT => {
                found = Some(r);
                break;
            }
            Entry::EndBlock { block_id, .. } if block_id == block::MODULE => break,
            _ => {}
        }
    }
    let unchanged = |old_layout| LayoutFix {
        bytes: Cow::Borrowed(data),
        old_layout,
        new_layout: None,
        in_place: true,
    };
    let Some(record) = found else {
        return Ok(unchanged(None));
    };
    let mut chars: Vec<u64> = record.values().collect();
    chars.extend(
        record
            .blob()
            .unwrap_or_default()
            .iter()
            .map(|b| u64::from(*b)),
    );
    let old: String = chars
        .iter()
        .map(|c| char::from(u8::try_from(*c).unwrap_or(b'?')))
        .collect();
    let Some(new) = fixed_layout(&old) else {
        return Ok(unchanged(Some(old)));
    };
    let fields: Vec<Field> = record.fields().collect();
    if record.blob().is_none() {
        if let Some(bytes) = patch_in_place(data, &fields, new.as_bytes()) {
            return Ok(LayoutFix {
                bytes: Cow::Owned(bytes),
                old_layout: Some(old),
                new_layout: Some(new),
                in_place: true,
            });
        }
    }
    let target = record.bit_offset;
    let values: Vec<u64> = new.bytes().map(u64::from).collect();
    let bytes = rewrite(data, |_, r| {
        if r.bit_offset == target {
            RecordEdit::Replace(NewRecord {
                abbrev_id: abbrev_id::UNABBREV_RECORD,
                code: module::DATALAYOUT,
                values: values.clone(),
                blob: None,
            })
        } else {
            RecordEdit::Keep
        }
    })?;
    Ok(LayoutFix {
        bytes: Cow::Owned(bytes),
        old_layout: Some(old),
        new_layout: Some(new),
        in_place: false,
    })
}

/// Writes the new characters over the old fields when every changed field's
/// encoding holds the new character in exactly the same bits.
fn patch_in_place(data: &[u8], fields: &[Field], new: &[u8]) -> Option<Vec<u8>> {
    if fields.len() != new.len() {
        return None;
    }
    let mut patches = Vec::new();
    for (field, &c) in fields.iter().zip(new) {
        let c = u64::from(c);
        if field.value == c {
            continue;
        }
        match field.encoding {
            AbbrevOp::Fixed(w) => {
                check_scalar(field.encoding, c).ok()?;
                patches.push((field.bit_offset, c, u32::from(w)));
            }
            AbbrevOp::Char6 => {
                let v = encode_char6(c as u8)?;
                patches.push((field.bit_offset, u64::from(v), 6));
            }
            AbbrevOp::Vbr(w) if w >= 2 => {
                let w = u32::from(w);
                let mut r = BitReader::new(data, field.bit_offset, data.len() as u64 * 8);
                r.read_vbr(w, "data layout").ok()?;
                let old_len = r.pos() - field.bit_offset;
                if vbr_len(c, w) != old_len {
                    return None;
                }
                let mut chunks = BitWriter::new();
                chunks.emit_vbr(c, w);
                let bits = chunks.bit_len() as u32;
                let mut value = 0u64;
                for (i, b) in chunks.into_bytes().iter().enumerate() {
                    value |= u64::from(*b) << (8 * i);
                }
                patches.push((field.bit_offset, value, bits));
            }
            _ => return None,
        }
    }
    let mut out = data.to_vec();
    for (pos, value, width) in patches {
        put_bits(&mut out, pos, value, width);
    }
    Some(out)
}
