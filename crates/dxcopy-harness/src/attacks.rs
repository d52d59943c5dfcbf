//! Hostile DXIL modules, each built at any size: small files whose
//! structure expands when it is read or printed as a tree (docs/hardening.md, "Work budget").
//! They seed the fuzz targets, join the sweep, and the tests check that
//! every reader and printer stops at its work budget, or finishes within
//! it, with heap in proportion to the input.
//!
//! Each generator writes raw bitcode with [`Emit`] (unabbreviated records
//! unless the attack is the abbreviation): a MODULE block with an `i32`
//! type, a few `i32` constants and a METADATA block holding `dx.version`
//! and `dx.shaderModel`, so that listings and reflection get past the
//! module's header to the attack. [`container`] puts bitcode in a pixel
//! shader's DXIL part.

use dxcopy_read::bitcode::AbbrevOp;

/// An attack: its name (the row of the contract it tests), and how to make
/// it at a size (`n` is the generator's own scale: records, operands, levels).
#[derive(Debug, Clone, Copy)]
pub struct Attack {
    /// Short name (`literal-abbrev`, `blockinfo-reuse`, …).
    pub name: &'static str,
    /// The bitcode at scale `n`.
    pub build: fn(usize) -> Vec<u8>,
    /// A small scale and a scale four times larger, for the tests.
    pub scales: [usize; 2],
}

/// Every attack, in the order of the contract's rows.
pub const ATTACKS: &[Attack] = &[
    Attack {
        name: "literal-abbrev",
        build: literal_abbrev,
        scales: [2_000, 8_000],
    },
    Attack {
        name: "blockinfo-reuse",
        build: blockinfo_reuse,
        scales: [2_000, 8_000],
    },
    Attack {
        name: "wide-metadata",
        build: wide_metadata,
        scales: [2_000, 8_000],
    },
    Attack {
        name: "entry-signature-dag",
        build: entry_signature_dag,
        scales: [500, 2_000],
    },
    Attack {
        name: "cbuffer-struct-dag",
        build: cbuffer_struct_dag,
        scales: [24, 40],
    },
    Attack {
        name: "cbuffer-struct-chain",
        build: cbuffer_struct_chain,
        scales: [40, 160],
    },
    Attack {
        name: "entry-fan",
        build: entry_fan,
        scales: [20_000, 80_000],
    },
    Attack {
        name: "constant-chain",
        build: constant_chain,
        scales: [300, 1_200],
    },
    Attack {
        name: "array-type-chain",
        build: array_type_chain,
        scales: [300, 1_200],
    },
    Attack {
        name: "self-constant",
        build: self_constant,
        scales: [1, 4],
    },
];

/// `bitcode` as the DXIL part of a pixel-shader container.
pub fn container(bitcode: &[u8]) -> Vec<u8> {
    dxcopy_edit::ContainerBuilder::new()
        .pixel_program(b"DXIL", bitcode)
        .build()
        .unwrap_or_default()
}

/// Writes a bitstream: fixed and VBR fields, blocks (abbreviation width 4
/// unless given), unabbreviated records.
#[derive(Debug, Default)]
pub struct Emit {
    bytes: Vec<u8>,
    len: u64,
    open: Vec<(usize, u32)>,
}

impl Emit {
    /// A stream after the `BC 0xC0DE` magic.
    pub fn new() -> Emit {
        let mut e = Emit::default();
        for b in [0x42, 0x43, 0xc0, 0xde] {
            e.fixed(b, 8);
        }
        e
    }

    /// A `width`-bit field.
    pub fn fixed(&mut self, value: u64, width: u32) {
        for i in 0..width {
            if self.len.is_multiple_of(8) {
                self.bytes.push(0);
            }
            if (value >> i) & 1 == 1 {
                let last = self.bytes.len() - 1;
                self.bytes[last] |= 1 << (self.len % 8);
            }
            self.len += 1;
        }
    }

    /// A VBR field of `width`-bit chunks.
    pub fn vbr(&mut self, mut value: u64, width: u32) {
        let limit = 1u64 << (width - 1);
        while value >= limit {
            self.fixed((value & (limit - 1)) | limit, width);
            value >>= width - 1;
        }
        self.fixed(value, width);
    }

    fn align(&mut self) {
        while !self.len.is_multiple_of(32) {
            self.fixed(0, 1);
        }
    }

