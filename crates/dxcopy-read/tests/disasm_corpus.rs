//! Corpus check for the SM4/SM5 disassembler: for every reference listing in
//! `../shared/corpus/listings` (Microsoft's own text, `LISTINGS.tsv` maps it
//! to its container), the program part of our listing — from the `ps_4_0`
//! line to the closing `// Approximately …` line — is identical.
//!
//! The corpus is found at `$DXCOPY_SHARED/corpus`, else
//! `CARGO_MANIFEST_DIR/../../../shared/corpus`; the test says so and passes
//! when it is missing.

use dxcopy_read::disasm;
use dxcopy_read::Container;
use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    let shared = std::env::var_os("DXCOPY_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let corpus = shared.join("corpus");
    if corpus.join("listings/LISTINGS.tsv").is_file() {
        Some(corpus)
    } else {
        println!(
            "skipping: corpus listings not found at {} (set DXCOPY_SHARED)",
            corpus.display()
        );
        None
    }
}

/// The program part of a listing: from the profile line to the end.
fn program_portion(listing: &str) -> &str {
    let mut offset = 0;
    for line in listing.split_inclusive('\n') {
        let l = line.trim_end();
        let b = l.as_bytes();
        if b.len() == 6
            && [b"ps", b"vs", b"gs", b"hs", b"ds", b"cs"]
                .iter()
                .any(|p| &b[..2] == *p)
            && b[2] == b'_'
            && b[3].is_ascii_digit()
            && b[4] == b'_'
            && b[5].is_ascii_digit()
        {
            return &listing[offset..];
        }
        offset += line.len();
    }
    ""
}

#[test]
fn program_listing_matches_every_reference() {
    let Some(corpus) = corpus() else { return };
    let table = std::fs::read_to_string(corpus.join("listings/LISTINGS.tsv")).unwrap();
    let mut identical = 0;
    let mut differing = Vec::new();
    for row in table.lines() {
        let path = row.split('\t').next().unwrap();
        let expected =
            std::fs::read_to_string(corpus.join("listings").join(format!("{path}.lst"))).unwrap();
        let bytes = std::fs::read(corpus.join(path)).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let mut ours = String::new();
        let cut = disasm::write_program_listing(&container, &mut ours).unwrap();
        assert_eq!(cut, None, "{path}");
        let want = program_portion(&expected);
        assert!(!want.is_empty(), "{path}: no profile line in the reference");
        if ours == want {
            identical += 1;
        } else {
            let line = ours
                .lines()
                .zip(want.lines())
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("ours: {a:?}\nwant: {b:?}"))
                .unwrap_or_else(|| "(length differs)".into());
            differing.push(format!("{path}\n{line}"));
        }
    }
    println!("identical {identical}, differing {}", differing.len());
    for d in differing.iter().take(10) {
        println!("{d}");
    }
    assert!(identical > 0, "no listings compared");
    assert!(differing.is_empty(), "{} listings differ", differing.len());
}
