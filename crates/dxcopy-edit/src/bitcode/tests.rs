//! Writer, rewriter, layout-fix and name-stripping tests over streams built
//! with [`StreamWriter`].

use super::*;
use dxcopy_read::bitcode::codes::{block, module, types, value_symtab};
use dxcopy_read::bitcode::{abbrev_id, Abbrev, AbbrevOp, Bitcode, Entry};
use dxcopy_read::dxil::facts::ModuleFacts;
use std::rc::Rc;

const LAYOUT: &str = "e-m:e-p:32:32-i1:32-i8:32-i16:32-n8:16:32";
const FIXED: &str = "e-m:e-p:32:32-i1:32-i8:08-i16:32-n8:16:32";

fn chars(s: &str) -> Vec<u64> {
    s.bytes().map(u64::from).collect()
}

/// A module block whose DATALAYOUT record uses `abbrev` (or none), then a
/// TRIPLE record, then an empty sub-block.
fn module_with_layout(
    abbrev: Option<Vec<AbbrevOp>>,
    layout_values: &[u64],
    blob: Option<&[u8]>,
) -> Vec<u8> {
    let mut w = StreamWriter::new();
    w.enter_block(block::MODULE, 3);
    let id = match abbrev {
        Some(ops) => {
            w.define_abbrev(Rc::new(Abbrev::new(ops).unwrap())).unwrap();
            abbrev_id::FIRST_DEFINED
        }
        None => abbrev_id::UNABBREV_RECORD,
    };
    w.record(id, module::DATALAYOUT, layout_values, blob)
        .unwrap();
    w.record(3, module::TRIPLE, &chars("dxil-ms-dx"), None)
        .unwrap();
    w.enter_block(block::CONSTANTS, 4);
    w.end_block().unwrap();
    w.end_block().unwrap();
    w.finish().unwrap()
}

fn triple_and_layout(data: &[u8]) -> (Option<String>, Option<String>) {
    let facts = ModuleFacts::decode(data).unwrap();
    (facts.triple, facts.data_layout)
}

#[test]
fn the_layout_is_patched_in_place_in_every_same_length_encoding() {
    let encodings: Vec<Option<Vec<AbbrevOp>>> = vec![
        None, // unabbreviated: VBR6
        Some(vec![
            AbbrevOp::Literal(3),
            AbbrevOp::Array,
            AbbrevOp::Fixed(8),
        ]),
        Some(vec![
            AbbrevOp::Literal(3),
            AbbrevOp::Array,
            AbbrevOp::Fixed(7),
        ]),
        Some(vec![
            AbbrevOp::Literal(3),
            AbbrevOp::Array,
            AbbrevOp::Vbr(6),
        ]),
        Some(vec![
            AbbrevOp::Literal(3),
            AbbrevOp::Array,
            AbbrevOp::Vbr(4),
        ]),
    ];
    for ops in encodings {
        let what = format!("{ops:?}");
        let data = module_with_layout(ops, &chars(LAYOUT), None);
        let fix = fix_data_layout(&data).unwrap();
        assert!(fix.in_place, "{what}");
        assert_eq!(fix.old_layout.as_deref(), Some(LAYOUT));
        assert_eq!(fix.new_layout.as_deref(), Some(FIXED));
        assert_eq!(fix.bytes.len(), data.len(), "{what}");
        assert_eq!(
            triple_and_layout(&fix.bytes),
            (Some("dxil-ms-dx".into()), Some(FIXED.into())),
            "{what}"
        );
    }
}

#[test]
fn a_layout_that_cannot_keep_its_length_is_re_emitted() {
    // Literal characters cannot change; a blob is re-emitted too.
    let mut ops = vec![AbbrevOp::Literal(3)];
    ops.extend(LAYOUT.bytes().map(|c| AbbrevOp::Literal(u64::from(c))));
    let literal = module_with_layout(Some(ops), &chars(LAYOUT), None);
    let blob = module_with_layout(
        Some(vec![AbbrevOp::Literal(3), AbbrevOp::Blob]),
        &[],
        Some(LAYOUT.as_bytes()),
    );
    for data in [literal, blob] {
        let fix = fix_data_layout(&data).unwrap();
        assert!(!fix.in_place);
        assert_eq!(fix.new_layout.as_deref(), Some(FIXED));
        assert_eq!(
            triple_and_layout(&fix.bytes),
            (Some("dxil-ms-dx".into()), Some(FIXED.into()))
        );
        // Block lengths were recomputed: the stream reads to the end.
        let bitcode = Bitcode::parse(&fix.bytes).unwrap();
        let mut reader = bitcode.reader();
        let mut n = 0;
        while reader.next_entry().unwrap().is_some() {
            n += 1;
        }
        assert!(n >= 5);
    }
}

#[test]
fn layouts_that_llvm_accepts_are_left_alone() {
    assert_eq!(fixed_layout("e-i8:8-i16:16"), None);
    assert_eq!(fixed_layout("e-i8:08"), None);
    assert_eq!(
        fixed_layout("e-i8:32:32-i16:32").as_deref(),
        Some("e-i8:08:32-i16:32")
    );
    assert_eq!(fixed_layout("i8:16").as_deref(), Some("i8:08"));
    let data = module_with_layout(None, &chars("e-i8:8"), None);
    let fix = fix_data_layout(&data).unwrap();
    assert!(matches!(fix.bytes, std::borrow::Cow::Borrowed(_)));
    assert_eq!(fix.new_layout, None);
}

