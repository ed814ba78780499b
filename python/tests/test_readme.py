"""The README's example of the Python package runs as written and prints what the README says."""

import contextlib
import io
import os
import re

from conftest import ROOT


def test_the_readme_example_prints_what_the_readme_shows():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Python package\n", 1)[1].split("\n## ", 1)[0]
    code, printed = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", section, re.S).groups()
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue() == printed
