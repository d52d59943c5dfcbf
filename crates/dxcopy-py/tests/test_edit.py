"""Edit: finish() and write() give the bytes the dxcopy command writes with
the same options, on the sample and on corpus files."""

import os
import stat

import pytest

import dxcopy
from conftest import SAMPLE, cli_error, corpus_files, run

# (name, edit applied in Python, dxcopy options); `{blob}` is a file holding BLOB.
BLOB = b"build 42\x00\x01"
CASES = [
    ("no-op", lambda e: e, []),
    ("strip-debug", lambda e: e.strip("debug"), ["--strip-debug"]),
    ("strip-all", lambda e: e.strip("all"), ["--strip-all"]),
    ("strip-reflect", lambda e: e.strip("reflect"), ["--strip-reflect"]),
    ("strip-priv", lambda e: e.strip("priv"), ["--strip-priv"]),
    ("strip-rootsig", lambda e: e.strip("rootsig"), ["--strip-rootsig"]),
    ("remove", lambda e: e.remove("STAT").remove("PRIV"), ["-R", "STAT", "-R", "PRIV"]),
    ("remove-glob", lambda e: e.remove("S*").remove("!SFI0"), ["-R", "S*", "-R", "!SFI0"]),
    ("only", lambda e: e.remove("DXIL").only("DXIL").only("HASH"), ["-j", "DXIL", "-j", "HASH", "-R", "DXIL"]),
    ("keep", lambda e: e.keep("ILDN").strip("all"), ["--strip-all", "--keep-section=ILDN"]),
    ("add", lambda e: e.add("ABCD", BLOB), ["--add-section=ABCD={blob}"]),
    ("update", lambda e: e.update("SFI0", BLOB), ["--update-section=SFI0={blob}"]),
    ("set-private", lambda e: e.set_private(BLOB), ["--set-private={blob}"]),
    (
        "any-order",
        lambda e: e.set_private(BLOB).add("ABCD", BLOB).strip("debug").remove("STAT"),
        ["-R", "STAT", "--strip-debug", "--add-section=ABCD={blob}", "--set-private={blob}"],
    ),
]
DIGESTS = ["auto", "retail", "debug", "zero", "keep", "bypass", "preview"]
HASHES = ["auto", "keep", "update"]


def cli_bytes(tmp_path, src, options):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(BLOB)
    out = tmp_path / "cli-out.dxil"
    if out.exists():
        out.unlink()
    run("dxcopy", *[o.format(blob=blob) for o in options], src, out)
    return out.read_bytes()


@pytest.mark.parametrize("name,edit,options", CASES, ids=[c[0] for c in CASES])
def test_finish_equals_dxcopy_on_sample(tmp_path, name, edit, options):
    c = dxcopy.Container.open(SAMPLE)
    got = edit(c.edit()).finish()
    assert got == cli_bytes(tmp_path, SAMPLE, options)
    # The input is never modified, and an edit can be finished twice.
    assert c.to_bytes() == SAMPLE.read_bytes()
    assert edit(c.edit()).finish() == got


@pytest.mark.parametrize("digest", DIGESTS)
@pytest.mark.parametrize("hash", HASHES)
def test_policies_equal_dxcopy(tmp_path, digest, hash):
    e = dxcopy.Container.open(SAMPLE).edit().strip("debug")
    got = e.finish(digest=digest, hash=hash)
    assert got == cli_bytes(tmp_path, SAMPLE, ["-g", f"--digest={digest}", f"--hash={hash}"])
    want_kind = {"auto": "retail", "keep": "invalid"}.get(digest, digest)
    assert dxcopy.Container.from_bytes(got).digest_kind == want_kind


def test_regex_patterns(tmp_path):
    c = dxcopy.Container.open(SAMPLE)
    got = c.edit(regex=True).remove("^S").remove("B$").finish()
    assert got == cli_bytes(tmp_path, SAMPLE, ["--regex", "-R", "^S", "-R", "B$"])
    assert [p.name for p in dxcopy.Container.from_bytes(got).parts] == ["ILDN", "HASH", "DXIL", "PRIV"]
    # A glob, not a regular expression, by default.
    assert c.edit().remove("^S").finish() == cli_bytes(tmp_path, SAMPLE, [])


