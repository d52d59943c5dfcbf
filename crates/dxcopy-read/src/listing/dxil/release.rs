//! Which dxc release wrote a DXIL container, and how that release's listing
//! (`dxc -dumpbin`, `/Fc`, the `#if 0` block of `/Fh`) differs from the
//! others — one table of rules, read by the header and module printers
//! (docs/format/dxil-listing-header.md, "Releases").
//!
//! A container names its compiler in up to four places, read in this order
//! by [`DxcRelease::detect`]:
//! 1. the VERS part's version string (`1.8.2505.28`, dxc 1.8.2505 on);
//! 2. the module's `llvm.ident` (`dxcoob 1.7.2212.12 (8c9d92be7)`,
//!    `dxc 1.2`, `dxcxbox 2410.2501.11901.10020`, or LLVM's own
//!    `clang version 3.7 (tags/RELEASE_370/final)` that dxc 1.3–1.6 wrote);
//! 3. the validator version `dx.valver` (dxc 1.N validates as 1.N unless told
//!    otherwise), which places an ident without a version in its line;
//! 4. the PSV0 record size, a floor when nothing else is known.
//!
//! A rule in [`LISTING_RULES`] holds from a public release on (compared with
//! [`DxcRelease::version`]); for builds known only by their build month
//! (Xbox `dxcxbox`), from the month of the dxc commit that introduced it;
//! and for development builds (`dxc(private) 1.8.0.4575 (branch, sha)`,
//! whose fourth number is `git rev-list --count HEAD`, plus 10000 on
//! `main`: dxc's `utils/version/gen_version.py`), from that commit's own
//! count.

use std::fmt;

use crate::container::Container;
use crate::dxil::metadata::DxilMetadata;
use crate::dxil::model::Module;
use crate::name::PartName;
use crate::program::Program;
use crate::psv0;
use crate::version::CompilerVersion;

/// A dxc release: its version line, and the build month when known.
///
/// Ordered by version then month (`1.8.2403` < `1.8.2502` < `1.9`), an
/// unknown month counting as the line's newest public release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DxcRelease {
    /// Major version (1).
    pub major: u16,
    /// Minor version (2 to 9, 10 …).
    pub minor: u16,
    /// Build month as `yymm` (`2502` for `1.8.2502`); `None` when the file
    /// does not tell.
    pub month: Option<u16>,
    /// Where the release was learnt from, and so how rules apply.
    pub origin: ReleaseOrigin,
}

/// How a [`DxcRelease`] was identified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReleaseOrigin {
    /// A public release (`dxcoob 1.7.2212.12`, VERS `1.8.2505.28`, or a
    /// user's `--disasm-format=1.8.2403`): rules apply by release.
    Public,
    /// A build known by its month only (`dxcxbox 2406.2406.…`): rules apply
    /// by the month of the commit that introduced them.
    BuildMonth,
    /// The version line only (`dxc 1.2`, `clang version 3.7` with
    /// `dx.valver` 1.6): rules apply as for the line's newest public
    /// release in [`PUBLIC_RELEASES`].
    Line,
    /// A development build (`dxc(private) 1.8.0.4575`) of the dxc history
    /// with this many commits (`git rev-list --count`): a rule applies when
    /// its commit is among them.
    DevBuild(u32),
}

/// dxc's public releases (`git tag` of microsoft/DirectXShaderCompiler):
/// `(major, minor, yymm)`. A version line known without its month is taken
/// as its newest release here.
pub const PUBLIC_RELEASES: &[(u16, u16, u16)] = &[
    (1, 2, 1805),
    (1, 3, 1811),
    (1, 4, 1907),
    (1, 5, 2010),
    (1, 6, 2112),
    (1, 7, 2308),
    (1, 8, 2505),
    (1, 9, 2607),
    (1, 10, 2605),
];

