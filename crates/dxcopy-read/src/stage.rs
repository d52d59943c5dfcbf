//! Shader stages: one table, [`ShaderKind`] (`DXIL::ShaderKind`,
//! docs/format/enums.md §1), with each stage's name and profile prefix.
//!
//! Other parts name a stage with codes of their own, for a part of the table
//! or in another width. Each is a view that maps its code onto this table
//! and keeps the raw value, so an unnamed code still prints as `Unknown(N)`:
//!
//! | view | stored in | codes |
//! | --- | --- | --- |
//! | [`ProgramType`] | SHDR/SHEX version token, bits 16–31 | 0 pixel … 5 compute (the first six rows) |
//! | [`TargetType`] | RDEF target, bits 16–31 | `0xFFFF` ps, `0xFFFE` vs, `"GS"`, `"HS"`, `"DS"`, `"CS"` |
//! | [`FunctionKind`] | RDAT function records, `u32` | the whole table, and 16 = `Invalid` |

use crate::enums::open_enum;

open_enum! {
    /// Shader stage of a program header / PSV0 (docs/format/enums.md §1).
    pub enum ShaderKind: u16 {
        Pixel = 0 => "Pixel",
        Vertex = 1 => "Vertex",
        Geometry = 2 => "Geometry",
        Hull = 3 => "Hull",
        Domain = 4 => "Domain",
        Compute = 5 => "Compute",
        Library = 6 => "Library",
        RayGeneration = 7 => "RayGeneration",
        Intersection = 8 => "Intersection",
        AnyHit = 9 => "AnyHit",
        ClosestHit = 10 => "ClosestHit",
        Miss = 11 => "Miss",
        Callable = 12 => "Callable",
        Mesh = 13 => "Mesh",
        Amplification = 14 => "Amplification",
        Node = 15 => "Node",
    }
}

impl ShaderKind {
    /// The profile prefix used by compilers (`ps`, `vs`, `lib`, …; `??` for
    /// an unknown kind).
    pub fn profile_prefix(self) -> &'static str {
        use ShaderKind::*;
        match self {
            Pixel => "ps",
            Vertex => "vs",
            Geometry => "gs",
            Hull => "hs",
            Domain => "ds",
            Compute => "cs",
            Mesh => "ms",
            Amplification => "as",
            Library | RayGeneration | Intersection | AnyHit | ClosestHit | Miss | Callable
            | Node => "lib",
            Unknown(_) => "??",
        }
    }

    /// The named stage with code `raw`, or `None` (codes wider than the
    /// table's `u16` included).
    pub fn known(raw: impl TryInto<u16>) -> Option<ShaderKind> {
        let kind = ShaderKind::from_raw(raw.try_into().ok()?);
        kind.known_name().map(|_| kind)
    }
}

/// Defines a view of [`ShaderKind`]: a newtype over the raw code as stored,
/// with `stage` mapping it onto the table. Its name, `Display` and JSON are
/// the stage's (`Unknown(N)` with the raw code when it names none), and a
/// code may carry a name of its own that no stage has (`extra`).
macro_rules! stage_code {
    (
        $(#[$meta:meta])*
        pub struct $name:ident($repr:ty);
        stage = |$raw:ident| $stage:expr;
        $( extra $value:literal => $text:literal; )*
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name($repr);

        $crate::record::field_as_integer!($name, $repr, $name, |v| v.0);

        impl $name {
            /// The view of a raw code as stored.
            pub fn from_raw(raw: $repr) -> Self {
                $name(raw)
            }

            /// The raw code as stored in the file.
            pub fn raw(self) -> $repr {
                self.0
            }

            /// The stage the code names, or `None`.
            pub fn stage(self) -> Option<ShaderKind> {
                let $raw = self.0;
                $stage
            }

            /// The code's name, or `None` when it has none.
            pub fn known_name(self) -> Option<&'static str> {
                match self.0 {
                    $( $value => Some($text), )*
                    _ => self.stage().and_then(ShaderKind::known_name),
                }
            }

            /// The stage's profile prefix (`ps`, `vs`, …; `??` without one).
            pub fn profile_prefix(self) -> &'static str {
                self.stage().map_or("??", ShaderKind::profile_prefix)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.known_name() {
                    Some(text) => f.write_str(text),
                    None => write!(f, "Unknown({})", self.0),
                }
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }
    };
}

