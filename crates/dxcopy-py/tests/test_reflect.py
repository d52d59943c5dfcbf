"""Container.reflect() against dxinfo --reflect: the same document for the
sample and for DXBC and DXIL corpus files."""

import json

import dxcopy
from conftest import SAMPLE, corpus_files, run


def check_file(path):
    """reflect() of `path` equals json.loads of `dxinfo --reflect path`."""
    cp = run("dxinfo", "--reflect", path)
    doc = json.loads(cp.stdout)
    got = dxcopy.Container.open(path).reflect()
    assert got == doc, path
    return doc


def test_sample_reflect():
    doc = check_file(SAMPLE)
    assert doc["schema"] == 1 and doc["file"] == str(SAMPLE)
    assert doc["format"] == "DXIL"
    assert doc["interface"] == "ID3D12ShaderReflection"
    assert doc["shader"]["version"]["kind"].startswith("D3D12_SHVER_")
    assert doc["shader"]["min_feature_level"] == "D3D_FEATURE_LEVEL_12_0"
    # The sample's PSV0 bindings have no names: said in the notes.
    assert isinstance(doc["notes"], list) and doc["notes"]


def test_from_bytes_reflect_names_the_given_file():
    data = SAMPLE.read_bytes()
    doc = dxcopy.Container.from_bytes(data, name="in-memory.dxil").reflect()
    assert doc["file"] == "in-memory.dxil"
    assert doc == {**dxcopy.Container.open(SAMPLE).reflect(), "file": "in-memory.dxil"}


def test_corpus_reflect_matches_dxinfo():
    dxbc = [check_file(p) for p in corpus_files(kind={"dxbc"}, limit=30)]
    dxil = [check_file(p) for p in corpus_files(kind={"dxil"}, limit=30)]
    assert dxbc and dxil
    assert all(d["format"] == "DXBC" for d in dxbc)
    assert all(d["format"] == "DXIL" for d in dxil)
    # fxc containers with RDEF name their bindings.
    named = [b for d in dxbc for b in d["bound_resources"] if b["name"]]
    assert named