/// A way the dxc listing changed between releases: each rule holds from the
/// release named in [`LISTING_RULES`] on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ListingRule {
    /// The SFI0 notes name bits 19–21 (shading rate, raytracing tier 1.1,
    /// sampler feedback); before, only bits 0–18 have names.
    FeatureNamesDxil15,
    /// Bits 22–28 have names (64-bit atomics, derivatives in mesh and
    /// amplification shaders, descriptor heap indexing; bit 27
    /// `<RESERVED>`).
    FeatureNamesDxil16,
    /// Bits 29–30 have names (advanced texture ops, writeable MSAA textures).
    FeatureNamesDxil17,
    /// Bit 27 is `Wave Matrix`, not `<RESERVED>`.
    FeatureWaveMatrixName,
    /// Bits 31–32 have names (SampleCmp with gradient or bias, extended
    /// command info).
    FeatureNamesDxil18,
    /// `; Note: shader has optional feature flags set:` for bits 40 and up.
    OptionalFeatureNotes,
    /// The module's patch-constant signature table is titled `Patch
    /// Constant signature:` (before: `Patch Constant signature signature:`),
    /// and mesh shaders get `Vertex Output` / `Primitive Output` tables.
    ModuleSignatureTitles,
    /// The PSG1 table is titled `Patch Constant signature:` (before: `Patch
    /// Constant signature signature:`).
    PartPatchConstantTitle,
    /// Struct members' closing line ends its name with `;` (`} s;`).
    StructNameSemicolon,
    /// Structured buffer members have their offsets from the module's data
    /// layout (before: their constant-buffer offsets).
    StructuredBufferDataLayout,
    /// A Texture2DMS dimension prints its sample count as digits (`2dMS4`;
    /// before, dxc appended the count as one raw byte).
    SampleCountDigits,
    /// `; WaveSize=N` in the runtime information when the minimum and
    /// maximum wave lane counts agree.
    PsvWaveSize,
    /// Compute, amplification and mesh shaders get their runtime
    /// information (`; Compute Shader`, `; NumThreads=(x,y,z)`, mesh output
    /// topology).
    PsvComputeStages,
    /// The runtime information is the `;PSVRuntimeInfo:` block of
    /// DxilPipelineStateValidation (stage, wave lane counts, signature
    /// element and vector counts, entry name).
    PsvRuntimeInfoBlock,
    /// The raytracing pipeline flag 0x400 is named
    /// `RAYTRACING_PIPELINE_FLAG_ALLOW_OPACITY_MICROMAPS` in the subobjects
    /// (before: `<invalid RaytracingPipelineFlags>`).
    OpacityMicromapsFlagName,
    /// The PSV record's own stage byte overrides the program's kind in the
    /// `;PSVRuntimeInfo:` block, and `NumBytesGroupSharedMemory` is printed.
    PsvRuntimeInfo4,
    /// The module listing's ` ; line:N col:M` comment after an instruction
    /// with a debug location, and ` ; var:"name" !DIExpression(…)` after
    /// `llvm.dbg.*` calls.
    DebugLineComments,
    /// The ` ; var:` comment ends with ` func:"name"`.
    DebugVariableFunction,
}

/// One rule's row: the first public release that prints it, the month of
/// the dxc commit that introduced it, and that commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleRow {
    /// The rule.
    pub rule: ListingRule,
    /// First public release with it: `(major, minor, yymm)`.
    pub since: (u16, u16, u16),
    /// Month (`yymm`) of the commit that introduced it.
    pub commit_month: u16,
    /// That commit in microsoft/DirectXShaderCompiler.
    pub commit: &'static str,
    /// `git rev-list --count` of that commit: the commits a development
    /// build must have to print the rule.
    pub commit_count: u32,
}

