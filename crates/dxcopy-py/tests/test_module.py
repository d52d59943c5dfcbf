"""dxcopy.read_module / Container.module: a DXIL module's constants listed and
changed, the module written back, its parts rebuilt and the container
re-signed; and examples/patch_constant.py, which does all of it."""

import os
import re
import shutil
import subprocess
import sys

import pytest

import dxcopy
from conftest import CORPUS, ROOT, corpus_files, run

# The dxc-compiled pixel shader in examples/ (DXIL, ILDB, STAT, HASH, …).
FRAG = ROOT / "examples" / "learn-sdl-gpu" / "shader.frag.dxil"
EXAMPLE = ROOT / "examples" / "patch_constant.py"


def llvm_dis():
    for candidate in ("/usr/lib/llvm-22/bin/llvm-dis", shutil.which("llvm-dis-22")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture
def frag():
    return dxcopy.Container.open(FRAG)


def program(c, name):
    return c[name].data


def bitcode_of(part_data):
    # The program header: the bitcode offset (from byte 8) at 16, its size at 20.
    offset = int.from_bytes(part_data[16:20], "little") + 8
    size = int.from_bytes(part_data[20:24], "little")
    return part_data[offset : offset + size]


def test_read_module_takes_a_container_a_part_or_bitcode(frag):
    dxil = program(frag, "DXIL")
    bitcode = bitcode_of(dxil)
    assert bitcode[:4] == b"BC\xc0\xde"
    for data in (frag.to_bytes(), dxil, bitcode, bytearray(bitcode), memoryview(dxil)):
        m = dxcopy.read_module(data)
        assert m.functions == ["main"]
        assert m.to_bitcode() == bitcode
    assert dxcopy.read_module(dxil).to_program() == dxil
    # From raw bitcode the header comes from dx.shaderModel and dx.version.
    assert dxcopy.read_module(bitcode).to_program() == dxil


def test_read_module_errors(frag):
    with pytest.raises(dxcopy.Error, match="not a container, a program part or LLVM bitcode"):
        dxcopy.read_module(b"hello")
    with pytest.raises(TypeError):
        dxcopy.read_module("DXIL")
    cut = bitcode_of(program(frag, "DXIL"))[:200]
    with pytest.raises(dxcopy.Error):
        dxcopy.read_module(cut)
    no_dxil = frag.edit().remove("DXIL").finish()
    with pytest.raises(dxcopy.Error, match="no DXIL part"):
        dxcopy.read_module(no_dxil)


def test_container_module_by_part(frag):
    assert frag.module().to_program() == program(frag, "DXIL")
    ildb = frag.module("ILDB")
    assert ildb.to_program() == program(frag, "ILDB")
    assert frag.module("STAT").to_bitcode() == bitcode_of(program(frag, "STAT"))
    with pytest.raises(KeyError):
        frag.module("RDAT")
    with pytest.raises(dxcopy.Error) as e:
        frag.module("HASH")
    assert e.value.part == "HASH" and e.value.path == str(FRAG)
    assert str(e.value).startswith("part 'HASH': ")


def test_constants_listed_with_type_value_and_scope(frag):
    ks = frag.module().constants()
    first = ks[0]
    assert (first.id, first.function, first.type, first.kind, first.value) == (3, None, "i32", "integer", 1)
    assert first.in_metadata
    by_id = {(k.function, k.id): k for k in ks}
    zero = by_id[(None, 4)]
    assert (zero.type, zero.kind, zero.value) == ("i32", "null", 0)
    data = by_id[(None, 14)]
    assert (data.type, data.kind, data.value) == ("[6 x i32]", "data", None)
    local = [(k.id, k.type, k.kind, k.value) for k in ks if k.function == "main"]
    assert local == [
        (15, "i32", "integer", 4),
        (16, "i32", "undef", None),
        (17, "i32", "integer", 5),
        (18, "i8", "integer", 1),
        (19, "i8", "integer", 3),
    ]
    assert not any(k.in_metadata for k in ks if k.function)
    assert "%19 in @main: i8 integer = 3" in repr(ks[-1])


def test_set_constant_changes_the_written_module(frag):
    m = frag.module()
    before = m.to_bitcode()
    m.set_constant(19, 7, function="main")
    after = m.to_bitcode()
    assert after != before and len(after) == len(before)
    back = dxcopy.read_module(after)
    assert [k.value for k in back.constants() if k.function == "main"][-1] == 7
    # Unsigned spelling of a negative i8, and back.
    m.set_constant(19, 0xF0, function="main")
    assert m.constants()[-1].value == -16
    m.set_constant(19, 3, function="main")
    assert m.to_bitcode() == before


def test_set_constant_to_another_constant_s_value_merges_them(frag):
    m = frag.module()
    main = [k for k in m.constants() if k.function == "main" and k.type == "i8"]
    assert [k.value for k in main if k.id in (18, 19)] == [1, 3]
    assert m.set_constant(19, 1, function="main") is True
    after = [k for k in m.constants() if k.function == "main" and k.type == "i8"]
    # One constant fewer: %19's uses are %18's now, and nothing is 3.
    assert len(after) == len(main) - 1
    assert 3 not in [k.value for k in after]
    back = dxcopy.read_module(m.to_bitcode())
    assert back.to_bitcode() == m.to_bitcode()
    assert m.set_constant(after[0].id, after[0].value, function="main") is False


def test_set_constant_refusals_change_nothing(frag):
    m = frag.module()
    before = m.to_bitcode()
    with pytest.raises(dxcopy.Error, match="named by metadata"):
        m.set_constant(3, 99)
    with pytest.raises(dxcopy.Error, match="256 does not fit constant %19's type i8"):
        m.set_constant(19, 256, function="main")
    with pytest.raises(dxcopy.Error, match="give an integer"):
        m.set_constant(19, 1.5, function="main")
    with pytest.raises(dxcopy.Error, match="undef of type i32, not an integer"):
        m.set_constant(16, 1, function="main")
    with pytest.raises(dxcopy.Error, match="not a constant of function @main"):
        m.set_constant(2, 1, function="main")
    with pytest.raises(KeyError, match="no function body named 'nope'"):
        m.set_constant(19, 1, function="nope")
    with pytest.raises(TypeError):
        m.set_constant(19, "7", function="main")
    assert m.to_bitcode() == before


def test_rebuild_parts_restores_removed_parts(frag):
    original = frag.to_bytes()
    rebuilt = frag.edit().remove("PSV0").remove("SFI0").rebuild_parts().finish()
    assert rebuilt == original


def test_patch_update_rebuild_and_resign(frag, tmp_path):
    m = frag.module()
    m.set_constant(19, 7, function="main")
    d = frag.module("ILDB")
    k = [k for k in d.constants() if k.function == "main" and k.value == 3][0]
    d.set_constant(k.id, 7, function="main")
    edit = frag.edit().update("DXIL", m.to_program()).update("ILDB", d.to_program())
    data = edit.rebuild_parts().finish(digest="retail")
    out = dxcopy.Container.from_bytes(data)
    assert out.digest_kind == "retail"
    assert not [f for f in out.verify() if f.is_problem]
    assert out.module().to_bitcode() == m.to_bitcode()
    path = tmp_path / "patched.dxil"
    path.write_bytes(data)
    assert run("dxinfo", "--verify", path).stdout.decode().endswith(
        "OK (digest retail, HASH valid, 9 of 9 parts decoded)\n"
    )


def run_example(*args):
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *map(str, args)], capture_output=True, text=True
    )


