//! Scanning files and trees, extraction and survey rows.

use super::*;
use dxcopy_read::scan::rows::column_names;

/// A stub of LLVM bitcode: the magic and an empty block.
const BITCODE: &[u8] = b"BC\xc0\xde\x35\x14\0\0\x05\0\0\0\x62\x0c\x30\x24";

/// A cs_6_5 DXIL container with a HASH part whose digest is `hash`.
fn dxil(hash: u8) -> Vec<u8> {
    dxil_with_flags(hash, 0)
}

/// [`dxil`] with SFI0 flags `flags`: other bytes, the same HASH.
fn dxil_with_flags(hash: u8, flags: u8) -> Vec<u8> {
    let mut hash_part = 0u32.to_le_bytes().to_vec();
    hash_part.extend_from_slice(&[hash; 16]);
    crate::ContainerBuilder::new()
        .part(b"SFI0", &[flags, 0, 0, 0, 0, 0, 0, 0])
        .part(b"HASH", &hash_part)
        .program(
            b"DXIL",
            dxcopy_read::ShaderKind::Compute,
            (6, 5),
            (1, 5),
            BITCODE,
        )
        .build()
        .expect("a container")
}

fn scan_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn a_container_found_twice_is_extracted_once() {
    let dir = scan_dir();
    let a = dir.path().join("a.bin");
    let b = dir.path().join("b.bin");
    let c = dxil(0x11);
    let mut bytes = b"junk".to_vec();
    bytes.extend(&c);
    bytes.extend(b"more junk!");
    bytes.extend(&c);
    std::fs::write(&a, &bytes).unwrap();
    std::fs::write(&b, &c).unwrap();
    let out = dir.path().join("out");
    let extract = |out: &Path| {
        let mut x = Extractor::new(out).unwrap();
        let mut errors = Vec::new();
        scan_paths(
            &[a.clone(), b.clone()],
            false,
            &ScanOptions::default(),
            &mut |s| match s {
                Scanned::Event(Event::Container {
                    path,
                    offset,
                    verified,
                }) => {
                    x.add(path, offset, verified).unwrap();
                }
                other => errors.push(format!("{other:?}")),
            },
        );
        assert!(errors.is_empty(), "{errors:?}");
        x.finish().unwrap()
    };
    let got = extract(&out);
    assert_eq!(got.len(), 1);
    let name = format!("{}.dxil", "11".repeat(16));
    assert_eq!(got[0].file, name);
    assert!(got[0].written);
    let places: Vec<(String, u64)> = vec![
        (a.display().to_string(), 4),
        (a.display().to_string(), 4 + c.len() as u64 + 10),
        (b.display().to_string(), 0),
    ];
    assert_eq!(got[0].places, places);
    assert_eq!(std::fs::read(out.join(&name)).unwrap(), c);
    let tsv = std::fs::read_to_string(out.join("manifest.tsv")).unwrap();
    assert_eq!(tsv.lines().count(), 4);
    assert!(tsv
        .lines()
        .nth(2)
        .unwrap()
        .ends_with(&format!("\t{}", 4 + c.len() + 10)));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(json["containers"][0]["places"].as_array().unwrap().len(), 3);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [name.as_str(), "manifest.json", "manifest.tsv"]);
    // A second run finds the same file there: nothing rewritten.
    let again = extract(&out);
    assert!(!again[0].written);
}

#[test]
fn a_name_taken_by_other_bytes_is_never_replaced() {
    let dir = scan_dir();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let name = format!("{}.dxil", "22".repeat(16));
    std::fs::write(out.join(&name), b"someone else's file").unwrap();
    let c = dxil(0x22);
    let verified = dxcopy_read::scan::verify_at(&c, 0).unwrap();
    let mut x = Extractor::new(&out).unwrap();
    let entry = x.add("in", 0, &verified).unwrap().clone();
    let md5 = dxcopy_read::fields::hex(&dxcopy_read::hash::md5_of(&c));
    assert_eq!(entry.file, format!("{}-{md5}.dxil", "22".repeat(16)));
    assert_eq!(
        std::fs::read(out.join(&name)).unwrap(),
        b"someone else's file"
    );
    // Same HASH, other bytes (another build): the longer name too.
    let other = dxil_with_flags(0x22, 1);
    let verified = dxcopy_read::scan::verify_at(&other, 0).unwrap();
    let second = x.add("in2", 0, &verified).unwrap();
    assert!(second.file.starts_with(&format!("{}-", "22".repeat(16))));
    assert_ne!(second.file, entry.file);
}

