//! `cargo xtask sweep`: the mutation sweep over every container and PDB in
//! ../shared/corpus (or `$DXCOPY_SHARED/corpus`).
//!
//! Mutants per file, all derived from one seed (`--seed`, default 0x5eed) and
//! the file's corpus path, so a run is repeatable and any failure can be
//! replayed alone (`--only SUBSTRING`):
//! (a) truncations — every length (quick: the first 48 bytes, every part
//!     boundary ±1, the last 8 bytes, and 16 random lengths);
//! (b) random single-byte changes — 200 (quick: 20);
//! (c) header fields, part offsets and part sizes (for PDBs the MSF super
//!     block fields) set to 0, 1, size-1, size, 0x7fffffff or 0xffffffff —
//!     50 (quick: 10).
//!
//! In process, every mutant goes through [`dxcopy_harness::exercise`] (parse
//! and check, every decoder, the PDB reader, the obj2yaml view, strip-debug,
//! remove STAT, set-private, dump DXIL, extract, split-debug; outputs written
//! to memory and verified) inside `catch_unwind`, watched for hangs. Through
//! the binaries, a sample per file (20 truncations and 40 changes; quick:
//! every 25th file, 4 and 8) runs dxcopy/dxstrip/dxinfo with a per-call
//! timeout and checks exit codes, stderr, temp files, the input and the
//! outputs. Failing mutants are saved under target/sweep-failures/.
//!
//! The task re-runs itself under the `sweep` cargo profile (release without
//! LTO, overflow checks and debug assertions on); the quick sweep also uses
//! that profile's binaries, the full sweep the release binaries.

use anyhow::{bail, Context, Result};
use dxcopy_edit::{dump, DumpMode, NameMatcher};
use dxcopy_read::{Container, PartName};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Set in the environment of the re-run under the sweep profile.
const INNER: &str = "DXCOPY_SWEEP_INNER";

/// Boundary values for header fields, offsets and sizes (`size` = file length).
fn boundary_values(size: u32) -> [u32; 6] {
    [0, 1, size.wrapping_sub(1), size, 0x7fff_ffff, 0xffff_ffff]
}

/// SplitMix64: small, seedable, and the same everywhere.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One mutant: how to make it from the original, and its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// Keep the first `len` bytes.
    Truncate(usize),
    /// Set the byte at `at` to `value`.
    Byte { at: usize, value: u8 },
    /// Write `value` (u32 LE) at `at`; `field` names it.
    Field {
        at: usize,
        value: u32,
        field: &'static str,
    },
}

impl Mutation {
    fn class(&self) -> usize {
        match self {
            Mutation::Truncate(_) => 0,
            Mutation::Byte { .. } => 1,
            Mutation::Field { .. } => 2,
        }
    }

    /// The mutant's bytes (a truncation borrows the original).
    pub fn apply<'a>(&self, original: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        std::borrow::Cow::Owned(match *self {
            Mutation::Truncate(len) => {
                return std::borrow::Cow::Borrowed(&original[..len.min(original.len())])
            }
            Mutation::Byte { at, value } => {
                let mut m = original.to_vec();
                if let Some(slot) = m.get_mut(at) {
                    *slot = value;
                }
                m
            }
            Mutation::Field { at, value, .. } => {
                let mut m = original.to_vec();
                if let Some(slot) = m.get_mut(at..at + 4) {
                    slot.copy_from_slice(&value.to_le_bytes());
                }
                m
            }
        })
    }

    /// A file-name-safe description.
    pub fn describe(&self) -> String {
        match self {
            Mutation::Truncate(len) => format!("truncate-{len}"),
            Mutation::Byte { at, value } => format!("byte-{at:#x}-{value:#04x}"),
            Mutation::Field { at, value, field } => format!("{field}-{at:#x}-{value:#x}"),
        }
    }
}

const CLASS_NAMES: [&str; 3] = ["truncations", "byte changes", "boundary changes"];

