//! The views `dxinfo` prints, over the decoded parts: text, the JSON document
//! (with the `serde` feature), obj2yaml-compatible YAML, verification and hex
//! dumps. The text, JSON and verify views read one [`Inspection`]: a parsed
//! container with each part decoded once. The others read the [`Container`]:
//! the YAML view decodes the parts it prints with the decoders'
//! LLVM-compatible readers ([`yaml::to_obj2yaml`]), the part listing
//! ([`text::write_parts`]) and the hex dump ([`hexdump`]) need no decoding.
//! Over two or many containers: `diff` (with the `serde` feature: what
//! differs by meaning, from the JSON documents) and [`stats`] (where the
//! bytes go).
//! (`dxinfo --dump-all` writes files, so it lives in `dxcopy-edit` as
//! `dump_all`.)

#[cfg(feature = "serde")]
pub mod diff;
pub mod hexdump;
#[cfg(feature = "serde")]
pub mod json;
pub mod stats;
pub mod text;
pub mod verify;
pub mod yaml;

use crate::bitcode::BitcodeError;
use crate::dxil::facts::ModuleFacts;
use crate::listing::dxbc::summary::ProgramSummary;
use crate::pdb::PdbInfo;
use crate::{decode_part, Container, Decoded, Part, PartName, ReadError};

/// One part and the outcome of decoding it.
#[derive(Debug, Clone)]
pub struct Inspected<'data> {
    /// The part.
    pub part: Part<'data>,
    /// Its decoded form, or the error that stopped its decoder.
    pub decoded: Result<Decoded<'data>, ReadError>,
    /// For a program part (DXIL, ILDB, dxc STAT) whose bitcode starts with
    /// the bitcode magic: the module facts read from the bitstream, or the
    /// error that stopped the reader. `None` for every other part. (Boxed:
    /// most parts are not programs, and a container may have many parts.)
    pub module: Option<Box<Result<ModuleFacts, BitcodeError>>>,
    /// For an SHDR/SHEX part whose header tokens are usable: the summary of
    /// its program (instruction count, declarations). `None` otherwise.
    pub program: Option<Box<ProgramSummary>>,
}

impl<'data> Inspected<'data> {
    /// Decodes `part` of `container`, and its module facts when
    /// `module_facts` is true and it is a program part holding bitcode.
    pub fn new(container: &Container<'data>, part: Part<'data>, module_facts: bool) -> Self {
        let decoded = decode_part(container, &part);
        let program = match &decoded {
            Ok(Decoded::Shader(_)) => {
                ProgramSummary::decode(part.data, part.data_offset()).map(Box::new)
            }
            _ => None,
        };
        Inspected {
            program,
            module: if module_facts {
                program_module_facts(part.name, &decoded)
            } else {
                None
            },
            decoded,
            part,
        }
    }

    /// The module error as shown by the views: the part, the bit offset
    /// inside the bitcode and the file offset where the bitcode starts.
    pub fn module_error_message(&self) -> Option<String> {
        let Some(Err(e)) = self.module.as_deref() else {
            return None;
        };
        let start = match &self.decoded {
            Ok(Decoded::Program(p)) => p.bitcode_file_offset,
            _ => self.part.data_offset(),
        };
        Some(format!(
            "part {} '{}': {e} (the bitcode starts at file offset {start:#x})",
            self.part.index, self.part.name
        ))
    }
}

/// The module facts of a decoded program part, when its data holds bitcode;
/// the DXIL part's with its instruction count (the survey's
/// `instruction_count`; ILDB holds the same program with debug info, and
/// dxc's STAT module has no bodies).
fn program_module_facts(
    name: PartName,
    decoded: &Result<Decoded<'_>, ReadError>,
) -> Option<Box<Result<ModuleFacts, BitcodeError>>> {
    match decoded {
        Ok(Decoded::Program(p)) if p.has_bitcode_magic() => {
            Some(Box::new(if name == PartName::DXIL {
                ModuleFacts::decode_counting(p.bitcode)
            } else {
                ModuleFacts::decode(p.bitcode)
            }))
        }
        _ => None,
    }
}

/// A container with every part decoded.
#[derive(Debug, Clone)]
pub struct Inspection<'data> {
    /// The parsed container.
    pub container: Container<'data>,
    /// Every part in offset-table order.
    pub parts: Vec<Inspected<'data>>,
    /// The PDB info stream when the container came from a dxc companion PDB's stream 5.
    pub pdb: Option<PdbInfo>,
}

