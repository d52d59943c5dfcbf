//! The ILDN part (docs/format/small-parts.md §3): the name of
//! the companion PDB. `u16 Flags` (0), `u16 NameLength` (without the NUL),
//! the UTF-8 name, a NUL, zero padding to a multiple of 4. fxc's
//! `D3D_BLOB_DEBUG_NAME` has the same layout.
//!
//! Decoding is lenient where it can be: a NUL before `NameLength`, a missing
//! NUL and non-zero flags are reported as [`Finding`]s next to the name; only a
//! name that runs past the part is an error. [`DebugName::parse_llvm_compat`]
//! reads the part with the same decoder and fails where LLVM's reader does.

use super::Mode;
use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::{ReadErrorKind, Result};
use crate::finding::{Finding, Rule};
use std::fmt;

/// Size of the ILDN header.
pub const DEBUG_NAME_HEADER_SIZE: u64 = DebugNameHeader::SIZE;

crate::record::record! {
    /// The ILDN header (docs/format/small-parts.md); the name follows.
    pub struct DebugNameHeader: "ILDN header" {
        /// Flags (0).
        0 flags: u16 => "ILDN flags";
        /// Length of the name without its NUL.
        2 name_length: u16 => "ILDN name length";
    }
}

/// A decoded ILDN part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DebugName<'data> {
    /// Reserved flags (0 in every known file).
    pub flags: u16,
    /// NameLength as stored (bytes, without the NUL).
    pub name_length: u16,
    /// The name bytes without the NUL (UTF-8 in practice): up to the first
    /// NUL, or `name_length` bytes when no NUL follows.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Rule violations: flags ≠ 0, a NUL before `name_length`, no NUL after the name.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

impl<'data> DebugName<'data> {
    /// Decodes ILDN part data at absolute offset `base`.
    ///
    /// Fatal: fewer than 4 bytes, or fewer than `NameLength` name bytes.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<DebugName<'data>> {
        decode(Cursor::new(data, base), Mode::Strict)
    }

    /// Decodes an ILDN part.
    pub fn parse(part: &Part<'data>) -> Result<DebugName<'data>> {
        DebugName::parse_data(part.data, part.data_offset()).map_err(|e| e.in_part(part.part_ref()))
    }

    /// Decodes an ILDN part as upstream LLVM's reader does (the obj2yaml
    /// view with upstream keys). The same reading as [`DebugName::parse`],
    /// except:
    ///
    /// * the name must end with a NUL within `NameLength + 1` bytes (a
    ///   `NotNulTerminated` error at the name otherwise, where the dxc view
    ///   reports `NameUnterminated`, or fails only when the name runs past
    ///   the part);
    /// * a NUL before `NameLength` is a `SizeMismatch` error at the name, not
    ///   a `NameLengthMismatch` finding;
    /// * the flags are not checked, and `issues` stays empty.
    pub fn parse_llvm_compat(part: &Part<'data>) -> Result<DebugName<'data>> {
        decode(part.cursor(), Mode::LlvmCompat).map_err(|e| e.in_part(part.part_ref()))
    }

    /// The name as text (invalid UTF-8 replaced).
    pub fn name_lossy(&self) -> String {
        String::from_utf8_lossy(self.name).into_owned()
    }

    /// The last path component of the name, splitting on both `/` and `\`
    /// (dxc on Windows writes `\`, other tools `/`).
    pub fn file_name(&self) -> &'data [u8] {
        match self.name.iter().rposition(|&b| b == b'/' || b == b'\\') {
            Some(i) => &self.name[i + 1..],
            None => self.name,
        }
    }
}

