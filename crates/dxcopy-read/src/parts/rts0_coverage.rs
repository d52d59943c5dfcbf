//! Root signatures given as files, and the check that a shader's resource
//! bindings are covered by a root signature, as `dxc -verifyrootsignature`
//! and the D3D12 runtime require. The bindings come from PSV0 (dxc), else
//! from RDEF (fxc's DXBC shaders have no PSV0); a container with neither is
//! not checked, and says why ([`NotChecked`]).
//!
//! A root-signature file is either a container holding an RTS0 part (what
//! `fxc /Frs`, `dxc -extractrootsignature` and `dxcopy --extract-section=RTS0`
//! write) or the bare RTS0 part data. Either way it is decoded strictly.
//!
//! A binding of register class C (SRV `t`, UAV `u`, CBV `b`, sampler `s`),
//! space S and registers L..=U is covered when every register in L..=U is
//! bound, for class C in space S, by a root parameter or static sampler that
//! the shader's stage sees: descriptor-table ranges (an unbounded range runs
//! to the last register), root CBV/SRV/UAV descriptors and root constants
//! (one `b` register each), static samplers (one `s` register each). A
//! parameter is seen by the stage when its visibility is `All` or names that
//! stage; stages without a visibility of their own (compute, libraries, ray
//! tracing, nodes) and shaders of unknown stage see every parameter.

use crate::container::Container;
use crate::error::{ReadError, ReadErrorKind, Result};
use crate::name::PartName;
use crate::program::ShaderKind;
use crate::psv0::{ResourceBinding, ResourceType};
use crate::rts0::{ParameterPayload, ParameterType, RangeType, RootSignature, ShaderVisibility};

/// A root signature read from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct RootSignatureFile<'data> {
    /// The RTS0 part data.
    pub data: &'data [u8],
    /// The decoded root signature.
    pub signature: RootSignature,
    /// Whether the file was a container (the data is its RTS0 part).
    pub from_container: bool,
}

/// Reads a root signature from a container holding an RTS0 part, or from bare
/// RTS0 data, and decodes it strictly. Errors name the byte offset in the file.
pub fn read_root_signature_file(bytes: &[u8]) -> Result<RootSignatureFile<'_>> {
    if bytes.starts_with(b"DXBC") {
        let container = Container::parse(bytes)?;
        let part = container.require(PartName::RTS0)?;
        // Two root signatures: using the first would be a silent guess.
        let all: Vec<_> = container
            .parts()
            .filter(|p| p.name == PartName::RTS0)
            .collect();
        if let [_, second, ..] = &all[..] {
            return Err(ReadError::new(
                second.offset,
                ReadErrorKind::MultipleParts {
                    name: PartName::RTS0,
                    indices: all.iter().map(|p| p.index).collect(),
                },
            ));
        }
        let signature = RootSignature::parse(&part)?;
        return Ok(RootSignatureFile {
            data: part.data,
            signature,
            from_container: true,
        });
    }
    let signature = RootSignature::parse_data(bytes, 0)?;
    Ok(RootSignatureFile {
        data: bytes,
        signature,
        from_container: false,
    })
}

/// The register class of a PSV0 resource type; `None` for `Invalid` and
/// unknown types, which bind nothing.
pub fn register_class(resource_type: ResourceType) -> Option<RangeType> {
    Some(match resource_type {
        ResourceType::Sampler => RangeType::Sampler,
        ResourceType::Cbv => RangeType::CBuffer,
        ResourceType::SrvTyped | ResourceType::SrvRaw | ResourceType::SrvStructured => {
            RangeType::Srv
        }
        ResourceType::UavTyped
        | ResourceType::UavRaw
        | ResourceType::UavStructured
        | ResourceType::UavStructuredWithCounter => RangeType::Uav,
        _ => return None,
    })
}

