//! The end of the text: every reference resolved and checked, local IDs
//! moved after the module's, attributes gathered into groups and lists in
//! the enumerator's order; then the numbering and orders dxc's writer
//! derives ([`canonical_order`]).

use super::order::{apply_type_order, type_order};
use super::parse::{Parser, PendingAttributes, FORWARD_BASE, LOCAL_BASE, LOCAL_MD_BASE};
use super::ParseError;
use crate::bitcode::{keeps_first_use_order, renumber_with};
use dxcopy_read::dxil::{
    Attribute, AttributeGroup, AttributeList, DebugLoc, DebugNode, DebugNodeKind, Metadata,
    MetadataId, Module, ModuleValue, Operand, Type, ValueId,
};
use std::collections::HashMap;

/// The attribute index of a function's own attributes.
const FUNCTION_INDEX: u32 = 0xFFFF_FFFF;

impl Parser<'_> {
    pub(super) fn finish_module(&mut self) -> Result<(), ParseError> {
        if let Some((n, (_, _, line, col))) = self
            .md_slots
            .iter()
            .filter(|(_, e)| !e.1)
            .min_by_key(|(_, e)| (e.2, e.3))
        {
            return self.err_at(*line, *col, format!("use of undefined metadata '!{n}'"));
        }
        for u in &self.global_uses {
            let have = self.m.value_type(u.value);
            if have != Some(u.ty) {
                let have = have
                    .map(|t| self.type_name(t))
                    .unwrap_or_else(|| "undefined".into());
                let name = match self.m.value(u.value) {
                    Some(ModuleValue::Global(i)) => self.m.globals[i as usize].common.name.clone(),
                    Some(ModuleValue::Function(i)) => {
                        self.m.functions[i as usize].common.name.clone()
                    }
                    Some(ModuleValue::Alias(i)) => self.m.aliases[i as usize].common.name.clone(),
                    _ => Vec::new(),
                };
                return self.err_at(
                    u.line,
                    u.col,
                    format!(
                        "'@{}' is {have}, expected {}",
                        String::from_utf8_lossy(&name),
                        self.type_name(u.ty)
                    ),
                );
            }
        }
        self.resolve_debug_locations()?;
        self.resolve_attributes()?;
        self.move_local_ids();
        self.check_dxil_metadata()
    }

    /// DXIL's named metadata (`dx.shaderModel`, `dx.entryPoints`,
    /// `dx.resources`, …) read as dxc reads it: an error names the node
    /// (its number in the text) and where it is defined.
    fn check_dxil_metadata(&self) -> Result<(), ParseError> {
        let Some((_, line, col)) = self.named_at.iter().find(|(n, _, _)| n.starts_with(b"dx."))
        else {
            return Ok(());
        };
        let Err(e) = dxcopy_read::dxil::metadata::DxilMetadata::read(&self.m) else {
            return Ok(());
        };
        let message = e.to_string();
        // "metadata !N" names a model ID: the text's number and place instead.
        if let Some(at) = message.find("metadata !") {
            let digits: String = message[at + 10..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Some((slot, l, c)) = digits
                .parse::<u32>()
                .ok()
                .and_then(|id| self.md_defs.get(&id))
            {
                let message = format!(
                    "{}metadata !{slot}{}",
                    &message[..at],
                    &message[at + 10 + digits.len()..]
                );
                return self.err_at(*l, *c, format!("DXIL metadata: {message}"));
            }
        }
        // "dx.shaderModel: …": the node the named metadata holds.
        let named = self
            .m
            .named_metadata
            .iter()
            .find(|n| message.starts_with(&format!("{}:", String::from_utf8_lossy(&n.name))));
        if let Some((slot, l, c)) = named
            .and_then(|n| n.operands.first())
            .and_then(|id| self.md_defs.get(&id.0))
        {
            return self.err_at(*l, *c, format!("DXIL metadata: {message} (!{slot})"));
        }
        self.err_at(*line, *col, format!("DXIL metadata: {message}"))
    }

    fn resolve_debug_locations(&mut self) -> Result<(), ParseError> {
        let uses = std::mem::take(&mut self.debug_uses);
        for (function, block, index, slot, line, col) in uses {
            let id = self.md_slots[&slot].0;
            let loc = match &self.m.metadata[id.index()] {
                Metadata::Debug(DebugNode {
                    kind: DebugNodeKind::Location,
                    fields,
                    ..
                }) => DebugLoc {
                    line: fields.get(1).copied().unwrap_or(0),
                    column: fields.get(2).copied().unwrap_or(0),
                    scope: fields
                        .get(3)
                        .and_then(|s| u32::try_from(*s).ok())
                        .map(MetadataId),
                    inlined_at: fields
                        .get(4)
                        .and_then(|s| s.checked_sub(1))
                        .and_then(|s| u32::try_from(s).ok())
                        .map(MetadataId),
                },
                _ => {
                    return self.err_at(
                        line,
                        col,
                        format!("'!dbg !{slot}' must refer to a DILocation"),
                    )
                }
            };
            let body = self.m.functions[function as usize]
                .body
                .as_mut()
                .expect("a call site is in a body");
            body.blocks[block as usize].instructions[index as usize].debug_loc = Some(loc);
        }
        Ok(())
    }

    /// The attribute groups and lists, in the order LLVM's enumerator
    /// meets them: every function's attributes, then every call's.
    fn resolve_attributes(&mut self) -> Result<(), ParseError> {
        let mut groups: Vec<(u32, Vec<Attribute>)> = Vec::new();
        let mut lists: HashMap<Vec<u32>, u64> = HashMap::new();
        let function_pending = std::mem::take(&mut self.function_attributes);
        let call_pending = std::mem::take(&mut self.call_attributes);
        let mut function_lists = Vec::new();
        for p in &function_pending {
            function_lists.push(self.attribute_list(p, &mut groups, &mut lists)?);
        }
        for (f, id) in function_lists.into_iter().enumerate() {
            self.m.functions[f].attributes = id;
        }
        for ((f, b, i), p) in &call_pending {
            let id = self.attribute_list(p, &mut groups, &mut lists)?;
            let body = self.m.functions[*f as usize]
                .body
                .as_mut()
                .expect("a call is in a body");
            if let dxcopy_read::dxil::InstructionKind::Call { attributes, .. } =
                &mut body.blocks[*b as usize].instructions[*i as usize].kind
            {
                *attributes = id;
            }
        }
        Ok(())
    }

    fn attribute_list(
        &mut self,
        p: &PendingAttributes,
        groups: &mut Vec<(u32, Vec<Attribute>)>,
        lists: &mut HashMap<Vec<u32>, u64>,
    ) -> Result<u64, ParseError> {
        let mut function = p.function.clone();
        if let Some((n, line, col)) = p.group {
            match self.attribute_groups.get(&n) {
                Some(attrs) => function.extend(attrs.iter().cloned()),
                None => {
                    return self.err_at(line, col, format!("attribute group #{n} is not defined"))
                }
            }
        }
        let mut slots: Vec<(u32, Vec<Attribute>)> = Vec::new();
        if !p.ret.is_empty() {
            slots.push((0, p.ret.clone()));
        }
        for (i, a) in p.params.iter().enumerate() {
            if !a.is_empty() {
                slots.push((i as u32 + 1, a.clone()));
            }
        }
        if !function.is_empty() {
            slots.push((FUNCTION_INDEX, function));
        }
        if slots.is_empty() {
            return Ok(0);
        }
        let mut ids = Vec::new();
        for slot in slots {
            let id = match groups.iter().position(|g| *g == slot) {
                Some(i) => i as u32 + 1,
                None => {
                    groups.push(slot.clone());
                    let id = groups.len() as u32;
                    self.m.attribute_groups.push(AttributeGroup {
                        id,
                        index: slot.0,
                        attributes: slot.1,
                    });
                    id
                }
            };
            ids.push(id);
        }
        let next = lists.len() as u64 + 1;
        Ok(*lists.entry(ids.clone()).or_insert_with(|| {
            self.m.attribute_lists.push(AttributeList { groups: ids });
            next
        }))
    }

    /// Function-local value and metadata IDs after the module's.
    fn move_local_ids(&mut self) {
        let base = self.m.values.len() as u32;
        let md_base = self.m.metadata.len() as u32;
        let value = |v: &mut ValueId| {
            if (LOCAL_BASE..FORWARD_BASE).contains(&v.0) {
                v.0 = v.0 - LOCAL_BASE + base;
            }
        };
        for f in &mut self.m.functions {
            let Some(body) = &mut f.body else { continue };
            body.first_value = base;
            for a in &mut body.args {
                value(&mut a.value);
            }
            for md in &mut body.metadata {
                if let Metadata::Value { value: v, .. } = md {
                    value(v);
                }
            }
            for block in &mut body.blocks {
                for ins in &mut block.instructions {
                    if let Some(v) = &mut ins.value {
                        value(v);
                    }
                    ins.kind.for_each_operand_mut(&mut |o| match o {
                        Operand::Value(v) => value(v),
                        Operand::Metadata(m) => {
                            if m.0 >= LOCAL_MD_BASE {
                                m.0 = m.0 - LOCAL_MD_BASE + md_base;
                            }
                        }
                    });
                }
            }
        }
    }

    /// A specialized metadata node `!Name(field: value, …)`.
    pub(super) fn debug_node(
        &mut self,
        kind: &[u8],
        distinct: bool,
        line: u32,
        col: u32,
    ) -> Result<DebugNode, ParseError> {
        super::debug::parse_debug_node(self, kind, distinct, line, col)
    }
}

