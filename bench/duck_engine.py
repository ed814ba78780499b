#!/usr/bin/env python3
"""Duck Chess engine speed: arbiter's search against fairy-stockfish's, same run; and how fast
`go movetime` answers.

    python3 bench/duck_engine.py nps [--depth 10] [--fairy-stockfish PATH]
    python3 bench/duck_engine.py latency [--movetime 100] [--runs 50]
    python3 bench/duck_engine.py threads [--depth 13] [--threads 1,2] [--runs 5] [--arbiter PATH]

`nps` builds arbiter in release mode, starts `arbiter duck uci` twice (the default network, and
the classical evaluation with `EvalFile` empty) and one fairy-stockfish 11.1 with the project's
variant file, and has each search the same positions (the start and positions of a
game, where pieces meet) to a fixed depth, one thread, a fresh table for each. It prints a Markdown
table of nodes, CPU seconds (the time to depth) and nodes per CPU second for each engine, and the
ratios. CPU time is
read from /proc, so the figures hold on a busy machine better than wall time would.

`threads` has `arbiter duck uci` search the same positions to a fixed depth with each number of
threads (`setoption name Threads`), a fresh table for each, RUNS times over; more threads search
differently each time, so it prints the median over the runs of the total wall time to reach the
depth, the nodes, the nodes per wall second and the CPU time, and the time-to-depth and
nodes-per-second ratios against the first thread count. Wall time is what threads buy: run it on
an otherwise idle machine with at least as many cores as the largest count. The nodes per CPU
second, and their ratio to one thread's, hold on a busy machine too: what a thread's node costs
when the threads share the table (on an idle machine, the nodes per second scale by the threads
times that ratio).

`latency` sends `go movetime T` to `arbiter duck uci` from various positions and measures the wall
time from sending `go` to reading `bestmove`; it prints the median, 95th percentile and worst
overshoot beyond T (the target is under 50 ms).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = os.path.join(ROOT, "crates", "duck", "tests", "fixtures", "duck-variants.ini")
ARBITER = os.path.join(ROOT, "target", "release", "arbiter")
TICKS = os.sysconf("SC_CLK_TCK")

# The start, and positions of one game (moves from the start), where pieces meet.
POSITIONS = [
    "",
    "e4e5 e7e6 e5e6 c7d6",
    "e4e5 e7e6 e5e6 c7d6 b1c3 d6e6 c3d5 h10g8",
    "c4c5 g7g6 h1g3 b10c8 g4f5 c8d6 a3d5 i8f6 c5c6",
    "i1i2 a10a9 a1a2 i10i9 a2d2 b10c8 i4h5 c7d6 i2f2 c8b6 a4b4 i9f9",
]


def process_cpu(pid):
    """CPU seconds used so far by process `pid` (user + system), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Engine:
    def __init__(self, command, options=()):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        for option in options:
            self.send(option)
        self.ready()

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def wait_for(self, done):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"{self.proc.args[0]} stopped")
            line = line.strip()
            if done(line):
                return line

    def ready(self):
        self.send("isready")
        self.wait_for(lambda line: line == "readyok")

    def search(self, moves, go):
        """(nodes, CPU seconds, wall seconds) of one search from a fresh game."""
        self.send("ucinewgame")
        self.ready()
        self.send("position startpos" + (f" moves {moves}" if moves else ""))
        nodes = 0

        def done(line):
            nonlocal nodes
            words = line.split()
            if words[:1] == ["info"] and "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
            return line.startswith("bestmove")

        cpu = process_cpu(self.proc.pid)
        start = time.perf_counter()
        self.send(go)
        self.wait_for(done)
        return nodes, process_cpu(self.proc.pid) - cpu, time.perf_counter() - start

    def close(self):
        self.send("quit")
        self.proc.wait()


def build():
    subprocess.run(["cargo", "build", "--release", "--locked", "-p", "arbiter-cli"], cwd=ROOT,
                   check=True)


