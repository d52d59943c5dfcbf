//! SRCI, the shader source info dxc writes into companion PDBs
//! (docs/format/small-parts.md §6): an 8-byte header (`u32 AlignedSizeInBytes`, `u16 Flags`,
//! `u16 SectionCount` = 3), then three 4-byte aligned sections, each with an
//! 8-byte section header (`u32 AlignedSizeInBytes`, `u16 Flags`, `u16 Type`):
//! the source file names, their contents (optionally one zlib stream) and the
//! compiler arguments as `name\0value\0` pairs.
//!
//! Decompression is bounded twice: by the declared uncompressed size and by
//! [`MAX_SOURCE_CONTENTS`]; a stream that inflates past either is an error,
//! never an allocation.
//!
//! One decoder reads the part for both views: [`SourceInfo::parse`] reports
//! rule breaks as findings in `issues`, [`SourceInfo::parse_llvm_compat`]
//! (the obj2yaml view) fails where upstream LLVM's reader fails and follows its
//! reading where it differs.

use super::Mode;
use crate::container::Part;
use crate::cursor::Cursor;
use crate::enums::open_enum;
use crate::error::{ReadErrorKind, Result};
use crate::fields::align4;
use crate::finding::{Finding, FindingKind, Rule};
use std::borrow::Cow;
use std::fmt;
use std::io::Read;

/// Size of the SRCI header and of each section header.
pub const SOURCE_INFO_HEADER_SIZE: u64 = SourceInfoHeader::SIZE;
/// Size of a section header.
pub const SECTION_HEADER_SIZE: u64 = SectionHeader::SIZE;
/// Size of the names section's packed header.
pub const NAMES_HEADER_SIZE: u64 = NamesHeader::SIZE;
/// Size of a names entry header.
pub const NAME_ENTRY_SIZE: u64 = NameEntryHeader::SIZE;
/// Size of the contents section's header.
pub const CONTENTS_HEADER_SIZE: u64 = ContentsHeader::SIZE;
/// Size of a contents entry header.
pub const CONTENT_ENTRY_SIZE: u64 = ContentEntryHeader::SIZE;
/// Size of the args section's header.
pub const ARGS_HEADER_SIZE: u64 = ArgsHeader::SIZE;

// The SRCI records (docs/format/small-parts.md). The strict view names a
// short record as a whole (the record's text), the LLVM view by field.

crate::record::record! {
    /// The SRCI header; `section_count` sections follow.
    pub struct SourceInfoHeader: "SRCI header" {
        /// Size of the part data, 4-byte aligned.
        0 aligned_size: u32 => "SRCI size";
        /// Flags (0).
        4 flags: u16 => "SRCI flags";
        /// Number of sections (3).
        6 section_count: u16 => "SRCI section count";
    }
}

crate::record::record! {
    /// A section header; the section body follows.
    pub struct SectionHeader: "SRCI section header" {
        /// Size of the section with this header, 4-byte aligned.
        0 aligned_size: u32 => "SRCI section size";
        /// Flags (0).
        4 flags: u16 => "SRCI section flags";
        /// Section type.
        6 section_type: SectionType => "SRCI section type";
    }
}

crate::record::record! {
    /// The names section's header; the entries follow.
    pub struct NamesHeader: "source names header" {
        /// Flags (0).
        0 flags: u32 => "SRCI names flags";
        /// Number of entries.
        4 count: u32 => "SRCI names count";
        /// Size of the entries.
        8 entries_size: u16 => "SRCI names entries size";
    }
}

crate::record::record! {
    /// A names entry header; the NUL-terminated file name follows.
    pub struct NameEntryHeader: "source name entry" {
        /// Size of the entry, 4-byte aligned.
        0 aligned_size: u32;
        /// Flags (0).
        4 flags: u32;
        /// Size of the name with its NUL.
        8 name_size: u32;
        /// Size of the file's contents with their NUL.
        12 content_size: u32 => "SRCI name content size";
    }
}

crate::record::record! {
    /// The contents section's header; the (possibly compressed) entries follow.
    pub struct ContentsHeader: "source contents header" {
        /// Size of the header and the stored entries, 4-byte aligned.
        0 aligned_size: u32 => "SRCI contents size";
        /// Flags (0).
        4 flags: u16 => "SRCI contents flags";
        /// Compression of the entries.
        6 compression: Compression => "SRCI compression type";
        /// Size of the stored entries.
        8 entries_size: u32 => "SRCI contents entries size";
        /// Size of the entries uncompressed.
        12 uncompressed_size: u32 => "SRCI contents uncompressed size";
        /// Number of entries.
        16 count: u32 => "SRCI contents count";
    }
}

crate::record::record! {
    /// A contents entry header; the NUL-terminated text follows.
    pub struct ContentEntryHeader: "source content entry" {
        /// Size of the entry, 4-byte aligned.
        0 aligned_size: u32;
        /// Flags (0).
        4 flags: u32;
        /// Size of the text with its NUL.
        8 content_size: u32;
    }
}

