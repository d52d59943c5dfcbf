//! The constants of a DXIL module, listed with their types and values, and
//! a scalar constant's value changed in place: the patch engines make when
//! they use constants in DXIL as stand-ins for specialization constants.
//!
//! LLVM constants are unique per type and value, and dxc's value enumerator
//! orders them by type plane and use count, never by value; so giving a
//! scalar integer or floating-point constant another value keeps every ID,
//! and the module written back ([`crate::bitcode::write_module`]) is what
//! dxc would write for the edited module. When another constant of the
//! same type already has the new value, the two are one constant for LLVM:
//! the module is numbered again ([`crate::bitcode::renumber_with`]), which
//! points every use at the one constant and orders the values as dxc's
//! enumerator would ([`Edited::Merged`]: IDs may change). A constant that
//! metadata names is refused (the edit would change the metadata too: a
//! shader's entry, resource or signature records).
//!
//! ```
//! use dxcopy_edit::constants::{constants, set_scalar, NewValue, Scalar, Scope};
//! use dxcopy_read::dxil::{Constant, ConstantKind, Module, ModuleValue, Type, TypeId, ValueId};
//! let mut module = Module {
//!     types: vec![Type::Float],
//!     constants: vec![Constant { ty: TypeId(0), kind: ConstantKind::Float(2.0f32.to_bits().into()) }],
//!     values: vec![ModuleValue::Constant(0)],
//!     ..Module::default()
//! };
//! set_scalar(&mut module, Scope::Module, ValueId(0), NewValue::Float(0.5))?;
//! let listed = constants(&module);
//! assert_eq!(listed[0].value, Some(Scalar::Float(0.5)));
//! assert_eq!(listed[0].type_name, "float");
//! # Ok::<(), dxcopy_edit::constants::ConstantEditError>(())
//! ```

use dxcopy_read::dxil::{Constant, ConstantKind, FunctionBody, LocalValue, Metadata, Module};
use dxcopy_read::dxil::{Type, TypeId, ValueId};
use std::fmt::Write as _;

/// Where a constant lives: the module's CONSTANTS block or a function's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The module-level CONSTANTS block (IDs shared by every function).
    Module,
    /// The CONSTANTS block of the function at this index of
    /// [`Module::functions`] (IDs from the function's first local value).
    Function(usize),
}

/// A scalar constant's value as read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// An integer of at most 64 bits, sign-extended from its width as LLVM
    /// prints it (`i1 true` is -1).
    Int(i64),
    /// A `half`, `float` or `double`, widened to `f64` (exactly).
    Float(f64),
}

/// The value to give a scalar constant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NewValue {
    /// An integer: for an integer type it must fit the width, signed or
    /// unsigned (`i8` takes -128..=255); for a floating-point type it is
    /// converted as a float.
    Int(i128),
    /// A float, rounded to the constant's type (to nearest, ties to even);
    /// only for floating-point types.
    Float(f64),
}

/// One constant of the module, as [`constants`] lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstantEntry {
    /// Its block.
    pub scope: Scope,
    /// Its value ID (module-wide for [`Scope::Module`], in the function's
    /// numbering otherwise).
    pub id: ValueId,
    /// Its type.
    pub ty: TypeId,
    /// The type as LLVM prints it (`i32`, `float`, `<4 x float>`, `%struct.S`).
    pub type_name: String,
    /// The record form: `integer`, `float`, `null`, `undef`, `aggregate`,
    /// `string`, `data`, `expression`, `blockaddress`, `inline asm`.
    pub kind: &'static str,
    /// The value of a scalar integer or floating-point constant (`null` of
    /// such a type is 0); `None` for everything else.
    pub value: Option<Scalar>,
    /// Whether metadata names it (then [`set_scalar`] refuses it).
    pub in_metadata: bool,
}