    fn width(&self) -> u32 {
        self.open.last().map_or(2, |o| o.1)
    }

    /// ENTER_SUBBLOCK `id` with abbreviation width 4.
    pub fn enter(&mut self, id: u32) -> &mut Self {
        self.enter_with(id, 4)
    }

    /// ENTER_SUBBLOCK `id` with abbreviation width `width`.
    pub fn enter_with(&mut self, id: u32, width: u32) -> &mut Self {
        self.fixed(1, self.width());
        self.vbr(u64::from(id), 8);
        self.vbr(u64::from(width), 4);
        self.align();
        self.open.push(((self.len / 8) as usize, width));
        self.fixed(0, 32);
        self
    }

    /// END_BLOCK, with the block's length word filled in.
    pub fn end(&mut self) -> &mut Self {
        self.fixed(0, self.width());
        self.align();
        let (at, _) = self.open.pop().unwrap_or_default();
        let words = ((self.len / 8) as usize - at - 4) / 4;
        self.bytes[at..at + 4].copy_from_slice(&(words as u32).to_le_bytes());
        self
    }

    /// An unabbreviated record.
    pub fn rec(&mut self, code: u32, ops: &[u64]) -> &mut Self {
        self.fixed(3, self.width());
        self.vbr(u64::from(code), 6);
        self.vbr(ops.len() as u64, 6);
        for &op in ops {
            self.vbr(op, 6);
        }
        self
    }

    /// A record of `prefix` then the characters of `s`.
    pub fn str_rec(&mut self, code: u32, prefix: &[u64], s: &str) -> &mut Self {
        let mut ops = prefix.to_vec();
        ops.extend(s.bytes().map(u64::from));
        self.rec(code, &ops)
    }

    /// DEFINE_ABBREV with `ops` (literals, fixed and VBR fields only).
    pub fn define_abbrev(&mut self, ops: &[AbbrevOp]) -> &mut Self {
        self.fixed(2, self.width());
        self.vbr(ops.len() as u64, 5);
        for op in ops {
            match *op {
                AbbrevOp::Literal(v) => {
                    self.fixed(1, 1);
                    self.vbr(v, 8);
                }
                AbbrevOp::Fixed(w) => {
                    self.fixed(0, 1);
                    self.fixed(1, 3);
                    self.vbr(u64::from(w), 5);
                }
                AbbrevOp::Vbr(w) => {
                    self.fixed(0, 1);
                    self.fixed(2, 3);
                    self.vbr(u64::from(w), 5);
                }
                AbbrevOp::Char6 => {
                    self.fixed(0, 1);
                    self.fixed(4, 3);
                }
                AbbrevOp::Array => {
                    self.fixed(0, 1);
                    self.fixed(3, 3);
                }
                AbbrevOp::Blob => {
                    self.fixed(0, 1);
                    self.fixed(5, 3);
                }
            }
        }
        self
    }

    /// A blob operand: its length, then its bytes between 32-bit alignments.
    pub fn blob(&mut self, bytes: &[u8]) -> &mut Self {
        self.vbr(bytes.len() as u64, 6);
        self.align();
        for &b in bytes {
            self.fixed(u64::from(b), 8);
        }
        self.align();
        self
    }

    /// The abbreviation ID `id` of an abbreviated record (its fields follow,
    /// written with [`Emit::fixed`] and [`Emit::vbr`]; none for literals).
    pub fn abbreviated(&mut self, id: u64) -> &mut Self {
        self.fixed(id, self.width());
        self
    }

    /// The bytes (the stream padded to 32 bits).
    pub fn finish(mut self) -> Vec<u8> {
        self.align();
        self.bytes
    }
}

/// Record codes used here.
mod code {
    pub const MODULE: u32 = 8;
    pub const CONSTANTS: u32 = 11;
    pub const METADATA: u32 = 15;
    pub const TYPES: u32 = 17;
    pub const VERSION: u32 = 1;
    pub const NUMENTRY: u32 = 1;
    pub const INTEGER_TYPE: u32 = 7;
    pub const SETTYPE: u32 = 1;
    pub const INTEGER: u32 = 4;
    pub const MD_STRING: u32 = 1;
    pub const MD_VALUE: u32 = 2;
    pub const MD_NODE: u32 = 3;
    pub const MD_NAME: u32 = 4;
    pub const MD_NAMED_NODE: u32 = 10;
}

