//! LLVM 22 against the bitcode layer, over every DXIL, ILDB and dxc STAT
//! bitcode of ../shared/corpus (skipped without the corpus or LLVM 22):
//!
//! - `llvm-dis` reads every `--dump-bitcode` output, and its IR equals
//!   `opt --data-layout=<fixed layout> -S` of the exact (unfixed) dump;
//! - the module facts equal what `llvm-dis` prints for the named metadata
//!   and the `dx.op.*` declarations;
//! - for DXIL and ILDB, `opt -passes=strip` gives the same IR over the
//!   original and over the name-stripped bitcode, and `opt -passes=verify`
//!   accepts the stripped bitcode.
//!
//! Four LLVM runs per bitcode take about ten minutes over the whole corpus on
//! a small machine, so by default every 32nd bitcode is checked;
//! `DXCOPY_BITCODE_LLVM_ALL=1` (`cargo xtask bitcode-llvm`) checks all of them.

use dxcopy_edit::bitcode::{fix_data_layout, strip_names};
use dxcopy_harness::corpus::program_bitcode;
use dxcopy_harness::llvm::{llvm_tool_or_skip, run_tool};
use dxcopy_read::dxil::facts::ModuleFacts;
use std::collections::HashMap;
use std::path::Path;

/// Runs `tool args`, returning stdout; panics with stderr on failure.
fn run(tool: &Path, args: &[&str], what: &str) -> String {
    String::from_utf8_lossy(&run_tool(tool, args, what).stdout).into_owned()
}

