//! Shader reflection read from the container: what `ID3D12ShaderReflection`
//! (and, for `lib_6_x`, `ID3D12LibraryReflection` /
//! `ID3D12FunctionReflection`) reports, without Windows or dxc
//! (docs/reflection.md).
//!
//! [`Reflection::from_container`] reads the parts that hold the facts:
//!
//! - DXBC (fxc): RDEF (constant buffers, their variables and types, bound
//!   resources, creator and compile flags), STAT (instruction counts and the
//!   GS/HS/DS fields), the signatures (ISGN/OSGN/PCSG, OSG5, ISG1/OSG1/PSG1),
//!   the SHDR/SHEX declarations (thread-group size; the GS/HS/DS fields when
//!   there is no STAT) and SFI0 (requires flags).
//! - DXIL (dxc): the module's `dx.*` metadata (named bindings, constant
//!   buffers with their `dx.typeAnnotations` layouts, entry-point
//!   properties, `llvm.ident`) from the STAT, DXIL or ILDB module, else PSV0
//!   (bindings, stage fields, thread-group size) and RDAT (library functions
//!   and their resources, with names); the signatures and SFI0.
//!
//! Every section says which part it came from ([`Sources`]); what no part
//! records stays `None` and [`Reflection::notes`] names what is missing —
//! values are never invented.

mod body;
mod cbuffers;
pub mod counters;
pub mod d3d;
mod dxbc;
mod dxil;
mod module;
pub mod text;
mod usage;

use crate::container::Container;
use crate::error::ReadError;
pub use d3d::*;

/// Facts of one reflected container.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Reflection {
    /// `DXBC` (an fxc program) or `DXIL` (a dxc program); `none` without a program part.
    pub format: &'static str,
    /// `ID3D12ShaderReflection` or `ID3D12LibraryReflection` (libraries).
    pub interface: &'static str,
    /// Which part each section was read from.
    pub source: Sources,
    /// `D3D12_SHADER_DESC` and the `ID3D12ShaderReflection` getters
    /// (`None` for a library).
    pub shader: Option<ShaderDesc>,
    /// `GetInputParameterDesc`.
    pub input_parameters: Vec<SignatureParameter>,
    /// `GetOutputParameterDesc`.
    pub output_parameters: Vec<SignatureParameter>,
    /// `GetPatchConstantParameterDesc`.
    pub patch_constant_parameters: Vec<SignatureParameter>,
    /// `GetConstantBufferByIndex`.
    pub constant_buffers: Vec<BufferDesc>,
    /// `GetResourceBindingDesc`.
    pub bound_resources: Vec<BindDesc>,
    /// `D3D12_LIBRARY_DESC` (libraries only).
    pub library: Option<LibraryDesc>,
    /// `ID3D12FunctionReflection` of each library function.
    pub functions: Vec<FunctionDesc>,
    /// What the container does not record (and so is left out or `null`).
    pub notes: Vec<String>,
}

/// The parts each section was read from (empty: nothing records it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Sources {
    /// The shader description (version, creator, counts).
    pub shader: Vec<&'static str>,
    /// Instruction counts.
    pub statistics: Vec<&'static str>,
    /// GS/HS/DS fields and the thread-group size.
    pub stage: Vec<&'static str>,
    /// Input, output and patch-constant parameters.
    pub signatures: Vec<&'static str>,
    /// Bound resources.
    pub resources: Vec<&'static str>,
    /// Constant buffers.
    pub constant_buffers: Vec<&'static str>,
    /// Requires flags.
    pub requires_flags: Vec<&'static str>,
    /// Library functions.
    pub functions: Vec<&'static str>,
}

/// `D3D12_SHADER_DESC.Version`: program type and shader model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ShaderVersion {
    /// `D3D12_SHADER_VERSION_TYPE`.
    pub kind: ShaderVersionType,
    /// Shader model major.
    pub major: u32,
    /// Shader model minor.
    pub minor: u32,
}

impl ShaderVersion {
    /// The packed `Version` value (`type << 16 | major << 4 | minor`).
    pub fn packed(self) -> u32 {
        (self.kind.raw() << 16) | ((self.major & 0xf) << 4) | (self.minor & 0xf)
    }
}

