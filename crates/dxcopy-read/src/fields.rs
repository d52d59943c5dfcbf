//! Building blocks shared by the part decoders: non-fatal issues, numeric
//! codes with names, flag sets, and the serde helpers that turn raw bytes into
//! readable JSON values.

use std::fmt;

/// A non-fatal problem found while decoding a part: the part decodes, but a
/// field breaks its format's rules (a reserved field is set, two sizes
/// disagree). Fatal problems are [`ReadError`](crate::ReadError)s instead.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Issue {
    /// Absolute file offset of the offending field.
    pub offset: u64,
    /// What is wrong, as a sentence fragment.
    pub message: String,
}

impl Issue {
    /// An issue at absolute `offset`.
    pub fn new(offset: u64, message: impl Into<String>) -> Issue {
        Issue {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at offset {:#x})", self.message, self.offset)
    }
}

/// Declares a newtype over a raw integer code whose known values have names.
/// `Display` prints the name, or `Unknown(N)` for other values; with the
/// `serde` feature it serializes as that same string.
macro_rules! named_code {
    ($(#[$meta:meta])* $name:ident : $repr:ty { $($value:literal => $text:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(pub $repr);

        impl $name {
            /// The name of a known value.
            pub fn name(self) -> Option<&'static str> {
                match self.0 {
                    $($value => Some($text),)*
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "Unknown({})", self.0),
                }
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
    };
}
pub(crate) use named_code;

/// A raw bit set plus the names of its known bits, for flags fields.
///
/// `Display` joins the names with ` | ` (unknown bits as one hex value, `0`
/// when empty); with `serde` it serializes as `{"value": N, "names": [...]}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flags {
    /// The raw value.
    pub value: u64,
    table: &'static [(u64, &'static str)],
}

impl Flags {
    /// `value` interpreted with `table` (bit mask, name).
    pub fn new(value: u64, table: &'static [(u64, &'static str)]) -> Flags {
        Flags { value, table }
    }

    /// Names of the set known bits, then the unknown remainder as hex.
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = self.value;
        for &(mask, name) in self.table {
            if mask != 0 && rest & mask == mask {
                out.push(name.to_string());
                rest &= !mask;
            }
        }
        if rest != 0 {
            out.push(format!("{rest:#x}"));
        }
        out
    }

    /// Bits set that the table does not name.
    pub fn unknown_bits(&self) -> u64 {
        self.table
            .iter()
            .fold(self.value, |rest, &(mask, _)| rest & !mask)
    }
}

impl fmt::Display for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.names();
        if names.is_empty() {
            f.write_str("0")
        } else {
            f.write_str(&names.join(" | "))
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Flags {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Flags", 2)?;
        st.serialize_field("value", &self.value)?;
        st.serialize_field("names", &self.names())?;
        st.end()
    }
}

/// Bytes as text: UTF-8 where valid, U+FFFD for invalid sequences.
pub fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
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

    /// Bytes as a (lossy) UTF-8 string.
    pub fn text<S: Serializer>(bytes: &&[u8], s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&super::lossy(bytes))
    }

    /// A byte slice (or anything that derefs to one, like `Cow<[u8]>`) as a
    /// (lossy) UTF-8 string.
    pub fn text_slice<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&super::lossy(bytes))
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

    named_code!(
        /// Test code.
        Colour: u16 { 0 => "Red", 7 => "Blue" }
    );

    #[test]
    fn codes_and_flags() {
        assert_eq!(Colour(7).to_string(), "Blue");
        assert_eq!(Colour(3).to_string(), "Unknown(3)");
        assert_eq!(Colour(0).name(), Some("Red"));
        const TABLE: &[(u64, &str)] = &[(1, "A"), (4, "C")];
        let f = Flags::new(0x15, TABLE);
        assert_eq!(f.names(), vec!["A", "C", "0x10"]);
        assert_eq!(f.unknown_bits(), 0x10);
        assert_eq!(f.to_string(), "A | C | 0x10");
        assert_eq!(Flags::new(0, TABLE).to_string(), "0");
        assert_eq!(hex(&[0, 0xab]), "00ab");
        assert_eq!(align4(5), 8);
        assert_eq!(align4(u64::MAX), !3);
        assert_eq!(Issue::new(0x10, "bad").to_string(), "bad (at offset 0x10)");
    }
}
