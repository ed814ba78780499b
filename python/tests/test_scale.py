"""`python -m arbiter.scale` end to end: a database of plain, gzip and Zstandard files (one
frame and many) checked on Dask gives, game for game, the verdicts `arbiter chess pgn --json`
gives on each file; a worker killed in the middle of a task, a run killed and resumed, and a
scheduler and workers started as separate processes give the same dataset.

Skipped without the `scale` extra (`pip install './python[scale]'`) or the arbiter binary."""

import contextlib
import gzip
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, cli
from test_shards import PIECES, frames

pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("dask.distributed")
pytest.importorskip("zstandard")
pytestmark = pytest.mark.skipif(cli() is None, reason="no arbiter binary built")

#: The shards' size: small, so that every file but the single-stream ones has several.
SHARD_MIB = "0.001"


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """Four files of random games (some wrong), each written in another way."""
    import zstandard

    directory = tmp_path_factory.mktemp("database")
    rng = random.Random(7)

    def text():
        return "".join(rng.choice(PIECES) for _ in range(600)).encode()

    (directory / "2024-01.pgn").write_bytes(text())
    (directory / "2024-02.pgn.zst").write_bytes(zstandard.ZstdCompressor().compress(text()))
    many = text()
    (directory / "2024-03.pgn.zst").write_bytes(frames(many, range(0, len(many), 1000)))
    (directory / "2024-04.pgn.gz").write_bytes(gzip.compress(text()))
    return directory


def expected(directory):
    """What `arbiter chess pgn --json` says of each game, as the dataset's rows say it."""
    rows = []
    for path in sorted(directory.iterdir()):
        command = [cli(), "chess", "pgn", "--json", path]
        run = subprocess.run(command, capture_output=True, text=True)
        for line in run.stdout.splitlines():
            game = json.loads(line)
            error = game["error"]
            rows.append(
                {
                    "file": path.name,
                    "game": game["game"],
                    "offset": game["offset"],
                    "line": game["line"],
                    "game_id": game["id"],
                    "white": game["white"],
                    "black": game["black"],
                    "variant": game["variant"],
                    "ok": game["ok"],
                    "plies": game["plies"],
                    "error_kind": error and error["kind"],
                    "error": error and error["message"],
                    "warnings": [w["message"] for w in game["warnings"]],
                }
            )
    return rows


def dataset(out):
    """The dataset's rows, in the order of their files and offsets."""
    table = pq.read_table(out / "games").to_pylist()
    for row in table:
        del row["result"]
        row["warnings"] = [w["message"] for w in row["warnings"]]
    return sorted(table, key=lambda row: (row["file"], row["offset"]))


def scale(database, out, *args, env=None, **popen):
    """`python -m arbiter.scale` on the database, started."""
    command = [sys.executable, "-m", "arbiter.scale", str(database / "2024-*"), "--out", str(out)]
    command += ["--shard-mib", SHARD_MIB, *args]
    return subprocess.Popen(
        command, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, **popen,
    )


def finished(process, timeout=120):
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, out + err
    return out


def wait_for(path, process, timeout=60):
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the task did not start"
        time.sleep(0.1)
    return int(path.read_text())


@pytest.fixture(scope="module")
def checked(database, tmp_path_factory):
    """The database checked on a local cluster of two workers: the output folder, and what the
    run printed."""
    out = tmp_path_factory.mktemp("run") / "checked"
    return out, finished(scale(database, out, "--workers", "2"))


def test_a_local_cluster_gives_the_commands_verdicts_and_a_summary(database, checked):
    out, printed = checked
    rows = dataset(out)
    assert rows == expected(database)
    assert len({(row["file"], row["offset"]) for row in rows}) == len(rows)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == len(rows) and summary["files"] == 4
    assert summary["ok"] == sum(row["ok"] for row in rows)
    assert sum(summary["wrong_by_kind"].values()) == summary["wrong"] > 0
    assert summary["shards"] > 20 and summary["checked_now"] == summary["shards"]
    assert "dashboard: http" in printed and f"{summary['games']} games in 4 files" in printed


