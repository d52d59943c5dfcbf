//! The module block: version, BLOCKINFO, attribute groups and lists, the
//! type table, module info (triple, layout, globals, functions), module
//! constants, metadata, metadata kinds and the value symbol table, in the
//! order of dxc's `WriteModule`.

use super::{
    block, blockinfo as bi, encode_align, log2_ceil, signed, Emitter, ModuleWriteError, UNABBREV,
};
use dxcopy_read::bitcode::AbbrevOp::{Array, Char6, Fixed, Literal, Vbr};
use dxcopy_read::dxil::{
    Attribute, BinOp, CastOp, Constant, ConstantKind, DebugNodeKind, DllStorage, Metadata,
    ModuleValue, ThreadLocal, Type, TypeId, UseList, ValueId, Visibility,
};

type Result<T> = std::result::Result<T, ModuleWriteError>;

/// The binary-operation code (BINOP_*): FP forms share the integer codes.
pub(super) fn binop_code(op: BinOp) -> u64 {
    match op {
        BinOp::Add | BinOp::FAdd => 0,
        BinOp::Sub | BinOp::FSub => 1,
        BinOp::Mul | BinOp::FMul => 2,
        BinOp::UDiv => 3,
        BinOp::SDiv | BinOp::FDiv => 4,
        BinOp::URem => 5,
        BinOp::SRem | BinOp::FRem => 6,
        BinOp::Shl => 7,
        BinOp::LShr => 8,
        BinOp::AShr => 9,
        BinOp::And => 10,
        BinOp::Or => 11,
        BinOp::Xor => 12,
    }
}

/// The cast code (CAST_*).
pub(super) fn cast_code(op: CastOp) -> u64 {
    match op {
        CastOp::Trunc => 0,
        CastOp::ZExt => 1,
        CastOp::SExt => 2,
        CastOp::FpToUi => 3,
        CastOp::FpToSi => 4,
        CastOp::UiToFp => 5,
        CastOp::SiToFp => 6,
        CastOp::FpTrunc => 7,
        CastOp::FpExt => 8,
        CastOp::PtrToInt => 9,
        CastOp::IntToPtr => 10,
        CastOp::BitCast => 11,
        CastOp::AddrSpaceCast => 12,
    }
}

/// `GetOptimizationFlags`: nuw/nsw, exact, or the fast-math bits.
pub(super) fn binop_flags(flags: &dxcopy_read::dxil::BinOpFlags) -> u64 {
    u64::from(flags.nuw)
        | u64::from(flags.nsw) << 1
        | u64::from(flags.exact)
        | u64::from(flags.fast_math.0)
}

