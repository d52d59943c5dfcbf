//! Numbering a DXIL module's values and metadata again, as dxc's value
//! enumerator (its fork of LLVM 3.7's `ValueEnumerator.cpp`) numbers them,
//! after an edit of the model: a constant added or changed, a metadata
//! operand changed, a value left unused. The writer
//! ([`super::write_module`]) writes the model's IDs as they are; this is
//! what makes an edited model's IDs the ones dxc would write.
//!
//! The order (docs/format/dxil-writer.md, "Numbering again"):
//! - module values: the globals, functions and aliases in that order; then
//!   every constant the module reaches — global initializers, aliasees,
//!   prefix, prologue and personality data, then the constants that module
//!   metadata wraps, met while metadata is enumerated — each constant after
//!   its operands, counted once per use; the constants are then sorted by
//!   type ID and, within a type, by that count (stable), and the integer and
//!   integer-vector constants moved to the front by the partition LLVM uses;
//! - metadata, in post order (operands first) from the named metadata, then
//!   per function its attachments and per instruction its metadata operands,
//!   its attachments (by kind) and the scope and inlined-at of its location;
//! - in a function: the arguments, the constants its instructions use that
//!   the module does not hold (in operand order, each after its operands,
//!   sorted as above), the instructions with a result, then the
//!   function-local metadata in the order instructions use it.
//!
//! Constants and metadata nothing reaches are dropped, as dxc's enumerator
//! never numbers them; equal constants (and equal metadata strings and
//! constant wrappers) become one, as LLVM's uniquing makes them. A module
//! with use-list records keeps its constants in first-use order
//! (`ShouldPreserveUseListOrder` turns the sort off).
//!
//! ```
//! use dxcopy_edit::bitcode::renumber;
//! use dxcopy_read::dxil::{Constant, ConstantKind, Metadata, Module, ModuleValue, Type, TypeId, ValueId};
//! let mut module = Module {
//!     version: 1,
//!     types: vec![Type::Integer { bits: 32 }, Type::Metadata],
//!     // An unused `i32 7` and `i32 9`, which metadata wraps.
//!     values: vec![ModuleValue::Constant(0), ModuleValue::Constant(1)],
//!     constants: vec![
//!         Constant { ty: TypeId(0), kind: ConstantKind::Integer(7) },
//!         Constant { ty: TypeId(0), kind: ConstantKind::Integer(9) },
//!     ],
//!     metadata: vec![Metadata::Value { ty: TypeId(0), value: ValueId(1) }],
//!     named_metadata: vec![dxcopy_read::dxil::NamedMetadata {
//!         name: b"n".to_vec(),
//!         operands: vec![dxcopy_read::dxil::MetadataId(0)],
//!     }],
//!     ..Module::default()
//! };
//! let stats = renumber(&mut module)?;
//! assert_eq!(stats.constants_dropped, 1);
//! assert_eq!(module.constants[0].kind, ConstantKind::Integer(9));
//! assert_eq!(module.metadata[0], Metadata::Value { ty: TypeId(0), value: ValueId(0) });
//! # Ok::<(), dxcopy_edit::bitcode::RenumberError>(())
//! ```

use dxcopy_read::dxil::{
    Constant, FunctionBody, LocalValue, Metadata, MetadataId, Module, ModuleValue, Operand, Symbol,
    Type, TypeId, ValueId,
};
use std::collections::HashMap;

/// Why a model could not be numbered again.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RenumberError {
    /// A value ID that the model does not define.
    #[error("{place}: value {id} is not defined")]
    UndefinedValue {
        /// The module or function.
        place: String,
        /// The ID.
        id: u32,
    },
    /// A metadata ID that the model does not define.
    #[error("{place}: metadata {id} is not defined")]
    UndefinedMetadata {
        /// The module or function.
        place: String,
        /// The ID.
        id: u32,
    },
    /// A constant that is its own operand (LLVM's constants form no cycle).
    #[error("{place}: constant {id} is among its own operands")]
    ConstantCycle {
        /// The module or function.
        place: String,
        /// The constant's value ID.
        id: u32,
    },
    /// Something LLVM 3.7's enumerator has no order for.
    #[error("{place}: {what}")]
    Unsupported {
        /// The module or function.
        place: String,
        /// What it is.
        what: &'static str,
    },
}

/// What a renumbering changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenumberStats {
    /// Module and function constants nothing uses any more, or that equal
    /// another constant.
    pub constants_dropped: usize,
    /// Module metadata nothing reaches any more, or equal to another.
    pub metadata_dropped: usize,
}

/// Numbers `module`'s values and metadata again as dxc's enumerator does,
/// dropping what nothing uses and rewriting every ID in the model. A
/// module read from dxc's bitcode keeps its numbering. Whether the writer
/// kept use-list order (and so left constants unsorted) is taken from the
/// model ([`keeps_first_use_order`]), which only a model as read can tell
/// reliably: for an edited model, ask [`keeps_first_use_order`] before the
/// edit and call [`renumber_with`]. Nothing changes on error.
pub fn renumber(module: &mut Module) -> Result<RenumberStats, RenumberError> {
    let preserve = keeps_first_use_order(module)?;
    renumber_with(module, preserve)
}

