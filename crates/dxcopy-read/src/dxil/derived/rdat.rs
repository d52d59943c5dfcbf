//! RDAT of a library, made from the module as dxc's `DxilRDATWriter` makes
//! it (docs/format/derived-parts.md §RDAT): the string buffer (deduplicated,
//! the empty string first), the resource table (constant buffers, samplers,
//! SRVs, UAVs), the function table (every defined function in module order:
//! names, the resources and unresolved functions its instructions reach,
//! shader kind, payload and attribute sizes, feature flags, the stages it
//! may run in and its minimum shader model; from validator 1.8 wave sizes,
//! shader flags and a node's NodeShaderInfo), the index arrays
//! (deduplicated), the raw bytes and subobject table, and the work-graph
//! tables; empty parts are left out and the rest padded to 4 bytes.
//!
//! The per-function stage mask and minimum shader model come from the DXIL
//! operations each function calls (dxc's per-operation table,
//! `OP::GetMinShaderModelAndMask`, with the validator-version and barrier
//! rules of the call) and, from validator 1.8, are merged from callees into
//! callers and raised by the entry's kind, wave size and features. The
//! feature flags are collected per function ([`usage`]). Subobjects, which
//! dxc keeps only in RDAT, are carried over from the container's RDAT. What
//! needs the resource behind a handle is [`DeriveError::RdatUnsupported`],
//! never a guess.

use super::usage::{self, feature, ModuleFacts};
use super::{DeriveError, Facts};
use crate::dxil::metadata::layout::DataLayout;
use crate::dxil::metadata::{
    node_properties, EntryPoint, EntryProperties, NodeId, NodeIo, NodeProperties, Resource,
    ResourceClass, ResourceDetail,
};
use crate::dxil::model::{
    FunctionBody, InstructionKind, Linkage, Module, ModuleValue, Operand, ValueId,
};
use crate::rdat::{
    write_rdat, FunctionKind, FunctionRecord, RdatPartType, RdatSubobject, ResourceFlags,
    ResourceRecord, RuntimeData, SubobjectDetail, TableHeader, NULL_REF, SUBOBJECT_RECORD_SIZE,
};
use crate::ShaderKind;
use std::collections::{BTreeSet, HashMap, HashSet};

/// A shader model, (major, minor).
type Model = (u32, u32);

/// Per DXIL operation range: (first, last, minimum shader model in a
/// library, elsewhere, the stages allowed as `1 << kind` bits). Operations
/// in no row run in every stage from 6.0.
const OP_COMPAT: &[(u32, u32, Model, Model, u32)] = &[
    (60, 61, (6, 0), (6, 0), 0xe061),
    (64, 64, (6, 0), (6, 0), 0xe061),
    (76, 77, (6, 0), (6, 0), 0x0001),
    (81, 81, (6, 0), (6, 0), 0xe061),
    (82, 82, (6, 0), (6, 0), 0x0001),
    (83, 86, (6, 0), (6, 0), 0xe061),
    (87, 92, (6, 0), (6, 0), 0x0001),
    (97, 100, (6, 0), (6, 0), 0x0004),
    (103, 104, (6, 0), (6, 0), 0x0018),
    (105, 105, (6, 0), (6, 0), 0x0010),
    (106, 107, (6, 0), (6, 0), 0x0008),
    (108, 108, (6, 0), (6, 0), 0x001c),
    (110, 121, (6, 0), (6, 0), 0xffff),
    (122, 123, (6, 0), (6, 0), 0xe061),
    (135, 136, (6, 0), (6, 0), 0xffff),
    (137, 137, (6, 1), (6, 1), 0x0001),
    (138, 138, (6, 1), (6, 1), 0x201f),
    (139, 140, (6, 0), (6, 2), ALL),
    (141, 143, (6, 3), (6, 3), 0x0740),
    (144, 144, (6, 3), (6, 3), 0x0f40),
    (145, 146, (6, 3), (6, 3), 0x1fc0),
    (147, 148, (6, 3), (6, 3), 0x0f40),
    (149, 152, (6, 3), (6, 3), 0x0740),
    (153, 154, (6, 3), (6, 3), 0x0f40),
    (155, 156, (6, 3), (6, 3), 0x0200),
    (157, 157, (6, 3), (6, 3), 0x0cc0),
    (158, 158, (6, 3), (6, 3), 0x0140),
    (159, 159, (6, 3), (6, 3), 0x1cc0),
    (160, 160, (6, 0), (6, 3), ALL),
    (161, 161, (6, 3), (6, 3), 0x0740),
    (162, 164, (6, 4), (6, 4), ALL),
    (165, 167, (6, 5), (6, 5), 0xffff),
    (168, 172, (6, 5), (6, 5), 0x2000),
    (173, 173, (6, 5), (6, 5), 0x4000),
    (174, 175, (6, 5), (6, 5), 0x0041),
    (176, 212, (6, 5), (6, 5), ALL),
    (213, 213, (6, 5), (6, 5), 0x0740),
    (214, 215, (6, 5), (6, 5), ALL),
    (216, 217, (6, 0), (6, 6), ALL),
    (218, 221, (6, 6), (6, 6), ALL),
    (222, 222, (6, 0), (6, 7), 0xe061),
    (223, 225, (6, 7), (6, 7), ALL),
    (238, 243, (6, 8), (6, 8), 0x8000),
    (244, 244, (6, 0), (6, 8), ALL),
    (245, 245, (6, 8), (6, 8), ALL),
    (246, 253, (6, 8), (6, 8), 0x8000),
    (254, 254, (6, 8), (6, 8), ALL),
    (255, 255, (6, 8), (6, 8), 0xe061),
    (256, 257, (6, 8), (6, 8), 0x0002),
    (258, 258, (6, 9), (6, 9), ALL),
    (262, 267, (6, 9), (6, 9), 0x0cc0),
    (268, 268, (6, 9), (6, 9), 0x00c0),
    (269, 289, (6, 9), (6, 9), 0x0cc0),
    (303, 304, (6, 9), (6, 9), ALL),
    (2147483648, 2147483648, (6, 10), (6, 10), ALL),
    (2147483649, 2147483650, (6, 10), (6, 10), 0xe020),
    (2147483651, 2147483651, (6, 10), (6, 10), 0x0640),
    (2147483652, 2147483653, (6, 10), (6, 10), ALL),
    (2147483654, 2147483654, (6, 10), (6, 10), 0x0cc0),
    (2147483655, 2147483655, (6, 10), (6, 10), 0x0640),
    (2147483656, 2147483657, (6, 10), (6, 10), ALL),
    (2147483658, 2147483658, (6, 10), (6, 10), 0x0cc0),
    (2147483659, 2147483661, (6, 10), (6, 10), 0x0020),
    (2147483662, 2147483662, (6, 10), (6, 10), ALL),
    (2147483663, 2147483669, (6, 10), (6, 10), 0x0020),
    (2147483670, 2147483670, (6, 10), (6, 10), ALL),
    (2147483671, 2147483672, (6, 10), (6, 10), 0x0020),
    (2147483673, 2147483675, (6, 10), (6, 10), ALL),
    (2147483676, 2147483676, (6, 10), (6, 10), 0x0020),
    (2147483677, 2147483679, (6, 10), (6, 10), ALL),
    (2147483681, 2147483682, (6, 10), (6, 10), ALL),
];

