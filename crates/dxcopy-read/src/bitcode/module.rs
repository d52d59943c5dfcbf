//! Module facts decoded from the bitstream without LLVM: identification,
//! triple, data layout, the `dx.*` named metadata DXIL defines (DXIL.rst),
//! `llvm.ident`, and the functions the module defines and declares
//! (docs/format/bitcode.md: module facts).
//!
//! Only module-level blocks are read; function bodies and the type table are
//! skipped by their length words. Metadata and constants are numbered as
//! LLVM's reader numbers them: every METADATA record except NAME, KIND,
//! NAMED_NODE, attachments and index records defines the next metadata ID
//! (STRINGS defines one per string); module values are the globals,
//! functions and aliases in record order, then the module constants.

use super::bits::BitReader;
use super::codes::{block, constants, identification, metadata, module, strtab, value_symtab};
use super::error::Result;
use super::reader::{Bitcode, Entry, FieldSpan, Record};

/// A `{major, minor}` pair (`dx.version`, `dx.valver`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VersionPair {
    /// Major version.
    pub major: i64,
    /// Minor version.
    pub minor: i64,
}

/// `dx.shaderModel`: the kind as dxc writes it (`ps`, `vs`, `cs`, `lib`, …) and the version.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ShaderModelFact {
    /// Kind string.
    pub kind: String,
    /// Major version.
    pub major: i64,
    /// Minor version.
    pub minor: i64,
}

/// `dx.resources`: how many resources of each class the module lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ResourceCounts {
    /// Shader resource views.
    pub srvs: usize,
    /// Unordered access views.
    pub uavs: usize,
    /// Constant buffers.
    pub cbuffers: usize,
    /// Samplers.
    pub samplers: usize,
}

/// The IDENTIFICATION block (LLVM 3.8+ writers; dxc's LLVM 3.7 writes none).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Identification {
    /// The producer string (`LLVM22.1.0`, …).
    pub producer: String,
    /// The bitcode epoch.
    pub epoch: Option<u64>,
}

/// What a DXIL module says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ModuleFacts {
    /// The IDENTIFICATION block, when present.
    pub identification: Option<Identification>,
    /// MODULE_CODE_VERSION (1 for dxc, 2 for LLVM 5+ writers).
    pub module_version: Option<u64>,
    /// The target triple (`dxil-ms-dx`).
    pub triple: Option<String>,
    /// The data layout string as stored.
    pub data_layout: Option<String>,
    /// `dx.version`: the DXIL version.
    pub dxil_version: Option<VersionPair>,
    /// `dx.valver`: the validator version.
    pub validator_version: Option<VersionPair>,
    /// `dx.shaderModel`.
    pub shader_model: Option<ShaderModelFact>,
    /// `dx.entryPoints`: the entry names, in order.
    pub entry_points: Vec<String>,
    /// `dx.resources`: counts per class.
    pub resources: Option<ResourceCounts>,
    /// `dx.source.mainFileName` (debug modules).
    pub main_file_name: Option<String>,
    /// `dx.source.args` (debug modules).
    pub source_args: Vec<String>,
    /// `llvm.ident` strings.
    pub ident: Vec<String>,
    /// Functions with a body, in module order.
    pub functions_defined: Vec<String>,
    /// Functions declared only, in module order.
    pub functions_declared: Vec<String>,
    /// The declared `dx.op.*` functions, sorted.
    pub dx_ops: Vec<String>,
}

#[derive(Debug, Clone, Copy)]
enum Value {
    Global,
    Function { declaration: bool },
    Other,
    Integer(i64),
}

/// One metadata ID. Strings and nodes are kept as where their fields lie and
/// read only when a named node reaches them: most of a debug module's
/// metadata is never looked at.
#[derive(Debug, Clone)]
enum Md<'a> {
    /// One string of a METADATA_STRINGS blob.
    String(&'a [u8]),
    /// METADATA_STRING_OLD: the characters are the fields.
    StringOld(FieldSpan),
    /// NODE or DISTINCT_NODE: the fields are metadata IDs plus one.
    Node(FieldSpan),
    Value(u64),
    Other,
}

