"""The official judges, text in, text out: judge_duck, judge_arena (judge_chess is with the
record check), their errors and warnings, and the GIL released while they work."""

import sys
import threading
import time
import warnings

import pytest

import arbiter
from conftest import ROOT

DUCK = ROOT / "crates/duck/tests/fixtures"
ARENA = ROOT / "crates/arena/tests/fixtures"


@pytest.mark.parametrize("name", ["sample/1", "official/1", "official/2", "official/3", "official/4"])
def test_the_duck_judge_answers_the_official_data(name):
    text = (DUCK / f"{name}.in").read_text()
    assert arbiter.judge_duck(text) == (DUCK / f"{name}.ans").read_text()


def test_the_duck_judge_explains_and_draws_the_board():
    game = "3\n0 1 1 3\n0 3 1 4\n9 4 8 4\n"
    assert arbiter.judge_duck(game, explain=True) == (
        "Invalid command\n# horse leg (0,2) is occupied by red elephant\n"
        "red guard;NA;no;no\nblue captain;NA;no;no\n"
    )
    board = arbiter.judge_duck(game, board=True)
    assert board.startswith("Invalid command\n# horse leg")
    assert board.count("  ０１２３４５６７８\n") == 2


def test_malformed_duck_input_keeps_the_output_before_it():
    with pytest.raises(arbiter.InputError) as raised:
        arbiter.judge_duck("3\n0 1 1 3\n0 3 1 4\n9 4 8 x\n")
    error = raised.value
    assert isinstance(error, ValueError)
    assert str(error) == "4:7: expected the destination column y2 of command 3 (an integer), found `x`"
    assert (error.line, error.column) == (4, 7)
    assert error.output == "Invalid command\nred guard;NA;no;no\n"


def test_input_after_the_last_command_is_ignored_with_a_warning():
    with pytest.warns(arbiter.InputWarning, match="^3:1: ignoring input after the last of 1 command$"):
        assert arbiter.judge_duck("1\n0 3 1 4\n9 4 8 4\n") == "red guard;NA;no;no\n"


def test_the_arena_judge_answers_the_official_data_and_the_sample():
    text = (ARENA / "official/1.in").read_text()
    assert arbiter.judge_arena(text) == (ARENA / "official/1.ans").read_text()
    sample = (ARENA / "sample/1.in").read_text()
    assert arbiter.judge_arena(sample, "official,+shadow-any") == (ARENA / "sample/1.ans").read_text()
    assert arbiter.judge_arena(sample) != (ARENA / "sample/1.ans").read_text()


def test_the_arena_rule_readings_are_those_of_the_rules_fixtures():
    names = [
        line.split("|")[0].strip()
        for line in (ARENA / "rules/INDEX").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(names) > 9
    for name in names:
        text = (ARENA / f"rules/{name}.in").read_text()
        official = arbiter.judge_arena(text)
        if name == "eps-neartie":
            # The exact answer, where the official program's floating point calls a tie.
            assert official == (ARENA / f"rules/{name}.alt.out").read_text()
            continue
        assert official == (ARENA / f"rules/{name}.ref.out").read_text(), name
        other = arbiter.judge_arena(text, f"official,+{name}")
        assert other == (ARENA / f"rules/{name}.alt.out").read_text(), name


def test_unknown_rules_are_a_value_error():
    with pytest.raises(ValueError, match="unknown rule switch `shadow`"):
        arbiter.judge_arena("0\n", "official,+shadow")
    with pytest.raises(ValueError, match="expected `official`, `statement`, `\\+NAME` or `-NAME`"):
        arbiter.judge_arena("0\n", "strict")


def test_malformed_arena_input_is_an_input_error():
    with pytest.raises(arbiter.InputError) as raised:
        arbiter.judge_arena("1\n1 3 2 2\n0 0 0\n1 1 3 1 0 3 1 1 1 toolihai\n1 3 1 1 1 2 1 1 1 fireball\n")
    assert raised.value.line == 5 and raised.value.output == ""
    assert "fireball" in str(raised.value)
    with pytest.warns(arbiter.InputWarning, match="ignoring input after the last game"):
        game = "1\n1 1 1 1\n0\n1 1 1 0 0 1 1 1 1 toolihai\n"
        assert arbiter.judge_arena(game + "extra\n") == arbiter.judge_arena(game)


def test_judges_release_the_gil_while_they_work():
    """A thread that wakes while a judge works runs before the judge returns only when the
    judge has released the GIL: with a switch interval of a minute, the interpreter never takes
    the GIL from the thread that holds it."""
    commands = 2_000_000
    game = f"{commands}\n" + "0 0 0 0\n" * commands
    woke = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(60)
    try:
        sleeper = threading.Thread(target=lambda: (time.sleep(0.001), woke.append(True)))
        sleeper.start()
        output = arbiter.judge_duck(game)
        during = list(woke)
        sleeper.join()
    finally:
        sys.setswitchinterval(interval)
    assert output == "Invalid command\n" * commands
    assert during == [True]
