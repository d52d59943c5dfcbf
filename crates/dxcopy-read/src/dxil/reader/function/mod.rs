//! FUNCTION_BLOCK: a function body (LLVM 3.7's `parseFunctionBody`), with
//! relative value IDs (module version 1+), forward references (a value
//! used before its instruction, its type given in the record), the
//! function's constants, metadata, symbol table and attachments.

use super::constants::{binop, binop_flags, cast_op, decode_signed, fast_math, predicate};
use super::metadata::MdTarget;
use super::{
    alignment, each_entry, fields_into, invalid, string_field, structure, u32_field, ForwardMax,
    Reader,
};
use crate::bitcode::codes::block;
use crate::bitcode::error::{BitcodeError, BitcodeErrorKind, Result};
use crate::bitcode::reader::{Record, StreamReader};
use crate::dxil::model::*;
use std::collections::{BTreeMap, HashMap};

mod instruction;

mod code {
    pub const DECLAREBLOCKS: u32 = 1;
    pub const BINOP: u32 = 2;
    pub const CAST: u32 = 3;
    pub const GEP_OLD: u32 = 4;
    pub const SELECT: u32 = 5;
    pub const EXTRACTELT: u32 = 6;
    pub const INSERTELT: u32 = 7;
    pub const SHUFFLEVEC: u32 = 8;
    pub const CMP: u32 = 9;
    pub const RET: u32 = 10;
    pub const BR: u32 = 11;
    pub const SWITCH: u32 = 12;
    pub const UNREACHABLE: u32 = 15;
    pub const PHI: u32 = 16;
    pub const ALLOCA: u32 = 19;
    pub const LOAD: u32 = 20;
    pub const VAARG: u32 = 23;
    pub const STORE_OLD: u32 = 24;
    pub const EXTRACTVAL: u32 = 26;
    pub const INSERTVAL: u32 = 27;
    pub const CMP2: u32 = 28;
    pub const VSELECT: u32 = 29;
    pub const INBOUNDS_GEP_OLD: u32 = 30;
    pub const INDIRECTBR: u32 = 31;
    pub const DEBUG_LOC_AGAIN: u32 = 33;
    pub const CALL: u32 = 34;
    pub const DEBUG_LOC: u32 = 35;
    pub const FENCE: u32 = 36;
    pub const CMPXCHG_OLD: u32 = 37;
    pub const ATOMICRMW: u32 = 38;
    pub const LOADATOMIC: u32 = 41;
    pub const STOREATOMIC_OLD: u32 = 42;
    pub const GEP: u32 = 43;
    pub const STORE: u32 = 44;
    pub const STOREATOMIC: u32 = 45;
    pub const CMPXCHG: u32 = 46;
}

/// The "new" switch format's magic in the upper bits of the first field.
const SWITCH_INST_MAGIC: u64 = 0x4B5;

/// Where a body's instructions go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Into the body's blocks: the model.
    All,
    /// Nowhere: the body keeps its arguments, constants, metadata,
    /// attachments and values but no blocks; an [`Outline`] says what the
    /// blocks and instructions were.
    Outline,
    /// To the caller, one at a time (a second read of a body outlined
    /// before): only instruction records and constants are read again.
    Stream,
}

/// What a printer needs to know of a body's instructions before it prints
/// the first one, without holding them: a few bytes an instruction.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Outline {
    /// Each block's instruction count.
    pub counts: Vec<u32>,
    /// Each instruction's result value (`u32::MAX`: none), in order.
    pub results: Vec<u32>,
    /// The type of each local value (arguments, constants, instructions),
    /// by value ID minus [`FunctionBody::first_value`].
    pub types: Vec<TypeId>,
    /// The names of instructions, by value ID.
    pub names: HashMap<u32, Vec<u8>>,
    /// The names of blocks, by block number.
    pub block_names: HashMap<u32, Vec<u8>>,
    /// Instructions' attachments in record order, by instruction number.
    pub attachments: HashMap<u32, Vec<Attachment>>,
    /// The branches' edges, (block, target), in instruction and operand
    /// order.
    pub successors: Vec<(u32, BlockId)>,
}

