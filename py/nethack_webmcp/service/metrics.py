"""metrics.py - the service's counters, gauges and latency histogram, rendered as Prometheus text.

Everything lives in this process's memory (no dependency, no exporter
thread): `observe_call` is called once per MCP tool call, `count_refusal`
once per request the HTTP edge refuses itself, and gauges are functions
read at scrape time (live games from the registry, engine processes from
the native host), so a gauge can never drift from what it measures.

`render()` is the Prometheus text exposition format 0.0.4: `# HELP` and
`# TYPE` before each family, one sample per line, label values escaped,
histogram buckets cumulative with `le="+Inf"`, `_sum` and `_count`.
Label values are only ever tool names and error codes (short, fixed
vocabularies), never anything a client chose freely, so the number of
series stays bounded.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

PREFIX = "nethack_webmcp"
#: upper bounds (seconds) of the tool-call latency histogram; a turn is milliseconds, a replay seconds
LATENCY_BUCKETS: tuple[float, ...] = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
#: the error label of a call whose handler raised instead of returning a frame
RAISED = "raised"
#: the content type a Prometheus scraper expects for text format 0.0.4
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# Tool names and error codes are fixed vocabularies; a longer label is cut
# so that an unexpected value cannot grow a series without bound.
_LABEL_MAX = 64


class _Histogram:
    def __init__(self) -> None:
        self.counts = [0] * len(LATENCY_BUCKETS)
        self.total = 0
        self.sum = 0.0

    def observe(self, seconds: float) -> None:
        for i, bound in enumerate(LATENCY_BUCKETS):
            if seconds <= bound:
                self.counts[i] += 1
        self.total += 1
        self.sum += seconds


class Metrics:
    """One instance's numbers. Thread-safe (the stdio and HTTP servers run in one loop, tests in threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: dict[str, int] = {}
        self._errors: dict[tuple[str, str], int] = {}
        self._latency: dict[str, _Histogram] = {}
        self._refusals: dict[str, int] = {}
        self._gauges: dict[str, tuple[str, Callable[[], float]]] = {}

    def observe_call(self, tool: str, frame: dict[str, Any] | None, seconds: float) -> None:
        """Count one finished tool call: `frame` None means the handler raised."""
        tool = _tool_label(tool)
        code: str | None = RAISED
        if frame is not None:
            error = frame.get("error")
            code = _clip(str(error.get("code") or "unknown")) if isinstance(error, dict) else None
        with self._lock:
            self._calls[tool] = self._calls.get(tool, 0) + 1
            if code is not None:
                self._errors[(tool, code)] = self._errors.get((tool, code), 0) + 1
            self._latency.setdefault(tool, _Histogram()).observe(max(0.0, seconds))

    def count_refusal(self, reason: str) -> None:
        """Count one request the HTTP edge answered itself (413, 421, 403, parse error, timeout, cap)."""
        reason = _clip(reason)
        with self._lock:
            self._refusals[reason] = self._refusals.get(reason, 0) + 1

    def set_gauge(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        """Register (or replace) a gauge `PREFIX_name` read at scrape time."""
        with self._lock:
            self._gauges[name] = (help_text, read)

    def render(self) -> str:
        """The Prometheus text format 0.0.4 page."""
        with self._lock:
            calls = dict(self._calls)
            errors = dict(self._errors)
            latency = {tool: (list(h.counts), h.total, h.sum) for tool, h in self._latency.items()}
            refusals = dict(self._refusals)
            gauges = dict(self._gauges)
        lines: list[str] = []
        for name, (help_text, read) in sorted(gauges.items()):
            try:
                value = float(read())
            except Exception:  # a gauge that cannot be read is left out, not a failed scrape
                continue
            lines += _family(f"{PREFIX}_{name}", "gauge", help_text)
            lines.append(f"{PREFIX}_{name} {_number(value)}")
        lines += _family(f"{PREFIX}_tool_calls_total", "counter", "MCP tool calls finished, by tool")
        lines += [f"{PREFIX}_tool_calls_total{_labels(tool=t)} {n}" for t, n in sorted(calls.items())]
        lines += _family(
            f"{PREFIX}_tool_errors_total",
            "counter",
            f"MCP tool calls that ended in an error, by tool and code ({RAISED} = the handler raised)",
        )
        lines += [f"{PREFIX}_tool_errors_total{_labels(tool=t, code=c)} {n}" for (t, c), n in sorted(errors.items())]
        name = f"{PREFIX}_tool_call_seconds"
        lines += _family(name, "histogram", "MCP tool call latency in seconds, by tool")
        for tool, (counts, total, seconds) in sorted(latency.items()):
            for bound, count in zip(LATENCY_BUCKETS, counts, strict=True):
                lines.append(f"{name}_bucket{_labels(tool=tool, le=_number(bound))} {count}")
            lines.append(f"{name}_bucket{_labels(tool=tool, le='+Inf')} {total}")
            lines.append(f"{name}_sum{_labels(tool=tool)} {_number(seconds)}")
            lines.append(f"{name}_count{_labels(tool=tool)} {total}")
        lines += _family(
            f"{PREFIX}_http_refusals_total", "counter", "HTTP requests the edge answered itself, by reason"
        )
        lines += [f"{PREFIX}_http_refusals_total{_labels(reason=r)} {n}" for r, n in sorted(refusals.items())]
        return "\n".join(lines) + "\n"


def _clip(value: str) -> str:
    return value[:_LABEL_MAX]


def _tool_label(tool: str) -> str:
    """A declared tool's name; anything else (a client can name any tool) is "unknown"."""
    from ..tools import BY_NAME  # late: the tools import the session layer, which needs no metrics

    return tool if tool in BY_NAME else "unknown"


def _family(name: str, kind: str, help_text: str) -> list[str]:
    escaped = help_text.replace("\\", "\\\\").replace("\n", "\\n")
    return [f"# HELP {name} {escaped}", f"# TYPE {name} {kind}"]


def _labels(**labels: str) -> str:
    def escape(value: str) -> str:
        return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")

    return "{" + ",".join(f'{key}="{escape(value)}"' for key, value in labels.items()) + "}"


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else repr(value)


#: the process's one set of metrics (one service instance per process)
METRICS = Metrics()


def observe_call(tool: str, frame: dict[str, Any] | None, seconds: float) -> None:
    """Count one finished MCP tool call (`frame` None = the call raised; its
    error code, when it has one, is frame["error"]["code"])."""
    METRICS.observe_call(tool, frame, seconds)


def count_refusal(reason: str) -> None:
    METRICS.count_refusal(reason)


def render() -> str:
    return METRICS.render()


def engine_processes() -> float:
    """Native engine (nhdriver) processes alive in this process now."""
    from ..engine import native  # the native host keeps the table of processes it has not reaped

    return float(sum(1 for process in native._live.values() if process.returncode is None))
