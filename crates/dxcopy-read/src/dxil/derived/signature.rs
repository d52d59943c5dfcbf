//! ISG1 / OSG1 / PSG1 from the entry point's signature metadata, as dxc's
//! `DxilProgramSignatureWriter` writes them (docs/format/derived-parts.md
//! §Signatures):
//!
//! - one 32-byte record per semantic index of every element that the
//!   signature point keeps in the signature (system values such as
//!   `SV_Coverage` on input or `SV_DispatchThreadID` are left out), sorted
//!   by stream, register and name offset;
//! - the name table holds the name of *every* element, left-out ones
//!   included, in element order; from validator 1.7 equal names share one
//!   string and the part is padded to 4 bytes, below 1.7 every element has
//!   its own copy and the part ends unpadded;
//! - below validator 1.5 an `i1` element has component type Unknown and
//!   the masks are the validator-1.4 ones (inputs read nothing, outputs
//!   never write the columns outside the element).

use super::{older_than, Facts};
use crate::dxil::metadata::{CompType, SignatureElement};
use crate::name::PartName;
use crate::psv0::{InterpolationMode, SemanticKind};
use crate::record::Reserved;
use crate::signature::{
    ComponentType, DxbcElement, DxilElement, MinPrecision, SignatureHeader, SystemValue,
};
use crate::ShaderKind;

/// Which of an entry's three signatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureKind {
    /// Inputs (ISG1).
    Input,
    /// Outputs (OSG1).
    Output,
    /// Patch constants, or a mesh shader's primitive outputs (PSG1).
    PatchConstantOrPrimitive,
}

impl SignatureKind {
    /// The three, in dxc's part order.
    pub const ALL: [SignatureKind; 3] = [
        SignatureKind::Input,
        SignatureKind::Output,
        SignatureKind::PatchConstantOrPrimitive,
    ];

    /// The part that holds the signature.
    pub fn part_name(self) -> PartName {
        match self {
            SignatureKind::Input => PartName::ISG1,
            SignatureKind::Output => PartName::OSG1,
            SignatureKind::PatchConstantOrPrimitive => PartName::PSG1,
        }
    }
}

/// The metadata elements of signature `kind` (empty for a library).
pub(crate) fn elements_of<'a>(facts: &Facts<'a>, kind: SignatureKind) -> &'a [SignatureElement] {
    let Some(entry) = facts.entry else {
        return &[];
    };
    match kind {
        SignatureKind::Input => &entry.signatures.inputs,
        SignatureKind::Output => &entry.signatures.outputs,
        SignatureKind::PatchConstantOrPrimitive => &entry.signatures.patch_constant_or_primitive,
    }
}

/// dxc's signature points that have a signature (`DXIL::SigPointKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SigPoint {
    VsIn,
    VsOut,
    HsCpIn,
    HsCpOut,
    PcOut,
    DsIn,
    DsCpIn,
    DsOut,
    GsVIn,
    GsOut,
    PsIn,
    PsOut,
    MsOut,
    MsPOut,
}

fn sig_point(shader: ShaderKind, kind: SignatureKind) -> Option<SigPoint> {
    use SigPoint::*;
    use SignatureKind::*;
    Some(match (shader, kind) {
        (ShaderKind::Vertex, Input) => VsIn,
        (ShaderKind::Vertex, Output) => VsOut,
        (ShaderKind::Hull, Input) => HsCpIn,
        (ShaderKind::Hull, Output) => HsCpOut,
        (ShaderKind::Hull, PatchConstantOrPrimitive) => PcOut,
        (ShaderKind::Domain, Input) => DsCpIn,
        (ShaderKind::Domain, Output) => DsOut,
        (ShaderKind::Domain, PatchConstantOrPrimitive) => DsIn,
        (ShaderKind::Geometry, Input) => GsVIn,
        (ShaderKind::Geometry, Output) => GsOut,
        (ShaderKind::Pixel, Input) => PsIn,
        (ShaderKind::Pixel, Output) => PsOut,
        (ShaderKind::Mesh, Output) => MsOut,
        (ShaderKind::Mesh, PatchConstantOrPrimitive) => MsPOut,
        _ => return None,
    })
}

/// How dxc interprets a semantic at a signature point (its
/// `SemanticInterpretationKind`, at the highest shader model).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Interpretation {
    /// The semantic does not apply there (`NA`).
    NotApplicable,
    /// An ordinary user semantic there (`Arb`).
    Arbitrary,
    /// A system value; `in_signature` is false for `NotInSig`.
    System { in_signature: bool },
}

