//! The DXBC shader listing, as Microsoft's D3D shader disassembler writes
//! it: a `//` banner, the sections [`header`] writes (resource definitions,
//! signatures, the Level9 part), then the SM4/SM5 program ([`sm4`]) and its
//! instruction-slot count.
//!
//! [`listing`] assembles the whole text; [`crate::sm4::Program`] is the decoded
//! instruction stream for other code to use.

pub mod debug_notes;
pub mod header;
pub mod number;
mod release;
pub mod sm2;
pub mod sm4;
pub mod summary;

pub use number::FloatRounding;

pub use release::FxcRelease;

use crate::container::{Container, Part};
use crate::error::ReadError;
use crate::listing::DisasmFlags;
use crate::name::PartName;
use crate::program::is_program_data;
use crate::stat::Statistics;

/// Why a container has no DXBC listing, or where its token stream is broken.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DisasmError {
    /// The container holds DXIL bytecode and no SHDR/SHEX part.
    #[error("the container holds DXIL only (no SHDR or SHEX part); its listing is LLVM IR")]
    DxilOnly,
    /// The container has no shader bytecode part at all.
    #[error("the container has no SHDR or SHEX part to disassemble")]
    NoShaderPart,
    /// The SHDR/SHEX token stream is malformed.
    #[error("{part} part: {source}")]
    Decode {
        /// SHDR or SHEX.
        part: PartName,
        /// Where and why (token index and absolute byte offset).
        source: crate::sm4::DecodeError,
    },
    /// A part the listing reads could not be decoded.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The SPDB or SDBG part could not be decoded: the listing has no
    /// debug notes.
    #[error(transparent)]
    DebugInfo(#[from] debug_notes::DebugInfoError),
    /// `D3D_DISASM_ENABLE_INSTRUCTION_CYCLE`: the cycle of each step comes
    /// from a shader trace (`D3DDisassemble11Trace`), which a container
    /// does not hold; `D3DDisassemble` prints nothing for it.
    #[error(
        "{0}: the instruction cycles come from a shader trace (D3DDisassemble11Trace), which a container does not hold; a listing has none to print"
    )]
    Unsupported(crate::listing::DisasmFlag),
}

/// The SHDR or SHEX part of `container` (SHEX first), if any.
pub fn shader_part<'data>(container: &Container<'data>) -> Option<Part<'data>> {
    container
        .find(PartName(*b"SHEX"))
        .or_else(|| container.find(PartName(*b"SHDR")))
}

/// Decodes the SM4/SM5 program of `container` as far as it is well formed:
/// the program and, when a malformed instruction stopped the decoder, that
/// error. Offsets in errors are absolute file offsets.
pub fn decode_program(
    container: &Container<'_>,
) -> Result<(crate::sm4::Program, Option<DisasmError>), DisasmError> {
    let Some(part) = shader_part(container) else {
        return Err(no_program(container));
    };
    let wrap = |source| DisasmError::Decode {
        part: part.name,
        source,
    };
    let (program, error) =
        crate::sm4::Program::decode_prefix(part.data, part.data_offset()).map_err(wrap)?;
    Ok((program, error.map(wrap)))
}

/// The instruction count fxc recorded in STAT (what the listing's
/// `// Approximately N instruction slots used` line shows), 0 without an
/// fxc STAT part.
pub fn instruction_slots(container: &Container<'_>) -> Result<u32, ReadError> {
    match container.find(PartName::STAT) {
        Some(part) if !is_program_data(part.data) => Ok(Statistics::parse(&part)?
            .get("InstructionCount")
            .unwrap_or(0)),
        _ => Ok(0),
    }
}

/// Choices a listing leaves to the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct ListingOptions {
    /// How floating-point immediates round at their last printed digit.
    pub rounding: FloatRounding,
    /// The fxc release whose layout to print; `None`: the one RDEF's
    /// creator names, else the current one (10.1).
    pub release: Option<FxcRelease>,
    /// The `D3D_DISASM_*` flags (`/Ni`, `/No`, `/Lx`, …).
    pub flags: DisasmFlags,
}

impl ListingOptions {
    /// These options with the release settled for `container`: the one
    /// asked for, else its RDEF creator's, else 10.1.
    pub fn for_container(&self, container: &Container<'_>) -> ListingOptions {
        ListingOptions {
            release: Some(
                self.release
                    .or_else(|| FxcRelease::of_container(container))
                    .unwrap_or(FxcRelease::V10_1),
            ),
            ..*self
        }
    }

    /// The layout rules of the release (10.1's when none is settled).
    pub(crate) fn layout(&self) -> &'static release::Layout {
        self.release.unwrap_or(FxcRelease::V10_1).layout()
    }
}

/// A listing, complete or with the problems that cut parts of it short.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// The text: everything that could be decoded.
    pub text: String,
    /// What went wrong, in listing order: a header section that did not
    /// decode (the program still follows), a malformed instruction (the
    /// program listing stops before it).
    pub errors: Vec<DisasmError>,
}

