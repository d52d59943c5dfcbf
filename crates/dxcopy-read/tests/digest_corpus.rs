//! The container digest over the corpus: the digests computed several
//! containers at a time (`digest::container_digests_many`, as dxstrip's
//! batches compute them) are those computed one by one, and they classify
//! every file as MANIFEST.tsv says.
//!
//! The corpus is found by `dxcopy_harness::corpus`; the test says so and
//! passes when it is missing.

use dxcopy_harness::corpus::manifest_or_skip;
use dxcopy_read::digest::{container_digests, container_digests_many, kind_from_digests};

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn digests_in_lanes_equal_one_by_one_over_the_corpus() {
    let Some((_, rows)) = manifest_or_skip("digests_in_lanes_equal_one_by_one_over_the_corpus")
    else {
        return;
    };
    let files: Vec<(String, String, Vec<u8>)> = rows
        .iter()
        .filter(|r| r.kind == "dxbc" || r.kind == "dxil")
        .map(|r| {
            let bytes = std::fs::read(&r.path).unwrap_or_else(|e| panic!("{}: {e}", r.rel));
            (r.rel.clone(), r.digest_kind.clone(), bytes)
        })
        .collect();
    assert!(files.len() > 1000, "{} containers", files.len());
    let bytes: Vec<&[u8]> = files.iter().map(|(_, _, b)| b.as_slice()).collect();
    let one_by_one: Vec<_> = bytes.iter().map(|c| container_digests(c)).collect();
    assert_eq!(container_digests_many(&bytes), one_by_one, "all at once");
    for batch in [3, 16] {
        let mut got = Vec::new();
        for chunk in bytes.chunks(batch) {
            got.extend(container_digests_many(chunk));
        }
        assert_eq!(got, one_by_one, "batches of {batch}");
    }
    let mut matched = 0;
    for ((rel, want, c), digests) in files.iter().zip(&one_by_one) {
        let kind = kind_from_digests(&c[4..20], *digests);
        assert_eq!(kind.as_str(), want, "{rel}");
        matched += 1;
    }
    println!("{matched} corpus containers: digests in lanes equal one by one, kinds as the manifest says");
}