crate::record::record! {
    /// The args section's header; the name/value pairs follow.
    pub struct ArgsHeader: "args header" {
        /// Flags (0).
        0 flags: u32 => "SRCI args flags";
        /// Size of the pairs.
        4 size: u32 => "SRCI args size";
        /// Number of pairs.
        8 count: u32 => "SRCI args count";
    }
}
/// Hard cap on the decompressed size of the source contents (64 MiB), whatever
/// the part declares.
pub const MAX_SOURCE_CONTENTS: u64 = 64 << 20;

open_enum! {
    /// SRCI section type (`SourceInfo::SectionType`, docs/format/enums.md §9).
    pub enum SectionType: u16 {
        SourceContents = 0 => "SourceContents",
        SourceNames = 1 => "SourceNames",
        Args = 2 => "Args",
    }
}

open_enum! {
    /// Compression of the source contents (`CompressionType`).
    pub enum Compression: u16 {
        None = 0 => "None",
        Zlib = 1 => "Zlib",
    }
}

/// One section as laid out in the part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceSection {
    /// Absolute offset of the section header.
    pub offset: u64,
    /// AlignedSizeInBytes (header included).
    pub aligned_size: u32,
    /// Reserved flags.
    pub flags: u16,
    /// Section type.
    pub section_type: SectionType,
}

/// The names section.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceNames<'data> {
    /// Reserved flags.
    pub flags: u32,
    /// Number of entries as stored.
    pub count: u32,
    /// EntriesSizeInBytes as stored.
    pub entries_size: u16,
    /// The entries read.
    pub entries: Vec<SourceName<'data>>,
}

/// One file name.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceName<'data> {
    /// AlignedSizeInBytes of the entry.
    pub aligned_size: u32,
    /// Reserved flags.
    pub flags: u32,
    /// NameSizeInBytes (with NUL).
    pub name_size: u32,
    /// Size of the matching contents entry (with NUL).
    pub content_size: u32,
    /// The file name (without NUL).
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
}

/// The contents section.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceContents<'data> {
    /// AlignedSizeInBytes of the contents header (dxc writes 0).
    pub aligned_size: u32,
    /// Reserved flags.
    pub flags: u16,
    /// How the entries are stored.
    pub compression: Compression,
    /// EntriesSizeInBytes: bytes of the (possibly compressed) entries.
    pub entries_size: u32,
    /// UncompressedEntriesSizeInBytes.
    pub uncompressed_size: u32,
    /// Number of entries as stored.
    pub count: u32,
    /// The entries read (decompressed when zlib).
    pub entries: Vec<SourceContent<'data>>,
}

/// One file's source text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceContent<'data> {
    /// AlignedSizeInBytes of the entry.
    pub aligned_size: u32,
    /// Reserved flags.
    pub flags: u32,
    /// ContentSizeInBytes (with NUL).
    pub content_size: u32,
    /// The text without its NUL; owned when it came out of a zlib stream.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub content: Cow<'data, [u8]>,
}

/// The compiler arguments section.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceArgs<'data> {
    /// Reserved flags.
    pub flags: u32,
    /// SizeInBytes of the pairs.
    pub size: u32,
    /// Number of pairs as stored.
    pub count: u32,
    /// The pairs read; a positional argument (the main file) has an empty name.
    pub args: Vec<SourceArg<'data>>,
}

/// One `name`/`value` argument pair (`-E main` is `E` / `main`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceArg<'data> {
    /// Option name without its dash, empty for positional arguments.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Option value, empty for flags.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub value: &'data [u8],
}

/// A decoded SRCI part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SourceInfo<'data> {
    /// AlignedSizeInBytes of the part.
    pub aligned_size: u32,
    /// Reserved flags.
    pub flags: u16,
    /// SectionCount as stored (3).
    pub section_count: u16,
    /// The sections in file order.
    pub sections: Vec<SourceSection>,
    /// The names section, if present.
    pub names: Option<SourceNames<'data>>,
    /// The contents section, if present.
    pub contents: Option<SourceContents<'data>>,
    /// The args section, if present.
    pub args: Option<SourceArgs<'data>>,
    /// Rule violations that do not stop decoding.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::finding::ser::issues")
    )]
    pub issues: Vec<Finding>,
}

