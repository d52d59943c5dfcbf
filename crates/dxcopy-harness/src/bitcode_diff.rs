//! Two bitstreams walked side by side with the bitstream reader: the first
//! entry (block, abbreviation definition, record) that differs, with the
//! path of open blocks, the entry's index and both bit offsets, so that a
//! writer can be compared with the bytes it should reproduce.

use dxcopy_read::bitcode::{Bitcode, Entry};

/// One entry, in a form that compares what is written (not where).
fn describe(entry: &Entry<'_>) -> (u64, String) {
    match entry {
        Entry::EnterBlock(h) => (
            h.bit_offset,
            format!("ENTER block {} width {}", h.block_id, h.abbrev_width),
        ),
        Entry::EndBlock {
            bit_offset,
            block_id,
        } => (*bit_offset, format!("END block {block_id}")),
        Entry::DefineAbbrev { bit_offset, abbrev } => {
            (*bit_offset, format!("DEFINE_ABBREV {:?}", abbrev.ops()))
        }
        Entry::Record(r) => {
            let values: Vec<u64> = r.values().collect();
            let shown = if values.len() > 24 {
                format!("{:?}… ({} values)", &values[..24], values.len())
            } else {
                format!("{values:?}")
            };
            (
                r.bit_offset,
                format!(
                    "record code {} abbrev {} {shown} blob {:?}",
                    r.code,
                    r.abbrev_id,
                    r.blob().map(<[u8]>::len)
                ),
            )
        }
    }
}

/// The first difference between bitstreams `ours` and `want` (a wrapper
/// header allowed), or `None` when they hold the same entries and bytes.
pub fn first_bitstream_difference(ours: &[u8], want: &[u8]) -> Option<String> {
    let (a, b) = match (Bitcode::parse(ours), Bitcode::parse(want)) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            return Some(format!(
                "a stream does not read: ours {:?}, want {:?}",
                a.err(),
                b.err()
            ))
        }
    };
    let (mut ra, mut rb) = (a.reader(), b.reader());
    let mut path: Vec<u32> = Vec::new();
    let mut index = 0usize;
    loop {
        let (ea, eb) = (ra.next_entry(), rb.next_entry());
        let (ea, eb) = match (ea, eb) {
            (Ok(ea), Ok(eb)) => (ea, eb),
            (ea, eb) => {
                return Some(format!(
                    "entry {index} in {path:?}: read error: ours {:?}, want {:?}",
                    ea.err(),
                    eb.err()
                ))
            }
        };
        match (ea, eb) {
            (None, None) => break,
            (Some(ea), Some(eb)) => {
                let (oa, da) = describe(&ea);
                let (ob, db) = describe(&eb);
                if da != db {
                    return Some(format!(
                        "entry {index} in blocks {path:?}:\n  ours (bit {oa}): {da}\n  want (bit {ob}): {db}"
                    ));
                }
                match ea {
                    Entry::EnterBlock(h) => path.push(h.block_id),
                    Entry::EndBlock { .. } => {
                        path.pop();
                    }
                    _ => {}
                }
            }
            (ea, eb) => {
                return Some(format!(
                    "entry {index} in {path:?}: one stream ends: ours {:?}, want {:?}",
                    ea.map(|e| describe(&e).1),
                    eb.map(|e| describe(&e).1)
                ))
            }
        }
        index += 1;
    }
    (ours != want).then(|| {
        let at = ours
            .iter()
            .zip(want)
            .position(|(x, y)| x != y)
            .unwrap_or(ours.len().min(want.len()));
        format!(
            "same entries, different bytes from byte {at} (lengths {} and {})",
            ours.len(),
            want.len()
        )
    })
}
