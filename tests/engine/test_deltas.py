"""test_deltas.py - delta responses, reassembled by the host, are full responses.

The determinism policy plays each seed with every request asking for a
delta response (`"delta": true`); the host's DeltaAssembler
(py/nethack_webmcp/engine/deltas.py) puts back every member the driver
elided, and the reassembled stream must equal the full native stream byte
for byte: natively and on both WebAssembly builds, and with full responses
mixed into the delta stream (observe, create and requests without the flag
answer in full; both sides must stay in step through them). Each run also
shows that deltas were sent (the driver wrote well under half the bytes), so
equality is not vacuous.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from engine_client import WASM_KINDS, DriverClient, create_request, driver_command
from nethack_webmcp.engine.base import EngineError
from nethack_webmcp.engine.deltas import ELIDABLE, DeltaAssembler, ask_for_delta
from nethack_webmcp.engine.native import NativeEngine
from test_determinism import SEEDS, WIZARD_SEED, Deltas, assert_same_stream, native_reference, play


def assert_deltas_sent(full_bytes: int, delta_bytes: int) -> None:
    assert delta_bytes < full_bytes / 2, f"the driver wrote {delta_bytes} of {full_bytes} bytes: hardly any deltas"


@pytest.mark.parametrize("seed", SEEDS + [WIZARD_SEED])
def test_native_deltas_reassemble_to_the_full_stream(seed: int) -> None:
    reference = native_reference(seed)
    delta = play("native", seed, deltas=Deltas())
    assert delta.requests == reference.requests
    assert_same_stream(reference, delta, f"native seed {seed}, reassembled deltas vs full")
    assert_deltas_sent(reference.sent_bytes, delta.sent_bytes)


@pytest.mark.parametrize("full_every", [2, 7])
def test_full_responses_inside_a_delta_stream(full_every: int) -> None:
    seed = SEEDS[0]
    mixed = play("native", seed, deltas=Deltas(full_every=full_every))
    assert_same_stream(native_reference(seed), mixed, f"native seed {seed}, every {full_every}th request full")


@pytest.mark.wasm
@pytest.mark.parametrize("kind", WASM_KINDS)
@pytest.mark.parametrize("seed", SEEDS + [WIZARD_SEED])
def test_wasm_deltas_reassemble_to_the_native_full_stream(seed: int, kind: str) -> None:
    assert driver_command(kind)  # fails with instructions when the build is missing
    reference = native_reference(seed)
    delta = play(kind, seed, deltas=Deltas())
    assert_same_stream(reference, delta, f"WASM ({kind}) reassembled deltas vs native full, seed {seed}")
    assert_deltas_sent(reference.sent_bytes, delta.sent_bytes)


def first_step(client: DriverClient, *, delta: bool) -> str:
    """Create a game and take one search: the raw response to the search."""
    _, created = client.send(create_request("d", 42))
    search = {
        "version": 1,
        "method": "game.search",
        "params": {"sessionId": "d", "requestId": "r1", "expectedRevision": created["revision"]},
    }
    raw, _ = client.send(ask_for_delta(search) if delta else search)
    return raw


def test_an_unchanged_member_is_null_and_nothing_else_changes() -> None:
    with DriverClient(driver_command("native")) as full_client, DriverClient(driver_command("native")) as client:
        full = first_step(full_client, delta=False)
        delta = first_step(client, delta=True)
    observation = json.loads(delta)["observation"]
    elided = [name for name in ELIDABLE if observation[name] is None]
    assert "inventory" in elided and "knowledge" in elided, elided  # one search changes neither
    assert all(json.loads(full)["observation"][name] is not None for name in ELIDABLE)
    without = {key: value for key, value in json.loads(full)["observation"].items() if key not in elided}
    assert {key: value for key, value in observation.items() if key not in elided} == without


def test_a_member_elided_before_it_was_sent_is_a_transport_error() -> None:
    with DriverClient(driver_command("native")) as client:
        delta = first_step(client, delta=True)
    with pytest.raises(EngineError, match="never sent"):
        DeltaAssembler().full(delta)  # a host that missed the creation's response


def test_the_delta_flag_is_validated_like_any_parameter() -> None:
    with DriverClient(driver_command("native")) as client:
        _, created = client.send(create_request("d", 42))
        params = {"sessionId": "d", "requestId": "r1", "expectedRevision": created["revision"], "delta": "yes"}
        _, refused = client.send({"version": 1, "method": "game.search", "params": params})
        assert refused["error"]["code"] == "wrongType" and refused["error"]["field"] == "delta"
        _, observed = client.send({"version": 1, "method": "session.observe", "params": {"sessionId": "d"}})
        assert observed["revision"] == created["revision"]
        observe = {"version": 1, "method": "session.observe", "params": {"sessionId": "d", "delta": True}}
        _, unknown = client.send(observe)
        assert unknown["error"]["code"] == "unknownField"  # observe always answers in full


async def play_through_host(deltas: bool, steps: int = 60) -> list[dict]:
    """The same short mix through NativeEngine, with or without deltas."""
    engine = await NativeEngine.start(deltas=deltas)
    try:
        responses = [await engine.request(create_request("h", 7))]
        for step in range(steps):
            last = responses[-1]
            params = {"sessionId": "h", "requestId": f"r{step}", "expectedRevision": last["revision"]}
            if last.get("ended"):
                break
            if last.get("decision"):
                message = {"method": "decision.cancel", "params": {**params, "decisionId": last["decision"]["id"]}}
            elif step % 2:
                message = {"method": "game.search", "params": params}
            else:
                message = {"method": "game.move", "params": {**params, "direction": ["east", "south"][step % 4 // 2]}}
            responses.append(await engine.request({"version": 1, **message}))
        return responses
    finally:
        await engine.close()


def test_the_native_host_hands_callers_full_responses() -> None:
    with_deltas = asyncio.run(play_through_host(deltas=True))
    without = asyncio.run(play_through_host(deltas=False))
    assert len(with_deltas) > 40 and with_deltas == without
