//! DWARF names LLVM 3.7 prints in debug-info nodes (`llvm/Support/Dwarf.h`
//! and `Dwarf.def` of dxc's LLVM; docs/format/dxil-listing.md, "Debug
//! info").

/// `DW_TAG_*` by value.
pub fn tag(value: u64) -> Option<&'static str> {
    Some(match value {
        0x01 => "DW_TAG_array_type",
        0x02 => "DW_TAG_class_type",
        0x03 => "DW_TAG_entry_point",
        0x04 => "DW_TAG_enumeration_type",
        0x05 => "DW_TAG_formal_parameter",
        0x08 => "DW_TAG_imported_declaration",
        0x0a => "DW_TAG_label",
        0x0b => "DW_TAG_lexical_block",
        0x0d => "DW_TAG_member",
        0x0f => "DW_TAG_pointer_type",
        0x10 => "DW_TAG_reference_type",
        0x11 => "DW_TAG_compile_unit",
        0x12 => "DW_TAG_string_type",
        0x13 => "DW_TAG_structure_type",
        0x15 => "DW_TAG_subroutine_type",
        0x16 => "DW_TAG_typedef",
        0x17 => "DW_TAG_union_type",
        0x18 => "DW_TAG_unspecified_parameters",
        0x19 => "DW_TAG_variant",
        0x1a => "DW_TAG_common_block",
        0x1b => "DW_TAG_common_inclusion",
        0x1c => "DW_TAG_inheritance",
        0x1d => "DW_TAG_inlined_subroutine",
        0x1e => "DW_TAG_module",
        0x1f => "DW_TAG_ptr_to_member_type",
        0x20 => "DW_TAG_set_type",
        0x21 => "DW_TAG_subrange_type",
        0x22 => "DW_TAG_with_stmt",
        0x23 => "DW_TAG_access_declaration",
        0x24 => "DW_TAG_base_type",
        0x25 => "DW_TAG_catch_block",
        0x26 => "DW_TAG_const_type",
        0x27 => "DW_TAG_constant",
        0x28 => "DW_TAG_enumerator",
        0x29 => "DW_TAG_file_type",
        0x2a => "DW_TAG_friend",
        0x2b => "DW_TAG_namelist",
        0x2c => "DW_TAG_namelist_item",
        0x2d => "DW_TAG_packed_type",
        0x2e => "DW_TAG_subprogram",
        0x2f => "DW_TAG_template_type_parameter",
        0x30 => "DW_TAG_template_value_parameter",
        0x31 => "DW_TAG_thrown_type",
        0x32 => "DW_TAG_try_block",
        0x33 => "DW_TAG_variant_part",
        0x34 => "DW_TAG_variable",
        0x35 => "DW_TAG_volatile_type",
        0x36 => "DW_TAG_dwarf_procedure",
        0x37 => "DW_TAG_restrict_type",
        0x38 => "DW_TAG_interface_type",
        0x39 => "DW_TAG_namespace",
        0x3a => "DW_TAG_imported_module",
        0x3b => "DW_TAG_unspecified_type",
        0x3c => "DW_TAG_partial_unit",
        0x3d => "DW_TAG_imported_unit",
        0x3f => "DW_TAG_condition",
        0x40 => "DW_TAG_shared_type",
        0x41 => "DW_TAG_type_unit",
        0x42 => "DW_TAG_rvalue_reference_type",
        0x43 => "DW_TAG_template_alias",
        0x100 => "DW_TAG_auto_variable",
        0x101 => "DW_TAG_arg_variable",
        0x4081 => "DW_TAG_MIPS_loop",
        0x4101 => "DW_TAG_format_label",
        0x4102 => "DW_TAG_function_template",
        0x4103 => "DW_TAG_class_template",
        0x4106 => "DW_TAG_GNU_template_template_param",
        0x4107 => "DW_TAG_GNU_template_parameter_pack",
        0x4108 => "DW_TAG_GNU_formal_parameter_pack",
        0x4200 => "DW_TAG_APPLE_property",
        0xffff => "DW_TAG_hi_user",
        _ => return None,
    })
}

/// `DW_TAG_base_type`: the printer leaves it out of `DIBasicType`.
pub const TAG_BASE_TYPE: u64 = 0x24;
/// `DW_TAG_template_value_parameter`: left out of `DITemplateValueParameter`.
pub const TAG_TEMPLATE_VALUE_PARAMETER: u64 = 0x30;
/// `DW_TAG_auto_variable`: its `arg: 0` is left out.
pub const TAG_AUTO_VARIABLE: u64 = 0x100;

