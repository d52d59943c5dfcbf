"""Shared fixtures: the command-line tools to compare with, the project's
sample container, and the corpus of real files (../shared/corpus) when it is
present."""

import csv
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "examples" / "sample.dxil"
CORPUS = Path(os.environ.get("DXCOPY_CORPUS", ROOT.parent / "shared" / "corpus"))


def bin_dir() -> Path:
    return Path(os.environ.get("DXCOPY_BIN_DIR", ROOT / "target" / "debug"))


def tool(name: str) -> str:
    path = bin_dir() / name
    if not path.is_file():
        pytest.skip(f"{path} not built (cargo build --workspace --bins, or set DXCOPY_BIN_DIR)")
    return str(path)


def run(name: str, *args, check=True) -> subprocess.CompletedProcess:
    """Runs a dxcopy tool; with check=True it must succeed."""
    cp = subprocess.run([tool(name), *map(str, args)], capture_output=True)
    if check and cp.returncode != 0:
        raise AssertionError(f"{name} {args} failed: {cp.stderr.decode()}")
    return cp


def cli_error(name: str, *args) -> str:
    """The message of a failing tool run, without the `tool: error: ` prefix."""
    cp = run(name, *args, check=False)
    assert cp.returncode == 1, (name, args, cp.returncode, cp.stderr)
    line = cp.stderr.decode().strip().splitlines()[0]
    prefix = f"{name}: error: "
    assert line.startswith(prefix), line
    return line[len(prefix):]


def corpus_files(kind=None, has_part=None, limit=None):
    """Corpus files from MANIFEST.tsv (kind: dxil, dxbc, msf-pdb, …); skips
    the test when the corpus is not there."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        pytest.skip(f"no corpus at {CORPUS} (corpus tests skipped)")
    out = []
    with open(manifest, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if kind is not None and row["kind"] not in kind:
                continue
            if has_part is not None and has_part not in row["parts"].split(","):
                continue
            out.append(CORPUS / row["path"])
    # Spread the picks over the whole manifest (every source project).
    if limit is not None and len(out) > limit:
        step = len(out) / limit
        out = [out[int(i * step)] for i in range(limit)]
    assert out, f"no corpus files of kind {kind} with part {has_part}"
    return out


@pytest.fixture
def sample(tmp_path) -> Path:
    """A writable copy of examples/sample.dxil."""
    path = tmp_path / "sample.dxil"
    shutil.copyfile(SAMPLE, path)
    return path