/// All stages (`1 << Invalid` - 1).
const ALL: u32 = (1 << 16) - 1;

/// The stage bit of `kind` (none for a kind past the 32 a mask holds).
fn stage(kind: ShaderKind) -> u32 {
    1u32.checked_shl(u32::from(kind.raw())).unwrap_or(0)
}

/// Operations that take derivatives (Sample, SampleBias, SampleCmp,
/// CalculateLOD, the four Deriv* operations).
fn takes_derivatives(op: u32) -> bool {
    matches!(op, 60 | 61 | 64 | 81 | 83..=86)
}

/// What the function table needs to know about one defined function.
#[derive(Default, Clone)]
struct Compat {
    major: u32,
    minor: u32,
    mask: u32,
    /// Feature bits (those collected here map one to one to SFI0's).
    flags: u64,
}

impl Compat {
    fn new() -> Compat {
        Compat {
            major: 6,
            minor: 0,
            mask: ALL,
            flags: 0,
        }
    }

    fn at_least(&mut self, major: u32, minor: u32) -> bool {
        if (major, minor) > (self.major, self.minor) {
            self.major = major;
            self.minor = minor;
            return true;
        }
        false
    }

    fn merge(&mut self, other: &Compat) -> bool {
        let mut changed = self.at_least(other.major, other.minor);
        if self.mask & other.mask != self.mask {
            self.mask &= other.mask;
            changed = true;
        }
        if self.flags | other.flags != self.flags {
            self.flags |= other.flags;
            changed = true;
        }
        changed
    }
}

fn unsupported(why: &'static str) -> DeriveError {
    DeriveError::RdatUnsupported(why)
}

/// The string buffer: each string once, NUL-terminated, the empty one first.
struct Strings {
    bytes: Vec<u8>,
    at: HashMap<Vec<u8>, u32>,
}

impl Strings {
    fn new() -> Strings {
        let mut s = Strings {
            bytes: Vec::new(),
            at: HashMap::new(),
        };
        s.insert(b"");
        s
    }

    fn insert(&mut self, text: &[u8]) -> u32 {
        if let Some(&at) = self.at.get(text) {
            return at;
        }
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(text);
        self.bytes.push(0);
        self.at.insert(text.to_vec(), at);
        at
    }
}

/// The index arrays: each array (count, then the values) once.
#[derive(Default)]
struct IndexArrays {
    words: Vec<u32>,
    at: HashMap<Vec<u32>, u32>,
}

impl IndexArrays {
    fn insert(&mut self, values: &[u32]) -> u32 {
        let mut key = Vec::with_capacity(values.len() + 1);
        key.push(values.len() as u32);
        key.extend_from_slice(values);
        if let Some(&at) = self.at.get(&key) {
            return at;
        }
        let at = self.words.len() as u32;
        self.words.extend_from_slice(&key);
        self.at.insert(key, at);
        at
    }
}

/// A record table; from validator 1.7 a record equal to an earlier one is
/// not added again (its first index is used).
struct Table {
    stride: usize,
    dedup: bool,
    rows: Vec<Vec<u8>>,
    at: HashMap<Vec<u8>, u32>,
}

impl Table {
    fn new(stride: usize, dedup: bool) -> Table {
        Table {
            stride,
            dedup,
            rows: Vec::new(),
            at: HashMap::new(),
        }
    }

    /// Adds `record` (zero-padded to the stride) and gives its index.
    fn insert(&mut self, mut record: Vec<u8>) -> u32 {
        record.resize(self.stride, 0);
        if self.dedup {
            if let Some(&at) = self.at.get(&record) {
                return at;
            }
        }
        let at = self.rows.len() as u32;
        self.at.entry(record.clone()).or_insert(at);
        self.rows.push(record);
        at
    }

    /// Adds a record of little-endian words.
    fn insert_words(&mut self, words: &[u32]) -> u32 {
        self.insert(words.iter().flat_map(|w| w.to_le_bytes()).collect())
    }

    fn body(&self) -> Vec<u8> {
        if self.rows.is_empty() {
            return Vec::new();
        }
        let mut out = TableHeader {
            record_count: self.rows.len() as u32,
            record_stride: self.stride as u32,
        }
        .to_bytes();
        for row in &self.rows {
            out.extend_from_slice(row);
        }
        out
    }
}

/// What one function's instructions reach.
#[derive(Default)]
struct Reach {
    /// Module values used, directly or inside constants.
    values: HashSet<u32>,
    /// The stages and minimum shader model of each DXIL operation called.
    ops: Vec<Compat>,
    /// The feature bits of the function's own instructions.
    flags: u64,
    /// Defined functions called.
    callees: BTreeSet<usize>,
}

