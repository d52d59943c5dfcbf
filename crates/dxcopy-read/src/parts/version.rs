//! VERS, the compiler version (docs/format/small-parts.md §5, docs/format/enums.md §9): a 16-byte header
//! (`u16 Major`, `u16 Minor`, `u32 Flags`, `u32 CommitCount`,
//! `u32 ContentSizeInBytes`) followed by two NUL-terminated strings, the
//! compiler's commit SHA and a custom version string, then padding to 4.
//!
//! One decoder reads the part for both views: [`CompilerVersion::parse`]
//! reports rule breaks as findings, [`CompilerVersion::parse_llvm_compat`]
//! fails where LLVM's reader does.

use super::Mode;
use crate::container::Part;
use crate::cursor::Cursor;
use crate::enums::flag_set;
use crate::error::Result;
use crate::finding::{Finding, Rule};
use std::fmt;

/// Size of the VERS header.
pub const VERSION_HEADER_SIZE: u64 = VersionHeader::SIZE;

crate::record::record! {
    /// The VERS header (docs/format/small-parts.md); the two strings follow.
    pub struct VersionHeader: "VERS header" {
        /// Major version.
        0 major: u16 => "VERS major";
        /// Minor version.
        2 minor: u16 => "VERS minor";
        /// Flags.
        4 flags: VersionFlags => "VERS flags";
        /// Number of commits.
        8 commit_count: u32 => "VERS commit count";
        /// Size of the strings that follow.
        12 content_size: u32 => "VERS content size";
    }
}

flag_set! {
    /// VERS flag bits (`CompilerVersionFlags`): Debug = 1, Internal = 2.
    pub struct VersionFlags: u32 {
        DEBUG = 0x1 => "Debug",
        INTERNAL = 0x2 => "Internal",
    }
}

/// A decoded VERS part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CompilerVersion<'data> {
    /// Compiler major version.
    pub major: u16,
    /// Compiler minor version.
    pub minor: u16,
    /// Flags (Debug = 1: a debug build of the compiler; Internal = 2).
    pub flags: VersionFlags,
    /// `git rev-list --count HEAD` of the compiler (LLVM writes 0).
    pub commit_count: u32,
    /// ContentSizeInBytes as stored: both strings with their NULs.
    pub content_size: u32,
    /// The commit SHA (without NUL).
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub commit_sha: &'data [u8],
    /// The custom version string (without NUL), e.g. `1.8.2403.34`.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub version_string: &'data [u8],
    /// Rule violations (unknown flag bits, a missing version string, slack after the strings).
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

