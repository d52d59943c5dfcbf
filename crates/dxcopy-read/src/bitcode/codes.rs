//! Block IDs and record codes of LLVM IR bitcode that dxcopy reads (the LLVM
//! 3.7 numbering dxc writes, from LLVMBitCodes.h, plus the later blocks that
//! LLVM 3.8+ writers add).

/// Block IDs.
pub mod block {
    /// BLOCKINFO
    pub const BLOCKINFO: u32 = 0;
    /// MODULE_BLOCK
    pub const MODULE: u32 = 8;
    /// PARAMATTR_BLOCK
    pub const PARAMATTR: u32 = 9;
    /// PARAMATTR_GROUP_BLOCK
    pub const PARAMATTR_GROUP: u32 = 10;
    /// CONSTANTS_BLOCK
    pub const CONSTANTS: u32 = 11;
    /// FUNCTION_BLOCK
    pub const FUNCTION: u32 = 12;
    /// IDENTIFICATION_BLOCK (LLVM 3.8+)
    pub const IDENTIFICATION: u32 = 13;
    /// VALUE_SYMTAB_BLOCK
    pub const VALUE_SYMTAB: u32 = 14;
    /// METADATA_BLOCK
    pub const METADATA: u32 = 15;
    /// METADATA_ATTACHMENT
    pub const METADATA_ATTACHMENT: u32 = 16;
    /// TYPE_BLOCK_NEW
    pub const TYPE: u32 = 17;
    /// USELIST_BLOCK
    pub const USELIST: u32 = 18;
    /// METADATA_KIND_BLOCK (LLVM 3.9+)
    pub const METADATA_KIND: u32 = 22;
    /// STRTAB_BLOCK (LLVM 5+)
    pub const STRTAB: u32 = 23;
}

/// MODULE_BLOCK record codes.
pub mod module {
    /// VERSION: `[version#]`
    pub const VERSION: u32 = 1;
    /// TRIPLE: `[strchr x N]`
    pub const TRIPLE: u32 = 2;
    /// DATALAYOUT: `[strchr x N]`
    pub const DATALAYOUT: u32 = 3;
    /// GLOBALVAR: `[(strtab offset, size,) pointer type, isconst, initid, linkage, …]`
    pub const GLOBALVAR: u32 = 7;
    /// FUNCTION: `[(strtab offset, size,) type, callingconv, isproto, linkage, …]`
    pub const FUNCTION: u32 = 8;
    /// ALIAS (old): `[alias type, aliasee val#, linkage, visibility]`
    pub const ALIAS_OLD: u32 = 9;
    /// ALIAS: `[(strtab offset, size,) alias type, addrspace, aliasee val#, linkage, …]`
    pub const ALIAS: u32 = 14;
    /// IFUNC
    pub const IFUNC: u32 = 15;
}

/// IDENTIFICATION_BLOCK record codes.
pub mod identification {
    /// STRING: `[strchr x N]`, the producer.
    pub const STRING: u32 = 1;
    /// EPOCH: `[epoch#]`
    pub const EPOCH: u32 = 2;
}

/// TYPE_BLOCK_NEW record codes.
pub mod types {
    /// STRUCT_NAME: `[strchr x N]`
    pub const STRUCT_NAME: u32 = 19;
}

/// VALUE_SYMTAB record codes.
pub mod value_symtab {
    /// VST_ENTRY: `[valueid, namechar x N]`
    pub const ENTRY: u32 = 1;
    /// VST_BBENTRY: `[bbid, namechar x N]`
    pub const BBENTRY: u32 = 2;
    /// VST_FNENTRY: `[valueid, offset, namechar x N]`
    pub const FNENTRY: u32 = 3;
}

/// CONSTANTS_BLOCK record codes.
pub mod constants {
    /// SETTYPE: `[typeid]`
    pub const SETTYPE: u32 = 1;
    /// NULL (zero of the current type)
    pub const NULL: u32 = 2;
    /// INTEGER: `[signed VBR value]`
    pub const INTEGER: u32 = 4;
}

/// METADATA_BLOCK record codes.
pub mod metadata {
    /// STRING (LLVM 3.7): `[values]`
    pub const STRING_OLD: u32 = 1;
    /// VALUE: `[type, value]`
    pub const VALUE: u32 = 2;
    /// NODE: `[n x (md id + 1)]`
    pub const NODE: u32 = 3;
    /// NAME: `[values]`
    pub const NAME: u32 = 4;
    /// DISTINCT_NODE: `[n x (md id + 1)]`
    pub const DISTINCT_NODE: u32 = 5;
    /// KIND: `[id, name]`
    pub const KIND: u32 = 6;
    /// NAMED_NODE: `[n x md id]`
    pub const NAMED_NODE: u32 = 10;
    /// ATTACHMENT
    pub const ATTACHMENT: u32 = 11;
    /// STRINGS (LLVM 4+): `[count, offset size, blob]`
    pub const STRINGS: u32 = 35;
    /// GLOBAL_DECL_ATTACHMENT
    pub const GLOBAL_DECL_ATTACHMENT: u32 = 36;
    /// INDEX_OFFSET
    pub const INDEX_OFFSET: u32 = 38;
    /// INDEX
    pub const INDEX: u32 = 39;
}

/// STRTAB_BLOCK record codes.
pub mod strtab {
    /// BLOB: `[blob]`
    pub const BLOB: u32 = 1;
}
