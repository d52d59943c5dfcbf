use super::*;
use crate::bitcode::write_module;
use dxcopy_read::dxil::ModuleValue;
use dxcopy_read::Program;

/// A module with constants `i32 7` (%0), `float 2.0` (%1), `i32 9` (%2),
/// `half 1.0` (%3), `i8 -1` (%4), and metadata `!0 = i32 9`.
fn module() -> Module {
    let c = |ty: u32, kind| Constant {
        ty: TypeId(ty),
        kind,
    };
    Module {
        types: vec![
            Type::Integer { bits: 32 },
            Type::Float,
            Type::Half,
            Type::Integer { bits: 8 },
        ],
        constants: vec![
            c(0, ConstantKind::Integer(7)),
            c(1, ConstantKind::Float(2.0f32.to_bits().into())),
            c(0, ConstantKind::Integer(9)),
            c(2, ConstantKind::Float(0x3c00)),
            c(3, ConstantKind::Integer(-1)),
        ],
        values: (0..5).map(ModuleValue::Constant).collect(),
        metadata: vec![Metadata::Value {
            ty: TypeId(0),
            value: ValueId(2),
        }],
        ..Module::default()
    }
}

#[test]
fn lists_types_values_and_metadata_use() {
    let m = module();
    let listed = constants(&m);
    let summary: Vec<_> = listed
        .iter()
        .map(|e| (e.id.0, e.type_name.as_str(), e.kind, e.value, e.in_metadata))
        .collect();
    assert_eq!(
        summary,
        [
            (0, "i32", "integer", Some(Scalar::Int(7)), false),
            (1, "float", "float", Some(Scalar::Float(2.0)), false),
            (2, "i32", "integer", Some(Scalar::Int(9)), true),
            (3, "half", "float", Some(Scalar::Float(1.0)), false),
            (4, "i8", "integer", Some(Scalar::Int(-1)), false),
        ]
    );
}

#[test]
fn integers_fit_the_width_signed_or_unsigned() {
    let mut m = module();
    set_scalar(&mut m, Scope::Module, ValueId(4), NewValue::Int(200)).unwrap();
    assert_eq!(m.constants[4].kind, ConstantKind::Integer(200 - 256));
    set_scalar(&mut m, Scope::Module, ValueId(4), NewValue::Int(-128)).unwrap();
    assert_eq!(m.constants[4].kind, ConstantKind::Integer(-128));
    let err = set_scalar(&mut m, Scope::Module, ValueId(4), NewValue::Int(256)).unwrap_err();
    assert_eq!(err.to_string(), "256 does not fit constant %4's type i8");
    let err = set_scalar(&mut m, Scope::Module, ValueId(4), NewValue::Float(1.5)).unwrap_err();
    assert!(matches!(
        err,
        ConstantEditError::FloatForInteger { id: 4, .. }
    ));
    assert_eq!(m.constants[4].kind, ConstantKind::Integer(-128));
}

#[test]
fn zero_is_written_as_null() {
    let mut m = module();
    set_scalar(&mut m, Scope::Module, ValueId(0), NewValue::Int(0)).unwrap();
    assert_eq!(m.constants[0].kind, ConstantKind::Null);
    set_scalar(&mut m, Scope::Module, ValueId(1), NewValue::Float(0.0)).unwrap();
    assert_eq!(m.constants[1].kind, ConstantKind::Null);
    // -0.0 is not LLVM's null.
    set_scalar(&mut m, Scope::Module, ValueId(3), NewValue::Float(-0.0)).unwrap();
    assert_eq!(m.constants[3].kind, ConstantKind::Float(0x8000));
}

