//! Text to model: the module-level entities (types, globals, functions,
//! attributes, metadata) and the constants. Function bodies are in
//! [`super::body`]. The parser numbers values in its own order (global
//! values as the text defines them, constants as it meets them,
//! function-local values from a temporary base); [`super::order`] gives the
//! model the numbering dxc's writer would.

use super::lex::{LexError, Lexer, Tok, Token};
use super::ParseError;
use dxcopy_read::dxil::{
    Alias, Attribute, AttributeKind, BinOp, BinOpFlags, CastOp, Comdat, Constant, ConstantKind,
    DllStorage, Function, FunctionType, GlobalCommon, GlobalVariable, Linkage, Metadata,
    MetadataId, MetadataKind, Module, ModuleValue, NamedMetadata, Predicate, StructType,
    ThreadLocal, Type, TypeId, ValueId, Visibility,
};
use std::collections::HashMap;

/// How deep types and constants may nest in the text (a fixed bound, so
/// that the input cannot choose the parser's recursion depth).
pub const MAX_DEPTH: usize = 64;

/// Function-local value IDs are numbered from here while a body is parsed
/// and moved after the module values when the module is complete.
pub(super) const LOCAL_BASE: u32 = 0x4000_0000;
/// Forward references inside a body are numbered from here until defined.
pub(super) const FORWARD_BASE: u32 = 0x6000_0000;
/// Function-local metadata IDs are numbered from here until the module's
/// metadata count is known.
pub(super) const LOCAL_MD_BASE: u32 = 0x7000_0000;

/// The metadata kinds every LLVM 3.7 context registers, in their fixed order.
const FIXED_KINDS: &[&str] = &[
    "dbg",
    "tbaa",
    "prof",
    "fpmath",
    "range",
    "tbaa.struct",
    "invariant.load",
    "alias.scope",
    "noalias",
    "nontemporal",
    "llvm.mem.parallel_loop_access",
    "nonnull",
    "dereferenceable",
    "dereferenceable_or_null",
];

/// The kinds dxc registers after the fixed ones in most releases.
const DXC_KINDS: &[&str] = &["dx.temp", "dx.dbg.varlayout"];

/// Attributes as written where they are used: the return value's, each
/// parameter's, and the `#N` group of the function's own (resolved when
/// the `attributes #N = { … }` lines have been read).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct PendingAttributes {
    pub ret: Vec<Attribute>,
    pub params: Vec<Vec<Attribute>>,
    pub function: Vec<Attribute>,
    pub group: Option<(u32, u32, u32)>,
}

impl PendingAttributes {
    pub(super) fn is_empty(&self) -> bool {
        self.ret.is_empty()
            && self.params.iter().all(Vec::is_empty)
            && self.function.is_empty()
            && self.group.is_none()
    }
}

/// A reference to a global value whose type is checked when the module is
/// complete (the text may use a global before it defines it).
pub(super) struct GlobalUse {
    pub value: ValueId,
    pub ty: TypeId,
    pub line: u32,
    pub col: u32,
}

/// The parser's state.
pub(super) struct Parser<'t> {
    pub lex: Lexer<'t>,
    pub tok: Token,
    pub m: Module,
    type_keys: HashMap<String, TypeId>,
    named_types: HashMap<Vec<u8>, (TypeId, bool, u32, u32)>,
    numbered_types: HashMap<u32, (TypeId, bool, u32, u32)>,
    pub global_names: HashMap<Vec<u8>, ValueId>,
    pub global_ids: HashMap<u32, ValueId>,
    pub global_uses: Vec<GlobalUse>,
    constants: HashMap<Constant, ValueId>,
    pub md_slots: HashMap<u32, (MetadataId, bool, u32, u32)>,
    md_strings: HashMap<Vec<u8>, MetadataId>,
    md_values: HashMap<(TypeId, ValueId), MetadataId>,
    pub attribute_groups: HashMap<u32, Vec<Attribute>>,
    /// Per function (by index), its attributes; per call, by (function, block, index).
    pub function_attributes: Vec<PendingAttributes>,
    pub call_attributes: Vec<((u32, u32, u32), PendingAttributes)>,
    /// `!dbg` references to resolve: (function, block, instruction, slot, line, col).
    pub debug_uses: Vec<(u32, u32, u32, u32, u32, u32)>,
    comdat_names: HashMap<Vec<u8>, u64>,
    pub depth: usize,
    /// Where each numbered node is defined: model ID → (slot, line, column).
    pub md_defs: HashMap<u32, (u32, u32, u32)>,
    /// Where each named metadata is: (name, line, column).
    pub named_at: Vec<(Vec<u8>, u32, u32)>,
}

fn lex_error(e: LexError) -> ParseError {
    ParseError {
        line: e.line,
        column: e.col,
        message: e.message,
    }
}

/// What the pre-scan found: the global values' names in definition order.
enum Defined {
    Global,
    Function,
    Alias,
}

