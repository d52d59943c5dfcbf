//! One invocation over many files in parallel (dxstrip, and the Python
//! package's `strip_files`): worker threads take the next file from a shared
//! counter and run [`Config::run`] on it; results come back to the calling
//! thread, which hands them on in input order. A bad file gives an error for
//! that file; the others are still processed.
//!
//! Workers leave each result in a shared list and do not wake the calling
//! thread for it: it collects what is there every [`TICK`] (for a progress
//! bar) and is woken once, by the worker that finishes the last file. Waking
//! it per file costs two futex calls per file, more than a small file's
//! whole run when it has nothing to write.

use crate::config::{Config, Report};
use crate::error::Result;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// How often the calling thread collects finished files while it waits.
pub const TICK: Duration = Duration::from_millis(50);

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
/// `default_jobs`; never more than there are files). `output`, when given, is the
/// destination of every file (meant for a single file).
///
/// `on_done` is called as each file finishes (in any order, a few at a time),
/// for progress; `on_result` receives each file's index and outcome in input
/// order. Both run on the calling thread.
pub fn run_many(
    config: &Config,
    files: &[PathBuf],
    output: Option<&Path>,
    jobs: Option<usize>,
    on_done: impl FnMut(),
    on_result: impl FnMut(usize, Result<Report>),
) {
    let jobs = jobs
        .unwrap_or_else(default_jobs)
        .clamp(1, files.len().max(1));
    // A `--digest=auto` strip classifies every input it changes, which
    // hashes it whole: workers take several files at a time and hash them
    // side by side (Config::run_batch), as long as every worker still gets
    // a share of the files.
    let chunk = if config.batches_digests() {
        files.len().div_ceil(jobs).clamp(1, BATCH)
    } else {
        1
    };
    run_each(
        files.len(),
        Some(jobs),
        chunk,
        |range| {
            if range.len() == 1 {
                vec![config.run(&files[range.start], output)]
            } else {
                config.run_batch(&files[range], output)
            }
        },
        on_done,
        on_result,
    );
}

/// How many files a worker takes at a time when it hashes them together:
/// enough for messages of different lengths to keep every lane busy
/// (docs/bench.md), few enough to keep the files it holds open small.
const BATCH: usize = 16;

/// [`run_many`] where some files were found by walking directories
/// (`walked[i]`): such a file that is not a container is left alone and its
/// outcome is `Ok(None)` (see [`Config::run_if_container`]). Files named
/// directly are run as [`run_many`] runs them.
pub fn run_many_walked(
    config: &Config,
    files: &[PathBuf],
    walked: &[bool],
    output: Option<&Path>,
    jobs: Option<usize>,
    on_done: impl FnMut(),
    on_result: impl FnMut(usize, Result<Option<Report>>),
) {
    let jobs = jobs
        .unwrap_or_else(default_jobs)
        .clamp(1, files.len().max(1));
    run_each(
        files.len(),
        Some(jobs),
        batch_size(config, files.len(), jobs),
        |range| {
            if range.len() > 1 {
                let flags: Vec<bool> = range
                    .clone()
                    .map(|i| walked.get(i).copied().unwrap_or(false))
                    .collect();
                return config.run_batch_walked(&files[range], &flags, output);
            }
            let i = range.start;
            vec![if walked.get(i).copied().unwrap_or(false) {
                config.run_if_container(&files[i], output)
            } else {
                config.run(&files[i], output).map(Some)
            }]
        },
        on_done,
        on_result,
    );
}

/// How many files a worker takes at a time: up to [`BATCH`] when `config`
/// hashes inputs ahead ([`Config::run_batch`]), as long as every one of the
/// `jobs` workers still gets a share of the `count` files; else one.
fn batch_size(config: &Config, count: usize, jobs: usize) -> usize {
    if config.batches_digests() {
        count.div_ceil(jobs).clamp(1, BATCH)
    } else {
        1
    }
}

