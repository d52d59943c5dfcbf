//! Function bodies: basic blocks, instructions, local names and numbers,
//! forward references (checked and resolved when the body ends).

use super::lex::Tok;
use super::parse::{
    binop_of, cast_op, Parser, PendingAttributes, FORWARD_BASE, LOCAL_BASE, LOCAL_MD_BASE,
};
use super::ParseError;
use dxcopy_read::dxil::{
    Argument, Atomic, AtomicOrdering, Attachment, BasicBlock, BinOpFlags, BlockId, FastMathFlags,
    FunctionBody, FunctionType, Instruction, InstructionKind, LocalValue, Metadata, MetadataId,
    Operand, PhiIncoming, RmwOp, StructType, SwitchCase, SynchScope, TailCall, Type, TypeId,
    ValueId,
};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Name(Vec<u8>),
    Number(u32),
}

impl Key {
    fn text(&self) -> String {
        match self {
            Key::Name(n) => format!("%{}", String::from_utf8_lossy(n)),
            Key::Number(n) => format!("%{n}"),
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Slot {
    Value(ValueId, TypeId),
    Block(BlockId),
}

struct Forward {
    placeholder: u32,
    ty: Option<TypeId>,
    line: u32,
    col: u32,
}

#[derive(Default)]
struct Scope {
    slots: HashMap<Key, Slot>,
    next_number: u32,
    next_local: u32,
    forward_values: HashMap<Key, Forward>,
    forward_blocks: HashMap<Key, Forward>,
    value_patch: HashMap<u32, ValueId>,
    block_patch: HashMap<u32, BlockId>,
    next_forward: u32,
    local_md: Vec<Metadata>,
    local_md_ids: HashMap<(TypeId, ValueId), MetadataId>,
}

impl Parser<'_> {
    fn local_key(&self) -> Option<Key> {
        match &self.tok.tok {
            Tok::LocalName(n) => Some(Key::Name(n.clone())),
            Tok::LocalId(n) => Some(Key::Number(*n)),
            _ => None,
        }
    }

    /// A function body, from `{` to `}`.
    pub(super) fn function_body(
        &mut self,
        function: u32,
        params: &[TypeId],
        arg_names: Vec<(Option<Tok>, u32, u32)>,
        attachments: Vec<(u32, MetadataId)>,
    ) -> Result<FunctionBody, ParseError> {
        self.expect_punct(b'{')?;
        let mut scope = Scope::default();
        let mut body = FunctionBody {
            attachments: attachments
                .into_iter()
                .map(|(kind, node)| Attachment { kind, node })
                .collect(),
            ..FunctionBody::default()
        };
        for (i, (ty, (name, line, col))) in params.iter().zip(arg_names).enumerate() {
            let value = ValueId(LOCAL_BASE + scope.next_local);
            scope.next_local += 1;
            let key = match name {
                Some(Tok::LocalName(n)) => Key::Name(n),
                Some(Tok::LocalId(n)) => {
                    if n != scope.next_number {
                        return self.err_at(
                            line,
                            col,
                            format!("argument expected to be numbered '%{}'", scope.next_number),
                        );
                    }
                    scope.next_number += 1;
                    Key::Number(n)
                }
                _ => {
                    scope.next_number += 1;
                    Key::Number(scope.next_number - 1)
                }
            };
            let name = match &key {
                Key::Name(n) => Some(n.clone()),
                Key::Number(_) => None,
            };
            if scope
                .slots
                .insert(key.clone(), Slot::Value(value, *ty))
                .is_some()
            {
                return self.err_at(
                    line,
                    col,
                    format!("redefinition of argument '{}'", key.text()),
                );
            }
            body.args.push(Argument {
                ty: *ty,
                value,
                name,
            });
            body.values.push(LocalValue::Argument(i as u32));
        }
        let ret = match self.m.ty(self.m.functions[function as usize].function_type) {
            Some(Type::Function(ft)) => ft.ret,
            _ => unreachable!("a function's type is a function type"),
        };
        while !self.is_punct(b'}') {
            if self.tok.tok == Tok::Eof {
                return self.expected("'}' at the end of the function");
            }
            let block = BlockId(body.blocks.len() as u32);
            let (line, col) = (self.tok.line, self.tok.col);
            let (key, name) = match self.tok.tok.clone() {
                Tok::Label(n) => {
                    self.bump()?;
                    let numbered = std::str::from_utf8(&n)
                        .ok()
                        .and_then(|s| s.parse::<u32>().ok());
                    match numbered {
                        Some(k) if n.first().is_some_and(u8::is_ascii_digit) => {
                            if k != scope.next_number {
                                return self.err_at(
                                    line,
                                    col,
                                    format!(
                                        "label expected to be numbered '{}'",
                                        scope.next_number
                                    ),
                                );
                            }
                            scope.next_number += 1;
                            (Key::Number(k), None)
                        }
                        _ => (Key::Name(n.clone()), Some(n)),
                    }
                }
                _ => {
                    scope.next_number += 1;
                    (Key::Number(scope.next_number - 1), None)
                }
            };
            if scope
                .slots
                .insert(key.clone(), Slot::Block(block))
                .is_some()
            {
                return self.err_at(line, col, format!("redefinition of '{}'", key.text()));
            }
            if let Some(f) = scope.forward_blocks.remove(&key) {
                scope.block_patch.insert(f.placeholder, block);
            }
            if scope.forward_values.contains_key(&key) {
                let f = &scope.forward_values[&key];
                return self.err_at(
                    f.line,
                    f.col,
                    format!("'{}' is a basic block, not a value", key.text()),
                );
            }
            body.blocks.push(BasicBlock {
                name,
                instructions: Vec::new(),
            });
            loop {
                let index = body.blocks[block.index()].instructions.len() as u32;
                let (instruction, terminator) =
                    self.instruction(&mut scope, &mut body, function, block, index, ret)?;
                body.blocks[block.index()].instructions.push(instruction);
                if terminator {
                    break;
                }
                if self.is_punct(b'}') || matches!(self.tok.tok, Tok::Label(_)) {
                    return self.expected("a terminator instruction at the end of the block");
                }
            }
        }
        self.bump()?;
        if body.blocks.is_empty() {
            return self.err("a function definition needs at least one basic block");
        }
        if let Some((key, f)) = scope
            .forward_values
            .iter()
            .min_by_key(|(_, f)| (f.line, f.col))
        {
            return self.err_at(
                f.line,
                f.col,
                format!("use of undefined value '{}'", key.text()),
            );
        }
        if let Some((key, f)) = scope
            .forward_blocks
            .iter()
            .min_by_key(|(_, f)| (f.line, f.col))
        {
            return self.err_at(
                f.line,
                f.col,
                format!("use of undefined basic block '{}'", key.text()),
            );
        }
        // Forward references to their definitions.
        let values = &scope.value_patch;
        let blocks = &scope.block_patch;
        for block in &mut body.blocks {
            for ins in &mut block.instructions {
                ins.kind.for_each_operand_mut(&mut |o| {
                    if let Operand::Value(v) = o {
                        if let Some(real) = values.get(&v.0) {
                            *v = *real;
                        }
                    }
                });
                for_each_block_mut(&mut ins.kind, &mut |b| {
                    if let Some(real) = blocks.get(&b.0) {
                        *b = *real;
                    }
                });
            }
        }
        for md in &mut scope.local_md {
            if let Metadata::Value { value, .. } = md {
                if let Some(real) = values.get(&value.0) {
                    *value = *real;
                }
            }
        }
        body.metadata = scope.local_md;
        Ok(body)
    }

    fn new_forward(scope: &mut Scope) -> u32 {
        scope.next_forward += 1;
        FORWARD_BASE + scope.next_forward
    }

    /// A value of type `ty`: a local (defined or forward), a constant or a global.
    fn value(&mut self, scope: &mut Scope, ty: TypeId) -> Result<Operand, ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        let Some(key) = self.local_key() else {
            return Ok(Operand::Value(self.parse_constant(ty)?));
        };
        self.bump()?;
        match scope.slots.get(&key) {
            Some(Slot::Value(id, t)) => {
                if *t != ty {
                    return self.err_at(
                        line,
                        col,
                        format!(
                            "'{}' is {}, expected {}",
                            key.text(),
                            self.type_name(*t),
                            self.type_name(ty)
                        ),
                    );
                }
                Ok(Operand::Value(*id))
            }
            Some(Slot::Block(_)) => self.err_at(
                line,
                col,
                format!("'{}' is a basic block, not a value", key.text()),
            ),
            None => {
                if let Some(f) = scope.forward_values.get(&key) {
                    if f.ty != Some(ty) {
                        let earlier = f.ty.map(|t| self.type_name(t)).unwrap_or_default();
                        return self.err_at(
                            line,
                            col,
                            format!(
                                "'{}' is used as {earlier} and as {}",
                                key.text(),
                                self.type_name(ty)
                            ),
                        );
                    }
                    return Ok(Operand::Value(ValueId(f.placeholder)));
                }
                let placeholder = Self::new_forward(scope);
                scope.forward_values.insert(
                    key,
                    Forward {
                        placeholder,
                        ty: Some(ty),
                        line,
                        col,
                    },
                );
                Ok(Operand::Value(ValueId(placeholder)))
            }
        }
    }

    fn typed_value(&mut self, scope: &mut Scope) -> Result<(Operand, TypeId), ParseError> {
        let t = self.parse_type()?;
        if matches!(self.ty(t), Type::Metadata) {
            return Ok((self.metadata_argument(scope)?, t));
        }
        Ok((self.value(scope, t)?, t))
    }

    /// A `metadata` operand of a call: `!N`, `!"…"`, or a wrapped value.
    fn metadata_argument(&mut self, scope: &mut Scope) -> Result<Operand, ParseError> {
        match self.tok.tok.clone() {
            Tok::MetaId(_) => Ok(Operand::Metadata(self.metadata_ref()?)),
            Tok::MetaString(s) => {
                self.bump()?;
                Ok(Operand::Metadata(self.md_string(s)))
            }
            _ => {
                let t = self.parse_type()?;
                if self.local_key().is_some() {
                    let Operand::Value(v) = self.value(scope, t)? else {
                        unreachable!("a value operand")
                    };
                    if let Some(id) = scope.local_md_ids.get(&(t, v)) {
                        return Ok(Operand::Metadata(*id));
                    }
                    let id = MetadataId(LOCAL_MD_BASE + scope.local_md.len() as u32);
                    scope.local_md.push(Metadata::Value { ty: t, value: v });
                    scope.local_md_ids.insert((t, v), id);
                    return Ok(Operand::Metadata(id));
                }
                let v = self.parse_constant(t)?;
                Ok(Operand::Metadata(self.md_value(t, v)))
            }
        }
    }

    /// `label %name`.
    fn typed_block(&mut self, scope: &mut Scope) -> Result<BlockId, ParseError> {
        self.expect_word("label")?;
        self.intern(Type::Label);
        self.block_ref(scope)
    }

    fn block_ref(&mut self, scope: &mut Scope) -> Result<BlockId, ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        let Some(key) = self.local_key() else {
            return self.expected("a basic block");
        };
        self.bump()?;
        match scope.slots.get(&key) {
            Some(Slot::Block(b)) => Ok(*b),
            Some(Slot::Value(..)) => self.err_at(
                line,
                col,
                format!("'{}' is a value, not a basic block", key.text()),
            ),
            None => {
                if let Some(f) = scope.forward_blocks.get(&key) {
                    return Ok(BlockId(f.placeholder));
                }
                let placeholder = Self::new_forward(scope);
                scope.forward_blocks.insert(
                    key,
                    Forward {
                        placeholder,
                        ty: None,
                        line,
                        col,
                    },
                );
                Ok(BlockId(placeholder))
            }
        }
    }

