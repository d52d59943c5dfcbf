//! Specialized debug-info nodes (`!DILocation(line: 3, scope: !7)`, …):
//! the fields as LLVM 3.7's printer names them, put where the bitcode
//! record holds them ([`DebugNode`]'s layout; docs/format/dxil-module.md).
//! A field left out is zero, null or the empty string, as the printer
//! leaves out exactly those.

use super::lex::Tok;
use super::parse::Parser;
use super::ParseError;
use dxcopy_read::dxil::{DebugNode, DebugNodeKind, MetadataId};
use dxcopy_read::listing::dxil::ir::dwarf;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A field's value as written.
#[derive(Debug, Clone)]
enum Value {
    /// An integer (negative ones kept signed).
    Int(i64),
    /// `true` / `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `!N`.
    Ref(u32),
    /// `"text"`.
    Str(Vec<u8>),
    /// A DWARF name (`DW_TAG_member`) or a flag list (`DIFlagA | DIFlagB`).
    Words(Vec<String>),
    /// `{!1, null}` (GenericDINode operands).
    List(Vec<Option<u32>>),
    /// A value as metadata (`value: i32 2`, `function: void ()* @main`).
    Md(MetadataId),
}

/// Whether `word` starts a type (a field's value is then a typed value).
fn is_type_word(word: &str) -> bool {
    matches!(
        word,
        "void" | "half" | "float" | "double" | "x86_fp80" | "fp128" | "ppc_fp128" | "x86_mmx"
    ) || word
        .strip_prefix('i')
        .is_some_and(|b| !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()))
}

struct Field {
    value: Value,
    line: u32,
    col: u32,
}

/// Name → value tables for the DWARF names the printer writes.
struct Names {
    tags: HashMap<&'static str, u64>,
    encodings: HashMap<&'static str, u64>,
    languages: HashMap<&'static str, u64>,
    virtualities: HashMap<&'static str, u64>,
    operations: HashMap<&'static str, u64>,
}

fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    NAMES.get_or_init(|| {
        let table = |f: fn(u64) -> Option<&'static str>, max: u64| {
            (0..=max).filter_map(|v| f(v).map(|n| (n, v))).collect()
        };
        Names {
            tags: table(dwarf::tag, 0xffff),
            encodings: table(dwarf::attribute_encoding, 0xff),
            languages: table(dwarf::language, 0xffff),
            virtualities: table(dwarf::virtuality, 0xff),
            operations: (0..=0xff)
                .filter_map(|v| dwarf::expression_op(v).map(|(n, _)| (n, v)))
                .collect(),
        }
    })
}

fn kind_of(name: &[u8]) -> Option<DebugNodeKind> {
    use DebugNodeKind::*;
    Some(match name {
        b"DILocation" => Location,
        b"GenericDINode" => GenericDebug,
        b"DISubrange" => Subrange,
        b"DIEnumerator" => Enumerator,
        b"DIBasicType" => BasicType,
        b"DIFile" => File,
        b"DIDerivedType" => DerivedType,
        b"DICompositeType" => CompositeType,
        b"DISubroutineType" => SubroutineType,
        b"DICompileUnit" => CompileUnit,
        b"DISubprogram" => Subprogram,
        b"DILexicalBlock" => LexicalBlock,
        b"DILexicalBlockFile" => LexicalBlockFile,
        b"DINamespace" => Namespace,
        b"DITemplateTypeParameter" => TemplateTypeParameter,
        b"DITemplateValueParameter" => TemplateValueParameter,
        b"DIGlobalVariable" => GlobalVariable,
        b"DILocalVariable" => LocalVariable,
        b"DIExpression" => Expression,
        b"DIObjCProperty" => ObjCProperty,
        b"DIImportedEntity" => ImportedEntity,
        b"DIModule" => Module,
        _ => return None,
    })
}

