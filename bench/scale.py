#!/usr/bin/env python3
"""A database checked on Dask: throughput of `python -m arbiter.scale` with 1 and 2 workers,
against `arbiter chess pgn` on one core on the same files, and the projection for the whole
lichess database from the per-core figure.

    python3 bench/scale.py [--mb 300] [--seed 2026] [--workers 1,2] [--dir DIR] [--no-build]
                           [--games]

With --games the runs write the games themselves (`arbiter.scale --games`, the Parquet writer of
`arbiter chess convert`), measured against `arbiter chess convert` on one core, and the database
is lichess-style PGN (bench/lichess_pgn.rs: clocks after every move) instead of bare games.

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
            ["-p", "arbiter-chess-record", "--example", "lichess_pgn"],
        ):
            subprocess.run(["cargo", "build", "--release", "--quiet", *what], cwd=ROOT, check=True)
    release = ROOT / "target" / "release"
    arbiter = os.environ.get("ARBITER", release / "arbiter")
    return Path(arbiter), Path(os.environ.get("GEN_GAMES", release / "examples" / "gen_games"))


def database(work, mb, seed, gen_games, lichess=False):
    """The plain file and its copy in Zstandard frames, made unless already there: bare random
    games (`gen_games`), or lichess-style ones (`lichess_pgn`, about 2,500 bytes each)."""
    import zstandard

    stem = "lichess" if lichess else "games"
    plain, framed = work / f"{stem}.pgn", work / f"{stem}-frames.pgn.zst"
    if not plain.exists() or not framed.exists():
        with open(plain, "wb") as out:
            if lichess:
                generator = gen_games.with_name("lichess_pgn")
                games = mb * 1_000_000 // 2500
                subprocess.run([generator, str(games), str(seed)], stdout=out, check=True)
            else:
                games = mb * 1_000_000 // 715
                subprocess.run([gen_games, "--pgn", str(games), str(seed)], stdout=out, check=True)
        compressor = zstandard.ZstdCompressor(level=3)
        with open(plain, "rb") as source, open(framed, "wb") as out:
            while chunk := source.read(16 << 20):
                out.write(compressor.compress(chunk))
    return [plain, framed]


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_core(arbiter, files, work, games_too=False):
    """`arbiter chess pgn` (or with `games_too` `arbiter chess convert --to parquet`) on each
    file, one thread: (games, CPU seconds)."""
    before = cpu_of_children()
    games = 0
    env = {**os.environ, "RAYON_NUM_THREADS": "1"}
    for number, path in enumerate(files):
        if games_too:
            out = work / f"convert-{number}"
            shutil.rmtree(out, ignore_errors=True)
            run = subprocess.run(
                [arbiter, "chess", "convert", path, "--to", "parquet", "--out", out],
                env=env, capture_output=True, text=True, check=True,
            )
            games += int(run.stdout.split(": ")[1].split()[0])
            shutil.rmtree(out)
        else:
            run = subprocess.run([arbiter, "chess", "pgn", "--json", path], env=env,
                                 capture_output=True)
            games += run.stdout.count(b"\n")
    return games, cpu_of_children() - before


def scale(files, workers, work, games_too=False):
    """`python -m arbiter.scale` on a local cluster of `workers`: its summary, wall time and the
    size of its dataset in bytes."""
    out = work / f"out-{workers}"
    shutil.rmtree(out, ignore_errors=True)
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "arbiter.scale", *map(str, files), "--out", out,
         "--workers", str(workers), "--shard-mib", "16", *(["--games"] if games_too else [])],
        check=True, stdout=subprocess.DEVNULL,
    )
    wall = time.monotonic() - started
    summary = json.loads((out / "summary.json").read_text())
    size = sum(p.stat().st_size for p in (out / "games").rglob("*.parquet"))
    shutil.rmtree(out)
    return summary, wall, size


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=300, help="MB of PGN in each file (default 300)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", default="1,2", help="the cluster sizes (default 1,2)")
    parser.add_argument("--dir", type=Path, help="keep the database here, and reuse it")
    parser.add_argument(
        "--no-build", action="store_true", help="use the binaries as built ($ARBITER, $GEN_GAMES)"
    )
    parser.add_argument("--games", action="store_true",
                        help="write the games (arbiter.scale --games) on lichess-style PGN")
    args = parser.parse_args()
    arbiter, gen_games = build(args.no_build)
    work = args.dir or Path(tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    try:
        files = database(work, args.mb, args.seed, gen_games, args.games)
        text = files[0].stat().st_size * len(files)
        print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
        print(f"database: {len(files)} files, {text / 1e6:.0f} MB of PGN, "
              f"{sum(f.stat().st_size for f in files) / 1e6:.0f} MB on disk")
        games, cpu = one_core(arbiter, files, work, args.games)
        base = text / 1e6 / cpu
        command = "arbiter chess convert --to parquet" if args.games else "arbiter chess pgn"
        print(f"{command}, one core: {games} games, {cpu:.1f} s of CPU: "
              f"{base:.1f} MB/s, {games / cpu:.0f} games/s per core")
        per_core = None
        for workers in map(int, args.workers.split(",")):
            load = os.getloadavg()
            summary, wall, size = scale(files, workers, work, args.games)
            assert summary["games"] == games, (summary["games"], games)
            per_core = text / 1e6 / summary["cpu_seconds"]
            games_per_core = games / summary["cpu_seconds"]
            print(
                f"arbiter.scale, {workers} worker(s): {wall:.1f} s of wall "
                f"({text / 1e6 / wall:.1f} MB/s, {games / wall:.0f} games/s), "
                f"{summary['cpu_seconds']:.1f} s of CPU in tasks: {per_core:.1f} MB/s and "
                f"{games_per_core:.0f} games/s per core, {per_core / base:.2f}× the command's "
                f"(load before {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})"
            )
            if args.games:
                print(f"  dataset: {size / 1e6:.1f} MB of Parquet")
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
