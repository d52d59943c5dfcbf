use super::*;
use std::io::Write;

/// `line`'s spans as `class:text` pieces, plain spaces left out.
fn classes(line: &str, dialect: Dialect) -> Vec<String> {
    let mut out = Vec::new();
    spans(line.as_bytes(), dialect, |class, text| {
        let text = String::from_utf8_lossy(text);
        let tag = match class {
            Class::Plain if text.trim().is_empty() => return,
            Class::Plain => "p",
            Class::Instruction => "i",
            Class::Register => "r",
            Class::Literal => "l",
            Class::Comment => "c",
        };
        out.push(format!("{tag}:{text}"));
    });
    out
}

#[test]
fn dxbc_lines_split_into_their_classes() {
    let rows: &[(&str, &[&str])] = &[
        (
            "mov r0.xyzw, l(1.000000,-0.500000,0,0x3f800000)",
            &[
                "i:mov",
                "r:r0.xyzw",
                "p:, ",
                "l:l",
                "p:(",
                "l:1.000000",
                "p:,",
                "l:-0.500000",
                "p:,",
                "l:0",
                "p:,",
                "l:0x3f800000",
                "p:)",
            ],
        ),
        (
            "dcl_constantbuffer CB0[1], immediateIndexed",
            &[
                "i:dcl_constantbuffer",
                "r:CB0",
                "p:[",
                "l:1",
                "p:], ",
                "p:immediateIndexed",
            ],
        ),
        (
            "add r1.x, -r0.x, cb0[2].y  // a note",
            &[
                "i:add",
                "r:r1.x",
                "p:, ",
                "p:-",
                "r:r0.x",
                "p:, ",
                "r:cb0",
                "p:[",
                "l:2",
                "p:].",
                "p:y",
                "c:// a note",
            ],
        ),
        ("// cbuffer <a&b>", &["c:// cbuffer <a&b>"]),
        ("ps_5_0", &["i:ps_5_0"]),
        (
            "store_uav_typed u0.xyzw, vThreadID.xyyy, r0.xyzw",
            &[
                "i:store_uav_typed",
                "r:u0.xyzw",
                "p:, ",
                "r:vThreadID.xyyy",
                "p:, ",
                "r:r0.xyzw",
            ],
        ),
        (
            "  12: mov oDepth, d(1.0, 2.0)",
            &[
                "l:12", "p:: ", "i:mov", "r:oDepth", "p:, ", "l:d", "p:(", "l:1.0", "p:, ",
                "l:2.0", "p:)",
            ],
        ),
        (
            "sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0",
            &[
                "i:sample_indexable",
                "p:(",
                "p:texture2d",
                "p:)(",
                "p:float",
                "p:,",
                "p:float",
                "p:,",
                "p:float",
                "p:,",
                "p:float",
                "p:) ",
                "r:r0.xyzw",
                "p:, ",
                "r:v1.xyxx",
                "p:, ",
                "r:t0.xyzw",
                "p:, ",
                "r:s0",
            ],
        ),
    ];
    for (line, want) in rows {
        assert_eq!(classes(line, Dialect::Dxbc), *want, "{line}");
    }
}

#[test]
fn dxil_lines_split_into_their_classes() {
    let rows: &[(&str, &[&str])] = &[
        (
            "  %3 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)",
            &[
                "r:%3", "p: = ", "i:call", "p:float", "r:@dx.op.loadInput.f32", "p:(", "p:i32",
                "l:4", "p:, ", "p:i32", "l:0", "p:, ", "p:i32", "l:0", "p:, ", "p:i8", "l:0",
                "p:, ", "p:i32", "l:undef", "p:)  ", "c:; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)",
            ],
        ),
        (
            "!1 = !{!\"a;<b>\", i32 -2, float 1.000000e+00}",
            &[
                "r:!1", "p: = ", "p:!{", "p:!", "l:\"a;<b>\"", "p:, ", "p:i32", "l:-2", "p:, ",
                "p:float", "l:1.000000e+00", "p:}",
            ],
        ),
        ("define void @main() {", &["i:define", "p:void", "r:@main", "p:() {"]),
        (
            "  %1 = load %dx.types.Handle, %dx.types.Handle* @T, align 4",
            &[
                "r:%1", "p: = ", "i:load", "p:%dx.types.Handle", "p:, ", "p:%dx.types.Handle",
                "p:* ", "r:@T", "p:, ", "p:align", "l:4",
            ],
        ),
        ("%\"class.T<x>\" = type { i32 }", &["p:%\"class.T<x>\"", "p: = ", "i:type", "p: { ", "p:i32", "p: }"]),
        ("; Input signature:", &["c:; Input signature:"]),
        ("entry:", &["r:entry", "p::"]),
        ("  br i1 true, label %6, label %7", &[
            "i:br", "p:i1", "l:true", "p:, ", "p:label", "r:%6", "p:, ", "p:label", "r:%7",
        ]),
    ];
    for (line, want) in rows {
        assert_eq!(classes(line, Dialect::Dxil), *want, "{line}");
    }
}

