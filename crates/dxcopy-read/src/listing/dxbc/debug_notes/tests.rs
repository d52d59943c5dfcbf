use super::*;
use crate::container::Container;
use crate::fixtures::codeview::{
    array, defrange, defrange_with_gaps, field_list, inline_site, inline_site_end, local, matrix,
    procedure, structure, vector,
};
use crate::fixtures::{build_spdb, SpdbSpec};
use crate::listing::dxbc::{listing, DisasmError, ListingOptions};
use crate::testutil::build;

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// vs_5_0: dcl_input v0.xyzw, dcl_output o0.xyzw, dcl_temps 1, then at
/// bytes 40 `mov r0.xy, v0.xyxx`, 60 `add r0.x, r0.x, r0.y`, 88
/// `mov o0.xyzw, r0.xxxx`, 108 `ret`.
fn shex() -> Vec<u8> {
    le(&[
        0x0001_0050,
        28,
        0x0300_005f,
        0x0010_10f2,
        0,
        0x0300_0065,
        0x0010_20f2,
        0,
        0x0200_0068,
        1,
        0x0500_0036,
        0x0010_0032,
        0,
        0x0010_1046,
        0,
        0x0700_0000,
        0x0010_0012,
        0,
        0x0010_000a,
        0,
        0x0010_001a,
        0,
        0x0500_0036,
        0x0010_20f2,
        0,
        0x0010_0006,
        0,
        0x0100_003e,
    ])
}

/// Types: 0x1000 float4, 0x1001/0x1002 struct VSIn { float4 pos; },
/// 0x1003/0x1004 struct VSOut { float4 color; float depth; }, 0x1005
/// float2.
fn types() -> Vec<Vec<u8>> {
    vec![
        vector(0x40, 4, 16, "float4"),
        field_list(&[(0x1000, 0, "pos")]),
        structure(0x1001, 16, "VSIn"),
        field_list(&[(0x1000, 0, "color"), (0x40, 16, "depth")]),
        structure(0x1003, 20, "VSOut"),
        vector(0x40, 2, 8, "float2"),
    ]
}

/// The function `main` from 40 to 112, laid out as fxc lays it out: a
/// statement and an expression line entry per instruction, the input and
/// output ranges over the whole function (the colour's with a gap until
/// the `mov o0` that writes it is done), each temporary's range from the
/// end of the instruction that writes it.
fn spec() -> SpdbSpec {
    SpdbSpec {
        files: vec!["C:\\src\\a.hlsl".into(), "inc.hlsli".into()],
        lines: vec![(40, 0, 10), (60, 0, 10), (88, 1, 3), (108, 0, 12)],
        expression_lines: vec![(40, 0, 11), (60, 0, 9), (88, 1, 4), (108, 0, 12)],
        types: types(),
        symbols: vec![
            procedure(40, 72, "main"),
            local(0x1002, 1, "input"),
            defrange(1, 0, 16, 40, 72, 0),
            local(0x1004, 0x80, "<main return value>"),
            defrange(2, 16, 4, 40, 72, 16),
            defrange_with_gaps(2, (0, 16), (40, 72), &[(0, 68)], 0),
            local(0x1005, 0, "t"),
            defrange(0, 0, 8, 60, 28, 0),
            local(0x40, 0, "s"),
            defrange(0, 0, 4, 88, 20, 0),
        ],
        ..SpdbSpec::default()
    }
}

fn program_text(parts: &[(&[u8; 4], &[u8])]) -> (String, Vec<DisasmError>) {
    let bytes = build(parts);
    let c = Container::parse(&bytes).unwrap();
    let l = listing(&c, "t", &ListingOptions::default()).unwrap();
    let at = l.text.find("vs_5_0").unwrap();
    (l.text[at..].to_string(), l.errors)
}

const PLAIN: &str = "vs_5_0
dcl_input v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.xy, v0.xyxx
add r0.x, r0.x, r0.y
mov o0.xyzw, r0.xxxx
ret 
// Approximately 0 instruction slots used
";