/// The HLSL register letter of a class: `t`, `u`, `b` or `s`.
pub fn register_letter(class: RangeType) -> char {
    match class {
        RangeType::Srv => 't',
        RangeType::Uav => 'u',
        RangeType::CBuffer => 'b',
        _ => 's',
    }
}

/// The visibility that names a stage, when the stage has one.
pub fn stage_visibility(stage: ShaderKind) -> Option<ShaderVisibility> {
    Some(match stage {
        ShaderKind::Vertex => ShaderVisibility::Vertex,
        ShaderKind::Hull => ShaderVisibility::Hull,
        ShaderKind::Domain => ShaderVisibility::Domain,
        ShaderKind::Geometry => ShaderVisibility::Geometry,
        ShaderKind::Pixel => ShaderVisibility::Pixel,
        ShaderKind::Amplification => ShaderVisibility::Amplification,
        ShaderKind::Mesh => ShaderVisibility::Mesh,
        _ => return None,
    })
}

/// One register range a root signature binds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundRange {
    /// Register class.
    pub class: RangeType,
    /// Register space.
    pub space: u32,
    /// First register.
    pub first: u32,
    /// Last register (inclusive).
    pub last: u32,
    /// Which stages see it.
    pub visibility: ShaderVisibility,
}

/// Every register range `signature` binds, in parameter order, then the
/// static samplers.
pub fn bound_ranges(signature: &RootSignature) -> Vec<BoundRange> {
    let mut out = Vec::new();
    for p in &signature.parameters {
        let visibility = p.visibility;
        match &p.payload {
            ParameterPayload::Constants(c) => out.push(BoundRange {
                class: RangeType::CBuffer,
                space: c.register_space,
                first: c.shader_register,
                last: c.shader_register,
                visibility,
            }),
            ParameterPayload::Descriptor(d) => {
                let class = match p.parameter_type {
                    ParameterType::Cbv => RangeType::CBuffer,
                    ParameterType::Srv => RangeType::Srv,
                    ParameterType::Uav => RangeType::Uav,
                    _ => continue,
                };
                out.push(BoundRange {
                    class,
                    space: d.register_space,
                    first: d.shader_register,
                    last: d.shader_register,
                    visibility,
                });
            }
            ParameterPayload::Table(t) => {
                for r in &t.ranges {
                    if r.num_descriptors == 0 {
                        continue;
                    }
                    let last = if r.num_descriptors == u32::MAX {
                        u32::MAX
                    } else {
                        r.base_shader_register.saturating_add(r.num_descriptors - 1)
                    };
                    out.push(BoundRange {
                        class: r.range_type,
                        space: r.register_space,
                        first: r.base_shader_register,
                        last,
                        visibility,
                    });
                }
            }
        }
    }
    for s in &signature.static_samplers {
        out.push(BoundRange {
            class: RangeType::Sampler,
            space: s.register_space,
            first: s.shader_register,
            last: s.shader_register,
            visibility: s.visibility,
        });
    }
    out
}

/// Why a binding is not covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Uncovered {
    /// No register of the binding is bound for its class and space.
    NotBound,
    /// Some registers are bound, `first_missing` is not.
    Partly {
        /// The first register of the binding left unbound.
        first_missing: u32,
    },
    /// Bound, but only by parameters the stage does not see.
    NotVisible,
}

/// The part a shader's bindings were read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BindingSource {
    /// PSV0's resource bindings (dxc).
    Psv0,
    /// RDEF's bound resources (fxc, and dxc's DXBC-era reflection).
    Rdef,
}

impl std::fmt::Display for BindingSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BindingSource::Psv0 => "PSV0",
            BindingSource::Rdef => "RDEF",
        })
    }
}

/// A binding the root signature does not cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UncoveredBinding {
    /// The binding, in PSV0's terms (an RDEF resource is translated).
    pub binding: ResourceBinding,
    /// Where it was read.
    pub source: BindingSource,
    /// Its register class.
    pub class: RangeType,
    /// Why.
    pub reason: Uncovered,
    /// The stage checked for, when known.
    pub stage: Option<ShaderKind>,
}

