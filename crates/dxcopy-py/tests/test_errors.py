"""dxcopy.Error: the CLI's messages and locations, on bad, truncated and
hostile input, without ever crashing the interpreter."""

import random
import subprocess
import sys
import textwrap

import pytest

import dxcopy
from conftest import SAMPLE, cli_error


def test_error_is_a_value_error_with_attributes():
    assert issubclass(dxcopy.Error, ValueError)
    assert dxcopy.Error.path is None and dxcopy.Error.part is None and dxcopy.Error.offset is None
    with pytest.raises(ValueError):
        dxcopy.Container.from_bytes(b"not a container")


def test_missing_file_message_is_the_clis(tmp_path):
    missing = tmp_path / "missing.dxil"
    with pytest.raises(dxcopy.Error) as e:
        dxcopy.Container.open(missing)
    assert str(e.value) == cli_error("dxcopy", "-g", missing, tmp_path / "out")
    assert e.value.path == str(missing)
    assert e.value.part is None
    # Also Python's own FileNotFoundError, with errno and filename.
    assert isinstance(e.value, FileNotFoundError) and isinstance(e.value, OSError)
    assert type(e.value) is dxcopy.FileNotFoundError
    assert e.value.errno == 2 and e.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        dxcopy.Container.open("nosuch")


def test_other_errors_are_not_file_not_found(tmp_path):
    bad = tmp_path / "bad.dxil"
    bad.write_bytes(b"not a container")
    with pytest.raises(dxcopy.Error) as e:
        dxcopy.Container.open(bad)
    assert not isinstance(e.value, OSError)


def test_part_past_end_names_part_and_offset(tmp_path):
    data = bytearray(SAMPLE.read_bytes())
    c = dxcopy.Container.open(SAMPLE)
    stat = c["STAT"]
    # The STAT part's size field (4 bytes after its name) made huge.
    data[stat.offset + 4 : stat.offset + 8] = (0x7FFFFFFF).to_bytes(4, "little")
    bad = tmp_path / "bad.dxil"
    bad.write_bytes(bytes(data))
    with pytest.raises(dxcopy.Error) as e:
        dxcopy.Container.open(bad)
    assert str(e.value) == cli_error("dxcopy", "-g", bad, tmp_path / "out")
    assert e.value.path == str(bad)
    assert e.value.part == "STAT"
    assert e.value.offset == stat.offset
    assert "0x7fffffff" in str(e.value)
    # The same error from bytes has no path and no file prefix.
    with pytest.raises(dxcopy.Error) as e2:
        dxcopy.Container.from_bytes(bytes(data))
    assert e2.value.path is None
    assert str(e.value) == f"'{bad}': {e2.value}"


def test_truncated_inputs_fail_like_the_cli(tmp_path):
    data = SAMPLE.read_bytes()
    for length in [0, 3, 4, 31, 32, 40, 59, 60, 100, 2000, len(data) - 1]:
        path = tmp_path / f"t{length}.dxil"
        path.write_bytes(data[:length])
        with pytest.raises(dxcopy.Error) as e:
            dxcopy.Container.open(path)
        assert str(e.value) == cli_error("dxcopy", "-g", path, tmp_path / "out"), length
        assert e.value.offset is not None or length == 0


def test_decode_errors_name_the_part():
    data = bytearray(SAMPLE.read_bytes())
    dxil = dxcopy.Container.open(SAMPLE)["DXIL"]
    # The bitcode size of the program header (6th u32) made huge.
    data[dxil.data_offset + 20 : dxil.data_offset + 24] = (0x7FFFFFFF).to_bytes(4, "little")
    bad = dxcopy.Container.from_bytes(bytes(data))
    with pytest.raises(dxcopy.Error) as e:
        bad.decode("DXIL")
    assert e.value.part == "DXIL"
    assert e.value.offset == dxil.data_offset + 24
    assert str(e.value).startswith(f"part 3 'DXIL' at offset {dxil.offset:#x}: bitcode")
    # The other parts still decode.
    assert bad.decode("ILDB")["kind"] == "program"


HOSTILE = textwrap.dedent(
    """
    import random, sys
    import dxcopy
    data = open(sys.argv[1], "rb").read()
    rng = random.Random(int(sys.argv[2]))
    outcomes = {"ok": 0, "error": 0}
    for round in range(int(sys.argv[3])):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(mutated))
            mutated[at] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256)])
        if rng.random() < 0.3:
            del mutated[rng.randrange(len(mutated)):]
        try:
            c = dxcopy.Container.from_bytes(bytes(mutated))
        except dxcopy.Error:
            outcomes["error"] += 1
            continue
        for part in c.parts:
            part.data, part.crc32
            try:
                c.decode(part.name)
            except dxcopy.Error:
                pass
        for cls in ("debug", "all"):
            try:
                dxcopy.Container.from_bytes(c.edit().strip(cls).finish())
            except dxcopy.Error:
                pass
        outcomes["ok"] += 1
    print(outcomes["ok"], outcomes["error"])
    """
)


def test_hostile_inputs_never_crash_the_interpreter(tmp_path):
    """Mutated and truncated containers through every call, in a child
    interpreter so that a crash is reported as a failure, not a dead run."""
    script = tmp_path / "hostile.py"
    script.write_text(HOSTILE)
    cp = subprocess.run(
        [sys.executable, str(script), str(SAMPLE), "14", "400"], capture_output=True, timeout=600
    )
    assert cp.returncode == 0, cp.stderr.decode()[-2000:]
    ok, errors = map(int, cp.stdout.split())
    assert ok + errors == 400
    assert ok > 0 and errors > 0, (ok, errors)
