//! DXIL / ILDB / dxc-STAT program parts (docs/format/program.md §1): a 24-byte program
//! header (shader model, kind, size in words, then a 16-byte bitcode header
//! with the DXIL version and the bitcode's offset and size) followed by LLVM bitcode.
//!
//! The bitcode is located by the bitcode header's offset and size, bounds
//! checked — not by dropping a fixed 24 bytes as llvm-objcopy does. One
//! decoder serves both views; [`Program::parse_llvm_compat`] (the obj2yaml
//! view) reads the bitcode from the whole file, as LLVM's reader does.

use super::Mode;
use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::{ReadErrorKind, Result};
use crate::record::Reserved;
pub(crate) use crate::stage::ShaderKind;
use std::fmt;

/// Size of the program header (including the bitcode header).
pub const PROGRAM_HEADER_SIZE: usize = ProgramHeader::SIZE as usize;
/// Offset of the bitcode header inside the part.
pub const BITCODE_HEADER_OFFSET: u64 = 8;
/// LLVM bitcode magic `BC 0xC0DE`.
pub const BITCODE_MAGIC: [u8; 4] = [b'B', b'C', 0xc0, 0xde];

crate::record::record! {
    /// The program header with the bitcode header inside it
    /// (docs/format/program.md §1).
    pub struct ProgramHeader: "program header" {
        /// Shader model: major in the high nibble, minor in the low one.
        0 version: u8;
        /// Padding (zero).
        1 reserved: crate::record::Reserved<1>;
        /// Shader kind.
        2 shader_kind: ShaderKind;
        /// Size of the whole program part in 32-bit words.
        4 size_in_words: u32;
        /// Bitcode header magic, `DXIL`.
        8 bitcode_magic: [u8; 4] => "bitcode header";
        /// DXIL version minor.
        12 dxil_minor: u8 => "bitcode header";
        /// DXIL version major.
        13 dxil_major: u8 => "bitcode header";
        /// Padding (zero).
        14 reserved2: crate::record::Reserved<2>;
        /// Bitcode offset from the start of the bitcode header (normally 16).
        16 bitcode_offset: u32 => "bitcode header";
        /// Bitcode size in bytes.
        20 bitcode_size: u32 => "bitcode header";
    }
}

/// The decoded program header plus the located bitcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Program<'data> {
    /// Shader model major (high nibble of byte 0).
    pub model_major: u8,
    /// Shader model minor (low nibble of byte 0).
    pub model_minor: u8,
    /// Shader kind (u16 at byte 2).
    pub shader_kind: ShaderKind,
    /// Size of the whole program in 32-bit words, as stored.
    pub size_in_words: u32,
    /// Bitcode header magic (`DXIL`).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub bitcode_magic: [u8; 4],
    /// DXIL version major.
    pub dxil_major: u8,
    /// DXIL version minor.
    pub dxil_minor: u8,
    /// Bitcode offset from the start of the bitcode header (normally 16).
    pub bitcode_offset: u32,
    /// Bitcode size in bytes.
    pub bitcode_size: u32,
    /// The bitcode bytes.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub bitcode: &'data [u8],
    /// Absolute file offset of the bitcode.
    pub bitcode_file_offset: u64,
}

impl<'data> Program<'data> {
    /// Decodes a program part's data located at absolute offset `base`.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<Program<'data>> {
        let c = Cursor::new(data, base);
        decode(c, Mode::Strict, c)
    }

    /// Decodes a program part.
    pub fn parse(part: &Part<'data>) -> Result<Program<'data>> {
        Program::parse_data(part.data, part.data_offset()).map_err(|e| e.in_part(part.part_ref()))
    }

    /// Decodes a program part as LLVM's reader does (the obj2yaml view). The
    /// same reading as [`Program::parse`], except:
    ///
    /// * the whole 24-byte header must be in the part (one `Truncated` error
    ///   at the part's start otherwise);
    /// * the bitcode magic is not checked;
    /// * the bitcode is `bitcode_size` bytes at part data + 8 +
    ///   `bitcode_offset` in the whole file `file` (the container's bytes),
    ///   which may run past the part.
    pub fn parse_llvm_compat(part: &Part<'data>, file: &'data [u8]) -> Result<Program<'data>> {
        decode(part.cursor(), Mode::LlvmCompat, Cursor::new(file, 0))
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// The program header as stored (for re-encoding the part).
    pub fn header(&self) -> ProgramHeader {
        ProgramHeader {
            version: (self.model_major << 4) | (self.model_minor & 0xf),
            reserved: Reserved,
            shader_kind: self.shader_kind,
            size_in_words: self.size_in_words,
            bitcode_magic: self.bitcode_magic,
            dxil_minor: self.dxil_minor,
            dxil_major: self.dxil_major,
            reserved2: Reserved,
            bitcode_offset: self.bitcode_offset,
            bitcode_size: self.bitcode_size,
        }
    }

    /// Whether the bitcode starts with the LLVM bitcode magic.
    pub fn has_bitcode_magic(&self) -> bool {
        self.bitcode.starts_with(&BITCODE_MAGIC)
    }

    /// Whether the stored size in words matches the part size.
    pub fn size_matches(&self, part_size: u32) -> bool {
        u64::from(self.size_in_words) * 4 == u64::from(part_size)
    }

    /// `ps_6_0`-style profile name.
    pub fn profile(&self) -> String {
        format!(
            "{}_{}_{}",
            self.shader_kind.profile_prefix(),
            self.model_major,
            self.model_minor
        )
    }
}

