//! RDAT of a library, made from the module as dxc's `DxilRDATWriter` makes
//! it (docs/format/derived-parts.md §RDAT): the string buffer (deduplicated,
//! the empty string first), the resource table (constant buffers, samplers,
//! SRVs, UAVs), the function table (every defined function in module order:
//! names, the resources and unresolved functions its instructions reach,
//! shader kind, payload and attribute sizes, feature flags, the stages it
//! may run in and its minimum shader model), the index arrays
//! (deduplicated) and, from validator 1.8, the function table's second
//! record form; empty parts are left out and the rest padded to 4 bytes.
//!
//! The per-function stage mask and minimum shader model come from the DXIL
//! operations each function calls (dxc's per-operation table,
//! `OP::GetMinShaderModelAndMask`, with the validator-version rules of the
//! call) and, from validator 1.8, are merged from callees into callers. The
//! feature flags are collected per function from its instructions as dxc's
//! `ShaderFlags::CollectShaderFlags` does for doubles (and their
//! extensions), 64-bit integers, wave and quad operations, MSAD,
//! CheckAccessFullyMapped, ViewID, barycentrics and ray queries. A module
//! using what sets the other flags or needs resource tracking (16-bit
//! values, typed and texture loads, 64-bit atomics, sampling with offsets
//! that are not constants, derivatives and sampling from validator 1.8,
//! barriers, heap indexing, sampler feedback, writable MSAA textures, the
//! 6.7+ texture operations, group shared memory), work-graph nodes, wave
//! sizes, signatures or subobjects is [`DeriveError::RdatUnsupported`],
//! never a guess.

use super::{DeriveError, Facts};
use crate::dxil::metadata::{EntryPoint, Resource, ResourceClass, ResourceDetail};
use crate::dxil::model::{
    ConstantKind, FunctionBody, InstructionKind, Linkage, Module, ModuleValue, Operand, Type,
    TypeId, ValueId,
};
use crate::rdat::{
    write_rdat, FunctionKind, FunctionRecord, RdatPartType, ResourceFlags, ResourceRecord,
    TableHeader, NULL_REF,
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

    fn insert(&mut self, mut record: Vec<u8>) {
        record.resize(self.stride, 0);
        if self.dedup && self.at.contains_key(&record) {
            return;
        }
        self.at
            .entry(record.clone())
            .or_insert(self.rows.len() as u32);
        self.rows.push(record);
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
    /// DXIL operations called: (opcode, the callee's name).
    ops: Vec<(u32, Vec<u8>)>,
    /// The feature bits of the function's own instructions.
    flags: u64,
    /// Defined functions called.
    callees: BTreeSet<usize>,
}

fn reach(
    module: &Module,
    body: &FunctionBody,
    validator: (u32, u32),
) -> Result<Reach, DeriveError> {
    let mut r = Reach {
        flags: type_flags(module, body)?,
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
                    let op = args
                        .first()
                        .and_then(|a| match a {
                            Operand::Value(v) => module.constant(*v).or(body.constant(*v)),
                            Operand::Metadata(_) => None,
                        })
                        .and_then(|c| match c.kind {
                            ConstantKind::Integer(v) => u32::try_from(v).ok(),
                            ConstantKind::Null => Some(0),
                            _ => None,
                        })
                        .ok_or(unsupported(
                            "a DXIL operation call without a constant opcode",
                        ))?;
                    r.ops.push((op, name.clone()));
                    r.flags |= op_flags(module, body, op, name, args, validator)?;
                } else if function.body.is_some() {
                    r.callees.insert(f as usize);
                }
            }
        }
    }
    Ok(r)
}