/// The u32 fields worth setting to boundary values: container header, offset
/// table, part sizes and program-header bitcode offset/size; for a PDB the
/// MSF super block.
fn fields(original: &[u8]) -> Vec<(usize, &'static str)> {
    if original.starts_with(b"Microsoft C/C++ MSF 7.00") {
        return vec![
            (32, "msf-block-size"),
            (36, "msf-free-map"),
            (40, "msf-block-count"),
            (44, "msf-directory-size"),
            (52, "msf-directory-map"),
        ];
    }
    let mut out = vec![(24, "file-size"), (28, "part-count"), (20, "version")];
    if let Ok(c) = Container::parse(original) {
        for p in c.parts() {
            let i = p.index as usize;
            out.push((32 + 4 * i, "part-offset"));
            out.push((p.offset as usize + 4, "part-size"));
            if matches!(p.name, PartName::DXIL | PartName::ILDB) {
                out.push((p.data_offset() as usize + 16, "bitcode-offset"));
                out.push((p.data_offset() as usize + 20, "bitcode-size"));
            }
            if let Ok(program) = dxcopy_read::Program::parse(&p) {
                out.extend(bitcode_length_words(program.bitcode).into_iter().map(|at| {
                    (
                        program.bitcode_file_offset as usize + at,
                        "bitcode-block-length",
                    )
                }));
            }
        }
    }
    out.retain(|(at, _)| at + 4 <= original.len());
    out
}

/// Byte offsets (inside `bitcode`) of the length words of its first 32
/// blocks, found by the bitstream reader.
fn bitcode_length_words(bitcode: &[u8]) -> Vec<usize> {
    use dxcopy_read::bitcode::{Bitcode, Entry};
    let mut out = Vec::new();
    let Ok(b) = Bitcode::parse(bitcode) else {
        return out;
    };
    let mut reader = b.reader();
    while let Ok(Some(entry)) = reader.next_entry() {
        if let Entry::EnterBlock(h) = entry {
            out.push((h.body_start / 8) as usize - 4);
            if out.len() == 32 {
                break;
            }
        }
    }
    out
}

/// Truncation lengths: all of them, or the quick sample.
fn truncations(original: &[u8], quick: bool, rng: &mut Rng) -> Vec<usize> {
    let len = original.len();
    if !quick {
        return (0..len).collect();
    }
    let mut set = std::collections::BTreeSet::new();
    set.extend(0..len.min(48));
    set.extend(len.saturating_sub(8)..len);
    if let Ok(c) = Container::parse(original) {
        for p in c.parts() {
            let end = (p.data_offset() + u64::from(p.size())) as usize;
            for at in [p.offset as usize, p.data_offset() as usize, end] {
                set.extend([at.saturating_sub(1), at, at + 1]);
            }
        }
    }
    for _ in 0..16 {
        if len > 0 {
            set.insert(rng.below(len as u64) as usize);
        }
    }
    set.retain(|&l| l < len);
    set.into_iter().collect()
}

/// All mutants of one file, in a fixed order.
pub fn mutants(original: &[u8], seed: u64, quick: bool) -> Vec<Mutation> {
    let mut rng = Rng::new(seed);
    let mut out: Vec<Mutation> = truncations(original, quick, &mut rng)
        .into_iter()
        .map(Mutation::Truncate)
        .collect();
    if original.is_empty() {
        return out;
    }
    let (bytes, boundaries) = if quick { (20, 10) } else { (200, 50) };
    for _ in 0..bytes {
        let at = rng.below(original.len() as u64) as usize;
        let value = original[at] ^ (1 + rng.below(255) as u8);
        out.push(Mutation::Byte { at, value });
    }
    let fields = fields(original);
    if !fields.is_empty() {
        let values = boundary_values(original.len() as u32);
        for _ in 0..boundaries {
            let (at, field) = fields[rng.below(fields.len() as u64) as usize];
            let value = values[rng.below(values.len() as u64) as usize];
            out.push(Mutation::Field { at, value, field });
        }
    }
    out
}

