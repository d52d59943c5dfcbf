//! Structure-aware bitcode for the `dxil_bitcode` fuzz target: fuzz bytes
//! read as a program of bitstream operations (enter and end blocks, define
//! abbreviations in a block or in BLOCKINFO, write unabbreviated and
//! abbreviated records, metadata nodes, repeat the last record), written
//! as well-formed LLVM bitcode inside a MODULE block. Mutations then reach
//! the records, abbreviations and metadata the module reader interprets,
//! instead of dying in the bitstream's framing; repeats and abbreviation
//! reuse are the shapes that expand when they are read.

use crate::attacks::Emit;
use dxcopy_read::bitcode::AbbrevOp;

/// Block IDs the operations enter: BLOCKINFO, PARAMATTR, PARAMATTR_GROUP,
/// CONSTANTS, FUNCTION, VALUE_SYMTAB, METADATA, METADATA_ATTACHMENT,
/// TYPE_NEW, USELIST, METADATA_KIND.
const BLOCKS: [u32; 11] = [0, 9, 10, 11, 12, 14, 15, 16, 17, 18, 22];
/// Deepest nesting of blocks the operations open.
const MAX_OPEN: usize = 8;

/// A record as written, to write again.
#[derive(Clone)]
enum Written {
    Unabbreviated(u32, Vec<u64>),
    Abbreviated(u64, Vec<AbbrevOp>, Vec<u64>, Vec<u8>),
}

struct Scope {
    block: u32,
    width: u32,
    abbrevs: Vec<Vec<AbbrevOp>>,
}

struct Ops<'a> {
    input: &'a [u8],
    at: usize,
}

impl Ops<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.input.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn value(&mut self) -> u64 {
        // Mostly small values; a high bit asks for a wider one.
        let b = self.byte();
        if b & 0x80 == 0 {
            u64::from(b)
        } else {
            u64::from(b & 0x7f) | u64::from(self.byte()) << 7 | u64::from(self.byte()) << 15
        }
    }

    fn done(&self) -> bool {
        self.at >= self.input.len()
    }
}

/// Bitcode made from `input` read as operations (see the module docs).
/// Every input gives a stream the bitstream reader can walk; what the
/// module reader makes of it is the test.
pub fn bitcode_from_ops(input: &[u8]) -> Vec<u8> {
    let mut ops = Ops { input, at: 0 };
    let mut e = Emit::new();
    let mut blockinfo: Vec<(u32, Vec<Vec<AbbrevOp>>)> = Vec::new();
    let mut target: Option<u32> = None;
    let mut last: Option<Written> = None;
    e.enter(8);
    e.rec(1, &[1]);
    let mut scopes = vec![Scope {
        block: 8,
        width: 4,
        abbrevs: Vec::new(),
    }];
    while !ops.done() {
        let scope = scopes.len() - 1;
        match ops.byte() % 8 {
            0 if scopes.len() < MAX_OPEN => {
                let block = BLOCKS[usize::from(ops.byte()) % BLOCKS.len()];
                let width = 3 + u32::from(ops.byte() % 5);
                e.enter_with(block, width);
                let abbrevs = blockinfo
                    .iter()
                    .find(|(id, _)| *id == block)
                    .map(|(_, a)| a.clone())
                    .unwrap_or_default();
                scopes.push(Scope {
                    block,
                    width,
                    abbrevs,
                });
                if block == 0 {
                    target = None;
                }
            }
            1 if scopes.len() > 1 => {
                e.end();
                scopes.pop();
            }
            2 => {
                let abbrev = abbrev(&mut ops);
                if scopes[scope].block == 0 {
                    let id = BLOCKS[usize::from(ops.byte()) % BLOCKS.len()];
                    if target != Some(id) {
                        e.rec(1, &[u64::from(id)]);
                        target = Some(id);
                    }
                    e.define_abbrev(&abbrev);
                    match blockinfo.iter_mut().find(|(b, _)| *b == id) {
                        Some((_, list)) => list.push(abbrev),
                        None => blockinfo.push((id, vec![abbrev])),
                    }
                } else {
                    e.define_abbrev(&abbrev);
                    scopes[scope].abbrevs.push(abbrev);
                }
            }
            3 if scopes[scope].block != 0 => {
                let code = u32::from(ops.byte() % 40);
                let n = usize::from(ops.byte() % 16);
                let values: Vec<u64> = (0..n).map(|_| ops.value()).collect();
                e.rec(code, &values);
                last = Some(Written::Unabbreviated(code, values));
            }
            4 if scopes[scope].block != 0 && !scopes[scope].abbrevs.is_empty() => {
                let s = &scopes[scope];
                let index = usize::from(ops.byte()) % s.abbrevs.len();
                let id = 4 + index as u64;
                if id >= 1 << s.width {
                    continue;
                }
                let abbrev = s.abbrevs[index].clone();
                let (values, blob) = fields(&mut ops, &abbrev);
                let record = Written::Abbreviated(id, abbrev, values, blob);
                write(&mut e, &record);
                last = Some(record);
            }
            5 => {
                // The last record again, many times: a small input that
                // reads as many records.
                if let Some(record) = &last {
                    let times = usize::from(ops.byte()) * 8;
                    for _ in 0..times {
                        write(&mut e, record);
                    }
                }
            }
            6 if scopes[scope].block != 0 => {
                // A metadata node of earlier IDs (METADATA_NODE, ID + 1).
                let n = usize::from(ops.byte() % 32);
                let values: Vec<u64> = (0..n).map(|_| u64::from(ops.byte())).collect();
                e.rec(3, &values);
                last = Some(Written::Unabbreviated(3, values));
            }
            7 if scopes[scope].block != 0 => {
                // A string (METADATA_STRING_OLD) or a name record.
                let code = if ops.byte() & 1 == 0 { 1 } else { 4 };
                let n = usize::from(ops.byte() % 16);
                let values: Vec<u64> = (0..n).map(|_| u64::from(b'a' + ops.byte() % 26)).collect();
                e.rec(code, &values);
                last = Some(Written::Unabbreviated(code, values));
            }
            _ => {}
        }
    }
    while scopes.pop().is_some() {
        e.end();
    }
    e.finish()
}