impl Outline {
    /// The outline of a body read whole.
    pub(crate) fn of(body: &FunctionBody) -> Outline {
        let mut outline = Outline::default();
        let mut number = 0u32;
        for (block_number, block) in body.blocks.iter().enumerate() {
            let block_number = block_number as u32;
            outline.counts.push(block.instructions.len() as u32);
            if let Some(name) = &block.name {
                outline.block_names.insert(block_number, name.clone());
            }
            for instruction in &block.instructions {
                outline
                    .results
                    .push(instruction.value.map_or(u32::MAX, |v| v.0));
                if let (Some(value), Some(name)) = (instruction.value, &instruction.name) {
                    outline.names.insert(value.0, name.clone());
                }
                if !instruction.attachments.is_empty() {
                    outline
                        .attachments
                        .insert(number, instruction.attachments.clone());
                }
                if let Some(targets) = successors_of(&instruction.kind) {
                    outline
                        .successors
                        .extend(targets.into_iter().map(|t| (block_number, t)));
                }
                number += 1;
            }
        }
        outline.types = (0..body.values.len() as u32)
            .map(|i| {
                body.value_type(ValueId(body.first_value + i))
                    .unwrap_or(TypeId(u32::MAX))
            })
            .collect();
        outline
    }

    /// The number of instructions.
    pub(crate) fn instruction_count(&self) -> usize {
        self.results.len()
    }

    /// Drops spare capacity (an outline is kept while the module is).
    fn shrink_to_fit(&mut self) {
        self.counts.shrink_to_fit();
        self.results.shrink_to_fit();
        self.types.shrink_to_fit();
        self.names.shrink_to_fit();
        self.block_names.shrink_to_fit();
        self.attachments.shrink_to_fit();
        self.successors.shrink_to_fit();
    }
}

/// The blocks a terminator branches to, in operand order (`None`: not a
/// branch).
pub(crate) fn successors_of(kind: &InstructionKind) -> Option<Vec<BlockId>> {
    Some(match kind {
        InstructionKind::Br { dest } => vec![*dest],
        InstructionKind::CondBr {
            if_true, if_false, ..
        } => vec![*if_true, *if_false],
        InstructionKind::Switch { default, cases, .. } => {
            let mut v = vec![*default];
            v.extend(cases.iter().map(|c| c.dest));
            v
        }
        InstructionKind::IndirectBr { destinations, .. } => destinations.clone(),
        _ => return None,
    })
}

/// A decoded instruction on its way to a [`Keep::Stream`] reader's caller:
/// its block, the instruction (without name and attachments, which the
/// [`Outline`] has) and the bit offset of its record in the bitcode.
pub(crate) type Streamed = (u32, Instruction, u64);

/// A function body being read.
struct Body<'s> {
    /// The module's value count: the first local value ID.
    first: u32,
    /// The module's metadata count: the first function metadata ID.
    md_first: u32,
    body: FunctionBody,
    /// The type of each local value.
    types: Vec<TypeId>,
    /// Local value IDs used before their definition: (type, bit offset).
    forward: BTreeMap<u32, (TypeId, u64)>,
    /// Metadata IDs used before their definition.
    md_forward: ForwardMax,
    /// LocalAsMetadata values: (value, type, bit offset).
    md_values: Vec<(ValueId, TypeId, u64)>,
    /// DECLAREBLOCKS' count.
    declared_blocks: Option<u64>,
    /// The block instructions go to; `None` before DECLAREBLOCKS and after
    /// the last block's terminator.
    current: Option<u32>,
    /// LLVM's InstructionList: where each instruction is (attachments index it).
    instruction_list: Vec<(u32, u32)>,
    last_loc: Option<DebugLoc>,
    /// Where instructions go.
    keep: Keep,
    /// What they were ([`Keep::Outline`]).
    outline: Outline,
    /// The last instruction read, until its debug location is known
    /// ([`Keep::Stream`]).
    pending: Option<Streamed>,
    /// Local values defined so far.
    defined: u32,
    /// Instructions read so far.
    seen: u32,
    /// With [`Keep::Stream`]: the body as outlined before (its constants
    /// and values) and its local value types, in place of `body` and
    /// `types`, which stay empty.
    skeleton: Option<(&'s FunctionBody, &'s [TypeId])>,
}

