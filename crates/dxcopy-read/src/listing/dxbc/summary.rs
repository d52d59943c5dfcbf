//! What the instruction stream of an SHDR/SHEX part holds, as `dxinfo`
//! shows it: the instruction count and the declarations as listing lines.
//! A view, not a decoder: the part's decoder
//! ([`ShaderBytecode`](crate::dxbc::ShaderBytecode)) reads the two header
//! tokens; this decodes the program ([`crate::sm4`]) and prints its
//! declarations with the listing's printer.

use crate::sm4::{self, Body};

/// What the instruction stream of an SHDR/SHEX part holds, from
/// [`sm4::Program::decode_prefix`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ProgramSummary {
    /// Instructions that are neither declarations nor `customdata` blocks:
    /// the listing lines after the `dcl_*` block, `ret` included.
    pub instruction_count: u32,
    /// Number of declarations (`dcl_*`, an immediate constant buffer included).
    pub declaration_count: u32,
    /// The declarations in program order.
    pub declarations: Vec<DeclarationLine>,
    /// Where decoding stopped on a malformed token, with its token index and
    /// byte offset; the counts cover the instructions before it.
    pub error: Option<String>,
}

/// One declaration as the listing prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DeclarationLine {
    /// Index of its opcode token from the start of the program.
    pub token: u32,
    /// Absolute file offset of its opcode token.
    pub offset: u64,
    /// The declaration's name as printed (`dcl_constantbuffer`,
    /// `dcl_input_ps`, `dcl_immediateConstantBuffer`, …).
    pub opcode: String,
    /// The listing text (several lines for `dcl_immediateConstantBuffer`).
    pub text: String,
}

impl ProgramSummary {
    /// Decodes the token stream in `data` (absolute offset `base`); `None`
    /// when the header tokens are unusable.
    pub fn decode(data: &[u8], base: u64) -> Option<ProgramSummary> {
        let (program, error) = sm4::Program::decode_prefix(data, base).ok()?;
        let mut instruction_count = 0u32;
        let mut declarations = Vec::new();
        for ins in &program.instructions {
            match ins.body {
                Body::Plain => instruction_count += 1,
                Body::Declaration(_) => {
                    let mut text = String::new();
                    crate::listing::dxbc::sm4::write_instruction(
                        &program,
                        ins,
                        &Default::default(),
                        &mut text,
                    );
                    declarations.push(DeclarationLine {
                        token: ins.token,
                        offset: base.saturating_add(u64::from(ins.token) * 4),
                        opcode: text
                            .split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_owned(),
                        text,
                    });
                }
                Body::CustomData { .. } => {}
            }
        }
        Some(ProgramSummary {
            instruction_count,
            declaration_count: declarations.len() as u32,
            declarations,
            error: error.map(|e| e.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ps_5_0: dcl_globalFlags refactoringAllowed, dcl_temps 2, then two
    /// `ret`s (opcode 62); `extra` words are appended after them.
    fn small_program(extra: &[u32]) -> Vec<u8> {
        let mut words = vec![
            0x0000_0050,
            0,
            0x0100_086a,
            0x0200_0068,
            2,
            0x0100_003e,
            0x0100_003e,
        ];
        words.extend_from_slice(extra);
        words[1] = words.len() as u32;
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn summary_counts_instructions_and_prints_declarations() {
        let p = ProgramSummary::decode(&small_program(&[]), 0x40).unwrap();
        assert_eq!(p.instruction_count, 2);
        assert_eq!(p.declaration_count, 2);
        assert_eq!(p.error, None);
        let got: Vec<(u32, u64, &str, &str)> = p
            .declarations
            .iter()
            .map(|d| (d.token, d.offset, d.opcode.as_str(), d.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    2,
                    0x48,
                    "dcl_globalFlags",
                    "dcl_globalFlags refactoringAllowed"
                ),
                (3, 0x4c, "dcl_temps", "dcl_temps 2"),
            ]
        );
    }

    #[test]
    fn summary_stops_at_a_malformed_token_and_keeps_the_prefix() {
        // An instruction of length 0 at token 7 (byte 0x40 + 28).
        let p = ProgramSummary::decode(&small_program(&[0x0000_003e]), 0x40).unwrap();
        assert_eq!((p.instruction_count, p.declaration_count), (2, 2));
        let e = p.error.unwrap();
        assert!(e.starts_with("token 7 (byte 0x5c)"), "{e}");
        // A length token past the part: no program at all.
        let mut bytes = small_program(&[]);
        bytes[4] = 99;
        assert_eq!(ProgramSummary::decode(&bytes, 0), None);
    }
}
