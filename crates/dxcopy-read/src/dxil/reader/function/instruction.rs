//! One FUNCTION_BLOCK instruction record decoded: what it is and its result
//! type (the reader's largest table, in a file of its own).

use super::*;

impl Reader {
    /// Decodes one instruction record: what it is and its result type.
    ///
    /// Long: one arm per FUNCTION_BLOCK record code, in LLVM 3.7's numbering,
    /// each reading its operands from the same record; the table reads best
    /// whole, beside the codes it follows.
    pub(super) fn decode_instruction(
        &self,
        b: &mut Body,
        r: &Record<'_>,
        f: &[u64],
    ) -> Result<(InstructionKind, Option<TypeId>)> {
        let mut slot = 0usize;
        let need_end = |slot: usize| {
            if slot != f.len() {
                Err(invalid(r, "wrong field count"))
            } else {
                Ok(())
            }
        };
        Ok(match r.code {
            code::BINOP => {
                let (lhs, ty) = self.value_type_pair(b, r, f, &mut slot)?;
                let rhs = self.pop_value(b, r, f, &mut slot, ty)?;
                let opcode = *f.get(slot).ok_or_else(|| invalid(r, "too few fields"))?;
                slot += 1;
                let op = binop(opcode, self.ty_is_fp(ty), self.ty_is_int(ty))
                    .ok_or_else(|| invalid(r, "binary operation does not fit its type"))?;
                let flags = binop_flags(op, f.get(slot).copied(), true);
                (
                    InstructionKind::BinOp {
                        op,
                        lhs,
                        rhs,
                        flags,
                    },
                    Some(ty),
                )
            }
            code::CAST => {
                let (value, _) = self.value_type_pair(b, r, f, &mut slot)?;
                if slot + 2 != f.len() {
                    return Err(invalid(r, "wrong field count"));
                }
                let ty = self.type_id(r, f[slot])?;
                let op = cast_op(f[slot + 1]).ok_or_else(|| invalid(r, "unknown cast"))?;
                (InstructionKind::Cast { op, value }, Some(ty))
            }
            code::GEP | code::GEP_OLD | code::INBOUNDS_GEP_OLD => {
                let (inbounds, explicit) = if r.code == code::GEP {
                    if f.len() < 2 {
                        return Err(invalid(r, "too few fields"));
                    }
                    slot = 2;
                    (f[0] != 0, Some(self.type_id(r, f[1])?))
                } else {
                    (r.code == code::INBOUNDS_GEP_OLD, None)
                };
                let (base, base_ty) = self.value_type_pair(b, r, f, &mut slot)?;
                let (scalar_ptr, mut vector_len) = match self.ty(base_ty) {
                    Type::Vector { len, element } => (*element, Some(*len)),
                    _ => (base_ty, None),
                };
                let (pointee, space) = self.pointee(r, scalar_ptr)?;
                if explicit.is_some_and(|t| t != pointee) {
                    return Err(invalid(
                        r,
                        "explicit GEP type differs from the pointee type",
                    ));
                }
                let mut operands = vec![base];
                let mut indexed = pointee;
                let mut first = true;
                while slot < f.len() {
                    let (index, index_ty) = self.value_type_pair(b, r, f, &mut slot)?;
                    if let Type::Vector { len, .. } = self.ty(index_ty) {
                        vector_len = Some(*len);
                    }
                    if !first {
                        indexed = match self.ty(indexed) {
                            Type::Struct(StructType {
                                body: Some(body), ..
                            }) => {
                                let i = match index {
                                    Operand::Value(v) => self.constant_int(b, v),
                                    Operand::Metadata(_) => None,
                                }
                                .ok_or_else(|| invalid(r, "a struct index is not a constant"))?;
                                *usize::try_from(i)
                                    .ok()
                                    .and_then(|i| body.get(i))
                                    .ok_or_else(|| invalid(r, "struct index out of range"))?
                            }
                            Type::Array { element, .. } | Type::Vector { element, .. } => *element,
                            _ => return Err(invalid(r, "GEP indexes into a non-aggregate")),
                        };
                    }
                    first = false;
                    operands.push(index);
                }
                let mut ty = self.pointer_type(r, indexed, space)?;
                if let Some(n) = vector_len {
                    ty = self.vector_type(r, n, ty)?;
                }
                (
                    InstructionKind::GetElementPtr {
                        inbounds,
                        source_type: pointee,
                        operands,
                    },
                    Some(ty),
                )
            }
            code::EXTRACTVAL | code::INSERTVAL => {
                let (aggregate, agg_ty) = self.value_type_pair(b, r, f, &mut slot)?;
                let inserted = if r.code == code::INSERTVAL {
                    Some(self.value_type_pair(b, r, f, &mut slot)?)
                } else {
                    None
                };
                if slot == f.len() {
                    return Err(invalid(r, "no indices"));
                }
                let mut cur = agg_ty;
                let mut indices = Vec::with_capacity(f.len() - slot);
                for &index in &f[slot..] {
                    if index > u64::from(u32::MAX) {
                        return Err(invalid(r, "index out of range"));
                    }
                    cur = match self.ty(cur) {
                        Type::Struct(StructType {
                            body: Some(body), ..
                        }) => *body
                            .get(index as usize)
                            .ok_or_else(|| invalid(r, "struct index out of range"))?,
                        Type::Array { len, element } if index < *len => *element,
                        _ => return Err(invalid(r, "index into a non-aggregate or out of range")),
                    };
                    indices.push(index);
                }
                match inserted {
                    None => (
                        InstructionKind::ExtractValue { aggregate, indices },
                        Some(cur),
                    ),
                    Some((value, value_ty)) => {
                        if value_ty != cur {
                            return Err(invalid(r, "inserted value's type differs"));
                        }
                        (
                            InstructionKind::InsertValue {
                                aggregate,
                                value,
                                indices,
                            },
                            Some(agg_ty),
                        )
                    }
                }
            }
            code::SELECT | code::VSELECT => {
                let (if_true, ty) = self.value_type_pair(b, r, f, &mut slot)?;
                let if_false = self.pop_value(b, r, f, &mut slot, ty)?;
                let condition = if r.code == code::SELECT {
                    let i1 = self.int_type(r, 1)?;
                    self.pop_value(b, r, f, &mut slot, i1)?
                } else {
                    let (c, cty) = self.value_type_pair(b, r, f, &mut slot)?;
                    let scalar = match self.ty(cty) {
                        Type::Vector { element, .. } => *element,
                        _ => cty,
                    };
                    if !matches!(self.ty(scalar), Type::Integer { bits: 1 }) {
                        return Err(invalid(r, "select condition is not i1"));
                    }
                    c
                };
                (
                    InstructionKind::Select {
                        condition,
                        if_true,
                        if_false,
                    },
                    Some(ty),
                )
            }
            code::EXTRACTELT => {
                let (vector, vty) = self.value_type_pair(b, r, f, &mut slot)?;
                let (index, _) = self.value_type_pair(b, r, f, &mut slot)?;
                let Type::Vector { element, .. } = self.ty(vty) else {
                    return Err(invalid(r, "extractelement of a non-vector"));
                };
                (
                    InstructionKind::ExtractElement { vector, index },
                    Some(*element),
                )
            }
            code::INSERTELT => {
                let (vector, vty) = self.value_type_pair(b, r, f, &mut slot)?;
                let Type::Vector { element, .. } = *self.ty(vty) else {
                    return Err(invalid(r, "insertelement of a non-vector"));
                };
                let value = self.pop_value(b, r, f, &mut slot, element)?;
                let (index, _) = self.value_type_pair(b, r, f, &mut slot)?;
                (
                    InstructionKind::InsertElement {
                        vector,
                        element: value,
                        index,
                    },
                    Some(vty),
                )
            }
            code::SHUFFLEVEC => {
                let (first, vty) = self.value_type_pair(b, r, f, &mut slot)?;
                let second = self.pop_value(b, r, f, &mut slot, vty)?;
                let (mask, mty) = self.value_type_pair(b, r, f, &mut slot)?;
                let (Type::Vector { element, .. }, Type::Vector { len, .. }) =
                    (self.ty(vty), self.ty(mty))
                else {
                    return Err(invalid(r, "shufflevector of a non-vector"));
                };
                let ty = self.vector_type(r, *len, *element)?;
                (
                    InstructionKind::ShuffleVector {
                        first,
                        second,
                        mask,
                    },
                    Some(ty),
                )
            }
            code::CMP | code::CMP2 => {
                let (lhs, ty) = self.value_type_pair(b, r, f, &mut slot)?;
                let rhs = self.pop_value(b, r, f, &mut slot, ty)?;
                let fp = self.ty_is_fp(ty);
                let pred = *f.get(slot).ok_or_else(|| invalid(r, "too few fields"))?;
                let mut fmf = FastMathFlags::default();
                if fp && f.len() > slot + 1 {
                    slot += 1;
                    fmf = fast_math(f[slot]);
                }
                need_end(slot + 1)?;
                let predicate = predicate(r, pred, fp)?;
                let i1 = self.int_type(r, 1)?;
                let result = match self.ty(ty) {
                    Type::Vector { len, .. } => self.vector_type(r, *len, i1)?,
                    _ => i1,
                };
                (
                    InstructionKind::Compare {
                        predicate,
                        lhs,
                        rhs,
                        fast_math: fmf,
                    },
                    Some(result),
                )
            }
            code::RET => {
                if f.is_empty() {
                    (InstructionKind::Ret { value: None }, None)
                } else {
                    let (value, _) = self.value_type_pair(b, r, f, &mut slot)?;
                    need_end(slot)?;
                    (InstructionKind::Ret { value: Some(value) }, None)
                }
            }
            code::BR => match f.len() {
                1 => (
                    InstructionKind::Br {
                        dest: self.block_ref(b, r, f[0])?,
                    },
                    None,
                ),
                3 => {
                    let if_true = self.block_ref(b, r, f[0])?;
                    let if_false = self.block_ref(b, r, f[1])?;
                    let i1 = self.int_type(r, 1)?;
                    let mut slot = 2;
                    let condition = self.pop_value(b, r, f, &mut slot, i1)?;
                    (
                        InstructionKind::CondBr {
                            condition,
                            if_true,
                            if_false,
                        },
                        None,
                    )
                }
                _ => return Err(invalid(r, "BR takes one or three fields")),
            },
            code::SWITCH => {
                if f.first().is_some_and(|v| v >> 16 == SWITCH_INST_MAGIC) {
                    return Err(invalid(
                        r,
                        "the case-range switch form (never written by LLVM 3.x)",
                    ));
                }
                if f.len() < 3 || f.len().is_multiple_of(2) {
                    return Err(invalid(r, "wrong field count"));
                }
                let op_ty = self.type_id(r, f[0])?;
                let mut slot = 1;
                let condition = self.pop_value(b, r, f, &mut slot, op_ty)?;
                let default = self.block_ref(b, r, f[2])?;
                let mut cases = Vec::with_capacity((f.len() - 3) / 2);
                for pair in f[3..].chunks_exact(2) {
                    let value = ValueId(u32_field(r, pair[0], "value ID out of range")?);
                    if self.constant_int(b, value).is_none()
                        || self.type_of(b, value) != Some(op_ty)
                    {
                        return Err(invalid(
                            r,
                            "a case value is not an integer constant of the condition's type",
                        ));
                    }
                    cases.push(SwitchCase {
                        value,
                        dest: self.block_ref(b, r, pair[1])?,
                    });
                }
                (
                    InstructionKind::Switch {
                        condition,
                        default,
                        cases,
                    },
                    None,
                )
            }
            code::INDIRECTBR => {
                if f.len() < 2 {
                    return Err(invalid(r, "too few fields"));
                }
                let op_ty = self.type_id(r, f[0])?;
                let mut slot = 1;
                let address = self.pop_value(b, r, f, &mut slot, op_ty)?;
                let mut destinations = Vec::with_capacity(f.len() - 2);
                for &d in &f[2..] {
                    destinations.push(self.block_ref(b, r, d)?);
                }
                (
                    InstructionKind::IndirectBr {
                        address,
                        destinations,
                    },
                    None,
                )
            }
            code::UNREACHABLE => (InstructionKind::Unreachable, None),
            code::PHI => {
                if f.is_empty() || !(f.len() - 1).is_multiple_of(2) {
                    return Err(invalid(r, "wrong field count"));
                }
                let ty = self.type_id(r, f[0])?;
                let mut incoming = Vec::with_capacity((f.len() - 1) / 2);
                for pair in f[1..].chunks_exact(2) {
                    let id = if self.module.version >= 1 {
                        b.next_value().wrapping_sub(decode_signed(pair[0]) as u32)
                    } else {
                        pair[0] as u32
                    };
                    let value = self.value_at(b, r, id, ty)?;
                    incoming.push(PhiIncoming {
                        value,
                        block: self.block_ref(b, r, pair[1])?,
                    });
                }
                (InstructionKind::Phi { incoming }, Some(ty))
            }
            code::ALLOCA => {
                if f.len() != 4 {
                    return Err(invalid(r, "ALLOCA takes four fields"));
                }
                let field = f[3];
                let inalloca = field & (1 << 5) != 0;
                let explicit = field & (1 << 6) != 0;
                let ty = self.type_id(r, f[0])?;
                let allocated_type = if explicit { ty } else { self.pointee(r, ty)?.0 };
                let op_ty = self.type_id(r, f[1])?;
                let size_id = u32_field(r, f[2], "value ID out of range")?;
                let size = self.value_at(b, r, size_id, op_ty)?;
                let align = alignment(r, field & !((1 << 5) | (1 << 6)))?;
                let result = self.pointer_type(r, allocated_type, 0)?;
                (
                    InstructionKind::Alloca {
                        allocated_type,
                        size,
                        alignment: align,
                        inalloca,
                    },
                    Some(result),
                )
            }
            code::LOAD | code::LOADATOMIC => {
                let (pointer, pty) = self.value_type_pair(b, r, f, &mut slot)?;
                let atomic = r.code == code::LOADATOMIC;
                let tail = if atomic { 4 } else { 2 };
                if slot + tail != f.len() && slot + tail + 1 != f.len() {
                    return Err(invalid(r, "wrong field count"));
                }
                let explicit = if slot + tail + 1 == f.len() {
                    slot += 1;
                    Some(self.type_id(r, f[slot - 1])?)
                } else {
                    None
                };
                let (pointee, _) = self.pointee(r, pty)?;
                if explicit.is_some_and(|t| t != pointee) {
                    return Err(invalid(
                        r,
                        "explicit load type differs from the pointee type",
                    ));
                }
                self.check_loadable(r, pointee)?;
                let atomic = if atomic {
                    let ordering = ordering(r, f[slot + 2])?;
                    if matches!(
                        ordering,
                        AtomicOrdering::NotAtomic
                            | AtomicOrdering::Release
                            | AtomicOrdering::AcqRel
                    ) || f[slot] == 0
                    {
                        return Err(invalid(r, "invalid atomic load ordering or alignment"));
                    }
                    Some(Atomic {
                        ordering,
                        scope: scope(f[slot + 3]),
                    })
                } else {
                    None
                };
                (
                    InstructionKind::Load {
                        pointer,
                        alignment: alignment(r, f[slot])?,
                        volatile: f[slot + 1] != 0,
                        atomic,
                    },
                    Some(pointee),
                )
            }
            code::STORE | code::STORE_OLD | code::STOREATOMIC | code::STOREATOMIC_OLD => {
                let (pointer, pty) = self.value_type_pair(b, r, f, &mut slot)?;
                let (pointee, _) = self.pointee(r, pty)?;
                let value = if matches!(r.code, code::STORE | code::STOREATOMIC) {
                    let (v, vty) = self.value_type_pair(b, r, f, &mut slot)?;
                    if vty != pointee {
                        return Err(invalid(
                            r,
                            "stored value's type differs from the pointee type",
                        ));
                    }
                    v
                } else {
                    self.pop_value(b, r, f, &mut slot, pointee)?
                };
                self.check_loadable(r, pointee)?;
                let atomic = matches!(r.code, code::STOREATOMIC | code::STOREATOMIC_OLD);
                need_end(slot + if atomic { 4 } else { 2 })?;
                let atomic = if atomic {
                    let ordering = ordering(r, f[slot + 2])?;
                    if matches!(
                        ordering,
                        AtomicOrdering::NotAtomic
                            | AtomicOrdering::Acquire
                            | AtomicOrdering::AcqRel
                    ) || f[slot] == 0
                    {
                        return Err(invalid(r, "invalid atomic store ordering or alignment"));
                    }
                    Some(Atomic {
                        ordering,
                        scope: scope(f[slot + 3]),
                    })
                } else {
                    None
                };
                (
                    InstructionKind::Store {
                        pointer,
                        value,
                        alignment: alignment(r, f[slot])?,
                        volatile: f[slot + 1] != 0,
                        atomic,
                    },
                    None,
                )
            }
            code::CMPXCHG | code::CMPXCHG_OLD => {
                let (pointer, pty) = self.value_type_pair(b, r, f, &mut slot)?;
                let (pointee, _) = self.pointee(r, pty)?;
                let (compare, cmp_ty) = if r.code == code::CMPXCHG {
                    self.value_type_pair(b, r, f, &mut slot)?
                } else {
                    (self.pop_value(b, r, f, &mut slot, pointee)?, pointee)
                };
                let new_value = self.pop_value(b, r, f, &mut slot, cmp_ty)?;
                if f.len() < slot + 3 || f.len() > slot + 5 {
                    return Err(invalid(r, "wrong field count"));
                }
                let success = ordering(r, f[slot + 1])?;
                if matches!(
                    success,
                    AtomicOrdering::NotAtomic | AtomicOrdering::Unordered
                ) {
                    return Err(invalid(r, "invalid cmpxchg ordering"));
                }
                if cmp_ty != pointee {
                    return Err(invalid(
                        r,
                        "compared value's type differs from the pointee type",
                    ));
                }
                self.check_loadable(r, pointee)?;
                // LLVM 3.7 tests the whole record's length here.
                let failure = if f.len() < 7 {
                    match success {
                        AtomicOrdering::Release => AtomicOrdering::Monotonic,
                        AtomicOrdering::AcqRel => AtomicOrdering::Acquire,
                        o => o,
                    }
                } else {
                    ordering(r, f[slot + 3])?
                };
                let weak = f.len() >= 8 && f.get(slot + 4).is_some_and(|&w| w != 0);
                let kind = InstructionKind::CmpXchg {
                    pointer,
                    compare,
                    new_value,
                    volatile: f[slot] != 0,
                    weak,
                    success_ordering: success,
                    failure_ordering: failure,
                    scope: scope(f[slot + 2]),
                };
                let i1 = self.int_type(r, 1)?;
                let pair = self.literal_struct(r, vec![cmp_ty, i1], false)?;
                if f.len() < 8 {
                    // Before weak cmpxchg (LLVM 3.5) the instruction gave the
                    // loaded value; LLVM upgrades it to a cmpxchg without a
                    // value number and an extractvalue, which the model
                    // cannot refer to. No LLVM 3.7 writer emits it.
                    return Err(invalid(r, "the pre-3.5 cmpxchg form"));
                }
                (kind, Some(pair))
            }
            code::ATOMICRMW => {
                let (pointer, pty) = self.value_type_pair(b, r, f, &mut slot)?;
                let (pointee, _) = self.pointee(r, pty)?;
                let value = self.pop_value(b, r, f, &mut slot, pointee)?;
                need_end(slot + 4)?;
                let op =
                    rmw_op(f[slot]).ok_or_else(|| invalid(r, "unknown atomicrmw operation"))?;
                let ordering = ordering(r, f[slot + 2])?;
                if matches!(
                    ordering,
                    AtomicOrdering::NotAtomic | AtomicOrdering::Unordered
                ) {
                    return Err(invalid(r, "invalid atomicrmw ordering"));
                }
                (
                    InstructionKind::AtomicRmw {
                        op,
                        pointer,
                        value,
                        volatile: f[slot + 1] != 0,
                        ordering,
                        scope: scope(f[slot + 3]),
                    },
                    Some(pointee),
                )
            }
            code::FENCE => {
                if f.len() != 2 {
                    return Err(invalid(r, "FENCE takes two fields"));
                }
                let ordering = ordering(r, f[0])?;
                if matches!(
                    ordering,
                    AtomicOrdering::NotAtomic
                        | AtomicOrdering::Unordered
                        | AtomicOrdering::Monotonic
                ) {
                    return Err(invalid(r, "invalid fence ordering"));
                }
                (
                    InstructionKind::Fence {
                        ordering,
                        scope: scope(f[1]),
                    },
                    None,
                )
            }
            code::CALL => self.call(b, r, f)?,
            code::VAARG => {
                if f.len() < 3 {
                    return Err(invalid(r, "too few fields"));
                }
                let list_type = self.type_id(r, f[0])?;
                let mut slot = 1;
                let list = self.pop_value(b, r, f, &mut slot, list_type)?;
                let ty = self.type_id(r, f[2])?;
                (InstructionKind::VaArg { list, list_type }, Some(ty))
            }
            _ => {
                return Err(BitcodeError {
                    bit_offset: r.bit_offset,
                    kind: BitcodeErrorKind::UnknownRecord {
                        block_id: r.block_id,
                        code: r.code,
                    },
                })
            }
        })
    }
}
