//! RDEF, fxc's resource definitions (the data behind ID3D11ShaderReflection).
//!
//! Header (28 bytes): `u32 ConstantBufferCount`, `u32 ConstantBufferOffset`,
//! `u32 BoundResourceCount`, `u32 BoundResourceOffset`, `u8 Minor`, `u8 Major`,
//! `u16 ProgramType` (0xFFFF ps, 0xFFFE vs, "GS", "HS", "DS", "CS"),
//! `u32 CompileFlags`, `u32 CreatorOffset`. Shader model 5 adds a 32-byte
//! `RD11` header (the magic, reversed for 5.1, then the header size and the
//! sizes of the constant-buffer, binding, variable, type and member records
//! and an interface slot count). All offsets are relative to the part data.
//!
//! Records: constant buffer (24 bytes: name, variable count, variable
//! offset, size, flags, type); variable (24 bytes: name, start offset, size,
//! flags, type offset, default value offset; SM5 adds start texture, texture
//! size, start sampler, sampler size); type (16 bytes: u16 class, type, rows,
//! columns, elements, member count, u32 member offset; SM5 adds four
//! reserved u32 and a name offset); member (12 bytes: name, type offset,
//! offset); bound resource (32 bytes: name, input type, return type,
//! dimension, sample count, bind point, bind count, flags; SM 5.1 adds space
//! and id).

use crate::container::Part;
use crate::cursor::Cursor;

use crate::error::{ReadErrorKind, Result};
use crate::finding::{Finding, FindingKind, Rule};
use std::fmt;

/// Size of the RDEF header before the optional RD11 header.
pub const RDEF_HEADER_SIZE: u64 = RdefHeader::SIZE;
/// Size of the RD11 header.
pub const RD11_HEADER_SIZE: u64 = Rd11Header::SIZE;
/// Most type records decoded for one part (all variables' type trees together).
pub const MAX_TYPE_NODES: usize = 200_000;
/// Deepest struct nesting followed.
pub const MAX_TYPE_DEPTH: usize = 64;

pub use crate::stage::TargetType;

crate::enums::variable_class! { part,
    /// `D3D_SHADER_VARIABLE_CLASS`.
    pub enum VariableClass: u16
}

crate::enums::variable_type! { part,
    /// `D3D_SHADER_VARIABLE_TYPE`.
    pub enum VariableType: u16
}

crate::enums::shader_input_type! { part,
    /// `D3D_SHADER_INPUT_TYPE` of a bound resource.
    pub enum InputType: u32
}

crate::enums::resource_return_type! { part,
    /// `D3D_RESOURCE_RETURN_TYPE` (0 for resources without one).
    pub enum ReturnType: u32
}

crate::enums::srv_dimension! { part,
    /// `D3D_SRV_DIMENSION` of a bound resource.
    pub enum Dimension: u32
}

crate::enums::cbuffer_type! { part,
    /// `D3D_CBUFFER_TYPE`.
    pub enum CBufferType: u32
}

crate::enums::shader_input_flags! { part,
    /// `D3D_SHADER_INPUT_FLAGS`.
    pub struct InputFlags: u32
}

crate::enums::variable_flags! { part,
    /// `D3D_SHADER_VARIABLE_FLAGS`.
    pub struct VariableFlags: u32
}

crate::enums::cbuffer_flags! { part,
    /// `D3D_SHADER_CBUFFER_FLAGS`.
    pub struct CBufferFlags: u32
}

crate::enums::compile_flags! { part,
    /// `D3DCOMPILE_*` flags recorded in the header (optimization level 2 is both level bits).
    pub struct CompileFlags: u32
}

crate::record::record! {
    /// The SM5 RD11 header: record sizes.
    #[derive(Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    pub struct Rd11Header: "RD11 header" {
        /// `RD11` (SM 5.0) or its byte-reversed form (SM 5.1).
        #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::hex"))]
        0 magic: [u8; 4];
        /// Size of RDEF header + RD11 header (60).
        4 header_size: u32;
        /// Constant buffer record size (24).
        8 cbuffer_size: u32;
        /// Bound resource record size (32, or 40 with space and id).
        12 binding_size: u32;
        /// Variable record size (40).
        16 variable_size: u32;
        /// Type record size (36).
        20 type_size: u32;
        /// Member record size (12).
        24 member_size: u32;
        /// Interface slot count.
        28 interface_slots: u32;
    }
}

