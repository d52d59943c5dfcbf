//! Immediates whose listing text is not exact, recovered from a reference
//! program.
//!
//! Microsoft's disassembler prints 32-bit float immediates as `%f`
//! (`l(0.333333)`), which keeps six decimals: many floats print alike, and
//! the nearest float to the text is often not the one the compiler wrote.
//! When the listing was printed from a program at hand (`dxasm --into`,
//! `dxasm --check`, a listing beside its container), that program's
//! immediates say which float each text stood for: the k-th use of a text
//! takes the bits of the k-th immediate of the reference that prints as that
//! text (the last one when there are fewer), so an unedited listing comes
//! back exact and an edited one keeps the values it did not touch. Without a
//! reference, or for a text the reference never printed, the nearest float
//! (or double) to the text is used.

use dxcopy_read::listing::dxbc::number::{fixed6, float_text, untyped_text};
use dxcopy_read::listing::dxbc::FloatRounding;
use dxcopy_read::sm4::{
    opcode, operand_type as ot, Body, Declaration, ImmediateStyle, Instruction, Program,
};
use std::collections::HashMap;

/// Texts of a reference program's inexact immediates and their bits.
#[derive(Debug, Clone, Default)]
pub struct FloatHints {
    singles: HashMap<String, Vec<u32>>,
    doubles: HashMap<String, Vec<u64>>,
    used_singles: HashMap<String, usize>,
    used_doubles: HashMap<String, usize>,
    /// Which roundings' texts are recorded: bit 0 current, bit 1 legacy.
    roundings: u8,
}

impl FloatHints {
    /// No hints: every text is parsed as the nearest value.
    pub fn none() -> FloatHints {
        FloatHints::default()
    }

    /// The hints of `program` (a decoded reference program), for a listing
    /// printed with either C runtime's rounding.
    pub fn from_program(program: &Program) -> FloatHints {
        FloatHints::from_program_printed(program, None)
    }

    /// The hints of `program` for a listing printed with `rounding` (both
    /// when `None`).
    pub fn from_program_printed(program: &Program, rounding: Option<FloatRounding>) -> FloatHints {
        let mut hints = FloatHints {
            roundings: match rounding {
                Some(FloatRounding::Current) => 1,
                Some(FloatRounding::Legacy) => 2,
                None => 3,
            },
            ..FloatHints::default()
        };
        for instruction in &program.instructions {
            hints.add_instruction(instruction);
        }
        hints
    }

    /// Records `bits` under the texts it prints as with `style`.
    fn add_single(&mut self, bits: u32, style: ImmediateStyle) {
        let mut texts: Vec<String> = Vec::with_capacity(2);
        for (bit, rounding) in [(1, FloatRounding::Current), (2, FloatRounding::Legacy)] {
            if self.roundings & bit == 0 {
                continue;
            }
            let text = match style {
                ImmediateStyle::Float | ImmediateStyle::Double => {
                    float_text(f32::from_bits(bits), rounding)
                }
                ImmediateStyle::Untyped => untyped_text(bits, rounding),
                ImmediateStyle::Int => return,
            };
            if is_inexact_text(&text) && !texts.contains(&text) {
                texts.push(text);
            }
        }
        for text in texts {
            self.singles.entry(text).or_default().push(bits);
        }
    }

    fn add_double(&mut self, bits: u64) {
        let current =
            (self.roundings & 1 != 0).then(|| fixed6(f64::from_bits(bits), FloatRounding::Current));
        let legacy =
            (self.roundings & 2 != 0).then(|| fixed6(f64::from_bits(bits), FloatRounding::Legacy));
        if legacy.is_some() && legacy != current {
            self.doubles
                .entry(legacy.unwrap_or_default())
                .or_default()
                .push(bits);
        }
        if let Some(current) = current {
            self.doubles.entry(current).or_default().push(bits);
        }
    }

    fn add_instruction(&mut self, instruction: &Instruction) {
        let destinations = opcode::destinations(instruction.opcode);
        for (i, operand) in instruction.operands.iter().enumerate() {
            if i < destinations {
                continue;
            }
            let style = opcode::immediate_style(instruction.opcode, i - destinations);
            match operand.kind {
                ot::IMMEDIATE32 => {
                    for &w in &operand.immediate {
                        self.add_single(w, style);
                    }
                }
                ot::IMMEDIATE64 => {
                    for pair in operand.immediate.chunks(2) {
                        let hi = pair.get(1).copied().unwrap_or(0);
                        self.add_double(u64::from(pair[0]) | (u64::from(hi) << 32));
                    }
                }
                _ => {}
            }
        }
        match &instruction.body {
            Body::Declaration(Declaration::ImmediateConstantBuffer(words)) => {
                for &w in words {
                    self.add_single(w, ImmediateStyle::Untyped);
                }
            }
            Body::Declaration(Declaration::MaxTessFactor(f)) => {
                self.add_single(f.to_bits(), ImmediateStyle::Float)
            }
            _ => {}
        }
    }

    /// The bits a 32-bit float text stands for, if the reference printed it.
    pub(crate) fn single(&mut self, text: &str) -> Option<u32> {
        let list = self.singles.get(text)?;
        if list.iter().all(|b| *b == list[0]) {
            return list.first().copied();
        }
        let used = self.used_singles.entry(text.to_owned()).or_default();
        let bits = list.get(*used).or(list.last()).copied();
        *used += 1;
        bits
    }

    /// The bits a double text stands for, if the reference printed it.
    pub(crate) fn double(&mut self, text: &str) -> Option<u64> {
        let list = self.doubles.get(text)?;
        if list.iter().all(|b| *b == list[0]) {
            return list.first().copied();
        }
        let used = self.used_doubles.entry(text.to_owned()).or_default();
        let bits = list.get(*used).or(list.last()).copied();
        *used += 1;
        bits
    }
}

/// Whether a number text may stand for more than one value: a `%f` float
/// (a decimal point or a `1.#INF00`-style special).
pub(crate) fn is_inexact_text(text: &str) -> bool {
    text.contains('.') || text.contains('#')
}