/// Why a constant's value could not be changed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConstantEditError {
    /// The scope names no function with a body.
    #[error("the module has no function body #{0}")]
    NoFunction(usize),
    /// The ID is not a constant of that scope.
    #[error("value %{id} is not a constant of {scope}")]
    NotAConstant {
        /// The ID asked for.
        id: u32,
        /// The scope, as words.
        scope: String,
    },
    /// The constant is not a scalar integer or floating-point number.
    #[error(
        "constant %{id} is {kind} of type {type_name}, not an integer or floating-point number"
    )]
    NotScalar {
        /// The constant's ID.
        id: u32,
        /// Its record form.
        kind: &'static str,
        /// Its type.
        type_name: String,
    },
    /// The new value does not fit the type.
    #[error("{value} does not fit constant %{id}'s type {type_name}")]
    OutOfRange {
        /// The constant's ID.
        id: u32,
        /// The value given.
        value: String,
        /// The type.
        type_name: String,
    },
    /// A float given for an integer constant.
    #[error("constant %{id} has integer type {type_name}: give an integer, not {value}")]
    FloatForInteger {
        /// The constant's ID.
        id: u32,
        /// The value given.
        value: f64,
        /// The type.
        type_name: String,
    },
    /// The module could not be numbered again after two constants became
    /// one.
    #[error("constant %{id} now equals constant %{other}: numbering the module again: {source}")]
    Renumber {
        /// The constant changed.
        id: u32,
        /// The constant that already had the value.
        other: u32,
        /// Why.
        source: crate::bitcode::RenumberError,
    },
    /// Metadata names the constant.
    #[error(
        "constant %{id} ({type_name} {value}) is also named by metadata !{metadata}: changing it would \
         change that metadata too"
    )]
    InMetadata {
        /// The constant's ID.
        id: u32,
        /// Its type.
        type_name: String,
        /// Its current value.
        value: String,
        /// The metadata that names it (a function's own numbering for
        /// function-local metadata).
        metadata: u32,
    },
}

/// Every constant of `module`: the module's CONSTANTS block first, then
/// each function body's, in ID order.
pub fn constants(module: &Module) -> Vec<ConstantEntry> {
    let mut out = Vec::new();
    for (id, c) in module_constants(module) {
        out.push(entry(module, Scope::Module, id, c));
    }
    for (index, body) in bodies(module) {
        for (id, c) in body_constants(body) {
            out.push(entry(module, Scope::Function(index), id, c));
        }
    }
    out
}

/// What [`set_scalar`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edited {
    /// The value was already the constant's.
    Unchanged,
    /// The constant has the new value under the same ID.
    InPlace,
    /// Another constant of the type already had the value: the two are one
    /// constant now and the module's values were numbered again as dxc's
    /// enumerator numbers them (IDs may have changed; list the constants
    /// again).
    Merged {
        /// The constant that already had the value (its ID before the
        /// numbering).
        other: ValueId,
        /// Its scope.
        other_scope: Scope,
    },
}

/// Gives the scalar constant `id` of `scope` the value `value` (same type;
/// zero becomes LLVM's `null` form, as LLVM writes a zero): in place, or,
/// when another constant of the type has the value already, merged with it
/// ([`Edited::Merged`]). Nothing changes on error.
pub fn set_scalar(
    module: &mut Module,
    scope: Scope,
    id: ValueId,
    value: NewValue,
) -> Result<Edited, ConstantEditError> {
    let current = find(module, scope, id)?.clone();
    let type_name = type_text(module, current.ty);
    let entry = entry(module, scope, id, &current);
    let Some(old) = entry.value else {
        return Err(ConstantEditError::NotScalar {
            id: id.0,
            kind: entry.kind,
            type_name,
        });
    };
    let kind = new_kind(module, id, current.ty, &type_name, value)?;
    let new = Constant {
        ty: current.ty,
        kind,
    };
    if new == current {
        return Ok(Edited::Unchanged);
    }
    if let Some(metadata) = metadata_naming(module, scope, id) {
        return Err(ConstantEditError::InMetadata {
            id: id.0,
            type_name,
            value: scalar_text(old),
            metadata,
        });
    }
    if let Some((other_scope, other)) = same_constant(module, scope, &new) {
        // Whether dxc sorted the constants is read before the edit, which
        // changes the use counts the reading compares with.
        let renumber_error = |source| ConstantEditError::Renumber {
            id: id.0,
            other: other.0,
            source,
        };
        let preserve = crate::bitcode::keeps_first_use_order(module).map_err(renumber_error)?;
        let mut edited = module.clone();
        *find_mut(&mut edited, scope, id)? = new;
        crate::bitcode::renumber_with(&mut edited, preserve).map_err(renumber_error)?;
        *module = edited;
        return Ok(Edited::Merged { other, other_scope });
    }
    let slot = find_mut(module, scope, id)?;
    *slot = new;
    Ok(Edited::InPlace)
}

