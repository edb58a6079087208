"""The reference LLM loop through the official SDKs, on recorded API exchanges, against the real server.

Each SDK gets an httpx2 client whose MockTransport answers with response bodies written in the providers'
documented formats (Anthropic Messages, OpenAI Chat Completions) and keeps every request the SDK sent, so
the tests see the tool translation, the bounded context and the token accounting as the API would.
A live run (real API, one short game) runs only when a key is set; otherwise it is skipped, visibly."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx2
import pytest
from nethack_webmcp.eval.agents.llm_agent import LlmAgent
from nethack_webmcp.eval.agents.providers import provider
from nethack_webmcp.eval.runner import RunOptions, run_suite
from nethack_webmcp.eval.suites import SUITES
from support.eval_runs import run_eval

MODEL = "recorded-test-model"  # priced 1.0 / 2.0 USD per million tokens in prices.json
CALLS = [("observe", {}), ("help", {"topic": "travel"}), ("travel", {"mode": "explore"})]
IDLE = 3  # then three turns without a tool call: the loop stops (noToolCalls)


def anthropic_bodies() -> list[dict[str, Any]]:
    bodies = []
    for n, (name, arguments) in enumerate(CALLS):
        bodies.append({
            "id": f"msg_{n}", "type": "message", "role": "assistant", "model": MODEL,
            "content": [{"type": "text", "text": f"step {n}"},
                        {"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": arguments}],
            "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": 1000 + n, "output_tokens": 20 + n, "cache_creation_input_tokens": 5,
                      "cache_read_input_tokens": 7},
        })  # fmt: skip
    for n in range(IDLE):
        bodies.append({
            "id": f"msg_idle{n}", "type": "message", "role": "assistant", "model": MODEL,
            "content": [{"type": "text", "text": "I am thinking."}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 900, "output_tokens": 10},
        })  # fmt: skip
    return bodies


def openai_bodies() -> list[dict[str, Any]]:
    bodies = []
    for n, (name, arguments) in enumerate(CALLS):
        call = {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
        bodies.append({
            "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1, "model": MODEL,
            "choices": [{"index": 0, "finish_reason": "tool_calls",
                         "message": {"role": "assistant", "content": None, "tool_calls": [call]}}],
            "usage": {"prompt_tokens": 1000 + n, "completion_tokens": 20 + n, "total_tokens": 1020 + 2 * n},
        })  # fmt: skip
    for n in range(IDLE):
        bodies.append({
            "id": f"chatcmpl-idle{n}", "object": "chat.completion", "created": 1, "model": MODEL,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Hmm."}}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 10, "total_tokens": 910},
        })  # fmt: skip
    return bodies


class Recorded:
    """A MockTransport handler: the recorded answers in order; every request body kept."""

    def __init__(self, bodies: list[dict[str, Any]]) -> None:
        self.bodies = list(bodies)
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(json.loads(request.content))
        self.paths.append(request.url.path)
        return httpx2.Response(200, json=self.bodies.pop(0))


async def play(name: str, bodies: list[dict[str, Any]], tmp_path: Path) -> tuple[dict[str, Any], Recorded, LlmAgent]:
    recorded = Recorded(bodies)
    http = httpx2.AsyncClient(transport=httpx2.MockTransport(recorded))
    agent = LlmAgent(provider(name, MODEL, http_client=http, api_key="recorded"), MODEL, context=2)
    options = RunOptions(SUITES["smoke"], b"llm-test-secret", count=1, max_calls=50, work_dir=tmp_path)
    label = {"kind": "llm", "harness": agent.harness, "model": MODEL, "provider": name}
    results = await run_suite(agent, options, label)
    await http.aclose()
    return results, recorded, agent


def _common(results: dict[str, Any], recorded: Recorded, sent_tools: list[list[str]], schemas: list[Any]) -> None:
    game = results["games"][0]
    assert len(recorded.requests) == len(CALLS) + IDLE and not recorded.bodies
    assert game["toolCalls"] == len(CALLS) and game["agent"]["stopped"] == "noToolCalls"
    assert results["seedSearch"]["found"] == 0
    declared = {"session", "observe", "interact", "use", "travel", "equipment", "inventory", "plan", "lookup",
                "respond", "help"}  # fmt: skip
    for names in sent_tools:
        assert set(names) >= declared - {"interact"}  # every declared tool, as the server lists them
    # the token is the loop's, never the model's: no schema asks the model for it
    assert all("controlToken" not in (schema.get("properties") or {}) for schema in schemas)
    assert any("sessionId" in (schema.get("properties") or {}) for schema in schemas)


@pytest.mark.asyncio
async def test_anthropic_loop_on_recorded_exchanges(tmp_path: Path) -> None:
    results, recorded, agent = await play("anthropic", anthropic_bodies(), tmp_path)
    assert set(recorded.paths) == {"/v1/messages"}
    _common(results, recorded, [[t["name"] for t in r["tools"]] for r in recorded.requests],
            [t["input_schema"] for r in recorded.requests for t in r["tools"]])  # fmt: skip
    session_id = results["games"][0]["sessionId"]
    second = recorded.requests[1]["messages"]
    assert second[0]["role"] == "user" and session_id in second[0]["content"]  # the task names the game
    assert second[1]["content"][1] == {"type": "tool_use", "id": "toolu_0", "name": "observe", "input": {}}
    result = second[2]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_0"
    assert result["content"].startswith(f"session {session_id} viewId")  # the frame's rendered text
    for request in recorded.requests:  # bounded: the task plus at most the last 2 exchanges
        assert sum(1 for m in request["messages"] if m["role"] == "assistant") <= 2
        assert request["model"] == MODEL and request["system"] == agent.system
    assert sum(1 for m in recorded.requests[-1]["messages"] if m["role"] == "assistant") == 2
    game = results["games"][0]
    tokens_in = sum(1000 + n + 12 for n in range(3)) + 900 * IDLE
    tokens_out = sum(20 + n for n in range(3)) + 10 * IDLE
    assert (game["tokensIn"], game["tokensOut"]) == (tokens_in, tokens_out)
    assert game["costUsd"] == pytest.approx((tokens_in * 1.0 + tokens_out * 2.0) / 1e6)
    assert results["summary"]["costUsd"] == pytest.approx(game["costUsd"])


@pytest.mark.asyncio
async def test_openai_loop_on_recorded_exchanges(tmp_path: Path) -> None:
    results, recorded, _agent = await play("openai", openai_bodies(), tmp_path)
    assert set(recorded.paths) == {"/v1/chat/completions"}
    _common(results, recorded, [[t["function"]["name"] for t in r["tools"]] for r in recorded.requests],
            [t["function"]["parameters"] for r in recorded.requests for t in r["tools"]])  # fmt: skip
    second = recorded.requests[1]["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool"]
    assert second[2]["tool_calls"][0]["function"] == {"name": "observe", "arguments": "{}"}
    assert second[3]["tool_call_id"] == "call_0" and "viewId" in second[3]["content"]
    for request in recorded.requests:
        assert sum(1 for m in request["messages"] if m["role"] == "assistant") <= 2
    game = results["games"][0]
    tokens_in = sum(1000 + n for n in range(3)) + 900 * IDLE
    tokens_out = sum(20 + n for n in range(3)) + 10 * IDLE
    assert (game["tokensIn"], game["tokensOut"]) == (tokens_in, tokens_out)
    assert game["costUsd"] == pytest.approx((tokens_in + 2 * tokens_out) / 1e6)


@pytest.mark.parametrize(("name", "key", "model"), [("anthropic", "ANTHROPIC_API_KEY", "claude-haiku-4-5"),
                                                    ("openai", "OPENAI_API_KEY", "gpt-4o-mini")])  # fmt: skip
def test_live_run_when_a_key_is_set(name: str, key: str, model: str, secret_file: Path, tmp_path: Path) -> None:
    if not os.environ.get(key):
        pytest.skip(f"{key} is not set: the live {name} run (one smoke game, 5 calls) needs it")
    out = tmp_path / "live.json"
    model = os.environ.get(f"NNH_EVAL_{name.upper()}_MODEL", model)
    args = ["--agent", "llm", "--provider", name, "--model", model, "--suite", "smoke", "--games", "1"]
    done = run_eval([*args, "--max-calls", "5", "--out", str(out)], secret_file)
    assert done.returncode == 0, done.stderr[-2000:]
    game = json.loads(out.read_text())["games"][0]
    assert game["tokensIn"] > 0 and game["tokensOut"] > 0 and game["toolCalls"] >= 1
