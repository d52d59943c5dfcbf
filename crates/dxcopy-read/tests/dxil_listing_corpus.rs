//! Corpus check for dxc's DXIL listing: for every container of
//! `../shared/corpus/dxc-listings`, `listing::dxil::container_listing` is
//! compared with the listing the dxc that compiled it printed (rules in
//! `dxcopy_harness::dxc_listings`: the Xbox One hardware dump cut, CRLF as
//! LF, DagorEngine's modulo trailing whitespace). Prints the counts per dxc
//! release and the first differing line of each differing file, and
//! asserts at least [`IDENTICAL_AT_LEAST`] are identical (a ratchet: raise
//! it as the printer gets closer). The streamed listing
//! (`write_container_listing_to`, what `dxinfo --disasm` prints) is the
//! string listing byte for byte for every container.

use dxcopy_harness::dxc_listings::{dxc_listings, dxc_listings_or_skip};
use dxcopy_read::listing::dxil::{container_listing, write_container_listing_to, ListingOptions};
use dxcopy_read::Container;
use std::collections::BTreeMap;

/// Listings known to be byte-identical.
const IDENTICAL_AT_LEAST: usize = 84;

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn dxc_listings_are_reproduced() {
    let Some(dir) = dxc_listings_or_skip("dxil_listing_corpus") else {
        return;
    };
    let entries = dxc_listings(&dir).expect("METADATA.tsv");
    assert!(!entries.is_empty(), "{}: no listing", dir.display());
    let mut identical = 0;
    let mut streamed_long = 0;
    let mut per_release: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for entry in &entries {
        let want = entry.reference().expect("reference listing");
        let bytes = std::fs::read(&entry.container).expect("container");
        let container = Container::parse(&bytes).expect("a container");
        let listing = container_listing(&container, &ListingOptions::default());
        let mut streamed = Vec::new();
        let streamed_result =
            write_container_listing_to(&container, &ListingOptions::default(), &mut streamed)
                .expect("writing to a Vec");
        match &listing {
            Ok(text) => {
                assert_eq!(streamed_result, Ok(()), "{}", entry.file);
                assert!(
                    streamed == text.as_bytes(),
                    "{}: streamed differs",
                    entry.file
                );
                // The printer writes pieces of 16 KiB.
                if text.len() > 16 * 1024 {
                    streamed_long += 1;
                }
            }
            Err(e) => assert_eq!(streamed_result.as_ref(), Err(e), "{}", entry.file),
        }
        let ours = match listing {
            Ok(text) => text,
            Err(e) => format!("error: {e}\n"),
        };
        let counts = per_release.entry(entry.ident.as_str()).or_default();
        if entry.same(&ours, &want) {
            identical += 1;
            counts.0 += 1;
        } else {
            counts.1 += 1;
            match entry.difference(&ours, &want) {
                Some((line, a, b)) => {
                    println!("{}: line {line}\n  ours: {a}\n  want: {b}", entry.file)
                }
                None => println!("{}: differs in trailing whitespace", entry.file),
            }
        }
    }
    println!(
        "dxil_listing_corpus: {identical} of {} listings identical",
        entries.len()
    );
    for (release, (same, differ)) in &per_release {
        println!("  {release}: {same} identical, {differ} differ");
    }
    println!(
        "  streamed listings identical to the string ones, {streamed_long} of them over 16 KiB"
    );
    assert!(
        streamed_long > 0,
        "no listing spans two of the printer's pieces"
    );
    assert!(
        identical >= IDENTICAL_AT_LEAST,
        "{identical} identical, fewer than the {IDENTICAL_AT_LEAST} reached before"
    );
}
