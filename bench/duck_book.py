#!/usr/bin/env python3
"""The Duck Chess opening book of short openings that strength matches are played from.

Each opening is a few random valid plies from the start (2, 4 or 6 by default), kept only if
fairy-stockfish, searching it to a fixed depth, finds it balanced (|score| <= --max-cp): a random
move often drops a piece, and an opening decided before the engines play measures nothing.
fairy-stockfish judges balance rather than arbiter so that the book does not favour the engine
it is used to measure. The moves are drawn with Python's `random` from --seed among the valid
moves arbiter lists (`go perft 1`), so the same arguments give the same book.

    python3 bench/duck_book.py [--per-length 20] [--lengths 2,4,6] [--seed 2026]
        [--depth 10] [--max-cp 100] > bench/openings/duck-short.txt

The book is read by `arbiter duck match --openings FILE`, which plays each opening twice, once
with each engine as red.
"""

import argparse
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARBITER = os.path.join(ROOT, "target", "release", "arbiter")
VARIANTS = os.path.join(ROOT, "crates", "duck", "tests", "fixtures", "duck-variants.ini")


class Engine:
    """A UCI engine on pipes."""

    def __init__(self, command, options=()):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        self.send("uci")
        self.until("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"the engine {self.proc.args} stopped")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        self.proc.wait()


def position(moves):
    return "position startpos" + (" moves " + " ".join(moves) if moves else "")


def valid_moves(arbiter, moves):
    arbiter.send(position(moves))
    arbiter.send("go perft 1")
    return [line.split(":")[0] for line in arbiter.until("Nodes searched") if ": " in line
            and not line.startswith("Nodes")]


def score(fsf, moves, depth):
    """fairy-stockfish's score of the position for the side to move, in centipawns; None for a
    mate score."""
    fsf.send(position(moves))
    fsf.send(f"go depth {depth}")
    last = None
    for line in fsf.until("bestmove"):
        words = line.split()
        if "score" in words:
            kind, value = words[words.index("score") + 1:words.index("score") + 3]
            last = int(value) if kind == "cp" else None
    return last


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-length", type=int, default=20)
    parser.add_argument("--lengths", default="2,4,6")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--max-cp", type=int, default=100)
    parser.add_argument("--fairy-stockfish", default="/usr/games/fairy-stockfish")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    arbiter = Engine([ARBITER, "duck", "uci"])
    fsf = Engine([args.fairy_stockfish],
                 [("VariantPath", VARIANTS), ("UCI_Variant", "duck")])
    print("# Duck Chess openings for strength matches: random valid plies from the start, kept")
    print(f"# when fairy-stockfish 11.1 scores them within ±{args.max_cp} cp at depth "
          f"{args.depth}. Made by")
    print(f"#   python3 bench/duck_book.py --per-length {args.per_length} "
          f"--lengths {args.lengths} --seed {args.seed} --depth {args.depth} "
          f"--max-cp {args.max_cp}")
    seen = set()
    for length in (int(n) for n in args.lengths.split(",")):
        kept = 0
        tried = 0
        while kept < args.per_length:
            tried += 1
            if tried > 100 * args.per_length:
                sys.exit(f"too few balanced openings of {length} plies")
            moves = []
            for _ in range(length):
                choices = valid_moves(arbiter, moves)
                if not choices:
                    break
                moves.append(rng.choice(sorted(choices)))
            if len(moves) < length or tuple(moves) in seen:
                continue
            if not valid_moves(arbiter, moves):
                continue
            value = score(fsf, moves, args.depth)
            if value is None or abs(value) > args.max_cp:
                continue
            seen.add(tuple(moves))
            kept += 1
            print(" ".join(moves))
        print(f"{length} plies: kept {kept} of {tried}", file=sys.stderr)
    arbiter.close()
    fsf.close()


if __name__ == "__main__":
    main()
