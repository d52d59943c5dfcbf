//! Unit tests of the module reader, one family of records at a time, on
//! small bitcode written by a test-only record emitter (unabbreviated
//! records, abbreviation width 4 in every block).

use super::*;
use crate::bitcode::{BitcodeError, BitcodeErrorKind};
use crate::listing::dxil::ir;

/// Writes bitstream entries: blocks and unabbreviated records.
struct Emit {
    bytes: Vec<u8>,
    len: u64,
    open: Vec<usize>,
}

impl Emit {
    fn new() -> Emit {
        let mut e = Emit {
            bytes: Vec::new(),
            len: 0,
            open: Vec::new(),
        };
        for b in [0x42, 0x43, 0xc0, 0xde] {
            e.fixed(b, 8);
        }
        e
    }

    fn fixed(&mut self, value: u64, width: u32) {
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
    }

    fn vbr(&mut self, mut value: u64, width: u32) {
        let limit = 1u64 << (width - 1);
        while value >= limit {
            self.fixed((value & (limit - 1)) | limit, width);
            value >>= width - 1;
        }
        self.fixed(value, width);
    }

    fn align(&mut self) {
        while !self.len.is_multiple_of(32) {
            self.fixed(0, 1);
        }
    }

    fn width(&self) -> u32 {
        if self.open.is_empty() {
            2
        } else {
            4
        }
    }

    fn enter(&mut self, id: u32) -> &mut Self {
        self.fixed(1, self.width());
        self.vbr(u64::from(id), 8);
        self.vbr(4, 4);
        self.align();
        self.open.push((self.len / 8) as usize);
        self.fixed(0, 32);
        self
    }

    fn end(&mut self) -> &mut Self {
        self.fixed(0, 4);
        self.align();
        let at = self.open.pop().unwrap();
        let words = ((self.len / 8) as usize - at - 4) / 4;
        self.bytes[at..at + 4].copy_from_slice(&(words as u32).to_le_bytes());
        self
    }

    fn rec(&mut self, code: u32, ops: &[u64]) -> &mut Self {
        self.fixed(3, 4);
        self.vbr(u64::from(code), 6);
        self.vbr(ops.len() as u64, 6);
        for &op in ops {
            self.vbr(op, 6);
        }
        self
    }

    /// A record of `prefix` fields followed by the characters of `s`.
    fn str_rec(&mut self, code: u32, prefix: &[u64], s: &str) -> &mut Self {
        let mut ops = prefix.to_vec();
        ops.extend(s.bytes().map(u64::from));
        self.rec(code, &ops)
    }

    fn finish(mut self) -> Vec<u8> {
        assert!(self.open.is_empty());
        self.align();
        self.bytes
    }
}

/// Signed VBR field as LLVM writes it.
fn signed(v: i64) -> u64 {
    if v < 0 {
        ((-v as u64) << 1) | 1
    } else {
        (v as u64) << 1
    }
}

/// A module: VERSION 1, the type table `types` (NUMENTRY first, counting
/// all but the STRUCT_NAME records), then
/// whatever `body` writes into the MODULE block.
fn module(types: &[(u32, &[u64])], body: impl FnOnce(&mut Emit)) -> Vec<u8> {
    let mut e = Emit::new();
    e.enter(8).rec(1, &[1]);
    let count = types.iter().filter(|(code, _)| *code != 19).count();
    e.enter(17).rec(1, &[count as u64]);
    for (code, ops) in types {
        e.rec(*code, ops);
    }
    e.end();
    body(&mut e);
    e.end();
    e.finish()
}

fn parse(bytes: &[u8]) -> Module {
    Module::parse(bytes).unwrap_or_else(|e| panic!("{e}"))
}

fn parse_err(bytes: &[u8]) -> BitcodeError {
    Module::parse(bytes).expect_err("the module should not read")
}

// Type table used by the function tests:
// 0 void, 1 i32, 2 i1, 3 float, 4 i32*, 5 void(), 6 void()*, 7 <4 x float>,
// 8 metadata, 9 void(metadata), 10 void(metadata)*, 11 {i32, i1},
// 12 [2 x i32], 13 [2 x i32]*, 14 i32(i32, float), 15 i32(i32, float)*,
// 16 <4 x i32>, 17 i32 addrspace(3)*, 18 %S = type { i32, float }, 19 %S*
const TYPES: &[(u32, &[u64])] = &[
    (2, &[]),
    (7, &[32]),
    (7, &[1]),
    (3, &[]),
    (8, &[1]),
    (21, &[0, 0]),
    (8, &[5]),
    (12, &[4, 3]),
    (16, &[]),
    (21, &[0, 0, 8]),
    (8, &[9]),
    (18, &[0, 1, 2]),
    (11, &[2, 1]),
    (8, &[12]),
    (21, &[0, 1, 1, 3]),
    (8, &[14]),
    (12, &[4, 1]),
    (8, &[1, 3]),
    (20, &[0, 1, 3]),
    (8, &[18]),
];

/// FUNCTION record: `main` i32(i32, float) defined (value 0, attribute
/// list 1), `dbg` void(metadata) declared (value 1), `g` void() declared
/// (value 2), then module constants i32 0 (3), i32 1 (4), float 1.0 (5),
/// i32 2 (6), and the module symbol table.
fn functions(e: &mut Emit) {
    functions_with(e, false);
}

/// [`functions`], with `g` defined when `g_defined`.
fn functions_with(e: &mut Emit, g_defined: bool) {
    e.rec(8, &[14, 0, 0, 0, 1, 0, 0, 0]);
    e.rec(8, &[9, 0, 1, 0, 0, 0, 0, 0]);
    e.rec(8, &[5, 0, u64::from(!g_defined), 0, 0, 0, 0, 0]);
    e.enter(11)
        .rec(1, &[1])
        .rec(4, &[0])
        .rec(4, &[2])
        .rec(1, &[3])
        .rec(6, &[0x3f80_0000])
        .rec(1, &[1])
        .rec(4, &[4])
        .end();
    e.enter(14)
        .str_rec(1, &[0], "main")
        .str_rec(1, &[1], "dbg")
        .str_rec(1, &[2], "g")
        .end();
}

#[test]
fn types_read_with_forward_named_structs_opaque_and_address_spaces() {
    let bytes = module(
        &[
            (7, &[32]),           // 0: i32
            (3, &[]),             // 1: float
            (8, &[3, 3]),         // 2: %T addrspace(3)* (forward)
            (19, &[b'T' as u64]), // name for 3
            (20, &[1, 0, 1]),     // 3: %T = <{ i32, float }> (packed)
            (18, &[0, 0, 1]),     // 4: { i32, float }
            (19, &[b'O' as u64]), // name for 5
            (6, &[0]),            // 5: %O = opaque
            (11, &[3, 0]),        // 6: [3 x i32]
            (12, &[2, 1]),        // 7: <2 x float>
            (21, &[1, 0, 2]),     // 8: i32 (%T addrspace(3)*, ...)
            (10, &[]),            // 9: half
            (4, &[]),             // 10: double
            (5, &[]),             // 11: label
            (16, &[]),            // 12: metadata
            (2, &[]),             // 13: void
        ],
        |_| {},
    );
    let m = parse(&bytes);
    assert_eq!(
        m.types,
        vec![
            Type::Integer { bits: 32 },
            Type::Float,
            Type::Pointer {
                pointee: TypeId(3),
                address_space: 3
            },
            Type::Struct(StructType {
                name: Some(b"T".to_vec()),
                packed: true,
                body: Some(vec![TypeId(0), TypeId(1)])
            }),
            Type::Struct(StructType {
                name: None,
                packed: false,
                body: Some(vec![TypeId(0), TypeId(1)])
            }),
            Type::Struct(StructType {
                name: Some(b"O".to_vec()),
                packed: false,
                body: None
            }),
            Type::Array {
                len: 3,
                element: TypeId(0)
            },
            Type::Vector {
                len: 2,
                element: TypeId(1)
            },
            Type::Function(FunctionType {
                vararg: true,
                ret: TypeId(0),
                params: vec![TypeId(2)]
            }),
            Type::Half,
            Type::Double,
            Type::Label,
            Type::Metadata,
            Type::Void,
        ]
    );
    assert_eq!(m.version, 1);
}

