//! `cargo xtask fuzz`: the cargo-fuzz targets in fuzz/ (their own workspace).
//!
//! - `cargo xtask fuzz` lists the targets and how to run them;
//! - `cargo xtask fuzz seed` fills fuzz/corpus/<target>/ from ../shared/corpus
//!   (gitignored: corpus files are never committed);
//! - `cargo xtask fuzz <target> [seconds]` seeds, then runs one target with
//!   cargo fuzz (`cargo install cargo-fuzz` first; the nightly toolchain
//!   when rustup has one, else `RUSTC_BOOTSTRAP=1`);
//! - `cargo xtask fuzz all [seconds]` seeds once, then runs every target
//!   for `seconds` each (default 120) and prints each one's executions and
//!   crashes (libFuzzer's output in fuzz/logs/<target>.log); it fails when
//!   a target found a crash (kept in fuzz/artifacts/<target>/);
//! - `--sanitizer=none` (with a target or `all`) builds without
//!   AddressSanitizer, with debug assertions and overflow checks and 16
//!   codegen units: a build of minutes rather than the better part of an
//!   hour on a shared 2-core machine, and faster runs; memory errors are
//!   then found only by what Rust checks itself;
//! - `cargo xtask fuzz keep <target> <artifact> <name>` copies a crash input
//!   into crates/dxcopy-harness/tests/data/fuzz-regressions/<target>/<name>,
//!   where the regression test replays it for ever.

use anyhow::{bail, Context, Result};
use dxcopy_read::{Container, PartName, Program};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Each target, what it covers, and which corpus files seed it.
const TARGETS: &[(&str, &str)] = &[
    (
        "parse",
        "container parse + check, every part decoder, the sweep's edit plans written and verified",
    ),
    (
        "edit_roundtrip",
        "random edit scripts -> write -> re-parse -> layout, PRIV, padding, digest and identity invariants",
    ),
    (
        "decode",
        "every part decoder, dispatched by part name (strict and LLVM-compatible readers)",
    ),
    (
        "pdb",
        "the PDB (MSF) reader: directory, streams, stream-5 container, then the parse target's work",
    ),
    (
        "bitcode",
        "the LLVM bitstream reader, module facts, re-emission, data layout fix and name stripping",
    ),
    (
        "dxil_module",
        "the DXIL module reader: the whole module with and without bodies, its IDs checked, the module facts",
    ),
    (
        "dxil_write",
        "the DXIL module writer: every module that reads written back, read again as the same model, written again as the same bytes",
    ),
    (
        "disasm",
        "the SM4/SM5 disassembler (dxinfo --disasm) on SHDR/SHEX data, alone and as a container",
    ),
    (
        "asm",
        "the DXBC assembler (dxasm) on text: an error at a line and column, or a container that parses",
    ),
    (
        "c_header",
        "C headers read, each array written back with a listing that stays in its #if 0 block",
    ),
    (
        "sources",
        "--extract-sources: SRCI's recorded names as paths within the depth and length limits",
    ),
    (
        "dxil_bitcode",
        "structure-aware DXIL bitcode: bitstream operations (blocks, abbreviations, BLOCKINFO, records, metadata, repeats) written as bitcode, then the bitcode target's work",
    ),
];

/// Edit scripts put in front of the corpus containers to seed `edit_roundtrip`
/// (format: dxcopy_harness::Script).
const SCRIPTS: &[&[u8]] = &[
    &[4, 0],                                           // strip debug
    &[7, 3, b'a', b'b', b'c'],                         // set-private "abc"
    &[9, 1, 10, 2, 11, 4, 1, 2, 3, 4],                 // retail, hash update, new DXIL bitcode
    &[5, 0x85, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9],          // add a part of 10 bytes
    &[0, 0, 1, 1, 4, 4],                               // remove, glob remove, strip all
    &[3, 0, 4, 0x84, 6, 0x81, b'z', b'z', b'z', b'z'], // keep, strip, update
];

fn fuzz_dir() -> PathBuf {
    crate::root().join("fuzz")
}

fn file_hash(bytes: &[u8]) -> String {
    // FNV-1a, 64 bits: names only need to be stable and distinct enough.
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}-{}", bytes.len())
}

