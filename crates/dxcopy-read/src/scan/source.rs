//! Scanning one input's bytes: the containers in them, and those inside the
//! zip members and gzip streams they hold, each named by where it was
//! found (`archive.zip!dir/a.bin`, `shaders.bin.gz!shaders.bin`,
//! `cache.pak!gz@0x1f40` for a gzip stream at offset 0x1f40 of other bytes).
//!
//! Inflated bytes live only while their containers are visited, and no
//! member is inflated past [`ScanOptions::member_limit`], so a zip or gzip
//! bomb costs at most that much memory and is reported, not followed.

use super::archive::{self, ArchiveError};
use super::{candidates, Rejection, Verified};

/// How far a scan goes into archives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanOptions {
    /// The largest inflated size of a zip member or gzip stream that is
    /// scanned; a larger one is reported as a failure.
    pub member_limit: u64,
    /// How many archives deep a scan goes (a zip in a gzip stream is two).
    pub max_depth: u32,
}

/// The default [`ScanOptions::member_limit`]: 256 MiB.
pub const DEFAULT_MEMBER_LIMIT: u64 = 256 << 20;

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            member_limit: DEFAULT_MEMBER_LIMIT,
            max_depth: 4,
        }
    }
}

/// What a scan meets, in the order it meets it.
#[derive(Debug)]
pub enum Event<'a> {
    /// A verified container.
    Container {
        /// Where: the file, or `archive!member`.
        path: &'a str,
        /// Its offset there.
        offset: u64,
        /// The container and its facts.
        verified: &'a Verified<'a>,
    },
    /// The container magic at `offset` that is no container, or a gzip
    /// header there whose stream does not inflate.
    Rejected {
        /// Where.
        path: &'a str,
        /// Offset of the magic.
        offset: u64,
        /// Why.
        reason: &'a Rejection,
    },
    /// An archive or member that could not be read.
    Failed {
        /// The archive, or `archive!member`.
        path: &'a str,
        /// Why.
        error: &'a ArchiveError,
    },
}

/// Scans `bytes`, read from `path`, calling `visit` for each event.
pub fn scan_bytes(
    path: &str,
    bytes: &[u8],
    options: &ScanOptions,
    visit: &mut dyn FnMut(Event<'_>),
) {
    scan_at_depth(path, bytes, options, 0, visit);
}

fn scan_at_depth(
    path: &str,
    bytes: &[u8],
    options: &ScanOptions,
    depth: u32,
    visit: &mut dyn FnMut(Event<'_>),
) {
    // The stored bytes of the members and streams read: their containers
    // are reported under the member's name, not again at the archive's
    // offsets (a stored member holds them as they are, and so may deflate
    // data, whose incompressible stretches deflate keeps in stored blocks).
    let mut read: Vec<std::ops::Range<u64>> = Vec::new();
    if depth < options.max_depth {
        scan_zip(path, bytes, options, depth, &mut read, visit);
        scan_gzip(path, bytes, options, depth, &mut read, visit);
    }
    for candidate in candidates(bytes) {
        if read.iter().any(|r| r.contains(&candidate.offset)) {
            continue;
        }
        match &candidate.outcome {
            Ok(verified) => visit(Event::Container {
                path,
                offset: candidate.offset,
                verified,
            }),
            Err(reason) => visit(Event::Rejected {
                path,
                offset: candidate.offset,
                reason,
            }),
        }
    }
}

/// The members of the zip archive `bytes` ends with, if any: each scanned
/// as `path!member`, its stored bytes added to `read`.
fn scan_zip(
    path: &str,
    bytes: &[u8],
    options: &ScanOptions,
    depth: u32,
    read: &mut Vec<std::ops::Range<u64>>,
    visit: &mut dyn FnMut(Event<'_>),
) {
    match archive::zip_members(bytes) {
        Some(Ok(members)) => {
            for member in members.iter().filter(|m| !m.name.ends_with('/')) {
                let inner = format!("{path}!{}", member.name);
                match member.read(bytes, options.member_limit) {
                    Ok(data) => {
                        read.push(member.data_offset..member.data_offset + member.compressed_size);
                        scan_at_depth(&inner, &data, options, depth + 1, visit);
                    }
                    Err(error) => visit(Event::Failed {
                        path: &inner,
                        error: &error,
                    }),
                }
            }
        }
        Some(Err(error)) => visit(Event::Failed {
            path,
            error: &error,
        }),
        None => {}
    }
}

/// The gzip streams in `bytes` outside the zip members already read, at
/// any offset: each inflated and scanned as `path!NAME` when it starts the
/// bytes (NAME: the name its header records, else the file name without
/// `.gz`), else as `path!gz@0xOFFSET` (`…:NAME` when its header records a
/// name). A gzip header whose stream does not inflate is a rejected
/// candidate, not a failure: such headers also occur by chance in other
/// data. A stream that passes the limit is a failure.
fn scan_gzip(
    path: &str,
    bytes: &[u8],
    options: &ScanOptions,
    depth: u32,
    read: &mut Vec<std::ops::Range<u64>>,
    visit: &mut dyn FnMut(Event<'_>),
) {
    let mut resume = 0u64;
    for at in archive::gzip_headers(bytes) {
        let offset = at as u64;
        if offset < resume || read.iter().any(|r| r.contains(&offset)) {
            continue;
        }
        match archive::gunzip_at(bytes, at, options.member_limit) {
            Ok(stream) => {
                let inner = match (offset, stream.name) {
                    (0, name) => format!("{path}!{}", name.unwrap_or_else(|| gunzipped_name(path))),
                    (_, Some(name)) => format!("{path}!gz@{offset:#x}:{name}"),
                    (_, None) => format!("{path}!gz@{offset:#x}"),
                };
                resume = offset + stream.stored_len;
                read.push(offset..resume);
                scan_at_depth(&inner, &stream.data, options, depth + 1, visit);
            }
            Err(error @ ArchiveError::OverLimit { .. }) => {
                let inner = if offset == 0 {
                    path.to_owned()
                } else {
                    format!("{path}!gz@{offset:#x}")
                };
                visit(Event::Failed {
                    path: &inner,
                    error: &error,
                });
            }
            Err(error) => visit(Event::Rejected {
                path,
                offset,
                reason: &Rejection::Gzip(error),
            }),
        }
    }
}

/// The member name of a gzip stream whose header records none: the file
/// name without `.gz` (`.tgz` becomes `.tar`).
fn gunzipped_name(path: &str) -> String {
    let name = path.rsplit(['/', '\\', '!']).next().unwrap_or(path);
    if let Some(stem) = name.strip_suffix(".tgz") {
        format!("{stem}.tar")
    } else if let Some(stem) = name.strip_suffix(".gz").filter(|s| !s.is_empty()) {
        stem.to_owned()
    } else {
        format!("{name}.gunzipped")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gunzipped_names() {
        let cases = [
            ("dir/a.bin.gz", "a.bin"),
            ("x.tgz", "x.tar"),
            ("z.zip!inner/s.gz", "s"),
            ("noext", "noext.gunzipped"),
            (".gz", ".gz.gunzipped"),
        ];
        for (path, want) in cases {
            assert_eq!(gunzipped_name(path), want, "{path}");
        }
    }
}