impl Emitter<'_> {
    /// `WriteModule`.
    pub(super) fn module_block(&mut self) -> Result<()> {
        let m = self.m;
        if m.identification.is_some() {
            return Err(self.fail(
                "IDENTIFICATION",
                "dxc's LLVM 3.7 writes no identification block",
            ));
        }
        if m.vst_offset.is_some() || m.hash.is_some() || m.source_filename.is_some() {
            return Err(self.fail(
                "MODULE_BLOCK",
                "a record of a later LLVM writer (VSTOFFSET, HASH or SOURCE_FILENAME)",
            ));
        }
        if !m.dependent_libraries.is_empty() {
            return Err(self.fail(
                "DEPLIB",
                "LLVM 3.7's writer writes no dependent libraries (an older record it only reads)",
            ));
        }
        if m.version != 1 {
            return Err(self.fail(
                "VERSION",
                "dxc writes module version 1 (relative operand IDs, no string table)",
            ));
        }
        self.s.enter_block(block::MODULE, 3);
        self.vals.push(m.version);
        self.emit("VERSION", UNABBREV, 1)?;
        self.blockinfo()?;
        self.attribute_groups()?;
        self.attribute_lists()?;
        self.type_table()?;
        self.comdats()?;
        self.module_info()?;
        self.module_constants()?;
        self.module_metadata()?;
        self.metadata_kinds()?;
        self.module_symbols()?;
        for f in &m.functions {
            if let Some(body) = &f.body {
                if f.is_declaration {
                    return Err(self.fail("FUNCTION", "a declaration with a body"));
                }
                self.place = format!("function @{}", String::from_utf8_lossy(&f.common.name));
                self.function_block(f, body)?;
            } else if !f.is_declaration {
                return Err(self.fail("FUNCTION", "a definition without its body"));
            }
        }
        self.place = "module".into();
        self.end_block()
    }

    /// `WriteBlockInfo`: the abbreviations of VALUE_SYMTAB, CONSTANTS and
    /// FUNCTION blocks.
    fn blockinfo(&mut self) -> Result<()> {
        let t = self.type_bits;
        self.s.enter_block(block::BLOCKINFO, 2);
        self.vals.push(u64::from(block::VALUE_SYMTAB));
        self.emit("SETBID", UNABBREV, 1)?;
        self.define(&[Fixed(3), Vbr(8), Array, Fixed(8)])?;
        self.define(&[Literal(1), Vbr(8), Array, Fixed(7)])?;
        self.define(&[Literal(1), Vbr(8), Array, Char6])?;
        self.define(&[Literal(2), Vbr(8), Array, Char6])?;
        self.vals.push(u64::from(block::CONSTANTS));
        self.emit("SETBID", UNABBREV, 1)?;
        self.define(&[Literal(1), Fixed(t)])?;
        self.define(&[Literal(4), Vbr(8)])?;
        self.define(&[Literal(11), Fixed(4), Fixed(t), Vbr(8)])?;
        self.define(&[Literal(2)])?;
        self.vals.push(u64::from(block::FUNCTION));
        self.emit("SETBID", UNABBREV, 1)?;
        self.define(&[Literal(20), Vbr(6), Fixed(t), Vbr(4), Fixed(1)])?;
        self.define(&[Literal(2), Vbr(6), Vbr(6), Fixed(4)])?;
        self.define(&[Literal(2), Vbr(6), Vbr(6), Fixed(4), Fixed(7)])?;
        self.define(&[Literal(3), Vbr(6), Fixed(t), Fixed(4)])?;
        self.define(&[Literal(10)])?;
        self.define(&[Literal(10), Vbr(6)])?;
        self.define(&[Literal(15)])?;
        self.define(&[Literal(43), Fixed(1), Fixed(t), Array, Vbr(6)])?;
        self.end_block()
    }

    /// PARAMATTR_GROUP_BLOCK: one record per group.
    fn attribute_groups(&mut self) -> Result<()> {
        let m = self.m;
        if m.attribute_groups.is_empty() {
            return Ok(());
        }
        self.s.enter_block(block::PARAMATTR_GROUP, 3);
        for g in &m.attribute_groups {
            self.vals.push(u64::from(g.id));
            self.vals.push(u64::from(g.index));
            for a in &g.attributes {
                match a {
                    Attribute::Enum(k) => self.vals.extend([0, k.0]),
                    Attribute::Int(k, v) => self.vals.extend([1, k.0, *v]),
                    Attribute::String { key, value } => {
                        let value = value.as_deref();
                        if value.is_some_and(<[u8]>::is_empty) {
                            return Err(self.fail(
                                "PARAMATTR_GRP_CODE_ENTRY",
                                "a string attribute with an empty value (LLVM writes it without one)",
                            ));
                        }
                        if key.contains(&0) || value.is_some_and(|v| v.contains(&0)) {
                            return Err(self.fail(
                                "PARAMATTR_GRP_CODE_ENTRY",
                                "a string attribute holds a NUL byte",
                            ));
                        }
                        self.vals.push(if value.is_some() { 4 } else { 3 });
                        self.vals.extend(key.iter().map(|&b| u64::from(b)));
                        self.vals.push(0);
                        if let Some(v) = value {
                            self.vals.extend(v.iter().map(|&b| u64::from(b)));
                            self.vals.push(0);
                        }
                    }
                }
            }
            self.emit("PARAMATTR_GRP_CODE_ENTRY", UNABBREV, 3)?;
        }
        self.end_block()
    }

    /// PARAMATTR_BLOCK: one record per attribute list.
    fn attribute_lists(&mut self) -> Result<()> {
        let m = self.m;
        if m.attribute_lists.is_empty() {
            return Ok(());
        }
        self.s.enter_block(block::PARAMATTR, 3);
        for list in &m.attribute_lists {
            self.vals.extend(list.groups.iter().map(|&g| u64::from(g)));
            self.emit("PARAMATTR_CODE_ENTRY", UNABBREV, 2)?;
        }
        self.end_block()
    }

    /// TYPE_BLOCK_NEW: six abbreviations, NUMENTRY, one record per type.
    fn type_table(&mut self) -> Result<()> {
        const POINTER: u32 = 4;
        const FUNCTION: u32 = 5;
        const STRUCT_ANON: u32 = 6;
        const STRUCT_NAME: u32 = 7;
        const STRUCT_NAMED: u32 = 8;
        const ARRAY: u32 = 9;
        let m = self.m;
        let t = self.type_bits;
        self.s.enter_block(block::TYPE, 4);
        self.define(&[Literal(8), Fixed(t), Literal(0)])?;
        self.define(&[Literal(21), Fixed(1), Array, Fixed(t)])?;
        self.define(&[Literal(18), Fixed(1), Array, Fixed(t)])?;
        self.define(&[Literal(19), Array, Char6])?;
        self.define(&[Literal(20), Fixed(1), Array, Fixed(t)])?;
        self.define(&[Literal(11), Vbr(8), Fixed(t)])?;
        self.vals.push(m.types.len() as u64);
        self.emit("TYPE_CODE_NUMENTRY", UNABBREV, 1)?;
        let id = |t: &TypeId| u64::from(t.0);
        for ty in &m.types {
            let (record, code, abbrev) = match ty {
                Type::Void => ("TYPE_CODE_VOID", 2, UNABBREV),
                Type::Float => ("TYPE_CODE_FLOAT", 3, UNABBREV),
                Type::Double => ("TYPE_CODE_DOUBLE", 4, UNABBREV),
                Type::Label => ("TYPE_CODE_LABEL", 5, UNABBREV),
                Type::Half => ("TYPE_CODE_HALF", 10, UNABBREV),
                Type::X86Fp80 => ("TYPE_CODE_X86_FP80", 13, UNABBREV),
                Type::Fp128 => ("TYPE_CODE_FP128", 14, UNABBREV),
                Type::PpcFp128 => ("TYPE_CODE_PPC_FP128", 15, UNABBREV),
                Type::Metadata => ("TYPE_CODE_METADATA", 16, UNABBREV),
                Type::X86Mmx => ("TYPE_CODE_X86_MMX", 17, UNABBREV),
                Type::Integer { bits } => {
                    self.vals.push(u64::from(*bits));
                    ("TYPE_CODE_INTEGER", 7, UNABBREV)
                }
                Type::Pointer {
                    pointee,
                    address_space,
                } => {
                    self.vals.extend([id(pointee), u64::from(*address_space)]);
                    let abbrev = if *address_space == 0 {
                        POINTER
                    } else {
                        UNABBREV
                    };
                    ("TYPE_CODE_POINTER", 8, abbrev)
                }
                Type::Function(f) => {
                    self.vals.push(u64::from(f.vararg));
                    self.vals.push(id(&f.ret));
                    self.vals.extend(f.params.iter().map(id));
                    ("TYPE_CODE_FUNCTION", 21, FUNCTION)
                }
                Type::Struct(s) => {
                    self.vals.push(u64::from(s.packed));
                    if let Some(body) = &s.body {
                        self.vals.extend(body.iter().map(id));
                    }
                    match &s.name {
                        None if s.body.is_some() => ("TYPE_CODE_STRUCT_ANON", 18, STRUCT_ANON),
                        None => {
                            return Err(
                                self.fail("TYPE_CODE_OPAQUE", "an opaque struct without a name")
                            )
                        }
                        Some(name) => {
                            let fields = std::mem::take(&mut self.vals);
                            // An unnamed identified struct has no name record.
                            if !name.is_empty() {
                                self.string_record(
                                    "TYPE_CODE_STRUCT_NAME",
                                    19,
                                    name,
                                    Some(STRUCT_NAME),
                                )?;
                            }
                            self.vals = fields;
                            if s.body.is_some() {
                                ("TYPE_CODE_STRUCT_NAMED", 20, STRUCT_NAMED)
                            } else {
                                ("TYPE_CODE_OPAQUE", 6, UNABBREV)
                            }
                        }
                    }
                }
                Type::Array { len, element } => {
                    self.vals.extend([*len, id(element)]);
                    ("TYPE_CODE_ARRAY", 11, ARRAY)
                }
                Type::Vector { len, element } => {
                    self.vals.extend([*len, id(element)]);
                    ("TYPE_CODE_VECTOR", 12, UNABBREV)
                }
                Type::OpaquePointer { .. } => {
                    return Err(self.fail(
                        "TYPE_CODE_OPAQUE_POINTER",
                        "LLVM 3.7 has no opaque pointers",
                    ))
                }
            };
            self.emit(record, abbrev, code)?;
        }
        self.end_block()
    }

    /// MODULE_CODE_COMDAT records.
    fn comdats(&mut self) -> Result<()> {
        for c in &self.m.comdats {
            if c.name.len() > usize::from(u16::MAX) {
                return Err(self.fail(
                    "MODULE_CODE_COMDAT",
                    "a comdat name longer than 65535 bytes",
                ));
            }
            self.vals.push(c.selection_kind);
            self.vals.push(c.name.len() as u64);
            self.vals.extend(c.name.iter().map(|&b| u64::from(b)));
            self.emit("MODULE_CODE_COMDAT", UNABBREV, 12)?;
        }
        Ok(())
    }

    /// `WriteModuleInfo`: triple, data layout, inline asm, section and GC
    /// names, the global variable abbreviation, globals, functions, aliases.
    fn module_info(&mut self) -> Result<()> {
        let m = self.m;
        if let Some(triple) = &m.triple {
            if !triple.is_empty() {
                self.string_record("MODULE_CODE_TRIPLE", 2, triple.as_bytes(), None)?;
            }
        }
        if let Some(layout) = &m.data_layout {
            if !layout.is_empty() {
                self.string_record("MODULE_CODE_DATALAYOUT", 3, layout.as_bytes(), None)?;
            }
        }
        if let Some(asm) = &m.inline_asm {
            if !asm.is_empty() {
                self.string_record("MODULE_CODE_ASM", 4, asm, None)?;
            }
        }
        for name in &m.section_names {
            self.string_record("MODULE_CODE_SECTIONNAME", 5, name, None)?;
        }
        for name in &m.gc_names {
            self.string_record("MODULE_CODE_GCNAME", 11, name, None)?;
        }
        let section_id = |this: &Self, record, s: &Option<Vec<u8>>| -> Result<u64> {
            match s {
                None => Ok(0),
                Some(s) => m
                    .section_names
                    .iter()
                    .position(|n| n == s)
                    .map(|i| i as u64 + 1)
                    .ok_or_else(|| this.fail(record, "a section not among the section names")),
            }
        };
        let mut global_abbrev = UNABBREV;
        if !m.globals.is_empty() {
            let max_align = m
                .globals
                .iter()
                .map(|g| g.alignment)
                .chain(m.functions.iter().map(|f| f.alignment))
                .max()
                .unwrap_or(0);
            let max_type = m.globals.iter().map(|g| g.value_type.0).max().unwrap_or(0);
            let align_op = if max_align == 0 {
                Literal(0)
            } else {
                Fixed(log2_ceil(encode_align(max_align) + 1))
            };
            let section_op = if m.section_names.is_empty() {
                Literal(0)
            } else {
                Fixed(log2_ceil(m.section_names.len() as u64 + 1))
            };
            self.define(&[
                Literal(7),
                Fixed(log2_ceil(u64::from(max_type) + 1)),
                Vbr(6),
                Vbr(6),
                Fixed(5),
                align_op,
                section_op,
            ])?;
            global_abbrev = 4;
        }
        for g in &m.globals {
            const R: &str = "MODULE_CODE_GLOBALVAR";
            let c = &g.common;
            self.vals.push(u64::from(g.value_type.0));
            self.vals
                .push(u64::from(g.address_space) << 2 | 2 | u64::from(g.is_constant));
            self.vals
                .push(g.initializer.map_or(0, |v| u64::from(v.0) + 1));
            self.vals.push(c.raw_linkage);
            self.vals.push(encode_align(g.alignment));
            let section = section_id(self, R, &g.section)?;
            self.vals.push(section);
            let thread_local = tls_code(g.thread_local);
            let abbrev = if thread_local != 0
                || c.visibility != Visibility::Default
                || c.unnamed_addr
                || g.externally_initialized
                || c.dll_storage != DllStorage::Default
                || c.comdat != 0
            {
                self.vals.extend([
                    visibility_code(c.visibility),
                    thread_local,
                    u64::from(c.unnamed_addr),
                    u64::from(g.externally_initialized),
                    dll_code(c.dll_storage),
                    c.comdat,
                ]);
                UNABBREV
            } else {
                global_abbrev
            };
            self.emit(R, abbrev, 7)?;
        }
        for f in &m.functions {
            const R: &str = "MODULE_CODE_FUNCTION";
            let c = &f.common;
            let gc = match &f.gc {
                None => 0,
                Some(gc) => m
                    .gc_names
                    .iter()
                    .position(|n| n == gc)
                    .map(|i| i as u64 + 1)
                    .ok_or_else(|| self.fail(R, "a GC not among the GC names"))?,
            };
            let section = section_id(self, R, &f.section)?;
            let plus_one = |v: Option<ValueId>| v.map_or(0, |v| u64::from(v.0) + 1);
            self.vals.extend([
                u64::from(f.function_type.0),
                f.calling_conv,
                u64::from(f.is_declaration),
                c.raw_linkage,
                f.attributes,
                encode_align(f.alignment),
                section,
                visibility_code(c.visibility),
                gc,
                u64::from(c.unnamed_addr),
                plus_one(f.prologue_data),
                dll_code(c.dll_storage),
                c.comdat,
                plus_one(f.prefix_data),
                plus_one(f.personality),
            ]);
            self.emit(R, UNABBREV, 8)?;
        }
        for a in &m.aliases {
            const R: &str = "MODULE_CODE_ALIAS";
            let c = &a.common;
            let ty = a
                .pointer_type
                .ok_or_else(|| self.fail(R, "an alias without its pointer type"))?;
            self.vals.extend([
                u64::from(ty.0),
                u64::from(a.aliasee.0),
                c.raw_linkage,
                visibility_code(c.visibility),
                dll_code(c.dll_storage),
                tls_code(a.thread_local),
                u64::from(c.unnamed_addr),
            ]);
            self.emit(R, UNABBREV, 14)?;
        }
        Ok(())
    }

    /// The module CONSTANTS block: the module values after the global values.
    fn module_constants(&mut self) -> Result<()> {
        let m = self.m;
        let first = m
            .values
            .iter()
            .position(|v| matches!(v, ModuleValue::Constant(_)));
        let Some(first) = first else {
            return Ok(());
        };
        let mut constants = Vec::with_capacity(m.values.len() - first);
        for v in &m.values[first..] {
            match v {
                ModuleValue::Constant(i) => constants.push(
                    m.constants
                        .get(*i as usize)
                        .ok_or_else(|| self.fail("CONSTANTS", "a value ID of no constant"))?,
                ),
                _ => return Err(self.fail("CONSTANTS", "a global value after the first constant")),
            }
        }
        self.constants_block(&constants, first as u32, m.values.len() as u32, None)
    }

    /// `WriteConstants`: SETTYPE when the type changes, then each constant;
    /// the module's block defines four abbreviations of its own. `body` is
    /// the function whose constants these are.
    pub(super) fn constants_block(
        &mut self,
        constants: &[&Constant],
        _first: u32,
        last: u32,
        body: Option<&dxcopy_read::dxil::FunctionBody>,
    ) -> Result<()> {
        if constants.is_empty() {
            return Ok(());
        }
        let global = body.is_none();
        self.s.enter_block(block::CONSTANTS, 4);
        let (aggregate, string8, cstring7, cstring6) = if global {
            self.define(&[Literal(7), Array, Fixed(log2_ceil(u64::from(last) + 1))])?;
            self.define(&[Literal(8), Array, Fixed(8)])?;
            self.define(&[Literal(9), Array, Fixed(7)])?;
            self.define(&[Literal(9), Array, Char6])?;
            (8, 9, 10, 11)
        } else {
            (UNABBREV, UNABBREV, UNABBREV, UNABBREV)
        };
        let m = self.m;
        let ty_of = |this: &Self, record, v: ValueId| -> Result<u64> {
            m.value_type_in(body, v)
                .map(|t| u64::from(t.0))
                .ok_or_else(|| this.fail(record, "an operand of unknown type"))
        };
        let mut last_ty = None;
        for c in constants {
            if last_ty != Some(c.ty) {
                last_ty = Some(c.ty);
                self.vals.push(u64::from(c.ty.0));
                self.emit("CST_CODE_SETTYPE", bi::CONSTANTS_SETTYPE, 1)?;
            }
            let id = |v: &ValueId| u64::from(v.0);
            let (record, code, abbrev): (&'static str, u32, u32) = match &c.kind {
                ConstantKind::Null => ("CST_CODE_NULL", 2, UNABBREV),
                ConstantKind::Undef => ("CST_CODE_UNDEF", 3, UNABBREV),
                ConstantKind::Integer(v) => {
                    self.vals.push(signed(*v));
                    ("CST_CODE_INTEGER", 4, bi::CONSTANTS_INTEGER)
                }
                ConstantKind::WideInteger(words) => {
                    self.vals.extend(words.iter().map(|&w| signed(w as i64)));
                    ("CST_CODE_WIDE_INTEGER", 5, UNABBREV)
                }
                ConstantKind::Float(bits) => {
                    self.vals.push(*bits);
                    ("CST_CODE_FLOAT", 6, UNABBREV)
                }
                ConstantKind::WideFloat(words) => {
                    self.vals.extend(words);
                    ("CST_CODE_FLOAT", 6, UNABBREV)
                }
                ConstantKind::Aggregate(elements) => {
                    self.vals.extend(elements.iter().map(id));
                    ("CST_CODE_AGGREGATE", 7, aggregate)
                }
                ConstantKind::String { bytes, cstring } => {
                    if *cstring {
                        let Some((&0, text)) = bytes.split_last() else {
                            return Err(self.fail("CST_CODE_CSTRING", "a C string without its NUL"));
                        };
                        self.vals.extend(text.iter().map(|&b| u64::from(b)));
                        let abbrev = if super::is_char6(text) {
                            cstring6
                        } else if text.iter().all(|&b| b < 128) {
                            cstring7
                        } else {
                            UNABBREV
                        };
                        ("CST_CODE_CSTRING", 9, abbrev)
                    } else {
                        self.vals.extend(bytes.iter().map(|&b| u64::from(b)));
                        ("CST_CODE_STRING", 8, string8)
                    }
                }
                ConstantKind::Data(elements) => {
                    self.vals.extend(elements);
                    ("CST_CODE_DATA", 22, UNABBREV)
                }
                ConstantKind::Cast { op, value } => {
                    let ty = ty_of(self, "CST_CODE_CE_CAST", *value)?;
                    self.vals.extend([cast_code(*op), ty, id(value)]);
                    ("CST_CODE_CE_CAST", 11, bi::CONSTANTS_CE_CAST)
                }
                ConstantKind::BinOp {
                    op,
                    lhs,
                    rhs,
                    flags,
                } => {
                    self.vals.extend([binop_code(*op), id(lhs), id(rhs)]);
                    let flags = binop_flags(flags);
                    if flags != 0 {
                        self.vals.push(flags);
                    }
                    ("CST_CODE_CE_BINOP", 10, UNABBREV)
                }
                ConstantKind::GetElementPtr {
                    inbounds,
                    source_type,
                    operands,
                } => {
                    const R: &str = "CST_CODE_CE_GEP";
                    let source = source_type
                        .ok_or_else(|| self.fail(R, "no explicit source element type"))?;
                    self.vals.push(u64::from(source.0));
                    for v in operands {
                        let ty = ty_of(self, R, *v)?;
                        self.vals.extend([ty, id(v)]);
                    }
                    if *inbounds {
                        ("CST_CODE_CE_INBOUNDS_GEP", 20, UNABBREV)
                    } else {
                        (R, 12, UNABBREV)
                    }
                }
                ConstantKind::Select {
                    condition,
                    if_true,
                    if_false,
                } => {
                    self.vals.extend([id(condition), id(if_true), id(if_false)]);
                    ("CST_CODE_CE_SELECT", 13, UNABBREV)
                }
                ConstantKind::ExtractElement { vector, index } => {
                    const R: &str = "CST_CODE_CE_EXTRACTELT";
                    let vt = ty_of(self, R, *vector)?;
                    let it = ty_of(self, R, *index)?;
                    self.vals.extend([vt, id(vector), it, id(index)]);
                    (R, 14, UNABBREV)
                }
                ConstantKind::InsertElement {
                    vector,
                    element,
                    index,
                } => {
                    const R: &str = "CST_CODE_CE_INSERTELT";
                    let it = ty_of(self, R, *index)?;
                    self.vals.extend([id(vector), id(element), it, id(index)]);
                    (R, 15, UNABBREV)
                }
                ConstantKind::ShuffleVector {
                    first,
                    second,
                    mask,
                } => {
                    const R: &str = "CST_CODE_CE_SHUFFLEVEC";
                    let ft = ty_of(self, R, *first)?;
                    if ft == u64::from(c.ty.0) {
                        self.vals.extend([id(first), id(second), id(mask)]);
                        (R, 16, UNABBREV)
                    } else {
                        self.vals.extend([ft, id(first), id(second), id(mask)]);
                        ("CST_CODE_CE_SHUFVEC_EX", 19, UNABBREV)
                    }
                }
                ConstantKind::Compare {
                    predicate,
                    lhs,
                    rhs,
                } => {
                    const R: &str = "CST_CODE_CE_CMP";
                    let ty = ty_of(self, R, *lhs)?;
                    self.vals
                        .extend([ty, id(lhs), id(rhs), u64::from(predicate.0)]);
                    (R, 17, UNABBREV)
                }
                ConstantKind::BlockAddress { function, block } => {
                    const R: &str = "CST_CODE_BLOCKADDRESS";
                    let ty = ty_of(self, R, *function)?;
                    self.vals.extend([ty, id(function), u64::from(block.0)]);
                    (R, 21, UNABBREV)
                }
                ConstantKind::InlineAsm {
                    side_effect,
                    align_stack,
                    dialect,
                    asm,
                    constraints,
                } => {
                    self.vals.push(
                        u64::from(*side_effect) | u64::from(*align_stack) << 1 | (dialect & 1) << 2,
                    );
                    self.vals.push(asm.len() as u64);
                    self.vals.extend(asm.iter().map(|&b| u64::from(b)));
                    self.vals.push(constraints.len() as u64);
                    self.vals.extend(constraints.iter().map(|&b| u64::from(b)));
                    ("CST_CODE_INLINEASM", 23, UNABBREV)
                }
            };
            self.emit(record, abbrev, code)?;
        }
        self.end_block()
    }

    /// The module METADATA block: the abbreviations dxc defines when the
    /// module has strings, locations, generic nodes, named metadata; every
    /// metadata ID in order; then the named metadata.
    fn module_metadata(&mut self) -> Result<()> {
        let m = self.m;
        if m.metadata.is_empty() && m.named_metadata.is_empty() {
            return Ok(());
        }
        self.s.enter_block(block::METADATA, 3);
        let mut next = 4;
        let mut take = |present: bool| {
            present.then(|| {
                next += 1;
                next - 1
            })
        };
        let has = |k: DebugNodeKind| {
            m.metadata
                .iter()
                .any(|md| matches!(md, Metadata::Debug(d) if d.kind == k))
        };
        let string = take(
            m.metadata
                .iter()
                .any(|md| matches!(md, Metadata::String(_))),
        );
        let location = take(has(DebugNodeKind::Location));
        let generic = take(has(DebugNodeKind::GenericDebug));
        let name = take(!m.named_metadata.is_empty());
        if string.is_some() {
            self.define(&[Literal(1), Array, Fixed(8)])?;
        }
        if location.is_some() {
            self.define(&[Literal(7), Fixed(1), Vbr(6), Vbr(8), Vbr(6), Vbr(6)])?;
        }
        if generic.is_some() {
            self.define(&[
                Literal(12),
                Fixed(1),
                Vbr(6),
                Fixed(1),
                Vbr(6),
                Array,
                Vbr(6),
            ])?;
        }
        if name.is_some() {
            self.define(&[Literal(4), Array, Fixed(8)])?;
        }
        for md in &m.metadata {
            self.metadata_record(md, string, location, generic)?;
        }
        for n in &m.named_metadata {
            self.vals.extend(n.name.iter().map(|&b| u64::from(b)));
            self.emit("METADATA_NAME", name.unwrap_or(UNABBREV), 4)?;
            self.vals.extend(n.operands.iter().map(|o| u64::from(o.0)));
            self.emit("METADATA_NAMED_NODE", UNABBREV, 10)?;
        }
        self.end_block()
    }

    /// One metadata record.
    pub(super) fn metadata_record(
        &mut self,
        md: &Metadata,
        string: Option<u32>,
        location: Option<u32>,
        generic: Option<u32>,
    ) -> Result<()> {
        match md {
            Metadata::String(bytes) => {
                self.vals.extend(bytes.iter().map(|&b| u64::from(b)));
                self.emit("METADATA_STRING", string.unwrap_or(UNABBREV), 1)
            }
            Metadata::Value { ty, value } => {
                self.vals.extend([u64::from(ty.0), u64::from(value.0)]);
                self.emit("METADATA_VALUE", UNABBREV, 2)
            }
            Metadata::Node { distinct, operands } => {
                self.vals
                    .extend(operands.iter().map(|o| o.map_or(0, |o| u64::from(o.0) + 1)));
                if *distinct {
                    self.emit("METADATA_DISTINCT_NODE", UNABBREV, 5)
                } else {
                    self.emit("METADATA_NODE", UNABBREV, 3)
                }
            }
            Metadata::Debug(d) => {
                self.vals.extend(&d.fields);
                let abbrev = match d.kind {
                    DebugNodeKind::Location => location,
                    DebugNodeKind::GenericDebug => generic,
                    _ => None,
                };
                self.emit(
                    debug_record_name(d.kind),
                    abbrev.unwrap_or(UNABBREV),
                    debug_code(d.kind),
                )
            }
            Metadata::Unknown { .. } => {
                Err(self.fail("METADATA", "a record of a later LLVM writer"))
            }
        }
    }

    /// The METADATA block of the kinds (`WriteModuleMetadataStore`).
    fn metadata_kinds(&mut self) -> Result<()> {
        let m = self.m;
        if m.metadata_kinds.is_empty() {
            return Ok(());
        }
        self.s.enter_block(block::METADATA, 3);
        for k in &m.metadata_kinds {
            self.vals.push(u64::from(k.id));
            self.vals.extend(k.name.iter().map(|&b| u64::from(b)));
            self.emit("METADATA_KIND", UNABBREV, 6)?;
        }
        self.end_block()
    }

    /// The module VALUE_SYMTAB: the named global values.
    fn module_symbols(&mut self) -> Result<()> {
        let m = self.m;
        let mut names: Vec<(&[u8], u64, bool)> = Vec::new();
        let commons = m
            .globals
            .iter()
            .map(|g| &g.common)
            .chain(m.functions.iter().map(|f| &f.common))
            .chain(m.aliases.iter().map(|a| &a.common));
        for c in commons {
            if !c.name.is_empty() {
                names.push((&c.name, u64::from(c.value.0), false));
            }
        }
        let order: Vec<(u64, bool)> = m
            .symbol_order
            .iter()
            .map(|v| (u64::from(v.0), false))
            .collect();
        self.symbol_table(names, &order)?;
        self.use_lists(&m.use_lists)
    }

    /// A USELIST_BLOCK with the records kept by the reader.
    pub(super) fn use_lists(&mut self, lists: &[UseList]) -> Result<()> {
        if lists.is_empty() {
            return Ok(());
        }
        self.s.enter_block(block::USELIST, 3);
        for l in lists {
            self.vals.extend(&l.fields);
            if l.block {
                self.emit("USELIST_CODE_BB", UNABBREV, 2)?;
            } else {
                self.emit("USELIST_CODE_DEFAULT", UNABBREV, 1)?;
            }
        }
        self.end_block()
    }

    /// `WriteValueSymbolTable`: entries sorted by name (dxc sorts them so
    /// that the bytes do not depend on the values that ever existed), each
    /// with the narrowest abbreviation its characters allow. `names` holds
    /// (name, value or block ID, is a block). When `order` (the order read)
    /// lists exactly these entries, it is kept: older dxc releases wrote
    /// a hash table's order.
    pub(super) fn symbol_table(
        &mut self,
        mut names: Vec<(&[u8], u64, bool)>,
        order: &[(u64, bool)],
    ) -> Result<()> {
        if names.is_empty() {
            return Ok(());
        }
        if !keep_order(&mut names, order) {
            names.sort_unstable_by(|a, b| a.0.cmp(b.0));
        }
        self.s.enter_block(block::VALUE_SYMTAB, 4);
        for (name, id, is_block) in names {
            let char6 = super::is_char6(name);
            let seven = name.iter().all(|&b| b < 128);
            let (record, code, abbrev) = if is_block {
                let abbrev = if char6 {
                    bi::VST_BBENTRY_6
                } else {
                    bi::VST_ENTRY_8
                };
                ("VST_CODE_BBENTRY", 2, abbrev)
            } else if char6 {
                ("VST_CODE_ENTRY", 1, bi::VST_ENTRY_6)
            } else if seven {
                ("VST_CODE_ENTRY", 1, bi::VST_ENTRY_7)
            } else {
                ("VST_CODE_ENTRY", 1, bi::VST_ENTRY_8)
            };
            self.vals.push(id);
            self.vals.extend(name.iter().map(|&b| u64::from(b)));
            self.emit(record, abbrev, code)?;
        }
        self.end_block()
    }
}

