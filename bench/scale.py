#!/usr/bin/env python3
"""A database checked on Dask: throughput of `python -m arbiter.scale` with 1 and 2 workers,
against `arbiter chess pgn` on one core on the same files, and the projection for the whole
lichess database from the per-core figure.

    python3 bench/scale.py [--mb 300] [--seed 2026] [--workers 1,2] [--dir DIR] [--no-build]

With --no-build the binaries are taken as they are: target/release's, or $ARBITER and
$GEN_GAMES (a check that the script runs can use the debug builds; its figures mean nothing).

The database is random legal games (`gen_games`, about 715 bytes each) in two files: one plain,
one the same games again as Zstandard in independent frames of 16 MiB (as `pzstd` writes), so
that both are cut into shards. It lives in a temporary folder, removed at the end, or in DIR,
kept and reused. Needs the package with its extra in release (`pip install './python[scale]'`)
and zstandard (`pip install zstandard`). Every figure is CPU time where the machine is shared:
`chess pgn`'s is the process's, the run's is the sum of its tasks' (summary.json).
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The lichess database, for the projection: games in all, and a recent month's PGN.
LICHESS_GAMES = 8e9
LICHESS_MONTH_BYTES = 200e9


def build(no_build):
    """The release `arbiter` and `gen_games`, built unless told not to."""
    if not no_build:
        for what in (
            ["-p", "arbiter-cli"],
            ["-p", "arbiter-chess-record", "--example", "gen_games"],
        ):
            subprocess.run(["cargo", "build", "--release", "--quiet", *what], cwd=ROOT, check=True)
    release = ROOT / "target" / "release"
    arbiter = os.environ.get("ARBITER", release / "arbiter")
    return Path(arbiter), Path(os.environ.get("GEN_GAMES", release / "examples" / "gen_games"))


def database(work, mb, seed, gen_games):
    """The plain file and its copy in Zstandard frames, made unless already there."""
    import zstandard

    plain, framed = work / "games.pgn", work / "games-frames.pgn.zst"
    if not plain.exists() or not framed.exists():
        games = mb * 1_000_000 // 715
        with open(plain, "wb") as out:
            subprocess.run([gen_games, "--pgn", str(games), str(seed)], stdout=out, check=True)
        compressor = zstandard.ZstdCompressor(level=3)
        with open(plain, "rb") as source, open(framed, "wb") as out:
            while chunk := source.read(16 << 20):
                out.write(compressor.compress(chunk))
    return [plain, framed]


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_core(arbiter, files):
    """`arbiter chess pgn` on each file, one thread: (bytes of text, games, CPU seconds)."""
    before = cpu_of_children()
    games = 0
    for path in files:
        run = subprocess.run(
            [arbiter, "chess", "pgn", "--json", path],
            env={**os.environ, "RAYON_NUM_THREADS": "1"},
            capture_output=True,
        )
        games += run.stdout.count(b"\n")
    return games, cpu_of_children() - before


def scale(files, workers, work):
    """`python -m arbiter.scale` on a local cluster of `workers`: its summary and wall time."""
    out = work / f"out-{workers}"
    shutil.rmtree(out, ignore_errors=True)
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "arbiter.scale", *map(str, files), "--out", out,
         "--workers", str(workers), "--shard-mib", "16"],
        check=True, stdout=subprocess.DEVNULL,
    )
    wall = time.monotonic() - started
    summary = json.loads((out / "summary.json").read_text())
    shutil.rmtree(out)
    return summary, wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=300, help="MB of PGN in each file (default 300)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", default="1,2", help="the cluster sizes (default 1,2)")
    parser.add_argument("--dir", type=Path, help="keep the database here, and reuse it")
    parser.add_argument(
        "--no-build", action="store_true", help="use the binaries as built ($ARBITER, $GEN_GAMES)"
    )
    args = parser.parse_args()
    arbiter, gen_games = build(args.no_build)
    work = args.dir or Path(tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    try:
        files = database(work, args.mb, args.seed, gen_games)
        text = files[0].stat().st_size * len(files)
        print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
        print(f"database: {len(files)} files, {text / 1e6:.0f} MB of PGN, "
              f"{sum(f.stat().st_size for f in files) / 1e6:.0f} MB on disk")
        games, cpu = one_core(arbiter, files)
        base = text / 1e6 / cpu
        print(f"arbiter chess pgn, one core: {games} games, {cpu:.1f} s of CPU: "
              f"{base:.1f} MB/s, {games / cpu:.0f} games/s per core")
        per_core = None
        for workers in map(int, args.workers.split(",")):
            summary, wall = scale(files, workers, work)
            assert summary["games"] == games, (summary["games"], games)
            per_core = text / 1e6 / summary["cpu_seconds"]
            games_per_core = games / summary["cpu_seconds"]
            print(
                f"arbiter.scale, {workers} worker(s): {wall:.1f} s of wall "
                f"({text / 1e6 / wall:.1f} MB/s, {games / wall:.0f} games/s), "
                f"{summary['cpu_seconds']:.1f} s of CPU in tasks: {per_core:.1f} MB/s and "
                f"{games_per_core:.0f} games/s per core, {per_core / base:.2f}× chess pgn's"
            )
        if per_core:
            month = LICHESS_MONTH_BYTES / 1e6 / per_core / 3600
            whole = LICHESS_GAMES / games_per_core / 3600
            print(f"projection: a lichess month (200 GB of PGN) {month:.1f} core-hours; "
                  f"the whole database (8 billion games) {whole:.0f} core-hours")
    finally:
        if not args.dir:
            shutil.rmtree(work)


if __name__ == "__main__":
    main()
