//! A small builder for containers: test fixtures, the bundled example and
//! the data-driven integration cases are all made with it.

use crate::error::Result;
use crate::parts::pad_for;
use crate::plan::EditPlan;
use crate::policy::{DigestPolicy, HashPolicy};
use dxcopy_read::hash::{md5_of, ShaderHash};
use dxcopy_read::program::build_program_data;
use dxcopy_read::PartName;
use dxcopy_read::ShaderKind;

/// Builds a container part by part.
///
/// ```
/// use dxcopy_edit::{ContainerBuilder, DigestPolicy};
/// use dxcopy_read::{Container, DigestKind, ShaderKind};
/// let bytes = ContainerBuilder::new()
///     .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), b"BC\xc0\xde\x35\x14\0\0")
///     .hash_of_dxil()
///     .part(b"SFI0", &[0; 8])
///     .digest(DigestPolicy::Retail)
///     .build()?;
/// let c = Container::parse(&bytes)?;
/// assert_eq!(c.digest_kind(), DigestKind::Retail);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ContainerBuilder {
    plan: EditPlan<'static>,
    hash_dxil: bool,
}

impl Default for ContainerBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ContainerBuilder {
    /// An empty version-1.0 container with a zero digest. Parts are packed
    /// back to back exactly as given (fixtures need odd layouts); see
    /// [`aligned`](Self::aligned).
    pub fn new() -> Self {
        let mut plan = EditPlan::new();
        plan.hash_policy = HashPolicy::Keep;
        plan.align_placed_parts = false;
        ContainerBuilder {
            plan,
            hash_dxil: false,
        }
    }

    /// Starts each part on a 4-byte boundary, as dxcopy places new parts
    /// (zero bytes before a part whose predecessor ends unaligned).
    pub fn aligned(mut self) -> Self {
        self.plan.align_placed_parts = true;
        self
    }

    /// Sets the container version.
    pub fn version(mut self, major: u16, minor: u16) -> Self {
        self.plan.version = (major, minor);
        self
    }

    /// Appends a part with exactly these bytes (no padding).
    pub fn part(mut self, name: &[u8; 4], data: &[u8]) -> Self {
        self.plan.add_raw(PartName(*name), data.to_vec());
        self
    }

    /// Appends a part padded by the layout rules (to 4 bytes unless PRIV).
    pub fn padded_part(mut self, name: &[u8; 4], data: &[u8]) -> Self {
        self.plan
            .add_raw(PartName(*name), pad_for(PartName(*name), data.to_vec()));
        self
    }

    /// Appends a program part (DXIL, ILDB or STAT) wrapping `bitcode`.
    pub fn program(
        mut self,
        name: &[u8; 4],
        kind: ShaderKind,
        shader_model: (u8, u8),
        dxil_version: (u8, u8),
        bitcode: &[u8],
    ) -> Self {
        let data = build_program_data(
            shader_model.0,
            shader_model.1,
            kind,
            dxil_version.0,
            dxil_version.1,
            bitcode,
        );
        self.plan.add_raw(PartName(*name), data);
        self
    }

    /// Adds a pixel-shader 6.0 program part (DXIL version 1.0) around
    /// `bitcode`: [`Self::program`] with the values most tests need.
    pub fn pixel_program(self, name: &[u8; 4], bitcode: &[u8]) -> Self {
        self.program(name, ShaderKind::Pixel, (6, 0), (1, 0), bitcode)
    }

    /// Adds a HASH part (flags 0) holding the MD5 of the DXIL bitcode, placed
    /// before the DXIL part, when the container is built.
    pub fn hash_of_dxil(mut self) -> Self {
        self.hash_dxil = true;
        self
    }

    /// How to sign the result.
    pub fn digest(mut self, policy: DigestPolicy) -> Self {
        self.plan.digest_policy = policy;
        self
    }

    /// The container bytes.
    pub fn build(mut self) -> Result<Vec<u8>> {
        if self.hash_dxil {
            self.plan.hash_policy = HashPolicy::Update;
        }
        Ok(self.plan.finish()?.to_vec())
    }

    /// A HASH part's data for `bitcode` with `flags`.
    pub fn hash_part(flags: u32, bitcode: &[u8]) -> Vec<u8> {
        ShaderHash {
            flags,
            digest: md5_of(bitcode),
        }
        .to_bytes()
    }
}
