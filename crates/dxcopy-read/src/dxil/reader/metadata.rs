//! METADATA blocks (module and function level), the METADATA_KIND block of
//! later writers, and the field counts LLVM 3.7 checks for each
//! specialized node (LLVM 3.7's `parseMetadata`).

use super::{invalid, string_field, u32_field, ForwardMax, Reader};
use crate::bitcode::bits::BitReader;
use crate::bitcode::error::{BitcodeError, BitcodeErrorKind, Result};
use crate::bitcode::reader::{Record, StreamReader};
use crate::dxil::model::*;

mod code {
    pub const STRING: u32 = 1;
    pub const VALUE: u32 = 2;
    pub const NODE: u32 = 3;
    pub const NAME: u32 = 4;
    pub const DISTINCT_NODE: u32 = 5;
    pub const KIND: u32 = 6;
    pub const OLD_NODE: u32 = 8;
    pub const OLD_FN_NODE: u32 = 9;
    pub const NAMED_NODE: u32 = 10;
    pub const STRINGS: u32 = 35;
}

/// The field count LLVM 3.7 requires of a specialized node (`None`: at
/// least the distinct flag; `Some((min, max))` otherwise).
fn field_count(kind: DebugNodeKind) -> Option<(usize, usize)> {
    use DebugNodeKind::*;
    Some(match kind {
        Location => (5, 5),
        GenericDebug => (4, usize::MAX),
        Subrange => (3, 3),
        Enumerator => (3, 3),
        BasicType => (6, 6),
        File => (3, 3),
        DerivedType => (12, 12),
        CompositeType => (16, 16),
        SubroutineType => (3, 3),
        CompileUnit => (14, 15),
        Subprogram => (19, 19),
        LexicalBlock => (5, 5),
        LexicalBlockFile => (4, 4),
        Namespace => (5, 5),
        TemplateTypeParameter => (3, 3),
        TemplateValueParameter => (5, 5),
        GlobalVariable => (11, 11),
        LocalVariable => (9, 10),
        Expression => (1, usize::MAX),
        ObjCProperty => (8, 8),
        ImportedEntity => (6, 6),
        Module => (6, 6),
    })
}

/// Which fields of a specialized node are metadata references, stored as
/// ID + 1 (0: null). Field 0 is the distinct flag. METADATA_LOCATION's scope
/// (field 3) is stored as the plain ID: see [`DebugNode::metadata_refs`].
fn ref_fields(kind: DebugNodeKind) -> &'static [usize] {
    use DebugNodeKind::*;
    match kind {
        Location => &[4],
        GenericDebug => &[3],
        Subrange => &[],
        Enumerator => &[2],
        BasicType => &[2],
        File => &[1, 2],
        DerivedType => &[2, 3, 5, 6, 11],
        CompositeType => &[2, 3, 5, 6, 11, 13, 14, 15],
        SubroutineType => &[2],
        CompileUnit => &[2, 3, 5, 7, 9, 10, 11, 12, 13],
        Subprogram => &[1, 2, 3, 4, 6, 10, 15, 16, 17, 18],
        LexicalBlock => &[1, 2],
        LexicalBlockFile => &[1, 2],
        Namespace => &[1, 2, 3],
        TemplateTypeParameter => &[1, 2],
        TemplateValueParameter => &[2, 3, 4],
        GlobalVariable => &[1, 2, 3, 4, 6, 9, 10],
        // LLVM 3.7 ignores the obsolete tenth field (inlinedAt).
        LocalVariable => &[2, 3, 4, 6],
        Expression => &[],
        ObjCProperty => &[1, 2, 4, 5, 7],
        ImportedEntity => &[2, 3, 5],
        Module => &[1, 2, 3, 4, 5],
    }
}

impl DebugNode {
    /// The metadata this node refers to, in field order (null references
    /// left out), by the LLVM 3.7 record layout. GENERIC_DEBUG's operands
    /// from field 4 on are included.
    pub fn metadata_refs(&self) -> Vec<MetadataId> {
        let mut out = Vec::new();
        self.each_ref(|id| out.push(id));
        out
    }

