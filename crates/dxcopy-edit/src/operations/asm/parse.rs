//! Statements of a listing's program (from the `ps_5_0` line on) parsed and
//! encoded as SM4/SM5 tokens the way fxc writes them
//! (docs/format/sm4-listing.md; the token layout is the one
//! [`dxcopy_read::sm4`] decodes).
//!
//! Names come from dxcopy-read's tables: opcodes from
//! [`opcode::NAMES`](dxcopy_read::sm4::opcode::NAMES), every other
//! field spelling from [`names`], searched backwards.

use super::hints::{is_inexact_text, FloatHints};
use super::lex::{Tok, Token};
use super::{AsmError, AsmErrorKind};
use dxcopy_read::sm4::names::{self, RegisterForm};
use dxcopy_read::sm4::opcode::{self, op, OpClass};
use dxcopy_read::sm4::{operand_type as ot, Components, Index, Operand};

/// The length of the longest mnemonic of the opcode table (a test checks
/// it): a longer prefix of a mnemonic is never looked up.
pub(crate) const LONGEST_MNEMONIC: usize = 40;

/// How deep relative indices may nest (`x0[r0.x]` is one level,
/// `x0[x1[r0.x].x]` two). The operand encoding allows any depth and fxc
/// writes one; deeper nesting is an error rather than a recursion as deep
/// as the text asks.
pub const MAX_RELATIVE_DEPTH: u32 = 8;

/// The most indices an operand takes (`CB0[0:1][4]`, the register's number
/// included): the operand token counts them in two bits.
pub const MAX_INDICES: usize = 3;

/// Where an operand stands, which decides how its component letters are
/// encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A declared register: letters are a write mask.
    Declared,
    /// A destination: letters are a write mask.
    Destination,
    /// A source: four letters are a swizzle, one a selected component.
    Source,
    /// A relative index: one selected component.
    Relative,
}

/// Operand types fxc gives one component when an instruction names them
/// without letters (`oDepth`, `vPrim`, …); every other register without
/// letters has none.
const ONE_COMPONENT: [u8; 9] = [
    ot::INPUT_PRIMITIVEID,
    ot::OUTPUT_DEPTH,
    ot::OUTPUT_COVERAGE_MASK,
    ot::OUTPUT_CONTROL_POINT_ID,
    ot::INPUT_COVERAGE_MASK,
    ot::OUTPUT_DEPTH_GREATER_EQUAL,
    ot::OUTPUT_DEPTH_LESS_EQUAL,
    ot::OUTPUT_STENCIL_REF,
    ot::INNER_COVERAGE,
];

/// Register types of four components, which free syntax may write without
/// letters (all four).
const FOUR_COMPONENT: [u8; 8] = [
    ot::TEMP,
    ot::INPUT,
    ot::OUTPUT,
    ot::INDEXABLE_TEMP,
    ot::IMMEDIATE_CONSTANT_BUFFER,
    ot::INPUT_CONTROL_POINT,
    ot::OUTPUT_CONTROL_POINT,
    ot::INPUT_PATCH_CONSTANT,
];

/// The same for declarations (`dcl_output oDepth`; `dcl_input vPrim` and
/// `dcl_output oMask` have none).
const ONE_COMPONENT_DECLARED: [u8; 6] = [
    ot::OUTPUT_DEPTH,
    ot::INPUT_COVERAGE_MASK,
    ot::OUTPUT_DEPTH_GREATER_EQUAL,
    ot::OUTPUT_DEPTH_LESS_EQUAL,
    ot::OUTPUT_STENCIL_REF,
    ot::INNER_COVERAGE,
];

/// Register spellings other than the listing's, which Microsoft's assembler
/// syntax accepts (`NULL`, `vcp`).
const REGISTER_ALIASES: [(&str, u8); 1] = [("vcp", ot::INPUT_CONTROL_POINT)];

/// The program's statements, parsed one at a time.
pub(crate) struct Parser<'t, 'h> {
    toks: &'t [Token<'t>],
    pos: usize,
    sm51: bool,
    hints: &'h mut FloatHints,
    /// The program's tokens after the two header tokens.
    pub words: Vec<u32>,
    /// Float texts that may have lost digits, taken as the nearest value.
    pub inexact: Vec<super::InexactImmediate>,
    /// Four 32-bit immediate values with the same bits are written as one
    /// ([`super::ImmediateEncoding::Compact`]).
    pub compact_immediates: bool,
    /// Relative indices open around the operand being parsed.
    relative_depth: u32,
    /// Work done: tokens taken, and mnemonic bytes scanned and table
    /// lookups made (what the tests assert as the parser's work).
    pub work: u64,
}

type PResult<T> = Result<T, AsmError>;

/// Words of one instruction under construction.
struct Encoded {
    opcode: u16,
    controls: u32,
    extended: Vec<u32>,
    body: Vec<u32>,
}

