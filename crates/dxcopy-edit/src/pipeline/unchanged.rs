//! Whether an edit changes anything: an output that would reproduce its input
//! byte for byte is not written, so an in-place run that has nothing to do
//! leaves the file alone (same inode, same modification time) and build
//! systems see no change.

use crate::output::Output;
use crate::policy::DigestPolicy;
use dxcopy_read::Container;

/// Whether writing `out` would give exactly the bytes of `container`'s file:
/// the same parts in the same order at the same offsets, all carried over
/// unchanged, the header's FileSize equal to the file's length, and a digest
/// policy (`auto` or `keep`) that writes the stored digest back for
/// unchanged bytes. Decided without hashing anything.
pub fn reproduces_input(out: &Output<'_>, container: &Container<'_>, policy: DigestPolicy) -> bool {
    if !matches!(policy, DigestPolicy::Auto | DigestPolicy::Keep) {
        return false;
    }
    let header = container.header();
    let file_len = container.data().len() as u64;
    if u64::from(header.file_size) != file_len
        || out.file_size() != header.file_size
        || out.parts().len() as u64 != u64::from(header.part_count)
    {
        return false;
    }
    out.parts()
        .iter()
        .zip(out.part_offsets())
        .zip(container.parts())
        .all(|((part, &offset), input)| {
            part.source == Some(input.index)
                && part.name == input.name
                && u64::from(offset) == input.offset
                && part.size() == input.data.len()
        })
}