/// An abbreviation: up to 8 scalars or literals after a literal or scalar
/// record code, maybe ending in an array or a blob.
fn abbrev(ops: &mut Ops<'_>) -> Vec<AbbrevOp> {
    let mut out = vec![AbbrevOp::Literal(u64::from(ops.byte() % 40))];
    let count = ops.byte() % 9;
    for _ in 0..count {
        out.push(scalar(ops, true));
    }
    match ops.byte() % 4 {
        0 => {
            out.push(AbbrevOp::Array);
            out.push(scalar(ops, false));
        }
        1 => out.push(AbbrevOp::Blob),
        _ => {}
    }
    out
}

fn scalar(ops: &mut Ops<'_>, literal: bool) -> AbbrevOp {
    match ops.byte() % 4 {
        0 if literal => AbbrevOp::Literal(u64::from(ops.byte())),
        1 => AbbrevOp::Vbr(2 + ops.byte() % 7),
        2 => AbbrevOp::Char6,
        _ => AbbrevOp::Fixed(1 + ops.byte() % 16),
    }
}

/// Values for `abbrev`'s operands after the code (literals included, as
/// the reader lists them) and its blob.
fn fields(ops: &mut Ops<'_>, abbrev: &[AbbrevOp]) -> (Vec<u64>, Vec<u8>) {
    let mut values = Vec::new();
    let mut blob = Vec::new();
    let mut i = 1;
    while i < abbrev.len() {
        match abbrev[i] {
            AbbrevOp::Literal(v) => values.push(v),
            AbbrevOp::Array => {
                let n = usize::from(ops.byte() % 32);
                for _ in 0..n {
                    values.push(fit(abbrev[i + 1], ops.value()));
                }
                values.push(n as u64 | 1 << 63);
                i += 1;
            }
            AbbrevOp::Blob => blob = (0..ops.byte() % 16).map(|_| ops.byte()).collect(),
            op => values.push(fit(op, ops.value())),
        }
        i += 1;
    }
    (values, blob)
}

/// `value` cut to what `op` can hold.
fn fit(op: AbbrevOp, value: u64) -> u64 {
    match op {
        AbbrevOp::Fixed(w) if w < 64 => value & ((1 << w) - 1),
        AbbrevOp::Char6 => value % 64,
        _ => value,
    }
}

