//! The rules a record decoder checks in a part it still reads. Each decoder
//! declares its own kinds beside its reading code (an enum whose `Display`
//! is the sentence), so a new decoder adds its findings without touching
//! the shared [`FindingKind`](super::FindingKind); a finding carries one as
//! a [`DecoderRule`].

use std::any::Any;
use std::fmt;

/// A kind of rule a decoder found broken: the decoder's own enum, whose
/// `Display` is the sentence `dxinfo --verify` prints (without the part and
/// offset, which the finding adds). Every such finding is a warning about
/// the bytes at its offset.
pub trait Rule: fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The kind's name as spelled in the decoder's enum (`"NameUnterminated"`),
    /// for programs that do not see the Rust type (the Python package).
    fn name(&self) -> String {
        leading_name(&format!("{self:?}"))
    }
}

/// The identifier a `Debug` string starts with: the variant's name.
pub(crate) fn leading_name(debug: &str) -> String {
    let end = debug
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(debug.len());
    debug[..end].to_string()
}

/// What a stored rule can do beyond [`Rule`]: be cloned, compared and
/// looked at as its own type.
trait Stored: Rule {
    fn clone_stored(&self) -> Box<dyn Stored>;
    fn same(&self, other: &dyn Stored) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<T: Rule + Clone + PartialEq> Stored for T {
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

/// One decoder's broken rule, of the decoder's own type.
pub struct DecoderRule(Box<dyn Stored>);

impl DecoderRule {
    /// Carries `rule`.
    pub fn new<T: Rule + Clone + PartialEq>(rule: T) -> DecoderRule {
        DecoderRule(Box::new(rule))
    }

    /// The rule, when it is of the decoder type `T`.
    pub fn get<T: Rule>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    /// The kind's name (see [`Rule::name`]).
    pub fn name(&self) -> String {
        self.0.name()
    }
}

impl Clone for DecoderRule {
    fn clone(&self) -> DecoderRule {
        DecoderRule(self.0.clone_stored())
    }
}

impl PartialEq for DecoderRule {
    fn eq(&self, other: &DecoderRule) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl Eq for DecoderRule {}

impl fmt::Debug for DecoderRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for DecoderRule {
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

    impl Rule for One {}

    #[derive(Debug, Clone, PartialEq)]
    struct Other;

    impl fmt::Display for Other {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("empty")
        }
    }

    impl Rule for Other {}

    #[test]
    fn a_stored_rule_keeps_its_type_words_and_name() {
        let rule = DecoderRule::new(One::Short { len: 3 });
        assert_eq!(rule.to_string(), "only 3 bytes");
        assert_eq!(rule.name(), "Short");
        assert_eq!(format!("{rule:?}"), "Short { len: 3 }");
        assert_eq!(rule.get::<One>(), Some(&One::Short { len: 3 }));
        assert_eq!(rule.get::<Other>(), None);
        assert_eq!(rule.clone(), rule);
        assert_ne!(rule, DecoderRule::new(One::Short { len: 4 }));
        // Equal words of two decoders are two kinds.
        assert_ne!(DecoderRule::new(One::Empty), DecoderRule::new(Other));
        assert_eq!(DecoderRule::new(Other).name(), "Other");
    }
}
