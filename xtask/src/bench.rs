//! `cargo xtask bench`: the performance targets (docs/bench.md), measured side by
//! side with `cp`, `md5sum` and llvm-objcopy 22 in one run.
//!
//! Inputs are made in a temp dir: dump-priv/copy-large synthetic (ContainerBuilder, random
//! part data), small-calls/strip-many copied from the shared corpus (`../shared` beside the
//! workspace, or `$DXCOPY_SHARED`). Every command runs once to warm the
//! caches; then the commands of a workload take turns, repetition after
//! repetition, so machine noise hits them alike. Times are wall clock around
//! spawn and wait. Peak RSS and heap peak come from one more run under
//! `xtask bench-probe`, which runs the command as its only child:
//! `getrusage(RUSAGE_CHILDREN)` gives the child's peak RSS, and the largest
//! `RssAnon` sampled from `/proc/PID/status` while it runs is the heap peak
//! (pages of a mapped input are page cache, not heap).
//!
//! Not a pass/fail gate: the table says which targets a run met.

mod dxil_listing;
mod dxil_write;
mod listing_colour;
mod projects;
mod python;
mod rebuild;
mod reflect;
mod scan;
mod tree;

use anyhow::{bail, Context, Result};
use dxcopy_edit::{ContainerBuilder, DigestPolicy};
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

const MIB: usize = 1 << 20;
/// The workloads `--only` selects, in the order they run: dump a large PRIV
/// part, copy and strip a large container (unsigned and signed), many
/// one-process calls on a small real container, dxstrip over many small
/// real containers in place, dxstrip -r over a tree of them next to cp -r,
/// the Python package, dxinfo --json, --disasm and --reflect over the corpus, the
/// bitcode layer, the DXIL listing next to llvm-dis, the DXIL writer next to
/// reading alone, the coloured and HTML listings next to the plain one,
/// dxinfo --stats over the
/// corpus next to du -s, C headers next to files, dxinfo --scan of 1 GiB next
/// to cat, dxinfo --rows=csv over the corpus next to --json, `--rebuild-parts`
/// over the corpus's DXIL containers next to a no-op run.
/// (`--compare-profiles` adds the build-profile comparison.)
const WORKLOADS: &[&str] = &[
    "dump-priv",
    "copy-large",
    "small-calls",
    "strip-many",
    "strip-tree",
    "python",
    "info-corpus",
    "disasm",
    "dxasm",
    "bitcode",
    "reflect",
    "dxil-listing",
    "dxil-write",
    "listing-colour",
    "stats",
    "headers",
    "scan",
    "rows",
    "rebuild-parts",
];
const LLVM_OBJCOPY: &str = "/usr/lib/llvm-22/bin/llvm-objcopy";
/// The parts `--strip-debug` removes (from the part table), as llvm-objcopy
/// options for strip-many's loop.
fn debug_part_options() -> Vec<String> {
    dxcopy_read::StripClass::Debug
        .parts()
        .map(|p| format!("--remove-section={p}"))
        .collect()
}

struct Options {
    reps: usize,
    calls: usize,
    files: usize,
    strip_many_reps: usize,
    size_mib: usize,
    llvm: bool,
    callgrind: bool,
    compare_profiles: bool,
    keep: bool,
    /// Workloads to run (see [`WORKLOADS`]); empty = all.
    only: Vec<String>,
    out: PathBuf,
}

impl Options {
    fn wants(&self, workload: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|w| w == workload)
    }

    fn parse(args: &[String]) -> Result<Options> {
        let mut o = Options {
            reps: 5,
            calls: 40,
            files: 2000,
            strip_many_reps: 3,
            size_mib: 200,
            llvm: Path::new(LLVM_OBJCOPY).exists(),
            callgrind: which("valgrind").is_some(),
            compare_profiles: false,
            keep: false,
            only: Vec::new(),
            out: crate::root().join("docs/bench.md"),
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut num = |name: &str| -> Result<usize> {
                it.next()
                    .with_context(|| format!("{name} needs a number"))?
                    .parse()
                    .with_context(|| format!("{name} needs a number"))
            };
            match a.as_str() {
                "--reps" => o.reps = num("--reps")?.max(1),
                "--calls" => o.calls = num("--calls")?.max(1),
                "--files" => o.files = num("--files")?.max(1),
                "--strip-many-reps" => o.strip_many_reps = num("--strip-many-reps")?.max(1),
                "--size-mib" => o.size_mib = num("--size-mib")?.max(2),
                "--no-llvm" => o.llvm = false,
                "--no-callgrind" => o.callgrind = false,
                "--compare-profiles" => o.compare_profiles = true,
                "--keep" => o.keep = true,
                "--only" => {
                    let list = it
                        .next()
                        .context("--only needs a list such as dump-priv,small-calls")?;
                    o.only = list.split(',').map(|w| w.trim().to_lowercase()).collect();
                    if let Some(w) = o.only.iter().find(|w| !WORKLOADS.contains(&w.as_str())) {
                        bail!("unknown workload '{w}' (known: {})", WORKLOADS.join(", "));
                    }
                }
                "--out" => o.out = PathBuf::from(it.next().context("--out needs a path")?),
                "--quick" => {
                    o.reps = 3;
                    o.calls = 10;
                    o.files = 300;
                    o.strip_many_reps = 1;
                    o.size_mib = 50;
                    o.callgrind = false;
                }
                _ => bail!("unknown bench option '{a}' (see `cargo xtask help`)"),
            }
        }
        Ok(o)
    }
}

