//! The Level9 part of a listing: the Aon9 (XNAS, XNAP) mapping tables that
//! tell the feature-level-9 runtime where the DX10+ constant buffers,
//! samplers and runtime constants go in the DX9 program, then the DX9
//! program itself ([`crate::listing::dxbc::sm2`]).
//!
//! Entry layouts (all little-endian, offsets from the [`Level9Shader`]
//! header's table locations; facts from fxc output and DXDecompiler, MIT):
//! constant buffer 12 bytes (`u16 buffer, start register, register count,
//! target register`, four `u8` data conversions 0 FLT 1 BOOL 2 INT 3 UINT);
//! loop register 8 bytes (`u16 buffer, source register, component, target
//! register`); sampler 4 bytes (`u8 source resource, source sampler, target
//! sampler, 0`), printed sorted by target; runtime constant 4 bytes
//! (`u16 description, target register`, 0 = vertex shader position offset).

use crate::aon9::Level9Shader;
use crate::container::Part;
use crate::cursor::{Cursor, Records};
use crate::error::Result;
use crate::listing::dxbc::sm2::Sm2Program;
use crate::listing::dxbc::ListingOptions;
use std::fmt::Write;

/// A constant-buffer range copied into DX9 float constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConstantBufferMapping {
    /// Constant buffer slot.
    pub buffer: u16,
    /// First register in the buffer.
    pub start_register: u16,
    /// Number of registers.
    pub register_count: u16,
    /// First DX9 `c` register.
    pub target_register: u16,
    /// Conversion per component (0 FLT, 1 BOOL, 2 INT, 3 UINT).
    pub conversion: [u8; 4],
}

/// A constant-buffer component copied into a DX9 integer (loop) register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopRegisterMapping {
    /// Constant buffer slot.
    pub buffer: u16,
    /// Register in the buffer.
    pub source_register: u16,
    /// Component of that register.
    pub component: u16,
    /// DX9 `i` register.
    pub target_register: u16,
}

/// A sampler/resource pair bound to a DX9 sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplerMapping {
    /// DX10+ resource slot (`t`).
    pub source_resource: u8,
    /// DX10+ sampler slot (`s`).
    pub source_sampler: u8,
    /// DX9 sampler (`s`).
    pub target_sampler: u8,
}

/// A constant the runtime fills in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeConstantMapping {
    /// What the runtime writes (0: vertex shader position offset).
    pub description: u16,
    /// DX9 `c` register.
    pub target_register: u16,
}

/// A decoded Level9 part with its tables and program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level9Listing<'data> {
    /// The part header.
    pub header: Level9Shader,
    /// Constant-buffer mappings in file order.
    pub constant_buffers: Vec<ConstantBufferMapping>,
    /// Loop-register mappings in file order.
    pub loop_registers: Vec<LoopRegisterMapping>,
    /// Sampler mappings in file order.
    pub samplers: Vec<SamplerMapping>,
    /// Runtime constant mappings in file order.
    pub runtime_constants: Vec<RuntimeConstantMapping>,
    /// The DX9 program.
    pub program: Sm2Program<'data>,
}

