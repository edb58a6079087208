"""The acceptance runs: results files of the autopilot and random agents on the smoke suite."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from support.eval_runs import expected_seed, run_eval

TABLE = json.loads((Path(__file__).resolve().parents[2] / "py/nethack_webmcp/eval/balrog_progression.json").read_text())


def by_hand(deepest: int, max_level: int) -> float:
    """BALROG's rule written out again: the larger table value of the two levels reached, in percent."""
    return 100 * max(TABLE["dlvl"][str(deepest)], TABLE["xp"][str(max_level)])


def test_each_game_has_progression_depth_and_the_revealed_seed(smoke_runs: dict[str, Any], secret_file: Path) -> None:
    secret = secret_file.read_bytes().strip()
    for agent, run in smoke_runs.items():
        results = run["results"]
        assert results["format"] == "nethack-webmcp-eval" and results["version"] == 1
        assert results["sealed"] is True and results["suite"]["name"] == "smoke"
        assert [g["index"] for g in results["games"]] == [0, 1, 2]
        for game in results["games"]:
            assert 0 <= game["progression"] <= 100, agent
            assert isinstance(game["deepestDlvl"], int) and game["deepestDlvl"] >= 1
            assert game["seed"] == expected_seed(secret, "smoke", 1, game["index"])
            assert game["record"]["seed"] == game["seed"]  # the service published the same seed at the end
            assert game["role"] == ("valkyrie", "samurai", "wizard")[game["index"]]
            assert 1 <= game["toolCalls"] <= 300, (agent, game["toolCalls"], game["agent"], game["cause"])
            assert game["replay"]["format"] == "nethack-webmcp-game" and game["replay"]["journal"]
        summary = results["summary"]
        assert summary["meanProgression"] is not None and len(summary["progressionCI95"]) == 2
        low, high = summary["progressionCI95"]
        assert low <= summary["meanProgression"] <= high


def test_progression_equals_the_hand_computed_value_from_the_records(smoke_runs: dict[str, Any]) -> None:
    for run in smoke_runs.values():
        for game in run["results"]["games"]:
            record = game["record"]
            assert game["deepestDlvl"] == record["deepestDepth"]
            assert game["maxXL"] == record["maxLevel"]
            assert abs(game["progression"] - by_hand(record["deepestDepth"], record["maxLevel"])) < 1e-9
        games = run["results"]["games"]
        mean = sum(g["progression"] for g in games) / len(games)
        assert abs(run["results"]["summary"]["meanProgression"] - mean) < 1e-9


def test_the_autopilot_goes_deeper_than_random(smoke_runs: dict[str, Any]) -> None:
    autopilot = smoke_runs["autopilot"]["results"]["summary"]
    random = smoke_runs["random"]["results"]["summary"]
    assert autopilot["meanDeepestDlvl"] > random["meanDeepestDlvl"]


def test_no_byte_the_agents_received_holds_a_suite_seed(smoke_runs: dict[str, Any]) -> None:
    for run in smoke_runs.values():
        search = run["results"]["seedSearch"]
        assert search["found"] == 0 and search["seeds"] == 3
        assert search["bytesSearched"] > 100_000  # every frame of 3 games went through the search
        assert sum(g["bytesReceived"] for g in run["results"]["games"]) <= search["bytesSearched"]


def test_compare_prints_the_difference_and_its_significance(smoke_runs: dict[str, Any], secret_file: Path) -> None:
    done = run_eval(["--compare", str(smoke_runs["random"]["path"]), str(smoke_runs["autopilot"]["path"])], secret_file)
    assert done.returncode == 0, done.stderr
    assert "paired games: 3" in done.stdout
    line = next(x for x in done.stdout.splitlines() if x.startswith("deepest Dlvl"))
    expected = (
        sum(
            a["deepestDlvl"] - r["deepestDlvl"]
            for a, r in zip(
                smoke_runs["autopilot"]["results"]["games"], smoke_runs["random"]["results"]["games"], strict=True
            )
        )
        / 3
    )
    assert f"B - A = {expected:+.3f}" in line
    assert re.search(r"p = [0-9.]+  (significant|not significant)", line)


def test_bad_arguments_are_refused_with_a_clear_message(secret_file: Path, tmp_path: Path) -> None:
    done = run_eval(["--agent", "random", "--suite", "smoke", "--games", "9"], secret_file)
    assert done.returncode == 2 and "--games must be at most 5" in done.stderr
    done = run_eval(["--agent", "llm", "--suite", "smoke"], secret_file)
    assert done.returncode == 2 and "--provider and --model" in done.stderr
    done = run_eval(["--agent", "random", "--host", "browser", "--server", "http://127.0.0.1:9/"], secret_file)
    assert done.returncode == 2 and "--host browser plays in a local page" in done.stderr
    (tmp_path / "x.json").write_text("{}")
    done = run_eval(["--compare", str(tmp_path / "x.json"), str(tmp_path / "x.json")], secret_file)
    assert done.returncode == 2 and "not a nethack-webmcp-eval results file" in done.stderr
