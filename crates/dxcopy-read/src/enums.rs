//! The two macros for the named numbers found inside parts: [`open_enum!`]
//! for numeric codes and [`flag_set!`] for flag words. Every decoder uses
//! them, so every code and flag word prints and serializes the same way.
//!
//! Files carry raw integers; a value the specification does not name must
//! still decode (and re-encode) unchanged, so every enumeration generated here
//! is "open": it has one variant per named value plus `Unknown(raw)`. Flag
//! words keep their raw bits and list the names of the bits that are set.
//!
//! Text (`Display`): a code prints its name, or `Unknown(N)` when unnamed; a
//! flag word prints its names joined with ` | `, the bits without a name as
//! one hex number after them, and `0` when no bit is set.
//!
//! JSON (`serde` feature, docs/dxinfo-json.md): a code serializes as that same
//! string; a flag word as `{"value": N, "names": [...]}`, the bits without a
//! name being one hex string at the end of `names`.

/// Defines an open enumeration over an integer type.
///
/// Each variant's documentation starts with its value and name (`` `0`
/// (All) ``); a doc comment on a row adds to that, so rows need one only to
/// say more than the value.
///
/// ```text
/// open_enum! {
///     /// Doc.
///     pub enum Visibility: u32 {
///         All = 0 => "All",
///         /// Only the vertex stage.
///         Vertex = 1 => "Vertex",
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
            $(
                #[doc = concat!("`", stringify!($value), "` (", $text, ")")]
                $(#[$vmeta])*
                $variant,
            )*
            /// A value with no name in the specification (kept as read).
            Unknown($repr),
        }

        $crate::record::field_as_integer!($name, $repr, $name::from_raw, |v| v.raw());

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
                serializer.collect_str(self)
            }
        }
    };
}
pub(crate) use open_enum;

/// Defines a flag word: a newtype over the raw integer with the named masks.
///
/// Masks are matched in table order, and the bits of a matched mask are not
/// matched again, so a table may name a combination before its single bits
/// (`OptimizationLevel2 = 0xc000` before `OptimizationLevel0 = 0x4000`).
///
/// Each mask's documentation starts with its value and name, as in
/// [`open_enum!`].
///
/// ```text
/// flag_set! {
///     /// Doc.
///     pub struct VersionFlags: u32 {
///         DEBUG = 0x1 => "Debug",
///     }
/// }
/// ```
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

        $crate::record::field_as_integer!($name, $repr, $name, |v| v.0);

        impl $name {
            $(
                #[doc = concat!("`", stringify!($value), "` (", $text, ")")]
                $(#[$fmeta])*
                pub const $flag: $repr = $value;
            )*

            /// Every named mask with its name, in specification order.
            pub const KNOWN: &'static [($repr, &'static str)] = &[ $( ($value, $text), )* ];

            /// The raw flag word.
            pub fn bits(self) -> $repr {
                self.0
            }

            /// Whether every bit of `flag` is set (a zero `flag` is never "set").
            pub fn contains(self, flag: $repr) -> bool {
                flag != 0 && self.0 & flag == flag
            }

            /// Names of the matched masks, in specification order, and the
            /// bits left over (those no mask names).
            fn split(self) -> (Vec<&'static str>, $repr) {
                let mut rest = self.0;
                let mut names = Vec::new();
                for &(mask, text) in Self::KNOWN {
                    if mask != 0 && rest & mask == mask {
                        names.push(text);
                        rest &= !mask;
                    }
                }
                (names, rest)
            }

            /// Names of the set masks, in specification order (bits without a
            /// name are left out: see [`Self::unknown_bits`]).
            pub fn names(self) -> Vec<&'static str> {
                self.split().0
            }

            /// Set bits that no named mask covers.
            pub fn unknown_bits(self) -> $repr {
                self.split().1
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                $crate::enums::write_flags(f, &self.names(), u64::from(self.unknown_bits()))
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                $crate::enums::serialize_flags(
                    serializer,
                    u64::from(self.0),
                    &self.names(),
                    u64::from(self.unknown_bits()),
                )
            }
        }
    };
}
pub(crate) use flag_set;

