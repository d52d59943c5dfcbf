//! Signature parts: the DXIL-era ISG1 / OSG1 / PSG1 (docs/format/signatures.md) and the
//! DXBC-era ISGN / OSGN / PCSG / OSG5 written by fxc.
//!
//! Every signature part is an 8-byte header (`u32 ParamCount`,
//! `u32 FirstParamOffset` from the start of the part), `ParamCount` fixed-size
//! elements and a table of NUL-terminated semantic names that the elements
//! point into with offsets from the start of the part. The element layout
//! depends on the part:
//!
//! | part | bytes | layout |
//! |---|---|---|
//! | ISGN, OSGN, PCSG | 24 | name offset, semantic index, system value, component type, register, mask u8, rw mask u8, 2 pad |
//! | OSG5 | 28 | stream u32, then the 24-byte layout |
//! | ISG1, OSG1, PSG1 | 32 | stream u32, the 24-byte layout, min precision u32 |

use crate::container::Part;
use crate::cursor::Cursor;

use crate::error::{ReadErrorKind, Result};
use crate::name::PartName;
use crate::record::Reserved;
use std::fmt;

/// Size of the signature part header.
pub const SIGNATURE_HEADER_SIZE: u64 = 8;

/// Which element layout a signature part uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SignatureFormat {
    /// ISGN / OSGN / PCSG (fxc, shader model 4–5.0): 24-byte elements.
    Dxbc,
    /// OSG5 (fxc geometry-shader output with streams): 28-byte elements.
    DxbcStream,
    /// ISG1 / OSG1 / PSG1 (dxc, and fxc 5.1): 32-byte elements with stream
    /// and minimum precision.
    Dxil,
}

impl SignatureFormat {
    /// The format of a part by its name, or `None` when it is not a signature part.
    pub fn for_part(name: PartName) -> Option<SignatureFormat> {
        match &name.0 {
            b"ISGN" | b"OSGN" | b"PCSG" => Some(SignatureFormat::Dxbc),
            b"OSG5" => Some(SignatureFormat::DxbcStream),
            b"ISG1" | b"OSG1" | b"PSG1" => Some(SignatureFormat::Dxil),
            _ => None,
        }
    }

    /// Size of one element in bytes.
    pub fn element_size(self) -> u32 {
        match self {
            SignatureFormat::Dxbc => 24,
            SignatureFormat::DxbcStream => 28,
            SignatureFormat::Dxil => 32,
        }
    }

    /// Whether elements start with a stream index.
    pub fn has_stream(self) -> bool {
        !matches!(self, SignatureFormat::Dxbc)
    }

    /// Whether elements end with a minimum precision.
    pub fn has_min_precision(self) -> bool {
        matches!(self, SignatureFormat::Dxil)
    }
}

crate::enums::system_value! { part,
    /// `D3D_NAME` / `D3DSystemValue`: the system value of a signature element (docs/format/enums.md §5).
    pub enum SystemValue: u32
}

crate::enums::register_component_type! { part,
    /// Register component type (`D3D_REGISTER_COMPONENT_TYPE` / LLVM `SigComponentType`,
    /// also the PSV element `ComponentType`; docs/format/enums.md §4).
    pub enum ComponentType: u32
}

crate::enums::min_precision! { part,
    /// Minimum precision of a signature element (`D3D_MIN_PRECISION`; docs/format/enums.md §6).
    pub enum MinPrecision: u32
}

crate::record::record! {
    /// The signature part header.
    pub struct SignatureHeader: "signature header" {
        /// Number of elements.
        0 param_count: u32 => "signature ParamCount";
        /// Offset of the first element from the start of the part (normally 8).
        4 first_param_offset: u32 => "signature FirstParamOffset";
    }
}

crate::record::record! {
    /// The 24-byte element of ISGN / OSGN / PCSG, also the middle of the
    /// OSG5 and ISG1 / OSG1 / PSG1 elements.
    pub struct DxbcElement: "signature element" {
        /// Offset of the semantic name from the start of the part.
        0 name_offset: u32 => "element name offset";
        /// Semantic index.
        4 semantic_index: u32 => "element semantic index";
        /// System value.
        8 system_value: SystemValue => "element system value";
        /// Component type.
        12 component_type: ComponentType => "element component type";
        /// Register (row).
        16 register: u32 => "element register";
        /// Component mask.
        20 mask: u8 => "element mask";
        /// Read/write mask.
        21 rw_mask: u8 => "element rw mask";
        /// Padding (zero).
        22 reserved: Reserved<2>;
    }
}

