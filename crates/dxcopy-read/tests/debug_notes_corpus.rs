//! The listing's debug notes on real containers: every SPDB/SDBG part of
//! `../shared/corpus` decodes, and the one SDBG container there (Wine's
//! `test_blob_part2`, `fxc /E BHS /Ths_5_0 /Zi` with the June 2010 SDK)
//! gives the notes its source says (docs/format/dxbc-debug-notes.md).
//!
//! A public `/Zi` header with SPDB can be checked too: set
//! `DXCOPY_ZI_HEADER` to a fetched `/Fh` header whose `#if 0` listing has
//! `#line` notes; the test compares our program listing with it.

use dxcopy_harness::corpus::{listing_program_portion, manifest_or_skip};
use dxcopy_read::listing::dxbc::debug_notes::{
    DebugNotes, LineNote, NoteRegister, VariableLocation,
};
use dxcopy_read::listing::dxbc::{self, ListingOptions};
use dxcopy_read::Container;

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn every_corpus_debug_part_decodes() {
    let Some((_, rows)) = manifest_or_skip("every_corpus_debug_part_decodes") else {
        return;
    };
    let mut decoded = 0;
    for row in rows.iter().filter(|r| r.is_container()) {
        if !row.parts.iter().any(|p| p == "SPDB" || p == "SDBG") {
            continue;
        }
        let bytes = std::fs::read(&row.path).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let notes = DebugNotes::from_container(&container)
            .expect("a debug part")
            .unwrap_or_else(|e| panic!("{}: {e}", row.rel));
        assert!(!notes.lines.is_empty(), "{}: no line notes", row.rel);
        decoded += 1;
    }
    println!("{decoded} containers with SPDB or SDBG decoded");
    assert!(decoded > 0, "the corpus has no container with a debug part");
}

const WINE_BLOB: &str =
    "bin/winecx/Gcenx_winecx__dlls_d3dcompiler_43_tests_blob.c__test_blob_part2.dxbc";

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn wine_sdbg_notes_match_the_source() {
    let Some((corpus, _)) = manifest_or_skip("wine_sdbg_notes_match_the_source") else {
        return;
    };
    let bytes = std::fs::read(corpus.join(WINE_BLOB)).unwrap();
    let container = Container::parse(&bytes).unwrap();
    let notes = DebugNotes::from_container(&container).unwrap().unwrap();
    let file = r"C:\Programme\Microsoft DirectX SDK (June 2010)\Utilities\bin\x86\header.fx";
    assert_eq!(notes.files, vec![file.to_string()]);
    // The six instructions are the patch-constant function BCHS's (the
    // pass-through control-point phase is not emitted); fxc puts all of
    // them on line 9 of the source, `    return res;`.
    let lines: Vec<(u32, LineNote)> = notes.lines.iter().map(|(k, l)| (*k, *l)).collect();
    assert_eq!(
        lines,
        (0..6)
            .map(|i| (i, LineNote { file: 0, line: 9 }))
            .collect::<Vec<_>>()
    );
    // `mov o[r0.x + 0].x, l(1.0)` (#1) and `mov o[r0.x + 4].x, l(1.0)`
    // (#4) store `HSDO BCHS(…)`'s return value: `struct HSDO { float e[4]
    // : SV_TessFactor; float i[2] : SV_InsideTessFactor; }`, flattened
    // e[0..3], i[0..1]. They write outputs, so the listing prints no note
    // after them.
    assert_eq!(
        notes.locations,
        vec![
            VariableLocation {
                register: NoteRegister::Destination { index: 0 },
                component: 0,
                start: 1,
                end: 2,
                variable: "<BCHS return value>.e[0]".into(),
            },
            VariableLocation {
                register: NoteRegister::Destination { index: 4 },
                component: 0,
                start: 4,
                end: 5,
                variable: "<BCHS return value>.i[0]".into(),
            },
        ]
    );
    let listing = dxbc::listing(&container, "t", &ListingOptions::default()).unwrap();
    assert_eq!(listing.errors, vec![]);
    let program = listing_program_portion(&listing.text);
    let expected_head =
        format!("dcl_indexrange o0.x 4\n\n#line 9 \"{file}\"\nmov r0.x, vForkInstanceID.x\n");
    assert!(program.contains(&expected_head), "{program}");
    assert_eq!(program.matches("#line").count(), 1, "{program}");
}

