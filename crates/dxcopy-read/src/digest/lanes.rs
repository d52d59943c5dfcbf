//! The digests of several containers at once: MD5's compression function
//! run on [`LANES`] independent messages side by side.
//!
//! MD5 is a chain of dependent steps, so one message keeps a core's
//! arithmetic units mostly idle; the same step on four messages is four
//! times the work in nearly the same time. The lanes are plain `[u32; 4]`
//! arrays that the compiler turns into vector instructions (SSE2 is part of
//! every x86-64), with no `unsafe` and no CPU detection. Elsewhere the
//! code is still correct, only not faster.
//!
//! A lane that reaches the end of its message finishes it with the scalar
//! [`DigestHasher`] (the last one or two blocks carry DXC's own length
//! words) and takes the next message, so messages of different lengths keep
//! every lane busy until the queue runs dry.

use super::{signed_range, DigestHasher, Variant, IV};

/// How many messages are hashed side by side.
pub const LANES: usize = 4;

type Lanes = [u32; LANES];

/// MD5's additive constants (RFC 1321 §3.4: the integer part of
/// 2^32 × |sin(i + 1)|).
const K: [u32; 64] = [
    0xd76a_a478,
    0xe8c7_b756,
    0x2420_70db,
    0xc1bd_ceee,
    0xf57c_0faf,
    0x4787_c62a,
    0xa830_4613,
    0xfd46_9501,
    0x6980_98d8,
    0x8b44_f7af,
    0xffff_5bb1,
    0x895c_d7be,
    0x6b90_1122,
    0xfd98_7193,
    0xa679_438e,
    0x49b4_0821,
    0xf61e_2562,
    0xc040_b340,
    0x265e_5a51,
    0xe9b6_c7aa,
    0xd62f_105d,
    0x0244_1453,
    0xd8a1_e681,
    0xe7d3_fbc8,
    0x21e1_cde6,
    0xc337_07d6,
    0xf4d5_0d87,
    0x455a_14ed,
    0xa9e3_e905,
    0xfcef_a3f8,
    0x676f_02d9,
    0x8d2a_4c8a,
    0xfffa_3942,
    0x8771_f681,
    0x6d9d_6122,
    0xfde5_380c,
    0xa4be_ea44,
    0x4bde_cfa9,
    0xf6bb_4b60,
    0xbebf_bc70,
    0x289b_7ec6,
    0xeaa1_27fa,
    0xd4ef_3085,
    0x0488_1d05,
    0xd9d4_d039,
    0xe6db_99e5,
    0x1fa2_7cf8,
    0xc4ac_5665,
    0xf429_2244,
    0x432a_ff97,
    0xab94_23a7,
    0xfc93_a039,
    0x655b_59c3,
    0x8f0c_cc92,
    0xffef_f47d,
    0x8584_5dd1,
    0x6fa8_7e4f,
    0xfe2c_e6e0,
    0xa301_4314,
    0x4e08_11a1,
    0xf753_7e82,
    0xbd3a_f235,
    0x2ad7_d2bb,
    0xeb86_d391,
];

/// The left rotation of each step (RFC 1321 §3.4).
const SHIFT: [[u32; 4]; 4] = [
    [7, 12, 17, 22],
    [5, 9, 14, 20],
    [4, 11, 16, 23],
    [6, 10, 15, 21],
];

#[inline(always)]
fn lanes(f: impl Fn(usize) -> u32) -> Lanes {
    std::array::from_fn(f)
}

/// MD5's round function of `round` on every lane.
#[inline(always)]
fn mix(round: usize, b: Lanes, c: Lanes, d: Lanes) -> Lanes {
    lanes(|i| match round {
        0 => d[i] ^ (b[i] & (c[i] ^ d[i])),
        // The two masked halves never overlap, so `+` is `|`.
        1 => (b[i] & d[i]).wrapping_add(c[i] & !d[i]),
        2 => b[i] ^ c[i] ^ d[i],
        _ => c[i] ^ (b[i] | !d[i]),
    })
}

/// MD5's compression function on one block of every lane.
#[inline(always)]
fn compress(state: &mut [Lanes; 4], words: &[Lanes; 16]) {
    let [mut a, mut b, mut c, mut d] = *state;
    for (round, shifts) in SHIFT.iter().enumerate() {
        for j in 0..16 {
            let w = match round {
                0 => j,
                1 => (5 * j + 1) % 16,
                2 => (3 * j + 5) % 16,
                _ => (7 * j) % 16,
            };
            let (f, m, k, s) = (
                mix(round, b, c, d),
                words[w],
                K[round * 16 + j],
                shifts[j % 4],
            );
            // b + ((a + f + m + k) <<< s)
            let new = lanes(|i| {
                f[i].wrapping_add(a[i])
                    .wrapping_add(m[i])
                    .wrapping_add(k)
                    .rotate_left(s)
                    .wrapping_add(b[i])
            });
            (a, b, c, d) = (d, new, b, c);
        }
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d]) {
        *s = lanes(|i| s[i].wrapping_add(v[i]));
    }
}

/// A message being hashed in a lane: its full blocks still to go, and what
/// follows them.
struct Job<'a> {
    /// Index of the message in the caller's list.
    index: usize,
    blocks: &'a [[u8; 64]],
    tail: &'a [u8],
    total: u64,
}