fn decode(c: Cursor<'_>, mode: Mode) -> Result<DebugName<'_>> {
    let strict = mode == Mode::Strict;
    let DebugNameHeader { flags, name_length } = DebugNameHeader::read(&c, 0)?;
    let mut issues = Vec::new();
    if strict && flags != 0 {
        issues.push(Finding::at(
            c.abs(0),
            DebugNameRule::ReservedFlags {
                flags: u32::from(flags),
            },
        ));
    }
    let rest = c.rest(DEBUG_NAME_HEADER_SIZE);
    let len = usize::from(name_length);
    let name = match rest.iter().position(|&b| b == 0) {
        Some(nul) if nul == len => &rest[..len],
        Some(nul) if nul < len => {
            if !strict {
                return Err(c.error(
                    DEBUG_NAME_HEADER_SIZE,
                    ReadErrorKind::size_mismatch(DebugNameError::NameLength {
                        stored: name_length,
                        actual: nul,
                    }),
                ));
            }
            issues.push(Finding::at(
                c.abs(DEBUG_NAME_HEADER_SIZE + nul as u64),
                DebugNameRule::NameLengthMismatch {
                    stated: name_length,
                    actual: nul,
                },
            ));
            &rest[..nul]
        }
        // No NUL right after NameLength bytes.
        _ => {
            if !strict {
                return Err(c.error(
                    DEBUG_NAME_HEADER_SIZE,
                    ReadErrorKind::NotNulTerminated {
                        part: None,
                        what: "ILDN debug name",
                        table_offset: None,
                    },
                ));
            }
            let name = c.bytes(DEBUG_NAME_HEADER_SIZE, u64::from(name_length), "ILDN name")?;
            issues.push(Finding::at(
                c.abs(DEBUG_NAME_HEADER_SIZE + u64::from(name_length)),
                DebugNameRule::NameUnterminated,
            ));
            name
        }
    };
    Ok(DebugName {
        flags,
        name_length,
        name,
        issues,
    })
}

/// Encodes ILDN part data for `name` as dxc does: flags 0, the length, the
/// name, a NUL and zero padding to a multiple of 4. `None` when the name is
/// longer than 65535 bytes or contains a NUL.
pub fn encode(name: &[u8]) -> Option<Vec<u8>> {
    let len = u16::try_from(name.len()).ok()?;
    if name.contains(&0) {
        return None;
    }
    let mut out = Vec::with_capacity((name.len() + 5).div_ceil(4) * 4);
    DebugNameHeader {
        flags: 0,
        name_length: len,
    }
    .write_to(&mut out);
    out.extend_from_slice(name);
    out.push(0);
    out.resize(out.len().div_ceil(4) * 4, 0);
    Some(out)
}

/// The rules the ILDN decoder checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DebugNameRule {
    /// The reserved flags are not 0.
    ReservedFlags {
        /// Their value.
        flags: u32,
    },
    /// The name ends (at a NUL) before NameLength bytes.
    NameLengthMismatch {
        /// NameLength.
        stated: u16,
        /// Where the name ends.
        actual: usize,
    },
    /// The name has no NUL after NameLength bytes.
    NameUnterminated,
}

impl fmt::Display for DebugNameRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DebugNameRule::*;
        match self {
            ReservedFlags { flags } => write!(f, "reserved flags are {flags:#x}, not 0"),
            NameLengthMismatch { stated, actual } => write!(
                f,
                "name length is {stated} but the name ends after {actual} bytes"
            ),
            NameUnterminated => f.write_str("name is not NUL-terminated"),
        }
    }
}

impl Rule for DebugNameRule {}

/// The ILDN decoder's errors, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DebugNameError {
    /// A NUL before NameLength bytes (LLVM view).
    NameLength {
        /// NameLength.
        stored: u16,
        /// Where the name ends.
        actual: usize,
    },
}

