//! Sizes, alignments and struct member offsets of a module's types under
//! DXIL's data layout, as dxc's LLVM 3.7 `DataLayout` computes them
//! (docs/format/dxil-metadata.md, "Layout"): integers and floats aligned as
//! the layout string says (`i1:32`, `i16:16`, `f64:64`, …), pointers 32-bit,
//! and — dxc's change to LLVM — a vector aligned as its element.

use crate::dxil::model::{Module, Type, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;

/// Deepest type nesting followed (a hostile type table can nest types, or
/// make a struct contain itself); deeper types have no layout, and the
/// layout remembers meeting one ([`DataLayout::too_deep`]) so that a
/// printer can say so rather than print a layout that is cut short.
pub const MAX_DEPTH: u32 = 64;

/// The data layout's alignment rules (ABI alignments in bytes).
#[derive(Debug, Clone)]
pub struct DataLayout {
    /// `iN:abi` entries: (bit width, ABI alignment in bytes).
    ints: Vec<(u32, u64)>,
    /// `fN:abi` entries.
    floats: Vec<(u32, u64)>,
    /// Pointer size and alignment in bytes (`p:32:32`).
    pointer: (u64, u64),
    /// The size and alignment of each struct laid out so far. A struct's
    /// members may share a struct type at every level (a DAG): laid out
    /// once each, a type table is linear work, not exponential.
    /// Keyed by the module's address too: a layout is made for one module
    /// ([`DataLayout::of`]) but nothing stops a caller using it with
    /// another.
    structs: RefCell<HashMap<(usize, TypeId), (u64, u64)>>,
    /// Whether a type nested deeper than [`MAX_DEPTH`] was met.
    too_deep: std::cell::Cell<bool>,
}

impl PartialEq for DataLayout {
    fn eq(&self, other: &DataLayout) -> bool {
        (&self.ints, &self.floats, self.pointer) == (&other.ints, &other.floats, other.pointer)
    }
}

impl Eq for DataLayout {}

impl Default for DataLayout {
    /// LLVM 3.7's defaults (used for what the layout string leaves out).
    fn default() -> DataLayout {
        DataLayout {
            ints: vec![(1, 1), (8, 1), (16, 2), (32, 4), (64, 4)],
            floats: vec![(16, 2), (32, 4), (64, 8), (128, 16)],
            pointer: (8, 8),
            structs: RefCell::default(),
            too_deep: std::cell::Cell::new(false),
        }
    }
}

impl DataLayout {
    /// The layout a module's `target datalayout` string gives (LLVM's
    /// defaults for what it leaves out; unreadable entries are skipped).
    pub fn parse(text: &str) -> DataLayout {
        let mut layout = DataLayout::default();
        for spec in text.split('-') {
            let mut fields = spec.split(':');
            let Some(head) = fields.next() else { continue };
            let numbers: Vec<u64> = fields.filter_map(|f| f.parse().ok()).collect();
            let abi_bytes = |i: usize| numbers.get(i).map(|bits| bits / 8);
            if head == "p" || head == "p0" {
                if let (Some(size), Some(align)) = (abi_bytes(0), abi_bytes(1)) {
                    layout.pointer = (size, align.max(1));
                }
            } else if let Some(width) = head.strip_prefix('i').and_then(|w| w.parse().ok()) {
                if let Some(align) = abi_bytes(0) {
                    set(&mut layout.ints, width, align.max(1));
                }
            } else if let Some(width) = head.strip_prefix('f').and_then(|w| w.parse().ok()) {
                if let Some(align) = abi_bytes(0) {
                    set(&mut layout.floats, width, align.max(1));
                }
            }
        }
        layout
    }

    /// The layout of `module` (its data layout string, or LLVM's defaults).
    pub fn of(module: &Module) -> DataLayout {
        module
            .data_layout
            .as_deref()
            .map(DataLayout::parse)
            .unwrap_or_default()
    }

    fn int_align(&self, bits: u32) -> u64 {
        // LLVM: the exact width, else the smallest wider one, else the largest.
        if let Some((_, align)) = self.ints.iter().find(|(w, _)| *w == bits) {
            return *align;
        }
        self.ints
            .iter()
            .filter(|(w, _)| *w > bits)
            .min_by_key(|(w, _)| *w)
            .or_else(|| self.ints.iter().max_by_key(|(w, _)| *w))
            .map(|(_, a)| *a)
            .unwrap_or(1)
    }

    fn float_align(&self, bits: u32) -> u64 {
        self.floats
            .iter()
            .find(|(w, _)| *w == bits)
            .map(|(_, a)| *a)
            .unwrap_or_else(|| u64::from(bits).div_ceil(8).next_power_of_two())
    }

    /// Whether some question asked of this layout met a type nested
    /// deeper than [`MAX_DEPTH`] (its answer was `None` for that reason,
    /// not because the type has no size).
    pub fn too_deep(&self) -> bool {
        self.too_deep.get()
    }

    /// `true` (and remembered) when `depth` is past [`MAX_DEPTH`].
    fn past_limit(&self, depth: u32) -> bool {
        if depth > MAX_DEPTH {
            self.too_deep.set(true);
            return true;
        }
        false
    }

    /// The size in bits (`getTypeSizeInBits`); `None` for types without one.
    pub fn size_in_bits(&self, module: &Module, ty: TypeId) -> Option<u64> {
        self.size_bits_at(module, ty, 0)
    }

    fn size_bits_at(&self, module: &Module, ty: TypeId, depth: u32) -> Option<u64> {
        if self.past_limit(depth) {
            return None;
        }
        Some(match module.ty(ty)? {
            Type::Integer { bits } => u64::from(*bits),
            Type::Half => 16,
            Type::Float => 32,
            Type::Double | Type::X86Mmx => 64,
            Type::X86Fp80 => 80,
            Type::Fp128 | Type::PpcFp128 => 128,
            Type::Pointer { .. } => self.pointer.0 * 8,
            Type::Array { len, element } => len
                .checked_mul(self.alloc_size_at(module, *element, depth + 1)?)?
                .checked_mul(8)?,
            Type::Vector { len, element } => {
                len.checked_mul(self.size_bits_at(module, *element, depth + 1)?)?
            }
            Type::Struct(_) => self
                .struct_size_align(module, ty, depth)?
                .0
                .checked_mul(8)?,
            _ => return None,
        })
    }

    /// The store size in bytes (`getTypeStoreSize`).
    pub fn store_size(&self, module: &Module, ty: TypeId) -> Option<u64> {
        Some(self.size_in_bits(module, ty)?.div_ceil(8))
    }

    /// The allocation size in bytes (`getTypeAllocSize`: the store size
    /// rounded up to the ABI alignment).
    pub fn alloc_size(&self, module: &Module, ty: TypeId) -> Option<u64> {
        self.alloc_size_at(module, ty, 0)
    }

    fn alloc_size_at(&self, module: &Module, ty: TypeId, depth: u32) -> Option<u64> {
        let store = self.size_bits_at(module, ty, depth)?.div_ceil(8);
        let align = self.align_at(module, ty, depth)?;
        store.checked_next_multiple_of(align)
    }

    /// The ABI alignment in bytes.
    pub fn abi_align(&self, module: &Module, ty: TypeId) -> Option<u64> {
        self.align_at(module, ty, 0)
    }

    fn align_at(&self, module: &Module, ty: TypeId, depth: u32) -> Option<u64> {
        if self.past_limit(depth) {
            return None;
        }
        Some(match module.ty(ty)? {
            Type::Integer { bits } => self.int_align(*bits),
            Type::Half => self.float_align(16),
            Type::Float => self.float_align(32),
            Type::Double => self.float_align(64),
            Type::X86Fp80 | Type::Fp128 | Type::PpcFp128 => self.float_align(128),
            Type::X86Mmx => 8,
            Type::Pointer { .. } => self.pointer.1,
            Type::Array { element, .. } | Type::Vector { element, .. } => {
                self.align_at(module, *element, depth + 1)?
            }
            Type::Struct(st) if st.packed => 1,
            Type::Struct(_) => self.struct_size_align(module, ty, depth)?.1,
            _ => return None,
        })
    }

    /// A struct's size and alignment, laid out once.
    fn struct_size_align(&self, module: &Module, ty: TypeId, depth: u32) -> Option<(u64, u64)> {
        let key = (module as *const Module as usize, ty);
        if let Some(known) = self.structs.borrow().get(&key) {
            return Some(*known);
        }
        let layout = self.struct_layout_at(module, ty, depth + 1)?;
        let known = (layout.size, layout.align);
        self.structs.borrow_mut().insert(key, known);
        Some(known)
    }

    /// The layout of struct `ty` (`getStructLayout`); `None` for other and
    /// opaque types.
    pub fn struct_layout(&self, module: &Module, ty: TypeId) -> Option<StructLayout> {
        self.struct_layout_at(module, ty, 0)
    }

    fn struct_layout_at(&self, module: &Module, ty: TypeId, depth: u32) -> Option<StructLayout> {
        if self.past_limit(depth) {
            return None;
        }
        let Type::Struct(st) = module.ty(ty)? else {
            return None;
        };
        let body = st.body.as_ref()?;
        let mut offsets = Vec::with_capacity(body.len());
        let mut size: u64 = 0;
        let mut align: u64 = 1;
        for &element in body {
            let element_align = if st.packed {
                1
            } else {
                self.align_at(module, element, depth + 1)?
            };
            size = size.checked_next_multiple_of(element_align)?;
            align = align.max(element_align);
            offsets.push(size);
            size = size.checked_add(self.alloc_size_at(module, element, depth + 1)?)?;
        }
        size = size.checked_next_multiple_of(align)?;
        Some(StructLayout {
            size,
            align,
            offsets,
        })
    }
}

fn set(table: &mut Vec<(u32, u64)>, width: u32, align: u64) {
    match table.iter_mut().find(|(w, _)| *w == width) {
        Some(entry) => entry.1 = align,
        None => table.push((width, align)),
    }
}

/// A struct's size, alignment and member offsets, in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructLayout {
    /// Allocation size.
    pub size: u64,
    /// ABI alignment.
    pub align: u64,
    /// Offset of each member.
    pub offsets: Vec<u64>,
}
