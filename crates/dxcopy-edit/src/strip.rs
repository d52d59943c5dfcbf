//! Strip classes: named groups of parts with D3DStripShader / dxc `-Qstrip_*`
//! semantics (docs/format/container.md §5). Which part belongs to which class is a column of
//! `dxcopy_read::PART_TABLE`.
//!
//! - debug: ILDB, SRCI, PDBI, SDBG, SPDB (ILDN stays, like a debuglink)
//! - reflect: STAT, RDEF (RDAT stays: the runtime needs it for libraries)
//! - priv: PRIV
//! - rootsig: RTS0
//! - all: debug + reflect + priv + ILDN + VERS (not RTS0)

pub use dxcopy_read::parts::StripClass;
