//! CONSTANTS blocks, module-level and function-level (LLVM 3.7's
//! `parseConstants`). Constants refer to values by absolute ID; a reference
//! to a later constant of the same block is a forward reference, resolved
//! when the block ends.

use super::{invalid, u32_field, ForwardMax, Reader};
use crate::bitcode::error::{BitcodeError, BitcodeErrorKind, Result};
use crate::bitcode::reader::{Record, StreamReader};
use crate::dxil::model::*;

mod code {
    pub const SETTYPE: u32 = 1;
    pub const NULL: u32 = 2;
    pub const INTEGER: u32 = 4;
    pub const WIDE_INTEGER: u32 = 5;
    pub const FLOAT: u32 = 6;
    pub const AGGREGATE: u32 = 7;
    pub const STRING: u32 = 8;
    pub const CSTRING: u32 = 9;
    pub const CE_BINOP: u32 = 10;
    pub const CE_CAST: u32 = 11;
    pub const CE_GEP: u32 = 12;
    pub const CE_SELECT: u32 = 13;
    pub const CE_EXTRACTELT: u32 = 14;
    pub const CE_INSERTELT: u32 = 15;
    pub const CE_SHUFFLEVEC: u32 = 16;
    pub const CE_CMP: u32 = 17;
    pub const INLINEASM_OLD: u32 = 18;
    pub const CE_SHUFVEC_EX: u32 = 19;
    pub const CE_INBOUNDS_GEP: u32 = 20;
    pub const BLOCKADDRESS: u32 = 21;
    pub const DATA: u32 = 22;
    pub const INLINEASM: u32 = 23;
}

/// Decodes a signed VBR field (sign in bit 0) as LLVM's
/// `decodeSignRotatedValue` does ("-0" is the minimum).
pub(crate) fn decode_signed(v: u64) -> u64 {
    if v & 1 == 0 {
        v >> 1
    } else if v != 1 {
        (!(v >> 1)).wrapping_add(1)
    } else {
        1 << 63
    }
}

/// `v` truncated to `bits` (1..=64) and sign-extended.
pub(crate) fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

impl Reader {
    /// Reads a CONSTANTS block whose first constant gets value ID
    /// `first_id`; returns the constants in order. References to IDs at or
    /// past the end of the block are errors (LLVM's "Invalid constant
    /// reference").
    pub(crate) fn read_constants(
        &self,
        stream: &mut StreamReader<'_>,
        first_id: u32,
    ) -> Result<Vec<Constant>> {
        let mut out: Vec<Constant> = Vec::new();
        let mut forward = ForwardMax::default();
        let mut cur_ty: Option<TypeId> = None;
        let mut fields = Vec::new();
        let mut end = 0;
        let mut records: Vec<(u64, u32)> = Vec::new();
        super::flat_block_with(
            stream,
            &mut fields,
            |_| true,
            |r, f| {
                end = r.end_bit();
                if r.code == code::SETTYPE {
                    let id = *f.first().ok_or_else(|| invalid(r, "too few fields"))?;
                    cur_ty = Some(self.type_id(r, id)?);
                    return Ok(());
                }
                let ty = match cur_ty {
                    Some(t) => t,
                    None => self.int_type(r, 32)?,
                };
                let next = first_id
                    .checked_add(out.len() as u32)
                    .ok_or_else(|| invalid(r, "too many values"))?;
                let mut refs = Refs {
                    next,
                    forward: &mut forward,
                };
                let kind = self.constant(r, f, ty, &mut refs)?;
                out.push(Constant { ty, kind });
                records.push((r.bit_offset, r.code));
                Ok(())
            },
        )?;
        let count = first_id as u64 + out.len() as u64;
        if let Some((id, at)) = forward.unresolved(count) {
            return Err(BitcodeError {
                bit_offset: at,
                kind: BitcodeErrorKind::Unresolved {
                    what: "constant",
                    id: u64::from(id),
                },
            });
        }
        let _ = end;
        if let Some(at) = first_cycle(&out, first_id) {
            let (bit_offset, code) = records[at];
            return Err(BitcodeError {
                bit_offset,
                kind: BitcodeErrorKind::InvalidRecord {
                    block_id: crate::bitcode::codes::block::CONSTANTS,
                    code,
                    reason: "the constant contains itself (through forward references)",
                },
            });
        }
        Ok(out)
    }

