//! Generated containers with shapes of hostile or unusual input that the
//! corpus lacks, for the mutation sweep, the fuzz seeds and the bound tests:
//! deeply nested blocks (a listing's indentation grows with the nesting) and
//! float immediates that lie exactly halfway at the listing's last digit.

/// `ps_5_0`'s version token.
const PS_5_0: u32 = 0x0000_0050;
/// `loop`, `endloop` and `ret`, each one token long.
const LOOP: u32 = 0x0100_0030;
const ENDLOOP: u32 = 0x0100_0016;
const RET: u32 = 0x0100_003e;

fn program(version: u32, body: &[u32]) -> Vec<u8> {
    let mut words = vec![version, (body.len() + 2) as u32];
    words.extend_from_slice(body);
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// SHEX data of a `ps_5_0` program of `depth` nested `loop`s, closed again,
/// then `ret` (`2 × depth + 3` tokens).
pub fn nested_loops(depth: usize) -> Vec<u8> {
    let mut body = vec![LOOP; depth];
    body.extend(std::iter::repeat_n(ENDLOOP, depth));
    body.push(RET);
    program(PS_5_0, &body)
}

/// SHEX data of `rounds` times `depth` nested loops closed again, then `ret`:
/// a long program whose nesting stays within `depth`.
pub fn repeated_nesting(depth: usize, rounds: usize) -> Vec<u8> {
    let mut body = Vec::with_capacity(rounds * depth * 2 + 1);
    for _ in 0..rounds {
        body.extend(std::iter::repeat_n(LOOP, depth));
        body.extend(std::iter::repeat_n(ENDLOOP, depth));
    }
    body.push(RET);
    program(PS_5_0, &body)
}

/// The floats of [`halfway_floats`]: each exactly halfway between two
/// six-decimal values (`0.0078125`, `18.8515625`, `-0.0234375`, `2^-13`).
pub const HALFWAY_F32: [f32; 4] = [
    f32::from_bits(0x3c00_0000), // 0.0078125 = 2^-7
    f32::from_bits(0x4196_d000), // 18.8515625
    f32::from_bits(0xbcc0_0000), // -0.0234375
    f32::from_bits(0x3900_0000), // 2^-13 = 0.0001220703125
];

/// SHEX data of a `ps_5_0` program with halfway immediates in each form the
/// listing prints: `l(…)` floats, `d(…)` doubles and an immediate constant
/// buffer.
pub fn halfway_floats() -> Vec<u8> {
    let f = HALFWAY_F32.map(f32::to_bits);
    let mut body = Vec::new();
    // dcl_immediateConstantBuffer { { halfway floats } }: customdata class 3.
    body.extend_from_slice(&[0x0000_1835, 6, f[0], f[1], f[2], f[3]]);
    // mov o0.xyzw, l(f0, f1, f2, f3)
    body.extend_from_slice(&[0x0800_0036, 0x0010_20f2, 0, 0x0000_4002]);
    body.extend_from_slice(&f);
    // mul o0.xyzw, r0.xyzw, l(f0, f1, f2, f3)
    body.extend_from_slice(&[0x0a00_0038, 0x0010_20f2, 0, 0x0010_0e46, 0, 0x0000_4002]);
    body.extend_from_slice(&f);
    // dmov r0.xy, d(0.0078125, 18.8515625)
    let d = [0.007_812_5f64.to_bits(), 18.851_562_5f64.to_bits()];
    body.extend_from_slice(&[0x0800_00c7, 0x0010_0032, 0, 0x0000_5002]);
    for bits in d {
        body.extend_from_slice(&[bits as u32, (bits >> 32) as u32]);
    }
    body.push(RET);
    program(PS_5_0, &body)
}

/// Whole containers of the shapes above, named, for the sweep and the fuzz
/// seeds: nesting just within and just past
/// [`MAX_BLOCK_DEPTH`](dxcopy_read::sm4::MAX_BLOCK_DEPTH), a long
/// deeply nested program, and the halfway floats.
pub fn listing_shapes() -> Vec<(&'static str, Vec<u8>)> {
    let max = dxcopy_read::sm4::MAX_BLOCK_DEPTH;
    let shex = [
        ("nesting-at-limit", nested_loops(max)),
        ("nesting-past-limit", nested_loops(max + 1)),
        ("nesting-repeated", repeated_nesting(max, 8)),
        ("halfway-floats", halfway_floats()),
    ];
    shex.into_iter()
        .filter_map(|(name, data)| {
            dxcopy_edit::ContainerBuilder::new()
                .part(b"SHEX", &data)
                .build()
                .ok()
                .map(|bytes| (name, bytes))
        })
        .collect()
}
