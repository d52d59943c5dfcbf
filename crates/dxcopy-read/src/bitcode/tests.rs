//! Reader tests over streams built bit by bit here.

use super::reader::MAX_DEPTH;
use super::*;
use crate::dxil::facts::ModuleFacts;

/// Packs fields least significant bit first.
#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    len: u64,
}

impl Bits {
    fn new() -> Bits {
        let mut b = Bits::default();
        for byte in [0x42, 0x43, 0xc0, 0xde] {
            b.fixed(byte, 8);
        }
        b
    }
    fn fixed(&mut self, value: u64, width: u32) -> &mut Self {
        for i in 0..width {
            if self.len.is_multiple_of(8) {
                self.bytes.push(0);
            }
            if (value >> i) & 1 == 1 {
                let last = self.bytes.len() - 1;
                self.bytes[last] |= 1 << (self.len % 8);
            }
            self.len += 1;
        }
        self
    }
    fn vbr(&mut self, mut value: u64, width: u32) -> &mut Self {
        let limit = 1u64 << (width - 1);
        while value >= limit {
            self.fixed((value & (limit - 1)) | limit, width);
            value >>= width - 1;
        }
        self.fixed(value, width)
    }
    fn align(&mut self) -> &mut Self {
        while !self.len.is_multiple_of(32) {
            self.fixed(0, 1);
        }
        self
    }
    /// ENTER_SUBBLOCK with outer abbreviation width `outer`; returns the
    /// byte offset of the length word.
    fn enter(&mut self, outer: u32, id: u64, width: u64) -> usize {
        self.fixed(1, outer).vbr(id, 8).vbr(width, 4).align();
        let at = (self.len / 8) as usize;
        self.fixed(0, 32);
        at
    }
    fn end(&mut self, width: u32, length_at: usize) -> &mut Self {
        self.fixed(0, width).align();
        let words = ((self.len / 8) as usize - length_at - 4) / 4;
        self.bytes[length_at..length_at + 4].copy_from_slice(&(words as u32).to_le_bytes());
        self
    }
}

/// A module block (width 4) with: an abbreviation [literal 7, fixed 3,
/// vbr 6, array of char6]; a record using it; an unabbreviated record; a
/// blob abbreviation and a record using it.
fn sample() -> Vec<u8> {
    let mut b = Bits::new();
    let at = b.enter(2, 8, 4);
    // DEFINE_ABBREV (id 4): 4 ops.
    b.fixed(2, 4).vbr(4, 5);
    b.fixed(1, 1).vbr(7, 8); // literal 7 (the code)
    b.fixed(0, 1).fixed(1, 3).vbr(3, 5); // fixed(3)
    b.fixed(0, 1).fixed(3, 3); // array
    b.fixed(0, 1).fixed(4, 3); // char6
                               // Record with abbrev 4: fixed 5, array "a.Z9".
    b.fixed(4, 4).fixed(5, 3).vbr(4, 6);
    for c in [0u64, 62, 51, 61] {
        b.fixed(c, 6);
    }
    // Unabbreviated record code 3 with ops 1000, 2.
    b.fixed(3, 4).vbr(3, 6).vbr(2, 6).vbr(1000, 6).vbr(2, 6);
    // DEFINE_ABBREV (id 5): [fixed(8) code, blob].
    b.fixed(2, 4).vbr(2, 5);
    b.fixed(0, 1).fixed(1, 3).vbr(8, 5);
    b.fixed(0, 1).fixed(5, 3);
    b.fixed(5, 4).fixed(9, 8).vbr(3, 6).align();
    for byte in b"xyz" {
        b.fixed(u64::from(*byte), 8);
    }
    b.align();
    b.end(4, at);
    b.bytes
}

