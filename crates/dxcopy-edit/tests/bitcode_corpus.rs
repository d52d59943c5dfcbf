//! Every DXIL, ILDB and dxc STAT bitcode of ../shared/corpus (containers and
//! the containers in companion PDBs): read then written again gives the same
//! bytes; the module facts decode; the data layout fix changes only the
//! DATALAYOUT record's characters.

use dxcopy_edit::bitcode::{fix_data_layout, rewrite, strip_names, RecordEdit};
use dxcopy_harness::corpus::program_bitcode;
use dxcopy_read::dxil::facts::ModuleFacts;

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_bitcode_round_trips_byte_for_byte_and_decodes() {
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(
        "corpus_bitcode_round_trips_byte_for_byte_and_decodes",
    ) else {
        return;
    };
    let all = program_bitcode(&corpus);
    assert!(!all.is_empty(), "no program bitcode found in the corpus");
    let (mut dxil, mut ildb, mut stat) = (0, 0, 0);
    for (file, part, bitcode) in &all {
        let again = rewrite(bitcode, |_, _| RecordEdit::Keep)
            .unwrap_or_else(|e| panic!("{file} {part}: {e}"));
        assert!(again == *bitcode, "{file} {part}: round trip differs");
        let facts = ModuleFacts::decode(bitcode).unwrap_or_else(|e| panic!("{file} {part}: {e}"));
        assert!(
            facts
                .triple
                .as_deref()
                .is_some_and(|t| t.starts_with("dxil")),
            "{file} {part}: triple {:?}",
            facts.triple
        );
        match part.as_str() {
            "DXIL" => dxil += 1,
            "ILDB" => ildb += 1,
            _ => stat += 1,
        }
    }
    println!(
        "bitcode round trips: {} ({dxil} DXIL, {ildb} ILDB, {stat} STAT)",
        all.len()
    );
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_layout_fix_changes_only_the_i8_alignment() {
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("corpus_layout_fix_changes_only_the_i8_alignment")
    else {
        return;
    };
    let all = program_bitcode(&corpus);
    assert!(!all.is_empty(), "no program bitcode found in the corpus");
    let mut fixed = 0;
    for (file, part, bitcode) in &all {
        let fix = fix_data_layout(bitcode).unwrap_or_else(|e| panic!("{file} {part}: {e}"));
        let old = fix.old_layout.clone().expect("a data layout");
        let Some(new) = &fix.new_layout else {
            assert!(
                !old.split('-').any(|s| s.starts_with("i8:32")),
                "{file}: {old}"
            );
            assert_eq!(&fix.bytes[..], &bitcode[..]);
            continue;
        };
        fixed += 1;
        assert_eq!(new, &old.replace("i8:32", "i8:08"), "{file} {part}");
        assert!(fix.in_place, "{file} {part}: not patched in place");
        assert_eq!(fix.bytes.len(), bitcode.len());
        let facts = ModuleFacts::decode(&fix.bytes).expect("fixed bitcode decodes");
        assert_eq!(facts.data_layout.as_ref(), Some(new));
        // Only bits of the DATALAYOUT record differ: at most 2 chars × 12 bits.
        let differing_bits: u32 = fix
            .bytes
            .iter()
            .zip(bitcode)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum();
        assert!(differing_bits > 0 && differing_bits <= 24, "{file} {part}");
    }
    assert!(fixed > 0, "no corpus bitcode needed the layout fix");
    println!("data layouts fixed in place: {fixed} of {}", all.len());
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_name_stripping_keeps_the_stream_readable() {
    let Some(corpus) =
        dxcopy_harness::corpus::corpus_or_skip("corpus_name_stripping_keeps_the_stream_readable")
    else {
        return;
    };
    let all = program_bitcode(&corpus);
    assert!(!all.is_empty(), "no program bitcode found in the corpus");
    let mut stripped = 0;
    for (file, part, bitcode) in &all {
        let (out, stats) = strip_names(bitcode).unwrap_or_else(|e| panic!("{file} {part}: {e}"));
        let before = ModuleFacts::decode(bitcode).expect("decodes");
        let after = ModuleFacts::decode(&out).unwrap_or_else(|e| panic!("{file} {part}: {e}"));
        assert_eq!(before, after, "{file} {part}: module facts changed");
        if stats.total() == 0 {
            assert_eq!(out, *bitcode, "{file} {part}");
        } else {
            assert!(out.len() < bitcode.len(), "{file} {part}");
        }
        stripped += stats.total();
    }
    println!("names stripped over the corpus: {stripped}");
}
