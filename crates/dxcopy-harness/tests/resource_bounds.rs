//! Resource bounds: hostile 4 KiB inputs end in errors (or harmless results)
//! with memory bounded by the input size. A counting global allocator measures
//! the peak of live heap bytes and the total bytes allocated by everything the
//! tools do to one input (parse, check, decoders, the edit plans, writing,
//! re-parsing), on this thread only.

use dxcopy_harness::alloc::{Counting, ThreadCounts};

#[global_allocator]
static ALLOCATOR: Counting<ThreadCounts> = Counting(ThreadCounts);

/// (peak live bytes above the starting point, total bytes allocated) while running `f`.
fn measure(f: impl FnOnce()) -> (usize, usize) {
    let used = ThreadCounts::measure(f);
    (used.peak, used.total)
}

const SIZE: usize = 4096;
const PEAK_LIMIT: usize = 2 << 20;
const TOTAL_LIMIT: usize = 8 << 20;

fn header(part_count: u32, file_size: u32) -> Vec<u8> {
    let mut v = b"DXBC".to_vec();
    v.extend_from_slice(&[0; 16]);
    v.extend_from_slice(&[1, 0, 0, 0]);
    v.extend_from_slice(&file_size.to_le_bytes());
    v.extend_from_slice(&part_count.to_le_bytes());
    v
}

fn finish(mut v: Vec<u8>) -> Vec<u8> {
    v.resize(SIZE, 0);
    v
}

