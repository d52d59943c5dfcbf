//! The README's first command (the main job on the bundled sample) works
//! as written: it is read from the README, its `/tmp/` outputs moved to a
//! temp dir, and run with this package's dxcopy from the workspace root.

mod common;

use dxcopy_read::{Container, PartName};
use std::path::Path;

#[test]
fn the_readme_sample_command_runs_on_the_bundled_shader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.starts_with("cargo run -q --bin dxcopy -- "))
        .expect("the sample command in README.md");
    let tmp = tempfile::tempdir().unwrap();
    let args: Vec<String> = line
        .trim_start_matches("cargo run -q --bin dxcopy -- ")
        .split_whitespace()
        .map(|a| a.replace("/tmp/", &format!("{}/", tmp.path().display())))
        .collect();
    let out = std::process::Command::new(common::bin("dxcopy"))
        .args(&args)
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bitcode = std::fs::read(tmp.path().join("sample.bc")).unwrap();
    assert!(bitcode.starts_with(b"BC\xc0\xde"), "{line}");
    let stripped = std::fs::read(tmp.path().join("sample-stripped.dxil")).unwrap();
    let c = Container::parse(&stripped).unwrap();
    assert!(c.find(PartName::ILDB).is_none());
    assert!(c.find(PartName::DXIL).is_some());
    let hash = dxcopy_read::ShaderHash::parse(&c.find(PartName::HASH).unwrap()).unwrap();
    assert_eq!(hash.verify(&c), dxcopy_read::HashStatus::Valid);
}
