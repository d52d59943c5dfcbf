//! What the text does not say and dxc's writer derives: the order of the
//! type table, the attribute groups and lists, and (through
//! [`crate::bitcode::renumber_with`]) the value and metadata numbering.
//!
//! The type table is in the order LLVM 3.7's `ValueEnumerator` meets types
//! (`EnumerateType`: a type after its subtypes, a named struct marked on
//! entry so that a recursive one is not entered twice): the global
//! variables', functions' and aliases' types, the constants of the
//! initializers, aliasees, prefix, prologue and personality data (each
//! after its operands), the `metadata` type, the constants module metadata
//! wraps (met in the post-order walk from the named metadata), then per
//! function its arguments' types, and per instruction its operands' types
//! (a constant's operands first), its metadata operands' constants, its
//! result type and its attachments' constants.

use dxcopy_read::dxil::{
    ConstantKind, FunctionBody, InstructionKind, Metadata, MetadataId, Module, ModuleValue,
    Operand, Type, TypeId, ValueId,
};

/// The subtypes of `t` in LLVM's `subtypes()` order.
fn subtypes(t: &Type) -> Vec<TypeId> {
    match t {
        Type::Pointer { pointee, .. } => vec![*pointee],
        Type::Array { element, .. } | Type::Vector { element, .. } => vec![*element],
        Type::Struct(st) => st.body.clone().unwrap_or_default(),
        Type::Function(ft) => std::iter::once(ft.ret)
            .chain(ft.params.iter().copied())
            .collect(),
        _ => Vec::new(),
    }
}

const MARKED: u32 = u32::MAX;

struct TypeWalk<'m> {
    m: &'m Module,
    /// 0 unseen, MARKED a named struct being entered, else position + 1.
    state: Vec<u32>,
    order: Vec<TypeId>,
    seen_values: Vec<bool>,
    seen_md: Vec<bool>,
}

