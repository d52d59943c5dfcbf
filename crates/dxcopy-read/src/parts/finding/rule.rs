//! The rules a record decoder checks in a part it still reads. Each decoder
//! declares its own kinds beside its reading code (an enum whose `Display`
//! is the sentence and which implements [`Rule`]), so a new decoder adds
//! its findings without touching the shared
//! [`FindingKind`](super::FindingKind), which carries them as
//! [`FindingKind::Rule`](super::FindingKind::Rule).

use crate::detail::Words;

/// A kind of rule a decoder found broken: the decoder's own enum, whose
/// `Display` is the sentence `dxinfo --verify` prints (without the part and
/// offset, which the finding adds), and whose `Debug` form starts with the
/// kind's name (what the Python package shows as `Finding.kind`). Every
/// such finding is a warning about the bytes at its offset.
pub trait Rule: Words {}
