//! Conformance against the shared corpus and LLVM 22's obj2yaml.
//!
//! * `obj2yaml_conformance`: for every sample in `spec/obj2yaml-samples/` and
//!   every corpus file that obj2yaml 22 accepts, `to_obj2yaml` must produce the
//!   same bytes as obj2yaml.
//! * `yaml2obj_cases`: every `tests/data/obj2yaml/*.yaml` is built with
//!   yaml2obj 22 and the result compared the same way (cases the samples and
//!   corpus lack: mesh, amplification, domain and compute PSV0, every root
//!   signature parameter type and flag, repeated signature parts).
//! * `corpus_parts_decode`: every container in the corpus manifest (kinds
//!   dxbc, dxil, rootsig) decodes its signature, PSV0, RTS0 and SFI0 parts
//!   without error.
//!
//! The shared directory is `$DXCOPY_SHARED` or `../shared` beside the workspace;
//! when it (or obj2yaml) is missing the tests say so and pass.

use dxcopy::info::yaml::{to_obj2yaml, YamlOptions};
use dxcopy_harness::corpus::files_under;
use dxcopy_read::psv0::Psv0;
use dxcopy_read::rts0::RootSignature;
use dxcopy_read::sfi0::Sfi0;
use dxcopy_read::signature::Signature;
use dxcopy_read::{part_info, Family};
use dxcopy_read::{Container, PartName, Program, ShaderKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const OBJ2YAML: &str = "/usr/lib/llvm-22/bin/obj2yaml";
const YAML2OBJ: &str = "/usr/lib/llvm-22/bin/yaml2obj";

/// The shared folder, or `None` after printing that `test` is skipped.
fn shared_or_skip(test: &str) -> Option<PathBuf> {
    let dir = dxcopy_harness::corpus::shared_dir();
    if dir.is_dir() {
        Some(dir)
    } else {
        dxcopy_harness::corpus::skip(
            test,
            &format!(
                "shared directory {} not found (set {})",
                dir.display(),
                dxcopy_harness::corpus::SHARED_ENV
            ),
        );
        None
    }
}

/// Runs `f` over `items` on `threads` threads, collecting the results in order.
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every item was processed"))
        .collect()
}

/// A unified-style diff of the first differing region of two texts.
fn first_difference(want: &str, got: &str) -> String {
    let w: Vec<&str> = want.split_inclusive('\n').collect();
    let g: Vec<&str> = got.split_inclusive('\n').collect();
    let first = w
        .iter()
        .zip(&g)
        .position(|(a, b)| a != b)
        .unwrap_or(w.len().min(g.len()));
    let start = first.saturating_sub(3);
    let mut out = format!("@@ line {} @@\n", first + 1);
    for line in &w[start..first] {
        out.push_str(&format!(" {}", line));
    }
    for line in w.iter().skip(first).take(6) {
        out.push_str(&format!(
            "-{}\n",
            line.trim_end_matches('\n').escape_debug()
        ));
    }
    for line in g.iter().skip(first).take(6) {
        out.push_str(&format!(
            "+{}\n",
            line.trim_end_matches('\n').escape_debug()
        ));
    }
    out
}

enum Outcome {
    /// obj2yaml rejected the file: its reason, and whether `to_obj2yaml` still printed.
    Rejected(String, bool),
    Identical,
    Different(String),
}

