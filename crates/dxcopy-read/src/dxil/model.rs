//! The typed model of a DXIL module: what LLVM 3.7's bitcode reader builds,
//! kept close to the bitcode so that a printer can reproduce LLVM 3.7's
//! AsmWriter output exactly (docs/format/dxil-module.md).
//!
//! Everything is an index into a table of the [`Module`]:
//! - types are [`TypeId`]s into [`Module::types`], in TYPE_BLOCK order;
//! - values are [`ValueId`]s in LLVM's global numbering: the globals,
//!   functions and aliases in MODULE record order, then the module constants
//!   ([`Module::values`]); inside a function body the numbering goes on with
//!   the arguments, the function's constants and the instruction results
//!   ([`FunctionBody::values`]), starting at `module.values.len()`;
//! - metadata are [`MetadataId`]s into [`Module::metadata`], then, inside a
//!   function, into [`FunctionBody::metadata`] (numbered on from
//!   `module.metadata.len()`);
//! - basic blocks are [`BlockId`]s into [`FunctionBody::blocks`].
//!
//! Names and metadata strings are bytes, as the bitcode stores them (LLVM's
//! printer escapes bytes, not characters). Nothing in the model refers to
//! the bitcode it was read from.

/// Index into [`Module::types`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// A value in LLVM's numbering: module values first ([`Module::values`]),
/// then a function's local values ([`FunctionBody::values`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// Index into [`Module::metadata`], or for IDs at or past its length into
/// the enclosing function's [`FunctionBody::metadata`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MetadataId(pub u32);

/// Index into [`FunctionBody::blocks`] (the bitcode's basic block number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

macro_rules! index_fn {
    ($($t:ty),*) => {$(
        impl $t {
            /// The index as a `usize`.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}
index_fn!(TypeId, ValueId, MetadataId, BlockId);

/// A whole module, as read from a DXIL, ILDB or STAT part's bitcode.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Module {
    /// The IDENTIFICATION block (LLVM 3.8+ writers; dxc writes none).
    pub identification: Option<Identification>,
    /// MODULE_CODE_VERSION: 0 absolute value IDs, 1 relative IDs in
    /// function bodies (dxc), 2 names in a string table (LLVM 5+).
    pub version: u64,
    /// MODULE_CODE_TRIPLE (`dxil-ms-dx`).
    pub triple: Option<String>,
    /// MODULE_CODE_DATALAYOUT, as stored.
    pub data_layout: Option<String>,
    /// MODULE_CODE_ASM: module-level inline assembly, as stored.
    pub inline_asm: Option<Vec<u8>>,
    /// MODULE_CODE_SECTIONNAME records in order (globals refer to them by index + 1).
    pub section_names: Vec<Vec<u8>>,
    /// MODULE_CODE_GCNAME records in order (functions refer to them by index + 1).
    pub gc_names: Vec<Vec<u8>>,
    /// MODULE_CODE_DEPLIB records in order (obsolete, kept for completeness).
    pub dependent_libraries: Vec<Vec<u8>>,
    /// MODULE_CODE_SOURCE_FILENAME (LLVM 4+).
    pub source_filename: Option<Vec<u8>>,
    /// MODULE_CODE_VSTOFFSET (LLVM 3.8+): the module VST's offset in 32-bit words.
    pub vst_offset: Option<u64>,
    /// MODULE_CODE_HASH (LLVM 4+): five 32-bit words.
    pub hash: Option<[u32; 5]>,
    /// MODULE_CODE_COMDAT records in order (globals refer to them by index + 1).
    pub comdats: Vec<Comdat>,
    /// The type table, in TYPE_BLOCK order.
    pub types: Vec<Type>,
    /// PARAMATTR_GROUP_BLOCK entries, in record order.
    pub attribute_groups: Vec<AttributeGroup>,
    /// PARAMATTR_BLOCK entries, in record order (attribute list ID `n` is
    /// `attribute_lists[n - 1]`; 0 means none).
    pub attribute_lists: Vec<AttributeList>,
    /// MODULE_CODE_GLOBALVAR records in order.
    pub globals: Vec<GlobalVariable>,
    /// MODULE_CODE_FUNCTION records in order.
    pub functions: Vec<Function>,
    /// MODULE_CODE_ALIAS records in order.
    pub aliases: Vec<Alias>,
    /// The module-level value table: globals, functions and aliases in
    /// record order, then the module constants. Indexed by [`ValueId`].
    pub values: Vec<ModuleValue>,
    /// The module-level CONSTANTS block's constants ([`ModuleValue::Constant`] indexes it).
    pub constants: Vec<Constant>,
    /// The module-level METADATA block's metadata, indexed by [`MetadataId`].
    pub metadata: Vec<Metadata>,
    /// Named metadata (`!llvm.ident = !{…}`), in record order.
    pub named_metadata: Vec<NamedMetadata>,
    /// METADATA_KIND records (`dbg`, `tbaa`, … and dxc's `dx.*` kinds), in record order.
    pub metadata_kinds: Vec<MetadataKind>,
    /// The module VALUE_SYMTAB's value IDs in record order. dxc sorts the
    /// entries by name since 2019; older releases wrote them in the order
    /// of LLVM's string hash table, which depends on the compiler's history,
    /// not on the module: a writer follows this order when it names exactly
    /// the named values (clear it to get the sorted order).
    pub symbol_order: Vec<ValueId>,
    /// The module-level USELIST_BLOCK records (a writer asked to keep
    /// use-list order writes them, as dxc does for some debug modules).
    pub use_lists: Vec<UseList>,
}

/// A USELIST_CODE_DEFAULT or USELIST_CODE_BB record: the permutation of a
/// value's uses, then the value (or basic block) ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UseList {
    /// USELIST_CODE_BB (the ID is a basic block's).
    pub block: bool,
    /// The record's fields: the use indexes, then the ID.
    pub fields: Vec<u64>,
}

/// An entry of a function's VALUE_SYMTAB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// VST_ENTRY: an argument or instruction.
    Value(ValueId),
    /// VST_BBENTRY: a basic block.
    Block(BlockId),
}

/// The IDENTIFICATION block (LLVM 3.8+).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identification {
    /// The producer string (`LLVM22.1.0`, …).
    pub producer: String,
    /// The bitcode epoch.
    pub epoch: Option<u64>,
}

