//! A FUNCTION_BLOCK as dxc's `WriteFunction` writes it: DECLAREBLOCKS, the
//! function's constants, its function-local metadata, the instructions with
//! relative operand IDs (a forward reference carries its type) and their
//! debug locations, the value symbol table, the metadata attachments.

use super::module::{binop_code, binop_flags, cast_code};
use super::{block, blockinfo as bi, encode_align, signed, Emitter, ModuleWriteError, UNABBREV};
use dxcopy_read::dxil::{
    AtomicOrdering, DebugLoc, Function, FunctionBody, InstructionKind, Metadata, Operand, RmwOp,
    Symbol, SynchScope, TailCall, Type, ValueId,
};

type Result<T> = std::result::Result<T, ModuleWriteError>;

fn ordering(o: AtomicOrdering) -> u64 {
    match o {
        AtomicOrdering::NotAtomic => 0,
        AtomicOrdering::Unordered => 1,
        AtomicOrdering::Monotonic => 2,
        AtomicOrdering::Acquire => 3,
        AtomicOrdering::Release => 4,
        AtomicOrdering::AcqRel => 5,
        AtomicOrdering::SeqCst => 6,
    }
}

fn scope(s: SynchScope) -> u64 {
    match s {
        SynchScope::SingleThread => 0,
        SynchScope::CrossThread => 1,
    }
}

fn rmw(op: RmwOp) -> u64 {
    match op {
        RmwOp::Xchg => 0,
        RmwOp::Add => 1,
        RmwOp::Sub => 2,
        RmwOp::And => 3,
        RmwOp::Nand => 4,
        RmwOp::Or => 5,
        RmwOp::Xor => 6,
        RmwOp::Max => 7,
        RmwOp::Min => 8,
        RmwOp::UMax => 9,
        RmwOp::UMin => 10,
    }
}

/// The function being written: its body and the ID of the next
/// instruction value.
struct Body<'b> {
    body: &'b FunctionBody,
    inst_id: u32,
    record: &'static str,
}