crate::record::record! {
    /// The RDEF header; an RD11 header follows from shader model 5.
    pub struct RdefHeader: "RDEF header" {
        /// Number of constant buffers.
        0 cb_count: u32;
        /// Offset of the constant buffer records.
        4 cb_offset: u32;
        /// Number of bound resources.
        8 binding_count: u32;
        /// Offset of the bound resource records.
        12 binding_offset: u32;
        /// Shader model minor.
        16 minor: u8;
        /// Shader model major.
        17 major: u8;
        /// Program type.
        18 target: TargetType;
        /// Compile flags.
        20 compile_flags: CompileFlags;
        /// Offset of the creator string.
        24 creator_offset: u32;
    }
}

crate::record::record! {
    /// A bound resource record: 32 bytes, 40 with space and ID (RD11
    /// binding size 40; the version here is 1).
    pub struct BoundResourceRecord: "RDEF bound resource" {
        /// Name (offset in the part).
        0 name: u32;
        /// Input type.
        4 input_type: InputType;
        /// Return type.
        8 return_type: ReturnType;
        /// Dimension.
        12 dimension: Dimension;
        /// Sample count.
        16 sample_count: u32;
        /// First bind point.
        20 bind_point: u32;
        /// Number of bind points.
        24 bind_count: u32;
        /// Flags.
        28 flags: InputFlags;
        /// Register space.
        32 space: u32, since 1;
        /// Resource ID.
        36 id: u32, since 1;
    }
}

crate::record::record! {
    /// A type record: 16 bytes in SM4; SM5 (RD11 type size 36, version 1
    /// here) adds four reserved words and the type's name.
    pub struct TypeRecord: "RDEF type" {
        /// Class (scalar, vector, matrix, struct, object, …).
        0 class: VariableClass;
        /// Base type.
        2 base_type: VariableType;
        /// Rows.
        4 rows: u16;
        /// Columns.
        6 columns: u16;
        /// Array elements (0 when not an array).
        8 elements: u16;
        /// Struct members.
        10 member_count: u16;
        /// Offset of the member records.
        12 members_offset: u32;
        /// Not read.
        16 reserved: crate::record::Reserved<16>, since 1;
        /// The type's name (offset in the part; 0 for none).
        32 name: u32 => "RDEF type name", since 1;
    }
}

crate::record::record! {
    /// A struct member record (RD11 member size 12).
    pub struct MemberRecord: "RDEF member" {
        /// Name (offset in the part).
        0 name: u32;
        /// Its type record (offset in the part).
        4 member_type: u32;
        /// Byte offset inside the struct.
        8 offset: u32;
    }
}

crate::record::record! {
    /// A variable record: 24 bytes in SM4; SM5 (RD11 variable size 40,
    /// version 1 here) adds the texture and sampler ranges.
    pub struct VariableRecord: "RDEF variable" {
        /// Name (offset in the part).
        0 name: u32;
        /// Byte offset in the constant buffer.
        4 start_offset: u32;
        /// Size in bytes.
        8 size: u32;
        /// Flags.
        12 flags: VariableFlags;
        /// Its type record (offset in the part).
        16 type_offset: u32;
        /// Its default value (offset in the part; 0 for none).
        20 default_offset: u32;
        /// First texture slot.
        24 start_texture: u32, since 1;
        /// Texture slots.
        28 texture_size: u32, since 1;
        /// First sampler slot.
        32 start_sampler: u32, since 1;
        /// Sampler slots.
        36 sampler_size: u32, since 1;
    }
}

crate::record::record! {
    /// A constant buffer record (RD11 constant buffer size 24).
    pub struct CBufferRecord: "RDEF constant buffer" {
        /// Name (offset in the part).
        0 name: u32;
        /// Number of variables.
        4 var_count: u32;
        /// Offset of the variable records.
        8 var_offset: u32;
        /// Size in bytes.
        12 size: u32;
        /// Flags.
        16 flags: CBufferFlags;
        /// Buffer type.
        20 kind: CBufferType;
    }
}

