//! Large data files given to `--add-section`, `--update-section` and
//! `--set-private` are streamed from their mapping to the output, as the
//! input's kept parts are: the heap never holds them. A counting global
//! allocator (process-wide, so the writer's helper threads count too)
//! measures the peak of live heap bytes during each run.

use dxcopy_edit::{Config, ContainerBuilder, DigestPolicy, Edits};
use dxcopy_harness::alloc::{Counting, ProcessCounts};
use dxcopy_read::{Container, PartName};
use std::path::Path;

#[global_allocator]
static ALLOCATOR: Counting<ProcessCounts> = Counting(ProcessCounts);

/// Runs `config` and returns the peak of live heap bytes above what was
/// live when it started.
fn peak_heap_of(config: &Config, input: &Path, output: &Path) -> usize {
    ProcessCounts::measure(|| {
        config.run(input, Some(output)).expect("the run succeeds");
    })
    .peak
}

/// 20 MiB and 3 bytes: not a multiple of 4, so the part gets one zero byte
/// of padding (PRIV none).
const BIG: usize = (20 << 20) + 3;

/// The heap a run may use besides the data: headers, tables, buffers.
const HEAP_ALLOWANCE: usize = 4 << 20;

#[test]
fn large_data_files_are_streamed_not_copied_to_the_heap() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.dxil");
    let container = ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .part(b"BIGD", b"old!")
        .build()
        .unwrap();
    std::fs::write(&input, &container).unwrap();
    let data_path = dir.path().join("big.bin");
    let data: Vec<u8> = (0..BIG).map(|i| (i % 251) as u8 | 1).collect();
    std::fs::write(&data_path, &data).unwrap();
    let output = dir.path().join("out.dxil");
    let runs: [(&str, PartName, Config); 3] = [
        (
            "--add-section",
            PartName(*b"BIGE"),
            Config {
                edits: Edits {
                    add: vec![("BIGE".into(), data_path.clone())],
                    ..Edits::default()
                },
                ..Config::default()
            },
        ),
        (
            "--update-section",
            PartName(*b"BIGD"),
            Config {
                edits: Edits {
                    update: vec![("BIGD".into(), data_path.clone())],
                    ..Edits::default()
                },
                ..Config::default()
            },
        ),
        (
            "--set-private",
            PartName::PRIV,
            Config {
                edits: Edits {
                    set_private: Some(data_path.clone()),
                    ..Edits::default()
                },
                ..Config::default()
            },
        ),
    ];
    for (option, name, mut config) in runs {
        // Signed: the digest is computed over the streamed data too.
        config.digest = DigestPolicy::Retail;
        let peak = peak_heap_of(&config, &input, &output);
        assert!(
            peak < HEAP_ALLOWANCE,
            "{option}: {peak} bytes of heap for a {BIG}-byte data file"
        );
        let written = std::fs::read(&output).unwrap();
        let c = Container::parse(&written).unwrap();
        let part = c.find(name).unwrap();
        let padding = if name == PartName::PRIV { 0 } else { 1 };
        assert_eq!(part.data.len(), BIG + padding, "{option}");
        assert!(part.data[..BIG] == data[..], "{option}: the data differs");
        assert!(part.data[BIG..].iter().all(|&b| b == 0), "{option}");
        let (retail, _) = dxcopy_read::digest::container_digests(&written).unwrap();
        assert_eq!(written[4..20], retail, "{option}: the digest");
        assert_eq!(c.find(PartName(*b"SFI0")).unwrap().data, [0; 8]);
    }
    // Small data is copied and padded as before: the same bytes as an
    // in-memory plan gives.
    std::fs::write(&data_path, b"abcde").unwrap();
    let config = Config {
        edits: Edits {
            add: vec![("SMAL".into(), data_path.clone())],
            ..Edits::default()
        },
        ..Config::default()
    };
    config.run(&input, Some(&output)).unwrap();
    let written = std::fs::read(&output).unwrap();
    let c = Container::parse(&written).unwrap();
    assert_eq!(c.find(PartName(*b"SMAL")).unwrap().data, b"abcde\0\0\0");
}