/// The type as LLVM prints it, for the types constants have (a struct by
/// its name, nesting cut at a fixed depth).
pub fn type_text(module: &Module, ty: TypeId) -> String {
    let mut out = String::new();
    write_type(module, &mut out, ty, 0);
    out
}

/// How `scope` is named in messages: `the module` or `function @name`.
pub fn scope_text(module: &Module, scope: Scope) -> String {
    match scope {
        Scope::Module => "the module".into(),
        Scope::Function(i) => match module.functions.get(i) {
            Some(f) => format!("function @{}", String::from_utf8_lossy(&f.common.name)),
            None => format!("function #{i}"),
        },
    }
}

/// A scalar value as LLVM prints it in a message (`7`, `0.5`).
pub fn scalar_text(value: Scalar) -> String {
    match value {
        Scalar::Int(v) => v.to_string(),
        Scalar::Float(v) => format!("{v:?}"),
    }
}

// ------------------------------------------------------------ the scopes

fn module_constants(module: &Module) -> impl Iterator<Item = (ValueId, &Constant)> {
    (0..module.values.len()).filter_map(|i| {
        let id = ValueId(i as u32);
        module.constant(id).map(|c| (id, c))
    })
}

fn bodies(module: &Module) -> impl Iterator<Item = (usize, &FunctionBody)> {
    let functions = module.functions.iter().enumerate();
    functions.filter_map(|(i, f)| f.body.as_ref().map(|b| (i, b)))
}

fn body_constants(body: &FunctionBody) -> impl Iterator<Item = (ValueId, &Constant)> {
    body.values.iter().enumerate().filter_map(|(i, v)| match v {
        LocalValue::Constant(c) => {
            let id = ValueId(body.first_value + i as u32);
            body.constants.get(*c as usize).map(|c| (id, c))
        }
        _ => None,
    })
}

fn body_of(module: &Module, index: usize) -> Result<&FunctionBody, ConstantEditError> {
    let function = module.functions.get(index);
    function
        .and_then(|f| f.body.as_ref())
        .ok_or(ConstantEditError::NoFunction(index))
}

fn not_a_constant(module: &Module, scope: Scope, id: ValueId) -> ConstantEditError {
    ConstantEditError::NotAConstant {
        id: id.0,
        scope: scope_text(module, scope),
    }
}

fn find(module: &Module, scope: Scope, id: ValueId) -> Result<&Constant, ConstantEditError> {
    let found = match scope {
        Scope::Module => module.constant(id),
        Scope::Function(i) => body_of(module, i)?.constant(id),
    };
    found.ok_or_else(|| not_a_constant(module, scope, id))
}

fn find_mut(
    module: &mut Module,
    scope: Scope,
    id: ValueId,
) -> Result<&mut Constant, ConstantEditError> {
    let missing = not_a_constant(module, scope, id);
    let slot = match scope {
        Scope::Module => match module.value(id) {
            Some(dxcopy_read::dxil::ModuleValue::Constant(c)) => {
                module.constants.get_mut(c as usize)
            }
            _ => None,
        },
        Scope::Function(i) => {
            let body = module.functions.get_mut(i).and_then(|f| f.body.as_mut());
            let body = body.ok_or(ConstantEditError::NoFunction(i))?;
            match body.local(id) {
                Some(LocalValue::Constant(c)) => body.constants.get_mut(c as usize),
                _ => None,
            }
        }
    };
    slot.ok_or(missing)
}

/// The metadata (module-level, or the function's own) that names `id`.
fn metadata_naming(module: &Module, scope: Scope, id: ValueId) -> Option<u32> {
    let names = |list: &[Metadata]| {
        list.iter()
            .position(|m| matches!(m, Metadata::Value { value, .. } if *value == id))
    };
    if scope == Scope::Module {
        if let Some(at) = names(&module.metadata) {
            return Some(at as u32);
        }
    }
    // Function metadata IDs follow the module's.
    let base = module.metadata.len();
    let local = |body: &FunctionBody| names(&body.metadata).map(|at| (base + at) as u32);
    match scope {
        Scope::Module => bodies(module).find_map(|(_, b)| {
            // A function's local IDs may reuse the module constant's number.
            (id.0 < b.first_value).then(|| local(b)).flatten()
        }),
        Scope::Function(i) => module.functions.get(i)?.body.as_ref().and_then(local),
    }
}

