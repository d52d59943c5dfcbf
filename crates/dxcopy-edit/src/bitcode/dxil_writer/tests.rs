//! The module writer on small hand-built modules: the exact records and
//! abbreviations of each block, read back as the same model, and the
//! errors for what dxc's writer never writes.

use super::*;
use dxcopy_read::bitcode::{Bitcode, Entry};
use dxcopy_read::dxil::{
    Argument, BasicBlock, BinOp, BinOpFlags, BlockId, Constant, ConstantKind, DebugLoc, DebugNode,
    DebugNodeKind, FastMathFlags, Function, FunctionBody, FunctionType, GlobalCommon,
    GlobalVariable, Instruction, InstructionKind, LocalValue, Metadata, MetadataId, MetadataKind,
    ModuleValue, NamedMetadata, Operand, StructType, TailCall, Type, TypeId, ValueId,
};
use proptest::prelude::*;

/// Builds a module the way the reader models one: globals, then functions,
/// then module constants take value IDs.
struct Build {
    m: Module,
}

impl Build {
    fn new() -> Build {
        Build {
            m: Module {
                version: 1,
                triple: Some("dxil-ms-dx".into()),
                data_layout: Some("e-m:e-p:32:32-i1:32-i8:8-i16:16-i32:32-i64:64".into()),
                ..Module::default()
            },
        }
    }

    fn ty(&mut self, ty: Type) -> TypeId {
        if let Some(i) = self.m.types.iter().position(|t| *t == ty) {
            return TypeId(i as u32);
        }
        self.m.types.push(ty);
        TypeId(self.m.types.len() as u32 - 1)
    }

    fn pointer(&mut self, pointee: TypeId) -> TypeId {
        self.ty(Type::Pointer {
            pointee,
            address_space: 0,
        })
    }

    fn common(&self, name: &str) -> GlobalCommon {
        GlobalCommon {
            name: name.as_bytes().to_vec(),
            value: ValueId(self.m.values.len() as u32),
            raw_linkage: 0,
            linkage: dxcopy_read::dxil::Linkage::External,
            visibility: Default::default(),
            dll_storage: Default::default(),
            unnamed_addr: false,
            comdat: 0,
        }
    }

    fn global(&mut self, name: &str, value_type: TypeId, init: Option<ValueId>) -> ValueId {
        let common = self.common(name);
        let value = common.value;
        let pointer_type = Some(self.pointer(value_type));
        self.m.globals.push(GlobalVariable {
            common,
            value_type,
            pointer_type,
            is_constant: false,
            address_space: 0,
            initializer: init,
            alignment: 4,
            section: None,
            thread_local: Default::default(),
            externally_initialized: false,
        });
        self.m
            .values
            .push(ModuleValue::Global(self.m.globals.len() as u32 - 1));
        value
    }

    fn function(
        &mut self,
        name: &str,
        function_type: TypeId,
        body: Option<FunctionBody>,
    ) -> ValueId {
        let common = self.common(name);
        let value = common.value;
        let pointer_type = Some(self.pointer(function_type));
        self.m.functions.push(Function {
            common,
            function_type,
            pointer_type,
            calling_conv: 0,
            is_declaration: body.is_none(),
            attributes: 0,
            alignment: 0,
            section: None,
            gc: None,
            prologue_data: None,
            prefix_data: None,
            personality: None,
            body,
        });
        self.m
            .values
            .push(ModuleValue::Function(self.m.functions.len() as u32 - 1));
        value
    }

    fn constant(&mut self, ty: TypeId, kind: ConstantKind) -> ValueId {
        self.m.constants.push(Constant { ty, kind });
        self.m
            .values
            .push(ModuleValue::Constant(self.m.constants.len() as u32 - 1));
        ValueId(self.m.values.len() as u32 - 1)
    }

    fn metadata(&mut self, md: Metadata) -> MetadataId {
        self.m.metadata.push(md);
        MetadataId(self.m.metadata.len() as u32 - 1)
    }
}