/// Fills fuzz/corpus/<target> from the shared corpus and the generated
/// shapes and hostile modules (those even without the corpus). Returns the
/// seed count per target.
pub fn seed() -> Result<Vec<(&'static str, usize)>> {
    // Without the corpus, the generated seeds alone.
    let files = match dxcopy_harness::corpus::corpus_dir() {
        Ok(corpus) => crate::sweep::corpus_files(&corpus)?,
        Err(why) => {
            println!("fuzz: not seeding from the corpus: {why}");
            Vec::new()
        }
    };
    let mut counts = Vec::new();
    for (target, _) in TARGETS {
        let dir = fuzz_dir().join("corpus").join(target);
        std::fs::create_dir_all(&dir)?;
        let mut n = 0;
        for (i, (rel, path)) in files.iter().enumerate() {
            let is_pdb = rel.starts_with("pdb/");
            let bytes = std::fs::read(path)?;
            let seed = match *target {
                "parse" if !is_pdb => bytes,
                "pdb" if is_pdb => bytes,
                "decode" if !is_pdb => {
                    // One seed per decodable part of the container.
                    let Ok(c) = Container::parse(&bytes) else {
                        continue;
                    };
                    let kind = c
                        .find(PartName::DXIL)
                        .and_then(|p| Program::parse(&p).ok())
                        .map(|p| p.shader_kind);
                    for part in c.parts() {
                        if let Some(seed) = dxcopy_harness::decode_seed(part.name, kind, part.data)
                        {
                            std::fs::write(dir.join(file_hash(&seed)), &seed)?;
                            n += 1;
                        }
                    }
                    continue;
                }
                "bitcode" | "dxil_module" | "dxil_write" if !is_pdb => {
                    // One seed per program part's bitcode.
                    let Ok(c) = Container::parse(&bytes) else {
                        continue;
                    };
                    for part in c.parts() {
                        if let Ok(p) = Program::parse(&part) {
                            if p.has_bitcode_magic() {
                                std::fs::write(dir.join(file_hash(p.bitcode)), p.bitcode)?;
                                n += 1;
                            }
                        }
                    }
                    continue;
                }
                "disasm" if !is_pdb => {
                    // The SHDR/SHEX part data of each fxc container.
                    let Ok(c) = Container::parse(&bytes) else {
                        continue;
                    };
                    match dxcopy_read::listing::dxbc::shader_part(&c) {
                        Some(part) => part.data.to_vec(),
                        None => continue,
                    }
                }
                "edit_roundtrip" if !is_pdb => {
                    let script = SCRIPTS[i % SCRIPTS.len()];
                    let mut v = vec![script.len() as u8];
                    v.extend_from_slice(script);
                    v.extend_from_slice(&bytes);
                    v
                }
                _ => continue,
            };
            std::fs::write(dir.join(file_hash(&seed)), &seed)?;
            n += 1;
        }
        // The text attacks (dxasm listings, C headers, source paths).
        for (seed_target, _, bytes) in dxcopy_harness::text_attacks::seeds() {
            if seed_target == *target {
                std::fs::write(dir.join(file_hash(&bytes)), &bytes)?;
                n += 1;
            }
        }
        // The generated shapes the corpus lacks: deep nesting, halfway floats.
        for (_, bytes) in dxcopy_harness::shapes::listing_shapes() {
            let seed = match *target {
                "parse" => bytes,
                "disasm" => match Container::parse(&bytes).ok().and_then(|c| {
                    dxcopy_read::listing::dxbc::shader_part(&c).map(|p| p.data.to_vec())
                }) {
                    Some(data) => data,
                    None => continue,
                },
                _ => continue,
            };
            std::fs::write(dir.join(file_hash(&seed)), &seed)?;
            n += 1;
        }
        // The hostile modules (dxcopy_harness::attacks) at their small
        // scale, and operation programs that build their shapes.
        let attacks = dxcopy_harness::attacks::ATTACKS
            .iter()
            .map(|a| (a.build)(a.scales[0]));
        let seeds: Vec<Vec<u8>> = match *target {
            "bitcode" | "dxil_module" => attacks.collect(),
            "parse" => attacks
                .map(|b| dxcopy_harness::attacks::container(&b))
                .collect(),
            "dxil_bitcode" => dxcopy_harness::bitcode_ops::seeds(),
            _ => Vec::new(),
        };
        for seed in seeds {
            std::fs::write(dir.join(file_hash(&seed)), &seed)?;
            n += 1;
        }
        counts.push((*target, n));
    }
    Ok(counts)
}

