//! On-disk records, each declared once: its name, its fields with their
//! types and offsets, and the version in which a field first appears. The
//! `record!` macro turns one declaration into the struct, a bounds-checked
//! reader over a [`Cursor`], a writer and the size per version, so a part's
//! decoder and its encoder (and the test builders) cannot disagree on a
//! layout. gimli-rs/object declares its records as `#[repr(C)]` structs of
//! endian-aware fields for the same reason; here the fields are plain
//! integers read one by one, so no `unsafe` and no alignment rules.
//!
//! A field is read with the text that names it in errors, so a record read
//! past the end of its part reports the same `Truncated { what, .. }` at the
//! same offset as reading that field by hand would.

use crate::cursor::Cursor;
use crate::error::Result;

/// A value stored at a fixed offset inside a record, little-endian.
pub trait Field: Sized + Copy {
    /// Width in bytes.
    const SIZE: u64;
    /// The value at `offset` in `c`; a short read is a `Truncated` error naming `what`.
    fn read_at(c: &Cursor<'_>, offset: u64, what: &'static str) -> Result<Self>;
    /// Appends the stored bytes.
    fn write_to(&self, out: &mut Vec<u8>);
}

macro_rules! int_field {
    ($($ty:ty => $read:ident),* $(,)?) => {$(
        impl Field for $ty {
            const SIZE: u64 = std::mem::size_of::<$ty>() as u64;
            fn read_at(c: &Cursor<'_>, offset: u64, what: &'static str) -> Result<Self> {
                c.$read(offset, what)
            }
            fn write_to(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

int_field!(u8 => u8, u16 => u16, u32 => u32, i32 => i32, u64 => u64, f32 => f32);

impl<const N: usize> Field for [u8; N] {
    const SIZE: u64 = N as u64;
    fn read_at(c: &Cursor<'_>, offset: u64, what: &'static str) -> Result<Self> {
        c.array(offset, what)
    }
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
}

/// Implements [`Field`] for `$name`, stored as the integer `$repr`:
/// `$from` makes the value of a read integer, `$to` the integer to write.
macro_rules! field_as_integer {
    ($name:ty, $repr:ty, $from:expr, $to:expr) => {
        impl $crate::record::Field for $name {
            const SIZE: u64 = <$repr as $crate::record::Field>::SIZE;
            fn read_at(
                c: &$crate::cursor::Cursor<'_>,
                offset: u64,
                what: &'static str,
            ) -> $crate::error::Result<Self> {
                <$repr as $crate::record::Field>::read_at(c, offset, what).map($from)
            }
            fn write_to(&self, out: &mut Vec<u8>) {
                let to: fn(&$name) -> $repr = $to;
                $crate::record::Field::write_to(&to(self), out)
            }
        }
    };
}
pub(crate) use field_as_integer;

/// `N` reserved bytes: not read (so they never fail a read, as a decoder
/// that skips them does not), written as zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reserved<const N: usize>;

impl<const N: usize> Field for Reserved<N> {
    const SIZE: u64 = N as u64;
    fn read_at(_: &Cursor<'_>, _: u64, _: &'static str) -> Result<Self> {
        Ok(Reserved)
    }
    fn write_to(&self, out: &mut Vec<u8>) {
        out.resize(out.len() + N, 0);
    }
}

/// The version from which a field is stored (0: in every version).
macro_rules! __record_since {
    () => {
        0u8
    };
    ($since:literal) => {
        $since
    };
}

/// The Rust type of a field: `Option<T>` for a field added by a later version.
macro_rules! __record_type {
    ($ty:ty) => { $ty };
    ($ty:ty, $since:literal) => { Option<$ty> };
}

/// The error text of a field: its own, else the record's.
macro_rules! __record_what {
    ($record:literal) => {
        $record
    };
    ($record:literal $field:literal) => {
        $field
    };
}

/// Reads one field (an `Option` for a versioned one, `None` when `version`
/// predates it).
macro_rules! __record_read {
    ($c:ident, $at:expr, $version:ident, $ty:ty, $what:expr) => {
        <$ty as $crate::record::Field>::read_at($c, $at, $what)?
    };
    ($c:ident, $at:expr, $version:ident, $ty:ty, $what:expr, $since:literal) => {
        if $version >= $since {
            Some(<$ty as $crate::record::Field>::read_at($c, $at, $what)?)
        } else {
            None
        }
    };
}

/// Writes one field (a versioned one only when present).
macro_rules! __record_write {
    ($value:expr, $out:ident) => {
        $crate::record::Field::write_to($value, $out)
    };
    ($value:expr, $out:ident, $since:literal) => {
        if let Some(value) = $value {
            $crate::record::Field::write_to(value, $out)
        }
    };
}

/// Declares an on-disk record.
///
/// ```text
/// record! {
///     /// doc
///     pub struct Name: "error text of the record" {
///         /// doc
///         OFFSET field: type [=> "error text of the field"] [, since VERSION];
///         ...
///     }
/// }
/// ```
///
/// Offsets are checked at compile time to be contiguous in declaration
/// order. Fields with `since` are `Option`s, must follow every field without
/// one, and are read only when the version asked for is at least theirs. The
/// struct gets `SIZE` (the latest version's size), `size_for(version)`,
/// `read(c, offset)` (every field), `read_version(c, offset, version)`,
/// `version()` (the newest version all its present fields reach),
/// `write_to(&self, out)` and `to_bytes()`, and implements [`Field`], so a
/// record can be a field of a larger one.
macro_rules! record {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident : $what:literal {
            $(
                $(#[$fmeta:meta])*
                $off:literal $field:ident : $ty:ty $(=> $fwhat:literal)? $(, since $since:literal)?;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        $vis struct $name {
            $(
                $(#[$fmeta])*
                pub $field: $crate::record::__record_type!($ty $(, $since)?),
            )*
        }

        // The declared offsets are the running sum of the field sizes.
        const _: () = {
            let mut end: u64 = 0;
            let mut since: u8 = 0;
            $(
                assert!($off == end, concat!(stringify!($name), ".", stringify!($field), ": offset is not the end of the field before it"));
                assert!($crate::record::__record_since!($($since)?) >= since, concat!(stringify!($name), ".", stringify!($field), ": a field of an earlier version follows a later one"));
                since = $crate::record::__record_since!($($since)?);
                end += <$ty as $crate::record::Field>::SIZE;
            )*
            let _ = since;
            let _ = end;
        };

        #[allow(dead_code)]
        impl $name {
            /// Error text naming the record.
            pub const WHAT: &'static str = $what;

            /// Size in bytes of the newest version.
            pub const SIZE: u64 = 0 $(+ <$ty as $crate::record::Field>::SIZE)*;

            /// Size in bytes of version `version`.
            #[allow(unused_comparisons)]
            pub const fn size_for(version: u8) -> u64 {
                let mut size = 0;
                $(
                    if version >= $crate::record::__record_since!($($since)?) {
                        size = $off + <$ty as $crate::record::Field>::SIZE;
                    }
                )*
                size
            }

            /// Reads the newest version at `offset` in `c`.
            pub fn read(c: &$crate::cursor::Cursor<'_>, offset: u64) -> $crate::error::Result<Self> {
                Self::read_version(c, offset, u8::MAX)
            }

            /// Reads version `version` at `offset` in `c`, field by field
            /// in declaration order; fields of later versions are `None`.
            pub fn read_version(
                c: &$crate::cursor::Cursor<'_>,
                offset: u64,
                version: u8,
            ) -> $crate::error::Result<Self> {
                Self::read_version_as(c, offset, version, None)
            }

            /// Reads the newest version at `offset` in `c`; with `what`,
            /// every field's errors name `what` instead of the field (for
            /// a view that names the record as a whole).
            pub fn read_as(
                c: &$crate::cursor::Cursor<'_>,
                offset: u64,
                what: Option<&'static str>,
            ) -> $crate::error::Result<Self> {
                Self::read_version_as(c, offset, u8::MAX, what)
            }

            /// [`Self::read_version`], with errors naming `what` when given.
            pub fn read_version_as(
                c: &$crate::cursor::Cursor<'_>,
                offset: u64,
                version: u8,
                what: Option<&'static str>,
            ) -> $crate::error::Result<Self> {
                let _ = (version, what);
                Ok($name {
                    $(
                        $field: $crate::record::__record_read!(
                            c,
                            offset + $off,
                            version,
                            $ty,
                            what.unwrap_or($crate::record::__record_what!($what $($fwhat)?))
                            $(, $since)?
                        ),
                    )*
                })
            }

            /// Appends the stored bytes: every field that is present.
            pub fn write_to(&self, out: &mut Vec<u8>) {
                $( $crate::record::__record_write!(&self.$field, out $(, $since)?); )*
            }

            /// The stored bytes.
            pub fn to_bytes(self) -> Vec<u8> {
                let mut out = Vec::new();
                self.write_to(&mut out);
                out
            }
        }

        impl $crate::record::Field for $name {
            const SIZE: u64 = $name::SIZE;
            fn read_at(
                c: &$crate::cursor::Cursor<'_>,
                offset: u64,
                _what: &'static str,
            ) -> $crate::error::Result<Self> {
                $name::read(c, offset)
            }
            fn write_to(&self, out: &mut Vec<u8>) {
                $name::write_to(self, out)
            }
        }
    };
}

pub(crate) use {
    __record_read, __record_since, __record_type, __record_what, __record_write, record,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    record! {
        /// A record that grows by version, for the macro's own tests.
        struct Grows: "grows" {
            0 first: u32;
            4 second: u16 => "grows second";
            6 third: [u8; 2];
            8 added: u32, since 1;
            12 later: u8, since 2;
        }
    }

    #[test]
    fn sizes_per_version() {
        assert_eq!(Grows::SIZE, 13);
        assert_eq!([0, 1, 2, 3].map(Grows::size_for), [8, 12, 13, 13],);
    }

    #[test]
    fn write_then_read_every_version() {
        let full = Grows {
            first: 0x0403_0201,
            second: 0x0605,
            third: [7, 8],
            added: Some(0x0c0b_0a09),
            later: Some(13),
        };
        for version in 0..=2u8 {
            let mut value = full;
            if version < 2 {
                value.later = None;
            }
            if version < 1 {
                value.added = None;
            }
            let bytes = value.to_bytes();
            assert_eq!(bytes.len() as u64, Grows::size_for(version));
            assert_eq!(bytes[..8], [1, 2, 3, 4, 5, 6, 7, 8]);
            let c = Cursor::new(&bytes, 0);
            assert_eq!(Grows::read_version(&c, 0, version).unwrap(), value);
        }
    }

    #[test]
    fn short_read_names_the_field_and_its_offset() {
        let bytes = [0u8; 5];
        let c = Cursor::new(&bytes, 0x40);
        let err = Grows::read(&c, 0).unwrap_err();
        assert_eq!(err.offset, 0x44);
        assert!(matches!(
            err.kind,
            ReadErrorKind::Truncated {
                what: "grows second",
                needed: 2,
                available: 1,
                ..
            }
        ));
        let err = Grows::read(&Cursor::new(&[0u8; 10], 0), 0).unwrap_err();
        assert!(matches!(
            err.kind,
            ReadErrorKind::Truncated { what: "grows", .. }
        ));
    }
}
