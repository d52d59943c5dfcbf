//! Unit tests of the derived parts on small modules: exact bytes of each
//! part, and how the validator version shapes them.

use super::*;
use crate::dxil::model::{Metadata, MetadataId};
use crate::dxil::test_module::Builder;
use crate::psv0::Psv0;

/// `!{id, name, comp type (f32), kind, !{index}, interpolation, rows 1,
/// cols, start row, start col 0, !{3, usage}}`; `place` is `[id, kind,
/// index, cols, row, usage]`.
fn element(b: &mut Builder, name: &str, place: [i64; 6]) -> MetadataId {
    let [id, kind, index, cols, row, usage] = place;
    let fields = [id, 0, 9, kind, 0, 2, 1, cols, row, 0];
    let mut operands = Vec::new();
    for (at, value) in fields.iter().enumerate() {
        operands.push(Some(match at {
            1 => b.string(name),
            4 => b.ints(&[index]),
            _ => b.i32(*value),
        }));
    }
    operands.push(Some(b.ints(&[3, usage])));
    b.node(operands)
}

/// A vertex shader (`main`) with inputs POSITION (3 columns), TEXCOORD0
/// and TEXCOORD1 (2 columns each) and the output `SV_POSITION` (spelled as
/// a user might), with validator version 1.`minor`.
fn vertex_module(minor: i64) -> Module {
    let mut b = Builder::new();
    b.versions("vs", 6, minor);
    let position = element(&mut b, "POSITION", [0, 0, 0, 3, 0, 0b111]);
    let uv0 = element(&mut b, "TEXCOORD", [1, 0, 0, 2, 1, 0b11]);
    let uv1 = element(&mut b, "TEXCOORD", [2, 0, 1, 2, 2, 0b01]);
    let out = element(&mut b, "SV_POSITION", [0, 3, 0, 4, 0, 0b1111]);
    let inputs = b.node(vec![Some(position), Some(uv0), Some(uv1)]);
    let outputs = b.node(vec![Some(out)]);
    let signatures = b.node(vec![Some(inputs), Some(outputs), None]);
    let main = b.string("main");
    let entry = b.node(vec![None, Some(main), Some(signatures), None, None]);
    b.named("dx.entryPoints", vec![entry]);
    b.module
}

fn part(module: &Module, name: PartName) -> Option<Vec<u8>> {
    derive_parts(module)
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.data)
}