/// The numbering and orders dxc's writer derives (see the module doc).
pub(super) fn canonical_order(m: &mut Module, template: Option<&Module>) -> Result<(), String> {
    if let Some(t) = template {
        adopt_metadata_kinds(m, t);
    }
    fast_math_flags(m, template);
    let preserve = match template {
        Some(t) if t.use_lists.is_empty() => keeps_first_use_order(t).unwrap_or(false),
        _ => false,
    };
    // LLVM's enumerator always numbers the `metadata` type. The types
    // come first: the constants are sorted by type ID.
    if !m.types.iter().any(|t| matches!(t, Type::Metadata)) {
        m.types.push(Type::Metadata);
    }
    let order = type_order(m);
    apply_type_order(m, &order);
    renumber_with(m, preserve).map_err(|e| e.to_string())?;
    if let Some(t) = template {
        keep_use_lists(m, t);
        m.symbol_order = t.symbol_order.clone();
        for (f, tf) in m.functions.iter_mut().zip(&t.functions) {
            if let (Some(b), Some(tb)) = (&mut f.body, &tf.body) {
                b.symbol_order = tb.symbol_order.clone();
            }
        }
    }
    Ok(())
}

/// The template's metadata kinds (with their IDs), then any kind the text
/// uses that the template lacks; attachments follow the new IDs.
fn adopt_metadata_kinds(m: &mut Module, template: &Module) {
    let mut kinds = template.metadata_kinds.clone();
    let mut map = HashMap::new();
    let mut used = std::collections::HashSet::new();
    for f in &m.functions {
        let Some(body) = &f.body else { continue };
        used.extend(body.attachments.iter().map(|a| a.kind));
        for block in &body.blocks {
            for ins in &block.instructions {
                used.extend(ins.attachments.iter().map(|a| a.kind));
            }
        }
    }
    for k in &m.metadata_kinds {
        if !used.contains(&k.id) && !kinds.iter().any(|t| t.name == k.name) {
            continue;
        }
        let id = match kinds.iter().find(|t| t.name == k.name) {
            Some(t) => t.id,
            None => {
                let id = kinds.iter().map(|t| t.id + 1).max().unwrap_or(0);
                kinds.push(dxcopy_read::dxil::MetadataKind {
                    id,
                    name: k.name.clone(),
                });
                id
            }
        };
        map.insert(k.id, id);
    }
    let remap = |a: &mut dxcopy_read::dxil::Attachment| {
        if let Some(n) = map.get(&a.kind) {
            a.kind = *n;
        }
    };
    for f in &mut m.functions {
        let Some(body) = &mut f.body else { continue };
        body.attachments.iter_mut().for_each(remap);
        for block in &mut body.blocks {
            for ins in &mut block.instructions {
                ins.attachments.iter_mut().for_each(remap);
            }
        }
    }
    m.metadata_kinds = kinds;
}

