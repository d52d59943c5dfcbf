//! Every part decoder, through the library's dispatch by part name
//! (`dxcopy_read::decode::decode_part`), with each decoded value formatted
//! (Debug) and serialised (JSON, as `dxinfo --json` does).

use dxcopy_read::decode::{decode_part, has_decoder};
use dxcopy_read::listing::dxbc::{self, sm4, FloatRounding, ListingOptions};
use dxcopy_read::listing::DisasmFlags;
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
        b"SHDR" | b"SHEX" => {
            disasm_data(data, base, sink);
            1
        }
        b"SPDB" | b"SDBG" => {
            debug_notes_data(name, data, base, sink);
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

/// The listing's debug-notes decoder on SPDB or SDBG data at `base`, with
/// the notes and the initial-locations block formatted.
pub fn debug_notes_data(name: PartName, data: &[u8], base: u64, sink: &mut crate::Discard) {
    use dxcopy_read::listing::dxbc::debug_notes::{sdbg, spdb};
    let decoded = if name == PartName(*b"SPDB") {
        spdb::decode(data, base)
    } else {
        sdbg::decode(data, base)
    };
    match decoded {
        Ok(notes) => {
            let _ = write!(sink, "{notes:?} {:?}", notes.initial_locations(None));
            for key in notes.lines.keys().take(64) {
                let _ = write!(sink, "{:?}", notes.line_at(*key));
            }
        }
        Err(e) => {
            let _ = write!(sink, "{e} {e:?}");
        }
    }
}

/// The SM4/SM5 disassembler on SHDR/SHEX data at `base`: the program
/// decoded as far as it is well formed and its listing written.
pub fn disasm_data(data: &[u8], base: u64, sink: &mut crate::Discard) {
    match dxcopy_read::sm4::Program::decode_prefix(data, base) {
        Ok((program, error)) => {
            let mut text = String::new();
            // Both roundings, the oldest release's layout with the legacy
            // one, and every D3D_DISASM flag (numbers, offsets, hex) on.
            let all = DisasmFlags::from_bits(0xf4).unwrap_or_default();
            for (rounding, release, flags) in [
                (FloatRounding::Current, None, DisasmFlags::default()),
                (FloatRounding::Legacy, Some(dxbc::FxcRelease::V9_29), all),
            ] {
                text.clear();
                let options = ListingOptions {
                    rounding,
                    release,
                    flags,
                };
                let _ =
                    sm4::write_program(&program, error.is_none().then_some(0), &options, &mut text);
            }
            let _ = write!(
                sink,
                "{} {} {:?} {}",
                text.len(),
                program.executable_count(),
                program.declarations().count(),
                error.map(|e| e.to_string()).unwrap_or_default()
            );
        }
        Err(e) => {
            let _ = write!(sink, "{e} {e:?}");
        }
    }
}

/// The disasm fuzz target's input: the data of an SHEX part. It is
/// disassembled directly and as the program of a one-part container (the
/// whole listing). Returns the listing's length.
pub fn disasm_input(input: &[u8]) -> usize {
    let mut sink = crate::Discard::default();
    disasm_data(input, 0, &mut sink);
    let Ok(bytes) = dxcopy_edit::ContainerBuilder::new()
        .part(b"SHEX", input)
        .build()
    else {
        return 0;
    };
    let Ok(container) = Container::parse(&bytes) else {
        return 0;
    };
    // Streamed, as dxinfo writes it: the listing's own memory is measured,
    // not the size of its text.
    let mut counted = CountingSink(0);
    match dxbc::write_listing(&container, "fuzz", &ListingOptions::default(), &mut counted) {
        Ok(Ok(errors)) => {
            let _ = write!(sink, "{errors:?}");
            counted.0
        }
        Ok(Err(e)) => {
            let _ = write!(sink, "{e}");
            0
        }
        Err(e) => {
            let _ = write!(sink, "{e}");
            0
        }
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
            match dxcopy_read::listing::dxbc::header::level9::Level9Listing::parse(part) {
                Ok(listing) => {
                    let mut text = String::new();
                    listing.write(&ListingOptions::default(), &mut text);
                    let _ = write!(sink, "{listing:?}");
                }
                Err(e) => show_err(sink, &e),
            }
            1
        }
        _ => 0,
    }
}

