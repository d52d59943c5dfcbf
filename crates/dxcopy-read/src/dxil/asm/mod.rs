//! A DXIL module as dxc's LLVM 3.7 AsmWriter prints it.

pub mod number;
