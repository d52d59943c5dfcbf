//! The container's own findings ([`Container::check`]): FileSize, gaps,
//! order, duplicate names, the PRIV rules, unknown names, alignment and the
//! digest. They live with the findings, not in `container.rs`, so that the
//! container reader below the decoders does not name the findings the
//! decoders own.

use crate::container::{Container, DIGEST_FIELD, FILE_SIZE_FIELD, HEADER_SIZE};
use crate::digest::DigestKind;
use crate::finding::{Finding, FindingKind};
use crate::name::PartName;
use std::collections::hash_map::{Entry, HashMap};

impl Container<'_> {
    /// Non-fatal findings: FileSize, gaps, order, duplicates, PRIV rules,
    /// unknown names, alignment and digest validity, each with the part it
    /// is about and the offset of the bytes at fault.
    pub fn check(&self) -> Vec<Finding> {
        let mut out = self.check_layout();
        if self.digest_kind() == DigestKind::Invalid {
            out.push(Finding::at(
                DIGEST_FIELD,
                FindingKind::DigestInvalid {
                    stored: self.header().digest,
                },
            ));
        }
        out
    }

    /// [`Container::check`] without the digest (which costs a pass over
    /// the container): FileSize, gaps, order, duplicates, PRIV rules,
    /// unknown names and alignment.
    pub fn check_layout(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let len = self.data().len() as u64;
        if u64::from(self.header().file_size) != len {
            out.push(Finding::at(
                FILE_SIZE_FIELD,
                FindingKind::FileSizeMismatch {
                    stored: self.header().file_size,
                    actual: len,
                },
            ));
        }
        // Gaps in file order.
        let mut order: Vec<(u64, u64)> = self
            .parts()
            .map(|p| (p.offset, p.data_offset() + p.data.len() as u64))
            .collect();
        if let Some(i) = order.windows(2).position(|w| w[1].0 < w[0].0) {
            let index = i as u32 + 1;
            out.push(
                Finding::at(
                    HEADER_SIZE + 4 * u64::from(index),
                    FindingKind::UnsortedOffsets { index },
                )
                .in_part(self.part(index).map(|p| p.part_ref())),
            );
            order.sort_unstable();
        }
        let mut cursor = self.header().table_end();
        let end = len.min(u64::from(self.header().file_size)).max(cursor);
        for (start, stop) in order.iter().copied().chain(std::iter::once((end, end))) {
            if start > cursor && !self.is_alignment_padding(cursor, start) {
                out.push(Finding::at(
                    cursor,
                    FindingKind::Gap {
                        offset: cursor,
                        len: start - cursor,
                    },
                ));
            }
            cursor = cursor.max(stop);
        }
        // First index of each name. A map, not a list: a hostile file can hold
        // millions of distinct names (12 bytes each), and a linear search per
        // part made this quadratic: minutes of CPU for a 2 MB file.
        let mut seen: HashMap<PartName, u32> = HashMap::new();
        let mut priv_seen = false;
        for p in self.parts() {
            let about = |kind| Finding::at(p.offset, kind).in_part(p.part_ref());
            match seen.entry(p.name) {
                Entry::Occupied(first) => out.push(about(FindingKind::DuplicateName {
                    first: *first.get(),
                })),
                Entry::Vacant(slot) => {
                    slot.insert(p.index);
                }
            }
            if p.name == PartName::PRIV {
                if priv_seen {
                    out.push(about(FindingKind::MultiplePriv));
                }
                priv_seen = true;
                if p.index + 1 != self.header().part_count {
                    out.push(about(FindingKind::PrivNotLast));
                }
            }
            if !p.name.is_known() {
                out.push(about(FindingKind::UnknownPart));
            }
            if p.offset % 4 != 0 {
                out.push(about(FindingKind::Misaligned));
            }
        }
        out
    }
}
