//! The one table of parts, as a macro: `for_each_part!` hands its two lists
//! (in the spirit of wasmparser's `for_each_operator!` and LLVM's
//! `CONTAINER_PART` `.def`) to a macro that turns them into code. Everything
//! the crate knows about part names is generated from it:
//!
//! - [`PartName`](crate::PartName)'s constants (`PartName::DXIL`, …) —
//!   `name.rs`;
//! - [`Family`](crate::part_table::Family) and [`PART_TABLE`](crate::part_table::PART_TABLE) (name, family, strip
//!   class, LLVM support of every part) — `parts/mod.rs`;
//! - [`Decoded`](crate::decode::Decoded) (one variant per family), its
//!   [`kind`](crate::decode::Decoded::kind) and the dispatch of
//!   [`decode_part`](crate::decode::decode_part) — `parts/decode.rs`.
//!
//! The strip classes ([`StripClass::parts`](crate::part_table::StripClass::parts)), the
//! obj2yaml view's choice of decoded parts (the LLVM column) and the lists in
//! help texts, Python docstrings, README and xtask read the generated table.
//!
//! **Adding a decoder**: write its module under `parts/` (a type with
//! `parse(&Part) -> Result<Self, ReadError>`), add a `families` row naming it
//! and a `parts` row per part name it reads. The compiler then lists the
//! views that lack it: the exhaustive `match`es over [`Family`](crate::part_table::Family) and
//! `Decoded` in `Decoded::issues`, `info/text/` and `info/yaml/`.
//!
//! # The lists
//!
//! `families`: one row per decoder, `Family: Variant(payload type) = "kind", how;`
//! where `Variant` is the [`Decoded`](crate::decode::Decoded) variant, `"kind"` its
//! JSON `kind`, and `how` is `parse` (`Variant(Type::parse(part)?)`) or
//! `with(function)` (a function of the container and the part returning the
//! `Decoded` value, for decoders that need context or choose by content).
//!
//! `parts`: one row per part name, `NAME: family, strip, llvm, "doc";` where
//! `family` is a `families` row or `-` (shown by name and size only), `strip`
//! is the narrowest [`StripClass`](crate::part_table::StripClass) removing it or `-`, and
//! `llvm` an [`Llvm`](crate::part_table::Llvm) value. The row order is the order of
//! [`PART_TABLE`](crate::part_table::PART_TABLE), of
//! [`StripClass::parts`](crate::part_table::StripClass::parts) (and so of the lists in the
//! help texts) and of the decode fuzz target's names
//! (`dxcopy_harness::DECODE_NAMES`, picked by `byte % count`: a new decoded
//! row changes what saved inputs pick).

