"""strip_files() against dxstrip: the same bytes, results in order, errors
per file, parallel with the GIL released."""

import os
import shutil
import threading
import time

import pytest

import dxcopy
from conftest import SAMPLE, corpus_files, run


def copies(tmp_path, sources, tag):
    out = []
    folder = tmp_path / tag
    folder.mkdir()
    for i, src in enumerate(sources):
        dst = folder / f"{i:04d}-{src.name}"
        shutil.copyfile(src, dst)
        out.append(dst)
    return out


@pytest.mark.parametrize("classes", [["debug"], ["all"], ["reflect", "priv"], ["rootsig"]])
def test_strip_files_equals_dxstrip(tmp_path, classes):
    sources = [SAMPLE] * 5
    py = copies(tmp_path, sources, "py")
    cli = copies(tmp_path, sources, "cli")
    results = dxcopy.strip_files(py, classes=classes)
    run("dxstrip", *[f"--strip-{c}" for c in classes], *cli)
    for r, a, b in zip(results, py, cli):
        assert r.ok and r.error is None and r.path == str(a)
        assert a.read_bytes() == b.read_bytes()
    before = len(dxcopy.Container.open(SAMPLE))
    assert results[0].removed == before - len(dxcopy.Container.open(py[0]))
    # The sample has no RTS0.
    assert (results[0].removed > 0) == (classes != ["rootsig"])


def test_bad_files_do_not_stop_the_others(tmp_path):
    good = copies(tmp_path, [SAMPLE] * 3, "good")
    bad = tmp_path / "bad.dxil"
    bad.write_bytes(b"DXBC" + b"\xff" * 40)
    missing = tmp_path / "missing.dxil"
    paths = [good[0], bad, good[1], missing, good[2]]
    results = dxcopy.strip_files(paths, jobs=2)
    assert [r.path for r in results] == [str(p) for p in paths]
    assert [r.ok for r in results] == [True, False, True, False, True]
    assert bad.read_bytes() == b"DXBC" + b"\xff" * 40
    cp = run("dxstrip", bad, missing, check=False)
    assert cp.returncode == 1
    lines = [l for l in cp.stderr.decode().splitlines() if l.startswith("dxstrip: error: ")]
    assert [str(results[1].error), str(results[3].error)] == [l[len("dxstrip: error: "):] for l in lines]
    assert isinstance(results[1].error, dxcopy.Error)
    assert results[1].error.path == str(bad)
    assert results[3].error.path == str(missing)
    assert results[1].removed == 0
    assert "error=" in repr(results[1]) and "removed=" in repr(results[0])


def test_arguments():
    assert dxcopy.strip_files([]) == []
    with pytest.raises(dxcopy.Error, match="unknown strip class"):
        dxcopy.strip_files([str(SAMPLE)], classes=["symbols"])
    with pytest.raises(ValueError):
        dxcopy.strip_files([str(SAMPLE)], jobs=0)


def test_gil_is_released(tmp_path):
    """Another Python thread runs while strip_files works."""
    paths = copies(tmp_path, [SAMPLE] * 400, "many")
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)

    started = time.perf_counter()
    t = threading.Thread(target=count)
    t.start()
    results = dxcopy.strip_files(paths, jobs=1)
    finished = time.perf_counter()
    done.set()
    t.join()
    assert all(r.ok for r in results)
    during = [x for x in ticks if started < x < finished]
    # With the GIL held the counting thread could not run at all meanwhile.
    assert len(during) >= 5, (len(during), finished - started)


def test_corpus_strip_equals_dxstrip(tmp_path):
    sources = corpus_files(kind={"dxil", "dxbc"}, limit=300)
    py = copies(tmp_path, sources, "py")
    cli = copies(tmp_path, sources, "cli")
    results = dxcopy.strip_files(py)
    cp = run("dxstrip", "-q", *cli, check=False)
    failed = 0
    for r, a, b in zip(results, py, cli):
        assert a.read_bytes() == b.read_bytes(), r.path
        failed += not r.ok
    assert (failed > 0) == (cp.returncode == 1)
    assert sum(r.removed for r in results) > 0


def test_a_file_under_several_names_is_stripped_once(tmp_path):
    """Links, hard links and other spellings of one file are one
    file: stripped once, later results point at the first path."""
    (a,) = copies(tmp_path, [SAMPLE], "one")
    (b,) = copies(tmp_path, [SAMPLE], "two")
    hard = a.parent / "hard.dxil"
    os.link(a, hard)
    soft = tmp_path / "soft.dxil"
    soft.symlink_to(a)
    dotted = a.parent / "." / a.name
    paths = [a, b, dotted, hard, soft, b]
    results = dxcopy.strip_files(paths)
    assert [r.path for r in results] == [str(p) for p in paths]
    assert [r.same_as for r in results] == [None, None, str(a), str(a), str(a), str(b)]
    assert all(r.ok for r in results)
    removed = len(dxcopy.Container.open(SAMPLE)) - len(dxcopy.Container.open(a))
    assert removed > 0
    assert [r.removed for r in results] == [removed, removed, 0, 0, 0, 0]
    # The summed count is per file, as dxstrip's summary.
    assert sum(r.removed for r in results) == 2 * removed
    # A failing file shares its error with its other names.
    missing = tmp_path / "missing.dxil"
    results = dxcopy.strip_files([missing, missing])
    assert [r.ok for r in results] == [False, False]
    assert str(results[0].error) == str(results[1].error)
    assert results[1].same_as == str(missing)


def test_a_directory_is_named_without_an_output_argument(tmp_path):
    """strip_files takes no output and does not walk: its message says what
    to do instead, not "give an output file"."""
    folder = tmp_path / "shaders"
    folder.mkdir()
    (r,) = dxcopy.strip_files([folder])
    assert not r.ok
    assert str(r.error) == (
        f"'{folder}' is a directory: it cannot be edited in place; "
        "strip_files() takes files: list the ones in it (e.g. with pathlib's rglob)"
    )
    assert "output" not in str(r.error)
