//! Hostile inputs for the text readers and writers: the DXBC assembler's
//! listings, C headers read and written, and the source paths
//! `--extract-sources` makes folders of. Each generator builds its attack at
//! the size asked for, so that a test can run it at two sizes and compare;
//! [`seeds`] gives small ones to the sweep and the fuzz targets.
//!
//! What each must come to (the tests in `tests/text_bounds.rs` check it,
//! with the peak heap bounded by a multiple of the input):
//!
//! - [`asm_blank_line`], [`asm_underscore_mnemonic`]: an error naming the
//!   line and column, in one pass over the text;
//! - [`asm_nested_relative`]: `NestedTooDeep`, on a small stack;
//! - [`asm_unread_tails`]: every byte assembled or an error at its line and
//!   column;
//! - [`c_header_many_arrays`]: every array read, no reserve per array;
//! - [`header_injection`]: a written header whose only directives are its
//!   own `#if 0` and `#endif`;
//! - [`sources_deep_path`]: `SourcePathTooLong` before anything is written;
//! - [`sources_many_deep_paths`]: every file written, work and heap linear
//!   in the recorded paths.

use dxcopy_edit::ContainerBuilder;

/// A listing whose second line is `blanks` spaces and then a character no
/// token starts with: the error's column is `blanks + 1`.
pub fn asm_blank_line(blanks: usize) -> String {
    let mut text = String::with_capacity(blanks + 16);
    text.push_str("ps_5_0\n");
    text.push_str(&" ".repeat(blanks));
    text.push_str("@\n");
    text
}

/// A listing whose instruction is `mov`, `underscores` `_` and a suffix no
/// instruction takes (`x`).
pub fn asm_underscore_mnemonic(underscores: usize) -> String {
    let mut text = String::with_capacity(underscores + 32);
    text.push_str("ps_5_0\nmov");
    text.push_str(&"_".repeat(underscores));
    text.push_str("x r0.x, r1.x\nret\n");
    text
}

/// A listing with one source operand of relative indices nested `depth`
/// deep: `x0[x0[… r0.x …].x + 1].x`.
pub fn asm_nested_relative(depth: usize) -> String {
    let mut text = String::with_capacity(depth * 12 + 64);
    text.push_str("ps_5_0\ndcl_indexableTemp x0[4], 4\nmov r1.x, ");
    for _ in 0..depth {
        text.push_str("x0[");
    }
    text.push_str("r0.x");
    for _ in 0..depth {
        text.push_str(" + 1].x");
    }
    text.push_str("\nret\n");
    text
}