/// Appends an instruction to `block`; its value ID when it has a type.
fn push(
    body: &mut FunctionBody,
    block: usize,
    kind: InstructionKind,
    ty: Option<TypeId>,
) -> Option<ValueId> {
    let index = body.blocks[block].instructions.len() as u32;
    let value = ty.map(|_| {
        let v = ValueId(body.first_value + body.values.len() as u32);
        body.values.push(LocalValue::Instruction {
            block: BlockId(block as u32),
            index,
        });
        v
    });
    body.blocks[block].instructions.push(Instruction {
        kind,
        ty,
        value,
        name: None,
        debug_loc: None,
        attachments: Vec::new(),
    });
    value
}

/// `@g = global i32 7`, `declare void @h()`, and
/// `define i32 @f(i32 %a)`: entry: `%sum = add %a, 5`, `load @g` (both at
/// one location), `call @h()`, `br exit`; exit: `mul`, `ret`. Metadata: a
/// string, a node, a location, `!n = !{!1}`.
fn sample() -> Module {
    let mut b = Build::new();
    let void = b.ty(Type::Void);
    let i32t = b.ty(Type::Integer { bits: 32 });
    let f_ty = b.ty(Type::Function(FunctionType {
        vararg: false,
        ret: i32t,
        params: vec![i32t],
    }));
    let h_ty = b.ty(Type::Function(FunctionType {
        vararg: false,
        ret: void,
        params: vec![],
    }));
    b.ty(Type::Struct(StructType {
        name: Some(b"struct.S".to_vec()),
        packed: false,
        body: Some(vec![i32t, i32t]),
    }));
    b.ty(Type::Array {
        len: 4,
        element: i32t,
    });
    // Pointer types the globals and functions need, in table order.
    b.pointer(i32t);
    b.pointer(f_ty);
    b.pointer(h_ty);
    let g = b.global("g", i32t, None);
    let f = b.function("f", f_ty, None);
    let h = b.function("h", h_ty, None);
    let seven = b.constant(i32t, ConstantKind::Integer(7));
    let five = b.constant(i32t, ConstantKind::Integer(5));
    b.m.globals[0].initializer = Some(seven);
    let text = b.metadata(Metadata::String(b"hello".to_vec()));
    let node = b.metadata(Metadata::Node {
        distinct: false,
        operands: vec![Some(text), None],
    });
    b.metadata(Metadata::Debug(DebugNode {
        kind: DebugNodeKind::Location,
        distinct: false,
        fields: vec![0, 3, 9, u64::from(node.0) + 1, 0],
    }));
    b.m.named_metadata.push(NamedMetadata {
        name: b"n".to_vec(),
        operands: vec![node],
    });
    b.m.metadata_kinds = vec![
        MetadataKind {
            id: 0,
            name: b"dbg".to_vec(),
        },
        MetadataKind {
            id: 1,
            name: b"range".to_vec(),
        },
    ];
    let first = b.m.values.len() as u32;
    let mut body = FunctionBody {
        first_value: first,
        blocks: vec![
            BasicBlock {
                name: Some(b"entry".to_vec()),
                ..BasicBlock::default()
            },
            BasicBlock {
                name: Some(b"exit".to_vec()),
                ..BasicBlock::default()
            },
        ],
        ..FunctionBody::default()
    };
    body.values.push(LocalValue::Argument(0));
    body.args.push(Argument {
        ty: i32t,
        value: ValueId(first),
        name: Some(b"a".to_vec()),
    });
    let a = Operand::Value(ValueId(first));
    let loc = DebugLoc {
        line: 3,
        column: 9,
        scope: Some(node),
        inlined_at: None,
    };
    let add = InstructionKind::BinOp {
        op: BinOp::Add,
        lhs: a,
        rhs: Operand::Value(five),
        flags: BinOpFlags::default(),
    };
    let sum = push(&mut body, 0, add, Some(i32t)).unwrap();
    let load = InstructionKind::Load {
        pointer: Operand::Value(g),
        alignment: 4,
        volatile: false,
        atomic: None,
    };
    let loaded = push(&mut body, 0, load, Some(i32t)).unwrap();
    let call = InstructionKind::Call {
        callee: Operand::Value(h),
        function_type: h_ty,
        args: vec![],
        attributes: 0,
        calling_conv: 0,
        tail: TailCall::None,
        fast_math: FastMathFlags::default(),
        explicit_type: true,
    };
    push(&mut body, 0, call, None);
    push(&mut body, 0, InstructionKind::Br { dest: BlockId(1) }, None);
    let mul = InstructionKind::BinOp {
        op: BinOp::Mul,
        lhs: Operand::Value(sum),
        rhs: Operand::Value(loaded),
        flags: BinOpFlags::default(),
    };
    let product = push(&mut body, 1, mul, Some(i32t)).unwrap();
    let ret = InstructionKind::Ret {
        value: Some(Operand::Value(product)),
    };
    push(&mut body, 1, ret, None);
    let entry = &mut body.blocks[0].instructions;
    entry[0].name = Some(b"sum".to_vec());
    entry[0].debug_loc = Some(loc);
    entry[1].debug_loc = Some(loc);
    entry[1]
        .attachments
        .push(dxcopy_read::dxil::Attachment { kind: 1, node });
    b.m.functions[f.0 as usize - 1].body = Some(body);
    b.m.functions[f.0 as usize - 1].is_declaration = false;
    b.m
}

