"""Container, Part and decode() against dxinfo --json, on the project's sample
and on corpus files."""

import json
import os
import shutil

import pytest

import dxcopy
from conftest import SAMPLE, corpus_files, run


def dxinfo_json(path):
    return json.loads(run("dxinfo", "--json", path).stdout)


def check_against_dxinfo(path):
    """Every Container and Part attribute, and decode() of every part, equal
    what dxinfo --json says about `path`."""
    doc = dxinfo_json(path)
    c = dxcopy.Container.open(path)
    assert c.path == str(path)
    assert c.digest_kind == doc["header"]["digest_kind"]
    assert c.digest == doc["header"]["digest"]
    assert c.version == (doc["header"]["major"], doc["header"]["minor"])
    assert c.is_pdb == ("pdb" in doc)
    assert len(c) == doc["header"]["part_count"] == len(c.parts)
    raw = c.to_bytes()
    assert len(raw) == doc["header"]["file_length"]
    for part, want in zip(c.parts, doc["parts"]):
        assert part.index == want["index"]
        assert part.name == want["name"]
        assert part.offset == want["offset"]
        assert part.data_offset == want["data_offset"]
        assert part.size == want["size"]
        assert part.crc32 == want["crc32"]
        assert part.data == raw[part.data_offset : part.data_offset + part.size]
        first = next(p for p in doc["parts"] if p["name"] == part.name)
        if first["error"] is None:
            assert c.decode(part.name) == first["decoded"], part.name
        else:
            with pytest.raises(dxcopy.Error) as e:
                c.decode(part.name)
            assert str(e.value) == f"'{path}': {first['error']}"
    return c, doc


def test_sample_matches_dxinfo():
    c, doc = check_against_dxinfo(SAMPLE)
    assert [p.name for p in c.parts] == ["SFI0", "ILDN", "HASH", "DXIL", "ILDB", "STAT", "PRIV"]
    assert c.decode("DXIL")["kind"] == "program"
    assert c.decode("ILDN")["name"] == "sample.pdb"


def test_lookup_by_name_and_index():
    c = dxcopy.Container.open(SAMPLE)
    assert c["DXIL"].index == 3
    assert c[0].name == "SFI0"
    assert c[-1].name == "PRIV"
    assert "ILDB" in c and "RTS0" not in c
    assert [p.name for p in c] == [p.name for p in c.parts]
    with pytest.raises(KeyError):
        c["RTS0"]
    with pytest.raises(KeyError):
        c.decode("RTS0")
    with pytest.raises(IndexError):
        c[7]
    assert isinstance(c["DXIL"].data, bytes)
    assert "DXIL" in repr(c) and "DXIL" in repr(c["DXIL"])


def test_from_bytes_equals_open():
    data = SAMPLE.read_bytes()
    for given in (data, bytearray(data), memoryview(data)):
        c = dxcopy.Container.from_bytes(given)
        assert c.path is None
        assert c.to_bytes() == data
        assert [(p.name, p.offset, p.size, p.data) for p in c.parts] == [
            (p.name, p.offset, p.size, p.data) for p in dxcopy.Container.open(SAMPLE).parts
        ]
    with pytest.raises(TypeError):
        dxcopy.Container.from_bytes("DXBC")


def test_open_accepts_pathlike():
    c = dxcopy.Container.open(SAMPLE)
    assert dxcopy.Container.open(str(SAMPLE)).to_bytes() == c.to_bytes()


def test_replaced_file_keeps_old_data(tmp_path):
    """An opened file is mapped: replacing it (as every dxcopy edit does, and
    as os.replace does) leaves the Container on the old data."""
    path = tmp_path / "a.dxil"
    shutil.copyfile(SAMPLE, path)
    old = path.read_bytes()
    c = dxcopy.Container.open(path)
    ildb = c["ILDB"].data
    # Replaced by a rename, twice: by another file and by an edit of itself.
    other = tmp_path / "other.dxil"
    other.write_bytes(dxcopy.Container.open(SAMPLE).edit().strip("all").finish())
    os.replace(other, path)
    assert "ILDB" not in dxcopy.Container.open(path)
    assert c.to_bytes() == old
    assert c["ILDB"].data == ildb
    assert c.decode("ILDN")["name"] == "sample.pdb"
    c.edit().strip("debug").write(path)
    assert c.to_bytes() == old
    assert "ILDB" in c and "ILDB" not in dxcopy.Container.open(path)
    # The replaced original can still be edited from the old mapping.
    run("dxcopy", "-R", "STAT", SAMPLE, tmp_path / "cli.dxil")
    assert c.edit().remove("STAT").finish() == (tmp_path / "cli.dxil").read_bytes()


def test_corpus_dxil_and_dxbc_match_dxinfo():
    files = corpus_files(kind={"dxil"}, limit=40) + corpus_files(kind={"dxbc"}, limit=40)
    for path in files:
        check_against_dxinfo(path)


def test_corpus_pdb_inputs_like_the_cli():
    """A dxc companion PDB opens as the container in its stream 5."""
    checked = 0
    for path in corpus_files(kind={"msf-pdb"}, limit=30):
        cp = run("dxinfo", "--json", path, check=False)
        if cp.returncode != 0:
            # fxc PDBs hold no container: the same error from both.
            with pytest.raises(dxcopy.Error) as e:
                dxcopy.Container.open(path)
            assert str(e.value) in cp.stderr.decode()
            continue
        c, doc = check_against_dxinfo(path)
        assert c.is_pdb and "pdb" in doc
        checked += 1
    assert checked > 0
