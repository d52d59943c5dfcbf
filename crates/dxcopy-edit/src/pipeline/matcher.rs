//! Part-name matching with llvm-objcopy's rules: glob patterns by default
//! (`*`, `?`, `[a-z]`, `[!x]`, `\` escapes), `!pattern` negates, `--regex`
//! switches to (unanchored) regular expressions. A name matches when any
//! positive pattern matches and no negative pattern does.

use crate::error::{EditError, Result};
use dxcopy_read::PartName;

/// How patterns are interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatchStyle {
    /// Shell-style globs (llvm-objcopy's default for section names).
    #[default]
    Glob,
    /// Regular expressions, matched anywhere in the name (`--regex`).
    Regex,
    /// Exact names only.
    Literal,
}

#[derive(Debug, Clone)]
enum Pattern {
    Literal(Vec<u8>),
    Glob(Vec<GlobToken>),
    Regex(regex::bytes::Regex),
}

#[derive(Debug, Clone, PartialEq)]
enum GlobToken {
    Byte(u8),
    Any,
    Star,
    Class {
        negated: bool,
        ranges: Vec<(u8, u8)>,
    },
}

/// A set of positive and negative name patterns.
#[derive(Debug, Clone, Default)]
pub struct NameMatcher {
    positive: Vec<Pattern>,
    negative: Vec<Pattern>,
}

impl NameMatcher {
    /// An empty matcher (matches nothing).
    pub fn new() -> Self {
        Self::default()
    }

    /// A matcher for exactly one name.
    pub fn exact(name: PartName) -> Self {
        NameMatcher {
            positive: vec![Pattern::Literal(name.0.to_vec())],
            negative: Vec::new(),
        }
    }

    /// Builds a matcher from patterns in the given style.
    pub fn from_patterns<S: AsRef<str>>(patterns: &[S], style: MatchStyle) -> Result<Self> {
        let mut m = NameMatcher::new();
        for p in patterns {
            m.add(p.as_ref(), style)?;
        }
        Ok(m)
    }

    /// Adds one pattern; a leading `!` makes it negative.
    pub fn add(&mut self, pattern: &str, style: MatchStyle) -> Result<()> {
        let (negated, body) = match pattern.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, pattern),
        };
        let compiled = match style {
            MatchStyle::Literal => Pattern::Literal(body.as_bytes().to_vec()),
            MatchStyle::Glob => {
                Pattern::Glob(parse_glob(body).map_err(|message| EditError::BadPattern {
                    pattern: pattern.to_string(),
                    message,
                })?)
            }
            MatchStyle::Regex => Pattern::Regex(regex::bytes::Regex::new(body).map_err(|e| {
                EditError::BadPattern {
                    pattern: pattern.to_string(),
                    message: one_line_regex_error(&e),
                }
            })?),
        };
        if negated {
            self.negative.push(compiled);
        } else {
            self.positive.push(compiled);
        }
        Ok(())
    }

    /// Whether no pattern was given.
    pub fn is_empty(&self) -> bool {
        self.positive.is_empty() && self.negative.is_empty()
    }

    /// Whether `name` matches.
    pub fn matches(&self, name: &PartName) -> bool {
        self.matches_bytes(&name.0)
    }

    /// Whether any byte string matches (file names, for dxstrip's
    /// `--include`/`--exclude`).
    pub fn matches_bytes(&self, n: &[u8]) -> bool {
        self.positive.iter().any(|p| p.matches(n)) && !self.negative.iter().any(|p| p.matches(n))
    }
}

impl Pattern {
    fn matches(&self, name: &[u8]) -> bool {
        match self {
            Pattern::Literal(l) => l == name,
            Pattern::Glob(tokens) => glob_match(tokens, name),
            Pattern::Regex(r) => r.is_match(name),
        }
    }
}

fn parse_glob(p: &str) -> std::result::Result<Vec<GlobToken>, String> {
    let b = p.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'*' => out.push(GlobToken::Star),
            b'?' => out.push(GlobToken::Any),
            b'\\' => {
                i += 1;
                let c = *b.get(i).ok_or("trailing backslash")?;
                out.push(GlobToken::Byte(c));
            }
            b'[' => {
                let mut j = i + 1;
                let negated = matches!(b.get(j), Some(b'!') | Some(b'^'));
                if negated {
                    j += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let c = *b.get(j).ok_or("unterminated character class")?;
                    if c == b']' && !first {
                        break;
                    }
                    first = false;
                    if b.get(j + 1) == Some(&b'-') && b.get(j + 2).is_some_and(|&e| e != b']') {
                        let end = b[j + 2];
                        if end < c {
                            return Err(format!("invalid range {}-{}", c as char, end as char));
                        }
                        ranges.push((c, end));
                        j += 3;
                    } else {
                        ranges.push((c, c));
                        j += 1;
                    }
                }
                out.push(GlobToken::Class { negated, ranges });
                i = j;
            }
            c => out.push(GlobToken::Byte(c)),
        }
        i += 1;
    }
    Ok(out)
}