impl TypeWalk<'_> {
    fn ty(&mut self, t: TypeId) {
        let Some(types) = self.m.types.get(t.index()) else {
            return;
        };
        if self.state[t.index()] != 0 {
            return;
        }
        let _ = types;
        // (type, its subtypes, next subtype)
        let mut stack: Vec<(TypeId, Vec<TypeId>, usize)> = Vec::new();
        let enter = |walk: &mut Self, t: TypeId, stack: &mut Vec<(TypeId, Vec<TypeId>, usize)>| {
            let ty = &walk.m.types[t.index()];
            if matches!(ty, Type::Struct(st) if st.name.is_some()) {
                walk.state[t.index()] = MARKED;
            }
            stack.push((t, subtypes(ty), 0));
        };
        enter(self, t, &mut stack);
        while let Some(top) = stack.last_mut() {
            if top.2 < top.1.len() {
                let sub = top.1[top.2];
                top.2 += 1;
                if sub.index() < self.state.len() && self.state[sub.index()] == 0 {
                    enter(self, sub, &mut stack);
                }
                continue;
            }
            let (done, _, _) = stack.pop().expect("not empty");
            let s = self.state[done.index()];
            if s != 0 && s != MARKED {
                continue;
            }
            self.order.push(done);
            self.state[done.index()] = self.order.len() as u32;
        }
    }

    /// The `label` type (a branch's block operands).
    fn label(&mut self) {
        if let Some(t) = self.m.types.iter().position(|t| matches!(t, Type::Label)) {
            self.ty(TypeId(t as u32));
        }
    }

    /// `EnumerateValue` for a module value: its type, then a constant's operands.
    fn value(&mut self, body: Option<&FunctionBody>, v: ValueId) {
        // Iterative: (value, operands, next)
        let mut stack: Vec<(ValueId, Vec<ValueId>, usize)> = Vec::new();
        self.enter_value(body, v, &mut stack);
        while let Some(top) = stack.last_mut() {
            if top.2 < top.1.len() {
                let op = top.1[top.2];
                top.2 += 1;
                self.enter_value(body, op, &mut stack);
                continue;
            }
            stack.pop();
        }
    }

    fn enter_value(
        &mut self,
        body: Option<&FunctionBody>,
        v: ValueId,
        stack: &mut Vec<(ValueId, Vec<ValueId>, usize)>,
    ) {
        let module_value = v.index() < self.m.values.len();
        if module_value {
            if self.seen_values[v.index()] {
                return;
            }
            self.seen_values[v.index()] = true;
        }
        if let Some(t) = self.m.value_type_in(body, v) {
            self.ty(t);
        }
        let constant = if module_value {
            self.m.constant(v)
        } else {
            body.and_then(|b| b.constant(v))
        };
        if let Some(c) = constant {
            let ops = c.kind.operands();
            if !ops.is_empty() {
                stack.push((v, ops, 0));
            }
        }
    }

    /// `EnumerateOperandType`: the operand's type, and a constant's
    /// operands' types (a module constant's were met with it).
    fn operand_type(&mut self, body: &FunctionBody, v: ValueId) {
        let mut stack = vec![v];
        let mut budget = 1usize << 20;
        while let Some(v) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                return;
            }
            if let Some(t) = self.m.value_type_in(Some(body), v) {
                self.ty(t);
            }
            if v.index() < self.m.values.len() {
                if matches!(self.m.value(v), Some(ModuleValue::Constant(_)))
                    && !self.seen_values[v.index()]
                {
                    if let Some(c) = self.m.constant(v) {
                        stack.extend(c.kind.operands().into_iter().rev());
                    }
                }
                continue;
            }
            if let Some(c) = body.constant(v) {
                if !matches!(c.kind, ConstantKind::BlockAddress { .. }) {
                    stack.extend(c.kind.operands().into_iter().rev());
                }
            }
        }
    }

    /// `EnumerateMetadata`: post order; a constant wrapper enumerates its value.
    fn metadata(&mut self, body: Option<&FunctionBody>, id: MetadataId) {
        let mut stack: Vec<(MetadataId, Vec<Option<MetadataId>>, usize)> = Vec::new();
        self.enter_md(body, id, &mut stack);
        while let Some(top) = stack.last_mut() {
            if top.2 < top.1.len() {
                let op = top.1[top.2];
                top.2 += 1;
                if let Some(op) = op {
                    self.enter_md(body, op, &mut stack);
                }
                continue;
            }
            stack.pop();
        }
    }

    fn enter_md(
        &mut self,
        body: Option<&FunctionBody>,
        id: MetadataId,
        stack: &mut Vec<(MetadataId, Vec<Option<MetadataId>>, usize)>,
    ) {
        if id.index() >= self.m.metadata.len() {
            return;
        }
        if self.seen_md[id.index()] {
            return;
        }
        self.seen_md[id.index()] = true;
        match &self.m.metadata[id.index()] {
            Metadata::Node { operands, .. } => stack.push((id, operands.clone(), 0)),
            Metadata::Debug(node) => stack.push((id, node.references(), 0)),
            Metadata::Value { value, .. } => self.value(body, *value),
            _ => {}
        }
    }
}

/// The type table's order for `module` (numbered as dxc's enumerator
/// numbers values): the types met, in order, then any type nothing
/// reaches (which LLVM's writer would not have).
pub(super) fn type_order(m: &Module) -> Vec<TypeId> {
    let mut w = TypeWalk {
        m,
        state: vec![0; m.types.len()],
        order: Vec::new(),
        seen_values: vec![false; m.values.len()],
        seen_md: vec![false; m.metadata.len()],
    };
    for g in &m.globals {
        w.value(None, g.common.value);
    }
    for f in &m.functions {
        w.value(None, f.common.value);
    }
    for a in &m.aliases {
        w.value(None, a.common.value);
    }
    for g in &m.globals {
        if let Some(init) = g.initializer {
            w.value(None, init);
        }
    }
    for a in &m.aliases {
        w.value(None, a.aliasee);
    }
    for f in &m.functions {
        if let Some(v) = f.prefix_data {
            w.value(None, v);
        }
    }
    for f in &m.functions {
        if let Some(v) = f.prologue_data {
            w.value(None, v);
        }
    }
    for f in &m.functions {
        if let Some(v) = f.personality {
            w.value(None, v);
        }
    }
    if let Some(t) = m.types.iter().position(|t| matches!(t, Type::Metadata)) {
        w.ty(TypeId(t as u32));
    }
    for named in &m.named_metadata {
        for op in &named.operands {
            w.metadata(None, *op);
        }
    }
    for f in &m.functions {
        let Some(body) = &f.body else { continue };
        for a in &body.args {
            w.ty(a.ty);
        }
        let mut attachments = body.attachments.clone();
        attachments.sort_by_key(|a| a.kind);
        for a in attachments {
            w.metadata(Some(body), a.node);
        }
        for block in &body.blocks {
            for ins in &block.instructions {
                let label = has_block_operands(&ins.kind);
                let operands = ins.kind.operands();
                if label && operands.is_empty() {
                    w.label();
                }
                for (i, op) in operands.into_iter().enumerate() {
                    match op {
                        Operand::Value(v) => w.operand_type(body, v),
                        Operand::Metadata(id) => {
                            if id.index() < m.metadata.len() {
                                w.metadata(Some(body), id);
                            }
                        }
                    }
                    if label && i == 0 {
                        w.label();
                    }
                }
                if let Some(t) = ins.ty {
                    w.ty(t);
                } else if let Some(t) = m.types.iter().position(|t| matches!(t, Type::Void)) {
                    w.ty(TypeId(t as u32));
                }
                let mut attachments = ins.attachments.clone();
                attachments.sort_by_key(|a| a.kind);
                for a in attachments {
                    w.metadata(Some(body), a.node);
                }
                if let Some(loc) = &ins.debug_loc {
                    for id in [loc.scope, loc.inlined_at].into_iter().flatten() {
                        w.metadata(Some(body), id);
                    }
                }
            }
        }
    }
    let mut order = w.order;
    for (i, s) in w.state.iter().enumerate() {
        if *s == 0 || *s == MARKED {
            order.push(TypeId(i as u32));
        }
    }
    order
}

