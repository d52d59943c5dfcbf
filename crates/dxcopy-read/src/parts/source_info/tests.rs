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
            e.kind.detail(),
            Some(SourceInfoError::ContentsInflatedSize { declared: 10 })
        ) && matches!(e.kind, ReadErrorKind::SizeMismatch { .. }),
        "{e}"
    );
    // Declared size above the hard cap.
    let mut huge = data.clone();
    huge[at + 12..at + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = SourceInfo::parse_data(&huge, 0).unwrap_err();
    assert_eq!(
        e.kind,
        ReadErrorKind::limit_exceeded(SourceInfoError::ContentsSize {
            declared: u64::from(u32::MAX),
            limit: MAX_SOURCE_CONTENTS
        }),
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
        == SourceInfoRule::DuplicateSection {
            section: SectionType::SourceNames
        }
        .into()));
    data[args_at + 6] = 9;
    let s = SourceInfo::parse_data(&data, 0).unwrap();
    assert!(s
        .issues
        .iter()
        .any(|i| i.kind == SourceInfoRule::UnknownSection { raw: 9 }.into()));
    // Section size smaller than its header.
    data[args_at..args_at + 4].copy_from_slice(&4u32.to_le_bytes());
    assert_eq!(
        SourceInfo::parse_data(&data, 0).unwrap_err().kind,
        ReadErrorKind::too_small(SourceInfoError::SectionTooSmall { size: 4 })
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
        ReadErrorKind::too_small(SourceInfoError::EntryTooSmall {
            entry: "source name entry",
            size: 8,
        })
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
        s.issues.iter().any(|i| matches!(
            i.kind.rule(),
            Some(SourceInfoRule::SourceSizeMismatch { index: 1, .. })
        )),
        "{:?}",
        s.issues
    );
    // Fewer contents than names.
    let mut bad = data.clone();
    let at = contents_offset(&bad) + 8;
    bad[at + 16] = 1;
    let s = SourceInfo::parse_data(&bad, 0).unwrap();
    assert!(s.issues.iter().any(|i| i.kind
        == SourceInfoRule::SourceCountMismatch {
            names: 2,
            contents: 1
        }
        .into()));
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
                SourceInfoRule::AlignedSizePastPart {
                    aligned_size: len as u32 + 4,
                    part_size: len as u64,
                }
                .into(),
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
                SourceInfoRule::DuplicateSection {
                    section: SectionType::SourceNames,
                }
                .into(),
            )]),
            err("UnknownValue", at(args + 6)),
        ),
        (
            "unknown section type",
            edit(&plain, &|d| d[args + 6] = 9),
            found(&[(
                at(args + 6),
                SourceInfoRule::UnknownSection { raw: 9 }.into(),
            )]),
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
                SourceInfoRule::SectionSizeMismatch {
                    section: SectionType::SourceNames,
                    stated: get32(&plain, 8) + 4,
                    needed: u64::from(get32(&plain, 8)),
                }
                .into(),
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
                SourceInfoRule::EntriesSizeMismatch {
                    used: (contents - 2 - first_name) as u64,
                    stated: (contents - first_name) as u32,
                }
                .into(),
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
                SourceInfoRule::NameSizeMismatch {
                    stated: 12,
                    name: "main.hlsl".into(),
                    actual: 10,
                }
                .into(),
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
                SourceInfoRule::SourceSizeMismatch {
                    index: 1,
                    name: "inc.hlsli".into(),
                    names_say: text_size(1) + 1,
                    contents_hold: text_size(1),
                }
                .into(),
            )]),
            found(&[]),
        ),
        (
            "fewer contents than names",
            edit(&plain, &|d| put32(d, contents_body + 16, 1)),
            found(&[(
                at(0),
                SourceInfoRule::SourceCountMismatch {
                    names: 2,
                    contents: 1,
                }
                .into(),
            )]),
            err("SizeMismatch", at(contents)),
        ),
        (
            "fewer contents than names, zlib",
            edit(&zlib, &|d| put32(d, z_body + 16, 1)),
            found(&[(
                at(0),
                SourceInfoRule::SourceCountMismatch {
                    names: 2,
                    contents: 1,
                }
                .into(),
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
                SourceInfoRule::UncompressedSizeMismatch {
                    declared: get32(&plain, contents_body + 12) + 4,
                    held: get32(&plain, contents_body + 8),
                }
                .into(),
            )]),
            found(&[]),
        ),
        (
            "content without its NUL",
            edit(&plain, &|d| put32(d, first_content + 8, text_size(0) - 1)),
            found(&[
                (
                    at(first_content + 8),
                    SourceInfoRule::SourceTextNul {
                        size: text_size(0) - 1,
                    }
                    .into(),
                ),
                (
                    at(0),
                    SourceInfoRule::SourceSizeMismatch {
                        index: 0,
                        name: "main.hlsl".into(),
                        names_say: text_size(0),
                        contents_hold: text_size(0) - 1,
                    }
                    .into(),
                ),
            ]),
            err("NotOneString", at(first_content + 12)),
        ),
        (
            "content with a NUL inside",
            edit(&plain, &|d| d[first_content + 12] = 0),
            found(&[(
                at(first_content + 8),
                SourceInfoRule::SourceTextNul { size: text_size(0) }.into(),
            )]),
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
                SourceInfoRule::InflatedSizeMismatch {
                    declared: z_uncompressed + 4,
                    inflated: z_uncompressed as usize,
                }
                .into(),
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

#[test]
fn each_rule_has_its_sentence() {
    use SourceInfoRule::*;
    crate::testutil::rules_say(vec![
        (
            AlignedSizePastPart {
                aligned_size: 0x40,
                part_size: 0x30,
            },
            "AlignedSizeInBytes 0x40 is more than the part size 0x30",
        ),
        (
            DuplicateSection {
                section: SectionType::Args,
            },
            "second Args section",
        ),
        (UnknownSection { raw: 9 }, "unknown section type 9"),
        (
            SectionSizeMismatch {
                section: SectionType::SourceNames,
                stated: 20,
                needed: 24,
            },
            "SourceNames section AlignedSizeInBytes is 20 but its data needs 24",
        ),
        (
            SourceCountMismatch {
                names: 2,
                contents: 1,
            },
            "2 source names but 1 source contents",
        ),
        (
            SourceSizeMismatch {
                index: 1,
                name: "a.hlsl".into(),
                names_say: 5,
                contents_hold: 6,
            },
            "source 1 'a.hlsl': names say 5 content bytes, contents hold 6",
        ),
        (
            NameSizeMismatch {
                stated: 9,
                name: "a.hlsl".into(),
                actual: 7,
            },
            "NameSizeInBytes is 9 but the name 'a.hlsl' ends after 7 bytes",
        ),
        (
            EntriesSizeMismatch {
                used: 40,
                stated: 44,
            },
            "source names entries use 40 bytes but EntriesSizeInBytes is 44",
        ),
        (
            UncompressedSizeMismatch {
                declared: 10,
                held: 12,
            },
            "uncompressed contents declare 10 bytes but hold 12",
        ),
        (
            InflatedSizeMismatch {
                declared: 10,
                inflated: 11,
            },
            "zlib contents declare 10 bytes but inflate to 11",
        ),
        (
            SourceTextNul { size: 12 },
            "source text of 12 bytes does not end at its first NUL",
        ),
    ]);
}

#[test]
fn each_error_says_its_sentence() {
    use SourceInfoError::*;
    crate::testutil::errors_say(vec![
        (
            PartSize {
                aligned_size: 100,
                part_size: 64,
            },
            "SRCI size 100 exceeds the 64-byte part",
        ),
        (
            SectionCount { stored: 2 },
            "SRCI has 2 sections, expected 3",
        ),
        (
            SectionTooSmall { size: 4 },
            "section AlignedSizeInBytes 4 is smaller than its header",
        ),
        (
            SectionType { value: 5 },
            "invalid or repeated SRCI section type 5",
        ),
        (
            SectionSize {
                stored: 24,
                actual: 20,
            },
            "SRCI section size 24 does not match its content (20)",
        ),
        (
            InflatedSize {
                stored: 52,
                actual: 40,
            },
            "SRCI contents decompress to the wrong size",
        ),
        (
            Compression {
                value: 2,
                llvm: true,
            },
            "unknown SRCI compression type 2",
        ),
        (
            Compression {
                value: 2,
                llvm: false,
            },
            "unknown source contents compression type 2",
        ),
        (
            ContentsSize {
                declared: 300,
                limit: 200,
            },
            "source contents declare 300 uncompressed bytes, more than the 200-byte limit",
        ),
        (
            ContentsInflatedSize { declared: 10 },
            "source contents inflate to more than the declared 10 bytes",
        ),
        (
            EntryTooSmall {
                entry: "source name entry",
                size: 4,
            },
            "source name entry AlignedSizeInBytes 4 is smaller than its header",
        ),
        (
            EntryTooSmall {
                entry: "source contents entry",
                size: 4,
            },
            "source contents entry AlignedSizeInBytes 4 is smaller than its header",
        ),
    ]);
}