/// Whether `module`'s constants are in the order dxc's enumerator gives
/// when the writer keeps use-list order (first use, unsorted): the module
/// has use-list records, or its constants (those the enumerator still
/// numbers) are in first-use order and not in the sorted one. Some dxc
/// releases write debug modules (ILDB) so without any use-list record.
pub fn keeps_first_use_order(module: &Module) -> Result<bool, RenumberError> {
    let use_lists = !module.use_lists.is_empty()
        || module
            .functions
            .iter()
            .any(|f| f.body.as_ref().is_some_and(|b| !b.use_lists.is_empty()));
    if use_lists {
        return Ok(true);
    }
    let first_use = Planner::new(module, true)?.plan()?;
    let sorted = Planner::new(module, false)?.plan()?;
    let model = first_use.model_constant_order(module);
    let agrees = |plan: &Plan| {
        let planned = plan.constant_order(module);
        model.iter().zip(&planned).all(|(a, b)| {
            let common: std::collections::HashSet<&u32> =
                a.iter().filter(|c| b.contains(c)).collect();
            let keep = |v: &Vec<u32>| -> Vec<u32> {
                v.iter().filter(|c| common.contains(c)).copied().collect()
            };
            keep(a) == keep(b)
        })
    };
    Ok(agrees(&first_use) && !agrees(&sorted))
}

/// [`renumber`], saying whether the writer keeps use-list order (then
/// dxc's enumerator does not sort constants).
pub fn renumber_with(
    module: &mut Module,
    preserve_use_list_order: bool,
) -> Result<RenumberStats, RenumberError> {
    let plan = Planner::new(module, preserve_use_list_order)?.plan()?;
    let stats = plan.apply(module)?;
    Ok(stats)
}

/// Adds `constant` to the module's constants and returns its value ID (the
/// next module value ID). Function-local IDs move up by one to make room,
/// so the model stays consistent; [`renumber`] then puts the constant where
/// dxc would (or drops it if nothing uses it).
pub fn add_constant(module: &mut Module, constant: Constant) -> ValueId {
    let id = ValueId(module.values.len() as u32);
    shift_locals(module, 1, 0);
    module
        .values
        .push(ModuleValue::Constant(module.constants.len() as u32));
    module.constants.push(constant);
    id
}

/// Adds `metadata` to the module's metadata and returns its ID (the next
/// module metadata ID); function-local metadata IDs move up by one.
pub fn add_metadata(module: &mut Module, metadata: Metadata) -> MetadataId {
    let id = MetadataId(module.metadata.len() as u32);
    shift_locals(module, 0, 1);
    module.metadata.push(metadata);
    id
}

/// Moves every function-local value ID up by `values` and every
/// function-local metadata ID up by `metadata`.
fn shift_locals(module: &mut Module, values: u32, metadata: u32) {
    let first_md = module.metadata.len() as u32;
    for body in module.functions.iter_mut().filter_map(|f| f.body.as_mut()) {
        let first = body.first_value;
        let value = |v: &mut ValueId| {
            if v.0 >= first {
                v.0 += values;
            }
        };
        let md = |m: &mut MetadataId| {
            if m.0 >= first_md {
                m.0 += metadata;
            }
        };
        body.first_value += values;
        body.args.iter_mut().for_each(|a| value(&mut a.value));
        for c in &mut body.constants {
            c.kind.for_each_operand_mut(&mut |v| value(v));
        }
        for inst in body.blocks.iter_mut().flat_map(|b| &mut b.instructions) {
            if let Some(v) = &mut inst.value {
                value(v);
            }
            inst.kind.for_each_operand_mut(&mut |o| match o {
                Operand::Value(v) => value(v),
                Operand::Metadata(m) => md(m),
            });
        }
        for m in &mut body.metadata {
            if let Metadata::Value { value: v, .. } = m {
                value(v);
            }
        }
        for s in &mut body.symbol_order {
            if let Symbol::Value(v) = s {
                value(v);
            }
        }
        for l in body.use_lists.iter_mut().filter(|l| !l.block) {
            if let Some(last) = l.fields.last_mut() {
                if *last >= u64::from(first) {
                    *last += u64::from(values);
                }
            }
        }
    }
}

const NONE: u32 = u32::MAX;

/// Values numbered so far (module or one function), with their use counts.
#[derive(Default)]
struct Table {
    /// The canonical old IDs, in new order.
    order: Vec<u32>,
    /// Their use counts.
    count: Vec<u32>,
    /// Old canonical ID → position in `order`.
    at: HashMap<u32, u32>,
}

impl Table {
    fn push(&mut self, old: u32) {
        self.at.insert(old, self.order.len() as u32);
        self.order.push(old);
        self.count.push(1);
    }
}

/// What an old value ID stands for, in a function's scope.
enum Kind<'m> {
    Global,
    Constant(&'m Constant),
    Local,
}

/// The per-function state of the planner.
struct Scope<'m> {
    index: usize,
    body: &'m FunctionBody,
    /// Canonical old ID of each local value.
    canon: Vec<u32>,
}

struct Planner<'m> {
    m: &'m Module,
    preserve: bool,
    /// Canonical old ID of each module value.
    canon: Vec<u32>,
    /// Canonical old ID of each module metadata.
    md_canon: Vec<u32>,
    /// The module's values.
    values: Table,
    /// Number of global values (before the constants).
    globals: usize,
    /// Module metadata: new position + 1 of each old ID (`NONE` while
    /// being visited, 0 unseen).
    md_at: Vec<u32>,
    md_order: Vec<u32>,
}

/// The new numbering of one function.
struct FunctionPlan {
    values: Table,
    /// Old local metadata IDs, in new order.
    md_order: Vec<u32>,
    md_at: HashMap<u32, u32>,
    canon: Vec<u32>,
}

struct Plan {
    canon: Vec<u32>,
    md_canon: Vec<u32>,
    values: Table,
    globals: usize,
    md_order: Vec<u32>,
    md_at: Vec<u32>,
    functions: Vec<Option<FunctionPlan>>,
}

