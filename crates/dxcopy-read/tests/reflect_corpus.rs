//! Listing agreement for reflection: every fxc listing in the shared corpus
//! (`listings/` and `fxc-listings-2/listings/`) prints a `// Buffer
//! Definitions:` and a `// Resource Bindings:` table from the container's
//! reflection; [`Reflection::from_container`] of the container must say the
//! same (names, offsets, sizes, `[unused]`, types, formats, dimensions, bind
//! points, counts, spaces, ids). dxc listings (`dxc-listings/`) print the
//! same tables with `;`: the bindings without names (PSV0 records none) are
//! compared by type, dimension, id, bind point, space and count.
//!
//! Counts are printed; the corpus folders must not be empty.

use dxcopy_harness::corpus::listings_or_skip;
use dxcopy_read::reflect::{
    BindDesc, BufferDesc, CbufferType, InputFlags, Reflection, ResourceReturnType, ShaderInputType,
    SrvDimension, TypeDesc, VariableClass, VariableType,
};
use dxcopy_read::Container;
use std::path::Path;

/// The header line and the rows of the table that starts at the line
/// `title` (after its `---` rule, up to the first empty comment line), with
/// the comment prefix cut.
fn table_rows<'a>(lines: &[&'a str], prefix: &str, title: &str) -> Option<(&'a str, Vec<&'a str>)> {
    let start = lines
        .iter()
        .position(|l| l.trim_end() == format!("{prefix} {title}"))?;
    let rule = start
        + lines[start..]
            .iter()
            .position(|l| l.starts_with(&format!("{prefix} ---")))?;
    let mut rows = Vec::new();
    for line in &lines[rule + 1..] {
        let body = line.strip_prefix(prefix).unwrap_or(line);
        if body.trim().is_empty() {
            break;
        }
        rows.push(body);
    }
    Some((lines[rule - 1], rows))
}

/// The listing's words for a binding: type, format, dimension.
fn words(b: &BindDesc) -> (String, String, String) {
    use ShaderInputType as T;
    let flags = b.flags.map_or(0, |f| f.0);
    let typ = match b.input_type {
        T::Cbuffer => "cbuffer",
        T::Tbuffer => "tbuffer",
        T::Sampler if flags & InputFlags::COMPARISON_SAMPLER != 0 => "sampler_c",
        T::Sampler => "sampler",
        T::Texture | T::Structured | T::ByteAddress | T::RtAccelerationStructure => "texture",
        _ => "UAV",
    };
    let components = match flags & 0xc {
        0 => "",
        0x4 => "2",
        0x8 => "3",
        _ => "4",
    };
    let format = match b.input_type {
        T::Cbuffer | T::Tbuffer | T::Sampler => "NA".to_string(),
        T::Structured
        | T::UavRwStructured
        | T::UavRwStructuredWithCounter
        | T::UavAppendStructured
        | T::UavConsumeStructured => "struct".into(),
        T::ByteAddress | T::UavRwByteAddress => "byte".into(),
        _ => {
            let base = match b.return_type {
                Some(ResourceReturnType::Float) => "float",
                Some(ResourceReturnType::Sint) => "sint",
                Some(ResourceReturnType::Uint) => "uint",
                Some(ResourceReturnType::Unorm) => "unorm",
                Some(ResourceReturnType::Snorm) => "snorm",
                Some(ResourceReturnType::Double) => "double",
                Some(ResourceReturnType::Mixed) => "mixed",
                _ => "?",
            };
            format!("{base}{components}")
        }
    };
    let dim = match b.input_type {
        T::Cbuffer | T::Tbuffer | T::Sampler => "NA",
        T::Structured | T::ByteAddress => "r/o",
        T::UavRwStructured | T::UavRwByteAddress => "r/w",
        T::UavRwStructuredWithCounter => "r/w+cnt",
        T::UavAppendStructured => "append",
        T::UavConsumeStructured => "consume",
        _ => match b.dimension {
            Some(SrvDimension::Buffer) | Some(SrvDimension::BufferEx) => "buf",
            Some(SrvDimension::Texture1D) => "1d",
            Some(SrvDimension::Texture1DArray) => "1darray",
            Some(SrvDimension::Texture2D) => "2d",
            Some(SrvDimension::Texture2DArray) => "2darray",
            Some(SrvDimension::Texture2DMS) => "2dMS",
            Some(SrvDimension::Texture2DMSArray) => "2dMSarray",
            Some(SrvDimension::Texture3D) => "3d",
            Some(SrvDimension::TextureCube) => "cube",
            Some(SrvDimension::TextureCubeArray) => "cubearray",
            _ => "?",
        },
    };
    (typ.into(), format, dim.into())
}

