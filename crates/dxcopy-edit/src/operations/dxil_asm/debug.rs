//! Specialized debug-info nodes (`!DILocation(line: 3, scope: !7)`, …).

use super::parse::Parser;
use super::ParseError;
use dxcopy_read::dxil::DebugNode;

pub(super) fn parse_debug_node(
    p: &mut Parser<'_>,
    kind: &[u8],
    _distinct: bool,
    line: u32,
    col: u32,
) -> Result<DebugNode, ParseError> {
    p.err_at(
        line,
        col,
        format!(
            "debug-info node '!{}' cannot be assembled",
            String::from_utf8_lossy(kind)
        ),
    )
}
