//! Carving tests: containers planted in random bytes (seeded), in zip
//! members, gzip streams and a fake executable; decoys; bombs.

use super::archive::ArchiveError;
use super::source::{scan_bytes, Event, ScanOptions};
use super::*;
use crate::testutil::{build, sign};
use std::io::Write;

/// A small deterministic generator (xorshift64*), so every run plants the
/// same bytes and a failure can be replayed.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// A signed DXBC-era container: SHEX of a ps_5_0 program (version token
/// and length), a HASH part.
fn dxbc_container() -> Vec<u8> {
    let shex: Vec<u8> = [0x0000_0050u32, 2]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let mut hash = 0u32.to_le_bytes().to_vec();
    hash.extend_from_slice(&[0xab; 16]);
    sign(build(&[(b"SHEX", &shex), (b"HASH", &hash)]))
}

/// A DXIL container: a cs_6_5 program header with a bitcode stub, unsigned.
fn dxil_container() -> Vec<u8> {
    let mut dxil = vec![0x65, 0, 5, 0];
    dxil.extend_from_slice(&10u32.to_le_bytes());
    dxil.extend_from_slice(b"DXIL\x05\x01\0\0");
    dxil.extend_from_slice(&16u32.to_le_bytes());
    dxil.extend_from_slice(&16u32.to_le_bytes());
    dxil.extend_from_slice(b"BC\xc0\xde\x35\x14\0\0\x05\0\0\0\x62\x0c\x30\x24");
    build(&[(b"SFI0", &[0; 8]), (b"DXIL", &dxil)])
}

/// A container found: where (path, offset) and its size.
type Found = (String, u64, u64);

/// `(offset, size)` of every verified container `scan_bytes` reports, with
/// its path, and the failures.
fn found(bytes: &[u8], options: &ScanOptions) -> (Vec<Found>, Vec<(String, ArchiveError)>) {
    let mut containers = Vec::new();
    let mut failures = Vec::new();
    scan_bytes("in", bytes, options, &mut |event| match event {
        Event::Container {
            path,
            offset,
            verified,
        } => containers.push((path.to_owned(), offset, verified.facts.size)),
        Event::Rejected { .. } => {}
        Event::Failed { path, error } => failures.push((path.to_owned(), error.clone())),
    });
    (containers, failures)
}

/// Plants `containers` at random offsets (any alignment) in random bytes;
/// returns the bytes and each container's offset.
fn plant(rng: &mut Rng, containers: &[Vec<u8>]) -> (Vec<u8>, Vec<u64>) {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for c in containers {
        let gap = rng.below(3000) + 1;
        out.extend(rng.bytes(gap));
        offsets.push(out.len() as u64);
        out.extend_from_slice(c);
    }
    let tail = rng.below(100);
    out.extend(rng.bytes(tail));
    (out, offsets)
}

#[test]
fn facts_of_the_fixtures() {
    let dxbc = dxbc_container();
    let v = verify_at(&dxbc, 0).expect("verified");
    assert_eq!(v.facts.kind, ContainerKind::Dxbc);
    assert_eq!(v.facts.size, dxbc.len() as u64);
    assert_eq!(v.facts.digest_status(), DigestStatus::Retail);
    assert_eq!(v.facts.shader_hash, Some([0xab; 16]));
    let p = v.facts.program.expect("program");
    assert_eq!(
        (p.profile(), p.shader_model()),
        ("ps_5_0".into(), "5.0".into())
    );
    let dxil = dxil_container();
    let v = verify_at(&dxil, 0).expect("verified");
    assert_eq!(v.facts.kind, ContainerKind::Dxil);
    assert_eq!(v.facts.digest_status(), DigestStatus::Unsigned);
    assert_eq!(v.facts.shader_hash, None);
    assert_eq!(v.facts.program.expect("program").profile(), "cs_6_5");
    let mut bad = dxbc.clone();
    bad[4] ^= 1;
    let v = verify_at(&bad, 0).expect("a bad digest is still a container");
    assert_eq!(v.facts.digest_status(), DigestStatus::Bad);
}

#[test]
fn planted_containers_are_found_at_their_offsets() {
    for seed in [1u64, 7, 42, 1234] {
        let mut rng = Rng::new(seed);
        // The project's sample (a real dxc container) among the builders'.
        let sample = include_bytes!("../../../../examples/sample.dxil").to_vec();
        let list: Vec<Vec<u8>> = (0..9)
            .map(|i| match i % 3 {
                0 => dxbc_container(),
                1 => dxil_container(),
                _ => sample.clone(),
            })
            .collect();
        let (bytes, offsets) = plant(&mut rng, &list);
        assert!(
            offsets.iter().any(|o| o % 4 != 0),
            "seed {seed}: some offset unaligned"
        );
        let (got, failures) = found(&bytes, &ScanOptions::default());
        let want: Vec<Found> = offsets
            .iter()
            .zip(&list)
            .map(|(o, c)| ("in".to_owned(), *o, c.len() as u64))
            .collect();
        assert_eq!(got, want, "seed {seed}");
        assert!(failures.is_empty());
    }
}

