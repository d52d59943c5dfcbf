//! Listings: the text a compiler's disassembler prints for a container.
//! [`dxbc`] is fxc's listing of a DXBC container (SM4/5 programs, level-9
//! shaders, the declaration header, debug notes); [`dxil`] is dxc's listing
//! of a DXIL container (the comment header and the module as LLVM IR,
//! printed by [`dxil::ir`]). Both print the code models below them
//! ([`crate::sm4`], [`crate::dxil`]); neither decodes bytes itself.
//!
//! [`DisasmFlags`] are the `D3D_DISASM_*` flags of `D3DDisassemble` (fxc's
//! and dxc's `/Ni`, `/No`, `/Lx`), shared by both listings
//! (docs/format/listing-options.md). [`markup`] colours either listing
//! for a terminal or as an HTML page.

pub mod dxbc;
pub mod dxil;
pub mod markup;

/// The `D3D_DISASM_*` flags a listing honours (d3dcompiler.h; the colour
/// flag is not among them). The default is the listing fxc writes with
/// `/Fc`: no numbers, no offsets, decimal literals, debug notes when the
/// container has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct DisasmFlags {
    /// `D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING` (0x04, `/Ni`): each
    /// instruction numbered (`   0: mov …`), declarations indented to match.
    pub numbers: bool,
    /// `D3D_DISASM_ENABLE_INSTRUCTION_OFFSET` (0x20, `/No`): each line of
    /// the program led by the byte offset of its opcode token in the
    /// shader part (`0x0000005C: mov …`). For DXIL, where dxc prints
    /// nothing, the bit offset of each instruction's record as a comment.
    pub offsets: bool,
    /// `D3D_DISASM_PRINT_HEX_LITERALS` (0x80, `/Lx`): immediates as their
    /// bits in hexadecimal.
    pub hex: bool,
    /// `D3D_DISASM_DISABLE_DEBUG_INFO` (0x10): no `#line` and variable
    /// notes from the SPDB or SDBG part.
    pub no_debug_info: bool,
    /// `D3D_DISASM_INSTRUCTION_ONLY` (0x40): the program only, without the
    /// comment header.
    pub instruction_only: bool,
    /// `D3D_DISASM_ENABLE_INSTRUCTION_CYCLE` (0x08): the cycle of each step
    /// of a shader trace (`D3DDisassemble11Trace`); a container holds no
    /// trace, and the listing refuses the flag.
    pub instruction_cycle: bool,
}

/// A `D3D_DISASM_*` flag, for messages and the flags word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DisasmFlag {
    /// `D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING`.
    Numbers,
    /// `D3D_DISASM_ENABLE_INSTRUCTION_OFFSET`.
    Offsets,
    /// `D3D_DISASM_PRINT_HEX_LITERALS`.
    Hex,
    /// `D3D_DISASM_DISABLE_DEBUG_INFO`.
    NoDebugInfo,
    /// `D3D_DISASM_INSTRUCTION_ONLY`.
    InstructionOnly,
    /// `D3D_DISASM_ENABLE_INSTRUCTION_CYCLE`.
    InstructionCycle,
}

impl DisasmFlag {
    /// The flag's bit in the `Flags` word of `D3DDisassemble`.
    pub fn bit(self) -> u32 {
        match self {
            DisasmFlag::Numbers => 0x04,
            DisasmFlag::InstructionCycle => 0x08,
            DisasmFlag::NoDebugInfo => 0x10,
            DisasmFlag::Offsets => 0x20,
            DisasmFlag::InstructionOnly => 0x40,
            DisasmFlag::Hex => 0x80,
        }
    }

