//! The DXIL module reader against LLVM: for every DXIL part of the corpus,
//! the instruction count of each function, the named struct types LLVM
//! prints and the named metadata (name and operand count) agree with
//! `opt -S --data-layout=<the layout with i8:8>` (LLVM 22; docs/format/
//! dxil-module.md). When `opt` cannot print the module (an LLVM whose opt
//! rejects the `dxil` triple), `llvm-dis` on the layout-fixed bitcode is
//! used: both print with LLVM's AsmWriter.

use dxcopy_edit::bitcode::fix_data_layout;
use dxcopy_harness::corpus::program_bitcode;
use dxcopy_harness::llvm::llvm_tool_or_skip;
use dxcopy_read::dxil::{Module, Type, TypeId};
use std::collections::BTreeMap;
use std::process::Command;

/// A name as LLVM's AsmWriter prints it after its sigil: bare when it is
/// made of `[-a-zA-Z._0-9]` and does not start with a digit, else quoted
/// with `\XX` escapes.
fn llvm_name(name: &[u8]) -> String {
    let bare = !name.is_empty()
        && !name[0].is_ascii_digit()
        && name
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || b"-._".contains(&c));
    if bare {
        return String::from_utf8_lossy(name).into_owned();
    }
    let mut out = String::from("\"");
    for &c in name {
        if (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\' {
            out.push(c as char);
        } else {
            out.push_str(&format!("\\{c:02X}"));
        }
    }
    out.push('"');
    out
}

/// A type as LLVM prints it (typed pointers, or `ptr` for LLVM 17+).
fn type_text(m: &Module, id: TypeId, opaque: bool, depth: usize) -> String {
    let Some(t) = m.ty(id) else {
        return "?".into();
    };
    if depth > 64 {
        return "…".into();
    }
    let ty = |id| type_text(m, id, opaque, depth + 1);
    match t {
        Type::Void => "void".into(),
        Type::Half => "half".into(),
        Type::Float => "float".into(),
        Type::Double => "double".into(),
        Type::X86Fp80 => "x86_fp80".into(),
        Type::Fp128 => "fp128".into(),
        Type::PpcFp128 => "ppc_fp128".into(),
        Type::Label => "label".into(),
        Type::Metadata => "metadata".into(),
        Type::X86Mmx => "x86_mmx".into(),
        Type::Integer { bits } => format!("i{bits}"),
        Type::Pointer {
            pointee,
            address_space,
        } => {
            let space = if *address_space == 0 {
                String::new()
            } else {
                format!(" addrspace({address_space})")
            };
            if opaque {
                format!("ptr{space}")
            } else {
                format!("{}{space}*", ty(*pointee))
            }
        }
        Type::OpaquePointer { address_space } => match address_space {
            0 => "ptr".into(),
            n => format!("ptr addrspace({n})"),
        },
        Type::Struct(s) => match &s.name {
            Some(n) if !n.is_empty() => format!("%{}", llvm_name(n)),
            _ => struct_body(m, s, opaque, depth),
        },
        Type::Array { len, element } => format!("[{len} x {}]", ty(*element)),
        Type::Vector { len, element } => format!("<{len} x {}>", ty(*element)),
        Type::Function(f) => {
            let mut params: Vec<String> = f.params.iter().map(|p| ty(*p)).collect();
            if f.vararg {
                params.push("...".into());
            }
            format!("{} ({})", ty(f.ret), params.join(", "))
        }
    }
}

fn struct_body(
    m: &Module,
    s: &dxcopy_read::dxil::StructType,
    opaque: bool,
    depth: usize,
) -> String {
    let Some(body) = &s.body else {
        return "opaque".into();
    };
    let inner: Vec<String> = body
        .iter()
        .map(|e| type_text(m, *e, opaque, depth + 1))
        .collect();
    let text = if inner.is_empty() {
        "{}".to_string()
    } else {
        format!("{{ {} }}", inner.join(", "))
    };
    if s.packed {
        format!("<{text}>")
    } else {
        text
    }
}

/// What LLVM printed: struct types (name → body), instruction count per
/// function, named metadata (name → operand count).
#[derive(Default)]
struct Printed {
    structs: BTreeMap<String, String>,
    functions: BTreeMap<String, usize>,
    named: BTreeMap<String, usize>,
}

/// Whether a line inside a function body starts an instruction: two spaces
/// then the instruction (a switch's case lines and its `]` are indented
/// further or are the bracket; LLVM 19+ prints `llvm.dbg.*` calls as
/// `#dbg_…` records, one per call).
fn is_instruction_line(line: &str) -> bool {
    let trimmed = line.trim_start();
    if trimmed.starts_with("#dbg_") {
        return true;
    }
    line.starts_with("  ")
        && !line[2..].starts_with(' ')
        && !trimmed.starts_with(';')
        && trimmed != "]"
}

