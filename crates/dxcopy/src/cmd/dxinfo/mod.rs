//! The `dxinfo` command: show, verify, hex-dump or unpack DirectX containers.
//!
//! Every view is a library module in [`crate::info`]; this module only maps
//! options to them, turns errors into one line each, and picks the exit code.

mod compare;
mod scan;

use crate::cli;
use crate::info::dump::{dump_all, dump_all_per_file};
use crate::info::hexdump::write_hex;
use crate::info::json::{document, write_json};
use crate::info::text::{write_parts, write_text, TextOptions};
use crate::info::verify::{coverage_checks, verify};
use crate::info::yaml::{to_obj2yaml, YamlOptions};
use crate::info::{parse_part_name, Inspection};
use crate::listing_args::{parse_release, ColorWhen, DisasmFlagArgs, ListingMarkup, Rounding};
use clap::Parser;
use dxcopy_edit::config::read_data_file;
use dxcopy_edit::Operation;
use dxcopy_read::info::verify::root_signature::{read_root_signature_file, CheckAgainst};
use dxcopy_read::listing::dxbc::{self, DisasmError};
use dxcopy_read::listing::dxil::release::{DxcRelease, ListingFormat};
use dxcopy_read::listing::dxil::{
    write_container_listing_to, ListingOptions as DxilListingOptions,
};
use dxcopy_read::listing::markup::{Dialect, MarkupWriter, PageWriter, Style};
use dxcopy_read::listing::DisasmFlags;
use dxcopy_read::pdb::{container_input, ContainerSource};
use dxcopy_read::reflect::{self, Reflection};
use dxcopy_read::rts0::RootSignature;
use dxcopy_read::Severity;
use dxcopy_read::{Container, MappedFile, PartName};
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const EXAMPLES: &str = "\
Examples:
  dxinfo shader.dxil                     header, parts table, every part decoded
  dxinfo --parts shaders/*.cso           one line per part, a header line per file
  dxinfo --json a.dxil b.dxil > out.jsonl   one JSON document per file (schema 2)
  dxinfo --verify shaders/*.dxil         digest, HASH, structure, decoders; exit 1 on problems
  dxinfo --verify --root-signature=rs.dxbc a.dxil   are a.dxil's bindings covered by rs.dxbc?
  dxinfo --yaml shader.dxil              the same YAML as LLVM's obj2yaml
  dxinfo --hex=PSV0 shader.dxil          hex dump of a part
  dxinfo --dump-all=parts shader.dxil    parts/00-SFI0.bin, parts/01-ISG1.bin, ...
  dxinfo --disasm shader.cso             the listing fxc writes (DXBC: SHDR/SHEX)
  dxinfo --disasm shader.dxil            the listing dxc prints (-dumpbin): header and module
  dxinfo --disasm=ILDB shader.dxil       the debug module's listing
  dxinfo --disasm --disasm-with=llvm-dis shader.dxil   the IR in LLVM's current syntax (llvm-dis 17+)
  dxinfo --disasm --color=always shader.cso | less -R   the listing in colour through a pager
  dxinfo --disasm-html shader.cso > shader.html   the listing as a colour-coded HTML page (fxc /Cc)
  dxinfo --reflect shader.cso            ID3D12ShaderReflection's answers as JSON
  dxinfo --reflect --text shader.dxil    the same in the layout of dxc's reflection dump
  dxinfo shaders.h                       each array of a C header (fxc /Fh, dxc -Fh)
  dxinfo --diff old.dxil new.dxil        what changed, by meaning; exit 0 same, 1 different, 2 trouble
  dxinfo --diff --json build-a/ build-b/ two folders, matched by path
  dxinfo --stats build/                  where the bytes go: per part, largest files, debug bytes
  dxinfo --scan game.exe data.zip        every container inside, at any offset, in zip and gzip
  dxinfo --scan -r --scan-extract=out/ dumps/   each distinct container once, named by its hash
  dxinfo --rows=csv -r shaders/ > s.csv  one row per container, for pandas, DuckDB, spreadsheets";

/// Show what a DirectX container (DXBC / DXIL) holds.
///
/// Without options, prints the header, a table of parts and every part
/// decoded, like llvm-readobj. A file that cannot be read is reported on
/// stderr and the others are still shown; the exit status is 1 when any file
/// failed (or, with --verify, when any problem was found).
#[derive(Debug, Parser)]
#[command(name = "dxinfo", version = crate::VERSION, after_help = EXAMPLES, mut_args(view_rules))]
#[command(group(clap::ArgGroup::new("carving").args(["scan", "rows"]).multiple(true)))]
#[command(group(clap::ArgGroup::new("listing").args(["disasm", "disasm_html"]).multiple(true)))]
pub struct Opts {
    /// Containers to read; `-` reads standard input
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// One line per part: index, name, offset, size, CRC-32, alignment note
    #[arg(long)]
    pub parts: bool,
    /// JSON, schema 2 (docs/dxinfo-json.md): indented for one file, one line per file otherwise
    #[arg(long)]
    pub json: bool,
    /// YAML identical to LLVM 22's obj2yaml (`--- !dxcontainer`)
    #[arg(long)]
    pub yaml: bool,
    /// With --yaml: also print the keys upstream LLVM prints for ILDB, ILDN, VERS, SRCI and PRIV
    #[arg(long)]
    pub upstream_keys: bool,
    /// Check the digest, HASH, structure and every part; exit 1 when anything is wrong
    #[arg(long)]
    pub verify: bool,
    /// With --verify: also check every resource binding (PSV0's, else RDEF's) against the root signature in FILE (a container holding RTS0, or bare RTS0 data): register type, space, range and visibility, one line per binding not covered; a warning when the container records no bindings
    #[arg(long = "root-signature", value_name = "FILE")]
    pub root_signature: Option<PathBuf>,
    /// With --verify: print only warnings, errors and the summary line
    #[arg(short, long)]
    pub quiet: bool,
    /// With --verify: notes fail too (an unknown part, an unsigned or unaligned container): exit 1 unless nothing at all is found
    #[arg(long)]
    pub strict: bool,
    /// Hex dump of the parts named NAME (four bytes; `\xNN` stands for any byte)
    #[arg(long, value_name = "NAME")]
    pub hex: Option<String>,
    /// Write every part to DIR as NN-NAME.bin (a subdirectory per file when several)
    #[arg(long, value_name = "DIR")]
    pub dump_all: Option<PathBuf>,
    /// Disassemble: DXBC programs (SHDR/SHEX) as the listing Microsoft's disassembler writes; DXIL or ILDB (default: ILDB when present, as dxc) as the listing of the dxc release that wrote the file (`dxc -dumpbin`: comment header, then the module as LLVM 3.7 prints it), nothing installed needed
    #[arg(
        long,
        value_name = "PART",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = ""
    )]
    pub disasm: Option<String>,
    /// DXBC listings: how float immediates round at their last digit, as the C runtime of the Windows that ran Microsoft's disassembler did: `current` (Windows 10 version 2004 and later: exact value, ties to even, 0.0078125 → 0.007812) or `legacy` (earlier: 17 significant digits, ties away from zero, 0.007813)
    #[arg(long, value_name = "RULE", value_enum, default_value_t = Rounding::Current)]
    pub disasm_rounding: Rounding,
    /// Print the layout of release RELEASE instead of the one the file names: for DXBC an fxc release (9.29, 9.30, 6.3, 10.0.10011 or 10.1; RDEF's creator, else 10.1), for DXIL a dxc release (1.N, 1.N.yymm or 1.N.yymm.patch; VERS, llvm.ident and dx.valver, else the newest)
    #[arg(long, value_name = "RELEASE", value_parser = parse_release)]
    pub disasm_format: Option<ListingFormat>,
    /// Listings: colour instructions, registers, literals and comments with ANSI escapes: `auto` (default: when standard output is a terminal and NO_COLOR is unset or empty), `always` or `never`
    #[arg(long, value_name = "WHEN", value_enum, conflicts_with = "disasm_html")]
    pub color: Option<ColorWhen>,
    /// Disassemble (as --disasm) into a colour-coded HTML page, as fxc's /Cc (D3D_DISASM_ENABLE_COLOR_CODE) asks for; DXIL in the same style (dxc writes no HTML for DXIL); several FILEs make one page
    #[arg(long)]
    pub disasm_html: bool,
    #[allow(missing_docs)] // flattened: its fields carry the help text
    #[command(flatten)]
    pub disasm_flags: DisasmFlagArgs,
    /// Shader reflection (docs/reflection.md): what ID3D12ShaderReflection / ID3D12LibraryReflection report, as JSON (D3D12 field names in snake_case, D3D constant names), from RDEF, STAT, the signatures and SHEX (DXBC) or PSV0, RDAT and the signatures (DXIL); its `notes` name what the container does not record
    #[arg(long)]
    pub reflect: bool,
    /// With --reflect: the layout of dxc's D3DReflectionDumper (`dxa -dumpreflection`) instead of JSON; the notes go to stderr
    #[arg(long)]
    pub text: bool,
    /// DXIL and ILDB: disassemble with TOOL instead: `llvm-dis`, an installed llvm-dis 17+ ($LLVM_DIS, llvm-dis, llvm-dis-NN, /usr/lib/llvm-NN/bin) printing LLVM's current syntax, stopped after 60 s ($LLVM_DIS_TIMEOUT seconds, 0 for no limit)
    #[arg(long, value_name = "TOOL", value_enum)]
    pub disasm_with: Option<DisasmTool>,
    /// Text, JSON and --verify views: do not read the LLVM module facts of DXIL, ILDB and STAT bitcode (no Module block, no JSON decoded.module)
    #[arg(long)]
    pub no_module_facts: bool,
    /// Text view: also print the source files stored in SRCI parts
    #[arg(long)]
    pub sources: bool,
    /// Compare two containers (or two folders, matched by relative path) by meaning: parts added, removed, resized, decoded fields, the DXBC listing; what only a rebuild changes (digest, HASH, ILDN, offsets) is left out. Exit 0 when equal, 1 when different, 2 on trouble
    #[arg(long)]
    pub diff: bool,
    /// With --diff: also report what only a rebuild changes (digest, HASH, ILDN, part offsets and checksums)
    #[arg(long)]
    pub exact: bool,
    /// Where the bytes go across FILEs and folders (walked): per part name the count, bytes and share, the largest files, the bytes dxstrip --strip-debug would remove; a progress bar on a terminal
    #[arg(long)]
    pub stats: bool,
    /// With --stats: worker threads (default: two per core)
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Find every container inside FILEs of any kind (executables, archives, dumps), at any byte offset and inside zip members and gzip streams; verify each; one line per container (docs/scan.md)
    #[arg(long)]
    pub scan: bool,
    /// With --scan: also list each `DXBC` found that is no container, with the reason
    #[arg(long)]
    pub scan_all: bool,
    /// With --scan: write each distinct container once to DIR as HASH.dxil / HASH.dxbc (HASH: its shader hash), with manifest.tsv and manifest.json (docs/scan.md)
    #[arg(long, value_name = "DIR")]
    pub scan_extract: Option<PathBuf>,
    /// With --scan (and --rows): the largest inflated size of a zip member or gzip stream that is scanned, in bytes (default 256 MiB); a larger one is reported
    #[arg(long, value_name = "BYTES")]
    pub scan_limit: Option<u64>,
    /// One flat row per container (docs/rows.md): `csv` or `jsonl`; with --scan, over the containers found
    #[arg(long, value_name = "FORMAT", value_enum)]
    pub rows: Option<RowsFormat>,
    /// With --scan and --rows: walk the folders given, recursively
    #[arg(short = 'r', long, requires = "carving")]
    pub recursive: bool,
}

/// `--rows` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RowsFormat {
    /// Comma-separated, with a header line
    Csv,
    /// One JSON object per line
    Jsonl,
}

/// The text view's name in [`MODIFIERS`]: the view no flag picks.
const TEXT: &str = "";

/// The flags that pick a view (by clap id), each with the view flags it
/// combines with: `--json --verify` is the JSON view with the verdict in
/// its exit status. Any other two are refused (see [`view_rules`]).
const VIEW_FLAGS: &[(&str, &[&str])] = &[
    ("parts", &[]),
    ("json", &["verify", "diff", "stats", "scan"]),
    ("yaml", &[]),
    ("hex", &[]),
    ("dump_all", &[]),
    ("disasm", &["disasm_html"]),
    ("disasm_html", &["disasm"]),
    ("verify", &["json"]),
    ("reflect", &[]),
    ("diff", &["json"]),
    ("stats", &["json"]),
    ("scan", &["json", "rows"]),
    ("rows", &["scan"]),
];

/// The flags that modify a view, each with the views it works in
/// ([`TEXT`] or a flag of [`VIEW_FLAGS`]). A modifier is refused beside
/// any other view flag, and one that does not work in the text view needs
/// its view's flag (see [`view_rules`]); [`View::of`] reads each into its
/// view.
const MODIFIERS: &[(&str, &[&str])] = &[
    ("sources", &[TEXT]),
    ("no_module_facts", &[TEXT, "json", "verify"]),
    ("upstream_keys", &["yaml"]),
    ("quiet", &["verify"]),
    ("strict", &["verify"]),
    ("root_signature", &["verify"]),
    ("disasm_rounding", &["disasm", "disasm_html"]),
    ("disasm_format", &["disasm", "disasm_html"]),
    ("color", &["disasm"]),
    ("disasm_numbers", &["disasm", "disasm_html"]),
    ("disasm_offsets", &["disasm", "disasm_html"]),
    ("disasm_hex", &["disasm", "disasm_html"]),
    ("disasm_no_debug_info", &["disasm", "disasm_html"]),
    ("disasm_instruction_only", &["disasm", "disasm_html"]),
    ("disasm_instruction_cycle", &["disasm", "disasm_html"]),
    ("text", &["reflect"]),
    ("disasm_with", &["disasm"]),
    ("exact", &["diff"]),
    ("jobs", &["stats"]),
    ("scan_all", &["scan"]),
    ("scan_extract", &["scan"]),
    ("scan_limit", &["scan"]),
    ("recursive", &["scan", "rows"]),
];

/// View flags that keep their view when `--json` comes with them: `--diff
/// --json` is the diff view printed as JSON, so the diff's modifiers
/// (`--exact`) go with `--json` there.
const JSON_FORMS: &[&str] = &["diff", "stats", "scan"];

/// Modifiers that, beside their view's flag, also go with a view flag
/// combined with it: `--scan --rows --scan-limit` surveys what a scan with
/// that limit finds (the modifier still needs `--scan`).
const ALSO_WITH: &[(&str, &str)] = &[("scan_limit", "rows")];

/// The clap rules of the view and modifier flags, from [`VIEW_FLAGS`] and
/// [`MODIFIERS`] (applied to every argument of [`Opts`]).
fn view_rules(arg: clap::Arg) -> clap::Arg {
    let flags = || VIEW_FLAGS.iter().map(|(flag, _)| *flag);
    let id = arg.get_id().as_str().to_string();
    if let Some((_, with)) = VIEW_FLAGS.iter().find(|(flag, _)| *flag == id) {
        let others = flags().filter(|f| *f != id && !with.contains(f));
        return arg.conflicts_with_all(others);
    }
    if let Some((_, views)) = MODIFIERS.iter().find(|(flag, _)| *flag == id) {
        let json_form = views.iter().any(|v| JSON_FORMS.contains(v));
        let also = |f: &str| ALSO_WITH.contains(&(id.as_str(), f));
        let allowed = |f: &str| views.contains(&f) || (json_form && f == "json") || also(f);
        let arg = arg.conflicts_with_all(flags().filter(|f| !allowed(f)));
        return match views {
            [view] if *view != TEXT => arg.requires(*view),
            ["disasm", "disasm_html"] => arg.requires("listing"),
            _ => arg,
        };
    }
    arg
}

/// What dxinfo shows of each file: one view with its modifiers, resolved
/// once from the flags by [`View::of`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View {
    /// No view flag: header, parts table and every part decoded.
    Text {
        /// `--sources`: also the SRCI source files.
        sources: bool,
        /// Not `--no-module-facts`.
        module_facts: bool,
    },
    /// `--parts`: one line per part.
    Parts,
    /// `--json`.
    Json {
        /// `--verify` too: the exit status is the verdict.
        verify: bool,
        /// Not `--no-module-facts`.
        module_facts: bool,
    },
    /// `--yaml`.
    Yaml {
        /// `--upstream-keys`.
        upstream_keys: bool,
    },
    /// `--hex=NAME`.
    Hex(PartName),
    /// `--dump-all=DIR`.
    DumpAll(PathBuf),
    /// `--disasm[=PART]`.
    Disasm {
        /// The part asked for (`None`: the default one).
        part: Option<PartName>,
        /// `--disasm-rounding`.
        rounding: Rounding,
        /// `--disasm-format`.
        release: Option<ListingFormat>,
        /// `--disasm-numbers`, `--disasm-offsets`, `--disasm-hex`, …
        flags: DisasmFlags,
        /// `--disasm-with`.
        tool: Option<DisasmTool>,
        /// `--color` or `--disasm-html`.
        markup: ListingMarkup,
    },
    /// `--reflect`.
    Reflect {
        /// `--text`: dxc's reflection-dump layout instead of JSON.
        text: bool,
    },
    /// `--diff A B`.
    Diff {
        /// `--exact`.
        exact: bool,
        /// `--json`.
        json: bool,
    },
    /// `--stats FILE...`.
    Stats {
        /// `--json`.
        json: bool,
        /// `-j N`.
        jobs: Option<usize>,
    },
    /// `--scan` and `--rows`: carving and the survey (`cmd/dxinfo/scan.rs`).
    Scan,
    /// `--verify`.
    Verify {
        /// `--quiet`.
        quiet: bool,
        /// `--strict`: notes fail too.
        strict: bool,
        /// `--root-signature=FILE`.
        root_signature: Option<PathBuf>,
        /// Not `--no-module-facts`.
        module_facts: bool,
    },
}

impl View {
    /// The view `opts` ask for (clap's `view_rules` already refused
    /// flags that do not go together); `Err` is the message of a part name
    /// that is not four bytes.
    pub fn of(opts: &Opts) -> Result<View, String> {
        let module_facts = !opts.no_module_facts;
        let part = |option: &str, text: &str, hint: &str| {
            parse_part_name(text)
                .ok_or_else(|| format!("{option}: '{text}' is not a four-byte part name{hint}"))
        };
        Ok(if opts.diff {
            View::Diff {
                exact: opts.exact,
                json: opts.json,
            }
        } else if opts.scan || opts.rows.is_some() {
            View::Scan
        } else if opts.stats {
            View::Stats {
                json: opts.json,
                jobs: opts.jobs,
            }
        } else if let Some(text) = &opts.hex {
            View::Hex(part("--hex", text, " (use \\xNN for other bytes)")?)
        } else if opts.disasm.is_some() || opts.disasm_html {
            View::Disasm {
                part: match opts.disasm.as_deref().unwrap_or_default() {
                    "" => None,
                    text => Some(part("--disasm", text, "")?),
                },
                rounding: opts.disasm_rounding,
                release: opts.disasm_format,
                flags: opts.disasm_flags.flags(),
                tool: opts.disasm_with,
                markup: match opts.color {
                    _ if opts.disasm_html => ListingMarkup::Html,
                    Some(when) => ListingMarkup::Color(when),
                    None => ListingMarkup::default(),
                },
            }
        } else if opts.parts {
            View::Parts
        } else if opts.yaml {
            View::Yaml {
                upstream_keys: opts.upstream_keys,
            }
        } else if let Some(dir) = &opts.dump_all {
            View::DumpAll(dir.clone())
        } else if opts.reflect {
            View::Reflect { text: opts.text }
        } else if opts.json {
            View::Json {
                verify: opts.verify,
                module_facts,
            }
        } else if opts.verify {
            View::Verify {
                quiet: opts.quiet,
                strict: opts.strict,
                root_signature: opts.root_signature.clone(),
                module_facts,
            }
        } else {
            View::Text {
                sources: opts.sources,
                module_facts,
            }
        })
    }
}

/// `--disasm-with` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DisasmTool {
    /// An installed llvm-dis 17+: LLVM's current syntax
    LlvmDis,
}

/// Where output and diagnostics go.
pub struct Io<'a> {
    /// Standard output.
    pub out: &'a mut dyn Write,
    /// Standard error.
    pub err: &'a mut dyn Write,
    /// Colour diagnostics.
    pub color: bool,
    /// Standard output wants colour by itself (a terminal, no non-empty
    /// `NO_COLOR`): `--color=auto` colours listings.
    pub stdout_color: bool,
}

impl Io<'_> {
    /// An error line on `err`.
    pub fn error(&mut self, message: &str) {
        self.diagnostic(cli::Severity::Error, message);
    }

    fn note(&mut self, message: &str) {
        self.diagnostic(cli::Severity::Note, message);
    }

    /// A diagnostic line on `err`; a failed write makes the exit status 1.
    fn diagnostic(&mut self, level: cli::Severity, message: &str) {
        let line = cli::diagnostic("dxinfo", level, message, self.color);
        let written = writeln!(self.err, "{line}").and_then(|()| self.err.flush());
        cli::note_stderr_result(written);
    }
}

/// Parses `args` (program name first), after expanding `@FILE` response
/// files: usage errors are `Err((text, 1))`, help and version `Err((text, 0))`.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Opts, (String, i32)> {
    let args = crate::args::expand(args.into_iter().collect()).map_err(|e| {
        (
            format!(
                "{}\n",
                cli::diagnostic("dxinfo", cli::Severity::Error, &e.to_string(), false)
            ),
            1,
        )
    })?;
    Opts::try_parse_from(args).map_err(|e| {
        let code = if e.use_stderr() { 1 } else { 0 };
        (e.render().to_string(), code)
    })
}

/// Runs the command with the process arguments and exits.
pub fn main() {
    let opts = match parse(std::env::args_os()) {
        Ok(o) => o,
        Err((text, code)) => {
            let stream = if code == 0 {
                cli::Stream::Stdout
            } else {
                cli::Stream::Stderr
            };
            cli::print_and_exit("dxinfo", stream, &text, code)
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut err = io::stderr();
    let code = run(
        &opts,
        &mut Io {
            out: &mut out,
            err: &mut err,
            color: cli::use_color(),
            stdout_color: cli::Stream::Stdout.wants_color(),
        },
    );
    let code = match out.flush() {
        Ok(()) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
        Err(e) => {
            cli::emit(
                "dxinfo",
                cli::Severity::Error,
                &format!("writing output: {e}"),
            );
            1
        }
    };
    cli::exit(code);
}

/// Runs dxinfo over every file; returns the exit status.
pub fn run(opts: &Opts, io: &mut Io<'_>) -> i32 {
    let view = match View::of(opts) {
        Ok(view) => view,
        Err(e) => {
            io.error(&e);
            return 1;
        }
    };
    let View::Disasm {
        markup: ListingMarkup::Html,
        ..
    } = view
    else {
        return run_view(opts, view, io);
    };
    // One page for every listing: each file's `<pre>` text goes into it.
    let title = match opts.files.as_slice() {
        [one] => one.display().to_string(),
        files => format!("{} files", files.len()),
    };
    let mut page = PageWriter::new(&mut *io.out, &title);
    let mut inner = Io {
        out: &mut page,
        err: &mut *io.err,
        color: io.color,
        stdout_color: io.stdout_color,
    };
    let status = run_view(opts, view, &mut inner);
    match page.finish() {
        Ok(_) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            io.error(&format!("writing output: {e}"));
            1
        }
    }
}

/// Runs `view` over every file; returns the exit status.
fn run_view(opts: &Opts, view: View, io: &mut Io<'_>) -> i32 {
    match &view {
        View::Diff { exact, json } => return compare::run_diff(opts, *exact, *json, io),
        View::Stats { json, jobs } => return compare::run_stats(opts, *json, *jobs, io),
        View::Scan => return scan::run(opts, io),
        _ => {}
    }
    let root_signature_path = match &view {
        View::Verify { root_signature, .. } => root_signature.as_ref(),
        _ => None,
    };
    // Standard input can be read once: refused before anything is read.
    let readers =
        (root_signature_path.iter()).map(|p| (Operation::VerifyRootSignature, p.as_path()));
    let readers = readers.chain(opts.files.iter().map(|p| (Operation::Input, p.as_path())));
    if let Err(e) = dxcopy_edit::batch::check_stdin_once(readers) {
        io.error(&cli::error_message(&e));
        return 1;
    }
    let root_signature = match root_signature_path {
        Some(path) => {
            let decoded = read_data_file(path, Operation::VerifyRootSignature)
                .map_err(|e| cli::error_message(&e))
                .and_then(|bytes| {
                    read_root_signature_file(&bytes)
                        .map(|f| f.signature)
                        .map_err(|e| {
                            format!("'{}': not a valid root signature: {e}", path.display())
                        })
                });
            match decoded {
                Ok(rs) => Some((path.clone(), rs)),
                Err(e) => {
                    io.error(&e);
                    return 1;
                }
            }
        }
        None => None,
    };
    let mut status = 0;
    // Each container shown, counting the arrays of C headers one by one.
    let mut index = 0;
    for path in &opts.files {
        let file_shown = path.display().to_string();
        let bytes = match MappedFile::open(path) {
            Ok(b) => b,
            Err(e) => {
                io.error(&format!("'{file_shown}': {e}"));
                status = 1;
                continue;
            }
        };
        // A C header: each array's container, shown as FILE:ARRAY.
        let entries = match header_entries(&bytes, &file_shown) {
            Ok(entries) => entries,
            Err(e) => {
                io.error(&format!("'{file_shown}': {e}"));
                status = 1;
                continue;
            }
        };
        let many = opts.files.len() > 1 || entries.len() > 1;
        for (shown, data) in &entries {
            let (shown, data) = (shown.clone(), &data[..]);
            index += 1;
            let index = index - 1;
            let input = match container_input(data) {
                Ok(i) => i,
                Err(e) => {
                    io.error(&format!("'{shown}': {e}"));
                    status = 1;
                    continue;
                }
            };
            let pdb_info = match &input.source {
                ContainerSource::PdbStream5 { info } => Some(*info),
                ContainerSource::Container => None,
            };
            let container = match Container::parse(&input.bytes) {
                Ok(c) => c,
                Err(e) => {
                    io.error(&format!("'{shown}': {e}"));
                    status = 1;
                    continue;
                }
            };
            let inspect = |module_facts| {
                let insp = Inspection::with_module_facts(container, module_facts);
                match pdb_info {
                    Some(info) => insp.from_pdb(info),
                    None => insp,
                }
            };
            let result = match &view {
                View::Text {
                    sources,
                    module_facts,
                } => show_text(io, &shown, &inspect(*module_facts), index, *sources),
                View::Parts => show_parts(io, &shown, &container, many),
                View::Json {
                    verify,
                    module_facts,
                } => show_json(io, &shown, &inspect(*module_facts), many, *verify),
                View::Yaml { upstream_keys } => show_yaml(io, &shown, &container, *upstream_keys),
                View::Hex(name) => show_hex(io, &shown, &container, *name, many),
                View::DumpAll(dir) => {
                    let dumped = if many {
                        dump_all_per_file(dir, index, path, &container, Some(path))
                    } else {
                        dump_all(dir, &container, Some(path))
                    };
                    show_dump(io, &shown, dumped)
                }
                View::Reflect { text } => show_reflect(io, &shown, &container, index, many, *text),
                View::Disasm {
                    part,
                    rounding,
                    release,
                    flags,
                    tool,
                    markup,
                } => {
                    let options =
                        rounding.listing_options(release.and_then(ListingFormat::fxc), *flags);
                    let dxc = release.and_then(ListingFormat::dxc);
                    let style = markup.style(io.stdout_color);
                    let (part, tool) = (*part, *tool);
                    show_disasm(
                        io, &shown, &container, part, &options, dxc, tool, many, style,
                    )
                }
                // Run over the whole file list before this loop.
                View::Diff { .. } | View::Stats { .. } | View::Scan => Ok(true),
                View::Verify {
                    quiet,
                    strict,
                    module_facts,
                    ..
                } => {
                    let external = root_signature
                        .as_ref()
                        .map(|(path, rs)| (path.as_path(), rs));
                    let how = VerifyOutput {
                        quiet: *quiet,
                        strict: *strict,
                    };
                    show_verify(io, &shown, &inspect(*module_facts), how, external)
                }
            };
            match result {
                Ok(true) => {}
                Ok(false) => status = 1,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return status,
                Err(e) => {
                    io.error(&format!("writing output: {e}"));
                    return 1;
                }
            }
        }
        // A file truncated or rewritten while it was read: what was shown
        // of it may be wrong.
        if let Some(change) = bytes.changed() {
            io.error(&format!("'{file_shown}': {change}"));
            status = 1;
        }
    }
    status
}

/// One container to show: its name and bytes.
type Entry<'a> = (String, std::borrow::Cow<'a, [u8]>);

/// The containers of one input: the input itself, or, for a C header
/// (`fxc /Fh`, `dxc -Fh`), each array's bytes named `FILE:ARRAY`. `Err` is
/// the message of a header that does not read (naming its line) or holds
/// no array.
fn header_entries<'a>(bytes: &'a [u8], shown: &str) -> Result<Vec<Entry<'a>>, String> {
    if !dxcopy_edit::header_run::is_header_input(bytes) {
        return Ok(vec![(shown.to_owned(), std::borrow::Cow::Borrowed(bytes))]);
    }
    let found = dxcopy_read::c_header::arrays(bytes).map_err(|e| e.to_string())?;
    if found.is_empty() {
        return Err(dxcopy_edit::EditError::NoArrays.to_string());
    }
    Ok(found
        .into_iter()
        .map(|a| {
            (
                format!("{shown}:{}", a.name),
                std::borrow::Cow::Owned(a.bytes),
            )
        })
        .collect())
}

/// `Ok(true)` when the file passed, `Ok(false)` when it failed (already
/// reported), `Err` for output errors.
type Shown = io::Result<bool>;

fn show_parts(io: &mut Io<'_>, shown: &str, c: &Container<'_>, many: bool) -> Shown {
    if many {
        writeln!(io.out, "{shown}:")?;
    }
    write_parts(io.out, c)?;
    Ok(true)
}

/// `--disasm[=PART]`: DXIL and ILDB as dxc's listing (or through llvm-dis
/// with `--disasm-with=llvm-dis`), SHDR/SHEX (and containers without
/// bitcode) through the built-in DXBC listing.
#[allow(clippy::too_many_arguments)]
fn show_disasm(
    io: &mut Io<'_>,
    shown: &str,
    c: &Container<'_>,
    requested: Option<PartName>,
    options: &dxbc::ListingOptions,
    dxc: Option<DxcRelease>,
    tool: Option<DisasmTool>,
    many: bool,
    style: Option<Style>,
) -> Shown {
    use dxcopy_edit::llvm_dis::{
        disasm_target, disassemble_to, find_llvm_dis, timeout_from, DisasmTarget, TIMEOUT_ENV,
    };
    let wants_bitcode = match requested {
        Some(name) => name == PartName::DXIL || name == PartName::ILDB,
        None => c.find(PartName::DXIL).is_some() || c.find(PartName::ILDB).is_some(),
    };
    if wants_bitcode && tool.is_none() {
        let dxil = DxilListingOptions {
            part: requested,
            release: dxc,
            flags: options.flags,
        };
        return show_dxil_listing(io, shown, c, &dxil, many, style);
    }
    if !wants_bitcode {
        if let Some(name) = requested {
            // SHEX/SHDR are checked by disasm_target; anything else is refused there.
            if let Err(e) = disasm_target(c, Some(name)) {
                io.error(&format!("'{shown}': {}", cli::error_message(&e)));
                return Ok(false);
            }
        }
        return show_listing(io, shown, c, options, many, style);
    }
    let bitcode = match disasm_target(c, requested) {
        Ok(DisasmTarget::Bitcode { bitcode, .. }) => bitcode,
        Ok(DisasmTarget::Dxbc { .. }) => return show_listing(io, shown, c, options, many, style),
        Err(e) => {
            io.error(&format!("'{shown}': {}", cli::error_message(&e)));
            return Ok(false);
        }
    };
    // llvm-dis prints its own listing: the D3D_DISASM flags are not applied there.
    if let Some(flag) = options.flags.set().next() {
        io.error(&format!(
            "'{shown}': {} does not go with --disasm-with=llvm-dis (llvm-dis prints the module in its own layout)",
            flag.option()
        ));
        return Ok(false);
    }
    let Some(tool) = find_llvm_dis(std::env::var_os("LLVM_DIS"), std::env::var_os("PATH")) else {
        io.error(&dxcopy_edit::llvm_dis::DisasmError::NotFound.to_string());
        return Ok(false);
    };
    let timeout = match timeout_from(std::env::var_os(TIMEOUT_ENV).as_deref()) {
        Ok(timeout) => timeout,
        Err(e) => {
            io.error(&e.to_string());
            return Ok(false);
        }
    };
    // Streamed: a failure after some output still says so, and exits 1.
    let streamed = match style {
        None => {
            if many {
                writeln!(io.out, "{shown}:")?;
            }
            disassemble_to(&tool, &bitcode, timeout, &mut io.out)
        }
        Some(style) => {
            let mut marked = MarkupWriter::new(&mut io.out, style, Dialect::Dxil);
            if many {
                marked.write_plain_line(format!("{shown}:").as_bytes())?;
            }
            let streamed = disassemble_to(&tool, &bitcode, timeout, &mut marked);
            marked.finish()?;
            streamed
        }
    };
    match streamed {
        Ok(()) => Ok(true),
        Err(dxcopy_edit::llvm_dis::DisasmError::Output(e)) => Err(e),
        Err(e) => {
            io.error(&format!("'{shown}': {e}"));
            Ok(false)
        }
    }
}

/// dxc's listing of a DXIL container, written only once it is whole: a
/// listing that fails (a module that does not read, a header or module
/// text past its work budget, types nested too deep) prints nothing on
/// standard output, only the error (exit 1).
fn show_dxil_listing(
    io: &mut Io<'_>,
    shown: &str,
    c: &Container<'_>,
    options: &DxilListingOptions,
    many: bool,
    style: Option<Style>,
) -> Shown {
    let mut listing = Vec::new();
    match write_container_listing_to(c, options, &mut listing)? {
        Ok(()) => {
            match style {
                None => {
                    if many {
                        writeln!(io.out, "{shown}:")?;
                    }
                    io.out.write_all(&listing)?;
                }
                Some(style) => {
                    let mut marked = MarkupWriter::new(&mut io.out, style, Dialect::Dxil);
                    if many {
                        marked.write_plain_line(format!("{shown}:").as_bytes())?;
                    }
                    marked.write_all(&listing)?;
                    marked.finish()?;
                }
            }
            Ok(true)
        }
        Err(e) => {
            io.error(&format!("'{shown}': {e}"));
            Ok(false)
        }
    }
}

/// The built-in listing of a DXBC program (SHDR/SHEX), written to stdout
/// as it is made.
fn show_listing(
    io: &mut Io<'_>,
    shown: &str,
    c: &Container<'_>,
    options: &dxbc::ListingOptions,
    many: bool,
    style: Option<Style>,
) -> Shown {
    let generator = format!("dxinfo {}", crate::VERSION);
    let file_line = dxbc::shader_part(c).is_some() && many;
    let written = match style {
        None => {
            if file_line {
                writeln!(io.out, "{shown}:")?;
            }
            dxbc::write_listing(c, &generator, options, &mut io.out)?
        }
        Some(style) => {
            let mut marked = MarkupWriter::new(&mut io.out, style, Dialect::Dxbc);
            if file_line {
                marked.write_plain_line(format!("{shown}:").as_bytes())?;
            }
            let written = dxbc::write_listing(c, &generator, options, &mut marked)?;
            marked.finish()?;
            written
        }
    };
    match written {
        Ok(errors) => {
            for e in &errors {
                io.error(&format!("'{shown}': {e}"));
            }
            Ok(errors.is_empty())
        }
        Err(e @ (DisasmError::DxilOnly | DisasmError::NoShaderPart)) => {
            let hint = match dxcopy_edit::llvm_dis::disasm_alternative(c) {
                Some(part) => format!("; it holds a debug module: use --disasm={part}"),
                None => String::new(),
            };
            io.note(&format!("'{shown}': no DXBC listing: {e}{hint}"));
            Ok(true)
        }
        Err(e) => {
            io.error(&format!("'{shown}': {e}"));
            Ok(false)
        }
    }
}

fn show_yaml(io: &mut Io<'_>, shown: &str, c: &Container<'_>, upstream_keys: bool) -> Shown {
    match to_obj2yaml(c, &YamlOptions { upstream_keys }) {
        Ok(text) => {
            io.out.write_all(text.as_bytes())?;
            Ok(true)
        }
        Err(e) => {
            io.error(&format!("'{shown}': {e}"));
            Ok(false)
        }
    }
}

fn show_text(
    io: &mut Io<'_>,
    shown: &str,
    insp: &Inspection<'_>,
    index: usize,
    sources: bool,
) -> Shown {
    if index > 0 {
        writeln!(io.out)?;
    }
    write_text(io.out, shown, insp, TextOptions { sources })?;
    Ok(true)
}

fn show_json(
    io: &mut Io<'_>,
    shown: &str,
    insp: &Inspection<'_>,
    many: bool,
    verify: bool,
) -> Shown {
    let doc = document(shown, insp);
    write_json(io.out, &doc, !many)?;
    Ok(!verify || doc.verify.clean)
}

/// `--reflect [--text]`: the library's reflection as JSON or in dxc's
/// dump layout; its notes on stderr.
fn show_reflect(
    io: &mut Io<'_>,
    shown: &str,
    c: &Container<'_>,
    index: usize,
    many: bool,
    text: bool,
) -> Shown {
    let reflection = match Reflection::from_container(c) {
        Ok(r) => r,
        Err(e) => {
            io.error(&format!("'{shown}': {e}"));
            return Ok(false);
        }
    };
    if text {
        if many {
            if index > 0 {
                writeln!(io.out)?;
            }
            writeln!(io.out, "{shown}:")?;
        }
        io.out
            .write_all(reflect::text::to_text(&reflection).as_bytes())?;
        // The JSON holds the notes; the text layout has no place for them.
        for note in &reflection.notes {
            io.note(&format!("'{shown}': {note}"));
        }
    } else {
        reflect::write_json(io.out, shown, &reflection, !many)?;
    }
    Ok(true)
}

/// How `--verify` reports: `--quiet`, `--strict`.
#[derive(Debug, Clone, Copy)]
struct VerifyOutput {
    quiet: bool,
    strict: bool,
}

fn show_verify(
    io: &mut Io<'_>,
    shown: &str,
    insp: &Inspection<'_>,
    how: VerifyOutput,
    root_signature: Option<(&Path, &RootSignature)>,
) -> Shown {
    let VerifyOutput { quiet, strict } = how;
    let mut v = verify(insp);
    if let Some((path, rs)) = root_signature {
        let what = format!("root signature '{}'", path.display());
        v.checks.extend(coverage_checks(
            &insp.container,
            CheckAgainst::External(rs),
            &what,
        ));
    }
    for check in &v.checks {
        match check.severity() {
            // Under --strict a note fails the container: said as an error.
            Severity::Note if strict => writeln!(io.out, "{shown}: error: {check} [--strict]")?,
            Severity::Note if quiet => {}
            severity => writeln!(io.out, "{shown}: {severity}: {check}")?,
        }
    }
    writeln!(
        io.out,
        "{shown}: {}",
        v.summary_with(insp.parts.len(), strict)
    )?;
    Ok(v.passes(strict))
}

fn show_hex(io: &mut Io<'_>, shown: &str, c: &Container<'_>, name: PartName, many: bool) -> Shown {
    let mut found = false;
    for p in c.parts().filter(|p| p.name == name) {
        if many {
            write!(io.out, "{shown}: ")?;
        }
        writeln!(
            io.out,
            "part {} '{}': {} bytes at offset {:#x}",
            p.index,
            p.name,
            p.size(),
            p.data_offset()
        )?;
        write_hex(io.out, p.data, p.data_offset())?;
        found = true;
    }
    if !found {
        io.error(&format!("'{shown}': part '{name}' not found"));
    }
    Ok(found)
}

fn show_dump(
    io: &mut Io<'_>,
    shown: &str,
    dumped: dxcopy_edit::Result<Vec<dxcopy_edit::Dumped>>,
) -> Shown {
    match dumped {
        Ok(written) => {
            for d in written {
                writeln!(io.out, "{}: {} bytes", d.path.display(), d.size)?;
            }
            Ok(true)
        }
        Err(e) => {
            io.error(&format!(
                "'{shown}': --dump-all: {}",
                cli::error_message(&e)
            ));
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests;
