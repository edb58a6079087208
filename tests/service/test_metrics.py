"""test_metrics.py - /metrics is the Prometheus text format 0.0.4 and its numbers move with the calls made.

A real instance plays a real game: each scrape is parsed by a strict
reader of the format (HELP/TYPE before samples, one sample per line,
cumulative buckets ending in +Inf = _count), and the counters, the
latency histogram and the gauges are compared with what the test did.
Only loopback (or a --metrics-client network) may read it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support.raw_mcp import MCP_HEADERS, PROTOCOL
from support.service_instance import Instance

HEADERS = {**MCP_HEADERS, "MCP-Protocol-Version": PROTOCOL}
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\.)*)"')
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(page: str) -> tuple[dict[str, str], Samples]:
    """(family -> type, samples) of a text-format page; asserts the format's rules on the way."""
    types: dict[str, str] = {}
    helped: set[str] = set()
    samples: Samples = {}
    assert page.endswith("\n")
    for line in page.splitlines():
        if line.startswith("# HELP "):
            helped.add(line.split(" ", 3)[2])
        elif line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            assert kind in ("counter", "gauge", "histogram", "summary", "untyped") and name not in types
            types[name] = kind
        else:
            found = SAMPLE.match(line)
            assert found, f"not a sample line: {line!r}"
            name, labels, value = found.group(1), found.group(2) or "", found.group(3)
            family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
            assert family in types and family in helped, f"{name} has no # TYPE/# HELP before it"
            key = (name, frozenset(LABEL.findall(labels)))
            assert key not in samples, f"duplicate sample {line!r}"
            samples[key] = float(value)
    for name, kind in types.items():
        if kind != "histogram":
            continue
        series: dict[frozenset[tuple[str, str]], list[tuple[float, float]]] = {}
        for (sample, labels), value in samples.items():
            if sample == f"{name}_bucket":
                le = dict(labels)["le"]
                series.setdefault(labels - {("le", le)}, []).append((float(le), value))
        for labels, buckets in series.items():
            counts = [count for _, count in sorted(buckets)]
            assert counts == sorted(counts), f"{name} buckets are not cumulative"
            assert sorted(buckets)[-1][0] == float("inf")
            assert samples[(f"{name}_count", labels)] == counts[-1]
    return types, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((f"nethack_webmcp_{name}", frozenset(labels.items())), 0.0)


def scrape(instance: Instance, headers: dict[str, str] | None = None) -> tuple[dict[str, str], Samples]:
    answer = httpx.get(f"{instance.url}/metrics", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    return parse(answer.text)


def call(instance: Instance, name: str, arguments: dict) -> httpx.Response:
    message = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    return httpx.post(instance.mcp_url, json=message, headers=HEADERS, timeout=120)


def frame(answer: httpx.Response) -> dict:
    assert answer.status_code == 200, answer.text
    return answer.json()["result"]["structuredContent"]


@pytest.fixture
def instance(tmp_path: Path) -> Iterator[Instance]:
    with Instance.start(None, tmp_path, "--max-games", "1", "--games-per-client", "1", "--max-body-bytes", "4096") as i:
        yield i


def test_metrics_move_with_the_calls_made(instance: Instance) -> None:
    types, before = scrape(instance)
    assert types["nethack_webmcp_tool_calls_total"] == "counter"
    assert types["nethack_webmcp_tool_call_seconds"] == "histogram"
    assert types["nethack_webmcp_live_games"] == types["nethack_webmcp_engine_processes"] == "gauge"
    assert value(before, "live_games") == 0 and value(before, "tool_calls_total", tool="session") == 0

    created = frame(call(instance, "session", {"action": "create", "seed": 11}))
    game, view, token = created["basis"]["sessionId"], created["basis"]["viewId"], created["result"]["controlToken"]
    for _ in range(3):
        acted = frame(
            call(instance, "interact", {"sessionId": game, "viewId": view, "action": "search", "controlToken": token})
        )
        assert "error" not in acted, acted
        view = acted["basis"]["viewId"]
    unknown = frame(call(instance, "observe", {"sessionId": "no-such-game"}))
    assert unknown["error"]["code"] == "unknownSession"
    full = call(instance, "session", {"action": "create", "seed": 12})
    assert frame(full)["error"]["code"] == "tooManyGames"
    assert int(full.headers["retry-after"]) >= 1  # the frame's retryAfterSeconds, as an HTTP header
    assert httpx.post(instance.mcp_url, content=b"x" * 5000, headers=HEADERS, timeout=30).status_code == 413

    _, after = scrape(instance)
    assert value(after, "tool_calls_total", tool="session") == 2
    assert value(after, "tool_calls_total", tool="interact") == 3
    assert value(after, "tool_calls_total", tool="observe") == 1
    assert value(after, "tool_errors_total", tool="session", code="tooManyGames") == 1
    assert value(after, "tool_errors_total", tool="observe", code="unknownSession") == 1
    assert value(after, "tool_errors_total", tool="interact", code="unknownSession") == 0
    assert value(after, "tool_call_seconds_count", tool="interact") == 3
    assert value(after, "tool_call_seconds_bucket", tool="interact", le="+Inf") == 3
    assert value(after, "tool_call_seconds_sum", tool="interact") > 0
    assert value(after, "live_games") == 1
    assert value(after, "engine_processes") >= 1
    assert value(after, "http_refusals_total", reason="requestTooLarge") == 1
    assert value(after, "open_connections") >= 1  # this scrape's own

    closed = frame(call(instance, "session", {"action": "close", "sessionId": game, "controlToken": token}))
    assert "error" not in closed, closed
    _, last = scrape(instance)
    assert value(last, "live_games") == 0
    assert value(last, "tool_calls_total", tool="session") == 3


def test_metrics_answer_loopback_and_metrics_clients_only(tmp_path: Path) -> None:
    # behind a proxy on loopback, the forwarded client is the one judged
    with Instance.start(None, tmp_path / "a", "--trusted-proxy", "127.0.0.1") as proxied:
        assert httpx.get(f"{proxied.url}/metrics", timeout=30).status_code == 200
        refused = httpx.get(f"{proxied.url}/metrics", headers={"X-Forwarded-For": "203.0.113.5"}, timeout=30)
        assert refused.status_code == 403 and refused.json()["error"] == "metricsNotAllowed"
        assert "nethack_webmcp" not in refused.text
    with Instance.start(
        None, tmp_path / "b", "--trusted-proxy", "127.0.0.1", "--metrics-client", "203.0.113.0/24"
    ) as opened:
        scrape(opened, {"X-Forwarded-For": "203.0.113.5"})
        other = httpx.get(f"{opened.url}/metrics", headers={"X-Forwarded-For": "198.51.100.1"}, timeout=30)
        assert other.status_code == 403