/// dxc's interpretation table (`DxilSigPoint.inl`) for the signature
/// points that have a signature part. A `SV_PrimitiveID` input of a
/// geometry shader is read at its own point (`GSIn`, a shadow element in
/// the signature), as dxc's `SigPoint::RecoverKind` does.
fn interpretation(kind: SemanticKind, point: SigPoint) -> Interpretation {
    use Interpretation::*;
    use SigPoint::*;
    const IN: Interpretation = System { in_signature: true };
    const NOT_IN: Interpretation = System {
        in_signature: false,
    };
    let rasterized = [VsOut, HsCpIn, HsCpOut, DsCpIn, DsOut, GsVIn, GsOut, PsIn];
    let arbitrary_points = [VsIn, PcOut, DsIn];
    let pick = |system: &[SigPoint], arbitrary: &[SigPoint]| {
        if system.contains(&point) {
            IN
        } else if arbitrary.contains(&point) {
            Arbitrary
        } else {
            NotApplicable
        }
    };
    let with_mesh = |mesh: SigPoint| {
        if point == mesh {
            IN
        } else {
            pick(&rasterized, &arbitrary_points)
        }
    };
    match kind.raw() {
        // StartVertexLocation and StartInstanceLocation.
        31 | 32 => return if point == VsIn { NOT_IN } else { NotApplicable },
        _ => {}
    }
    match kind {
        SemanticKind::Arbitrary if point == PsOut => NotApplicable,
        SemanticKind::Arbitrary => Arbitrary,
        SemanticKind::VertexId => pick(&[VsIn], &[]),
        SemanticKind::InstanceId => pick(&[VsIn], &rasterized),
        SemanticKind::Position | SemanticKind::ClipDistance | SemanticKind::CullDistance => {
            with_mesh(MsOut)
        }
        SemanticKind::RenderTargetArrayIndex | SemanticKind::ViewPortArrayIndex => {
            with_mesh(MsPOut)
        }
        SemanticKind::PrimitiveId if point == DsIn => NOT_IN,
        SemanticKind::PrimitiveId => pick(&[GsVIn, GsOut, PsIn, MsPOut], &[]),
        SemanticKind::SampleIndex | SemanticKind::Barycentrics => pick(&[PsIn], &[]),
        SemanticKind::IsFrontFace => pick(&[GsOut, PsIn], &[]),
        SemanticKind::Coverage if point == PsIn => NOT_IN,
        SemanticKind::InnerCoverage if point == PsIn => NOT_IN,
        SemanticKind::Coverage
        | SemanticKind::Target
        | SemanticKind::Depth
        | SemanticKind::DepthLessEqual
        | SemanticKind::DepthGreaterEqual
        | SemanticKind::StencilRef => pick(&[PsOut], &[]),
        SemanticKind::TessFactor | SemanticKind::InsideTessFactor => pick(&[PcOut, DsIn], &[]),
        SemanticKind::ViewId if [VsIn, DsIn, PsIn].contains(&point) => NOT_IN,
        SemanticKind::ShadingRate => {
            if point == MsPOut || rasterized.contains(&point) {
                IN
            } else {
                NotApplicable
            }
        }
        SemanticKind::CullPrimitive if point == PsIn => NOT_IN,
        SemanticKind::CullPrimitive => pick(&[MsPOut], &[]),
        _ => NotApplicable,
    }
}

/// dxc's own spelling of a system-value semantic (`Semantic::GetName`).
fn canonical_name(kind: SemanticKind) -> Option<&'static [u8]> {
    const NAMES: [&str; 32] = [
        "SV_VertexID",
        "SV_InstanceID",
        "SV_Position",
        "SV_RenderTargetArrayIndex",
        "SV_ViewportArrayIndex",
        "SV_ClipDistance",
        "SV_CullDistance",
        "SV_OutputControlPointID",
        "SV_DomainLocation",
        "SV_PrimitiveID",
        "SV_GSInstanceID",
        "SV_SampleIndex",
        "SV_IsFrontFace",
        "SV_Coverage",
        "SV_InnerCoverage",
        "SV_Target",
        "SV_Depth",
        "SV_DepthLessEqual",
        "SV_DepthGreaterEqual",
        "SV_StencilRef",
        "SV_DispatchThreadID",
        "SV_GroupID",
        "SV_GroupIndex",
        "SV_GroupThreadID",
        "SV_TessFactor",
        "SV_InsideTessFactor",
        "SV_ViewID",
        "SV_Barycentrics",
        "SV_ShadingRate",
        "SV_CullPrimitive",
        "SV_StartVertexLocation",
        "SV_StartInstanceLocation",
    ];
    let index = usize::from(kind.raw()).checked_sub(1)?;
    NAMES.get(index).map(|name| name.as_bytes())
}

