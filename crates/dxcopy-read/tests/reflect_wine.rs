//! Wine's reflection cases: fxc containers from Wine's
//! `dlls/d3dcompiler_43/tests/reflection.c` (tests/data/wine-reflection.txt
//! says where from) with the values its tests expect from Microsoft's
//! d3dcompiler_47 (where _43 and _47 differ, _47's), checked against
//! [`Reflection::from_container`]. Each `#[test]` is one of Wine's test
//! functions; the expected values are written as Wine writes them (raw D3D
//! numbers), so each row can be compared with the C source.

use dxcopy_read::reflect::{BindDesc, Reflection, ShaderDesc, SignatureParameter, TypeDesc};
use dxcopy_read::{Container, DigestKind};

const DATA: &str = include_str!("data/wine-reflection.txt");

/// The creator string of the 9.29.952.3111 compiler that built most blobs.
const CREATOR_9_29: &str = "Microsoft (R) HLSL Shader Compiler 9.29.952.3111";

/// The container bytes of section `name` of the data file.
fn blob(name: &str) -> Vec<u8> {
    let header = format!("[{name}]");
    let start = DATA
        .find(&header)
        .unwrap_or_else(|| panic!("no section {name}"))
        + header.len();
    let body = &DATA[start..];
    let body = &body[..body.find("\n[").unwrap_or(body.len())];
    body.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| w.starts_with("0x"))
        .flat_map(|w| u32::from_str_radix(&w[2..], 16).unwrap().to_le_bytes())
        .collect()
}

/// Reflects section `name`, after checking the bytes are the ones fxc
/// signed (a transcription error breaks the digest).
fn reflect(name: &str) -> Reflection {
    let bytes = blob(name);
    let container = Container::parse(&bytes).unwrap();
    assert_eq!(
        container.digest_kind(),
        DigestKind::Retail,
        "{name}: digest"
    );
    Reflection::from_container(&container).unwrap()
}

/// Wine's `D3D11_SIGNATURE_PARAMETER_DESC` rows:
/// (name, index, register, system value, component type, mask, rw mask, stream).
type Param = (&'static str, u32, u32, u32, u32, u8, u8, u32);

fn check_params(what: &str, got: &[SignatureParameter], want: &[Param]) {
    assert_eq!(got.len(), want.len(), "{what}: count");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let g = (
            g.semantic_name.as_str(),
            g.semantic_index,
            g.register,
            g.system_value_type.raw(),
            g.component_type.raw(),
            g.mask,
            g.read_write_mask,
            g.stream,
        );
        assert_eq!(g, *w, "{what} {i}");
    }
}

/// Wine's `D3D12_SHADER_INPUT_BIND_DESC` rows: (name, type, bind point,
/// count, flags, return type, dimension, samples, space, id).
type Bind = (&'static str, u32, u32, u32, u32, u32, u32, u32, u32, u32);

fn check_binds(got: &[BindDesc], want: &[Bind]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let g = (
            g.name.as_deref().unwrap(),
            g.input_type.raw(),
            g.bind_point,
            g.bind_count,
            g.flags.unwrap().0,
            g.return_type.unwrap().raw(),
            g.dimension.unwrap().raw(),
            g.num_samples.unwrap(),
            g.space,
            g.id,
        );
        assert_eq!(g, *w, "binding {i}");
    }
}

/// The `D3D11_SHADER_DESC` counts Wine checks, in its order from
/// `InstructionCount` on.
fn counts(s: &ShaderDesc) -> Vec<u32> {
    [
        s.instruction_count,
        s.temp_register_count,
        s.temp_array_count,
        s.def_count,
        s.dcl_count,
        s.texture_normal_instructions,
        s.texture_load_instructions,
        s.texture_comp_instructions,
        s.texture_bias_instructions,
        s.texture_gradient_instructions,
        s.float_instruction_count,
        s.int_instruction_count,
        s.uint_instruction_count,
        s.static_flow_control_count,
        s.dynamic_flow_control_count,
        s.macro_instruction_count,
        s.array_instruction_count,
        s.cut_instruction_count,
        s.emit_instruction_count,
        s.gs_output_topology.map(|v| v.raw()),
        s.gs_max_output_vertex_count,
        s.input_primitive.map(|v| v.raw()),
        Some(s.patch_constant_parameters),
        s.gs_instance_count,
        s.control_points,
        s.hs_output_primitive.map(|v| v.raw()),
        s.hs_partitioning.map(|v| v.raw()),
        s.tessellator_domain.map(|v| v.raw()),
        s.barrier_instructions,
        s.interlocked_instructions,
        s.texture_store_instructions,
    ]
    .into_iter()
    .map(|v| v.expect("recorded"))
    .collect()
}

