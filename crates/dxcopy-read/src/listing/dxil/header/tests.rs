//! Exact text of each header section, from hand-built modules and parts.

use super::module::{
    write_buffer_definitions, write_resource_bindings, write_signatures, write_view_id_state,
    ViewIdState,
};
use super::parts::{write_feature_info, write_hash, write_signature, SignatureKind};
use super::psv::write_runtime_info;
use crate::dxil::metadata::DxilMetadata;
use crate::dxil::model::{ConstantKind, MetadataId, Type};
use crate::dxil::test_module::Builder;
use crate::hash::ShaderHash;
use crate::listing::dxil::release::DxcRelease;
use crate::psv0::Psv0;
use crate::signature::{ComponentType, Signature, SignatureElement, SignatureFormat, SystemValue};
use crate::ShaderKind;

fn latest() -> DxcRelease {
    DxcRelease::LATEST
}

/// A pixel shader with a cbuffer (matrix, vector, array, int), a sampler,
/// a multisampled texture, an unbounded typed buffer and a structured UAV
/// with a counter; its signatures; a ViewID state.
fn pixel_module() -> Builder {
    let mut b = Builder::new();
    b.versions("ps", 6, 0);
    let float = b.float();
    let i32_ty = b.int_ty(32);
    let float4 = b.vector(4, float);
    let float3 = b.vector(3, float);
    let int2 = b.vector(2, i32_ty);
    let matrix = b.array(4, float4);
    let weights = b.array(2, float);
    let cb = b.named_struct("hostlayout.Globals", vec![matrix, float4, weights, i32_ty]);
    let cb_ptr = b.pointer(cb);
    let particle = b.named_struct("struct.Particle", vec![float3, float, int2]);
    let class = b.named_struct("class.RWStructuredBuffer<Particle>", vec![particle]);
    let class_ptr = b.pointer(class);
    let texture = b.named_struct("class.Texture2DMS<vector<float, 4>, 4>", vec![float4]);
    let texture_ptr = b.pointer(texture);
    let buffer = b.named_struct("class.Buffer<unsigned int>", vec![i32_ty]);
    let buffer_ptr = b.pointer(buffer);
    let sampler = b.named_struct("struct.SamplerState", vec![i32_ty]);
    let sampler_ptr = b.pointer(sampler);

    // Resources.
    let res = |b: &mut Builder, ptr, fields: Vec<Option<MetadataId>>| {
        let symbol = b.undef(ptr);
        let mut operands = vec![fields[0], Some(symbol)];
        operands.extend_from_slice(&fields[1..]);
        b.node(operands)
    };
    let fields = |b: &mut Builder, id: i64, name: &str, space: i64, lower: i64, range: i64| {
        let id = b.i32(id);
        let name = b.string(name);
        let space = b.i32(space);
        let lower = b.i32(lower);
        let range = b.i32(range);
        vec![Some(id), Some(name), Some(space), Some(lower), Some(range)]
    };
    let tex_fields = {
        let mut f = fields(&mut b, 0, "tex", 0, 0, 1);
        f.push(Some(b.i32(3))); // Texture2DMS
        f.push(Some(b.i32(4))); // samples
        let props = b.ints(&[0, 9]); // element type f32
        f.push(Some(props));
        f
    };
    let tex = res(&mut b, texture_ptr, tex_fields);
    let buf_fields = {
        let mut f = fields(&mut b, 1, "buf", 0, 1, -1);
        f.push(Some(b.i32(10))); // TypedBuffer
        f.push(Some(b.i32(0)));
        let props = b.ints(&[0, 5]); // u32
        f.push(Some(props));
        f
    };
    let buf = res(&mut b, buffer_ptr, buf_fields);
    let uav_fields = {
        let mut f = fields(&mut b, 0, "particles", 0, 3, 1);
        f.push(Some(b.i32(12))); // StructuredBuffer
        f.push(Some(b.int(1, 0)));
        f.push(Some(b.int(1, -1))); // counter
        f.push(Some(b.int(1, 0)));
        let props = b.ints(&[1, 24]);
        f.push(Some(props));
        f
    };
    let uav = res(&mut b, class_ptr, uav_fields);
    let cb_fields = {
        let mut f = fields(&mut b, 0, "Globals", 0, 0, 1);
        f.push(Some(b.i32(104)));
        f.push(None);
        f
    };
    let cbuffer = res(&mut b, cb_ptr, cb_fields);
    let samp_fields = {
        let mut f = fields(&mut b, 0, "samp", 2, 1, 1);
        f.push(Some(b.i32(0)));
        f.push(None);
        f
    };
    let samp = res(&mut b, sampler_ptr, samp_fields);
    let srvs = b.node(vec![Some(tex), Some(buf)]);
    let uavs = b.node(vec![Some(uav)]);
    let cbs = b.node(vec![Some(cbuffer)]);
    let samplers = b.node(vec![Some(samp)]);
    let resources = b.node(vec![Some(srvs), Some(uavs), Some(cbs), Some(samplers)]);
    b.named("dx.resources", vec![resources]);

    // Type annotations.
    let matrix_md = b.ints(&[4, 4, 2]);
    let name = |b: &mut Builder, text: &str| b.string(text);
    let f_world = {
        let (n, o, c) = (name(&mut b, "world"), b.i32(0), b.i32(9));
        b.field(vec![(6, n), (2, matrix_md), (3, o), (7, c)])
    };
    let f_color = {
        let (n, o, c) = (name(&mut b, "color"), b.i32(64), b.i32(9));
        b.field(vec![(6, n), (3, o), (7, c)])
    };
    let f_weights = {
        let (n, o, c) = (name(&mut b, "weights"), b.i32(80), b.i32(9));
        b.field(vec![(6, n), (3, o), (7, c)])
    };
    let f_count = {
        let (n, o, c) = (name(&mut b, "count"), b.i32(100), b.i32(4));
        b.field(vec![(6, n), (3, o), (7, c)])
    };
    let cb_size = b.i32(104);
    let cb_annotation = b.node(vec![
        Some(cb_size),
        Some(f_world),
        Some(f_color),
        Some(f_weights),
        Some(f_count),
    ]);
    let p_pos = {
        let (n, o, c) = (name(&mut b, "pos"), b.i32(0), b.i32(9));
        b.field(vec![(6, n), (3, o), (7, c)])
    };
    let p_life = {
        let (n, o, c) = (name(&mut b, "life"), b.i32(12), b.i32(9));
        b.field(vec![(6, n), (3, o), (7, c)])
    };
    let p_ids = {
        let (n, o, c) = (name(&mut b, "ids"), b.i32(16), b.i32(4));
        b.field(vec![(6, n), (3, o), (7, c)])
    };
    let particle_size = b.i32(24);
    let particle_annotation = b.node(vec![
        Some(particle_size),
        Some(p_pos),
        Some(p_life),
        Some(p_ids),
    ]);
    let tag = b.i32(0);
    let cb_undef = b.undef(cb);
    let particle_undef = b.undef(particle);
    let annotations = b.node(vec![
        Some(tag),
        Some(cb_undef),
        Some(cb_annotation),
        Some(particle_undef),
        Some(particle_annotation),
    ]);
    b.named("dx.typeAnnotations", vec![annotations]);

    // Entry point: signatures and properties.
    let element = |b: &mut Builder, id: i64, name: &str, kind: i64, interp: i64, dyn_mask: i64| {
        let fields = [id, 0, 9, kind, 0, interp, 1, 4, id, 0];
        let mut operands: Vec<Option<MetadataId>> = Vec::new();
        for (index, value) in fields.iter().enumerate() {
            operands.push(Some(match index {
                1 => b.string(name),
                4 => b.ints(&[0]),
                _ => b.i32(*value),
            }));
        }
        operands.push(if dyn_mask != 0 {
            Some(b.ints(&[2, dyn_mask]))
        } else {
            None
        });
        b.node(operands)
    };
    let position = element(&mut b, 0, "SV_Position", 3, 4, 0);
    let texcoord = element(&mut b, 1, "TEXCOORD", 0, 2, 0b0101);
    let target = element(&mut b, 0, "SV_Target", 16, 0, 0);
    let inputs = b.node(vec![Some(position), Some(texcoord)]);
    let outputs = b.node(vec![Some(target)]);
    let signatures = b.node(vec![Some(inputs), Some(outputs), None]);
    let flags_tag = b.i32(0);
    let flags = b.int(64, 1 << 21); // uses the view ID
    let properties = b.node(vec![Some(flags_tag), Some(flags)]);
    let main = b.string("main");
    let entry = b.node(vec![
        None,
        Some(main),
        Some(signatures),
        Some(resources),
        Some(properties),
    ]);
    b.named("dx.entryPoints", vec![entry]);

    // ViewID state: 8 inputs, 4 outputs; outputs 0 and 2 depend on the view
    // ID; input 4 feeds output 0, input 5 outputs 0 and 1.
    let words: Vec<u64> = vec![8, 4, 0b0101, 0, 0, 0, 0, 0b0001, 0b0011, 0, 0];
    let state_ty = b.array(words.len() as u64, i32_ty);
    let state = b.constant(state_ty, ConstantKind::Data(words));
    let state_md = b.md_value(state_ty, state);
    let state_node = b.node(vec![Some(state_md)]);
    b.named("dx.viewIdState", vec![state_node]);
    b
}