impl<'t, 'h> Parser<'t, 'h> {
    pub(crate) fn new(toks: &'t [Token<'t>], sm51: bool, hints: &'h mut FloatHints) -> Self {
        Parser {
            toks,
            pos: 0,
            sm51,
            hints,
            words: Vec::new(),
            inexact: Vec::new(),
            compact_immediates: false,
            relative_depth: 0,
            work: 0,
        }
    }

    fn peek(&self) -> Tok<'t> {
        self.toks.get(self.pos).map_or(Tok::Newline, |t| t.tok)
    }

    fn peek_at(&self, ahead: usize) -> Tok<'t> {
        self.toks
            .get(self.pos + ahead)
            .map_or(Tok::Newline, |t| t.tok)
    }

    fn here(&self) -> (u32, u32) {
        match self.toks.get(self.pos).or(self.toks.last()) {
            Some(t) => (t.line, t.column),
            None => (1, 1),
        }
    }

    fn error_here(&self, kind: AsmErrorKind) -> AsmError {
        let (line, column) = self.here();
        AsmError::new(line, column, kind)
    }

    fn found(&self) -> String {
        describe(&self.peek())
    }

    fn expected(&self, what: &'static str) -> AsmError {
        self.error_here(AsmErrorKind::Expected {
            expected: what,
            found: self.found(),
        })
    }

    /// Whether the next token is adjacent to the one before (no space).
    fn adjacent(&self) -> bool {
        self.toks.get(self.pos).is_some_and(|t| !t.spaced)
    }

    fn next(&mut self) -> Tok<'t> {
        let t = self.peek();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.peek() == Tok::Punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char, what: &'static str) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    fn skip_newlines(&mut self) {
        while self.peek() == Tok::Newline && self.pos < self.toks.len() {
            self.pos += 1;
        }
    }

    fn ident(&mut self, what: &'static str) -> PResult<&'t str> {
        match self.peek() {
            Tok::Ident(s) => {
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn at_end(&self) -> bool {
        self.peek() == Tok::Newline
    }

    fn expect_end(&mut self) -> PResult<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.expected("the end of the line"))
        }
    }

    /// An unsigned integer (decimal or hex), optionally `l(N)`.
    fn uint(&mut self, what: &'static str) -> PResult<u32> {
        if matches!(self.peek(), Tok::Ident(s) if s.eq_ignore_ascii_case("l"))
            && self.peek_at(1) == Tok::Punct('(')
        {
            self.pos += 2;
            let v = self.uint(what)?;
            self.expect_punct(')', "')'")?;
            return Ok(v);
        }
        let negative = self.eat_punct('-');
        match self.peek() {
            Tok::Number(text) => {
                let v = parse_int(text)
                    .ok_or_else(|| self.error_here(AsmErrorKind::BadNumber(text.to_string())))?;
                self.pos += 1;
                let v = if negative { v.wrapping_neg() } else { v };
                u32::try_from(v)
                    .or_else(|_| i32::try_from(v).map(|v| v as u32))
                    .map_err(|_| self.error_here(AsmErrorKind::BadNumber(text.to_string())))
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Parses every statement to the end of the tokens.
    pub(crate) fn run(&mut self) -> PResult<()> {
        loop {
            self.skip_newlines();
            if self.pos >= self.toks.len() {
                return Ok(());
            }
            let before = self.pos;
            let done = self.statement();
            self.work += (self.pos.saturating_sub(before) + 1) as u64;
            done?;
        }
    }

    fn statement(&mut self) -> PResult<()> {
        let (line, column) = self.here();
        let name = self.ident("an instruction")?;
        if name.eq_ignore_ascii_case("dcl_immediateConstantBuffer") {
            return self.immediate_constant_buffer();
        }
        // The longest table name that the mnemonic starts with, at a `_`:
        // only prefixes as long as the longest table name are looked up, so
        // a mnemonic of many `_` costs its length, not its length squared.
        let ends = name
            .match_indices('_')
            .map(|(i, _)| i)
            .chain([name.len()])
            .filter(|&end| end <= LONGEST_MNEMONIC);
        let ends: Vec<usize> = ends.collect();
        self.work += (name.len() + ends.len()) as u64;
        let matched = ends
            .into_iter()
            .rev()
            .find_map(|end| opcode::by_name(&name[..end]).map(|code| (code, end)));
        let Some((code, end)) = matched else {
            return Err(AsmError::new(
                line,
                column,
                AsmErrorKind::UnknownInstruction(name.to_string()),
            ));
        };
        let rest = suffixes(&name[end..], (line, column + end as u32), name)?;
        let info = opcode::info(code).ok_or_else(|| {
            AsmError::new(
                line,
                column,
                AsmErrorKind::UnknownInstruction(name.to_string()),
            )
        })?;
        let encoded = if info.class == OpClass::Declaration {
            self.declaration(code, &rest, (line, column), name)?
        } else {
            self.instruction(code, info.class, rest, (line, column), name)?
        };
        self.expect_end()?;
        self.emit(encoded, (line, column))
    }

    fn emit(&mut self, e: Encoded, at: (u32, u32)) -> PResult<()> {
        let short = 1 + e.extended.len() + e.body.len();
        // These two may pass the 7-bit length: then the length follows the
        // opcode token (bit 31 set); fxc uses the short form when it fits.
        let long_form =
            matches!(e.opcode, op::DCL_INTERFACE | op::DCL_FUNCTION_TABLE) && short > 0x7f;
        let length = short + usize::from(long_form);
        let mut token0 = u32::from(e.opcode) | e.controls;
        if long_form {
            token0 |= 1 << 31;
            self.words.push(token0);
            self.words.push(length as u32);
        } else {
            if length > 0x7f {
                return Err(AsmError::new(
                    at.0,
                    at.1,
                    AsmErrorKind::InstructionTooLong(length),
                ));
            }
            token0 |= (length as u32) << 24;
            if !e.extended.is_empty() {
                token0 |= 1 << 31;
            }
            self.words.push(token0);
            let n = e.extended.len();
            for (i, t) in e.extended.into_iter().enumerate() {
                self.words.push(if i + 1 < n { t | (1 << 31) } else { t });
            }
        }
        self.words.extend(e.body);
        Ok(())
    }

    fn instruction(
        &mut self,
        code: u16,
        class: OpClass,
        mut rest: Vec<String>,
        at: (u32, u32),
        name: &str,
    ) -> PResult<Encoded> {
        let mut controls = 0u32;
        let mut offsets: Option<[i8; 3]> = None;
        let mut dimension: Option<(u32, u32)> = None;
        let mut return_type: Option<[u8; 4]> = None;
        let mut test = None;
        let unknown = |s: &str| {
            AsmError::new(
                at.0,
                at.1,
                AsmErrorKind::UnknownSuffix {
                    suffix: s.to_string(),
                    instruction: name.to_string(),
                },
            )
        };
        loop {
            let mut pending: Vec<&'static str> = Vec::new();
            for piece in &rest {
                let p = piece.to_ascii_lowercase();
                match p.as_str() {
                    "sat" => controls |= 1 << 13,
                    "z" if class == OpClass::Conditional => test = Some(false),
                    "nz" if class == OpClass::Conditional => test = Some(true),
                    "aoffimmi" => pending.push("aoffimmi"),
                    "indexable" => pending.push("indexable"),
                    "uint" if code == op::RESINFO => controls |= 2 << 11,
                    "rcpfloat" if code == op::RESINFO => controls |= 1 << 11,
                    "uint" if code == op::SAMPLE_INFO => controls |= 1 << 11,
                    _ if code == op::SYNC => {
                        let flag = names::SYNC_FLAGS
                            .iter()
                            .find(|(_, s)| s[1..].eq_ignore_ascii_case(&p))
                            .ok_or_else(|| unknown(piece))?;
                        controls |= flag.0 << 11;
                    }
                    "" => {}
                    _ => return Err(unknown(piece)),
                }
            }
            for what in pending {
                if !(self.adjacent() && self.peek() == Tok::Punct('(')) {
                    return Err(self.expected("'(' after the suffix"));
                }
                self.pos += 1;
                if what == "aoffimmi" {
                    let mut v = [0i8; 3];
                    for (i, slot) in v.iter_mut().enumerate() {
                        if i > 0 {
                            self.expect_punct(',', "','")?;
                        }
                        let n = self.uint("a texel offset")? as i32;
                        if !(-8..=7).contains(&n) {
                            return Err(self.error_here(AsmErrorKind::OutOfRange {
                                what: "texel offset",
                                value: i64::from(n),
                            }));
                        }
                        *slot = n as i8;
                    }
                    offsets = Some(v);
                } else {
                    let dim_name = self.ident("a resource dimension")?;
                    let dim = lookup(&names::RESOURCE_DIMENSIONS, dim_name).ok_or_else(|| {
                        self.error_here(AsmErrorKind::UnknownName {
                            what: "resource dimension",
                            name: dim_name.to_string(),
                        })
                    })?;
                    let stride = self.keyed_uint("stride", "'stride'", "a stride")?;
                    dimension = Some((dim as u32, stride));
                }
                self.expect_punct(')', "')'")?;
            }
            if self.adjacent() && self.peek() == Tok::Punct('(') {
                return_type = Some(self.return_type()?);
            }
            match self.peek() {
                Tok::Ident(s) if self.adjacent() && s.starts_with('_') => {
                    rest = suffixes(s, self.here(), name)?;
                    self.pos += 1;
                }
                _ => break,
            }
        }
        match (class, test) {
            (OpClass::Conditional, Some(true)) => controls |= 1 << 18,
            (OpClass::Conditional, Some(false)) => {}
            (OpClass::Conditional, None) => {
                return Err(AsmError::new(
                    at.0,
                    at.1,
                    AsmErrorKind::MissingTest(name.to_string()),
                ))
            }
            _ => {}
        }
        // ` [precise]` / ` [precise(xy)]`.
        if self.peek() == Tok::Punct('[')
            && matches!(self.peek_at(1), Tok::Ident(s) if s.eq_ignore_ascii_case("precise"))
        {
            self.pos += 2;
            let mut mask = 0xf;
            if self.eat_punct('(') {
                let letters = self.ident("component letters")?;
                mask = mask_of(letters).ok_or_else(|| {
                    self.error_here(AsmErrorKind::BadComponents(letters.to_string()))
                })?;
                self.expect_punct(')', "')'")?;
            }
            self.expect_punct(']', "']'")?;
            controls |= u32::from(mask) << 19;
        }
        let mut extended = Vec::new();
        if let Some([u, v, w]) = offsets {
            let f = |x: i8| u32::from(x as u8 & 0xf);
            extended.push(1 | (f(u) << 9) | (f(v) << 13) | (f(w) << 17));
        }
        if let Some((dim, stride)) = dimension {
            extended.push(2 | (dim << 6) | (stride << 11));
        }
        if let Some(rt) = return_type {
            let mut t = 3;
            for (i, c) in rt.iter().enumerate() {
                t |= u32::from(*c) << (6 + 4 * i);
            }
            extended.push(t);
        }
        let destinations = opcode::destinations(code);
        let mut body = Vec::new();
        let mut index = 0;
        while !self.at_end() {
            if index > 0 {
                self.expect_punct(',', "',' between operands")?;
            }
            let role = if index < destinations {
                Role::Destination
            } else {
                Role::Source
            };
            let mut operand = self.operand(role)?;
            if code == op::INTERFACE_CALL && index == 0 {
                // `fcall fp0[0][1]`: the last bracket is the call site.
                let site = operand
                    .indices
                    .pop()
                    .filter(|i| i.relative.is_none())
                    .ok_or_else(|| self.expected("a call site '[N]'"))?;
                body.push(site.value as u32);
            }
            encode_operand(&operand, &mut body);
            index += 1;
        }
        Ok(Encoded {
            opcode: code,
            controls,
            extended,
            body,
        })
    }

    fn return_type(&mut self) -> PResult<[u8; 4]> {
        self.expect_punct('(', "'('")?;
        let mut rt = [0u8; 4];
        for (i, slot) in rt.iter_mut().enumerate() {
            if i > 0 {
                self.expect_punct(',', "','")?;
            }
            let n = self.ident("a return type")?;
            *slot = lookup(&names::RETURN_TYPES, n).ok_or_else(|| {
                self.error_here(AsmErrorKind::UnknownName {
                    what: "return type",
                    name: n.to_string(),
                })
            })? as u8;
        }
        self.expect_punct(')', "')'")?;
        Ok(rt)
    }

    fn immediate_constant_buffer(&mut self) -> PResult<()> {
        // customdata class 3: opcode token, length, then the rows.
        let mut payload = Vec::new();
        self.skip_newlines();
        self.expect_punct('{', "'{'")?;
        loop {
            self.skip_newlines();
            if self.eat_punct('}') {
                break;
            }
            if !payload.is_empty() {
                self.expect_punct(',', "',' between rows")?;
                self.skip_newlines();
            }
            self.expect_punct('{', "'{' opening a row")?;
            let mut first = true;
            loop {
                self.skip_newlines();
                if self.eat_punct('}') {
                    break;
                }
                if !first {
                    self.expect_punct(',', "','")?;
                    self.skip_newlines();
                }
                first = false;
                payload.push(self.number()?);
            }
            if payload.len() % 4 != 0 && !payload.is_empty() {
                // A short row is padded as written: rows are four values.
                while payload.len() % 4 != 0 {
                    payload.push(0);
                }
            }
            if payload.is_empty() {
                break;
            }
        }
        self.expect_end()?;
        self.words.push(u32::from(op::CUSTOMDATA) | (3 << 11));
        self.words.push(payload.len() as u32 + 2);
        self.words.extend(payload);
        Ok(())
    }

    /// A number token with an optional `-` before it: whether it is
    /// negative, and its text.
    fn signed_number(&mut self) -> PResult<(bool, &'t str)> {
        let negative = self.eat_punct('-');
        match self.next() {
            Tok::Number(t) => Ok((negative, t)),
            other => {
                self.pos -= 1;
                Err(self.error_here(AsmErrorKind::Expected {
                    expected: "a number",
                    found: describe(&other),
                }))
            }
        }
    }

    /// A bad-number error at the number just read.
    fn bad_number(&self, full: String) -> AsmError {
        let (line, column) = self.toks[self.pos - 1..]
            .first()
            .map_or((0, 0), |t| (t.line, t.column));
        AsmError::new(line, column, AsmErrorKind::BadNumber(full))
    }

    /// One 32-bit immediate value: an integer, a hex word or a float.
    fn number(&mut self) -> PResult<u32> {
        let (negative, text) = self.signed_number()?;
        let full = if negative {
            format!("-{text}")
        } else {
            text.to_string()
        };
        if is_inexact_text(text) || text.ends_with(['f', 'F']) && !text.starts_with("0x") {
            if let Some(bits) = self.hints.single(&full) {
                return Ok(bits);
            }
            self.note_inexact(&full);
            let v = parse_float(text).ok_or_else(|| self.bad_number(full.clone()))?;
            let v = if negative { -v } else { v };
            return Ok(special_float(text, negative).unwrap_or(v.to_bits()));
        }
        let v = parse_int(text).ok_or_else(|| self.bad_number(full.clone()))?;
        let v = if negative { v.wrapping_neg() } else { v };
        if v > i64::from(u32::MAX) || v < i64::from(i32::MIN) {
            return Err(self.bad_number(full));
        }
        Ok(v as u32)
    }

    /// Records a `%f` text whose sixth decimal is not zero (digits may have
    /// been cut) or a special (`1.#QNAN0`), taken without a reference.
    fn note_inexact(&mut self, text: &str) {
        let cut = match text.split_once('.') {
            Some((_, decimals)) => {
                decimals.contains('#') || (decimals.len() == 6 && !decimals.ends_with('0'))
            }
            None => false,
        };
        if cut {
            let t = &self.toks[self.pos - 1];
            self.inexact.push(super::InexactImmediate {
                line: t.line,
                column: t.column,
                text: text.to_string(),
            });
        }
    }

    fn double(&mut self) -> PResult<u64> {
        let (negative, text) = self.signed_number()?;
        let bare = text.strip_suffix(['l', 'L']).unwrap_or(text);
        let full = if negative {
            format!("-{bare}")
        } else {
            bare.to_string()
        };
        if let Some(bits) = self.hints.double(&full) {
            return Ok(bits);
        }
        self.note_inexact(&full);
        if let Some(bits) = special_float(bare, negative) {
            // Widen the single-precision special to a double of its kind.
            return Ok(f64::from(f32::from_bits(bits)).to_bits());
        }
        let v: f64 = bare
            .trim_end_matches(['f', 'F'])
            .parse()
            .map_err(|_| self.bad_number(full.clone()))?;
        Ok(if negative { -v } else { v }.to_bits())
    }

    /// One operand (with modifiers, letters and annotations).
    fn operand(&mut self, role: Role) -> PResult<Operand> {
        let mut modifier = 0u8;
        // `-4` in free syntax is a negative number, not a negated one.
        if self.peek() == Tok::Punct('-') && !matches!(self.peek_at(1), Tok::Number(_)) {
            self.pos += 1;
            modifier |= 1;
        }
        let abs = self.eat_punct('|');
        if abs {
            modifier |= 2;
        }
        let mut operand = self.register(role)?;
        if abs {
            self.expect_punct('|', "'|' closing the absolute value")?;
        }
        operand.modifier = modifier;
        // `{min16f}`, `{def32 as min16f}`, `{ nonuniform }`.
        while self.peek() == Tok::Punct('{') {
            self.pos += 1;
            let word = self.ident("a precision or 'nonuniform'")?;
            if word.eq_ignore_ascii_case("nonuniform") {
                operand.nonuniform = true;
            } else {
                operand.min_precision = precision(word).ok_or_else(|| {
                    self.error_here(AsmErrorKind::UnknownName {
                        what: "minimum precision",
                        name: word.to_string(),
                    })
                })?;
                if matches!(self.peek(), Tok::Ident(s) if s.eq_ignore_ascii_case("as")) {
                    self.pos += 1;
                    let to = self.ident("a precision")?;
                    precision(to).ok_or_else(|| {
                        self.error_here(AsmErrorKind::UnknownName {
                            what: "minimum precision",
                            name: to.to_string(),
                        })
                    })?;
                }
            }
            self.expect_punct('}', "'}'")?;
        }
        Ok(operand)
    }

    fn immediate_values(&mut self, double: bool) -> PResult<Vec<u32>> {
        self.expect_punct('(', "'('")?;
        let mut values = Vec::new();
        loop {
            if !values.is_empty() && !self.eat_punct(',') {
                break;
            }
            if double {
                let bits = self.double()?;
                values.push(bits as u32);
                values.push((bits >> 32) as u32);
            } else {
                values.push(self.number()?);
            }
        }
        self.expect_punct(')', "')'")?;
        Ok(values)
    }

    fn register(&mut self, role: Role) -> PResult<Operand> {
        let (line, column) = self.here();
        let mut operand = Operand {
            kind: 0,
            components: Components::None,
            indices: Vec::new(),
            modifier: 0,
            min_precision: 0,
            nonuniform: false,
            immediate: Vec::new(),
        };
        let word = match self.peek() {
            Tok::Ident(w) => w,
            Tok::Number(_) | Tok::Punct('-') => {
                // A bare number (Microsoft's free syntax): `l(N)`.
                operand.kind = ot::IMMEDIATE32;
                operand.immediate.push(self.number()?);
                operand.components = Components::One;
                return Ok(operand);
            }
            _ => return Err(self.expected("an operand")),
        };
        self.pos += 1;
        if (word.eq_ignore_ascii_case("l") || word.eq_ignore_ascii_case("d"))
            && self.peek() == Tok::Punct('(')
        {
            let double = word.eq_ignore_ascii_case("d");
            let mut values = self.immediate_values(double)?;
            if self.compact_immediates
                && !double
                && values.len() == 4
                && values.iter().all(|v| *v == values[0])
            {
                values.truncate(1);
            }
            let count = values.len();
            operand.kind = if double {
                ot::IMMEDIATE64
            } else {
                ot::IMMEDIATE32
            };
            operand.components = match count {
                1 if !double => Components::One,
                4 => Components::Mask(0),
                _ => {
                    return Err(AsmError::new(
                        line,
                        column,
                        AsmErrorKind::ImmediateCount(if double { count / 2 } else { count }),
                    ))
                }
            };
            operand.immediate = values;
            return Ok(operand);
        }
        let (kind, first_index) = register_kind(word).ok_or_else(|| {
            AsmError::new(
                line,
                column,
                AsmErrorKind::UnknownRegister(word.to_string()),
            )
        })?;
        operand.kind = kind;
        if let Some(i) = first_index {
            operand.indices.push(Index {
                value: i,
                relative: None,
            });
        }
        // The operand token counts its indices in two bits; an SM5.1
        // constant buffer's declaration writes its size as one more.
        let most = if role == Role::Declared && kind == ot::CONSTANT_BUFFER && self.sm51 {
            MAX_INDICES + 1
        } else {
            MAX_INDICES
        };
        while self.peek() == Tok::Punct('[') {
            let (line, column) = self.here();
            self.pos += 1;
            self.index(&mut operand)?;
            if operand.indices.len() > most {
                return Err(AsmError::new(
                    line,
                    column,
                    AsmErrorKind::TooManyIndices {
                        limit: MAX_INDICES as u32,
                    },
                ));
            }
        }
        let declared_resource = role == Role::Declared
            && matches!(
                kind,
                ot::SAMPLER | ot::RESOURCE | ot::UNORDERED_ACCESS_VIEW | ot::CONSTANT_BUFFER
            );
        operand.components = if self.eat_punct('.') {
            let (line, column) = self.here();
            let letters = self.ident("component letters")?;
            components(letters, role).ok_or_else(|| {
                AsmError::new(
                    line,
                    column,
                    AsmErrorKind::BadComponents(letters.to_string()),
                )
            })?
        } else if declared_resource && (self.sm51 || kind == ot::CONSTANT_BUFFER) {
            // Hidden in the listing: fxc writes a full swizzle.
            Components::Swizzle([0, 1, 2, 3])
        } else if FOUR_COMPONENT.contains(&kind)
            && role != Role::Relative
            && !operand.indices.is_empty()
        {
            // Microsoft's free syntax (`mov r0, v1`): all four components.
            // fxc's listings always print the letters of these registers.
            match role {
                Role::Source => Components::Swizzle([0, 1, 2, 3]),
                _ => Components::Mask(0xf),
            }
        } else if role == Role::Declared {
            if ONE_COMPONENT_DECLARED.contains(&kind) {
                Components::One
            } else {
                Components::None
            }
        } else if ONE_COMPONENT.contains(&kind) {
            Components::One
        } else {
            Components::None
        };
        Ok(operand)
    }

    /// One bracketed index (the `[` is read): `[3]`, `[r0.x + 2]`,
    /// `[lower:upper]` (SM5.1 ranges; `*` is unbounded).
    fn index(&mut self, operand: &mut Operand) -> PResult<()> {
        let mut value: u64 = 0;
        let mut relative = None;
        let mut first = true;
        loop {
            if !first && !self.eat_punct('+') {
                break;
            }
            first = false;
            if self.peek() == Tok::Punct('*') {
                self.pos += 1;
                value = u64::from(u32::MAX);
                continue;
            }
            if let Tok::Number(_) = self.peek() {
                value = value.wrapping_add(u64::from(self.uint("an index")?));
            } else {
                if relative.is_some() {
                    return Err(self.expected("']'"));
                }
                if self.relative_depth >= MAX_RELATIVE_DEPTH {
                    return Err(self.error_here(AsmErrorKind::NestedTooDeep {
                        limit: MAX_RELATIVE_DEPTH,
                    }));
                }
                self.relative_depth += 1;
                let r = self.register(Role::Relative);
                self.relative_depth -= 1;
                relative = Some(Box::new(r?));
            }
        }
        if self.eat_punct(':') {
            // [lower:upper]
            operand.indices.push(Index {
                value,
                relative: None,
            });
            let upper = if self.eat_punct('*') {
                u64::from(u32::MAX)
            } else {
                u64::from(self.uint("an upper bound")?)
            };
            operand.indices.push(Index {
                value: upper,
                relative: None,
            });
            return self.expect_punct(']', "']'");
        }
        self.expect_punct(']', "']'")?;
        operand.indices.push(Index { value, relative });
        Ok(())
    }

    fn declaration(
        &mut self,
        code: u16,
        rest: &[String],
        at: (u32, u32),
        name: &str,
    ) -> PResult<Encoded> {
        let mut e = Encoded {
            opcode: code,
            controls: 0,
            extended: Vec::new(),
            body: Vec::new(),
        };
        let unknown = |s: &str| {
            AsmError::new(
                at.0,
                at.1,
                AsmErrorKind::UnknownSuffix {
                    suffix: s.to_string(),
                    instruction: name.to_string(),
                },
            )
        };
        let lower: Vec<String> = rest.iter().map(|s| s.to_ascii_lowercase()).collect();
        let uav_flags = |pieces: &[String], e: &mut Encoded| -> PResult<()> {
            for p in pieces {
                let (bit, _) = names::UAV_FLAGS
                    .iter()
                    .find(|(_, s)| s[1..] == *p)
                    .ok_or_else(|| unknown(p))?;
                e.controls |= bit;
            }
            Ok(())
        };
        let no_suffix = |e: &[String]| match e.first() {
            Some(s) => Err(unknown(s)),
            None => Ok(()),
        };
        match code {
            op::DCL_GLOBAL_FLAGS => {
                no_suffix(&lower)?;
                let mut flags = 0u32;
                loop {
                    let n = self.ident("a global flag")?;
                    let bit = names::GLOBAL_FLAGS
                        .iter()
                        .position(|f| f.eq_ignore_ascii_case(n))
                        .ok_or_else(|| {
                            self.error_here(AsmErrorKind::UnknownName {
                                what: "global flag",
                                name: n.to_string(),
                            })
                        })?;
                    flags |= 1 << bit;
                    if !self.eat_punct('|') {
                        break;
                    }
                }
                e.controls = flags << 11;
            }
            op::DCL_CONSTANT_BUFFER => {
                no_suffix(&lower)?;
                let mut operand = self.operand(Role::Declared)?;
                let size = if self.sm51 {
                    operand.indices.pop().map(|i| i.value as u32)
                } else {
                    None
                };
                encode_operand(&operand, &mut e.body);
                if let Some(size) = size {
                    e.body.push(size);
                }
                self.expect_punct(',', "','")?;
                let access = self.ident("immediateIndexed or dynamicIndexed")?;
                if access.eq_ignore_ascii_case("dynamicIndexed") {
                    e.controls |= 1 << 11;
                } else if !access.eq_ignore_ascii_case("immediateIndexed") {
                    return Err(self.expected("immediateIndexed or dynamicIndexed"));
                }
                self.space(&mut e.body)?;
            }
            op::DCL_SAMPLER => {
                no_suffix(&lower)?;
                let operand = self.operand(Role::Declared)?;
                encode_operand(&operand, &mut e.body);
                self.expect_punct(',', "','")?;
                let mode = self.ident("a sampler mode")?;
                let m = lookup(&names::SAMPLER_MODES, mode).ok_or_else(|| {
                    self.error_here(AsmErrorKind::UnknownName {
                        what: "sampler mode",
                        name: mode.to_string(),
                    })
                })?;
                e.controls |= (m as u32) << 11;
                self.space(&mut e.body)?;
            }
            op::DCL_RESOURCE | op::DCL_UAV_TYPED => {
                let dim_name = lower
                    .first()
                    .ok_or_else(|| self.expected("a dimension suffix"))?;
                let dim = lookup(&names::RESOURCE_DIMENSIONS, dim_name)
                    .filter(|d| (1..=10).contains(d))
                    .ok_or_else(|| unknown(dim_name))?;
                e.controls |= (dim as u32) << 11;
                if code == op::DCL_UAV_TYPED {
                    uav_flags(&lower[1..], &mut e)?;
                } else {
                    no_suffix(&lower[1..])?;
                }
                if self.adjacent() && self.peek() == Tok::Punct('(') {
                    self.pos += 1;
                    let samples = self.uint("a sample count")?;
                    self.expect_punct(')', "')'")?;
                    e.controls |= (samples & 0x7f) << 16;
                }
                let rt = self.return_type()?;
                let operand = self.operand(Role::Declared)?;
                encode_operand(&operand, &mut e.body);
                let mut word = 0;
                for (i, t) in rt.iter().enumerate() {
                    word |= u32::from(*t) << (4 * i);
                }
                e.body.push(word);
                self.space(&mut e.body)?;
            }
            op::DCL_RESOURCE_RAW | op::DCL_UAV_RAW => {
                uav_flags(&lower, &mut e)?;
                let operand = self.operand(Role::Declared)?;
                encode_operand(&operand, &mut e.body);
                self.space(&mut e.body)?;
            }
            op::DCL_RESOURCE_STRUCTURED | op::DCL_UAV_STRUCTURED => {
                uav_flags(&lower, &mut e)?;
                let operand = self.operand(Role::Declared)?;
                encode_operand(&operand, &mut e.body);
                self.expect_punct(',', "','")?;
                e.body.push(self.uint("a stride")?);
                self.space(&mut e.body)?;
            }
            op::DCL_TGSM_RAW | op::DCL_TGSM_STRUCTURED => {
                no_suffix(&lower)?;
                let operand = self.operand(Role::Declared)?;
                encode_operand(&operand, &mut e.body);
                self.expect_punct(',', "','")?;
                e.body.push(self.uint("a size")?);
                if code == op::DCL_TGSM_STRUCTURED {
                    self.expect_punct(',', "','")?;
                    e.body.push(self.uint("a count")?);
                }
            }
            op::DCL_INPUT
            | op::DCL_OUTPUT
            | op::DCL_INPUT_SGV
            | op::DCL_INPUT_SIV
            | op::DCL_OUTPUT_SGV
            | op::DCL_OUTPUT_SIV
            | op::DCL_INPUT_PS
            | op::DCL_INPUT_PS_SGV
            | op::DCL_INPUT_PS_SIV => {
                let mut code = code;
                match lower.as_slice() {
                    [] => {}
                    // Microsoft's syntax: `dcl_output_sv`, `dcl_input_sv`.
                    [s] if s == "sv" && code == op::DCL_OUTPUT => code = op::DCL_OUTPUT_SIV,
                    [s] if s == "sv" && code == op::DCL_INPUT => code = op::DCL_INPUT_SIV,
                    [s] if s == "sv" && code == op::DCL_INPUT_PS => code = op::DCL_INPUT_PS_SIV,
                    [s, ..] => return Err(unknown(s)),
                }
                e.opcode = code;
                let ps = matches!(
                    code,
                    op::DCL_INPUT_PS | op::DCL_INPUT_PS_SGV | op::DCL_INPUT_PS_SIV
                );
                if ps {
                    let mode = self.interpolation()?;
                    let mode = match mode {
                        Some(m) => m,
                        // Releases before 10.0 do not print the mode of a
                        // system-generated input; fxc writes `constant`.
                        None if code == op::DCL_INPUT_PS_SGV => 1,
                        None => 0,
                    };
                    e.controls |= u32::from(mode) << 11;
                }
                let operand = self.operand(Role::Declared)?;
                encode_operand(&operand, &mut e.body);
                if !matches!(code, op::DCL_INPUT | op::DCL_OUTPUT | op::DCL_INPUT_PS) {
                    self.expect_punct(',', "',' before the system value")?;
                    let sv = self.ident("a system value")?;
                    let n = lookup(&names::SYSTEM_VALUES, sv).ok_or_else(|| {
                        self.error_here(AsmErrorKind::UnknownName {
                            what: "system value",
                            name: sv.to_string(),
                        })
                    })?;
                    e.body.push(n as u32);
                }
            }
            op::DCL_TEMPS => {
                no_suffix(&lower)?;
                e.body.push(self.uint("a register count")?);
            }
            op::DCL_INDEXABLE_TEMP => {
                no_suffix(&lower)?;
                let (line, column) = self.here();
                let reg = self.ident("an indexable register xN")?;
                let number = reg
                    .strip_prefix(['x', 'X'])
                    .and_then(|n| n.parse::<u32>().ok())
                    .ok_or_else(|| {
                        AsmError::new(line, column, AsmErrorKind::UnknownRegister(reg.to_string()))
                    })?;
                self.expect_punct('[', "'['")?;
                let size = self.uint("a register count")?;
                self.expect_punct(']', "']'")?;
                self.expect_punct(',', "','")?;
                let comps = self.uint("a component count")?;
                e.body.extend([number, size, comps]);
            }
            op::DCL_INDEX_RANGE => {
                no_suffix(&lower)?;
                let first = self.operand(Role::Declared)?;
                let count = if self.eat_punct(',') {
                    // Microsoft's syntax: `dcl_indexRange o[0], o[3]`.
                    let last = self.operand(Role::Declared)?;
                    let (a, b) = (
                        first.indices.last().map_or(0, |i| i.value),
                        last.indices.last().map_or(0, |i| i.value),
                    );
                    (b.saturating_sub(a) + 1) as u32
                } else {
                    self.uint("a register count")?
                };
                encode_operand(&first, &mut e.body);
                e.body.push(count);
            }
            op::DCL_GS_INPUT_PRIMITIVE => {
                no_suffix(&lower)?;
                let n = self.ident("an input primitive")?;
                let p = names::INPUT_PRIMITIVES
                    .iter()
                    .find(|(_, s)| s.eq_ignore_ascii_case(n))
                    .map(|(v, _)| *v)
                    .or_else(|| {
                        let k: u8 = n.strip_prefix("patch")?.parse().ok()?;
                        (1..=32).contains(&k).then_some(k + 7)
                    })
                    .ok_or_else(|| {
                        self.error_here(AsmErrorKind::UnknownName {
                            what: "input primitive",
                            name: n.to_string(),
                        })
                    })?;
                e.controls |= u32::from(p) << 11;
            }
            op::DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => {
                no_suffix(&lower)?;
                let n = self.ident("an output topology")?;
                let t = names::OUTPUT_TOPOLOGIES
                    .iter()
                    .find(|(_, s)| s.eq_ignore_ascii_case(n))
                    .map(|(v, _)| *v)
                    .ok_or_else(|| {
                        self.error_here(AsmErrorKind::UnknownName {
                            what: "output topology",
                            name: n.to_string(),
                        })
                    })?;
                e.controls |= u32::from(t) << 11;
            }
            op::DCL_MAX_OUTPUT_VERTEX_COUNT
            | op::DCL_GS_INSTANCE_COUNT
            | op::DCL_HS_FORK_PHASE_INSTANCE_COUNT
            | op::DCL_HS_JOIN_PHASE_INSTANCE_COUNT => {
                no_suffix(&lower)?;
                e.body.push(self.uint("a count")?);
            }
            op::DCL_INPUT_CONTROL_POINT_COUNT | op::DCL_OUTPUT_CONTROL_POINT_COUNT => {
                no_suffix(&lower)?;
                let n = self.uint("a control point count")?;
                if n > 0x3f {
                    return Err(self.error_here(AsmErrorKind::OutOfRange {
                        what: "control point count",
                        value: i64::from(n),
                    }));
                }
                e.controls |= n << 11;
            }
            op::DCL_STREAM => {
                no_suffix(&lower)?;
                let operand = self.operand(Role::Declared)?;
                encode_operand(&operand, &mut e.body);
            }
            op::DCL_THREAD_GROUP => {
                no_suffix(&lower)?;
                for i in 0..3 {
                    if i > 0 {
                        self.expect_punct(',', "','")?;
                    }
                    e.body.push(self.uint("a thread count")?);
                }
            }
            op::DCL_TESS_DOMAIN | op::DCL_TESS_PARTITIONING | op::DCL_TESS_OUTPUT_PRIMITIVE => {
                no_suffix(&lower)?;
                let (table, what): (&[&str], _) = match code {
                    op::DCL_TESS_DOMAIN => (&names::TESS_DOMAINS, "tessellator domain"),
                    op::DCL_TESS_PARTITIONING => (&names::TESS_PARTITIONINGS, "partitioning"),
                    _ => (&names::TESS_OUTPUT_PRIMITIVES, "output primitive"),
                };
                let n = self.ident(what)?;
                let v = lookup(table, n).ok_or_else(|| {
                    self.error_here(AsmErrorKind::UnknownName {
                        what,
                        name: n.to_string(),
                    })
                })?;
                e.controls |= (v as u32) << 11;
            }
            op::DCL_HS_MAX_TESSFACTOR => {
                no_suffix(&lower)?;
                let operand = self.register(Role::Source)?;
                let bits = operand
                    .immediate
                    .first()
                    .copied()
                    .filter(|_| operand.kind == ot::IMMEDIATE32)
                    .ok_or_else(|| self.expected("l(N)"))?;
                e.body.push(bits);
            }
            op::DCL_FUNCTION_BODY => {
                no_suffix(&lower)?;
                e.body.push(self.numbered_name("fb")?);
            }
            op::DCL_FUNCTION_TABLE => {
                no_suffix(&lower)?;
                let table = self.numbered_name("ft")?;
                self.expect_punct('=', "'='")?;
                let bodies = self.name_list("fb")?;
                e.body.push(table);
                e.body.push(bodies.len() as u32);
                e.body.extend(bodies);
            }
            op::DCL_INTERFACE => {
                match lower.as_slice() {
                    [] => {}
                    [s] if s == "dynamicindexed" => e.controls |= 1 << 11,
                    [s, ..] => return Err(unknown(s)),
                }
                let interface = self.numbered_name("fp")?;
                self.expect_punct('[', "'['")?;
                let array_len = self.uint("an array length")?;
                self.expect_punct(']', "']'")?;
                self.expect_punct('[', "'['")?;
                let call_sites = self.uint("a call-site count")?;
                self.expect_punct(']', "']'")?;
                self.expect_punct('=', "'='")?;
                let tables = self.name_list("ft")?;
                e.body.push(interface);
                e.body.push(call_sites);
                e.body
                    .push((array_len << 16) | (tables.len() as u32 & 0xffff));
                e.body.extend(tables);
            }
            _ => return Err(unknown(name)),
        }
        Ok(e)
    }

    /// `, space=N` (SM5.1 only; SM5.1 declarations always carry it).
    fn space(&mut self, body: &mut Vec<u32>) -> PResult<()> {
        if !self.sm51 {
            return Ok(());
        }
        let space = self.keyed_uint("space", "'space'", "a register space")?;
        body.push(space);
        Ok(())
    }

    /// `, key=N` when a comma follows (any case for `key`), else 0.
    /// `expected` names the key in the error for another word, `what` the
    /// number.
    fn keyed_uint(
        &mut self,
        key: &str,
        expected: &'static str,
        what: &'static str,
    ) -> PResult<u32> {
        if !self.eat_punct(',') {
            return Ok(0);
        }
        let word = self.ident(expected)?;
        if !word.eq_ignore_ascii_case(key) {
            return Err(self.expected(expected));
        }
        self.expect_punct('=', "'='")?;
        self.uint(what)
    }

    fn interpolation(&mut self) -> PResult<Option<u8>> {
        let mut words: Vec<String> = Vec::new();
        while let Tok::Ident(w) = self.peek() {
            let lw = w.to_ascii_lowercase();
            if !["constant", "linear", "centroid", "noperspective", "sample"].contains(&lw.as_str())
            {
                break;
            }
            words.push(lw);
            self.pos += 1;
        }
        if words.is_empty() {
            return Ok(None);
        }
        words.sort();
        for (i, mode) in names::INTERPOLATION_MODES.iter().enumerate().skip(1) {
            let mut want: Vec<&str> = mode.split(' ').collect();
            want.sort();
            if want == words.iter().map(String::as_str).collect::<Vec<_>>() {
                return Ok(Some(i as u8));
            }
        }
        Err(self.error_here(AsmErrorKind::UnknownName {
            what: "interpolation mode",
            name: words.join(" "),
        }))
    }

    fn numbered_name(&mut self, prefix: &'static str) -> PResult<u32> {
        let (line, column) = self.here();
        let w = self.ident(prefix)?;
        w.get(..prefix.len())
            .filter(|p| p.eq_ignore_ascii_case(prefix))
            .and_then(|_| w[prefix.len()..].parse().ok())
            .ok_or_else(|| {
                AsmError::new(line, column, AsmErrorKind::UnknownRegister(w.to_string()))
            })
    }

    fn name_list(&mut self, prefix: &'static str) -> PResult<Vec<u32>> {
        self.expect_punct('{', "'{'")?;
        let mut list = Vec::new();
        loop {
            self.skip_newlines();
            if self.eat_punct('}') {
                return Ok(list);
            }
            if !list.is_empty() {
                self.expect_punct(',', "','")?;
                self.skip_newlines();
            }
            list.push(self.numbered_name(prefix)?);
        }
    }
}

/// Encodes `operand` (its token, extended token, immediates and indices)
/// onto `out`, as fxc lays it out.
pub(crate) fn encode_operand(operand: &Operand, out: &mut Vec<u32>) {
    let mut token = u32::from(operand.kind) << 12;
    token |= match operand.components {
        Components::None => 0,
        Components::One => 1,
        Components::Mask(m) => 2 | (u32::from(m) << 4),
        Components::Swizzle(s) => {
            2 | (1 << 2)
                | s.iter()
                    .enumerate()
                    .fold(0, |acc, (i, c)| acc | (u32::from(*c & 3) << (4 + 2 * i)))
        }
        Components::Select(c) => 2 | (2 << 2) | (u32::from(c & 3) << 4),
    };
    token |= (operand.indices.len() as u32 & 3) << 20;
    let representation = |index: &Index| -> u32 {
        match (&index.relative, index.value > u64::from(u32::MAX)) {
            (None, false) => 0,
            (None, true) => 1,
            (Some(_), _) if index.value == 0 => 2,
            (Some(_), false) => 3,
            (Some(_), true) => 4,
        }
    };
    for (i, index) in operand.indices.iter().enumerate() {
        token |= representation(index) << (22 + 3 * i);
    }
    let extended = u32::from(operand.modifier) << 6
        | u32::from(operand.min_precision) << 14
        | u32::from(operand.nonuniform) << 17;
    if extended != 0 {
        token |= 1 << 31;
    }
    out.push(token);
    if extended != 0 {
        out.push(1 | extended);
    }
    out.extend(&operand.immediate);
    for index in &operand.indices {
        match representation(index) {
            0 => out.push(index.value as u32),
            1 => {
                out.push((index.value >> 32) as u32);
                out.push(index.value as u32);
            }
            2 => {}
            3 => out.push(index.value as u32),
            _ => {
                out.push((index.value >> 32) as u32);
                out.push(index.value as u32);
            }
        }
        if let Some(relative) = &index.relative {
            encode_operand(relative, out);
        }
    }
}

/// The suffixes of a mnemonic: `text` is what follows the table name
/// (`_sat`, `_z`, empty) and starts at `at`. Every suffix holds a letter or
/// digit: an empty one (`mov__sat`, `mov_`) is an error at its `_`, not a
/// suffix dropped unread.
fn suffixes(text: &str, at: (u32, u32), name: &str) -> PResult<Vec<String>> {
    let Some(list) = text.strip_prefix('_') else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    // The byte offset of the `_` before each suffix (a mnemonic is ASCII,
    // so bytes are columns).
    let mut underscore = 0usize;
    for part in list.split('_') {
        if part.is_empty() {
            return Err(AsmError::new(
                at.0,
                at.1.saturating_add(underscore as u32),
                AsmErrorKind::EmptySuffix(super::lex::cut(name)),
            ));
        }
        out.push(part.to_string());
        underscore += part.len() + 1;
    }
    Ok(out)
}

/// The operand type a register name stands for, and the index joined to
/// the name (`r12` → temp, 12).
fn register_kind(word: &str) -> Option<(u8, Option<u64>)> {
    for (kind, name, form) in names::REGISTERS {
        if form == RegisterForm::Fixed && word.eq_ignore_ascii_case(name) {
            return Some((kind, None));
        }
    }
    let split = word
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(word.len());
    let (prefix, digits) = word.split_at(split);
    let number = if digits.is_empty() {
        None
    } else {
        Some(digits.parse::<u64>().ok()?)
    };
    for (kind, name, form) in names::REGISTERS {
        let upper = match form {
            RegisterForm::Resource(upper) => upper,
            RegisterForm::Fixed => continue,
            _ => name,
        };
        if prefix.eq_ignore_ascii_case(name) || prefix.eq_ignore_ascii_case(upper) {
            return Some((kind, number));
        }
    }
    REGISTER_ALIASES
        .iter()
        .find(|(alias, _)| prefix.eq_ignore_ascii_case(alias))
        .map(|(_, kind)| (*kind, number))
}

/// Component letters (`xyzw` or `rgba`) as the role encodes them.
fn components(letters: &str, role: Role) -> Option<Components> {
    let mut index = Vec::with_capacity(4);
    for c in letters.chars() {
        index.push(match c.to_ascii_lowercase() {
            'x' | 'r' => 0u8,
            'y' | 'g' => 1,
            'z' | 'b' => 2,
            'w' | 'a' => 3,
            _ => return None,
        });
    }
    if index.is_empty() || index.len() > 4 {
        return None;
    }
    let as_mask = || -> Option<Components> {
        let mut mask = 0u8;
        let mut last = None;
        for &i in &index {
            if last.is_some_and(|l| i <= l) {
                return None;
            }
            last = Some(i);
            mask |= 1 << i;
        }
        Some(Components::Mask(mask))
    };
    match role {
        Role::Declared | Role::Destination => as_mask(),
        Role::Relative if index.len() == 1 => Some(Components::Select(index[0])),
        Role::Relative | Role::Source => match index.len() {
            1 => Some(Components::Select(index[0])),
            // Two to four letters; with fewer than four (free syntax) the
            // last one repeats.
            n => {
                let at = |i: usize| index[i.min(n - 1)];
                Some(Components::Swizzle([at(0), at(1), at(2), at(3)]))
            }
        },
    }
}

fn mask_of(letters: &str) -> Option<u8> {
    match components(letters, Role::Destination)? {
        Components::Mask(m) => Some(m),
        _ => None,
    }
}

fn precision(word: &str) -> Option<u8> {
    names::MIN_PRECISIONS
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(word))
        .map(|(v, _)| *v)
}

/// The index of `name` in `table` (ASCII case ignored).
fn lookup(table: &[&str], name: &str) -> Option<usize> {
    table.iter().position(|n| n.eq_ignore_ascii_case(name))
}

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Ident(s) | Tok::Number(s) => format!("'{s}'"),
        Tok::Punct(c) => format!("'{c}'"),
        Tok::Newline => "the end of the line".into(),
    }
}

/// A decimal or `0x` hex integer.
fn parse_int(text: &str) -> Option<i64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16).ok();
    }
    text.parse().ok()
}

/// A float text: `%f`, `1e-5`, `2.0f`, `64.f`.
fn parse_float(text: &str) -> Option<f32> {
    if text.contains('#') {
        return Some(0.0);
    }
    let t = text.strip_suffix(['f', 'F']).unwrap_or(text);
    let t = t.strip_suffix('.').unwrap_or(t);
    t.parse().ok()
}

/// The bits of Microsoft's special spellings (`1.#INF00`, `-1.#IND00`,
/// `1.#QNAN0`, `1.#SNAN0`).
fn special_float(text: &str, negative: bool) -> Option<u32> {
    let sign = if negative { 0x8000_0000 } else { 0 };
    let upper = text.to_ascii_uppercase();
    if upper.starts_with("1.#INF") {
        Some(sign | 0x7f80_0000)
    } else if upper.starts_with("1.#IND") || upper.starts_with("1.#QNAN") {
        Some(sign | 0x7fc0_0000)
    } else if upper.starts_with("1.#SNAN") {
        Some(sign | 0x7f80_0001)
    } else {
        None
    }
}