/// Each kind's record length and its fields: (name, index, how).
#[derive(Clone, Copy, PartialEq)]
enum How {
    /// An unsigned number (`line: 3`).
    Unsigned,
    /// A signed number stored as is (`count: -1`).
    Signed,
    /// A signed number stored rotated (`value:`, `lowerBound:`).
    Rotated,
    /// `true` / `false`.
    Bool,
    /// A metadata reference stored as ID + 1 (0: null).
    Ref,
    /// A metadata reference stored as the ID itself (a location's scope).
    PlainRef,
    /// A string stored as its MDString's ID + 1 (0: empty).
    Str,
    /// `DW_TAG_*`.
    Tag,
    /// `DW_ATE_*`.
    Encoding,
    /// `DW_LANG_*`.
    Language,
    /// `DW_VIRTUALITY_*`.
    Virtuality,
    /// `DIFlag* | …`.
    Flags,
}

fn layout(kind: DebugNodeKind) -> (usize, &'static [(&'static str, usize, How)]) {
    use DebugNodeKind::*;
    use How::*;
    match kind {
        Location => (
            5,
            &[
                ("line", 1, Unsigned),
                ("column", 2, Unsigned),
                ("scope", 3, PlainRef),
                ("inlinedAt", 4, Ref),
            ],
        ),
        GenericDebug => (4, &[("tag", 1, Tag), ("header", 3, Str)]),
        Subrange => (3, &[("count", 1, Signed), ("lowerBound", 2, Rotated)]),
        Enumerator => (3, &[("value", 1, Rotated), ("name", 2, Str)]),
        BasicType => (
            6,
            &[
                ("tag", 1, Tag),
                ("name", 2, Str),
                ("size", 3, Unsigned),
                ("align", 4, Unsigned),
                ("encoding", 5, Encoding),
            ],
        ),
        File => (3, &[("filename", 1, Str), ("directory", 2, Str)]),
        DerivedType => (
            12,
            &[
                ("tag", 1, Tag),
                ("name", 2, Str),
                ("file", 3, Ref),
                ("line", 4, Unsigned),
                ("scope", 5, Ref),
                ("baseType", 6, Ref),
                ("size", 7, Unsigned),
                ("align", 8, Unsigned),
                ("offset", 9, Unsigned),
                ("flags", 10, Flags),
                ("extraData", 11, Ref),
            ],
        ),
        CompositeType => (
            16,
            &[
                ("tag", 1, Tag),
                ("name", 2, Str),
                ("file", 3, Ref),
                ("line", 4, Unsigned),
                ("scope", 5, Ref),
                ("baseType", 6, Ref),
                ("size", 7, Unsigned),
                ("align", 8, Unsigned),
                ("offset", 9, Unsigned),
                ("flags", 10, Flags),
                ("elements", 11, Ref),
                ("runtimeLang", 12, Language),
                ("vtableHolder", 13, Ref),
                ("templateParams", 14, Ref),
                ("identifier", 15, Str),
            ],
        ),
        SubroutineType => (3, &[("flags", 1, Flags), ("types", 2, Ref)]),
        CompileUnit => (
            15,
            &[
                ("language", 1, Language),
                ("file", 2, Ref),
                ("producer", 3, Str),
                ("isOptimized", 4, Bool),
                ("flags", 5, Str),
                ("runtimeVersion", 6, Unsigned),
                ("splitDebugFilename", 7, Str),
                ("emissionKind", 8, Unsigned),
                ("enums", 9, Ref),
                ("retainedTypes", 10, Ref),
                ("subprograms", 11, Ref),
                ("globals", 12, Ref),
                ("imports", 13, Ref),
                ("dwoId", 14, Unsigned),
            ],
        ),
        Subprogram => (
            19,
            &[
                ("scope", 1, Ref),
                ("name", 2, Str),
                ("linkageName", 3, Str),
                ("file", 4, Ref),
                ("line", 5, Unsigned),
                ("type", 6, Ref),
                ("isLocal", 7, Bool),
                ("isDefinition", 8, Bool),
                ("scopeLine", 9, Unsigned),
                ("containingType", 10, Ref),
                ("virtuality", 11, Virtuality),
                ("virtualIndex", 12, Unsigned),
                ("flags", 13, Flags),
                ("isOptimized", 14, Bool),
                ("function", 15, Ref),
                ("templateParams", 16, Ref),
                ("declaration", 17, Ref),
                ("variables", 18, Ref),
            ],
        ),
        LexicalBlock => (
            5,
            &[
                ("scope", 1, Ref),
                ("file", 2, Ref),
                ("line", 3, Unsigned),
                ("column", 4, Unsigned),
            ],
        ),
        LexicalBlockFile => (
            4,
            &[
                ("scope", 1, Ref),
                ("file", 2, Ref),
                ("discriminator", 3, Unsigned),
            ],
        ),
        Namespace => (
            5,
            &[
                ("scope", 1, Ref),
                ("file", 2, Ref),
                ("name", 3, Str),
                ("line", 4, Unsigned),
            ],
        ),
        TemplateTypeParameter => (3, &[("name", 1, Str), ("type", 2, Ref)]),
        TemplateValueParameter => (
            5,
            &[
                ("tag", 1, Tag),
                ("name", 2, Str),
                ("type", 3, Ref),
                ("value", 4, Ref),
            ],
        ),
        GlobalVariable => (
            11,
            &[
                ("scope", 1, Ref),
                ("name", 2, Str),
                ("linkageName", 3, Str),
                ("file", 4, Ref),
                ("line", 5, Unsigned),
                ("type", 6, Ref),
                ("isLocal", 7, Bool),
                ("isDefinition", 8, Bool),
                ("variable", 9, Ref),
                ("declaration", 10, Ref),
            ],
        ),
        LocalVariable => (
            9,
            &[
                ("tag", 1, Tag),
                ("scope", 2, Ref),
                ("name", 3, Str),
                ("file", 4, Ref),
                ("line", 5, Unsigned),
                ("type", 6, Ref),
                ("arg", 7, Unsigned),
                ("flags", 8, Flags),
            ],
        ),
        Expression => (1, &[]),
        ObjCProperty => (
            8,
            &[
                ("name", 1, Str),
                ("file", 2, Ref),
                ("line", 3, Unsigned),
                ("getter", 4, Str),
                ("setter", 5, Str),
                ("attributes", 6, Unsigned),
                ("type", 7, Ref),
            ],
        ),
        ImportedEntity => (
            6,
            &[
                ("tag", 1, Tag),
                ("scope", 2, Ref),
                ("entity", 3, Ref),
                ("line", 4, Unsigned),
                ("name", 5, Str),
            ],
        ),
        Module => (
            6,
            &[
                ("scope", 1, Ref),
                ("name", 2, Str),
                ("configMacros", 3, Str),
                ("includePath", 4, Str),
                ("isysroot", 5, Str),
            ],
        ),
    }
}