#[test]
fn type_table_errors_name_the_record() {
    // A forward reference to something that is not a named struct.
    let bytes = module(&[(8, &[1]), (7, &[32])], |_| {});
    let e = parse_err(&bytes);
    assert!(
        matches!(
            e.kind,
            BitcodeErrorKind::InvalidRecord {
                block_id: 17,
                code: 7,
                reason: "only named structs can be forward referenced"
            }
        ),
        "{e:?}"
    );
    // A type ID past NUMENTRY.
    let bytes = module(&[(8, &[5])], |_| {});
    let e = parse_err(&bytes);
    assert!(matches!(
        e.kind,
        BitcodeErrorKind::InvalidRecord {
            code: 8,
            reason: "type ID out of range",
            ..
        }
    ));
    // The record's bit offset: after magic (32), MODULE header (2+8+4 →
    // aligned 64, +32 length = 96), VERSION (4+6+6+6 = 22 → 118), TYPE
    // header (4+8+4 → 134, aligned 160, +32 = 192), NUMENTRY (22 → 214).
    assert_eq!(e.bit_offset, 214);
    // Fewer types than declared.
    let mut e = Emit::new();
    e.enter(8).rec(1, &[1]);
    e.enter(17).rec(1, &[3]).rec(7, &[32]).end();
    e.end();
    let err = parse_err(&e.finish());
    assert!(matches!(err.kind, BitcodeErrorKind::InvalidModule { .. }));
    // An integer wider than LLVM allows.
    let err = parse_err(&module(&[(7, &[1 << 23])], |_| {}));
    assert!(matches!(
        err.kind,
        BitcodeErrorKind::InvalidRecord {
            reason: "integer width out of range",
            ..
        }
    ));
}

#[test]
fn globals_functions_and_names() {
    let bytes = module(&[(7, &[32]), (8, &[0]), (8, &[0, 3])], |e| {
        e.str_rec(5, &[], ".text");
        // @a = internal addrspace(3) global i32 4 … (explicit type, flags
        // isconst | explicit | addrspace 3 << 2), align 4, section 1,
        // visibility hidden (ignored: local), thread_local(initialexec),
        // unnamed_addr, externally_initialized, dllstorage 0, no comdat.
        e.rec(7, &[0, 1 | 2 | (3 << 2), 3, 3, 3, 1, 1, 3, 1, 1, 0, 0]);
        // @b = external global i32 (pointer type, old dllimport linkage 5).
        e.rec(7, &[1, 0, 0, 5, 0, 0]);
        e.enter(11).rec(1, &[0]).rec(4, &[signed(-7)]).end();
        e.enter(14)
            .str_rec(1, &[0], "a")
            .str_rec(1, &[1], "b")
            .end();
    });
    let m = parse(&bytes);
    assert_eq!(m.globals.len(), 2);
    let a = &m.globals[0];
    assert_eq!(a.name(), b"a");
    assert_eq!(a.value_type, TypeId(0));
    assert_eq!(a.pointer_type, Some(TypeId(2)));
    assert!(a.is_constant);
    assert_eq!(a.address_space, 3);
    assert_eq!(a.initializer, Some(ValueId(2)));
    assert_eq!(a.alignment, 4);
    assert_eq!(a.section.as_deref(), Some(&b".text"[..]));
    assert_eq!(a.common.linkage, Linkage::Internal);
    assert_eq!(a.common.visibility, Visibility::Default);
    assert_eq!(a.thread_local, ThreadLocal::InitialExec);
    assert!(a.common.unnamed_addr && a.externally_initialized);
    let b = &m.globals[1];
    assert_eq!((b.value_type, b.pointer_type), (TypeId(0), Some(TypeId(1))));
    assert_eq!(b.common.linkage, Linkage::External);
    assert_eq!(b.common.dll_storage, DllStorage::Import);
    assert_eq!(b.initializer, None);
    assert_eq!(m.values.len(), 3);
    assert_eq!(
        m.constant(ValueId(2)).unwrap().kind,
        ConstantKind::Integer(-7)
    );
    assert_eq!(m.value_type(ValueId(2)), Some(TypeId(0)));
}

#[test]
fn constants_of_every_form() {
    let types: &[(u32, &[u64])] = &[
        (7, &[1]),        // 0 i1
        (7, &[8]),        // 1 i8
        (7, &[32]),       // 2 i32
        (7, &[128]),      // 3 i128
        (10, &[]),        // 4 half
        (3, &[]),         // 5 float
        (4, &[]),         // 6 double
        (11, &[3, 1]),    // 7 [3 x i8]
        (11, &[2, 2]),    // 8 [2 x i32]
        (12, &[2, 5]),    // 9 <2 x float>
        (18, &[0, 2, 5]), // 10 { i32, float }
        (8, &[8]),        // 11 [2 x i32]*
        (8, &[2]),        // 12 i32*
        (12, &[2, 2]),    // 13 <2 x i32>
    ];
    let bytes = module(types, |e| {
        // @g = global [2 x i32] zeroinitializer (value 0).
        e.rec(7, &[11, 0, 2, 0, 0, 0]);
        e.enter(11);
        e.rec(1, &[0]).rec(4, &[signed(-1)]); // 1: i1 true
        e.rec(1, &[2]).rec(4, &[signed(-5)]); // 2: i32 -5
        e.rec(3, &[]); // 3: i32 undef
        e.rec(1, &[3]).rec(5, &[signed(1), signed(2)]); // 4: i128 wide
        e.rec(1, &[4]).rec(6, &[0x3c00]); // 5: half 1.0
        e.rec(1, &[6]).rec(6, &[0x4000_0000_0000_0000]); // 6: double 2.0
        e.rec(1, &[7]).rec(9, &[b'h' as u64, b'i' as u64]); // 7: c"hi\00"
        e.rec(1, &[8]).rec(22, &[7, 9]); // 8: [i32 7, i32 9]
        e.rec(1, &[10]).rec(7, &[2, 10]); // 9: { i32 -5, float <10: forward> }
        e.rec(1, &[5]).rec(6, &[0x3f80_0000]); // 10: float 1.0
        e.rec(1, &[2]).rec(2, &[]); // 11: i32 0 (null)
        e.rec(3, &[]); // 12: undef
                       // 13: add nsw (i32 -5, i32 -5)
        e.rec(10, &[0, 2, 2, 2]);
        // 14: sdiv exact
        e.rec(10, &[4, 2, 2, 1]);
        // 15: getelementptr inbounds ([2 x i32], [2 x i32]* @g, i32 0, i32 0)
        e.rec(1, &[12]).rec(20, &[8, 11, 0, 2, 11, 2, 11]);
        // 16: ptrtoint (i32* 15 to i32)
        e.rec(1, &[2]).rec(11, &[9, 12, 15]);
        // 17: icmp slt (i32 -5, i32 0)
        e.rec(1, &[0]).rec(17, &[2, 2, 11, 40]);
        // 18: select (i1 true, i32 -5, i32 0)
        e.rec(1, &[2]).rec(13, &[1, 2, 11]);
        // 19: <2 x i32> data, 20: extractelement, 21: insertelement, 22: shufflevector
        e.rec(1, &[13]).rec(22, &[1, 2]);
        e.rec(1, &[2]).rec(14, &[13, 19, 2, 11]);
        e.rec(1, &[13]).rec(15, &[19, 2, 2, 11]);
        e.rec(16, &[19, 19, 19]);
        e.end();
    });
    let m = parse(&bytes);
    let kind = |id: u32| &m.constant(ValueId(id)).unwrap().kind;
    assert_eq!(kind(1), &ConstantKind::Integer(-1));
    assert_eq!(kind(2), &ConstantKind::Integer(-5));
    assert_eq!(kind(3), &ConstantKind::Undef);
    assert_eq!(kind(4), &ConstantKind::WideInteger(vec![1, 2]));
    assert_eq!(kind(5), &ConstantKind::Float(0x3c00));
    assert_eq!(kind(6), &ConstantKind::Float(0x4000_0000_0000_0000));
    assert_eq!(
        kind(7),
        &ConstantKind::String {
            bytes: b"hi\0".to_vec(),
            cstring: true
        }
    );
    assert_eq!(kind(8), &ConstantKind::Data(vec![7, 9]));
    assert_eq!(
        kind(9),
        &ConstantKind::Aggregate(vec![ValueId(2), ValueId(10)])
    );
    assert_eq!(kind(11), &ConstantKind::Null);
    assert_eq!(kind(12), &ConstantKind::Undef);
    assert_eq!(
        kind(13),
        &ConstantKind::BinOp {
            op: BinOp::Add,
            lhs: ValueId(2),
            rhs: ValueId(2),
            flags: BinOpFlags {
                nsw: true,
                ..BinOpFlags::default()
            }
        }
    );
    assert!(matches!(
        kind(14),
        ConstantKind::BinOp {
            op: BinOp::SDiv,
            flags: BinOpFlags { exact: true, .. },
            ..
        }
    ));
    assert_eq!(
        kind(15),
        &ConstantKind::GetElementPtr {
            inbounds: true,
            source_type: Some(TypeId(8)),
            operands: vec![ValueId(0), ValueId(11), ValueId(11)]
        }
    );
    assert_eq!(m.constant(ValueId(15)).unwrap().ty, TypeId(12));
    assert_eq!(
        kind(16),
        &ConstantKind::Cast {
            op: CastOp::PtrToInt,
            value: ValueId(15)
        }
    );
    assert_eq!(
        kind(17),
        &ConstantKind::Compare {
            predicate: Predicate(40),
            lhs: ValueId(2),
            rhs: ValueId(11)
        }
    );
    assert_eq!(Predicate(40).name(), Some("slt"));
    assert_eq!(
        kind(18),
        &ConstantKind::Select {
            condition: ValueId(1),
            if_true: ValueId(2),
            if_false: ValueId(11)
        }
    );
    assert_eq!(
        kind(20),
        &ConstantKind::ExtractElement {
            vector: ValueId(19),
            index: ValueId(11)
        }
    );
    assert_eq!(
        kind(21),
        &ConstantKind::InsertElement {
            vector: ValueId(19),
            element: ValueId(2),
            index: ValueId(11)
        }
    );
    assert_eq!(
        kind(22),
        &ConstantKind::ShuffleVector {
            first: ValueId(19),
            second: ValueId(19),
            mask: ValueId(19)
        }
    );
}

