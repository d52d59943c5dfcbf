use super::*;
use crate::error::ReadErrorKind;

/// Builds PSV0 part data from its pieces (docs/format/psv0.md §5).
#[derive(Clone)]
struct PsvBuilder {
    info: Vec<u8>,
    resource_stride: u32,
    resources: Vec<[u32; 6]>,
    strings: Vec<u8>,
    indices: Vec<u32>,
    element_stride: u32,
    elements: Vec<[u8; 16]>,
    tables: Vec<u32>,
}

impl PsvBuilder {
    /// A record of `size` bytes with the stage union `stage` (zero-padded) and,
    /// for v1+, `shader_stage` and the counts given.
    fn new(size: u32, stage: &[u8]) -> Self {
        let mut info = vec![0u8; size as usize];
        info[..stage.len()].copy_from_slice(stage);
        if size >= 24 {
            info[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
        }
        PsvBuilder {
            info,
            resource_stride: 24,
            resources: Vec::new(),
            strings: Vec::new(),
            indices: Vec::new(),
            element_stride: 16,
            elements: Vec::new(),
            tables: Vec::new(),
        }
    }

    fn set(mut self, offset: usize, bytes: &[u8]) -> Self {
        self.info[offset..offset + bytes.len()].copy_from_slice(bytes);
        self
    }

    fn build(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(self.info.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.info);
        out.extend_from_slice(&(self.resources.len() as u32).to_le_bytes());
        if !self.resources.is_empty() {
            out.extend_from_slice(&self.resource_stride.to_le_bytes());
            for r in &self.resources {
                for v in r {
                    out.extend_from_slice(&v.to_le_bytes());
                }
                out.truncate(out.len() - 24 + self.resource_stride.min(24) as usize);
                out.resize(
                    out.len() + self.resource_stride.saturating_sub(24) as usize,
                    0,
                );
            }
        }
        if self.info.len() < 36 {
            return out;
        }
        out.extend_from_slice(&(self.strings.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.strings);
        out.extend_from_slice(&(self.indices.len() as u32).to_le_bytes());
        for i in &self.indices {
            out.extend_from_slice(&i.to_le_bytes());
        }
        if !self.elements.is_empty() {
            out.extend_from_slice(&self.element_stride.to_le_bytes());
            for e in &self.elements {
                out.extend_from_slice(&e[..self.element_stride.min(16) as usize]);
                out.resize(
                    out.len() + self.element_stride.saturating_sub(16) as usize,
                    0,
                );
            }
        }
        for t in &self.tables {
            out.extend_from_slice(&t.to_le_bytes());
        }
        out
    }
}

fn element(name_offset: u32, indices_offset: u32, rows: u8, packed: [u8; 8]) -> [u8; 16] {
    let mut e = [0u8; 16];
    e[0..4].copy_from_slice(&name_offset.to_le_bytes());
    e[4..8].copy_from_slice(&indices_offset.to_le_bytes());
    e[8] = rows;
    e[9..16].copy_from_slice(&packed[..7]);
    e
}

fn u32s(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn runtime_info_written_then_read_for_every_version() {
    let full = RuntimeInfoRecord {
        stage_info: [3; 16],
        minimum_wave_lane_count: 4,
        maximum_wave_lane_count: 64,
        shader_stage: Some(5),
        uses_view_id: Some(1),
        geometry_data: Some(0x0203),
        sig_input_elements: Some(1),
        sig_output_elements: Some(2),
        sig_patch_or_prim_elements: Some(3),
        sig_input_vectors: Some(4),
        sig_output_vectors: Some([5, 6, 7, 8]),
        num_threads_x: Some(8),
        num_threads_y: Some(4),
        num_threads_z: Some(1),
        entry_name_offset: Some(12),
        num_bytes_group_shared_memory: Some(1024),
    };
    let sizes = [24, 36, 48, 52, 56];
    for (version, size) in sizes.into_iter().enumerate() {
        let version = version as u8;
        let bytes = full.to_bytes();
        let c = Cursor::new(&bytes, 0);
        let read = RuntimeInfoRecord::read_version(&c, 0, version).unwrap();
        assert_eq!(read.to_bytes(), bytes[..size], "v{version}");
        assert_eq!(RuntimeInfoRecord::size_for(version), size as u64);
        let back = RuntimeInfoRecord::read_version(&Cursor::new(&read.to_bytes(), 0), 0, version);
        assert_eq!(back.unwrap(), read, "v{version}");
        assert_eq!(read.num_threads_x.is_some(), version >= 2);
        assert_eq!(read.num_bytes_group_shared_memory.is_some(), version >= 4);
    }
}

#[test]
fn parts_written_again_equal_the_built_bytes() {
    let mut v4 = PsvBuilder::new(56, &[1]).set(52, &2048u32.to_le_bytes());
    v4.strings = vec![0; 4];
    let rows = [
        (
            PsvBuilder::new(24, &u32s(&[1, 2, 3, 4])),
            Some(ShaderKind::Pixel),
        ),
        (pixel_v2(), Some(ShaderKind::Pixel)),
        (hull_v3(0), Some(ShaderKind::Hull)),
        (hull_v3(1), Some(ShaderKind::Hull)),
        (v4, Some(ShaderKind::Compute)),
    ];
    for (builder, kind) in rows {
        let data = builder.build();
        let psv = Psv0::parse_data(&data, 0, kind).unwrap();
        assert_eq!(psv.to_bytes(), data, "v{}", psv.version);
        let written = psv.to_bytes();
        assert_eq!(Psv0::parse_data(&written, 0, kind).unwrap(), psv);
    }
}

#[test]
fn version_from_size_and_table_sizes() {
    let rows = [
        (0, 0),
        (23, 0),
        (24, 0),
        (35, 0),
        (36, 1),
        (47, 1),
        (48, 2),
        (51, 2),
        (52, 3),
        (55, 3),
        (56, 4),
        (200, 4),
    ];
    for (size, version) in rows {
        assert_eq!(version_for_size(size), version, "size {size}");
    }
    assert_eq!(mask_dwords(0), 0);
    assert_eq!(mask_dwords(1), 1);
    assert_eq!(mask_dwords(8), 1);
    assert_eq!(mask_dwords(9), 2);
    assert_eq!(map_table_dwords(2, 1), 8);
    assert_eq!(map_table_dwords(1, 9), 8);
    assert_eq!(map_table_dwords(0, 9), 0);
}

#[test]
fn v0_stage_union_for_every_stage() {
    let stage = u32s(&[1, 2, 3, 4]);
    let data = PsvBuilder::new(24, &stage).build();
    let rows: Vec<(Option<ShaderKind>, StageInfo)> = vec![
        (
            Some(ShaderKind::Pixel),
            StageInfo::Pixel {
                depth_output: 1,
                sample_frequency: 0,
            },
        ),
        (
            Some(ShaderKind::Vertex),
            StageInfo::Vertex {
                output_position_present: 1,
            },
        ),
        (
            Some(ShaderKind::Geometry),
            StageInfo::Geometry {
                input_primitive: 1,
                output_topology: 2,
                output_stream_mask: 3,
                output_position_present: 4,
            },
        ),
        (
            Some(ShaderKind::Hull),
            StageInfo::Hull {
                input_control_point_count: 1,
                output_control_point_count: 2,
                tessellator_domain: 3,
                tessellator_output_primitive: 4,
            },
        ),
        (
            Some(ShaderKind::Domain),
            StageInfo::Domain {
                input_control_point_count: 1,
                output_position_present: 2,
                tessellator_domain: 3,
            },
        ),
        (
            Some(ShaderKind::Mesh),
            StageInfo::Mesh {
                group_shared_bytes_used: 1,
                group_shared_bytes_dependent_on_view_id: 2,
                payload_size_in_bytes: 3,
                max_output_vertices: 4,
                max_output_primitives: 0,
            },
        ),
        (
            Some(ShaderKind::Amplification),
            StageInfo::Amplification {
                payload_size_in_bytes: 1,
            },
        ),
        (Some(ShaderKind::Compute), StageInfo::None),
        (Some(ShaderKind::Library), StageInfo::None),
        (None, StageInfo::Unknown),
    ];
    for (kind, want) in rows {
        let psv = Psv0::parse_data(&data, 0, kind).unwrap();
        assert_eq!(psv.version, 0);
        assert_eq!(psv.stage, kind);
        assert_eq!(psv.runtime_info.stage_info, want, "{kind:?}");
        assert_eq!(psv.runtime_info.maximum_wave_lane_count, u32::MAX);
        assert_eq!(psv.runtime_info.shader_stage, None);
        assert_eq!(psv.resource_stride, 24);
        assert!(psv.resources.is_empty());
        assert_eq!(psv.trailing_bytes, 0);
    }
}

#[test]
fn v1_geometry_without_program_uses_own_stage() {
    let mut b = PsvBuilder::new(36, &u32s(&[1, 2, 3]))
        .set(24, &[2, 0])
        .set(26, &1024u16.to_le_bytes());
    b.resource_stride = 16;
    b.resources = vec![[1, 1, 2, 3, 0, 0]];
    b.strings = vec![0; 4];
    let data = b.build();
    let psv = Psv0::parse_data(&data, 0, None).unwrap();
    assert_eq!(psv.version, 1);
    assert_eq!(psv.stage, Some(ShaderKind::Geometry));
    assert_eq!(psv.runtime_info.max_vertex_count(), Some(1024));
    assert_eq!(psv.runtime_info.num_threads, None);
    assert_eq!(psv.resource_stride, 16);
    let r = psv.resources[0];
    assert_eq!(
        (r.resource_type, r.space, r.lower_bound, r.upper_bound),
        (ResourceType::Sampler, 1, 2, 3)
    );
    assert_eq!((r.kind, r.flags), (None, None));
    // Compat mode reads zero-filled v2 fields.
    let part_bytes = crate::testutil::build(&[(b"PSV0", &data)]);
    let c = crate::Container::parse(&part_bytes).unwrap();
    let compat = Psv0::parse_llvm_compat(&c.part(0).unwrap(), None).unwrap();
    assert_eq!(compat.resources[0].kind, Some(ResourceKind::Invalid));
    assert_eq!(compat.resources[0].flags, Some(ResourceFlags(0)));
}

/// A v2 pixel shader: resources, one input and one output element, an input-output map.
fn pixel_v2() -> PsvBuilder {
    let mut b = PsvBuilder::new(48, &[7, 96])
        .set(24, &[0, 0])
        .set(28, &[1, 1, 0, 2, 1, 0, 0, 0]);
    b.resources = vec![[2, 0, 0, 0, 13, 0], [7, 2, 3, u32::MAX, 11, 1]];
    b.strings = b"\0SV_Target\0TEXCOORD\0\0\0\0\0".to_vec();
    b.indices = vec![0, 1];
    // cols 4, start col 0, allocated; kind Arbitrary; Float32; Linear
    b.elements = vec![
        element(11, 0, 2, [0, 0x44, 0, 3, 2, 0, 0, 0]),
        element(1, 0, 1, [0, 0x44, 16, 3, 0, 0x1f, 0, 0]),
    ];
    b.tables = (1..=8).collect();
    b
}

#[test]
fn v2_pixel_elements_and_maps() {
    let data = pixel_v2().build();
    let psv = Psv0::parse_data(&data, 0, Some(ShaderKind::Pixel)).unwrap();
    assert_eq!(psv.version, 2);
    assert_eq!(
        psv.runtime_info.stage_info,
        StageInfo::Pixel {
            depth_output: 7,
            sample_frequency: 96
        }
    );
    assert_eq!(psv.runtime_info.num_threads, Some([0, 0, 0]));
    assert_eq!(psv.resources.len(), 2);
    assert_eq!(psv.resources[1].kind, Some(ResourceKind::RawBuffer));
    assert!(psv.resources[1]
        .flags
        .unwrap()
        .contains(ResourceFlags::USED_BY_ATOMIC64));
    let input = &psv.input_elements[0];
    assert_eq!(input.name, b"TEXCOORD");
    assert_eq!(input.indices, vec![0, 1]);
    assert_eq!((input.cols, input.start_col, input.allocated), (4, 0, true));
    assert_eq!(input.interpolation, InterpolationMode::Linear);
    assert_eq!(input.component_type, ComponentType::Float32);
    let output = &psv.output_elements[0];
    assert_eq!(output.name_lossy(), "SV_Target");
    assert_eq!(output.kind, SemanticKind::Target);
    assert_eq!((output.dynamic_mask, output.stream), (0xf, 1));
    assert_eq!(psv.input_output_maps[0], (1..=8).collect::<Vec<_>>());
    assert!(psv.input_output_maps[1].is_empty());
    assert!(psv.output_vector_masks.iter().all(Vec::is_empty));
    assert_eq!(psv.elements().count(), 2);
    assert_eq!(psv.trailing_bytes, 0);
}

/// A v3 hull shader with ViewID: output masks, patch masks, IO map, input-patch map.
fn hull_v3(uses_view_id: u8) -> PsvBuilder {
    let mut b = PsvBuilder::new(52, &u32s(&[1024, 4096, 2, 3]))
        .set(24, &[3, uses_view_id, 2, 0, 0, 1, 1, 1, 9, 0, 0, 0])
        .set(48, &14u32.to_le_bytes());
    b.strings = b"\0ControlPoint\0HSMain\0\0\0\0".to_vec();
    b.indices = vec![0, 1, 2, 3];
    b.elements = vec![
        element(1, 0, 1, [0, 0x53, 3, 3, 7, 0x12, 0, 0]),
        element(1, 0, 4, [0, 0x71, 25, 6, 0, 0, 0, 0]),
    ];
    if uses_view_id != 0 {
        b.tables.extend([0x1234_5678, 0xffff_ffff, 0xab_cdef]);
    }
    b.tables.extend(1..=8);
    b.tables.extend([0x10, 0x20, 0x30, 0x40]);
    b
}

#[test]
fn v3_hull_view_id_tables() {
    for uses_view_id in [0, 1] {
        let data = hull_v3(uses_view_id).build();
        let psv = Psv0::parse_data(&data, 0, Some(ShaderKind::Hull)).unwrap();
        assert_eq!(psv.version, 3);
        assert_eq!(psv.entry_name, Some(&b"HSMain"[..]));
        assert_eq!(psv.runtime_info.sig_patch_const_or_prim_vectors(), Some(2));
        assert_eq!(psv.output_elements[0].start_col, 1);
        assert_eq!(psv.patch_or_prim_elements[0].indices, vec![0, 1, 2, 3]);
        if uses_view_id != 0 {
            assert_eq!(psv.output_vector_masks[0], vec![0x1234_5678, 0xffff_ffff]);
            assert_eq!(psv.patch_or_prim_masks, vec![0xab_cdef]);
        } else {
            assert!(psv.output_vector_masks[0].is_empty());
            assert!(psv.patch_or_prim_masks.is_empty());
        }
        assert_eq!(psv.input_output_maps[0], (1..=8).collect::<Vec<_>>());
        assert_eq!(psv.input_patch_map, vec![0x10, 0x20, 0x30, 0x40]);
        assert!(psv.patch_output_map.is_empty());
        assert_eq!(psv.trailing_bytes, 0);
    }
}

#[test]
fn domain_patch_output_map_and_mesh_prim_masks() {
    // Domain: 2 patch-constant vectors, 1 output vector, no inputs.
    let mut b =
        PsvBuilder::new(36, &u32s(&[3, 1, 2])).set(24, &[4, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
    b.strings = vec![0; 4];
    b.tables = vec![5, 6, 7, 8, 9, 10, 11, 12];
    let data = b.build();
    let psv = Psv0::parse_data(&data, 0, Some(ShaderKind::Domain)).unwrap();
    assert_eq!(psv.patch_output_map, vec![5, 6, 7, 8, 9, 10, 11, 12]);
    assert!(matches!(
        psv.runtime_info.stage_info,
        StageInfo::Domain {
            tessellator_domain: 2,
            ..
        }
    ));

    // Mesh with ViewID: dxc writes a primitive mask; LLVM does not read it.
    let mut b = PsvBuilder::new(36, &[]).set(24, &[13, 1, 3, 5, 0, 0, 0, 0, 1, 0, 0, 0]);
    b.strings = vec![0; 4];
    b.tables = vec![0xaa, 0xbb];
    let data = b.build();
    let psv = Psv0::parse_data(&data, 0, Some(ShaderKind::Mesh)).unwrap();
    assert_eq!(psv.runtime_info.mesh_output_topology(), Some(5));
    assert_eq!(psv.output_vector_masks[0], vec![0xaa]);
    assert_eq!(psv.patch_or_prim_masks, vec![0xbb]);
    assert_eq!(psv.trailing_bytes, 0);
    let bytes = crate::testutil::build(&[(b"PSV0", &data)]);
    let c = crate::Container::parse(&bytes).unwrap();
    let compat = Psv0::parse_llvm_compat(&c.part(0).unwrap(), Some(ShaderKind::Mesh)).unwrap();
    assert!(compat.patch_or_prim_masks.is_empty());
    assert_eq!(compat.trailing_bytes, 4);
}

#[test]
fn program_kind_wins_over_own_stage() {
    // The record says hull, the program says pixel: tables follow the program.
    let data = hull_v3(0).build();
    let psv = Psv0::parse_data(&data, 0, Some(ShaderKind::Pixel)).unwrap();
    assert_eq!(psv.stage, Some(ShaderKind::Pixel));
    assert_eq!(psv.runtime_info.shader_stage, Some(3));
    assert!(psv.input_patch_map.is_empty());
    assert_eq!(psv.trailing_bytes, 16);
}

#[test]
fn strict_errors() {
    type Mutation = fn(&mut PsvBuilder) -> Option<Vec<u8>>;
    let rows: &[(&str, Mutation)] = &[
        ("size past part", |_| Some(u32s(&[100, 0]))),
        ("record too short", |_| {
            Some([u32s(&[20]), vec![0; 24]].concat())
        }),
        ("resources cut", |b| {
            let mut d = b.build();
            d.truncate(4 + 48 + 8 + 30);
            Some(d)
        }),
        ("resource stride < 16", |b| {
            b.resource_stride = 8;
            None
        }),
        ("string table misaligned", |b| {
            b.strings.push(0);
            None
        }),
        ("element stride < 16", |b| {
            b.element_stride = 12;
            None
        }),
        ("name outside table", |b| {
            b.elements[0][0..4].copy_from_slice(&400u32.to_le_bytes());
            None
        }),
        ("name without NUL", |b| {
            b.strings = b"\0SV_Target\0TEXCOORD".to_vec();
            b.strings.push(b'X');
            None
        }),
        ("indices outside table", |b| {
            b.elements[0][4..8].copy_from_slice(&1u32.to_le_bytes());
            None
        }),
        ("map cut", |b| {
            b.tables.pop();
            None
        }),
    ];
    for (what, mutate) in rows {
        let mut b = pixel_v2();
        let data = mutate(&mut b).unwrap_or_else(|| b.build());
        let err = Psv0::parse_data(&data, 0x100, Some(ShaderKind::Pixel)).unwrap_err();
        assert!(err.offset >= 0x100, "{what}: {err}");
        use ReadErrorKind::*;
        let expected = match *what {
            "size past part" => {
                matches!(err.kind, OutOfBounds { .. })
                    && matches!(
                        err.kind.detail(),
                        Some(Psv0Error::RuntimeInfoSize { len: 100, .. })
                    )
            }
            "resource stride < 16" => {
                matches!(err.kind, TooSmall { .. })
                    && err.kind.detail()
                        == Some(&Psv0Error::ResourceStride {
                            size: 8,
                            minimum: 16,
                        })
            }
            "string table misaligned" => matches!(
                err.kind,
                Unaligned {
                    what: "string table size",
                    alignment: 4,
                    ..
                }
            ),
            "element stride < 16" => {
                matches!(err.kind, TooSmall { .. })
                    && err.kind.detail()
                        == Some(&Psv0Error::ElementStride {
                            size: 12,
                            minimum: 16,
                        })
            }
            "name outside table" => {
                matches!(err.kind, OutOfBounds { .. })
                    && matches!(
                        err.kind.detail(),
                        Some(Psv0Error::SemanticNameOffset { offset: 400, .. })
                    )
            }
            "name without NUL" => matches!(
                err.kind,
                NotNulTerminated {
                    what: "semantic name",
                    table_offset: Some(_),
                    ..
                }
            ),
            "indices outside table" => {
                matches!(err.kind, OutOfBounds { .. })
                    && matches!(
                        err.kind.detail(),
                        Some(Psv0Error::SemanticIndices { start: 1, .. })
                    )
            }
            _ => matches!(err.kind, Truncated { .. }),
        };
        assert!(expected, "{what}: {err:?}");
    }
}

#[test]
fn compat_mode_quirks() {
    // A truncated map is shortened instead of failing.
    let mut b = pixel_v2();
    b.tables.truncate(5);
    let bytes = crate::testutil::build(&[(b"PSV0", &b.build())]);
    let c = crate::Container::parse(&bytes).unwrap();
    let part = c.part(0).unwrap();
    assert!(Psv0::parse(&part, Some(ShaderKind::Pixel)).is_err());
    let psv = Psv0::parse_llvm_compat(&part, Some(ShaderKind::Pixel)).unwrap();
    assert_eq!(psv.input_output_maps[0], vec![1, 2, 3, 4, 5]);

    // Zero strides read no records; names past the table are empty.
    let mut b = pixel_v2();
    b.element_stride = 0;
    let bytes = crate::testutil::build(&[(b"PSV0", &b.build())]);
    let c = crate::Container::parse(&bytes).unwrap();
    let psv = Psv0::parse_llvm_compat(&c.part(0).unwrap(), Some(ShaderKind::Pixel)).unwrap();
    assert!(psv.input_elements.is_empty());
    let mut b = pixel_v2();
    b.elements[0][0..4].copy_from_slice(&400u32.to_le_bytes());
    b.elements[0][4..8].copy_from_slice(&1u32.to_le_bytes());
    let bytes = crate::testutil::build(&[(b"PSV0", &b.build())]);
    let c = crate::Container::parse(&bytes).unwrap();
    let psv = Psv0::parse_llvm_compat(&c.part(0).unwrap(), Some(ShaderKind::Pixel)).unwrap();
    assert_eq!(psv.input_elements[0].name, b"");
    assert_eq!(psv.input_elements[0].indices, vec![1]);

    // A part at an odd file offset: LLVM aligns the absolute address and
    // misreads the string table size; strict mode aligns within the part.
    let data = pixel_v2().build();
    let bytes = crate::testutil::build(&[(b"ODD0", b"x"), (b"PSV0", &data)]);
    let c = crate::Container::parse(&bytes).unwrap();
    let part = c.part(1).unwrap();
    assert_eq!(part.data_offset() % 4, 1);
    assert!(Psv0::parse(&part, Some(ShaderKind::Pixel)).is_ok());
    assert!(Psv0::parse_llvm_compat(&part, Some(ShaderKind::Pixel)).is_err());
}

#[test]
fn each_error_says_its_sentence() {
    use Psv0Error::*;
    crate::testutil::errors_say(vec![
        (
            RuntimeInfoSize {
                len: 100,
                part_size: 8,
            },
            "pipeline state data of 0x64 bytes extends beyond the 8-byte part",
        ),
        (
            EntryNameOffset {
                offset: 40,
                table_len: 24,
            },
            "entry name offset 40 is outside the 24-byte string table",
        ),
        (
            SemanticNameOffset {
                offset: 400,
                table_len: 24,
            },
            "semantic name offset 400 is outside the 24-byte string table",
        ),
        (
            SemanticIndices {
                start: 1,
                rows: 2,
                table_len: 2,
            },
            "semantic indices 1..3 are outside the 2-entry index table",
        ),
        (
            ResourceStride {
                size: 8,
                minimum: 16,
            },
            "resource stride 8 is smaller than the 16-byte record",
        ),
        (
            ElementStride {
                size: 12,
                minimum: 16,
            },
            "signature element stride 12 is smaller than the 16-byte record",
        ),
    ]);
}

#[test]
fn v4_record_is_version_4_strictly_and_3_for_llvm() {
    // A compute record of 56 bytes: threads 64×1×1 at 36, entry offset 0 at
    // 48, 4096 bytes of group-shared memory at 52.
    let mut b = PsvBuilder::new(56, &[])
        .set(24, &[5])
        .set(36, &u32s(&[64, 1, 1]))
        .set(52, &4096u32.to_le_bytes());
    b.strings = b"main\0\0\0\0".to_vec();
    let data = b.build();
    let c = crate::testutil::build(&[(b"PSV0", &data)]);
    let container = crate::Container::parse(&c).unwrap();
    let part = container.find(crate::PartName::PSV0).unwrap();
    let strict = Psv0::parse(&part, Some(ShaderKind::Compute)).unwrap();
    assert_eq!((strict.version, strict.runtime_info_size), (4, 56));
    assert_eq!(
        strict.runtime_info.num_bytes_group_shared_memory,
        Some(4096)
    );
    assert_eq!(strict.runtime_info.num_threads, Some([64, 1, 1]));
    assert_eq!(strict.entry_name, Some(&b"main"[..]));
    let llvm = Psv0::parse_llvm_compat(&part, Some(ShaderKind::Compute)).unwrap();
    assert_eq!(llvm.version, 3);
    assert_eq!(llvm.runtime_info.num_bytes_group_shared_memory, Some(4096));
    assert_eq!(strict.to_bytes(), data);
}
