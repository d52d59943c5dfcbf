//! Finding an installed `llvm-dis` that reads dxc's bitcode once its data
//! layout is fixed (LLVM 17 or later), and running it on `--dump-bitcode`
//! output. Search order: `$LLVM_DIS`, `llvm-dis` on `PATH`, `llvm-dis-NN`
//! on `PATH` (newest first), `/usr/lib/llvm-NN/bin/llvm-dis` (newest first).

use dxcopy_read::ReadError;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The oldest LLVM whose `llvm-dis` is used (earlier ones accept `i8:32`
/// but lack other fixes; 17 is the first that rejects it, so the first the
/// layout fix is needed for).
pub const MIN_LLVM_MAJOR: u32 = 17;
/// The newest versioned names probed (`llvm-dis-NN`, `/usr/lib/llvm-NN`).
pub const MAX_LLVM_MAJOR: u32 = 40;

/// Why no disassembly was produced.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DisasmError {
    /// No usable llvm-dis was found.
    #[error("no llvm-dis {MIN_LLVM_MAJOR} or later found ($LLVM_DIS, llvm-dis or llvm-dis-NN on PATH, /usr/lib/llvm-NN/bin); install LLVM 17+ (e.g. `apt-get install llvm-22`) or set LLVM_DIS to its llvm-dis")]
    NotFound,
    /// llvm-dis could not be started or wrote no IR.
    #[error("{tool}: {message}")]
    Failed {
        /// The tool run.
        tool: PathBuf,
        /// What went wrong (its stderr, or the I/O error).
        message: String,
    },
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
/// `'<stdin>'`).
pub fn disassemble(tool: &Path, bitcode: &[u8]) -> Result<String, DisasmError> {
    let failed = |message: String| DisasmError::Failed {
        tool: tool.to_path_buf(),
        message,
    };
    let mut child = Command::new(tool)
        .args(["-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Feed the input from another thread so that a large listing cannot fill
    // the stdout pipe while the input is still being written.
    let output = std::thread::scope(|scope| {
        let writer = scope.spawn(move || stdin.write_all(bitcode));
        let output = child.wait_with_output();
        let written = writer.join().unwrap_or_else(|_| {
            Err(std::io::Error::other(
                "writing the bitcode to llvm-dis failed",
            ))
        });
        (output, written)
    });
    let out = output.0.map_err(|e| failed(e.to_string()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(failed(stderr.trim().to_string()));
    }
    // A tool that exits early without reading everything but succeeds is odd;
    // its output is still what it printed.
    if let Err(e) = output.1 {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(failed(e.to_string()));
        }
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
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

/// Picks what `--disasm[=PART]` disassembles: the requested part (DXIL,
/// ILDB, SHDR or SHEX), else DXIL, else SHEX or SHDR.
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
        None => [PartName::DXIL, shex, shdr]
            .into_iter()
            .find(|n| container.find(*n).is_some())
            .ok_or_else(|| {
                ReadError::part_not_found("DXIL, SHEX or SHDR (nothing to disassemble)")
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
