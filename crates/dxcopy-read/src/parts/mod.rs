//! The part decoders: one module per part family, each returning a plain
//! struct, and [`decode`], the dispatch ([`decode_part`](decode::decode_part))
//! generated from the part table ([`crate::part_table`]).

pub mod aon9;
pub mod debug_name;
pub mod decode;
pub mod dxbc;
pub mod finding;
pub mod hash;
pub mod private;
pub mod program;
pub mod psv0;
pub mod rdat;
pub mod rdef;
pub mod rts0;
pub mod rts0_coverage;
pub mod sfi0;
pub mod signature;
pub mod source_info;
pub mod spdb;
pub mod stat;
pub mod version;

/// Which reader's rules a part decoder follows. Each decoder that has an LLVM
/// view is one function taking a `Mode`: both views read every field and
/// record in the same place, and the mode decides only what the LLVM view does
/// differently (each decoder's `parse_llvm_compat` says what).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// This project's reading (dxinfo, dxcopy): every bound checked; a rule
    /// break that does not stop decoding is reported as a
    /// [`Finding`](crate::finding::Finding) where the part has them.
    Strict,
    /// LLVM's reader, for the obj2yaml view: LLVM's rules are errors where
    /// LLVM fails, and its reading is followed where it reads differently.
    LlvmCompat,
}

impl Mode {
    /// The name of a read in error messages: `strict` in the strict view,
    /// `llvm` (the name of the field as LLVM's reader has it) in the LLVM view.
    pub(crate) fn label<T>(self, strict: T, llvm: T) -> T {
        match self {
            Mode::Strict => strict,
            Mode::LlvmCompat => llvm,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decode::{decode_part, Decoded};
    use crate::part_table::{Family, PART_TABLE};

    /// Each family's decoder reads every part name of its rows: a part of
    /// that name decodes to the family's own variant, or fails in the decoder
    /// (never "no decoder"); a name without a family decodes to `Unknown`.
    #[test]
    fn each_family_decoder_handles_its_rows() {
        for info in PART_TABLE {
            let bytes = crate::testutil::build(&[(&info.name.0, &[0; 64])]);
            let c = crate::Container::parse(&bytes).unwrap();
            let decoded = decode_part(&c, &c.part(0).unwrap());
            match (info.family, decoded) {
                (None, Ok(d)) => assert_eq!(d, Decoded::Unknown, "{}", info.name),
                (None, Err(e)) => panic!("{}: {e}", info.name),
                (Some(_), Err(_)) => {}
                (Some(family), Ok(d)) => {
                    let from = d.family();
                    assert!(
                        from == Some(family)
                            || (family == Family::Statistics && from == Some(Family::Program)),
                        "{}: {family:?} decoded as {}",
                        info.name,
                        d.kind()
                    );
                }
            }
        }
    }
}