impl Body<'_> {
    fn next_value(&self) -> u32 {
        self.first.saturating_add(self.defined)
    }

    /// A new local value of type `ty`, with what it is.
    fn define(&mut self, ty: TypeId, value: LocalValue) {
        self.defined = self.defined.saturating_add(1);
        if self.skeleton.is_none() {
            self.types.push(ty);
            self.body.values.push(value);
        }
    }

    /// The type of local value number `index` (its ID minus `first`).
    fn local_type(&self, index: u32) -> Option<TypeId> {
        if index >= self.defined {
            return None;
        }
        match self.skeleton {
            Some((_, types)) => types.get(index as usize).copied(),
            None => self.types.get(index as usize).copied(),
        }
    }

    /// The local constant with ID `id`.
    fn constant(&self, id: ValueId) -> Option<&Constant> {
        match self.skeleton {
            Some((skeleton, _)) if id.0 < self.next_value() => skeleton.constant(id),
            Some(_) => None,
            None => self.body.constant(id),
        }
    }

    /// Opens the next basic block.
    fn new_block(&mut self) {
        if self.keep == Keep::All {
            self.body.blocks.push(BasicBlock::default());
        }
        self.outline.counts.push(0);
    }
}

/// Reads the body of `module.functions[index]`, its instructions kept as
/// `keep` says ([`Keep::All`] or [`Keep::Outline`]).
pub(crate) fn read_body(
    rd: &mut Reader,
    stream: &mut StreamReader<'_>,
    index: u32,
    keep: Keep,
) -> Result<(FunctionBody, Outline)> {
    let first = rd.module.values.len() as u32;
    let md_first = rd.module.metadata.len() as u32;
    let mut b = new_body(rd, stream.pos(), index, keep, (first, md_first))?;
    let mut f = Vec::new();
    let body = std::cell::RefCell::new(b);
    let reader = std::cell::RefCell::new(rd);
    each_entry(
        stream,
        |r| {
            fields_into(r, &mut f);
            reader.borrow().instruction(&mut body.borrow_mut(), r, &f)?;
            Ok(())
        },
        |s, id, _| {
            let mut rd = reader.borrow_mut();
            let mut b = body.borrow_mut();
            match id {
                block::CONSTANTS => rd.body_constants(&mut b, s),
                block::METADATA => {
                    let b = &mut *b;
                    let mut list = std::mem::take(&mut b.body.metadata);
                    let result = rd.read_metadata(
                        s,
                        MdTarget {
                            list: &mut list,
                            base: b.md_first,
                            forward: &mut b.md_forward,
                            values: &mut b.md_values,
                            named: None,
                        },
                    );
                    b.body.metadata = list;
                    result
                }
                block::VALUE_SYMTAB => rd.function_symtab(&mut b, s),
                block::METADATA_ATTACHMENT => rd.attachments(&mut b, s),
                block::USELIST => super::use_list_block(s, &mut b.body.use_lists),
                _ => s.skip_block(),
            }
        },
    )?;
    b = body.into_inner();
    let rd = reader.into_inner();
    let end = stream.pos();
    rd.check_body(&mut b, end)?;
    let mut outline = b.outline;
    outline.types = b.types;
    outline.shrink_to_fit();
    let mut body = b.body;
    body.values.shrink_to_fit();
    Ok((body, outline))
}

/// Reads a body again that [`read_body`] outlined without error, from the
/// same place (`stream` just inside its FUNCTION_BLOCK, `first` and
/// `md_first` the module's value and metadata counts then): each
/// instruction goes to `sink` with its debug location, in order. Only the
/// instruction records and the constants (which number values) are read;
/// the metadata, symbol table and attachments are the outline's.
pub(crate) fn stream_body(
    rd: &Reader,
    stream: &mut StreamReader<'_>,
    index: u32,
    (first, md_first): (u32, u32),
    (skeleton, outline): (&FunctionBody, &Outline),
    sink: &mut dyn FnMut(Streamed),
) -> Result<()> {
    let mut b = new_body(rd, stream.pos(), index, Keep::Stream, (first, md_first))?;
    b.skeleton = Some((skeleton, &outline.types));
    let mut f = Vec::new();
    let body = std::cell::RefCell::new(b);
    let sink = std::cell::RefCell::new(sink);
    each_entry(
        stream,
        |r| {
            fields_into(r, &mut f);
            let done = rd.instruction(&mut body.borrow_mut(), r, &f)?;
            if let Some(done) = done {
                (sink.borrow_mut())(done);
            }
            Ok(())
        },
        |s, id, _| match id {
            block::CONSTANTS => rd.body_constants(&mut body.borrow_mut(), s),
            _ => s.skip_block(),
        },
    )?;
    if let Some(last) = body.borrow_mut().pending.take() {
        (sink.borrow_mut())(last);
    }
    Ok(())
}

