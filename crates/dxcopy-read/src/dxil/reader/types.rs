//! The type table: TYPE_BLOCK records and the lookups of types by shape.

use super::*;

impl Reader {
    /// A type ID used by a type record: defined, or a forward reference to
    /// a named struct inside the declared table size.
    pub(super) fn type_ref(&mut self, r: &Record<'_>, id: u64) -> Result<TypeId> {
        let index = u32_field(r, id, "type ID out of range")?;
        if (index as usize) < self.module.types.len() {
            return Ok(TypeId(index));
        }
        if self.num_types.is_some_and(|n| id < n) {
            self.forward_structs.entry(index).or_insert(r.bit_offset);
            return Ok(TypeId(index));
        }
        Err(invalid(r, "type ID out of range"))
    }

    /// A type ID used outside the type table: it must be defined.
    pub(crate) fn type_id(&self, r: &Record<'_>, id: u64) -> Result<TypeId> {
        match usize::try_from(id) {
            Ok(i) if i < self.module.types.len() => Ok(TypeId(i as u32)),
            _ => Err(invalid(r, "type ID out of range")),
        }
    }

    pub(crate) fn ty(&self, id: TypeId) -> &Type {
        // IDs are checked against the table before they are stored.
        self.module.types.get(id.index()).unwrap_or(&Type::Void)
    }

    /// Whether `id` is (so far) a type a pointer, array or struct may hold.
    pub(super) fn valid_element(&self, id: TypeId, function_ok: bool) -> bool {
        match self.module.types.get(id.index()) {
            // A forward reference is a named struct.
            None => true,
            Some(Type::Void | Type::Label | Type::Metadata) => false,
            Some(Type::Function(_)) => function_ok,
            Some(_) => true,
        }
    }

    pub(super) fn type_block(&mut self, stream: &mut StreamReader<'_>) -> Result<()> {
        let mut fields = Vec::new();
        flat_block_with(
            stream,
            &mut fields,
            |code| code != type_code::STRUCT_NAME,
            |r, f| self.type_record(r, f),
        )?;
        let declared = self.num_types.unwrap_or(0);
        if declared != self.module.types.len() as u64 {
            return Err(structure(
                stream.pos(),
                "the type table holds fewer types than NUMENTRY declares",
            ));
        }
        if let Some((&id, &at)) = self.forward_structs.iter().next() {
            if !matches!(self.module.types.get(id as usize), Some(Type::Struct(_))) {
                return Err(BitcodeError {
                    bit_offset: at,
                    kind: BitcodeErrorKind::InvalidModule {
                        reason: "only named structs can be forward referenced",
                    },
                });
            }
        }
        // At most one key per type (the table is complete: no rehashing).
        self.type_index.reserve(self.module.types.len());
        for (i, t) in self.module.types.iter().enumerate() {
            let key = match t {
                Type::Integer { bits } => TypeKey::Int(*bits),
                Type::Pointer {
                    pointee,
                    address_space,
                } => TypeKey::Pointer(*pointee, *address_space),
                Type::OpaquePointer { address_space } => TypeKey::OpaquePointer(*address_space),
                Type::Vector { len, element } => TypeKey::Vector(*len, *element),
                Type::Struct(StructType {
                    name: None,
                    packed,
                    body: Some(body),
                }) => TypeKey::LiteralStruct(body.clone(), *packed),
                _ => continue,
            };
            self.type_index.entry(key).or_insert(TypeId(i as u32));
        }
        Ok(())
    }

    pub(super) fn type_record(&mut self, r: &Record<'_>, f: &[u64]) -> Result<()> {
        use type_code as c;
        let need = |n: usize| at_least(r, f, n);
        let ty = match r.code {
            c::NUMENTRY => {
                need(1)?;
                if self.num_types.is_some() {
                    return Err(invalid(r, "a second NUMENTRY"));
                }
                self.num_types = Some(f[0]);
                return Ok(());
            }
            c::STRUCT_NAME => {
                self.pending_struct_name = Some(string_field(r, 0)?);
                return Ok(());
            }
            c::VOID => Type::Void,
            c::HALF => Type::Half,
            c::FLOAT => Type::Float,
            c::DOUBLE => Type::Double,
            c::X86_FP80 => Type::X86Fp80,
            c::FP128 => Type::Fp128,
            c::PPC_FP128 => Type::PpcFp128,
            c::LABEL => Type::Label,
            c::METADATA => Type::Metadata,
            c::X86_MMX => Type::X86Mmx,
            c::INTEGER => {
                need(1)?;
                if f[0] == 0 || f[0] > MAX_INT_BITS {
                    return Err(invalid(r, "integer width out of range"));
                }
                Type::Integer { bits: f[0] as u32 }
            }
            c::POINTER => {
                need(1)?;
                let pointee = self.type_ref(r, f[0])?;
                if !self.valid_element(pointee, true) {
                    return Err(invalid(r, "pointer to void, label or metadata"));
                }
                let address_space = match f.get(1) {
                    Some(&a) if f.len() == 2 => u32_field(r, a, "address space out of range")?,
                    _ => 0,
                };
                Type::Pointer {
                    pointee,
                    address_space,
                }
            }
            c::OPAQUE_POINTER => {
                need(1)?;
                Type::OpaquePointer {
                    address_space: u32_field(r, f[0], "address space out of range")?,
                }
            }
            c::FUNCTION
            | c::FUNCTION_OLD
            | c::STRUCT_ANON
            | c::STRUCT_NAMED
            | c::OPAQUE
            | c::ARRAY
            | c::VECTOR => self.compound_type(r, f)?,
            _ => return Err(unknown_record(r)),
        };
        let index = self.module.types.len() as u64;
        if self.num_types.is_none_or(|n| index >= n) {
            return Err(invalid(r, "more types than NUMENTRY declares"));
        }
        let named = matches!(&ty, Type::Struct(s) if s.name.is_some());
        if !named && self.forward_structs.contains_key(&(index as u32)) {
            return Err(invalid(r, "only named structs can be forward referenced"));
        }
        self.module.types.push(ty);
        Ok(())
    }

