"""Shaders as projects ship them: read_header(), write_header(),
diff(), stats() and extract_sources() against dxinfo and dxcopy."""

import json
import shutil

import pytest

import dxcopy
from conftest import SAMPLE, cli_error, corpus_files, run


def test_write_header_equals_dxcopy(tmp_path):
    sources = [SAMPLE] + corpus_files(kind=["dxbc"], has_part="SHEX", limit=3)
    for i, src in enumerate(sources):
        out = tmp_path / f"{i}.h"
        run("dxcopy", "--output-format=header", "--array-name=g_x", "--generator=G", src, out)
        c = dxcopy.Container.open(src)
        assert dxcopy.write_header(c, "g_x", generator="G") == out.read_text()
        # DXBC: fxc's layout with its listing; DXIL: dxc's with dxc's listing.
        text = dxcopy.write_header(c, "g_x", generator="G", crlf=True)
        assert "\r\n" in text and "\n" not in text.replace("\r\n", "")
    sample = dxcopy.write_header(dxcopy.Container.open(SAMPLE))
    assert sample.startswith("#if 0\n; shader debug name: sample.pdb\n")
    assert "\n#endif\n\nconst unsigned char g_main[] = {\n  0x44, 0x58, 0x42, 0x43," in sample
    with pytest.raises(ValueError):
        dxcopy.write_header(dxcopy.Container.open(SAMPLE), style="msvc")


def test_read_header_gives_each_array(tmp_path):
    c = dxcopy.Container.open(SAMPLE)
    header = tmp_path / "two.h"
    header.write_text(
        "// shaders\n"
        + dxcopy.write_header(c, "g_a", style="fxc")
        + dxcopy.write_header(c, "g_b", style="dxc")
    )
    arrays = dxcopy.read_header(header)
    assert [name for name, _ in arrays] == ["g_a", "g_b"]
    for _, container in arrays:
        assert container.to_bytes() == c.to_bytes()
    assert arrays[1][1].to_dict()["file"] == f"{header}:g_b"
    bad = tmp_path / "bad.h"
    bad.write_text("const BYTE a[] = {\n  1, 2, 0x1FF\n};\n")
    with pytest.raises(dxcopy.Error) as e:
        dxcopy.read_header(bad)
    assert str(e.value) == cli_error("dxinfo", bad)
    assert "line 2, column 9" in str(e.value)


def test_strip_files_strips_every_array_of_a_header(tmp_path):
    c = dxcopy.Container.open(SAMPLE)
    text = dxcopy.write_header(c, "g_a") + dxcopy.write_header(c, "g_b")
    ours, theirs = tmp_path / "py.h", tmp_path / "cli.h"
    ours.write_text(text)
    theirs.write_text(text)
    [result] = dxcopy.strip_files([ours])
    assert result.ok and result.removed == 2
    run("dxstrip", theirs)
    assert ours.read_bytes() == theirs.read_bytes() != text.encode()
    assert all("ILDB" not in a for _, a in dxcopy.read_header(ours))


def test_diff_equals_dxinfo(tmp_path):
    a = tmp_path / "a.dxil"
    shutil.copyfile(SAMPLE, a)
    rebuilt = bytearray(SAMPLE.read_bytes())
    rebuilt[4:20] = bytes(16)
    b = tmp_path / "b.dxil"
    b.write_bytes(rebuilt)
    found = dxcopy.diff(a, b)
    assert found["equal"] is True and found["files"][0]["changes"] == []
    assert dxcopy.diff(a, b, exact=True)["equal"] is False
    stripped = tmp_path / "s.dxil"
    run("dxcopy", "-g", a, stripped)
    found = dxcopy.diff(a, stripped)
    cp = run("dxinfo", "--diff", "--json", a, stripped, check=False)
    assert cp.returncode == 1
    assert found == json.loads(cp.stdout)
    removed = [c["part"] for c in found["files"][0]["changes"] if c["change"] == "part_removed"]
    assert removed == ["ILDB"]
    with pytest.raises(dxcopy.Error):
        dxcopy.diff(a, tmp_path)


def test_stats_equal_dxinfo(tmp_path):
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    for i in range(6):
        shutil.copyfile(SAMPLE, tree / "sub" / f"{i}.dxil")
    (tree / "notes.txt").write_text("x")
    found = dxcopy.stats([tree], jobs=2)
    assert found["containers"] == 6 and found["files"] == 7
    assert found["parts"]["ILDB"]["count"] == 6
    cli = json.loads(run("dxinfo", "--stats", "--json", tree).stdout)
    assert found == cli
    with pytest.raises(ValueError):
        dxcopy.stats([tree], jobs=0)


def test_extract_sources_equals_dxcopy(tmp_path):
    sources = corpus_files(has_part="SRCI", limit=2)
    for i, src in enumerate(sources):
        ours, theirs = tmp_path / f"py{i}", tmp_path / f"cli{i}"
        written = dxcopy.extract_sources(dxcopy.Container.open(src), ours)
        run("dxcopy", f"--extract-sources={theirs}", src)
        py_files = sorted(p.relative_to(ours) for p in ours.rglob("*") if p.is_file())
        cli_files = sorted(p.relative_to(theirs) for p in theirs.rglob("*") if p.is_file())
        assert py_files == cli_files and py_files
        assert len(written["files"]) == len(py_files)
        for rel in py_files:
            assert (ours / rel).read_bytes() == (theirs / rel).read_bytes()
            assert ours in (ours / rel).resolve().parents or (ours / rel).parent == ours
    with pytest.raises(dxcopy.Error) as e:
        dxcopy.extract_sources(dxcopy.Container.open(SAMPLE), tmp_path / "none")
    assert "no SRCI part" in str(e.value)


def test_write_header_refuses_a_name_that_is_not_an_identifier():
    c = dxcopy.Container.open(SAMPLE)
    for bad in ['x[]; system("id"); //', "", "1x", "a b", "a\nb"]:
        with pytest.raises(ValueError, match="not a C identifier"):
            dxcopy.write_header(c, bad)
    # A generator holding a line end and a directive stays in the #if 0 block.
    text = dxcopy.write_header(c, "g_x", generator='G\n#endif\nint x = 1;\n#if 0')
    directives = [l for l in text.splitlines() if l.lstrip().startswith("#")]
    assert directives == ["#if 0", "#endif"]
