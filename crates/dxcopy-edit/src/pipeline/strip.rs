//! Strip classes: named groups of parts with D3DStripShader / dxc `-Qstrip_*`
//! semantics (docs/format/container.md §5). Which part belongs to which class is a column of
//! `dxcopy_read::PART_TABLE`.
//!
//! `StripClass::parts()` lists a class's members from that table (ILDN
//! stays under debug, like a debuglink; RDAT under reflect, since the
//! runtime needs it for libraries; `all` takes debug, reflect and priv and
//! ILDN and VERS, not RTS0).

pub use dxcopy_read::StripClass;