#[test]
fn a_constant_referring_past_its_block_is_an_error() {
    let bytes = module(&[(7, &[32]), (11, &[1, 0])], |e| {
        e.enter(11)
            .rec(1, &[1])
            .rec(7, &[5]) // [1 x i32] [<value 5>]: never defined
            .end();
    });
    let e = parse_err(&bytes);
    assert_eq!(
        e.kind,
        BitcodeErrorKind::Unresolved {
            what: "constant",
            id: 5
        }
    );
}

#[test]
fn attribute_groups_and_lists() {
    let bytes = module(&[], |e| {
        let mut group = vec![1, 0xffff_ffff, 0, 18, 0, 20, 1, 41, 16, 3];
        group.extend(b"k".iter().map(|&c| u64::from(c)));
        group.push(0);
        group.push(4);
        group.extend(b"key".iter().map(|&c| u64::from(c)));
        group.push(0);
        group.extend(b"v".iter().map(|&c| u64::from(c)));
        group.push(0);
        e.enter(10).rec(3, &group).rec(3, &[2, 1, 0, 39]).end();
        e.enter(9).rec(2, &[1, 2]).rec(2, &[2]).end();
    });
    let m = parse(&bytes);
    assert_eq!(
        m.attribute_groups,
        vec![
            AttributeGroup {
                id: 1,
                index: 0xffff_ffff,
                attributes: vec![
                    Attribute::Enum(AttributeKind(18)),
                    Attribute::Enum(AttributeKind(20)),
                    Attribute::Int(AttributeKind(41), 16),
                    Attribute::String {
                        key: b"k".to_vec(),
                        value: None
                    },
                    Attribute::String {
                        key: b"key".to_vec(),
                        value: Some(b"v".to_vec())
                    },
                ]
            },
            AttributeGroup {
                id: 2,
                index: 1,
                attributes: vec![Attribute::Enum(AttributeKind(39))]
            }
        ]
    );
    assert_eq!(AttributeKind(18).name(), Some("nounwind"));
    assert_eq!(AttributeKind(41).name(), Some("dereferenceable"));
    assert_eq!(m.attribute_list(1).unwrap().groups, vec![1, 2]);
    assert_eq!(m.attribute_list(2).unwrap().groups, vec![2]);
    assert!(m.attribute_list(0).is_none());
    // An unknown enum kind is an error, as in LLVM 3.7.
    let bad = module(&[], |e| {
        e.enter(10).rec(3, &[1, 0, 0, 99]).end();
    });
    assert!(matches!(
        parse_err(&bad).kind,
        BitcodeErrorKind::InvalidRecord {
            reason: "unknown attribute kind",
            ..
        }
    ));
}

#[test]
fn metadata_strings_values_nodes_named_kinds_and_debug_nodes() {
    let bytes = module(&[(7, &[32]), (16, &[])], |e| {
        e.enter(11).rec(1, &[0]).rec(4, &[signed(3)]).end(); // value 0: i32 3
        e.enter(15);
        e.str_rec(1, &[], "dx.x"); // !0
        e.rec(2, &[0, 0]); // !1 = i32 3
        e.rec(3, &[1, 2, 0]); // !2 = !{!"dx.x", i32 3, null}
        e.rec(5, &[3]); // !3 = distinct !{!2}
        e.rec(16, &[0, 1, 1]); // !4 = !DIFile(filename: !0, directory: !0)
        e.rec(7, &[1, 5, 7, 4, 0]); // !5 = distinct !DILocation(line: 5, column: 7, scope: !4)
        e.str_rec(1, &[], "llvm.vectorizer.width"); // !6, upgraded
        e.str_rec(4, &[], "dx.named");
        e.rec(10, &[2, 3]);
        e.end();
        e.enter(15)
            .str_rec(6, &[0], "dbg")
            .str_rec(6, &[5], "dx.k")
            .end();
    });
    let m = parse(&bytes);
    assert_eq!(m.metadata_string(MetadataId(0)), Some(&b"dx.x"[..]));
    assert_eq!(m.metadata_int(MetadataId(1)), Some(3));
    assert_eq!(
        m.metadata_node(MetadataId(2)),
        Some(&[Some(MetadataId(0)), Some(MetadataId(1)), None][..])
    );
    assert_eq!(
        m.metadata(MetadataId(3)),
        Some(&Metadata::Node {
            distinct: true,
            operands: vec![Some(MetadataId(2))]
        })
    );
    let Some(Metadata::Debug(file)) = m.metadata(MetadataId(4)) else {
        panic!("{:?}", m.metadata(MetadataId(4)));
    };
    assert_eq!(file.kind, DebugNodeKind::File);
    assert_eq!(file.kind.name(), "DIFile");
    assert_eq!(file.metadata_refs(), vec![MetadataId(0), MetadataId(0)]);
    let Some(Metadata::Debug(loc)) = m.metadata(MetadataId(5)) else {
        panic!()
    };
    assert!(loc.distinct);
    assert_eq!(loc.fields, vec![1, 5, 7, 4, 0]);
    assert_eq!(loc.metadata_refs(), vec![MetadataId(4)]);
    assert_eq!(
        m.metadata_string(MetadataId(6)),
        Some(&b"llvm.loop.vectorize.width"[..])
    );
    assert_eq!(
        m.named_metadata(b"dx.named").unwrap().operands,
        vec![MetadataId(2), MetadataId(3)]
    );
    assert_eq!(m.metadata_kind_name(5), Some(&b"dx.k"[..]));
    assert_eq!(m.metadata_kinds.len(), 2);
}

