//! RDAT, dxc's runtime data for libraries (DXC `DxilRuntimeReflection.h`).
//!
//! Layout: `u32 Version` (0x10), `u32 PartCount`, PartCount u32 offsets
//! (relative to the RDAT start). Each RDAT part is `u32 Type`, `u32 Size`,
//! then Size bytes. Types 1 (string buffer: NUL-terminated UTF-8 strings),
//! 2 (index arrays: u32 rows, each a count followed by that many values) and
//! 5 (raw bytes) are buffers; every other type is a record table:
//! `u32 RecordCount`, `u32 RecordStride`, then the records.
//!
//! Resource records (32 bytes): class, kind, id, space, lower bound, upper
//! bound, name (string offset), flags. Function records (44 bytes, larger
//! strides extend them): name, unmangled name (string offsets), resources and
//! dependencies (index-array rows), shader kind, payload size, attribute
//! size, feature flags (two u32), shader stage flags, minimum shader target.

use crate::container::Part;
use crate::cursor::{Cursor, Records};
use crate::enums::{flag_set, open_enum};
use crate::error::Result;
use crate::finding::{Finding, Rule};
use std::fmt;

/// The only RDAT version dxc writes.
pub const RDAT_VERSION_10: u32 = 0x10;
/// Minimum resource record size.
pub const RESOURCE_RECORD_SIZE: u32 = ResourceRecord::SIZE as u32;
/// Minimum function record size.
pub const FUNCTION_RECORD_SIZE: u32 = FunctionRecord::SIZE as u32;
/// Subobject record size (kind, name, then a 16-byte union).
pub const SUBOBJECT_RECORD_SIZE: u32 = SubobjectRecord::SIZE as u32;

crate::record::record! {
    /// The RDAT header; `part_count` part offsets follow.
    pub struct RdatHeader: "RDAT header" {
        /// Version (0x10).
        0 version: u32;
        /// Number of RDAT parts.
        4 part_count: u32;
    }
}

crate::record::record! {
    /// The header of one RDAT part; `size` bytes follow.
    pub struct RdatPartHeader: "RDAT part header" {
        /// Part type.
        0 part_type: RdatPartType;
        /// Size of the part's body.
        4 size: u32;
    }
}

crate::record::record! {
    /// The header of a record table; `record_count` records of
    /// `record_stride` bytes follow.
    pub struct TableHeader: "RDAT table header" {
        /// Number of records.
        0 record_count: u32;
        /// Bytes per record.
        4 record_stride: u32;
    }
}

crate::record::record! {
    /// A stored resource record (`RuntimeDataResourceInfo`).
    pub struct ResourceRecord: "RDAT resource" {
        /// Resource class.
        0 class: ResourceClass;
        /// Resource kind.
        4 kind: ResourceKind;
        /// Resource ID.
        8 id: u32;
        /// Register space.
        12 space: u32;
        /// First register.
        16 lower_bound: u32;
        /// Last register.
        20 upper_bound: u32;
        /// Name (string buffer offset).
        24 name: u32;
        /// Flags.
        28 flags: ResourceFlags;
    }
}

crate::record::record! {
    /// A stored function record (`RuntimeDataFunctionInfo`); larger
    /// strides extend it.
    pub struct FunctionRecord: "RDAT function" {
        /// Mangled name (string buffer offset).
        0 name: u32;
        /// Unmangled name (string buffer offset).
        4 unmangled_name: u32;
        /// Resources used (index-array row).
        8 resources: u32;
        /// Function dependencies (index-array row of string offsets).
        12 dependencies: u32;
        /// Shader kind.
        16 shader_kind: FunctionKind;
        /// Payload size.
        20 payload_size: u32;
        /// Attribute size.
        24 attribute_size: u32;
        /// Feature flags, low word.
        28 feature_flags_low: u32;
        /// Feature flags, high word.
        32 feature_flags_high: u32;
        /// Shader stage flags.
        36 shader_stage_flags: u32;
        /// Minimum shader target.
        40 min_shader_target: u32;
    }
}

crate::record::record! {
    /// A stored subobject record: kind, name, then a 16-byte union read as
    /// words by kind.
    pub struct SubobjectRecord: "RDAT subobject" {
        /// Subobject kind.
        0 kind: SubobjectKind;
        /// Name (string buffer offset).
        4 name: u32;
        /// The union's first word.
        8 word0: u32;
        /// The union's second word.
        12 word1: u32;
        /// The union's third word.
        16 word2: u32;
        /// The union's fourth word.
        20 word3: u32;
    }
}
/// "No row" marker for index-array references.
pub const NULL_REF: u32 = u32::MAX;