/// `test_reflection_references`: a vs_4_0 blob reflects.
#[test]
fn wine_reflection_references() {
    let r = reflect("vs_4_0");
    let s = r.shader.unwrap();
    assert_eq!(s.version.packed(), 0x10040);
    assert_eq!(s.creator.as_deref(), Some(CREATOR_9_29));
}

/// `test_reflection_desc_vs`: the shader description, the ID3D11 extras and
/// both signatures of a vs_4_1.
#[test]
fn wine_reflection_desc_vs() {
    let r = reflect("desc_vs");
    let s = r.shader.as_ref().unwrap();
    assert_eq!(s.version.packed(), 0x10041);
    assert_eq!(s.creator.as_deref(), Some(CREATOR_9_29));
    assert_eq!(s.flags.unwrap().0, 0x100);
    assert_eq!(
        (
            s.constant_buffers,
            s.bound_resources,
            s.input_parameters,
            s.output_parameters
        ),
        (Some(0), 0, 15, 11)
    );
    assert_eq!(
        counts(s),
        [
            21, 1, 5, 0, 18, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0
        ]
    );
    assert_eq!(
        (
            s.bitwise_instruction_count,
            s.conversion_instruction_count,
            s.mov_instruction_count,
            s.movc_instruction_count
        ),
        (Some(0), Some(2), Some(10), Some(0))
    );
    // d3dcompiler_46 and later: MinPrecision 0.
    assert_eq!(r.input_parameters[0].min_precision.raw(), 0);
    check_params(
        "input",
        &r.input_parameters,
        &[
            ("SV_position", 0, 0, 0, 3, 0xf, 0x1, 0),
            ("BINORMAL", 0, 1, 0, 3, 0xf, 0x0, 0),
            ("BLENDINDICES", 0, 2, 0, 1, 0x1, 0x0, 0),
            ("BLENDWEIGHT", 0, 3, 0, 3, 0x1, 0x1, 0),
            ("COLOR", 0, 4, 0, 3, 0xf, 0xf, 0),
            ("COLOR", 1, 5, 0, 3, 0xf, 0x0, 0),
            ("NORMAL", 0, 6, 0, 3, 0xf, 0x0, 0),
            ("POSITION", 0, 7, 0, 3, 0xf, 0xf, 0),
            ("POSITIONT", 0, 8, 0, 3, 0xf, 0x0, 0),
            ("PSIZE", 0, 9, 0, 3, 0x1, 0x1, 0),
            ("TANGENT", 0, 10, 0, 3, 0xf, 0x0, 0),
            ("TEXCOORD", 0, 11, 0, 3, 0xf, 0xf, 0),
            ("SV_VertexID", 0, 12, 6, 1, 0x1, 0x0, 0),
            ("SV_InstanceID", 0, 13, 8, 1, 0x1, 0x0, 0),
            ("testin", 0, 14, 0, 3, 0x1, 0x1, 0),
        ],
    );
    check_params(
        "output",
        &r.output_parameters,
        &[
            ("SV_position", 0, 0, 1, 3, 0xf, 0x0, 0),
            ("COLOR", 0, 1, 0, 3, 0xf, 0x0, 0),
            ("FOG", 0, 2, 0, 3, 0x1, 0xe, 0),
            ("PSIZE", 0, 2, 0, 3, 0x2, 0xd, 0),
            ("TESSFACTOR", 0, 2, 0, 3, 0x4, 0xb, 0),
            ("testout", 0, 2, 0, 3, 0x8, 0x7, 0),
            ("POSITION", 0, 3, 0, 3, 0xf, 0x0, 0),
            ("TEXCOORD", 0, 4, 0, 3, 0xf, 0x0, 0),
            ("SV_ClipDistance", 0, 5, 2, 3, 0x1, 0xe, 0),
            ("SV_CullDistance", 0, 5, 3, 3, 0x2, 0xd, 0),
            ("SV_InstanceID", 0, 6, 0, 1, 0x1, 0xe, 0),
        ],
    );
}