#[test]
fn metadata_errors() {
    // A node operand never defined.
    let bytes = module(&[], |e| {
        e.enter(15).rec(3, &[9]).end();
    });
    assert_eq!(
        parse_err(&bytes).kind,
        BitcodeErrorKind::Unresolved {
            what: "metadata",
            id: 8
        }
    );
    // NAME not followed by NAMED_NODE.
    let bytes = module(&[], |e| {
        e.enter(15).str_rec(4, &[], "n").str_rec(1, &[], "s").end();
    });
    assert!(matches!(
        parse_err(&bytes).kind,
        BitcodeErrorKind::InvalidRecord { code: 1, .. }
    ));
    // A DIFile with the wrong field count.
    let bytes = module(&[], |e| {
        e.enter(15).rec(16, &[0, 0]).end();
    });
    assert!(matches!(
        parse_err(&bytes).kind,
        BitcodeErrorKind::InvalidRecord { code: 16, .. }
    ));
}

/// The module of the function tests: [`TYPES`], the three functions, two
/// metadata (`!0 = !DIFile(…)`, `!1 = !{}`), the kinds `dbg` (0) and
/// `tbaa` (3), and `main`'s body written by `body` inside its FUNCTION_BLOCK.
fn with_body(body: impl FnOnce(&mut Emit)) -> Vec<u8> {
    module(TYPES, |e| {
        functions(e);
        // !0 = !DIFile(filename: null, directory: null), !1 = !{}
        e.enter(15).rec(16, &[0, 0, 0]).rec(3, &[]).end();
        e.enter(15)
            .str_rec(6, &[0], "dbg")
            .str_rec(6, &[3], "tbaa")
            .end();
        e.enter(12);
        body(e);
        e.end();
    })
}

fn main_body(m: &Module) -> &FunctionBody {
    m.functions[0].body.as_ref().expect("main has a body")
}

fn kinds(body: &FunctionBody) -> Vec<&InstructionKind> {
    body.blocks
        .iter()
        .flat_map(|b| b.instructions.iter().map(|i| &i.kind))
        .collect()
}

// Value numbering inside `main`: 0-2 functions, 3 i32 0, 4 i32 1, 5 float
// 1.0, 6 i32 2, 7 %a (i32), 8 %b (float), instructions from 9 on.

#[test]
fn binary_operations_casts_and_compares_with_their_flags() {
    let bytes = with_body(|e| {
        e.rec(1, &[1]);
        e.rec(2, &[9 - 7, 9 - 4, 0, 3]); // 9: add nuw nsw i32 %a, 1
        e.rec(2, &[10 - 9, 10 - 6, 4, 1]); // 10: sdiv exact i32 %9, 2
        e.rec(2, &[11 - 8, 11 - 5, 0, 0b11]); // 11: fadd fast nnan float %b, 1.0
        e.rec(2, &[12 - 11, 12 - 8, 4]); // 12: fdiv float %11, %b
        e.rec(3, &[13 - 10, 3, 6]); // 13: sitofp i32 %10 to float
        e.rec(28, &[14 - 13, 14 - 12, 4, 2]); // 14: fcmp nnan olt float %13, %12
        e.rec(28, &[15 - 9, 15 - 3, 38]); // 15: icmp sgt i32 %9, 0
        e.rec(29, &[16 - 7, 16 - 3, 16 - 15]); // 16: select i1 %15, i32 %a, i32 0
        e.rec(10, &[17 - 16]); // ret i32 %16
    });
    let m = parse(&bytes);
    let body = main_body(&m);
    let k = kinds(body);
    assert_eq!(
        k[0],
        &InstructionKind::BinOp {
            op: BinOp::Add,
            lhs: Operand::Value(ValueId(7)),
            rhs: Operand::Value(ValueId(4)),
            flags: BinOpFlags {
                nuw: true,
                nsw: true,
                ..BinOpFlags::default()
            }
        }
    );
    assert!(matches!(
        k[1],
        InstructionKind::BinOp {
            op: BinOp::SDiv,
            flags: BinOpFlags {
                exact: true,
                nuw: false,
                ..
            },
            ..
        }
    ));
    let InstructionKind::BinOp {
        op: BinOp::FAdd,
        flags,
        ..
    } = k[2]
    else {
        panic!("{:?}", k[2]);
    };
    assert!(flags.fast_math.unsafe_algebra() && flags.fast_math.no_nans());
    assert!(!flags.fast_math.no_infs());
    assert!(matches!(
        k[3],
        InstructionKind::BinOp {
            op: BinOp::FDiv,
            ..
        }
    ));
    assert_eq!(
        k[4],
        &InstructionKind::Cast {
            op: CastOp::SiToFp,
            value: Operand::Value(ValueId(10))
        }
    );
    assert_eq!(
        k[5],
        &InstructionKind::Compare {
            predicate: Predicate(4),
            lhs: Operand::Value(ValueId(13)),
            rhs: Operand::Value(ValueId(12)),
            fast_math: FastMathFlags(2)
        }
    );
    assert_eq!(
        k[7],
        &InstructionKind::Select {
            condition: Operand::Value(ValueId(15)),
            if_true: Operand::Value(ValueId(7)),
            if_false: Operand::Value(ValueId(3))
        }
    );
    assert_eq!(
        k[8],
        &InstructionKind::Ret {
            value: Some(Operand::Value(ValueId(16)))
        }
    );
    let insts = &body.blocks[0].instructions;
    let types: Vec<_> = insts.iter().map(|i| i.ty).collect();
    assert_eq!(
        types,
        vec![
            Some(TypeId(1)),
            Some(TypeId(1)),
            Some(TypeId(3)),
            Some(TypeId(3)),
            Some(TypeId(3)),
            Some(TypeId(2)),
            Some(TypeId(2)),
            Some(TypeId(1)),
            None
        ]
    );
    assert_eq!(insts[0].value, Some(ValueId(9)));
    assert_eq!(insts[8].value, None);
    assert_eq!(body.first_value, 7);
    assert_eq!(body.args[1].value, ValueId(8));
    assert_eq!(
        body.local(ValueId(12)),
        Some(LocalValue::Instruction {
            block: BlockId(0),
            index: 3
        })
    );
    assert_eq!(m.value_type_in(Some(body), ValueId(14)), Some(TypeId(2)));
    assert_eq!(m.value_type_in(Some(body), ValueId(5)), Some(TypeId(3)));
}

#[test]
fn control_flow_phi_with_a_forward_reference_and_switch() {
    let bytes = with_body(|e| {
        e.rec(1, &[4]);
        // block 0: 9 = icmp eq %a, 0; br %9, 1, 2
        e.rec(28, &[9 - 7, 9 - 3, 32]);
        e.rec(11, &[1, 2, 10 - 9]);
        // block 1: switch i32 %a, default 3 [i32 1 → 2, i32 2 → 3]
        e.rec(12, &[1, 10 - 7, 3, 4, 2, 6, 3]);
        // block 2: 10 = phi i32 [0, %0], [%11 (forward), %1]; 11 = add %10, %a; br 3
        e.rec(16, &[1, signed(10 - 3), 0, signed(10 - 11), 1]);
        e.rec(2, &[11 - 10, 11 - 7, 0]);
        e.rec(11, &[3]);
        // block 3: unreachable
        e.rec(15, &[]);
    });
    let m = parse(&bytes);
    let body = main_body(&m);
    assert_eq!(body.blocks.len(), 4);
    let k = kinds(body);
    assert_eq!(
        k[1],
        &InstructionKind::CondBr {
            condition: Operand::Value(ValueId(9)),
            if_true: BlockId(1),
            if_false: BlockId(2)
        }
    );
    assert_eq!(
        k[2],
        &InstructionKind::Switch {
            condition: Operand::Value(ValueId(7)),
            default: BlockId(3),
            cases: vec![
                SwitchCase {
                    value: ValueId(4),
                    dest: BlockId(2)
                },
                SwitchCase {
                    value: ValueId(6),
                    dest: BlockId(3)
                }
            ]
        }
    );
    assert_eq!(
        k[3],
        &InstructionKind::Phi {
            incoming: vec![
                PhiIncoming {
                    value: Operand::Value(ValueId(3)),
                    block: BlockId(0)
                },
                PhiIncoming {
                    value: Operand::Value(ValueId(11)),
                    block: BlockId(1)
                }
            ]
        }
    );
    assert_eq!(body.blocks[2].instructions[0].ty, Some(TypeId(1)));
    assert_eq!(k[5], &InstructionKind::Br { dest: BlockId(3) });
    assert_eq!(k[6], &InstructionKind::Unreachable);
}

