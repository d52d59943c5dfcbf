//! Function bodies: basic blocks, instructions and their local values.

use super::*;

/// A function definition's body: FUNCTION_BLOCK.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FunctionBody {
    /// The ID of the first argument (= the module's value count).
    pub first_value: u32,
    /// The local value table: [`ValueId`] `first_value + i` is `values[i]`.
    pub values: Vec<LocalValue>,
    /// The arguments.
    pub args: Vec<Argument>,
    /// The function-level CONSTANTS block.
    pub constants: Vec<Constant>,
    /// The basic blocks in order (DECLAREBLOCKS gives their count).
    pub blocks: Vec<BasicBlock>,
    /// The function-level METADATA block (function-local `ValueAsMetadata`
    /// and anything else it holds); its first ID is `module.metadata.len()`.
    pub metadata: Vec<Metadata>,
    /// Function attachments (a METADATA_ATTACHMENT record without an
    /// instruction), in record order.
    pub attachments: Vec<Attachment>,
    /// The function VALUE_SYMTAB's entries in record order (see
    /// [`Module::symbol_order`]).
    pub symbol_order: Vec<Symbol>,
    /// The function's USELIST_BLOCK records.
    pub use_lists: Vec<UseList>,
}

/// What a function-local [`ValueId`] stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocalValue {
    /// Index into [`FunctionBody::args`].
    Argument(u32),
    /// Index into [`FunctionBody::constants`].
    Constant(u32),
    /// An instruction with a result.
    Instruction {
        /// The block.
        block: BlockId,
        /// The index in [`BasicBlock::instructions`].
        index: u32,
    },
}

/// A function argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Argument {
    /// Its type.
    pub ty: TypeId,
    /// Its value ID.
    pub value: ValueId,
    /// Its name from the function's VALUE_SYMTAB, if any.
    pub name: Option<Vec<u8>>,
}

/// A basic block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BasicBlock {
    /// Its name (VST_BBENTRY), if any.
    pub name: Option<Vec<u8>>,
    /// The instructions in order.
    pub instructions: Vec<Instruction>,
}

/// A metadata attachment: `!kind !node`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Attachment {
    /// The kind ID ([`MetadataKind::id`]).
    pub kind: u32,
    /// The attached node.
    pub node: MetadataId,
}

/// A FUNC_CODE_DEBUG_LOC (or DEBUG_LOC_AGAIN, which repeats the last one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DebugLoc {
    /// Line.
    pub line: u64,
    /// Column.
    pub column: u64,
    /// The scope node.
    pub scope: Option<MetadataId>,
    /// The inlined-at location node.
    pub inlined_at: Option<MetadataId>,
}

/// An operand of an instruction: a value, or metadata (a call argument of
/// type `metadata`, as `llvm.dbg.value` takes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A value.
    Value(ValueId),
    /// Metadata wrapped as a value (`metadata !12`).
    Metadata(MetadataId),
}

/// One instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// What it does.
    pub kind: InstructionKind,
    /// Its result type; `None` for an instruction without a result
    /// (store, br, a call returning void, …).
    pub ty: Option<TypeId>,
    /// Its value ID, when it has a result.
    pub value: Option<ValueId>,
    /// Its name from the function's VALUE_SYMTAB, if any.
    pub name: Option<Vec<u8>>,
    /// Its debug location.
    pub debug_loc: Option<DebugLoc>,
    /// Its metadata attachments in record order (LLVM's writer leaves
    /// `!dbg` to [`Instruction::debug_loc`]).
    pub attachments: Vec<Attachment>,
}

/// An incoming edge of a `phi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PhiIncoming {
    /// The value.
    pub value: Operand,
    /// The predecessor block.
    pub block: BlockId,
}

/// A `switch` case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SwitchCase {
    /// The case value (a constant).
    pub value: ValueId,
    /// The destination.
    pub dest: BlockId,
}