const fn row(
    rule: ListingRule,
    since: (u16, u16, u16),
    commit_month: u16,
    (commit, commit_count): (&'static str, u32),
) -> RuleRow {
    RuleRow {
        rule,
        since,
        commit_month,
        commit,
        commit_count,
    }
}

/// The table: every release-dependent listing rule (listing printers add
/// their rows here).
pub const LISTING_RULES: &[RuleRow] = &[
    row(
        ListingRule::FeatureNamesDxil15,
        (1, 4, 1907),
        1907,
        ("6bac49fd6", 2238),
    ),
    row(
        ListingRule::FeatureNamesDxil16,
        (1, 6, 2104),
        2012,
        ("d574d27c1", 2883),
    ),
    row(
        ListingRule::FeatureNamesDxil17,
        (1, 7, 2207),
        2202,
        ("b338314f6", 3441),
    ),
    row(
        ListingRule::FeatureWaveMatrixName,
        (1, 8, 2403),
        2306,
        ("7f6d946c4", 3942),
    ),
    row(
        ListingRule::FeatureNamesDxil18,
        (1, 8, 2403),
        2401,
        ("ae9b762a3", 4409),
    ),
    row(
        ListingRule::OptionalFeatureNotes,
        (1, 8, 2403),
        2402,
        ("9c518dbd9", 4458),
    ),
    row(
        ListingRule::ModuleSignatureTitles,
        (1, 4, 1907),
        1907,
        ("968fe4113", 2276),
    ),
    row(
        ListingRule::PartPatchConstantTitle,
        (1, 8, 2502),
        2407,
        ("6f1c8e244", 4670),
    ),
    row(
        ListingRule::StructNameSemicolon,
        (1, 4, 1907),
        1905,
        ("7342a3b9b", 2167),
    ),
    row(
        ListingRule::StructuredBufferDataLayout,
        (1, 4, 1907),
        1811,
        ("cfdf78c9c", 1670),
    ),
    row(
        ListingRule::SampleCountDigits,
        (1, 6, 2104),
        2102,
        ("354329a28", 2986),
    ),
    row(
        ListingRule::PsvWaveSize,
        (1, 6, 2104),
        2012,
        ("d574d27c1", 2883),
    ),
    row(
        ListingRule::PsvComputeStages,
        (1, 7, 2207),
        2205,
        ("69627993e", 3578),
    ),
    row(
        ListingRule::PsvRuntimeInfoBlock,
        (1, 8, 2502),
        2408,
        ("8a677d22c", 4712),
    ),
    row(
        ListingRule::PsvRuntimeInfo4,
        (1, 8, 2502),
        2408,
        ("8a677d22c", 4712),
    ),
    row(
        ListingRule::DebugLineComments,
        (1, 5, 2010),
        2003,
        ("8d79e009a", 2568),
    ),
    row(
        ListingRule::DebugVariableFunction,
        (1, 6, 2112),
        2108,
        ("9f771648e", 3215),
    ),
    row(
        ListingRule::OpacityMicromapsFlagName,
        (1, 8, 2505),
        2503,
        ("206b77577", 4869),
    ),
];

impl ListingRule {
    /// Every rule (each has one row in [`LISTING_RULES`]).
    pub const ALL: &'static [ListingRule] = &[
        ListingRule::FeatureNamesDxil15,
        ListingRule::FeatureNamesDxil16,
        ListingRule::FeatureNamesDxil17,
        ListingRule::FeatureWaveMatrixName,
        ListingRule::FeatureNamesDxil18,
        ListingRule::OptionalFeatureNotes,
        ListingRule::ModuleSignatureTitles,
        ListingRule::PartPatchConstantTitle,
        ListingRule::StructNameSemicolon,
        ListingRule::StructuredBufferDataLayout,
        ListingRule::SampleCountDigits,
        ListingRule::PsvWaveSize,
        ListingRule::PsvComputeStages,
        ListingRule::PsvRuntimeInfoBlock,
        ListingRule::OpacityMicromapsFlagName,
        ListingRule::PsvRuntimeInfo4,
        ListingRule::DebugLineComments,
        ListingRule::DebugVariableFunction,
    ];
}

impl DxcRelease {
    /// The newest release this crate knows; what a file that names no
    /// release is printed as.
    pub const LATEST: DxcRelease = DxcRelease {
        major: 1,
        minor: 9,
        month: Some(2602),
        origin: ReleaseOrigin::Public,
    };

    /// A public release `major.minor.yymm`.
    pub const fn public(major: u16, minor: u16, month: u16) -> DxcRelease {
        DxcRelease {
            major,
            minor,
            month: Some(month),
            origin: ReleaseOrigin::Public,
        }
    }

    /// A version line without its month (`dxc 1.2`).
    pub const fn line(major: u16, minor: u16) -> DxcRelease {
        DxcRelease {
            major,
            minor,
            month: None,
            origin: ReleaseOrigin::Line,
        }
    }

    /// `(major, minor, yymm)`, the month of a [`ReleaseOrigin::Line`] being
    /// its newest public release's (a line newer than the table: 9999).
    pub fn version(&self) -> (u16, u16, u16) {
        let month = self.month.unwrap_or_else(|| {
            PUBLIC_RELEASES
                .iter()
                .filter(|(major, minor, _)| (*major, *minor) == (self.major, self.minor))
                .map(|(_, _, month)| *month)
                .max()
                .unwrap_or(9999)
        });
        (self.major, self.minor, month)
    }