def test_update_bitcode_keeps_program_header(tmp_path):
    bc = tmp_path / "dxil.bc"
    run("dxcopy", f"--dump-section=DXIL={bc}", SAMPLE)
    bitcode = bc.read_bytes()
    assert bitcode[:4] == b"BC\xc0\xde"
    got = dxcopy.Container.open(SAMPLE).edit().update("DXIL", bitcode + b"\0" * 4).finish()
    bc.write_bytes(bitcode + b"\0" * 4)
    assert got == cli_bytes(tmp_path, SAMPLE, [f"--update-section=DXIL={bc}"])


def test_chaining_and_warnings():
    e = dxcopy.Container.open(SAMPLE).edit()
    assert e.strip("debug") is e
    assert e.remove("STAT").keep("X*").only("*").add("ABCD", b"").update("SFI0", b"").set_private(b"") is e
    assert e.warnings == []
    e.finish()
    assert e.warnings == []
    assert 'strip=["debug"]' in repr(e) and "set_private=True" in repr(e)


def test_warnings_are_dxcopys(tmp_path):
    c = dxcopy.Container.open(SAMPLE)
    data = c["DXIL"].data + b"\0" * 4
    e = c.edit().update("DXIL", data)
    e.finish()
    blob = tmp_path / "dxil.bin"
    blob.write_bytes(data)
    cp = run("dxcopy", f"--update-section=DXIL={blob}", SAMPLE, tmp_path / "o.dxil")
    want = [l.split(f"'{SAMPLE}': ", 1)[1] for l in cp.stderr.decode().splitlines() if l.startswith("dxcopy: warning: ")]
    # The same warnings, except that an option is named in Python's terms.
    python = {"--hash=update": 'hash="update"', "--digest=retail": 'digest="retail"'}
    for option, argument in python.items():
        want = [w.replace(option, argument) for w in want]
    assert want and e.warnings == want
    assert any("re-signed" in w for w in e.warnings)
    assert not any("--" in w for w in e.warnings)


def test_warnings_name_python_arguments(tmp_path):
    # A stale HASH part is left alone under hash="auto"; the warning names
    # the argument that recomputes it, where dxcopy names --hash=update.
    c = dxcopy.Container.open(SAMPLE)
    stale = bytearray(c["HASH"].data)
    stale[4] ^= 1
    stale_file = tmp_path / "stale.dxil"
    stale_file.write_bytes(c.edit().update("HASH", bytes(stale)).finish())
    data = c["DXIL"].data + b"\0" * 4
    e = dxcopy.Container.open(stale_file).edit().update("DXIL", data)
    e.finish()
    want = 'HASH part not updated: it did not match the DXIL bitcode in the input (use hash="update" to force)'
    assert want in e.warnings
    blob = tmp_path / "dxil.bin"
    blob.write_bytes(data)
    cp = run("dxcopy", f"--update-section=DXIL={blob}", stale_file, tmp_path / "o.dxil")
    assert "(use --hash=update to force)" in cp.stderr.decode()


def test_write_like_dxcopy(tmp_path, sample):
    os.chmod(sample, 0o751)
    out = tmp_path / "py.dxil"
    dxcopy.Container.open(sample).edit().strip("debug").write(out)
    cli = tmp_path / "cli.dxil"
    run("dxcopy", "-g", sample, cli)
    assert out.read_bytes() == cli.read_bytes()
    # A new file: the default mode minus the umask, as dxcopy gives it (not the input's mode).
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(out).st_mode) == stat.S_IMODE(os.stat(cli).st_mode) == 0o666 & ~umask
    # An existing file keeps its own mode.
    os.chmod(out, 0o640)
    dxcopy.Container.open(sample).edit().strip("debug").write(out)
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640
    # -p: the input's times.
    os.utime(sample, (1_000_000_000, 1_100_000_000))
    dxcopy.Container.open(sample).edit().write(out, preserve_dates=True)
    assert os.stat(out).st_mtime == 1_100_000_000
    # No temp file is left behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli.dxil", "py.dxil", "sample.dxil"]


def test_write_in_place_and_through_symlink(tmp_path, sample):
    before = sample.read_bytes()
    c = dxcopy.Container.open(sample)
    c.edit().strip("debug").write(sample)
    assert "ILDB" not in dxcopy.Container.open(sample)
    assert c.to_bytes() == before
    link = tmp_path / "link.dxil"
    link.symlink_to(sample)
    dxcopy.Container.open(link).edit().remove("STAT").write(link)
    assert link.is_symlink()
    assert "STAT" not in dxcopy.Container.open(sample)


