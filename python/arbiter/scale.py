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
import contextlib
import glob
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple

import arbiter

try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # without the `scale` extra: told when a run starts, not on import
    WorkerPlugin = object  # type: ignore[assignment,misc]

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
    shard, atomically; returns its statistics, also kept in ``shards/`` beside the dataset, or
    the failure of a shard that cannot be read through (its file removed)."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    started, cpu = time.time(), time.process_time()
    out_dir = Path(out)
    final = out_dir / "games" / part_name(file_number, shard.number)
    temporary = final.with_name(f".{final.name}.{uuid.uuid4().hex}.tmp")
    columns: Dict[str, List[Any]] = {name: [] for name in schema().names}
    stats: Dict[str, Any] = {"games": 0, "ok": 0, "plies": 0, "wrong": {}}

    try:
        with pq.ParquetWriter(temporary, schema(), compression="zstd") as writer:
            check_rows(shard, label, mode, writer, columns, stats, file_number)
    except (OSError, arbiter.InputError) as error:
        # The file cannot be read through (a NUL byte, a broken compressed stream, a file
        # gone): the shard is told failed, with no file in the dataset, and checked again on
        # --resume; the others go on.
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        return {"error": failure_message(shard, error)}
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        raise
    stats.update(
        file=label,
        shard=shard.number,
        bytes=shard.end - shard.start,
        wall=time.time() - started,
        cpu=time.process_time() - cpu,
    )
    # The statistics first, the rows last: the statistics name the files, and are believed
    # once every file they name is there and whole.
    stats["parts"] = [[final.name, stats["games"]]]
    shards_dir = out_dir / "shards"
    write_atomically(shards_dir / final.with_suffix(".json").name, json.dumps(stats).encode())
    os.replace(temporary, final)
    return stats


def convert_task(
    shard: "arbiter.Shard",
    file_number: int,
    label: str,
    out: str,
    mode: Literal["strict", "lenient"],
) -> Dict[str, Any]:
    """A Dask task of a ``--games`` run: converts a placed shard's games into the dataset, a
    row per game with typed columns, by the Rust writer (``arbiter.convert_shard``), which
    names its files once all are whole; returns its statistics, also kept in ``shards/``, which
    name the files and count their rows, or the failure of a shard that cannot be read
    through (no file left)."""
    started, cpu = time.time(), time.process_time()
    out_dir = Path(out)
    try:
        result = arbiter.convert_shard(shard, out_dir / "games", file_number, label, mode)
    except (OSError, arbiter.InputError) as error:
        return {"error": failure_message(shard, error)}
    sleep_hook(file_number, shard.number)
    stats: Dict[str, Any] = dict(result)
    stats.update(
        file=label,
        shard=shard.number,
        bytes=shard.end - shard.start,
        wall=time.time() - started,
        cpu=time.process_time() - cpu,
    )
    kept = out_dir / "shards" / Path(part_name(file_number, shard.number)).with_suffix(".json").name
    write_atomically(kept, json.dumps(stats).encode())
    return stats


def failure_message(shard: "arbiter.Shard", error: BaseException) -> str:
    """What went wrong reading a shard's file, naming it: ``PATH:LINE:COL: expected ...`` as
    ``arbiter chess pgn`` says it, or the system's error."""
    if isinstance(error, OSError) and error.strerror:
        return f"{shard.path}: {error.strerror}"
    return f"{shard.path}:{error}"


def check_rows(shard, label, mode, writer, columns, stats, file_number) -> None:
    """Checks a shard's games into ``writer``, a row group at a time."""
    import pyarrow as pa  # type: ignore[import-untyped]

    def flush():
        if columns["file"]:
            writer.write_table(pa.table(columns, schema=schema()))
            for values in columns.values():
                values.clear()

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
            flush()
    flush()
    sleep_hook(file_number, shard.number)


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


def plan_file(path: Path, target: int) -> Dict[str, Any]:
    """A file's entry in the manifest: its size and shards, or why it cannot be read at all."""
    entry: Dict[str, Any] = {"path": str(path), "size": path.stat().st_size, "extents": None}
    try:
        shards = arbiter.shards(path, target)
    except OSError as error:
        # Told in the summary, planned again by --resume: no game of it has been checked.
        entry.update(shards=[], error=f"{path}: {error.strerror or error}")
        return entry
    entry["shards"] = [[s.start, s.end, s.layout, s.compression] for s in shards]
    return entry


