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
use crate::error::{Extent, Limit, Mismatch, ReadErrorKind, Record, Result, ValueField};
use crate::fields::align4;
use crate::finding::{Finding, FindingKind};
use std::borrow::Cow;
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
                ReadErrorKind::OutOfBounds {
                    part: None,
                    what: Extent::SrciSize,
                    start: 0,
                    len: aligned_size,
                    limit: c.len(),
                },
            ));
        }
        info.issues.push(Finding::at(
            c.abs(0),
            FindingKind::AlignedSizePastPart {
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
                ReadErrorKind::SizeMismatch {
                    part: None,
                    what: Mismatch::SrciSectionCount,
                    stored: u64::from(section_count),
                    actual: 3,
                },
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
                ReadErrorKind::TooSmall {
                    part: None,
                    record: Record::SrciSection,
                    size: u64::from(section_size),
                    minimum: SECTION_HEADER_SIZE,
                },
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
                return Err(c.unknown_value(section_at + 6, ValueField::SrciSectionType, raw));
            }
            let kind = match raw {
                0..=2 => FindingKind::DuplicateSection {
                    section: section_type,
                },
                _ => FindingKind::UnknownSection { raw },
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
                    ReadErrorKind::SizeMismatch {
                        part: None,
                        what: Mismatch::SrciSectionSize,
                        stored: u64::from(section_size),
                        actual: needed,
                    },
                ));
            }
            info.issues.push(Finding::at(
                c.abs(section_at),
                FindingKind::SectionSizeMismatch {
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
                FindingKind::SourceCountMismatch {
                    names: names.entries.len(),
                    contents: contents.entries.len(),
                },
            ));
        }
        for (i, (n, t)) in names.entries.iter().zip(&contents.entries).enumerate() {
            if n.content_size != t.content_size {
                info.issues.push(Finding::at(
                    c.abs(0),
                    FindingKind::SourceSizeMismatch {
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
                FindingKind::NameSizeMismatch {
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
            FindingKind::EntriesSizeMismatch {
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
                    FindingKind::UncompressedSizeMismatch {
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
                        ReadErrorKind::SizeMismatch {
                            part: None,
                            what: Mismatch::SrciInflatedSize,
                            stored: u64::from(uncompressed_size),
                            actual: inflated.len() as u64,
                        },
                    ));
                }
                issues.push(Finding::at(
                    body.abs(12),
                    FindingKind::InflatedSizeMismatch {
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
            let field = match mode {
                Mode::Strict => ValueField::SourceContentsCompression,
                Mode::LlvmCompat => ValueField::SrciCompression,
            };
            return Err(body.unknown_value(6, field, other));
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
            ReadErrorKind::LimitExceeded {
                part: None,
                what: Limit::SourceContentsSize,
                value: declared,
                limit: MAX_SOURCE_CONTENTS,
            },
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
            ReadErrorKind::SizeMismatch {
                part: None,
                what: Mismatch::SourceContentsInflatedSize,
                stored: declared,
                actual: out.len() as u64,
            },
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
    /// The record named when the entry is smaller than its header.
    record: Record,
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
    record: Record::SourceNameEntry,
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
    record: Record::SourceContentsEntry,
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
                ReadErrorKind::TooSmall {
                    part: None,
                    record: layout.record,
                    size: u64::from(aligned_size),
                    minimum: layout.header_size,
                },
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
                    FindingKind::SourceTextNul {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;
    use crate::fixtures::build_source_info;

    const FILES: &[(&[u8], &[u8])] = &[
        (b"main.hlsl", b"float4 main() : SV_Target { return 1; }"),
        (b"inc.hlsli", b"// include"),
    ];
    const ARGS: &[(&[u8], &[u8])] = &[
        (b"T", b"ps_6_0"),
        (b"E", b"main"),
        (b"Zi", b""),
        (b"", b"main.hlsl"),
    ];

    #[test]
    fn round_trip_plain_and_zlib() {
        for zlib in [false, true] {
            let data = build_source_info(FILES, ARGS, zlib);
            let s = SourceInfo::parse_data(&data, 0x40).unwrap();
            assert!(s.issues.is_empty(), "{:?}", s.issues);
            assert_eq!(s.sections.len(), 3);
            assert_eq!(s.sections[0].section_type.to_string(), "SourceNames");
            assert_eq!(s.sections[0].offset, 0x48);
            let files = s.files();
            assert_eq!(files.len(), 2);
            assert_eq!(files[0].0, b"main.hlsl");
            assert_eq!(files[1].1, Some(&b"// include"[..]));
            let c = s.contents.as_ref().unwrap();
            assert_eq!(c.compression, Compression::from_raw(u16::from(zlib)));
            assert_eq!(matches!(c.entries[0].content, Cow::Owned(_)), zlib);
            let a = s.args.as_ref().unwrap();
            assert_eq!(a.args.len(), 4);
            assert_eq!(a.args[3].name, b"");
            assert_eq!(a.args[3].value, b"main.hlsl");
        }
    }

    fn contents_offset(data: &[u8]) -> usize {
        // Names section is first; contents header follows it.
        8 + u32::from_le_bytes(data[8..12].try_into().unwrap()) as usize
    }

    #[test]
    fn zip_bomb_and_corrupt_streams_are_errors() {
        let mut data = build_source_info(FILES, ARGS, true);
        let at = contents_offset(&data) + 8;
        // Declared uncompressed size smaller than the real stream.
        let mut small = data.clone();
        small[at + 12..at + 16].copy_from_slice(&10u32.to_le_bytes());
        let e = SourceInfo::parse_data(&small, 0).unwrap_err();
        assert!(
            matches!(
                e.kind,
                ReadErrorKind::SizeMismatch {
                    what: Mismatch::SourceContentsInflatedSize,
                    stored: 10,
                    actual: 11,
                    ..
                }
            ),
            "{e}"
        );
        // Declared size above the hard cap.
        let mut huge = data.clone();
        huge[at + 12..at + 16].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = SourceInfo::parse_data(&huge, 0).unwrap_err();
        assert_eq!(
            e.kind,
            ReadErrorKind::LimitExceeded {
                part: None,
                what: Limit::SourceContentsSize,
                value: u64::from(u32::MAX),
                limit: MAX_SOURCE_CONTENTS
            },
            "{e}"
        );
        // Corrupt stream.
        data[at + 20] ^= 0xff;
        data[at + 21] ^= 0xff;
        let e = SourceInfo::parse_data(&data, 0).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Inflate { .. }), "{e}");
    }

    #[test]
    fn structural_issues() {
        let mut data = build_source_info(FILES, ARGS, false);
        data[4] = 1; // part flags
        data[6] = 4; // section count 4: the fourth header is missing → error
        assert!(matches!(
            SourceInfo::parse_data(&data, 0).unwrap_err().kind,
            ReadErrorKind::Truncated { .. }
        ));
        data[6] = 2; // only names + contents
        let s = SourceInfo::parse_data(&data, 0).unwrap();
        assert!(s.args.is_none());
        let kinds: Vec<&FindingKind> = s.issues.iter().map(|i| &i.kind).collect();
        assert!(kinds.contains(&&FindingKind::FlagsSet {
            field: "reserved flags",
            flags: 1
        }));
        assert!(kinds.contains(&&FindingKind::NotFixedValue {
            field: "SectionCount",
            value: 2,
            expected: 3
        }));
        // Duplicate + unknown section type.
        let mut data = build_source_info(FILES, ARGS, false);
        let args_at = {
            let names = u32::from_le_bytes(data[8..12].try_into().unwrap()) as usize;
            let c = 8 + names;
            c + u32::from_le_bytes(data[c..c + 4].try_into().unwrap()) as usize
        };
        data[args_at + 6] = 1;
        let s = SourceInfo::parse_data(&data, 0).unwrap();
        assert!(s.issues.iter().any(|i| i.kind
            == FindingKind::DuplicateSection {
                section: SectionType::SourceNames
            }));
        data[args_at + 6] = 9;
        let s = SourceInfo::parse_data(&data, 0).unwrap();
        assert!(s
            .issues
            .iter()
            .any(|i| i.kind == FindingKind::UnknownSection { raw: 9 }));
        // Section size smaller than its header.
        data[args_at..args_at + 4].copy_from_slice(&4u32.to_le_bytes());
        assert_eq!(
            SourceInfo::parse_data(&data, 0).unwrap_err().kind,
            ReadErrorKind::TooSmall {
                part: None,
                record: Record::SrciSection,
                size: 4,
                minimum: SECTION_HEADER_SIZE
            }
        );
    }

    #[test]
    fn short_name_entries_fail_at_their_offset() {
        let data = build_source_info(FILES, ARGS, false);
        // Part header, section header, names header, then the first entry.
        let first = (8 + SECTION_HEADER_SIZE + NAMES_HEADER_SIZE) as usize;
        let mut small = data.clone();
        small[first..first + 4].copy_from_slice(&8u32.to_le_bytes());
        let e = SourceInfo::parse_data(&small, 0x100).unwrap_err();
        assert_eq!(e.offset, 0x100 + first as u64);
        assert_eq!(
            e.kind,
            ReadErrorKind::TooSmall {
                part: None,
                record: Record::SourceNameEntry,
                size: 8,
                minimum: NAME_ENTRY_SIZE
            }
        );
        // EntriesSizeInBytes 6: the entry's second header word has 2 bytes.
        let mut cut = data.clone();
        cut[first - 2..first].copy_from_slice(&6u16.to_le_bytes());
        let e = SourceInfo::parse_data(&cut, 0x100).unwrap_err();
        assert_eq!(e.offset, 0x100 + first as u64 + 4);
        assert_eq!(
            e.kind,
            ReadErrorKind::Truncated {
                part: None,
                what: "source name entry",
                needed: 4,
                available: 2
            }
        );
    }

    #[test]
    fn mismatched_names_and_contents() {
        let data = build_source_info(FILES, &[], false);
        let s = SourceInfo::parse_data(&data, 0).unwrap();
        assert!(s.issues.is_empty());
        // Change the second name entry's ContentSizeInBytes.
        let mut bad = data.clone();
        let first = u32::from_le_bytes(bad[26..30].try_into().unwrap()) as usize;
        let second = 26 + first;
        bad[second + 12] = bad[second + 12].wrapping_add(1);
        let s = SourceInfo::parse_data(&bad, 0).unwrap();
        assert!(
            s.issues
                .iter()
                .any(|i| matches!(i.kind, FindingKind::SourceSizeMismatch { index: 1, .. })),
            "{:?}",
            s.issues
        );
        // Fewer contents than names.
        let mut bad = data.clone();
        let at = contents_offset(&bad) + 8;
        bad[at + 16] = 1;
        let s = SourceInfo::parse_data(&bad, 0).unwrap();
        assert!(s.issues.iter().any(|i| i.kind
            == FindingKind::SourceCountMismatch {
                names: 2,
                contents: 1
            }));
        // Name without NUL inside NameSizeInBytes.
        let mut bad = data;
        bad[26 + 8] = 3;
        assert!(matches!(
            SourceInfo::parse_data(&bad, 0).unwrap_err().kind,
            ReadErrorKind::NotNulTerminated {
                what: "source file name",
                table_offset: None,
                ..
            }
        ));
    }

    /// Offsets in SRCI data built by `build_source_info`: the contents
    /// section, the args section.
    fn section_offsets(data: &[u8]) -> (usize, usize) {
        let size_at = |at: usize| u32::from_le_bytes(data[at..at + 4].try_into().unwrap()) as usize;
        let contents = 8 + size_at(8);
        (contents, contents + size_at(contents))
    }

    /// Both views of hostile SRCI data in a part whose data starts at 0x48:
    /// the dxc view's findings or error, and the LLVM view's error or success.
    #[test]
    fn hostile_inputs_in_both_views() {
        use crate::testutil::{err, found, outcome, Row};
        use FindingKind::*;
        const BASE: u64 = 0x48;
        let at = |offset: usize| BASE + offset as u64;
        let put16 =
            |d: &mut Vec<u8>, at: usize, v: u16| d[at..at + 2].copy_from_slice(&v.to_le_bytes());
        let put32 =
            |d: &mut Vec<u8>, at: usize, v: u32| d[at..at + 4].copy_from_slice(&v.to_le_bytes());
        let get32 = |d: &[u8], at: usize| u32::from_le_bytes(d[at..at + 4].try_into().unwrap());

        let plain = build_source_info(FILES, ARGS, false);
        let zlib = build_source_info(FILES, ARGS, true);
        let len = plain.len();
        // Names: section header at 8, names header at 16, entries from 26.
        let first_name = 26;
        let second_name = first_name + get32(&plain, first_name) as usize;
        let (contents, args) = section_offsets(&plain);
        let contents_body = contents + 8;
        let first_content = contents_body + CONTENTS_HEADER_SIZE as usize;
        let args_body = args + 8;
        let args_size = get32(&plain, args_body + 4) as usize;
        let (z_contents, _) = section_offsets(&zlib);
        let z_body = z_contents + 8;
        let z_blob = z_body + CONTENTS_HEADER_SIZE as usize;
        let z_uncompressed = get32(&zlib, z_body + 12);
        let text_size = |i: usize| FILES[i].1.len() as u32 + 1;

        let edit = |base: &[u8], f: &dyn Fn(&mut Vec<u8>)| {
            let mut d = base.to_vec();
            f(&mut d);
            d
        };
        let rows: Vec<Row<Vec<u8>, Vec<Finding>>> = vec![
            ("dxc layout", plain.clone(), found(&[]), found(&[])),
            ("dxc layout, zlib", zlib.clone(), found(&[]), found(&[])),
            (
                "short header",
                plain[..7].to_vec(),
                err("Truncated", at(6)),
                err("Truncated", at(6)),
            ),
            (
                "part flags",
                edit(&plain, &|d| d[4] = 1),
                found(&[(
                    at(4),
                    FlagsSet {
                        field: "reserved flags",
                        flags: 1,
                    },
                )]),
                found(&[]),
            ),
            (
                "AlignedSizeInBytes past the part",
                edit(&plain, &|d| put32(d, 0, len as u32 + 4)),
                found(&[(
                    at(0),
                    AlignedSizePastPart {
                        aligned_size: len as u32 + 4,
                        part_size: len as u64,
                    },
                )]),
                err("OutOfBounds", at(0)),
            ),
            (
                "two sections",
                edit(&plain, &|d| d[6] = 2),
                found(&[(
                    at(6),
                    NotFixedValue {
                        field: "SectionCount",
                        value: 2,
                        expected: 3,
                    },
                )]),
                err("SizeMismatch", at(6)),
            ),
            (
                "four sections",
                edit(&plain, &|d| d[6] = 4),
                err("Truncated", at(len)),
                err("SizeMismatch", at(6)),
            ),
            (
                "no sections",
                vec![8, 0, 0, 0, 0, 0, 0, 0],
                found(&[(
                    at(6),
                    NotFixedValue {
                        field: "SectionCount",
                        value: 0,
                        expected: 3,
                    },
                )]),
                err("SizeMismatch", at(6)),
            ),
            (
                "names section repeated",
                edit(&plain, &|d| d[args + 6] = 1),
                found(&[(
                    at(args + 6),
                    DuplicateSection {
                        section: SectionType::SourceNames,
                    },
                )]),
                err("UnknownValue", at(args + 6)),
            ),
            (
                "unknown section type",
                edit(&plain, &|d| d[args + 6] = 9),
                found(&[(at(args + 6), UnknownSection { raw: 9 })]),
                err("UnknownValue", at(args + 6)),
            ),
            (
                "section flags",
                edit(&plain, &|d| d[8 + 4] = 1),
                found(&[(
                    at(8 + 4),
                    FlagsSet {
                        field: "section flags",
                        flags: 1,
                    },
                )]),
                found(&[]),
            ),
            (
                "section smaller than its header",
                edit(&plain, &|d| put32(d, args, 4)),
                err("TooSmall", at(args)),
                err("Truncated", at(args_body)),
            ),
            (
                "section larger than its content",
                edit(&plain, &|d| {
                    let names_size = get32(d, 8);
                    put32(d, 8, names_size + 4);
                    let end = 8 + names_size as usize;
                    d.splice(end..end, [0; 4]);
                }),
                found(&[(
                    at(8),
                    SectionSizeMismatch {
                        section: SectionType::SourceNames,
                        stated: get32(&plain, 8) + 4,
                        needed: u64::from(get32(&plain, 8)),
                    },
                )]),
                err("SizeMismatch", at(8)),
            ),
            (
                "section past the part",
                edit(&plain, &|d| {
                    d.truncate(len - 4);
                    put32(d, 0, len as u32 - 4)
                }),
                err("Truncated", at(args_body)),
                err("Truncated", at(args_body)),
            ),
            (
                "names EntriesSizeInBytes short of the entries",
                edit(&plain, &|d| {
                    put16(d, first_name - 2, (second_name - first_name) as u16)
                }),
                err("Truncated", at(second_name)),
                found(&[]),
            ),
            (
                "names EntriesSizeInBytes past the entries",
                edit(&plain, &|d| {
                    put16(d, first_name - 2, (contents - first_name) as u16)
                }),
                found(&[(
                    at(contents - 2),
                    EntriesSizeMismatch {
                        used: (contents - 2 - first_name) as u64,
                        stated: (contents - first_name) as u32,
                    },
                )]),
                found(&[]),
            ),
            (
                "name entry smaller than its header",
                edit(&plain, &|d| put32(d, first_name, 8)),
                err("TooSmall", at(first_name)),
                err("Truncated", at(first_name + 8)),
            ),
            (
                "name without NUL in NameSizeInBytes",
                edit(&plain, &|d| put32(d, first_name + 8, 3)),
                err("NotNulTerminated", at(first_name + 16)),
                err("NotNulTerminated", at(first_name + 16)),
            ),
            (
                "NameSizeInBytes past the NUL",
                edit(&plain, &|d| put32(d, first_name + 8, 12)),
                found(&[(
                    at(first_name + 8),
                    NameSizeMismatch {
                        stated: 12,
                        name: "main.hlsl".into(),
                        actual: 10,
                    },
                )]),
                found(&[]),
            ),
            (
                "name entry flags",
                edit(&plain, &|d| d[first_name + 4] = 1),
                found(&[(
                    at(first_name + 4),
                    FlagsSet {
                        field: "source name entry flags",
                        flags: 1,
                    },
                )]),
                found(&[]),
            ),
            (
                "names and contents disagree on a size",
                edit(&plain, &|d| put32(d, second_name + 12, text_size(1) + 1)),
                found(&[(
                    at(0),
                    SourceSizeMismatch {
                        index: 1,
                        name: "inc.hlsli".into(),
                        names_say: text_size(1) + 1,
                        contents_hold: text_size(1),
                    },
                )]),
                found(&[]),
            ),
            (
                "fewer contents than names",
                edit(&plain, &|d| put32(d, contents_body + 16, 1)),
                found(&[(
                    at(0),
                    SourceCountMismatch {
                        names: 2,
                        contents: 1,
                    },
                )]),
                err("SizeMismatch", at(contents)),
            ),
            (
                "fewer contents than names, zlib",
                edit(&zlib, &|d| put32(d, z_body + 16, 1)),
                found(&[(
                    at(0),
                    SourceCountMismatch {
                        names: 2,
                        contents: 1,
                    },
                )]),
                found(&[]),
            ),
            (
                "contents flags",
                edit(&plain, &|d| d[contents_body + 4] = 1),
                found(&[(
                    at(contents_body + 4),
                    FlagsSet {
                        field: "source contents flags",
                        flags: 1,
                    },
                )]),
                found(&[]),
            ),
            (
                "unknown compression",
                edit(&plain, &|d| d[contents_body + 6] = 2),
                err("UnknownValue", at(contents_body + 6)),
                err("UnknownValue", at(contents_body + 6)),
            ),
            (
                "plain UncompressedSizeInBytes differs",
                edit(&plain, &|d| {
                    let size = get32(d, contents_body + 12);
                    put32(d, contents_body + 12, size + 4)
                }),
                found(&[(
                    at(contents_body + 12),
                    UncompressedSizeMismatch {
                        declared: get32(&plain, contents_body + 12) + 4,
                        held: get32(&plain, contents_body + 8),
                    },
                )]),
                found(&[]),
            ),
            (
                "content without its NUL",
                edit(&plain, &|d| put32(d, first_content + 8, text_size(0) - 1)),
                found(&[
                    (
                        at(first_content + 8),
                        SourceTextNul {
                            size: text_size(0) - 1,
                        },
                    ),
                    (
                        at(0),
                        SourceSizeMismatch {
                            index: 0,
                            name: "main.hlsl".into(),
                            names_say: text_size(0),
                            contents_hold: text_size(0) - 1,
                        },
                    ),
                ]),
                err("NotOneString", at(first_content + 12)),
            ),
            (
                "content with a NUL inside",
                edit(&plain, &|d| d[first_content + 12] = 0),
                found(&[(at(first_content + 8), SourceTextNul { size: text_size(0) })]),
                err("NotOneString", at(first_content + 12)),
            ),
            (
                "content entry smaller than its header",
                edit(&plain, &|d| put32(d, first_content, 8)),
                err("TooSmall", at(first_content)),
                err("Truncated", at(first_content + 8)),
            ),
            (
                "content entry flags",
                edit(&plain, &|d| d[first_content + 4] = 1),
                found(&[(
                    at(first_content + 4),
                    FlagsSet {
                        field: "source contents entry flags",
                        flags: 1,
                    },
                )]),
                found(&[]),
            ),
            (
                "zlib declared size below the stream",
                edit(&zlib, &|d| put32(d, z_body + 12, 10)),
                err("SizeMismatch", at(z_blob)),
                err("SizeMismatch", at(z_blob)),
            ),
            (
                "zlib declared size above the stream",
                edit(&zlib, &|d| put32(d, z_body + 12, z_uncompressed + 4)),
                found(&[(
                    at(z_body + 12),
                    InflatedSizeMismatch {
                        declared: z_uncompressed + 4,
                        inflated: z_uncompressed as usize,
                    },
                )]),
                err("SizeMismatch", at(z_blob)),
            ),
            (
                "zlib declared size over the cap",
                edit(&zlib, &|d| put32(d, z_body + 12, u32::MAX)),
                err("LimitExceeded", at(z_blob)),
                err("LimitExceeded", at(z_blob)),
            ),
            (
                "zlib stream corrupt",
                edit(&zlib, &|d| {
                    d[z_blob] ^= 0xff;
                    d[z_blob + 1] ^= 0xff;
                }),
                err("Inflate", at(z_blob)),
                err("Inflate", at(z_blob)),
            ),
            (
                "args SizeInBytes past the section",
                edit(&plain, &|d| put32(d, args_body + 4, args_size as u32 + 100)),
                err("Truncated", at(args_body + 12)),
                err("SizeMismatch", at(args)),
            ),
            (
                "one argument more than stored",
                edit(&plain, &|d| {
                    let count = get32(d, args_body + 8);
                    put32(d, args_body + 8, count + 1)
                }),
                err("NotNulTerminated", at(args_body + 12 + args_size)),
                err("NotNulTerminated", at(len)),
            ),
        ];
        for (row, data, dxc, llvm) in rows {
            let part = Part {
                index: 0,
                name: crate::PartName::SRCI,
                offset: BASE - 8,
                data: &data,
            };
            let issues = |s: &SourceInfo<'_>| s.issues.clone();
            assert_eq!(outcome(row, SourceInfo::parse(&part), issues), dxc, "{row}");
            assert_eq!(
                outcome(row, SourceInfo::parse_llvm_compat(&part), issues),
                llvm,
                "{row} (LLVM view)"
            );
        }
    }

    #[test]
    fn short_inputs() {
        assert!(SourceInfo::parse_data(&[0; 7], 0).is_err());
        let empty = {
            let mut v = 8u32.to_le_bytes().to_vec();
            v.extend_from_slice(&[0, 0, 0, 0]);
            v
        };
        let s = SourceInfo::parse_data(&empty, 0).unwrap();
        assert_eq!(s.sections.len(), 0);
        assert_eq!(s.issues.len(), 1);
    }

    #[test]
    fn the_main_file_is_the_positional_argument_else_the_first_name() {
        let data = build_source_info(FILES, &[(b"E", b"main"), (b"", b"inc.hlsli")], false);
        let s = SourceInfo::parse_data(&data, 0).unwrap();
        assert_eq!(s.main_file(), Some(&b"inc.hlsli"[..]));
        let data = build_source_info(FILES, &[(b"E", b"main")], false);
        let s = SourceInfo::parse_data(&data, 0).unwrap();
        assert_eq!(s.main_file(), Some(&b"main.hlsl"[..]));
        let data = build_source_info(&[], &[], false);
        assert_eq!(SourceInfo::parse_data(&data, 0).unwrap().main_file(), None);
    }

    #[test]
    fn extraction_paths_stay_inside() {
        for (name, want) in [
            (&b"shaders/main.hlsl"[..], &["shaders", "main.hlsl"][..]),
            (b"C:\\src\\common.hlsli", &["src", "common.hlsli"]),
            (b"/abs/path.h", &["abs", "path.h"]),
            (b"\\\\server\\share\\a.h", &["server", "share", "a.h"]),
            (b"../../etc/passwd", &["__", "__", "etc", "passwd"]),
            (b"./a/./b.h", &["a", "b.h"]),
            (b"a\x01b.h", &["a_b.h"]),
            (b"", &["unnamed"]),
            (b"/", &["unnamed"]),
            (b"C:", &["unnamed"]),
            (b"D:..\\..\\y.h", &["__", "__", "y.h"]),
            (b"a/b:stream", &["a", "b_stream"]),
        ] {
            assert_eq!(
                extraction_path(name),
                want,
                "{}",
                String::from_utf8_lossy(name)
            );
        }
    }
}