/// The stages and minimum shader model of one DXIL operation call, with
/// the validator-version rules dxc applies to the call.
fn op_compat(op: u32, callee: &[u8], validator: (u32, u32)) -> Compat {
    let row = OP_COMPAT
        .iter()
        .find(|(first, last, ..)| (*first..=*last).contains(&op));
    let (mut major, mut minor, mut mask) = match row {
        // Library modules take the translated (library) minimum.
        Some((_, _, (major, minor), _, mask)) => (*major, *minor, *mask),
        None => (6, 0, ALL),
    };
    if validator < (1, 8) && takes_derivatives(op) {
        mask &= !(stage(ShaderKind::Compute)
            | stage(ShaderKind::Amplification)
            | stage(ShaderKind::Mesh));
    } else if (matches!(op, 78 | 79) && callee.ends_with(b".i64"))
        || (validator == (1, 6) && matches!(op, 216 | 217))
    {
        // 64-bit atomics; and validator 1.6 gave the 6.6 handle operations
        // 6.6 even in libraries.
        (major, minor) = (6, 6);
    }
    Compat {
        major,
        minor,
        mask,
        flags: 0,
    }
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

/// The RDAT part of library `facts`.
pub(crate) fn write_library_rdat(facts: &Facts<'_>) -> Result<Vec<u8>, DeriveError> {
    let module = facts.module;
    let validator = facts.validator;
    if validator < (1, 5) {
        return Err(unsupported("a validator version below 1.5"));
    }
    if module.named_metadata(b"dx.subobjects").is_some() {
        return Err(unsupported("subobjects"));
    }
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

    let mut reaches: HashMap<usize, Reach> = HashMap::new();
    for (i, f) in module.functions.iter().enumerate() {
        if let Some(body) = &f.body {
            reaches.insert(i, reach(module, body, validator)?);
        }
    }
    let groupshared: Vec<u32> = module
        .globals
        .iter()
        .filter(|g| g.address_space == 3)
        .map(|g| g.common.value.0)
        .collect();
    if reaches
        .values()
        .any(|r| groupshared.iter().any(|g| r.values.contains(g)))
    {
        return Err(unsupported("group shared memory"));
    }

    let msaa = facts.metadata.resources.uavs.iter().any(|u| {
        matches!(
            u.kind,
            crate::psv0::ResourceKind::Texture2DMS | crate::psv0::ResourceKind::Texture2DMSArray
        )
    });
    if msaa {
        return Err(unsupported("a writable multisampled texture"));
    }

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
        for (op, callee) in &r.ops {
            let o = op_compat(*op, callee, validator);
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
        if kind == ShaderKind::Node {
            return Err(unsupported("a work-graph node"));
        }
        if props.is_some_and(|p| p.wave_size.is_some()) {
            return Err(unsupported("a wave size"));
        }
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
            use ShaderKind::*;
            if entry.is_some() {
                match kind {
                    Mesh | Amplification => c.at_least(6, 5),
                    RayGeneration | Intersection | AnyHit | ClosestHit | Miss | Callable => {
                        c.at_least(6, 3)
                    }
                    _ => false,
                };
            }
            if c.flags & feature::RAYTRACING_TIER_1_1 != 0 {
                c.at_least(6, 5);
            } else if c.flags & (feature::VIEW_ID | feature::BARYCENTRICS) != 0 {
                c.at_least(6, 1);
            }
        } else if c.flags & (feature::VIEW_ID | feature::BARYCENTRICS) != 0 {
            c.at_least(6, 1);
        }
        let signed = entry.is_some_and(|e| {
            let s = &e.signatures;
            !(s.inputs.is_empty()
                && s.outputs.is_empty()
                && s.patch_constant_or_primitive.is_empty())
        });
        if signed {
            return Err(unsupported("an entry with signatures"));
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
            // Wave lane counts and shader flags 0, no shader info record.
            record.extend_from_slice(&[0; 4]);
            record.extend_from_slice(&NULL_REF.to_le_bytes());
        }
        functions.insert(record);
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
    ];
    let parts: Vec<(RdatPartType, &[u8])> = candidates
        .iter()
        .filter(|(_, body)| !body.is_empty())
        .map(|(t, body)| (*t, body.as_slice()))
        .collect();
    Ok(write_rdat(&parts))
}