fn entries(data: &[u8]) -> Result<Vec<String>, BitcodeError> {
    let bitcode = Bitcode::parse(data)?;
    let mut reader = bitcode.reader();
    let mut out = Vec::new();
    while let Some(e) = reader.next_entry()? {
        out.push(match e {
            Entry::EnterBlock(h) => format!(
                "enter {} w{} len{}",
                h.block_id, h.abbrev_width, h.length_words
            ),
            Entry::EndBlock { block_id, .. } => format!("end {block_id}"),
            Entry::DefineAbbrev { abbrev, .. } => format!("abbrev {:?}", abbrev.ops()),
            Entry::Record(r) => format!(
                "record {} id{} {:?} blob {:?}",
                r.code,
                r.abbrev_id,
                r.values().collect::<Vec<_>>(),
                r.blob()
            ),
        });
    }
    Ok(out)
}

#[test]
fn every_operand_encoding_decodes() {
    let got = entries(&sample()).unwrap();
    assert_eq!(got[0], "enter 8 w4 len7");
    assert_eq!(got[1], "abbrev [Literal(7), Fixed(3), Array, Char6]");
    assert_eq!(got[2], "record 7 id4 [5, 97, 46, 90, 57] blob None");
    assert_eq!(got[3], "record 3 id3 [1000, 2] blob None");
    assert_eq!(got[5], "record 9 id5 [] blob Some([120, 121, 122])");
    assert_eq!(got[6], "end 8");
    assert_eq!(got.len(), 7);
}

#[test]
fn fields_report_their_bit_offsets_and_encodings() {
    let data = sample();
    let bitcode = Bitcode::parse(&data).unwrap();
    let mut reader = bitcode.reader();
    reader.next_entry().unwrap();
    reader.next_entry().unwrap();
    let Some(Entry::Record(r)) = reader.next_entry().unwrap() else {
        panic!("a record")
    };
    let fields: Vec<Field> = r.fields().collect();
    assert_eq!(fields[0].encoding, AbbrevOp::Fixed(3));
    assert_eq!(fields[0].bit_offset, r.bit_offset + 4);
    assert_eq!(fields[1].encoding, AbbrevOp::Char6);
    // fixed(3), then the VBR6 array length, then the first element.
    assert_eq!(fields[1].bit_offset, r.bit_offset + 4 + 3 + 6);
    assert_eq!(r.string_from(1).unwrap(), b"a.Z9");
}

#[test]
fn blockinfo_abbreviations_apply_to_later_blocks() {
    let mut b = Bits::new();
    let info = b.enter(2, 0, 2);
    b.fixed(3, 2).vbr(1, 6).vbr(1, 6).vbr(8, 6); // SETBID 8
    b.fixed(2, 2).vbr(2, 5); // DEFINE_ABBREV [literal 4, vbr 6]
    b.fixed(1, 1).vbr(4, 8);
    b.fixed(0, 1).fixed(2, 3).vbr(6, 5);
    b.end(2, info);
    let module = b.enter(2, 8, 3);
    b.fixed(4, 3).vbr(77, 6);
    b.end(3, module);
    let got = entries(&b.bytes).unwrap();
    assert_eq!(got[5], "record 4 id4 [77] blob None");
}

#[test]
fn every_truncation_is_a_typed_error() {
    let data = sample();
    // The magic alone is an empty stream; every longer prefix cuts a block.
    assert_eq!(entries(&data[..4]).unwrap(), Vec::<String>::new());
    assert!(entries(&data[..0]).is_err());
    for len in (8..data.len()).step_by(4) {
        match entries(&data[..len]) {
            Err(_) => {}
            Ok(got) => panic!("prefix of {len} bytes read as {got:?}"),
        }
    }
    let e = entries(&data[..10]).unwrap_err();
    assert!(
        matches!(e.kind, BitcodeErrorKind::UnalignedLength { .. }),
        "{e}"
    );
    let e = entries(&data[..8]).unwrap_err();
    assert!(matches!(e.kind, BitcodeErrorKind::Truncated { .. }), "{e}");
    // The length word after the aligned ENTER_SUBBLOCK header is missing.
    assert_eq!(e.bit_offset, 64);
}

