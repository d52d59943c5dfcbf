//! Every derived part of every DXIL container of ../shared/corpus (and
//! dxc-listings' binaries) rebuilt from its module is the part dxc wrote,
//! byte for byte, except the files and parts of [`KNOWN_DIFFERENT`].

use dxcopy_edit::rebuild::rebuild_parts;
use dxcopy_edit::{EditPlan, NameMatcher};
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

/// The parts `--rebuild-parts` makes.
const REBUILT: [PartName; 6] = [
    PartName::SFI0,
    PartName::ISG1,
    PartName::OSG1,
    PartName::PSG1,
    PartName::PSV0,
    PartName::HASH,
];

/// (file name, reason) of every container that does not come back byte
/// for byte after its derived parts were stripped and rebuilt.
const KNOWN_NOT_REBUILT: &[(&str, &str)] = &[];

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_containers_come_back_after_stripping_and_rebuilding_their_derived_parts() {
    let test = "corpus_containers_come_back_after_stripping_and_rebuilding_their_derived_parts";
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(test) else {
        return;
    };
    let paths = dxil_containers(&corpus);
    assert!(!paths.is_empty(), "no DXIL container in the corpus");
    let mut same_parts: BTreeMap<String, usize> = BTreeMap::new();
    let mut different: Vec<(String, String)> = Vec::new();
    let mut identical_files = 0;
    for path in &paths {
        let data = std::fs::read(path).unwrap();
        let input = container_input(&data).unwrap();
        let original = Container::parse(&input.bytes).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut plan = EditPlan::from_container(&original);
        for name in REBUILT {
            plan.remove(&NameMatcher::exact(name));
        }
        let stripped = plan.finish().unwrap().to_vec();
        let stripped = Container::parse(&stripped).unwrap();
        let mut plan = EditPlan::from_container(&stripped);
        if let Err(e) = rebuild_parts(&mut plan) {
            different.push((file, format!("rebuild: {e}")));
            continue;
        }
        let rebuilt = plan.finish().unwrap().to_vec();
        let again = Container::parse(&rebuilt).unwrap();
        let mut parts_differ = Vec::new();
        for part in original.parts().filter(|p| REBUILT.contains(&p.name)) {
            match again.find(part.name) {
                Some(new) if new.data == part.data => {
                    *same_parts.entry(part.name.to_string()).or_default() += 1
                }
                _ => parts_differ.push(part.name.to_string()),
            }
        }
        if rebuilt == input.bytes.as_ref() {
            identical_files += 1;
        } else {
            let why = if parts_differ.is_empty() {
                "layout".to_string()
            } else {
                parts_differ.join(",")
            };
            different.push((file, why));
        }
    }
    println!(
        "{} DXIL containers, {identical_files} identical after the rebuild",
        paths.len()
    );
    for (part, count) in &same_parts {
        println!("{part}: {count} rebuilt identical");
    }
    for (file, why) in &different {
        println!("NOT REBUILT {file}: {why}");
    }
    let found: Vec<&str> = different.iter().map(|(f, _)| f.as_str()).collect();
    let known: Vec<&str> = KNOWN_NOT_REBUILT.iter().map(|(f, _)| *f).collect();
    assert_eq!(found, known, "the known-different list changed");
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_module_moved_into_another_container_gets_its_own_parts() {
    let test = "corpus_module_moved_into_another_container_gets_its_own_parts";
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(test) else {
        return;
    };
    let paths = dxil_containers(&corpus);
    let files: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| {
            container_input(&std::fs::read(p).unwrap())
                .unwrap()
                .bytes
                .into_owned()
        })
        .collect();
    assert!(files.len() > 1, "too few DXIL containers in the corpus");
    let mut moved = 0;
    let mut mixed_failing = 0;
    for (donor, host) in files.iter().zip(files.iter().skip(1)) {
        let donor = Container::parse(donor).unwrap();
        let host = Container::parse(host).unwrap();
        let bitcode = Program::parse(&donor.find(PartName::DXIL).unwrap())
            .unwrap()
            .bitcode;
        let mut plan = EditPlan::from_container(&host);
        plan.replace_bitcode(PartName::DXIL, bitcode).unwrap();
        // Before the rebuild the container fails the check exactly when its
        // derived parts are not the donor's.
        let mixed = plan.clone().finish().unwrap().to_vec();
        let mixed = Container::parse(&mixed).unwrap();
        let module = Module::parse(bitcode).unwrap();
        let mismatches = dxcopy_read::dxil::derived::check_parts(&mixed, &module).unwrap();
        let same = |name| donor.find(name).map(|p| p.data) == host.find(name).map(|p| p.data);
        // A library's RDAT is checked against the one derived from the
        // module and the subobjects the host's RDAT keeps.
        let metadata = dxcopy_read::dxil::metadata::DxilMetadata::read(&module).unwrap();
        let host_rdat = mixed.find(PartName::RDAT).map(|p| p.data);
        let rdat_same = match dxcopy_read::dxil::derived::derive_rdat(&module, &metadata, host_rdat)
        {
            Ok(derived) => Some(derived.data.as_slice()) == host_rdat,
            Err(_) => true,
        };
        let same_parts = dxcopy_read::dxil::derived::DERIVED_NAMES
            .iter()
            .all(|&name| same(name))
            && rdat_same;
        assert_eq!(mismatches.is_empty(), same_parts, "{mismatches:?}");
        if !same_parts {
            mixed_failing += 1;
        }
        rebuild_parts(&mut plan).unwrap();
        let out = plan.finish().unwrap().to_vec();
        let out = Container::parse(&out).unwrap();
        for name in REBUILT {
            let theirs = donor.find(name).map(|p| p.data);
            // A HASH that covers ILDB (flag 1) stays the host's kind.
            if name == PartName::HASH && theirs.is_some_and(|h| h[0] & 1 != 0) {
                continue;
            }
            assert_eq!(
                out.find(name).map(|p| p.data),
                theirs,
                "{name} of {:?} moved into {:?}",
                paths[moved],
                paths[moved + 1]
            );
        }
        moved += 1;
    }
    println!(
        "{moved} modules moved into another container and rebuilt; {mixed_failing} failed the check before"
    );
    assert!(
        mixed_failing > 0,
        "no moved module got another shader's parts"
    );
}