/// The register letter(s) of a binding (`cb`, `t`, `s`, `u`).
fn register_prefix(t: ShaderInputType) -> &'static str {
    use ShaderInputType as T;
    match t {
        T::Cbuffer => "cb",
        T::Sampler => "s",
        T::Tbuffer | T::Texture | T::Structured | T::ByteAddress | T::RtAccelerationStructure => {
            "t"
        }
        _ => "u",
    }
}

/// The column layouts of a `Resource Bindings` table.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// `Name Type Format Dim Slot Elements` (fxc 9.29, 9.30).
    Slot,
    /// `Name Type Format Dim HLSL Bind Count`.
    Bind,
    /// `Name Type Format Dim ID HLSL Bind Count` (SM 5.1, DXIL).
    Id,
}

impl Layout {
    fn of(header: &str) -> Layout {
        if header.contains("Slot Elements") {
            Layout::Slot
        } else if header.contains(" ID ") {
            Layout::Id
        } else {
            Layout::Bind
        }
    }
}

/// The row a binding prints as, in the listing's layout.
fn expected_row(b: &BindDesc, layout: Layout, with_name: bool) -> Vec<String> {
    let (typ, format, dim) = words(b);
    let prefix = register_prefix(b.input_type);
    let bind = if b.space != 0 {
        format!("{prefix}{},space{}", b.bind_point, b.space)
    } else {
        format!("{prefix}{}", b.bind_point)
    };
    let count = if b.bind_count == 0 || b.bind_count == u32::MAX {
        "unbounded".to_string()
    } else {
        b.bind_count.to_string()
    };
    let mut row = Vec::new();
    if with_name {
        row.push(b.name.clone().unwrap_or_default());
    }
    row.extend([typ, format, dim]);
    if layout == Layout::Slot {
        row.extend([b.bind_point.to_string(), b.bind_count.to_string()]);
        return row;
    }
    if layout == Layout::Id {
        row.push(format!("{}{}", prefix.to_uppercase(), b.id));
    }
    row.extend([bind, count]);
    row
}

/// The base type word fxc prints for a variable type.
fn base_name(t: VariableType) -> &'static str {
    match t {
        VariableType::Float => "float",
        VariableType::Int => "int",
        VariableType::Uint => "uint",
        VariableType::Bool => "bool",
        VariableType::Double => "double",
        VariableType::Min16Float => "min16float",
        VariableType::Min10Float => "min10float",
        VariableType::Min16Int => "min16int",
        VariableType::Min12Int => "min12int",
        VariableType::Min16Uint => "min16uint",
        _ => "?",
    }
}

/// The declaration's type words fxc prints for a top-level variable
/// (`row_major float4x4`, `float3`), or `}` for a struct (whose last line
/// carries the name).
fn type_words(t: &TypeDesc) -> String {
    let base = base_name(t.base_type);
    match t.class {
        VariableClass::Scalar => base.into(),
        VariableClass::Vector => format!("{base}{}", t.columns),
        VariableClass::MatrixRows => format!("row_major {base}{}x{}", t.rows, t.columns),
        VariableClass::MatrixColumns => format!("{base}{}x{}", t.rows, t.columns),
        VariableClass::Struct => "}".into(),
        _ => "?".into(),
    }
}

/// One top-level variable line of a buffer block.
#[derive(Debug, PartialEq)]
struct VarLine {
    type_words: String,
    name: String,
    offset: u32,
    size: u32,
    unused: bool,
}

