//! ILDN, the debug name (layouts.md §3.3): `u16 Flags` (reserved, 0),
//! `u16 NameLength` (without the NUL), the UTF-8 name, a NUL, zero padding to
//! 4 bytes. dxc names the companion PDB this way (`<hash>.pdb` by default);
//! fxc's `D3D_BLOB_DEBUG_NAME` has the same layout.

use crate::container::Part;
use crate::cursor::Cursor;
use crate::error::Result;
use crate::fields::Issue;

/// Size of the ILDN header.
pub const DEBUG_NAME_HEADER_SIZE: u64 = 4;

/// A decoded ILDN part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DebugName<'data> {
    /// Reserved flags (must be 0).
    pub flags: u16,
    /// NameLength as stored (bytes, without the NUL).
    pub name_length: u16,
    /// The name: up to the first NUL, or `name_length` bytes when no NUL follows.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::fields::ser::text"))]
    pub name: &'data [u8],
    /// Rule violations: flags ≠ 0, a NUL before `name_length`, no NUL after the name.
    pub issues: Vec<Issue>,
}

impl<'data> DebugName<'data> {
    /// Decodes ILDN data located at absolute offset `base`.
    ///
    /// Fatal: fewer than 4 bytes, or fewer than `NameLength` name bytes.
    pub fn parse_data(data: &'data [u8], base: u64) -> Result<DebugName<'data>> {
        let c = Cursor::new(data, base);
        let flags = c.u16(0, "ILDN flags")?;
        let name_length = c.u16(2, "ILDN name length")?;
        let mut issues = Vec::new();
        if flags != 0 {
            issues.push(Issue::new(
                c.abs(0),
                format!("reserved flags are {flags:#x}, not 0"),
            ));
        }
        let rest = c.rest(DEBUG_NAME_HEADER_SIZE);
        let len = usize::from(name_length);
        let name = match rest.iter().position(|&b| b == 0) {
            Some(nul) if nul == len => &rest[..len],
            Some(nul) if nul < len => {
                issues.push(Issue::new(
                    c.abs(DEBUG_NAME_HEADER_SIZE + nul as u64),
                    format!("name length is {name_length} but the name ends after {nul} bytes"),
                ));
                &rest[..nul]
            }
            _ => {
                let name = c.bytes(DEBUG_NAME_HEADER_SIZE, u64::from(name_length), "ILDN name")?;
                issues.push(Issue::new(
                    c.abs(DEBUG_NAME_HEADER_SIZE + u64::from(name_length)),
                    "name is not NUL-terminated",
                ));
                name
            }
        };
        Ok(DebugName {
            flags,
            name_length,
            name,
            issues,
        })
    }

    /// Decodes an ILDN part.
    pub fn parse(part: &Part<'data>) -> Result<DebugName<'data>> {
        DebugName::parse_data(part.data, part.data_offset()).map_err(|e| e.in_part(part.part_ref()))
    }

    /// The name as text (lossy UTF-8).
    pub fn name_lossy(&self) -> std::borrow::Cow<'data, str> {
        String::from_utf8_lossy(self.name)
    }
}

/// Builds ILDN data the way dxc writes it: header, name, NUL, zero padding to 4.
pub fn build_debug_name(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(crate::fields::align4(name.len() as u64 + 5) as usize);
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&(name.len().min(usize::from(u16::MAX)) as u16).to_le_bytes());
    out.extend_from_slice(name);
    out.push(0);
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ReadErrorKind;

    fn raw(flags: u16, len: u16, tail: &[u8]) -> Vec<u8> {
        let mut v = flags.to_le_bytes().to_vec();
        v.extend_from_slice(&len.to_le_bytes());
        v.extend_from_slice(tail);
        v
    }

    #[test]
    fn table() {
        // (data, expected name, number of issues, issue text fragment)
        let rows: Vec<(Vec<u8>, &[u8], usize, &str)> = vec![
            (build_debug_name(b"abc.pdb"), b"abc.pdb", 0, ""),
            (build_debug_name(b""), b"", 0, ""),
            (raw(1, 3, b"abc\0"), b"abc", 1, "reserved flags"),
            (raw(0, 5, b"abc\0\0\0\0\0"), b"abc", 1, "ends after 3 bytes"),
            (raw(0, 3, b"abcd"), b"abc", 1, "not NUL-terminated"),
            (raw(0, 3, b"abc"), b"abc", 1, "not NUL-terminated"),
            (raw(7, 2, b"a\0\0\0"), b"a", 2, "ends after 1 bytes"),
        ];
        for (data, name, n, text) in rows {
            let d = DebugName::parse_data(&data, 0x100).unwrap();
            assert_eq!(d.name, name, "{data:?}");
            assert_eq!(d.issues.len(), n, "{data:?}: {:?}", d.issues);
            if n > 0 {
                assert!(
                    d.issues.iter().any(|i| i.message.contains(text)),
                    "{:?}",
                    d.issues
                );
            }
        }
    }

    #[test]
    fn padding_and_errors() {
        assert_eq!(build_debug_name(b"abc").len(), 8);
        assert_eq!(build_debug_name(b"abcd").len(), 12);
        assert!(matches!(
            DebugName::parse_data(&[0, 0, 1], 0).unwrap_err().kind,
            ReadErrorKind::Truncated { .. }
        ));
        let e = DebugName::parse_data(&raw(0, 10, b"abc"), 0x20).unwrap_err();
        assert!(matches!(
            e.kind,
            ReadErrorKind::Truncated { needed: 10, .. }
        ));
        assert_eq!(e.offset, 0x24);
    }
}
