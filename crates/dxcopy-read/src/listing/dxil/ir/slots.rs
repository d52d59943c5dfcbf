//! The orders LLVM 3.7 prints in: the TypeFinder's walk for struct types,
//! the SlotTracker's metadata keys and the attribute-set order
//! (docs/format/dxil-listing.md, "Numbering").

use std::collections::{HashMap, HashSet};

use crate::bitcode::BitcodeError;
use crate::dxil::Bodies;

use crate::dxil::model::{
    Attribute, AttributeKind, DebugLoc, DebugNode, DebugNodeKind, FunctionBody, Instruction,
    LocalValue, Metadata, MetadataId, Module, ModuleValue, Operand, Type, TypeId, ValueId,
};

/// A metadata node as LLVM 3.7 identifies it: uniqued `DILocation`s are one
/// node whether a metadata record or an instruction's debug location made
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum MdKey {
    /// A node of the module's metadata table.
    Table(u32),
    /// A node of function `function`'s metadata block.
    Local {
        /// Index into [`Module::functions`].
        function: u32,
        /// The metadata ID.
        id: u32,
    },
    /// A uniqued `DILocation`.
    Location {
        /// Line.
        line: u64,
        /// Column (0 for a column past 65535, as LLVM 3.7 stores it).
        column: u64,
        /// The scope node's ID.
        scope: u32,
        /// The inlined-at node's ID.
        inlined_at: Option<u32>,
    },
}

/// LLVM 3.7 keeps 16 bits of a location's column.
pub(super) fn location_column(column: u64) -> u64 {
    if column >= 1 << 16 {
        0
    } else {
        column
    }
}

/// The metadata entry `id` in the scope of `function` (module IDs first,
/// then the function's block).
pub(super) fn metadata_entry<'m>(
    module: &'m Module,
    function: Option<(u32, &'m FunctionBody)>,
    id: MetadataId,
) -> Option<&'m Metadata> {
    if let Some(entry) = module.metadata.get(id.index()) {
        return Some(entry);
    }
    function?.1.metadata(id, module.metadata.len())
}

/// The key of metadata `id`, when it is a node.
pub(super) fn node_key(
    module: &Module,
    function: Option<(u32, &FunctionBody)>,
    id: MetadataId,
) -> Option<MdKey> {
    let entry = metadata_entry(module, function, id)?;
    let in_module = id.index() < module.metadata.len();
    match entry {
        Metadata::Debug(node)
            if node.kind == DebugNodeKind::Location && !node.distinct && in_module =>
        {
            let field = |i: usize| node.fields.get(i).copied().unwrap_or(0);
            Some(MdKey::Location {
                line: field(1),
                column: location_column(field(2)),
                scope: u32::try_from(field(3)).ok()?,
                inlined_at: field(4).checked_sub(1).and_then(|v| u32::try_from(v).ok()),
            })
        }
        Metadata::Node { .. } | Metadata::Debug(_) => Some(if in_module {
            MdKey::Table(id.0)
        } else {
            MdKey::Local {
                function: function?.0,
                id: id.0,
            }
        }),
        Metadata::String(_) | Metadata::Value { .. } | Metadata::Unknown { .. } => None,
    }
}

/// The key of an instruction's debug location (`None` without a scope:
/// LLVM 3.7 drops such a location).
pub(super) fn location_key(loc: &DebugLoc) -> Option<MdKey> {
    Some(MdKey::Location {
        line: loc.line,
        column: location_column(loc.column),
        scope: loc.scope?.0,
        inlined_at: loc.inlined_at.map(|m| m.0),
    })
}

/// A field of a debug node that refers to metadata (stored as ID + 1).
pub(super) fn field_ref(node: &DebugNode, index: usize) -> Option<MetadataId> {
    let raw = node.fields.get(index).copied()?.checked_sub(1)?;
    u32::try_from(raw).ok().map(MetadataId)
}

