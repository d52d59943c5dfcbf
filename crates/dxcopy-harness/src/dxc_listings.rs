//! The dxc listing references in `../shared/corpus/dxc-listings`: each DXIL
//! container with the listing the dxc that compiled it printed, and the
//! comparison rules of its README (shared by the corpus test and `cargo
//! xtask dxil-disasm-conformance`).
//!
//! - `METADATA.tsv` names each file, its set (`main`: `bin/` and
//!   `listings/`; `console`: `console/bin/` and `console/listings/`) and the
//!   facts the comparison needs;
//! - an Xbox One listing ends with a GCN hardware dump ("DUMPING SHADER
//!   HARDWARE INSTRUCTIONS") no DXIL disassembler can print: the text
//!   before it is compared; an Xbox Series listing ends with the same
//!   kind of block from the console's shader compiler ("XBOX SHADER
//!   COMPILER": register counts, occupancy, instruction mix of the
//!   hardware shader, which the container does not hold), cut alike;
//! - GaijinEntertainment/DagorEngine's listings had their trailing
//!   whitespace stripped by that repository's formatter: compared modulo
//!   trailing whitespace;
//! - listings committed with CRLF line ends are compared with LF ones;
//! - `/Fh` writes the listing, then a line end, then `#endif`
//!   (dxc.cpp, `WriteHeader`): the reference (the text up to the line end
//!   before `#endif`) loses that one line end.

use std::path::{Path, PathBuf};

use crate::corpus::{shared_dir, skip, SHARED_ENV};

/// The markers before the hardware sections of Xbox listings, with how
/// many of their bytes belong to the listing (the module's last line end).
const HW_SECTIONS: &[(&str, usize)] = &[
    ("\n;\n; DUMPING SHADER HARDWARE INSTRUCTIONS", 0),
    (
        "\n; \n; ----------------------------------------------------------------\n; ----------------------XBOX SHADER COMPILER",
        1,
    ),
    // The same with its trailing space stripped (DagorEngine).
    (
        "\n;\n; ----------------------------------------------------------------\n; ----------------------XBOX SHADER COMPILER",
        1,
    ),
];
/// The repository whose listings lost their trailing whitespace.
const STRIPPED_REPO: &str = "GaijinEntertainment/DagorEngine";

/// One container and its reference listing.
#[derive(Debug, Clone)]
pub struct DxcListing {
    /// The file name (`METADATA.tsv`'s `file`).
    pub file: String,
    /// The container.
    pub container: PathBuf,
    /// Its listing.
    pub listing: PathBuf,
    /// The `llvm.ident` METADATA.tsv records (which dxc wrote it).
    pub ident: String,
    /// Compare modulo trailing whitespace.
    pub trailing_whitespace_stripped: bool,
}

/// The folder `dxc-listings`, or `None` after printing that `test` is
/// skipped.
pub fn dxc_listings_or_skip(test: &str) -> Option<PathBuf> {
    let dir = shared_dir().join("corpus/dxc-listings");
    if dir.join("METADATA.tsv").is_file() {
        Some(dir)
    } else {
        skip(
            test,
            &format!(
                "no dxc listings at {} (set {SHARED_ENV} to the shared folder)",
                dir.display()
            ),
        );
        None
    }
}

/// Every row of `METADATA.tsv` under `dir`.
pub fn dxc_listings(dir: &Path) -> Result<Vec<DxcListing>, String> {
    let table = std::fs::read_to_string(dir.join("METADATA.tsv"))
        .map_err(|e| format!("{}: {e}", dir.join("METADATA.tsv").display()))?;
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("METADATA.tsv has no column {name}"))
    };
    let (file, set, repo, ident) = (
        column("file")?,
        column("set")?,
        column("repo")?,
        column("llvm_ident")?,
    );
    let mut out = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let get = |i: usize| fields.get(i).copied().unwrap_or_default();
        let base = if get(set) == "console" {
            dir.join("console")
        } else {
            dir.to_path_buf()
        };
        out.push(DxcListing {
            file: get(file).to_string(),
            container: base.join("bin").join(get(file)),
            listing: base.join("listings").join(format!("{}.lst", get(file))),
            ident: get(ident).to_string(),
            trailing_whitespace_stripped: get(repo) == STRIPPED_REPO,
        });
    }
    Ok(out)
}

impl DxcListing {
    /// The reference text as compared: LF line ends, without the line end
    /// `/Fh` adds before `#endif`, the hardware dump cut.
    pub fn reference(&self) -> Result<String, String> {
        let raw =
            std::fs::read(&self.listing).map_err(|e| format!("{}: {e}", self.listing.display()))?;
        let mut text = String::from_utf8_lossy(&raw).replace("\r\n", "\n");
        if text.ends_with('\n') {
            text.pop();
        }
        for (marker, kept) in HW_SECTIONS {
            if let Some(cut) = text.find(marker) {
                text.truncate(cut + kept);
            }
        }
        Ok(text)
    }

    /// Whether `ours` is the reference (`want` from [`DxcListing::reference`]).
    pub fn same(&self, ours: &str, want: &str) -> bool {
        self.difference(ours, want).is_none()
    }

    /// The first differing line (see [`first_difference`]), modulo
    /// trailing whitespace for the listings that lost theirs.
    pub fn difference(&self, ours: &str, want: &str) -> Option<(usize, String, String)> {
        if self.trailing_whitespace_stripped {
            let trim = |s: &str| -> String {
                s.split_inclusive('\n')
                    .map(|l| format!("{}\n", l.trim_end()))
                    .collect()
            };
            first_difference(&trim(ours), &trim(want))
        } else {
            first_difference(ours, want)
        }
    }
}

/// The first differing line of two texts (1-based), both sides; `None`
/// when every line agrees.
pub fn first_difference(ours: &str, want: &str) -> Option<(usize, String, String)> {
    let mut a = ours.split_inclusive('\n');
    let mut b = want.split_inclusive('\n');
    let mut n = 0;
    loop {
        n += 1;
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return None,
            (x, y) => {
                let show = |s: Option<&str>| s.map_or("(end)".to_string(), |s| format!("{s:?}"));
                return Some((n, show(x), show(y)));
            }
        }
    }
}
