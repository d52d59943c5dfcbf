"""dxcopy.survey: the rows of dxinfo --rows, from Python, in one process and
on a Dask LocalCluster of worker processes (the [survey] extra)."""

import csv
import gzip
import io
import json
import random
import shutil
import sys

import pytest

import dxcopy
from conftest import CORPUS, ROOT, SAMPLE, corpus_files, run

sys.path.insert(0, str(ROOT / "examples"))


def make_tree(root, seed=7):
    """A tree of loose containers, containers planted in random bytes
    (seeded) and in a gzip stream, and a file that holds none."""
    rng = random.Random(seed)
    sample = SAMPLE.read_bytes()
    (root / "loose").mkdir(parents=True)
    for i in range(4):
        shutil.copy(SAMPLE, root / "loose" / f"s{i}.dxil")
    (root / "blobs").mkdir()
    for i in range(5):
        data = bytearray(rng.randbytes(rng.randrange(10, 3000)))
        for _ in range(i % 3 + 1):
            data += sample + rng.randbytes(rng.randrange(1, 500))
        (root / "blobs" / f"b{i}.bin").write_bytes(bytes(data))
    (root / "blobs" / "packed.bin.gz").write_bytes(gzip.compress(rng.randbytes(77) + sample))
    (root / "notes.txt").write_text("no shaders here\n")
    return sample


def key(row):
    return (row["path"], row["offset"])


def test_rows_are_dxinfo_rows(tmp_path):
    make_tree(tmp_path)
    rows = dxcopy.survey([tmp_path], scan=True, table=False)
    cp = run("dxinfo", "--rows=jsonl", "--scan", "-r", tmp_path)
    cli = [json.loads(line) for line in cp.stdout.decode().splitlines()]
    assert rows == cli
    # 4 loose + 1+2+3+1+2 planted + 1 in the gzip stream.
    assert len(rows) == 14
    assert {r["kind"] for r in rows} == {"DXIL"}
    gz = [r for r in rows if "!" in r["path"]]
    assert [r["path"].rsplit("/", 1)[1] for r in gz] == ["packed.bin.gz!packed.bin"]
    assert gz[0]["offset"] == 77
    names = [name for name, _ in dxcopy.survey_columns()]
    assert list(rows[0]) == names
    csv_rows = list(csv.DictReader(io.StringIO(run("dxinfo", "--rows=csv", "--scan", "-r", tmp_path).stdout.decode())))
    assert [r["path"] for r in csv_rows] == [r["path"] for r in rows]


def test_rows_match_dxinfo_json_for_the_sample():
    doc = json.loads(run("dxinfo", "--json", SAMPLE).stdout)
    (row,) = dxcopy.survey([SAMPLE], table=False)
    assert row["size"] == doc["header"]["file_size"]
    assert row["part_count"] == doc["header"]["part_count"]
    assert row["digest_kind"] == doc["header"]["digest_kind"]
    assert row["parts"] == " ".join(f"{p['name']}:{p['size']}" for p in doc["parts"])
    dxil = next(p for p in doc["parts"] if p["name"] == "DXIL")["decoded"]
    assert row["stage"] == dxil["shader_kind"]
    assert row["shader_model"] == f"{dxil['model_major']}.{dxil['model_minor']}"


def test_columns_pick_and_order():
    rows = dxcopy.survey([SAMPLE], ["size", "path"], table=False)
    assert list(rows[0]) == ["size", "path"]
    with pytest.raises(ValueError, match="no survey column 'nope'"):
        dxcopy.survey([SAMPLE], ["nope"])


def test_unreadable_inputs_are_reported_not_rows(tmp_path):
    errors = []
    rows = dxcopy.survey([tmp_path / "missing.dxil", SAMPLE], table=False, errors=errors)
    assert len(rows) == 1
    assert len(errors) == 1 and "missing.dxil" in errors[0]


def test_corpus_survey_rows_match_dxinfo_json():
    files = corpus_files(kind="dxil", limit=40) + corpus_files(kind="dxbc", limit=40)
    rows = dxcopy.survey(files, table=False)
    assert len(rows) == len(files)
    for path, row in zip(files, rows):
        doc = json.loads(run("dxinfo", "--json", path).stdout)
        assert row["path"] == str(path)
        assert row["size"] == doc["header"]["file_size"]
        assert row["digest"] == doc["header"]["digest"]
        hash_part = next((p for p in doc["parts"] if p["name"] == "HASH"), None)
        assert row["hash"] == (hash_part["decoded"]["digest"] if hash_part else None)
        stat = next((p for p in doc["parts"] if p["name"] == "STAT" and p["decoded"]["kind"] == "stat"), None)
        if stat:
            for name, value in stat["decoded"]["counters"].items():
                assert row[f"stat_{name}"] == value


def test_pyarrow_table_and_parquet(tmp_path):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install dxcopy[survey])")
    pq = pytest.importorskip("pyarrow.parquet")
    make_tree(tmp_path / "tree")
    table = dxcopy.survey([tmp_path / "tree"], scan=True)
    assert isinstance(table, pa.Table)
    assert table.num_rows == 14
    assert table.schema.field("size").type == pa.int64()
    assert table.schema.field("clean").type == pa.bool_()
    out = tmp_path / "s.parquet"
    dxcopy.to_parquet(dxcopy.survey([tmp_path / "tree"], scan=True, table=False), out)
    assert pq.read_table(out).to_pylist() == table.to_pylist()


def test_dask_local_cluster_gives_the_single_process_result(tmp_path):
    distributed = pytest.importorskip(
        "dask.distributed", reason="dask.distributed is not installed (pip install dxcopy[survey])"
    )
    import survey_dask

    make_tree(tmp_path)
    # Real containers too, when the corpus is there.
    if (CORPUS / "MANIFEST.tsv").is_file():
        for path in corpus_files(kind="dxil", limit=20) + corpus_files(kind="dxbc", limit=20):
            shutil.copy(path, tmp_path / "loose" / path.name)
    local = sorted(dxcopy.survey([tmp_path], scan=True, table=False), key=key)
    cluster = distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 3
        remote = survey_dask.survey_on(client, str(tmp_path), scan=True)
    assert len(local) >= 14
    assert remote == local
