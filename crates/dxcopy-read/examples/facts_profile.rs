//! Reads the module facts of every DXIL, ILDB and STAT part of the
//! containers listed in a file (one path a line), in one process: the
//! workload of `dxinfo --json`'s module facts without the rest of the
//! inspection, for a profiler (docs/bench.md, "DXIL listing heap and module
//! facts"):
//!
//! ```text
//! CARGO_PROFILE_PYTHON_DEBUG=line-tables-only CARGO_PROFILE_PYTHON_STRIP=none \
//!     cargo build --profile python -p dxcopy-read --example facts_profile
//! valgrind --tool=callgrind \
//!     --toggle-collect='dxcopy_read::dxil::facts::ModuleFacts::decode' \
//!     target/python/examples/facts_profile FILES.txt
//! ```
//!
//! (The `python` profile is the release one without LTO; the release
//! profile strips the symbols `--toggle-collect` needs.)
//! The parts are found and copied before the first module is read, so only
//! the reads are counted. `ONLY=DXIL` (or `ILDB`, `STAT`) keeps the parts
//! of one name.

use dxcopy_read::dxil::facts::ModuleFacts;
use dxcopy_read::{decode_part, Container, Decoded};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let list = std::env::args()
        .nth(1)
        .ok_or("usage: facts_profile FILES.txt")?;
    let only = std::env::var("ONLY").ok();
    let mut modules: Vec<Vec<u8>> = Vec::new();
    for path in std::fs::read_to_string(list)?.lines() {
        let bytes = std::fs::read(path)?;
        let Ok(container) = Container::parse(&bytes) else {
            continue;
        };
        for part in container.parts() {
            let wanted = only.as_deref().is_none_or(|o| o == part.name.to_string());
            if let Ok(Decoded::Program(p)) = decode_part(&container, &part) {
                if wanted && p.has_bitcode_magic() {
                    modules.push(p.bitcode.to_vec());
                }
            }
        }
    }
    let (mut read, mut failed) = (0usize, 0usize);
    for module in &modules {
        match ModuleFacts::decode(module) {
            Ok(_) => read += 1,
            Err(_) => failed += 1,
        }
    }
    println!("{} modules: {read} read, {failed} failed", modules.len());
    Ok(())
}