/// Encodes RDAT part data (version 0x10) holding `parts` (part type, body)
/// in order: the header, the part offsets, then each part's header and body.
pub fn write_rdat(parts: &[(RdatPartType, &[u8])]) -> Vec<u8> {
    let mut out = RdatHeader {
        version: RDAT_VERSION_10,
        part_count: parts.len() as u32,
    }
    .to_bytes();
    let mut at = RdatHeader::SIZE as usize + 4 * parts.len();
    for (_, body) in parts {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += RdatPartHeader::SIZE as usize + body.len();
    }
    for (part_type, body) in parts {
        RdatPartHeader {
            part_type: *part_type,
            size: body.len() as u32,
        }
        .write_to(&mut out);
        out.extend_from_slice(body);
    }
    out
}

/// Encodes the body of a record table: the table header, then each record
/// padded with zeros to `stride` bytes (at least the record's size).
pub fn write_table<R: crate::record::Field>(records: &[R], stride: u32) -> Vec<u8> {
    let stride = stride.max(R::SIZE as u32);
    let mut out = TableHeader {
        record_count: records.len() as u32,
        record_stride: stride,
    }
    .to_bytes();
    for record in records {
        let start = out.len();
        record.write_to(&mut out);
        out.resize(start + stride as usize, 0);
    }
    out
}

open_enum! {
    /// RDAT part type (`RuntimeDataPartType`).
    pub enum RdatPartType: u32 {
        Invalid = 0 => "Invalid",
        StringBuffer = 1 => "StringBuffer",
        IndexArrays = 2 => "IndexArrays",
        ResourceTable = 3 => "ResourceTable",
        FunctionTable = 4 => "FunctionTable",
        RawBytes = 5 => "RawBytes",
        SubobjectTable = 6 => "SubobjectTable",
        NodeIDTable = 7 => "NodeIDTable",
        NodeShaderIOAttribTable = 8 => "NodeShaderIOAttribTable",
        NodeShaderFuncAttribTable = 9 => "NodeShaderFuncAttribTable",
        IONodeTable = 10 => "IONodeTable",
        NodeShaderInfoTable = 11 => "NodeShaderInfoTable",
        SignatureElementTable = 13 => "SignatureElementTable",
        VSInfoTable = 14 => "VSInfoTable",
        PSInfoTable = 15 => "PSInfoTable",
        HSInfoTable = 16 => "HSInfoTable",
        DSInfoTable = 17 => "DSInfoTable",
        GSInfoTable = 18 => "GSInfoTable",
        CSInfoTable = 19 => "CSInfoTable",
        MSInfoTable = 20 => "MSInfoTable",
        ASInfoTable = 21 => "ASInfoTable",
        DxilPdbInfoTable = 0x10001 => "DxilPdbInfoTable",
        DxilPdbInfoSourceTable = 0x10002 => "DxilPdbInfoSourceTable",
        DxilPdbInfoLibraryTable = 0x10003 => "DxilPdbInfoLibraryTable",
    }
}

impl RdatPartType {
    /// Whether parts of this type are record tables (count, stride, records).
    pub fn is_table(self) -> bool {
        !matches!(self.raw(), 0 | 1 | 2 | 5)
    }
}

open_enum! {
    /// `DXIL::ResourceClass`.
    pub enum ResourceClass: u32 {
        Srv = 0 => "SRV",
        Uav = 1 => "UAV",
        CBuffer = 2 => "CBuffer",
        Sampler = 3 => "Sampler",
        Invalid = 4 => "Invalid",
    }
}

/// `DXIL::ResourceKind`: the same enumeration PSV0 version 2 stores.
pub use crate::parts::psv0::ResourceKind;

/// `DXIL::ShaderKind` as RDAT stores it (16 = Invalid).
pub use crate::stage::FunctionKind;

flag_set! {
    /// RDAT resource flags (`DxilResourceFlag`).
    pub struct ResourceFlags: u32 {
        UAV_GLOBALLY_COHERENT = 0x1 => "UAVGloballyCoherent",
        UAV_COUNTER = 0x2 => "UAVCounter",
        UAV_RASTERIZER_ORDERED_VIEW = 0x4 => "UAVRasterizerOrderedView",
        DYNAMIC_INDEXING = 0x8 => "DynamicIndexing",
        ATOMICS64_USE = 0x10 => "Atomics64Use",
    }
}

/// One RDAT part as laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RdatPart {
    /// Absolute offset of the RDAT part header.
    pub offset: u64,
    /// Part type.
    pub part_type: RdatPartType,
    /// Size of the part data.
    pub size: u32,
    /// Tables: record count.
    pub record_count: Option<u32>,
    /// Tables: record stride.
    pub record_stride: Option<u32>,
}

