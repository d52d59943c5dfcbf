//! The container digest (header bytes 4..20): DXC's `ComputeHashRetail` /
//! `ComputeHashDebug`, the same function fxc uses for its DXBC checksum.
//!
//! It is MD5's compression function over `D = container[20..FileSize]` with a
//! different finalisation (docs/format/digest.md §2): the last block carries the
//! bit count *first* (`W0`) and a second length word at bytes 60..63 (`W15`).
//! Retail: `W0 = 8n`, `W15 = 2n | 1`. Debug: `W0 = 16n | 0xF`,
//! `W15 = 4n | 0x10000000`. All mod 2^32.

use crate::cursor::{le_u32s, Cursor};
use md5::block_api::compress;

mod lanes;
pub use lanes::{container_digests_many, LANES};

const IV: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// The BYPASS sentinel digest (sixteen 0x01 bytes).
pub const BYPASS: [u8; 16] = [1; 16];
/// The PREVIEW sentinel digest (sixteen 0x02 bytes), written for pre-release shader models.
pub const PREVIEW: [u8; 16] = [2; 16];
/// The all-zero digest ("not validated").
pub const ZERO: [u8; 16] = [0; 16];

/// What a container's stored digest is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DigestKind {
    /// A valid retail digest (fxc, dxc validator).
    Retail,
    /// A valid debug digest (shaders only allowed with the debug layer).
    Debug,
    /// All zero: not signed.
    Zero,
    /// The BYPASS sentinel.
    Bypass,
    /// The PREVIEW sentinel.
    Preview,
    /// Anything else: stale or foreign bytes.
    Invalid,
}

impl DigestKind {
    /// Lower-case name as used in MANIFEST.tsv and on the command line.
    pub fn as_str(&self) -> &'static str {
        match self {
            DigestKind::Retail => "retail",
            DigestKind::Debug => "debug",
            DigestKind::Zero => "zero",
            DigestKind::Bypass => "bypass",
            DigestKind::Preview => "preview",
            DigestKind::Invalid => "invalid",
        }
    }
}

impl std::fmt::Display for DigestKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which variant of the digest function to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// `ComputeHashRetail`.
    Retail,
    /// `ComputeHashDebug`.
    Debug,
}

/// Streaming digest: feed bytes with [`update`](Self::update), then finish
/// with one or both variants (they share every full block, so one pass gives both).
#[derive(Clone)]
pub struct DigestHasher {
    state: [u32; 4],
    buf: [u8; 64],
    buf_len: usize,
    total: u64,
}

impl Default for DigestHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl DigestHasher {
    /// A fresh hasher.
    pub fn new() -> Self {
        DigestHasher {
            state: IV,
            buf: [0; 64],
            buf_len: 0,
            total: 0,
        }
    }

    /// A hasher that has consumed `total` bytes: `state` after the full
    /// blocks, then `tail` (shorter than a block) not yet compressed.
    fn resume(state: [u32; 4], tail: &[u8], total: u64) -> Self {
        let mut buf = [0; 64];
        buf[..tail.len()].copy_from_slice(tail);
        DigestHasher {
            state,
            buf,
            buf_len: tail.len(),
            total,
        }
    }

    /// Feeds `data`.
    pub fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.buf_len > 0 {
            let take = (64 - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < 64 {
                return;
            }
            compress(&mut self.state, &[self.buf]);
            self.buf_len = 0;
        }
        let (blocks, tail) = data.as_chunks::<64>();
        if !blocks.is_empty() {
            compress(&mut self.state, blocks);
        }
        self.buf[..tail.len()].copy_from_slice(tail);
        self.buf_len = tail.len();
    }