def test_a_run_is_resumed_only_when_asked_and_with_the_same_plan(database, checked, tmp_path):
    out, _ = checked
    rows = dataset(out)
    again = scale(database, out, "--workers", "1")
    assert again.wait(60) != 0 and "--resume" in again.stderr.read()
    other = subprocess.run(
        [sys.executable, "-m", "arbiter.scale", str(database / "2024-01.pgn"), "--out", str(out),
         "--resume"], capture_output=True, text=True,
    )
    assert other.returncode != 0 and "other files" in other.stderr
    finished(scale(database, out, "--workers", "1", "--resume"))
    assert json.loads((out / "summary.json").read_text())["checked_now"] == 0
    assert dataset(out) == rows


def test_the_queries_of_the_page_run_on_the_dataset(database, checked):
    """The Python blocks of docs/scale.md's "Querying the dataset", run where `checked/` is."""
    out, _ = checked
    page = (ROOT / "docs/scale.md").read_text()
    section = page.split("## Querying the dataset", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    wrong = {}
    for row in expected(database):
        month = row["file"][:7]
        wrong.setdefault(month, []).append(any("disagrees" in w for w in row["warnings"]))
    share = {month: sum(flags) / len(flags) for month, flags in wrong.items()}
    assert 0 < min(share.values())
    cwd = os.getcwd()
    os.chdir(out.parent)
    try:
        printed, variables = [], []
        for code in blocks:
            names = {}
            with contextlib.redirect_stdout(io.StringIO()) as text:
                exec(compile(code, "docs/scale.md", "exec"), names)
            printed.append(text.getvalue())
            variables.append(names)
    finally:
        os.chdir(cwd)
    by_pandas = variables[0]["games"].groupby("month")["wrong_result"].mean().to_dict()
    assert by_pandas == pytest.approx(share)
    for month, value in share.items():
        assert month in printed[0] and month in printed[1]
        assert f"{value:.4f}"[:5] in printed[1]


def test_a_worker_killed_in_a_task_is_replaced_and_the_task_done_again(database, tmp_path):
    out, marker = tmp_path / "out", tmp_path / "marker"
    hook = {"ARBITER_SCALE_TEST_SLEEP": f"0:1:60:{marker}"}
    process = scale(database, out, "--workers", "2", env=hook)
    os.kill(wait_for(marker, process), signal.SIGKILL)
    finished(process)
    assert dataset(out) == expected(database)


def test_a_run_killed_whole_is_resumed_to_the_same_dataset(database, tmp_path):
    out, marker = tmp_path / "out", tmp_path / "marker"
    hook = {"ARBITER_SCALE_TEST_SLEEP": f"2:2:60:{marker}"}
    process = scale(database, out, "--workers", "2", env=hook, start_new_session=True)
    wait_for(marker, process)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    done = {p.name for p in (out / "games").glob("part-*.parquet")}
    assert "part-00002-000002.parquet" not in done
    # The killed task's rows were written under a hidden name, which readers of the dataset
    # pass over, and are written again.
    assert [p for p in (out / "games").iterdir() if p.name.startswith(".part-00002-000002.")]
    assert len(pq.read_table(out / "games")) < len(expected(database))
    finished(scale(database, out, "--workers", "2", "--resume"))
    assert dataset(out) == expected(database)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["checked_now"] == summary["shards"] - len(done) > 0


def test_a_scheduler_and_workers_started_apart(database, tmp_path):
    scheduler_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    started = [
        subprocess.Popen(
            dask + ["scheduler", "--host", "127.0.0.1", "--port", "0", "--dashboard-address", ":0",
                    "--scheduler-file", str(scheduler_file)], **quiet
        )
    ]
    try:
        while not scheduler_file.exists():
            time.sleep(0.1)
        for _ in range(2):
            started.append(
                subprocess.Popen(
                    dask + ["worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                            "--no-dashboard"], **quiet
                )
            )
        out = tmp_path / "out"
        finished(scale(database, out, "--scheduler", str(scheduler_file)))
        assert dataset(out) == expected(database)
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
