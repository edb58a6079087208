"""The README's "Drive the page's tools from your own Playwright script" example, run as written.

The test takes the Python block out of that README section, points its URL at
the built site served here (the only change), and runs it in a fresh
interpreter: it must play a step through the page's tools and print the turn
and the hero's hit points.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.static_site import DIST, serve

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Drive the page's tools from your own Playwright script"


def readme_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None, "the section has a ```python block"
    return found.group(1)


def test_the_readme_example_plays_through_the_page_tools(tmp_path: Path) -> None:
    if not (DIST / "index.html").exists():
        pytest.fail(f"{DIST}/index.html is missing: build the site with ./scripts/build")
    code = readme_example()
    assert 'page.goto("http://127.0.0.1:8000/")' in code
    with serve(DIST) as url:
        script = tmp_path / "example.py"
        script.write_text(code.replace("http://127.0.0.1:8000/", url), encoding="utf-8")
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    turn, hp = done.stdout.split()
    assert int(turn) >= 2 and int(hp) > 0, done.stdout  # a step west from turn 1, the hero alive
