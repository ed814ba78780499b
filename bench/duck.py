#!/usr/bin/env python3
"""End-to-end benchmark of `arbiter duck` against the official reference solutions.

Builds arbiter in release mode, generates a deterministic 1,000,000-command game
(`crates/duck/examples/gen_commands.rs`), compiles the C++ solutions printed in the problem's
statement and editorial (seeds 000 and 001 in the shared material, when it is present beside the
project; nothing of them is stored here) with `g++ -O2`, runs every program several times on the
same input in this one run, checks that all outputs are identical, and prints a Markdown table
with the median and best wall time and CPU time (user + system), commands per second and the
speed-up over each baseline (by median wall time).
`--reference BINARY` adds another build of arbiter (e.g. one from an earlier commit) to compare
with in the same run. Runs are interleaved, program by program, so that a change in the machine's
load touches every program alike.

    python3 bench/duck.py [--commands N] [--runs R] [--shared PATH] [--reference BINARY]
"""

import argparse
import glob
import os
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "target", "bench")


def run(cmd, **kw):
    subprocess.run(cmd, check=True, cwd=ROOT, **kw)


def last_cpp_block(path):
    text = open(path, encoding="utf-8").read()
    blocks = re.findall(r"```cpp\n(.*?)(?:```|\Z)", text, re.S)
    return blocks[-1] if blocks else None


def baselines(shared):
    """Compile the reference solutions found in the seeds; returns [(name, argv)]."""
    found = []
    for seed, name in [("000_*.txt", "official solution (seed 000, g++ -O2)"),
                       ("001_*.txt", "editorial solution (seed 001, g++ -O2)")]:
        paths = glob.glob(os.path.join(shared, "seeds", seed))
        code = last_cpp_block(paths[0]) if paths else None
        if not code or "main" not in code:
            continue
        src = os.path.join(OUT, seed[:3] + ".cpp")
        exe = os.path.join(OUT, seed[:3])
        with open(src, "w", encoding="utf-8") as f:
            f.write(code)
        try:
            run(["g++", "-O2", "-std=c++17", "-w", "-o", exe, src])
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"skipping {name}: {e}", file=sys.stderr)
            continue
        found.append((name, [exe]))
    return found


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_run(argv, input_path, output_path):
    """(wall seconds, CPU seconds) of one run."""
    with open(input_path, "rb") as fin, open(output_path, "wb") as fout:
        cpu = children_cpu()
        start = time.perf_counter()
        subprocess.run(argv, stdin=fin, stdout=fout, check=True)
        return time.perf_counter() - start, children_cpu() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    parser.add_argument("--reference", help="another arbiter binary to time in the same run")
    args = parser.parse_args()

    os.makedirs(OUT, exist_ok=True)
    run(["cargo", "build", "--release", "--quiet", "-p", "arbiter-cli"])
    run(["cargo", "build", "--release", "--quiet", "-p", "arbiter-duck", "--example", "gen_commands"])
    input_path = os.path.join(OUT, f"duck-{args.commands}.in")
    with open(input_path, "wb") as f:
        run([os.path.join(ROOT, "target", "release", "examples", "gen_commands"),
             str(args.commands), "2019"], stdout=f)
    size = os.path.getsize(input_path)

    programs = [("arbiter duck", [os.path.join(ROOT, "target", "release", "arbiter"), "duck"])]
    if args.reference:
        programs.append((f"arbiter duck, reference build `{args.reference}`",
                         [args.reference, "duck"]))
    programs += baselines(args.shared)

    times = {name: [] for name, _ in programs}
    for _ in range(args.runs):
        for i, (name, argv) in enumerate(programs):
            times[name].append(time_run(argv, input_path, os.path.join(OUT, f"duck-out-{i}.txt")))
    reference = open(os.path.join(OUT, "duck-out-0.txt"), "rb").read()
    for i, (name, _) in enumerate(programs):
        if open(os.path.join(OUT, f"duck-out-{i}.txt"), "rb").read() != reference:
            sys.exit(f"{name}: output differs from arbiter's")
    results = [(name, statistics.median(w for w, _ in times[name]), min(w for w, _ in times[name]),
                statistics.median(c for _, c in times[name]), min(c for _, c in times[name]))
               for name, _ in programs]

    ours = results[0][1]
    print(f"{args.commands:,} commands ({size / 1e6:.1f} MB), median of {args.runs} runs, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, "
          f"all outputs identical\n")
    print("| program | median | best | CPU median | CPU best | commands/s | arbiter is faster by |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, median, best, cpu, cpu_best in results:
        ratio = "—" if name == "arbiter duck" else f"{median / ours:.1f}×"
        print(f"| {name} | {median * 1000:.1f} ms | {best * 1000:.1f} ms | {cpu * 1000:.1f} ms | "
              f"{cpu_best * 1000:.1f} ms | {args.commands / median / 1e6:.1f} M | {ratio} |")


if __name__ == "__main__":
    main()