def plan(files: Sequence[Path], target: int, games: bool = False) -> Dict[str, Any]:
    """The manifest of a new run: each file, its size and its shards, and whether the dataset
    holds the games (``--games``) or the verdicts."""
    entries = [plan_file(path, target) for path in files]
    return {"version": MANIFEST_VERSION, "target_bytes": target, "games": games, "files": entries}


def load_plan(
    out: Path, files: Sequence[Path], target: int, resume: bool, games: bool = False
) -> Dict[str, Any]:
    """The run's manifest: a new one, or with ``resume`` the one kept in ``out``, which must be
    of the same files, shard size and kind of dataset."""
    kept = out / "manifest.json"
    if not kept.exists():
        manifest = plan(files, target, games)
        write_atomically(kept, json.dumps(manifest, indent=1).encode())
        return manifest
    if not resume:
        raise SystemExit(
            f"arbiter.scale: {out} holds a run already: add --resume, or choose an empty directory"
        )
    try:
        manifest = json.loads(kept.read_text())
        before = [(f["path"], f["size"]) for f in manifest["files"]]
        same = manifest.get("version") == MANIFEST_VERSION and manifest["target_bytes"] == target
    except (ValueError, KeyError, TypeError) as error:
        raise SystemExit(f"arbiter.scale: {kept}: not a manifest of this program ({error})")
    now = [(str(p), p.stat().st_size) for p in files]
    if not same or now != before:
        raise SystemExit(
            f"arbiter.scale: {out} holds a run of other files or another shard size; "
            "resume it with the same"
        )
    if bool(manifest.get("games")) != games:
        held, given = ("games", "verdicts") if manifest.get("games") else ("verdicts", "games")
        raise SystemExit(
            f"arbiter.scale: {out} holds a dataset of {held}, not of {given}: resume it "
            f"{'with' if held == 'games' else 'without'} --games"
        )
    # A file that could not be planned has had none of its games checked: planned again.
    again = [n for n, entry in enumerate(manifest["files"]) if entry.get("error")]
    for number in again:
        manifest["files"][number] = plan_file(Path(manifest["files"][number]["path"]), target)
    if again:
        write_atomically(kept, json.dumps(manifest, indent=1).encode())
    return manifest


def shard_objects(entry: Dict[str, Any]) -> List["arbiter.Shard"]:
    """A manifest entry's shards, each placed when the extents of the shards before it are
    known."""
    shards = [
        arbiter.Shard(entry["path"], number, start, end, layout, compression)
        for number, (start, end, layout, compression) in enumerate(entry["shards"])
    ]
    if len(shards) == 1:
        return arbiter.place_shards(shards, [(0, 0, 0)])
    extents = [tuple(e) for e in entry["extents"] or []]
    placeable = min(len(shards), len(extents) + 1)
    # The extent of the last shard placed is not needed to place it.
    before = extents[: placeable - 1] + [(0, 0, 0)]
    return arbiter.place_shards(shards[:placeable], before) + shards[placeable:]


class QuietClosing(WorkerPlugin):
    """A worker plugin for the local cluster: what a worker logs once it is closing is dropped.

    A worker that closes while its heartbeat to the scheduler is on the way logs the failed
    heartbeat with a traceback (a race inside Dask, harmless: the run's results are in by then).
    Every failure of a task is told by the run itself, in its summary and on stderr, so nothing
    is lost; while a worker runs, what it logs is let through as before."""

    name = "arbiter-quiet-closing"

    def setup(self, worker) -> None:
        import logging

        from distributed.core import Status

        closing = {Status.closing, Status.closing_gracefully, Status.closed}
        self._filter = lambda record: worker.status not in closing
        logging.getLogger("distributed.worker").addFilter(self._filter)

    def teardown(self, worker) -> None:
        import logging

        logging.getLogger("distributed.worker").removeFilter(self._filter)


@contextlib.contextmanager
def connect(scheduler: Optional[str], workers: Optional[int]):
    """A Dask client: of the scheduler named (an address, or a scheduler file), else of a new
    local cluster of ``workers`` processes (one per core by default), one thread each, closed
    with the client."""
    from dask.distributed import Client, LocalCluster

    if scheduler:
        client = Client(scheduler_file=scheduler) if os.path.isfile(scheduler) else Client(scheduler)
        with client:
            yield client
        return
    workers = workers or os.cpu_count() or 1
    # One thread a worker, and one for the checks inside it: a task is one core's work.
    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, env={"RAYON_NUM_THREADS": "1"}
    ) as cluster, Client(cluster) as client:
        client.register_plugin(QuietClosing())
        yield client