/// Puts `names` in `order` when `order` lists each of them once; whether it did.
fn keep_order(names: &mut Vec<(&[u8], u64, bool)>, order: &[(u64, bool)]) -> bool {
    if order.len() != names.len() {
        return false;
    }
    let mut by_key: std::collections::HashMap<(u64, bool), usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| ((n.1, n.2), i))
        .collect();
    let mut ordered = Vec::with_capacity(names.len());
    for key in order {
        match by_key.remove(key) {
            Some(i) => ordered.push(names[i]),
            None => return false,
        }
    }
    *names = ordered;
    true
}

fn visibility_code(v: Visibility) -> u64 {
    match v {
        Visibility::Default => 0,
        Visibility::Hidden => 1,
        Visibility::Protected => 2,
    }
}

fn dll_code(d: DllStorage) -> u64 {
    match d {
        DllStorage::Default => 0,
        DllStorage::Import => 1,
        DllStorage::Export => 2,
    }
}

fn tls_code(t: ThreadLocal) -> u64 {
    match t {
        ThreadLocal::NotThreadLocal => 0,
        ThreadLocal::GeneralDynamic => 1,
        ThreadLocal::LocalDynamic => 2,
        ThreadLocal::InitialExec => 3,
        ThreadLocal::LocalExec => 4,
    }
}