fn reach(
    module: &Module,
    body: &FunctionBody,
    facts: &ModuleFacts<'_>,
    entry: Option<&EntryPoint>,
) -> Result<Reach, DeriveError> {
    let mut r = Reach {
        flags: usage::function_flags(module, body, facts, entry.map(|e| (e, kind_of(e))))?,
        ..Reach::default()
    };
    let module_values = module.values.len() as u32;
    let mut stack: Vec<ValueId> = Vec::new();
    for block in &body.blocks {
        for instruction in &block.instructions {
            for operand in instruction.kind.operands() {
                let Operand::Value(id) = operand else {
                    continue;
                };
                if id.0 < module_values {
                    stack.push(id);
                } else if let Some(c) = body.constant(id) {
                    stack.extend(
                        c.kind
                            .operands()
                            .into_iter()
                            .filter(|v| v.0 < module_values),
                    );
                }
            }
            while let Some(id) = stack.pop() {
                if !r.values.insert(id.0) {
                    continue;
                }
                if let Some(c) = module.constant(id) {
                    stack.extend(c.kind.operands());
                }
            }
            if let InstructionKind::Call {
                callee: Operand::Value(callee),
                args,
                ..
            } = &instruction.kind
            {
                let Some(ModuleValue::Function(f)) = module.value(*callee) else {
                    continue;
                };
                let Some(function) = module.functions.get(f as usize) else {
                    continue;
                };
                let name = &function.common.name;
                if name.starts_with(b"dx.op.") {
                    let op = usage::dxil_opcode(module, body, &instruction.kind).ok_or(
                        unsupported("a DXIL operation call without a constant opcode"),
                    )?;
                    let barrier = if matches!(op, 80 | 244..=246) {
                        Some(usage::barrier(module, body, op, args))
                    } else {
                        None
                    };
                    r.ops
                        .push(op_compat(op, name, facts.validator, barrier.as_ref()));
                } else if function.body.is_some() {
                    r.callees.insert(f as usize);
                }
            }
        }
    }
    Ok(r)
}

/// The stages and minimum shader model of one DXIL operation call in a
/// library, with the validator-version rules dxc applies to the call
/// (`OP::GetMinShaderModelAndMask`).
fn op_compat(
    op: u32,
    callee: &[u8],
    validator: (u32, u32),
    barrier: Option<&usage::Barrier>,
) -> Compat {
    let row = OP_COMPAT
        .iter()
        .find(|(first, last, ..)| (*first..=*last).contains(&op));
    let (mut major, mut minor, mut mask) = match row {
        // Library modules take the translated (library) minimum.
        Some((_, _, (major, minor), _, mask)) => (*major, *minor, *mask),
        None => (6, 0, ALL),
    };
    let compat = |major, minor, mask| Compat {
        major,
        minor,
        mask,
        flags: 0,
    };
    if validator < (1, 8) && takes_derivatives(op) {
        mask &= !(stage(ShaderKind::Compute)
            | stage(ShaderKind::Amplification)
            | stage(ShaderKind::Mesh));
        return compat(major, minor, mask);
    }
    if validator < (1, 5) {
        return compat(major, minor, mask);
    }
    if let Some(b) = barrier {
        use ShaderKind::*;
        if op == 244 && b.untranslatable {
            (major, minor) = (6, 8);
        }
        if b.reorder {
            mask &= stage(Library) | stage(RayGeneration);
            return compat(6, 9, mask);
        }
        if b.node {
            mask &= stage(Library) | stage(Node);
        } else if b.group {
            mask &=
                stage(Library) | stage(Compute) | stage(Amplification) | stage(Mesh) | stage(Node);
        }
    } else if (matches!(op, 78 | 79) && callee.ends_with(b".i64"))
        || (validator == (1, 6) && matches!(op, 216 | 217))
    {
        // 64-bit atomics; and validator 1.6 gave the 6.6 handle operations
        // 6.6 even in libraries.
        (major, minor) = (6, 6);
    }
    compat(major, minor, mask)
}

/// A library entry's kind (its tag 8; a library function without it).
fn kind_of(entry: &EntryPoint) -> ShaderKind {
    entry.properties.shader_kind.unwrap_or(ShaderKind::Library)
}

fn entry_of<'a>(facts: &'a Facts<'_>, id: ValueId) -> Option<&'a EntryPoint> {
    let entries = facts.metadata.entry_points.iter();
    entries.rev().find(|e| e.function == Some(id))
}

fn resource_record(strings: &mut Strings, class: u32, r: &Resource) -> Vec<u8> {
    let mut flags = 0u32;
    if let ResourceDetail::Uav {
        globally_coherent,
        has_counter,
        rasterizer_ordered,
        atomic64_use,
        reorder_coherent,
        ..
    } = r.detail
    {
        let bits = [
            (globally_coherent, 1),
            (has_counter, 2),
            (rasterizer_ordered, 4),
            (atomic64_use, 16),
            (reorder_coherent, 32),
        ];
        for (set, bit) in bits {
            if set {
                flags |= bit;
            }
        }
    }
    let upper_bound = if r.range_size == u32::MAX {
        u32::MAX
    } else {
        r.lower_bound.wrapping_add(r.range_size).wrapping_sub(1)
    };
    ResourceRecord {
        class: crate::rdat::ResourceClass::from_raw(class),
        kind: r.kind,
        id: r.id,
        space: r.space,
        lower_bound: r.lower_bound,
        upper_bound,
        name: strings.insert(&r.name),
        flags: ResourceFlags(flags),
    }
    .to_bytes()
}

/// dxc's `DemangleFunctionName`: `\x01?name@…` gives `name`.
fn demangle(name: &[u8]) -> &[u8] {
    match name.strip_prefix(b"\x01?") {
        Some(rest) => {
            let end = rest.iter().position(|&b| b == b'@').unwrap_or(rest.len());
            &rest[..end]
        }
        None => name,
    }
}

/// The raw-bytes part: each byte string once, in insertion order.
#[derive(Default)]
struct RawBytes {
    bytes: Vec<u8>,
    at: HashMap<Vec<u8>, u32>,
}

impl RawBytes {
    fn insert(&mut self, data: &[u8]) -> u32 {
        if let Some(&at) = self.at.get(data) {
            return at;
        }
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(data);
        self.at.insert(data.to_vec(), at);
        at
    }
}