fn compare_with_obj2yaml(path: &Path) -> Outcome {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Outcome::Different(format!("cannot read: {e}")),
    };
    let output = match Command::new(OBJ2YAML).arg(path).output() {
        Ok(o) => o,
        Err(e) => return Outcome::Different(format!("could not run obj2yaml: {e}")),
    };
    let container = Container::parse(&bytes);
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr);
        // The reason without the file name.
        let prefix = format!("Error reading file: {}: ", path.display());
        let reason = message.trim();
        let reason = reason.strip_prefix(&prefix).unwrap_or(reason).to_string();
        let printed = container.is_ok_and(|c| to_obj2yaml(&c, &YamlOptions::default()).is_ok());
        return Outcome::Rejected(reason, printed);
    }
    let want = String::from_utf8_lossy(&output.stdout).into_owned();
    let container = match container {
        Ok(c) => c,
        Err(e) => {
            return Outcome::Different(format!(
                "obj2yaml accepts it but Container::parse fails: {e}"
            ))
        }
    };
    match to_obj2yaml(&container, &YamlOptions::default()) {
        Ok(got) if got.as_bytes() == output.stdout.as_slice() => Outcome::Identical,
        Ok(got) => Outcome::Different(first_difference(&want, &got)),
        Err(e) => Outcome::Different(format!("obj2yaml accepts it but to_obj2yaml fails: {e}")),
    }
}

#[cfg_attr(
    not(all(dxcopy_corpus, dxcopy_llvm)),
    ignore = "needs the shared corpus and LLVM 22"
)]
#[test]
fn obj2yaml_conformance() {
    let Some(shared) = shared_or_skip("obj2yaml_conformance") else {
        return;
    };
    if !Path::new(OBJ2YAML).exists() {
        dxcopy_harness::corpus::skip("obj2yaml_conformance", &format!("{OBJ2YAML} not installed"));
        return;
    }
    let mut files = files_under(&shared.join("spec/obj2yaml-samples"));
    files.retain(|p| p.extension().is_some_and(|e| e == "dxbc"));
    let samples = files.len();
    files.extend(files_under(&shared.join("corpus")));
    // Files that are certainly not containers are skipped without running obj2yaml.
    files.retain(|p| {
        std::fs::read(p)
            .map(|b| b.starts_with(b"DXBC"))
            .unwrap_or(false)
    });

    let outcomes = parallel_map(&files, 2, |p| compare_with_obj2yaml(p));
    let mut compared = 0;
    let mut identical = 0;
    let mut rejected = 0;
    let mut still_printed = 0;
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (path, outcome) in files.iter().zip(outcomes) {
        match outcome {
            Outcome::Rejected(reason, printed) => {
                rejected += 1;
                still_printed += usize::from(printed);
                *reasons.entry(reason).or_default() += 1;
            }
            Outcome::Identical => {
                compared += 1;
                identical += 1;
            }
            Outcome::Different(diff) => {
                compared += 1;
                failures.push((path, diff));
            }
        }
    }
    println!("obj2yaml conformance: {compared} compared, {identical} identical");
    println!(
        "  ({samples} samples + corpus containers; {rejected} rejected by obj2yaml 22 were not \
         compared, to_obj2yaml still prints {still_printed} of them)"
    );
    for (reason, count) in &reasons {
        println!("  obj2yaml 22 rejected {count}: {reason}");
    }
    for (path, diff) in failures.iter().take(5) {
        println!("--- {}\n{diff}", path.display());
    }
    assert!(
        failures.is_empty(),
        "{} files differ from obj2yaml",
        failures.len()
    );
    assert!(compared > 0);
}

#[cfg_attr(
    not(dxcopy_llvm),
    ignore = "needs LLVM 22 (/usr/lib/llvm-22/bin or $DXCOPY_LLVM_BIN)"
)]
#[test]
fn yaml2obj_cases() {
    if !Path::new(OBJ2YAML).exists() || !Path::new(YAML2OBJ).exists() {
        dxcopy_harness::corpus::skip(
            "yaml2obj_cases",
            &format!("{OBJ2YAML} or {YAML2OBJ} not installed"),
        );
        return;
    }
    let mut cases = files_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/obj2yaml"));
    cases.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    let dir = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    for case in &cases {
        let binary = dir
            .path()
            .join(case.file_stem().expect("file name"))
            .with_extension("dxbc");
        let status = Command::new(YAML2OBJ)
            .arg(case)
            .arg("-o")
            .arg(&binary)
            .status()
            .expect("run yaml2obj");
        assert!(status.success(), "yaml2obj failed on {}", case.display());
        match compare_with_obj2yaml(&binary) {
            Outcome::Identical => {}
            Outcome::Rejected(reason, _) => {
                failures.push((case, format!("obj2yaml rejects it: {reason}")))
            }
            Outcome::Different(diff) => failures.push((case, diff)),
        }
    }
    println!(
        "yaml2obj cases: {} compared, {} identical",
        cases.len(),
        cases.len() - failures.len()
    );
    for (case, diff) in &failures {
        println!("--- {}\n{diff}", case.display());
    }
    assert!(failures.is_empty());
    assert!(!cases.is_empty());
}

