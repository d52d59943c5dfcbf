//! The DXIL module reader (`dxcopy_read::dxil`) over untrusted bytes, with
//! the invariants of the model it returns checked.

use crate::verify::{ensure, Violation};
use dxcopy_read::dxil::facts::ModuleFacts;
use dxcopy_read::dxil::{
    FunctionBody, InstructionKind, Metadata, Module, Operand, ReadOptions, Type, TypeId,
};
use dxcopy_read::listing::dxil::ir::{module_text, AsmOptions};
use dxcopy_read::listing::dxil::{module_listing, module_release, ListingError};
use std::fmt::Write as _;

/// Reads `bitcode` as a module, with and without function bodies, and its
/// module facts. Returns how many of them ran to a result; a [`Violation`]
/// is a broken invariant:
///
/// - every type, value, block and metadata ID in the model refers to an
///   entry that exists;
/// - a module that reads with bodies reads without them, to the same
///   module-level model, and its module facts decode;
/// - its listing (`listing::dxil::module_listing`, which reads the module
///   with its bodies outlined and their instructions read again as they
///   are printed) ends with the text the printer makes of the whole model,
///   and fails where that fails;
/// - the module writer writes the model or fails cleanly, and what it
///   writes reads back as the same model (`dxil_write`).
pub fn exercise_module(bitcode: &[u8], sink: &mut crate::Discard) -> Result<usize, Violation> {
    let full = Module::parse(bitcode);
    let _ = match &full {
        Ok(m) => write!(sink, "{} {}", m.types.len(), m.values.len()),
        Err(e) => write!(sink, "{e}"),
    };
    let Ok(module) = full else {
        return Ok(1);
    };
    check_ids(&module)?;
    let written = crate::dxil_write::exercise_writer(bitcode, &module, sink)?;
    let shallow = Module::parse_with(
        bitcode,
        ReadOptions {
            function_bodies: false,
            ..ReadOptions::default()
        },
    )
    .map_err(|e| Violation(format!("a module reads with bodies but not without: {e}")))?;
    let mut stripped = module.clone();
    for f in &mut stripped.functions {
        f.body = None;
    }
    ensure!(
        stripped == shallow,
        "the module read without bodies differs from the one read with them"
    );
    let facts = ModuleFacts::decode(bitcode)
        .map_err(|e| Violation(format!("a module that reads has no facts: {e}")))?;
    let _ = write!(sink, "{}", facts.functions_defined.len());
    let release = module_release(&module);
    let text = module_text(&module, &AsmOptions::from(&release));
    match (module_listing(bitcode, Some(release)), text) {
        (Ok(listing), Ok(text)) => {
            ensure!(
                listing.ends_with(&text),
                "the listing's module text differs from the whole model's"
            );
            let _ = write!(sink, "{}", listing.len());
        }
        (Err(ListingError::TooLarge { .. }), Err(_)) => {}
        // The header's tables need readable `dx.*` metadata.
        (Err(ListingError::Header { .. }), _) => {}
        (listing, text) => {
            return Err(Violation(format!(
                "the outlined listing and the whole model's text disagree: {:?} vs {:?}",
                listing.err(),
                text.err()
            )))
        }
    }
    Ok(4 + written)
}

/// The DXIL module fuzz target's input: raw bitcode (the `BC 0xC0DE` magic
/// put in front when missing).
pub fn dxil_module_input(input: &[u8]) -> Result<usize, Violation> {
    let mut sink = crate::Discard::default();
    if input.starts_with(b"BC\xc0\xde") || input.starts_with(&[0xde, 0xc0, 0x17, 0x0b]) {
        return exercise_module(input, &mut sink);
    }
    let mut data = b"BC\xc0\xde".to_vec();
    data.extend_from_slice(input);
    exercise_module(&data, &mut sink)
}

fn check_ids(m: &Module) -> Result<(), Violation> {
    let types = m.types.len();
    let ty_ok = |t: TypeId| t.index() < types;
    for t in &m.types {
        let refs: Vec<TypeId> = match t {
            Type::Pointer { pointee, .. } => vec![*pointee],
            Type::Array { element, .. } | Type::Vector { element, .. } => vec![*element],
            Type::Struct(s) => s.body.clone().unwrap_or_default(),
            Type::Function(f) => {
                let mut v = f.params.clone();
                v.push(f.ret);
                v
            }
            _ => Vec::new(),
        };
        ensure!(refs.into_iter().all(ty_ok), "a type refers past the table");
    }
    let module_values = m.values.len();
    for c in &m.constants {
        ensure!(ty_ok(c.ty), "a constant's type is past the table");
        for v in c.kind.operands() {
            ensure!(
                v.index() < module_values,
                "a module constant refers past the values"
            );
        }
    }
    let md_count = m.metadata.len();
    for md in &m.metadata {
        if let Metadata::Node { operands, .. } = md {
            for id in operands.iter().flatten() {
                ensure!(id.index() < md_count, "a node operand is past the metadata");
            }
        }
    }
    for n in &m.named_metadata {
        ensure!(
            n.operands.iter().all(|id| id.index() < md_count),
            "a named node operand is past the metadata"
        );
    }
    for f in &m.functions {
        ensure!(ty_ok(f.function_type), "a function type is past the table");
        if let Some(body) = &f.body {
            check_body(m, body, module_values, md_count + body.metadata.len())?;
        }
    }
    Ok(())
}