impl std::fmt::Display for UncoveredBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let b = &self.binding;
        let letter = register_letter(self.class);
        let class = self.class.known_name().unwrap_or("Unknown");
        write!(f, "{class} binding {letter}{}", b.lower_bound)?;
        if b.upper_bound == u32::MAX {
            write!(f, "-unbounded")?;
        } else if b.upper_bound != b.lower_bound {
            write!(f, "-{letter}{}", b.upper_bound)?;
        }
        write!(
            f,
            " space {} ({})",
            b.space,
            b.resource_type.known_name().unwrap_or("Unknown")
        )?;
        match self.reason {
            Uncovered::NotBound => f.write_str(" is not bound by the root signature"),
            Uncovered::Partly { first_missing } => write!(
                f,
                " is only partly bound by the root signature ({letter}{first_missing} is missing)"
            ),
            Uncovered::NotVisible => {
                let stage = self.stage.map_or("this".to_string(), |s| s.to_string());
                write!(
                    f,
                    " is bound by the root signature only for other shader stages, not for the {stage} stage"
                )
            }
        }
    }
}

/// Whether a range with `visibility` is seen by `stage`.
fn visible(visibility: ShaderVisibility, stage: Option<ShaderKind>) -> bool {
    if visibility == ShaderVisibility::All {
        return true;
    }
    match stage.and_then(stage_visibility) {
        Some(v) => v == visibility,
        None => true,
    }
}

/// Checks every binding against the root signature's ranges: one entry per
/// binding that is not fully covered, in binding order.
pub fn check_bindings(
    bindings: &[ResourceBinding],
    source: BindingSource,
    signature: &RootSignature,
    stage: Option<ShaderKind>,
) -> Vec<UncoveredBinding> {
    let ranges = bound_ranges(signature);
    let mut out = Vec::new();
    for binding in bindings {
        let Some(class) = register_class(binding.resource_type) else {
            continue;
        };
        let (first, last) = (
            binding.lower_bound,
            binding.upper_bound.max(binding.lower_bound),
        );
        let same: Vec<&BoundRange> = ranges
            .iter()
            .filter(|r| r.class == class && r.space == binding.space)
            .collect();
        let seen: Vec<&BoundRange> = same
            .iter()
            .copied()
            .filter(|r| visible(r.visibility, stage))
            .collect();
        let Some(missing) = first_uncovered_checked(&seen, first, last) else {
            continue;
        };
        let touched = seen.iter().any(|r| r.first <= last && first <= r.last);
        let reason = if touched {
            Uncovered::Partly {
                first_missing: missing,
            }
        } else if first_uncovered_checked(&same, first, last).is_none() {
            Uncovered::NotVisible
        } else {
            Uncovered::NotBound
        };
        out.push(UncoveredBinding {
            binding: *binding,
            source,
            class,
            reason,
            stage,
        });
    }
    out
}

/// The first register in `first..=last` that no range covers, if any.
fn first_uncovered_checked(ranges: &[&BoundRange], first: u32, last: u32) -> Option<u32> {
    let mut next = first;
    loop {
        let reach = ranges
            .iter()
            .filter(|r| r.first <= next && next <= r.last)
            .map(|r| r.last)
            .max();
        match reach {
            None => return Some(next),
            Some(reach) if reach >= last => return None,
            Some(reach) => next = reach + 1,
        }
    }
}

/// The root signature a container is checked against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CheckAgainst<'a> {
    /// The container's own RTS0 part (nothing is checked without one).
    Own,
    /// A root signature given separately (`dxinfo --root-signature=FILE`).
    External(&'a RootSignature),
}

/// Why [`check_container`] checked nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotChecked {
    /// No root signature: the container has no RTS0 part (and none was given).
    NoRootSignature,
    /// The container records no bindings: neither PSV0 nor RDEF (a DXBC
    /// shader compiled or stripped without reflection).
    NoBindings,
}

