//! Every input a fuzz target ever failed on, and hand-made hostile inputs of
//! the same shape, replayed through the same code
//! (tests/data/fuzz-regressions/<target>/<name>; the folder's README says how
//! each was made). A new crash input is added by
//! `cargo xtask fuzz keep <target> <artifact> <name>` together with the
//! library fix, its unit test and a row in the expectation table below.
//!
//! Each test asserts that its folder is not empty, that every input has an
//! expectation (and every expectation an input), that the harness finds no
//! invariant violation, and what the library must say about the input: the
//! error kind and the byte offset it names, or what it decoded.

use dxcopy_harness::DecodeInput;
use dxcopy_read::decode::decode_part;
use dxcopy_read::pdb::PdbError;
use dxcopy_read::{Container, Pdb, ReadError, ReadErrorKind};
use std::collections::BTreeSet;
use std::path::Path;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz-regressions")
        .join(target);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            p.is_file() && !name.starts_with('.') && name != "README.md"
        })
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "{} holds no inputs", dir.display());
    out
}

/// Fails unless the inputs and the expectation table name the same files.
fn same_names<T>(target: &str, inputs: &[(String, Vec<u8>)], table: &[(&str, T)]) {
    let files: BTreeSet<&str> = inputs.iter().map(|(n, _)| n.as_str()).collect();
    let rows: BTreeSet<&str> = table.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        files, rows,
        "{target}: the inputs and the expectation table differ"
    );
}

fn expect_error<T: std::fmt::Debug>(
    what: &str,
    result: Result<T, ReadError>,
    kind: fn(&ReadErrorKind) -> bool,
    offset: u64,
) {
    match result {
        Ok(v) => panic!("{what}: expected an error, got {v:?}"),
        Err(e) => {
            assert!(kind(&e.kind), "{what}: unexpected error kind {:?}", e.kind);
            assert_eq!(e.offset, offset, "{what}: wrong offset in {e}");
        }
    }
}

/// The parse target's inputs: whole files. `Err(kind, offset)` is what
/// `Container::parse` must report; `Ok(part count)` a file that parses and
/// goes through every edit plan of the harness.
type ParseExpect = Result<usize, ErrorAt>;

/// An expected error: a test of its kind, and the absolute offset it names.
type ErrorAt = (fn(&ReadErrorKind) -> bool, u64);

const PARSE: &[(&str, ParseExpect)] = &[
    (
        "offset-table-past-end.dxbc",
        Err((
            |k| matches!(k, ReadErrorKind::OffsetTablePastEnd { .. }),
            32,
        )),
    ),
    (
        "part-inside-offset-table.dxbc",
        Err((|k| matches!(k, ReadErrorKind::PartInsideHeader { .. }), 32)),
    ),
    (
        "part-data-past-end.dxbc",
        Err((|k| matches!(k, ReadErrorKind::PartDataPastEnd { .. }), 36)),
    ),
    (
        "overlapping-parts.dxbc",
        Err((|k| matches!(k, ReadErrorKind::PartOverlap { .. }), 44)),
    ),
    ("odd-sized-parts.dxbc", Ok(4)),
];

