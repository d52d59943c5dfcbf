use super::*;
use crate::dxil::model::{BinOpFlags, BlockId, FastMathFlags, Operand, Predicate};
use crate::dxil::test_module::{call, push, Builder};

fn v(value: ValueId) -> Operand {
    Operand::Value(value)
}

/// A compute-like module with one function of two blocks: an alloca'd
/// array, a static and a groupshared array, arithmetic of each kind, three
/// DXIL operations and a conditional branch.
fn module() -> Module {
    let mut b = Builder::new();
    let float = b.float();
    let i32_ty = b.int_ty(32);
    let i1 = b.int_ty(1);
    let void = b.ty(Type::Void);
    let floats4 = b.array(4, float);
    let ints8 = b.array(8, i32_ty);
    let statics = b.global("arr", ints8, 0, Linkage::Internal, false);
    let shared = b.global("gs", floats4, 3, Linkage::External, false);
    // A constant array is not counted.
    b.global("table", ints8, 0, Linkage::Internal, true);
    let sample = b.function("dx.op.sample.f32", float, &[i32_ty], None);
    let store = b.function("dx.op.textureStore.f32", void, &[i32_ty], None);
    let barrier = b.function("dx.op.barrier", void, &[i32_ty, i32_ty], None);
    let unary_ty = b.ty(Type::Function(crate::dxil::model::FunctionType {
        vararg: false,
        ret: float,
        params: vec![i32_ty],
    }));
    let void_ty = b.ty(Type::Function(crate::dxil::model::FunctionType {
        vararg: false,
        ret: void,
        params: vec![i32_ty],
    }));
    let barrier_ty = b.ty(Type::Function(crate::dxil::model::FunctionType {
        vararg: false,
        ret: void,
        params: vec![i32_ty, i32_ty],
    }));
    let zero = b.constant(i32_ty, ConstantKind::Integer(0));
    let one = b.constant(i32_ty, ConstantKind::Integer(1));
    let op_sample = b.constant(i32_ty, ConstantKind::Integer(60));
    let op_store = b.constant(i32_ty, ConstantKind::Integer(67));
    let op_barrier = b.constant(i32_ty, ConstantKind::Integer(80));
    let one_f = b.constant(float, ConstantKind::Float(1.0f32.to_bits() as u64));
    let float_ptr = b.pointer(float);
    let int_ptr = b.pointer(i32_ty);
    let floats4_ptr = b.pointer(floats4);
    let shared_float_ptr = b.ty(Type::Pointer {
        pointee: float,
        address_space: 3,
    });
    let mut body = b.body(2);
    let binop = |op, lhs, rhs| InstructionKind::BinOp {
        op,
        lhs: v(lhs),
        rhs: v(rhs),
        flags: BinOpFlags::default(),
    };
    let gep = |source_type, operands: &[ValueId]| InstructionKind::GetElementPtr {
        inbounds: true,
        source_type,
        operands: operands.iter().copied().map(v).collect(),
    };
    let load = |pointer| InstructionKind::Load {
        pointer: v(pointer),
        alignment: 4,
        volatile: false,
        atomic: None,
    };
    let store_to = |pointer, value| InstructionKind::Store {
        pointer: v(pointer),
        value: v(value),
        alignment: 4,
        volatile: false,
        atomic: None,
    };
    let local = push(
        &mut body,
        0,
        InstructionKind::Alloca {
            allocated_type: floats4,
            size: v(one),
            alignment: 4,
            inalloca: false,
        },
        Some(floats4_ptr),
    )
    .unwrap();
    let element = push(
        &mut body,
        0,
        gep(floats4, &[local, zero, one]),
        Some(float_ptr),
    )
    .unwrap();
    push(&mut body, 0, store_to(element, one_f), None);
    let loaded = push(&mut body, 0, load(element), Some(float)).unwrap();
    push(
        &mut body,
        0,
        binop(BinOp::FAdd, loaded, loaded),
        Some(float),
    );
    push(
        &mut body,
        0,
        call(sample, unary_ty, &[op_sample]),
        Some(float),
    );
    push(&mut body, 0, call(store, void_ty, &[op_store]), None);
    push(
        &mut body,
        0,
        call(barrier, barrier_ty, &[op_barrier, one]),
        None,
    );
    let slot = push(
        &mut body,
        0,
        gep(ints8, &[statics, zero, one]),
        Some(int_ptr),
    )
    .unwrap();
    let value = push(&mut body, 0, load(slot), Some(i32_ty)).unwrap();
    let sum = push(&mut body, 0, binop(BinOp::Add, value, one), Some(i32_ty)).unwrap();
    push(&mut body, 0, binop(BinOp::UDiv, sum, one), Some(i32_ty));
    push(&mut body, 0, binop(BinOp::Shl, sum, one), Some(i32_ty));
    let test = push(
        &mut body,
        0,
        InstructionKind::Compare {
            predicate: Predicate(32),
            lhs: v(sum),
            rhs: v(one),
            fast_math: FastMathFlags::default(),
        },
        Some(i1),
    )
    .unwrap();
    push(
        &mut body,
        0,
        InstructionKind::Compare {
            predicate: Predicate(1),
            lhs: v(loaded),
            rhs: v(one_f),
            fast_math: FastMathFlags::default(),
        },
        Some(i1),
    );
    push(
        &mut body,
        0,
        InstructionKind::Cast {
            op: CastOp::SiToFp,
            value: v(sum),
        },
        Some(float),
    );
    push(
        &mut body,
        0,
        InstructionKind::CondBr {
            condition: v(test),
            if_true: BlockId(1),
            if_false: BlockId(1),
        },
        None,
    );
    let cell = push(
        &mut body,
        1,
        gep(floats4, &[shared, zero, one]),
        Some(shared_float_ptr),
    )
    .unwrap();
    push(&mut body, 1, store_to(cell, one_f), None);
    push(&mut body, 1, InstructionKind::Br { dest: BlockId(1) }, None);
    push(&mut body, 1, InstructionKind::Ret { value: None }, None);
    b.function("main", void, &[], Some(body));
    b.module
}