/// A comdat: MODULE_CODE_COMDAT `[selection_kind, name]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comdat {
    /// Selection kind as stored (1 any, 2 exactmatch, 3 largest, 4 noduplicates, 5 samesize).
    pub selection_kind: u64,
    /// The comdat's name.
    pub name: Vec<u8>,
}

// ---------------------------------------------------------------- types

/// One entry of the type table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    /// `void`
    Void,
    /// `half`
    Half,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `x86_fp80`
    X86Fp80,
    /// `fp128`
    Fp128,
    /// `ppc_fp128`
    PpcFp128,
    /// `label`
    Label,
    /// `metadata`
    Metadata,
    /// `x86_mmx`
    X86Mmx,
    /// `iN`
    Integer {
        /// The width in bits (1 ..= 2^23 - 1).
        bits: u32,
    },
    /// A typed pointer `T addrspace(N)*`.
    Pointer {
        /// The pointee type.
        pointee: TypeId,
        /// The address space (0 default; DXIL uses 3 for groupshared).
        address_space: u32,
    },
    /// A struct, literal or named, possibly opaque.
    Struct(StructType),
    /// `[N x T]`
    Array {
        /// Element count.
        len: u64,
        /// Element type.
        element: TypeId,
    },
    /// `<N x T>`
    Vector {
        /// Element count.
        len: u64,
        /// Element type.
        element: TypeId,
    },
    /// A function type.
    Function(FunctionType),
    /// LLVM 15+'s opaque `ptr` (TYPE_CODE_OPAQUE_POINTER `[addrspace]`),
    /// found only in modules of later LLVM writers (version 2), never in
    /// dxc's.
    OpaquePointer {
        /// The address space.
        address_space: u32,
    },
}

