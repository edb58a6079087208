"""stats.py - summary statistics with bootstrap confidence intervals, and a paired bootstrap for comparisons.

Deterministic: the resampling generator is seeded, so the same results file
always prints the same interval.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

RESAMPLES = 10_000
SEED = 29  # any fixed value: the intervals of one file never change between prints


def mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile of an already sorted list (q in 0..1)."""
    position = q * (len(sorted_values) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def bootstrap_ci(values: Sequence[float], resamples: int = RESAMPLES, level: float = 0.95) -> list[float] | None:
    """The percentile bootstrap interval [low, high] of the mean; None with no values."""
    if not values:
        return None
    rng = random.Random(SEED)
    n = len(values)
    means = sorted(statistics.fmean(rng.choices(values, k=n)) for _ in range(resamples))
    tail = (1 - level) / 2
    return [_percentile(means, tail), _percentile(means, 1 - tail)]


def paired_bootstrap(
    a: Sequence[float], b: Sequence[float], resamples: int = RESAMPLES
) -> dict[str, float | list[float]]:
    """The mean of b - a over paired games, its 95% interval, and a two-sided p-value: the share of
    resampled mean differences on the other side of zero, doubled (the interval excludes 0 iff p < 0.05,
    up to resampling resolution)."""
    if len(a) != len(b) or not a:
        raise ValueError("a paired bootstrap needs two equally long, non-empty lists")
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    rng = random.Random(SEED)
    n = len(diffs)
    means = sorted(statistics.fmean(rng.choices(diffs, k=n)) for _ in range(resamples))
    observed = statistics.fmean(diffs)
    below = sum(1 for m in means if m <= 0) / resamples
    above = sum(1 for m in means if m >= 0) / resamples
    p = min(1.0, 2 * min(below, above))
    return {"meanDifference": observed, "ci95": [_percentile(means, 0.025), _percentile(means, 0.975)], "p": p}
