//! The `dxasm` command: assemble DXBC (Shader Model 4.0–5.1) and DXIL
//! (Shader Model 6) listings into containers, patch compiled shaders,
//! check round trips.

use crate::cli;
use clap::Parser;
use dxcopy_edit::asm::{self, DxasmError, RoundTrip};
use dxcopy_edit::config::read_data_file;
use dxcopy_edit::dxil_asm::{self, DxilAsmError, DxilRoundTrip, ListingKind};
use dxcopy_edit::{EditError, FileOptions, Operation};
use dxcopy_read::listing::dxbc::{FloatRounding, ListingOptions};
use dxcopy_read::Container;
use std::path::{Path, PathBuf};

const EXAMPLES: &str = "\
Examples:
  dxasm shader.asm -o shader.dxbc             assemble a listing into a new signed container
  dxinfo --disasm shader.cso > shader.asm     the patch workflow: disassemble,
  $EDITOR shader.asm                          edit,
  dxasm --into shader.cso shader.asm -o patched.cso   replace the program, keep every other part
  dxasm --into shader.cso shader.asm          the same, in place
  dxinfo --disasm shader.cso | dxasm - -o new.cso    a listing from standard input
  dxasm --check shaders/*.cso                 disassemble and reassemble, byte for byte
  dxinfo --disasm=DXIL shader.dxil > shader.ll   Shader Model 6: the same workflow
  dxasm --into shader.dxil shader.ll -o patched.dxil  replace the DXIL module, rebuild derived parts
  dxasm shader.ll -o shader.dxil              a new container from a DXIL listing";

/// Assemble shader listings into containers: DXBC (Shader Model 4.0-5.1)
/// and DXIL (Shader Model 6).
///
/// A DXBC listing as dxinfo --disasm or Microsoft's disassembler prints it
/// (any fxc release's layout), or written by hand in the same syntax: blank
/// lines, `//` and `;` comments, free spacing and case. A DXIL listing as
/// dxinfo --disasm or dxc (-Fc, -dumpbin) prints it: LLVM 3.7 assembly; the
/// `;` header comments are derived data and ignored, the parts they
/// describe are rebuilt from the module. The kind is told from the text. Float immediates printed
/// with six decimals take their exact bits from the original program with
/// --into and --check; otherwise each is the nearest float to its text.
/// Errors name the line and column (`shader.asm:12:5: error: ...`); on an
/// error nothing is written and the exit status is 1. A listing (`-` is
/// standard input) is read up to 4 GiB from a regular file, 64 MiB from
/// anything else; an output that is the listing, under any name, is refused.
#[derive(Debug, Parser)]
#[command(name = "dxasm", version = crate::VERSION, after_help = EXAMPLES)]
pub struct Opts {
    /// The listing to assemble, `-` for standard input (with --check:
    /// containers to check)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the container to OUT (`-` for standard output)
    #[arg(short = 'o', value_name = "OUT", conflicts_with = "check")]
    pub output: Option<PathBuf>,
    /// Replace the program (and the signatures the listing changes) of this
    /// container, keep every other part byte for byte, recompute or drop
    /// STAT, re-sign; in place unless -o is given. DXIL: replace the
    /// module, rebuild the parts it derives (SFI0, signatures, PSV0, RDAT,
    /// HASH), keep the others, drop ILDB when the module changed
    #[arg(long, value_name = "CONTAINER", conflicts_with = "check")]
    pub into: Option<PathBuf>,
    /// For each container: disassemble, assemble and compare the program
    /// byte for byte (exit 1 naming the first differing token)
    #[arg(long)]
    pub check: bool,
    /// With --check: listings printed with the float rounding of Windows
    /// before 10 version 2004
    #[arg(long, requires = "check")]
    pub legacy_rounding: bool,
    /// Write an immediate whose four values are the same as one value (the
    /// hardware replicates it), as Microsoft's free-syntax assembler does;
    /// fxc, and dxasm by default, write all four
    #[arg(long, conflicts_with = "check")]
    pub compact_immediates: bool,
    /// With --into: patch a container whose program is of another stage
    /// than the listing (a pixel listing into a vertex shader); refused
    /// otherwise
    #[arg(long, requires = "into")]
    pub force: bool,
    /// Do not print warnings or the --check summary
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

fn fail(message: &str) -> ! {
    cli::emit("dxasm", cli::Severity::Error, message);
    cli::exit(1);
}

/// The bytes of `path` (`-` is standard input), bounded as every data file
/// is: 4 GiB from a regular file, 64 MiB from a pipe or device.
fn read(path: &Path) -> Result<Vec<u8>, String> {
    read_data_file(path, Operation::Input).map_err(|e| cli::file_message(path, &e))
}

/// `file:line:column: error: message` for an assembly error, other errors
/// as `dxasm: error: 'file': message`.
fn report(file: &Path, error: &DxasmError) -> ! {
    match error {
        DxasmError::Asm(e) => {
            cli::emit_line(&format!("{}:{e}", file.display()));
            cli::exit(1)
        }
        other => fail(&format!("'{}': {other}", file.display())),
    }
}

fn write_output(path: &Path, bytes: &[u8], like: Option<&Path>) {
    if path == Path::new("-") {
        if let Err(e) = std::io::Write::write_all(&mut std::io::stdout().lock(), bytes) {
            fail(&format!("writing output: {e}"));
        }
        return;
    }
    let options = like
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| FileOptions::like(&m, false))
        .unwrap_or_default();
    if let Err(e) = dxcopy_edit::write_bytes_atomic(path, bytes, &options) {
        fail(&cli::file_message(path, &e));
    }
}

/// Checks every container named, going on after a failure, and ends with
/// a summary; the exit status is 1 if any file failed.
fn check(opts: &Opts) -> ! {
    let options = ListingOptions {
        rounding: if opts.legacy_rounding {
            FloatRounding::Legacy
        } else {
            FloatRounding::Current
        },
        release: None,
        ..ListingOptions::default()
    };
    let mut identical = 0;
    for file in &opts.files {
        match check_one(file, &options) {
            Ok(()) => identical += 1,
            Err(message) => cli::emit_line(&message),
        }
    }
    let failed = opts.files.len() - identical;
    if !opts.quiet || failed > 0 {
        cli::emit_line(&format!(
            "dxasm: {identical} of {} programs round-trip byte for byte, {failed} failed",
            opts.files.len()
        ));
    }
    cli::exit(i32::from(failed > 0))
}

/// One file of `--check`: `Ok` when its program round-trips, else the
/// diagnostic line.
fn check_one(file: &Path, options: &ListingOptions) -> Result<(), String> {
    let error = |message: String| {
        cli::diagnostic("dxasm", cli::Severity::Error, &message, cli::use_color())
    };
    let bytes = read(file).map_err(error)?;
    let container =
        Container::parse(&bytes).map_err(|e| error(format!("'{}': {e}", file.display())))?;
    if dxcopy_read::listing::dxbc::shader_part(&container).is_none()
        && container.find(dxcopy_read::PartName::DXIL).is_some()
    {
        return match dxil_asm::check_dxil_round_trip(&bytes) {
            Ok(DxilRoundTrip::Identical) => Ok(()),
            Ok(DxilRoundTrip::Differs { offset, part }) => Err(error(format!(
                "'{}': the container differs from byte {offset:#x}{}",
                file.display(),
                part.map(|p| format!(" (part {p})")).unwrap_or_default()
            ))),
            Err(DxilAsmError::Parse(e)) => Err(error(format!(
                "'{}': its listing does not assemble: {e}",
                file.display()
            ))),
            Err(e) => Err(error(format!("'{}': {e}", file.display()))),
        };
    }
    match asm::check_round_trip(&container, options) {
        Ok(RoundTrip::Identical { .. }) => Ok(()),
        Ok(RoundTrip::Differs {
            token,
            original,
            assembled,
            line,
        }) => {
            let word = |w: Option<u32>| w.map_or("(none)".to_string(), |w| format!("{w:#010x}"));
            Err(error(format!(
                "'{}': the program differs at token {token}: {} in the original, {} assembled, in '{}'",
                file.display(),
                word(original),
                word(assembled),
                line.lines().next().unwrap_or("")
            )))
        }
        Err(DxasmError::Asm(e)) => Err(format!("{}:{e}", file.display())),
        Err(other) => Err(error(format!("'{}': {other}", file.display()))),
    }
}

/// `file:line:column: error: message` for a DXIL listing error, other
/// errors as `dxasm: error: 'file': message`.
fn report_dxil(file: &Path, error: &DxilAsmError) -> ! {
    match error {
        DxilAsmError::Parse(e) => {
            cli::emit_line(&format!("{}:{e}", file.display()));
            cli::exit(1)
        }
        other => fail(&format!("'{}': {other}", file.display())),
    }
}

/// A DXIL listing: a new container, or the module of `--into` replaced.
fn assemble_dxil(opts: &Opts, listing: &Path, out: &Path, text: &str) -> ! {
    if opts.compact_immediates || opts.force {
        fail("--compact-immediates and --force apply to DXBC listings; this is a DXIL listing");
    }
    if let Some(original) = &opts.into {
        let bytes = read(original).unwrap_or_else(|m| fail(&m));
        let patched = dxil_asm::patch_dxil_container(&bytes, text).unwrap_or_else(|e| match e {
            DxilAsmError::Parse(_) => report_dxil(listing, &e),
            other => report_dxil(original, &other),
        });
        if !opts.quiet {
            for w in &patched.warnings {
                cli::emit(
                    "dxasm",
                    cli::Severity::Warning,
                    &format!("'{}': {w}", original.display()),
                );
            }
        }
        write_output(out, &patched.bytes, Some(original));
        cli::exit(0);
    }
    let bytes = dxil_asm::build_dxil_container(text).unwrap_or_else(|e| report_dxil(listing, &e));
    write_output(out, &bytes, None);
    cli::exit(0)
}

/// Refuses an output that is the listing under any name (`./x`, a
/// symbolic or hard link), before anything is read or written.
fn refuse_listing_as_output(listing: &Path, output: &Path) {
    if output.as_os_str() == "-" || listing.as_os_str() == "-" {
        return;
    }
    let same = dxcopy_edit::batch::same_files(&[listing.to_path_buf(), output.to_path_buf()]);
    if same.get(1).copied().flatten() == Some(0) {
        fail(&format!(
            "'{}' is the listing: writing the container to it would destroy the listing; nothing was written",
            output.display()
        ));
    }
}

/// Runs the command with the process arguments and exits.
pub fn main() {
    let opts: Opts = cli::parse_or_exit("dxasm");
    cli::clean_up_on_signals();
    if opts.check {
        check(&opts);
    }
    let [listing] = opts.files.as_slice() else {
        fail("one listing to assemble (several only with --check)");
    };
    let out = opts.output.as_deref().or(opts.into.as_deref());
    let Some(out) = out else {
        fail("no output: give -o OUT (or --into CONTAINER)");
    };
    refuse_listing_as_output(listing, out);
    if let (Some(original), None) = (&opts.into, &opts.output) {
        // In place needs a regular file: a FIFO or device is refused before
        // a byte of it is read (opening a FIFO would wait for a writer).
        if original.as_os_str() == "-" {
            fail("--into - cannot be patched in place: give -o OUT");
        }
        if let Ok(meta) = std::fs::metadata(original) {
            if !meta.is_file() {
                let e = EditError::NotRegularInPlace {
                    path: original.clone(),
                    kind: dxcopy_edit::file::file_kind(&meta),
                };
                fail(&cli::file_message(original, &e));
            }
        }
    }
    if opts.into.as_deref() == Some(Path::new("-")) && listing.as_os_str() == "-" {
        fail("standard input ('-') is given for both the listing and --into; it can be read only once");
    }
    let text = read(listing).unwrap_or_else(|m| fail(&m));
    let text = String::from_utf8(text).unwrap_or_else(|e| {
        fail(&format!(
            "'{}': the listing is not UTF-8 text (byte offset {})",
            listing.display(),
            e.utf8_error().valid_up_to()
        ))
    });
    if dxil_asm::listing_kind(&text) == ListingKind::Dxil {
        assemble_dxil(&opts, listing, out, &text);
    }
    let options = asm::AsmOptions {
        immediates: if opts.compact_immediates {
            asm::ImmediateEncoding::Compact
        } else {
            asm::ImmediateEncoding::Fxc
        },
        force: opts.force,
    };
    if let Some(original) = &opts.into {
        let bytes = read(original).unwrap_or_else(|m| fail(&m));
        let patched =
            asm::patch_container_with(&bytes, &text, &options).unwrap_or_else(|e| match e {
                DxasmError::Asm(_) => report(listing, &e),
                other => report(original, &other),
            });
        if !opts.quiet {
            for w in &patched.warnings {
                cli::emit(
                    "dxasm",
                    cli::Severity::Warning,
                    &format!("'{}': {w}", original.display()),
                );
            }
        }
        write_output(out, &patched.bytes, Some(original));
        cli::exit(0);
    }
    let assembly = asm::assemble_with(&text, &mut asm::FloatHints::none(), &options)
        .unwrap_or_else(|e| report(listing, &DxasmError::Asm(e)));
    if let (Some(first), false) = (assembly.inexact.first(), opts.quiet) {
        cli::emit(
            "dxasm",
            cli::Severity::Warning,
            &format!(
                "'{}': {} float immediate(s) printed with six decimals taken as the nearest float, \
                 the first at {}:{} ('{}'); assemble with --into ORIGINAL to keep their exact bits",
                listing.display(),
                assembly.inexact.len(),
                first.line,
                first.column,
                first.text
            ),
        );
    }
    let bytes = asm::build_container(&assembly).unwrap_or_else(|e| report(listing, &e));
    write_output(out, &bytes, None);
    cli::exit(0);
}
