//! `--set-validator-version` there and back over every DXIL container of
//! ../shared/corpus (and dxc-listings' binaries): set to another validator
//! version, then to the original one, each container must be the original
//! file byte for byte. Counts are printed (per release, and the containers
//! the library refuses, by reason); the containers known to differ are
//! listed, and exactly those must differ.

use dxcopy_edit::validator::set_validator_version;
use dxcopy_edit::EditPlan;
use dxcopy_harness::corpus::files_under;
use dxcopy_read::dxil::metadata::DxilMetadata;
use dxcopy_read::dxil::Module;
use dxcopy_read::{container_input, Container, PartName, Program};
use std::collections::BTreeMap;

/// (file name, why) of the containers that do not come back.
const KNOWN_DIFFERENT: &[(&str, &str)] = &[];

/// Sets `version` on `data`'s container; the new container's bytes, or why not.
fn set(data: &[u8], version: (u32, u32)) -> Result<Vec<u8>, String> {
    let container = Container::parse(data).map_err(|e| e.to_string())?;
    let mut plan = EditPlan::from_container(&container);
    set_validator_version(&mut plan, version).map_err(|e| e.to_string())?;
    plan.finish().map(|b| b.to_vec()).map_err(|e| e.to_string())
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_containers_come_back_after_a_validator_version_and_back() {
    let test = "corpus_containers_come_back_after_a_validator_version_and_back";
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(test) else {
        return;
    };
    let mut paths = files_under(&corpus.join("bin"));
    paths.extend(files_under(&corpus.join("dxc-listings/bin")));
    let mut back: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut different: Vec<(String, String)> = Vec::new();
    let mut too_old_refused = 0;
    let mut unbound_back = 0;
    let mut unbound_refused: BTreeMap<String, usize> = BTreeMap::new();
    for path in &paths {
        let data = std::fs::read(path).unwrap();
        let Ok(input) = container_input(&data) else {
            continue;
        };
        if input.is_from_pdb() {
            continue;
        }
        let Ok(container) = Container::parse(&input.bytes) else {
            continue;
        };
        let Some(part) = container.find(PartName::DXIL) else {
            continue;
        };
        let Ok(program) = Program::parse(&part) else {
            continue;
        };
        let Ok(module) = Module::parse(program.bitcode) else {
            continue;
        };
        let Ok(metadata) = DxilMetadata::read(&module) else {
            continue;
        };
        let Some(original) = metadata.validator_version else {
            continue;
        };
        let dxil = metadata.dxil_version.unwrap_or((1, 0));
        // Another version the module allows: the next one, or the one before.
        let other = if original.1 < 9 {
            (1, original.1 + 1)
        } else {
            (1, original.1 - 1)
        };
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        // A validator older than the module's DXIL version is refused.
        if dxil.1 > 0 && (1, dxil.1 - 1) != original {
            let too_old = (1, dxil.1 - 1);
            match set(&input.bytes, too_old) {
                Err(e) if e.contains("cannot validate it") => too_old_refused += 1,
                other => different.push((
                    file.clone(),
                    format!("{too_old:?} not refused: {:?}", other.err()),
                )),
            }
        }
        // 0.0 (not meant to be validated: the newest parts) and back.
        match set(&input.bytes, (0, 0)).and_then(|there| set(&there, original)) {
            Ok(b) if b == input.bytes.as_ref() => unbound_back += 1,
            Ok(_) => different.push((file.clone(), "0.0 and back differs".into())),
            Err(e) => *unbound_refused.entry(e).or_default() += 1,
        }
        let key = format!("validator {}.{}", original.0, original.1);
        if other < dxil {
            *refused
                .entry("no other version allows the DXIL version".into())
                .or_default() += 1;
            continue;
        }
        let there = match set(&input.bytes, other) {
            Ok(b) => b,
            Err(e) => {
                *refused.entry(e).or_default() += 1;
                continue;
            }
        };
        let entry = back.entry(key).or_default();
        entry.0 += 1;
        match set(&there, original) {
            Ok(b) if b == input.bytes.as_ref() => entry.1 += 1,
            Ok(b) => {
                let again = Container::parse(&b).unwrap();
                let parts: Vec<String> = container
                    .parts()
                    .filter(|p| again.find(p.name).map(|q| q.data) != Some(p.data))
                    .map(|p| p.name.to_string())
                    .collect();
                different.push((file, format!("parts differ: {}", parts.join(","))));
            }
            Err(e) => different.push((file, format!("back: {e}"))),
        }
    }
    for (what, (all, same)) in &back {
        println!("{what}: {same} of {all} containers identical after there and back");
    }
    println!("refused as older than the module's DXIL version: {too_old_refused}");
    println!("validator 0.0 and back: {unbound_back} containers identical");
    for (why, n) in &unbound_refused {
        println!("0.0 refused: {n}: {why}");
    }
    assert!(unbound_back > 0, "no container set to 0.0 and back");
    assert!(
        too_old_refused > 0,
        "no module to refuse an older validator for"
    );
    for (why, n) in &refused {
        println!("refused: {n}: {why}");
    }
    for (file, why) in different.iter().take(20) {
        println!("DIFFERENT {file}: {why}");
    }
    let found: Vec<&str> = different.iter().map(|(f, _)| f.as_str()).collect();
    let known: Vec<&str> = KNOWN_DIFFERENT.iter().map(|(f, _)| *f).collect();
    assert_eq!(found, known, "the known-different list changed");
}
