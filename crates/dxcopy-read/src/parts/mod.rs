//! The part decoders and the one table of part names.
//!
//! Every part name this project knows is a row of [`PART_TABLE`]: its name,
//! the decoder family that reads it (if any), the strip class that removes it
//! and whether LLVM's DirectX support knows it. [`decode_part`] and
//! [`has_decoder`] dispatch through the table, [`crate::PartName::is_known`]
//! reads it, the strip classes of `dxcopy-edit` read it, and the tests and
//! sweeps that exercise every decoder iterate over it.
//!
//! | Part | Decoder ([`Family`]) | File | Strip class | LLVM |
//! |---|---|---|---|---|
//! | `DXIL` | [`Family::Program`] | `program.rs` | — | 22 |
//! | `ILDB` | [`Family::Program`] | `program.rs` | debug | upstream |
//! | `STAT` | [`Family::Statistics`]: dxc's (a program part) | `program.rs` | reflect | — |
//! | `STAT` | [`Family::Statistics`]: fxc's (counters) | `stat.rs` | reflect | — |
//! | `HASH` | [`Family::Hash`] | `hash.rs` | — | 22 |
//! | `ISG1` `OSG1` `PSG1` | [`Family::Signature`] | `signature.rs` | — | 22 |
//! | `ISGN` `OSGN` `OSG5` `PCSG` | [`Family::Signature`] | `signature.rs` | — | — |
//! | `PSV0` | [`Family::Psv0`] | `psv0.rs` | — | 22 |
//! | `RTS0` | [`Family::RootSignature`] | `rts0.rs` | rootsig | 22 |
//! | `SFI0` | [`Family::FeatureFlags`] | `sfi0.rs` | — | 22 |
//! | `ILDN` | [`Family::DebugName`] | `debug_name.rs` | all | upstream |
//! | `VERS` | [`Family::Version`] | `version.rs` | all | upstream |
//! | `SRCI` | [`Family::SourceInfo`] | `source_info.rs` | debug | upstream |
//! | `PRIV` | [`Family::Private`] | `private.rs` | priv | upstream |
//! | `SHDR` `SHEX` | [`Family::Shader`] | `dxbc.rs` | — | — |
//! | `RDEF` | [`Family::Rdef`] | `rdef.rs` | reflect | — |
//! | `Aon9` `XNAS` `XNAP` | [`Family::Aon9`] | `aon9.rs` | — | — |
//! | `RDAT` | [`Family::Rdat`] | `rdat.rs` | — | — |
//! | `SPDB` `SDBG` | [`Family::DebugBlob`] | `spdb.rs` | debug | — |
//! | `PDBI` | none | | debug | — |
//! | `DXBC` `IFCE` `FX10` `LIBF` `LIBH` `LFS0` `CTAB` | none | | — | — |
//!
//! "LLVM 22" parts are the ones LLVM 22's `CONTAINER_PART` list names and its
//! obj2yaml decodes; "upstream" ones are named by upstream LLVM (main) only.
//! The strip class `all` also removes every part of `debug`, `reflect` and
//! `priv` (not `rootsig`).
//!
//! [`decode`] holds the dispatch ([`decode_part`]) and the [`Decoded`] value.

pub mod aon9;
pub mod debug_name;
pub mod decode;
pub mod dxbc;
pub mod hash;
pub mod private;
pub mod program;
pub mod psv0;
pub mod rdat;
pub mod rdef;
pub mod rts0;
pub mod sfi0;
pub mod signature;
pub mod source_info;
pub mod spdb;
pub mod stat;
pub mod version;

pub use decode::{decode_all, decode_part, has_decoder, program_kind, Decoded};

use crate::name::PartName;

/// The decoder family that reads a part: one per decoder module, one per
/// [`Decoded`] variant (dxc's and fxc's STAT share [`Family::Statistics`],
/// told apart by content).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Program header + bitcode ([`program::Program`]).
    Program,
    /// STAT: dxc's reflection program part or fxc's counters ([`stat::Statistics`]).
    Statistics,
    /// [`hash::ShaderHash`].
    Hash,
    /// [`signature::Signature`].
    Signature,
    /// [`psv0::Psv0`].
    Psv0,
    /// [`rts0::RootSignature`].
    RootSignature,
    /// [`sfi0::Sfi0`].
    FeatureFlags,
    /// [`debug_name::DebugName`].
    DebugName,
    /// [`version::CompilerVersion`].
    Version,
    /// [`source_info::SourceInfo`].
    SourceInfo,
    /// [`private::PrivateData`].
    Private,
    /// [`dxbc::ShaderBytecode`].
    Shader,
    /// [`rdef::ResourceDefinitions`].
    Rdef,
    /// [`aon9::Level9Shader`].
    Aon9,
    /// [`rdat::RuntimeData`].
    Rdat,
    /// [`spdb::DebugBlob`].
    DebugBlob,
}

