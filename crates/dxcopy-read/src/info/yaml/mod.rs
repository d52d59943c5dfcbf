//! The obj2yaml view: the `--- !dxcontainer` document that LLVM's `obj2yaml`
//! prints for a container (docs/format/obj2yaml.md).
//!
//! For every file that `obj2yaml` from LLVM 22.1.8 accepts, [`to_obj2yaml`]
//! returns the same bytes (checked against the shared corpus by
//! `tests/conformance.rs`). Part data is decoded with the `dxcopy-read`
//! decoders in their LLVM-compatible modes, so LLVM's reading quirks (the
//! PSV0 string table aligned in file offsets, descriptor ranges read right
//! after the table header, truncated arrays cut short) are reproduced.
//!
//! Where obj2yaml 22 rejects a file, this view still prints when it can, and
//! differs from obj2yaml only in that obj2yaml printed nothing:
//!
//! * PSV0 without a DXIL part: version 1–3 records are printed with their own
//!   `ShaderStage`; a version-0 record has no stage and is an error
//!   ([`YamlError::PsvWithoutProgram`]).
//! * PSV0 that LLVM misreads (a part at a file offset that is not a multiple of
//!   4, as older dxc wrote them): the strict decoding is printed.
//! * RTS0 1.2 with root CBV/SRV/UAV descriptors (LLVM: "Invalid Root Signature
//!   version: 3"), or laid out so that LLVM's bounds rule rejects it: the strict
//!   decoding is printed, descriptors with their flags as for 1.1.
//! * Signature names stored before the element array, duplicate DXIL, SFI0,
//!   HASH, PSV0 or RTS0 parts: printed (each part its own content; the shader
//!   kind comes from the first DXIL part).
//!
//! Values that have no name in LLVM's enumerations make obj2yaml print the key
//! and nothing else (its "bad runtime enum value" path in a release build); the
//! same output is reproduced.
//!
//! With [`YamlOptions::upstream_keys`] the parts LLVM 22 shows as `Name`/`Size`
//! only but upstream LLVM decodes (ILDB, ILDN, VERS, SRCI, PRIV) get the keys
//! upstream's tests show (`Program`, `DebugName`, `CompilerVersion`,
//! `SourceInfo`, `PrivateData`), and PSV0 may take its shader kind from ILDB.
//! There is no upstream binary to compare against, so that output follows the
//! upstream test expectations (docs/format/obj2yaml.md §2) rather than a byte-checked oracle.
//!
//! `emitter` is the general YAML writer (a model of LLVM's `yaml::Output`),
//! `parts` the printers of each part's keys; which parts get them is the
//! LLVM column of the part table ([`crate::part_table::Llvm`]).

mod emitter;
mod parts;

pub use emitter::format_g;

use crate::error::PartRef;
use crate::part_table::{part_info, Family, Llvm};
use crate::signature::Signature;
use crate::{Container, Part, PartName, Program, ReadError};
use emitter::{hex, Emitter};
use std::fmt;

/// Options of the obj2yaml view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct YamlOptions {
    /// Print the keys upstream LLVM (main) prints for ILDB, ILDN, VERS, SRCI and
    /// PRIV instead of `Name`/`Size` only (what LLVM 22.1.8 prints).
    pub upstream_keys: bool,
}

/// Why the YAML view could not be produced.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum YamlError {
    /// A part whose content the view prints could not be decoded.
    Decode(ReadError),
    /// A version-0 PSV0 record has no shader stage of its own and the container
    /// has no DXIL part (nor ILDB with `upstream_keys`) to take it from. obj2yaml
    /// 22 rejects every PSV0 without DXIL ("Cannot fully parse pipeline state
    /// validation information without DXIL part."); upstream also accepts ILDB.
    PsvWithoutProgram {
        /// The PSV0 part.
        part: PartRef,
    },
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            YamlError::Decode(e) => write!(f, "{e}"),
            YamlError::PsvWithoutProgram { part } => write!(
                f,
                "part {} 'PSV0' at offset {:#x}: a version-0 PSV0 needs the shader kind of a DXIL \
                 part, and there is none (obj2yaml 22 rejects any PSV0 without DXIL; upstream \
                 LLVM also accepts ILDB, which the upstream-keys option enables)",
                part.index, part.offset
            ),
        }
    }
}