    /// Whether this release prints `rule`.
    pub fn has(&self, rule: ListingRule) -> bool {
        // Every rule has a row (a unit test checks it); one without would
        // hold for every release.
        let Some(row) = LISTING_RULES.iter().find(|row| row.rule == rule) else {
            return true;
        };
        match (self.origin, self.month) {
            (ReleaseOrigin::BuildMonth, Some(month)) => month >= row.commit_month,
            (ReleaseOrigin::DevBuild(commits), _) => commits >= row.commit_count,
            _ => self.version() >= row.since,
        }
    }

    /// The release a user names: `1.7`, `1.8.2403` or `1.8.2403.37`
    /// (`--disasm-format`); `None` for anything else.
    pub fn parse(text: &str) -> Option<DxcRelease> {
        let mut fields = text.split('.');
        let major: u16 = parse_number(fields.next()?)?;
        let minor: u16 = parse_number(fields.next()?)?;
        if major != 1 {
            return None;
        }
        let month = match fields.next() {
            None => None,
            Some(build) => Some(parse_month(build)?),
        };
        if let Some(patch) = fields.next() {
            parse_number::<u32>(patch)?;
        }
        if fields.next().is_some() {
            return None;
        }
        Some(match month {
            Some(month) => DxcRelease::public(major, minor, month),
            None => DxcRelease::line(major, minor),
        })
    }

    /// The release an `llvm.ident` string names, with the validator version
    /// placing idents that carry no version of their own; `None` when the
    /// ident is not one of dxc's.
    pub fn from_ident(ident: &str, validator: Option<(u32, u32)>) -> Option<DxcRelease> {
        let ident = ident.trim();
        let mut words = ident.split_whitespace();
        let first = words.next()?;
        let validator_line = validator
            .and_then(|(major, minor)| {
                Some((u16::try_from(major).ok()?, u16::try_from(minor).ok()?))
            })
            .filter(|(major, minor)| *major == 1 && *minor >= 2);
        match first {
            // `dxcoob 1.7.2212.12 (8c9d92be7)`, `dxc 1.2`, `dxcoob 2019.05.00`,
            // `dxc(private) 1.8.0.4575 (branch, 416fab6b5)`.
            "dxcoob" | "dxc" | "dxc(private)" => {
                let version = words.next()?;
                if let Some(release) = DxcRelease::parse(version) {
                    return Some(release);
                }
                if let Some(release) = DxcRelease::dev_build(version) {
                    return Some(release);
                }
                // Another build of a version line (`1.8.0.0`, outside git): its line.
                let mut fields = version.split('.');
                if let (Some("1"), Some(minor)) = (fields.next(), fields.next()) {
                    if let Some(minor) = parse_number::<u16>(minor) {
                        return Some(DxcRelease::line(1, minor));
                    }
                }
                // A date-style version (`2019.05.00`): the validator's line.
                let (major, minor) = validator_line?;
                Some(DxcRelease::line(major, minor))
            }
            // `dxcxbox 2410.2501.11901.10020`: GDK edition, build month, ….
            "dxcxbox" => {
                let mut fields = words.next()?.split('.');
                let edition = fields.next().and_then(parse_month);
                let build = fields.next().and_then(parse_month);
                let month = build.or(edition)?;
                let (major, minor) = validator_line.unwrap_or((1, 8));
                Some(DxcRelease {
                    major,
                    minor,
                    month: Some(month),
                    origin: ReleaseOrigin::BuildMonth,
                })
            }
            // dxc 1.3–1.6 kept LLVM's own ident.
            "clang" if ident.starts_with("clang version 3.7") => {
                let (major, minor) = validator_line.unwrap_or((1, 3));
                Some(DxcRelease::line(major, minor.clamp(3, 6)))
            }
            _ => None,
        }
    }