/// The binaries' sample of one file's mutants: `truncs` truncations and
/// `changes` byte/boundary changes, spread over the list.
fn sample(all: &[Mutation], truncs: usize, changes: usize, rng: &mut Rng) -> Vec<Mutation> {
    let (t, c): (Vec<Mutation>, Vec<Mutation>) =
        all.iter().partition(|m| matches!(m, Mutation::Truncate(_)));
    let mut pick = |v: &[Mutation], n: usize| -> Vec<Mutation> {
        if v.len() <= n {
            return v.to_vec();
        }
        (0..n)
            .map(|_| v[rng.below(v.len() as u64) as usize])
            .collect()
    };
    let mut out = pick(&t, truncs);
    out.extend(pick(&c, changes));
    out
}

/// Options of one sweep.
#[derive(Debug, Clone)]
pub struct Options {
    quick: bool,
    seed: u64,
    bins: bool,
    in_process: bool,
    only: Option<String>,
    jobs: usize,
    hang_limit: Duration,
    /// Binaries phase: every Nth file (default: 25 quick, 1 full).
    bin_stride: Option<usize>,
}

fn parse_args(args: &[String]) -> Result<Options> {
    let mut o = Options {
        quick: false,
        seed: 0x5eed,
        bins: true,
        in_process: true,
        only: None,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        hang_limit: Duration::from_secs(20),
        bin_stride: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .with_context(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--quick" => o.quick = true,
            "--no-bins" => o.bins = false,
            "--bins-only" => o.in_process = false,
            "--seed" => {
                let v = value("--seed")?;
                o.seed = match v.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16)?,
                    None => v.parse()?,
                };
            }
            "--only" => o.only = Some(value("--only")?),
            "--jobs" => o.jobs = value("--jobs")?.parse()?,
            "--bin-stride" => o.bin_stride = Some(value("--bin-stride")?.parse::<usize>()?.max(1)),
            other => bail!(
                "unknown sweep option '{other}' (--quick, --seed N, --only SUBSTRING, --no-bins, --bins-only, --bin-stride N, --jobs N)"
            ),
        }
    }
    Ok(o)
}