fn glob_match(tokens: &[GlobToken], name: &[u8]) -> bool {
    match tokens.split_first() {
        None => name.is_empty(),
        Some((GlobToken::Star, rest)) => (0..=name.len()).any(|k| glob_match(rest, &name[k..])),
        Some((t, rest)) => match name.split_first() {
            None => false,
            Some((&c, tail)) => {
                let ok = match t {
                    GlobToken::Byte(b) => *b == c,
                    GlobToken::Any => true,
                    GlobToken::Class { negated, ranges } => {
                        ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c)) != *negated
                    }
                    GlobToken::Star => unreachable!("handled above"),
                };
                ok && glob_match(rest, tail)
            }
        },
    }
}

/// A regex error in one line: the regex crate prints the pattern, a caret
/// line and `error: …` on four lines; this keeps the message and the caret's
/// position (`unclosed group (at character 1)`).
fn one_line_regex_error(e: &regex::Error) -> String {
    let text = e.to_string();
    let lines: Vec<&str> = text.lines().collect();
    let Some(message) = lines.iter().rev().find_map(|l| l.strip_prefix("error: ")) else {
        return lines.join(" ");
    };
    // The pattern and caret lines are indented by four spaces.
    let column = lines
        .iter()
        .find(|l| l.trim_start().starts_with('^'))
        .and_then(|l| l.find('^'))
        .and_then(|at| at.checked_sub(3));
    match column {
        Some(column) => format!("{message} (at character {column})"),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &[u8; 4]) -> PartName {
        PartName(*s)
    }

    #[test]
    fn glob_rules() {
        let cases: &[(&[&str], &[u8; 4], bool)] = &[
            (&["DXIL"], b"DXIL", true),
            (&["DXIL"], b"dxil", false),
            (&["*"], b"PRIV", true),
            (&["IL*"], b"ILDB", true),
            (&["IL*"], b"DXIL", false),
            (&["?SG1"], b"OSG1", true),
            (&["[IO]SG1"], b"PSG1", false),
            (&["[!IO]SG1"], b"PSG1", true),
            (&["[A-Z]SG1"], b"ISG1", true),
            (&["*", "!DXIL"], b"DXIL", false),
            (&["*", "!DXIL"], b"HASH", true),
            (&["!DXIL"], b"HASH", false),
            (&["\\*AB*"], b"*ABC", true),
        ];
        for (pats, name, want) in cases {
            let m = NameMatcher::from_patterns(pats, MatchStyle::Glob).unwrap();
            assert_eq!(m.matches(&n(name)), *want, "{pats:?} vs {:?}", n(name));
        }
    }

    #[test]
    fn regex_is_unanchored() {
        let m = NameMatcher::from_patterns(&["S.1"], MatchStyle::Regex).unwrap();
        assert!(m.matches(&n(b"ISG1")));
        assert!(!m.matches(&n(b"DXIL")));
        let m = NameMatcher::from_patterns(&["^IL"], MatchStyle::Regex).unwrap();
        assert!(m.matches(&n(b"ILDB")));
        assert!(!m.matches(&n(b"DXIL")));
        let e = NameMatcher::from_patterns(&["("], MatchStyle::Regex).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid pattern '(': unclosed group (at character 1)"
        );
        let e = NameMatcher::from_patterns(&["AB[z-a]"], MatchStyle::Regex).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid pattern 'AB[z-a]': invalid character class range, the start must be <= the end (at character 4)"
        );
    }

    #[test]
    fn literal_and_errors() {
        let m = NameMatcher::from_patterns(&["*"], MatchStyle::Literal).unwrap();
        assert!(!m.matches(&n(b"DXIL")));
        assert!(NameMatcher::from_patterns(&["[ab"], MatchStyle::Glob).is_err());
        assert!(NameMatcher::from_patterns(&["ab\\"], MatchStyle::Glob).is_err());
        assert!(NameMatcher::exact(PartName::DXIL).matches(&PartName::DXIL));
        assert!(NameMatcher::new().is_empty());
        // Non-UTF-8 names match byte-wise.
        let m = NameMatcher::from_patterns(&["?\u{0}*"], MatchStyle::Glob).unwrap();
        assert!(m.matches(&PartName([0xff, 0, 1, 2])));
    }
}