/// The state of a body read: arguments numbered.
fn new_body<'s>(
    rd: &Reader,
    start: u64,
    index: u32,
    keep: Keep,
    (first, md_first): (u32, u32),
) -> Result<Body<'s>> {
    let function_type = rd
        .module
        .functions
        .get(index as usize)
        .map(|f| f.function_type)
        .ok_or_else(|| structure(start, "a function body without a function"))?;
    let Type::Function(fty) = rd.ty(function_type) else {
        return Err(structure(
            start,
            "a function whose type is not a function type",
        ));
    };
    let mut b = Body {
        first,
        md_first,
        body: FunctionBody {
            first_value: first,
            ..FunctionBody::default()
        },
        types: Vec::new(),
        forward: BTreeMap::new(),
        md_forward: ForwardMax::default(),
        md_values: Vec::new(),
        declared_blocks: None,
        current: None,
        instruction_list: Vec::new(),
        last_loc: None,
        keep,
        outline: Outline::default(),
        pending: None,
        defined: 0,
        seen: 0,
        skeleton: None,
    };
    for (i, &ty) in fty.params.iter().enumerate() {
        let value = ValueId(b.next_value());
        b.body.args.push(Argument {
            ty,
            value,
            name: None,
        });
        b.define(ty, LocalValue::Argument(i as u32));
    }
    Ok(b)
}

impl Reader {
    /// A function's CONSTANTS block: its values numbered after those
    /// before it.
    fn body_constants(&self, b: &mut Body, s: &mut StreamReader<'_>) -> Result<()> {
        let first_id = b.next_value();
        let constants = self.read_constants(s, first_id)?;
        for c in constants {
            let i = b.body.constants.len() as u32;
            b.define(c.ty, LocalValue::Constant(i));
            if b.skeleton.is_none() {
                b.body.constants.push(c);
            }
        }
        self.resolve_forward(b, s.pos())
    }

    /// Checks the forward references that the values defined so far resolve.
    fn resolve_forward(&self, b: &mut Body, at: u64) -> Result<()> {
        let next = b.next_value();
        let resolved: Vec<u32> = b.forward.range(..next).map(|(&id, _)| id).collect();
        for id in resolved {
            if let Some((ty, ref_at)) = b.forward.remove(&id) {
                let actual = b.local_type(id - b.first);
                if actual != Some(ty) {
                    let _ = at;
                    return Err(BitcodeError {
                        bit_offset: ref_at,
                        kind: BitcodeErrorKind::InvalidModule {
                            reason: "a forward reference's type differs from the value's",
                        },
                    });
                }
            }
        }
        Ok(())
    }

    fn check_body(&self, b: &mut Body, end: u64) -> Result<()> {
        self.resolve_forward(b, end)?;
        if let Some((&id, &(_, at))) = b.forward.iter().next() {
            return Err(BitcodeError {
                bit_offset: at,
                kind: BitcodeErrorKind::Unresolved {
                    what: "value",
                    id: u64::from(id),
                },
            });
        }
        let md_count = b.md_first.saturating_add(b.body.metadata.len() as u32);
        if let Some((id, at)) = b.md_forward.unresolved(u64::from(md_count)) {
            return Err(BitcodeError {
                bit_offset: at,
                kind: BitcodeErrorKind::Unresolved {
                    what: "metadata",
                    id: u64::from(id),
                },
            });
        }
        for &(value, ty, at) in &b.md_values {
            if self.type_of(b, value) != Some(ty) {
                return Err(BitcodeError {
                    bit_offset: at,
                    kind: BitcodeErrorKind::InvalidModule {
                        reason: "function metadata names a value that does not exist with its type",
                    },
                });
            }
        }
        let declared = b.declared_blocks.unwrap_or(0);
        if (b.outline.counts.len() as u64) < declared || b.outline.counts.last() == Some(&0) {
            return Err(structure(end, "a declared basic block has no instructions"));
        }
        if b.current.is_some() {
            return Err(structure(end, "the last basic block has no terminator"));
        }
        if b.declared_blocks.is_none() {
            return Err(structure(end, "a function body without DECLAREBLOCKS"));
        }
        Ok(())
    }

    /// The type of a defined value.
    fn type_of(&self, b: &Body, id: ValueId) -> Option<TypeId> {
        if id.0 < b.first {
            return self.value_types.get(id.index()).copied().flatten();
        }
        b.local_type(id.0 - b.first)
    }