/// The instructions LLVM 3.7 bitcode holds (every one DXIL allows, and the
/// few others a module may carry).
#[derive(Debug, Clone, PartialEq)]
pub enum InstructionKind {
    /// FUNC_CODE_INST_BINOP.
    BinOp {
        /// The operation.
        op: BinOp,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
        /// Flags.
        flags: BinOpFlags,
    },
    /// FUNC_CODE_INST_CAST (the target type is the instruction's type).
    Cast {
        /// The cast.
        op: CastOp,
        /// The operand.
        value: Operand,
    },
    /// FUNC_CODE_INST_CMP / CMP2: `icmp` or `fcmp`.
    Compare {
        /// The predicate.
        predicate: Predicate,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
        /// Fast-math flags (fcmp).
        fast_math: FastMathFlags,
    },
    /// FUNC_CODE_INST_VSELECT (and the old SELECT).
    Select {
        /// Condition.
        condition: Operand,
        /// Value if true.
        if_true: Operand,
        /// Value if false.
        if_false: Operand,
    },
    /// FUNC_CODE_INST_EXTRACTELT.
    ExtractElement {
        /// The vector.
        vector: Operand,
        /// The index.
        index: Operand,
    },
    /// FUNC_CODE_INST_INSERTELT.
    InsertElement {
        /// The vector.
        vector: Operand,
        /// The element.
        element: Operand,
        /// The index.
        index: Operand,
    },
    /// FUNC_CODE_INST_SHUFFLEVEC.
    ShuffleVector {
        /// First vector.
        first: Operand,
        /// Second vector.
        second: Operand,
        /// The mask.
        mask: Operand,
    },
    /// FUNC_CODE_INST_EXTRACTVAL.
    ExtractValue {
        /// The aggregate.
        aggregate: Operand,
        /// The indices.
        indices: Vec<u64>,
    },
    /// FUNC_CODE_INST_INSERTVAL.
    InsertValue {
        /// The aggregate.
        aggregate: Operand,
        /// The inserted value.
        value: Operand,
        /// The indices.
        indices: Vec<u64>,
    },
    /// FUNC_CODE_INST_GEP (and the older GEP_OLD / INBOUNDS_GEP_OLD).
    GetElementPtr {
        /// `inbounds`
        inbounds: bool,
        /// The source element type (explicit in INST_GEP, the pointee otherwise).
        source_type: TypeId,
        /// The pointer, then the indices.
        operands: Vec<Operand>,
    },
    /// FUNC_CODE_INST_PHI (the type is the instruction's type).
    Phi {
        /// Incoming (value, block) pairs in record order.
        incoming: Vec<PhiIncoming>,
    },
    /// FUNC_CODE_INST_RET.
    Ret {
        /// The returned value (`ret void` without).
        value: Option<Operand>,
    },
    /// FUNC_CODE_INST_BR, unconditional.
    Br {
        /// The destination.
        dest: BlockId,
    },
    /// FUNC_CODE_INST_BR, conditional.
    CondBr {
        /// The condition.
        condition: Operand,
        /// Destination if true.
        if_true: BlockId,
        /// Destination if false.
        if_false: BlockId,
    },
    /// FUNC_CODE_INST_SWITCH.
    Switch {
        /// The condition.
        condition: Operand,
        /// The default destination.
        default: BlockId,
        /// The cases in record order.
        cases: Vec<SwitchCase>,
    },
    /// FUNC_CODE_INST_INDIRECTBR.
    IndirectBr {
        /// The address.
        address: Operand,
        /// The possible destinations.
        destinations: Vec<BlockId>,
    },
    /// FUNC_CODE_INST_UNREACHABLE.
    Unreachable,
    /// FUNC_CODE_INST_ALLOCA (the instruction's type is the pointer).
    Alloca {
        /// The allocated type.
        allocated_type: TypeId,
        /// The element count operand.
        size: Operand,
        /// Alignment in bytes (0: none).
        alignment: u64,
        /// `inalloca`
        inalloca: bool,
    },
    /// FUNC_CODE_INST_LOAD / LOADATOMIC (the loaded type is the instruction's type).
    Load {
        /// The pointer.
        pointer: Operand,
        /// Alignment in bytes (0: none).
        alignment: u64,
        /// `volatile`
        volatile: bool,
        /// Ordering and scope of an atomic load.
        atomic: Option<Atomic>,
    },
    /// FUNC_CODE_INST_STORE / STOREATOMIC (and the _OLD forms).
    Store {
        /// The pointer.
        pointer: Operand,
        /// The stored value.
        value: Operand,
        /// Alignment in bytes (0: none).
        alignment: u64,
        /// `volatile`
        volatile: bool,
        /// Ordering and scope of an atomic store.
        atomic: Option<Atomic>,
    },
    /// FUNC_CODE_INST_CMPXCHG (and CMPXCHG_OLD).
    CmpXchg {
        /// The pointer.
        pointer: Operand,
        /// The expected value.
        compare: Operand,
        /// The new value.
        new_value: Operand,
        /// `volatile`
        volatile: bool,
        /// `weak`
        weak: bool,
        /// Ordering on success.
        success_ordering: AtomicOrdering,
        /// Ordering on failure.
        failure_ordering: AtomicOrdering,
        /// Scope.
        scope: SynchScope,
    },
    /// FUNC_CODE_INST_ATOMICRMW.
    AtomicRmw {
        /// The operation.
        op: RmwOp,
        /// The pointer.
        pointer: Operand,
        /// The operand value.
        value: Operand,
        /// `volatile`
        volatile: bool,
        /// Ordering.
        ordering: AtomicOrdering,
        /// Scope.
        scope: SynchScope,
    },
    /// FUNC_CODE_INST_FENCE.
    Fence {
        /// Ordering.
        ordering: AtomicOrdering,
        /// Scope.
        scope: SynchScope,
    },
    /// FUNC_CODE_INST_CALL.
    Call {
        /// The callee (usually a function of the module).
        callee: Operand,
        /// The function type called.
        function_type: TypeId,
        /// The arguments, in order (metadata arguments as [`Operand::Metadata`]).
        args: Vec<Operand>,
        /// Attribute list ID (1-based into [`Module::attribute_lists`], 0: none).
        attributes: u64,
        /// Calling convention.
        calling_conv: u64,
        /// `tail` / `musttail`.
        tail: TailCall,
        /// Fast-math flags.
        fast_math: FastMathFlags,
        /// Whether the record gave the function type explicitly.
        explicit_type: bool,
    },
    /// FUNC_CODE_INST_VAARG (the result type is the instruction's type).
    VaArg {
        /// The va_list pointer.
        list: Operand,
        /// Its type.
        list_type: TypeId,
    },
}