/// Whether the instruction has block operands (they make LLVM enumerate `label`).
pub(super) fn has_block_operands(kind: &InstructionKind) -> bool {
    matches!(
        kind,
        InstructionKind::Br { .. }
            | InstructionKind::CondBr { .. }
            | InstructionKind::Switch { .. }
            | InstructionKind::IndirectBr { .. }
    )
}

/// Puts the model's types in `order` (every type exactly once) and
/// rewrites every type reference.
pub(super) fn apply_type_order(m: &mut Module, order: &[TypeId]) {
    let mut new_of = vec![TypeId(0); m.types.len()];
    for (new, old) in order.iter().enumerate() {
        new_of[old.index()] = TypeId(new as u32);
    }
    let map = |t: &mut TypeId| *t = new_of[t.index()];
    let old_types = std::mem::take(&mut m.types);
    for old in order {
        let mut t = old_types[old.index()].clone();
        match &mut t {
            Type::Pointer { pointee, .. } => map(pointee),
            Type::Array { element, .. } | Type::Vector { element, .. } => map(element),
            Type::Struct(st) => {
                if let Some(body) = &mut st.body {
                    body.iter_mut().for_each(map);
                }
            }
            Type::Function(ft) => {
                map(&mut ft.ret);
                ft.params.iter_mut().for_each(map);
            }
            _ => {}
        }
        m.types.push(t);
    }
    for g in &mut m.globals {
        map(&mut g.value_type);
        if let Some(p) = &mut g.pointer_type {
            map(p);
        }
    }
    for a in &mut m.aliases {
        map(&mut a.value_type);
        if let Some(p) = &mut a.pointer_type {
            map(p);
        }
    }
    for c in &mut m.constants {
        map(&mut c.ty);
        if let ConstantKind::GetElementPtr {
            source_type: Some(s),
            ..
        } = &mut c.kind
        {
            map(s);
        }
    }
    for md in &mut m.metadata {
        if let Metadata::Value { ty, .. } = md {
            map(ty);
        }
    }
    for f in &mut m.functions {
        map(&mut f.function_type);
        if let Some(p) = &mut f.pointer_type {
            map(p);
        }
        let Some(body) = &mut f.body else { continue };
        for a in &mut body.args {
            map(&mut a.ty);
        }
        for c in &mut body.constants {
            map(&mut c.ty);
            if let ConstantKind::GetElementPtr {
                source_type: Some(s),
                ..
            } = &mut c.kind
            {
                map(s);
            }
        }
        for md in &mut body.metadata {
            if let Metadata::Value { ty, .. } = md {
                map(ty);
            }
        }
        for block in &mut body.blocks {
            for ins in &mut block.instructions {
                if let Some(t) = &mut ins.ty {
                    map(t);
                }
                match &mut ins.kind {
                    InstructionKind::GetElementPtr { source_type, .. } => map(source_type),
                    InstructionKind::Alloca { allocated_type, .. } => map(allocated_type),
                    InstructionKind::Call { function_type, .. } => map(function_type),
                    InstructionKind::VaArg { list_type, .. } => map(list_type),
                    _ => {}
                }
            }
        }
    }
}
