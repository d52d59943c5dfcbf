//! Split → join round trip on every corpus container that has an ILDB part
//! (MANIFEST rows of kind `dxil` whose parts include ILDB): the split main
//! container has no ILDB/SRCI and names the PDB; the PDB reads back with its
//! GUID = HASH digest; joining the PDB back gives a container that decodes to
//! the same parts as the original (same bytes), apart from an ILDN or HASH
//! the split had to add. The PDB is named as the original ILDN names it, so
//! the joined container is expected to be byte-identical to the original.
//! A container whose HASH cannot be computed (no HASH, no DXIL, and an ILDB
//! that is not a program) must be refused with a clear error, and is counted.
//!
//! The corpus is found by `dxcopy_harness::corpus`; the test says so and passes when it is missing.

use dxcopy_edit::debug::{add_debug_from, split_debug, Pairing, PdbTarget, SplitOptions};
use dxcopy_edit::{EditError, EditPlan};
use dxcopy_read::hash::ShaderHash;
use dxcopy_read::pdb::Pdb;
use dxcopy_read::{Container, DebugName, PartName, Program};

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn split_join_round_trip_on_corpus_containers_with_ildb() {
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(
        "split_join_round_trip_on_corpus_containers_with_ildb",
    ) else {
        return;
    };
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    let (mut round_trips, mut byte_identical, mut hash_added) = (0, 0, 0);
    let mut refused = Vec::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(2) != Some(&"dxil") || !cols[4].split(',').any(|p| p == "ILDB") {
            continue;
        }
        let name = cols[0];
        let original = std::fs::read(corpus.join(name)).unwrap();
        let c = Container::parse(&original).unwrap();
        // Name the PDB as the original ILDN does (as if dxc had been given
        // `-Fd <that name>`), else `<hash>.pdb` in a directory.
        let target = match c.find(PartName::ILDN) {
            Some(p) => PdbTarget::parse(&DebugName::parse(&p).unwrap().name_lossy()),
            None => PdbTarget::parse("pdb/"),
        };
        let split = match split_debug(
            EditPlan::from_container(&c),
            &SplitOptions {
                target: Some(target),
                pdb_in_private: false,
            },
        ) {
            Ok(split) => split,
            // Without HASH and DXIL the HASH must come from the ILDB
            // bitcode; a placeholder ILDB (yaml2obj output) has none.
            Err(e)
                if c.find(PartName::HASH).is_none()
                    && c.find(PartName::DXIL).is_none()
                    && c.find(PartName::ILDB)
                        .is_some_and(|p| Program::parse(&p).is_err()) =>
            {
                assert!(
                    matches!(e, EditError::HashSourceNotAProgram { .. }),
                    "{e:?}"
                );
                refused.push(name.to_string());
                continue;
            }
            Err(e) => panic!("{name}: split: {e}"),
        };
        let main = split.main.to_vec();
        let main_c = Container::parse(&main).unwrap();
        assert!(main_c.find(PartName::ILDB).is_none(), "{name}");
        assert!(main_c.find(PartName::SRCI).is_none(), "{name}");
        let pdb = Pdb::parse(&split.pdb).unwrap();
        assert_eq!(pdb.info().guid, split.hash.digest, "{name}");
        let pdb_bytes = pdb.container_bytes().unwrap();
        let pdb_c = Container::parse(&pdb_bytes).unwrap();
        assert_eq!(pdb_c.header().digest, main_c.header().digest, "{name}");
        let had_hash = c.find(PartName::HASH).is_some();
        if !had_hash {
            hash_added += 1;
        }
        // Join.
        let mut plan = EditPlan::from_container(&main_c);
        let pairing = add_debug_from(&mut plan, &pdb_c, Some(pdb.info().guid), false)
            .unwrap_or_else(|e| panic!("{name}: join: {e}"));
        assert_eq!(pairing, Pairing::GuidIsHash, "{name}");
        let joined = plan.finish().unwrap().to_vec();
        let joined_c = Container::parse(&joined).unwrap();
        // Same parts with the same bytes, apart from an added ILDN or HASH.
        for p in c.parts() {
            if p.name == PartName::ILDN {
                continue;
            }
            let q = joined_c
                .find(p.name)
                .unwrap_or_else(|| panic!("{name}: {} lost", p.name));
            assert_eq!(p.data, q.data, "{name}: {} changed", p.name);
        }
        let mut expected: Vec<PartName> = c.parts().map(|p| p.name).collect();
        for extra in [PartName::ILDN, PartName::HASH] {
            if !expected.contains(&extra) {
                expected.push(extra);
            }
        }
        let mut got: Vec<PartName> = joined_c.parts().map(|p| p.name).collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{name}: part set");
        let h = ShaderHash::parse(&joined_c.find(PartName::HASH).unwrap()).unwrap();
        assert_eq!(h.digest, split.hash.digest, "{name}");
        if joined == original {
            byte_identical += 1;
        } else {
            println!("{name}: joined container is not byte-identical");
        }
        round_trips += 1;
    }
    println!(
        "{round_trips} corpus containers with ILDB split and joined back to the same parts \
         ({byte_identical} byte-identical to the original; {hash_added} needed a HASH added); \
         {} refused because no HASH can be computed: {refused:?}",
        refused.len()
    );
    assert!(round_trips > 0);
    assert_eq!(byte_identical, round_trips);
}
