//! The DXIL assembler over every program module of ../shared/corpus
//! (DXIL, ILDB, dxc's STAT parts of the containers, companion PDBs and
//! dxc-listings' containers): the module printed as dxc prints it, parsed
//! back, written, compared with the module's bitcode byte for byte. Counts
//! per part kind are printed, with the number assembled with the original
//! module as template (metadata kinds, symbol table order) and without,
//! and the first differences by class.

use common::ProgramModule;
use dxcopy_edit::bitcode::write_module;
use dxcopy_edit::dxil_asm::assemble_module;
use dxcopy_harness::first_bitstream_difference;
use dxcopy_read::listing::dxil::ir::{module_text, AsmOptions};
use std::collections::BTreeMap;

mod common;

#[derive(Default)]
struct Count {
    all: usize,
    with_template: usize,
    without_template: usize,
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_listings_assemble_to_the_same_bitcode() {
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("corpus_listings_assemble_to_the_same_bitcode")
    else {
        return;
    };
    let mut per_part: BTreeMap<String, Count> = BTreeMap::new();
    let mut classes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    common::for_each_program_module(&corpus, |m| {
        let ProgramModule {
            file,
            name,
            bitcode,
            module,
            ..
        } = m;
        let count = per_part.entry(name.clone()).or_default();
        count.all += 1;
        let Ok(text) = module_text(&module, &AsmOptions::default()) else {
            return;
        };
        let outcome = |template| match assemble_module(&text, template) {
            Ok(parsed) => match write_module(&parsed) {
                Ok(bytes) if bytes == bitcode => None,
                Ok(bytes) => Some(format!(
                    "differs: {}",
                    first_bitstream_difference(&bytes, bitcode)
                        .unwrap_or_else(|| "different bytes".into())
                )),
                Err(e) => Some(format!("write error: {e}")),
            },
            Err(e) => Some(format!("parse error: {}", e.message)),
        };
        let with = outcome(Some(&module));
        if with.is_none() {
            count.with_template += 1;
        }
        if outcome(None).is_none() {
            count.without_template += 1;
        }
        if let Some(why) = with {
            // The class: the message without its numbers.
            let class: String = why
                .chars()
                .take(90)
                .filter(|c| !c.is_ascii_digit())
                .collect();
            let e = classes
                .entry(class)
                .or_insert_with(|| (0, format!("{file} {name}: {why}")));
            e.0 += 1;
        }
    });
    for (part, c) in &per_part {
        println!(
            "{part}: {} of {} identical with the original as template, {} without",
            c.with_template, c.all, c.without_template
        );
    }
    let mut classes: Vec<_> = classes.into_iter().collect();
    classes.sort_by_key(|c| std::cmp::Reverse(c.1 .0));
    for (class, (n, example)) in classes.iter().take(25) {
        println!("{n:5} {class}\n      e.g. {example}");
    }
    let dxil = per_part.get("DXIL").map_or(0, |c| c.with_template);
    assert!(dxil > 0, "no DXIL module assembles to its bitcode");
}
