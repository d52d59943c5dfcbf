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

/// The shader stage, which decides how some values print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Pixel shader.
    Pixel,
    /// Vertex shader.
    Vertex,
    /// Geometry shader.
    Geometry,
    /// Hull shader.
    Hull,
    /// Domain shader.
    Domain,
    /// Compute shader.
    Compute,
    /// Unknown program type.
    Other,
}

impl Stage {
    /// The stage from a DXBC program version token's type (high half).
    pub fn from_program_type(program_type: u32) -> Stage {
        match program_type {
            0 => Stage::Pixel,
            1 => Stage::Vertex,
            2 => Stage::Geometry,
            3 => Stage::Hull,
            4 => Stage::Domain,
            5 => Stage::Compute,
            _ => Stage::Other,
        }
    }
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
fn effective_system_value(e: &SignatureElement<'_>, role: SignatureRole, stage: Stage) -> u32 {
    let code = e.system_value.raw();
    if code != 0 || role != SignatureRole::Output || stage != Stage::Pixel {
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
    stage: Stage,
    out: &mut String,
) {
    let (heading, empty) = match role {
        SignatureRole::Input => ("Input signature", Some("// no Input")),
        SignatureRole::Output => ("Output signature", Some("// no Output")),
        SignatureRole::PatchConstant => ("Patch Constant signature", None),
    };
    let _ = writeln!(out, "// {heading}:\n//");
    out.push_str("// Name                 Index   Mask Register SysValue  Format   Used\n");
    out.push_str("// -------------------- ----- ------ -------- -------- ------- ------\n");
    let streams = signature.elements.iter().any(|e| e.stream.unwrap_or(0) > 0);
    let inverted = match role {
        SignatureRole::Input => false,
        SignatureRole::Output => true,
        SignatureRole::PatchConstant => stage == Stage::Hull,
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
                "// {:<20} {:>5}   {:<4} {:>8} {:>8} {:>7}   {:<4}",
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
                "// {:<20} {:>5}   {:>4}{:>9} {:>8} {:>7}   {:>4}",
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
