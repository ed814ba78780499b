#!/usr/bin/env python3
"""How the games of a saved match ended, and whether each engine's scores foretold it.

    python3 bench/duck_endings.py DIR [--arbiter target/release/arbiter] [--list]

DIR is the save directory of `arbiter duck match --save DIR` (bench/duck_strength.sh passes
`--save` on). The report:

- the endings (`captain-captured`, `ply-cap`, ...), as `results.jsonl` gives them;
- for each engine, how its games ended once its own score had reached +2, +3 and +5 soldiers
  (a mate score counts as above all of them): an engine that reaches +5 and then draws at the
  ply cap sees more than there is, or cannot convert what there is;
- the games drawn at the ply cap: each engine's last score, seen from its side, and the pieces
  each side lost, which `arbiter duck --json DIR/game-N.txt` reports move by move (the rules are
  arbiter's, not this script's). `--list` prints them one by one.

Scores are the engines' own, in soldiers (arbiter's and fairy-stockfish's scales differ).
"""
import argparse
import collections
import json
import re
import subprocess
import sys
from pathlib import Path

SCORE = re.compile(r"\{([-+]?)(M?)(\d+(?:\.\d+)?)/")
THRESHOLDS = (2.0, 3.0, 5.0)


def scores(record: Path, red: str, blue: str) -> dict:
    """Each engine's scores in a game record, in order, from its own side (a mate is ±100)."""
    out = {red: [], blue: []}
    lines = record.read_text().splitlines()
    opening = next((l for l in lines if l.startswith("opening ")), None)
    if opening is None:
        raise SystemExit(f"{record}: no `opening` line")
    words = opening.split()
    moves_at = words.index("moves") + 1 if "moves" in words else len(words)
    fen = "fen" in words[1:2]
    # Who moves first: red from the start position; a FEN says it in its second field.
    first_blue = fen and len(words) > 3 and words[3] == "b"
    ply = len(words) - moves_at + (1 if first_blue else 0)
    for line in lines:
        if "{" not in line or line.startswith("#"):
            continue
        mover = red if ply % 2 == 0 else blue
        ply += 1
        match = SCORE.search(line)
        if match is None:
            continue
        sign, mate, number = match.groups()
        value = 100.0 if mate else float(number)
        out[mover].append(-value if sign == "-" else value)
    return out


def lost_pieces(arbiter: str, game: Path) -> dict:
    """The pieces each side lost in the game, by arbiter's judge (`None` when it cannot say)."""
    if game.with_suffix(".fen").exists():
        return None
    result = subprocess.run([arbiter, "duck", "--json", str(game)], capture_output=True,
                            text=True, check=False)
    if result.returncode != 0:
        return None
    lost = {"red": collections.Counter(), "blue": collections.Counter()}
    for line in result.stdout.splitlines():
        captured = json.loads(line).get("captured")
        if captured:
            side, role = captured.split(" ", 1)
            lost[side][role] += 1
    return lost


def pieces(counter: collections.Counter) -> str:
    return ", ".join(f"{n} {role}" if n > 1 else role for role, n in sorted(counter.items())) or "none"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", type=Path, help="a `duck match --save` directory")
    parser.add_argument("--arbiter", default="target/release/arbiter",
                        help="the arbiter binary that judges the games (default: %(default)s)")
    parser.add_argument("--list", action="store_true", help="list every ply-cap draw")
    args = parser.parse_args()
    results_path = args.dir / "results.jsonl"
    if not results_path.is_file():
        print(f"{results_path}: not found (is {args.dir} a `duck match --save` directory?)",
              file=sys.stderr)
        return 2
    games = []
    for number, line in enumerate(results_path.read_text().splitlines(), 1):
        try:
            games.append(json.loads(line))
        except json.JSONDecodeError as error:
            print(f"{results_path}:{number}:{error.colno}: expected a JSON object: {error.msg}",
                  file=sys.stderr)
            return 2
    games.sort(key=lambda g: g["game"])
    # The runner pads game numbers to the width of the match's last game.
    saved = next(args.dir.glob("game-*.record"), None)
    width = len(saved.stem.split("-")[1]) if saved else 1
    engines = sorted({g["red"] for g in games} | {g["blue"] for g in games})
    print(f"{args.dir}: {len(games)} games, {' vs '.join(engines)}")
    endings = collections.Counter(g["termination"] for g in games)
    print("endings: " + ", ".join(f"{name} {n}" for name, n in endings.most_common()))

    reached = {e: {t: [0, 0, 0] for t in THRESHOLDS} for e in engines}
    draws = []
    for g in games:
        record = args.dir / f"game-{g['game']:0{width}}.record"
        if not record.is_file():
            print(f"{record}: not found, though {results_path} lists game {g['game']}",
                  file=sys.stderr)
            return 2
        said = scores(record, g["red"], g["blue"])
        for side in ("red", "blue"):
            engine = g[side]
            # The column of its result: 0 won, 1 drawn, 2 lost.
            column = 1 if g["winner"] is None else 0 if g["winner"] == side else 2
            best = max(said[engine], default=None)
            for t in THRESHOLDS:
                if best is not None and best >= t:
                    reached[engine][t][column] += 1
        if g["termination"] == "ply-cap":
            draws.append((g, said, record.with_suffix(".txt")))

    print("once an engine's own score reached +N soldiers, its results (wins / draws / losses):")
    for engine in engines:
        cells = "; ".join(f"+{t:g}: {w} / {d} / {l}" for t, (w, d, l) in reached[engine].items())
        print(f"  {engine}: {cells}")

    if draws:
        ahead = collections.Counter()
        print(f"ply-cap draws: {len(draws)}")
        for g, said, game in draws:
            last = {e: (said[e][-1] if said[e] else None) for e in (g["red"], g["blue"])}
            for engine, value in last.items():
                if value is not None and value >= 3:
                    ahead[engine] += 1
            if args.list:
                lost = lost_pieces(args.arbiter, game)
                losses = "" if lost is None else \
                    f"; red lost {pieces(lost['red'])}; blue lost {pieces(lost['blue'])}"
                views = ", ".join(f"{e} {v:+.2f}" if v is not None else f"{e} ?"
                                  for e, v in last.items())
                print(f"  game {g['game']} ({g['red']} red): last scores {views}{losses}")
        for engine in engines:
            print(f"  with {engine}'s last score +3 or more: {ahead[engine]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