/// The hostile inputs, each exactly 4 KiB.
fn hostile() -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    out.push((
        "PartCount 0xffffffff",
        finish(header(0xffff_ffff, SIZE as u32)),
    ));
    for size in [0x7fff_ffffu32, 0xffff_ffff, SIZE as u32] {
        let mut v = header(1, SIZE as u32);
        v.extend_from_slice(&36u32.to_le_bytes());
        v.extend_from_slice(b"PSV0");
        v.extend_from_slice(&size.to_le_bytes());
        out.push(("part size past the end", finish(v)));
    }
    // As many distinct one-header parts as fit, with the table in reverse
    // (the unsorted path of the overlap check).
    let n = (SIZE as u32 - 32) / 12;
    let mut v = header(n, SIZE as u32);
    let table_end = 32 + 4 * n;
    for i in (0..n).rev() {
        v.extend_from_slice(&(table_end + 8 * i).to_le_bytes());
    }
    for i in 0..n {
        v.extend_from_slice(&i.to_le_bytes());
        v.extend_from_slice(&[0; 4]);
    }
    out.push(("340 parts, unsorted, distinct names", finish(v)));
    // Every offset pointing at the same part.
    let n = 1000u32;
    let mut v = header(n, SIZE as u32);
    let at = 32 + 4 * n;
    for _ in 0..n {
        v.extend_from_slice(&at.to_le_bytes());
    }
    v.extend_from_slice(b"DXIL\0\0\0\0");
    out.push(("1000 offsets to one part", finish(v)));
    // A DXIL program header claiming 4 GiB of bitcode, and a PRIV past FileSize.
    let mut v = header(2, SIZE as u32);
    v.extend_from_slice(&40u32.to_le_bytes());
    v.extend_from_slice(&(40u32 + 8 + 32).to_le_bytes());
    v.extend_from_slice(b"DXIL");
    v.extend_from_slice(&32u32.to_le_bytes());
    v.extend_from_slice(&[0x60, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    v.extend_from_slice(b"DXIL");
    v.extend_from_slice(&[0, 1, 0, 0]);
    v.extend_from_slice(&0xffff_fff0u32.to_le_bytes());
    v.extend_from_slice(&0xffff_ffffu32.to_le_bytes());
    v.extend_from_slice(&[0; 8]);
    v.extend_from_slice(b"PRIV");
    v.extend_from_slice(&((SIZE - 88) as u32).to_le_bytes());
    out.push(("program header with 4 GiB of bitcode", finish(v)));
    // Deeply counted tables: PSV0, RTS0 and RDAT whose counts, sizes and
    // offsets are all 0xffffffff (or 0x7fffffff) after a plausible start,
    // with a DXIL part so PSV0 decodes with a shader kind.
    for (name, start, fill) in [
        (b"PSV0", &[24u8, 0, 0, 0][..], 0xffu8),
        (b"PSV0", &[52u8, 0, 0, 0][..], 0x7f),
        (b"RTS0", &[2u8, 0, 0, 0][..], 0xff),
        (
            b"RTS0",
            &[1u8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 24, 0, 0, 0][..],
            0x01,
        ),
        (b"RDAT", &[0x10u8, 0, 0, 0][..], 0xff),
        (b"SRCI", &[0xf0u8, 0x0f, 0, 0][..], 0xff),
    ] {
        let dxil = dxcopy_read::program::build_program_data(
            6,
            5,
            dxcopy_read::ShaderKind::Mesh,
            1,
            5,
            b"BC\xc0\xde",
        );
        let mut data = start.to_vec();
        data.resize(SIZE - 120, fill);
        let bytes = dxcopy_edit::ContainerBuilder::new()
            .part(b"DXIL", &dxil)
            .part(name, &data)
            .build()
            .unwrap();
        assert!(bytes.len() <= SIZE);
        out.push(("deeply counted table", finish(bytes)));
    }
    out
}

/// A SRCI part whose zlib contents inflate ~1000-fold (what zlib allows at
/// most), in a 4 KiB file: decompression is capped by the declared size and a
/// hard limit, so the memory is the inflated text and no more. `declared`
/// overrides the declared uncompressed size (a lie is an error).
fn zlib_bomb(declared: Option<u32>) -> Vec<u8> {
    let text = vec![b'x'; 3 << 20];
    let srci = dxcopy_read::fixtures::build_source_info(&[(b"a.hlsl", &text)], &[], true);
    let mut bytes = dxcopy_edit::ContainerBuilder::new()
        .part(b"SRCI", &srci)
        .build()
        .unwrap();
    assert!(bytes.len() <= SIZE, "bomb is {} bytes", bytes.len());
    if let Some(declared) = declared {
        // The contents header (…, u32 uncompressed size, u32 count) ends
        // where the zlib stream (0x78 0x9c) starts.
        let stream = bytes
            .windows(2)
            .position(|w| w == [0x78, 0x9c])
            .expect("zlib stream");
        let at = stream - 8;
        bytes[at..at + 4].copy_from_slice(&declared.to_le_bytes());
    }
    bytes.resize(SIZE, 0);
    bytes
}

#[test]
fn srci_zlib_bomb_is_bounded() {
    for (what, declared, limit) in [
        ("honest 3 MiB", None, 16 << 20),
        ("declares 64 MiB", Some(64 << 20), 16 << 20),
        ("declares 4 GiB", Some(u32::MAX), 2 << 20),
        ("declares 100 bytes", Some(100), 2 << 20),
    ] {
        let bytes = zlib_bomb(declared);
        let (peak, total) = measure(|| {
            dxcopy_harness::exercise(&bytes).unwrap();
        });
        println!("SRCI zlib bomb, {what}: peak {peak} bytes live, {total} bytes allocated");
        assert!(peak <= limit, "{what}: peak {peak} bytes live");
    }
}

#[test]
fn hostile_4k_inputs_stay_within_a_few_mib() {
    for (what, bytes) in hostile() {
        assert_eq!(bytes.len(), SIZE, "{what}");
        let (peak, total) = measure(|| {
            let r = dxcopy_harness::exercise(&bytes);
            assert!(r.is_ok(), "{what}: {r:?}");
        });
        println!("{what}: peak {peak} bytes live, {total} bytes allocated");
        assert!(
            peak <= PEAK_LIMIT && total <= TOTAL_LIMIT,
            "{what}: peak {peak} bytes live, {total} bytes allocated in all"
        );
    }
}

#[test]
fn hostile_inputs_are_errors() {
    use dxcopy_read::{Container, ReadErrorKind};
    let all = hostile();
    let kind = |i: usize| Container::parse(&all[i].1).map(|_| ()).unwrap_err().kind;
    assert!(matches!(kind(0), ReadErrorKind::OffsetTablePastEnd { .. }));
    for i in 1..=3 {
        assert!(matches!(kind(i), ReadErrorKind::PartDataPastEnd { .. }));
    }
    assert!(matches!(kind(5), ReadErrorKind::PartOverlap { .. }));
    // The 4 GiB bitcode is refused by the program decoder, not read.
    let c = Container::parse(&all[6].1).unwrap();
    let dxil = c.find(dxcopy_read::PartName::DXIL).unwrap();
    assert!(matches!(
        dxcopy_read::Program::parse(&dxil).unwrap_err().kind,
        ReadErrorKind::Truncated { .. }
    ));
}

#[test]
fn memory_grows_with_the_input_not_with_claims() {
    // The same unsorted many-parts shape at 4 KiB and 64 KiB: memory per
    // input byte stays bounded (what parse/check/edit keep is linear).
    let make = |size: u32| {
        let n = (size - 32) / 12;
        let mut v = header(n, size);
        let table_end = 32 + 4 * n;
        for i in (0..n).rev() {
            v.extend_from_slice(&(table_end + 8 * i).to_le_bytes());
        }
        for i in 0..n {
            v.extend_from_slice(&i.to_le_bytes());
            v.extend_from_slice(&[0; 4]);
        }
        v.resize(size as usize, 0);
        v
    };
    let mut peaks = Vec::new();
    for size in [4096u32, 65536] {
        let bytes = make(size);
        let (peak, _) = measure(|| {
            dxcopy_harness::exercise(&bytes).unwrap();
        });
        println!("{size}-byte input of 12-byte parts: peak {peak} bytes live");
        // Every part costs its decoded form in dxinfo's inspection and a plan
        // entry per edit: a constant factor of the input, never a claim.
        assert!(
            peak <= 128 * size as usize,
            "{size}-byte input: peak {peak} bytes live"
        );
        peaks.push(peak);
    }
    // 16 times the input, at most 16 times the memory (plus slack): linear.
    assert!(
        peaks[1] <= 20 * peaks[0],
        "memory grows faster than the input: {peaks:?}"
    );
}
