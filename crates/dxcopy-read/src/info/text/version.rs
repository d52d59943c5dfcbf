//! The text view of VERS.

use super::*;

pub(super) fn write(out: &mut Out<'_>, v: &crate::version::CompilerVersion<'_>) -> io::Result<()> {
    out.field("Version", format_args!("{}.{}", v.major, v.minor))?;
    out.field("Flags", v.flags)?;
    out.field("CommitCount", v.commit_count)?;
    out.field("CommitSha", quoted(v.commit_sha))?;
    out.field("VersionString", quoted(v.version_string))?;
    Ok(())
}
