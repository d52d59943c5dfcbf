//! dxc's instruction counts against the corpus: every container whose STAT
//! module carries `dx.counters` (what dxc's reflection reports) gets the
//! same counters when dxcopy counts the DXIL module's function bodies as
//! dxc's `CountInstructions` does — the count dxcopy falls back to for
//! modules without `dx.counters` (docs/reflection.md, "Instruction counts").

use dxcopy_harness::corpus::{corpus_or_skip, files_under};
use dxcopy_read::dxil::model::{ConstantKind, InstructionKind, Module, ModuleValue, Operand};
use dxcopy_read::reflect::counters::Counters;
use dxcopy_read::reflect::Reflection;
use dxcopy_read::{Container, PartName, Program};

fn module(container: &Container<'_>, name: PartName) -> Option<Module> {
    let part = container.find(name)?;
    let program = Program::parse(&part).ok()?;
    Module::parse(program.bitcode).ok()
}

/// How many times the bodies call each DXIL operation in `ops`.
fn op_calls(module: &Module, ops: &[u32]) -> Vec<u32> {
    let mut counts = vec![0; ops.len()];
    for body in module.functions.iter().filter_map(|f| f.body.as_ref()) {
        for inst in body.blocks.iter().flat_map(|b| &b.instructions) {
            let InstructionKind::Call {
                callee: Operand::Value(callee),
                args,
                ..
            } = &inst.kind
            else {
                continue;
            };
            let Some(ModuleValue::Function(f)) = module.value(*callee) else {
                continue;
            };
            if !module.functions[f as usize].name().starts_with(b"dx.op.") {
                continue;
            }
            let Some(Operand::Value(opcode)) = args.first() else {
                continue;
            };
            let opcode = module
                .constant(*opcode)
                .or_else(|| body.constant(*opcode))
                .map(|c| &c.kind);
            if let Some(ConstantKind::Integer(op)) = opcode {
                if let Some(i) = ops.iter().position(|o| i64::from(*o) == *op) {
                    counts[i] += 1;
                }
            }
        }
    }
    counts
}

/// The operations dxc's counters gained on 2026-03-27 (#8296: DxilCounters.cpp
/// regenerated from hctdb), with the counter each adds to; the `dx.counters`
/// of containers from earlier releases leave them out.
const NEWLY_COUNTED: [(u32, &str); 10] = [
    (244, "barrier"),
    (245, "barrier"),
    (246, "barrier"),
    (254, "tex_cmp"),
    (255, "tex_cmp"),
    (303, "tex_load"),
    (304, "tex_store"),
    (309, "ints+uints"),
    (310, "ints+uints"),
    (311, "floats"),
];

/// `counters` without what the newly counted operations added.
fn as_before_8296(module: &Module, mut counters: Counters) -> Counters {
    let ops: Vec<u32> = NEWLY_COUNTED.iter().map(|(op, _)| *op).collect();
    for (n, (_, counter)) in op_calls(module, &ops).into_iter().zip(NEWLY_COUNTED) {
        match counter {
            "barrier" => counters.barrier -= n,
            "tex_cmp" => counters.tex_cmp -= n,
            "tex_load" => counters.tex_load -= n,
            "tex_store" => counters.tex_store -= n,
            "floats" => counters.floats -= n,
            _ => {
                counters.ints -= n;
                counters.uints -= n;
            }
        }
    }
    counters
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn counted_bodies_match_dx_counters() {
    let Some(corpus) = corpus_or_skip("reflect_counters_corpus") else {
        return;
    };
    let mut paths = files_under(&corpus.join("bin"));
    paths.extend(files_under(&corpus.join("dxc-listings/bin")));
    let (mut with_counters, mut counted, mut reflected, mut older_table) = (0, 0, 0, 0);
    let mut differing = Vec::new();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(container) = Container::parse(&bytes) else {
            continue;
        };
        let Some(stat) = module(&container, PartName::STAT) else {
            continue;
        };
        let Some(recorded) = Counters::from_metadata(&stat) else {
            continue;
        };
        with_counters += 1;
        let Some(dxil) = module(&container, PartName::DXIL) else {
            continue;
        };
        counted += 1;
        let ours = Counters::count(&dxil);
        let older = as_before_8296(&dxil, ours);
        if ours != recorded && older == recorded {
            // Written by a dxc before #8296: the same count with its table.
            older_table += 1;
        } else if ours != recorded {
            differing.push(format!("{}: {ours:?} != {recorded:?}", path.display()));
        }
        // The reflection reports the recorded counters.
        let reflection = Reflection::from_container(&container).unwrap();
        if let Some(shader) = &reflection.shader {
            reflected += 1;
            assert_eq!(
                shader.instruction_count,
                Some(recorded.insts),
                "{}",
                path.display()
            );
            assert_eq!(
                shader.texture_load_instructions,
                Some(recorded.tex_load),
                "{}",
                path.display()
            );
        }
    }
    println!(
        "dx.counters: {with_counters} STAT modules carry them, {counted} compared with the DXIL bodies' count ({reflected} shaders reflected): {} identical, {older_table} identical with the operations dxc counted before #8296, {} differ",
        counted - older_table - differing.len(),
        differing.len()
    );
    for d in differing.iter().take(10) {
        println!("{d}");
    }
    assert!(counted > 0);
    assert!(differing.is_empty());
}