#[derive(Default)]
struct State<'a> {
    /// The bitcode the spans of `md` point into.
    data: &'a [u8],
    facts: ModuleFacts,
    values: Vec<Value>,
    /// (value ID, name) from the module VALUE_SYMTAB, or strtab ranges.
    names: Vec<(u64, Vec<u8>)>,
    strtab_refs: Vec<(u64, u64, u64)>,
    strtab: &'a [u8],
    md: Vec<Md<'a>>,
    /// The operands of the named nodes.
    md_operands: Vec<u32>,
    named: Vec<(String, usize, usize)>,
    pending_name: Option<String>,
}

/// Decodes a signed VBR value as LLVM's writer emits it (sign in bit 0).
pub fn decode_signed(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v != 1 {
        -((v >> 1) as i64)
    } else {
        i64::MIN
    }
}

/// `s` as `{:?}` writes it: in quotes, escaped. Plain printable ASCII (all
/// that DXIL names hold) is copied without the per-character escaping.
fn push_quoted(out: &mut String, s: &str) {
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        use std::fmt::Write;
        let _ = write!(out, "{s:?}");
    }
}

fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_quoted(&mut out, s);
    out
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl ModuleFacts {
    /// The facts as (name, value) lines for a text view, in a fixed order;
    /// absent facts are left out, lists are comma-separated.
    pub fn text_fields(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if let Some(id) = &self.identification {
            let epoch = id.epoch.map_or(String::new(), |e| format!(" (epoch {e})"));
            out.push(("Producer", format!("{:?}{epoch}", id.producer)));
        }
        if let Some(t) = &self.triple {
            out.push(("Triple", quoted(t)));
        }
        if let Some(l) = &self.data_layout {
            out.push(("DataLayout", quoted(l)));
        }
        if let Some(sm) = &self.shader_model {
            out.push((
                "ShaderModel",
                format!("{}_{}_{}", sm.kind, sm.major, sm.minor),
            ));
        }
        if let Some(v) = &self.dxil_version {
            out.push(("DxilVersion", format!("{}.{}", v.major, v.minor)));
        }
        if let Some(v) = &self.validator_version {
            out.push(("ValidatorVersion", format!("{}.{}", v.major, v.minor)));
        }
        let list = |v: &[String]| {
            if v.is_empty() {
                return "none".to_string();
            }
            let mut out = String::with_capacity(v.iter().map(|s| s.len() + 4).sum());
            for (i, s) in v.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_quoted(&mut out, s);
            }
            out
        };
        if !self.entry_points.is_empty() {
            out.push(("EntryPoints", list(&self.entry_points)));
        }
        if let Some(r) = &self.resources {
            out.push((
                "Resources",
                format!(
                    "{} SRV, {} UAV, {} CBV, {} sampler",
                    r.srvs, r.uavs, r.cbuffers, r.samplers
                ),
            ));
        }
        if let Some(f) = &self.main_file_name {
            out.push(("MainFileName", quoted(f)));
        }
        if !self.source_args.is_empty() {
            out.push(("SourceArgs", list(&self.source_args)));
        }
        if !self.ident.is_empty() {
            out.push(("Ident", list(&self.ident)));
        }
        out.push(("FunctionsDefined", list(&self.functions_defined)));
        out.push((
            "FunctionsDeclared",
            self.functions_declared.len().to_string(),
        ));
        out.push(("DxOps", list(&self.dx_ops)));
        out
    }

    /// Decodes the facts of the bitcode in `data` (wrapper header allowed).
    pub fn decode(data: &[u8]) -> Result<ModuleFacts> {
        let bitcode = Bitcode::parse(data)?;
        let mut reader = bitcode.reader();
        let mut st = State {
            data,
            ..State::default()
        };
        while let Some(entry) = reader.next_entry()? {
            let depth = reader.depth();
            match entry {
                Entry::EnterBlock(h) => {
                    let wanted = match (depth, h.block_id) {
                        (1, block::IDENTIFICATION | block::MODULE | block::STRTAB) => true,
                        (2, block::CONSTANTS | block::METADATA | block::VALUE_SYMTAB) => {
                            reader.block_path().next() == Some(block::MODULE)
                        }
                        (_, block::BLOCKINFO) => true,
                        _ => false,
                    };
                    if !wanted {
                        reader.skip_block()?;
                    }
                }
                Entry::Record(r) => {
                    let parent = reader.block_path().next();
                    st.record(&r, depth, parent);
                }
                Entry::EndBlock { .. } | Entry::DefineAbbrev { .. } => {}
            }
        }
        Ok(st.finish())
    }
}

