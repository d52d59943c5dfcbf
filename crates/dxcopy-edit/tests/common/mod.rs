//! Shared by the corpus tests: where the shared corpus is.

use std::path::PathBuf;

/// `$DXCOPY_SHARED/corpus`, else `CARGO_MANIFEST_DIR/../../../shared/corpus`;
/// `None` (after saying so) when it does not exist.
pub fn corpus() -> Option<PathBuf> {
    let shared = std::env::var_os("DXCOPY_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let corpus = shared.join("corpus");
    if corpus.is_dir() {
        Some(corpus)
    } else {
        println!(
            "skipping: corpus not found at {} (set DXCOPY_SHARED)",
            corpus.display()
        );
        None
    }
}
