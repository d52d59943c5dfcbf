//! The one table of parts, as a macro: `for_each_part!` hands its two lists
//! (in the spirit of wasmparser's `for_each_operator!` and LLVM's
//! `CONTAINER_PART` `.def`) to a macro that turns them into code. What the
//! crate knows about part *names* is generated from it:
//!
//! - [`PartName`](crate::PartName)'s constants (`PartName::DXIL`, …) and
//!   [`PartName::is_known`](crate::PartName::is_known);
//! - [`Family`](crate::part_table::Family) and [`PART_TABLE`](crate::part_table::PART_TABLE) (name, family, strip
//!   class, LLVM support of every part).
//!
//! The table sits below the decoders: it names each family, it does not
//! name the decoders' types. The decoder layer maps every family to its
//! decoder and payload type once, in `parts/decode.rs`
//! ([`Decoded`](crate::decode::Decoded) and the dispatch of
//! [`decode_part`](crate::decode::decode_part)); that mapping is an
//! exhaustive `match` over [`Family`](crate::part_table::Family), so a family
//! without a decoder does not compile.
//!
//! The strip classes ([`StripClass::parts`](crate::part_table::StripClass::parts)), the
//! obj2yaml view's choice of decoded parts (the LLVM column) and the lists in
//! help texts, Python docstrings, README and xtask read the generated table.
//!
//! **Adding a decoder**: write its module under `parts/` (a type with
//! `parse(&Part) -> Result<Self, ReadError>`), add a `families` row here, a
//! `parts` row per part name it reads, and its row in `parts/decode.rs`.
//! The compiler then lists the views that lack it: the exhaustive `match`es
//! over [`Family`](crate::part_table::Family) and `Decoded` in
//! `Decoded::issues`, `info/text/` and `info/yaml/`.
//!
//! # The lists
//!
//! `families`: one row per decoder, `Family = "kind";` where `"kind"` is the
//! JSON `kind` of its [`Decoded`](crate::decode::Decoded) variant.
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
                Program = "program";
                /// STAT: dxc's reflection program part (decoded as
                /// `Decoded::Program`) or fxc's statistics counters
                /// ([`stat::Statistics`](crate::stat::Statistics)), told apart by content.
                Statistics = "stat";
                /// HASH: flags and MD5 of the bitcode ([`hash::ShaderHash`](crate::hash::ShaderHash)).
                Hash = "hash";
                /// ISG1 / OSG1 / PSG1 (dxc) and ISGN / OSGN / OSG5 / PCSG (fxc):
                /// signature elements ([`signature::Signature`](crate::signature::Signature)).
                Signature = "signature";
                /// PSV0: pipeline state validation, decoded with the program's
                /// shader kind ([`psv0::Psv0`](crate::psv0::Psv0)).
                Psv0 = "psv0";
                /// RTS0: root signature ([`rts0::RootSignature`](crate::rts0::RootSignature)).
                RootSignature = "root_signature";
                /// SFI0: shader feature flags ([`sfi0::Sfi0`](crate::sfi0::Sfi0)).
                FeatureFlags = "feature_flags";
                /// ILDN: the debug (PDB) name ([`debug_name::DebugName`](crate::debug_name::DebugName)).
                DebugName = "debug_name";
                /// VERS: the compiler version ([`version::CompilerVersion`](crate::version::CompilerVersion)).
                Version = "version";
                /// SRCI: source names, contents and arguments
                /// ([`source_info::SourceInfo`](crate::source_info::SourceInfo)).
                SourceInfo = "source_info";
                /// PRIV: private data ([`private::PrivateData`](crate::private::PrivateData)).
                Private = "private";
                /// SHDR / SHEX: SM4/5 bytecode header ([`dxbc::ShaderBytecode`](crate::dxbc::ShaderBytecode)).
                Shader = "shader";
                /// RDEF: fxc resource definitions
                /// ([`rdef::ResourceDefinitions`](crate::rdef::ResourceDefinitions)).
                Rdef = "rdef";
                /// Aon9 / XNAS / XNAP: the embedded SM2 program
                /// ([`aon9::Level9Shader`](crate::aon9::Level9Shader)).
                Aon9 = "aon9";
                /// RDAT: runtime data of libraries ([`rdat::RuntimeData`](crate::rdat::RuntimeData)).
                Rdat = "rdat";
                /// SPDB (embedded MSF PDB) / SDBG (legacy debug info)
                /// ([`spdb::DebugBlob`](crate::spdb::DebugBlob)).
                DebugBlob = "debug_blob";
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
