//! Differential test against llvm-objcopy 22: the dxcopy binary (with
//! `--digest=keep`, llvm-objcopy's digest behaviour) and
//! `/usr/lib/llvm-22/bin/llvm-objcopy` run side by side on every container of
//! `../shared/corpus`, and their outputs must be byte-identical.
//!
//! Operations per file:
//! - `--dump-section=DXIL=…` when a DXIL part exists (the dump must also be
//!   LLVM bitcode, `BC 0xC0DE`);
//! - `--extract-section=<first part>=…`;
//! - `-R STAT`, or `-R` of the last part when there is no STAT (inputs with
//!   gaps or a wrong FileSize are re-laid out here);
//! - `-j DXIL`, or `-j` of the first part when there is no DXIL.
//!
//! llvm-objcopy starts in about 20 ms (it loads a 150 MB libLLVM), so the
//! dump, the extract and `-R` share one invocation: both tools run dumps and
//! extracts on the input before any removal, whatever the option order. When
//! either tool fails a shared invocation, each operation is run alone so the
//! failure is attributed to the right one.
//!
//! Inputs llvm-objcopy rejects are counted with its message, and what dxcopy
//! did with them is reported. Known differences are
//! named and counted, never skipped silently:
//! - PRIV not last in the input: dxcopy writes PRIV last, llvm-objcopy keeps
//!   the input order;
//! - a DXIL part whose bitcode is not exactly the data after the 24-byte
//!   program header: dxcopy dumps the bitcode its header locates,
//!   llvm-objcopy drops a fixed 24 bytes.

mod common;

use dxcopy_harness::corpus::{manifest_or_skip, Row};
use dxcopy_read::{program::BITCODE_MAGIC, Container, PartName, Program};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Worker threads (the test must fit a 2-core CI runner).
const THREADS: usize = 2;

/// One side-by-side comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
    DumpDxil,
    Extract,
    Remove,
    Only,
}

impl Op {
    const ALL: [Op; 4] = [Op::DumpDxil, Op::Extract, Op::Remove, Op::Only];

    fn label(self) -> &'static str {
        match self {
            Op::DumpDxil => "--dump-section=DXIL",
            Op::Extract => "--extract-section=<first part>",
            Op::Remove => "-R STAT (or the last part)",
            Op::Only => "-j DXIL (or the first part)",
        }
    }
}

/// What happened to one operation on one file.
#[derive(Debug)]
enum Outcome {
    Identical,
    /// llvm-objcopy refused the input; `ours_ok` says whether dxcopy accepted it.
    Rejected {
        message: String,
        ours_ok: bool,
    },
    /// The outputs differ for a documented reason.
    KnownDifference(&'static str),
    Failed(String),
}

/// Counts for one operation.
#[derive(Default)]
struct OpTally {
    files: usize,
    compared: usize,
    identical: usize,
    rejected: BTreeMap<String, usize>,
    rejected_ours_ok: usize,
    known: BTreeMap<&'static str, usize>,
    /// DXIL dumps by dxcopy that start with the bitcode magic.
    bitcode_magic: usize,
}

/// The output paths of one tool.
struct Outputs {
    dump: PathBuf,
    extract: PathBuf,
    main: PathBuf,
}

impl Outputs {
    fn in_dir(dir: &Path, tool: &str) -> Outputs {
        Outputs {
            dump: dir.join(format!("{tool}.dump")),
            extract: dir.join(format!("{tool}.extract")),
            main: dir.join(format!("{tool}.out")),
        }
    }

    /// The file an operation writes.
    fn of(&self, op: Op) -> &Path {
        match op {
            Op::DumpDxil => &self.dump,
            Op::Extract => &self.extract,
            Op::Remove | Op::Only => &self.main,
        }
    }

