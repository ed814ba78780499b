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
    "check_pgn_file on an endless pipe": """
        import os
        import tempfile
        import threading
        import arbiter
        fifo = os.path.join(tempfile.mkdtemp(), "endless.pgn")
        os.mkfifo(fifo)
        def write():
            with open(fifo, "wb") as out:
                while True:
                    out.write(b" " * 65536)
        threading.Thread(target=write, daemon=True).start()
        print("ready\\ninf", flush=True)
        list(arbiter.check_pgn_file(fifo))
    """,
    "check_pgn_file on an endless file object": """
        import arbiter
        class Endless:
            def read(self, n=-1):
                return b" " * (n if n and n > 0 else 65536)
        print("ready\\ninf", flush=True)
        list(arbiter.check_pgn_file(Endless()))
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
    "check_record on a long record": """
        import time
        import arbiter
        def record(n):
            return " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(n))
        started = time.monotonic()
        arbiter.check_record(record(5_000))
        per_pair = (time.monotonic() - started) / 5_000
        text = record(2_000_000)
        print(f"ready\\n{per_pair * 2_000_000}", flush=True)
        arbiter.check_record(text)
    """,
    "judge_chess on a long record": """
        import time
        import arbiter
        def record(n):
            return " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(n))
        started = time.monotonic()
        arbiter.judge_chess(record(5_000))
        per_pair = (time.monotonic() - started) / 5_000
        text = record(2_000_000)
        print(f"ready\\n{per_pair * 2_000_000}", flush=True)
        arbiter.judge_chess(text)
    """,
    "fix on a long record": """
        import time
        import arbiter
        def record(n):
            return " ".join(f"{2 * i + 1}. Ng1f3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(n))
        started = time.monotonic()
        arbiter.fix(record(5_000))
        per_pair = (time.monotonic() - started) / 5_000
        text = record(2_000_000)
        print(f"ready\\n{per_pair * 2_000_000}", flush=True)
        arbiter.fix(text)
    """,
    "fix on a long PGN text": """
        import time
        import arbiter
        def pgn(n):
            return "".join(f'[Round "{i}"]\\n\\n1. Ng1f3 Nf6 2. Ng1 Ng8 *\\n\\n' for i in range(n))
        started = time.monotonic()
        arbiter.fix(pgn(5_000))
        per_game = (time.monotonic() - started) / 5_000
        text = pgn(1_000_000)
        print(f"ready\\n{per_game * 1_000_000}", flush=True)
        arbiter.fix(text)
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
        # A shell without job control starts background commands with SIGINT ignored, and
        # Python then installs no handler for it: the child gets the default, whoever ran us.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
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