def by_kind(count: Dict[str, Any]) -> str:
    """The kind a count of errors is of, to sort the counts by."""
    return str(count["values"])


def shard_parts(out: Path, number: int, shard: int) -> Optional[List[Tuple[Path, int]]]:
    """The files of the dataset a shard's statistics say it wrote, with their rows; None when
    the shard has no statistics (it was never done)."""
    kept = out / "shards" / Path(part_name(number, shard)).with_suffix(".json").name
    try:
        stats = json.loads(kept.read_text())
        parts = stats.get("parts") or [[part_name(number, shard), stats["games"]]]
        return [(out / "games" / name, int(rows)) for name, rows in parts]
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError):
        return []


def verified(parts: Optional[List[Tuple[Path, int]]]) -> bool:
    """Whether a shard's files are all there and whole: each a Parquet file whose footer
    reads and holds the rows its shard's statistics count."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    if not parts:
        return False
    for path, rows in parts:
        try:
            if pq.ParquetFile(path).metadata.num_rows != rows:
                return False
        except (OSError, ValueError):
            # Absent, cut off, or no Parquet at all (pyarrow raises ArrowInvalid, a ValueError).
            return False
    return True


def forget(out: Path, number: int, shard: int) -> None:
    """Removes what a shard wrote, to do it again: its statistics, then its files, and the
    temporary files of its tasks that died."""
    kept = out / "shards" / Path(part_name(number, shard)).with_suffix(".json").name
    parts = shard_parts(out, number, shard) or []
    with contextlib.suppress(FileNotFoundError):
        kept.unlink()
    stem = Path(part_name(number, shard)).stem
    stale = [path for path, _ in parts]
    stale += (out / "games").glob(f"{stem}.parquet")
    stale += (out / "games").glob(f"*/{stem}.parquet")
    stale += (out / "games").glob(f"*/{stem}-*.parquet")
    stale += (out / "games").glob(f".{stem}.*.tmp")
    stale += (out / "games").glob(f"*/.{stem}.*.tmp")
    for path in stale:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def summarize(
    out: Path,
    manifest: Dict[str, Any],
    wall: float,
    parts: Sequence[Path],
    failures: Sequence[Dict[str, Any]],
) -> Dict[str, Any]:
    """The summary of the dataset: its games counted from the rows of its files (`parts`, each
    verified), the bytes and CPU time of every shard's task, this run's wall time, and the
    shards that failed."""
    import pyarrow.compute as pc  # type: ignore[import-untyped]
    import pyarrow.dataset as ds  # type: ignore[import-untyped]

    if manifest.get("games"):
        # The games' dataset holds each error as a struct: its kind is a field of it.
        columns = {"ok": pc.field("ok"), "plies": pc.field("plies"),
                   "error_kind": pc.field("error", "kind")}
    else:
        columns = {name: pc.field(name) for name in ["ok", "plies", "error_kind"]}
    if parts:
        table = ds.dataset([str(p) for p in parts], format="parquet").to_table(columns=columns)
    else:
        table = schema().empty_table().select(list(columns))
    kinds = pc.value_counts(pc.drop_null(table["error_kind"])).to_pylist()
    stats = []
    for number, entry in enumerate(manifest["files"]):
        for shard in range(len(entry["shards"])):
            kept = out / "shards" / Path(part_name(number, shard)).with_suffix(".json").name
            if kept.exists():
                stats.append(json.loads(kept.read_text()))
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
        "failed": list(failures),
    }


def place(client, out: Path, manifest: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Counts what comes before each shard of the files cut in several, in parallel, once:
    kept in the manifest. A shard that cannot be read through stops the counting of its file
    there: the shards after it cannot be placed, and are told failed."""
    from dask.distributed import wait

    unplaced = [
        (number, shard)
        for number, entry in enumerate(manifest["files"])
        if len(entry["shards"]) > 1 and len(entry["extents"] or []) < len(entry["shards"])
        for shard in shard_objects(entry)
    ]
    if not unplaced:
        return []
    keys = [f"extent-{number}-{shard.number}-{uuid.uuid4().hex}" for number, shard in unplaced]
    futures = client.map(extent, [s for _, s in unplaced], key=keys, retries=1)
    wait(futures)
    counted: Dict[int, List[Any]] = {}
    failures = []
    for (number, shard), future in zip(unplaced, futures):
        extents = counted.setdefault(number, [])
        if len(extents) < shard.number:
            continue  # an earlier shard of the file failed
        if future.status == "finished":
            extents.append(list(future.result()))
            continue
        failures.append(task_failure(future, shard, number))
    for number, extents in counted.items():
        manifest["files"][number]["extents"] = extents
    write_atomically(out / "manifest.json", json.dumps(manifest, indent=1).encode())
    return failures


