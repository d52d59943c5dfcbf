//! The DXBC listing on generated shapes: its memory stays bounded by the
//! input however deep the blocks nest (the listing is streamed and nesting
//! past `MAX_BLOCK_DEPTH` is an error naming the token), and halfway float
//! immediates print as each rounding rule says.

use dxcopy_harness::alloc::{Counting, ThreadCounts};
use dxcopy_harness::shapes;
use dxcopy_read::listing::dxbc::{self, DisasmError, FloatRounding, ListingOptions};
use dxcopy_read::listing::DisasmFlags;
use dxcopy_read::sm4::{DecodeErrorKind, MAX_BLOCK_DEPTH};
use dxcopy_read::Container;

#[global_allocator]
static ALLOCATOR: Counting<ThreadCounts> = Counting(ThreadCounts);

fn container(shex: &[u8]) -> Vec<u8> {
    dxcopy_edit::ContainerBuilder::new()
        .part(b"SHEX", shex)
        .build()
        .unwrap()
}

/// Streams the listing into a counter: (bytes written, errors, peak heap).
fn stream(bytes: &[u8]) -> (usize, Vec<DisasmError>, usize) {
    stream_with(bytes, DisasmFlags::default())
}

/// [`stream`] with the `D3D_DISASM_*` flags `flags`.
fn stream_with(bytes: &[u8], flags: DisasmFlags) -> (usize, Vec<DisasmError>, usize) {
    let c = Container::parse(bytes).unwrap();
    let mut sink = dxcopy_harness::CountingSink(0);
    let mut errors = Vec::new();
    let options = ListingOptions {
        flags,
        ..ListingOptions::default()
    };
    let used = ThreadCounts::measure(|| {
        errors = dxbc::write_listing(&c, "t", &options, &mut sink)
            .unwrap()
            .unwrap();
    });
    (sink.0, errors, used.peak)
}

#[test]
fn a_nesting_bomb_stops_at_the_limit_with_bounded_memory() {
    // 100,000 nested loops: 400 KB of SHEX. Before the bound, its listing
    // was ~10 GB built in memory.
    let bytes = container(&shapes::nested_loops(100_000));
    let (written, errors, peak) = stream(&bytes);
    let [DisasmError::Decode { source, .. }] = &errors[..] else {
        panic!("{errors:?}")
    };
    assert_eq!(source.kind, DecodeErrorKind::BlocksTooDeep);
    // The opening loop past the limit: token 2 (after the two header tokens)
    // + MAX_BLOCK_DEPTH. The SHEX data starts at 32 + 4 + 8 = 44.
    assert_eq!(source.token as usize, 2 + MAX_BLOCK_DEPTH);
    assert_eq!(source.offset, 44 + 4 * source.token as u64);
    // The listing up to there: 256 lines of at most 510 spaces and `loop `.
    assert!(written < 300 * 520, "{written}");
    assert!(
        peak < 2 * bytes.len(),
        "peak heap {peak} for {} bytes",
        bytes.len()
    );
}

#[test]
fn a_long_deep_program_streams_in_memory_linear_in_its_input() {
    // 200 rounds of 256 nested loops closed again: 102,401 instructions,
    // 410 KB of SHEX, a listing of ~26 MB that is never held in memory.
    let bytes = container(&shapes::repeated_nesting(MAX_BLOCK_DEPTH, 200));
    let (written, errors, peak) = stream(&bytes);
    assert_eq!(errors, vec![]);
    let indentation: usize = 200 * 2 * (0..MAX_BLOCK_DEPTH).map(|d| 2 * d).sum::<usize>();
    assert!(written > indentation, "{written}");
    // The program's tokens, one instruction and one line: not the text.
    assert!(
        peak < 2 * bytes.len(),
        "peak heap {peak} for {} bytes",
        bytes.len()
    );
    assert!(
        peak * 32 < written,
        "peak heap {peak}, listing {written} bytes"
    );
}

