//! `dxinfo --diff` and `dxinfo --stats`: the views over the whole file list
//! rather than one file at a time. The comparison, the walk and the totals
//! are [`dxcopy_edit::tree`].

use crate::cli;
use crate::cmd::dxinfo::{Io, Opts};
use dxcopy_edit::tree::{diff_paths, stats_files, stats_paths};
use dxcopy_read::info::diff::DiffOptions;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Exit status of `--diff` on trouble, as `diff` and `cmp` use it.
pub const DIFF_TROUBLE: i32 = 2;

/// Runs `dxinfo --diff A B`: 0 when equal, 1 when different, 2 on trouble.
pub fn run_diff(opts: &Opts, exact: bool, json: bool, io: &mut Io<'_>) -> i32 {
    let [a, b] = opts.files.as_slice() else {
        io.error(&format!(
            "--diff compares two files or two folders ({} given)",
            opts.files.len()
        ));
        return DIFF_TROUBLE;
    };
    let found = match diff_paths(a, b, &DiffOptions { exact }) {
        Ok(found) => found,
        Err(e) => {
            io.error(&cli::error_message(&e));
            return DIFF_TROUBLE;
        }
    };
    for e in &found.errors {
        io.error(&cli::error_message(e));
    }
    for file in &found.files {
        if let Err(e) = &file.outcome {
            io.error(&cli::error_message(e));
        }
    }
    let written = if json {
        serde_json::to_writer_pretty(&mut *io.out, &found.to_json(a, b))
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(io.out))
    } else {
        found.write_text(a, b, io.out)
    };
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            io.error(&format!("writing output: {e}"));
            return DIFF_TROUBLE;
        }
    }
    if found.has_errors() {
        DIFF_TROUBLE
    } else if found.is_equal() {
        0
    } else {
        1
    }
}

/// Files a `--stats` run needs before it shows a progress bar (on a terminal).
const PROGRESS_MIN_FILES: usize = 1000;

/// Runs `dxinfo --stats FILE...`: exit 1 when a file or folder could not be read.
pub fn run_stats(opts: &Opts, json: bool, jobs: Option<usize>, io: &mut Io<'_>) -> i32 {
    let (files, walk_errors) = stats_files(&opts.files);
    let progress =
        (files.len() >= PROGRESS_MIN_FILES && std::io::stderr().is_terminal()).then(|| {
            let style = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            ProgressBar::new(files.len() as u64).with_style(style)
        });
    let run = stats_paths(&files, jobs, || {
        if let Some(bar) = &progress {
            bar.inc(1);
        }
    });
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    let mut status = 0;
    for e in walk_errors.iter().chain(&run.errors) {
        io.error(&cli::error_message(e));
        status = 1;
    }
    let written = if json {
        serde_json::to_writer_pretty(&mut *io.out, &run.to_json())
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(io.out))
    } else {
        run.stats.write_table(io.out)
    };
    match written {
        Ok(()) => status,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            io.error(&format!("writing output: {e}"));
            1
        }
    }
}
