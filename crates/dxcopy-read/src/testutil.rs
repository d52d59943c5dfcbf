//! Test helpers: raw container bytes without going through the edit crate.

use crate::container::{Header, PartHeader};

/// A contiguous container with a zero digest, version 1.0 and a true FileSize.
pub fn build(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let table_end = 32 + 4 * parts.len();
    let mut offsets = Vec::new();
    let mut body = Vec::new();
    for (name, data) in parts {
        offsets.push((table_end + body.len()) as u32);
        let size = data.len() as u32;
        PartHeader { name: **name, size }.write_to(&mut body);
        body.extend_from_slice(data);
    }
    let mut out = raw_container(parts.len() as u32, &offsets, &body);
    let len = out.len() as u32;
    out[24..28].copy_from_slice(&len.to_le_bytes());
    out
}

/// Header with `part_count`, then `offsets` as the table, then `body`; FileSize = total length.
pub fn raw_container(part_count: u32, offsets: &[u32], body: &[u8]) -> Vec<u8> {
    let mut out = Header {
        magic: *b"DXBC",
        digest: [0; 16],
        major: 1,
        minor: 0,
        file_size: 0,
        part_count,
    }
    .to_bytes();
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(body);
    let len = out.len() as u32;
    out[24..28].copy_from_slice(&len.to_le_bytes());
    out
}

/// Signs `bytes` with the retail digest.
pub fn sign(mut bytes: Vec<u8>) -> Vec<u8> {
    let (retail, _) = crate::digest::container_digests(&bytes).expect("valid FileSize");
    bytes[4..20].copy_from_slice(&retail);
    bytes
}

/// How one decoder run over a hostile input ended, for tables that pin both
/// views of a part: `Ok` with a summary of the value (the findings, for the
/// parts that report them), or the error's [`ReadErrorKind`] variant name
/// and absolute offset.
///
/// [`ReadErrorKind`]: crate::error::ReadErrorKind
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<S> {
    /// Decoded; the summary of the value.
    Ok(S),
    /// Failed with this `ReadErrorKind` variant at this offset.
    Err(String, u64),
}

/// The expected [`Outcome`] of a failure: `variant` of `ReadErrorKind` at `offset`.
pub fn err<S>(variant: &str, offset: u64) -> Outcome<S> {
    Outcome::Err(variant.to_owned(), offset)
}

/// The [`Outcome`] of `result`, summarising a value with `summary`. The error
/// message is printed (shown with `--nocapture`), so that a change of its
/// text can be seen by comparing two runs.
pub fn outcome<T, S>(
    row: &str,
    result: crate::error::Result<T>,
    summary: impl Fn(&T) -> S,
) -> Outcome<S> {
    match result {
        Ok(value) => Outcome::Ok(summary(&value)),
        Err(e) => {
            eprintln!("{row}: {e}");
            let debug = format!("{:?}", e.kind);
            let variant = debug
                .split(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or_default();
            Outcome::Err(variant.to_owned(), e.offset)
        }
    }
}

/// A row of a table over both views of a part: its name, the input, the
/// expected [`Outcome`] of the dxc view and that of the LLVM view.
pub type Row<D, S> = (&'static str, D, Outcome<S>, Outcome<S>);

/// The expected [`Outcome`] of a success that reports `findings`, each a
/// kind at an absolute offset.
pub fn found(findings: &[(u64, crate::FindingKind)]) -> Outcome<Vec<crate::Finding>> {
    rules(findings)
}

/// Success with these findings of one decoder's own rules (or of any one
/// type a finding's kind is made from), at these absolute offsets.
pub fn rules<K: Clone + Into<crate::FindingKind>>(
    findings: &[(u64, K)],
) -> Outcome<Vec<crate::Finding>> {
    Outcome::Ok(
        findings
            .iter()
            .map(|(at, kind)| crate::Finding::at(*at, kind.clone()))
            .collect(),
    )
}

/// Each decoder rule says its sentence, as a finding of its kind too (a
/// warning, with the rule's name and type kept).
pub fn rules_say<T: crate::finding::Rule>(rows: Vec<(T, &str)>) {
    assert!(!rows.is_empty());
    for (rule, sentence) in rows {
        assert_eq!(rule.to_string(), sentence);
        let kind = crate::FindingKind::from(rule.clone());
        assert_eq!(kind.to_string(), sentence);
        assert_eq!(kind.severity(), crate::Severity::Warning);
        assert_eq!(kind.rule::<T>(), Some(&rule));
        let name = kind.name();
        assert!(!name.is_empty() && format!("{rule:?}").starts_with(&name));
    }
}

/// Each of a decoder's errors says its sentence, and a read error of it
/// names the part and the offset around that sentence.
pub fn errors_say<T: crate::detail::Words>(rows: Vec<(T, &str)>) {
    assert!(!rows.is_empty());
    let part = crate::error::PartRef {
        index: 2,
        name: crate::name::PartName(*b"TEST"),
        offset: 0x40,
    };
    for (words, sentence) in rows {
        assert_eq!(words.to_string(), sentence);
        let e = crate::ReadError::new(0x48, crate::ReadErrorKind::unknown_value(words.clone()));
        assert_eq!(e.kind.detail::<T>(), Some(&words));
        assert_eq!(
            e.in_part(part).to_string(),
            format!("part 2 'TEST' at offset 0x40: {sentence} (at offset 0x48)")
        );
    }
}
