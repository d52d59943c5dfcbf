//! One module per command: its clap options (`Opts`) and `main`. The binaries
//! in src/bin are one-line wrappers, so xtask can render man pages and
//! completions from the same definitions.

pub mod dxasm;
pub mod dxcopy;
pub mod dxinfo;
pub mod dxstrip;