fn write(e: &mut Emit, record: &Written) {
    match record {
        Written::Unabbreviated(code, values) => {
            e.rec(*code, values);
        }
        Written::Abbreviated(id, abbrev, values, blob) => {
            e.abbreviated(*id);
            let mut values = values.iter();
            let mut i = 1;
            while i < abbrev.len() {
                match abbrev[i] {
                    AbbrevOp::Literal(_) => {
                        values.next();
                    }
                    AbbrevOp::Array => {
                        // The elements, then their count marked by bit 63.
                        let elements: Vec<u64> = values
                            .by_ref()
                            .take_while(|v| **v >> 63 == 0)
                            .copied()
                            .collect();
                        e.vbr(elements.len() as u64, 6);
                        for v in elements {
                            scalar_field(e, abbrev[i + 1], v);
                        }
                        i += 1;
                    }
                    AbbrevOp::Blob => {
                        e.blob(blob);
                    }
                    op => scalar_field(e, op, values.next().copied().unwrap_or(0)),
                }
                i += 1;
            }
        }
    }
}

fn scalar_field(e: &mut Emit, op: AbbrevOp, value: u64) {
    match op {
        AbbrevOp::Fixed(w) => e.fixed(value, u32::from(w)),
        AbbrevOp::Vbr(w) => e.vbr(value, u32::from(w)),
        AbbrevOp::Char6 => e.fixed(value % 64, 6),
        _ => {}
    }
}

/// Operation programs that build the attacks' shapes, to seed the target.
pub fn seeds() -> Vec<Vec<u8>> {
    vec![
        // METADATA: an abbreviation of 8 literals, one record, repeated.
        vec![
            0, 6, 1, 2, 3, 8, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 2, 4, 0, 5, 255, 5,
            255,
        ],
        // BLOCKINFO abbreviations for METADATA, then many METADATA blocks.
        vec![
            0, 0, 1, 2, 3, 2, 1, 2, 6, 2, 3, 2, 1, 2, 6, 1, 0, 6, 1, 1, 0, 6, 1, 1, 0, 6, 1, 1,
        ],
        // METADATA: strings and nodes referring to them, repeated.
        vec![
            0, 6, 1, 7, 0, 3, 7, 6, 8, 1, 1, 1, 1, 1, 1, 1, 1, 5, 200, 6, 4, 2, 2, 2, 2,
        ],
        // CONSTANTS: integer records and casts of earlier values.
        vec![0, 3, 1, 3, 1, 1, 0, 3, 4, 1, 2, 3, 11, 3, 11, 0, 1, 5, 100],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxcopy_read::bitcode::Bitcode;

    #[test]
    fn every_program_gives_a_stream_that_walks_to_its_end() {
        let mut programs = seeds();
        programs.push(Vec::new());
        programs.push((0..=255).collect());
        programs.push((0..4096u32).map(|i| (i * 7919 % 251) as u8).collect());
        for program in programs {
            let bitcode = bitcode_from_ops(&program);
            let mut reader = Bitcode::parse(&bitcode).unwrap().reader();
            let mut entries = 0;
            loop {
                match reader.next_entry() {
                    Ok(Some(_)) => entries += 1,
                    Ok(None) => break,
                    // The budget may stop a program that repeats a record
                    // of literals many times; nothing else may.
                    Err(e) => {
                        assert!(
                            matches!(
                                e.kind,
                                dxcopy_read::bitcode::BitcodeErrorKind::OverBudget(_)
                            ),
                            "{program:?}: {e}"
                        );
                        break;
                    }
                }
            }
            assert!(entries >= 3, "{program:?}");
        }
    }

    #[test]
    fn a_repeated_record_reads_back_with_its_fields() {
        // METADATA, an abbreviation [code 3, literal 7, fixed(4)], one
        // record of it with 5, repeated 8 times.
        let program = [0, 6, 1, 2, 3, 2, 0, 7, 3, 3, 3, 4, 0, 5, 5, 1];
        let bitcode = bitcode_from_ops(&program);
        let mut reader = Bitcode::parse(&bitcode).unwrap().reader();
        let mut records = Vec::new();
        while let Some(entry) = reader.next_entry().unwrap() {
            if let dxcopy_read::bitcode::Entry::Record(r) = entry {
                if r.block_id == 15 {
                    records.push((r.code, r.values().collect::<Vec<_>>()));
                }
            }
        }
        assert_eq!(records, vec![(3, vec![7, 5]); 9]);
    }
}