impl<'a> State<'a> {
    fn record(&mut self, r: &Record<'a>, depth: usize, top: Option<u32>) {
        match (depth, r.block_id) {
            (1, block::IDENTIFICATION) => match r.code {
                identification::STRING => {
                    let producer = lossy(&r.string_from(0).unwrap_or_default());
                    self.facts.identification = Some(Identification {
                        producer,
                        epoch: None,
                    });
                }
                identification::EPOCH => {
                    if let Some(id) = &mut self.facts.identification {
                        id.epoch = r.values().next();
                    }
                }
                _ => {}
            },
            (1, block::MODULE) => self.module_record(r),
            (1, block::STRTAB) if r.code == strtab::BLOB => {
                self.strtab = r.blob().unwrap_or_default();
            }
            (2, block::CONSTANTS) if top == Some(block::MODULE) => match r.code {
                constants::SETTYPE => {}
                // An integer zero is written as NULL.
                constants::NULL => self.values.push(Value::Integer(0)),
                constants::INTEGER => {
                    let v = r.values().next().map_or(0, decode_signed);
                    self.values.push(Value::Integer(v));
                }
                _ => self.values.push(Value::Other),
            },
            (2, block::METADATA) if top == Some(block::MODULE) => self.metadata_record(r),
            (2, block::VALUE_SYMTAB) if top == Some(block::MODULE) => {
                let skip = match r.code {
                    value_symtab::ENTRY => 1,
                    value_symtab::FNENTRY => 2,
                    _ => return,
                };
                let Some(id) = r.values().next() else {
                    return;
                };
                // Only function names are shown; values are only ever
                // appended, so a name for a known non-function is never used.
                let known_other = usize::try_from(id)
                    .ok()
                    .and_then(|i| self.values.get(i))
                    .is_some_and(|v| !matches!(v, Value::Function { .. }));
                if known_other {
                    return;
                }
                if let Some(name) = r.string_from(skip) {
                    self.names.push((id, name));
                }
            }
            _ => {}
        }
    }

    fn module_record(&mut self, r: &Record<'a>) {
        let v2 = self.facts.module_version.unwrap_or(0) >= 2;
        let shift = if v2 { 2 } else { 0 };
        match r.code {
            module::VERSION => self.facts.module_version = r.values().next(),
            module::TRIPLE => self.facts.triple = r.string_from(0).map(|s| lossy(&s)),
            module::DATALAYOUT => self.facts.data_layout = r.string_from(0).map(|s| lossy(&s)),
            module::GLOBALVAR
            | module::FUNCTION
            | module::ALIAS
            | module::ALIAS_OLD
            | module::IFUNC => {
                let id = self.values.len() as u64;
                let value = match r.code {
                    module::GLOBALVAR => Value::Global,
                    module::FUNCTION => Value::Function {
                        declaration: r.values().nth(2 + shift).unwrap_or(0) != 0,
                    },
                    _ => Value::Other,
                };
                self.values.push(value);
                if v2 {
                    let mut fields = r.values();
                    if let (Some(offset), Some(size)) = (fields.next(), fields.next()) {
                        self.strtab_refs.push((id, offset, size));
                    }
                }
            }
            _ => {}
        }
    }