/// D3D system value of a semantic kind (dxc's `SemanticKindToSystemValue`);
/// `domain` is the tessellator domain of a hull or domain shader.
fn system_value(kind: SemanticKind, domain: u32) -> u32 {
    const ISOLINE: u32 = 1;
    const TRI: u32 = 2;
    const QUAD: u32 = 3;
    match kind {
        SemanticKind::VertexId => 6,
        SemanticKind::InstanceId => 8,
        SemanticKind::Position => 1,
        SemanticKind::Coverage => 66,
        SemanticKind::InnerCoverage => 70,
        SemanticKind::PrimitiveId => 7,
        SemanticKind::SampleIndex => 10,
        SemanticKind::IsFrontFace => 9,
        SemanticKind::RenderTargetArrayIndex => 4,
        SemanticKind::ViewPortArrayIndex => 5,
        SemanticKind::ClipDistance => 2,
        SemanticKind::CullDistance => 3,
        SemanticKind::Barycentrics => 23,
        SemanticKind::ShadingRate => 24,
        SemanticKind::CullPrimitive => 25,
        SemanticKind::TessFactor => match domain {
            ISOLINE => 16,
            TRI => 13,
            QUAD => 11,
            _ => 0,
        },
        SemanticKind::InsideTessFactor => match domain {
            TRI => 14,
            QUAD => 12,
            _ => 0,
        },
        SemanticKind::Target => 64,
        SemanticKind::Depth => 65,
        SemanticKind::DepthLessEqual => 68,
        SemanticKind::DepthGreaterEqual => 67,
        SemanticKind::StencilRef => 69,
        _ => 0,
    }
}

/// Signature component type of a DXIL component type (dxc's
/// `CompTypeToSigCompType`); below validator 1.5 `i1` is Unknown.
pub(crate) fn sig_comp_type(comp: CompType, i1_unknown: bool) -> u32 {
    match comp {
        CompType::I32 => 2,
        CompType::I1 if i1_unknown => 0,
        CompType::I1 | CompType::U32 => 1,
        CompType::F32 => 3,
        CompType::I16 => 5,
        CompType::I64 => 8,
        CompType::U16 => 4,
        CompType::U64 => 7,
        CompType::F16 => 6,
        CompType::F64 => 9,
        _ => 0,
    }
}

/// Minimum precision of a component type under minimum precision.
fn min_precision(comp: CompType) -> u32 {
    match comp {
        CompType::I16 => 4,
        CompType::U16 => 5,
        CompType::F16 => 1,
        _ => 0,
    }
}

/// Whether the element has a register and column (dxc's `IsAllocated`).
pub(crate) fn is_allocated(element: &SignatureElement) -> bool {
    element.start_row != -1 && element.start_col != -1
}

/// The columns the element takes as a mask (dxc's `GetColsAsMask`).
fn cols_mask(element: &SignatureElement) -> u8 {
    let start = if is_allocated(element) {
        element.start_col as u8
    } else {
        0
    };
    match (start, element.cols) {
        (0, 1) => 0x1,
        (0, 2) => 0x3,
        (0, 3) => 0x7,
        (0, _) => 0xf,
        (1, 1) => 0x2,
        (1, 2) => 0x6,
        (1, _) => 0xe,
        (2, 1) => 0x4,
        (2, _) => 0xc,
        _ => 0x8,
    }
}

/// The tessellator domain dxc gives the signatures (hull and domain
/// shaders only).
pub(crate) fn tessellator_domain(facts: &Facts<'_>) -> u32 {
    let Some(entry) = facts.entry else { return 0 };
    match facts.kind {
        ShaderKind::Hull => entry.properties.hs.map_or(0, |hs| hs.domain),
        ShaderKind::Domain => entry.properties.ds.map_or(0, |ds| ds.domain),
        _ => 0,
    }
}

struct Record {
    stream: u32,
    name_offset: u32,
    semantic_index: u32,
    system_value: u32,
    comp_type: u32,
    register: u32,
    mask: u8,
    rw_mask: u8,
    min_precision: u32,
}