/// `cargo xtask bench [options]`.
pub fn run(args: &[String]) -> Result<()> {
    let opts = Options::parse(args)?;
    let root = crate::root();
    crate::run(crate::cargo().args(["build", "--release", "-p", "dxcopy", "--bins"]))?;
    let release = target_dir().join("release");
    let tmp = tempfile::Builder::new().prefix("dxcopy-bench-").tempdir()?;
    let dir = tmp.path();
    let shared = dxcopy_harness::corpus::shared_dir();
    let mut report = Report::new(args, &opts);
    let bins = Bins {
        dxcopy: release.join("dxcopy"),
        dxstrip: release.join("dxstrip"),
        llvm: opts.llvm.then(|| PathBuf::from(LLVM_OBJCOPY)),
    };

    eprintln!("bench: inputs in {}", dir.display());
    if opts.wants("dump-priv") {
        dump_priv(&opts, &bins, dir, &mut report)?;
    }
    if opts.wants("copy-large") || opts.compare_profiles {
        copy_large(&opts, &bins, dir, &mut report)?;
    }
    let corpus = shared.join("corpus");
    let have_corpus = corpus.join("MANIFEST.tsv").exists();
    if !have_corpus {
        report.note(format!(
            "small-calls/strip-many/info-corpus skipped: no corpus at {} (set DXCOPY_SHARED)",
            corpus.display()
        ));
    }
    if have_corpus && (opts.wants("small-calls") || opts.compare_profiles) {
        small_calls(&opts, &bins, dir, &corpus, &mut report)?;
    }
    if have_corpus && opts.wants("strip-many") {
        strip_many(&opts, &bins, dir, &corpus, &mut report)?;
    }
    if have_corpus && opts.wants("strip-tree") {
        tree::workload(&opts, &bins, dir, &corpus, &mut report)?;
    }
    if have_corpus && opts.wants("python") {
        python::workload(&opts, &bins, dir, &corpus, &mut report)?;
    }
    let dxinfo = release.join("dxinfo");
    if opts.wants("info-corpus") {
        if dxinfo.exists() && have_corpus {
            info_corpus(&opts, &dxinfo, &corpus, &mut report)?;
        } else {
            report.target(
                "info-corpus",
                "`dxinfo --json` over every corpus container",
                "pending",
                "≤ 1 s",
                None,
            );
            report.note("info-corpus pending: no dxinfo binary in this build".into());
        }
    }
    if opts.wants("disasm") && dxinfo.exists() && have_corpus {
        disasm(&opts, &dxinfo, &corpus, &mut report)?;
    }
    let dxasm = release.join("dxasm");
    if opts.wants("dxasm") && dxasm.exists() && have_corpus {
        dxasm_check(&opts, &dxasm, &corpus, &mut report)?;
    }
    if opts.wants("bitcode") && have_corpus {
        bitcode(&opts, &bins, &dxinfo, dir, &corpus, &mut report)?;
    }
    if opts.wants("reflect") && dxinfo.exists() && have_corpus {
        reflect::workload(&opts, &dxinfo, &corpus, &mut report)?;
    }
    if opts.wants("dxil-listing") && dxinfo.exists() && have_corpus {
        dxil_listing::workload(&opts, &bins, &dxinfo, dir, &corpus, &mut report)?;
    }
    if opts.wants("dxil-write") && have_corpus {
        dxil_write::workload(&opts, &corpus, &mut report)?;
    }
    if opts.wants("listing-colour") && dxinfo.exists() && have_corpus {
        listing_colour::workload(&opts, &dxinfo, &corpus, &mut report)?;
    }
    if opts.wants("stats") && dxinfo.exists() && have_corpus {
        projects::stats(&opts, &dxinfo, &corpus, &mut report)?;
    }
    if opts.wants("headers") && dxinfo.exists() && have_corpus {
        projects::headers(&opts, &dxinfo, dir, &corpus, &mut report)?;
    }
    if opts.wants("scan") && dxinfo.exists() {
        scan::scan(
            &opts,
            &dxinfo,
            have_corpus.then_some(corpus.as_path()),
            &mut report,
        )?;
    }
    if opts.wants("rows") && dxinfo.exists() && have_corpus {
        scan::rows(&opts, &dxinfo, &corpus, &mut report)?;
    }
    if have_corpus && opts.wants("rebuild-parts") {
        rebuild::workload(&opts, &bins, dir, &corpus, &mut report)?;
    }
    if opts.compare_profiles {
        profiles(&opts, &bins, dir, &mut report)?;
    }
    let text = report.render();
    if let Some(parent) = opts.out.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::write(&opts.out, &text).with_context(|| format!("writing {}", opts.out.display()))?;
    println!("{text}");
    eprintln!(
        "bench: wrote {}",
        opts.out.strip_prefix(&root).unwrap_or(&opts.out).display()
    );
    if opts.keep {
        eprintln!("bench: inputs kept in {}", tmp.keep().display());
    }
    Ok(())
}

struct Bins {
    dxcopy: PathBuf,
    dxstrip: PathBuf,
    llvm: Option<PathBuf>,
}

use crate::target_dir;

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

// ---------------------------------------------------------------- measuring

/// One command line.
#[derive(Clone)]
struct Cmd(Vec<OsString>);

