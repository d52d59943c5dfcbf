//! The record writers over the corpus: every part of a kind with a writer,
//! decoded and encoded again, gives back the bytes it was read from.
//!
//! The corpus is found by `dxcopy_harness::corpus`; the test says so and
//! passes when it is missing.

use std::collections::BTreeMap;

use dxcopy_harness::corpus::manifest_or_skip;
use dxcopy_read::program::PROGRAM_HEADER_SIZE;
use dxcopy_read::psv0::Psv0;
use dxcopy_read::rts0::RootSignature;
use dxcopy_read::sfi0::Sfi0;
use dxcopy_read::signature::Signature;
use dxcopy_read::{Container, Program, ShaderHash};

/// Hand-made test inputs of dxc's DXBC-to-DXIL converter whose signature
/// parts hold bytes that no decoded field keeps (nonzero element padding,
/// bytes between the names).
const ODD_BYTES: &[&str] = &[
    "dxbc2dxil-asm_hs3.dxbc",
    "dxbc2dxil-asm_indexabletemp6.dxbc",
];

/// The part data part `index` encodes to, when its kind has a writer;
/// `None` for other kinds.
fn encode_again(container: &Container<'_>, index: u32) -> Option<(&'static str, Vec<u8>)> {
    let part = container.part(index)?;
    Some(match &part.name.0 {
        b"HASH" => ("HASH", ShaderHash::parse(&part).ok()?.to_bytes()),
        b"SFI0" => ("SFI0", Sfi0::parse(&part).ok()?.to_bytes()),
        b"RTS0" => ("RTS0", RootSignature::parse(&part).ok()?.to_bytes()),
        b"PSV0" => (
            "PSV0",
            Psv0::parse(&part, container.stage()).ok()?.to_bytes(),
        ),
        b"DXIL" | b"ILDB" => {
            let program = Program::parse(&part).ok()?;
            let mut bytes = program.header().to_bytes();
            bytes.extend_from_slice(part.data.get(PROGRAM_HEADER_SIZE..)?);
            ("program header", bytes)
        }
        _ => {
            let signature = Signature::parse(&part).ok()??;
            // The padding after the names is the producer's: fxc's 0xAB,
            // dxc's zeros, or none from some dxc releases.
            let pad = match part.data.last() {
                _ if part.data.len() % 4 != 0 => None,
                Some(0xab) => Some(0xab),
                _ => Some(0),
            };
            ("signature", signature.to_bytes_padded(pad))
        }
    })
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn records_written_again_equal_the_corpus_parts() {
    let Some((_, rows)) = manifest_or_skip("records_written_again_equal_the_corpus_parts") else {
        return;
    };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for row in rows.iter().filter(|r| r.kind == "dxbc" || r.kind == "dxil") {
        let bytes = std::fs::read(&row.path).unwrap_or_else(|e| panic!("{}: {e}", row.rel));
        let Ok(container) = Container::parse(&bytes) else {
            continue;
        };
        for index in 0..container.part_count() {
            let Some((kind, encoded)) = encode_again(&container, index) else {
                continue;
            };
            *counts.entry(kind).or_default() += 1;
            let part = container.part(index).expect("listed part");
            if encoded != part.data && !ODD_BYTES.iter().any(|odd| row.rel.ends_with(odd)) {
                failures.push(format!("{} part {index} ({kind})", row.rel));
            }
        }
    }
    println!("parts written again: {counts:?}");
    assert!(
        failures.is_empty(),
        "{} differ, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
    for kind in [
        "HASH",
        "SFI0",
        "PSV0",
        "RTS0",
        "program header",
        "signature",
    ] {
        assert!(
            counts.get(kind).copied().unwrap_or(0) > 10,
            "{kind}: {counts:?}"
        );
    }
}