impl<'data> Inspection<'data> {
    /// Decodes every part of `container`, and the module facts of every
    /// program part holding bitcode.
    pub fn new(container: Container<'data>) -> Inspection<'data> {
        Inspection::with_module_facts(container, true)
    }

    /// Decodes every part of `container`; the module facts of program parts
    /// only when `module_facts` is true (`dxinfo --no-module-facts` skips
    /// reading the bitstreams).
    pub fn with_module_facts(container: Container<'data>, module_facts: bool) -> Inspection<'data> {
        let parts = container
            .parts()
            .map(|part| Inspected::new(&container, part, module_facts))
            .collect();
        Inspection {
            container,
            parts,
            pdb: None,
        }
    }

    /// Records that the container is stream 5 of a PDB with this info stream.
    pub fn from_pdb(mut self, info: PdbInfo) -> Inspection<'data> {
        self.pdb = Some(info);
        self
    }

    /// For a PDB input: whether its GUID equals the container's HASH digest
    /// (dxc writes the HASH digest as the GUID). `None` without a PDB or a HASH.
    pub fn pdb_guid_matches_hash(&self) -> Option<bool> {
        let info = self.pdb.as_ref()?;
        let hash = self.container.find(PartName::HASH)?;
        let h = crate::ShaderHash::parse(&hash).ok()?;
        Some(h.digest == info.guid)
    }

    /// Parses `data` and decodes every part.
    pub fn parse(data: &'data [u8]) -> Result<Inspection<'data>, ReadError> {
        Ok(Inspection::new(Container::parse(data)?))
    }

    /// Number of parts whose decoder failed.
    pub fn decode_errors(&self) -> usize {
        self.parts.iter().filter(|p| p.decoded.is_err()).count()
    }
}

/// Layout remarks for a part: an offset not on a 4-byte boundary (older dxc
/// wrote odd-sized signature parts), a size that is not a multiple of 4
/// (normal only for PRIV, which is last).
pub fn alignment_note(part: &Part<'_>) -> Option<&'static str> {
    let unaligned = !part.offset.is_multiple_of(4);
    let unpadded = !part.size().is_multiple_of(4) && part.name != PartName::PRIV;
    match (unaligned, unpadded) {
        (true, true) => Some("unaligned offset, unpadded size"),
        (true, false) => Some("unaligned offset"),
        (false, true) => Some("unpadded size"),
        (false, false) => None,
    }
}

/// Parses a part name given on the command line: four bytes, where `\xNN`
/// stands for any byte (so names holding NUL or `/` can be named).
pub fn parse_part_name(text: &str) -> Option<PartName> {
    let mut bytes = Vec::new();
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'\\' && tail.len() >= 3 && tail[0] == b'x' {
            let hex = std::str::from_utf8(&tail[1..3]).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[3..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    <[u8; 4]>::try_from(bytes.as_slice()).ok().map(PartName)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_names_from_the_command_line() {
        assert_eq!(parse_part_name("DXIL"), Some(PartName::DXIL));
        assert_eq!(parse_part_name("a/\\x00b"), Some(PartName(*b"a/\0b")));
        assert_eq!(parse_part_name("\\x41\\x42CD"), Some(PartName(*b"ABCD")));
        assert_eq!(parse_part_name("DXI"), None);
        assert_eq!(parse_part_name("DXILX"), None);
        assert_eq!(parse_part_name("\\xZZab"), None);
    }

    #[test]
    fn alignment_notes() {
        let bytes =
            crate::testutil::build(&[(b"ISG1", b"abc"), (b"DXIL", b"abcd"), (b"PRIV", b"x")]);
        let c = Container::parse(&bytes).unwrap();
        let notes: Vec<_> = c.parts().map(|p| alignment_note(&p)).collect();
        assert_eq!(
            notes,
            vec![
                Some("unpadded size"),
                Some("unaligned offset"),
                Some("unaligned offset")
            ]
        );
        let i = Inspection::new(c);
        assert_eq!(i.parts.len(), 3);
        assert_eq!(i.decode_errors(), 2); // "abc" is no signature, "abcd" no program
    }
}