impl<'t> Parser<'t> {
    pub(super) fn new(text: &'t str) -> Result<Parser<'t>, ParseError> {
        let mut lex = Lexer::new(text.as_bytes());
        let tok = lex.next_token().map_err(lex_error)?;
        let mut p = Parser {
            lex,
            tok,
            m: Module {
                version: 1,
                ..Module::default()
            },
            type_keys: HashMap::new(),
            named_types: HashMap::new(),
            numbered_types: HashMap::new(),
            global_names: HashMap::new(),
            global_ids: HashMap::new(),
            global_uses: Vec::new(),
            constants: HashMap::new(),
            md_slots: HashMap::new(),
            md_strings: HashMap::new(),
            md_values: HashMap::new(),
            attribute_groups: HashMap::new(),
            function_attributes: Vec::new(),
            call_attributes: Vec::new(),
            debug_uses: Vec::new(),
            comdat_names: HashMap::new(),
            depth: 0,
            md_defs: HashMap::new(),
            named_at: Vec::new(),
        };
        for (id, name) in FIXED_KINDS.iter().chain(DXC_KINDS).enumerate() {
            p.m.metadata_kinds.push(MetadataKind {
                id: id as u32,
                name: name.as_bytes().to_vec(),
            });
        }
        p.prescan(text)?;
        Ok(p)
    }

    /// Numbers the global values as the module record order gives them:
    /// the variables, then the functions, then the aliases, each in the
    /// order the text defines them.
    fn prescan(&mut self, text: &str) -> Result<(), ParseError> {
        let mut lex = Lexer::new(text.as_bytes());
        let mut found: Vec<(Defined, Token)> = Vec::new();
        let mut prev: Option<Token> = None;
        let mut want_function = false;
        loop {
            let t = lex.next_token().map_err(lex_error)?;
            if t.tok == Tok::Eof {
                break;
            }
            match &t.tok {
                Tok::Word(w) if w == "define" || w == "declare" => want_function = true,
                Tok::GlobalName(_) | Tok::GlobalId(_) if want_function => {
                    found.push((Defined::Function, t.clone()));
                    want_function = false;
                }
                Tok::Punct(b'=') => {
                    if let Some(
                        p @ Token {
                            tok: Tok::GlobalName(_) | Tok::GlobalId(_),
                            ..
                        },
                    ) = &prev
                    {
                        // `alias` before the end of the line makes it an alias.
                        let mut look = lex.clone();
                        let mut kind = Defined::Global;
                        loop {
                            let n = look.next_token().map_err(lex_error)?;
                            if n.tok == Tok::Eof || n.line != p.line {
                                break;
                            }
                            match &n.tok {
                                Tok::Word(w) if w == "alias" => {
                                    kind = Defined::Alias;
                                    break;
                                }
                                Tok::Word(w) if w == "global" || w == "constant" => break,
                                _ => {}
                            }
                        }
                        found.push((kind, p.clone()));
                    }
                }
                _ => {}
            }
            prev = Some(t);
        }
        for pass in 0..3 {
            for (kind, t) in &found {
                let this = match kind {
                    Defined::Global => 0,
                    Defined::Function => 1,
                    Defined::Alias => 2,
                };
                if this != pass {
                    continue;
                }
                let id = ValueId(self.m.values.len() as u32);
                let taken = match &t.tok {
                    Tok::GlobalName(n) => self.global_names.insert(n.clone(), id).is_some(),
                    Tok::GlobalId(n) => self.global_ids.insert(*n, id).is_some(),
                    _ => false,
                };
                if taken {
                    return Err(ParseError {
                        line: t.line,
                        column: t.col,
                        message: format!("redefinition of '{}'", token_text(&t.tok)),
                    });
                }
                // A placeholder until the definition is parsed.
                self.m.values.push(match kind {
                    Defined::Global => ModuleValue::Global(u32::MAX),
                    Defined::Function => ModuleValue::Function(u32::MAX),
                    Defined::Alias => ModuleValue::Alias(u32::MAX),
                });
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ tokens

    pub(super) fn bump(&mut self) -> Result<Token, ParseError> {
        let next = self.lex.next_token().map_err(lex_error)?;
        Ok(std::mem::replace(&mut self.tok, next))
    }

    pub(super) fn err_at<T>(
        &self,
        line: u32,
        col: u32,
        msg: impl Into<String>,
    ) -> Result<T, ParseError> {
        Err(ParseError {
            line,
            column: col,
            message: msg.into(),
        })
    }

    pub(super) fn err<T>(&self, msg: impl Into<String>) -> Result<T, ParseError> {
        self.err_at(self.tok.line, self.tok.col, msg)
    }

    pub(super) fn expected<T>(&self, what: &str) -> Result<T, ParseError> {
        self.err(format!(
            "expected {what}, found {}",
            describe(&self.tok.tok)
        ))
    }

    pub(super) fn is_word(&self, w: &str) -> bool {
        matches!(&self.tok.tok, Tok::Word(x) if x == w)
    }

    pub(super) fn eat_word(&mut self, w: &str) -> Result<bool, ParseError> {
        if self.is_word(w) {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    pub(super) fn expect_word(&mut self, w: &str) -> Result<(), ParseError> {
        if !self.eat_word(w)? {
            return self.expected(&format!("'{w}'"));
        }
        Ok(())
    }

    pub(super) fn is_punct(&self, c: u8) -> bool {
        self.tok.tok == Tok::Punct(c)
    }

    pub(super) fn eat_punct(&mut self, c: u8) -> Result<bool, ParseError> {
        if self.is_punct(c) {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    pub(super) fn expect_punct(&mut self, c: u8) -> Result<(), ParseError> {
        if !self.eat_punct(c)? {
            return self.expected(&format!("'{}'", char::from(c)));
        }
        Ok(())
    }

    pub(super) fn expect_u64(&mut self) -> Result<u64, ParseError> {
        match &self.tok.tok {
            Tok::Int(s) => match s.parse::<u64>() {
                Ok(v) => {
                    self.bump()?;
                    Ok(v)
                }
                Err(_) => self.err(format!("'{s}' is not an unsigned 64-bit integer")),
            },
            _ => self.expected("an integer"),
        }
    }

    pub(super) fn expect_string(&mut self) -> Result<Vec<u8>, ParseError> {
        match &self.tok.tok {
            Tok::Str(s) => {
                let s = s.clone();
                self.bump()?;
                Ok(s)
            }
            _ => self.expected("a quoted string"),
        }
    }

    pub(super) fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err(format!("nested more than {MAX_DEPTH} levels deep"));
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    // ------------------------------------------------------------ types

    pub(super) fn intern(&mut self, t: Type) -> TypeId {
        let key = format!("{t:?}");
        if let Some(id) = self.type_keys.get(&key) {
            return *id;
        }
        let id = TypeId(self.m.types.len() as u32);
        self.m.types.push(t);
        self.type_keys.insert(key, id);
        id
    }

    pub(super) fn ty(&self, id: TypeId) -> &Type {
        &self.m.types[id.index()]
    }

    pub(super) fn pointer_to(&mut self, pointee: TypeId, address_space: u32) -> TypeId {
        self.intern(Type::Pointer {
            pointee,
            address_space,
        })
    }

    pub(super) fn int_type(&mut self, bits: u32) -> TypeId {
        self.intern(Type::Integer { bits })
    }

    fn named_struct(&mut self, name: Option<Vec<u8>>, number: Option<u32>) -> TypeId {
        let (line, col) = (self.tok.line, self.tok.col);
        let known = match (&name, number) {
            (Some(n), _) => self.named_types.get(n).map(|e| e.0),
            (None, Some(n)) => self.numbered_types.get(&n).map(|e| e.0),
            _ => None,
        };
        if let Some(id) = known {
            return id;
        }
        let id = TypeId(self.m.types.len() as u32);
        self.m.types.push(Type::Struct(StructType {
            name: name.clone(),
            packed: false,
            body: None,
        }));
        match (name, number) {
            (Some(n), _) => {
                self.named_types.insert(n, (id, false, line, col));
            }
            (None, Some(n)) => {
                self.numbered_types.insert(n, (id, false, line, col));
            }
            _ => {}
        }
        id
    }

    /// A type, with its pointer and function suffixes.
    pub(super) fn parse_type(&mut self) -> Result<TypeId, ParseError> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> Result<TypeId, ParseError> {
        let mut t = match self.tok.tok.clone() {
            Tok::Word(w) => {
                let t = match w.as_str() {
                    "void" => Type::Void,
                    "half" => Type::Half,
                    "float" => Type::Float,
                    "double" => Type::Double,
                    "x86_fp80" => Type::X86Fp80,
                    "fp128" => Type::Fp128,
                    "ppc_fp128" => Type::PpcFp128,
                    "label" => Type::Label,
                    "metadata" => Type::Metadata,
                    "x86_mmx" => Type::X86Mmx,
                    _ => match w.strip_prefix('i').and_then(|b| b.parse::<u32>().ok()) {
                        Some(bits) if (1..(1 << 23)).contains(&bits) => Type::Integer { bits },
                        _ => return self.expected("a type"),
                    },
                };
                self.bump()?;
                self.intern(t)
            }
            Tok::LocalName(n) => {
                self.bump()?;
                self.named_struct(Some(n), None)
            }
            Tok::LocalId(n) => {
                self.bump()?;
                self.named_struct(None, Some(n))
            }
            Tok::Punct(b'{') => {
                self.bump()?;
                let body = self.struct_elements(b'}')?;
                self.intern(Type::Struct(StructType {
                    name: None,
                    packed: false,
                    body: Some(body),
                }))
            }
            Tok::Punct(b'<') => {
                self.bump()?;
                if self.eat_punct(b'{')? {
                    let body = self.struct_elements(b'}')?;
                    self.expect_punct(b'>')?;
                    self.intern(Type::Struct(StructType {
                        name: None,
                        packed: true,
                        body: Some(body),
                    }))
                } else {
                    let len = self.expect_u64()?;
                    self.expect_word("x")?;
                    let element = self.parse_type()?;
                    self.expect_punct(b'>')?;
                    self.intern(Type::Vector { len, element })
                }
            }
            Tok::Punct(b'[') => {
                self.bump()?;
                let len = self.expect_u64()?;
                self.expect_word("x")?;
                let element = self.parse_type()?;
                self.expect_punct(b']')?;
                self.intern(Type::Array { len, element })
            }
            _ => return self.expected("a type"),
        };
        loop {
            if self.eat_punct(b'*')? {
                t = self.pointer_to(t, 0);
            } else if self.is_word("addrspace") {
                self.bump()?;
                self.expect_punct(b'(')?;
                let space = self.expect_u32()?;
                self.expect_punct(b')')?;
                self.expect_punct(b'*')?;
                t = self.pointer_to(t, space);
            } else if self.is_punct(b'(') {
                self.bump()?;
                let mut params = Vec::new();
                let mut vararg = false;
                if !self.eat_punct(b')')? {
                    loop {
                        if self.tok.tok == Tok::Ellipsis {
                            self.bump()?;
                            vararg = true;
                            self.expect_punct(b')')?;
                            break;
                        }
                        params.push(self.parse_type()?);
                        if self.eat_punct(b')')? {
                            break;
                        }
                        self.expect_punct(b',')?;
                    }
                }
                t = self.intern(Type::Function(FunctionType {
                    vararg,
                    ret: t,
                    params,
                }));
            } else {
                return Ok(t);
            }
        }
    }

    pub(super) fn expect_u32(&mut self) -> Result<u32, ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        let v = self.expect_u64()?;
        u32::try_from(v).or_else(|_| self.err_at(line, col, format!("{v} does not fit 32 bits")))
    }

    fn struct_elements(&mut self, close: u8) -> Result<Vec<TypeId>, ParseError> {
        let mut body = Vec::new();
        if self.eat_punct(close)? {
            return Ok(body);
        }
        loop {
            body.push(self.parse_type()?);
            if self.eat_punct(close)? {
                return Ok(body);
            }
            self.expect_punct(b',')?;
        }
    }

    /// `T`'s text, for messages.
    pub(super) fn type_name(&self, id: TypeId) -> String {
        let mut out = String::new();
        self.type_name_into(&mut out, id, 0);
        out
    }

    fn type_name_into(&self, out: &mut String, id: TypeId, depth: usize) {
        if depth > MAX_DEPTH {
            out.push_str("...");
            return;
        }
        let list = |out: &mut String, items: &[TypeId]| {
            for (i, t) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                self.type_name_into(out, *t, depth + 1);
            }
        };
        match self.ty(id) {
            Type::Void => out.push_str("void"),
            Type::Half => out.push_str("half"),
            Type::Float => out.push_str("float"),
            Type::Double => out.push_str("double"),
            Type::X86Fp80 => out.push_str("x86_fp80"),
            Type::Fp128 => out.push_str("fp128"),
            Type::PpcFp128 => out.push_str("ppc_fp128"),
            Type::Label => out.push_str("label"),
            Type::Metadata => out.push_str("metadata"),
            Type::X86Mmx => out.push_str("x86_mmx"),
            Type::Integer { bits } => out.push_str(&format!("i{bits}")),
            Type::Pointer {
                pointee,
                address_space,
            } => {
                self.type_name_into(out, *pointee, depth + 1);
                if *address_space != 0 {
                    out.push_str(&format!(" addrspace({address_space})"));
                }
                out.push('*');
            }
            Type::Struct(st) => match &st.name {
                Some(n) => {
                    out.push('%');
                    out.push_str(&String::from_utf8_lossy(n));
                }
                None => {
                    out.push_str(if st.packed { "<{ " } else { "{ " });
                    list(out, st.body.as_deref().unwrap_or_default());
                    out.push_str(if st.packed { " }>" } else { " }" });
                }
            },
            Type::Array { len, element } => {
                out.push_str(&format!("[{len} x "));
                self.type_name_into(out, *element, depth + 1);
                out.push(']');
            }
            Type::Vector { len, element } => {
                out.push_str(&format!("<{len} x "));
                self.type_name_into(out, *element, depth + 1);
                out.push('>');
            }
            Type::Function(ft) => {
                self.type_name_into(out, ft.ret, depth + 1);
                out.push_str(" (");
                list(out, &ft.params);
                if ft.vararg {
                    out.push_str(if ft.params.is_empty() { "..." } else { ", ..." });
                }
                out.push(')');
            }
            Type::OpaquePointer { .. } => out.push_str("ptr"),
        }
    }

    pub(super) fn integer_bits(&self, t: TypeId) -> Option<u32> {
        match self.ty(t) {
            Type::Integer { bits } => Some(*bits),
            _ => None,
        }
    }

    /// The scalar type of a vector (the type itself otherwise).
    pub(super) fn scalar(&self, t: TypeId) -> TypeId {
        match self.ty(t) {
            Type::Vector { element, .. } => *element,
            _ => t,
        }
    }

    pub(super) fn pointee(&self, t: TypeId) -> Option<(TypeId, u32)> {
        match self.ty(t) {
            Type::Pointer {
                pointee,
                address_space,
            } => Some((*pointee, *address_space)),
            _ => None,
        }
    }

    /// The type `indices` select inside `t` (`extractvalue`, or a GEP
    /// after its first index); `None` when one does not apply.
    pub(super) fn indexed_type(&self, mut t: TypeId, indices: &[Option<u64>]) -> Option<TypeId> {
        for index in indices {
            t = match self.ty(t) {
                Type::Struct(st) => *st.body.as_ref()?.get(usize::try_from((*index)?).ok()?)?,
                Type::Array { element, .. } | Type::Vector { element, .. } => *element,
                _ => return None,
            };
        }
        Some(t)
    }

    // ------------------------------------------------------------ module

    /// The whole text.
    pub(super) fn parse_module(&mut self) -> Result<(), ParseError> {
        loop {
            match self.tok.tok.clone() {
                Tok::Eof => break,
                Tok::Word(w) => match w.as_str() {
                    "target" => self.target()?,
                    "module" => {
                        self.bump()?;
                        self.expect_word("asm")?;
                        let line = self.expect_string()?;
                        let asm = self.m.inline_asm.get_or_insert_with(Vec::new);
                        if !asm.is_empty() {
                            asm.push(b'\n');
                        }
                        asm.extend_from_slice(&line);
                    }
                    "define" | "declare" => self.function()?,
                    "attributes" => self.attribute_group()?,
                    "source_filename" => {
                        return self.err("'source_filename' is not LLVM 3.7 assembly")
                    }
                    _ if w.starts_with('$') => self.comdat(w.as_bytes()[1..].to_vec())?,
                    _ => return self.expected("a top-level entity"),
                },
                Tok::LocalName(n) => {
                    self.bump()?;
                    self.type_definition(Some(n), None)?;
                }
                Tok::LocalId(n) => {
                    self.bump()?;
                    self.type_definition(None, Some(n))?;
                }
                Tok::GlobalName(_) | Tok::GlobalId(_) => self.global_or_alias()?,
                Tok::MetaName(n) => self.named_metadata(n)?,
                Tok::MetaId(n) => self.metadata_definition(n)?,
                _ => return self.expected("a top-level entity"),
            }
        }
        self.finish_module()
    }

    fn target(&mut self) -> Result<(), ParseError> {
        self.bump()?;
        let which = match &self.tok.tok {
            Tok::Word(w) if w == "datalayout" || w == "triple" => w.clone(),
            _ => return self.expected("'datalayout' or 'triple'"),
        };
        self.bump()?;
        self.expect_punct(b'=')?;
        let value = String::from_utf8_lossy(&self.expect_string()?).into_owned();
        if which == "datalayout" {
            self.m.data_layout = Some(value);
        } else {
            self.m.triple = Some(value);
        }
        Ok(())
    }

    fn comdat(&mut self, name: Vec<u8>) -> Result<(), ParseError> {
        self.bump()?;
        self.expect_punct(b'=')?;
        self.expect_word("comdat")?;
        let kind = match &self.tok.tok {
            Tok::Word(w) => match w.as_str() {
                "any" => 1,
                "exactmatch" => 2,
                "largest" => 3,
                "noduplicates" => 4,
                "samesize" => 5,
                _ => return self.expected("a comdat selection kind"),
            },
            _ => return self.expected("a comdat selection kind"),
        };
        self.bump()?;
        self.m.comdats.push(Comdat {
            selection_kind: kind,
            name: name.clone(),
        });
        self.comdat_names.insert(name, self.m.comdats.len() as u64);
        Ok(())
    }

    /// `comdat` or `comdat($name)` after a global or function.
    fn comdat_suffix(&mut self, own: &[u8]) -> Result<u64, ParseError> {
        if !self.is_word("comdat") {
            return Ok(0);
        }
        self.bump()?;
        let name = if self.eat_punct(b'(')? {
            let n = match &self.tok.tok {
                Tok::Word(w) if w.starts_with('$') => w.as_bytes()[1..].to_vec(),
                _ => return self.expected("a comdat name"),
            };
            self.bump()?;
            self.expect_punct(b')')?;
            n
        } else {
            own.to_vec()
        };
        match self.comdat_names.get(&name) {
            Some(i) => Ok(*i),
            None => self.err(format!(
                "comdat '${}' is not defined",
                String::from_utf8_lossy(&name)
            )),
        }
    }

    fn type_definition(
        &mut self,
        name: Option<Vec<u8>>,
        number: Option<u32>,
    ) -> Result<(), ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        self.expect_punct(b'=')?;
        self.expect_word("type")?;
        let id = self.named_struct(name.clone(), number);
        let entry = match (&name, number) {
            (Some(n), _) => self.named_types.get_mut(n),
            (None, Some(n)) => self.numbered_types.get_mut(&n),
            _ => None,
        };
        if let Some(entry) = entry {
            if entry.1 {
                return self.err_at(line, col, "redefinition of a type");
            }
            entry.1 = true;
        }
        if self.eat_word("opaque")? {
            return Ok(());
        }
        let packed = self.eat_punct(b'<')?;
        self.expect_punct(b'{')?;
        let body = self.struct_elements(b'}')?;
        if packed {
            self.expect_punct(b'>')?;
        }
        self.m.types[id.index()] = Type::Struct(StructType {
            name,
            packed,
            body: Some(body),
        });
        Ok(())
    }

    /// The value a `@name` or `@N` token names (numbered by the pre-scan).
    pub(super) fn global_ref(&mut self, ty: TypeId) -> Result<ValueId, ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        let id = match &self.tok.tok {
            Tok::GlobalName(n) => self.global_names.get(n).copied(),
            Tok::GlobalId(n) => self.global_ids.get(n).copied(),
            _ => return self.expected("a global value"),
        };
        let Some(id) = id else {
            return self.err(format!(
                "use of undefined value '{}'",
                token_text(&self.tok.tok)
            ));
        };
        self.bump()?;
        self.global_uses.push(GlobalUse {
            value: id,
            ty,
            line,
            col,
        });
        Ok(id)
    }

    fn linkage(&mut self) -> Result<Option<(Linkage, u64)>, ParseError> {
        let l = match &self.tok.tok {
            Tok::Word(w) => match w.as_str() {
                "private" => (Linkage::Private, 9),
                "internal" => (Linkage::Internal, 3),
                "linkonce" => (Linkage::LinkOnceAny, 18),
                "linkonce_odr" => (Linkage::LinkOnceOdr, 19),
                "weak" => (Linkage::WeakAny, 16),
                "weak_odr" => (Linkage::WeakOdr, 17),
                "common" => (Linkage::Common, 8),
                "appending" => (Linkage::Appending, 2),
                "extern_weak" => (Linkage::ExternWeak, 7),
                "available_externally" => (Linkage::AvailableExternally, 12),
                "external" => (Linkage::External, 0),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        self.bump()?;
        Ok(Some(l))
    }

    fn visibility(&mut self) -> Result<Visibility, ParseError> {
        Ok(if self.eat_word("hidden")? {
            Visibility::Hidden
        } else if self.eat_word("protected")? {
            Visibility::Protected
        } else {
            self.eat_word("default")?;
            Visibility::Default
        })
    }

    fn dll_storage(&mut self) -> Result<DllStorage, ParseError> {
        Ok(if self.eat_word("dllimport")? {
            DllStorage::Import
        } else if self.eat_word("dllexport")? {
            DllStorage::Export
        } else {
            DllStorage::Default
        })
    }

    fn thread_local(&mut self) -> Result<ThreadLocal, ParseError> {
        if !self.eat_word("thread_local")? {
            return Ok(ThreadLocal::NotThreadLocal);
        }
        if !self.eat_punct(b'(')? {
            return Ok(ThreadLocal::GeneralDynamic);
        }
        let mode = match &self.tok.tok {
            Tok::Word(w) => match w.as_str() {
                "localdynamic" => ThreadLocal::LocalDynamic,
                "initialexec" => ThreadLocal::InitialExec,
                "localexec" => ThreadLocal::LocalExec,
                _ => return self.expected("a thread-local mode"),
            },
            _ => return self.expected("a thread-local mode"),
        };
        self.bump()?;
        self.expect_punct(b')')?;
        Ok(mode)
    }

    fn defined_id(&mut self) -> Result<(ValueId, Vec<u8>), ParseError> {
        let (id, name) = match &self.tok.tok {
            Tok::GlobalName(n) => (self.global_names.get(n).copied(), n.clone()),
            Tok::GlobalId(n) => (self.global_ids.get(n).copied(), Vec::new()),
            _ => return self.expected("a global name"),
        };
        let Some(id) = id else {
            return self.expected("a global name");
        };
        self.bump()?;
        Ok((id, name))
    }

    fn global_or_alias(&mut self) -> Result<(), ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        let (id, name) = self.defined_id()?;
        self.expect_punct(b'=')?;
        let external_word = self.is_word("external");
        let (linkage, raw_linkage) = self.linkage()?.unwrap_or((Linkage::External, 0));
        let mut visibility = self.visibility()?;
        if matches!(linkage, Linkage::Internal | Linkage::Private) {
            visibility = Visibility::Default;
        }
        let dll_storage = self.dll_storage()?;
        let thread_local = self.thread_local()?;
        let unnamed_addr = self.eat_word("unnamed_addr")?;
        let common = |comdat| GlobalCommon {
            name: name.clone(),
            value: id,
            raw_linkage,
            linkage,
            visibility,
            dll_storage,
            unnamed_addr,
            comdat,
        };
        if self.eat_word("alias")? {
            let aliasee = if self.is_constant_expression() {
                self.constant_expression()?.0
            } else {
                let t = self.parse_type()?;
                self.parse_constant(t)?
            };
            let pointer_type = self.value_type(aliasee);
            let (value_type, address_space) = match pointer_type.and_then(|t| self.pointee(t)) {
                Some(p) => p,
                None => return self.err_at(line, col, "an alias must have pointer type"),
            };
            let index = self.m.aliases.len() as u32;
            self.m.values[id.index()] = ModuleValue::Alias(index);
            self.m.aliases.push(Alias {
                common: common(0),
                value_type,
                pointer_type,
                address_space,
                aliasee,
                thread_local,
            });
            return Ok(());
        }
        let mut address_space = 0;
        if self.eat_word("addrspace")? {
            self.expect_punct(b'(')?;
            address_space = self.expect_u32()?;
            self.expect_punct(b')')?;
        }
        let externally_initialized = self.eat_word("externally_initialized")?;
        let is_constant = if self.eat_word("constant")? {
            true
        } else if self.eat_word("global")? {
            false
        } else {
            return self.expected("'global' or 'constant'");
        };
        let value_type = self.parse_type()?;
        let declaration = external_word
            || matches!(linkage, Linkage::ExternWeak)
            || self.is_punct(b',')
            || !self.starts_value();
        let initializer = if declaration {
            None
        } else {
            Some(self.parse_constant(value_type)?)
        };
        let mut section = None;
        let mut comdat = 0;
        let mut alignment = 0;
        while self.eat_punct(b',')? {
            if self.eat_word("section")? {
                section = Some(self.expect_string()?);
            } else if self.is_word("comdat") {
                comdat = self.comdat_suffix(&name)?;
            } else if self.eat_word("align")? {
                alignment = self.expect_u64()?;
            } else {
                return self.expected("'section', 'comdat' or 'align'");
            }
        }
        let pointer_type = Some(self.pointer_to(value_type, address_space));
        let index = self.m.globals.len() as u32;
        self.m.values[id.index()] = ModuleValue::Global(index);
        self.m.globals.push(GlobalVariable {
            common: common(comdat),
            value_type,
            pointer_type,
            is_constant,
            address_space,
            initializer,
            alignment,
            section,
            thread_local,
            externally_initialized,
        });
        Ok(())
    }

    /// Whether the current token can start a constant (a global's initializer).
    fn starts_value(&self) -> bool {
        match &self.tok.tok {
            Tok::Int(_)
            | Tok::Float(_)
            | Tok::HexFloat(..)
            | Tok::CStr(_)
            | Tok::GlobalName(_)
            | Tok::GlobalId(_) => true,
            Tok::Punct(b'{' | b'[' | b'<') => true,
            Tok::Word(w) => {
                matches!(
                    w.as_str(),
                    "true"
                        | "false"
                        | "null"
                        | "undef"
                        | "zeroinitializer"
                        | "blockaddress"
                        | "asm"
                ) || self.is_constant_expression()
            }
            _ => false,
        }
    }

    fn function(&mut self) -> Result<(), ParseError> {
        let is_definition = self.is_word("define");
        self.bump()?;
        let (linkage, raw_linkage) = self.linkage()?.unwrap_or((Linkage::External, 0));
        let mut visibility = self.visibility()?;
        if matches!(linkage, Linkage::Internal | Linkage::Private) {
            visibility = Visibility::Default;
        }
        let dll_storage = self.dll_storage()?;
        let calling_conv = self.calling_conv()?;
        let mut pending = PendingAttributes {
            ret: self.parameter_attributes()?,
            ..PendingAttributes::default()
        };
        let ret = self.parse_type()?;
        let (line, col) = (self.tok.line, self.tok.col);
        let (id, name) = self.defined_id()?;
        self.expect_punct(b'(')?;
        let mut params = Vec::new();
        let mut arg_names: Vec<(Option<Tok>, u32, u32)> = Vec::new();
        let mut vararg = false;
        if !self.eat_punct(b')')? {
            loop {
                if self.tok.tok == Tok::Ellipsis {
                    self.bump()?;
                    vararg = true;
                    self.expect_punct(b')')?;
                    break;
                }
                params.push(self.parse_type()?);
                pending.params.push(self.parameter_attributes()?);
                let at = (self.tok.line, self.tok.col);
                let arg_name = match &self.tok.tok {
                    Tok::LocalName(_) | Tok::LocalId(_) => Some(self.bump()?.tok),
                    _ => None,
                };
                arg_names.push((arg_name, at.0, at.1));
                if self.eat_punct(b')')? {
                    break;
                }
                self.expect_punct(b',')?;
            }
        }
        let function_type = self.intern(Type::Function(FunctionType {
            vararg,
            ret,
            params: params.clone(),
        }));
        let unnamed_addr = self.eat_word("unnamed_addr")?;
        let mut section = None;
        let mut comdat = 0;
        let mut alignment = 0;
        let mut gc = None;
        let mut prefix_data = None;
        let mut prologue_data = None;
        let mut personality = None;
        let mut attachments = Vec::new();
        loop {
            match self.tok.tok.clone() {
                Tok::AttrGroup(n) => {
                    let t = self.bump()?;
                    pending.group = Some((n, t.line, t.col));
                }
                Tok::Word(w) => match w.as_str() {
                    "section" => {
                        self.bump()?;
                        section = Some(self.expect_string()?);
                    }
                    "comdat" => comdat = self.comdat_suffix(&name)?,
                    "align" => {
                        self.bump()?;
                        alignment = self.expect_u64()?;
                    }
                    "gc" => {
                        self.bump()?;
                        gc = Some(self.expect_string()?);
                    }
                    "prefix" | "prologue" | "personality" => {
                        self.bump()?;
                        let t = self.parse_type()?;
                        let v = self.parse_constant(t)?;
                        match w.as_str() {
                            "prefix" => prefix_data = Some(v),
                            "prologue" => prologue_data = Some(v),
                            _ => personality = Some(v),
                        }
                    }
                    _ => match self.enum_attribute(&w) {
                        Some(a) => {
                            self.bump()?;
                            pending.function.push(a);
                        }
                        None => break,
                    },
                },
                // An attachment (`!dbg !12`) of a definition; a declaration
                // has none, and `!name =` starts named metadata.
                Tok::MetaName(kind) if is_definition => {
                    let mut look = self.lex.clone();
                    if matches!(look.next_token().map(|t| t.tok), Ok(Tok::Punct(b'='))) {
                        break;
                    }
                    self.bump()?;
                    let kind = self.metadata_kind(&kind);
                    let node = self.metadata_ref()?;
                    attachments.push((kind, node));
                }
                _ => break,
            }
        }
        let index = self.m.functions.len() as u32;
        self.m.values[id.index()] = ModuleValue::Function(index);
        let pointer_type = Some(self.pointer_to(function_type, 0));
        self.m.functions.push(Function {
            common: GlobalCommon {
                name,
                value: id,
                raw_linkage,
                linkage,
                visibility,
                dll_storage,
                unnamed_addr,
                comdat,
            },
            function_type,
            pointer_type,
            calling_conv,
            is_declaration: !is_definition,
            attributes: 0,
            alignment,
            section,
            gc,
            prologue_data,
            prefix_data,
            personality,
            body: None,
        });
        self.function_attributes.push(pending);
        if is_definition {
            if !self.is_punct(b'{') {
                return self.expected("'{' (a function body)");
            }
            let body = self.function_body(index, &params, arg_names, attachments)?;
            self.m.functions[index as usize].body = Some(body);
        } else if !attachments.is_empty() {
            return self.err_at(line, col, "a declaration cannot have metadata attachments");
        }
        Ok(())
    }

    pub(super) fn calling_conv(&mut self) -> Result<u64, ParseError> {
        let Tok::Word(w) = &self.tok.tok else {
            return Ok(0);
        };
        let cc = match w.as_str() {
            "ccc" => 0,
            "fastcc" => 8,
            "coldcc" => 9,
            "webkit_jscc" => 12,
            "anyregcc" => 13,
            "preserve_mostcc" => 14,
            "preserve_allcc" => 15,
            "ghccc" => 10,
            "x86_stdcallcc" => 64,
            "x86_fastcallcc" => 65,
            "arm_apcscc" => 66,
            "arm_aapcscc" => 67,
            "arm_aapcs_vfpcc" => 68,
            "msp430_intrcc" => 69,
            "x86_thiscallcc" => 70,
            "ptx_kernel" => 71,
            "ptx_device" => 72,
            "spir_func" => 75,
            "spir_kernel" => 76,
            "intel_ocl_bicc" => 77,
            "x86_64_sysvcc" => 78,
            "x86_64_win64cc" => 79,
            "x86_vectorcallcc" => 80,
            "cc" => {
                self.bump()?;
                return self.expect_u64();
            }
            _ => match w.strip_prefix("cc").and_then(|n| n.parse().ok()) {
                Some(n) => n,
                None => return Ok(0),
            },
        };
        self.bump()?;
        Ok(cc)
    }

    /// An enum attribute's kind by its name.
    fn enum_attribute(&self, word: &str) -> Option<Attribute> {
        let code = (1..=45).find(|c| AttributeKind(*c).name() == Some(word))?;
        if matches!(code, 1 | 25 | 41 | 42) {
            return None;
        }
        Some(Attribute::Enum(AttributeKind(code)))
    }

    /// Attributes on a parameter or return value (`nocapture`, `align 4`,
    /// `dereferenceable(16)`, `"key"="value"`).
    pub(super) fn parameter_attributes(&mut self) -> Result<Vec<Attribute>, ParseError> {
        let mut out = Vec::new();
        loop {
            match self.tok.tok.clone() {
                Tok::Word(w) => {
                    if w == "align" {
                        // `align N` on a parameter; not the `, align N` of an instruction.
                        let mut look = self.lex.clone();
                        if !matches!(look.next_token().map(|t| t.tok), Ok(Tok::Int(_))) {
                            return Ok(out);
                        }
                        self.bump()?;
                        out.push(Attribute::Int(AttributeKind(1), self.expect_u64()?));
                        continue;
                    }
                    if let Some(code) = match w.as_str() {
                        "alignstack" => Some(25),
                        "dereferenceable" => Some(41),
                        "dereferenceable_or_null" => Some(42),
                        _ => None,
                    } {
                        self.bump()?;
                        self.expect_punct(b'(')?;
                        let v = self.expect_u64()?;
                        self.expect_punct(b')')?;
                        out.push(Attribute::Int(AttributeKind(code), v));
                        continue;
                    }
                    match self.enum_attribute(&w) {
                        Some(a) => {
                            self.bump()?;
                            out.push(a);
                        }
                        None => return Ok(out),
                    }
                }
                Tok::Str(_) => out.push(self.string_attribute()?),
                _ => return Ok(out),
            }
        }
    }

    fn string_attribute(&mut self) -> Result<Attribute, ParseError> {
        let key = self.expect_string()?;
        let value = if self.eat_punct(b'=')? {
            Some(self.expect_string()?)
        } else {
            None
        };
        Ok(Attribute::String { key, value })
    }

    fn attribute_group(&mut self) -> Result<(), ParseError> {
        self.bump()?;
        let (line, col) = (self.tok.line, self.tok.col);
        let Tok::AttrGroup(n) = self.tok.tok else {
            return self.expected("'#N'");
        };
        self.bump()?;
        self.expect_punct(b'=')?;
        self.expect_punct(b'{')?;
        let mut attributes = Vec::new();
        while !self.eat_punct(b'}')? {
            match self.tok.tok.clone() {
                Tok::Str(_) => attributes.push(self.string_attribute()?),
                Tok::Word(w) => {
                    self.bump()?;
                    let int_code = match w.as_str() {
                        "align" => Some(1),
                        "alignstack" => Some(25),
                        "dereferenceable" => Some(41),
                        "dereferenceable_or_null" => Some(42),
                        _ => None,
                    };
                    if let Some(code) = int_code {
                        let v = if self.eat_punct(b'=')? {
                            self.expect_u64()?
                        } else {
                            self.expect_punct(b'(')?;
                            let v = self.expect_u64()?;
                            self.expect_punct(b')')?;
                            v
                        };
                        attributes.push(Attribute::Int(AttributeKind(code), v));
                    } else {
                        match self.enum_attribute(&w) {
                            Some(a) => attributes.push(a),
                            None => return self.err(format!("unknown attribute '{w}'")),
                        }
                    }
                }
                _ => return self.expected("an attribute"),
            }
        }
        if self.attribute_groups.insert(n, attributes).is_some() {
            return self.err_at(line, col, format!("redefinition of attribute group #{n}"));
        }
        Ok(())
    }

    // ------------------------------------------------------------ constants

    /// A module constant (one per distinct type and form).
    pub(super) fn constant(&mut self, ty: TypeId, kind: ConstantKind) -> ValueId {
        let c = Constant { ty, kind };
        if let Some(id) = self.constants.get(&c) {
            return *id;
        }
        let id = ValueId(self.m.values.len() as u32);
        self.m
            .values
            .push(ModuleValue::Constant(self.m.constants.len() as u32));
        self.m.constants.push(c.clone());
        self.constants.insert(c, id);
        id
    }

    /// The type of a module value (a global's pointer type, a constant's type).
    pub(super) fn value_type(&self, id: ValueId) -> Option<TypeId> {
        match *self.m.values.get(id.index())? {
            ModuleValue::Constant(i) => Some(self.m.constants[i as usize].ty),
            ModuleValue::Global(u32::MAX)
            | ModuleValue::Function(u32::MAX)
            | ModuleValue::Alias(u32::MAX) => self
                .global_uses
                .iter()
                .find(|u| u.value == id)
                .map(|u| u.ty),
            _ => self.m.value_type(id),
        }
    }

    pub(super) fn constant_kind(&self, id: ValueId) -> Option<&ConstantKind> {
        match *self.m.values.get(id.index())? {
            ModuleValue::Constant(i) => Some(&self.m.constants[i as usize].kind),
            _ => None,
        }
    }

    /// An integer constant's value (`Null` is 0).
    pub(super) fn constant_int(&self, id: ValueId) -> Option<i64> {
        match self.constant_kind(id)? {
            ConstantKind::Integer(v) => Some(*v),
            ConstantKind::Null => Some(0),
            _ => None,
        }
    }

    pub(super) fn is_constant_expression(&self) -> bool {
        let Tok::Word(w) = &self.tok.tok else {
            return false;
        };
        cast_op(w).is_some()
            || binop_of(w).is_some()
            || matches!(
                w.as_str(),
                "getelementptr"
                    | "select"
                    | "icmp"
                    | "fcmp"
                    | "extractelement"
                    | "insertelement"
                    | "shufflevector"
            )
    }

    /// A constant of type `ty`.
    pub(super) fn parse_constant(&mut self, ty: TypeId) -> Result<ValueId, ParseError> {
        self.enter()?;
        let r = self.parse_constant_inner(ty);
        self.leave();
        r
    }

    fn mismatch<T>(&self, line: u32, col: u32, what: &str, ty: TypeId) -> Result<T, ParseError> {
        self.err_at(
            line,
            col,
            format!(
                "{what} is not a valid constant of type {}",
                self.type_name(ty)
            ),
        )
    }

    fn parse_constant_inner(&mut self, ty: TypeId) -> Result<ValueId, ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        match self.tok.tok.clone() {
            Tok::Int(text) => {
                self.bump()?;
                let Some(bits) = self.integer_bits(ty) else {
                    return self.mismatch(line, col, &format!("'{text}'"), ty);
                };
                let Ok(v) = text.parse::<i128>() else {
                    return self.err_at(line, col, format!("'{text}' is too large"));
                };
                if bits > 64 {
                    let words: Vec<u64> = (0..bits.div_ceil(64))
                        .map(|i| {
                            if i < 2 {
                                (v >> (64 * i)) as u64
                            } else if v < 0 {
                                u64::MAX
                            } else {
                                0
                            }
                        })
                        .collect();
                    if v == 0 {
                        return Ok(self.constant(ty, ConstantKind::Null));
                    }
                    return Ok(self.constant(ty, ConstantKind::WideInteger(words)));
                }
                let fits = if bits == 64 {
                    i128::from(i64::MIN) <= v && v <= i128::from(u64::MAX)
                } else {
                    -(1i128 << (bits - 1)) <= v && v < (1i128 << bits)
                };
                if !fits {
                    return self.err_at(line, col, format!("'{text}' does not fit i{bits}"));
                }
                let value = sign_extend(v as u64, bits);
                Ok(self.int_constant(ty, value))
            }
            Tok::Word(w) if w == "true" || w == "false" => {
                self.bump()?;
                if self.integer_bits(ty) != Some(1) {
                    return self.mismatch(line, col, &format!("'{w}'"), ty);
                }
                Ok(self.int_constant(ty, if w == "true" { -1 } else { 0 }))
            }
            Tok::Float(text) => {
                self.bump()?;
                let Ok(v) = text.parse::<f64>() else {
                    return self.err_at(line, col, format!("'{text}' is not a number"));
                };
                let bits = match self.ty(ty) {
                    Type::Double => v.to_bits(),
                    Type::Float => u64::from((v as f32).to_bits()),
                    Type::Half => u64::from(f32_to_half((v as f32).to_bits())),
                    _ => return self.mismatch(line, col, &format!("'{text}'"), ty),
                };
                Ok(self.float_constant(ty, bits))
            }
            Tok::HexFloat(kind, digits) => {
                self.bump()?;
                let t = self.ty(ty).clone();
                let parse = |d: &str| u128::from_str_radix(d, 16).ok();
                let Some(raw) = parse(&digits) else {
                    return self.err_at(line, col, "hexadecimal constant too long");
                };
                match (kind, t) {
                    (' ', Type::Double) => Ok(self.float_constant(ty, raw as u64)),
                    (' ', Type::Float) => {
                        Ok(self.float_constant(ty, u64::from(narrow_double(raw as u64))))
                    }
                    (' ', Type::Half) => {
                        let single = narrow_double(raw as u64);
                        Ok(self.float_constant(ty, u64::from(f32_to_half(single))))
                    }
                    ('H', Type::Half) => Ok(self.float_constant(ty, raw as u64 & 0xffff)),
                    (' ', Type::Integer { .. }) => Ok(self.int_constant(ty, raw as u64 as i64)),
                    ('K', Type::X86Fp80) => {
                        let words = [raw as u64, (raw >> 64) as u64 & 0xffff];
                        Ok(self.wide_float(ty, words))
                    }
                    ('L' | 'M', Type::Fp128 | Type::PpcFp128) => {
                        let words = [(raw >> 64) as u64, raw as u64];
                        Ok(self.wide_float(ty, words))
                    }
                    _ => self.mismatch(line, col, "this hexadecimal constant", ty),
                }
            }
            Tok::Word(w) if w == "null" => {
                self.bump()?;
                if self.pointee(ty).is_none() {
                    return self.mismatch(line, col, "'null'", ty);
                }
                Ok(self.constant(ty, ConstantKind::Null))
            }
            Tok::Word(w) if w == "zeroinitializer" => {
                self.bump()?;
                Ok(self.constant(ty, ConstantKind::Null))
            }
            Tok::Word(w) if w == "undef" => {
                self.bump()?;
                Ok(self.constant(ty, ConstantKind::Undef))
            }
            Tok::GlobalName(_) | Tok::GlobalId(_) => self.global_ref(ty),
            Tok::CStr(bytes) => {
                self.bump()?;
                match self.ty(ty) {
                    Type::Array { len, element }
                        if *len == bytes.len() as u64 && self.integer_bits(*element) == Some(8) => {
                    }
                    _ => return self.mismatch(line, col, "this string", ty),
                }
                Ok(self.sequence(ty, bytes.iter().map(|&b| u64::from(b)).collect()))
            }
            Tok::Punct(b'{') => {
                self.bump()?;
                self.struct_constant(ty, false, line, col)
            }
            Tok::Punct(b'<') => {
                self.bump()?;
                if self.eat_punct(b'{')? {
                    return self.struct_constant(ty, true, line, col);
                }
                let Type::Vector { len, element } = self.ty(ty).clone() else {
                    return self.mismatch(line, col, "a vector", ty);
                };
                self.sized_aggregate(ty, element, len, b'>', line, col)
            }
            Tok::Punct(b'[') => {
                self.bump()?;
                let Type::Array { len, element } = self.ty(ty).clone() else {
                    return self.mismatch(line, col, "an array", ty);
                };
                self.sized_aggregate(ty, element, len, b']', line, col)
            }
            Tok::Word(w) if w == "asm" => self.inline_asm(ty),
            Tok::Word(w) if w == "blockaddress" => {
                self.err("'blockaddress' constants are not valid in DXIL")
            }
            Tok::Word(_) if self.is_constant_expression() => {
                let (id, t) = self.constant_expression()?;
                if t != ty {
                    return self.err_at(
                        line,
                        col,
                        format!(
                            "constant expression is {}, expected {}",
                            self.type_name(t),
                            self.type_name(ty)
                        ),
                    );
                }
                Ok(id)
            }
            _ => self.expected("a constant"),
        }
    }

    fn int_constant(&mut self, ty: TypeId, value: i64) -> ValueId {
        if value == 0 {
            self.constant(ty, ConstantKind::Null)
        } else {
            self.constant(ty, ConstantKind::Integer(value))
        }
    }

    fn float_constant(&mut self, ty: TypeId, bits: u64) -> ValueId {
        if bits == 0 {
            self.constant(ty, ConstantKind::Null)
        } else {
            self.constant(ty, ConstantKind::Float(bits))
        }
    }

    fn wide_float(&mut self, ty: TypeId, words: [u64; 2]) -> ValueId {
        if words == [0, 0] {
            self.constant(ty, ConstantKind::Null)
        } else {
            self.constant(ty, ConstantKind::WideFloat(words))
        }
    }

    fn inline_asm(&mut self, ty: TypeId) -> Result<ValueId, ParseError> {
        self.bump()?;
        let side_effect = self.eat_word("sideeffect")?;
        let align_stack = self.eat_word("alignstack")?;
        let dialect = u64::from(self.eat_word("inteldialect")?);
        let asm = self.expect_string()?;
        self.expect_punct(b',')?;
        let constraints = self.expect_string()?;
        Ok(self.constant(
            ty,
            ConstantKind::InlineAsm {
                side_effect,
                align_stack,
                dialect,
                asm,
                constraints,
            },
        ))
    }

    /// The elements of a vector or array constant up to `close`, which must
    /// be as many as its type `ty` has (`len`).
    fn sized_aggregate(
        &mut self,
        ty: TypeId,
        element: TypeId,
        len: u64,
        close: u8,
        line: u32,
        col: u32,
    ) -> Result<ValueId, ParseError> {
        let elements = self.element_list(element, close)?;
        if elements.len() as u64 != len {
            return self.err_at(
                line,
                col,
                format!(
                    "{} elements, type {} has {len}",
                    elements.len(),
                    self.type_name(ty)
                ),
            );
        }
        Ok(self.aggregate(ty, elements))
    }

    fn element_list(&mut self, element: TypeId, close: u8) -> Result<Vec<ValueId>, ParseError> {
        let mut out = Vec::new();
        if self.eat_punct(close)? {
            return Ok(out);
        }
        loop {
            let (line, col) = (self.tok.line, self.tok.col);
            let t = self.parse_type()?;
            if t != element {
                return self.err_at(
                    line,
                    col,
                    format!(
                        "element is {}, expected {}",
                        self.type_name(t),
                        self.type_name(element)
                    ),
                );
            }
            out.push(self.parse_constant(t)?);
            if self.eat_punct(close)? {
                return Ok(out);
            }
            self.expect_punct(b',')?;
        }
    }

    fn struct_constant(
        &mut self,
        ty: TypeId,
        packed: bool,
        line: u32,
        col: u32,
    ) -> Result<ValueId, ParseError> {
        let Type::Struct(StructType {
            body: Some(body),
            packed: p,
            ..
        }) = self.ty(ty).clone()
        else {
            return self.mismatch(line, col, "a struct", ty);
        };
        if p != packed {
            return self.mismatch(line, col, "this struct", ty);
        }
        let mut elements = Vec::new();
        if !self.eat_punct(b'}')? {
            loop {
                let (l, c) = (self.tok.line, self.tok.col);
                let t = self.parse_type()?;
                match body.get(elements.len()) {
                    Some(want) if *want == t => {}
                    Some(want) => {
                        return self.err_at(
                            l,
                            c,
                            format!(
                                "field is {}, expected {}",
                                self.type_name(t),
                                self.type_name(*want)
                            ),
                        )
                    }
                    None => {
                        return self.err_at(
                            l,
                            c,
                            format!("too many fields for {}", self.type_name(ty)),
                        )
                    }
                }
                elements.push(self.parse_constant(t)?);
                if self.eat_punct(b'}')? {
                    break;
                }
                self.expect_punct(b',')?;
            }
        }
        if packed {
            self.expect_punct(b'>')?;
        }
        if elements.len() != body.len() {
            return self.err_at(
                line,
                col,
                format!(
                    "{} fields, type {} has {}",
                    elements.len(),
                    self.type_name(ty),
                    body.len()
                ),
            );
        }
        Ok(self.aggregate(ty, elements))
    }

    /// An aggregate as LLVM's constant uniquing makes it: all zero is
    /// `zeroinitializer`, all undef is `undef`, an array or vector of plain
    /// numbers is a data sequence (a string for `i8` arrays).
    fn aggregate(&mut self, ty: TypeId, elements: Vec<ValueId>) -> ValueId {
        let kinds: Vec<ConstantKind> = elements
            .iter()
            .map(|e| {
                self.constant_kind(*e)
                    .cloned()
                    .unwrap_or(ConstantKind::Undef)
            })
            .collect();
        let all_global = elements.iter().all(|e| self.constant_kind(*e).is_some());
        if all_global && !elements.is_empty() && kinds.iter().all(|k| *k == ConstantKind::Null) {
            return self.constant(ty, ConstantKind::Null);
        }
        if all_global && !elements.is_empty() && kinds.iter().all(|k| *k == ConstantKind::Undef) {
            return self.constant(ty, ConstantKind::Undef);
        }
        let element = match self.ty(ty) {
            Type::Array { element, .. } | Type::Vector { element, .. } => Some(*element),
            _ => None,
        };
        if let (Some(element), true) = (element, all_global) {
            let simple = match self.ty(element) {
                Type::Integer { bits } => matches!(bits, 8 | 16 | 32 | 64),
                Type::Half | Type::Float | Type::Double => true,
                _ => false,
            };
            let bits = self.integer_bits(element);
            if simple {
                let values: Option<Vec<u64>> = kinds
                    .iter()
                    .map(|k| match k {
                        ConstantKind::Null => Some(0),
                        ConstantKind::Integer(v) => Some(match bits {
                            Some(64) | None => *v as u64,
                            Some(b) => (*v as u64) & ((1u64 << b) - 1),
                        }),
                        ConstantKind::Float(b) => Some(*b),
                        _ => None,
                    })
                    .collect();
                if let Some(values) = values {
                    return self.sequence(ty, values);
                }
            }
        }
        self.constant(ty, ConstantKind::Aggregate(elements))
    }

    /// A data sequence of `ty` (an array or vector of plain numbers).
    fn sequence(&mut self, ty: TypeId, values: Vec<u64>) -> ValueId {
        if values.iter().all(|v| *v == 0) && !values.is_empty() {
            return self.constant(ty, ConstantKind::Null);
        }
        let is_i8_array = match self.ty(ty) {
            Type::Array { element, .. } => self.integer_bits(*element) == Some(8),
            _ => false,
        };
        if is_i8_array {
            let bytes: Vec<u8> = values.iter().map(|v| *v as u8).collect();
            let cstring = bytes.last() == Some(&0) && !bytes[..bytes.len() - 1].contains(&0);
            return self.constant(ty, ConstantKind::String { bytes, cstring });
        }
        self.constant(ty, ConstantKind::Data(values))
    }

    /// A typed constant operand inside a constant expression.
    fn typed_constant(&mut self) -> Result<(ValueId, TypeId), ParseError> {
        let t = self.parse_type()?;
        Ok((self.parse_constant(t)?, t))
    }

    /// `bitcast (…)`, `getelementptr (…)`, …: the constant and its type.
    pub(super) fn constant_expression(&mut self) -> Result<(ValueId, TypeId), ParseError> {
        self.enter()?;
        let r = self.constant_expression_inner();
        self.leave();
        r
    }

    fn constant_expression_inner(&mut self) -> Result<(ValueId, TypeId), ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        let Tok::Word(w) = self.bump()?.tok else {
            return self.expected("a constant expression");
        };
        if let Some(op) = cast_op(&w) {
            self.expect_punct(b'(')?;
            let (value, _) = self.typed_constant()?;
            self.expect_word("to")?;
            let to = self.parse_type()?;
            self.expect_punct(b')')?;
            return Ok((self.constant(to, ConstantKind::Cast { op, value }), to));
        }
        if let Some(op0) = binop_of(&w) {
            let mut flags = BinOpFlags::default();
            loop {
                if self.eat_word("nuw")? {
                    flags.nuw = true;
                } else if self.eat_word("nsw")? {
                    flags.nsw = true;
                } else if self.eat_word("exact")? {
                    flags.exact = true;
                } else {
                    break;
                }
            }
            self.expect_punct(b'(')?;
            let (lhs, t) = self.typed_constant()?;
            self.expect_punct(b',')?;
            let (rhs, _) = self.typed_constant()?;
            self.expect_punct(b')')?;
            let op = op0;
            return Ok((
                self.constant(
                    t,
                    ConstantKind::BinOp {
                        op,
                        lhs,
                        rhs,
                        flags,
                    },
                ),
                t,
            ));
        }
        match w.as_str() {
            "getelementptr" => {
                let inbounds = self.eat_word("inbounds")?;
                self.expect_punct(b'(')?;
                let source = self.parse_type()?;
                let mut operands = Vec::new();
                let mut index_values = Vec::new();
                let mut pointer_type = None;
                while self.eat_punct(b',')? {
                    let (v, t) = self.typed_constant()?;
                    if pointer_type.is_none() {
                        pointer_type = Some(t);
                    } else {
                        index_values.push(self.constant_int(v).map(|x| x as u64));
                    }
                    operands.push(v);
                }
                self.expect_punct(b')')?;
                let Some((_, space)) = pointer_type.and_then(|t| self.pointee(t)) else {
                    return self.err_at(line, col, "getelementptr needs a pointer operand");
                };
                let Some(result) =
                    self.indexed_type(source, index_values.get(1..).unwrap_or_default())
                else {
                    return self.err_at(line, col, "invalid getelementptr indices");
                };
                let ty = self.pointer_to(result, space);
                let kind = ConstantKind::GetElementPtr {
                    inbounds,
                    source_type: Some(source),
                    operands,
                };
                Ok((self.constant(ty, kind), ty))
            }
            "select" => {
                self.expect_punct(b'(')?;
                let (condition, _) = self.typed_constant()?;
                self.expect_punct(b',')?;
                let (if_true, t) = self.typed_constant()?;
                self.expect_punct(b',')?;
                let (if_false, _) = self.typed_constant()?;
                self.expect_punct(b')')?;
                Ok((
                    self.constant(
                        t,
                        ConstantKind::Select {
                            condition,
                            if_true,
                            if_false,
                        },
                    ),
                    t,
                ))
            }
            "icmp" | "fcmp" => {
                let predicate = self.predicate(w == "fcmp")?;
                self.expect_punct(b'(')?;
                let (lhs, t) = self.typed_constant()?;
                self.expect_punct(b',')?;
                let (rhs, _) = self.typed_constant()?;
                self.expect_punct(b')')?;
                let ty = self.compare_type(t);
                Ok((
                    self.constant(
                        ty,
                        ConstantKind::Compare {
                            predicate,
                            lhs,
                            rhs,
                        },
                    ),
                    ty,
                ))
            }
            "extractelement" => {
                self.expect_punct(b'(')?;
                let (vector, t) = self.typed_constant()?;
                self.expect_punct(b',')?;
                let (index, _) = self.typed_constant()?;
                self.expect_punct(b')')?;
                let ty = self.scalar(t);
                Ok((
                    self.constant(ty, ConstantKind::ExtractElement { vector, index }),
                    ty,
                ))
            }
            "insertelement" => {
                self.expect_punct(b'(')?;
                let (vector, t) = self.typed_constant()?;
                self.expect_punct(b',')?;
                let (element, _) = self.typed_constant()?;
                self.expect_punct(b',')?;
                let (index, _) = self.typed_constant()?;
                self.expect_punct(b')')?;
                Ok((
                    self.constant(
                        t,
                        ConstantKind::InsertElement {
                            vector,
                            element,
                            index,
                        },
                    ),
                    t,
                ))
            }
            "shufflevector" => {
                self.expect_punct(b'(')?;
                let (first, t) = self.typed_constant()?;
                self.expect_punct(b',')?;
                let (second, _) = self.typed_constant()?;
                self.expect_punct(b',')?;
                let (mask, mt) = self.typed_constant()?;
                self.expect_punct(b')')?;
                let len = match self.ty(mt) {
                    Type::Vector { len, .. } => *len,
                    _ => return self.err_at(line, col, "the shuffle mask must be a vector"),
                };
                let element = self.scalar(t);
                let ty = self.intern(Type::Vector { len, element });
                Ok((
                    self.constant(
                        ty,
                        ConstantKind::ShuffleVector {
                            first,
                            second,
                            mask,
                        },
                    ),
                    ty,
                ))
            }
            _ => self.err_at(line, col, format!("'{w}' is not a constant expression")),
        }
    }

    /// `i1`, or a vector of `i1` as wide as `operand`.
    pub(super) fn compare_type(&mut self, operand: TypeId) -> TypeId {
        let i1 = self.int_type(1);
        match self.ty(operand) {
            Type::Vector { len, .. } => {
                let len = *len;
                self.intern(Type::Vector { len, element: i1 })
            }
            _ => i1,
        }
    }

    pub(super) fn predicate(&mut self, float: bool) -> Result<Predicate, ParseError> {
        let Tok::Word(w) = &self.tok.tok else {
            return self.expected("a comparison predicate");
        };
        let range: Vec<u32> = if float {
            (0..=15).collect()
        } else {
            (32..=41).collect()
        };
        let Some(p) = range
            .into_iter()
            .find(|p| Predicate(*p).name() == Some(w.as_str()))
        else {
            return self.expected("a comparison predicate");
        };
        self.bump()?;
        Ok(Predicate(p))
    }

    // ------------------------------------------------------------ metadata

    /// The kind ID of attachment `name` (a kind the text names first is
    /// registered after the others).
    pub(super) fn metadata_kind(&mut self, name: &[u8]) -> u32 {
        if let Some(k) = self.m.metadata_kinds.iter().find(|k| k.name == name) {
            return k.id;
        }
        let id = self.m.metadata_kinds.len() as u32;
        self.m.metadata_kinds.push(MetadataKind {
            id,
            name: name.to_vec(),
        });
        id
    }

    /// The model ID of text slot `!N` (allocated at its first mention).
    pub(super) fn md_slot(&mut self, n: u32) -> MetadataId {
        if let Some(e) = self.md_slots.get(&n) {
            return e.0;
        }
        let id = MetadataId(self.m.metadata.len() as u32);
        self.m.metadata.push(Metadata::Node {
            distinct: false,
            operands: Vec::new(),
        });
        self.md_slots
            .insert(n, (id, false, self.tok.line, self.tok.col));
        id
    }

    pub(super) fn md_string(&mut self, s: Vec<u8>) -> MetadataId {
        if let Some(id) = self.md_strings.get(&s) {
            return *id;
        }
        let id = MetadataId(self.m.metadata.len() as u32);
        self.m.metadata.push(Metadata::String(s.clone()));
        self.md_strings.insert(s, id);
        id
    }

    pub(super) fn md_value(&mut self, ty: TypeId, value: ValueId) -> MetadataId {
        if let Some(id) = self.md_values.get(&(ty, value)) {
            return *id;
        }
        let id = MetadataId(self.m.metadata.len() as u32);
        self.m.metadata.push(Metadata::Value { ty, value });
        self.md_values.insert((ty, value), id);
        id
    }

    /// `!N` (a reference to a node defined anywhere in the text).
    pub(super) fn metadata_ref(&mut self) -> Result<MetadataId, ParseError> {
        match self.tok.tok {
            Tok::MetaId(n) => {
                let id = self.md_slot(n);
                self.bump()?;
                Ok(id)
            }
            _ => self.expected("a metadata reference '!N'"),
        }
    }

    /// A module-level metadata operand: `null`, `!N`, `!"…"` or a typed
    /// constant or global.
    fn metadata_operand(&mut self) -> Result<Option<MetadataId>, ParseError> {
        match self.tok.tok.clone() {
            Tok::Word(w) if w == "null" => {
                self.bump()?;
                Ok(None)
            }
            Tok::MetaId(_) => Ok(Some(self.metadata_ref()?)),
            Tok::MetaString(s) => {
                self.bump()?;
                Ok(Some(self.md_string(s)))
            }
            Tok::Bang | Tok::MetaName(_) => {
                self.err("inline metadata nodes are not written by LLVM 3.7's printer; give the node a number")
            }
            _ => {
                let t = self.parse_type()?;
                let v = self.parse_constant(t)?;
                Ok(Some(self.md_value(t, v)))
            }
        }
    }

    fn named_metadata(&mut self, name: Vec<u8>) -> Result<(), ParseError> {
        self.named_at
            .push((name.clone(), self.tok.line, self.tok.col));
        self.bump()?;
        self.expect_punct(b'=')?;
        if self.tok.tok != Tok::Bang {
            return self.expected("'!{'");
        }
        self.bump()?;
        self.expect_punct(b'{')?;
        let mut operands = Vec::new();
        if !self.eat_punct(b'}')? {
            loop {
                operands.push(self.metadata_ref()?);
                if self.eat_punct(b'}')? {
                    break;
                }
                self.expect_punct(b',')?;
            }
        }
        if self.m.named_metadata.iter().any(|n| n.name == name) {
            return self.err(format!(
                "redefinition of '!{}'",
                String::from_utf8_lossy(&name)
            ));
        }
        self.m.named_metadata.push(NamedMetadata { name, operands });
        Ok(())
    }

    fn metadata_definition(&mut self, n: u32) -> Result<(), ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        self.bump()?;
        self.expect_punct(b'=')?;
        let id = self.md_slot(n);
        self.md_defs.insert(id.0, (n, line, col));
        let entry = self.md_slots.get_mut(&n).expect("allocated above");
        if entry.1 {
            return self.err_at(line, col, format!("redefinition of '!{n}'"));
        }
        entry.1 = true;
        let distinct = self.eat_word("distinct")?;
        let node = match self.tok.tok.clone() {
            Tok::Bang => {
                self.bump()?;
                self.expect_punct(b'{')?;
                let mut operands = Vec::new();
                if !self.eat_punct(b'}')? {
                    loop {
                        operands.push(self.metadata_operand()?);
                        if self.eat_punct(b'}')? {
                            break;
                        }
                        self.expect_punct(b',')?;
                    }
                }
                Metadata::Node { distinct, operands }
            }
            Tok::MetaName(kind) => {
                self.bump()?;
                Metadata::Debug(self.debug_node(&kind, distinct, line, col)?)
            }
            _ => return self.expected("'!{' or a debug-info node"),
        };
        self.m.metadata[id.index()] = node;
        Ok(())
    }
}

pub(super) fn sign_extend(value: u64, bits: u32) -> i64 {
    if bits >= 64 {
        return value as i64;
    }
    let shift = 64 - bits;
    ((value << shift) as i64) >> shift
}

/// A double's bit pattern as a single's (the printer widens singles to
/// doubles; a NaN keeps its payload's top bits).
fn narrow_double(bits: u64) -> u32 {
    let sign = ((bits >> 63) as u32) << 31;
    let exponent = (bits >> 52) & 0x7ff;
    if exponent == 0x7ff {
        return sign | (0xff << 23) | ((bits >> 29) as u32 & 0x7f_ffff);
    }
    (f64::from_bits(bits) as f32).to_bits()
}

/// A single's bit pattern as a half's (exact for the values a half holds).
fn f32_to_half(bits: u32) -> u16 {
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32;
    let fraction = bits & 0x7f_ffff;
    if exponent == 0xff {
        return sign | 0x7c00 | (fraction >> 13) as u16;
    }
    let e = exponent - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = fraction | 0x80_0000;
        return sign | (m >> (14 - e)) as u16;
    }
    sign | ((e as u16) << 10) | (fraction >> 13) as u16
}

pub(super) fn cast_op(w: &str) -> Option<CastOp> {
    Some(match w {
        "trunc" => CastOp::Trunc,
        "zext" => CastOp::ZExt,
        "sext" => CastOp::SExt,
        "fptoui" => CastOp::FpToUi,
        "fptosi" => CastOp::FpToSi,
        "uitofp" => CastOp::UiToFp,
        "sitofp" => CastOp::SiToFp,
        "fptrunc" => CastOp::FpTrunc,
        "fpext" => CastOp::FpExt,
        "ptrtoint" => CastOp::PtrToInt,
        "inttoptr" => CastOp::IntToPtr,
        "bitcast" => CastOp::BitCast,
        "addrspacecast" => CastOp::AddrSpaceCast,
        _ => return None,
    })
}

pub(super) fn binop_of(w: &str) -> Option<BinOp> {
    Some(match w {
        "add" => BinOp::Add,
        "fadd" => BinOp::FAdd,
        "sub" => BinOp::Sub,
        "fsub" => BinOp::FSub,
        "mul" => BinOp::Mul,
        "fmul" => BinOp::FMul,
        "udiv" => BinOp::UDiv,
        "sdiv" => BinOp::SDiv,
        "fdiv" => BinOp::FDiv,
        "urem" => BinOp::URem,
        "srem" => BinOp::SRem,
        "frem" => BinOp::FRem,
        "shl" => BinOp::Shl,
        "lshr" => BinOp::LShr,
        "ashr" => BinOp::AShr,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "xor" => BinOp::Xor,
        _ => return None,
    })
}

/// A token as the text spells it, for messages.
pub(super) fn token_text(t: &Tok) -> String {
    let name = |prefix: &str, n: &[u8]| format!("{prefix}{}", String::from_utf8_lossy(n));
    match t {
        Tok::LocalName(n) => name("%", n),
        Tok::LocalId(n) => format!("%{n}"),
        Tok::GlobalName(n) => name("@", n),
        Tok::GlobalId(n) => format!("@{n}"),
        Tok::MetaName(n) => name("!", n),
        Tok::MetaId(n) => format!("!{n}"),
        Tok::MetaString(s) => format!("!\"{}\"", String::from_utf8_lossy(s)),
        Tok::Bang => "!".into(),
        Tok::AttrGroup(n) => format!("#{n}"),
        Tok::Str(s) => format!("\"{}\"", String::from_utf8_lossy(s)),
        Tok::CStr(s) => format!("c\"{}\"", String::from_utf8_lossy(s)),
        Tok::Label(s) => name("", s) + ":",
        Tok::Int(s) | Tok::Float(s) | Tok::Word(s) => s.clone(),
        Tok::HexFloat(k, d) => format!(
            "0x{}{d}",
            if *k == ' ' {
                String::new()
            } else {
                k.to_string()
            }
        ),
        Tok::Punct(c) => char::from(*c).to_string(),
        Tok::Ellipsis => "...".into(),
        Tok::Eof => "end of text".into(),
    }
}

/// A token for "expected …, found …".
pub(super) fn describe(t: &Tok) -> String {
    match t {
        Tok::Eof => "the end of the text".into(),
        _ => format!("'{}'", token_text(t)),
    }
}
