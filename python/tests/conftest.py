"""Shared paths for the tests of the Python package, run from the repository with
`python3 -m pytest python/tests` against the installed package (`pip install ./python`)."""

import shutil
from pathlib import Path

import pytest

#: The repository root: the official data and PGN fixtures of the crates are read from there.
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def root() -> Path:
    return ROOT


def cli():
    """The arbiter binary `cargo test` or `cargo build` left, if any."""
    for profile in ("debug", "release"):
        binary = ROOT / "target" / profile / "arbiter"
        if binary.exists():
            return binary
    return shutil.which("arbiter")
