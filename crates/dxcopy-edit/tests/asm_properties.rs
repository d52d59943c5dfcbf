//! Property test of the assembler: any program the disassembler prints
//! assembles back to the same tokens. Programs are generated at the token
//! level (from the format, not with the assembler's encoder): arithmetic,
//! moves, conversions and two-destination instructions over temps, inputs,
//! outputs, constant buffers with relative indices and immediates of any
//! bits, with masks, swizzles, selections, negate/absolute, minimum
//! precision, `_sat` and `[precise]`. Float immediates the listing prints
//! inexactly are recovered from the program itself, as `dxasm --check`
//! does. The harness's generated listing shapes (deep nesting, halfway
//! floats) are checked the same way.
//!
//! Programs are written in fxc's encoding where the text leaves a choice
//! (docs/dxasm.md, "What the text does not say"): `[r0.x + 0]` is a
//! relative index alone, sources have swizzles or selections, never masks.

use dxcopy_edit::asm::{check_round_trip, RoundTrip};
use dxcopy_read::listing::dxbc::ListingOptions;
use dxcopy_read::Container;
use proptest::prelude::*;

/// (opcode, destinations, sources, float: takes `_sat`)
const OPS: [(u32, usize, usize, bool); 13] = [
    (0, 1, 2, true),   // add
    (56, 1, 2, true),  // mul
    (50, 1, 3, true),  // mad
    (54, 1, 1, true),  // mov
    (55, 1, 3, false), // movc
    (30, 1, 2, false), // iadd
    (1, 1, 2, false),  // and
    (17, 1, 2, true),  // dp4
    (43, 1, 1, false), // itof
    (28, 1, 1, false), // ftou
    (79, 1, 2, false), // ult
    (38, 2, 2, false), // imul
    (78, 2, 2, false), // udiv
];

#[derive(Debug, Clone)]
enum Operand {
    Register {
        kind: u32,
        index: u32,
        components: u32,
        extended: u32,
        relative: Option<(u32, u32)>,
    },
    Immediate(Vec<u32>),
}

fn extended() -> impl Strategy<Value = u32> {
    (0u32..4, prop::sample::select(vec![0u32, 1, 2, 4, 5]))
        .prop_map(|(modifier, precision)| (modifier << 6) | (precision << 14))
}

fn destination() -> impl Strategy<Value = Operand> {
    (
        prop::sample::select(vec![0u32, 2]),
        0u32..16,
        1u32..16,
        extended(),
    )
        .prop_map(|(kind, index, mask, ext)| Operand::Register {
            kind,
            index,
            components: 2 | (mask << 4),
            // Destinations take no negate/absolute.
            extended: ext & !(3 << 6),
            relative: None,
        })
}

fn source() -> impl Strategy<Value = Operand> {
    let components = prop_oneof![
        any::<u8>().prop_map(|s| 2 | (1 << 2) | (u32::from(s) << 4)),
        (0u32..4).prop_map(|c| 2 | (2 << 2) | (c << 4)),
    ];
    let register = (
        prop::sample::select(vec![0u32, 1, 8]),
        0u32..16,
        components,
        extended(),
        proptest::option::of((0u32..8, 0u32..100)),
    )
        .prop_map(
            |(kind, index, components, extended, relative)| Operand::Register {
                kind,
                index,
                components,
                extended,
                relative: if kind == 8 { relative } else { None },
            },
        );
    let immediate = prop_oneof![
        any::<u32>().prop_map(|v| vec![v]),
        proptest::collection::vec(any::<u32>(), 4),
        // Floats of every exponent, as compilers write them.
        proptest::collection::vec(any::<f32>().prop_map(f32::to_bits), 4),
    ]
    .prop_map(Operand::Immediate);
    prop_oneof![3 => register, 1 => immediate]
}

fn encode(operand: &Operand, out: &mut Vec<u32>) {
    match operand {
        Operand::Immediate(values) => {
            out.push(if values.len() == 1 { 0x4001 } else { 0x4002 });
            out.extend(values);
        }
        Operand::Register {
            kind,
            index,
            components,
            extended,
            relative,
        } => {
            let two_d = *kind == 8;
            let mut token = components | (kind << 12) | (if two_d { 2 } else { 1 } << 20);
            match relative {
                // fxc writes `[r0.x + 0]` as a relative index alone.
                Some((_, 0)) => token |= 2 << 25,
                Some(_) => token |= 3 << 25,
                None => {}
            }
            if *extended != 0 {
                token |= 1 << 31;
            }
            out.push(token);
            if *extended != 0 {
                out.push(1 | extended);
            }
            if two_d {
                out.push(*index % 4);
                match relative {
                    Some((register, offset)) => {
                        if *offset != 0 {
                            out.push(*offset);
                        }
                        out.extend([0x0010_000a, *register]);
                    }
                    None => out.push(*index),
                }
            } else {
                out.push(*index);
            }
        }
    }
}

fn instruction() -> impl Strategy<Value = Vec<u32>> {
    (0..OPS.len(), any::<bool>(), 0u32..16).prop_flat_map(|(i, sat, precise)| {
        let (opcode, dsts, srcs, float) = OPS[i];
        (
            proptest::collection::vec(destination(), dsts),
            proptest::collection::vec(source(), srcs),
        )
            .prop_map(move |(d, s)| {
                let mut body = Vec::new();
                for o in d.iter().chain(&s) {
                    encode(o, &mut body);
                }
                let controls = (u32::from(sat && float) << 13) | (precise << 19);
                let mut words = vec![opcode | controls | ((body.len() as u32 + 1) << 24)];
                words.extend(body);
                words
            })
    })
}

fn container(program_type: u32, body: &[u32]) -> Vec<u8> {
    let mut words = vec![(program_type << 16) | 0x50, body.len() as u32 + 3];
    words.extend(body);
    words.push(0x0100_003e);
    let data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    dxcopy_edit::ContainerBuilder::new()
        .part(b"SHEX", &data)
        .build()
        .unwrap()
}

fn assert_round_trips(bytes: &[u8]) -> Result<(), TestCaseError> {
    let c = Container::parse(bytes).unwrap();
    let result = check_round_trip(&c, &ListingOptions::default())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(matches!(result, RoundTrip::Identical { .. }), "{result:?}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn printed_programs_assemble_back(
        program_type in 0u32..6,
        instructions in proptest::collection::vec(instruction(), 1..12),
    ) {
        let body: Vec<u32> = instructions.concat();
        assert_round_trips(&container(program_type, &body))?;
    }
}

#[test]
fn generated_listing_shapes_assemble_back() {
    let shapes = dxcopy_harness::shapes::listing_shapes();
    assert!(!shapes.is_empty());
    let mut checked = 0;
    for (name, bytes) in shapes {
        let c = Container::parse(&bytes).unwrap();
        // The shape past the nesting bound does not decode: nothing to print.
        if name == "nesting-past-limit" {
            assert!(check_round_trip(&c, &ListingOptions::default()).is_err());
            continue;
        }
        let result = check_round_trip(&c, &ListingOptions::default()).unwrap();
        assert!(
            matches!(result, RoundTrip::Identical { .. }),
            "{name}: {result:?}"
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
}