    /// Removes every output so a tool that writes nothing cannot pass on a stale file.
    fn clear(&self) {
        for p in [&self.dump, &self.extract, &self.main] {
            match std::fs::remove_file(p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => panic!("cannot remove {}: {e}", p.display()),
            }
        }
    }
}

/// The paths one worker reuses for every file.
struct Scratch {
    _dir: tempfile::TempDir,
    ours: Outputs,
    llvm: Outputs,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("temp dir");
        Scratch {
            ours: Outputs::in_dir(dir.path(), "dxcopy"),
            llvm: Outputs::in_dir(dir.path(), "llvm"),
            _dir: dir,
        }
    }
}

/// Runs `tool args…`; `Err` holds its stderr without the `tool: error: 'file':` prefix.
fn run(tool: &Path, args: &[String]) -> Result<(), String> {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr.lines().next().unwrap_or("").trim();
    let message = line.split_once("error: ").map_or(line, |(_, m)| m);
    // Drop a quoted file name: `'path': message`.
    let message = message
        .strip_prefix('\'')
        .and_then(|rest| rest.split_once("': "))
        .map_or(message, |(_, m)| m);
    if out.status.code() == Some(1) {
        Err(message.to_string())
    } else {
        Err(format!("{message} ({})", out.status))
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Facts about one input that decide which operations run and which known
/// differences apply.
struct Input<'a> {
    row: &'a Row,
    path: String,
    first: String,
    last: String,
    has_dxil: bool,
    has_stat: bool,
    priv_not_last: bool,
    /// The DXIL bitcode is not exactly the part data after 24 bytes.
    dxil_bitcode_not_at_24: bool,
}

impl<'a> Input<'a> {
    fn new(row: &'a Row) -> Input<'a> {
        let data = std::fs::read(&row.path).unwrap_or_else(|e| panic!("{}: {e}", row.rel));
        // The names come from the manifest; our reader only answers the
        // layout questions the known differences depend on.
        let container = Container::parse(&data).ok();
        let priv_not_last = row
            .parts
            .iter()
            .position(|p| p == "PRIV")
            .is_some_and(|i| i + 1 != row.parts.len());
        let dxil_bitcode_not_at_24 = container
            .as_ref()
            .and_then(|c| c.find(PartName::DXIL))
            .is_some_and(|part| match Program::parse(&part) {
                Ok(program) => {
                    program.bitcode_offset != 16 || program.bitcode.len() + 24 != part.data.len()
                }
                Err(_) => true,
            });
        Input {
            row,
            path: row.path.to_string_lossy().into_owned(),
            first: row.parts.first().cloned().unwrap_or_default(),
            last: row.parts.last().cloned().unwrap_or_default(),
            has_dxil: row.parts.iter().any(|p| p == "DXIL"),
            has_stat: row.parts.iter().any(|p| p == "STAT"),
            priv_not_last,
            dxil_bitcode_not_at_24,
        }
    }

    fn applies(&self, op: Op) -> bool {
        match op {
            Op::DumpDxil => self.has_dxil,
            Op::Extract | Op::Remove | Op::Only => !self.row.parts.is_empty(),
        }
    }

    /// The documented reason `op`'s outputs may differ on this input.
    fn known_difference(&self, op: Op) -> Option<&'static str> {
        match op {
            Op::DumpDxil if self.dxil_bitcode_not_at_24 => Some(
                "DXIL bitcode not right after the 24-byte program header: dxcopy dumps what the bitcode header locates",
            ),
            Op::Remove | Op::Only if self.priv_not_last => {
                Some("PRIV not last in the input: dxcopy moves it last, llvm-objcopy keeps the order")
            }
            _ => None,
        }
    }
}

/// Compares two files; `Err` describes the first difference.
fn same_bytes(ours: &Path, llvm: &Path) -> Result<(), String> {
    let (a, b) = (read(ours)?, read(llvm)?);
    if a == b {
        return Ok(());
    }
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    Err(format!(
        "outputs differ: dxcopy {} bytes, llvm-objcopy {} bytes, first difference at {at:#x}",
        a.len(),
        b.len()
    ))
}

/// Compares the outputs of one operation after both tools succeeded. A DXIL
/// dump must also be LLVM bitcode.
fn compare_outputs(input: &Input<'_>, op: Op, s: &Scratch) -> Outcome {
    let (ours, llvm) = (s.ours.of(op), s.llvm.of(op));
    if op == Op::DumpDxil {
        match read(ours) {
            Ok(bytes) if bytes.starts_with(&BITCODE_MAGIC) => {}
            Ok(bytes) => {
                return Outcome::Failed(format!(
                    "DXIL dump does not start with BC C0 DE: {:02x?}",
                    &bytes[..bytes.len().min(4)]
                ))
            }
            Err(e) => return Outcome::Failed(e),
        }
    }
    match same_bytes(ours, llvm) {
        Ok(()) => Outcome::Identical,
        Err(diff) => match input.known_difference(op) {
            Some(reason) => Outcome::KnownDifference(reason),
            None => Outcome::Failed(diff),
        },
    }
}

struct Tools {
    ours: PathBuf,
    llvm: PathBuf,
    /// Invocations of each tool so far.
    invocations: AtomicUsize,
}

/// The options of `op` on `input` for a tool writing to `out`.
fn op_args(input: &Input<'_>, op: Op, out: &Outputs) -> Vec<String> {
    match op {
        Op::DumpDxil => vec![format!("--dump-section=DXIL={}", out.dump.display())],
        Op::Extract => vec![format!(
            "--extract-section={}={}",
            input.first,
            out.extract.display()
        )],
        Op::Remove => {
            let name = if input.has_stat { "STAT" } else { &input.last };
            vec!["-R".into(), name.into()]
        }
        Op::Only => {
            let name = if input.has_dxil { "DXIL" } else { &input.first };
            vec!["-j".into(), name.into()]
        }
    }
}

/// Runs `ops` in one invocation of each tool and compares what they wrote;
/// when either tool fails a shared invocation, runs each operation alone.
fn run_ops(tools: &Tools, input: &Input<'_>, ops: &[Op], s: &Scratch) -> Vec<(Op, Outcome)> {
    s.ours.clear();
    s.llvm.clear();
    let mut ours_args = vec!["--digest=keep".to_string()];
    let mut llvm_args = Vec::new();
    for &op in ops {
        ours_args.extend(op_args(input, op, &s.ours));
        llvm_args.extend(op_args(input, op, &s.llvm));
    }
    ours_args.extend([input.path.clone(), s.ours.main.display().to_string()]);
    llvm_args.extend([input.path.clone(), s.llvm.main.display().to_string()]);
    tools.invocations.fetch_add(1, Ordering::Relaxed);
    let ours = run(&tools.ours, &ours_args);
    let llvm = run(&tools.llvm, &llvm_args);
    if ops.len() > 1 && (ours.is_err() || llvm.is_err()) {
        return ops
            .iter()
            .flat_map(|&op| run_ops(tools, input, &[op], s))
            .collect();
    }
    ops.iter()
        .map(|&op| {
            let outcome = match (&ours, &llvm) {
                (_, Err(message)) => Outcome::Rejected {
                    message: message.clone(),
                    ours_ok: ours.is_ok(),
                },
                (Err(e), Ok(())) => {
                    Outcome::Failed(format!("dxcopy failed, llvm-objcopy did not: {e}"))
                }
                (Ok(()), Ok(())) => compare_outputs(input, op, s),
            };
            (op, outcome)
        })
        .collect()
}

/// Every operation that applies to one input, in two invocations per tool:
/// dump + extract + `-R` (which read the input first), then `-j`.
fn compare_file(tools: &Tools, input: &Input<'_>, s: &Scratch) -> Vec<(Op, Outcome)> {
    let shared: Vec<Op> = [Op::DumpDxil, Op::Extract, Op::Remove]
        .into_iter()
        .filter(|&op| input.applies(op))
        .collect();
    let mut results = Vec::new();
    if !shared.is_empty() {
        results.extend(run_ops(tools, input, &shared, s));
    }
    if input.applies(Op::Only) {
        results.extend(run_ops(tools, input, &[Op::Only], s));
    }
    results
}

#[cfg_attr(
    not(all(dxcopy_corpus, dxcopy_llvm)),
    ignore = "needs the shared corpus and LLVM 22"
)]
#[test]
fn llvm_differential() {
    let Some((_, rows)) = manifest_or_skip("llvm differential") else {
        return;
    };
    let Some(llvm) = common::llvm_tool_or_skip("llvm differential", "llvm-objcopy") else {
        return;
    };
    let tools = Tools {
        ours: PathBuf::from(env!("CARGO_BIN_EXE_dxcopy")),
        llvm,
        invocations: AtomicUsize::new(0),
    };
    let started = std::time::Instant::now();
    let inputs: Vec<Input<'_>> = rows
        .iter()
        .filter(|r| r.is_container())
        .map(Input::new)
        .collect();

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Op, Outcome)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| {
                let scratch = Scratch::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(input) = inputs.get(i) else { break };
                    let file_results = compare_file(&tools, input, &scratch);
                    let mut all = results.lock().expect("results lock");
                    all.extend(file_results.into_iter().map(|(op, o)| (i, op, o)));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("results lock");
    results.sort_by_key(|(i, op, _)| (*i, *op));

    let mut tallies: BTreeMap<Op, OpTally> =
        Op::ALL.iter().map(|op| (*op, OpTally::default())).collect();
    for input in &inputs {
        for op in Op::ALL {
            if input.applies(op) {
                tallies.get_mut(&op).expect("tally").files += 1;
            }
        }
    }
    let mut failures = Vec::new();
    for (i, op, outcome) in &results {
        let tally = tallies.get_mut(op).expect("tally");
        match outcome {
            Outcome::Identical => {
                tally.compared += 1;
                tally.identical += 1;
                // compare_outputs fails a DXIL dump without the magic.
                tally.bitcode_magic += usize::from(*op == Op::DumpDxil);
            }
            Outcome::Rejected { message, ours_ok } => {
                *tally.rejected.entry(message.clone()).or_default() += 1;
                tally.rejected_ours_ok += usize::from(*ours_ok);
            }
            Outcome::KnownDifference(reason) => {
                tally.compared += 1;
                tally.bitcode_magic += usize::from(*op == Op::DumpDxil);
                *tally.known.entry(reason).or_default() += 1;
            }
            Outcome::Failed(msg) => {
                failures.push(format!("{}: {}: {msg}", inputs[*i].row.rel, op.label()));
            }
        }
    }

    let priv_not_last = inputs.iter().filter(|i| i.priv_not_last).count();
    let dxil_not_at_24 = inputs.iter().filter(|i| i.dxil_bitcode_not_at_24).count();
    println!(
        "llvm differential: {} inputs, {} invocations of each tool on {THREADS} threads in {:.1} s; known-difference candidates: {priv_not_last} with PRIV not last, {dxil_not_at_24} with DXIL bitcode not right after the program header",
        inputs.len(),
        tools.invocations.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    for (op, t) in &tallies {
        let rejected: usize = t.rejected.values().sum();
        let known: usize = t.known.values().sum();
        println!(
            "llvm differential: {}: {} files, {} compared, {} identical, {rejected} rejected by llvm-objcopy{}, {known} known differences{}{}",
            op.label(),
            t.files,
            t.compared,
            t.identical,
            if rejected == 0 {
                String::new()
            } else {
                format!(
                    " ({}; dxcopy accepted {} of them)",
                    common::tally(&t.rejected),
                    t.rejected_ours_ok
                )
            },
            if known == 0 {
                String::new()
            } else {
                format!(" ({})", common::tally(&t.known))
            },
            if *op == Op::DumpDxil {
                format!(", {} dumps start with BC C0 DE", t.bitcode_magic)
            } else {
                String::new()
            },
        );
    }

    common::assert_no_failures("llvm differential", &failures);
    for (op, t) in &tallies {
        let rejected: usize = t.rejected.values().sum();
        assert_eq!(
            t.compared + rejected,
            t.files,
            "{}: every file accounted for",
            op.label()
        );
        let known: usize = t.known.values().sum();
        assert_eq!(t.identical + known, t.compared, "{}", op.label());
        assert!(t.compared > 0, "{}: nothing compared", op.label());
    }
}