    fn each_ref(&self, mut f: impl FnMut(MetadataId)) {
        if self.kind == DebugNodeKind::Location {
            if let Some(&scope) = self.fields.get(3) {
                f(MetadataId(scope as u32));
            }
        }
        for &i in ref_fields(self.kind) {
            if let Some(&v) = self.fields.get(i) {
                if v != 0 {
                    f(MetadataId((v - 1) as u32));
                }
            }
        }
        if self.kind == DebugNodeKind::GenericDebug {
            for &v in self.fields.iter().skip(4) {
                if v != 0 {
                    f(MetadataId((v - 1) as u32));
                }
            }
        }
    }
}

/// Where the metadata of a block goes and how its IDs are numbered.
pub(crate) struct MdTarget<'t> {
    /// The list the block appends to.
    pub list: &'t mut Vec<Metadata>,
    /// The ID of `list[0]`.
    pub base: u32,
    /// Metadata IDs referred to before being defined, with the first
    /// reference's bit offset.
    pub forward: &'t mut ForwardMax,
    /// Value IDs that METADATA_VALUE records refer to, with their types and
    /// the bit offsets (checked by the caller).
    pub values: &'t mut Vec<(ValueId, TypeId, u64)>,
    /// Named metadata (module level only).
    pub named: Option<&'t mut Vec<NamedMetadata>>,
}

impl MdTarget<'_> {
    fn next_id(&self) -> u32 {
        self.base.saturating_add(self.list.len() as u32)
    }

    fn md_ref(&mut self, r: &Record<'_>, id: u64) -> Result<MetadataId> {
        let id = u32_field(r, id, "metadata ID out of range")?;
        if id >= self.next_id() {
            self.forward.note(id, r.bit_offset);
        }
        Ok(MetadataId(id))
    }
}

impl Reader {
    pub(crate) fn module_metadata(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        let mut list = std::mem::take(&mut self.module.metadata);
        let mut named = std::mem::take(&mut self.module.named_metadata);
        let mut forward = std::mem::take(&mut self.md_forward);
        let mut values = Vec::new();
        let result = self.read_metadata(
            stream,
            MdTarget {
                list: &mut list,
                base: 0,
                forward: &mut forward,
                values: &mut values,
                named: Some(&mut named),
            },
        );
        self.module.metadata = list;
        self.module.named_metadata = named;
        self.md_forward = forward;
        result?;
        for (value, ty, at) in values {
            let declared = self.value_types.get(value.index()).copied().flatten();
            match declared {
                Some(t) if t == ty => {}
                Some(_) => {
                    return Err(BitcodeError {
                        bit_offset: at,
                        kind: BitcodeErrorKind::InvalidModule {
                            reason: "metadata value of a type other than the value's",
                        },
                    })
                }
                None if value.index() < self.module.values.len() => {}
                None => {
                    return Err(BitcodeError {
                        bit_offset: at,
                        kind: BitcodeErrorKind::Unresolved {
                            what: "value",
                            id: u64::from(value.0),
                        },
                    })
                }
            }
        }
        Ok(())
    }

    /// METADATA_KIND_BLOCK (LLVM 3.9+ writers put the kinds there).
    pub(crate) fn metadata_kind_block(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        if !self.options.metadata_kinds {
            return stream.skip_block();
        }
        let mut kinds = std::mem::take(&mut self.module.metadata_kinds);
        let result = super::flat_block(stream, |r| {
            if r.code == code::KIND {
                kind_record(r, &mut kinds)?;
            }
            Ok(())
        });
        self.module.metadata_kinds = kinds;
        result
    }