fn words(out: &mut Vec<u8>, values: &[u32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// One ISG1/OSG1 record: stream 0, `name`, `index`, `system`, float,
/// `register`, masks, minimum precision 0.
fn record(out: &mut Vec<u8>, name: u32, index: u32, system: u32, register: u32, masks: [u8; 2]) {
    words(out, &[0, name, index, system, 3, register]);
    out.extend_from_slice(&[masks[0], masks[1], 0, 0]);
    words(out, &[0]);
}

#[test]
fn input_signature_from_validator_1_7_shares_names_and_is_padded() {
    let mut expected = Vec::new();
    words(&mut expected, &[3, 8]);
    record(&mut expected, 104, 0, 0, 0, [0x7, 0x7]);
    record(&mut expected, 113, 0, 0, 1, [0x3, 0x3]);
    record(&mut expected, 113, 1, 0, 2, [0x3, 0x1]);
    expected.extend_from_slice(b"POSITION\0TEXCOORD\0\0\0");
    assert_eq!(part(&vertex_module(7), PartName::ISG1).unwrap(), expected);
}

#[test]
fn input_signature_below_validator_1_7_copies_names_and_ends_unpadded() {
    let mut expected = Vec::new();
    words(&mut expected, &[3, 8]);
    record(&mut expected, 104, 0, 0, 0, [0x7, 0x7]);
    record(&mut expected, 113, 0, 0, 1, [0x3, 0x3]);
    record(&mut expected, 122, 1, 0, 2, [0x3, 0x1]);
    expected.extend_from_slice(b"POSITION\0TEXCOORD\0TEXCOORD\0");
    assert_eq!(part(&vertex_module(6), PartName::ISG1).unwrap(), expected);
}

#[test]
fn output_signature_spells_system_values_as_dxc_does() {
    let mut expected = Vec::new();
    words(&mut expected, &[1, 8]);
    // Output: the never-written mask is the complement of the usage.
    record(&mut expected, 40, 0, 1, 0, [0xf, 0x0]);
    expected.extend_from_slice(b"SV_Position\0");
    assert_eq!(part(&vertex_module(7), PartName::OSG1).unwrap(), expected);
}

#[test]
fn validator_1_4_masks_inputs_read_nothing_outputs_write_their_columns() {
    let isg1 = part(&vertex_module(4), PartName::ISG1).unwrap();
    // The masks of the first record (bytes 24 and 25 of the record at 8).
    assert_eq!(&isg1[8 + 24..8 + 26], &[0x7, 0x0]);
    let osg1 = part(&vertex_module(4), PartName::OSG1).unwrap();
    assert_eq!(&osg1[8 + 24..8 + 26], &[0xf, 0xf0]);
}

#[test]
fn psv0_version_follows_the_validator_version() {
    for (minor, version, size) in [
        (0, 0, 24),
        (1, 1, 36),
        (5, 1, 36),
        (6, 2, 48),
        (7, 2, 48),
        (8, 3, 52),
        (9, 3, 52),
        (10, 4, 56),
    ] {
        assert_eq!(psv::psv_version((1, minor)), version);
        let data = part(&vertex_module(i64::from(minor)), PartName::PSV0).unwrap();
        let psv = Psv0::parse_data(&data, 0, Some(ShaderKind::Vertex)).unwrap();
        assert_eq!(
            (psv.version, psv.runtime_info_size),
            (version, size),
            "1.{minor}"
        );
        assert_eq!(
            psv.runtime_info.num_bytes_group_shared_memory.is_some(),
            minor >= 10
        );
    }
}

#[test]
fn validator_0_0_shapes_the_parts_as_the_newest_validator() {
    // dx.valver 0.0: not meant to be validated; dxc orders major 0 after
    // every 1.x, so PSV0 is the newest version, as for 1.10.
    let mut module = vertex_module(10);
    let newest = part(&module, PartName::PSV0).unwrap();
    let named = module
        .named_metadata
        .iter()
        .position(|n| n.name == b"dx.valver")
        .unwrap();
    let mut b = Builder { module };
    let zero = b.ints(&[0, 0]);
    b.module.named_metadata[named].operands = vec![zero];
    module = b.module;
    let metadata = DxilMetadata::read(&module).unwrap();
    assert_eq!(metadata.validator_version, Some((0, 0)));
    assert_eq!(
        super::validator_version(&metadata),
        super::UNBOUND_VALIDATOR
    );
    assert_eq!(psv::psv_version(super::UNBOUND_VALIDATOR), 4);
    assert_eq!(part(&module, PartName::PSV0).unwrap(), newest);
}

#[test]
fn psv0_version_3_has_every_table_of_a_vertex_shader() {
    let mut expected = Vec::new();
    words(&mut expected, &[52]);
    // Stage union: output position present; wave lanes 0 and any.
    expected.extend_from_slice(&[1, 0, 0, 0]);
    words(&mut expected, &[0, 0, 0, 0, u32::MAX]);
    // Stage Vertex, no view ID, no stage data; 3 / 1 / 0 elements; 3 input
    // vectors; output vectors [1, 0, 0, 0]; no thread group; entry name at 28.
    expected.extend_from_slice(&[1, 0, 0, 0, 3, 1, 0, 3, 1, 0, 0, 0]);
    words(&mut expected, &[0, 0, 0, 28]);
    words(&mut expected, &[0]); // no resources
    words(&mut expected, &[36]);
    expected.extend_from_slice(b"\0POSITION\0TEXCOORD\0TEXCOORD\0main\0\0\0\0");
    words(&mut expected, &[2, 0, 1]); // semantic indices [0, 1]
    words(&mut expected, &[16]);
    // name, indices, rows, start row, cols|allocated|start col, kind,
    // component type, interpolation, dynamic mask|stream, reserved.
    for (name, indices, cols, row, kind) in [
        (1u32, 0u32, 3u8, 0u8, 0u8),
        (10, 0, 2, 1, 0),
        (19, 1, 2, 2, 0),
        (0, 0, 4, 0, 3),
    ] {
        words(&mut expected, &[name, indices]);
        expected.extend_from_slice(&[1, row, 0x40 | cols, kind, 3, 2, 0, 0]);
    }
    // The input-to-output table: 12 input components, one mask word each.
    words(&mut expected, &[0; 12]);
    assert_eq!(part(&vertex_module(8), PartName::PSV0).unwrap(), expected);
}

#[test]
fn feature_info_maps_shader_flags_to_feature_bits() {
    use feature_info::feature_bits;
    for (flags, features) in [
        (0u64, 0u64),
        (1 << 2, 0x1),                            // doubles
        (1 << 20, 0x8000),                        // 64-bit integers
        (1 << 5, 0x10),                           // minimum precision
        ((1 << 5) | (1 << 23), 0x4_0000),         // native low precision
        (1 << 23, 0),                             // native types, none used
        (1 << 21, 0x1_0000),                      // view ID
        (1 << 38, 0x1_0000_0000),                 // extended command info
        ((1 << 39) | (1 << 40), 0x300_0000_0000), // derivatives, group
        (1 << 0 | 1 << 8, 0),                     // no feature bit for these
    ] {
        assert_eq!(feature_bits(flags), features, "{flags:#x}");
    }
}

#[test]
fn check_names_the_stage_a_moved_module_disagrees_on() {
    let vertex = vertex_module(8);
    let mut b = Builder::new();
    b.versions("cs", 6, 8);
    let signatures = b.node(vec![None, None, None]);
    let threads_tag = b.i32(4);
    let threads = b.ints(&[8, 8, 1]);
    let properties = b.node(vec![Some(threads_tag), Some(threads)]);
    let main = b.string("main");
    let entry = b.node(vec![
        None,
        Some(main),
        Some(signatures),
        None,
        Some(properties),
    ]);
    b.named("dx.entryPoints", vec![entry]);
    let compute = b.module;

    let parts = derive_parts(&vertex).unwrap();
    let list: Vec<(&[u8; 4], &[u8])> = parts
        .iter()
        .map(|p| (p.name.as_bytes(), p.data.as_slice()))
        .collect();
    let bytes = crate::testutil::build(&list);
    let container = crate::Container::parse(&bytes).unwrap();
    assert_eq!(check_parts(&container, &vertex).unwrap(), vec![]);
    let found = check_parts(&container, &compute).unwrap();
    let text: Vec<String> = found.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        text,
        [
            "ISG1: 3 elements, the module's signature has 0",
            "OSG1: 1 element, the module's signature has 0",
            "PSV0: shader stage Vertex, the module's entry point is Compute",
        ]
    );
}

/// The vertex shader of [`vertex_module`] recording the shader flag
/// `raw_flags` (entry property tag 0) though no instruction uses it.
fn vertex_module_with_flags(raw_flags: i64) -> Module {
    let module = vertex_module(8);
    let entries = module
        .named_metadata
        .iter()
        .position(|n| n.name == b"dx.entryPoints")
        .unwrap();
    let entry = module.named_metadata[entries].operands[0];
    let mut b = Builder { module };
    let tag = b.i32(0);
    let value = b.int(64, raw_flags);
    let properties = b.node(vec![Some(tag), Some(value)]);
    let Some(Metadata::Node { operands, .. }) = b.module.metadata.get_mut(entry.0 as usize) else {
        panic!("the entry is a node");
    };
    operands[4] = Some(properties);
    b.module
}

#[test]
fn recorded_flags_the_usage_does_not_need_are_a_mismatch() {
    // Raw bit 2: double precision; SFI0 (made from the recorded flags) says
    // Doubles, but nothing uses a double.
    let module = vertex_module_with_flags(1 << 2);
    let metadata = DxilMetadata::read(&module).unwrap();
    let usage = feature_info::feature_usage(&module, &metadata).unwrap();
    assert_eq!((usage.recorded, usage.needed), (0x1, 0x0));
    let mismatches = checked_with_its_derived_parts(&module);
    assert_eq!(mismatches.len(), 1, "{mismatches:?}");
    assert_eq!(mismatches[0].part, PartName::SFI0);
    assert_eq!(
        mismatches[0].detail,
        "the module's shader flags do not match its usage (dxc's validator: \"Flags must match usage\"): \
         recorded but not used: Doubles"
    );
    // Without the recorded flag the parts match the module.
    let module = vertex_module_with_flags(0);
    assert_eq!(checked_with_its_derived_parts(&module), []);
}

/// [`check_parts`] of a container holding just `module`'s derived parts.
fn checked_with_its_derived_parts(module: &Module) -> Vec<PartMismatch> {
    let parts = derive_parts(module).unwrap();
    let named: Vec<(&[u8; 4], &[u8])> = parts
        .iter()
        .map(|p| (p.name.as_bytes(), p.data.as_slice()))
        .collect();
    let bytes = crate::testutil::build(&named);
    let container = crate::Container::parse(&bytes).unwrap();
    check_parts(&container, module).unwrap()
}
