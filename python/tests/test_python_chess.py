"""Agreement with python-chess: the games python-chess plays and writes are accepted as it
writes them, in every variant, and a spoilt token gets the verdict python-chess's strict check
gives (bench/chess_baseline.py). Skipped when python-chess is not installed."""

import importlib.util
import random

import pytest

import arbiter
from conftest import ROOT

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402
import chess.variant  # noqa: E402

SEED = 2026


def baseline():
    """The strict check of contest records with python-chess that the benchmarks time."""
    spec = importlib.util.spec_from_file_location("chess_baseline", ROOT / "bench/chess_baseline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.check


def play(board, rng, plies):
    """Plays up to `plies` random legal moves on `board`; returns their SAN as python-chess
    writes it."""
    sans = []
    while len(sans) < plies and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        sans.append(board.san(move))
        board.push(move)
    return sans


def record(sans, dialect="contest"):
    """A record of moves written in standard SAN, in `dialect` (the contest's has no `=` and
    `+` for `#`)."""
    tokens = []
    for ply, san in enumerate(sans):
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}.")
        tokens.append(san.replace("=", "").replace("#", "+") if dialect == "contest" else san)
    return " ".join(tokens)


def test_python_chess_games_pass_the_record_check_in_both_dialects():
    rng = random.Random(SEED)
    for _ in range(150):
        sans = play(chess.Board(), rng, rng.randrange(1, 200))
        verdict = arbiter.check_record(record(sans))
        assert verdict.ok and verdict.plies == len(sans), verdict.explanation
        standard = arbiter.check_record(record(sans, "standard"), "standard")
        assert standard.ok and standard.plies == len(sans), standard.explanation


BOARDS = {
    "Standard": chess.Board,
    "Chess960": lambda rng: chess.Board.from_chess960_pos(rng.randrange(960)),
    "Antichess": chess.variant.AntichessBoard,
    "Atomic": chess.variant.AtomicBoard,
    "Crazyhouse": chess.variant.CrazyhouseBoard,
    "King of the Hill": chess.variant.KingOfTheHillBoard,
    "Three-check": chess.variant.ThreeCheckBoard,
    "Racing Kings": chess.variant.RacingKingsBoard,
    "Horde": chess.variant.HordeBoard,
}


@pytest.mark.parametrize("variant", BOARDS)
def test_python_chess_pgn_passes_the_strict_check_in_every_variant(variant):
    rng = random.Random(f"{SEED} {variant}")
    games, lengths = [], []
    for _ in range(25):
        make = BOARDS[variant]
        board = make(rng) if variant == "Chess960" else make()
        lengths.append(len(play(board, rng, rng.randrange(1, 160))))
        games.append(str(chess.pgn.Game.from_board(board)))
    reports = list(arbiter.check_pgn("\n\n".join(games)))
    assert [r.variant for r in reports] == [variant] * len(games)
    assert [r.error for r in reports if not r.ok] == []
    assert [r.plies for r in reports] == lengths


def spoil(line, rng):
    """`line` with one token spoilt (a character deleted, inserted or replaced) or cut short;
    and where the spoilt part starts."""
    tokens = line.split(" ")
    index = rng.randrange(len(tokens))
    start = sum(len(t) + 1 for t in tokens[:index])
    token = tokens[index]
    at = rng.randrange(len(token) + 1)
    letter = rng.choice("abcdefgh12345678KQRBNOx+#=-.@0")
    how = rng.randrange(4)
    if how == 0 and len(token) > 1:
        tokens[index] = token[:at] + token[at + 1 :]
    elif how == 1:
        tokens[index] = token[:at] + letter + token[at:]
    elif how == 2 and at < len(token):
        tokens[index] = token[:at] + letter + token[at + 1 :]
    else:
        tokens = tokens[:index]
    spoilt = " ".join(tokens)
    return spoilt, min(start, len(spoilt))


def test_a_spoilt_token_gets_the_verdict_of_a_python_chess_strict_check():
    check = baseline()
    rng = random.Random(SEED)
    answers = {True: 0, False: 0}
    for _ in range(600):
        line, start = spoil(record(play(chess.Board(), rng, rng.randrange(1, 120))), rng)
        verdict = arbiter.check_record(line)
        assert verdict.ok == check(line), (line, verdict.explanation)
        answers[verdict.ok] += 1
        if not verdict.ok:
            # Every token before the spoilt one is still right.
            assert verdict.offset >= start, (line, verdict.explanation)
    assert answers[True] > 50 and answers[False] > 300