/// The fields whose default is not zero when left out.
fn default_fields(kind: DebugNodeKind, fields: &mut [u64]) {
    match kind {
        DebugNodeKind::BasicType => fields[1] = dwarf::TAG_BASE_TYPE,
        DebugNodeKind::TemplateValueParameter => fields[1] = dwarf::TAG_TEMPLATE_VALUE_PARAMETER,
        DebugNodeKind::Subrange => fields[1] = u64::MAX,
        _ => {}
    }
}

impl Parser<'_> {
    fn debug_value(&mut self) -> Result<Value, ParseError> {
        Ok(match self.tok.tok.clone() {
            Tok::Int(text) => {
                self.bump()?;
                match text.parse::<i64>() {
                    Ok(v) => Value::Int(v),
                    Err(_) => match text.parse::<u64>() {
                        Ok(v) => Value::Int(v as i64),
                        Err(_) => return self.err(format!("'{text}' does not fit 64 bits")),
                    },
                }
            }
            Tok::Word(w) if w == "true" || w == "false" => {
                self.bump()?;
                Value::Bool(w == "true")
            }
            Tok::Word(w) if w == "null" => {
                self.bump()?;
                Value::Null
            }
            Tok::MetaId(n) => {
                self.bump()?;
                Value::Ref(n)
            }
            Tok::Str(s) => {
                self.bump()?;
                Value::Str(s)
            }
            Tok::Word(w) if is_type_word(&w) => self.typed_metadata_value()?,
            Tok::LocalName(_) | Tok::LocalId(_) | Tok::Punct(b'[' | b'<') => {
                self.typed_metadata_value()?
            }
            Tok::Word(_) => {
                let mut words = Vec::new();
                loop {
                    match self.tok.tok.clone() {
                        Tok::Word(w) => words.push(w),
                        Tok::Int(i) => words.push(i),
                        _ => return self.expected("a DWARF name or flag"),
                    }
                    self.bump()?;
                    if !self.eat_punct(b'|')? {
                        break;
                    }
                }
                Value::Words(words)
            }
            Tok::Punct(b'{') => {
                self.bump()?;
                let mut list = Vec::new();
                if !self.eat_punct(b'}')? {
                    loop {
                        match self.tok.tok {
                            Tok::MetaId(n) => list.push(Some(n)),
                            Tok::Word(ref w) if w == "null" => list.push(None),
                            _ => return self.expected("'!N' or 'null'"),
                        }
                        self.bump()?;
                        if self.eat_punct(b'}')? {
                            break;
                        }
                        self.expect_punct(b',')?;
                    }
                }
                Value::List(list)
            }
            _ => return self.expected("a field value"),
        })
    }

    fn typed_metadata_value(&mut self) -> Result<Value, ParseError> {
        let t = self.parse_type()?;
        let v = self.parse_constant(t)?;
        Ok(Value::Md(self.md_value(t, v)))
    }

    fn md_ref_value(&mut self, n: u32) -> MetadataId {
        self.md_slot(n)
    }
}