/// The subobjects of an existing RDAT and its raw-bytes part. dxc takes a
/// library's subobjects out of the module's metadata when it writes them
/// into RDAT, so RDAT is where they are kept; a rebuilt RDAT carries them
/// over as dxc would have written them.
fn existing_subobjects(data: &[u8]) -> Result<(Vec<RdatSubobject<'_>>, &[u8]), DeriveError> {
    let rdat = RuntimeData::parse_data(data, 0)
        .map_err(|_| unsupported("an existing RDAT that does not decode"))?;
    let raw = rdat_part(data, RdatPartType::RawBytes).unwrap_or(&[]);
    Ok((rdat.subobjects, raw))
}

/// The body of the first part of type `kind` in RDAT data `rdat`.
fn rdat_part(rdat: &[u8], kind: RdatPartType) -> Option<&[u8]> {
    let word = |at: usize| -> Option<u32> {
        let bytes = rdat.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes(bytes.try_into().ok()?))
    };
    let count = word(4)? as usize;
    for i in 0..count.min(rdat.len() / 4) {
        let offset = word(8 + 4 * i)? as usize;
        if word(offset).map(RdatPartType::from_raw) == Some(kind) {
            let size = word(offset + 4)? as usize;
            return rdat.get(offset + 8..(offset + 8).checked_add(size)?);
        }
    }
    None
}

/// The work-graph tables (dxc's `AddShaderNodeInfo` and `AddIONodes`).
struct NodeTables {
    ids: Table,
    function_attributes: Table,
    io_attributes: Table,
    io: Table,
    shaders: Table,
}

impl NodeTables {
    fn new(dedup: bool) -> NodeTables {
        NodeTables {
            ids: Table::new(8, dedup),
            function_attributes: Table::new(8, dedup),
            io_attributes: Table::new(8, dedup),
            io: Table::new(8, dedup),
            shaders: Table::new(20, dedup),
        }
    }

    fn id(&mut self, strings: &mut Strings, id: &NodeId) -> u32 {
        let name = strings.insert(&id.name);
        self.ids.insert_words(&[name, id.index])
    }

    /// The NodeShaderInfo record of one node shader.
    fn add_shader(
        &mut self,
        strings: &mut Strings,
        arrays: &mut IndexArrays,
        node: &NodeProperties,
        num_threads: Option<[u32; 3]>,
        group_shared_bytes: u32,
    ) -> u32 {
        let mut attributes = Vec::new();
        if !node.id.name.is_empty() {
            let id = self.id(strings, &node.id);
            attributes.push(self.function_attributes.insert_words(&[1, id]));
        }
        if let Some(threads) = num_threads.filter(|t| t.iter().any(|&n| n != 0)) {
            let at = arrays.insert(&threads);
            attributes.push(self.function_attributes.insert_words(&[2, at]));
        }
        if node.local_root_arguments_table_index >= 0 {
            let index = node.local_root_arguments_table_index as u32;
            attributes.push(self.function_attributes.insert_words(&[6, index]));
        }
        if !node.share_input_of.name.is_empty() {
            let id = self.id(strings, &node.share_input_of);
            attributes.push(self.function_attributes.insert_words(&[3, id]));
        }
        if node.dispatch_grid.iter().any(|&n| n != 0) {
            let at = arrays.insert(&node.dispatch_grid);
            attributes.push(self.function_attributes.insert_words(&[4, at]));
        }
        if node.max_recursion_depth != 0 {
            let depth = node.max_recursion_depth;
            attributes.push(self.function_attributes.insert_words(&[5, depth]));
        }
        if node.max_dispatch_grid.iter().any(|&n| n != 0) {
            let at = arrays.insert(&node.max_dispatch_grid);
            attributes.push(self.function_attributes.insert_words(&[7, at]));
        }
        let attributes = arrays.insert(&attributes);
        let inputs = self.add_io(strings, arrays, &node.inputs);
        let outputs = self.add_io(strings, arrays, &node.outputs);
        self.shaders.insert_words(&[
            node.launch_type,
            group_shared_bytes,
            attributes,
            outputs,
            inputs,
        ])
    }

    fn add_io(&mut self, strings: &mut Strings, arrays: &mut IndexArrays, list: &[NodeIo]) -> u32 {
        let mut records = Vec::with_capacity(list.len());
        for io in list {
            let mut attributes = Vec::new();
            let mut attribute = |kind: u32, value: u32, tables: &mut NodeTables| {
                attributes.push(tables.io_attributes.insert_words(&[kind, value]));
            };
            if io.is_output_node() {
                let id = self.id(strings, &io.output_id);
                attribute(1, id, self);
                attribute(6, io.output_array_size, self);
                if io.max_records != 0 {
                    attribute(2, io.max_records, self);
                } else if io.max_records_shared_with >= 0 {
                    attribute(3, io.max_records_shared_with as u32, self);
                }
                if io.allow_sparse_nodes {
                    attribute(7, 1, self);
                }
            } else if io.is_input_record() && io.max_records != 0 {
                attribute(2, io.max_records, self);
            }
            let record = &io.record;
            if record.size != 0 {
                attribute(4, record.size, self);
                let (offset, component_type, count) = record.dispatch_grid;
                if component_type != 0 {
                    let packed = (count & 3) | (component_type << 2);
                    attribute(5, (offset & 0xffff) | ((packed & 0xffff) << 16), self);
                }
                if record.alignment != 0 {
                    attribute(8, record.alignment, self);
                }
            }
            let attributes = arrays.insert(&attributes);
            records.push(self.io.insert_words(&[io.flags, attributes]));
        }
        arrays.insert(&records)
    }
}