/// The IR without the lines naming the input file.
fn body(ir: &str) -> String {
    ir.lines()
        .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `!name = ...` and `!N = ...` lines of llvm-dis output.
fn metadata_lines(ir: &str) -> HashMap<String, String> {
    ir.lines()
        .filter(|l| l.starts_with('!'))
        .filter_map(|l| l.split_once(" = "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Operands of `!{a, b, c}` (or `distinct !{…}`), split at top-level commas.
fn operands(node: &str) -> Vec<String> {
    let node = node.trim_start_matches("distinct ");
    let inner = node
        .strip_prefix("!{")
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or("");
    let mut out = Vec::new();
    let (mut depth, mut in_str, mut cur) = (0, false, String::new());
    for c in inner.chars() {
        match c {
            '"' => in_str = !in_str,
            '(' | '{' | '[' | '<' if !in_str => depth += 1,
            ')' | '}' | ']' | '>' if !in_str => depth -= 1,
            ',' if !in_str && depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// `!"text"` with llvm-dis's `\XX` escapes decoded.
fn md_string(op: &str) -> Option<String> {
    let s = op.strip_prefix("!\"")?.strip_suffix('"')?;
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 2 < bytes.len() + 1 {
            if bytes.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

fn int(op: &str) -> Option<i64> {
    op.split_whitespace().nth(1)?.parse().ok()
}

/// The first node of named metadata `name`, as operands.
fn first_node(md: &HashMap<String, String>, name: &str) -> Option<Vec<String>> {
    let list = operands(md.get(&format!("!{name}"))?);
    Some(operands(md.get(list.first()?)?))
}

#[cfg_attr(
    not(all(dxcopy_corpus, dxcopy_llvm)),
    ignore = "needs the shared corpus and LLVM 22"
)]
#[test]
fn llvm_reads_dumps_agrees_on_facts_and_on_stripped_names() {
    let Some(corpus) = dxcopy_harness::corpus::corpus_or_skip(
        "llvm_reads_dumps_agrees_on_facts_and_on_stripped_names",
    ) else {
        return;
    };
    let test = "llvm_reads_dumps_agrees_on_facts_and_on_stripped_names";
    let (Some(llvm_dis), Some(opt)) = (
        llvm_tool_or_skip(test, "llvm-dis"),
        llvm_tool_or_skip(test, "opt"),
    ) else {
        return;
    };
    let mut all = program_bitcode(&corpus);
    assert!(!all.is_empty(), "no program bitcode found in the corpus");
    if std::env::var_os("DXCOPY_BITCODE_LLVM_ALL").is_none() {
        all = all.into_iter().step_by(32).collect();
        println!("checking every 32nd bitcode (DXCOPY_BITCODE_LLVM_ALL=1 checks all)");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (orig, fixed, stripped) = (
        dir.path().join("orig.bc"),
        dir.path().join("fixed.bc"),
        dir.path().join("stripped.bc"),
    );
    let s = |p: &Path| p.to_str().expect("utf-8 temp path").to_string();
    let (orig_s, fixed_s, stripped_s) = (s(&orig), s(&fixed), s(&stripped));
    let (mut reads, mut facts_compared, mut strip_checked, mut names) = (0, 0, 0, 0);
    let mut bitcodes_compared = 0;
    for (file, part, bitcode) in &all {
        let what = format!("{file} {part}");
        std::fs::write(&orig, bitcode).expect("write");
        let fix = fix_data_layout(bitcode).expect("layout fix");
        std::fs::write(&fixed, &fix.bytes).expect("write");
        let layout = fix
            .new_layout
            .clone()
            .or(fix.old_layout.clone())
            .expect("a data layout");
        let dis = run(&llvm_dis, &[&fixed_s, "-o", "-"], &what);
        let reference = run(
            &opt,
            &[&format!("--data-layout={layout}"), "-S", &orig_s, "-o", "-"],
            &what,
        );
        assert_eq!(body(&dis), body(&reference), "{what}: llvm-dis IR differs");
        reads += 1;

        // Module facts against the printed metadata and declarations.
        let facts = ModuleFacts::decode(bitcode).expect("facts");
        let md = metadata_lines(&dis);
        let printed = |prefix: &str| {
            dis.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .and_then(|v| v.strip_prefix('"')?.strip_suffix('"'))
                .map(str::to_string)
        };
        assert_eq!(
            facts.triple,
            printed("target triple = "),
            "{what}: target triple"
        );
        // llvm-dis prints the fixed layout: the stored one with `i8:32` as `i8:08`.
        assert_eq!(
            facts
                .data_layout
                .as_deref()
                .map(|l| l.replace("-i8:32-", "-i8:08-")),
            printed("target datalayout = "),
            "{what}: data layout"
        );
        // LLVM 22 turns llvm.dbg.* calls into debug records and drops their
        // declarations, so those are left out on both sides.
        let no_dbg = |names: Vec<String>| {
            let mut names: Vec<String> = names
                .into_iter()
                .filter(|n| !n.starts_with("llvm.dbg."))
                .collect();
            names.sort();
            names
        };
        let declared = no_dbg(
            dis.lines()
                .filter(|l| l.starts_with("declare "))
                .filter_map(|l| {
                    let name = l.split_once('@')?.1;
                    match name.strip_prefix('"') {
                        // Quoted names use llvm-dis's `\XX` escapes.
                        Some(quoted) => md_string(&format!("!\"{}\"", quoted.split('"').next()?)),
                        None => Some(name.split('(').next()?.to_string()),
                    }
                })
                .collect(),
        );
        // LLVM 22 also upgrades intrinsics whose signature changed since LLVM
        // 3.7 when it reads them (`llvm.lifetime.start(i64, i8*)` becomes
        // `llvm.lifetime.start.p0(ptr)`, the old declaration renamed with an
        // overload suffix): other names must be equal, and intrinsics must
        // match up to an added `.suffix` both ways.
        let (ours_llvm, ours): (Vec<String>, Vec<String>) =
            no_dbg(facts.functions_declared.clone())
                .into_iter()
                .partition(|n| n.starts_with("llvm."));
        let (printed_llvm, printed): (Vec<String>, Vec<String>) =
            declared.into_iter().partition(|n| n.starts_with("llvm."));
        assert_eq!(ours, printed, "{what}: declarations");
        let upgraded = |printed: &str, stored: &str| {
            printed == stored
                || printed
                    .strip_prefix(stored)
                    .is_some_and(|rest| rest.starts_with('.'))
        };
        for name in &ours_llvm {
            assert!(
                printed_llvm.iter().any(|p| upgraded(p, name)),
                "{what}: intrinsic {name} not declared by llvm-dis: {printed_llvm:?}"
            );
        }
        for name in &printed_llvm {
            assert!(
                ours_llvm.iter().any(|o| upgraded(name, o)),
                "{what}: llvm-dis declares {name}, the facts do not: {ours_llvm:?}"
            );
        }
        let pair =
            |name| first_node(&md, name).map(|ops| (int(&ops[0]).unwrap(), int(&ops[1]).unwrap()));
        assert_eq!(
            facts.dxil_version.map(|v| (v.major, v.minor)),
            pair("dx.version"),
            "{what}: dx.version"
        );
        assert_eq!(
            facts.validator_version.map(|v| (v.major, v.minor)),
            pair("dx.valver"),
            "{what}: dx.valver"
        );
        let sm = first_node(&md, "dx.shaderModel").map(|ops| {
            (
                md_string(&ops[0]).unwrap(),
                int(&ops[1]).unwrap(),
                int(&ops[2]).unwrap(),
            )
        });
        assert_eq!(
            facts
                .shader_model
                .clone()
                .map(|s| (s.kind, s.major, s.minor)),
            sm,
            "{what}: dx.shaderModel"
        );
        let entries: Vec<String> = md
            .get("!dx.entryPoints")
            .map(|l| operands(l))
            .unwrap_or_default()
            .iter()
            .map(|id| md_string(&operands(&md[id])[1]).unwrap_or_default())
            .collect();
        assert_eq!(facts.entry_points, entries, "{what}: dx.entryPoints");
        let resources = first_node(&md, "dx.resources").map(|ops| {
            let count = |i: usize| match ops.get(i).map(String::as_str) {
                None | Some("null") => 0,
                Some(id) => operands(&md[id]).len(),
            };
            (count(0), count(1), count(2), count(3))
        });
        assert_eq!(
            facts
                .resources
                .map(|r| (r.srvs, r.uavs, r.cbuffers, r.samplers)),
            resources,
            "{what}: dx.resources"
        );
        let ident: Vec<String> = md
            .get("!llvm.ident")
            .map(|l| operands(l))
            .unwrap_or_default()
            .iter()
            .flat_map(|id| operands(&md[id]))
            .filter_map(|op| md_string(&op))
            .collect();
        assert_eq!(facts.ident, ident, "{what}: llvm.ident");
        let args: Vec<String> = first_node(&md, "dx.source.args")
            .unwrap_or_default()
            .iter()
            .filter_map(|op| md_string(op))
            .collect();
        assert_eq!(facts.source_args, args, "{what}: dx.source.args");
        let main_file =
            first_node(&md, "dx.source.mainFileName").and_then(|ops| md_string(ops.first()?));
        assert_eq!(
            facts.main_file_name, main_file,
            "{what}: dx.source.mainFileName"
        );
        let mut dx_ops: Vec<String> = dis
            .lines()
            .filter(|l| l.starts_with("declare "))
            .filter_map(|l| {
                let name = l.split_once('@')?.1;
                let name = match name.strip_prefix('"') {
                    Some(quoted) => quoted.split('"').next()?,
                    None => name.split('(').next()?,
                };
                name.starts_with("dx.op.").then(|| name.to_string())
            })
            .collect();
        dx_ops.sort();
        assert_eq!(facts.dx_ops, dx_ops, "{what}: dx.op declarations");
        let defined = dis.lines().filter(|l| l.starts_with("define ")).count();
        assert_eq!(
            facts.functions_defined.len(),
            defined,
            "{what}: definitions"
        );
        // triple, layout, declarations, dx.version, dx.valver, dx.shaderModel,
        // dx.entryPoints, dx.resources, llvm.ident, dx.source.args,
        // dx.source.mainFileName, dx.op.*, definitions.
        facts_compared += 13;
        bitcodes_compared += 1;

        // Name stripping: LLVM's strip pass cannot tell ours from the original.
        if part == "STAT" {
            continue;
        }
        let (out, stats) = strip_names(&fix.bytes).expect("strip");
        names += stats.total();
        std::fs::write(&stripped, &out).expect("write");
        run(
            &opt,
            &["-passes=verify", "-disable-output", &stripped_s],
            &what,
        );
        let a = run(&opt, &["-passes=strip", "-S", &fixed_s, "-o", "-"], &what);
        let b = run(
            &opt,
            &["-passes=strip", "-S", &stripped_s, "-o", "-"],
            &what,
        );
        assert_eq!(body(&a), body(&b), "{what}: strip pass output differs");
        strip_checked += 1;
    }
    println!(
        "llvm-dis reads: {reads} of {} bitcodes; facts compared: {facts_compared} \
         (13 per bitcode, {bitcodes_compared} bitcodes); strip checked: {strip_checked} \
         ({names} names stripped)",
        all.len()
    );
    assert_eq!(reads, all.len());
}
