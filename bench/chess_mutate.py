#!/usr/bin/env python3
"""Spoils records at random, reproducibly: one character deleted, inserted or replaced in one
token, or the record cut after it. Reads records (one per line) on stdin, writes them on stdout.

Usage: python3 bench/chess_mutate.py SEED < games.txt > mutated.txt
"""

import random
import sys

ALPHABET = "KQRBNabcdefgh12345678x=+#O-0."


def mutate(rng, line):
    tokens = line.split()
    if not tokens:
        return line
    i = rng.randrange(len(tokens))
    token = tokens[i]
    kind = rng.randrange(4)
    if kind == 0 and len(token) > 1:
        j = rng.randrange(len(token))
        token = token[:j] + token[j + 1:]
    elif kind == 1:
        j = rng.randrange(len(token) + 1)
        token = token[:j] + rng.choice(ALPHABET) + token[j:]
    elif kind == 2:
        j = rng.randrange(len(token))
        token = token[:j] + rng.choice(ALPHABET) + token[j + 1:]
    else:
        tokens = tokens[: i + 1]
    tokens[i] = token
    return " ".join(tokens)


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    for line in sys.stdin:
        print(mutate(rng, line.rstrip("\n")))


if __name__ == "__main__":
    main()