#[test]
fn numbers_and_offsets_add_a_few_bytes_a_line_to_a_hostile_program() {
    // The long deep program and the nesting bomb with every flag on:
    // numbers, offsets and hexadecimal literals add at most a lead of 20
    // bytes a line (a six-digit number, two spaces, `0x%08X: `), never
    // work or memory that grows faster than the program.
    let all = DisasmFlags::from_bits(0xf4).unwrap();
    for (name, shex, lines) in [
        (
            "repeated nesting",
            shapes::repeated_nesting(MAX_BLOCK_DEPTH, 200),
            102_402,
        ),
        (
            "nesting bomb",
            shapes::nested_loops(100_000),
            1 + MAX_BLOCK_DEPTH,
        ),
    ] {
        let bytes = container(&shex);
        let (plain, plain_errors, _) = stream(&bytes);
        let (written, errors, peak) = stream_with(&bytes, all);
        assert_eq!(errors, plain_errors, "{name}");
        assert!(written > plain, "{name}");
        assert!(
            written - plain <= 20 * lines,
            "{name}: {written} bytes with the flags, {plain} without, {lines} lines"
        );
        assert!(
            peak < 2 * bytes.len(),
            "{name}: peak heap {peak} for {} bytes",
            bytes.len()
        );
    }
}

#[test]
fn nesting_at_the_limit_lists_whole() {
    let bytes = container(&shapes::nested_loops(MAX_BLOCK_DEPTH));
    let c = Container::parse(&bytes).unwrap();
    let l = dxbc::listing(&c, "t", &ListingOptions::default()).unwrap();
    assert_eq!(l.errors, vec![]);
    let deepest = format!("\n{}loop \n", "  ".repeat(MAX_BLOCK_DEPTH - 1));
    assert!(l.text.contains(&deepest));
    assert!(l
        .text
        .ends_with("\nendloop \nret \n// Approximately 0 instruction slots used\n"));
}

#[test]
fn halfway_immediates_in_both_roundings() {
    let bytes = container(&shapes::halfway_floats());
    let c = Container::parse(&bytes).unwrap();
    let program = |rounding| {
        let mut text = String::new();
        let cut = dxbc::write_program_listing(
            &c,
            &ListingOptions {
                rounding,
                release: None,
                ..ListingOptions::default()
            },
            &mut text,
        )
        .unwrap();
        assert_eq!(cut, None);
        text
    };
    assert_eq!(
        program(FloatRounding::Current),
        "ps_5_0\n\
         dcl_immediateConstantBuffer { { 0.007812, 18.851562, -0.023438, 0.000122} }\n\
         mov o0.xyzw, l(0.007812,18.851562,-0.023438,0.000122)\n\
         mul o0.xyzw, r0.xyzw, l(0.007812, 18.851562, -0.023438, 0.000122)\n\
         dmov r0.xy, d(0.007812l, 18.851562l)\n\
         ret \n\
         // Approximately 0 instruction slots used\n"
    );
    assert_eq!(
        program(FloatRounding::Legacy),
        "ps_5_0\n\
         dcl_immediateConstantBuffer { { 0.007813, 18.851563, -0.023438, 0.000122} }\n\
         mov o0.xyzw, l(0.007813,18.851563,-0.023438,0.000122)\n\
         mul o0.xyzw, r0.xyzw, l(0.007813, 18.851563, -0.023438, 0.000122)\n\
         dmov r0.xy, d(0.007813l, 18.851563l)\n\
         ret \n\
         // Approximately 0 instruction slots used\n"
    );
}

#[test]
fn every_shape_is_a_container() {
    let shapes = shapes::listing_shapes();
    assert!(!shapes.is_empty());
    let mut names: Vec<&str> = shapes.iter().map(|(name, _)| *name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), shapes.len(), "shape names are unique");
    for (name, bytes) in shapes {
        let c = Container::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(dxbc::shader_part(&c).is_some(), "{name}");
    }
}