/// One of [`asm_unread_tails`]: what it hides, the listing, and the line
/// and column of its error (`None`: it assembles to `ps_5_0 / nop / ret`).
pub type UnreadTail = (&'static str, String, Option<(u32, u32)>);

/// Listings that hide text from a reader that drops what it does not
/// understand.
pub fn asm_unread_tails() -> Vec<UnreadTail> {
    vec![
        (
            "the rest of the profile line",
            "ps_5_0 mov r0.x, r1.x\nret\n".into(),
            Some((1, 8)),
        ),
        (
            "an unclosed /*",
            "ps_5_0\nnop\n  /* the rest\nmov r0.x, r1.x\nret\n".into(),
            Some((3, 3)),
        ),
        ("CR-only line ends", "ps_5_0\rnop\rret\r".into(), None),
        (
            "an error after CR-only line ends",
            "ps_5_0\rnop\r  movv r0.x\r".into(),
            Some((3, 3)),
        ),
    ]
}

/// A C header of `count` one-byte arrays (`const BYTE aN[] = {N};`).
pub fn c_header_many_arrays(count: usize) -> String {
    use std::fmt::Write;
    let mut text = String::with_capacity(count * 28);
    for i in 0..count {
        let _ = writeln!(text, "const BYTE a{i}[] = {{{}}};", i % 256);
    }
    text
}

/// A DXBC container (`ps_4_0`, `ret`) whose input signature has one
/// element whose semantic name is `payload` repeated `copies` times: line
/// ends, `#endif` and C code, for `--output-format=header` to write into its
/// `#if 0` listing.
pub fn header_injection(copies: usize) -> Vec<u8> {
    const PAYLOAD: &str = "X\n#endif\nint injected = system(\"id\");\n#if 0\r#else\n/* \\";
    let name = PAYLOAD.repeat(copies.max(1));
    let mut isgn = Vec::new();
    isgn.extend_from_slice(&1u32.to_le_bytes()); // element count
    isgn.extend_from_slice(&8u32.to_le_bytes()); // offset of the elements
    isgn.extend_from_slice(&32u32.to_le_bytes()); // name offset
    isgn.extend_from_slice(&0u32.to_le_bytes()); // semantic index
    isgn.extend_from_slice(&0u32.to_le_bytes()); // system value
    isgn.extend_from_slice(&3u32.to_le_bytes()); // float
    isgn.extend_from_slice(&0u32.to_le_bytes()); // register
    isgn.extend_from_slice(&[0x3, 0x3, 0, 0]); // mask, used mask
    isgn.extend_from_slice(name.as_bytes());
    isgn.push(0);
    while isgn.len() % 4 != 0 {
        isgn.push(0);
    }
    // ps_4_0, 3 tokens, ret.
    let shdr: Vec<u8> = [0x0000_0040u32, 3, 0x0100_003e]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    ContainerBuilder::new()
        .part(b"ISGN", &isgn)
        .part(b"SHDR", &shdr)
        .build()
        .unwrap_or_default()
}

/// A container whose SRCI records one file `depth` folders deep (`a/a/…/x.h`)
/// after a harmless one.
pub fn sources_deep_path(depth: usize) -> Vec<u8> {
    let name = "a/".repeat(depth) + "x.h";
    let srci = dxcopy_read::fixtures::build_source_info(
        &[
            (b"main.hlsl", b"float4 main() : SV_Target { return 0; }"),
            (name.as_bytes(), b"x"),
        ],
        &[],
        false,
    );
    ContainerBuilder::new()
        .part(b"SRCI", &srci)
        .build()
        .unwrap_or_default()
}

/// A container whose SRCI records `files` files, each `depth` folders deep
/// within the limits (`d0/a/…/x.h`, `d1/a/…/x.h`, …): every folder of every
/// path is made, so extraction's work is all in the paths.
pub fn sources_many_deep_paths(files: usize, depth: usize) -> Vec<u8> {
    let names: Vec<String> = (0..files)
        .map(|i| format!("d{i}/") + &"a/".repeat(depth.saturating_sub(2)) + "x.h")
        .collect();
    let entries: Vec<(&[u8], &[u8])> = names.iter().map(|n| (n.as_bytes(), &b"x"[..])).collect();
    let srci = dxcopy_read::fixtures::build_source_info(&entries, &[], false);
    ContainerBuilder::new()
        .part(b"SRCI", &srci)
        .build()
        .unwrap_or_default()
}

/// Small instances of every generator, for the sweep and to seed the fuzz
/// targets: (fuzz target, name, bytes).
pub fn seeds() -> Vec<(&'static str, String, Vec<u8>)> {
    let mut out = vec![
        (
            "asm",
            "blank-line".into(),
            asm_blank_line(4096).into_bytes(),
        ),
        (
            "asm",
            "underscores".into(),
            asm_underscore_mnemonic(4096).into_bytes(),
        ),
        (
            "asm",
            "nested-relative".into(),
            asm_nested_relative(64).into_bytes(),
        ),
        (
            "c_header",
            "many-arrays".into(),
            c_header_many_arrays(256).into_bytes(),
        ),
        ("c_header", "header-injection".into(), header_injection(4)),
        ("sources", "deep-path".into(), sources_deep_path(256)),
        (
            "sources",
            "many-deep-paths".into(),
            sources_many_deep_paths(8, 64),
        ),
    ];
    for (i, (_, text, _)) in asm_unread_tails().into_iter().enumerate() {
        out.push(("asm", format!("unread-tail-{i}"), text.into_bytes()));
    }
    out
}

/// The `asm` fuzz target and the sweep's text pass: `input` (as UTF-8,
/// lossily) assembled, and when it assembles, built into a container that
/// must parse. Returns the program's length (0 on an error).
pub fn asm_input(input: &[u8]) -> usize {
    let text = String::from_utf8_lossy(input);
    let Ok(assembly) = dxcopy_edit::asm::assemble(&text, &mut dxcopy_edit::asm::FloatHints::none())
    else {
        return 0;
    };
    if let Ok(bytes) = dxcopy_edit::asm::build_container(&assembly) {
        assert!(
            dxcopy_read::Container::parse(&bytes).is_ok(),
            "an assembled container does not parse"
        );
    }
    assembly.program.len()
}

/// The `c_header` fuzz target and the sweep's text pass: the arrays of
/// `input` read as a C header; each array written back as a header (the
/// container's listing, when it is one, in its `#if 0` block) must read
/// back as exactly one array of the same bytes, and hold no directive but
/// its own `#if 0` and `#endif`. Returns the number of arrays.
pub fn c_header_input(input: &[u8]) -> usize {
    use dxcopy_edit::c_header::{compiler_header, write_header, CompilerHeader, HeaderOptions};
    use dxcopy_edit::c_header::{HeaderStyle, LineEnds};
    let check = |text: &str, bytes: &[u8]| {
        let found = dxcopy_read::c_header::arrays(text.as_bytes()).expect("a written header reads");
        assert_eq!(found.len(), 1, "a written header holds one array");
        assert_eq!(found[0].bytes, bytes, "a written header keeps the bytes");
        let directives = text
            .lines()
            .filter(|l| {
                // Only a conditional directive can end or reopen the `#if 0`
                // block; a `#line` of the listing's debug notes inside it is
                // text, and so is a line that starts with the `##` token.
                let l = l.trim_start();
                let Some(rest) = l.strip_prefix('#').or_else(|| l.strip_prefix("%:")) else {
                    return false;
                };
                let name = rest
                    .trim_start()
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next();
                !rest.starts_with('#')
                    && !rest.starts_with("%:")
                    && ["if", "ifdef", "ifndef", "elif", "else", "endif"]
                        .iter()
                        .any(|k| name == Some(*k))
            })
            .count();
        assert!(directives <= 2, "a listing escaped its #if 0 block");
    };
    // A container: its compiler header.
    if input.starts_with(b"DXBC") {
        let spec = CompilerHeader {
            name: "g_main".into(),
            generator: "fuzz".into(),
            listing: Default::default(),
            style: None,
            line_ends: LineEnds::Lf,
        };
        if let Ok(text) = compiler_header(input, &spec) {
            check(&text, input);
        }
        return 1;
    }
    let Ok(arrays) = dxcopy_read::c_header::arrays(input) else {
        return 0;
    };
    for array in arrays.iter().take(16) {
        let listing = String::from_utf8_lossy(&input[..input.len().min(256)]);
        if let Ok(text) = write_header(
            &array.bytes,
            &array.name,
            Some(&listing),
            &HeaderOptions::new(HeaderStyle::Fxc),
        ) {
            check(&text, &array.bytes);
        }
    }
    arrays.len()
}

/// The `sources` fuzz target and the sweep's text pass: the source files of
/// `input` (a container) with their extraction paths, each within the
/// limits and below the folder. Returns the number of files.
pub fn sources_input(input: &[u8]) -> usize {
    use dxcopy_edit::sources::{source_files, MAX_SOURCE_DEPTH, MAX_SOURCE_PATH};
    let Ok(container) = dxcopy_read::Container::parse(input) else {
        return 0;
    };
    let Ok(files) = source_files(&container) else {
        return 0;
    };
    for file in &files {
        assert!(
            file.path.len() <= MAX_SOURCE_DEPTH,
            "a path past the depth limit"
        );
        let length: usize = file.path.iter().map(String::len).sum();
        assert!(length <= MAX_SOURCE_PATH, "a path past the length limit");
        assert!(
            file.path
                .iter()
                .all(|c| !c.is_empty() && c != ".." && c != "." && !c.contains(['/', '\\'])),
            "a component that leaves the folder"
        );
    }
    files.len()
}
