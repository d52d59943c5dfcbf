//! The SM1–3 (DX9) opcode table: one row per opcode with everything the
//! decoder and the listing need — the mnemonic, how many parameter tokens a
//! shader-model-1 instruction carries (SM1 tokens have no length field),
//! whether the first parameter is a destination, the instruction slots it
//! counts for the closing statistics line, and whether it opens or closes a
//! block. The numbers are `D3DSHADER_INSTRUCTION_OPCODE_TYPE`'s
//! (docs/format/sm4-listing.md, "Level9").

/// How many parameter tokens a shader-model-1 instruction has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sm1Params {
    /// Not a shader-model-1 instruction.
    None,
    /// Always this many.
    Fixed(u8),
    /// `texcoord`/`tex`: 1, or 2 in `ps_1_4` (`texcrd`/`texld` with a source).
    Texture,
}

/// Where an instruction stands in the block structure (the listing indents
/// by two spaces inside a block).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    /// Neither opens nor closes one.
    None,
    /// `loop`, `rep`, `if`, `ifc`.
    Open,
    /// `endloop`, `endrep`, `endif`.
    Close,
    /// `else`: closes one and opens the next.
    Else,
}

/// One row of the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sm2OpInfo {
    /// Mnemonic for shader model 2 and later (the listing spells `texcoord`
    /// and `texld` the shader-model-1 way there); `None` for a defined
    /// number without one.
    pub name: Option<&'static str>,
    /// Parameter tokens in shader model 1.
    pub sm1_params: Sm1Params,
    /// Whether the first parameter is a destination register.
    pub destination: bool,
    /// Instruction slots counted for the statistics line.
    pub slots: u32,
    /// Whether the slots count as texture instructions.
    pub texture: bool,
    /// Block structure.
    pub block: Block,
}

macro_rules! sm2_opcodes {
    (@name _) => { None };
    (@name $name:literal) => { Some($name) };
    (@sm1 _) => { Sm1Params::None };
    (@sm1 tex) => { Sm1Params::Texture };
    (@sm1 $n:literal) => { Sm1Params::Fixed($n) };
    (@dest d) => { true };
    (@dest _) => { false };
    (@tex tex) => { true };
    (@tex _) => { false };
    ($($num:literal $konst:ident $name:tt $sm1:tt $dest:tt $slots:literal $tex:tt $block:ident;)*) => {
        /// Opcode numbers.
        #[allow(missing_docs)]
        pub mod op {
            $(pub const $konst: u16 = $num;)*
        }
        /// The table row of `opcode`, or `None` for numbers no shader model defines.
        pub fn info(opcode: u16) -> Option<Sm2OpInfo> {
            match opcode {
                $($num => Some(Sm2OpInfo {
                    name: sm2_opcodes!(@name $name),
                    sm1_params: sm2_opcodes!(@sm1 $sm1),
                    destination: sm2_opcodes!(@dest $dest),
                    slots: $slots,
                    texture: sm2_opcodes!(@tex $tex),
                    block: Block::$block,
                }),)*
                _ => None,
            }
        }
    };
}

