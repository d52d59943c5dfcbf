//! Four-character part names. The constants of the known names
//! (`PartName::DXIL`, …) and [`PartName::is_known`] come from the part table
//! (`part_table`), which sits beside this module and reads it.

use std::fmt;

/// A part's four-byte name (FourCC). Any byte value is possible in a file;
/// `Display` escapes non-printable bytes as `\xNN`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartName(pub [u8; 4]);

impl PartName {
    /// Builds a name from a string of exactly four bytes.
    pub fn from_str_exact(s: &str) -> Option<PartName> {
        <[u8; 4]>::try_from(s.as_bytes()).ok().map(PartName)
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8; 4] {
        &self.0
    }

    /// The name as a string when it is valid UTF-8 (lossy otherwise) — used for matching.
    pub fn to_lossy_string(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }
}

/// Escapes bytes for messages: printable ASCII as is, everything else as `\xNN`.
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'\\' && b != b'\'' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

impl fmt::Display for PartName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape_bytes(&self.0))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for PartName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Debug for PartName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PartName('{self}')")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_escapes_non_printable() {
        assert_eq!(PartName(*b"DXIL").to_string(), "DXIL");
        assert_eq!(PartName([0xff, 0, b'a', b' ']).to_string(), "\\xff\\x00a ");
        assert_eq!(PartName(*b"a'b\\").to_string(), "a\\x27b\\x5c");
    }

    #[test]
    fn known_names() {
        assert!(PartName::DXIL.is_known());
        assert!(PartName(*b"Aon9").is_known());
        assert!(!PartName(*b"FKE0").is_known());
        assert_eq!(PartName::from_str_exact("PRIV"), Some(PartName::PRIV));
        assert_eq!(PartName::from_str_exact("PRI"), None);
    }
}
