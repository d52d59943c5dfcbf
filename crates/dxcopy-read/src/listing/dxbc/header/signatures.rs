//! The `// Input signature:` / `// Output signature:` / `// Patch Constant
//! signature:` tables of a listing, printed from the decoded signature parts
//! ([`crate::signature`]).
//!
//! Columns: semantic name (prefixed `m<stream>:` when any element of the part
//! has a non-zero stream), index, mask, register, system value, format (the
//! minimum precision when there is one) and the used components. For inputs
//! the part's read/write mask says which components are always read; for
//! outputs (and the patch constants a hull shader writes) it says which are
//! never written, so the printed value is its complement. Elements without a
//! register (`SV_Depth`, `SV_Coverage`, …) print `N/A`, the register name and
//! `YES`/`NO`.

use crate::signature::{Signature, SignatureElement};
use crate::stage::ShaderKind;
use std::fmt::Write;

/// Which table a signature part fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureRole {
    /// ISGN / ISG1.
    Input,
    /// OSGN / OSG5 / OSG1.
    Output,
    /// PCSG / PSG1.
    PatchConstant,
}

/// The system-value column spelling of a `D3D_NAME`.
pub fn system_value_name(code: u32) -> String {
    match code {
        0 => "NONE",
        1 => "POS",
        2 => "CLIPDST",
        3 => "CULLDST",
        4 => "RTINDEX",
        5 => "VPINDEX",
        6 => "VERTID",
        7 => "PRIMID",
        8 => "INSTID",
        9 => "FFACE",
        10 => "SAMPLE",
        11 => "QUADEDGE",
        12 => "QUADINT",
        13 => "TRIEDGE",
        14 => "TRIINT",
        15 => "LINEDET",
        16 => "LINEDEN",
        23 => "BARYCEN",
        24 => "SHDINGRATE",
        25 => "CULLPRIM",
        64 => "TARGET",
        65 => "DEPTH",
        66 => "COVERAGE",
        67 => "DEPTHGE",
        68 => "DEPTHLE",
        69 => "STENCILREF",
        70 => "INNERCOVERAGE",
        other => return format!("{other}"),
    }
    .to_string()
}

/// The format column spelling of a register component type.
pub fn component_type_name(code: u32) -> String {
    match code {
        0 => "unknown",
        1 => "uint",
        2 => "int",
        3 => "float",
        4 => "uint16",
        5 => "int16",
        6 => "fp16",
        7 => "uint64",
        8 => "int64",
        9 => "double",
        other => return format!("{other}"),
    }
    .to_string()
}

fn min_precision_name(code: u32) -> Option<&'static str> {
    match code {
        1 => Some("min16f"),
        2 => Some("min2_8f"),
        3 => Some("min12i"),
        4 => Some("min16i"),
        5 => Some("min16u"),
        _ => None,
    }
}

fn mask_text(mask: u8) -> String {
    ['x', 'y', 'z', 'w']
        .iter()
        .enumerate()
        .map(|(i, c)| if mask & (1 << i) != 0 { *c } else { ' ' })
        .collect()
}

/// The system value a pixel-shader output prints when the part stores 0:
/// the reflection layer names render targets and the register-less outputs.
fn effective_system_value(
    e: &SignatureElement<'_>,
    role: SignatureRole,
    stage: Option<ShaderKind>,
) -> u32 {
    let code = e.system_value.raw();
    if code != 0 || role != SignatureRole::Output || stage != Some(ShaderKind::Pixel) {
        return code;
    }
    if e.register != u32::MAX {
        return 64;
    }
    match e.name_lossy().to_ascii_uppercase().as_str() {
        "SV_DEPTH" => 65,
        "SV_COVERAGE" => 66,
        "SV_DEPTHGREATEREQUAL" => 67,
        "SV_DEPTHLESSEQUAL" => 68,
        "SV_STENCILREF" => 69,
        _ => 0,
    }
}