    fn fast_math_flags(&mut self) -> Result<FastMathFlags, ParseError> {
        let mut bits = 0u8;
        while let Tok::Word(w) = &self.tok.tok {
            bits |= match w.as_str() {
                "fast" => 0x1f,
                "nnan" => 2,
                "ninf" => 4,
                "nsz" => 8,
                "arcp" => 16,
                _ => break,
            };
            self.bump()?;
        }
        Ok(FastMathFlags(bits))
    }

    fn ordering(&mut self) -> Result<AtomicOrdering, ParseError> {
        let o = match &self.tok.tok {
            Tok::Word(w) => match w.as_str() {
                "unordered" => AtomicOrdering::Unordered,
                "monotonic" => AtomicOrdering::Monotonic,
                "acquire" => AtomicOrdering::Acquire,
                "release" => AtomicOrdering::Release,
                "acq_rel" => AtomicOrdering::AcqRel,
                "seq_cst" => AtomicOrdering::SeqCst,
                _ => return self.expected("an atomic ordering"),
            },
            _ => return self.expected("an atomic ordering"),
        };
        self.bump()?;
        Ok(o)
    }

    fn synch_scope(&mut self) -> Result<SynchScope, ParseError> {
        Ok(if self.eat_word("singlethread")? {
            SynchScope::SingleThread
        } else {
            SynchScope::CrossThread
        })
    }