/// A variable's or member's type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ShaderType<'data> {
    /// Offset of the type record in the part (types are shared by offset).
    pub offset: u32,
    /// Class (scalar, vector, matrix, struct, …).
    pub class: VariableClass,
    /// Base type.
    pub base_type: VariableType,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (0 when not an array).
    pub elements: u16,
    /// Member count.
    pub member_count: u16,
    /// Type name (SM5 records only).
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::fields::ser::opt_text")
    )]
    pub name: Option<&'data [u8]>,
    /// Struct members.
    pub members: Vec<TypeMember<'data>>,
}

/// A struct member.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TypeMember<'data> {
    /// Member name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Byte offset in the struct.
    pub offset: u32,
    /// Member type.
    pub member_type: ShaderType<'data>,
}

/// A constant-buffer variable.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Variable<'data> {
    /// Name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Offset in the buffer.
    pub start_offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_VARIABLE_FLAGS`.
    pub flags: VariableFlags,
    /// Type.
    pub var_type: ShaderType<'data>,
    /// Default value bytes.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::fields::ser::opt_hex")
    )]
    pub default_value: Option<&'data [u8]>,
    /// SM5: first texture slot (0xFFFFFFFF when none).
    pub start_texture: Option<u32>,
    /// SM5: texture slots used.
    pub texture_size: Option<u32>,
    /// SM5: first sampler slot (0xFFFFFFFF when none).
    pub start_sampler: Option<u32>,
    /// SM5: sampler slots used.
    pub sampler_size: Option<u32>,
}

/// A constant buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ConstantBuffer<'data> {
    /// Name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Kind (cbuffer, tbuffer, …).
    pub kind: CBufferType,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_CBUFFER_FLAGS`.
    pub flags: CBufferFlags,
    /// Variables.
    pub variables: Vec<Variable<'data>>,
}

/// A bound resource.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ResourceBinding<'data> {
    /// Name.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Input type.
    pub input_type: InputType,
    /// Return type.
    pub return_type: ReturnType,
    /// Dimension.
    pub dimension: Dimension,
    /// Sample count (0xFFFFFFFF when not multisampled).
    pub sample_count: u32,
    /// First register.
    pub bind_point: u32,
    /// Registers used.
    pub bind_count: u32,
    /// `D3D_SHADER_INPUT_FLAGS`.
    pub flags: InputFlags,
    /// SM 5.1: register space.
    pub space: Option<u32>,
    /// SM 5.1: resource id.
    pub id: Option<u32>,
}

/// A decoded RDEF part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ResourceDefinitions<'data> {
    /// Target shader model major.
    pub major: u8,
    /// Target shader model minor.
    pub minor: u8,
    /// Target program type.
    pub target: TargetType,
    /// `D3DCOMPILE_*` flags.
    pub compile_flags: CompileFlags,
    /// Creator string (e.g. "Microsoft (R) HLSL Shader Compiler 10.1").
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub creator: &'data [u8],
    /// SM5 record-size header.
    pub rd11: Option<Rd11Header>,
    /// Constant buffers.
    pub constant_buffers: Vec<ConstantBuffer<'data>>,
    /// Bound resources.
    pub resources: Vec<ResourceBinding<'data>>,
    /// Unusual record sizes, default values out of range.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

/// Record sizes in effect.
#[derive(Clone, Copy)]
struct Sizes {
    cbuffer: u64,
    binding: u64,
    variable: u64,
    type_record: u64,
    member: u64,
}

struct Reader<'data> {
    c: Cursor<'data>,
    sizes: Sizes,
    type_nodes: usize,
    issues: Vec<Finding>,
}