impl<'data> SourceInfo<'data> {
    /// Decodes SRCI data located at absolute offset `base`.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<SourceInfo<'data>> {
        decode(Cursor::new(data, base), Mode::Strict)
    }

    /// Decodes an SRCI part.
    pub fn parse(part: &Part<'data>) -> Result<SourceInfo<'data>> {
        SourceInfo::parse_data(part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// Decodes an SRCI part as upstream LLVM's reader does (the obj2yaml view
    /// with upstream keys). The same reading as [`SourceInfo::parse`], with
    /// LLVM's rules as errors where the dxc view reports findings, and
    /// `issues` left empty:
    ///
    /// * AlignedSizeInBytes past the part is an `OutOfBounds` error, a
    ///   SectionCount other than 3 a `SizeMismatch`, a repeated or unknown
    ///   section type an `UnknownValue`;
    /// * each section's AlignedSizeInBytes must be its header plus what its
    ///   content uses, rounded up to 4 (a `SizeMismatch`), where the names
    ///   and the uncompressed contents use the entries read (not their
    ///   stated EntriesSizeInBytes); a section smaller than its header is read
    ///   as an empty one;
    /// * the name entries and the argument pairs are read up to the end of
    ///   their section (EntriesSizeInBytes and SizeInBytes do not bound
    ///   them), and an entry smaller than its header fails at the first
    ///   header field it lacks;
    /// * every source text must be one NUL-terminated string (a
    ///   `NotOneString` error), and zlib contents must inflate to exactly the
    ///   declared size (a `SizeMismatch`);
    /// * flags, name sizes and the agreement of names and contents are not
    ///   checked.
    pub fn parse_llvm_compat(part: &Part<'data>) -> Result<SourceInfo<'data>> {
        decode(part.cursor(), Mode::LlvmCompat).map_err(|e| e.in_part(part.part_ref()))
    }

    /// (file name, source text) pairs, in the order of the names section.
    pub fn files(&self) -> Vec<(&[u8], Option<&[u8]>)> {
        let names = self
            .names
            .as_ref()
            .map(|n| n.entries.as_slice())
            .unwrap_or(&[]);
        let contents = self
            .contents
            .as_ref()
            .map(|c| c.entries.as_slice())
            .unwrap_or(&[]);
        names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name, contents.get(i).map(|c| &*c.content)))
            .collect()
    }
}

impl SourceInfo<'_> {
    /// The main file's name: the args section's positional argument (what
    /// was compiled), else the first name, which dxc writes first.
    pub fn main_file(&self) -> Option<&[u8]> {
        let positional = self
            .args
            .as_ref()
            .and_then(|a| {
                a.args
                    .iter()
                    .find(|arg| arg.name.is_empty() && !arg.value.is_empty())
            })
            .map(|arg| arg.value);
        positional.or_else(|| {
            self.names
                .as_ref()
                .and_then(|n| n.entries.first())
                .map(|n| n.name)
        })
    }
}

/// The path below an extraction folder for a recorded source name, as
/// components that never lead outside it: `/` and `\` both separate; a
/// drive (`C:`, also `C:rel`), a leading separator, a UNC prefix
/// (`\\server`) and `.` are dropped; `..` becomes `__`; NUL, control
/// characters and `:` (a drive or stream on Windows) become `_`; a name
/// with nothing left is `unnamed`. Distinct names can map to one path
/// (`a/../b` and `a/__/b`); the caller decides what to do then.
pub fn extraction_path(name: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(name);
    let mut parts: Vec<String> = Vec::new();
    for (i, component) in text.split(['/', '\\']).enumerate() {
        let bytes = component.as_bytes();
        let component =
            if i == 0 && bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
                &component[2..]
            } else {
                component
            };
        match component {
            "" | "." => {}
            ".." => parts.push("__".into()),
            other => parts.push(
                other
                    .chars()
                    .map(|c| if c.is_control() || c == ':' { '_' } else { c })
                    .collect(),
            ),
        }
    }
    if parts.is_empty() {
        parts.push("unnamed".into());
    }
    parts
}

