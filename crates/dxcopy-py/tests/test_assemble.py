"""dxcopy.assemble: DXIL and DXBC listings into containers, as dxasm does."""

import pytest

import dxcopy
from conftest import ROOT

FRAG = ROOT / "examples" / "learn-sdl-gpu" / "shader.frag.dxil"


def test_an_unedited_dxil_listing_gives_the_container_back():
    data = FRAG.read_bytes()
    text = dxcopy.Container.open(FRAG).disassemble(part="DXIL")
    assert dxcopy.assemble(text, into=data) == data


def test_an_edited_dxil_listing_patches_the_module():
    data = FRAG.read_bytes()
    text = dxcopy.Container.open(FRAG).disassemble(part="DXIL")
    edited = text.replace("i8 3, float %4)", "i8 3, float 1.000000e+00)")
    patched = dxcopy.Container.from_bytes(dxcopy.assemble(edited, into=data))
    assert "i8 3, float 1.000000e+00)" in patched.disassemble()
    assert "ILDB" not in [p.name for p in patched.parts]
    assert not [f for f in patched.verify() if f.is_problem]


def test_a_new_container_from_a_dxil_listing():
    text = dxcopy.Container.open(FRAG).disassemble(part="DXIL")
    built = dxcopy.Container.from_bytes(dxcopy.assemble(text))
    assert [p.name for p in built.parts] == ["SFI0", "ISG1", "OSG1", "PSV0", "HASH", "DXIL"]


def test_a_dxbc_listing_assembles_too():
    built = dxcopy.Container.from_bytes(dxcopy.assemble("ps_5_0\nret\n"))
    assert [p.name for p in built.parts] == ["SHEX"]


def test_errors_name_the_line_and_column():
    text = dxcopy.Container.open(FRAG).disassemble(part="DXIL").replace("float %3)", "i32 %3)")
    with pytest.raises(dxcopy.Error, match=r"^\d+:\d+: error: '%3' is float, expected i32$"):
        dxcopy.assemble(text, into=FRAG.read_bytes())
