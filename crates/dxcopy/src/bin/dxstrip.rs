//! `dxstrip` binary: see [`dxcopy::cmd::dxstrip`].

fn main() {
    dxcopy::cmd::dxstrip::main()
}