#[test]
fn decoys_are_rejected_with_their_reason() {
    let good = dxbc_container();
    let len = good.len();
    let with_size = |size: u32| {
        let mut c = good.clone();
        c[24..28].copy_from_slice(&size.to_le_bytes());
        c
    };
    let mut outside = good.clone();
    outside[32..36].copy_from_slice(&5000u32.to_le_bytes());
    let mut version = good.clone();
    version[20] = 2;
    let mut many_parts = good.clone();
    many_parts[28..32].copy_from_slice(&1000u32.to_le_bytes());
    type Case<'a> = (&'a str, Vec<u8>, fn(&Rejection) -> bool);
    let cases: Vec<Case<'_>> = vec![
        ("size too large", with_size(len as u32 + 64), |r| {
            matches!(r, Rejection::SizeBeyondParts { .. })
        }),
        ("size smaller than parts", with_size(len as u32 - 8), |r| {
            matches!(r, Rejection::PartTable(_))
        }),
        ("size below the header", with_size(20), |r| {
            matches!(r, Rejection::FileSizeTooSmall { .. })
        }),
        ("size past the end", with_size(1 << 30), |r| {
            matches!(r, Rejection::FileSizePastEnd { .. })
        }),
        ("truncated", good[..len - 10].to_vec(), |r| {
            matches!(r, Rejection::FileSizePastEnd { .. })
        }),
        ("header cut", good[..20].to_vec(), |r| {
            matches!(r, Rejection::Truncated { available: 20 })
        }),
        ("part table outside", outside, |r| {
            matches!(r, Rejection::PartTable(_))
        }),
        ("version", version, |r| {
            matches!(r, Rejection::Version { major: 2, minor: 0 })
        }),
        ("too many parts", many_parts, |r| {
            matches!(r, Rejection::TooManyParts { .. })
        }),
    ];
    for (what, decoy, expected) in cases {
        // Random bytes after it, so a size past the decoy reads noise.
        let mut bytes = decoy.clone();
        bytes.extend(Rng::new(3).bytes(200));
        if what == "truncated" || what == "header cut" {
            bytes.truncate(decoy.len());
        }
        let all: Vec<Candidate<'_>> = candidates(&bytes).collect();
        assert_eq!(all.len(), 1, "{what}");
        let reason = all[0].outcome.as_ref().expect_err(what);
        assert!(expected(reason), "{what}: {reason:?}");
    }
}

