//! Metadata node bodies as LLVM 3.7 writes them: tuples (`!{…}`) and the
//! specialized debug-info nodes (`!DILocation(…)`, `!DISubprogram(…)`, …),
//! and dxc's ` ; var:` comment (docs/format/dxil-listing.md, "Metadata").

use std::fmt::Write as _;

use super::dwarf;
use super::slots::{field_ref, location_column, metadata_entry, MdKey};
use super::write::{escaped, Local, Printer};
use crate::dxil::model::{DebugNode, DebugNodeKind, Metadata, MetadataId};

/// Prints a node's fields as `MDFieldPrinter` does: `name: value` pairs
/// separated by `, `.
struct Fields<'p, 'm> {
    printer: &'p Printer<'m>,
    local: Option<&'p Local<'m>>,
    node: &'p DebugNode,
    first: bool,
}

impl<'p, 'm> Fields<'p, 'm> {
    fn separator(&mut self, out: &mut String) {
        if !self.first {
            out.push_str(", ");
        }
        self.first = false;
    }

    fn raw(&self, index: usize) -> u64 {
        self.node.fields.get(index).copied().unwrap_or(0)
    }

    fn string_of(&self, index: usize) -> Vec<u8> {
        field_ref(self.node, index)
            .and_then(|id| {
                match metadata_entry(self.printer.m, self.local.map(|l| (l.index, l.body)), id) {
                    Some(Metadata::String(s)) => Some(s.clone()),
                    _ => None,
                }
            })
            .unwrap_or_default()
    }

    fn tag(&mut self, out: &mut String, index: usize) {
        self.separator(out);
        out.push_str("tag: ");
        let tag = self.raw(index);
        match dwarf::tag(tag) {
            Some(name) => out.push_str(name),
            None => {
                let _ = write!(out, "{tag}");
            }
        }
    }

    fn string(&mut self, out: &mut String, name: &str, index: usize, skip_empty: bool) {
        let value = self.string_of(index);
        if skip_empty && value.is_empty() {
            return;
        }
        self.separator(out);
        let _ = write!(out, "{name}: \"");
        escaped(out, &value);
        out.push('"');
    }

    fn metadata(
        &mut self,
        out: &mut String,
        name: &str,
        reference: Option<MetadataId>,
        skip_null: bool,
    ) {
        if skip_null && reference.is_none() {
            return;
        }
        self.separator(out);
        let _ = write!(out, "{name}: ");
        match reference {
            Some(id) => self.printer.metadata_ref(out, self.local, id),
            None => out.push_str("null"),
        }
    }

    fn field_metadata(&mut self, out: &mut String, name: &str, index: usize, skip_null: bool) {
        let reference = field_ref(self.node, index);
        self.metadata(out, name, reference, skip_null);
    }

    fn unsigned(&mut self, out: &mut String, name: &str, value: u64, skip_zero: bool) {
        if skip_zero && value == 0 {
            return;
        }
        self.separator(out);
        let _ = write!(out, "{name}: {value}");
    }

    fn signed(&mut self, out: &mut String, name: &str, value: i64, skip_zero: bool) {
        if skip_zero && value == 0 {
            return;
        }
        self.separator(out);
        let _ = write!(out, "{name}: {value}");
    }

    /// An `unsigned` field of LLVM's node (32 bits).
    fn unsigned32(&mut self, out: &mut String, name: &str, index: usize, skip_zero: bool) {
        let value = self.raw(index) & 0xffff_ffff;
        self.unsigned(out, name, value, skip_zero);
    }

    fn boolean(&mut self, out: &mut String, name: &str, index: usize) {
        self.separator(out);
        let _ = write!(
            out,
            "{name}: {}",
            if self.raw(index) != 0 {
                "true"
            } else {
                "false"
            }
        );
    }

    fn flags(&mut self, out: &mut String, index: usize) {
        let mut flags = self.raw(index) & 0xffff_ffff;
        if flags == 0 {
            return;
        }
        self.separator(out);
        out.push_str("flags: ");
        let mut parts: Vec<String> = Vec::new();
        let access = flags & 3;
        if access != 0 {
            parts.push(
                match access {
                    1 => "DIFlagPrivate",
                    2 => "DIFlagProtected",
                    _ => "DIFlagPublic",
                }
                .to_string(),
            );
            flags &= !3;
        }
        for (bit, name) in dwarf::FLAGS {
            if flags & bit != 0 {
                parts.push((*name).to_string());
                flags &= !bit;
            }
        }
        if flags != 0 || parts.is_empty() {
            parts.push(flags.to_string());
        }
        out.push_str(&parts.join(" | "));
    }

