//! `dxinfo --scan` and `dxinfo --rows`: option mapping over
//! [`dxcopy_edit::scan`] (the walk, extraction and survey) and
//! [`dxcopy_read::scan`] (carving, verification and the row view).

use crate::cli;
use crate::cmd::dxinfo::{Io, Opts, RowsFormat};
use dxcopy_edit::scan::{scan_paths, survey_paths, Extractor, Scanned, Surveyed};
use dxcopy_read::scan::report::{json_value, rejected_json, rejected_line, text_line};
use dxcopy_read::scan::rows::{RowFormat, RowWriter};
use dxcopy_read::scan::source::{Event, ScanOptions};
use std::io;

/// Runs `--scan` (with `--json`, `--scan-all`, `--scan-extract`) or
/// `--rows`; returns the exit status: 1 when an input, archive member or
/// extraction failed, else 0.
pub fn run(opts: &Opts, io: &mut Io<'_>) -> i32 {
    let mut options = ScanOptions::default();
    if let Some(limit) = opts.scan_limit {
        options.member_limit = limit;
    }
    let result = match opts.rows {
        Some(format) => rows(opts, format, &options, io),
        None => scan(opts, &options, io),
    };
    match result {
        Ok(status) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            io.error(&format!("writing output: {e}"));
            1
        }
    }
}

fn rows(
    opts: &Opts,
    format: RowsFormat,
    options: &ScanOptions,
    io: &mut Io<'_>,
) -> io::Result<i32> {
    let format = match format {
        RowsFormat::Csv => RowFormat::Csv,
        RowsFormat::Jsonl => RowFormat::Jsonl,
    };
    let mut status = 0;
    let mut written = Ok(());
    let mut failures = Vec::new();
    {
        let mut writer = RowWriter::new(io.out, format);
        let scan = opts.scan.then_some(options);
        written = written.and_then(|()| writer.start());
        survey_paths(&opts.files, opts.recursive, scan, &mut |item| match item {
            Surveyed::Row(row) => {
                if written.is_ok() {
                    written = writer.write(&row);
                }
            }
            Surveyed::Failed(message) => failures.push(message),
            Surveyed::Rejected(_) => {}
        });
    }
    written?;
    for message in failures {
        io.error(&message);
        status = 1;
    }
    Ok(status)
}

fn scan(opts: &Opts, options: &ScanOptions, io: &mut Io<'_>) -> io::Result<i32> {
    let mut extractor = match &opts.scan_extract {
        Some(dir) => match Extractor::new(dir) {
            Ok(x) => Some(x),
            Err(e) => {
                io.error(&cli::error_message(&e));
                return Ok(1);
            }
        },
        None => None,
    };
    let mut status = 0;
    let mut written = Ok(());
    let (mut containers, mut failures) = (0u64, Vec::new());
    let out = &mut *io.out;
    scan_paths(&opts.files, opts.recursive, options, &mut |scanned| {
        let line = match scanned {
            Scanned::Event(Event::Container {
                path,
                offset,
                verified,
            }) => {
                containers += 1;
                let file = match extractor.as_mut().map(|x| x.add(path, offset, verified)) {
                    Some(Ok(entry)) => Some(entry.file.clone()),
                    Some(Err(e)) => {
                        failures.push(cli::error_message(&e));
                        None
                    }
                    None => None,
                };
                let facts = &verified.facts;
                if opts.json {
                    json_value(path, offset, facts, file.as_deref()).to_string()
                } else {
                    text_line(path, offset, facts, file.as_deref())
                }
            }
            Scanned::Event(Event::Rejected {
                path,
                offset,
                reason,
            }) => {
                if !opts.scan_all {
                    return;
                }
                if opts.json {
                    rejected_json(path, offset, reason).to_string()
                } else {
                    rejected_line(path, offset, reason)
                }
            }
            Scanned::Event(Event::Failed { path, error }) => {
                failures.push(format!("'{path}': {error}"));
                return;
            }
            Scanned::Failed(e) => {
                failures.push(e.to_string());
                return;
            }
        };
        if written.is_ok() {
            written = writeln!(out, "{line}");
        }
    });
    written?;
    for message in &failures {
        io.error(message);
        status = 1;
    }
    if let Some(x) = extractor {
        match x.finish() {
            Ok(extracted) => {
                let fresh = extracted.iter().filter(|e| e.written).count();
                if !opts.json {
                    writeln!(
                        io.out,
                        "{containers} containers, {} distinct, {fresh} written",
                        extracted.len()
                    )?;
                }
            }
            Err(e) => {
                io.error(&cli::error_message(&e));
                status = 1;
            }
        }
    }
    Ok(status)
}
