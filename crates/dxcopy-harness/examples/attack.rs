//! Writes one of the hostile modules of `dxcopy_harness::attacks` as a
//! container: `cargo run -p dxcopy-harness --example attack -- NAME SCALE OUT`
//! (`NAME` one of `attacks::ATTACKS`; without arguments, lists them).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let attacks = dxcopy_harness::attacks::ATTACKS;
    let [name, scale, out] = args.as_slice() else {
        for a in attacks {
            println!("{} (scales {:?})", a.name, a.scales);
        }
        return;
    };
    let Some(attack) = attacks.iter().find(|a| a.name == name) else {
        eprintln!("no attack named {name}");
        std::process::exit(2);
    };
    let Ok(scale) = scale.parse::<usize>() else {
        eprintln!("scale {scale} is not a number");
        std::process::exit(2);
    };
    let bytes = dxcopy_harness::attacks::container(&(attack.build)(scale));
    if let Err(e) = std::fs::write(out, &bytes) {
        eprintln!("{out}: {e}");
        std::process::exit(1);
    }
    println!("{out}: {} bytes", bytes.len());
}
