//! The text view of RDEF.

use super::*;
use crate::rdef::ShaderType;

pub(super) fn write(out: &mut Out<'_>, r: &crate::rdef::ResourceDefinitions<'_>) -> io::Result<()> {
    out.field("Target", r.profile())?;
    out.field("Creator", quoted(r.creator))?;
    out.field("CompileFlags", r.compile_flags)?;
    if let Some(h) = &r.rd11 {
        out.field(
                    "RD11",
                    format_args!(
                        "header {}, cbuffer {}, binding {}, variable {}, type {}, member {}, interface slots {}",
                        h.header_size,
                        h.cbuffer_size,
                        h.binding_size,
                        h.variable_size,
                        h.type_size,
                        h.member_size,
                        h.interface_slots
                    ),
                )?;
    }
    out.open(format_args!(
        "ConstantBuffers ({}) [",
        r.constant_buffers.len()
    ))?;
    for cb in &r.constant_buffers {
        out.open(format_args!(
            "{} {} {{ // {} bytes{}",
            cb.kind,
            lossy(cb.name),
            cb.size,
            if cb.flags.bits() != 0 {
                format!(", {}", cb.flags)
            } else {
                String::new()
            }
        ))?;
        for v in &cb.variables {
            write_member(
                out,
                &v.var_type,
                v.name,
                &format!(
                    "offset {}, size {}{}",
                    v.start_offset,
                    v.size,
                    if v.flags.bits() != 0 {
                        format!(", {}", v.flags)
                    } else {
                        String::new()
                    }
                ),
                0,
            )?;
        }
        out.close("}")?;
    }
    out.close("]")?;
    out.open(format_args!("BoundResources ({}) [", r.resources.len()))?;
    for b in &r.resources {
        let mut line = format!(
            "{} {}: slot {}, count {}",
            b.input_type,
            lossy(b.name),
            b.bind_point,
            b.bind_count
        );
        if b.return_type.raw() != 0 {
            line.push_str(&format!(", {} {}", b.return_type, b.dimension));
        }
        // NumSamples holds the stride for structured buffers.
        if matches!(b.input_type.raw(), 5 | 6 | 9 | 10 | 11) {
            line.push_str(&format!(", stride {}", b.sample_count));
        } else if matches!(b.dimension.raw(), 6 | 7) && b.sample_count != u32::MAX {
            line.push_str(&format!(", {} samples", b.sample_count));
        }
        if let Some(space) = b.space {
            line.push_str(&format!(", space {space}"));
        }
        if b.flags.bits() != 0 {
            line.push_str(&format!(", {}", b.flags));
        }
        out.line(line)?;
    }
    out.close("]")?;
    Ok(())
}

/// HLSL-like spelling of a type: `float4`, `float4x4`, `uint`, a struct name.
pub(super) fn type_name(t: &ShaderType<'_>) -> String {
    if let Some(n) = t.name {
        if !n.is_empty() {
            return lossy(n).into_owned();
        }
    }
    let base = t.base_type.to_string();
    match t.class.raw() {
        1 => format!("{base}{}", t.columns),
        2 | 3 => format!("{base}{}x{}", t.rows, t.columns),
        5 => "struct".to_string(),
        _ => base,
    }
}

pub(super) fn write_member(
    out: &mut Out<'_>,
    t: &ShaderType<'_>,
    name: &[u8],
    comment: &str,
    depth: usize,
) -> io::Result<()> {
    let array = if t.elements > 0 {
        format!("[{}]", t.elements)
    } else {
        String::new()
    };
    if t.members.is_empty() || depth > 16 {
        out.line(format_args!(
            "{} {}{array}; // {comment}",
            type_name(t),
            lossy(name)
        ))
    } else {
        out.open(format_args!("{} {{", type_name(t)))?;
        for m in &t.members {
            write_member(
                out,
                &m.member_type,
                m.name,
                &format!("offset {}", m.offset),
                depth + 1,
            )?;
        }
        out.close(&format!("}} {}{array}; // {comment}", lossy(name)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names() {
        use crate::rdef::{VariableClass, VariableType};
        let mut t = ShaderType {
            offset: 0,
            class: VariableClass::from_raw(1),
            base_type: VariableType::from_raw(3),
            rows: 1,
            columns: 3,
            elements: 0,
            member_count: 0,
            name: None,
            members: Vec::new(),
        };
        assert_eq!(type_name(&t), "float3");
        t.class = VariableClass::from_raw(3);
        t.rows = 4;
        t.columns = 4;
        assert_eq!(type_name(&t), "float4x4");
        t.class = VariableClass::from_raw(0);
        t.base_type = VariableType::from_raw(19);
        assert_eq!(type_name(&t), "uint");
        t.name = Some(b"MyStruct");
        assert_eq!(type_name(&t), "MyStruct");
    }
}
