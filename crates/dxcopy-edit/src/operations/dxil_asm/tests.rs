use super::{assemble_module, parse_module, ParseError};
use crate::bitcode::write_module;
use dxcopy_read::dxil::{ConstantKind, InstructionKind, Module, Operand, Type};

const SHADER: &str = r#"target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

define void @main() {
  %1 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)
  %2 = fmul fast float %1, 2.000000e+00
  %3 = fcmp fast olt float %2, 1.600000e+01
  br i1 %3, label %4, label %5

; <label>:4
  br label %5

; <label>:5
  %6 = phi float [ %2, %4 ], [ 0.000000e+00, %0 ]
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %6)
  ret void
}

declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0

declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #1

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!llvm.ident = !{!0}
!dx.version = !{!1}

!0 = !{!"dxc"}
!1 = !{i32 1, i32 0}
"#;

fn error(text: &str) -> ParseError {
    assemble_module(text, None).unwrap_err()
}

#[test]
fn a_shader_reads_into_the_model() {
    let m = assemble_module(SHADER, None).unwrap();
    assert_eq!(m.triple.as_deref(), Some("dxil-ms-dx"));
    assert_eq!(m.functions.len(), 3);
    let body = m.functions[0].body.as_ref().unwrap();
    assert_eq!(body.blocks.len(), 3);
    assert_eq!(body.instruction_count(), 8);
    // The phi's incoming blocks are the second and the first block.
    let InstructionKind::Phi { incoming } = &body.blocks[2].instructions[0].kind else {
        panic!("not a phi");
    };
    assert_eq!(incoming[0].block.0, 1);
    assert_eq!(incoming[1].block.0, 0);
    // Two attribute groups, two lists, the declarations' in order.
    assert_eq!(m.attribute_lists.len(), 2);
    assert_eq!(m.functions[1].attributes, 1);
    assert_eq!(m.functions[2].attributes, 2);
    // `i32 0` is a null constant, `2.0` a float's bit pattern.
    let float = m.types.iter().position(|t| *t == Type::Float).unwrap();
    assert!(m.constants.iter().chain(&body.constants).any(
        |c| c.ty.index() == float && c.kind == ConstantKind::Float(u64::from(2.0f32.to_bits()))
    ));
    let InstructionKind::BinOp { flags, .. } = &body.blocks[0].instructions[1].kind else {
        panic!("not a binop");
    };
    assert_eq!(flags.fast_math.0, 0x1f);
    write_module(&m).unwrap();
}

#[test]
fn the_listing_of_an_assembled_module_is_the_text() {
    let m = assemble_module(SHADER, None).unwrap();
    let text = dxcopy_read::listing::dxil::ir::module_text(&m, &Default::default()).unwrap();
    let again = assemble_module(&text, None).unwrap();
    assert_eq!(write_module(&m).unwrap(), write_module(&again).unwrap());
    assert!(
        text.contains("%2 = fmul fast float %1, 2.000000e+00"),
        "{text}"
    );
}

#[test]
fn an_edited_constant_is_in_the_module() {
    let edited = SHADER.replace("2.000000e+00", "3.000000e+00");
    let m = assemble_module(&edited, None).unwrap();
    let body = m.functions[0].body.as_ref().unwrap();
    let InstructionKind::BinOp {
        rhs: Operand::Value(v),
        ..
    } = &body.blocks[0].instructions[1].kind
    else {
        panic!("not a binop");
    };
    let c = m.constant(*v).or_else(|| body.constant(*v)).unwrap();
    assert_eq!(c.kind, ConstantKind::Float(u64::from(3.0f32.to_bits())));
}

#[test]
fn a_mistyped_operand_names_its_line_and_column() {
    let edited = SHADER.replace("fmul fast float %1, 2.000000e+00", "fmul fast i32 %1, 2");
    let e = error(&edited);
    assert_eq!((e.line, e.column), (6, 22));
    assert_eq!(e.message, "'%1' is float, expected i32");
    assert_eq!(
        e.in_file("edited.ll"),
        "edited.ll:6:22: error: '%1' is float, expected i32"
    );
}

#[test]
fn undefined_values_blocks_and_metadata_are_errors() {
    let e = error(&SHADER.replace("float %6)", "float %9)"));
    assert_eq!(
        (e.line, e.message.as_str()),
        (15, "use of undefined value '%9'")
    );
    let e = error(&SHADER.replace("label %5\n\n; <label>:5", "label %7\n\n; <label>:5"));
    assert_eq!(e.message, "use of undefined basic block '%7'");
    let e = error(&SHADER.replace("!{!0}", "!{!7}"));
    assert_eq!(e.message, "use of undefined metadata '!7'");
    let e = error(&SHADER.replace("@dx.op.loadInput.f32(i32 4", "@dx.op.loadInputs.f32(i32 4"));
    assert_eq!(e.message, "use of undefined value '@dx.op.loadInputs.f32'");
    let e = error(&SHADER.replace("#1\n\nattributes", "#2\n\nattributes"));
    assert_eq!(e.message, "attribute group #2 is not defined");
}

#[test]
fn numbering_must_follow_llvm_rules() {
    let e = error(&SHADER.replace("%2 = fmul", "%7 = fmul"));
    assert_eq!(e.message, "instruction expected to be numbered '%2'");
    let e = error(&SHADER.replace("  ret void\n", ""));
    assert_eq!(
        e.message,
        "expected a terminator instruction at the end of the block, found '}'"
    );
}

#[test]
fn calls_check_their_callee_type() {
    let e = error(&SHADER.replace(
        "float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)",
        "float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0)",
    ));
    assert_eq!(e.message, "'@dx.op.loadInput.f32' is float (i32, i32, i32, i8, i32)*, expected float (i32, i32, i32, i8)*");
}

#[test]
fn hostile_nesting_is_bounded() {
    let deep = format!(
        "@g = global {}i32{} 0\n",
        "[1 x ".repeat(100),
        "]".repeat(100)
    );
    let e = error(&deep);
    assert!(e.message.contains("nested more than"), "{}", e.message);
    let open = "!0 = !{!\"unterminated";
    assert_eq!(error(open).message, "end of text in a quoted string");
}

#[test]
fn parse_keeps_the_parser_numbering() {
    let m: Module = parse_module(SHADER).unwrap();
    assert_eq!(m.functions[0].common.value.0, 0);
    assert_eq!(m.functions[1].name(), b"dx.op.loadInput.f32");
}
