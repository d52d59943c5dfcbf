//! DXIL instruction counts as dxc reports them in `D3D12_SHADER_DESC`
//! (`DxilShaderReflection::InitDesc` reads `DxilCounters`): the module's
//! `dx.counters` metadata, which dxc (since 2020, #2930) computes at compile
//! time with `CountInstructions` (lib/DXIL/DxilCounters.cpp) and writes into
//! the reflection module (the STAT part). Where a module has no
//! `dx.counters`, dxcopy runs the same count over the DXIL module's function
//! bodies (docs/reflection.md § DXIL, "Instruction counts").

use std::collections::HashMap;

use super::body;
use super::ShaderDesc;
use crate::dxil::metadata::layout::DataLayout;
use crate::dxil::model::{
    BinOp, CastOp, ConstantKind, FunctionBody, InstructionKind, Linkage, LocalValue, Module,
    ModuleValue, Type, TypeId, ValueId,
};

/// Address space of thread-group shared memory (`DXIL::kTGSMAddrSpace`).
const TGSM_ADDRESS_SPACE: u32 = 3;

/// dxc's `DxilCounters`: one counter per name of `dx.counters`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// `array_local_bytes`: bytes of array allocas.
    pub array_local_bytes: u32,
    /// `array_local_ldst`: loads and stores into array allocas.
    pub array_local_ldst: u32,
    /// `array_static_bytes`: bytes of static global arrays.
    pub array_static_bytes: u32,
    /// `array_static_ldst`: loads and stores into static global arrays.
    pub array_static_ldst: u32,
    /// `array_tgsm_bytes`: bytes of groupshared arrays.
    pub array_tgsm_bytes: u32,
    /// `array_tgsm_ldst`: loads and stores into groupshared arrays.
    pub array_tgsm_ldst: u32,
    /// `atomic`: atomic operations.
    pub atomic: u32,
    /// `barrier`: barriers.
    pub barrier: u32,
    /// `branches`: conditional branches.
    pub branches: u32,
    /// `fence`: fences.
    pub fence: u32,
    /// `floats`: floating-point arithmetic.
    pub floats: u32,
    /// `gs_cut`: cut operations.
    pub gs_cut: u32,
    /// `gs_emit`: emit operations.
    pub gs_emit: u32,
    /// `insts`: every instruction of every defined function.
    pub insts: u32,
    /// `ints`: signed integer arithmetic.
    pub ints: u32,
    /// `sig_ld`: signature loads.
    pub sig_ld: u32,
    /// `sig_st`: signature stores.
    pub sig_st: u32,
    /// `tex_bias`: biased samples.
    pub tex_bias: u32,
    /// `tex_cmp`: comparison samples and gathers.
    pub tex_cmp: u32,
    /// `tex_grad`: gradient samples.
    pub tex_grad: u32,
    /// `tex_load`: texture and buffer loads.
    pub tex_load: u32,
    /// `tex_norm`: other samples and gathers.
    pub tex_norm: u32,
    /// `tex_store`: texture and buffer stores.
    pub tex_store: u32,
    /// `uints`: unsigned integer and bitwise arithmetic.
    pub uints: u32,
}

impl Counters {
    /// The counter named `name` in `dx.counters`.
    fn slot(&mut self, name: &[u8]) -> Option<&mut u32> {
        Some(match name {
            b"array_local_bytes" => &mut self.array_local_bytes,
            b"array_local_ldst" => &mut self.array_local_ldst,
            b"array_static_bytes" => &mut self.array_static_bytes,
            b"array_static_ldst" => &mut self.array_static_ldst,
            b"array_tgsm_bytes" => &mut self.array_tgsm_bytes,
            b"array_tgsm_ldst" => &mut self.array_tgsm_ldst,
            b"atomic" => &mut self.atomic,
            b"barrier" => &mut self.barrier,
            b"branches" => &mut self.branches,
            b"fence" => &mut self.fence,
            b"floats" => &mut self.floats,
            b"gs_cut" => &mut self.gs_cut,
            b"gs_emit" => &mut self.gs_emit,
            b"insts" => &mut self.insts,
            b"ints" => &mut self.ints,
            b"sig_ld" => &mut self.sig_ld,
            b"sig_st" => &mut self.sig_st,
            b"tex_bias" => &mut self.tex_bias,
            b"tex_cmp" => &mut self.tex_cmp,
            b"tex_grad" => &mut self.tex_grad,
            b"tex_load" => &mut self.tex_load,
            b"tex_norm" => &mut self.tex_norm,
            b"tex_store" => &mut self.tex_store,
            b"uints" => &mut self.uints,
            _ => return None,
        })
    }