impl std::fmt::Display for NotChecked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotChecked::NoRootSignature => "the container has no RTS0 part",
            NotChecked::NoBindings => {
                "the container records no resource bindings (no PSV0 or RDEF part; reflection was stripped)"
            }
        })
    }
}

/// What [`check_container`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContainerCoverage {
    /// Nothing checked, and why.
    NotChecked(NotChecked),
    /// Every binding is covered: the number of bindings checked and where
    /// they were read.
    Covered(usize, BindingSource),
    /// Bindings not covered, in their part's order.
    Uncovered(Vec<UncoveredBinding>),
}

/// An RDEF bound resource in PSV0's terms: its resource type, space and
/// register range (a bind count of 0 is SM5.1's unbounded array).
pub fn rdef_binding(resource: &crate::rdef::ResourceBinding<'_>) -> ResourceBinding {
    use crate::rdef::InputType;
    let resource_type = match resource.input_type {
        InputType::Cbuffer => ResourceType::Cbv,
        InputType::Tbuffer | InputType::Texture => ResourceType::SrvTyped,
        InputType::Sampler => ResourceType::Sampler,
        InputType::UavRwTyped | InputType::UavFeedbackTexture => ResourceType::UavTyped,
        InputType::Structured => ResourceType::SrvStructured,
        InputType::UavRwStructured => ResourceType::UavStructured,
        InputType::ByteAddress | InputType::RtAccelerationStructure => ResourceType::SrvRaw,
        InputType::UavRwByteAddress => ResourceType::UavRaw,
        InputType::UavAppendStructured
        | InputType::UavConsumeStructured
        | InputType::UavRwStructuredWithCounter => ResourceType::UavStructuredWithCounter,
        _ => ResourceType::Invalid,
    };
    let upper_bound = match resource.bind_count {
        0 => u32::MAX,
        n => resource.bind_point.saturating_add(n - 1),
    };
    ResourceBinding {
        resource_type,
        space: resource.space.unwrap_or(0),
        lower_bound: resource.bind_point,
        upper_bound,
        kind: None,
        flags: None,
    }
}