/// Writes the SM4/SM5 part of the listing (from the `ps_5_0` line to the
/// instruction-slot line) for `container`, decoding the program as it is
/// written, with the debug notes of its SPDB or SDBG part when that part
/// decodes. Returns the error that cut it short, if any.
pub fn write_program_listing<W: std::fmt::Write>(
    container: &Container<'_>,
    options: &ListingOptions,
    out: &mut W,
) -> Result<Option<DisasmError>, WriteError<DisasmError>> {
    let notes = if options.flags.no_debug_info {
        None
    } else {
        debug_notes::DebugNotes::from_container(container).and_then(Result::ok)
    };
    write_program_with_notes(container, options, notes.as_ref(), out)
}

fn write_program_with_notes<W: std::fmt::Write>(
    container: &Container<'_>,
    options: &ListingOptions,
    notes: Option<&debug_notes::DebugNotes>,
    out: &mut W,
) -> Result<Option<DisasmError>, WriteError<DisasmError>> {
    check_flags(options).map_err(WriteError::Listing)?;
    let part = shader_part(container).ok_or_else(|| WriteError::Listing(no_program(container)))?;
    let options = &options.for_container(container);
    let wrap = |source| DisasmError::Decode {
        part: part.name,
        source,
    };
    let (header, instructions) = crate::sm4::Program::stream(part.data, part.data_offset())
        .map_err(|e| WriteError::Listing(wrap(e)))?;
    // A STAT part that does not decode is reported by the header sections;
    // the slot line then shows 0, as for a container without STAT.
    let slots = || instruction_slots(container).unwrap_or(0);
    let cut = sm4::write_streamed_with_notes(&header, instructions, slots, options, notes, out)
        .map_err(|_| WriteError::Write)?;
    Ok(cut.map(wrap))
}

/// Refuses the flags that print nothing from a container
/// ([`DisasmError::Unsupported`]).
fn check_flags(options: &ListingOptions) -> Result<(), DisasmError> {
    if options.flags.instruction_cycle {
        return Err(DisasmError::Unsupported(
            crate::listing::DisasmFlag::InstructionCycle,
        ));
    }
    Ok(())
}

fn no_program(container: &Container<'_>) -> DisasmError {
    if container.find(PartName::DXIL).is_some() {
        DisasmError::DxilOnly
    } else {
        DisasmError::NoShaderPart
    }
}

/// Why writing a listing stopped before its end.
#[derive(Debug)]
pub enum WriteError<E> {
    /// The listing itself could not be made.
    Listing(E),
    /// The destination refused the text.
    Write,
}

/// The whole listing of `container`. `generator` names the tool on the
/// `// Generated by` line (the one line that differs from Microsoft's).
///
/// A container without an SHDR/SHEX part is an error (no listing at all); a
/// header section that does not decode, or a malformed token stream, gives
/// the listing of everything else plus the errors in [`Listing::errors`].
/// [`write_listing`] writes the same text to a stream as it is made.
pub fn listing(
    container: &Container<'_>,
    generator: &str,
    options: &ListingOptions,
) -> Result<Listing, DisasmError> {
    let mut text = String::new();
    match write_listing_to(container, generator, options, &mut text) {
        Ok(errors) => Ok(Listing { text, errors }),
        Err(WriteError::Listing(e)) => Err(e),
        // Writing to a String does not fail.
        Err(WriteError::Write) => Ok(Listing {
            text,
            errors: Vec::new(),
        }),
    }
}

/// [`listing`] written to `out` line by line, so that its cost in memory
/// is the decoded program, not the text. Returns the problems that cut
/// parts of the listing short; the outer error is a failed write.
pub fn write_listing<W: std::io::Write>(
    container: &Container<'_>,
    generator: &str,
    options: &ListingOptions,
    out: &mut W,
) -> std::io::Result<Result<Vec<DisasmError>, DisasmError>> {
    let mut sink = IoSink { out, error: None };
    match write_listing_to(container, generator, options, &mut sink) {
        Ok(errors) => Ok(Ok(errors)),
        Err(WriteError::Listing(e)) => Ok(Err(e)),
        Err(WriteError::Write) => Err(sink
            .error
            .unwrap_or_else(|| std::io::Error::other("the listing could not be written"))),
    }
}

