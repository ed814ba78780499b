"""`python -m arbiter.selfplay` end to end, on a local cluster of two workers: the merged file
is byte for byte the one `arbiter duck selfplay` writes on one machine, also when a worker is
killed in the middle of a chunk (its chunk played again, no position twice), and a stopped run
goes on with the chunks it kept. Small games (few nodes) so that the whole takes seconds.
Skipped without the `scale` extra (`pip install './python[scale]'`) or the arbiter binary."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import cli

pytest.importorskip("dask.distributed")
pytestmark = pytest.mark.skipif(cli() is None, reason="no arbiter binary built")

#: The settings of every run here: short games, quick moves.
SETTINGS = ["--nodes", "60", "--seed", "21", "--random-plies", "10"]
GAMES = 7


def one_machine(path):
    """The file `arbiter duck selfplay` writes alone."""
    command = [str(cli()), "duck", "selfplay", "--out", str(path), "--games", str(GAMES)]
    subprocess.run(command + SETTINGS, check=True, capture_output=True)
    return path.read_bytes()


def selfplay(out, *args, env=None):
    """`python -m arbiter.selfplay`, started on two local workers with chunks of 2 games."""
    command = [sys.executable, "-m", "arbiter.selfplay", "--out", str(out), "--arbiter", str(cli())]
    command += ["--games", str(GAMES), "--chunk", "2", "--workers", "2", *SETTINGS, *args]
    return subprocess.Popen(
        command, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )


def finished(process, timeout=300):
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, out + err
    return out


@pytest.fixture(scope="module")
def expected(tmp_path_factory):
    return one_machine(tmp_path_factory.mktemp("one") / "one.bin")


def test_the_chunks_merge_into_the_file_of_one_machine(expected, tmp_path):
    out = tmp_path / "spread.bin"
    printed = finished(selfplay(out))
    assert out.read_bytes() == expected
    summary = json.loads((tmp_path / "spread.bin.json").read_text())
    assert summary["chunks"] == 4 and summary["played_now"] == 4
    assert summary["positions"] == (len(expected) - 48) // 56
    workers = summary["workers"]
    assert sum(w["chunks"] for w in workers.values()) == 4
    assert sum(w["positions"] for w in workers.values()) == summary["positions"]
    for address, worker in workers.items():
        assert f"{address}: {worker['chunks']} chunks" in printed
        assert worker["positions_per_second"] > 0
    assert not (tmp_path / "spread.bin.parts").exists()
    # The file is never written over.
    again = selfplay(out)
    assert again.wait(timeout=120) != 0
    assert "already exists" in again.communicate()[1]


def wait_for(marker, process, timeout=120):
    """The process id the hooked task wrote to ``marker``, once it has."""
    deadline = time.monotonic() + timeout
    while not (marker.exists() and marker.read_text()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the task did not start"
        time.sleep(0.1)
    return int(marker.read_text())


def test_a_worker_killed_in_a_chunk_is_replaced_and_no_position_is_twice(expected, tmp_path):
    out, marker = tmp_path / "killed.bin", tmp_path / "marker"
    process = selfplay(out, env={"ARBITER_SELFPLAY_SLEEP": f"2:60:{marker}"})
    os.kill(wait_for(marker, process), signal.SIGKILL)
    finished(process)
    assert out.read_bytes() == expected


def test_a_stopped_run_goes_on_with_the_chunks_it_kept(expected, tmp_path):
    from arbiter.selfplay import chunks, part_path

    out = tmp_path / "resumed.bin"
    parts = tmp_path / "resumed.bin.parts"
    parts.mkdir()
    # The first chunk, as a stopped run left it.
    first, end = chunks(GAMES, 2)[0]
    command = [str(cli()), "duck", "selfplay", "--out", str(part_path(parts, first, end))]
    command += ["--first-game", str(first), "--games", str(end), *SETTINGS]
    subprocess.run(command, check=True, capture_output=True)
    finished(selfplay(out))
    assert out.read_bytes() == expected
    assert json.loads((tmp_path / "resumed.bin.json").read_text())["played_now"] == 3


def test_merge_refuses_chunks_of_other_settings():
    from arbiter.selfplay import merge

    header = b"ARBTRAIN" + (1).to_bytes(2, "little") + bytes(38)
    other = b"ARBTRAIN" + (1).to_bytes(2, "little") + bytes(37) + b"x"
    assert merge([header + b"a" * 56, header + b"b" * 56]) == header + b"a" * 56 + b"b" * 56
    with pytest.raises(ValueError):
        merge([header, other])
    with pytest.raises(ValueError):
        merge([b"not a data file"])


def test_the_gate_spread_over_workers_reports_what_one_machine_does(tmp_path):
    """Also with a worker killed in the middle of a share."""
    arbiter = str(cli())
    match = ["--engine", f"{arbiter} duck uci", "--name", "network"]
    match += ["--engine", f"{arbiter} duck uci", "--option", "EvalFile=", "--name", "classical"]
    match += ["--nodes", "300", "--random-openings", "4", "--seed", "3", "--max-plies", "80"]
    match += ["--sprt", "elo0=0,elo1=300"]
    one = subprocess.run(
        [arbiter, "duck", "match", *match, "--games", "8", "--concurrency", "1", "--json"],
        capture_output=True, text=True, check=True,
    )
    expected = json.loads(one.stdout.strip().splitlines()[-1])
    gate = [sys.executable, "-m", "arbiter.selfplay", "gate", str(tmp_path / "gate")]
    gate += ["--games", "8", "--workers", "2", "--arbiter", arbiter, "--", *match]
    run = subprocess.run(gate, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads((tmp_path / "gate" / "report.json").read_text())
    workers = report.pop("workers")
    del report["wall_seconds"]
    assert report == expected
    assert sum(worker["games"] for worker in workers.values()) == 8
    # A worker killed in the middle of a share: the share is played again, the report the same.
    marker = tmp_path / "marker"
    killed = [*gate[:4], str(tmp_path / "killed"), *gate[5:]]
    process = subprocess.Popen(
        killed, env={**os.environ, "ARBITER_SELFPLAY_SLEEP": f"3:60:{marker}"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    os.kill(wait_for(marker, process), signal.SIGKILL)
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, out + err
    report = json.loads((tmp_path / "killed" / "report.json").read_text())
    del report["workers"], report["wall_seconds"]
    assert report == expected
    # The flags the gate sets itself are refused in the match's arguments.
    refused = subprocess.run(gate[:-len(match)] + [*match, "--games", "8"], capture_output=True,
                             text=True)
    assert refused.returncode != 0 and "sets --games itself" in refused.stderr