def test_failed_write_leaves_destination(tmp_path, sample):
    dest = tmp_path / "dest.dxil"
    dest.write_bytes(b"old")
    with pytest.raises(dxcopy.Error) as e:
        dxcopy.Container.open(sample).edit().add("DXIL", b"x").write(dest)
    assert dest.read_bytes() == b"old"
    cli = cli_error("dxcopy", f"--add-section=DXIL={sample}", sample, dest)
    assert str(e.value) == cli.replace("use --update-section to", "use Edit.update() to")
    assert e.value.part == "DXIL" and e.value.path == str(sample)
    with pytest.raises(dxcopy.Error) as e:
        dxcopy.Container.open(sample).edit().write(tmp_path / "no" / "such" / "dir.dxil")
    assert "no/such/dir.dxil" in str(e.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dest.dxil", "sample.dxil"]


def test_bad_arguments_raise_at_the_call():
    e = dxcopy.Container.open(SAMPLE).edit()
    with pytest.raises(dxcopy.Error, match="unknown strip class 'symbols'"):
        e.strip("symbols")
    with pytest.raises(dxcopy.Error, match="not exactly 4 ASCII characters"):
        e.add("TOOLONG", b"")
    with pytest.raises(dxcopy.Error, match="not exactly 4 ASCII characters"):
        e.update("ABC", b"")
    with pytest.raises(dxcopy.Error, match="unknown digest policy 'signed'"):
        e.finish(digest="signed")
    with pytest.raises(dxcopy.Error, match="unknown hash policy 'x'"):
        e.finish(hash="x")
    with pytest.raises(dxcopy.Error, match="invalid pattern"):
        dxcopy.Container.open(SAMPLE).edit(regex=True).remove("(")
    with pytest.raises(TypeError):
        e.set_private("text")
    # Nothing was recorded by the failed calls.
    assert e.finish() == dxcopy.Container.open(SAMPLE).edit().finish()


def test_edit_errors_carry_dxcopy_messages(tmp_path):
    c = dxcopy.Container.open(SAMPLE)
    blob = tmp_path / "b.bin"
    blob.write_bytes(b"x")
    cases = [
        (lambda e: e.add("DXIL", b"x"), [f"--add-section=DXIL={blob}"]),
        (lambda e: e.update("RTS0", b"x"), [f"--update-section=RTS0={blob}"]),
        (lambda e: e.add("PRIV", b"x"), [f"--add-section=PRIV={blob}"]),
    ]
    for edit, options in cases:
        with pytest.raises(dxcopy.Error) as e:
            edit(c.edit()).finish()
        # The same message, except that what helps is named in Python's terms.
        cli = cli_error("dxcopy", *options, SAMPLE, tmp_path / "o.dxil")
        python = cli.replace("use --update-section to", "use Edit.update() to")
        assert str(e.value) == python
        assert not (tmp_path / "o.dxil").exists()
    with pytest.raises(dxcopy.Error) as e:
        c.edit().add("DXIL", b"x").finish()
    assert str(e.value).endswith("part 'DXIL' already exists; use Edit.update() to replace it")
    assert "--" not in str(e.value)


@pytest.mark.parametrize("options", [["-g"], ["--strip-all"], ["-R", "STAT"], ["--set-private={blob}"], ["-g", "--digest=keep", "--hash=update"]])
def test_corpus_edits_equal_dxcopy(tmp_path, options):
    files = corpus_files(kind={"dxil"}, has_part="ILDB", limit=15) + corpus_files(kind={"dxbc"}, limit=15)
    for path in files:
        e = dxcopy.Container.open(path).edit()
        digest, hash = "auto", "auto"
        for o in options:
            if o == "-g":
                e.strip("debug")
            elif o == "--strip-all":
                e.strip("all")
            elif o == "STAT":
                e.remove("STAT")
            elif o.startswith("--set-private"):
                e.set_private(BLOB)
            elif o.startswith("--digest="):
                digest = o.split("=")[1]
            elif o.startswith("--hash="):
                hash = o.split("=")[1]
        try:
            want = cli_bytes(tmp_path, path, options)
        except AssertionError:
            with pytest.raises(dxcopy.Error):
                e.finish(digest, hash)
            continue
        assert e.finish(digest, hash) == want, path
