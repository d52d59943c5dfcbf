//! `dxcopy.Module` and `dxcopy.Constant`: a DXIL module read into the
//! library's model, its constants listed and changed, and the module
//! written back as dxc writes bitcode.

use crate::buffer::buffer_bytes;
use crate::error::Error;
use dxcopy_edit::bitcode::{write_module, write_program};
use dxcopy_edit::constants::{self, NewValue, Scalar, Scope};
use dxcopy_read::dxil::metadata::DxilMetadata;
use dxcopy_read::dxil::{Module as Model, ValueId};
use dxcopy_read::program::{build_program_data, is_program_data, BITCODE_MAGIC};
use dxcopy_read::{Container, PartName, Program};
use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt};

/// A DXIL module (the LLVM 3.7 bitcode of a DXIL, ILDB or STAT part),
/// made by `dxcopy.read_module(data)` or `Container.module(name)`.
///
/// `constants()` lists its constants, `set_constant()` changes a scalar
/// constant's value in place, `to_bitcode()` writes the module as dxc
/// writes bitcode (an unchanged module gives back the bytes it was read
/// from) and `to_program()` the program part around it, for
/// `Container.edit().update(name, data)`.
///
/// Example (the specialization-constant patch):
///
///     c = dxcopy.Container.open("shader.dxil")
///     m = c.module("DXIL")
///     k = next(k for k in m.constants() if k.type == "float" and k.value == 2.0)
///     m.set_constant(k.id, 0.5, function=k.function)
///     out = c.edit().update("DXIL", m.to_program()).rebuild_parts().finish(digest="retail")
#[pyclass(module = "dxcopy")]
pub struct Module {
    model: Model,
    /// The program part the module was read from, kept for `to_program()`.
    template: Option<Vec<u8>>,
}

/// One constant of a module, as `Module.constants()` lists it.
#[pyclass(module = "dxcopy", frozen, get_all)]
pub struct Constant {
    /// The value ID (`%N` in the module's numbering, or the function's for
    /// a function-local constant).
    id: u32,
    /// The function whose CONSTANTS block holds it; None for a module constant.
    function: Option<String>,
    /// The type as LLVM prints it ("i32", "float", "<4 x float>", …).
    r#type: String,
    /// The record form: "integer", "float", "null", "undef", "aggregate",
    /// "string", "data", "expression", "blockaddress" or "inline asm".
    kind: &'static str,
    /// The value of a scalar integer (int; i1 as bool) or floating-point
    /// (float) constant, a null of such a type being 0; None otherwise.
    value: Py<PyAny>,
    /// Whether metadata names the constant (set_constant refuses it).
    in_metadata: bool,
}

#[pymethods]
impl Constant {
    fn __repr__(&self, py: Python<'_>) -> String {
        let value = self
            .value
            .bind(py)
            .repr()
            .map_or_else(|_| "?".into(), |r| r.to_string());
        let place = match &self.function {
            Some(f) => format!(" in @{f}"),
            None => String::new(),
        };
        format!(
            "<dxcopy.Constant %{}{place}: {} {} = {value}>",
            self.id, self.r#type, self.kind
        )
    }
}

fn error(message: impl std::fmt::Display) -> PyErr {
    Error::new_err(message.to_string())
}

impl Module {
    /// Reads the module of the program part `data` (a DXIL/ILDB/STAT part's data).
    pub fn from_program(data: Vec<u8>) -> PyResult<Module> {
        let model = {
            let program = Program::parse_data(&data, 0).map_err(error)?;
            Model::parse(program.bitcode).map_err(error)?
        };
        Ok(Module {
            model,
            template: Some(data),
        })
    }

    /// The scope that `function` names (None: the module).
    fn scope(&self, function: Option<&str>) -> PyResult<Scope> {
        let Some(name) = function else {
            return Ok(Scope::Module);
        };
        let found = self
            .model
            .functions
            .iter()
            .position(|f| f.body.is_some() && f.common.name == name.as_bytes());
        found
            .map(Scope::Function)
            .ok_or_else(|| PyKeyError::new_err(format!("no function body named '{name}'")))
    }

    fn function_name(&self, scope: Scope) -> Option<String> {
        match scope {
            Scope::Module => None,
            Scope::Function(i) => self
                .model
                .functions
                .get(i)
                .map(|f| String::from_utf8_lossy(&f.common.name).into_owned()),
        }
    }
}

/// The module in `data`: a container (its DXIL part), a program part's
/// data (DXIL, ILDB or STAT) or raw LLVM bitcode (`BC 0xC0DE`).
///
/// Raises dxcopy.Error when the data holds no module or the module does not
/// read (the message names where decoding stopped).
#[pyfunction]
pub fn read_module(data: &Bound<'_, PyAny>) -> PyResult<Module> {
    let bytes = buffer_bytes(data)?;
    if bytes.starts_with(b"DXBC") {
        let container = Container::parse(&bytes).map_err(error)?;
        let part = container
            .find(PartName::DXIL)
            .ok_or_else(|| error("the container has no DXIL part"))?;
        return Module::from_program(part.data.to_vec());
    }
    if is_program_data(&bytes) {
        return Module::from_program(bytes);
    }
    if bytes.starts_with(&BITCODE_MAGIC) {
        let model = Model::parse(&bytes).map_err(error)?;
        return Ok(Module {
            model,
            template: None,
        });
    }
    Err(error(
        "the data is not a container, a program part or LLVM bitcode",
    ))
}

