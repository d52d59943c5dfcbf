//! The ILDN part (layouts.md §3.3, DXContainer.md "ILDN Part"): the name of
//! the companion PDB. `u16 Flags` (0), `u16 NameLength` (without the NUL),
//! the UTF-8 name, a NUL, zero padding to a multiple of 4.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::{ReadError, Result};

/// A decoded ILDN part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DebugName<'data> {
    /// Reserved flags (0 in every known file).
    pub flags: u16,
    /// The name bytes, without the NUL (UTF-8 in practice).
    pub name: &'data [u8],
}

impl<'data> DebugName<'data> {
    /// Decodes ILDN part data at absolute offset `base`: the name must be
    /// `NameLength` bytes followed by a NUL inside the part.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<DebugName<'data>> {
        let c = Cursor::new(data, base);
        let flags = c.u16(0, "ILDN flags")?;
        let len = c.u16(2, "ILDN name length")?;
        let with_nul = c.bytes(4, u64::from(len) + 1, "ILDN name and its NUL")?;
        let (name, nul) = with_nul.split_at(usize::from(len));
        if nul != [0] {
            return Err(c.invalid(
                4 + u64::from(len),
                format!("ILDN name of length {len} is not followed by a NUL"),
            ));
        }
        if let Some(at) = name.iter().position(|&b| b == 0) {
            return Err(ReadError::invalid(
                base + 4 + at as u64,
                format!("ILDN name has a NUL at byte {at}, before its length {len}"),
            ));
        }
        Ok(DebugName { flags, name })
    }

    /// Decodes an ILDN part.
    pub fn parse(part: &Part<'data>) -> Result<DebugName<'data>> {
        DebugName::parse_data(part.data, part.data_offset()).map_err(|e| e.in_part(part.part_ref()))
    }

    /// The name as text (invalid UTF-8 replaced).
    pub fn name_lossy(&self) -> String {
        String::from_utf8_lossy(self.name).into_owned()
    }

    /// The last path component of the name, splitting on both `/` and `\`
    /// (dxc on Windows writes `\`, other tools `/`).
    pub fn file_name(&self) -> &'data [u8] {
        match self.name.iter().rposition(|&b| b == b'/' || b == b'\\') {
            Some(i) => &self.name[i + 1..],
            None => self.name,
        }
    }
}

/// Encodes ILDN part data for `name` as dxc does: flags 0, the length, the
/// name, a NUL and zero padding to a multiple of 4. `None` when the name is
/// longer than 65535 bytes or contains a NUL.
pub fn encode(name: &[u8]) -> Option<Vec<u8>> {
    let len = u16::try_from(name.len()).ok()?;
    if name.contains(&0) {
        return None;
    }
    let mut out = Vec::with_capacity((name.len() + 5).div_ceil(4) * 4);
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(name);
    out.push(0);
    out.resize(out.len().div_ceil(4) * 4, 0);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    #[test]
    fn encode_matches_dxc_padding() {
        let table: &[(&[u8], &[u8])] = &[
            (b"", b"\0\0\0\0\0\0\0\0"),
            (b"a", b"\0\0\x01\0a\0\0\0"),
            (b"abc", b"\0\0\x03\0abc\0"),
            (b"abcd", b"\0\0\x04\0abcd\0\0\0\0"),
        ];
        for (name, want) in table {
            let data = encode(name).unwrap();
            assert_eq!(&data[..], *want, "{name:?}");
            let parsed = DebugName::parse_data(&data, 0).unwrap();
            assert_eq!(parsed.name, *name);
            assert_eq!(parsed.flags, 0);
        }
        assert!(encode(b"a\0b").is_none());
        assert!(encode(&vec![b'x'; 65536]).is_none());
        assert_eq!(encode(&vec![b'x'; 65535]).unwrap().len(), 65540);
    }

    #[test]
    fn parse_errors() {
        let table: &[&[u8]] = &[
            b"",
            b"\0\0",
            b"\0\0\x05\0abc",    // name past the part
            b"\0\0\x03\0abcd",   // no NUL after the name
            b"\0\0\x03\0a\0c\0", // NUL inside the name
            b"\0\0\x03\0abc",    // NUL missing at the very end
        ];
        for data in table {
            let e = DebugName::parse_data(data, 100).unwrap_err();
            assert!(
                matches!(
                    e.kind,
                    ReadErrorKind::Truncated { .. } | ReadErrorKind::Invalid { .. }
                ),
                "{data:?}: {e}"
            );
            assert!(e.offset >= 100);
        }
    }

    #[test]
    fn file_name_splits_both_separators() {
        for (name, want) in [
            (&b"a.pdb"[..], &b"a.pdb"[..]),
            (b"dir/a.pdb", b"a.pdb"),
            (b"C:\\out\\pdb\\a.pdb", b"a.pdb"),
            (b"mixed\\x/y.pdb", b"y.pdb"),
            (b"dir/", b""),
        ] {
            let data = encode(name).unwrap();
            assert_eq!(DebugName::parse_data(&data, 0).unwrap().file_name(), want);
        }
    }
}