#[test]
fn parse_regressions() {
    let all = inputs("parse");
    same_names("parse", &all, PARSE);
    for (name, bytes) in all {
        let what = format!("parse/{name}");
        let summary = dxcopy_harness::exercise(&bytes).unwrap_or_else(|v| panic!("{what}: {v}"));
        let (_, expect) = PARSE.iter().find(|(n, _)| *n == name).unwrap();
        match *expect {
            Err((kind, offset)) => {
                expect_error(&what, Container::parse(&bytes), kind, offset);
                assert!(!summary.parsed, "{what}: the harness parsed it");
            }
            Ok(parts) => {
                let c = Container::parse(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(c.parts().count(), parts, "{what}");
                assert!(summary.parsed, "{what}: the harness did not parse it");
                assert!(summary.written > 0, "{what}: no edit plan was written");
            }
        }
    }
}

#[test]
fn edit_roundtrip_regressions() {
    for (name, bytes) in inputs("edit_roundtrip") {
        let script = dxcopy_harness::Script::decode(&bytes);
        if let Err(v) = dxcopy_harness::roundtrip(&script) {
            panic!("edit_roundtrip/{name}: {v}");
        }
    }
}

/// What the library's decoder must say about a decode input's part, at an
/// offset relative to the start of the part's data.
#[derive(Debug, Clone, Copy)]
enum Decode {
    /// Refused with an error at this offset.
    Error(u64),
    /// Decoded, with a non-fatal issue at this offset.
    Issue(u64),
}

/// The decode target's inputs (byte 0 picks the part name, byte 1 the
/// placement, the rest is the part data; see `dxcopy_harness::decode_input`):
/// the part name picked and what its decoder must report.
const DECODE: &[(&str, (&[u8; 4], Decode))] = &[
    ("ildn-name-longer-than-part", (b"ILDN", Decode::Issue(7))),
    ("isg1-name-offset-past-end", (b"ISG1", Decode::Error(12))),
    ("psv0-resource-count-huge", (b"PSV0", Decode::Error(36))),
    ("psv0-runtime-info-size-huge", (b"PSV0", Decode::Error(0))),
    ("rts0-parameter-count-huge", (b"RTS0", Decode::Error(24))),
    ("srci-section-past-part", (b"SRCI", Decode::Error(16))),
];

#[test]
fn decode_regressions() {
    let all = inputs("decode");
    same_names("decode", &all, DECODE);
    for (name, bytes) in all {
        let what = format!("decode/{name}");
        let (_, (part_name, expect)) = *DECODE.iter().find(|(n, _)| *n == name).unwrap();
        let input = DecodeInput::split(&bytes).unwrap_or_else(|| panic!("{what}: too short"));
        assert_eq!(&input.name.0, part_name, "{what}: picks another part");
        assert!(
            dxcopy_harness::decode_input(&bytes) > 0,
            "{what}: no decoder ran"
        );
        let container = input
            .container()
            .unwrap_or_else(|| panic!("{what}: no container"));
        let c = Container::parse(&container).unwrap_or_else(|e| panic!("{what}: {e}"));
        let part = c.find(input.name).unwrap();
        let data_start = part.offset + 8;
        match (decode_part(&c, &part), expect) {
            (Err(e), Decode::Error(offset)) => {
                assert_eq!(e.offset, data_start + offset, "{what}: wrong offset in {e}")
            }
            (Ok(decoded), Decode::Issue(offset)) => {
                let at: Vec<Option<u64>> = decoded.issues().iter().map(|i| i.offset).collect();
                assert_eq!(
                    at,
                    [Some(data_start + offset)],
                    "{what}: issues {:?}",
                    decoded.issues()
                );
            }
            (got, _) => panic!("{what}: expected {expect:?}, got {got:?}"),
        }
    }
}

/// The pdb target's inputs: whole files, and the error `Pdb::parse` must
/// report (kind and absolute offset).
const PDB: &[(&str, ErrorAt)] = &[
    (
        "msf-block-size-100.pdb",
        (
            |k| {
                matches!(k, ReadErrorKind::UnknownValue { .. })
                    && k.detail() == Some(&PdbError::BlockSize { value: 100 })
            },
            32,
        ),
    ),
    (
        "msf-directory-block-past-end.pdb",
        (|k| matches!(k, ReadErrorKind::MsfBlockPastEnd { .. }), 512),
    ),
    (
        "msf-stream-count-huge.pdb",
        (|k| matches!(k, ReadErrorKind::Truncated { .. }), 1028),
    ),
    (
        "msf-stream-larger-than-file.pdb",
        (
            |k| {
                matches!(k, ReadErrorKind::OutOfBounds { .. })
                    && matches!(k.detail(), Some(PdbError::StreamSize { .. }))
            },
            1028,
        ),
    ),
];

#[test]
fn pdb_regressions() {
    let all = inputs("pdb");
    same_names("pdb", &all, PDB);
    for (name, bytes) in all {
        let what = format!("pdb/{name}");
        let summary =
            dxcopy_harness::exercise_pdb(&bytes).unwrap_or_else(|v| panic!("{what}: {v}"));
        assert!(!summary.pdb_parsed, "{what}: the harness read it as a PDB");
        let (_, (kind, offset)) = *PDB.iter().find(|(n, _)| *n == name).unwrap();
        expect_error(&what, Pdb::parse(&bytes).map(|_| ()), kind, offset);
    }
}

/// An expected assembler error: a test of its kind, its line and column.
type AsmErrorAt = (fn(&dxcopy_edit::asm::AsmErrorKind) -> bool, u32, u32);

/// The asm target's inputs: listings. Each is an error of the kind its
/// row names, at its line and column.
const ASM: &[(&str, AsmErrorAt)] = &[(
    "five-indices-on-a-relative-register",
    (
        |k| {
            matches!(
                k,
                dxcopy_edit::asm::AsmErrorKind::TooManyIndices { limit: 3 }
            )
        },
        3,
        56,
    ),
)];

#[test]
fn asm_regressions() {
    let all = inputs("asm");
    same_names("asm", &all, ASM);
    for (name, bytes) in all {
        let what = format!("asm/{name}");
        assert_eq!(
            dxcopy_harness::text_attacks::asm_input(&bytes),
            0,
            "{what}: assembled"
        );
        let (_, (kind, line, column)) = *ASM.iter().find(|(n, _)| *n == name).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let e = dxcopy_edit::asm::assemble(&text, &mut dxcopy_edit::asm::FloatHints::none())
            .unwrap_err();
        assert!(kind(&e.kind), "{what}: {e}");
        assert_eq!((e.line, e.column), (line, column), "{what}: {e}");
    }
}

/// The c_header target's inputs: text read as a C header. Each row: the
/// number of arrays the header holds; the harness writes each back and
/// reads it again.
const C_HEADER: &[(&str, usize)] = &[
    ("hash-hash-if-line", 2),
    ("listing-that-reopens-the-block", 1),
];

#[test]
fn c_header_regressions() {
    let all = inputs("c_header");
    same_names("c_header", &all, C_HEADER);
    for (name, bytes) in all {
        let (_, count) = *C_HEADER.iter().find(|(n, _)| *n == name).unwrap();
        assert_eq!(
            dxcopy_harness::text_attacks::c_header_input(&bytes),
            count,
            "c_header/{name}"
        );
    }
}