/// The group shared memory each function may use (dxc's `TGSMInFunc`):
/// the allocation size of every group shared global a function uses
/// directly or through the functions it calls.
fn group_shared_bytes(
    module: &Module,
    reaches: &HashMap<usize, Reach>,
) -> Result<HashMap<usize, u32>, DeriveError> {
    let layout = DataLayout::of(module);
    let mut bytes: HashMap<usize, u32> = HashMap::new();
    for global in module.globals.iter().filter(|g| g.address_space == 3) {
        let size = layout
            .alloc_size(module, global.value_type)
            .and_then(|s| u32::try_from(s).ok())
            .ok_or(unsupported("a group shared variable of no size"))?;
        let mut users: BTreeSet<usize> = reaches
            .iter()
            .filter(|(_, r)| r.values.contains(&global.common.value.0))
            .map(|(f, _)| *f)
            .collect();
        let mut work: Vec<usize> = users.iter().copied().collect();
        while let Some(callee) = work.pop() {
            for (caller, r) in reaches {
                if r.callees.contains(&callee) && users.insert(*caller) {
                    work.push(*caller);
                }
            }
        }
        for f in users {
            let total = bytes.entry(f).or_default();
            *total = total.wrapping_add(size);
        }
    }
    Ok(bytes)
}

/// dxc's `AdjustMinimumShaderModelAndFlags` (validator 1.8 and later):
/// the entry's kind and wave size, then the features, raise the minimum
/// shader model.
fn adjust_minimum(c: &mut Compat, props: Option<&EntryProperties>, kind: ShaderKind) {
    use feature::*;
    use ShaderKind::*;
    if let Some(props) = props {
        if c.flags & USES_DERIVATIVES != 0 {
            if kind == Compute {
                c.at_least(6, 6);
            } else if matches!(kind, Mesh | Amplification) {
                c.flags |= DERIVATIVES_IN_MESH_AND_AMP;
                c.at_least(6, 6);
            }
        }
        if let Some(w) = props.wave_size.filter(|w| w.min != 0) {
            if w.max.is_some_and(|m| m != 0) {
                c.at_least(6, 8);
            } else {
                c.at_least(6, 6);
            }
        }
        match kind {
            Mesh | Amplification => c.at_least(6, 5),
            RayGeneration | Intersection | AnyHit | ClosestHit | Miss | Callable => {
                c.at_least(6, 3)
            }
            Node => c.at_least(6, 8),
            _ => false,
        };
    }
    let f = c.flags;
    let any = |bits: u64| f & bits != 0;
    if any(SAMPLE_CMP_GRADIENT_OR_BIAS | EXTENDED_COMMAND_INFO) {
        c.at_least(6, 8);
    } else if any(ADVANCED_TEXTURE_OPS | WRITEABLE_MSAA_TEXTURES) {
        c.at_least(6, 7);
    } else if any(ATOMIC_INT64_ON_TYPED_RESOURCE
        | ATOMIC_INT64_ON_GROUP_SHARED
        | ATOMIC_INT64_ON_HEAP_RESOURCE
        | RESOURCE_DESCRIPTOR_HEAP_INDEXING
        | SAMPLER_DESCRIPTOR_HEAP_INDEXING)
    {
        c.at_least(6, 6);
    } else if any(RAYTRACING_TIER_1_1 | SAMPLER_FEEDBACK) {
        c.at_least(6, 5);
    } else if any(SHADING_RATE) {
        c.at_least(6, 4);
    } else if any(NATIVE_LOW_PRECISION) {
        c.at_least(6, 2);
    } else if any(VIEW_ID | BARYCENTRICS) {
        c.at_least(6, 1);
    }
}