/// A struct type: TYPE_CODE_STRUCT_ANON (literal), TYPE_CODE_STRUCT_NAMED
/// (named, with a body) or TYPE_CODE_OPAQUE (named, no body). A named struct
/// that is referred to but never defined is opaque too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructType {
    /// The name (from the STRUCT_NAME record before it); `None` for a literal struct.
    pub name: Option<Vec<u8>>,
    /// `<{ … }>`
    pub packed: bool,
    /// The element types; `None` for an opaque struct.
    pub body: Option<Vec<TypeId>>,
}

/// A function type: TYPE_CODE_FUNCTION `[vararg, retty, paramty x N]`
/// (or the older FUNCTION_OLD with an attribute ID, which is ignored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionType {
    /// `…` after the parameters.
    pub vararg: bool,
    /// The return type.
    pub ret: TypeId,
    /// The parameter types.
    pub params: Vec<TypeId>,
}

// ---------------------------------------------------------------- attributes

/// A PARAMATTR_GRP_CODE_ENTRY: `[grpid, paramidx, attr…]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeGroup {
    /// The group ID (`#N` in the listing).
    pub id: u32,
    /// What the group applies to: `0xFFFF_FFFF` the function, 0 the return
    /// value, `n` the n-th parameter (1-based).
    pub index: u32,
    /// The attributes in record order.
    pub attributes: Vec<Attribute>,
}

/// One attribute of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attribute {
    /// An enum attribute (kind 0 in the record): `nounwind`, `readnone`, …
    Enum(AttributeKind),
    /// An integer attribute (kind 1): `align`, `alignstack`,
    /// `dereferenceable`, `dereferenceable_or_null` with their value.
    Int(AttributeKind, u64),
    /// A string attribute (kind 3 without a value, 4 with one): `"key"` or `"key"="value"`.
    String {
        /// The key.
        key: Vec<u8>,
        /// The value, for kind 4.
        value: Option<Vec<u8>>,
    },
}

/// An attribute kind code (ATTR_KIND_*, LLVM 3.7 numbering).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttributeKind(pub u64);

impl AttributeKind {
    /// The name LLVM 3.7's AsmWriter prints for the kind (`None` for a code
    /// LLVM 3.7 does not know).
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            1 => "align",
            2 => "alwaysinline",
            3 => "byval",
            4 => "inlinehint",
            5 => "inreg",
            6 => "minsize",
            7 => "naked",
            8 => "nest",
            9 => "noalias",
            10 => "nobuiltin",
            11 => "nocapture",
            12 => "noduplicate",
            13 => "noimplicitfloat",
            14 => "noinline",
            15 => "nonlazybind",
            16 => "noredzone",
            17 => "noreturn",
            18 => "nounwind",
            19 => "optsize",
            20 => "readnone",
            21 => "readonly",
            22 => "returned",
            23 => "returns_twice",
            24 => "signext",
            25 => "alignstack",
            26 => "ssp",
            27 => "sspreq",
            28 => "sspstrong",
            29 => "sret",
            30 => "sanitize_address",
            31 => "sanitize_thread",
            32 => "sanitize_memory",
            33 => "uwtable",
            34 => "zeroext",
            35 => "builtin",
            36 => "cold",
            37 => "optnone",
            38 => "inalloca",
            39 => "nonnull",
            40 => "jumptable",
            41 => "dereferenceable",
            42 => "dereferenceable_or_null",
            43 => "convergent",
            44 => "safestack",
            45 => "argmemonly",
            _ => return None,
        })
    }
}

/// A PARAMATTR_CODE_ENTRY: the attribute groups of one attribute list, in
/// record order (a function's or call's `attributes` field refers to it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AttributeList {
    /// Group IDs ([`AttributeGroup::id`]).
    pub groups: Vec<u32>,
}

// ---------------------------------------------------------------- globals

/// Linkage, decoded as LLVM 3.7's `getDecodedLinkage` does (the obsolete
/// codes map to their replacements).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// `external` (printed as nothing for a definition).
    External,
    /// `available_externally`
    AvailableExternally,
    /// `linkonce`
    LinkOnceAny,
    /// `linkonce_odr`
    LinkOnceOdr,
    /// `weak`
    WeakAny,
    /// `weak_odr`
    WeakOdr,
    /// `appending`
    Appending,
    /// `internal`
    Internal,
    /// `private`
    Private,
    /// `extern_weak`
    ExternWeak,
    /// `common`
    Common,
}