impl Cmd {
    fn new<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Cmd {
        Cmd(args.into_iter().map(|a| a.as_ref().to_owned()).collect())
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.0[0]);
        c.args(&self.0[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        c
    }

    /// Runs once; returns the wall time (an error on failure unless `allow_fail`).
    fn time(&self, allow_fail: bool) -> Result<Duration> {
        let mut c = self.command();
        c.stderr(Stdio::piped());
        let start = Instant::now();
        let out = c
            .output()
            .with_context(|| format!("running {}", self.shown()))?;
        let elapsed = start.elapsed();
        if !out.status.success() && !allow_fail {
            bail!(
                "{} failed ({}): {}",
                self.shown(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(elapsed)
    }

    fn shown(&self) -> String {
        self.0
            .iter()
            .map(|a| {
                let p = Path::new(a);
                // Temp paths and binaries by file name, for a readable table.
                if p.is_absolute() {
                    p.file_name().unwrap_or(a).to_string_lossy().into_owned()
                } else {
                    a.to_string_lossy().into_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Memory figures of one run.
#[derive(Clone, Copy, Default)]
struct Memory {
    peak_rss_kib: u64,
    heap_peak_kib: u64,
    samples: u64,
    /// User + system CPU time of the probed run, in microseconds.
    cpu_us: u64,
}

/// Runs `cmd` under `xtask bench-probe`.
fn probe(cmd: &Cmd) -> Result<Memory> {
    let exe = std::env::current_exe()?;
    let out = Command::new(exe)
        .arg("bench-probe")
        .args(&cmd.0)
        .stderr(Stdio::inherit())
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<u64> = text
        .split_whitespace()
        .map(|w| w.parse().unwrap_or(0))
        .collect();
    if !out.status.success() || f.len() != 5 {
        bail!("probing {} failed: {text}", cmd.shown());
    }
    Ok(Memory {
        peak_rss_kib: f[1],
        heap_peak_kib: f[2],
        samples: f[3],
        cpu_us: f[4],
    })
}

/// `xtask bench-probe CMD...`: runs CMD as this process's only child and
/// prints `ok peak_rss_kib heap_peak_kib samples cpu_us`.
pub fn probe_main(args: &[String]) -> Result<()> {
    let Some((prog, rest)) = args.split_first() else {
        bail!("bench-probe needs a command");
    };
    let mut child = Command::new(prog)
        .args(rest)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {prog}"))?;
    let status_file = format!("/proc/{}/status", child.id());
    let (mut anon, mut samples) = (0u64, 0u64);
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if let Some(kib) = fs::read_to_string(&status_file)
            .ok()
            .and_then(|t| status_kib(&t, "RssAnon:"))
        {
            anon = anon.max(kib);
            samples += 1;
        }
        std::thread::sleep(Duration::from_micros(100));
    };
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)?;
    let micros = |t: nix::sys::time::TimeVal| t.tv_sec() as u64 * 1_000_000 + t.tv_usec() as u64;
    println!(
        "{} {} {anon} {samples} {}",
        u8::from(status.success()),
        usage.max_rss(),
        micros(usage.user_time()) + micros(usage.system_time())
    );
    Ok(())
}

fn status_kib(status: &str, field: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].split_whitespace().next()?.parse().ok()
}

/// One contender of a workload.
struct Contender<'a> {
    label: String,
    cmd: Cmd,
    /// Runs before every timed run (remove the output, restore inputs); not timed.
    before: Box<dyn Fn() -> Result<()> + 'a>,
    probe: bool,
    allow_fail: bool,
}

impl<'a> Contender<'a> {
    fn new(label: &str, cmd: Cmd, before: impl Fn() -> Result<()> + 'a) -> Self {
        Contender {
            label: label.to_string(),
            cmd,
            before: Box::new(before),
            probe: true,
            allow_fail: false,
        }
    }

    fn no_probe(mut self) -> Self {
        self.probe = false;
        self
    }
}

/// Times of one contender, and its memory when probed.
#[derive(Clone)]
struct Measured {
    label: String,
    command: String,
    /// Shown after the command.
    note: Option<String>,
    times: Vec<Duration>,
    memory: Option<Memory>,
}

impl Measured {
    fn median(&self) -> Duration {
        let mut t = self.times.clone();
        t.sort();
        let n = t.len();
        if n % 2 == 1 {
            t[n / 2]
        } else {
            (t[n / 2 - 1] + t[n / 2]) / 2
        }
    }
    fn min(&self) -> Duration {
        self.times.iter().copied().min().unwrap_or_default()
    }
    fn max(&self) -> Duration {
        self.times.iter().copied().max().unwrap_or_default()
    }
}

/// A warm-up run each, then `rounds` rounds in which every contender runs
/// once, then one probed run each. Each round starts one contender further
/// on, so none always runs right after the same other one (a big process
/// slows the start of the next).
fn measure(contenders: &[Contender<'_>], rounds: usize) -> Result<Vec<Measured>> {
    for c in contenders {
        (c.before)()?;
        c.cmd.time(c.allow_fail)?;
    }
    let n = contenders.len();
    let mut times = vec![Vec::with_capacity(rounds); n];
    for round in 0..rounds {
        for k in 0..n {
            let i = (round + k) % n;
            let c = &contenders[i];
            (c.before)()?;
            times[i].push(c.cmd.time(c.allow_fail)?);
        }
    }
    let mut out = Vec::new();
    for (c, times) in contenders.iter().zip(times) {
        let memory = if c.probe {
            (c.before)()?;
            Some(probe(&c.cmd)?)
        } else {
            None
        };
        out.push(Measured {
            label: c.label.clone(),
            command: c.cmd.shown(),
            note: None,
            times,
            memory,
        });
    }
    Ok(out)
}

fn remove(path: &Path) -> Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
        _ => Ok(()),
    }
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

// ---------------------------------------------------------------- inputs

/// Deterministic incompressible bytes (xorshift64*).
fn random_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut v = Vec::with_capacity(len + 8);
    while v.len() < len {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        v.extend_from_slice(&x.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    v.truncate(len);
    v
}

/// dump-priv's input: SFI0, HASH and a PRIV of `priv_size` random bytes (no DXIL),
/// retail-signed.
fn gen_big_priv(path: &Path, priv_size: usize) -> Result<()> {
    let bytes = ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .part(b"HASH", &[0; 20])
        .part(b"PRIV", &random_bytes(priv_size, 1))
        .digest(DigestPolicy::Retail)
        .build()?;
    fs::write(path, bytes)?;
    Ok(())
}

/// copy-large's input: SFI0, HASH, a small DXIL, an ILDB of `half` bytes and a PRIV
/// of `half` bytes, signed by `policy`.
fn gen_debug_container(path: &Path, half: usize, policy: DigestPolicy) -> Result<()> {
    let mut debug_bitcode = b"BC\xc0\xde".to_vec();
    debug_bitcode.extend(random_bytes(half - 24 - 4, 2));
    let bytes = ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .hash_of_dxil()
        .pixel_program(b"DXIL", b"BC\xc0\xde\x35\x14\0\0\x05\0\0\0")
        .pixel_program(b"ILDB", &debug_bitcode)
        .part(b"PRIV", &random_bytes(half, 3))
        .digest(policy)
        .build()?;
    fs::write(path, bytes)?;
    Ok(())
}

/// Corpus rows `(path, size, kind, parts)` from MANIFEST.tsv.
fn manifest(corpus: &Path) -> Result<Vec<(PathBuf, u64, String, String)>> {
    let text = fs::read_to_string(corpus.join("MANIFEST.tsv"))?;
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((
                corpus.join(f.first()?),
                f.get(1)?.parse().ok()?,
                f.get(2)?.to_string(),
                f.get(4)?.to_string(),
            ))
        })
        .collect())
}

// ---------------------------------------------------------------- workloads

fn dump_priv(opts: &Options, bins: &Bins, dir: &Path, report: &mut Report) -> Result<()> {
    let size = opts.size_mib * MIB;
    let input = dir.join("big.dxbc");
    gen_big_priv(&input, size)?;
    let out = dir.join("out.bin");
    let same_size = dir.join("priv-sized.bin");
    fs::write(&same_size, random_bytes(size, 4))?;
    let fresh = || remove(&out);
    let mut cs = vec![
        Contender::new("cp", Cmd::new([&same_size, &out]).with("cp"), fresh),
        Contender::new(
            "dxcopy",
            Cmd::new([
                bins.dxcopy.as_os_str(),
                OsStr::new(&format!("--dump-section=PRIV={}", out.display())),
                input.as_os_str(),
            ]),
            fresh,
        ),
    ];
    if let Some(llvm) = &bins.llvm {
        cs.push(Contender::new(
            "llvm-objcopy",
            Cmd::new([
                llvm.as_os_str(),
                OsStr::new(&format!("--dump-section=PRIV={}", out.display())),
                input.as_os_str(),
                OsStr::new("/dev/null"),
            ]),
            fresh,
        ));
    }
    let before = fs::metadata(&input)?.modified()?;
    let m = measure(&cs, opts.reps)?;
    if fs::metadata(&input)?.modified()? != before {
        bail!("dump-priv: the input was rewritten");
    }
    let title = format!(
        "dump-priv dump a {} MiB PRIV (input not rewritten; llvm-objcopy writes its output to /dev/null)",
        opts.size_mib
    );
    report.workload(&title, &m);
    let dx = &m[1];
    report.target(
        "dump-priv",
        "dump ÷ cp of a file that size",
        &times(ratio(dx.median(), m[0].median())),
        "≤ 1.1×",
        Some(ratio(dx.median(), m[0].median()) <= 1.1),
    );
    report.heap_target("dump-priv", dx);
    Ok(())
}

fn copy_large(opts: &Options, bins: &Bins, dir: &Path, report: &mut Report) -> Result<()> {
    let half = opts.size_mib / 2 * MIB;
    let out = dir.join("out.dxbc");
    let fresh = || remove(&out);
    let dxcopy = |extra: &[&str], input: &Path| {
        let mut v: Vec<OsString> = vec![bins.dxcopy.clone().into()];
        v.extend(extra.iter().map(OsString::from));
        v.push(input.into());
        v.push(out.clone().into());
        Cmd(v)
    };
    for signed in [false, true] {
        let policy = if signed {
            DigestPolicy::Retail
        } else {
            DigestPolicy::Zero
        };
        let input = dir.join(if signed {
            "signed.dxbc"
        } else {
            "unsigned.dxbc"
        });
        gen_debug_container(&input, half, policy)?;
        // The stripped output, as the cp/md5sum reference of its size.
        let stripped = dir.join(if signed {
            "signed-stripped.dxbc"
        } else {
            "unsigned-stripped.dxbc"
        });
        dxcopy(&["--strip-debug"], &input).time(false)?;
        fs::rename(&out, &stripped)?;
        let mut cs = vec![
            Contender::new(
                "cp (no-op size)",
                Cmd::new([&input, &out]).with("cp"),
                fresh,
            ),
            Contender::new("dxcopy no-op", dxcopy(&[], &input), fresh),
            Contender::new(
                "cp (stripped size)",
                Cmd::new([&stripped, &out]).with("cp"),
                fresh,
            ),
            Contender::new(
                "dxcopy --strip-debug",
                dxcopy(&["--strip-debug"], &input),
                fresh,
            ),
        ];
        if signed {
            cs.insert(
                1,
                Contender::new(
                    "md5sum (no-op size)",
                    Cmd::new([&input]).with("md5sum"),
                    fresh,
                ),
            );
            cs.insert(
                4,
                Contender::new(
                    "md5sum (stripped size)",
                    Cmd::new([&stripped]).with("md5sum"),
                    fresh,
                ),
            );
            cs.push(Contender::new(
                "dxcopy --strip-debug --digest=retail",
                dxcopy(&["--strip-debug", "--digest=retail"], &input),
                fresh,
            ));
        } else if let Some(llvm) = &bins.llvm {
            let l = |extra: &[&str]| {
                let mut v: Vec<OsString> = vec![llvm.clone().into()];
                v.extend(extra.iter().map(OsString::from));
                v.push(input.clone().into());
                v.push(out.clone().into());
                Cmd(v)
            };
            cs.push(Contender::new("llvm-objcopy no-op", l(&[]), fresh));
            cs.push(Contender::new(
                "llvm-objcopy -R ILDB",
                l(&["--remove-section=ILDB"]),
                fresh,
            ));
        }
        let m = measure(&cs, opts.reps)?;
        let by = |label: &str| {
            m.iter()
                .find(|x| x.label == label)
                .expect("contender exists")
        };
        let (tag, what) = if signed {
            ("copy-large-signed", "signed (retail), re-signed")
        } else {
            ("copy-large-unsigned", "unsigned")
        };
        report.workload(
            &format!(
                "{tag} {} MiB container (ILDB {} MiB + PRIV {} MiB), {what}",
                opts.size_mib,
                half / MIB,
                half / MIB
            ),
            &m,
        );
        for (label, cp, md5) in [
            ("dxcopy no-op", "cp (no-op size)", "md5sum (no-op size)"),
            (
                "dxcopy --strip-debug",
                "cp (stripped size)",
                "md5sum (stripped size)",
            ),
        ] {
            let dx = by(label);
            let (base, goal) = if signed {
                (by(cp).median() + by(md5).median(), "≤ 1.1× (cp + md5sum)")
            } else {
                (by(cp).median(), "≤ 1.1× cp")
            };
            let r = ratio(dx.median(), base);
            if signed && label == "dxcopy --strip-debug" && r > 1.1 {
                report.note(
                    "copy-large-signed `--strip-debug`: `--digest=auto` re-signs only an input whose digest \
                     verifies, and telling retail, debug and invalid apart takes an MD5 pass over \
                     the whole input (twice the output here), run beside the copy and the output's \
                     own hash. A no-op copy reuses that pass as the output's digest; a stripped \
                     output cannot. The `--digest=retail` row is the same work without the check."
                        .into(),
                );
            }
            report.target(
                tag,
                &format!(
                    "`{label}` ÷ {} of the output",
                    goal.trim_start_matches("≤ 1.1× ")
                ),
                &times(r),
                goal,
                Some(r <= 1.1),
            );
            report.heap_target(tag, dx);
        }
        if signed {
            let dx = by("dxcopy --strip-debug --digest=retail");
            let base = by("cp (stripped size)").median() + by("md5sum (stripped size)").median();
            report.target(
                "copy-large-signed",
                "(extra) `--strip-debug --digest=retail`, no input check ÷ (cp + md5sum)",
                &times(ratio(dx.median(), base)),
                "info",
                None,
            );
        }
    }
    Ok(())
}

impl Cmd {
    /// This command line with `program` put in front.
    fn with(mut self, program: &str) -> Cmd {
        self.0.insert(0, program.into());
        self
    }
}

/// A small real container with a STAT part that llvm-objcopy can also read.
fn pick_small(corpus: &Path, dir: &Path, llvm: Option<&Path>) -> Result<PathBuf> {
    let rows = manifest(corpus)?;
    let candidates = rows
        .iter()
        .filter(|(_, size, kind, parts)| {
            kind == "dxil" && *size <= 16 << 10 && parts.split(',').any(|p| p == "STAT")
        })
        .chain(
            rows.iter()
                .filter(|(_, _, kind, parts)| kind == "dxbc" && parts.contains("STAT")),
        );
    let probe_out = dir.join("probe.dxbc");
    for (path, ..) in candidates {
        let ok = match llvm {
            None => true,
            Some(l) => Cmd::new([l.as_os_str(), OsStr::new("-R"), OsStr::new("STAT")])
                .with_args([path.as_os_str(), probe_out.as_os_str()])
                .time(false)
                .is_ok(),
        };
        if ok {
            return Ok(path.clone());
        }
    }
    bail!("no small corpus container with a STAT part")
}

impl Cmd {
    fn with_args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Cmd {
        self.0
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }
}

fn small_calls(
    opts: &Options,
    bins: &Bins,
    dir: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let source = pick_small(corpus, dir, bins.llvm.as_deref())?;
    let input = dir.join("small.dxil");
    fs::copy(&source, &input)?;
    let out = dir.join("small-out.dxil");
    let fresh = || remove(&out);
    let mut cs = vec![
        Contender::new("true (fork+exec floor)", Cmd::new(["true"]), fresh).no_probe(),
        Contender::new("cp", Cmd::new([&input, &out]).with("cp"), fresh),
        Contender::new(
            "dxcopy -R STAT",
            Cmd::new([
                bins.dxcopy.as_os_str(),
                OsStr::new("-R"),
                OsStr::new("STAT"),
            ])
            .with_args([&input, &out]),
            fresh,
        ),
    ];
    if let Some(llvm) = &bins.llvm {
        cs.push(Contender::new(
            "llvm-objcopy -R STAT",
            Cmd::new([llvm.as_os_str(), OsStr::new("-R"), OsStr::new("STAT")])
                .with_args([&input, &out]),
            fresh,
        ));
    }
    let m = measure(&cs, opts.reps * opts.calls)?;
    report.workload(
        &format!(
            "small-calls one small real container ({}, {} bytes), one process per call ({} calls each)",
            source.file_name().unwrap_or_default().to_string_lossy(),
            fs::metadata(&input)?.len(),
            opts.reps * opts.calls
        ),
        &m,
    );
    let (cp, dx) = (&m[1], &m[2]);
    let r = ratio(dx.median(), cp.median());
    report.target(
        "small-calls",
        "`dxcopy -R STAT` ÷ cp, per call",
        &times(r),
        "≤ 1.5×",
        Some(r <= 1.5),
    );
    if let Some(l) = m.get(3) {
        let r = ratio(l.median(), dx.median());
        report.target(
            "small-calls",
            "llvm-objcopy ÷ dxcopy, per call",
            &times(r),
            "≥ 8×",
            Some(r >= 8.0),
        );
    }
    if opts.callgrind {
        let mut lines = Vec::new();
        for c in &cs[1..] {
            (c.before)()?;
            if let Some(n) = instructions(&c.cmd)? {
                lines.push(format!("{}: {} instructions", c.label, group_digits(n)));
            }
        }
        report.note(format!(
            "small-calls instruction counts (valgrind --tool=callgrind, whole process): {}",
            lines.join("; ")
        ));
    }
    Ok(())
}

/// Instructions executed by `cmd` under callgrind.
fn instructions(cmd: &Cmd) -> Result<Option<u64>> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .args(&cmd.0)
        .stdout(Stdio::null())
        .output()?;
    let text = String::from_utf8_lossy(&out.stderr);
    Ok(text
        .lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().parse().ok()))
}

fn group_digits(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The corpus containers (DXIL and DXBC) of at most 256 KiB, in manifest
/// order: the files of the strip-many and strip-tree workloads.
fn small_containers(corpus: &Path, workload: &str) -> Result<Vec<PathBuf>> {
    let sources: Vec<PathBuf> = manifest(corpus)?
        .into_iter()
        .filter(|(_, size, kind, _)| (kind == "dxil" || kind == "dxbc") && *size <= 256 << 10)
        .map(|(p, ..)| p)
        .collect();
    if sources.is_empty() {
        bail!("{workload}: no corpus containers");
    }
    Ok(sources)
}

fn strip_many(
    opts: &Options,
    bins: &Bins,
    dir: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let pristine = dir.join("strip-many-pristine");
    let work = dir.join("strip-many");
    fs::create_dir_all(&pristine)?;
    fs::create_dir_all(&work)?;
    let mut sources = small_containers(corpus, "strip-many")?;
    let llvm_cmd = |file: &Path| {
        let l = bins.llvm.as_ref().expect("only called with llvm-objcopy");
        let mut v: Vec<OsString> = vec![l.clone().into()];
        for option in debug_part_options() {
            v.push(option.into());
        }
        v.push(file.into());
        Cmd(v)
    };
    // Keep the containers llvm-objcopy can read, so both tools do the same work.
    let mut dropped = 0;
    if bins.llvm.is_some() {
        let check = dir.join("strip-many-check.dxbc");
        let mut kept = Vec::new();
        for s in sources {
            if kept.len() == opts.files {
                break;
            }
            fs::copy(&s, &check)?;
            set_writable(&check)?;
            if llvm_cmd(&check).time(false).is_ok() {
                kept.push(s);
            } else {
                dropped += 1;
            }
        }
        sources = kept;
    }
    let names: Vec<String> = (0..opts.files)
        .map(|i| {
            let src = &sources[i % sources.len()];
            let ext = src.extension().and_then(OsStr::to_str).unwrap_or("dxbc");
            format!("{i:04}.{ext}")
        })
        .collect();
    let mut bytes_total = 0;
    for (i, name) in names.iter().enumerate() {
        let p = pristine.join(name);
        bytes_total += fs::copy(&sources[i % sources.len()], &p)?;
        set_writable(&p)?;
    }
    let files: Vec<PathBuf> = names.iter().map(|n| work.join(n)).collect();
    let restore = || -> Result<()> {
        for (name, file) in names.iter().zip(&files) {
            fs::copy(pristine.join(name), file)?;
        }
        Ok(())
    };
    let dxstrip = |jobs: Option<&str>| {
        let mut v: Vec<OsString> = vec![bins.dxstrip.clone().into(), "-q".into()];
        if let Some(j) = jobs {
            v.extend(["-j".into(), j.into()]);
        }
        v.extend(files.iter().map(|f| f.clone().into_os_string()));
        Cmd(v)
    };
    let cs = [
        Contender::new("dxstrip (two workers per core)", dxstrip(None), restore),
        Contender::new("dxstrip -j 1", dxstrip(Some("1")), restore),
    ];
    let mut m = measure(&cs, opts.strip_many_reps)?;
    for x in &mut m {
        x.command = x.command.replace(&files_shown(&files), "FILES…");
    }
    if bins.llvm.is_some() {
        let mut times = Vec::new();
        for _ in 0..opts.strip_many_reps {
            restore()?;
            let start = Instant::now();
            for f in &files {
                llvm_cmd(f).time(false)?;
            }
            times.push(start.elapsed());
        }
        m.push(Measured {
            label: "loop of llvm-objcopy".into(),
            note: None,
            command: format!(
                "for f in FILES…: llvm-objcopy {} $f",
                debug_part_options().join(" ")
            ),
            times,
            memory: None,
        });
    }
    report.workload(
        &format!(
            "strip-many strip {} small real containers in place ({} KiB in all){}",
            files.len(),
            bytes_total / 1024,
            if dropped > 0 {
                format!("; {dropped} corpus containers llvm-objcopy cannot read were left out")
            } else {
                String::new()
            }
        ),
        &m,
    );
    if let Some(l) = m.get(2) {
        let r = ratio(l.median(), m[0].median());
        report.target(
            "strip-many",
            "loop of llvm-objcopy ÷ dxstrip",
            &times(r),
            "≥ 50×",
            Some(r >= 50.0),
        );
    }
    Ok(())
}

fn files_shown(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| {
            f.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn set_writable(path: &Path) -> Result<()> {
    let mut perm = fs::metadata(path)?.permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perm.set_readonly(false);
    fs::set_permissions(path, perm)?;
    Ok(())
}

fn info_corpus(opts: &Options, dxinfo: &Path, corpus: &Path, report: &mut Report) -> Result<()> {
    let mut files = Vec::new();
    collect_containers(corpus, &mut files)?;
    files.sort();
    let cmd = Cmd::new([dxinfo.as_os_str(), OsStr::new("--json")]).with_args(&files);
    let mut c = Contender::new("dxinfo --json", cmd, || Ok(()));
    c.allow_fail = true;
    let mut m = measure(&[c], opts.reps)?;
    m[0].command = format!("dxinfo --json FILES… ({} containers)", files.len());
    report.workload(
        &format!(
            "info-corpus `dxinfo --json` over every container in the corpus ({} files, one process)",
            files.len()
        ),
        &m,
    );
    let secs = m[0].median().as_secs_f64();
    report.target(
        "info-corpus",
        "`dxinfo --json` over the corpus, seconds",
        &format!("{secs:.3} s"),
        "≤ 1 s",
        Some(secs <= 1.0),
    );
    Ok(())
}

/// dxinfo with each of `views` (its options) over every container in the
/// corpus, one process a view (a container a view cannot show makes the
/// exit status 1, which is expected); the rows in `views`' order, and the
/// number of files.
fn corpus_views(
    opts: &Options,
    dxinfo: &Path,
    corpus: &Path,
    views: &[&[&str]],
) -> Result<(Vec<Measured>, usize)> {
    let mut files: Vec<PathBuf> = Vec::new();
    collect_containers(corpus, &mut files)?;
    files.sort();
    let shown = |view: &[&str]| format!("dxinfo {}", view.join(" "));
    let mut contenders = Vec::new();
    for view in views {
        let args = view.iter().map(OsStr::new);
        let cmd = Cmd::new(std::iter::once(dxinfo.as_os_str()).chain(args)).with_args(&files);
        let mut c = Contender::new(&shown(view), cmd, || Ok(()));
        c.allow_fail = true;
        contenders.push(c);
    }
    let mut m = measure(&contenders, opts.reps)?;
    for (row, view) in m.iter_mut().zip(views) {
        row.command = format!("{} FILES… ({} containers)", shown(view), files.len());
    }
    Ok((m, files.len()))
}

/// `dxinfo --disasm` over every corpus container with SM4/SM5 bytecode
/// (SHDR/SHEX), in one process, next to `dxinfo --json` over the same files.
fn disasm(opts: &Options, dxinfo: &Path, corpus: &Path, report: &mut Report) -> Result<()> {
    let mut all = Vec::new();
    collect_containers(corpus, &mut all)?;
    all.sort();
    let files: Vec<PathBuf> = all
        .into_iter()
        .filter(|path| {
            fs::read(path).is_ok_and(|bytes| {
                dxcopy_read::Container::parse(&bytes)
                    .is_ok_and(|c| dxcopy_read::listing::dxbc::shader_part(&c).is_some())
            })
        })
        .collect();
    if files.is_empty() {
        report.note("disasm skipped: no container with SHDR/SHEX in the corpus".into());
        return Ok(());
    }
    let mut contenders = Vec::new();
    for view in ["--disasm", "--json"] {
        let cmd = Cmd::new([dxinfo.as_os_str(), OsStr::new(view)]).with_args(&files);
        let mut c = Contender::new(&format!("dxinfo {view}"), cmd, || Ok(()));
        c.allow_fail = true;
        contenders.push(c);
    }
    let mut m = measure(&contenders, opts.reps)?;
    for (row, view) in m.iter_mut().zip(["--disasm", "--json"]) {
        row.command = format!("dxinfo {view} FILES… ({} DXBC containers)", files.len());
    }
    report.workload(
        &format!(
            "disasm: `dxinfo --disasm` over every DXBC container with SM4/SM5 bytecode ({} files, one process), next to `dxinfo --json`",
            files.len()
        ),
        &m,
    );
    report.target(
        "disasm",
        "`dxinfo --disasm` / `dxinfo --json` over the DXBC containers, median",
        &format!("{:.2}×", ratio(m[0].median(), m[1].median())),
        "reported",
        None,
    );
    Ok(())
}

/// dxasm: `dxasm --check` (disassemble, assemble, compare) over every DXBC
/// container with SM4/SM5 bytecode, in one process. Target: at least 5,000
/// shaders/s on one core (the process is single-threaded).
fn dxasm_check(opts: &Options, dxasm: &Path, corpus: &Path, report: &mut Report) -> Result<()> {
    let mut all = Vec::new();
    collect_containers(corpus, &mut all)?;
    all.sort();
    let mut sizes = Vec::new();
    let files: Vec<PathBuf> = all
        .into_iter()
        .filter(|path| {
            fs::read(path).is_ok_and(|bytes| {
                let keep = dxcopy_read::Container::parse(&bytes)
                    .is_ok_and(|c| dxcopy_read::listing::dxbc::shader_part(&c).is_some());
                if keep {
                    sizes.push(bytes.len());
                }
                keep
            })
        })
        .collect();
    if files.is_empty() {
        report.note("dxasm skipped: no container with SHDR/SHEX in the corpus".into());
        return Ok(());
    }
    sizes.sort_unstable();
    let median_size = sizes[sizes.len() / 2];
    let cmd =
        Cmd::new([dxasm.as_os_str(), OsStr::new("--check"), OsStr::new("-q")]).with_args(&files);
    let contenders = vec![Contender::new("dxasm --check", cmd, || Ok(()))];
    let mut m = measure(&contenders, opts.reps)?;
    m[0].command = format!("dxasm --check -q FILES… ({} DXBC containers)", files.len());
    // Per core: the CPU time (user + system) of the single-threaded
    // process, which a loaded machine does not inflate as it does the wall
    // time; the wall time when the probe gave none.
    let seconds = m[0]
        .memory
        .as_ref()
        .map(|mem| mem.cpu_us as f64 / 1e6)
        .filter(|s| *s > 0.0)
        .unwrap_or_else(|| m[0].median().as_secs_f64());
    let rate = files.len() as f64 / seconds.max(1e-9);
    report.workload(
        &format!(
            "dxasm: `dxasm --check` over every DXBC container with SM4/SM5 bytecode ({} files, median {median_size} bytes, one process, one core)",
            files.len()
        ),
        &m,
    );
    report.target(
        "dxasm",
        "`dxasm --check` shaders per second of CPU time (one core)",
        &format!("{rate:.0}/s"),
        "≥ 5000/s",
        Some(rate >= 5000.0),
    );
    Ok(())
}

/// bitcode: the bitcode layer over the corpus. `--dump-bitcode` (stream walk
/// to the DATALAYOUT record, in-place patch) next to the byte-exact
/// `--dump-section`, one dxcopy process per DXIL container; and dxinfo (text
/// and `--json`) over every container in one process, with module facts
/// (every DXIL/ILDB/STAT bitstream read) and with `--no-module-facts` (the
/// views as they were before the layer). Target: module facts cost at most
/// 1.5× of dxinfo without them.
fn bitcode(
    opts: &Options,
    bins: &Bins,
    dxinfo: &Path,
    dir: &Path,
    corpus: &Path,
    report: &mut Report,
) -> Result<()> {
    let dxil: Vec<PathBuf> = manifest(corpus)?
        .into_iter()
        .filter(|(_, _, kind, parts)| kind == "dxil" && parts.split(',').any(|p| p == "DXIL"))
        .map(|(path, ..)| path)
        // Only DXIL parts holding bitcode (LLVM's test inputs include empty ones).
        .filter(|path| {
            fs::read(path).is_ok_and(|bytes| {
                dxcopy_read::Container::parse(&bytes).is_ok_and(|c| {
                    c.find(dxcopy_read::PartName::DXIL)
                        .and_then(|p| dxcopy_read::Program::parse(&p).ok())
                        .is_some_and(|p| p.has_bitcode_magic())
                })
            })
        })
        .collect();
    let out = dir.join("bitcode.bc");
    let each = |option: &str| {
        let script = format!(
            "for f; do \"$0\" {option}=DXIL={} \"$f\" || exit 1; done",
            out.display()
        );
        Cmd::new([OsStr::new("sh"), OsStr::new("-c"), OsStr::new(&script)]).with_args(
            std::iter::once(bins.dxcopy.as_os_str()).chain(dxil.iter().map(|p| p.as_os_str())),
        )
    };
    let remove_out = || remove(&out);
    let mut contenders = vec![
        Contender::new("dxcopy --dump-section", each("--dump-section"), remove_out).no_probe(),
        Contender::new("dxcopy --dump-bitcode", each("--dump-bitcode"), remove_out).no_probe(),
    ];
    let mut files = Vec::new();
    collect_containers(corpus, &mut files)?;
    files.sort();
    // (label, options): with module facts, then without, for each view.
    let views: [(&str, &[&str]); 4] = [
        ("dxinfo", &[]),
        ("dxinfo --no-module-facts", &["--no-module-facts"]),
        ("dxinfo --json", &["--json"]),
        (
            "dxinfo --json --no-module-facts",
            &["--json", "--no-module-facts"],
        ),
    ];
    if dxinfo.exists() {
        for (label, args) in views {
            let cmd =
                Cmd::new(std::iter::once(dxinfo.as_os_str()).chain(args.iter().map(OsStr::new)))
                    .with_args(&files);
            let mut c = Contender::new(label, cmd, || Ok(()));
            c.allow_fail = true;
            contenders.push(c);
        }
    }
    let mut m = measure(&contenders, opts.reps)?;
    m[0].command = format!(
        "dxcopy --dump-section=DXIL=out.bc FILE, per file ({} DXIL containers)",
        dxil.len()
    );
    m[1].command = format!(
        "dxcopy --dump-bitcode=DXIL=out.bc FILE, per file ({} DXIL containers)",
        dxil.len()
    );
    for (row, (label, _)) in m.iter_mut().skip(2).zip(views) {
        row.command = format!("{label} FILES… ({} containers)", files.len());
    }
    report.workload(
        &format!(
            "bitcode: `--dump-bitcode` next to `--dump-section` over {} DXIL containers; dxinfo with and without module facts over {} containers",
            dxil.len(),
            files.len()
        ),
        &m,
    );
    report.target(
        "bitcode",
        "`--dump-bitcode` / `--dump-section` time",
        &times(ratio(m[1].median(), m[0].median())),
        "reported",
        None,
    );
    if m.len() == 6 {
        for (with, without, view) in [(2, 3, "text"), (4, 5, "--json")] {
            let r = ratio(m[with].median(), m[without].median());
            report.target(
                "bitcode",
                &format!("dxinfo ({view}) over the corpus: with module facts ÷ without"),
                &times(r),
                "≤ 1.5×",
                Some(r <= 1.5),
            );
        }
    }
    Ok(())
}

/// Every file under `dir` that starts with the `DXBC` magic.
fn collect_containers(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_containers(&path, out)?;
        } else {
            let mut magic = [0u8; 4];
            let ok = fs::File::open(&path)
                .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
                .is_ok();
            if ok && &magic == b"DXBC" {
                out.push(path);
            }
        }
    }
    Ok(())
}

/// The release profile (LTO, one codegen unit) against a build without them.
fn profiles(opts: &Options, bins: &Bins, dir: &Path, report: &mut Report) -> Result<()> {
    let alt_dir = target_dir().join("bench-nolto");
    crate::run(
        crate::cargo()
            .args([
                "build",
                "--release",
                "-p",
                "dxcopy",
                "--bins",
                "--target-dir",
            ])
            .arg(&alt_dir)
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"),
    )?;
    let alt = alt_dir.join("release/dxcopy");
    let small = dir.join("small.dxil");
    let signed = dir.join("signed.dxbc");
    let out = dir.join("profile-out.dxbc");
    let fresh = || remove(&out);
    let mut cs = Vec::new();
    for (label, bin) in [("lto, 1 unit", &bins.dxcopy), ("no lto, 16 units", &alt)] {
        if small.exists() {
            cs.push(Contender::new(
                &format!("small-calls call, {label}"),
                Cmd::new([bin.as_os_str(), OsStr::new("-R"), OsStr::new("STAT")])
                    .with_args([&small, &out]),
                fresh,
            ));
        }
    }
    let mut m = measure(&cs, opts.reps * opts.calls)?;
    let mut big = Vec::new();
    for (label, bin) in [("lto, 1 unit", &bins.dxcopy), ("no lto, 16 units", &alt)] {
        big.push(Contender::new(
            &format!("copy-large-signed no-op, {label}"),
            Cmd::new([bin.as_os_str()]).with_args([&signed, &out]),
            fresh,
        ));
    }
    m.extend(measure(&big, opts.reps)?);
    for x in &mut m {
        x.note = Some(x.label.clone());
    }
    if opts.callgrind {
        let mut counts = Vec::new();
        for c in cs.iter().filter(|c| c.label.starts_with("small-calls")) {
            (c.before)()?;
            if let Some(n) = instructions(&c.cmd)? {
                counts.push(format!("{}: {}", c.label, group_digits(n)));
            }
        }
        report.note(format!(
            "Build profile, instructions of one small-calls call (callgrind): {}",
            counts.join("; ")
        ));
    }
    let sizes = [&bins.dxcopy, &alt]
        .iter()
        .map(|b| fs::metadata(b).map(|m| m.len() / 1024))
        .collect::<std::io::Result<Vec<_>>>()?;
    report.workload(
        &format!(
            "Build profile: release (LTO, codegen-units = 1; {} KiB) against LTO off, 16 units ({} KiB)",
            sizes[0], sizes[1]
        ),
        &m,
    );
    Ok(())
}

// ---------------------------------------------------------------- report

struct Report {
    header: String,
    sections: String,
    targets: Vec<String>,
    notes: Vec<String>,
}

impl Report {
    fn new(args: &[String], opts: &Options) -> Report {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cpu = fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|s| s.trim().to_string())
            })
            .unwrap_or_else(|| "unknown CPU".into());
        let kernel = fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|s| s.trim().to_string())
            .unwrap_or_default();
        let llvm = if opts.llvm {
            Command::new(LLVM_OBJCOPY)
                .arg("--version")
                .output()
                .ok()
                .and_then(|o| {
                    String::from_utf8_lossy(&o.stdout)
                        .lines()
                        .find(|l| l.contains("version"))
                        .map(|l| l.trim().to_string())
                })
                .unwrap_or_else(|| "llvm-objcopy".into())
        } else {
            "llvm-objcopy not run".into()
        };
        let mut command = "cargo xtask bench".to_string();
        for a in args {
            command.push(' ');
            command.push_str(a);
        }
        let header = format!(
            "# dxcopy benchmark\n\n\
             - command: `{command}`\n\
             - date: {} UTC\n\
             - machine: {cores} cores ({cpu}), Linux {kernel}; load average at the start: {}\n\
             - reference: {llvm}; cp and md5sum from the system\n\
             - method: warm page cache; one warm-up run each, then the commands of a workload take \
             turns in a rotating order ({} rounds; small-calls {} calls each; strip-many {} rounds); wall time around spawn and wait; \
             CPU (user + system), peak RSS from getrusage(RUSAGE_CHILDREN) of one more run; heap \
             peak = largest RssAnon sampled from /proc every 0.1 ms during that run (a mapped \
             input's pages are page cache, not heap)\n",
            utc_now(),
            load_average(),
            opts.reps,
            opts.reps * opts.calls,
            opts.strip_many_reps
        );
        Report {
            header,
            sections: String::new(),
            targets: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn workload(&mut self, title: &str, rows: &[Measured]) {
        let s = &mut self.sections;
        let _ = writeln!(s, "\n## {title}\n");
        let _ = writeln!(
            s,
            "| command | median | min – max | CPU | peak RSS | heap peak |\n|---|---:|---:|---:|---:|---:|"
        );
        for m in rows {
            let (cpu, rss, heap) = match m.memory {
                Some(mem) => (
                    ms(Duration::from_micros(mem.cpu_us)),
                    format!("{:.1} MiB", mem.peak_rss_kib as f64 / 1024.0),
                    if mem.samples == 0 {
                        "(too short to sample)".to_string()
                    } else {
                        format!("{:.1} MiB", mem.heap_peak_kib as f64 / 1024.0)
                    },
                ),
                None => ("–".into(), "–".into(), "–".into()),
            };
            let note = m.note.as_ref().map_or(String::new(), |n| format!(" ({n})"));
            let _ = writeln!(
                s,
                "| `{}`{note} | {} | {} – {} | {cpu} | {rss} | {heap} |",
                m.command,
                ms(m.median()),
                ms(m.min()),
                ms(m.max())
            );
        }
    }

    fn target(&mut self, tag: &str, what: &str, value: &str, goal: &str, met: Option<bool>) {
        let met = match met {
            Some(true) => "met",
            Some(false) => "**missed**",
            None => "–",
        };
        self.targets
            .push(format!("| {tag} | {what} | {value} | {goal} | {met} |"));
    }

    fn heap_target(&mut self, tag: &str, m: &Measured) {
        if let Some(mem) = m.memory {
            let mib = mem.heap_peak_kib as f64 / 1024.0;
            self.targets.push(format!(
                "| {tag} | heap peak of `{}` | {mib:.1} MiB | ≤ 16 MiB | {} |",
                m.label,
                if mib <= 16.0 { "met" } else { "**missed**" }
            ));
        }
    }

    fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    fn render(&self) -> String {
        let mut s = self.header.clone();
        let _ = writeln!(s, "- load average at the end: {}", load_average());
        s.push_str("\n## Targets\n\n| | target | measured | goal | |\n|---|---|---:|---|---|\n");
        for t in &self.targets {
            s.push_str(t);
            s.push('\n');
        }
        s.push_str(&self.sections);
        if !self.notes.is_empty() {
            s.push_str("\n## Notes\n\n");
            for n in &self.notes {
                let _ = writeln!(s, "- {n}");
            }
        }
        s
    }
}

/// The 1-, 5- and 15-minute load averages (other work on the machine).
fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn times(r: f64) -> String {
    format!("{r:.2}×")
}

fn ms(d: Duration) -> String {
    let v = d.as_secs_f64() * 1000.0;
    if v >= 100.0 {
        format!("{v:.0} ms")
    } else if v >= 10.0 {
        format!("{v:.1} ms")
    } else {
        format!("{v:.2} ms")
    }
}

/// `YYYY-MM-DD HH:MM` in UTC.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_fields_and_digits() {
        let status = "Name:\tdxcopy\nRssAnon:\t    1234 kB\nRssFile:\t 99 kB\n";
        assert_eq!(status_kib(status, "RssAnon:"), Some(1234));
        assert_eq!(status_kib(status, "VmHWM:"), None);
        assert_eq!(group_digits(1_234_567), "1,234,567");
        assert_eq!(group_digits(12), "12");
    }

    #[test]
    fn random_bytes_are_deterministic() {
        assert_eq!(random_bytes(13, 5), random_bytes(13, 5));
        assert_ne!(random_bytes(64, 5), random_bytes(64, 6));
        assert_eq!(random_bytes(13, 5).len(), 13);
    }
}
