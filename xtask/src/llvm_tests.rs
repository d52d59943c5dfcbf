//! `cargo xtask llvm-objcopy-tests DIR [--reference] [--bin PATH] [--llvm-bin DIR] [-v]`
//!
//! Runs LLVM's lit tests for llvm-objcopy on DXContainer files
//! (`llvm/test/tools/llvm-objcopy/DXContainer` in llvm-project) with dxcopy in
//! place of llvm-objcopy. The test files are LLVM's, so they are not part of
//! this repository: the caller fetches them into DIR.
//!
//! The task writes a lit configuration into a temporary directory: the ShTest
//! format with lit's internal shell (as LLVM's own test suite uses it),
//! suffixes `.test` and `.yaml`, and a `bin/` directory first on `PATH` where
//! `llvm-objcopy` is the dxcopy binary and yaml2obj, obj2yaml, FileCheck, not,
//! count, split-file and llvm-dis are LLVM 22's. `--reference` runs the same
//! tests a second time with the real llvm-objcopy 22 and prints both columns.

use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Debian and Ubuntu install LLVM 22 (`apt-get install llvm-22 llvm-22-tools`);
/// `--llvm-bin DIR` names another directory.
const LLVM22_BIN: &str = "/usr/lib/llvm-22/bin";

/// The LLVM tools the tests call besides llvm-objcopy.
const TOOLS: &[&str] = &[
    "yaml2obj",
    "obj2yaml",
    "FileCheck",
    "not",
    "count",
    "split-file",
    "llvm-dis",
];

/// Options of the task.
struct Options {
    dir: PathBuf,
    reference: bool,
    bin: Option<PathBuf>,
    verbose: bool,
    llvm_bin: PathBuf,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut dir = None;
    let mut reference = false;
    let mut bin = None;
    let mut verbose = false;
    let mut llvm_bin = PathBuf::from(LLVM22_BIN);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--reference" => reference = true,
            "-v" | "--verbose" => verbose = true,
            "--bin" => {
                bin = Some(PathBuf::from(
                    it.next()
                        .context("--bin needs the path of a dxcopy binary")?,
                ))
            }
            s if s.starts_with("--bin=") => bin = Some(PathBuf::from(&s["--bin=".len()..])),
            "--llvm-bin" => {
                llvm_bin = PathBuf::from(
                    it.next()
                        .context("--llvm-bin needs the directory of the LLVM 22 tools")?,
                )
            }
            s if s.starts_with("--llvm-bin=") => {
                llvm_bin = PathBuf::from(&s["--llvm-bin=".len()..])
            }
            s if s.starts_with('-') => bail!("llvm-objcopy-tests: unknown option '{s}'"),
            s => {
                if dir.replace(PathBuf::from(s)).is_some() {
                    bail!("llvm-objcopy-tests takes one directory");
                }
            }
        }
    }
    let dir = dir.context(
        "usage: cargo xtask llvm-objcopy-tests DIR [--reference] [--bin PATH] [--llvm-bin DIR] [-v]\n\
         DIR holds llvm/test/tools/llvm-objcopy/DXContainer from llvm-project (release/22.x)",
    )?;
    Ok(Options {
        dir,
        reference,
        bin,
        verbose,
        llvm_bin,
    })
}

/// LLVM 22's `lit`: the one next to the LLVM 22 tools, else `lit` or
/// `llvm-lit` on PATH if it says it is version 22.
fn find_lit(llvm_bin: &Path) -> Result<PathBuf> {
    let beside = llvm_bin.join("lit");
    if beside.is_file() {
        return Ok(beside);
    }
    for name in ["lit", "llvm-lit"] {
        let Some(path) = which(name) else { continue };
        let version = Command::new(&path).arg("--version").output();
        if let Ok(out) = version {
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            if text.contains(" 22.") {
                return Ok(path);
            }
            eprintln!(
                "llvm-objcopy-tests: {} is not LLVM 22's lit ({}), skipping it",
                path.display(),
                text.trim()
            );
        }
    }
    bail!(
        "LLVM 22's lit was not found (looked for {} and for lit / llvm-lit version 22 on PATH); \
         install it with `apt-get install llvm-22-tools` or `pip install lit==22.*`",
        beside.display()
    )
}

/// A program on PATH.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The LLVM 22 tools the tests need, with their paths; an error names the missing ones.
fn llvm_tools(llvm_bin: &Path, reference: bool) -> Result<Vec<(&'static str, PathBuf)>> {
    let mut names: Vec<&'static str> = TOOLS.to_vec();
    if reference {
        names.push("llvm-objcopy");
    }
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for name in names {
        let path = llvm_bin.join(name);
        if path.is_file() {
            found.push((name, path));
        } else {
            missing.push(name);
        }
    }
    if !missing.is_empty() {
        bail!(
            "LLVM 22 tools missing from {}: {}; install them with \
             `apt-get install llvm-22 llvm-22-tools` (or point --llvm-bin at them)",
            llvm_bin.display(),
            missing.join(", ")
        );
    }
    Ok(found)
}

