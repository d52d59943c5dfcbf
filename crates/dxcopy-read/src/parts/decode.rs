//! One entry point that decodes any part: [`decode_part`] picks the decoder
//! by part name and returns a [`Decoded`] value. A part that fails to decode
//! yields its own error; the other parts are unaffected, so a viewer can show
//! everything that does decode.

use crate::container::{Container, Part};
use crate::error::ReadError;
use crate::finding::Finding;
use crate::name::PartName;
use crate::part_table::{part_info, Family};
use crate::private::PrivateContent;
use crate::program::{is_program_data, Program, ShaderKind};
use crate::psv0::Psv0;
use crate::rdef::ResourceDefinitions;
use crate::signature::Signature;
use crate::stage::ProgramType;
use crate::stat::Statistics;

/// Generates [`Decoded`], [`Decoded::kind`], [`Decoded::family`] and the
/// per-family dispatch of [`decode_part`] from the decoder list below: one
/// row per [`Family`], `Family: Variant(payload type), how;` where `how` is
/// `parse` (`Variant(Type::parse(part)?)`) or `with(function)` (a function of
/// the container and the part returning the `Decoded` value, for decoders
/// that need context or choose by content). The JSON `kind` is the family's
/// ([`Family::kind`]); the dispatch is an exhaustive `match` over `Family`.
macro_rules! define_decoded {
    (
        $( $family:ident : $variant:ident ($payload:ty), $how:ident $(($with:ident))?; )*
    ) => {
        /// A decoded part, one variant per part family ([`Family`]).
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize),
            serde(tag = "kind", rename_all = "snake_case")
        )]
        pub enum Decoded<'data> {
            $(
                #[doc = concat!("A part of family [`Family::", stringify!($family), "`], decoded.")]
                $variant($payload),
            )*
            /// A part with no decoder: name and size only.
            Unknown,
        }

        impl<'data> Decoded<'data> {
            /// Short name of the variant, as used in the JSON `kind` field.
            pub fn kind(&self) -> &'static str {
                self.family().map_or("unknown", Family::kind)
            }

            /// The family whose variant this is (`None` for `Unknown`; dxc's
            /// STAT decodes to [`Family::Program`]'s variant).
            pub fn family(&self) -> Option<Family> {
                match self {
                    $( Decoded::$variant(_) => Some(Family::$family), )*
                    Decoded::Unknown => None,
                }
            }
        }

        /// Every family with the name of its `Decoded` variant: serde names
        /// the JSON `kind` from the variant (snake case), and a test checks
        /// that it is the family's [`Family::kind`].
        #[cfg(test)]
        const VARIANTS: &[(Family, &str)] = &[$( (Family::$family, stringify!($variant)), )*];

        /// Runs the decoder of `family` on `part`.
        fn decode_family<'data>(
            family: Family,
            container: &Container<'data>,
            part: &Part<'data>,
        ) -> Result<Decoded<'data>, ReadError> {
            match family {
                $( Family::$family => define_decoded!(@decode $variant, $payload, container, part, $how $(($with))?), )*
            }
        }
    };
    (@decode $variant:ident, $payload:ty, $container:ident, $part:ident, parse) => {
        Ok(Decoded::$variant(<$payload>::parse($part)?))
    };
    (@decode $variant:ident, $payload:ty, $container:ident, $part:ident, with($with:ident)) => {
        $with($container, $part)
    };
}

