//! Where the bytes go across many containers (`dxinfo --stats`), as bloaty
//! or `size` tell it for object files: per part name the count, the bytes
//! and their share, the largest files, and the bytes a
//! `dxstrip --strip-debug` would remove.
//!
//! A part costs its data and 12 bytes of container structure (its 8-byte
//! header and its 4-byte entry in the offset table); the container header
//! (32 bytes) and padding between parts are the rest.

use crate::container::Container;
use crate::part_table::StripClass;
use std::collections::BTreeMap;

/// Bytes a part costs besides its data: its header and offset-table entry.
pub const PART_OVERHEAD: u64 = 12;

/// How many of the largest files [`TreeStats`] keeps.
pub const LARGEST_KEPT: usize = 10;

/// Totals of one part name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PartTotals {
    /// Parts of this name.
    pub count: u64,
    /// Their data bytes.
    pub bytes: u64,
    /// Containers holding at least one.
    pub files: u64,
}

/// Totals over a set of files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TreeStats {
    /// Files looked at.
    pub files: u64,
    /// Of them, containers that parsed.
    pub containers: u64,
    /// Bytes of all files.
    pub bytes: u64,
    /// Bytes of the containers.
    pub container_bytes: u64,
    /// Per part name (non-printable bytes as `\xNN`).
    pub parts: BTreeMap<String, PartTotals>,
    /// Container bytes that are neither part data nor part structure: the
    /// 32-byte headers, padding, gaps.
    pub other_bytes: u64,
    /// Bytes `dxstrip --strip-debug` would remove: the data and structure
    /// of every debug-class part.
    pub debug_bytes: u64,
    /// The largest containers, largest first: (path, bytes).
    pub largest: Vec<(String, u64)>,
}

impl TreeStats {
    /// Counts a file that is not a container (or did not parse).
    pub fn add_other(&mut self, size: u64) {
        self.files += 1;
        self.bytes += size;
    }

    /// Counts `container`, read from `path`.
    pub fn add_container(&mut self, path: &str, container: &Container<'_>) {
        let size = container.data().len() as u64;
        self.files += 1;
        self.containers += 1;
        self.bytes += size;
        self.container_bytes += size;
        let mut in_parts = 0u64;
        let mut names: Vec<String> = Vec::new();
        for part in container.parts() {
            let name = part.name.to_string();
            let data = part.data.len() as u64;
            in_parts += data + PART_OVERHEAD;
            if StripClass::Debug.covers(&part.name) {
                self.debug_bytes += data + PART_OVERHEAD;
            }
            let totals = self.parts.entry(name.clone()).or_default();
            totals.count += 1;
            totals.bytes += data;
            if !names.contains(&name) {
                totals.files += 1;
                names.push(name);
            }
        }
        self.other_bytes += size.saturating_sub(in_parts);
        self.keep_largest(path.to_owned(), size);
    }

    fn keep_largest(&mut self, path: String, size: u64) {
        let at = self
            .largest
            .iter()
            .position(|(p, s)| (size, &path) > (*s, p))
            .unwrap_or(self.largest.len());
        if at < LARGEST_KEPT {
            self.largest.insert(at, (path, size));
            self.largest.truncate(LARGEST_KEPT);
        }
    }

    /// Adds another set's totals (the per-worker totals of a parallel walk).
    pub fn merge(&mut self, other: TreeStats) {
        self.files += other.files;
        self.containers += other.containers;
        self.bytes += other.bytes;
        self.container_bytes += other.container_bytes;
        self.other_bytes += other.other_bytes;
        self.debug_bytes += other.debug_bytes;
        for (name, t) in other.parts {
            let totals = self.parts.entry(name).or_default();
            totals.count += t.count;
            totals.bytes += t.bytes;
            totals.files += t.files;
        }
        for (path, size) in other.largest {
            self.keep_largest(path, size);
        }
    }

