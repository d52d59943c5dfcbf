//! `dxcopy.Container` and `dxcopy.Part`: an opened
//! container (memory-mapped file, bytes, or the container inside a dxc
//! companion PDB), its parts and what decoding them says.

use crate::buffer::buffer_bytes;
use crate::edit::Edit;
use crate::error::{read_to_py, to_py};
pub use crate::input::Input;
use dxcopy_edit::{Config, EditError, MatchStyle};
use dxcopy_read::info::verify::verify;
use dxcopy_read::info::{json, Inspected};
use dxcopy_read::reflect::{self, Reflection};
use dxcopy_read::MappedFile;
use dxcopy_read::Severity;
use pyo3::exceptions::{PyIndexError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use std::path::PathBuf;
use std::sync::Arc;

/// Turns a serialisable value into Python objects through JSON, so the
/// result is exactly what `dxinfo --json` prints, keys in the same order.
pub fn to_python<'py>(
    py: Python<'py>,
    value: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// A DirectX container (DXBC or DXIL), opened from a file or bytes.
///
/// Open it with `Container.open(path)` (the file is memory-mapped, not
/// read) or `Container.from_bytes(data)`. A dxc companion PDB is accepted
/// too: the container in its stream 5 is used, as by the command-line tools.
/// The container is checked when it is opened; a bad one raises
/// `dxcopy.Error`. Indexing by name gives the first part of that name
/// (`c["DXIL"]`, KeyError when absent), by number the part at that index.
///
/// An opened file keeps the data it had when it was opened even when the
/// file is replaced afterwards (the edits of dxcopy and of this package
/// replace files by renaming a new file over them). A memory-mapped file
/// truncated or overwritten in place afterwards makes every call that reads
/// it raise `dxcopy.Error`, as the dxcopy command reports such a file,
/// instead of giving zeros or the new bytes.
#[pyclass(module = "dxcopy", frozen)]
pub struct Container {
    pub(crate) input: Arc<Input>,
}

impl Container {
    fn part_objects(&self, py: Python<'_>) -> PyResult<Vec<Part>> {
        let container = self.input.parsed(py)?;
        Ok(container
            .parts()
            .map(|p| Part {
                input: Arc::clone(&self.input),
                index: p.index,
                name: p.name.to_string(),
                offset: p.offset,
                data_offset: p.data_offset(),
                size: p.size(),
            })
            .collect())
    }

    fn find(&self, py: Python<'_>, name: &str) -> PyResult<Option<Part>> {
        Ok(self.part_objects(py)?.into_iter().find(|p| p.name == name))
    }

    fn require(&self, py: Python<'_>, name: &str) -> PyResult<Part> {
        self.find(py, name)?
            .ok_or_else(|| PyKeyError::new_err(name.to_string()))
    }

    /// The plain listing `disassemble` returns, and its dialect.
    fn listing(
        &self,
        py: Python<'_>,
        part: Option<&str>,
        release: Option<&str>,
        numbers: bool,
        offsets: bool,
        hex: bool,
    ) -> PyResult<(String, dxcopy_read::listing::markup::Dialect)> {
        use dxcopy_read::listing::dxil::release::ListingFormat;
        use dxcopy_read::listing::dxil::{container_listing, ListingOptions};
        use dxcopy_read::listing::markup::Dialect;
        use dxcopy_read::listing::{dxbc, DisasmFlags};
        let part = match part {
            None => None,
            Some(text) => Some(dxcopy_read::PartName::from_str_exact(text).ok_or_else(|| {
                PyValueError::new_err(format!("'{text}' is not a four-byte part name"))
            })?),
        };
        let release = match release {
            None => None,
            Some(text) => Some(ListingFormat::parse(text).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "'{text}' is not a dxc release (1.N, 1.N.yymm) nor an fxc release (6.3, 10.1)"
                ))
            })?),
        };
        let flags = DisasmFlags {
            numbers,
            offsets,
            hex,
            ..DisasmFlags::default()
        };
        let container = self.input.parsed(py)?;
        let file = self.input.path.as_deref();
        let bitcode = [dxcopy_read::PartName::DXIL, dxcopy_read::PartName::ILDB];
        let dxbc = part.is_none()
            && !bitcode.iter().any(|name| container.find(*name).is_some())
            && dxbc::shader_part(&container).is_some();
        if dxbc {
            let fxc = match release {
                None => None,
                Some(format) => Some(format.fxc().ok_or_else(|| {
                    PyValueError::new_err("a DXBC container's listing takes an fxc release")
                })?),
            };
            let options = dxbc::ListingOptions {
                release: fxc,
                flags,
                ..dxbc::ListingOptions::default()
            };
            let generator = format!("dxcopy {}", env!("CARGO_PKG_VERSION"));
            let listing = dxbc::listing(&container, &generator, &options);
            self.input.checked_py(py, Ok(()))?;
            let listing = listing.map_err(|e| crate::error::disasm_to_py(py, e, file))?;
            return match listing.errors.into_iter().next() {
                Some(e) => Err(crate::error::disasm_to_py(py, e, file)),
                None => Ok((listing.text, Dialect::Dxbc)),
            };
        }
        let release = match release {
            None => None,
            Some(format) => Some(format.dxc().ok_or_else(|| {
                PyValueError::new_err("a DXIL container's listing takes a dxc release")
            })?),
        };
        let options = ListingOptions {
            part,
            release,
            flags,
        };
        let listing = container_listing(&container, &options);
        self.input.checked_py(py, Ok(()))?;
        let listing = listing.map_err(|e| crate::error::listing_to_py(py, e, file))?;
        Ok((listing, Dialect::Dxil))
    }
}