#[test]
fn spdb_notes_in_the_listing() {
    let spdb = build_spdb(&spec());
    let (text, errors) = program_text(&[(b"SHEX", &shex()), (b"SPDB", &spdb)]);
    assert_eq!(errors, vec![]);
    assert_eq!(
        text,
        "vs_5_0
dcl_input v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
//
// Initial variable locations:
//   v0.x <- input.pos.x; v0.y <- input.pos.y; v0.z <- input.pos.z; v0.w <- input.pos.w; 
//   o1.x <- <main return value>.depth
//
#line 10 \"C:\\src\\a.hlsl\"
mov r0.xy, v0.xyxx  // r0.x <- t.x; r0.y <- t.y
add r0.x, r0.x, r0.y  // r0.x <- s

#line 3 \"inc.hlsli\"
mov o0.xyzw, r0.xxxx  // o0.x <- <main return value>.color.x; o0.y <- <main return value>.color.y; o0.z <- <main return value>.color.z; o0.w <- <main return value>.color.w

#line 12 \"C:\\src\\a.hlsl\"
ret 
// Approximately 0 instruction slots used
"
    );
}

#[test]
fn the_listing_without_a_debug_part_is_unchanged() {
    let (text, errors) = program_text(&[(b"SHEX", &shex())]);
    assert_eq!((text.as_str(), errors), (PLAIN, vec![]));
}

#[test]
fn a_pdb_without_modules_gives_no_notes() {
    let spdb = crate::fixtures::build_msf(512, 6, 6);
    let (text, errors) = program_text(&[(b"SHEX", &shex()), (b"SPDB", &spdb)]);
    assert_eq!((text.as_str(), errors), (PLAIN, vec![]));
}

#[test]
fn a_scattered_module_stream_reads_the_same() {
    let mut spec = spec();
    // Enough symbols that the module stream takes several blocks.
    for i in 0..80 {
        spec.symbols.push(local(0x40, 0, &format!("unused_{i}")));
    }
    let whole = spdb::decode(&build_spdb(&spec), 0).unwrap();
    spec.split_module = true;
    let split = spdb::decode(&build_spdb(&spec), 0).unwrap();
    assert_eq!(whole, split);
    assert_eq!(whole.locations.len(), 4 + 1 + 4 + 2 + 1);
}

#[test]
fn member_paths_of_arrays_and_matrices() {
    // struct S { float a[3]; float4x4 m (row-major); float2x2 c
    // (column-major); }: LF_ARRAY elements follow each other.
    let mut spec = spec();
    spec.types.extend([
        array(0x40, 12),                     // 0x1006 float[3]
        matrix(4, 4, true, 64, "float4x4"),  // 0x1007
        matrix(2, 2, false, 24, "float2x2"), // 0x1008
        field_list(&[(0x1006, 0, "a"), (0x1007, 16, "m"), (0x1008, 80, "c")]),
        structure(0x1009, 104, "S"), // 0x100a
    ]);
    spec.symbols = vec![
        local(0x100a, 0, "v"),
        defrange(0, 8, 4, 40, 4, 0),   // a[2] -> r0.x
        defrange(0, 20, 8, 40, 4, 20), // m row 0, columns 1..2 -> r1.yz
        defrange(0, 84, 4, 40, 4, 44), // c: column 0, row 1 -> r2.w
    ];
    let notes = spdb::decode(&build_spdb(&spec), 0).unwrap();
    let got: Vec<_> = notes
        .locations
        .iter()
        .map(|l| (l.register, l.component, l.variable.as_str()))
        .collect();
    let r = |index| NoteRegister::Operand { kind: 0, index };
    assert_eq!(
        got,
        vec![
            (r(0), 0, "v.a[2]"),
            (r(1), 1, "v.m._m01"),
            (r(1), 2, "v.m._m02"),
            (r(2), 3, "v.c._m10"),
        ]
    );
}

#[test]
fn inline_sites_take_the_lines_of_their_code() {
    // Inlinee 0x1234 based at line 50 of file 1, as fxc encodes a site:
    // line +2, then a statement range of `length` bytes 20 bytes past the
    // function's start (40): 60..60+length (ChangeCodeLengthAndCodeOffset);
    // then expression ranges (ChangeRangeKind 0) from offset 60 set
    // outright, line +1 each (ChangeCodeOffsetAndLineOffset), which print
    // nothing.
    let lines_of = |length: u8| {
        let mut spec = spec();
        spec.symbols.push(inline_site(
            0x1234,
            &[
                6,
                4,
                12,
                length,
                20,
                8,
                0,
                1,
                60,
                11,
                2 << 4,
                11,
                (2 << 4) | 0x0c,
            ],
        ));
        spec.symbols.push(inline_site_end());
        spec.inlinees = vec![(0x1234, 1, 50)];
        let notes = spdb::decode(&build_spdb(&spec), 0).unwrap();
        notes
            .lines
            .iter()
            .map(|(k, l)| (*k, l.file, l.line))
            .collect::<Vec<_>>()
    };
    // 60..88: line 52 (50 + 2) up to the table's next entry.
    assert_eq!(
        lines_of(28),
        vec![(40, 0, 10), (60, 1, 52), (88, 1, 3), (108, 0, 12)]
    );
    // 60..72: the line in force before the site comes back at 72.
    assert_eq!(
        lines_of(12),
        vec![
            (40, 0, 10),
            (60, 1, 52),
            (72, 0, 10),
            (88, 1, 3),
            (108, 0, 12)
        ]
    );
}