/// A resource record.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RdatResource<'data> {
    /// Class.
    pub class: ResourceClass,
    /// Kind.
    pub kind: ResourceKind,
    /// Id within its class.
    pub id: u32,
    /// Register space.
    pub space: u32,
    /// First register.
    pub lower_bound: u32,
    /// Last register (0xFFFFFFFF for unbounded).
    pub upper_bound: u32,
    /// Name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Flags.
    pub flags: ResourceFlags,
}

/// A function record.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RdatFunction<'data> {
    /// Mangled name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Unmangled name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub unmangled_name: &'data [u8],
    /// Shader kind.
    pub shader_kind: FunctionKind,
    /// Indices into the resource table.
    pub resources: Vec<u32>,
    /// Names of the functions this one depends on.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::fields::ser::text_list")
    )]
    pub dependencies: Vec<&'data [u8]>,
    /// Payload (hit/miss) or parameter (callable) size.
    pub payload_size: u32,
    /// Attribute size (hit shaders).
    pub attribute_size: u32,
    /// Shader feature flags (FeatureInfo2 << 32 | FeatureInfo1).
    pub feature_flags: u64,
    /// Stages the function may run in (bit n = shader kind n).
    pub shader_stage_flags: u32,
    /// Minimum target: kind << 16 | major << 4 | minor.
    pub min_shader_target: u32,
}

/// A decoded RDAT part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RuntimeData<'data> {
    /// Version (0x10).
    pub version: u32,
    /// Parts, in offset-table order.
    pub parts: Vec<RdatPart>,
    /// Strings of the string buffer.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::fields::ser::text_list")
    )]
    pub strings: Vec<&'data [u8]>,
    /// Size of the index arrays in u32 words.
    pub index_words: u32,
    /// Size of the raw-bytes buffer.
    pub raw_bytes_size: u32,
    /// Resource table records.
    pub resources: Vec<RdatResource<'data>>,
    /// Function table records.
    pub functions: Vec<RdatFunction<'data>>,
    /// The subobject table (libraries with state-object subobjects), in
    /// record order.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub subobjects: Vec<RdatSubobject<'data>>,
    /// Broken references, short strides, duplicate parts.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

struct Table<'data> {
    records: Cursor<'data>,
    count: u32,
    stride: u32,
}

