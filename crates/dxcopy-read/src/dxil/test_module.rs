//! A small builder of [`Module`]s with `dx.*` metadata for unit tests: types,
//! constants, metadata strings and nodes, named metadata.

use crate::dxil::model::{
    BasicBlock, BlockId, Constant, ConstantKind, DllStorage, FastMathFlags, Function, FunctionBody,
    FunctionType, GlobalCommon, GlobalVariable, Instruction, InstructionKind, Linkage, LocalValue,
    Metadata, MetadataId, Module, ModuleValue, NamedMetadata, Operand, StructType, TailCall,
    ThreadLocal, Type, TypeId, ValueId, Visibility,
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

    fn common(&self, name: &str, linkage: Linkage) -> GlobalCommon {
        GlobalCommon {
            name: name.as_bytes().to_vec(),
            value: ValueId(self.module.values.len() as u32),
            raw_linkage: 0,
            linkage,
            visibility: Visibility::Default,
            dll_storage: DllStorage::Default,
            unnamed_addr: false,
            comdat: 0,
        }
    }

    /// A global variable of `value_type` in `address_space`.
    pub fn global(
        &mut self,
        name: &str,
        value_type: TypeId,
        address_space: u32,
        linkage: Linkage,
        is_constant: bool,
    ) -> ValueId {
        let common = self.common(name, linkage);
        let value = common.value;
        let pointer_type = Some(self.ty(Type::Pointer {
            pointee: value_type,
            address_space,
        }));
        self.module.globals.push(GlobalVariable {
            common,
            value_type,
            pointer_type,
            is_constant,
            address_space,
            initializer: None,
            alignment: 0,
            section: None,
            thread_local: ThreadLocal::NotThreadLocal,
            externally_initialized: false,
        });
        self.module
            .values
            .push(ModuleValue::Global(self.module.globals.len() as u32 - 1));
        value
    }

    /// A function of type `ret (params)`, declared, or defined by `body`
    /// (see [`Builder::body`]).
    pub fn function(
        &mut self,
        name: &str,
        ret: TypeId,
        params: &[TypeId],
        body: Option<FunctionBody>,
    ) -> ValueId {
        let function_type = self.ty(Type::Function(FunctionType {
            vararg: false,
            ret,
            params: params.to_vec(),
        }));
        let common = self.common(name, Linkage::External);
        let value = common.value;
        let pointer_type = Some(self.pointer(function_type));
        self.module.functions.push(Function {
            common,
            function_type,
            pointer_type,
            calling_conv: 0,
            is_declaration: body.is_none(),
            attributes: 0,
            alignment: 0,
            section: None,
            gc: None,
            prologue_data: None,
            prefix_data: None,
            personality: None,
            body,
        });
        self.module.values.push(ModuleValue::Function(
            self.module.functions.len() as u32 - 1,
        ));
        value
    }

    /// An empty body of `blocks` blocks for the function defined next; its
    /// values follow the module's and that function's (add every other
    /// module value first).
    pub fn body(&self, blocks: usize) -> FunctionBody {
        FunctionBody {
            first_value: self.module.values.len() as u32 + 1,
            blocks: vec![BasicBlock::default(); blocks],
            ..FunctionBody::default()
        }
    }
}

/// Appends an instruction to `block` of `body`; returns its value when it
/// has a type.
pub(crate) fn push(
    body: &mut FunctionBody,
    block: usize,
    kind: InstructionKind,
    ty: Option<TypeId>,
) -> Option<ValueId> {
    let index = body.blocks[block].instructions.len() as u32;
    let value = ty.map(|_| {
        let v = ValueId(body.first_value + body.values.len() as u32);
        body.values.push(LocalValue::Instruction {
            block: BlockId(block as u32),
            index,
        });
        v
    });
    body.blocks[block].instructions.push(Instruction {
        kind,
        ty,
        value,
        name: None,
        debug_loc: None,
        attachments: Vec::new(),
    });
    value
}

/// A call of `callee` (of type `function_type`) with value arguments.
pub(crate) fn call(callee: ValueId, function_type: TypeId, args: &[ValueId]) -> InstructionKind {
    InstructionKind::Call {
        callee: Operand::Value(callee),
        function_type,
        args: args.iter().map(|v| Operand::Value(*v)).collect(),
        attributes: 0,
        calling_conv: 0,
        tail: TailCall::None,
        fast_math: FastMathFlags::default(),
        explicit_type: false,
    }
}