    /// The module's `dx.counters` (`DxilMDHelper::LoadDxilCounters`: one
    /// node of name/value pairs; unknown names are skipped); `None` without
    /// it.
    pub fn from_metadata(module: &Module) -> Option<Counters> {
        let named = module.named_metadata(b"dx.counters")?;
        let node = module.metadata_node(*named.operands.first()?)?;
        let mut counters = Counters::default();
        for pair in node.chunks(2) {
            let (Some(Some(name)), Some(Some(value))) = (pair.first(), pair.get(1)) else {
                continue;
            };
            let (Some(name), Some(value)) =
                (module.metadata_string(*name), module.metadata_int(*value))
            else {
                continue;
            };
            if let Some(slot) = counters.slot(name) {
                *slot = value as u32;
            }
        }
        Some(counters)
    }

    /// dxc's `CountInstructions` over the module's function bodies.
    pub fn count(module: &Module) -> Counters {
        let mut counters = Counters::default();
        let layout = DataLayout::of(module);
        let mut globals: HashMap<ValueId, PointerInfo> = HashMap::new();
        for global in &module.globals {
            let info = pointer_info(module, None, global.common.value, &mut globals, 0);
            if info.is_array {
                let size = layout
                    .alloc_size(module, global.value_type)
                    .map_or(0, |s| s as u32);
                match info.memory {
                    Memory::Static => {
                        counters.array_static_bytes = counters.array_static_bytes.wrapping_add(size)
                    }
                    Memory::Tgsm => {
                        counters.array_tgsm_bytes = counters.array_tgsm_bytes.wrapping_add(size)
                    }
                    _ => {}
                }
            }
        }
        for function in &module.functions {
            let Some(body) = function.body.as_ref().filter(|_| !function.is_declaration) else {
                continue;
            };
            let mut locals = globals.clone();
            for inst in body.blocks.iter().flat_map(|b| &b.instructions) {
                counters.insts = counters.insts.wrapping_add(1);
                match &inst.kind {
                    InstructionKind::Alloca { allocated_type, .. } => {
                        if matches!(module.ty(*allocated_type), Some(Type::Array { .. })) {
                            let size = layout
                                .alloc_size(module, *allocated_type)
                                .map_or(0, |s| s as u32);
                            counters.array_local_bytes =
                                counters.array_local_bytes.wrapping_add(size);
                        }
                    }
                    InstructionKind::Call { .. } => {
                        if let Some((opcode, _)) = body::dx_op(module, body, inst) {
                            counters.count_dxil_op(opcode);
                        }
                    }
                    InstructionKind::Load { pointer, .. }
                    | InstructionKind::Store { pointer, .. } => {
                        let crate::dxil::model::Operand::Value(pointer) = pointer else {
                            continue;
                        };
                        let info = pointer_info(module, Some(body), *pointer, &mut locals, 0);
                        if info.is_array {
                            let slot = match info.memory {
                                Memory::Alloca => &mut counters.array_local_ldst,
                                Memory::Static => &mut counters.array_static_ldst,
                                Memory::Tgsm => &mut counters.array_tgsm_ldst,
                                Memory::Unknown => continue,
                            };
                            *slot = slot.wrapping_add(1);
                        }
                    }
                    InstructionKind::CondBr { .. } => {
                        counters.branches = counters.branches.wrapping_add(1)
                    }
                    kind => counters.count_llvm_op(kind),
                }
            }
        }
        counters
    }