impl<'data> RuntimeData<'data> {
    /// Decodes RDAT data located at absolute offset `base`.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<RuntimeData<'data>> {
        let c = Cursor::new(data, base);
        let RdatHeader {
            version,
            part_count,
        } = RdatHeader::read(&c, 0)?;
        if version != RDAT_VERSION_10 {
            return Err(c.unknown_value(0, RdatError::Version { value: version }));
        }
        let mut out = RuntimeData {
            version,
            parts: Vec::new(),
            strings: Vec::new(),
            index_words: 0,
            raw_bytes_size: 0,
            resources: Vec::new(),
            functions: Vec::new(),
            subobjects: Vec::new(),
            issues: Vec::new(),
        };
        let mut string_buffer: Option<Cursor<'data>> = None;
        let mut index: Option<Cursor<'data>> = None;
        let mut resource_table = None;
        let mut function_table = None;
        let mut subobject_table = None;
        // Each offset is read when its part is decoded, so a short table
        // reports its first missing entry after the parts before it.
        for at in c.u32_each(8, u64::from(part_count), "RDAT part offset") {
            let at = u64::from(at?);
            let RdatPartHeader { part_type, size } = RdatPartHeader::read(&c, at)?;
            let body = c.sub(at + RdatPartHeader::SIZE, u64::from(size), "RDAT part")?;
            if at % 4 != 0 || size % 4 != 0 {
                out.issues.push(Finding::at(
                    c.abs(at),
                    RdatRule::RdatPartUnaligned {
                        part_type,
                        at,
                        size,
                    },
                ));
            }
            let mut part = RdatPart {
                offset: c.abs(at),
                part_type,
                size,
                record_count: None,
                record_stride: None,
            };
            let duplicate = |issues: &mut Vec<Finding>| {
                issues.push(Finding::at(
                    c.abs(at),
                    RdatRule::RdatDuplicatePart { part_type },
                ));
            };
            match part_type.raw() {
                1 if string_buffer.is_none() => string_buffer = Some(body),
                2 if index.is_none() => index = Some(body),
                5 if out.raw_bytes_size == 0 => out.raw_bytes_size = size,
                1 | 2 | 5 => duplicate(&mut out.issues),
                0 => out
                    .issues
                    .push(Finding::at(c.abs(at), RdatRule::RdatInvalidPart)),
                _ => {
                    let TableHeader {
                        record_count: count,
                        record_stride: stride,
                    } = TableHeader::read(&body, 0)?;
                    let bytes = u64::from(count) * u64::from(stride);
                    let records = body.sub(TableHeader::SIZE, bytes, "RDAT table records")?;
                    if stride % 4 != 0 {
                        out.issues.push(Finding::at(
                            body.abs(4),
                            RdatRule::RdatStrideUnaligned { part_type, stride },
                        ));
                    }
                    part.record_count = Some(count);
                    part.record_stride = Some(stride);
                    let table = Table {
                        records,
                        count,
                        stride,
                    };
                    match part_type.raw() {
                        3 if resource_table.is_none() => resource_table = Some(table),
                        4 if function_table.is_none() => function_table = Some(table),
                        6 if subobject_table.is_none() => subobject_table = Some(table),
                        3 | 4 | 6 => duplicate(&mut out.issues),
                        _ => {}
                    }
                }
            }
            out.parts.push(part);
        }
        if let Some(s) = string_buffer {
            let bytes = s.data();
            if !bytes.is_empty() && bytes.last() != Some(&0) {
                out.issues.push(Finding::at(
                    s.abs(s.len() - 1),
                    RdatRule::StringBufferUnterminated,
                ));
            }
            out.strings = bytes
                .split(|&b| b == 0)
                .take(bytes.iter().filter(|&&b| b == 0).count())
                .collect();
        }
        if let Some(ix) = index {
            out.index_words = (ix.len() / 4) as u32;
        }
        let refs = Refs {
            strings: string_buffer,
            index,
        };
        if let Some(t) = resource_table {
            out.resources = read_resources(&t, &refs, &mut out.issues)?;
        }
        if let Some(t) = function_table {
            out.functions = read_functions(&t, &refs, &mut out.issues)?;
        }
        if let Some(t) = subobject_table {
            out.subobjects = read_subobjects(&t, &refs, &mut out.issues)?;
        }
        Ok(out)
    }

    /// Decodes an RDAT part.
    pub fn parse(part: &Part<'data>) -> Result<RuntimeData<'data>> {
        RuntimeData::parse_data(part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }
}

impl<'data> Table<'data> {
    /// The table's records of `what` (a `record` of at least `minimum`
    /// bytes); none, with a finding when the table has some, when the stride
    /// is below `minimum`.
    fn records_of_at_least(
        &self,
        minimum: u32,
        record: &'static str,
        what: &'static str,
        issues: &mut Vec<Finding>,
    ) -> Result<Records<'data>> {
        let count = if self.stride < minimum {
            if self.count > 0 {
                issues.push(Finding::at(
                    self.records.abs(0),
                    RdatRule::RecordStrideTooSmall {
                        record,
                        stride: self.stride,
                        minimum,
                    },
                ));
            }
            0
        } else {
            self.count
        };
        self.records
            .records(0, u64::from(count), u64::from(self.stride), what)
    }
}

/// Lookups into the string buffer and index arrays.
struct Refs<'data> {
    strings: Option<Cursor<'data>>,
    index: Option<Cursor<'data>>,
}

impl<'data> Refs<'data> {
    fn string(&self, offset: u32, at: u64, issues: &mut Vec<Finding>) -> &'data [u8] {
        match self
            .strings
            .and_then(|s| s.cstr(u64::from(offset), s.len(), "RDAT string").ok())
        {
            Some(s) => s,
            None => {
                issues.push(Finding::at(at, RdatRule::StringOffsetOutside { offset }));
                &[]
            }
        }
    }

    /// Row `row` of the index arrays (empty for the null reference).
    fn row(&self, row: u32, at: u64, issues: &mut Vec<Finding>) -> Vec<u32> {
        if row == NULL_REF {
            return Vec::new();
        }
        let read = || -> Option<Vec<u32>> {
            let ix = self.index?;
            let mut at = u64::from(row) * 4;
            let count = ix.take_u32(&mut at, "RDAT index row").ok()?;
            let values = ix.u32s(at, u64::from(count), "RDAT index row").ok()?;
            Some(values.collect())
        };
        read().unwrap_or_else(|| {
            issues.push(Finding::at(at, RdatRule::IndexRowOutside { row }));
            Vec::new()
        })
    }
}

fn read_resources<'data>(
    t: &Table<'data>,
    refs: &Refs<'data>,
    issues: &mut Vec<Finding>,
) -> Result<Vec<RdatResource<'data>>> {
    let mut out = Vec::new();
    let records =
        t.records_of_at_least(RESOURCE_RECORD_SIZE, "resource", "RDAT resource", issues)?;
    for (_, r) in records {
        let record = ResourceRecord::read(&r, 0)?;
        out.push(RdatResource {
            class: record.class,
            kind: record.kind,
            id: record.id,
            space: record.space,
            lower_bound: record.lower_bound,
            upper_bound: record.upper_bound,
            name: refs.string(record.name, r.abs(24), issues),
            flags: record.flags,
        });
    }
    Ok(out)
}