fn decode(c: Cursor<'_>, mode: Mode) -> Result<SourceInfo<'_>> {
    let strict = mode == Mode::Strict;
    let SourceInfoHeader {
        aligned_size,
        flags,
        section_count,
    } = SourceInfoHeader::read_as(&c, 0, mode.label(Some(SourceInfoHeader::WHAT), None))?;
    let mut info = SourceInfo {
        aligned_size,
        flags,
        section_count,
        sections: Vec::new(),
        names: None,
        contents: None,
        args: None,
        issues: Vec::new(),
    };
    if u64::from(aligned_size) > c.len() {
        if !strict {
            return Err(c.error(
                0,
                ReadErrorKind::out_of_bounds(SourceInfoError::PartSize {
                    aligned_size,
                    part_size: c.len(),
                }),
            ));
        }
        info.issues.push(Finding::at(
            c.abs(0),
            SourceInfoRule::AlignedSizePastPart {
                aligned_size,
                part_size: c.len(),
            },
        ));
    }
    if strict && flags != 0 {
        info.issues.push(Finding::at(
            c.abs(4),
            FindingKind::FlagsSet {
                field: "reserved flags",
                flags: u32::from(flags),
            },
        ));
    }
    if section_count != 3 {
        if !strict {
            return Err(c.error(
                6,
                ReadErrorKind::size_mismatch(SourceInfoError::SectionCount {
                    stored: section_count,
                }),
            ));
        }
        info.issues.push(Finding::at(
            c.abs(6),
            FindingKind::NotFixedValue {
                field: "SectionCount",
                value: u32::from(section_count),
                expected: 3,
            },
        ));
    }
    let mut pos = SOURCE_INFO_HEADER_SIZE;
    for _ in 0..section_count {
        let section_at = pos;
        let SectionHeader {
            aligned_size: section_size,
            flags: section_flags,
            section_type,
        } = SectionHeader::read_as(&c, pos, mode.label(Some(SectionHeader::WHAT), None))?;
        pos += SectionHeader::SIZE;
        if strict && u64::from(section_size) < SECTION_HEADER_SIZE {
            return Err(c.error(
                section_at,
                ReadErrorKind::too_small(SourceInfoError::SectionTooSmall { size: section_size }),
            ));
        }
        // LLVM reads a section smaller than its header as an empty one.
        let body = c.take_sub(
            &mut pos,
            u64::from(section_size).saturating_sub(SECTION_HEADER_SIZE),
            "SRCI section",
        )?;
        info.sections.push(SourceSection {
            offset: c.abs(section_at),
            aligned_size: section_size,
            flags: section_flags,
            section_type,
        });
        if strict && section_flags != 0 {
            info.issues.push(Finding::at(
                c.abs(section_at + 4),
                FindingKind::FlagsSet {
                    field: "section flags",
                    flags: u32::from(section_flags),
                },
            ));
        }
        let raw = section_type.raw();
        let first_of_its_type = match raw {
            0 => info.contents.is_none(),
            1 => info.names.is_none(),
            2 => info.args.is_none(),
            _ => false,
        };
        if !first_of_its_type {
            if !strict {
                return Err(
                    c.unknown_value(section_at + 6, SourceInfoError::SectionType { value: raw })
                );
            }
            let kind = match raw {
                0..=2 => SourceInfoRule::DuplicateSection {
                    section: section_type,
                },
                _ => SourceInfoRule::UnknownSection { raw },
            };
            info.issues.push(Finding::at(c.abs(section_at + 6), kind));
            continue;
        }
        let used = match raw {
            0 => {
                let (contents, used) = decode_contents(body, mode, &mut info.issues)?;
                info.contents = Some(contents);
                used
            }
            1 => {
                let (names, used) = decode_names(body, mode, &mut info.issues)?;
                info.names = Some(names);
                used
            }
            _ => {
                let (args, used) = decode_args(body, mode)?;
                info.args = Some(args);
                used
            }
        };
        let needed = SECTION_HEADER_SIZE + used;
        if align4(needed) != u64::from(section_size) {
            if !strict {
                return Err(c.error(
                    section_at,
                    ReadErrorKind::size_mismatch(SourceInfoError::SectionSize {
                        stored: section_size,
                        actual: needed,
                    }),
                ));
            }
            info.issues.push(Finding::at(
                c.abs(section_at),
                SourceInfoRule::SectionSizeMismatch {
                    section: section_type,
                    stated: section_size,
                    needed: align4(needed),
                },
            ));
        }
    }
    if let (true, Some(names), Some(contents)) = (strict, &info.names, &info.contents) {
        if names.entries.len() != contents.entries.len() {
            info.issues.push(Finding::at(
                c.abs(0),
                SourceInfoRule::SourceCountMismatch {
                    names: names.entries.len(),
                    contents: contents.entries.len(),
                },
            ));
        }
        for (i, (n, t)) in names.entries.iter().zip(&contents.entries).enumerate() {
            if n.content_size != t.content_size {
                info.issues.push(Finding::at(
                    c.abs(0),
                    SourceInfoRule::SourceSizeMismatch {
                        index: i,
                        name: String::from_utf8_lossy(n.name).into_owned(),
                        names_say: n.content_size,
                        contents_hold: t.content_size,
                    },
                ));
            }
        }
    }
    Ok(info)
}

/// The names section; the second value is the bytes of `body` it uses.
fn decode_names<'data>(
    body: Cursor<'data>,
    mode: Mode,
    issues: &mut Vec<Finding>,
) -> Result<(SourceNames<'data>, u64)> {
    let strict = mode == Mode::Strict;
    let NamesHeader {
        flags,
        count,
        entries_size,
    } = NamesHeader::read_as(&body, 0, mode.label(Some(NamesHeader::WHAT), None))?;
    if strict && flags != 0 {
        issues.push(Finding::at(
            body.abs(0),
            FindingKind::FlagsSet {
                field: "source names flags",
                flags,
            },
        ));
    }
    // LLVM reads the entries up to the end of the section, whatever
    // EntriesSizeInBytes says.
    let region = match mode {
        Mode::Strict => body.sub(
            NAMES_HEADER_SIZE,
            u64::from(entries_size),
            "source names entries",
        )?,
        Mode::LlvmCompat => Cursor::new(body.rest(NAMES_HEADER_SIZE), body.abs(NAMES_HEADER_SIZE)),
    };
    let mut entries = Vec::new();
    let mut pos = 0u64;
    for _ in 0..count {
        let entry = read_entry(&region, &mut pos, mode, &NAME_ENTRY)?;
        let content_size = entry.cursor.u32(12, "SRCI name content size")?;
        let name = entry.cursor.cstr(
            NAME_ENTRY_SIZE,
            u64::from(entry.string_size),
            mode.label("source file name", "SRCI file name"),
        )?;
        if strict && name.len() as u64 + 1 != u64::from(entry.string_size) {
            issues.push(Finding::at(
                entry.cursor.abs(8),
                SourceInfoRule::NameSizeMismatch {
                    stated: entry.string_size,
                    name: String::from_utf8_lossy(name).into_owned(),
                    actual: name.len() + 1,
                },
            ));
        }
        issues.extend(entry.flags_set);
        entries.push(SourceName {
            aligned_size: entry.aligned_size,
            flags: entry.flags,
            name_size: entry.string_size,
            content_size,
            name,
        });
    }
    if strict && pos != region.len() {
        issues.push(Finding::at(
            region.abs(pos),
            SourceInfoRule::EntriesSizeMismatch {
                used: pos,
                stated: u32::from(entries_size),
            },
        ));
    }
    let used = match mode {
        Mode::Strict => u64::from(entries_size),
        Mode::LlvmCompat => pos,
    };
    Ok((
        SourceNames {
            flags,
            count,
            entries_size,
            entries,
        },
        NAMES_HEADER_SIZE + used,
    ))
}