    /// The absolute ID a field names (relative IDs from module version 1 on).
    fn absolute(&self, b: &Body, v: u64) -> u32 {
        if self.module.version >= 1 {
            b.next_value().wrapping_sub(v as u32)
        } else {
            v as u32
        }
    }

    /// A value of known type `ty` (LLVM's `getValue`/`popValue`): a
    /// defined value must have that type; a later one is a forward reference.
    fn value_at(&self, b: &mut Body, r: &Record<'_>, id: u32, ty: TypeId) -> Result<Operand> {
        if matches!(self.ty(ty), Type::Metadata) {
            let md = MetadataId(id);
            self.md_ref(b, r, md);
            return Ok(Operand::Metadata(md));
        }
        if id < b.next_value() {
            if self.type_of(b, ValueId(id)) != Some(ty) {
                return Err(invalid(
                    r,
                    "an operand's type differs from the one expected",
                ));
            }
        } else {
            let entry = b.forward.entry(id).or_insert((ty, r.bit_offset));
            if entry.0 != ty {
                return Err(invalid(r, "a forward reference used with two types"));
            }
        }
        Ok(Operand::Value(ValueId(id)))
    }

    fn md_ref(&self, b: &mut Body, r: &Record<'_>, md: MetadataId) {
        let count = b.md_first.saturating_add(b.body.metadata.len() as u32);
        if md.0 >= count {
            b.md_forward.note(md.0, r.bit_offset);
        }
    }

    /// `popValue`: the value at `f[*slot]` (relative) of type `ty`.
    fn pop_value(
        &self,
        b: &mut Body,
        r: &Record<'_>,
        f: &[u64],
        slot: &mut usize,
        ty: TypeId,
    ) -> Result<Operand> {
        let v = *f.get(*slot).ok_or_else(|| invalid(r, "too few fields"))?;
        *slot += 1;
        let id = self.absolute(b, v);
        self.value_at(b, r, id, ty)
    }

    /// `getValueTypePair`: a value, followed by its type when it is a
    /// forward reference.
    fn value_type_pair(
        &self,
        b: &mut Body,
        r: &Record<'_>,
        f: &[u64],
        slot: &mut usize,
    ) -> Result<(Operand, TypeId)> {
        let v = *f.get(*slot).ok_or_else(|| invalid(r, "too few fields"))?;
        *slot += 1;
        let id = self.absolute(b, v);
        if id < b.next_value() {
            let ty = self
                .type_of(b, ValueId(id))
                .ok_or_else(|| invalid(r, "an operand whose type is unknown"))?;
            return Ok((Operand::Value(ValueId(id)), ty));
        }
        let t = *f
            .get(*slot)
            .ok_or_else(|| invalid(r, "a forward reference without its type"))?;
        *slot += 1;
        let ty = self.type_id(r, t)?;
        Ok((self.value_at(b, r, id, ty)?, ty))
    }

    fn block_ref(&self, b: &Body, r: &Record<'_>, v: u64) -> Result<BlockId> {
        match b.declared_blocks {
            Some(n) if v < n => Ok(BlockId(v as u32)),
            _ => Err(invalid(r, "basic block ID out of range")),
        }
    }

    fn pointee(&self, r: &Record<'_>, ty: TypeId) -> Result<(TypeId, u32)> {
        match self.ty(ty) {
            Type::Pointer {
                pointee,
                address_space,
            } => Ok((*pointee, *address_space)),
            _ => Err(invalid(r, "an operand that must be a pointer is not")),
        }
    }

    /// The integer value of a constant, module-level or local.
    fn constant_int(&self, b: &Body, id: ValueId) -> Option<i64> {
        let c = if id.0 < b.first {
            self.module.constant(id)?
        } else {
            b.constant(id)?
        };
        match c.kind {
            ConstantKind::Integer(v) => Some(v),
            ConstantKind::Null => Some(0),
            _ => None,
        }
    }