/// The `(retail, debug)` digests of every container of `containers`, as
/// [`container_digests`](super::container_digests) gives them one by one
/// (`None` where FileSize is below 20 or beyond the input).
pub fn container_digests_many(containers: &[&[u8]]) -> Vec<Option<([u8; 16], [u8; 16])>> {
    let mut out = vec![None; containers.len()];
    let mut jobs: Vec<Job<'_>> = containers
        .iter()
        .enumerate()
        .filter_map(|(index, c)| {
            let range = signed_range(c)?;
            let (blocks, tail) = range.as_chunks::<64>();
            Some(Job {
                index,
                blocks,
                tail,
                total: range.len() as u64,
            })
        })
        .collect();
    // Longest first: the short ones then fill the lanes the long ones free,
    // and the lanes run out of work at nearly the same time.
    jobs.sort_by_key(|j| std::cmp::Reverse(j.blocks.len()));
    let mut queue = jobs.into_iter();
    let mut slots: [Option<Job<'_>>; LANES] = std::array::from_fn(|_| None);
    let mut state = [[0u32; LANES]; 4];
    let finish = |job: &Job<'_>, s: [u32; 4], out: &mut [Option<([u8; 16], [u8; 16])>]| {
        let h = DigestHasher::resume(s, job.tail, job.total);
        out[job.index] = Some((h.finish(Variant::Retail), h.finish(Variant::Debug)));
    };
    loop {
        // Fill idle lanes; a message with no full block finishes at once.
        for (lane, slot) in slots.iter_mut().enumerate() {
            while slot.is_none() {
                let Some(job) = queue.next() else { break };
                if job.blocks.is_empty() {
                    finish(&job, IV, &mut out);
                    continue;
                }
                for (w, iv) in IV.iter().enumerate() {
                    state[w][lane] = *iv;
                }
                *slot = Some(job);
            }
        }
        let busy = slots.iter().filter(|s| s.is_some()).count();
        if busy == 0 {
            return out;
        }
        if busy == 1 {
            // The last message: the scalar function is faster for one lane.
            let lane = slots
                .iter()
                .position(Option::is_some)
                .expect("one busy lane");
            let job = slots[lane].take().expect("busy");
            let mut s: [u32; 4] = std::array::from_fn(|w| state[w][lane]);
            md5::block_api::compress(&mut s, job.blocks);
            finish(&job, s, &mut out);
            continue;
        }
        // Run every busy lane up to the end of its shortest message.
        let run = slots
            .iter()
            .flatten()
            .map(|j| j.blocks.len())
            .min()
            .expect("a busy lane");
        const IDLE: [u8; 64] = [0; 64];
        for n in 0..run {
            let block = |lane: usize| slots[lane].as_ref().map_or(&IDLE, |j| &j.blocks[n]);
            let rows: [&[u8; 64]; LANES] = std::array::from_fn(block);
            let words: [Lanes; 16] = std::array::from_fn(|w| {
                lanes(|i| {
                    let b = &rows[i][w * 4..w * 4 + 4];
                    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
                })
            });
            compress(&mut state, &words);
        }
        for (lane, slot) in slots.iter_mut().enumerate() {
            if let Some(job) = slot {
                job.blocks = &job.blocks[run..];
                if job.blocks.is_empty() {
                    let s = std::array::from_fn(|w| state[w][lane]);
                    finish(job, s, &mut out);
                    *slot = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::container_digests;

    /// A "container" of `len` bytes whose FileSize field says `file_size`.
    fn container(len: usize, file_size: u32, seed: u32) -> Vec<u8> {
        let mut c: Vec<u8> = (0..len as u32)
            .map(|i| (i.wrapping_mul(2_654_435_761).wrapping_add(seed) >> 13) as u8)
            .collect();
        if len >= 28 {
            c[24..28].copy_from_slice(&file_size.to_le_bytes());
        }
        c
    }

    #[test]
    fn equals_one_by_one_for_every_length_mix() {
        // Lengths around block edges, messages with no full block, bad
        // FileSize values, and more messages than lanes in uneven mixes.
        let mut inputs = Vec::new();
        let mut seed = 1;
        for len in [
            0, 20, 27, 28, 83, 84, 85, 139, 140, 147, 148, 149, 212, 1000, 4096, 70_000,
        ] {
            for file_size in [len as u32, len as u32 / 2, len as u32 + 1, 19] {
                inputs.push(container(len, file_size, seed));
                seed += 1;
            }
        }
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let want: Vec<_> = refs.iter().map(|c| container_digests(c)).collect();
        assert!(want.iter().filter(|w| w.is_some()).count() >= 24);
        for take in [0, 1, 2, LANES - 1, LANES, LANES + 1, 9, refs.len()] {
            for start in [0, 3, 17] {
                let part = &refs[start.min(refs.len())..(start + take).min(refs.len())];
                let got = container_digests_many(part);
                let want: Vec<_> = part.iter().map(|c| container_digests(c)).collect();
                assert_eq!(got, want, "take {take} from {start}");
            }
        }
        assert_eq!(container_digests_many(&refs), want);
    }

    #[test]
    fn same_messages_same_digests() {
        // Equal messages in different lanes give equal digests, the retail
        // one being `retail` of bytes 20..FileSize; one changed byte differs.
        let abc = "abcdefghijklmnopqrstuvwxyzabcdef".repeat(5);
        let mut c = vec![0u8; 20];
        c.extend_from_slice(abc.as_bytes());
        let size = c.len() as u32;
        c[24..28].copy_from_slice(&size.to_le_bytes());
        let mut d = c.clone();
        d[30] ^= 1;
        let got = container_digests_many(&[&c, &d, &c]);
        let (retail, _) = got[0].expect("in range");
        assert_eq!(got[2], got[0]);
        assert_ne!(got[1], got[0]);
        assert_eq!(retail, super::super::retail(&c[20..]));
    }
}