    /// `, align N` (when the next tokens are that).
    fn align_suffix(&mut self) -> Result<u64, ParseError> {
        if self.is_punct(b',') {
            let mut look = self.lex.clone();
            if matches!(look.next_token().map(|t| t.tok), Ok(Tok::Word(w)) if w == "align") {
                self.bump()?;
                self.bump()?;
                return self.expect_u64();
            }
        }
        Ok(0)
    }

    fn expect_pointer(&self, t: TypeId, line: u32, col: u32) -> Result<(TypeId, u32), ParseError> {
        match self.pointee(t) {
            Some(p) => Ok(p),
            None => self.err_at(
                line,
                col,
                format!("expected a pointer, found {}", self.type_name(t)),
            ),
        }
    }

    /// One instruction, with its result and attachments; whether it ends the block.
    #[allow(clippy::too_many_arguments)]
    fn instruction(
        &mut self,
        scope: &mut Scope,
        body: &mut FunctionBody,
        function: u32,
        block: BlockId,
        index: u32,
        ret: TypeId,
    ) -> Result<(Instruction, bool), ParseError> {
        let (line, col) = (self.tok.line, self.tok.col);
        let result = match self.local_key() {
            Some(key) => {
                self.bump()?;
                self.expect_punct(b'=')?;
                Some(key)
            }
            None => None,
        };
        let (op_line, op_col) = (self.tok.line, self.tok.col);
        let Tok::Word(op) = self.tok.tok.clone() else {
            return self.expected("an instruction");
        };
        self.bump()?;
        use InstructionKind as K;
        let mut terminator = false;
        let mut pending_attributes = None;
        let (kind, ty): (InstructionKind, Option<TypeId>) = if let Some(bop) = binop_of(&op) {
            let mut flags = BinOpFlags::default();
            loop {
                if self.eat_word("nuw")? {
                    flags.nuw = true;
                } else if self.eat_word("nsw")? {
                    flags.nsw = true;
                } else if self.eat_word("exact")? {
                    flags.exact = true;
                } else {
                    let f = self.fast_math_flags()?;
                    if f.any() {
                        flags.fast_math = f;
                        continue;
                    }
                    break;
                }
            }
            let t = self.parse_type()?;
            let lhs = self.value(scope, t)?;
            self.expect_punct(b',')?;
            let rhs = self.value(scope, t)?;
            (
                K::BinOp {
                    op: bop,
                    lhs,
                    rhs,
                    flags,
                },
                Some(t),
            )
        } else if let Some(cop) = cast_op(&op) {
            let (value, _) = self.typed_value(scope)?;
            self.expect_word("to")?;
            let to = self.parse_type()?;
            (K::Cast { op: cop, value }, Some(to))
        } else {
            match op.as_str() {
                "icmp" | "fcmp" => {
                    let fast_math = if op == "fcmp" {
                        self.fast_math_flags()?
                    } else {
                        FastMathFlags::default()
                    };
                    let predicate = self.predicate(op == "fcmp")?;
                    let t = self.parse_type()?;
                    let lhs = self.value(scope, t)?;
                    self.expect_punct(b',')?;
                    let rhs = self.value(scope, t)?;
                    let ty = self.compare_type(t);
                    (
                        K::Compare {
                            predicate,
                            lhs,
                            rhs,
                            fast_math,
                        },
                        Some(ty),
                    )
                }
                "select" => {
                    let (condition, _) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (if_true, t) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let if_false = self.value_after_type(scope, t)?;
                    (
                        K::Select {
                            condition,
                            if_true,
                            if_false,
                        },
                        Some(t),
                    )
                }
                "extractelement" => {
                    let (vector, t) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (index, _) = self.typed_value(scope)?;
                    let ty = self.scalar(t);
                    (K::ExtractElement { vector, index }, Some(ty))
                }
                "insertelement" => {
                    let (vector, t) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (element, _) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (index, _) = self.typed_value(scope)?;
                    (
                        K::InsertElement {
                            vector,
                            element,
                            index,
                        },
                        Some(t),
                    )
                }
                "shufflevector" => {
                    let (first, t) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (second, _) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (mask, mt) = self.typed_value(scope)?;
                    let len = match self.ty(mt) {
                        Type::Vector { len, .. } => *len,
                        _ => {
                            return self.err_at(
                                op_line,
                                op_col,
                                "the shuffle mask must be a vector",
                            )
                        }
                    };
                    let element = self.scalar(t);
                    let ty = self.intern(Type::Vector { len, element });
                    (
                        K::ShuffleVector {
                            first,
                            second,
                            mask,
                        },
                        Some(ty),
                    )
                }
                "extractvalue" => {
                    let (aggregate, t) = self.typed_value(scope)?;
                    let mut indices = Vec::new();
                    while self.is_punct(b',') {
                        let mut look = self.lex.clone();
                        if !matches!(look.next_token().map(|t| t.tok), Ok(Tok::Int(_))) {
                            break;
                        }
                        self.bump()?;
                        indices.push(self.expect_u64()?);
                    }
                    if indices.is_empty() {
                        return self.expected("an index");
                    }
                    let idx: Vec<Option<u64>> = indices.iter().map(|i| Some(*i)).collect();
                    let Some(ty) = self.indexed_type(t, &idx) else {
                        return self.err_at(op_line, op_col, "invalid extractvalue indices");
                    };
                    (K::ExtractValue { aggregate, indices }, Some(ty))
                }
                "insertvalue" => {
                    let (aggregate, t) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (value, _) = self.typed_value(scope)?;
                    let mut indices = Vec::new();
                    while self.is_punct(b',') {
                        let mut look = self.lex.clone();
                        if !matches!(look.next_token().map(|t| t.tok), Ok(Tok::Int(_))) {
                            break;
                        }
                        self.bump()?;
                        indices.push(self.expect_u64()?);
                    }
                    (
                        K::InsertValue {
                            aggregate,
                            value,
                            indices,
                        },
                        Some(t),
                    )
                }
                "getelementptr" => {
                    let inbounds = self.eat_word("inbounds")?;
                    let source_type = self.parse_type()?;
                    self.expect_punct(b',')?;
                    let (pl, pc) = (self.tok.line, self.tok.col);
                    let (pointer, pt) = self.typed_value(scope)?;
                    let (_, space) = self.expect_pointer(pt, pl, pc)?;
                    let mut operands = vec![pointer];
                    let mut idx = Vec::new();
                    while self.is_punct(b',') {
                        let mut look = self.lex.clone();
                        if matches!(look.next_token().map(|t| t.tok), Ok(Tok::MetaName(_))) {
                            break;
                        }
                        self.bump()?;
                        let (v, _) = self.typed_value(scope)?;
                        idx.push(match v {
                            Operand::Value(id) => self.constant_int(id).map(|x| x as u64),
                            Operand::Metadata(_) => None,
                        });
                        operands.push(v);
                    }
                    let Some(result) =
                        self.indexed_type(source_type, idx.get(1..).unwrap_or_default())
                    else {
                        return self.err_at(op_line, op_col, "invalid getelementptr indices");
                    };
                    let ty = self.pointer_to(result, space);
                    (
                        K::GetElementPtr {
                            inbounds,
                            source_type,
                            operands,
                        },
                        Some(ty),
                    )
                }
                "phi" => {
                    let t = self.parse_type()?;
                    let mut incoming = Vec::new();
                    loop {
                        self.expect_punct(b'[')?;
                        let value = self.value(scope, t)?;
                        self.expect_punct(b',')?;
                        let block = self.block_ref(scope)?;
                        self.expect_punct(b']')?;
                        incoming.push(PhiIncoming { value, block });
                        if !self.is_punct(b',') {
                            break;
                        }
                        let mut look = self.lex.clone();
                        if !matches!(look.next_token().map(|t| t.tok), Ok(Tok::Punct(b'['))) {
                            break;
                        }
                        self.bump()?;
                    }
                    (K::Phi { incoming }, Some(t))
                }
                "ret" => {
                    terminator = true;
                    if self.eat_word("void")? {
                        if !matches!(self.ty(ret), Type::Void) {
                            return self.err_at(
                                op_line,
                                op_col,
                                format!(
                                    "'ret void' in a function returning {}",
                                    self.type_name(ret)
                                ),
                            );
                        }
                        (K::Ret { value: None }, None)
                    } else {
                        let (vl, vc) = (self.tok.line, self.tok.col);
                        let (value, t) = self.typed_value(scope)?;
                        if t != ret {
                            return self.err_at(
                                vl,
                                vc,
                                format!(
                                    "returned value is {}, expected {}",
                                    self.type_name(t),
                                    self.type_name(ret)
                                ),
                            );
                        }
                        (K::Ret { value: Some(value) }, None)
                    }
                }
                "br" => {
                    terminator = true;
                    if self.is_word("label") {
                        let dest = self.typed_block(scope)?;
                        (K::Br { dest }, None)
                    } else {
                        let (condition, _) = self.typed_value(scope)?;
                        self.expect_punct(b',')?;
                        let if_true = self.typed_block(scope)?;
                        self.expect_punct(b',')?;
                        let if_false = self.typed_block(scope)?;
                        (
                            K::CondBr {
                                condition,
                                if_true,
                                if_false,
                            },
                            None,
                        )
                    }
                }
                "switch" => {
                    terminator = true;
                    let (condition, t) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let default = self.typed_block(scope)?;
                    self.expect_punct(b'[')?;
                    let mut cases = Vec::new();
                    while !self.eat_punct(b']')? {
                        let ct = self.parse_type()?;
                        if ct != t {
                            return self.expected(&format!("a case of type {}", self.type_name(t)));
                        }
                        let value = self.parse_constant(ct)?;
                        self.expect_punct(b',')?;
                        let dest = self.typed_block(scope)?;
                        cases.push(SwitchCase { value, dest });
                    }
                    (
                        K::Switch {
                            condition,
                            default,
                            cases,
                        },
                        None,
                    )
                }
                "indirectbr" => {
                    terminator = true;
                    let (address, _) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    self.expect_punct(b'[')?;
                    let mut destinations = Vec::new();
                    if !self.eat_punct(b']')? {
                        loop {
                            destinations.push(self.typed_block(scope)?);
                            if self.eat_punct(b']')? {
                                break;
                            }
                            self.expect_punct(b',')?;
                        }
                    }
                    (
                        K::IndirectBr {
                            address,
                            destinations,
                        },
                        None,
                    )
                }
                "unreachable" => {
                    terminator = true;
                    (K::Unreachable, None)
                }
                "alloca" => {
                    let inalloca = self.eat_word("inalloca")?;
                    let allocated_type = self.parse_type()?;
                    let mut size = None;
                    let mut alignment = 0;
                    while self.is_punct(b',') {
                        let mut look = self.lex.clone();
                        match look.next_token().map(|t| t.tok) {
                            Ok(Tok::Word(w)) if w == "align" => {
                                alignment = self.align_suffix()?;
                            }
                            Ok(Tok::MetaName(_)) => break,
                            _ => {
                                self.bump()?;
                                size = Some(self.typed_value(scope)?.0);
                            }
                        }
                    }
                    let size = match size {
                        Some(s) => s,
                        None => {
                            let i32t = self.int_type(32);
                            Operand::Value(
                                self.constant(i32t, dxcopy_read::dxil::ConstantKind::Integer(1)),
                            )
                        }
                    };
                    let ty = self.pointer_to(allocated_type, 0);
                    (
                        K::Alloca {
                            allocated_type,
                            size,
                            alignment,
                            inalloca,
                        },
                        Some(ty),
                    )
                }
                "load" => {
                    let atomic = self.eat_word("atomic")?;
                    let volatile = self.eat_word("volatile")?;
                    let t = self.parse_type()?;
                    self.expect_punct(b',')?;
                    let (pl, pc) = (self.tok.line, self.tok.col);
                    let (pointer, pt) = self.typed_value(scope)?;
                    let (pointee, _) = self.expect_pointer(pt, pl, pc)?;
                    if pointee != t {
                        return self.err_at(
                            pl,
                            pc,
                            format!(
                                "loading {} through {}",
                                self.type_name(t),
                                self.type_name(pt)
                            ),
                        );
                    }
                    let atomic = if atomic {
                        let scope_ = self.synch_scope()?;
                        Some(Atomic {
                            scope: scope_,
                            ordering: self.ordering()?,
                        })
                    } else {
                        None
                    };
                    let alignment = self.align_suffix()?;
                    (
                        K::Load {
                            pointer,
                            alignment,
                            volatile,
                            atomic,
                        },
                        Some(t),
                    )
                }
                "store" => {
                    let atomic = self.eat_word("atomic")?;
                    let volatile = self.eat_word("volatile")?;
                    let (value, t) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (pl, pc) = (self.tok.line, self.tok.col);
                    let (pointer, pt) = self.typed_value(scope)?;
                    let (pointee, _) = self.expect_pointer(pt, pl, pc)?;
                    if pointee != t {
                        return self.err_at(
                            pl,
                            pc,
                            format!(
                                "storing {} through {}",
                                self.type_name(t),
                                self.type_name(pt)
                            ),
                        );
                    }
                    let atomic = if atomic {
                        let scope_ = self.synch_scope()?;
                        Some(Atomic {
                            scope: scope_,
                            ordering: self.ordering()?,
                        })
                    } else {
                        None
                    };
                    let alignment = self.align_suffix()?;
                    (
                        K::Store {
                            pointer,
                            value,
                            alignment,
                            volatile,
                            atomic,
                        },
                        None,
                    )
                }
                "cmpxchg" => {
                    let weak = self.eat_word("weak")?;
                    let volatile = self.eat_word("volatile")?;
                    let (pointer, _) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (compare, t) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (new_value, _) = self.typed_value(scope)?;
                    let synch = self.synch_scope()?;
                    let success_ordering = self.ordering()?;
                    let failure_ordering = self.ordering()?;
                    let i1 = self.int_type(1);
                    let ty = self.intern(Type::Struct(StructType {
                        name: None,
                        packed: false,
                        body: Some(vec![t, i1]),
                    }));
                    (
                        K::CmpXchg {
                            pointer,
                            compare,
                            new_value,
                            volatile,
                            weak,
                            success_ordering,
                            failure_ordering,
                            scope: synch,
                        },
                        Some(ty),
                    )
                }
                "atomicrmw" => {
                    let volatile = self.eat_word("volatile")?;
                    let rop = match &self.tok.tok {
                        Tok::Word(w) => match w.as_str() {
                            "xchg" => RmwOp::Xchg,
                            "add" => RmwOp::Add,
                            "sub" => RmwOp::Sub,
                            "and" => RmwOp::And,
                            "nand" => RmwOp::Nand,
                            "or" => RmwOp::Or,
                            "xor" => RmwOp::Xor,
                            "max" => RmwOp::Max,
                            "min" => RmwOp::Min,
                            "umax" => RmwOp::UMax,
                            "umin" => RmwOp::UMin,
                            _ => return self.expected("an atomicrmw operation"),
                        },
                        _ => return self.expected("an atomicrmw operation"),
                    };
                    self.bump()?;
                    let (pointer, _) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let (value, t) = self.typed_value(scope)?;
                    let synch = self.synch_scope()?;
                    let ordering = self.ordering()?;
                    (
                        K::AtomicRmw {
                            op: rop,
                            pointer,
                            value,
                            volatile,
                            ordering,
                            scope: synch,
                        },
                        Some(t),
                    )
                }
                "fence" => {
                    let synch = self.synch_scope()?;
                    let ordering = self.ordering()?;
                    (
                        K::Fence {
                            ordering,
                            scope: synch,
                        },
                        None,
                    )
                }
                "tail" | "musttail" | "call" => {
                    let tail = match op.as_str() {
                        "tail" => TailCall::Tail,
                        "musttail" => TailCall::MustTail,
                        _ => TailCall::None,
                    };
                    if tail != TailCall::None {
                        self.expect_word("call")?;
                    }
                    let fast_math = self.fast_math_flags()?;
                    let calling_conv = self.calling_conv()?;
                    let mut pending = PendingAttributes {
                        ret: self.parameter_attributes()?,
                        ..PendingAttributes::default()
                    };
                    let (tl, tc) = (self.tok.line, self.tok.col);
                    let printed = self.parse_type()?;
                    let explicit = match self.ty(printed) {
                        Type::Function(ft) => Some(ft.clone()),
                        _ => None,
                    };
                    // The callee is parsed once its type is known (after the arguments).
                    let callee_token = self.tok.clone();
                    let callee_lex = self.lex.clone();
                    let callee_is_local = self.local_key().is_some();
                    // Skip the callee for now.
                    match &self.tok.tok {
                        Tok::GlobalName(_)
                        | Tok::GlobalId(_)
                        | Tok::LocalName(_)
                        | Tok::LocalId(_) => {
                            self.bump()?;
                        }
                        _ => return self.expected("a callee"),
                    }
                    self.expect_punct(b'(')?;
                    let first_arg_at = (self.tok.line, self.tok.col);
                    let mut args = Vec::new();
                    let mut arg_types = Vec::new();
                    if !self.eat_punct(b')')? {
                        loop {
                            let t = self.parse_type()?;
                            pending.params.push(self.parameter_attributes()?);
                            let a = if matches!(self.ty(t), Type::Metadata) {
                                self.metadata_argument(scope)?
                            } else {
                                self.value(scope, t)?
                            };
                            args.push(a);
                            arg_types.push(t);
                            if self.eat_punct(b')')? {
                                break;
                            }
                            self.expect_punct(b',')?;
                        }
                    }
                    let ft = match explicit {
                        Some(ft) => ft,
                        None => FunctionType {
                            vararg: false,
                            ret: printed,
                            params: arg_types.clone(),
                        },
                    };
                    if !ft.vararg && ft.params != arg_types
                        || ft.vararg && !arg_types.starts_with(&ft.params)
                    {
                        return self.err_at(tl, tc, "the arguments do not match the function type");
                    }
                    let function_type = self.intern(Type::Function(ft.clone()));
                    let callee_type = self.pointer_to(function_type, 0);
                    // Parse the callee now, from where it was.
                    let after_lex = std::mem::replace(&mut self.lex, callee_lex);
                    let after_tok = std::mem::replace(&mut self.tok, callee_token);
                    let callee = if callee_is_local {
                        self.value(scope, callee_type)?
                    } else {
                        Operand::Value(self.global_ref(callee_type)?)
                    };
                    self.lex = after_lex;
                    self.tok = after_tok;
                    loop {
                        match self.tok.tok.clone() {
                            Tok::AttrGroup(n) => {
                                let t = self.bump()?;
                                pending.group = Some((n, t.line, t.col));
                            }
                            Tok::Word(w)
                                if w == "nounwind"
                                    || w == "readnone"
                                    || w == "readonly"
                                    || w == "noreturn"
                                    || w == "noduplicate"
                                    || w == "convergent" =>
                            {
                                self.bump()?;
                                let mut more = self.parameter_attributes_from(&w)?;
                                pending.function.append(&mut more);
                            }
                            _ => break,
                        }
                    }
                    if !pending.is_empty() {
                        pending_attributes = Some(pending);
                    }
                    if let Operand::Value(c) = callee {
                        self.check_dx_op(c, &ft, &args, (tl, tc), first_arg_at)?;
                    }
                    let ty = if matches!(self.ty(ft.ret), Type::Void) {
                        None
                    } else {
                        Some(ft.ret)
                    };
                    (
                        K::Call {
                            callee,
                            function_type,
                            args,
                            attributes: 0,
                            calling_conv,
                            tail,
                            fast_math,
                            explicit_type: true,
                        },
                        ty,
                    )
                }
                "va_arg" => {
                    let (list, list_type) = self.typed_value(scope)?;
                    self.expect_punct(b',')?;
                    let t = self.parse_type()?;
                    (K::VaArg { list, list_type }, Some(t))
                }
                _ => return self.err_at(op_line, op_col, format!("unknown instruction '{op}'")),
            }
        };
        // Attachments.
        let mut debug_slot = None;
        let mut attachments = Vec::new();
        while self.eat_punct(b',')? {
            let Tok::MetaName(kind) = self.tok.tok.clone() else {
                return self.expected("a metadata attachment");
            };
            let (kl, kc) = (self.tok.line, self.tok.col);
            self.bump()?;
            if kind == b"dbg" {
                let Tok::MetaId(n) = self.tok.tok else {
                    return self.expected("'!N'");
                };
                self.md_slot(n);
                self.bump()?;
                debug_slot = Some((n, kl, kc));
            } else {
                let kind = self.metadata_kind(&kind);
                let node = self.metadata_ref()?;
                attachments.push(Attachment { kind, node });
            }
        }
        if let Some(p) = pending_attributes {
            self.call_attributes.push(((function, block.0, index), p));
        }
        if let Some((n, l, c)) = debug_slot {
            self.debug_uses.push((function, block.0, index, n, l, c));
        }
        // The result.
        let has_result = ty.is_some_and(|t| !matches!(self.ty(t), Type::Void));
        let mut value = None;
        let mut name = None;
        match (result, has_result) {
            (Some(key), true) => {
                let id = ValueId(LOCAL_BASE + scope.next_local);
                scope.next_local += 1;
                if let Key::Number(n) = key {
                    if n != scope.next_number {
                        return self.err_at(
                            line,
                            col,
                            format!(
                                "instruction expected to be numbered '%{}'",
                                scope.next_number
                            ),
                        );
                    }
                    scope.next_number += 1;
                } else if let Key::Name(n) = &key {
                    name = Some(n.clone());
                }
                let t = ty.expect("has a result");
                if scope
                    .slots
                    .insert(key.clone(), Slot::Value(id, t))
                    .is_some()
                {
                    return self.err_at(line, col, format!("redefinition of '{}'", key.text()));
                }
                if let Some(f) = scope.forward_values.remove(&key) {
                    if f.ty != Some(t) {
                        let used = f.ty.map(|u| self.type_name(u)).unwrap_or_default();
                        return self.err_at(
                            f.line,
                            f.col,
                            format!("'{}' is {}, expected {used}", key.text(), self.type_name(t)),
                        );
                    }
                    scope.value_patch.insert(f.placeholder, id);
                }
                if scope.forward_blocks.contains_key(&key) {
                    let f = &scope.forward_blocks[&key];
                    return self.err_at(
                        f.line,
                        f.col,
                        format!("'{}' is a value, not a basic block", key.text()),
                    );
                }
                value = Some(id);
                body.values.push(LocalValue::Instruction { block, index });
            }
            (Some(key), false) => {
                return self.err_at(
                    line,
                    col,
                    format!("'{}': this instruction has no result to name", key.text()),
                );
            }
            (None, true) => {
                // An unnamed result takes the next number.
                let id = ValueId(LOCAL_BASE + scope.next_local);
                scope.next_local += 1;
                let key = Key::Number(scope.next_number);
                scope.next_number += 1;
                let t = ty.expect("has a result");
                scope.slots.insert(key.clone(), Slot::Value(id, t));
                if let Some(f) = scope.forward_values.remove(&key) {
                    scope.value_patch.insert(f.placeholder, id);
                }
                value = Some(id);
                body.values.push(LocalValue::Instruction { block, index });
            }
            (None, false) => {}
        }
        Ok((
            Instruction {
                kind,
                ty: if has_result { ty } else { None },
                value,
                name,
                debug_loc: None,
                attachments,
            },
            terminator,
        ))
    }

