//! The interface sections of a listing (`// Available Class Types:`,
//! `// Available Class Instances:`, `// Interface slots, N total:`), decoded
//! from fxc's IFCE part (shader model 5 dynamic shader linkage).
//!
//! IFCE layout (offsets from the part data; facts from fxc output and
//! DXDecompiler, MIT): header `u32 class instance count, class type count,
//! interface slot record count, interface slot count, (offset), class type
//! offset, interface slot record offset`, then a tag and two `u16`. Class
//! types (12 bytes: `u32 name, u16 id, u16 constant buffer stride, u16
//! texture, u16 sampler`) are followed by the class instances (16 bytes:
//! `u32 name, u16 type, u16 element count, u16 constant buffer, u16 offset,
//! u16 texture, u16 sampler`, `0xFFFF` = none). An interface slot record is 16
//! bytes: `u32 slot span, u32 count, u32 offset of count u16 type IDs, u32
//! offset of count u32 table IDs`.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::Result;
use std::fmt::Write;

crate::record::record! {
    /// The IFCE header.
    pub struct IfceHeader: "IFCE header" {
        /// Number of class instances.
        0 instance_count: u32;
        /// Number of class types.
        4 type_count: u32;
        /// Number of interface slot records.
        8 record_count: u32;
        /// Total interface slots.
        12 slot_count: u32;
        /// Not read.
        16 reserved: crate::record::Reserved<4>;
        /// Offset of the class types (the instances follow them).
        20 class_offset: u32;
        /// Offset of the interface slot records.
        24 slot_offset: u32;
    }
}

crate::record::record! {
    /// A class type record.
    pub struct ClassTypeRecord: "IFCE class type" {
        /// Name (offset in the part).
        0 name: u32;
        /// Type ID.
        4 id: u16;
        /// Constant buffer stride.
        6 constant_buffer_stride: u16;
        /// Texture slot.
        8 texture: u16;
        /// Sampler slot.
        10 sampler: u16;
    }
}

crate::record::record! {
    /// A class instance record (`0xFFFF` = none).
    pub struct ClassInstanceRecord: "IFCE class instance" {
        /// Name (offset in the part).
        0 name: u32;
        /// Index of its class type.
        4 class_type: u16;
        /// Array elements.
        6 element_count: u16;
        /// Constant buffer.
        8 constant_buffer: u16;
        /// Offset in the constant buffer (in registers).
        10 constant_buffer_offset: u16;
        /// Texture slot.
        12 texture: u16;
        /// Sampler slot.
        14 sampler: u16;
    }
}

crate::record::record! {
    /// An interface slot record.
    pub struct InterfaceSlotRecord: "IFCE interface slot" {
        /// Number of slots the record covers.
        0 slot_span: u32;
        /// Number of type IDs and of table IDs.
        4 count: u32;
        /// Offset of `count` u16 class type IDs.
        8 type_ids: u32;
        /// Offset of `count` u32 function table IDs.
        12 table_ids: u32;
    }
}

/// A class type available to the shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassType<'data> {
    /// Class name.
    pub name: &'data [u8],
    /// Type ID as stored.
    pub id: u16,
    /// Constant buffer stride.
    pub constant_buffer_stride: u16,
    /// Texture slot.
    pub texture: u16,
    /// Sampler slot.
    pub sampler: u16,
}

/// A class instance available to the shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInstance<'data> {
    /// Instance name.
    pub name: &'data [u8],
    /// Index of its class type.
    pub class_type: u16,
    /// Array elements (0 or 1 when not an array).
    pub element_count: u16,
    /// Constant buffer.
    pub constant_buffer: u16,
    /// Offset in the constant buffer (in registers).
    pub constant_buffer_offset: u16,
    /// Texture slot (`0xFFFF` = none).
    pub texture: u16,
    /// Sampler slot (`0xFFFF` = none).
    pub sampler: u16,
}

/// One interface slot record: the types and function tables that can fill it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceSlot {
    /// First slot (the sum of the spans before it).
    pub start_slot: u32,
    /// Number of slots the record covers (arrays of interfaces span several).
    pub slot_span: u32,
    /// Class type IDs.
    pub type_ids: Vec<u16>,
    /// Function table IDs, one per type ID.
    pub table_ids: Vec<u32>,
}