    /// Decodes one CONSTANTS_BLOCK record into the constant it defines.
    ///
    /// Long: one arm per constants record code (integers, floats, aggregates,
    /// data arrays, strings, each constant-expression form), in LLVM 3.7's
    /// numbering.
    fn constant(
        &self,
        r: &Record<'_>,
        f: &[u64],
        ty: TypeId,
        refs: &mut Refs<'_>,
    ) -> Result<ConstantKind> {
        let need = |n: usize| {
            if f.len() < n {
                Err(invalid(r, "too few fields"))
            } else {
                Ok(())
            }
        };
        let cur = self.ty(ty).clone();
        Ok(match r.code {
            code::NULL => ConstantKind::Null,
            code::INTEGER => {
                need(1)?;
                let Type::Integer { bits } = cur else {
                    return Err(invalid(r, "INTEGER of a non-integer type"));
                };
                let v = decode_signed(f[0]);
                if bits > 64 {
                    ConstantKind::WideInteger(vec![v])
                } else {
                    ConstantKind::Integer(sign_extend(v, bits))
                }
            }
            code::WIDE_INTEGER => {
                need(1)?;
                let Type::Integer { bits } = cur else {
                    return Err(invalid(r, "WIDE_INTEGER of a non-integer type"));
                };
                let words: Vec<u64> = f.iter().map(|&w| decode_signed(w)).collect();
                if bits <= 64 {
                    ConstantKind::Integer(sign_extend(words[0], bits))
                } else {
                    ConstantKind::WideInteger(words)
                }
            }
            code::FLOAT => {
                need(1)?;
                match cur {
                    Type::Half => ConstantKind::Float(f[0] & 0xffff),
                    Type::Float => ConstantKind::Float(f[0] & 0xffff_ffff),
                    Type::Double => ConstantKind::Float(f[0]),
                    Type::X86Fp80 => {
                        need(2)?;
                        ConstantKind::WideFloat([f[0], f[1]])
                    }
                    Type::Fp128 | Type::PpcFp128 => {
                        ConstantKind::WideFloat([f[0], f.get(1).copied().unwrap_or(0)])
                    }
                    _ => ConstantKind::Undef,
                }
            }
            code::AGGREGATE => {
                need(1)?;
                let expected = match &cur {
                    Type::Struct(StructType {
                        body: Some(body), ..
                    }) => Some(body.len() as u64),
                    Type::Array { len, .. } | Type::Vector { len, .. } => Some(*len),
                    _ => None,
                };
                match expected {
                    None => ConstantKind::Undef,
                    Some(n) if n != f.len() as u64 => {
                        return Err(invalid(
                            r,
                            "aggregate element count does not match its type",
                        ))
                    }
                    Some(_) => {
                        let mut elements = Vec::with_capacity(f.len());
                        for &v in f {
                            elements.push(refs.get(r, v)?);
                        }
                        ConstantKind::Aggregate(elements)
                    }
                }
            }
            code::STRING | code::CSTRING => {
                need(1)?;
                let cstring = r.code == code::CSTRING;
                let fits = match &cur {
                    Type::Array { len, element } => {
                        matches!(self.ty(*element), Type::Integer { bits: 8 })
                            && *len == f.len() as u64 + u64::from(cstring)
                    }
                    _ => false,
                };
                if !fits {
                    return Err(invalid(
                        r,
                        "string constant of a type other than its i8 array",
                    ));
                }
                let mut bytes: Vec<u8> = f.iter().map(|&c| c as u8).collect();
                if cstring {
                    bytes.push(0);
                }
                ConstantKind::String { bytes, cstring }
            }
            code::DATA => {
                need(1)?;
                let (len, element) = match &cur {
                    Type::Array { len, element } | Type::Vector { len, element } => {
                        (*len, *element)
                    }
                    _ => return Err(invalid(r, "DATA of a type that is not an array or vector")),
                };
                let mask = match self.ty(element) {
                    Type::Integer { bits: 8 } => 0xff,
                    Type::Integer { bits: 16 } => 0xffff,
                    Type::Integer { bits: 32 } | Type::Float => 0xffff_ffff,
                    Type::Integer { bits: 64 } | Type::Double => u64::MAX,
                    _ => return Err(invalid(r, "DATA of an unsupported element type")),
                };
                if len != f.len() as u64 {
                    return Err(invalid(r, "DATA element count does not match its type"));
                }
                ConstantKind::Data(f.iter().map(|&v| v & mask).collect())
            }
            code::CE_BINOP => {
                need(3)?;
                match binop(f[0], self.ty_is_fp(ty), self.ty_is_int(ty)) {
                    None => ConstantKind::Undef,
                    Some(op) => ConstantKind::BinOp {
                        op,
                        lhs: refs.get(r, f[1])?,
                        rhs: refs.get(r, f[2])?,
                        flags: binop_flags(op, f.get(3).copied(), false),
                    },
                }
            }
            code::CE_CAST => {
                need(3)?;
                match cast_op(f[0]) {
                    None => ConstantKind::Undef,
                    Some(op) => {
                        self.type_id(r, f[1])?;
                        ConstantKind::Cast {
                            op,
                            value: refs.get(r, f[2])?,
                        }
                    }
                }
            }
            code::CE_GEP | code::CE_INBOUNDS_GEP => {
                let mut i = 0;
                let source_type = if f.len() % 2 == 1 {
                    i = 1;
                    Some(self.type_id(r, f[0])?)
                } else {
                    None
                };
                if f.len() < i + 2 {
                    return Err(invalid(r, "GEP without a pointer"));
                }
                let mut operands = Vec::with_capacity((f.len() - i) / 2);
                while i < f.len() {
                    self.type_id(r, f[i])?;
                    operands.push(refs.get(r, f[i + 1])?);
                    i += 2;
                }
                ConstantKind::GetElementPtr {
                    inbounds: r.code == code::CE_INBOUNDS_GEP,
                    source_type,
                    operands,
                }
            }
            code::CE_SELECT => {
                need(3)?;
                ConstantKind::Select {
                    condition: refs.get(r, f[0])?,
                    if_true: refs.get(r, f[1])?,
                    if_false: refs.get(r, f[2])?,
                }
            }
            code::CE_EXTRACTELT => {
                need(3)?;
                let op_ty = self.type_id(r, f[0])?;
                if !matches!(self.ty(op_ty), Type::Vector { .. }) {
                    return Err(invalid(r, "extractelement of a non-vector"));
                }
                let index = if f.len() == 4 {
                    self.type_id(r, f[2])?;
                    f[3]
                } else {
                    f[2]
                };
                ConstantKind::ExtractElement {
                    vector: refs.get(r, f[1])?,
                    index: refs.get(r, index)?,
                }
            }
            code::CE_INSERTELT => {
                need(3)?;
                if !matches!(cur, Type::Vector { .. }) {
                    return Err(invalid(r, "insertelement of a non-vector"));
                }
                let index = if f.len() == 4 {
                    self.type_id(r, f[2])?;
                    f[3]
                } else {
                    f[2]
                };
                ConstantKind::InsertElement {
                    vector: refs.get(r, f[0])?,
                    element: refs.get(r, f[1])?,
                    index: refs.get(r, index)?,
                }
            }
            code::CE_SHUFFLEVEC => {
                need(3)?;
                if !matches!(cur, Type::Vector { .. }) {
                    return Err(invalid(r, "shufflevector of a non-vector"));
                }
                ConstantKind::ShuffleVector {
                    first: refs.get(r, f[0])?,
                    second: refs.get(r, f[1])?,
                    mask: refs.get(r, f[2])?,
                }
            }
            code::CE_SHUFVEC_EX => {
                need(4)?;
                let op_ty = self.type_id(r, f[0])?;
                if !matches!(cur, Type::Vector { .. })
                    || !matches!(self.ty(op_ty), Type::Vector { .. })
                {
                    return Err(invalid(r, "shufflevector of a non-vector"));
                }
                ConstantKind::ShuffleVector {
                    first: refs.get(r, f[1])?,
                    second: refs.get(r, f[2])?,
                    mask: refs.get(r, f[3])?,
                }
            }
            code::CE_CMP => {
                need(4)?;
                let op_ty = self.type_id(r, f[0])?;
                let predicate = predicate(r, f[3], self.ty_is_fp(op_ty))?;
                ConstantKind::Compare {
                    predicate,
                    lhs: refs.get(r, f[1])?,
                    rhs: refs.get(r, f[2])?,
                }
            }
            code::INLINEASM | code::INLINEASM_OLD => {
                need(2)?;
                let is_fn_pointer = match cur {
                    Type::Pointer { pointee, .. } => {
                        matches!(self.ty(pointee), Type::Function(_))
                    }
                    _ => false,
                };
                if !is_fn_pointer {
                    return Err(invalid(
                        r,
                        "inline asm of a type other than a function pointer",
                    ));
                }
                let asm_len = usize::try_from(f[1]).unwrap_or(usize::MAX);
                let asm = f
                    .get(2..)
                    .and_then(|s| s.get(..asm_len))
                    .ok_or_else(|| invalid(r, "inline asm string runs past the record"))?;
                let constraint_at = 2 + asm_len;
                let constraint_len = f
                    .get(constraint_at)
                    .and_then(|&n| usize::try_from(n).ok())
                    .ok_or_else(|| invalid(r, "inline asm without constraints"))?;
                let constraints = f
                    .get(constraint_at + 1..)
                    .and_then(|s| s.get(..constraint_len))
                    .ok_or_else(|| invalid(r, "inline asm constraints run past the record"))?;
                let dialect = if r.code == code::INLINEASM {
                    f[0] >> 2
                } else {
                    0
                };
                ConstantKind::InlineAsm {
                    side_effect: f[0] & 1 != 0,
                    align_stack: if r.code == code::INLINEASM {
                        (f[0] >> 1) & 1 != 0
                    } else {
                        f[0] >> 1 != 0
                    },
                    dialect,
                    asm: asm.iter().map(|&c| c as u8).collect(),
                    constraints: constraints.iter().map(|&c| c as u8).collect(),
                }
            }
            code::BLOCKADDRESS => {
                need(3)?;
                self.type_id(r, f[0])?;
                let function = ValueId(u32_field(r, f[1], "value ID out of range")?);
                if !matches!(self.module.value(function), Some(ModuleValue::Function(_))) {
                    return Err(invalid(
                        r,
                        "blockaddress of something other than a function",
                    ));
                }
                if f[2] == 0 {
                    return Err(invalid(r, "blockaddress of the entry block"));
                }
                ConstantKind::BlockAddress {
                    function,
                    block: BlockId(u32_field(r, f[2], "block ID out of range")?),
                }
            }
            // UNDEF, and LLVM 3.7 reads an unknown constant as undef.
            _ => ConstantKind::Undef,
        })
    }