#[test]
fn statement_lines_win_over_expression_lines() {
    // A table that marks no statement (an older writer): every entry, the
    // first of an offset winning.
    let mut spec = spec();
    spec.lines.clear();
    spec.expression_lines = vec![(40, 0, 7), (60, 0, 8)];
    let notes = spdb::decode(&build_spdb(&spec), 0).unwrap();
    let lines: Vec<_> = notes.lines.iter().map(|(k, l)| (*k, l.line)).collect();
    assert_eq!(lines, vec![(40, 7), (60, 8)]);
    // fxc's pairs: the statement's line.
    let notes = spdb::decode(&build_spdb(&self::spec()), 0).unwrap();
    let lines: Vec<_> = notes.lines.iter().map(|(k, l)| (*k, l.line)).collect();
    assert_eq!(lines, vec![(40, 10), (60, 10), (88, 3), (108, 12)]);
}

#[test]
fn gaps_split_a_range_and_a_register_holding_a_whole_struct_names_it() {
    // `struct { uint vI; } input` in v0.x: the value itself; the colour's
    // range with its gap: live 40..40 (none) and 108..112.
    let mut spec = spec();
    spec.types.push(field_list(&[(0x75, 0, "vI")]));
    spec.types.push(structure(0x1006, 4, "VS_INPUT"));
    spec.symbols = vec![
        procedure(40, 72, "main"),
        local(0x1007, 1, "input"),
        defrange(1, 0, 4, 40, 72, 0),
        local(0x1004, 0x80, "<main return value>"),
        defrange_with_gaps(2, (0, 4), (40, 72), &[(4, 20), (30, 8)], 0),
    ];
    let notes = spdb::decode(&build_spdb(&spec), 0).unwrap();
    let found: Vec<_> = notes
        .locations
        .iter()
        .map(|l| (l.variable.as_str(), l.start, l.end))
        .collect();
    assert_eq!(
        found,
        vec![
            ("input", 40, 112),
            ("<main return value>.color.x", 40, 44),
            ("<main return value>.color.x", 64, 70),
            ("<main return value>.color.x", 78, 112),
        ]
    );
}

