//! Unit tests of the printer: small modules built in the model, one per
//! instruction family and constant form, with the exact text LLVM 3.7 (and
//! dxc's annotation writer) prints for them.

use super::{module_text, AsmOptions};
use crate::dxil::model::*;

/// Builds a module in the model without bitcode.
#[derive(Default)]
struct Builder {
    m: Module,
}

impl Builder {
    fn ty(&mut self, t: Type) -> TypeId {
        if let Some(i) = self.m.types.iter().position(|x| *x == t) {
            return TypeId(i as u32);
        }
        self.m.types.push(t);
        TypeId(self.m.types.len() as u32 - 1)
    }
    fn void(&mut self) -> TypeId {
        self.ty(Type::Void)
    }
    fn int(&mut self, bits: u32) -> TypeId {
        self.ty(Type::Integer { bits })
    }
    fn float(&mut self) -> TypeId {
        self.ty(Type::Float)
    }
    fn ptr(&mut self, pointee: TypeId, address_space: u32) -> TypeId {
        self.ty(Type::Pointer {
            pointee,
            address_space,
        })
    }
    fn func(&mut self, ret: TypeId, params: &[TypeId]) -> TypeId {
        self.ty(Type::Function(FunctionType {
            vararg: false,
            ret,
            params: params.to_vec(),
        }))
    }
    fn named_struct(&mut self, name: &str, body: &[TypeId]) -> TypeId {
        self.m.types.push(Type::Struct(StructType {
            name: Some(name.as_bytes().to_vec()),
            packed: false,
            body: Some(body.to_vec()),
        }));
        TypeId(self.m.types.len() as u32 - 1)
    }
    fn constant(&mut self, ty: TypeId, kind: ConstantKind) -> ValueId {
        self.m.constants.push(Constant { ty, kind });
        self.m
            .values
            .push(ModuleValue::Constant(self.m.constants.len() as u32 - 1));
        ValueId(self.m.values.len() as u32 - 1)
    }
    fn i32(&mut self, v: i64) -> ValueId {
        let t = self.int(32);
        self.constant(t, ConstantKind::Integer(v))
    }
    fn i8(&mut self, v: i64) -> ValueId {
        let t = self.int(8);
        self.constant(t, ConstantKind::Integer(v))
    }
    fn f32(&mut self, v: f32) -> ValueId {
        let t = self.float();
        self.constant(t, ConstantKind::Float(u64::from(v.to_bits())))
    }
    fn common(&mut self, name: &str, linkage: Linkage) -> GlobalCommon {
        GlobalCommon {
            name: name.as_bytes().to_vec(),
            value: ValueId(self.m.values.len() as u32),
            raw_linkage: 0,
            linkage,
            visibility: Visibility::Default,
            dll_storage: DllStorage::Default,
            unnamed_addr: false,
            comdat: 0,
        }
    }
    fn function(&mut self, name: &str, fty: TypeId, attributes: u64) -> (ValueId, usize) {
        let common = self.common(name, Linkage::External);
        let value = common.value;
        let pointer_type = Some(self.ptr(fty, 0));
        self.m.functions.push(Function {
            common,
            function_type: fty,
            pointer_type,
            calling_conv: 0,
            is_declaration: true,
            attributes,
            alignment: 0,
            section: None,
            gc: None,
            prologue_data: None,
            prefix_data: None,
            personality: None,
            body: None,
        });
        self.m
            .values
            .push(ModuleValue::Function(self.m.functions.len() as u32 - 1));
        (value, self.m.functions.len() - 1)
    }
    /// A function-attribute list of one group; returns the list ID.
    fn fn_attributes(&mut self, attributes: Vec<Attribute>) -> u64 {
        let id = self.m.attribute_groups.len() as u32 + 1;
        self.m.attribute_groups.push(AttributeGroup {
            id,
            index: 0xFFFF_FFFF,
            attributes,
        });
        self.m
            .attribute_lists
            .push(AttributeList { groups: vec![id] });
        self.m.attribute_lists.len() as u64
    }
    fn md(&mut self, entry: Metadata) -> MetadataId {
        self.m.metadata.push(entry);
        MetadataId(self.m.metadata.len() as u32 - 1)
    }
    fn md_string(&mut self, s: &str) -> MetadataId {
        self.md(Metadata::String(s.as_bytes().to_vec()))
    }
    fn md_value(&mut self, value: ValueId) -> MetadataId {
        let ty = self.m.value_type(value).expect("typed value");
        self.md(Metadata::Value { ty, value })
    }
    fn md_node(&mut self, operands: &[Option<MetadataId>]) -> MetadataId {
        self.md(Metadata::Node {
            distinct: false,
            operands: operands.to_vec(),
        })
    }
    fn named(&mut self, name: &str, operands: &[MetadataId]) {
        self.m.named_metadata.push(NamedMetadata {
            name: name.as_bytes().to_vec(),
            operands: operands.to_vec(),
        });
    }
    fn text(&self) -> String {
        module_text(&self.m, &AsmOptions::default()).expect("a listing")
    }
}

