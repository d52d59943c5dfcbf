//! Data-driven integration cases: every `tests/cases/*.toml` (at the
//! workspace root) describes input files (containers made with the project's
//! builder, or raw bytes), one or more runs of this package's binaries, and
//! what each run must produce. Adding a case needs no Rust. The format is
//! documented in tests/README.md.
//!
//! `cargo test` runs them all; `DXCOPY_CASES=NAME[,NAME…]` runs only the
//! cases whose file names contain one of the NAMEs (`cargo xtask cases NAME`
//! sets it).

use anyhow::{anyhow, bail, Context, Result};
use dxcopy_edit::{ContainerBuilder, DigestPolicy};
use dxcopy_read::hash::{HashStatus, ShaderHash};
use dxcopy_read::ShaderKind;
use dxcopy_read::{Container, PartName};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    description: String,
    #[serde(default)]
    input: Vec<InputFile>,
    run: Vec<Run>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InputFile {
    name: String,
    /// Plain file contents (hex; whitespace ignored).
    hex: Option<String>,
    /// Plain file contents (text).
    text: Option<String>,
    /// Or a container made by the builder.
    parts: Option<Vec<PartSpec>>,
    /// Or a copy of a file of the repository (a path from its root, e.g.
    /// one of `examples/`).
    copy: Option<String>,
    #[serde(default)]
    digest: Option<String>,
    #[serde(default)]
    version: Option<[u16; 2]>,
    /// Unix permission bits to set (octal string, e.g. "640").
    mode: Option<String>,
    /// Instead of contents: a symbolic link to this earlier input (Unix).
    symlink_to: Option<String>,
    /// Instead of contents: a hard link to this earlier input.
    hard_link_to: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PartSpec {
    name: String,
    hex: Option<String>,
    text: Option<String>,
    /// Zero-pad to 4 (layout rule for non-PRIV parts); default: exact bytes.
    #[serde(default)]
    pad: bool,
    /// "pixel 6.0 1.0": shader kind, shader model, DXIL version; data is the bitcode.
    program: Option<String>,
    /// HASH part: MD5 of this program part's bitcode ("DXIL" or "ILDB").
    hash_of: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Run {
    tool: String,
    args: Vec<String>,
    /// A file of the case to pipe to the tool's stdin.
    stdin: Option<String>,
    /// Environment variables set for the run.
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    exit: i32,
    /// Exact stderr.
    stderr: Option<String>,
    #[serde(default)]
    stderr_contains: Vec<String>,
    #[serde(default)]
    stdout_contains: Vec<String>,
    /// Exact stdout bytes (hex).
    stdout_hex: Option<String>,
    /// Files that must still equal what the case created.
    #[serde(default)]
    unchanged: Vec<String>,
    /// Files that must not exist.
    #[serde(default)]
    absent: Vec<String>,
    #[serde(default)]
    expect: BTreeMap<String, Expect>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// Part names in order.
    parts: Option<Vec<String>>,
    /// Digest kind: retail, debug, zero, bypass, preview, invalid.
    digest: Option<String>,
    /// File size in bytes.
    size: Option<u64>,
    /// Exact file bytes (hex).
    hex: Option<String>,
    /// Exact data of named parts (hex).
    #[serde(default)]
    part_hex: BTreeMap<String, String>,
    /// Part offsets in table order.
    offsets: Option<Vec<u64>>,
    /// HASH part must match its bitcode.
    hash_valid: Option<bool>,
    /// The file equals another file of the case.
    same_as: Option<String>,
    /// Unix permission bits (octal string).
    mode: Option<String>,
}

fn unhex(s: &str) -> Result<Vec<u8>> {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if !clean.len().is_multiple_of(2) {
        bail!("odd number of hex digits");
    }
    (0..clean.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&clean[i..i + 2], 16).map_err(|e| anyhow!("bad hex: {e}")))
        .collect()
}

fn kind(s: &str) -> Result<ShaderKind> {
    let names = [
        "pixel",
        "vertex",
        "geometry",
        "hull",
        "domain",
        "compute",
        "library",
        "raygeneration",
        "intersection",
        "anyhit",
        "closesthit",
        "miss",
        "callable",
        "mesh",
        "amplification",
        "node",
    ];
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(s))
        .map(|i| ShaderKind::from_raw(i as u16))
        .ok_or_else(|| anyhow!("unknown shader kind '{s}'"))
}

fn version(s: &str) -> Result<(u8, u8)> {
    let (a, b) = s
        .split_once('.')
        .ok_or_else(|| anyhow!("version '{s}' is not M.m"))?;
    Ok((a.parse()?, b.parse()?))
}

fn part_bytes(p: &PartSpec) -> Result<Vec<u8>> {
    Ok(match (&p.hex, &p.text) {
        (Some(h), None) => unhex(h)?,
        (None, Some(t)) => t.as_bytes().to_vec(),
        (None, None) => Vec::new(),
        _ => bail!("part {}: give hex or text, not both", p.name),
    })
}