#[pymethods]
impl Container {
    /// Opens the container (or dxc companion PDB) at `path`, memory-mapped.
    ///
    /// Raises dxcopy.Error when the file cannot be read or is not a valid
    /// container; the message is the one the dxcopy command prints.
    #[staticmethod]
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<Container> {
        let name = path.to_string_lossy().into_owned();
        let loaded = py.detach(|| {
            let file = MappedFile::open(&path).map_err(|e| (EditError::io(&path, e), None))?;
            Input::load(file, Some(path.clone()), name)
        });
        match loaded {
            Ok(input) => Ok(Container {
                input: Arc::new(input),
            }),
            Err((e, _)) => Err(to_py(py, &e, Some(&path))),
        }
    }

    /// A container from bytes in memory (any bytes-like object; copied;
    /// anything else, such as str, int or a list of ints, is a TypeError).
    ///
    /// `name` is how `to_dict()` names the input (dxinfo says `-` for stdin).
    #[staticmethod]
    #[pyo3(signature = (data, name = "-"))]
    fn from_bytes(py: Python<'_>, data: &Bound<'_, PyAny>, name: &str) -> PyResult<Container> {
        let bytes = buffer_bytes(data)?;
        let file = MappedFile::from_vec(bytes);
        match Input::load(file, None, name.to_string()) {
            Ok(input) => Ok(Container {
                input: Arc::new(input),
            }),
            Err((e, _)) => Err(to_py(py, &e, None)),
        }
    }

    /// The file the container was opened from (None for bytes).
    #[getter]
    fn path(&self) -> Option<String> {
        self.input
            .path
            .as_deref()
            .map(|p| p.to_string_lossy().into_owned())
    }

    /// Whether the input is a dxc companion PDB (the container is its stream 5).
    #[getter]
    fn is_pdb(&self) -> bool {
        self.input.is_pdb()
    }

    /// The parts in offset-table order.
    #[getter]
    fn parts(&self, py: Python<'_>) -> PyResult<Vec<Part>> {
        self.part_objects(py)
    }

