//! Reflection of built containers, one source per test: RDEF of every
//! version (SM 4.0, 5.0 with RD11, 5.1 with spaces and ids), the text
//! layout, containers missing what reflection needs, and DXIL's PSV0.

use super::*;
use crate::program::build_program_data;
use crate::rdef::build::sample;
use crate::testutil::build;
use crate::{Container, PartName, ShaderKind};

/// A SHDR/SHEX program of just its two header tokens.
fn program(stage: u32, major: u32, minor: u32) -> Vec<u8> {
    [(stage << 16) | (major << 4) | minor, 2]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn reflect(bytes: &[u8]) -> Reflection {
    Reflection::from_container(&Container::parse(bytes).unwrap()).unwrap()
}

#[test]
fn rdef_of_every_version() {
    // (RD11 header, binding record size, program, expected space and id)
    for (sm5, binding_size, (stage, major, minor), space, id) in [
        (false, 32, (1, 4, 0), 0, 3), // vs_4_0: the id is the bind point
        (true, 32, (0, 5, 0), 0, 3),  // ps_5_0 with RD11
        (true, 40, (0, 5, 1), 2, 7),  // ps_5_1: space and id in the record
    ] {
        let rdef = sample(sm5, binding_size);
        let shex = program(stage, major, minor);
        let bytes = build(&[(b"RDEF", &rdef), (b"SHEX", &shex)]);
        let r = reflect(&bytes);
        assert_eq!(r.format, "DXBC");
        assert_eq!(r.source.resources, ["RDEF"]);
        assert_eq!(r.source.shader, ["SHEX", "RDEF"]);
        let s = r.shader.as_ref().unwrap();
        assert_eq!(s.version.packed(), (stage << 16) | (major << 4) | minor);
        assert_eq!(s.creator.as_deref(), Some("test compiler"));
        assert_eq!(s.flags.unwrap().0, 0xc001);
        assert_eq!(
            s.flags.unwrap().names(),
            ["D3DCOMPILE_DEBUG", "D3DCOMPILE_OPTIMIZATION_LEVEL2"]
        );
        assert_eq!((s.constant_buffers, s.bound_resources), (Some(1), 1));
        assert_eq!(s.num_interface_slots, Some(0));
        // No STAT: counts unknown, and said so.
        assert_eq!(s.instruction_count, None);
        assert!(r.notes.iter().any(|n| n.contains("STAT")), "{:?}", r.notes);

        let tex = &r.bound_resources[0];
        assert_eq!(tex.name.as_deref(), Some("tex"));
        assert_eq!(tex.input_type, ShaderInputType::Texture);
        assert_eq!(tex.return_type, Some(ResourceReturnType::Float));
        assert_eq!(tex.dimension, Some(SrvDimension::Texture2D));
        assert_eq!((tex.bind_point, tex.bind_count), (3, 1));
        assert_eq!(tex.num_samples, Some(u32::MAX));
        assert_eq!(
            tex.flags.unwrap().names(),
            ["D3D_SIF_TEXTURE_COMPONENT_0", "D3D_SIF_TEXTURE_COMPONENT_1"]
        );
        assert_eq!((tex.space, tex.id), (space, id));

        let cb = &r.constant_buffers[0];
        assert_eq!((cb.name.as_str(), cb.size), ("CB", 32));
        assert_eq!(cb.buffer_type, CbufferType::Cbuffer);
        let color = &cb.variables[0];
        assert_eq!((color.start_offset, color.size, color.used), (0, 16, true));
        assert_eq!(
            color.default_value.as_deref(),
            Some("00000000000000000000000000000000")
        );
        assert_eq!(color.var_type.class, VariableClass::Vector);
        assert_eq!(color.var_type.base_type, VariableType::Float);
        assert_eq!((color.var_type.rows, color.var_type.columns), (1, 4));
        assert_eq!(
            color.var_type.name.as_deref(),
            if sm5 { Some("float4") } else { None }
        );
        assert_eq!(color.start_texture, if sm5 { Some(u32::MAX) } else { None });
        let sv = &cb.variables[1];
        assert_eq!(sv.var_type.class, VariableClass::Struct);
        assert_eq!(sv.var_type.members.len(), 1);
        assert_eq!(sv.var_type.members[0].name, "a");
        assert_eq!(
            sv.var_type.members[0].member_type.class,
            VariableClass::Scalar
        );
    }
}

#[test]
fn text_layout_is_dxcs_dumper() {
    let rdef = sample(true, 40);
    let shex = program(0, 5, 1);
    let r = reflect(&build(&[(b"RDEF", &rdef), (b"SHEX", &shex)]));
    let text = text::to_text(&r);
    let expected = "\
ID3D12ShaderReflection:
  D3D12_SHADER_DESC:
    Shader Version: Pixel 5.1
    Creator: test compiler
    Flags: 0xc001
    ConstantBuffers: 1
    BoundResources: 1
    InputParameters: 0
    OutputParameters: 0
    InstructionCount: <not recorded>
    TempArrayCount: <not recorded>
    DynamicFlowControlCount: <not recorded>
    ArrayInstructionCount: <not recorded>
    TextureNormalInstructions: <not recorded>
    TextureLoadInstructions: <not recorded>
    TextureCompInstructions: <not recorded>
    TextureBiasInstructions: <not recorded>
    TextureGradientInstructions: <not recorded>
    FloatInstructionCount: <not recorded>
    IntInstructionCount: <not recorded>
    UintInstructionCount: <not recorded>
    CutInstructionCount: <not recorded>
    EmitInstructionCount: <not recorded>
    cBarrierInstructions: <not recorded>
    cInterlockedInstructions: <not recorded>
    cTextureStoreInstructions: <not recorded>
  Constant Buffers:
    ID3D12ShaderReflectionConstantBuffer:
      D3D12_SHADER_BUFFER_DESC: Name: CB
        Type: D3D_CT_CBUFFER
        Size: 32
        uFlags: 0
        Num Variables: 2
      {
        ID3D12ShaderReflectionVariable:
          D3D12_SHADER_VARIABLE_DESC: Name: color
            Size: 16
            StartOffset: 0
            uFlags: (D3D_SVF_USED)
            DefaultValue: <present>
          ID3D12ShaderReflectionType:
            D3D12_SHADER_TYPE_DESC: Name: float4
              Class: D3D_SVC_VECTOR
              Type: D3D_SVT_FLOAT
              Elements: 0
              Rows: 1
              Columns: 4
              Members: 0
              Offset: 0
          CBuffer: CB
        ID3D12ShaderReflectionVariable:
          D3D12_SHADER_VARIABLE_DESC: Name: sv
            Size: 4
            StartOffset: 16
            uFlags: (D3D_SVF_USED)
            DefaultValue: <nullptr>
          ID3D12ShaderReflectionType:
            D3D12_SHADER_TYPE_DESC: Name: <nullptr>
              Class: D3D_SVC_STRUCT
              Type: D3D_SVT_VOID
              Elements: 0
              Rows: 1
              Columns: 1
              Members: 1
              Offset: 0
            {
              ID3D12ShaderReflectionType:
                D3D12_SHADER_TYPE_DESC: Name: <nullptr>
                  Class: D3D_SVC_SCALAR
                  Type: D3D_SVT_FLOAT
                  Elements: 0
                  Rows: 1
                  Columns: 1
                  Members: 0
                  Offset: 0
            }
          CBuffer: CB
      }
  Bound Resources:
    D3D12_SHADER_INPUT_BIND_DESC: Name: tex
      Type: D3D_SIT_TEXTURE
      uID: 7
      BindCount: 1
      BindPoint: 3
      Space: 2
      ReturnType: D3D_RETURN_TYPE_FLOAT
      Dimension: D3D_SRV_DIMENSION_TEXTURE2D
      NumSamples (or stride): 4294967295
      uFlags: (D3D_SIF_TEXTURE_COMPONENT_0 | D3D_SIF_TEXTURE_COMPONENT_1)
";
    assert_eq!(text, expected);
}

#[test]
fn text_flags_and_unknown_values() {
    assert_eq!(text::NOT_RECORDED, "<not recorded>");
    let mut r = reflect(&build(&[
        (b"RDEF", &sample(false, 32)),
        (b"SHEX", &program(1, 4, 0)),
    ]));
    let tex = &mut r.bound_resources[0];
    tex.flags = Some(InputFlags(0x21)); // user-packed and an unnamed bit
    tex.return_type = Some(ResourceReturnType::from_raw(0));
    let text = text::to_text(&r);
    assert!(
        text.contains("uFlags: (D3D_SIF_USERPACKED | <unknown: 0x20>)"),
        "{text}"
    );
    assert!(text.contains("ReturnType: <unknown: 0>"), "{text}");
    assert!(text.contains("Shader Version: Vertex 4.0"), "{text}");
}

#[test]
fn stripped_dxbc_gives_what_is_known_and_notes() {
    // A ps_5_0 with no RDEF and no STAT (fxc /Qstrip_reflect): the version
    // and signatures, nothing invented.
    let osgn = words(&[1, 8, 0x20, 0, 0, 3, 0, 0xf]);
    let mut osgn = osgn;
    osgn.extend_from_slice(b"SV_Target\0\0\0");
    let bytes = build(&[(b"OSGN", &osgn), (b"SHEX", &program(0, 5, 0))]);
    let r = reflect(&bytes);
    let s = r.shader.as_ref().unwrap();
    assert_eq!(s.version.packed(), 0x50);
    assert_eq!((s.creator.as_deref(), s.flags), (None, None));
    assert_eq!(s.constant_buffers, None);
    assert_eq!(r.source.signatures, ["OSGN"]);
    // fxc stores 0 for SV_Target's system value; D3D reports TARGET.
    assert_eq!(r.output_parameters[0].system_value_type, Name::Target);
    assert_eq!(s.min_feature_level, Some(FeatureLevel::Level11_0));
    assert_eq!(s.requires_flags.map(|f| f.0), Some(0));
    assert!(
        r.notes.iter().any(|n| n.starts_with("no RDEF part")),
        "{:?}",
        r.notes
    );
    assert!(r.notes.iter().any(|n| n.starts_with("no fxc STAT part")));
}

#[test]
fn root_signature_only_container_has_nothing_to_reflect() {
    let rts0 = words(&[2, 0, 24, 0, 24, 0]);
    let r = reflect(&build(&[(b"RTS0", &rts0)]));
    assert_eq!(r.format, "none");
    assert_eq!(r.shader, None);
    assert!(r.bound_resources.is_empty());
    assert_eq!(r.notes.len(), 1);
    assert!(r.notes[0].contains("nothing to reflect"));
    assert_eq!(
        text::to_text(&r),
        "ID3D12ShaderReflection:\n  Failed: GetDesc\n"
    );
}

#[test]
fn broken_rdef_is_an_error_naming_the_part() {
    let mut rdef = sample(false, 32);
    rdef.truncate(20);
    let bytes = build(&[(b"SHEX", &program(1, 4, 0)), (b"RDEF", &rdef)]);
    let e = Reflection::from_container(&Container::parse(&bytes).unwrap()).unwrap_err();
    assert_eq!(e.part().map(|p| p.name), Some(PartName::RDEF));
    assert!(
        matches!(e.kind, crate::ReadErrorKind::Truncated { .. }),
        "{e}"
    );
}

#[test]
fn dxbc_stage_fields_from_declarations_without_stat() {
    // cs_5_0: dcl_thread_group 8, 4, 2; dcl_globalFlags forceEarlyDepthStencil.
    let mut shex = words(&[0x0005_0050, 0]);
    shex.extend(words(&[0x0100_0000 | 0x6a | (0x4 << 11)]));
    shex.extend(words(&[0x0400_009b, 8, 4, 2]));
    shex.extend(words(&[0x0100_003e]));
    let len = (shex.len() / 4) as u32;
    shex[4..8].copy_from_slice(&len.to_le_bytes());
    let sfi0 = 0x2u64 | 0x8; // bit 1 is not D3D's early depth-stencil; bit 3: 64 UAVs
    let r = reflect(&build(&[(b"SHEX", &shex), (b"SFI0", &sfi0.to_le_bytes())]));
    let s = r.shader.unwrap();
    assert_eq!(s.thread_group_size, Some([8, 4, 2]));
    assert_eq!(
        s.requires_flags.unwrap().names(),
        [
            "D3D_SHADER_REQUIRES_EARLY_DEPTH_STENCIL",
            "D3D_SHADER_REQUIRES_64_UAVS"
        ]
    );
    assert_eq!(r.source.requires_flags, ["SFI0", "SHEX"]);
}

/// PSV0 version 2 data for a compute shader with `resources`
/// (type, space, lower, upper, kind, flags) and no signature elements.
fn psv0_v2_compute(threads: [u32; 3], resources: &[[u32; 6]]) -> Vec<u8> {
    let mut info = vec![0u8; 48];
    info[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    info[24] = 5; // shader stage: compute
    for (i, t) in threads.iter().enumerate() {
        info[36 + 4 * i..40 + 4 * i].copy_from_slice(&t.to_le_bytes());
    }
    let mut out = words(&[48]);
    out.extend(info);
    out.extend(words(&[resources.len() as u32]));
    if !resources.is_empty() {
        out.extend(words(&[24]));
        for r in resources {
            out.extend(words(r));
        }
    }
    out.extend(words(&[0, 0])); // empty string and semantic-index tables
    out
}

#[test]
fn dxil_bindings_from_psv0() {
    let dxil = build_program_data(6, 6, ShaderKind::Compute, 1, 6, b"BC\xc0\xde");
    let psv0 = psv0_v2_compute(
        [64, 1, 1],
        &[
            [2, 0, 1, 1, 13, 0],        // CBV b1
            [1, 0, 0, 0, 14, 0],        // sampler s0
            [3, 1, 0, u32::MAX, 2, 0],  // Texture2D t0, space1, unbounded
            [5, 0, 4, 4, 12, 0],        // StructuredBuffer t4
            [9, 0, 0, 0, 12, 0],        // RWStructuredBuffer with counter u0
            [2, 0, 2, u32::MAX, 13, 0], // unbounded cbuffer range b2
        ],
    );
    let sfi0 = 0x10u64;
    let bytes = build(&[
        (b"DXIL", &dxil),
        (b"PSV0", &psv0),
        (b"SFI0", &sfi0.to_le_bytes()),
    ]);
    let r = reflect(&bytes);
    assert_eq!(r.format, "DXIL");
    assert_eq!(r.source.resources, ["PSV0"]);
    let s = r.shader.as_ref().unwrap();
    assert_eq!(s.version.kind, ShaderVersionType::Compute);
    assert_eq!(s.thread_group_size, Some([64, 1, 1]));
    assert_eq!(s.min_feature_level, Some(FeatureLevel::Level12_0));
    assert_eq!(
        s.requires_flags.unwrap().names(),
        ["D3D_SHADER_REQUIRES_MINIMUM_PRECISION"]
    );
    assert_eq!(s.instruction_count, None);
    assert_eq!(s.constant_buffers, None);
    // (type, bind point, count, space, id, dimension)
    let got: Vec<_> = r
        .bound_resources
        .iter()
        .map(|b| {
            (
                b.input_type,
                b.bind_point,
                b.bind_count,
                b.space,
                b.id,
                b.dimension,
                b.name.clone(),
            )
        })
        .collect();
    use ShaderInputType as T;
    assert_eq!(
        got,
        [
            (T::Cbuffer, 1, 1, 0, 0, Some(SrvDimension::Unknown0), None),
            (T::Sampler, 0, 1, 0, 0, Some(SrvDimension::Unknown0), None),
            (T::Texture, 0, 0, 1, 0, Some(SrvDimension::Texture2D), None),
            (T::Structured, 4, 1, 0, 1, Some(SrvDimension::Buffer), None),
            (
                T::UavRwStructuredWithCounter,
                0,
                1,
                0,
                0,
                Some(SrvDimension::Buffer),
                None
            ),
            (
                T::Cbuffer,
                2,
                u32::MAX,
                0,
                1,
                Some(SrvDimension::Unknown0),
                None
            ),
        ]
    );
    // What PSV0 does not record stays unknown.
    assert_eq!(r.bound_resources[2].return_type, None);
    assert_eq!(r.bound_resources[3].num_samples, None);
    assert_eq!(r.bound_resources[1].flags, None);
    assert_eq!(
        r.bound_resources[0].flags,
        Some(InputFlags(InputFlags::USER_PACKED))
    );
    for needle in [
        "resource names",
        "constant-buffer layouts",
        "instruction counts",
        "llvm.ident",
    ] {
        assert!(
            r.notes.iter().any(|n| n.contains(needle)),
            "{needle}: {:?}",
            r.notes
        );
    }
}

#[cfg(feature = "serde")]
#[test]
fn json_document_keys() {
    let rdef = sample(true, 40);
    let r = reflect(&build(&[(b"RDEF", &rdef), (b"SHEX", &program(0, 5, 1))]));
    let mut out = Vec::new();
    write_json(&mut out, "a.dxbc", &r, false).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["schema"], 1);
    assert_eq!(v["file"], "a.dxbc");
    assert_eq!(v["shader"]["version"]["kind"], "D3D12_SHVER_PIXEL_SHADER");
    let tex = &v["bound_resources"][0];
    assert_eq!(tex["type"], "D3D_SIT_TEXTURE");
    assert_eq!(tex["dimension"], "D3D_SRV_DIMENSION_TEXTURE2D");
    assert_eq!(tex["return_type"], "D3D_RETURN_TYPE_FLOAT");
    assert_eq!(
        (tex["bind_point"].as_u64(), tex["space"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(tex["flags"]["value"], 12);
    let color = &v["constant_buffers"][0]["variables"][0];
    assert_eq!(color["type"]["class"], "D3D_SVC_VECTOR");
    assert_eq!(color["used"], true);
    let member = &v["constant_buffers"][0]["variables"][1]["type"]["members"][0];
    assert_eq!(member["name"], "a");
    assert_eq!(member["type"]["type"], "D3D_SVT_FLOAT");
    assert_eq!(v["shader"]["thread_group_size"], serde_json::Value::Null);
    assert!(out.ends_with(b"}\n") && !out[..out.len() - 1].contains(&b'\n'));
}

/// The D3D enumerations are declared once with two name columns: the part
/// views and reflection agree on every value, and differ only in the names
/// they print (and where one column has none).
#[test]
fn part_and_reflection_enumerations_come_from_one_table() {
    use crate::rdef::{InputType, ReturnType, VariableClass as PartClass};
    // `D3D_SVC_BIT_FIELD` was missing from the part view.
    assert_eq!(PartClass::from_raw(8).to_string(), "BitField");
    assert_eq!(VariableClass::from_raw(8).to_string(), "D3D_SVC_BIT_FIELD");
    // 0 is "NA" in the part view; D3D names no return type 0.
    assert_eq!(ReturnType::from_raw(0).to_string(), "NA");
    assert_eq!(ResourceReturnType::from_raw(0).known_name(), None);
    for raw in 0..16 {
        let (part, d3d) = (InputType::from_raw(raw), ShaderInputType::from_raw(raw));
        assert_eq!(part.known_name().is_some(), d3d.known_name().is_some());
    }
    assert_eq!(InputType::UavRwTyped.to_string(), "UAVTyped");
    assert_eq!(
        ShaderInputType::UavRwTyped.to_string(),
        "D3D_SIT_UAV_RWTYPED"
    );
}