impl std::error::Error for YamlError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            YamlError::Decode(e) => Some(e),
            YamlError::PsvWithoutProgram { .. } => None,
        }
    }
}

impl From<ReadError> for YamlError {
    fn from(e: ReadError) -> Self {
        YamlError::Decode(e)
    }
}

/// Renders `container` as obj2yaml does (see the module documentation).
pub fn to_obj2yaml(container: &Container<'_>, opts: &YamlOptions) -> Result<String, YamlError> {
    let mut out = Emitter::new();
    let header = container.header();
    out.key(0, "Header");
    out.begin_mapping();
    out.key(2, "Hash");
    out.flow(header.digest.iter().map(|b| hex(u64::from(*b))));
    out.key(2, "Version");
    out.begin_mapping();
    out.key(4, "Major");
    out.scalar(&header.major.to_string());
    out.key(4, "Minor");
    out.scalar(&header.minor.to_string());
    out.key(2, "FileSize");
    out.scalar(&header.file_size.to_string());
    out.key(2, "PartCount");
    out.scalar(&header.part_count.to_string());
    out.key(2, "PartOffsets");
    out.flow(container.parts().map(|p| p.offset.to_string()));

    let program_kind = program_shader_kind(container, opts)?;
    // LLVM keeps one decoded signature per kind, re-initialised by every part
    // of that name, and prints the last one for each of them.
    let mut last_signature: [Option<Signature<'_>>; 3] = [None, None, None];
    for part in container.parts() {
        if let Some(slot) = signature_slot(part.name) {
            last_signature[slot] = Signature::parse(&part)?;
        }
    }

    out.key(0, "Parts");
    if container.part_count() == 0 {
        out.empty_sequence();
    }
    for part in container.parts() {
        out.item_key(4, "Name");
        out.string(part.name.as_bytes());
        out.key(4, "Size");
        out.scalar(&part.size().to_string());
        if let Some(family) = keys_of(part.name, opts) {
            let sig = signature_slot(part.name).and_then(|slot| last_signature[slot].as_ref());
            part_keys(&mut out, container, &part, family, program_kind, sig)?;
        }
    }
    Ok(out.finish())
}

/// The family whose keys obj2yaml prints for parts called `name`, by the
/// LLVM column of the part table: LLVM 22's parts, and upstream's with
/// [`YamlOptions::upstream_keys`]; other parts get `Name` and `Size` only.
fn keys_of(name: PartName, opts: &YamlOptions) -> Option<Family> {
    let info = part_info(name)?;
    match info.llvm {
        Llvm::Release22 => info.family,
        Llvm::Upstream if opts.upstream_keys => info.family,
        Llvm::Upstream | Llvm::Unknown => None,
    }
}

/// Whether [`part_keys`] prints keys for `family` (checked for every part
/// the table says LLVM knows).
#[cfg(test)]
fn has_keys(family: Family) -> bool {
    match family {
        Family::Program
        | Family::FeatureFlags
        | Family::Hash
        | Family::Psv0
        | Family::RootSignature
        | Family::Signature
        | Family::DebugName
        | Family::Version
        | Family::SourceInfo
        | Family::Private => true,
        // No LLVM decodes these parts.
        Family::Statistics
        | Family::Shader
        | Family::Rdef
        | Family::Aon9
        | Family::Rdat
        | Family::DebugBlob => false,
    }
}

/// Prints the keys of `part`, decoded by `family`'s LLVM-compatible reader.
/// `signature` is LLVM's last decoded signature of the part's kind.
fn part_keys(
    out: &mut Emitter,
    container: &Container<'_>,
    part: &Part<'_>,
    family: Family,
    program_kind: Option<u16>,
    signature: Option<&Signature<'_>>,
) -> Result<(), YamlError> {
    match family {
        Family::Program => parts::program(out, container, part),
        Family::FeatureFlags => parts::sfi0(out, part),
        Family::Hash => parts::hash(out, part),
        Family::Psv0 => parts::psv0(out, part, program_kind),
        Family::RootSignature => parts::rts0(out, part),
        Family::Signature => {
            if let Some(sig) = signature {
                parts::signature(out, sig);
            }
            Ok(())
        }
        Family::DebugName => parts::upstream::debug_name(out, part),
        Family::Version => parts::upstream::compiler_version(out, part),
        Family::SourceInfo => parts::upstream::source_info(out, part),
        Family::Private => {
            parts::upstream::private_data(out, part);
            Ok(())
        }
        Family::Statistics
        | Family::Shader
        | Family::Rdef
        | Family::Aon9
        | Family::Rdat
        | Family::DebugBlob => Ok(()),
    }
}

/// LLVM keeps one decoded signature per kind (ISG1, OSG1, PSG1).
fn signature_slot(name: PartName) -> Option<usize> {
    [PartName::ISG1, PartName::OSG1, PartName::PSG1]
        .iter()
        .position(|n| *n == name)
}

/// The raw shader kind of the first DXIL part (or ILDB with upstream keys).
fn program_shader_kind(
    container: &Container<'_>,
    opts: &YamlOptions,
) -> Result<Option<u16>, YamlError> {
    let kind_of = |name: PartName| -> Result<Option<u16>, YamlError> {
        match container.find(name) {
            Some(part) => Ok(Some(
                Program::parse_llvm_compat(&part, container.data())?
                    .shader_kind
                    .raw(),
            )),
            None => Ok(None),
        }
    };
    let dxil = kind_of(PartName::DXIL)?;
    if dxil.is_some() || !opts.upstream_keys {
        return Ok(dxil);
    }
    kind_of(PartName::ILDB)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::PART_TABLE;

    #[test]
    fn every_part_llvm_knows_has_keys() {
        for info in PART_TABLE.iter().filter(|i| i.llvm != Llvm::Unknown) {
            let family = info.family.unwrap_or_else(|| panic!("{}", info.name));
            assert!(
                has_keys(family),
                "{}: no YAML keys for {family:?}",
                info.name
            );
        }
    }

    /// A contiguous container with a zero digest.
    fn container(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
        crate::testutil::build(parts)
    }

    fn words(values: &[u32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// ISG1 data: (system value, component type, min precision, name) per element.
    fn isg1(elements: &[(u32, u32, u32, &[u8])]) -> Vec<u8> {
        let n = elements.len() as u32;
        let mut out = words(&[n, 8]);
        let mut names = Vec::new();
        for (i, (sv, ct, mp, name)) in elements.iter().enumerate() {
            let offset = 8 + 32 * n + names.len() as u32;
            names.extend_from_slice(name);
            names.push(0);
            out.extend(words(&[0, offset, 0, *sv, *ct, i as u32]));
            out.extend([1, 0, 0, 0]);
            out.extend(words(&[*mp]));
        }
        out.extend(names);
        out
    }

    fn program(kind: u16) -> Vec<u8> {
        let mut p = vec![0x60, 0];
        p.extend(kind.to_le_bytes());
        p.extend(words(&[6]));
        p.extend(b"DXIL");
        p.extend([0, 1, 0, 0]);
        p.extend(words(&[16, 0]));
        p
    }

    fn yaml(bytes: &[u8], upstream_keys: bool) -> Result<String, YamlError> {
        let c = Container::parse(bytes).unwrap();
        to_obj2yaml(&c, &YamlOptions { upstream_keys })
    }

    /// The text from `Parts:` on.
    fn parts(bytes: &[u8], upstream_keys: bool) -> String {
        let text = yaml(bytes, upstream_keys).unwrap();
        text[text.find("\nParts:").unwrap() + 1..].to_string()
    }

    // Expected texts below are obj2yaml 22.1.8's output for the same bytes.

    #[test]
    fn empty_container() {
        let want = "--- !dxcontainer
Header:
  Hash:            [ 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, \n                     0x0, 0x0, 0x0, 0x0, 0x0, 0x0 ]
  Version:
    Major:           1
    Minor:           0
  FileSize:        32
  PartCount:       0
  PartOffsets:     [  ]
Parts:           []
...
";
        assert_eq!(yaml(&container(&[]), false).unwrap(), want);
    }

    #[test]
    fn unnamed_enum_values_print_the_key_only() {
        let bytes = container(&[(b"ISG1", &isg1(&[(17, 42, 7, b"A")]))]);
        let want = "Parts:
  - Name:            ISG1
    Size:            42
    Signature:
      Parameters:
        - Stream:          0
          Name:            A
          Index:           0
          SystemValue:     CompType:        Register:        0
          Mask:            1
          ExclusiveMask:   0
          MinPrecision:
...
";
        assert_eq!(parts(&bytes, false), want);
    }

    #[test]
    fn part_names_and_strings_are_quoted_like_llvm() {
        let bytes = container(&[(b"a:b\0", b"xx"), (b"-x y", b""), (b"\xc3\xa9ab", b"")]);
        let want = "Parts:
  - Name:            \"a:b\\0\"
    Size:            2
  - Name:            '-x y'
    Size:            0
  - Name:            \"\u{e9}ab\"
    Size:            0
...
";
        assert_eq!(parts(&bytes, false), want);
        let names: [&[u8]; 3] = [b"ab\xffcd", "x\u{85}y\u{200b}z\u{a0}".as_bytes(), b"-"];
        let sig = isg1(&names.map(|n| (0, 3, 0, n)));
        let text = parts(&container(&[(b"ISG1", &sig)]), false);
        let got: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("Name:  "))
            .skip(1)
            .collect();
        assert_eq!(
            got,
            [
                "          Name:            \"ab\u{fffd}\"",
                "          Name:            \"x\\Ny\\u200Bz\\_\"",
                "          Name:            '-'",
            ]
        );
    }

    #[test]
    fn empty_descriptor_table() {
        let mut rs = words(&[2, 1, 24, 0, 44, 0]);
        rs.extend(words(&[0, 0, 36, 0, 44]));
        let want = "Parts:
  - Name:            RTS0
    Size:            44
    RootSignature:
      Version:         2
      NumRootParameters: 1
      RootParametersOffset: 24
      NumStaticSamplers: 0
      StaticSamplersOffset: 44
      Parameters:
        - ParameterType:   DescriptorTable
          ShaderVisibility: All
          Table:
            NumRanges:       0
            RangesOffset:    44
            Ranges:          []
...
";
        assert_eq!(parts(&container(&[(b"RTS0", &rs)]), false), want);
    }

    #[test]
    fn sfi0_with_only_unnamed_bits_prints_every_key_false() {
        let bytes = container(&[(b"SFI0", &(1u64 << 40).to_le_bytes())]);
        let text = parts(&bytes, false);
        assert!(text.contains("    Flags:\n      Doubles:         false\n"));
        assert_eq!(text.matches("false\n").count(), 34);
    }

    #[test]
    fn where_obj2yaml_rejects_the_file() {
        // PSV0 v1 without DXIL: printed with the record's own stage.
        let mut psv = words(&[36]);
        psv.extend([0u8; 24]);
        psv.extend([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        psv.extend(words(&[0, 4, 0, 0]));
        let text = parts(&container(&[(b"PSV0", &psv)]), false);
        assert!(
            text.contains("      ShaderStage:     1\n      OutputPositionPresent: 0\n"),
            "{text}"
        );
        // PSV0 v0 without DXIL: no stage to print.
        let mut psv = words(&[24]);
        psv.extend([0u8; 24]);
        psv.extend(words(&[0]));
        let bytes = container(&[(b"PSV0", &psv)]);
        let err = yaml(&bytes, false).unwrap_err();
        assert!(matches!(err, YamlError::PsvWithoutProgram { part } if part.index == 0));
        // ... which upstream keys take from ILDB.
        let text = parts(&container(&[(b"PSV0", &psv), (b"ILDB", &program(1))]), true);
        assert!(
            text.contains("      ShaderStage:     1\n      OutputPositionPresent: 0\n"),
            "{text}"
        );
        assert!(text.contains("  - Name:            ILDB\n    Size:            24\n    Program:\n"));
        // RTS0 1.2 with a root CBV (LLVM 22: "Invalid Root Signature version: 3").
        let mut rs = words(&[3, 1, 24, 0, 48, 0]);
        rs.extend(words(&[2, 0, 36, 7, 8, 2]));
        let text = parts(&container(&[(b"RTS0", &rs)]), false);
        assert!(
            text.contains(
                "          Descriptor:\n            RegisterSpace:   8\n            ShaderRegister:  \
                 7\n            DATA_VOLATILE:   true\n"
            ),
            "{text}"
        );
        // A part that cannot be decoded at all is an error.
        let err = yaml(&container(&[(b"SFI0", &[1, 2, 3])]), false).unwrap_err();
        assert!(matches!(err, YamlError::Decode(_)));
    }

    /// An SRCI part laid out as upstream's `SRCIPart.yaml` test describes it,
    /// with the contents stored raw or zlib-compressed.
    fn srci(zlib: bool) -> Vec<u8> {
        let mut names = words(&[0, 1]);
        names.extend(28u16.to_le_bytes());
        names.extend(words(&[28, 0, 11, 40]));
        names.extend(b"fd_zs.hlsl\0\0");
        let content = b"float4 main() : SV_Target { return 0; }\0";
        let mut entries = words(&[52, 0, 40]);
        entries.extend(content);
        let stored = if zlib {
            use std::io::Write;
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            z.write_all(&entries).unwrap();
            z.finish().unwrap()
        } else {
            entries.clone()
        };
        let mut contents = words(&[20 + stored.len() as u32]);
        contents.extend([0, 0]);
        contents.extend(u16::from(zlib).to_le_bytes());
        contents.extend(words(&[stored.len() as u32, 52, 1]));
        contents.extend(&stored);
        let args_bytes = b"-T\0ps_6_0\0-E\0main\0";
        let mut args = words(&[0, args_bytes.len() as u32, 2]);
        args.extend(args_bytes);
        let mut sections = Vec::new();
        for (kind, mut body) in [(1u16, names), (0, contents), (2, args)] {
            body.resize((body.len() + 3) & !3, 0);
            sections.extend(words(&[8 + body.len() as u32]));
            sections.extend([0, 0]);
            sections.extend(kind.to_le_bytes());
            sections.extend(body);
        }
        let mut out = words(&[8 + sections.len() as u32]);
        out.extend([0, 0, 3, 0]);
        out.extend(sections);
        out
    }

    #[test]
    fn srci_zlib_declared_size_is_capped() {
        // Declared uncompressed size past the hard limit: refused before any
        // inflating (it was capped only by the declared size, up to 4 GiB).
        let mut bomb = srci(true);
        let stream = bomb.windows(2).position(|w| w == [0x78, 0xda]).unwrap();
        let at = stream - 8;
        assert_eq!(&bomb[at..at + 4], &52u32.to_le_bytes());
        let limit = crate::source_info::MAX_SOURCE_CONTENTS as u32;
        bomb[at..at + 4].copy_from_slice(&(limit + 1).to_le_bytes());
        let bytes = container(&[(b"SRCI", &bomb)]);
        let r = yaml(&bytes, true);
        assert!(
            matches!(
                &r,
                Err(YamlError::Decode(e)) if matches!(
                    e.kind.detail(),
                    Some(crate::source_info::SourceInfoError::ContentsSize { .. })
                ) && matches!(e.kind, crate::ReadErrorKind::LimitExceeded { .. })
            ),
            "{r:?}"
        );
        // The honest part still prints its decompressed contents.
        let bytes = container(&[(b"SRCI", &srci(true))]);
        assert!(parts(&bytes, true).contains("float4 main"));
    }

    #[test]
    fn upstream_keys() {
        let mut ildn = vec![0, 0, 7, 0];
        ildn.extend(b"a/b.pdb\0");
        let mut vers = vec![1, 0, 10, 0];
        vers.extend(words(&[1, 5267, 20]));
        vers.extend(b"21f060b7\0");
        vers.extend(b"1.9.0.1526\0");
        let bytes = container(&[
            (b"ILDN", &ildn),
            (b"VERS", &vers),
            (b"SRCI", &srci(false)),
            (b"PRIV", &[0xde, 0xad, 0xbe, 0xef, 0x42]),
        ]);
        // LLVM 22 prints names and sizes only.
        let plain = parts(&bytes, false);
        assert_eq!(plain.lines().count(), 10);
        let text = parts(&bytes, true);
        assert!(text.contains(
            "    DebugName:\n      Flags:           0\n      NameLength:      7\n      \
             DebugName:       'a/b.pdb'\n"
        ));
        assert!(text.contains(
            "    CompilerVersion:\n      Major:           1\n      Minor:           10\n      \
             IsDebugBuild:    true\n      IsValidated:     false\n      CommitCount:     5267\n      \
             ContentSizeInBytes: 20\n      CommitSha:       21f060b7\n      CustomVersionString: \
             1.9.0.1526\n"
        ));
        assert!(text.contains("    PrivateData:     [ 0xDE, 0xAD, 0xBE, 0xEF, 0x42 ]\n"));
        let expected_srci = "    SourceInfo:
      Header:
        AlignedSizeInBytes: 176
        Flags:           0
        SectionCount:    3
      Names:
        SectionHeader:
          AlignedSizeInBytes: 48
          Flags:           0
          Type:            SourceNames
        Header:
          Flags:           0
          Count:           1
          EntriesSizeInBytes: 28
        Entries:
          - AlignedSizeInBytes: 28
            Flags:           0
            NameSizeInBytes: 11
            ContentSizeInBytes: 40
            FileName:        fd_zs.hlsl
      Contents:
        SectionHeader:
          AlignedSizeInBytes: 80
          Flags:           0
          Type:            SourceContents
        Header:
          AlignedSizeInBytes: 72
          Flags:           0
          Type:            None
          EntriesSizeInBytes: 52
          UncompressedEntriesSizeInBytes: 52
          Count:           1
        Entries:
          - AlignedSizeInBytes: 52
            Flags:           0
            ContentSizeInBytes: 40
            FileContent:     'float4 main() : SV_Target { return 0; }'
      Args:
        SectionHeader:
          AlignedSizeInBytes: 40
          Flags:           0
          Type:            Args
        Header:
          Flags:           0
          SizeInBytes:     18
          Count:           2
        Args:
          - Arg:             '-T'
            Value:           ps_6_0
          - Arg:             '-E'
            Value:           main
";
        assert!(text.contains(expected_srci), "{text}");
        // Compressed contents print the decompressed entries.
        let text = parts(&container(&[(b"SRCI", &srci(true))]), true);
        assert!(text.contains("          Type:            Zlib\n"));
        assert!(text
            .contains("            FileContent:     'float4 main() : SV_Target { return 0; }'\n"));
        // Malformed upstream parts are errors.
        vers[4] = 4;
        assert!(yaml(&container(&[(b"VERS", &vers)]), true).is_err());
        ildn[2] = 9;
        assert!(yaml(&container(&[(b"ILDN", &ildn)]), true).is_err());
    }
}