/// The signature part `kind` of the module, as dxc writes it.
pub(crate) fn write_signature(facts: &Facts<'_>, kind: SignatureKind) -> Vec<u8> {
    let elements = elements_of(facts, kind);
    let point = sig_point(facts.kind, kind);
    let compat_1_4 = older_than(facts.validator, 1, 5);
    let unaligned = older_than(facts.validator, 1, 7);
    let is_input = match kind {
        SignatureKind::Input => true,
        SignatureKind::Output => false,
        SignatureKind::PatchConstantOrPrimitive => facts.kind == ShaderKind::Domain,
    };
    let use_min_precision = facts.metadata.uses_min_precision();
    let domain = tessellator_domain(facts);
    let interpret = |e: &SignatureElement| {
        point.map_or(Interpretation::NotApplicable, |p| interpretation(e.kind, p))
    };
    let kept = |e: &SignatureElement| {
        matches!(
            interpret(e),
            Interpretation::Arbitrary | Interpretation::System { in_signature: true }
        )
    };

    let record_count: usize = elements
        .iter()
        .filter(|e| kept(e))
        .map(|e| e.semantic_indices.len())
        .sum();
    let fixed = (SignatureHeader::SIZE + DxilElement::SIZE * record_count as u64) as usize;
    // Every element's name goes in the table, kept or not: a system value
    // under dxc's own spelling (one string per semantic below validator
    // 1.7, where dxc tells names apart by their address), anything else as
    // written (its own string below 1.7).
    let mut names: Vec<(&[u8], Option<SemanticKind>)> = Vec::new();
    let mut name_offsets = Vec::with_capacity(elements.len());
    let mut next = fixed as u32;
    for element in elements {
        let (name, system) = match (interpret(element), canonical_name(element.kind)) {
            (Interpretation::System { .. }, Some(name)) => (name, Some(element.kind)),
            _ => (element.name.as_slice(), None),
        };
        let shared = names.iter().position(|(n, k)| {
            if unaligned {
                system.is_some() && *k == system
            } else {
                *n == name
            }
        });
        match shared {
            Some(i) => name_offsets.push(name_offsets_of(&names, fixed, i)),
            None => {
                name_offsets.push(next);
                names.push((name, system));
                next += name.len() as u32 + 1;
            }
        }
    }

    let mut records = Vec::with_capacity(record_count);
    for (element, &name_offset) in elements.iter().zip(&name_offsets) {
        if !kept(element) {
            continue;
        }
        let count = element.semantic_indices.len() as u32;
        let rows_each = element.rows.checked_div(count).unwrap_or(1);
        let mask = cols_mask(element);
        let rw_mask = if compat_1_4 {
            if is_input {
                0
            } else {
                !mask
            }
        } else {
            let mut usage = element.usage_mask;
            if is_allocated(element) {
                usage <<= element.start_col as u32;
            }
            if is_input {
                usage as u8
            } else {
                (usage as u8 ^ 0xf) & 0xf
            }
        };
        let mut record = Record {
            stream: element.output_stream,
            name_offset,
            semantic_index: 0,
            system_value: system_value(element.kind, domain),
            comp_type: sig_comp_type(element.comp_type, compat_1_4),
            register: element.start_row as u32,
            mask,
            rw_mask,
            min_precision: if use_min_precision {
                min_precision(element.comp_type)
            } else {
                0
            },
        };
        for &index in &element.semantic_indices {
            records.push(Record {
                semantic_index: index,
                ..record
            });
            if is_allocated(element) {
                record.register = record.register.wrapping_add(rows_each);
            }
            if record.system_value == 16 {
                // An isoline's second tess factor is the detail factor.
                record.system_value = 15;
            }
        }
    }
    // dxc sorts with std::sort, which is an insertion sort (stable) for the
    // handful of records a signature has.
    records.sort_by_key(|r| (r.stream, r.register, r.name_offset));

    let mut out = Vec::with_capacity(next as usize + 3);
    SignatureHeader {
        param_count: records.len() as u32,
        first_param_offset: SignatureHeader::SIZE as u32,
    }
    .write_to(&mut out);
    for r in &records {
        DxilElement {
            stream: r.stream,
            element: DxbcElement {
                name_offset: r.name_offset,
                semantic_index: r.semantic_index,
                system_value: SystemValue::from_raw(r.system_value),
                component_type: ComponentType::from_raw(r.comp_type),
                register: r.register,
                mask: r.mask,
                rw_mask: r.rw_mask,
                reserved: Reserved,
            },
            min_precision: MinPrecision::from_raw(r.min_precision),
        }
        .write_to(&mut out);
    }
    for (name, _) in &names {
        out.extend_from_slice(name);
        out.push(0);
    }
    if !unaligned {
        while out.len() % 4 != 0 {
            out.push(0);
        }
    }
    out
}

/// The offset of the `index`th string of `names` laid out from `fixed`.
fn name_offsets_of(names: &[(&[u8], Option<SemanticKind>)], fixed: usize, index: usize) -> u32 {
    let before: usize = names[..index].iter().map(|(n, _)| n.len() + 1).sum();
    (fixed + before) as u32
}

/// Whether any input element runs at sample frequency (a sample
/// interpolation mode or `SV_SampleIndex`).
pub(crate) fn any_sample_frequency(elements: &[SignatureElement]) -> bool {
    elements.iter().any(|e| {
        matches!(
            e.interpolation,
            InterpolationMode::LinearSample | InterpolationMode::LinearNoperspectiveSample
        ) || e.kind == SemanticKind::SampleIndex
    })
}
