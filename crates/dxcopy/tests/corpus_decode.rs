//! Decodes every container of the shared corpus (`../shared/corpus`, or
//! `$DXCOPY_SHARED/corpus`) with every decoder and requires zero decode
//! errors, except for the few genuinely malformed files listed below.
//! Skips, saying so, when the corpus is not there.

use dxcopy_read::{decode_all, Container, MappedFile};

/// Corpus files whose parts are known to be malformed, with the reason.
/// Each entry: (path suffix, part name, why the decode error is right).
const KNOWN_MALFORMED: &[(&str, &str, &str)] = &[
    (
        "llvm-bin/ObjectYAML__PSVv0-ILDB.dxcontainer",
        "ILDB",
        "built by yaml2obj 22.1.8, which does not know ILDB and wrote 24 zero bytes: \
         no 'DXIL' bitcode magic",
    ),
    (
        "llvm-bin/obj2yaml__DXILPart.dxcontainer",
        "PSV0",
        "yaml2obj wrote its PSV0 as 120 zero bytes (the YAML gives only a size), so the \
         RuntimeInfo size is 0; LLVM rejects it too",
    ),
];

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn every_corpus_container_decodes() {
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip("every_corpus_container_decodes")
    else {
        return;
    };
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    let mut files = 0usize;
    let mut errors = Vec::new();
    let mut expected = 0usize;
    let mut issues = std::collections::BTreeMap::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(path), Some(kind)) = (cols.first(), cols.get(2)) else {
            continue;
        };
        if *kind == "msf-pdb" {
            continue;
        }
        let bytes = MappedFile::open(&corpus.join(path)).unwrap();
        let container = match Container::parse(&bytes) {
            Ok(c) => c,
            Err(e) => {
                errors.push(format!("{path}: {e}"));
                continue;
            }
        };
        files += 1;
        for (part, result) in decode_all(&container) {
            if let Ok(d) = &result {
                for issue in d.issues() {
                    *issues
                        .entry(format!("{} {}", part.name, issue.kind))
                        .or_insert(0usize) += 1;
                }
            }
            if let Err(e) = result {
                let known = KNOWN_MALFORMED.iter().any(|(suffix, name, _)| {
                    path.ends_with(suffix) && part.name.to_string() == *name
                });
                if known {
                    expected += 1;
                } else {
                    errors.push(format!("{path}: {e}"));
                }
            }
        }
    }
    println!(
        "decoded {files} files, {} decode errors ({expected} expected in known-malformed files)",
        errors.len() + expected
    );
    for (issue, count) in &issues {
        println!("  issue x{count}: {issue}");
    }
    assert!(
        errors.is_empty(),
        "unexpected decode errors:\n{}",
        errors.join("\n")
    );
}
