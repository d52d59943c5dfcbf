//! Every derived part of every DXIL container of ../shared/corpus (and
//! dxc-listings' binaries) rebuilt from its module is the part dxc wrote,
//! byte for byte, except the files and parts of [`KNOWN_DIFFERENT`].

use dxcopy_harness::corpus::files_under;
use dxcopy_read::dxil::derived::derive_parts;
use dxcopy_read::dxil::Module;
use dxcopy_read::{container_input, Container, PartName, Program};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Containers with a DXIL part under `corpus/bin` and dxc-listings' bin.
fn dxil_containers(corpus: &Path) -> Vec<PathBuf> {
    let mut paths = files_under(&corpus.join("bin"));
    paths.extend(files_under(&corpus.join("dxc-listings/bin")));
    paths
        .into_iter()
        .filter(|path| {
            let data = std::fs::read(path).unwrap();
            container_input(&data).is_ok_and(|input| {
                Container::parse(&input.bytes)
                    .is_ok_and(|c| c.find(PartName::DXIL).is_some() && !input.is_from_pdb())
            })
        })
        .collect()
}

/// (file name, part, reason) of every derived part known to differ.
const KNOWN_DIFFERENT: &[(&str, &str, &str)] = &[];

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_derived_parts_are_dxc_s() {
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip("corpus_derived_parts_are_dxc_s")
    else {
        return;
    };
    let paths = dxil_containers(&corpus);
    assert!(!paths.is_empty(), "no DXIL container in the corpus");
    let mut same: BTreeMap<String, usize> = BTreeMap::new();
    let mut differ: Vec<(String, String, String)> = Vec::new();
    for path in &paths {
        let data = std::fs::read(path).unwrap();
        let input = container_input(&data).unwrap();
        let container = Container::parse(&input.bytes).unwrap();
        let program = Program::parse(&container.find(PartName::DXIL).unwrap()).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let module = match Module::parse(program.bitcode) {
            Ok(m) => m,
            Err(e) => {
                differ.push((file, "DXIL".into(), format!("module: {e}")));
                continue;
            }
        };
        let derived = match derive_parts(&module) {
            Ok(parts) => parts,
            Err(e) => {
                differ.push((file, "*".into(), e.to_string()));
                continue;
            }
        };
        let mismatches = dxcopy_read::dxil::derived::check_parts(&container, &module).unwrap();
        for part in &derived {
            let name = part.name.to_string();
            match mismatches.iter().find(|m| m.part == part.name) {
                None => *same.entry(name).or_default() += 1,
                Some(m) => differ.push((file.clone(), name, m.detail.clone())),
            }
        }
        for m in &mismatches {
            if !derived.iter().any(|p| p.name == m.part) {
                differ.push((file.clone(), m.part.to_string(), m.detail.clone()));
            }
        }
    }
    println!("{} DXIL containers", paths.len());
    for (part, count) in &same {
        println!("{part}: {count} identical");
    }
    let mut by_part: BTreeMap<&str, usize> = BTreeMap::new();
    for (file, part, why) in &differ {
        *by_part.entry(part).or_default() += 1;
        println!("DIFFERENT {file} {part}: {why}");
    }
    for (part, count) in &by_part {
        println!("{part}: {count} different");
    }
    let found: Vec<(&str, &str)> = differ
        .iter()
        .map(|(f, p, _)| (f.as_str(), p.as_str()))
        .collect();
    let known: Vec<(&str, &str)> = KNOWN_DIFFERENT.iter().map(|(f, p, _)| (*f, *p)).collect();
    assert_eq!(found, known, "the known-different list changed");
}
