//! One invocation over many files in parallel (dxstrip, and the Python
//! package's `strip_files`): worker threads take the next file from a shared
//! counter and run [`Config::run`] on it; results come back to the calling
//! thread, which hands them on in input order. A bad file gives an error for
//! that file; the others are still processed.

use crate::config::{Config, Report};
use crate::error::Result;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// The default number of workers: two per core.
///
/// A file's edit spends most of its time in the kernel and part of it
/// waiting there (allocating the temp file's inode, the rename, freeing the
/// replaced inode), so a second worker per core keeps every core busy: on
/// two cores, `dxstrip` over 2,000 small corpus files in place runs
/// 15–75 % faster with four workers than with two (docs/bench.md).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_mul(2))
}

/// Runs `config` on every file of `files` with `jobs` workers (`None`:
/// [`default_jobs`]; never more than there are files). `output`, when given, is the
/// destination of every file (meant for a single file).
///
/// `on_done` is called as each file finishes (in any order), for progress;
/// `on_result` receives each file's index and outcome in input order. Both
/// run on the calling thread.
pub fn run_many(
    config: &Config,
    files: &[PathBuf],
    output: Option<&Path>,
    jobs: Option<usize>,
    mut on_done: impl FnMut(),
    mut on_result: impl FnMut(usize, Result<Report>),
) {
    if files.is_empty() {
        return;
    }
    let jobs = jobs.unwrap_or_else(default_jobs).clamp(1, files.len());
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                let r = config.run(file, output);
                if tx.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut reported = 0usize;
        for (i, r) in rx {
            on_done();
            pending.insert(i, r);
            while let Some(r) = pending.remove(&reported) {
                on_result(reported, r);
                reported += 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::ContainerBuilder;
    use crate::strip::StripClass;
    use dxcopy_read::program::ShaderKind;
    use dxcopy_read::{Container, PartName};

    #[test]
    fn strips_in_parallel_and_reports_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let good = ContainerBuilder::new()
            .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xde")
            .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xdedbg")
            .build()
            .unwrap();
        let files: Vec<_> = (0..9)
            .map(|i| dir.path().join(format!("{i}.dxil")))
            .collect();
        let config = Config {
            strip: vec![StripClass::Debug],
            ..Config::default()
        };
        for jobs in [None, Some(1), Some(4), Some(100)] {
            for (i, path) in files.iter().enumerate() {
                // Every third file is not a container.
                let bytes: &[u8] = if i % 3 == 1 {
                    b"not a container"
                } else {
                    &good
                };
                std::fs::write(path, bytes).unwrap();
            }
            let mut order = Vec::new();
            let mut done = 0;
            run_many(
                &config,
                &files,
                None,
                jobs,
                || done += 1,
                |i, r| {
                    assert_eq!(r.is_err(), i % 3 == 1, "file {i}: {r:?}");
                    if let Ok(report) = r {
                        assert_eq!((report.parts_before, report.parts_after), (2, 1));
                    }
                    order.push(i);
                },
            );
            assert_eq!(done, files.len());
            assert_eq!(order, (0..files.len()).collect::<Vec<_>>());
        }
        let stripped = std::fs::read(&files[0]).unwrap();
        let c = Container::parse(&stripped).unwrap();
        assert!(c.find(PartName::ILDB).is_none());
        assert!(c.find(PartName::DXIL).is_some());
        assert_eq!(std::fs::read(&files[1]).unwrap(), b"not a container");
        // No files: nothing is called.
        run_many(&config, &[], None, None, || panic!(), |_, _| panic!());
    }
}