/// Runs `run` on every `i < count` on `jobs` workers, `chunk` indices at a
/// time (`run` returns one result per index of its range); see [`run_many`].
pub(crate) fn run_each<R: Send>(
    count: usize,
    jobs: Option<usize>,
    chunk: usize,
    run: impl Fn(Range<usize>) -> Vec<R> + Sync,
    mut on_done: impl FnMut(),
    mut on_result: impl FnMut(usize, R),
) {
    if count == 0 {
        return;
    }
    let jobs = jobs.unwrap_or_else(default_jobs).clamp(1, count);
    let next = AtomicUsize::new(0);
    let live = AtomicUsize::new(jobs);
    let results: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::new());
    let caller = std::thread::current();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let (next, results, run) = (&next, &results, &run);
            let exit = WorkerExit {
                live: &live,
                caller: &caller,
            };
            s.spawn(move || {
                let _exit = exit;
                loop {
                    let start = next.fetch_add(chunk, Ordering::Relaxed);
                    if start >= count {
                        break;
                    }
                    let range = start..(start + chunk).min(count);
                    let done = run(range.clone());
                    debug_assert_eq!(done.len(), range.len());
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .extend(range.zip(done));
                }
            });
        }
        let mut pending = BTreeMap::new();
        let mut reported = 0usize;
        let mut batch = Vec::new();
        loop {
            // Read before collecting: results are left before a worker exits.
            let all_exited = live.load(Ordering::Acquire) == 0;
            std::mem::swap(
                &mut batch,
                &mut *results.lock().unwrap_or_else(|e| e.into_inner()),
            );
            for (i, r) in batch.drain(..) {
                on_done();
                pending.insert(i, r);
            }
            while let Some(r) = pending.remove(&reported) {
                on_result(reported, r);
                reported += 1;
            }
            if all_exited {
                break;
            }
            std::thread::park_timeout(TICK);
        }
    });
}

/// Counts a worker out when it ends (normally or by a panic, which the
/// scope then hands on) and wakes the calling thread after the last one.
struct WorkerExit<'a> {
    live: &'a AtomicUsize,
    caller: &'a std::thread::Thread,
}