    pub(crate) fn ty_is_fp(&self, ty: TypeId) -> bool {
        let scalar = match self.ty(ty) {
            Type::Vector { element, .. } => self.ty(*element),
            t => t,
        };
        matches!(
            scalar,
            Type::Half | Type::Float | Type::Double | Type::X86Fp80 | Type::Fp128 | Type::PpcFp128
        )
    }

    pub(crate) fn ty_is_int(&self, ty: TypeId) -> bool {
        let scalar = match self.ty(ty) {
            Type::Vector { element, .. } => self.ty(*element),
            t => t,
        };
        matches!(scalar, Type::Integer { .. })
    }
}

/// The index of a constant of a block that contains itself, directly or
/// through other constants of the block (only forward references can
/// close such a cycle; LLVM cannot build one). An explicit stack: the depth
/// of the walk is the input's to choose.
fn first_cycle(constants: &[Constant], first_id: u32) -> Option<usize> {
    const UNSEEN: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let index = |v: ValueId| {
        v.0.checked_sub(first_id)
            .map(|i| i as usize)
            .filter(|i| *i < constants.len())
    };
    let mut state = vec![UNSEEN; constants.len()];
    let mut stack: Vec<(usize, Vec<ValueId>, usize)> = Vec::new();
    for root in 0..constants.len() {
        if state[root] != UNSEEN {
            continue;
        }
        state[root] = OPEN;
        stack.push((root, constants[root].kind.operands(), 0));
        while let Some((node, operands, next)) = stack.last_mut() {
            let Some(&operand) = operands.get(*next) else {
                state[*node] = DONE;
                stack.pop();
                continue;
            };
            *next += 1;
            let Some(i) = index(operand) else {
                continue;
            };
            match state[i] {
                OPEN => return Some(i),
                UNSEEN => {
                    state[i] = OPEN;
                    stack.push((i, constants[i].kind.operands(), 0));
                }
                _ => {}
            }
        }
    }
    None
}