/// Builds one function body, instruction by instruction.
struct Body {
    body: FunctionBody,
    block: usize,
}

impl Body {
    fn new(module: &Module, blocks: usize) -> Body {
        Body {
            body: FunctionBody {
                first_value: module.values.len() as u32,
                blocks: vec![BasicBlock::default(); blocks],
                ..FunctionBody::default()
            },
            block: 0,
        }
    }
    fn next_value(&self) -> ValueId {
        ValueId(self.body.first_value + self.body.values.len() as u32)
    }
    fn arg(&mut self, ty: TypeId, name: Option<&str>) -> ValueId {
        let value = self.next_value();
        self.body.args.push(Argument {
            ty,
            value,
            name: name.map(|n| n.as_bytes().to_vec()),
        });
        self.body
            .values
            .push(LocalValue::Argument(self.body.args.len() as u32 - 1));
        value
    }
    fn at(&mut self, block: usize) {
        self.block = block;
    }
    fn push(&mut self, kind: InstructionKind, ty: Option<TypeId>) -> Option<ValueId> {
        let block = BlockId(self.block as u32);
        let index = self.body.blocks[self.block].instructions.len() as u32;
        let value = ty.map(|_| {
            let v = self.next_value();
            self.body
                .values
                .push(LocalValue::Instruction { block, index });
            v
        });
        self.body.blocks[self.block].instructions.push(Instruction {
            kind,
            ty,
            value,
            name: None,
            debug_loc: None,
            attachments: Vec::new(),
        });
        value
    }
    fn value(&mut self, kind: InstructionKind, ty: TypeId) -> ValueId {
        self.push(kind, Some(ty)).expect("a result")
    }
    fn effect(&mut self, kind: InstructionKind) {
        self.push(kind, None);
    }
    fn last(&mut self) -> &mut Instruction {
        self.body.blocks[self.block]
            .instructions
            .last_mut()
            .expect("an instruction")
    }
}

fn v(id: ValueId) -> Operand {
    Operand::Value(id)
}

fn call(callee: ValueId, fty: TypeId, args: &[Operand]) -> InstructionKind {
    InstructionKind::Call {
        callee: v(callee),
        function_type: fty,
        args: args.to_vec(),
        attributes: 0,
        calling_conv: 0,
        tail: TailCall::None,
        fast_math: FastMathFlags::default(),
        explicit_type: true,
    }
}