    fn metadata_record(&mut self, r: &Record<'a>) {
        match r.code {
            metadata::NAME => {
                self.pending_name = Some(lossy(&r.string_from(0).unwrap_or_default()));
            }
            metadata::NAMED_NODE => {
                let name = self.pending_name.take().unwrap_or_default();
                let start = self.md_operands.len();
                self.md_operands
                    .extend(r.values().map(|v| u32::try_from(v).unwrap_or(u32::MAX)));
                self.named
                    .push((name, start, self.md_operands.len() - start));
            }
            metadata::STRING_OLD => self.md.push(Md::StringOld(r.field_span())),
            metadata::STRINGS => self.metadata_strings(r),
            metadata::NODE | metadata::DISTINCT_NODE => self.md.push(Md::Node(r.field_span())),
            metadata::VALUE => {
                let value = r.values().nth(1).unwrap_or(u64::MAX);
                self.md.push(Md::Value(value));
            }
            metadata::KIND
            | metadata::ATTACHMENT
            | metadata::GLOBAL_DECL_ATTACHMENT
            | metadata::INDEX_OFFSET
            | metadata::INDEX => {}
            _ => self.md.push(Md::Other),
        }
    }

    /// METADATA_STRINGS: [count, offset of the characters, blob]; the blob
    /// holds `count` VBR6 lengths, then (at the offset) the characters.
    fn metadata_strings(&mut self, r: &Record<'a>) {
        let mut fields = r.values();
        let (Some(count), Some(offset), Some(blob)) = (fields.next(), fields.next(), r.blob())
        else {
            return;
        };
        let Ok(offset) = usize::try_from(offset) else {
            return;
        };
        let Some(chars) = blob.get(offset..) else {
            return;
        };
        let mut lengths = BitReader::new(blob, 0, offset as u64 * 8);
        let mut at = 0usize;
        for _ in 0..count {
            let Ok(len) = lengths.read_vbr(6, "string length") else {
                return;
            };
            let Some(s) = usize::try_from(len)
                .ok()
                .and_then(|len| chars.get(at..at.checked_add(len)?))
            else {
                return;
            };
            self.md.push(Md::String(s));
            at += s.len();
        }
    }

    fn md_string(&self, id: u32) -> Option<String> {
        match self.md.get(id as usize)? {
            Md::String(bytes) => Some(lossy(bytes)),
            Md::StringOld(span) => {
                let bytes: Vec<u8> = span
                    .fields(self.data)
                    .map(|f| u8::try_from(f.value).unwrap_or(b'?'))
                    .collect();
                Some(lossy(&bytes))
            }
            _ => None,
        }
    }

    /// A node's operands as metadata IDs (`None` for a null operand).
    fn md_node(&self, id: u32) -> Option<Vec<Option<u32>>> {
        match self.md.get(id as usize)? {
            Md::Node(span) => Some(
                span.fields(self.data)
                    .map(|f| u32::try_from(f.value).unwrap_or(u32::MAX).checked_sub(1))
                    .collect(),
            ),
            _ => None,
        }
    }

    fn md_int(&self, id: Option<u32>) -> Option<i64> {
        match self.md.get(id? as usize)? {
            Md::Value(v) => match self.values.get(usize::try_from(*v).ok()?)? {
                Value::Integer(i) => Some(*i),
                _ => None,
            },
            _ => None,
        }
    }

    fn named_nodes(&self, name: &str) -> Option<&[u32]> {
        let (_, start, len) = self.named.iter().find(|(n, _, _)| n == name)?;
        self.md_operands.get(*start..start + len)
    }