#[test]
fn forward_references_must_resolve_with_their_type() {
    // 9 = add %10 (forward, typed float), %10 … but %10 is an i32 add.
    let bytes = with_body(|e| {
        e.rec(1, &[1]);
        e.rec(2, &[u64::from(9u32.wrapping_sub(10)), 3, 9 - 7, 0]);
        e.rec(2, &[10 - 7, 10 - 7, 0]);
        e.rec(10, &[]);
    });
    let err = parse_err(&bytes);
    assert!(
        matches!(
            err.kind,
            BitcodeErrorKind::InvalidRecord { .. } | BitcodeErrorKind::InvalidModule { .. }
        ),
        "{err:?}"
    );
    // A forward reference never defined.
    let bytes = with_body(|e| {
        e.rec(1, &[1]);
        e.rec(2, &[u64::from(9u32.wrapping_sub(20)), 1, 9 - 7, 0]);
        e.rec(10, &[]);
    });
    assert_eq!(
        parse_err(&bytes).kind,
        BitcodeErrorKind::Unresolved {
            what: "value",
            id: 20
        }
    );
}

#[test]
fn memory_instructions_with_alignment_volatility_and_atomics() {
    let bytes = with_body(|e| {
        e.rec(1, &[1]);
        // 9: alloca [2 x i32], i32 1 (explicit type), align 4
        e.rec(19, &[12, 1, 4, 3 | (1 << 6)]);
        // 10: getelementptr inbounds [2 x i32], [2 x i32]* %9, i32 0, i32 1
        e.rec(43, &[1, 12, 10 - 9, 10 - 3, 10 - 4]);
        // 11: load volatile i32, i32* %10, align 4 (explicit type)
        e.rec(20, &[11 - 10, 1, 3, 1]);
        // store i32 %11, i32* %10, align 8
        e.rec(44, &[12 - 10, 12 - 11, 4, 0]);
        // 12: load atomic i32 acquire, align 4
        e.rec(41, &[12 - 10, 3, 0, 3, 1]);
        // store atomic volatile i32 %a … release singlethread, align 4
        e.rec(45, &[13 - 10, 13 - 7, 3, 1, 4, 0]);
        // 13: cmpxchg weak i32* %10, i32 %a, i32 0 seq_cst acquire
        e.rec(46, &[13 - 10, 13 - 7, 13 - 3, 0, 6, 1, 3, 1]);
        // 14: atomicrmw umax i32* %10, i32 %a monotonic
        e.rec(38, &[14 - 10, 14 - 7, 9, 0, 2, 1]);
        // fence seq_cst
        e.rec(36, &[6, 1]);
        // 15: extractvalue { i32, i1 } %13, 1
        e.rec(26, &[15 - 13, 1]);
        // 16: insertvalue { i32, i1 } %13, i32 %a, 0
        e.rec(27, &[16 - 13, 16 - 7, 0]);
        e.rec(10, &[]);
    });
    let m = parse(&bytes);
    let body = main_body(&m);
    let k = kinds(body);
    assert_eq!(
        k[0],
        &InstructionKind::Alloca {
            allocated_type: TypeId(12),
            size: Operand::Value(ValueId(4)),
            alignment: 4,
            inalloca: false
        }
    );
    assert_eq!(
        k[1],
        &InstructionKind::GetElementPtr {
            inbounds: true,
            source_type: TypeId(12),
            operands: vec![
                Operand::Value(ValueId(9)),
                Operand::Value(ValueId(3)),
                Operand::Value(ValueId(4))
            ]
        }
    );
    assert_eq!(
        k[2],
        &InstructionKind::Load {
            pointer: Operand::Value(ValueId(10)),
            alignment: 4,
            volatile: true,
            atomic: None
        }
    );
    assert_eq!(
        k[3],
        &InstructionKind::Store {
            pointer: Operand::Value(ValueId(10)),
            value: Operand::Value(ValueId(11)),
            alignment: 8,
            volatile: false,
            atomic: None
        }
    );
    assert!(matches!(
        k[4],
        InstructionKind::Load {
            atomic: Some(Atomic {
                ordering: AtomicOrdering::Acquire,
                scope: SynchScope::CrossThread
            }),
            ..
        }
    ));
    assert!(matches!(
        k[5],
        InstructionKind::Store {
            volatile: true,
            atomic: Some(Atomic {
                ordering: AtomicOrdering::Release,
                scope: SynchScope::SingleThread
            }),
            ..
        }
    ));
    assert_eq!(
        k[6],
        &InstructionKind::CmpXchg {
            pointer: Operand::Value(ValueId(10)),
            compare: Operand::Value(ValueId(7)),
            new_value: Operand::Value(ValueId(3)),
            volatile: false,
            weak: true,
            success_ordering: AtomicOrdering::SeqCst,
            failure_ordering: AtomicOrdering::Acquire,
            scope: SynchScope::CrossThread
        }
    );
    assert!(matches!(
        k[7],
        InstructionKind::AtomicRmw {
            op: RmwOp::UMax,
            ordering: AtomicOrdering::Monotonic,
            ..
        }
    ));
    assert_eq!(
        k[8],
        &InstructionKind::Fence {
            ordering: AtomicOrdering::SeqCst,
            scope: SynchScope::CrossThread
        }
    );
    assert_eq!(
        k[9],
        &InstructionKind::ExtractValue {
            aggregate: Operand::Value(ValueId(13)),
            indices: vec![1]
        }
    );
    let tys: Vec<_> = body.blocks[0].instructions.iter().map(|i| i.ty).collect();
    assert_eq!(
        tys,
        vec![
            Some(TypeId(13)),
            Some(TypeId(4)),
            Some(TypeId(1)),
            None,
            Some(TypeId(1)),
            None,
            Some(TypeId(11)),
            Some(TypeId(1)),
            None,
            Some(TypeId(2)),
            Some(TypeId(11)),
            None
        ]
    );
}

#[test]
fn vector_element_operations() {
    let bytes = with_body(|e| {
        e.rec(1, &[1]);
        e.enter(11)
            .rec(1, &[7])
            .rec(3, &[])
            .rec(1, &[16])
            .rec(2, &[])
            .end(); // 9: <4 x float> undef, 10: <4 x i32> zeroinitializer
        e.rec(7, &[11 - 9, 11 - 8, 11 - 3]); // 11: insertelement <4 x float> %9, float %b, i32 0
        e.rec(6, &[12 - 11, 12 - 4]); // 12: extractelement <4 x float> %11, i32 1
        e.rec(8, &[13 - 11, 13 - 9, 13 - 10]); // 13: shufflevector %11, %9, <4 x i32> %10
        e.rec(10, &[]);
    });
    let m = parse(&bytes);
    let body = main_body(&m);
    assert_eq!(body.constants.len(), 2);
    assert_eq!(body.constant(ValueId(10)).unwrap().kind, ConstantKind::Null);
    let k = kinds(body);
    assert_eq!(
        k[0],
        &InstructionKind::InsertElement {
            vector: Operand::Value(ValueId(9)),
            element: Operand::Value(ValueId(8)),
            index: Operand::Value(ValueId(3))
        }
    );
    assert_eq!(
        k[1],
        &InstructionKind::ExtractElement {
            vector: Operand::Value(ValueId(11)),
            index: Operand::Value(ValueId(4))
        }
    );
    let tys: Vec<_> = body.blocks[0].instructions.iter().map(|i| i.ty).collect();
    assert_eq!(
        tys,
        vec![Some(TypeId(7)), Some(TypeId(3)), Some(TypeId(7)), None]
    );
}

