"""PGN validation: check_pgn and check_pgn_file, their reports, and their errors."""

import bz2
import gzip
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

import arbiter
from conftest import ROOT, cli

FIXTURES = ROOT / "crates/chess-record/tests/fixtures/pgn"

GAMES = """[Event "one"]
[White "A"]
[Black "B"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[White "C"]

1. d4 d5 2. Ke3 *

1. Nf3 {comment} (1. e4) Nf6 *
"""


def expected_plies():
    """Each fixture's game count and mainline lengths, as python-chess reads them."""
    table = {}
    for line in (FIXTURES / "expected.txt").read_text().splitlines():
        name, count, *plies = line.split()
        table[name] = (int(count), [int(n) for n in plies])
    return table


def test_each_game_gets_a_report_in_order():
    reports = list(arbiter.check_pgn(GAMES))
    assert [r.index for r in reports] == [1, 2, 3]
    assert [(r.line, r.column) for r in reports] == [(1, 1), (7, 1), (11, 1)]
    assert [(r.white, r.black) for r in reports] == [("A", "B"), ("C", "?"), ("?", "?")]
    assert [r.ok for r in reports] == [True, False, True]
    assert [bool(r) for r in reports] == [True, False, True]
    assert [r.plies for r in reports] == [7, 2, 2]
    assert {r.variant for r in reports} == {"Standard"}
    assert reports[0].error is None and reports[0].warnings == []
    assert repr(reports[0]) == "<GameReport 1 (A - B): ok, 7 plies>"


def test_an_error_names_the_move_its_place_and_the_rule():
    error = list(arbiter.check_pgn(GAMES))[1].error
    assert (error.kind, error.game, error.line, error.column) == ("move", 2, 9, 13)
    assert (error.ply, error.move_number, error.side, error.token) == (3, 2, "white", "Ke3")
    assert error.fault == "illegal" and error.rule is None and error.canonical is None
    assert error.message == str(error) == "2. white Ke3 (ply 3): illegal move: " + error.reason.split(": ", 1)[1]


def test_strict_and_lenient_read_uci_movetext():
    strict = next(arbiter.check_pgn_file(FIXTURES / "uci.pgn"))
    assert not strict.ok and strict.plies == 0
    assert (strict.error.rule, strict.error.token, strict.error.canonical) == ("uci", "f2f3", "f3")
    assert strict.error.message == "1. white f2f3 (ply 1): UCI notation; write f3"
    lenient = next(arbiter.check_pgn_file(FIXTURES / "uci.pgn", "lenient"))
    assert lenient.ok and lenient.error is None and lenient.plies == 75
    assert len(lenient.warnings) == 75
    first = lenient.warnings[0]
    assert (first.kind, first.rule, first.canonical, first.game) == ("move", "uci", "f3", 1)
    assert first.alternatives == ["f3"] and first.fault == "misspelled"


def test_the_fixtures_are_read_whole_in_lenient_mode_as_python_chess_reads_them():
    for name, (count, plies) in expected_plies().items():
        reports = list(arbiter.check_pgn_file(FIXTURES / name, mode="lenient"))
        assert len(reports) == count, name
        assert [r.plies for r in reports] == plies, name
        assert all(r.ok for r in reports), [r.error for r in reports if not r.ok]


def test_variants_are_named():
    reports = list(arbiter.check_pgn_file(FIXTURES / "variants.pgn"))
    assert [r.variant for r in reports[::2]] == [
        "Antichess", "Atomic", "Crazyhouse", "King of the Hill", "Three-check", "Racing Kings", "Horde",
    ]
    assert all(r.ok for r in reports)
    assert {r.variant for r in arbiter.check_pgn_file(FIXTURES / "chess960.pgn")} == {"Chess960"}


def test_an_unknown_variant_is_reported_at_its_tag():
    (report,) = arbiter.check_pgn('[Variant "Bughouse"]\n\n1. e4 *\n')
    assert (report.error.kind, report.error.line, report.error.column) == ("variant", 1, 1)
    assert report.error.ply is None and report.error.token is None


