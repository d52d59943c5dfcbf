//! Reads every DXIL, ILDB and STAT module of the containers named on the
//! command line into the typed model (`read`), or reads and writes each
//! back with the DXIL writer, checking that the bytes are the same
//! (`write`). `cargo xtask bench` times the two in one process each.
//!
//! ```text
//! cargo run --release -p dxcopy-edit --example dxil_write_bench -- write FILE...
//! ```

use dxcopy_edit::bitcode::write_module;
use dxcopy_read::dxil::Module;
use dxcopy_read::{Container, PartName, Program};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let write = match args.next().as_deref() {
        Some("read") => false,
        Some("write") => true,
        _ => {
            eprintln!("usage: dxil_write_bench read|write FILE...");
            return ExitCode::from(2);
        }
    };
    let (mut modules, mut bytes, mut different) = (0usize, 0usize, 0usize);
    for path in args {
        let data = match std::fs::read(&path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let Ok(container) = Container::parse(&data) else {
            continue;
        };
        for part in container.parts() {
            if ![PartName::DXIL, PartName::ILDB, PartName::STAT].contains(&part.name) {
                continue;
            }
            let Ok(program) = Program::parse(&part) else {
                continue;
            };
            if !program.has_bitcode_magic() {
                continue;
            }
            let Ok(module) = Module::parse(program.bitcode) else {
                continue;
            };
            modules += 1;
            bytes += program.bitcode.len();
            if write && write_module(&module).ok().as_deref() != Some(program.bitcode) {
                different += 1;
            }
        }
    }
    println!("{modules} modules, {bytes} bytes of bitcode, {different} written differently");
    ExitCode::SUCCESS
}