#[test]
fn calls_metadata_arguments_symbol_table_attachments_and_debug_locations() {
    let bytes = with_body(|e| {
        e.rec(1, &[2]);
        // function-level metadata: !2 = i32 %a (LocalAsMetadata)
        e.enter(15).rec(2, &[1, 7]).end();
        // tail call void @g() with attribute list 1 (explicit type)
        e.rec(34, &[1, 1 | (1 << 15), 5, 9 - 2]);
        e.rec(35, &[3, 4, 1, 0]); // !dbg line 3 col 4, scope !0
                                  // call void @dbg(metadata !2): relative metadata ID 9 - 2
        e.rec(34, &[0, 1 << 15, 9, 9 - 1, 9 - 2]);
        e.rec(33, &[]); // same location again
                        // 9: mul i32 %a, %a ; br 1
        e.rec(2, &[9 - 7, 9 - 7, 2]);
        e.rec(11, &[1]);
        e.rec(10, &[10 - 9]);
        e.enter(14)
            .str_rec(1, &[7], "a")
            .str_rec(1, &[9], "sq")
            .str_rec(2, &[1], "exit")
            .end();
        e.enter(16)
            .rec(11, &[2, 0, 1, 3, 1]) // mul (instruction 2): kind 0 → !1, tbaa → !1
            .rec(11, &[3, 1]) // function: tbaa !1
            .end();
    });
    let m = parse(&bytes);
    let body = main_body(&m);
    assert_eq!(
        body.metadata,
        vec![Metadata::Value {
            ty: TypeId(1),
            value: ValueId(7)
        }]
    );
    let insts: Vec<&Instruction> = body.blocks.iter().flat_map(|b| &b.instructions).collect();
    assert_eq!(
        insts[0].kind,
        InstructionKind::Call {
            callee: Operand::Value(ValueId(2)),
            function_type: TypeId(5),
            args: vec![],
            attributes: 1,
            calling_conv: 0,
            tail: TailCall::Tail,
            fast_math: FastMathFlags::default(),
            explicit_type: true
        }
    );
    let loc = DebugLoc {
        line: 3,
        column: 4,
        scope: Some(MetadataId(0)),
        inlined_at: None,
    };
    assert_eq!(insts[0].debug_loc, Some(loc));
    let InstructionKind::Call { args, .. } = &insts[1].kind else {
        panic!()
    };
    assert_eq!(args, &vec![Operand::Metadata(MetadataId(2))]);
    assert_eq!(insts[1].debug_loc, Some(loc));
    assert_eq!(insts[1].ty, None);
    assert_eq!(insts[2].name.as_deref(), Some(&b"sq"[..]));
    assert_eq!(
        insts[2].attachments,
        vec![
            Attachment {
                kind: 0,
                node: MetadataId(1)
            },
            Attachment {
                kind: 3,
                node: MetadataId(1)
            }
        ]
    );
    assert_eq!(
        body.attachments,
        vec![Attachment {
            kind: 3,
            node: MetadataId(1)
        }]
    );
    assert_eq!(body.args[0].name.as_deref(), Some(&b"a"[..]));
    assert_eq!(body.args[1].name, None);
    assert_eq!(body.blocks[1].name.as_deref(), Some(&b"exit"[..]));
    assert_eq!(m.functions[0].name(), b"main");
    assert_eq!(m.function(b"g").unwrap().common.value, ValueId(2));
    assert!(m.functions[2].is_declaration && m.functions[2].body.is_none());
}

#[test]
fn function_bodies_can_be_skipped() {
    let bytes = with_body(|e| {
        e.rec(1, &[1]).rec(10, &[9 - 7]);
    });
    let m = Module::parse_with(
        &bytes,
        ReadOptions {
            function_bodies: false,
            ..ReadOptions::default()
        },
    )
    .unwrap();
    assert!(m.functions[0].body.is_none());
    assert_eq!(m.functions.len(), 3);
}

#[test]
fn hostile_counts_do_not_allocate_and_fail_with_offsets() {
    // DECLAREBLOCKS of four billion blocks and one instruction.
    let bytes = with_body(|e| {
        e.rec(1, &[u64::from(u32::MAX)]).rec(10, &[9 - 7]);
    });
    assert!(matches!(
        parse_err(&bytes).kind,
        BitcodeErrorKind::InvalidModule {
            reason: "a declared basic block has no instructions"
        }
    ));
    // An instruction before DECLAREBLOCKS.
    let bytes = with_body(|e| {
        e.rec(10, &[]);
    });
    assert!(matches!(
        parse_err(&bytes).kind,
        BitcodeErrorKind::InvalidRecord {
            block_id: 12,
            code: 10,
            ..
        }
    ));
    // A branch to a block past DECLAREBLOCKS.
    let bytes = with_body(|e| {
        e.rec(1, &[1]).rec(11, &[5]);
    });
    assert!(matches!(
        parse_err(&bytes).kind,
        BitcodeErrorKind::InvalidRecord {
            reason: "basic block ID out of range",
            ..
        }
    ));
    // An unknown instruction code.
    let bytes = with_body(|e| {
        e.rec(1, &[1]).rec(13, &[0, 0, 0, 0]);
    });
    assert!(matches!(
        parse_err(&bytes).kind,
        BitcodeErrorKind::UnknownRecord {
            block_id: 12,
            code: 13
        }
    ));
    // Every prefix of a valid module fails cleanly (no panic).
    let good = with_body(|e| {
        e.rec(1, &[1]).rec(2, &[9 - 7, 9 - 4, 0]).rec(10, &[1]);
    });
    parse(&good);
    for len in (0..good.len()).step_by(4) {
        assert!(Module::parse(&good[..len]).is_err(), "prefix {len}");
    }
}

#[test]
fn no_module_block_is_its_own_error() {
    let e = Module::parse(&[0x42, 0x43, 0xc0, 0xde]).unwrap_err();
    assert_eq!(e.kind, BitcodeErrorKind::NoModule);
}

