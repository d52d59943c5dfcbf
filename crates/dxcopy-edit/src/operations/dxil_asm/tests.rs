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
    let text = SHADER.replace("@dx.op.loadInput.f32", "@load");
    let e = error(&text.replace(
        "float @load(i32 4, i32 0, i32 0, i8 0, i32 undef)",
        "float @load(i32 4, i32 0, i32 0, i8 0)",
    ));
    assert_eq!(
        e.message,
        "'@load' is float (i32, i32, i32, i8, i32)*, expected float (i32, i32, i32, i8)*"
    );
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

// ---------------------------------------------------------------- containers

use super::{
    build_dxil_container, check_dxil_round_trip, listing_kind, patch_dxil_container, DxilAsmError,
    DxilAsmWarning, DxilRoundTrip, ListingKind,
};
use dxcopy_read::info::{verify::verify, Inspection};
use dxcopy_read::listing::dxil::{container_listing, ListingOptions};
use dxcopy_read::{Container, PartName};

/// A dxc 1.8 pixel shader with ILDB, STAT and a debug module (the
/// repository's example).
const FRAG: &[u8] = include_bytes!("../../../../../examples/learn-sdl-gpu/shader.frag.dxil");

fn dxil_listing(bytes: &[u8]) -> String {
    let container = Container::parse(bytes).unwrap();
    let options = ListingOptions {
        part: Some(PartName::DXIL),
        release: None,
        ..ListingOptions::default()
    };
    container_listing(&container, &options).unwrap()
}

/// Patches FRAG with `edit` applied to its listing; checks the result
/// verifies and its listing is the edited text's; returns the container.
fn patched(edit: impl Fn(&str) -> String) -> Vec<u8> {
    let text = edit(&dxil_listing(FRAG));
    let p = patch_dxil_container(FRAG, &text).unwrap();
    assert!(p.module_changed);
    assert_eq!(
        p.warnings,
        vec![DxilAsmWarning::IldbDropped, DxilAsmWarning::StatStale]
    );
    let container = Container::parse(&p.bytes).unwrap();
    assert!(container.find(PartName::ILDB).is_none());
    let v = verify(&Inspection::new(container));
    assert!(v.passes(false), "{}", v.summary(8));
    // The module as the result lists it is the edited module.
    let again = dxil_listing(&p.bytes);
    let strip = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.starts_with(';'))
            .map(|l| l.split("  ;").next().unwrap_or(l).trim_end().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&again), strip(&text));
    p.bytes
}

#[test]
fn an_unedited_listing_gives_the_container_back() {
    let p = patch_dxil_container(FRAG, &dxil_listing(FRAG)).unwrap();
    assert!(!p.module_changed);
    assert!(p.warnings.is_empty());
    assert_eq!(p.bytes, FRAG);
    assert_eq!(
        check_dxil_round_trip(FRAG).unwrap(),
        DxilRoundTrip::Identical
    );
}

#[test]
fn edit_a_constant() {
    patched(|t| t.replace("i8 3, float %4)", "i8 3, float 1.000000e+00)"));
}

#[test]
fn edit_swap_two_operands() {
    let bytes = patched(|t| {
        t.replace("i8 0, float %1)", "i8 0, float %X)")
            .replace("i8 1, float %2)", "i8 1, float %1)")
            .replace("i8 0, float %X)", "i8 0, float %2)")
    });
    assert!(dxil_listing(&bytes).contains("i8 0, float %2)"));
}

#[test]
fn edit_add_an_instruction() {
    let bytes = patched(|t| {
        t.replace(
            "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %1)",
            "  %5 = fmul fast float %1, %2\n  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %5)",
        )
    });
    assert!(dxil_listing(&bytes).contains("%5 = fmul fast float %1, %2"));
}

#[test]
fn edit_rename_the_entry_point() {
    let bytes = patched(|t| {
        t.replace("@main", "@shade")
            .replace("!\"main\"", "!\"shade\"")
    });
    // PSV0, rebuilt from the module, names the new entry point.
    let container = Container::parse(&bytes).unwrap();
    let psv = container.find(PartName::PSV0).unwrap();
    assert!(psv.data.windows(6).any(|w| w == b"shade\0"));
    assert!(!psv.data.windows(5).any(|w| w == b"main\0"));
}

#[test]
fn a_new_container_from_a_listing() {
    let built = build_dxil_container(&dxil_listing(FRAG)).unwrap();
    let container = Container::parse(&built).unwrap();
    let names: Vec<PartName> = container.parts().map(|p| p.name).collect();
    assert_eq!(
        names,
        [
            PartName::SFI0,
            PartName::ISG1,
            PartName::OSG1,
            PartName::PSV0,
            PartName::HASH,
            PartName::DXIL
        ]
    );
    let original = Container::parse(FRAG).unwrap();
    for name in [
        PartName::SFI0,
        PartName::ISG1,
        PartName::OSG1,
        PartName::PSV0,
    ] {
        assert_eq!(
            container.find(name).unwrap().data,
            original.find(name).unwrap().data,
            "{name}"
        );
    }
    assert!(verify(&Inspection::new(container)).passes(false));
}

