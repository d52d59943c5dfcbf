//! The one table of part names.
//!
//! Every part name this project knows is a row of [`PART_TABLE`]: its name,
//! the decoder family that reads it (if any), the strip class that removes it
//! and whether LLVM's DirectX support knows it. The table, [`Family`], the
//! `PartName` constants, [`Decoded`](crate::decode::Decoded) and the dispatch
//! of [`decode_part`](crate::decode::decode_part) are generated from one list,
//! `for_each_part!` (part_table/rows.rs) (see there for what adding a decoder
//! takes). [`crate::PartName::is_known`] reads the table, the strip classes of
//! `dxcopy-edit` read it, and the tests and sweeps that exercise every decoder
//! iterate over it. The table sits below the decoders: it names them, it does
//! not call them.
//!
//! "LLVM 22" parts ([`Llvm::Release22`]) are the ones LLVM 22's
//! `CONTAINER_PART` list names and its obj2yaml decodes; "upstream" ones
//! ([`Llvm::Upstream`]) are named by upstream LLVM (main) only. The strip
//! class `all` also removes every part of `debug`, `reflect` and `priv` (not
//! `rootsig`).

pub mod rows;

use crate::name::PartName;

/// Generates [`Family`] from the table's `families` list.
macro_rules! define_families {
    (
        families {
            $( $(#[doc = $doc:literal])* $family:ident = $kind:literal; )*
        }
        parts { $($parts:tt)* }
    ) => {
        /// The decoder family that reads a part: one per decoder, one per
        /// [`Decoded`](crate::decode::Decoded) variant (dxc's and fxc's STAT share
        /// [`Family::Statistics`], told apart by content). Generated from
        /// `for_each_part!` (part_table/rows.rs).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Family {
            $( $(#[doc = $doc])* $family, )*
        }

        impl Family {
            /// Every family, in table order.
            pub const ALL: &'static [Family] = &[$(Family::$family),*];

            /// The `kind` of the family's [`Decoded`](crate::decode::Decoded) variant (the JSON `kind`).
            pub fn kind(self) -> &'static str {
                match self {
                    $( Family::$family => $kind, )*
                }
            }
        }
    };
}

rows::for_each_part!(define_families);

/// Generates a `PartName` constant for each row of the `parts` list.
macro_rules! define_part_names {
    (
        families { $($families:tt)* }
        parts { $( $name:ident : $family:tt, $strip:tt, $llvm:ident, $doc:literal; )* }
    ) => {
        #[allow(non_upper_case_globals)] // `Aon9`
        impl PartName {
            $(
                #[doc = concat!("`", stringify!($name), "`: ", $doc, ".")]
                pub const $name: PartName = PartName(fourcc(stringify!($name)));
            )*
        }
    };
}

rows::for_each_part!(define_part_names);

/// The four bytes of a part name written as an identifier.
const fn fourcc(name: &str) -> [u8; 4] {
    let b = name.as_bytes();
    assert!(b.len() == 4, "a part name has four bytes");
    [b[0], b[1], b[2], b[3]]
}

impl PartName {
    /// Whether this is a part name documented by DXC, FXC or LLVM: a row of
    /// [`PART_TABLE`].
    pub fn is_known(&self) -> bool {
        part_info(*self).is_some()
    }
}

/// A named group of parts with D3DStripShader / dxc `-Qstrip_*` semantics.
/// Which parts each class removes is the strip column of [`PART_TABLE`]
/// ([`StripClass::parts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StripClass {
    /// Debug info (`--strip-debug`).
    Debug,
    /// Reflection (`--strip-reflect`).
    Reflect,
    /// Private data (`--strip-priv`).
    Priv,
    /// Root signature (`--strip-rootsig`).
    RootSig,
    /// Everything not needed to run (`--strip-all`): debug + reflect + priv,
    /// and the parts whose narrowest class is `all`.
    All,
}

impl StripClass {
    /// Every class.
    pub const ALL: [StripClass; 5] = [
        StripClass::Debug,
        StripClass::Reflect,
        StripClass::Priv,
        StripClass::RootSig,
        StripClass::All,
    ];

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

    /// The part names whose narrowest class is this one, in table order
    /// (for `All`: the parts only `all` removes, ILDN and VERS).
    pub fn own_parts(self) -> impl Iterator<Item = PartName> {
        PART_TABLE
            .iter()
            .filter(move |info| info.strip == Some(self))
            .map(|info| info.name)
    }

    /// [`parts`](Self::parts) joined by `sep`, as the help texts and docs
    /// list them (`ILDB, SRCI, PDBI, SDBG, SPDB`).
    pub fn part_list(self, sep: &str) -> String {
        join(self.parts(), sep)
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

/// Generates [`PART_TABLE`] from the table's `parts` list.
macro_rules! define_part_table {
    (
        families { $($families:tt)* }
        parts { $( $name:ident : $family:tt, $strip:tt, $llvm:ident, $doc:literal; )* }
    ) => {
        /// Every part name written by dxc, fxc, clang-dxc or the Effects
        /// compiler that this project knows (LLVM's DXContainer.md "Part
        /// Formats", plus Effects and fxc extras), with its decoder, strip class
        /// and LLVM support, in the order of `for_each_part!` (part_table/rows.rs).
        pub const PART_TABLE: &[PartInfo] = &[
            $(
                PartInfo {
                    name: PartName::$name,
                    family: define_part_table!(@family $family),
                    strip: define_part_table!(@strip $strip),
                    llvm: Llvm::$llvm,
                },
            )*
        ];
    };
    (@family -) => { None };
    (@family $family:ident) => { Some(Family::$family) };
    (@strip -) => { None };
    (@strip $class:ident) => { Some(StripClass::$class) };
}

rows::for_each_part!(define_part_table);

fn join(names: impl Iterator<Item = PartName>, sep: &str) -> String {
    names.map(|n| n.to_string()).collect::<Vec<_>>().join(sep)
}

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
    use crate::parts::decode::has_decoder;

    #[test]
    fn table_invariants() {
        for (i, a) in PART_TABLE.iter().enumerate() {
            // Every name unique, four printable ASCII bytes (a PartName constant).
            assert!(
                PART_TABLE[i + 1..].iter().all(|b| b.name != a.name),
                "{} twice",
                a.name
            );
            assert!(
                a.name.0.iter().all(|b| b.is_ascii_alphanumeric()),
                "{:?}",
                a.name
            );
            assert_eq!(part_info(a.name), Some(a));
            assert_eq!(has_decoder(a.name), a.family.is_some());
            // The LLVM view decodes only parts this project decodes too.
            if a.llvm != Llvm::Unknown {
                assert!(
                    a.family.is_some(),
                    "{} is known to LLVM, not decoded",
                    a.name
                );
            }
        }
        // Every family reads at least one part; every class removes one.
        for family in Family::ALL {
            assert!(
                PART_TABLE.iter().any(|i| i.family == Some(*family)),
                "{family:?} has no part"
            );
        }
        for class in StripClass::ALL {
            assert!(class.own_parts().next().is_some(), "{class:?} has no part");
        }
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
            ["ILDB", "SRCI", "PDBI", "SDBG", "SPDB"]
        );
        assert_eq!(
            names(StripClass::All),
            ["ILDB", "STAT", "ILDN", "VERS", "SRCI", "PRIV", "RDEF", "PDBI", "SDBG", "SPDB"]
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