    /// One record of the body. With [`Keep::Stream`], returns the
    /// instruction before this one when this one is an instruction (the
    /// earlier one's debug location is known then).
    fn instruction(&self, b: &mut Body, r: &Record<'_>, f: &[u64]) -> Result<Option<Streamed>> {
        match r.code {
            code::DECLAREBLOCKS => {
                let n = *f.first().ok_or_else(|| invalid(r, "too few fields"))?;
                if n == 0 || b.declared_blocks.is_some() {
                    return Err(invalid(r, "DECLAREBLOCKS of zero blocks or repeated"));
                }
                if n > u64::from(u32::MAX) {
                    return Err(invalid(r, "too many basic blocks"));
                }
                b.declared_blocks = Some(n);
                b.new_block();
                b.current = Some(0);
                return Ok(None);
            }
            code::DEBUG_LOC_AGAIN => {
                if b.seen == 0 {
                    return Err(invalid(r, "no instruction"));
                }
                let loc = b.last_loc;
                if let Some(inst) = last_instruction(b) {
                    inst.debug_loc = loc;
                }
                return Ok(None);
            }
            code::DEBUG_LOC => {
                if f.len() < 4 {
                    return Err(invalid(r, "too few fields"));
                }
                let md = |v: u64| -> Result<Option<MetadataId>> {
                    if v == 0 {
                        return Ok(None);
                    }
                    Ok(Some(MetadataId(u32_field(
                        r,
                        v - 1,
                        "metadata ID out of range",
                    )?)))
                };
                let loc = DebugLoc {
                    line: f[0] & 0xffff_ffff,
                    column: f[1] & 0xffff_ffff,
                    scope: md(f[2])?,
                    inlined_at: md(f[3])?,
                };
                for m in [loc.scope, loc.inlined_at].into_iter().flatten() {
                    self.md_ref(b, r, m);
                }
                b.last_loc = Some(loc);
                if b.seen == 0 {
                    return Err(invalid(r, "no instruction"));
                }
                if let Some(inst) = last_instruction(b) {
                    inst.debug_loc = Some(loc);
                }
                return Ok(None);
            }
            _ => {}
        }
        let Some(current) = b.current else {
            return Err(invalid(r, "an instruction outside any basic block"));
        };
        let (kind, ty) = self.decode_instruction(b, r, f)?;
        let void = ty.is_none_or(|t| matches!(self.ty(t), Type::Void));
        let terminator = matches!(
            kind,
            InstructionKind::Ret { .. }
                | InstructionKind::Br { .. }
                | InstructionKind::CondBr { .. }
                | InstructionKind::Switch { .. }
                | InstructionKind::IndirectBr { .. }
                | InstructionKind::Unreachable
        );
        let value = if void {
            None
        } else {
            Some(ValueId(b.next_value()))
        };
        let Some(count) = b.outline.counts.get_mut(current as usize) else {
            return Err(invalid(r, "an instruction outside any basic block"));
        };
        let index = *count;
        *count += 1;
        let instruction = Instruction {
            kind,
            ty: if void { None } else { ty },
            value,
            name: None,
            debug_loc: None,
            attachments: Vec::new(),
        };
        let mut done = None;
        match b.keep {
            Keep::All => {
                if let Some(block) = b.body.blocks.get_mut(current as usize) {
                    block.instructions.push(instruction);
                }
            }
            Keep::Outline => {
                b.outline.results.push(value.map_or(u32::MAX, |v| v.0));
                if let Some(targets) = successors_of(&instruction.kind) {
                    b.outline
                        .successors
                        .extend(targets.into_iter().map(|t| (current, t)));
                }
            }
            Keep::Stream => done = b.pending.replace((current, instruction, r.bit_offset)),
        }
        b.seen += 1;
        if b.keep != Keep::Stream {
            b.instruction_list.push((current, index));
        }
        if let (Some(_), Some(t)) = (value, ty) {
            b.define(
                t,
                LocalValue::Instruction {
                    block: BlockId(current),
                    index,
                },
            );
            self.resolve_forward(b, r.bit_offset)?;
        }
        if terminator {
            // The block is complete: its instructions keep no spare
            // capacity (a long block's vector grew by doubling).
            if let Some(block) = b.body.blocks.get_mut(current as usize) {
                block.instructions.shrink_to_fit();
            }
            let next = current + 1;
            if b.declared_blocks.is_some_and(|n| u64::from(next) < n) {
                b.new_block();
                b.current = Some(next);
            } else {
                b.current = None;
            }
        }
        Ok(done)
    }

    fn check_loadable(&self, r: &Record<'_>, ty: TypeId) -> Result<()> {
        match self.ty(ty) {
            Type::Void | Type::Label | Type::Metadata | Type::Function(_) => {
                Err(invalid(r, "load or store of a type that cannot be loaded"))
            }
            Type::Struct(StructType { body: None, .. }) => {
                Err(invalid(r, "load or store of an opaque struct"))
            }
            _ => Ok(()),
        }
    }

