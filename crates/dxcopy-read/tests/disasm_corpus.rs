//! Corpus check for the SM4/SM5 disassembler: for every reference listing in
//! `../shared/corpus/listings` (Microsoft's own text, `LISTINGS.tsv` maps it
//! to its container), the program part of our listing — from the `ps_4_0`
//! line to the closing `// Approximately …` line — is identical, with the
//! float rounding of current Windows or, for listings that a Windows older
//! than 10 version 2004 wrote (ties rounded away from zero), the legacy one.
//!
//! The corpus is found at `$DXCOPY_SHARED/corpus`, else
//! `CARGO_MANIFEST_DIR/../../../shared/corpus`; the test says so and passes
//! when it is missing.

use dxcopy_harness::corpus::{listing_program_portion, listings_or_skip};
use dxcopy_read::listing::dxbc::{self, FloatRounding, ListingOptions};
use dxcopy_read::Container;

fn program_text(container: &Container<'_>, rounding: FloatRounding, path: &str) -> String {
    let mut ours = String::new();
    let cut = dxbc::write_program_listing(
        container,
        &ListingOptions {
            rounding,
            release: None,
            ..ListingOptions::default()
        },
        &mut ours,
    )
    .unwrap_or_else(|e| panic!("{path}: {e:?}"));
    assert_eq!(cut, None, "{path}");
    ours
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn program_listing_matches_every_reference() {
    let Some(corpus) = listings_or_skip("disasm_corpus") else {
        return;
    };
    let table = std::fs::read_to_string(corpus.join("listings/LISTINGS.tsv")).unwrap();
    let (mut identical, mut legacy) = (0, Vec::new());
    let mut differing = Vec::new();
    for row in table.lines() {
        let path = row.split('\t').next().unwrap();
        let expected =
            std::fs::read_to_string(corpus.join("listings").join(format!("{path}.lst"))).unwrap();
        let bytes = std::fs::read(corpus.join(path)).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let ours = program_text(&container, FloatRounding::Current, path);
        let want = listing_program_portion(&expected);
        assert!(!want.is_empty(), "{path}: no profile line in the reference");
        if ours == want {
            identical += 1;
        } else if program_text(&container, FloatRounding::Legacy, path) == want {
            legacy.push(path.to_owned());
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
    println!(
        "identical {identical} with current rounding, {} with legacy rounding, differing {}",
        legacy.len(),
        differing.len()
    );
    for path in &legacy {
        println!("legacy rounding: {path}");
    }
    for d in differing.iter().take(10) {
        println!("{d}");
    }
    assert!(identical > 0, "no listings compared");
    // The two roundings differ only at exact ties: a listing that needs the
    // legacy one is rare, and never the rule.
    assert!(legacy.len() * 20 < identical, "{legacy:?}");
    assert!(differing.is_empty(), "{} listings differ", differing.len());
}

/// The part summary `dxinfo --json` shows (instruction count and the
/// declarations) agrees with the reference listing: its `dcl_*` lines, in
/// order and spelled the same, and the number of the other listing lines.
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn part_summary_matches_every_reference() {
    let Some(corpus) = listings_or_skip("disasm_corpus") else {
        return;
    };
    let table = std::fs::read_to_string(corpus.join("listings/LISTINGS.tsv")).unwrap();
    let (mut compared, mut declarations, mut instructions) = (0, 0, 0);
    for row in table.lines() {
        let path = row.split('\t').next().unwrap();
        let expected =
            std::fs::read_to_string(corpus.join("listings").join(format!("{path}.lst"))).unwrap();
        let mut want_decls: Vec<String> = Vec::new();
        let mut want_count = 0u32;
        for line in listing_program_portion(&expected).lines().skip(1) {
            let t = line.trim_start();
            if t.starts_with("dcl_") {
                want_decls.push(line.to_owned());
            } else if t.starts_with('{') {
                // An immediate constant buffer's further rows.
                let last = want_decls.last_mut().expect("row before any dcl_ line");
                last.push('\n');
                last.push_str(line);
            } else if !t.starts_with("//") && !t.is_empty() {
                want_count += 1;
            }
        }
        let bytes = std::fs::read(corpus.join(path)).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let part = dxbc::shader_part(&container).expect("SHDR or SHEX");
        dxcopy_read::dxbc::ShaderBytecode::parse(&part).unwrap();
        let summary = dxcopy_read::listing::dxbc::summary::ProgramSummary::decode(
            part.data,
            part.data_offset(),
        )
        .expect("decodable program");
        assert_eq!(summary.error, None, "{path}");
        let ours: Vec<&str> = summary
            .declarations
            .iter()
            .map(|d| d.text.as_str())
            .collect();
        assert_eq!(ours, want_decls, "{path}: declarations");
        assert_eq!(summary.declaration_count as usize, want_decls.len());
        assert_eq!(
            summary.instruction_count, want_count,
            "{path}: instructions"
        );
        for d in &summary.declarations {
            assert!(d.text.starts_with(&d.opcode), "{path}: {d:?}");
            assert_eq!(
                bytes[d.offset as usize..][..4],
                bytes[part.data_offset() as usize + d.token as usize * 4..][..4]
            );
        }
        compared += 1;
        declarations += want_decls.len();
        instructions += want_count as usize;
    }
    println!(
        "compared {compared} listings: {declarations} declarations, {instructions} instructions"
    );
    assert!(compared > 0);
}

/// Every listing of `../shared/corpus/fxc-listings-2` (fxc 9.29, 9.30, 6.3,
/// 10.0.10011 and 10.1) comes out identical in the layout of the release
/// that wrote it, which RDEF's creator names — aside from what a container
/// does not record: the `// Generated by` line, the compile command line
/// that 9.29 wrote under it, and trailing blanks where the repository
/// stripped them (METADATA.tsv's `trailing_ws_lines` is 0). CRLF line ends,
/// which some repositories kept, read as LF.
#[test]
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
fn fxc_listings_of_every_release_match() {
    let Some(corpus) = listings_or_skip("fxc_listings_of_every_release_match") else {
        return;
    };
    let root = corpus.join("fxc-listings-2");
    let metadata = std::fs::read_to_string(root.join("METADATA.tsv")).unwrap();
    let columns: Vec<&str> = metadata.lines().next().unwrap().split('\t').collect();
    let column = |name: &str| columns.iter().position(|c| *c == name).unwrap();
    let (generator_column, trailing_column) = (column("generator"), column("trailing_ws_lines"));
    // The lines compared: CRLF read as LF, the generator and command line aside.
    let lines =
        |text: &str, trim: bool| dxcopy_harness::corpus::comparable_listing_lines(text, trim, 3);
    let mut counts: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let mut differing = Vec::new();
    for row in metadata.lines().skip(1) {
        let fields: Vec<&str> = row.split('\t').collect();
        let (path, generator) = (fields[0], fields[generator_column]);
        let trim = fields[trailing_column] == "0";
        let want = std::fs::read(root.join("listings").join(format!("{path}.lst"))).unwrap();
        let bytes = std::fs::read(root.join(path)).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let ours = dxbc::listing(&container, generator, &ListingOptions::default()).unwrap();
        let same = lines(&ours.text, trim) == lines(&String::from_utf8_lossy(&want), trim);
        let release = generator.rsplit(' ').next().unwrap_or(generator).to_owned();
        let entry = counts.entry(release).or_default();
        if same {
            entry.0 += 1;
        } else {
            entry.1 += 1;
            differing.push(path.to_owned());
        }
    }
    for (release, (same, other)) in &counts {
        println!("fxc {release}: {same} identical, {other} differing");
    }
    assert!(counts.len() >= 5, "{counts:?}");
    assert_eq!(differing, Vec::<String>::new(), "these differ");
}