fn keep(target: &str, artifact: &Path, name: &str) -> Result<()> {
    if !TARGETS.iter().any(|(t, _)| *t == target) {
        bail!("unknown fuzz target '{target}'");
    }
    let dir = crate::root()
        .join("crates/dxcopy-harness/tests/data/fuzz-regressions")
        .join(target);
    std::fs::create_dir_all(&dir)?;
    let dest = dir.join(name);
    std::fs::copy(artifact, &dest)
        .with_context(|| format!("copying {} to {}", artifact.display(), dest.display()))?;
    println!(
        "kept {} as {} (replayed by `cargo test -p dxcopy-harness --test fuzz_regressions`)",
        artifact.display(),
        dest.display()
    );
    Ok(())
}

/// `cargo fuzz` under the toolchain that builds the targets: nightly when
/// rustup has it (the sanitizer flags need it), else the current one with
/// `RUSTC_BOOTSTRAP=1`.
fn cargo_fuzz() -> Command {
    let nightly = Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    let mut cmd = Command::new("cargo");
    if nightly {
        cmd.env("RUSTUP_TOOLCHAIN", "nightly");
    } else {
        cmd.env("RUSTC_BOOTSTRAP", "1");
    }
    cmd.arg("fuzz");
    cmd
}

/// How the targets are built: cargo-fuzz's default AddressSanitizer, or
/// none (`--sanitizer=none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sanitizer {
    Address,
    None,
}

impl Sanitizer {
    /// `--sanitizer=KIND` among `args` (removed from them); address when
    /// absent.
    fn take(args: &mut Vec<String>) -> Result<Sanitizer> {
        let mut sanitizer = Sanitizer::Address;
        let mut rest = Vec::new();
        for arg in args.drain(..) {
            match arg.strip_prefix("--sanitizer=") {
                Some("none") => sanitizer = Sanitizer::None,
                Some("address") => sanitizer = Sanitizer::Address,
                Some(other) => bail!("--sanitizer takes none or address, not '{other}'"),
                None => rest.push(arg),
            }
        }
        *args = rest;
        Ok(sanitizer)
    }

    /// The options `cargo fuzz build` and `cargo fuzz run` take for it (the
    /// same for both, so that a run reuses the build).
    fn build_args(self) -> &'static [&'static str] {
        match self {
            Sanitizer::Address => &["-O"],
            // Without ASan, debug assertions and overflow checks are what
            // catch a silent wrong computation.
            Sanitizer::None => &["-O", "-a", "-s", "none", "--codegen-units", "16"],
        }
    }
}

/// libFuzzer's options for a run of `seconds`.
fn libfuzzer_args(seconds: u64) -> Vec<String> {
    vec![
        format!("-max_total_time={seconds}"),
        "-timeout=10".into(),
        "-rss_limit_mb=2048".into(),
        "-max_len=150000".into(),
        "-print_final_stats=1".into(),
    ]
}

fn require_cargo_fuzz() -> Result<()> {
    let has_cargo_fuzz = cargo_fuzz()
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_cargo_fuzz {
        bail!("cargo-fuzz is not installed: run `cargo install cargo-fuzz`");
    }
    Ok(())
}

/// What one bounded run of a target did, from libFuzzer's final stats.
struct RunStats {
    target: &'static str,
    seconds: u64,
    executions: Option<u64>,
    crashed: bool,
}

/// The value of libFuzzer's final `stat::NAME: value` line in `log`.
fn final_stat(log: &str, name: &str) -> Option<u64> {
    log.lines()
        .rev()
        .find_map(|l| l.strip_prefix(&format!("stat::{name}:")))
        .and_then(|v| v.trim().parse().ok())
}