/// The dxcopy binary: `--bin`, else a fresh debug build.
fn dxcopy_binary(bin: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(bin) = bin {
        if !bin.is_file() {
            bail!("--bin {}: no such file", bin.display());
        }
        return Ok(bin.canonicalize()?);
    }
    crate::run(crate::cargo().args(["build", "-p", "dxcopy", "--bin", "dxcopy"]))?;
    let target = crate::target_dir();
    let bin = target.join("debug/dxcopy");
    if !bin.is_file() {
        bail!("the build did not leave {}", bin.display());
    }
    Ok(bin)
}

/// The lit configuration: ShTest with the internal shell, `.test` and `.yaml`,
/// `bin` first on PATH, and the `%errc_*` substitutions LLVM's configuration
/// defines (the C library's message for each error, quoted for the shell).
fn lit_config(name: &str, source: &Path, exec: &Path, bin: &Path) -> String {
    let q = |p: &Path| format!("{:?}", p.display().to_string());
    format!(
        "# Generated by `cargo xtask llvm-objcopy-tests`.\n\
         import errno\n\
         import os\n\
         import lit.formats\n\
         config.name = {name:?}\n\
         config.test_format = lit.formats.ShTest(execute_external=False)\n\
         config.suffixes = ['.test', '.yaml']\n\
         config.test_source_root = {source}\n\
         config.test_exec_root = {exec}\n\
         config.environment['PATH'] = os.pathsep.join([{bin}, os.environ.get('PATH', '')])\n\
         config.environment['NO_COLOR'] = '1'\n\
         for code in ['ENOENT', 'EISDIR', 'EINVAL', 'EACCES']:\n    \
             config.substitutions.append(('%errc_' + code, \"'\" + os.strerror(getattr(errno, code)) + \"'\"))\n",
        source = q(source),
        exec = q(exec),
        bin = q(bin),
    )
}