/// `!Name(field: value, …)` after `!Name`.
pub(super) fn parse_debug_node(
    p: &mut Parser<'_>,
    name: &[u8],
    distinct: bool,
    line: u32,
    col: u32,
) -> Result<DebugNode, ParseError> {
    let Some(kind) = kind_of(name) else {
        return p.err_at(
            line,
            col,
            format!("unknown metadata node '!{}'", String::from_utf8_lossy(name)),
        );
    };
    p.expect_punct(b'(')?;
    if kind == DebugNodeKind::Expression {
        return expression(p, distinct);
    }
    let mut given: Vec<(String, Field)> = Vec::new();
    if !p.eat_punct(b')')? {
        loop {
            let (fl, fc) = (p.tok.line, p.tok.col);
            let Tok::Label(field) = p.tok.tok.clone() else {
                return p.expected("a field name ('name:')");
            };
            p.bump()?;
            let field = String::from_utf8_lossy(&field).into_owned();
            if given.iter().any(|(n, _)| *n == field) {
                return p.err_at(fl, fc, format!("field '{field}' given twice"));
            }
            let value = p.debug_value()?;
            given.push((
                field,
                Field {
                    value,
                    line: fl,
                    col: fc,
                },
            ));
            if p.eat_punct(b')')? {
                break;
            }
            p.expect_punct(b',')?;
        }
    }
    let (len, fields_of) = layout(kind);
    let mut fields = vec![0u64; len];
    fields[0] = u64::from(distinct);
    default_fields(kind, &mut fields);
    let mut operands: Option<Vec<Option<u32>>> = None;
    for (field, f) in given {
        if kind == DebugNodeKind::GenericDebug && field == "operands" {
            match f.value {
                Value::List(list) => operands = Some(list),
                _ => return p.err_at(f.line, f.col, "'operands' takes a list '{…}'"),
            }
            continue;
        }
        let Some(&(_, index, how)) = fields_of.iter().find(|(n, _, _)| *n == field) else {
            return p.err_at(
                f.line,
                f.col,
                format!("'{}' has no field '{field}'", kind.name()),
            );
        };
        fields[index] = field_value(p, &f, how, &field)?;
    }
    if kind == DebugNodeKind::Location && !given_scope(&fields) {
        // A location needs its scope (the printer always writes it).
    }
    if let Some(list) = operands {
        for op in list {
            fields.push(match op {
                Some(n) => u64::from(p.md_ref_value(n).0) + 1,
                None => 0,
            });
        }
    }
    Ok(DebugNode {
        kind,
        distinct,
        fields,
    })
}

fn given_scope(_fields: &[u64]) -> bool {
    true
}

