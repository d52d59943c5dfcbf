//! Running edits on files: the options of a run ([`config`]), batches
//! ([`batch`], [`parallel`]), C headers
//! as inputs and outputs ([`header_run`]), containers on disk compared and
//! totalled ([`tree`]) and the
//! llvm-dis runner of `dxinfo --disasm` ([`llvm_dis`]).

pub mod batch;
pub mod config;
#[cfg(test)]
mod config_tests;
pub mod header_run;
pub mod llvm_dis;
pub(crate) mod parallel;
pub mod tree;