/// The SFI0 feature bits collected here (one to one with dxc's raw flags).
mod feature {
    pub const DOUBLES: u64 = 0x1;
    pub const DOUBLE_EXTENSIONS: u64 = 0x20;
    pub const MSAD: u64 = 0x40;
    pub const TILED_RESOURCES: u64 = 0x100;
    pub const WAVE_OPS: u64 = 0x4000;
    pub const INT64_OPS: u64 = 0x8000;
    pub const VIEW_ID: u64 = 0x1_0000;
    pub const BARYCENTRICS: u64 = 0x2_0000;
    pub const RAYTRACING_TIER_1_1: u64 = 0x10_0000;
}

/// The flags the types of a function's instructions set: a scalar double
/// among an instruction's result and operands (an extension for fdiv and
/// the int/float conversions), a scalar i64; calls of functions other than
/// DXIL operations and extractelement/insertelement do not count.
fn type_flags(module: &Module, body: &FunctionBody) -> Result<u64, DeriveError> {
    let mut flags = 0;
    let is = |ty: Option<TypeId>, want: fn(&Type) -> bool| {
        ty.and_then(|t| module.ty(t)).is_some_and(want)
    };
    for block in &body.blocks {
        for instruction in &block.instructions {
            let kind = &instruction.kind;
            if let InstructionKind::Call {
                callee: Operand::Value(callee),
                ..
            } = kind
            {
                let name = module.global_name(*callee).unwrap_or_default();
                if !name.starts_with(b"dx.op.") {
                    continue;
                }
            }
            if matches!(
                kind,
                InstructionKind::ExtractElement { .. } | InstructionKind::InsertElement { .. }
            ) {
                continue;
            }
            let mut types = vec![instruction.ty];
            for operand in kind.operands() {
                if let Operand::Value(id) = operand {
                    types.push(module.value_type_in(Some(body), id));
                }
            }
            let double = types.iter().any(|t| is(*t, |t| matches!(t, Type::Double)));
            let int64 = types
                .iter()
                .any(|t| is(*t, |t| matches!(t, Type::Integer { bits: 64 })));
            let sixteen = types
                .iter()
                .any(|t| is(*t, |t| matches!(t, Type::Half | Type::Integer { bits: 16 })));
            if sixteen {
                return Err(unsupported("a 16-bit value"));
            }
            if double {
                flags |= feature::DOUBLES;
                let extension = match kind {
                    InstructionKind::BinOp { op, .. } => *op == crate::dxil::model::BinOp::FDiv,
                    InstructionKind::Cast { op, .. } => {
                        use crate::dxil::model::CastOp::*;
                        matches!(op, UiToFp | SiToFp | FpToUi | FpToSi)
                    }
                    _ => false,
                };
                if extension {
                    flags |= feature::DOUBLE_EXTENSIONS;
                }
            }
            if int64 {
                if matches!(
                    kind,
                    InstructionKind::CmpXchg { .. } | InstructionKind::AtomicRmw { .. }
                ) {
                    return Err(unsupported("a 64-bit atomic on group shared memory"));
                }
                flags |= feature::INT64_OPS;
            }
            // Fma on doubles is an extension too.
            if double && call_opcode(module, body, kind) == Some(47) {
                flags |= feature::DOUBLE_EXTENSIONS;
            }
        }
    }
    Ok(flags)
}

/// The opcode of a DXIL operation call.
fn call_opcode(module: &Module, body: &FunctionBody, kind: &InstructionKind) -> Option<u32> {
    let InstructionKind::Call {
        callee: Operand::Value(callee),
        args,
        ..
    } = kind
    else {
        return None;
    };
    if !module.global_name(*callee)?.starts_with(b"dx.op.") {
        return None;
    }
    let Operand::Value(first) = args.first()? else {
        return None;
    };
    match module.constant(*first).or(body.constant(*first))?.kind {
        ConstantKind::Integer(v) => u32::try_from(v).ok(),
        ConstantKind::Null => Some(0),
        _ => None,
    }
}

/// Whether call argument `index` is a constant (undef included).
fn constant_arg(module: &Module, body: &FunctionBody, args: &[Operand], index: usize) -> bool {
    match args.get(index) {
        Some(Operand::Value(v)) => module.constant(*v).or(body.constant(*v)).is_some(),
        _ => false,
    }
}

