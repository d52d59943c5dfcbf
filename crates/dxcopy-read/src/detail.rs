//! A value of a type the bottom layer does not know, carried by a type it
//! does: a decoder's own error or finding enum inside the shared
//! [`ReadErrorKind`](crate::ReadErrorKind) and
//! [`FindingKind`](crate::FindingKind). Each decoder declares its words
//! beside its reading code; the shared types keep them, compare them, clone
//! them and print them, and a caller who knows the decoder gets its enum
//! back with [`Detail::get`].

use std::any::Any;
use std::fmt;

/// What a type needs to be carried as a [`Detail`]: the sentence
/// (`Display`), a `Debug` form whose first word is the variant's name, and
/// value semantics.
pub trait Words: fmt::Debug + fmt::Display + Clone + PartialEq + Send + Sync + 'static {}

impl<T: fmt::Debug + fmt::Display + Clone + PartialEq + Send + Sync + 'static> Words for T {}

/// What a stored value can do: be printed, cloned, compared and looked at
/// as its own type.
trait Stored: fmt::Debug + fmt::Display + Send + Sync {
    fn clone_stored(&self) -> Box<dyn Stored>;
    fn same(&self, other: &dyn Stored) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<T: Words> Stored for T {
    fn clone_stored(&self) -> Box<dyn Stored> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn Stored) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One decoder's own value (an error's or a finding's details), of the
/// decoder's type.
pub struct Detail(Box<dyn Stored>);

impl Detail {
    /// Carries `value`.
    pub fn new<T: Words>(value: T) -> Detail {
        Detail(Box::new(value))
    }

    /// The value, when it is of the decoder type `T`.
    pub fn get<T: Words>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    /// The name of the value's variant: the identifier its `Debug` form
    /// starts with (`"NameUnterminated"`).
    pub fn name(&self) -> String {
        leading_name(&format!("{:?}", self.0))
    }
}

/// The identifier a `Debug` string starts with: the variant's name.
pub(crate) fn leading_name(debug: &str) -> String {
    let end = debug
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(debug.len());
    debug[..end].to_string()
}

impl Clone for Detail {
    fn clone(&self) -> Detail {
        Detail(self.0.clone_stored())
    }
}

impl PartialEq for Detail {
    fn eq(&self, other: &Detail) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl Eq for Detail {}

impl fmt::Debug for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    enum One {
        Short { len: u32 },
        Empty,
    }

    impl fmt::Display for One {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                One::Short { len } => write!(f, "only {len} bytes"),
                One::Empty => f.write_str("empty"),
            }
        }
    }

    #[derive(Debug, Clone, PartialEq)]
    struct Other;

    impl fmt::Display for Other {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("empty")
        }
    }

    #[test]
    fn a_detail_keeps_its_type_words_and_name() {
        let detail = Detail::new(One::Short { len: 3 });
        assert_eq!(detail.to_string(), "only 3 bytes");
        assert_eq!(detail.name(), "Short");
        assert_eq!(format!("{detail:?}"), "Short { len: 3 }");
        assert_eq!(detail.get::<One>(), Some(&One::Short { len: 3 }));
        assert_eq!(detail.get::<Other>(), None);
        assert_eq!(detail.clone(), detail);
        assert_ne!(detail, Detail::new(One::Short { len: 4 }));
        // Equal words of two decoders are two details.
        assert_eq!(Detail::new(One::Empty).to_string(), "empty");
        assert_ne!(Detail::new(One::Empty), Detail::new(Other));
        assert_eq!(Detail::new(Other).name(), "Other");
    }
}