    /// A development build's version `1.N.0.C` (dxc's
    /// `utils/version/gen_version.py`: the third number 0, the fourth `git
    /// rev-list --count HEAD`, plus 10000 when built on `main`); `None` for
    /// anything else, and for a count of 0 (a build outside git, which
    /// tells nothing).
    pub fn dev_build(version: &str) -> Option<DxcRelease> {
        let mut fields = version.split('.');
        let major: u16 = parse_number(fields.next()?)?;
        let minor: u16 = parse_number(fields.next()?)?;
        let rev = fields.next()?;
        let count: u32 = parse_number(fields.next()?)?;
        if major != 1 || rev != "0" || count == 0 || fields.next().is_some() {
            return None;
        }
        // The history has far fewer than 10000 commits, so a count from
        // 10000 on is a `main` build's.
        let commits = if count >= 10_000 {
            count - 10_000
        } else {
            count
        };
        Some(DxcRelease {
            major,
            minor,
            month: None,
            origin: ReleaseOrigin::DevBuild(commits),
        })
    }

    /// The release a VERS part names: its version string when it reads as
    /// `1.N.yymm[.patch]` or a development build's `1.N.0.C`, else its
    /// major and minor.
    pub fn from_vers(vers: &CompilerVersion<'_>) -> Option<DxcRelease> {
        let text = std::str::from_utf8(vers.version_string).ok()?;
        if let Some(release) = DxcRelease::parse(text.trim()) {
            return Some(release);
        }
        if let Some(release) = DxcRelease::dev_build(text.trim()) {
            return Some(release);
        }
        (vers.major == 1 && vers.minor >= 2).then(|| DxcRelease::line(vers.major, vers.minor))
    }

    /// The oldest release that writes a PSV0 record of `version`.
    pub fn from_psv_version(version: u8) -> DxcRelease {
        match version {
            0 => DxcRelease::line(1, 2),
            1 => DxcRelease::line(1, 4),
            2 => DxcRelease::line(1, 6),
            3 => DxcRelease::line(1, 8),
            _ => DxcRelease::LATEST,
        }
    }

    /// The release from what a container tells ([module docs](self)):
    /// VERS, then `llvm.ident` with `dx.valver` (one that knows the build
    /// month first), then the PSV0 version; [`DxcRelease::LATEST`] when
    /// none names one.
    pub fn detect(
        vers: Option<&CompilerVersion<'_>>,
        idents: &[String],
        validator: Option<(u32, u32)>,
        psv_version: Option<u8>,
    ) -> DxcRelease {
        let from_vers = vers.and_then(DxcRelease::from_vers);
        let from_ident = idents
            .iter()
            .find_map(|ident| DxcRelease::from_ident(ident, validator));
        // A release known to its build month or commit wins over a version
        // line.
        [from_vers, from_ident]
            .into_iter()
            .flatten()
            .find(|release| {
                release.month.is_some() || matches!(release.origin, ReleaseOrigin::DevBuild(_))
            })
            .or(from_vers)
            .or(from_ident)
            .or_else(|| psv_version.map(DxcRelease::from_psv_version))
            .unwrap_or(DxcRelease::LATEST)
    }

    /// The release that wrote `container`: [`DxcRelease::detect`] over its
    /// VERS part, the DXIL (or ILDB) module's `llvm.ident` and `dx.valver`,
    /// and its PSV0 part. The module is read here; a caller that has read
    /// it already passes it to [`DxcRelease::of_module`]. Parts that do not
    /// decode are passed over.
    pub fn of_container(container: &Container<'_>) -> DxcRelease {
        let module = [PartName::DXIL, PartName::ILDB]
            .into_iter()
            .filter_map(|name| container.find(name))
            .filter_map(|part| Program::parse(&part).ok())
            .find_map(|program| Module::parse(program.bitcode).ok());
        DxcRelease::of_module(container, module.as_ref())
    }

    /// [`DxcRelease::of_container`] with the module already read.
    pub fn of_module(container: &Container<'_>, module: Option<&Module>) -> DxcRelease {
        let vers = container
            .find(PartName::VERS)
            .and_then(|part| CompilerVersion::parse(&part).ok());
        let idents = module.map(module_idents).unwrap_or_default();
        let validator = module.and_then(|module| {
            DxilMetadata::read(module)
                .ok()
                .and_then(|metadata| metadata.validator_version)
        });
        let psv_version = container.find(PartName::PSV0).and_then(|part| {
            let size = part.data.get(..4)?;
            Some(psv0::version_for_size(u32::from_le_bytes(
                size.try_into().ok()?,
            )))
        });
        DxcRelease::detect(vers.as_ref(), &idents, validator, psv_version)
    }
}