/// A decoded IFCE part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interfaces<'data> {
    /// Total interface slots.
    pub slot_count: u32,
    /// Class types in file order.
    pub class_types: Vec<ClassType<'data>>,
    /// Class instances in file order.
    pub class_instances: Vec<ClassInstance<'data>>,
    /// Interface slot records in file order.
    pub slots: Vec<InterfaceSlot>,
}

impl<'data> Interfaces<'data> {
    /// Decodes an IFCE part.
    pub fn parse(part: &Part<'data>) -> Result<Interfaces<'data>> {
        Self::parse_data(part.data, part.data_offset()).map_err(|e| e.in_part(part.part_ref()))
    }

    /// Decodes IFCE data located at absolute offset `base`.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<Interfaces<'data>> {
        let c = Cursor::new(data, base);
        let header = IfceHeader::read(&c, 0)?;
        let (instance_count, type_count, record_count) = (
            u64::from(header.instance_count),
            u64::from(header.type_count),
            u64::from(header.record_count),
        );
        let slot_count = header.slot_count;
        let class_offset = u64::from(header.class_offset);
        let string = |offset: u32| c.cstr(u64::from(offset), c.len(), "IFCE name");
        let types = c.records(
            class_offset,
            type_count,
            ClassTypeRecord::SIZE,
            "IFCE class types",
        )?;
        let instances = c.records(
            class_offset + type_count * ClassTypeRecord::SIZE,
            instance_count,
            ClassInstanceRecord::SIZE,
            "IFCE class instances",
        )?;
        let slot_records = c.records(
            u64::from(header.slot_offset),
            record_count,
            InterfaceSlotRecord::SIZE,
            "IFCE interface slots",
        )?;
        let mut class_types = Vec::new();
        for (_, r) in types {
            let t = ClassTypeRecord::read(&r, 0)?;
            class_types.push(ClassType {
                name: string(t.name)?,
                id: t.id,
                constant_buffer_stride: t.constant_buffer_stride,
                texture: t.texture,
                sampler: t.sampler,
            });
        }
        let mut class_instances = Vec::new();
        for (_, r) in instances {
            let i = ClassInstanceRecord::read(&r, 0)?;
            class_instances.push(ClassInstance {
                name: string(i.name)?,
                class_type: i.class_type,
                element_count: i.element_count,
                constant_buffer: i.constant_buffer,
                constant_buffer_offset: i.constant_buffer_offset,
                texture: i.texture,
                sampler: i.sampler,
            });
        }
        let mut slots = Vec::new();
        let mut start_slot = 0u32;
        for (_, r) in slot_records {
            let record = InterfaceSlotRecord::read(&r, 0)?;
            let count = u64::from(record.count);
            let type_ids = c
                .u16s(u64::from(record.type_ids), count, "IFCE type IDs")?
                .collect();
            let table_ids = c
                .u32s(u64::from(record.table_ids), count, "IFCE table IDs")?
                .collect();
            slots.push(InterfaceSlot {
                start_slot,
                slot_span: record.slot_span,
                type_ids,
                table_ids,
            });
            start_slot = start_slot.wrapping_add(record.slot_span);
        }
        Ok(Interfaces {
            slot_count,
            class_types,
            class_instances,
            slots,
        })
    }