fn build_input(f: &InputFile) -> Result<Vec<u8>> {
    if let Some(parts) = &f.parts {
        let mut b = ContainerBuilder::new();
        if let Some([maj, min]) = f.version {
            b = b.version(maj, min);
        }
        let mut programs: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        for p in parts {
            if p.program.is_some() {
                programs.insert(p.name.clone(), part_bytes(p)?);
            }
        }
        for p in parts {
            let name: [u8; 4] = p
                .name
                .as_bytes()
                .try_into()
                .map_err(|_| anyhow!("part name '{}' is not 4 bytes", p.name))?;
            if let Some(prog) = &p.program {
                let w: Vec<&str> = prog.split_whitespace().collect();
                if w.len() != 3 {
                    bail!("program '{prog}': expected 'kind M.m M.m'");
                }
                b = b.program(
                    &name,
                    kind(w[0])?,
                    version(w[1])?,
                    version(w[2])?,
                    &part_bytes(p)?,
                );
            } else if let Some(src) = &p.hash_of {
                let bc = programs
                    .get(src)
                    .ok_or_else(|| anyhow!("hash_of '{src}': no such program part"))?;
                let flags = u32::from(src == "ILDB");
                b = b.part(&name, &ContainerBuilder::hash_part(flags, bc));
            } else if p.pad {
                b = b.padded_part(&name, &part_bytes(p)?);
            } else {
                b = b.part(&name, &part_bytes(p)?);
            }
        }
        let digest = f.digest.as_deref().unwrap_or("zero");
        let policy = DigestPolicy::parse(digest).ok_or_else(|| anyhow!("digest '{digest}'"))?;
        return Ok(b.digest(policy).build()?);
    }
    if let Some(path) = &f.copy {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        return std::fs::read(root.join(path)).with_context(|| format!("copy '{path}'"));
    }
    match (&f.hex, &f.text) {
        (Some(h), None) => unhex(h),
        (None, Some(t)) => Ok(t.as_bytes().to_vec()),
        (None, None) => Ok(Vec::new()),
        _ => bail!("input {}: give one of parts, hex, text", f.name),
    }
}

#[cfg(unix)]
fn mode_of(path: &Path) -> Result<u32> {
    use std::os::unix::fs::PermissionsExt;
    Ok(std::fs::metadata(path)?.permissions().mode() & 0o7777)
}

