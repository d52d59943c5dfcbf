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

mod constants;
mod functions;
mod metadata;
mod operations;

pub use constants::*;
pub use functions::*;
pub use metadata::*;
pub use operations::*;

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