    fn dwarf_enum(
        &mut self,
        out: &mut String,
        name: &str,
        index: usize,
        names: fn(u64) -> Option<&'static str>,
        skip_zero: bool,
    ) {
        let value = self.raw(index) & 0xffff_ffff;
        if skip_zero && value == 0 {
            return;
        }
        self.separator(out);
        let _ = write!(out, "{name}: ");
        match names(value) {
            Some(text) => out.push_str(text),
            None => {
                let _ = write!(out, "{value}");
            }
        }
    }
}

/// `unrotateSign`: a signed value stored with its sign in bit 0.
fn unrotate_sign(value: u64) -> i64 {
    if value & 1 == 0 {
        (value >> 1) as i64
    } else if value != 1 {
        -((value >> 1) as i64)
    } else {
        i64::MIN
    }
}

impl<'m> Printer<'m> {
    /// `!N = ` … the body of node `key`.
    pub(super) fn md_node_body(&self, out: &mut String, key: MdKey) {
        let entry = match key {
            MdKey::Table(id) => self.m.metadata(MetadataId(id)),
            MdKey::Local { function, id } => self
                .m
                .functions
                .get(function as usize)
                .and_then(|f| f.body.as_ref())
                .and_then(|b| b.metadata(MetadataId(id), self.m.metadata.len())),
            MdKey::Location {
                line,
                column,
                scope,
                inlined_at,
            } => {
                let _ = write!(out, "!DILocation(line: {line}");
                if column != 0 {
                    let _ = write!(out, ", column: {column}");
                }
                out.push_str(", scope: ");
                self.metadata_ref(out, None, MetadataId(scope));
                if let Some(inlined) = inlined_at {
                    out.push_str(", inlinedAt: ");
                    self.metadata_ref(out, None, MetadataId(inlined));
                }
                out.push(')');
                return;
            }
        };
        match entry {
            Some(Metadata::Node { distinct, operands }) => {
                if *distinct {
                    out.push_str("distinct ");
                }
                out.push_str("!{");
                for (i, op) in operands.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match op {
                        None => out.push_str("null"),
                        Some(id) => self.metadata_ref(out, None, *id),
                    }
                }
                out.push('}');
            }
            Some(Metadata::Debug(node)) => self.debug_node(out, None, node),
            _ => out.push_str("<badref>"),
        }
    }

    /// `WriteMDNodeBodyInternal` for a specialized node.
    ///
    /// Long: one arm per debug-info node kind with its fields in LLVM's
    /// printing order (`writeDILocation` … `writeDIImportedEntity`).
    pub(super) fn debug_node(&self, out: &mut String, local: Option<&Local<'m>>, node: &DebugNode) {
        use DebugNodeKind::*;
        if node.distinct {
            out.push_str("distinct ");
        }
        let _ = write!(out, "!{}(", node.kind.name());
        let mut f = Fields {
            printer: self,
            local,
            node,
            first: true,
        };
        match node.kind {
            Location => {
                let line = f.raw(1) & 0xffff_ffff;
                f.unsigned(out, "line", line, false);
                let column = location_column(f.raw(2));
                f.unsigned(out, "column", column, true);
                let scope = u32::try_from(f.raw(3)).ok().map(MetadataId);
                f.metadata(out, "scope", scope, false);
                f.field_metadata(out, "inlinedAt", 4, true);
            }
            GenericDebug => {
                f.tag(out, 1);
                f.string(out, "header", 3, true);
                if node.fields.len() > 4 {
                    f.separator(out);
                    out.push_str("operands: {");
                    for i in 4..node.fields.len() {
                        if i > 4 {
                            out.push_str(", ");
                        }
                        match field_ref(node, i) {
                            Some(id) => self.metadata_ref(out, local, id),
                            None => out.push_str("null"),
                        }
                    }
                    out.push('}');
                }
            }
            Subrange => {
                let count = f.raw(1) as i64;
                f.signed(out, "count", count, false);
                let lower = unrotate_sign(f.raw(2));
                f.signed(out, "lowerBound", lower, true);
            }
            Enumerator => {
                f.string(out, "name", 2, false);
                let value = unrotate_sign(f.raw(1));
                f.signed(out, "value", value, false);
            }
            BasicType => {
                if f.raw(1) != dwarf::TAG_BASE_TYPE {
                    f.tag(out, 1);
                }
                f.string(out, "name", 2, true);
                let (size, align) = (f.raw(3), f.raw(4));
                f.unsigned(out, "size", size, true);
                f.unsigned(out, "align", align, true);
                f.dwarf_enum(out, "encoding", 5, dwarf::attribute_encoding, true);
            }
            DerivedType => {
                f.tag(out, 1);
                f.string(out, "name", 2, true);
                f.field_metadata(out, "scope", 5, true);
                f.field_metadata(out, "file", 3, true);
                f.unsigned32(out, "line", 4, true);
                f.field_metadata(out, "baseType", 6, false);
                let (size, align, offset) = (f.raw(7), f.raw(8), f.raw(9));
                f.unsigned(out, "size", size, true);
                f.unsigned(out, "align", align, true);
                f.unsigned(out, "offset", offset, true);
                f.flags(out, 10);
                f.field_metadata(out, "extraData", 11, true);
            }
            CompositeType => {
                f.tag(out, 1);
                f.string(out, "name", 2, true);
                f.field_metadata(out, "scope", 5, true);
                f.field_metadata(out, "file", 3, true);
                f.unsigned32(out, "line", 4, true);
                f.field_metadata(out, "baseType", 6, true);
                let (size, align, offset) = (f.raw(7), f.raw(8), f.raw(9));
                f.unsigned(out, "size", size, true);
                f.unsigned(out, "align", align, true);
                f.unsigned(out, "offset", offset, true);
                f.flags(out, 10);
                f.field_metadata(out, "elements", 11, true);
                f.dwarf_enum(out, "runtimeLang", 12, dwarf::language, true);
                f.field_metadata(out, "vtableHolder", 13, true);
                f.field_metadata(out, "templateParams", 14, true);
                f.string(out, "identifier", 15, true);
            }
            SubroutineType => {
                f.flags(out, 1);
                f.field_metadata(out, "types", 2, false);
            }
            File => {
                f.string(out, "filename", 1, false);
                f.string(out, "directory", 2, false);
            }
            CompileUnit => {
                f.dwarf_enum(out, "language", 1, dwarf::language, false);
                f.field_metadata(out, "file", 2, false);
                f.string(out, "producer", 3, true);
                f.boolean(out, "isOptimized", 4);
                f.string(out, "flags", 5, true);
                f.unsigned32(out, "runtimeVersion", 6, false);
                f.string(out, "splitDebugFilename", 7, true);
                f.unsigned32(out, "emissionKind", 8, false);
                f.field_metadata(out, "enums", 9, true);
                f.field_metadata(out, "retainedTypes", 10, true);
                f.field_metadata(out, "subprograms", 11, true);
                f.field_metadata(out, "globals", 12, true);
                f.field_metadata(out, "imports", 13, true);
                let dwo = if node.fields.len() > 14 { f.raw(14) } else { 0 };
                f.unsigned(out, "dwoId", dwo, true);
            }
            Subprogram => {
                f.string(out, "name", 2, true);
                f.string(out, "linkageName", 3, true);
                f.field_metadata(out, "scope", 1, false);
                f.field_metadata(out, "file", 4, true);
                f.unsigned32(out, "line", 5, true);
                f.field_metadata(out, "type", 6, true);
                f.boolean(out, "isLocal", 7);
                f.boolean(out, "isDefinition", 8);
                f.unsigned32(out, "scopeLine", 9, true);
                f.field_metadata(out, "containingType", 10, true);
                f.dwarf_enum(out, "virtuality", 11, dwarf::virtuality, true);
                f.unsigned32(out, "virtualIndex", 12, true);
                f.flags(out, 13);
                f.boolean(out, "isOptimized", 14);
                f.field_metadata(out, "function", 15, true);
                f.field_metadata(out, "templateParams", 16, true);
                f.field_metadata(out, "declaration", 17, true);
                f.field_metadata(out, "variables", 18, true);
            }
            LexicalBlock => {
                f.field_metadata(out, "scope", 1, false);
                f.field_metadata(out, "file", 2, true);
                f.unsigned32(out, "line", 3, true);
                f.unsigned32(out, "column", 4, true);
            }
            LexicalBlockFile => {
                f.field_metadata(out, "scope", 1, false);
                f.field_metadata(out, "file", 2, true);
                f.unsigned32(out, "discriminator", 3, false);
            }
            Namespace => {
                f.string(out, "name", 3, true);
                f.field_metadata(out, "scope", 1, false);
                f.field_metadata(out, "file", 2, true);
                f.unsigned32(out, "line", 4, true);
            }
            Module => {
                f.field_metadata(out, "scope", 1, false);
                f.string(out, "name", 2, true);
                f.string(out, "configMacros", 3, true);
                f.string(out, "includePath", 4, true);
                f.string(out, "isysroot", 5, true);
            }
            TemplateTypeParameter => {
                f.string(out, "name", 1, true);
                f.field_metadata(out, "type", 2, false);
            }
            TemplateValueParameter => {
                if f.raw(1) != dwarf::TAG_TEMPLATE_VALUE_PARAMETER {
                    f.tag(out, 1);
                }
                f.string(out, "name", 2, true);
                f.field_metadata(out, "type", 3, true);
                f.field_metadata(out, "value", 4, false);
            }
            GlobalVariable => {
                f.string(out, "name", 2, true);
                f.string(out, "linkageName", 3, true);
                f.field_metadata(out, "scope", 1, false);
                f.field_metadata(out, "file", 4, true);
                f.unsigned32(out, "line", 5, true);
                f.field_metadata(out, "type", 6, true);
                f.boolean(out, "isLocal", 7);
                f.boolean(out, "isDefinition", 8);
                f.field_metadata(out, "variable", 9, true);
                f.field_metadata(out, "declaration", 10, true);
            }
            LocalVariable => {
                f.tag(out, 1);
                f.string(out, "name", 3, true);
                let skip_arg = f.raw(1) == dwarf::TAG_AUTO_VARIABLE;
                f.unsigned32(out, "arg", 7, skip_arg);
                f.field_metadata(out, "scope", 2, false);
                f.field_metadata(out, "file", 4, true);
                f.unsigned32(out, "line", 5, true);
                f.field_metadata(out, "type", 6, true);
                f.flags(out, 8);
            }
            Expression => expression_elements(out, node.fields.get(1..).unwrap_or_default()),
            ObjCProperty => {
                f.string(out, "name", 1, true);
                f.field_metadata(out, "file", 2, true);
                f.unsigned32(out, "line", 3, true);
                f.string(out, "setter", 5, true);
                f.string(out, "getter", 4, true);
                f.unsigned32(out, "attributes", 6, true);
                f.field_metadata(out, "type", 7, true);
            }
            ImportedEntity => {
                f.tag(out, 1);
                f.string(out, "name", 5, true);
                f.field_metadata(out, "scope", 2, false);
                f.field_metadata(out, "entity", 3, true);
                f.unsigned32(out, "line", 4, true);
            }
        }
        out.push(')');
    }

    /// dxc's ` ; var:"name" !DIExpression(…) func:"name"` after an
    /// `llvm.dbg.declare` / `llvm.dbg.value` call.
    pub(super) fn variable_comment(
        &self,
        out: &mut String,
        local: &Local<'m>,
        variable: MetadataId,
        expression: MetadataId,
    ) {
        let scope = Some((local.index, local.body));
        let (Some(Metadata::Debug(var)), Some(Metadata::Debug(expr))) = (
            metadata_entry(self.m, scope, variable),
            metadata_entry(self.m, scope, expression),
        ) else {
            return;
        };
        if var.kind != DebugNodeKind::LocalVariable || expr.kind != DebugNodeKind::Expression {
            return;
        }
        let name_of = |node: &DebugNode, index: usize| -> Vec<u8> {
            field_ref(node, index)
                .and_then(|id| match metadata_entry(self.m, scope, id) {
                    Some(Metadata::String(s)) => Some(s.clone()),
                    _ => None,
                })
                .unwrap_or_default()
        };
        out.push_str(" ; var:\"");
        out.extend(name_of(var, 3).iter().map(|&b| char::from(b)));
        out.push_str("\" ");
        self.debug_node(out, Some(local), expr);
        if !self.variable_function() {
            return;
        }
        // The variable's scope, through lexical blocks, to its subprogram.
        let mut current = field_ref(var, 2);
        for _ in 0..1024 {
            let Some(id) = current else {
                return;
            };
            match metadata_entry(self.m, scope, id) {
                Some(Metadata::Debug(node))
                    if matches!(
                        node.kind,
                        DebugNodeKind::LexicalBlock | DebugNodeKind::LexicalBlockFile
                    ) =>
                {
                    current = field_ref(node, 1);
                }
                Some(Metadata::Debug(node)) if node.kind == DebugNodeKind::Subprogram => {
                    out.push_str(" func:\"");
                    out.extend(name_of(node, 2).iter().map(|&b| char::from(b)));
                    out.push('"');
                    return;
                }
                _ => return,
            }
        }
    }
}

/// `DIExpression`'s elements: operation names with their arguments when
/// the expression is one LLVM 3.7 accepts, else the raw numbers.
fn expression_elements(out: &mut String, elements: &[u64]) {
    let mut parts: Vec<String> = Vec::new();
    let mut valid = true;
    let mut i = 0;
    while i < elements.len() {
        let Some((name, args)) = dwarf::expression_op(elements[i]) else {
            valid = false;
            break;
        };
        if i + 1 + args > elements.len() {
            valid = false;
            break;
        }
        parts.push(name.to_string());
        parts.extend(elements[i + 1..i + 1 + args].iter().map(u64::to_string));
        i += 1 + args;
        if name == "DW_OP_bit_piece" && i != elements.len() {
            valid = false;
            break;
        }
    }
    if !valid {
        parts = elements.iter().map(u64::to_string).collect();
    }
    out.push_str(&parts.join(", "));
}