fn place(m: &Module, function: Option<usize>) -> String {
    match function.and_then(|i| m.functions.get(i)) {
        Some(f) => format!("function {}", String::from_utf8_lossy(f.name())),
        None => "module".into(),
    }
}

fn is_int_or_int_vector(m: &Module, ty: TypeId) -> bool {
    match m.ty(ty) {
        Some(Type::Integer { .. }) => true,
        Some(Type::Vector { element, .. }) => matches!(m.ty(*element), Some(Type::Integer { .. })),
        _ => false,
    }
}

/// LLVM's `std::partition` (the two-ended swap of libstdc++ and MSVC's
/// STL): the elements for which `pred` holds move to the front; the order
/// is not kept.
fn partition<T>(v: &mut [T], pred: impl Fn(&T) -> bool) {
    let (mut first, mut last) = (0, v.len());
    loop {
        loop {
            if first == last {
                return;
            }
            if pred(&v[first]) {
                first += 1;
            } else {
                break;
            }
        }
        loop {
            last -= 1;
            if first == last {
                return;
            }
            if pred(&v[last]) {
                break;
            }
        }
        v.swap(first, last);
        first += 1;
    }
}

impl<'m> Planner<'m> {
    fn new(m: &'m Module, preserve: bool) -> Result<Planner<'m>, RenumberError> {
        let canon = canonical_module_constants(m)?;
        let mut md_canon: Vec<u32> = (0..m.metadata.len() as u32).collect();
        let mut seen: HashMap<&[u8], u32> = HashMap::new();
        let mut seen_values: HashMap<(TypeId, u32), u32> = HashMap::new();
        for (i, md) in m.metadata.iter().enumerate() {
            let first = match md {
                Metadata::String(s) => *seen.entry(s).or_insert(i as u32),
                Metadata::Value { ty, value } => {
                    let v = canon.get(value.index()).copied().unwrap_or(value.0);
                    *seen_values.entry((*ty, v)).or_insert(i as u32)
                }
                _ => i as u32,
            };
            md_canon[i] = first;
        }
        // Equal plain nodes are one node in LLVM (uniqued by operands); a
        // node compares by its operands' canonical IDs (operands come first
        // in dxc's numbering).
        let mut nodes: HashMap<Vec<Option<u32>>, u32> = HashMap::new();
        for (i, md) in m.metadata.iter().enumerate() {
            if let Metadata::Node {
                distinct: false,
                operands,
            } = md
            {
                let key = operands
                    .iter()
                    .map(|o| o.map(|o| md_canon.get(o.index()).copied().unwrap_or(o.0)))
                    .collect();
                md_canon[i] = *nodes.entry(key).or_insert(i as u32);
            }
        }
        Ok(Planner {
            m,
            preserve,
            canon,
            md_canon,
            values: Table::default(),
            globals: 0,
            md_at: vec![0; m.metadata.len()],
            md_order: Vec::new(),
        })
    }

    /// The canonical old ID of `id` in the scope of `scope`.
    fn resolve(&self, scope: Option<&Scope>, id: ValueId) -> Result<u32, RenumberError> {
        if let Some(&c) = self.canon.get(id.index()) {
            return Ok(c);
        }
        let local = scope.and_then(|s| {
            let i = id.0.checked_sub(s.body.first_value)?;
            s.canon.get(i as usize).copied()
        });
        local.ok_or_else(|| RenumberError::UndefinedValue {
            place: place(self.m, scope.map(|s| s.index)),
            id: id.0,
        })
    }

    /// What canonical old ID `c` is.
    fn kind(&self, scope: Option<&Scope<'m>>, c: u32) -> Kind<'m> {
        let m = self.m;
        match m.values.get(c as usize) {
            Some(ModuleValue::Constant(i)) => match m.constants.get(*i as usize) {
                Some(k) => Kind::Constant(k),
                None => Kind::Local,
            },
            Some(_) => Kind::Global,
            None => match scope.and_then(|s| Some((s.body, s.body.local(ValueId(c))?))) {
                Some((body, LocalValue::Constant(i))) => match body.constants.get(i as usize) {
                    Some(k) => Kind::Constant(k),
                    None => Kind::Local,
                },
                _ => Kind::Local,
            },
        }
    }

    /// `EnumerateValue`: numbers `id` (after its operands, for a constant)
    /// in `local` (a function's table) or the module's, or counts one more
    /// use of it.
    fn enumerate_value(
        &mut self,
        scope: Option<&Scope<'m>>,
        mut local: Option<&mut Table>,
        id: ValueId,
    ) -> Result<(), RenumberError> {
        let c = self.resolve(scope, id)?;
        if self.count_use(local.as_deref_mut(), c) {
            return Ok(());
        }
        // Frames of constants whose operands are being numbered.
        let mut frames: Vec<(u32, Vec<ValueId>, usize)> = Vec::new();
        let mut in_frames = std::collections::HashSet::new();
        let mut current = c;
        loop {
            let operands = match self.kind(scope, current) {
                Kind::Constant(k) => k.kind.operands(),
                _ => Vec::new(),
            };
            if operands.is_empty() {
                self.push(local.as_deref_mut(), current);
            } else {
                if !in_frames.insert(current) {
                    return Err(RenumberError::ConstantCycle {
                        place: place(self.m, scope.map(|s| s.index)),
                        id: current,
                    });
                }
                frames.push((current, operands, 0));
            }
            // The next operand not numbered yet, finishing frames on the way.
            loop {
                let Some(top) = frames.last_mut() else {
                    return Ok(());
                };
                if top.2 == top.1.len() {
                    let done = top.0;
                    frames.pop();
                    self.push(local.as_deref_mut(), done);
                    continue;
                }
                let op = top.1[top.2];
                top.2 += 1;
                let c = self.resolve(scope, op)?;
                if !self.count_use(local.as_deref_mut(), c) {
                    current = c;
                    break;
                }
            }
        }
    }

    /// Counts a use of `c` if it is numbered; whether it was.
    fn count_use(&mut self, local: Option<&mut Table>, c: u32) -> bool {
        if let Some(&p) = self.values.at.get(&c) {
            self.values.count[p as usize] += 1;
            return true;
        }
        if let Some(t) = local {
            if let Some(&p) = t.at.get(&c) {
                t.count[p as usize] += 1;
                return true;
            }
        }
        false
    }

    fn push(&mut self, local: Option<&mut Table>, c: u32) {
        match local {
            Some(t) => t.push(c),
            None => self.values.push(c),
        }
    }

    /// `EnumerateMetadata`: module metadata `id` after its operands (post
    /// order), a constant wrapper's value numbered on the way.
    fn enumerate_metadata(&mut self, id: MetadataId) -> Result<(), RenumberError> {
        let m = self.m;
        let canon = |p: &Self, id: MetadataId| -> Result<u32, RenumberError> {
            p.md_canon
                .get(id.index())
                .copied()
                .ok_or(RenumberError::UndefinedMetadata {
                    place: "module".into(),
                    id: id.0,
                })
        };
        let first = canon(self, id)?;
        if self.md_at[first as usize] != 0 {
            return Ok(());
        }
        let mut frames: Vec<(u32, Vec<Option<MetadataId>>, usize)> = Vec::new();
        let mut current = first;
        loop {
            self.md_at[current as usize] = NONE;
            let operands = match &m.metadata[current as usize] {
                Metadata::Node { operands, .. } => operands.clone(),
                Metadata::Debug(node) => node.references(),
                Metadata::Value { value, .. } => {
                    self.enumerate_value(None, None, *value)?;
                    Vec::new()
                }
                Metadata::String(_) => Vec::new(),
                Metadata::Unknown { .. } => {
                    return Err(RenumberError::Unsupported {
                        place: "module".into(),
                        what: "metadata of a later LLVM writer",
                    })
                }
            };
            frames.push((current, operands, 0));
            loop {
                let Some(top) = frames.last_mut() else {
                    return Ok(());
                };
                if top.2 == top.1.len() {
                    let done = top.0;
                    frames.pop();
                    self.md_order.push(done);
                    self.md_at[done as usize] = self.md_order.len() as u32;
                    continue;
                }
                let op = top.1[top.2];
                top.2 += 1;
                let Some(op) = op else { continue };
                let c = canon(self, op)?;
                if self.md_at[c as usize] == 0 {
                    current = c;
                    break;
                }
            }
        }
    }

    fn plan(mut self) -> Result<Plan, RenumberError> {
        let m = self.m;
        let n_globals = m.globals.len() + m.functions.len() + m.aliases.len();
        let heads = m
            .globals
            .iter()
            .map(|g| &g.common)
            .chain(m.functions.iter().map(|f| &f.common))
            .chain(m.aliases.iter().map(|a| &a.common));
        for (i, common) in heads.enumerate() {
            let expected = if i < m.globals.len() {
                ModuleValue::Global(i as u32)
            } else if i < m.globals.len() + m.functions.len() {
                ModuleValue::Function((i - m.globals.len()) as u32)
            } else {
                ModuleValue::Alias((i - m.globals.len() - m.functions.len()) as u32)
            };
            if m.value(common.value) != Some(expected) {
                return Err(RenumberError::Unsupported {
                    place: "module".into(),
                    what: "a global value whose ID the value table does not give it",
                });
            }
            self.values.push(common.value.0);
        }
        self.globals = n_globals;
        for g in &m.globals {
            if let Some(init) = g.initializer {
                self.enumerate_value(None, None, init)?;
            }
        }
        for a in &m.aliases {
            self.enumerate_value(None, None, a.aliasee)?;
        }
        for f in &m.functions {
            if let Some(v) = f.prefix_data {
                self.enumerate_value(None, None, v)?;
            }
        }
        for f in &m.functions {
            if let Some(v) = f.prologue_data {
                self.enumerate_value(None, None, v)?;
            }
        }
        for f in &m.functions {
            if let Some(v) = f.personality {
                self.enumerate_value(None, None, v)?;
            }
        }
        for named in &m.named_metadata {
            for &op in &named.operands {
                self.enumerate_metadata(op)?;
            }
        }
        let module_md = m.metadata.len() as u32;
        for f in &m.functions {
            let Some(body) = &f.body else { continue };
            let mut attachments = body.attachments.clone();
            attachments.sort_by_key(|a| a.kind);
            for a in attachments {
                self.enumerate_metadata(a.node)?;
            }
            for block in &body.blocks {
                for inst in &block.instructions {
                    for op in inst.kind.operands() {
                        if let Operand::Metadata(md) = op {
                            if md.0 < module_md {
                                self.enumerate_metadata(md)?;
                            }
                        }
                    }
                    let mut attachments = inst.attachments.clone();
                    attachments.sort_by_key(|a| a.kind);
                    for a in attachments {
                        self.enumerate_metadata(a.node)?;
                    }
                    if let Some(loc) = &inst.debug_loc {
                        if let Some(scope) = loc.scope {
                            self.enumerate_metadata(scope)?;
                            if let Some(at) = loc.inlined_at {
                                self.enumerate_metadata(at)?;
                            }
                        }
                    }
                }
            }
        }
        let start = self.globals;
        let mut values = std::mem::take(&mut self.values);
        self.optimize(None, &mut values, start);
        self.values = values;
        let mut functions = Vec::with_capacity(m.functions.len());
        for (index, f) in m.functions.iter().enumerate() {
            functions.push(match &f.body {
                Some(body) => Some(self.plan_function(index, body)?),
                None => None,
            });
        }
        Ok(Plan {
            canon: self.canon,
            md_canon: self.md_canon,
            values: self.values,
            globals: self.globals,
            md_order: self.md_order,
            md_at: self.md_at,
            functions,
        })
    }

    /// `OptimizeConstants` over `table.order[start..]`.
    fn optimize(&self, scope: Option<&Scope<'m>>, table: &mut Table, start: usize) {
        if table.order.len() < start + 2 || self.preserve {
            return;
        }
        let ty = |c: u32| match self.kind(scope, c) {
            Kind::Constant(k) => k.ty,
            _ => TypeId(u32::MAX),
        };
        let mut entries: Vec<(u32, u32, TypeId)> = table.order[start..]
            .iter()
            .zip(&table.count[start..])
            .map(|(&c, &n)| (c, n, ty(c)))
            .collect();
        entries.sort_by(|a, b| a.2.cmp(&b.2).then(b.1.cmp(&a.1)));
        partition(&mut entries, |e| is_int_or_int_vector(self.m, e.2));
        for (i, (c, n, _)) in entries.into_iter().enumerate() {
            table.order[start + i] = c;
            table.count[start + i] = n;
            table.at.insert(c, (start + i) as u32);
        }
    }

    fn plan_function(
        &mut self,
        index: usize,
        body: &'m FunctionBody,
    ) -> Result<FunctionPlan, RenumberError> {
        let m = self.m;
        let scope = Scope {
            index,
            body,
            canon: canonical_local_constants(m, &self.canon, index, body)?,
        };
        let mut table = Table::default();
        for arg in &body.args {
            table.push(self.resolve(Some(&scope), arg.value)?);
        }
        let first_constant = table.order.len();
        for block in &body.blocks {
            for inst in &block.instructions {
                for op in inst.kind.operands() {
                    let Operand::Value(v) = op else { continue };
                    let c = self.resolve(Some(&scope), v)?;
                    if let Kind::Constant(_) = self.kind(Some(&scope), c) {
                        self.enumerate_value(Some(&scope), Some(&mut table), v)?;
                    }
                }
            }
        }
        self.optimize(Some(&scope), &mut table, first_constant);
        for block in &body.blocks {
            for inst in &block.instructions {
                if let Some(v) = inst.value {
                    table.push(self.resolve(Some(&scope), v)?);
                }
            }
        }
        let module_md = m.metadata.len() as u32;
        let mut md_order = Vec::new();
        let mut md_at = HashMap::new();
        let mut by_value: HashMap<u32, u32> = HashMap::new();
        for block in &body.blocks {
            for inst in &block.instructions {
                for op in inst.kind.operands() {
                    let Operand::Metadata(md) = op else { continue };
                    if md.0 < module_md {
                        continue;
                    }
                    let Some(Metadata::Value { value, .. }) = body.metadata(md, m.metadata.len())
                    else {
                        return Err(RenumberError::Unsupported {
                            place: place(m, Some(index)),
                            what: "function-local metadata that wraps no value",
                        });
                    };
                    let c = self.resolve(Some(&scope), *value)?;
                    if !table.at.contains_key(&c) {
                        return Err(RenumberError::Unsupported {
                            place: place(m, Some(index)),
                            what: "function-local metadata that wraps no argument or instruction",
                        });
                    }
                    let first = *by_value.entry(c).or_insert(md.0);
                    if first == md.0 && !md_at.contains_key(&md.0) {
                        md_at.insert(md.0, md_order.len() as u32);
                        md_order.push(md.0);
                    } else if first != md.0 {
                        let p = md_at[&first];
                        md_at.insert(md.0, p);
                    }
                }
            }
        }
        Ok(FunctionPlan {
            values: table,
            md_order,
            md_at,
            canon: scope.canon,
        })
    }
}

/// The canonical old ID of each module value: the first module constant
/// equal to it (type and form, operands compared by their canonical IDs),
/// itself for a global value.
fn canonical_module_constants(m: &Module) -> Result<Vec<u32>, RenumberError> {
    let n = m.values.len();
    let mut canon = vec![NONE; n];
    let mut visiting = vec![false; n];
    let mut keys: HashMap<Constant, u32> = HashMap::new();
    for (i, v) in m.values.iter().enumerate() {
        if !matches!(v, ModuleValue::Constant(_)) {
            canon[i] = i as u32;
        }
    }
    let constant = |i: usize| match m.values.get(i) {
        Some(ModuleValue::Constant(c)) => m.constants.get(*c as usize),
        _ => None,
    };
    for i in 0..n {
        if canon[i] != NONE {
            continue;
        }
        // Depth-first: operands get their canonical IDs first.
        let mut stack = vec![(i, false)];
        while let Some((j, expanded)) = stack.pop() {
            if canon[j] != NONE {
                continue;
            }
            let Some(c) = constant(j) else {
                return Err(RenumberError::UndefinedValue {
                    place: "module".into(),
                    id: j as u32,
                });
            };
            let ops = c.kind.operands();
            let pending: Vec<usize> = ops
                .iter()
                .map(|o| o.index())
                .filter(|&o| canon.get(o) == Some(&NONE))
                .collect();
            if let Some(&bad) = ops.iter().find(|o| o.index() >= n) {
                return Err(RenumberError::UndefinedValue {
                    place: "module".into(),
                    id: bad.0,
                });
            }
            if !pending.is_empty() {
                if expanded || visiting[j] {
                    return Err(RenumberError::ConstantCycle {
                        place: "module".into(),
                        id: j as u32,
                    });
                }
                visiting[j] = true;
                stack.push((j, true));
                stack.extend(pending.into_iter().map(|o| (o, false)));
                continue;
            }
            let mut key = c.clone();
            key.kind
                .for_each_operand_mut(&mut |o| *o = ValueId(canon[o.index()]));
            canon[j] = *keys.entry(key).or_insert(j as u32);
        }
    }
    Ok(canon)
}

/// The canonical old ID of each local value of a function: a local constant
/// equal to a module constant is that constant, else the first equal local
/// constant; arguments and instructions are themselves.
fn canonical_local_constants(
    m: &Module,
    module_canon: &[u32],
    index: usize,
    body: &FunctionBody,
) -> Result<Vec<u32>, RenumberError> {
    let mut keys: HashMap<Constant, u32> = HashMap::new();
    for (i, v) in m.values.iter().enumerate() {
        if let (ModuleValue::Constant(c), true) = (v, module_canon[i] == i as u32) {
            if let Some(c) = m.constants.get(*c as usize) {
                let mut key = c.clone();
                key.kind
                    .for_each_operand_mut(&mut |o| *o = ValueId(module_canon[o.index()]));
                keys.insert(key, i as u32);
            }
        }
    }
    let first = body.first_value as usize;
    let n = body.values.len();
    let mut canon = vec![NONE; n];
    let mut visiting = vec![false; n];
    for (i, v) in body.values.iter().enumerate() {
        if !matches!(v, LocalValue::Constant(_)) {
            canon[i] = (first + i) as u32;
        }
    }
    let undefined = |id: u32| RenumberError::UndefinedValue {
        place: place(m, Some(index)),
        id,
    };
    let constant = |i: usize| match body.values.get(i) {
        Some(LocalValue::Constant(c)) => body.constants.get(*c as usize),
        _ => None,
    };
    for i in 0..n {
        if canon[i] != NONE {
            continue;
        }
        let mut stack = vec![(i, false)];
        while let Some((j, expanded)) = stack.pop() {
            if canon[j] != NONE {
                continue;
            }
            let c = constant(j).ok_or_else(|| undefined((first + j) as u32))?;
            let mut pending = Vec::new();
            for o in c.kind.operands() {
                if o.index() < module_canon.len() {
                    continue;
                }
                let l = o
                    .index()
                    .checked_sub(first)
                    .filter(|&l| l < n)
                    .ok_or_else(|| undefined(o.0))?;
                if canon[l] == NONE {
                    pending.push(l);
                }
            }
            if !pending.is_empty() {
                if expanded || visiting[j] {
                    return Err(RenumberError::ConstantCycle {
                        place: place(m, Some(index)),
                        id: (first + j) as u32,
                    });
                }
                visiting[j] = true;
                stack.push((j, true));
                stack.extend(pending.into_iter().map(|o| (o, false)));
                continue;
            }
            let mut key = c.clone();
            key.kind.for_each_operand_mut(&mut |o| {
                *o = ValueId(match module_canon.get(o.index()) {
                    Some(&c) => c,
                    None => canon[o.index() - first],
                })
            });
            canon[j] = *keys.entry(key).or_insert((first + j) as u32);
        }
    }
    Ok(canon)
}

impl Plan {
    /// The constants as numbered: the module's, then each function's
    /// (canonical old IDs).
    fn constant_order(&self, m: &Module) -> Vec<Vec<u32>> {
        let mut out = vec![self.values.order[self.globals..].to_vec()];
        for (f, plan) in m.functions.iter().zip(&self.functions) {
            let (Some(body), Some(plan)) = (&f.body, plan) else {
                continue;
            };
            let results = body
                .blocks
                .iter()
                .flat_map(|b| &b.instructions)
                .filter(|i| i.value.is_some())
                .count();
            let end = plan.values.order.len().saturating_sub(results);
            let start = body.args.len().min(end);
            out.push(plan.values.order[start..end].to_vec());
        }
        out
    }

    /// The constants in the model's own order, as [`Plan::constant_order`]
    /// lists them.
    fn model_constant_order(&self, m: &Module) -> Vec<Vec<u32>> {
        let module: Vec<u32> = m
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| matches!(v, ModuleValue::Constant(_)))
            .map(|(i, _)| self.canon[i])
            .collect();
        let mut out = vec![module];
        for (f, plan) in m.functions.iter().zip(&self.functions) {
            let (Some(body), Some(plan)) = (&f.body, plan) else {
                continue;
            };
            out.push(
                body.values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| matches!(v, LocalValue::Constant(_)))
                    .filter_map(|(i, _)| plan.canon.get(i).copied())
                    .collect(),
            );
        }
        out
    }

