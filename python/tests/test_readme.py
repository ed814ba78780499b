"""The Python examples of the README and of docs/python.md run as written and print what they say."""

import contextlib
import io
import os
import re

import pytest

from conftest import ROOT

PAGES = ["README.md", "docs/python.md"]


def examples(page):
    """Each ```python block of `page` followed by "prints" and a ```text block: (code, printed)."""
    text = (ROOT / page).read_text()
    found = re.findall(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", text, re.S)
    assert found, f"{page} shows no Python example"
    return found


@pytest.mark.parametrize("page", PAGES)
def test_the_python_examples_print_what_the_page_shows(page):
    for code, printed in examples(page):
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, page, "exec"), {})
        finally:
            os.chdir(cwd)
        assert out.getvalue() == printed
