//! Corpus checks for the companion-PDB writer:
//! - re-laying out every corpus PDB's stream-5 container with
//!   `build_pdb_container` reproduces it byte for byte;
//! - `write_companion_pdb` from each corpus PDB's own container and GUID
//!   reproduces the PDB byte for byte except NumBlocks (dxc writes one less);
//! - when `/usr/lib/llvm-22/bin/llvm-pdbutil` exists, `export --stream=5` of
//!   each PDB we wrote yields exactly our container and `dump --summary` shows
//!   our GUID and age.
//!
//! The corpus is found by `dxcopy_harness::corpus`; the tests say so and pass when it is missing.

use dxcopy_edit::pdb::{build_pdb_container, write_companion_pdb};
use dxcopy_read::pdb::{Pdb, PdbInfo};
use dxcopy_read::Container;
use std::path::{Path, PathBuf};
use std::process::Command;

const LLVM_PDBUTIL: &str = "/usr/lib/llvm-22/bin/llvm-pdbutil";

fn corpus_pdbs(corpus: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join("pdb/DoerriesT_VEngine2"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pdb"))
        .collect();
    files.sort();
    files
}

fn pdbutil() -> Option<&'static str> {
    if Path::new(LLVM_PDBUTIL).is_file() {
        Some(LLVM_PDBUTIL)
    } else {
        dxcopy_harness::corpus::skip("llvm-pdbutil checks", &format!("{LLVM_PDBUTIL} not found"));
        None
    }
}

/// Runs `llvm-pdbutil export --stream=5` and `dump --summary` on `pdb_path`
/// and checks the container and the GUID/age lines.
fn check_with_pdbutil(tool: &str, pdb_path: &Path, container: &[u8], info: &PdbInfo) {
    let exported = pdb_path.with_extension("stream5");
    let status = Command::new(tool)
        .arg("export")
        .arg("--stream=5")
        .arg(format!("--out={}", exported.display()))
        .arg(pdb_path)
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    assert_eq!(
        std::fs::read(&exported).unwrap(),
        container,
        "{}: llvm-pdbutil exported a different stream 5",
        pdb_path.display()
    );
    let summary = Command::new(tool)
        .args(["dump", "--summary"])
        .arg(pdb_path)
        .output()
        .unwrap();
    assert!(summary.status.success(), "{summary:?}");
    let text = String::from_utf8_lossy(&summary.stdout);
    assert!(
        text.contains(&format!("GUID: {}", info.guid_string())),
        "{text}"
    );
    assert!(text.contains(&format!("Age: {}", info.age)), "{text}");
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn pdb_containers_relayout_byte_for_byte() {
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("pdb_containers_relayout_byte_for_byte")
    else {
        return;
    };
    let parts_dir = corpus.join("bin/DoerriesT_VEngine2_pdbparts");
    let mut identical = 0;
    for path in corpus_pdbs(&corpus) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let original =
            std::fs::read(parts_dir.join(format!("{name}__stream5.pdbpart.dxil"))).unwrap();
        let c = Container::parse(&original).unwrap();
        let rebuilt = build_pdb_container(&c, c.header().digest).unwrap();
        assert!(rebuilt == original, "{name}: re-laid-out container differs");
        identical += 1;
    }
    println!("{identical} corpus PDB containers re-laid out byte for byte");
    assert!(identical > 0);
}

#[cfg_attr(
    not(all(dxcopy_corpus, dxcopy_llvm)),
    ignore = "needs the shared corpus and LLVM 22"
)]
#[test]
fn companion_pdbs_rewrite_byte_for_byte() {
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("companion_pdbs_rewrite_byte_for_byte")
    else {
        return;
    };
    let tool = pdbutil();
    let dir = tempfile::tempdir().unwrap();
    let (mut identical, mut pdbutil_checked) = (0, 0);
    for path in corpus_pdbs(&corpus) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let original = std::fs::read(&path).unwrap();
        let pdb = Pdb::parse(&original).unwrap();
        let container = pdb.container_bytes().unwrap();
        let written = write_companion_pdb(&container, pdb.info().guid).unwrap();
        assert_eq!(written.len(), original.len(), "{name}: length");
        // Everything but NumBlocks (bytes 40..44) is dxc's layout exactly.
        let differing: Vec<usize> = (0..written.len())
            .filter(|&i| written[i] != original[i])
            .collect();
        assert!(
            differing.iter().all(|i| (40..44).contains(i)),
            "{name}: bytes differ at {:?}",
            &differing[..differing.len().min(8)]
        );
        let ours = u32::from_le_bytes(written[40..44].try_into().unwrap());
        let theirs = u32::from_le_bytes(original[40..44].try_into().unwrap());
        assert_eq!(ours, theirs + 1, "{name}: NumBlocks");
        assert_eq!(u64::from(ours), (written.len() / 512) as u64);
        identical += 1;
        if let Some(tool) = tool {
            let out = dir.path().join(&name);
            std::fs::write(&out, &written).unwrap();
            check_with_pdbutil(tool, &out, &container, &pdb.info());
            pdbutil_checked += 1;
        }
    }
    println!(
        "{identical} corpus PDBs rewritten byte for byte except NumBlocks; \
         {pdbutil_checked} verified with llvm-pdbutil export --stream=5 and dump --summary"
    );
    assert!(identical > 0);
}

#[cfg_attr(
    not(dxcopy_llvm),
    ignore = "needs LLVM 22 (/usr/lib/llvm-22/bin or $DXCOPY_LLVM_BIN)"
)]
#[test]
fn large_block_size_layout_reads_in_llvm_pdbutil() {
    let Some(tool) = pdbutil() else { return };
    // Too large for 512-byte blocks: written with 1024-byte blocks.
    let len = (128 * 512 - 32) / 4 * 512 + 4;
    let mut container = vec![0u8; len];
    container[..4].copy_from_slice(b"DXBC");
    container[20] = 1;
    container[24..28].copy_from_slice(&(len as u32).to_le_bytes());
    let guid: [u8; 16] = std::array::from_fn(|i| 0xf0 | i as u8);
    let written = write_companion_pdb(&container, guid).unwrap();
    let pdb = Pdb::parse(&written).unwrap();
    assert_eq!(pdb.superblock().block_size, 1024);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("large.pdb");
    std::fs::write(&out, &written).unwrap();
    check_with_pdbutil(tool, &out, &container, &pdb.info());
    println!("1024-byte-block PDB of a {len}-byte container verified with llvm-pdbutil");
}