/// `fast` is printed for any set of fast-math flags with unsafe algebra;
/// the other four bits are not in the text. dxc writes all five (31),
/// except on some `fadd`s whose operand is a `dx.op.tertiary` call (a
/// `mad`), where it leaves out `nnan` (29): 988 of the 1,054 such `fadd`s
/// of the corpus's DXIL modules, and no other instruction. An instruction
/// at the same place in the template, of the same operation and with
/// unsafe algebra too, gives its flags instead.
fn fast_math_flags(m: &mut Module, template: Option<&Module>) {
    use dxcopy_read::dxil::{BinOp, InstructionKind};
    let tertiary: Vec<ValueId> = m
        .functions
        .iter()
        .filter(|f| f.name().starts_with(b"dx.op.tertiary."))
        .map(|f| f.common.value)
        .collect();
    for (fi, f) in m.functions.iter_mut().enumerate() {
        let Some(body) = &mut f.body else { continue };
        let template_body = template
            .and_then(|t| t.functions.get(fi))
            .filter(|t| t.common.name == f.common.name)
            .and_then(|t| t.body.as_ref());
        let results: HashMap<ValueId, Option<ValueId>> = body
            .blocks
            .iter()
            .flat_map(|b| &b.instructions)
            .filter_map(|i| {
                let callee = match &i.kind {
                    InstructionKind::Call {
                        callee: Operand::Value(c),
                        ..
                    } => Some(*c),
                    _ => None,
                };
                Some((i.value?, callee))
            })
            .collect();
        for (bi, block) in body.blocks.iter_mut().enumerate() {
            for (ii, ins) in block.instructions.iter_mut().enumerate() {
                let InstructionKind::BinOp {
                    op,
                    flags,
                    lhs,
                    rhs,
                } = &mut ins.kind
                else {
                    continue;
                };
                if !flags.fast_math.unsafe_algebra() {
                    continue;
                }
                let from_template = template_body
                    .and_then(|t| t.blocks.get(bi))
                    .and_then(|b| b.instructions.get(ii))
                    .and_then(|t| match &t.kind {
                        InstructionKind::BinOp {
                            op: top, flags: tf, ..
                        } if top == op && tf.fast_math.unsafe_algebra() => Some(tf.fast_math),
                        _ => None,
                    });
                if let Some(t) = from_template {
                    flags.fast_math = t;
                    continue;
                }
                let is_mad = |o: &Operand| match o {
                    Operand::Value(v) => results
                        .get(v)
                        .copied()
                        .flatten()
                        .is_some_and(|c| tertiary.contains(&c)),
                    Operand::Metadata(_) => false,
                };
                if *op == BinOp::FAdd && (is_mad(lhs) || is_mad(rhs)) {
                    flags.fast_math.0 = 29;
                }
            }
        }
    }
}

