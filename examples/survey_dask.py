"""Survey a tree of shaders on a Dask cluster: one task per file, the rows
gathered into one table, sorted the way a single-process survey is.

    pip install "dxcopy[survey]"
    python examples/survey_dask.py shaders/ survey.parquet [--scan] [--workers N]

On one machine this starts a LocalCluster of worker processes; give
--scheduler ADDRESS to use a running cluster instead (every worker needs
dxcopy installed and the files at the same paths).
"""

import argparse
import os
import sys

import dxcopy


def files_under(root):
    """Every file below `root` (or `root` itself), in path order."""
    if os.path.isfile(root):
        return [root]
    found = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        found.extend(os.path.join(folder, n) for n in sorted(names))
    return sorted(found)


def survey_one(path, scan=False):
    """The rows of one file, as a list of dicts (picklable)."""
    return dxcopy.survey([path], scan=scan, table=False)


def survey_on(client, root, scan=False):
    """The survey of `root` run on `client`'s workers: the same rows, in the
    same order, as dxcopy.survey([root], scan=scan, table=False)."""
    futures = client.map(survey_one, files_under(root), scan=scan)
    rows = [row for part in client.gather(futures) for row in part]
    rows.sort(key=lambda r: (r["path"], r["offset"]))
    return rows


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("out", help="Parquet file to write")
    parser.add_argument("--scan", action="store_true", help="carve containers out of any file")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler")
    args = parser.parse_args(argv)
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True))
    with client:
        rows = survey_on(client, args.root, scan=args.scan)
    dxcopy.to_parquet(rows, args.out)
    print(f"{len(rows)} containers -> {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])