/// Visibility: `default`, `hidden`, `protected`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Visibility {
    /// default
    #[default]
    Default,
    /// `hidden`
    Hidden,
    /// `protected`
    Protected,
}

/// DLL storage class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DllStorage {
    /// none
    #[default]
    Default,
    /// `dllimport`
    Import,
    /// `dllexport`
    Export,
}

/// Thread-local mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ThreadLocal {
    /// Not thread-local.
    #[default]
    NotThreadLocal,
    /// `thread_local`
    GeneralDynamic,
    /// `thread_local(localdynamic)`
    LocalDynamic,
    /// `thread_local(initialexec)`
    InitialExec,
    /// `thread_local(localexec)`
    LocalExec,
}

/// Fields every global value (variable, function, alias) carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalCommon {
    /// The name from the module VALUE_SYMTAB (or the string table); empty when unnamed.
    pub name: Vec<u8>,
    /// The value's ID in the module numbering.
    pub value: ValueId,
    /// The linkage code as stored.
    pub raw_linkage: u64,
    /// The decoded linkage.
    pub linkage: Linkage,
    /// Visibility (default for local linkage, as LLVM forces).
    pub visibility: Visibility,
    /// DLL storage class (from its field, or upgraded from the old
    /// dllimport/dllexport linkage codes 5 and 6).
    pub dll_storage: DllStorage,
    /// `unnamed_addr`
    pub unnamed_addr: bool,
    /// Comdat index + 1 (0: none).
    pub comdat: u64,
}

/// A MODULE_CODE_GLOBALVAR record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalVariable {
    /// Name, linkage, visibility, ….
    pub common: GlobalCommon,
    /// The type of the global's contents.
    pub value_type: TypeId,
    /// The global's own type (a pointer to `value_type` in `address_space`),
    /// when the type table has it (it always does in LLVM-written bitcode).
    pub pointer_type: Option<TypeId>,
    /// `constant` rather than `global`.
    pub is_constant: bool,
    /// `addrspace(N)`.
    pub address_space: u32,
    /// The initializer (a module constant or global value); `None` for an external declaration.
    pub initializer: Option<ValueId>,
    /// Alignment in bytes (0: none).
    pub alignment: u64,
    /// The section name, if any.
    pub section: Option<Vec<u8>>,
    /// Thread-local mode.
    pub thread_local: ThreadLocal,
    /// `externally_initialized`
    pub externally_initialized: bool,
}

/// A MODULE_CODE_ALIAS record (either layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alias {
    /// Name, linkage, visibility, ….
    pub common: GlobalCommon,
    /// The alias's value type (the pointee of its pointer type).
    pub value_type: TypeId,
    /// The alias's pointer type, when the type table has it.
    pub pointer_type: Option<TypeId>,
    /// Its address space.
    pub address_space: u32,
    /// The aliasee.
    pub aliasee: ValueId,
    /// Thread-local mode.
    pub thread_local: ThreadLocal,
}

/// A MODULE_CODE_FUNCTION record and, for a definition, its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Name, linkage, visibility, ….
    pub common: GlobalCommon,
    /// The function type ([`Type::Function`]).
    pub function_type: TypeId,
    /// The function's own type (pointer to `function_type`), when the table has it.
    pub pointer_type: Option<TypeId>,
    /// The calling convention as stored (0 C).
    pub calling_conv: u64,
    /// True for a declaration (the record's `isproto`).
    pub is_declaration: bool,
    /// Attribute list ID (1-based into [`Module::attribute_lists`], 0: none).
    pub attributes: u64,
    /// Alignment in bytes (0: none).
    pub alignment: u64,
    /// Section name, if any.
    pub section: Option<Vec<u8>>,
    /// Garbage collector name, if any.
    pub gc: Option<Vec<u8>>,
    /// `prologue` data (a value of the module).
    pub prologue_data: Option<ValueId>,
    /// `prefix` data.
    pub prefix_data: Option<ValueId>,
    /// `personality` function.
    pub personality: Option<ValueId>,
    /// The body, for a definition whose FUNCTION_BLOCK was read.
    pub body: Option<FunctionBody>,
}