    /// The kind of the header digest, as dxinfo names it: "retail", "debug",
    /// "zero", "bypass", "preview", "invalid" or "copied" (only the first
    /// three and "invalid" occur outside PDBs).
    #[getter]
    fn digest_kind(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.input.parsed(py)?.digest_kind().as_str())
    }

    /// The stored header digest, as 32 lower-case hex digits.
    #[getter]
    fn digest(&self, py: Python<'_>) -> PyResult<String> {
        Ok(dxcopy_read::fields::hex(
            &self.input.parsed(py)?.header().digest,
        ))
    }

    /// The container format version, (major, minor).
    #[getter]
    fn version(&self, py: Python<'_>) -> PyResult<(u16, u16)> {
        let c = self.input.parsed(py)?;
        Ok((c.header().major, c.header().minor))
    }

    /// The container's bytes (for a PDB input, the container in its stream 5).
    ///
    /// Raises dxcopy.Error when the opened file was truncated or rewritten
    /// since it was opened.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = PyBytes::new(py, self.input.bytes());
        self.input.checked_py(py, Ok(bytes))
    }

    /// The decoded part `name` (the first of that name): the same dict as
    /// the part's `decoded` object in `dxinfo --json` (its "kind" says which
    /// decoder; "unknown" when there is none; program parts holding bitcode
    /// add "module", the module facts, or "module_error").
    ///
    /// Raises KeyError when there is no such part and dxcopy.Error when the
    /// part does not decode.
    fn decode<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let wanted = self.require(py, name)?;
        let container = self.input.parsed(py)?;
        let part = container
            .part(wanted.index)
            .ok_or_else(|| PyKeyError::new_err(name.to_string()))?;
        let inspected = Inspected::new(&container, part, true);
        let decoded = json::decoded_doc(&inspected);
        self.input.checked_py(py, Ok(()))?;
        match decoded {
            Ok(doc) => to_python(py, &doc),
            Err(e) => Err(read_to_py(py, e.clone(), self.input.path.as_deref())),
        }
    }

    /// The whole `dxinfo --json` document of this container, as a dict:
    /// schema, file, header, parts (each with its decoded object or error),
    /// pdb (for a PDB input) and verify. Equal to `json.loads` of what
    /// `dxinfo --json FILE` prints; `file` is the path the container was
    /// opened with (or the `name` given to from_bytes).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let input = &self.input;
        let text = py
            .detach(|| -> Result<_, EditError> {
                let insp = input.inspection();
                input.checked(
                    insp.map_err(EditError::from)
                        .map(|insp| serde_json::to_string(&json::document(&input.name, &insp))),
                )
            })
            .map_err(|e| self.input.error(py, e))?
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// Shader reflection (docs/reflection.md): what ID3D12ShaderReflection
    /// (or, for a library, ID3D12LibraryReflection) reports, as a dict equal
    /// to `json.loads` of what `dxinfo --reflect FILE` prints; `file` is the
    /// path the container was opened with (or the `name` given to
    /// from_bytes). Its "notes" name what the container does not record.
    ///
    /// Raises dxcopy.Error when a part reflection reads does not decode.
    fn reflect<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let container = self.input.parsed(py)?;
        let reflection = Reflection::from_container(&container);
        self.input.checked_py(py, Ok(()))?;
        let reflection = reflection.map_err(|e| read_to_py(py, e, self.input.path.as_deref()))?;
        let mut text = Vec::new();
        reflect::write_json(&mut text, &self.input.name, &reflection, false)
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        py.import("json")?
            .call_method1("loads", (String::from_utf8_lossy(&text),))
    }

    /// Checks the digest, the HASH part, the structure and every part, as
    /// `dxinfo --verify` does: a list of Finding, in the order dxinfo prints
    /// them. The container is clean (dxinfo says OK) when every finding's
    /// level is "note".
    fn verify(&self, py: Python<'_>) -> PyResult<Vec<Finding>> {
        let input = &self.input;
        let checks = py
            .detach(|| -> Result<Vec<dxcopy_read::Finding>, EditError> {
                let checks = input.inspection().map(|insp| verify(&insp).checks);
                input.checked(checks.map_err(EditError::from))
            })
            .map_err(|e| self.input.error(py, e))?;
        Ok(checks
            .into_iter()
            .map(|finding| Finding { finding })
            .collect())
    }

    /// The listing of this container, as ``dxinfo --disasm`` prints it: for
    /// DXIL dxc's (``dxc -dumpbin``: the comment header, then the module as
    /// LLVM 3.7 prints it) for the dxc release that wrote it; for DXBC (an
    /// SHDR or SHEX part, no DXIL) the listing Microsoft's disassembler
    /// writes (``fxc /Fc``), its ``// Generated by`` line naming dxcopy.
    /// `part` is "DXIL" or "ILDB" (default: ILDB when present, as dxc);
    /// `release` a dxc release such as "1.7" or "1.8.2403", or for DXBC an
    /// fxc release such as "6.3" or "10.1", to print as instead.
    /// `numbers`, `offsets` and `hex` are fxc's and dxc's ``/Ni``, ``/No``
    /// and ``/Lx`` (``dxinfo --disasm-numbers``, ``--disasm-offsets``,
    /// ``--disasm-hex``): for DXIL only `offsets` is taken (the bit offset
    /// of each instruction's record, as a comment; dxc prints nothing).
    ///
    /// With `html=True` the listing is a colour-coded HTML page, as
    /// ``dxinfo --disasm-html`` writes it (titled with the file's path).
    ///
    /// Raises dxcopy.Error when the module or a part the header reads does
    /// not decode (the message names the bit offset where decoding
    /// stopped), when a DXBC token stream is malformed (naming its byte
    /// offset), or when a flag dxc does not implement is asked of DXIL;
    /// ValueError for a bad `part` or `release`. With `html=True` the
    /// listing is a colour-coded HTML page, as ``dxinfo --disasm-html``
    /// writes it (titled with the file's path).
    #[pyo3(signature = (part = None, release = None, numbers = false, offsets = false, hex = false, html = false))]
    #[allow(clippy::too_many_arguments)] // the Python keyword arguments
    fn disassemble(
        &self,
        py: Python<'_>,
        part: Option<&str>,
        release: Option<&str>,
        numbers: bool,
        offsets: bool,
        hex: bool,
        html: bool,
    ) -> PyResult<String> {
        use dxcopy_read::listing::markup::page;
        let (listing, dialect) = self.listing(py, part, release, numbers, offsets, hex)?;
        if !html {
            return Ok(listing);
        }
        let title = self.path().unwrap_or_else(|| "listing".into());
        let page = page(listing.as_bytes(), &title, dialect);
        // The page adds ASCII markup to UTF-8 text.
        Ok(String::from_utf8_lossy(&page).into_owned())
    }

    /// The module of program part `name` ("DXIL", "ILDB" or "STAT" from
    /// dxc) as a `dxcopy.Module`, to list and change constants and write
    /// back (`Module.to_program()`).
    ///
    /// Raises KeyError when there is no such part and dxcopy.Error when the
    /// part is not a program or its module does not read.
    #[pyo3(signature = (name = "DXIL"))]
    fn module(&self, py: Python<'_>, name: &str) -> PyResult<crate::module::Module> {
        let part = self.require(py, name)?;
        let data = part.data_slice().to_vec();
        self.input.checked_py(py, Ok(()))?;
        py.detach(|| crate::module::Module::from_program(data))
            .map_err(|e| crate::module::in_part(py, e, name, self.input.path.as_deref()))
    }

    /// A new edit of this container (see Edit). With `regex=True` the
    /// patterns of remove/only/keep are regular expressions (like --regex),
    /// otherwise globs.
    #[pyo3(signature = (*, regex = false))]
    fn edit(&self, regex: bool) -> Edit {
        let config = Config {
            match_style: if regex {
                MatchStyle::Regex
            } else {
                MatchStyle::Glob
            },
            ..Config::default()
        };
        Edit::new(Arc::clone(&self.input), config)
    }

    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Part> {
        if let Ok(name) = key.extract::<String>() {
            return self.require(py, &name);
        }
        let index: isize = key.extract()?;
        let mut parts = self.part_objects(py)?;
        let len = parts.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if at < 0 || at >= len {
            return Err(PyIndexError::new_err("part index out of range"));
        }
        Ok(parts.swap_remove(at as usize))
    }

    fn __contains__(&self, py: Python<'_>, name: &str) -> PyResult<bool> {
        Ok(self.find(py, name)?.is_some())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.input.parsed(py)?.part_count() as usize)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = PyList::new(py, self.part_objects(py)?)?;
        list.try_iter().map(Bound::into_any)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let c = self.input.parsed(py)?;
        let names: Vec<String> = c.parts().map(|p| p.name.to_string()).collect();
        Ok(format!(
            "<dxcopy.Container {:?} parts=[{}] digest={}>",
            self.input.name,
            names.join(", "),
            c.digest_kind().as_str()
        ))
    }
}