#[test]
fn floats_round_to_the_type() {
    let mut m = module();
    set_scalar(&mut m, Scope::Module, ValueId(1), NewValue::Float(0.1)).unwrap();
    assert_eq!(
        m.constants[1].kind,
        ConstantKind::Float(0.1f32.to_bits().into())
    );
    set_scalar(&mut m, Scope::Module, ValueId(1), NewValue::Int(3)).unwrap();
    assert_eq!(
        m.constants[1].kind,
        ConstantKind::Float(3.0f32.to_bits().into())
    );
    let err = set_scalar(&mut m, Scope::Module, ValueId(1), NewValue::Float(1e300)).unwrap_err();
    assert!(matches!(err, ConstantEditError::OutOfRange { id: 1, .. }));
    // Halves: 0.1 rounds to 0x2e66, 65504 is the largest, 1/2^24 the smallest.
    for (value, bits) in [
        (0.1, 0x2e66),
        (65504.0, 0x7bff),
        (2f64.powi(-24), 1),
        (-2.5, 0xc100),
    ] {
        set_scalar(&mut m, Scope::Module, ValueId(3), NewValue::Float(value)).unwrap();
        assert_eq!(m.constants[3].kind, ConstantKind::Float(bits), "{value}");
        assert_eq!(half_to_f64(bits as u16), f64_to_half_exact(value));
    }
    let err = set_scalar(&mut m, Scope::Module, ValueId(3), NewValue::Float(70000.0)).unwrap_err();
    assert!(matches!(err, ConstantEditError::OutOfRange { id: 3, .. }));
}

/// The half `value` rounds to, widened back.
fn f64_to_half_exact(value: f64) -> f64 {
    half_to_f64(f64_to_half(value))
}

