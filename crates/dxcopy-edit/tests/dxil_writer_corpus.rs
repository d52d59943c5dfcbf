//! The DXIL module writer over every program bitcode (DXIL, ILDB, dxc's
//! STAT) of ../shared/corpus (containers, the containers in companion PDBs,
//! dxc-listings' containers): read into the typed model, written again, the
//! same bytes. Counts per part kind and per dxc release are printed; the
//! modules known to differ are listed with the reason, and exactly those
//! must differ.

use common::ProgramModule;
use dxcopy_edit::bitcode::{write_module, write_program};
use dxcopy_harness::first_bitstream_difference;
use dxcopy_read::dxil::Module;
use std::collections::BTreeMap;

mod common;

/// (file name, part) of the modules the writer does not reproduce, and why.
const KNOWN_DIFFERENT: &[(&str, &str, &str)] = &[];

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_modules_write_back_byte_for_byte() {
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("corpus_modules_write_back_byte_for_byte")
    else {
        return;
    };
    let mut per_part: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut per_release: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut different: Vec<(String, String, String)> = Vec::new();
    // Modules that need the symbol table order read (older dxc releases
    // wrote a hash table's order, not the sorted one).
    let mut kept_order = 0;
    common::for_each_program_module(&corpus, |m| {
        let ProgramModule {
            file,
            name,
            part,
            bitcode,
            module,
            release,
        } = m;
        let file = file.to_string();
        {
            let outcome = match write_module(&module) {
                Ok(bytes) if bytes == bitcode => {
                    let part_bytes = write_program(part, &module)
                        .unwrap_or_else(|e| panic!("{file} {name}: {e}"));
                    (part_bytes != part).then(|| {
                        let at = part_bytes.iter().zip(part).position(|(a, b)| a != b);
                        format!(
                            "the part differs from byte {at:?} (sizes {} and {})",
                            part_bytes.len(),
                            part.len()
                        )
                    })
                }
                Ok(bytes) => Some(
                    first_bitstream_difference(&bytes, bitcode)
                        .unwrap_or_else(|| "different bytes".into()),
                ),
                Err(e) => Some(format!("write error: {e}")),
            };
            let same = outcome.is_none();
            if same
                && write_module(&sorted_symbols(module.clone()))
                    .ok()
                    .as_deref()
                    != Some(bitcode)
            {
                kept_order += 1;
            }
            let p = per_part.entry(name.clone()).or_default();
            let r = per_release.entry(release).or_default();
            p.0 += 1;
            r.0 += 1;
            if same {
                p.1 += 1;
                r.1 += 1;
            } else {
                different.push((file.clone(), name, outcome.unwrap_or_default()));
            }
        }
    });
    for (part, (all, same)) in &per_part {
        println!("{part}: {same} of {all} identical");
    }
    for (release, (all, same)) in &per_release {
        println!("{release}: {same} of {all} identical");
    }
    println!("identical only with the symbol table order read: {kept_order}");
    let mut unexpected = Vec::new();
    for (file, part, why) in &different {
        if !KNOWN_DIFFERENT
            .iter()
            .any(|(f, p, _)| f == file && p == part)
        {
            unexpected.push(format!("{file} {part}: {why}"));
        }
    }
    let fixed: Vec<_> = KNOWN_DIFFERENT
        .iter()
        .filter(|(f, p, _)| {
            !different
                .iter()
                .any(|(file, part, _)| file == f && part == p)
        })
        .collect();
    let shown = std::env::var("DXCOPY_WRITER_SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    for u in unexpected.iter().take(shown) {
        println!("{u}\n");
    }
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "{} modules differ that are not listed, {} listed ones are identical now: {fixed:?}",
        unexpected.len(),
        fixed.len()
    );
}

/// The module without the symbol table orders read: the writer sorts.
fn sorted_symbols(mut m: Module) -> Module {
    m.symbol_order.clear();
    for f in &mut m.functions {
        if let Some(b) = &mut f.body {
            b.symbol_order.clear();
        }
    }
    m
}