/// One part of a container: its name, where it lies and its data.
#[pyclass(module = "dxcopy", frozen)]
pub struct Part {
    input: Arc<Input>,
    /// Index in the offset table.
    #[pyo3(get)]
    index: u32,
    /// The four-character name (non-printable bytes as \xNN, as dxinfo shows them).
    #[pyo3(get)]
    name: String,
    /// Offset of the part's 8-byte header in the container.
    #[pyo3(get)]
    offset: u64,
    /// Offset of the part's data in the container (offset + 8).
    #[pyo3(get)]
    data_offset: u64,
    /// Size of the part's data in bytes.
    #[pyo3(get)]
    size: u32,
}

impl Part {
    fn data_slice(&self) -> &[u8] {
        let start = usize::try_from(self.data_offset).unwrap_or(usize::MAX);
        let end = start.saturating_add(self.size as usize);
        // The container was checked when opened, so the range lies inside it.
        self.input.bytes().get(start..end).unwrap_or_default()
    }
}

#[pymethods]
impl Part {
    /// The part's data (a copy, as bytes).
    ///
    /// Raises dxcopy.Error when the opened file was truncated or rewritten
    /// since it was opened.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = PyBytes::new(py, self.data_slice());
        self.input.checked_py(py, Ok(bytes))
    }

    /// CRC-32 (IEEE) of the data, as dxinfo shows it.
    #[getter]
    fn crc32(&self, py: Python<'_>) -> PyResult<u32> {
        let c = self.input.parsed(py)?;
        let crc = c.part(self.index).map(|p| p.crc32());
        self.input.checked_py(py, Ok(()))?;
        crc.ok_or_else(|| PyIndexError::new_err("part index out of range"))
    }

    fn __repr__(&self) -> String {
        format!(
            "<dxcopy.Part {} index={} offset={:#x} size={}>",
            self.name, self.index, self.offset, self.size
        )
    }
}