impl Drop for WorkerExit<'_> {
    fn drop(&mut self) {
        if self.live.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.caller.unpark();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::ContainerBuilder;
    use crate::config::Edits;
    use crate::strip::StripClass;
    use dxcopy_read::ShaderKind;
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
            edits: Edits {
                strip: vec![StripClass::Debug],
                ..Edits::default()
            },
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

    #[test]
    fn batches_hash_ahead_and_give_what_one_by_one_runs_give() {
        use crate::policy::DigestPolicy;
        use dxcopy_read::digest::{self, DigestKind};
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // Retail, debug, zero, stale and foreign digests, programs of many
        // sizes (so the lanes run out at different blocks), files without
        // debug parts, and files that are not containers.
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for i in 0..37usize {
            let body = vec![b'x'; 1 + i * 97 % 3000];
            let mut b = ContainerBuilder::new().program(
                b"DXIL",
                ShaderKind::Pixel,
                (6, 0),
                (1, 0),
                &[b"BC\xc0\xde", &body[..]].concat(),
            );
            if i % 5 != 4 {
                b = b.program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), &body);
            }
            let policy = match i % 4 {
                0 => DigestPolicy::Retail,
                1 => DigestPolicy::Debug,
                2 => DigestPolicy::Zero,
                _ => DigestPolicy::Retail,
            };
            let mut c = b.digest(policy).build().unwrap();
            if i % 4 == 3 {
                c[7] ^= 0x5a; // a stale digest: kept, with a warning
            }
            inputs.push(if i % 9 == 8 {
                b"not a container".to_vec()
            } else {
                c
            });
        }
        let config = Config {
            edits: Edits {
                strip: vec![StripClass::Debug],
                ..Edits::default()
            },
            ..Config::default()
        };
        assert!(config.batches_digests());
        // Retail, debug and stale inputs with debug parts are hashed ahead.
        let ahead = inputs.iter().filter(|c| config.hashes_ahead(c)).count();
        assert_eq!(ahead, 20, "inputs hashed ahead");
        let files: Vec<_> = (0..inputs.len())
            .map(|i| d.join(format!("{i}.dxil")))
            .collect();
        let write_all = || {
            for (f, bytes) in files.iter().zip(&inputs) {
                std::fs::write(f, bytes).unwrap();
            }
        };
        write_all();
        let one_by_one: Vec<_> = files.iter().map(|f| config.run(f, None)).collect();
        let want: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
        let kinds: Vec<_> = want.iter().map(|c| digest::classify(c)).collect();
        assert!(kinds.contains(&DigestKind::Retail) && kinds.contains(&DigestKind::Debug));
        for batch in [2, 5, 16, files.len()] {
            write_all();
            let mut got = Vec::new();
            for chunk in files.chunks(batch) {
                got.extend(config.run_batch(chunk, None));
            }
            for (i, (g, w)) in got.iter().zip(&one_by_one).enumerate() {
                match (g, w) {
                    (Ok(g), Ok(w)) => {
                        assert_eq!(g.warnings, w.warnings, "file {i}");
                        assert_eq!(g.output_digest, w.output_digest, "file {i}");
                        assert_eq!(g.unchanged, w.unchanged, "file {i}");
                    }
                    (Err(g), Err(w)) => assert_eq!(g.to_string(), w.to_string(), "file {i}"),
                    _ => panic!("file {i}: {g:?} against {w:?}"),
                }
                assert_eq!(
                    std::fs::read(&files[i]).unwrap(),
                    want[i],
                    "file {i}, batch {batch}"
                );
            }
        }
        // Through run_many, whose workers take several files at a time.
        write_all();
        run_many(&config, &files, None, Some(2), || {}, |_, _| {});
        for (i, f) in files.iter().enumerate() {
            assert_eq!(std::fs::read(f).unwrap(), want[i], "file {i}");
        }
    }

    #[test]
    fn walked_files_that_are_not_containers_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let good = ContainerBuilder::new()
            .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xde")
            .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xdedbg")
            .build()
            .unwrap();
        let pdb_like = b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0".to_vec();
        let rows: [(&str, &[u8], bool); 5] = [
            ("a.dxil", &good, true),
            ("notes.dxil", b"DXB", true),
            ("shader.pdb", &pdb_like, true),
            ("named.txt", b"not a container", false),
            ("b.dxil", &good, false),
        ];
        let files: Vec<_> = rows.iter().map(|(n, ..)| d.join(n)).collect();
        // One worker takes all five files as a batch, two take three and
        // two, five take one each.
        for jobs in [1, 2, 5] {
            for ((_, bytes, _), path) in rows.iter().zip(&files) {
                std::fs::write(path, bytes).unwrap();
            }
            let walked: Vec<bool> = rows.iter().map(|r| r.2).collect();
            let config = Config {
                edits: Edits {
                    strip: vec![StripClass::Debug],
                    ..Edits::default()
                },
                ..Config::default()
            };
            let mut outcomes = Vec::new();
            run_many_walked(
                &config,
                &files,
                &walked,
                None,
                Some(jobs),
                || {},
                |i, r| {
                    outcomes.push((i, r.map(|r| r.map(|r| r.parts_after))));
                },
            );
            let got: Vec<String> = outcomes
                .iter()
                .map(|(i, r)| match r {
                    Ok(Some(parts)) => format!("{i}: {parts} parts"),
                    Ok(None) => format!("{i}: skipped"),
                    Err(_) => format!("{i}: error"),
                })
                .collect();
            // A walked file is skipped unless it starts with the magic; a named
            // file that is not a container is an error, as in run_many.
            assert_eq!(
                got,
                [
                    "0: 1 parts",
                    "1: skipped",
                    "2: skipped",
                    "3: error",
                    "4: 1 parts"
                ]
            );
            for (i, (_, bytes, _)) in rows.iter().enumerate().skip(1).take(3) {
                assert_eq!(std::fs::read(&files[i]).unwrap(), *bytes, "file {i}");
            }
        }
    }
}
