//! The `dxcopy` command: llvm-objcopy for DirectX containers.

use crate::cli::{self, NameEqFile, StripArgs};
use crate::header_args::HeaderArgs;
use clap::Parser;
use dxcopy_edit::{Config, DumpMode, DumpSpec, Edits};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  dxcopy --dump-section=ILDB=shader.bc shader.dxil      dump the debug bitcode (input untouched)
  dxcopy --dump-section-raw=PSV0=psv0.bin shader.dxil   dump the exact part bytes
  dxcopy --strip-debug in.dxil out.dxil                 drop ILDB/SRCI…, re-sign, keep HASH
  dxcopy -R STAT -R 'PRIV' shader.dxil                  remove parts in place
  dxcopy --add-section=PRIV=blob.bin in.dxil out.dxil   add private data (last, unpadded)
  dxcopy --update-section=DXIL=new.bc in.dxil out.dxil  swap the bitcode, keep the program header
  dxcopy --extract-section=RTS0=rs.dxbc shader.dxil     write a one-part container
  cat in.dxil | dxcopy -j DXIL -j HASH - - > out.dxil   stdin to stdout
  dxcopy --split-debug=pdb/ in.dxil out.dxil            ILDB/SRCI to pdb/<hash>.pdb, ILDN names it
  dxcopy --split-debug=a.pdb --pdb-in-private in.dxil   also embed the PDB in PRIV
  dxcopy --add-debug-from=a.pdb out.dxil full.dxil      put the debug info back (checked)
  dxcopy --extract-private-pdb=a.pdb shader.dxil        write the PDB held in PRIV
  dxcopy --add-debug-from=pdbs/ out.dxil full.dxil      find the PDB in pdbs/ as RenderDoc does
  dxcopy --set-root-signature=rs.dxbc in.dxil out.dxil  add or replace RTS0 (checked)
  dxcopy --set-renderdoc-debug-path=dbg/a.pdb a.dxil    tell RenderDoc where the debug info is
  dxcopy @args.rsp                                      arguments from a response file
  dxcopy --dump-bitcode=DXIL=s.bc s.dxil && llvm-dis s.bc   bitcode that LLVM 17+ reads
  dxcopy --strip-bitcode-names in.dxil out.dxil         drop struct/local/internal names
  dxcopy --dump-section=ILDB=dbg.bc shader.pdb          read-only options accept a PDB
  dxcopy --array=g_PS shaders.h ps.dxbc                 the container held in a C header's array
  dxcopy --output-format=header --array-name=g_main in.cso out.h   the header fxc /Fh writes
  dxcopy -g --listing shaders.inc                       strip a header's array in place, new listing
  dxcopy --extract-sources=src/ shader.dxil             the embedded source files, under src/";

