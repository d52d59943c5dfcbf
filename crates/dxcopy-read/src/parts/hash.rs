//! The HASH part (docs/format/small-parts.md §2): `u32 Flags` + 16-byte MD5 digest.
//! Flags 0: MD5 of the DXIL part's bitcode; flags 1 (`IncludesSource`, `/Zss`):
//! MD5 of the ILDB part's bitcode.

use crate::container::{Container, Part};
use crate::cursor::Cursor;
use crate::error::Result;
use crate::name::PartName;
use crate::program::Program;
use md5::{Digest, Md5};

/// Size of the HASH part data.
pub const HASH_SIZE: usize = ShaderHash::SIZE as usize;
/// Flag: the digest was computed from the ILDB (source-including) bitcode.
pub const FLAG_INCLUDES_SOURCE: u32 = 1;

crate::record::record! {
    /// A decoded HASH part: the whole part is this record.
    #[derive(Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    pub struct ShaderHash: "HASH" {
        /// Flags (0 = None, 1 = IncludesSource).
        0 flags: u32 => "HASH flags";
        /// The 16-byte MD5 digest.
        #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::hex"))]
        4 digest: [u8; 16] => "HASH digest";
    }
}

/// The outcome of checking a HASH part against its bitcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashStatus {
    /// The digest equals the MD5 of the bitcode it names.
    Valid,
    /// The digest differs; `computed` is what it should be.
    Mismatch {
        /// MD5 of the bitcode.
        computed: [u8; 16],
    },
    /// The part whose bitcode it covers (DXIL or ILDB) is absent or undecodable.
    NoBitcode {
        /// DXIL or ILDB.
        source: PartName,
    },
}

impl ShaderHash {
    /// Decodes HASH part data at absolute offset `base`.
    pub fn parse_data(data: &[u8], base: u64) -> Result<ShaderHash> {
        ShaderHash::read(&Cursor::new(data, base), 0)
    }

    /// Decodes a HASH part.
    pub fn parse(part: &Part<'_>) -> Result<ShaderHash> {
        ShaderHash::parse_data(part.data, part.data_offset())
            .map_err(|e| e.in_part(part.part_ref()))
    }

    /// The part whose bitcode the digest covers: ILDB when flag 1 is set, else DXIL.
    pub fn source_part(&self) -> PartName {
        if self.flags & FLAG_INCLUDES_SOURCE != 0 {
            PartName::ILDB
        } else {
            PartName::DXIL
        }
    }

    /// Checks the digest against the bitcode of the part it names in `container`.
    pub fn verify(&self, container: &Container<'_>) -> HashStatus {
        let source = self.source_part();
        match container.find(source).and_then(|p| Program::parse(&p).ok()) {
            Some(program) => {
                let computed = md5_of(program.bitcode);
                if computed == self.digest {
                    HashStatus::Valid
                } else {
                    HashStatus::Mismatch { computed }
                }
            }
            None => HashStatus::NoBitcode { source },
        }
    }

    /// The default PDB file name dxc derives from the digest: 32 lower-case hex digits + `.pdb`.
    pub fn pdb_name(&self) -> String {
        format!("{}.pdb", crate::fields::hex(&self.digest))
    }
}

/// Standard MD5 of `data` (what the HASH part stores).
pub fn md5_of(data: &[u8]) -> [u8; 16] {
    Md5::digest(data).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{build_program_data, ShaderKind};
    use crate::testutil::build;

    #[test]
    fn md5_standard() {
        assert_eq!(
            crate::fields::hex(&md5_of(b"abc")),
            "900150983cd24fb0d6963f7d28e17f72"
        );
    }

    #[test]
    fn verify_against_dxil_and_ildb() {
        let dxil = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, b"BC\xc0\xderetail");
        let ildb = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, b"BC\xc0\xdedebug!");
        let good = ShaderHash {
            flags: 0,
            digest: md5_of(b"BC\xc0\xderetail"),
        };
        let src = ShaderHash {
            flags: 1,
            digest: md5_of(b"BC\xc0\xdedebug!"),
        };
        for (h, want) in [(good, HashStatus::Valid), (src, HashStatus::Valid)] {
            let bytes = build(&[(b"HASH", &h.to_bytes()), (b"DXIL", &dxil), (b"ILDB", &ildb)]);
            let c = Container::parse(&bytes).unwrap();
            let parsed = ShaderHash::parse(&c.find(PartName::HASH).unwrap()).unwrap();
            assert_eq!(parsed, h);
            assert_eq!(parsed.verify(&c), want);
        }
        let bytes = build(&[(b"HASH", &src.to_bytes()), (b"DXIL", &dxil)]);
        let c = Container::parse(&bytes).unwrap();
        assert_eq!(
            src.verify(&c),
            HashStatus::NoBitcode {
                source: PartName::ILDB
            }
        );
        let bad = ShaderHash {
            flags: 0,
            digest: [0; 16],
        };
        let bytes = build(&[(b"DXIL", &dxil)]);
        let c = Container::parse(&bytes).unwrap();
        assert!(matches!(bad.verify(&c), HashStatus::Mismatch { .. }));
        assert!(ShaderHash::parse_data(&[0; 19], 0).is_err());
        assert_eq!(good.pdb_name().len(), 36);
    }
}
