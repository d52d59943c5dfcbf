//! Containers written as C headers, in the layout fxc (`/Fh`) or dxc
//! (`-Fh`) writes, and the arrays of an existing header rewritten in place
//! (docs/format/c-header.md). Reading headers is
//! [`dxcopy_read::c_header`].

use crate::error::{EditError, Result};
use dxcopy_read::c_header::HeaderArray;
use dxcopy_read::listing::dxbc::{self, DisasmError, ListingOptions};
use dxcopy_read::{Container, PartName};
use std::ops::Range;

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

/// Whether `name` can name a C array: letters, digits and `_`, not
/// starting with a digit (ASCII only, as every compiler takes it).
pub fn is_c_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `listing` made safe to stand between `#if 0` and `#endif`: whatever the
/// file put in the names it prints (semantic, resource and variable names,
/// source paths, the generator), nothing in it can end the block or reach
/// past it. The preprocessor still reads a skipped block's line ends,
/// conditional directives, line splices and comments, so
///
/// - a CR (a line end to most compilers) that does not end a line becomes `?`,
///   as does every other control character but tab and line feed;
/// - a line that would be a conditional directive (`#endif`, `#else`,
///   `#elif`, `#if`, `#ifdef`, `#ifndef`, `#elifdef`, `#elifndef`, its `#`
///   also spelled as the digraph `%:`) gets `//` put before its `#`;
/// - a line whose last non-blank character is `\` (which would splice the
///   next line, or the `#endif`, onto it) gets ` .` after it;
/// - a `/*` outside a `//` comment (which would open a comment past the
///   `#endif`) becomes `/ *`.
///
/// A listing the compilers print has none of these, and is returned as is.
pub fn safe_in_if_zero(listing: &str) -> std::borrow::Cow<'_, str> {
    let needs = listing.split('\n').any(line_needs_care);
    if !needs {
        return std::borrow::Cow::Borrowed(listing);
    }
    let mut out = String::with_capacity(listing.len() + 16);
    for (i, line) in listing.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let cleaned: String = line
            .chars()
            .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
            .collect();
        let trimmed = cleaned.trim_start();
        let mut line = if is_conditional_directive(trimmed) {
            let indent = &cleaned[..cleaned.len() - trimmed.len()];
            format!("{indent}//{trimmed}")
        } else {
            cleaned
        };
        if let Some(at) = open_comment_at(&line) {
            line = format!("{}/ *{}", &line[..at], line[at + 2..].replace("/*", "/ *"));
        }
        if line.trim_end().ends_with('\\') {
            line.push_str(" .");
        }
        out.push_str(&line);
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a line of a listing needs [`safe_in_if_zero`]'s care.
fn line_needs_care(line: &str) -> bool {
    line.chars().any(|c| c.is_control() && c != '\t')
        || is_conditional_directive(line.trim_start())
        || line.trim_end().ends_with('\\')
        || open_comment_at(line).is_some()
}

/// Whether `line` (its leading blanks removed) is a conditional directive.
fn is_conditional_directive(line: &str) -> bool {
    // `%:` is the digraph of `#` (C95, C++): `%:endif` ends a block too.
    let Some(rest) = line.strip_prefix('#').or_else(|| line.strip_prefix("%:")) else {
        return false;
    };
    let word: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    matches!(
        word.as_str(),
        "if" | "ifdef" | "ifndef" | "elif" | "elifdef" | "elifndef" | "else" | "endif"
    )
}

/// Where a `/*` outside a `//` comment starts in `line`.
fn open_comment_at(line: &str) -> Option<usize> {
    let slash = line.find("/*")?;
    match line.find("//") {
        Some(comment) if comment < slash => None,
        _ => Some(slash),
    }
}

