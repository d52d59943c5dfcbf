"""Read, inspect, edit and strip DirectX Container files (DXBC/DXIL shaders).

The same library as the dxcopy, dxstrip and dxinfo commands: results are
byte-identical to theirs and errors carry the same messages.
"""

import builtins
import os
from typing import Any, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union

__version__: str

StrPath = Union[str, "os.PathLike[str]"]
# Any object with the buffer protocol (also array.array, mmap.mmap); anything
# else (str, int, a list of ints) raises TypeError.
Buffer = Union[bytes, bytearray, memoryview]

class Error(ValueError):
    """A container could not be read or edited.

    ``str(error)`` is the message the dxcopy command prints for the same
    failure, except that where the command names an option, it names the
    Python method or argument. The attributes are None when not known.
    """

    path: Optional[str]
    """The file the error is about."""
    part: Optional[str]
    """The name of the part the error is about."""
    offset: Optional[int]
    """The absolute byte offset of the problem in the container."""

class FileNotFoundError(Error, builtins.FileNotFoundError):
    """A file that does not exist: a dxcopy.Error and a FileNotFoundError.

    ``str(error)`` is dxcopy's message; ``errno`` and ``filename`` are set.
    """

class Part:
    """One part of a container: its name, where it lies and its data."""

    @property
    def index(self) -> int:
        """Index in the offset table."""
    @property
    def name(self) -> str:
        """The four-character name (non-printable bytes as \\xNN, as dxinfo shows them)."""
    @property
    def offset(self) -> int:
        """Offset of the part's 8-byte header in the container."""
    @property
    def data_offset(self) -> int:
        """Offset of the part's data in the container (offset + 8)."""
    @property
    def size(self) -> int:
        """Size of the part's data in bytes."""
    @property
    def data(self) -> bytes:
        """The part's data (a copy)."""
    @property
    def crc32(self) -> int:
        """CRC-32 (IEEE) of the data, as dxinfo shows it."""

