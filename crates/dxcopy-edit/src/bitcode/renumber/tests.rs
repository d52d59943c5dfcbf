use super::*;
use crate::bitcode::write_module;
use dxcopy_read::dxil::{
    Argument, BasicBlock, ConstantKind, Function, FunctionType, GlobalCommon, Instruction,
    InstructionKind, Linkage, NamedMetadata, Visibility,
};

fn int(ty: u32, v: i64) -> Constant {
    Constant {
        ty: TypeId(ty),
        kind: ConstantKind::Integer(v),
    }
}

fn value_md(ty: u32, v: u32) -> Metadata {
    Metadata::Value {
        ty: TypeId(ty),
        value: ValueId(v),
    }
}

fn named(ops: &[u32]) -> Vec<NamedMetadata> {
    vec![NamedMetadata {
        name: b"n".to_vec(),
        operands: ops.iter().map(|&o| MetadataId(o)).collect(),
    }]
}

/// Types: 0 float, 1 i32, 2 [3 x i32], 3 metadata.
fn module(constants: Vec<Constant>, metadata: Vec<Metadata>, named_ops: &[u32]) -> Module {
    Module {
        version: 1,
        types: vec![
            Type::Float,
            Type::Integer { bits: 32 },
            Type::Array {
                len: 3,
                element: TypeId(1),
            },
            Type::Metadata,
        ],
        values: (0..constants.len() as u32)
            .map(ModuleValue::Constant)
            .collect(),
        constants,
        metadata,
        named_metadata: named(named_ops),
        ..Module::default()
    }
}

/// A definition `f` with value ID `value` and `body`.
fn function(
    value: u32,
    function_type: u32,
    pointer_type: Option<u32>,
    body: FunctionBody,
) -> Function {
    Function {
        common: GlobalCommon {
            name: b"f".to_vec(),
            value: ValueId(value),
            raw_linkage: 0,
            linkage: Linkage::External,
            visibility: Visibility::Default,
            dll_storage: Default::default(),
            unnamed_addr: false,
            comdat: 0,
        },
        function_type: TypeId(function_type),
        pointer_type: pointer_type.map(TypeId),
        calling_conv: 0,
        is_declaration: false,
        attributes: 0,
        alignment: 0,
        section: None,
        gc: None,
        prologue_data: None,
        prefix_data: None,
        personality: None,
        body: Some(body),
    }
}

/// Written and read back, the model is the same: the writer takes it.
fn writes_back(m: &Module) {
    let bytes = write_module(m).expect("writes");
    assert_eq!(&Module::parse(&bytes).expect("reads"), m);
}

#[test]
fn an_unused_constant_disappears() {
    let mut m = module(vec![int(1, 7), int(1, 9)], vec![value_md(1, 1)], &[0]);
    let stats = renumber(&mut m).unwrap();
    assert_eq!(stats.constants_dropped, 1);
    assert_eq!(m.constants, vec![int(1, 9)]);
    assert_eq!(m.values, vec![ModuleValue::Constant(0)]);
    assert_eq!(m.metadata, vec![value_md(1, 0)]);
    writes_back(&m);
}

#[test]
fn unreached_metadata_disappears() {
    let mut m = module(
        vec![int(1, 1)],
        vec![
            Metadata::String(b"unused".to_vec()),
            value_md(1, 0),
            Metadata::Node {
                distinct: false,
                operands: vec![Some(MetadataId(1)), None],
            },
        ],
        &[2],
    );
    let stats = renumber(&mut m).unwrap();
    assert_eq!(stats.metadata_dropped, 1);
    assert_eq!(
        m.metadata,
        vec![
            value_md(1, 0),
            Metadata::Node {
                distinct: false,
                operands: vec![Some(MetadataId(0)), None],
            }
        ]
    );
    assert_eq!(m.named_metadata[0].operands, vec![MetadataId(1)]);
    writes_back(&m);
}