    /// A `dx.op` call: its first argument a constant opcode that dxc's
    /// operation table knows, its argument count the operation's, and the
    /// function's overload suffix (`.f32`) a type the function returns or
    /// takes.
    fn check_dx_op(
        &self,
        callee: ValueId,
        ft: &FunctionType,
        args: &[Operand],
        at: (u32, u32),
        first_arg_at: (u32, u32),
    ) -> Result<(), ParseError> {
        let name = self
            .global_names
            .iter()
            .find(|(_, v)| **v == callee)
            .map(|(n, _)| String::from_utf8_lossy(n).into_owned());
        let Some(name) = name.filter(|n| n.starts_with("dx.op.")) else {
            return Ok(());
        };
        let opcode = match args.first() {
            Some(Operand::Value(v)) if self.integer_bits(ft.params[0]) == Some(32) => {
                self.constant_int(*v)
            }
            _ => None,
        };
        let Some(opcode) = opcode else {
            return self.err_at(
                first_arg_at.0,
                first_arg_at.1,
                format!("'@{name}': the first argument must be the opcode, a constant i32"),
            );
        };
        let opcode = opcode as u32;
        let rows: Vec<_> = dxcopy_read::dxil::ops::rows()
            .iter()
            .filter(|r| r.opcode == opcode)
            .collect();
        let Some(newest) = rows.last() else {
            return self.err_at(
                first_arg_at.0,
                first_arg_at.1,
                format!("'@{name}': opcode {opcode} is not a dx.op operation"),
            );
        };
        let count = |args: &str| {
            if args.is_empty() {
                0
            } else {
                args.split(',').count()
            }
        };
        if !rows.iter().any(|r| count(r.args) + 1 == args.len()) {
            return self.err_at(
                at.0,
                at.1,
                format!(
                    "'@{name}': opcode {opcode} ({}) takes {} arguments after the opcode, found {}",
                    newest.name,
                    count(newest.args),
                    args.len().saturating_sub(1)
                ),
            );
        }
        let suffix = name.rsplit('.').next().unwrap_or_default();
        let overload = match suffix {
            "f16" => Some(Type::Half),
            "f32" => Some(Type::Float),
            "f64" => Some(Type::Double),
            "i1" => Some(Type::Integer { bits: 1 }),
            "i8" => Some(Type::Integer { bits: 8 }),
            "i16" => Some(Type::Integer { bits: 16 }),
            "i32" => Some(Type::Integer { bits: 32 }),
            "i64" => Some(Type::Integer { bits: 64 }),
            _ => None,
        };
        if let Some(overload) = overload {
            let mentions = |t: TypeId| -> bool {
                let t = self.scalar(t);
                match self.ty(t) {
                    Type::Struct(st) => {
                        st.name
                            .as_deref()
                            .is_some_and(|n| n.ends_with(format!(".{suffix}").as_bytes()))
                            || st
                                .body
                                .as_deref()
                                .unwrap_or_default()
                                .iter()
                                .any(|e| *self.ty(self.scalar(*e)) == overload)
                    }
                    other => *other == overload,
                }
            };
            // The opcode's own i32 does not count for an i32 overload.
            if !mentions(ft.ret) && !ft.params.iter().skip(1).any(|p| mentions(*p)) {
                return self.err_at(at.0, at.1, format!(
                    "'@{name}': the overload '.{suffix}' is neither the function's return type nor one of its argument types"
                ));
            }
        }
        Ok(())
    }