/// Checks the resource bindings of `container` — PSV0's, else RDEF's —
/// against its own RTS0 or an external root signature. The stage is the
/// DXIL (else ILDB) program's, else the SHDR/SHEX program's, else PSV0's or
/// RDEF's. A PSV0, RDEF or own RTS0 that does not decode is an error (the
/// decoders' checks report it too).
pub fn check_container(
    container: &Container<'_>,
    against: CheckAgainst<'_>,
) -> Result<ContainerCoverage> {
    let own;
    let signature = match against {
        CheckAgainst::External(rs) => rs,
        CheckAgainst::Own => match container.find(PartName::RTS0) {
            Some(part) => {
                own = RootSignature::parse(&part)?;
                &own
            }
            None => return Ok(ContainerCoverage::NotChecked(NotChecked::NoRootSignature)),
        },
    };
    let stage = container.stage();
    let (bindings, source, stage) = if let Some(part) = container.find(PartName::PSV0) {
        let psv = crate::psv0::Psv0::parse(&part, stage)?;
        let stage = stage.or(psv.stage);
        (psv.resources, BindingSource::Psv0, stage)
    } else if let Some(part) = container.find(PartName::RDEF) {
        let rdef = crate::rdef::ResourceDefinitions::parse(&part)?;
        let bindings = rdef.resources.iter().map(rdef_binding).collect();
        (bindings, BindingSource::Rdef, stage)
    } else {
        return Ok(ContainerCoverage::NotChecked(NotChecked::NoBindings));
    };
    let uncovered = check_bindings(&bindings, source, signature, stage);
    Ok(if uncovered.is_empty() {
        ContainerCoverage::Covered(bindings.len(), source)
    } else {
        ContainerCoverage::Uncovered(uncovered)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ReadErrorKind;

    /// What a test root parameter binds.
    enum Param {
        /// (visibility, [(range type, count, base, space)])
        Table(u32, &'static [(u32, u32, u32, u32)]),
        /// (parameter type 2/3/4, visibility, register, space)
        Root(u32, u32, u32, u32),
        /// (visibility, register, space)
        Constants(u32, u32, u32),
    }

    /// RTS0 1.1 bytes for `params` and static samplers (register, space, visibility).
    fn rts0_v11(params: &[Param], samplers: &[(u32, u32, u32)]) -> Vec<u8> {
        let mut payloads: Vec<Vec<u32>> = Vec::new();
        let mut headers: Vec<(u32, u32)> = Vec::new();
        for p in params {
            match p {
                Param::Table(vis, ranges) => {
                    headers.push((0, *vis));
                    let mut v = vec![ranges.len() as u32, 0];
                    for (t, n, base, space) in ranges.iter() {
                        v.extend([*t, *n, *base, *space, 0, 0xFFFF_FFFF]);
                    }
                    payloads.push(v);
                }
                Param::Root(ty, vis, reg, space) => {
                    headers.push((*ty, *vis));
                    payloads.push(vec![*reg, *space, 0]);
                }
                Param::Constants(vis, reg, space) => {
                    headers.push((1, *vis));
                    payloads.push(vec![*reg, *space, 4]);
                }
            }
        }
        let mut offset = 24 + 12 * params.len() as u32;
        let mut words = vec![2, params.len() as u32, 24, samplers.len() as u32, 0, 0];
        let mut body = Vec::new();
        for ((ty, vis), mut payload) in headers.into_iter().zip(payloads) {
            words.extend([ty, vis, offset]);
            if ty == 0 {
                payload[1] = offset + 8;
            }
            offset += 4 * payload.len() as u32;
            body.extend(payload);
        }
        words[4] = offset;
        words.extend(body);
        for (reg, space, vis) in samplers {
            words.extend([
                0x15,
                1,
                1,
                1,
                0,
                16,
                4,
                2,
                0,
                0x7f7f_ffff,
                *reg,
                *space,
                *vis,
            ]);
        }
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn binding(ty: ResourceType, space: u32, lower: u32, upper: u32) -> ResourceBinding {
        ResourceBinding {
            resource_type: ty,
            space,
            lower_bound: lower,
            upper_bound: upper,
            kind: None,
            flags: None,
        }
    }

    #[test]
    fn reads_raw_data_and_containers() {
        let raw = rts0_v11(&[Param::Constants(0, 0, 0)], &[]);
        let from_raw = read_root_signature_file(&raw).unwrap();
        assert!(!from_raw.from_container);
        assert_eq!(from_raw.signature.parameters.len(), 1);
        let container = crate::testutil::build(&[(b"RTS0", &raw)]);
        let from_container = read_root_signature_file(&container).unwrap();
        assert!(from_container.from_container);
        assert_eq!(from_container.data, &raw[..]);
        assert_eq!(from_container.signature, from_raw.signature);
        // A container without RTS0, and data that is no root signature.
        let other = crate::testutil::build(&[(b"PRIV", b"abcd")]);
        let e = read_root_signature_file(&other).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::PartNotFound { .. }), "{e}");
        let e = read_root_signature_file(b"not a root signature").unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Truncated { .. }), "{e}");
        let mut bad_version = raw.clone();
        bad_version[0] = 9;
        let e = read_root_signature_file(&bad_version).unwrap_err();
        assert!(
            matches!(
                e.kind.detail(),
                Some(crate::rts0::Rts0Error::Version { value: 9 })
            ),
            "{e}"
        );
    }

    /// Two RTS0 parts in a root-signature file: which is meant is not
    /// guessed.
    #[test]
    fn a_file_with_two_root_signatures_is_refused_naming_both() {
        let raw = rts0_v11(&[Param::Constants(0, 0, 0)], &[]);
        let empty = rts0_v11(&[], &[]);
        let container =
            crate::testutil::build(&[(b"RTS0", &raw), (b"SFI0", &[0; 8]), (b"RTS0", &empty)]);
        let parsed = Container::parse(&container).unwrap();
        let second = parsed.part(2).unwrap().offset;
        let e = read_root_signature_file(&container).unwrap_err();
        assert_eq!(
            e.kind,
            ReadErrorKind::MultipleParts {
                name: PartName::RTS0,
                indices: vec![0, 2]
            }
        );
        assert_eq!(e.offset, second);
        assert_eq!(
            e.to_string(),
            "more than one RTS0 part (parts 0, 2): which one is meant is ambiguous"
        );
    }

    #[test]
    fn coverage_rows() {
        let rs = rts0_v11(
            &[
                // SRV t0-t3 space 0 and UAV u0+ (unbounded) space 1, all stages.
                Param::Table(0, &[(0, 4, 0, 0), (1, u32::MAX, 0, 1)]),
                // CBV b0 root descriptor, pixel only.
                Param::Root(2, 5, 0, 0),
                // Root constants b1, vertex only.
                Param::Constants(1, 1, 0),
                // SRV t5 root descriptor, all stages.
                Param::Root(3, 0, 5, 0),
            ],
            &[(0, 0, 0)],
        );
        let rs = read_root_signature_file(&rs).unwrap().signature;
        use ResourceType as T;
        let rows: &[(ResourceBinding, Option<ShaderKind>, Option<Uncovered>)] = &[
            (binding(T::SrvTyped, 0, 0, 3), Some(ShaderKind::Pixel), None),
            // t0-t5: t4 is missing.
            (
                binding(T::SrvRaw, 0, 0, 5),
                Some(ShaderKind::Pixel),
                Some(Uncovered::Partly { first_missing: 4 }),
            ),
            (
                binding(T::SrvStructured, 0, 5, 5),
                Some(ShaderKind::Vertex),
                None,
            ),
            // Wrong space.
            (
                binding(T::SrvTyped, 1, 0, 0),
                Some(ShaderKind::Pixel),
                Some(Uncovered::NotBound),
            ),
            (
                binding(T::UavRaw, 1, 100, u32::MAX),
                Some(ShaderKind::Compute),
                None,
            ),
            (
                binding(T::UavRaw, 0, 0, 0),
                Some(ShaderKind::Compute),
                Some(Uncovered::NotBound),
            ),
            (binding(T::Cbv, 0, 0, 0), Some(ShaderKind::Pixel), None),
            (
                binding(T::Cbv, 0, 0, 0),
                Some(ShaderKind::Vertex),
                Some(Uncovered::NotVisible),
            ),
            (binding(T::Cbv, 0, 1, 1), Some(ShaderKind::Vertex), None),
            (
                binding(T::Cbv, 0, 1, 1),
                Some(ShaderKind::Pixel),
                Some(Uncovered::NotVisible),
            ),
            // b0-b1 seen from pixel: b0 bound, b1 only for vertex.
            (
                binding(T::Cbv, 0, 0, 1),
                Some(ShaderKind::Pixel),
                Some(Uncovered::Partly { first_missing: 1 }),
            ),
            // Compute sees every visibility.
            (binding(T::Cbv, 0, 0, 1), Some(ShaderKind::Compute), None),
            (binding(T::Cbv, 0, 0, 1), None, None),
            (binding(T::Sampler, 0, 0, 0), Some(ShaderKind::Pixel), None),
            (
                binding(T::Sampler, 0, 1, 1),
                Some(ShaderKind::Pixel),
                Some(Uncovered::NotBound),
            ),
            // Invalid bindings bind nothing.
            (binding(T::Invalid, 7, 7, 7), Some(ShaderKind::Pixel), None),
        ];
        for (b, stage, want) in rows {
            let got = check_bindings(std::slice::from_ref(b), BindingSource::Psv0, &rs, *stage);
            assert_eq!(got.first().map(|u| u.reason), *want, "{b:?} {stage:?}");
        }
    }

    #[test]
    fn messages_name_registers_space_and_stage() {
        let rs = rts0_v11(&[Param::Root(2, 1, 0, 0)], &[]);
        let rs = read_root_signature_file(&rs).unwrap().signature;
        let bindings = [
            binding(ResourceType::Cbv, 0, 0, 0),
            binding(ResourceType::UavTyped, 2, 3, 6),
            binding(ResourceType::SrvTyped, 0, 1, u32::MAX),
        ];
        let lines: Vec<String> =
            check_bindings(&bindings, BindingSource::Psv0, &rs, Some(ShaderKind::Pixel))
                .iter()
                .map(ToString::to_string)
                .collect();
        assert_eq!(
            lines,
            [
                "CBuffer binding b0 space 0 (CBV) is bound by the root signature only for other shader stages, not for the Pixel stage",
                "UAV binding u3-u6 space 2 (UAVTyped) is not bound by the root signature",
                "SRV binding t1-unbounded space 0 (SRVTyped) is not bound by the root signature",
            ]
        );
    }

    /// A DXBC shader (no PSV0): its bindings come from RDEF — here the
    /// sample RDEF's texture t3 in space 2 of a ps_5_0 — and without RDEF
    /// nothing is checked, with the reason.
    #[test]
    fn dxbc_bindings_come_from_rdef() {
        let rdef = crate::rdef::build::sample(true, 40);
        let shex = [0x50u32, 2].map(u32::to_le_bytes).concat();
        let with_rdef = crate::testutil::build(&[(b"RDEF", &rdef), (b"SHEX", &shex)]);
        let c = Container::parse(&with_rdef).unwrap();
        let empty = read_root_signature_file(&rts0_v11(&[], &[]))
            .unwrap()
            .signature;
        let ContainerCoverage::Uncovered(list) =
            check_container(&c, CheckAgainst::External(&empty)).unwrap()
        else {
            panic!()
        };
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].source, BindingSource::Rdef);
        assert_eq!(list[0].stage, Some(ShaderKind::Pixel));
        assert_eq!(
            list[0].to_string(),
            "SRV binding t3 space 2 (SRVTyped) is not bound by the root signature"
        );
        // A pixel-visible table with t3 in space 2 covers it; a vertex-only
        // one does not reach the pixel stage.
        let pixel = rts0_v11(&[Param::Table(5, &[(0, 1, 3, 2)])], &[]);
        let pixel = read_root_signature_file(&pixel).unwrap().signature;
        assert_eq!(
            check_container(&c, CheckAgainst::External(&pixel)).unwrap(),
            ContainerCoverage::Covered(1, BindingSource::Rdef)
        );
        let vertex = rts0_v11(&[Param::Table(1, &[(0, 1, 3, 2)])], &[]);
        let vertex = read_root_signature_file(&vertex).unwrap().signature;
        let ContainerCoverage::Uncovered(list) =
            check_container(&c, CheckAgainst::External(&vertex)).unwrap()
        else {
            panic!()
        };
        assert_eq!(list[0].reason, Uncovered::NotVisible);
        // Stripped of RDEF: not checked, and why.
        let stripped = crate::testutil::build(&[(b"SHEX", &shex)]);
        let c = Container::parse(&stripped).unwrap();
        assert_eq!(
            check_container(&c, CheckAgainst::External(&pixel)).unwrap(),
            ContainerCoverage::NotChecked(NotChecked::NoBindings)
        );
        assert_eq!(
            check_container(&c, CheckAgainst::Own).unwrap(),
            ContainerCoverage::NotChecked(NotChecked::NoRootSignature)
        );
        // An RDEF bind count of 0 is an unbounded range.
        let mut r = crate::rdef::ResourceDefinitions::parse_data(&rdef, 0).unwrap();
        r.resources[0].bind_count = 0;
        assert_eq!(rdef_binding(&r.resources[0]).upper_bound, u32::MAX);
    }
}