    /// The table: one line per part name, largest first, with its share of
    /// the container bytes; then structure, debug bytes and the largest
    /// files.
    pub fn write_table(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let share = |bytes: u64| {
            if self.container_bytes == 0 {
                0.0
            } else {
                100.0 * bytes as f64 / self.container_bytes as f64
            }
        };
        writeln!(
            out,
            "{} files, {} containers, {} bytes in containers",
            self.files, self.containers, self.container_bytes
        )?;
        writeln!(
            out,
            "{:<6} {:>8} {:>8} {:>14} {:>7}",
            "part", "count", "files", "bytes", "share"
        )?;
        let mut rows: Vec<(&String, &PartTotals)> = self.parts.iter().collect();
        rows.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(b.0)));
        for (name, t) in rows {
            writeln!(
                out,
                "{name:<6} {:>8} {:>8} {:>14} {:>6.2}%",
                t.count,
                t.files,
                t.bytes,
                share(t.bytes)
            )?;
        }
        let structure: u64 = self
            .parts
            .values()
            .map(|t| t.count * PART_OVERHEAD)
            .sum::<u64>()
            + self.other_bytes;
        writeln!(
            out,
            "{:<6} {:>8} {:>8} {structure:>14} {:>6.2}%",
            "(structure)",
            "",
            "",
            share(structure)
        )?;
        writeln!(
            out,
            "debug: {} bytes ({:.2}%) removed by dxstrip --strip-debug",
            self.debug_bytes,
            share(self.debug_bytes)
        )?;
        if !self.largest.is_empty() {
            writeln!(out, "largest:")?;
            for (path, size) in &self.largest {
                writeln!(out, "{size:>14}  {path}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::build;

    #[test]
    fn totals_shares_and_the_largest() {
        let a = build(&[
            (b"DXIL", &[0; 40]),
            (b"ILDB", &[0; 100]),
            (b"HASH", &[0; 20]),
        ]);
        let b = build(&[(b"SHEX", &[0; 16]), (b"SPDB", &[0; 8])]);
        let (ca, cb) = (Container::parse(&a).unwrap(), Container::parse(&b).unwrap());
        let mut one = TreeStats::default();
        one.add_container("a.dxil", &ca);
        let mut two = TreeStats::default();
        two.add_container("b.cso", &cb);
        two.add_other(7);
        one.merge(two);
        assert_eq!((one.files, one.containers), (3, 2));
        assert_eq!(one.bytes, (a.len() + b.len() + 7) as u64);
        assert_eq!(
            one.parts["ILDB"],
            PartTotals {
                count: 1,
                bytes: 100,
                files: 1
            }
        );
        assert_eq!(one.parts["SHEX"].bytes, 16);
        // ILDB and SPDB are debug parts: data + 12 bytes each.
        assert_eq!(one.debug_bytes, 100 + 12 + 8 + 12);
        // Part data and structure add up to the container bytes.
        let data: u64 = one.parts.values().map(|t| t.bytes).sum();
        let structure: u64 = one.parts.values().map(|t| t.count * PART_OVERHEAD).sum();
        assert_eq!(data + structure + one.other_bytes, one.container_bytes);
        assert_eq!(one.other_bytes, 2 * 32);
        assert_eq!(
            one.largest,
            [
                ("a.dxil".to_string(), a.len() as u64),
                ("b.cso".into(), b.len() as u64)
            ]
        );
        let mut text = Vec::new();
        one.write_table(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("3 files, 2 containers, "), "{text}");
        let ildb = text.lines().find(|l| l.starts_with("ILDB")).unwrap();
        assert!(ildb.contains(" 1        1            100 "), "{ildb}");
    }

    #[test]
    fn only_the_largest_are_kept_in_order() {
        let mut s = TreeStats::default();
        for i in 0..30u64 {
            s.keep_largest(format!("f{i}"), (i * 7) % 31);
        }
        assert_eq!(s.largest.len(), LARGEST_KEPT);
        assert!(s.largest.windows(2).all(|w| w[0].1 >= w[1].1));
        assert_eq!(s.largest[0].1, 30);
    }
}