/// What a module-level [`ValueId`] stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModuleValue {
    /// Index into [`Module::globals`].
    Global(u32),
    /// Index into [`Module::functions`].
    Function(u32),
    /// Index into [`Module::aliases`].
    Alias(u32),
    /// Index into [`Module::constants`].
    Constant(u32),
}

// ---------------------------------------------------------------- constants

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

// ---------------------------------------------------------------- operations

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

// ---------------------------------------------------------------- functions

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

// ---------------------------------------------------------------- metadata

/// One metadata ID's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Metadata {
    /// METADATA_STRING (or one string of METADATA_STRINGS): `!"…"`.
    String(Vec<u8>),
    /// METADATA_VALUE: a value as metadata (`i32 1`, `@global`, or in a
    /// function block a local value).
    Value {
        /// The value's type.
        ty: TypeId,
        /// The value.
        value: ValueId,
    },
    /// METADATA_NODE / METADATA_DISTINCT_NODE: `!{…}` / `distinct !{…}`.
    Node {
        /// `distinct`
        distinct: bool,
        /// The operands (`None`: `null`).
        operands: Vec<Option<MetadataId>>,
    },
    /// A specialized node (DILocation, DIFile, DISubprogram, …) with its
    /// fields as the record stores them.
    Debug(DebugNode),
    /// A record of a later LLVM writer (module version 2) that defines a
    /// metadata ID the LLVM 3.7 model does not describe (DILabel,
    /// DIArgList, …): its code and fields.
    Unknown {
        /// The record code.
        code: u32,
        /// The fields.
        fields: Vec<u64>,
    },
}

/// A specialized debug-info node: its kind, `distinct`, and the record's
/// fields in the LLVM 3.7 layout (BitcodeWriter's `writeDI*`), field 0
/// being the distinct flag. Metadata references among the fields are
/// stored as ID + 1 (0: null), as in the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugNode {
    /// Which node.
    pub kind: DebugNodeKind,
    /// `distinct`
    pub distinct: bool,
    /// All the record's fields, in order.
    pub fields: Vec<u64>,
}

/// The specialized metadata records of LLVM 3.7 (METADATA_LOCATION and
/// METADATA_GENERIC_DEBUG … METADATA_MODULE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DebugNodeKind {
    /// METADATA_LOCATION `[distinct, line, col, scope, inlined-at?]`
    Location,
    /// METADATA_GENERIC_DEBUG `[distinct, tag, vers, header, n x md num]`
    GenericDebug,
    /// METADATA_SUBRANGE `[distinct, count, lo]`
    Subrange,
    /// METADATA_ENUMERATOR `[distinct, value, name]`
    Enumerator,
    /// METADATA_BASIC_TYPE `[distinct, tag, name, size, align, enc]`
    BasicType,
    /// METADATA_FILE `[distinct, filename, directory]`
    File,
    /// METADATA_DERIVED_TYPE
    DerivedType,
    /// METADATA_COMPOSITE_TYPE
    CompositeType,
    /// METADATA_SUBROUTINE_TYPE `[distinct, flags, types]`
    SubroutineType,
    /// METADATA_COMPILE_UNIT
    CompileUnit,
    /// METADATA_SUBPROGRAM
    Subprogram,
    /// METADATA_LEXICAL_BLOCK `[distinct, scope, file, line, column]`
    LexicalBlock,
    /// METADATA_LEXICAL_BLOCK_FILE `[distinct, scope, file, discriminator]`
    LexicalBlockFile,
    /// METADATA_NAMESPACE `[distinct, scope, file, name, line]`
    Namespace,
    /// METADATA_TEMPLATE_TYPE `[distinct, name, type]`
    TemplateTypeParameter,
    /// METADATA_TEMPLATE_VALUE `[distinct, tag, name, type, value]`
    TemplateValueParameter,
    /// METADATA_GLOBAL_VAR
    GlobalVariable,
    /// METADATA_LOCAL_VAR
    LocalVariable,
    /// METADATA_EXPRESSION `[distinct, n x element]`
    Expression,
    /// METADATA_OBJC_PROPERTY
    ObjCProperty,
    /// METADATA_IMPORTED_ENTITY `[distinct, tag, scope, entity, line, name]`
    ImportedEntity,
    /// METADATA_MODULE `[distinct, scope, name, …]`
    Module,
}