    fn apply(self, m: &mut Module) -> Result<RenumberStats, RenumberError> {
        let old_module_values = m.values.len();
        let old_md = m.metadata.len();
        let n_new = self.values.order.len() as u32;
        let new_md_len = self.md_order.len() as u32;
        let module_value = |v: ValueId| self.module_value(v);
        let module_md = |id: MetadataId| self.module_md(id);

        // Everything is computed before the model is touched.
        let mut constants = Vec::new();
        for &c in &self.values.order[self.globals..] {
            let Some(ModuleValue::Constant(i)) = m.values.get(c as usize) else {
                return Err(RenumberError::Unsupported {
                    place: "module".into(),
                    what: "a module constant that is a function's",
                });
            };
            let mut k = m.constants[*i as usize].clone();
            let mut err = None;
            k.kind
                .for_each_operand_mut(&mut |o| match module_value(*o) {
                    Ok(n) => *o = n,
                    Err(e) => err = Some(e),
                });
            if let Some(e) = err {
                return Err(e);
            }
            constants.push(k);
        }
        let mut metadata = Vec::with_capacity(self.md_order.len());
        for &old in &self.md_order {
            metadata.push(remap_metadata(
                &m.metadata[old as usize],
                &module_md,
                &|v| module_value(v),
            )?);
        }
        let mut named = m.named_metadata.clone();
        for n in &mut named {
            for op in &mut n.operands {
                *op = module_md(*op)?;
            }
        }
        let mut bodies = Vec::with_capacity(m.functions.len());
        for (index, (f, plan)) in m.functions.iter().zip(&self.functions).enumerate() {
            let (Some(body), Some(plan)) = (&f.body, plan) else {
                bodies.push(None);
                continue;
            };
            bodies.push(Some(
                self.function_body(m, index, body, plan, n_new, new_md_len)?,
            ));
        }
        let mut new_globals = Vec::new();
        for g in &m.globals {
            let mut g = g.clone();
            g.common.value = module_value(g.common.value)?;
            if let Some(i) = &mut g.initializer {
                *i = module_value(*i)?;
            }
            new_globals.push(g);
        }
        let mut new_aliases = Vec::new();
        for a in &m.aliases {
            let mut a = a.clone();
            a.common.value = module_value(a.common.value)?;
            a.aliasee = module_value(a.aliasee)?;
            new_aliases.push(a);
        }
        let mut function_heads = Vec::new();
        for f in &m.functions {
            let value = module_value(f.common.value)?;
            let mut data = [f.prefix_data, f.prologue_data, f.personality];
            for d in data.iter_mut().flatten() {
                *d = module_value(*d)?;
            }
            function_heads.push((value, data));
        }
        let symbol_order: Vec<ValueId> = m
            .symbol_order
            .iter()
            .filter_map(|&v| module_value(v).ok())
            .collect();
        let use_lists = remap_use_lists(&m.use_lists, &|v| module_value(v).ok());

        // Apply.
        let stats = RenumberStats {
            constants_dropped: (old_module_values.saturating_sub(self.globals)
                + local_constants(m))
            .saturating_sub(
                constants.len()
                    + bodies
                        .iter()
                        .flatten()
                        .map(|b: &FunctionBody| b.constants.len())
                        .sum::<usize>(),
            ),
            metadata_dropped: old_md.saturating_sub(metadata.len()),
        };
        let mut values: Vec<ModuleValue> = Vec::with_capacity(self.values.order.len());
        values.extend((0..m.globals.len() as u32).map(ModuleValue::Global));
        values.extend((0..m.functions.len() as u32).map(ModuleValue::Function));
        values.extend((0..m.aliases.len() as u32).map(ModuleValue::Alias));
        values.extend((0..constants.len() as u32).map(ModuleValue::Constant));
        m.values = values;
        m.constants = constants;
        m.metadata = metadata;
        m.named_metadata = named;
        m.globals = new_globals;
        m.aliases = new_aliases;
        m.symbol_order = symbol_order;
        m.use_lists = use_lists;
        for ((f, (value, data)), body) in m.functions.iter_mut().zip(function_heads).zip(bodies) {
            f.common.value = value;
            [f.prefix_data, f.prologue_data, f.personality] = data;
            if body.is_some() {
                f.body = body;
            }
        }
        Ok(stats)
    }

