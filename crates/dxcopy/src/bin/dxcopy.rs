//! `dxcopy` binary: see [`dxcopy::cmd::dxcopy`].

fn main() {
    dxcopy::cmd::dxcopy::main()
}