/// (open block, abbreviation ID, code, values) of every record, and the
/// abbreviation definitions as (open block, ops).
type Records = Vec<(u32, u32, u32, Vec<u64>)>;

fn walk(bytes: &[u8]) -> (Records, Vec<(u32, Vec<dxcopy_read::bitcode::AbbrevOp>)>) {
    let bitcode = Bitcode::parse(bytes).unwrap();
    let mut reader = bitcode.reader();
    let (mut records, mut abbrevs, mut path) = (Vec::new(), Vec::new(), Vec::new());
    while let Some(entry) = reader.next_entry().unwrap() {
        match entry {
            Entry::EnterBlock(h) => path.push(h.block_id),
            Entry::EndBlock { .. } => {
                path.pop();
            }
            Entry::DefineAbbrev { abbrev, .. } => {
                abbrevs.push((*path.last().unwrap(), abbrev.ops().to_vec()))
            }
            Entry::Record(r) => {
                records.push((r.block_id, r.abbrev_id, r.code, r.values().collect()))
            }
        }
    }
    (records, abbrevs)
}

fn in_block(records: &Records, block: u32) -> Vec<(u32, u32, Vec<u64>)> {
    records
        .iter()
        .filter(|r| r.0 == block)
        .map(|r| (r.1, r.2, r.3.clone()))
        .collect()
}

/// The model as read, with the symbol orders (which the reader fills from
/// the bytes) taken out, to compare with a built model.
fn without_order(mut m: Module) -> Module {
    m.symbol_order.clear();
    for f in &mut m.functions {
        if let Some(b) = &mut f.body {
            b.symbol_order.clear();
        }
    }
    m
}

#[test]
fn written_module_reads_back_as_the_same_model_and_bytes() {
    let m = sample();
    let bytes = write_module(&m).unwrap();
    let read = Module::parse(&bytes).unwrap();
    assert_eq!(without_order(read.clone()), m);
    assert_eq!(write_module(&read).unwrap(), bytes);
}

#[test]
fn blockinfo_defines_dxcs_abbreviations_with_the_type_index_width() {
    use dxcopy_read::bitcode::AbbrevOp::*;
    let m = sample();
    let bytes = write_module(&m).unwrap();
    let (records, abbrevs) = walk(&bytes);
    // 9 types: type indexes take Log2_32_Ceil(9 + 1) = 4 bits.
    let t = 4;
    let info: Vec<_> = abbrevs
        .iter()
        .filter(|a| a.0 == 0)
        .map(|a| a.1.clone())
        .collect();
    assert_eq!(
        info,
        vec![
            vec![Fixed(3), Vbr(8), Array, Fixed(8)],
            vec![Literal(1), Vbr(8), Array, Fixed(7)],
            vec![Literal(1), Vbr(8), Array, Char6],
            vec![Literal(2), Vbr(8), Array, Char6],
            vec![Literal(1), Fixed(t)],
            vec![Literal(4), Vbr(8)],
            vec![Literal(11), Fixed(4), Fixed(t), Vbr(8)],
            vec![Literal(2)],
            vec![Literal(20), Vbr(6), Fixed(t), Vbr(4), Fixed(1)],
            vec![Literal(2), Vbr(6), Vbr(6), Fixed(4)],
            vec![Literal(2), Vbr(6), Vbr(6), Fixed(4), Fixed(7)],
            vec![Literal(3), Vbr(6), Fixed(t), Fixed(4)],
            vec![Literal(10)],
            vec![Literal(10), Vbr(6)],
            vec![Literal(15)],
            vec![Literal(43), Fixed(1), Fixed(t), Array, Vbr(6)],
        ]
    );
    // SETBID for VALUE_SYMTAB, CONSTANTS, FUNCTION.
    let setbid: Vec<_> = in_block(&records, 0).into_iter().map(|r| r.2).collect();
    assert_eq!(setbid, vec![vec![14], vec![11], vec![12]]);
    // The module starts with VERSION 1.
    assert_eq!(records[0], (8, 3, 1, vec![1]));
}