define_decoded! {
    Program: Program(crate::program::Program<'data>), parse;
    Statistics: Stat(crate::stat::Statistics), with(decode_statistics);
    Hash: Hash(crate::hash::ShaderHash), parse;
    Signature: Signature(crate::signature::Signature<'data>), with(decode_signature);
    Psv0: Psv0(Box<crate::psv0::Psv0<'data>>), with(decode_psv0);
    RootSignature: RootSignature(crate::rts0::RootSignature), parse;
    FeatureFlags: FeatureFlags(crate::sfi0::Sfi0), parse;
    DebugName: DebugName(crate::debug_name::DebugName<'data>), parse;
    Version: Version(crate::version::CompilerVersion<'data>), parse;
    SourceInfo: SourceInfo(crate::source_info::SourceInfo<'data>), parse;
    Private: Private(crate::private::PrivateData<'data>), parse;
    Shader: Shader(crate::dxbc::ShaderBytecode), parse;
    Rdef: Rdef(crate::rdef::ResourceDefinitions<'data>), parse;
    Aon9: Aon9(crate::aon9::Level9Shader), parse;
    Rdat: Rdat(crate::rdat::RuntimeData<'data>), parse;
    DebugBlob: DebugBlob(crate::spdb::DebugBlob), parse;
}

/// STAT: dxc writes a program part (reflection bitcode), fxc counters.
fn decode_statistics<'data>(
    _: &Container<'data>,
    part: &Part<'data>,
) -> Result<Decoded<'data>, ReadError> {
    Ok(if is_program_data(part.data) {
        Decoded::Program(Program::parse(part)?)
    } else {
        Decoded::Stat(Statistics::parse(part)?)
    })
}

/// A signature of a name [`Signature::parse`] does not know is `Unknown`.
fn decode_signature<'data>(
    _: &Container<'data>,
    part: &Part<'data>,
) -> Result<Decoded<'data>, ReadError> {
    Ok(match Signature::parse(part)? {
        Some(s) => Decoded::Signature(s),
        None => Decoded::Unknown,
    })
}

/// PSV0 takes the shader kind of the container's program.
fn decode_psv0<'data>(
    container: &Container<'data>,
    part: &Part<'data>,
) -> Result<Decoded<'data>, ReadError> {
    Ok(Decoded::Psv0(Box::new(Psv0::parse(
        part,
        container.stage(),
    )?)))
}

impl<'data> Decoded<'data> {
    /// Non-fatal issues found while decoding (including nested ones).
    pub fn issues(&self) -> Vec<&Finding> {
        let list: &[Finding] = match self {
            Decoded::DebugName(d) => &d.issues,
            Decoded::Version(d) => &d.issues,
            Decoded::SourceInfo(d) => &d.issues,
            Decoded::Private(d) => {
                let mut out: Vec<&Finding> = d.issues.iter().collect();
                if let PrivateContent::Pdb(msf) = &d.content {
                    out.extend(msf.issues.iter());
                }
                return out;
            }
            Decoded::Shader(d) => &d.issues,
            Decoded::Rdef(d) => &d.issues,
            Decoded::Stat(d) => &d.issues,
            Decoded::Aon9(d) => &d.issues,
            Decoded::Rdat(d) => &d.issues,
            Decoded::DebugBlob(d) => return d.msf.iter().flat_map(|m| m.issues.iter()).collect(),
            Decoded::Program(_)
            | Decoded::Hash(_)
            | Decoded::Signature(_)
            | Decoded::Psv0(_)
            | Decoded::RootSignature(_)
            | Decoded::FeatureFlags(_)
            | Decoded::Unknown => &[],
        };
        list.iter().collect()
    }
}

impl Container<'_> {
    /// The shader stage of the container: the shader kind of its program
    /// (the DXIL part's, else the ILDB part's), else the stage in the
    /// version token of its SM4/5 program (SHEX, else SHDR), else the RDEF
    /// target's; `None` when no part names one. PSV0 needs it to decode its
    /// stage-dependent fields, the listings and the root signature check to
    /// name the stage.
    pub fn stage(&self) -> Option<ShaderKind> {
        let program = [PartName::DXIL, PartName::ILDB].iter().find_map(|name| {
            self.find(*name)
                .and_then(|p| Program::parse(&p).ok())
                .map(|p| p.shader_kind)
        });
        program.or_else(|| {
            for name in [b"SHEX", b"SHDR"] {
                if let Some(part) = self.find(PartName(*name)) {
                    if let Ok(token) = part.cursor().u32(0, "program version token") {
                        return ProgramType::from_raw((token >> 16) as u16).stage();
                    }
                }
            }
            let part = self.find(PartName::RDEF)?;
            ResourceDefinitions::parse(&part).ok()?.target.stage()
        })
    }
}

/// Decodes `part` of `container`, choosing the decoder by part name through
/// [`PART_TABLE`](crate::PART_TABLE).
///
/// `container` supplies context some parts need (the shader kind of the
/// program for PSV0). Unknown names decode to [`Decoded::Unknown`]; errors
/// carry the part they belong to.
pub fn decode_part<'data>(
    container: &Container<'data>,
    part: &Part<'data>,
) -> Result<Decoded<'data>, ReadError> {
    match part_info(part.name).and_then(|info| info.family) {
        Some(family) => decode_family(family, container, part),
        None => Ok(Decoded::Unknown),
    }
}

/// Whether [`decode_part`] has a decoder for parts called `name`.
pub fn has_decoder(name: PartName) -> bool {
    part_info(name).is_some_and(|info| info.family.is_some())
}