fn debug_code(k: DebugNodeKind) -> u32 {
    use DebugNodeKind::*;
    match k {
        Location => 7,
        GenericDebug => 12,
        Subrange => 13,
        Enumerator => 14,
        BasicType => 15,
        File => 16,
        DerivedType => 17,
        CompositeType => 18,
        SubroutineType => 19,
        CompileUnit => 20,
        Subprogram => 21,
        LexicalBlock => 22,
        LexicalBlockFile => 23,
        Namespace => 24,
        TemplateTypeParameter => 25,
        TemplateValueParameter => 26,
        GlobalVariable => 27,
        LocalVariable => 28,
        Expression => 29,
        ObjCProperty => 30,
        ImportedEntity => 31,
        Module => 32,
    }
}

fn debug_record_name(k: DebugNodeKind) -> &'static str {
    use DebugNodeKind::*;
    match k {
        Location => "METADATA_LOCATION",
        GenericDebug => "METADATA_GENERIC_DEBUG",
        Subrange => "METADATA_SUBRANGE",
        Enumerator => "METADATA_ENUMERATOR",
        BasicType => "METADATA_BASIC_TYPE",
        File => "METADATA_FILE",
        DerivedType => "METADATA_DERIVED_TYPE",
        CompositeType => "METADATA_COMPOSITE_TYPE",
        SubroutineType => "METADATA_SUBROUTINE_TYPE",
        CompileUnit => "METADATA_COMPILE_UNIT",
        Subprogram => "METADATA_SUBPROGRAM",
        LexicalBlock => "METADATA_LEXICAL_BLOCK",
        LexicalBlockFile => "METADATA_LEXICAL_BLOCK_FILE",
        Namespace => "METADATA_NAMESPACE",
        TemplateTypeParameter => "METADATA_TEMPLATE_TYPE",
        TemplateValueParameter => "METADATA_TEMPLATE_VALUE",
        GlobalVariable => "METADATA_GLOBAL_VAR",
        LocalVariable => "METADATA_LOCAL_VAR",
        Expression => "METADATA_EXPRESSION",
        ObjCProperty => "METADATA_OBJC_PROPERTY",
        ImportedEntity => "METADATA_IMPORTED_ENTITY",
        Module => "METADATA_MODULE",
    }
}