impl<'data> CompilerVersion<'data> {
    /// Decodes VERS data located at absolute offset `base`.
    ///
    /// Fatal: a short header, content that runs past the part, a commit SHA
    /// without a NUL inside the content.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<CompilerVersion<'data>> {
        decode(Cursor::new(data, base), Mode::Strict)
    }

    /// Decodes a VERS part.
    pub fn parse(part: &Part<'data>) -> Result<CompilerVersion<'data>> {
        CompilerVersion::parse_data(part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// Decodes a VERS part as upstream LLVM's reader does (the obj2yaml view
    /// with upstream keys). The same reading as [`CompilerVersion::parse`],
    /// except:
    ///
    /// * flags of 4 or more are an `UnknownValue` error, checked before the
    ///   content (the dxc view reports `InvalidFlags`);
    /// * ContentSizeInBytes may run past the part: the strings are looked for
    ///   in the part's bytes within it;
    /// * a version string without a NUL within the content is a
    ///   `NotNulTerminated` error (the dxc view reports
    ///   `VersionStringMissing`);
    /// * content past the strings is not checked, and `issues` stays empty.
    pub fn parse_llvm_compat(part: &Part<'data>) -> Result<CompilerVersion<'data>> {
        decode(part.cursor(), Mode::LlvmCompat).map_err(|e| e.in_part(part.part_ref()))
    }
}

fn decode(c: Cursor<'_>, mode: Mode) -> Result<CompilerVersion<'_>> {
    let strict = mode == Mode::Strict;
    let VersionHeader {
        major,
        minor,
        flags,
        commit_count,
        content_size,
    } = VersionHeader::read(&c, 0)?;
    let mut issues = Vec::new();
    if flags.unknown_bits() != 0 {
        if !strict {
            return Err(c.unknown_value(
                4,
                VersionError::Flags {
                    value: flags.bits(),
                },
            ));
        }
        issues.push(Finding::at(
            c.abs(4),
            VersionRule::InvalidFlags {
                flags: flags.bits(),
            },
        ));
    }
    let content = match mode {
        Mode::Strict => c.sub(
            VERSION_HEADER_SIZE,
            u64::from(content_size),
            "VERS strings (ContentSizeInBytes)",
        )?,
        // LLVM looks for the strings in what the part holds of the content.
        Mode::LlvmCompat => {
            let held = c.rest(VERSION_HEADER_SIZE);
            let len = held
                .len()
                .min(usize::try_from(content_size).unwrap_or(usize::MAX));
            Cursor::new(&held[..len], c.abs(VERSION_HEADER_SIZE))
        }
    };
    let commit_sha = content.cstr(
        0,
        content.len(),
        mode.label("VERS commit SHA", "VERS CommitSha"),
    )?;
    let after_sha = commit_sha.len() as u64 + 1;
    let version_string = match content.cstr(after_sha, content.len(), "VERS CustomVersionString") {
        Ok(s) => {
            let used = after_sha + s.len() as u64 + 1;
            if strict && used != content.len() {
                issues.push(Finding::at(
                    content.abs(used),
                    VersionRule::ContentSizeMismatch {
                        stated: content_size,
                        used,
                    },
                ));
            }
            s
        }
        Err(e) if !strict => return Err(e),
        Err(_) => {
            issues.push(Finding::at(
                content.abs(after_sha),
                VersionRule::VersionStringMissing,
            ));
            &[]
        }
    };
    Ok(CompilerVersion {
        major,
        minor,
        flags,
        commit_count,
        content_size,
        commit_sha,
        version_string,
        issues,
    })
}

/// The rules the VERS decoder checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionRule {
    /// Flags that are not a valid combination.
    InvalidFlags {
        /// The flags.
        flags: u32,
    },
    /// ContentSizeInBytes differs from the bytes the strings use.
    ContentSizeMismatch {
        /// ContentSizeInBytes.
        stated: u32,
        /// Bytes the two strings use.
        used: u64,
    },
    /// No NUL-terminated version string within ContentSizeInBytes.
    VersionStringMissing,
}

impl fmt::Display for VersionRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use VersionRule::*;
        match self {
            InvalidFlags { flags } => write!(f, "flags {flags:#x} are not a valid combination"),
            ContentSizeMismatch { stated, used } => write!(
                f,
                "ContentSizeInBytes is {stated} but the strings use {used} bytes"
            ),
            VersionStringMissing => f.write_str(
                "version string is missing or not NUL-terminated within ContentSizeInBytes",
            ),
        }
    }
}

impl Rule for VersionRule {}

/// The VERS decoder's errors, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionError {
    /// Flags that are not a valid combination (values 4 and up), in the
    /// LLVM view.
    Flags {
        /// The flags.
        value: u32,
    },
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionError::Flags { .. } => {
                f.write_str("Incorrect shader compiler version flags combination")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;
    use crate::finding::FindingKind;

    #[test]
    fn each_error_says_its_sentence() {
        use VersionError::*;
        crate::testutil::errors_say(vec![(
            Flags { value: 4 },
            "Incorrect shader compiler version flags combination",
        )]);
    }

    #[test]
    fn each_rule_has_its_sentence() {
        use VersionRule::*;
        crate::testutil::rules_say(vec![
            (
                InvalidFlags { flags: 4 },
                "flags 0x4 are not a valid combination",
            ),
            (
                ContentSizeMismatch { stated: 8, used: 5 },
                "ContentSizeInBytes is 8 but the strings use 5 bytes",
            ),
            (
                VersionStringMissing,
                "version string is missing or not NUL-terminated within ContentSizeInBytes",
            ),
        ]);
    }

    fn vers(flags: u32, content_size: u32, strings: &[u8]) -> Vec<u8> {
        let mut v = VersionHeader {
            major: 1,
            minor: 8,
            flags: VersionFlags(flags),
            commit_count: 0x116a,
            content_size,
        }
        .to_bytes();
        v.extend_from_slice(strings);
        while !v.len().is_multiple_of(4) {
            v.push(0);
        }
        v
    }

    #[test]
    fn dxc_layout() {
        let data = vers(0, 21, b"c9660a8c\x001.8.2403.34\0");
        let v = CompilerVersion::parse_data(&data, 0).unwrap();
        assert_eq!((v.major, v.minor, v.commit_count), (1, 8, 0x116a));
        assert_eq!(v.commit_sha, b"c9660a8c");
        assert_eq!(v.version_string, b"1.8.2403.34");
        assert!(v.issues.is_empty());
        assert_eq!(v.flags.to_string(), "0");
    }

    /// Both views of hostile VERS data in a part whose data starts at 0x48:
    /// the dxc view's findings or error, and the LLVM view's error or success.
    #[test]
    fn hostile_inputs_in_both_views() {
        use crate::testutil::{err, found, outcome, rules, Row};
        use VersionRule::*;
        let rows: Vec<Row<Vec<u8>, Vec<Finding>>> = vec![
            (
                "short header",
                vec![0; 15],
                err("Truncated", 0x54),
                err("Truncated", 0x54),
            ),
            (
                "dxc layout",
                vers(0, 21, b"c9660a8c\x001.8.2403.34\0"),
                found(&[]),
                found(&[]),
            ),
            ("known flags", vers(3, 4, b"ab\0\0"), found(&[]), found(&[])),
            (
                "unknown flag bit",
                vers(4, 4, b"ab\0\0"),
                rules(&[(0x4c, InvalidFlags { flags: 4 })]),
                err("UnknownValue", 0x4c),
            ),
            (
                "unknown flag bit, content past the part",
                vers(4, 64, b"ab\0"),
                err("Truncated", 0x58),
                err("UnknownValue", 0x4c),
            ),
            (
                "content past the part, strings in it",
                vers(0, 64, b"ab\0c\0"),
                err("Truncated", 0x58),
                found(&[]),
            ),
            (
                "no version string",
                vers(0, 3, b"ab\0"),
                rules(&[(0x5b, VersionStringMissing)]),
                err("NotNulTerminated", 0x5b),
            ),
            (
                "version string NUL past the content",
                vers(0, 5, b"ab\0cd\0\0\0"),
                rules(&[(0x5b, VersionStringMissing)]),
                err("NotNulTerminated", 0x5b),
            ),
            (
                "slack after the strings",
                vers(0, 8, b"ab\0c\0\0\0\0"),
                rules(&[(0x5d, ContentSizeMismatch { stated: 8, used: 5 })]),
                found(&[]),
            ),
            (
                "commit SHA without NUL",
                vers(0, 2, b"abcd"),
                err("NotNulTerminated", 0x58),
                err("NotNulTerminated", 0x58),
            ),
            (
                "no content",
                vers(0, 0, b""),
                err("NotNulTerminated", 0x58),
                err("NotNulTerminated", 0x58),
            ),
            (
                "unknown flag bit and no version string",
                vers(4, 3, b"ab\0"),
                rules(&[
                    (0x4c, InvalidFlags { flags: 4 }),
                    (0x5b, VersionStringMissing),
                ]),
                err("UnknownValue", 0x4c),
            ),
        ];
        for (row, data, dxc, llvm) in rows {
            let part = Part {
                index: 0,
                name: crate::PartName::VERS,
                offset: 0x40,
                data: &data,
            };
            let issues = |v: &CompilerVersion<'_>| v.issues.clone();
            assert_eq!(
                outcome(row, CompilerVersion::parse(&part), issues),
                dxc,
                "{row}"
            );
            assert_eq!(
                outcome(row, CompilerVersion::parse_llvm_compat(&part), issues),
                llvm,
                "{row} (LLVM view)"
            );
        }
        // The LLVM view reads the strings within ContentSizeInBytes even when
        // it runs past the part.
        let data = vers(0, 64, b"ab\0c\0");
        let part = Part {
            index: 0,
            name: crate::PartName::VERS,
            offset: 0x40,
            data: &data,
        };
        let v = CompilerVersion::parse_llvm_compat(&part).unwrap();
        assert_eq!((v.commit_sha, v.version_string), (&b"ab"[..], &b"c"[..]));
    }

    #[test]
    fn issues_and_errors() {
        // (data, the finding or None)
        let rows: Vec<(Vec<u8>, Option<VersionRule>)> = vec![
            (vers(3, 4, b"ab\0\0"), None),
            (
                vers(4, 4, b"ab\0\0"),
                Some(VersionRule::InvalidFlags { flags: 4 }),
            ),
            (vers(0, 3, b"ab\0"), Some(VersionRule::VersionStringMissing)),
            (
                vers(0, 8, b"ab\0c\0\0\0\0"),
                Some(VersionRule::ContentSizeMismatch { stated: 8, used: 5 }),
            ),
        ];
        for (data, kind) in rows {
            let v = CompilerVersion::parse_data(&data, 0).unwrap();
            let kinds: Vec<FindingKind> = v.issues.iter().map(|i| i.kind.clone()).collect();
            assert_eq!(
                kinds,
                Vec::from_iter(kind.map(FindingKind::from)),
                "{:?}",
                v.issues
            );
        }
        assert_eq!(
            CompilerVersion::parse_data(&vers(3, 4, b"ab\0\0"), 0)
                .unwrap()
                .flags
                .names(),
            vec!["Debug", "Internal"]
        );
        assert!(matches!(
            CompilerVersion::parse_data(&[0; 15], 0).unwrap_err().kind,
            ReadErrorKind::Truncated { .. }
        ));
        assert!(matches!(
            CompilerVersion::parse_data(&vers(0, 64, b"ab\0"), 0)
                .unwrap_err()
                .kind,
            ReadErrorKind::Truncated { .. }
        ));
        assert!(matches!(
            CompilerVersion::parse_data(&vers(0, 2, b"abcd"), 0)
                .unwrap_err()
                .kind,
            ReadErrorKind::NotNulTerminated {
                table_offset: None,
                ..
            }
        ));
    }
}
