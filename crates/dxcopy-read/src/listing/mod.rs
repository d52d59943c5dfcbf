//! Listings: the text a compiler's disassembler prints for a container.
//! [`dxbc`] is fxc's listing of a DXBC container (SM4/5 programs, level-9
//! shaders, the declaration header, debug notes); [`dxil`] is dxc's listing
//! of a DXIL container (the comment header and the module as LLVM IR,
//! printed by [`dxil::ir`]). Both print the code models below them
//! ([`crate::sm4`], [`crate::dxil`]); neither decodes bytes itself.
//! [`markup`] colours either listing for a terminal or as an HTML page.

pub mod dxbc;
pub mod dxil;
pub mod markup;