/// One finding of Container.verify(): a line of `dxinfo --verify`.
#[pyclass(module = "dxcopy", frozen, eq)]
#[derive(PartialEq, Eq)]
pub struct Finding {
    finding: dxcopy_read::Finding,
}

#[pymethods]
impl Finding {
    /// How serious it is: "note" (informational; the container still
    /// passes), "warning" or "error" (the container fails verification).
    #[getter]
    fn level(&self) -> &'static str {
        match self.finding.severity() {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// The sentence dxinfo prints after the level.
    #[getter]
    fn message(&self) -> String {
        self.finding.to_string()
    }

    /// What was found, as a name ("DuplicateName", "HashMismatch",
    /// "FlagsSet", ...): the Rust library's `FindingKind` variant.
    #[getter]
    fn kind(&self) -> String {
        self.finding.kind.name()
    }

    /// The name of the part it is about (None when it is about the header
    /// or the whole container).
    #[getter]
    fn part(&self) -> Option<String> {
        self.finding.part.map(|p| p.name.to_string())
    }

    /// The index in the offset table of that part.
    #[getter]
    fn part_index(&self) -> Option<u32> {
        self.finding.part.map(|p| p.index)
    }

    /// The absolute byte offset in the container of the bytes at fault,
    /// when known.
    #[getter]
    fn offset(&self) -> Option<u64> {
        self.finding.offset
    }

    /// Whether the finding makes the container fail (a warning or an error).
    #[getter]
    fn is_problem(&self) -> bool {
        self.finding.severity() != Severity::Note
    }

    /// `level: message`, the line dxinfo --verify prints after the file name.
    fn __str__(&self) -> String {
        format!("{}: {}", self.level(), self.message())
    }

    fn __repr__(&self) -> String {
        let part = match self.finding.part {
            Some(p) => format!(" part={}:{}", p.index, p.name),
            None => String::new(),
        };
        let offset = self
            .finding
            .offset
            .map(|o| format!(" offset={o:#x}"))
            .unwrap_or_default();
        format!(
            "<dxcopy.Finding {}{part}{offset}: {:?}>",
            self.level(),
            self.message()
        )
    }
}
