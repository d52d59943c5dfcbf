//! Edit scripts decoded from bytes, for the edit round-trip fuzz target and
//! its regression tests.
//!
//! Input format: byte 0 is the script length `n`; bytes `1..=n` are the
//! script; the rest is the container. Every byte string decodes to some
//! script, so the fuzzer can mutate freely; `cargo xtask fuzz` makes seeds by
//! putting short scripts in front of the corpus containers.

use crate::verify::{ensure, verify_output, Violation};
use dxcopy_edit::{DigestPolicy, EditPlan, HashPolicy, MatchStyle, NameMatcher, StripClass};
use dxcopy_read::{Container, PartName};

/// Names used when the script does not pick an input part's name.
const NAMES: [&[u8; 4]; 12] = [
    b"DXIL", b"ILDB", b"HASH", b"PRIV", b"STAT", b"SFI0", b"RTS0", b"PSV0", b"ISG1", b"SRCI",
    b"ILDN", b"FKE0",
];
/// Patterns for glob removal.
const GLOBS: [&str; 6] = ["*", "S*", "!DXIL", "[A-H]*", "?LDB", "*0"];

/// One operation of an edit script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// `-R NAME`.
    Remove(PartName),
    /// `-R GLOB`.
    RemoveGlob(&'static str),
    /// `-j NAME`.
    Only(PartName),
    /// `--keep-section NAME`.
    Keep(PartName),
    /// A strip class.
    Strip(StripClass),
    /// `--add-section NAME=data`.
    Add(PartName, Vec<u8>),
    /// `--update-section NAME=data`.
    Update(PartName, Vec<u8>),
    /// `--set-private data`.
    SetPrivate(Vec<u8>),
    /// Replace the bitcode of DXIL or ILDB.
    ReplaceBitcode(PartName, Vec<u8>),
    /// `--digest`.
    Digest(DigestPolicy),
    /// `--hash`.
    Hash(HashPolicy),
}

/// A decoded script and the container bytes it applies to.
#[derive(Debug, Clone)]
pub struct Script<'a> {
    /// The operations in order.
    pub ops: Vec<Op>,
    /// The container.
    pub container: &'a [u8],
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
    fn take(&mut self, n: usize) -> Vec<u8> {
        let n = n.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head.to_vec()
    }
}

