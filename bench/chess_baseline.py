#!/usr/bin/env python3
"""Strict check of contest chess records with python-chess: the baseline of bench/chess.sh.

Reads one record per line (FILE or stdin) and prints Yes or No per line, by the rules of
docs/rules.md#chess-records:
each token is parsed with python-chess (after putting back the `=` the contest dialect drops) and
must equal board.san(move) written in the dialect (no `=`, `+` instead of `#`).
"""

import re
import sys

import chess

PROMOTION = re.compile(r"^(.*[1-8])([QRBNK])$")


def dialect(san):
    return san.replace("=", "").replace("#", "+")


def check(line):
    board = chess.Board()
    tokens = line.split()
    i = 0
    number = 1
    while i < len(tokens):
        if tokens[i] != f"{number}.":
            return False
        i += 1
        if i == len(tokens):
            return False
        for _side in range(2):
            if i == len(tokens):
                return True
            token = tokens[i]
            body = token.rstrip("+#")
            if body.startswith("0"):
                return False
            match = PROMOTION.match(body)
            if match and "=" not in body:
                body = match.group(1) + "=" + match.group(2)
            try:
                move = board.parse_san(body)
            except ValueError:
                return False
            if dialect(board.san(move)) != token:
                return False
            board.push(move)
            i += 1
        number += 1
    return True


def main():
    source = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    out = []
    for line in source:
        out.append("Yes" if check(line) else "No")
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


if __name__ == "__main__":
    main()
