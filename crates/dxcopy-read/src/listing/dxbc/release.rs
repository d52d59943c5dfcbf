//! The fxc releases whose listings differ in layout, and the rules that
//! tell them apart — one table, read by the one printer
//! (docs/format/sm4-listing.md, "Releases").
//!
//! A shipped shader keeps its compiler's name in RDEF (the creator string,
//! e.g. `Microsoft (R) HLSL Shader Compiler 6.3.9600.16384`), so the layout
//! of the release that wrote it is known; without RDEF the current one is
//! used.

use crate::container::Container;
use crate::name::PartName;
use crate::rdef::ResourceDefinitions;

/// An fxc (d3dcompiler) release with a listing layout of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FxcRelease {
    /// June 2010 DirectX SDK, d3dcompiler_43 (`9.29.952.3111`).
    V9_29,
    /// Windows 8 SDK (`9.30.9200.16384`).
    V9_30,
    /// Windows 8.1 SDK (`6.3.9600.16384`).
    V6_3,
    /// Early Windows 10 SDKs (`10.0.10011.*`).
    V10_0_10011,
    /// Windows 10 and 11 SDKs since (`10.1`).
    V10_1,
}

/// How a release lays a listing out, where releases differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Lines between the banner's `//` and the first section (9.29 writes
    /// the compile command line there, which a container does not keep).
    pub preamble: &'static str,
    /// `// Resource Bindings:` as `Dim Slot Elements` (before 10.0) rather
    /// than `Dim      HLSL Bind  Count`.
    pub slot_elements: bool,
    /// Width of the signature tables' `Format` column.
    pub signature_format_width: usize,
    /// `dcl_constantbuffer cb0[4]` (before 10.0) rather than `CB0[4]`.
    pub lowercase_constant_buffer: bool,
    /// `dcl_input_ps_sgv constant v2.x, …`: the interpolation mode of a
    /// system-generated pixel-shader input (10.0 on).
    pub sgv_interpolation: bool,
}

/// `(release, names, layout)`: the table.
const RELEASES: &[(FxcRelease, &str, Layout)] = &[
    (
        FxcRelease::V9_29,
        "9.29",
        Layout {
            preamble: "//\n//\n",
            slot_elements: true,
            signature_format_width: 6,
            lowercase_constant_buffer: true,
            sgv_interpolation: false,
        },
    ),
    (
        FxcRelease::V9_30,
        "9.30",
        Layout {
            preamble: "///\n",
            slot_elements: true,
            signature_format_width: 7,
            lowercase_constant_buffer: true,
            sgv_interpolation: false,
        },
    ),
    (
        FxcRelease::V6_3,
        "6.3",
        Layout {
            preamble: "",
            slot_elements: true,
            signature_format_width: 7,
            lowercase_constant_buffer: true,
            sgv_interpolation: false,
        },
    ),
    (
        FxcRelease::V10_0_10011,
        "10.0.10011",
        Layout {
            preamble: "",
            slot_elements: false,
            signature_format_width: 7,
            lowercase_constant_buffer: false,
            sgv_interpolation: true,
        },
    ),
    (
        FxcRelease::V10_1,
        "10.1",
        Layout {
            preamble: "",
            slot_elements: false,
            signature_format_width: 7,
            lowercase_constant_buffer: false,
            sgv_interpolation: true,
        },
    ),
];

impl FxcRelease {
    /// Every release, oldest first.
    pub const ALL: [FxcRelease; 5] = [
        FxcRelease::V9_29,
        FxcRelease::V9_30,
        FxcRelease::V6_3,
        FxcRelease::V10_0_10011,
        FxcRelease::V10_1,
    ];

    fn row(self) -> &'static (FxcRelease, &'static str, Layout) {
        RELEASES
            .iter()
            .find(|(release, _, _)| *release == self)
            .unwrap_or(&RELEASES[RELEASES.len() - 1])
    }

    /// The release's short name (`9.29`, `6.3`, `10.1`, …), as
    /// `--disasm-format` takes it.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// The release a short name or a full version names: `6.3` or
    /// `6.3.9600.16384`, `10.0.10011` or `10.0.10011.16384`; `None` for
    /// anything else.
    pub fn parse(text: &str) -> Option<FxcRelease> {
        RELEASES
            .iter()
            .find(|(_, name, _)| text == *name || text.starts_with(&format!("{name}.")))
            .map(|(release, _, _)| *release)
    }

    /// The release an RDEF creator string names (`Microsoft (R) HLSL Shader
    /// Compiler 9.29.952.3111`): its last word parsed as a version; `None`
    /// for other compilers and releases this table does not know.
    pub fn from_creator(creator: &[u8]) -> Option<FxcRelease> {
        let text = std::str::from_utf8(creator).ok()?;
        let version = text.trim_end_matches('\0').rsplit(' ').next()?;
        FxcRelease::parse(version)
    }

    /// The release that wrote `container`, from its RDEF creator; `None`
    /// without RDEF or when the creator is not a known fxc.
    pub fn of_container(container: &Container<'_>) -> Option<FxcRelease> {
        let part = container.find(PartName::RDEF)?;
        let defs = ResourceDefinitions::parse(&part).ok()?;
        FxcRelease::from_creator(defs.creator)
    }

    pub(crate) fn layout(self) -> &'static Layout {
        &self.row().2
    }
}

impl std::fmt::Display for FxcRelease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_release_has_one_row_and_a_name_that_parses_back() {
        for release in FxcRelease::ALL {
            let rows = RELEASES.iter().filter(|(r, _, _)| *r == release).count();
            assert_eq!(rows, 1, "{release:?}");
            assert_eq!(FxcRelease::parse(release.name()), Some(release));
        }
    }

    #[test]
    fn creators_name_their_release() {
        use FxcRelease::*;
        for (version, release) in [
            ("9.29.952.3111", Some(V9_29)),
            ("9.30.9200.16384", Some(V9_30)),
            ("6.3.9600.16384", Some(V6_3)),
            ("6.3.9600.16384\0", Some(V6_3)),
            ("10.0.10011.0", Some(V10_0_10011)),
            ("10.0.10011.16384", Some(V10_0_10011)),
            ("10.1", Some(V10_1)),
            ("9.26.952.2844", None),
        ] {
            let creator = format!("Microsoft (R) HLSL Shader Compiler {version}");
            assert_eq!(
                FxcRelease::from_creator(creator.as_bytes()),
                release,
                "{creator}"
            );
        }
        assert_eq!(FxcRelease::from_creator(b"Wine d3dcompiler"), None);
        assert_eq!(FxcRelease::from_creator(b""), None);
        assert_eq!(FxcRelease::parse("10.10"), None);
        assert_eq!(FxcRelease::parse("6.30"), None);
    }
}
