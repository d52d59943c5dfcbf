"""Container.disassemble() against dxinfo --disasm: a dxc-compiled shader,
the LLVM 22 sample (whose module dxc's reader cannot read: an error naming
the bit offset), bad arguments, and corpus DXIL containers."""

import re

import pytest

import dxcopy
from conftest import ROOT, SAMPLE, corpus_files, run

DXC_BUILT = ROOT / "examples" / "learn-sdl-gpu" / "shader.frag.dxil"


def test_listing_is_dxinfos():
    text = dxcopy.Container.open(DXC_BUILT).disassemble()
    assert text == run("dxinfo", "--disasm", DXC_BUILT).stdout.decode()
    assert text.startswith(";\n; Input signature:\n")
    assert 'target triple = "dxil-ms-dx"' in text
    assert "  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)\n" in text


def test_html_is_dxinfos_page():
    container = dxcopy.Container.open(DXC_BUILT)
    page = container.disassemble(html=True)
    assert page == run("dxinfo", "--disasm-html", DXC_BUILT).stdout.decode()
    assert page.startswith("<!DOCTYPE html>\n")
    assert '<span class="i">define</span> void <span class="r">@main</span>()' in page
    # The page's text is the plain listing.
    body = page.split("<pre>\n", 1)[1].split("</pre>\n", 1)[0]
    text = re.sub(r"<[^>]*>", "", body)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#39;", "'"), ("&amp;", "&")):
        text = text.replace(entity, char)
    assert text == container.disassemble()


def test_release_and_part_arguments():
    container = dxcopy.Container.open(DXC_BUILT)
    plain = container.disassemble(part="DXIL", release="1.7")
    assert plain == run(
        "dxinfo", "--disasm=DXIL", "--disasm-format=1.7", DXC_BUILT
    ).stdout.decode()
    assert "!dbg" not in plain
    with pytest.raises(ValueError):
        container.disassemble(release="7.1")
    with pytest.raises(ValueError):
        container.disassemble(part="TOOLONG")
    with pytest.raises(dxcopy.Error) as info:
        container.disassemble(part="SFI0")
    assert "SFI0" in str(info.value)


def test_an_unreadable_module_names_the_bit_offset(tmp_path):
    # The sample with 32 bytes of its ILDB bitcode (after the magic and the
    # first word) overwritten: the module no longer reads.
    data = bytearray(SAMPLE.read_bytes())
    ildb = [p for p in dxcopy.Container.from_bytes(bytes(data)).parts if p.name == "ILDB"][0]
    start = bytes(data).find(b"BC\xc0\xde", ildb.data_offset)
    assert start > 0
    data[start + 8 : start + 40] = b"\xff" * 32
    broken = tmp_path / "broken.dxil"
    broken.write_bytes(bytes(data))
    with pytest.raises(dxcopy.Error) as info:
        dxcopy.Container.open(broken).disassemble()
    assert "bitcode at bit " in str(info.value)
    assert info.value.part == "ILDB"
    cp = run("dxinfo", "--disasm", broken, check=False)
    assert cp.returncode == 1
    assert b"bitcode at bit " in cp.stderr


def test_corpus_listings_are_dxinfos():
    files = corpus_files(kind={"dxil"}, has_part="DXIL", limit=20)
    assert files
    for path in files:
        cp = run("dxinfo", "--disasm", path, check=False)
        container = dxcopy.Container.open(path)
        if cp.returncode == 0:
            assert container.disassemble() == cp.stdout.decode(), path
        else:
            with pytest.raises(dxcopy.Error):
                container.disassemble()
