//! Constant-buffer usage of modules that do not record it (validator
//! before 1.5), found as dxc finds it (`DxilShaderReflection::
//! SetCBufferUsage`, `DxilLibraryReflection::SetCBufferUsage`): the byte
//! offsets the function bodies load from each cbuffer, through
//! `cbufferLoadLegacy` (16-byte rows, then the `extractvalue` index times
//! the element size, through `phi` chains), `cbufferLoad` and
//! `annotateHandle`; a variable no load falls in is not used.

use std::collections::HashMap;

use super::body::{self, Site};
use super::{BufferDesc, VariableFlags};
use crate::dxil::model::{
    BinOp, ConstantKind, FunctionBody, Instruction, InstructionKind, Module, Operand, Type, ValueId,
};

/// `CBufferLoad`.
const OP_CBUFFER_LOAD: u32 = 58;
/// `CBufferLoadLegacy`.
const OP_CBUFFER_LOAD_LEGACY: u32 = 59;
/// `CreateHandleForLib`.
const OP_CREATE_HANDLE_FOR_LIB: u32 = 160;
/// `AnnotateHandle`.
const OP_ANNOTATE_HANDLE: u32 = 216;
/// `DXIL::ResourceClass::CBuffer`.
const CBUFFER_CLASS: i64 = 2;

/// One function body with its use lists.
struct Scan<'a> {
    module: &'a Module,
    body: &'a FunctionBody,
    users: HashMap<ValueId, Vec<Site>>,
    min_precision: bool,
}

