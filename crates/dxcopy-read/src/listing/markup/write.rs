//! The two writers over [`super::spans`]: ANSI escapes and an HTML page.

use super::{has_class, spans, Class, Dialect, Style, HTML_SPECIAL};
use std::io::{self, Write};

/// The escape that starts a class's colour on a terminal (`Plain` has
/// none): instructions bold blue, registers magenta, literals cyan,
/// comments green.
fn ansi_start(class: Class) -> Option<&'static [u8]> {
    match class {
        Class::Plain => None,
        Class::Instruction => Some(b"\x1b[1;34m"),
        Class::Register => Some(b"\x1b[35m"),
        Class::Literal => Some(b"\x1b[36m"),
        Class::Comment => Some(b"\x1b[32m"),
    }
}

const ANSI_RESET: &[u8] = b"\x1b[0m";

/// The `class` attribute of a class's `<span>` (`Plain` has none).
fn html_class(class: Class) -> Option<&'static [u8]> {
    match class {
        Class::Plain => None,
        Class::Instruction => Some(b"i"),
        Class::Register => Some(b"r"),
        Class::Literal => Some(b"l"),
        Class::Comment => Some(b"c"),
    }
}

/// The page around the listing; the `<pre>`'s first line end is dropped by
/// every HTML parser, so the listing's text starts right after it.
const HTML_HEAD: &str = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>";
const HTML_STYLE: &str = "</title>\n<style>\n\
body { background: #ffffff; color: #000000; }\n\
pre { font-family: Consolas, 'DejaVu Sans Mono', monospace; }\n\
.i { color: #0000ff; font-weight: bold; }\n\
.r { color: #8b008b; }\n\
.l { color: #098658; }\n\
.c { color: #008000; }\n\
</style>\n</head>\n<body>\n<pre>\n";
const HTML_TAIL: &str = "</pre>\n</body>\n</html>\n";

/// Appends `bytes` with `&`, `<`, `>`, `"` and `'` as HTML character
/// references, everything else as it is.
fn push_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    let mut from = 0;
    for (at, b) in bytes.iter().enumerate() {
        if !has_class(*b, HTML_SPECIAL) {
            continue;
        }
        let entity: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'"' => b"&quot;",
            b'\'' => b"&#39;",
            _ => continue,
        };
        out.extend_from_slice(&bytes[from..at]);
        out.extend_from_slice(entity);
        from = at + 1;
    }
    out.extend_from_slice(&bytes[from..]);
}

/// Appends `text`, a span of `class`, marked up in `style`.
fn push_span(out: &mut Vec<u8>, style: Style, class: Class, text: &[u8]) {
    match style {
        Style::Ansi => match ansi_start(class) {
            Some(escape) => {
                out.extend_from_slice(escape);
                out.extend_from_slice(text);
                out.extend_from_slice(ANSI_RESET);
            }
            None => out.extend_from_slice(text),
        },
        Style::Html => match html_class(class) {
            Some(name) => {
                out.extend_from_slice(b"<span class=\"");
                out.extend_from_slice(name);
                out.extend_from_slice(b"\">");
                // Words, numbers and unquoted names are made of bytes that
                // need no escaping (see `spans`); quoted strings and
                // names, and comments, may hold any byte.
                let quoted = text.first() == Some(&b'"') || text.get(1) == Some(&b'"');
                if class == Class::Comment || quoted {
                    push_escaped(out, text);
                } else {
                    out.extend_from_slice(text);
                }
                out.extend_from_slice(b"</span>");
            }
            None => push_escaped(out, text),
        },
    }
}

/// A listing writer that adds colour: what is written to it is the plain
/// listing; what reaches `out` is that listing with ANSI escapes, or as the
/// HTML of a [`PageWriter`]'s `<pre>`. Text is held until its line ends;
/// [`MarkupWriter::finish`] writes the last partial line.
pub struct MarkupWriter<W: Write> {
    out: W,
    style: Style,
    dialect: Dialect,
    line: Vec<u8>,
    /// A line's marked-up bytes, written to `out` at once.
    marked: Vec<u8>,
}