fn read_functions<'data>(
    t: &Table<'data>,
    refs: &Refs<'data>,
    issues: &mut Vec<Finding>,
) -> Result<Vec<RdatFunction<'data>>> {
    let mut out = Vec::new();
    let records =
        t.records_of_at_least(FUNCTION_RECORD_SIZE, "function", "RDAT function", issues)?;
    for (_, f) in records {
        let record = FunctionRecord::read(&f, 0)?;
        let dependencies = refs
            .row(record.dependencies, f.abs(12), issues)
            .into_iter()
            .map(|s| refs.string(s, f.abs(12), issues))
            .collect();
        out.push(RdatFunction {
            name: refs.string(record.name, f.abs(0), issues),
            unmangled_name: refs.string(record.unmangled_name, f.abs(4), issues),
            resources: refs.row(record.resources, f.abs(8), issues),
            dependencies,
            shader_kind: record.shader_kind,
            payload_size: record.payload_size,
            attribute_size: record.attribute_size,
            feature_flags: u64::from(record.feature_flags_low)
                | u64::from(record.feature_flags_high) << 32,
            shader_stage_flags: record.shader_stage_flags,
            min_shader_target: record.min_shader_target,
        });
    }
    Ok(out)
}

open_enum! {
    /// `DXIL::SubobjectKind`: the kind of an RDAT subobject record.
    pub enum SubobjectKind: u32 {
        StateObjectConfig = 0 => "StateObjectConfig",
        GlobalRootSignature = 1 => "GlobalRootSignature",
        LocalRootSignature = 2 => "LocalRootSignature",
        SubobjectToExportsAssociation = 8 => "SubobjectToExportsAssociation",
        RaytracingShaderConfig = 9 => "RaytracingShaderConfig",
        RaytracingPipelineConfig = 10 => "RaytracingPipelineConfig",
        HitGroup = 11 => "HitGroup",
        RaytracingPipelineConfig1 = 12 => "RaytracingPipelineConfig1",
    }
}

/// One record of the RDAT subobject table (`RuntimeDataSubobjectInfo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RdatSubobject<'data> {
    /// The kind.
    pub kind: SubobjectKind,
    /// The subobject's name.
    pub name: &'data [u8],
    /// The kind's fields.
    pub detail: SubobjectDetail<'data>,
}

/// The kind-specific union of an RDAT subobject record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubobjectDetail<'data> {
    /// `StateObjectConfig`: `D3D12_STATE_OBJECT_FLAGS`.
    StateObjectConfig {
        /// The flags.
        flags: u32,
    },
    /// `GlobalRootSignature` / `LocalRootSignature`: the serialized root
    /// signature in the raw-bytes part.
    RootSignature {
        /// Offset in the raw-bytes part.
        offset: u32,
        /// Size in bytes.
        size: u32,
    },
    /// `SubobjectToExportsAssociation`.
    SubobjectToExportsAssociation {
        /// The subobject associated.
        subobject: &'data [u8],
        /// The exports it is associated with.
        exports: Vec<&'data [u8]>,
    },
    /// `RaytracingShaderConfig`.
    RaytracingShaderConfig {
        /// Maximum payload size.
        max_payload_size: u32,
        /// Maximum attribute size.
        max_attribute_size: u32,
    },
    /// `RaytracingPipelineConfig`.
    RaytracingPipelineConfig {
        /// Maximum trace recursion depth.
        max_trace_recursion_depth: u32,
    },
    /// `HitGroup`.
    HitGroup {
        /// 0 triangles, 1 procedural primitives.
        hit_group_type: u32,
        /// Any-hit shader.
        any_hit: &'data [u8],
        /// Closest-hit shader.
        closest_hit: &'data [u8],
        /// Intersection shader.
        intersection: &'data [u8],
    },
    /// `RaytracingPipelineConfig1`.
    RaytracingPipelineConfig1 {
        /// Maximum trace recursion depth.
        max_trace_recursion_depth: u32,
        /// `D3D12_RAYTRACING_PIPELINE_FLAGS`.
        flags: u32,
    },
    /// A kind DXIL does not define (dxc skips the record).
    Unknown,
}