impl<'a> Script<'a> {
    /// Decodes `input` (see the module docs).
    pub fn decode(input: &'a [u8]) -> Script<'a> {
        let n = input.first().map_or(0, |&b| usize::from(b));
        let script = input.get(1..).unwrap_or(&[]);
        let (script, container) = script.split_at(n.min(script.len()));
        let names: Vec<PartName> = Container::parse(container)
            .map(|c| c.parts().map(|p| p.name).collect())
            .unwrap_or_default();
        let mut r = Bytes(script);
        let mut ops = Vec::new();
        while let Some(tag) = r.next() {
            let arg = r.next().unwrap_or(0);
            let name = if arg < 0x80 && !names.is_empty() {
                names[usize::from(arg) % names.len()]
            } else {
                PartName(*NAMES[usize::from(arg) % NAMES.len()])
            };
            let data_len = usize::from(arg % 41);
            ops.push(match tag % 12 {
                0 => Op::Remove(name),
                1 => Op::RemoveGlob(GLOBS[usize::from(arg) % GLOBS.len()]),
                2 => Op::Only(name),
                3 => Op::Keep(name),
                4 => Op::Strip(
                    [
                        StripClass::Debug,
                        StripClass::Reflect,
                        StripClass::Priv,
                        StripClass::RootSig,
                        StripClass::All,
                    ][usize::from(arg) % 5],
                ),
                5 => Op::Add(name, r.take(data_len)),
                6 => Op::Update(name, r.take(data_len)),
                7 => Op::SetPrivate(r.take(data_len)),
                8 => {
                    let target = if arg & 1 == 0 {
                        PartName::DXIL
                    } else {
                        PartName::ILDB
                    };
                    let mut bitcode = dxcopy_read::program::BITCODE_MAGIC.to_vec();
                    bitcode.extend(r.take(data_len));
                    Op::ReplaceBitcode(target, bitcode)
                }
                9 => Op::Digest(DigestPolicy::ALL[usize::from(arg) % DigestPolicy::ALL.len()]),
                10 => Op::Hash(
                    [HashPolicy::Auto, HashPolicy::Keep, HashPolicy::Update][usize::from(arg) % 3],
                ),
                _ => {
                    let mut bitcode = dxcopy_read::program::BITCODE_MAGIC.to_vec();
                    bitcode.extend(r.take(data_len));
                    Op::Update(PartName::DXIL, bitcode)
                }
            });
        }
        Script { ops, container }
    }
}

/// Applies `script` to its container, writes the result to memory and checks
/// it with [`verify_output`], plus what the script itself promises: a PRIV
/// set by the script holds exactly its bytes, an added part holds its data
/// padded to 4, and a part no operation could touch is still there.
///
/// Returns `Ok(None)` when the input does not parse or the edit is refused
/// with an error (both a pass), `Ok(Some(bytes))` with the written container.
pub fn roundtrip(script: &Script<'_>) -> Result<Option<Vec<u8>>, Violation> {
    let Ok(container) = Container::parse(script.container) else {
        return Ok(None);
    };
    let mut plan = EditPlan::from_container(&container);
    let mut private: Option<&[u8]> = None;
    let mut added: Vec<(PartName, &[u8])> = Vec::new();
    let mut touched: Vec<PartName> = Vec::new();
    let mut removes_any = false;
    // Whether an operation after the last set-private could have removed PRIV.
    let mut private_removable = false;
    for op in &script.ops {
        if matches!(
            op,
            Op::Remove(_) | Op::RemoveGlob(_) | Op::Only(_) | Op::Strip(_)
        ) {
            private_removable = true;
        }
        let r = match op {
            Op::Remove(n) => {
                plan.remove(&NameMatcher::exact(*n));
                touched.push(*n);
                Ok(())
            }
            Op::RemoveGlob(g) => {
                match NameMatcher::from_patterns(&[g], MatchStyle::Glob) {
                    Ok(m) => {
                        plan.remove(&m);
                    }
                    Err(e) => return Err(Violation(format!("glob '{g}' rejected: {e}"))),
                }
                removes_any = true;
                Ok(())
            }
            Op::Only(n) => {
                plan.only(&NameMatcher::exact(*n));
                removes_any = true;
                Ok(())
            }
            Op::Keep(n) => {
                plan.keep(&NameMatcher::exact(*n));
                Ok(())
            }
            Op::Strip(class) => {
                plan.strip(*class);
                touched.extend(class.parts());
                Ok(())
            }
            Op::Add(n, data) => {
                let r = plan.add(*n, data.clone());
                if r.is_ok() {
                    if *n == PartName::PRIV {
                        private = Some(data);
                        private_removable = false;
                    } else {
                        added.push((*n, data));
                    }
                }
                touched.push(*n);
                r
            }
            Op::Update(n, data) => {
                touched.push(*n);
                let r = plan.update(*n, data.clone());
                if r.is_ok() && *n == PartName::PRIV {
                    private = Some(data);
                    private_removable = false;
                }
                r
            }
            Op::SetPrivate(data) => {
                plan.set_private(data.clone());
                private = Some(data);
                private_removable = false;
                touched.push(PartName::PRIV);
                Ok(())
            }
            Op::ReplaceBitcode(n, bitcode) => {
                touched.push(*n);
                plan.replace_bitcode(*n, bitcode)
            }
            Op::Digest(d) => {
                plan.digest_policy = *d;
                Ok(())
            }
            Op::Hash(h) => {
                plan.hash_policy = *h;
                touched.push(PartName::HASH);
                Ok(())
            }
        };
        if r.is_err() {
            // Refused operations are a pass; the rest of the script still runs
            // against the unchanged plan, as later options would.
            continue;
        }
    }
    let output = match plan.finish() {
        Ok(o) => o,
        Err(_) => return Ok(None),
    };
    let bytes = output.to_vec();
    verify_output(Some(&container), &output, &bytes)?;
    let written = Container::parse(&bytes).map_err(|e| Violation(e.to_string()))?;
    check_promises(
        &container,
        &written,
        Promises {
            private,
            private_removable,
            added,
            touched,
            removes_any,
        },
    )?;
    Ok(Some(bytes))
}

/// What a script's operations promise of the written container.
struct Promises<'s> {
    /// The bytes the script last set PRIV to.
    private: Option<&'s [u8]>,
    /// Whether an operation after that could have removed PRIV.
    private_removable: bool,
    /// The parts added, with their data.
    added: Vec<(PartName, &'s [u8])>,
    /// The names an operation touched.
    touched: Vec<PartName>,
    /// Whether a glob or an only-this could have removed any part.
    removes_any: bool,
}

/// The written container keeps the script's promises.
fn check_promises(
    container: &Container<'_>,
    written: &Container<'_>,
    promises: Promises<'_>,
) -> Result<(), Violation> {
    // HASH upkeep may rewrite HASH; every other untouched name must survive
    // unless a glob or -j could have removed it.
    let Promises {
        private,
        private_removable,
        added,
        mut touched,
        removes_any,
    } = promises;
    touched.push(PartName::HASH);
    if let Some(data) = private {
        match written.find(PartName::PRIV) {
            Some(p) => ensure!(
                p.data == data,
                "PRIV set by the script holds {} bytes, not its exact {} bytes",
                p.data.len(),
                data.len()
            ),
            None => ensure!(
                private_removable,
                "PRIV set by the script is missing and nothing removed it"
            ),
        }
    }
    for (name, data) in &added {
        let Some(p) = written.find(*name) else {
            continue; // removed by a later operation
        };
        if p.data.starts_with(data) && p.data.len() == data.len().div_ceil(4) * 4 {
            continue;
        }
        if touched.iter().filter(|t| *t == name).count() > 1 {
            continue; // updated after it was added
        }
        return Err(Violation(format!(
            "added part '{name}' holds {} bytes, not its {} bytes padded to 4",
            p.data.len(),
            data.len()
        )));
    }
    if !removes_any {
        for p in container.parts() {
            if touched.contains(&p.name) {
                continue;
            }
            let kept = written
                .parts()
                .any(|w| w.name == p.name && w.data == p.data);
            ensure!(
                kept,
                "input part {} '{}' was touched by no operation but is not in the output unchanged",
                p.index,
                p.name
            );
        }
    }
    Ok(())
}