/// The metadata of a module being built: records in ID order.
#[derive(Debug, Default)]
pub struct Md {
    records: Vec<(u32, Vec<u64>)>,
    next: u64,
    /// Value ID of the first `i32` constant (0, 1, … follow).
    pub first_int: u64,
}

impl Md {
    /// `!"s"`.
    pub fn string(&mut self, s: &str) -> u64 {
        self.records
            .push((code::MD_STRING, s.bytes().map(u64::from).collect()));
        self.define()
    }

    /// `i32 v` for `v` in `0..16`.
    pub fn int(&mut self, v: u64) -> u64 {
        self.records
            .push((code::MD_VALUE, vec![0, self.first_int + v.min(15)]));
        self.define()
    }

    /// `!{…}` (`None`: null).
    pub fn node(&mut self, ops: &[Option<u64>]) -> u64 {
        self.records.push((
            code::MD_NODE,
            ops.iter().map(|o| o.map_or(0, |id| id + 1)).collect(),
        ));
        self.define()
    }

    /// `!name = !{ids…}`.
    pub fn named(&mut self, name: &str, ids: &[u64]) {
        self.records
            .push((code::MD_NAME, name.bytes().map(u64::from).collect()));
        self.records.push((code::MD_NAMED_NODE, ids.to_vec()));
    }

    fn define(&mut self) -> u64 {
        self.next += 1;
        self.next - 1
    }

    /// `dx.version`, `dx.valver` and `dx.shaderModel` of a ps_6_0 module.
    fn header(&mut self) {
        let (one, zero) = (self.int(1), self.int(0));
        let version = self.node(&[Some(one), Some(zero)]);
        self.named("dx.version", &[version]);
        self.named("dx.valver", &[version]);
        let ps = self.string("ps");
        let six = self.int(6);
        let model = self.node(&[Some(ps), Some(six), Some(zero)]);
        self.named("dx.shaderModel", &[model]);
    }
}

/// A module: VERSION 1, the types `i32` then `types`, the `i32` constants
/// 0..16 (after `constants`, written with the types' IDs), and the
/// metadata `metadata` makes after the `dx.*` header, then `tail` in the
/// METADATA block.
fn module(
    types: &[(u32, Vec<u64>)],
    constants: &[(u32, Vec<u64>)],
    metadata: impl FnOnce(&mut Md),
    tail: impl FnOnce(&mut Emit),
) -> Vec<u8> {
    let mut e = Emit::new();
    e.enter(code::MODULE);
    e.rec(code::VERSION, &[1]);
    e.enter(code::TYPES);
    e.rec(code::NUMENTRY, &[1 + types.len() as u64]);
    e.rec(code::INTEGER_TYPE, &[32]);
    for (c, ops) in types {
        e.rec(*c, ops);
    }
    e.end();
    e.enter(code::CONSTANTS);
    for (c, ops) in constants {
        e.rec(*c, ops);
    }
    e.rec(code::SETTYPE, &[0]);
    for v in 0..16u64 {
        e.rec(code::INTEGER, &[v << 1]);
    }
    e.end();
    let mut md = Md {
        first_int: constants
            .iter()
            .filter(|(c, _)| *c != code::SETTYPE)
            .count() as u64,
        ..Md::default()
    };
    md.header();
    metadata(&mut md);
    e.enter(code::METADATA);
    for (c, ops) in &md.records {
        e.rec(*c, ops);
    }
    tail(&mut e);
    e.end();
    e.end();
    e.finish()
}

/// Row 1: one abbreviation of a metadata node with 1,000 literal null
/// operands, then `n` records of it (4 bits each): each record expands to
/// 1,000 fields.
pub fn literal_abbrev(n: usize) -> Vec<u8> {
    module(
        &[],
        &[],
        |_| {},
        |e| {
            let mut ops = vec![AbbrevOp::Literal(u64::from(code::MD_NODE))];
            ops.extend(std::iter::repeat_n(AbbrevOp::Literal(0), 1_000));
            e.define_abbrev(&ops);
            for _ in 0..n {
                e.abbreviated(4);
            }
        },
    )
}