/// An element added to an array constant: the new `i32 2` is used twice,
/// so it sorts before `i32 1` by frequency; the partition that moves the
/// integers ahead of the float then swaps `i32 1` to the front, as LLVM's
/// `OptimizeConstants` does.
#[test]
fn a_new_constant_lands_where_dxc_puts_it() {
    // Before the edit: float 1.0, i32 1, [i32 1, i32 1, i32 1].
    let mut m = module(
        vec![
            Constant {
                ty: TypeId(0),
                kind: ConstantKind::Float(0x3f80_0000),
            },
            int(1, 1),
            Constant {
                ty: TypeId(2),
                kind: ConstantKind::Aggregate(vec![ValueId(1), ValueId(1), ValueId(1)]),
            },
        ],
        vec![value_md(2, 2), value_md(0, 0)],
        &[0, 1],
    );
    // The edit: a new `i32 2`, the array's last two elements.
    m.constants.push(int(1, 2));
    m.values.push(ModuleValue::Constant(3));
    m.constants[2].kind = ConstantKind::Aggregate(vec![ValueId(1), ValueId(3), ValueId(3)]);
    renumber(&mut m).unwrap();
    // Pushed in order i32 1 (1 use), i32 2 (2 uses), the array, the float;
    // sorted by type: float, i32 2, i32 1, array; partitioned: the first
    // integer from the back (i32 1) swaps with the float.
    assert_eq!(
        m.constants,
        vec![
            int(1, 1),
            int(1, 2),
            Constant {
                ty: TypeId(0),
                kind: ConstantKind::Float(0x3f80_0000),
            },
            Constant {
                ty: TypeId(2),
                kind: ConstantKind::Aggregate(vec![ValueId(0), ValueId(1), ValueId(1)]),
            },
        ]
    );
    assert_eq!(m.metadata, vec![value_md(2, 3), value_md(0, 2)]);
    writes_back(&m);
}

#[test]
fn equal_constants_and_their_wrappers_become_one() {
    let mut m = module(
        vec![int(1, 5), int(1, 5)],
        vec![
            value_md(1, 0),
            value_md(1, 1),
            Metadata::Node {
                distinct: false,
                operands: vec![Some(MetadataId(0)), Some(MetadataId(1))],
            },
        ],
        &[2],
    );
    let stats = renumber(&mut m).unwrap();
    assert_eq!(stats.constants_dropped, 1);
    assert_eq!(stats.metadata_dropped, 1);
    assert_eq!(m.constants, vec![int(1, 5)]);
    assert_eq!(
        m.metadata,
        vec![
            value_md(1, 0),
            Metadata::Node {
                distinct: false,
                operands: vec![Some(MetadataId(0)), Some(MetadataId(0))],
            }
        ]
    );
}

/// `i32 (i32)` function `f` returning `add %a, 5`, where `i32 5` was a
/// module constant: nothing at module level uses it any more, so it
/// becomes the function's own constant, after the argument.
#[test]
fn a_constant_only_a_function_uses_becomes_local() {
    let mut m = module(vec![int(1, 5)], Vec::new(), &[]);
    m.named_metadata.clear();
    m.types.push(Type::Function(FunctionType {
        vararg: false,
        ret: TypeId(1),
        params: vec![TypeId(1)],
    }));
    m.types.push(Type::Pointer {
        pointee: TypeId(4),
        address_space: 0,
    });
    // Value 0 the constant, 1 the function (as an edit may leave them).
    m.values = vec![ModuleValue::Constant(0), ModuleValue::Function(0)];
    m.functions.push(function(
        1,
        4,
        Some(5),
        FunctionBody {
            first_value: 2,
            values: vec![
                LocalValue::Argument(0),
                LocalValue::Instruction {
                    block: dxcopy_read::dxil::BlockId(0),
                    index: 0,
                },
            ],
            args: vec![Argument {
                ty: TypeId(1),
                value: ValueId(2),
                name: None,
            }],
            blocks: vec![BasicBlock {
                name: None,
                instructions: vec![
                    Instruction {
                        kind: InstructionKind::BinOp {
                            op: dxcopy_read::dxil::BinOp::Add,
                            lhs: Operand::Value(ValueId(2)),
                            rhs: Operand::Value(ValueId(0)),
                            flags: Default::default(),
                        },
                        ty: Some(TypeId(1)),
                        value: Some(ValueId(3)),
                        name: None,
                        debug_loc: None,
                        attachments: Vec::new(),
                    },
                    Instruction {
                        kind: InstructionKind::Ret {
                            value: Some(Operand::Value(ValueId(3))),
                        },
                        ty: None,
                        value: None,
                        name: None,
                        debug_loc: None,
                        attachments: Vec::new(),
                    },
                ],
            }],
            ..FunctionBody::default()
        },
    ));
    renumber(&mut m).unwrap();
    assert_eq!(m.values, vec![ModuleValue::Function(0)]);
    assert!(m.constants.is_empty());
    let f = &m.functions[0];
    assert_eq!(f.common.value, ValueId(0));
    let body = f.body.as_ref().unwrap();
    assert_eq!(body.first_value, 1);
    assert_eq!(body.args[0].value, ValueId(1));
    assert_eq!(body.constants, vec![int(1, 5)]);
    assert_eq!(
        body.values,
        vec![
            LocalValue::Argument(0),
            LocalValue::Constant(0),
            LocalValue::Instruction {
                block: dxcopy_read::dxil::BlockId(0),
                index: 0
            }
        ]
    );
    assert_eq!(
        body.blocks[0].instructions[0].kind,
        InstructionKind::BinOp {
            op: dxcopy_read::dxil::BinOp::Add,
            lhs: Operand::Value(ValueId(1)),
            rhs: Operand::Value(ValueId(2)),
            flags: Default::default(),
        }
    );
    assert_eq!(body.blocks[0].instructions[0].value, Some(ValueId(3)));
    assert_eq!(
        body.blocks[0].instructions[1].kind,
        InstructionKind::Ret {
            value: Some(Operand::Value(ValueId(3)))
        }
    );
}