/// The header for `container` named `name`: the `#if 0` block holding
/// `listing` (when given; its `\n` line ends converted; made safe by
/// [`safe_in_if_zero`]), then the array. A `name` that is not a C
/// identifier is [`EditError::BadArrayName`].
pub fn write_header(
    container: &[u8],
    name: &str,
    listing: Option<&str>,
    options: &HeaderOptions,
) -> Result<String> {
    if !is_c_identifier(name) {
        return Err(EditError::BadArrayName(name.to_owned()));
    }
    let listing = listing.map(safe_in_if_zero);
    let listing = listing.as_deref();
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
    Ok(match options.line_ends {
        LineEnds::Lf => out,
        LineEnds::Crlf => out.replace('\n', "\r\n"),
    })
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
    let edits = replacements
        .iter()
        .map(|(array, bytes)| (array.body.clone(), array_rows(text, array, bytes)))
        .collect();
    apply_edits(text, edits)
}

/// [`rewrite_arrays`], and the `#if 0` listing above each replaced array
/// that has one written anew for its new container by [`compiler_listing`]
/// (its `// Generated by` line and line ends kept; `options` choose the
/// release and rounding). A container that has no listing (no shader
/// bytecode, or a DXIL module that does not read) keeps the old block.
pub fn rewrite_arrays_and_listings(
    text: &[u8],
    replacements: &[(&HeaderArray, &[u8])],
    options: &ListingOptions,
) -> Result<Vec<u8>> {
    let mut edits = Vec::new();
    for (array, bytes) in replacements {
        if let Some(range) = array.listing.clone() {
            let old = text.get(range.clone()).unwrap_or_default();
            let old = String::from_utf8_lossy(old);
            let generator = old
                .lines()
                .find_map(|l| l.strip_prefix("// Generated by "))
                .unwrap_or("dxcopy")
                .trim_end_matches('\r')
                .to_owned();
            let container = Container::parse(bytes)?;
            if let Some(mut listing) = compiler_listing(&container, &generator, options)? {
                // dxc's `-Fh` puts one more line end after its listing: keep
                // the blank line the old block ended with.
                let normalized = old.replace("\r\n", "\n");
                if normalized.ends_with("\n\n") && !listing.ends_with("\n\n") {
                    listing.push('\n');
                }
                let listing = if old.contains("\r\n") {
                    listing.replace('\n', "\r\n")
                } else {
                    listing
                };
                edits.push((range, listing.into_bytes()));
            }
        }
        edits.push((array.body.clone(), array_rows(text, array, bytes)));
    }
    Ok(apply_edits(text, edits))
}

/// The new initializer text of `array` holding `bytes`, in its layout and
/// line ends.
fn array_rows(text: &[u8], array: &HeaderArray, bytes: &[u8]) -> Vec<u8> {
    let body = text.get(array.body.clone()).unwrap_or_default();
    let crlf = body.windows(2).any(|w| w == b"\r\n")
        || text
            .get(..array.body.start)
            .is_some_and(|t| t.ends_with(b"\r\n"));
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
    rows.into_bytes()
}

/// `text` with each range replaced; ranges that overlap an earlier one or
/// lie outside the text are skipped.
fn apply_edits(text: &[u8], mut edits: Vec<(Range<usize>, Vec<u8>)>) -> Vec<u8> {
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    for (range, replacement) in edits {
        let Some(before) = text.get(at..range.start) else {
            continue;
        };
        if range.end < range.start || range.end > text.len() {
            continue;
        }
        out.extend_from_slice(before);
        out.extend_from_slice(&replacement);
        at = range.end;
    }
    out.extend_from_slice(text.get(at..).unwrap_or_default());
    out
}