fn parse_listing(text: &str) -> Printed {
    let mut p = Printed::default();
    let mut current: Option<(String, usize)> = None;
    for line in text.lines() {
        if let Some((name, count)) = &mut current {
            if line == "}" {
                p.functions.insert(name.clone(), *count);
                current = None;
            } else if is_instruction_line(line) {
                *count += 1;
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("define ") {
            let at = rest.find(" @").expect("a function name") + 2;
            let name_part = &rest[at..];
            let end = if let Some(quoted) = name_part.strip_prefix('"') {
                quoted.find('"').unwrap() + 2
            } else {
                name_part.find('(').unwrap()
            };
            current = Some((name_part[..end].to_string(), 0));
        } else if let Some(rest) = line.strip_prefix('%') {
            if let Some((name, body)) = rest.split_once(" = type ") {
                p.structs.insert(name.to_string(), body.to_string());
            }
        } else if let Some(rest) = line.strip_prefix('!') {
            if let Some((name, ops)) = rest.split_once(" = !{") {
                if !name.starts_with(|c: char| c.is_ascii_digit()) {
                    let ops = ops.trim_end_matches('}');
                    let n = if ops.is_empty() {
                        0
                    } else {
                        ops.split(", ").count()
                    };
                    p.named.insert(name.to_string(), n);
                }
            }
        }
    }
    p
}

/// Prints the module with `opt -S --data-layout=…`, or `llvm-dis` on the
/// layout-fixed bitcode when that opt cannot.
fn llvm_listing(dir: &std::path::Path, bitcode: &[u8], bin: &std::path::Path) -> String {
    let fixed = fix_data_layout(bitcode).expect("layout fix");
    let layout = fixed
        .new_layout
        .clone()
        .or(fixed.old_layout.clone())
        .unwrap_or_default();
    let original = dir.join("in.bc");
    std::fs::write(&original, bitcode).unwrap();
    let opt = Command::new(bin.join("opt"))
        .arg("-S")
        .arg(format!("--data-layout={layout}"))
        .arg(&original)
        .arg("-o")
        .arg("-")
        .output()
        .expect("run opt");
    if opt.status.success() {
        return String::from_utf8_lossy(&opt.stdout).into_owned();
    }
    let path = dir.join("fixed.bc");
    std::fs::write(&path, &fixed.bytes).unwrap();
    let dis = Command::new(bin.join("llvm-dis"))
        .arg(&path)
        .arg("-o")
        .arg("-")
        .output()
        .expect("run llvm-dis");
    assert!(
        dis.status.success(),
        "neither opt nor llvm-dis print the module: {}",
        String::from_utf8_lossy(&dis.stderr)
    );
    String::from_utf8_lossy(&dis.stdout).into_owned()
}

#[cfg_attr(
    not(all(dxcopy_corpus, dxcopy_llvm)),
    ignore = "needs the shared corpus and LLVM 22 ($DXCOPY_LLVM_BIN)"
)]
#[test]
fn corpus_modules_agree_with_llvm() {
    const TEST: &str = "corpus_modules_agree_with_llvm";
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(TEST) else {
        return;
    };
    let Some(opt) = llvm_tool_or_skip(TEST, "opt") else {
        return;
    };
    let bin = opt.parent().unwrap().to_path_buf();
    let all: Vec<_> = program_bitcode(&corpus)
        .into_iter()
        .filter(|(_, part, _)| part == "DXIL")
        .collect();
    assert!(!all.is_empty(), "no DXIL parts in the corpus");
    let dir = std::env::temp_dir().join(format!("dxcopy-dxil-llvm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut functions, mut structs, mut named, mut unused_structs) = (0, 0, 0, 0);
    let mut mismatches = Vec::new();
    for (file, part, bitcode) in &all {
        let module = Module::parse(bitcode).unwrap_or_else(|e| panic!("{file} {part}: {e}"));
        let text = llvm_listing(&dir, bitcode, &bin);
        let printed = parse_listing(&text);
        let opaque = !text.contains("*") || text.contains(" ptr ");
        // Instruction counts per defined function.
        let ours: BTreeMap<String, usize> = module
            .functions
            .iter()
            .filter_map(|f| {
                let body = f.body.as_ref()?;
                Some((llvm_name(f.name()), body.instruction_count()))
            })
            .collect();
        if ours != printed.functions {
            mismatches.push(format!(
                "{file}: functions {ours:?} vs LLVM {:?}",
                printed.functions
            ));
        }
        functions += ours.len();
        // Every struct LLVM prints, with the same body.
        let mut model_structs = BTreeMap::new();
        for (i, t) in module.types.iter().enumerate() {
            if let Type::Struct(s) = t {
                if let Some(n) = s.name.as_ref().filter(|n| !n.is_empty()) {
                    model_structs.insert(llvm_name(n), struct_body(&module, s, opaque, 0));
                    let _ = i;
                }
            }
        }
        for (name, body) in &printed.structs {
            match model_structs.get(name) {
                Some(b) if b == body => structs += 1,
                other => mismatches.push(format!(
                    "{file}: struct %{name}: LLVM `{body}`, model {other:?}"
                )),
            }
        }
        unused_structs += model_structs.len().saturating_sub(printed.structs.len());
        // Named metadata and their operand counts.
        let ours: BTreeMap<String, usize> = module
            .named_metadata
            .iter()
            .map(|n| (llvm_name(&n.name), n.operands.len()))
            .collect();
        if ours != printed.named {
            mismatches.push(format!(
                "{file}: named metadata {ours:?} vs LLVM {:?}",
                printed.named
            ));
        }
        named += ours.len();
    }
    std::fs::remove_dir_all(&dir).ok();
    println!(
        "dxil modules vs LLVM: {} DXIL parts; {functions} functions' instruction counts, \
         {structs} struct types, {named} named metadata agree; {unused_structs} struct types \
         LLVM leaves out as unused; {} mismatches",
        all.len(),
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