/// The spans of any bytes join to those bytes: the markup never drops or
/// adds text, whatever a hostile file puts in a name; and only plain text,
/// comments and quoted spans hold bytes HTML escapes.
#[test]
fn spans_join_to_the_line_for_any_bytes() {
    let mut seed = 0x1234_5678_u32;
    for _ in 0..2000 {
        let len = (seed % 40) as usize;
        let line: Vec<u8> = (0..len)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                b"r0.x l(1) \"%@!;/-+e#<&>\xff\x00cb2 vThreadID'"[(seed >> 16) as usize % 39]
            })
            .collect();
        for dialect in [Dialect::Dxbc, Dialect::Dxil] {
            let mut joined = Vec::new();
            spans(&line, dialect, |class, text| {
                assert!(!text.is_empty());
                joined.extend_from_slice(text);
                // The HTML writer copies these unescaped.
                let quoted = text.first() == Some(&b'"') || text.get(1) == Some(&b'"');
                if !matches!(class, Class::Plain | Class::Comment) && !quoted {
                    assert!(
                        !text.iter().any(|b| b"&<>\"'".contains(b)),
                        "{class:?} {:?}",
                        String::from_utf8_lossy(text)
                    );
                }
            });
            assert_eq!(joined, line);
        }
    }
}

const LISTING: &str = "// cbuffer <a&b> \"q\"\nps_5_0\nmov o0.xyzw, l(1.000000,0,0,'1')\nret \n";

#[test]
fn ansi_colours_each_class_and_resets() {
    let out = markup(LISTING.as_bytes(), Style::Ansi, Dialect::Dxbc);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "\x1b[32m// cbuffer <a&b> \"q\"\x1b[0m\n\
         \x1b[1;34mps_5_0\x1b[0m\n\
         \x1b[1;34mmov\x1b[0m \x1b[35mo0.xyzw\x1b[0m, \x1b[36ml\x1b[0m(\x1b[36m1.000000\x1b[0m,\
         \x1b[36m0\x1b[0m,\x1b[36m0\x1b[0m,'\x1b[36m1\x1b[0m')\n\
         \x1b[1;34mret\x1b[0m \n"
    );
}

#[test]
fn html_is_a_page_with_escaped_text() {
    let out = String::from_utf8(page(LISTING.as_bytes(), "a<b>.cso", Dialect::Dxbc)).unwrap();
    let body = out
        .split_once("<pre>\n")
        .and_then(|(head, rest)| {
            assert!(head.contains("<title>a&lt;b&gt;.cso</title>"), "{head}");
            rest.split_once("</pre>\n</body>\n</html>\n")
        })
        .map(|(body, tail)| {
            assert_eq!(tail, "");
            body
        })
        .unwrap();
    assert_eq!(
        body,
        "<span class=\"c\">// cbuffer &lt;a&amp;b&gt; &quot;q&quot;</span>\n\
         <span class=\"i\">ps_5_0</span>\n\
         <span class=\"i\">mov</span> <span class=\"r\">o0.xyzw</span>, <span class=\"l\">l</span>(\
         <span class=\"l\">1.000000</span>,<span class=\"l\">0</span>,<span class=\"l\">0</span>,\
         &#39;<span class=\"l\">1</span>&#39;)\n\
         <span class=\"i\">ret</span> \n"
    );
}

/// Text written in pieces that split lines anywhere marks up as the whole
/// text does; a last line without its line end is still written.
#[test]
fn writer_joins_pieces_and_keeps_a_last_partial_line() {
    let text = b"mov r0.x, l(2)\n// c\nret";
    let whole = markup(text, Style::Ansi, Dialect::Dxbc);
    for cut in 0..text.len() {
        let mut writer = MarkupWriter::new(Vec::new(), Style::Ansi, Dialect::Dxbc);
        writer.write_all(&text[..cut]).unwrap();
        writer.write_all(&text[cut..]).unwrap();
        assert_eq!(writer.finish().unwrap(), whole, "cut at {cut}");
    }
    assert!(whole.ends_with(b"\x1b[1;34mret\x1b[0m"));
}

/// A line that is no part of a listing is escaped, never coloured.
#[test]
fn plain_lines_are_escaped_not_coloured() {
    for (style, want) in [
        (Style::Ansi, "mov<&>.dxbc:\n"),
        (Style::Html, "mov&lt;&amp;&gt;.dxbc:\n"),
    ] {
        let mut writer = MarkupWriter::new(Vec::new(), style, Dialect::Dxbc);
        writer.write_plain_line(b"mov<&>.dxbc:").unwrap();
        assert_eq!(String::from_utf8(writer.finish().unwrap()).unwrap(), want);
    }
}

#[test]
fn nothing_written_makes_no_page() {
    assert!(page(b"", "t", Dialect::Dxil).is_empty());
    assert!(markup(b"", Style::Html, Dialect::Dxil).is_empty());
}

/// A hostile listing (a megabyte line of quotes, comment starts and
/// specials) marks up in one pass to a bounded size: at most six bytes
/// a byte (`&quot;`) plus the spans' tags, never more work than its length.
#[test]
fn hostile_lines_stay_bounded() {
    let line: Vec<u8> = b"\"<&>'%@!;//-1e+"
        .iter()
        .copied()
        .cycle()
        .take(1 << 20)
        .collect();
    for dialect in [Dialect::Dxbc, Dialect::Dxil] {
        let html = page(&line, "t", dialect);
        assert!(html.len() < line.len() * 24, "{}", html.len());
        let ansi = markup(&line, Style::Ansi, dialect);
        assert!(ansi.len() < line.len() * 12, "{}", ansi.len());
    }
}