/// The strings of `llvm.ident` (`!llvm.ident = !{!0}`, `!0 = !{!"…"}`).
fn module_idents(module: &Module) -> Vec<String> {
    let Some(named) = module.named_metadata(b"llvm.ident") else {
        return Vec::new();
    };
    named
        .operands
        .iter()
        .filter_map(|&node| module.metadata_node(node))
        .flat_map(|operands| operands.iter().flatten())
        .filter_map(|&id| module.metadata_string(id))
        .map(|text| String::from_utf8_lossy(text).into_owned())
        .collect()
}

impl PartialOrd for DxcRelease {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for DxcRelease {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.version().cmp(&other.version())
    }
}

impl fmt::Display for DxcRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.origin, self.month) {
            (ReleaseOrigin::BuildMonth, Some(month)) => {
                write!(f, "{}.{} (build {month:04})", self.major, self.minor)
            }
            (ReleaseOrigin::DevBuild(commits), _) => {
                write!(
                    f,
                    "{}.{} (development build, commit {commits})",
                    self.major, self.minor
                )
            }
            (_, Some(month)) => write!(f, "{}.{}.{month:04}", self.major, self.minor),
            (_, None) => write!(f, "{}.{}", self.major, self.minor),
        }
    }
}

/// A listing layout a user can ask for with `--disasm-format`: an fxc
/// release (DXBC listings) or a dxc release (DXIL listings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListingFormat {
    /// An fxc release (`6.3`, `10.1`, …).
    Fxc(crate::listing::dxbc::FxcRelease),
    /// A dxc release (`1.7`, `1.8.2403`, …).
    Dxc(DxcRelease),
}

impl ListingFormat {
    /// An fxc release name or a dxc release (`1.N[.yymm[.patch]]`); `None`
    /// for anything else.
    pub fn parse(text: &str) -> Option<ListingFormat> {
        crate::listing::dxbc::FxcRelease::parse(text)
            .map(ListingFormat::Fxc)
            .or_else(|| DxcRelease::parse(text).map(ListingFormat::Dxc))
    }

    /// The fxc release, if this names one.
    pub fn fxc(self) -> Option<crate::listing::dxbc::FxcRelease> {
        match self {
            ListingFormat::Fxc(release) => Some(release),
            ListingFormat::Dxc(_) => None,
        }
    }

    /// The dxc release, if this names one.
    pub fn dxc(self) -> Option<DxcRelease> {
        match self {
            ListingFormat::Dxc(release) => Some(release),
            ListingFormat::Fxc(_) => None,
        }
    }
}

impl fmt::Display for ListingFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListingFormat::Fxc(release) => release.fmt(f),
            ListingFormat::Dxc(release) => release.fmt(f),
        }
    }
}

