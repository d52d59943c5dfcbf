//! Corpus property of the coloured listings: for every DXBC and DXIL
//! container of `../shared/corpus`, the ANSI listing with its escapes
//! removed, and the HTML page's `<pre>` with its tags removed and its
//! character references decoded, are the plain listing byte for byte.
//! Ignored without the corpus.

use dxcopy_harness::corpus::manifest_or_skip;
use dxcopy_read::listing::markup::{markup, page, Dialect, Style};
use dxcopy_read::listing::{dxbc, dxil};
use dxcopy_read::Container;

/// `text` without its `ESC [ … m` sequences.
fn strip_ansi(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    while at < text.len() {
        if text[at] == 0x1b && text.get(at + 1) == Some(&b'[') {
            let end = text[at..]
                .iter()
                .position(|b| *b == b'm')
                .expect("an unended escape");
            at += end + 1;
        } else {
            out.push(text[at]);
            at += 1;
        }
    }
    out
}

/// The text of the page's `<pre>`: tags removed, the five character
/// references the writer uses decoded, the line end after `<pre>` (which
/// HTML parsers drop) left out.
fn html_text(page: &[u8]) -> Vec<u8> {
    let find = |needle: &[u8], from: usize| {
        page[from..]
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|p| p + from)
    };
    let start = find(b"<pre>\n", 0).expect("no <pre>") + 6;
    let end = find(b"</pre>\n</body>\n</html>\n", start).expect("no </pre>");
    let body = &page[start..end];
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    while at < body.len() {
        match body[at] {
            b'<' => {
                at += body[at..]
                    .iter()
                    .position(|b| *b == b'>')
                    .expect("an open tag")
                    + 1
            }
            b'&' => {
                let end = body[at..]
                    .iter()
                    .position(|b| *b == b';')
                    .expect("an open entity");
                out.push(match &body[at..at + end + 1] {
                    b"&amp;" => b'&',
                    b"&lt;" => b'<',
                    b"&gt;" => b'>',
                    b"&quot;" => b'"',
                    b"&#39;" => b'\'',
                    other => panic!("unknown reference {}", String::from_utf8_lossy(other)),
                });
                at += end + 1;
            }
            b => {
                out.push(b);
                at += 1;
            }
        }
    }
    out
}

/// The plain listing of a container and its dialect, when it has one.
fn plain_listing(container: &Container<'_>) -> Option<(Vec<u8>, Dialect)> {
    if let Ok(text) = dxil::container_listing(container, &dxil::ListingOptions::default()) {
        return Some((text.into_bytes(), Dialect::Dxil));
    }
    let mut out = Vec::new();
    let options = dxbc::ListingOptions::default();
    match dxbc::write_listing(container, "dxinfo", &options, &mut out) {
        Ok(Ok(_)) if !out.is_empty() => Some((out, Dialect::Dxbc)),
        _ => None,
    }
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn coloured_listings_strip_to_the_plain_listing() {
    let Some((_, rows)) = manifest_or_skip("markup_corpus") else {
        return;
    };
    let (mut dxbc_count, mut dxil_count) = (0, 0);
    for row in rows.iter().filter(|r| r.kind == "dxbc" || r.kind == "dxil") {
        let bytes = std::fs::read(&row.path).unwrap();
        let Ok(container) = Container::parse(&bytes) else {
            continue;
        };
        let Some((plain, dialect)) = plain_listing(&container) else {
            continue;
        };
        match dialect {
            Dialect::Dxbc => dxbc_count += 1,
            Dialect::Dxil => dxil_count += 1,
        }
        let ansi = markup(&plain, Style::Ansi, dialect);
        assert!(ansi.len() > plain.len(), "{}: no colour", row.rel);
        assert!(
            strip_ansi(&ansi) == plain,
            "{}: the ANSI listing's text differs",
            row.rel
        );
        let page = page(&plain, row.short(), dialect);
        assert!(
            html_text(&page) == plain,
            "{}: the HTML page's text differs",
            row.rel
        );
    }
    println!("markup_corpus: {dxbc_count} DXBC and {dxil_count} DXIL listings");
    assert!(
        dxbc_count > 100 && dxil_count > 100,
        "{dxbc_count} DXBC, {dxil_count} DXIL"
    );
}
