//! The printer: LLVM 3.7's `AssemblyWriter` over the module model, with
//! dxc's annotation writer (docs/format/dxil-listing.md).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::number::{double_text, float_text, half_text};
use super::slots::{
    self, attributes_at, location_key, node_key, node_operands, MdKey, StructTypes, FUNCTION_INDEX,
};
use super::AsmOptions;
use crate::dxil::model::{
    AtomicOrdering, Attribute, BinOp, BlockId, Constant, ConstantKind, FunctionBody, Instruction,
    InstructionKind, Linkage, LocalValue, Metadata, MetadataId, Module, ModuleValue, Operand, Type,
    TypeId, ValueId, Visibility,
};
use crate::dxil::model::{DllStorage, SynchScope, TailCall, ThreadLocal};
use crate::dxil::ops::{self, ResourceProperties};
use crate::dxil::{Bodies, Outline, OutlinedModule};
use std::borrow::Cow;

/// Deepest type nesting printed (a type table with a cycle through literal
/// types cannot come from LLVM): deeper, the listing stops with
/// [`super::AsmError::TooDeep`].
const TYPE_DEPTH: usize = crate::budget::MAX_NESTING;
/// Deepest constant nesting printed (as [`TYPE_DEPTH`]).
const CONSTANT_DEPTH: usize = crate::budget::MAX_NESTING;
/// Column of the `; preds =` comment.
const PREDS_COLUMN: usize = 50;
/// Type and constant nodes a module may print: this many, plus
/// [`NODES_PER_ITEM`] per type, constant and instruction. LLVM prints types
/// and constants inline, so a small hostile module whose literal types or
/// constants share parts at every level would print exponentially much;
/// past the budget the listing stops with [`super::AsmError::TooLarge`].
/// Real modules print a few nodes per operand.
const NODE_BUDGET_BASE: u64 = 1 << 20;
/// See [`NODE_BUDGET_BASE`].
const NODES_PER_ITEM: u64 = 256;
/// How much text a printer with a sink ([`Printer::with_sink`]) holds
/// before it writes it out: the whole listing is never held in memory.
const CHUNK: usize = 16 * 1024;

/// A function being printed: its slots and block uses.
pub(super) struct Local<'m> {
    /// Index into [`Module::functions`].
    pub index: u32,
    /// The body (without instructions when the module was read outlined).
    pub body: &'m FunctionBody,
    /// What the body's instructions are.
    outline: Cow<'m, Outline>,
    /// Unnamed arguments and instructions: their slots by value ID minus
    /// the body's first (`u32::MAX`: none).
    slots: Vec<u32>,
    /// Unnamed blocks' slots.
    block_slots: Vec<Option<u32>>,
    /// Each block's predecessors in LLVM's use-list order.
    preds: Vec<Vec<BlockId>>,
}

impl<'m> Local<'m> {
    fn scope(&self) -> (u32, &'m FunctionBody) {
        (self.index, self.body)
    }

    /// The slot of local value `id`.
    fn slot(&self, id: ValueId) -> Option<u32> {
        let index = id.0.checked_sub(self.body.first_value)?;
        self.slots
            .get(index as usize)
            .copied()
            .filter(|&s| s != u32::MAX)
    }

    /// The number of basic blocks.
    fn block_count(&self) -> usize {
        self.outline.counts.len()
    }

    /// The name of block `index`.
    fn block_name(&self, index: usize) -> Option<&[u8]> {
        let index = u32::try_from(index).ok()?;
        self.outline.block_names.get(&index).map(Vec::as_slice)
    }
}

/// The printer's state: LLVM's TypePrinting and SlotTracker.
pub(super) struct Printer<'m> {
    pub(super) m: &'m Module,
    /// Where an outlined module's instructions are read again (`None`:
    /// the bodies hold them).
    source: Option<&'m dyn Bodies>,
    /// The first error reading instructions again.
    read_error: std::cell::RefCell<Option<crate::bitcode::BitcodeError>>,
    opts: &'m AsmOptions,
    out: String,
    structs: StructTypes,
    global_slots: HashMap<u32, u32>,
    pub(super) md_slots: HashMap<MdKey, u32>,
    md_order: Vec<MdKey>,
    attribute_sets: Vec<Vec<Attribute>>,
    /// Type and constant nodes printed so far.
    nodes: std::cell::Cell<u64>,
    /// The most nodes this module may print (see [`NODE_BUDGET_BASE`]).
    node_budget: u64,
    /// What nested deeper than the printer follows, if anything did: the
    /// listing stops there with an error instead of printing a stand-in.
    too_deep: std::cell::Cell<Option<&'static str>>,
    /// Where the text goes as it is printed, in pieces of about [`CHUNK`]
    /// bytes (`None`: it stays in `out`).
    sink: std::cell::RefCell<Option<&'m mut dyn std::io::Write>>,
    /// The sink's first write error; nothing is written after it.
    sink_error: std::cell::RefCell<Option<std::io::Error>>,
}

/// `PrintEscapedString`: printable ASCII but `\` and `"` as is, the rest
/// as `\XX`.
pub(super) fn escaped(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'\\' && b != b'"' {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "\\{b:02X}");
        }
    }
}

/// `PrintLLVMName`: the name bare after its prefix when it is made of
/// letters, digits, `-`, `.`, `_` and does not start with a digit, else
/// quoted and escaped.
pub(super) fn llvm_name(out: &mut String, prefix: &str, name: &[u8]) {
    out.push_str(prefix);
    let simple = name.first().is_some_and(|c| !c.is_ascii_digit())
        && name
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'_');
    if simple {
        out.extend(name.iter().map(|&b| char::from(b)));
    } else {
        out.push('"');
        escaped(out, name);
        out.push('"');
    }
}

/// `printMetadataIdentifier`: a metadata name or kind.
pub(super) fn metadata_identifier(out: &mut String, name: &[u8]) {
    let Some((&first, rest)) = name.split_first() else {
        out.push_str("<empty name> ");
        return;
    };
    if first.is_ascii_alphabetic() || matches!(first, b'-' | b'$' | b'.' | b'_') {
        out.push(char::from(first));
    } else {
        let _ = write!(out, "\\{first:02X}");
    }
    for &c in rest {
        if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_') {
            out.push(char::from(c));
        } else {
            let _ = write!(out, "\\{c:02X}");
        }
    }
}

fn linkage_text(linkage: Linkage) -> &'static str {
    match linkage {
        Linkage::External => "",
        Linkage::Private => "private ",
        Linkage::Internal => "internal ",
        Linkage::LinkOnceAny => "linkonce ",
        Linkage::LinkOnceOdr => "linkonce_odr ",
        Linkage::WeakAny => "weak ",
        Linkage::WeakOdr => "weak_odr ",
        Linkage::Common => "common ",
        Linkage::Appending => "appending ",
        Linkage::ExternWeak => "extern_weak ",
        Linkage::AvailableExternally => "available_externally ",
    }
}

fn visibility_text(visibility: Visibility) -> &'static str {
    match visibility {
        Visibility::Default => "",
        Visibility::Hidden => "hidden ",
        Visibility::Protected => "protected ",
    }
}

fn dll_text(dll: DllStorage) -> &'static str {
    match dll {
        DllStorage::Default => "",
        DllStorage::Import => "dllimport ",
        DllStorage::Export => "dllexport ",
    }
}

fn thread_local_text(tls: ThreadLocal) -> &'static str {
    match tls {
        ThreadLocal::NotThreadLocal => "",
        ThreadLocal::GeneralDynamic => "thread_local ",
        ThreadLocal::LocalDynamic => "thread_local(localdynamic) ",
        ThreadLocal::InitialExec => "thread_local(initialexec) ",
        ThreadLocal::LocalExec => "thread_local(localexec) ",
    }
}

/// `PrintCallingConv`.
fn calling_conv(out: &mut String, cc: u64) {
    let name = match cc {
        8 => "fastcc",
        9 => "coldcc",
        12 => "webkit_jscc",
        13 => "anyregcc",
        14 => "preserve_mostcc",
        15 => "preserve_allcc",
        10 => "ghccc",
        64 => "x86_stdcallcc",
        65 => "x86_fastcallcc",
        66 => "arm_apcscc",
        67 => "arm_aapcscc",
        68 => "arm_aapcs_vfpcc",
        69 => "msp430_intrcc",
        70 => "x86_thiscallcc",
        71 => "ptx_kernel",
        72 => "ptx_device",
        75 => "spir_func",
        76 => "spir_kernel",
        77 => "intel_ocl_bicc",
        78 => "x86_64_sysvcc",
        79 => "x86_64_win64cc",
        80 => "x86_vectorcallcc",
        _ => {
            let _ = write!(out, "cc{cc}");
            return;
        }
    };
    out.push_str(name);
}

fn ordering_text(ordering: AtomicOrdering) -> &'static str {
    match ordering {
        AtomicOrdering::NotAtomic => "",
        AtomicOrdering::Unordered => " unordered",
        AtomicOrdering::Monotonic => " monotonic",
        AtomicOrdering::Acquire => " acquire",
        AtomicOrdering::Release => " release",
        AtomicOrdering::AcqRel => " acq_rel",
        AtomicOrdering::SeqCst => " seq_cst",
    }
}

fn scope_text(scope: SynchScope) -> &'static str {
    match scope {
        SynchScope::SingleThread => " singlethread",
        SynchScope::CrossThread => "",
    }
}

/// `load`/`store` with its ` atomic` and ` volatile` words.
fn memory_access_head(out: &mut String, name: &str, atomic: bool, volatile: bool) {
    out.push_str(name);
    if atomic {
        out.push_str(" atomic");
    }
    if volatile {
        out.push_str(" volatile");
    }
}