    /// Reads a METADATA block into `target`.
    pub(crate) fn read_metadata(
        &mut self,
        stream: &mut StreamReader<'_>,
        mut target: MdTarget<'_>,
    ) -> Result<()> {
        let mut fields = Vec::new();
        let modern = self.module.version >= 2;
        let debug_fields = self.options.debug_info || modern;
        let read_kinds = self.options.metadata_kinds;
        // The records whose fields are read as numbers: not the string
        // records (they read their characters), not the debug-info nodes
        // whose fields are dropped.
        let wanted = |c: u32| match c {
            code::NAME | code::KIND | code::STRING => false,
            c => debug_fields || DebugNodeKind::from_code(c).is_none(),
        };
        let mut pending_name: Option<(Vec<u8>, u64)> = None;
        let mut kinds = std::mem::take(&mut self.module.metadata_kinds);
        // The defining record of each module-level ID, when asked for: the
        // IDs a record added are given its offset when the next one starts.
        let mut offsets = match self.md_offsets.take() {
            Some(offsets) if target.base == 0 => Some(offsets),
            other => {
                self.md_offsets = other;
                None
            }
        };
        let mut last_offset = 0;
        let result = super::flat_block_with(stream, &mut fields, wanted, |r, f| {
            if let Some(offsets) = offsets.as_mut() {
                offsets.resize(target.list.len(), last_offset);
                last_offset = r.bit_offset;
            }
            if let Some((name, _)) = pending_name.take() {
                if r.code != code::NAMED_NODE {
                    return Err(invalid(r, "METADATA_NAME not followed by NAMED_NODE"));
                }
                let mut operands = Vec::with_capacity(f.len());
                for &v in f {
                    operands.push(target.md_ref(r, v)?);
                }
                match target.named.as_deref_mut() {
                    Some(named) => named.push(NamedMetadata { name, operands }),
                    None => return Err(invalid(r, "named metadata inside a function")),
                }
                return Ok(());
            }
            let skip_fields = !debug_fields && DebugNodeKind::from_code(r.code).is_some();
            if skip_fields {
                if let Some(kind) = DebugNodeKind::from_code(r.code) {
                    target.list.push(Metadata::Debug(DebugNode {
                        kind,
                        distinct: false,
                        fields: Vec::new(),
                    }));
                }
                return Ok(());
            }
            let md = match r.code {
                code::NAME => {
                    pending_name = Some((string_field(r, 0)?, r.bit_offset));
                    return Ok(());
                }
                code::KIND if !read_kinds => return Ok(()),
                code::KIND => return kind_record(r, &mut kinds),
                code::STRING => Metadata::String(upgrade_md_string(string_field(r, 0)?)),
                code::STRINGS => return strings_record(r, f, target.list),
                code::VALUE => {
                    if f.len() != 2 {
                        return Err(invalid(r, "VALUE takes two fields"));
                    }
                    let ty = self.type_id(r, f[0])?;
                    if matches!(self.ty(ty), Type::Metadata | Type::Void) {
                        return Err(invalid(r, "metadata value of type void or metadata"));
                    }
                    let value = ValueId(u32_field(r, f[1], "value ID out of range")?);
                    target.values.push((value, ty, r.bit_offset));
                    Metadata::Value { ty, value }
                }
                code::NODE | code::DISTINCT_NODE => {
                    let mut operands = Vec::with_capacity(f.len());
                    for &v in f {
                        operands.push(if v == 0 {
                            None
                        } else {
                            Some(target.md_ref(r, v - 1)?)
                        });
                    }
                    Metadata::Node {
                        distinct: r.code == code::DISTINCT_NODE,
                        operands,
                    }
                }
                code::OLD_NODE | code::OLD_FN_NODE => {
                    return Err(invalid(r, "the pre-3.6 metadata node form"))
                }
                c => match DebugNodeKind::from_code(c) {
                    Some(kind) => {
                        let (min, max) = match field_count(kind) {
                            Some(_) if modern => (1, usize::MAX),
                            Some(range) => range,
                            None => (1, usize::MAX),
                        };
                        if f.len() < min || f.len() > max {
                            return Err(invalid(r, "wrong field count for a debug-info node"));
                        }
                        let node = DebugNode {
                            kind,
                            distinct: f[0] != 0,
                            fields: f.to_vec(),
                        };
                        // Later writers lay the fields out differently.
                        if !modern {
                            let mut err = Ok(());
                            node.each_ref(|id| {
                                if err.is_ok() {
                                    err = target.md_ref(r, u64::from(id.0)).map(|_| ());
                                }
                            });
                            err?;
                        }
                        Metadata::Debug(node)
                    }
                    // Later writers' records: those that define an ID get one.
                    None if modern && defines_id(c) => Metadata::Unknown {
                        code: c,
                        fields: f.to_vec(),
                    },
                    // LLVM 3.7 ignores other records.
                    None => return Ok(()),
                },
            };
            target.list.push(md);
            Ok(())
        });
        self.module.metadata_kinds = kinds;
        if let Some(mut offsets) = offsets {
            offsets.resize(target.list.len(), last_offset);
            self.md_offsets = Some(offsets);
        }
        result?;
        if let Some((_, at)) = pending_name {
            return Err(BitcodeError {
                bit_offset: at,
                kind: BitcodeErrorKind::InvalidModule {
                    reason: "METADATA_NAME at the end of its block",
                },
            });
        }
        Ok(())
    }
}