/// The RDAT part of library `facts`.
pub(crate) fn write_library_rdat(
    facts: &Facts<'_>,
    existing: Option<&[u8]>,
) -> Result<Vec<u8>, DeriveError> {
    let module = facts.module;
    let validator = facts.validator;
    if validator < (1, 5) {
        return Err(unsupported("a validator version below 1.5"));
    }
    if validator == super::UNBOUND_VALIDATOR {
        // dxc then adds the experimental RDAT tables (signature elements,
        // per-stage shader information), which are not made here.
        return Err(unsupported(
            "validator 0.0 (dxc adds its experimental tables)",
        ));
    }
    if module.named_metadata(b"dx.subobjects").is_some() {
        return Err(unsupported("subobjects in the module's metadata"));
    }
    let (subobjects, raw_part) = match existing {
        Some(data) => existing_subobjects(data)?,
        None => (Vec::new(), &[][..]),
    };
    let dedup = validator >= (1, 7);
    let mut strings = Strings::new();
    let mut resources = Table::new(ResourceRecord::SIZE as usize, dedup);
    let function_stride = if validator >= (1, 8) {
        FunctionRecord::SIZE as usize + 8
    } else {
        FunctionRecord::SIZE as usize
    };
    let mut functions = Table::new(function_stride, dedup);
    let mut arrays = IndexArrays::default();
    let mut nodes = NodeTables::new(dedup);

    let usage_facts = ModuleFacts::new(facts.metadata, validator);
    // Before validator 1.8 dxc gave every function the DXR 1.1 flag when a
    // subobject needs DXR 1.1.
    let dxr_1_1 = validator < (1, 8)
        && subobjects.iter().any(|o| match o.detail {
            SubobjectDetail::RaytracingPipelineConfig1 { .. } => true,
            SubobjectDetail::StateObjectConfig { flags } => flags & 4 != 0,
            _ => false,
        });
    let mut reaches: HashMap<usize, Reach> = HashMap::new();
    for (i, f) in module.functions.iter().enumerate() {
        if let Some(body) = &f.body {
            let entry = entry_of(facts, f.common.value);
            let mut r = reach(module, body, &usage_facts, entry)?;
            if dxr_1_1 {
                r.flags |= feature::RAYTRACING_TIER_1_1;
            }
            reaches.insert(i, r);
        }
    }
    let group_shared = group_shared_bytes(module, &reaches)?;

    // Resources, by class in dxc's order; each function's list in table order.
    let res = &facts.metadata.resources;
    let classes = [
        (2, &res.cbuffers),
        (3, &res.samplers),
        (0, &res.srvs),
        (1, &res.uavs),
    ];
    let mut used: HashMap<usize, Vec<u32>> = HashMap::new();
    let mut index = 0u32;
    for (class, list) in classes {
        for r in list.iter() {
            debug_assert!(matches!(
                r.class,
                ResourceClass::Srv
                    | ResourceClass::Uav
                    | ResourceClass::CBuffer
                    | ResourceClass::Sampler
            ));
            resources.insert(resource_record(&mut strings, class, r));
            if let Some(symbol) = r.symbol {
                let mut users: Vec<usize> = reaches
                    .iter()
                    .filter(|(_, reach)| reach.values.contains(&symbol.0))
                    .map(|(f, _)| *f)
                    .collect();
                users.sort_unstable();
                for f in users {
                    let list = used.entry(f).or_default();
                    if !list.contains(&index) {
                        list.push(index);
                    }
                }
            }
            index += 1;
        }
    }

    // Unresolved functions (declared, external, neither intrinsics nor DXIL
    // operations), in module order, and the functions that reach them.
    let mut dependencies: HashMap<usize, Vec<u32>> = HashMap::new();
    for f in &module.functions {
        let name = &f.common.name;
        if f.body.is_some()
            || !f.is_declaration
            || name.starts_with(b"llvm.")
            || name.starts_with(b"dx.op.")
            || f.common.linkage != Linkage::External
        {
            continue;
        }
        let mut users: Vec<usize> = reaches
            .iter()
            .filter(|(_, reach)| reach.values.contains(&f.common.value.0))
            .map(|(u, _)| *u)
            .collect();
        users.sort_unstable();
        for user in users {
            let at = strings.insert(name);
            let list = dependencies.entry(user).or_default();
            if !list.contains(&at) {
                list.push(at);
            }
        }
    }

    // Stages and minimum shader model, merged up the call graph from 1.8.
    let mut compat: HashMap<usize, Compat> = HashMap::new();
    for (f, r) in &reaches {
        let mut c = Compat::new();
        c.flags = r.flags;
        for o in &r.ops {
            c.at_least(o.major, o.minor);
            c.mask &= o.mask;
        }
        compat.insert(*f, c);
    }
    if validator >= (1, 8) {
        let mut changed = true;
        while changed {
            changed = false;
            for (caller, r) in &reaches {
                for callee in &r.callees {
                    let Some(from) = compat.get(callee).cloned() else {
                        continue;
                    };
                    if let Some(c) = compat.get_mut(caller) {
                        changed |= c.merge(&from);
                    }
                }
            }
        }
    }
    let valid_mask = if validator < (1, 8) {
        (1 << (ShaderKind::Amplification.raw() + 1)) - 1
    } else if validator < (1, 9) {
        (1 << (ShaderKind::Node.raw() + 1)) - 1
    } else {
        ALL
    };

    for (i, f) in module.functions.iter().enumerate() {
        if f.body.is_none() {
            continue;
        }
        let name = &f.common.name;
        let mangled = strings.insert(name);
        let unmangled = strings.insert(demangle(name));
        let resource_row = match used.get(&i) {
            Some(list) => arrays.insert(list),
            None => NULL_REF,
        };
        let dependency_row = match dependencies.get(&i) {
            Some(list) => arrays.insert(list),
            None => NULL_REF,
        };
        let entry = entry_of(facts, f.common.value);
        let props = entry.map(|e| &e.properties);
        let kind = props
            .and_then(|p| p.shader_kind)
            .unwrap_or(ShaderKind::Library);
        let payload = props.and_then(|p| p.ray_payload_size).unwrap_or(0);
        let attributes = props.and_then(|p| p.ray_attribute_size).unwrap_or(0);
        let (payload, attributes) = match kind {
            ShaderKind::ClosestHit | ShaderKind::AnyHit => (payload, attributes),
            ShaderKind::Miss | ShaderKind::Callable => (payload, 0),
            _ => (0, 0),
        };
        let mut c = compat.get(&i).cloned().unwrap_or_else(Compat::new);
        c.mask &= if kind == ShaderKind::Library {
            valid_mask
        } else {
            stage(kind)
        };
        if validator >= (1, 8) {
            adjust_minimum(&mut c, props.filter(|_| kind != ShaderKind::Library), kind);
        } else if c.flags & feature::NATIVE_LOW_PRECISION != 0 {
            c.at_least(6, 2);
        } else if c.flags & (feature::VIEW_ID | feature::BARYCENTRICS) != 0 {
            c.at_least(6, 1);
        }
        let mut record = FunctionRecord {
            name: mangled,
            unmangled_name: unmangled,
            resources: resource_row,
            dependencies: dependency_row,
            shader_kind: FunctionKind::from_raw(u32::from(kind.raw())),
            payload_size: payload,
            attribute_size: attributes,
            feature_flags_low: c.flags as u32,
            feature_flags_high: (c.flags >> 32) as u32,
            shader_stage_flags: c.mask,
            min_shader_target: (u32::from(kind.raw()) << 16) | (c.major << 4) | c.minor,
        }
        .to_bytes();
        if function_stride > FunctionRecord::SIZE as usize {
            // Wave lane counts, shader flags and the node record (dxc makes
            // no other shader info record in a released validator's RDAT).
            let (mut min_wave, mut max_wave, mut shader_flags) = (0u8, 0u8, 0u16);
            let mut shader_info = NULL_REF;
            if let Some(entry) = entry.filter(|_| kind != ShaderKind::Library) {
                if let Some(w) = entry.properties.wave_size.filter(|w| w.min != 0) {
                    min_wave = w.min as u8;
                    max_wave = match w.max {
                        Some(max) if max != 0 => max as u8,
                        _ => w.min as u8,
                    };
                }
                if kind == ShaderKind::Node {
                    let node = node_properties(module, &entry.properties)?
                        .ok_or(unsupported("a node shader without node properties"))?;
                    if node.is_program_entry {
                        shader_flags |= 1;
                    }
                    let bytes = group_shared.get(&i).copied().unwrap_or(0);
                    let threads = entry.properties.num_threads;
                    shader_info =
                        nodes.add_shader(&mut strings, &mut arrays, &node, threads, bytes);
                }
            }
            record.extend_from_slice(&[min_wave, max_wave]);
            record.extend_from_slice(&shader_flags.to_le_bytes());
            record.extend_from_slice(&shader_info.to_le_bytes());
        }
        functions.insert(record);
    }

    // The subobjects, after the functions as dxc adds them.
    let mut raw_bytes = RawBytes::default();
    let mut subobject_table = Table::new(SUBOBJECT_RECORD_SIZE as usize, dedup);
    for o in &subobjects {
        let name = strings.insert(o.name);
        let words = match &o.detail {
            SubobjectDetail::StateObjectConfig { flags } => [*flags, 0, 0, 0],
            SubobjectDetail::RootSignature { offset, size } => {
                let bytes = (*offset as usize)
                    .checked_add(*size as usize)
                    .and_then(|end| raw_part.get(*offset as usize..end))
                    .ok_or(unsupported(
                        "a root signature subobject outside the raw bytes",
                    ))?;
                [raw_bytes.insert(bytes), *size, 0, 0]
            }
            SubobjectDetail::SubobjectToExportsAssociation { subobject, exports } => {
                let subobject = strings.insert(subobject);
                let exports: Vec<u32> = exports.iter().map(|e| strings.insert(e)).collect();
                [subobject, arrays.insert(&exports), 0, 0]
            }
            SubobjectDetail::RaytracingShaderConfig {
                max_payload_size,
                max_attribute_size,
            } => [*max_payload_size, *max_attribute_size, 0, 0],
            SubobjectDetail::RaytracingPipelineConfig {
                max_trace_recursion_depth,
            } => [*max_trace_recursion_depth, 0, 0, 0],
            SubobjectDetail::HitGroup {
                hit_group_type,
                any_hit,
                closest_hit,
                intersection,
            } => [
                *hit_group_type,
                strings.insert(any_hit),
                strings.insert(closest_hit),
                strings.insert(intersection),
            ],
            SubobjectDetail::RaytracingPipelineConfig1 {
                max_trace_recursion_depth,
                flags,
            } => [*max_trace_recursion_depth, *flags, 0, 0],
            SubobjectDetail::Unknown => {
                return Err(unsupported("a subobject of a kind DXIL does not define"))
            }
        };
        let [a, b, c, d] = words;
        subobject_table.insert_words(&[o.kind.raw(), name, a, b, c, d]);
    }

    let pad = |mut body: Vec<u8>| {
        body.resize(body.len().div_ceil(4) * 4, 0);
        body
    };
    let index_bytes: Vec<u8> = arrays.words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let candidates = [
        (RdatPartType::StringBuffer, pad(strings.bytes)),
        (RdatPartType::ResourceTable, resources.body()),
        (RdatPartType::FunctionTable, functions.body()),
        (RdatPartType::IndexArrays, index_bytes),
        (RdatPartType::RawBytes, pad(raw_bytes.bytes)),
        (RdatPartType::SubobjectTable, subobject_table.body()),
        (RdatPartType::NodeIDTable, nodes.ids.body()),
        (
            RdatPartType::NodeShaderFuncAttribTable,
            nodes.function_attributes.body(),
        ),
        (
            RdatPartType::NodeShaderIOAttribTable,
            nodes.io_attributes.body(),
        ),
        (RdatPartType::IONodeTable, nodes.io.body()),
        (RdatPartType::NodeShaderInfoTable, nodes.shaders.body()),
    ];
    let parts: Vec<(RdatPartType, &[u8])> = candidates
        .iter()
        .filter(|(_, body)| !body.is_empty())
        .map(|(t, body)| (*t, body.as_slice()))
        .collect();
    Ok(write_rdat(&parts))
}