#[test]
fn bad_lengths_ids_and_abbreviations_are_typed_errors() {
    // A length word one word too long.
    let mut data = sample();
    data[8] += 1;
    data.extend_from_slice(&[0; 4]);
    let e = entries(&data).unwrap_err();
    assert!(
        matches!(
            e.kind,
            BitcodeErrorKind::BlockLengthMismatch { block_id: 8, .. }
        ),
        "{e}"
    );
    // An abbreviation ID never defined.
    let mut b = Bits::new();
    let at = b.enter(2, 8, 4);
    b.fixed(9, 4);
    b.end(4, at);
    let e = entries(&b.bytes).unwrap_err();
    assert_eq!(
        e.kind,
        BitcodeErrorKind::UnknownAbbrev { id: 9, block_id: 8 }
    );
    // An array that is not second to last.
    let mut b = Bits::new();
    let at = b.enter(2, 8, 4);
    b.fixed(2, 4)
        .vbr(2, 5)
        .fixed(0, 1)
        .fixed(3, 3)
        .fixed(0, 1)
        .fixed(5, 3);
    b.end(4, at);
    let e = entries(&b.bytes).unwrap_err();
    assert!(matches!(e.kind, BitcodeErrorKind::BadAbbrev { .. }), "{e}");
    // Something other than a block at the top level.
    let mut b = Bits::new();
    b.fixed(3, 2).align();
    let e = entries(&b.bytes).unwrap_err();
    assert_eq!(e.kind, BitcodeErrorKind::NotABlock { id: 3 });
    // Not bitcode.
    let e = entries(b"DXBC\0\0\0\0").unwrap_err();
    assert!(matches!(e.kind, BitcodeErrorKind::BadMagic { .. }));
}

#[test]
fn huge_counts_fail_before_any_work() {
    // An unabbreviated record claiming 2^40 operands, and an array claiming 2^40 elements.
    let mut b = Bits::new();
    let at = b.enter(2, 8, 4);
    b.fixed(3, 4).vbr(1, 6).vbr(1 << 40, 6);
    b.end(4, at);
    let e = entries(&b.bytes).unwrap_err();
    assert!(matches!(e.kind, BitcodeErrorKind::Truncated { .. }), "{e}");
    let mut b = Bits::new();
    let at = b.enter(2, 8, 4);
    b.fixed(2, 4).vbr(3, 5);
    b.fixed(1, 1).vbr(1, 8);
    b.fixed(0, 1).fixed(3, 3);
    b.fixed(0, 1).fixed(1, 3).vbr(8, 5);
    b.fixed(4, 4).vbr(1 << 40, 6);
    b.end(4, at);
    let e = entries(&b.bytes).unwrap_err();
    assert_eq!(
        e.kind,
        BitcodeErrorKind::Truncated {
            what: "array elements"
        }
    );
}

#[test]
fn deep_nesting_is_refused() {
    let mut b = Bits::new();
    let mut width = 2;
    for _ in 0..=MAX_DEPTH {
        b.enter(width, 8, 2);
        width = 2;
    }
    let e = entries(&b.bytes).unwrap_err();
    assert!(
        matches!(
            e.kind,
            BitcodeErrorKind::TooDeep { .. } | BitcodeErrorKind::Truncated { .. }
        ),
        "{e}"
    );
}