/// The template's use-list records (the order of each value's uses, which
/// the text does not carry) where the module is the template's: the
/// module's records when the whole module is, a function's when that
/// function's body is.
fn keep_use_lists(m: &mut Module, template: &Module) {
    let has_any = !template.use_lists.is_empty()
        || template
            .functions
            .iter()
            .any(|f| f.body.as_ref().is_some_and(|b| !b.use_lists.is_empty()));
    if !has_any {
        return;
    }
    let mut bare = template.clone();
    bare.use_lists.clear();
    for f in &mut bare.functions {
        if let Some(b) = &mut f.body {
            b.use_lists.clear();
        }
    }
    // Compared without the symbol orders, which are taken from the template too.
    let mut ours = m.clone();
    ours.symbol_order = bare.symbol_order.clone();
    for (f, t) in ours.functions.iter_mut().zip(&bare.functions) {
        if let (Some(b), Some(tb)) = (&mut f.body, &t.body) {
            b.symbol_order = tb.symbol_order.clone();
        }
    }
    if ours == bare {
        m.use_lists = template.use_lists.clone();
    }
    for ((f, ours), (t, bare)) in m
        .functions
        .iter_mut()
        .zip(&ours.functions)
        .zip(template.functions.iter().zip(&bare.functions))
    {
        if let (Some(b), Some(tb)) = (&mut f.body, &t.body) {
            if ours.body == bare.body {
                b.use_lists = tb.use_lists.clone();
            }
        }
    }
}