fn check_body(
    m: &Module,
    body: &FunctionBody,
    module_values: usize,
    md_count: usize,
) -> Result<(), Violation> {
    let values = module_values + body.values.len();
    ensure!(
        body.first_value as usize == module_values,
        "a body's first value is not the module's value count"
    );
    let operand_ok = |o: &Operand| match o {
        Operand::Value(v) => v.index() < values,
        Operand::Metadata(id) => id.index() < md_count,
    };
    let blocks = body.blocks.len();
    for c in &body.constants {
        for v in c.kind.operands() {
            ensure!(
                v.index() < values,
                "a function constant refers past the values"
            );
        }
    }
    for bb in &body.blocks {
        for inst in &bb.instructions {
            if let Some(v) = inst.value {
                ensure!(
                    body.value_type(v) == inst.ty,
                    "an instruction's value does not map back to it"
                );
            }
            let (operands, targets) = instruction_refs(&inst.kind);
            ensure!(
                operands.iter().all(operand_ok),
                "an operand is past the values or metadata"
            );
            ensure!(
                targets.iter().all(|b| b.index() < blocks),
                "a branch target is past the blocks"
            );
            if let Some(loc) = inst.debug_loc {
                for md in [loc.scope, loc.inlined_at].into_iter().flatten() {
                    ensure!(
                        md.index() < md_count,
                        "a debug location is past the metadata"
                    );
                }
            }
        }
    }
    let _ = m;
    Ok(())
}

fn instruction_refs(kind: &InstructionKind) -> (Vec<Operand>, Vec<dxcopy_read::dxil::BlockId>) {
    use InstructionKind::*;
    match kind {
        BinOp { lhs, rhs, .. } | Compare { lhs, rhs, .. } => (vec![*lhs, *rhs], vec![]),
        Cast { value, .. } => (vec![*value], vec![]),
        Select {
            condition,
            if_true,
            if_false,
        } => (vec![*condition, *if_true, *if_false], vec![]),
        ExtractElement { vector, index } => (vec![*vector, *index], vec![]),
        InsertElement {
            vector,
            element,
            index,
        } => (vec![*vector, *element, *index], vec![]),
        ShuffleVector {
            first,
            second,
            mask,
        } => (vec![*first, *second, *mask], vec![]),
        ExtractValue { aggregate, .. } => (vec![*aggregate], vec![]),
        InsertValue {
            aggregate, value, ..
        } => (vec![*aggregate, *value], vec![]),
        GetElementPtr { operands, .. } => (operands.clone(), vec![]),
        Phi { incoming } => (
            incoming.iter().map(|i| i.value).collect(),
            incoming.iter().map(|i| i.block).collect(),
        ),
        Ret { value } => (value.iter().copied().collect(), vec![]),
        Br { dest } => (vec![], vec![*dest]),
        CondBr {
            condition,
            if_true,
            if_false,
        } => (vec![*condition], vec![*if_true, *if_false]),
        Switch {
            condition,
            default,
            cases,
        } => {
            let mut ops = vec![*condition];
            ops.extend(cases.iter().map(|c| Operand::Value(c.value)));
            let mut targets = vec![*default];
            targets.extend(cases.iter().map(|c| c.dest));
            (ops, targets)
        }
        IndirectBr {
            address,
            destinations,
        } => (vec![*address], destinations.clone()),
        Unreachable | Fence { .. } => (vec![], vec![]),
        Alloca { size, .. } => (vec![*size], vec![]),
        Load { pointer, .. } => (vec![*pointer], vec![]),
        Store { pointer, value, .. } | AtomicRmw { pointer, value, .. } => {
            (vec![*pointer, *value], vec![])
        }
        CmpXchg {
            pointer,
            compare,
            new_value,
            ..
        } => (vec![*pointer, *compare, *new_value], vec![]),
        Call { callee, args, .. } => {
            let mut ops = vec![*callee];
            ops.extend(args.iter().copied());
            (ops, vec![])
        }
        VaArg { list, .. } => (vec![*list], vec![]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_after_the_magic_is_a_read_error_not_a_violation() {
        assert_eq!(dxil_module_input(&[0xff; 64]), Ok(1));
        assert_eq!(dxil_module_input(b""), Ok(1));
    }

    #[cfg_attr(
        not(dxcopy_corpus),
        ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
    )]
    #[test]
    fn the_dxc_listing_corpus_modules_pass_every_check() {
        let Some(corpus) = crate::corpus::corpus_or_skip("exercise_module") else {
            return;
        };
        let mut checked = 0;
        for path in crate::corpus::files_under(&corpus.join("dxc-listings/bin")) {
            let bytes = std::fs::read(&path).expect("a corpus file");
            let container = dxcopy_read::Container::parse(&bytes).expect("a container");
            let part = container
                .require(dxcopy_read::PartName::DXIL)
                .expect("DXIL");
            let program = dxcopy_read::Program::parse(&part).expect("a program");
            let mut sink = crate::Discard::default();
            // Read whole, read without bodies, facts, outlined listing, and
            // written back identically (one write).
            assert_eq!(
                exercise_module(program.bitcode, &mut sink),
                Ok(5),
                "{}",
                path.display()
            );
            checked += 1;
        }
        assert!(checked > 0, "no corpus containers");
        println!("{checked} dxc-listing modules pass");
    }
}
