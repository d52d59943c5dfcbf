//! Builds the bundled sample container from LLVM IR with the project's own builder.

use anyhow::{bail, Context, Result};
use dxcopy_edit::{ContainerBuilder, DigestPolicy};
use dxcopy_read::ShaderKind;
use std::process::Command;

const LLVM_AS: &str = "/usr/lib/llvm-22/bin/llvm-as";

/// Writes examples/sample.dxil: SFI0, ILDN, HASH, DXIL, ILDB, STAT, PRIV, retail-signed.
pub fn generate() -> Result<()> {
    let dir = crate::root().join("examples");
    let bc = std::env::temp_dir().join(format!("dxcopy-sample-{}.bc", std::process::id()));
    // Relative path: the bitcode records it as source_filename.
    let status = Command::new(LLVM_AS)
        .current_dir(&dir)
        .arg("sample.ll")
        .arg("-o")
        .arg(&bc)
        .status()
        .with_context(|| format!("running {LLVM_AS} (apt-get install llvm-22)"))?;
    if !status.success() {
        bail!("llvm-as failed");
    }
    let bitcode = std::fs::read(&bc)?;
    std::fs::remove_file(&bc)?;
    let bytes = sample(&bitcode)?;
    std::fs::write(dir.join("sample.dxil"), &bytes)?;
    println!("wrote examples/sample.dxil ({} bytes)", bytes.len());
    Ok(())
}

/// The sample container around `bitcode`.
pub fn sample(bitcode: &[u8]) -> Result<Vec<u8>> {
    let mut ildn = Vec::new();
    let name = b"sample.pdb";
    ildn.extend_from_slice(&0u16.to_le_bytes());
    ildn.extend_from_slice(&(name.len() as u16).to_le_bytes());
    ildn.extend_from_slice(name);
    ildn.push(0);
    Ok(ContainerBuilder::new()
        .part(b"SFI0", &[0; 8])
        .padded_part(b"ILDN", &ildn)
        .hash_of_dxil()
        .program(b"DXIL", ShaderKind::Pixel, (6, 0), (1, 0), bitcode)
        .program(b"ILDB", ShaderKind::Pixel, (6, 0), (1, 0), bitcode)
        .program(b"STAT", ShaderKind::Pixel, (6, 0), (1, 0), bitcode)
        .part(b"PRIV", b"dxcopy sample private data")
        .digest(DigestPolicy::Retail)
        .build()?)
}
