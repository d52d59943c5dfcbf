use super::*;
use crate::dxil::model::{BinOpFlags, FunctionType, Linkage, PhiIncoming, TypeId};
use crate::dxil::test_module::{call, push, Builder};
use crate::reflect::{
    CbufferFlags, CbufferType, TypeDesc, VariableClass, VariableDesc, VariableType,
};

fn v(value: ValueId) -> Operand {
    Operand::Value(value)
}

fn function_type(b: &mut Builder, ret: TypeId, params: &[TypeId]) -> TypeId {
    b.ty(Type::Function(FunctionType {
        vararg: false,
        ret,
        params: params.to_vec(),
    }))
}

/// A buffer of three used floats at 0, 16 and 20.
fn buffer() -> BufferDesc {
    let var = |name: &str, start_offset| VariableDesc {
        name: name.into(),
        start_offset,
        size: 4,
        flags: VariableFlags(VariableFlags::USED),
        used: true,
        default_value: None,
        start_texture: Some(0),
        texture_size: Some(0),
        start_sampler: Some(0),
        sampler_size: Some(0),
        var_type: TypeDesc {
            name: Some("float".into()),
            class: VariableClass::Scalar,
            base_type: VariableType::Float,
            rows: 1,
            columns: 1,
            elements: 0,
            offset: 0,
            members: Vec::new(),
        },
    };
    BufferDesc {
        name: "cb".into(),
        buffer_type: CbufferType::Cbuffer,
        size: 32,
        flags: CbufferFlags(0),
        variables: vec![var("a", 0), var("b", 16), var("c", 20)],
    }
}

/// A shader body: `createHandle(cbuffer 0)`, a legacy load of row 1 whose
/// element 1 is extracted through a `phi` (offset 20); a `createHandle` of
/// an SRV whose loads do not count.
#[test]
fn shader_usage_follows_legacy_loads_and_phis() {
    let mut b = Builder::new();
    let i32_ty = b.int_ty(32);
    let i8_ty = b.int_ty(8);
    let float = b.float();
    let handle_ty = b.named_struct("dx.types.Handle", vec![i8_ty]);
    let ret = b.named_struct("dx.types.CBufRet.f32", vec![float, float, float, float]);
    let create_ty = function_type(&mut b, handle_ty, &[i32_ty, i8_ty, i32_ty, i32_ty]);
    let load_ty = function_type(&mut b, ret, &[i32_ty, handle_ty, i32_ty]);
    let create = b.function("dx.op.createHandle", handle_ty, &[i32_ty], None);
    let load = b.function("dx.op.cbufferLoadLegacy.f32", ret, &[i32_ty], None);
    let c57 = b.constant(i32_ty, ConstantKind::Integer(57));
    let c59 = b.constant(i32_ty, ConstantKind::Integer(59));
    let cbuffer_class = b.constant(i8_ty, ConstantKind::Integer(2));
    let srv_class = b.constant(i8_ty, ConstantKind::Integer(0));
    let zero = b.constant(i32_ty, ConstantKind::Integer(0));
    let one = b.constant(i32_ty, ConstantKind::Integer(1));
    let mut body = b.body(2);
    let handle = push(
        &mut body,
        0,
        call(create, create_ty, &[c57, cbuffer_class, zero, zero]),
        Some(handle_ty),
    )
    .unwrap();
    let srv = push(
        &mut body,
        0,
        call(create, create_ty, &[c57, srv_class, zero, zero]),
        Some(handle_ty),
    )
    .unwrap();
    let row = push(
        &mut body,
        0,
        call(load, load_ty, &[c59, handle, one]),
        Some(ret),
    )
    .unwrap();
    push(
        &mut body,
        0,
        call(load, load_ty, &[c59, srv, zero]),
        Some(ret),
    );
    push(
        &mut body,
        0,
        InstructionKind::Br {
            dest: crate::dxil::model::BlockId(1),
        },
        None,
    );
    let phi = push(
        &mut body,
        1,
        InstructionKind::Phi {
            incoming: vec![PhiIncoming {
                value: v(row),
                block: crate::dxil::model::BlockId(0),
            }],
        },
        Some(ret),
    )
    .unwrap();
    push(
        &mut body,
        1,
        InstructionKind::ExtractValue {
            aggregate: v(phi),
            indices: vec![1],
        },
        Some(float),
    );
    push(&mut body, 1, InstructionKind::Ret { value: None }, None);
    let void = b.ty(Type::Void);
    b.function("main", void, &[], Some(body));

    let usage = shader_usage(&b.module, 1, false).unwrap();
    assert_eq!(usage, vec![vec![20]]);
    let mut cb = buffer();
    apply(&mut cb, &usage[0]);
    let used: Vec<(bool, u32)> = cb.variables.iter().map(|v| (v.used, v.flags.0)).collect();
    assert_eq!(
        used,
        vec![(false, 0), (false, 0), (true, VariableFlags::USED)]
    );

    // Without createHandle calls dxc leaves the usage alone.
    assert_eq!(shader_usage(&Builder::new().module, 1, false), None);
}