impl fmt::Display for DebugNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DebugNameError::NameLength { stored, actual } => write!(
                f,
                "debug file name length mismatch: NameLength {stored}, name of {actual} bytes"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    #[test]
    fn each_error_says_its_sentence() {
        use DebugNameError::*;
        crate::testutil::errors_say(vec![(
            NameLength {
                stored: 7,
                actual: 6,
            },
            "debug file name length mismatch: NameLength 7, name of 6 bytes",
        )]);
    }

    #[test]
    fn each_rule_has_its_sentence() {
        use DebugNameRule::*;
        crate::testutil::rules_say(vec![
            (ReservedFlags { flags: 7 }, "reserved flags are 0x7, not 0"),
            (
                NameLengthMismatch {
                    stated: 5,
                    actual: 3,
                },
                "name length is 5 but the name ends after 3 bytes",
            ),
            (NameUnterminated, "name is not NUL-terminated"),
        ]);
    }

    #[test]
    fn encode_matches_dxc_padding() {
        let table: &[(&[u8], &[u8])] = &[
            (b"", b"\0\0\0\0\0\0\0\0"),
            (b"a", b"\0\0\x01\0a\0\0\0"),
            (b"abc", b"\0\0\x03\0abc\0"),
            (b"abcd", b"\0\0\x04\0abcd\0\0\0\0"),
        ];
        for (name, want) in table {
            let data = encode(name).unwrap();
            assert_eq!(&data[..], *want, "{name:?}");
            let parsed = DebugName::parse_data(&data, 0).unwrap();
            assert_eq!(parsed.name, *name);
            assert_eq!(parsed.flags, 0);
            assert!(parsed.issues.is_empty());
        }
        assert!(encode(b"a\0b").is_none());
        assert!(encode(&vec![b'x'; 65536]).is_none());
        assert_eq!(encode(&vec![b'x'; 65535]).unwrap().len(), 65540);
    }

    #[test]
    fn lenient_decoding_reports_issues() {
        use DebugNameRule::*;
        let short = |stated, actual| NameLengthMismatch { stated, actual };
        /// Data, expected name, the findings (offset and kind).
        type Row<'a> = (&'a [u8], &'a [u8], &'a [(u64, DebugNameRule)]);
        let rows: &[Row<'_>] = &[
            (
                b"\x01\0\x03\0abc\0",
                b"abc",
                &[(0x100, ReservedFlags { flags: 1 })],
            ),
            (b"\0\0\x05\0abc\0\0\0\0\0", b"abc", &[(0x107, short(5, 3))]),
            (b"\0\0\x03\0a\0c\0", b"a", &[(0x105, short(3, 1))]),
            (b"\0\0\x03\0abcd", b"abc", &[(0x107, NameUnterminated)]),
            (b"\0\0\x03\0abc", b"abc", &[(0x107, NameUnterminated)]),
            (
                b"\x07\0\x02\0a\0\0\0",
                b"a",
                &[(0x100, ReservedFlags { flags: 7 }), (0x105, short(2, 1))],
            ),
        ];
        for (data, name, found) in rows {
            let d = DebugName::parse_data(data, 0x100).unwrap();
            assert_eq!(d.name, *name, "{data:?}");
            let expected: Vec<Finding> = found
                .iter()
                .map(|(at, kind)| Finding::at(*at, kind.clone()))
                .collect();
            assert_eq!(d.issues, expected, "{data:?}");
        }
    }

    #[test]
    fn parse_errors() {
        let table: &[&[u8]] = &[
            b"",
            b"\0\0",
            b"\0\0\x05\0abc", // name past the part
        ];
        for data in table {
            let e = DebugName::parse_data(data, 100).unwrap_err();
            assert!(
                matches!(e.kind, ReadErrorKind::Truncated { .. }),
                "{data:?}: {e}"
            );
            assert!(e.offset >= 100);
        }
        let e = DebugName::parse_data(b"\0\0\x0a\0abc", 0x20).unwrap_err();
        assert!(matches!(
            e.kind,
            ReadErrorKind::Truncated { needed: 10, .. }
        ));
        assert_eq!(e.offset, 0x24);
    }

    /// Both views of hostile ILDN data in a part whose data starts at 0x48:
    /// the dxc view's findings or error, and the LLVM view's error or success.
    #[test]
    fn hostile_inputs_in_both_views() {
        use crate::testutil::{err, found, outcome, rules, Row};
        use DebugNameRule::*;
        let rows: Vec<Row<&[u8], Vec<Finding>>> = vec![
            ("empty", b"", err("Truncated", 0x48), err("Truncated", 0x48)),
            (
                "short header",
                b"\0\0\x01",
                err("Truncated", 0x4a),
                err("Truncated", 0x4a),
            ),
            ("dxc layout", b"\0\0\x03\0abc\0", found(&[]), found(&[])),
            ("empty name", b"\0\0\0\0\0\0\0\0", found(&[]), found(&[])),
            (
                "flags set",
                b"\x01\0\x03\0abc\0",
                rules(&[(0x48, ReservedFlags { flags: 1 })]),
                found(&[]),
            ),
            (
                "NUL before NameLength",
                b"\0\0\x05\0abc\0\0\0\0\0",
                rules(&[(
                    0x4f,
                    NameLengthMismatch {
                        stated: 5,
                        actual: 3,
                    },
                )]),
                err("SizeMismatch", 0x4c),
            ),
            (
                "no NUL after the name",
                b"\0\0\x03\0abcd",
                rules(&[(0x4f, NameUnterminated)]),
                err("NotNulTerminated", 0x4c),
            ),
            (
                "name ends the part",
                b"\0\0\x03\0abc",
                rules(&[(0x4f, NameUnterminated)]),
                err("NotNulTerminated", 0x4c),
            ),
            (
                "NUL past NameLength",
                b"\0\0\x02\0abc\0",
                rules(&[(0x4e, NameUnterminated)]),
                err("NotNulTerminated", 0x4c),
            ),
            (
                "name past the part",
                b"\0\0\x05\0abc",
                err("Truncated", 0x4c),
                err("NotNulTerminated", 0x4c),
            ),
            (
                "flags set and NUL before NameLength",
                b"\x07\0\x02\0a\0\0\0",
                rules(&[
                    (0x48, ReservedFlags { flags: 7 }),
                    (
                        0x4d,
                        NameLengthMismatch {
                            stated: 2,
                            actual: 1,
                        },
                    ),
                ]),
                err("SizeMismatch", 0x4c),
            ),
        ];
        for (row, data, dxc, llvm) in rows {
            let part = Part {
                index: 0,
                name: crate::PartName::ILDN,
                offset: 0x40,
                data,
            };
            let issues = |d: &DebugName<'_>| d.issues.clone();
            assert_eq!(outcome(row, DebugName::parse(&part), issues), dxc, "{row}");
            assert_eq!(
                outcome(row, DebugName::parse_llvm_compat(&part), issues),
                llvm,
                "{row} (LLVM view)"
            );
        }
        // The LLVM view's name is exactly NameLength bytes.
        let part = Part {
            index: 0,
            name: crate::PartName::ILDN,
            offset: 0x40,
            data: b"\x01\0\x03\0abc\0",
        };
        let d = DebugName::parse_llvm_compat(&part).unwrap();
        assert_eq!((d.flags, d.name_length, d.name), (1, 3, &b"abc"[..]));
    }

    #[test]
    fn file_name_splits_both_separators() {
        for (name, want) in [
            (&b"a.pdb"[..], &b"a.pdb"[..]),
            (b"dir/a.pdb", b"a.pdb"),
            (b"C:\\out\\pdb\\a.pdb", b"a.pdb"),
            (b"mixed\\x/y.pdb", b"y.pdb"),
            (b"dir/", b""),
        ] {
            let data = encode(name).unwrap();
            assert_eq!(DebugName::parse_data(&data, 0).unwrap().file_name(), want);
        }
    }
}