/// Another constant equal to `new` where it would be the same LLVM
/// constant: any module constant, and for a function constant that
/// function's own; for a module constant every function's too (a function
/// uses a module constant instead of a local copy).
fn same_constant(module: &Module, scope: Scope, new: &Constant) -> Option<(Scope, ValueId)> {
    if let Some((id, _)) = module_constants(module).find(|(_, c)| *c == new) {
        return Some((Scope::Module, id));
    }
    bodies(module)
        .filter(|(i, _)| scope == Scope::Module || scope == Scope::Function(*i))
        .find_map(|(i, body)| {
            let mut found = body_constants(body).filter(|(_, c)| *c == new);
            found.next().map(|(id, _)| (Scope::Function(i), id))
        })
}

// ------------------------------------------------------------ values

/// The scalar types: integers up to 64 bits and the three DXIL floats.
#[derive(Clone, Copy)]
enum ScalarType {
    Int(u32),
    Half,
    Float,
    Double,
}

fn scalar_type(module: &Module, ty: TypeId) -> Option<ScalarType> {
    Some(match module.ty(ty)? {
        Type::Integer { bits } if (1..=64).contains(bits) => ScalarType::Int(*bits),
        Type::Half => ScalarType::Half,
        Type::Float => ScalarType::Float,
        Type::Double => ScalarType::Double,
        _ => return None,
    })
}

fn scalar_of(module: &Module, c: &Constant) -> Option<Scalar> {
    let ty = scalar_type(module, c.ty)?;
    Some(match (&c.kind, ty) {
        (ConstantKind::Null, ScalarType::Int(_)) => Scalar::Int(0),
        (ConstantKind::Null, _) => Scalar::Float(0.0),
        (ConstantKind::Integer(v), ScalarType::Int(_)) => Scalar::Int(*v),
        (ConstantKind::Float(bits), ScalarType::Half) => Scalar::Float(half_to_f64(*bits as u16)),
        (ConstantKind::Float(bits), ScalarType::Float) => {
            Scalar::Float(f64::from(f32::from_bits(*bits as u32)))
        }
        (ConstantKind::Float(bits), ScalarType::Double) => Scalar::Float(f64::from_bits(*bits)),
        _ => return None,
    })
}

fn kind_name(kind: &ConstantKind) -> &'static str {
    match kind {
        ConstantKind::Null => "null",
        ConstantKind::Undef => "undef",
        ConstantKind::Integer(_) | ConstantKind::WideInteger(_) => "integer",
        ConstantKind::Float(_) | ConstantKind::WideFloat(_) => "float",
        ConstantKind::Aggregate(_) => "aggregate",
        ConstantKind::String { .. } => "string",
        ConstantKind::Data(_) => "data",
        ConstantKind::BlockAddress { .. } => "blockaddress",
        ConstantKind::InlineAsm { .. } => "inline asm",
        _ => "expression",
    }
}

fn entry(module: &Module, scope: Scope, id: ValueId, c: &Constant) -> ConstantEntry {
    ConstantEntry {
        scope,
        id,
        ty: c.ty,
        type_name: type_text(module, c.ty),
        kind: kind_name(&c.kind),
        value: scalar_of(module, c),
        in_metadata: metadata_naming(module, scope, id).is_some(),
    }
}

/// The constant form of `value` for type `ty`: `null` for zero (LLVM
/// writes any zero integer and +0.0 so), else the integer or float record.
fn new_kind(
    module: &Module,
    id: ValueId,
    ty: TypeId,
    type_name: &str,
    value: NewValue,
) -> Result<ConstantKind, ConstantEditError> {
    let out_of_range = |text: String| ConstantEditError::OutOfRange {
        id: id.0,
        value: text,
        type_name: type_name.to_string(),
    };
    // The caller checked that the constant is a scalar.
    let Some(scalar) = scalar_type(module, ty) else {
        return Err(out_of_range(format!("{value:?}")));
    };
    let float = match (scalar, value) {
        (ScalarType::Int(bits), NewValue::Int(v)) => {
            let low = -(1i128 << (bits - 1));
            let high = (1i128 << bits) - 1;
            if v < low || v > high {
                return Err(out_of_range(v.to_string()));
            }
            // Truncated to the width, then sign-extended, as the model keeps it.
            let shift = 128 - bits;
            let stored = ((v << shift) >> shift) as i64;
            return Ok(match stored {
                0 => ConstantKind::Null,
                v => ConstantKind::Integer(v),
            });
        }
        (ScalarType::Int(_), NewValue::Float(v)) => {
            return Err(ConstantEditError::FloatForInteger {
                id: id.0,
                value: v,
                type_name: type_name.to_string(),
            })
        }
        (_, NewValue::Int(v)) => v as f64,
        (_, NewValue::Float(v)) => v,
    };
    let bits = match scalar {
        ScalarType::Half => u64::from(f64_to_half(float)),
        ScalarType::Float => u64::from((float as f32).to_bits()),
        _ => float.to_bits(),
    };
    let widened = match scalar {
        ScalarType::Half => half_to_f64(bits as u16),
        ScalarType::Float => f64::from(f32::from_bits(bits as u32)),
        _ => float,
    };
    if float.is_finite() && widened.is_infinite() {
        return Err(out_of_range(format!("{float:?}")));
    }
    Ok(match bits {
        0 => ConstantKind::Null,
        bits => ConstantKind::Float(bits),
    })
}