crate::record::record! {
    /// The 28-byte OSG5 element: a stream, then the 24-byte element.
    pub struct StreamElement: "signature element" {
        /// Stream index.
        0 stream: u32 => "element stream";
        /// The rest of the element.
        4 element: DxbcElement;
    }
}

crate::record::record! {
    /// The 32-byte ISG1 / OSG1 / PSG1 element: a stream, the 24-byte
    /// element, the minimum precision.
    pub struct DxilElement: "signature element" {
        /// Stream index.
        0 stream: u32 => "element stream";
        /// The middle of the element.
        4 element: DxbcElement;
        /// Minimum precision.
        28 min_precision: MinPrecision => "element min precision";
    }
}

/// One signature element.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SignatureElement<'data> {
    /// Stream index (OSG5 and ISG1/OSG1/PSG1 only).
    pub stream: Option<u32>,
    /// Offset of the semantic name from the start of the part.
    pub name_offset: u32,
    /// The semantic name (without its NUL).
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Semantic index.
    pub semantic_index: u32,
    /// System value.
    pub system_value: SystemValue,
    /// Component type.
    pub component_type: ComponentType,
    /// Register (row); `0xFFFFFFFF` for elements that have no register (e.g. `SV_Depth`).
    pub register: u32,
    /// Component mask (bit 0 = x).
    pub mask: u8,
    /// Read/write mask: for outputs the components never written, for inputs the
    /// components always read (LLVM's `ExclusiveMask`).
    pub rw_mask: u8,
    /// Minimum precision (ISG1/OSG1/PSG1 only).
    pub min_precision: Option<MinPrecision>,
}

impl SignatureElement<'_> {
    /// Reads the element of `format` at the start of `e`: the stored
    /// fields, and the name offset's position for errors about the name.
    fn read_record(
        e: &Cursor<'_>,
        format: SignatureFormat,
    ) -> Result<(Option<u32>, DxbcElement, Option<MinPrecision>, u64)> {
        Ok(match format {
            SignatureFormat::Dxbc => (None, DxbcElement::read(e, 0)?, None, 0),
            SignatureFormat::DxbcStream => {
                let r = StreamElement::read(e, 0)?;
                (Some(r.stream), r.element, None, 4)
            }
            SignatureFormat::Dxil => {
                let r = DxilElement::read(e, 0)?;
                (Some(r.stream), r.element, Some(r.min_precision), 4)
            }
        })
    }

    /// Appends the element as stored in a part of `format` (a missing
    /// stream or minimum precision is written as 0).
    pub fn write_to(&self, format: SignatureFormat, out: &mut Vec<u8>) {
        let element = DxbcElement {
            name_offset: self.name_offset,
            semantic_index: self.semantic_index,
            system_value: self.system_value,
            component_type: self.component_type,
            register: self.register,
            mask: self.mask,
            rw_mask: self.rw_mask,
            reserved: Reserved,
        };
        let stream = self.stream.unwrap_or(0);
        match format {
            SignatureFormat::Dxbc => element.write_to(out),
            SignatureFormat::DxbcStream => StreamElement { stream, element }.write_to(out),
            SignatureFormat::Dxil => DxilElement {
                stream,
                element,
                min_precision: self.min_precision.unwrap_or(MinPrecision::Default),
            }
            .write_to(out),
        }
    }

    /// The semantic name as text (lossy for bytes that are not UTF-8).
    pub fn name_lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.name)
    }
}

/// A decoded signature part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Signature<'data> {
    /// The element layout.
    pub format: SignatureFormat,
    /// `ParamCount` from the header.
    pub param_count: u32,
    /// `FirstParamOffset` from the header (from the start of the part; normally 8).
    pub first_param_offset: u32,
    /// The elements in file order.
    pub elements: Vec<SignatureElement<'data>>,
}

