//! The LLVM bitstream layer over untrusted bytes: the reader walks every
//! entry and every record's fields, module facts decode, the DXIL module
//! reader runs (`crate::dxil`), and the writer's
//! re-emission, the data layout fix and name stripping run, with their
//! invariants checked.

use crate::verify::{ensure, Violation};
use dxcopy_edit::bitcode::{fix_data_layout, rewrite, strip_names, RecordEdit};
use dxcopy_read::bitcode::{Bitcode, Entry};
use dxcopy_read::dxil::facts::ModuleFacts;
use std::fmt::Write as _;

/// Runs the bitstream reader, module facts, the DXIL module reader
/// ([`crate::exercise_module`]), re-emission, the layout fix and name
/// stripping on `bitcode`. Returns how many of them ran to a result
/// (an `Err` is a result too); a [`Violation`] is a broken invariant:
///
/// - a stream read without error re-emits without error, and re-emitting the
///   re-emitted bytes gives them back unchanged;
/// - a layout fix patched in place keeps the length;
/// - stripped bitcode reads again, and stripping it again removes nothing.
pub fn exercise_bitcode(bitcode: &[u8], sink: &mut crate::Discard) -> Result<usize, Violation> {
    let mut ran = 0;
    let read_ok = match Bitcode::parse(bitcode) {
        Ok(b) => {
            let mut reader = b.reader();
            loop {
                match reader.next_entry() {
                    Ok(Some(Entry::Record(r))) => {
                        let sum = r.fields().fold(0u64, |a, f| a.wrapping_add(f.value));
                        let _ = write!(sink, "{} {sum} {:?}", r.code, r.blob().map(<[u8]>::len));
                    }
                    Ok(Some(e)) => {
                        let _ = write!(sink, "{e:?}");
                    }
                    Ok(None) => break true,
                    Err(e) => {
                        let _ = write!(sink, "{e}");
                        break false;
                    }
                }
            }
        }
        Err(e) => {
            let _ = write!(sink, "{e}");
            false
        }
    };
    ran += 1;
    match ModuleFacts::decode(bitcode) {
        Ok(f) => {
            let _ = write!(sink, "{f:?}");
        }
        Err(e) => {
            let _ = write!(sink, "{e}");
        }
    }
    ran += 1;
    ran += crate::dxil::exercise_module(bitcode, sink)?;
    match rewrite(bitcode, |_, _| RecordEdit::Keep) {
        Ok(once) => {
            let twice = rewrite(&once, |_, _| RecordEdit::Keep)
                .map_err(|e| Violation(format!("re-emitted bitcode does not read: {e}")))?;
            ensure!(twice == once, "re-emitting re-emitted bitcode changed it");
        }
        Err(e) => {
            ensure!(!read_ok, "a stream that reads does not re-emit: {e}");
        }
    }
    ran += 1;
    if let Ok(fix) = fix_data_layout(bitcode) {
        if fix.in_place {
            ensure!(
                fix.bytes.len() == bitcode.len(),
                "an in-place layout fix changed the length"
            );
        }
    }
    ran += 1;
    if let Ok((stripped, _)) = strip_names(bitcode) {
        let (again, stats) = strip_names(&stripped)
            .map_err(|e| Violation(format!("stripped bitcode does not read: {e}")))?;
        ensure!(
            stats.total() == 0 && again == stripped,
            "stripping stripped bitcode removed {} more names",
            stats.total()
        );
    }
    ran += 1;
    Ok(ran)
}

/// The bitcode fuzz target's input: raw bitcode (the `BC 0xC0DE` magic is
/// put in front when missing, so that mutations reach the stream).
pub fn bitcode_input(input: &[u8]) -> Result<usize, Violation> {
    let mut sink = crate::Discard::default();
    if input.starts_with(b"BC\xc0\xde") || input.starts_with(&[0xde, 0xc0, 0x17, 0x0b]) {
        return exercise_bitcode(input, &mut sink);
    }
    let mut data = b"BC\xc0\xde".to_vec();
    data.extend_from_slice(input);
    exercise_bitcode(&data, &mut sink)
}

/// The structure-aware bitcode fuzz target's input: operations that build
/// well-formed bitcode ([`crate::bitcode_ops`]), then everything
/// [`exercise_bitcode`] runs.
pub fn dxil_bitcode_input(input: &[u8]) -> Result<usize, Violation> {
    let bitcode = crate::bitcode_ops::bitcode_from_ops(input);
    exercise_bitcode(&bitcode, &mut crate::Discard::default())
}
