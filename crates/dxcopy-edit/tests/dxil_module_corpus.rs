//! Every DXIL, ILDB and dxc STAT module of ../shared/corpus (containers, the
//! containers in companion PDBs, and dxc-listings' binaries) reads into a
//! `dxcopy_read::dxil::Module`; reading the name-stripped bitcode gives the
//! same module without its names.

use dxcopy_edit::bitcode::strip_names;
use dxcopy_harness::corpus::{files_under, program_bitcode};
use dxcopy_read::dxil::{Linkage, Metadata, Module, Type};
use dxcopy_read::{container_input, Container, Program};
use std::path::Path;

/// The program bitcode of the corpus plus dxc-listings' bin and console/bin.
fn all_modules(corpus: &Path) -> Vec<(String, String, Vec<u8>)> {
    let mut all = program_bitcode(corpus);
    for dir in ["dxc-listings/bin", "dxc-listings/console/bin"] {
        for path in files_under(&corpus.join(dir)) {
            let data = std::fs::read(&path).unwrap();
            let Ok(input) = container_input(&data) else {
                continue;
            };
            let Ok(container) = Container::parse(&input.bytes) else {
                continue;
            };
            for part in container.parts() {
                if !matches!(&part.name.to_string()[..], "DXIL" | "ILDB" | "STAT") {
                    continue;
                }
                let Ok(program) = Program::parse(&part) else {
                    continue;
                };
                if program.has_bitcode_magic() {
                    all.push((
                        path.display().to_string(),
                        part.name.to_string(),
                        program.bitcode.to_vec(),
                    ));
                }
            }
        }
    }
    all
}

/// The module with every name the name-stripping writer removes cleared:
/// argument, instruction and block names (function symbol tables), struct
/// names other than `dx.*` (the struct stays identified, without a name),
/// and the names of internal or private global variables.
fn without_local_names(mut m: Module) -> Module {
    for t in &mut m.types {
        if let Type::Struct(s) = t {
            if s.name.as_ref().is_some_and(|n| !n.starts_with(b"dx.")) {
                s.name = Some(Vec::new());
            }
        }
    }
    let mut unnamed = Vec::new();
    for g in &mut m.globals {
        if matches!(g.common.linkage, Linkage::Internal | Linkage::Private) {
            g.common.name.clear();
            unnamed.push(g.common.value);
        }
    }
    // The symbol tables' order loses the entries stripped.
    m.symbol_order.retain(|v| !unnamed.contains(v));
    for f in &mut m.functions {
        if let Some(body) = &mut f.body {
            body.symbol_order.clear();
            for a in &mut body.args {
                a.name = None;
            }
            for b in &mut body.blocks {
                b.name = None;
                for i in &mut b.instructions {
                    i.name = None;
                }
            }
        }
    }
    m
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_modules_read_and_survive_name_stripping() {
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("corpus_modules_read_and_survive_name_stripping")
    else {
        return;
    };
    let all = all_modules(&corpus);
    assert!(!all.is_empty(), "no program bitcode found in the corpus");
    let (mut dxil, mut ildb, mut stat) = (0, 0, 0);
    let (mut functions, mut instructions, mut metadata, mut debug_nodes) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (file, part, bitcode) in &all {
        let module = match Module::parse(bitcode) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{file} {part}: {e}"));
                continue;
            }
        };
        assert!(
            module
                .triple
                .as_deref()
                .is_some_and(|t| t.starts_with("dxil")),
            "{file} {part}: triple {:?}",
            module.triple
        );
        let (stripped, _) = strip_names(bitcode).unwrap_or_else(|e| panic!("{file} {part}: {e}"));
        let again = Module::parse(&stripped).unwrap_or_else(|e| panic!("{file} {part}: {e}"));
        assert!(
            without_local_names(module.clone()) == again,
            "{file} {part}: the name-stripped module differs"
        );
        functions += module.functions.len();
        instructions += module
            .functions
            .iter()
            .filter_map(|f| f.body.as_ref())
            .map(|b| b.instruction_count())
            .sum::<usize>();
        metadata += module.metadata.len();
        debug_nodes += module
            .metadata
            .iter()
            .filter(|m| matches!(m, Metadata::Debug(_)))
            .count();
        match part.as_str() {
            "DXIL" => dxil += 1,
            "ILDB" => ildb += 1,
            _ => stat += 1,
        }
    }
    println!(
        "dxil modules read: {} ({dxil} DXIL, {ildb} ILDB, {stat} STAT); {functions} functions, \
         {instructions} instructions, {metadata} metadata ({debug_nodes} debug-info nodes)",
        all.len() - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} modules failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
