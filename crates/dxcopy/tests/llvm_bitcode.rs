//! Bitcode written by `llvm-as` 22 goes into a container with
//! `dxcopy --update-section=DXIL=…`, comes back byte for byte with
//! `--dump-section=DXIL=…`, and `llvm-dis` 22 reads it.
//!
//! Only bitcode made here is disassembled: LLVM 22 cannot read the LLVM
//! 3.7-era bitcode dxc writes.

mod common;

use dxcopy_edit::{ContainerBuilder, DigestPolicy};
use dxcopy_read::hash::md5_of;
use dxcopy_read::program::BITCODE_MAGIC;
use dxcopy_read::ShaderKind;
use dxcopy_read::{Container, DigestKind, PartName, Program, ShaderHash};
use std::path::Path;

const TEST: &str = "llvm bitcode round trip";

/// The module the input container is built around.
const PLACEHOLDER_LL: &str = r#"
target triple = "dxil-unknown-shadermodel6.0-pixel"

define void @main() {
entry:
  ret void
}
"#;

/// The module swapped in with --update-section.
const REPLACEMENT_LL: &str = r#"
target triple = "dxil-unknown-shadermodel6.0-pixel"

define float @scale_by_two(float %x) {
entry:
  %y = fmul float %x, 2.000000e+00
  ret float %y
}
"#;

fn run(tool: &Path, args: &[&Path]) -> std::process::Output {
    common::run_tool(tool, args, TEST)
}

/// Assembles `source` with llvm-as into `dir/stem.bc` and returns the bitcode.
fn assemble(llvm_as: &Path, dir: &Path, stem: &str, source: &str) -> Vec<u8> {
    let ll = dir.join(format!("{stem}.ll"));
    let bc = dir.join(format!("{stem}.bc"));
    std::fs::write(&ll, source).expect("write .ll");
    run(llvm_as, &[&ll, Path::new("-o"), &bc]);
    let bitcode = std::fs::read(&bc).expect("read .bc");
    assert!(
        bitcode.starts_with(&BITCODE_MAGIC),
        "llvm-as wrote no bitcode"
    );
    bitcode
}

#[cfg_attr(
    not(dxcopy_llvm),
    ignore = "needs LLVM 22 (/usr/lib/llvm-22/bin or $DXCOPY_LLVM_BIN)"
)]
#[test]
fn update_section_then_dump_section_round_trips_llvm_as_bitcode() {
    let Some(llvm_as) = common::llvm_tool_or_skip(TEST, "llvm-as") else {
        return;
    };
    let Some(llvm_dis) = common::llvm_tool_or_skip(TEST, "llvm-dis") else {
        return;
    };
    let dxcopy = Path::new(env!("CARGO_BIN_EXE_dxcopy"));
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();

    let placeholder = assemble(&llvm_as, dir, "placeholder", PLACEHOLDER_LL);
    let x_path = dir.join("x.bc");
    let x = assemble(&llvm_as, dir, "x", REPLACEMENT_LL);
    assert_ne!(placeholder, x);

    let sfi0 = [0u8; 8];
    let input = ContainerBuilder::new()
        .part(b"SFI0", &sfi0)
        .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), &placeholder)
        .hash_of_dxil()
        .digest(DigestPolicy::Retail)
        .build()
        .expect("build input");
    let in_path = dir.join("in.dxil");
    let out_path = dir.join("out.dxil");
    std::fs::write(&in_path, &input).expect("write input");

    run(
        dxcopy,
        &[
            Path::new(&format!("--update-section=DXIL={}", x_path.display())),
            &in_path,
            &out_path,
        ],
    );
    let output = std::fs::read(&out_path).expect("read output");
    let c = Container::parse(&output).expect("output parses");
    let dxil = c.require(PartName::DXIL).expect("DXIL part");
    let program = Program::parse(&dxil).expect("DXIL program");
    assert_eq!(program.bitcode, &x[..], "the DXIL part holds x.bc");
    assert_eq!(
        program.shader_kind,
        ShaderKind::Pixel,
        "program header kept"
    );
    assert_eq!((program.model_major, program.model_minor), (6, 0));
    assert_eq!((program.dxil_major, program.dxil_minor), (1, 0));
    assert_eq!(c.require(PartName::SFI0).expect("SFI0").data, &sfi0[..]);
    let hash = ShaderHash::parse(&c.require(PartName::HASH).expect("HASH")).expect("HASH");
    assert_eq!(hash.flags, 0);
    assert_eq!(hash.digest, md5_of(&x), "HASH follows the new bitcode");
    assert_eq!(c.digest_kind(), DigestKind::Retail, "re-signed as retail");

    // A dump only reads: the container is left as it is.
    let y_path = dir.join("y.bc");
    run(
        dxcopy,
        &[
            Path::new(&format!("--dump-section=DXIL={}", y_path.display())),
            &out_path,
        ],
    );
    assert_eq!(std::fs::read(&out_path).expect("re-read output"), output);
    let y = std::fs::read(&y_path).expect("read y.bc");
    assert_eq!(
        y, x,
        "--dump-section gives back exactly what --update-section put in"
    );

    let y_ll = dir.join("y.ll");
    run(&llvm_dis, &[&y_path, Path::new("-o"), &y_ll]);
    let text = std::fs::read_to_string(&y_ll).expect("read y.ll");
    assert!(
        text.contains("define float @scale_by_two(float %x)"),
        "llvm-dis output:\n{text}"
    );

    // llvm-objcopy, which drops a fixed 24-byte program header, finds the same bitcode.
    if let Some(objcopy) = common::llvm_tool_or_skip(TEST, "llvm-objcopy") {
        let z_path = dir.join("z.bc");
        run(
            &objcopy,
            &[
                Path::new(&format!("--dump-section=DXIL={}", z_path.display())),
                &out_path,
                &dir.join("z.dxil"),
            ],
        );
        assert_eq!(std::fs::read(&z_path).expect("read z.bc"), x);
    }
    println!(
        "{TEST}: {} bytes of llvm-as bitcode updated into DXIL, dumped back identical, read by llvm-dis",
        x.len()
    );
}