impl Builder {
    fn md_value(
        &mut self,
        ty: crate::dxil::model::TypeId,
        value: crate::dxil::model::ValueId,
    ) -> MetadataId {
        self.module
            .metadata
            .push(crate::dxil::model::Metadata::Value { ty, value });
        MetadataId(self.module.metadata.len() as u32 - 1)
    }
}

#[test]
fn metadata_reads_every_resource_field() {
    let b = pixel_module();
    let md = DxilMetadata::read(&b.module).unwrap();
    assert_eq!(md.dxil_version, Some((1, 0)));
    assert_eq!(md.shader_kind(), Some(ShaderKind::Pixel));
    let resources = md.module_resources();
    assert_eq!(resources.srvs.len(), 2);
    assert_eq!(resources.srvs[0].name, b"tex");
    assert_eq!(resources.srvs[0].sample_count(), 4);
    assert_eq!(resources.srvs[1].range_size, u32::MAX);
    assert!(resources.uavs[0].has_counter());
    assert_eq!(resources.cbuffers[0].cbuffer_size(), 104);
    assert_eq!(resources.samplers[0].space, 2);
    let entry = md.main_entry().unwrap();
    assert_eq!(entry.signatures.inputs[1].dynamic_index_mask, 0b0101);
    assert_eq!(md.type_annotations.structs.len(), 2);
    assert_eq!(
        md.type_annotations.structs[0].fields[0]
            .matrix
            .unwrap()
            .rows,
        4
    );
    assert_eq!(md.view_id_state.as_ref().unwrap().len(), 11);
    // The structured buffer's class struct and its element.
    let (class, dims) = resources.uavs[0].struct_type(&b.module).unwrap();
    assert!(dims.is_empty());
    assert!(matches!(b.module.ty(class), Some(Type::Struct(st))
        if st.name.as_deref() == Some(b"class.RWStructuredBuffer<Particle>")));
    let element = resources.uavs[0].element_struct_member(&b.module).unwrap();
    assert!(matches!(b.module.ty(element), Some(Type::Struct(st))
        if st.name.as_deref() == Some(b"struct.Particle")));
    assert!(md.uses_min_precision());
}