/// The listing a compiler writes above the array of `container`, made by
/// one call so that every header writer gets the same text: for DXBC (a
/// SHDR or SHEX part) the listing Microsoft's disassembler writes, in the
/// layout of the fxc release `options` settle on (RDEF's creator unless one
/// is chosen); for DXIL dxc's listing (`dxcopy_read::listing::dxil`, as the
/// release that wrote the file prints it); `None` for a container without
/// one (no shader bytecode: root signatures). A listing that cannot be made
/// (a DXIL module that does not read or lists past the work budget, a DXBC
/// program that does not decode) is an error, as it is to `dxinfo
/// --disasm`: a header never looks complete without it.
pub fn compiler_listing(
    container: &Container<'_>,
    generator: &str,
    options: &ListingOptions,
) -> Result<Option<String>> {
    match dxbc::listing(container, generator, options) {
        // A debug part (SPDB/SDBG) that does not decode only costs the
        // listing its `/Zi` notes: the rest is complete, so the header is
        // written (`dxinfo --disasm` reports the part).
        Ok(listing) => match listing
            .errors
            .into_iter()
            .find(|e| !matches!(e, DisasmError::DebugInfo(_)))
        {
            Some(e) => Err(EditError::Listing(e)),
            None => Ok(Some(safe_in_if_zero(&listing.text).into_owned())),
        },
        // A DXIL container: dxc's listing (`-Fh` writes what `-dumpbin`
        // prints).
        Err(DisasmError::DxilOnly) => {
            // The D3D_DISASM flags go along, for the DXIL listing to refuse.
            let dxil = dxcopy_read::listing::dxil::ListingOptions {
                flags: options.flags,
                ..Default::default()
            };
            dxcopy_read::listing::dxil::container_listing(container, &dxil)
                .map(|text| Some(safe_in_if_zero(&text).into_owned()))
                .map_err(EditError::DxilListing)
        }
        Err(DisasmError::NoShaderPart) => Ok(None),
        Err(e) => Err(EditError::Listing(e)),
    }
}

/// Whose layout the header of `container` follows when not chosen: dxc's
/// for a container with a DXIL part, else fxc's.
pub fn style_for(container: &Container<'_>) -> HeaderStyle {
    if container.find(PartName::DXIL).is_some() {
        HeaderStyle::Dxc
    } else {
        HeaderStyle::Fxc
    }
}

/// What [`compiler_header`] writes: `dxcopy --output-format=header`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompilerHeader {
    /// The array's name (`--array-name`, fxc's and dxc's default `g_main`).
    pub name: String,
    /// The compiler named on the listing's `// Generated by` line.
    pub generator: String,
    /// The listing's release and rounding.
    pub listing: ListingOptions,
    /// The layout; `None`: [`style_for`] the container.
    pub style: Option<HeaderStyle>,
    /// Line ends.
    pub line_ends: LineEnds,
}

/// The header fxc (`/Fh`) or dxc (`-Fh`) writes for the container `bytes`:
/// [`compiler_listing`] in `#if 0` … `#endif`, then the array.
pub fn compiler_header(bytes: &[u8], spec: &CompilerHeader) -> Result<String> {
    let container = Container::parse(bytes)?;
    let listing = compiler_listing(&container, &spec.generator, &spec.listing)?;
    let options = HeaderOptions {
        line_ends: spec.line_ends,
        ..HeaderOptions::new(spec.style.unwrap_or_else(|| style_for(&container)))
    };
    write_header(bytes, &spec.name, listing.as_deref(), &options)
}