/// Decodes every part of `container`, in offset-table order.
pub fn decode_all<'data>(
    container: &Container<'data>,
) -> Vec<(Part<'data>, Result<Decoded<'data>, ReadError>)> {
    container
        .parts()
        .map(|p| {
            let d = decode_part(container, &p);
            (p, d)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug_name::encode as build_debug_name;
    use crate::fixtures::build_msf;
    use crate::fixtures::build_rdat;
    use crate::fixtures::build_source_info;
    use crate::private::build_debug_path;
    use crate::program::{build_program_data, ShaderKind};
    use crate::testutil::build;

    /// The JSON `kind` serde writes for a variant (snake case of its name)
    /// is the family's kind, and every family has exactly one variant.
    #[test]
    fn json_kind_of_every_variant_is_its_familys() {
        let snake = |name: &str| {
            let mut out = String::new();
            for (i, c) in name.chars().enumerate() {
                if c.is_ascii_uppercase() && i > 0 {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
            }
            out
        };
        for (family, variant) in VARIANTS {
            assert_eq!(snake(variant), family.kind(), "{family:?}");
        }
        let families: Vec<Family> = VARIANTS.iter().map(|(f, _)| *f).collect();
        assert_eq!(families, Family::ALL);
    }

    #[test]
    fn dispatch_by_name_and_isolated_errors() {
        let dxil = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, b"BC\xc0\xde");
        let stat_fxc: Vec<u8> = vec![0; 148];
        let mut shex = 0x0000_0050u32.to_le_bytes().to_vec();
        shex.extend_from_slice(&2u32.to_le_bytes());
        let srci = build_source_info(&[(b"a.hlsl", b"x")], &[(b"T", b"ps_6_0")], true);
        let mut vers = vec![1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0];
        vers.extend_from_slice(b"a\0b\0");
        let bytes = build(&[
            (b"DXIL", &dxil),
            (b"STAT", &dxil),
            (b"ILDN", &build_debug_name(b"x.pdb").unwrap()),
            (b"HASH", &[0; 20]),
            (b"SHEX", &shex),
            (b"RDAT", &build_rdat(&[(1, b"\0".to_vec())])),
            (b"SRCI", &srci),
            (b"VERS", &vers),
            (b"SPDB", &build_msf(512, 6, 6)),
            (b"SDBG", b"zz"),
            (b"Aon9", &[0; 8]),
            (b"FKE0", b"??"),
            (b"PRIV", &build_debug_path(b"p")),
        ]);
        let c = Container::parse(&bytes).unwrap();
        let all = decode_all(&c);
        let kinds: Vec<&str> = all
            .iter()
            .map(|(_, d)| d.as_ref().map(|d| d.kind()).unwrap_or("error"))
            .collect();
        assert_eq!(
            kinds,
            vec![
                "program",
                "program",
                "debug_name",
                "hash",
                "shader",
                "rdat",
                "source_info",
                "version",
                "debug_blob",
                "debug_blob",
                "error",
                "unknown",
                "private"
            ]
        );
        // The Aon9 error names its part.
        let err = all[10].1.as_ref().unwrap_err();
        assert!(err.to_string().starts_with("part 10 'Aon9'"), "{err}");
        // fxc STAT.
        let bytes = build(&[(b"STAT", &stat_fxc)]);
        let c = Container::parse(&bytes).unwrap();
        let d = decode_part(&c, &c.part(0).unwrap()).unwrap();
        assert_eq!(d.kind(), "stat");
        assert!(d.issues().is_empty());
        assert!(has_decoder(PartName::SRCI));
        assert!(has_decoder(PartName::PSV0));
        assert!(!has_decoder(PartName(*b"FKE0")));
    }

    #[test]
    fn decodes_each_part_family_and_takes_psv0_stage_from_program() {
        let words = |w: &[u32]| -> Vec<u8> { w.iter().flat_map(|v| v.to_le_bytes()).collect() };
        let dxil = build_program_data(6, 0, ShaderKind::Vertex, 1, 0, b"BC\xc0\xde");
        let mut psv0 = words(&[24]);
        psv0.extend_from_slice(&[0; 24]);
        psv0.extend_from_slice(&words(&[0]));
        let bytes = build(&[
            (b"SFI0", &[1, 0, 0, 0, 0, 0, 0, 0]),
            (b"ISG1", &words(&[0, 8])),
            (b"OSGN", &words(&[0, 8])),
            (b"RTS0", &words(&[2, 0, 24, 0, 24, 0])),
            (b"PSV0", &psv0),
            (b"DXIL", &dxil),
        ]);
        let c = Container::parse(&bytes).unwrap();
        assert_eq!(c.stage(), Some(ShaderKind::Vertex));
        let kinds: Vec<&str> = decode_all(&c)
            .iter()
            .map(|(_, d)| d.as_ref().map(|d| d.kind()).unwrap())
            .collect();
        assert_eq!(
            kinds,
            [
                "feature_flags",
                "signature",
                "signature",
                "root_signature",
                "psv0",
                "program"
            ]
        );
        match decode_part(&c, &c.part(4).unwrap()).unwrap() {
            Decoded::Psv0(p) => assert_eq!(p.stage, Some(ShaderKind::Vertex)),
            other => panic!("{other:?}"),
        }
        let no_program = build(&[(b"PSV0", &psv0)]);
        let c = Container::parse(&no_program).unwrap();
        assert_eq!(c.stage(), None);
    }

    #[test]
    fn issues_are_collected() {
        let msf = build_msf(512, 6, 1);
        let bytes = build(&[(b"ILDN", &[1, 0, 0, 0, 0, 0, 0, 0]), (b"PRIV", &msf)]);
        let c = Container::parse(&bytes).unwrap();
        let all = decode_all(&c);
        assert_eq!(all[0].1.as_ref().unwrap().issues().len(), 1);
        assert_eq!(all[1].1.as_ref().unwrap().issues().len(), 1);
    }
}
