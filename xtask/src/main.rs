//! Project tasks: `cargo xtask <task>`.
//!
//! - `test`: build, unit/integration/doc tests, the data-driven cases in tests/, the Python
//!   package's pytest suite, and `sweep --quick`
//! - `cases`: only the data-driven cases (against the debug binaries)
//! - `pytest`: the Python package's tests (venv under target/, pip install, pytest)
//! - `conformance`: the obj2yaml conformance test, then the fxc and dxc listings,
//!   with identical/total per compiler release
//! - `disasm-conformance`: `dxinfo --disasm` against the reference listings, with its counts
//! - `dxil-disasm-conformance`: `dxinfo --disasm` against dxc's listings of DXIL containers
//! - `dxil-asm-conformance`: the DXIL assembler over the corpus (modules, containers, dxc's
//!   listings), with its counts
//! - `sweep`: the mutation sweep over the corpus (`--quick` for CI's bounded sample)
//! - `fuzz`: list, seed and run the cargo-fuzz targets in fuzz/
//! - `kill-test`: SIGKILL dxcopy/dxstrip during in-place edits of 64 MiB files, and truncate
//!   the input under dxcopy/dxstrip/dxinfo (release)
//! - `dist [DIR]`: man pages and shell completions
//! - `gen-example`: rebuild examples/sample.dxil from examples/sample.ll (needs llvm-as 22)
//! - `bench`: the performance benchmark (see bench.rs); writes docs/bench.md
//! - `snapshot`: record every user-visible corpus output, or compare two records
//! - `llvm-objcopy-tests DIR`: LLVM's lit tests for llvm-objcopy on DXContainer, run with dxcopy
//!   as llvm-objcopy (`--reference`: also with llvm-objcopy 22)

mod bench;
mod disasm;
mod dist;
mod dxil_disasm;
mod example;
mod fuzz;
mod llvm_tests;
mod python;
mod snapshot;
mod sweep;

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Runs a command in the workspace root, failing on a non-zero exit.
pub fn run(cmd: &mut Command) -> Result<()> {
    let status = cmd
        .current_dir(root())
        .status()
        .with_context(|| format!("running {cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed with {status}");
    }
    Ok(())
}