/// Value references of a constants block: IDs at or past `next` are
/// forward references, checked when the block ends.
struct Refs<'m> {
    next: u32,
    forward: &'m mut ForwardMax,
}

impl Refs<'_> {
    fn get(&mut self, r: &Record<'_>, v: u64) -> Result<ValueId> {
        let id = u32_field(r, v, "value ID out of range")?;
        if id >= self.next {
            self.forward.note(id, r.bit_offset);
        }
        Ok(ValueId(id))
    }
}

/// LLVM 3.7's `getDecodedBinaryOpcode`: `None` for a code that does not
/// fit the operand type.
pub(crate) fn binop(code: u64, fp: bool, int: bool) -> Option<BinOp> {
    if !fp && !int {
        return None;
    }
    Some(match (code, fp) {
        (0, false) => BinOp::Add,
        (0, true) => BinOp::FAdd,
        (1, false) => BinOp::Sub,
        (1, true) => BinOp::FSub,
        (2, false) => BinOp::Mul,
        (2, true) => BinOp::FMul,
        (3, false) => BinOp::UDiv,
        (4, false) => BinOp::SDiv,
        (4, true) => BinOp::FDiv,
        (5, false) => BinOp::URem,
        (6, false) => BinOp::SRem,
        (6, true) => BinOp::FRem,
        (7, false) => BinOp::Shl,
        (8, false) => BinOp::LShr,
        (9, false) => BinOp::AShr,
        (10, false) => BinOp::And,
        (11, false) => BinOp::Or,
        (12, false) => BinOp::Xor,
        _ => return None,
    })
}

