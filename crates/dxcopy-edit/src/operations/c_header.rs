//! Containers written as C headers, in the layout fxc (`/Fh`) or dxc
//! (`-Fh`) writes, and the arrays of an existing header rewritten in place
//! (docs/format/c-header.md). Reading headers is
//! [`dxcopy_read::c_header`].

use dxcopy_read::c_header::HeaderArray;

/// Whose layout a header follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeaderStyle {
    /// fxc `/Fh`: `const BYTE NAME[] =`, six decimal bytes a line.
    Fxc,
    /// dxc `-Fh`: `const unsigned char NAME[] = {`, twelve hex bytes a line,
    /// CRLF line ends.
    Dxc,
}

/// Line ends of a written header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LineEnds {
    /// `\n`, as repositories store the compilers' headers (DirectXTK's
    /// `.inc` files, SDL's headers).
    #[default]
    Lf,
    /// `\r\n`, as fxc on Windows and dxc everywhere write them.
    Crlf,
}

/// How [`write_header`] lays a header out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HeaderOptions {
    /// Whose layout.
    pub style: HeaderStyle,
    /// Line ends.
    pub line_ends: LineEnds,
    /// Remove the blanks at the ends of lines, as repositories that strip
    /// trailing whitespace store the headers (SDL's Direct3D 11 shaders).
    pub trim_trailing_blanks: bool,
}

impl HeaderOptions {
    /// `style` with LF line ends and its blanks kept.
    pub fn new(style: HeaderStyle) -> HeaderOptions {
        HeaderOptions {
            style,
            line_ends: LineEnds::Lf,
            trim_trailing_blanks: false,
        }
    }
}

/// The header for `container` named `name`: the `#if 0` block holding
/// `listing` (when given; its `\n` line ends converted), then the array.
pub fn write_header(
    container: &[u8],
    name: &str,
    listing: Option<&str>,
    options: &HeaderOptions,
) -> String {
    let style = options.style;
    let mut out = String::with_capacity(container.len() * 6 + 256);
    if let Some(listing) = listing {
        out.push_str("#if 0\n");
        out.push_str(listing);
        if style == HeaderStyle::Dxc {
            // dxc writes `\r\n#endif` after the text, which ends in a line end.
            out.push('\n');
        } else if !listing.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("#endif\n\n");
    }
    match style {
        HeaderStyle::Fxc => {
            out.push_str("const BYTE ");
            out.push_str(name);
            out.push_str("[] =\n{\n");
            out.push_str(&fxc_rows(container));
            out.push_str("};\n");
        }
        HeaderStyle::Dxc => {
            out.push_str("const unsigned char ");
            out.push_str(name);
            out.push_str("[] = {");
            out.push_str(&dxc_rows(container));
            out.push_str("\n};\n");
        }
    }
    if options.trim_trailing_blanks {
        out = out
            .split_inclusive('\n')
            .map(|line| format!("{}\n", line.trim_end_matches(['\n', ' ', '\t'])))
            .collect();
    }
    match options.line_ends {
        LineEnds::Lf => out,
        LineEnds::Crlf => out.replace('\n', "\r\n"),
    }
}

/// fxc's rows: `    ` then six bytes as `%3d`, `, ` between and at the end of
/// every full row, the last byte without.
fn fxc_rows(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 5 + bytes.len() / 6 * 6);
    for (i, b) in bytes.iter().enumerate() {
        if i % 6 == 0 {
            out.push_str("    ");
        }
        let _ = write!(out, "{b:>3}");
        if i + 1 == bytes.len() {
            out.push('\n');
        } else if i % 6 == 5 {
            out.push_str(", \n");
        } else {
            out.push_str(", ");
        }
    }
    out
}

/// dxc's rows: every twelve bytes a new line and a space, each byte as
/// ` 0x%02x`, `,` between.
fn dxc_rows(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 6 + bytes.len() / 12 * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i != 0 {
            out.push(',');
        }
        if i % 12 == 0 {
            out.push_str("\n ");
        }
        let _ = write!(out, " 0x{b:02x}");
    }
    out
}

/// The layout an existing array's initializer uses, guessed from its text:
/// hex bytes are dxc's, decimal ones fxc's.
pub fn style_of(text: &[u8], array: &HeaderArray) -> HeaderStyle {
    let body = text.get(array.body.clone()).unwrap_or_default();
    if body.windows(2).any(|w| w.eq_ignore_ascii_case(b"0x")) {
        HeaderStyle::Dxc
    } else {
        HeaderStyle::Fxc
    }
}

