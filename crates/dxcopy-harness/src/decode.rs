//! Every part decoder, dispatched by part name, with each decoded struct
//! formatted (Debug) and serialised (JSON, as `dxinfo --json` does).

use dxcopy_read::psv0::Psv0;
use dxcopy_read::rts0::RootSignature;
use dxcopy_read::sfi0::Sfi0;
use dxcopy_read::signature::{Signature, SignatureFormat};
use dxcopy_read::{DebugName, PartName, Program, ShaderHash, ShaderKind};
use std::fmt::Write as _;

fn show<T: std::fmt::Debug + serde::Serialize>(sink: &mut String, value: &T) {
    let _ = write!(sink, "{value:?}");
    if let Ok(json) = serde_json::to_string(value) {
        sink.push_str(&json);
    }
}

fn show_err(sink: &mut String, e: &dxcopy_read::ReadError) {
    let _ = write!(sink, "{e} {e:?}");
}

/// Runs every decoder that applies to a part named `name` whose data is `data`
/// at absolute offset `base`; `kind` is the shader kind of the program part,
/// if any. Returns how many decoders ran. Errors are a pass.
pub fn decode_named(
    name: PartName,
    data: &[u8],
    base: u64,
    kind: Option<ShaderKind>,
    sink: &mut String,
) -> usize {
    let mut decoders = 0;
    macro_rules! run {
        ($e:expr) => {{
            decoders += 1;
            match $e {
                Ok(v) => show(sink, &v),
                Err(e) => show_err(sink, &e),
            }
        }};
    }
    match &name.0 {
        b"DXIL" | b"ILDB" | b"STAT" => {
            decoders += 1;
            match Program::parse_data(data, base) {
                Ok(p) => {
                    let _ = write!(sink, "{p:?} {}", p.profile());
                }
                Err(e) => show_err(sink, &e),
            }
        }
        b"HASH" => {
            decoders += 1;
            match ShaderHash::parse_data(data, base) {
                Ok(h) => {
                    let _ = write!(sink, "{h:?} {}", h.pdb_name());
                }
                Err(e) => show_err(sink, &e),
            }
        }
        b"ILDN" => {
            decoders += 1;
            match DebugName::parse_data(data, base) {
                Ok(n) => {
                    let _ = write!(sink, "{n:?}");
                }
                Err(e) => show_err(sink, &e),
            }
        }
        b"PSV0" => {
            run!(Psv0::parse_data(data, base, kind));
        }
        b"RTS0" => {
            run!(RootSignature::parse_data(data, base));
        }
        b"SFI0" => {
            run!(Sfi0::parse_data(data, base));
        }
        _ => {}
    }
    if let Some(format) = SignatureFormat::for_part(name) {
        run!(Signature::parse_data(data, base, format));
    }
    decoders
}

/// The decoders that only exist over a whole part (LLVM-compatible readers of
/// the obj2yaml view).
pub fn decode_part_compat(
    part: &dxcopy_read::Part<'_>,
    kind: Option<ShaderKind>,
    sink: &mut String,
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
        _ => 0,
    }
}

/// The part names the decode fuzz target picks from (by its first byte).
pub const DECODE_NAMES: [&[u8; 4]; 15] = [
    b"DXIL", b"ILDB", b"STAT", b"HASH", b"ILDN", b"PSV0", b"RTS0", b"SFI0", b"ISGN", b"OSGN",
    b"OSG5", b"PCSG", b"ISG1", b"OSG1", b"PSG1",
];

/// The decode fuzz target's input: byte 0 picks the name from
/// [`DECODE_NAMES`], byte 1 the shader kind (low nibble; 0xf = none; bit 7
/// puts the part at an odd offset), the rest is the part data.
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
    let mut sink = String::new();
    let mut n = decode_named(name, data, 0, kind, &mut sink);
    let mut builder = dxcopy_edit::ContainerBuilder::new();
    if flags & 0x80 != 0 {
        builder = builder.part(b"FKE0", b"x");
    }
    if let Ok(bytes) = builder.part(&name.0, data).build() {
        if let Ok(c) = dxcopy_read::Container::parse(&bytes) {
            if let Some(part) = c.find(name) {
                n += decode_part_compat(&part, kind, &mut sink);
            }
        }
    }
    n
}

/// The decode fuzz target's seed for a part: name index, kind byte, data.
pub fn decode_seed(name: PartName, kind: Option<ShaderKind>, data: &[u8]) -> Option<Vec<u8>> {
    let pick = DECODE_NAMES.iter().position(|n| **n == name.0)?;
    let kind = kind.map_or(0xf, |k| (k.to_u16() & 0xf) as u8);
    let mut v = vec![pick as u8, kind];
    v.extend_from_slice(data);
    Some(v)
}