    /// The new ID of module value `v`.
    fn module_value(&self, v: ValueId) -> Result<ValueId, RenumberError> {
        self.canon
            .get(v.index())
            .and_then(|c| self.values.at.get(c))
            .map(|&p| ValueId(p))
            .ok_or(RenumberError::UndefinedValue {
                place: "module".into(),
                id: v.0,
            })
    }

    /// The new ID of module metadata `id`.
    fn module_md(&self, id: MetadataId) -> Result<MetadataId, RenumberError> {
        self.md_canon
            .get(id.index())
            .and_then(|&c| self.md_at.get(c as usize))
            .filter(|&&p| p != 0 && p != NONE)
            .map(|&p| MetadataId(p - 1))
            .ok_or(RenumberError::UndefinedMetadata {
                place: "module".into(),
                id: id.0,
            })
    }

    /// The body of function `index` numbered by `plan`, its first value
    /// `first`, its metadata numbered on from `module_md_len`.
    fn function_body(
        &self,
        m: &Module,
        index: usize,
        body: &FunctionBody,
        plan: &FunctionPlan,
        first: u32,
        module_md_len: u32,
    ) -> Result<FunctionBody, RenumberError> {
        let module_md = |id: MetadataId| self.module_md(id);
        let old_first = body.first_value as usize;
        let undefined = |id: u32| RenumberError::UndefinedValue {
            place: place(m, Some(index)),
            id,
        };
        let canon = |v: ValueId| -> Option<u32> {
            match self.canon.get(v.index()) {
                Some(&c) => Some(c),
                None => plan.canon.get(v.index().checked_sub(old_first)?).copied(),
            }
        };
        let value = |v: ValueId| -> Result<ValueId, RenumberError> {
            let c = canon(v).ok_or_else(|| undefined(v.0))?;
            if let Some(&p) = self.values.at.get(&c) {
                return Ok(ValueId(p));
            }
            plan.values
                .at
                .get(&c)
                .map(|&p| ValueId(first + p))
                .ok_or_else(|| undefined(v.0))
        };
        let old_md = m.metadata.len() as u32;
        let metadata = |id: MetadataId| -> Result<MetadataId, RenumberError> {
            if id.0 < old_md {
                return module_md(id);
            }
            plan.md_at
                .get(&id.0)
                .map(|&p| MetadataId(module_md_len + p))
                .ok_or(RenumberError::UndefinedMetadata {
                    place: place(m, Some(index)),
                    id: id.0,
                })
        };
        let mut out = FunctionBody {
            first_value: first,
            ..FunctionBody::default()
        };
        let n_args = body.args.len();
        let mut args = body.args.clone();
        for (i, a) in args.iter_mut().enumerate() {
            a.value = value(a.value)?;
            out.values.push(LocalValue::Argument(i as u32));
        }
        out.args = args;
        let n_constants = plan.values.order.len()
            - n_args
            - body
                .blocks
                .iter()
                .flat_map(|b| &b.instructions)
                .filter(|i| i.value.is_some())
                .count();
        for (i, &c) in plan.values.order[n_args..n_args + n_constants]
            .iter()
            .enumerate()
        {
            let old = match m.values.get(c as usize) {
                Some(ModuleValue::Constant(k)) => m.constants.get(*k as usize),
                Some(_) => None,
                None => body.constant(ValueId(c)),
            };
            let mut k = old.cloned().ok_or_else(|| undefined(c))?;
            let mut err = None;
            k.kind.for_each_operand_mut(&mut |o| match value(*o) {
                Ok(n) => *o = n,
                Err(e) => err = Some(e),
            });
            if let Some(e) = err {
                return Err(e);
            }
            out.constants.push(k);
            out.values.push(LocalValue::Constant(i as u32));
        }
        let mut blocks = body.blocks.clone();
        for (b, block) in blocks.iter_mut().enumerate() {
            for (i, inst) in block.instructions.iter_mut().enumerate() {
                if let Some(v) = &mut inst.value {
                    *v = value(*v)?;
                    out.values.push(LocalValue::Instruction {
                        block: dxcopy_read::dxil::BlockId(b as u32),
                        index: i as u32,
                    });
                }
                let mut err = None;
                inst.kind.for_each_operand_mut(&mut |o| {
                    let new = match *o {
                        Operand::Value(v) => value(v).map(Operand::Value),
                        Operand::Metadata(md) => metadata(md).map(Operand::Metadata),
                    };
                    match new {
                        Ok(n) => *o = n,
                        Err(e) => err = Some(e),
                    }
                });
                if let Some(e) = err {
                    return Err(e);
                }
                for a in &mut inst.attachments {
                    a.node = module_md(a.node)?;
                }
                if let Some(loc) = &mut inst.debug_loc {
                    for md in [&mut loc.scope, &mut loc.inlined_at].into_iter().flatten() {
                        *md = module_md(*md)?;
                    }
                }
            }
        }
        out.blocks = blocks;
        for &old in &plan.md_order {
            let md = body.metadata(MetadataId(old), m.metadata.len()).ok_or(
                RenumberError::UndefinedMetadata {
                    place: place(m, Some(index)),
                    id: old,
                },
            )?;
            out.metadata
                .push(remap_metadata(md, &metadata, &|v| value(v))?);
        }
        out.attachments = body.attachments.clone();
        for a in &mut out.attachments {
            a.node = module_md(a.node)?;
        }
        out.symbol_order = body
            .symbol_order
            .iter()
            .filter_map(|s| match s {
                Symbol::Value(v) => value(*v).ok().map(Symbol::Value),
                Symbol::Block(b) => Some(Symbol::Block(*b)),
            })
            .collect();
        out.use_lists = remap_use_lists(&body.use_lists, &|v| value(v).ok());
        Ok(out)
    }
}