/// The contents section; the second value is the bytes of `body` it uses.
fn decode_contents<'data>(
    body: Cursor<'data>,
    mode: Mode,
    issues: &mut Vec<Finding>,
) -> Result<(SourceContents<'data>, u64)> {
    let strict = mode == Mode::Strict;
    let ContentsHeader {
        aligned_size,
        flags,
        compression,
        entries_size,
        uncompressed_size,
        count,
    } = ContentsHeader::read_as(&body, 0, mode.label(Some(ContentsHeader::WHAT), None))?;
    if strict && flags != 0 {
        issues.push(Finding::at(
            body.abs(4),
            FindingKind::FlagsSet {
                field: "source contents flags",
                flags: u32::from(flags),
            },
        ));
    }
    let blob = body.sub(
        CONTENTS_HEADER_SIZE,
        u64::from(entries_size),
        mode.label("source contents entries", "SRCI contents entries"),
    )?;
    let (entries, entries_end) = match compression.raw() {
        0 => {
            if strict && entries_size != uncompressed_size {
                issues.push(Finding::at(
                    body.abs(12),
                    SourceInfoRule::UncompressedSizeMismatch {
                        declared: uncompressed_size,
                        held: entries_size,
                    },
                ));
            }
            decode_content_entries(blob, count, mode, issues, Cow::Borrowed)?
        }
        1 => {
            let inflated = inflate(blob, uncompressed_size)?;
            if inflated.len() as u64 != u64::from(uncompressed_size) {
                if !strict {
                    return Err(body.error(
                        CONTENTS_HEADER_SIZE,
                        ReadErrorKind::size_mismatch(SourceInfoError::InflatedSize {
                            stored: uncompressed_size,
                            actual: inflated.len() as u64,
                        }),
                    ));
                }
                issues.push(Finding::at(
                    body.abs(12),
                    SourceInfoRule::InflatedSizeMismatch {
                        declared: uncompressed_size,
                        inflated: inflated.len(),
                    },
                ));
            }
            // Offsets inside the inflated stream are reported relative to the
            // compressed blob's file offset.
            let inflated_cursor = Cursor::new(&inflated, blob.base());
            decode_content_entries(inflated_cursor, count, mode, issues, |b| {
                Cow::Owned(b.to_vec())
            })?
        }
        other => {
            return Err(body.unknown_value(
                6,
                SourceInfoError::Compression {
                    value: other,
                    llvm: mode == Mode::LlvmCompat,
                },
            ));
        }
    };
    // LLVM counts the plain entries it read, the compressed stream as stated.
    let used = match (mode, compression.raw()) {
        (Mode::LlvmCompat, 0) => entries_end,
        _ => u64::from(entries_size),
    };
    Ok((
        SourceContents {
            aligned_size,
            flags,
            compression,
            entries_size,
            uncompressed_size,
            count,
            entries,
        },
        CONTENTS_HEADER_SIZE + used,
    ))
}