def disassembled(path, tmp_path):
    dis = llvm_dis()
    if dis is None:
        return None
    bc = tmp_path / "dxil.bc"
    run("dxcopy", f"--dump-bitcode=DXIL={bc}", path)
    return subprocess.run([dis, str(bc), "-o", "-"], capture_output=True, text=True, check=True).stdout


def test_example_patches_the_sample(tmp_path):
    out = tmp_path / "out.dxil"
    cp = run_example(FRAG, out, "i8", "3", "7")
    assert cp.returncode == 0, cp.stderr
    assert cp.stdout == f"{out}: i8 3 -> 7, parts rebuilt, signed\n"
    assert run("dxinfo", "--verify", out).returncode == 0
    c = dxcopy.Container.open(out)
    for name in ("DXIL", "ILDB"):
        values = [k.value for k in c.module(name).constants() if k.function == "main" and k.type == "i8"]
        assert 7 in values and 3 not in values, name
    text = disassembled(out, tmp_path)
    if text is not None:
        assert "i8 7, float %4" in text and "i8 3" not in text
    # A constant metadata names: refused with the library's message, nothing written.
    bad = tmp_path / "bad.dxil"
    cp = run_example(FRAG, bad, "i32", "1", "2")
    assert cp.returncode == 1 and "named by metadata" in cp.stderr
    assert not bad.exists()


def test_example_patches_a_float_in_corpus_shaders(tmp_path):
    """A float constant of a function, changed in real dxc shaders: verify
    passes and LLVM 22 reads the new value."""
    done = 0
    for path in corpus_files(kind=("dxil",), has_part="DXIL"):
        try:
            m = dxcopy.Container.open(path).module()
        except dxcopy.Error:
            continue
        floats = [k for k in m.constants() if k.function and k.type == "float" and k.kind == "float"]
        taken = {k.value for k in floats}
        k = next((k for k in floats if k.value == 2.0 and 0.75 not in taken), None)
        if k is None:
            continue
        out = tmp_path / f"{done}.dxil"
        cp = run_example(path, out, "float", "2.0", "0.75")
        assert cp.returncode == 0, (path, cp.stderr)
        assert run("dxinfo", "--verify", out).returncode == 0, path
        text = disassembled(out, tmp_path)
        if text is not None:
            assert "7.500000e-01" in text, path
        if done == 0:
            readme_example_runs(path, tmp_path)
        done += 1
        if done == 5:
            break
    assert done == 5, f"only {done} corpus shaders with a float 2.0 constant under {CORPUS}"


def readme_example_runs(shader, tmp_path):
    """The README's constant patch, run as written on `shader`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Python: changing a constant in DXIL\n") :]
    section = section[: section.index("\n## ", 1)]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    work = tmp_path / "readme"
    work.mkdir()
    shutil.copyfile(shader, work / "shader.dxil")
    cp = subprocess.run([sys.executable, "-c", block], cwd=work, capture_output=True, text=True)
    assert cp.returncode == 0, cp.stderr
    assert "float float = 2.0>" in cp.stdout
    patched = dxcopy.Container.open(work / "patched.dxil").module()
    assert 0.75 in [k.value for k in patched.constants() if k.type == "float"]