/// Decodes the program part `c`. The strict view reads the bitcode from the
/// part; the LLVM view from `file`, the cursor over the whole file.
fn decode<'data>(c: Cursor<'data>, mode: Mode, file: Cursor<'data>) -> Result<Program<'data>> {
    if mode == Mode::LlvmCompat {
        c.bytes(0, PROGRAM_HEADER_SIZE as u64, "program header")?;
    }
    let ProgramHeader {
        version,
        shader_kind,
        size_in_words,
        bitcode_magic,
        dxil_minor,
        dxil_major,
        bitcode_offset,
        bitcode_size,
        ..
    } = ProgramHeader::read(&c, 0)?;
    if mode == Mode::Strict && &bitcode_magic != b"DXIL" {
        return Err(c.error(
            8,
            ReadErrorKind::wrong_magic(ProgramError::BitcodeHeaderMagic),
        ));
    }
    let start = BITCODE_HEADER_OFFSET + u64::from(bitcode_offset);
    let (source, start) = match mode {
        Mode::Strict => (c, start),
        Mode::LlvmCompat => (file, c.abs(start) - file.base()),
    };
    let bitcode = source.bytes(
        start,
        u64::from(bitcode_size),
        "bitcode (from the bitcode header's offset and size)",
    )?;
    Ok(Program {
        model_major: version >> 4,
        model_minor: version & 0xf,
        shader_kind,
        size_in_words,
        bitcode_magic,
        dxil_major,
        dxil_minor,
        bitcode_offset,
        bitcode_size,
        bitcode,
        bitcode_file_offset: source.abs(start),
    })
}

/// Whether a part's data looks like a program part (bitcode header magic `DXIL`
/// at offset 8). Used to tell dxc's STAT (a program part) from fxc's STAT (counters).
pub fn is_program_data(data: &[u8]) -> bool {
    data.get(8..12) == Some(b"DXIL")
}

/// Builds the data of a program part: 24-byte header + `bitcode`, zero-padded
/// to 4 bytes; the size-in-words covers the padded part.
pub fn build_program_data(
    model_major: u8,
    model_minor: u8,
    shader_kind: ShaderKind,
    dxil_major: u8,
    dxil_minor: u8,
    bitcode: &[u8],
) -> Vec<u8> {
    let padded = (PROGRAM_HEADER_SIZE + bitcode.len()).div_ceil(4) * 4;
    let mut out = Vec::with_capacity(padded);
    ProgramHeader {
        version: (model_major << 4) | (model_minor & 0xf),
        reserved: Reserved,
        shader_kind,
        size_in_words: (padded / 4) as u32,
        bitcode_magic: *b"DXIL",
        dxil_minor,
        dxil_major,
        reserved2: Reserved,
        bitcode_offset: (ProgramHeader::SIZE - BITCODE_HEADER_OFFSET) as u32,
        bitcode_size: bitcode.len() as u32,
    }
    .write_to(&mut out);
    out.extend_from_slice(bitcode);
    out.resize(padded, 0);
    out
}

