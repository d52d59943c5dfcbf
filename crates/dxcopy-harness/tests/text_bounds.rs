//! The text attacks of `dxcopy_harness::text_attacks`, each at two sizes:
//! the error (or the bounded result) they must come to, and the peak of live
//! heap bytes on this thread within a multiple of the input's size (the
//! counting allocator of `dxcopy_harness::alloc`). Time is not asserted,
//! work is, as counts: the assembler's and the C header reader's work
//! budgets (`budget.used()`: bytes looked at, columns counted over, tokens
//! taken, lookups made) at two sizes grow as the text does and no faster.

use dxcopy_edit::asm::{
    assemble, assemble_with_budget, AsmError, AsmErrorKind, AsmOptions, FloatHints,
    MAX_RELATIVE_DEPTH,
};
use dxcopy_edit::EditError;
use dxcopy_harness::alloc::{Counting, ThreadCounts};
use dxcopy_harness::text_attacks::*;
use dxcopy_read::budget::Budget;

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
/// Bytes allocated per byte of a container whose sources are extracted:
/// each folder opened is named by its whole path (checked, created, opened
/// and held: a few allocations of it), and a recorded path is at most
/// [`dxcopy_edit::sources::MAX_SOURCE_DEPTH`] folders and
/// `MAX_SOURCE_PATH` bytes, so a byte of a path 100 folders deep costs
/// about a thousand bytes allocated, and none are kept past the run.
const SOURCES_EXTRACTED_PER_BYTE: usize = 2048;
/// Heap every measured call may use whatever its input (small tables).
const BASE: usize = 64 << 10;

/// The most work units per byte of text the assembler and the header
/// reader spend: each byte passed once, looked at again at most a few
/// times (a column counted over, a line's end found), one unit per token,
/// statement and lookup.
const WORK_PER_BYTE: u64 = 4;

/// Assembles `text` under a budget; the error and the work spent.
fn assemble_counted(text: &str) -> (AsmError, u64) {
    let budget = Budget::for_input(text.len());
    let e = assemble_with_budget(
        text,
        &mut FloatHints::none(),
        &AsmOptions::default(),
        &budget,
    )
    .unwrap_err();
    (e, budget.used())
}

/// Work at two sizes: at least the text (each byte is looked at), at most
/// [`WORK_PER_BYTE`] per byte, and growing no faster than the text (a
/// quadratic pass would grow by the square of the ratio).
fn assert_linear(what: &str, (small, small_work): (usize, u64), (large, large_work): (usize, u64)) {
    for (len, work) in [(small, small_work), (large, large_work)] {
        assert!(
            work >= len as u64 / 2 && work <= WORK_PER_BYTE * len as u64 + 64,
            "{what}: {work} units for {len} bytes"
        );
    }
    let ratio = large as f64 / small as f64;
    let grew = large_work as f64 / small_work as f64;
    assert!(
        grew <= ratio * 1.25,
        "{what}: {small} → {large} bytes ({ratio:.1}×), work {small_work} → {large_work} ({grew:.1}×)"
    );
}

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
    let work = [1 << 18, 1 << 20].map(|blanks| {
        let text = asm_blank_line(blanks);
        let mut work = 0;
        within("blank line", text.len(), ASM_HEAP_PER_BYTE, || {
            let (e, units) = assemble_counted(&text);
            assert_eq!((e.line, e.column), (2, blanks as u32 + 1));
            assert_eq!(e.kind, AsmErrorKind::UnexpectedCharacter('@'));
            work = units;
        });
        (text.len(), work)
    });
    assert_linear("blank line", work[0], work[1]);
}

#[test]
fn a_line_of_many_tokens_counts_each_column_once() {
    // Every token's column on one long line: counted on from the last
    // token, not from the line's start (which made it quadratic).
    let line = |n: usize| format!("ps_5_0\nmov r0.x, r1.x{}\n", " +1".repeat(n));
    let work = [10_000, 40_000].map(|n| {
        let text = line(n);
        let (e, units) = assemble_counted(&text);
        assert_eq!(e.line, 2, "{e}");
        (text.len(), units)
    });
    assert_linear("many tokens", work[0], work[1]);
}

