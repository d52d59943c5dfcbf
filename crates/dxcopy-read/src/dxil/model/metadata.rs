//! Metadata: nodes, strings, named metadata and attachments.

use super::*;

/// One metadata ID's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Metadata {
    /// METADATA_STRING (or one string of METADATA_STRINGS): `!"…"`.
    String(Vec<u8>),
    /// METADATA_VALUE: a value as metadata (`i32 1`, `@global`, or in a
    /// function block a local value).
    Value {
        /// The value's type.
        ty: TypeId,
        /// The value.
        value: ValueId,
    },
    /// METADATA_NODE / METADATA_DISTINCT_NODE: `!{…}` / `distinct !{…}`.
    Node {
        /// `distinct`
        distinct: bool,
        /// The operands (`None`: `null`).
        operands: Vec<Option<MetadataId>>,
    },
    /// A specialized node (DILocation, DIFile, DISubprogram, …) with its
    /// fields as the record stores them.
    Debug(DebugNode),
    /// A record of a later LLVM writer (module version 2) that defines a
    /// metadata ID the LLVM 3.7 model does not describe (DILabel,
    /// DIArgList, …): its code and fields.
    Unknown {
        /// The record code.
        code: u32,
        /// The fields.
        fields: Vec<u64>,
    },
}

/// A specialized debug-info node: its kind, `distinct`, and the record's
/// fields in the LLVM 3.7 layout (BitcodeWriter's `writeDI*`), field 0
/// being the distinct flag. Metadata references among the fields are
/// stored as ID + 1 (0: null), as in the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugNode {
    /// Which node.
    pub kind: DebugNodeKind,
    /// `distinct`
    pub distinct: bool,
    /// All the record's fields, in order.
    pub fields: Vec<u64>,
}

/// The specialized metadata records of LLVM 3.7 (METADATA_LOCATION and
/// METADATA_GENERIC_DEBUG … METADATA_MODULE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DebugNodeKind {
    /// METADATA_LOCATION `[distinct, line, col, scope, inlined-at?]`
    Location,
    /// METADATA_GENERIC_DEBUG `[distinct, tag, vers, header, n x md num]`
    GenericDebug,
    /// METADATA_SUBRANGE `[distinct, count, lo]`
    Subrange,
    /// METADATA_ENUMERATOR `[distinct, value, name]`
    Enumerator,
    /// METADATA_BASIC_TYPE `[distinct, tag, name, size, align, enc]`
    BasicType,
    /// METADATA_FILE `[distinct, filename, directory]`
    File,
    /// METADATA_DERIVED_TYPE
    DerivedType,
    /// METADATA_COMPOSITE_TYPE
    CompositeType,
    /// METADATA_SUBROUTINE_TYPE `[distinct, flags, types]`
    SubroutineType,
    /// METADATA_COMPILE_UNIT
    CompileUnit,
    /// METADATA_SUBPROGRAM
    Subprogram,
    /// METADATA_LEXICAL_BLOCK `[distinct, scope, file, line, column]`
    LexicalBlock,
    /// METADATA_LEXICAL_BLOCK_FILE `[distinct, scope, file, discriminator]`
    LexicalBlockFile,
    /// METADATA_NAMESPACE `[distinct, scope, file, name, line]`
    Namespace,
    /// METADATA_TEMPLATE_TYPE `[distinct, name, type]`
    TemplateTypeParameter,
    /// METADATA_TEMPLATE_VALUE `[distinct, tag, name, type, value]`
    TemplateValueParameter,
    /// METADATA_GLOBAL_VAR
    GlobalVariable,
    /// METADATA_LOCAL_VAR
    LocalVariable,
    /// METADATA_EXPRESSION `[distinct, n x element]`
    Expression,
    /// METADATA_OBJC_PROPERTY
    ObjCProperty,
    /// METADATA_IMPORTED_ENTITY `[distinct, tag, scope, entity, line, name]`
    ImportedEntity,
    /// METADATA_MODULE `[distinct, scope, name, …]`
    Module,
}