impl InstructionKind {
    /// The instruction's value operands in LLVM's operand order (a call's
    /// arguments before its callee, a store's value before its pointer, a
    /// switch's condition then its case values); block operands are left
    /// out. This is the order LLVM's value enumerator meets constants in.
    pub fn operands(&self) -> Vec<Operand> {
        let mut out = Vec::new();
        self.clone().for_each_operand_mut(&mut |o| out.push(*o));
        out
    }

    /// Calls `f` with each operand, mutably, in [`InstructionKind::operands`]
    /// order (a renumbering rewrites them). A switch case's value is passed
    /// as an [`Operand::Value`] and written back only if it stays one.
    pub fn for_each_operand_mut(&mut self, f: &mut dyn FnMut(&mut Operand)) {
        use InstructionKind::*;
        match self {
            BinOp { lhs, rhs, .. } | Compare { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            Cast { value: a, .. }
            | ExtractValue { aggregate: a, .. }
            | CondBr { condition: a, .. }
            | IndirectBr { address: a, .. }
            | Alloca { size: a, .. }
            | Load { pointer: a, .. }
            | VaArg { list: a, .. } => f(a),
            Select {
                condition: a,
                if_true: b,
                if_false: c,
            }
            | InsertElement {
                vector: a,
                element: b,
                index: c,
            }
            | ShuffleVector {
                first: a,
                second: b,
                mask: c,
            }
            | CmpXchg {
                pointer: a,
                compare: b,
                new_value: c,
                ..
            } => {
                f(a);
                f(b);
                f(c);
            }
            ExtractElement {
                vector: a,
                index: b,
            }
            | InsertValue {
                aggregate: a,
                value: b,
                ..
            }
            | Store {
                value: a,
                pointer: b,
                ..
            }
            | AtomicRmw {
                pointer: a,
                value: b,
                ..
            } => {
                f(a);
                f(b);
            }
            GetElementPtr { operands, .. } => operands.iter_mut().for_each(f),
            Phi { incoming } => incoming.iter_mut().for_each(|i| f(&mut i.value)),
            Ret { value } => {
                if let Some(v) = value {
                    f(v);
                }
            }
            Br { .. } | Unreachable | Fence { .. } => {}
            Switch {
                condition, cases, ..
            } => {
                f(condition);
                for case in cases {
                    let mut op = Operand::Value(case.value);
                    f(&mut op);
                    if let Operand::Value(v) = op {
                        case.value = v;
                    }
                }
            }
            Call { callee, args, .. } => {
                args.iter_mut().for_each(&mut *f);
                f(callee);
            }
        }
    }
}