/// `Display` of a flag word: `names` joined with ` | `, then `unknown` in hex
/// when non-zero; `0` when both are empty.
pub(crate) fn write_flags(
    f: &mut std::fmt::Formatter<'_>,
    names: &[&str],
    unknown: u64,
) -> std::fmt::Result {
    let mut first = true;
    for text in names {
        if !first {
            f.write_str(" | ")?;
        }
        f.write_str(text)?;
        first = false;
    }
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

/// JSON of a flag word: `{"value": N, "names": [...]}`, `unknown` (when
/// non-zero) as one hex string at the end of `names`.
#[cfg(feature = "serde")]
pub(crate) fn serialize_flags<S: serde::Serializer>(
    serializer: S,
    value: u64,
    names: &[&str],
    unknown: u64,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut all: Vec<std::borrow::Cow<'_, str>> = names.iter().map(|n| (*n).into()).collect();
    if unknown != 0 {
        all.push(format!("{unknown:#x}").into());
    }
    let mut s = serializer.serialize_struct("Flags", 2)?;
    s.serialize_field("value", &value)?;
    s.serialize_field("names", &all)?;
    s.end()
}

#[cfg(test)]
mod tests {
    open_enum! {
        /// A test code.
        pub enum Colour: u16 {
            Red = 0 => "Red",
            Blue = 7 => "Blue",
            White = 0xffff => "White",
        }
    }

    flag_set! {
        /// A test flag word; `BOTH` names a combination before its single bits.
        pub struct Bits: u32 {
            A = 0x1 => "A",
            BOTH = 0xc => "Both",
            C = 0x4 => "C",
            D = 0x8 => "D",
        }
    }

    #[test]
    fn open_enum_keeps_every_value() {
        assert_eq!(Colour::from_raw(7), Colour::Blue);
        assert_eq!(Colour::from_raw(0xffff), Colour::White);
        assert_eq!(Colour::from_raw(3), Colour::Unknown(3));
        for raw in [0u16, 3, 7, 8, 0xfffe, 0xffff] {
            assert_eq!(Colour::from_raw(raw).raw(), raw);
        }
        assert_eq!(Colour::KNOWN, &[(0, "Red"), (7, "Blue"), (0xffff, "White")]);
        assert_eq!(Colour::Blue.known_name(), Some("Blue"));
        assert_eq!(Colour::Unknown(3).known_name(), None);
        assert_eq!(Colour::Red.to_string(), "Red");
        assert_eq!(Colour::from_raw(3).to_string(), "Unknown(3)");
    }

    #[test]
    fn flag_set_names_masks_in_order_and_keeps_unknown_bits() {
        let f = Bits(0x35);
        assert_eq!(f.bits(), 0x35);
        assert_eq!(f.names(), vec!["A", "C"]);
        assert_eq!(f.unknown_bits(), 0x30);
        assert_eq!(f.to_string(), "A | C | 0x30");
        // A combination takes its bits: they are not named again one by one.
        assert_eq!(Bits(0xd).names(), vec!["A", "Both"]);
        assert_eq!(Bits(0xd).unknown_bits(), 0);
        assert_eq!(Bits(0x8).to_string(), "D");
        assert_eq!(Bits(0x40).to_string(), "0x40");
        assert_eq!(Bits(0).to_string(), "0");
        assert_eq!(Bits::default(), Bits(0));
        assert!(Bits(0xc).contains(Bits::C));
        assert!(!Bits(0x4).contains(Bits::BOTH));
        assert!(!Bits(0xff).contains(0));
        assert!(Bits(0x9).contains(Bits::A | Bits::D));
        assert_eq!(Bits::KNOWN[1], (0xc, "Both"));
    }

    #[cfg(feature = "serde")]
    fn json<T: serde::Serialize>(value: &T) -> String {
        serde_json::to_string(value).unwrap()
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_shapes() {
        assert_eq!(json(&Colour::Blue), r#""Blue""#);
        assert_eq!(json(&Colour::from_raw(3)), r#""Unknown(3)""#);
        assert_eq!(
            json(&Bits(0x35)),
            r#"{"value":53,"names":["A","C","0x30"]}"#
        );
        assert_eq!(json(&Bits(0xd)), r#"{"value":13,"names":["A","Both"]}"#);
        assert_eq!(json(&Bits(0)), r#"{"value":0,"names":[]}"#);
    }
}