def test_reports_as_dicts_are_the_json_report():
    report = list(arbiter.check_pgn(GAMES))[1]
    assert report.to_dict() == {
        "game": 2, "line": 7, "column": 1, "offset": GAMES.index('[White "C"]'), "id": None,
        "white": "C", "black": "?", "variant": "Standard",
        "ok": False, "plies": 2, "error": report.error.to_dict(), "warnings": [],
    }
    assert report.error.to_dict() == {
        "kind": "move", "line": 9, "column": 13, "message": report.error.message, "ply": 3,
        "move_number": 2, "side": "white", "token": "Ke3", "reason": report.error.reason,
        "canonical": None,
    }


@pytest.mark.skipif(cli() is None, reason="no arbiter binary built")
@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_reports_as_dicts_equal_what_the_command_writes(mode):
    for path in sorted(FIXTURES.glob("*.pgn")):
        run = subprocess.run(
            [cli(), "chess", "pgn", "--json", f"--{mode}", path], capture_output=True, text=True
        )
        written = [json.loads(line) for line in run.stdout.splitlines()]
        for line in written:
            del line["file"]
        assert [r.to_dict() for r in arbiter.check_pgn_file(path, mode)] == written, path


@pytest.mark.parametrize("kind", ["str", "bytes", "bytearray", "path", "pathlike", "binary", "text"])
def test_every_kind_of_source_reads_the_same_games(tmp_path, kind):
    path = tmp_path / "games.pgn"
    path.write_text(GAMES)
    source = {
        "str": lambda: arbiter.check_pgn(GAMES),
        "bytes": lambda: arbiter.check_pgn(GAMES.encode()),
        "bytearray": lambda: arbiter.check_pgn(bytearray(GAMES.encode())),
        "path": lambda: arbiter.check_pgn_file(str(path)),
        "pathlike": lambda: arbiter.check_pgn_file(path),
        "binary": lambda: arbiter.check_pgn_file(io.BytesIO(GAMES.encode())),
        "text": lambda: arbiter.check_pgn_file(io.StringIO(GAMES)),
    }[kind]
    assert [r.to_dict() for r in source()] == [r.to_dict() for r in arbiter.check_pgn(GAMES)]


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress])
def test_compressed_input_is_read_as_it_is_decompressed(tmp_path, compress):
    text = (FIXTURES / "variants.pgn").read_bytes()
    path = tmp_path / "variants.pgn.z"
    path.write_bytes(compress(text))
    plain = [r.to_dict() for r in arbiter.check_pgn(text)]
    assert len(plain) == 14
    assert [r.to_dict() for r in arbiter.check_pgn_file(path)] == plain
    with open(path, "rb") as handle:
        assert [r.to_dict() for r in arbiter.check_pgn_file(handle)] == plain
    assert [r.to_dict() for r in arbiter.check_pgn(compress(text))] == plain


def test_many_games_in_batches_keep_their_order():
    game = '[White "{}"]\n\n1. e4 e5 2. Nf3 *\n\n'
    text = "".join(game.format(i) for i in range(1, 2001))
    reports = arbiter.check_pgn_file(io.BytesIO(gzip.compress(text.encode())))
    assert iter(reports) is reports
    assert [(r.index, r.white, r.plies) for r in reports] == [(i, str(i), 3) for i in range(1, 2001)]
    assert next(reports, None) is None