    /// Finishes with `variant` without consuming the hasher.
    pub fn finish(&self, variant: Variant) -> [u8; 16] {
        let n = self.total as u32;
        let (w0, w15) = match variant {
            Variant::Retail => (n.wrapping_mul(8), n.wrapping_mul(2) | 1),
            Variant::Debug => (n.wrapping_shl(4) | 0xF, n.wrapping_shl(2) | 0x1000_0000),
        };
        let mut state = self.state;
        let r = &self.buf[..self.buf_len];
        let mut block = [0u8; 64];
        if r.len() < 56 {
            block[..4].copy_from_slice(&w0.to_le_bytes());
            block[4..4 + r.len()].copy_from_slice(r);
            block[4 + r.len()] = 0x80;
            block[60..].copy_from_slice(&w15.to_le_bytes());
            compress(&mut state, &[block]);
        } else {
            block[..r.len()].copy_from_slice(r);
            block[r.len()] = 0x80;
            compress(&mut state, &[block]);
            let mut last = [0u8; 64];
            last[..4].copy_from_slice(&w0.to_le_bytes());
            last[60..].copy_from_slice(&w15.to_le_bytes());
            compress(&mut state, &[last]);
        }
        let mut out = [0u8; 16];
        for (i, w) in state.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// `ComputeHashRetail` over raw bytes.
pub fn retail(data: &[u8]) -> [u8; 16] {
    let mut h = DigestHasher::new();
    h.update(data);
    h.finish(Variant::Retail)
}

/// `ComputeHashDebug` over raw bytes.
pub fn debug(data: &[u8]) -> [u8; 16] {
    let mut h = DigestHasher::new();
    h.update(data);
    h.finish(Variant::Debug)
}

/// The bytes a container digest covers: `[20, FileSize)`, or `None` when
/// FileSize is below 20 or beyond the input.
pub fn signed_range(container: &[u8]) -> Option<&[u8]> {
    let file_size = Cursor::new(container, 0).u32(24, "FileSize").ok()?;
    container.get(20..usize::try_from(file_size).ok()?)
}

/// Computes both variants of a container's digest in one pass.
pub fn container_digests(container: &[u8]) -> Option<([u8; 16], [u8; 16])> {
    let range = signed_range(container)?;
    let mut h = DigestHasher::new();
    h.update(range);
    Some((h.finish(Variant::Retail), h.finish(Variant::Debug)))
}

/// The kind of a stored digest that can be told without hashing: zero and
/// the sentinels. `None` means the digest is retail, debug or invalid, which
/// only hashing the container decides (see [`kind_from_digests`]).
pub fn sentinel_kind(stored: &[u8]) -> Option<DigestKind> {
    match stored {
        s if s == ZERO => Some(DigestKind::Zero),
        s if s == BYPASS => Some(DigestKind::Bypass),
        s if s == PREVIEW => Some(DigestKind::Preview),
        _ => None,
    }
}

/// Classifies a stored digest given the container's computed
/// `(retail, debug)` digests (`None` when FileSize is out of range).
pub fn kind_from_digests(stored: &[u8], computed: Option<([u8; 16], [u8; 16])>) -> DigestKind {
    if let Some(kind) = sentinel_kind(stored) {
        return kind;
    }
    match computed {
        Some((r, _)) if r == stored => DigestKind::Retail,
        Some((_, d)) if d == stored => DigestKind::Debug,
        _ => DigestKind::Invalid,
    }
}

/// Classifies the digest stored at bytes 4..20 of `container`. Zero and the
/// sentinels cost nothing; anything else costs one pass over the container.
pub fn classify(container: &[u8]) -> DigestKind {
    let Some(stored) = container.get(4..20) else {
        return DigestKind::Invalid;
    };
    if let Some(kind) = sentinel_kind(stored) {
        return kind;
    }
    kind_from_digests(stored, container_digests(container))
}

/// The four little-endian u32 words `A B C D` as `%08x` (vkd3d-dxbc / DXC test style).
pub fn to_words(digest: &[u8; 16]) -> String {
    le_u32s(digest)
        .map(|w| format!("{w:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dxc_unit_test_vectors() {
        let abc = concat!(
            "abcdefghijklmnopqrstuvwxyzabcdef",
            "abcdefghijklmnopqrstuvwxyzghijkl",
            "abcdefghijklmnopqrstuvwxyzmnopqr",
            "abcdefghijklmnopqrstuvwxyzstuvwx",
            "abcdefghijklmnopqrstuvwxyzyzabcd"
        );
        let cases: [(&[u8], &str); 5] = [
            (b"", "f6600d14 bae275b7 d4be4a4e a1e9b201"),
            (abc.as_bytes(), "00830fe6 d8d8a035 e6d62794 016629df"),
            (&[b'a'; 160], "a5e5a0bb d96dd9f8 0b4b7191 d63aa54a"),
            (&[b'z'; 160], "58ed1b7a 90ede58b f9ad857c 5440e613"),
            (&b"ab".repeat(80), "f4fc06fc 0bbd9ef7 765ae0f7 52a55925"),
        ];
        for (input, want) in cases {
            assert_eq!(to_words(&retail(input)), want, "len {}", input.len());
        }
    }

    #[test]
    fn boundary_vectors_retail_and_debug() {
        let text = include_str!("../tests/data/digest-vectors.txt");
        let mut n = 0;
        for line in text.lines().filter(|l| l.starts_with("len=")) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let len: usize = f[0][4..].parse().unwrap();
            let input: Vec<u8> = (0..len).map(|i| (i & 0xff) as u8).collect();
            assert_eq!(f[1], "retail");
            assert_eq!(
                to_words(&retail(&input)),
                f[2..6].join(" "),
                "retail len {len}"
            );
            assert_eq!(f[6], "debug");
            assert_eq!(
                to_words(&debug(&input)),
                f[7..11].join(" "),
                "debug len {len}"
            );
            n += 1;
        }
        assert!(n >= 16, "only {n} vectors");
    }

    #[test]
    fn vkd3d_proton_vectors() {
        // code[i] = i; checksum over code[20..size] for every size 21..=256.
        let code: Vec<u8> = (0..=255u8).collect();
        let text = include_str!("../tests/data/vkd3d-checksum-vectors.txt");
        let mut sizes = Vec::new();
        for line in text.lines().filter(|l| l.starts_with("size=")) {
            let (size, words) = line[5..].split_once(' ').unwrap();
            let size: usize = size.parse().unwrap();
            assert_eq!(to_words(&retail(&code[20..size])), words, "size {size}");
            sizes.push(size);
        }
        assert_eq!(sizes, (21..=256).collect::<Vec<_>>());
    }

    #[test]
    fn streaming_equals_one_shot_at_every_split() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        let want = retail(&data);
        for split in [0, 1, 63, 64, 65, 127, 128, 200, 300] {
            let mut h = DigestHasher::new();
            h.update(&data[..split]);
            h.update(&data[split..]);
            assert_eq!(h.finish(Variant::Retail), want, "split {split}");
        }
    }

    #[test]
    fn classification() {
        let mut c = vec![0u8; 32];
        c[..4].copy_from_slice(b"DXBC");
        c[20] = 1;
        c[24] = 32;
        assert_eq!(classify(&c), DigestKind::Zero);
        c[4..20].copy_from_slice(&BYPASS);
        assert_eq!(classify(&c), DigestKind::Bypass);
        c[4..20].copy_from_slice(&PREVIEW);
        assert_eq!(classify(&c), DigestKind::Preview);
        let r = retail(&c[20..]);
        c[4..20].copy_from_slice(&r);
        assert_eq!(classify(&c), DigestKind::Retail);
        let d = debug(&c[20..]);
        c[4..20].copy_from_slice(&d);
        assert_eq!(classify(&c), DigestKind::Debug);
        c[4] ^= 1;
        assert_eq!(classify(&c), DigestKind::Invalid);
        // FileSize past the end: cannot be valid.
        c[24] = 40;
        assert_eq!(classify(&c), DigestKind::Invalid);
        assert_eq!(classify(b"DXBC"), DigestKind::Invalid);
    }

    #[test]
    fn kinds_without_and_with_hashing() {
        let (r, d) = ([7u8; 16], [9u8; 16]);
        type Case<'a> = (
            &'a [u8],
            Option<([u8; 16], [u8; 16])>,
            Option<DigestKind>,
            DigestKind,
        );
        let cases: [Case<'_>; 6] = [
            (&ZERO, None, Some(DigestKind::Zero), DigestKind::Zero),
            (
                &BYPASS,
                Some((r, d)),
                Some(DigestKind::Bypass),
                DigestKind::Bypass,
            ),
            (
                &PREVIEW,
                None,
                Some(DigestKind::Preview),
                DigestKind::Preview,
            ),
            (&r, Some((r, d)), None, DigestKind::Retail),
            (&d, Some((r, d)), None, DigestKind::Debug),
            (&r, None, None, DigestKind::Invalid),
        ];
        for (i, (stored, computed, cheap, full)) in cases.into_iter().enumerate() {
            assert_eq!(sentinel_kind(stored), cheap, "case {i}");
            assert_eq!(kind_from_digests(stored, computed), full, "case {i}");
        }
    }
}
