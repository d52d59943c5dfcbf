//! Finding an installed `llvm-dis` that reads dxc's bitcode once its data
//! layout is fixed (LLVM 17 or later), and running it on `--dump-bitcode`
//! output. Search order: `$LLVM_DIS`, `llvm-dis` on `PATH`, `llvm-dis-NN`
//! on `PATH` (newest first), `/usr/lib/llvm-NN/bin/llvm-dis` (newest first).

use dxcopy_read::ReadError;
use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The oldest LLVM whose `llvm-dis` is used (earlier ones accept `i8:32`
/// but lack other fixes; 17 is the first that rejects it, so the first the
/// layout fix is needed for).
pub const MIN_LLVM_MAJOR: u32 = 17;
/// The newest versioned names probed (`llvm-dis-NN`, `/usr/lib/llvm-NN`).
pub const MAX_LLVM_MAJOR: u32 = 40;

/// How long llvm-dis may run before it is stopped: far longer than the
/// largest shader takes, short enough that a hung tool does not hang dxinfo.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The environment variable that changes [`DEFAULT_TIMEOUT`]: seconds
/// (`0` for no limit); read by dxinfo and given to [`timeout_from`].
pub const TIMEOUT_ENV: &str = "LLVM_DIS_TIMEOUT";

/// The most bytes of llvm-dis's stderr quoted in an error (the rest is read
/// and dropped).
pub const STDERR_KEPT: usize = 4096;

/// Why no disassembly was produced.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DisasmError {
    /// No usable llvm-dis was found.
    #[error("no llvm-dis {MIN_LLVM_MAJOR} or later found ($LLVM_DIS, llvm-dis or llvm-dis-NN on PATH, /usr/lib/llvm-NN/bin); install LLVM 17+ (e.g. `apt-get install llvm-22`) or set LLVM_DIS to its llvm-dis")]
    NotFound,
    /// llvm-dis could not be started, or its pipes failed.
    #[error("{tool}: {message}")]
    Failed {
        /// The tool run.
        tool: PathBuf,
        /// What went wrong (the I/O error).
        message: String,
    },
    /// llvm-dis ran and failed: a non-zero exit status or a signal.
    #[error("{}", exited_message(tool, status, stderr))]
    Exited {
        /// The tool run.
        tool: PathBuf,
        /// How it ended, as the system says it (`exit status: 3`, `signal: 9 (SIGKILL)`).
        status: String,
        /// The start of what it wrote on stderr (at most [`STDERR_KEPT`]
        /// bytes, `…` marking a cut), trimmed; empty when it wrote nothing.
        stderr: String,
    },
    /// llvm-dis did not finish in time and was killed.
    #[error("{}: did not finish within {} and was stopped (set {TIMEOUT_ENV}=SECONDS to allow longer, 0 for no limit)", tool.display(), seconds(*timeout))]
    TimedOut {
        /// The tool run.
        tool: PathBuf,
        /// The limit it ran into.
        timeout: Duration,
    },
    /// The value of [`TIMEOUT_ENV`] is not a number of seconds.
    #[error("{TIMEOUT_ENV}: '{0}' is not a number of seconds (0 for no limit)")]
    BadTimeout(String),
    /// The listing could not be written where it was going
    /// ([`disassemble_to`]); llvm-dis was stopped.
    #[error("writing the listing: {0}")]
    Output(#[source] std::io::Error),
}

fn exited_message(tool: &Path, status: &str, stderr: &str) -> String {
    if stderr.is_empty() {
        format!(
            "{}: failed ({status}) and wrote nothing on stderr",
            tool.display()
        )
    } else {
        format!("{}: failed ({status}): {stderr}", tool.display())
    }
}

fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} s", d.as_secs_f64())
    }
}