#[test]
fn half_rounding_ties_to_even() {
    // 1 + 2^-11 lies halfway between 1.0 (even) and 1 + 2^-10.
    assert_eq!(f64_to_half(1.0 + 2f64.powi(-11)), 0x3c00);
    // 1 + 3*2^-11 lies halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even).
    assert_eq!(f64_to_half(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
    // Rounding up into the next exponent.
    assert_eq!(f64_to_half(2.0 - 2f64.powi(-12)), 0x4000);
    assert_eq!(f64_to_half(f64::NAN) & 0x7e00, 0x7e00);
    assert_eq!(f64_to_half(f64::NEG_INFINITY), 0xfc00);
}

#[test]
fn the_same_value_again_changes_nothing() {
    let mut m = module();
    let before = m.clone();
    let done = set_scalar(&mut m, Scope::Module, ValueId(0), NewValue::Int(7)).unwrap();
    assert_eq!(done, Edited::Unchanged);
    assert_eq!(m, before);
}

#[test]
fn a_constant_metadata_names_is_refused() {
    let mut m = module();
    let err = set_scalar(&mut m, Scope::Module, ValueId(2), NewValue::Int(10)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "constant %2 (i32 9) is also named by metadata !0: changing it would change that metadata too"
    );
}

#[test]
fn wrong_ids_and_scopes() {
    let mut m = module();
    let err = set_scalar(&mut m, Scope::Module, ValueId(9), NewValue::Int(1)).unwrap_err();
    assert_eq!(err.to_string(), "value %9 is not a constant of the module");
    let err = set_scalar(&mut m, Scope::Function(0), ValueId(9), NewValue::Int(1)).unwrap_err();
    assert_eq!(err, ConstantEditError::NoFunction(0));
    m.types.push(Type::Vector {
        len: 4,
        element: TypeId(1),
    });
    m.constants.push(Constant {
        ty: TypeId(4),
        kind: ConstantKind::Aggregate(vec![ValueId(1); 4]),
    });
    m.values.push(ModuleValue::Constant(5));
    let err = set_scalar(&mut m, Scope::Module, ValueId(5), NewValue::Int(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "constant %5 is aggregate of type <4 x float>, not an integer or floating-point number"
    );
}

/// The module of the dxc-compiled pixel shader in examples/ and its
/// bitcode.
fn example_module() -> (Module, Vec<u8>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/learn-sdl-gpu/shader.frag.dxil"
    );
    let file = std::fs::read(path).unwrap();
    let container = dxcopy_read::Container::parse(&file).unwrap();
    let part = container.find(dxcopy_read::PartName::DXIL).unwrap();
    let program = Program::parse_data(part.data, 0).unwrap();
    let module = Module::parse(program.bitcode).unwrap();
    (module, program.bitcode.to_vec())
}

/// The dxc-compiled pixel shader in examples/: its function constants
/// listed, one changed, the module written and read back.
#[test]
fn a_dxc_module_edited_and_written_back() {
    let (mut m, bitcode) = example_module();
    assert_eq!(write_module(&m).unwrap(), bitcode);
    let listed = constants(&m);
    let main = m.functions.iter().position(|f| f.body.is_some()).unwrap();
    // `i8 3`, the last component index of loadInput/storeOutput.
    let three = listed
        .iter()
        .find(|e| e.type_name == "i8" && e.value == Some(Scalar::Int(3)))
        .unwrap();
    assert_eq!(three.scope, Scope::Function(main));
    let done = set_scalar(&mut m, three.scope, three.id, NewValue::Int(-3)).unwrap();
    assert_eq!(done, Edited::InPlace);
    let written = write_module(&m).unwrap();
    assert_ne!(written, bitcode);
    let read = Module::parse(&written).unwrap();
    assert_eq!(read, m);
    let changed = constants(&read)
        .into_iter()
        .find(|e| e.scope == three.scope && e.id == three.id)
        .unwrap();
    assert_eq!(changed.value, Some(Scalar::Int(-3)));
}

/// Uses of each function constant of `scope` with an `i8` value, by value.
fn i8_uses(m: &Module, scope: Scope) -> std::collections::BTreeMap<i64, usize> {
    let Scope::Function(index) = scope else {
        unreachable!()
    };
    let body = m.functions[index].body.as_ref().unwrap();
    let mut uses = std::collections::BTreeMap::new();
    let seen = |e: &&ConstantEntry| e.scope == scope || e.scope == Scope::Module;
    for e in constants(m)
        .iter()
        .filter(seen)
        .filter(|e| e.type_name == "i8")
    {
        let Some(Scalar::Int(v)) = e.value else {
            continue;
        };
        let n: usize = body
            .blocks
            .iter()
            .flat_map(|b| &b.instructions)
            .map(|i| {
                i.kind
                    .operands()
                    .into_iter()
                    .filter(|o| *o == dxcopy_read::dxil::Operand::Value(e.id))
                    .count()
            })
            .sum();
        *uses.entry(v).or_default() += n;
    }
    uses
}

/// A function constant given the value another constant of its type has:
/// the two become one, every use points at it, and the module is numbered
/// as dxc numbers it (numbering again changes nothing; it writes and reads
/// back).
#[test]
fn a_value_another_constant_has_merges_the_two() {
    let (mut m, _) = example_module();
    let listed = constants(&m);
    let main = m.functions.iter().position(|f| f.body.is_some()).unwrap();
    let scope = Scope::Function(main);
    let find = |v: i64| {
        let e = listed
            .iter()
            .find(|e| e.type_name == "i8" && e.value == Some(Scalar::Int(v)))
            .unwrap();
        (e.scope, e.id)
    };
    let ((two_scope, two), (three_scope, three)) = (find(2), find(3));
    assert_eq!(three_scope, scope);
    let before = i8_uses(&m, scope);
    assert!(before[&2] > 0 && before[&3] > 0, "{before:?}");
    let constants_before = constants(&m).len();

    let done = set_scalar(&mut m, scope, three, NewValue::Int(2)).unwrap();
    assert_eq!(
        done,
        Edited::Merged {
            other: two,
            other_scope: two_scope
        }
    );
    let after = i8_uses(&m, scope);
    assert_eq!(after.get(&3), None);
    assert_eq!(after[&2], before[&2] + before[&3]);
    assert_eq!(constants(&m).len(), constants_before - 1);
    let mut again = m.clone();
    crate::bitcode::renumber(&mut again).unwrap();
    assert_eq!(again, m, "numbered as dxc numbers it");
    let bitcode = write_module(&m).unwrap();
    assert_eq!(Module::parse(&bitcode).unwrap(), m);
}