/// Inflates a zlib stream to at most `declared` bytes (and never more than
/// [`MAX_SOURCE_CONTENTS`]).
fn inflate(blob: Cursor<'_>, declared: u32) -> Result<Vec<u8>> {
    let declared = u64::from(declared);
    if declared > MAX_SOURCE_CONTENTS {
        return Err(blob.error(
            0,
            ReadErrorKind::limit_exceeded(SourceInfoError::ContentsSize {
                declared,
                limit: MAX_SOURCE_CONTENTS,
            }),
        ));
    }
    let mut out = Vec::new();
    let mut decoder = flate2::read::ZlibDecoder::new(blob.data()).take(declared + 1);
    decoder.read_to_end(&mut out).map_err(|e| {
        blob.error(
            0,
            ReadErrorKind::Inflate {
                part: None,
                message: e.to_string(),
            },
        )
    })?;
    if out.len() as u64 > declared {
        return Err(blob.error(
            0,
            ReadErrorKind::size_mismatch(SourceInfoError::ContentsInflatedSize { declared }),
        ));
    }
    Ok(out)
}

/// The layout of a names or a contents entry: a header whose first three
/// `u32` are AlignedSizeInBytes, Flags and the size of the entry's string,
/// then the string.
struct EntryLayout {
    /// Size of the entry's header.
    header_size: u64,
    /// The name of the entry in the strict view's errors.
    what: &'static str,
    /// The field named by the strict view's finding for flags set.
    flags_field: &'static str,
    /// The LLVM view's names of the entry's size, the entry, its flags and
    /// the size of its string, in its errors.
    llvm: [&'static str; 4],
}

/// A names entry (`SourceInfo::SourceNamesEntry`).
const NAME_ENTRY: EntryLayout = EntryLayout {
    header_size: NAME_ENTRY_SIZE,
    what: "source name entry",
    flags_field: "source name entry flags",
    llvm: [
        "SRCI name entry size",
        "SRCI name entry",
        "SRCI name entry flags",
        "SRCI name size",
    ],
};

/// A contents entry (`SourceInfo::SourceContentsEntry`).
const CONTENT_ENTRY: EntryLayout = EntryLayout {
    header_size: CONTENT_ENTRY_SIZE,
    what: "source contents entry",
    flags_field: "source contents entry flags",
    llvm: [
        "SRCI content entry size",
        "SRCI content entry",
        "SRCI content entry flags",
        "SRCI content size",
    ],
};

/// An entry read by [`read_entry`]: the header fields both kinds share and a
/// cursor over the whole entry.
struct Entry<'a> {
    aligned_size: u32,
    flags: u32,
    string_size: u32,
    cursor: Cursor<'a>,
    /// The strict view's finding for flags set, if any.
    flags_set: Option<Finding>,
}

/// The size-prefixed entry at `*pos` of `region`; moves `*pos` past it.
///
/// The strict view first requires the whole header in `region` (a short
/// region fails at its first missing word) and an entry at least as large as
/// its header (a `TooSmall` error otherwise). LLVM's reader takes the entry
/// as its size says, so a short entry fails at the first header field it
/// lacks.
fn read_entry<'a>(
    region: &Cursor<'a>,
    pos: &mut u64,
    mode: Mode,
    layout: &EntryLayout,
) -> Result<Entry<'a>> {
    let at = *pos;
    let [llvm_size, llvm_entry, llvm_flags, llvm_string_size] = layout.llvm;
    let aligned_size = region.u32(at, mode.label(layout.what, llvm_size))?;
    if mode == Mode::Strict {
        let mut header_end = at;
        region.take_u32_each(&mut header_end, layout.header_size / 4, layout.what)?;
        if u64::from(aligned_size) < layout.header_size {
            return Err(region.error(
                at,
                ReadErrorKind::too_small(SourceInfoError::EntryTooSmall {
                    entry: layout.what,
                    size: aligned_size,
                }),
            ));
        }
    }
    let cursor = region.take_sub(
        pos,
        u64::from(aligned_size),
        mode.label(layout.what, llvm_entry),
    )?;
    let flags = cursor.u32(4, llvm_flags)?;
    let string_size = cursor.u32(8, llvm_string_size)?;
    let flags_set = (mode == Mode::Strict && flags != 0).then(|| {
        Finding::at(
            cursor.abs(4),
            FindingKind::FlagsSet {
                field: layout.flags_field,
                flags,
            },
        )
    });
    Ok(Entry {
        aligned_size,
        flags,
        string_size,
        cursor,
        flags_set,
    })
}

