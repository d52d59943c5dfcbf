//! Strip classes: named groups of parts with D3DStripShader / dxc `-Qstrip_*`
//! semantics (peers.md).
//!
//! - debug: ILDB, SRCI, PDBI, SDBG, SPDB (ILDN stays, like a debuglink)
//! - reflect: STAT, RDEF (RDAT stays: the runtime needs it for libraries)
//! - priv: PRIV
//! - rootsig: RTS0
//! - all: debug + reflect + priv + ILDN + VERS (not RTS0)

use dxcopy_read::PartName;

/// One strip class.
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
    /// The part names this class removes.
    pub fn parts(self) -> &'static [&'static [u8; 4]] {
        match self {
            StripClass::Debug => &[b"ILDB", b"SRCI", b"PDBI", b"SDBG", b"SPDB"],
            StripClass::Reflect => &[b"STAT", b"RDEF"],
            StripClass::Priv => &[b"PRIV"],
            StripClass::RootSig => &[b"RTS0"],
            StripClass::All => &[
                b"ILDB", b"SRCI", b"PDBI", b"SDBG", b"SPDB", b"STAT", b"RDEF", b"PRIV", b"ILDN",
                b"VERS",
            ],
        }
    }

    /// Whether this class removes `name`.
    pub fn covers(self, name: &PartName) -> bool {
        self.parts().contains(&&name.0)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let table: &[(StripClass, &[u8; 4], bool)] = &[
            (StripClass::Debug, b"ILDB", true),
            (StripClass::Debug, b"SRCI", true),
            (StripClass::Debug, b"SPDB", true),
            (StripClass::Debug, b"ILDN", false),
            (StripClass::Reflect, b"STAT", true),
            (StripClass::Reflect, b"RDEF", true),
            (StripClass::Reflect, b"RDAT", false),
            (StripClass::Priv, b"PRIV", true),
            (StripClass::RootSig, b"RTS0", true),
            (StripClass::All, b"ILDN", true),
            (StripClass::All, b"VERS", true),
            (StripClass::All, b"RTS0", false),
            (StripClass::All, b"DXIL", false),
            (StripClass::All, b"HASH", false),
        ];
        for (class, name, want) in table {
            assert_eq!(class.covers(&PartName(**name)), *want, "{class:?} {name:?}");
        }
    }
}
