//! Strip classes: named groups of parts with D3DStripShader / dxc `-Qstrip_*`
//! semantics (peers.md). Which part belongs to which class is a column of
//! `dxcopy_read::PART_TABLE`.
//!
//! - debug: ILDB, SRCI, PDBI, SDBG, SPDB (ILDN stays, like a debuglink)
//! - reflect: STAT, RDEF (RDAT stays: the runtime needs it for libraries)
//! - priv: PRIV
//! - rootsig: RTS0
//! - all: debug + reflect + priv + ILDN + VERS (not RTS0)

pub use dxcopy_read::parts::StripClass;

#[cfg(test)]
mod tests {
    use super::*;
    use dxcopy_read::PartName;

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