def test_a_broken_compressed_stream_raises_after_the_games_before_it():
    text = "".join(f'[White "{i}"]\n\n1. e4 *\n\n' for i in range(20000)).encode()
    packed = gzip.compress(text)
    reports = arbiter.check_pgn(packed[: len(packed) // 2])
    read = []
    with pytest.raises(arbiter.InputError, match=r"^\d+:1: expected valid gzip data, found ") as raised:
        for report in reports:
            read.append(report)
    assert 0 < len(read) < 20000
    assert [(r.index, r.white, r.ok) for r in read] == [(i + 1, str(i), True) for i in range(len(read))]
    # The game being read when the stream broke (four lines a game) is not reported.
    assert 4 * len(read) < raised.value.line <= 4 * len(read) + 4
    assert raised.value.column == 1 and raised.value.output == ""


def test_a_file_object_whose_read_raises_passes_its_exception_on():
    class Failing(io.RawIOBase):
        def read(self, size=-1):
            raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError, match="disk on fire"):
        list(arbiter.check_pgn_file(Failing()))


def test_the_reports_are_read_by_one_thread_at_a_time():
    class Reentrant(io.RawIOBase):
        """Asks for the next report while the reports are being read, as a second thread would."""

        def __init__(self):
            self.calls = 0

        def read(self, size=-1):
            self.calls += 1
            if self.calls == 1:
                return GAMES.encode()
            return next(reports)

    source = Reentrant()
    reports = arbiter.check_pgn_file(source)
    read = []
    with pytest.raises(RuntimeError, match="the games are being read by another thread"):
        read.extend(reports)
    assert [r.index for r in read] == [1, 2]


def test_a_file_object_must_give_bytes_or_text():
    class Numbers:
        def read(self, size=-1):
            return 42

    with pytest.raises(TypeError, match="returned int, expected bytes or str"):
        arbiter.check_pgn_file(Numbers())


def test_files_that_cannot_be_read_raise_os_errors(tmp_path):
    missing = tmp_path / "missing.pgn"
    with pytest.raises(FileNotFoundError) as raised:
        arbiter.check_pgn_file(missing)
    assert raised.value.filename == str(missing)
    with pytest.raises(IsADirectoryError):
        arbiter.check_pgn_file(tmp_path)
    if os.geteuid() != 0:
        locked = tmp_path / "locked.pgn"
        locked.write_text(GAMES)
        locked.chmod(0)
        with pytest.raises(PermissionError):
            arbiter.check_pgn_file(locked)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown mode `loose` \\(expected `strict` or `lenient`\\)"):
        arbiter.check_pgn(GAMES, "loose")
    with pytest.raises(TypeError, match="expected PGN as str or bytes, found int"):
        arbiter.check_pgn(42)
    with pytest.raises(UnicodeEncodeError):
        arbiter.check_pgn("1. e4 \ud800 *")
    with pytest.raises(TypeError, match="expected a path \\(str or os.PathLike\\) or a file object, found int"):
        arbiter.check_pgn_file(42)


def test_a_game_over_the_limit_is_reported_and_skipped():
    big = '[White "big"]\n\n' + "1. e4 e5 " * 100 + "*\n\n"
    reports = list(arbiter.check_pgn(big + "1. d4 *\n", max_game_bytes=256))
    assert [r.error.kind if r.error else None for r in reports] == ["too_large", None]
    assert reports[0].error.message.startswith("the game is larger than")
    assert reports[1].index == 2 and reports[1].plies == 1
    assert arbiter.MAX_GAME_BYTES == 64 << 20


def test_tags_that_are_not_utf8_are_escaped():
    (report,) = arbiter.check_pgn(b'[White "M\xfcller"]\n\n1. e4 *\n')
    assert report.white == "M\\xfcller" and report.ok


def test_a_nul_byte_stops_reading_at_its_place():
    # /dev/zero is no PGN: the first NUL byte ends the reading at once, with its place.
    with pytest.raises(arbiter.InputError) as raised:
        list(arbiter.check_pgn_file("/dev/zero"))
    assert str(raised.value) == "1:1: expected PGN text, found a NUL byte"
    reports = arbiter.check_pgn(b'[White "a"]\n\n1. e4 *\n\n1. d4\0')
    assert next(reports).ok
    with pytest.raises(arbiter.InputError) as raised:
        next(reports)
    assert str(raised.value) == "5:6: expected PGN text, found a NUL byte"


def test_each_game_is_found_again_and_its_result_held_to_the_board():
    pgn = (
        b'[Site "https://lichess.org/abcd1234"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n'
        b'[GameId "xyz"]\n\n1. e4 {[%clk 3:00]} e5 *\n\n1. d4 d5'
    )
    games = list(arbiter.check_pgn(pgn))
    assert [pgn[game.offset:].split(b"\n")[0] for game in games] == [
        b'[Site "https://lichess.org/abcd1234"]',
        b'[GameId "xyz"]',
        b"1. d4 d5",
    ]
    assert [game.id for game in games] == ["https://lichess.org/abcd1234", "xyz", None]
    assert [game.line for game in games] == [1, 6, 10]
    assert [[w.kind for w in game.warnings] for game in games] == [
        ["result", "result"],
        ["clock"],
        ["truncated"],
    ]
    assert games[0].ok and games[0].to_dict()["offset"] == 0
    assert games[1].to_dict()["id"] == "xyz"