fn check_expect(dir: &Path, file: &str, e: &Expect) -> Result<()> {
    let path = dir.join(file);
    let bytes = std::fs::read(&path).with_context(|| format!("{file} was not written"))?;
    if let Some(size) = e.size {
        if bytes.len() as u64 != size {
            bail!("{file}: size {} != expected {size}", bytes.len());
        }
    }
    if let Some(h) = &e.hex {
        let want = unhex(h)?;
        if bytes != want {
            bail!(
                "{file}: bytes differ\n got  {}\n want {}",
                hex(&bytes),
                hex(&want)
            );
        }
    }
    if let Some(other) = &e.same_as {
        if bytes != std::fs::read(dir.join(other))? {
            bail!("{file} differs from {other}");
        }
    }
    #[cfg(unix)]
    if let Some(m) = &e.mode {
        let want = u32::from_str_radix(m, 8)?;
        let got = mode_of(&path)?;
        if got != want {
            bail!("{file}: mode {got:o} != {want:o}");
        }
    }
    let needs_parse = e.parts.is_some()
        || e.digest.is_some()
        || !e.part_hex.is_empty()
        || e.offsets.is_some()
        || e.hash_valid.is_some();
    if !needs_parse {
        return Ok(());
    }
    let c = Container::parse(&bytes).map_err(|err| anyhow!("{file} does not parse: {err}"))?;
    if let Some(names) = &e.parts {
        let got: Vec<String> = c.parts().map(|p| p.name.to_string()).collect();
        if &got != names {
            bail!("{file}: parts {got:?} != expected {names:?}");
        }
    }
    if let Some(d) = &e.digest {
        let got = c.digest_kind();
        if got.as_str() != d {
            bail!("{file}: digest {got} != expected {d}");
        }
    }
    for (name, h) in &e.part_hex {
        let pn = PartName::from_str_exact(name).ok_or_else(|| anyhow!("bad part name {name}"))?;
        let part = c
            .find(pn)
            .ok_or_else(|| anyhow!("{file}: no part {name}"))?;
        let want = unhex(h)?;
        if part.data != want {
            bail!(
                "{file}: part {name} is {} != {}",
                hex(part.data),
                hex(&want)
            );
        }
    }
    if let Some(offsets) = &e.offsets {
        let got: Vec<u64> = c.parts().map(|p| p.offset).collect();
        if &got != offsets {
            bail!("{file}: offsets {got:?} != {offsets:?}");
        }
    }
    if let Some(valid) = e.hash_valid {
        let part = c
            .find(PartName::HASH)
            .ok_or_else(|| anyhow!("{file}: no HASH"))?;
        let status = ShaderHash::parse(&part)?.verify(&c);
        if (status == HashStatus::Valid) != valid {
            bail!("{file}: HASH status {status:?}, expected valid = {valid}");
        }
    }
    Ok(())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn run_case(bin: &Path, path: &Path) -> Result<()> {
    let text = std::fs::read_to_string(path)?;
    let case: Case =
        toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let _ = &case.description;
    let dir = tempfile::tempdir()?;
    let mut created: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for f in &case.input {
        let p = dir.path().join(&f.name);
        if let Some(target) = f.symlink_to.as_ref().or(f.hard_link_to.as_ref()) {
            let bytes = created
                .get(target)
                .with_context(|| format!("input {}: no earlier input {target}", f.name))?
                .clone();
            if f.hard_link_to.is_some() {
                std::fs::hard_link(dir.path().join(target), &p)?;
            } else {
                #[cfg(unix)]
                std::os::unix::fs::symlink(target, &p)?;
                #[cfg(not(unix))]
                anyhow::bail!("input {}: symbolic links need Unix", f.name);
            }
            created.insert(f.name.clone(), bytes);
            continue;
        }
        let bytes = build_input(f).with_context(|| format!("input {}", f.name))?;
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&p, &bytes)?;
        #[cfg(unix)]
        if let Some(m) = &f.mode {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(
                &p,
                std::fs::Permissions::from_mode(u32::from_str_radix(m, 8)?),
            )?;
        }
        created.insert(f.name.clone(), bytes);
    }
    for (i, r) in case.run.iter().enumerate() {
        let mut cmd = Command::new(bin.join(&r.tool));
        cmd.args(&r.args).envs(&r.env).current_dir(dir.path());
        match &r.stdin {
            Some(f) => cmd.stdin(std::fs::File::open(dir.path().join(f))?),
            None => cmd.stdin(std::process::Stdio::null()),
        };
        let out = cmd
            .output()
            .with_context(|| format!("running {}", r.tool))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let ctx = || {
            format!(
                "run {} ({} {})\nstderr: {stderr}",
                i + 1,
                r.tool,
                r.args.join(" ")
            )
        };
        let code = out.status.code().unwrap_or(-1);
        if code != r.exit {
            bail!("exit code {code} != expected {}: {}", r.exit, ctx());
        }
        if stderr.contains("panicked") {
            bail!("panic: {}", ctx());
        }
        if let Some(want) = &r.stderr {
            if stderr != *want {
                bail!("stderr differs\n want: {want:?}\n got:  {stderr:?}");
            }
        }
        for s in &r.stderr_contains {
            if !stderr.contains(s.as_str()) {
                bail!("stderr lacks {s:?}: {}", ctx());
            }
        }
        for s in &r.stdout_contains {
            if !stdout.contains(s.as_str()) {
                bail!("stdout lacks {s:?}: {}\nstdout: {stdout}", ctx());
            }
        }
        if let Some(h) = &r.stdout_hex {
            if out.stdout != unhex(h)? {
                bail!("stdout bytes {} != {h}: {}", hex(&out.stdout), ctx());
            }
        }
        for f in &r.unchanged {
            let now = std::fs::read(dir.path().join(f))?;
            if Some(&now) != created.get(f) {
                bail!("{f} was modified: {}", ctx());
            }
        }
        for f in &r.absent {
            if dir.path().join(f).exists() {
                bail!("{f} exists but must not: {}", ctx());
            }
        }
        for (file, e) in &r.expect {
            check_expect(dir.path(), file, e).with_context(ctx)?;
        }
        // No temp file may be left behind.
        for entry in std::fs::read_dir(dir.path())? {
            let name = entry?.file_name();
            if name.to_string_lossy().ends_with(".tmp") {
                bail!("temp file {name:?} left behind: {}", ctx());
            }
        }
    }
    Ok(())
}

/// Runs every case under tests/cases (filtered by name) against the binaries in `bin`.
fn run_all(bin: &Path, filter: &[String]) -> Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cases");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| filter.is_empty() || filter.iter().any(|f| p.to_string_lossy().contains(f)))
        .collect();
    paths.sort();
    let (mut passed, mut failed) = (0, 0);
    for p in &paths {
        let name = p.file_stem().unwrap_or_default().to_string_lossy();
        match run_case(bin, p) {
            Ok(()) => {
                passed += 1;
                println!("case {name} ... ok");
            }
            Err(e) => {
                failed += 1;
                println!("case {name} ... FAILED\n{e:#}\n");
            }
        }
    }
    println!("cases: {passed} passed, {failed} failed");
    if failed > 0 {
        bail!("{failed} case(s) failed");
    }
    if passed == 0 {
        bail!("no case in {} matches {filter:?}", dir.display());
    }
    Ok(())
}

#[test]
fn data_driven_cases() {
    let bin = Path::new(env!("CARGO_BIN_EXE_dxcopy"))
        .parent()
        .expect("the binaries' folder")
        .to_path_buf();
    for tool in ["dxcopy", "dxstrip", "dxinfo", "dxasm"] {
        assert!(bin.join(tool).is_file(), "no {tool} in {}", bin.display());
    }
    let filter: Vec<String> = std::env::var("DXCOPY_CASES")
        .map(|v| v.split(',').map(str::to_owned).collect())
        .unwrap_or_default();
    if let Err(e) = run_all(&bin, &filter) {
        panic!("{e:#}");
    }
}