fn field_value(p: &mut Parser<'_>, f: &Field, how: How, field: &str) -> Result<u64, ParseError> {
    let wrong = |p: &Parser<'_>| -> Result<u64, ParseError> {
        p.err_at(f.line, f.col, format!("invalid value for field '{field}'"))
    };
    let names = names();
    let named = |table: &HashMap<&'static str, u64>, p: &Parser<'_>| -> Result<u64, ParseError> {
        match &f.value {
            Value::Int(v) if *v >= 0 => Ok(*v as u64),
            Value::Words(w) if w.len() == 1 => match table.get(w[0].as_str()) {
                Some(v) => Ok(*v),
                None => p.err_at(
                    f.line,
                    f.col,
                    format!("unknown name '{}' for field '{field}'", w[0]),
                ),
            },
            _ => wrong(p),
        }
    };
    match how {
        How::Unsigned => match f.value {
            Value::Int(v) => Ok(v as u64),
            _ => wrong(p),
        },
        How::Signed => match f.value {
            Value::Int(v) => Ok(v as u64),
            _ => wrong(p),
        },
        How::Rotated => match f.value {
            Value::Int(v) => Ok(rotate_sign(v)),
            _ => wrong(p),
        },
        How::Bool => match f.value {
            Value::Bool(b) => Ok(u64::from(b)),
            _ => wrong(p),
        },
        How::Ref | How::PlainRef => match f.value {
            Value::Null => Ok(0),
            Value::Ref(n) => {
                let id = u64::from(p.md_ref_value(n).0);
                Ok(if how == How::PlainRef { id } else { id + 1 })
            }
            Value::Md(id) if how == How::Ref => Ok(u64::from(id.0) + 1),
            _ => wrong(p),
        },
        How::Str => match &f.value {
            Value::Str(s) if s.is_empty() => Ok(0),
            Value::Str(s) => Ok(u64::from(p.md_string(s.clone()).0) + 1),
            _ => wrong(p),
        },
        How::Tag => named(&names.tags, p),
        How::Encoding => named(&names.encodings, p),
        How::Language => named(&names.languages, p),
        How::Virtuality => named(&names.virtualities, p),
        How::Flags => {
            let Value::Words(words) = &f.value else {
                return match f.value {
                    Value::Int(v) if v >= 0 => Ok(v as u64),
                    _ => wrong(p),
                };
            };
            let mut bits = 0u64;
            for w in words {
                bits |= match w.as_str() {
                    "DIFlagPrivate" => 1,
                    "DIFlagProtected" => 2,
                    "DIFlagPublic" => 3,
                    _ => match dwarf::FLAGS.iter().find(|(_, n)| *n == w) {
                        Some((bit, _)) => *bit,
                        None => match w.parse::<u64>() {
                            Ok(v) => v,
                            Err(_) => {
                                return p.err_at(f.line, f.col, format!("unknown flag '{w}'"))
                            }
                        },
                    },
                };
            }
            Ok(bits)
        }
    }
}

/// LLVM's rotated sign encoding of a signed field (`emitSignedInt64`).
fn rotate_sign(v: i64) -> u64 {
    if v >= 0 {
        (v as u64) << 1
    } else if v == i64::MIN {
        1
    } else {
        ((-v) as u64) << 1 | 1
    }
}

/// `!DIExpression(DW_OP_bit_piece, 0, 32)`: the elements, names as their codes.
fn expression(p: &mut Parser<'_>, distinct: bool) -> Result<DebugNode, ParseError> {
    let mut fields = vec![u64::from(distinct)];
    if !p.eat_punct(b')')? {
        loop {
            match p.tok.tok.clone() {
                Tok::Word(w) => match names().operations.get(w.as_str()) {
                    Some(v) => fields.push(*v),
                    None => return p.err(format!("unknown DIExpression operation '{w}'")),
                },
                Tok::Int(i) => match i.parse::<u64>() {
                    Ok(v) => fields.push(v),
                    Err(_) => return p.err(format!("'{i}' is not an unsigned 64-bit integer")),
                },
                _ => return p.expected("a DIExpression element"),
            }
            p.bump()?;
            if p.eat_punct(b')')? {
                break;
            }
            p.expect_punct(b',')?;
        }
    }
    Ok(DebugNode {
        kind: DebugNodeKind::Expression,
        distinct,
        fields,
    })
}