sm2_opcodes! {
    // num   const         name            SM1  dest slots tex block
    0        NOP           "nop"           0    _    1     _   None;
    1        MOV           "mov"           2    d    1     _   None;
    2        ADD           "add"           3    d    1     _   None;
    3        SUB           "sub"           3    d    1     _   None;
    4        MAD           "mad"           4    d    1     _   None;
    5        MUL           "mul"           3    d    1     _   None;
    6        RCP           "rcp"           2    d    1     _   None;
    7        RSQ           "rsq"           2    d    1     _   None;
    8        DP3           "dp3"           3    d    1     _   None;
    9        DP4           "dp4"           3    d    1     _   None;
    10       MIN           "min"           3    d    1     _   None;
    11       MAX           "max"           3    d    1     _   None;
    12       SLT           "slt"           3    d    1     _   None;
    13       SGE           "sge"           3    d    1     _   None;
    14       EXP           "exp"           2    d    1     _   None;
    15       LOG           "log"           2    d    1     _   None;
    16       LIT           "lit"           2    d    3     _   None;
    17       DST           "dst"           3    d    1     _   None;
    18       LRP           "lrp"           4    d    2     _   None;
    19       FRC           "frc"           2    d    1     _   None;
    20       M4X4          "m4x4"          3    d    4     _   None;
    21       M4X3          "m4x3"          3    d    3     _   None;
    22       M3X4          "m3x4"          3    d    4     _   None;
    23       M3X3          "m3x3"          3    d    3     _   None;
    24       M3X2          "m3x2"          3    d    2     _   None;
    25       CALL          "call"          _    _    2     _   None;
    26       CALLNZ        "callnz"        _    _    3     _   None;
    27       LOOP          "loop"          _    _    3     _   Open;
    28       RET           "ret"           _    _    1     _   None;
    29       ENDLOOP       "endloop"       _    _    2     _   Close;
    30       LABEL         "label"         _    _    0     _   None;
    31       DCL           "dcl"           2    d    0     _   None;
    32       POW           "pow"           3    d    3     _   None;
    33       CRS           "crs"           3    d    2     _   None;
    34       SGN           "sgn"           _    d    3     _   None;
    35       ABS           "abs"           _    d    1     _   None;
    36       NRM           "nrm"           _    d    3     _   None;
    37       SINCOS        "sincos"        _    d    8     _   None;
    38       REP           "rep"           _    _    3     _   Open;
    39       ENDREP        "endrep"        _    _    2     _   Close;
    40       IF            "if"            _    _    3     _   Open;
    41       IFC           "if"            _    _    3     _   Open;
    42       ELSE          "else"          _    _    1     _   Else;
    43       ENDIF         "endif"         _    _    1     _   Close;
    44       BREAK         "break"         _    _    1     _   None;
    45       BREAKC        "break"         _    _    3     _   None;
    46       MOVA          "mova"          _    d    1     _   None;
    47       DEFB          "defb"          _    _    0     _   None;
    48       DEFI          "defi"          _    _    0     _   None;
    64       TEXCOORD      "texcoord"      tex  d    1     _   None;
    65       TEXKILL       "texkill"       1    d    1     _   None;
    66       TEX           "texld"         tex  d    1     tex None;
    67       TEXBEM        "texbem"        2    d    1     _   None;
    68       TEXBEML       "texbeml"       2    d    1     _   None;
    69       TEXREG2AR     "texreg2ar"     2    d    1     _   None;
    70       TEXREG2GB     "texreg2gb"     2    d    1     _   None;
    71       TEXM3X2PAD    "texm3x2pad"    2    d    1     _   None;
    72       TEXM3X2TEX    "texm3x2tex"    2    d    1     _   None;
    73       TEXM3X3PAD    "texm3x3pad"    2    d    1     _   None;
    74       TEXM3X3TEX    "texm3x3tex"    2    d    1     _   None;
    75       TEXM3X3DIFF   _               2    d    1     _   None;
    76       TEXM3X3SPEC   "texm3x3spec"   2    d    1     _   None;
    77       TEXM3X3VSPEC  "texm3x3vspec"  2    d    1     _   None;
    78       EXPP          "expp"          2    d    1     _   None;
    79       LOGP          "logp"          2    d    1     _   None;
    80       CND           "cnd"           4    d    1     _   None;
    81       DEF           "def"           5    d    0     _   None;
    82       TEXREG2RGB    "texreg2rgb"    2    d    1     _   None;
    83       TEXDP3TEX     "texdp3tex"     2    d    1     _   None;
    84       TEXM3X2DEPTH  "texm3x2depth"  2    d    1     _   None;
    85       TEXDP3        "texdp3"        2    d    1     _   None;
    86       TEXM3X3       "texm3x3"       2    d    1     _   None;
    87       TEXDEPTH      "texdepth"      1    d    1     _   None;
    88       CMP           "cmp"           4    d    1     _   None;
    89       BEM           "bem"           3    d    1     _   None;
    90       DP2ADD        "dp2add"        4    d    2     _   None;
    91       DSX           "dsx"           _    d    2     _   None;
    92       DSY           "dsy"           _    d    2     _   None;
    93       TEXLDD        "texldd"        _    d    3     tex None;
    94       SETP          "setp"          _    d    1     _   None;
    95       TEXLDL        "texldl"        _    d    1     tex None;
    96       BREAKP        "break_pred"    _    _    3     _   None;
    0xfffd   PHASE         "phase"         0    _    0     _   None;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_hold_the_listing_facts() {
        let row = |op| info(op).unwrap();
        assert_eq!(row(op::SINCOS).slots, 8);
        assert!(row(op::TEXLDD).texture && row(op::TEXLDD).slots == 3);
        assert_eq!(row(op::DEF).sm1_params, Sm1Params::Fixed(5));
        assert_eq!(row(op::TEX).sm1_params, Sm1Params::Texture);
        assert_eq!(row(op::LOOP).sm1_params, Sm1Params::None);
        assert!(!row(op::CALL).destination && row(op::TEXKILL).destination);
        assert_eq!(row(op::TEXM3X3DIFF).name, None);
        assert_eq!(info(49), None);
        assert_eq!(info(0xfffe), None, "a comment token is no instruction");
    }

    #[test]
    fn blocks_open_and_close_in_pairs() {
        let of = |block| (0..=u16::MAX).filter(move |&n| info(n).is_some_and(|i| i.block == block));
        assert_eq!(
            of(Block::Open).collect::<Vec<_>>(),
            [op::LOOP, op::REP, op::IF, op::IFC]
        );
        assert_eq!(
            of(Block::Close).collect::<Vec<_>>(),
            [op::ENDLOOP, op::ENDREP, op::ENDIF]
        );
        assert_eq!(of(Block::Else).collect::<Vec<_>>(), [op::ELSE]);
    }
}