/// The program header's errors, in the decoder's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramError {
    /// The bitcode header's magic is not `DXIL`.
    BitcodeHeaderMagic,
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramError::BitcodeHeaderMagic => f.write_str("bitcode header magic is not 'DXIL'"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    #[test]
    fn each_error_says_its_sentence() {
        use ProgramError::*;
        crate::testutil::errors_say(vec![(
            BitcodeHeaderMagic,
            "bitcode header magic is not 'DXIL'",
        )]);
    }

    #[test]
    fn build_then_parse() {
        let data = build_program_data(6, 5, ShaderKind::Compute, 1, 5, b"BC\xc0\xde\x01");
        assert_eq!(data.len(), 32);
        assert_eq!(&data[..8], &[0x65, 0, 5, 0, 8, 0, 0, 0]);
        let p = Program::parse_data(&data, 100).unwrap();
        assert_eq!((p.model_major, p.model_minor), (6, 5));
        assert_eq!(p.shader_kind, ShaderKind::Compute);
        assert_eq!((p.dxil_major, p.dxil_minor), (1, 5));
        assert_eq!(p.bitcode, b"BC\xc0\xde\x01");
        assert_eq!(p.bitcode_file_offset, 124);
        assert!(p.has_bitcode_magic());
        assert!(p.size_matches(32));
        assert_eq!(p.profile(), "cs_6_5");
    }

    #[test]
    fn bitcode_located_by_header_not_fixed_24() {
        // Offset 20: four pad bytes before the bitcode.
        let mut data = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, b"");
        data[16..20].copy_from_slice(&20u32.to_le_bytes());
        data[20..24].copy_from_slice(&4u32.to_le_bytes());
        data.extend_from_slice(&[0xaa; 4]);
        data.extend_from_slice(b"BC\xc0\xde");
        let p = Program::parse_data(&data, 0).unwrap();
        assert_eq!(p.bitcode, b"BC\xc0\xde");
    }

    /// Both views of hostile program parts whose data starts at 0x48 in a
    /// file with 16 bytes after the part: the dxc view's error or bitcode,
    /// and the LLVM view's (which reads the bitcode from the whole file).
    #[test]
    fn hostile_inputs_in_both_views() {
        use crate::testutil::{err, outcome, Outcome, Row};
        let bc = b"BC\xc0\xde";
        let valid = || build_program_data(6, 0, ShaderKind::Pixel, 1, 0, bc);
        let with = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut data = valid();
            edit(&mut data);
            data
        };
        let bitcode = |at: u64, bytes: &[u8]| Outcome::Ok((at, bytes.to_vec()));
        let past_part = [&bc[..], &[0xee; 8]].concat();
        /// Where the bitcode was found: its file offset and its bytes.
        type Located = (u64, Vec<u8>);
        let rows: Vec<Row<Vec<u8>, Located>> = vec![
            ("dxc layout", valid(), bitcode(0x60, bc), bitcode(0x60, bc)),
            (
                "10 bytes",
                with(&|d| d.truncate(10)),
                err("Truncated", 0x50),
                err("Truncated", 0x48),
            ),
            (
                "23 bytes",
                with(&|d| d.truncate(23)),
                err("Truncated", 0x5c),
                err("Truncated", 0x48),
            ),
            (
                "wrong magic",
                with(&|d| d[8] = b'X'),
                err("WrongMagic", 0x50),
                bitcode(0x60, bc),
            ),
            (
                "bitcode past the part, in the file",
                with(&|d| d[20..24].copy_from_slice(&12u32.to_le_bytes())),
                err("Truncated", 0x60),
                bitcode(0x60, &past_part),
            ),
            (
                "wrong magic, bitcode past the part",
                with(&|d| {
                    d[8] = b'X';
                    d[20..24].copy_from_slice(&12u32.to_le_bytes());
                }),
                err("WrongMagic", 0x50),
                bitcode(0x60, &past_part),
            ),
            (
                "bitcode size past the file",
                with(&|d| d[20..24].copy_from_slice(&0x1000u32.to_le_bytes())),
                err("Truncated", 0x60),
                err("Truncated", 0x60),
            ),
            (
                "bitcode offset past the file",
                with(&|d| d[16..20].copy_from_slice(&0xffff_fff0u32.to_le_bytes())),
                err("Truncated", 0x50 + 0xffff_fff0),
                err("Truncated", 0x50 + 0xffff_fff0),
            ),
            (
                "bitcode after padding",
                with(&|d| {
                    d.truncate(24);
                    d[16..20].copy_from_slice(&20u32.to_le_bytes());
                    d.extend_from_slice(&[0xaa; 4]);
                    d.extend_from_slice(bc);
                }),
                bitcode(0x64, bc),
                bitcode(0x64, bc),
            ),
        ];
        for (row, data, dxc, llvm) in rows {
            let mut file = vec![0u8; 0x48];
            file.extend_from_slice(&data);
            file.extend_from_slice(&[0xee; 16]);
            let part = Part {
                index: 0,
                name: crate::PartName::DXIL,
                offset: 0x40,
                data: &file[0x48..0x48 + data.len()],
            };
            let located = |p: &Program<'_>| (p.bitcode_file_offset, p.bitcode.to_vec());
            assert_eq!(outcome(row, Program::parse(&part), located), dxc, "{row}");
            assert_eq!(
                outcome(row, Program::parse_llvm_compat(&part, &file), located),
                llvm,
                "{row} (LLVM view)"
            );
        }
    }

    #[test]
    fn errors() {
        let short = [0u8; 10];
        assert!(matches!(
            Program::parse_data(&short, 0).unwrap_err().kind,
            ReadErrorKind::Truncated { .. }
        ));
        let mut data = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, b"abcd");
        data[20..24].copy_from_slice(&0x1000u32.to_le_bytes());
        let e = Program::parse_data(&data, 0x40).unwrap_err();
        assert_eq!(e.offset, 0x40 + 24);
        data[8] = b'X';
        assert!(matches!(
            Program::parse_data(&data, 0).unwrap_err().kind,
            ReadErrorKind::WrongMagic { .. }
        ));
        assert!(matches!(
            Program::parse_data(&data, 0).unwrap_err().kind.detail(),
            Some(ProgramError::BitcodeHeaderMagic)
        ));
        assert_eq!(ShaderKind::from_raw(99).to_string(), "Unknown(99)");
        assert_eq!(ShaderKind::from_raw(13).known_name(), Some("Mesh"));
    }
}