/// Row 2: a BLOCKINFO block giving the METADATA block 1,000
/// abbreviations, then `n` empty METADATA blocks, each of which gets a
/// copy of them.
pub fn blockinfo_reuse(n: usize) -> Vec<u8> {
    let mut e = Emit::new();
    e.enter(0);
    e.rec(1, &[u64::from(code::METADATA)]);
    for i in 0..1_000u64 {
        e.define_abbrev(&[AbbrevOp::Literal(i), AbbrevOp::Vbr(6)]);
    }
    e.end();
    e.enter(code::MODULE);
    e.rec(code::VERSION, &[1]);
    for _ in 0..n {
        e.enter(code::METADATA);
        e.end();
    }
    e.end();
    e.finish()
}

/// Row 3: a node of `n` operands that all refer to one node of `n`
/// strings, named: `n`² operand copies for a walk that copies a node
/// before it checks whether it has seen it.
pub fn wide_metadata(n: usize) -> Vec<u8> {
    module(
        &[],
        &[],
        |md| {
            let s = md.string("s");
            let wide = md.node(&vec![Some(s); n]);
            let top = md.node(&vec![Some(wide); n]);
            md.named("wide", &[top]);
        },
        |_| {},
    )
}

/// The signature element `!{i32 0, !"S", i32 9, i32 0, !{i32 0}, i32 0,
/// i32 1, i32 4, i32 0, i32 0, null}` and its entry `!{null, !"main",
/// !{sigs, sigs, null}, null, null}` for the signature list `sigs`.
fn entry_with(md: &mut Md, elements: usize) -> u64 {
    let name = md.string("S");
    let ints: Vec<u64> = (0..10).map(|v| md.int(v)).collect();
    let indices = md.node(&[Some(ints[0])]);
    let element = md.node(&[
        Some(ints[0]),
        Some(name),
        Some(ints[9]),
        Some(ints[0]),
        Some(indices),
        Some(ints[0]),
        Some(ints[1]),
        Some(ints[4]),
        Some(ints[0]),
        Some(ints[0]),
        None,
    ]);
    let list = md.node(&vec![Some(element); elements]);
    let sigs = md.node(&[Some(list), Some(list), None]);
    let main = md.string("main");
    md.node(&[None, Some(main), Some(sigs), None, None])
}

/// Row 4: `n` entry points sharing one signature list of `n` elements,
/// all one node: read per use, `n`² elements.
pub fn entry_signature_dag(n: usize) -> Vec<u8> {
    module(
        &[],
        &[],
        |md| {
            let entry = entry_with(md, n);
            md.named("dx.entryPoints", &vec![entry; n]);
        },
        |_| {},
    )
}

/// Row 6: `dx.entryPoints` naming one small entry `n` times.
pub fn entry_fan(n: usize) -> Vec<u8> {
    module(
        &[],
        &[],
        |md| {
            let entry = entry_with(md, 1);
            md.named("dx.entryPoints", &vec![entry; n]);
        },
        |_| {},
    )
}

/// TYPE_CODE_STRUCT_ANON, TYPE_CODE_POINTER, TYPE_CODE_ARRAY, TYPE_CODE_FLOAT.
mod ty {
    pub const FLOAT: u32 = 3;
    pub const POINTER: u32 = 8;
    pub const ARRAY: u32 = 11;
    pub const STRUCT_ANON: u32 = 18;
    pub const UNDEF: u32 = 3;
}

/// Row 5: struct types `S0 = {float}`, `Sk = {Sk-1, Sk-1}` up to `n`
/// levels, each with a struct annotation, and a cbuffer of the last: its
/// reflection is a tree of 2ⁿ members.
pub fn cbuffer_struct_dag(n: usize) -> Vec<u8> {
    cbuffer_structs(n, 2)
}

/// Struct types `S0 = {float}`, `Sk = {Sk-1}` nested `n` levels, each
/// with a struct annotation, and a cbuffer of the last: linear in size,
/// but past the struct nesting the buffer tables and reflection follow
/// (32) when `n` is larger, which must be an error naming the part, not a
/// type tree cut short.
pub fn cbuffer_struct_chain(n: usize) -> Vec<u8> {
    cbuffer_structs(n, 1)
}