/// Libraries whose RDAT is derived identical, and why the others are not
/// derived (each reason with its count); none may be derived different.
const RDAT_IDENTICAL: usize = 40;
const RDAT_NOT_DERIVED: &[(&str, usize)] = &[];

/// The parts of RDAT data: (part type, body), in order.
fn rdat_tables(rdat: &[u8]) -> Vec<(u32, &[u8])> {
    let word = |at: usize| u32::from_le_bytes(rdat[at..at + 4].try_into().unwrap()) as usize;
    (0..word(4))
        .map(|i| {
            let at = word(8 + 4 * i);
            let size = word(at + 4);
            (word(at) as u32, &rdat[at + 8..at + 8 + size])
        })
        .collect()
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_rdat_of_libraries_is_dxc_s() {
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip("corpus_rdat_of_libraries_is_dxc_s")
    else {
        return;
    };
    let mut total = 0;
    let mut identical = 0;
    let mut with_subobjects = 0;
    let mut tables: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut not_derived: Vec<(String, String)> = Vec::new();
    for path in dxil_containers(&corpus) {
        let data = std::fs::read(&path).unwrap();
        let input = container_input(&data).unwrap();
        let container = Container::parse(&input.bytes).unwrap();
        let Some(rdat) = container.find(PartName::RDAT) else {
            continue;
        };
        total += 1;
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let program = Program::parse(&container.find(PartName::DXIL).unwrap()).unwrap();
        let module = Module::parse(program.bitcode).unwrap();
        let metadata = dxcopy_read::dxil::metadata::DxilMetadata::read(&module).unwrap();
        let derived = dxcopy_read::dxil::derived::derive_rdat(&module, &metadata, Some(rdat.data));
        if let Ok(part) = &derived {
            let ours = rdat_tables(&part.data);
            for (kind, body) in rdat_tables(rdat.data) {
                let name = dxcopy_read::rdat::RdatPartType::from_raw(kind).to_string();
                let entry = tables.entry(name).or_default();
                if ours.iter().any(|(k, b)| *k == kind && *b == body) {
                    entry.0 += 1;
                } else {
                    entry.1 += 1;
                }
            }
        }
        match derived {
            Ok(part) if part.data == rdat.data => {
                identical += 1;
                // dxc keeps a library's subobjects only in RDAT (it takes
                // them out of the module), so their RDAT stays for the
                // rebuild to carry them over; every other RDAT is stripped
                // with the other derived parts.
                let subobjects = rdat_tables(rdat.data)
                    .iter()
                    .any(|(k, _)| *k == dxcopy_read::rdat::RdatPartType::SubobjectTable.raw());
                with_subobjects += usize::from(subobjects);
                let mut plan = EditPlan::from_container(&container);
                let rdat_stripped = if subobjects {
                    None
                } else {
                    Some(PartName::RDAT)
                };
                for name in REBUILT.into_iter().chain(rdat_stripped) {
                    plan.remove(&NameMatcher::exact(name));
                }
                let stripped = plan.finish().unwrap().to_vec();
                let stripped = Container::parse(&stripped).unwrap();
                let mut plan = EditPlan::from_container(&stripped);
                let rebuilt = rebuild_parts(&mut plan).unwrap();
                assert_eq!(
                    rebuilt.added.contains(&PartName::RDAT),
                    !subobjects,
                    "{file}"
                );
                let back = plan.finish().unwrap().to_vec();
                assert_eq!(back, input.bytes.as_ref(), "{file}: rebuilt container");
            }
            Ok(part) => not_derived.push((file, first_difference(&part.data, rdat.data))),
            Err(e) => not_derived.push((file, e.to_string())),
        }
    }
    println!(
        "RDAT: {identical} of {total} derived identical ({with_subobjects} with subobjects carried over)"
    );
    for (table, (same, different)) in &tables {
        println!("RDAT {table}: {same} identical, {different} different");
    }
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for (file, why) in &not_derived {
        println!("RDAT NOT DERIVED {file}: {why}");
        *reasons.entry(why.as_str()).or_default() += 1;
    }
    for (why, count) in &reasons {
        println!("RDAT {count}: {why}");
    }
    let found: Vec<(&str, usize)> = reasons.into_iter().collect();
    assert_eq!(found, RDAT_NOT_DERIVED, "the RDATs not derived changed");
    assert_eq!(identical, RDAT_IDENTICAL, "RDATs derived identical");
    assert!(tables.values().all(|(_, different)| *different == 0));
}

/// Where two RDAT parts first differ, as the RDAT decoder names it.
fn first_difference(derived: &[u8], dxc: &[u8]) -> String {
    let at = derived
        .iter()
        .zip(dxc)
        .position(|(a, b)| a != b)
        .unwrap_or(derived.len().min(dxc.len()));
    format!(
        "different at byte {at} (derived {} bytes, dxc {} bytes)",
        derived.len(),
        dxc.len()
    )
}

/// (file name, why) of the modules whose usage is not derived or differs
/// from the flags they record.
const KNOWN_USAGE_DIFFERENT: &[(&str, &str)] = &[];

/// Every corpus module's recorded feature flags are the flags its usage
/// needs, as dxc's validator recomputes them ("Flags must match usage"):
/// counts per validator version printed.
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_feature_flags_are_the_module_s_usage() {
    let test = "corpus_feature_flags_are_the_module_s_usage";
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(test) else {
        return;
    };
    let mut same: BTreeMap<String, usize> = BTreeMap::new();
    let mut different: Vec<(String, String)> = Vec::new();
    for path in dxil_containers(&corpus) {
        let data = std::fs::read(&path).unwrap();
        let input = container_input(&data).unwrap();
        let container = Container::parse(&input.bytes).unwrap();
        let program = Program::parse(&container.find(PartName::DXIL).unwrap()).unwrap();
        let module = Module::parse(program.bitcode).unwrap();
        let metadata = dxcopy_read::dxil::metadata::DxilMetadata::read(&module).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let (major, minor) = metadata.validator_version.unwrap_or((1, 0));
        match dxcopy_read::dxil::derived::feature_info::feature_usage(&module, &metadata) {
            Ok(u) if u.recorded == u.needed => {
                *same
                    .entry(format!("validator {major}.{minor}"))
                    .or_default() += 1
            }
            Ok(u) => different.push((
                file,
                format!("recorded {:#x}, needed {:#x}", u.recorded, u.needed),
            )),
            Err(e) => different.push((file, e.to_string())),
        }
    }
    for (version, n) in &same {
        println!("{version}: {n} modules' flags are their usage");
    }
    for (file, why) in &different {
        println!("USAGE DIFFERENT {file}: {why}");
    }
    let found: Vec<&str> = different.iter().map(|(f, _)| f.as_str()).collect();
    let known: Vec<&str> = KNOWN_USAGE_DIFFERENT.iter().map(|(f, _)| *f).collect();
    assert_eq!(found, known, "the known-different list changed");
}