impl<'data> Signature<'data> {
    /// Decodes signature part data of the given format located at absolute offset `base`.
    ///
    /// Errors: a header or element array past the end of the data, and a name
    /// offset outside the part or a name without a NUL inside the part. Name
    /// offsets may point anywhere in the part (fxc and dxc place the names
    /// after the elements; LLVM requires that, this decoder does not).
    pub fn parse_data(data: &'data [u8], base: u64, format: SignatureFormat) -> Result<Self> {
        let c = Cursor::new(data, base);
        let SignatureHeader {
            param_count,
            first_param_offset,
        } = SignatureHeader::read(&c, 0)?;
        let elem_size = u64::from(format.element_size());
        // Checked before allocating: the whole element array must be in the part.
        let records = c.records(
            u64::from(first_param_offset),
            u64::from(param_count),
            elem_size,
            "signature elements",
        )?;
        let mut elements = Vec::with_capacity(param_count as usize);
        for (_, e) in records {
            let (stream, element, min_precision, name_at) =
                SignatureElement::read_record(&e, format)?;
            let name_offset = element.name_offset;
            let name = if u64::from(name_offset) >= c.len() {
                return Err(e.error(
                    name_at,
                    ReadErrorKind::out_of_bounds(SignatureError::SemanticNameOffset {
                        offset: name_offset,
                        part_size: c.len(),
                    }),
                ));
            } else {
                c.cstr(u64::from(name_offset), u64::MAX, "semantic name")?
            };
            elements.push(SignatureElement {
                stream,
                name_offset,
                name,
                semantic_index: element.semantic_index,
                system_value: element.system_value,
                component_type: element.component_type,
                register: element.register,
                mask: element.mask,
                rw_mask: element.rw_mask,
                min_precision,
            });
        }
        Ok(Signature {
            format,
            param_count,
            first_param_offset,
            elements,
        })
    }

    /// Decodes a signature part; the format comes from the part name.
    /// Returns `Ok(None)` for parts that are not signature parts.
    pub fn parse(part: &Part<'data>) -> Result<Option<Self>> {
        match SignatureFormat::for_part(part.name) {
            Some(format) => Signature::parse_data(part.data, part.data_offset(), format)
                .map(Some)
                .map_err(|e| e.in_part(part.part_ref())),
            None => Ok(None),
        }
    }

    /// Encodes the part data as dxc lays it out: see
    /// [`Signature::to_bytes_padded`] with zero padding to 4 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_padded(Some(0))
    }

    /// Encodes the part data as stored: the header, the elements at
    /// `first_param_offset`, each name (with its NUL) at its `name_offset`
    /// (names shared by several elements once) and zero bytes in any gap;
    /// then, with `pad = Some(byte)`, `byte` up to a multiple of 4 bytes
    /// (dxc pads with 0, fxc with 0xAB; some dxc releases do not pad:
    /// `None`).
    pub fn to_bytes_padded(&self, pad: Option<u8>) -> Vec<u8> {
        let mut out = SignatureHeader {
            param_count: self.param_count,
            first_param_offset: self.first_param_offset,
        }
        .to_bytes();
        out.resize(out.len().max(self.first_param_offset as usize), 0);
        for element in &self.elements {
            element.write_to(self.format, &mut out);
        }
        for element in &self.elements {
            let at = element.name_offset as usize;
            let end = at + element.name.len() + 1;
            if out.len() < end {
                out.resize(end, 0);
            }
            out[at..end - 1].copy_from_slice(element.name);
        }
        if let Some(byte) = pad {
            out.resize(out.len().next_multiple_of(4), byte);
        }
        out
    }

    /// Offset (from the start of the part) where the element array ends, i.e.
    /// where LLVM expects the name table to begin.
    pub fn elements_end(&self) -> u64 {
        u64::from(self.first_param_offset)
            + u64::from(self.param_count) * u64::from(self.format.element_size())
    }
}