/// `S0 = {float}`, then `n - 1` structs of `members` copies of the one
/// before, each annotated; a cbuffer of the last.
fn cbuffer_structs(n: usize, members: usize) -> Vec<u8> {
    // Types: 0 i32, 1 float, 2.. the structs, then a pointer to the last.
    let mut types = vec![(ty::FLOAT, vec![])];
    types.push((ty::STRUCT_ANON, vec![0, 1]));
    for k in 1..n as u64 {
        let mut ops = vec![0];
        ops.extend(std::iter::repeat_n(1 + k, members));
        types.push((ty::STRUCT_ANON, ops));
    }
    let last = 1 + n as u64;
    types.push((ty::POINTER, vec![last, 0]));
    let pointer = last + 1;
    // Constants: undef of each struct (for the annotations) and of the
    // pointer (the cbuffer's symbol).
    let mut constants = Vec::new();
    for k in 0..=n as u64 {
        constants.push((code::SETTYPE, vec![2 + k]));
        constants.push((ty::UNDEF, vec![]));
    }
    module(
        &types,
        &constants,
        |md| {
            let zero = md.int(0);
            let sixteen = md.int(15);
            // Field annotation: !{i32 3 (offset tag), i32 0}.
            let three = md.int(3);
            let field = md.node(&[Some(three), Some(zero)]);
            let mut annotations = vec![Some(zero)];
            for k in 0..n as u64 {
                md.records.push((code::MD_VALUE, vec![2 + k, k]));
                let value = md.define();
                let mut fields = vec![Some(sixteen), Some(field)];
                if k > 0 {
                    fields.extend(std::iter::repeat_n(Some(field), members - 1));
                }
                let body = md.node(&fields);
                annotations.push(Some(value));
                annotations.push(Some(body));
            }
            let list = md.node(&annotations);
            md.named("dx.typeAnnotations", &[list]);
            md.records.push((code::MD_VALUE, vec![pointer, n as u64]));
            let symbol = md.define();
            let name = md.string("cb");
            let one = md.int(1);
            let cbuffer = md.node(&[
                Some(zero),
                Some(symbol),
                Some(name),
                Some(zero),
                Some(zero),
                Some(one),
                Some(sixteen),
                None,
            ]);
            let cbuffers = md.node(&[Some(cbuffer)]);
            let resources = md.node(&[None, None, Some(cbuffers), None]);
            md.named("dx.resources", &[resources]);
        },
        |_| {},
    )
}

/// CST_CODE_CE_CAST `[opcode, type, value]` (opcode 11: bitcast).
const CE_CAST: u32 = 11;

/// Row 7: `n` bitcasts of `i32 0` to `i32`, each of the one before, the
/// last one used as metadata: the listing nests `n` constants deep.
pub fn constant_chain(n: usize) -> Vec<u8> {
    let mut constants = vec![(code::SETTYPE, vec![0]), (code::INTEGER, vec![0])];
    for k in 0..n as u64 {
        constants.push((CE_CAST, vec![11, 0, k]));
    }
    let last = n as u64;
    module(
        &[],
        &constants,
        |md| {
            md.records.push((code::MD_VALUE, vec![0, last]));
            let value = md.define();
            let node = md.node(&[Some(value)]);
            md.named("chain", &[node]);
        },
        |_| {},
    )
}

/// Row 7: an array type nested `n` levels (`[1 x [1 x … i32]]`), used by
/// an `undef` in metadata: the listing prints the type `n` levels deep.
pub fn array_type_chain(n: usize) -> Vec<u8> {
    let mut types = Vec::new();
    for k in 0..n as u64 {
        types.push((ty::ARRAY, vec![1, k]));
    }
    let last = n as u64;
    let constants = vec![(code::SETTYPE, vec![last]), (ty::UNDEF, vec![])];
    module(
        &types,
        &constants,
        |md| {
            md.records.push((code::MD_VALUE, vec![last, 0]));
            let value = md.define();
            let node = md.node(&[Some(value)]);
            md.named("deep", &[node]);
        },
        |_| {},
    )
}

/// Row 7: a bitcast constant whose operand is itself (and `n - 1` more
/// that refer to it), used as metadata.
pub fn self_constant(n: usize) -> Vec<u8> {
    let mut constants = vec![(code::SETTYPE, vec![0]), (CE_CAST, vec![11, 0, 0])];
    for k in 1..n.max(1) as u64 {
        constants.push((CE_CAST, vec![11, 0, k - 1]));
    }
    module(
        &[],
        &constants,
        |md| {
            md.records.push((code::MD_VALUE, vec![0, 0]));
            let value = md.define();
            let node = md.node(&[Some(value)]);
            md.named("self", &[node]);
        },
        |_| {},
    )
}
