//! Corpus checks for the MSF/PDB reader: every dxc companion PDB in
//! `../shared/corpus/pdb/DoerriesT_VEngine2` reads, its stream-5 container is
//! byte-identical to the extracted `*.pdbpart.dxil`, its GUID is the HASH
//! digest, and its container carries the main shader's digest; the fxc PDBs
//! (MANIFEST rows of kind `msf-pdb` without parts) get the clear "no container" error.
//!
//! The corpus is found by `dxcopy_harness::corpus`; the tests say so and pass when it is missing.

use dxcopy_harness::corpus::corpus_or_skip;
use dxcopy_read::pdb::{Pdb, PDB_VERSION_VC70};
use dxcopy_read::{container_input, Container, PartName, ReadErrorKind, ShaderHash};
use std::path::PathBuf;

fn sorted_files(dir: &std::path::Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn dxc_companion_pdbs_read() {
    let Some(corpus) = corpus_or_skip("dxc_companion_pdbs_read") else {
        return;
    };
    let pdbs = sorted_files(&corpus.join("pdb/DoerriesT_VEngine2"), "pdb");
    assert!(!pdbs.is_empty(), "no PDBs in the corpus");
    let (mut read, mut identical, mut guid_is_hash, mut quirk, mut paired, mut digest_copied) =
        (0, 0, 0, 0, 0, 0);
    for path in &pdbs {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let pdb = Pdb::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        read += 1;
        let info = pdb.info();
        assert_eq!(
            (info.version, info.signature, info.age),
            (PDB_VERSION_VC70, 0, 1),
            "{name}"
        );
        if u64::from(pdb.superblock().num_blocks) + 1 == pdb.file_blocks() {
            quirk += 1;
        }
        let container = pdb
            .container_bytes()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let part_path = corpus
            .join("bin/DoerriesT_VEngine2_pdbparts")
            .join(format!("{name}__stream5.pdbpart.dxil"));
        let expected = std::fs::read(&part_path).unwrap();
        assert_eq!(&container[..], &expected[..], "{name}: stream 5 differs");
        identical += 1;
        let parsed = Container::parse(&container).unwrap();
        let hash = ShaderHash::parse(&parsed.require(PartName::HASH).unwrap()).unwrap();
        assert_eq!(
            hash.digest, info.guid,
            "{name}: GUID is not the HASH digest"
        );
        guid_is_hash += 1;
        let via_helper = container_input(&bytes).unwrap();
        assert!(via_helper.is_from_pdb());
        assert_eq!(&via_helper.bytes[..], &expected[..]);
        let stem = name.trim_end_matches(".pdb");
        let main = ["cso", "dxil"]
            .iter()
            .map(|ext| corpus.join(format!("bin/DoerriesT_VEngine2/{stem}.{ext}")))
            .find(|p| p.is_file());
        if let Some(main) = main {
            paired += 1;
            let main = std::fs::read(main).unwrap();
            if main.get(4..20) == container.get(4..20) {
                digest_copied += 1;
            }
        }
    }
    println!(
        "{read} dxc PDBs read; {identical} stream-5 containers byte-identical to the pdbparts; \
         {guid_is_hash} GUIDs = HASH digest; {quirk} with NumBlocks one less than real; \
         {digest_copied} of {paired} paired main shaders share the container digest"
    );
    assert_eq!(read, pdbs.len());
    assert_eq!(digest_copied, paired);
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn fxc_pdbs_have_no_container() {
    let Some(corpus) = corpus_or_skip("fxc_pdbs_have_no_container") else {
        return;
    };
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    let mut fxc = 0;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(2) != Some(&"msf-pdb") || cols.get(4) != Some(&"-") {
            continue;
        }
        let bytes = std::fs::read(corpus.join(cols[0])).unwrap();
        let pdb = Pdb::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", cols[0]));
        assert!(pdb.stream_count() > 5);
        let err = pdb.container_bytes().unwrap_err();
        assert!(
            matches!(err.kind, ReadErrorKind::PdbNoContainer { .. }),
            "{}: {err}",
            cols[0]
        );
        assert_eq!(
            err.to_string(),
            "PDB has no DXIL container in stream 5 (an fxc PDB?)"
        );
        assert!(container_input(&bytes).is_err());
        // fxc PDBs scatter their streams: every stream still reads in full.
        for i in 0..pdb.stream_count() {
            assert_eq!(
                pdb.stream(i).unwrap().len() as u32,
                pdb.stream_size(i).unwrap()
            );
        }
        fxc += 1;
    }
    println!("{fxc} fxc PDBs refused with the no-container error");
    assert!(fxc > 0, "MANIFEST lists no fxc PDBs");
}