impl DebugNode {
    /// The indexes of the fields that refer to metadata, in LLVM 3.7's
    /// operand order of the node (the order LLVM's value enumerator and
    /// slot tracker walk; a field may come twice, as the name of a
    /// DISubprogram does). Field 3 of a DILocation (its scope) holds the
    /// metadata ID itself; every other reference holds ID + 1 (0: null).
    pub fn reference_fields(&self) -> Vec<usize> {
        use DebugNodeKind::*;
        let fixed: &[usize] = match self.kind {
            Location => return (3..self.fields.len().min(5)).collect(),
            GenericDebug => return (3..self.fields.len()).collect(),
            Subrange | Expression => &[],
            Enumerator | BasicType | SubroutineType => &[2],
            DerivedType => &[3, 5, 2, 6, 11],
            CompositeType => &[3, 5, 2, 6, 11, 13, 14, 15],
            File => &[1, 2],
            CompileUnit => &[2, 3, 5, 7, 9, 10, 11, 12, 13],
            Subprogram => &[4, 1, 2, 2, 3, 6, 10, 15, 16, 17, 18],
            LexicalBlock | LexicalBlockFile => &[2, 1],
            Namespace => &[2, 1, 3],
            TemplateTypeParameter => &[1, 2],
            TemplateValueParameter => &[2, 3, 4],
            GlobalVariable => &[1, 2, 4, 6, 2, 3, 9, 10],
            LocalVariable => &[2, 3, 4, 6],
            ObjCProperty => &[1, 2, 4, 5, 7],
            ImportedEntity => &[2, 3, 5],
            Module => &[1, 2, 3, 4, 5],
        };
        fixed.to_vec()
    }

    /// Whether field `index` holds a metadata ID itself rather than ID + 1
    /// (only a DILocation's scope does).
    pub fn holds_plain_id(&self, index: usize) -> bool {
        self.kind == DebugNodeKind::Location && index == 3
    }

    /// The metadata the node refers to, in operand order
    /// ([`DebugNode::reference_fields`]); `None` for a null reference.
    pub fn references(&self) -> Vec<Option<MetadataId>> {
        self.reference_fields()
            .into_iter()
            .map(|i| {
                let raw = self.fields.get(i).copied()?;
                let id = if self.holds_plain_id(i) {
                    raw
                } else {
                    raw.checked_sub(1)?
                };
                u32::try_from(id).ok().map(MetadataId)
            })
            .collect()
    }
}

impl DebugNodeKind {
    /// The kind for a METADATA record code, if it is a specialized node.
    pub fn from_code(code: u32) -> Option<DebugNodeKind> {
        use DebugNodeKind::*;
        Some(match code {
            7 => Location,
            12 => GenericDebug,
            13 => Subrange,
            14 => Enumerator,
            15 => BasicType,
            16 => File,
            17 => DerivedType,
            18 => CompositeType,
            19 => SubroutineType,
            20 => CompileUnit,
            21 => Subprogram,
            22 => LexicalBlock,
            23 => LexicalBlockFile,
            24 => Namespace,
            25 => TemplateTypeParameter,
            26 => TemplateValueParameter,
            27 => GlobalVariable,
            28 => LocalVariable,
            29 => Expression,
            30 => ObjCProperty,
            31 => ImportedEntity,
            32 => Module,
            _ => return None,
        })
    }