/// Which reader's rules a part decoder follows. Each decoder that has an LLVM
/// view is one function taking a `Mode`: both views read every field and
/// record in the same place, and the mode decides only what the LLVM view does
/// differently (each decoder's `parse_llvm_compat` says what).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// This project's reading (dxinfo, dxcopy): every bound checked; a rule
    /// break that does not stop decoding is reported as a
    /// [`Finding`](crate::finding::Finding) where the part has them.
    Strict,
    /// LLVM's reader, for the obj2yaml view: LLVM's rules are errors where
    /// LLVM fails, and its reading is followed where it reads differently.
    LlvmCompat,
}

impl Mode {
    /// The name of a read in error messages: `strict` in the strict view,
    /// `llvm` (the name of the field as LLVM's reader has it) in the LLVM view.
    pub(crate) fn label(self, strict: &'static str, llvm: &'static str) -> &'static str {
        match self {
            Mode::Strict => strict,
            Mode::LlvmCompat => llvm,
        }
    }
}

/// A named group of parts with D3DStripShader / dxc `-Qstrip_*` semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StripClass {
    /// Debug info: ILDB, SRCI, PDBI, SDBG, SPDB.
    Debug,
    /// Reflection: STAT, RDEF.
    Reflect,
    /// Private data: PRIV.
    Priv,
    /// Root signature: RTS0.
    RootSig,
    /// Everything not needed to run: debug + reflect + priv + ILDN + VERS.
    All,
}

impl StripClass {
    /// Whether this class removes parts called `name` (see [`PART_TABLE`]).
    pub fn covers(self, name: &PartName) -> bool {
        match part_info(*name).and_then(|info| info.strip) {
            Some(class) if class == self => true,
            Some(StripClass::RootSig) | None => false,
            Some(_) => self == StripClass::All,
        }
    }

    /// The part names this class removes, in table order.
    pub fn parts(self) -> impl Iterator<Item = PartName> {
        PART_TABLE
            .iter()
            .map(|info| info.name)
            .filter(move |name| self.covers(name))
    }

    /// Lower-case name of the class.
    pub fn as_str(self) -> &'static str {
        match self {
            StripClass::Debug => "debug",
            StripClass::Reflect => "reflect",
            StripClass::Priv => "priv",
            StripClass::RootSig => "rootsig",
            StripClass::All => "all",
        }
    }
}

/// Which LLVM knows a part name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Llvm {
    /// Not in LLVM's `CONTAINER_PART` list: obj2yaml prints `Name`/`Size` only.
    Unknown,
    /// Named and decoded by LLVM 22 (and upstream).
    Release22,
    /// Named by upstream LLVM (main) only.
    Upstream,
}

/// One row of [`PART_TABLE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartInfo {
    /// The part name.
    pub name: PartName,
    /// The decoder family, `None` for parts shown by name and size only.
    pub family: Option<Family>,
    /// The narrowest strip class that removes the part.
    pub strip: Option<StripClass>,
    /// Whether LLVM knows the name.
    pub llvm: Llvm,
}

const fn row(
    name: &[u8; 4],
    family: Option<Family>,
    strip: Option<StripClass>,
    llvm: Llvm,
) -> PartInfo {
    PartInfo {
        name: PartName(*name),
        family,
        strip,
        llvm,
    }
}

use Family as F;
use StripClass as S;