/// Copy and edit DirectX containers (DXBC/DXIL), like llvm-objcopy.
///
/// Without OUTPUT the input is edited in place (safely: a temp file is renamed
/// over it), except when the options only read (dumps, extracts). `-` is
/// stdin / stdout. The digest and the HASH part are kept valid.
#[derive(Debug, Parser)]
#[command(name = "dxcopy", version = crate::VERSION, after_help = EXAMPLES)]
pub struct Opts {
    /// Input container (`-` for stdin), or a dxc companion PDB (its stream-5 container is used)
    pub input: PathBuf,
    /// Output container (`-` for stdout); default: edit the input in place
    pub output: Option<PathBuf>,
    /// Write the first part matching NAME to FILE (DXIL/ILDB/STAT: the raw bitcode)
    #[arg(long = "dump-section", value_name = "NAME=FILE", value_parser = NameEqFile)]
    pub dump: Vec<(String, PathBuf)>,
    /// Write the bitcode of the first DXIL/ILDB/STAT part matching NAME to FILE with its data layout fixed so that LLVM 17+ reads it (i8:32 → i8:08; nothing else changes)
    #[arg(long = "dump-bitcode", value_name = "NAME=FILE", value_parser = NameEqFile)]
    pub dump_bitcode: Vec<(String, PathBuf)>,
    /// Write the exact data of the first part matching NAME to FILE
    #[arg(long = "dump-section-raw", value_name = "NAME=FILE", value_parser = NameEqFile)]
    pub dump_raw: Vec<(String, PathBuf)>,
    /// Write a one-part container holding the first part matching NAME to FILE
    #[arg(long = "extract-section", value_name = "NAME=FILE", value_parser = NameEqFile)]
    pub extract: Vec<(String, PathBuf)>,
    /// Keep only parts matching PATTERN (overrides -R; repeatable)
    #[arg(short = 'j', long = "only-section", value_name = "PATTERN")]
    pub only: Vec<String>,
    /// Add part NAME with the contents of FILE (error if it exists)
    #[arg(long = "add-section", value_name = "NAME=FILE", value_parser = NameEqFile)]
    pub add: Vec<(String, PathBuf)>,
    /// Replace part NAME with FILE (raw bitcode for DXIL/ILDB keeps the program header)
    #[arg(long = "update-section", value_name = "NAME=FILE", value_parser = NameEqFile)]
    pub update: Vec<(String, PathBuf)>,
    /// Add or replace the PRIV part with FILE (last, unpadded)
    #[arg(long = "set-private", value_name = "FILE")]
    pub set_private: Option<PathBuf>,
    /// Move ILDB, SRCI and PDBI into a companion PDB at PATH, named in ILDN (PATH ending in / or \ means HASH.pdb in that directory, created when missing; HASH = the 32 hex digits of the HASH part)
    #[arg(long = "split-debug", value_name = "PATH", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub split_debug: Option<String>,
    /// Split the debug info off into a PDB and embed it as the PRIV part (last, unpadded)
    #[arg(long = "pdb-in-private")]
    pub pdb_in_private: bool,
    /// Write the PDB held in the PRIV part to FILE (checks the MSF magic)
    #[arg(long = "extract-private-pdb", value_name = "FILE")]
    pub extract_private_pdb: Option<PathBuf>,
    /// Put ILDB, SRCI and PDBI from PDB (a .pdb or its stream-5 container) back, after checking it belongs to the shader; given a directory, find the file there as RenderDoc does (the ILDN name, then with leading directories dropped one by one, then HASH.pdb; never outside the directory)
    #[arg(long = "add-debug-from", value_name = "PDB|DIR")]
    pub add_debug_from: Option<PathBuf>,
    /// With --add-debug-from: add the debug info even when the PDB does not match the shader
    #[arg(long, requires = "add_debug_from")]
    pub force: bool,
    /// Set the ILDN part: the debug name (companion PDB file name) debuggers look for
    #[arg(long = "set-debug-name", value_name = "NAME")]
    pub set_debug_name: Option<String>,
    /// Add or replace RTS0 from FILE: a root-signature container (fxc /Frs, dxc -extractrootsignature, --extract-section=RTS0) or bare RTS0 data; refused unless it decodes
    #[arg(long = "set-root-signature", value_name = "FILE")]
    pub set_root_signature: Option<PathBuf>,
    /// Write the PRIV part RenderDoc reads to find separate debug info at PATH (its GUID, then the path)
    #[arg(long = "set-renderdoc-debug-path", value_name = "PATH", conflicts_with_all = ["set_private", "pdb_in_private"])]
    pub set_renderdoc_debug_path: Option<String>,
    #[allow(missing_docs)] // flattened: its fields carry the help text
    #[command(flatten)]
    pub strip: StripArgs,
    #[allow(missing_docs)] // flattened: its fields carry the help text
    #[command(flatten)]
    pub headers: HeaderArgs,
    /// Write the source files held in SRCI (the container's, or the PDB's) below DIR under their recorded paths (never outside DIR: drive letters and leading separators dropped, `..` as `__`); prints the main file
    #[arg(long = "extract-sources", value_name = "DIR")]
    pub extract_sources: Option<PathBuf>,
    /// Do not print warnings
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

/// The run `opts` ask for. `opts` is taken apart whole, so an option added
/// to [`Opts`] and not used here does not compile.
fn config(opts: &Opts) -> Result<Config, String> {
    let Opts {
        input: _,
        output: _,
        dump,
        dump_bitcode,
        dump_raw,
        extract,
        only,
        add,
        update,
        set_private,
        split_debug,
        pdb_in_private,
        extract_private_pdb,
        add_debug_from,
        force,
        set_debug_name,
        set_root_signature,
        set_renderdoc_debug_path,
        strip,
        headers,
        extract_sources,
        quiet: _,
    } = opts;
    let mut c = Config::default();
    strip.apply(&mut c);
    let dumps = dump.iter().map(|d| (d, DumpMode::Bitcode));
    let raw = dump_raw.iter().map(|d| (d, DumpMode::Raw));
    let fixed = dump_bitcode.iter().map(|d| (d, DumpMode::FixedBitcode));
    c.dumps = dumps
        .chain(raw)
        .chain(fixed)
        .map(|((pattern, path), mode)| DumpSpec {
            pattern: pattern.clone(),
            path: path.clone(),
            mode,
        })
        .collect();
    c.extracts = extract.clone();
    c.extract_private_pdb = extract_private_pdb.clone();
    c.force = *force;
    c.edits = Edits {
        only: only.clone(),
        add: add.clone(),
        update: update.clone(),
        set_private: set_private.clone(),
        split_debug: split_debug.clone(),
        pdb_in_private: *pdb_in_private,
        add_debug_from: add_debug_from.clone(),
        set_debug_name: set_debug_name.clone(),
        set_root_signature: set_root_signature.clone(),
        set_renderdoc_debug_path: set_renderdoc_debug_path.clone(),
        // From `strip` (shared with dxstrip).
        ..c.edits
    };
    c.headers = headers.header_run()?;
    c.extract_sources = extract_sources.clone();
    Ok(c)
}

/// Runs the command with the process arguments and exits.
pub fn main() {
    let opts: Opts = cli::parse_or_exit("dxcopy");
    cli::clean_up_on_signals();
    let cfg = match config(&opts) {
        Ok(cfg) => cfg,
        Err(e) => {
            cli::emit("dxcopy", cli::Severity::Error, &e);
            cli::exit(1);
        }
    };
    match cfg.run(&opts.input, opts.output.as_deref()) {
        Ok(report) => {
            if !opts.quiet && report.input_is_pdb {
                cli::emit(
                    "dxcopy",
                    cli::Severity::Note,
                    &format!(
                        "'{}' is a PDB: working on the DXIL container in its stream 5",
                        opts.input.display()
                    ),
                );
            }
            if !opts.quiet {
                if let Some(sources) = &report.sources {
                    cli::emit(
                        "dxcopy",
                        cli::Severity::Note,
                        &format!(
                            "'{}': {}",
                            opts.input.display(),
                            cli::sources_message(sources)
                        ),
                    );
                }
                for note in &report.notes {
                    cli::emit(
                        "dxcopy",
                        cli::Severity::Note,
                        &format!("'{}': {note}", opts.input.display()),
                    );
                }
                let warnings = (report.option_warnings.iter())
                    .map(cli::option_warning_message)
                    .chain(report.warnings.iter().map(cli::warning_message));
                for w in warnings {
                    cli::emit(
                        "dxcopy",
                        cli::Severity::Warning,
                        &format!("'{}': {w}", opts.input.display()),
                    );
                }
            }
        }
        Err(e) => {
            cli::emit(
                "dxcopy",
                cli::Severity::Error,
                &cli::file_message(&opts.input, &e),
            );
            cli::exit(1);
        }
    }
    cli::exit(0);
}
