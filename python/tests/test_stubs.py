"""The type hints in arbiter/__init__.pyi match the module as built (mypy's stubtest). Skipped
when mypy is not installed."""

import subprocess
import sys

import pytest

pytest.importorskip("mypy")


def test_the_stubs_match_the_module():
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "arbiter"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