class Container:
    """A DirectX container (DXBC or DXIL), opened from a file or bytes.

    Open it with ``Container.open(path)`` (memory-mapped) or
    ``Container.from_bytes(data)``. A dxc companion PDB is accepted too: the
    container in its stream 5 is used, as by the command-line tools.
    ``c["DXIL"]`` is the first part of that name (KeyError when absent);
    ``c[0]`` the first part. An opened file keeps the data it had when it
    was opened even when the file is replaced afterwards (renamed over).
    A memory-mapped file truncated or overwritten in place afterwards makes
    every call that reads it raise Error (``'FILE': it was truncated while it
    was read; nothing was written``, as dxcopy reports it) instead of giving
    zeros or the new bytes; write() then leaves its destination untouched.
    """

    @staticmethod
    def open(path: StrPath) -> "Container":
        """Opens the container (or dxc companion PDB) at `path`, memory-mapped.

        Raises Error when the file cannot be read or is not a valid container.
        """
    @staticmethod
    def from_bytes(data: Buffer, name: str = "-") -> "Container":
        """A container from bytes in memory (copied); `name` names it in to_dict().

        `data` is any bytes-like object; anything else (str, int, a list of
        ints) raises TypeError.
        """
    @property
    def path(self) -> Optional[str]:
        """The file the container was opened from (None for bytes)."""
    @property
    def is_pdb(self) -> bool:
        """Whether the input is a dxc companion PDB (the container is its stream 5)."""
    @property
    def parts(self) -> List[Part]:
        """The parts in offset-table order."""
    @property
    def digest_kind(self) -> str:
        """The kind of the header digest as dxinfo names it: "retail", "debug",
        "zero", "bypass", "preview", "invalid" or "copied"."""
    @property
    def digest(self) -> str:
        """The stored header digest, as 32 lower-case hex digits."""
    @property
    def version(self) -> Tuple[int, int]:
        """The container format version (major, minor)."""
    def to_bytes(self) -> bytes:
        """The container's bytes (for a PDB input, the container in its stream 5)."""
    def decode(self, name: str) -> Dict[str, Any]:
        """The decoded part `name`: the part's ``decoded`` object of ``dxinfo --json``
        (program parts holding bitcode add ``module``, the module facts, or ``module_error``).

        Raises KeyError when there is no such part, Error when it does not decode.
        """
    def to_dict(self) -> Dict[str, Any]:
        """The whole ``dxinfo --json`` document of this container (schema 2).

        Keys: schema, file, header, parts (each with its ``decoded`` object or
        ``error``), pdb (for a PDB input) and verify; equal to ``json.loads``
        of what ``dxinfo --json FILE`` prints. ``file`` is the path given to
        open() or the `name` given to from_bytes().
        """
    def reflect(self) -> Dict[str, Any]:
        """Shader reflection (docs/reflection.md): what ID3D12ShaderReflection
        (or ID3D12LibraryReflection for a library) reports, equal to
        ``json.loads`` of what ``dxinfo --reflect FILE`` prints.

        Keys: schema, file, format, interface, source, shader,
        input_parameters, output_parameters, patch_constant_parameters,
        constant_buffers, bound_resources, library, functions and notes (what
        the container does not record). Raises Error when a part reflection
        reads does not decode.
        """
    def disassemble(
        self,
        part: Optional[str] = None,
        release: Optional[str] = None,
        numbers: bool = False,
        offsets: bool = False,
        hex: bool = False,
        html: bool = False,
    ) -> str:
        """The listing of this container, as ``dxinfo --disasm`` prints it.

        DXIL: the comment header, then the module as LLVM 3.7 prints it, as
        the dxc release that wrote the file printed it (``dxc -dumpbin``).
        DXBC (an SHDR or SHEX part, no DXIL): the listing Microsoft's
        disassembler writes (``fxc /Fc``), its ``// Generated by`` line
        naming dxcopy. `part` is "DXIL" or "ILDB" (default: ILDB when
        present, as dxc); `release` a dxc release such as "1.7" or
        "1.8.2403" (for DXBC an fxc release such as "6.3") to print as
        instead. `numbers`, `offsets` and `hex` are ``/Ni``, ``/No`` and
        ``/Lx`` (``dxinfo --disasm-numbers``, ``--disasm-offsets``,
        ``--disasm-hex``); DXIL takes only `offsets` (each instruction's
        record's bit offset as a comment). With `html=True` a colour-coded
        HTML page, as ``dxinfo --disasm-html``.

        Raises Error when the module or a part the header reads does not
        decode (the message names the bit offset where decoding stopped),
        when a DXBC token stream is malformed, or when `numbers` or `hex` is
        asked of DXIL (dxc implements neither); ValueError for a bad `part`
        or `release`.
        """
    def verify(self) -> List["Finding"]:
        """The findings of ``dxinfo --verify``, in its order.

        Checks the header digest, the HASH part, the structure and every
        part. The container passes (dxinfo says OK) when no finding is a
        problem, i.e. every level is "note".
        """
    def module(self, name: str = "DXIL") -> "Module":
        """The module of program part `name` ("DXIL", "ILDB" or dxc's "STAT").

        Raises KeyError when there is no such part and dxcopy.Error (with
        `part` set) when the part is not a program or its module does not read.
        """
    def edit(self, *, regex: bool = False) -> "Edit":
        """A new edit of this container; with regex=True patterns are regular expressions."""
    def __getitem__(self, key: Union[str, int]) -> Part: ...
    def __contains__(self, name: str) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Part]: ...