def task_failure(future, shard: "arbiter.Shard", number: int) -> Dict[str, Any]:
    """A failed task told as a failure of its shard's file."""
    error = future.exception()
    if isinstance(error, (OSError, arbiter.InputError)):
        message = failure_message(shard, error)
    else:
        # A worker that died twice on it (KilledWorker), or a fault of the program.
        message = f"{shard.path}: {type(error).__name__}: {error}"
    return {"file": Path(shard.path).name, "path": str(shard.path), "shard": shard.number,
            "error": message}


def run(args: argparse.Namespace) -> Dict[str, Any]:
    from dask.distributed import progress, wait

    started = time.time()
    files = expand(args.files)
    out = Path(args.out).resolve()
    for directory in [out, out / "games", out / "shards"]:
        directory.mkdir(parents=True, exist_ok=True)
    target = max(1, int(args.shard_mib * (1 << 20)))
    manifest = load_plan(out, files, target, args.resume, args.games)
    mode: Literal["strict", "lenient"] = "lenient" if args.lenient else "strict"
    failures: List[Dict[str, Any]] = [
        {"file": Path(e["path"]).name, "path": e["path"], "shard": None, "error": e["error"]}
        for e in manifest["files"]
        if e.get("error")
    ]
    with connect(args.scheduler, args.workers) as client:
        print(f"dashboard: {client.dashboard_link}", flush=True)
        failures += place(client, out, manifest)
        failed_before = {(f["path"], f["shard"]) for f in failures}
        todo: List[Tuple[int, "arbiter.Shard"]] = []
        done: List[Path] = []
        for number, entry in enumerate(manifest["files"]):
            placed = len(entry["extents"] or []) + 1 if len(entry["shards"]) > 1 else 1
            for shard in shard_objects(entry):
                parts = shard_parts(out, number, shard.number)
                if parts is not None and verified(parts):
                    done.extend(path for path, _ in parts)
                    continue
                # Never done, or done and since cut off or lost: done again, from scratch.
                forget(out, number, shard.number)
                if (entry["path"], shard.number) in failed_before:
                    continue  # it could not be read through to be placed: it cannot be checked
                if shard.number < placed:
                    todo.append((number, shard))
                else:
                    failures.append({
                        "file": Path(entry["path"]).name, "path": entry["path"],
                        "shard": shard.number,
                        "error": f"{entry['path']}: not checked: a shard before it cannot be "
                                 "read through, so where its games stand is not known",
                    })
        labels = {n: Path(entry["path"]).name for n, entry in enumerate(manifest["files"])}
        task = convert_task if args.games else check_shard
        futures = [
            client.submit(
                task,
                shard,
                number,
                labels[number],
                str(out),
                mode,
                key=f"check-{number}-{shard.number}-{uuid.uuid4().hex}",
                retries=1,
            )
            for number, shard in todo
        ]
        if futures and sys.stdout.isatty():
            progress(futures)
            print()
        wait(futures)
        for (number, shard), future in zip(todo, futures):
            if future.status != "finished":
                failures.append(task_failure(future, shard, number))
                forget(out, number, shard.number)
                continue
            stats = future.result()
            if "error" in stats:
                failures.append({"file": labels[number], "path": str(shard.path),
                                 "shard": shard.number, "error": stats["error"]})
                continue
            parts = shard_parts(out, number, shard.number)
            done.extend(path for path, _ in parts or [])
    summary = summarize(out, manifest, time.time() - started, done, failures)
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
    add("--games", action="store_true",
        help="write the games themselves, a row each with typed columns (default: verdicts)")
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
    for failure in summary["failed"]:
        print(f"arbiter.scale: {failure['error']}", file=sys.stderr)
    if summary["failed"]:
        count = len(summary["failed"])
        told = "1 shard failed: its games are" if count == 1 else f"{count} shards failed: their games are"
        print(
            f"arbiter.scale: {told} not in the dataset; --resume checks them again",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
