//! The `dxasm` command: assemble DXBC (Shader Model 4.0–5.1) listings into
//! shader bytecode, patch compiled shaders, check round trips.

use crate::cli;
use clap::Parser;
use dxcopy_edit::asm::{self, DxasmError, RoundTrip};
use dxcopy_edit::FileOptions;
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
  dxasm --check shaders/*.cso                 disassemble and reassemble, byte for byte";

/// Assemble DXBC shader listings (Shader Model 4.0-5.1) into shader bytecode.
///
/// A listing as dxinfo --disasm or Microsoft's disassembler prints it (any
/// fxc release's layout), or written by hand in the same syntax: blank lines,
/// `//` and `;` comments, free spacing and case. Float immediates printed
/// with six decimals take their exact bits from the original program with
/// --into and --check; otherwise each is the nearest float to its text.
/// Errors name the line and column (`shader.asm:12:5: error: ...`); on an
/// error nothing is written and the exit status is 1.
#[derive(Debug, Parser)]
#[command(name = "dxasm", version = crate::VERSION, after_help = EXAMPLES)]
pub struct Opts {
    /// The listing to assemble (with --check: containers to check)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the container to OUT (`-` for standard output)
    #[arg(short = 'o', value_name = "OUT", conflicts_with = "check")]
    pub output: Option<PathBuf>,
    /// Replace the program (and the signatures the listing changes) of this
    /// container, keep every other part byte for byte, recompute or drop
    /// STAT, re-sign; in place unless -o is given
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
    /// Do not print warnings or the --check summary
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

fn fail(message: &str) -> ! {
    cli::emit("dxasm", cli::Severity::Error, message);
    cli::exit(1);
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| fail(&format!("'{}': {e}", path.display())))
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

fn check(opts: &Opts) -> ! {
    let options = ListingOptions {
        rounding: if opts.legacy_rounding {
            FloatRounding::Legacy
        } else {
            FloatRounding::Current
        },
        release: None,
    };
    let mut identical = 0;
    for file in &opts.files {
        let bytes = read(file);
        let container = Container::parse(&bytes)
            .unwrap_or_else(|e| fail(&format!("'{}': {e}", file.display())));
        match asm::check_round_trip(&container, &options) {
            Ok(RoundTrip::Identical { .. }) => identical += 1,
            Ok(RoundTrip::Differs {
                token,
                original,
                assembled,
                line,
            }) => {
                let word =
                    |w: Option<u32>| w.map_or("(none)".to_string(), |w| format!("{w:#010x}"));
                fail(&format!(
                    "'{}': the program differs at token {token}: {} in the original, {} assembled, in '{}'",
                    file.display(),
                    word(original),
                    word(assembled),
                    line.lines().next().unwrap_or("")
                ));
            }
            Err(e) => report(file, &e),
        }
    }
    if !opts.quiet {
        cli::emit_line(&format!(
            "dxasm: {identical} of {} programs round-trip byte for byte",
            opts.files.len()
        ));
    }
    cli::exit(0)
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
    let text = String::from_utf8(read(listing)).unwrap_or_else(|_| {
        fail(&format!(
            "'{}': the listing is not UTF-8 text",
            listing.display()
        ))
    });
    let options = asm::AsmOptions {
        immediates: if opts.compact_immediates {
            asm::ImmediateEncoding::Compact
        } else {
            asm::ImmediateEncoding::Fxc
        },
    };
    if let Some(original) = &opts.into {
        let bytes = read(original);
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
        let out = opts.output.as_deref().unwrap_or(original);
        write_output(out, &patched.bytes, Some(original));
        cli::exit(0);
    }
    let Some(out) = &opts.output else {
        fail("no output: give -o OUT (or --into CONTAINER)");
    };
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