#[test]
fn errors_leave_the_model_as_it_was() {
    let mut m = module(vec![int(1, 1)], vec![value_md(1, 9)], &[0]);
    let before = m.clone();
    assert_eq!(
        renumber(&mut m),
        Err(RenumberError::UndefinedValue {
            place: "module".into(),
            id: 9
        })
    );
    assert_eq!(m, before);
    // A constant among its own operands.
    let mut m = module(
        vec![Constant {
            ty: TypeId(2),
            kind: ConstantKind::Aggregate(vec![ValueId(0)]),
        }],
        vec![value_md(2, 0)],
        &[0],
    );
    assert!(matches!(
        renumber(&mut m),
        Err(RenumberError::ConstantCycle { .. })
    ));
}

#[test]
fn partition_is_llvms_two_ended_swap() {
    let mut v = [1, 2, 3, 4, 5, 6];
    partition(&mut v, |x| x % 2 == 0);
    // 1 swaps with 6, 3 with 4.
    assert_eq!(v, [6, 2, 4, 3, 5, 1]);
}

/// `!dx.version` and `!dx.valver` of equal versions are one node in LLVM:
/// a second equal node made by an edit becomes the first.
#[test]
fn equal_plain_nodes_become_one() {
    let mut m = module(
        vec![int(1, 1), int(1, 6)],
        vec![
            value_md(1, 0),
            value_md(1, 1),
            Metadata::Node {
                distinct: false,
                operands: vec![Some(MetadataId(0)), Some(MetadataId(1))],
            },
        ],
        &[2],
    );
    let second = add_metadata(
        &mut m,
        Metadata::Node {
            distinct: false,
            operands: vec![Some(MetadataId(0)), Some(MetadataId(1))],
        },
    );
    m.named_metadata.push(NamedMetadata {
        name: b"m".to_vec(),
        operands: vec![second],
    });
    let stats = renumber(&mut m).unwrap();
    assert_eq!(stats.metadata_dropped, 1);
    assert_eq!(m.metadata.len(), 3);
    assert_eq!(m.named_metadata[1].operands, vec![MetadataId(2)]);
    writes_back(&m);
}

#[test]
fn added_constants_move_function_values_up() {
    let mut m = module(vec![int(1, 1)], Vec::new(), &[]);
    m.named_metadata.clear();
    m.functions.push(function(
        1,
        0,
        None,
        FunctionBody {
            first_value: 1,
            values: vec![LocalValue::Argument(0)],
            args: vec![Argument {
                ty: TypeId(1),
                value: ValueId(1),
                name: None,
            }],
            blocks: vec![BasicBlock {
                name: None,
                instructions: vec![Instruction {
                    kind: InstructionKind::Ret {
                        value: Some(Operand::Value(ValueId(1))),
                    },
                    ty: None,
                    value: None,
                    name: None,
                    debug_loc: None,
                    attachments: Vec::new(),
                }],
            }],
            ..FunctionBody::default()
        },
    ));
    assert_eq!(add_constant(&mut m, int(1, 2)), ValueId(1));
    let body = m.functions[0].body.as_ref().unwrap();
    assert_eq!(body.first_value, 2);
    assert_eq!(body.args[0].value, ValueId(2));
    assert_eq!(
        body.blocks[0].instructions[0].kind,
        InstructionKind::Ret {
            value: Some(Operand::Value(ValueId(2)))
        }
    );
}