/// What follows a `load`/`store`'s operands: an atomic access's scope and
/// ordering, then `, align N` when the alignment is known.
fn memory_access_tail(
    out: &mut String,
    atomic: Option<&crate::dxil::model::Atomic>,
    alignment: u64,
) {
    if let Some(atomic) = atomic {
        out.push_str(scope_text(atomic.scope));
        out.push_str(ordering_text(atomic.ordering));
    }
    if alignment != 0 {
        let _ = write!(out, ", align {alignment}");
    }
}

/// An attribute as `Attribute::getAsString` spells it.
pub(super) fn attribute_text(out: &mut String, attribute: &Attribute, in_group: bool) {
    match attribute {
        Attribute::Enum(kind) => match kind.name() {
            Some(name) => out.push_str(name),
            None => {
                let _ = write!(out, "<unknown attribute {}>", kind.0);
            }
        },
        Attribute::Int(kind, value) => {
            let name = kind.name().unwrap_or("<unknown attribute>");
            if name == "align" {
                let _ = write!(out, "align{}{value}", if in_group { "=" } else { " " });
            } else if in_group {
                let _ = write!(out, "{name}={value}");
            } else {
                let _ = write!(out, "{name}({value})");
            }
        }
        Attribute::String { key, value } => {
            out.push('"');
            out.extend(key.iter().map(|&b| char::from(b)));
            out.push('"');
            if let Some(value) = value.as_deref().filter(|v| !v.is_empty()) {
                out.push_str("=\"");
                out.extend(value.iter().map(|&b| char::from(b)));
                out.push('"');
            }
        }
    }
}

/// A set's text, space-separated.
fn attributes_text(out: &mut String, attributes: &[Attribute], in_group: bool) {
    for (i, attribute) in attributes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        attribute_text(out, attribute, in_group);
    }
}

/// The decimal value of a two's complement integer of `bits` bits stored
/// in 64-bit words, least significant first.
fn wide_integer_text(words: &[u64], bits: u32) -> String {
    let word_count = usize::try_from(bits.div_ceil(64)).unwrap_or(0).max(1);
    let mut value: Vec<u64> = (0..word_count)
        .map(|i| words.get(i).copied().unwrap_or(0))
        .collect();
    let top_bits = bits % 64;
    if let Some(last) = value.last_mut() {
        if top_bits != 0 {
            let sign = (*last >> (top_bits - 1)) & 1;
            let mask = (1u64 << top_bits) - 1;
            *last = if sign == 1 {
                *last | !mask
            } else {
                *last & mask
            };
        }
    }
    let negative = value.last().is_some_and(|w| w >> 63 == 1);
    if negative {
        // Two's complement negation.
        let mut carry = true;
        for w in &mut value {
            let (sum, overflow) = (!*w).overflowing_add(u64::from(carry));
            *w = sum;
            carry = overflow;
        }
    }
    let mut digits = Vec::new();
    while value.iter().any(|&w| w != 0) {
        let mut remainder: u128 = 0;
        for w in value.iter_mut().rev() {
            let current = (remainder << 64) | u128::from(*w);
            *w = u64::try_from(current / 10).unwrap_or(0);
            remainder = current % 10;
        }
        digits.push(b'0' + u8::try_from(remainder).unwrap_or(0));
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    if negative {
        digits.push(b'-');
    }
    digits.iter().rev().map(|&d| char::from(d)).collect()
}

/// The node budget of `module` (see [`NODE_BUDGET_BASE`]).
fn node_budget(module: &Module, source: Option<&dyn Bodies>) -> u64 {
    let items = module.types.len()
        + module.constants.len()
        + module
            .functions
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((i, f.body.as_ref()?)))
            .map(|(i, b)| {
                let instructions = match source {
                    Some(source) => source
                        .outline(i as u32)
                        .map_or(0, Outline::instruction_count),
                    None => b.instruction_count(),
                };
                b.constants.len() + instructions
            })
            .sum::<usize>();
    NODE_BUDGET_BASE.saturating_add(NODES_PER_ITEM.saturating_mul(items as u64))
}

/// Sign-extends the low `bits` bits of `value`.
fn sign_extend(value: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return value as i64;
    }
    let shift = 64 - bits;
    ((value << shift) as i64) >> shift
}