fn parse_number<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A `yymm` build month (`2403`).
fn parse_month(text: &str) -> Option<u16> {
    let month: u16 = parse_number(text)?;
    (text.len() == 4 && (1..=12).contains(&(month % 100))).then_some(month)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_one_row() {
        for rule in ListingRule::ALL {
            let rows = LISTING_RULES.iter().filter(|r| r.rule == *rule).count();
            assert_eq!(rows, 1, "{rule:?}");
        }
        assert_eq!(LISTING_RULES.len(), ListingRule::ALL.len());
    }

    #[test]
    fn idents_name_their_release() {
        type Case<'a> = (&'a str, Option<(u32, u32)>, &'a str);
        let cases: &[Case<'_>] = &[
            ("dxcoob 1.7.2212.12 (8c9d92be7)", Some((1, 7)), "1.7.2212"),
            ("dxcoob 1.8.2505.28 (9efbb6c32)", Some((1, 9)), "1.8.2505"),
            ("dxc 1.2", Some((1, 4)), "1.2"),
            (
                "clang version 3.7 (tags/RELEASE_370/final)",
                Some((1, 6)),
                "1.6",
            ),
            ("clang version 3.7 (tags/RELEASE_370/final)", None, "1.3"),
            ("dxcoob 2019.05.00", Some((1, 7)), "1.7"),
            (
                "dxcoob 1.8.0.14620 (main, 1234abcd)",
                Some((1, 8)),
                "1.8 (development build, commit 4620)",
            ),
            (
                "dxc(private) 1.8.0.4575 (416fab6b5)",
                Some((1, 8)),
                "1.8 (development build, commit 4575)",
            ),
            (
                "dxc(private) 1.8.0.0 (private, 00000000)",
                Some((1, 8)),
                "1.8",
            ),
            (
                "dxcxbox 2410.2501.11901.10020",
                Some((1, 8)),
                "1.8 (build 2501)",
            ),
            (
                "dxcxbox 2303.2305.12205.15418",
                Some((1, 7)),
                "1.7 (build 2305)",
            ),
        ];
        for (ident, validator, expected) in cases {
            let release = DxcRelease::from_ident(ident, *validator).unwrap();
            assert_eq!(release.to_string(), *expected, "{ident}");
        }
        assert_eq!(DxcRelease::from_ident("LLVM 22", None), None);
        assert_eq!(DxcRelease::from_ident("", None), None);
    }

    #[test]
    fn rules_apply_by_release_or_by_commit_month() {
        let block = ListingRule::PsvRuntimeInfoBlock;
        assert!(!DxcRelease::public(1, 8, 2407).has(block));
        assert!(DxcRelease::public(1, 8, 2502).has(block));
        assert!(DxcRelease::public(1, 9, 2602).has(block));
        let xbox =
            |month| DxcRelease::from_ident(&format!("dxcxbox 2410.{month}.1.1"), Some((1, 8)));
        assert!(xbox(2501).unwrap().has(block));
        assert!(!xbox(2406).unwrap().has(block));
        // A development build: by its commit count against the rule's
        // commit (8a677d22c, the 4712th).
        let dev = |n: u32| DxcRelease::from_ident(&format!("dxc(private) 1.8.0.{n} (x, 0)"), None);
        assert!(!dev(4575).unwrap().has(block));
        assert!(!dev(4711).unwrap().has(block));
        assert!(dev(4712).unwrap().has(block));
        assert!(dev(14712).unwrap().has(block));
        assert!(!dev(14711).unwrap().has(block));
        // A line without month: its newest public release (1.6.2112).
        assert!(DxcRelease::line(1, 6).has(ListingRule::PsvWaveSize));
        assert!(!DxcRelease::line(1, 6).has(ListingRule::PsvComputeStages));
        assert!(!DxcRelease::line(1, 2).has(ListingRule::StructNameSemicolon));
    }

    #[test]
    fn user_choices_parse() {
        assert_eq!(DxcRelease::parse("1.7"), Some(DxcRelease::line(1, 7)));
        assert_eq!(
            DxcRelease::parse("1.8.2403"),
            Some(DxcRelease::public(1, 8, 2403))
        );
        assert_eq!(
            DxcRelease::parse("1.8.2403.37"),
            Some(DxcRelease::public(1, 8, 2403))
        );
        for bad in [
            "",
            "1",
            "2.1",
            "1.x",
            "1.8.24",
            "1.8.2413",
            "1.8.2403.1.2",
            "6.3",
        ] {
            assert_eq!(DxcRelease::parse(bad), None, "{bad}");
        }
        assert!(matches!(
            ListingFormat::parse("6.3"),
            Some(ListingFormat::Fxc(_))
        ));
        assert!(matches!(
            ListingFormat::parse("10.1"),
            Some(ListingFormat::Fxc(_))
        ));
        assert!(matches!(
            ListingFormat::parse("1.8"),
            Some(ListingFormat::Dxc(_))
        ));
        assert_eq!(ListingFormat::parse("3.1"), None);
    }

    #[test]
    fn detection_prefers_vers_then_ident_then_psv() {
        let idents = vec!["dxcoob 1.7.2212.12 (8c9d92be7)".to_string()];
        assert_eq!(
            DxcRelease::detect(None, &idents, Some((1, 7)), Some(2)).to_string(),
            "1.7.2212"
        );
        assert_eq!(
            DxcRelease::detect(None, &[], None, Some(2)).to_string(),
            "1.6"
        );
        assert_eq!(
            DxcRelease::detect(None, &[], None, None),
            DxcRelease::LATEST
        );
    }
}