impl<'data> Reader<'data> {
    fn string(&self, offset: u32, what: &'static str) -> Result<&'data [u8]> {
        self.c.cstr(u64::from(offset), self.c.len(), what)
    }

    fn shader_type(&mut self, offset: u32, depth: usize) -> Result<ShaderType<'data>> {
        if depth > MAX_TYPE_DEPTH {
            return Err(self.c.error(
                u64::from(offset),
                ReadErrorKind::limit_exceeded(RdefError::TypeDepth {
                    limit: MAX_TYPE_DEPTH as u64,
                }),
            ));
        }
        self.type_nodes += 1;
        if self.type_nodes > MAX_TYPE_NODES {
            return Err(self.c.error(
                u64::from(offset),
                ReadErrorKind::limit_exceeded(RdefError::TypeRecords {
                    limit: MAX_TYPE_NODES as u64,
                }),
            ));
        }
        let rec = self
            .c
            .sub(u64::from(offset), self.sizes.type_record, "RDEF type")?;
        let version = u8::from(self.sizes.type_record >= TypeRecord::SIZE);
        let record = TypeRecord::read_version(&rec, 0, version)?;
        let name = match record.name {
            None | Some(0) => None,
            Some(n) => Some(self.string(n, "RDEF type name")?),
        };
        let mut members = Vec::new();
        for i in 0..u64::from(record.member_count) {
            let at = u64::from(record.members_offset) + i * self.sizes.member;
            let m = self.c.sub(at, self.sizes.member, "RDEF struct member")?;
            let member = MemberRecord::read(&m, 0)?;
            let member_name = self.string(member.name, "RDEF member name")?;
            let member_type = self.shader_type(member.member_type, depth + 1)?;
            members.push(TypeMember {
                name: member_name,
                offset: member.offset,
                member_type,
            });
        }
        Ok(ShaderType {
            offset,
            class: record.class,
            base_type: record.base_type,
            rows: record.rows,
            columns: record.columns,
            elements: record.elements,
            member_count: record.member_count,
            name,
            members,
        })
    }

    fn variable(&mut self, at: u64) -> Result<Variable<'data>> {
        let v = self.c.sub(at, self.sizes.variable, "RDEF variable")?;
        let version = u8::from(self.sizes.variable >= VariableRecord::SIZE);
        let record = VariableRecord::read_version(&v, 0, version)?;
        let name = self.string(record.name, "RDEF variable name")?;
        let size = record.size;
        let default_value = match record.default_offset {
            0 => None,
            off => match self
                .c
                .bytes(u64::from(off), u64::from(size), "RDEF default value")
            {
                Ok(b) => Some(b),
                Err(_) => {
                    // The finding points at the record's default-value offset.
                    let field = VariableRecord::size_for(0) - 4;
                    self.issues.push(Finding::at(
                        v.abs(field),
                        RdefRule::DefaultValuePastPart {
                            name: String::from_utf8_lossy(name).into_owned(),
                            size,
                            offset: off,
                        },
                    ));
                    None
                }
            },
        };
        let var_type = self.shader_type(record.type_offset, 0)?;
        Ok(Variable {
            name,
            start_offset: record.start_offset,
            size,
            flags: record.flags,
            var_type,
            default_value,
            start_texture: record.start_texture,
            texture_size: record.texture_size,
            start_sampler: record.start_sampler,
            sampler_size: record.sampler_size,
        })
    }

    fn constant_buffer(&mut self, at: u64) -> Result<ConstantBuffer<'data>> {
        let b = self.c.sub(at, self.sizes.cbuffer, "RDEF constant buffer")?;
        let record = CBufferRecord::read(&b, 0)?;
        let name = self.string(record.name, "RDEF constant buffer name")?;
        let mut variables = Vec::new();
        for i in 0..u64::from(record.var_count) {
            variables.push(self.variable(u64::from(record.var_offset) + i * self.sizes.variable)?);
        }
        Ok(ConstantBuffer {
            name,
            kind: record.kind,
            size: record.size,
            flags: record.flags,
            variables,
        })
    }

    fn binding(&self, at: u64) -> Result<ResourceBinding<'data>> {
        let r = self.c.sub(at, self.sizes.binding, "RDEF bound resource")?;
        let extended = self.sizes.binding >= BoundResourceRecord::SIZE;
        let record = BoundResourceRecord::read_version(&r, 0, u8::from(extended))?;
        Ok(ResourceBinding {
            name: self.string(record.name, "RDEF resource name")?,
            input_type: record.input_type,
            return_type: record.return_type,
            dimension: record.dimension,
            sample_count: record.sample_count,
            bind_point: record.bind_point,
            bind_count: record.bind_count,
            flags: record.flags,
            space: record.space,
            id: record.id,
        })
    }
}