impl Scan<'_> {
    fn inst(&self, site: Site) -> Option<&Instruction> {
        self.body.instruction(site.0, site.1)
    }

    fn users_of(&self, value: ValueId) -> impl Iterator<Item = &Instruction> + '_ {
        self.users
            .get(&value)
            .into_iter()
            .flatten()
            .filter_map(|site| self.inst(*site))
    }

    /// dxc's `GetCBOffset`: the immediate part of an offset (a constant,
    /// the sum or `or` of the immediate parts of an `add` / `or`; 0 for
    /// anything else).
    fn immediate(&self, value: ValueId, depth: u32) -> u32 {
        if let Some(v) = body::constant_int(self.module, self.body, value) {
            return v as u32;
        }
        if depth > 64 {
            return 0;
        }
        let Some(crate::dxil::model::LocalValue::Instruction { block, index }) =
            self.body.local(value)
        else {
            return 0;
        };
        match self.body.instruction(block, index).map(|i| &i.kind) {
            Some(InstructionKind::BinOp {
                op,
                lhs: Operand::Value(l),
                rhs: Operand::Value(r),
                ..
            }) => {
                let (l, r) = (self.immediate(*l, depth + 1), self.immediate(*r, depth + 1));
                match op {
                    BinOp::Add => l.wrapping_add(r),
                    BinOp::Or => l | r,
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    /// `GetOffsetForCBExtractValue`: the element index times its size (8
    /// for 64-bit elements, 2 for 16-bit ones without minimum precision,
    /// else 4).
    fn extract_offset(&self, inst: &Instruction) -> Option<u32> {
        let InstructionKind::ExtractValue { indices, .. } = &inst.kind else {
            return None;
        };
        let mut ty = inst.ty?;
        if let Some(Type::Vector { element, .. }) = self.module.ty(ty) {
            ty = *element;
        }
        let bits = match self.module.ty(ty) {
            Some(Type::Integer { bits }) => *bits,
            Some(Type::Half) => 16,
            Some(Type::Float) => 32,
            Some(Type::Double) => 64,
            _ => 0,
        };
        let size = match bits {
            64 => 8,
            16 if !self.min_precision => 2,
            _ => 4,
        };
        Some((*indices.first()? as u32).wrapping_mul(size))
    }

    /// `CollectInPhiChain` and the `extractvalue` users of a legacy load.
    fn collect_row(
        &self,
        value: ValueId,
        offset: u32,
        usage: &mut Vec<u32>,
        seen: &mut Vec<ValueId>,
    ) {
        for user in self.users_of(value) {
            if let Some(element) = self.extract_offset(user) {
                usage.push(offset.wrapping_add(element));
            } else if let (InstructionKind::Phi { .. }, Some(phi)) = (&user.kind, user.value) {
                if !seen.contains(&phi) {
                    seen.push(phi);
                    self.collect_row(phi, offset, usage, seen);
                }
            }
        }
    }

    /// `CollectCBufUsage`: the offsets loaded through `handle`.
    fn collect(&self, handle: ValueId, usage: &mut Vec<u32>, depth: u32) {
        for user in self.users_of(handle) {
            let Some((opcode, args)) = body::dx_op(self.module, self.body, user) else {
                continue;
            };
            match opcode {
                OP_CBUFFER_LOAD_LEGACY => {
                    let row = body::arg(args, 2).map_or(0, |v| self.immediate(v, 0));
                    if let Some(value) = user.value {
                        self.collect_row(value, row.wrapping_shl(4), usage, &mut Vec::new());
                    }
                }
                OP_CBUFFER_LOAD => {
                    usage.push(body::arg(args, 2).map_or(0, |v| self.immediate(v, 0)));
                }
                OP_ANNOTATE_HANDLE if depth < 8 => {
                    if let Some(value) = user.value {
                        self.collect(value, usage, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The offsets loaded from each of `count` cbuffers (indexed by the
/// `createHandle` range ID) in a shader's bodies; `None` when no body
/// calls `dx.op.createHandle` (dxc then leaves every variable used).
pub(super) fn shader_usage(
    module: &Module,
    count: usize,
    min_precision: bool,
) -> Option<Vec<Vec<u32>>> {
    let mut usage = vec![Vec::new(); count];
    let mut any_handle = false;
    for function in &module.functions {
        let Some(body) = &function.body else { continue };
        let scan = Scan {
            module,
            body,
            users: body::users(body),
            min_precision,
        };
        for inst in body.blocks.iter().flat_map(|b| &b.instructions) {
            if body::callee(module, inst).is_none_or(|f| f.name() != b"dx.op.createHandle") {
                continue;
            }
            any_handle = true;
            let Some((_, args)) = body::dx_op(module, body, inst) else {
                continue;
            };
            let class = body::arg(args, 1).and_then(|v| body::constant_int(module, body, v));
            let range = body::arg(args, 2).and_then(|v| body::constant_int(module, body, v));
            if let (Some(CBUFFER_CLASS), Some(range), Some(handle)) = (class, range, inst.value) {
                if let Some(slot) = usize::try_from(range).ok().and_then(|r| usage.get_mut(r)) {
                    scan.collect(handle, slot, 0);
                }
            }
        }
    }
    any_handle.then_some(usage)
}

/// The offsets a library's bodies load from the cbuffer whose global
/// symbol is `symbol`: through `load`s and GEPs of it (instructions or
/// constant expressions) into `createHandleForLib`.
pub(super) fn library_usage(module: &Module, symbol: ValueId, min_precision: bool) -> Vec<u32> {
    let mut usage = Vec::new();
    // Constant GEPs of the symbol (transitively).
    let mut roots = vec![symbol];
    let mut i = 0;
    while i < roots.len() && roots.len() < 4096 {
        let base = roots[i];
        for (index, constant) in module.constants.iter().enumerate() {
            if let ConstantKind::GetElementPtr { operands, .. } = &constant.kind {
                if operands.first() == Some(&base) {
                    if let Some(id) = module
                        .values
                        .iter()
                        .position(|v| *v == crate::dxil::model::ModuleValue::Constant(index as u32))
                    {
                        let id = ValueId(id as u32);
                        if !roots.contains(&id) {
                            roots.push(id);
                        }
                    }
                }
            }
        }
        i += 1;
    }
    for function in &module.functions {
        let Some(body) = &function.body else { continue };
        let scan = Scan {
            module,
            body,
            users: body::users(body),
            min_precision,
        };
        let mut work = roots.clone();
        let mut seen = roots.clone();
        while let Some(value) = work.pop() {
            for user in scan.users_of(value) {
                match &user.kind {
                    InstructionKind::Call { .. } => {
                        if let Some((OP_CREATE_HANDLE_FOR_LIB, _)) = body::dx_op(module, body, user)
                        {
                            if let Some(handle) = user.value {
                                scan.collect(handle, &mut usage, 0);
                            }
                        }
                    }
                    InstructionKind::Load { .. } | InstructionKind::GetElementPtr { .. } => {
                        if let Some(v) = user.value {
                            if !seen.contains(&v) {
                                seen.push(v);
                                work.push(v);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    usage
}

/// `SetCBufVarUsage`: clears `used` of each variable no offset in `usage`
/// falls in (`[StartOffset, StartOffset + Size)`).
pub(super) fn apply(buffer: &mut BufferDesc, usage: &[u32]) {
    for variable in &mut buffer.variables {
        let begin = variable.start_offset;
        let end = begin.wrapping_add(variable.size);
        let used = usage.iter().any(|&o| o >= begin && o < end);
        if !used {
            variable.used = false;
            variable.flags = VariableFlags(variable.flags.0 & !VariableFlags::USED);
        }
    }
}

#[cfg(test)]
mod tests;
