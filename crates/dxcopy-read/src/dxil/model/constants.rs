//! The module's constants: CONSTANTS_BLOCK records as LLVM 3.7 reads them.

use super::*;

/// A constant with its type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Constant {
    /// The constant's type (the CONSTANTS block's SETTYPE in force).
    pub ty: TypeId,
    /// What it is.
    pub kind: ConstantKind,
}

/// The constant forms of a CONSTANTS block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ConstantKind {
    /// CST_CODE_NULL: `zeroinitializer`, `null`, `0`, `0.0`, `false` by type.
    Null,
    /// CST_CODE_UNDEF: `undef`.
    Undef,
    /// CST_CODE_INTEGER for a type of at most 64 bits: the value truncated
    /// to the type's width and sign-extended (LLVM prints integers signed;
    /// `i1` true is -1).
    Integer(i64),
    /// CST_CODE_WIDE_INTEGER (wider than 64 bits): the 64-bit words, least
    /// significant first, each as decoded from its signed VBR.
    WideInteger(Vec<u64>),
    /// CST_CODE_FLOAT for `half`, `float` or `double`: the bit pattern.
    Float(u64),
    /// CST_CODE_FLOAT for `x86_fp80`, `fp128`, `ppc_fp128`: the two words as stored.
    WideFloat([u64; 2]),
    /// CST_CODE_AGGREGATE: a struct, array or vector of constants.
    Aggregate(Vec<ValueId>),
    /// CST_CODE_STRING / CST_CODE_CSTRING: an `i8` array's bytes (for
    /// CSTRING the terminating NUL is included, as in the array).
    String {
        /// All the array's elements.
        bytes: Vec<u8>,
        /// Written as CSTRING (the writer dropped the trailing NUL).
        cstring: bool,
    },
    /// CST_CODE_DATA: elements of an array or vector of integers or floats
    /// (floats as bit patterns).
    Data(Vec<u64>),
    /// CST_CODE_CE_CAST: `op (value to ty)`.
    Cast {
        /// The cast.
        op: CastOp,
        /// The operand.
        value: ValueId,
    },
    /// CST_CODE_CE_BINOP.
    BinOp {
        /// The operation (resolved to its FP form for FP operands).
        op: BinOp,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
        /// nuw / nsw / exact.
        flags: BinOpFlags,
    },
    /// CST_CODE_CE_GEP / CST_CODE_CE_INBOUNDS_GEP.
    GetElementPtr {
        /// `inbounds`
        inbounds: bool,
        /// The explicit source element type, when the record has one (odd operand count).
        source_type: Option<TypeId>,
        /// The pointer, then the indices.
        operands: Vec<ValueId>,
    },
    /// CST_CODE_CE_SELECT.
    Select {
        /// Condition.
        condition: ValueId,
        /// Value if true.
        if_true: ValueId,
        /// Value if false.
        if_false: ValueId,
    },
    /// CST_CODE_CE_EXTRACTELT.
    ExtractElement {
        /// The vector.
        vector: ValueId,
        /// The index.
        index: ValueId,
    },
    /// CST_CODE_CE_INSERTELT.
    InsertElement {
        /// The vector.
        vector: ValueId,
        /// The new element.
        element: ValueId,
        /// The index.
        index: ValueId,
    },
    /// CST_CODE_CE_SHUFFLEVEC / CST_CODE_CE_SHUFVEC_EX.
    ShuffleVector {
        /// First vector.
        first: ValueId,
        /// Second vector.
        second: ValueId,
        /// The mask constant.
        mask: ValueId,
    },
    /// CST_CODE_CE_CMP: `icmp` / `fcmp`.
    Compare {
        /// The predicate.
        predicate: Predicate,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
    },
    /// CST_CODE_BLOCKADDRESS.
    BlockAddress {
        /// The function.
        function: ValueId,
        /// The block number in it.
        block: BlockId,
    },
    /// CST_CODE_INLINEASM (and the older layout).
    InlineAsm {
        /// `sideeffect`
        side_effect: bool,
        /// `alignstack`
        align_stack: bool,
        /// `inteldialect` (0 AT&T, 1 Intel).
        dialect: u64,
        /// The assembly.
        asm: Vec<u8>,
        /// The constraint string.
        constraints: Vec<u8>,
    },
}

impl ConstantKind {
    /// The values the constant refers to, in LLVM's operand order (none for
    /// the plain forms: null, undef, numbers, data).
    pub fn operands(&self) -> Vec<ValueId> {
        match self {
            ConstantKind::Aggregate(elements) => elements.clone(),
            ConstantKind::Cast { value, .. } => vec![*value],
            ConstantKind::BinOp { lhs, rhs, .. } | ConstantKind::Compare { lhs, rhs, .. } => {
                vec![*lhs, *rhs]
            }
            ConstantKind::GetElementPtr { operands, .. } => operands.clone(),
            ConstantKind::Select {
                condition,
                if_true,
                if_false,
            } => vec![*condition, *if_true, *if_false],
            ConstantKind::ExtractElement { vector, index } => vec![*vector, *index],
            ConstantKind::InsertElement {
                vector,
                element,
                index,
            } => vec![*vector, *element, *index],
            ConstantKind::ShuffleVector {
                first,
                second,
                mask,
            } => vec![*first, *second, *mask],
            ConstantKind::BlockAddress { function, .. } => vec![*function],
            _ => Vec::new(),
        }
    }
}

impl ConstantKind {
    /// Calls `f` with each value the constant refers to, mutably, in
    /// [`ConstantKind::operands`] order (a renumbering rewrites them).
    pub fn for_each_operand_mut(&mut self, f: &mut dyn FnMut(&mut ValueId)) {
        match self {
            ConstantKind::Aggregate(ops) | ConstantKind::GetElementPtr { operands: ops, .. } => {
                ops.iter_mut().for_each(f)
            }
            ConstantKind::Cast { value, .. } => f(value),
            ConstantKind::BinOp { lhs, rhs, .. } | ConstantKind::Compare { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            ConstantKind::Select {
                condition: a,
                if_true: b,
                if_false: c,
            }
            | ConstantKind::InsertElement {
                vector: a,
                element: b,
                index: c,
            }
            | ConstantKind::ShuffleVector {
                first: a,
                second: b,
                mask: c,
            } => {
                f(a);
                f(b);
                f(c);
            }
            ConstantKind::ExtractElement { vector, index } => {
                f(vector);
                f(index);
            }
            ConstantKind::BlockAddress { function, .. } => f(function),
            _ => {}
        }
    }
}
