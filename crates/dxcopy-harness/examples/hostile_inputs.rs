//! Writes the hostile inputs of docs/hardening.md's table of rows into a
//! folder, at the sizes the table measures, for release binaries to be
//! run on (`/usr/bin/time -v`): `cargo run -p dxcopy-harness --example
//! hostile_inputs -- DIR`. Prints each file's name and size.

use dxcopy_harness::attacks;
use dxcopy_harness::text_attacks;

/// (file name, bytes) of every row's inputs.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let module = |name: &str, scale: usize| {
        let attack = attacks::ATTACKS
            .iter()
            .find(|a| a.name == name)
            .expect("an attack");
        (
            format!("{name}-{scale}.dxil"),
            attacks::container(&(attack.build)(scale)),
        )
    };
    let mut out = vec![
        // Rows 1 to 7: DXIL modules.
        module("literal-abbrev", 30_800),
        module("literal-abbrev", 73_000),
        module("literal-abbrev", 117_000),
        module("blockinfo-reuse", 25_000),
        module("wide-metadata", 400_000),
        module("entry-signature-dag", 5_400),
        module("entry-signature-dag", 8_400),
        module("cbuffer-struct-dag", 120),
        module("cbuffer-struct-dag", 135),
        module("entry-fan", 400_000),
        module("constant-chain", 300),
        module("array-type-chain", 300),
        module("self-constant", 1),
    ];
    // Row 8: a line of blanks, a mnemonic of underscores.
    for blanks in [1 << 20, 2 << 20] {
        out.push((
            format!("asm-blank-line-{blanks}.asm"),
            text_attacks::asm_blank_line(blanks).into_bytes(),
        ));
    }
    out.push((
        "asm-underscores-200000.asm".into(),
        text_attacks::asm_underscore_mnemonic(200_000).into_bytes(),
    ));
    // Row 9: relative indices nested deep.
    out.push((
        "asm-nested-5000.asm".into(),
        text_attacks::asm_nested_relative(5_000).into_bytes(),
    ));
    // Row 10: text a reader could drop.
    for (i, (_, text, _)) in text_attacks::asm_unread_tails().into_iter().enumerate() {
        out.push((format!("asm-unread-tail-{i}.asm"), text.into_bytes()));
    }
    // Row 13: a header of many small arrays.
    out.push((
        "header-arrays-50000.h".into(),
        text_attacks::c_header_many_arrays(50_000).into_bytes(),
    ));
    // Row 14: a signature name written into a header's listing.
    out.push((
        "header-injection.dxbc".into(),
        text_attacks::header_injection(1),
    ));
    // Row 16: a recorded source path thousands of folders deep.
    for depth in [6_000, 10_000] {
        out.push((
            format!("sources-depth-{depth}.dxil"),
            text_attacks::sources_deep_path(depth),
        ));
    }
    out
}

fn main() {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: hostile_inputs DIR");
        std::process::exit(2);
    };
    let dir = std::path::PathBuf::from(dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{}: {e}", dir.display());
        std::process::exit(1);
    }
    for (name, bytes) in inputs() {
        let path = dir.join(&name);
        if let Err(e) = std::fs::write(&path, &bytes) {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1);
        }
        println!("{name}\t{}", bytes.len());
    }
}
