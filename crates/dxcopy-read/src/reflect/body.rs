//! What reflection needs from function bodies: an instruction's value
//! operands, its users, `dx.op` calls and their opcodes, integer constants
//! (dxc's `IsDxilOpFuncCallInst`, `OP::getOpCode`, LLVM's use lists).

use std::collections::HashMap;

use crate::dxil::model::{
    BlockId, ConstantKind, Function, FunctionBody, Instruction, InstructionKind, Module,
    ModuleValue, Operand, ValueId,
};

/// The prefix of every DXIL operation's function name (`OP::m_NamePrefix`).
const DX_OP_PREFIX: &[u8] = b"dx.op.";

/// The value operands of an instruction, in order (metadata operands and
/// block labels left out).
pub(super) fn operands(inst: &Instruction) -> Vec<ValueId> {
    use InstructionKind as I;
    let mut out = Vec::new();
    let mut push = |op: &Operand| {
        if let Operand::Value(v) = op {
            out.push(*v);
        }
    };
    match &inst.kind {
        I::BinOp { lhs, rhs, .. } | I::Compare { lhs, rhs, .. } => {
            push(lhs);
            push(rhs);
        }
        I::Cast { value, .. } => push(value),
        I::Select {
            condition,
            if_true,
            if_false,
        } => {
            push(condition);
            push(if_true);
            push(if_false);
        }
        I::ExtractElement { vector, index } => {
            push(vector);
            push(index);
        }
        I::InsertElement {
            vector,
            element,
            index,
        } => {
            push(vector);
            push(element);
            push(index);
        }
        I::ShuffleVector {
            first,
            second,
            mask,
        } => {
            push(first);
            push(second);
            push(mask);
        }
        I::ExtractValue { aggregate, .. } => push(aggregate),
        I::InsertValue {
            aggregate, value, ..
        } => {
            push(aggregate);
            push(value);
        }
        I::GetElementPtr { operands, .. } => operands.iter().for_each(push),
        I::Phi { incoming } => incoming.iter().for_each(|i| push(&i.value)),
        I::Ret { value } => {
            if let Some(v) = value {
                push(v);
            }
        }
        I::CondBr { condition, .. } => push(condition),
        I::Switch { condition, .. } => push(condition),
        I::IndirectBr { address, .. } => push(address),
        I::Alloca { size, .. } => push(size),
        I::Load { pointer, .. } => push(pointer),
        I::Store { pointer, value, .. } => {
            push(value);
            push(pointer);
        }
        I::CmpXchg {
            pointer,
            compare,
            new_value,
            ..
        } => {
            push(pointer);
            push(compare);
            push(new_value);
        }
        I::AtomicRmw { pointer, value, .. } => {
            push(pointer);
            push(value);
        }
        I::Call { callee, args, .. } => {
            args.iter().for_each(&mut push);
            push(callee);
        }
        I::VaArg { list, .. } => push(list),
        I::Br { .. } | I::Unreachable | I::Fence { .. } => {}
    }
    out
}

/// Where an instruction is: its block and index.
pub(super) type Site = (BlockId, u32);

/// The users of every value in a body: for each value, the instructions
/// that take it as an operand (once per instruction), in body order.
pub(super) fn users(body: &FunctionBody) -> HashMap<ValueId, Vec<Site>> {
    let mut map: HashMap<ValueId, Vec<Site>> = HashMap::new();
    for (b, block) in body.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            let site = (BlockId(b as u32), i as u32);
            let mut seen: Vec<ValueId> = Vec::new();
            for v in operands(inst) {
                if !seen.contains(&v) {
                    seen.push(v);
                    map.entry(v).or_default().push(site);
                }
            }
        }
    }
    map
}

/// The integer value of constant `id` (module or function level; a null
/// integer is 0).
pub(super) fn constant_int(module: &Module, body: &FunctionBody, id: ValueId) -> Option<i64> {
    let constant = module.constant(id).or_else(|| body.constant(id))?;
    match constant.kind {
        ConstantKind::Integer(v) => Some(v),
        // LLVM writes an integer zero as a null constant.
        ConstantKind::Null
            if matches!(
                module.ty(constant.ty),
                Some(crate::dxil::model::Type::Integer { .. })
            ) =>
        {
            Some(0)
        }
        _ => None,
    }
}

/// The function a call calls, when the callee is a function of the module.
pub(super) fn callee<'m>(module: &'m Module, inst: &Instruction) -> Option<&'m Function> {
    let InstructionKind::Call {
        callee: Operand::Value(callee),
        ..
    } = &inst.kind
    else {
        return None;
    };
    match module.value(*callee)? {
        ModuleValue::Function(i) => module.functions.get(i as usize),
        _ => None,
    }
}

/// The DXIL operation an instruction calls (a function named `dx.op.*`),
/// with its opcode (the first argument, an `i32` constant) and the
/// arguments. The experimental operations (dxc 1.9.2602 on: opcodes from
/// `0x8000_0000`, hctdb's `ExperimentalOps` table) are negative as `i32`s
/// and read as their 32 bits.
pub(super) fn dx_op<'i>(
    module: &Module,
    body: &FunctionBody,
    inst: &'i Instruction,
) -> Option<(u32, &'i [Operand])> {
    let function = callee(module, inst)?;
    if !function.name().starts_with(DX_OP_PREFIX) {
        return None;
    }
    let InstructionKind::Call { args, .. } = &inst.kind else {
        return None;
    };
    let Some(Operand::Value(opcode)) = args.first() else {
        return None;
    };
    let opcode = constant_int(module, body, *opcode)?;
    let opcode = u32::try_from(opcode)
        .ok()
        .or_else(|| i32::try_from(opcode).ok().map(|v| v as u32))?;
    Some((opcode, args))
}

/// The value of argument `index` of a call.
pub(super) fn arg(args: &[Operand], index: usize) -> Option<ValueId> {
    match args.get(index)? {
        Operand::Value(v) => Some(*v),
        Operand::Metadata(_) => None,
    }
}