#[test]
fn module_signatures_print_interpolation_and_dynamic_index() {
    let b = pixel_module();
    let md = DxilMetadata::read(&b.module).unwrap();
    let mut out = String::new();
    write_signatures(&md, &latest(), &mut out);
    assert_eq!(
        out,
        ";\n; Input signature:\n;\n\
         ; Name                 Index             InterpMode DynIdx\n\
         ; -------------------- ----- ---------------------- ------\n\
         ; SV_Position              0          noperspective       \n\
         ; TEXCOORD                 0                 linear     xz\n\
         ;\n; Output signature:\n;\n\
         ; Name                 Index             InterpMode DynIdx\n\
         ; -------------------- ----- ---------------------- ------\n\
         ; SV_Target                0                              \n"
    );
}

#[test]
fn buffer_definitions_print_cbuffer_and_structured_layouts() {
    let b = pixel_module();
    let md = DxilMetadata::read(&b.module).unwrap();
    let mut out = String::new();
    write_buffer_definitions(&b.module, &md, &latest(), &mut out).unwrap();
    let expected = [
        ";",
        "; Buffer Definitions:",
        ";",
        "; cbuffer Globals",
        "; {",
        ";",
        ";   struct hostlayout.Globals",
        ";   {",
        ";",
        ";       column_major float4x4 world;                  ; Offset:    0",
        ";       float4 color;                                 ; Offset:   64",
        ";       float weights[2];                             ; Offset:   80",
        ";       int count;                                    ; Offset:  100",
        ";   ",
        ";   } Globals;                                        ; Offset:    0 Size:   104",
        ";",
        "; }",
        ";",
        "; Resource bind info for particles",
        "; {",
        ";",
        ";   struct struct.Particle",
        ";   {",
        ";",
        ";       float3 pos;                                   ; Offset:    0",
        ";       float life;                                   ; Offset:   12",
        ";       int2 ids;                                     ; Offset:   16",
        ";   ",
        ";   } $Element;                                       ; Offset:    0 Size:    24",
        ";",
        "; }",
        ";",
    ];
    assert_eq!(out, expected.map(|l| format!("{l}\n")).concat());

    // dxc 1.2: no `;` after struct variable names.
    let mut old = String::new();
    write_buffer_definitions(&b.module, &md, &DxcRelease::line(1, 2), &mut old).unwrap();
    assert!(old.contains(
        ";   } Globals                                         ; Offset:    0 Size:   104\n"
    ));
    assert!(old.contains(
        ";   } $Element;                                       ; Offset:    0 Size:    24\n"
    ));
}