#[test]
fn counts_as_dxc_counts_instructions() {
    let counters = Counters::count(&module());
    assert_eq!(
        counters,
        Counters {
            array_local_bytes: 16,
            array_local_ldst: 2,
            array_static_bytes: 32,
            array_static_ldst: 1,
            array_tgsm_bytes: 16,
            array_tgsm_ldst: 1,
            barrier: 1,
            branches: 1,
            floats: 3,
            insts: 21,
            ints: 2,
            tex_norm: 1,
            tex_store: 1,
            uints: 2,
            ..Counters::default()
        }
    );
    let mut shader = ShaderDesc::new(super::super::ShaderVersion {
        kind: super::super::ShaderVersionType::Compute,
        major: 6,
        minor: 0,
    });
    counters.apply(&mut shader);
    assert_eq!(shader.instruction_count, Some(21));
    assert_eq!(shader.temp_array_count, Some(64));
    assert_eq!(shader.array_instruction_count, Some(4));
    assert_eq!(shader.dynamic_flow_control_count, Some(1));
    assert_eq!(shader.float_instruction_count, Some(3));
    assert_eq!(shader.int_instruction_count, Some(2));
    assert_eq!(shader.uint_instruction_count, Some(2));
    assert_eq!(shader.texture_normal_instructions, Some(1));
    assert_eq!(shader.texture_store_instructions, Some(1));
    assert_eq!(shader.barrier_instructions, Some(1));
    assert_eq!(shader.interlocked_instructions, Some(0));
}

#[test]
fn dx_counters_metadata_is_read_by_name() {
    let mut b = Builder::new();
    assert_eq!(Counters::from_metadata(&b.module), None);
    let insts = b.string("insts");
    let n = b.i32(42);
    let tex_load = b.string("tex_load");
    let m = b.i32(3);
    let unknown = b.string("future_counter");
    let k = b.i32(9);
    let node = b.node(vec![
        Some(insts),
        Some(n),
        Some(tex_load),
        Some(m),
        Some(unknown),
        Some(k),
    ]);
    b.named("dx.counters", vec![node]);
    assert_eq!(
        Counters::from_metadata(&b.module),
        Some(Counters {
            insts: 42,
            tex_load: 3,
            ..Counters::default()
        })
    );
}

#[test]
fn experimental_operations_are_dxil_operations() {
    // `call void @dx.op.getGroupWaveIndex(i32 -2147483647)`: opcode
    // 0x80000001 of the experimental table, an i32 whose sign bit is set.
    let mut b = Builder::new();
    let i32_ty = b.int_ty(32);
    let f = b.function("dx.op.getGroupWaveIndex", i32_ty, &[i32_ty], None);
    let fn_ty = b.ty(Type::Function(crate::dxil::model::FunctionType {
        vararg: false,
        ret: i32_ty,
        params: vec![i32_ty],
    }));
    let op = b.constant(
        i32_ty,
        ConstantKind::Integer(i64::from(0x8000_0001u32 as i32)),
    );
    let mut body = b.body(1);
    push(&mut body, 0, call(f, fn_ty, &[op]), Some(i32_ty));
    let inst = &body.blocks[0].instructions[0];
    let (opcode, args) = crate::reflect::body::dx_op(&b.module, &body, inst).unwrap();
    assert_eq!((opcode, args.len()), (0x8000_0001, 1));
    assert_eq!(
        crate::dxil::ops::lookup(opcode, None).map(|row| row.name),
        Some("GetGroupWaveIndex")
    );
}
