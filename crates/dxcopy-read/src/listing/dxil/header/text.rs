//! llvm::raw_ostream's `left_justify` / `right_justify`, which dxc's
//! header tables are written with: pad to a width, never cut.

/// `text` then spaces up to `width` characters.
pub(crate) fn ljust(out: &mut String, text: &str, width: usize) {
    out.push_str(text);
    for _ in text.len()..width {
        out.push(' ');
    }
}

/// Spaces up to `width` characters, then `text`.
pub(crate) fn rjust(out: &mut String, text: &str, width: usize) {
    for _ in text.len()..width {
        out.push(' ');
    }
    out.push_str(text);
}

/// `indent` spaces (raw_ostream::indent).
pub(crate) fn indent(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push(' ');
    }
}