#[test]
fn hostile_spdb_is_an_error_with_an_offset() {
    let good = build_spdb(&spec());
    // Every truncation and every single-byte change: an error or notes, no
    // panic; the listing still comes out.
    for cut in (0..good.len()).step_by(61) {
        let _ = spdb::decode(&good[..cut], 100);
    }
    for at in (0..good.len()).step_by(7) {
        let mut bad = good.clone();
        bad[at] ^= 0xff;
        let _ = spdb::decode(&bad, 100);
    }
    // A symbol record of length 1 in the module stream (block 4 + streams
    // 1..5: the module stream starts at block 10 here).
    let mut spec = spec();
    spec.symbols.insert(0, vec![0x3e]);
    let bytes = build_spdb(&spec);
    let err = spdb::decode(&bytes, 1000).unwrap_err();
    let DebugInfoError::Invalid {
        part,
        stream,
        offset,
        what,
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!(
        (part, stream, what),
        (
            PartName(*b"SPDB"),
            Some(6),
            "symbol record shorter than its kind"
        )
    );
    // The module stream is contiguous: the offset is in the file, 4 bytes
    // (the signature) into the stream's first block.
    let module_block = (offset - 1000 - 4) / 512;
    assert_eq!((offset - 1000 - 4) % 512, 0);
    assert_eq!(
        &bytes[(module_block * 512) as usize..][..4],
        &4u32.to_le_bytes()
    );
}

#[test]
fn an_undecodable_debug_part_is_reported_and_the_listing_stays() {
    // A symbol record too short for its kind.
    let mut spec = spec();
    spec.symbols.insert(0, vec![0x3e]);
    let spdb = build_spdb(&spec);
    let (text, errors) = program_text(&[(b"SHEX", &shex()), (b"SPDB", &spdb)]);
    assert_eq!(text, PLAIN);
    assert!(
        matches!(
            &errors[..],
            [DisasmError::DebugInfo(DebugInfoError::Invalid { .. })]
        ),
        "{errors:?}"
    );
}

#[test]
fn names_past_the_budget_are_an_error() {
    // One long member name repeated by many defranges: more name bytes than
    // the part justifies.
    let long = "n".repeat(60_000);
    let mut spec = spec();
    spec.types = vec![
        field_list(&[(0x40, 0, &long), (0x40, 4, "b")]),
        structure(0x1000, 8, "L"),
    ];
    spec.symbols = vec![local(0x1001, 0, "v")];
    for _ in 0..400 {
        spec.symbols.push(defrange(0, 0, 4, 40, 4, 0));
    }
    let bytes = build_spdb(&spec);
    let err = spdb::decode(&bytes, 0).unwrap_err();
    assert_eq!(
        err,
        DebugInfoError::NamesTooLarge {
            part: PartName(*b"SPDB"),
            limit: name_budget(bytes.len())
        }
    );
}

/// SDBG data: header, one file, `instructions` (number, destination,
/// x-component variable, symbol), variables, symbols and types as the
/// format lays them out.
fn sdbg(instructions: &[(u32, i32, i32, i32)]) -> Vec<u8> {
    let text = b"a.hlsl\0f\0S::m\0";
    let mut body = Vec::new();
    // file: name 0..6, source empty.
    body.extend(le(&[0, 6, 0, 0]));
    let instructions_at = body.len() as u32;
    for &(number, destination, variable, symbol) in instructions {
        let mut record = vec![0u8; 396];
        record[0..4].copy_from_slice(&number.to_le_bytes());
        record[16..20].copy_from_slice(&destination.to_le_bytes());
        for c in 0..4 {
            let mask: i32 = if c == 0 { 0 } else { -1 };
            record[24 + 4 * c..28 + 4 * c].copy_from_slice(&mask.to_le_bytes());
            let var: i32 = if c == 0 { variable } else { -1 };
            record[40 + 36 * c..44 + 36 * c].copy_from_slice(&var.to_le_bytes());
        }
        record[372..376].copy_from_slice(&symbol.to_le_bytes());
        body.extend(record);
    }
    // Variables: symbol 1 ("f"), type 0 (function f returning S), component 1.
    let variables_at = body.len() as u32;
    body.extend(le(&[1, 3, u32::MAX, u32::MAX, 0, 1]));
    // Symbols: 0 = a.hlsl line 7; 1 = "f"; 2 = "S::m".
    let symbols_at = body.len() as u32;
    body.extend(le(&[0, 7, 1, 0, 0]));
    body.extend(le(&[0, 1, 1, 1, 7]));
    body.extend(le(&[0, 1, 1, 4, 9]));
    // Scope 0: struct S, members = types [1] at integer byte 0.
    let scopes_at = body.len() as u32;
    body.extend(le(&[3, 0, 0, 1, 0]));
    // Types: 0 = function f (scope 0, 4 floats); 1 = member m, a float4.
    let types_at = body.len() as u32;
    body.extend(le(&[1, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0]));
    body.extend(le(&[2, 0, 1, 1, 4, u32::MAX, 0, 0, 0, 4, u32::MAX]));
    let integers_at = body.len() as u32;
    body.extend(le(&[1]));
    let text_at = body.len() as u32;
    body.extend_from_slice(text);
    let mut out = le(&[
        84,
        0,
        0,
        0,
        0,
        1,
        0,
        instructions.len() as u32,
        instructions_at,
        1,
        variables_at,
        0,
        symbols_at,
        3,
        symbols_at,
        1,
        scopes_at,
        2,
        types_at,
        integers_at,
        text_at,
    ]);
    out.extend(body);
    out
}

#[test]
fn sdbg_lines_and_temporary_notes() {
    // mov r0.xy (#0) writes f's return value .m.y into r0.x; add (#1) and
    // mov o0 (#2) have no variables; ret (#3) has no symbol.
    let data = sdbg(&[(0, 0, 0, 0), (1, 0, -1, 0), (2, 0, -1, 0), (3, -1, -1, -1)]);
    let notes = sdbg::decode(&data, 0).unwrap();
    assert_eq!(notes.files, vec!["a.hlsl".to_string()]);
    assert_eq!(
        notes.locations,
        vec![VariableLocation {
            register: NoteRegister::Destination { index: 0 },
            component: 0,
            start: 0,
            end: 1,
            variable: "<f return value>.m.y".into(),
        }]
    );
    let (text, errors) = program_text(&[(b"SHEX", &shex()), (b"SDBG", &data)]);
    assert_eq!(errors, vec![]);
    assert_eq!(
        text,
        "vs_5_0
dcl_input v0.xyzw
dcl_output o0.xyzw
dcl_temps 1

#line 7 \"a.hlsl\"
mov r0.xy, v0.xyxx  // r0.x <- <f return value>.m.y
add r0.x, r0.x, r0.y
mov o0.xyzw, r0.xxxx
ret 
// Approximately 0 instruction slots used
"
    );
}

#[test]
fn hostile_sdbg_is_an_error_not_a_panic() {
    let good = sdbg(&[(0, 0, 0, 0), (1, 0, -1, 0)]);
    for cut in 0..good.len() {
        let _ = sdbg::decode(&good[..cut], 0);
    }
    for at in (0..good.len()).step_by(3) {
        let mut bad = good.clone();
        bad[at] ^= 0x80;
        let _ = sdbg::decode(&bad, 0);
    }
    // A huge instruction count: a bounds error at the table, no allocation.
    let mut bad = good.clone();
    bad[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = sdbg::decode(&bad, 500).unwrap_err();
    let DebugInfoError::Read { source, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(source.offset, 500 + 84 + 16);
}

#[test]
fn initial_locations_follow_record_order_inputs_first() {
    // cs_5_0: dcl_input vThreadGroupID.xyz, dcl_input vThreadID.xyz,
    // dcl_thread_group 1, 1, 1, ret (byte 40). The records name the group id
    // first (as the vvvv listings show `vThreadGroupID` before `vThreadID`,
    // though its operand type, 33, is the higher), and an output before
    // the inputs: outputs still come last.
    let shex = le(&[
        0x0005_0050,
        11,
        0x0200_005f,
        0x0002_1072,
        0x0200_005f,
        0x0002_0072,
        0x0400_009b,
        1,
        1,
        1,
        0x0100_003e,
    ]);
    let spec = SpdbSpec {
        files: vec!["cs.hlsl".into()],
        lines: vec![(40, 0, 5)],
        types: vec![vector(0x75, 3, 12, "uint3")],
        symbols: vec![
            local(0x75, 0, "<main return value>"),
            defrange(2, 0, 4, 40, 4, 16),
            local(0x1000, 1, "gid"),
            defrange(33, 0, 12, 40, 4, 0),
            local(0x1000, 1, "tid"),
            defrange(32, 0, 12, 40, 4, 0),
        ],
        ..SpdbSpec::default()
    };
    let spdb = build_spdb(&spec);
    let bytes = build(&[(b"SHEX", &shex), (b"SPDB", &spdb)]);
    let c = Container::parse(&bytes).unwrap();
    let l = listing(&c, "t", &ListingOptions::default()).unwrap();
    assert_eq!(l.errors, vec![]);
    let at = l.text.find("cs_5_0").unwrap();
    assert_eq!(
        &l.text[at..],
        "cs_5_0
dcl_input vThreadGroupID.xyz
dcl_input vThreadID.xyz
dcl_thread_group 1, 1, 1
//
// Initial variable locations:
//   vThreadGroupID.x <- gid.x; vThreadGroupID.y <- gid.y; vThreadGroupID.z <- gid.z; 
//   vThreadID.x <- tid.x; vThreadID.y <- tid.y; vThreadID.z <- tid.z; 
//   o1.x <- <main return value>
//
#line 5 \"cs.hlsl\"
ret 
// Approximately 0 instruction slots used
"
    );
}

#[test]
fn member_scans_past_the_budget_are_an_error() {
    // 3000 members, 3000 defranges of the last one: finding it 3000 times
    // looks at 9 million members, more than 16 × the part's size.
    let names: Vec<String> = (0..3000).map(|i| format!("m{i}")).collect();
    let members: Vec<(u32, u16, &str)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (0x40, (4 * i) as u16, n.as_str()))
        .collect();
    let mut spec = spec();
    spec.types = vec![field_list(&members), structure(0x1000, 12_000, "Big")];
    spec.symbols = vec![local(0x1001, 0, "v")];
    for _ in 0..3000 {
        spec.symbols.push(defrange(0, 11_996, 4, 40, 4, 0));
    }
    let bytes = build_spdb(&spec);
    assert_eq!(
        spdb::decode(&bytes, 0).unwrap_err(),
        DebugInfoError::NamesTooLarge {
            part: PartName(*b"SPDB"),
            limit: name_budget(bytes.len())
        }
    );
    // One defrange is fine.
    spec.symbols.truncate(2);
    let notes = spdb::decode(&build_spdb(&spec), 0).unwrap();
    assert_eq!(notes.locations[0].variable, "v.m2999");
}