#[test]
fn type_table_records_use_dxcs_abbreviations() {
    let bytes = write_module(&sample()).unwrap();
    let (records, abbrevs) = walk(&bytes);
    assert_eq!(abbrevs.iter().filter(|a| a.0 == 17).count(), 6);
    let types: Vec<_> = in_block(&records, 17)
        .into_iter()
        .map(|r| (r.0, r.1))
        .collect();
    assert_eq!(
        types,
        vec![
            (3, 1),  // NUMENTRY
            (3, 2),  // void
            (3, 7),  // i32
            (5, 21), // function, abbreviated
            (5, 21),
            (7, 19), // STRUCT_NAME in char6
            (8, 20), // STRUCT_NAMED
            (9, 11), // array
            (4, 8),  // pointers in address space 0
            (4, 8),
            (4, 8),
        ]
    );
}

#[test]
fn module_records_globals_constants_and_metadata() {
    let bytes = write_module(&sample()).unwrap();
    let (records, _) = walk(&bytes);
    let module = in_block(&records, 8);
    // The simple global takes the module's own abbreviation (ID 4):
    // [type, explicit|const, init + 1, linkage, align log2 + 1, section].
    assert!(module.contains(&(4, 7, vec![1, 2, 4, 0, 3, 0])));
    // Constants: SETTYPE i32 once, then two INTEGERs (signed VBR: 7 -> 14).
    assert_eq!(
        in_block(&records, 11),
        vec![(4, 1, vec![1]), (5, 4, vec![14]), (5, 4, vec![10])]
    );
    // Metadata: the string with its abbreviation, the node (IDs + 1), the
    // location with its abbreviation, then the name and named node; the
    // kinds in a second METADATA block.
    let md = in_block(&records, 15);
    assert_eq!(
        md[0],
        (4, 1, b"hello".iter().map(|&b| u64::from(b)).collect())
    );
    assert_eq!(md[1], (3, 3, vec![1, 0]));
    assert_eq!(md[2], (5, 7, vec![0, 3, 9, 2, 0]));
    assert_eq!(md[3], (6, 4, vec![u64::from(b'n')]));
    assert_eq!(md[4], (3, 10, vec![1]));
    assert_eq!(md[5].1, 6);
}

#[test]
fn instructions_use_relative_ids_abbreviations_and_debug_loc_again() {
    let bytes = write_module(&sample()).unwrap();
    let (records, _) = walk(&bytes);
    let f = in_block(&records, 12);
    assert_eq!(
        f,
        vec![
            (3, 1, vec![2]),                 // DECLAREBLOCKS
            (5, 2, vec![1, 2, 0]),           // add %a, 5 (binop abbreviation)
            (3, 35, vec![3, 9, 2, 0]),       // DEBUG_LOC
            (4, 20, vec![7, 1, 3, 0]),       // load @g (load abbreviation)
            (3, 33, vec![]),                 // DEBUG_LOC_AGAIN
            (3, 34, vec![0, 1 << 15, 3, 6]), // call void @h(), explicit type
            (3, 11, vec![1]),                // br
            (5, 2, vec![2, 1, 2]),           // mul %sum, %loaded
            (9, 10, vec![1]),                // ret (value abbreviation)
        ]
    );
    // The function's symbol table (after the module's three entries),
    // sorted by name: a, entry (block), exit (block), sum, in char6.
    let text = |id: u64, s: &str| {
        let mut v = vec![id];
        v.extend(s.bytes().map(u64::from));
        v
    };
    assert_eq!(
        in_block(&records, 14)[3..],
        [
            (6, 1, text(5, "a")),
            (7, 2, text(0, "entry")),
            (7, 2, text(1, "exit")),
            (6, 1, text(6, "sum")),
        ]
    );
    // The load's attachment: instruction 1, kind 1, node 1.
    assert_eq!(in_block(&records, 16), vec![(3, 11, vec![1, 1, 1])]);
}

