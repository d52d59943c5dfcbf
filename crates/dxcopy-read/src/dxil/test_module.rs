//! A small builder of [`Module`]s with `dx.*` metadata for unit tests: types,
//! constants, metadata strings and nodes, named metadata.

use crate::dxil::model::{
    Constant, ConstantKind, Metadata, MetadataId, Module, ModuleValue, NamedMetadata, StructType,
    Type, TypeId, ValueId,
};

/// Builds a module piece by piece.
pub(crate) struct Builder {
    pub module: Module,
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            module: Module {
                data_layout: Some(
                    "e-m:e-p:32:32-i1:32-i8:8-i16:16-i32:32-i64:64-f16:16-f32:32-f64:64-n8:16:32:64"
                        .into(),
                ),
                ..Module::default()
            },
        }
    }

    pub fn ty(&mut self, ty: Type) -> TypeId {
        if let Some(i) = self.module.types.iter().position(|t| *t == ty) {
            return TypeId(i as u32);
        }
        self.module.types.push(ty);
        TypeId(self.module.types.len() as u32 - 1)
    }

    pub fn int_ty(&mut self, bits: u32) -> TypeId {
        self.ty(Type::Integer { bits })
    }

    pub fn float(&mut self) -> TypeId {
        self.ty(Type::Float)
    }

    pub fn vector(&mut self, len: u64, element: TypeId) -> TypeId {
        self.ty(Type::Vector { len, element })
    }

    pub fn array(&mut self, len: u64, element: TypeId) -> TypeId {
        self.ty(Type::Array { len, element })
    }

    pub fn pointer(&mut self, pointee: TypeId) -> TypeId {
        self.ty(Type::Pointer {
            pointee,
            address_space: 0,
        })
    }

    pub fn named_struct(&mut self, name: &str, body: Vec<TypeId>) -> TypeId {
        self.module.types.push(Type::Struct(StructType {
            name: Some(name.as_bytes().to_vec()),
            packed: false,
            body: Some(body),
        }));
        TypeId(self.module.types.len() as u32 - 1)
    }

    pub fn constant(&mut self, ty: TypeId, kind: ConstantKind) -> ValueId {
        self.module.constants.push(Constant { ty, kind });
        self.module.values.push(ModuleValue::Constant(
            self.module.constants.len() as u32 - 1,
        ));
        ValueId(self.module.values.len() as u32 - 1)
    }

    fn md(&mut self, metadata: Metadata) -> MetadataId {
        self.module.metadata.push(metadata);
        MetadataId(self.module.metadata.len() as u32 - 1)
    }

    /// `i32 value` (or another width) as metadata.
    pub fn int(&mut self, bits: u32, value: i64) -> MetadataId {
        let ty = self.int_ty(bits);
        let value = self.constant(ty, ConstantKind::Integer(value));
        self.md(Metadata::Value { ty, value })
    }

    pub fn i32(&mut self, value: i64) -> MetadataId {
        self.int(32, value)
    }

    pub fn string(&mut self, text: &str) -> MetadataId {
        self.md(Metadata::String(text.as_bytes().to_vec()))
    }

    /// `T undef` as metadata.
    pub fn undef(&mut self, ty: TypeId) -> MetadataId {
        let value = self.constant(ty, ConstantKind::Undef);
        self.md(Metadata::Value { ty, value })
    }

    pub fn node(&mut self, operands: Vec<Option<MetadataId>>) -> MetadataId {
        self.md(Metadata::Node {
            distinct: false,
            operands,
        })
    }

    /// A node of integers.
    pub fn ints(&mut self, values: &[i64]) -> MetadataId {
        let operands = values.iter().map(|v| Some(self.i32(*v))).collect();
        self.node(operands)
    }

    pub fn named(&mut self, name: &str, operands: Vec<MetadataId>) {
        self.module.named_metadata.push(NamedMetadata {
            name: name.as_bytes().to_vec(),
            operands,
        });
    }

    /// `dx.version`, `dx.valver` and `dx.shaderModel`.
    pub fn versions(&mut self, kind: &str, major: i64, minor: i64) {
        let version = self.ints(&[1, minor]);
        self.named("dx.version", vec![version]);
        self.named("dx.valver", vec![version]);
        let kind = self.string(kind);
        let major = self.i32(major);
        let minor = self.i32(minor);
        let model = self.node(vec![Some(kind), Some(major), Some(minor)]);
        self.named("dx.shaderModel", vec![model]);
    }

    /// A field annotation from tag/value pairs.
    pub fn field(&mut self, pairs: Vec<(i64, MetadataId)>) -> MetadataId {
        let mut operands = Vec::new();
        for (tag, value) in pairs {
            operands.push(Some(self.i32(tag)));
            operands.push(Some(value));
        }
        self.node(operands)
    }
}
