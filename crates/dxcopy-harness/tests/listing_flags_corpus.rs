//! Corpus properties of the listing flags that leave parts of a DXBC
//! listing out (docs/format/listing-options.md):
//!
//! - `D3D_DISASM_DISABLE_DEBUG_INFO`: the listing of a `/Zi` container is
//!   that of the same container without its SPDB or SDBG part;
//! - `D3D_DISASM_INSTRUCTION_ONLY`: the listing is the program part of the
//!   plain one, from the profile line to the slot line.
//!
//! The corpus is `$DXCOPY_SHARED/corpus` or `../shared/corpus`; without it
//! the tests are ignored.

use dxcopy_harness::corpus::{
    each_dxbc_program, listing_program_portion, manifest_or_skip, parse_manifest, Row,
};
use dxcopy_read::listing::{dxbc, DisasmFlags};
use dxcopy_read::{Container, PartName};

/// The rows of `fxc-listings-2` (SpecialK's `/Zi` builds among them),
/// when that folder is there.
fn second_set(corpus: &std::path::Path) -> Vec<Row> {
    let dir = corpus.join("fxc-listings-2");
    match std::fs::read_to_string(dir.join("MANIFEST.tsv")) {
        Ok(text) => parse_manifest(&dir, &text),
        Err(_) => Vec::new(),
    }
}

fn listing(container: &Container<'_>, flags: DisasmFlags) -> dxbc::Listing {
    let options = dxbc::ListingOptions {
        flags,
        ..dxbc::ListingOptions::default()
    };
    dxbc::listing(container, "t", &options).unwrap()
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn without_debug_info_the_listing_is_that_of_the_container_without_its_debug_part() {
    let Some((corpus, mut rows)) = manifest_or_skip("listing_flags_corpus") else {
        return;
    };
    rows.extend(second_set(&corpus));
    let no_debug = DisasmFlags {
        no_debug_info: true,
        ..DisasmFlags::default()
    };
    let debug = [PartName(*b"SPDB"), PartName(*b"SDBG")];
    let mut compared = 0;
    each_dxbc_program(&rows, |row, container| {
        if !row.parts.iter().any(|p| p == "SPDB" || p == "SDBG") {
            return;
        }
        let mut builder = dxcopy_edit::ContainerBuilder::new();
        for part in container.parts() {
            if !debug.contains(&part.name) {
                builder = builder.part(&part.name.0, part.data);
            }
        }
        let stripped = builder.build().unwrap();
        let stripped = Container::parse(&stripped).unwrap();
        let ours = listing(container, no_debug);
        let want = listing(&stripped, DisasmFlags::default());
        assert_eq!(ours.text, want.text, "{}", row.rel);
        assert!(!ours.text.contains("\n#line "), "{}", row.rel);
        compared += 1;
    });
    println!("{compared} /Zi containers listed without their notes");
    assert!(compared > 0);
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn instruction_only_is_the_program_part_of_the_plain_listing() {
    let Some((_, rows)) = manifest_or_skip("listing_flags_corpus") else {
        return;
    };
    let only = DisasmFlags {
        instruction_only: true,
        ..DisasmFlags::default()
    };
    let compared = each_dxbc_program(&rows, |row, container| {
        let plain = listing(container, DisasmFlags::default());
        let ours = listing(container, only);
        // A Level9 section's program starts with a `ps_2_x`-style line:
        // the SM4/SM5 program is the plain listing's last part.
        assert!(plain.text.ends_with(&ours.text), "{}", row.rel);
        assert!(!ours.text.starts_with("//"), "{}", row.rel);
        if plain.errors.is_empty() {
            assert_eq!(
                ours.text,
                listing_program_portion(&plain.text),
                "{}",
                row.rel
            );
        }
    });
    println!("{compared} DXBC listings, instructions only");
    assert!(compared > 0);
}