#[test]
fn symbol_table_abbreviation_follows_the_characters() {
    let mut m = sample();
    m.globals[0].common.name = b"g$".to_vec();
    m.functions[1].common.name = "h\u{e9}".as_bytes().to_vec();
    let bytes = write_module(&m).unwrap();
    let (records, _) = walk(&bytes);
    // Module VST entries, sorted: f (char6), g$ (7-bit), hé (8-bit, whose
    // abbreviation spells the code as a 3-bit field).
    let module_vst: Vec<_> = records
        .iter()
        .filter(|r| r.0 == 14 && r.2 == 1 && r.3[0] <= 2)
        .map(|r| (r.1, r.3[0]))
        .collect();
    assert_eq!(module_vst, vec![(6, 1), (5, 0), (4, 2)]);
}

#[test]
fn the_symbol_order_read_is_kept_when_it_names_the_same_values() {
    let mut m = sample();
    // Reverse order, as an older dxc's hash table might have it.
    m.symbol_order = vec![ValueId(2), ValueId(1), ValueId(0)];
    let bytes = write_module(&m).unwrap();
    let read = Module::parse(&bytes).unwrap();
    assert_eq!(read.symbol_order, m.symbol_order);
    // An order that does not name the same values is ignored: sorted.
    m.symbol_order = vec![ValueId(2)];
    let read = Module::parse(&write_module(&m).unwrap()).unwrap();
    assert_eq!(read.symbol_order, vec![ValueId(1), ValueId(0), ValueId(2)]);
}

#[test]
fn use_lists_are_written_where_dxc_writes_them() {
    let mut m = sample();
    let list = dxcopy_read::dxil::UseList {
        block: false,
        fields: vec![1, 0, 4],
    };
    m.use_lists.push(list.clone());
    m.functions[0]
        .body
        .as_mut()
        .unwrap()
        .use_lists
        .push(list.clone());
    let bytes = write_module(&m).unwrap();
    let read = Module::parse(&bytes).unwrap();
    assert_eq!(read.use_lists, vec![list.clone()]);
    assert_eq!(
        read.functions[0].body.as_ref().unwrap().use_lists,
        vec![list]
    );
    assert_eq!(write_module(&read).unwrap(), bytes);
}

#[test]
fn what_dxc_never_writes_is_an_error_naming_the_record() {
    let mut m = sample();
    let body = m.functions[0].body.as_mut().unwrap();
    if let InstructionKind::Call { explicit_type, .. } = &mut body.blocks[0].instructions[2].kind {
        *explicit_type = false;
    }
    let e = write_module(&m).unwrap_err();
    assert!(
        matches!(&e, ModuleWriteError::Unwritable { record: "INST_CALL", place, .. } if place == "function @f"),
        "{e}"
    );
    let mut m = sample();
    m.metadata.push(Metadata::Unknown {
        code: 41,
        fields: vec![],
    });
    let e = write_module(&m).unwrap_err();
    assert!(
        matches!(
            e,
            ModuleWriteError::Unwritable {
                record: "METADATA",
                ..
            }
        ),
        "{e}"
    );
    let mut m = sample();
    m.dependent_libraries.push(b"dxil-ms-dx".to_vec());
    assert!(matches!(
        write_module(&m).unwrap_err(),
        ModuleWriteError::Unwritable {
            record: "DEPLIB",
            ..
        }
    ));
    let mut m = sample();
    m.types.push(Type::OpaquePointer { address_space: 0 });
    assert!(matches!(
        write_module(&m).unwrap_err(),
        ModuleWriteError::Unwritable {
            record: "TYPE_CODE_OPAQUE_POINTER",
            ..
        }
    ));
}