/// Decodes every signature, PSV0, RTS0 and SFI0 part; returns one message per failure.
fn decode_parts(bytes: &[u8]) -> Vec<String> {
    let container = match Container::parse(bytes) {
        Ok(c) => c,
        Err(e) => return vec![format!("container: {e}")],
    };
    let program_kind = |name: PartName| -> Option<ShaderKind> {
        container
            .find(name)
            .and_then(|p| Program::parse(&p).ok())
            .map(|p| p.shader_kind)
    };
    let kind = program_kind(PartName::DXIL).or_else(|| program_kind(PartName::ILDB));
    let mut errors = Vec::new();
    for part in container.parts() {
        let result = match part_info(part.name).and_then(|info| info.family) {
            Some(Family::Psv0) => Psv0::parse(&part, kind).map(|_| ()),
            Some(Family::RootSignature) => RootSignature::parse(&part).map(|_| ()),
            Some(Family::FeatureFlags) => Sfi0::parse(&part).map(|_| ()),
            _ => Signature::parse(&part).map(|_| ()),
        };
        if let Err(e) = result {
            errors.push(e.to_string());
        }
    }
    errors
}

/// Corpus files whose parts are genuinely malformed, with the reason.
const KNOWN_MALFORMED: &[(&str, &str)] = &[(
    "llvm-bin/obj2yaml__DXILPart.dxcontainer",
    "yaml2obj wrote its PSV0 as 120 zero bytes (the YAML gives only a size), so the \
     RuntimeInfo size is 0; LLVM rejects it too",
)];

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_parts_decode() {
    let Some(shared) = shared_or_skip("corpus_parts_decode") else {
        return;
    };
    let corpus = shared.join("corpus");
    let Ok(manifest) = std::fs::read_to_string(corpus.join("MANIFEST.tsv")) else {
        dxcopy_harness::corpus::skip(
            "corpus_parts_decode",
            &format!("{} has no MANIFEST.tsv", corpus.display()),
        );
        return;
    };
    let mut checked = 0;
    let mut known = Vec::new();
    let mut unexpected = Vec::new();
    for line in manifest.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(path), Some(kind)) = (fields.first(), fields.get(2)) else {
            continue;
        };
        if !matches!(*kind, "dxbc" | "dxil" | "rootsig") {
            continue;
        }
        let bytes = std::fs::read(corpus.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        checked += 1;
        let errors = decode_parts(&bytes);
        if errors.is_empty() {
            continue;
        }
        match KNOWN_MALFORMED.iter().find(|(file, _)| file == path) {
            Some((_, reason)) => known.push(format!("{path}: {} ({reason})", errors.join("; "))),
            None => unexpected.extend(errors.into_iter().map(|e| format!("{path}: {e}"))),
        }
    }
    println!(
        "corpus part decoding: {checked} containers, {} known malformed, {} unexpected decode errors",
        known.len(),
        unexpected.len()
    );
    for m in &known {
        println!("  known malformed: {m}");
    }
    for m in &unexpected {
        println!("  UNEXPECTED: {m}");
    }
    assert!(unexpected.is_empty());
    assert!(checked > 0);
}