fn read_subobjects<'data>(
    t: &Table<'data>,
    refs: &Refs<'data>,
    issues: &mut Vec<Finding>,
) -> Result<Vec<RdatSubobject<'data>>> {
    let mut out = Vec::new();
    let records = t.records_of_at_least(
        SUBOBJECT_RECORD_SIZE,
        "subobject",
        SubobjectRecord::WHAT,
        issues,
    )?;
    for (_, r) in records {
        let record = SubobjectRecord::read(&r, 0)?;
        let kind = record.kind;
        let name = refs.string(record.name, r.abs(4), issues);
        let words = [record.word0, record.word1, record.word2, record.word3];
        let word = |i: u64| -> Result<u32> { Ok(words[i as usize]) };
        let mut string =
            |i: u64| -> Result<&'data [u8]> { Ok(refs.string(word(i)?, r.abs(8 + 4 * i), issues)) };
        let detail = match kind {
            SubobjectKind::StateObjectConfig => {
                SubobjectDetail::StateObjectConfig { flags: word(0)? }
            }
            SubobjectKind::GlobalRootSignature | SubobjectKind::LocalRootSignature => {
                SubobjectDetail::RootSignature {
                    offset: word(0)?,
                    size: word(1)?,
                }
            }
            SubobjectKind::SubobjectToExportsAssociation => {
                let subobject = string(0)?;
                let exports = refs
                    .row(word(1)?, r.abs(12), issues)
                    .into_iter()
                    .map(|s| refs.string(s, r.abs(12), issues))
                    .collect();
                SubobjectDetail::SubobjectToExportsAssociation { subobject, exports }
            }
            SubobjectKind::RaytracingShaderConfig => SubobjectDetail::RaytracingShaderConfig {
                max_payload_size: word(0)?,
                max_attribute_size: word(1)?,
            },
            SubobjectKind::RaytracingPipelineConfig => SubobjectDetail::RaytracingPipelineConfig {
                max_trace_recursion_depth: word(0)?,
            },
            SubobjectKind::HitGroup => SubobjectDetail::HitGroup {
                hit_group_type: word(0)?,
                any_hit: string(1)?,
                closest_hit: string(2)?,
                intersection: string(3)?,
            },
            SubobjectKind::RaytracingPipelineConfig1 => {
                SubobjectDetail::RaytracingPipelineConfig1 {
                    max_trace_recursion_depth: word(0)?,
                    flags: word(1)?,
                }
            }
            SubobjectKind::Unknown(_) => SubobjectDetail::Unknown,
        };
        out.push(RdatSubobject { kind, name, detail });
    }
    Ok(out)
}

/// The rules the RDAT decoder checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RdatRule {
    /// A part whose offset or size is not a multiple of 4.
    RdatPartUnaligned {
        /// The part type.
        part_type: RdatPartType,
        /// Its offset in RDAT.
        at: u64,
        /// Its size.
        size: u32,
    },
    /// A second part of a type that may appear once (ignored).
    RdatDuplicatePart {
        /// The part type.
        part_type: RdatPartType,
    },
    /// A part of type Invalid (0).
    RdatInvalidPart,
    /// A table stride that is not a multiple of 4.
    RdatStrideUnaligned {
        /// The table's part type.
        part_type: RdatPartType,
        /// The stride.
        stride: u32,
    },
    /// A record stride below the record size this reader knows.
    RecordStrideTooSmall {
        /// The record ("resource", "function").
        record: &'static str,
        /// The stride.
        stride: u32,
        /// The record size.
        minimum: u32,
    },
    /// The string buffer does not end with a NUL.
    StringBufferUnterminated,
    /// A string offset outside the string buffer.
    StringOffsetOutside {
        /// The offset.
        offset: u32,
    },
    /// An index row outside the index arrays.
    IndexRowOutside {
        /// The row.
        row: u32,
    },
}

impl fmt::Display for RdatRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RdatRule::*;
        match self {
            RdatPartUnaligned {
                part_type,
                at,
                size,
            } => write!(
                f,
                "{part_type} part at {at:#x} with size {size} is not 4-byte aligned"
            ),
            RdatDuplicatePart { part_type } => write!(f, "second {part_type} part ignored"),
            RdatInvalidPart => f.write_str("part of type Invalid (0)"),
            RdatStrideUnaligned { part_type, stride } => {
                write!(f, "{part_type} stride {stride} is not a multiple of 4")
            }
            RecordStrideTooSmall {
                record,
                stride,
                minimum,
            } => write!(f, "{record} stride {stride} is below {minimum}"),
            StringBufferUnterminated => f.write_str("string buffer does not end with a NUL"),
            StringOffsetOutside { offset } => {
                write!(f, "string offset {offset:#x} is outside the string buffer")
            }
            IndexRowOutside { row } => write!(f, "index row {row} is outside the index arrays"),
        }
    }
}

impl Rule for RdatRule {}

/// The RDAT decoder's errors, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RdatError {
    /// RDAT's version is not 0x10 (anything else is a prerelease layout).
    Version {
        /// The version found.
        value: u32,
    },
}

