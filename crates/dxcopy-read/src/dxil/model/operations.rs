//! The operations of instructions and constant expressions: opcodes, predicates, flags.

/// Binary operations, with the bitcode's overloaded codes resolved by
/// operand type (BINOP_ADD on floats is `fadd`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `add`
    Add,
    /// `fadd`
    FAdd,
    /// `sub`
    Sub,
    /// `fsub`
    FSub,
    /// `mul`
    Mul,
    /// `fmul`
    FMul,
    /// `udiv`
    UDiv,
    /// `sdiv`
    SDiv,
    /// `fdiv`
    FDiv,
    /// `urem`
    URem,
    /// `srem`
    SRem,
    /// `frem`
    FRem,
    /// `shl`
    Shl,
    /// `lshr`
    LShr,
    /// `ashr`
    AShr,
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
}

impl BinOp {
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::FAdd => "fadd",
            BinOp::Sub => "sub",
            BinOp::FSub => "fsub",
            BinOp::Mul => "mul",
            BinOp::FMul => "fmul",
            BinOp::UDiv => "udiv",
            BinOp::SDiv => "sdiv",
            BinOp::FDiv => "fdiv",
            BinOp::URem => "urem",
            BinOp::SRem => "srem",
            BinOp::FRem => "frem",
            BinOp::Shl => "shl",
            BinOp::LShr => "lshr",
            BinOp::AShr => "ashr",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
        }
    }
}

/// The optional flags of a binary operation, decoded as LLVM 3.7 does by
/// the operation: `nuw`/`nsw` for add, sub, mul, shl; `exact` for udiv,
/// sdiv, lshr, ashr; fast-math flags for the FP operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BinOpFlags {
    /// `nuw`
    pub nuw: bool,
    /// `nsw`
    pub nsw: bool,
    /// `exact`
    pub exact: bool,
    /// Fast-math flags (FP operations of an instruction).
    pub fast_math: FastMathFlags,
}

/// Fast-math flags as LLVM 3.7 stores them: bit 0 unsafe-algebra (`fast`),
/// 1 `nnan`, 2 `ninf`, 3 `nsz`, 4 `arcp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FastMathFlags(pub u8);

impl FastMathFlags {
    /// Unsafe algebra: printed as `fast` (which implies the others).
    pub fn unsafe_algebra(self) -> bool {
        self.0 & 1 != 0
    }
    /// `nnan`
    pub fn no_nans(self) -> bool {
        self.0 & 2 != 0
    }
    /// `ninf`
    pub fn no_infs(self) -> bool {
        self.0 & 4 != 0
    }
    /// `nsz`
    pub fn no_signed_zeros(self) -> bool {
        self.0 & 8 != 0
    }
    /// `arcp`
    pub fn allow_reciprocal(self) -> bool {
        self.0 & 16 != 0
    }
    /// Whether any flag is set.
    pub fn any(self) -> bool {
        self.0 != 0
    }
}

/// Cast operations (CAST_* codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastOp {
    /// `trunc`
    Trunc,
    /// `zext`
    ZExt,
    /// `sext`
    SExt,
    /// `fptoui`
    FpToUi,
    /// `fptosi`
    FpToSi,
    /// `uitofp`
    UiToFp,
    /// `sitofp`
    SiToFp,
    /// `fptrunc`
    FpTrunc,
    /// `fpext`
    FpExt,
    /// `ptrtoint`
    PtrToInt,
    /// `inttoptr`
    IntToPtr,
    /// `bitcast`
    BitCast,
    /// `addrspacecast`
    AddrSpaceCast,
}

impl CastOp {
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            CastOp::Trunc => "trunc",
            CastOp::ZExt => "zext",
            CastOp::SExt => "sext",
            CastOp::FpToUi => "fptoui",
            CastOp::FpToSi => "fptosi",
            CastOp::UiToFp => "uitofp",
            CastOp::SiToFp => "sitofp",
            CastOp::FpTrunc => "fptrunc",
            CastOp::FpExt => "fpext",
            CastOp::PtrToInt => "ptrtoint",
            CastOp::IntToPtr => "inttoptr",
            CastOp::BitCast => "bitcast",
            CastOp::AddrSpaceCast => "addrspacecast",
        }
    }
}

/// A comparison predicate in LLVM's `CmpInst::Predicate` numbering
/// (0–15 floating point, 32–41 integer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Predicate(pub u32);

impl Predicate {
    /// Whether this is an `fcmp` predicate.
    pub fn is_float(self) -> bool {
        self.0 <= 15
    }

    /// The predicate's name as the AsmWriter prints it (`oeq`, `slt`, …).
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0 => "false",
            1 => "oeq",
            2 => "ogt",
            3 => "oge",
            4 => "olt",
            5 => "ole",
            6 => "one",
            7 => "ord",
            8 => "uno",
            9 => "ueq",
            10 => "ugt",
            11 => "uge",
            12 => "ult",
            13 => "ule",
            14 => "une",
            15 => "true",
            32 => "eq",
            33 => "ne",
            34 => "ugt",
            35 => "uge",
            36 => "ult",
            37 => "ule",
            38 => "sgt",
            39 => "sge",
            40 => "slt",
            41 => "sle",
            _ => return None,
        })
    }
}

/// Atomic memory orderings (ORDERING_* codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AtomicOrdering {
    /// Not atomic.
    #[default]
    NotAtomic,
    /// `unordered`
    Unordered,
    /// `monotonic`
    Monotonic,
    /// `acquire`
    Acquire,
    /// `release`
    Release,
    /// `acq_rel`
    AcqRel,
    /// `seq_cst`
    SeqCst,
}

/// Synchronisation scope (SYNCHSCOPE_* codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SynchScope {
    /// `singlethread`
    SingleThread,
    /// The default: across threads.
    #[default]
    CrossThread,
}

/// `atomicrmw` operations (RMW_* codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RmwOp {
    /// `xchg`
    Xchg,
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `and`
    And,
    /// `nand`
    Nand,
    /// `or`
    Or,
    /// `xor`
    Xor,
    /// `max`
    Max,
    /// `min`
    Min,
    /// `umax`
    UMax,
    /// `umin`
    UMin,
}

impl RmwOp {
    /// The mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            RmwOp::Xchg => "xchg",
            RmwOp::Add => "add",
            RmwOp::Sub => "sub",
            RmwOp::And => "and",
            RmwOp::Nand => "nand",
            RmwOp::Or => "or",
            RmwOp::Xor => "xor",
            RmwOp::Max => "max",
            RmwOp::Min => "min",
            RmwOp::UMax => "umax",
            RmwOp::UMin => "umin",
        }
    }
}

/// The ordering and scope of an atomic load or store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Atomic {
    /// The ordering.
    pub ordering: AtomicOrdering,
    /// The scope.
    pub scope: SynchScope,
}

/// A call's tail-call marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TailCall {
    /// None.
    #[default]
    None,
    /// `tail`
    Tail,
    /// `musttail`
    MustTail,
}