impl DebugNode {
    /// The indexes of the fields that refer to metadata, in LLVM 3.7's
    /// operand order of the node (the order LLVM's value enumerator and
    /// slot tracker walk; a field may come twice, as the name of a
    /// DISubprogram does). Field 3 of a DILocation (its scope) holds the
    /// metadata ID itself; every other reference holds ID + 1 (0: null).
    pub fn reference_fields(&self) -> Vec<usize> {
        use DebugNodeKind::*;
        let fixed: &[usize] = match self.kind {
            Location => return (3..self.fields.len().min(5)).collect(),
            GenericDebug => return (3..self.fields.len()).collect(),
            Subrange | Expression => &[],
            Enumerator | BasicType | SubroutineType => &[2],
            DerivedType => &[3, 5, 2, 6, 11],
            CompositeType => &[3, 5, 2, 6, 11, 13, 14, 15],
            File => &[1, 2],
            CompileUnit => &[2, 3, 5, 7, 9, 10, 11, 12, 13],
            Subprogram => &[4, 1, 2, 2, 3, 6, 10, 15, 16, 17, 18],
            LexicalBlock | LexicalBlockFile => &[2, 1],
            Namespace => &[2, 1, 3],
            TemplateTypeParameter => &[1, 2],
            TemplateValueParameter => &[2, 3, 4],
            GlobalVariable => &[1, 2, 4, 6, 2, 3, 9, 10],
            LocalVariable => &[2, 3, 4, 6],
            ObjCProperty => &[1, 2, 4, 5, 7],
            ImportedEntity => &[2, 3, 5],
            Module => &[1, 2, 3, 4, 5],
        };
        fixed.to_vec()
    }

    /// Whether field `index` holds a metadata ID itself rather than ID + 1
    /// (only a DILocation's scope does).
    pub fn holds_plain_id(&self, index: usize) -> bool {
        self.kind == DebugNodeKind::Location && index == 3
    }

    /// The metadata the node refers to, in operand order
    /// ([`DebugNode::reference_fields`]); `None` for a null reference.
    pub fn references(&self) -> Vec<Option<MetadataId>> {
        self.reference_fields()
            .into_iter()
            .map(|i| {
                let raw = self.fields.get(i).copied()?;
                let id = if self.holds_plain_id(i) {
                    raw
                } else {
                    raw.checked_sub(1)?
                };
                u32::try_from(id).ok().map(MetadataId)
            })
            .collect()
    }
}

impl DebugNodeKind {
    /// The kind for a METADATA record code, if it is a specialized node.
    pub fn from_code(code: u32) -> Option<DebugNodeKind> {
        use DebugNodeKind::*;
        Some(match code {
            7 => Location,
            12 => GenericDebug,
            13 => Subrange,
            14 => Enumerator,
            15 => BasicType,
            16 => File,
            17 => DerivedType,
            18 => CompositeType,
            19 => SubroutineType,
            20 => CompileUnit,
            21 => Subprogram,
            22 => LexicalBlock,
            23 => LexicalBlockFile,
            24 => Namespace,
            25 => TemplateTypeParameter,
            26 => TemplateValueParameter,
            27 => GlobalVariable,
            28 => LocalVariable,
            29 => Expression,
            30 => ObjCProperty,
            31 => ImportedEntity,
            32 => Module,
            _ => return None,
        })
    }

    /// The node's name in the listing (`DILocation`, `DIFile`, …).
    pub fn name(self) -> &'static str {
        use DebugNodeKind::*;
        match self {
            Location => "DILocation",
            GenericDebug => "GenericDINode",
            Subrange => "DISubrange",
            Enumerator => "DIEnumerator",
            BasicType => "DIBasicType",
            File => "DIFile",
            DerivedType => "DIDerivedType",
            CompositeType => "DICompositeType",
            SubroutineType => "DISubroutineType",
            CompileUnit => "DICompileUnit",
            Subprogram => "DISubprogram",
            LexicalBlock => "DILexicalBlock",
            LexicalBlockFile => "DILexicalBlockFile",
            Namespace => "DINamespace",
            TemplateTypeParameter => "DITemplateTypeParameter",
            TemplateValueParameter => "DITemplateValueParameter",
            GlobalVariable => "DIGlobalVariable",
            LocalVariable => "DILocalVariable",
            Expression => "DIExpression",
            ObjCProperty => "DIObjCProperty",
            ImportedEntity => "DIImportedEntity",
            Module => "DIModule",
        }
    }
}

/// A METADATA_NAME + METADATA_NAMED_NODE pair: `!name = !{!1, !2}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedMetadata {
    /// The name.
    pub name: Vec<u8>,
    /// The operands (module metadata IDs).
    pub operands: Vec<MetadataId>,
}

/// A METADATA_KIND record: `[id, name]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataKind {
    /// The kind ID attachments use.
    pub id: u32,
    /// The name (`dbg`, `tbaa`, `dx.controlflow.hints`, …).
    pub name: Vec<u8>,
}