    /// The flag's name in d3dcompiler.h.
    pub fn d3d_name(self) -> &'static str {
        match self {
            DisasmFlag::Numbers => "D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING",
            DisasmFlag::InstructionCycle => "D3D_DISASM_ENABLE_INSTRUCTION_CYCLE",
            DisasmFlag::NoDebugInfo => "D3D_DISASM_DISABLE_DEBUG_INFO",
            DisasmFlag::Offsets => "D3D_DISASM_ENABLE_INSTRUCTION_OFFSET",
            DisasmFlag::InstructionOnly => "D3D_DISASM_INSTRUCTION_ONLY",
            DisasmFlag::Hex => "D3D_DISASM_PRINT_HEX_LITERALS",
        }
    }

    /// The command-line option that sets the flag (dxinfo, dxcopy).
    pub fn option(self) -> &'static str {
        match self {
            DisasmFlag::Numbers => "--disasm-numbers",
            DisasmFlag::InstructionCycle => "--disasm-instruction-cycle",
            DisasmFlag::NoDebugInfo => "--disasm-no-debug-info",
            DisasmFlag::Offsets => "--disasm-offsets",
            DisasmFlag::InstructionOnly => "--disasm-instruction-only",
            DisasmFlag::Hex => "--disasm-hex",
        }
    }
}

impl std::fmt::Display for DisasmFlag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.option(), self.d3d_name())
    }
}

impl DisasmFlags {
    /// Every flag, in the order of their bits.
    const ALL: [DisasmFlag; 6] = [
        DisasmFlag::Numbers,
        DisasmFlag::InstructionCycle,
        DisasmFlag::NoDebugInfo,
        DisasmFlag::Offsets,
        DisasmFlag::InstructionOnly,
        DisasmFlag::Hex,
    ];

    /// Whether `flag` is set.
    pub fn has(&self, flag: DisasmFlag) -> bool {
        match flag {
            DisasmFlag::Numbers => self.numbers,
            DisasmFlag::InstructionCycle => self.instruction_cycle,
            DisasmFlag::NoDebugInfo => self.no_debug_info,
            DisasmFlag::Offsets => self.offsets,
            DisasmFlag::InstructionOnly => self.instruction_only,
            DisasmFlag::Hex => self.hex,
        }
    }

    /// The flags set, in the order of their bits.
    pub fn set(&self) -> impl Iterator<Item = DisasmFlag> + '_ {
        Self::ALL.into_iter().filter(|f| self.has(*f))
    }

    /// The `Flags` word of `D3DDisassemble` these flags make.
    pub fn bits(&self) -> u32 {
        self.set().map(DisasmFlag::bit).fold(0, |a, b| a | b)
    }

    /// The flags of a `D3DDisassemble` flags word; `None` when it has a
    /// bit this listing does not know (the colour bit 0x01 and the default
    /// values bit 0x02 among them).
    pub fn from_bits(bits: u32) -> Option<DisasmFlags> {
        let known = Self::ALL.iter().fold(0, |a, f| a | f.bit());
        if bits & !known != 0 {
            return None;
        }
        let on = |f: DisasmFlag| bits & f.bit() != 0;
        Some(DisasmFlags {
            numbers: on(DisasmFlag::Numbers),
            offsets: on(DisasmFlag::Offsets),
            hex: on(DisasmFlag::Hex),
            no_debug_info: on(DisasmFlag::NoDebugInfo),
            instruction_only: on(DisasmFlag::InstructionOnly),
            instruction_cycle: on(DisasmFlag::InstructionCycle),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_bits_are_d3dcompiler_h() {
        let all = DisasmFlags {
            numbers: true,
            offsets: true,
            hex: true,
            no_debug_info: true,
            instruction_only: true,
            instruction_cycle: true,
        };
        assert_eq!(all.bits(), 0xfc);
        assert_eq!(DisasmFlags::from_bits(0xfc), Some(all));
        assert_eq!(
            DisasmFlags::from_bits(0x24),
            Some(DisasmFlags {
                numbers: true,
                offsets: true,
                ..DisasmFlags::default()
            })
        );
        // Colour and default values are not flags of this type.
        assert_eq!(DisasmFlags::from_bits(0x01), None);
        assert_eq!(DisasmFlags::from_bits(0x02), None);
        assert_eq!(
            DisasmFlag::Hex.to_string(),
            "--disasm-hex (D3D_DISASM_PRINT_HEX_LITERALS)"
        );
    }
}
