#!/usr/bin/env python3
"""arbiter's Python API against a python-chess strict check, on the same games, in one run.

    python3 bench/python.py [GAMES] [SEED]      (defaults: 10000 games, seed 2026)

Needs the package (`python3 -m pip install ./python`) and python-chess (`pip install chess`).
Generates the games with crates/chess-record/examples/gen_games.rs (one contest record per line,
and the same games as PGN), then times, each over every game:

- `arbiter.check_record(line)` in a Python loop, on one core: best of 10 runs, five before
  python-chess and five after it, so that a neighbour's burst on a shared machine weighs less;
- the python-chess strict check of bench/chess_baseline.py (each token parsed with
  `board.parse_san` and compared with `board.san(move)` in the contest dialect): once, it runs
  for half a minute;
- `arbiter.check_pgn_file(path)` over the PGN, one core (`RAYON_NUM_THREADS=1`) and all cores:
  best of 5 each;
- `arbiter chess --each-line` on one core, the same check from the command line, for the cost of
  the Python calls (when `cargo build --release -p arbiter-cli` succeeds).

Every tool must accept every game. Prints wall-clock and CPU time (user + system, all threads),
plies per second and the ratios python-chess / arbiter.
"""

import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(work):
    """Runs `work()`; returns its result and (wall, cpu) seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, (time.perf_counter() - wall, time.process_time() - cpu)


def best(runs, work):
    """The least wall-clock and the least CPU time of `runs` runs of `work()`."""
    times = [timed(work)[1] for _ in range(runs)]
    return min(t[0] for t in times), min(t[1] for t in times)


def better(a, b):
    return min(a[0], b[0]), min(a[1], b[1])


def check_records(arbiter, lines):
    accepted = sum(1 for line in lines if arbiter.check_record(line).ok)
    if accepted != len(lines):
        sys.exit(f"arbiter accepted {accepted} of {len(lines)} records; expected all")


def pgn_child(path, runs):
    """In a child process (so that RAYON_NUM_THREADS takes effect): best of `runs` readings of
    the PGN file with check_pgn_file; prints `WALL CPU GAMES PEAK-RSS-KIB`."""
    import resource

    import arbiter

    counts = []

    def read():
        counts.append(sum(1 for report in arbiter.check_pgn_file(path) if report.ok))

    wall, cpu = best(runs, read)
    print(wall, cpu, min(counts), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def time_pgn(path, games, threads):
    env = dict(os.environ)
    if threads:
        env["RAYON_NUM_THREADS"] = str(threads)
    out = subprocess.run(
        [sys.executable, __file__, "--pgn-child", str(path), "5"],
        env=env, check=True, capture_output=True, text=True,
    ).stdout.split()
    wall, cpu, ok, rss = float(out[0]), float(out[1]), int(out[2]), int(out[3])
    if ok != games:
        sys.exit(f"arbiter.check_pgn_file accepted {ok} of {games} games; expected all")
    print(f"arbiter.check_pgn_file, {threads or 'all'} thread(s): peak RSS of the Python process "
          f"{rss / 1024:.1f} MiB")
    return wall, cpu


def build(*args):
    run = subprocess.run(["cargo", "build", "--release", "--quiet", *args], cwd=ROOT,
                         capture_output=True, text=True)
    return run.returncode == 0


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    try:
        import chess
        import arbiter
    except ImportError as error:
        sys.exit(f"{error}: pip install chess ./python")
    sys.path.insert(0, str(ROOT / "bench"))
    from chess_baseline import check as python_chess_check

    if not build("-p", "arbiter-chess-record", "--example", "gen_games"):
        sys.exit("cargo build --release --example gen_games failed")
    generate = ROOT / "target/release/examples/gen_games"
    with tempfile.TemporaryDirectory() as work:
        records = Path(work) / "games.txt"
        pgn = Path(work) / "games.pgn"
        records.write_bytes(subprocess.run([generate, str(games), str(seed)], check=True,
                                           capture_output=True).stdout)
        pgn.write_bytes(subprocess.run([generate, "--pgn", str(games), str(seed)], check=True,
                                       capture_output=True).stdout)
        lines = records.read_text().splitlines()
        plies = sum(1 for line in lines for token in line.split() if not token.endswith("."))
        print(f"input: {games} games, {plies} plies, {records.stat().st_size} bytes "
              f"(PGN {pgn.stat().st_size} bytes), seed {seed}")

        api = best(5, lambda: check_records(arbiter, lines))
        accepted, py = timed(lambda: sum(1 for line in lines if python_chess_check(line)))
        if accepted != games:
            sys.exit(f"python-chess accepted {accepted} of {games} records; expected all")
        api = better(api, best(5, lambda: check_records(arbiter, lines)))
        pgn_one = time_pgn(pgn, games, 1)
        pgn_all = time_pgn(pgn, games, None)

        cli = None
        if build("-p", "arbiter-cli"):
            binary = str(ROOT / "target/release/arbiter")
            env = dict(os.environ, RAYON_NUM_THREADS="1")

            def each_line():
                times = os.times()
                wall = time.perf_counter()
                subprocess.run([binary, "chess", "--each-line", str(records)], env=env,
                               check=True, capture_output=True)
                after = os.times()
                cpu = (after.children_user - times.children_user
                       + after.children_system - times.children_system)
                return time.perf_counter() - wall, cpu

            runs = [each_line() for _ in range(5)]
            cli = min(r[0] for r in runs), min(r[1] for r in runs)

    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
          f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"CPython {platform.python_version()}, python-chess {chess.__version__}, "
          f"arbiter {arbiter.__version__}")

    def report(name, times):
        wall, cpu = times
        print(f"{name:<40} wall {wall:7.3f} s  cpu {cpu:7.3f} s  {plies / wall:10.0f} plies/s"
              f"  {cpu * 1e6 / plies:6.3f} us/ply (cpu)")

    report("arbiter.check_record, 1 core", api)
    report("python-chess strict check", py)
    report("arbiter.check_pgn_file, 1 core", pgn_one)
    report("arbiter.check_pgn_file, all cores", pgn_all)
    if cli:
        report("arbiter chess --each-line, 1 core", cli)
    print(f"ratio python-chess / arbiter.check_record: wall {py[0] / api[0]:.0f}x, "
          f"cpu {py[1] / api[1]:.0f}x (one core each)")
    print(f"ratio python-chess / arbiter.check_pgn_file: wall {py[0] / pgn_one[0]:.0f}x on 1 core, "
          f"{py[0] / pgn_all[0]:.0f}x on all cores; cpu {py[1] / pgn_one[1]:.0f}x on 1 core")
    if cli:
        print(f"arbiter.check_record / arbiter chess --each-line (1 core): "
              f"wall {api[0] / cli[0]:.2f}x, cpu {api[1] / cli[1]:.2f}x")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--pgn-child":
        pgn_child(sys.argv[2], int(sys.argv[3]))
    else:
        main()