    /// Writes the class type, class instance and interface slot tables.
    pub fn write(&self, out: &mut String) {
        out.push_str("//\n// Available Class Types:\n//\n");
        out.push_str("// Name                             ID CB Stride Texture Sampler\n");
        out.push_str("// ------------------------------ ---- --------- ------- -------\n");
        for (index, t) in self.class_types.iter().enumerate() {
            let _ = writeln!(
                out,
                "// {:<30} {:>4} {:>9} {:>7} {:>7}",
                String::from_utf8_lossy(t.name),
                index,
                t.constant_buffer_stride,
                t.texture,
                t.sampler
            );
        }
        out.push_str("//\n");
        if !self.class_instances.is_empty() {
            out.push_str("// Available Class Instances:\n//\n");
            out.push_str("// Name                        Type CB CB Offset Texture Sampler\n");
            out.push_str("// --------------------------- ---- -- --------- ------- -------\n");
            let slot = |v: u16| {
                if v == 0xffff {
                    "-".to_string()
                } else {
                    v.to_string()
                }
            };
            for i in &self.class_instances {
                let mut name = String::from_utf8_lossy(i.name).into_owned();
                if i.element_count > 1 {
                    name.push_str(&format!("[{}]", i.element_count));
                }
                let _ = writeln!(
                    out,
                    "// {:<27} {:>4} {:>2} {:>9} {:>7} {:>7}",
                    name,
                    i.class_type,
                    i.constant_buffer,
                    i.constant_buffer_offset,
                    slot(i.texture),
                    slot(i.sampler)
                );
            }
            out.push_str("//\n");
        }
        let _ = writeln!(out, "// Interface slots, {} total:", self.slot_count);
        out.push_str("//\n//             Slots\n");
        let rule = "// +----------+---------+---------------------------------------\n";
        out.push_str(rule);
        for s in &self.slots {
            let span = if s.slot_span == 1 {
                s.start_slot.to_string()
            } else {
                format!(
                    "{}-{}",
                    s.start_slot,
                    s.start_slot.wrapping_add(s.slot_span).wrapping_sub(1)
                )
            };
            let types: String = s.type_ids.iter().map(|v| format!("{v:<4} ")).collect();
            let tables: String = s.table_ids.iter().map(|v| format!("{v:<4} ")).collect();
            let _ = writeln!(out, "// | Type ID  |   {span:<5} |{types}");
            let _ = writeln!(out, "// | Table ID |         |{tables}");
            out.push_str(rule);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    fn words(out: &mut Vec<u8>, values: &[u32]) {
        for v in values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// Two class types, one class instance array, two slot records (spans 2 and 1).
    fn sample() -> Vec<u8> {
        let mut d = Vec::new();
        // header: 1 instance, 2 types, 2 records, 3 slots, (offset), types at 40, records at 84
        words(&mut d, &[1, 2, 2, 3, 0, 40, 84]);
        d.extend_from_slice(b"OSGN");
        d.extend_from_slice(&32u16.to_le_bytes());
        d.extend_from_slice(&16u16.to_le_bytes());
        assert_eq!(d.len(), 36);
        d.resize(40, 0);
        for (name, stride) in [(132u32, 1u16), (136, 2)] {
            words(&mut d, &[name]);
            for v in [0u16, stride, 0, 0] {
                d.extend_from_slice(&v.to_le_bytes());
            }
        }
        words(&mut d, &[140]);
        for v in [1u16, 2, 0, 4, 0xffff, 3] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        assert_eq!(d.len(), 80);
        d.resize(84, 0);
        words(&mut d, &[2, 2, 116, 120, 1, 1, 128, 128]);
        assert_eq!(d.len(), 116);
        for v in [0u16, 1] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        words(&mut d, &[5, 12]);
        assert_eq!(d.len(), 128);
        d.extend_from_slice(&[0, 0, 0, 0]);
        d.extend_from_slice(b"cA\0\0cB\0\0g\0");
        d
    }

    #[test]
    fn prints_class_tables_and_slots() {
        let data = sample();
        let ifce = Interfaces::parse_data(&data, 0).unwrap();
        assert_eq!(ifce.slots[1].start_slot, 2);
        let mut out = String::new();
        ifce.write(&mut out);
        assert_eq!(
            out,
            "//\n\
             // Available Class Types:\n\
             //\n\
             // Name                             ID CB Stride Texture Sampler\n\
             // ------------------------------ ---- --------- ------- -------\n\
             // cA                                0         1       0       0\n\
             // cB                                1         2       0       0\n\
             //\n\
             // Available Class Instances:\n\
             //\n\
             // Name                        Type CB CB Offset Texture Sampler\n\
             // --------------------------- ---- -- --------- ------- -------\n\
             // g[2]                           1  0         4       -       3\n\
             //\n\
             // Interface slots, 3 total:\n\
             //\n\
             //             Slots\n\
             // +----------+---------+---------------------------------------\n\
             // | Type ID  |   0-1   |0    1    \n\
             // | Table ID |         |5    12   \n\
             // +----------+---------+---------------------------------------\n\
             // | Type ID  |   2     |0    \n\
             // | Table ID |         |0    \n\
             // +----------+---------+---------------------------------------\n"
        );
    }

    #[test]
    fn counts_past_the_part_are_errors() {
        let mut data = sample();
        data[8] = 200; // 200 slot records
        let e = Interfaces::parse_data(&data, 1000).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Truncated { .. }), "{e}");
        assert_eq!(e.offset, 1084);
    }
}