#[test]
fn debug_info_fields_can_be_left_out() {
    let bytes = module(&[], |e| {
        e.enter(15)
            .str_rec(1, &[], "f")
            .rec(16, &[1, 1, 1])
            .rec(3, &[2])
            .end();
    });
    let m = Module::parse_with(
        &bytes,
        ReadOptions {
            debug_info: false,
            ..ReadOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        m.metadata[1],
        Metadata::Debug(DebugNode {
            kind: DebugNodeKind::File,
            distinct: false,
            fields: Vec::new()
        })
    );
    assert_eq!(
        m.metadata_node(MetadataId(2)),
        Some(&[Some(MetadataId(1))][..])
    );
    let full = parse(&bytes);
    assert!(matches!(&full.metadata[1], Metadata::Debug(d) if d.distinct && d.fields == [1, 1, 1]));
}

#[test]
fn constant_operands_come_in_llvm_order() {
    let v = |i| ValueId(i);
    let select = ConstantKind::Select {
        condition: v(3),
        if_true: v(1),
        if_false: v(2),
    };
    assert_eq!(select.operands(), [v(3), v(1), v(2)]);
    assert_eq!(
        ConstantKind::Aggregate(vec![v(5), v(4)]).operands(),
        [v(5), v(4)]
    );
    assert!(ConstantKind::Null.operands().is_empty());
    assert!(ConstantKind::Undef.operands().is_empty());
}

#[test]
fn default_options_read_everything_and_module_level_reads_what_facts_need() {
    let all = ReadOptions::default();
    assert!(all.function_bodies && all.debug_info && all.attributes && all.metadata_kinds);
    assert_eq!(
        ReadOptions::module_level(),
        ReadOptions {
            function_bodies: false,
            debug_info: false,
            attributes: false,
            metadata_kinds: false,
        }
    );
}

/// A module with an attribute group and list, a function using list 1,
/// metadata (a string, a node, a named node) and kinds in a METADATA block
/// of their own and in a METADATA_KIND block.
fn module_with_attributes_and_kinds() -> Vec<u8> {
    // 0 i32, 1 i32(i32), 2 i32(i32)*
    module(&[(7, &[32]), (21, &[0, 0, 0]), (8, &[1])], |e| {
        e.enter(10).rec(3, &[1, 0xffff_ffff, 0, 18]).end();
        e.enter(9).rec(2, &[1]).end();
        e.rec(8, &[1, 0, 1, 0, 1, 0, 0, 0]);
        e.enter(15);
        e.str_rec(1, &[], "ps"); // !0
        e.rec(3, &[1]); // !1 = !{!"ps"}
        e.str_rec(4, &[], "dx.x");
        e.rec(10, &[1]);
        e.end();
        e.enter(15)
            .str_rec(6, &[0], "dbg")
            .str_rec(6, &[5], "dx.k")
            .end();
        e.enter(22).str_rec(6, &[7], "later").end();
    })
}

#[test]
fn attributes_can_be_left_out() {
    let bytes = module_with_attributes_and_kinds();
    let full = parse(&bytes);
    assert_eq!(full.attribute_groups.len(), 1);
    assert_eq!(full.attribute_list(1).unwrap().groups, vec![1]);
    let options = ReadOptions {
        attributes: false,
        ..ReadOptions::default()
    };
    let m = Module::parse_with(&bytes, options).unwrap();
    assert!(m.attribute_groups.is_empty());
    assert!(m.attribute_lists.is_empty());
    // The function keeps the list number its record gives.
    assert_eq!(m.functions[0].attributes, 1);
    // Everything else is as read with the blocks.
    assert_eq!(m.functions, full.functions);
    assert_eq!(m.metadata, full.metadata);
    assert_eq!(m.metadata_kinds, full.metadata_kinds);
    // Skipped blocks are not checked: an unknown attribute kind (an error
    // when read) is not seen.
    let bad = module(&[], |e| {
        e.enter(10).rec(3, &[1, 0, 0, 99]).end();
    });
    assert!(Module::parse(&bad).is_err());
    assert!(Module::parse_with(&bad, options)
        .unwrap()
        .attribute_groups
        .is_empty());
}

#[test]
fn metadata_kinds_can_be_left_out() {
    let bytes = module_with_attributes_and_kinds();
    let full = parse(&bytes);
    assert_eq!(full.metadata_kind_name(5), Some(&b"dx.k"[..]));
    assert_eq!(full.metadata_kind_name(7), Some(&b"later"[..]));
    assert_eq!(full.metadata_kinds.len(), 3);
    let options = ReadOptions {
        metadata_kinds: false,
        ..ReadOptions::default()
    };
    let m = Module::parse_with(&bytes, options).unwrap();
    assert!(m.metadata_kinds.is_empty());
    // The metadata and its IDs are the same.
    assert_eq!(m.metadata, full.metadata);
    assert_eq!(m.named_metadata, full.named_metadata);
    assert_eq!(
        m.metadata_node(MetadataId(1)),
        Some(&[Some(MetadataId(0))][..])
    );
    // The records are not checked: conflicting kinds (an error when read)
    // are not seen.
    let conflicting = module(&[], |e| {
        e.enter(15)
            .str_rec(6, &[0], "dbg")
            .str_rec(6, &[0], "dbg2")
            .end();
    });
    assert!(Module::parse(&conflicting).is_err());
    assert!(Module::parse_with(&conflicting, options).is_ok());
}

#[test]
fn facts_from_the_module_level_read_equal_those_of_the_whole_module() {
    let bytes = module_with_attributes_and_kinds();
    let full = crate::dxil::facts::ModuleFacts::of(&parse(&bytes)).unwrap();
    let facts = crate::dxil::facts::ModuleFacts::decode(&bytes).unwrap();
    assert_eq!(facts, full);
    assert_eq!(facts.functions_defined, Vec::<String>::new());
    // The declared function has no name (no symbol table).
    assert_eq!(facts.functions_declared, vec![String::new()]);
    assert_eq!(facts.module_version, Some(1));
}

// ------------------------------------------------ bodies read outlined

/// The modules of the body tests above: control flow with a forward phi,
/// calls with metadata arguments, names, attachments and debug locations.
fn outlined_samples() -> Vec<Vec<u8>> {
    vec![
        with_body(|e| {
            e.rec(1, &[4]);
            e.rec(28, &[9 - 7, 9 - 3, 32]);
            e.rec(11, &[1, 2, 10 - 9]);
            e.rec(12, &[1, 10 - 7, 3, 4, 2, 6, 3]);
            e.rec(16, &[1, signed(10 - 3), 0, signed(10 - 11), 1]);
            e.rec(2, &[11 - 10, 11 - 7, 0]);
            e.rec(11, &[3]);
            e.rec(15, &[]);
        }),
        with_body(|e| {
            e.rec(1, &[2]);
            e.enter(15).rec(2, &[1, 7]).end();
            e.rec(34, &[1, 1 | (1 << 15), 5, 9 - 2]);
            e.rec(35, &[3, 4, 1, 0]);
            e.rec(34, &[0, 1 << 15, 9, 9 - 1, 9 - 2]);
            e.rec(33, &[]);
            e.rec(2, &[9 - 7, 9 - 7, 2]);
            e.rec(11, &[1]);
            e.rec(10, &[10 - 9]);
            e.enter(14)
                .str_rec(1, &[7], "a")
                .str_rec(1, &[9], "sq")
                .str_rec(2, &[1], "exit")
                .end();
            e.enter(16).rec(11, &[2, 0, 1, 3, 1]).rec(11, &[3, 1]).end();
        }),
    ]
}

#[test]
fn an_outlined_body_keeps_no_instructions_and_streams_the_models_own() {
    for bytes in outlined_samples() {
        let whole = parse(&bytes);
        let outlined = OutlinedModule::parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
        let full = main_body(&whole);
        let skeleton = main_body(outlined.module());
        // The skeleton: everything but the blocks (which the outline
        // counts and names).
        assert!(skeleton.blocks.is_empty());
        assert_eq!(skeleton.args, full.args);
        assert_eq!(skeleton.constants, full.constants);
        assert_eq!(skeleton.metadata, full.metadata);
        assert_eq!(skeleton.attachments, full.attachments);
        assert_eq!(skeleton.values, full.values);
        // The outline: what the model's instructions say.
        let outline = outlined.outline(0).expect("main is outlined");
        assert_eq!(outline, &Outline::of(full));
        assert_eq!(outline.instruction_count(), full.instruction_count());
        assert!(outlined.outline(1).is_none(), "a declaration has none");
        // Read again: the model's instructions in order, each with its
        // block and debug location; name and attachments are the outline's.
        let mut streamed = Vec::new();
        outlined
            .instructions(0, &mut |(block, i, _)| streamed.push((block, i)))
            .unwrap_or_else(|e| panic!("{e}"));
        let expected: Vec<(u32, Instruction)> = full
            .blocks
            .iter()
            .enumerate()
            .flat_map(|(b, block)| {
                block.instructions.iter().map(move |i| {
                    let mut i = i.clone();
                    i.name = None;
                    i.attachments.clear();
                    (b as u32, i)
                })
            })
            .collect();
        assert_eq!(streamed, expected);
        // Twice gives the same (the saved stream is not used up).
        let mut again = 0;
        outlined
            .instructions(0, &mut |_| again += 1)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, expected.len());
    }
}

