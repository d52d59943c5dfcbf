//! The DXIL module writer (`dxcopy_edit::bitcode::write_module`) on every
//! module that reads: it writes or fails with an error, never panics; what
//! it writes reads back as the same model (the symbol table order aside,
//! which the writer sorts when the order read does not fit), and writing
//! that again gives the same bytes.

use crate::verify::{ensure, Violation};
use dxcopy_edit::bitcode::write_module;
use dxcopy_read::dxil::Module;
use std::fmt::Write as _;

/// The model without the symbol table orders the reader records.
fn without_order(mut m: Module) -> Module {
    m.symbol_order.clear();
    for f in &mut m.functions {
        if let Some(b) = &mut f.body {
            b.symbol_order.clear();
        }
    }
    m
}

/// Writes `module` (read from `bitcode`) and checks the written bytes as
/// the module doc says; returns the number of writes that ran.
pub(crate) fn exercise_writer(
    bitcode: &[u8],
    module: &Module,
    sink: &mut crate::Discard,
) -> Result<usize, Violation> {
    let bytes = match write_module(module) {
        Ok(bytes) => bytes,
        Err(e) => {
            let _ = write!(sink, "{e}");
            return Ok(1);
        }
    };
    if bytes == bitcode {
        return Ok(1);
    }
    let again = Module::parse(&bytes)
        .map_err(|e| Violation(format!("the written module does not read: {e}")))?;
    let twice = write_module(&again)
        .map_err(|e| Violation(format!("the written module does not write again: {e}")))?;
    ensure!(
        twice == bytes,
        "writing the written module again changed it"
    );
    ensure!(
        without_order(again) == without_order(module.clone()),
        "the written module reads back as another model"
    );
    Ok(2)
}

/// The DXIL writer fuzz target's input: raw bitcode (the `BC 0xC0DE` magic
/// put in front when missing), read as a module and written back.
pub fn dxil_write_input(input: &[u8]) -> Result<usize, Violation> {
    let mut sink = crate::Discard::default();
    let data;
    let bitcode = if input.starts_with(b"BC\xc0\xde") {
        input
    } else {
        data = [b"BC\xc0\xde".as_slice(), input].concat();
        &data
    };
    match Module::parse(bitcode) {
        Ok(module) => exercise_writer(bitcode, &module, &mut sink),
        Err(_) => Ok(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_no_module_and_no_violation() {
        assert_eq!(dxil_write_input(&[0xff; 64]), Ok(0));
        assert_eq!(dxil_write_input(b""), Ok(0));
    }
}