#[test]
fn listing_errors_name_the_line_and_write_nothing() {
    let text = dxil_listing(FRAG).replace("float %3)", "i32 %3)");
    let Err(DxilAsmError::Parse(e)) = patch_dxil_container(FRAG, &text) else {
        panic!("a type error is a parse error");
    };
    assert_eq!(e.message, "'%3' is float, expected i32");
    let line = text.lines().nth(e.line as usize - 1).unwrap();
    assert_eq!(&line[e.column as usize - 1..e.column as usize + 1], "%3");
}

#[test]
fn the_kind_is_told_from_the_text() {
    assert_eq!(listing_kind(&dxil_listing(FRAG)), ListingKind::Dxil);
    assert_eq!(
        listing_kind("//\n// comment\nps_5_0\nret\n"),
        ListingKind::Dxbc
    );
    assert_eq!(
        listing_kind("; c\n\ndefine void @main() {\n"),
        ListingKind::Dxil
    );
}

#[test]
fn debug_info_nodes_read_back() {
    let container = Container::parse(FRAG).unwrap();
    let options = ListingOptions {
        part: Some(PartName::ILDB),
        release: None,
        ..ListingOptions::default()
    };
    let text = container_listing(&container, &options).unwrap();
    assert!(text.contains("!DICompileUnit("));
    let ildb = container.find(PartName::ILDB).unwrap();
    let program = dxcopy_read::Program::parse(&ildb).unwrap();
    let original = Module::parse(program.bitcode).unwrap();
    let m = assemble_module(&text, Some(&original)).unwrap();
    assert_eq!(write_module(&m).unwrap(), program.bitcode);
    // A debug location's fields and an unknown field are checked.
    let e = error(&text.replacen("!DIFile(filename:", "!DIFile(name:", 1));
    assert_eq!(e.message, "'DIFile' has no field 'name'");
}

#[test]
fn a_debug_module_listing_replaces_ildb() {
    let container = Container::parse(FRAG).unwrap();
    let options = ListingOptions {
        part: None,
        release: None,
        ..ListingOptions::default()
    };
    // `dxinfo --disasm` lists ILDB when there is one, as dxc does.
    let text = container_listing(&container, &options).unwrap();
    let same = patch_dxil_container(FRAG, &text).unwrap();
    assert_eq!(same.bytes, FRAG);
    let edited = text.replace("i8 3, float %4)", "i8 3, float 1.000000e+00)");
    let p = patch_dxil_container(FRAG, &edited).unwrap();
    assert!(!p.module_changed);
    assert_eq!(p.warnings, vec![DxilAsmWarning::IldbReplaced]);
    let after = Container::parse(&p.bytes).unwrap();
    assert_eq!(
        after.find(PartName::DXIL).unwrap().data,
        container.find(PartName::DXIL).unwrap().data
    );
    assert_ne!(
        after.find(PartName::ILDB).unwrap().data,
        container.find(PartName::ILDB).unwrap().data
    );
    assert!(verify(&Inspection::new(after)).passes(false));
}

#[test]
fn dx_op_calls_are_checked_against_the_operation_table() {
    // LoadInput takes four arguments after its opcode.
    let e = error(&SHADER.replace(
        "float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)",
        "float @dx.op.loadInput.f32(i32 6, i32 0, i32 0, i8 0, i32 undef)",
    ));
    assert_eq!(
        e.message,
        "'@dx.op.loadInput.f32': opcode 6 (FAbs) takes 1 arguments after the opcode, found 4"
    );
    assert_eq!((e.line, e.column), (5, 13));
    let e = error(&SHADER.replace(
        "(i32 4, i32 0, i32 0, i8 0, i32 undef)",
        "(i32 100000, i32 0, i32 0, i8 0, i32 undef)",
    ));
    assert_eq!(
        e.message,
        "'@dx.op.loadInput.f32': opcode 100000 is not a dx.op operation"
    );
    assert_eq!((e.line, e.column), (5, 40));
    // An overload the function's type does not have.
    let e = error(&SHADER.replace("dx.op.storeOutput.f32", "dx.op.storeOutput.i16"));
    assert_eq!(
        e.message,
        "'@dx.op.storeOutput.i16': the overload '.i16' is neither the function's return type nor one of its argument types"
    );
}

#[test]
fn dxil_metadata_of_the_wrong_shape_is_an_error() {
    let text = dxil_listing(FRAG);
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("= !{!\"ps\", i32 6, i32 0}"))
        .unwrap();
    let slot = line.split(' ').next().unwrap();
    let e = error(&text.replace(line, &format!("{slot} = !{{!\"ps\", i32 6}}")));
    assert_eq!(e.line as usize, n + 1, "{}", e.message);
    assert!(e.message.starts_with("DXIL metadata: "), "{}", e.message);
    assert!(e.message.contains(slot), "{}", e.message);
}