/// Every container and PDB in the corpus, sorted, as (path relative to the corpus, path).
pub fn corpus_files(corpus: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let mut stack = vec![corpus.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
            let p = e?.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(corpus)?.to_string_lossy().into_owned();
                // MANIFEST.tsv and the YAML sources are not inputs.
                if rel.starts_with("bin/")
                    || rel.starts_with("llvm-bin/")
                    || rel.starts_with("pdb/")
                {
                    out.push((rel, p));
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The generated shapes the corpus lacks (deep nesting, halfway floats:
/// `dxcopy_harness::shapes`; the hostile modules of
/// `dxcopy_harness::attacks`), written under target/ so that the sweep
/// mutates and runs them like corpus files (as `shapes/NAME.dxbc`).
fn shape_files() -> Result<Vec<(String, PathBuf)>> {
    let dir = crate::target_dir().join("sweep-shapes");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut out = Vec::new();
    let attacks = dxcopy_harness::attacks::ATTACKS.iter().map(|a| {
        (
            a.name,
            dxcopy_harness::attacks::container(&(a.build)(a.scales[0])),
        )
    });
    for (name, bytes) in dxcopy_harness::shapes::listing_shapes()
        .into_iter()
        .chain(attacks)
    {
        let path = dir.join(format!("{name}.dxbc"));
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        out.push((format!("shapes/{name}.dxbc"), path));
    }
    Ok(out)
}

#[derive(Default)]
struct Counts {
    mutants: [u64; 3],
    parsed: u64,
    pdbs_parsed: u64,
    written: u64,
    edit_errors: u64,
    /// Outputs written by the file-to-file writer and compared with memory.
    file_writes: u64,
    failures: Vec<String>,
}

thread_local! {
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

fn failure_dir() -> PathBuf {
    crate::target_dir().join("sweep-failures")
}

fn save_failure(rel: &str, m: &Mutation, bytes: &[u8]) -> PathBuf {
    let dir = failure_dir();
    let _ = std::fs::create_dir_all(&dir);
    let p = dir.join(format!("{}--{}", rel.replace('/', "__"), m.describe()));
    let _ = std::fs::write(&p, bytes);
    p
}

/// The in-process phase over `files`, on `jobs` threads with a hang watchdog.
fn in_process(files: &[(String, PathBuf)], o: &Options) -> Result<Counts> {
    let prev_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()));
    }));
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Counts::default());
    // Per worker: start of the current mutant (ms since `epoch`, 0 = idle) and what it is.
    let epoch = Instant::now();
    let busy: Vec<AtomicU64> = (0..o.jobs).map(|_| AtomicU64::new(0)).collect();
    let current: Vec<Mutex<String>> = (0..o.jobs).map(|_| Mutex::new(String::new())).collect();
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for w in 0..o.jobs {
            let (next, total, busy, current) = (&next, &total, &busy, &current);
            let done = &done;
            s.spawn(move || {
                let mut c = Counts::default();
                let scratch = tempfile::Builder::new()
                    .prefix("dxcopy-sweep-writer-")
                    .tempdir()
                    .expect("a temp directory");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((rel, path)) = files.get(i) else {
                        break;
                    };
                    let Ok(original) = std::fs::read(path) else {
                        c.failures.push(format!("{rel}: cannot read"));
                        continue;
                    };
                    let seed = o.seed ^ fnv1a(rel);
                    for m in mutants(&original, seed, o.quick) {
                        let bytes = m.apply(&original);
                        *current[w].lock().unwrap() = format!("{rel} {}", m.describe());
                        busy[w].store(epoch.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
                        let r = std::panic::catch_unwind(|| {
                            let s = dxcopy_harness::exercise(&bytes)?;
                            let files =
                                dxcopy_harness::exercise_file_writer(&bytes, scratch.path())?;
                            Ok::<_, dxcopy_harness::Violation>((s, files))
                        });
                        busy[w].store(0, Ordering::SeqCst);
                        c.mutants[m.class()] += 1;
                        let problem = match r {
                            Ok(Ok((s, files))) => {
                                c.file_writes += files as u64;
                                c.parsed += u64::from(s.parsed);
                                c.pdbs_parsed += u64::from(s.pdb_parsed);
                                c.written += s.written as u64;
                                c.edit_errors += s.edit_errors as u64;
                                None
                            }
                            Ok(Err(v)) => Some(format!("invariant: {v}")),
                            Err(_) => Some(format!(
                                "panic: {}",
                                LAST_PANIC
                                    .with(|p| p.borrow_mut().take())
                                    .unwrap_or_default()
                            )),
                        };
                        if let Some(problem) = problem {
                            let saved = save_failure(rel, &m, &bytes);
                            c.failures.push(format!(
                                "{rel} {}: {problem} (mutant saved as {})",
                                m.describe(),
                                saved.display()
                            ));
                        }
                    }
                }
                let mut t = total.lock().unwrap();
                for k in 0..3 {
                    t.mutants[k] += c.mutants[k];
                }
                t.parsed += c.parsed;
                t.pdbs_parsed += c.pdbs_parsed;
                t.written += c.written;
                t.edit_errors += c.edit_errors;
                t.file_writes += c.file_writes;
                t.failures.extend(c.failures);
                done.fetch_add(1, Ordering::SeqCst);
            });
        }
        // Watchdog: a mutant running longer than the limit is a hang. A
        // thread cannot be killed, so report it, save it and stop.
        let (busy, current, done) = (&busy, &current, &done);
        s.spawn(move || {
            while done.load(Ordering::SeqCst) < o.jobs {
                std::thread::sleep(Duration::from_millis(200));
                let now = epoch.elapsed().as_millis() as u64;
                for w in 0..o.jobs {
                    let started = busy[w].load(Ordering::SeqCst);
                    if started != 0
                        && now.saturating_sub(started - 1) > o.hang_limit.as_millis() as u64
                    {
                        let what = current[w].lock().unwrap().clone();
                        eprintln!(
                            "sweep: FAILED: hang: {what} has run for more than {:?} in process",
                            o.hang_limit
                        );
                        std::process::exit(1);
                    }
                }
            }
        });
    });
    std::panic::set_hook(prev_hook);
    Ok(total.into_inner().unwrap())
}