/// A zip archive of `members` (name, bytes, deflate?), written the way zip
/// tools lay it out: local headers and data, central directory, end record.
pub(crate) fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data, deflate) in members {
        let stored = if *deflate {
            let mut enc =
                flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
            enc.write_all(data).unwrap();
            enc.finish().unwrap()
        } else {
            data.to_vec()
        };
        let method: u16 = if *deflate { 8 } else { 0 };
        let crc = crc32fast::hash(data);
        let local = out.len() as u32;
        let fields = |sig: u32, central: bool| {
            let mut h = sig.to_le_bytes().to_vec();
            if central {
                h.extend_from_slice(&20u16.to_le_bytes());
            }
            h.extend_from_slice(&20u16.to_le_bytes());
            h.extend_from_slice(&0u16.to_le_bytes());
            h.extend_from_slice(&method.to_le_bytes());
            h.extend_from_slice(&[0; 4]);
            h.extend_from_slice(&crc.to_le_bytes());
            h.extend_from_slice(&(stored.len() as u32).to_le_bytes());
            h.extend_from_slice(&(data.len() as u32).to_le_bytes());
            h.extend_from_slice(&(name.len() as u16).to_le_bytes());
            h.extend_from_slice(&0u16.to_le_bytes());
            if central {
                // Comment length, disk, internal and external attributes.
                h.extend_from_slice(&[0; 10]);
                h.extend_from_slice(&local.to_le_bytes());
            }
            h.extend_from_slice(name.as_bytes());
            h
        };
        out.extend(fields(0x0403_4b50, false));
        out.extend_from_slice(&stored);
        central.extend(fields(0x0201_4b50, true));
    }
    let dir = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(members.len() as u16).to_le_bytes());
    out.extend_from_slice(&(members.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&dir.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

pub(crate) fn gzip(data: &[u8], name: Option<&str>) -> Vec<u8> {
    let mut builder = flate2::GzBuilder::new();
    if let Some(name) = name {
        builder = builder.filename(name);
    }
    let mut enc = builder.write(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[test]
fn containers_in_zip_members_and_gzip_streams_are_named_by_member() {
    let mut rng = Rng::new(99);
    let (a, a_at) = plant(&mut rng, &[dxbc_container(), dxil_container()]);
    let (b, b_at) = plant(&mut rng, &[dxil_container()]);
    let archive = zip(&[
        ("dir/", b"", false),
        ("dir/a.bin", &a, false),
        ("b.bin", &b, true),
    ]);
    let (got, failures) = found(&archive, &ScanOptions::default());
    let dxbc_len = dxbc_container().len() as u64;
    let dxil_len = dxil_container().len() as u64;
    assert_eq!(
        got,
        vec![
            ("in!dir/a.bin".to_owned(), a_at[0], dxbc_len),
            ("in!dir/a.bin".to_owned(), a_at[1], dxil_len),
            ("in!b.bin".to_owned(), b_at[0], dxil_len),
        ]
    );
    assert!(failures.is_empty(), "{failures:?}");
    // A gzip stream, named by its header, holding the zip.
    let (got, _) = found(&gzip(&archive, Some("inner.zip")), &ScanOptions::default());
    let paths: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(
        paths,
        [
            "in!inner.zip!dir/a.bin",
            "in!inner.zip!dir/a.bin",
            "in!inner.zip!b.bin"
        ]
    );
    let (got, _) = found(&gzip(&a, None), &ScanOptions::default());
    assert_eq!(got[1], ("in!in.gunzipped".to_owned(), a_at[1], dxil_len));
}

/// Every event of a scan: containers as (path, offset, size), rejected
/// candidates as (path, offset, reason), failures.
type Events = (
    Vec<Found>,
    Vec<(String, u64, Rejection)>,
    Vec<(String, ArchiveError)>,
);

fn events(bytes: &[u8], options: &ScanOptions) -> Events {
    let (mut containers, mut rejected, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    scan_bytes("in", bytes, options, &mut |event| match event {
        Event::Container {
            path,
            offset,
            verified,
        } => containers.push((path.to_owned(), offset, verified.facts.size)),
        Event::Rejected {
            path,
            offset,
            reason,
        } => rejected.push((path.to_owned(), offset, reason.clone())),
        Event::Failed { path, error } => failures.push((path.to_owned(), error.clone())),
    });
    (containers, rejected, failures)
}

/// `data` gzipped and placed among other bytes: random bytes, a cut gzip
/// stream and a header whose data is noise before it, random bytes after.
/// Returns the bytes, the offset of the stream and the decoys' offsets.
fn gzip_among_other_bytes(
    rng: &mut Rng,
    data: &[u8],
    name: Option<&str>,
) -> (Vec<u8>, u64, [u64; 2]) {
    let mut noise = |most: usize| {
        let len = rng.below(most) + 1;
        rng.bytes(len)
    };
    let mut bytes = noise(5000);
    let cut_at = bytes.len() as u64;
    let cut = gzip(&noise(3000), None);
    bytes.extend_from_slice(&cut[..cut.len() / 2]);
    bytes.extend(noise(300));
    let noise_at = bytes.len() as u64;
    bytes.extend_from_slice(&[0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 3]);
    bytes.extend(noise(200));
    let at = bytes.len() as u64;
    bytes.extend(gzip(data, name));
    bytes.extend(noise(5000));
    (bytes, at, [cut_at, noise_at])
}

#[test]
fn gzip_streams_inside_other_bytes_are_found_at_any_offset() {
    for seed in [3u64, 17, 2026] {
        let mut rng = Rng::new(seed);
        let list = [dxbc_container(), dxil_container(), dxbc_container()];
        let (inner, inner_at) = plant(&mut rng, &list);
        for name in [None, Some("shaders.bin")] {
            let (bytes, at, decoys) = gzip_among_other_bytes(&mut rng, &inner, name);
            let (got, rejected, failures) = events(&bytes, &ScanOptions::default());
            let path = match name {
                Some(name) => format!("in!gz@{at:#x}:{name}"),
                None => format!("in!gz@{at:#x}"),
            };
            let want: Vec<Found> = inner_at
                .iter()
                .zip(&list)
                .map(|(o, c)| (path.clone(), *o, c.len() as u64))
                .collect();
            assert_eq!(got, want, "seed {seed}");
            assert!(failures.is_empty(), "seed {seed}: {failures:?}");
            // The cut stream and the header followed by noise are rejected
            // candidates, not failures; the scan goes on past them.
            let gzip_rejections: Vec<u64> = rejected
                .iter()
                .filter(|(p, _, r)| p == "in" && matches!(r, Rejection::Gzip(_)))
                .map(|(_, o, _)| *o)
                .collect();
            assert_eq!(gzip_rejections, decoys, "seed {seed}");
        }
    }
    // A stream that starts the bytes keeps its name, and the bytes after
    // it are scanned too.
    let mut rng = Rng::new(8);
    let mut bytes = gzip(&dxil_container(), Some("a.dxil"));
    let after = bytes.len() as u64 + 7;
    bytes.extend(rng.bytes(7));
    bytes.extend(dxbc_container());
    let (got, _, failures) = events(&bytes, &ScanOptions::default());
    assert_eq!(
        got,
        vec![
            ("in!a.dxil".to_owned(), 0, dxil_container().len() as u64),
            ("in".to_owned(), after, dxbc_container().len() as u64),
        ]
    );
    assert!(failures.is_empty());
    // Two members one after the other are one stream, as gzip -d reads them.
    let container = dxbc_container();
    let (head, tail) = container.split_at(40);
    let mut bytes = rng.bytes(11);
    bytes.extend(gzip(head, None));
    bytes.extend(gzip(tail, None));
    let (got, _, _) = events(&bytes, &ScanOptions::default());
    assert_eq!(
        got,
        vec![("in!gz@0xb".to_owned(), 0, container.len() as u64)]
    );
}

#[test]
fn an_embedded_gzip_bomb_is_reported_and_the_rest_scanned() {
    let options = ScanOptions {
        member_limit: 1 << 20,
        ..ScanOptions::default()
    };
    let mut rng = Rng::new(12);
    let mut bytes = rng.bytes(100);
    bytes.extend(gzip(&vec![0u8; 4 << 20], None));
    let after = bytes.len() as u64;
    bytes.extend(dxbc_container());
    let (got, _, failures) = events(&bytes, &options);
    assert_eq!(
        got,
        vec![("in".to_owned(), after, dxbc_container().len() as u64)]
    );
    assert!(
        matches!(&failures[..], [(p, ArchiveError::OverLimit { limit: 1048576, declared: 0 })] if p == "in!gz@0x64"),
        "{failures:?}"
    );
}

#[test]
fn a_fake_executable_with_an_appended_zip() {
    let mut rng = Rng::new(5);
    let mut exe = b"MZ\x90\0".to_vec();
    exe.extend(rng.bytes(500));
    exe.extend_from_slice(b"PE\0\0");
    let (body, body_at) = plant(&mut rng, &[dxbc_container(), dxbc_container()]);
    let base = exe.len() as u64;
    exe.extend(&body);
    exe.extend(b"DXBC and some text that looks like a header but is not");
    let zip_at = exe.len();
    let member = dxil_container();
    exe.extend(zip(&[("s.dxil", &member, false)]));
    // The zip's offsets are relative to its own start, as in an archive
    // appended to a stub: the directory is found where the end record
    // sits, and the member is named.
    let (got, failures) = found(&exe, &ScanOptions::default());
    let dxbc_len = dxbc_container().len() as u64;
    // The archive's members first, then the rest of the bytes.
    assert_eq!(got[0], ("in!s.dxil".to_owned(), 0, member.len() as u64));
    assert_eq!(got[1], ("in".to_owned(), base + body_at[0], dxbc_len));
    assert_eq!(got[2], ("in".to_owned(), base + body_at[1], dxbc_len));
    assert_eq!(got.len(), 3);
    assert!(failures.is_empty(), "{failures:?}");
    // Without its end record the archive is bytes like any other: the
    // stored member is found at its place in the executable.
    exe.truncate(exe.len() - 22);
    let (got, _) = found(&exe, &ScanOptions::default());
    assert_eq!(
        got[2],
        (
            "in".to_owned(),
            (zip_at + 30 + 6) as u64,
            member.len() as u64
        )
    );
}

#[test]
fn bombs_are_bounded_and_reported() {
    let options = ScanOptions {
        member_limit: 1 << 20,
        ..ScanOptions::default()
    };
    let zeros = vec![0u8; 8 << 20];
    let (got, failures) = found(&gzip(&zeros, Some("zeros")), &options);
    assert!(got.is_empty());
    assert!(
        matches!(&failures[..], [(p, ArchiveError::OverLimit { limit: 1048576, .. })] if p == "in")
    );
    let archive = zip(&[("big", &zeros, true), ("ok", &dxbc_container(), true)]);
    let (got, failures) = found(&archive, &options);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "in!ok");
    assert!(
        matches!(&failures[..], [(p, ArchiveError::OverLimit { declared: 8388608, .. })] if p == "in!big")
    );
    // A member that lies about its size: declared small, inflates large.
    let mut lying = zip(&[("big", &zeros, true)]);
    let lie = 100u32.to_le_bytes();
    lying[22..26].copy_from_slice(&lie);
    let central = lying.len() - 22 - (46 + 3);
    lying[central + 24..central + 28].copy_from_slice(&lie);
    let (_, failures) = found(&lying, &options);
    assert!(
        matches!(
            &failures[..],
            [(_, ArchiveError::OverLimit { declared: 100, .. })]
        ),
        "{failures:?}"
    );
}

#[test]
fn a_container_planted_in_a_container_part_is_not_reported_twice() {
    let inner = dxbc_container();
    let outer = build(&[(b"PRIV", &inner)]);
    let (got, _) = found(&outer, &ScanOptions::default());
    assert_eq!(got, vec![("in".to_owned(), 0, outer.len() as u64)]);
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn corpus_containers_planted_in_random_bytes_are_all_found() {
    use dxcopy_harness::corpus::manifest_or_skip;
    let Some((_, rows)) = manifest_or_skip("corpus carving") else {
        return;
    };
    let containers: Vec<Vec<u8>> = rows
        .iter()
        .filter(|r| r.kind == "dxbc" || r.kind == "dxil")
        .map(|r| std::fs::read(&r.path).expect("corpus file"))
        // Whole containers: a file whose FileSize says it is longer than it
        // is (LLVM's test input cut short) is no container to carve.
        .filter(|bytes| {
            Container::parse(bytes)
                .is_ok_and(|c| u64::from(c.header().file_size) == bytes.len() as u64)
        })
        .collect();
    assert!(containers.len() > 1000, "the corpus has its containers");
    let mut rng = Rng::new(2026);
    let (bytes, offsets) = plant(&mut rng, &containers);
    let (got, failures) = found(&bytes, &ScanOptions::default());
    let want: Vec<Found> = offsets
        .iter()
        .zip(&containers)
        .map(|(o, c)| ("in".to_owned(), *o, c.len() as u64))
        .collect();
    assert!(failures.is_empty());
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
    // The same, every third of them, in a gzip stream among other bytes.
    let some: Vec<Vec<u8>> = containers.iter().step_by(3).cloned().collect();
    let (inner, inner_at) = plant(&mut rng, &some);
    let (bytes, at, _) = gzip_among_other_bytes(&mut rng, &inner, None);
    let (got, _, failures) = events(&bytes, &ScanOptions::default());
    let path = format!("in!gz@{at:#x}");
    let want: Vec<Found> = inner_at
        .iter()
        .zip(&some)
        .map(|(o, c)| (path.clone(), *o, c.len() as u64))
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
    // Others in a zip, one member stored and one deflated, appended to a
    // fake executable that holds more of them among its own bytes.
    let stored: Vec<Vec<u8>> = containers.iter().skip(1).step_by(7).cloned().collect();
    let deflated: Vec<Vec<u8>> = containers.iter().skip(2).step_by(7).cloned().collect();
    let loose: Vec<Vec<u8>> = containers.iter().skip(3).step_by(7).cloned().collect();
    let (stored_bytes, stored_at) = plant(&mut rng, &stored);
    let (deflated_bytes, deflated_at) = plant(&mut rng, &deflated);
    let (loose_bytes, loose_at) = plant(&mut rng, &loose);
    let mut exe = b"MZ\x90\0".to_vec();
    exe.extend(rng.bytes(400));
    exe.extend_from_slice(b"PE\0\0");
    let base = exe.len() as u64;
    exe.extend(&loose_bytes);
    exe.extend(zip(&[
        ("shaders/stored.bin", &stored_bytes, false),
        ("shaders/deflated.bin", &deflated_bytes, true),
    ]));
    let (got, failures) = found(&exe, &ScanOptions::default());
    let placed = |path: &str, offsets: &[u64], list: &[Vec<u8>], base: u64| -> Vec<Found> {
        offsets
            .iter()
            .zip(list)
            .map(|(o, c)| (path.to_owned(), base + o, c.len() as u64))
            .collect()
    };
    let mut want = placed("in!shaders/stored.bin", &stored_at, &stored, 0);
    want.extend(placed(
        "in!shaders/deflated.bin",
        &deflated_at,
        &deflated,
        0,
    ));
    want.extend(placed("in", &loose_at, &loose, base));
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
}