/// Calls `$m! { families { … } parts { … } }` with the part table (see the
/// module documentation for the row syntax).
macro_rules! for_each_part {
    ($m:ident) => {
        $m! {
            families {
                /// DXIL, ILDB, or dxc's STAT (reflection bitcode): program
                /// header + bitcode ([`program::Program`](crate::program::Program)).
                Program: Program(crate::program::Program<'data>) = "program", parse;
                /// STAT: dxc's reflection program part (decoded as
                /// `Decoded::Program`) or fxc's statistics counters
                /// ([`stat::Statistics`](crate::stat::Statistics)), told apart by content.
                Statistics: Stat(crate::stat::Statistics) = "stat", with(decode_statistics);
                /// HASH: flags and MD5 of the bitcode ([`hash::ShaderHash`](crate::hash::ShaderHash)).
                Hash: Hash(crate::hash::ShaderHash) = "hash", parse;
                /// ISG1 / OSG1 / PSG1 (dxc) and ISGN / OSGN / OSG5 / PCSG (fxc):
                /// signature elements ([`signature::Signature`](crate::signature::Signature)).
                Signature: Signature(crate::signature::Signature<'data>) = "signature", with(decode_signature);
                /// PSV0: pipeline state validation, decoded with the program's
                /// shader kind ([`psv0::Psv0`](crate::psv0::Psv0)).
                Psv0: Psv0(Box<crate::psv0::Psv0<'data>>) = "psv0", with(decode_psv0);
                /// RTS0: root signature ([`rts0::RootSignature`](crate::rts0::RootSignature)).
                RootSignature: RootSignature(crate::rts0::RootSignature) = "root_signature", parse;
                /// SFI0: shader feature flags ([`sfi0::Sfi0`](crate::sfi0::Sfi0)).
                FeatureFlags: FeatureFlags(crate::sfi0::Sfi0) = "feature_flags", parse;
                /// ILDN: the debug (PDB) name ([`debug_name::DebugName`](crate::debug_name::DebugName)).
                DebugName: DebugName(crate::debug_name::DebugName<'data>) = "debug_name", parse;
                /// VERS: the compiler version ([`version::CompilerVersion`](crate::version::CompilerVersion)).
                Version: Version(crate::version::CompilerVersion<'data>) = "version", parse;
                /// SRCI: source names, contents and arguments
                /// ([`source_info::SourceInfo`](crate::source_info::SourceInfo)).
                SourceInfo: SourceInfo(crate::source_info::SourceInfo<'data>) = "source_info", parse;
                /// PRIV: private data ([`private::PrivateData`](crate::private::PrivateData)).
                Private: Private(crate::private::PrivateData<'data>) = "private", parse;
                /// SHDR / SHEX: SM4/5 bytecode header ([`dxbc::ShaderBytecode`](crate::dxbc::ShaderBytecode)).
                Shader: Shader(crate::dxbc::ShaderBytecode) = "shader", parse;
                /// RDEF: fxc resource definitions
                /// ([`rdef::ResourceDefinitions`](crate::rdef::ResourceDefinitions)).
                Rdef: Rdef(crate::rdef::ResourceDefinitions<'data>) = "rdef", parse;
                /// Aon9 / XNAS / XNAP: the embedded SM2 program
                /// ([`aon9::Level9Shader`](crate::aon9::Level9Shader)).
                Aon9: Aon9(crate::aon9::Level9Shader) = "aon9", parse;
                /// RDAT: runtime data of libraries ([`rdat::RuntimeData`](crate::rdat::RuntimeData)).
                Rdat: Rdat(crate::rdat::RuntimeData<'data>) = "rdat", parse;
                /// SPDB (embedded MSF PDB) / SDBG (legacy debug info)
                /// ([`spdb::DebugBlob`](crate::spdb::DebugBlob)).
                DebugBlob: DebugBlob(crate::spdb::DebugBlob) = "debug_blob", parse;
            }
            parts {
                DXIL: Program, -, Release22, "the DXIL program";
                ILDB: Program, Debug, Upstream, "the DXIL program with debug info";
                STAT: Statistics, Reflect, Unknown, "statistics (dxc: a reflection program part; fxc: counters)";
                HASH: Hash, -, Release22, "the shader hash";
                ILDN: DebugName, All, Upstream, "the debug name (PDB file name)";
                PSV0: Psv0, -, Release22, "pipeline state validation";
                RTS0: RootSignature, RootSig, Release22, "root signature";
                SFI0: FeatureFlags, -, Release22, "shader feature flags";
                ISGN: Signature, -, Unknown, "fxc input signature";
                OSGN: Signature, -, Unknown, "fxc output signature";
                OSG5: Signature, -, Unknown, "fxc output signature with streams (SM5)";
                PCSG: Signature, -, Unknown, "fxc patch constant signature";
                ISG1: Signature, -, Release22, "input signature";
                OSG1: Signature, -, Release22, "output signature";
                PSG1: Signature, -, Release22, "patch constant signature";
                VERS: Version, All, Upstream, "compiler version";
                SRCI: SourceInfo, Debug, Upstream, "source info";
                PRIV: Private, Priv, Upstream, "private data; always last and unpadded";
                SHDR: Shader, -, Unknown, "SM4 bytecode";
                SHEX: Shader, -, Unknown, "SM5 bytecode";
                RDEF: Rdef, Reflect, Unknown, "fxc resource definitions (reflection)";
                Aon9: Aon9, -, Unknown, "the SM2 program of a 10Level9 shader";
                XNAS: Aon9, -, Unknown, "an Xbox shader part with Aon9's layout";
                XNAP: Aon9, -, Unknown, "an Xbox shader part with Aon9's layout";
                RDAT: Rdat, -, Unknown, "runtime data";
                PDBI: -, Debug, Unknown, "PDB information";
                SDBG: DebugBlob, Debug, Unknown, "fxc debug info";
                SPDB: DebugBlob, Debug, Unknown, "fxc embedded PDB";
                DXBC: -, -, Unknown, "a nested container";
                IFCE: -, -, Unknown, "fxc class interfaces";
                FX10: -, -, Unknown, "an Effects 10 effect";
                LIBF: -, -, Unknown, "a library function";
                LIBH: -, -, Unknown, "a library header";
                LFS0: -, -, Unknown, "library function signatures";
                CTAB: -, -, Unknown, "SM2/3 constant table";
            }
        }
    };
}

pub(crate) use for_each_part;