class Finding:
    """One finding of Container.verify(): a line of ``dxinfo --verify``.

    ``str(finding)`` is ``"level: message"``, what dxinfo prints after the
    file name. Findings compare equal when all their attributes are equal.
    """

    @property
    def level(self) -> Literal["note", "warning", "error"]:
        """How serious it is: "note" is informational (the container still
        passes); "warning" and "error" make it fail verification."""
    @property
    def message(self) -> str:
        """The sentence dxinfo prints after the level."""
    @property
    def kind(self) -> str:
        """What was found, as a name ("DuplicateName", "HashMismatch", "FlagsSet", …):
        the Rust library's ``FindingKind`` variant."""
    @property
    def part(self) -> Optional[str]:
        """The name of the part it is about (None for the header or the whole container)."""
    @property
    def part_index(self) -> Optional[int]:
        """The offset-table index of that part."""
    @property
    def offset(self) -> Optional[int]:
        """The absolute byte offset in the container of the bytes at fault, when known."""
    @property
    def is_problem(self) -> bool:
        """Whether it makes the container fail (a warning or an error)."""

class Edit:
    """An edit of a container, made by Container.edit().

    Collect edits (each call returns the Edit, so calls chain), then produce
    the result with finish() or write(). As with the dxcopy command the order
    of the calls does not matter, and the result is byte-identical to dxcopy
    given the same options.
    """

    def remove(self, pattern: str) -> "Edit":
        """Removes the parts matching `pattern` (like -R; "!pattern" excludes)."""
    def only(self, pattern: str) -> "Edit":
        """Keeps only the parts matching `pattern` (like -j; overrides remove)."""
    def keep(self, pattern: str) -> "Edit":
        """Never removes the parts matching `pattern` (like --keep-section)."""
    def strip(self, cls: str) -> "Edit":
        """Strips a class: "debug", "reflect", "priv", "rootsig" or "all"."""
    def add(self, name: str, data: Buffer) -> "Edit":
        """Adds part `name` (like --add-section; an error if it exists)."""
    def update(self, name: str, data: Buffer) -> "Edit":
        """Replaces part `name` (like --update-section; raw bitcode for DXIL/ILDB
        keeps the program header)."""
    def rebuild_parts(self) -> "Edit":
        """Rebuilds the parts derived from the DXIL module (SFI0, ISG1, OSG1,
        PSG1, PSV0, HASH) as dxc writes them, like --rebuild-parts; done after
        update(), so a module put back gets its own parts."""
    def set_private(self, data: Buffer) -> "Edit":
        """Adds or replaces the PRIV part (last, exact size), like --set-private."""
    def finish(self, digest: str = "auto", hash: str = "auto") -> bytes:
        """The edited container as bytes.

        `digest`: "auto", "retail", "debug", "zero", "keep", "bypass" or
        "preview" (like --digest); `hash`: "auto", "keep" or "update" (like --hash).
        """
    def write(
        self,
        path: StrPath,
        digest: str = "auto",
        hash: str = "auto",
        *,
        preserve_dates: bool = False,
    ) -> None:
        """Writes the edited container to `path` as dxcopy does: a temp file
        renamed over `path`; a new file gets 0666 minus the umask, an existing
        one keeps its mode (without setuid/setgid) and owner."""
    @property
    def warnings(self) -> List[str]:
        """The warnings of the last finish() or write(), as dxcopy prints them,
        with the Python method or argument where dxcopy names an option."""

class Constant:
    """One constant of a module, as Module.constants() lists it."""

    @property
    def id(self) -> int:
        """The value ID (``%N``): module-wide, or in its function's numbering."""
    @property
    def function(self) -> Optional[str]:
        """The function whose CONSTANTS block holds it; None for a module constant."""
    @property
    def type(self) -> str:
        """The type as LLVM prints it ("i32", "float", "<4 x float>", …)."""
    @property
    def kind(self) -> str:
        """The record form: "integer", "float", "null", "undef", "aggregate",
        "string", "data", "expression", "blockaddress" or "inline asm"."""
    @property
    def value(self) -> Union[int, float, bool, None]:
        """A scalar integer's (bool for i1) or float's value, widened exactly
        (a null of such a type is 0); None for the other constants."""
    @property
    def in_metadata(self) -> bool:
        """Whether metadata names the constant (Module.set_constant refuses it)."""

