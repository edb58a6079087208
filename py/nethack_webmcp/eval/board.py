"""board.py - the leaderboard: results files ranked by mean progression, as one static HTML page.

    python -m nethack_webmcp.eval board results/*.json -o DIR

writes DIR/index.html and DIR/replays/<run>/<game>.json (each game's
exported journal, which `python -m nethack_webmcp.export import` and the
replay viewer open). The same page is served by the HTTP service at
/leaderboard (board_route.py). Every text from a results file is escaped:
labels are whatever an operator or agent chose.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

from .results import check

STYLE = """
body{font:15px/1.4 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{padding:.35rem .5rem;border-bottom:1px solid #ddd;
text-align:left;vertical-align:top}th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
.bar{display:inline-block;background:#4a7;height:.8rem;margin-right:1px;vertical-align:bottom}.dist{white-space:nowrap}
.small{color:#555;font-size:13px}details{margin:.5rem 0}
"""


def run_id(results: dict[str, Any]) -> str:
    """A short stable name for a results file (its agent, suite and creation time)."""
    text = json.dumps([results.get("agent"), results.get("suite"), results.get("createdAt")], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _num(value: Any, digits: int = 2) -> str:
    return "-" if not isinstance(value, int | float) else f"{value:.{digits}f}"


def _ci(ci: Any) -> str:
    return "" if not ci else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def _distribution(summary: dict[str, Any]) -> str:
    """One bar per deepest Dlvl reached, as wide as its share of games, and the counts as text."""
    counts = sorted((summary.get("depthDistribution") or {}).items(), key=lambda kv: int(kv[0]))
    top = max((v for _k, v in counts), default=1)
    bars = "".join(
        f'<span title="Dlvl {escape(k)}: {int(v)} games" class="bar" style="width:{max(2, int(24 * v / top))}px">'
        "</span>"
        for k, v in counts
    )
    return bars + "<br><span class=small>" + escape(", ".join(f"D{k}x{v}" for k, v in counts)) + "</span>"


def _cell(value: str, note: str = "") -> str:
    return f"<td class=n>{value}" + (f"<br><span class=small>{note}</span>" if note else "") + "</td>"


def render(runs: list[dict[str, Any]], replay_href: Callable[[str, int], str]) -> str:
    """The page for these results, best mean progression first."""
    ranked = sorted(runs, key=lambda r: -(r["summary"].get("meanProgression") or 0.0))
    rows, details = [], []
    for rank, results in enumerate(ranked, start=1):
        s, agent, suite = results["summary"], results.get("agent") or {}, results.get("suite") or {}
        rid = run_id(results)
        sealed = "sealed" if results.get("sealed") else "unsealed"
        rows.append(
            "<tr>"
            f"<td class=n>{rank}</td><td>{escape(str(agent.get('model', '')))}</td>"
            f"<td>{escape(str(agent.get('harness', '')))}<br><span class=small>{escape(sealed)}, "
            f"{escape(str(results.get('host', '')))}</span></td>"
            f"<td>{escape(str(suite.get('name', '')))} v{escape(str(suite.get('version', '')))}</td>"
            f"<td class=n>{s.get('games')}</td>"
            + _cell(f"<b>{_num(s.get('meanProgression'))}</b>", _ci(s.get("progressionCI95")))
            + f"<td class=n>{_num(s.get('medianProgression'))}</td>"
            + _cell(_num(s.get("meanDeepestDlvl")), f"max {_num(s.get('maxDeepestDlvl'), 0)}")
            + f"<td class=dist>{_distribution(s)}</td><td class=n>{_num(s.get('meanMaxXL'))}</td>"
            f"<td class=n>{_num(s.get('costPerGameUsd'), 4)}</td>"
            "</tr>"
        )  # fmt: skip
        games = "".join(
            f"<tr><td class=n>{g['index']}</td><td>{escape(str(g.get('role')))}</td><td class=n>{g.get('seed')}</td>"
            f"<td class=n>{_num(g.get('progression'))}</td><td class=n>{g.get('deepestDlvl')}</td>"
            f"<td class=n>{g.get('maxXL')}</td><td class=n>{g.get('turns')}</td><td class=n>{g.get('toolCalls')}</td>"
            f"<td>{escape(str(g.get('cause')))}</td>"
            + (f'<td><a href="{escape(replay_href(rid, g["index"]))}">replay</a></td>' if g.get("replay") else "<td>-")
            + "</tr>"
            for g in results["games"]
        )  # fmt: skip
        details.append(
            f"<details><summary>#{rank} {escape(str(agent.get('model', '')))} ({escape(str(agent.get('harness', '')))})"
            f" - {s.get('games')} games</summary><table><tr><th>#</th><th>role</th><th>seed</th><th>progression</th>"
            f"<th>Dlvl</th><th>XL</th><th>turns</th><th>calls</th><th>end</th><th>replay</th></tr>{games}</table></details>"
        )  # fmt: skip
    head = ("<tr><th>#</th><th>model</th><th>harness</th><th>suite</th><th>games</th><th>mean progression %<br>"
            "<span class=small>95% CI</span></th><th>median</th><th>mean Dlvl</th><th>depth distribution</th>"
            "<th>mean XL</th><th>cost / game (USD)</th></tr>")  # fmt: skip
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport content='width=device-width'>"
        f"<title>NetHack agent leaderboard</title><style>{STYLE}</style></head><body>"
        "<h1>NetHack agent leaderboard</h1><p class=small>Ranked by mean BALROG progression (the published "
        "achievement table of BALROG, Paglieri et al. 2024) over sealed-seed suites; 95% bootstrap intervals.</p>"
        f"<table id=board>{head}{''.join(rows)}</table>{''.join(details)}</body></html>"
    )


def load(paths: list[Path]) -> list[dict[str, Any]]:
    return [check(json.loads(p.read_text(encoding="utf-8")), str(p)) for p in paths]


def build(paths: list[Path], out: Path) -> Path:
    """Write the static board for these results files; returns index.html's path."""
    runs = load(paths)
    out.mkdir(parents=True, exist_ok=True)
    for results in runs:
        folder = out / "replays" / run_id(results)
        folder.mkdir(parents=True, exist_ok=True)
        for game in results["games"]:
            if game.get("replay"):
                (folder / f"{game['index']}.json").write_text(json.dumps(game["replay"]), encoding="utf-8")
    index = out / "index.html"
    index.write_text(render(runs, lambda rid, i: f"replays/{rid}/{i}.json"), encoding="utf-8")
    return index