    /// The node's name in the listing (`DILocation`, `DIFile`, …).
    pub fn name(self) -> &'static str {
        use DebugNodeKind::*;
        match self {
            Location => "DILocation",
            GenericDebug => "GenericDINode",
            Subrange => "DISubrange",
            Enumerator => "DIEnumerator",
            BasicType => "DIBasicType",
            File => "DIFile",
            DerivedType => "DIDerivedType",
            CompositeType => "DICompositeType",
            SubroutineType => "DISubroutineType",
            CompileUnit => "DICompileUnit",
            Subprogram => "DISubprogram",
            LexicalBlock => "DILexicalBlock",
            LexicalBlockFile => "DILexicalBlockFile",
            Namespace => "DINamespace",
            TemplateTypeParameter => "DITemplateTypeParameter",
            TemplateValueParameter => "DITemplateValueParameter",
            GlobalVariable => "DIGlobalVariable",
            LocalVariable => "DILocalVariable",
            Expression => "DIExpression",
            ObjCProperty => "DIObjCProperty",
            ImportedEntity => "DIImportedEntity",
            Module => "DIModule",
        }
    }
}

/// A METADATA_NAME + METADATA_NAMED_NODE pair: `!name = !{!1, !2}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedMetadata {
    /// The name.
    pub name: Vec<u8>,
    /// The operands (module metadata IDs).
    pub operands: Vec<MetadataId>,
}

/// A METADATA_KIND record: `[id, name]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataKind {
    /// The kind ID attachments use.
    pub id: u32,
    /// The name (`dbg`, `tbaa`, `dx.controlflow.hints`, …).
    pub name: Vec<u8>,
}

// ---------------------------------------------------------------- lookups

impl Module {
    /// The type with `id`.
    pub fn ty(&self, id: TypeId) -> Option<&Type> {
        self.types.get(id.index())
    }

    /// The module-level value with `id` (`None` for a function-local ID).
    pub fn value(&self, id: ValueId) -> Option<ModuleValue> {
        self.values.get(id.index()).copied()
    }

    /// The module constant with value `id`.
    pub fn constant(&self, id: ValueId) -> Option<&Constant> {
        match self.value(id)? {
            ModuleValue::Constant(i) => self.constants.get(i as usize),
            _ => None,
        }
    }

    /// The type of a module-level value (a global value's pointer type, a
    /// constant's type).
    pub fn value_type(&self, id: ValueId) -> Option<TypeId> {
        match self.value(id)? {
            ModuleValue::Global(i) => self.globals.get(i as usize)?.pointer_type,
            ModuleValue::Function(i) => self.functions.get(i as usize)?.pointer_type,
            ModuleValue::Alias(i) => self.aliases.get(i as usize)?.pointer_type,
            ModuleValue::Constant(i) => Some(self.constants.get(i as usize)?.ty),
        }
    }

    /// The type of `id` inside `body` (module values and local values alike).
    pub fn value_type_in(&self, body: Option<&FunctionBody>, id: ValueId) -> Option<TypeId> {
        if (id.index()) < self.values.len() {
            return self.value_type(id);
        }
        body?.value_type(id)
    }

    /// The name of a global value (empty for an unnamed one; `None` for a
    /// constant or an unknown ID).
    pub fn global_name(&self, id: ValueId) -> Option<&[u8]> {
        Some(match self.value(id)? {
            ModuleValue::Global(i) => &self.globals.get(i as usize)?.common.name,
            ModuleValue::Function(i) => &self.functions.get(i as usize)?.common.name,
            ModuleValue::Alias(i) => &self.aliases.get(i as usize)?.common.name,
            ModuleValue::Constant(_) => return None,
        })
    }

    /// The function named `name`.
    pub fn function(&self, name: &[u8]) -> Option<&Function> {
        self.functions.iter().find(|f| f.common.name == name)
    }

    /// Module metadata `id`.
    pub fn metadata(&self, id: MetadataId) -> Option<&Metadata> {
        self.metadata.get(id.index())
    }

    /// The named metadata called `name`.
    pub fn named_metadata(&self, name: &[u8]) -> Option<&NamedMetadata> {
        self.named_metadata.iter().find(|n| n.name == name)
    }

