//! Re-emitting a read bitstream, record by record, with edits: every block,
//! abbreviation definition and record is written again through
//! [`StreamWriter`], so block length words follow any change. A stream read
//! and written with no edits gives back the same bytes.

use super::writer::{StreamWriter, WriteError};
use dxcopy_read::bitcode::{Bitcode, BitcodeError, Entry, Record};

/// An error while re-emitting bitcode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RewriteError {
    /// The input does not read.
    #[error(transparent)]
    Read(#[from] BitcodeError),
    /// An edited record cannot be written.
    #[error("at bit {bit_offset}: {source}")]
    Write {
        /// Bit offset of the input record.
        bit_offset: u64,
        /// Why.
        source: WriteError,
    },
    /// The edited bitcode is larger than a u32 size field can hold.
    #[error("the rewritten bitcode is too large for the wrapper header")]
    TooLarge,
}

/// A record to write instead of the one read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRecord {
    /// Abbreviation ID (3 for unabbreviated; an abbreviated ID must fit the values).
    pub abbrev_id: u32,
    /// Record code.
    pub code: u32,
    /// Scalar values after the code.
    pub values: Vec<u64>,
    /// Blob, for an abbreviation that ends in one.
    pub blob: Option<Vec<u8>>,
}

/// What to do with a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordEdit {
    /// Write it again as read.
    Keep,
    /// Leave it out.
    Drop,
    /// Write this record instead.
    Replace(NewRecord),
}

/// Reads `data` (LLVM bitcode, wrapper header allowed) and writes it again,
/// asking `edit` about each record (with the IDs of the open blocks,
/// outermost first). Bytes before and after the stream are kept; a wrapper
/// header gets the new size.
pub fn rewrite(
    data: &[u8],
    mut edit: impl FnMut(&[u32], &Record<'_>) -> RecordEdit,
) -> Result<Vec<u8>, RewriteError> {
    let bitcode = Bitcode::parse(data)?;
    let mut reader = bitcode.reader();
    let mut writer = StreamWriter::new();
    let mut path: Vec<u32> = Vec::new();
    let mut values: Vec<u64> = Vec::new();
    while let Some(entry) = reader.next_entry()? {
        let fail = |bit_offset: u64| move |source| RewriteError::Write { bit_offset, source };
        match entry {
            Entry::EnterBlock(h) => {
                writer.enter_block(h.block_id, h.abbrev_width);
                path.push(h.block_id);
            }
            Entry::EndBlock { bit_offset, .. } => {
                writer.end_block().map_err(fail(bit_offset))?;
                path.pop();
            }
            Entry::DefineAbbrev { bit_offset, abbrev } => {
                writer.define_abbrev(abbrev).map_err(fail(bit_offset))?;
            }
            Entry::Record(record) => match edit(&path, &record) {
                RecordEdit::Keep => {
                    values.clear();
                    values.extend(record.values());
                    writer
                        .record(record.abbrev_id, record.code, &values, record.blob())
                        .map_err(fail(record.bit_offset))?;
                }
                RecordEdit::Drop => {}
                RecordEdit::Replace(new) => writer
                    .record(new.abbrev_id, new.code, &new.values, new.blob.as_deref())
                    .map_err(fail(record.bit_offset))?,
            },
        }
    }
    let stream = writer.finish().map_err(|source| RewriteError::Write {
        bit_offset: reader.pos(),
        source,
    })?;
    let mut out = Vec::with_capacity(data.len());
    out.extend_from_slice(&data[..bitcode.stream_start]);
    if bitcode.wrapper.is_some() {
        let size = u32::try_from(stream.len()).map_err(|_| RewriteError::TooLarge)?;
        if let Some(field) = out.get_mut(12..16) {
            field.copy_from_slice(&size.to_le_bytes());
        }
    }
    out.extend_from_slice(&stream);
    out.extend_from_slice(&data[bitcode.stream_end..]);
    Ok(out)
}