fn write_listing_to<W: std::fmt::Write>(
    container: &Container<'_>,
    generator: &str,
    options: &ListingOptions,
    out: &mut W,
) -> Result<Vec<DisasmError>, WriteError<DisasmError>> {
    // Find the program first so a container without one gets no half listing.
    check_flags(options).map_err(WriteError::Listing)?;
    shader_part(container).ok_or_else(|| WriteError::Listing(no_program(container)))?;
    let options = &options.for_container(container);
    let mut errors = Vec::new();
    if options.flags.instruction_only {
        // The program alone: no banner, no header sections.
        return match write_program_listing(container, options, out) {
            Ok(cut) => Ok(cut.into_iter().collect()),
            Err(e) => Err(e),
        };
    }
    let mut head = String::new();
    head.push_str("//\n// Generated by ");
    head.push_str(generator);
    head.push_str("\n//\n");
    if let Err(e) = header::write_header_sections(container, options, &mut head) {
        errors.push(DisasmError::Read(e));
    }
    out.write_str(&head).map_err(|_| WriteError::Write)?;
    drop(head);
    // Microsoft's disassembler prints the notes whenever the debug part is
    // there; one that does not decode is reported and the listing goes on
    // without notes.
    // D3D_DISASM_DISABLE_DEBUG_INFO: the debug part is not read.
    let read = (!options.flags.no_debug_info)
        .then(|| debug_notes::DebugNotes::from_container(container))
        .flatten();
    let notes = match read {
        Some(Ok(notes)) => Some(notes),
        Some(Err(e)) => {
            errors.push(DisasmError::DebugInfo(e));
            None
        }
        None => None,
    };
    match write_program_with_notes(container, options, notes.as_ref(), out) {
        Ok(cut) => errors.extend(cut),
        Err(WriteError::Listing(e)) => errors.push(e),
        Err(WriteError::Write) => return Err(WriteError::Write),
    }
    Ok(errors)
}

/// A [`std::fmt::Write`] over an [`std::io::Write`] that keeps the I/O
/// error for the caller.
struct IoSink<'a, W> {
    out: &'a mut W,
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> std::fmt::Write for IoSink<'_, W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.out.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::build;

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn listing_of_a_container() {
        // vs_4_0: ret; STAT with InstructionCount 7.
        let shex = le(&[0x0001_0040, 3, 62 | (1 << 24)]);
        let mut stat = vec![0u8; 116];
        stat[0] = 7;
        let bytes = build(&[(b"STAT", &stat), (b"SHDR", &shex)]);
        let c = Container::parse(&bytes).unwrap();
        let l = listing(&c, "test 1", &ListingOptions::default()).unwrap();
        assert!(
            l.text.starts_with("//\n// Generated by test 1\n//\n"),
            "{}",
            l.text
        );
        assert!(
            l.text
                .ends_with("\nvs_4_0\nret \n// Approximately 7 instruction slots used\n"),
            "{}",
            l.text
        );
        assert_eq!(l.errors, vec![]);
        assert_eq!(instruction_slots(&c).unwrap(), 7);
    }

    #[test]
    fn the_cycle_flag_is_refused() {
        let shex = le(&[0x50, 3, 62 | (1 << 24)]);
        let bytes = build(&[(b"SHEX", &shex)]);
        let c = Container::parse(&bytes).unwrap();
        let options = ListingOptions {
            flags: DisasmFlags {
                instruction_cycle: true,
                ..DisasmFlags::default()
            },
            ..ListingOptions::default()
        };
        let cycle = DisasmError::Unsupported(crate::listing::DisasmFlag::InstructionCycle);
        assert_eq!(listing(&c, "t", &options).unwrap_err(), cycle);
        let mut text = String::new();
        assert!(matches!(
            write_program_listing(&c, &options, &mut text),
            Err(WriteError::Listing(e)) if e == cycle
        ));
        assert_eq!(text, "");
    }

    #[test]
    fn containers_without_a_program() {
        let bytes = build(&[(b"DXIL", &[0; 24])]);
        let c = Container::parse(&bytes).unwrap();
        assert_eq!(
            listing(&c, "t", &ListingOptions::default()).unwrap_err(),
            DisasmError::DxilOnly
        );
        let bytes = build(&[(b"RTS0", &[0; 24])]);
        let c = Container::parse(&bytes).unwrap();
        assert_eq!(
            listing(&c, "t", &ListingOptions::default()).unwrap_err(),
            DisasmError::NoShaderPart
        );
    }

    #[test]
    fn a_bad_token_cuts_the_listing_short() {
        // ps_5_0: ret, then opcode 0 with length 0.
        let shex = le(&[0x50, 4, 62 | (1 << 24), 0]);
        let bytes = build(&[(b"SHEX", &shex)]);
        let c = Container::parse(&bytes).unwrap();
        let l = listing(&c, "t", &ListingOptions::default()).unwrap();
        assert!(l.text.ends_with("\nps_5_0\nret \n"), "{}", l.text);
        let [DisasmError::Decode { part, source }] = &l.errors[..] else {
            panic!("{:?}", l.errors)
        };
        assert_eq!(*part, PartName(*b"SHEX"));
        // Data starts at 32 + 4 + 8 = 44; token 3 is 12 bytes in.
        assert_eq!((source.token, source.offset), (3, 56));
        assert_eq!(source.kind, crate::sm4::DecodeErrorKind::ZeroLength);
        // A length token past the part: no listing at all.
        let shex = le(&[0x50, 40]);
        let bytes = build(&[(b"SHEX", &shex)]);
        let c = Container::parse(&bytes).unwrap();
        let l = listing(&c, "t", &ListingOptions::default()).unwrap();
        assert!(matches!(&l.errors[..], [DisasmError::Decode { .. }]));
        assert!(!l.text.contains("ps_5_0"));
    }
}