/// The tool runs made for each binary-phase mutant.
struct ToolRun {
    label: &'static str,
    tool: &'static str,
    args: &'static [&'static str],
    /// Where its container output goes: "out.dxbc", the input itself (in place), or none.
    output: Output,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    File(&'static str),
    InPlace,
    Dump(&'static str),
    Json,
    None,
}

const TOOL_RUNS: &[ToolRun] = &[
    ToolRun {
        label: "dxcopy -R STAT",
        tool: "dxcopy",
        args: &["-R", "STAT", "in.dxbc", "out.dxbc"],
        output: Output::File("out.dxbc"),
    },
    ToolRun {
        label: "dxcopy --strip-debug (in place)",
        tool: "dxcopy",
        args: &["--strip-debug", "in.dxbc"],
        output: Output::InPlace,
    },
    ToolRun {
        label: "dxcopy --set-private",
        tool: "dxcopy",
        args: &["--set-private=blob.bin", "in.dxbc", "out.dxbc"],
        output: Output::File("out.dxbc"),
    },
    ToolRun {
        label: "dxcopy --dump-section=DXIL",
        tool: "dxcopy",
        args: &["--dump-section=DXIL=dxil.bc", "in.dxbc"],
        output: Output::Dump("dxil.bc"),
    },
    ToolRun {
        label: "dxstrip (in place)",
        tool: "dxstrip",
        args: &["in.dxbc"],
        output: Output::InPlace,
    },
    ToolRun {
        label: "dxinfo --verify",
        tool: "dxinfo",
        args: &["--verify", "in.dxbc"],
        output: Output::None,
    },
    ToolRun {
        label: "dxinfo --json",
        tool: "dxinfo",
        args: &["--json", "in.dxbc"],
        output: Output::Json,
    },
    ToolRun {
        label: "dxinfo --disasm",
        tool: "dxinfo",
        args: &["--disasm", "in.dxbc"],
        output: Output::None,
    },
];

#[derive(Default, Clone)]
struct ToolCounts {
    runs: u64,
    exit0: u64,
    exit1: u64,
    failures: Vec<String>,
}

/// What one tool run did.
struct Finished {
    /// Exit code (`None`: killed by a signal or by the timeout).
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    timed_out: bool,
}

/// Runs `cmd` with a timeout, killing it when the time is up.
fn run_with_timeout(cmd: &mut Command, timeout: Duration) -> Result<Finished> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut out_pipe = child.stdout.take().expect("piped");
    let mut err_pipe = child.stderr.take().expect("piped");
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out_pipe, &mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err_pipe, &mut v);
        v
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait()? {
            break st;
        }
        if start.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let out = out_t.join().unwrap_or_default();
    let err = err_t.join().unwrap_or_default();
    Ok(Finished {
        code: status.code(),
        stdout: out,
        stderr: err,
        timed_out,
    })
}

