//! Numbering every program module (DXIL, ILDB, dxc's STAT) of
//! ../shared/corpus again, as dxc's value enumerator does: a module read
//! from dxc's bitcode must keep its numbering exactly (the same model, so
//! the same bytes written). Counts per part kind and per dxc release are
//! printed; the modules known to differ are listed with the reason, and
//! exactly those must differ.

use common::ProgramModule;
use dxcopy_edit::bitcode::{renumber, write_module};
use dxcopy_read::dxil::Module;
use std::collections::BTreeMap;

mod common;

/// (file name, part, why) of the modules whose numbering cannot be derived.
const KNOWN_DIFFERENT: &[(&str, &str, &str)] = &[];

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_modules_keep_their_numbering() {
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("corpus_modules_keep_their_numbering")
    else {
        return;
    };
    let mut per_part: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut per_release: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut different: Vec<(String, String, String)> = Vec::new();
    // Modules whose constants are in first-use order (use-list order kept).
    let mut first_use: BTreeMap<String, usize> = BTreeMap::new();
    common::for_each_program_module(&corpus, |m| {
        let ProgramModule {
            file,
            name,
            part: _,
            bitcode,
            module,
            release,
        } = m;
        let file = file.to_string();
        {
            if dxcopy_edit::bitcode::keeps_first_use_order(&module) == Ok(true) {
                *first_use.entry(format!("{release} {name}")).or_default() += 1;
            }
            let mut again = module.clone();
            let outcome = match renumber(&mut again) {
                Ok(_) if again == module => None,
                Ok(stats) => Some(format!(
                    "{} ({stats:?}); preserving use lists: {}; written {}",
                    first_model_difference(&module, &again),
                    {
                        let mut p = module.clone();
                        dxcopy_edit::bitcode::renumber_with(&mut p, true).is_ok() && p == module
                    },
                    if write_module(&again).ok().as_deref() == Some(bitcode) {
                        "the same bytes"
                    } else {
                        "other bytes"
                    }
                )),
                Err(e) => Some(format!("error: {e}")),
            };
            let same = outcome.is_none();
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
        println!("{part}: {same} of {all} numbered as read");
    }
    for (release, (all, same)) in &per_release {
        println!("{release}: {same} of {all} numbered as read");
    }
    for (what, n) in &first_use {
        println!("constants in first-use order: {what}: {n}");
    }
    let unexpected: Vec<String> = different
        .iter()
        .filter(|(file, part, _)| {
            !KNOWN_DIFFERENT
                .iter()
                .any(|(f, p, _)| f == file && p == part)
        })
        .map(|(file, part, why)| format!("{file} {part}: {why}"))
        .collect();
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
        "{} modules numbered differently that are not listed, {} listed ones are the same now: {fixed:?}",
        unexpected.len(),
        fixed.len()
    );
}

/// Where two models of one module first differ.
fn first_model_difference(a: &Module, b: &Module) -> String {
    if a.constants != b.constants {
        let at = a
            .constants
            .iter()
            .zip(&b.constants)
            .position(|(x, y)| x != y);
        return format!(
            "module constants differ at {at:?} ({} and {}): {:?} / {:?}",
            a.constants.len(),
            b.constants.len(),
            at.and_then(|i| a.constants.get(i)),
            at.and_then(|i| b.constants.get(i))
        );
    }
    if a.metadata != b.metadata {
        let at = a.metadata.iter().zip(&b.metadata).position(|(x, y)| x != y);
        return format!(
            "module metadata differ at {at:?} ({} and {}): {:?} / {:?}",
            a.metadata.len(),
            b.metadata.len(),
            at.and_then(|i| a.metadata.get(i)),
            at.and_then(|i| b.metadata.get(i))
        );
    }
    for (f, g) in a.functions.iter().zip(&b.functions) {
        let (Some(x), Some(y)) = (&f.body, &g.body) else {
            continue;
        };
        if x.constants != y.constants {
            let at = x
                .constants
                .iter()
                .zip(&y.constants)
                .position(|(p, q)| p != q);
            return format!(
                "constants of {} differ at {at:?} ({} and {}): {:?} / {:?}",
                String::from_utf8_lossy(f.name()),
                x.constants.len(),
                y.constants.len(),
                at.and_then(|i| x.constants.get(i)),
                at.and_then(|i| y.constants.get(i))
            );
        }
        if x != y {
            return format!("the body of {} differs", String::from_utf8_lossy(f.name()));
        }
    }
    "the models differ elsewhere".into()
}
