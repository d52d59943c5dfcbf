"""The README's Python example runs as written and does what its comments say."""

import re
import shutil
import subprocess
import sys

import dxcopy
from conftest import ROOT, SAMPLE, run


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Python\n") :]
    section = section[: section.index("\n## ", 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the Python section has one example"
    return blocks[0]


def test_readme_example_runs_as_written(tmp_path):
    (tmp_path / "examples").mkdir()
    shutil.copyfile(SAMPLE, tmp_path / "examples" / "sample.dxil")
    cp = subprocess.run(
        [sys.executable, "-c", readme_example()], cwd=tmp_path, capture_output=True, text=True
    )
    assert cp.returncode == 0, cp.stderr
    assert "sample.pdb" in cp.stdout
    assert "out/shader.dxil lost" in cp.stdout
    # The comment's command, then strip_files' reflect pass, as the CLI does them.
    private = tmp_path / "private.bin"
    private.write_bytes(b"build 42")
    cli = tmp_path / "cli.dxil"
    run("dxcopy", "--strip-debug", f"--set-private={private}", SAMPLE, cli)
    run("dxstrip", "--strip-reflect", cli)
    assert (tmp_path / "out" / "shader.dxil").read_bytes() == cli.read_bytes()
    # The last lines: the error's message and where it lies.
    c = dxcopy.Container.open(SAMPLE)
    signed = c.edit().remove("STAT").finish(digest="retail", hash="update")
    try:
        dxcopy.Container.from_bytes(signed[:1000])
    except dxcopy.Error as e:
        assert cp.stdout.splitlines()[-1] == f"{e} {e.path} {e.part} {e.offset}"
        assert (e.path, e.part, e.offset) == (None, "DXIL", dxcopy.Container.from_bytes(signed)["DXIL"].offset)
    else:
        raise AssertionError("a truncated container opened")
