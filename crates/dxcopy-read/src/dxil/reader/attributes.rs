//! Attribute groups and attribute lists: PARAMATTR_GROUP_BLOCK and PARAMATTR_BLOCK.

use super::*;

impl Reader {
    pub(super) fn attribute_group_block(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        if !self.options.attributes {
            return stream.skip_block();
        }
        let mut fields = Vec::new();
        let groups = &mut self.module.attribute_groups;
        flat_block_with(
            stream,
            &mut fields,
            |code| code == 3,
            |r, f| {
                if r.code != 3 {
                    return Ok(());
                }
                if f.len() < 3 {
                    return Err(invalid(r, "too few fields"));
                }
                let id = u32_field(r, f[0], "attribute group ID out of range")?;
                let index = u32_field(r, f[1], "attribute index out of range")?;
                let mut attributes = Vec::new();
                let mut i = 2;
                while i < f.len() {
                    let encoding = f[i];
                    i += 1;
                    match encoding {
                        0 => {
                            let kind = known_kind(r, f.get(i).copied())?;
                            attributes.push(Attribute::Enum(kind));
                            i += 1;
                        }
                        1 => {
                            let kind = known_kind(r, f.get(i).copied())?;
                            i += 1;
                            // LLVM 3.7 reads a value only for these four kinds.
                            if matches!(kind.0, 1 | 25 | 41 | 42) {
                                let value = *f
                                    .get(i)
                                    .ok_or_else(|| invalid(r, "attribute without value"))?;
                                attributes.push(Attribute::Int(kind, value));
                                i += 1;
                            } else {
                                attributes.push(Attribute::Enum(kind));
                            }
                        }
                        3 | 4 => {
                            let (key, next) = c_string(r, f, i)?;
                            i = next;
                            let value = if encoding == 4 {
                                let (value, next) = c_string(r, f, i)?;
                                i = next;
                                Some(value)
                            } else {
                                None
                            };
                            attributes.push(Attribute::String { key, value });
                        }
                        _ => return Err(invalid(r, "unknown attribute encoding")),
                    }
                }
                groups.push(AttributeGroup {
                    id,
                    index,
                    attributes,
                });
                Ok(())
            },
        )
    }

    pub(super) fn attribute_block(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        if !self.options.attributes {
            return stream.skip_block();
        }
        let mut fields = Vec::new();
        let lists = &mut self.module.attribute_lists;
        flat_block_with(
            stream,
            &mut fields,
            |code| code == 2,
            |r, f| {
                match r.code {
                    2 => {
                        let mut groups = Vec::with_capacity(f.len());
                        for &v in f {
                            groups.push(u32_field(r, v, "attribute group ID out of range")?);
                        }
                        lists.push(AttributeList { groups });
                    }
                    1 => return Err(invalid(r, "the pre-3.3 PARAMATTR_CODE_ENTRY_OLD form")),
                    _ => {}
                }
                Ok(())
            },
        )
    }

    // ------------------------------------------------------------ module records
}
