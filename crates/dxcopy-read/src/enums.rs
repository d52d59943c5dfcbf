//! Macros for the numeric enumerations and flag words found inside parts.
//!
//! Files carry raw integers; a value the specification does not name must
//! still decode (and re-encode) unchanged, so every enumeration generated here
//! is "open": it has one variant per named value plus `Unknown(raw)`. Flag
//! words keep their raw bits and list the names of the bits that are set.
//! With the `serde` feature, an open enumeration serializes as its name (or
//! the bare number when unnamed) and a flag word as `{ value, names, unknown_bits }`.

/// Defines an open enumeration over an integer type.
///
/// ```text
/// open_enum! {
///     /// Doc.
///     pub enum Visibility: u32 {
///         /// Doc.
///         All = 0 => "All",
///     }
/// }
/// ```
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident : $repr:ty {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal => $text:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A value with no name in the specification (kept as read).
            Unknown($repr),
        }

        impl $name {
            /// Every named value with its name, in specification order.
            pub const KNOWN: &'static [($repr, &'static str)] = &[ $( ($value, $text), )* ];

            /// The enumeration value for a raw integer (`Unknown` when unnamed).
            pub fn from_raw(raw: $repr) -> Self {
                #[allow(unreachable_patterns)]
                match raw {
                    $( $value => $name::$variant, )*
                    other => $name::Unknown(other),
                }
            }

            /// The raw integer as stored in the file.
            pub fn raw(self) -> $repr {
                match self {
                    $( $name::$variant => $value, )*
                    $name::Unknown(raw) => raw,
                }
            }

            /// The specification's name of the value, or `None` when it has none.
            pub fn known_name(self) -> Option<&'static str> {
                match self {
                    $( $name::$variant => Some($text), )*
                    $name::Unknown(_) => None,
                }
            }

            /// The specification's name of the value (`"Unknown"` when it has none;
            /// use [`Self::raw`] to show the number).
            pub fn name(self) -> &'static str {
                self.known_name().unwrap_or("Unknown")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.known_name() {
                    Some(text) => f.write_str(text),
                    None => write!(f, "Unknown({})", self.raw()),
                }
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self.known_name() {
                    Some(text) => serializer.serialize_str(text),
                    None => serde::Serialize::serialize(&self.raw(), serializer),
                }
            }
        }
    };
}
pub(crate) use open_enum;

/// Defines a flag word: a newtype over the raw integer with the named bits.
macro_rules! flag_set {
    (
        $(#[$meta:meta])*
        pub struct $name:ident : $repr:ty {
            $( $(#[$fmeta:meta])* $flag:ident = $value:literal => $text:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $name(pub $repr);

        impl $name {
            $( $(#[$fmeta])* pub const $flag: $repr = $value; )*

            /// Every named bit with its name, in specification order.
            pub const KNOWN: &'static [($repr, &'static str)] = &[ $( ($value, $text), )* ];

            /// The raw flag word.
            pub fn bits(self) -> $repr {
                self.0
            }

            /// Whether every bit of `flag` is set (a zero `flag` is never "set").
            pub fn contains(self, flag: $repr) -> bool {
                flag != 0 && self.0 & flag == flag
            }

            /// Names of the set bits, in specification order.
            pub fn names(self) -> Vec<&'static str> {
                Self::KNOWN
                    .iter()
                    .filter(|(bit, _)| self.contains(*bit))
                    .map(|(_, text)| *text)
                    .collect()
            }

            /// Set bits that have no name in the specification.
            pub fn unknown_bits(self) -> $repr {
                let known = Self::KNOWN.iter().fold(0, |acc, (bit, _)| acc | *bit);
                self.0 & !known
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let mut first = true;
                for text in self.names() {
                    if !first {
                        f.write_str(" | ")?;
                    }
                    f.write_str(text)?;
                    first = false;
                }
                let unknown = self.unknown_bits();
                if unknown != 0 {
                    if !first {
                        f.write_str(" | ")?;
                    }
                    write!(f, "{unknown:#x}")?;
                    first = false;
                }
                if first {
                    f.write_str("0")?;
                }
                Ok(())
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let mut s = serializer.serialize_struct(stringify!($name), 3)?;
                s.serialize_field("value", &self.0)?;
                s.serialize_field("names", &self.names())?;
                s.serialize_field("unknown_bits", &self.unknown_bits())?;
                s.end()
            }
        }
    };
}
pub(crate) use flag_set;

/// Serializes borrowed bytes as a string (lossy UTF-8), for names read from files.
#[cfg(feature = "serde")]
pub(crate) fn serialize_lossy<S: serde::Serializer>(
    bytes: &[u8],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&String::from_utf8_lossy(bytes))
}

/// Serializes optional borrowed bytes as an optional string (lossy UTF-8).
#[cfg(feature = "serde")]
pub(crate) fn serialize_lossy_opt<S: serde::Serializer>(
    bytes: &Option<&[u8]>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match bytes {
        Some(b) => serializer.serialize_some(&String::from_utf8_lossy(b)),
        None => serializer.serialize_none(),
    }
}

/// Serializes an optional shader kind by its name.
#[cfg(feature = "serde")]
pub(crate) fn serialize_shader_kind_opt<S: serde::Serializer>(
    kind: &Option<crate::program::ShaderKind>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match kind {
        Some(k) => serializer.serialize_some(&k.name()),
        None => serializer.serialize_none(),
    }
}