fn registerless_name(e: &SignatureElement<'_>, system_value: u32) -> String {
    match e.name_lossy().to_ascii_uppercase().as_str() {
        "SV_DEPTH" => "oDepth",
        "SV_DEPTHGREATEREQUAL" => "oDepthGE",
        "SV_DEPTHLESSEQUAL" => "oDepthLE",
        "SV_COVERAGE" => "oMask",
        "SV_STENCILREF" => "oStencilRef",
        _ if system_value == 7 => "primID",
        _ => "special",
    }
    .to_string()
}

/// Writes one signature table (heading, columns, rows, closing line).
pub fn write_signature(
    signature: &Signature<'_>,
    role: SignatureRole,
    stage: Option<ShaderKind>,
    format_width: usize,
    out: &mut String,
) {
    let (heading, empty) = match role {
        SignatureRole::Input => ("Input signature", Some("// no Input")),
        SignatureRole::Output => ("Output signature", Some("// no Output")),
        SignatureRole::PatchConstant => ("Patch Constant signature", None),
    };
    let _ = writeln!(out, "// {heading}:\n//");
    // The Format column is 7 wide, 6 in fxc 9.29 (`SysValue Format`).
    let _ = writeln!(
        out,
        "// Name                 Index   Mask Register SysValue {:>format_width$}   Used",
        "Format"
    );
    let _ = writeln!(
        out,
        "// -------------------- ----- ------ -------- -------- {} ------",
        "-".repeat(format_width)
    );
    let streams = signature.elements.iter().any(|e| e.stream.unwrap_or(0) > 0);
    let inverted = match role {
        SignatureRole::Input => false,
        SignatureRole::Output => true,
        SignatureRole::PatchConstant => stage == Some(ShaderKind::Hull),
    };
    for e in &signature.elements {
        let mut name = e.name_lossy().into_owned();
        if streams {
            name = format!("m{}:{name}", e.stream.unwrap_or(0));
        }
        let used = if inverted {
            !e.rw_mask & 0xf
        } else {
            e.rw_mask
        };
        let system_value = effective_system_value(e, role, stage);
        let format = e
            .min_precision
            .and_then(|p| min_precision_name(p.raw()))
            .map(str::to_string)
            .unwrap_or_else(|| component_type_name(e.component_type.raw()));
        if e.register != u32::MAX {
            let _ = writeln!(
                out,
                "// {:<20} {:>5}   {:<4} {:>8} {:>8} {:>format_width$}   {:<4}",
                name,
                e.semantic_index,
                mask_text(e.mask),
                e.register,
                system_value_name(system_value),
                format,
                mask_text(used)
            );
        } else {
            let mut register = registerless_name(e, system_value);
            if register.len() > 8 {
                register = format!("    {register}");
            }
            let _ = writeln!(
                out,
                "// {:<20} {:>5}   {:>4}{:>9} {:>8} {:>format_width$}   {:>4}",
                name,
                e.semantic_index,
                "N/A",
                register,
                system_value_name(system_value),
                format,
                if used & 0xf == 0 { "NO" } else { "YES" }
            );
        }
    }
    if signature.elements.is_empty() {
        if let Some(line) = empty {
            out.push_str(line);
            out.push('\n');
        }
    } else {
        out.push_str("//\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signature::{ComponentType, MinPrecision, SignatureFormat, SystemValue};

    #[allow(clippy::too_many_arguments)]
    fn element(
        name: &'static str,
        index: u32,
        system_value: u32,
        component_type: u32,
        register: u32,
        mask: u8,
        rw_mask: u8,
        stream: Option<u32>,
        min_precision: Option<u32>,
    ) -> SignatureElement<'static> {
        SignatureElement {
            stream,
            name_offset: 0,
            name: name.as_bytes(),
            semantic_index: index,
            system_value: SystemValue::from_raw(system_value),
            component_type: ComponentType::from_raw(component_type),
            register,
            mask,
            rw_mask,
            min_precision: min_precision.map(MinPrecision::from_raw),
        }
    }

    fn signature(
        format: SignatureFormat,
        elements: Vec<SignatureElement<'static>>,
    ) -> Signature<'static> {
        Signature {
            format,
            param_count: elements.len() as u32,
            first_param_offset: 8,
            elements,
        }
    }

    const HEAD: &str = "// Name                 Index   Mask Register SysValue  Format   Used\n\
                        // -------------------- ----- ------ -------- -------- ------- ------\n";

    #[test]
    fn pixel_outputs() {
        let sig = signature(
            SignatureFormat::Dxil,
            vec![
                element("SV_Target", 0, 0, 3, 0, 0xf, 0, Some(0), None),
                element("SV_Target", 1, 0, 3, 1, 0x3, 0xc, Some(0), Some(1)),
                element("SV_Depth", 0, 0, 3, u32::MAX, 0x1, 0xe, Some(0), None),
                element("SV_StencilRef", 0, 0, 1, u32::MAX, 0x1, 0xf, Some(0), None),
            ],
        );
        let mut out = String::new();
        write_signature(
            &sig,
            SignatureRole::Output,
            Some(ShaderKind::Pixel),
            7,
            &mut out,
        );
        assert_eq!(
            out,
            format!(
                "// Output signature:\n//\n{HEAD}\
                 // SV_Target                0   xyzw        0   TARGET   float   xyzw\n\
                 // SV_Target                1   xy          1   TARGET  min16f   xy  \n\
                 // SV_Depth                 0    N/A   oDepth    DEPTH   float    YES\n\
                 // SV_StencilRef            0    N/A    oStencilRef STENCILREF    uint     NO\n\
                 //\n"
            )
        );
    }

    #[test]
    fn inputs_streams_and_empty_tables() {
        let sig = signature(
            SignatureFormat::Dxbc,
            vec![
                element("SV_Position", 0, 1, 3, 0, 0xf, 0x3, None, None),
                element("TEXCOORD", 2, 0, 2, 1, 0x6, 0x2, None, None),
            ],
        );
        let mut out = String::new();
        write_signature(
            &sig,
            SignatureRole::Input,
            Some(ShaderKind::Pixel),
            7,
            &mut out,
        );
        assert_eq!(
            out,
            format!(
                "// Input signature:\n//\n{HEAD}\
                 // SV_Position              0   xyzw        0      POS   float   xy  \n\
                 // TEXCOORD                 2    yz         1     NONE     int    y  \n\
                 //\n"
            )
        );
        let streams = signature(
            SignatureFormat::DxbcStream,
            vec![
                element("POS", 0, 0, 3, 0, 0xf, 0, Some(0), None),
                element("POS", 0, 0, 3, 0, 0xf, 0x1, Some(1), None),
            ],
        );
        let mut out = String::new();
        write_signature(
            &streams,
            SignatureRole::Output,
            Some(ShaderKind::Geometry),
            7,
            &mut out,
        );
        assert!(out.contains("\n// m0:POS                   0   xyzw        0     NONE   float   xyzw\n// m1:POS                   0   xyzw        0     NONE   float    yzw\n"), "{out}");
        let empty = signature(SignatureFormat::Dxbc, Vec::new());
        let mut out = String::new();
        write_signature(
            &empty,
            SignatureRole::Input,
            Some(ShaderKind::Compute),
            7,
            &mut out,
        );
        assert_eq!(out, format!("// Input signature:\n//\n{HEAD}// no Input\n"));
        // Hull shaders write their patch constants: the mask is inverted.
        let patch = signature(
            SignatureFormat::Dxbc,
            vec![element("SV_TessFactor", 0, 11, 3, 0, 0x1, 0xe, None, None)],
        );
        for (stage, used) in [
            (Some(ShaderKind::Hull), "x   "),
            (Some(ShaderKind::Domain), " yzw"),
        ] {
            let mut out = String::new();
            write_signature(&patch, SignatureRole::PatchConstant, stage, 7, &mut out);
            assert!(out.starts_with("// Patch Constant signature:\n"));
            assert!(
                out.contains(&format!("0 QUADEDGE   float   {used}\n")),
                "{out}"
            );
        }
    }
}