class Module:
    """A DXIL module: the LLVM 3.7 bitcode of a DXIL, ILDB or STAT part, read
    into the library's model. Made by read_module() or Container.module().

    Example (the specialization-constant patch; examples/patch_constant.py)::

        c = dxcopy.Container.open("shader.dxil")
        m = c.module("DXIL")
        k = next(k for k in m.constants() if k.type == "float" and k.value == 2.0)
        m.set_constant(k.id, 0.5, function=k.function)
        out = c.edit().update("DXIL", m.to_program()).rebuild_parts().finish(digest="retail")
    """

    @property
    def functions(self) -> List[str]:
        """The names of the functions with a body, in module order."""
    def constants(self) -> List[Constant]:
        """Every constant: the module's, then each function's, in ID order."""
    def set_constant(self, id: int, value: Union[int, float], function: Optional[str] = None) -> bool:
        """Gives scalar constant `id` (of `function`; None: a module constant)
        the value `value`: an int (or bool) for an integer type, signed or
        unsigned within its width; an int or float for half, float and
        double, rounded to the type. Every use of the constant in its scope
        sees the new value. Returns False when the constant kept its ID, True
        when another constant of the type already had the value: the two are
        one LLVM constant now and the module's values were numbered again as
        dxc numbers them (IDs may have changed: list constants() again).

        Raises KeyError for an unknown function, TypeError for a value that is
        not a number, dxcopy.Error when the constant is not a scalar, the value
        does not fit or metadata names the constant. Nothing changes on error.
        """
    def to_bitcode(self) -> bytes:
        """The module as LLVM 3.7 bitcode written as dxc writes it (an unchanged
        module gives back the bytes it was read from)."""
    def to_program(self) -> bytes:
        """The program part holding the module: the part it was read from with
        the new bitcode, or (read from raw bitcode) a new part whose header
        comes from dx.shaderModel and dx.version."""

class StripResult:
    """The outcome of stripping one file with strip_files()."""

    @property
    def path(self) -> str:
        """The file, as given."""
    @property
    def removed(self) -> int:
        """How many parts were removed (0 when the file failed)."""
    @property
    def error(self) -> Optional[Error]:
        """The error for this file, or None when it was stripped."""
    @property
    def warnings(self) -> List[str]:
        """Warnings for this file, as dxstrip prints them, with the Python
        method or argument where dxstrip names an option."""
    @property
    def same_as(self) -> Optional[str]:
        """The earlier path of the call that names the same file (a link, a
        hard link, another spelling), or None. A file is stripped once: this
        path's error is that file's and its removed is 0."""
    @property
    def ok(self) -> bool:
        """Whether the file was stripped (error is None)."""

def read_module(data: Buffer) -> Module:
    """The module in `data`: a container (its DXIL part), a program part's
    data (DXIL, ILDB, STAT) or raw LLVM bitcode. Raises dxcopy.Error when
    there is none or it does not read."""

def assemble(text: str, into: Optional[Buffer] = None) -> bytes:
    """Assembles a listing into a container, as dxasm does.

    `text` is a DXBC listing (Shader Model 4.0-5.1) or a DXIL listing (dxc's,
    LLVM 3.7 assembly); which is told from the text. Without `into`, a new
    signed container; with `into` (the bytes of a container), that container
    with its program replaced (DXIL: the module replaced, the parts it
    derives rebuilt, ILDB dropped when the module changed). Raises
    dxcopy.Error when the listing does not assemble (the message starts with
    `line:column: error:`) or the container cannot take it."""