impl<'data> ResourceDefinitions<'data> {
    /// Decodes RDEF data located at absolute offset `base`.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<ResourceDefinitions<'data>> {
        let c = Cursor::new(data, base);
        let RdefHeader {
            cb_count,
            cb_offset,
            binding_count,
            binding_offset,
            minor,
            major,
            target,
            compile_flags,
            creator_offset,
        } = RdefHeader::read(&c, 0)?;
        let mut issues = Vec::new();
        let mut sizes = Sizes {
            cbuffer: 24,
            binding: 32,
            variable: 24,
            type_record: 16,
            member: 12,
        };
        let rd11 = if major >= 5 {
            let r = c.sub(RDEF_HEADER_SIZE, RD11_HEADER_SIZE, "RD11 header")?;
            let h = Rd11Header::read(&r, 0)?;
            if &h.magic != b"RD11" && h.magic != [0x13, 0x13, 0x44, 0x25] {
                issues.push(Finding::at(
                    r.abs(0),
                    RdefRule::Rd11Magic { magic: h.magic },
                ));
            }
            let checks: [(Rd11Record, u32, u64, u64); 5] = [
                (Rd11Record::ConstantBuffer, h.cbuffer_size, 24, 8),
                (Rd11Record::BoundResource, h.binding_size, 32, 12),
                (Rd11Record::Variable, h.variable_size, 24, 16),
                (Rd11Record::Type, h.type_size, 16, 20),
                (Rd11Record::Member, h.member_size, 12, 24),
            ];
            for (what, size, minimum, at) in checks {
                if u64::from(size) < minimum {
                    return Err(r.error(
                        at,
                        ReadErrorKind::too_small(RdefError::Rd11RecordSize {
                            record: what,
                            size,
                            minimum,
                        }),
                    ));
                }
            }
            if h.header_size != 60 {
                issues.push(Finding::at(
                    r.abs(4),
                    FindingKind::NotFixedValue {
                        field: "RD11 header size",
                        value: h.header_size,
                        expected: 60,
                    },
                ));
            }
            sizes = Sizes {
                cbuffer: u64::from(h.cbuffer_size),
                binding: u64::from(h.binding_size),
                variable: u64::from(h.variable_size),
                type_record: u64::from(h.type_size),
                member: u64::from(h.member_size),
            };
            Some(h)
        } else {
            None
        };
        let mut reader = Reader {
            c,
            sizes,
            type_nodes: 0,
            issues,
        };
        let creator = reader.string(creator_offset, "RDEF creator")?;
        let mut constant_buffers = Vec::new();
        for i in 0..u64::from(cb_count) {
            constant_buffers
                .push(reader.constant_buffer(u64::from(cb_offset) + i * sizes.cbuffer)?);
        }
        let mut resources = Vec::new();
        for i in 0..u64::from(binding_count) {
            resources.push(reader.binding(u64::from(binding_offset) + i * sizes.binding)?);
        }
        Ok(ResourceDefinitions {
            major,
            minor,
            target,
            compile_flags,
            creator,
            rd11,
            constant_buffers,
            resources,
            issues: reader.issues,
        })
    }

    /// Decodes an RDEF part.
    pub fn parse(part: &Part<'data>) -> Result<ResourceDefinitions<'data>> {
        ResourceDefinitions::parse_data(part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// `ps_5_0`-style target profile.
    pub fn profile(&self) -> String {
        format!(
            "{}_{}_{}",
            self.target.profile_prefix(),
            self.major,
            self.minor
        )
    }
}

/// Test helpers: a tiny RDEF writer.
#[cfg(test)]
pub(crate) mod build {
    use super::*;

    /// Appends u32s.
    pub fn words(out: &mut Vec<u8>, values: &[u32]) {
        for v in values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// An RDEF with one cbuffer "CB" holding `float4 color` and a struct
    /// `S { float a; }` variable, plus one texture binding. `sm5` selects the
    /// RD11 layout (with `binding_size` 32 or 40).
    pub fn sample(sm5: bool, binding_size: u32) -> Vec<u8> {
        let header_end: u32 = if sm5 { 60 } else { 28 };
        let (var_size, type_size) = if sm5 { (40u32, 36u32) } else { (24, 16) };
        // Layout: header, cbuffer, 2 variables, 3 types, 1 member, binding, strings.
        let cb_at = header_end;
        let vars_at = cb_at + 24;
        let float4_at = vars_at + 2 * var_size;
        let struct_at = float4_at + type_size;
        let float_at = struct_at + type_size;
        let member_at = float_at + type_size;
        let binding_at = member_at + 12;
        let strings_at = binding_at + binding_size;
        let mut strings = Vec::new();
        let mut s = |text: &str| {
            let at = strings_at + strings.len() as u32;
            strings.extend_from_slice(text.as_bytes());
            strings.push(0);
            at
        };
        let creator = s("test compiler");
        let cb_name = s("CB");
        let color = s("color");
        let sv = s("sv");
        let a = s("a");
        let tex = s("tex");
        let float4_name = s("float4");
        let default_at = strings_at + strings.len() as u32;
        strings.extend_from_slice(&[0u8; 16]);
        let mut out = Vec::new();
        let target: u32 = if sm5 { 0xffff_0500 } else { 0xfffe_0400 };
        words(
            &mut out,
            &[1, cb_at, 1, binding_at, target, 0xc001, creator],
        );
        if sm5 {
            out.extend_from_slice(b"RD11");
            words(&mut out, &[60, 24, binding_size, 40, 36, 12, 0]);
        }
        let version = u8::from(sm5);
        CBufferRecord {
            name: cb_name,
            var_count: 2,
            var_offset: vars_at,
            size: 32,
            flags: CBufferFlags(0),
            kind: CBufferType::from_raw(0),
        }
        .write_to(&mut out);
        let var = |out: &mut Vec<u8>, name: u32, off: u32, size: u32, ty: u32, default: u32| {
            let sm5_field = |v: u32| sm5.then_some(v);
            VariableRecord {
                name,
                start_offset: off,
                size,
                flags: VariableFlags(2),
                type_offset: ty,
                default_offset: default,
                start_texture: sm5_field(u32::MAX),
                texture_size: sm5_field(0),
                start_sampler: sm5_field(u32::MAX),
                sampler_size: sm5_field(0),
            }
            .write_to(out);
        };
        var(&mut out, color, 0, 16, float4_at, default_at);
        var(&mut out, sv, 16, 4, struct_at, 0);
        let ty = |out: &mut Vec<u8>, class: u16, base: u16, cols: u16, members: u16, name: u32| {
            TypeRecord {
                class: VariableClass::from_raw(class),
                base_type: VariableType::from_raw(base),
                rows: 1,
                columns: cols,
                elements: 0,
                member_count: members,
                members_offset: if members > 0 { member_at } else { 0 },
                reserved: (version > 0).then_some(crate::record::Reserved),
                name: (version > 0).then_some(name),
            }
            .write_to(out);
        };
        ty(&mut out, 1, 3, 4, 0, float4_name);
        ty(&mut out, 5, 0, 1, 1, 0);
        ty(&mut out, 0, 3, 1, 0, 0);
        MemberRecord {
            name: a,
            member_type: float_at,
            offset: 0,
        }
        .write_to(&mut out);
        let extended = binding_size >= 40;
        BoundResourceRecord {
            name: tex,
            input_type: InputType::from_raw(2),
            return_type: ReturnType::from_raw(5),
            dimension: Dimension::from_raw(4),
            sample_count: u32::MAX,
            bind_point: 3,
            bind_count: 1,
            flags: InputFlags(0xc),
            space: extended.then_some(2),
            id: extended.then_some(7),
        }
        .write_to(&mut out);
        out.extend_from_slice(&strings);
        out
    }
}

/// The rules the RDEF decoder checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RdefRule {
    /// A variable's default value runs past the part.
    DefaultValuePastPart {
        /// The variable.
        name: String,
        /// Size of the value.
        size: u32,
        /// Its offset in the part.
        offset: u32,
    },
    /// The RD11 header's magic is not 'RD11'.
    Rd11Magic {
        /// The magic.
        magic: [u8; 4],
    },
}

impl fmt::Display for RdefRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RdefRule::*;
        match self {
            DefaultValuePastPart { name, size, offset } => write!(
                f,
                "default value of '{name}' ({size} bytes at {offset:#x}) runs past the part"
            ),
            Rd11Magic { magic } => {
                write!(f, "RD11 magic is '{}'", crate::name::escape_bytes(magic))
            }
        }
    }
}

