"""The record check: check_record, its Verdict, and the official judge judge_chess."""

import pytest

import arbiter
from conftest import ROOT

SCHOLAR = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7"


def test_a_valid_record_is_yes_with_its_plies():
    verdict = arbiter.check_record(SCHOLAR + "+")
    assert verdict.ok and bool(verdict) and str(verdict) == "Yes"
    assert verdict.plies == 7
    assert verdict.explanation is None and verdict.token is None and verdict.line is None
    assert verdict.alternatives == []
    assert repr(verdict) == "<Verdict Yes, 7 plies>"


def test_an_empty_record_is_yes():
    verdict = arbiter.check_record(" \r\n")
    assert verdict.ok and verdict.plies == 0


def test_a_misspelled_move_is_explained_with_its_place_and_canonical_spelling():
    record = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0"
    verdict = arbiter.check_record(record)
    assert not verdict and str(verdict) == "No"
    assert verdict.explanation == (
        "5. white 0-0 (ply 9): castling is written with the letter O, not zeros; write O-O"
    )
    assert verdict.reason == "castling is written with the letter O, not zeros; write O-O"
    assert (verdict.fault, verdict.rule) == ("misspelled", "zero_castling")
    assert (verdict.ply, verdict.move_number, verdict.side) == (9, 5, "white")
    assert (verdict.token, verdict.canonical, verdict.alternatives) == ("0-0", "O-O", ["O-O"])
    assert (verdict.line, verdict.column, verdict.offset) == (1, 45, 44)
    assert record[verdict.offset :].startswith(verdict.token)
    assert verdict.plies == 8


def test_the_dialect_decides_the_mate_sign_and_promotion():
    assert not arbiter.check_record(SCHOLAR + "#")
    verdict = arbiter.check_record(SCHOLAR + "#", dialect="contest")
    assert verdict.rule == "mate_sign" and verdict.canonical == "Qxf7+"
    assert arbiter.check_record(SCHOLAR + "#", dialect="standard").ok
    assert arbiter.check_record(SCHOLAR + "+", dialect="standard").rule == "missing_mate_sign"


def test_offsets_count_characters_and_lines_start_at_each_line_break():
    record = "1. e4 e5\n2. Nf3 Nc6 {é}\n"
    verdict = arbiter.check_record(record)
    assert verdict.fault == "move_number" and verdict.token == "{é}"
    assert (verdict.line, verdict.column) == (2, 12)
    assert record[verdict.offset] == "{"


def test_an_ambiguous_move_lists_its_alternatives():
    verdict = arbiter.check_record("1. Nf3 Nf6 2. Nc3 Nc6 3. Nd4 Nd5 4. Nb5")
    assert verdict.fault == "ambiguous" and verdict.canonical is None
    assert verdict.alternatives == ["Ncb5", "Ndb5"]
    assert "two knights can move to b5" in verdict.explanation


def test_faults_of_the_record_layout():
    assert arbiter.check_record("1.e4").fault == "move_number"
    assert arbiter.check_record("1. e4 2. d4").fault == "missing_black_move"
    assert arbiter.check_record("1. e4 1... e5").fault == "black_move_number"
    missing = arbiter.check_record("1. e4 e5 2.")
    assert (missing.fault, missing.token, missing.offset) == ("missing_move", "", 11)
    assert arbiter.check_record("1. e4 e5 2. Ke3").fault == "illegal"


def test_an_unknown_dialect_is_a_value_error():
    with pytest.raises(ValueError, match="unknown dialect `pgn` \\(expected `contest` or `standard`\\)"):
        arbiter.check_record("1. e4", dialect="pgn")


def test_a_record_must_be_text():
    with pytest.raises(TypeError):
        arbiter.check_record(b"1. e4")


def test_judge_chess_answers_the_official_sample():
    sample = ROOT / "crates/chess-record/tests/fixtures/sample"
    text = (sample / "1.in").read_text()
    assert arbiter.judge_chess(text) == (sample / "1.ans").read_text()
    assert arbiter.judge_chess("1. e4 e5 2. Ke2 Ke7 3. Ke3 Ke6 4. Kf4+") == "No\n"
