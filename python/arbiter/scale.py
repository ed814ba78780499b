"""Validate a whole game database across machines on Dask: ``python -m arbiter.scale``.

Each PGN file is cut into shards (``arbiter.shards``), each shard is checked as one Dask task,
and each task writes one Parquet file of the dataset in ``--out``/games, one row per game; the
run's summary goes to ``--out``/summary.json::

    python -m arbiter.scale 'lichess_db_*.pgn.zst' --out games/ [--scheduler ADDRESS]

How it stays exact: every game is read by exactly one shard; the plan (files, shards and what
comes before each) is kept in ``--out/manifest.json``, so a resumed run cuts the same shards;
a task writes its Parquet file under a hidden temporary name and renames it when complete, so
a file of the dataset is a whole shard or absent, a task retried after its worker died starts
over, and ``--resume`` checks only the shards whose file is absent. Memory per task is bounded:
the file is read as a stream, and rows are written in row groups.

Needs the ``scale`` extra: ``pip install 'arbiter-referee[scale]'`` (Dask and pyarrow).
"""

import argparse
import glob
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple

import arbiter

#: Rows of a Parquet row group: what a task holds before writing.
ROW_GROUP = 50_000

#: The manifest's format, checked when a run is resumed.
MANIFEST_VERSION = 1

#: A test hook: ``FILE_NUMBER:SHARD_NUMBER:SECONDS:MARKER`` makes that shard's task, the first
#: time only (the marker file records it), write its worker's pid to the marker file and sleep
#: before writing, so that a test can kill the worker in the middle of the task.
SLEEP_HOOK = "ARBITER_SCALE_TEST_SLEEP"


def schema():
    """The dataset's columns, one row per game."""
    import pyarrow as pa  # type: ignore[import-untyped]

    problem = pa.struct(
        [
            ("kind", pa.string()),
            ("line", pa.int64()),
            ("column", pa.int64()),
            ("message", pa.string()),
        ]
    )
    return pa.schema(
        [
            ("file", pa.string()),
            ("game", pa.int64()),
            ("offset", pa.int64()),
            ("line", pa.int64()),
            ("game_id", pa.string()),
            ("white", pa.string()),
            ("black", pa.string()),
            ("result", pa.string()),
            ("variant", pa.string()),
            ("ok", pa.bool_()),
            ("plies", pa.int64()),
            ("error_kind", pa.string()),
            ("error", pa.string()),
            ("warnings", pa.list_(problem)),
        ]
    )


def part_name(file_number: int, shard_number: int) -> str:
    """The name of a shard's file in the dataset."""
    return f"part-{file_number:05d}-{shard_number:06d}.parquet"


