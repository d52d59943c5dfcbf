//! DXBC shader listings as Microsoft's D3D shader disassembler writes them.
//!
//! [`header`] writes the sections that precede the SM4/SM5 program: resource
//! definitions, signatures and the Level9 (DX9) part.

pub mod header;
