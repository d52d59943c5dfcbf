//! C headers in a run ([`Config::run`]): an input that is a C header
//! (`fxc /Fh`, `dxc -Fh`, DirectXTK's `.inc` files) is read as the
//! container in one of its arrays (`--array=NAME`, or the only one); edited
//! in place, the header keeps every byte but that array's initializer (and,
//! with [`HeaderRun::rewrite_listings`], the `#if 0` listing above it).
//! dxstrip edits every array of a header ([`HeaderRun::all_arrays`]). A
//! C header output ([`HeaderRun::output`]) is the header fxc or dxc writes.

use crate::c_header::{rewrite_arrays, rewrite_arrays_and_listings, select_arrays, CompilerHeader};
use crate::config::{Config, Report};
use crate::error::{EditError, Result};
use dxcopy_read::c_header::{arrays, looks_like_header, HeaderArray};
use dxcopy_read::listing::dxbc::ListingOptions;
use dxcopy_read::{Container, MappedFile};
use std::path::Path;

/// How a run treats C headers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderRun {
    /// `--array=NAME`: the array of a header input to work on.
    pub array: Option<String>,
    /// Work on every array of a header input (dxstrip), each edited in
    /// place; otherwise one array is chosen.
    pub all_arrays: bool,
    /// `--listing`: a header edited in place gets each edited array's
    /// `#if 0` listing written anew for its new container.
    pub rewrite_listings: bool,
    /// The release and rounding of rewritten listings (`--disasm-format`).
    pub listing: ListingOptions,
    /// `--output-format=header`: the main output is a C header.
    pub output: Option<CompilerHeader>,
}

/// Whether `bytes` are read as a C header: not a container or PDB, text
/// holding an array.
pub fn is_header_input(bytes: &[u8]) -> bool {
    !bytes.starts_with(crate::batch::CONTAINER_MAGIC)
        && !bytes.starts_with(dxcopy_read::pdb::MSF_MAGIC)
        && looks_like_header(bytes)
}

/// The header a run rewrites in place: its text, the array the run's
/// container came from, and the other arrays' new bytes (dxstrip's
/// every-array runs).
pub(crate) struct HeaderTarget<'a> {
    pub(crate) text: &'a [u8],
    pub(crate) array: &'a HeaderArray,
    pub(crate) others: Vec<(&'a HeaderArray, Vec<u8>)>,
}

impl HeaderTarget<'_> {
    /// The header's new text with the run's container `bytes` in its array.
    pub(crate) fn rewrite(&self, bytes: &[u8], run: &HeaderRun) -> Result<Vec<u8>> {
        let mut replacements: Vec<(&HeaderArray, &[u8])> = vec![(self.array, bytes)];
        replacements.extend(self.others.iter().map(|(a, b)| (*a, b.as_slice())));
        if run.rewrite_listings {
            rewrite_arrays_and_listings(self.text, &replacements, &run.listing)
        } else {
            Ok(rewrite_arrays(self.text, &replacements))
        }
    }
}

/// `e` about the container of `array`, said so unless it names its file.
pub(crate) fn in_array(array: &HeaderArray, e: EditError) -> EditError {
    if e.names_its_file() || matches!(e, EditError::InputChanged { .. }) {
        e
    } else {
        EditError::InArray {
            name: array.name.clone(),
            line: array.line,
            source: Box::new(e),
        }
    }
}

impl Config {
    /// Whether the run writes files besides its main output.
    fn has_side_outputs(&self) -> bool {
        !self.dumps.is_empty()
            || !self.extracts.is_empty()
            || self.extract_private_pdb.is_some()
            || self.extract_sources.is_some()
            || self.edits.split_debug.is_some()
            || self.edits.pdb_in_private
    }

    /// [`run`](Self::run) on the C header `file` read from `input`.
    pub(crate) fn run_header(
        &self,
        file: &MappedFile,
        input: &Path,
        output: Option<&Path>,
        plain: bool,
    ) -> Result<Report> {
        let found = arrays(file)?;
        let selected = select_arrays(
            &found,
            self.headers.array.as_deref(),
            self.headers.all_arrays,
        )?;
        let stdin = input.as_os_str() == "-";
        let in_place = !stdin && (output.is_none() || output == Some(input));
        // The main output is this header rewritten: in place, or every
        // array to another file (dxstrip -o).
        let rewrites = (in_place && !self.is_read_only() && self.headers.output.is_none())
            || (self.headers.all_arrays && output.is_some());
        if selected.len() > 1 && self.has_side_outputs() {
            let names = selected.iter().map(|a| a.name.clone()).collect();
            return Err(EditError::AmbiguousArray { names });
        }
        let Some((first, rest)) = selected.split_first() else {
            return Err(EditError::NoArrays);
        };
        let mut others = Vec::new();
        let mut report = Report::default();
        for array in rest {
            let container =
                Container::parse(&array.bytes).map_err(|e| in_array(array, e.into()))?;
            let bytes = self
                .edit_in_memory(&container, &mut report)
                .map_err(|e| in_array(array, e))?;
            others.push((*array, bytes));
        }
        let container = Container::parse(&first.bytes).map_err(|e| in_array(first, e.into()))?;
        let target = rewrites.then(|| HeaderTarget {
            text: file,
            array: first,
            others,
        });
        let mut main = self
            .run_header_array(&container, file, input, output, plain, target.as_ref())
            .map_err(|e| in_array(first, e))?;
        main.warnings.extend(report.warnings);
        main.notes.extend(report.notes);
        main.parts_before += report.parts_before;
        main.parts_after += report.parts_after;
        Ok(main)
    }
}
