//! The invariants of a written container (README "Libraries", docs/format/container.md §1–§4).

use dxcopy_edit::{EditPlan, Output};
use dxcopy_read::{digest, Container, DigestKind, PartName};
use std::fmt;

/// A broken invariant: the library produced something it must not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation(pub String);

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Violation {}

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(Violation(format!($($msg)+)));
        }
    };
}
pub(crate) use ensure;

/// Checks `bytes`, the serialisation of `output` made from `input`:
///
/// - it re-parses, FileSize is the real length, PartCount and every offset are
///   the ones the layout computed, and the parts are back to back;
/// - the parts are the plan's parts, byte for byte; a part taken unchanged
///   from the input is byte-identical to it;
/// - at most one PRIV, and it is last; new non-PRIV parts are padded to 4
///   (HASH excepted: a recomputed HASH keeps the input part's size);
/// - the digest is of the kind the output announced, and a computed digest verifies;
/// - both writers (`write_to`, `write_to_seekable`) give the same bytes;
/// - rewriting the output with a no-op plan reproduces it exactly.
pub fn verify_output(
    input: Option<&Container<'_>>,
    output: &Output<'_>,
    bytes: &[u8],
) -> Result<(), Violation> {
    let c = Container::parse(bytes)
        .map_err(|e| Violation(format!("written output does not re-parse: {e}")))?;
    let h = c.header();
    ensure!(
        u64::from(h.file_size) == bytes.len() as u64 && h.file_size == output.file_size(),
        "FileSize {:#x} but {:#x} bytes written (layout said {:#x})",
        h.file_size,
        bytes.len(),
        output.file_size()
    );
    ensure!(
        h.part_count as usize == output.parts().len(),
        "PartCount {} but the plan has {} parts",
        h.part_count,
        output.parts().len()
    );
    ensure!(c.is_contiguous(), "output parts are not back to back");
    let mut privs = 0;
    for (i, (got, want)) in c.parts().zip(output.parts()).enumerate() {
        ensure!(
            got.offset == u64::from(output.part_offsets()[i]),
            "part {i} at {:#x}, layout said {:#x}",
            got.offset,
            output.part_offsets()[i]
        );
        ensure!(
            got.name == want.name && got.data == want.bytes(),
            "part {i} '{}' differs from the plan's part '{}'",
            got.name,
            want.name
        );
        if let (Some(src), Some(input)) = (want.source, input) {
            let original = input.part(src);
            ensure!(
                original.is_some_and(|o| o.data == got.data && o.name == got.name),
                "part {i} '{}' claims to be input part {src} unchanged but is not byte-identical",
                got.name
            );
        }
        if got.name == PartName::PRIV {
            privs += 1;
            ensure!(
                i + 1 == output.parts().len(),
                "PRIV is part {i} of {}, not last",
                output.parts().len()
            );
        } else if want.source.is_none() && got.name != PartName::HASH {
            ensure!(
                got.data.len() % 4 == 0,
                "new part {i} '{}' of {} bytes is not padded to 4",
                got.name,
                got.data.len()
            );
        }
    }
    ensure!(privs <= 1, "{privs} PRIV parts written");
    let kind = digest::classify(bytes);
    let announced = output.digest_kind();
    if announced != DigestKind::Invalid {
        ensure!(
            kind == announced,
            "output announced a {} digest but carries a {} one",
            announced.as_str(),
            kind.as_str()
        );
    }
    ensure!(
        bytes[4..20] == output.digest(),
        "stored digest differs from Output::digest()"
    );
    let mut streamed = Vec::new();
    output
        .write_to(&mut streamed)
        .map_err(|e| Violation(format!("write_to failed on memory: {e}")))?;
    ensure!(
        streamed == bytes,
        "write_to and write_to_seekable give different bytes"
    );
    let again = EditPlan::from_container(&c)
        .finish()
        .map_err(|e| Violation(format!("a no-op plan over the output fails: {e}")))?
        .to_vec();
    ensure!(
        again == bytes,
        "a no-op rewrite of the output is not byte-identical"
    );
    Ok(())
}