/// Parses `TYPE NAME[..];   // Offset: N Size: M [unused]`.
fn parse_var_line(body: &str) -> Option<VarLine> {
    let (decl, comment) = body.split_once("// Offset:")?;
    let decl = decl.trim().strip_suffix(';')?;
    let (type_part, name) = decl.rsplit_once(' ').unwrap_or(("", decl));
    let name = name.split('[').next().unwrap_or(name);
    let mut it = comment.split_whitespace();
    let offset = it.next()?.parse().ok()?;
    if it.next()? != "Size:" {
        return None;
    }
    let size = it.next()?.parse().ok()?;
    Some(VarLine {
        type_words: type_part.trim().to_string(),
        name: name.to_string(),
        offset,
        size,
        unused: it.next() == Some("[unused]"),
    })
}

/// The buffers of a `Buffer Definitions` section: (kind word, name, the
/// top-level variable lines).
fn buffer_blocks(lines: &[&str], prefix: &str) -> Option<Vec<(String, String, Vec<VarLine>)>> {
    let start = lines
        .iter()
        .position(|l| l.trim_end() == format!("{prefix} Buffer Definitions:"))?;
    let mut blocks = Vec::new();
    for line in &lines[start + 1..] {
        let Some(body) = line.strip_prefix(prefix) else {
            break;
        };
        let body = body.trim_end();
        if body.starts_with(" Resource Bindings:") || body.ends_with("signature:") {
            break;
        }
        if let Some(name) = body.strip_prefix(" cbuffer ") {
            blocks.push(("cbuffer".into(), name.trim().to_string(), Vec::new()));
        } else if let Some(name) = body.strip_prefix(" tbuffer ") {
            blocks.push(("tbuffer".into(), name.trim().to_string(), Vec::new()));
        } else if let Some(name) = body.strip_prefix(" Resource bind info for ") {
            blocks.push(("bindinfo".into(), name.trim().to_string(), Vec::new()));
        } else if body.starts_with("   ") && !body.starts_with("    ") {
            if let (Some(v), Some(block)) = (parse_var_line(body), blocks.last_mut()) {
                block.2.push(v);
            }
        }
    }
    Some(blocks)
}

#[derive(Default)]
struct Counts {
    files: usize,
    binding_tables: usize,
    binding_rows: usize,
    buffer_blocks: usize,
    variables: usize,
    mismatches: Vec<String>,
}

fn check_fxc(path: &str, listing: &str, reflection: &Reflection, counts: &mut Counts) {
    let lines: Vec<&str> = listing.lines().map(|l| l.trim_end_matches('\r')).collect();
    if let Some((header, rows)) = table_rows(&lines, "//", "Resource Bindings:") {
        let layout = Layout::of(header);
        counts.binding_tables += 1;
        if rows.len() != reflection.bound_resources.len() {
            counts.mismatches.push(format!(
                "{path}: {} binding rows, reflection has {}",
                rows.len(),
                reflection.bound_resources.len()
            ));
            return;
        }
        for (row, b) in rows.iter().zip(&reflection.bound_resources) {
            counts.binding_rows += 1;
            let fields: Vec<&str> = row.split_whitespace().collect();
            let want = expected_row(b, layout, true);
            if fields != want {
                counts
                    .mismatches
                    .push(format!("{path}: binding {fields:?}, reflection {want:?}"));
            }
        }
    }
    if let Some(blocks) = buffer_blocks(&lines, "//") {
        // Interface-pointer buffers ($ThisPointer) print no block.
        let buffers: Vec<_> = reflection
            .constant_buffers
            .iter()
            .filter(|b| b.buffer_type != CbufferType::InterfacePointers)
            .collect();
        if blocks.len() != buffers.len() {
            counts.mismatches.push(format!(
                "{path}: {} buffer blocks, reflection has {}",
                blocks.len(),
                buffers.len()
            ));
            return;
        }
        for ((kind, name, vars), cb) in blocks.iter().zip(buffers) {
            counts.buffer_blocks += 1;
            let want_kind = match cb.buffer_type {
                CbufferType::Cbuffer => "cbuffer",
                CbufferType::Tbuffer => "tbuffer",
                _ => "bindinfo",
            };
            if kind != want_kind || *name != cb.name || vars.len() != cb.variables.len() {
                counts.mismatches.push(format!(
                    "{path}: block {kind} {name} ({} variables), reflection {want_kind} {} ({})",
                    vars.len(),
                    cb.name,
                    cb.variables.len()
                ));
                continue;
            }
            for (line, v) in vars.iter().zip(&cb.variables) {
                counts.variables += 1;
                let want = VarLine {
                    type_words: type_words(&v.var_type),
                    name: v.name.clone(),
                    offset: v.start_offset,
                    size: v.size,
                    unused: !v.used,
                };
                // A struct's `}` line; other declarations start with their type.
                let type_ok = if want.type_words == "}" {
                    line.type_words == "}"
                } else {
                    line.type_words == want.type_words
                };
                let same = type_ok
                    && line.name == want.name
                    && line.offset == want.offset
                    && line.size == want.size
                    && line.unused == want.unused;
                if !same {
                    counts
                        .mismatches
                        .push(format!("{path}: {line:?}, reflection {want:?}"));
                }
            }
        }
    }
}

