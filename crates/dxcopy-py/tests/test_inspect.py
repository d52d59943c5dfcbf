"""Container.to_dict() against dxinfo --json and Container.verify() against
dxinfo --verify: the sample, corpus files (containers and dxc PDBs) and
hostile variants of the sample."""

import json
import random

import pytest

import dxcopy
from conftest import SAMPLE, corpus_files, run


def cli_json(path):
    cp = run("dxinfo", "--json", path, check=False)
    return cp, (json.loads(cp.stdout) if cp.returncode == 0 else None)


def cli_verify(path):
    """dxinfo --verify: (exit status, finding lines, summary line)."""
    cp = run("dxinfo", "--verify", path, check=False)
    lines = cp.stdout.decode().splitlines()
    return cp.returncode, lines[:-1], lines[-1] if lines else None


def check_file(path):
    """to_dict() and verify() of `path` equal dxinfo's views; a file dxinfo
    cannot read fails to open with the same message. Returns the findings
    (None when the file does not open)."""
    cp, doc = cli_json(path)
    if doc is None:
        message = cp.stderr.decode().strip()
        with pytest.raises(dxcopy.Error) as e:
            dxcopy.Container.open(path)
        assert message == f"dxinfo: error: {e.value}", path
        return None
    c = dxcopy.Container.open(path)
    assert c.to_dict() == doc, path
    status, lines, summary = cli_verify(path)
    findings = c.verify()
    assert [f"{path}: {f}" for f in findings] == lines, path
    clean = not any(f.is_problem for f in findings)
    assert clean == (status == 0) == summary.startswith(f"{path}: OK"), (path, summary)
    # The verify object of the JSON document holds the same findings.
    assert [{"level": f.level, "message": f.message} for f in findings] == doc["verify"]["checks"]
    assert doc["verify"]["clean"] == clean
    for f in findings:
        assert f.level in ("note", "warning", "error")
        if f.part is not None:
            assert c[f.part_index].name == f.part
        # An offset may lie past the end: where a size field says data is.
        assert f.offset is None or f.offset >= 0
    return findings


def test_sample_to_dict_and_verify():
    c = dxcopy.Container.open(SAMPLE)
    doc = c.to_dict()
    assert doc["schema"] == 2 and doc["file"] == str(SAMPLE)
    assert [p["name"] for p in doc["parts"]] == [p.name for p in c.parts]
    assert doc["parts"][3]["decoded"] == c.decode("DXIL")
    assert c.verify() == []
    assert check_file(SAMPLE) == []


def test_from_bytes_names_the_document():
    data = SAMPLE.read_bytes()
    by_path = dxcopy.Container.open(SAMPLE).to_dict()
    for name in ("-", "shader.dxil"):
        doc = dxcopy.Container.from_bytes(data, name=name).to_dict()
        assert doc["file"] == name
        assert {**doc, "file": by_path["file"]} == by_path


def test_findings_locate_the_problem(tmp_path):
    data = bytearray(SAMPLE.read_bytes())
    c = dxcopy.Container.open(SAMPLE)
    dxil, hash_part = c["DXIL"], c["HASH"]
    # One byte of the bitcode changed: the header digest and HASH are stale.
    data[dxil.data_offset + dxil.size - 1] ^= 0xFF
    path = tmp_path / "stale.dxil"
    path.write_bytes(bytes(data))
    findings = check_file(path)
    assert [(f.level, f.part, f.part_index, f.offset) for f in findings] == [
        ("error", None, None, 4),
        ("error", "HASH", hash_part.index, hash_part.data_offset + 4),
    ]
    assert [f.kind for f in findings] == ["DigestMismatch", "HashMismatch"]
    assert findings[0].message.startswith("header digest ")
    assert "does not match the MD5 of the DXIL bitcode" in findings[1].message
    assert str(findings[1]) == f"error: {findings[1].message}"
    assert "HASH" in repr(findings[1]) and "offset=0x" in repr(findings[1])
    assert findings[0].is_problem and findings[0] != findings[1]
    assert findings == dxcopy.Container.from_bytes(bytes(data)).verify()

    # Unsigned, with a second ILDN part: a note on the digest, a warning on the part.
    edited = c.edit().add("ILDn", b"\0" * 8).finish(digest="zero")
    renamed = edited.replace(b"ILDn", b"ILDN", 1)
    path = tmp_path / "twice.dxil"
    path.write_bytes(renamed)
    findings = check_file(path)
    twice = dxcopy.Container.open(path)
    second = [p for p in twice.parts if p.name == "ILDN"][1]
    assert findings[0].level == "note" and findings[0].offset == 4
    assert findings[0].kind == "DigestZero"
    duplicate = next(f for f in findings if f.kind == "DuplicateName")
    assert (duplicate.level, duplicate.part, duplicate.part_index, duplicate.offset) == (
        "warning",
        "ILDN",
        second.index,
        second.offset,
    )


def test_corpus_to_dict_and_verify_match_dxinfo():
    files = corpus_files(kind={"dxil"}, limit=40) + corpus_files(kind={"dxbc"}, limit=40)
    findings = [check_file(path) for path in files]
    assert all(f is not None for f in findings)
    # The sample files are not all clean: some findings were compared.
    assert sum(len(f) for f in findings) > 0


def test_corpus_pdbs_to_dict_and_verify_match_dxinfo():
    opened = [check_file(path) for path in corpus_files(kind={"msf-pdb"}, limit=30)]
    pdbs = [f for f in opened if f is not None]
    assert pdbs, "no corpus PDB holds a container"
    # Every PDB container gets the GUID-against-HASH finding.
    assert all(any("PDB" in x.message for x in f) for f in pdbs)


def test_hostile_variants_match_dxinfo_no_crash(tmp_path):
    """Bytes of the sample overwritten at random (header, table, part
    headers, part data) and truncations: to_dict() and verify() agree with
    dxinfo on every variant that opens, and the others fail as in dxinfo."""
    data = SAMPLE.read_bytes()
    rng = random.Random(14)
    variants = []
    for i in range(50):
        mutated = bytearray(data)
        # Half the flips hit the header, table and part headers.
        limit = 0x200 if i % 2 else len(data)
        for _ in range(1 + i % 4):
            mutated[rng.randrange(limit)] = rng.randrange(256)
        variants.append(bytes(mutated))
    variants += [data[:n] for n in (0, 31, 60, 0x100, len(data) - 1)]
    opened = 0
    for i, variant in enumerate(variants):
        path = tmp_path / f"v{i:02d}.dxil"
        path.write_bytes(variant)
        opened += check_file(path) is not None
    assert 0 < opened < len(variants)