    /// The function, struct, array and vector types: the records whose
    /// fields name other types.
    fn compound_type(&mut self, r: &Record<'_>, f: &[u64]) -> Result<Type> {
        use type_code as c;
        let need = |n: usize| at_least(r, f, n);
        Ok(match r.code {
            c::FUNCTION | c::FUNCTION_OLD => {
                let first = if r.code == c::FUNCTION { 1 } else { 2 };
                need(first + 1)?;
                let ret = self.type_ref(r, f[first])?;
                let mut params = Vec::with_capacity(f.len() - first - 1);
                for &p in &f[first + 1..] {
                    let p = self.type_ref(r, p)?;
                    if r.code == c::FUNCTION
                        && matches!(
                            self.module.types.get(p.index()),
                            Some(Type::Void | Type::Function(_))
                        )
                    {
                        return Err(invalid(r, "invalid function parameter type"));
                    }
                    params.push(p);
                }
                Type::Function(FunctionType {
                    vararg: f[0] != 0,
                    ret,
                    params,
                })
            }
            c::STRUCT_ANON => {
                need(1)?;
                let mut body = Vec::with_capacity(f.len() - 1);
                for &e in &f[1..] {
                    body.push(self.type_ref(r, e)?);
                }
                Type::Struct(StructType {
                    name: None,
                    packed: f[0] != 0,
                    body: Some(body),
                })
            }
            c::STRUCT_NAMED => {
                need(1)?;
                let mut body = Vec::with_capacity(f.len() - 1);
                for &e in &f[1..] {
                    body.push(self.type_ref(r, e)?);
                }
                Type::Struct(StructType {
                    name: Some(self.pending_struct_name.take().unwrap_or_default()),
                    packed: f[0] != 0,
                    body: Some(body),
                })
            }
            c::OPAQUE => {
                if f.len() != 1 {
                    return Err(invalid(r, "OPAQUE takes one field"));
                }
                Type::Struct(StructType {
                    name: Some(self.pending_struct_name.take().unwrap_or_default()),
                    packed: false,
                    body: None,
                })
            }
            c::ARRAY | c::VECTOR => {
                need(2)?;
                let element = self.type_ref(r, f[1])?;
                if !self.valid_element(element, false) {
                    return Err(invalid(r, "invalid element type"));
                }
                if r.code == c::ARRAY {
                    Type::Array { len: f[0], element }
                } else {
                    if f[0] == 0 {
                        return Err(invalid(r, "vector of zero elements"));
                    }
                    let scalar = matches!(
                        self.module.types.get(element.index()),
                        Some(
                            Type::Integer { .. }
                                | Type::Half
                                | Type::Float
                                | Type::Double
                                | Type::X86Fp80
                                | Type::Fp128
                                | Type::PpcFp128
                                | Type::Pointer { .. }
                        )
                    );
                    if !scalar {
                        return Err(invalid(r, "invalid vector element type"));
                    }
                    Type::Vector { len: f[0], element }
                }
            }
            _ => return Err(unknown_record(r)),
        })
    }

    /// The type with `key` in the table, or the record's error.
    pub(super) fn find_type(&self, r: &Record<'_>, key: TypeKey) -> Result<TypeId> {
        self.type_index
            .get(&key)
            .copied()
            .ok_or_else(|| invalid(r, "a result type is missing from the type table"))
    }

    pub(crate) fn int_type(&self, r: &Record<'_>, bits: u32) -> Result<TypeId> {
        self.find_type(r, TypeKey::Int(bits))
    }

    pub(crate) fn pointer_type(
        &self,
        r: &Record<'_>,
        pointee: TypeId,
        address_space: u32,
    ) -> Result<TypeId> {
        self.find_type(r, TypeKey::Pointer(pointee, address_space))
    }

    pub(crate) fn vector_type(&self, r: &Record<'_>, len: u64, element: TypeId) -> Result<TypeId> {
        self.find_type(r, TypeKey::Vector(len, element))
    }

    pub(crate) fn literal_struct(
        &self,
        r: &Record<'_>,
        body: Vec<TypeId>,
        packed: bool,
    ) -> Result<TypeId> {
        self.find_type(r, TypeKey::LiteralStruct(body, packed))
    }

    /// The type of a pointer to `pointee`: the typed pointer, or in a
    /// module of opaque pointers the `ptr` of that address space.
    pub(super) fn pointer_type_opt(&self, pointee: TypeId, address_space: u32) -> Option<TypeId> {
        self.type_index
            .get(&TypeKey::Pointer(pointee, address_space))
            .or_else(|| self.type_index.get(&TypeKey::OpaquePointer(address_space)))
            .copied()
    }

    // ------------------------------------------------------------ attributes
}

/// `r` has at least `n` fields, or its error.
fn at_least(r: &Record<'_>, f: &[u64], n: usize) -> Result<()> {
    if f.len() < n {
        Err(invalid(r, "too few fields"))
    } else {
        Ok(())
    }
}

/// A TYPE_BLOCK record of a code LLVM 3.7 does not know.
fn unknown_record(r: &Record<'_>) -> BitcodeError {
    BitcodeError {
        bit_offset: r.bit_offset,
        kind: BitcodeErrorKind::UnknownRecord {
            block_id: r.block_id,
            code: r.code,
        },
    }
}