fn run_fxc(root: &Path, counts: &mut Counts) {
    let table = std::fs::read_to_string(root.join("listings/LISTINGS.tsv")).unwrap();
    for row in table.lines() {
        let path = row.split('\t').next().unwrap();
        let listing = std::fs::read(root.join("listings").join(format!("{path}.lst"))).unwrap();
        let listing = String::from_utf8_lossy(&listing);
        let bytes = std::fs::read(root.join(path)).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let reflection =
            Reflection::from_container(&container).unwrap_or_else(|e| panic!("{path}: {e}"));
        counts.files += 1;
        check_fxc(path, &listing, &reflection, counts);
    }
}

/// Counts of the dxc comparison: what was compared and what the container
/// does not record.
#[derive(Default)]
struct DxcCounts {
    files: usize,
    rows: usize,
    names_compared: usize,
    names_not_recorded: usize,
    formats_compared: usize,
    formats_not_recorded: usize,
    dims_compared: usize,
    dims_not_recorded: usize,
    buffer_blocks: usize,
    buffer_variables: usize,
    bind_info_blocks: usize,
    buffer_blocks_unused: usize,
    without_buffer_section: usize,
    mismatches: Vec<String>,
}

/// A dxc `cbuffer`/`tbuffer`/bind-info block: its kind (`cbuffer`,
/// `tbuffer`, `bind info`), name, the size on its struct's closing line and
/// the variables at the first level inside it (name, offset): the
/// top-level variables of a cbuffer/tbuffer, the element's members of a
/// structured buffer.
struct DxcBuffer {
    kind: String,
    name: String,
    size: Option<u32>,
    variables: Vec<(String, u32)>,
}

/// The blocks of a dxc `; Buffer Definitions:` section: the struct's fields
/// sit at 7 spaces after `;`, its closing `}` line (or a structured
/// buffer's non-struct `$Element` line) at 3.
fn dxc_buffers(lines: &[&str]) -> Option<Vec<DxcBuffer>> {
    let mut buffers: Vec<DxcBuffer> = Vec::new();
    let start = lines
        .iter()
        .position(|l| l.trim_end() == "; Buffer Definitions:")?;
    for line in &lines[start + 1..] {
        let Some(body) = line.strip_prefix(';') else {
            break;
        };
        let body = body.trim_end();
        if body.starts_with(" Resource Bindings:") || body.ends_with("signature:") {
            break;
        }
        // A nameless buffer prints `; cbuffer` (trimmed of its space).
        let keyword = [" cbuffer", " tbuffer"]
            .into_iter()
            .find(|k| body == *k || body.starts_with(&format!("{k} ")));
        if let Some(name) = keyword.map(|k| &body[k.len()..]) {
            buffers.push(DxcBuffer {
                kind: body[1..8].to_string(),
                name: name.trim().to_string(),
                size: None,
                variables: Vec::new(),
            });
            continue;
        }
        if let Some(name) = body.strip_prefix(" Resource bind info for ") {
            buffers.push(DxcBuffer {
                kind: "bind info".into(),
                name: name.trim().to_string(),
                size: None,
                variables: Vec::new(),
            });
            continue;
        }
        let Some(buffer) = buffers.last_mut() else {
            continue;
        };
        let Some((decl, offset)) = body.split_once("; Offset:") else {
            continue;
        };
        let mut words = offset.split_whitespace();
        let offset: u32 = words
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or(u32::MAX);
        let size = (words.next() == Some("Size:"))
            .then(|| words.next().and_then(|w| w.parse().ok()))
            .flatten();
        let name = decl
            .trim()
            .trim_end_matches(';')
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .split('[')
            .next()
            .unwrap_or("")
            .to_string();
        if decl.starts_with("       ") && !decl.starts_with("        ") {
            buffer.variables.push((name, offset));
        } else if decl.starts_with("   ") && !decl.starts_with("    ") {
            buffer.size = size;
        }
    }
    Some(buffers)
}