/// Every part name written by dxc, fxc, clang-dxc or the Effects compiler that
/// this project knows (LLVM's DXContainer.md "Part Formats", plus Effects and fxc
/// extras), with its decoder, strip class and LLVM support. The rows with a
/// decoder come first, in the order the decode fuzz target's first byte picks
/// them (kept stable so saved fuzz inputs keep their meaning).
pub const PART_TABLE: &[PartInfo] = &[
    row(b"DXIL", Some(F::Program), None, Llvm::Release22),
    row(b"ILDB", Some(F::Program), Some(S::Debug), Llvm::Upstream),
    row(
        b"STAT",
        Some(F::Statistics),
        Some(S::Reflect),
        Llvm::Unknown,
    ),
    row(b"HASH", Some(F::Hash), None, Llvm::Release22),
    row(b"ILDN", Some(F::DebugName), Some(S::All), Llvm::Upstream),
    row(b"PSV0", Some(F::Psv0), None, Llvm::Release22),
    row(
        b"RTS0",
        Some(F::RootSignature),
        Some(S::RootSig),
        Llvm::Release22,
    ),
    row(b"SFI0", Some(F::FeatureFlags), None, Llvm::Release22),
    row(b"ISGN", Some(F::Signature), None, Llvm::Unknown),
    row(b"OSGN", Some(F::Signature), None, Llvm::Unknown),
    row(b"OSG5", Some(F::Signature), None, Llvm::Unknown),
    row(b"PCSG", Some(F::Signature), None, Llvm::Unknown),
    row(b"ISG1", Some(F::Signature), None, Llvm::Release22),
    row(b"OSG1", Some(F::Signature), None, Llvm::Release22),
    row(b"PSG1", Some(F::Signature), None, Llvm::Release22),
    row(b"VERS", Some(F::Version), Some(S::All), Llvm::Upstream),
    row(b"SRCI", Some(F::SourceInfo), Some(S::Debug), Llvm::Upstream),
    row(b"PRIV", Some(F::Private), Some(S::Priv), Llvm::Upstream),
    row(b"SHDR", Some(F::Shader), None, Llvm::Unknown),
    row(b"SHEX", Some(F::Shader), None, Llvm::Unknown),
    row(b"RDEF", Some(F::Rdef), Some(S::Reflect), Llvm::Unknown),
    row(b"Aon9", Some(F::Aon9), None, Llvm::Unknown),
    row(b"XNAS", Some(F::Aon9), None, Llvm::Unknown),
    row(b"XNAP", Some(F::Aon9), None, Llvm::Unknown),
    row(b"RDAT", Some(F::Rdat), None, Llvm::Unknown),
    row(b"SPDB", Some(F::DebugBlob), Some(S::Debug), Llvm::Unknown),
    row(b"SDBG", Some(F::DebugBlob), Some(S::Debug), Llvm::Unknown),
    row(b"PDBI", None, Some(S::Debug), Llvm::Unknown),
    row(b"DXBC", None, None, Llvm::Unknown),
    row(b"IFCE", None, None, Llvm::Unknown),
    row(b"FX10", None, None, Llvm::Unknown),
    row(b"LIBF", None, None, Llvm::Unknown),
    row(b"LIBH", None, None, Llvm::Unknown),
    row(b"LFS0", None, None, Llvm::Unknown),
    row(b"CTAB", None, None, Llvm::Unknown),
];

/// The table row of `name`, if the name is known.
pub fn part_info(name: PartName) -> Option<&'static PartInfo> {
    PART_TABLE.iter().find(|info| info.name == name)
}

/// The names that have a decoder, in table order.
pub fn decoded_names() -> impl Iterator<Item = PartName> {
    PART_TABLE
        .iter()
        .filter(|info| info.family.is_some())
        .map(|info| info.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_unique() {
        for (i, a) in PART_TABLE.iter().enumerate() {
            assert!(
                PART_TABLE[i + 1..].iter().all(|b| b.name != a.name),
                "{} twice",
                a.name
            );
        }
        assert_eq!(PART_TABLE.len(), 35);
        assert_eq!(decoded_names().count(), 27);
    }

    #[test]
    fn strip_classes() {
        let table: &[(StripClass, &[u8; 4], bool)] = &[
            (StripClass::Debug, b"ILDB", true),
            (StripClass::Debug, b"SRCI", true),
            (StripClass::Debug, b"PDBI", true),
            (StripClass::Debug, b"SDBG", true),
            (StripClass::Debug, b"SPDB", true),
            (StripClass::Debug, b"ILDN", false),
            (StripClass::Reflect, b"STAT", true),
            (StripClass::Reflect, b"RDEF", true),
            (StripClass::Reflect, b"RDAT", false),
            (StripClass::Priv, b"PRIV", true),
            (StripClass::RootSig, b"RTS0", true),
            (StripClass::RootSig, b"PRIV", false),
            (StripClass::All, b"ILDN", true),
            (StripClass::All, b"VERS", true),
            (StripClass::All, b"SPDB", true),
            (StripClass::All, b"RDEF", true),
            (StripClass::All, b"PRIV", true),
            (StripClass::All, b"RTS0", false),
            (StripClass::All, b"DXIL", false),
            (StripClass::All, b"HASH", false),
            (StripClass::All, b"FKE0", false),
        ];
        for (class, name, want) in table {
            assert_eq!(class.covers(&PartName(**name)), *want, "{class:?} {name:?}");
        }
        let names = |c: StripClass| c.parts().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            names(StripClass::Debug),
            ["ILDB", "SRCI", "SPDB", "SDBG", "PDBI"]
        );
        assert_eq!(
            names(StripClass::All),
            ["ILDB", "STAT", "ILDN", "VERS", "SRCI", "PRIV", "RDEF", "SPDB", "SDBG", "PDBI"]
        );
        assert_eq!(names(StripClass::RootSig), ["RTS0"]);
    }

    #[test]
    fn llvm_names() {
        let names = |l: Llvm| {
            PART_TABLE
                .iter()
                .filter(|i| i.llvm == l)
                .map(|i| i.name.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(Llvm::Release22),
            ["DXIL", "HASH", "PSV0", "RTS0", "SFI0", "ISG1", "OSG1", "PSG1"]
        );
        assert_eq!(
            names(Llvm::Upstream),
            ["ILDB", "ILDN", "VERS", "SRCI", "PRIV"]
        );
    }
}