/// The time limit of an llvm-dis run from the value of [`TIMEOUT_ENV`]:
/// [`DEFAULT_TIMEOUT`] when unset or empty, `None` (no limit) for `0`.
pub fn timeout_from(value: Option<&OsStr>) -> Result<Option<Duration>, DisasmError> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(Some(DEFAULT_TIMEOUT));
    };
    let text = value.to_string_lossy();
    let secs: f64 = text
        .trim()
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| DisasmError::BadTimeout(text.to_string()))?;
    if secs == 0.0 {
        return Ok(None);
    }
    Duration::try_from_secs_f64(secs)
        .map(Some)
        .map_err(|_| DisasmError::BadTimeout(text.to_string()))
}

/// The major version `tool --version` reports ("LLVM version 22.1.0"), if it runs.
pub fn llvm_major(tool: &Path) -> Option<u32> {
    let out = Command::new(tool).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let rest = text.split("LLVM version ").nth(1)?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// The `llvm-dis` to use, searched as the module documentation says:
/// `env_override` is `$LLVM_DIS` (used as given), `path` is `$PATH`.
/// Candidates older than LLVM 17 are passed over.
pub fn find_llvm_dis(env_override: Option<OsString>, path: Option<OsString>) -> Option<PathBuf> {
    find_llvm_dis_with(env_override, path, llvm_major)
}

/// [`find_llvm_dis`] with the version probe given (`llvm_major` runs the tool).
pub fn find_llvm_dis_with(
    env_override: Option<OsString>,
    path: Option<OsString>,
    version_of: impl Fn(&Path) -> Option<u32>,
) -> Option<PathBuf> {
    if let Some(tool) = env_override.filter(|t| !t.is_empty()) {
        return Some(PathBuf::from(tool));
    }
    let dirs: Vec<PathBuf> = path
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    let usable = |tool: &Path| {
        tool.is_file() && version_of(tool).is_some_and(|major| major >= MIN_LLVM_MAJOR)
    };
    if let Some(tool) = dirs.iter().map(|d| d.join("llvm-dis")).find(|t| usable(t)) {
        return Some(tool);
    }
    for major in (MIN_LLVM_MAJOR..=MAX_LLVM_MAJOR).rev() {
        let name = format!("llvm-dis-{major}");
        if let Some(tool) = dirs.iter().map(|d| d.join(&name)).find(|t| t.is_file()) {
            return Some(tool);
        }
    }
    (MIN_LLVM_MAJOR..=MAX_LLVM_MAJOR)
        .rev()
        .map(|major| PathBuf::from(format!("/usr/lib/llvm-{major}/bin/llvm-dis")))
        .find(|t| t.is_file())
}

/// Runs `tool` on `bitcode` (already fixed by `--dump-bitcode`'s layout
/// fix), fed on standard input, and returns the IR text (its `ModuleID` is
/// `'<stdin>'`). The run is stopped after [`DEFAULT_TIMEOUT`].
pub fn disassemble(tool: &Path, bitcode: &[u8]) -> Result<String, DisasmError> {
    disassemble_with_timeout(tool, bitcode, Some(DEFAULT_TIMEOUT))
}

/// [`disassemble`] with the time limit given (`None`: no limit). A tool
/// still running at the limit is killed and [`DisasmError::TimedOut`]
/// returned; one that fails is [`DisasmError::Exited`], with its exit status
/// and the start of its stderr.
pub fn disassemble_with_timeout(
    tool: &Path,
    bitcode: &[u8],
    timeout: Option<Duration>,
) -> Result<String, DisasmError> {
    let mut text = Vec::new();
    disassemble_to(tool, bitcode, timeout, &mut text)?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// Size of the pieces llvm-dis's output is passed on in.
const CHUNK: usize = 64 * 1024;

/// [`disassemble_with_timeout`] writing llvm-dis's output to `out` as it
/// comes, so that a long listing is never held in memory. When the tool then
/// fails or times out, what it printed has been written and the error says
/// so; a failed write to `out` stops the tool ([`DisasmError::Output`]).
pub fn disassemble_to(
    tool: &Path,
    bitcode: &[u8],
    timeout: Option<Duration>,
    out: &mut dyn Write,
) -> Result<(), DisasmError> {
    let failed = |message: String| DisasmError::Failed {
        tool: tool.to_path_buf(),
        message,
    };
    let timed_out = |timeout| DisasmError::TimedOut {
        tool: tool.to_path_buf(),
        timeout,
    };
    let deadline = timeout.map(|t| (Instant::now() + t, t));
    let mut child = Command::new(tool)
        .args(["-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    let (Some(mut stdin), Some(mut stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(failed("its standard streams could not be piped".into()));
    };
    // The input is fed and both outputs read by threads of their own, so
    // that a large listing cannot fill a pipe while the input is still being
    // written, and so that a tool whose pipes stay open (a process it started
    // holds them) never blocks this one: at the deadline it is abandoned. The
    // listing comes through a short queue of chunks, written out here.
    let input = bitcode.to_vec();
    let written = in_thread(move || stdin.write_all(&input));
    let (chunks, listing) = mpsc::sync_channel::<std::io::Result<Vec<u8>>>(4);
    std::thread::spawn(move || loop {
        let mut chunk = vec![0u8; CHUNK];
        match stdout.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                chunk.truncate(n);
                if chunks.send(Ok(chunk)).is_err() {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = chunks.send(Err(e));
                break;
            }
        }
    });
    let errors = in_thread(move || read_head(stderr, STDERR_KEPT));
    let stop = |child: &mut std::process::Child| {
        let _ = child.kill();
        let _ = child.wait();
    };
    let mut poll = Duration::from_millis(1);
    let mut status = None;
    // After the tool ends its pipes close, unless a process it started still
    // holds them; that one gets until the deadline (at least a second).
    let mut grace: Option<Instant> = None;
    loop {
        match listing.recv_timeout(poll) {
            Ok(Ok(chunk)) => {
                if let Err(e) = out.write_all(&chunk) {
                    stop(&mut child);
                    return Err(DisasmError::Output(e));
                }
                poll = Duration::from_millis(1);
                continue;
            }
            Ok(Err(e)) => {
                stop(&mut child);
                return Err(failed(e.to_string()));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) if status.is_some() => break,
            // The output has ended before the tool: wait for it here.
            Err(mpsc::RecvTimeoutError::Disconnected) => std::thread::sleep(poll),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if status.is_none() {
            match child.try_wait() {
                Ok(Some(ended)) => {
                    status = Some(ended);
                    let left = deadline.map_or(Duration::from_secs(1), |(d, _)| {
                        d.saturating_duration_since(Instant::now())
                    });
                    grace = Some(Instant::now() + left.max(Duration::from_secs(1)));
                }
                Ok(None) => {}
                Err(e) => return Err(failed(e.to_string())),
            }
        }
        let now = Instant::now();
        if let Some((deadline, limit)) = deadline {
            if status.is_none() && now >= deadline {
                stop(&mut child);
                return Err(timed_out(limit));
            }
        }
        if let (Some(until), Some(limit)) = (grace, deadline.map(|(_, l)| l)) {
            if now >= until {
                return Err(timed_out(limit));
            }
        }
        poll = (poll * 2).min(Duration::from_millis(20));
    }
    let Some(status) = status else {
        return Err(failed("it ended without a status".into()));
    };
    let grace = grace.zip(deadline.map(|(_, l)| l));
    let stderr = receive(&errors, grace, tool)?.map_err(|e| failed(e.to_string()))?;
    if !status.success() {
        let mut text = String::from_utf8_lossy(&stderr.0).trim().to_string();
        if stderr.1 {
            text.push_str(" …");
        }
        return Err(DisasmError::Exited {
            tool: tool.to_path_buf(),
            status: status.to_string(),
            stderr: text,
        });
    }
    // A tool that exits early without reading everything but succeeds is odd;
    // its output is still what it printed.
    if let Ok(Err(e)) = written.try_recv() {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(failed(e.to_string()));
        }
    }
    Ok(())
}

/// The result of a thread of [`disassemble_with_timeout`], waiting at most
/// until `grace` (the instant, and the time limit to report).
fn receive<T>(
    rx: &mpsc::Receiver<T>,
    grace: Option<(Instant, Duration)>,
    tool: &Path,
) -> Result<T, DisasmError> {
    match grace {
        Some((until, timeout)) => rx
            .recv_timeout(until.saturating_duration_since(Instant::now()))
            .map_err(|_| DisasmError::TimedOut {
                tool: tool.to_path_buf(),
                timeout,
            }),
        None => rx.recv().map_err(|_| DisasmError::Failed {
            tool: tool.to_path_buf(),
            message: "its output could not be read".into(),
        }),
    }
}

/// Runs `work` on a thread of its own; its result arrives on the receiver.
fn in_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> mpsc::Receiver<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    rx
}

/// The first `keep` bytes of `reader`, read to its end (the rest dropped),
/// and whether there was more.
fn read_head(mut reader: impl Read, keep: usize) -> std::io::Result<(Vec<u8>, bool)> {
    let mut head = Vec::new();
    (&mut reader).take(keep as u64).read_to_end(&mut head)?;
    let more = std::io::copy(&mut reader, &mut std::io::sink())? > 0;
    Ok((head, more))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_override_wins_and_an_empty_search_finds_nothing_on_path() {
        let found = find_llvm_dis(Some("/opt/x/llvm-dis".into()), None);
        assert_eq!(found, Some(PathBuf::from("/opt/x/llvm-dis")));
        let dir = tempfile::tempdir().unwrap();
        // An empty PATH directory: only /usr/lib/llvm-NN can be found.
        let found = find_llvm_dis(None, Some(dir.path().as_os_str().to_owned()));
        if let Some(tool) = found {
            assert!(tool.starts_with("/usr/lib/"), "{}", tool.display());
        }
    }

    /// The version probe reads the fake tool's text instead of running it.
    fn fake_version(tool: &Path) -> Option<u32> {
        std::fs::read_to_string(tool).ok()?.trim().parse().ok()
    }

    /// A fake llvm-dis: a shell script in `dir`.
    #[cfg(unix)]
    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[cfg(unix)]
    #[test]
    fn the_listing_is_streamed_and_a_failed_write_stops_the_tool() {
        let dir = tempfile::tempdir().unwrap();
        // 4 MiB of output in lines, then success: it all arrives, in order.
        let tool = script(
            dir.path(),
            "long",
            "cat > /dev/null; yes '; a line of the listing' | head -c 4194304",
        );
        let mut out = Vec::new();
        disassemble_to(&tool, b"x", Some(Duration::from_secs(60)), &mut out).unwrap();
        assert_eq!(out.len(), 4 << 20);
        assert!(out.starts_with(b"; a line of the listing\n; a line"));
        // Output, then a failure: the output was written, the error says why.
        let tool = script(
            dir.path(),
            "half",
            "cat > /dev/null; echo 'define void @main() {'; echo 'error: truncated' >&2; exit 2",
        );
        let mut out = Vec::new();
        let e = disassemble_to(&tool, b"x", None, &mut out).unwrap_err();
        assert_eq!(out, b"define void @main() {\n");
        assert!(
            matches!(&e, DisasmError::Exited { status, .. } if status == "exit status: 2"),
            "{e:?}"
        );
        // A destination that refuses the text: the tool is stopped, the
        // write error returned.
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::from_raw_os_error(28))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let tool = script(dir.path(), "endless", "cat > /dev/null; exec yes listing");
        let started = Instant::now();
        let e = disassemble_to(&tool, b"x", Some(Duration::from_secs(60)), &mut Full).unwrap_err();
        assert!(
            matches!(&e, DisasmError::Output(io) if io.raw_os_error() == Some(28)),
            "{e:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[cfg(unix)]
    #[test]
    fn a_failing_llvm_dis_is_reported_with_its_status_and_stderr() {
        let dir = tempfile::tempdir().unwrap();
        let tool = script(
            dir.path(),
            "fails",
            "cat > /dev/null; echo 'error: Invalid bitcode signature' >&2; exit 3",
        );
        let e = disassemble(&tool, b"BC\xc0\xde").unwrap_err();
        assert!(
            matches!(&e, DisasmError::Exited { status, stderr, .. }
                if status == "exit status: 3" && stderr == "error: Invalid bitcode signature"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "{}: failed (exit status: 3): error: Invalid bitcode signature",
                tool.display()
            )
        );
        // Silent failure: the status still says what happened.
        let tool = script(dir.path(), "silent", "exit 7");
        assert_eq!(
            disassemble(&tool, b"x").unwrap_err().to_string(),
            format!(
                "{}: failed (exit status: 7) and wrote nothing on stderr",
                tool.display()
            )
        );
        // A flood on stderr is quoted up to STDERR_KEPT bytes.
        let tool = script(
            dir.path(),
            "floods",
            "i=0; while [ $i -lt 2000 ]; do echo 'error: something went wrong here' >&2; i=$((i+1)); done; exit 1",
        );
        let e = disassemble(&tool, b"x").unwrap_err();
        let DisasmError::Exited { stderr, .. } = &e else {
            panic!("{e:?}")
        };
        assert!(stderr.len() <= STDERR_KEPT + 4, "{}", stderr.len());
        assert!(stderr.ends_with(" …"), "{stderr}");
        // And one that works.
        let tool = script(dir.path(), "works", "cat > /dev/null; echo '; ModuleID'");
        assert_eq!(disassemble(&tool, b"x").unwrap(), "; ModuleID\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_hanging_llvm_dis_is_stopped_at_the_time_limit() {
        let dir = tempfile::tempdir().unwrap();
        // `exec`: the tool itself sleeps; without it, a child of the shell
        // holds the pipes after the shell is killed, and is left behind.
        for body in ["exec sleep 5", "sleep 5"] {
            let tool = script(dir.path(), "hangs", body);
            let start = Instant::now();
            let limit = Duration::from_millis(300);
            let e = disassemble_with_timeout(&tool, b"x", Some(limit)).unwrap_err();
            let took = start.elapsed();
            assert!(
                matches!(&e, DisasmError::TimedOut { timeout, .. } if *timeout == limit),
                "{e:?}"
            );
            assert!(took < Duration::from_secs(10), "{body}: {took:?}");
            assert_eq!(
                e.to_string(),
                format!(
                    "{}: did not finish within 0.3 s and was stopped (set LLVM_DIS_TIMEOUT=SECONDS to allow longer, 0 for no limit)",
                    tool.display()
                )
            );
            std::fs::remove_file(&tool).unwrap();
        }
    }

    #[test]
    fn the_time_limit_comes_from_its_variable() {
        let t = |v: &str| timeout_from(Some(OsStr::new(v)));
        assert_eq!(timeout_from(None).unwrap(), Some(DEFAULT_TIMEOUT));
        assert_eq!(t("").unwrap(), Some(DEFAULT_TIMEOUT));
        assert_eq!(t("5").unwrap(), Some(Duration::from_secs(5)));
        assert_eq!(t("0.25").unwrap(), Some(Duration::from_millis(250)));
        assert_eq!(t("0").unwrap(), None);
        for bad in ["x", "-1", "inf", "NaN", "1e400"] {
            assert_eq!(
                t(bad).unwrap_err().to_string(),
                format!("LLVM_DIS_TIMEOUT: '{bad}' is not a number of seconds (0 for no limit)")
            );
        }
        assert_eq!(
            DisasmError::TimedOut {
                tool: "llvm-dis".into(),
                timeout: DEFAULT_TIMEOUT
            }
            .to_string(),
            "llvm-dis: did not finish within 60 s and was stopped (set LLVM_DIS_TIMEOUT=SECONDS to allow longer, 0 for no limit)"
        );
    }

    #[test]
    fn versioned_names_on_path_are_found_newest_first_and_old_llvm_dis_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["llvm-dis-18", "llvm-dis-21", "llvm-dis-9"] {
            std::fs::write(dir.path().join(name), "0").unwrap();
        }
        std::fs::write(dir.path().join("llvm-dis"), "15").unwrap();
        let path = Some(dir.path().as_os_str().to_owned());
        let found = find_llvm_dis_with(None, path.clone(), fake_version);
        assert_eq!(found, Some(dir.path().join("llvm-dis-21")));
        std::fs::write(dir.path().join("llvm-dis"), "17").unwrap();
        let found = find_llvm_dis_with(None, path, fake_version);
        assert_eq!(found, Some(dir.path().join("llvm-dis")));
    }
}

/// What `dxinfo --disasm` shows for a container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DisasmTarget<'a> {
    /// LLVM bitcode (DXIL or ILDB), layout fixed, for llvm-dis.
    Bitcode {
        /// The part.
        part: dxcopy_read::PartName,
        /// The bitcode as `--dump-bitcode` writes it.
        bitcode: std::borrow::Cow<'a, [u8]>,
    },
    /// DXBC shader code (SHDR / SHEX), for the built-in DXBC disassembler.
    Dxbc {
        /// The part.
        part: dxcopy_read::PartName,
    },
}

/// The part to name when `--disasm` without a part finds nothing to show:
/// ILDB, when the container holds a debug module but no DXIL, SHEX or SHDR
/// (the container in a dxc companion PDB's stream 5).
pub fn disasm_alternative(container: &dxcopy_read::Container<'_>) -> Option<dxcopy_read::PartName> {
    use dxcopy_read::PartName;
    let shown = [PartName::DXIL, PartName(*b"SHEX"), PartName(*b"SHDR")];
    let nothing_shown = shown.iter().all(|n| container.find(*n).is_none());
    (nothing_shown && container.find(PartName::ILDB).is_some()).then_some(PartName::ILDB)
}

/// Picks what `--disasm[=PART]` disassembles: the requested part (DXIL,
/// ILDB, SHDR or SHEX), else ILDB, else DXIL, else SHEX or SHDR.
pub fn disasm_target<'a>(
    container: &dxcopy_read::Container<'a>,
    requested: Option<dxcopy_read::PartName>,
) -> crate::Result<DisasmTarget<'a>> {
    use dxcopy_read::PartName;
    let shex = PartName(*b"SHEX");
    let shdr = PartName(*b"SHDR");
    let name = match requested {
        Some(name) => {
            if ![PartName::DXIL, PartName::ILDB, shex, shdr].contains(&name) {
                return Err(crate::EditError::NotDisassemblable(name));
            }
            name
        }
        // ILDB first, as dxc's `-dumpbin` and dxinfo's own DXIL listing
        // choose: one default whichever disassembler prints it.
        None => [PartName::ILDB, PartName::DXIL, shex, shdr]
            .into_iter()
            .find(|n| container.find(*n).is_some())
            .ok_or_else(|| {
                ReadError::part_not_found("ILDB, DXIL, SHEX or SHDR (nothing to disassemble)")
            })?,
    };
    if name == shex || name == shdr {
        container
            .find(name)
            .ok_or_else(|| ReadError::part_not_found(name.to_string()))?;
        return Ok(DisasmTarget::Dxbc { part: name });
    }
    let matcher = crate::NameMatcher::exact(name);
    let bitcode = crate::dump(
        container,
        &matcher,
        &name.to_string(),
        crate::DumpMode::FixedBitcode,
    )?;
    Ok(DisasmTarget::Bitcode {
        part: name,
        bitcode,
    })
}