/// The constant buffers a listing's section lists: the shader's, or for a
/// library every function's (once each by name and type).
fn dxil_buffers(reflection: &Reflection) -> Vec<BufferDesc> {
    if reflection.library.is_none() {
        return reflection.constant_buffers.clone();
    }
    let mut all: Vec<BufferDesc> = Vec::new();
    for b in reflection
        .functions
        .iter()
        .flat_map(|f| &f.constant_buffers)
    {
        if !all
            .iter()
            .any(|a| a.name == b.name && a.buffer_type == b.buffer_type)
        {
            all.push(b.clone());
        }
    }
    all
}

/// Compares the blocks of a dxc listing's `Buffer Definitions` with the
/// reflection's constant buffers, matched by name and kind: for a cbuffer
/// or tbuffer the size (dxc prints the buffer's size; reflection rounds it
/// up to 16 bytes) and every top-level variable's name and offset; for a
/// structured buffer (`D3D_CT_RESOURCE_BIND_INFO`) the `$Element` size and
/// the element's members (names, data-layout offsets). A shader's buffers
/// must be exactly the listing's; a library's functions use a subset of
/// the module's (a buffer no function uses is counted, not compared).
fn check_dxc_buffers(path: &str, lines: &[&str], reflection: &Reflection, counts: &mut DxcCounts) {
    // Listings of modules without the header sections print none.
    let Some(buffers) = dxc_buffers(lines) else {
        counts.without_buffer_section += 1;
        return;
    };
    let ours_all = dxil_buffers(reflection);
    let library = reflection.library.is_some();
    if !library && buffers.len() != ours_all.len() {
        counts.mismatches.push(format!(
            "{path}: {} buffer blocks, reflection has {} constant buffers",
            buffers.len(),
            ours_all.len()
        ));
        return;
    }
    for (index, theirs) in buffers.iter().enumerate() {
        let kind = |b: &BufferDesc| match b.buffer_type {
            CbufferType::Tbuffer => "tbuffer",
            CbufferType::ResourceBindInfo => "bind info",
            _ => "cbuffer",
        };
        let ours = if library {
            ours_all
                .iter()
                .find(|b| b.name == theirs.name && kind(b) == theirs.kind)
        } else {
            ours_all.get(index)
        };
        let Some(ours) = ours else {
            counts.buffer_blocks_unused += 1;
            continue;
        };
        counts.buffer_blocks += 1;
        let mut same = theirs.name == ours.name && theirs.kind == kind(ours);
        let variables: Vec<(String, u32)> = if ours.buffer_type == CbufferType::ResourceBindInfo {
            counts.bind_info_blocks += 1;
            let element = ours.variables.first();
            same &= element.is_some_and(|e| e.name == "$Element" && e.used && e.size == ours.size);
            if let (Some(size), Some(element)) = (theirs.size, element) {
                same &= size == element.size;
            }
            element
                .map(|e| {
                    e.var_type
                        .members
                        .iter()
                        .map(|m| (m.name.clone(), m.member_type.offset))
                        .collect()
                })
                .unwrap_or_default()
        } else {
            // A block without annotations prints `[N x i8]` and no variables.
            if let Some(size) = theirs.size {
                same &= (size.saturating_add(15) & !15) == ours.size;
            }
            ours.variables
                .iter()
                .map(|v| (v.name.clone(), v.start_offset))
                .collect()
        };
        same &= variables == theirs.variables;
        counts.buffer_variables += variables.len();
        if !same {
            counts.mismatches.push(format!(
                "{path}: {} {} size {:?} {:?}, reflection {} size {} {variables:?}",
                theirs.kind, theirs.name, theirs.size, theirs.variables, ours.name, ours.size
            ));
        }
    }
}