/// `text` with the initializer of each `(array, new bytes)` replaced by the
/// new bytes in the array's own layout and line ends; every other byte of
/// the file stays as it was. Arrays must come from
/// [`dxcopy_read::c_header::arrays`] over this `text`.
pub fn rewrite_arrays(text: &[u8], replacements: &[(&HeaderArray, &[u8])]) -> Vec<u8> {
    let mut sorted: Vec<&(&HeaderArray, &[u8])> = replacements.iter().collect();
    sorted.sort_by_key(|(array, _)| array.body.start);
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    for (array, bytes) in sorted {
        let Some(before) = text.get(at..array.body.start) else {
            continue;
        };
        out.extend_from_slice(before);
        let body = &text[array.body.clone()];
        let crlf =
            body.windows(2).any(|w| w == b"\r\n") || text[..array.body.start].ends_with(b"\r\n");
        let rows = match style_of(text, array) {
            // `{` on its own line before; rows end with `\n` before `}`.
            HeaderStyle::Fxc => format!("\n{}", fxc_rows(bytes)),
            HeaderStyle::Dxc => format!("{}\n", dxc_rows(bytes)),
        };
        let rows = if crlf {
            rows.replace('\n', "\r\n")
        } else {
            rows
        };
        out.extend_from_slice(rows.as_bytes());
        at = array.body.end;
    }
    out.extend_from_slice(text.get(at..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxcopy_read::c_header::arrays;

    const BYTES: &[u8] = &[68, 88, 66, 67, 248, 115, 208, 200, 7, 0, 171, 171, 1, 2];

    #[test]
    fn fxc_layout() {
        let text = write_header(
            BYTES,
            "PS_Main",
            Some("//\n// Generated by x\n//\nps_4_0\n"),
            &HeaderOptions::new(HeaderStyle::Fxc),
        );
        assert_eq!(
            text,
            "#if 0\n//\n// Generated by x\n//\nps_4_0\n#endif\n\n\
             const BYTE PS_Main[] =\n{\n     68,  88,  66,  67, 248, 115, \n\
             \x20   208, 200,   7,   0, 171, 171, \n\
             \x20     1,   2\n};\n"
        );
    }

    #[test]
    fn dxc_layout() {
        let text = write_header(
            BYTES,
            "g_main",
            Some("; shader\n"),
            &HeaderOptions {
                line_ends: LineEnds::Crlf,
                ..HeaderOptions::new(HeaderStyle::Dxc)
            },
        );
        assert_eq!(
            text,
            "#if 0\r\n; shader\r\n\r\n#endif\r\n\r\nconst unsigned char g_main[] = {\r\n  \
             0x44, 0x58, 0x42, 0x43, 0xf8, 0x73, 0xd0, 0xc8, 0x07, 0x00, 0xab, 0xab,\r\n  \
             0x01, 0x02\r\n};\r\n"
        );
        // Without a listing: the array alone.
        assert_eq!(
            write_header(&[1], "a", None, &HeaderOptions::new(HeaderStyle::Dxc)),
            "const unsigned char a[] = {\n  0x01\n};\n"
        );
    }

    #[test]
    fn trailing_blanks_can_be_trimmed() {
        let options = HeaderOptions {
            trim_trailing_blanks: true,
            ..HeaderOptions::new(HeaderStyle::Fxc)
        };
        let text = write_header(&[1, 2, 3, 4, 5, 6, 7], "a", Some("ret \n"), &options);
        assert_eq!(
            text,
            "#if 0\nret\n#endif\n\nconst BYTE a[] =\n{\n      1,   2,   3,   4,   5,   6,\n      7\n};\n"
        );
    }

    #[test]
    fn written_headers_read_back() {
        for style in [HeaderStyle::Fxc, HeaderStyle::Dxc] {
            for ends in [LineEnds::Lf, LineEnds::Crlf] {
                for len in [1usize, 5, 6, 7, 12, 13, 100] {
                    let bytes: Vec<u8> = (0..len).map(|i| (i * 37) as u8).collect();
                    let options = HeaderOptions {
                        line_ends: ends,
                        ..HeaderOptions::new(style)
                    };
                    let text = write_header(&bytes, "x", Some("//\n"), &options);
                    let found = arrays(text.as_bytes()).unwrap();
                    assert_eq!(found.len(), 1);
                    assert_eq!(found[0].bytes, bytes, "{style:?} {ends:?} {len}");
                    assert_eq!(style_of(text.as_bytes(), &found[0]), style);
                }
            }
        }
    }

    #[test]
    fn rewriting_keeps_every_other_byte() {
        let text = "// header\r\n#if 0\r\n// listing\r\n#endif\r\n\r\nconst unsigned char a[] = {\r\n  0x01, 0x02\r\n};\r\n\
                    int other = 3;\r\nconst BYTE b[] =\r\n{\r\n      1,   2,   3\r\n};\r\n// end";
        let found = arrays(text.as_bytes()).unwrap();
        let out = rewrite_arrays(text.as_bytes(), &[(&found[1], &[9, 8]), (&found[0], &[7])]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "// header\r\n#if 0\r\n// listing\r\n#endif\r\n\r\nconst unsigned char a[] = {\r\n  0x07\r\n};\r\n\
             int other = 3;\r\nconst BYTE b[] =\r\n{\r\n      9,   8\r\n};\r\n// end"
        );
        // Unchanged bytes give the same text back.
        let same = rewrite_arrays(
            text.as_bytes(),
            &[
                (&found[0], &found[0].bytes[..]),
                (&found[1], &found[1].bytes[..]),
            ],
        );
        assert_eq!(same, text.as_bytes());
    }
}