/// `test_reflection_desc_ps`: a ps_4_1's description, ID3D11 extras,
/// signatures (pixel outputs with their system values) and thread-group size.
#[test]
fn wine_reflection_desc_ps() {
    let r = reflect("desc_ps");
    let s = r.shader.as_ref().unwrap();
    assert_eq!(s.version.packed(), 0x41);
    assert_eq!(s.creator.as_deref(), Some(CREATOR_9_29));
    assert_eq!(s.flags.unwrap().0, 0x100);
    assert_eq!(
        (
            s.constant_buffers,
            s.bound_resources,
            s.input_parameters,
            s.output_parameters
        ),
        (Some(0), 4, 8, 4)
    );
    assert_eq!(
        counts(s),
        [
            50, 3, 0, 0, 5, 1, 0, 3, 4, 5, 17, 0, 0, 6, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0
        ]
    );
    assert_eq!(
        (
            s.bitwise_instruction_count,
            s.conversion_instruction_count,
            s.mov_instruction_count,
            s.movc_instruction_count
        ),
        (Some(0), Some(0), Some(24), Some(0))
    );
    assert_eq!(r.patch_constant_parameters.len(), 0);
    check_params(
        "input",
        &r.input_parameters,
        &[
            ("SV_RenderTargetArrayIndex", 0, 0, 4, 1, 0x1, 0x0, 0),
            ("SV_InstanceID", 0, 0, 0, 1, 0x2, 0x0, 0),
            ("SV_PrimitiveID", 0, 0, 7, 1, 0x4, 0x0, 0),
            ("SV_IsFrontFace", 0, 0, 9, 1, 0x8, 0x0, 0),
            ("TEXCOORD", 0, 1, 0, 3, 0x3, 0x3, 0),
            ("VFACE", 0, 1, 0, 3, 0x4, 0x0, 0),
            ("COLOR", 3, 2, 0, 3, 0xf, 0x0, 0),
            ("SV_position", 0, 3, 1, 3, 0xf, 0x0, 0),
        ],
    );
    check_params(
        "output",
        &r.output_parameters,
        &[
            ("SV_Target", 0, 0, 64, 3, 0x1, 0xe, 0),
            ("SV_Target", 1, 1, 64, 3, 0x1, 0xe, 0),
            ("SV_Coverage", 0, u32::MAX, 66, 1, 0x1, 0xe, 0),
            ("SV_Depth", 0, u32::MAX, 65, 3, 0x1, 0xe, 0),
        ],
    );
    assert_eq!(s.thread_group_size, None);
}

/// `test_reflection_desc_ps_output`: pixel-shader outputs of stripped
/// containers (no RDEF, no STAT): the system values do not depend on RDEF.
#[test]
fn wine_reflection_desc_ps_output() {
    let cases: [(&str, Param); 6] = [
        ("ps_output_0", ("SV_Target", 3, 3, 64, 3, 0xf, 0, 0)),
        (
            "ps_output_1",
            ("SV_DepthLessEqual", 0, u32::MAX, 68, 3, 0x1, 0xe, 0),
        ),
        (
            "ps_output_2",
            ("SV_DepthGreaterEqual", 0, u32::MAX, 67, 3, 0x1, 0xe, 0),
        ),
        ("ps_output_3", ("sV_DePtH", 0, u32::MAX, 65, 3, 0x1, 0xe, 0)),
        ("ps_output_4", ("SV_Depth", 0, u32::MAX, 65, 3, 0x1, 0xe, 0)),
        (
            "ps_output_5",
            ("SV_COVERAGE", 0, u32::MAX, 66, 1, 0x1, 0xe, 0),
        ),
    ];
    for (name, want) in cases {
        let r = reflect(name);
        check_params(name, &r.output_parameters[..1], &[want]);
        // Stripped: no RDEF, so no creator and a note saying so.
        let s = r.shader.unwrap();
        assert_eq!(s.creator, None, "{name}");
        assert_eq!(s.instruction_count, None, "{name}");
        assert!(r.notes.iter().any(|n| n.contains("no RDEF")), "{name}");
        // GetThreadGroupSize of a pixel shader: none.
        assert_eq!(s.thread_group_size, None, "{name}");
    }
}

/// `test_reflection_bound_resources` on ps_4_0: ids are the bind points.
#[test]
fn wine_reflection_bound_resources() {
    let r = reflect("bound_resources");
    check_binds(
        &r.bound_resources,
        &[
            ("sam", 3, 0, 1, 0, 0, 0, 0, 0, 0),
            ("tex1", 2, 0, 2, 12, 5, 4, u32::MAX, 0, 0),
            ("tex2", 2, 2, 1, 12, 5, 4, u32::MAX, 0, 2),
            ("c1", 0, 0, 1, 0, 0, 0, 0, 0, 0),
            ("c2", 0, 1, 1, 0, 0, 0, 0, 0, 1),
        ],
    );
}