fn check_run(
    run: &ToolRun,
    bin: &Path,
    dir: &Path,
    mutant: &[u8],
    timeout: Duration,
) -> Result<Option<u8>, String> {
    let input = dir.join("in.dxbc");
    let Finished {
        code,
        stdout,
        stderr,
        timed_out,
    } = run_with_timeout(
        Command::new(bin.join(run.tool))
            .args(run.args)
            // `dxinfo --disasm` of DXIL prints dxc's listing (module reader
            // and printer, no LLVM); with `--disasm-with=llvm-dis` it hands
            // the fixed bitcode to llvm-dis, for which `true` stands in.
            .env("LLVM_DIS", "true")
            .current_dir(dir),
        timeout,
    )
    .map_err(|e| format!("cannot run: {e}"))?;
    let stderr = String::from_utf8_lossy(&stderr);
    if timed_out {
        return Err(format!("hang: no exit within {timeout:?}"));
    }
    let code = match code {
        Some(c @ (0 | 1)) => c as u8,
        Some(c) => return Err(format!("exit code {c}: {stderr}")),
        None => return Err(format!("killed by a signal: {stderr}")),
    };
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        return Err(format!("panic message: {stderr}"));
    }
    let leftovers: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    if !leftovers.is_empty() {
        return Err(format!("temp files left behind: {leftovers:?}"));
    }
    let now = std::fs::read(&input).map_err(|e| format!("input gone: {e}"))?;
    if code == 1 {
        if now != mutant {
            return Err(format!("failed (exit 1) but changed its input: {stderr}"));
        }
        if let Output::File(name) | Output::Dump(name) = run.output {
            if dir.join(name).exists() {
                return Err(format!("failed (exit 1) but wrote {name}"));
            }
        }
        return Ok(Some(1));
    }
    match run.output {
        Output::File(name) => {
            let out = std::fs::read(dir.join(name)).map_err(|e| format!("no {name}: {e}"))?;
            Container::parse(&out).map_err(|e| format!("{name} does not re-parse: {e}"))?;
            if now != mutant {
                return Err("wrote an output file but changed its input".into());
            }
        }
        Output::InPlace => {
            Container::parse(&now).map_err(|e| format!("edited input does not re-parse: {e}"))?;
        }
        Output::Dump(name) => {
            let got = std::fs::read(dir.join(name)).map_err(|e| format!("no {name}: {e}"))?;
            // A PDB input is read through its stream-5 container.
            let want = dxcopy_read::container_input(mutant).ok().and_then(|input| {
                let c = Container::parse(&input.bytes).ok()?;
                dump(
                    &c,
                    &NameMatcher::exact(PartName::DXIL),
                    "DXIL",
                    DumpMode::Bitcode,
                )
                .ok()
                .map(|bytes| bytes.to_vec())
            });
            if want.as_deref() != Some(&got[..]) {
                return Err(format!("{name} is not the DXIL bitcode the library gives"));
            }
            if now != mutant {
                return Err("a dump changed its input".into());
            }
        }
        Output::Json => {
            serde_json::from_slice::<serde_json::Value>(&stdout)
                .map_err(|e| format!("--json printed invalid JSON: {e}"))?;
        }
        Output::None => {}
    }
    Ok(Some(0))
}

