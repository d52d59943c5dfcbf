//! Building blocks shared by the part decoders: the byte helpers (lossy
//! text, hex, 4-byte alignment) and the serde helpers that turn raw bytes
//! into readable JSON values (rule violations are
//! [`Finding`](crate::Finding)s). Named codes and flag words are made by
//! the macros of the `enums` module.

/// Bytes as text: UTF-8 where valid, U+FFFD for invalid sequences.
pub fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

/// `value` rounded up to a multiple of 4 (saturating).
pub fn align4(value: u64) -> u64 {
    value.saturating_add(3) & !3
}

/// serde helpers for `#[serde(serialize_with = "...")]`.
#[cfg(feature = "serde")]
pub mod ser {
    use serde::Serializer;

    /// Bytes (`&[u8]`, or anything that derefs to them, like `Cow<[u8]>`) as
    /// a (lossy) UTF-8 string.
    pub fn text<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&super::lossy(bytes))
    }

    /// A list of byte strings as a list of (lossy) UTF-8 strings.
    pub fn text_list<S: Serializer>(list: &[&[u8]], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(list.iter().map(|b| super::lossy(b)))
    }

    /// Optional bytes as a (lossy) UTF-8 string or null.
    pub fn opt_text<S: Serializer>(bytes: &Option<&[u8]>, s: S) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(b) => s.collect_str(&super::lossy(b)),
            None => s.serialize_none(),
        }
    }

    /// Bytes as lower-case hex.
    pub fn hex<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::hex(bytes))
    }

    /// Optional bytes as lower-case hex or null.
    pub fn opt_hex<S: Serializer>(bytes: &Option<&[u8]>, s: S) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(b) => s.serialize_str(&super::hex(b)),
            None => s.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_helpers() {
        assert_eq!(hex(&[0, 0xab]), "00ab");
        assert_eq!(align4(5), 8);
        assert_eq!(align4(u64::MAX), !3);
    }
}