impl<W: Write> MarkupWriter<W> {
    /// A writer of `dialect` listings to `out` in `style`.
    pub fn new(out: W, style: Style, dialect: Dialect) -> Self {
        MarkupWriter {
            out,
            style,
            dialect,
            line: Vec::new(),
            marked: Vec::new(),
        }
    }

    /// Writes a line that is no part of the listing (the `FILE:` line
    /// before each of several listings) without colour, and its line end.
    pub fn write_plain_line(&mut self, text: &[u8]) -> io::Result<()> {
        self.marked.clear();
        push_span(&mut self.marked, self.style, Class::Plain, text);
        self.marked.push(b'\n');
        self.out.write_all(&self.marked)
    }

    /// Writes what is held; returns `out`.
    pub fn finish(mut self) -> io::Result<W> {
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.write_line(&line, false)?;
        }
        self.out.flush()?;
        Ok(self.out)
    }

    /// One line, its spans merged by class, then its line end.
    fn write_line(&mut self, line: &[u8], line_end: bool) -> io::Result<()> {
        let (style, marked) = (self.style, &mut self.marked);
        marked.clear();
        let mut pending: Option<(Class, usize, usize)> = None;
        let mut at = 0;
        spans(line, self.dialect, |class, text| {
            let start = at;
            at += text.len();
            match &mut pending {
                Some((held, _, end)) if *held == class => *end = at,
                _ => {
                    if let Some((class, start, end)) = pending.replace((class, start, at)) {
                        push_span(marked, style, class, &line[start..end]);
                    }
                }
            }
        });
        if let Some((class, start, end)) = pending {
            push_span(marked, style, class, &line[start..end]);
        }
        if line_end {
            marked.push(b'\n');
        }
        self.out.write_all(&self.marked)
    }
}

impl<W: Write> Write for MarkupWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(end) = rest.iter().position(|b| *b == b'\n') {
            if self.line.is_empty() {
                self.write_line(&rest[..end], true)?;
            } else {
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(&rest[..end]);
                self.write_line(&line, true)?;
                line.clear();
                self.line = line;
            }
            rest = &rest[end + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// An HTML page around what is written to it (the `<pre>` text of
/// [`MarkupWriter`]s in [`Style::Html`]): the head is written before the
/// first byte, [`PageWriter::finish`] writes the end. Nothing reaches
/// `out` until something is written, so a listing that fails first leaves
/// no empty page.
pub struct PageWriter<W: Write> {
    out: W,
    title: String,
    started: bool,
}

impl<W: Write> PageWriter<W> {
    /// A page titled `title` (escaped when written) on `out`.
    pub fn new(out: W, title: &str) -> Self {
        PageWriter {
            out,
            title: title.to_string(),
            started: false,
        }
    }

    /// Writes the end of the page, when it was begun; returns `out`.
    pub fn finish(mut self) -> io::Result<W> {
        if self.started {
            self.out.write_all(HTML_TAIL.as_bytes())?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> Write for PageWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.started && !buf.is_empty() {
            self.started = true;
            let mut head = HTML_HEAD.as_bytes().to_vec();
            push_escaped(&mut head, self.title.as_bytes());
            head.extend_from_slice(HTML_STYLE.as_bytes());
            self.out.write_all(&head)?;
        }
        self.out.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// `listing` (a whole plain listing) with ANSI escapes, or the `<pre>`
/// text of its HTML page.
pub fn markup(listing: &[u8], style: Style, dialect: Dialect) -> Vec<u8> {
    let mut writer = MarkupWriter::new(Vec::with_capacity(listing.len() * 2), style, dialect);
    // Writing to a Vec cannot fail.
    let _ = writer.write_all(listing);
    writer.finish().unwrap_or_default()
}

/// `listing` as an HTML page titled `title` (nothing for an empty listing).
pub fn page(listing: &[u8], title: &str, dialect: Dialect) -> Vec<u8> {
    let mut page = PageWriter::new(Vec::with_capacity(listing.len() * 3), title);
    // Writing to a Vec cannot fail.
    let _ = page.write_all(&markup(listing, Style::Html, dialect));
    page.finish().unwrap_or_default()
}
