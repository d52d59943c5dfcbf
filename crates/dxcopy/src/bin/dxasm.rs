//! `dxasm` binary: see [`dxcopy::cmd::dxasm`].

fn main() {
    dxcopy::cmd::dxasm::main()
}