impl fmt::Display for RdatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RdatError::Version { value } => write!(
                f,
                "RDAT version {value:#x} is not 0x10 (a prerelease layout)"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;
    use crate::fixtures::build_rdat;

    #[test]
    fn each_error_says_its_sentence() {
        use RdatError::*;
        crate::testutil::errors_say(vec![(
            Version { value: 0x11 },
            "RDAT version 0x11 is not 0x10 (a prerelease layout)",
        )]);
    }

    #[test]
    fn each_rule_has_its_sentence() {
        use RdatRule::*;
        crate::testutil::rules_say(vec![
            (
                RdatPartUnaligned {
                    part_type: RdatPartType::StringBuffer,
                    at: 0x1e,
                    size: 6,
                },
                "StringBuffer part at 0x1e with size 6 is not 4-byte aligned",
            ),
            (
                RdatDuplicatePart {
                    part_type: RdatPartType::IndexArrays,
                },
                "second IndexArrays part ignored",
            ),
            (RdatInvalidPart, "part of type Invalid (0)"),
            (
                RdatStrideUnaligned {
                    part_type: RdatPartType::ResourceTable,
                    stride: 6,
                },
                "ResourceTable stride 6 is not a multiple of 4",
            ),
            (
                RecordStrideTooSmall {
                    record: "function",
                    stride: 8,
                    minimum: 40,
                },
                "function stride 8 is below 40",
            ),
            (
                StringBufferUnterminated,
                "string buffer does not end with a NUL",
            ),
            (
                StringOffsetOutside { offset: 0x40 },
                "string offset 0x40 is outside the string buffer",
            ),
            (
                IndexRowOutside { row: 7 },
                "index row 7 is outside the index arrays",
            ),
        ]);
    }

    fn words(values: &[u32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    fn library() -> Vec<u8> {
        // strings: 0 "", 1 "tex", 5 "\x01?main@@YAXXZ", 19 "main"
        let mut strings = b"\0tex\0\x01?main@@YAXXZ\0main\0".to_vec();
        strings.resize(28, 0);
        // index rows: at 0: [1: 0]; at 2: [1: 19]
        let index = words(&[1, 0, 1, 19]);
        let resource = ResourceRecord {
            class: ResourceClass::Srv,
            kind: ResourceKind::Texture2D,
            id: 0,
            space: 0,
            lower_bound: 3,
            upper_bound: 3,
            name: 1,
            flags: ResourceFlags(8),
        };
        let function = FunctionRecord {
            name: 5,
            unmangled_name: 19,
            resources: 0,
            dependencies: 2,
            shader_kind: FunctionKind::from_raw(7),
            payload_size: 0,
            attribute_size: 0,
            feature_flags_low: 1,
            feature_flags_high: 0,
            shader_stage_flags: 1 << 7,
            min_shader_target: 0x7_0063,
        };
        let subobjects: [SubobjectRecord; 0] = [];
        build_rdat(&[
            (1, strings),
            (3, write_table(&[resource], 32)),
            (4, write_table(&[function], 48)),
            (2, index),
            (5, vec![0; 8]),
            (6, write_table(&subobjects, 24)),
        ])
    }

    #[test]
    fn records_written_then_read() {
        let data = library();
        let c = Cursor::new(&data, 0);
        let header = RdatHeader::read(&c, 0).unwrap();
        assert_eq!((header.version, header.part_count), (RDAT_VERSION_10, 6));
        let at = u64::from(c.u32(RdatHeader::SIZE + 4, "offset").unwrap());
        let part = RdatPartHeader::read(&c, at).unwrap();
        assert_eq!(part.part_type, RdatPartType::ResourceTable);
        let table = TableHeader::read(&c, at + RdatPartHeader::SIZE).unwrap();
        assert_eq!((table.record_count, table.record_stride), (1, 32));
        let resource = ResourceRecord::read(&c, at + 16).unwrap();
        assert_eq!(resource.kind, ResourceKind::Texture2D);
        assert_eq!(resource.to_bytes(), data[at as usize + 16..][..32]);
    }

    #[test]
    fn decodes_library() {
        let data = library();
        let r = RuntimeData::parse_data(&data, 0).unwrap();
        assert!(r.issues.is_empty(), "{:?}", r.issues);
        assert_eq!(r.parts.len(), 6);
        assert_eq!(r.parts[1].part_type.to_string(), "ResourceTable");
        assert_eq!(
            (r.parts[1].record_count, r.parts[1].record_stride),
            (Some(1), Some(32))
        );
        assert_eq!(r.parts[5].record_count, Some(0));
        assert_eq!(r.strings.len(), 8);
        assert_eq!(r.strings[1], b"tex");
        assert_eq!((r.index_words, r.raw_bytes_size), (4, 8));
        let res = &r.resources[0];
        assert_eq!(
            (res.name, res.class.to_string().as_str()),
            (&b"tex"[..], "SRV")
        );
        assert_eq!(res.kind.to_string(), "Texture2D");
        assert_eq!(res.flags.names(), vec!["DynamicIndexing"]);
        let f = &r.functions[0];
        assert_eq!(f.name, b"\x01?main@@YAXXZ");
        assert_eq!(f.unmangled_name, b"main");
        assert_eq!(f.resources, vec![0]);
        assert_eq!(f.dependencies, vec![&b"main"[..]]);
        assert_eq!(f.shader_kind.to_string(), "RayGeneration");
        assert_eq!(f.feature_flags, 1);
    }

    #[test]
    fn issues_and_errors() {
        // Bad string offset and index row → issues.
        let mut data = library();
        let funcs_at = Cursor::new(&data, 0).u32(16, "offset").unwrap() as usize + 16;
        data[funcs_at..funcs_at + 4].copy_from_slice(&500u32.to_le_bytes());
        data[funcs_at + 8..funcs_at + 12].copy_from_slice(&77u32.to_le_bytes());
        let r = RuntimeData::parse_data(&data, 0).unwrap();
        let at = funcs_at as u64;
        assert_eq!(
            r.issues,
            [
                Finding::at(at, RdatRule::StringOffsetOutside { offset: 500 }),
                Finding::at(at + 8, RdatRule::IndexRowOutside { row: 77 }),
            ]
        );
        // Null reference is not an issue.
        data[funcs_at + 8..funcs_at + 12].copy_from_slice(&NULL_REF.to_le_bytes());
        let r = RuntimeData::parse_data(&data, 0).unwrap();
        assert_eq!(
            r.issues,
            [Finding::at(
                at,
                RdatRule::StringOffsetOutside { offset: 500 }
            )]
        );
        // Short stride, duplicate part, invalid part, unaligned size.
        let data = build_rdat(&[
            (3, words(&[1, 8, 0, 0])),
            (1, b"a\0".to_vec()),
            (1, b"b\0".to_vec()),
            (0, vec![]),
        ]);
        let r = RuntimeData::parse_data(&data, 0).unwrap();
        let strings = RdatPartType::StringBuffer;
        let unaligned = |at| RdatRule::RdatPartUnaligned {
            part_type: strings,
            at,
            size: 2,
        };
        // The parts' headers start at 40 (the table), 48, 58 and 68.
        assert_eq!(
            r.issues,
            [
                Finding::at(48, unaligned(48)),
                Finding::at(58, unaligned(58)),
                Finding::at(58, RdatRule::RdatDuplicatePart { part_type: strings }),
                Finding::at(68, RdatRule::RdatInvalidPart),
                Finding::at(
                    40,
                    RdatRule::RecordStrideTooSmall {
                        record: "resource",
                        stride: 8,
                        minimum: RESOURCE_RECORD_SIZE
                    }
                ),
            ]
        );
        // Wrong version, table past its part, truncated offsets.
        let mut bad = library();
        bad[0] = 0x11;
        assert_eq!(
            RuntimeData::parse_data(&bad, 0).unwrap_err().kind,
            ReadErrorKind::unknown_value(RdatError::Version { value: 0x11 })
        );
        let data = build_rdat(&[(4, words(&[100, 44]))]);
        assert!(matches!(
            RuntimeData::parse_data(&data, 0).unwrap_err().kind,
            ReadErrorKind::Truncated { .. }
        ));
        assert!(RuntimeData::parse_data(&words(&[0x10, 3]), 0).is_err());
    }

    #[test]
    fn short_offset_table_fails_at_its_first_missing_entry() {
        // Five entries; the first two name the RawBytes part at 4 (type 5 =
        // the part count, size 4 = the first entry), the third has 2 of its
        // 4 bytes.
        let mut data = words(&[0x10, 5, 4, 4]);
        data.extend([0xaa, 0xbb]);
        let e = RuntimeData::parse_data(&data, 100).unwrap_err();
        assert_eq!(e.offset, 116);
        assert_eq!(
            e.kind,
            ReadErrorKind::Truncated {
                part: None,
                what: "RDAT part offset",
                needed: 4,
                available: 2,
            }
        );
        // The part named by an entry is read before the next entry: here
        // part 0 (IndexArrays at 4, size 4) runs past the end first.
        let e = RuntimeData::parse_data(&words(&[0x10, 2, 4]), 100).unwrap_err();
        assert_eq!(e.offset, 112);
        assert_eq!(
            e.kind,
            ReadErrorKind::Truncated {
                part: None,
                what: "RDAT part",
                needed: 4,
                available: 0,
            }
        );
    }
}