#[test]
fn a_mnemonic_of_underscores_is_an_empty_suffix() {
    let work = [100_000, 200_000].map(|underscores| {
        let text = asm_underscore_mnemonic(underscores);
        let mut work = 0;
        within("underscores", text.len(), ASM_HEAP_PER_BYTE, || {
            let (e, units) = assemble_counted(&text);
            work = units;
            // At the first `_` after `mov`: the suffix it starts is empty.
            assert_eq!((e.line, e.column), (2, 4));
            let AsmErrorKind::EmptySuffix(name) = &e.kind else {
                panic!("{e}")
            };
            // The message quotes the mnemonic's start, not all of it.
            assert!(
                name.starts_with("mov___") && name.chars().count() == 41,
                "{name}"
            );
        });
        (text.len(), work)
    });
    assert_linear("underscores", work[0], work[1]);
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
                let (e, work) = assemble_counted(&text);
                // The whole text is lexed once; the parser stops at the limit.
                assert!(work >= text_len as u64 && work <= WORK_PER_BYTE * text_len as u64);
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
    let work = [30_000, 60_000].map(|count| {
        let text = c_header_many_arrays(count);
        let budget = Budget::for_input(text.len());
        within("many arrays", text.len(), HEADER_HEAP_PER_BYTE, || {
            let found =
                dxcopy_read::c_header::arrays_with_budget(text.as_bytes(), &budget).unwrap();
            assert_eq!(found.len(), count);
            assert_eq!(found[count - 1].line, count);
            assert_eq!(found[count - 1].bytes, [((count - 1) % 256) as u8]);
        });
        assert!(dxcopy_read::c_header::looks_like_header(text.as_bytes()));
        (text.len(), budget.used())
    });
    assert_linear("many arrays", work[0], work[1]);
}

#[test]
fn many_directive_lines_are_looked_at_once() {
    // `#` lines after long blanks: each looked back at to its line's start
    // once, and ahead to its end once.
    let header = |n: usize| {
        let mut text = String::new();
        for _ in 0..n {
            text.push_str(&" ".repeat(64));
            text.push_str("#define X 1\n");
        }
        text.push_str("const BYTE g[] = { 1, 2 };\n");
        text
    };
    let work = [2_000, 8_000].map(|n| {
        let text = header(n);
        let budget = Budget::for_input(text.len());
        let found = dxcopy_read::c_header::arrays_with_budget(text.as_bytes(), &budget).unwrap();
        assert_eq!(found[0].bytes, [1, 2]);
        (text.len(), budget.used())
    });
    assert_linear("directive lines", work[0], work[1]);
    // Past a budget too small: an error at the place it stopped.
    let text = header(100);
    let e = dxcopy_read::c_header::arrays_with_budget(text.as_bytes(), &Budget::with_limit(500))
        .unwrap_err();
    assert_eq!(
        e.kind,
        dxcopy_read::c_header::HeaderErrorKind::OverBudget { limit: 500 }
    );
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

/// Extraction within the limits: many files, each 100 folders deep, at
/// two sizes. Its work, counted as the bytes allocated (paths checked,
/// folders opened and held, files staged), and its peak heap stay within
/// a fixed multiple of the input, which the per-path depth and length
/// limits set, and grow with the number of recorded paths and no faster.
#[test]
fn extraction_work_is_linear_in_the_recorded_paths() {
    let tmp = tempfile_dir();
    let work = [30, 120].map(|files| {
        let bytes = sources_many_deep_paths(files, 100);
        let c = dxcopy_read::Container::parse(&bytes).unwrap();
        let out = tmp.join(format!("many{files}"));
        let used = ThreadCounts::measure(|| {
            let done = dxcopy_edit::sources::extract_sources(&out, &c, None).unwrap();
            assert_eq!(done.files.len(), files);
        });
        assert!(
            used.peak <= BASE + SOURCES_EXTRACTED_PER_BYTE * bytes.len(),
            "{files} files ({} bytes): peak heap {}",
            bytes.len(),
            used.peak
        );
        assert!(
            used.total <= SOURCES_EXTRACTED_PER_BYTE * bytes.len(),
            "{files} files ({} bytes): {} bytes allocated",
            bytes.len(),
            used.total
        );
        let deepest = (0..98).fold(out.join(format!("d{}", files - 1)), |p, _| p.join("a"));
        assert_eq!(std::fs::read(deepest.join("x.h")).unwrap(), b"x");
        (bytes.len(), used.total)
    });
    let [(small, small_work), (large, large_work)] = work;
    let ratio = large as f64 / small as f64;
    let grew = large_work as f64 / small_work as f64;
    assert!(
        grew <= ratio * 1.25,
        "{small} → {large} bytes ({ratio:.1}×): {small_work} → {large_work} bytes allocated ({grew:.1}×)"
    );
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