impl<'m> Printer<'m> {
    /// A printer for `module`, with its struct types found and its module
    /// slots made (`SlotTracker::processModule`).
    pub(super) fn new(module: &'m Module, opts: &'m AsmOptions, out: String) -> Printer<'m> {
        Printer::with_source(module, None, opts, out)
    }

    /// A printer for an outlined module: its instructions are read again
    /// from `source`, one at a time, when they are printed.
    pub(super) fn outlined(
        source: &'m OutlinedModule<'_>,
        opts: &'m AsmOptions,
        out: String,
    ) -> Printer<'m> {
        Printer::with_source(source.module(), Some(source as &dyn Bodies), opts, out)
    }

    fn with_source(
        module: &'m Module,
        source: Option<&'m dyn Bodies>,
        opts: &'m AsmOptions,
        out: String,
    ) -> Printer<'m> {
        let mut read_error = None;
        let structs = slots::struct_types(module, source).unwrap_or_else(|e| {
            read_error = Some(e);
            StructTypes::default()
        });
        let mut printer = Printer {
            m: module,
            source,
            read_error: std::cell::RefCell::new(read_error),
            opts,
            out,
            structs,
            global_slots: HashMap::new(),
            md_slots: HashMap::new(),
            md_order: Vec::new(),
            attribute_sets: Vec::new(),
            nodes: std::cell::Cell::new(0),
            node_budget: node_budget(module, source),
            too_deep: std::cell::Cell::new(None),
            sink: std::cell::RefCell::new(None),
            sink_error: std::cell::RefCell::new(None),
        };
        let mut next = 0u32;
        let unnamed_globals = module
            .globals
            .iter()
            .map(|g| &g.common)
            .chain(module.aliases.iter().map(|a| &a.common))
            .filter(|c| c.name.is_empty())
            .map(|c| c.value)
            .collect::<Vec<_>>();
        for value in unnamed_globals {
            printer.global_slots.insert(value.0, next);
            next += 1;
        }
        for named in &module.named_metadata {
            for op in &named.operands {
                if let Some(key) = node_key(module, None, *op) {
                    printer.create_md_slot(None, key);
                }
            }
        }
        for function in &module.functions {
            if function.common.name.is_empty() {
                printer.global_slots.insert(function.common.value.0, next);
                next += 1;
            }
            let attributes = attributes_at(module, function.attributes, FUNCTION_INDEX);
            printer.create_attribute_slot(attributes);
        }
        printer
    }

    /// The printer with `sink`: the text goes there as it is printed
    /// ([`Printer::flush`]), not into one string. Past the node budget
    /// nothing more is written.
    pub(super) fn with_sink(mut self, sink: &'m mut dyn std::io::Write) -> Printer<'m> {
        self.sink = std::cell::RefCell::new(Some(sink));
        self
    }

    /// With a sink: writes `out` there once it holds [`CHUNK`] bytes (any
    /// amount when `all`), and empties it. Called at line ends only, so
    /// the column of a `; preds =` comment is measured on a whole line.
    pub(super) fn flush(&self, out: &mut String, all: bool) {
        if !all && out.len() < CHUNK {
            return;
        }
        let mut sink = self.sink.borrow_mut();
        let Some(sink) = sink.as_mut() else {
            return;
        };
        if self.sink_error.borrow().is_none() && !self.over_budget() {
            if let Err(e) = sink.write_all(out.as_bytes()) {
                *self.sink_error.borrow_mut() = Some(e);
            }
        }
        out.clear();
    }

    /// The length of the text held so far.
    pub(super) fn text_len(&self) -> usize {
        self.out.len()
    }

    /// The sink's write error, if one happened.
    pub(super) fn take_sink_error(&self) -> Option<std::io::Error> {
        self.sink_error.borrow_mut().take()
    }

    /// Whether the ` ; var:` comment names the function.
    pub(super) fn variable_function(&self) -> bool {
        self.opts.variable_function
    }

    /// The text (what was given to [`Printer::new`] and what was printed
    /// after it), and the node budget's error if it was spent.
    pub(super) fn into_text(self) -> (String, Result<(), super::AsmError>) {
        let result = if let Some(e) = self.read_error.take() {
            Err(super::AsmError::Read(e))
        } else if let Some(what) = self.too_deep.get() {
            Err(super::AsmError::TooDeep {
                what,
                limit: crate::budget::MAX_NESTING,
            })
        } else if self.over_budget() {
            Err(super::AsmError::TooLarge {
                nodes: self.node_budget,
            })
        } else {
            Ok(())
        };
        (self.out, result)
    }

    /// Counts one printed node; `true` once the budget is spent.
    fn spend(&self) -> bool {
        let used = self.nodes.get().saturating_add(1);
        self.nodes.set(used);
        used > self.node_budget
    }

    fn over_budget(&self) -> bool {
        self.nodes.get() > self.node_budget || self.too_deep.get().is_some()
    }

    /// Notes that `what` nests deeper than the printer follows; what is
    /// printed after that is never written.
    fn nested_too_deep(&self, what: &'static str) {
        if self.too_deep.get().is_none() {
            self.too_deep.set(Some(what));
        }
    }

    fn create_attribute_slot(&mut self, attributes: Vec<Attribute>) {
        if !attributes.is_empty() && !self.attribute_sets.contains(&attributes) {
            self.attribute_sets.push(attributes);
        }
    }

    fn attribute_slot(&self, attributes: &[Attribute]) -> Option<usize> {
        self.attribute_sets.iter().position(|a| a == attributes)
    }

    /// `CreateMetadataSlot`: the node, then the nodes it refers to, depth
    /// first.
    fn create_md_slot(&mut self, function: Option<(u32, &'m FunctionBody)>, key: MdKey) {
        if self.md_slots.contains_key(&key) {
            return;
        }
        let mut frames: Vec<(Vec<Option<MetadataId>>, usize)> = Vec::new();
        self.md_slots
            .insert(key, u32::try_from(self.md_order.len()).unwrap_or(u32::MAX));
        self.md_order.push(key);
        frames.push((node_operands(self.m, function, key), 0));
        while let Some((operands, position)) = frames.last_mut() {
            let Some(&operand) = operands.get(*position) else {
                frames.pop();
                continue;
            };
            *position += 1;
            let Some(key) = operand.and_then(|op| node_key(self.m, function, op)) else {
                continue;
            };
            if self.md_slots.contains_key(&key) {
                continue;
            }
            self.md_slots
                .insert(key, u32::try_from(self.md_order.len()).unwrap_or(u32::MAX));
            self.md_order.push(key);
            frames.push((node_operands(self.m, function, key), 0));
        }
    }

    /// `SlotTracker::processFunction` for function `index`: the slots of
    /// its arguments, blocks and instructions, and its attachments'
    /// metadata. The metadata and attribute slots of each instruction are
    /// made just before it is printed ([`Printer::prepare_instruction`]),
    /// in the order LLVM makes them.
    fn incorporate_function(&mut self, index: u32, body: &'m FunctionBody) -> Local<'m> {
        let module = self.m;
        let scope = Some((index, body));
        let outline = match self.source.and_then(|s| s.outline(index)) {
            Some(outline) => Cow::Borrowed(outline),
            None => Cow::Owned(Outline::of(body)),
        };
        let mut slots = vec![u32::MAX; outline.types.len()];
        let set_slot = |slots: &mut Vec<u32>, id: u32, slot: u32| {
            if let Some(entry) = id
                .checked_sub(body.first_value)
                .and_then(|i| slots.get_mut(i as usize))
            {
                *entry = slot;
            }
        };
        let mut next = 0u32;
        for argument in &body.args {
            if argument.name.is_none() {
                set_slot(&mut slots, argument.value.0, next);
                next += 1;
            }
        }
        // Function metadata: attachments, then per instruction the nodes an
        // intrinsic call takes and the instruction's attachments.
        let mut function_attachments = body.attachments.clone();
        function_attachments.sort_by_key(|a| a.kind);
        for attachment in function_attachments {
            if let Some(key) = node_key(module, scope, attachment.node) {
                self.create_md_slot(scope, key);
            }
        }
        let mut block_slots = Vec::with_capacity(outline.counts.len());
        let mut results = outline.results.iter();
        for (block, count) in outline.counts.iter().enumerate() {
            if !outline.block_names.contains_key(&(block as u32)) {
                block_slots.push(Some(next));
                next += 1;
            } else {
                block_slots.push(None);
            }
            for &result in results.by_ref().take(*count as usize) {
                let named = outline.names.contains_key(&result);
                let has_result = result != u32::MAX
                    && self
                        .value_type_of(&outline, body, ValueId(result))
                        .is_some_and(|ty| !matches!(self.m.ty(ty), Some(Type::Void)));
                if !named && has_result {
                    set_slot(&mut slots, result, next);
                    next += 1;
                }
            }
        }
        let preds = predecessors(&outline);
        Local {
            index,
            body,
            outline,
            slots,
            block_slots,
            preds,
        }
    }

    /// The metadata and attribute slots `instruction` makes
    /// (`SlotTracker::processFunction`'s loop body).
    fn prepare_instruction(&mut self, local: &Local<'m>, instruction: &Instruction) {
        let module = self.m;
        let scope = Some(local.scope());
        if let InstructionKind::Call { callee, args, .. } = &instruction.kind {
            if self
                .callee_name(*callee)
                .is_some_and(|n| n.starts_with(b"llvm."))
            {
                for arg in args {
                    if let Operand::Metadata(id) = arg {
                        if let Some(key) = node_key(module, scope, *id) {
                            self.create_md_slot(scope, key);
                        }
                    }
                }
            }
        }
        if let Some(key) = instruction.debug_loc.as_ref().and_then(location_key) {
            self.create_md_slot(scope, key);
        }
        for attachment in sorted_attachments(instruction) {
            if let Some(key) = node_key(module, scope, attachment.node) {
                self.create_md_slot(scope, key);
            }
        }
        if let InstructionKind::Call { attributes, .. } = &instruction.kind {
            let set = attributes_at(module, *attributes, FUNCTION_INDEX);
            self.create_attribute_slot(set);
        }
    }

    /// The type of local value `id` in a body and its outline.
    fn value_type_of(&self, outline: &Outline, body: &FunctionBody, id: ValueId) -> Option<TypeId> {
        let index = id.0.checked_sub(body.first_value)?;
        outline
            .types
            .get(index as usize)
            .copied()
            .filter(|t| t.0 != u32::MAX)
    }

    fn has_result(&self, instruction: &Instruction) -> bool {
        instruction
            .ty
            .is_some_and(|ty| !matches!(self.m.ty(ty), Some(Type::Void)))
    }

    /// The name of the function a call calls directly.
    pub(super) fn callee_name(&self, callee: Operand) -> Option<&'m [u8]> {
        let Operand::Value(id) = callee else {
            return None;
        };
        match self.m.value(id)? {
            ModuleValue::Function(i) => Some(&self.m.functions.get(i as usize)?.common.name),
            _ => None,
        }
    }

    // ------------------------------------------------------------ types

    /// `TypePrinting::print`.
    pub(super) fn type_text(&self, out: &mut String, ty: TypeId) {
        self.type_at_depth(out, ty, 0);
    }

    fn type_at_depth(&self, out: &mut String, ty: TypeId, depth: usize) {
        if self.spend() {
            return;
        }
        if depth > TYPE_DEPTH {
            self.nested_too_deep("types");
            return;
        }
        let Some(t) = self.m.ty(ty) else {
            let _ = write!(out, "<invalid type #{}>", ty.0);
            return;
        };
        match t {
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
            Type::Integer { bits } => {
                let _ = write!(out, "i{bits}");
            }
            Type::Function(f) => {
                self.type_at_depth(out, f.ret, depth + 1);
                out.push_str(" (");
                for (i, param) in f.params.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.type_at_depth(out, *param, depth + 1);
                }
                if f.vararg {
                    if !f.params.is_empty() {
                        out.push_str(", ");
                    }
                    out.push_str("...");
                }
                out.push(')');
            }
            Type::Struct(st) => match &st.name {
                None => self.struct_body(out, ty, depth + 1),
                Some(name) if !name.is_empty() => llvm_name(out, "%", name),
                Some(_) => match self.structs.numbered.get(&ty) {
                    Some(n) => {
                        let _ = write!(out, "%{n}");
                    }
                    None => {
                        let _ = write!(out, "%\"type {}\"", ty.0);
                    }
                },
            },
            Type::Pointer {
                pointee,
                address_space,
            } => {
                self.type_at_depth(out, *pointee, depth + 1);
                if *address_space != 0 {
                    let _ = write!(out, " addrspace({address_space})");
                }
                out.push('*');
            }
            Type::Array { len, element } => {
                let _ = write!(out, "[{len} x ");
                self.type_at_depth(out, *element, depth + 1);
                out.push(']');
            }
            Type::Vector { len, element } => {
                let _ = write!(out, "<{len} x ");
                self.type_at_depth(out, *element, depth + 1);
                out.push('>');
            }
            // Only later LLVM writers' modules have it; LLVM 3.7 has no
            // spelling: the later one.
            Type::OpaquePointer { address_space } => {
                out.push_str("ptr");
                if *address_space != 0 {
                    let _ = write!(out, " addrspace({address_space})");
                }
            }
        }
    }

    /// `TypePrinting::printStructBody`.
    fn struct_body(&self, out: &mut String, ty: TypeId, depth: usize) {
        let Some(Type::Struct(st)) = self.m.ty(ty) else {
            return;
        };
        let Some(body) = &st.body else {
            out.push_str("opaque");
            return;
        };
        if st.packed {
            out.push('<');
        }
        if body.is_empty() {
            out.push_str("{}");
        } else {
            out.push_str("{ ");
            for (i, element) in body.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                self.type_at_depth(out, *element, depth + 1);
            }
            out.push_str(" }");
        }
        if st.packed {
            out.push('>');
        }
    }

    fn pointee(&self, ty: Option<TypeId>) -> Option<TypeId> {
        match self.m.ty(ty?)? {
            Type::Pointer { pointee, .. } => Some(*pointee),
            Type::Vector { element, .. } => match self.m.ty(*element)? {
                Type::Pointer { pointee, .. } => Some(*pointee),
                _ => None,
            },
            _ => None,
        }
    }

    // ------------------------------------------------------------ values

    /// The type of a value in `local`'s scope.
    pub(super) fn value_type(&self, local: Option<&Local>, id: ValueId) -> Option<TypeId> {
        if id.index() < self.m.values.len() {
            return self.m.value_type(id);
        }
        let local = local?;
        self.value_type_of(&local.outline, local.body, id)
    }

    fn constant_of(&self, local: Option<&Local<'m>>, id: ValueId) -> Option<&'m Constant> {
        if id.index() < self.m.values.len() {
            self.m.constant(id)
        } else {
            local?.body.constant(id)
        }
    }

    /// `WriteAsOperandInternal` for a value.
    pub(super) fn value_ref(&self, out: &mut String, local: Option<&Local<'m>>, id: ValueId) {
        self.value_ref_at(out, local, id, 0);
    }

    fn value_ref_at(&self, out: &mut String, local: Option<&Local<'m>>, id: ValueId, depth: usize) {
        if id.index() < self.m.values.len() {
            match self.m.value(id) {
                Some(ModuleValue::Constant(i)) => match self.m.constants.get(i as usize) {
                    Some(c) => self.constant_at(out, local, c, depth),
                    None => out.push_str("<badref>"),
                },
                Some(_) => {
                    let name = self.m.global_name(id).unwrap_or_default();
                    if !name.is_empty() {
                        llvm_name(out, "@", name);
                    } else if let Some(slot) = self.global_slots.get(&id.0) {
                        let _ = write!(out, "@{slot}");
                    } else {
                        out.push_str("<badref>");
                    }
                }
                None => out.push_str("<badref>"),
            }
            return;
        }
        let Some(local) = local else {
            out.push_str("<badref>");
            return;
        };
        let name = match local.body.local(id) {
            Some(LocalValue::Argument(i)) => local
                .body
                .args
                .get(i as usize)
                .and_then(|a| a.name.as_deref()),
            Some(LocalValue::Instruction { .. }) => {
                local.outline.names.get(&id.0).map(Vec::as_slice)
            }
            Some(LocalValue::Constant(i)) => {
                match local.body.constants.get(i as usize) {
                    Some(c) => self.constant_at(out, Some(local), c, depth),
                    None => out.push_str("<badref>"),
                }
                return;
            }
            None => {
                out.push_str("<badref>");
                return;
            }
        };
        match name {
            Some(name) => llvm_name(out, "%", name),
            None => match local.slot(id) {
                Some(slot) => {
                    let _ = write!(out, "%{slot}");
                }
                None => out.push_str("<badref>"),
            },
        }
    }

    /// `writeOperand(V, true)`: type, space, value.
    fn typed_value(&self, out: &mut String, local: Option<&Local<'m>>, id: ValueId) {
        self.typed_value_at(out, local, id, 0);
    }

    fn typed_value_at(
        &self,
        out: &mut String,
        local: Option<&Local<'m>>,
        id: ValueId,
        depth: usize,
    ) {
        match self.value_type(local, id) {
            Some(ty) => self.type_text(out, ty),
            None => out.push_str("<unknown type>"),
        }
        out.push(' ');
        self.value_ref_at(out, local, id, depth);
    }

    /// Whether a constant is LLVM's null value of its type (what makes an
    /// aggregate of them a `zeroinitializer`).
    fn is_null(&self, local: Option<&Local<'m>>, id: ValueId, depth: usize) -> bool {
        if depth > CONSTANT_DEPTH {
            return false;
        }
        let Some(c) = self.constant_of(local, id) else {
            return false;
        };
        match &c.kind {
            ConstantKind::Null => true,
            ConstantKind::Integer(v) => *v == 0,
            ConstantKind::WideInteger(words) => words.iter().all(|&w| w == 0),
            ConstantKind::Float(bits) => *bits == 0,
            ConstantKind::WideFloat(words) => words.iter().all(|&w| w == 0),
            ConstantKind::Aggregate(elements) => {
                elements.iter().all(|e| self.is_null(local, *e, depth + 1))
            }
            ConstantKind::String { bytes, .. } => bytes.iter().all(|&b| b == 0),
            ConstantKind::Data(elements) => elements.iter().all(|&e| e == 0),
            _ => false,
        }
    }

    fn is_undef(&self, local: Option<&Local<'m>>, id: ValueId, depth: usize) -> bool {
        if depth > CONSTANT_DEPTH {
            return false;
        }
        match self.constant_of(local, id).map(|c| &c.kind) {
            Some(ConstantKind::Undef) => true,
            Some(ConstantKind::Aggregate(elements)) => {
                !elements.is_empty() && elements.iter().all(|e| self.is_undef(local, *e, depth + 1))
            }
            _ => false,
        }
    }

    fn float_of_type(&self, out: &mut String, ty: TypeId, bits: u64) {
        match self.m.ty(ty) {
            Some(Type::Half) => out.push_str(&half_text(bits as u16)),
            Some(Type::Float) => out.push_str(&float_text(bits as u32)),
            _ => out.push_str(&double_text(bits)),
        }
    }

    fn integer_bits(&self, ty: TypeId) -> Option<u32> {
        match self.m.ty(ty)? {
            Type::Integer { bits } => Some(*bits),
            _ => None,
        }
    }

    fn element_type(&self, ty: TypeId) -> Option<TypeId> {
        match self.m.ty(ty)? {
            Type::Array { element, .. } | Type::Vector { element, .. } => Some(*element),
            _ => None,
        }
    }

    fn c_string(out: &mut String, bytes: &[u8]) {
        out.push_str("c\"");
        escaped(out, bytes);
        out.push('"');
    }

    /// `WriteConstantInternal`.
    ///
    /// Long: one arm per constant form, as LLVM's function of that name has,
    /// so the two can be read side by side.
    fn constant_at(&self, out: &mut String, local: Option<&Local<'m>>, c: &Constant, depth: usize) {
        if self.spend() {
            return;
        }
        if depth > CONSTANT_DEPTH {
            self.nested_too_deep("constants");
            return;
        }
        let ty = self.m.ty(c.ty);
        match &c.kind {
            ConstantKind::Null => match ty {
                Some(Type::Integer { bits: 1 }) => out.push_str("false"),
                Some(Type::Integer { .. }) => out.push('0'),
                Some(Type::Half | Type::Float | Type::Double) => self.float_of_type(out, c.ty, 0),
                Some(Type::Pointer { .. }) => out.push_str("null"),
                _ => out.push_str("zeroinitializer"),
            },
            ConstantKind::Undef => out.push_str("undef"),
            ConstantKind::Integer(v) => {
                if matches!(ty, Some(Type::Integer { bits: 1 })) {
                    out.push_str(if *v != 0 { "true" } else { "false" });
                } else {
                    let _ = write!(out, "{v}");
                }
            }
            ConstantKind::WideInteger(words) => {
                let bits = self.integer_bits(c.ty).unwrap_or(64);
                out.push_str(&wide_integer_text(words, bits));
            }
            ConstantKind::Float(bits) => self.float_of_type(out, c.ty, *bits),
            ConstantKind::WideFloat(words) => {
                let (letter, digits) = match ty {
                    Some(Type::X86Fp80) => {
                        ('K', format!("{:04X}{:016X}", words[1] & 0xffff, words[0]))
                    }
                    Some(Type::PpcFp128) => ('M', format!("{:016X}{:016X}", words[0], words[1])),
                    _ => ('L', format!("{:016X}{:016X}", words[0], words[1])),
                };
                let _ = write!(out, "0x{letter}{digits}");
            }
            ConstantKind::Aggregate(elements) => {
                self.aggregate(out, local, c, elements, depth);
            }
            ConstantKind::String { bytes, .. } => {
                if bytes.iter().all(|&b| b == 0) {
                    out.push_str("zeroinitializer");
                } else {
                    Self::c_string(out, bytes);
                }
            }
            ConstantKind::Data(elements) => {
                if elements.iter().all(|&e| e == 0) {
                    out.push_str("zeroinitializer");
                    return;
                }
                let element = self.element_type(c.ty);
                let element_bits = element.and_then(|e| self.integer_bits(e));
                let is_vector = matches!(ty, Some(Type::Vector { .. }));
                if element_bits == Some(8) && !is_vector {
                    let bytes: Vec<u8> = elements.iter().map(|&e| e as u8).collect();
                    Self::c_string(out, &bytes);
                    return;
                }
                out.push(if is_vector { '<' } else { '[' });
                for (i, &e) in elements.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match element {
                        Some(el) => {
                            self.type_text(out, el);
                            out.push(' ');
                            match element_bits {
                                Some(1) => out.push_str(if e & 1 != 0 { "true" } else { "false" }),
                                Some(bits) => {
                                    let _ = write!(out, "{}", sign_extend(e, bits));
                                }
                                None => self.float_of_type(out, el, e),
                            }
                        }
                        None => out.push_str("<invalid>"),
                    }
                }
                out.push(if is_vector { '>' } else { ']' });
            }
            ConstantKind::Cast { op, value } => {
                let _ = write!(out, "{} (", op.name());
                self.typed_value_at(out, local, *value, depth + 1);
                out.push_str(" to ");
                self.type_text(out, c.ty);
                out.push(')');
            }
            ConstantKind::BinOp {
                op,
                lhs,
                rhs,
                flags,
            } => {
                out.push_str(op.name());
                binop_flags(out, *op, flags.nuw, flags.nsw, flags.exact);
                out.push_str(" (");
                self.typed_value_at(out, local, *lhs, depth + 1);
                out.push_str(", ");
                self.typed_value_at(out, local, *rhs, depth + 1);
                out.push(')');
            }
            ConstantKind::GetElementPtr {
                inbounds,
                source_type,
                operands,
            } => {
                out.push_str("getelementptr");
                if *inbounds {
                    out.push_str(" inbounds");
                }
                out.push_str(" (");
                let source = operands
                    .first()
                    .and_then(|p| self.pointee(self.value_type(local, *p)))
                    .or(*source_type);
                match source {
                    Some(source) => self.type_text(out, source),
                    None => out.push_str("<unknown type>"),
                }
                out.push_str(", ");
                self.constant_operand_list(out, local, operands, depth);
                out.push(')');
            }
            ConstantKind::Select {
                condition,
                if_true,
                if_false,
            } => {
                out.push_str("select (");
                self.constant_operand_list(out, local, &[*condition, *if_true, *if_false], depth);
                out.push(')');
            }
            ConstantKind::ExtractElement { vector, index } => {
                out.push_str("extractelement (");
                self.constant_operand_list(out, local, &[*vector, *index], depth);
                out.push(')');
            }
            ConstantKind::InsertElement {
                vector,
                element,
                index,
            } => {
                out.push_str("insertelement (");
                self.constant_operand_list(out, local, &[*vector, *element, *index], depth);
                out.push(')');
            }
            ConstantKind::ShuffleVector {
                first,
                second,
                mask,
            } => {
                out.push_str("shufflevector (");
                self.constant_operand_list(out, local, &[*first, *second, *mask], depth);
                out.push(')');
            }
            ConstantKind::Compare {
                predicate,
                lhs,
                rhs,
            } => {
                let _ = write!(
                    out,
                    "{} {} (",
                    if predicate.is_float() { "fcmp" } else { "icmp" },
                    predicate.name().unwrap_or("unknown")
                );
                self.constant_operand_list(out, local, &[*lhs, *rhs], depth);
                out.push(')');
            }
            ConstantKind::BlockAddress { function, block } => {
                out.push_str("blockaddress(");
                self.value_ref_at(out, local, *function, depth + 1);
                let _ = write!(out, ", %{})", block.0);
            }
            ConstantKind::InlineAsm {
                side_effect,
                align_stack,
                dialect,
                asm,
                constraints,
            } => {
                out.push_str("asm ");
                if *side_effect {
                    out.push_str("sideeffect ");
                }
                if *align_stack {
                    out.push_str("alignstack ");
                }
                if *dialect == 1 {
                    out.push_str("inteldialect ");
                }
                out.push('"');
                escaped(out, asm);
                out.push_str("\", \"");
                escaped(out, constraints);
                out.push('"');
            }
        }
    }

    fn constant_operand_list(
        &self,
        out: &mut String,
        local: Option<&Local<'m>>,
        operands: &[ValueId],
        depth: usize,
    ) {
        for (i, op) in operands.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.typed_value_at(out, local, *op, depth + 1);
        }
    }

    fn aggregate(
        &self,
        out: &mut String,
        local: Option<&Local<'m>>,
        c: &Constant,
        elements: &[ValueId],
        depth: usize,
    ) {
        let ty = self.m.ty(c.ty);
        if elements.iter().all(|e| self.is_null(local, *e, depth + 1)) {
            out.push_str("zeroinitializer");
            return;
        }
        if !elements.is_empty() && elements.iter().all(|e| self.is_undef(local, *e, depth + 1)) {
            out.push_str("undef");
            return;
        }
        match ty {
            Some(Type::Struct(st)) => {
                if st.packed {
                    out.push('<');
                }
                out.push('{');
                if !elements.is_empty() {
                    out.push(' ');
                    self.constant_operand_list(out, local, elements, depth);
                    out.push(' ');
                }
                out.push('}');
                if st.packed {
                    out.push('>');
                }
            }
            Some(Type::Array { element, .. }) => {
                // An i8 array of plain integers is a ConstantDataArray: a string.
                if self.integer_bits(*element) == Some(8) {
                    let bytes: Option<Vec<u8>> = elements
                        .iter()
                        .map(|e| match self.constant_of(local, *e).map(|c| &c.kind) {
                            Some(ConstantKind::Integer(v)) => Some(*v as u8),
                            Some(ConstantKind::Null) => Some(0),
                            _ => None,
                        })
                        .collect();
                    if let Some(bytes) = bytes {
                        Self::c_string(out, &bytes);
                        return;
                    }
                }
                out.push('[');
                self.constant_operand_list(out, local, elements, depth);
                out.push(']');
            }
            Some(Type::Vector { .. }) => {
                out.push('<');
                self.constant_operand_list(out, local, elements, depth);
                out.push('>');
            }
            _ => out.push_str("<placeholder or erroneous Constant>"),
        }
    }

    /// A metadata operand as `WriteAsOperandInternal(Metadata)` prints it.
    pub(super) fn metadata_ref(&self, out: &mut String, local: Option<&Local<'m>>, id: MetadataId) {
        let scope = local.map(|l| l.scope());
        match slots::metadata_entry(self.m, scope, id) {
            Some(Metadata::String(s)) => {
                out.push_str("!\"");
                escaped(out, s);
                out.push('"');
            }
            Some(Metadata::Value { value, .. }) => self.typed_value(out, local, *value),
            Some(Metadata::Node { .. } | Metadata::Debug(_)) => {
                match node_key(self.m, scope, id).and_then(|k| self.md_slots.get(&k)) {
                    Some(slot) => {
                        let _ = write!(out, "!{slot}");
                    }
                    None => out.push_str("<badref>"),
                }
            }
            Some(Metadata::Unknown { code, .. }) => {
                let _ = write!(out, "<unknown metadata record {code}>");
            }
            None => out.push_str("<badref>"),
        }
    }

    fn md_key_ref(&self, out: &mut String, key: MdKey) {
        match self.md_slots.get(&key) {
            Some(slot) => {
                let _ = write!(out, "!{slot}");
            }
            None => out.push_str("<badref>"),
        }
    }

    // ------------------------------------------------------------ module

    /// `AssemblyWriter::printModule`.
    pub(super) fn print_module(&mut self) {
        let m = self.m;
        let mut out = std::mem::take(&mut self.out);
        if let Some(layout) = m.data_layout.as_deref().filter(|d| !d.is_empty()) {
            let _ = writeln!(out, "target datalayout = \"{layout}\"");
        }
        if let Some(triple) = m.triple.as_deref().filter(|t| !t.is_empty()) {
            let _ = writeln!(out, "target triple = \"{triple}\"");
        }
        if let Some(asm) = m.inline_asm.as_deref().filter(|a| !a.is_empty()) {
            out.push('\n');
            let mut rest = asm;
            loop {
                let (line, next) = match rest.iter().position(|&b| b == b'\n') {
                    Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                    None => (rest, None),
                };
                out.push_str("module asm \"");
                escaped(&mut out, line);
                out.push_str("\"\n");
                match next {
                    Some(next) if !next.is_empty() => rest = next,
                    _ => break,
                }
            }
        }
        self.type_identities(&mut out);
        self.comdats(&mut out);
        if !m.globals.is_empty() {
            out.push('\n');
        }
        for global in &m.globals {
            self.global(&mut out, global);
            out.push('\n');
            self.flush(&mut out, false);
        }
        if !m.aliases.is_empty() {
            out.push('\n');
        }
        for alias in &m.aliases {
            self.alias(&mut out, alias);
        }
        for (index, function) in m.functions.iter().enumerate() {
            self.function(&mut out, u32::try_from(index).unwrap_or(u32::MAX), function);
            self.flush(&mut out, false);
        }
        if !self.attribute_sets.is_empty() {
            out.push('\n');
            for (slot, set) in self.attribute_sets.iter().enumerate() {
                let _ = write!(out, "attributes #{slot} = {{ ");
                attributes_text(&mut out, set, true);
                out.push_str(" }\n");
            }
        }
        if !m.named_metadata.is_empty() {
            out.push('\n');
        }
        for named in &m.named_metadata {
            out.push('!');
            metadata_identifier(&mut out, &named.name);
            out.push_str(" = !{");
            for (i, op) in named.operands.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                match node_key(m, None, *op).and_then(|k| self.md_slots.get(&k)) {
                    Some(slot) => {
                        let _ = write!(out, "!{slot}");
                    }
                    None => out.push_str("<badref>"),
                }
            }
            out.push_str("}\n");
        }
        if !self.md_order.is_empty() {
            out.push('\n');
            for (slot, key) in self.md_order.iter().enumerate() {
                let _ = write!(out, "!{slot} = ");
                self.md_node_body(&mut out, *key);
                out.push('\n');
                self.flush(&mut out, false);
            }
        }
        self.flush(&mut out, true);
        self.out = out;
    }

    fn type_identities(&self, out: &mut String) {
        if self.structs.numbered_order.is_empty() && self.structs.named.is_empty() {
            return;
        }
        out.push('\n');
        for (i, ty) in self.structs.numbered_order.iter().enumerate() {
            let _ = write!(out, "%{i} = type ");
            self.struct_body(out, *ty, 0);
            out.push('\n');
        }
        for ty in &self.structs.named {
            if let Some(Type::Struct(st)) = self.m.ty(*ty) {
                llvm_name(out, "%", st.name.as_deref().unwrap_or_default());
            }
            out.push_str(" = type ");
            self.struct_body(out, *ty, 0);
            out.push('\n');
        }
    }

    /// Comdats in the order the writer collects them (functions, then
    /// globals).
    fn comdats(&self, out: &mut String) {
        let mut used: Vec<u64> = Vec::new();
        for comdat in self
            .m
            .functions
            .iter()
            .map(|f| f.common.comdat)
            .chain(self.m.globals.iter().map(|g| g.common.comdat))
        {
            if comdat != 0 && !used.contains(&comdat) {
                used.push(comdat);
            }
        }
        if used.is_empty() {
            return;
        }
        out.push('\n');
        for (i, index) in used.iter().enumerate() {
            let Some(comdat) = usize::try_from(index - 1)
                .ok()
                .and_then(|i| self.m.comdats.get(i))
            else {
                continue;
            };
            llvm_name(out, "$", &comdat.name);
            out.push_str(" = comdat ");
            out.push_str(match comdat.selection_kind {
                2 => "exactmatch",
                3 => "largest",
                4 => "noduplicates",
                5 => "samesize",
                _ => "any",
            });
            out.push('\n');
            if i + 1 != used.len() {
                out.push('\n');
            }
        }
    }

    fn comdat_suffix(&self, out: &mut String, comdat: u64, own_name: &[u8], is_variable: bool) {
        let Some(c) = comdat
            .checked_sub(1)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.m.comdats.get(i))
        else {
            return;
        };
        if is_variable {
            out.push(',');
        }
        out.push_str(" comdat");
        if c.name != own_name {
            out.push('(');
            llvm_name(out, "$", &c.name);
            out.push(')');
        }
    }

    fn global(&self, out: &mut String, g: &crate::dxil::model::GlobalVariable) {
        self.value_ref(out, None, g.common.value);
        out.push_str(" = ");
        if g.initializer.is_none() && g.common.linkage == Linkage::External {
            out.push_str("external ");
        }
        out.push_str(linkage_text(g.common.linkage));
        out.push_str(visibility_text(g.common.visibility));
        out.push_str(dll_text(g.common.dll_storage));
        out.push_str(thread_local_text(g.thread_local));
        if g.common.unnamed_addr {
            out.push_str("unnamed_addr ");
        }
        if g.address_space != 0 {
            let _ = write!(out, "addrspace({}) ", g.address_space);
        }
        if g.externally_initialized {
            out.push_str("externally_initialized ");
        }
        out.push_str(if g.is_constant {
            "constant "
        } else {
            "global "
        });
        self.type_text(out, g.value_type);
        if let Some(init) = g.initializer {
            out.push(' ');
            self.value_ref(out, None, init);
        }
        if let Some(section) = &g.section {
            out.push_str(", section \"");
            escaped(out, section);
            out.push('"');
        }
        self.comdat_suffix(out, g.common.comdat, &g.common.name, true);
        if g.alignment != 0 {
            let _ = write!(out, ", align {}", g.alignment);
        }
    }

    fn alias(&self, out: &mut String, a: &crate::dxil::model::Alias) {
        self.value_ref(out, None, a.common.value);
        out.push_str(" = ");
        out.push_str(linkage_text(a.common.linkage));
        out.push_str(visibility_text(a.common.visibility));
        out.push_str(dll_text(a.common.dll_storage));
        out.push_str(thread_local_text(a.thread_local));
        if a.common.unnamed_addr {
            out.push_str("unnamed_addr ");
        }
        out.push_str("alias ");
        let is_expression = matches!(
            self.m.constant(a.aliasee).map(|c| &c.kind),
            Some(
                ConstantKind::Cast { .. }
                    | ConstantKind::BinOp { .. }
                    | ConstantKind::GetElementPtr { .. }
                    | ConstantKind::Select { .. }
                    | ConstantKind::ExtractElement { .. }
                    | ConstantKind::InsertElement { .. }
                    | ConstantKind::ShuffleVector { .. }
                    | ConstantKind::Compare { .. }
            )
        );
        if is_expression {
            self.value_ref(out, None, a.aliasee);
        } else {
            self.typed_value(out, None, a.aliasee);
        }
        out.push('\n');
    }

    /// `AssemblyWriter::printFunction`.
    fn function(&mut self, out: &mut String, index: u32, f: &'m crate::dxil::model::Function) {
        let m = self.m;
        out.push('\n');
        let fn_attributes = attributes_at(m, f.attributes, FUNCTION_INDEX);
        if !fn_attributes.is_empty() {
            let shown: Vec<Attribute> = fn_attributes
                .iter()
                .filter(|a| !matches!(a, Attribute::String { .. }))
                .cloned()
                .collect();
            if !shown.is_empty() {
                out.push_str("; Function Attrs: ");
                attributes_text(out, &shown, false);
                out.push('\n');
            }
        }
        let is_declaration = f.is_declaration || f.body.is_none();
        out.push_str(if is_declaration {
            "declare "
        } else {
            "define "
        });
        out.push_str(linkage_text(f.common.linkage));
        out.push_str(visibility_text(f.common.visibility));
        out.push_str(dll_text(f.common.dll_storage));
        if f.calling_conv != 0 {
            calling_conv(out, f.calling_conv);
            out.push(' ');
        }
        let return_attributes = attributes_at(m, f.attributes, 0);
        if !return_attributes.is_empty() {
            attributes_text(out, &return_attributes, false);
            out.push(' ');
        }
        let function_type = match m.ty(f.function_type) {
            Some(Type::Function(ft)) => Some(ft),
            _ => None,
        };
        match function_type {
            Some(ft) => self.type_text(out, ft.ret),
            None => out.push_str("<invalid type>"),
        }
        out.push(' ');
        self.value_ref(out, None, f.common.value);
        out.push('(');
        let local = match (&f.body, is_declaration) {
            (Some(body), false) => Some(self.incorporate_function(index, body)),
            _ => None,
        };
        match &local {
            Some(local) => {
                for (i, argument) in local.body.args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.type_text(out, argument.ty);
                    let param_attributes =
                        attributes_at(m, f.attributes, u32::try_from(i + 1).unwrap_or(u32::MAX));
                    if !param_attributes.is_empty() {
                        out.push(' ');
                        attributes_text(out, &param_attributes, false);
                    }
                    if let Some(name) = &argument.name {
                        out.push(' ');
                        llvm_name(out, "%", name);
                    }
                }
            }
            None => {
                if let Some(ft) = function_type {
                    for (i, param) in ft.params.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.type_text(out, *param);
                        let param_attributes = attributes_at(
                            m,
                            f.attributes,
                            u32::try_from(i + 1).unwrap_or(u32::MAX),
                        );
                        if !param_attributes.is_empty() {
                            out.push(' ');
                            attributes_text(out, &param_attributes, false);
                        }
                    }
                }
            }
        }
        if let Some(ft) = function_type {
            if ft.vararg {
                if !ft.params.is_empty() {
                    out.push_str(", ");
                }
                out.push_str("...");
            }
        }
        out.push(')');
        if f.common.unnamed_addr {
            out.push_str(" unnamed_addr");
        }
        if let Some(slot) = self.attribute_slot(&fn_attributes) {
            let _ = write!(out, " #{slot}");
        }
        if let Some(section) = &f.section {
            out.push_str(" section \"");
            escaped(out, section);
            out.push('"');
        }
        self.comdat_suffix(out, f.common.comdat, &f.common.name, false);
        if f.alignment != 0 {
            let _ = write!(out, " align {}", f.alignment);
        }
        if let Some(gc) = &f.gc {
            out.push_str(" gc \"");
            out.extend(gc.iter().map(|&b| char::from(b)));
            out.push('"');
        }
        for (word, data) in [
            (" prefix ", f.prefix_data),
            (" prologue ", f.prologue_data),
            (" personality ", f.personality),
        ] {
            if let Some(data) = data {
                out.push_str(word);
                self.typed_value(out, None, data);
            }
        }
        if let Some(local) = &local {
            let mut attachments = local.body.attachments.clone();
            attachments.sort_by_key(|a| a.kind);
            for attachment in attachments {
                out.push(' ');
                self.attachment(out, Some(local), attachment.kind, attachment.node);
            }
        }
        match &local {
            None => out.push('\n'),
            Some(local) => {
                out.push_str(" {");
                let blocks = local.block_count();
                let mut labelled = 0usize;
                let result = slots::each_instruction(
                    self.source,
                    index,
                    local.body,
                    &mut |block, ins, bit| {
                        while labelled <= block as usize && labelled < blocks {
                            self.block_label(out, local, labelled);
                            labelled += 1;
                        }
                        self.prepare_instruction(local, ins);
                        self.instruction(out, local, ins);
                        if let Some(bit) = bit.filter(|_| self.opts.record_offsets) {
                            let _ = write!(out, " ; bit offset {bit}");
                        }
                        out.push('\n');
                        self.flush(out, false);
                    },
                );
                if let Err(e) = result {
                    self.read_error.borrow_mut().get_or_insert(e);
                }
                while labelled < blocks {
                    self.block_label(out, local, labelled);
                    labelled += 1;
                }
                out.push_str("}\n");
            }
        }
    }

    fn attachment(&self, out: &mut String, local: Option<&Local<'m>>, kind: u32, node: MetadataId) {
        match self.m.metadata_kind_name(kind) {
            Some(name) => {
                out.push('!');
                metadata_identifier(out, name);
            }
            None => {
                let _ = write!(out, "!<unknown kind #{kind}>");
            }
        }
        out.push(' ');
        self.metadata_ref(out, local, node);
    }

    /// `AssemblyWriter::printBasicBlock` up to the first instruction: the
    /// label and its `; preds =` comment.
    fn block_label(&self, out: &mut String, local: &Local<'m>, index: usize) {
        if index >= local.block_count() {
            return;
        }
        let line_start = out.len();
        let preds = local
            .preds
            .get(index)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if let Some(name) = local.block_name(index) {
            out.push('\n');
            llvm_name(out, "", name);
            out.push(':');
        } else if !preds.is_empty() {
            out.push_str("\n; <label>:");
            match local.block_slots.get(index).copied().flatten() {
                Some(slot) => {
                    let _ = write!(out, "{slot}");
                }
                None => out.push_str("<badref>"),
            }
        }
        if index != 0 {
            let column_start = out[line_start..]
                .rfind('\n')
                .map_or(line_start, |i| line_start + i + 1);
            let column = out.len() - column_start;
            let pad = PREDS_COLUMN.saturating_sub(column).max(1);
            out.extend(std::iter::repeat_n(' ', pad));
            out.push(';');
            if preds.is_empty() {
                out.push_str(" No predecessors!");
            } else {
                out.push_str(" preds = ");
                for (i, pred) in preds.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.block_ref(out, local, *pred);
                }
            }
        }
        out.push('\n');
    }

    fn block_ref(&self, out: &mut String, local: &Local<'m>, block: BlockId) {
        match (block.index() < local.block_count()).then(|| local.block_name(block.index())) {
            Some(name) => match name {
                Some(name) => llvm_name(out, "%", name),
                None => match local.block_slots.get(block.index()).copied().flatten() {
                    Some(slot) => {
                        let _ = write!(out, "%{slot}");
                    }
                    None => out.push_str("<badref>"),
                },
            },
            None => out.push_str("<badref>"),
        }
    }

    fn typed_block(&self, out: &mut String, local: &Local<'m>, block: BlockId) {
        out.push_str("label ");
        self.block_ref(out, local, block);
    }

    fn operand_type(&self, local: &Local<'m>, operand: Operand) -> Option<OperandType> {
        match operand {
            Operand::Value(id) => self.value_type(Some(local), id).map(OperandType::Value),
            Operand::Metadata(_) => Some(OperandType::Metadata),
        }
    }

    fn operand_ref(&self, out: &mut String, local: &Local<'m>, operand: Operand) {
        match operand {
            Operand::Value(id) => self.value_ref(out, Some(local), id),
            Operand::Metadata(id) => self.metadata_ref(out, Some(local), id),
        }
    }

    fn typed_operand(&self, out: &mut String, local: &Local<'m>, operand: Operand) {
        match operand {
            Operand::Value(id) => self.typed_value(out, Some(local), id),
            Operand::Metadata(id) => {
                out.push_str("metadata ");
                self.metadata_ref(out, Some(local), id);
            }
        }
    }

    /// The generic operand list: one type up front when all operands have
    /// the same type (and `all_types` is false), else each operand typed.
    fn operand_list(
        &self,
        out: &mut String,
        local: &Local<'m>,
        operands: &[Operand],
        all_types: bool,
    ) {
        let Some(first) = operands.first() else {
            return;
        };
        let first_type = self.operand_type(local, *first);
        let print_all = all_types
            || operands[1..]
                .iter()
                .any(|op| self.operand_type(local, *op) != first_type);
        if !print_all {
            out.push(' ');
            match first_type {
                Some(OperandType::Value(ty)) => self.type_text(out, ty),
                Some(OperandType::Metadata) => out.push_str("metadata"),
                None => out.push_str("<unknown type>"),
            }
        }
        out.push(' ');
        for (i, op) in operands.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if print_all {
                self.typed_operand(out, local, *op);
            } else {
                self.operand_ref(out, local, *op);
            }
        }
    }

    /// `AssemblyWriter::printInstruction` and dxc's `printInfoComment`.
    ///
    /// Long: one arm per instruction form, in the order of LLVM's
    /// `printInstruction`, so the two can be read side by side.
    fn instruction(&self, out: &mut String, local: &Local<'m>, instruction: &Instruction) {
        use InstructionKind as K;
        out.push_str("  ");
        if let Some(name) = &instruction.name {
            llvm_name(out, "%", name);
            out.push_str(" = ");
        } else if self.has_result(instruction) {
            match instruction.value.and_then(|v| local.slot(v)) {
                Some(slot) => {
                    let _ = write!(out, "%{slot} = ");
                }
                None => out.push_str("<badref> = "),
            }
        }
        let result_type = instruction.ty;
        match &instruction.kind {
            K::BinOp {
                op,
                lhs,
                rhs,
                flags,
            } => {
                out.push_str(op.name());
                fast_math(out, flags.fast_math.0, self.is_fp(result_type));
                binop_flags(out, *op, flags.nuw, flags.nsw, flags.exact);
                self.operand_list(out, local, &[*lhs, *rhs], false);
            }
            K::Cast { op, value } => {
                out.push_str(op.name());
                out.push(' ');
                self.typed_operand(out, local, *value);
                out.push_str(" to ");
                self.result_type(out, result_type);
            }
            K::Compare {
                predicate,
                lhs,
                rhs,
                fast_math: fmf,
            } => {
                out.push_str(if predicate.is_float() { "fcmp" } else { "icmp" });
                if predicate.is_float() {
                    fast_math(out, fmf.0, true);
                }
                let _ = write!(out, " {}", predicate.name().unwrap_or("unknown"));
                self.operand_list(out, local, &[*lhs, *rhs], false);
            }
            K::Select {
                condition,
                if_true,
                if_false,
            } => {
                out.push_str("select");
                self.operand_list(out, local, &[*condition, *if_true, *if_false], true);
            }
            K::ExtractElement { vector, index } => {
                out.push_str("extractelement");
                self.operand_list(out, local, &[*vector, *index], false);
            }
            K::InsertElement {
                vector,
                element,
                index,
            } => {
                out.push_str("insertelement");
                self.operand_list(out, local, &[*vector, *element, *index], false);
            }
            K::ShuffleVector {
                first,
                second,
                mask,
            } => {
                out.push_str("shufflevector");
                self.operand_list(out, local, &[*first, *second, *mask], true);
            }
            K::ExtractValue { aggregate, indices } => {
                out.push_str("extractvalue ");
                self.typed_operand(out, local, *aggregate);
                for index in indices {
                    let _ = write!(out, ", {index}");
                }
            }
            K::InsertValue {
                aggregate,
                value,
                indices,
            } => {
                out.push_str("insertvalue ");
                self.typed_operand(out, local, *aggregate);
                out.push_str(", ");
                self.typed_operand(out, local, *value);
                for index in indices {
                    let _ = write!(out, ", {index}");
                }
            }
            K::GetElementPtr {
                inbounds,
                source_type,
                operands,
            } => {
                out.push_str("getelementptr");
                if *inbounds {
                    out.push_str(" inbounds");
                }
                out.push(' ');
                self.type_text(out, *source_type);
                out.push(',');
                self.operand_list(out, local, operands, false);
            }
            K::Phi { incoming } => {
                out.push_str("phi ");
                self.result_type(out, result_type);
                out.push(' ');
                for (i, edge) in incoming.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str("[ ");
                    self.operand_ref(out, local, edge.value);
                    out.push_str(", ");
                    self.block_ref(out, local, edge.block);
                    out.push_str(" ]");
                }
            }
            K::Ret { value } => {
                out.push_str("ret");
                match value {
                    Some(value) => self.operand_list(out, local, &[*value], true),
                    None => out.push_str(" void"),
                }
            }
            K::Br { dest } => {
                out.push_str("br ");
                self.typed_block(out, local, *dest);
            }
            K::CondBr {
                condition,
                if_true,
                if_false,
            } => {
                out.push_str("br ");
                self.typed_operand(out, local, *condition);
                out.push_str(", ");
                self.typed_block(out, local, *if_true);
                out.push_str(", ");
                self.typed_block(out, local, *if_false);
            }
            K::Switch {
                condition,
                default,
                cases,
            } => {
                out.push_str("switch ");
                self.typed_operand(out, local, *condition);
                out.push_str(", ");
                self.typed_block(out, local, *default);
                out.push_str(" [");
                for case in cases {
                    out.push_str("\n    ");
                    self.typed_value(out, Some(local), case.value);
                    out.push_str(", ");
                    self.typed_block(out, local, case.dest);
                }
                out.push_str("\n  ]");
            }
            K::IndirectBr {
                address,
                destinations,
            } => {
                out.push_str("indirectbr ");
                self.typed_operand(out, local, *address);
                out.push_str(", [");
                for (i, dest) in destinations.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.typed_block(out, local, *dest);
                }
                out.push(']');
            }
            K::Unreachable => out.push_str("unreachable"),
            K::Alloca {
                allocated_type,
                size,
                alignment,
                inalloca,
            } => {
                out.push_str("alloca ");
                if *inalloca {
                    out.push_str("inalloca ");
                }
                self.type_text(out, *allocated_type);
                let is_i32_one = match size {
                    Operand::Value(id) => {
                        self.value_type(Some(local), *id)
                            .and_then(|t| self.integer_bits(t))
                            == Some(32)
                            && matches!(
                                self.constant_of(Some(local), *id).map(|c| &c.kind),
                                Some(ConstantKind::Integer(1))
                            )
                    }
                    Operand::Metadata(_) => false,
                };
                if !is_i32_one {
                    out.push_str(", ");
                    self.typed_operand(out, local, *size);
                }
                if *alignment != 0 {
                    let _ = write!(out, ", align {alignment}");
                }
            }
            K::Load {
                pointer,
                alignment,
                volatile,
                atomic,
            } => {
                memory_access_head(out, "load", atomic.is_some(), *volatile);
                out.push(' ');
                self.result_type(out, result_type);
                out.push(',');
                self.operand_list(out, local, &[*pointer], false);
                memory_access_tail(out, atomic.as_ref(), *alignment);
            }
            K::Store {
                pointer,
                value,
                alignment,
                volatile,
                atomic,
            } => {
                memory_access_head(out, "store", atomic.is_some(), *volatile);
                self.operand_list(out, local, &[*value, *pointer], true);
                memory_access_tail(out, atomic.as_ref(), *alignment);
            }
            K::CmpXchg {
                pointer,
                compare,
                new_value,
                volatile,
                weak,
                success_ordering,
                failure_ordering,
                scope,
            } => {
                out.push_str("cmpxchg");
                if *weak {
                    out.push_str(" weak");
                }
                if *volatile {
                    out.push_str(" volatile");
                }
                self.operand_list(out, local, &[*pointer, *compare, *new_value], false);
                out.push_str(scope_text(*scope));
                out.push_str(ordering_text(*success_ordering));
                out.push_str(ordering_text(*failure_ordering));
            }
            K::AtomicRmw {
                op,
                pointer,
                value,
                volatile,
                ordering,
                scope,
            } => {
                out.push_str("atomicrmw");
                if *volatile {
                    out.push_str(" volatile");
                }
                let _ = write!(out, " {}", op.name());
                self.operand_list(out, local, &[*pointer, *value], false);
                out.push_str(scope_text(*scope));
                out.push_str(ordering_text(*ordering));
            }
            K::Fence { ordering, scope } => {
                out.push_str("fence");
                out.push_str(scope_text(*scope));
                out.push_str(ordering_text(*ordering));
            }
            K::Call {
                callee,
                function_type,
                args,
                attributes,
                calling_conv: cc,
                tail,
                fast_math: fmf,
                ..
            } => {
                match tail {
                    TailCall::MustTail => out.push_str("musttail "),
                    TailCall::Tail => out.push_str("tail "),
                    TailCall::None => {}
                }
                out.push_str("call");
                fast_math(out, fmf.0, self.is_fp(result_type));
                if *cc != 0 {
                    out.push(' ');
                    calling_conv(out, *cc);
                }
                let return_attributes = attributes_at(self.m, *attributes, 0);
                if !return_attributes.is_empty() {
                    out.push(' ');
                    attributes_text(out, &return_attributes, false);
                }
                out.push(' ');
                match self.m.ty(*function_type) {
                    Some(Type::Function(ft)) if !ft.vararg => self.type_text(out, ft.ret),
                    _ => self.type_text(out, *function_type),
                }
                out.push(' ');
                self.operand_ref(out, local, *callee);
                out.push('(');
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let param_attributes = attributes_at(
                        self.m,
                        *attributes,
                        u32::try_from(i + 1).unwrap_or(u32::MAX),
                    );
                    match arg {
                        Operand::Value(id) => match self.value_type(Some(local), *id) {
                            Some(ty) => self.type_text(out, ty),
                            None => out.push_str("<unknown type>"),
                        },
                        Operand::Metadata(_) => out.push_str("metadata"),
                    }
                    if !param_attributes.is_empty() {
                        out.push(' ');
                        attributes_text(out, &param_attributes, false);
                    }
                    out.push(' ');
                    self.operand_ref(out, local, *arg);
                }
                out.push(')');
                let fn_attributes = attributes_at(self.m, *attributes, FUNCTION_INDEX);
                if let Some(slot) = self.attribute_slot(&fn_attributes) {
                    let _ = write!(out, " #{slot}");
                }
            }
            K::VaArg { list, .. } => {
                out.push_str("va_arg ");
                self.typed_operand(out, local, *list);
                out.push_str(", ");
                self.result_type(out, result_type);
            }
        }
        // Attachments: !dbg first, then the others by kind.
        if let Some(key) = instruction.debug_loc.as_ref().and_then(location_key) {
            out.push_str(", !dbg ");
            self.md_key_ref(out, key);
        }
        for attachment in sorted_attachments(instruction) {
            out.push_str(", ");
            self.attachment(out, Some(local), attachment.kind, attachment.node);
        }
        self.info_comment(out, local, instruction);
    }

    fn result_type(&self, out: &mut String, ty: Option<TypeId>) {
        match ty {
            Some(ty) => self.type_text(out, ty),
            None => out.push_str("void"),
        }
    }

    fn is_fp(&self, ty: Option<TypeId>) -> bool {
        let Some(ty) = ty else {
            return false;
        };
        let scalar = self
            .element_type(ty)
            .filter(|_| matches!(self.m.ty(ty), Some(Type::Vector { .. })));
        matches!(
            self.m.ty(scalar.unwrap_or(ty)),
            Some(
                Type::Half
                    | Type::Float
                    | Type::Double
                    | Type::X86Fp80
                    | Type::Fp128
                    | Type::PpcFp128
            )
        )
    }

    /// dxc's `DxcAssemblyAnnotationWriter::printInfoComment`.
    fn info_comment(&self, out: &mut String, local: &Local<'m>, instruction: &Instruction) {
        let InstructionKind::Call { callee, args, .. } = &instruction.kind else {
            self.line_comment(out, instruction);
            return;
        };
        let name = self.callee_name(*callee).unwrap_or_default();
        if self.opts.debug_comments {
            if name == b"llvm.dbg.declare" || name == b"llvm.dbg.value" {
                let (variable, expression) = if name == b"llvm.dbg.declare" {
                    (args.get(1), args.get(2))
                } else {
                    (args.get(2), args.get(3))
                };
                if let (Some(Operand::Metadata(variable)), Some(Operand::Metadata(expression))) =
                    (variable, expression)
                {
                    self.variable_comment(out, local, *variable, *expression);
                }
            } else {
                self.line_comment(out, instruction);
            }
        }
        if args.is_empty() || !name.starts_with(b"dx.op.") {
            return;
        }
        let Some(Operand::Value(opcode_id)) = args.first() else {
            return;
        };
        let opcode = match self.constant_of(Some(local), *opcode_id).map(|c| &c.kind) {
            Some(ConstantKind::Integer(v)) => {
                let bits = self
                    .value_type(Some(local), *opcode_id)
                    .and_then(|t| self.integer_bits(t))
                    .unwrap_or(64);
                if bits >= 64 {
                    *v as u64
                } else {
                    (*v as u64) & ((1u64 << bits) - 1)
                }
            }
            Some(ConstantKind::Null) => 0,
            _ => return,
        };
        let Ok(opcode) = u32::try_from(opcode) else {
            let _ = write!(out, "  ; invalid DXIL opcode #{}", opcode as u32);
            return;
        };
        out.push_str(&ops::annotation(opcode, self.opts.release));
        let is_annotate_handle =
            ops::lookup(opcode, self.opts.release).is_some_and(|row| row.name == "AnnotateHandle");
        if is_annotate_handle {
            if let Some(Operand::Value(props)) = args.get(2) {
                if let Some(properties) = self.resource_properties(local, *props) {
                    out.push_str(&properties.annotation());
                }
            }
        }
    }

    /// `resource_helper::loadPropsFromConstant` for a two-field struct.
    fn resource_properties(&self, local: &Local<'m>, id: ValueId) -> Option<ResourceProperties> {
        let c = self.constant_of(Some(local), id)?;
        let Some(Type::Struct(st)) = self.m.ty(c.ty) else {
            return None;
        };
        if st.body.as_ref().map(Vec::len) != Some(2) {
            return None;
        }
        if self.is_null(Some(local), id, 0) {
            return Some(ResourceProperties { word0: 0, word1: 0 });
        }
        let ConstantKind::Aggregate(fields) = &c.kind else {
            return None;
        };
        let word = |id: ValueId| -> Option<u32> {
            match self.constant_of(Some(local), id)?.kind {
                ConstantKind::Integer(v) => Some(v as u32),
                ConstantKind::Null => Some(0),
                _ => None,
            }
        };
        Some(ResourceProperties {
            word0: word(*fields.first()?)?,
            word1: word(*fields.get(1)?)?,
        })
    }

    fn line_comment(&self, out: &mut String, instruction: &Instruction) {
        if !self.opts.debug_comments {
            return;
        }
        if let Some(loc) = &instruction.debug_loc {
            if loc.scope.is_some() && loc.line != 0 {
                let _ = write!(
                    out,
                    " ; line:{} col:{}",
                    loc.line,
                    slots::location_column(loc.column)
                );
            }
        }
    }
}