/// `count` contents entries from `region`, each text kept by `keep`; the
/// second value is where the last entry ends in `region`.
fn decode_content_entries<'a, 'data>(
    region: Cursor<'a>,
    count: u32,
    mode: Mode,
    issues: &mut Vec<Finding>,
    keep: impl Fn(&'a [u8]) -> Cow<'data, [u8]>,
) -> Result<(Vec<SourceContent<'data>>, u64)> {
    let strict = mode == Mode::Strict;
    let mut entries = Vec::new();
    let mut pos = 0u64;
    for _ in 0..count {
        let entry = read_entry(&region, &mut pos, mode, &CONTENT_ENTRY)?;
        let raw = entry.cursor.bytes(
            CONTENT_ENTRY_SIZE,
            u64::from(entry.string_size),
            mode.label("source text", "SRCI file content"),
        )?;
        let content = match raw.iter().position(|&b| b == 0) {
            Some(nul) if nul + 1 == raw.len() => &raw[..nul],
            _ => {
                if !strict {
                    return Err(entry.cursor.error(
                        CONTENT_ENTRY_SIZE,
                        ReadErrorKind::NotOneString {
                            part: None,
                            what: "SRCI file content",
                        },
                    ));
                }
                issues.push(Finding::at(
                    entry.cursor.abs(8),
                    SourceInfoRule::SourceTextNul {
                        size: entry.string_size,
                    },
                ));
                raw
            }
        };
        issues.extend(entry.flags_set);
        entries.push(SourceContent {
            aligned_size: entry.aligned_size,
            flags: entry.flags,
            content_size: entry.string_size,
            content: keep(content),
        });
    }
    Ok((entries, pos))
}

/// The compiler arguments section; the second value is the bytes of `body`
/// it uses.
fn decode_args(body: Cursor<'_>, mode: Mode) -> Result<(SourceArgs<'_>, u64)> {
    let ArgsHeader { flags, size, count } =
        ArgsHeader::read_as(&body, 0, mode.label(Some(ArgsHeader::WHAT), None))?;
    // LLVM reads the pairs up to the end of the section, whatever SizeInBytes says.
    let region = match mode {
        Mode::Strict => body.sub(ARGS_HEADER_SIZE, u64::from(size), "args")?,
        Mode::LlvmCompat => Cursor::new(body.rest(ARGS_HEADER_SIZE), body.abs(ARGS_HEADER_SIZE)),
    };
    let mut args = Vec::new();
    let mut pos = 0u64;
    for _ in 0..count {
        let name = region.take_cstr(
            &mut pos,
            region.len(),
            mode.label("argument name", "SRCI argument name"),
        )?;
        let value = region.take_cstr(
            &mut pos,
            region.len(),
            mode.label("argument value", "SRCI argument value"),
        )?;
        args.push(SourceArg { name, value });
    }
    Ok((
        SourceArgs {
            flags,
            size,
            count,
            args,
        },
        ARGS_HEADER_SIZE + u64::from(size),
    ))
}

/// The SRCI decoder's errors, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceInfoError {
    /// AlignedSizeInBytes is more than the part (LLVM view).
    PartSize {
        /// AlignedSizeInBytes.
        aligned_size: u32,
        /// The part size.
        part_size: u64,
    },
    /// SectionCount is not the three sections the format has (LLVM view).
    SectionCount {
        /// SectionCount.
        stored: u16,
    },
    /// A section's AlignedSizeInBytes is smaller than its header.
    SectionTooSmall {
        /// AlignedSizeInBytes.
        size: u32,
    },
    /// A section type that is unknown, or a second section of one type
    /// (LLVM view).
    SectionType {
        /// The type.
        value: u16,
    },
    /// A section's size does not match its content (LLVM view).
    SectionSize {
        /// AlignedSizeInBytes.
        stored: u32,
        /// What the content needs.
        actual: u64,
    },
    /// The contents inflate to another size than declared (LLVM view).
    InflatedSize {
        /// UncompressedEntriesSizeInBytes.
        stored: u32,
        /// Bytes inflated.
        actual: u64,
    },
    /// The contents' compression type is neither 0 (none) nor 1 (zlib),
    /// in LLVM's words (`llvm` true) or the strict view's.
    Compression {
        /// The type.
        value: u16,
        /// LLVM's words.
        llvm: bool,
    },
    /// The contents declare more uncompressed bytes than the reader's
    /// limit.
    ContentsSize {
        /// The declared size.
        declared: u64,
        /// The limit.
        limit: u64,
    },
    /// The contents inflate to more than they declare.
    ContentsInflatedSize {
        /// The declared size.
        declared: u64,
    },
    /// A names or contents entry smaller than its header.
    EntryTooSmall {
        /// The entry ("source name entry").
        entry: &'static str,
        /// Its AlignedSizeInBytes.
        size: u32,
    },
}