    /// The operands of the first node of a named node.
    fn first_node(&self, name: &str) -> Option<Vec<Option<u32>>> {
        self.md_node(*self.named_nodes(name)?.first()?)
    }

    fn pair(&self, name: &str) -> Option<VersionPair> {
        let ops = self.first_node(name)?;
        Some(VersionPair {
            major: self.md_int(*ops.first()?)?,
            minor: self.md_int(*ops.get(1)?)?,
        })
    }

    fn strings_of(&self, ops: Option<Vec<Option<u32>>>) -> Vec<String> {
        ops.unwrap_or_default()
            .into_iter()
            .filter_map(|id| self.md_string(id?))
            .collect()
    }

    fn finish(mut self) -> ModuleFacts {
        self.facts.dxil_version = self.pair("dx.version");
        self.facts.validator_version = self.pair("dx.valver");
        self.facts.shader_model = self.first_node("dx.shaderModel").and_then(|ops| {
            Some(ShaderModelFact {
                kind: self.md_string((*ops.first()?)?)?,
                major: self.md_int(*ops.get(1)?)?,
                minor: self.md_int(*ops.get(2)?)?,
            })
        });
        if let Some(entries) = self.named_nodes("dx.entryPoints") {
            self.facts.entry_points = entries
                .iter()
                .map(|e| {
                    self.md_node(*e)
                        .and_then(|ops| self.md_string((*ops.get(1)?)?))
                        .unwrap_or_default()
                })
                .collect();
        }
        self.facts.resources = self.first_node("dx.resources").map(|ops| {
            let count = |i: usize| {
                ops.get(i)
                    .copied()
                    .flatten()
                    .and_then(|id| self.md_node(id))
                    .map_or(0, |list| list.len())
            };
            ResourceCounts {
                srvs: count(0),
                uavs: count(1),
                cbuffers: count(2),
                samplers: count(3),
            }
        });
        self.facts.main_file_name = self
            .strings_of(self.first_node("dx.source.mainFileName"))
            .into_iter()
            .next();
        self.facts.source_args = self.strings_of(self.first_node("dx.source.args"));
        if let Some(nodes) = self.named_nodes("llvm.ident") {
            self.facts.ident = nodes
                .iter()
                .flat_map(|n| self.strings_of(self.md_node(*n)))
                .collect();
        }
        let mut names: Vec<Option<Vec<u8>>> = Vec::new();
        names.resize(self.values.len(), None);
        for (id, name) in std::mem::take(&mut self.names) {
            if let Some(slot) = usize::try_from(id).ok().and_then(|i| names.get_mut(i)) {
                *slot = Some(name);
            }
        }
        for (id, offset, size) in &self.strtab_refs {
            let name = usize::try_from(*offset).ok().and_then(|o| {
                let end = o.checked_add(usize::try_from(*size).ok()?)?;
                self.strtab.get(o..end)
            });
            if let (Some(slot), Some(name)) = (names.get_mut(*id as usize), name) {
                *slot = Some(name.to_vec());
            }
        }
        for (value, name) in self.values.iter().zip(&names) {
            if let Value::Function { declaration } = value {
                let name = lossy(name.as_deref().unwrap_or_default());
                if *declaration {
                    if name.starts_with("dx.op.") {
                        self.facts.dx_ops.push(name.clone());
                    }
                    self.facts.functions_declared.push(name);
                } else {
                    self.facts.functions_defined.push(name);
                }
            }
        }
        self.facts.dx_ops.sort();
        self.facts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_are_written_as_debug_formatting_writes_them() {
        for s in [
            "",
            "dxil-ms-dx",
            "e-m:e-p:32:32-i1:32-i8:32",
            "\u{1}?main@@YAXXZ",
            "a\"b",
            "back\\slash",
            "tab\there",
            "ünïcode",
            "\u{7f}",
            "'single'",
        ] {
            assert_eq!(quoted(s), format!("{s:?}"), "{s:?}");
        }
    }
}
