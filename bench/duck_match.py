#!/usr/bin/env python3
"""`arbiter duck match`: the runner's own cost per move, and a fairy-stockfish self-play check.

1. Overhead. Two instant movers (`arbiter duck uci --random`, which answers `go` at once with a
   uniformly random valid move) play GAMES games through `arbiter duck match`, one at a time.
   Every ply then costs what the runner adds (writing `position` and `go`, reading and judging
   the reply, the pipes, the processes waking up) plus the mover's own small work (reading the
   position, listing moves). Baseline in the same run: a bare Python loop sends the very same
   `position`/`go` lines (taken from the games just played) to the same two engines and reads
   each `bestmove`, judging nothing: the floor of the protocol round trip. Both are timed per ply.

2. Sanity. fairy-stockfish 11.1 against itself (random openings, two games at a time): equal
   sides, so the Elo interval must contain 0. The limit is `--self-play-limit` ("--nodes 10000"
   by default): with a node limit the engine is deterministic, so both games of a pair mirror
   each other and every pair must score exactly 1, a check of the pairing; with a time limit
   ("--movetime 30 --time-margin 1000"; the margin because on a loaded machine the processes
   wait for a CPU) the games vary and the interval has a width.

    python3 bench/duck_match.py [--games 200] [--runs 3] [--self-play-games 100]
        [--self-play-limit "--nodes 10000"] [--fairy-stockfish PATH] [--skip-overhead]
        [--skip-self-play]

Prints Markdown for BENCHMARKS.md.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARBITER = os.path.join(ROOT, "target", "release", "arbiter")
TICKS = os.sysconf("SC_CLK_TCK")
VARIANTS = os.path.join(ROOT, "crates", "duck", "tests", "fixtures", "duck-variants.ini")


def build():
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "arbiter-cli"], cwd=ROOT, check=True)


def own_cpu(pid):
    """CPU seconds used so far by process `pid` itself (user + system, not its children)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def run_match(args):
    """Runs `arbiter duck match ARGS --json`: (wall seconds, the runner's own CPU seconds, game
    lines, summary). The CPU time is sampled from /proc every 10 ms until the runner exits, so
    it misses at most its last 10 ms."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([ARBITER, "duck", "match", *args, "--json"], stdout=out,
                                stderr=err, text=True)
        cpu = 0.0
        while proc.poll() is None:
            try:
                cpu = own_cpu(proc.pid)
            except (OSError, IndexError, ValueError):
                pass
            time.sleep(0.01)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            sys.exit(f"arbiter duck match failed: {err.read()}")
        lines = [json.loads(line) for line in out.read().splitlines()]
    return wall, cpu, lines[:-1], lines[-1]


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.ask("uci", "uciok")
        self.ask("isready", "readyok")

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def ask(self, command, answer_prefix):
        self.send(command)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("engine stopped")
            if line.startswith(answer_prefix):
                return line

    def close(self):
        self.proc.stdin.write("quit\n")
        self.proc.stdin.flush()
        self.proc.wait()


def opening_length(game):
    """The plies of a game's opening (`startpos moves M1 M2 ...`)."""
    words = game["opening"].split()
    return len(words) - 2 if "moves" in words else 0


def bare_loop(games):
    """The same position/go exchanges as `games`, with nothing judged: wall seconds and plies."""
    engines = [Engine([ARBITER, "duck", "uci", "--random", "--seed", str(seed)]) for seed in (1, 2)]
    plies = 0
    start = time.perf_counter()
    for game in games:
        first = game["red_engine"] - 1
        opening = opening_length(game)
        for engine in engines:
            engine.send("ucinewgame")
            engine.ask("isready", "readyok")
        for ply in range(opening, game["plies"]):
            engine = engines[first if (ply - opening) % 2 == 0 else 1 - first]
            moves = " ".join(game["moves"][:ply])
            engine.send(f"position startpos moves {moves}" if moves else "position startpos")
            engine.ask("go depth 1", "bestmove")
            plies += 1
    wall = time.perf_counter() - start
    for engine in engines:
        engine.close()
    return wall, plies