#[cfg(any(target_os = "linux", target_os = "android"))]
#[test]
fn a_fifo_in_a_tree_is_one_failure_never_a_hang() {
    use rustix::fs::{mknodat, FileType, Mode, CWD};
    let dir = scan_dir();
    let fifo = dir.path().join("pipe");
    mknodat(CWD, &fifo, FileType::Fifo, Mode::from_raw_mode(0o600), 0).expect("mkfifo");
    std::fs::write(dir.path().join("s.dxil"), dxil(1)).unwrap();
    let mut found = 0;
    let mut failures = Vec::new();
    let roots = [dir.path().to_path_buf(), fifo.clone()];
    scan_paths(&roots, true, &ScanOptions::default(), &mut |s| match s {
        Scanned::Event(Event::Container { .. }) => found += 1,
        Scanned::Failed(e) => failures.push(e.to_string()),
        Scanned::Event(_) => {}
    });
    assert_eq!(found, 1);
    let shown = format!("'{}' is a FIFO", fifo.display());
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(
        failures.iter().all(|f| f.starts_with(&shown)),
        "{failures:?}"
    );
    // Opened directly, it is refused without blocking.
    assert!(matches!(
        open_regular(&fifo),
        Err(InputError::NotRegular { .. })
    ));
    // A device named is one failure too, never read.
    let (files, failures) = input_files(&[PathBuf::from("/dev/zero")], false);
    assert!(files.is_empty());
    assert!(
        matches!(
            &failures[..],
            [InputError::NotRegular {
                kind: FileKind::CharacterDevice,
                ..
            }]
        ),
        "{failures:?}"
    );
}

