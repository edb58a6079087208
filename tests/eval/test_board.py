"""The leaderboard: the static page renders in Chromium (screenshot), and the service serves /leaderboard."""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright
from support.eval_runs import REPOSITORY, run_eval
from support.service_instance import Instance

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = REPOSITORY / "build" / "test-output" / "eval"  # build/ is not committed


def test_the_board_page_renders_in_chromium(smoke_runs: dict[str, Any], secret_file: Path, tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium missing: apt-get install chromium (./scripts/test does)")
    site = tmp_path / "site"
    done = run_eval(["board", str(smoke_runs["random"]["path"]), str(smoke_runs["autopilot"]["path"]), "-o",
                     str(site)], secret_file)  # fmt: skip
    assert done.returncode == 0, done.stderr
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto((site / "index.html").as_uri())
        rows = page.locator("#board tr").all_inner_texts()
        page.locator("details").first.evaluate("d => d.open = true")
        page.screenshot(path=str(SCREENSHOTS / "board.png"), full_page=True)
        href = page.locator("details a").first.get_attribute("href")
        browser.close()
    assert not errors
    assert len(rows) == 3  # the head and two runs, best mean progression first
    assert "webmcp-autopilot" in rows[1] and "random" in rows[2]
    replay = json.loads((site / str(href)).read_text())
    assert replay["format"] == "nethack-webmcp-game" and replay["journal"]
    assert (SCREENSHOTS / "board.png").stat().st_size > 10_000


def test_the_service_serves_the_leaderboard(smoke_runs: dict[str, Any], tmp_path: Path) -> None:
    board = tmp_path / "results"
    board.mkdir()
    shutil.copy(smoke_runs["autopilot"]["path"], board / "autopilot.json")
    (board / "other.json").write_text("{}")  # not a results file: left off the board
    with Instance.start(None, tmp_path / "state", env={"NNH_LEADERBOARD_DIR": str(board)}) as service:
        page = urllib.request.urlopen(f"{service.url}/leaderboard").read().decode()
        assert "NetHack agent leaderboard" in page and "webmcp-autopilot" in page
        link = page.split('href="/leaderboard/replays/', 1)[1].split('"', 1)[0]
        replay = json.loads(urllib.request.urlopen(f"{service.url}/leaderboard/replays/{link}").read())
        assert replay["format"] == "nethack-webmcp-game"
    with Instance.start(None, tmp_path / "state2") as service:
        try:
            urllib.request.urlopen(f"{service.url}/leaderboard")
            raise AssertionError("a service without a leaderboard folder answered /leaderboard")
        except urllib.error.HTTPError as refused:
            assert refused.code == 404 and b"leaderboardOff" in refused.read()
