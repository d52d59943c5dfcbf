//! Pipeline workflows on real corpus files, through the binaries: dxstrip
//! over directory trees, response files, root signatures (set, unwrap,
//! coverage), RenderDoc-style debug lookups, refusal of repeated program
//! parts. Each test skips cleanly without ../shared/corpus.

use dxcopy_harness::corpus::{manifest_or_skip, Row};
use dxcopy_read::info::verify::root_signature::{
    check_container, read_root_signature_file, BindingSource, CheckAgainst, ContainerCoverage,
    NotChecked,
};
use dxcopy_read::{listing::dxbc, Container, PartName};
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::bin as tool;

fn run(name: &str, args: &[&str], cwd: &Path) -> Output {
    Command::new(tool(name))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Corpus rows of `kind` whose parts include every name in `with`.
fn rows<'a>(all: &'a [Row], kind: &str, with: &[&str]) -> Vec<&'a Row> {
    all.iter()
        .filter(|r| r.kind == kind && with.iter().all(|w| r.parts.iter().any(|p| p == w)))
        .collect()
}

use dxcopy_harness::part_names as names;

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn dxstrip_recursive_strips_containers_by_magic_only() {
    let Some((corpus, all)) = manifest_or_skip("dxstrip_recursive_strips_containers_by_magic_only")
    else {
        return;
    };
    let debug = rows(&all, "dxil", &["ILDB"]);
    assert!(debug.len() >= 3, "corpus has too few DXIL files with ILDB");
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    // Containers under odd names, a PDB, a text file, and a skipped subtree.
    let placed = [
        ("a.dxil", debug[0]),
        ("sub/b.bin", debug[1]),
        ("sub/deeper/c", debug[2]),
        ("third_party/d.dxil", debug[0]),
    ];
    for (rel, row) in placed {
        let p = tree.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::copy(&row.path, &p).unwrap();
    }
    let pdb_row = all
        .iter()
        .find(|r| r.kind == "msf-pdb")
        .expect("corpus has a PDB");
    fs::copy(&pdb_row.path, tree.join("sub/shader.pdb")).unwrap();
    fs::write(tree.join("notes.txt"), "DXB").unwrap();
    let pdb_before = fs::read(tree.join("sub/shader.pdb")).unwrap();

    let o = run(
        "dxstrip",
        &["-r", "--exclude=third_party/*", "tree"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    for rel in ["a.dxil", "sub/b.bin", "sub/deeper/c"] {
        let bytes = fs::read(tree.join(rel)).unwrap();
        assert!(!names(&bytes).contains(&"ILDB".to_string()), "{rel}");
    }
    let skipped = fs::read(tree.join("third_party/d.dxil")).unwrap();
    assert_eq!(skipped, fs::read(&debug[0].path).unwrap());
    assert_eq!(fs::read(tree.join("sub/shader.pdb")).unwrap(), pdb_before);
    assert_eq!(fs::read(tree.join("notes.txt")).unwrap(), b"DXB");
    assert!(stderr(&o).contains("3 files: 3 changed"), "{}", stderr(&o));

    // --files-from on stdin, and --include.
    let list = format!("{}\n", tree.join("third_party/d.dxil").display());
    let mut child = Command::new(tool("dxstrip"))
        .args(["--files-from=-"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.as_bytes())
        .unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    let bytes = fs::read(tree.join("third_party/d.dxil")).unwrap();
    assert!(!names(&bytes).contains(&"ILDB".to_string()));
    let _ = corpus;
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn response_files_carry_options_and_names() {
    let Some((_, all)) = manifest_or_skip("response_files_carry_options_and_names") else {
        return;
    };
    let row = rows(&all, "dxil", &["ILDB", "STAT"])[0];
    let dir = tempfile::tempdir().unwrap();
    fs::copy(&row.path, dir.path().join("in put.dxil")).unwrap();
    fs::write(dir.path().join("inner.rsp"), "-R STAT").unwrap();
    fs::write(
        dir.path().join("outer.rsp"),
        "--strip-debug @inner.rsp\n'in put.dxil' \"out put.dxil\"\n",
    )
    .unwrap();
    let o = run("dxcopy", &["@outer.rsp"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = names(&fs::read(dir.path().join("out put.dxil")).unwrap());
    assert!(!out.contains(&"ILDB".to_string()) && !out.contains(&"STAT".to_string()));
    assert!(out.contains(&"DXIL".to_string()));

    fs::write(dir.path().join("info.rsp"), "--parts 'out put.dxil'").unwrap();
    let o = run("dxinfo", &["@info.rsp"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("DXIL"));

    fs::write(dir.path().join("loop.rsp"), "@loop.rsp").unwrap();
    let o = run("dxstrip", &["@loop.rsp"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("includes itself"), "{}", stderr(&o));
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn root_signature_files_from_the_corpus() {
    let Some((_, all)) = manifest_or_skip("root_signature_files_from_the_corpus") else {
        return;
    };
    let rootsigs: Vec<&Row> = all.iter().filter(|r| r.kind == "rootsig").collect();
    assert!(!rootsigs.is_empty(), "corpus has no root-signature files");
    for r in &rootsigs {
        let bytes = fs::read(&r.path).unwrap();
        let file =
            read_root_signature_file(&bytes).unwrap_or_else(|e| panic!("{}: {e}", r.short()));
        assert!(file.from_container, "{}", r.short());
    }
    // Set one on a DXIL shader, then replace it with bare data through
    // --update-section (no note) and with a container (a note).
    // A shader without resource bindings: any root signature covers it.
    let shader = rows(&all, "dxil", &["PSV0", "DXIL"])
        .into_iter()
        .find(|r| {
            let bytes = fs::read(&r.path).unwrap();
            let c = Container::parse(&bytes).unwrap();
            r.digest_kind == "retail"
                && dxcopy_read::psv0::Psv0::parse(&c.find(PartName::PSV0).unwrap(), None)
                    .is_ok_and(|p| p.resources.is_empty())
        })
        .expect("a signed DXIL shader without resource bindings");
    let dir = tempfile::tempdir().unwrap();
    let rs = &rootsigs[0].path;
    let rs_bytes = fs::read(rs).unwrap();
    let rs_data = read_root_signature_file(&rs_bytes).unwrap().data.to_vec();
    fs::copy(&shader.path, dir.path().join("s.dxil")).unwrap();
    let o = run(
        "dxcopy",
        &[
            &format!("--set-root-signature={}", rs.display()),
            "s.dxil",
            "o.dxil",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = fs::read(dir.path().join("o.dxil")).unwrap();
    let c = Container::parse(&out).unwrap();
    assert_eq!(c.find(PartName::RTS0).unwrap().data, &rs_data[..]);
    let o = run("dxinfo", &["--verify", "o.dxil"], dir.path());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));

    let o = run(
        "dxcopy",
        &[&format!("--update-section=RTS0={}", rs.display()), "o.dxil"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("its RTS0 part was used"),
        "{}",
        stderr(&o)
    );

    // Refused: the shader itself is not a root signature (no RTS0 in it).
    let o = run(
        "dxcopy",
        &["--set-root-signature=s.dxil", "s.dxil", "bad.dxil"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not a valid root signature"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("bad.dxil").exists());
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn binding_coverage_on_corpus_shaders() {
    let Some((_, all)) = manifest_or_skip("binding_coverage_on_corpus_shaders") else {
        return;
    };
    // An empty root signature covers nothing: every resource binding of every
    // DXIL shader is reported, once.
    let empty: Vec<u8> = [2u32, 0, 24, 0, 24, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let empty = read_root_signature_file(&empty).unwrap().signature;
    let mut shaders = 0;
    let mut bindings = 0;
    for r in rows(&all, "dxil", &["PSV0", "DXIL"]) {
        let bytes = fs::read(&r.path).unwrap();
        let c = Container::parse(&bytes).unwrap();
        let Ok(coverage) = check_container(&c, CheckAgainst::External(&empty)) else {
            continue;
        };
        let psv = dxcopy_read::psv0::Psv0::parse(&c.find(PartName::PSV0).unwrap(), None).unwrap();
        let real: Vec<_> = psv
            .resources
            .iter()
            .filter(|b| b.resource_type != dxcopy_read::psv0::ResourceType::Invalid)
            .collect();
        match coverage {
            ContainerCoverage::Covered(n, source) => {
                assert_eq!(source, BindingSource::Psv0);
                assert!(real.is_empty(), "{}: {n}", r.short())
            }
            ContainerCoverage::Uncovered(list) => {
                assert_eq!(list.len(), real.len(), "{}", r.short());
                bindings += list.len();
            }
            ContainerCoverage::NotChecked(why) => panic!("{}: PSV0 present: {why}", r.short()),
        }
        shaders += 1;
        // Its own RTS0 (none in these files): nothing to check.
        if c.find(PartName::RTS0).is_none() {
            assert_eq!(
                check_container(&c, CheckAgainst::Own).unwrap(),
                ContainerCoverage::NotChecked(NotChecked::NoRootSignature)
            );
        }
    }
    assert!(
        shaders > 0 && bindings > 0,
        "{shaders} shaders, {bindings} bindings"
    );
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn dxinfo_verify_checks_root_signature_coverage() {
    let Some((_, all)) = manifest_or_skip("dxinfo_verify_checks_root_signature_coverage") else {
        return;
    };
    // A DXIL shader with resource bindings, and an empty root signature.
    let shader = rows(&all, "dxil", &["PSV0", "DXIL"])
        .into_iter()
        .find(|r| {
            let bytes = fs::read(&r.path).unwrap();
            let c = Container::parse(&bytes).unwrap();
            dxcopy_read::psv0::Psv0::parse(&c.find(PartName::PSV0).unwrap(), None)
                .is_ok_and(|p| !p.resources.is_empty())
        })
        .expect("a DXIL shader with resource bindings");
    let dir = tempfile::tempdir().unwrap();
    fs::copy(&shader.path, dir.path().join("s.dxil")).unwrap();
    let empty: Vec<u8> = [2u32, 0, 24, 0, 24, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    fs::write(dir.path().join("empty.rts0"), empty).unwrap();
    let o = run(
        "dxinfo",
        &["--verify", "--root-signature=empty.rts0", "s.dxil"],
        dir.path(),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("is not bound by the root signature"), "{out}");
    assert!(out.contains("(root signature 'empty.rts0')"), "{out}");

    // The same root signature as the shader's own RTS0: checked without an option.
    let o = run(
        "dxcopy",
        &["--set-root-signature=empty.rts0", "s.dxil", "own.dxil"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run("dxinfo", &["--verify", "own.dxil"], dir.path());
    let own = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{own}");
    assert_eq!(
        own.matches("(its RTS0)").count(),
        out.matches("(root signature 'empty.rts0')").count(),
        "{own}"
    );
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn dxinfo_verify_checks_dxbc_bindings_from_rdef_and_says_when_it_cannot() {
    let Some((_, all)) =
        manifest_or_skip("dxinfo_verify_checks_dxbc_bindings_from_rdef_and_says_when_it_cannot")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let empty: Vec<u8> = [2u32, 0, 24, 0, 24, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    fs::write(dir.path().join("empty.rts0"), empty).unwrap();
    // fxc shaders with RDEF bindings and no PSV0: each RDEF resource is reported.
    let mut checked = 0;
    for r in rows(&all, "dxbc", &["RDEF"]).into_iter().take(40) {
        let bytes = fs::read(&r.path).unwrap();
        let c = Container::parse(&bytes).unwrap();
        if c.find(PartName::PSV0).is_some() || dxbc::shader_part(&c).is_none() {
            continue;
        }
        let Ok(defs) =
            dxcopy_read::rdef::ResourceDefinitions::parse(&c.find(PartName::RDEF).unwrap())
        else {
            continue;
        };
        fs::copy(&r.path, dir.path().join("s.dxbc")).unwrap();
        let o = run(
            "dxinfo",
            &["--verify", "--root-signature=empty.rts0", "s.dxbc"],
            dir.path(),
        );
        let out = String::from_utf8_lossy(&o.stdout);
        let reported = out.matches("RDEF ").count();
        assert_eq!(reported, defs.resources.len(), "{}: {out}", r.short());
        assert_eq!(
            o.status.code(),
            Some(if defs.resources.is_empty() { 0 } else { 1 }),
            "{}: {out}",
            r.short()
        );
        checked += usize::from(reported > 0);
    }
    assert!(checked > 0, "no fxc shader with RDEF bindings");
    // A stripped fxc shader (no RDEF, no PSV0): a warning that nothing was checked.
    let stripped = rows(&all, "dxbc", &["SHDR"])
        .into_iter()
        .find(|r| {
            let bytes = fs::read(&r.path).unwrap();
            let c = Container::parse(&bytes).unwrap();
            c.find(PartName::RDEF).is_none() && c.find(PartName::PSV0).is_none()
        })
        .expect("a stripped fxc shader");
    fs::copy(&stripped.path, dir.path().join("stripped.dxbc")).unwrap();
    let o = run(
        "dxinfo",
        &["--verify", "--root-signature=empty.rts0", "stripped.dxbc"],
        dir.path(),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "stripped.dxbc: warning: bindings not checked against root signature 'empty.rts0': the container records no resource bindings (no PSV0 or RDEF part; reflection was stripped)"
        ),
        "{out}"
    );
    assert!(!out.contains(": OK"), "{out}");
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn repeated_dxil_parts_are_refused_by_dxcopy_and_dxstrip() {
    let Some((_, all)) = manifest_or_skip("repeated_dxil_parts_are_refused_by_dxcopy_and_dxstrip")
    else {
        return;
    };
    let row = rows(&all, "dxil", &["DXIL"])[0];
    let bytes = fs::read(&row.path).unwrap();
    let c = Container::parse(&bytes).unwrap();
    let mut plan = dxcopy_edit::EditPlan::from_container(&c);
    plan.add_raw(
        PartName::DXIL,
        c.find(PartName::DXIL).unwrap().data.to_vec(),
    );
    let two = plan.finish().unwrap().to_vec();
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("two.dxil"), &two).unwrap();
    for (tool_name, args) in [
        ("dxcopy", vec!["two.dxil", "out.dxil"]),
        ("dxstrip", vec!["two.dxil"]),
    ] {
        let o = run(tool_name, &args, dir.path());
        assert_eq!(o.status.code(), Some(1), "{tool_name}");
        assert!(
            stderr(&o).contains("more than one DXIL part"),
            "{}",
            stderr(&o)
        );
        assert_eq!(fs::read(dir.path().join("two.dxil")).unwrap(), two);
    }
    assert!(!dir.path().join("out.dxil").exists());
    // dxinfo still shows it; --verify reports the duplicate.
    let o = run("dxinfo", &["--parts", "two.dxil"], dir.path());
    assert!(o.status.success());
    let o = run("dxinfo", &["--verify", "two.dxil"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("duplicate"));
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn split_to_a_new_directory_and_join_from_it() {
    let Some((_, all)) = manifest_or_skip("split_to_a_new_directory_and_join_from_it") else {
        return;
    };
    let row = rows(&all, "dxil", &["ILDB", "HASH", "DXIL"])[0];
    let dir = tempfile::tempdir().unwrap();
    fs::copy(&row.path, dir.path().join("full.dxil")).unwrap();
    let o = run(
        "dxcopy",
        &["--split-debug=new/pdbs/", "full.dxil", "stripped.dxil"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        fs::read_dir(dir.path().join("new/pdbs")).unwrap().count(),
        1
    );
    let o = run(
        "dxcopy",
        &["--add-debug-from=new/pdbs", "stripped.dxil", "joined.dxil"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("debug info taken from"),
        "{}",
        stderr(&o)
    );
    let full = fs::read(dir.path().join("full.dxil")).unwrap();
    let joined = fs::read(dir.path().join("joined.dxil")).unwrap();
    let ildb = |b: &[u8]| {
        Container::parse(b)
            .unwrap()
            .find(PartName::ILDB)
            .unwrap()
            .data
            .to_vec()
    };
    assert_eq!(ildb(&full), ildb(&joined));
}