    /// `CountDxilOp`: the DXIL operations of each counter (hctdb's
    /// `counters` of each operation, as DxilCounters.cpp lists them).
    fn count_dxil_op(&mut self, op: u32) {
        let bump = |hit: bool, slot: &mut u32| {
            if hit {
                *slot = slot.wrapping_add(1);
            }
        };
        bump(op == 70 || (78..=79).contains(&op), &mut self.atomic);
        bump(op == 80 || (244..=246).contains(&op), &mut self.barrier);
        bump(
            (6..=29).contains(&op)
                || (35..=36).contains(&op)
                || op == 47
                || (54..=56).contains(&op)
                || op == 162
                || op == 311,
            &mut self.floats,
        );
        bump((98..=99).contains(&op), &mut self.gs_cut);
        bump(op == 97 || op == 99, &mut self.gs_emit);
        bump(
            (37..=38).contains(&op)
                || op == 41
                || op == 48
                || op == 51
                || op == 163
                || (309..=310).contains(&op),
            &mut self.ints,
        );
        bump(op == 4 || (103..=104).contains(&op), &mut self.sig_ld);
        bump(
            op == 5 || op == 106 || (171..=172).contains(&op),
            &mut self.sig_st,
        );
        bump(op == 61, &mut self.tex_bias);
        bump(
            (64..=65).contains(&op) || op == 74 || op == 224 || (254..=255).contains(&op),
            &mut self.tex_cmp,
        );
        bump(op == 63, &mut self.tex_grad);
        bump(
            op == 66 || op == 68 || op == 139 || op == 303,
            &mut self.tex_load,
        );
        bump(
            op == 60 || op == 62 || op == 73 || op == 223,
            &mut self.tex_norm,
        );
        bump(
            op == 67
                || op == 69
                || op == 140
                || (174..=177).contains(&op)
                || op == 225
                || op == 304,
            &mut self.tex_store,
        );
        bump(
            (30..=34).contains(&op)
                || (39..=40).contains(&op)
                || (42..=45).contains(&op)
                || (49..=50).contains(&op)
                || (52..=53).contains(&op)
                || op == 164
                || (309..=310).contains(&op),
            &mut self.uints,
        );
    }

    /// `CountLlvmOp`: LLVM instructions by opcode (the rest count nothing).
    fn count_llvm_op(&mut self, kind: &InstructionKind) {
        use InstructionKind as I;
        let slot = match kind {
            I::CmpXchg { .. } | I::AtomicRmw { .. } => &mut self.atomic,
            I::Fence { .. } => &mut self.fence,
            I::Compare { predicate, .. } if predicate.is_float() => &mut self.floats,
            I::Compare { .. } => &mut self.ints,
            I::BinOp { op, .. } => match op {
                BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem => {
                    &mut self.floats
                }
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::SDiv | BinOp::SRem | BinOp::AShr => {
                    &mut self.ints
                }
                BinOp::UDiv
                | BinOp::URem
                | BinOp::Shl
                | BinOp::LShr
                | BinOp::And
                | BinOp::Or
                | BinOp::Xor => &mut self.uints,
            },
            I::Cast { op, .. } => match op {
                CastOp::FpToUi
                | CastOp::FpToSi
                | CastOp::UiToFp
                | CastOp::SiToFp
                | CastOp::FpTrunc
                | CastOp::FpExt => &mut self.floats,
                CastOp::Trunc | CastOp::SExt => &mut self.ints,
                CastOp::ZExt => &mut self.uints,
                _ => return,
            },
            _ => return,
        };
        *slot = slot.wrapping_add(1);
    }

    /// The `D3D12_SHADER_DESC` counts dxc fills from the counters
    /// (`InitDesc`).
    pub(super) fn apply(&self, shader: &mut ShaderDesc) {
        shader.instruction_count = Some(self.insts);
        shader.temp_array_count = Some(
            self.array_local_bytes
                .wrapping_add(self.array_static_bytes)
                .wrapping_add(self.array_tgsm_bytes),
        );
        shader.dynamic_flow_control_count = Some(self.branches);
        shader.array_instruction_count = Some(
            self.array_local_ldst
                .wrapping_add(self.array_static_ldst)
                .wrapping_add(self.array_tgsm_ldst),
        );
        shader.float_instruction_count = Some(self.floats);
        shader.int_instruction_count = Some(self.ints);
        shader.uint_instruction_count = Some(self.uints);
        shader.texture_normal_instructions = Some(self.tex_norm);
        shader.texture_load_instructions = Some(self.tex_load);
        shader.texture_comp_instructions = Some(self.tex_cmp);
        shader.texture_bias_instructions = Some(self.tex_bias);
        shader.texture_gradient_instructions = Some(self.tex_grad);
        shader.cut_instruction_count = Some(self.gs_cut);
        shader.emit_instruction_count = Some(self.gs_emit);
        shader.barrier_instructions = Some(self.barrier);
        shader.interlocked_instructions = Some(self.atomic);
        shader.texture_store_instructions = Some(self.tex_store);
    }
}