def write_atomically(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` under a hidden temporary name, then renames it."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


def sleep_hook(file_number: int, shard_number: int) -> None:
    """The test hook (see SLEEP_HOOK): sleeps the first time the named shard is checked."""
    hook = os.environ.get(SLEEP_HOOK)
    if not hook:
        return
    number, shard, seconds, marker = hook.split(":", 3)
    if (int(number), int(shard)) != (file_number, shard_number):
        return
    try:
        descriptor = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.write(descriptor, str(os.getpid()).encode())
    os.close(descriptor)
    time.sleep(float(seconds))


def check_shard(
    shard: "arbiter.Shard",
    file_number: int,
    label: str,
    out: str,
    mode: Literal["strict", "lenient"],
) -> Dict[str, Any]:
    """A Dask task: checks a placed shard's games and writes them as the dataset's file for the
    shard, atomically; returns its statistics, also kept in ``shards/`` beside the dataset."""
    import pyarrow as pa  # type: ignore[import-untyped]
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    started, cpu = time.time(), time.process_time()
    out_dir = Path(out)
    final = out_dir / "games" / part_name(file_number, shard.number)
    temporary = final.with_name(f".{final.name}.{uuid.uuid4().hex}.tmp")
    columns: Dict[str, List[Any]] = {name: [] for name in schema().names}
    stats: Dict[str, Any] = {"games": 0, "ok": 0, "plies": 0, "wrong": {}}

    def flush(writer):
        if columns["file"]:
            writer.write_table(pa.table(columns, schema=schema()))
            for values in columns.values():
                values.clear()

    with pq.ParquetWriter(temporary, schema(), compression="zstd") as writer:
        for report in arbiter.check_pgn_file(shard.path, mode, shard=shard):
            error = report.error
            columns["file"].append(label)
            columns["game"].append(report.index)
            columns["offset"].append(report.offset)
            columns["line"].append(report.line)
            columns["game_id"].append(report.id)
            columns["white"].append(report.white)
            columns["black"].append(report.black)
            columns["result"].append(report.result)
            columns["variant"].append(report.variant)
            columns["ok"].append(report.ok)
            columns["plies"].append(report.plies)
            columns["error_kind"].append(error.kind if error else None)
            columns["error"].append(error.message if error else None)
            columns["warnings"].append(
                [
                    {"kind": w.kind, "line": w.line, "column": w.column, "message": w.message}
                    for w in report.warnings
                ]
            )
            stats["games"] += 1
            stats["ok"] += report.ok
            stats["plies"] += report.plies
            if error:
                stats["wrong"][error.kind] = stats["wrong"].get(error.kind, 0) + 1
            if len(columns["file"]) >= ROW_GROUP:
                flush(writer)
        flush(writer)
        sleep_hook(file_number, shard.number)
    stats.update(
        file=label,
        shard=shard.number,
        bytes=shard.end - shard.start,
        wall=time.time() - started,
        cpu=time.process_time() - cpu,
    )
    # The statistics first, the rows last: the rows' file says the shard is done.
    shards_dir = out_dir / "shards"
    write_atomically(shards_dir / final.with_suffix(".json").name, json.dumps(stats).encode())
    os.replace(temporary, final)
    return stats


def extent(shard: "arbiter.Shard") -> Tuple[int, int, int]:
    """A Dask task: what a shard holds (``arbiter.shard_extent``)."""
    return arbiter.shard_extent(shard)


def expand(patterns: Sequence[str]) -> List[Path]:
    """The files the patterns name (a glob, or a path), each once, in order."""
    files: List[Path] = []
    for pattern in patterns:
        found = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not found:
            raise SystemExit(f"arbiter.scale: no file matches {pattern}")
        for name in found:
            path = Path(name).resolve()
            if not path.is_file():
                raise SystemExit(f"arbiter.scale: {name}: not a file")
            if path not in files:
                files.append(path)
    return files


def plan(files: Sequence[Path], target: int) -> Dict[str, Any]:
    """The manifest of a new run: each file, its size and its shards."""
    entries = []
    for path in files:
        shards = arbiter.shards(path, target)
        entries.append(
            {
                "path": str(path),
                "size": path.stat().st_size,
                "shards": [[s.start, s.end, s.layout, s.compression] for s in shards],
                "extents": None,
            }
        )
    return {"version": MANIFEST_VERSION, "target_bytes": target, "files": entries}


def load_plan(out: Path, files: Sequence[Path], target: int, resume: bool) -> Dict[str, Any]:
    """The run's manifest: a new one, or with ``resume`` the one kept in ``out``, which must be
    of the same files and shard size."""
    kept = out / "manifest.json"
    if not kept.exists():
        manifest = plan(files, target)
        write_atomically(kept, json.dumps(manifest, indent=1).encode())
        return manifest
    if not resume:
        raise SystemExit(
            f"arbiter.scale: {out} holds a run already: add --resume, or choose an empty directory"
        )
    manifest = json.loads(kept.read_text())
    now = [(str(p), p.stat().st_size) for p in files]
    before = [(f["path"], f["size"]) for f in manifest["files"]]
    same = manifest.get("version") == MANIFEST_VERSION and manifest["target_bytes"] == target
    if not same or now != before:
        raise SystemExit(
            f"arbiter.scale: {out} holds a run of other files or another shard size; "
            "resume it with the same"
        )
    return manifest


def shard_objects(entry: Dict[str, Any]) -> List["arbiter.Shard"]:
    """A manifest entry's shards, placed when their extents are known."""
    shards = [
        arbiter.Shard(entry["path"], number, start, end, layout, compression)
        for number, (start, end, layout, compression) in enumerate(entry["shards"])
    ]
    if len(shards) == 1:
        return arbiter.place_shards(shards, [(0, 0, 0)])
    if entry["extents"] is None:
        return shards
    return arbiter.place_shards(shards, [tuple(e) for e in entry["extents"]])


def connect(scheduler: Optional[str], workers: Optional[int]):
    """A Dask client: of the scheduler named (an address, or a scheduler file), else of a new
    local cluster of ``workers`` processes (one per core by default), one thread each."""
    from dask.distributed import Client, LocalCluster

    if scheduler:
        if os.path.isfile(scheduler):
            return Client(scheduler_file=scheduler)
        return Client(scheduler)
    workers = workers or os.cpu_count() or 1
    # One thread a worker, and one for the checks inside it: a task is one core's work.
    cluster = LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, env={"RAYON_NUM_THREADS": "1"}
    )
    return Client(cluster)


def by_kind(count: Dict[str, Any]) -> str:
    """The kind a count of errors is of, to sort the counts by."""
    return str(count["values"])


def summarize(out: Path, manifest: Dict[str, Any], wall: float) -> Dict[str, Any]:
    """The summary of the dataset: its games counted from the rows themselves, the bytes and
    CPU time of every shard's task, and this run's wall time."""
    import pyarrow.compute as pc  # type: ignore[import-untyped]
    import pyarrow.dataset as ds  # type: ignore[import-untyped]

    games = ds.dataset(out / "games", format="parquet")
    table = games.to_table(columns=["ok", "plies", "error_kind"])
    kinds = pc.value_counts(pc.drop_null(table["error_kind"])).to_pylist()
    stats = [json.loads(p.read_text()) for p in sorted((out / "shards").glob("part-*.json"))]
    games, ok = table.num_rows, int(pc.sum(table["ok"].cast("int64")).as_py() or 0)
    size = sum(f["size"] for f in manifest["files"])
    cpu = sum(s["cpu"] for s in stats)
    return {
        "files": len(manifest["files"]),
        "shards": sum(len(f["shards"]) for f in manifest["files"]),
        "games": games,
        "ok": ok,
        "wrong": games - ok,
        "wrong_by_kind": {k["values"]: k["counts"] for k in sorted(kinds, key=by_kind)},
        "plies": int(pc.sum(table["plies"]).as_py() or 0),
        "bytes": size,
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "games_per_second": round(games / wall, 1) if wall else None,
        "mb_per_second": round(size / 1e6 / wall, 3) if wall else None,
        "mb_per_cpu_second": round(size / 1e6 / cpu, 3) if cpu else None,
    }


def run(args: argparse.Namespace) -> Dict[str, Any]:
    from dask.distributed import progress

    started = time.time()
    files = expand(args.files)
    out = Path(args.out).resolve()
    for directory in [out, out / "games", out / "shards"]:
        directory.mkdir(parents=True, exist_ok=True)
    target = max(1, int(args.shard_mib * (1 << 20)))
    manifest = load_plan(out, files, target, args.resume)
    mode: Literal["strict", "lenient"] = "lenient" if args.lenient else "strict"
    with connect(args.scheduler, args.workers) as client:
        print(f"dashboard: {client.dashboard_link}", flush=True)
        # What comes before each shard, counted in parallel, once: kept in the manifest.
        unplaced = [
            (number, shard)
            for number, entry in enumerate(manifest["files"])
            if len(entry["shards"]) > 1 and entry["extents"] is None
            for shard in shard_objects(entry)
        ]
        if unplaced:
            keys = [f"extent-{number}-{shard.number}" for number, shard in unplaced]
            found = client.gather(client.map(extent, [s for _, s in unplaced], key=keys))
            for (number, _), counted in zip(unplaced, found):
                entry = manifest["files"][number]
                entry["extents"] = entry["extents"] or []
                entry["extents"].append(list(counted))
            write_atomically(out / "manifest.json", json.dumps(manifest, indent=1).encode())
        todo = [
            (number, shard)
            for number, entry in enumerate(manifest["files"])
            for shard in shard_objects(entry)
            if not (out / "games" / part_name(number, shard.number)).exists()
        ]
        labels = {n: Path(entry["path"]).name for n, entry in enumerate(manifest["files"])}
        futures = [
            client.submit(
                check_shard,
                shard,
                number,
                labels[number],
                str(out),
                mode,
                key=f"check-{number}-{shard.number}",
                retries=1,
            )
            for number, shard in todo
        ]
        if futures and sys.stdout.isatty():
            progress(futures)
            print()
        client.gather(futures)
    summary = summarize(out, manifest, time.time() - started)
    summary["checked_now"] = len(todo)
    write_atomically(out / "summary.json", json.dumps(summary, indent=1).encode())
    return summary


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m arbiter.scale",
        description="Check every game of PGN files on Dask into a Parquet dataset, a row a game.",
    )
    add = parser.add_argument
    add("files", nargs="+", metavar="FILES_OR_GLOBS", help="PGN files or globs, compressed or not")
    add("--out", required=True, metavar="DIR", help="the run's directory (dataset: DIR/games)")
    add("--scheduler", metavar="ADDRESS", help="a scheduler's address or file (default: local)")
    add("--shard-mib", type=float, default=64, metavar="N", help="shard size in MiB (default 64)")
    add("--resume", action="store_true", help="check only the shards not written yet")
    add("--workers", type=int, metavar="N", help="local worker processes (default: one per core)")
    add("--lenient", action="store_true", help="accept what real files hold (default: strict)")
    args = parser.parse_args(argv)
    summary = run(args)
    wrong = ", ".join(f"{n} {k}" for k, n in summary["wrong_by_kind"].items()) or "none"
    print(
        f"{summary['games']} games in {summary['files']} files ({summary['shards']} shards): "
        f"{summary['ok']} ok, {summary['wrong']} wrong ({wrong}); {summary['plies']} plies\n"
        f"{summary['bytes'] / 1e6:.1f} MB in {summary['wall_seconds']:.1f} s of wall, "
        f"{summary['cpu_seconds']:.1f} s of CPU: {summary['games_per_second']} games/s, "
        f"{summary['mb_per_second']} MB/s, {summary['mb_per_cpu_second']} MB per CPU second"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