/// The number of function-local constants in the model.
fn local_constants(m: &Module) -> usize {
    m.functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .map(|b| b.constants.len())
        .sum()
}

/// A metadata entry with its references renumbered.
fn remap_metadata(
    md: &Metadata,
    metadata: &dyn Fn(MetadataId) -> Result<MetadataId, RenumberError>,
    value: &dyn Fn(ValueId) -> Result<ValueId, RenumberError>,
) -> Result<Metadata, RenumberError> {
    let mut md = md.clone();
    match &mut md {
        Metadata::Value { value: v, .. } => *v = value(*v)?,
        Metadata::Node { operands, .. } => {
            for op in operands.iter_mut().flatten() {
                *op = metadata(*op)?;
            }
        }
        Metadata::Debug(node) => {
            let fields = node.reference_fields();
            let refs = node.references();
            for (i, r) in fields.into_iter().zip(refs) {
                let Some(r) = r else { continue };
                let new = u64::from(metadata(r)?.0);
                node.fields[i] = if node.holds_plain_id(i) { new } else { new + 1 };
            }
        }
        Metadata::String(_) | Metadata::Unknown { .. } => {}
    }
    Ok(md)
}

/// Use-list records with their value IDs renumbered (a record of a value
/// that is gone is dropped; a block's record is kept).
fn remap_use_lists(
    lists: &[dxcopy_read::dxil::UseList],
    value: &dyn Fn(ValueId) -> Option<ValueId>,
) -> Vec<dxcopy_read::dxil::UseList> {
    lists
        .iter()
        .filter_map(|l| {
            let mut l = l.clone();
            if !l.block {
                let last = l.fields.last_mut()?;
                *last = u64::from(value(ValueId(u32::try_from(*last).ok()?))?.0);
            }
            Some(l)
        })
        .collect()
}

#[cfg(test)]
mod tests;