/// The arrays of a header input to work on: the one named `array`, else
/// every array when `all`, else the only one (several are ambiguous).
pub fn select_arrays<'a>(
    found: &'a [HeaderArray],
    array: Option<&str>,
    all: bool,
) -> Result<Vec<&'a HeaderArray>> {
    let names = || found.iter().map(|a| a.name.clone()).collect::<Vec<_>>();
    if found.is_empty() {
        return Err(EditError::NoArrays);
    }
    match array {
        Some(name) => match found.iter().find(|a| a.name == name) {
            Some(a) => Ok(vec![a]),
            None => Err(EditError::NoSuchArray {
                name: name.to_owned(),
                names: names(),
            }),
        },
        None if all || found.len() == 1 => Ok(found.iter().collect()),
        None => Err(EditError::AmbiguousArray { names: names() }),
    }
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
        )
        .unwrap();
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
        )
        .unwrap();
        assert_eq!(
            text,
            "#if 0\r\n; shader\r\n\r\n#endif\r\n\r\nconst unsigned char g_main[] = {\r\n  \
             0x44, 0x58, 0x42, 0x43, 0xf8, 0x73, 0xd0, 0xc8, 0x07, 0x00, 0xab, 0xab,\r\n  \
             0x01, 0x02\r\n};\r\n"
        );
        // Without a listing: the array alone.
        assert_eq!(
            write_header(&[1], "a", None, &HeaderOptions::new(HeaderStyle::Dxc)).unwrap(),
            "const unsigned char a[] = {\n  0x01\n};\n"
        );
    }

    #[test]
    fn trailing_blanks_can_be_trimmed() {
        let options = HeaderOptions {
            trim_trailing_blanks: true,
            ..HeaderOptions::new(HeaderStyle::Fxc)
        };
        let text = write_header(&[1, 2, 3, 4, 5, 6, 7], "a", Some("ret \n"), &options).unwrap();
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
                    let text = write_header(&bytes, "x", Some("//\n"), &options).unwrap();
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

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// ps_4_0 `ret` in a container.
    fn dxbc() -> Vec<u8> {
        crate::ContainerBuilder::new()
            .part(b"SHDR", &le(&[0x40, 3, 0x0100_003e]))
            .build()
            .unwrap()
    }

    #[test]
    fn compiler_headers_take_their_listing_from_one_call() {
        let bytes = dxbc();
        let spec = CompilerHeader {
            name: "g_main".into(),
            generator: "G".into(),
            listing: ListingOptions::default(),
            style: None,
            line_ends: LineEnds::Lf,
        };
        let header = compiler_header(&bytes, &spec).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let listing = compiler_listing(&container, "G", &ListingOptions::default())
            .unwrap()
            .unwrap();
        assert_eq!(listing, "//\n// Generated by G\n//\n//\nps_4_0\nret \n// Approximately 0 instruction slots used\n");
        assert_eq!(
            header,
            write_header(
                &bytes,
                "g_main",
                Some(&listing),
                &HeaderOptions::new(HeaderStyle::Fxc)
            )
            .unwrap()
        );
        // DXIL whose module does not read: no listing, so no header (as
        // `dxinfo --disasm` prints nothing), the bitcode's error kept.
        let dxil = crate::ContainerBuilder::new()
            .pixel_program(b"DXIL", b"BC\xc0\xde\x01\x02")
            .build()
            .unwrap();
        let e = compiler_header(&dxil, &spec).unwrap_err();
        assert!(
            matches!(
                &e,
                EditError::DxilListing(dxcopy_read::listing::dxil::ListingError::Module {
                    part: PartName::DXIL,
                    source,
                }) if source.bit_offset == 48
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("cannot write the header's listing: DXIL module: bitcode at bit 48"),
            "{e}"
        );
        // Not a container: the reader's error.
        assert!(matches!(
            compiler_header(b"DXBX", &spec),
            Err(EditError::Read(_))
        ));
    }

    #[test]
    fn listings_are_rewritten_with_their_generator_and_line_ends() {
        let bytes = dxbc();
        let text = "#if 0\r\n//\r\n// Generated by Old 1.0\r\n//\r\nstale\r\n#endif\r\n\r\nconst BYTE g[] =\r\n{\r\n  1\r\n};\r\n";
        let found = arrays(text.as_bytes()).unwrap();
        let out = rewrite_arrays_and_listings(
            text.as_bytes(),
            &[(&found[0], &bytes)],
            &ListingOptions::default(),
        )
        .unwrap();
        let container = Container::parse(&bytes).unwrap();
        let listing = compiler_listing(&container, "Old 1.0", &ListingOptions::default())
            .unwrap()
            .unwrap();
        let want = write_header(
            &bytes,
            "g",
            Some(&listing),
            &HeaderOptions {
                line_ends: LineEnds::Crlf,
                ..HeaderOptions::new(HeaderStyle::Fxc)
            },
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }

    #[test]
    fn arrays_are_chosen_by_name_or_alone() {
        let text = b"const BYTE a[] = { 1 };\nconst BYTE b[] = { 2 };\n";
        let found = arrays(text).unwrap();
        let names = |v: Vec<&HeaderArray>| v.iter().map(|a| a.name.clone()).collect::<Vec<_>>();
        assert_eq!(
            names(select_arrays(&found, Some("b"), false).unwrap()),
            ["b"]
        );
        assert_eq!(
            names(select_arrays(&found, None, true).unwrap()),
            ["a", "b"]
        );
        assert!(matches!(
            select_arrays(&found, None, false),
            Err(EditError::AmbiguousArray { names }) if names == ["a", "b"]
        ));
        assert!(matches!(
            select_arrays(&found, Some("c"), true),
            Err(EditError::NoSuchArray { .. })
        ));
        assert!(matches!(
            select_arrays(&[], None, true),
            Err(EditError::NoArrays)
        ));
        assert_eq!(
            names(select_arrays(&found[..1], None, false).unwrap()),
            ["a"]
        );
    }

    #[test]
    fn nothing_in_a_listing_escapes_the_if_zero_block() {
        // A semantic name holding line ends and a directive, C code after.
        let hostile = "// SV_Target\n#endif\nint x = system(\"rm\");\n#if 0\n  0   xyzw\n\
                       // a\rb\n// path C:\\dir\\\n; x /* y\nps_4_0\n";
        let text = write_header(
            &[1],
            "g_main",
            Some(hostile),
            &HeaderOptions::new(HeaderStyle::Fxc),
        )
        .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Only the writer's own `#if 0` and `#endif` are directives.
        let directives: Vec<&&str> = lines
            .iter()
            .filter(|l| l.trim_start().starts_with('#'))
            .collect();
        assert_eq!(directives, [&"#if 0", &"#endif"], "{text}");
        assert!(text.contains("//#endif\n"), "{text}");
        assert!(text.contains("// a?b\n"), "{text}");
        assert!(text.contains("C:\\dir\\ .\n"), "{text}");
        assert!(text.contains("; x / * y\n"), "{text}");
        // The array is the only declaration, and reads back.
        let found = arrays(text.as_bytes()).unwrap();
        assert_eq!((found.len(), found[0].bytes.as_slice()), (1, &[1u8][..]));
        // `%:`, the digraph of `#`, is defused as `#` is; a line starting
        // with the `##` token is no directive and stays.
        let text = safe_in_if_zero("x\n  %:endif\n%: else\n##if 0\n");
        assert_eq!(text, "x\n  //%:endif\n//%: else\n##if 0\n");
        // A listing the compilers print is kept as is.
        let plain = "//\n// Generated by x\n#line 3 \"a.hlsl\"\nps_4_0\nret \n";
        assert!(matches!(
            safe_in_if_zero(plain),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn array_names_are_c_identifiers() {
        for bad in [
            "x[]; system(\"id\"); //",
            "",
            "1a",
            "9x",
            "a-b",
            "a b",
            "a\nb",
            "é",
        ] {
            assert!(
                matches!(
                    write_header(&[1], bad, None, &HeaderOptions::new(HeaderStyle::Fxc)),
                    Err(EditError::BadArrayName(ref n)) if n == bad
                ),
                "{bad:?}"
            );
        }
        for good in ["g_main", "_x", "_x9", "PS_2"] {
            assert!(write_header(&[1], good, None, &HeaderOptions::new(HeaderStyle::Dxc)).is_ok());
        }
    }
}
