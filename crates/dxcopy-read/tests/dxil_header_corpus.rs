//! Corpus check for the DXIL listing's comment header: for every container
//! of `../shared/corpus/dxc-listings` (bin/ and console/bin/), the header
//! `listing::dxil::header::write_header` prints is compared with the lines of dxc's
//! own listing before `target datalayout`. Per METADATA.tsv, listings with
//! CRLF line ends are compared after dropping the CRs, and DagorEngine's
//! (whose repository strips trailing whitespace) modulo trailing
//! whitespace. Prints identical / differing counts per dxc release and the
//! first differing line of each differing file, and asserts the count
//! reached.

use std::collections::BTreeMap;
use std::path::Path;

use dxcopy_harness::corpus::corpus_or_skip;
use dxcopy_read::dxil::Module;
use dxcopy_read::listing::dxil::header::write_header;
use dxcopy_read::listing::dxil::release::DxcRelease;
use dxcopy_read::{Container, PartName, Program};

/// Identical headers reached over the 85 files (asserted, so that a
/// regression fails). The 85th, DirectX-Graphics-Samples' SakuraForestSER
/// library, cannot be reproduced: its listing names the cbuffer's struct
/// `struct.ObjectConstantBuffer` where both modules of its container (DXIL
/// and STAT, read by this crate and by llvm-dis alike) call it
/// `struct.CubeConstantBuffer`; the listing's text was edited after dxc
/// wrote it.
const EXPECTED_IDENTICAL: usize = 84;

struct Row {
    file: String,
    console: bool,
    strip_trailing: bool,
    crlf: bool,
    ident: String,
}

fn rows(corpus: &Path) -> Vec<Row> {
    let table = std::fs::read_to_string(corpus.join("METADATA.tsv")).unwrap();
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (file, set, crlf, repo, ident) = (
        column("file"),
        column("set"),
        column("crlf"),
        column("repo"),
        column("llvm_ident"),
    );
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Row {
                file: fields[file].to_string(),
                console: fields[set] == "console",
                // DagorEngine's formatter stripped trailing whitespace
                // (its listings count 0 such lines in METADATA.tsv).
                strip_trailing: fields[repo] == "GaijinEntertainment/DagorEngine",
                crlf: fields[crlf] == "True",
                ident: fields[ident].to_string(),
            }
        })
        .collect()
}

/// The listing's lines before `target datalayout`, each with its `\n`.
fn expected_header(listing: &str, row: &Row) -> String {
    let listing = if row.crlf {
        listing.replace("\r\n", "\n")
    } else {
        listing.to_string()
    };
    let end = listing
        .find("\ntarget datalayout")
        .map(|i| i + 1)
        .or_else(|| listing.starts_with("target datalayout").then_some(0))
        .unwrap_or(listing.len());
    listing[..end].to_string()
}

fn normalise(text: &str, strip_trailing: bool) -> String {
    if !strip_trailing {
        return text.to_string();
    }
    text.lines()
        .map(|line| format!("{}\n", line.trim_end()))
        .collect()
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn header_matches_every_dxc_listing() {
    let Some(corpus) = corpus_or_skip("dxil_header_corpus") else {
        return;
    };
    let dir = corpus.join("dxc-listings");
    let rows = rows(&dir);
    assert!(
        !rows.is_empty(),
        "{}: METADATA.tsv lists no file",
        dir.display()
    );
    let mut per_release: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut identical = 0;
    let mut differing = Vec::new();
    for row in &rows {
        let base = if row.console {
            dir.join("console")
        } else {
            dir.clone()
        };
        let bytes = std::fs::read(base.join("bin").join(&row.file)).unwrap();
        let listing =
            std::fs::read_to_string(base.join("listings").join(format!("{}.lst", row.file)))
                .unwrap();
        let want = normalise(&expected_header(&listing, row), row.strip_trailing);
        let container = Container::parse(&bytes).unwrap();
        // The module dxc prints: ILDB's when present, else DXIL's.
        let program_part = container
            .find(PartName::ILDB)
            .or_else(|| container.find(PartName::DXIL))
            .unwrap();
        let program = Program::parse(&program_part).unwrap();
        let module = Module::parse(program.bitcode).unwrap();
        let release = DxcRelease::of_module(&container, Some(&module));
        let mut ours = String::new();
        let result = write_header(&container, Some(&module), &release, &mut ours);
        let ours = normalise(&ours, row.strip_trailing);
        let entry = per_release.entry(row.ident.clone()).or_default();
        if result.is_ok() && ours == want {
            identical += 1;
            entry.0 += 1;
        } else {
            entry.1 += 1;
            let first = ours
                .lines()
                .chain(std::iter::repeat("<end>"))
                .zip(want.lines())
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .map(|(n, (a, b))| format!("line {}: ours {a:?}, dxc {b:?}", n + 1))
                .unwrap_or_else(|| format!("{result:?}; ours is longer"));
            let lines = ours
                .lines()
                .zip(want.lines())
                .filter(|(a, b)| a != b)
                .count();
            differing.push(format!(
                "{} ({release}): {lines} line(s) differ, first {first}",
                row.file
            ));
        }
    }
    for (ident, (same, other)) in &per_release {
        println!("dxil_header_corpus: {ident}: {same} identical, {other} differing");
    }
    for line in &differing {
        println!("dxil_header_corpus: differs: {line}");
    }
    println!(
        "dxil_header_corpus: {identical} of {} headers identical",
        rows.len()
    );
    assert_eq!(identical, EXPECTED_IDENTICAL, "identical headers");
}