/// Checks that RDAT part data `rdat` holds only the parts made here (string
/// buffer, resource and function tables, index arrays); anything else
/// (raw bytes and subobjects, work-graph tables) comes from what the module
/// no longer holds.
pub(crate) fn only_derived_tables(rdat: &[u8]) -> Result<(), DeriveError> {
    let word = |at: usize| -> Option<u32> {
        let bytes = rdat.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes(bytes.try_into().ok()?))
    };
    let count = word(4).unwrap_or(0) as usize;
    for i in 0..count.min(rdat.len() / 4) {
        let Some(offset) = word(8 + 4 * i) else {
            break;
        };
        let kind = word(offset as usize).map(RdatPartType::from_raw);
        let made = [
            RdatPartType::StringBuffer,
            RdatPartType::ResourceTable,
            RdatPartType::FunctionTable,
            RdatPartType::IndexArrays,
            RdatPartType::RawBytes,
            RdatPartType::SubobjectTable,
            RdatPartType::NodeIDTable,
            RdatPartType::NodeShaderFuncAttribTable,
            RdatPartType::NodeShaderIOAttribTable,
            RdatPartType::IONodeTable,
            RdatPartType::NodeShaderInfoTable,
        ];
        match kind {
            Some(kind) if made.contains(&kind) => {}
            _ => return Err(unsupported("an RDAT table not made from the module")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxil::metadata::NodeRecordType;

    #[test]
    fn strings_start_empty_and_are_kept_once() {
        let mut s = Strings::new();
        assert_eq!(s.insert(b"main"), 1);
        assert_eq!(s.insert(b""), 0);
        assert_eq!(s.insert(b"x"), 6);
        assert_eq!(s.insert(b"main"), 1);
        assert_eq!(s.bytes, b"\0main\0x\0");
    }

    #[test]
    fn index_arrays_are_kept_once() {
        let mut a = IndexArrays::default();
        assert_eq!(a.insert(&[0, 1]), 0);
        assert_eq!(a.insert(&[2]), 3);
        assert_eq!(a.insert(&[0, 1]), 0);
        assert_eq!(a.words, [2, 0, 1, 1, 2]);
    }

    #[test]
    fn tables_drop_repeated_records_only_when_asked() {
        for (dedup, rows) in [(true, 1), (false, 2)] {
            let mut t = Table::new(8, dedup);
            t.insert(vec![1, 2]);
            t.insert(vec![1, 2]);
            assert_eq!(t.rows.len(), rows);
            assert_eq!(t.rows[0], [1, 2, 0, 0, 0, 0, 0, 0]);
        }
        assert!(Table::new(8, true).body().is_empty());
    }

    #[test]
    fn demangled_names_are_the_identifier() {
        assert_eq!(demangle(b"\x01?RayGen@@YAXXZ"), b"RayGen");
        assert_eq!(demangle(b"main"), b"main");
    }

    #[test]
    fn operation_rules_follow_the_validator_version() {
        let any_hit = stage(ShaderKind::AnyHit);
        // IgnoreHit: any-hit shaders from 6.3.
        let c = op_compat(155, b"dx.op.ignoreHit", (1, 7), None);
        assert_eq!((c.major, c.minor, c.mask), (6, 3, any_hit));
        // Sample excludes compute, mesh and amplification before 1.8.
        let before = op_compat(60, b"dx.op.sample.f32", (1, 7), None).mask;
        let after = op_compat(60, b"dx.op.sample.f32", (1, 8), None).mask;
        assert_eq!(before & stage(ShaderKind::Compute), 0);
        assert_ne!(after & stage(ShaderKind::Compute), 0);
        // 64-bit atomics need 6.6.
        let c = op_compat(78, b"dx.op.atomicBinOp.i64", (1, 7), None);
        assert_eq!((c.major, c.minor), (6, 6));
        // An operation of no row: every stage from 6.0.
        let c = op_compat(1, b"dx.op.tempRegLoad.i32", (1, 7), None);
        assert_eq!((c.major, c.minor, c.mask), (6, 0, ALL));
    }

    #[test]
    fn barriers_limit_the_stages_as_dxc_does() {
        let node = usage::Barrier {
            node: true,
            ..usage::Barrier::default()
        };
        let c = op_compat(244, b"dx.op.barrierByMemoryType", (1, 8), Some(&node));
        assert_eq!(c.mask, stage(ShaderKind::Library) | stage(ShaderKind::Node));
        let group = usage::Barrier {
            group: true,
            untranslatable: true,
            ..usage::Barrier::default()
        };
        let c = op_compat(244, b"dx.op.barrierByMemoryType", (1, 8), Some(&group));
        assert_eq!((c.major, c.minor), (6, 8));
        assert_eq!(c.mask & stage(ShaderKind::Pixel), 0);
        assert_ne!(c.mask & stage(ShaderKind::Compute), 0);
        let reorder = usage::Barrier {
            reorder: true,
            ..usage::Barrier::default()
        };
        let c = op_compat(245, b"dx.op.barrierByMemoryHandle", (1, 9), Some(&reorder));
        assert_eq!((c.major, c.minor), (6, 9));
        // Before validator 1.5 barriers had no stage rule.
        let c = op_compat(80, b"dx.op.barrier", (1, 4), Some(&group));
        assert_eq!(c.mask, ALL);
    }

    #[test]
    fn node_tables_follow_dxc_s_insertion_order() {
        let mut strings = Strings::new();
        let mut arrays = IndexArrays::default();
        let mut tables = NodeTables::new(true);
        let output = NodeIo {
            flags: 0x6,
            record: NodeRecordType {
                size: 16,
                dispatch_grid: (4, 5, 3),
                alignment: 0,
            },
            output_id: NodeId {
                name: b"Next".to_vec(),
                index: 0,
            },
            max_records: 2,
            max_records_shared_with: -1,
            output_array_size: 0,
            allow_sparse_nodes: false,
        };
        let node = NodeProperties {
            launch_type: 1,
            is_program_entry: true,
            id: NodeId {
                name: b"First".to_vec(),
                index: 0,
            },
            local_root_arguments_table_index: -1,
            share_input_of: NodeId::default(),
            dispatch_grid: [2, 1, 1],
            max_recursion_depth: 0,
            max_dispatch_grid: [0; 3],
            inputs: Vec::new(),
            outputs: vec![output],
        };
        let at = tables.add_shader(&mut strings, &mut arrays, &node, Some([8, 1, 1]), 64);
        assert_eq!(at, 0);
        assert_eq!(strings.bytes, b"\0First\0Next\0");
        // ID, NumThreads, DispatchGrid.
        assert_eq!(tables.function_attributes.rows.len(), 3);
        // The function attributes, [8 1 1] and [2 1 1] first; the empty
        // input list; the output's attributes (OutputID, OutputArraySize,
        // MaxRecords, RecordSizeInBytes, RecordDispatchGrid); the output list.
        assert_eq!(
            arrays.words,
            [3, 8, 1, 1, 3, 2, 1, 1, 3, 0, 1, 2, 0, 5, 0, 1, 2, 3, 4, 1, 0]
        );
        let dispatch_grid = &tables.io_attributes.rows[4];
        assert_eq!(dispatch_grid[..4], 5u32.to_le_bytes());
        // Offset 4, 3 components of type 5 (U32): (3 | 5 << 2) << 16 | 4.
        assert_eq!(dispatch_grid[4..], ((23u32 << 16) | 4).to_le_bytes());
        let info = &tables.shaders.rows[0];
        let words: Vec<u32> = info
            .chunks(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        // Launch type, group shared bytes, attributes, outputs, inputs.
        assert_eq!(words, [1, 64, 8, 19, 12]);
    }

    #[test]
    fn raw_bytes_are_kept_once() {
        let mut raw = RawBytes::default();
        assert_eq!(raw.insert(b"abc"), 0);
        assert_eq!(raw.insert(b"de"), 3);
        assert_eq!(raw.insert(b"abc"), 0);
        assert_eq!(raw.bytes, b"abcde");
    }

    #[test]
    fn an_rdat_with_an_unknown_table_is_not_derived() {
        let strings = [0u8; 4];
        let subobjects = crate::rdat::write_table::<crate::rdat::SubobjectRecord>(&[], 24);
        let with = write_rdat(&[
            (RdatPartType::StringBuffer, &strings),
            (RdatPartType::SubobjectTable, &subobjects),
        ]);
        assert!(only_derived_tables(&with).is_ok());
        let signatures = write_rdat(&[
            (RdatPartType::StringBuffer, &strings),
            (RdatPartType::SignatureElementTable, &subobjects),
        ]);
        assert_eq!(
            only_derived_tables(&signatures).unwrap_err().to_string(),
            "RDAT: not derived for a library with an RDAT table not made from the module"
        );
    }
}