def strip_files(
    paths: Sequence[StrPath],
    classes: Sequence[str] = ("debug",),
    jobs: Optional[int] = None,
) -> List[StripResult]:
    """Strips parts from many containers in place, in parallel, like dxstrip.

    Each file is edited in place as dxstrip does (a temp file renamed over
    it, permissions kept; a file that needs no change is not rewritten).
    `classes`: "debug", "reflect", "priv", "rootsig" or "all". `jobs` worker
    threads (default: two per core). One StripResult per path, in the order
    given; a bad file does not stop the others. A file reached by several
    paths (links, hard links, `x` and `./x`) is stripped once: the later
    paths' results have `same_as` set to the first path and `removed` 0.
    Directories are not walked: a directory is an error for that path. The
    GIL is released while the files are processed.
    """

def read_header(path: StrPath) -> List[Tuple[str, Container]]:
    """The arrays of a C header (fxc /Fh, dxc -Fh, .inc files), each as
    (name, Container) in file order, as `dxinfo shaders.h` shows them.

    Raises dxcopy.Error naming the line and column of a malformed array, or
    when the header holds no byte array or an array is not a container.
    """

def write_header(
    container: Container,
    name: str = "g_main",
    *,
    generator: Optional[str] = None,
    style: Optional[Literal["fxc", "dxc"]] = None,
    crlf: bool = False,
    release: Optional[str] = None,
    rounding: Literal["current", "legacy"] = "current",
) -> str:
    """The C header fxc (/Fh) or dxc (-Fh) writes for the container, as
    `dxcopy --output-format=header` writes it: the listing between `#if 0`
    and `#endif` (DXBC; a DXIL container gets none yet), then the array.

    `style` defaults to dxc's for a container with DXIL, else fxc's;
    `generator` is the compiler the `// Generated by` line names; `release`
    an fxc release for the listing's layout ("9.29", "9.30", "6.3",
    "10.0.10011", "10.1"; default: the one RDEF's creator names).
    """

def diff(a: StrPath, b: StrPath, *, exact: bool = False) -> Dict[str, Any]:
    """What differs between two containers, or two folders (containers
    matched by path), by meaning: `dxinfo --diff --json`'s document with
    `equal`, `files` (each `path` with its `changes` or `error`),
    `only_in_a` and `only_in_b`. With `exact`, what only a rebuild changes
    (digest, HASH, ILDN, offsets) counts too.
    """

def stats(paths: Sequence[StrPath], *, jobs: Optional[int] = None) -> Dict[str, Any]:
    """Where the bytes go across files and folders (walked): `dxinfo --stats
    --json`'s document (totals; per part name `count`, `files`, `bytes`,
    `share`; `structure_bytes`, `debug_bytes`, `largest`, `errors`). Runs
    on `jobs` threads (default: two per core) with the GIL released.
    """

def extract_sources(container: Container, folder: StrPath) -> Dict[str, Any]:
    """Writes the source files the container holds in SRCI below `folder`,
    as `dxcopy --extract-sources` does (never outside it). Returns `files`
    (each [path, size]), `main` (the main file's path or None) and
    `without_contents`.
    """

def survey(
    paths: Sequence[StrPath],
    columns: Optional[Sequence[str]] = None,
    *,
    scan: bool = False,
    recursive: bool = True,
    table: Optional[bool] = None,
    errors: Optional[List[str]] = None,
    member_limit: Optional[int] = None,
) -> Any:
    """One row per container in `paths` (files and folders, walked when
    `recursive`): the columns of `dxinfo --rows` (docs/rows.md), or only
    `columns` in their order. With `scan`, the containers inside any file
    (any offset, zip members, gzip streams), as `dxinfo --scan` finds them.
    Returns a `pyarrow.Table` when pyarrow is installed (`table=None`) or
    asked for (`table=True`), else a list of dicts. Inputs that could not be
    read give no row; their messages go to `errors` when a list is given.
    """

def survey_columns() -> List[Tuple[str, str]]:
    """The survey columns as (name, type), type "text", "integer" or
    "bool", in order."""

def to_parquet(rows: Any, path: StrPath) -> None:
    """Writes survey rows (a list of dicts or a pyarrow.Table) to a Parquet
    file, typed by the survey column types (needs pyarrow)."""