/// Where a pointer points (`PointerInfo::MemType`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Memory {
    #[default]
    Unknown,
    Static,
    Tgsm,
    Alloca,
}

/// dxc's `PointerInfo`: the memory a pointer is into, and whether it points
/// to an array.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct PointerInfo {
    memory: Memory,
    is_array: bool,
}

/// dxc's `GetPointerInfo`: a global variable (groupshared, or a non-constant
/// internal global in address space 0: static), an alloca, or what a GEP,
/// bitcast or address-space cast is of (its array-ness included).
fn pointer_info(
    module: &Module,
    body: Option<&FunctionBody>,
    value: ValueId,
    cache: &mut HashMap<ValueId, PointerInfo>,
    depth: u32,
) -> PointerInfo {
    if let Some(info) = cache.get(&value) {
        return *info;
    }
    let pointee = |ty: Option<TypeId>| match ty.and_then(|t| module.ty(t)) {
        Some(Type::Pointer { pointee, .. }) => Some(*pointee),
        _ => None,
    };
    let is_array = pointee(module.value_type_in(body, value))
        .is_some_and(|p| matches!(module.ty(p), Some(Type::Array { .. })));
    let mut info = PointerInfo {
        memory: Memory::Unknown,
        is_array,
    };
    let base: Option<ValueId> = match module.value(value) {
        Some(ModuleValue::Global(i)) => {
            if let Some(global) = module.globals.get(i as usize) {
                if global.address_space == TGSM_ADDRESS_SPACE {
                    info.memory = Memory::Tgsm;
                } else if !global.is_constant
                    && global.common.linkage == Linkage::Internal
                    && global.address_space == 0
                {
                    info.memory = Memory::Static;
                }
            }
            None
        }
        Some(ModuleValue::Constant(_)) => match module.constant(value).map(|c| &c.kind) {
            Some(ConstantKind::GetElementPtr { operands, .. }) => operands.first().copied(),
            Some(ConstantKind::Cast {
                op: CastOp::BitCast,
                value,
            }) => Some(*value),
            _ => None,
        },
        Some(_) => None,
        None => match body.and_then(|b| Some((b, b.local(value)?))) {
            Some((b, LocalValue::Instruction { block, index })) => {
                match b.instruction(block, index).map(|i| &i.kind) {
                    Some(InstructionKind::Alloca { .. }) => {
                        info.memory = Memory::Alloca;
                        None
                    }
                    Some(InstructionKind::GetElementPtr { operands, .. }) => {
                        match operands.first() {
                            Some(crate::dxil::model::Operand::Value(v)) => Some(*v),
                            _ => None,
                        }
                    }
                    Some(InstructionKind::Cast {
                        op: CastOp::BitCast | CastOp::AddrSpaceCast,
                        value: crate::dxil::model::Operand::Value(v),
                    }) => Some(*v),
                    _ => None,
                }
            }
            Some((b, LocalValue::Constant(i))) => {
                match b.constants.get(i as usize).map(|c| &c.kind) {
                    Some(ConstantKind::GetElementPtr { operands, .. }) => operands.first().copied(),
                    Some(ConstantKind::Cast {
                        op: CastOp::BitCast,
                        value,
                    }) => Some(*value),
                    _ => None,
                }
            }
            _ => None,
        },
    };
    if let Some(base) = base {
        if depth < 64 {
            info = pointer_info(module, body, base, cache, depth + 1);
        }
    }
    cache.insert(value, info);
    info
}

#[cfg(test)]
mod tests;
