//! Every part decoder, through the library's dispatch by part name
//! (`dxcopy_read::decode::decode_part`), with each decoded value formatted
//! (Debug) and serialised (JSON, as `dxinfo --json` does).

use dxcopy_read::decode::{decode_part, has_decoder};
use dxcopy_read::psv0::Psv0;
use dxcopy_read::rts0::RootSignature;
use dxcopy_read::{Container, Part, PartName, Program, ShaderHash, ShaderKind};
use std::fmt::Write as _;

fn show<T: std::fmt::Debug + serde::Serialize>(sink: &mut crate::Discard, value: &T) {
    let _ = write!(sink, "{value:?}");
    let _ = serde_json::to_writer(std::io::sink(), value);
}

fn show_err(sink: &mut crate::Discard, e: &dxcopy_read::ReadError) {
    let _ = write!(sink, "{e} {e:?}");
}

/// Runs the library's decoder dispatch ([`decode_part`], what dxinfo shows)
/// on `part` of `container`, with the decoded value formatted (Debug) and
/// serialised (JSON) and its issues listed. Returns how many decoders ran.
pub fn decode_one(container: &Container<'_>, part: &Part<'_>, sink: &mut crate::Discard) -> usize {
    if !has_decoder(part.name) {
        let _ = decode_part(container, part);
        return 0;
    }
    match decode_part(container, part) {
        Ok(decoded) => {
            let _ = write!(sink, "{} {:?}", decoded.kind(), decoded.issues());
            show(sink, &decoded);
        }
        Err(e) => show_err(sink, &e),
    }
    1
}

/// Runs the decoders that take bare part data (not a whole part) on `data` at
/// `base`: the program header and HASH readers the editor uses directly.
pub fn decode_named(
    name: PartName,
    data: &[u8],
    base: u64,
    _kind: Option<ShaderKind>,
    sink: &mut crate::Discard,
) -> usize {
    match &name.0 {
        b"DXIL" | b"ILDB" | b"STAT" => {
            match Program::parse_data(data, base) {
                Ok(p) => {
                    let _ = write!(sink, "{p:?} {}", p.profile());
                }
                Err(e) => show_err(sink, &e),
            }
            1
        }
        b"HASH" => {
            match ShaderHash::parse_data(data, base) {
                Ok(h) => {
                    let _ = write!(sink, "{h:?} {}", h.pdb_name());
                }
                Err(e) => show_err(sink, &e),
            }
            1
        }
        _ => 0,
    }
}

/// The decoders that only exist over a whole part (LLVM-compatible readers of
/// the obj2yaml view).
pub fn decode_part_compat(
    part: &dxcopy_read::Part<'_>,
    kind: Option<ShaderKind>,
    sink: &mut crate::Discard,
) -> usize {
    match part.name {
        PartName::PSV0 => {
            match Psv0::parse_llvm_compat(part, kind) {
                Ok(v) => show(sink, &v),
                Err(e) => show_err(sink, &e),
            }
            1
        }
        PartName::RTS0 => {
            match RootSignature::parse_llvm_compat(part) {
                Ok(v) => show(sink, &v),
                Err(e) => show_err(sink, &e),
            }
            1
        }
        _ if matches!(&part.name.0, b"Aon9" | b"XNAS" | b"XNAP") => {
            // The Level9 tables and the DX9 program listing of the disassembler.
            match dxcopy_read::disasm::header::level9::Level9Listing::parse(part) {
                Ok(listing) => {
                    let mut text = String::new();
                    listing.write(&mut text);
                    let _ = write!(sink, "{listing:?}");
                }
                Err(e) => show_err(sink, &e),
            }
            1
        }
        _ => 0,
    }
}

/// The part names the decode fuzz target picks from (by its first byte):
/// every name `decode_part` has a decoder for.
pub const DECODE_NAMES: [&[u8; 4]; 27] = [
    b"DXIL", b"ILDB", b"STAT", b"HASH", b"ILDN", b"PSV0", b"RTS0", b"SFI0", b"ISGN", b"OSGN",
    b"OSG5", b"PCSG", b"ISG1", b"OSG1", b"PSG1", b"VERS", b"SRCI", b"PRIV", b"SHDR", b"SHEX",
    b"RDEF", b"Aon9", b"XNAS", b"XNAP", b"RDAT", b"SPDB", b"SDBG",
];

/// The decode fuzz target's input: byte 0 picks the name from
/// [`DECODE_NAMES`], byte 1 the shader kind of a DXIL part placed before it
/// (low nibble; 0xf = no DXIL part) and whether the part starts at an odd
/// file offset (bit 7); the rest is the part data. The part is decoded by
/// the library's dispatch, the LLVM-compatible readers and the bare-data readers.
pub fn decode_input(input: &[u8]) -> usize {
    let (Some(&pick), Some(&flags)) = (input.first(), input.get(1)) else {
        return 0;
    };
    let data = &input[2..];
    let name = PartName(*DECODE_NAMES[usize::from(pick) % DECODE_NAMES.len()]);
    let kind = match flags & 0xf {
        0xf => None,
        k => Some(ShaderKind::from_u16(u16::from(k))),
    };
    let mut sink = crate::Discard::default();
    let mut n = decode_named(name, data, 0, kind, &mut sink);
    let mut builder = dxcopy_edit::ContainerBuilder::new();
    if flags & 0x80 != 0 {
        builder = builder.part(b"FKE0", b"x");
    }
    if let (Some(kind), false) = (kind, name == PartName::DXIL) {
        builder = builder.program(b"DXIL", kind, (6, 0), (1, 0), b"BC\xc0\xde");
    }
    if let Ok(bytes) = builder.part(&name.0, data).build() {
        if let Ok(c) = Container::parse(&bytes) {
            if let Some(part) = c.find(name) {
                n += decode_one(&c, &part, &mut sink);
                n += decode_part_compat(&part, kind, &mut sink);
            }
        }
    }
    n
}

/// The decode fuzz target's seed for a part: name index, kind byte, data.
pub fn decode_seed(name: PartName, kind: Option<ShaderKind>, data: &[u8]) -> Option<Vec<u8>> {
    let pick = DECODE_NAMES.iter().position(|n| **n == name.0)?;
    let kind = kind.map_or(0xf, |k| (k.to_u16() & 0xf).min(0xe) as u8);
    let mut v = vec![pick as u8, kind];
    v.extend_from_slice(data);
    Some(v)
}
