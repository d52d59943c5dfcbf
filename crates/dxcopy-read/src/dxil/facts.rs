//! Module facts: identification, triple, data layout, the `dx.*` named
//! metadata DXIL defines (DXIL.rst), `llvm.ident`, and the functions the
//! module defines and declares (docs/format/bitcode.md: module facts).
//!
//! The facts are a view of the module model ([`crate::dxil::Module`]), read
//! with [`ReadOptions::module_level`]: without function bodies, attribute
//! blocks and metadata kinds (skipped by their length words, or stepped
//! over) and without the fields of debug-info nodes. One reader for the
//! facts and the whole module.

use crate::bitcode::error::{BitcodeError, BitcodeErrorKind, Result};
use crate::budget::{Budget, OverBudget};
use crate::dxil::{Metadata, MetadataId, Module, ModuleValue, ReadOptions};

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
    /// The instructions in the bodies of the functions the module defines
    /// (a shader's entry point, a library's functions), as dxc counts
    /// `insts` for `dx.counters`: read only for a DXIL part's module
    /// ([`ModuleFacts::decode_counting`]), else `None`.
    pub instruction_count: Option<u64>,
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
    /// Bitcode without a MODULE block (the magic alone) has no facts.
    pub fn decode(data: &[u8]) -> Result<ModuleFacts> {
        match Module::parse_with(data, ReadOptions::module_level()) {
            Ok(module) => {
                ModuleFacts::of_within(&module, &Budget::for_input(data.len())).map_err(|e| {
                    BitcodeError {
                        bit_offset: 0,
                        kind: BitcodeErrorKind::OverBudget(e),
                    }
                })
            }
            Err(e) if e.kind == BitcodeErrorKind::NoModule => Ok(ModuleFacts::default()),
            Err(e) => Err(e),
        }
    }

    /// [`ModuleFacts::decode`], reading the function bodies too to fill
    /// [`ModuleFacts::instruction_count`]. Bodies that do not read leave the
    /// count `None` and the module-level facts as [`ModuleFacts::decode`]
    /// gives them.
    pub fn decode_counting(data: &[u8]) -> Result<ModuleFacts> {
        let options = ReadOptions {
            function_bodies: true,
            debug_info: false,
            ..ReadOptions::default()
        };
        let Ok(module) = Module::parse_with(data, options) else {
            return ModuleFacts::decode(data);
        };
        let mut facts =
            ModuleFacts::of_within(&module, &Budget::for_input(data.len())).map_err(|e| {
                BitcodeError {
                    bit_offset: 0,
                    kind: BitcodeErrorKind::OverBudget(e),
                }
            })?;
        facts.instruction_count = Some(instruction_count(&module));
        Ok(facts)
    }

    /// The facts of a module, within the budget of a pass over its stored
    /// metadata ([`Budget::for_stored`]).
    pub fn of(module: &Module) -> std::result::Result<ModuleFacts, OverBudget> {
        ModuleFacts::of_within(
            module,
            &Budget::for_stored(crate::dxil::metadata::stored_size(module)),
        )
    }

    /// The facts of a module, spending `budget` on every string copied:
    /// an entry or a string list named many times is copied per use, so
    /// a fan of references stops at the budget.
    pub fn of_within(
        module: &Module,
        budget: &Budget,
    ) -> std::result::Result<ModuleFacts, OverBudget> {
        let m = Facts { module, budget };
        let mut facts = ModuleFacts {
            identification: module.identification.as_ref().map(|i| Identification {
                producer: i.producer.clone(),
                epoch: i.epoch,
            }),
            module_version: Some(module.version),
            triple: module.triple.clone(),
            data_layout: module.data_layout.clone(),
            ..ModuleFacts::default()
        };
        facts.dxil_version = m.pair(b"dx.version");
        facts.validator_version = m.pair(b"dx.valver");
        facts.shader_model = m.first_node(b"dx.shaderModel").and_then(|ops| {
            Some(ShaderModelFact {
                kind: m.string((*ops.first()?)?)?,
                major: m.int(*ops.get(1)?)?,
                minor: m.int(*ops.get(2)?)?,
            })
        });
        if let Some(entries) = module.named_metadata(b"dx.entryPoints") {
            facts.entry_points = entries
                .operands
                .iter()
                .map(|e| {
                    let _ = budget.spend(24);
                    module
                        .metadata_node(*e)
                        .and_then(|ops| m.string((*ops.get(1)?)?))
                        .unwrap_or_default()
                })
                .collect();
        }
        facts.resources = m.first_node(b"dx.resources").map(|ops| {
            let count = |i: usize| {
                ops.get(i)
                    .copied()
                    .flatten()
                    .and_then(|id| module.metadata_node(id))
                    .map_or(0, |list| list.len())
            };
            ResourceCounts {
                srvs: count(0),
                uavs: count(1),
                cbuffers: count(2),
                samplers: count(3),
            }
        });
        facts.main_file_name = m
            .strings_of(m.first_node(b"dx.source.mainFileName"))
            .into_iter()
            .next();
        facts.source_args = m.strings_of(m.first_node(b"dx.source.args"));
        if let Some(nodes) = module.named_metadata(b"llvm.ident") {
            facts.ident = nodes
                .operands
                .iter()
                .flat_map(|n| m.strings_of(module.metadata_node(*n)))
                .collect();
        }
        for value in &module.values {
            let ModuleValue::Function(i) = value else {
                continue;
            };
            let Some(function) = module.functions.get(*i as usize) else {
                continue;
            };
            let name = lossy(function.name());
            if function.is_declaration {
                if name.starts_with("dx.op.") {
                    facts.dx_ops.push(name.clone());
                }
                facts.functions_declared.push(name);
            } else {
                facts.functions_defined.push(name);
            }
        }
        facts.dx_ops.sort();
        budget.spend(0)?;
        Ok(facts)
    }
}

/// The instructions in the bodies of the functions `module` defines.
pub fn instruction_count(module: &Module) -> u64 {
    module
        .functions
        .iter()
        .filter(|f| !f.is_declaration)
        .filter_map(|f| f.body.as_ref())
        .map(|body| body.instruction_count() as u64)
        .sum()
}

/// Metadata lookups for the facts.
struct Facts<'m> {
    module: &'m Module,
    /// Spent on every string copied; once spent, strings read as absent
    /// and [`ModuleFacts::of_within`] reports the budget.
    budget: &'m Budget,
}

impl Facts<'_> {
    fn string(&self, id: MetadataId) -> Option<String> {
        let s = self.module.metadata_string(id)?;
        self.budget.spend(s.len() as u64 + 24).ok()?;
        Some(lossy(s))
    }

    fn int(&self, id: Option<MetadataId>) -> Option<i64> {
        self.module.metadata_int(id?)
    }

    /// The operands of the first node of a named node.
    fn first_node(&self, name: &[u8]) -> Option<&[Option<MetadataId>]> {
        let named = self.module.named_metadata(name)?;
        self.module.metadata_node(*named.operands.first()?)
    }

    fn pair(&self, name: &[u8]) -> Option<VersionPair> {
        let ops = self.first_node(name)?;
        Some(VersionPair {
            major: self.int(*ops.first()?)?,
            minor: self.int(*ops.get(1)?)?,
        })
    }

    fn strings_of(&self, ops: Option<&[Option<MetadataId>]>) -> Vec<String> {
        ops.unwrap_or_default()
            .iter()
            .filter_map(|id| match self.module.metadata((*id)?)? {
                Metadata::String(s) => {
                    self.budget.spend(s.len() as u64 + 24).ok()?;
                    Some(lossy(s))
                }
                _ => None,
            })
            .collect()
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
