"""Misuse that must fail cleanly: an opened, memory-mapped file
shrunk or rewritten in place under a Container, and objects that are not
bytes-like where data is expected."""

import array
import mmap
import os
import sys

import pytest

import dxcopy
from conftest import SAMPLE, run

# Larger than the 256 KiB up to which an opened file is read instead of mapped.
PADDING = 300_000


@pytest.fixture
def mapped(tmp_path):
    """A container large enough to be memory-mapped when opened, written to
    a temp file; returns (path, its bytes)."""
    data = dxcopy.Container.open(SAMPLE).edit().set_private(b"x" * PADDING).finish()
    path = tmp_path / "big.dxil"
    path.write_bytes(data)
    return path, data


OPERATIONS = {
    "to_bytes": lambda c, out: c.to_bytes(),
    "write": lambda c, out: c.edit().strip("reflect").write(out),
    "finish": lambda c, out: c.edit().strip("reflect").finish(),
    "parts": lambda c, out: c.parts,
    "part data": lambda c, out: c["PRIV"].data,
    "decode": lambda c, out: c.decode("DXIL"),
    "to_dict": lambda c, out: c.to_dict(),
    "verify": lambda c, out: c.verify(),
}


@pytest.mark.skipif(sys.platform != "linux", reason="the fault guard of mapped files is Linux's")
@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_a_shrunk_mapped_file_raises_like_the_cli(mapped, tmp_path, operation):
    path, data = mapped
    c = dxcopy.Container.open(path)
    assert c.to_bytes() == data
    os.truncate(path, 100)
    out = tmp_path / "out.dxil"
    with pytest.raises(dxcopy.Error) as e:
        OPERATIONS[operation](c, out)
    assert str(e.value) == f"'{path}': it was truncated while it was read; nothing was written"
    assert e.value.path is None or e.value.path == str(path)
    # No output, no temp file; the input is left as it was made.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.dxil"]
    assert path.stat().st_size == 100


@pytest.mark.skipif(sys.platform != "linux", reason="the fault guard of mapped files is Linux's")
def test_a_mapped_file_rewritten_in_place_raises(mapped, tmp_path):
    path, data = mapped
    # An old modification time, so the rewrite below surely moves it.
    os.utime(path, (1_000_000_000, 1_000_000_000))
    c = dxcopy.Container.open(path)
    with open(path, "r+b") as f:
        f.seek(len(data) - 10)
        f.write(b"y" * 10)
    for operation in ("to_bytes", "write", "finish"):
        with pytest.raises(dxcopy.Error) as e:
            OPERATIONS[operation](c, tmp_path / "out.dxil")
        assert str(e.value) == f"'{path}': it was modified while it was read; nothing was written"
    assert not (tmp_path / "out.dxil").exists()


def test_an_unchanged_mapped_file_still_works(mapped, tmp_path):
    path, data = mapped
    c = dxcopy.Container.open(path)
    out = tmp_path / "out.dxil"
    c.edit().strip("reflect").write(out)
    run("dxcopy", "--strip-reflect", path, tmp_path / "cli.dxil")
    assert out.read_bytes() == (tmp_path / "cli.dxil").read_bytes()
    # Edited in place (a new file renamed over it): the Container keeps the old bytes.
    c.edit().strip("reflect").write(path)
    assert c.to_bytes() == data


NOT_BYTES = [5, 0, 10**11, -1, [1, 2, 3], (68, 88), 1.5, None, "DXBC", {"a": 1}]


def type_error_text(value):
    return f"expected a bytes-like object, not {type(value).__name__}"


BYTES_TAKING = {
    "Container.from_bytes": lambda v: dxcopy.Container.from_bytes(v),
    "Edit.add": lambda v: dxcopy.Container.open(SAMPLE).edit().add("XXXX", v),
    "Edit.update": lambda v: dxcopy.Container.open(SAMPLE).edit().update("PRIV", v),
    "Edit.set_private": lambda v: dxcopy.Container.open(SAMPLE).edit().set_private(v),
}


@pytest.mark.parametrize("entry", list(BYTES_TAKING))
@pytest.mark.parametrize("value", NOT_BYTES, ids=repr)
def test_a_non_bytes_argument_is_a_type_error(entry, value):
    with pytest.raises(TypeError) as e:
        BYTES_TAKING[entry](value)
    assert str(e.value) == type_error_text(value)


@pytest.mark.parametrize("entry", list(BYTES_TAKING))
def test_every_buffer_protocol_object_is_taken(entry, tmp_path):
    data = SAMPLE.read_bytes() if entry == "Container.from_bytes" else b"blob data"
    blob = tmp_path / "blob"
    blob.write_bytes(data)
    with open(blob, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped_blob:
        given = [data, bytearray(data), memoryview(data), array.array("B", data), mapped_blob]
        results = []
        for value in given:
            result = BYTES_TAKING[entry](value)
            results.append(result.to_bytes() if entry == "Container.from_bytes" else result.finish())
    assert len(set(results)) == 1