#[pymethods]
impl Module {
    /// The names of the functions with a body, in module order.
    #[getter]
    fn functions(&self) -> Vec<String> {
        let defined = self.model.functions.iter().filter(|f| f.body.is_some());
        defined
            .map(|f| String::from_utf8_lossy(&f.common.name).into_owned())
            .collect()
    }

    /// Every constant: the module's first, then each function's, in ID order.
    fn constants(&self, py: Python<'_>) -> PyResult<Vec<Constant>> {
        let bits_of = |ty| match self.model.ty(ty) {
            Some(dxcopy_read::dxil::Type::Integer { bits }) => *bits,
            _ => 0,
        };
        constants::constants(&self.model)
            .into_iter()
            .map(|e| {
                let value = match e.value {
                    None => py.None(),
                    Some(Scalar::Int(v)) if bits_of(e.ty) == 1 => {
                        PyBool::new(py, v != 0).to_owned().into_any().unbind()
                    }
                    Some(Scalar::Int(v)) => v.into_pyobject(py)?.into_any().unbind(),
                    Some(Scalar::Float(v)) => v.into_pyobject(py)?.into_any().unbind(),
                };
                Ok(Constant {
                    id: e.id.0,
                    function: self.function_name(e.scope),
                    r#type: e.type_name,
                    kind: e.kind,
                    value,
                    in_metadata: e.in_metadata,
                })
            })
            .collect()
    }

    /// Gives the scalar constant `id` (of `function`, None for a module
    /// constant) the value `value`: an int (or bool) for an integer type,
    /// signed or unsigned within its width; an int or float for `half`,
    /// `float` and `double`, rounded to the type. Every use of the constant
    /// in its scope sees the new value. Returns False when the constant
    /// kept its ID; True when another constant of the type already had the
    /// value: the two are one constant now (as LLVM makes them) and the
    /// module's values were numbered again as dxc numbers them, so IDs may
    /// have changed (list `constants()` again).
    ///
    /// Raises KeyError for an unknown function, TypeError for a value that
    /// is not a number, dxcopy.Error when the constant is not a scalar, the
    /// value does not fit, or metadata names the constant. Nothing changes
    /// on error.
    #[pyo3(signature = (id, value, function = None))]
    fn set_constant(
        &mut self,
        id: u32,
        value: &Bound<'_, PyAny>,
        function: Option<&str>,
    ) -> PyResult<bool> {
        let scope = self.scope(function)?;
        let new = if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyInt>() {
            NewValue::Int(value.extract::<i128>()?)
        } else if value.is_instance_of::<PyFloat>() {
            NewValue::Float(value.extract::<f64>()?)
        } else {
            return Err(PyTypeError::new_err(
                "a constant's value is an int or a float",
            ));
        };
        let done =
            constants::set_scalar(&mut self.model, scope, ValueId(id), new).map_err(error)?;
        Ok(matches!(done, constants::Edited::Merged { .. }))
    }

    /// The module as LLVM 3.7 bitcode, written as dxc writes it.
    ///
    /// Raises dxcopy.Error naming the record when the module holds
    /// something dxc's writer does not write.
    fn to_bitcode<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bitcode = py.detach(|| write_module(&self.model)).map_err(error)?;
        Ok(PyBytes::new(py, &bitcode))
    }

    /// The program part (DXIL, ILDB or STAT data) holding the module: the
    /// part it was read from with the new bitcode and sizes, or, for a
    /// module read from raw bitcode, a new part from the module's
    /// `dx.shaderModel` and `dx.version`.
    fn to_program<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let data = match &self.template {
            Some(template) => write_program(template, &self.model).map_err(error)?,
            None => {
                let metadata = DxilMetadata::read(&self.model).map_err(error)?;
                let model = metadata.shader_model.as_ref();
                let (Some(model), Some((dxil_major, dxil_minor))) = (model, metadata.dxil_version)
                else {
                    return Err(error(
                        "the module has no dx.shaderModel or dx.version to make a program header from",
                    ));
                };
                let Some(kind) = model.kind else {
                    return Err(error(
                        "the module's dx.shaderModel names no DXIL shader kind",
                    ));
                };
                let bitcode = write_module(&self.model).map_err(error)?;
                build_program_data(
                    model.major as u8,
                    model.minor as u8,
                    kind,
                    dxil_major as u8,
                    dxil_minor as u8,
                    &bitcode,
                )
            }
        };
        Ok(PyBytes::new(py, &data))
    }

    fn __repr__(&self) -> String {
        let count = constants::constants(&self.model).len();
        format!(
            "<dxcopy.Module functions={:?} constants={count}>",
            self.functions()
        )
    }
}

/// `e` about part `name` of the container at `path`: the message says the
/// part, and the exception's `part` and `path` are set.
pub fn in_part(py: Python<'_>, e: PyErr, name: &str, path: Option<&std::path::Path>) -> PyErr {
    if !e.is_instance_of::<Error>(py) {
        return e;
    }
    let err = error(format!("part '{name}': {}", e.value(py)));
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("part", name)?;
        value.setattr("path", path.map(|p| p.display().to_string()))?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}