impl fmt::Display for SourceInfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SourceInfoError::*;
        match self {
            PartSize {
                aligned_size,
                part_size,
            } => write!(f, "SRCI size {aligned_size} exceeds the {part_size}-byte part"),
            SectionCount { stored } => write!(f, "SRCI has {stored} sections, expected 3"),
            SectionTooSmall { size } => write!(
                f,
                "section AlignedSizeInBytes {size} is smaller than its header"
            ),
            SectionType { value } => write!(f, "invalid or repeated SRCI section type {value}"),
            SectionSize { stored, actual } => write!(
                f,
                "SRCI section size {stored} does not match its content ({actual})"
            ),
            InflatedSize { .. } => f.write_str("SRCI contents decompress to the wrong size"),
            Compression { value, llvm: true } => {
                write!(f, "unknown SRCI compression type {value}")
            }
            Compression { value, llvm: false } => {
                write!(f, "unknown source contents compression type {value}")
            }
            ContentsSize { declared, limit } => write!(
                f,
                "source contents declare {declared} uncompressed bytes, more than the {limit}-byte limit"
            ),
            ContentsInflatedSize { declared } => write!(
                f,
                "source contents inflate to more than the declared {declared} bytes"
            ),
            EntryTooSmall { entry, size } => write!(
                f,
                "{entry} AlignedSizeInBytes {size} is smaller than its header"
            ),
        }
    }
}

/// The rules the SRCI decoder checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceInfoRule {
    /// AlignedSizeInBytes is more than the part size.
    AlignedSizePastPart {
        /// AlignedSizeInBytes.
        aligned_size: u32,
        /// The part size.
        part_size: u64,
    },
    /// A second section of one type.
    DuplicateSection {
        /// The section type.
        section: SectionType,
    },
    /// A section type this reader does not know.
    UnknownSection {
        /// The raw type.
        raw: u16,
    },
    /// A section's AlignedSizeInBytes differs from what its data needs.
    SectionSizeMismatch {
        /// The section type.
        section: SectionType,
        /// AlignedSizeInBytes.
        stated: u32,
        /// What its data needs.
        needed: u64,
    },
    /// The names and contents sections list different numbers of sources.
    SourceCountMismatch {
        /// Entries in the names section.
        names: usize,
        /// Entries in the contents section.
        contents: usize,
    },
    /// The names and contents sections disagree on a source's size.
    SourceSizeMismatch {
        /// The source's index.
        index: usize,
        /// Its name.
        name: String,
        /// Content size the names section gives.
        names_say: u32,
        /// Content size the contents section gives.
        contents_hold: u32,
    },
    /// A name ends (at a NUL) before NameSizeInBytes.
    NameSizeMismatch {
        /// NameSizeInBytes.
        stated: u32,
        /// The name.
        name: String,
        /// Where it ends.
        actual: usize,
    },
    /// The names entries use another size than EntriesSizeInBytes.
    EntriesSizeMismatch {
        /// Bytes the entries use.
        used: u64,
        /// EntriesSizeInBytes.
        stated: u32,
    },
    /// Uncompressed contents hold another size than they declare.
    UncompressedSizeMismatch {
        /// UncompressedEntriesSizeInBytes.
        declared: u32,
        /// EntriesSizeInBytes.
        held: u32,
    },
    /// Zlib contents inflate to another size than they declare.
    InflatedSizeMismatch {
        /// UncompressedEntriesSizeInBytes.
        declared: u32,
        /// Bytes inflated.
        inflated: usize,
    },
    /// A source text that does not end at its first NUL.
    SourceTextNul {
        /// The text's ContentSizeInBytes.
        size: u32,
    },
}

impl fmt::Display for SourceInfoRule {
    /// The sentence `dxinfo --verify` prints for the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SourceInfoRule::*;
        match self {
            AlignedSizePastPart {
                aligned_size,
                part_size,
            } => write!(
                f,
                "AlignedSizeInBytes {aligned_size:#x} is more than the part size {part_size:#x}"
            ),
            DuplicateSection { section } => write!(f, "second {section} section"),
            UnknownSection { raw } => write!(f, "unknown section type {raw}"),
            SectionSizeMismatch {
                section,
                stated,
                needed,
            } => write!(
                f,
                "{section} section AlignedSizeInBytes is {stated} but its data needs {needed}"
            ),
            SourceCountMismatch { names, contents } => {
                write!(f, "{names} source names but {contents} source contents")
            }
            SourceSizeMismatch {
                index,
                name,
                names_say,
                contents_hold,
            } => write!(
                f,
                "source {index} '{name}': names say {names_say} content bytes, contents hold {contents_hold}"
            ),
            NameSizeMismatch {
                stated,
                name,
                actual,
            } => write!(
                f,
                "NameSizeInBytes is {stated} but the name '{name}' ends after {actual} bytes"
            ),
            EntriesSizeMismatch { used, stated } => write!(
                f,
                "source names entries use {used} bytes but EntriesSizeInBytes is {stated}"
            ),
            UncompressedSizeMismatch { declared, held } => write!(
                f,
                "uncompressed contents declare {declared} bytes but hold {held}"
            ),
            InflatedSizeMismatch { declared, inflated } => write!(
                f,
                "zlib contents declare {declared} bytes but inflate to {inflated}"
            ),
            SourceTextNul { size } => write!(
                f,
                "source text of {size} bytes does not end at its first NUL"
            ),
        }
    }
}

impl Rule for SourceInfoRule {}

#[cfg(test)]
mod tests;
