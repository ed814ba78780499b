"""Ctrl-C during a long call: the call raises KeyboardInterrupt within a second instead of
running on to its end (or forever, on an endless file)."""

import signal
import subprocess
import sys
import textwrap
import time

import pytest

#: Each script prints a line once its long call is about to start; the line after "ready" says
#: how many seconds the call would take uninterrupted.
SCRIPTS = {
    "check_pgn_file on /dev/zero": """
        import arbiter
        print("ready\\ninf", flush=True)
        list(arbiter.check_pgn_file("/dev/zero"))
    """,
    "check_pgn_file on a file object reading /dev/zero": """
        import arbiter
        print("ready\\ninf", flush=True)
        with open("/dev/zero", "rb") as zero:
            list(arbiter.check_pgn_file(zero))
    """,
    "judge_duck on a big input": """
        import time
        import arbiter
        def game(n):
            return f"{n}\\n" + "0 0 0 0\\n" * n
        started = time.monotonic()
        arbiter.judge_duck(game(200_000))
        per_command = (time.monotonic() - started) / 200_000
        n = 6_000_000
        text = game(n)
        print(f"ready\\n{per_command * n}", flush=True)
        arbiter.judge_duck(text)
    """,
}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
@pytest.mark.parametrize("name", SCRIPTS)
def test_ctrl_c_interrupts_a_long_call(name):
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(SCRIPTS[name])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "ready\n"
        expected = float(child.stdout.readline())
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        child.wait(timeout=5)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    stderr = child.stderr.read()
    assert child.returncode != 0
    assert "KeyboardInterrupt" in stderr, stderr
    # Well before the call's own end.
    assert took < min(1.5, expected / 2), f"{took:.2f} s after the signal, call of {expected:.2f} s"
