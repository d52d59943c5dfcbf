//! Hostile modules (`dxcopy_harness::attacks`) through the binaries: a run
//! that fails prints nothing on standard output (never the part of a
//! listing made before the error), names the file, and exits 1.

mod common;

use common::run_in;

/// Writes `bytes` as `name` in a new temp dir.
fn input(name: &str, bytes: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), bytes).unwrap();
    dir
}

/// The cbuffer struct DAG (each struct two of the one before): the
/// listing's header tables and reflection expand past their budget. Before,
/// `--disasm` printed megabytes of the header made before the budget ran
/// out, then the error.
#[test]
fn a_listing_past_its_budget_prints_nothing() {
    let bitcode = dxcopy_harness::attacks::cbuffer_struct_dag(40);
    let bytes = dxcopy_harness::attacks::container(&bitcode);
    let dir = input("dag.dxil", &bytes);
    for args in [
        &["--disasm", "dag.dxil"][..],
        &["--disasm=DXIL", "dag.dxil"],
        &["--reflect", "dag.dxil"],
    ] {
        let out = run_in("dxinfo", args, dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            out.stdout.is_empty(),
            "{args:?}: {} bytes on stdout: {:?}",
            out.stdout.len(),
            String::from_utf8_lossy(&out.stdout[..out.stdout.len().min(200)])
        );
        assert!(stderr.contains("'dag.dxil'"), "{args:?}: {stderr}");
        assert!(stderr.contains("budget"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// A module whose bitcode does not read: the listing is an error alone,
/// not the header's part sections followed by the error.
#[test]
fn a_module_that_does_not_read_lists_nothing() {
    let bitcode = dxcopy_harness::attacks::cbuffer_struct_dag(4);
    let mut cut = bitcode.clone();
    let half = cut.len() / 2;
    cut[half..].fill(0xff);
    let bytes = dxcopy_harness::attacks::container(&cut);
    let dir = input("cut.dxil", &bytes);
    let out = run_in("dxinfo", &["--disasm", "cut.dxil"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.contains("'cut.dxil': DXIL module: bitcode at bit "),
        "{stderr}"
    );
    // The same module whole lists.
    let dir = input("whole.dxil", &dxcopy_harness::attacks::container(&bitcode));
    let out = run_in("dxinfo", &["--disasm", "whole.dxil"], dir.path());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(listing.contains("!dx.resources = !{"), "{listing}");
}

/// A C header's `#if 0` listing of a DXIL container is dxc's listing: when
/// it cannot be made (past the work budget here), `--output-format=header`
/// fails as `--disasm` does: exit 1, the file named, nothing written.
#[test]
fn a_header_whose_listing_fails_is_not_written() {
    let bitcode = dxcopy_harness::attacks::entry_signature_dag(500);
    let dir = input("dag.dxil", &dxcopy_harness::attacks::container(&bitcode));
    let out = run_in(
        "dxcopy",
        &["--output-format=header", "dag.dxil", "dag.h"],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("dxcopy: error: 'dag.dxil': cannot write the header's listing: DXIL module (bitcode at offset 0x44), metadata record at bit "),
        "{stderr}"
    );
    assert!(stderr.contains("work budget"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["dag.dxil"], "nothing but the input is left");
}

/// A metadata node that expands past the budget: `--disasm` names the
/// file, the part, the bitcode's offset and the bit offset of the node's
/// record.
#[test]
fn a_metadata_error_names_the_record() {
    let bitcode = dxcopy_harness::attacks::entry_fan(20_000);
    let dir = input("fan.dxil", &dxcopy_harness::attacks::container(&bitcode));
    let out = run_in("dxinfo", &["--disasm", "fan.dxil"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    let prefix =
        "dxinfo: error: 'fan.dxil': DXIL module (bitcode at offset 0x44), metadata record at bit ";
    let bit: u64 = stderr
        .strip_prefix(prefix)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    // Inside the bitcode, past its magic.
    assert!(bit > 32 && bit < 8 * bitcode.len() as u64, "{stderr}");
}