#[test]
fn resource_bindings_print_every_column() {
    let b = pixel_module();
    let md = DxilMetadata::read(&b.module).unwrap();
    let mut out = String::new();
    write_resource_bindings(&md, &latest(), &mut out);
    let expected = [
        ";",
        "; Resource Bindings:",
        ";",
        "; Name                                 Type  Format         Dim      ID      HLSL Bind  Count",
        "; ------------------------------ ---------- ------- ----------- ------- -------------- ------",
        "; Globals                           cbuffer      NA          NA     CB0            cb0     1",
        "; samp                              sampler      NA          NA      S0      s1,space2     1",
        "; tex                               texture     f32       2dMS4      T0             t0     1",
        "; buf                               texture     u32         buf      T1             t1unbounded",
        "; particles                             UAV  struct     r/w+cnt      U0             u3     1",
        ";",
    ];
    assert_eq!(out, expected.map(|l| format!("{l}\n")).concat());
    // Before 1.6 dxc appended the sample count as one character.
    let mut old = String::new();
    write_resource_bindings(&md, &DxcRelease::line(1, 5), &mut old);
    assert!(old.contains("     f32       2dMS\u{4}      T0"));
}

#[test]
fn view_id_state_lists_dependencies() {
    let b = pixel_module();
    let md = DxilMetadata::read(&b.module).unwrap();
    let mut out = String::new();
    write_view_id_state(&md, &mut out).unwrap();
    assert_eq!(
        out,
        ";\n; ViewId state:\n;\n\
         ; Number of inputs: 8, outputs: 4\n\
         ; Outputs dependent on ViewId: { 0, 2 }\n\
         ; Inputs contributing to computation of Outputs:\n\
         ;   output 0 depends on inputs: { 4, 5 }\n\
         ;   output 1 depends on inputs: { 5 }\n\
         ;\n"
    );
}

/// A geometry shader has four streams: a table per stream that has outputs.
#[test]
fn view_id_state_of_a_geometry_shader_lists_streams_with_outputs() {
    let b = pixel_module();
    let mut md = DxilMetadata::read(&b.module).unwrap();
    md.shader_model.as_mut().unwrap().kind = Some(ShaderKind::Geometry);
    // 2 inputs; stream 0: 2 outputs (output 0 dependent on the view ID),
    // input 0 → output 1; stream 1: none; stream 2: 1 output from both
    // inputs; stream 3: none.
    md.view_id_state = Some(vec![2, 2, 0b01, 0b10, 0b00, 0, 1, 0b0, 0b1, 0b1, 0]);
    let mut out = String::new();
    write_view_id_state(&md, &mut out).unwrap();
    assert_eq!(
        out,
        ";\n; ViewId state:\n;\n\
         ; Number of inputs: 2, outputs per stream: { 2, 0, 1, 0 }\n\
         ; Outputs for Stream 0 dependent on ViewId: { 0 }\n\
         ; Outputs for Stream 2 dependent on ViewId: {  }\n\
         ; Inputs contributing to computation of Outputs for Stream 0:\n\
         ;   output 1 depends on inputs: { 0 }\n\
         ; Inputs contributing to computation of Outputs for Stream 2:\n\
         ;   output 0 depends on inputs: { 0, 1 }\n\
         ;\n"
    );
}