/// The binary phase: a sample of each file's mutants through every tool run.
fn binaries(files: &[(String, PathBuf)], o: &Options, bin: &Path) -> Result<Vec<ToolCounts>> {
    let runs: Vec<&ToolRun> = TOOL_RUNS
        .iter()
        .filter(|r| bin.join(r.tool).is_file())
        .collect();
    let scratch = tempfile::Builder::new().prefix("dxcopy-sweep-").tempdir()?;
    // Quick: every 25th file, 4 truncations and 8 changes each.
    let (stride, truncs, changes) = if o.quick { (25, 4, 8) } else { (1, 20, 40) };
    let stride = o.bin_stride.unwrap_or(stride);
    let picked: Vec<&(String, PathBuf)> = files.iter().step_by(stride).collect();
    println!(
        "binaries ({}): every {}file ({} files), up to {truncs} truncations and {changes} changes each, {} tool runs per mutant",
        bin.display(),
        if stride == 1 { "".to_string() } else { format!("{stride}th ") },
        picked.len(),
        runs.len()
    );
    let timeout = Duration::from_secs(10);
    let next = AtomicUsize::new(0);
    let counts = Mutex::new(vec![ToolCounts::default(); runs.len()]);
    std::thread::scope(|s| {
        for w in 0..o.jobs {
            let (next, counts, picked, runs) = (&next, &counts, &picked, &runs);
            let dir = scratch.path().join(format!("w{w}"));
            s.spawn(move || {
                let mut mine = vec![ToolCounts::default(); runs.len()];
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((rel, path)) = picked.get(i) else {
                        break;
                    };
                    let Ok(original) = std::fs::read(path) else {
                        continue;
                    };
                    let seed = o.seed ^ fnv1a(rel);
                    let all = mutants(&original, seed, o.quick);
                    let mut rng = Rng::new(seed ^ 0xb1b1);
                    for m in sample(&all, truncs, changes, &mut rng) {
                        let bytes = m.apply(&original);
                        for (k, run) in runs.iter().enumerate() {
                            let _ = std::fs::remove_dir_all(&dir);
                            let setup = std::fs::create_dir_all(&dir)
                                .and_then(|_| std::fs::write(dir.join("in.dxbc"), &bytes))
                                .and_then(|_| std::fs::write(dir.join("blob.bin"), b"sweep"));
                            let r = match setup {
                                Ok(()) => check_run(run, bin, &dir, &bytes, timeout),
                                Err(e) => Err(format!("setup: {e}")),
                            };
                            let c = &mut mine[k];
                            c.runs += 1;
                            match r {
                                Ok(Some(0)) => c.exit0 += 1,
                                Ok(_) => c.exit1 += 1,
                                Err(problem) => {
                                    let saved = save_failure(rel, &m, &bytes);
                                    c.failures.push(format!(
                                        "{}: {rel} {}: {problem} (mutant saved as {})",
                                        run.label,
                                        m.describe(),
                                        saved.display()
                                    ));
                                }
                            }
                        }
                    }
                }
                let mut t = counts.lock().unwrap();
                for (k, c) in mine.into_iter().enumerate() {
                    t[k].runs += c.runs;
                    t[k].exit0 += c.exit0;
                    t[k].exit1 += c.exit1;
                    t[k].failures.extend(c.failures);
                }
            });
        }
    });
    let counts = counts.into_inner().unwrap();
    let mut labelled = Vec::new();
    for (run, c) in runs.iter().zip(counts) {
        labelled.push(ToolCounts {
            failures: c.failures,
            ..c
        });
        let _ = run;
    }
    Ok(labelled)
}

