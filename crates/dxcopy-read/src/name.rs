//! Four-character part names.

use std::fmt;

/// A part's four-byte name (FourCC). Any byte value is possible in a file;
/// `Display` escapes non-printable bytes as `\xNN`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartName(pub [u8; 4]);

/// Generates a `PartName` constant for each row of the part table
/// ([`crate::part_table::rows`]).
macro_rules! define_part_names {
    (
        families { $($families:tt)* }
        parts { $( $name:ident : $family:tt, $strip:tt, $llvm:ident, $doc:literal; )* }
    ) => {
        #[allow(non_upper_case_globals)] // `Aon9`
        impl PartName {
            $(
                #[doc = concat!("`", stringify!($name), "`: ", $doc, ".")]
                pub const $name: PartName = PartName(fourcc(stringify!($name)));
            )*
        }
    };
}

crate::part_table::rows::for_each_part!(define_part_names);

/// The four bytes of a part name written as an identifier.
const fn fourcc(name: &str) -> [u8; 4] {
    let b = name.as_bytes();
    assert!(b.len() == 4, "a part name has four bytes");
    [b[0], b[1], b[2], b[3]]
}

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

    /// Whether this is a part name documented by DXC, FXC or LLVM: a row of
    /// [`PART_TABLE`](crate::part_table::PART_TABLE).
    pub fn is_known(&self) -> bool {
        crate::part_table::part_info(*self).is_some()
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
