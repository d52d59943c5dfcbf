"""dxcopy.pyi describes the module as built: the same classes, functions and
members, and everything public has a docstring."""

import ast
import inspect

import dxcopy
from conftest import ROOT

STUBS = ROOT / "crates" / "dxcopy-py" / "dxcopy.pyi"


def stub_tree():
    return ast.parse(STUBS.read_text(encoding="utf-8"))


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_stub_names_are_the_modules():
    tree = stub_tree()
    declared = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    # `dxcopy.dxcopy` is the extension module inside the installed package.
    assert declared == public(dir(dxcopy)) - {"dxcopy"}
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert {c.name for c in classes} >= {"Container", "Part", "Finding", "Edit", "StripResult", "Error"}
    for cls in classes:
        members = {m.name for m in cls.body if isinstance(m, ast.FunctionDef)}
        members |= {m.target.id for m in cls.body if isinstance(m, ast.AnnAssign)}
        runtime = getattr(dxcopy, cls.name)
        if cls.name == "Error":
            # ValueError's own members are not restated in the stub.
            assert public(members) == {"path", "part", "offset"}
            assert all(hasattr(runtime, m) for m in members)
            continue
        if cls.name == "FileNotFoundError":
            # Error's and the builtin FileNotFoundError's members only.
            assert public(members) == set()
            assert issubclass(runtime, dxcopy.Error) and issubclass(runtime, FileNotFoundError)
            continue
        assert public(members) == public(dir(runtime)), cls.name


def test_everything_public_has_a_docstring():
    assert dxcopy.__doc__ and dxcopy.strip_files.__doc__
    for name in public(dir(dxcopy)) - {"dxcopy"}:
        obj = getattr(dxcopy, name)
        if not inspect.isclass(obj):
            continue
        assert obj.__doc__, name
        if issubclass(obj, dxcopy.Error):
            # Its attributes are plain values, described in its docstring.
            assert all(a in dxcopy.Error.__doc__ for a in ("path", "part", "offset"))
            continue
        for member in public(dir(obj)) - public(dir(ValueError)):
            assert getattr(obj, member).__doc__, f"{name}.{member}"