/// The flags one DXIL operation call sets, or why they are not derived.
fn op_flags(
    module: &Module,
    body: &FunctionBody,
    op: u32,
    callee: &[u8],
    args: &[Operand],
    validator: (u32, u32),
) -> Result<u64, DeriveError> {
    let constant_offsets = (7..=9).all(|i| constant_arg(module, body, args, i));
    Ok(match op {
        110..=123 | 135 | 136 | 165..=167 | 222 => feature::WAVE_OPS,
        50 => feature::MSAD,
        71 => feature::TILED_RESOURCES,
        138 => feature::VIEW_ID,
        137 if validator >= (1, 6) => feature::BARYCENTRICS,
        137 => 0,
        178 | 213 | 258 => feature::RAYTRACING_TIER_1_1,
        // Sample, SampleBias, SampleLevel, SampleGrad, SampleCmp,
        // SampleCmpLevelZero: flags only from offsets that are not
        // constants and, from 1.8, from derivatives and clamps.
        62 | 65 if constant_offsets => 0,
        60 | 61 | 63 | 64 if constant_offsets && validator < (1, 8) => 0,
        60..=65 => return Err(unsupported("sampling whose flags are not derived")),
        81 | 83..=86 if validator < (1, 8) => 0,
        81 | 83..=86 => return Err(unsupported("a derivative from validator 1.8")),
        66 | 68 => return Err(unsupported("a typed or texture load")),
        // AtomicBinOp, AtomicCompareExchange: flags only on 64-bit values.
        78 | 79 if !callee.ends_with(b".i64") => 0,
        78 | 79 => return Err(unsupported("a 64-bit atomic operation")),
        80 | 244..=246 => return Err(unsupported("a barrier")),
        91 => return Err(unsupported("inner coverage")),
        174..=177 => return Err(unsupported("sampler feedback")),
        218 => return Err(unsupported("descriptor heap indexing")),
        223..=225 | 254..=257 => return Err(unsupported("a 6.7+ texture or command operation")),
        op if op >= 1 << 31 => return Err(unsupported("an experimental operation")),
        _ => 0,
    })
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
        ];
        match kind {
            Some(kind) if made.contains(&kind) => {}
            Some(RdatPartType::RawBytes | RdatPartType::SubobjectTable) => {
                return Err(unsupported("subobjects (dxc keeps them only in RDAT)"))
            }
            _ => return Err(unsupported("an RDAT table not made from the module")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let c = op_compat(155, b"dx.op.ignoreHit", (1, 7));
        assert_eq!((c.major, c.minor, c.mask), (6, 3, any_hit));
        // Sample excludes compute, mesh and amplification before 1.8.
        let before = op_compat(60, b"dx.op.sample.f32", (1, 7)).mask;
        let after = op_compat(60, b"dx.op.sample.f32", (1, 8)).mask;
        assert_eq!(before & stage(ShaderKind::Compute), 0);
        assert_ne!(after & stage(ShaderKind::Compute), 0);
        // 64-bit atomics need 6.6.
        let c = op_compat(78, b"dx.op.atomicBinOp.i64", (1, 7));
        assert_eq!((c.major, c.minor), (6, 6));
        // An operation of no row: every stage from 6.0.
        let c = op_compat(1, b"dx.op.tempRegLoad.i32", (1, 7));
        assert_eq!((c.major, c.minor, c.mask), (6, 0, ALL));
    }

    #[test]
    fn an_rdat_with_subobjects_is_not_derived() {
        let strings = [0u8; 4];
        let subobjects = crate::rdat::write_table::<crate::rdat::SubobjectRecord>(&[], 24);
        let only = write_rdat(&[(RdatPartType::StringBuffer, &strings)]);
        assert!(only_derived_tables(&only).is_ok());
        let with = write_rdat(&[
            (RdatPartType::StringBuffer, &strings),
            (RdatPartType::SubobjectTable, &subobjects),
        ]);
        assert_eq!(
            only_derived_tables(&with).unwrap_err().to_string(),
            "RDAT: not derived for a library with subobjects (dxc keeps them only in RDAT)"
        );
    }
}