/// The optional flags field of a binary operation, decoded by operation
/// (fast-math flags only for instructions).
pub(crate) fn binop_flags(op: BinOp, field: Option<u64>, instruction: bool) -> BinOpFlags {
    let mut flags = BinOpFlags::default();
    let Some(v) = field else {
        return flags;
    };
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl => {
            flags.nuw = v & 1 != 0;
            flags.nsw = v & 2 != 0;
        }
        BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr => flags.exact = v & 1 != 0,
        BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem if instruction => {
            flags.fast_math = fast_math(v);
        }
        _ => {}
    }
    flags
}

/// The five fast-math bits LLVM 3.7 knows.
pub(crate) fn fast_math(v: u64) -> FastMathFlags {
    FastMathFlags((v & 0x1f) as u8)
}

/// LLVM 3.7's `getDecodedCastOpcode`.
pub(crate) fn cast_op(code: u64) -> Option<CastOp> {
    Some(match code {
        0 => CastOp::Trunc,
        1 => CastOp::ZExt,
        2 => CastOp::SExt,
        3 => CastOp::FpToUi,
        4 => CastOp::FpToSi,
        5 => CastOp::UiToFp,
        6 => CastOp::SiToFp,
        7 => CastOp::FpTrunc,
        8 => CastOp::FpExt,
        9 => CastOp::PtrToInt,
        10 => CastOp::IntToPtr,
        11 => CastOp::BitCast,
        12 => CastOp::AddrSpaceCast,
        _ => return None,
    })
}

/// A comparison predicate, checked against the operand kind.
pub(crate) fn predicate(r: &Record<'_>, v: u64, fp: bool) -> Result<Predicate> {
    let ok = if fp { v <= 15 } else { (32..=41).contains(&v) };
    if !ok {
        return Err(invalid(r, "predicate does not fit the operand type"));
    }
    Ok(Predicate(v as u32))
}
