//! The MODULE block's records: global variables, functions, aliases and
//! the fields they share, with names from the string table.

use super::*;

impl Reader {
    pub(super) fn module_record_fields(&mut self, r: &Record<'_>, f: &[u64]) -> Result<()> {
        use module_code as c;
        match r.code {
            c::VERSION => {
                let v = *f.first().ok_or_else(|| invalid(r, "too few fields"))?;
                if v > 2 {
                    return Err(invalid(r, "unknown module version"));
                }
                self.module.version = v;
            }
            c::TRIPLE => self.module.triple = Some(lossy(string_field(r, 0)?)),
            c::DATALAYOUT => self.module.data_layout = Some(lossy(string_field(r, 0)?)),
            c::ASM => self.module.inline_asm = Some(string_field(r, 0)?),
            c::SECTIONNAME => self.module.section_names.push(string_field(r, 0)?),
            c::DEPLIB => self.module.dependent_libraries.push(string_field(r, 0)?),
            c::GCNAME => self.module.gc_names.push(string_field(r, 0)?),
            c::SOURCE_FILENAME => self.module.source_filename = Some(string_field(r, 0)?),
            c::VSTOFFSET => self.module.vst_offset = f.first().copied(),
            c::HASH => {
                if f.len() != 5 {
                    return Err(invalid(r, "HASH takes five words"));
                }
                let mut hash = [0u32; 5];
                for (h, v) in hash.iter_mut().zip(f) {
                    *h = *v as u32;
                }
                self.module.hash = Some(hash);
            }
            c::COMDAT => {
                let comdat = if self.module.version >= 2 {
                    if f.len() < 3 {
                        return Err(invalid(r, "too few fields"));
                    }
                    Comdat {
                        selection_kind: f[2],
                        name: self.strtab_slice(f[0], f[1]).unwrap_or_default(),
                    }
                } else {
                    if f.len() < 2 {
                        return Err(invalid(r, "too few fields"));
                    }
                    let len = usize::try_from(f[1]).unwrap_or(usize::MAX);
                    let chars = f
                        .get(2..)
                        .filter(|c| c.len() >= len)
                        .ok_or_else(|| invalid(r, "comdat name runs past the record"))?;
                    Comdat {
                        selection_kind: f[0],
                        name: chars[..len].iter().map(|&c| c as u8).collect(),
                    }
                };
                self.module.comdats.push(comdat);
            }
            c::GLOBALVAR => self.global_var(r, f)?,
            c::FUNCTION => self.function_record(r, f)?,
            c::ALIAS_OLD | c::ALIAS => self.alias(r, f)?,
            c::PURGEVALS => return Err(invalid(r, "PURGEVALS (pre-3.0 bitcode)")),
            _ => {}
        }
        Ok(())
    }

    pub(super) fn strtab_slice(&self, offset: u64, size: u64) -> Option<Vec<u8>> {
        let start = usize::try_from(offset).ok()?;
        let end = start.checked_add(usize::try_from(size).ok()?)?;
        self.strtab.get(start..end).map(<[u8]>::to_vec)
    }

    /// Version 2 records start with the name's (offset, size) in the string
    /// table; returns the fields after them.
    pub(super) fn strip_strtab<'f>(&mut self, r: &Record<'_>, f: &'f [u64]) -> Result<&'f [u64]> {
        if self.module.version < 2 {
            return Ok(f);
        }
        if f.len() < 2 {
            return Err(invalid(r, "too few fields"));
        }
        let id = self.module.values.len() as u32;
        self.strtab_names.push((id, f[0], f[1]));
        Ok(&f[2..])
    }

    pub(super) fn new_module_value(&mut self, value: ModuleValue, ty: Option<TypeId>) -> ValueId {
        let id = ValueId(self.module.values.len() as u32);
        self.module.values.push(value);
        self.value_types.push(ty);
        id
    }

    /// An optional value reference of a global record (`id + 1`, 0 none).
    pub(super) fn value_ref_plus_one(&mut self, r: &Record<'_>, v: u64) -> Result<Option<ValueId>> {
        if v == 0 {
            return Ok(None);
        }
        self.value_ref(r, v - 1).map(Some)
    }

