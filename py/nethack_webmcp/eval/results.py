"""results.py - the results document: versioned, every game's entry, the summary and the per-role table.

Schema (docs/EVALUATION.md has it field by field):
    {"format": "nethack-webmcp-eval", "version": 1, "createdAt", "agent", "suite", "budgets", "host",
     "sealed", "seedSearch", "summary", "perRole", "games": [...]}
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .stats import bootstrap_ci, mean, median

FORMAT = "nethack-webmcp-eval"
VERSION = 1


def _numbers(games: list[dict[str, Any]], key: str) -> list[float]:
    return [float(g[key]) for g in games if isinstance(g.get(key), int | float)]


def summarize(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Means, medians and bootstrap 95% intervals over the games."""
    progression = _numbers(games, "progression")
    depth = _numbers(games, "deepestDlvl")
    costs = _numbers(games, "costUsd")
    out: dict[str, Any] = {
        "games": len(games),
        "meanProgression": mean(progression),
        "medianProgression": median(progression),
        "progressionCI95": bootstrap_ci(progression),
        "meanDeepestDlvl": mean(depth),
        "medianDeepestDlvl": median(depth),
        "deepestDlvlCI95": bootstrap_ci(depth),
        "maxDeepestDlvl": max(depth) if depth else None,
        "depthDistribution": {str(int(k)): v for k, v in sorted(Counter(depth).items())},
        "meanMaxXL": mean(_numbers(games, "maxXL")),
        "meanScore": mean(_numbers(games, "score")),
        "meanTurns": mean(_numbers(games, "turns")),
        "meanToolCalls": mean(_numbers(games, "toolCalls")),
        "meanInvalidCalls": mean(_numbers(games, "invalidCalls")),
        "tokensIn": sum(_numbers(games, "tokensIn")) if _numbers(games, "tokensIn") else None,
        "tokensOut": sum(_numbers(games, "tokensOut")) if _numbers(games, "tokensOut") else None,
        "costUsd": sum(costs) if costs else None,
        "costPerGameUsd": mean(costs),
        "meanWallSeconds": mean(_numbers(games, "wallSeconds")),
        "causes": dict(Counter(str(g.get("cause", "")).split(":")[0] for g in games)),
    }
    return out


def per_role(games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    roles = sorted({g["role"] for g in games})
    table = {}
    for role in roles:
        mine = [g for g in games if g["role"] == role]
        progression = _numbers(mine, "progression")
        table[role] = {
            "games": len(mine),
            "meanProgression": mean(progression),
            "progressionCI95": bootstrap_ci(progression),
            "meanDeepestDlvl": mean(_numbers(mine, "deepestDlvl")),
            "meanMaxXL": mean(_numbers(mine, "maxXL")),
        }
    return table


def document(
    agent: dict[str, Any],
    suite: dict[str, Any],
    budgets: dict[str, Any],
    host: str,
    sealed: bool,
    seed_search: dict[str, Any],
    games: list[dict[str, Any]],
    created_at: float,
) -> dict[str, Any]:
    games = sorted(games, key=lambda g: g["index"])
    return {
        "format": FORMAT,
        "version": VERSION,
        "createdAt": created_at,
        "agent": agent,
        "suite": suite,
        "budgets": budgets,
        "host": host,
        "sealed": sealed,
        "seedSearch": seed_search,
        "summary": summarize(games),
        "perRole": per_role(games),
        "games": games,
    }


def check(results: Any, name: str = "results") -> dict[str, Any]:
    """A loaded results document, or ValueError saying why it is not one."""
    if not isinstance(results, dict) or results.get("format") != FORMAT:
        raise ValueError(f"{name}: not a {FORMAT} results file")
    if results.get("version") != VERSION:
        raise ValueError(f"{name}: results version {results.get('version')!r}, this harness reads {VERSION}")
    return results