/// `DW_ATE_*` by value.
pub fn attribute_encoding(value: u64) -> Option<&'static str> {
    Some(match value {
        0x01 => "DW_ATE_address",
        0x02 => "DW_ATE_boolean",
        0x03 => "DW_ATE_complex_float",
        0x04 => "DW_ATE_float",
        0x05 => "DW_ATE_signed",
        0x06 => "DW_ATE_signed_char",
        0x07 => "DW_ATE_unsigned",
        0x08 => "DW_ATE_unsigned_char",
        0x09 => "DW_ATE_imaginary_float",
        0x0a => "DW_ATE_packed_decimal",
        0x0b => "DW_ATE_numeric_string",
        0x0c => "DW_ATE_edited",
        0x0d => "DW_ATE_signed_fixed",
        0x0e => "DW_ATE_unsigned_fixed",
        0x0f => "DW_ATE_decimal_float",
        0x10 => "DW_ATE_UTF",
        0x80 => "DW_ATE_lo_user",
        0xff => "DW_ATE_hi_user",
        _ => return None,
    })
}

/// `DW_LANG_*` by value.
pub fn language(value: u64) -> Option<&'static str> {
    Some(match value {
        0x0001 => "DW_LANG_C89",
        0x0002 => "DW_LANG_C",
        0x0003 => "DW_LANG_Ada83",
        0x0004 => "DW_LANG_C_plus_plus",
        0x0005 => "DW_LANG_Cobol74",
        0x0006 => "DW_LANG_Cobol85",
        0x0007 => "DW_LANG_Fortran77",
        0x0008 => "DW_LANG_Fortran90",
        0x0009 => "DW_LANG_Pascal83",
        0x000a => "DW_LANG_Modula2",
        0x000b => "DW_LANG_Java",
        0x000c => "DW_LANG_C99",
        0x000d => "DW_LANG_Ada95",
        0x000e => "DW_LANG_Fortran95",
        0x000f => "DW_LANG_PLI",
        0x0010 => "DW_LANG_ObjC",
        0x0011 => "DW_LANG_ObjC_plus_plus",
        0x0012 => "DW_LANG_UPC",
        0x0013 => "DW_LANG_D",
        0x0014 => "DW_LANG_Python",
        0x0015 => "DW_LANG_OpenCL",
        0x0016 => "DW_LANG_Go",
        0x0017 => "DW_LANG_Modula3",
        0x0018 => "DW_LANG_Haskell",
        0x0019 => "DW_LANG_C_plus_plus_03",
        0x001a => "DW_LANG_C_plus_plus_11",
        0x001b => "DW_LANG_OCaml",
        0x001c => "DW_LANG_Rust",
        0x001d => "DW_LANG_C11",
        0x001e => "DW_LANG_Swift",
        0x001f => "DW_LANG_Julia",
        0x0020 => "DW_LANG_Dylan",
        0x0021 => "DW_LANG_C_plus_plus_14",
        0x0022 => "DW_LANG_Fortran03",
        0x0023 => "DW_LANG_Fortran08",
        0x0024 => "DW_LANG_RenderScript",
        0x8001 => "DW_LANG_Mips_Assembler",
        0xb000 => "DW_LANG_BORLAND_Delphi",
        _ => return None,
    })
}

/// `DW_VIRTUALITY_*` by value.
pub fn virtuality(value: u64) -> Option<&'static str> {
    Some(match value {
        0 => "DW_VIRTUALITY_none",
        1 => "DW_VIRTUALITY_virtual",
        2 => "DW_VIRTUALITY_pure_virtual",
        _ => return None,
    })
}

/// The `DIExpression` operations LLVM 3.7 accepts: `(name, argument count)`.
pub fn expression_op(value: u64) -> Option<(&'static str, usize)> {
    Some(match value {
        0x06 => ("DW_OP_deref", 0),
        0x22 => ("DW_OP_plus", 1),
        0x9d => ("DW_OP_bit_piece", 2),
        _ => return None,
    })
}

/// `DIFlag*` bits in LLVM 3.7's order (`DebugInfoFlags.def`), after the
/// accessibility pair (bits 0–1: private 1, protected 2, public 3).
pub const FLAGS: &[(u64, &str)] = &[
    (1 << 2, "DIFlagFwdDecl"),
    (1 << 3, "DIFlagAppleBlock"),
    (1 << 4, "DIFlagBlockByrefStruct"),
    (1 << 5, "DIFlagVirtual"),
    (1 << 6, "DIFlagArtificial"),
    (1 << 7, "DIFlagExplicit"),
    (1 << 8, "DIFlagPrototyped"),
    (1 << 9, "DIFlagObjcClassComplete"),
    (1 << 10, "DIFlagObjectPointer"),
    (1 << 11, "DIFlagVector"),
    (1 << 12, "DIFlagStaticMember"),
    (1 << 13, "DIFlagLValueReference"),
    (1 << 14, "DIFlagRValueReference"),
];