/// A library body: the cbuffer's global is loaded, turned into a handle by
/// `createHandleForLib` and read by `cbufferLoad` at `%x + 16` (immediate
/// part 16).
#[test]
fn library_usage_follows_the_global_symbol() {
    let mut b = Builder::new();
    let i32_ty = b.int_ty(32);
    let i8_ty = b.int_ty(8);
    let float = b.float();
    let handle_ty = b.named_struct("dx.types.Handle", vec![i8_ty]);
    let cb_ty = b.named_struct("cb", vec![float, float, float]);
    let symbol = b.global("cb", cb_ty, 0, Linkage::External, true);
    let for_lib_ty = function_type(&mut b, handle_ty, &[i32_ty, cb_ty]);
    let load_ty = function_type(&mut b, float, &[i32_ty, handle_ty, i32_ty, i32_ty]);
    let for_lib = b.function("dx.op.createHandleForLib.cb", handle_ty, &[i32_ty], None);
    let load = b.function("dx.op.cbufferLoad.f32", float, &[i32_ty], None);
    let c160 = b.constant(i32_ty, ConstantKind::Integer(160));
    let c58 = b.constant(i32_ty, ConstantKind::Integer(58));
    let sixteen = b.constant(i32_ty, ConstantKind::Integer(16));
    let four = b.constant(i32_ty, ConstantKind::Integer(4));
    let mut body = b.body(1);
    let x = body.first_value;
    body.args.push(crate::dxil::model::Argument {
        ty: i32_ty,
        value: ValueId(x),
        name: None,
    });
    body.values
        .push(crate::dxil::model::LocalValue::Argument(0));
    let loaded = push(
        &mut body,
        0,
        InstructionKind::Load {
            pointer: v(symbol),
            alignment: 4,
            volatile: false,
            atomic: None,
        },
        Some(cb_ty),
    )
    .unwrap();
    let handle = push(
        &mut body,
        0,
        call(for_lib, for_lib_ty, &[c160, loaded]),
        Some(handle_ty),
    )
    .unwrap();
    let offset = push(
        &mut body,
        0,
        InstructionKind::BinOp {
            op: BinOp::Add,
            lhs: v(ValueId(x)),
            rhs: v(sixteen),
            flags: BinOpFlags::default(),
        },
        Some(i32_ty),
    )
    .unwrap();
    push(
        &mut body,
        0,
        call(load, load_ty, &[c58, handle, offset, four]),
        Some(float),
    );
    push(&mut body, 0, InstructionKind::Ret { value: None }, None);
    let void = b.ty(Type::Void);
    b.function("f", void, &[i32_ty], Some(body));

    let usage = library_usage(&b.module, symbol, false);
    assert_eq!(usage, vec![16]);
    let mut cb = buffer();
    apply(&mut cb, &usage);
    let used: Vec<bool> = cb.variables.iter().map(|v| v.used).collect();
    assert_eq!(used, vec![false, true, false]);
}

/// The scan against dxc's own usage flags: for every corpus module that
/// records usage (validator 1.5+, where dxc's compiler marks each cbuffer
/// field used or not), the offsets its bodies load mark the same fields
/// used as the metadata does.
#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn scan_agrees_with_usage_metadata_over_the_corpus() {
    use crate::reflect::module::ModuleMetadata;
    use dxcopy_harness::corpus::{corpus_or_skip, files_under};
    let Some(corpus) = corpus_or_skip("usage scan") else {
        return;
    };
    let mut paths = files_under(&corpus.join("bin"));
    paths.extend(files_under(&corpus.join("dxc-listings/bin")));
    let (mut modules, mut buffers, mut variables, mut unused) = (0, 0, 0, 0);
    let mut differing = Vec::new();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(container) = crate::Container::parse(&bytes) else {
            continue;
        };
        // dxc's usage flags: the STAT module's (validator 0.0: in the
        // metadata); the scan: the DXIL module's bodies.
        if container.find(crate::PartName::STAT).is_none() {
            continue;
        }
        let Ok(m): Result<ModuleMetadata, _> = crate::reflect::module::read(&container) else {
            continue;
        };
        if m.part != "STAT" || !crate::reflect::cbuffers::usage_in_metadata(&m) {
            continue;
        }
        let Ok((dxil, _)) = crate::reflect::module::read_bodies(&container) else {
            continue;
        };
        let library = m
            .metadata
            .shader_model
            .as_ref()
            .is_some_and(|s| s.kind_name == b"lib");
        let recorded = crate::reflect::cbuffers::constant_buffers(&m).unwrap();
        let cbuffers = &m.metadata.module_resources().cbuffers;
        let count = cbuffers.len().min(recorded.len());
        let min_precision = m.metadata.uses_min_precision();
        let usage: Vec<Vec<u32>> = if library {
            cbuffers
                .iter()
                .map(|r| {
                    r.symbol
                        .map_or_else(Vec::new, |s| library_usage(&dxil, s, min_precision))
                })
                .collect()
        } else {
            match shader_usage(&dxil, count, min_precision) {
                Some(u) => u,
                None => continue,
            }
        };
        modules += 1;
        for (buffer, usage) in recorded.iter().zip(&usage).take(count) {
            if buffer.variables.len() < 2 {
                continue;
            }
            buffers += 1;
            let mut scanned = buffer.clone();
            for v in &mut scanned.variables {
                v.used = true;
                v.flags = VariableFlags(VariableFlags::USED);
            }
            apply(&mut scanned, usage);
            variables += buffer.variables.len();
            unused += buffer.variables.iter().filter(|v| !v.used).count();
            let theirs: Vec<bool> = buffer.variables.iter().map(|v| v.used).collect();
            let ours: Vec<bool> = scanned.variables.iter().map(|v| v.used).collect();
            if ours != theirs {
                differing.push(format!(
                    "{} {}: scan {ours:?}, metadata {theirs:?}",
                    path.display(),
                    buffer.name
                ));
            }
        }
    }
    println!(
        "usage scan: {modules} modules, {buffers} cbuffers of 2+ variables ({variables} variables, {unused} unused per the metadata), {} differ",
        differing.len()
    );
    for d in differing.iter().take(10) {
        println!("{d}");
    }
    assert!(buffers > 0 && unused > 0);
    assert!(differing.is_empty());
}
