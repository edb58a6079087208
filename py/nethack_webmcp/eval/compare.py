"""compare.py - two results files, game by game: the difference in progression and depth, and its significance.

Games are paired by suite index where both files played the same game (same
suite, version and seed); the difference (second minus first) is tested
with a paired bootstrap over those games (stats.paired_bootstrap).
"""

from __future__ import annotations

from typing import Any

from .stats import paired_bootstrap

METRICS = (("progression", "progression (%)"), ("deepestDlvl", "deepest Dlvl"), ("maxXL", "max XL"))


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    if (a["suite"]["name"], a["suite"]["version"]) != (b["suite"]["name"], b["suite"]["version"]):
        raise ValueError(
            f"different suites: {a['suite']['name']} v{a['suite']['version']} and "
            f"{b['suite']['name']} v{b['suite']['version']}"
        )
    first = {g["index"]: g for g in a["games"]}
    pairs = [
        (first[g["index"]], g) for g in b["games"] if g["index"] in first and first[g["index"]]["seed"] == g["seed"]
    ]
    if not pairs:
        raise ValueError("the two runs share no game (same suite index and seed): nothing to pair")
    out: dict[str, Any] = {"pairedGames": len(pairs), "metrics": {}}
    for key, _ in METRICS:
        xs = [float(x.get(key) or 0) for x, _y in pairs]
        ys = [float(y.get(key) or 0) for _x, y in pairs]
        test = paired_bootstrap(xs, ys)
        out["metrics"][key] = {**test, "significant": bool(float(test["p"]) < 0.05)}  # type: ignore[arg-type]
    return out


def render(a: dict[str, Any], b: dict[str, Any], result: dict[str, Any]) -> str:
    def label(r: dict[str, Any]) -> str:
        return f"{r['agent'].get('harness')} / {r['agent'].get('model')}"

    lines = [f"A: {label(a)}", f"B: {label(b)}", f"paired games: {result['pairedGames']} (suite {a['suite']['name']})"]
    for key, title in METRICS:
        m = result["metrics"][key]
        low, high = m["ci95"]
        verdict = "significant" if m["significant"] else "not significant"
        lines.append(
            f"{title}: B - A = {m['meanDifference']:+.3f}  95% CI [{low:+.3f}, {high:+.3f}]"
            f"  p = {m['p']:.3f}  {verdict}"
        )
    return "\n".join(lines)