#[test]
fn wrapper_header_is_followed_and_checked() {
    let inner = sample();
    let mut data = Vec::new();
    for v in [0x0b17_c0deu32, 0, 20, inner.len() as u32, 7] {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data.extend_from_slice(&inner);
    let bitcode = Bitcode::parse(&data).unwrap();
    assert_eq!(bitcode.stream_start, 20);
    assert_eq!(bitcode.wrapper.unwrap().cpu_type, 7);
    assert_eq!(entries(&data).unwrap(), entries(&inner).unwrap());
    data[12] = data[12].wrapping_add(8);
    let e = entries(&data).unwrap_err();
    assert!(matches!(e.kind, BitcodeErrorKind::BadWrapper { .. }));
}

#[test]
fn signed_vbr_values_decode_as_llvm_writes_them() {
    use crate::dxil::facts::decode_signed;
    assert_eq!(decode_signed(2), 1);
    assert_eq!(decode_signed(3), -1);
    assert_eq!(decode_signed(0), 0);
    assert_eq!(decode_signed(1), i64::MIN);
}

#[test]
fn facts_of_llvm_22_bitcode_use_the_string_table() {
    // examples/sample.dxil is built from examples/sample.ll by llvm-as 22:
    // an IDENTIFICATION block, module version 2, names in STRTAB.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
    let file = std::fs::read(path).expect("examples/sample.dxil");
    let container = crate::Container::parse(&file).unwrap();
    let program =
        crate::Program::parse(&container.require(crate::PartName::DXIL).unwrap()).unwrap();
    let facts = ModuleFacts::decode(program.bitcode).unwrap();
    let id = facts.identification.expect("identification block");
    assert!(id.producer.starts_with("LLVM"), "{}", id.producer);
    assert_eq!(facts.module_version, Some(2));
    assert_eq!(facts.functions_defined, ["main"]);
    assert_eq!(
        facts.triple.as_deref(),
        Some("dxil-unknown-shadermodel6.0-pixel")
    );
    assert!(facts.data_layout.unwrap().contains("-i8:8-"));
}

/// A block (abbreviation width 5) with one abbreviation `[literal 1, array of elem]`
/// (`elem` is the encoding number and width) and a record using it with
/// `chars` (with `prefix`, a VBR8 field 300 before the array, as in a
/// symbol table entry), after an unabbreviated record of `pad_ops` operands that moves
/// the array to different bit offsets (byte-aligned for some).
fn char_record(elem: (u64, Option<u64>), chars: &[u64], pad_ops: u64, prefix: bool) -> Vec<u8> {
    let mut b = Bits::new();
    let at = b.enter(2, 8, 5);
    b.fixed(2, 5).vbr(3 + u64::from(prefix), 5);
    b.fixed(1, 1).vbr(1, 8);
    if prefix {
        b.fixed(0, 1).fixed(2, 3).vbr(8, 5);
    }
    b.fixed(0, 1).fixed(3, 3);
    b.fixed(0, 1).fixed(elem.0, 3);
    if let Some(w) = elem.1 {
        b.vbr(w, 5);
    }
    // Unabbreviated record with `pad_ops` operands shifts what follows.
    b.fixed(3, 5).vbr(9, 6).vbr(pad_ops, 6);
    for _ in 0..pad_ops {
        b.vbr(0, 6);
    }
    b.fixed(4, 5);
    if prefix {
        b.vbr(300, 8);
    }
    b.vbr(chars.len() as u64, 6);
    let width = elem.1.unwrap_or(6) as u32;
    for c in chars {
        b.fixed(*c, width);
    }
    b.end(5, at);
    b.bytes
}

#[test]
fn strings_of_character_arrays_equal_their_fields() {
    let text: Vec<u64> = b"dx.op.bufferLoad.f32"
        .iter()
        .map(|c| u64::from(*c))
        .collect();
    let char6: Vec<u64> = b"dx.op.bufferLoad"
        .iter()
        .map(|c| u64::from(encode_char6(*c).unwrap()))
        .collect();
    let wide = [0x41u64, 0x142, 0x43];
    // (label, (encoding number, fixed width), characters)
    type Case<'a> = (&'a str, (u64, Option<u64>), &'a [u64]);
    let cases: [Case<'_>; 4] = [
        ("fixed 8", (1, Some(8)), &text),
        ("fixed 7", (1, Some(7)), &text),
        ("char6", (4, None), &char6),
        ("fixed 9 above a byte", (1, Some(9)), &wide),
    ];
    let mut aligned = 0;
    for (label, elem, chars) in cases {
        for (pad_ops, prefix) in (0..8).flat_map(|p| [(p, false), (p, true)]) {
            let data = char_record(elem, chars, pad_ops, prefix);
            let bitcode = Bitcode::parse(&data).unwrap();
            let mut reader = bitcode.reader();
            let record = loop {
                match reader.next_entry().unwrap() {
                    Some(Entry::Record(r)) if r.code == 1 => break r,
                    Some(_) => {}
                    None => panic!("{label}: no record"),
                }
            };
            let first_char = record.fields().nth(usize::from(prefix)).unwrap();
            if elem.1 == Some(8) && first_char.bit_offset % 8 == 0 {
                aligned += 1;
            }
            for skip in [0, 1, 5, chars.len(), chars.len() + 3] {
                let by_fields: Option<Vec<u8>> = record
                    .values()
                    .skip(skip)
                    .map(|v| u8::try_from(v).ok())
                    .collect();
                assert_eq!(
                    record.string_from(skip),
                    by_fields,
                    "{label} pad {pad_ops} prefix {prefix} skip {skip}"
                );
            }
        }
    }
    // The byte-aligned copy was exercised.
    assert!(aligned > 0);
    let data = char_record((1, Some(8)), &text, 0, true);
    let bitcode = Bitcode::parse(&data).unwrap();
    let mut reader = bitcode.reader();
    let record = loop {
        if let Some(Entry::Record(r)) = reader.next_entry().unwrap() {
            if r.code == 1 {
                break r;
            }
        }
    };
    assert_eq!(record.string_from(7).unwrap(), b"bufferLoad.f32");
    assert_eq!(record.values().next(), Some(300));
}

/// An unabbreviated record (how LLVM writes METADATA_KIND) read as a
/// string: the fields from `skip` on as bytes, `None` when one is above a
/// byte, the same as the fields say.
#[test]
fn strings_of_unabbreviated_records_equal_their_fields() {
    for (ops, skip, want) in [
        (
            &[6u64, b'd' as u64, b'b' as u64, b'g' as u64][..],
            1,
            Some(&b"dbg"[..]),
        ),
        (&[6, 0x41, 0x42][..], 0, Some(&[6u8, 0x41, 0x42][..])),
        (&[6, 0x41, 0x142][..], 1, None),
        (&[6][..], 3, Some(&b""[..])),
    ] {
        let mut b = Bits::new();
        let at = b.enter(2, 8, 4);
        b.fixed(3, 4).vbr(6, 6).vbr(ops.len() as u64, 6);
        for &op in ops {
            b.vbr(op, 6);
        }
        b.end(4, at);
        let bitcode = Bitcode::parse(&b.bytes).unwrap();
        let mut reader = bitcode.reader();
        let record = loop {
            match reader.next_entry().unwrap() {
                Some(Entry::Record(r)) => break r,
                Some(_) => {}
                None => panic!("no record"),
            }
        };
        let by_fields: Option<Vec<u8>> = record
            .values()
            .skip(skip)
            .map(|v| u8::try_from(v).ok())
            .collect();
        assert_eq!(record.string_from(skip).as_deref(), want, "{ops:?}");
        assert_eq!(record.string_from(skip), by_fields, "{ops:?}");
    }
}

/// Every entry of `data` read with `next_entry_with` (fields wanted for the
/// codes `want` accepts): the records' codes, the fields handed out, and
/// what `values_into` gives for the same record.
fn entries_with(data: &[u8], want: fn(u32) -> bool) -> Vec<(u32, Vec<u64>, Vec<u64>)> {
    let bitcode = Bitcode::parse(data).unwrap();
    let mut reader = bitcode.reader();
    let mut fields = vec![99];
    let mut out = Vec::new();
    while let Some(e) = reader.next_entry_with(&mut fields, want).unwrap() {
        match e {
            Entry::Record(r) => {
                let mut second = Vec::new();
                r.values_into(&mut second);
                out.push((r.code, fields.clone(), second));
            }
            _ => assert!(fields.is_empty(), "fields of a non-record: {fields:?}"),
        }
    }
    out
}

#[test]
fn fields_decoded_in_the_walk_are_those_of_the_second_pass() {
    let all = entries_with(&sample(), |_| true);
    assert_eq!(all.len(), 3);
    // Literal-coded abbreviation with a fixed field and a char6 array;
    // unabbreviated; a blob (no fields).
    assert_eq!(
        all[0],
        (7, vec![5, 97, 46, 90, 57], vec![5, 97, 46, 90, 57])
    );
    assert_eq!(all[1], (3, vec![1000, 2], vec![1000, 2]));
    assert_eq!(all[2], (9, vec![], vec![]));
    // Declined records are stepped over: no fields, the same positions.
    let some = entries_with(&sample(), |code| code == 3);
    assert_eq!(some[0], (7, vec![], vec![5, 97, 46, 90, 57]));
    assert_eq!(some[1], (3, vec![1000, 2], vec![1000, 2]));
    assert_eq!(some[2], (9, vec![], vec![]));
}

/// A module block whose only record is unabbreviated code 4 with `ops`
/// operands of which only `written` are in the stream.
fn truncated_record(ops: u64, written: u64) -> Vec<u8> {
    let mut b = Bits::new();
    let at = b.enter(2, 8, 4);
    b.fixed(3, 4).vbr(4, 6).vbr(ops, 6);
    for i in 0..written {
        b.vbr(40 + i, 6);
    }
    b.end(4, at);
    b.bytes
}

#[test]
fn decoding_fields_in_the_walk_keeps_the_errors_and_offsets() {
    // 40 operands declared, 3 written: the block ends inside the record.
    let data = truncated_record(40, 3);
    for want in [true, false] {
        let bitcode = Bitcode::parse(&data).unwrap();
        let mut reader = bitcode.reader();
        reader.next_entry().unwrap();
        let e = reader
            .next_entry_with(&mut Vec::new(), |_| want)
            .unwrap_err();
        let plain = {
            let mut reader = bitcode.reader();
            reader.next_entry().unwrap();
            reader.next_entry().unwrap_err()
        };
        assert_eq!(e, plain, "want {want}");
    }
}

#[test]
fn strings_read_from_any_bit_position_and_width() {
    // [literal 1, fixed(bits) pad, array of `elem`], one record each, for
    // pads of 0..8 bits (every alignment of the characters).
    let text = b"The_quick.brown_fox_jumps_over_the_lazy_dog_0123456789";
    for (elem, code, width) in [(4u64, 0u64, 6u32), (1, 7, 7), (1, 8, 8)] {
        for pad in 1..=8u64 {
            let mut b = Bits::new();
            let at = b.enter(2, 8, 4);
            b.fixed(2, 4).vbr(4, 5);
            b.fixed(1, 1).vbr(1, 8);
            b.fixed(0, 1).fixed(1, 3).vbr(pad, 5);
            b.fixed(0, 1).fixed(3, 3);
            if elem == 4 {
                b.fixed(0, 1).fixed(4, 3);
            } else {
                b.fixed(0, 1).fixed(1, 3).vbr(code, 5);
            }
            b.fixed(4, 4).fixed(0, pad as u32).vbr(text.len() as u64, 6);
            for &c in text.iter() {
                let v = if width == 6 {
                    u64::from(reader::encode_char6(c).unwrap())
                } else {
                    u64::from(c)
                };
                b.fixed(v, width);
            }
            b.end(4, at);
            let bitcode = Bitcode::parse(&b.bytes).unwrap();
            let mut reader = bitcode.reader();
            reader.next_entry().unwrap();
            reader.next_entry().unwrap();
            let Some(Entry::Record(r)) = reader.next_entry().unwrap() else {
                panic!("a record")
            };
            assert_eq!(
                r.string_from(1).as_deref(),
                Some(&text[..]),
                "width {width} pad {pad}"
            );
            assert_eq!(
                r.string_from(5).as_deref(),
                Some(&text[4..]),
                "width {width} pad {pad}, skipping 4"
            );
            assert_eq!(r.string_from(1 + text.len()).as_deref(), Some(&[][..]));
        }
    }
}
