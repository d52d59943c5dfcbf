//! Abbreviations (DEFINE_ABBREV): how an abbreviated record's fields are
//! encoded (docs/format/bitcode.md: abbreviations).

/// How one operand of an abbreviation is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbbrevOp {
    /// A constant value, not stored in the record.
    Literal(u64),
    /// A fixed-width field of the given bits (0..=64).
    Fixed(u8),
    /// A VBR field with chunks of the given bits (0 or 2..=32).
    Vbr(u8),
    /// A VBR6 count followed by that many elements encoded as the next (last) operand.
    Array,
    /// A 6-bit character from `[a-zA-Z0-9._]`.
    Char6,
    /// A VBR6 byte count, 32-bit alignment, the bytes, 32-bit alignment.
    Blob,
}

impl AbbrevOp {
    /// The encoding number DEFINE_ABBREV uses (1 fixed, 2 VBR, 3 array, 4 char6, 5 blob; 0 for a literal).
    pub fn encoding_code(self) -> u64 {
        match self {
            AbbrevOp::Literal(_) => 0,
            AbbrevOp::Fixed(_) => 1,
            AbbrevOp::Vbr(_) => 2,
            AbbrevOp::Array => 3,
            AbbrevOp::Char6 => 4,
            AbbrevOp::Blob => 5,
        }
    }

    /// Whether this operand reads one scalar value (fixed, VBR or char6).
    pub fn is_scalar_encoding(self) -> bool {
        matches!(
            self,
            AbbrevOp::Fixed(_) | AbbrevOp::Vbr(_) | AbbrevOp::Char6
        )
    }
}

/// A validated abbreviation: at least one operand; an array is second to last
/// and followed by a scalar encoding; a blob is last; the first operand (the
/// record code) is a literal or a scalar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Abbrev {
    ops: Vec<AbbrevOp>,
}

impl Abbrev {
    /// Checks `ops` and makes an abbreviation (the reason names what is wrong).
    pub fn new(ops: Vec<AbbrevOp>) -> Result<Abbrev, &'static str> {
        let Some(first) = ops.first() else {
            return Err("no operands");
        };
        if matches!(first, AbbrevOp::Array | AbbrevOp::Blob) {
            return Err("the record code is an array or a blob");
        }
        for (i, op) in ops.iter().enumerate() {
            match op {
                AbbrevOp::Array => {
                    if i + 2 != ops.len() {
                        return Err("an array is not second to last");
                    }
                    match ops[i + 1] {
                        AbbrevOp::Fixed(0) | AbbrevOp::Vbr(0) => {
                            return Err("array elements of zero width")
                        }
                        e if e.is_scalar_encoding() => {}
                        _ => return Err("array element is not a fixed, VBR or char6 encoding"),
                    }
                }
                AbbrevOp::Blob if i + 1 != ops.len() => return Err("a blob is not last"),
                AbbrevOp::Fixed(w) if *w > 64 => return Err("fixed width above 64"),
                AbbrevOp::Vbr(w) if *w == 1 || *w > 32 => {
                    return Err("VBR chunk width of 1 or above 32")
                }
                _ => {}
            }
        }
        Ok(Abbrev { ops })
    }

    /// The operands, the record code first.
    pub fn ops(&self) -> &[AbbrevOp] {
        &self.ops
    }
}