    // CALL: [paramattrs, cc, (fmf,) (fnty,) fnid, args…]
    fn call(
        &self,
        b: &mut Body,
        r: &Record<'_>,
        f: &[u64],
    ) -> Result<(InstructionKind, Option<TypeId>)> {
        if f.len() < 3 {
            return Err(invalid(r, "too few fields"));
        }
        let attributes = f[0];
        let cc_info = f[1];
        let mut slot = 2;
        let mut fmf = FastMathFlags::default();
        // Bit 17 (CALL_FMF) is LLVM 3.9+; dxc's LLVM 3.7 never sets it.
        if cc_info & (1 << 17) != 0 {
            fmf = fast_math(*f.get(slot).ok_or_else(|| invalid(r, "too few fields"))?);
            slot += 1;
        }
        let explicit_type = cc_info & (1 << 15) != 0;
        let explicit = if explicit_type {
            let t = self.type_id(r, *f.get(slot).ok_or_else(|| invalid(r, "too few fields"))?)?;
            slot += 1;
            if !matches!(self.ty(t), Type::Function(_)) {
                return Err(invalid(r, "explicit call type is not a function type"));
            }
            Some(t)
        } else {
            None
        };
        let (callee, callee_ty) = self.value_type_pair(b, r, f, &mut slot)?;
        let (pointee, _) = self.pointee(r, callee_ty)?;
        let function_type = match explicit {
            Some(t) if t != pointee => {
                return Err(invalid(r, "explicit call type differs from the callee's"))
            }
            Some(t) => t,
            None => pointee,
        };
        let Type::Function(fty) = self.ty(function_type).clone() else {
            return Err(invalid(r, "callee is not a pointer to a function"));
        };
        if f.len() < slot + fty.params.len() {
            return Err(invalid(r, "too few call arguments"));
        }
        let mut args = Vec::with_capacity(fty.params.len());
        for &param in &fty.params {
            if matches!(self.ty(param), Type::Label) {
                return Err(invalid(r, "a call argument of type label"));
            }
            args.push(self.pop_value(b, r, f, &mut slot, param)?);
        }
        if fty.vararg {
            while slot < f.len() {
                args.push(self.value_type_pair(b, r, f, &mut slot)?.0);
            }
        } else if slot != f.len() {
            return Err(invalid(r, "too many call arguments"));
        }
        let tail = if cc_info & (1 << 14) != 0 {
            TailCall::MustTail
        } else if cc_info & 1 != 0 {
            TailCall::Tail
        } else {
            TailCall::None
        };
        Ok((
            InstructionKind::Call {
                callee,
                function_type,
                args,
                attributes,
                calling_conv: (cc_info >> 1) & 0x1fff,
                tail,
                fast_math: fmf,
                explicit_type,
            },
            Some(fty.ret),
        ))
    }

    fn function_symtab(&mut self, b: &mut Body, stream: &mut StreamReader<'_>) -> Result<()> {
        super::flat_block(stream, |r| {
            let skip = match r.code {
                1 | 2 => 1,
                _ => return Ok(()),
            };
            let id = r
                .values()
                .next()
                .ok_or_else(|| invalid(r, "too few fields"))?;
            let name = string_field(r, skip)?;
            if r.code == 2 {
                let number = u32::try_from(id)
                    .ok()
                    .filter(|&n| (n as usize) < b.outline.counts.len())
                    .ok_or_else(|| invalid(r, "basic block ID out of range"))?;
                b.body.symbol_order.push(Symbol::Block(BlockId(number)));
                if b.keep == Keep::Outline {
                    b.outline.block_names.insert(number, name);
                } else if let Some(bb) = b.body.blocks.get_mut(number as usize) {
                    bb.name = Some(name);
                }
                return Ok(());
            }
            let id = u32_field(r, id, "value ID out of range")?;
            b.body.symbol_order.push(Symbol::Value(ValueId(id)));
            if id < b.first {
                // A module value: LLVM would rename it; the module's own
                // symbol table names it too, and wins here.
                return Ok(());
            }
            match b.body.values.get((id - b.first) as usize).copied() {
                Some(LocalValue::Argument(i)) => {
                    if let Some(a) = b.body.args.get_mut(i as usize) {
                        a.name = Some(name);
                    }
                }
                Some(LocalValue::Instruction { block, index }) => {
                    if b.keep == Keep::Outline {
                        b.outline.names.insert(id, name);
                    } else if let Some(inst) = b
                        .body
                        .blocks
                        .get_mut(block.index())
                        .and_then(|bb| bb.instructions.get_mut(index as usize))
                    {
                        inst.name = Some(name);
                    }
                }
                Some(LocalValue::Constant(_)) => {
                    return Err(invalid(r, "a name for a constant"));
                }
                None => return Err(invalid(r, "value ID out of range")),
            }
            Ok(())
        })
    }