/// `D3D12_SHADER_DESC` plus the other `ID3D12ShaderReflection` getters. A
/// count that no part records is `None`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ShaderDesc {
    /// `Version`.
    pub version: ShaderVersion,
    /// `Creator`.
    pub creator: Option<String>,
    /// `Flags` (the `D3DCOMPILE_*` flags).
    pub flags: Option<CompileFlags>,
    /// `ConstantBuffers` (`None` when the layouts are not recorded).
    pub constant_buffers: Option<u32>,
    /// `BoundResources`.
    pub bound_resources: u32,
    /// `InputParameters`.
    pub input_parameters: u32,
    /// `OutputParameters`.
    pub output_parameters: u32,
    /// `InstructionCount`.
    pub instruction_count: Option<u32>,
    /// `TempRegisterCount`.
    pub temp_register_count: Option<u32>,
    /// `DefCount`.
    pub def_count: Option<u32>,
    /// `DclCount`.
    pub dcl_count: Option<u32>,
    /// `TextureNormalInstructions`.
    pub texture_normal_instructions: Option<u32>,
    /// `TextureLoadInstructions`.
    pub texture_load_instructions: Option<u32>,
    /// `TextureCompInstructions`.
    pub texture_comp_instructions: Option<u32>,
    /// `TextureBiasInstructions`.
    pub texture_bias_instructions: Option<u32>,
    /// `TextureGradientInstructions`.
    pub texture_gradient_instructions: Option<u32>,
    /// `FloatInstructionCount`.
    pub float_instruction_count: Option<u32>,
    /// `IntInstructionCount`.
    pub int_instruction_count: Option<u32>,
    /// `UintInstructionCount`.
    pub uint_instruction_count: Option<u32>,
    /// `StaticFlowControlCount`.
    pub static_flow_control_count: Option<u32>,
    /// `DynamicFlowControlCount`.
    pub dynamic_flow_control_count: Option<u32>,
    /// `MacroInstructionCount`.
    pub macro_instruction_count: Option<u32>,
    /// `ArrayInstructionCount`.
    pub array_instruction_count: Option<u32>,
    /// `CutInstructionCount`.
    pub cut_instruction_count: Option<u32>,
    /// `EmitInstructionCount`.
    pub emit_instruction_count: Option<u32>,
    /// `TempArrayCount`.
    pub temp_array_count: Option<u32>,
    /// `GSOutputTopology`.
    pub gs_output_topology: Option<PrimitiveTopology>,
    /// `GSMaxOutputVertexCount`.
    pub gs_max_output_vertex_count: Option<u32>,
    /// `InputPrimitive`.
    pub input_primitive: Option<Primitive>,
    /// `PatchConstantParameters`.
    pub patch_constant_parameters: u32,
    /// `cGSInstanceCount`.
    pub gs_instance_count: Option<u32>,
    /// `cControlPoints`.
    pub control_points: Option<u32>,
    /// `HSOutputPrimitive`.
    pub hs_output_primitive: Option<TessellatorOutputPrimitive>,
    /// `HSPartitioning`.
    pub hs_partitioning: Option<TessellatorPartitioning>,
    /// `TessellatorDomain`.
    pub tessellator_domain: Option<TessellatorDomain>,
    /// `cBarrierInstructions`.
    pub barrier_instructions: Option<u32>,
    /// `cInterlockedInstructions`.
    pub interlocked_instructions: Option<u32>,
    /// `cTextureStoreInstructions`.
    pub texture_store_instructions: Option<u32>,
    /// `GetMovInstructionCount`.
    pub mov_instruction_count: Option<u32>,
    /// `GetMovcInstructionCount`.
    pub movc_instruction_count: Option<u32>,
    /// `GetConversionInstructionCount`.
    pub conversion_instruction_count: Option<u32>,
    /// `GetBitwiseInstructionCount`.
    pub bitwise_instruction_count: Option<u32>,
    /// `IsSampleFrequencyShader`.
    pub is_sample_frequency_shader: Option<bool>,
    /// `GetNumInterfaceSlots`.
    pub num_interface_slots: Option<u32>,
    /// `GetThreadGroupSize` (`None` for stages without one, or when unknown).
    pub thread_group_size: Option<[u32; 3]>,
    /// The bytes of group-shared memory the shader uses: PSV0 version 4's
    /// `NumBytesGroupSharedMemory` (dxc 1.9.2602 and later; `None` before).
    pub group_shared_bytes: Option<u32>,
    /// `GetMinFeatureLevel`.
    pub min_feature_level: Option<FeatureLevel>,
    /// `GetRequiresFlags`.
    pub requires_flags: Option<RequiresFlags>,
}

