//! `// Buffer Definitions:` and `// Resource Bindings:` printed from the
//! decoded RDEF part ([`crate::rdef`]).
//!
//! Layout as Microsoft's disassembler writes it: each constant buffer as a
//! `cbuffer NAME { … }` block (tbuffers, `Resource bind info for` structured
//! buffers and `interfaces` alike) whose variables carry `// Offset:` and
//! `Size:` columns at column 40, `[unused]` when the compiler marked them
//! unused, default values as hex words, structs expanded member by member with
//! absolute offsets; then the binding table (name, type, format, dimension,
//! HLSL bind point, count; shader model 5.1 adds the resource ID column and a
//! `,spaceN` suffix and prints a zero count as `unbounded`).

use crate::rdef::{ConstantBuffer, ResourceBinding, ResourceDefinitions, ShaderType, Variable};
use std::fmt::Write;

const CLASS_SCALAR: u16 = 0;
const CLASS_VECTOR: u16 = 1;
const CLASS_MATRIX_ROWS: u16 = 2;
const CLASS_MATRIX_COLUMNS: u16 = 3;
const CLASS_STRUCT: u16 = 5;
const CLASS_INTERFACE_POINTER: u16 = 7;

/// Whether the definitions come from a shader model 5.1 compile (extra columns).
pub fn is_sm51(defs: &ResourceDefinitions<'_>) -> bool {
    (defs.major, defs.minor) >= (5, 1) || defs.resources.iter().any(|r| r.space.is_some())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The HLSL spelling of a non-struct type (`float4`, `row_major float4x4`, `uint`).
pub fn type_name(t: &ShaderType<'_>) -> String {
    let base = t.base_type.known_name().unwrap_or("unknown");
    match t.class.raw() {
        CLASS_SCALAR => base.to_string(),
        CLASS_VECTOR => format!("{base}{}", t.columns),
        CLASS_MATRIX_ROWS => format!("row_major {base}{}x{}", t.rows, t.columns),
        CLASS_MATRIX_COLUMNS => format!("{base}{}x{}", t.rows, t.columns),
        CLASS_INTERFACE_POINTER => {
            format!("interface {}", t.name.map(text).unwrap_or_default())
        }
        _ => t.name.map(text).unwrap_or_else(|| base.to_string()),
    }
}

fn indent(level: usize) -> String {
    format!("// {}", " ".repeat(level))
}

fn array_suffix(t: &ShaderType<'_>) -> String {
    if t.elements > 0 {
        format!("[{}]", t.elements)
    } else {
        String::new()
    }
}

/// Pushes the lines declaring `name` of type `t` at `level` spaces; the last
/// line is returned unterminated so the caller can append the offset columns.
fn declaration(
    t: &ShaderType<'_>,
    name: &str,
    level: usize,
    first: bool,
    base_offset: u32,
    out: &mut String,
) -> String {
    if t.class.raw() == CLASS_STRUCT {
        if !first {
            out.push_str(&indent(level));
            out.push('\n');
        }
        match t.name {
            Some(name) => {
                let _ = writeln!(out, "{}struct {}", indent(level), text(name));
            }
            None => {
                let _ = writeln!(out, "{}struct", indent(level));
            }
        }
        let _ = writeln!(out, "{}{{", indent(level));
        let _ = writeln!(out, "{}", indent(level + 4));
        // A struct member after the first gets a blank line before it, as a
        // struct variable does (fxc 10.0.10011 listings of ShadowFX).
        for (i, member) in t.members.iter().enumerate() {
            let offset = base_offset.wrapping_add(member.offset);
            let last = declaration(
                &member.member_type,
                &text(member.name),
                level + 4,
                i == 0,
                offset,
                out,
            );
            let _ = writeln!(out, "{last:<40}// Offset: {offset:>4}");
        }
        out.push_str("//\n");
        format!("{}}} {name}{};", indent(level), array_suffix(t))
    } else {
        format!(
            "{}{} {name}{};",
            indent(level),
            type_name(t),
            array_suffix(t)
        )
    }
}

fn write_variable(v: &Variable<'_>, first: bool, out: &mut String) {
    let last = declaration(&v.var_type, &text(v.name), 2, first, v.start_offset, out);
    let size = if v.size == 0 {
        "N/A".to_string()
    } else {
        v.size.to_string()
    };
    let unused = if v.flags.bits() & 2 == 0 {
        " [unused]"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "{last:<40}// Offset: {:>4} Size: {size:>5}{unused}",
        v.start_offset
    );
    if let Some(default) = v.default_value {
        out.push_str("//      = ");
        for (i, value) in crate::cursor::le_u32s(default).enumerate() {
            if i > 0 && i % 4 == 0 {
                out.push_str("\n//        ");
            }
            let _ = write!(out, "0x{value:08x} ");
        }
        out.push('\n');
    }
}

fn buffer_kind(cb: &ConstantBuffer<'_>) -> String {
    match cb.kind.raw() {
        0 => "cbuffer".into(),
        1 => "tbuffer".into(),
        2 => "interfaces".into(),
        3 => "Resource bind info for".into(),
        other => format!("cbuffer{other}"),
    }
}

/// Writes `// Buffer Definitions:` (when there are constant buffers).
pub fn write_buffer_definitions(defs: &ResourceDefinitions<'_>, out: &mut String) {
    if defs.constant_buffers.is_empty() {
        return;
    }
    out.push_str("// Buffer Definitions: \n//\n");
    for cb in &defs.constant_buffers {
        let _ = writeln!(out, "// {} {}", buffer_kind(cb), text(cb.name));
        out.push_str("// {\n//\n");
        for (i, v) in cb.variables.iter().enumerate() {
            write_variable(v, i == 0, out);
        }
        out.push_str("//\n// }\n//\n");
    }
    out.push_str("//\n");
}

fn input_type_name(r: &ResourceBinding<'_>) -> String {
    match r.input_type.raw() {
        0 => "cbuffer".into(),
        1 => "tbuffer".into(),
        2 | 5 | 7 => "texture".into(),
        3 => {
            if r.flags.bits() & 2 != 0 {
                "sampler_c".into()
            } else {
                "sampler".into()
            }
        }
        4 | 6 | 8..=11 => "UAV".into(),
        12 => "rtaccel".into(),
        13 => "feedback".into(),
        other => format!("type{other}"),
    }
}

fn format_name(r: &ResourceBinding<'_>) -> String {
    let base = match (r.return_type.raw(), r.input_type.raw()) {
        (6, 5 | 6 | 9 | 10 | 11) => "struct".to_string(),
        (6, 7 | 8) => "byte".to_string(),
        (0, _) => "NA".to_string(),
        (6, _) => "mixed".to_string(),
        (8, _) => "<continued>".to_string(),
        (code, _) => r
            .return_type
            .known_name()
            .map(str::to_string)
            .unwrap_or_else(|| format!("{code}")),
    };
    let components = ((r.flags.bits() >> 2) & 3) + 1;
    if components > 1 && base != "NA" && base != "struct" && base != "byte" {
        format!("{base}{components}")
    } else {
        base
    }
}

fn dimension_name(r: &ResourceBinding<'_>) -> String {
    match r.input_type.raw() {
        5 | 7 => return "r/o".into(),
        6 | 8 => return "r/w".into(),
        11 => return "r/w+cnt".into(),
        9 => return "append".into(),
        10 => return "consume".into(),
        _ => {}
    }
    let mut name = match r.dimension.raw() {
        0 => "NA".to_string(),
        1 | 11 => "buf".to_string(),
        2 => "1d".to_string(),
        3 => "1darray".to_string(),
        4 => "2d".to_string(),
        5 => "2darray".to_string(),
        6 => "2dMS".to_string(),
        7 => "2darrayMS".to_string(),
        8 => "3d".to_string(),
        9 => "cube".to_string(),
        10 => "cubearray".to_string(),
        other => format!("dim{other}"),
    };
    if matches!(r.dimension.raw(), 6 | 7) && r.sample_count > 0 && r.sample_count != u32::MAX {
        name.push_str(&r.sample_count.to_string());
    }
    name
}

fn register_prefix(r: &ResourceBinding<'_>) -> &'static str {
    match r.input_type.raw() {
        0 => "cb",
        3 => "s",
        4 | 6 | 8..=11 | 13 => "u",
        _ => "t",
    }
}

/// Writes `// Resource Bindings:` (when there are bindings); `slot_elements`
/// chooses the `Dim Slot Elements` table of fxc releases before 10.0.
pub fn write_resource_bindings(
    defs: &ResourceDefinitions<'_>,
    slot_elements: bool,
    out: &mut String,
) {
    if defs.resources.is_empty() {
        return;
    }
    let sm51 = is_sm51(defs);
    out.push_str("// Resource Bindings:\n//\n");
    if slot_elements && !sm51 {
        out.push_str(
            "// Name                                 Type  Format         Dim Slot Elements\n",
        );
        out.push_str(
            "// ------------------------------ ---------- ------- ----------- ---- --------\n",
        );
        for r in &defs.resources {
            let _ = writeln!(
                out,
                "// {:<30} {:>10} {:>7} {:>11} {:>4} {:>8}",
                text(r.name),
                input_type_name(r),
                format_name(r),
                dimension_name(r),
                r.bind_point,
                r.bind_count
            );
        }
        out.push_str("//\n//\n");
        return;
    }
    if sm51 {
        out.push_str("// Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n");
        out.push_str("// ------------------------------ ---------- ------- ----------- ------- -------------- ------\n");
    } else {
        out.push_str("// Name                                 Type  Format         Dim      HLSL Bind  Count\n");
        out.push_str("// ------------------------------ ---------- ------- ----------- -------------- ------\n");
    }
    for r in &defs.resources {
        let prefix = register_prefix(r);
        let mut bind = format!("{prefix}{}", r.bind_point);
        if sm51 {
            let space = r.space.unwrap_or(0);
            if space > 0 {
                bind.push_str(&format!(",space{space}"));
            }
            let id = format!("{}{}", prefix.to_ascii_uppercase(), r.id.unwrap_or(0));
            let count = if r.bind_count == 0 {
                "unbounded".to_string()
            } else {
                r.bind_count.to_string()
            };
            let _ = writeln!(
                out,
                "// {:<30} {:>10} {:>7} {:>11} {:>7} {:>14} {:>6} ",
                text(r.name),
                input_type_name(r),
                format_name(r),
                dimension_name(r),
                id,
                bind,
                count
            );
        } else {
            let _ = writeln!(
                out,
                "// {:<30} {:>10} {:>7} {:>11} {:>14} {:>6} ",
                text(r.name),
                input_type_name(r),
                format_name(r),
                dimension_name(r),
                bind,
                r.bind_count
            );
        }
    }
    out.push_str("//\n//\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rdef::build::sample;
    use crate::rdef::{Dimension, InputFlags, InputType, ReturnType, VariableFlags};

    fn print(data: &[u8]) -> String {
        let defs = ResourceDefinitions::parse_data(data, 0).unwrap();
        let mut out = String::new();
        write_buffer_definitions(&defs, &mut out);
        write_resource_bindings(&defs, false, &mut out);
        out
    }

    #[test]
    fn buffer_definitions_and_sm50_bindings() {
        assert_eq!(
            print(&sample(true, 32)),
            "// Buffer Definitions: \n\
             //\n\
             // cbuffer CB\n\
             // {\n\
             //\n\
             //   float4 color;                      // Offset:    0 Size:    16\n\
             //      = 0x00000000 0x00000000 0x00000000 0x00000000 \n\
             //   \n\
             //   struct\n\
             //   {\n\
             //       \n\
             //       float a;                       // Offset:   16\n\
             //\n\
             //   } sv;                              // Offset:   16 Size:     4\n\
             //\n\
             // }\n\
             //\n\
             //\n\
             // Resource Bindings:\n\
             //\n\
             // Name                                 Type  Format         Dim      HLSL Bind  Count\n\
             // ------------------------------ ---------- ------- ----------- -------------- ------\n\
             // tex                               texture  float4          2d             t3      1 \n\
             //\n\
             //\n"
        );
    }

    fn binding(
        name: &'static str,
        input_type: u32,
        return_type: u32,
        dimension: u32,
        flags: u32,
        bind: (u32, u32, u32),
    ) -> ResourceBinding<'static> {
        ResourceBinding {
            name: name.as_bytes(),
            input_type: InputType::from_raw(input_type),
            return_type: ReturnType::from_raw(return_type),
            dimension: Dimension::from_raw(dimension),
            sample_count: if matches!(dimension, 6 | 7) {
                4
            } else {
                u32::MAX
            },
            bind_point: bind.0,
            bind_count: bind.1,
            flags: InputFlags(flags),
            space: Some(bind.2),
            id: Some(bind.0 + 10),
        }
    }

    #[test]
    fn sm51_bindings_with_spaces_ids_and_unbounded() {
        let data = sample(true, 40);
        let mut defs = ResourceDefinitions::parse_data(&data, 0).unwrap();
        defs.minor = 1;
        defs.resources = vec![
            binding("shadow", 3, 0, 0, 2, (1, 1, 0)),
            binding("msaa", 2, 5, 6, 0xc, (0, 0, 2)),
            binding("items", 5, 6, 1, 0, (4, 1, 0)),
            binding("counter", 11, 6, 1, 0, (1, 1, 3)),
            binding("raw", 8, 6, 1, 0, (2, 1, 0)),
            binding("typed", 4, 4, 4, 0x4, (3, 2, 0)),
        ];
        defs.constant_buffers.clear();
        let mut out = String::new();
        write_resource_bindings(&defs, false, &mut out);
        assert_eq!(
            out,
            "// Resource Bindings:\n\
             //\n\
             // Name                                 Type  Format         Dim      ID      HLSL Bind  Count\n\
             // ------------------------------ ---------- ------- ----------- ------- -------------- ------\n\
             // shadow                          sampler_c      NA          NA     S11             s1      1 \n\
             // msaa                              texture  float4       2dMS4     T10      t0,space2 unbounded \n\
             // items                             texture  struct         r/o     T14             t4      1 \n\
             // counter                               UAV  struct     r/w+cnt     U11      u1,space3      1 \n\
             // raw                                   UAV    byte         r/w     U12             u2      1 \n\
             // typed                                 UAV   uint2          2d     U13             u3      2 \n\
             //\n\
             //\n"
        );
    }

    #[test]
    fn type_names() {
        let data = sample(true, 32);
        let mut defs = ResourceDefinitions::parse_data(&data, 0).unwrap();
        let t = &mut defs.constant_buffers[0].variables[0].var_type;
        assert_eq!(type_name(t), "float4");
        t.class = crate::rdef::VariableClass::from_raw(2);
        t.rows = 4;
        assert_eq!(type_name(t), "row_major float4x4");
        t.class = crate::rdef::VariableClass::from_raw(3);
        t.rows = 3;
        t.columns = 2;
        t.base_type = crate::rdef::VariableType::from_raw(19);
        assert_eq!(type_name(t), "uint3x2");
        t.class = crate::rdef::VariableClass::from_raw(0);
        t.base_type = crate::rdef::VariableType::from_raw(54);
        assert_eq!(type_name(t), "min16float");
        t.elements = 3;
        t.base_type = crate::rdef::VariableType::from_raw(3);
        let v = &mut defs.constant_buffers[0].variables[0];
        v.flags = VariableFlags(0);
        v.default_value = None;
        v.size = 40;
        let mut out = String::new();
        write_variable(v, true, &mut out);
        assert_eq!(
            out,
            "//   float color[3];                    // Offset:    0 Size:    40 [unused]\n"
        );
    }
}