    fn attachments(&mut self, b: &mut Body, stream: &mut StreamReader<'_>) -> Result<()> {
        let mut f = Vec::new();
        let kinds = &self.module.metadata_kinds;
        let module_md = b.md_first;
        super::flat_block(stream, |r| {
            if r.code != 11 {
                return Ok(());
            }
            fields_into(r, &mut f);
            if f.is_empty() {
                return Err(invalid(r, "empty attachment"));
            }
            let pair = |kind: u64, node: u64| -> Result<Attachment> {
                let kind = u32_field(r, kind, "metadata kind out of range")?;
                if !kinds.iter().any(|k| k.id == kind) {
                    return Err(invalid(r, "unknown metadata kind"));
                }
                Ok(Attachment {
                    kind,
                    node: MetadataId(u32_field(r, node, "metadata ID out of range")?),
                })
            };
            if f.len() % 2 == 0 {
                for p in f.chunks_exact(2) {
                    let a = pair(p[0], p[1])?;
                    b.body.attachments.push(a);
                }
                return Ok(());
            }
            let number = usize::try_from(f[0])
                .ok()
                .filter(|&i| i < b.instruction_list.len())
                .ok_or_else(|| invalid(r, "instruction ID out of range"))?;
            let (block, index) = b.instruction_list[number];
            let mut found = Vec::new();
            for p in f[1..].chunks_exact(2) {
                let a = pair(p[0], p[1])?;
                // LLVM drops the rest at a function-local value.
                let local = a.node.0 >= module_md
                    && matches!(
                        b.body.metadata.get((a.node.0 - module_md) as usize),
                        Some(Metadata::Value { .. })
                    );
                if local {
                    break;
                }
                found.push(a);
            }
            for a in found {
                if a.node.0 >= module_md.saturating_add(b.body.metadata.len() as u32) {
                    b.md_forward.note(a.node.0, r.bit_offset);
                }
                if b.keep == Keep::Outline {
                    b.outline
                        .attachments
                        .entry(number as u32)
                        .or_default()
                        .push(a);
                } else if let Some(inst) = b
                    .body
                    .blocks
                    .get_mut(block as usize)
                    .and_then(|bb| bb.instructions.get_mut(index as usize))
                {
                    inst.attachments.push(a);
                }
            }
            Ok(())
        })
    }
}

/// The last instruction read, where the body keeps it.
fn last_instruction<'b>(b: &'b mut Body<'_>) -> Option<&'b mut Instruction> {
    if b.keep == Keep::Stream {
        return b.pending.as_mut().map(|(_, i, _)| i);
    }
    let &(block, index) = b.instruction_list.last()?;
    b.body
        .blocks
        .get_mut(block as usize)?
        .instructions
        .get_mut(index as usize)
}

fn ordering(r: &Record<'_>, v: u64) -> Result<AtomicOrdering> {
    Ok(match v {
        0 => AtomicOrdering::NotAtomic,
        1 => AtomicOrdering::Unordered,
        2 => AtomicOrdering::Monotonic,
        3 => AtomicOrdering::Acquire,
        4 => AtomicOrdering::Release,
        5 => AtomicOrdering::AcqRel,
        6 => AtomicOrdering::SeqCst,
        _ => return Err(invalid(r, "unknown atomic ordering")),
    })
}

fn scope(v: u64) -> SynchScope {
    if v == 0 {
        SynchScope::SingleThread
    } else {
        SynchScope::CrossThread
    }
}

fn rmw_op(v: u64) -> Option<RmwOp> {
    Some(match v {
        0 => RmwOp::Xchg,
        1 => RmwOp::Add,
        2 => RmwOp::Sub,
        3 => RmwOp::And,
        4 => RmwOp::Nand,
        5 => RmwOp::Or,
        6 => RmwOp::Xor,
        7 => RmwOp::Max,
        8 => RmwOp::Min,
        9 => RmwOp::UMax,
        10 => RmwOp::UMin,
        _ => return None,
    })
}