impl ShaderDesc {
    /// A description with the version and every other field unknown or zero.
    fn new(version: ShaderVersion) -> ShaderDesc {
        ShaderDesc {
            version,
            creator: None,
            flags: None,
            constant_buffers: None,
            bound_resources: 0,
            input_parameters: 0,
            output_parameters: 0,
            instruction_count: None,
            temp_register_count: None,
            def_count: None,
            dcl_count: None,
            texture_normal_instructions: None,
            texture_load_instructions: None,
            texture_comp_instructions: None,
            texture_bias_instructions: None,
            texture_gradient_instructions: None,
            float_instruction_count: None,
            int_instruction_count: None,
            uint_instruction_count: None,
            static_flow_control_count: None,
            dynamic_flow_control_count: None,
            macro_instruction_count: None,
            array_instruction_count: None,
            cut_instruction_count: None,
            emit_instruction_count: None,
            temp_array_count: None,
            gs_output_topology: None,
            gs_max_output_vertex_count: None,
            input_primitive: None,
            patch_constant_parameters: 0,
            gs_instance_count: None,
            control_points: None,
            hs_output_primitive: None,
            hs_partitioning: None,
            tessellator_domain: None,
            barrier_instructions: None,
            interlocked_instructions: None,
            texture_store_instructions: None,
            mov_instruction_count: None,
            movc_instruction_count: None,
            conversion_instruction_count: None,
            bitwise_instruction_count: None,
            is_sample_frequency_shader: None,
            num_interface_slots: None,
            thread_group_size: None,
            group_shared_bytes: None,
            min_feature_level: None,
            requires_flags: None,
        }
    }
}

/// `D3D12_SIGNATURE_PARAMETER_DESC`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SignatureParameter {
    /// `SemanticName`.
    pub semantic_name: String,
    /// `SemanticIndex`.
    pub semantic_index: u32,
    /// `Register` (`0xFFFFFFFF` for parameters without one, e.g. `SV_Depth`).
    pub register: u32,
    /// `SystemValueType`.
    pub system_value_type: Name,
    /// `ComponentType`.
    pub component_type: RegisterComponentType,
    /// `Mask`.
    pub mask: u8,
    /// `ReadWriteMask` (outputs: the components never written; inputs: always read).
    pub read_write_mask: u8,
    /// `Stream`.
    pub stream: u32,
    /// `MinPrecision`.
    pub min_precision: MinPrecision,
}

/// `D3D12_SHADER_INPUT_BIND_DESC`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BindDesc {
    /// `Name` (`None` when the container does not record it).
    pub name: Option<String>,
    /// `Type`.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub input_type: ShaderInputType,
    /// `BindPoint`.
    pub bind_point: u32,
    /// `BindCount` (0 for an unbounded range).
    pub bind_count: u32,
    /// `uFlags` (`None` when not recorded).
    pub flags: Option<InputFlags>,
    /// `ReturnType` (`None` when not recorded).
    pub return_type: Option<ResourceReturnType>,
    /// `Dimension` (`None` when not recorded).
    pub dimension: Option<SrvDimension>,
    /// `NumSamples` (the stride of structured buffers in DXIL; `None` when not recorded).
    pub num_samples: Option<u32>,
    /// `Space`.
    pub space: u32,
    /// `uID`.
    pub id: u32,
}

/// `D3D12_SHADER_BUFFER_DESC` with its variables.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BufferDesc {
    /// `Name`.
    pub name: String,
    /// `Type`.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub buffer_type: CbufferType,
    /// `Size`.
    pub size: u32,
    /// `uFlags`.
    pub flags: CbufferFlags,
    /// The variables (`Variables` is their number).
    pub variables: Vec<VariableDesc>,
}