impl Rule for RdefRule {}

/// The RDEF decoder's errors, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RdefError {
    /// An RD11 record size below the record this reader knows.
    Rd11RecordSize {
        /// The record.
        record: Rd11Record,
        /// The size the RD11 header gives.
        size: u32,
        /// The record's size.
        minimum: u64,
    },
    /// Type records nest deeper than [`MAX_TYPE_DEPTH`].
    TypeDepth {
        /// The limit.
        limit: u64,
    },
    /// More type records than [`MAX_TYPE_NODES`] in one part.
    TypeRecords {
        /// The limit.
        limit: u64,
    },
}

/// The RD11 record of an [`RdefError::Rd11RecordSize`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rd11Record {
    /// A constant buffer.
    ConstantBuffer,
    /// A bound resource.
    BoundResource,
    /// A constant buffer variable.
    Variable,
    /// A type.
    Type,
    /// A struct member.
    Member,
}

impl Rd11Record {
    /// The record's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Rd11Record::ConstantBuffer => "constant buffer",
            Rd11Record::BoundResource => "bound resource",
            Rd11Record::Variable => "variable",
            Rd11Record::Type => "type",
            Rd11Record::Member => "member",
        }
    }
}

impl fmt::Display for RdefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RdefError::Rd11RecordSize {
                record,
                size,
                minimum,
            } => write!(
                f,
                "RD11 {} record size {size} is below the minimum {minimum}",
                record.name()
            ),
            RdefError::TypeDepth { limit } => write!(f, "type nesting is deeper than {limit}"),
            RdefError::TypeRecords { limit } => write!(f, "more than {limit} type records"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::build::{sample, words};
    use super::*;
    use crate::error::ReadErrorKind;

    #[test]
    fn each_error_says_its_sentence() {
        use RdefError::*;
        crate::testutil::errors_say(vec![
            (
                Rd11RecordSize {
                    record: Rd11Record::Variable,
                    size: 4,
                    minimum: 24,
                },
                "RD11 variable record size 4 is below the minimum 24",
            ),
            (TypeDepth { limit: 64 }, "type nesting is deeper than 64"),
            (TypeRecords { limit: 4096 }, "more than 4096 type records"),
        ]);
    }

    #[test]
    fn each_rule_has_its_sentence() {
        use RdefRule::*;
        crate::testutil::rules_say(vec![
            (
                DefaultValuePastPart {
                    name: "g".into(),
                    size: 16,
                    offset: 0xfff0,
                },
                "default value of 'g' (16 bytes at 0xfff0) runs past the part",
            ),
            (Rd11Magic { magic: *b"RD\x001" }, "RD11 magic is 'RD\\x001'"),
        ]);
    }

    #[test]
    fn decodes_sm4_and_sm5() {
        for (sm5, binding_size) in [(false, 32), (true, 32), (true, 40)] {
            let data = sample(sm5, binding_size);
            let r = ResourceDefinitions::parse_data(&data, 0).unwrap();
            assert!(r.issues.is_empty(), "{:?}", r.issues);
            assert_eq!(r.creator, b"test compiler");
            assert_eq!(r.profile(), if sm5 { "ps_5_0" } else { "vs_4_0" });
            assert_eq!(r.rd11.is_some(), sm5);
            assert_eq!(r.compile_flags.names(), vec!["Debug", "OptimizationLevel2"]);
            let cb = &r.constant_buffers[0];
            assert_eq!(
                (cb.name, cb.size, cb.kind.to_string().as_str()),
                (&b"CB"[..], 32, "cbuffer")
            );
            let color = &cb.variables[0];
            assert_eq!(color.var_type.class.to_string(), "Vector");
            assert_eq!(color.var_type.base_type.to_string(), "float");
            assert_eq!(color.var_type.columns, 4);
            assert_eq!(color.default_value.map(|d| d.len()), Some(16));
            assert_eq!(color.flags.names(), vec!["Used"]);
            assert_eq!(
                color.var_type.name,
                if sm5 { Some(&b"float4"[..]) } else { None }
            );
            assert_eq!(color.start_texture, if sm5 { Some(u32::MAX) } else { None });
            let sv = &cb.variables[1];
            assert_eq!(sv.var_type.class.to_string(), "Struct");
            assert_eq!(sv.var_type.members[0].name, b"a");
            assert_eq!(
                sv.var_type.members[0].member_type.class.to_string(),
                "Scalar"
            );
            let tex = &r.resources[0];
            assert_eq!(tex.name, b"tex");
            assert_eq!(tex.input_type.to_string(), "texture");
            assert_eq!(tex.return_type.to_string(), "float");
            assert_eq!(tex.dimension.to_string(), "2d");
            assert_eq!((tex.bind_point, tex.bind_count), (3, 1));
            assert_eq!(
                tex.flags.names(),
                vec!["TextureComponent0", "TextureComponent1"]
            );
            assert_eq!(tex.space, if binding_size == 40 { Some(2) } else { None });
        }
    }

    #[test]
    fn issues_and_errors() {
        // Default value out of range → issue.
        let mut data = sample(false, 32);
        let var0 = 28 + 24;
        data[var0 + 20..var0 + 24].copy_from_slice(&0xfff0u32.to_le_bytes());
        let r = ResourceDefinitions::parse_data(&data, 0).unwrap();
        assert!(
            matches!(
                r.issues[0].kind.rule(),
                Some(RdefRule::DefaultValuePastPart { offset: 0xfff0, .. })
            ),
            "{:?}",
            r.issues
        );
        assert_eq!(r.issues[0].offset, Some(var0 as u64 + 20));
        assert!(r.constant_buffers[0].variables[0].default_value.is_none());

        // Bad RD11 magic / header size → issues; tiny record size → error.
        let mut data = sample(true, 32);
        data[28] = b'X';
        data[32] = 61;
        let r = ResourceDefinitions::parse_data(&data, 0).unwrap();
        assert_eq!(r.issues.len(), 2, "{:?}", r.issues);
        data[44] = 4;
        assert_eq!(
            ResourceDefinitions::parse_data(&data, 0).unwrap_err().kind,
            ReadErrorKind::too_small(RdefError::Rd11RecordSize {
                record: Rd11Record::Variable,
                size: 4,
                minimum: 24
            })
        );

        // Creator string without NUL, counts past the end, truncated header.
        let mut data = Vec::new();
        words(&mut data, &[0, 0, 0, 0, 0xffff_0400, 0, 28]);
        data.extend_from_slice(b"abc");
        assert!(ResourceDefinitions::parse_data(&data, 0).is_err());
        data.push(0);
        let r = ResourceDefinitions::parse_data(&data, 0).unwrap();
        assert_eq!(r.creator, b"abc");
        data[0] = 200; // 200 cbuffers at offset 28: the table runs past the part
        data[4] = 28;
        assert!(matches!(
            ResourceDefinitions::parse_data(&data, 0).unwrap_err().kind,
            ReadErrorKind::Truncated { .. }
        ));
        assert!(ResourceDefinitions::parse_data(&data[..20], 0).is_err());
    }

    #[test]
    fn cyclic_types_stop() {
        // A struct type whose only member has the struct's own type.
        let mut data = Vec::new();
        // header: 1 cbuffer at 28, 0 bindings, vs_4_0, creator at 112
        words(&mut data, &[1, 28, 0, 0, 0xfffe_0400, 0, 112]);
        words(&mut data, &[112, 1, 52, 16, 0, 0]); // cbuffer at 28
        words(&mut data, &[112, 0, 16, 0, 76, 0]); // variable at 52 → type 76
        for v in [5u16, 0, 1, 1, 0, 1] {
            data.extend_from_slice(&v.to_le_bytes()); // type at 76
        }
        words(&mut data, &[92]);
        words(&mut data, &[112, 76, 0]); // member at 92 → type 76 again
        data.resize(112, 0);
        data.extend_from_slice(b"x\0");
        let e = ResourceDefinitions::parse_data(&data, 0).unwrap_err();
        assert!(
            matches!(
                e.kind.detail(),
                Some(RdefError::TypeDepth { limit }) if *limit == MAX_TYPE_DEPTH as u64
            ) && matches!(e.kind, ReadErrorKind::LimitExceeded { .. }),
            "{e}"
        );
    }
}