/// IEEE binary16 to f64 (exact).
fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// f64 to IEEE binary16, rounded to nearest, ties to even (NaN stays a
/// quiet NaN, overflow gives infinity).
fn f64_to_half(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    if v.is_nan() {
        return sign | 0x7e00;
    }
    let a = v.abs();
    if a >= 65520.0 {
        // 65520 and above round to infinity.
        return sign | 0x7c00;
    }
    // The half's quantum at this magnitude: 2^-24 for subnormals, else
    // 2^(e-10) for the value's exponent e.
    let e = if a == 0.0 {
        -15
    } else {
        a.log2().floor() as i32
    };
    let quantum = if e < -14 {
        2f64.powi(-24)
    } else {
        2f64.powi(e - 10)
    };
    let q = a / quantum;
    let mut n = q.floor();
    let rest = q - n;
    if rest > 0.5 || (rest == 0.5 && n % 2.0 == 1.0) {
        n += 1.0;
    }
    let rounded = n * quantum;
    // Re-encode the rounded magnitude (it may have moved up an exponent).
    if rounded == 0.0 {
        return sign;
    }
    if rounded < 2f64.powi(-14) {
        return sign | (rounded / 2f64.powi(-24)) as u16;
    }
    let e = rounded.log2().floor() as i32;
    let frac = (rounded / 2f64.powi(e) - 1.0) * 1024.0;
    sign | (((e + 15) as u16) << 10) | frac as u16
}

// ------------------------------------------------------------ types

const TYPE_DEPTH: usize = 16;

fn write_type(module: &Module, out: &mut String, ty: TypeId, depth: usize) {
    let Some(t) = module.ty(ty).filter(|_| depth <= TYPE_DEPTH) else {
        let _ = write!(out, "<type #{}>", ty.0);
        return;
    };
    match t {
        Type::Integer { bits } => {
            let _ = write!(out, "i{bits}");
        }
        Type::Half => out.push_str("half"),
        Type::Float => out.push_str("float"),
        Type::Double => out.push_str("double"),
        Type::Void => out.push_str("void"),
        Type::Label => out.push_str("label"),
        Type::Metadata => out.push_str("metadata"),
        Type::Pointer {
            pointee,
            address_space,
        } => {
            write_type(module, out, *pointee, depth + 1);
            if *address_space != 0 {
                let _ = write!(out, " addrspace({address_space})");
            }
            out.push('*');
        }
        Type::Array { len, element } => {
            let _ = write!(out, "[{len} x ");
            write_type(module, out, *element, depth + 1);
            out.push(']');
        }
        Type::Vector { len, element } => {
            let _ = write!(out, "<{len} x ");
            write_type(module, out, *element, depth + 1);
            out.push('>');
        }
        Type::Struct(st) => match &st.name {
            Some(name) if !name.is_empty() => {
                let _ = write!(out, "%{}", String::from_utf8_lossy(name));
            }
            _ => {
                out.push_str(if st.packed { "<{ " } else { "{ " });
                for (i, field) in st.body.iter().flatten().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_type(module, out, *field, depth + 1);
                }
                out.push_str(if st.packed { " }>" } else { " }" });
            }
        },
        Type::Function(f) => {
            write_type(module, out, f.ret, depth + 1);
            out.push_str(" (");
            for (i, p) in f.params.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_type(module, out, *p, depth + 1);
            }
            out.push(')');
        }
        other => {
            let _ = write!(out, "{other:?}");
        }
    }
}

#[cfg(test)]
mod tests;