def overhead(games, runs):
    random1 = f"{ARBITER} duck uci --random --seed 1"
    random2 = f"{ARBITER} duck uci --random --seed 2"
    walls, cpus, bare_walls = [], [], []
    # Alternated, medians kept: the machine's load drifts between runs.
    for _ in range(runs):
        wall, cpu, lines, summary = run_match(["--engine", random1, "--engine", random2,
                                               "--games", str(games), "--depth", "1",
                                               "--random-openings", "4"])
        walls.append(wall)
        cpus.append(cpu)
        bare_wall, bare_plies = bare_loop(lines)
        bare_walls.append(bare_wall)
    wall, bare_wall = statistics.median(walls), statistics.median(bare_walls)
    cpu = statistics.median(cpus)
    plies = sum(line["plies"] for line in lines)
    opening_plies = sum(opening_length(line) for line in lines)
    engine_plies = plies - opening_plies
    assert bare_plies == engine_plies, (bare_plies, engine_plies)
    endings = ", ".join(f"{k} {v}" for k, v in summary["endings"].items())
    print(f"### Runner overhead: {games} games between two random movers ({endings}), "
          f"median of {runs} runs\n")
    print("| driver | wall | games/s | engine plies/s | µs per ply |")
    print("| --- | --- | --- | --- | --- |")
    print(f"| arbiter duck match (judges every move) | {wall:.2f} s | {games / wall:.1f} | "
          f"{engine_plies / wall:,.0f} | {1e6 * wall / engine_plies:.0f} |")
    print(f"| bare Python loop, same lines (judges nothing) | {bare_wall:.2f} s | "
          f"{games / bare_wall:.1f} | {bare_plies / bare_wall:,.0f} | "
          f"{1e6 * bare_wall / bare_plies:.0f} |")
    print(f"\nRatio (bare loop / runner, time per ply): **{bare_wall / wall:.2f}×**; "
          f"{engine_plies} engine plies, {opening_plies} opening plies. The runner's own CPU "
          f"time (its process, without the engines): {cpu:.2f} s, "
          f"**{1e6 * cpu / engine_plies:.0f} µs per ply**.\n")


def self_play(games, limit, fairy):
    engine = ["--engine", fairy, "--option", f"VariantPath={VARIANTS}", "--option",
              "UCI_Variant=duck"]
    wall, _, lines, summary = run_match([*engine, *engine, "--games", str(games),
                                         *limit.split(), "--random-openings", "8", "--seed",
                                         "1", "--concurrency", "2"])
    elo = summary["elo"]
    fmt = lambda v: "inf" if v is None else f"{v:+.1f}"
    contains = elo["lower"] is not None and elo["upper"] is not None and \
        elo["lower"] <= 0 <= elo["upper"]
    plies = statistics.mean(line["plies"] for line in lines)
    print(f"### fairy-stockfish against itself: {games} games, `{limit}`\n")
    print("| W / D / L (first engine) | score | Elo (95% interval) | LOS | pairs 0 / ½ / 1 / 1½ / 2 | endings | mean plies | wall |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    endings = ", ".join(f"{k} {v}" for k, v in summary["endings"].items())
    pairs = " / ".join(str(n) for n in summary["pentanomial"])
    print(f"| {summary['wins']} / {summary['draws']} / {summary['losses']} | "
          f"{100 * summary['score']:.1f}% | {fmt(elo['elo'])} ({fmt(elo['lower'])} to "
          f"{fmt(elo['upper'])}) | {100 * elo['los']:.1f}% | {pairs} | {endings} | "
          f"{plies:.0f} | {wall:.0f} s |")
    print(f"\nThe interval {'contains' if contains else 'DOES NOT contain'} 0.\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--self-play-games", type=int, default=100)
    parser.add_argument("--self-play-limit", default="--nodes 10000")
    parser.add_argument("--skip-overhead", action="store_true")
    parser.add_argument("--fairy-stockfish", default="/usr/games/fairy-stockfish")
    parser.add_argument("--skip-self-play", action="store_true")
    args = parser.parse_args()
    build()
    if not args.skip_overhead:
        overhead(args.games, args.runs)
    if not args.skip_self_play:
        self_play(args.self_play_games, args.self_play_limit, args.fairy_stockfish)


if __name__ == "__main__":
    main()