#[test]
fn rewrite_without_edits_gives_the_same_bytes_and_edits_fix_lengths() {
    let data = module_with_layout(
        Some(vec![AbbrevOp::Literal(3), AbbrevOp::Array, AbbrevOp::Char6]),
        &chars("abc.XYZ_09"),
        None,
    );
    assert_eq!(rewrite(&data, |_, _| RecordEdit::Keep).unwrap(), data);
    let dropped = rewrite(&data, |path, r| {
        if path == [block::MODULE] && r.code == module::TRIPLE {
            RecordEdit::Drop
        } else {
            RecordEdit::Keep
        }
    })
    .unwrap();
    assert!(dropped.len() < data.len());
    assert_eq!(
        triple_and_layout(&dropped),
        (None, Some("abc.XYZ_09".into()))
    );
}

#[test]
fn the_writer_refuses_values_that_do_not_fit() {
    let mut w = StreamWriter::new();
    w.enter_block(block::MODULE, 3);
    w.define_abbrev(Rc::new(
        Abbrev::new(vec![AbbrevOp::Literal(3), AbbrevOp::Fixed(4)]).unwrap(),
    ))
    .unwrap();
    assert_eq!(
        w.record(4, 3, &[16], None),
        Err(WriteError::DoesNotFit {
            value: 16,
            op: AbbrevOp::Fixed(4)
        })
    );
    assert!(matches!(
        w.record(4, 2, &[1], None),
        Err(WriteError::DoesNotFit { .. })
    ));
    assert_eq!(w.record(4, 3, &[1, 2], None), Err(WriteError::ValueCount));
    assert_eq!(
        w.record(9, 3, &[1], None),
        Err(WriteError::UnknownAbbrev(9))
    );
    w.end_block().unwrap();
    assert_eq!(w.end_block(), Err(WriteError::NoBlock));
}

/// A module: one internal and one external global, a struct name and a
/// `dx.` struct name, a function whose VALUE_SYMTAB names a value and a block.
fn named_module() -> Vec<u8> {
    let mut w = StreamWriter::new();
    w.enter_block(block::MODULE, 3);
    w.record(3, module::VERSION, &[1], None).unwrap();
    w.enter_block(block::TYPE, 4);
    w.record(3, types::STRUCT_NAME, &chars("struct.Secret"), None)
        .unwrap();
    w.record(3, 20, &[0], None).unwrap();
    w.record(3, types::STRUCT_NAME, &chars("dx.types.Handle"), None)
        .unwrap();
    w.record(3, 20, &[0], None).unwrap();
    w.end_block().unwrap();
    // GLOBALVAR [ptr type, isconst, initid, linkage]: internal (3), external (0).
    w.record(3, module::GLOBALVAR, &[0, 0, 0, 3], None).unwrap();
    w.record(3, module::GLOBALVAR, &[0, 0, 0, 0], None).unwrap();
    w.record(3, module::FUNCTION, &[0, 0, 0, 0], None).unwrap();
    w.enter_block(block::FUNCTION, 4);
    w.enter_block(block::VALUE_SYMTAB, 4);
    w.record(3, value_symtab::ENTRY, &[5, 120], None).unwrap();
    w.record(3, value_symtab::BBENTRY, &[0, 98, 98], None)
        .unwrap();
    w.end_block().unwrap();
    w.end_block().unwrap();
    w.enter_block(block::VALUE_SYMTAB, 4);
    w.record(3, value_symtab::ENTRY, &[0, 115], None).unwrap();
    w.record(3, value_symtab::ENTRY, &[1, 101], None).unwrap();
    w.record(3, value_symtab::ENTRY, &[2, 109, 97, 105, 110], None)
        .unwrap();
    w.end_block().unwrap();
    w.end_block().unwrap();
    w.finish().unwrap()
}

/// (block path, code, values) of every record.
fn records(data: &[u8]) -> Vec<(Vec<u32>, u32, Vec<u64>)> {
    let bitcode = Bitcode::parse(data).unwrap();
    let mut reader = bitcode.reader();
    let mut out = Vec::new();
    while let Some(e) = reader.next_entry().unwrap() {
        if let Entry::Record(r) = e {
            out.push((reader.block_path().collect(), r.code, r.values().collect()));
        }
    }
    out
}

#[test]
fn name_stripping_removes_exactly_the_names_it_documents() {
    let data = named_module();
    let (out, stats) = strip_names(&data).unwrap();
    assert_eq!(
        stats,
        StripStats {
            struct_names: 1,
            local_names: 2,
            global_names: 1
        }
    );
    let before = records(&data);
    let after = records(&out);
    let removed: Vec<_> = before
        .iter()
        .filter(|r| !after.contains(r))
        .cloned()
        .collect();
    assert_eq!(
        removed,
        vec![
            (vec![8, 17], types::STRUCT_NAME, chars("struct.Secret")),
            (vec![8, 12, 14], value_symtab::ENTRY, vec![5, 120]),
            (vec![8, 12, 14], value_symtab::BBENTRY, vec![0, 98, 98]),
            (vec![8, 14], value_symtab::ENTRY, vec![0, 115]),
        ]
    );
    assert_eq!(after.len(), before.len() - 4);
    // Stripping again finds nothing and changes nothing.
    let (again, stats) = strip_names(&out).unwrap();
    assert_eq!(stats.total(), 0);
    assert_eq!(again, out);
}