#[test]
fn the_outline_holds_names_attachments_successors_and_types() {
    let samples = outlined_samples();
    let outlined = OutlinedModule::parse(&samples[1]).unwrap_or_else(|e| panic!("{e}"));
    let outline = outlined.outline(0).unwrap();
    assert_eq!(outline.counts, vec![4, 1]);
    assert_eq!(
        outline.results,
        vec![u32::MAX, u32::MAX, 9, u32::MAX, u32::MAX]
    );
    assert_eq!(outline.names.get(&9).map(Vec::as_slice), Some(&b"sq"[..]));
    assert_eq!(outline.names.len(), 1, "argument names stay in the body");
    assert_eq!(
        outline.attachments.get(&2),
        Some(&vec![
            Attachment {
                kind: 0,
                node: MetadataId(1)
            },
            Attachment {
                kind: 3,
                node: MetadataId(1)
            }
        ])
    );
    assert_eq!(outline.successors, vec![(0, BlockId(1))]);
    assert_eq!(
        outline.block_names.get(&1).map(Vec::as_slice),
        Some(&b"exit"[..])
    );
    assert_eq!(outline.block_names.len(), 1);
    // Arguments i32, float; then the mul's i32.
    assert_eq!(outline.types, vec![TypeId(1), TypeId(3), TypeId(1)]);
    let outlined = OutlinedModule::parse(&samples[0]).unwrap_or_else(|e| panic!("{e}"));
    let outline = outlined.outline(0).unwrap();
    assert_eq!(
        outline.successors,
        vec![
            (0, BlockId(1)),
            (0, BlockId(2)),
            (1, BlockId(3)),
            (1, BlockId(2)),
            (1, BlockId(3)),
            (2, BlockId(3)),
        ]
    );
}

/// `main` and `g` both defined: two bodies, with a module symbol table
/// between the function records and the bodies.
fn two_bodies() -> Vec<u8> {
    module(TYPES, |e| {
        functions_with(e, true);
        // main: 9 = add i32 %a, 1; ret i32 %9
        e.enter(12)
            .rec(1, &[1])
            .rec(2, &[9 - 7, 9 - 4, 0])
            .rec(10, &[1])
            .end();
        // A block between the bodies is stepped over.
        e.enter(14).str_rec(1, &[0], "main").end();
        // g: br 1; ret void
        e.enter(12).rec(1, &[2]).rec(11, &[1]).rec(10, &[]).end();
    })
}

#[test]
fn bodies_read_again_in_any_order() {
    let bytes = two_bodies();
    let whole = parse(&bytes);
    let outlined = OutlinedModule::parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let read = |function: u32| {
        let mut out = Vec::new();
        outlined
            .instructions(function, &mut |(_, i, _)| out.push(i.kind))
            .unwrap_or_else(|e| panic!("{e}"));
        out
    };
    let model = |function: usize| {
        kinds(whole.functions[function].body.as_ref().unwrap())
            .into_iter()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(model(0).len(), 2);
    assert_eq!(model(2).len(), 2);
    // In order, backwards, the same twice, and a declaration (none).
    for function in [0, 2, 2, 0, 2, 1, 0, 0] {
        let got = read(function);
        if function == 1 {
            assert!(got.is_empty());
        } else {
            assert_eq!(got, model(function as usize), "function {function}");
        }
    }
    let options = ir::AsmOptions::default();
    let mut text = String::new();
    ir::write_outlined_text(&outlined, &options, &mut text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text, ir::module_text(&whole, &options).unwrap());
    assert!(text.contains("define void @g()"), "{text}");
}

#[test]
fn an_outlined_module_prints_the_models_listing() {
    for bytes in outlined_samples() {
        let whole = parse(&bytes);
        let outlined = OutlinedModule::parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
        let options = ir::AsmOptions::default();
        let expected = ir::module_text(&whole, &options).unwrap_or_else(|e| panic!("{e}"));
        let mut text = String::new();
        ir::write_outlined_text(&outlined, &options, &mut text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(text, expected);
        assert!(text.contains("define i32 @main("), "{text}");
        let mut streamed = Vec::new();
        ir::write_outlined_to(&outlined, &options, &mut streamed)
            .unwrap()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(String::from_utf8(streamed).unwrap(), expected);
    }
}

#[test]
fn an_outlined_read_fails_where_the_whole_read_does() {
    let mut cases = vec![
        with_body(|e| {
            e.rec(1, &[u64::from(u32::MAX)]).rec(10, &[9 - 7]);
        }),
        with_body(|e| {
            e.rec(10, &[]);
        }),
        with_body(|e| {
            e.rec(1, &[1]).rec(11, &[5]);
        }),
        // A forward reference never defined.
        with_body(|e| {
            e.rec(1, &[1])
                .rec(2, &[u64::from(9u32.wrapping_sub(12)), 1, 9 - 7, 0])
                .rec(10, &[]);
        }),
        // Debug location before any instruction.
        with_body(|e| {
            e.rec(1, &[1]).rec(33, &[]).rec(10, &[]);
        }),
    ];
    let good = with_body(|e| {
        e.rec(1, &[1]).rec(2, &[9 - 7, 9 - 4, 0]).rec(10, &[1]);
    });
    cases.extend((0..good.len()).step_by(4).map(|len| good[..len].to_vec()));
    for bytes in &cases {
        let whole = Module::parse(bytes).map(|_| ()).expect_err("bad module");
        let outlined = OutlinedModule::parse(bytes)
            .map(|_| ())
            .expect_err("bad module");
        assert_eq!(outlined, whole);
    }
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn outlined_listings_equal_the_models_over_the_corpus() {
    use dxcopy_harness::corpus::{corpus_or_skip, files_under};
    let Some(corpus) = corpus_or_skip("outlined listings") else {
        return;
    };
    let mut paths = files_under(&corpus.join("bin"));
    paths.extend(files_under(&corpus.join("dxc-listings/bin")));
    assert!(!paths.is_empty(), "no corpus files");
    let (mut modules, mut instructions, mut unreadable) = (0usize, 0usize, 0usize);
    let options = ir::AsmOptions::default();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(container) = crate::Container::parse(&bytes) else {
            continue;
        };
        for name in [
            crate::PartName::DXIL,
            crate::PartName::ILDB,
            crate::PartName::STAT,
        ] {
            let Some(part) = container.find(name) else {
                continue;
            };
            let Ok(program) = crate::Program::parse(&part) else {
                continue;
            };
            if !program.has_bitcode_magic() {
                continue;
            }
            let whole = Module::parse(program.bitcode);
            let outlined = OutlinedModule::parse(program.bitcode);
            let (whole, outlined) = match (whole, outlined) {
                (Ok(w), Ok(o)) => (w, o),
                (Err(w), Err(o)) => {
                    assert_eq!(o, w, "{} {name}", path.display());
                    unreadable += 1;
                    continue;
                }
                (w, o) => panic!("{} {name}: {:?} vs {:?}", path.display(), w.err(), o.err()),
            };
            let expected = ir::module_text(&whole, &options);
            let mut text = String::new();
            let got = ir::write_outlined_text(&outlined, &options, &mut text);
            match (expected, got) {
                (Ok(expected), Ok(())) => {
                    assert!(
                        text == expected,
                        "{} {name}: the texts differ",
                        path.display()
                    )
                }
                (expected, got) => panic!("{} {name}: {expected:?} vs {got:?}", path.display()),
            }
            modules += 1;
            instructions += whole
                .functions
                .iter()
                .filter_map(|f| f.body.as_ref())
                .map(FunctionBody::instruction_count)
                .sum::<usize>();
        }
    }
    println!(
        "outlined = whole listing for {modules} modules ({instructions} instructions); {unreadable} unreadable both ways"
    );
    assert!(modules > 0);
}