impl Emitter<'_> {
    pub(super) fn function_block(&mut self, _f: &Function, body: &FunctionBody) -> Result<()> {
        self.s.enter_block(block::FUNCTION, 4);
        self.vals.push(body.blocks.len() as u64);
        self.emit("DECLAREBLOCKS", UNABBREV, 1)?;
        let constants: Vec<_> = body.constants.iter().collect();
        let first = body.first_value + body.args.len() as u32;
        let end = first + constants.len() as u32;
        self.constants_block(&constants, first, end, Some(body))?;
        if !body.metadata.is_empty() {
            self.s.enter_block(block::METADATA, 3);
            for md in &body.metadata {
                if !matches!(md, Metadata::Value { .. }) {
                    return Err(self.fail(
                        "METADATA_VALUE",
                        "function-level metadata other than a local value",
                    ));
                }
                self.metadata_record(md, None, None, None)?;
            }
            self.end_block()?;
        }
        let mut b = Body {
            body,
            inst_id: end,
            record: "",
        };
        let mut last_loc: Option<DebugLoc> = None;
        let mut attachments = !body.attachments.is_empty();
        for block in &body.blocks {
            for inst in &block.instructions {
                self.instruction(&mut b, &inst.kind, inst.ty)?;
                if let Some(ty) = inst.ty {
                    if inst.value != Some(ValueId(b.inst_id)) {
                        return Err(
                            self.fail(b.record, "the instruction's value ID is not the next one")
                        );
                    }
                    if matches!(self.m.ty(ty), Some(Type::Void)) {
                        return Err(self.fail(b.record, "a result of type void"));
                    }
                    b.inst_id += 1;
                }
                attachments |= !inst.attachments.is_empty();
                if let Some(loc) = inst.debug_loc {
                    if last_loc == Some(loc) {
                        self.emit("DEBUG_LOC_AGAIN", UNABBREV, 33)?;
                    } else {
                        let md = |m: Option<dxcopy_read::dxil::MetadataId>| {
                            m.map_or(0, |m| u64::from(m.0) + 1)
                        };
                        self.vals.extend([
                            loc.line & 0xffff_ffff,
                            loc.column & 0xffff_ffff,
                            md(loc.scope),
                            md(loc.inlined_at),
                        ]);
                        self.emit("DEBUG_LOC", UNABBREV, 35)?;
                        last_loc = Some(loc);
                    }
                }
            }
        }
        let mut names: Vec<(&[u8], u64, bool)> = Vec::new();
        for a in &body.args {
            if let Some(name) = a.name.as_deref().filter(|n| !n.is_empty()) {
                names.push((name, u64::from(a.value.0), false));
            }
        }
        for (i, block) in body.blocks.iter().enumerate() {
            if let Some(name) = block.name.as_deref().filter(|n| !n.is_empty()) {
                names.push((name, i as u64, true));
            }
            for inst in &block.instructions {
                if let (Some(name), Some(v)) =
                    (inst.name.as_deref().filter(|n| !n.is_empty()), inst.value)
                {
                    names.push((name, u64::from(v.0), false));
                }
            }
        }
        let order: Vec<(u64, bool)> = body
            .symbol_order
            .iter()
            .map(|s| match s {
                Symbol::Value(v) => (u64::from(v.0), false),
                Symbol::Block(b) => (u64::from(b.0), true),
            })
            .collect();
        self.symbol_table(names, &order)?;
        if attachments {
            self.s.enter_block(block::METADATA_ATTACHMENT, 3);
            if !body.attachments.is_empty() {
                for a in &body.attachments {
                    self.vals.extend([u64::from(a.kind), u64::from(a.node.0)]);
                }
                self.emit("METADATA_ATTACHMENT", UNABBREV, 11)?;
            }
            let all = body.blocks.iter().flat_map(|b| &b.instructions);
            for (index, inst) in all.enumerate() {
                if inst.attachments.is_empty() {
                    continue;
                }
                self.vals.push(index as u64);
                for a in &inst.attachments {
                    self.vals.extend([u64::from(a.kind), u64::from(a.node.0)]);
                }
                self.emit("METADATA_ATTACHMENT", UNABBREV, 11)?;
            }
            self.end_block()?;
        }
        self.use_lists(&body.use_lists)?;
        self.end_block()
    }

    /// The type ID of an operand.
    fn operand_type(&self, b: &Body<'_>, op: &Operand) -> Result<u64> {
        let ty = match op {
            Operand::Value(v) => self.m.value_type_in(Some(b.body), *v),
            Operand::Metadata(_) => self
                .m
                .types
                .iter()
                .position(|t| *t == Type::Metadata)
                .map(|i| dxcopy_read::dxil::TypeId(i as u32)),
        };
        ty.map(|t| u64::from(t.0))
            .ok_or_else(|| self.fail(b.record, "an operand of unknown type"))
    }

    fn absolute(op: &Operand) -> u32 {
        match op {
            Operand::Value(v) => v.0,
            Operand::Metadata(m) => m.0,
        }
    }

    /// `pushValue`: the operand relative to the instruction (32-bit, wrapping).
    fn push_value(&mut self, b: &Body<'_>, op: &Operand) {
        let rel = b.inst_id.wrapping_sub(Self::absolute(op));
        self.vals.push(u64::from(rel));
    }

    /// `PushValueAndType`: the relative operand, and its type when it is a
    /// forward reference. Returns whether it was one.
    fn push_value_type(&mut self, b: &Body<'_>, op: &Operand) -> Result<bool> {
        self.push_value(b, op);
        if Self::absolute(op) >= b.inst_id {
            let ty = self.operand_type(b, op)?;
            self.vals.push(ty);
            return Ok(true);
        }
        Ok(false)
    }

    /// `WriteInstruction`.
    fn instruction(
        &mut self,
        b: &mut Body<'_>,
        kind: &InstructionKind,
        ty: Option<dxcopy_read::dxil::TypeId>,
    ) -> Result<()> {
        use InstructionKind as K;
        let ty_id = |this: &Self, b: &Body<'_>| -> Result<u64> {
            ty.map(|t| u64::from(t.0))
                .ok_or_else(|| this.fail(b.record, "an instruction without its result type"))
        };
        let (record, code, abbrev): (&'static str, u32, u32) = match kind {
            K::BinOp {
                op,
                lhs,
                rhs,
                flags,
            } => {
                b.record = "INST_BINOP";
                let forward = self.push_value_type(b, lhs)?;
                self.push_value(b, rhs);
                self.vals.push(binop_code(*op));
                let flags = binop_flags(flags);
                let mut abbrev = if forward {
                    UNABBREV
                } else {
                    bi::FUNCTION_INST_BINOP
                };
                if flags != 0 {
                    if abbrev == bi::FUNCTION_INST_BINOP {
                        abbrev = bi::FUNCTION_INST_BINOP_FLAGS;
                    }
                    self.vals.push(flags);
                }
                ("INST_BINOP", 2, abbrev)
            }
            K::Cast { op, value } => {
                b.record = "INST_CAST";
                let forward = self.push_value_type(b, value)?;
                self.vals.push(ty_id(self, b)?);
                self.vals.push(cast_code(*op));
                (
                    "INST_CAST",
                    3,
                    if forward {
                        UNABBREV
                    } else {
                        bi::FUNCTION_INST_CAST
                    },
                )
            }
            K::Compare {
                predicate,
                lhs,
                rhs,
                fast_math,
            } => {
                b.record = "INST_CMP2";
                self.push_value_type(b, lhs)?;
                self.push_value(b, rhs);
                self.vals.push(u64::from(predicate.0));
                if fast_math.0 != 0 {
                    self.vals.push(u64::from(fast_math.0));
                }
                ("INST_CMP2", 28, UNABBREV)
            }
            K::Select {
                condition,
                if_true,
                if_false,
            } => {
                b.record = "INST_VSELECT";
                self.push_value_type(b, if_true)?;
                self.push_value(b, if_false);
                self.push_value_type(b, condition)?;
                ("INST_VSELECT", 29, UNABBREV)
            }
            K::ExtractElement { vector, index } => {
                b.record = "INST_EXTRACTELT";
                self.push_value_type(b, vector)?;
                self.push_value_type(b, index)?;
                ("INST_EXTRACTELT", 6, UNABBREV)
            }
            K::InsertElement {
                vector,
                element,
                index,
            } => {
                b.record = "INST_INSERTELT";
                self.push_value_type(b, vector)?;
                self.push_value(b, element);
                self.push_value_type(b, index)?;
                ("INST_INSERTELT", 7, UNABBREV)
            }
            K::ShuffleVector {
                first,
                second,
                mask,
            } => {
                b.record = "INST_SHUFFLEVEC";
                self.push_value_type(b, first)?;
                self.push_value(b, second);
                self.push_value(b, mask);
                ("INST_SHUFFLEVEC", 8, UNABBREV)
            }
            K::ExtractValue { aggregate, indices } => {
                b.record = "INST_EXTRACTVAL";
                self.push_value_type(b, aggregate)?;
                self.vals.extend(indices.iter().map(|&i| i & 0xffff_ffff));
                ("INST_EXTRACTVAL", 26, UNABBREV)
            }
            K::InsertValue {
                aggregate,
                value,
                indices,
            } => {
                b.record = "INST_INSERTVAL";
                self.push_value_type(b, aggregate)?;
                self.push_value_type(b, value)?;
                self.vals.extend(indices.iter().map(|&i| i & 0xffff_ffff));
                ("INST_INSERTVAL", 27, UNABBREV)
            }
            K::GetElementPtr {
                inbounds,
                source_type,
                operands,
            } => {
                b.record = "INST_GEP";
                self.vals.push(u64::from(*inbounds));
                self.vals.push(u64::from(source_type.0));
                for op in operands {
                    self.push_value_type(b, op)?;
                }
                ("INST_GEP", 43, bi::FUNCTION_INST_GEP)
            }
            K::Phi { incoming } => {
                b.record = "INST_PHI";
                self.vals.push(ty_id(self, b)?);
                for i in incoming {
                    let v = Self::absolute(&i.value);
                    let diff = i64::from(b.inst_id as i32) - i64::from(v as i32);
                    self.vals.push(signed(diff));
                    self.vals.push(u64::from(i.block.0));
                }
                ("INST_PHI", 16, UNABBREV)
            }
            K::Ret { value } => {
                b.record = "INST_RET";
                match value {
                    None => ("INST_RET", 10, bi::FUNCTION_INST_RET_VOID),
                    Some(v) => {
                        let forward = self.push_value_type(b, v)?;
                        (
                            "INST_RET",
                            10,
                            if forward {
                                UNABBREV
                            } else {
                                bi::FUNCTION_INST_RET_VAL
                            },
                        )
                    }
                }
            }
            K::Br { dest } => {
                self.vals.push(u64::from(dest.0));
                ("INST_BR", 11, UNABBREV)
            }
            K::CondBr {
                condition,
                if_true,
                if_false,
            } => {
                b.record = "INST_BR";
                self.vals.push(u64::from(if_true.0));
                self.vals.push(u64::from(if_false.0));
                self.push_value(b, condition);
                ("INST_BR", 11, UNABBREV)
            }
            K::Switch {
                condition,
                default,
                cases,
            } => {
                b.record = "INST_SWITCH";
                let ty = self.operand_type(b, condition)?;
                self.vals.push(ty);
                self.push_value(b, condition);
                self.vals.push(u64::from(default.0));
                for c in cases {
                    self.vals.push(u64::from(c.value.0));
                    self.vals.push(u64::from(c.dest.0));
                }
                ("INST_SWITCH", 12, UNABBREV)
            }
            K::IndirectBr {
                address,
                destinations,
            } => {
                b.record = "INST_INDIRECTBR";
                let ty = self.operand_type(b, address)?;
                self.vals.push(ty);
                self.push_value(b, address);
                self.vals
                    .extend(destinations.iter().map(|d| u64::from(d.0)));
                ("INST_INDIRECTBR", 31, UNABBREV)
            }
            K::Unreachable => ("INST_UNREACHABLE", 15, bi::FUNCTION_INST_UNREACHABLE),
            K::Alloca {
                allocated_type,
                size,
                alignment,
                inalloca,
            } => {
                b.record = "INST_ALLOCA";
                let size_ty = self.operand_type(b, size)?;
                self.vals.push(u64::from(allocated_type.0));
                self.vals.push(size_ty);
                self.vals.push(u64::from(Self::absolute(size)));
                self.vals
                    .push(encode_align(*alignment) | u64::from(*inalloca) << 5 | 1 << 6);
                ("INST_ALLOCA", 19, UNABBREV)
            }
            K::Load {
                pointer,
                alignment,
                volatile,
                atomic,
            } => {
                b.record = "INST_LOAD";
                let forward = self.push_value_type(b, pointer)?;
                self.vals.push(ty_id(self, b)?);
                self.vals.push(encode_align(*alignment));
                self.vals.push(u64::from(*volatile));
                match atomic {
                    None => (
                        "INST_LOAD",
                        20,
                        if forward {
                            UNABBREV
                        } else {
                            bi::FUNCTION_INST_LOAD
                        },
                    ),
                    Some(a) => {
                        self.vals.push(ordering(a.ordering));
                        self.vals.push(scope(a.scope));
                        ("INST_LOADATOMIC", 41, UNABBREV)
                    }
                }
            }
            K::Store {
                pointer,
                value,
                alignment,
                volatile,
                atomic,
            } => {
                b.record = "INST_STORE";
                self.push_value_type(b, pointer)?;
                self.push_value_type(b, value)?;
                self.vals.push(encode_align(*alignment));
                self.vals.push(u64::from(*volatile));
                match atomic {
                    None => ("INST_STORE", 44, UNABBREV),
                    Some(a) => {
                        self.vals.push(ordering(a.ordering));
                        self.vals.push(scope(a.scope));
                        ("INST_STOREATOMIC", 45, UNABBREV)
                    }
                }
            }
            K::CmpXchg {
                pointer,
                compare,
                new_value,
                volatile,
                weak,
                success_ordering,
                failure_ordering,
                scope: s,
            } => {
                b.record = "INST_CMPXCHG";
                self.push_value_type(b, pointer)?;
                self.push_value_type(b, compare)?;
                self.push_value(b, new_value);
                self.vals.extend([
                    u64::from(*volatile),
                    ordering(*success_ordering),
                    scope(*s),
                    ordering(*failure_ordering),
                    u64::from(*weak),
                ]);
                ("INST_CMPXCHG", 46, UNABBREV)
            }
            K::AtomicRmw {
                op,
                pointer,
                value,
                volatile,
                ordering: o,
                scope: s,
            } => {
                b.record = "INST_ATOMICRMW";
                self.push_value_type(b, pointer)?;
                self.push_value(b, value);
                self.vals
                    .extend([rmw(*op), u64::from(*volatile), ordering(*o), scope(*s)]);
                ("INST_ATOMICRMW", 38, UNABBREV)
            }
            K::Fence {
                ordering: o,
                scope: s,
            } => {
                self.vals.extend([ordering(*o), scope(*s)]);
                ("INST_FENCE", 36, UNABBREV)
            }
            K::Call {
                callee,
                function_type,
                args,
                attributes,
                calling_conv,
                tail,
                fast_math,
                explicit_type,
            } => {
                const R: &str = "INST_CALL";
                b.record = R;
                if !explicit_type {
                    return Err(self.fail(
                        R,
                        "a call without its explicit function type (dxc always writes it)",
                    ));
                }
                if fast_math.0 != 0 {
                    return Err(self.fail(R, "fast-math flags on a call (LLVM 3.7 writes none)"));
                }
                let Some(Type::Function(fty)) = self.m.ty(*function_type) else {
                    return Err(self.fail(R, "the called type is not a function type"));
                };
                let flags = (calling_conv << 1)
                    | u64::from(*tail == TailCall::Tail || *tail == TailCall::MustTail)
                    | u64::from(*tail == TailCall::MustTail) << 14
                    | 1 << 15;
                self.vals
                    .extend([*attributes, flags & 0xffff_ffff, u64::from(function_type.0)]);
                self.push_value_type(b, callee)?;
                if args.len() < fty.params.len() || (!fty.vararg && args.len() != fty.params.len())
                {
                    return Err(self.fail(R, "the arguments do not match the function type"));
                }
                for (i, arg) in args.iter().enumerate() {
                    match fty.params.get(i) {
                        Some(p) if matches!(self.m.ty(*p), Some(Type::Label)) => {
                            self.vals.push(u64::from(Self::absolute(arg)));
                        }
                        Some(_) => self.push_value(b, arg),
                        None => {
                            self.push_value_type(b, arg)?;
                        }
                    }
                }
                (R, 34, UNABBREV)
            }
            K::VaArg { list, list_type } => {
                b.record = "INST_VAARG";
                self.vals.push(u64::from(list_type.0));
                self.push_value(b, list);
                self.vals.push(ty_id(self, b)?);
                ("INST_VAARG", 23, UNABBREV)
            }
        };
        b.record = record;
        self.emit(record, abbrev, code)
    }
}