/// `cargo xtask sweep [--quick] [--seed N] [--only SUBSTRING] [--no-bins | --bins-only] [--bin-stride N] [--jobs N]`.
pub fn run(args: &[String]) -> Result<()> {
    let o = parse_args(args)?;
    // The in-process phase runs the libraries optimised (profile `sweep`:
    // release without LTO, with overflow checks): re-run this task under it.
    if std::env::var_os(INNER).is_none() {
        let status = crate::cargo()
            .env(INNER, "1")
            .current_dir(crate::root())
            .args([
                "run",
                "--quiet",
                "--profile",
                "sweep",
                "-p",
                "xtask",
                "--",
                "sweep",
            ])
            .args(args)
            .status()
            .context("running the sweep under the sweep profile")?;
        if !status.success() {
            bail!("sweep failed");
        }
        return Ok(());
    }
    let corpus = match dxcopy_harness::corpus::corpus_dir() {
        Ok(c) => c,
        Err(why) => {
            if dxcopy_harness::corpus::under_ci() {
                bail!("sweep: the corpus is missing under CI, where it may not be skipped: {why}");
            }
            println!("sweep: skipped: {why}");
            return Ok(());
        }
    };
    let started = Instant::now();
    let mut files = corpus_files(&corpus)?;
    files.extend(shape_files()?);
    if let Some(only) = &o.only {
        files.retain(|(rel, _)| rel.contains(only.as_str()));
    }
    let pdbs = files.iter().filter(|(r, _)| r.starts_with("pdb/")).count();
    println!(
        "sweep: {} mode, seed {:#x}, {} files from {} ({} containers, {pdbs} PDBs), {} threads",
        if o.quick { "quick" } else { "full" },
        o.seed,
        files.len(),
        corpus.display(),
        files.len() - pdbs,
        o.jobs
    );
    let _ = std::fs::remove_dir_all(failure_dir());
    // Quick: the binaries of the sweep profile (optimised, overflow checks on,
    // built in a fraction of the LTO time); full: the release binaries.
    let profile = if o.quick { "sweep" } else { "release" };
    let bin = crate::target_dir().join(profile);
    if o.bins {
        crate::run(crate::cargo().args(["build", "--profile", profile, "-p", "dxcopy", "--bins"]))?;
    }

    let mut failures = Vec::new();
    if o.in_process {
        let t = Instant::now();
        let c = in_process(&files, &o)?;
        let total: u64 = c.mutants.iter().sum();
        println!(
            "in-process: {total} mutants ({}: {}, {}: {}, {}: {}); containers parsed {} (PDBs parsed {}), edit outputs written and verified {}, refused edits/dumps {}, file-writer outputs compared {}; failures {} ({:.1} s)",
            CLASS_NAMES[0],
            c.mutants[0],
            CLASS_NAMES[1],
            c.mutants[1],
            CLASS_NAMES[2],
            c.mutants[2],
            c.parsed,
            c.pdbs_parsed,
            c.written,
            c.edit_errors,
            c.file_writes,
            c.failures.len(),
            t.elapsed().as_secs_f64()
        );
        failures.extend(c.failures);
    }

    if o.bins {
        let t = Instant::now();
        let counts = binaries(&files, &o, &bin)?;
        let present: Vec<&ToolRun> = TOOL_RUNS
            .iter()
            .filter(|r| bin.join(r.tool).is_file())
            .collect();
        let mut by_tool: BTreeMap<&str, u64> = BTreeMap::new();
        for (run, c) in present.iter().zip(&counts) {
            *by_tool.entry(run.tool).or_default() += c.runs;
            println!(
                "binaries: {:<34} {:>6} runs (exit 0: {}, exit 1: {}), failures {}",
                run.label,
                c.runs,
                c.exit0,
                c.exit1,
                c.failures.len()
            );
            failures.extend(c.failures.iter().cloned());
        }
        for missing in TOOL_RUNS.iter().filter(|r| !bin.join(r.tool).is_file()) {
            println!(
                "binaries: {:<34} skipped: no {} binary yet",
                missing.label, missing.tool
            );
        }
        let summary: Vec<String> = by_tool.iter().map(|(t, n)| format!("{t} {n}")).collect();
        println!(
            "binaries: runs per tool: {} ({:.1} s)",
            summary.join(", "),
            t.elapsed().as_secs_f64()
        );
    }
    for f in failures.iter().take(50) {
        println!("FAILURE: {f}");
    }
    println!(
        "sweep: {} failures in {:.1} s",
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    if !failures.is_empty() {
        bail!(
            "{} sweep failures (mutants in target/sweep-failures/)",
            failures.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_are_repeatable_and_complete() {
        let mut original = b"DXBC".to_vec();
        original.extend_from_slice(&[0; 16]);
        original.extend_from_slice(&[1, 0, 0, 0, 44, 0, 0, 0, 1, 0, 0, 0, 36, 0, 0, 0]);
        original.extend_from_slice(b"SFI0\0\0\0\0");
        let a = mutants(&original, 7, false);
        assert_eq!(a, mutants(&original, 7, false));
        assert_ne!(a, mutants(&original, 8, false));
        let truncs = a
            .iter()
            .filter(|m| matches!(m, Mutation::Truncate(_)))
            .count();
        assert_eq!(truncs, original.len());
        assert_eq!(a.len(), original.len() + 200 + 50);
        for m in &a {
            match *m {
                Mutation::Byte { at, value } => assert_ne!(original[at], value),
                Mutation::Field { at, value, field } => {
                    assert!(boundary_values(original.len() as u32).contains(&value));
                    assert!(at + 4 <= original.len(), "{field}");
                }
                Mutation::Truncate(len) => assert!(len < original.len()),
            }
        }
        let quick = mutants(&original, 7, true);
        assert!(quick.len() < a.len());
    }
}