/// The signature decoders' errors (ISG1, OSG1, PSG1 and their older forms),
/// in their words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureError {
    /// An element's semantic name offset is outside the part.
    SemanticNameOffset {
        /// The offset.
        offset: u32,
        /// The part size.
        part_size: u64,
    },
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::SemanticNameOffset { offset, part_size } => write!(
                f,
                "semantic name offset {offset:#x} is outside the {part_size}-byte part"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    #[test]
    fn each_error_says_its_sentence() {
        use SignatureError::*;
        crate::testutil::errors_say(vec![(
            SemanticNameOffset {
                offset: 0x80,
                part_size: 64,
            },
            "semantic name offset 0x80 is outside the 64-byte part",
        )]);
    }

    /// (stream, name, index, system value, component type, register, mask, rw mask, min precision)
    type ElementRow = (u32, &'static str, u32, u32, u32, u32, u8, u8, u32);

    /// Builds signature part data: header, elements, then the names.
    struct SigBuilder {
        format: SignatureFormat,
        elems: Vec<ElementRow>,
    }

    impl SigBuilder {
        fn new(format: SignatureFormat) -> Self {
            SigBuilder {
                format,
                elems: Vec::new(),
            }
        }

        #[allow(clippy::too_many_arguments)]
        fn elem(
            mut self,
            stream: u32,
            name: &'static str,
            index: u32,
            sv: u32,
            ct: u32,
            reg: u32,
            mask: u8,
            rw: u8,
            mp: u32,
        ) -> Self {
            self.elems
                .push((stream, name, index, sv, ct, reg, mask, rw, mp));
            self
        }

        fn build(&self) -> Vec<u8> {
            let size = self.format.element_size() as usize;
            let names_start = 8 + size * self.elems.len();
            let mut names = Vec::new();
            let mut out = Vec::new();
            out.extend_from_slice(&(self.elems.len() as u32).to_le_bytes());
            out.extend_from_slice(&8u32.to_le_bytes());
            for &(stream, name, index, sv, ct, reg, mask, rw, mp) in &self.elems {
                let name_offset = (names_start + names.len()) as u32;
                names.extend_from_slice(name.as_bytes());
                names.push(0);
                if self.format.has_stream() {
                    out.extend_from_slice(&stream.to_le_bytes());
                }
                for v in [name_offset, index, sv, ct, reg] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
                out.extend_from_slice(&[mask, rw, 0, 0]);
                if self.format.has_min_precision() {
                    out.extend_from_slice(&mp.to_le_bytes());
                }
            }
            out.extend_from_slice(&names);
            out
        }
    }

    #[test]
    fn formats_by_part_name() {
        let rows: &[(&[u8; 4], Option<SignatureFormat>, u32)] = &[
            (b"ISGN", Some(SignatureFormat::Dxbc), 24),
            (b"OSGN", Some(SignatureFormat::Dxbc), 24),
            (b"PCSG", Some(SignatureFormat::Dxbc), 24),
            (b"OSG5", Some(SignatureFormat::DxbcStream), 28),
            (b"ISG1", Some(SignatureFormat::Dxil), 32),
            (b"OSG1", Some(SignatureFormat::Dxil), 32),
            (b"PSG1", Some(SignatureFormat::Dxil), 32),
            (b"DXIL", None, 0),
        ];
        for (name, format, size) in rows {
            let got = SignatureFormat::for_part(PartName(**name));
            assert_eq!(got, *format, "{name:?}");
            if let Some(f) = got {
                assert_eq!(f.element_size(), *size);
            }
        }
    }

    #[test]
    fn decodes_every_format() {
        for format in [
            SignatureFormat::Dxbc,
            SignatureFormat::DxbcStream,
            SignatureFormat::Dxil,
        ] {
            let data = SigBuilder::new(format)
                .elem(1, "POSITION", 0, 1, 3, 0, 0xf, 0x3, 1)
                .elem(2, "TEXCOORD", 5, 0, 6, 0xffff_ffff, 0x3, 0x0, 0xf0)
                .build();
            let sig = Signature::parse_data(&data, 0x40, format).unwrap();
            assert_eq!(sig.param_count, 2);
            assert_eq!(sig.first_param_offset, 8);
            let e = &sig.elements;
            assert_eq!(e[0].name, b"POSITION");
            assert_eq!(e[1].name_lossy(), "TEXCOORD");
            assert_eq!(e[0].system_value, SystemValue::Position);
            assert_eq!(e[0].component_type, ComponentType::Float32);
            assert_eq!((e[0].mask, e[0].rw_mask), (0xf, 0x3));
            assert_eq!(e[1].semantic_index, 5);
            assert_eq!(e[1].register, 0xffff_ffff);
            assert_eq!(e[1].component_type.known_name(), Some("Float16"));
            match format {
                SignatureFormat::Dxbc => {
                    assert_eq!(e[0].stream, None);
                    assert_eq!(e[0].min_precision, None);
                }
                SignatureFormat::DxbcStream => {
                    assert_eq!(e[1].stream, Some(2));
                    assert_eq!(e[1].min_precision, None);
                }
                SignatureFormat::Dxil => {
                    assert_eq!(e[1].stream, Some(2));
                    assert_eq!(e[0].min_precision, Some(MinPrecision::Float16));
                    assert_eq!(e[1].min_precision, Some(MinPrecision::Any16));
                }
            }
            assert_eq!(sig.elements_end(), 8 + 2 * u64::from(format.element_size()));
        }
    }

    #[test]
    fn every_format_written_again_equals_the_built_bytes() {
        for format in [
            SignatureFormat::Dxbc,
            SignatureFormat::DxbcStream,
            SignatureFormat::Dxil,
        ] {
            let data = SigBuilder::new(format)
                .elem(1, "POSITION", 0, 1, 3, 0, 0xf, 0x3, 1)
                .elem(2, "TEXCOORD", 5, 0, 6, 0xffff_ffff, 0x3, 0x0, 0xf0)
                .build();
            let sig = Signature::parse_data(&data, 0, format).unwrap();
            assert_eq!(sig.to_bytes_padded(None), data, "{format:?}");
            let mut padded = data.clone();
            padded.resize(data.len().next_multiple_of(4), 0xab);
            assert_eq!(sig.to_bytes_padded(Some(0xab)), padded, "{format:?}");
            let again = sig.to_bytes();
            assert_eq!(Signature::parse_data(&again, 0, format).unwrap(), sig);
        }
    }

    #[test]
    fn empty_signature_and_unknown_values() {
        let data = SigBuilder::new(SignatureFormat::Dxil).build();
        assert!(Signature::parse_data(&data, 0, SignatureFormat::Dxil)
            .unwrap()
            .elements
            .is_empty());
        let data = SigBuilder::new(SignatureFormat::Dxil)
            .elem(0, "", 0, 17, 42, 0, 1, 0, 7)
            .build();
        let sig = Signature::parse_data(&data, 0, SignatureFormat::Dxil).unwrap();
        let e = &sig.elements[0];
        assert_eq!(e.name, b"");
        assert_eq!(e.system_value, SystemValue::Unknown(17));
        assert_eq!(e.system_value.raw(), 17);
        assert_eq!(e.system_value.known_name(), None);
        assert_eq!(e.component_type.to_string(), "Unknown(42)");
        assert_eq!(e.min_precision.unwrap().known_name(), None);
        assert_eq!(SystemValue::from_raw(67).known_name(), Some("DepthGE"));
    }

    #[test]
    fn malformed() {
        let good = SigBuilder::new(SignatureFormat::Dxil)
            .elem(0, "A", 0, 0, 3, 0, 1, 0, 0)
            .build();
        // (description, mutation, expect truncated?)
        type Mutation = fn(&mut Vec<u8>);
        let rows: &[(&str, Mutation, bool)] = &[
            ("header cut", |d| d.truncate(6), true),
            (
                "count too big",
                |d| d[0..4].copy_from_slice(&0x1000_0000u32.to_le_bytes()),
                true,
            ),
            (
                "first offset past end",
                |d| d[4..8].copy_from_slice(&0xffff_fff0u32.to_le_bytes()),
                true,
            ),
            (
                "name offset past end",
                |d| d[12..16].copy_from_slice(&0x100u32.to_le_bytes()),
                false,
            ),
            (
                "name without NUL",
                |d| {
                    d.pop();
                },
                false,
            ),
        ];
        for (what, mutate, truncated) in rows {
            let mut data = good.clone();
            mutate(&mut data);
            let err = Signature::parse_data(&data, 0x100, SignatureFormat::Dxil).unwrap_err();
            assert_eq!(
                matches!(err.kind, ReadErrorKind::Truncated { .. }),
                *truncated,
                "{what}: {err}"
            );
            assert!(err.offset >= 0x100, "{what}");
        }
    }

    #[test]
    fn element_array_past_the_end_names_its_start() {
        let mut data = SigBuilder::new(SignatureFormat::Dxil)
            .elem(0, "A", 0, 0, 3, 0, 1, 0, 0)
            .build();
        data[0..4].copy_from_slice(&2u32.to_le_bytes());
        let err = Signature::parse_data(&data, 0x100, SignatureFormat::Dxil).unwrap_err();
        assert_eq!(err.offset, 0x108);
        assert_eq!(
            err.kind,
            ReadErrorKind::Truncated {
                part: None,
                what: "signature elements",
                needed: 64,
                available: data.len() as u64 - 8,
            }
        );
    }

    #[test]
    fn parse_part_attaches_part_and_skips_others() {
        let data = SigBuilder::new(SignatureFormat::Dxbc)
            .elem(0, "SV_Target", 0, 64, 3, 0, 0xf, 0, 0)
            .build();
        let bytes = crate::testutil::build(&[(b"OSGN", &data), (b"SHEX", b"")]);
        let c = crate::Container::parse(&bytes).unwrap();
        let sig = Signature::parse(&c.part(0).unwrap()).unwrap().unwrap();
        assert_eq!(sig.elements[0].system_value, SystemValue::Target);
        assert!(Signature::parse(&c.part(1).unwrap()).unwrap().is_none());
        let mut bad = data.clone();
        bad.truncate(10);
        let bytes = crate::testutil::build(&[(b"OSGN", &bad)]);
        let c = crate::Container::parse(&bytes).unwrap();
        let err = Signature::parse(&c.part(0).unwrap()).unwrap_err();
        assert_eq!(err.part(), Some(c.part(0).unwrap().part_ref()), "{err}");
        assert!(matches!(err.kind, ReadErrorKind::Truncated { .. }), "{err}");
    }
}
