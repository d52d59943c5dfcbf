//! DXIL modules: dxc's operation table and dxc's listing of a module.

pub mod asm;
pub mod ops;
