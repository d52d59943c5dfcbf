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
    let mut alone: BTreeMap<String, (usize, String)> = BTreeMap::new();
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
        match outcome(None) {
            None => count.without_template += 1,
            Some(why) => {
                let class: String = why
                    .chars()
                    .take(90)
                    .filter(|c| !c.is_ascii_digit())
                    .collect();
                let e = alone
                    .entry(class)
                    .or_insert_with(|| (0, format!("{file} {name}: {why}")));
                e.0 += 1;
            }
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
    let mut alone: Vec<_> = alone.into_iter().collect();
    alone.sort_by_key(|c| std::cmp::Reverse(c.1 .0));
    println!("without the template:");
    for (class, (n, example)) in alone.iter().take(8) {
        println!("{n:5} {class}\n      e.g. {example}");
    }
    // With the original module as template every module comes back.
    for (part, c) in &per_part {
        assert_eq!(
            c.with_template, c.all,
            "{part}: not every module assembles to its bitcode"
        );
    }
}

/// Every DXIL container of the corpus: its listing (as `dxinfo --disasm`
/// prints it) assembled into it again (`dxasm --into F -`) gives F byte
/// for byte, derived parts rebuilt, signed again.
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_containers_patched_with_their_listing_are_unchanged() {
    use dxcopy_edit::dxil_asm::{check_dxil_round_trip, DxilRoundTrip};
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(
        "corpus_containers_patched_with_their_listing_are_unchanged",
    ) else {
        return;
    };
    let mut paths = dxcopy_harness::corpus::files_under(&corpus.join("bin"));
    paths.extend(dxcopy_harness::corpus::files_under(
        &corpus.join("dxc-listings/bin"),
    ));
    let (mut all, mut same) = (0, 0);
    let mut classes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(container) = dxcopy_read::Container::parse(&bytes) else {
            continue;
        };
        if container.find(dxcopy_read::PartName::DXIL).is_none() {
            continue;
        }
        all += 1;
        let why = match check_dxil_round_trip(&bytes) {
            Ok(DxilRoundTrip::Identical) => {
                same += 1;
                continue;
            }
            Ok(DxilRoundTrip::Differs { part, .. }) => format!("differs in {part:?}"),
            Err(e) => format!("error: {e}"),
        };
        let class: String = why
            .chars()
            .take(70)
            .filter(|c| !c.is_ascii_digit())
            .collect();
        let e = classes
            .entry(class)
            .or_insert_with(|| (0, path.display().to_string()));
        e.0 += 1;
    }
    println!("DXIL containers: {same} of {all} come back byte for byte");
    for (class, (n, example)) in &classes {
        println!("{n:5} {class}\n      e.g. {example}");
    }
    assert!(same > 0 && all > 0);
}

/// dxc's own listings (`-Fh` headers' `#if 0` blocks; of the debug module
/// when the container has ILDB) assembled into their containers give them
/// back byte for byte; assembled alone, a new container whose DXIL part
/// and derived parts are the original's (counted). One listing names a
/// struct type its container's bitcode does not hold (dxc printed it from
/// another build): that container cannot come back.
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn dxc_listings_assemble_to_their_containers() {
    use dxcopy_edit::dxil_asm::{build_dxil_container, patch_dxil_container};
    use dxcopy_read::{Container, PartName};
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("dxc_listings_assemble_to_their_containers")
    else {
        return;
    };
    let dir = corpus.join("dxc-listings");
    let (mut all, mut into_same, mut alone_dxil, mut alone_parts) = (0, 0, 0, 0);
    let mut failures: Vec<String> = Vec::new();
    for listing in dxcopy_harness::corpus::files_under(&dir.join("listings")) {
        let name = listing.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".lst") else {
            continue;
        };
        let Ok(bytes) = std::fs::read(dir.join("bin").join(stem)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&std::fs::read(&listing).unwrap()).into_owned();
        all += 1;
        let original = Container::parse(&bytes).unwrap();
        let dxil = original.find(PartName::DXIL).unwrap().data;
        match patch_dxil_container(&bytes, &text) {
            Ok(p) if p.bytes == bytes => into_same += 1,
            Ok(_) => failures.push(format!("{name}: --into: the container differs")),
            Err(e) => failures.push(format!("{name}: --into: {e}")),
        }
        match build_dxil_container(&text) {
            Ok(built) => {
                let built = Container::parse(&built).unwrap();
                if built.find(PartName::DXIL).map(|p| p.data) == Some(dxil) {
                    alone_dxil += 1;
                }
                let derived = [
                    PartName::SFI0,
                    PartName::ISG1,
                    PartName::OSG1,
                    PartName::PSG1,
                    PartName::PSV0,
                    PartName::HASH,
                ];
                if derived
                    .iter()
                    .all(|n| built.find(*n).map(|p| p.data) == original.find(*n).map(|p| p.data))
                {
                    alone_parts += 1;
                }
            }
            Err(e) => failures.push(format!("{name}: alone: {e}")),
        }
    }
    println!(
        "dxc listings: {into_same} of {all} give their container back with --into; alone: \
         {alone_dxil} the DXIL part, {alone_parts} the derived parts"
    );
    for f in failures.iter().take(20) {
        println!("{f}");
    }
    assert_eq!(into_same + 1, all, "{failures:?}");
}