/// `test_reflection_bound_resources` on ps_5_1: spaces and range ids.
#[test]
fn wine_reflection_bound_resources_sm51() {
    let r = reflect("bound_resources_sm51");
    check_binds(
        &r.bound_resources,
        &[
            ("sam", 3, 0, 1, 0, 0, 0, 0, 0, 0),
            ("tex1", 2, 1, 1, 12, 5, 4, u32::MAX, 1, 0),
            ("c1", 0, 0, 1, 1, 0, 0, 0, 0, 0),
            ("c2", 0, 0, 1, 1, 0, 0, 0, 1, 1),
        ],
    );
}

/// `test_reflection_cs`: both blobs reflect; cs_5_1's thread-group size.
#[test]
fn wine_reflection_cs() {
    let r = reflect("cs_5_1");
    assert_eq!(r.shader.unwrap().thread_group_size, Some([16, 8, 4]));
    let r = reflect("cs_4_0");
    assert_eq!(r.shader.unwrap().version.packed(), 0x50040);
}

/// Wine's `D3D11_SHADER_TYPE_DESC` rows: (class, type, rows, columns,
/// elements, offset, name).
type TypeRow = (u32, u32, u32, u32, u32, u32, &'static str);

/// Wine's `D3D11_SHADER_VARIABLE_DESC` rows: (name, start offset, size, flags).
type VarRow = (&'static str, u32, u32, u32);

fn check_type(what: &str, t: &TypeDesc, want: TypeRow) {
    let got = (
        t.class.raw(),
        t.base_type.raw(),
        t.rows,
        t.columns,
        t.elements,
        t.offset,
        t.name.as_deref().unwrap(),
    );
    assert_eq!(got, want, "{what}");
}

/// `test_reflection_constant_buffer` (d3dcompiler_47's ps_5_0 blob with an
/// interface): the buffers, their variables and the variables' types.
#[test]
fn wine_reflection_constant_buffer() {
    let r = reflect("constant_buffer");
    let s = r.shader.as_ref().unwrap();
    assert_eq!(s.version.packed(), 0x50);
    assert_eq!(s.creator.as_deref(), Some(CREATOR_9_29));
    assert_eq!(s.flags.unwrap().0, 0x100);
    assert_eq!(
        (
            s.constant_buffers,
            s.bound_resources,
            s.input_parameters,
            s.output_parameters
        ),
        (Some(2), 1, 1, 1)
    );
    assert_eq!(
        counts(s),
        [
            8, 2, 0, 0, 2, 0, 0, 0, 0, 0, 2, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0
        ]
    );
    let buffers: Vec<_> = r
        .constant_buffers
        .iter()
        .map(|b| {
            (
                b.name.as_str(),
                b.buffer_type.raw(),
                b.variables.len(),
                b.size,
                b.flags.0,
            )
        })
        .collect();
    assert_eq!(
        buffers,
        [("$ThisPointer", 2, 1, 16, 0), ("c1", 0, 4, 64, 0)]
    );
    // (name, start offset, size, flags), then the type row.
    let want: [(VarRow, TypeRow); 5] = [
        (("g_Test", 0, 1, 6), (7, 37, 1, 4, 0, 0, "iTest")),
        (("a", 0, 4, 0), (0, 3, 1, 1, 0, 0, "float")),
        (("b", 16, 20, 0), (0, 3, 1, 1, 2, 0, "float")),
        (("i", 36, 4, 0), (0, 2, 1, 1, 0, 0, "int")),
        (("t", 48, 8, 2), (5, 0, 1, 2, 0, 0, "s")),
    ];
    let variables: Vec<_> = r
        .constant_buffers
        .iter()
        .flat_map(|b| &b.variables)
        .collect();
    assert_eq!(variables.len(), want.len());
    for (v, (desc, ty)) in variables.iter().zip(want) {
        assert_eq!((v.name.as_str(), v.start_offset, v.size, v.flags.0), desc);
        assert_eq!(v.default_value, None, "{}", v.name);
        assert_eq!(
            (
                v.start_texture,
                v.texture_size,
                v.start_sampler,
                v.sampler_size
            ),
            (Some(u32::MAX), Some(0), Some(u32::MAX), Some(0)),
            "{}",
            v.name
        );
        check_type(&v.name, &v.var_type, ty);
    }
    // GetMemberTypeName / GetMemberTypeByIndex of t's struct.
    let t = &variables[4].var_type;
    let members: Vec<_> = t.members.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(members, ["a", "b"]);
    assert_eq!(t.members[0].member_type, {
        let mut b = t.members[1].member_type.clone();
        b.offset = t.members[0].member_type.offset;
        b
    });
}
