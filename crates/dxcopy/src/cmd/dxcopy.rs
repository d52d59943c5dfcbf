//! The `dxcopy` command: llvm-objcopy for DirectX containers.

use crate::cli::{self, name_eq_file, StripArgs};
use clap::Parser;
use dxcopy_edit::{Config, DumpMode, DumpSpec};
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
  cat in.dxil | dxcopy -j DXIL -j HASH - - > out.dxil   stdin to stdout";

/// Copy and edit DirectX containers (DXBC/DXIL), like llvm-objcopy.
///
/// Without OUTPUT the input is edited in place (safely: a temp file is renamed
/// over it), except when the options only read (dumps, extracts). `-` is
/// stdin / stdout. The digest and the HASH part are kept valid.
#[derive(Debug, Parser)]
#[command(name = "dxcopy", version = crate::VERSION, after_help = EXAMPLES)]
pub struct Opts {
    /// Input container (`-` for stdin)
    pub input: PathBuf,
    /// Output container (`-` for stdout); default: edit the input in place
    pub output: Option<PathBuf>,
    /// Write the first part matching NAME to FILE (DXIL/ILDB/STAT: the raw bitcode)
    #[arg(long = "dump-section", value_name = "NAME=FILE", value_parser = name_eq_file("--dump-section"))]
    pub dump: Vec<(String, PathBuf)>,
    /// Write the exact data of the first part matching NAME to FILE
    #[arg(long = "dump-section-raw", value_name = "NAME=FILE", value_parser = name_eq_file("--dump-section-raw"))]
    pub dump_raw: Vec<(String, PathBuf)>,
    /// Write a one-part container holding the first part matching NAME to FILE
    #[arg(long = "extract-section", value_name = "NAME=FILE", value_parser = name_eq_file("--extract-section"))]
    pub extract: Vec<(String, PathBuf)>,
    /// Keep only parts matching PATTERN (overrides -R; repeatable)
    #[arg(short = 'j', long = "only-section", value_name = "PATTERN")]
    pub only: Vec<String>,
    /// Add part NAME with the contents of FILE (error if it exists)
    #[arg(long = "add-section", value_name = "NAME=FILE", value_parser = name_eq_file("--add-section"))]
    pub add: Vec<(String, PathBuf)>,
    /// Replace part NAME with FILE (raw bitcode for DXIL/ILDB keeps the program header)
    #[arg(long = "update-section", value_name = "NAME=FILE", value_parser = name_eq_file("--update-section"))]
    pub update: Vec<(String, PathBuf)>,
    /// Add or replace the PRIV part with FILE (last, unpadded)
    #[arg(long = "set-private", value_name = "FILE")]
    pub set_private: Option<PathBuf>,
    #[allow(missing_docs)] // flattened: its fields carry the help text
    #[command(flatten)]
    pub strip: StripArgs,
    /// Do not print warnings
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

fn config(opts: &Opts) -> Config {
    let mut c = Config::default();
    opts.strip.apply(&mut c);
    let dumps = opts.dump.iter().map(|d| (d, DumpMode::Bitcode));
    let raw = opts.dump_raw.iter().map(|d| (d, DumpMode::Raw));
    c.dumps = dumps
        .chain(raw)
        .map(|((pattern, path), mode)| DumpSpec {
            pattern: pattern.clone(),
            path: path.clone(),
            mode,
        })
        .collect();
    c.extracts = opts.extract.clone();
    c.only = opts.only.clone();
    c.add = opts.add.clone();
    c.update = opts.update.clone();
    c.set_private = opts.set_private.clone();
    c
}

/// Runs the command with the process arguments and exits.
pub fn main() {
    let opts: Opts = cli::parse_or_exit("dxcopy");
    let cfg = config(&opts);
    match cfg.run(&opts.input, opts.output.as_deref()) {
        Ok(report) => {
            if !opts.quiet {
                for w in &report.warnings {
                    cli::emit(
                        "dxcopy",
                        cli::Level::Warning,
                        &format!("'{}': {w}", opts.input.display()),
                    );
                }
            }
        }
        Err(e) => {
            cli::emit(
                "dxcopy",
                cli::Level::Error,
                &cli::file_message(&opts.input, &e),
            );
            std::process::exit(1);
        }
    }
}
