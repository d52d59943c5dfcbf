//! The text attacks of `dxcopy_harness::text_attacks`, each at two sizes:
//! the error (or the bounded result) they must come to, and the peak of live
//! heap bytes on this thread within a multiple of the input's size (the
//! counting allocator of `dxcopy_harness::alloc`). Time is not asserted:
//! the work is one pass (columns, mnemonics, header lines and source paths
//! are each counted once), which the release measurements in the
//! changelog's notes show; these tests pin the results and the memory.

use dxcopy_edit::asm::{assemble, AsmErrorKind, FloatHints, MAX_RELATIVE_DEPTH};
use dxcopy_edit::EditError;
use dxcopy_harness::alloc::{Counting, ThreadCounts};
use dxcopy_harness::text_attacks::*;

#[global_allocator]
static ALLOCATOR: Counting<ThreadCounts> = Counting(ThreadCounts);

/// The most heap an assembled listing holds, per byte of text: the tokens
/// (at most one 40-byte token per byte of text, as in `[[[[`, and the
/// vector's growth) and the words.
const ASM_HEAP_PER_BYTE: usize = 96;
/// Per byte of a C header: the arrays found (name, bytes, ranges).
const HEADER_HEAP_PER_BYTE: usize = 16;
/// Per byte of a container with SRCI: the decoded names and their paths
/// (a 24-byte component per two bytes of `a/a/a/…`).
const SOURCES_HEAP_PER_BYTE: usize = 32;
/// Heap every measured call may use whatever its input (small tables).
const BASE: usize = 64 << 10;

fn within(what: &str, input: usize, per_byte: usize, f: impl FnOnce()) {
    let used = ThreadCounts::measure(f);
    assert!(
        used.peak <= BASE + per_byte * input,
        "{what}: peak heap {} for {input} bytes of input (limit {per_byte}x + {BASE})",
        used.peak
    );
}

#[test]
fn a_long_blank_line_is_an_error_at_its_column() {
    for blanks in [1 << 18, 1 << 20] {
        let text = asm_blank_line(blanks);
        within("blank line", text.len(), ASM_HEAP_PER_BYTE, || {
            let e = assemble(&text, &mut FloatHints::none()).unwrap_err();
            assert_eq!((e.line, e.column), (2, blanks as u32 + 1));
            assert_eq!(e.kind, AsmErrorKind::UnexpectedCharacter('@'));
        });
    }
}

#[test]
fn a_mnemonic_of_underscores_is_an_unknown_suffix() {
    for underscores in [100_000, 200_000] {
        let text = asm_underscore_mnemonic(underscores);
        within("underscores", text.len(), ASM_HEAP_PER_BYTE, || {
            let e = assemble(&text, &mut FloatHints::none()).unwrap_err();
            assert_eq!((e.line, e.column), (2, 1));
            assert!(
                matches!(e.kind, AsmErrorKind::UnknownSuffix { ref suffix, .. } if suffix == "x"),
                "{e}"
            );
        });
    }
}

#[test]
fn deeply_nested_relative_indices_are_an_error_on_a_small_stack() {
    for depth in [5_000, 50_000] {
        let text = asm_nested_relative(depth);
        // 256 KiB of stack: a recursion as deep as the text would overflow it.
        let run = std::thread::Builder::new().stack_size(256 << 10);
        let text_len = text.len();
        run.spawn(move || {
            within("nested relative", text_len, ASM_HEAP_PER_BYTE, || {
                let e = assemble(&text, &mut FloatHints::none()).unwrap_err();
                assert_eq!(
                    e.kind,
                    AsmErrorKind::NestedTooDeep {
                        limit: MAX_RELATIVE_DEPTH
                    }
                );
                assert_eq!(e.line, 3);
            })
        })
        .unwrap()
        .join()
        .unwrap();
    }
}

#[test]
fn no_text_is_dropped_unread() {
    let nop = assemble("ps_5_0\nnop\nret\n", &mut FloatHints::none())
        .unwrap()
        .program;
    for (what, text, error) in asm_unread_tails() {
        match (assemble(&text, &mut FloatHints::none()), error) {
            (Err(e), Some(at)) => assert_eq!((e.line, e.column), at, "{what}: {e}"),
            (Ok(a), None) => assert_eq!(a.program, nop, "{what}"),
            (got, want) => panic!("{what}: {got:?}, want an error at {want:?}"),
        }
    }
}

#[test]
fn many_small_arrays_read_without_a_reserve_each() {
    for count in [30_000, 60_000] {
        let text = c_header_many_arrays(count);
        within("many arrays", text.len(), HEADER_HEAP_PER_BYTE, || {
            let found = dxcopy_read::c_header::arrays(text.as_bytes()).unwrap();
            assert_eq!(found.len(), count);
            assert_eq!(found[count - 1].line, count);
            assert_eq!(found[count - 1].bytes, [((count - 1) % 256) as u8]);
        });
        assert!(dxcopy_read::c_header::looks_like_header(text.as_bytes()));
    }
}

#[test]
fn names_from_the_file_stay_in_the_listing_comment() {
    use dxcopy_edit::c_header::{compiler_header, CompilerHeader, LineEnds};
    for copies in [1, 1000] {
        let bytes = header_injection(copies);
        let spec = CompilerHeader {
            name: "g_main".into(),
            generator: "test".into(),
            listing: Default::default(),
            style: None,
            line_ends: LineEnds::Lf,
        };
        within("header injection", bytes.len(), 64, || {
            let text = compiler_header(&bytes, &spec).unwrap();
            // The listing names the element (the payload is in it) ...
            assert!(
                text.contains("//#endif"),
                "{}",
                &text[..text.len().min(2000)]
            );
            // ... and the header's only directives are its own.
            let directives: Vec<&str> = text
                .lines()
                .filter(|l| l.trim_start().starts_with('#'))
                .collect();
            assert_eq!(directives, ["#if 0", "#endif"]);
            let found = dxcopy_read::c_header::arrays(text.as_bytes()).unwrap();
            assert_eq!(found.len(), 1);
            assert_eq!(found[0].bytes, bytes);
        });
    }
}

#[test]
fn deep_source_paths_are_refused_with_nothing_left_behind() {
    let tmp = tempfile_dir();
    for depth in [6_000, 10_000] {
        let bytes = sources_deep_path(depth);
        let c = dxcopy_read::Container::parse(&bytes).unwrap();
        let out = tmp.join(format!("out{depth}"));
        within(
            "deep source path",
            bytes.len(),
            SOURCES_HEAP_PER_BYTE,
            || {
                let e = dxcopy_edit::sources::extract_sources(&out, &c, None).unwrap_err();
                assert!(
                    matches!(e, EditError::SourcePathTooLong { index: 1, depth: d, .. } if d == depth + 1),
                    "{e}"
                );
            },
        );
        assert!(!out.exists(), "a refused extraction leaves no folder");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn the_seeds_pass_their_fuzz_targets() {
    for (target, name, bytes) in seeds() {
        match target {
            "asm" => {
                asm_input(&bytes);
            }
            "c_header" => {
                c_header_input(&bytes);
            }
            "sources" => {
                sources_input(&bytes);
            }
            other => panic!("{name}: unknown target {other}"),
        }
    }
}

/// A fresh folder under the system temp folder.
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dxcopy-text-bounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