#[test]
fn a_directory_needs_recursion_and_a_missing_file_is_reported() {
    let dir = scan_dir();
    let (files, failures) =
        input_files(&[dir.path().to_path_buf(), dir.path().join("nope")], false);
    assert!(files.is_empty());
    assert!(matches!(failures[0], InputError::Directory { .. }));
    assert!(
        matches!(&failures[1], InputError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    );
}

#[test]
fn survey_rows_hold_the_decoded_facts() {
    let dir = scan_dir();
    let path = dir.path().join("s.dxil");
    let c = dxil(0x33);
    std::fs::write(&path, &c).unwrap();
    let names = column_names();
    for scan in [None, Some(&ScanOptions::default())] {
        let mut rows = Vec::new();
        survey_paths(std::slice::from_ref(&path), false, scan, &mut |s| match s {
            Surveyed::Row(row) => rows.push(row),
            other => panic!("{other:?}"),
        });
        assert_eq!(rows.len(), 1);
        let cell = |name: &str| rows[0][names.iter().position(|n| n == name).unwrap()].clone();
        assert_eq!(cell("path"), path.display().to_string().as_str());
        assert_eq!(cell("offset"), 0);
        assert_eq!(cell("size"), c.len() as u64);
        assert_eq!(cell("kind"), "DXIL");
        assert_eq!(cell("stage"), "Compute");
        assert_eq!(cell("shader_model"), "6.5");
        assert_eq!(cell("hash"), "33".repeat(16).as_str());
        assert_eq!(cell("digest_kind"), "zero");
        assert_eq!(cell("part_count"), 3);
        assert_eq!(cell("parts"), "SFI0:8 HASH:20 DXIL:40");
        assert_eq!(cell("debug_bytes"), 0);
        assert_eq!(cell("instruction_count"), serde_json::Value::Null);
        assert_eq!(cell("stat_InstructionCount"), serde_json::Value::Null);
    }
}

#[test]
fn a_walked_tree_survey_skips_other_files_but_a_named_one_fails() {
    let dir = scan_dir();
    std::fs::write(dir.path().join("notes.txt"), b"hello").unwrap();
    std::fs::write(dir.path().join("s.dxil"), dxil(4)).unwrap();
    let mut rows = 0;
    let mut failures = Vec::new();
    let mut visit = |s: Surveyed<'_>| match s {
        Surveyed::Row(_) => rows += 1,
        Surveyed::Failed(f) => failures.push(f),
        Surveyed::Rejected(_) => {}
    };
    survey_paths(&[dir.path().to_path_buf()], true, None, &mut visit);
    survey_paths(&[dir.path().join("notes.txt")], false, None, &mut visit);
    assert_eq!(rows, 1);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("notes.txt"));
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_rows_agree_with_the_typed_readers() {
    use dxcopy_harness::corpus::manifest_or_skip;
    use dxcopy_read::dxil::Module;
    use dxcopy_read::reflect::counters::Counters;
    use dxcopy_read::{PartName, Program, ShaderHash};
    let Some((_, manifest)) = manifest_or_skip("corpus rows") else {
        return;
    };
    let names = column_names();
    let col = |name: &str| names.iter().position(|n| n == name).unwrap();
    let (mut checked, mut counted, mut recorded_counts) = (0, 0, 0);
    for entry in manifest
        .iter()
        .filter(|r| r.kind == "dxil" || r.kind == "dxbc")
    {
        let path = entry.path.clone();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(container) = Container::parse(&bytes) else {
            continue;
        };
        let mut rows = Vec::new();
        survey_paths(std::slice::from_ref(&path), false, None, &mut |s| {
            if let Surveyed::Row(r) = s {
                rows.push(r)
            }
        });
        let row = &rows[0];
        assert_eq!(row[col("size")], u64::from(container.header().file_size));
        assert_eq!(row[col("part_count")], container.part_count());
        let kind = if container.find(PartName::DXIL).is_some() {
            "DXIL"
        } else {
            "DXBC"
        };
        assert_eq!(row[col("kind")], kind, "{}", entry.rel);
        if let Some(p) = container
            .find(PartName::DXIL)
            .and_then(|p| Program::parse(&p).ok())
        {
            let model = format!("{}.{}", p.model_major, p.model_minor);
            assert_eq!(row[col("shader_model")], model.as_str(), "{}", entry.rel);
            assert_eq!(
                row[col("stage")],
                p.shader_kind.to_string().as_str(),
                "{}",
                entry.rel
            );
        }
        let hash = container
            .find(PartName::HASH)
            .and_then(|p| ShaderHash::parse(&p).ok());
        let want = hash.map_or(serde_json::Value::Null, |h| {
            dxcopy_read::fields::hex(&h.digest).into()
        });
        assert_eq!(row[col("hash")], want, "{}", entry.rel);
        assert_eq!(
            row[col("digest_kind")],
            entry.digest_kind.as_str(),
            "{}",
            entry.rel
        );
        // A DXIL row's instruction count is dxc's `insts`: what the
        // reflection module's dx.counters records, when it has them, and
        // what dxc's counting over the bodies gives.
        if let Some(p) = container
            .find(PartName::DXIL)
            .and_then(|p| Program::parse(&p).ok())
        {
            let count = row[col("instruction_count")].as_u64();
            if let Ok(dxil) = Module::parse(p.bitcode) {
                let insts = Counters::count(&dxil).insts;
                assert_eq!(count, Some(u64::from(insts)), "{}", entry.rel);
                counted += 1;
            }
            let stat = container
                .find(PartName::STAT)
                .and_then(|p| Program::parse(&p).ok())
                .and_then(|p| Module::parse(p.bitcode).ok());
            if let Some(recorded) = stat.as_ref().and_then(Counters::from_metadata) {
                assert_eq!(count, Some(u64::from(recorded.insts)), "{}", entry.rel);
                recorded_counts += 1;
            }
        }
        checked += 1;
    }
    assert!(checked > 1000, "{checked} corpus containers");
    assert!(counted > 600, "{counted} DXIL instruction counts");
    assert!(
        recorded_counts > 200,
        "{recorded_counts} counts against dx.counters"
    );
}