    /// A module value referred to by a global record or module constant,
    /// possibly before it is defined.
    pub(crate) fn value_ref(&mut self, r: &Record<'_>, v: u64) -> Result<ValueId> {
        let id = u32_field(r, v, "value ID out of range")?;
        if (id as usize) >= self.module.values.len() {
            self.pending_values.note(id, r.bit_offset);
        }
        Ok(ValueId(id))
    }

    pub(super) fn common(
        &self,
        r: &Record<'_>,
        raw_linkage: u64,
        f: &[u64],
        at: Fields,
    ) -> Result<GlobalCommon> {
        let linkage = decode_linkage(raw_linkage);
        let local = matches!(linkage, Linkage::Internal | Linkage::Private);
        let visibility = match at.visibility.and_then(|i| f.get(i)) {
            Some(&v) if !local => decode_visibility(v),
            _ => Visibility::Default,
        };
        let dll_storage = match at.dll_storage.and_then(|i| f.get(i)) {
            Some(&v) => match v {
                1 => DllStorage::Import,
                2 => DllStorage::Export,
                _ => DllStorage::Default,
            },
            None => match raw_linkage {
                5 => DllStorage::Import,
                6 => DllStorage::Export,
                _ => DllStorage::Default,
            },
        };
        let comdat = match at.comdat.and_then(|i| f.get(i)) {
            Some(&c) => {
                if c > self.module.comdats.len() as u64 {
                    return Err(invalid(r, "comdat ID out of range"));
                }
                c
            }
            None => 0,
        };
        Ok(GlobalCommon {
            name: Vec::new(),
            value: ValueId(self.module.values.len() as u32),
            raw_linkage,
            linkage,
            visibility,
            dll_storage,
            unnamed_addr: at
                .unnamed_addr
                .and_then(|i| f.get(i))
                .is_some_and(|&v| v != 0),
            comdat,
        })
    }

    pub(super) fn section(&self, r: &Record<'_>, v: Option<&u64>) -> Result<Option<Vec<u8>>> {
        match v {
            None | Some(0) => Ok(None),
            Some(&i) => usize::try_from(i - 1)
                .ok()
                .and_then(|i| self.module.section_names.get(i))
                .cloned()
                .map(Some)
                .ok_or_else(|| invalid(r, "section ID out of range")),
        }
    }

    // GLOBALVAR: [pointer type, isconst|explicit<<1|addrspace<<2, initid,
    // linkage, alignment, section, visibility, threadlocal, unnamed_addr,
    // externally_initialized, dllstorageclass, comdat]
    pub(super) fn global_var(&mut self, r: &Record<'_>, f: &[u64]) -> Result<()> {
        let f = self.strip_strtab(r, f)?;
        if f.len() < 6 {
            return Err(invalid(r, "too few fields"));
        }
        let ty = self.type_id(r, f[0])?;
        let explicit = f[1] & 2 != 0;
        let (value_type, address_space) = if explicit {
            (ty, u32_field(r, f[1] >> 2, "address space out of range")?)
        } else {
            match self.ty(ty) {
                Type::Pointer {
                    pointee,
                    address_space,
                } => (*pointee, *address_space),
                _ => return Err(invalid(r, "a global's type is not a pointer")),
            }
        };
        let pointer_type = if explicit {
            self.pointer_type_opt(value_type, address_space)
        } else {
            Some(ty)
        };
        let common = self.common(
            r,
            f[3],
            f,
            Fields {
                visibility: Some(6),
                unnamed_addr: Some(8),
                dll_storage: Some(10),
                comdat: Some(11),
            },
        )?;
        let global = GlobalVariable {
            common,
            value_type,
            pointer_type,
            is_constant: f[1] & 1 != 0,
            address_space,
            initializer: self.value_ref_plus_one(r, f[2])?,
            alignment: alignment(r, f[4])?,
            section: self.section(r, f.get(5))?,
            thread_local: f
                .get(7)
                .map_or(ThreadLocal::NotThreadLocal, |&t| decode_tls(t)),
            externally_initialized: f.get(9).is_some_and(|&v| v != 0),
        };
        let index = self.module.globals.len() as u32;
        self.module.globals.push(global);
        self.new_module_value(ModuleValue::Global(index), pointer_type);
        Ok(())
    }