/// Cargo's target folder: `$CARGO_TARGET_DIR` (relative to the workspace
/// root when relative), else `target/` in the workspace root.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from) {
        Some(t) if t.is_absolute() => t,
        Some(t) => root().join(t),
        None => root().join("target"),
    }
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args.first().map(String::as_str).unwrap_or("help");
    let rest = &args[args.len().min(1)..];
    match task {
        "test" => {
            run(cargo().args(["build", "--workspace", "--bins"]))?;
            // The data-driven cases in tests/cases run as dxcopy's `cases` test.
            run(cargo()
                .args(["test", "--workspace", "--all-targets"])
                .env("DXCOPY_CASES", rest.join(",")))?;
            run(cargo().args(["test", "--workspace", "--doc"]))?;
            // The Python package: venv, pip install, pytest (skips without python3).
            python::test(&[])?;
            // The bounded mutation sweep (skips itself without ../shared/corpus).
            sweep::run(&["--quick".to_string()])
        }
        "cases" => run(cargo()
            .args([
                "test",
                "-p",
                "dxcopy",
                "--test",
                "cases",
                "--",
                "--nocapture",
            ])
            .env("DXCOPY_CASES", rest.join(","))),
        // LLVM 22 against the bitcode layer over every corpus bitcode (slow:
        // four LLVM runs per bitcode); `cargo test` checks every 32nd.
        "bitcode-llvm" => run(cargo()
            .args([
                "test",
                "-p",
                "dxcopy-edit",
                "--test",
                "bitcode_llvm",
                "--",
                "--nocapture",
            ])
            .env("DXCOPY_BITCODE_LLVM_ALL", "1")),
        "conformance" => {
            run(cargo().args([
                "test",
                "-p",
                "dxcopy",
                "--test",
                "conformance",
                "--",
                "--nocapture",
            ]))?;
            // The listings, identical/total per compiler release.
            let mut differing = 0;
            if let Some(fxc) = disasm::fxc_counts()? {
                fxc.print("fxc listings (dxinfo --disasm), per fxc release", 8);
                differing += fxc.differing.len();
            }
            if let Some(dxc) = dxil_disasm::dxc_counts()? {
                dxc.print("dxc listings (dxinfo --disasm), per dxc release", 8);
                differing += dxc.differing.len();
            }
            if differing > 0 {
                bail!("{differing} listings differ");
            }
            Ok(())
        }
        "disasm-conformance" => disasm::run(rest),
        "dxil-disasm-conformance" => dxil_disasm::run(rest),
        "dxil-asm-conformance" => run(cargo().args([
            "test",
            "-p",
            "dxcopy-edit",
            "--test",
            "dxil_asm_corpus",
            "--",
            "--nocapture",
        ])),
        "pytest" => python::test(rest),
        "gen-example" => example::generate(),
        "sweep" => sweep::run(rest),
        "fuzz" => fuzz::run(rest),
        "kill-test" => run(cargo().args([
            "test",
            "--release",
            "-p",
            "dxcopy",
            "--test",
            "crash_safety",
            "--",
            "--ignored",
            "--nocapture",
            "_during_",
        ])),
        "dist" => dist::write(
            &rest
                .first()
                .map_or_else(|| target_dir().join("dist"), PathBuf::from),
        ),
        "bench" => bench::run(rest),
        "snapshot" => snapshot::run(rest),
        "llvm-objcopy-tests" => llvm_tests::run(rest),
        "bench-probe" => bench::probe_main(rest),
        _ => {
            eprintln!(
                "usage: cargo xtask <task>\n\n\
                 tasks:\n  test          build, run every test (unit, integration, doc, tests/ cases)\n  \
                 cases [NAME]  run the data-driven cases in tests/ (optionally only those containing NAME)\n  \
                 pytest [ARGS]  the Python package: venv in target/pytest, pip install ./crates/dxcopy-py, pytest\n  \
                 conformance   compare dxinfo --yaml with obj2yaml 22 over samples and corpus, then\n\
                 \x20               dxinfo --disasm with fxc's and dxc's listings (identical/total per release)\n  \
                 bitcode-llvm  llvm-dis/opt 22 over every corpus bitcode: --dump-bitcode read, IR = opt --data-layout,\n\
                 \x20               module facts = printed metadata, strip pass and verify after --strip-bitcode-names\n  \
                 disasm-conformance\n\
                 \x20               compare dxinfo --disasm with fxc's listings in ../shared/corpus/listings, fxc-listings-2\n  \
                 dxil-disasm-conformance [--all]\n\
                 \x20               compare dxinfo --disasm with dxc's listings in ../shared/corpus/dxc-listings\n  \
                 dxil-asm-conformance\n\
                 \x20               DXIL listings assembled over ../shared/corpus: modules, containers, dxc's listings\n  \
                 sweep [--quick] [--seed N] [--only SUBSTRING] [--no-bins | --bins-only] [--bin-stride N]\n\
                 \x20               mutation sweep over ../shared/corpus, in process and through the\n\
                 \x20               binaries (--quick: CI's bounded sample; docs/hardening.md)\n  \
                 kill-test     SIGKILL dxcopy/dxstrip during in-place edits of 64 MiB files (50 trials each),\n\
                 \x20               truncate the input under dxcopy/dxstrip/dxinfo (20 trials each)\n  \
                 fuzz [TARGET [SECONDS] | all [SECONDS] | seed | keep TARGET ARTIFACT NAME]\n\
                 \x20               list the cargo-fuzz targets, seed fuzz/corpus, run one, keep a crash input\n  \
                 snapshot --out DIR [--edit-stride N] [--jobs N] [--bins DIR] | --compare A B\n\
                 \x20               record every corpus output of dxinfo and a set of dxcopy edits, or\n\
                 \x20               compare two records byte for byte (lists the files that differ)\n  \
                 llvm-objcopy-tests DIR [--reference] [--bin PATH] [--llvm-bin DIR] [-v]\n\
                 \x20               LLVM's lit tests for llvm-objcopy on DXContainer (in DIR) with dxcopy as\n\
                 \x20               llvm-objcopy, through LLVM 22's lit; --reference: also with llvm-objcopy 22\n  \
                 gen-example   rebuild examples/sample.dxil from examples/sample.ll (llvm-as 22)\n  \
                 dist [DIR]    man pages and shell completions (default target/dist)\n  \
                 bench [OPTS]  performance targets against cp, md5sum and llvm-objcopy 22; writes docs/bench.md\n                \
                 --reps N (5)  --calls N (small-calls per round, 40)  --files N (strip-many, strip-tree, 2000)  --strip-many-reps N (3)\n                \
                 --size-mib N (200)  --no-llvm  --no-callgrind  --compare-profiles  --quick  --keep (the inputs)\n                --only dump-priv,copy-large,small-calls,strip-many,strip-tree,python,info-corpus,disasm,bitcode,dxil-listing,listing-colour  --out PATH"
            );
            if task == "help" {
                Ok(())
            } else {
                bail!("unknown task '{task}'")
            }
        }
    }
}