#[test]
fn view_id_state_shorter_than_its_counts_is_an_error() {
    let error = ViewIdState::decode(&[8, 4, 0], Some(ShaderKind::Pixel), false).unwrap_err();
    assert_eq!((error.word, error.len), (2, 3));
    // Huge counts with little data: an error, no allocation.
    assert!(ViewIdState::decode(&[u32::MAX, u32::MAX], Some(ShaderKind::Hull), true).is_err());
}

#[test]
fn feature_notes_follow_the_release_names() {
    let mut out = String::new();
    write_feature_info((1 << 11) | (1 << 27) | (1 << 41), &latest(), &mut out);
    assert_eq!(
        out,
        ";\n; Note: shader requires additional functionality:\n\
         ;       Typed UAV Load Additional Formats\n\
         ;       Wave Matrix\n\
         ;\n\
         ; Note: shader has optional feature flags set:\n\
         ;       Function requires visible group\n\
         ;\n"
    );
    let mut old = String::new();
    write_feature_info(
        (1 << 11) | (1 << 27) | (1 << 41),
        &DxcRelease::line(1, 6),
        &mut old,
    );
    assert_eq!(
        old,
        ";\n; Note: shader requires additional functionality:\n\
         ;       Typed UAV Load Additional Formats\n\
         ;       <RESERVED>\n\
         ;\n"
    );
    let mut none = String::new();
    write_feature_info(0, &latest(), &mut none);
    assert_eq!(none, "");
}

