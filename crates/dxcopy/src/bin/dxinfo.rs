//! `dxinfo` binary: see [`dxcopy::cmd::dxinfo`].

fn main() {
    dxcopy::cmd::dxinfo::main()
}
