"""fix: records and PGN rewritten into canonical SAN, and what cannot be."""

import pytest

import arbiter
from conftest import ROOT

PGN = b'[White "M\xfcller"]\n\n1. f3 e5 {!} 2. g4 Qh4++ ; mate\n0-1\n'


def test_a_record_is_written_afresh_in_the_dialect():
    record = "1.e4 d5 2. ed5 Qxd5 Ng1f3 Qe4 e.p."
    assert arbiter.fix(record) == "1. e4 d5 2. exd5 Qxd5 3. Nf3 Qe4+"
    promotion = "1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. hxg7 Nf6 5. gxh8=Q"
    assert arbiter.fix(promotion, "contest") == promotion.replace("=Q", "Q+")
    assert arbiter.fix(promotion.replace("=", ""), dialect="standard").endswith(" gxh8=Q+")


def test_a_fixed_record_passes_the_check():
    fixed = arbiter.fix("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qf7", "contest")
    assert fixed == "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+"
    assert arbiter.check_record(fixed).ok


def test_pgn_keeps_every_byte_but_the_moves():
    assert arbiter.fix(PGN) == PGN.replace(b"Qh4++", b"Qh4#")
    text = PGN.decode("latin-1")
    assert arbiter.fix(text) == text.replace("Qh4++", "Qh4#")
    assert isinstance(arbiter.fix(text), str) and isinstance(arbiter.fix(PGN), bytes)


def test_uci_movetext_is_rewritten_in_place():
    source = (ROOT / "crates/chess-record/tests/fixtures/pgn/uci.pgn").read_bytes()
    fixed = arbiter.fix(source)
    assert fixed.startswith(source[: source.index(b"1. f2f3")] + b"1. f3 Nh6 2. c3 a5 3. Kf2 g5")
    assert all(r.ok and not r.warnings for r in arbiter.check_pgn(fixed, "lenient"))


def test_a_record_that_cannot_be_rewritten_raises_with_the_mistake():
    with pytest.raises(arbiter.FixError) as raised:
        arbiter.fix("1. e4 e5\n2. Ke3")
    error = raised.value
    assert isinstance(error, ValueError)
    assert str(error) == "2:4: 2. white Ke3 (ply 3): illegal move: no king can go to e3"
    assert error.text is None
    (problem,) = error.problems
    assert (problem.kind, problem.game, problem.line, problem.column) == ("move", None, 2, 4)
    assert (problem.token, problem.ply, problem.fault) == ("Ke3", 3, "illegal")


def test_pgn_that_cannot_be_wholly_rewritten_raises_with_the_rest_rewritten():
    pgn = PGN + b'\n[White "x"]\n\n1. e4 e5 2. Ke3 Nf6 3. 0-0 *\n\n1. g1f3 *\n'
    with pytest.raises(arbiter.FixError) as raised:
        arbiter.fix(pgn)
    error = raised.value
    assert str(error) == (
        "8:13: game 2: 2. white Ke3 (ply 3): illegal move: no king can go to e3; "
        "kept as written, with the rest of its line"
    )
    assert error.text == pgn.replace(b"Qh4++", b"Qh4#").replace(b"g1f3", b"Nf3")
    assert [(p.game, p.token) for p in error.problems] == [(2, "Ke3")]


def test_several_problems_are_counted_in_the_message():
    pgn = "1. e4 e5 2. Ke3 *\n\n[Variant \"Bughouse\"]\n\n1. e4 *\n"
    with pytest.raises(arbiter.FixError, match=r"\(and 1 more problems\)$") as raised:
        arbiter.fix(pgn)
    assert [(p.game, p.kind) for p in raised.value.problems] == [(1, "move"), (2, "variant")]
    assert raised.value.text == pgn


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown dialect"):
        arbiter.fix("1. e4", "fide")
    with pytest.raises(TypeError, match="expected a record or PGN as str or bytes, found list"):
        arbiter.fix(["1. e4"])
