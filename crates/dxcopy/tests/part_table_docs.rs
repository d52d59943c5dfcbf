//! The lists of parts written in prose — README, docs, the Python docstrings,
//! dxinfo's help — agree with the part table (`dxcopy_read::PART_TABLE`, from
//! `part_table/rows.rs`). A row added to the table without updating them fails
//! here, naming the file and the line it expected.

use dxcopy_read::{Family, Llvm};
use dxcopy_read::{PartName, StripClass, PART_TABLE};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn join(names: impl Iterator<Item = PartName>, sep: &str) -> String {
    names.map(|n| n.to_string()).collect::<Vec<_>>().join(sep)
}

fn assert_has(file: &str, text: &str, want: &str) {
    assert!(text.contains(want), "{file} lacks `{want}`");
}

/// The part names of the table that a piece of prose mentions.
fn names_in(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| PART_TABLE.iter().any(|i| i.name.to_string() == *w))
        .map(str::to_string)
        .collect()
}

fn names_of(filter: impl Fn(Option<Family>) -> bool) -> BTreeSet<String> {
    PART_TABLE
        .iter()
        .filter(|i| filter(i.family))
        .map(|i| i.name.to_string())
        .collect()
}

/// The rows of the markdown table whose first cell is `first`.
fn table_row<'a>(file: &str, text: &'a str, first: &str) -> Vec<&'a str> {
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("| {first} |")))
        .unwrap_or_else(|| panic!("{file}: no table row for {first}"));
    line.split('|').map(str::trim).skip(1).collect()
}

#[test]
fn strip_class_tables() {
    for (file, all_sep) in [("README.md", " + "), ("docs/format/container.md", ", ")] {
        let text = read(file);
        for class in StripClass::ALL {
            let list = match class {
                StripClass::All => {
                    let classes = ["debug", "reflect", "priv"].map(String::from);
                    let own = StripClass::All.own_parts().map(|n| n.to_string());
                    classes
                        .into_iter()
                        .chain(own)
                        .collect::<Vec<_>>()
                        .join(all_sep)
                }
                _ => class.part_list(", "),
            };
            assert_has(file, &text, &format!("| {} | {list} |", class.as_str()));
        }
    }
}

#[test]
fn python_strip_docstring() {
    let file = "crates/dxcopy-py/src/edit.rs";
    let source = read(file);
    // The doc comment of `Edit.strip`, as one line.
    let doc: Vec<&str> = source
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("/// Strips a class of parts"))
        .take_while(|l| l.starts_with("///"))
        .map(|l| l.trim_start_matches("///").trim())
        .collect();
    let doc = doc.join(" ");
    let own = join(StripClass::All.own_parts(), " and ");
    let want = format!(
        "\"debug\" ({}), \"reflect\" ({}), \"priv\" ({}), \"rootsig\" ({}) or \"all\" (debug, reflect, priv, {own})",
        StripClass::Debug.part_list(", "),
        StripClass::Reflect.part_list(", "),
        StripClass::Priv.part_list(", "),
        StripClass::RootSig.part_list(", "),
    );
    assert_has(file, &doc, &want);
}

/// `--upstream-keys`: the parts upstream LLVM names and LLVM 22 does not.
#[test]
fn upstream_keys_lists() {
    let upstream = || {
        PART_TABLE
            .iter()
            .filter(|i| i.llvm == Llvm::Upstream)
            .map(|i| i.name)
    };
    let readme = read("README.md");
    let row = table_row("README.md", &readme, "`--upstream-keys`");
    assert!(
        row[1].ends_with(&join(upstream(), ", ")),
        "README.md --upstream-keys: {}",
        row[1]
    );
    let all: Vec<PartName> = upstream().collect();
    let (last, first) = all.split_last().unwrap();
    let prose = format!("{} and {last}", join(first.iter().copied(), ", "));
    let help = Command::new(env!("CARGO_BIN_EXE_dxinfo"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert_has("dxinfo --help", &help, &prose);
    let file = "crates/dxcopy-read/src/info/yaml/mod.rs";
    assert_has(file, &read(file), &format!("({})", join(upstream(), ", ")));
}

/// docs/dxinfo.md's "What is decoded" table names every decoded part, and
/// docs/dxinfo-json.md's `kind` table each family's parts.
#[test]
fn decoded_part_tables() {
    let file = "docs/dxinfo.md";
    let text = read(file);
    let section = text
        .split("## What is decoded")
        .nth(1)
        .unwrap_or_else(|| panic!("{file}: no 'What is decoded'"));
    let first_cells: String = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.split('|').nth(1).unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        names_in(&first_cells),
        names_of(|f| f.is_some()),
        "{file}: the decoded parts"
    );

    let file = "docs/dxinfo-json.md";
    let text = read(file);
    for family in Family::ALL {
        let row = table_row(file, &text, &format!("`{}`", family.kind()));
        // dxc's STAT decodes as a program.
        let want = names_of(|f| {
            f == Some(*family) || (*family == Family::Program && f == Some(Family::Statistics))
        });
        assert_eq!(names_in(row[1]), want, "{file}: kind {}", family.kind());
    }
}