    fn value_after_type(&mut self, scope: &mut Scope, want: TypeId) -> Result<Operand, ParseError> {
        let (l, c) = (self.tok.line, self.tok.col);
        let t = self.parse_type()?;
        if t != want {
            return self.err_at(
                l,
                c,
                format!(
                    "operand is {}, expected {}",
                    self.type_name(t),
                    self.type_name(want)
                ),
            );
        }
        self.value(scope, t)
    }

    /// Function attributes written as words after a call (`nounwind`).
    fn parameter_attributes_from(
        &mut self,
        first: &str,
    ) -> Result<Vec<dxcopy_read::dxil::Attribute>, ParseError> {
        let code = (1..=45)
            .find(|c| dxcopy_read::dxil::AttributeKind(*c).name() == Some(first))
            .unwrap_or(18);
        let mut out = vec![dxcopy_read::dxil::Attribute::Enum(
            dxcopy_read::dxil::AttributeKind(code),
        )];
        out.extend(self.parameter_attributes()?);
        Ok(out)
    }
}

/// Calls `f` with each block an instruction refers to.
pub(super) fn for_each_block_mut(kind: &mut InstructionKind, f: &mut dyn FnMut(&mut BlockId)) {
    use InstructionKind as K;
    match kind {
        K::Br { dest } => f(dest),
        K::CondBr {
            if_true, if_false, ..
        } => {
            f(if_true);
            f(if_false);
        }
        K::Switch { default, cases, .. } => {
            f(default);
            cases.iter_mut().for_each(|c| f(&mut c.dest));
        }
        K::IndirectBr { destinations, .. } => destinations.iter_mut().for_each(f),
        K::Phi { incoming } => incoming.iter_mut().for_each(|i| f(&mut i.block)),
        _ => {}
    }
}