#[test]
fn a_vertex_shader_as_dxc_prints_it() {
    let mut b = Builder::default();
    b.m.data_layout = Some(
        "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64".into(),
    );
    b.m.triple = Some("dxil-ms-dx".into());
    let void = b.void();
    let i32t = b.int(32);
    let i8t = b.int(8);
    let f32t = b.float();
    let main_ty = b.func(void, &[]);
    let load_ty = b.func(i32t, &[i32t, i32t, i32t, i8t, i32t]);
    let store_ty = b.func(void, &[i32t, i32t, i32t, i8t, f32t]);
    let readnone = b.fn_attributes(vec![
        Attribute::Enum(AttributeKind(20)),
        Attribute::Enum(AttributeKind(18)),
    ]);
    let nounwind = b.fn_attributes(vec![Attribute::Enum(AttributeKind(18))]);
    let (main, main_index) = b.function("main", main_ty, 0);
    let (load, _) = b.function("dx.op.loadInput.i32", load_ty, readnone);
    let (store, _) = b.function("dx.op.storeOutput.f32", store_ty, nounwind);
    let c4 = b.i32(4);
    let c5 = b.i32(5);
    let c0 = b.i32(0);
    let b0 = b.i8(0);
    let b1 = b.i8(1);
    let undef = b.constant(i32t, ConstantKind::Undef);
    let half = b.f32(0.5);
    let tenth = b.f32(0.1);
    let minus_one = b.i32(-1);

    let mut f = Body::new(&b.m, 1);
    let x = f.value(
        call(load, load_ty, &[v(c4), v(c0), v(c0), v(b0), v(undef)]),
        i32t,
    );
    let sum = f.value(
        InstructionKind::BinOp {
            op: BinOp::Add,
            lhs: v(x),
            rhs: v(minus_one),
            flags: BinOpFlags {
                nsw: true,
                ..BinOpFlags::default()
            },
        },
        i32t,
    );
    let as_float = f.value(
        InstructionKind::Cast {
            op: CastOp::SiToFp,
            value: v(sum),
        },
        f32t,
    );
    f.effect(call(
        store,
        store_ty,
        &[v(c5), v(c0), v(c0), v(b0), v(as_float)],
    ));
    f.effect(call(
        store,
        store_ty,
        &[v(c5), v(c0), v(c0), v(b1), v(half)],
    ));
    f.effect(call(
        store,
        store_ty,
        &[v(c5), v(c0), v(c0), v(b1), v(tenth)],
    ));
    f.effect(InstructionKind::Ret { value: None });
    b.m.functions[main_index].is_declaration = false;
    b.m.functions[main_index].body = Some(f.body);

    let ident = b.md_string("dxc test");
    let ident_node = b.md_node(&[Some(ident)]);
    let one = b.md_value(c5);
    let main_ref = b.md_value(main);
    let name = b.md_string("main");
    let entry = b.md_node(&[Some(main_ref), Some(name), None, Some(ident_node)]);
    let version = b.md_node(&[Some(one), Some(one)]);
    b.named("llvm.ident", &[ident_node]);
    b.named("dx.entryPoints", &[entry]);
    b.named("dx.version", &[version]);

    let want = "\
target datalayout = \"e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64\"
target triple = \"dxil-ms-dx\"

define void @main() {
  %1 = call i32 @dx.op.loadInput.i32(i32 4, i32 0, i32 0, i8 0, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %2 = add nsw i32 %1, -1
  %3 = sitofp i32 %2 to float
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %3)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float 5.000000e-01)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float 0x3FB99999A0000000)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  ret void
}

; Function Attrs: nounwind readnone
declare i32 @dx.op.loadInput.i32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #1

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!llvm.ident = !{!0}
!dx.entryPoints = !{!1}
!dx.version = !{!2}

