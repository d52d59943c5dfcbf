//! The text view of fxc STAT.

use super::*;

pub(super) fn write(out: &mut Out<'_>, s: &crate::stat::Statistics) -> io::Result<()> {
    for (name, value) in &s.counters {
        out.field(name, value)?;
    }
    Ok(())
}
