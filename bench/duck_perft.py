#!/usr/bin/env python3
"""Duck Chess perft speed: `arbiter duck perft` against fairy-stockfish's `go perft`, same run.

Builds arbiter in release mode, starts one fairy-stockfish 11.1 process with the project's variant
file (crates/duck/tests/fixtures/duck-variants.ini), then alternates the two programs on perft from
the starting position, several runs each, checks that both count the same leaves, and prints a
Markdown table: median and best wall time, CPU time, leaves per second and the speed ratio. Both
count the last ply in bulk (without playing its moves) and use one thread.

arbiter's time includes starting its process (about a millisecond); fairy-stockfish's is timed
from sending `go perft` to reading `Nodes searched`, its start-up excluded.

    python3 bench/duck_perft.py [--depth 5] [--runs 5] [--fairy-stockfish PATH]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = os.path.join(ROOT, "crates", "duck", "tests", "fixtures", "duck-variants.ini")
TICKS = os.sysconf("SC_CLK_TCK")


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid):
    """CPU seconds used so far by process `pid` (user + system), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class FairyStockfish:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send(f"setoption name VariantPath value {VARIANTS}")
        self.send("setoption name UCI_Variant value duck")
        self.send("isready")
        self.wait_for(lambda line: line == "readyok")

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def wait_for(self, done):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("fairy-stockfish stopped")
            line = line.strip()
            if done(line):
                return line

    def perft(self, depth):
        """(leaves, wall seconds, CPU seconds) of `go perft depth` from the start."""
        self.send("position startpos")
        cpu = process_cpu(self.proc.pid)
        start = time.perf_counter()
        self.send(f"go perft {depth}")
        line = self.wait_for(lambda line: line.startswith("Nodes searched:"))
        wall = time.perf_counter() - start
        return int(line.split(":")[1]), wall, process_cpu(self.proc.pid) - cpu

    def close(self):
        self.send("quit")
        self.proc.wait()


def arbiter_perft(binary, depth):
    cpu = children_cpu()
    start = time.perf_counter()
    out = subprocess.run([binary, "duck", "perft", str(depth)], check=True, capture_output=True,
                         text=True).stdout
    wall = time.perf_counter() - start
    return int(out.split()[-1]), wall, children_cpu() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--fairy-stockfish", default="/usr/games/fairy-stockfish")
    args = parser.parse_args()
    if not os.path.exists(args.fairy_stockfish):
        sys.exit(f"{args.fairy_stockfish} not found (apt-get install fairy-stockfish)")

    subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "arbiter-cli"], check=True,
                   cwd=ROOT)
    binary = os.path.join(ROOT, "target", "release", "arbiter")
    engine = FairyStockfish(args.fairy_stockfish)
    results = {"arbiter duck perft": [], "fairy-stockfish go perft": []}
    leaves = set()
    for _ in range(args.runs):
        for name, run in [("arbiter duck perft", lambda: arbiter_perft(binary, args.depth)),
                          ("fairy-stockfish go perft", lambda: engine.perft(args.depth))]:
            count, wall, cpu = run()
            leaves.add(count)
            results[name].append((wall, cpu))
    engine.close()
    if len(leaves) != 1:
        sys.exit(f"the programs count different leaves: {sorted(leaves)}")
    count = leaves.pop()

    print(f"perft {args.depth} from the start ({count:,} leaves), {args.runs} runs each, "
          f"alternated, one thread each, load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores\n")
    print("| program | median wall | best wall | median CPU | leaves/s (median wall) |")
    print("| --- | --- | --- | --- | --- |")
    medians = {}
    for name, runs in results.items():
        wall = statistics.median(w for w, _ in runs)
        best = min(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        medians[name] = (wall, best, cpu)
        print(f"| {name} | {wall:.3f} s | {best:.3f} s | {cpu:.3f} s | {count / wall / 1e6:.0f} M |")
    ours, theirs = medians["arbiter duck perft"], medians["fairy-stockfish go perft"]
    print(f"\narbiter is {theirs[0] / ours[0]:.1f}× faster by median wall time, "
          f"{theirs[1] / ours[1]:.1f}× by best wall time, {theirs[2] / ours[2]:.1f}× by CPU time "
          f"(target: ≥ 8×)")


if __name__ == "__main__":
    main()
