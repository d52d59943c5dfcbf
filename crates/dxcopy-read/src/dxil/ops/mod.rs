//! dxc's operation table (`dx.op`): opcode → name and argument names, as
//! each dxc release knew them, and the comment dxc's disassembler writes
//! after every `dx.op` call (docs/format/dxil-listing.md, "The dx.op
//! comment").
//!
//! A release is a `(major, minor, build)` triple as dxc numbers its
//! releases (`1.8.2505` is `(1, 8, 2505)`); the table keeps one row per
//! spelling, so an opcode renamed by a release (`TextureGatherCmp`'s
//! `compareVale` before 1.6.2112, the experimental LinAlg operations of
//! 1.9 and 1.10) reads as the release that wrote the file spelled it.

mod table;

use std::fmt::Write as _;

/// A dxc release as the operation table orders them: `(major, minor,
/// build)`, e.g. `(1, 8, 2505)`.
pub type OpRelease = (u16, u16, u32);

/// One spelling of one operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpRow {
    /// The opcode, the call's first argument (experimental tables at
    /// `0x8000_0000` and up).
    pub opcode: u32,
    /// The first release that spelled the operation this way.
    pub since: OpRelease,
    /// The operation's name (`LoadInput`).
    pub name: &'static str,
    /// The names of the arguments after the opcode, comma-separated, as dxc
    /// prints them (`inputSigId,rowIndex,colIndex,gsVertexAxis`).
    pub args: &'static str,
}

/// Every row of the table: sorted by opcode, then by release.
pub fn rows() -> &'static [OpRow] {
    table::ROWS
}

/// The operation `opcode` as `release` spelled it: the newest spelling at
/// or before `release`, the oldest known one for a release older than the
/// table, the newest for `None` (release unknown). `None` when no release
/// in the table knows the opcode.
pub fn lookup(opcode: u32, release: Option<OpRelease>) -> Option<&'static OpRow> {
    let start = table::ROWS.partition_point(|row| row.opcode < opcode);
    let end = table::ROWS.partition_point(|row| row.opcode <= opcode);
    let spellings = table::ROWS.get(start..end)?;
    let first = spellings.first()?;
    let Some(release) = release else {
        return spellings.last();
    };
    Some(
        spellings
            .iter()
            .rev()
            .find(|row| row.since <= release)
            .unwrap_or(first),
    )
}

/// The comment dxc writes after a `dx.op` call whose opcode is `opcode`:
/// two spaces, `; Name(arg,arg)`, or `; invalid DXIL opcode #N` for an
/// opcode no release knows.
pub fn annotation(opcode: u32, release: Option<OpRelease>) -> String {
    match lookup(opcode, release) {
        Some(row) => format!("  ; {}({})", row.name, row.args),
        None => format!("  ; invalid DXIL opcode #{opcode}"),
    }
}

/// `dx.types.ResourceProperties` of an `AnnotateHandle` call, as dxc
/// decodes it for the `  resource: …` text after the operation comment
/// (the two 32-bit words of `DxilResourceProperties`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceProperties {
    /// First word: kind (byte 0), flags (byte 1: base alignment, UAV, ROV,
    /// globally coherent, comparison sampler or counter), byte 2 bit 0
    /// reorder coherent.
    pub word0: u32,
    /// Second word: component type and count for typed resources, stride
    /// for structured buffers, feedback type for feedback textures.
    pub word1: u32,
}

/// `DXIL::ResourceKind` names as dxc's disassembler prints them.
const RESOURCE_KINDS: &[&str] = &[
    "<invalid ResourceKind>",
    "Texture1D",
    "Texture2D",
    "Texture2DMS",
    "Texture3D",
    "TextureCube",
    "Texture1DArray",
    "Texture2DArray",
    "Texture2DMSArray",
    "TextureCubeArray",
    "TypedBuffer",
    "ByteAddressBuffer",
    "StructuredBuffer",
    "CBuffer",
    "Sampler",
    "TBuffer",
    "RTAccelerationStructure",
    "FeedbackTexture2D",
    "FeedbackTexture2DArray",
];