    /// The bytes of metadata string `id`.
    pub fn metadata_string(&self, id: MetadataId) -> Option<&[u8]> {
        match self.metadata(id)? {
            Metadata::String(s) => Some(s),
            _ => None,
        }
    }

    /// The operands of metadata node `id` (plain or distinct).
    pub fn metadata_node(&self, id: MetadataId) -> Option<&[Option<MetadataId>]> {
        match self.metadata(id)? {
            Metadata::Node { operands, .. } => Some(operands),
            _ => None,
        }
    }

    /// The module constant that metadata `id` wraps (`i32 5` in `!{i32 5}`).
    pub fn metadata_constant(&self, id: MetadataId) -> Option<&Constant> {
        match self.metadata(id)? {
            Metadata::Value { value, .. } => self.constant(*value),
            _ => None,
        }
    }

    /// The integer that metadata `id` wraps (`Null` is 0).
    pub fn metadata_int(&self, id: MetadataId) -> Option<i64> {
        match self.metadata_constant(id)?.kind {
            ConstantKind::Integer(v) => Some(v),
            ConstantKind::Null => Some(0),
            _ => None,
        }
    }

    /// The global value (variable, function, alias) that metadata `id` wraps.
    pub fn metadata_global(&self, id: MetadataId) -> Option<ValueId> {
        match self.metadata(id)? {
            Metadata::Value { value, .. } => match self.value(*value)? {
                ModuleValue::Constant(_) => None,
                _ => Some(*value),
            },
            _ => None,
        }
    }

    /// The name of the kind with `id` (`dbg`, …).
    pub fn metadata_kind_name(&self, id: u32) -> Option<&[u8]> {
        self.metadata_kinds
            .iter()
            .find(|k| k.id == id)
            .map(|k| k.name.as_slice())
    }

    /// The attribute groups of attribute list `id` (1-based; 0 gives none).
    pub fn attribute_list(&self, id: u64) -> Option<&AttributeList> {
        let index = usize::try_from(id.checked_sub(1)?).ok()?;
        self.attribute_lists.get(index)
    }

    /// The attribute group with group ID `id`.
    pub fn attribute_group(&self, id: u32) -> Option<&AttributeGroup> {
        self.attribute_groups.iter().find(|g| g.id == id)
    }
}

impl FunctionBody {
    /// What local value `id` is (`None` for a module value or an unknown ID).
    pub fn local(&self, id: ValueId) -> Option<LocalValue> {
        let index = id.0.checked_sub(self.first_value)?;
        self.values.get(index as usize).copied()
    }

    /// The instruction at `block`, `index`.
    pub fn instruction(&self, block: BlockId, index: u32) -> Option<&Instruction> {
        self.blocks
            .get(block.index())?
            .instructions
            .get(index as usize)
    }

    /// The type of a local value.
    pub fn value_type(&self, id: ValueId) -> Option<TypeId> {
        match self.local(id)? {
            LocalValue::Argument(i) => Some(self.args.get(i as usize)?.ty),
            LocalValue::Constant(i) => Some(self.constants.get(i as usize)?.ty),
            LocalValue::Instruction { block, index } => self.instruction(block, index)?.ty,
        }
    }

    /// The local constant with value `id`.
    pub fn constant(&self, id: ValueId) -> Option<&Constant> {
        match self.local(id)? {
            LocalValue::Constant(i) => self.constants.get(i as usize),
            _ => None,
        }
    }

    /// Function-level metadata `id` (IDs from `module_metadata_len` on).
    pub fn metadata(&self, id: MetadataId, module_metadata_len: usize) -> Option<&Metadata> {
        self.metadata
            .get(id.index().checked_sub(module_metadata_len)?)
    }

    /// The number of instructions in the body.
    pub fn instruction_count(&self) -> usize {
        self.blocks.iter().map(|b| b.instructions.len()).sum()
    }
}

impl Function {
    /// The function's name.
    pub fn name(&self) -> &[u8] {
        &self.common.name
    }
}

impl GlobalVariable {
    /// The variable's name.
    pub fn name(&self) -> &[u8] {
        &self.common.name
    }
}