/// The fast-math flags of an FP operation.
fn fast_math(out: &mut String, flags: u8, is_fp: bool) {
    if !is_fp || flags == 0 {
        return;
    }
    if flags & 1 != 0 {
        out.push_str(" fast");
        return;
    }
    for (bit, word) in [(2, " nnan"), (4, " ninf"), (8, " nsz"), (16, " arcp")] {
        if flags & bit != 0 {
            out.push_str(word);
        }
    }
}

/// `nuw`/`nsw` of add, sub, mul, shl; `exact` of the divisions and right
/// shifts.
fn binop_flags(out: &mut String, op: BinOp, nuw: bool, nsw: bool, exact: bool) {
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl => {
            if nuw {
                out.push_str(" nuw");
            }
            if nsw {
                out.push_str(" nsw");
            }
        }
        BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr if exact => {
            out.push_str(" exact");
        }
        _ => {}
    }
}

/// The type of an operand, for the "all operands of one type" test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OperandType {
    Value(TypeId),
    Metadata,
}

/// An instruction's attachments other than `!dbg`, by kind.
fn sorted_attachments(instruction: &Instruction) -> Vec<crate::dxil::model::Attachment> {
    let mut attachments: Vec<_> = instruction
        .attachments
        .iter()
        .filter(|a| a.kind != 0)
        .copied()
        .collect();
    attachments.sort_by_key(|a| a.kind);
    attachments
}

/// Each block's predecessors as LLVM lists them: the use list of the block,
/// newest use first (terminators in reverse order, and within one the
/// operands set last first).
fn predecessors(outline: &Outline) -> Vec<Vec<BlockId>> {
    let mut preds = vec![Vec::new(); outline.counts.len()];
    for &(block, target) in outline.successors.iter().rev() {
        if let Some(list) = preds.get_mut(target.index()) {
            list.push(BlockId(block));
        }
    }
    preds
}