/// The part names the decode fuzz target picks from (its first byte modulo
/// their count): every name `decode_part` has a decoder for, in the order of
/// [`dxcopy_read::PART_TABLE`]. A decoded row added to the table changes what
/// saved inputs pick (`tests/fuzz_regressions.rs` checks the saved ones).
pub static DECODE_NAMES: std::sync::LazyLock<Vec<PartName>> =
    std::sync::LazyLock::new(|| dxcopy_read::decoded_names().collect());

/// The decode fuzz target's input: byte 0 picks the name from
/// [`DECODE_NAMES`], byte 1 the shader kind of a DXIL part placed before it
/// (low nibble; 0xf = no DXIL part) and whether the part starts at an odd
/// file offset (bit 7); the rest is the part data. The part is decoded by
/// the library's dispatch, the LLVM-compatible readers and the bare-data readers.
pub fn decode_input(input: &[u8]) -> usize {
    let Some(input) = DecodeInput::split(input) else {
        return 0;
    };
    let (name, kind) = (input.name, input.kind);
    let mut sink = crate::Discard::default();
    let mut n = decode_named(name, input.data, 0, kind, &mut sink);
    if let Some(bytes) = input.container() {
        if let Ok(c) = Container::parse(&bytes) {
            if let Some(part) = c.find(name) {
                n += decode_one(&c, &part, &mut sink);
                n += decode_part_compat(&part, kind, &mut sink);
            }
        }
    }
    n
}

/// A decode fuzz input taken apart (see [`decode_input`]).
#[derive(Debug, Clone, Copy)]
pub struct DecodeInput<'a> {
    /// The part to decode.
    pub name: PartName,
    /// The shader kind of the DXIL part placed before it, if any.
    pub kind: Option<ShaderKind>,
    /// The part data.
    pub data: &'a [u8],
    flags: u8,
}

impl<'a> DecodeInput<'a> {
    /// Splits a decode fuzz input; `None` when it is shorter than 2 bytes.
    pub fn split(input: &'a [u8]) -> Option<Self> {
        let (&pick, &flags) = (input.first()?, input.get(1)?);
        let kind = match flags & 0xf {
            0xf => None,
            k => Some(ShaderKind::from_raw(u16::from(k))),
        };
        Some(DecodeInput {
            name: DECODE_NAMES[usize::from(pick) % DECODE_NAMES.len()],
            kind,
            data: &input[2..],
            flags,
        })
    }

    /// The container the part is decoded in: an optional one-byte part (odd
    /// offsets), the DXIL part giving the shader kind, then the part.
    /// `None` when the builder refuses the data.
    pub fn container(&self) -> Option<Vec<u8>> {
        let mut builder = dxcopy_edit::ContainerBuilder::new();
        if self.flags & 0x80 != 0 {
            builder = builder.part(b"FKE0", b"x");
        }
        if let (Some(kind), false) = (self.kind, self.name == PartName::DXIL) {
            builder = builder.program(b"DXIL", kind, (6, 0), (1, 0), b"BC\xc0\xde");
        }
        builder.part(&self.name.0, self.data).build().ok()
    }
}

/// The decode fuzz target's seed for a part: name index, kind byte, data.
pub fn decode_seed(name: PartName, kind: Option<ShaderKind>, data: &[u8]) -> Option<Vec<u8>> {
    let pick = DECODE_NAMES.iter().position(|n| *n == name)?;
    let kind = kind.map_or(0xf, |k| (k.raw() & 0xf).min(0xe) as u8);
    let mut v = vec![pick as u8, kind];
    v.extend_from_slice(data);
    Some(v)
}

/// An [`std::io::Write`] that counts the bytes written and keeps none.
pub struct CountingSink(pub usize);

impl std::io::Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