/// The resources a dxc listing's table lists: the shader's, or for a
/// library every function's (once each, in class and id order).
fn dxil_resources(reflection: &Reflection) -> Vec<BindDesc> {
    if reflection.library.is_none() {
        return reflection.bound_resources.clone();
    }
    let mut all: Vec<BindDesc> = Vec::new();
    for f in &reflection.functions {
        for b in &f.bound_resources {
            if !all.contains(b) {
                all.push(b.clone());
            }
        }
    }
    let class = |b: &BindDesc| match register_prefix(b.input_type) {
        "cb" => 0,
        "s" => 1,
        "t" => 2,
        _ => 3,
    };
    all.sort_by_key(|b| (class(b), b.id));
    all
}

fn check_dxc(path: &str, listing: &str, reflection: &Reflection, counts: &mut DxcCounts) {
    let lines: Vec<&str> = listing.lines().map(|l| l.trim_end_matches('\r')).collect();
    check_dxc_buffers(path, &lines, reflection, counts);
    let Some((_, rows)) = table_rows(&lines, ";", "Resource Bindings:") else {
        return;
    };
    let resources = dxil_resources(reflection);
    if rows.len() != resources.len() {
        counts.mismatches.push(format!(
            "{path}: {} binding rows, reflection has {}",
            rows.len(),
            resources.len()
        ));
        return;
    }
    for (row, b) in rows.iter().zip(&resources) {
        counts.rows += 1;
        let mut fields: Vec<&str> = row.split_whitespace().collect();
        let name = if fields.len() == 7 {
            Some(fields.remove(0))
        } else {
            None
        };
        let want = expected_row(b, Layout::Id, false);
        let mut same = fields.len() == 6
            && fields[0] == want[0]
            && fields[3..] == want[3..].iter().map(String::as_str).collect::<Vec<_>>()[..];
        match (&b.name, name) {
            (Some(ours), Some(theirs)) => {
                counts.names_compared += 1;
                same &= ours == theirs;
            }
            (None, Some(_)) => counts.names_not_recorded += 1,
            (Some(ours), None) => same &= ours.is_empty(),
            (None, None) => {}
        }
        // dxc's words: `f32`/`i32`/`u32` formats (not recorded outside the
        // module), `ras` for acceleration structures.
        let dim = if b.input_type == ShaderInputType::RtAccelerationStructure {
            "ras".to_string()
        } else {
            want[2].clone()
        };
        if dim == "?" {
            counts.dims_not_recorded += 1;
        } else if fields.len() == 6 {
            counts.dims_compared += 1;
            same &= fields[2] == dim;
        }
        // dxc prints typed formats by component type (`f32`, `i32`, `u32`).
        let format = match (want[1].as_str(), b.return_type) {
            ("NA" | "struct" | "byte", _) => Some(want[1].clone()),
            (_, Some(ResourceReturnType::Float)) => Some("f32".into()),
            (_, Some(ResourceReturnType::Sint)) => Some("i32".into()),
            (_, Some(ResourceReturnType::Uint)) => Some("u32".into()),
            _ => None,
        };
        match format {
            Some(format) if fields.len() == 6 => {
                counts.formats_compared += 1;
                same &= fields[1] == format;
            }
            _ => counts.formats_not_recorded += 1,
        }
        if !same {
            counts.mismatches.push(format!(
                "{path}: binding {name:?} {fields:?}, reflection {want:?}"
            ));
        }
    }
}