/// `D3D12_SHADER_VARIABLE_DESC` with its type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VariableDesc {
    /// `Name`.
    pub name: String,
    /// `StartOffset`.
    pub start_offset: u32,
    /// `Size`.
    pub size: u32,
    /// `uFlags`.
    pub flags: VariableFlags,
    /// Whether `D3D_SVF_USED` is set.
    pub used: bool,
    /// `DefaultValue` bytes as lower-case hex (`None`: no default value).
    pub default_value: Option<String>,
    /// `StartTexture` (`0xFFFFFFFF` when none; `None` before SM5).
    pub start_texture: Option<u32>,
    /// `TextureSize`.
    pub texture_size: Option<u32>,
    /// `StartSampler`.
    pub start_sampler: Option<u32>,
    /// `SamplerSize`.
    pub sampler_size: Option<u32>,
    /// `GetType()`.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub var_type: TypeDesc,
}

/// `D3D12_SHADER_TYPE_DESC` with its members.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TypeDesc {
    /// `Name` (`None`: not recorded, as in RDEF before SM5).
    pub name: Option<String>,
    /// `Class`.
    pub class: VariableClass,
    /// `Type`.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub base_type: VariableType,
    /// `Rows`.
    pub rows: u32,
    /// `Columns`.
    pub columns: u32,
    /// `Elements`.
    pub elements: u32,
    /// `Offset` (a member's offset in its struct; 0 for a variable's type).
    pub offset: u32,
    /// The members (`Members` is their number), each with its name.
    pub members: Vec<MemberDesc>,
}

/// A struct member: `GetMemberTypeName(i)` and `GetMemberTypeByIndex(i)`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MemberDesc {
    /// The member's name.
    pub name: String,
    /// The member's type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub member_type: TypeDesc,
}

/// `D3D12_LIBRARY_DESC`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LibraryDesc {
    /// `Creator`.
    pub creator: Option<String>,
    /// `Flags` (dxc leaves them 0).
    pub flags: u32,
    /// `FunctionCount`.
    pub function_count: u32,
}

/// `D3D12_FUNCTION_DESC` with the function's resources.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FunctionDesc {
    /// `Name` (the mangled name, as dxc reports it).
    pub name: String,
    /// The unmangled name.
    pub unmangled_name: String,
    /// `Version`.
    pub version: ShaderVersion,
    /// `Creator`.
    pub creator: Option<String>,
    /// `Flags`.
    pub flags: u32,
    /// `RequiredFeatureFlags`.
    pub required_feature_flags: u64,
    /// `ConstantBuffers` (`None` when the layouts are not recorded).
    pub constant_buffer_count: Option<u32>,
    /// `BoundResources`.
    pub bound_resource_count: u32,
    /// `FunctionParameterCount` (`None`: not recorded outside the module).
    pub function_parameter_count: Option<u32>,
    /// `HasReturn` (`None`: not recorded outside the module).
    pub has_return: Option<bool>,
    /// `GetConstantBufferByIndex`.
    pub constant_buffers: Vec<BufferDesc>,
    /// `GetResourceBindingDesc`.
    pub bound_resources: Vec<BindDesc>,
}

impl Reflection {
    /// Reflects `container`: DXBC from RDEF/STAT/signatures/SHEX/SFI0, DXIL
    /// from PSV0/RDAT/signatures/SFI0. A part that reflection needs and that
    /// does not decode is an error naming the part and offset; a part that
    /// is missing is a note.
    pub fn from_container(container: &Container<'_>) -> Result<Reflection, ReadError> {
        let mut r = Reflection {
            format: "none",
            interface: "ID3D12ShaderReflection",
            source: Sources::default(),
            shader: None,
            input_parameters: Vec::new(),
            output_parameters: Vec::new(),
            patch_constant_parameters: Vec::new(),
            constant_buffers: Vec::new(),
            bound_resources: Vec::new(),
            library: None,
            functions: Vec::new(),
            notes: Vec::new(),
        };
        if dxil::is_dxil(container) {
            r.format = "DXIL";
            dxil::reflect(container, &mut r)?;
        } else {
            dxbc::reflect(container, &mut r)?;
        }
        if let Some(shader) = &mut r.shader {
            shader.constant_buffers =
                (!r.source.constant_buffers.is_empty()).then_some(r.constant_buffers.len() as u32);
            shader.bound_resources = r.bound_resources.len() as u32;
            shader.input_parameters = r.input_parameters.len() as u32;
            shader.output_parameters = r.output_parameters.len() as u32;
            shader.patch_constant_parameters = r.patch_constant_parameters.len() as u32;
        }
        Ok(r)
    }