stage_code! {
    /// SM4/5 program type (bits 16–31 of an SHDR/SHEX version token,
    /// `D3D10_SB_TOKENIZED_PROGRAM_TYPE`): codes 0–5, the first six stages.
    pub struct ProgramType(u16);
    stage = |raw| (raw <= 5).then(|| ShaderKind::from_raw(raw));
}

stage_code! {
    /// RDEF program type (high half of the target version): `0xFFFF` pixel,
    /// `0xFFFE` vertex, and `"GS"`, `"HS"`, `"DS"`, `"CS"` as two characters.
    pub struct TargetType(u16);
    stage = |raw| match raw {
        0xffff => Some(ShaderKind::Pixel),
        0xfffe => Some(ShaderKind::Vertex),
        0x4753 => Some(ShaderKind::Geometry),
        0x4853 => Some(ShaderKind::Hull),
        0x4453 => Some(ShaderKind::Domain),
        0x4353 => Some(ShaderKind::Compute),
        _ => None,
    };
}

stage_code! {
    /// `DXIL::ShaderKind` as RDAT stores it: the stage table in a `u32`, and
    /// 16 = `Invalid`.
    pub struct FunctionKind(u32);
    stage = |raw| ShaderKind::known(raw);
    extra 16 => "Invalid";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_name_their_codes_as_the_table_does() {
        // (view's text, profile prefix) per code.
        let program_types: Vec<_> = (0..8u16)
            .map(|raw| {
                let t = ProgramType::from_raw(raw);
                (t.to_string(), t.profile_prefix())
            })
            .collect();
        assert_eq!(
            program_types,
            [
                ("Pixel".to_string(), "ps"),
                ("Vertex".into(), "vs"),
                ("Geometry".into(), "gs"),
                ("Hull".into(), "hs"),
                ("Domain".into(), "ds"),
                ("Compute".into(), "cs"),
                ("Unknown(6)".into(), "??"),
                ("Unknown(7)".into(), "??"),
            ]
        );
        let targets = [0xffff, 0xfffe, 0x4753, 0x4853, 0x4453, 0x4353, 0x4d53, 0];
        let targets: Vec<_> = targets
            .iter()
            .map(|&raw| TargetType::from_raw(raw).to_string())
            .collect();
        assert_eq!(
            targets,
            [
                "Pixel",
                "Vertex",
                "Geometry",
                "Hull",
                "Domain",
                "Compute",
                "Unknown(19795)",
                "Unknown(0)"
            ]
        );
        assert_eq!(TargetType::from_raw(0x4353).profile_prefix(), "cs");
        for raw in 0..=15u32 {
            let kind = FunctionKind::from_raw(raw);
            assert_eq!(kind.stage(), Some(ShaderKind::from_raw(raw as u16)));
            assert_eq!(
                kind.to_string(),
                ShaderKind::from_raw(raw as u16).to_string()
            );
        }
        let invalid = FunctionKind::from_raw(16);
        assert_eq!(
            (invalid.to_string(), invalid.stage()),
            ("Invalid".into(), None)
        );
        assert_eq!(FunctionKind::from_raw(17).to_string(), "Unknown(17)");
        assert_eq!(
            FunctionKind::from_raw(0x1_0000).to_string(),
            "Unknown(65536)"
        );
        assert_eq!(FunctionKind::from_raw(0x1_0000).stage(), None);
        assert_eq!(ShaderKind::from_raw(16).to_string(), "Unknown(16)");
        assert_eq!(ShaderKind::known(7u32), Some(ShaderKind::RayGeneration));
        assert_eq!(ShaderKind::known(16u32), None);
    }
}
