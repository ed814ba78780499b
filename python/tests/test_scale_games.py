"""The games as a Parquet dataset: `arbiter chess convert` and `python -m arbiter.scale --games`
write the same rows; the four queries of docs/scale.md ("Queries users run") give, on a
converted file of generated lichess-style games, what python-chess reading the same PGN gives;
the typed columns hold what the tags say; and the dataset gives back what `chess fix` writes.

Skipped without the `scale` extra, DuckDB, python-chess or the arbiter binary."""

import collections
import contextlib
import io
import json
import math
import os
import random
import re
import subprocess
import sys

import pytest

from conftest import ROOT, cli

pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("dask.distributed")
duckdb = pytest.importorskip("duckdb")
chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402

pytestmark = pytest.mark.skipif(cli() is None, reason="no arbiter binary built")

#: The tags of lichess's export, in its order.
TAGS = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "UTCDate", "UTCTime",
        "WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "ECO", "Opening",
        "TimeControl", "Termination"]


def lichess_games(count, seed):
    """PGN as lichess writes it: its 17 tags, a clock after every move, evaluations in one game
    of four, random legal moves; a few games of unknown rating, a few time scrambles."""
    rng = random.Random(seed)
    games = []
    for number in range(count):
        board = chess.Board()
        base, increment = rng.choice([(60, 0), (180, 0), (180, 2), (300, 3)])
        clocks = [base, base]
        parts = []
        for _ in range(rng.randint(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            side = 0 if board.turn == chess.WHITE else 1
            prefix = f"{board.fullmove_number}{'.' if side == 0 else '...'}"
            san = board.san(move)
            board.push(move)
            # One game in five is a time scramble: the clocks fall fast, down to a few seconds.
            spend = clocks[side] // (3 if number % 5 == 0 else 12)
            clocks[side] = max(0, clocks[side] - rng.randint(0, max(1, spend)))
            clocks[side] += increment
            clock = clocks[side]
            evaluation = ""
            if number % 4 == 0:
                evaluation = f"[%eval {rng.randint(-300, 300) / 100}] "
            parts.append(f"{prefix} {san} {{ {evaluation}[%clk {clock // 3600}:"
                         f"{clock // 60 % 60:02}:{clock % 60:02}] }}")
        if board.is_checkmate():
            result = "0-1" if board.turn == chess.WHITE else "1-0"
        else:
            result = rng.choice(["1-0", "0-1", "1-0", "0-1", "1/2-1/2"])
        white, black = rng.randint(800, 2600), rng.randint(800, 2600)
        day = 1 + number % 28
        month = 1 + number % 2
        values = {
            "Event": "Rated Blitz game", "Site": f"https://lichess.org/g{number:07}",
            "Date": f"2024.{month:02}.{day:02}", "Round": "-", "White": f"w{number}",
            "Black": f"b{number}", "Result": result, "UTCDate": f"2024.{month:02}.{day:02}",
            "UTCTime": f"{number % 24:02}:{number % 60:02}:07",
            "WhiteElo": "?" if number % 50 == 7 else str(white), "BlackElo": str(black),
            "WhiteRatingDiff": f"{rng.randint(-9, 9):+}", "BlackRatingDiff": f"{rng.randint(-9, 9):+}",
            "ECO": "C50", "Opening": "Italian Game", "TimeControl": f"{base}+{increment}",
            "Termination": rng.choice(["Normal", "Time forfeit"]),
        }
        tags = "".join(f'[{name} "{values[name]}"]\n' for name in TAGS)
        games.append(f"{tags}\n{' '.join(parts)} {result}\n\n")
    return "".join(games)


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """A file of lichess-style games and the dataset `arbiter chess convert` makes of it, in
    `games/` beside it."""
    directory = tmp_path_factory.mktemp("converted")
    pgn = directory / "lichess.pgn"
    pgn.write_text(lichess_games(400, 11))
    run = subprocess.run(
        [cli(), "chess", "convert", pgn, "--to", "parquet", "--out", directory / "games"],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "400 games: 400 ok, 0 with errors" in run.stdout and ", 0 with their text" in run.stdout
    return directory, pgn


def read_games(pgn):
    """Each game as python-chess reads it: tags, SAN moves, clocks after each move."""
    games = []
    with open(pgn) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            board = game.board()
            moves, clocks = [], []
            for node in game.mainline():
                moves.append(board.san(node.move))
                board.push(node.move)
                clocks.append(node.clock())
            games.append({"headers": dict(game.headers), "moves": moves, "clocks": clocks})
    return games


def band(game):
    headers = game["headers"]
    try:
        return (int(headers["WhiteElo"]) + int(headers["BlackElo"])) // 400 * 200
    except ValueError:
        return None


def queries(directory):
    """The Python blocks of docs/scale.md's "Queries users run", run in `directory`: the
    variables they set."""
    page = (ROOT / "docs/scale.md").read_text()
    section = page.split("## Queries users run", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 4
    names = {}
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        for code in blocks:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, "docs/scale.md", "exec"), names)
    finally:
        os.chdir(cwd)
    return names


@pytest.fixture(scope="module")
def answers(converted):
    directory, pgn = converted
    return queries(directory), read_games(pgn)


def test_games_and_length_by_rating_band(answers):
    names, games = answers
    expected = collections.defaultdict(list)
    for game in games:
        if band(game) is not None:
            expected[band(game)].append(len(game["moves"]))
    got = names["lengths"]
    assert list(got["band"]) == sorted(expected)
    for row in got.itertuples():
        assert row.games == len(expected[row.band])
        assert row.average_plies == pytest.approx(sum(expected[row.band]) / row.games)


def test_the_most_played_first_moves_by_band(answers):
    names, games = answers
    counts = collections.defaultdict(collections.Counter)
    for game in games:
        if band(game) is not None and game["moves"]:
            counts[band(game)][game["moves"][0]] += 1
    expected = [
        (b, move, n)
        for b in sorted(counts)
        for move, n in sorted(counts[b].items(), key=lambda item: (-item[1], item[0]))[:3]
    ]
    got = names["first_moves"]
    assert list(zip(got["band"], got["first_move"], got["games"])) == expected


def last(clocks, side):
    found = [c for i, c in enumerate(clocks) if i % 2 == side]
    return found[-1] if found else None


def test_how_often_the_side_with_less_time_wins(answers):
    names, games = answers
    won = []
    for game in games:
        result = game["headers"]["Result"]
        white, black = last(game["clocks"], 0), last(game["clocks"], 1)
        if result in ("1-0", "0-1") and white is not None and black is not None and white != black:
            won.append((white < black) == (result == "1-0"))
    got = names["less_time"]
    assert int(got["games"][0]) == len(won) > 50
    assert got["won_by_less_time"][0] == pytest.approx(sum(won) / len(won))


def test_games_won_with_the_clock_under_ten_seconds(answers):
    names, games = answers
    expected = []
    for game in games:
        result = game["headers"]["Result"]
        if result not in ("1-0", "0-1"):
            continue
        side = 0 if result == "1-0" else 1
        own = [c for i, c in enumerate(game["clocks"]) if i % 2 == side and c is not None]
        if own and min(own) < 10:
            expected.append((game["headers"]["Site"], min(own)))
    got = names["low_clock_wins"]
    assert len(expected) > 5
    assert list(zip(got["site"], got["lowest"])) == sorted(expected)


def test_the_columns_hold_what_the_tags_say(converted):
    directory, pgn = converted
    rows = {row["site"]: row for row in pq.read_table(directory / "games").to_pylist()}
    for game in read_games(pgn):
        headers = game["headers"]
        row = rows[headers["Site"]]
        assert row["moves_san"] == game["moves"]
        assert row["clocks_s"] == game["clocks"]
        assert row["plies"] == len(game["moves"]) and row["ok"] and row["error"] is None
        assert str(row["date"]).replace("-", ".") == headers["UTCDate"]
        assert row["month"] == headers["UTCDate"][:7].replace(".", "-")
        base, increment = headers["TimeControl"].split("+")
        assert (row["tc_base_s"], row["tc_increment_s"]) == (int(base), int(increment))
        assert row["white_rating_diff"] == int(headers["WhiteRatingDiff"])
        tags = dict(row["tags"])
        if headers["WhiteElo"] == "?":
            assert row["white_elo"] is None and tags["WhiteElo"] == "?"
        else:
            assert row["white_elo"] == int(headers["WhiteElo"]) and "WhiteElo" not in tags
        assert tags["Round"] == "-" and row["pgn"] is None


def test_duckdb_reads_the_typed_columns_as_their_types(converted):
    directory, _ = converted
    described = duckdb.sql(f"DESCRIBE SELECT * FROM '{directory}/games/**/*.parquet'")
    types = {row[0]: row[1] for row in described.fetchall()}
    assert types["date"] == "DATE" and types["utc_time"] == "TIME"
    assert types["white_elo"] == "INTEGER" and types["moves_uci"] == "VARCHAR[]"
    assert types["clocks_s"] == "DOUBLE[]" and types["tags"] == "MAP(VARCHAR, VARCHAR)"
    first = duckdb.sql(f"SELECT utc_time FROM '{directory}/games/**/*.parquet' WHERE game = 2")
    assert str(first.fetchall()[0][0]) == "01:01:07"


def test_the_dataset_gives_back_what_fix_writes(converted, tmp_path):
    directory, pgn = converted
    back = subprocess.run([cli(), "chess", "convert", directory / "games", "--to", "pgn"],
                          capture_output=True)
    fixed = subprocess.run([cli(), "chess", "fix", pgn], capture_output=True)
    assert back.returncode == 0 and back.stdout == fixed.stdout == pgn.read_bytes()


def scale(pgn, out, *args):
    return subprocess.run(
        [sys.executable, "-m", "arbiter.scale", str(pgn), "--out", str(out), "--games",
         "--workers", "2", "--shard-mib", "0.1", *args],
        capture_output=True, text=True, timeout=300,
    )


def sorted_rows(table):
    return sorted(table.to_pylist(), key=lambda row: row["game"])


def test_scale_games_writes_the_rows_convert_writes(converted, tmp_path):
    directory, pgn = converted
    out = tmp_path / "run"
    run = scale(pgn, out)
    assert run.returncode == 0, run.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["shards"] > 3 and summary["games"] == 400 and summary["ok"] == 400
    assert sorted_rows(pq.read_table(out / "games")) == sorted_rows(pq.read_table(directory / "games"))
    back = subprocess.run([cli(), "chess", "convert", out / "games", "--to", "pgn"],
                          capture_output=True)
    assert back.stdout == pgn.read_bytes()
    # A part cut off is found on --resume and its shard converted again.
    stats = json.loads(next((out / "shards").glob("part-*.json")).read_text())
    part = out / "games" / stats["parts"][0][0]
    part.write_bytes(part.read_bytes()[:100])
    again = scale(pgn, out, "--resume")
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
    assert json.loads((out / "summary.json").read_text())["checked_now"] == 1
    assert sorted_rows(pq.read_table(out / "games")) == sorted_rows(pq.read_table(directory / "games"))
    other = scale(pgn, out, "--resume")
    assert other.returncode == 0
    verdicts = subprocess.run(
        [sys.executable, "-m", "arbiter.scale", str(pgn), "--out", str(out), "--resume",
         "--shard-mib", "0.1"], capture_output=True, text=True,
    )
    assert verdicts.returncode != 0 and "resume it with --games" in verdicts.stderr


def test_a_bad_shard_of_a_games_run_is_told_and_leaves_no_file(converted, tmp_path):
    _, pgn = converted
    text = pgn.read_bytes()
    middle = text.index(b"\n\n[Event", len(text) // 2) + 2
    bad = tmp_path / "bad.pgn"
    bad.write_bytes(text[:middle] + b"\0" + text[middle:])
    out = tmp_path / "run"
    run = scale(bad, out)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "found a NUL byte" in run.stderr
    leftovers = [p for p in (out / "games").rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []
    summary = json.loads((out / "summary.json").read_text())
    assert len(summary["failed"]) == 1 and 0 < summary["games"] < 400
    assert not math.isnan(summary["plies"])