/// Builds every target, then runs each of `only` (every target when
/// empty) for `seconds` in turn.
fn run_all(seconds: u64, only: &[String], sanitizer: Sanitizer) -> Result<()> {
    require_cargo_fuzz()?;
    if let Some(unknown) = only.iter().find(|o| !TARGETS.iter().any(|(t, _)| t == o)) {
        bail!("unknown fuzz target '{unknown}' (cargo xtask fuzz lists them)");
    }
    for (t, n) in seed()? {
        println!("fuzz: {n} seeds in fuzz/corpus/{t}");
    }
    crate::run(cargo_fuzz().arg("build").args(sanitizer.build_args()))?;
    let logs = fuzz_dir().join("logs");
    std::fs::create_dir_all(&logs)?;
    let mut stats = Vec::new();
    let chosen = TARGETS
        .iter()
        .filter(|(t, _)| only.is_empty() || only.iter().any(|o| o == t));
    for (target, _) in chosen {
        let corpus = fuzz_dir().join("corpus").join(target);
        std::fs::create_dir_all(&corpus)?;
        let log_path = logs.join(format!("{target}.log"));
        let log = std::fs::File::create(&log_path)?;
        println!(
            "fuzz: {target} for {seconds} s (log {})",
            log_path.display()
        );
        let started = std::time::Instant::now();
        let status = cargo_fuzz()
            .arg("run")
            .args(sanitizer.build_args())
            .arg(target)
            .arg(&corpus)
            .arg("--")
            .args(libfuzzer_args(seconds))
            .current_dir(crate::root())
            .stdout(log.try_clone()?)
            .stderr(log)
            .status()
            .with_context(|| format!("running cargo fuzz run {target}"))?;
        let text = std::fs::read_to_string(&log_path).unwrap_or_default();
        stats.push(RunStats {
            target,
            seconds: started.elapsed().as_secs(),
            executions: final_stat(&text, "number_of_executed_units"),
            crashed: !status.success(),
        });
    }
    println!("\n| target | time | execs | result |\n|---|---|---|---|");
    for s in &stats {
        println!(
            "| `{}` | {} s | {} | {} |",
            s.target,
            s.seconds,
            s.executions.map_or("?".into(), |n| n.to_string()),
            if s.crashed {
                "CRASH (see its log and fuzz/artifacts)"
            } else {
                "no crash"
            }
        );
    }
    let crashed: Vec<&str> = stats
        .iter()
        .filter(|s| s.crashed)
        .map(|s| s.target)
        .collect();
    if !crashed.is_empty() {
        bail!("fuzz targets that found a crash: {}", crashed.join(", "));
    }
    Ok(())
}

/// `cargo xtask fuzz [TARGET [SECONDS] | all [SECONDS] [TARGET…] | seed | keep TARGET ARTIFACT NAME]`,
/// with `--sanitizer=none` anywhere for a build without AddressSanitizer.
pub fn run(args: &[String]) -> Result<()> {
    let mut args = args.to_vec();
    let sanitizer = Sanitizer::take(&mut args)?;
    match args.first().map(String::as_str) {
        None | Some("list") => {
            println!("fuzz targets (fuzz/fuzz_targets/*.rs):");
            for (t, what) in TARGETS {
                println!("  {t:<16} {what}");
            }
            println!(
                "\nrun one:   cargo xtask fuzz <target> [seconds]   (default 600; needs `cargo install cargo-fuzz`)\n\
                 run all:   cargo xtask fuzz all [seconds] [target…]   (each target, or those named, in turn; default 120 s each)\n\
                 no ASan:   add --sanitizer=none (debug assertions, 16 codegen units: a build of minutes)\n\
                 directly:  RUSTC_BOOTSTRAP=1 cargo fuzz run <target> fuzz/corpus/<target> -- -jobs=1 -max_total_time=<s>\n\
                 seed only: cargo xtask fuzz seed\n\
                 a crash:   fix it in the library with a unit test, then\n           \
                 cargo xtask fuzz keep <target> fuzz/artifacts/<target>/crash-… <descriptive-name>"
            );
            Ok(())
        }
        Some("seed") => {
            for (t, n) in seed()? {
                println!("fuzz: {n} seeds in fuzz/corpus/{t}");
            }
            Ok(())
        }
        Some("all") => {
            let seconds: u64 = match args.get(1) {
                Some(s) => s.parse().context("seconds")?,
                None => 120,
            };
            run_all(seconds, args.get(2..).unwrap_or_default(), sanitizer)
        }
        Some("keep") => match args.as_slice() {
            [_, target, artifact, name] => keep(target, Path::new(artifact), name),
            _ => bail!("usage: cargo xtask fuzz keep <target> <artifact> <name>"),
        },
        Some(target) => {
            if !TARGETS.iter().any(|(t, _)| *t == target) {
                bail!("unknown fuzz target '{target}' (cargo xtask fuzz lists them)");
            }
            let seconds: u64 = match args.get(1) {
                Some(s) => s.parse().context("seconds")?,
                None => 600,
            };
            require_cargo_fuzz()?;
            for (t, n) in seed()? {
                println!("fuzz: {n} seeds in fuzz/corpus/{t}");
            }
            let corpus = fuzz_dir().join("corpus").join(target);
            std::fs::create_dir_all(&corpus)?;
            crate::run(
                cargo_fuzz()
                    .arg("run")
                    .args(sanitizer.build_args())
                    .arg(target)
                    .arg(&corpus)
                    .arg("--")
                    .args(libfuzzer_args(seconds)),
            )
        }
    }
}
