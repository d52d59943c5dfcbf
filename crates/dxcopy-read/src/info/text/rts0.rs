//! The text view of RTS0.

use super::*;

pub(super) fn write(out: &mut Out<'_>, rs: &crate::rts0::RootSignature) -> io::Result<()> {
    out.field("Version", rs.version)?;
    out.field("Flags", rs.flags)?;
    out.open(format_args!("Parameters ({}) [", rs.parameters.len()))?;
    for (i, param) in rs.parameters.iter().enumerate() {
        let payload = match &param.payload {
            crate::rts0::ParameterPayload::Constants(c) => format!(
                "{} values at b{} space {}",
                c.num_32bit_values, c.shader_register, c.register_space
            ),
            crate::rts0::ParameterPayload::Descriptor(d) => format!(
                "register {} space {}{}",
                d.shader_register,
                d.register_space,
                d.flags.map(|f| format!(", {f}")).unwrap_or_default()
            ),
            crate::rts0::ParameterPayload::Table(t) => {
                let ranges: Vec<String> = t
                    .ranges
                    .iter()
                    .map(|r| {
                        format!(
                            "{} x{} from {} space {}",
                            r.range_type,
                            r.num_descriptors as i32,
                            r.base_shader_register,
                            r.register_space
                        )
                    })
                    .collect();
                format!("table [{}]", ranges.join("; "))
            }
        };
        out.line(format_args!(
            "{i}: {} ({}): {payload}",
            param.parameter_type, param.visibility
        ))?;
    }
    out.close("]")?;
    out.open(format_args!(
        "StaticSamplers ({}) [",
        rs.static_samplers.len()
    ))?;
    for sm in &rs.static_samplers {
        out.line(format_args!(
            "s{} space {} ({}): {}, address {}/{}/{}, {}",
            sm.shader_register,
            sm.register_space,
            sm.visibility,
            sm.filter,
            sm.address_u,
            sm.address_v,
            sm.address_w,
            sm.comparison_func
        ))?;
    }
    out.close("]")?;
    Ok(())
}