    /// The constant buffer a bound resource of type cbuffer/tbuffer names,
    /// by name (as `GetConstantBufferByName`).
    pub fn constant_buffer(&self, name: &str) -> Option<&BufferDesc> {
        self.constant_buffers.iter().find(|b| b.name == name)
    }
}

/// Signature parameters from a decoded signature part.
fn parameters(signature: &crate::signature::Signature<'_>) -> Vec<SignatureParameter> {
    signature
        .elements
        .iter()
        .map(|e| SignatureParameter {
            semantic_name: e.name_lossy().into_owned(),
            semantic_index: e.semantic_index,
            register: e.register,
            system_value_type: Name::from_raw(e.system_value.raw()),
            component_type: RegisterComponentType::from_raw(e.component_type.raw()),
            mask: e.mask,
            read_write_mask: e.rw_mask,
            stream: e.stream.unwrap_or(0),
            min_precision: MinPrecision::from_raw(e.min_precision.map_or(0, |m| m.raw())),
        })
        .collect()
}

/// Reads the input, output and patch-constant signatures (the first part
/// found of each kind) into `r`, recording the parts read.
fn read_signatures(container: &Container<'_>, r: &mut Reflection) -> Result<(), ReadError> {
    use crate::PartName;
    let kinds: [(&[(PartName, &'static str)], usize); 3] = [
        (&[(PartName::ISG1, "ISG1"), (PartName::ISGN, "ISGN")], 0),
        (
            &[
                (PartName::OSG1, "OSG1"),
                (PartName::OSG5, "OSG5"),
                (PartName::OSGN, "OSGN"),
            ],
            1,
        ),
        (&[(PartName::PSG1, "PSG1"), (PartName::PCSG, "PCSG")], 2),
    ];
    for (names, which) in kinds {
        for (name, text) in names {
            let Some(part) = container.find(*name) else {
                continue;
            };
            if let Some(sig) = crate::signature::Signature::parse(&part)? {
                let list = parameters(&sig);
                match which {
                    0 => r.input_parameters = list,
                    1 => r.output_parameters = list,
                    _ => r.patch_constant_parameters = list,
                }
                r.source.signatures.push(text);
                break;
            }
        }
    }
    Ok(())
}

/// The `dxinfo --reflect` JSON document of one file: `file`, then the
/// [`Reflection`]'s fields (docs/reflection.md).
#[cfg(feature = "serde")]
#[derive(Debug, serde::Serialize)]
pub struct ReflectionDoc<'a> {
    /// The schema version of the document.
    pub schema: u32,
    /// The file as named on the command line (or the Python container's path).
    pub file: &'a str,
    /// The reflection.
    #[serde(flatten)]
    pub reflection: &'a Reflection,
}

/// The schema version of [`ReflectionDoc`]: adding fields keeps it, renaming
/// or removing one bumps it.
pub const SCHEMA: u32 = 1;

/// Writes the JSON document of `reflection` for `file`: indented when
/// `pretty`, else on one line; a newline after it.
#[cfg(feature = "serde")]
pub fn write_json(
    w: &mut dyn std::io::Write,
    file: &str,
    reflection: &Reflection,
    pretty: bool,
) -> std::io::Result<()> {
    let doc = ReflectionDoc {
        schema: SCHEMA,
        file,
        reflection,
    };
    if pretty {
        serde_json::to_writer_pretty(&mut *w, &doc)?;
    } else {
        serde_json::to_writer(&mut *w, &doc)?;
    }
    writeln!(w)
}

#[cfg(test)]
mod tests;