def nps(args):
    build()
    engines = [
        ("arbiter (network)", Engine([ARBITER, "duck", "uci"])),
        ("arbiter (classical)", Engine([ARBITER, "duck", "uci"], ["setoption name EvalFile value"])),
        ("fairy-stockfish 11.1", Engine([args.fairy_stockfish], [
            f"setoption name VariantPath value {VARIANTS}",
            "setoption name UCI_Variant value duck",
        ])),
    ]
    totals = {}
    for name, engine in engines:
        nodes = cpu = 0
        for moves in POSITIONS:
            n, c, _ = engine.search(moves, f"go depth {args.depth}")
            nodes += n
            cpu += c
        totals[name] = (nodes, cpu)
        engine.close()
    print(f"Search to depth {args.depth} from {len(POSITIONS)} positions, one thread, a fresh "
          f"table each; the CPU time is the time to depth:\n")
    print("| engine | nodes | CPU s | nodes per CPU second |")
    print("| --- | ---: | ---: | ---: |")
    for name, (nodes, cpu) in totals.items():
        print(f"| {name} | {nodes:,} | {cpu:.2f} | {nodes / cpu / 1000:,.0f} k |")
    theirs = totals["fairy-stockfish 11.1"]
    classical = totals["arbiter (classical)"]
    for name in ["arbiter (network)", "arbiter (classical)"]:
        ours = totals[name]
        ratio = (ours[0] / ours[1]) / (theirs[0] / theirs[1])
        print(f"\n{name} searches {ratio:.2f}x the nodes per second of fairy-stockfish.", end="")
    ours = totals["arbiter (network)"]
    print(f"\nThe network against the classical evaluation: "
          f"{(ours[0] / ours[1]) / (classical[0] / classical[1]):.2f}x the nodes per second, "
          f"{classical[1] / ours[1]:.2f}x as fast to depth {args.depth}.")


def threads(args):
    arbiter = args.arbiter
    if not arbiter:
        build()
        arbiter = ARBITER
    counts = [int(count) for count in args.threads.split(",")]
    rows = []
    load = open("/proc/loadavg").read().split()[:3]
    for count in counts:
        engine = Engine([arbiter, "duck", "uci"], [f"setoption name Threads value {count}"])
        runs = []
        for _ in range(args.runs):
            searches = [engine.search(moves, f"go depth {args.depth}") for moves in POSITIONS]
            runs.append(tuple(sum(column) for column in zip(*searches)))
        engine.close()
        nodes, cpu, wall = (statistics.median(column) for column in zip(*runs))
        rows.append((count, nodes, cpu, wall))
    print(f"Search to depth {args.depth} from {len(POSITIONS)} positions, a fresh table each; "
          f"medians of {args.runs} runs ({os.cpu_count()} cores, load average "
          f"{' '.join(load)} at the start):\n")
    print("| threads | wall s | nodes | nodes per wall second | CPU s | time to depth | "
          "nodes per second | nodes per CPU second | per CPU second, against 1 thread |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    base = rows[0]
    for count, nodes, cpu, wall in rows:
        print(f"| {count} | {wall:.2f} | {nodes:,.0f} | {nodes / wall / 1000:,.0f} k | {cpu:.2f} | "
              f"{base[3] / wall:.2f}x | {(nodes / wall) / (base[1] / base[3]):.2f}x | "
              f"{nodes / cpu / 1000:,.0f} k | {(nodes / cpu) / (base[1] / base[2]):.2f}x |")


def latency(args):
    build()
    engine = Engine([ARBITER, "duck", "uci"])
    overshoots = []
    for run in range(args.runs):
        moves = POSITIONS[run % len(POSITIONS)]
        _, _, wall = engine.search(moves, f"go movetime {args.movetime}")
        overshoots.append(wall * 1000 - args.movetime)
    engine.close()
    overshoots.sort()
    p95 = overshoots[min(len(overshoots) - 1, int(len(overshoots) * 0.95))]
    print(f"go movetime {args.movetime}, {args.runs} searches: bestmove after T + "
          f"{statistics.median(overshoots):.1f} ms (median), {p95:.1f} ms (95%), "
          f"{overshoots[-1]:.1f} ms (worst)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("nps")
    p.add_argument("--depth", type=int, default=10)
    p.add_argument("--fairy-stockfish", default="/usr/games/fairy-stockfish")
    p = sub.add_parser("threads")
    p.add_argument("--depth", type=int, default=13)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--arbiter", help="this binary instead of a release build made first")
    p = sub.add_parser("latency")
    p.add_argument("--movetime", type=int, default=100)
    p.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    {"nps": nps, "threads": threads, "latency": latency}[args.command](args)


if __name__ == "__main__":
    main()