/// `DXIL::ComponentType` names (1 to 16) as the disassembler prints them.
const COMPONENT_TYPES: &[&str] = &[
    "<invalid CompType>",
    "I1",
    "I16",
    "U16",
    "I32",
    "U32",
    "I64",
    "U64",
    "F16",
    "F32",
    "F64",
    "SNormF16",
    "UNormF16",
    "SNormF32",
    "UNormF32",
    "SNormF64",
    "UNormF64",
];

const KIND_TYPED_LAST: u32 = 10;
const KIND_RAW_BUFFER: u32 = 11;
const KIND_STRUCTURED_BUFFER: u32 = 12;
const KIND_CBUFFER: u32 = 13;
const KIND_SAMPLER: u32 = 14;
const KIND_TBUFFER: u32 = 15;
const KIND_ACCELERATION_STRUCTURE: u32 = 16;
const KIND_FEEDBACK_2D: u32 = 17;
const KIND_FEEDBACK_2D_ARRAY: u32 = 18;

impl ResourceProperties {
    /// The text dxc appends after `; AnnotateHandle(res,props)`:
    /// `  resource: RWTexture2D<4xF32>` and the like.
    pub fn annotation(self) -> String {
        let kind = self.word0 & 0xff;
        let flags = (self.word0 >> 8) & 0xff;
        let is_uav = flags & 0x10 != 0;
        let is_rov = flags & 0x20 != 0;
        let globally_coherent = flags & 0x40 != 0;
        let cmp_or_counter = flags & 0x80 != 0;
        let reorder_coherent = (self.word0 >> 16) & 1 != 0;
        let kind_name = |kind: u32| {
            usize::try_from(kind)
                .ok()
                .and_then(|index| RESOURCE_KINDS.get(index))
                .copied()
                .filter(|_| kind != 0)
                .unwrap_or("<invalid ResourceKind>")
        };
        let mut out = String::from("  resource: ");
        if kind == KIND_CBUFFER {
            out.push_str("CBuffer");
            return out;
        }
        if kind == KIND_TBUFFER && !is_uav {
            out.push_str("TBuffer");
            return out;
        }
        if kind == KIND_SAMPLER {
            out.push_str(if cmp_or_counter {
                "SamplerComparisonState"
            } else {
                "SamplerState"
            });
            return out;
        }
        let rw = match (is_uav, is_rov) {
            (false, _) => "",
            (true, true) => "ROV",
            (true, false) => "RW",
        };
        let gc = if is_uav && globally_coherent {
            "globallycoherent "
        } else {
            ""
        };
        let rc = if is_uav && reorder_coherent {
            "reordercoherent "
        } else {
            ""
        };
        match kind {
            1..=KIND_TYPED_LAST => {
                let comp_type = self.word1 & 0xff;
                let comp_count = (self.word1 >> 8) & 0xff;
                let _ = write!(out, "{gc}{rc}{rw}{}<", kind_name(kind));
                if comp_count > 1 {
                    let _ = write!(out, "{comp_count}x");
                }
                let comp = usize::try_from(comp_type)
                    .ok()
                    .and_then(|index| COMPONENT_TYPES.get(index))
                    .copied()
                    .unwrap_or("<invalid CompType>");
                let _ = write!(out, "{comp}>");
            }
            KIND_RAW_BUFFER => {
                let _ = write!(out, "{gc}{rc}{rw}{}", kind_name(kind));
            }
            KIND_STRUCTURED_BUFFER => {
                let counter = if is_uav && cmp_or_counter {
                    ", counter"
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    "{gc}{rc}{rw}{}<stride={}{counter}>",
                    kind_name(kind),
                    self.word1
                );
            }
            KIND_ACCELERATION_STRUCTURE => out.push_str(kind_name(kind)),
            KIND_FEEDBACK_2D | KIND_FEEDBACK_2D_ARRAY => {
                let feedback = match self.word1 {
                    0 => "MinMip",
                    1 => "MipRegionUsed",
                    _ => "<invalid sampler feedback type>",
                };
                let _ = write!(out, "{}<{feedback}>", kind_name(kind));
            }
            _ => out.push_str("<invalid resource properties>"),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_sorted_by_opcode_then_release() {
        let rows = rows();
        assert!(rows.len() > 300, "{} rows", rows.len());
        for pair in rows.windows(2) {
            assert!(
                (pair[0].opcode, pair[0].since) < (pair[1].opcode, pair[1].since),
                "{:?} before {:?}",
                pair[0],
                pair[1]
            );
        }
    }

    #[test]
    fn annotations_as_dxc_prints_them() {
        let cases: &[(u32, Option<OpRelease>, &str)] = &[
            (
                4,
                None,
                "  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)",
            ),
            (
                5,
                Some((1, 8, 2403)),
                "  ; StoreOutput(outputSigId,rowIndex,colIndex,value)",
            ),
            (95, None, "  ; ThreadIdInGroup(component)"),
            (96, None, "  ; FlattenedThreadIdInGroup()"),
            (
                74,
                Some((1, 4, 1907)),
                "  ; TextureGatherCmp(srv,sampler,coord0,coord1,coord2,coord3,offset0,offset1,channel,compareVale)",
            ),
            (
                74,
                Some((1, 7, 2212)),
                "  ; TextureGatherCmp(srv,sampler,coord0,coord1,coord2,coord3,offset0,offset1,channel,compareValue)",
            ),
            (216, Some((1, 5, 2003)), "  ; CreateHandleFromHeap(index,nonUniformIndex)"),
            (216, Some((1, 7, 2212)), "  ; AnnotateHandle(res,props)"),
            (218, Some((1, 8, 2505)), "  ; CreateHandleFromHeap(index,samplerHeap,nonUniformIndex)"),
            (0x8000_000b, Some((1, 9, 2602)), "  ; CreateMatrix()"),
            (
                0x8000_000b,
                None,
                "  ; LinAlgMatrixMultiplyAccumulate(matrixA,matrixB,matrixC)",
            ),
            (65_000, None, "  ; invalid DXIL opcode #65000"),
        ];
        for (opcode, release, want) in cases {
            assert_eq!(annotation(*opcode, *release), *want, "opcode {opcode}");
        }
    }

    #[test]
    fn a_release_older_than_the_table_reads_the_first_spelling() {
        let row = lookup(0, Some((1, 0, 0))).expect("TempRegLoad");
        assert_eq!(row.name, "TempRegLoad");
        assert_eq!(row.since, (1, 2, 0));
    }

    #[test]
    fn resource_properties_as_dxc_prints_them() {
        let cases: &[(u32, u32, &str)] = &[
            (13, 64, "  resource: CBuffer"),
            (14, 0, "  resource: SamplerState"),
            (14 | 0x8000, 0, "  resource: SamplerComparisonState"),
            (2, 0x0409, "  resource: Texture2D<4xF32>"),
            (2 | 0x1000, 0x0105, "  resource: RWTexture2D<U32>"),
            (11, 0, "  resource: ByteAddressBuffer"),
            (11 | 0x1000, 0, "  resource: RWByteAddressBuffer"),
            (12, 16, "  resource: StructuredBuffer<stride=16>"),
            (
                12 | 0x1000 | 0x8000,
                4,
                "  resource: RWStructuredBuffer<stride=4, counter>",
            ),
            (
                10 | 0x1000 | 0x2000 | 0x4000,
                0x0209,
                "  resource: globallycoherent ROVTypedBuffer<2xF32>",
            ),
            (
                11 | 0x1000 | 0x1_0000,
                0,
                "  resource: reordercoherent RWByteAddressBuffer",
            ),
            (15, 0, "  resource: TBuffer"),
            (16, 0, "  resource: RTAccelerationStructure"),
            (
                17 | 0x1000,
                1,
                "  resource: FeedbackTexture2D<MipRegionUsed>",
            ),
            (0, 0, "  resource: <invalid resource properties>"),
            (40, 0, "  resource: <invalid resource properties>"),
        ];
        for (word0, word1, want) in cases {
            let props = ResourceProperties {
                word0: *word0,
                word1: *word1,
            };
            assert_eq!(props.annotation(), *want, "{word0:#x} {word1:#x}");
        }
    }
}
