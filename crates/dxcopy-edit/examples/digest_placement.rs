//! Where to compute the digest of a large output: measures the three ways
//! open to the writer on one container file.
//!
//! - in pass: one buffered pass that hashes each run and writes it from the
//!   mapping (`Output::write_to_seekable`);
//! - beside: the kernel copies file to file in one thread while another
//!   hashes the mapping (`Output::write_file_from`, what `dxcopy` does);
//! - after: the kernel copy, then a hash of the mapping, one after the other.
//!
//! ```text
//! cargo run --release -p dxcopy-edit --example digest_placement -- big.dxbc [--strip-debug] [ROUNDS]
//! ```
//!
//! The digest policy is `retail`, so the output is always hashed; rounds take
//! turns so noise hits the three alike. Prints the median and minimum of each.

use dxcopy_edit::{DigestPolicy, EditPlan, Output, StripClass};
use dxcopy_read::{digest, Container, MappedFile};
use std::error::Error;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(input) = args
        .iter()
        .find(|a| !a.starts_with("--") && a.parse::<usize>().is_err())
    else {
        return Err("usage: digest_placement FILE [--strip-debug] [ROUNDS]".into());
    };
    let strip = args.iter().any(|a| a == "--strip-debug");
    let rounds: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(7);
    let mapped = MappedFile::open(Path::new(input))?;
    let container = Container::parse(&mapped)?;
    let out_path =
        std::env::temp_dir().join(format!("digest-placement-{}.dxbc", std::process::id()));
    let finish = |policy| -> Result<Output<'_>, Box<dyn Error>> {
        let mut plan = EditPlan::from_container(&container);
        plan.digest_policy = policy;
        if strip {
            plan.strip(StripClass::Debug);
        }
        Ok(plan.finish()?)
    };
    type Way<'a> = (
        &'a str,
        Box<dyn Fn(&mut File) -> std::io::Result<[u8; 16]> + 'a>,
    );
    let signed = finish(DigestPolicy::Retail)?;
    let unsigned = finish(DigestPolicy::Zero)?;
    let ways: Vec<Way<'_>> = vec![
        ("in pass", Box::new(|f| signed.write_to_seekable(f))),
        ("beside", Box::new(|f| signed.write_file_from(&mapped, f))),
        (
            "after",
            Box::new(|f| {
                unsigned.write_file_from(&mapped, f)?;
                let copied = MappedFile::open(&out_path)?;
                Ok(digest::retail(&copied[20..]))
            }),
        ),
    ];
    let mut times = vec![Vec::new(); ways.len()];
    let mut digests = vec![[0u8; 16]; ways.len()];
    for round in 0..=rounds {
        for (i, (_, way)) in ways.iter().enumerate() {
            let _ = std::fs::remove_file(&out_path);
            let start = Instant::now();
            let mut f = File::create(&out_path)?;
            digests[i] = way(&mut f)?;
            drop(f);
            if round > 0 {
                times[i].push(start.elapsed());
            }
        }
    }
    let _ = std::fs::remove_file(&out_path);
    if digests.iter().any(|d| *d != digests[0]) {
        return Err("the three ways disagree on the digest".into());
    }
    println!(
        "{} ({} bytes out), {} rounds:",
        PathBuf::from(input).display(),
        signed.file_size(),
        rounds
    );
    for ((name, _), t) in ways.iter().zip(&mut times) {
        t.sort();
        println!(
            "  {name:8} median {:>8.1} ms   min {:>8.1} ms",
            ms(t[t.len() / 2]),
            ms(t[0])
        );
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