fn run_dxc(root: &Path, counts: &mut DxcCounts) {
    let mut names: Vec<_> = std::fs::read_dir(root.join("listings"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".dxil.lst"))
        .collect();
    names.sort();
    for name in names {
        let path = name.trim_end_matches(".lst");
        let listing = std::fs::read(root.join("listings").join(&name)).unwrap();
        let listing = String::from_utf8_lossy(&listing);
        let bytes = std::fs::read(root.join("bin").join(path)).unwrap();
        let container = Container::parse(&bytes).unwrap();
        let reflection =
            Reflection::from_container(&container).unwrap_or_else(|e| panic!("{path}: {e}"));
        counts.files += 1;
        check_dxc(path, &listing, &reflection, counts);
    }
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn dxc_listings_agree_with_reflection() {
    let Some(corpus) = listings_or_skip("reflect_corpus") else {
        return;
    };
    let mut counts = DxcCounts::default();
    run_dxc(&corpus.join("dxc-listings"), &mut counts);
    run_dxc(&corpus.join("dxc-listings/console"), &mut counts);
    println!(
        "dxc listings: {} files, {} binding rows; names {} compared, {} not recorded; formats {} compared, {} not recorded; dimensions {} compared, {} not recorded; {} buffer blocks ({} structured-buffer bind info) with {} variables compared, {} library blocks no function uses, {} listings without the section; {} mismatches",
        counts.files,
        counts.rows,
        counts.names_compared,
        counts.names_not_recorded,
        counts.formats_compared,
        counts.formats_not_recorded,
        counts.dims_compared,
        counts.dims_not_recorded,
        counts.buffer_blocks,
        counts.bind_info_blocks,
        counts.buffer_variables,
        counts.buffer_blocks_unused,
        counts.without_buffer_section,
        counts.mismatches.len()
    );
    assert!(counts.files > 0 && counts.rows > 0);
    assert!(counts.buffer_blocks > 0 && counts.buffer_variables > 0 && counts.bind_info_blocks > 0);
    for m in counts.mismatches.iter().take(40) {
        println!("{m}");
    }
    assert!(counts.mismatches.is_empty());
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn fxc_listings_agree_with_reflection() {
    let Some(corpus) = listings_or_skip("reflect_corpus") else {
        return;
    };
    let mut counts = Counts::default();
    run_fxc(&corpus, &mut counts);
    run_fxc(&corpus.join("fxc-listings-2"), &mut counts);
    println!(
        "fxc listings: {} files, {} binding tables ({} rows), {} buffer blocks ({} variables); {} mismatches",
        counts.files,
        counts.binding_tables,
        counts.binding_rows,
        counts.buffer_blocks,
        counts.variables,
        counts.mismatches.len()
    );
    assert!(counts.files > 0 && counts.binding_rows > 0 && counts.variables > 0);
    for m in counts.mismatches.iter().take(40) {
        println!("{m}");
    }
    assert!(counts.mismatches.is_empty());
}

/// Hostile input: corpus containers with bytes of their RDEF, STAT,
/// signature, SHEX, PSV0, RDAT and SFI0 parts overwritten: reflection
/// returns a value or an error, never panics, and the text view of every
/// value is written.
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn mutated_parts_no_panic() {
    let Some(corpus) = listings_or_skip("reflect_corpus") else {
        return;
    };
    let mut files = dxcopy_harness::corpus::files_under(&corpus.join("bin"));
    files.extend(dxcopy_harness::corpus::files_under(
        &corpus.join("dxc-listings/bin"),
    ));
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut reflected, mut errors) = (0, 0);
    for path in files.iter().step_by(7).take(300) {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(container) = Container::parse(&bytes) else {
            continue;
        };
        let ranges: Vec<(usize, usize)> = container
            .parts()
            .filter(|p| {
                matches!(
                    &p.name.0,
                    b"RDEF"
                        | b"STAT"
                        | b"ISGN"
                        | b"OSGN"
                        | b"ISG1"
                        | b"OSG1"
                        | b"SHEX"
                        | b"SHDR"
                        | b"PSV0"
                        | b"RDAT"
                        | b"SFI0"
                        | b"PCSG"
                        | b"PSG1"
                )
            })
            .map(|p| (p.data_offset() as usize, p.data.len()))
            .filter(|(_, len)| *len > 0)
            .collect();
        if ranges.is_empty() {
            continue;
        }
        for _ in 0..20 {
            let mut copy = bytes.clone();
            for _ in 0..4 {
                let (start, len) = ranges[next() as usize % ranges.len()];
                let at = start + next() as usize % len;
                copy[at] = next() as u8;
            }
            let container = Container::parse(&copy).unwrap();
            match Reflection::from_container(&container) {
                Ok(r) => {
                    reflected += 1;
                    assert!(!dxcopy_read::reflect::text::to_text(&r).is_empty());
                }
                Err(_) => errors += 1,
            }
        }
    }
    println!("mutated containers: {reflected} reflected, {errors} errors");
    assert!(reflected > 0 && errors > 0);
}

/// A raytracing library's functions with the constant buffers each uses
/// (`ID3D12FunctionReflection::GetConstantBufferByIndex`): found from the
/// function's RDAT resources among the module's buffers, in that order,
/// a structured buffer as `D3D_CT_RESOURCE_BIND_INFO` with its `$Element`.
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn library_functions_constant_buffers() {
    let Some(corpus) = listings_or_skip("reflect_corpus") else {
        return;
    };
    let path = corpus.join("dxc-listings/bin/microsoft_DirectX-Graphics-Samples__Samples_Desktop_D3D12Raytracing_src_D3D12RaytracingSakuraForestSER_Raytracing-output.h__g_lib.no__entry.dxil");
    let bytes = std::fs::read(&path).unwrap();
    let container = Container::parse(&bytes).unwrap();
    let reflection = Reflection::from_container(&container).unwrap();
    // dxc's D3D12_LIBRARY_DESC: Creator unset, Flags 0; llvm.ident in a note.
    let library = reflection.library.as_ref().unwrap();
    assert_eq!((library.creator.as_deref(), library.flags), (None, 0));
    assert!(
        reflection.notes.iter().any(|n| n
            .starts_with("a library's Creator is unset in dxc's reflection: the module's llvm.ident is 'dxcoob 1.8.2505.28")),
        "{:?}",
        reflection.notes
    );
    type Summary = (String, Option<u32>, Vec<(String, CbufferType, u32)>);
    let summary: Vec<Summary> = reflection
        .functions
        .iter()
        .map(|f| {
            (
                f.name.clone(),
                f.constant_buffer_count,
                f.constant_buffers
                    .iter()
                    .map(|b| (b.name.clone(), b.buffer_type, b.size))
                    .collect(),
            )
        })
        .collect();
    let b = |name: &str, t, size| (name.to_string(), t, size);
    assert_eq!(
        summary,
        vec![
            (
                "\u{1}?MyClosestHitShader@@YAXURayPayload@@UBuiltInTriangleIntersectionAttributes@@@Z"
                    .to_string(),
                Some(3),
                vec![
                    b("g_sceneCB", CbufferType::Cbuffer, 128),
                    b("g_cubeCB", CbufferType::Cbuffer, 32),
                    b("Vertices", CbufferType::ResourceBindInfo, 24),
                ]
            ),
            (
                "\u{1}?MyMissShader@@YAXURayPayload@@@Z".to_string(),
                Some(0),
                vec![]
            ),
            (
                "\u{1}?MyRaygenShader@@YAXXZ".to_string(),
                Some(1),
                vec![b("g_sceneCB", CbufferType::Cbuffer, 128)]
            ),
        ]
    );
    let vertices = &reflection.functions[0].constant_buffers[2].variables[0];
    assert_eq!((vertices.name.as_str(), vertices.size), ("$Element", 24));
    let members: Vec<(&str, u32, Option<&str>)> = vertices
        .var_type
        .members
        .iter()
        .map(|m| {
            (
                m.name.as_str(),
                m.member_type.offset,
                m.member_type.name.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        members,
        vec![
            ("position", 0, Some("float3")),
            ("normal", 12, Some("float3"))
        ]
    );
    let text = dxcopy_read::reflect::text::to_text(&reflection);
    assert!(text.contains(
        "        D3D12_SHADER_BUFFER_DESC: Name: Vertices\n          Type: D3D_CT_RESOURCE_BIND_INFO\n          Size: 24\n"
    ));
}