    // FUNCTION: [type, callingconv, isproto, linkage, paramattr, alignment,
    // section, visibility, gc, unnamed_addr, prologuedata, dllstorageclass,
    // comdat, prefixdata, personalityfn]
    pub(super) fn function_record(&mut self, r: &Record<'_>, f: &[u64]) -> Result<()> {
        let f = self.strip_strtab(r, f)?;
        if f.len() < 8 {
            return Err(invalid(r, "too few fields"));
        }
        let mut function_type = self.type_id(r, f[0])?;
        if let Type::Pointer { pointee, .. } = self.ty(function_type) {
            function_type = *pointee;
        }
        if !matches!(self.ty(function_type), Type::Function(_)) {
            return Err(invalid(r, "a function's type is not a function type"));
        }
        let pointer_type = self.pointer_type_opt(function_type, 0);
        let common = self.common(
            r,
            f[3],
            f,
            Fields {
                visibility: Some(7),
                unnamed_addr: Some(9),
                dll_storage: Some(11),
                comdat: Some(12),
            },
        )?;
        let gc = match f.get(8) {
            None | Some(0) => None,
            Some(&i) => Some(
                usize::try_from(i - 1)
                    .ok()
                    .and_then(|i| self.module.gc_names.get(i))
                    .cloned()
                    .ok_or_else(|| invalid(r, "GC name ID out of range"))?,
            ),
        };
        let prologue = f.get(10).copied().unwrap_or(0);
        let prefix = f.get(13).copied().unwrap_or(0);
        let personality = f.get(14).copied().unwrap_or(0);
        let function = Function {
            common,
            function_type,
            pointer_type,
            calling_conv: f[1],
            is_declaration: f[2] != 0,
            attributes: f[4],
            alignment: alignment(r, f[5])?,
            section: self.section(r, f.get(6))?,
            gc,
            prologue_data: self.value_ref_plus_one(r, prologue)?,
            prefix_data: self.value_ref_plus_one(r, prefix)?,
            personality: self.value_ref_plus_one(r, personality)?,
            body: None,
        };
        let index = self.module.functions.len() as u32;
        if !function.is_declaration {
            self.definitions.push(index);
        }
        self.module.functions.push(function);
        self.new_module_value(ModuleValue::Function(index), pointer_type);
        Ok(())
    }

    // ALIAS (dxc, code 9): [alias type, aliasee val#, linkage, visibility,
    // dllstorageclass, threadlocal, unnamed_addr]
    // ALIAS (code 14): [alias value type, addrspace, aliasee val#, linkage, …]
    pub(super) fn alias(&mut self, r: &Record<'_>, f: &[u64]) -> Result<()> {
        let f = self.strip_strtab(r, f)?;
        let new_form = r.code == module_code::ALIAS;
        let base = usize::from(new_form);
        if f.len() < 3 + base {
            return Err(invalid(r, "too few fields"));
        }
        let ty = self.type_id(r, f[0])?;
        let (value_type, address_space, pointer_type) = if new_form {
            let space = u32_field(r, f[1], "address space out of range")?;
            (ty, space, self.pointer_type_opt(ty, space))
        } else {
            match self.ty(ty) {
                Type::Pointer {
                    pointee,
                    address_space,
                } => (*pointee, *address_space, Some(ty)),
                _ => return Err(invalid(r, "an alias's type is not a pointer")),
            }
        };
        let common = self.common(
            r,
            f[2 + base],
            f,
            Fields {
                visibility: Some(3 + base),
                dll_storage: Some(4 + base),
                unnamed_addr: Some(6 + base),
                comdat: None,
            },
        )?;
        let alias = Alias {
            common,
            value_type,
            pointer_type,
            address_space,
            aliasee: self.value_ref(r, f[1 + base])?,
            thread_local: f
                .get(5 + base)
                .map_or(ThreadLocal::NotThreadLocal, |&t| decode_tls(t)),
        };
        let index = self.module.aliases.len() as u32;
        self.module.aliases.push(alias);
        self.new_module_value(ModuleValue::Alias(index), pointer_type);
        Ok(())
    }
}