!0 = !{!\"dxc test\"}
!1 = !{void ()* @main, !\"main\", null, !0}
!2 = !{i32 5, i32 5}
";
    assert_eq!(b.text(), want);
}

#[test]
fn blocks_labels_preds_and_phis() {
    let mut b = Builder::default();
    let void = b.void();
    let i32t = b.int(32);
    let i1 = b.int(1);
    let fty = b.func(i32t, &[i32t, i1]);
    let (_, index) = b.function("f", fty, 0);
    let _ = void;
    let c0 = b.i32(0);
    let c7 = b.i32(7);
    let mut f = Body::new(&b.m, 5);
    let n = f.arg(i32t, None);
    let flag = f.arg(i1, Some("flag"));
    // entry: br i1 %flag, label 1, label 2
    f.effect(InstructionKind::CondBr {
        condition: v(flag),
        if_true: BlockId(1),
        if_false: BlockId(2),
    });
    f.at(1);
    f.effect(InstructionKind::Switch {
        condition: v(n),
        default: BlockId(3),
        cases: vec![
            SwitchCase {
                value: c0,
                dest: BlockId(2),
            },
            SwitchCase {
                value: c7,
                dest: BlockId(3),
            },
        ],
    });
    f.at(2);
    f.effect(InstructionKind::Br { dest: BlockId(3) });
    f.at(3);
    let phi = f.value(
        InstructionKind::Phi {
            incoming: vec![
                PhiIncoming {
                    value: v(c0),
                    block: BlockId(1),
                },
                PhiIncoming {
                    value: v(n),
                    block: BlockId(2),
                },
            ],
        },
        i32t,
    );
    f.effect(InstructionKind::Ret {
        value: Some(v(phi)),
    });
    f.at(4);
    f.effect(InstructionKind::Unreachable);
    b.m.functions[index].is_declaration = false;
    b.m.functions[index].body = Some(f.body);
    let want = "
define i32 @f(i32, i1 %flag) {
  br i1 %flag, label %2, label %3

; <label>:2                                       ; preds = %1
  switch i32 %0, label %4 [
    i32 0, label %3
    i32 7, label %4
  ]

; <label>:3                                       ; preds = %2, %1
  br label %4

; <label>:4                                       ; preds = %3, %2, %2
  %5 = phi i32 [ 0, %2 ], [ %0, %3 ]
  ret i32 %5
                                                  ; No predecessors!
  unreachable
}
";
    assert_eq!(b.text(), want);
}

#[test]
fn constants_as_llvm_3_7_writes_them() {
    let mut b = Builder::default();
    let i32t = b.int(32);
    let i1 = b.int(1);
    let i8t = b.int(8);
    let f32t = b.float();
    let half = b.ty(Type::Half);
    let double = b.ty(Type::Double);
    let arr = b.ty(Type::Array {
        len: 3,
        element: i32t,
    });
    let bytes = b.ty(Type::Array {
        len: 3,
        element: i8t,
    });
    let vec4 = b.ty(Type::Vector {
        len: 2,
        element: f32t,
    });
    let st = b.ty(Type::Struct(StructType {
        name: None,
        packed: false,
        body: Some(vec![i32t, f32t]),
    }));
    let zero = b.i32(0);
    let one = b.i32(1);
    let fzero = b.f32(0.0);
    let fone = b.f32(1.0);
    let cases: Vec<(ValueId, &str)> = vec![
        (b.constant(i1, ConstantKind::Integer(-1)), "i1 true"),
        (b.constant(i1, ConstantKind::Null), "i1 false"),
        (b.constant(i32t, ConstantKind::Integer(-7)), "i32 -7"),
        (
            b.constant(half, ConstantKind::Float(0x3c00)),
            "half 0xH3C00",
        ),
        (
            b.constant(double, ConstantKind::Float(0.25f64.to_bits())),
            "double 2.500000e-01",
        ),
        (b.constant(f32t, ConstantKind::Null), "float 0.000000e+00"),
        (
            b.constant(arr, ConstantKind::Aggregate(vec![zero, zero, zero])),
            "[3 x i32] zeroinitializer",
        ),
        (
            b.constant(arr, ConstantKind::Aggregate(vec![zero, one, zero])),
            "[3 x i32] [i32 0, i32 1, i32 0]",
        ),
        (
            b.constant(arr, ConstantKind::Data(vec![1, 4, 0xffff_ffff])),
            "[3 x i32] [i32 1, i32 4, i32 -1]",
        ),
        (
            b.constant(
                bytes,
                ConstantKind::String {
                    bytes: b"a\"\n".to_vec(),
                    cstring: false,
                },
            ),
            "[3 x i8] c\"a\\22\\0A\"",
        ),
        (
            b.constant(vec4, ConstantKind::Aggregate(vec![fzero, fone])),
            "<2 x float> <float 0.000000e+00, float 1.000000e+00>",
        ),
        (
            b.constant(st, ConstantKind::Aggregate(vec![one, fone])),
            "{ i32, float } { i32 1, float 1.000000e+00 }",
        ),
        (
            b.constant(st, ConstantKind::Aggregate(vec![zero, fzero])),
            "{ i32, float } zeroinitializer",
        ),
        (b.constant(st, ConstantKind::Undef), "{ i32, float } undef"),
    ];
    // Each as a metadata operand of one node, printed in order.
    let mut operands = Vec::new();
    for (value, _) in &cases {
        operands.push(Some(b.md_value(*value)));
    }
    let node = b.md_node(&operands);
    b.named("n", &[node]);
    let text = b.text();
    let body = text
        .lines()
        .find_map(|l| l.strip_prefix("!0 = !{"))
        .and_then(|l| l.strip_suffix('}'))
        .expect("the node");
    let want: Vec<&str> = cases.iter().map(|(_, t)| *t).collect();
    assert_eq!(body, want.join(", "));
}

#[test]
fn constant_expressions_and_globals() {
    let mut b = Builder::default();
    let i32t = b.int(32);
    let arr = b.ty(Type::Array {
        len: 1,
        element: i32t,
    });
    let arr_ptr = b.ptr(arr, 0);
    let i32_ptr = b.ptr(i32t, 0);
    let shared = b.ptr(arr, 3);
    let zero = b.i32(0);
    let zeros = b.constant(arr, ConstantKind::Null);
    let common = b.common("dx.nothing.a", Linkage::Internal);
    let global = common.value;
    b.m.globals.push(GlobalVariable {
        common,
        value_type: arr,
        pointer_type: Some(arr_ptr),
        is_constant: true,
        address_space: 0,
        initializer: Some(zeros),
        alignment: 0,
        section: None,
        thread_local: ThreadLocal::NotThreadLocal,
        externally_initialized: false,
    });
    b.m.values.push(ModuleValue::Global(0));
    let common = b.common("\x01?g@@3PAHA", Linkage::External);
    b.m.globals.push(GlobalVariable {
        common,
        value_type: arr,
        pointer_type: Some(shared),
        is_constant: false,
        address_space: 3,
        initializer: Some(zeros),
        alignment: 4,
        section: None,
        thread_local: ThreadLocal::NotThreadLocal,
        externally_initialized: false,
    });
    b.m.values.push(ModuleValue::Global(1));
    let gep = b.constant(
        i32_ptr,
        ConstantKind::GetElementPtr {
            inbounds: true,
            source_type: Some(arr),
            operands: vec![global, zero, zero],
        },
    );
    let node_value = b.md_value(gep);
    let node = b.md_node(&[Some(node_value)]);
    b.named("n", &[node]);
    let want = "
@dx.nothing.a = internal constant [1 x i32] zeroinitializer
@\"\\01?g@@3PAHA\" = addrspace(3) global [1 x i32] zeroinitializer, align 4

!n = !{!0}

!0 = !{i32* getelementptr inbounds ([1 x i32], [1 x i32]* @dx.nothing.a, i32 0, i32 0)}
";
    assert_eq!(b.text(), want);
}

#[test]
fn named_struct_types_in_type_finder_order_and_unused_ones_left_out() {
    let mut b = Builder::default();
    let void = b.void();
    let i8t = b.int(8);
    let i32t = b.int(32);
    let f32t = b.float();
    let i8p = b.ptr(i8t, 0);
    let unused = b.named_struct("struct.Unused", &[i32t]);
    let handle = b.named_struct("dx.types.Handle", &[i8p]);
    let resret = b.named_struct("dx.types.ResRet.f32", &[f32t, f32t, f32t, f32t, i32t]);
    let _ = unused;
    let fty = b.func(resret, &[i32t, handle]);
    b.function("dx.op.bufferLoad.f32", fty, 0);
    let _ = void;
    let want = "
%dx.types.ResRet.f32 = type { float, float, float, float, i32 }
%dx.types.Handle = type { i8* }

declare %dx.types.ResRet.f32 @dx.op.bufferLoad.f32(i32, %dx.types.Handle)
";
    assert_eq!(b.text(), want);
}

#[test]
fn memory_vector_and_atomic_instructions() {
    let mut b = Builder::default();
    let void = b.void();
    let i32t = b.int(32);
    let i1 = b.int(1);
    let f32t = b.float();
    let arr = b.ty(Type::Array {
        len: 4,
        element: f32t,
    });
    let arr_ptr = b.ptr(arr, 0);
    let f32_ptr = b.ptr(f32t, 0);
    let i32_ptr = b.ptr(i32t, 3);
    let v4 = b.ty(Type::Vector {
        len: 4,
        element: f32t,
    });
    let st = b.ty(Type::Struct(StructType {
        name: None,
        packed: false,
        body: Some(vec![i32t, i1]),
    }));
    let fty = b.func(void, &[i32t, v4, i32_ptr]);
    let (_, index) = b.function("g", fty, 0);
    let one = b.i32(1);
    let two = b.i32(2);
    let zero = b.i32(0);
    let fone = b.f32(1.0);
    let undef_v4 = b.constant(v4, ConstantKind::Undef);
    let mask_ty = b.ty(Type::Vector {
        len: 2,
        element: i32t,
    });
    let mask = b.constant(mask_ty, ConstantKind::Data(vec![0, 3]));
    let v2 = b.ty(Type::Vector {
        len: 2,
        element: f32t,
    });
    let mut f = Body::new(&b.m, 1);
    let i = f.arg(i32t, Some("i"));
    let vec = f.arg(v4, Some("v"));
    let shared = f.arg(i32_ptr, Some("s"));
    let slot = f.value(
        InstructionKind::Alloca {
            allocated_type: arr,
            size: v(one),
            alignment: 4,
            inalloca: false,
        },
        arr_ptr,
    );
    let elem = f.value(
        InstructionKind::GetElementPtr {
            inbounds: true,
            source_type: arr,
            operands: vec![v(slot), v(zero), v(i)],
        },
        f32_ptr,
    );
    f.effect(InstructionKind::Store {
        pointer: v(elem),
        value: v(fone),
        alignment: 4,
        volatile: false,
        atomic: None,
    });
    let loaded = f.value(
        InstructionKind::Load {
            pointer: v(elem),
            alignment: 4,
            volatile: true,
            atomic: None,
        },
        f32t,
    );
    let sum = f.value(
        InstructionKind::BinOp {
            op: BinOp::FAdd,
            lhs: v(loaded),
            rhs: v(fone),
            flags: BinOpFlags {
                fast_math: FastMathFlags(1),
                ..BinOpFlags::default()
            },
        },
        f32t,
    );
    let cmp = f.value(
        InstructionKind::Compare {
            predicate: Predicate(4),
            lhs: v(sum),
            rhs: v(fone),
            fast_math: FastMathFlags(2 | 8),
        },
        i1,
    );
    let picked = f.value(
        InstructionKind::Select {
            condition: v(cmp),
            if_true: v(sum),
            if_false: v(fone),
        },
        f32t,
    );
    let inserted = f.value(
        InstructionKind::InsertElement {
            vector: v(undef_v4),
            element: v(picked),
            index: v(zero),
        },
        v4,
    );
    f.value(
        InstructionKind::ShuffleVector {
            first: v(inserted),
            second: v(vec),
            mask: v(mask),
        },
        v2,
    );
    f.value(
        InstructionKind::ExtractElement {
            vector: v(vec),
            index: v(two),
        },
        f32t,
    );
    let pair = f.value(
        InstructionKind::CmpXchg {
            pointer: v(shared),
            compare: v(zero),
            new_value: v(one),
            volatile: false,
            weak: false,
            success_ordering: AtomicOrdering::SeqCst,
            failure_ordering: AtomicOrdering::SeqCst,
            scope: SynchScope::CrossThread,
        },
        st,
    );
    f.value(
        InstructionKind::ExtractValue {
            aggregate: v(pair),
            indices: vec![0],
        },
        i32t,
    );
    f.value(
        InstructionKind::AtomicRmw {
            op: RmwOp::Add,
            pointer: v(shared),
            value: v(one),
            volatile: false,
            ordering: AtomicOrdering::SeqCst,
            scope: SynchScope::CrossThread,
        },
        i32t,
    );
    f.effect(InstructionKind::Ret { value: None });
    b.m.functions[index].is_declaration = false;
    b.m.functions[index].body = Some(f.body);
    let want = "
define void @g(i32 %i, <4 x float> %v, i32 addrspace(3)* %s) {
  %1 = alloca [4 x float], align 4
  %2 = getelementptr inbounds [4 x float], [4 x float]* %1, i32 0, i32 %i
  store float 1.000000e+00, float* %2, align 4
  %3 = load volatile float, float* %2, align 4
  %4 = fadd fast float %3, 1.000000e+00
  %5 = fcmp nnan nsz olt float %4, 1.000000e+00
  %6 = select i1 %5, float %4, float 1.000000e+00
  %7 = insertelement <4 x float> undef, float %6, i32 0
  %8 = shufflevector <4 x float> %7, <4 x float> %v, <2 x i32> <i32 0, i32 3>
  %9 = extractelement <4 x float> %v, i32 2
  %10 = cmpxchg i32 addrspace(3)* %s, i32 0, i32 1 seq_cst seq_cst
  %11 = extractvalue { i32, i1 } %10, 0
  %12 = atomicrmw add i32 addrspace(3)* %s, i32 1 seq_cst
  ret void
}
";
    assert_eq!(b.text(), want);
}

#[test]
fn annotate_handle_gets_the_resource_comment() {
    let mut b = Builder::default();
    let i32t = b.int(32);
    let i8t = b.int(8);
    let i8p = b.ptr(i8t, 0);
    let handle = b.named_struct("dx.types.Handle", &[i8p]);
    let props = b.named_struct("dx.types.ResourceProperties", &[i32t, i32t]);
    let fty = b.func(handle, &[i32t, handle, props]);
    let (annotate, _) = b.function("dx.op.annotateHandle", fty, 0);
    let user_ty = b.func(handle, &[handle]);
    let (_, index) = b.function("h", user_ty, 0);
    let op = b.i32(216);
    let w0 = b.i32(4098);
    let w1 = b.i32(1033);
    let p = b.constant(props, ConstantKind::Aggregate(vec![w0, w1]));
    let mut f = Body::new(&b.m, 1);
    let raw = f.arg(handle, None);
    let h = f.value(call(annotate, fty, &[v(op), v(raw), v(p)]), handle);
    f.effect(InstructionKind::Ret { value: Some(v(h)) });
    b.m.functions[index].is_declaration = false;
    b.m.functions[index].body = Some(f.body);
    let text = b.text();
    assert!(
        text.contains("  %2 = call %dx.types.Handle @dx.op.annotateHandle(i32 216, %dx.types.Handle %0, %dx.types.ResourceProperties { i32 4098, i32 1033 })  ; AnnotateHandle(res,props)  resource: RWTexture2D<4xF32>\n"),
        "{text}"
    );
}

#[test]
fn debug_locations_are_uniqued_nodes_with_line_comments() {
    let mut b = Builder::default();
    let void = b.void();
    let fty = b.func(void, &[]);
    let (_, index) = b.function("main", fty, 0);
    let file_name = b.md_string("a.hlsl");
    let dir = b.md_string("");
    let file = b.md(Metadata::Debug(DebugNode {
        kind: DebugNodeKind::File,
        distinct: false,
        fields: vec![0, u64::from(file_name.0) + 1, u64::from(dir.0) + 1],
    }));
    let name = b.md_string("main");
    let subprogram = b.md(Metadata::Debug(DebugNode {
        kind: DebugNodeKind::Subprogram,
        distinct: true,
        fields: vec![
            1,
            u64::from(file.0) + 1,
            u64::from(name.0) + 1,
            0,
            u64::from(file.0) + 1,
            3,
            0,
            0,
            1,
            3,
            0,
            0,
            0,
            256,
            0,
            0,
            0,
            0,
            0,
        ],
    }));
    b.m.metadata_kinds.push(MetadataKind {
        id: 0,
        name: b"dbg".to_vec(),
    });
    let mut f = Body::new(&b.m, 1);
    let loc = DebugLoc {
        line: 5,
        column: 7,
        scope: Some(subprogram),
        inlined_at: None,
    };
    f.effect(InstructionKind::Ret { value: None });
    f.last().debug_loc = Some(loc);
    b.m.functions[index].is_declaration = false;
    b.m.functions[index].body = Some(f.body);
    let want = "
define void @main() {
  ret void, !dbg !0 ; line:5 col:7
}

!0 = !DILocation(line: 5, column: 7, scope: !1)
!1 = distinct !DISubprogram(name: \"main\", scope: !2, file: !2, line: 3, isLocal: false, isDefinition: true, scopeLine: 3, flags: DIFlagPrototyped, isOptimized: false)
!2 = !DIFile(filename: \"a.hlsl\", directory: \"\")
";
    assert_eq!(b.text(), want);
    let old = module_text(&b.m, &AsmOptions::for_release(Some((1, 4, 1907)))).expect("a listing");
    assert!(old.contains("  ret void, !dbg !0\n"), "{old}");
}

#[test]
fn types_sharing_parts_at_every_level_hit_the_budget() {
    let mut b = Builder::default();
    let mut ty = b.int(32);
    for _ in 0..40 {
        ty = b.ty(Type::Struct(StructType {
            name: None,
            packed: false,
            body: Some(vec![ty, ty]),
        }));
    }
    let undef = b.constant(ty, ConstantKind::Undef);
    let value = b.md_value(undef);
    let node = b.md_node(&[Some(value)]);
    b.named("n", &[node]);
    assert!(matches!(
        module_text(&b.m, &AsmOptions::default()),
        Err(super::AsmError::TooLarge { .. })
    ));
    // Streamed, the same error; nothing is written past the budget (the
    // types print before the first piece is full).
    let mut streamed = Vec::new();
    let result = super::write_module_to(&b.m, &AsmOptions::default(), &mut streamed).unwrap();
    assert!(matches!(result, Err(super::AsmError::TooLarge { .. })));
    assert!(
        streamed.is_empty(),
        "{}",
        String::from_utf8_lossy(&streamed)
    );
}