#[test]
fn write_program_keeps_the_header_and_the_bytes_after_the_bitcode() {
    let m = sample();
    let bitcode = write_module(&m).unwrap();
    let mut template = dxcopy_read::program::build_program_data(
        6,
        5,
        dxcopy_read::ShaderKind::Compute,
        1,
        5,
        b"BC\xc0\xde\x00\x00\x00\x00",
    );
    // Eight bytes after the bitcode (an Xbox part carries data there).
    template.extend_from_slice(b"trailing");
    let words = u32::from_le_bytes(template[4..8].try_into().unwrap()) + 2;
    template[4..8].copy_from_slice(&words.to_le_bytes());
    let part = write_program(&template, &m).unwrap();
    let program = Program::parse_data(&part, 0).unwrap();
    assert_eq!(program.bitcode, bitcode.as_slice());
    assert_eq!(
        (program.model_major, program.model_minor, program.dxil_minor),
        (6, 5, 5)
    );
    assert_eq!(program.size_in_words as usize * 4, part.len());
    assert!(part.ends_with(b"trailing"));
    assert!(write_program(b"not a program", &m).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Modules of random constants, globals, metadata and names: written,
    /// read back as the same model, written again as the same bytes.
    #[test]
    fn generated_modules_write_read_write(
        ints in proptest::collection::vec((prop_oneof![Just(1u32), Just(8), Just(16), Just(32), Just(64)], any::<i64>()), 0..12),
        strings in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..12), 0..6),
        names in proptest::collection::vec("[a-zA-Z0-9._$]{1,8}", 0..5),
        distinct in any::<bool>(),
    ) {
        let mut m = sample();
        // Module constants after the sample's two, each of its width
        // (truncated and sign-extended as the reader models them).
        for (bits, v) in &ints {
            let ty = match m.types.iter().position(|t| *t == Type::Integer { bits: *bits }) {
                Some(i) => TypeId(i as u32),
                None => {
                    m.types.push(Type::Integer { bits: *bits });
                    TypeId(m.types.len() as u32 - 1)
                }
            };
            let shift = 64 - bits;
            let v = (v << shift) >> shift;
            let kind = if v == 0 { ConstantKind::Null } else { ConstantKind::Integer(v) };
            m.constants.push(Constant { ty, kind });
            m.values.push(ModuleValue::Constant(m.constants.len() as u32 - 1));
        }
        // Function values come after the module's: rebase the body.
        let shift = m.values.len() as u32 - m.functions[0].body.as_ref().unwrap().first_value;
        rebase(m.functions[0].body.as_mut().unwrap(), shift);
        for s in &strings {
            m.metadata.push(Metadata::String(s.clone()));
        }
        let last = MetadataId(m.metadata.len() as u32 - 1);
        m.metadata.push(Metadata::Node { distinct, operands: vec![Some(last), None] });
        let mut seen = std::collections::HashSet::new();
        for (i, name) in names.iter().enumerate() {
            if seen.insert(name.clone()) && name != "f" && name != "h" {
                m.named_metadata.push(NamedMetadata {
                    name: name.as_bytes().to_vec(),
                    operands: vec![MetadataId(m.metadata.len() as u32 - 1)],
                });
            }
            if i == 0 && name != "f" && name != "h" {
                m.globals[0].common.name = name.as_bytes().to_vec();
            }
        }
        let bytes = write_module(&m).unwrap();
        let read = Module::parse(&bytes).unwrap();
        prop_assert_eq!(without_order(read.clone()), m);
        prop_assert_eq!(write_module(&read).unwrap(), bytes);
    }
}

/// Moves a body's local value IDs up by `shift` (module values were added).
fn rebase(body: &mut FunctionBody, shift: u32) {
    let first = body.first_value;
    let up = |v: &mut ValueId| {
        if v.0 >= first {
            v.0 += shift;
        }
    };
    let op = |o: &mut Operand| {
        if let Operand::Value(v) = o {
            up(v);
        }
    };
    body.first_value += shift;
    for a in &mut body.args {
        up(&mut a.value);
    }
    for b in &mut body.blocks {
        for i in &mut b.instructions {
            if let Some(v) = &mut i.value {
                up(v);
            }
            match &mut i.kind {
                InstructionKind::BinOp { lhs, rhs, .. } => {
                    op(lhs);
                    op(rhs);
                }
                InstructionKind::Ret { value: Some(v) } => op(v),
                _ => {}
            }
        }
    }
}