/// The operands of node `key` (metadata references), in LLVM's order.
pub(super) fn node_operands(
    module: &Module,
    function: Option<(u32, &FunctionBody)>,
    key: MdKey,
) -> Vec<Option<MetadataId>> {
    let entry = match key {
        MdKey::Table(id) => module.metadata(MetadataId(id)),
        MdKey::Local { id, .. } => metadata_entry(module, function, MetadataId(id)),
        MdKey::Location {
            scope, inlined_at, ..
        } => {
            let mut ops = vec![Some(MetadataId(scope))];
            if let Some(inlined) = inlined_at {
                ops.push(Some(MetadataId(inlined)));
            }
            return ops;
        }
    };
    match entry {
        Some(Metadata::Node { operands, .. }) => operands.clone(),
        Some(Metadata::Debug(node)) => node.references(),
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------- attributes

/// LLVM 3.7's `Attribute::AttrKind` order (by name), which sorts the
/// attributes of a set.
const ATTRIBUTE_ORDER: &[&str] = &[
    "align",
    "alwaysinline",
    "builtin",
    "byval",
    "inalloca",
    "cold",
    "convergent",
    "inlinehint",
    "inreg",
    "jumptable",
    "minsize",
    "naked",
    "nest",
    "noalias",
    "nobuiltin",
    "nocapture",
    "noduplicate",
    "noimplicitfloat",
    "noinline",
    "nonlazybind",
    "nonnull",
    "dereferenceable",
    "dereferenceable_or_null",
    "noredzone",
    "noreturn",
    "nounwind",
    "optsize",
    "optnone",
    "readnone",
    "readonly",
    "argmemonly",
    "returned",
    "returns_twice",
    "signext",
    "alignstack",
    "ssp",
    "sspreq",
    "sspstrong",
    "safestack",
    "sret",
    "sanitize_address",
    "sanitize_thread",
    "sanitize_memory",
    "uwtable",
    "zeroext",
];

fn kind_rank(kind: AttributeKind) -> usize {
    kind.name()
        .and_then(|name| ATTRIBUTE_ORDER.iter().position(|n| *n == name))
        .unwrap_or(ATTRIBUTE_ORDER.len())
}

/// Sorts a set's attributes as LLVM 3.7's `AttributeImpl::operator<`:
/// enum attributes by kind, then integer attributes by value, then string
/// attributes by key and value.
pub(super) fn sort_attributes(attributes: &mut [Attribute]) {
    attributes.sort_by(|a, b| {
        use std::cmp::Ordering;
        match (a, b) {
            (Attribute::Enum(x), Attribute::Enum(y)) => kind_rank(*x).cmp(&kind_rank(*y)),
            (Attribute::Enum(_), _) => Ordering::Less,
            (Attribute::Int(_, _), Attribute::Enum(_)) => Ordering::Greater,
            (Attribute::Int(_, x), Attribute::Int(_, y)) => x.cmp(y),
            (Attribute::Int(_, _), Attribute::String { .. }) => Ordering::Less,
            (Attribute::String { .. }, Attribute::Enum(_) | Attribute::Int(_, _)) => {
                Ordering::Greater
            }
            (
                Attribute::String { key: ka, value: va },
                Attribute::String { key: kb, value: vb },
            ) => ka.cmp(kb).then_with(|| {
                let empty: &[u8] = &[];
                va.as_deref()
                    .unwrap_or(empty)
                    .cmp(vb.as_deref().unwrap_or(empty))
            }),
        }
    });
}

/// The attributes of attribute list `list` at `index` (0xFFFF_FFFF the
/// function, 0 the return value, n the n-th parameter), sorted.
pub(super) fn attributes_at(module: &Module, list: u64, index: u32) -> Vec<Attribute> {
    let mut out = Vec::new();
    let Some(list) = module.attribute_list(list) else {
        return out;
    };
    for group in &list.groups {
        if let Some(group) = module
            .attribute_groups
            .iter()
            .find(|g| g.id == *group && g.index == index)
        {
            for attribute in &group.attributes {
                if !out.contains(attribute) {
                    out.push(attribute.clone());
                }
            }
        }
    }
    sort_attributes(&mut out);
    out
}

/// The attribute index of a function's own attributes.
pub(super) const FUNCTION_INDEX: u32 = 0xFFFF_FFFF;

// ---------------------------------------------------------------- types

/// The struct types LLVM 3.7's TypeFinder reaches, split as its
/// TypePrinting does: named ones in the order found, unnamed
/// (non-literal) ones numbered.
#[derive(Default)]
pub(super) struct StructTypes {
    /// Named struct types in the order found.
    pub named: Vec<TypeId>,
    /// Unnamed identified struct types and their numbers.
    pub numbered: HashMap<TypeId, u32>,
    /// The same, in number order.
    pub numbered_order: Vec<TypeId>,
}

/// The TypeFinder's walk.
struct TypeFinder<'m> {
    module: &'m Module,
    visited_types: HashSet<TypeId>,
    visited_constants: HashSet<(Option<u32>, u32)>,
    visited_metadata: HashSet<(Option<u32>, u32)>,
    found: Vec<TypeId>,
}

impl<'m> TypeFinder<'m> {
    fn subtypes(&self, ty: TypeId) -> Vec<TypeId> {
        match self.module.ty(ty) {
            Some(Type::Pointer { pointee, .. }) => vec![*pointee],
            Some(Type::Array { element, .. } | Type::Vector { element, .. }) => vec![*element],
            Some(Type::Struct(st)) => st.body.clone().unwrap_or_default(),
            Some(Type::Function(f)) => {
                let mut v = vec![f.ret];
                v.extend(f.params.iter().copied());
                v
            }
            _ => Vec::new(),
        }
    }

    fn incorporate_type(&mut self, ty: TypeId) {
        if !self.visited_types.insert(ty) {
            return;
        }
        let mut worklist = vec![ty];
        while let Some(ty) = worklist.pop() {
            if let Some(Type::Struct(_)) = self.module.ty(ty) {
                self.found.push(ty);
            }
            for sub in self.subtypes(ty).into_iter().rev() {
                if self.visited_types.insert(sub) {
                    worklist.push(sub);
                }
            }
        }
    }

    /// Marks constant `id` visited and returns its operands (`None` for
    /// anything but an unvisited constant).
    fn enter_constant(
        &mut self,
        function: Option<(u32, &'m FunctionBody)>,
        id: ValueId,
    ) -> Option<Vec<ValueId>> {
        let module = self.module;
        let (constant, scope) = if id.index() < module.values.len() {
            match module.value(id)? {
                ModuleValue::Constant(i) => (module.constants.get(i as usize)?, None),
                _ => return None,
            }
        } else {
            let (index, body) = function?;
            match body.local(id)? {
                LocalValue::Constant(i) => (body.constants.get(i as usize)?, Some(index)),
                _ => return None,
            }
        };
        if !self.visited_constants.insert((scope, id.0)) {
            return None;
        }
        self.incorporate_type(constant.ty);
        Some(constant.kind.operands())
    }

    /// A value of `function` (or the module): only constants count, and
    /// their operands depth first.
    fn incorporate_value(&mut self, function: Option<(u32, &'m FunctionBody)>, id: ValueId) {
        let Some(first) = self.enter_constant(function, id) else {
            return;
        };
        let mut frames = vec![(first, 0usize)];
        while let Some((operands, position)) = frames.last_mut() {
            let Some(&operand) = operands.get(*position) else {
                frames.pop();
                continue;
            };
            *position += 1;
            if let Some(next) = self.enter_constant(function, operand) {
                frames.push((next, 0));
            }
        }
    }

    fn incorporate_operand(&mut self, function: Option<(u32, &'m FunctionBody)>, operand: Operand) {
        match operand {
            Operand::Value(id) => self.incorporate_value(function, id),
            Operand::Metadata(id) => match metadata_entry(self.module, function, id) {
                Some(Metadata::Value { value, .. }) => self.incorporate_value(function, *value),
                Some(Metadata::Node { .. } | Metadata::Debug(_)) => {
                    self.incorporate_metadata(function, id)
                }
                _ => {}
            },
        }
    }

    /// Marks node `id` visited and returns its operands.
    fn enter_node(
        &mut self,
        function: Option<(u32, &'m FunctionBody)>,
        id: MetadataId,
    ) -> Option<Vec<Option<MetadataId>>> {
        let scope = if id.index() < self.module.metadata.len() {
            None
        } else {
            Some(function?.0)
        };
        let entry = metadata_entry(self.module, function, id)?;
        if !matches!(entry, Metadata::Node { .. } | Metadata::Debug(_)) {
            return None;
        }
        // Visited first: a wide node reached from many places is copied
        // once, not once per reference.
        if !self.visited_metadata.insert((scope, id.0)) {
            return None;
        }
        match entry {
            Metadata::Node { operands, .. } => Some(operands.clone()),
            Metadata::Debug(node) => Some(node.references()),
            _ => None,
        }
    }

    /// A node and what it refers to, depth first in operand order: nested
    /// nodes, and the constants of `ConstantAsMetadata` operands.
    fn incorporate_metadata(&mut self, function: Option<(u32, &'m FunctionBody)>, id: MetadataId) {
        let Some(first) = self.enter_node(function, id) else {
            return;
        };
        let mut frames = vec![(first, 0usize)];
        while let Some((operands, position)) = frames.last_mut() {
            let Some(&operand) = operands.get(*position) else {
                frames.pop();
                continue;
            };
            *position += 1;
            let Some(operand) = operand else {
                continue;
            };
            match metadata_entry(self.module, function, operand) {
                Some(Metadata::Node { .. } | Metadata::Debug(_)) => {
                    if let Some(next) = self.enter_node(function, operand) {
                        frames.push((next, 0));
                    }
                }
                Some(Metadata::Value { value, .. }) if value.index() < self.module.values.len() => {
                    let value = *value;
                    self.incorporate_value(function, value);
                }
                _ => {}
            }
        }
    }
}

/// Calls `f` with each instruction of function `index` and its block, in
/// order: from `body`, or, for a module read with its bodies outlined,
/// read again from `source` (name and attachments from the outline).
pub(super) fn each_instruction(
    source: Option<&dyn Bodies>,
    index: u32,
    body: &FunctionBody,
    f: &mut dyn FnMut(u32, &Instruction, Option<u64>),
) -> Result<(), BitcodeError> {
    let Some(source) = source else {
        for (block_index, block) in body.blocks.iter().enumerate() {
            for instruction in &block.instructions {
                f(block_index as u32, instruction, None);
            }
        }
        return Ok(());
    };
    let Some(outline) = source.outline(index) else {
        return Ok(());
    };
    let mut number = 0u32;
    source.instructions(index, &mut |(block, mut instruction, bit)| {
        if let Some(attachments) = outline.attachments.get(&number) {
            instruction.attachments = attachments.clone();
        }
        if let Some(value) = instruction.value {
            instruction.name = outline.names.get(&value.0).cloned();
        }
        number += 1;
        f(block, &instruction, Some(bit));
    })
}

/// The struct types of `module` as LLVM 3.7's printer finds them (`source`:
/// where an outlined module's instructions are read again).
pub(super) fn struct_types(
    module: &Module,
    source: Option<&dyn Bodies>,
) -> Result<StructTypes, BitcodeError> {
    let mut finder = TypeFinder {
        module,
        visited_types: HashSet::new(),
        visited_constants: HashSet::new(),
        visited_metadata: HashSet::new(),
        found: Vec::new(),
    };
    for global in &module.globals {
        match global.pointer_type {
            Some(ty) => finder.incorporate_type(ty),
            None => finder.incorporate_type(global.value_type),
        }
        if let Some(init) = global.initializer {
            finder.incorporate_value(None, init);
        }
    }
    for alias in &module.aliases {
        match alias.pointer_type {
            Some(ty) => finder.incorporate_type(ty),
            None => finder.incorporate_type(alias.value_type),
        }
        finder.incorporate_value(None, alias.aliasee);
    }
    for (index, function) in module.functions.iter().enumerate() {
        match function.pointer_type {
            Some(ty) => finder.incorporate_type(ty),
            None => finder.incorporate_type(function.function_type),
        }
        for data in [
            function.prefix_data,
            function.prologue_data,
            function.personality,
        ]
        .into_iter()
        .flatten()
        {
            finder.incorporate_value(None, data);
        }
        let Some(body) = &function.body else {
            continue;
        };
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        let scope = Some((index, body));
        each_instruction(source, index, body, &mut |_, instruction, _| {
            if let Some(ty) = instruction.ty {
                finder.incorporate_type(ty);
            }
            for operand in instruction.kind.operands() {
                finder.incorporate_operand(scope, operand);
            }
            let mut attachments = instruction.attachments.clone();
            attachments.sort_by_key(|a| a.kind);
            for attachment in attachments {
                finder.incorporate_metadata(scope, attachment.node);
            }
        })?;
    }
    for named in &module.named_metadata {
        for op in &named.operands {
            finder.incorporate_metadata(None, *op);
        }
    }
    let mut named = Vec::new();
    let mut numbered = HashMap::new();
    let mut numbered_order = Vec::new();
    for ty in finder.found {
        if let Some(Type::Struct(st)) = module.ty(ty) {
            match &st.name {
                None => {}
                Some(name) if name.is_empty() => {
                    let next = u32::try_from(numbered_order.len()).unwrap_or(u32::MAX);
                    numbered.insert(ty, next);
                    numbered_order.push(ty);
                }
                Some(_) => named.push(ty),
            }
        }
    }
    Ok(StructTypes {
        named,
        numbered,
        numbered_order,
    })
}