/// Whether a record of a later writer (not one LLVM 3.7 knows) defines a
/// metadata ID: all but the attachment, index and declaration-attachment
/// records.
fn defines_id(code: u32) -> bool {
    !matches!(code, 11 | 36 | 38 | 39)
}

fn kind_record(r: &Record<'_>, kinds: &mut Vec<MetadataKind>) -> Result<()> {
    let id = r
        .values()
        .next()
        .ok_or_else(|| invalid(r, "too few fields"))?;
    let id = u32_field(r, id, "metadata kind ID out of range")?;
    let name = string_field(r, 1)?;
    if kinds.iter().any(|k| k.id == id) {
        return Err(invalid(r, "conflicting METADATA_KIND records"));
    }
    kinds.push(MetadataKind { id, name });
    Ok(())
}

/// LLVM's `UpgradeMDStringConstant`: the old loop-vectorizer names.
fn upgrade_md_string(s: Vec<u8>) -> Vec<u8> {
    const OLD: &[u8] = b"llvm.vectorizer.";
    if s == b"llvm.vectorizer.unroll" {
        return b"llvm.loop.interleave.count".to_vec();
    }
    if let Some(rest) = s.strip_prefix(OLD) {
        let mut out = b"llvm.loop.vectorize.".to_vec();
        out.extend_from_slice(rest);
        return out;
    }
    s
}

/// METADATA_STRINGS (LLVM 4+): `[count, offset of the characters]` and a
/// blob of `count` VBR6 lengths followed by the characters.
fn strings_record(r: &Record<'_>, f: &[u64], list: &mut Vec<Metadata>) -> Result<()> {
    let (Some(&count), Some(&offset), Some(blob)) = (f.first(), f.get(1), r.blob()) else {
        return Err(invalid(r, "STRINGS without its count, offset or blob"));
    };
    let offset = usize::try_from(offset)
        .ok()
        .filter(|&o| o <= blob.len())
        .ok_or_else(|| invalid(r, "STRINGS offset past the blob"))?;
    let chars = &blob[offset..];
    let mut lengths = BitReader::new(blob, 0, offset as u64 * 8);
    let mut at = 0usize;
    for _ in 0..count {
        let len = lengths
            .read_vbr(6, "string length")
            .map_err(|_| invalid(r, "STRINGS lengths run past their area"))?;
        let s = usize::try_from(len)
            .ok()
            .and_then(|len| chars.get(at..at.checked_add(len)?))
            .ok_or_else(|| invalid(r, "a string runs past the STRINGS blob"))?;
        list.push(Metadata::String(s.to_vec()));
        at += s.len();
    }
    Ok(())
}