impl<'data> Level9Listing<'data> {
    /// Decodes an Aon9, XNAS or XNAP part.
    pub fn parse(part: &Part<'data>) -> Result<Level9Listing<'data>> {
        Self::parse_inner(part).map_err(|e| e.in_part(part.part_ref()))
    }

    fn parse_inner(part: &Part<'data>) -> Result<Level9Listing<'data>> {
        let header = Level9Shader::parse_data(part.name, part.data, part.data_offset())?;
        let c = Cursor::new(part.data, part.data_offset());
        let table = |index: usize, entry: u64| -> Result<Records<'data>> {
            let m = header.mappings[index];
            c.records(
                u64::from(m.offset),
                u64::from(m.count),
                entry,
                "Aon9 mapping table",
            )
        };
        let mut constant_buffers = Vec::new();
        for (_, cb) in table(0, 12)? {
            let mut p = 0;
            let what = "Aon9 constant buffer mapping";
            constant_buffers.push(ConstantBufferMapping {
                buffer: cb.take_u16(&mut p, what)?,
                start_register: cb.take_u16(&mut p, what)?,
                register_count: cb.take_u16(&mut p, what)?,
                target_register: cb.take_u16(&mut p, what)?,
                conversion: cb.array(p, what)?,
            });
        }
        let mut loop_registers = Vec::new();
        for (_, lr) in table(1, 8)? {
            let mut p = 0;
            let what = "Aon9 loop register mapping";
            loop_registers.push(LoopRegisterMapping {
                buffer: lr.take_u16(&mut p, what)?,
                source_register: lr.take_u16(&mut p, what)?,
                component: lr.take_u16(&mut p, what)?,
                target_register: lr.take_u16(&mut p, what)?,
            });
        }
        let mut samplers = Vec::new();
        for (_, sm) in table(3, 4)? {
            let what = "Aon9 sampler mapping";
            samplers.push(SamplerMapping {
                source_resource: sm.u8(0, what)?,
                source_sampler: sm.u8(1, what)?,
                target_sampler: sm.u8(2, what)?,
            });
        }
        let mut runtime_constants = Vec::new();
        for (_, rc) in table(4, 4)? {
            let mut p = 0;
            let what = "Aon9 runtime constant mapping";
            runtime_constants.push(RuntimeConstantMapping {
                description: rc.take_u16(&mut p, what)?,
                target_register: rc.take_u16(&mut p, what)?,
            });
        }
        let program_c = c.sub(
            u64::from(header.program_offset),
            u64::from(header.program_size),
            "Aon9 program",
        )?;
        let program = Sm2Program::parse(program_c.data(), program_c.base())?;
        Ok(Level9Listing {
            header,
            constant_buffers,
            loop_registers,
            samplers,
            runtime_constants,
            program,
        })
    }

    /// Writes the mapping tables, the bytecode heading and the DX9 listing.
    pub fn write(&self, options: &ListingOptions, out: &mut String) {
        if !self.constant_buffers.is_empty() || !self.loop_registers.is_empty() {
            out.push_str("// Constant buffer to DX9 shader constant mappings:\n//\n");
            if !self.loop_registers.is_empty() {
                out.push_str("// Target Reg Buffer  Source Reg Component\n");
                out.push_str("// ---------- ------- ---------- ---------\n");
                for m in &self.loop_registers {
                    let _ = writeln!(
                        out,
                        "// {:<10} {:<7} {:>10} {:>9}",
                        format!("i{}", m.target_register),
                        format!("cb{}", m.buffer),
                        m.source_register,
                        m.component
                    );
                }
                out.push_str("//\n");
            }
            if !self.constant_buffers.is_empty() {
                out.push_str("// Target Reg Buffer  Start Reg # of Regs        Data Conversion\n");
                out.push_str("// ---------- ------- --------- --------- ----------------------\n");
                for m in &self.constant_buffers {
                    let conv: Vec<String> = m
                        .conversion
                        .iter()
                        .map(|c| format!("{:>4}", conversion_name(*c)))
                        .collect();
                    let _ = writeln!(
                        out,
                        "// {:<10} {:<7} {:>9} {:>9}  ({})",
                        format!("c{}", m.target_register),
                        format!("cb{}", m.buffer),
                        m.start_register,
                        m.register_count,
                        conv.join(",")
                    );
                }
                out.push_str("//\n");
            }
            out.push_str("//\n");
        }
        if !self.samplers.is_empty() {
            out.push_str("// Sampler/Resource to DX9 shader sampler mappings:\n//\n");
            out.push_str("// Target Sampler Source Sampler  Source Resource\n");
            out.push_str("// -------------- --------------- ----------------\n");
            let mut sorted = self.samplers.clone();
            sorted.sort_by_key(|s| s.target_sampler);
            for m in &sorted {
                let _ = writeln!(
                    out,
                    "// {:<14} {:<15} {:<17}",
                    format!("s{}", m.target_sampler),
                    format!("s{}", m.source_sampler),
                    format!("t{}", m.source_resource)
                );
            }
            out.push_str("//\n//\n");
        }
        if !self.runtime_constants.is_empty() {
            out.push_str("// Runtime generated constant mappings:\n//\n");
            out.push_str("// Target Reg                               Constant Description\n");
            out.push_str("// ---------- --------------------------------------------------\n");
            for m in &self.runtime_constants {
                let _ = writeln!(
                    out,
                    "// {:<10} {:>50}",
                    format!("c{}", m.target_register),
                    runtime_constant_name(m.description)
                );
            }
            out.push_str("//\n//\n");
        }
        let heading = match &self.header.part.0 {
            b"XNAS" => "XNA shader bytecode",
            b"XNAP" => "XNA Prepass shader bytecode",
            _ => "Level9 shader bytecode",
        };
        let _ = writeln!(out, "// {heading}:\n//");
        self.program.write_listing(options, out);
    }
}

/// The spelling of a constant-buffer data conversion.
pub fn conversion_name(code: u8) -> String {
    match code {
        0 => "FLT".into(),
        1 => "BOOL".into(),
        2 => "INT".into(),
        3 => "UINT".into(),
        other => format!("?{other}"),
    }
}

/// The description of a runtime constant.
pub fn runtime_constant_name(code: u16) -> String {
    match code {
        0 => "Vertex Shader position offset".into(),
        other => format!("Unknown runtime constant {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::Container;
    use crate::error::ReadErrorKind;
    use crate::listing::dxbc::sm2::build::program;
    use crate::testutil::build;

    fn words(out: &mut Vec<u8>, values: &[u32]) {
        for v in values {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// An Aon9 part: two constant-buffer mappings, one loop register, two
    /// samplers (stored out of order), one runtime constant, a vs_2_0 program.
    fn aon9(program_bytes: &[u8]) -> Vec<u8> {
        let mut d = Vec::new();
        let total = 80 + program_bytes.len() as u32;
        words(
            &mut d,
            &[total, 0xfffe_0200, program_bytes.len() as u32, 80],
        );
        for (count, offset) in [(2u16, 36u16), (1, 60), (0, 68), (2, 68), (1, 76)] {
            d.extend_from_slice(&count.to_le_bytes());
            d.extend_from_slice(&offset.to_le_bytes());
        }
        for (buffer, start, count, target, conv) in [
            (0u16, 3u16, 5u16, 2u16, [0u8, 0, 0, 0]),
            (1, 0, 1, 7, [0, 1, 2, 3]),
        ] {
            for v in [buffer, start, count, target] {
                d.extend_from_slice(&v.to_le_bytes());
            }
            d.extend_from_slice(&conv);
        }
        for v in [1u16, 4, 1, 2] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        d.extend_from_slice(&[3, 1, 1, 0, 0, 0, 0, 0]);
        d.extend_from_slice(&[0, 0, 0, 0]);
        d.extend_from_slice(program_bytes);
        d
    }

    fn vs_program() -> Vec<u8> {
        // dcl_texcoord v0; mov oPos, v0
        program(
            0xfffe_0200,
            &[],
            &[
                0x0200_001f,
                0x8000_0005,
                0x900f_0000,
                0x0200_0001,
                0xc00f_0000,
                0x90e4_0000,
            ],
        )
    }

    #[test]
    fn prints_tables_and_program() {
        let file = build(&[(b"Aon9", &aon9(&vs_program()))]);
        let container = Container::parse(&file).unwrap();
        let listing =
            Level9Listing::parse(&container.find(crate::PartName(*b"Aon9")).unwrap()).unwrap();
        assert_eq!(listing.constant_buffers[1].conversion, [0, 1, 2, 3]);
        assert_eq!(listing.samplers[0].target_sampler, 1);
        let mut out = String::new();
        listing.write(&Default::default(), &mut out);
        assert_eq!(
            out,
            "// Constant buffer to DX9 shader constant mappings:\n\
             //\n\
             // Target Reg Buffer  Source Reg Component\n\
             // ---------- ------- ---------- ---------\n\
             // i2         cb1              4         1\n\
             //\n\
             // Target Reg Buffer  Start Reg # of Regs        Data Conversion\n\
             // ---------- ------- --------- --------- ----------------------\n\
             // c2         cb0             3         5  ( FLT, FLT, FLT, FLT)\n\
             // c7         cb1             0         1  ( FLT,BOOL, INT,UINT)\n\
             //\n\
             //\n\
             // Sampler/Resource to DX9 shader sampler mappings:\n\
             //\n\
             // Target Sampler Source Sampler  Source Resource\n\
             // -------------- --------------- ----------------\n\
             // s0             s0              t0               \n\
             // s1             s1              t3               \n\
             //\n\
             //\n\
             // Runtime generated constant mappings:\n\
             //\n\
             // Target Reg                               Constant Description\n\
             // ---------- --------------------------------------------------\n\
             // c0                              Vertex Shader position offset\n\
             //\n\
             //\n\
             // Level9 shader bytecode:\n\
             //\n\
             \x20   vs_2_0\n\
             \x20   dcl_texcoord v0\n\
             \x20   mov oPos, v0\n\
             \n\
             // approximately 1 instruction slot used\n"
        );
    }

    #[test]
    fn tables_past_the_part_are_errors() {
        let mut data = aon9(&vs_program());
        data[16..18].copy_from_slice(&500u16.to_le_bytes()); // 500 cb mappings
        let file = build(&[(b"Aon9", &data)]);
        let container = Container::parse(&file).unwrap();
        let part = container.find(crate::PartName(*b"Aon9")).unwrap();
        let e = Level9Listing::parse(&part).unwrap_err();
        assert!(
            matches!(e.kind, ReadErrorKind::Truncated { part: Some(_), .. }),
            "{e}"
        );
        assert_eq!(e.offset, part.data_offset() + 36);
        // A program token stream without an end token.
        let mut program_bytes = vs_program();
        program_bytes.truncate(program_bytes.len() - 4);
        let file = build(&[(b"Aon9", &aon9(&program_bytes))]);
        let container = Container::parse(&file).unwrap();
        let part = container.find(crate::PartName(*b"Aon9")).unwrap();
        let e = Level9Listing::parse(&part).unwrap_err();
        assert_eq!(
            e.offset,
            part.data_offset() + 80 + program_bytes.len() as u64
        );
    }
}