fn element(name: &'static [u8], register: u32, mask: u8, rw: u8) -> SignatureElement<'static> {
    SignatureElement {
        stream: Some(0),
        name_offset: 0,
        name,
        semantic_index: 0,
        system_value: SystemValue::Undefined,
        component_type: ComponentType::Float32,
        register,
        mask,
        rw_mask: rw,
        min_precision: None,
    }
}

#[test]
fn signature_parts_print_masks_and_special_registers() {
    let mut depth = element(b"SV_Depth", u32::MAX, 1, 0);
    depth.system_value = SystemValue::Depth;
    let signature = Signature {
        format: SignatureFormat::Dxil,
        param_count: 2,
        first_param_offset: 8,
        elements: vec![element(b"COLOR", 0, 0xf, 0xe), depth],
    };
    let mut out = String::new();
    write_signature(SignatureKind::Output, &signature, &latest(), &mut out);
    assert_eq!(
        out,
        ";\n; Output signature:\n;\n\
         ; Name                 Index   Mask Register SysValue  Format   Used\n\
         ; -------------------- ----- ------ -------- -------- ------- ------\n\
         ; COLOR                    0   xyzw        0     NONE   float   x   \n\
         ; SV_Depth                 0    N/A   oDepth    DEPTH   float    YES\n\
         ;\n"
    );
    let empty = Signature {
        elements: Vec::new(),
        param_count: 0,
        ..signature
    };
    let mut out = String::new();
    write_signature(
        SignatureKind::PatchConstant,
        &empty,
        &DxcRelease::line(1, 6),
        &mut out,
    );
    assert_eq!(
        out,
        ";\n; Patch Constant signature signature:\n;\n\
         ; Name                 Index   Mask Register SysValue  Format   Used\n\
         ; -------------------- ----- ------ -------- -------- ------- ------\n\
         ; no parameters\n"
    );
}

#[test]
fn hash_line_marks_source() {
    let hash = ShaderHash {
        flags: 1,
        digest: [0xab; 16],
    };
    let mut out = String::new();
    write_hash(&hash, &mut out);
    assert_eq!(
        out,
        "; shader hash: abababababababababababababababab (includes source)\n"
    );
}

fn psv(info: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&((info.len() * 4) as u32).to_le_bytes());
    for word in info {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(&0u32.to_le_bytes()); // no resources
    bytes
}

#[test]
fn runtime_information_per_release() {
    // Version 0, compute: dxc 1.6 prints the stage not at all, 1.7 its name.
    let v0 = psv(&[0, 0, 0, 0, 32, 32]);
    let parsed = Psv0::parse_data(&v0, 0, Some(ShaderKind::Compute)).unwrap();
    let mut out = String::new();
    write_runtime_info(
        &parsed,
        ShaderKind::Compute,
        &DxcRelease::line(1, 6),
        &mut out,
    );
    assert_eq!(
        out,
        ";\n; Pipeline Runtime Information: \n;\n; WaveSize=32\n;\n"
    );
    let mut out = String::new();
    write_runtime_info(
        &parsed,
        ShaderKind::Compute,
        &DxcRelease::line(1, 7),
        &mut out,
    );
    assert_eq!(
        out,
        ";\n; Pipeline Runtime Information: \n;\n; Compute Shader\n; WaveSize=32\n;\n"
    );
    let mut out = String::new();
    write_runtime_info(
        &parsed,
        ShaderKind::Compute,
        &DxcRelease::line(1, 5),
        &mut out,
    );
    assert_eq!(out, ";\n; Pipeline Runtime Information: \n;\n;\n");
}

#[test]
fn runtime_information_block_from_1_8_2502() {
    // Version 2 vertex shader: stage byte, counts, thread group.
    let mut info = vec![1, 0, 0, 0, 0, u32::MAX];
    info.push(u32::from_le_bytes([1, 0, 0, 0])); // stage vertex, no view ID
    info.push(u32::from_le_bytes([2, 1, 0, 2])); // elements in/out/pc, input vectors
    info.push(u32::from_le_bytes([1, 0, 0, 0])); // output vectors
    info.extend_from_slice(&[0, 0, 0]);
    let bytes = psv(&info);
    let mut bytes = bytes;
    // Signature tables of version 1+: string table, index table, elements.
    bytes.extend_from_slice(&4u32.to_le_bytes());
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend_from_slice(&0u32.to_le_bytes());
    bytes.extend_from_slice(&16u32.to_le_bytes());
    bytes.extend_from_slice(&[0; 16 * 3]);
    // Input-to-output table: 2 input vectors x 1 dword of 1 output vector, x4.
    bytes.extend_from_slice(&[0; 4 * 8]);
    let parsed = Psv0::parse_data(&bytes, 0, Some(ShaderKind::Vertex));
    let Ok(parsed) = parsed else {
        // The synthetic record must decode; show why not.
        panic!("{parsed:?}");
    };
    let mut out = String::new();
    write_runtime_info(
        &parsed,
        ShaderKind::Vertex,
        &DxcRelease::public(1, 8, 2502),
        &mut out,
    );
    assert_eq!(
        out,
        ";\n; Pipeline Runtime Information: \n;\n;PSVRuntimeInfo:\n\
         ; Vertex Shader\n; OutputPositionPresent=1\n\
         ; MinimumExpectedWaveLaneCount: 0\n; MaximumExpectedWaveLaneCount: 4294967295\n\
         ; UsesViewID: false\n; SigInputElements: 2\n; SigOutputElements: 1\n\
         ; SigPatchConstOrPrimElements: 0\n; SigInputVectors: 2\n\
         ; SigOutputVectors[0]: 1\n; SigOutputVectors[1]: 0\n\
         ; SigOutputVectors[2]: 0\n; SigOutputVectors[3]: 0\n;\n"
    );
    // Development builds print the block from the 4712th commit
    // (8a677d22c) on: `dxc(private) 1.8.0.4575` prints 1.8.2403's lines.
    let print = |release: &DxcRelease| {
        let mut out = String::new();
        write_runtime_info(&parsed, ShaderKind::Vertex, release, &mut out);
        out
    };
    let dev = |ident: &str| DxcRelease::from_ident(ident, Some((1, 8))).unwrap();
    let before = print(&dev("dxc(private) 1.8.0.4575 (416fab6b5)"));
    assert_eq!(
        before,
        ";\n; Pipeline Runtime Information: \n;\n; Vertex Shader\n\
         ; OutputPositionPresent=1\n;\n"
    );
    assert_eq!(before, print(&DxcRelease::public(1, 8, 2403)));
    assert_eq!(
        print(&dev("dxc(private) 1.8.0.14712 (main, 8a677d22c)")),
        out
    );
}

#[test]
fn hostile_types_do_not_recurse_forever() {
    // The structured buffer's element struct made to contain itself: the
    // layout has no size (and says the type nests too deep), and the
    // tables are an error at the nesting bound, not a shorter table.
    let mut b = pixel_module();
    let particle = b
        .module
        .types
        .iter()
        .position(
            |t| matches!(t, Type::Struct(st) if st.name.as_deref() == Some(b"struct.Particle")),
        )
        .unwrap();
    let id = crate::dxil::model::TypeId(particle as u32);
    if let Some(Type::Struct(st)) = b.module.types.get_mut(particle) {
        st.body.as_mut().unwrap()[2] = id;
    }
    let md = DxilMetadata::read(&b.module).unwrap();
    let layout = crate::dxil::metadata::layout::DataLayout::of(&b.module);
    assert!(!layout.too_deep());
    assert_eq!(layout.alloc_size(&b.module, id), None);
    assert!(layout.too_deep());
    let mut out = String::new();
    let e = write_buffer_definitions(&b.module, &md, &latest(), &mut out).unwrap_err();
    assert!(
        matches!(e, super::module::BufferTablesError::TooDeep { .. }),
        "{e}"
    );
    assert!(out.len() < 1_000_000, "{} bytes", out.len());
    // The module as it was prints whole.
    let b = pixel_module();
    let md = DxilMetadata::read(&b.module).unwrap();
    let mut out = String::new();
    write_buffer_definitions(&b.module, &md, &latest(), &mut out).unwrap();
    assert!(out.contains("struct struct.Particle"));
}

#[test]
fn subobjects_print_each_kind() {
    use crate::rdat::{RdatSubobject, SubobjectDetail, SubobjectKind};
    let subobjects = vec![
        RdatSubobject {
            kind: SubobjectKind::StateObjectConfig,
            name: b"config",
            detail: SubobjectDetail::StateObjectConfig { flags: 5 },
        },
        RdatSubobject {
            kind: SubobjectKind::GlobalRootSignature,
            name: b"grs",
            detail: SubobjectDetail::RootSignature {
                offset: 0,
                size: 36,
            },
        },
        RdatSubobject {
            kind: SubobjectKind::SubobjectToExportsAssociation,
            name: b"assoc",
            detail: SubobjectDetail::SubobjectToExportsAssociation {
                subobject: b"grs",
                exports: vec![b"main", b"miss"],
            },
        },
        RdatSubobject {
            kind: SubobjectKind::HitGroup,
            name: b"hits",
            detail: SubobjectDetail::HitGroup {
                hit_group_type: 0,
                any_hit: b"",
                closest_hit: b"chs",
                intersection: b"",
            },
        },
        RdatSubobject {
            kind: SubobjectKind::RaytracingPipelineConfig1,
            name: b"pipeline",
            detail: SubobjectDetail::RaytracingPipelineConfig1 {
                max_trace_recursion_depth: 2,
                flags: 0x500,
            },
        },
        RdatSubobject {
            kind: SubobjectKind::Unknown(5),
            name: b"skipped",
            detail: SubobjectDetail::Unknown,
        },
    ];
    let mut out = String::new();
    super::subobjects::write_subobjects(&subobjects, &latest(), &mut out);
    assert_eq!(
        out,
        ";\n; Subobjects:\n;\n\
         ;  StateObjectConfig config = { STATE_OBJECT_FLAG_ALLOW_LOCAL_DEPENDENCIES_ON_EXTERNAL_DEFINITIONS | STATE_OBJECT_FLAG_ALLOW_STATE_OBJECT_ADDITIONS };\n\
         ;  GlobalRootSignature grs = { <36 bytes> };\n\
         ;  SubobjectToExportsAssociation assoc = { \"grs\", { \"main\", \"miss\" }  };\n\
         ;  HitGroup hits = { HitGroupType = Triangle, Anyhit = \"\", Closesthit = \"chs\", Intersection = \"\" };\n\
         ;  RaytracingPipelineConfig1 pipeline = { MaxTraceRecursionDepth = 2, Flags = RAYTRACING_PIPELINE_FLAG_SKIP_TRIANGLES | RAYTRACING_PIPELINE_FLAG_ALLOW_OPACITY_MICROMAPS };\n\
         ;\n"
    );
    let mut old = String::new();
    super::subobjects::write_subobjects(
        &subobjects[4..],
        &DxcRelease::public(1, 8, 2502),
        &mut old,
    );
    assert!(
        old.contains("SKIP_TRIANGLES | <invalid RaytracingPipelineFlags> };"),
        "{old}"
    );
    let mut none = String::new();
    super::subobjects::write_subobjects(&subobjects[5..], &latest(), &mut none);
    assert_eq!(none, "");
}
