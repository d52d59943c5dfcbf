//! The container-changing options of one invocation as data ([`Edits`]),
//! applied to a container in llvm-objcopy's order whatever order they were
//! given in: keep marks, `-j` (which overrides `-R`) or `-R`, strip classes,
//! updates, adds, set-private. The data of added and updated parts comes from
//! files (the command line) or from memory (library and Python callers), so
//! both produce the same plan and the same bytes.

use crate::error::{EditError, Result};
use crate::matcher::{MatchStyle, NameMatcher};
use crate::plan::EditPlan;
use crate::policy::{DigestPolicy, HashPolicy};
use crate::strip::StripClass;
use dxcopy_read::{Container, PartName};
use std::path::PathBuf;

/// Where the bytes of an added, updated or private part come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartSource {
    /// The contents of a file, read when the plan is made.
    File(PathBuf),
    /// Bytes in memory.
    Bytes(Vec<u8>),
}

impl PartSource {
    /// The bytes (reads the file).
    pub fn load(&self) -> Result<Vec<u8>> {
        match self {
            PartSource::File(path) => std::fs::read(path).map_err(|e| EditError::io(path, e)),
            PartSource::Bytes(bytes) => Ok(bytes.clone()),
        }
    }
}

/// Parses a four-byte part name given by the user.
pub fn part_name(s: &str) -> Result<PartName> {
    PartName::from_str_exact(s).ok_or_else(|| EditError::BadName(s.to_string()))
}

/// The edits of one invocation, in any order; [`plan`](Self::plan) applies
/// them in the fixed order of the module docs.
#[derive(Debug, Clone, Default)]
pub struct Edits {
    /// How patterns are matched (glob by default).
    pub match_style: MatchStyle,
    /// `-R` patterns.
    pub remove: Vec<String>,
    /// `-j` patterns (override `-R`).
    pub only: Vec<String>,
    /// `--keep-section` patterns.
    pub keep: Vec<String>,
    /// Strip classes.
    pub strip: Vec<StripClass>,
    /// `--update-section`: part name and new data.
    pub update: Vec<(String, PartSource)>,
    /// `--add-section`: part name and data (an error if the part exists).
    pub add: Vec<(String, PartSource)>,
    /// `--set-private`.
    pub set_private: Option<PartSource>,
    /// `--digest`.
    pub digest: DigestPolicy,
    /// `--hash`.
    pub hash: HashPolicy,
}

impl Edits {
    /// Whether any edit changes the container (a policy other than `auto` counts).
    pub fn modifies(&self) -> bool {
        !(self.remove.is_empty()
            && self.only.is_empty()
            && self.add.is_empty()
            && self.update.is_empty()
            && self.strip.is_empty()
            && self.set_private.is_none()
            && self.digest == DigestPolicy::Auto
            && self.hash == HashPolicy::Auto)
    }

    fn matcher(&self, patterns: &[String]) -> Result<NameMatcher> {
        NameMatcher::from_patterns(patterns, self.match_style)
    }

    /// The edit plan for `container`. Files named by the edits are read here,
    /// each when its step comes, so the first failing step is the one reported.
    pub fn plan<'data>(&self, container: &Container<'data>) -> Result<EditPlan<'data>> {
        let mut plan = EditPlan::from_container(container);
        plan.digest_policy = self.digest;
        plan.hash_policy = self.hash;
        plan.keep(&self.matcher(&self.keep)?);
        if !self.only.is_empty() {
            plan.only(&self.matcher(&self.only)?);
        } else if !self.remove.is_empty() {
            plan.remove(&self.matcher(&self.remove)?);
        }
        for class in &self.strip {
            plan.strip(*class);
        }
        for (name, source) in &self.update {
            plan.update(part_name(name)?, source.load()?)?;
        }
        for (name, source) in &self.add {
            let name = part_name(name)?;
            if plan.find(name).is_some() {
                return Err(EditError::AlreadyExists(name));
            }
            plan.add(name, source.load()?)?;
        }
        if let Some(source) = &self.set_private {
            plan.set_private(source.load()?);
        }
        Ok(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::ContainerBuilder;
    use dxcopy_read::program::ShaderKind;

    fn sample() -> Vec<u8> {
        ContainerBuilder::new()
            .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xde")
            .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xdedbg")
            .part(b"STAT", b"stat")
            .part(b"RTS0", b"rts0")
            .build()
            .unwrap()
    }

    fn names(edits: &Edits, input: &[u8]) -> Result<Vec<String>> {
        let container = Container::parse(input).unwrap();
        let plan = edits.plan(&container)?;
        Ok(plan.parts().iter().map(|p| p.name.to_string()).collect())
    }

    #[test]
    fn order_of_steps_is_fixed() {
        let input = sample();
        let only_beats_remove = Edits {
            remove: vec!["DXIL".into()],
            only: vec!["DXIL".into(), "STAT".into()],
            ..Edits::default()
        };
        assert_eq!(names(&only_beats_remove, &input).unwrap(), ["DXIL", "STAT"]);
        let keep_beats_strip = Edits {
            keep: vec!["ILDB".into()],
            strip: vec![StripClass::Debug, StripClass::Reflect],
            ..Edits::default()
        };
        assert_eq!(
            names(&keep_beats_strip, &input).unwrap(),
            ["DXIL", "ILDB", "RTS0"]
        );
        // Adds come after removals: a removed name can be added again.
        let remove_then_add = Edits {
            remove: vec!["STAT".into()],
            add: vec![("STAT".into(), PartSource::Bytes(b"new".to_vec()))],
            set_private: Some(PartSource::Bytes(b"p".to_vec())),
            ..Edits::default()
        };
        let container = Container::parse(&input).unwrap();
        let plan = remove_then_add.plan(&container).unwrap();
        let stat = plan.find(PartName::STAT).unwrap();
        assert_eq!(stat.bytes(), b"new\0");
        assert_eq!(plan.parts().last().unwrap().name, PartName::PRIV);
        assert_eq!(plan.parts().last().unwrap().bytes(), b"p");
    }

    #[test]
    fn errors_name_the_step() {
        let input = sample();
        let cases: Vec<(Edits, &str)> = vec![
            (
                Edits {
                    add: vec![("DXIL".into(), PartSource::Bytes(vec![1]))],
                    ..Edits::default()
                },
                "part 'DXIL' already exists",
            ),
            (
                Edits {
                    update: vec![("ABCDE".into(), PartSource::Bytes(vec![1]))],
                    ..Edits::default()
                },
                "part name 'ABCDE' is not exactly 4 bytes",
            ),
            (
                Edits {
                    set_private: Some(PartSource::File("/nonexistent/x".into())),
                    ..Edits::default()
                },
                "'/nonexistent/x'",
            ),
            (
                Edits {
                    match_style: MatchStyle::Regex,
                    remove: vec!["(".into()],
                    ..Edits::default()
                },
                "invalid pattern '('",
            ),
        ];
        for (edits, want) in cases {
            let e = names(&edits, &input).unwrap_err().to_string();
            assert!(e.contains(want), "{e} lacks {want}");
        }
        assert!(!Edits::default().modifies());
        assert!(Edits {
            hash: HashPolicy::Update,
            ..Edits::default()
        }
        .modifies());
    }
}