#[ignore = "set DXCOPY_ZI_HEADER to a public fxc /Zi header and run it with --ignored"]
#[test]
fn a_public_zi_header_matches_when_given() {
    let path =
        std::env::var("DXCOPY_ZI_HEADER").expect("DXCOPY_ZI_HEADER names a public fxc /Zi header");
    let text = std::fs::read(&path).unwrap();
    let arrays = dxcopy_read::c_header::arrays(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut compared = 0;
    for array in &arrays {
        let Some(range) = array.listing.clone() else {
            continue;
        };
        let listing = String::from_utf8_lossy(&text[range]).replace("\r\n", "\n");
        let container = Container::parse(&array.bytes).unwrap();
        let ours = dxbc::listing(&container, "t", &ListingOptions::default()).unwrap();
        assert_eq!(
            listing_program_portion(&ours.text),
            listing_program_portion(&listing),
            "{path}: {}",
            array.name
        );
        compared += 1;
    }
    assert!(compared > 0, "{path}: no array with a listing");
}

/// A container of `parts` (zero digest, version 1.0).
fn container(parts: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let table_end = 32 + 4 * parts.len();
    let mut out = b"DXBC".to_vec();
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(parts.len() as u32).to_le_bytes());
    let mut at = table_end;
    for (_, data) in parts {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += 8 + data.len();
    }
    for (name, data) in parts {
        out.extend_from_slice(name);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
    }
    let len = out.len() as u32;
    out[24..28].copy_from_slice(&len.to_le_bytes());
    out
}

/// DirectXTK's two fxc PDBs (`/Zi /Fd`, commit 3231cce) are what fxc
/// embeds as SPDB; their containers at the same commit are in the corpus
/// (stripped). Put together, every code offset of the PDB is the byte
/// offset of an instruction of the program, the files are the effect's
/// sources and the lines are those Microsoft's listing of the same
/// compile's Level9 program shows (`#line 12`, `#line 41` of Common.fxh).
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn fxc_pdbs_annotate_their_programs() {
    let Some((_, rows)) = manifest_or_skip("fxc_pdbs_annotate_their_programs") else {
        return;
    };
    let mut checked = 0;
    for row in rows
        .iter()
        .filter(|r| r.kind == "msf-pdb" && r.notes.contains("fxc-style"))
    {
        let stem = row.short().trim_end_matches(".pdb");
        let Some(stem) = stem.split("__").nth(2) else {
            continue;
        };
        let Some(program_row) = rows
            .iter()
            .find(|r| r.is_container() && r.short().contains(&format!("{stem}.inc__")))
        else {
            continue;
        };
        let pdb = std::fs::read(&row.path).unwrap();
        let original = std::fs::read(&program_row.path).unwrap();
        let original = Container::parse(&original).unwrap();
        let mut parts: Vec<([u8; 4], &[u8])> =
            original.parts().map(|p| (p.name.0, p.data)).collect();
        parts.push((*b"SPDB", &pdb));
        let bytes = container(&parts);
        let c = Container::parse(&bytes).unwrap();
        let notes = DebugNotes::from_container(&c).unwrap().unwrap();
        let (program, error) = dxbc::decode_program(&c).unwrap();
        assert!(error.is_none());
        let offsets: Vec<u32> = program.instructions.iter().map(|i| i.token * 4).collect();
        for key in notes.lines.keys() {
            assert!(offsets.contains(key), "{}: line at {key}", row.rel);
        }
        for l in &notes.locations {
            assert!(offsets.contains(&l.start), "{}: {l:?}", row.rel);
        }
        assert!(!notes.locations.is_empty());
        let listing = dxbc::listing(&c, "t", &ListingOptions::default()).unwrap();
        assert_eq!(listing.errors, vec![]);
        let text = listing_program_portion(&listing.text);
        println!("{}:\n{text}", row.rel);
        assert!(text.contains("// Initial variable locations:"), "{text}");
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("#line")).collect();
        if stem.ends_with("BasicEffect_VSBasic") {
            // The statement lines: the table's (48 at 76, 132 and 292), the
            // nested site's statement range 100..132 (Common.fxh 11 + 1)
            // inside its parent's (38 + 6), and the parent's second
            // statement range 164..292 (38 + 6 - 3). Microsoft's listing
            // of the same compile's Level9 program (in the .inc) has
            // `#line 41 "…Common.fxh"`, `#line 12`, `#line 41`, `#line 41
            // "…BasicEffect.fx"`, `#line 42 "…Common.fxh"`.
            assert_eq!(
                lines,
                vec![
                    r#"#line 48 "D:\Microsoft\DirectXTK\Src\Shaders\BasicEffect.fx""#,
                    r#"#line 12 "D:\Microsoft\DirectXTK\Src\Shaders\Common.fxh""#,
                    r#"#line 48 "D:\Microsoft\DirectXTK\Src\Shaders\BasicEffect.fx""#,
                    r#"#line 41 "D:\Microsoft\DirectXTK\Src\Shaders\Common.fxh""#,
                    r#"#line 48 "D:\Microsoft\DirectXTK\Src\Shaders\BasicEffect.fx""#,
                ]
            );
            assert!(text.contains(
                "//   o0.x <- <VSBasic return value>.Diffuse.x; o0.y <- <VSBasic return value>.Diffuse.y; o0.z <- <VSBasic return value>.Diffuse.z; o0.w <- <VSBasic return value>.Diffuse.w\n//\n"
            ));
        } else {
            assert!(!lines.is_empty(), "{text}");
        }
        checked += 1;
    }
    println!("{checked} fxc PDBs checked against their programs");
    assert!(checked > 0);
}