/// One lit run: per test file, its lit result (PASS, FAIL, …).
fn run_lit(
    lit: &Path,
    work: &Path,
    label: &str,
    source: &Path,
    objcopy: &Path,
    tools: &[(&str, PathBuf)],
    verbose: bool,
) -> Result<BTreeMap<String, String>> {
    let suite = work.join(label);
    let bin = suite.join("bin");
    let exec = suite.join("out");
    std::fs::create_dir_all(&bin)?;
    std::fs::create_dir_all(&exec)?;
    std::os::unix::fs::symlink(objcopy, bin.join("llvm-objcopy"))?;
    for (name, path) in tools {
        if *name != "llvm-objcopy" {
            std::os::unix::fs::symlink(path, bin.join(name))?;
        }
    }
    let cfg = suite.join("lit.cfg.py");
    std::fs::write(&cfg, lit_config(label, source, &exec, &bin))?;
    // lit is pointed at the directory of the generated configuration, whose
    // test_source_root is DIR: the tests are found there, and nothing is
    // written into DIR.
    let mut cmd = Command::new(lit);
    cmd.arg("--no-progress-bar").arg("-j1");
    if verbose {
        cmd.arg("-v");
    }
    cmd.arg(&suite);
    let out = cmd
        .output()
        .with_context(|| format!("running {}", lit.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if verbose {
        print!("{stdout}");
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
    }
    let results = parse_results(&stdout);
    if results.is_empty() {
        bail!(
            "lit ran no tests in {} (exit {}):\n{}{}",
            source.display(),
            out.status,
            stdout,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(results)
}

/// `PASS: suite :: file (1 of 25)` lines → file → result.
fn parse_results(stdout: &str) -> BTreeMap<String, String> {
    let mut results = BTreeMap::new();
    for line in stdout.lines() {
        let Some((result, rest)) = line.split_once(": ") else {
            continue;
        };
        if !matches!(
            result,
            "PASS" | "FAIL" | "XFAIL" | "XPASS" | "UNSUPPORTED" | "UNRESOLVED" | "TIMEOUT"
        ) {
            continue;
        }
        let Some((_, file)) = rest.split_once(" :: ") else {
            continue;
        };
        let file = file.rsplit_once(" (").map_or(file, |(f, _)| f);
        results.insert(file.trim().to_string(), result.to_string());
    }
    results
}

/// Runs the task.
pub fn run(args: &[String]) -> Result<()> {
    let opts = parse(args)?;
    let source = opts
        .dir
        .canonicalize()
        .with_context(|| format!("{}: no such directory", opts.dir.display()))?;
    let lit = find_lit(&opts.llvm_bin)?;
    let tools = llvm_tools(&opts.llvm_bin, opts.reference)?;
    let dxcopy = dxcopy_binary(opts.bin)?;
    let work = tempfile::Builder::new()
        .prefix("dxcopy-llvm-objcopy-tests")
        .tempdir()?;
    println!(
        "lit: {}\nllvm-objcopy: {} (dxcopy)\ntests: {}",
        lit.display(),
        dxcopy.display(),
        source.display()
    );
    let ours = run_lit(
        &lit,
        work.path(),
        "dxcopy",
        &source,
        &dxcopy,
        &tools,
        opts.verbose,
    )?;
    let reference = if opts.reference {
        let objcopy = tools
            .iter()
            .find(|(n, _)| *n == "llvm-objcopy")
            .map(|(_, p)| p.clone())
            .expect("llvm_tools checked it");
        Some(run_lit(
            &lit,
            work.path(),
            "llvm-objcopy-22",
            &source,
            &objcopy,
            &tools,
            opts.verbose,
        )?)
    } else {
        None
    };
    report(&ours, reference.as_ref())
}

fn passed(result: Option<&String>) -> bool {
    matches!(result.map(String::as_str), Some("PASS" | "XFAIL"))
}

/// Prints the table and the totals; fails when dxcopy fails a test (with
/// `--reference`: a test that llvm-objcopy 22 passes).
fn report(
    ours: &BTreeMap<String, String>,
    reference: Option<&BTreeMap<String, String>>,
) -> Result<()> {
    let width = ours.keys().map(String::len).max().unwrap_or(4).max(4);
    match reference {
        Some(_) => println!("\n{:width$}  {:11}  llvm-objcopy 22", "test", "dxcopy"),
        None => println!("\n{:width$}  dxcopy", "test"),
    }
    for (file, result) in ours {
        match reference {
            Some(r) => println!(
                "{file:width$}  {result:11}  {}",
                r.get(file).map_or("-", String::as_str)
            ),
            None => println!("{file:width$}  {result}"),
        }
    }
    let total = ours.len();
    let ours_passed = ours.values().filter(|r| passed(Some(r))).count();
    println!("\ndxcopy: {ours_passed} of {total} passed");
    let Some(reference) = reference else {
        if ours_passed < total {
            bail!("dxcopy failed {} of {total} tests", total - ours_passed);
        }
        return Ok(());
    };
    let ref_passed = reference.values().filter(|r| passed(Some(r))).count();
    println!(
        "llvm-objcopy 22: {ref_passed} of {} passed",
        reference.len()
    );
    let behind: Vec<&String> = ours
        .iter()
        .filter(|(f, r)| passed(reference.get(*f)) && !passed(Some(r)))
        .map(|(f, _)| f)
        .collect();
    if behind.is_empty() {
        println!("dxcopy passes every test that llvm-objcopy 22 passes");
        Ok(())
    } else {
        for f in &behind {
            println!("llvm-objcopy 22 passes, dxcopy fails: {f}");
        }
        bail!(
            "dxcopy fails {} test(s) that llvm-objcopy 22 passes",
            behind.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lit_result_lines_are_parsed() {
        let out = "-- Testing: 3 tests, 1 workers --\n\
                   PASS: dxcopy :: basic-copy.test (1 of 3)\n\
                   FAIL: dxcopy :: reading-errs.yaml (2 of 3)\n\
                   UNSUPPORTED: dxcopy :: sub/x.test (3 of 3)\n\
                   ********************\n\
                   Failed Tests (1):\n  dxcopy :: reading-errs.yaml\n";
        let r = parse_results(out);
        assert_eq!(r.len(), 3);
        assert_eq!(r["basic-copy.test"], "PASS");
        assert_eq!(r["reading-errs.yaml"], "FAIL");
        assert_eq!(r["sub/x.test"], "UNSUPPORTED");
    }

    #[test]
    fn options_need_one_directory() {
        assert!(parse(&[]).is_err());
        assert!(parse(&["a".into(), "b".into()]).is_err());
        let o = parse(&["d".into(), "--reference".into(), "--bin=/x".into()]).unwrap();
        assert_eq!(o.dir, PathBuf::from("d"));
        assert!(o.reference);
        assert_eq!(o.bin, Some(PathBuf::from("/x")));
        assert!(parse(&["d".into(), "--nope".into()]).is_err());
    }

    #[test]
    fn config_puts_bin_first_and_maps_errc() {
        let cfg = lit_config("s", Path::new("/src"), Path::new("/exec"), Path::new("/b"));
        assert!(cfg.contains("config.suffixes = ['.test', '.yaml']"));
        assert!(cfg.contains("ShTest(execute_external=False)"));
        assert!(cfg.contains("os.pathsep.join([\"/b\", "));
        assert!(cfg.contains("'%errc_' + code"));
    }
}
