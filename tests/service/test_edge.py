"""test_edge.py - the listener refuses hostile Host and Origin values (DNS rebinding, look-alike
names, a forged forwarded host, "null"), oversized bodies; /mcp is never cacheable."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from support.raw_mcp import MCP_HEADERS, initialize_request
from support.service_instance import Instance

INIT = initialize_request("edge-test")


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    # SQLite store: the edge does not depend on the database
    with Instance.start(None, tmp_path_factory.mktemp("edge"), "--max-body-bytes", "4096") as running:
        yield running


def post(instance: Instance, headers: dict[str, str], body: bytes | None = None) -> httpx.Response:
    return httpx.post(
        instance.mcp_url,
        content=body if body is not None else json.dumps(INIT).encode(),
        headers={**MCP_HEADERS, **headers},
        timeout=30,
    )


def test_the_own_address_is_served(instance: Instance) -> None:
    answer = post(instance, {})
    assert answer.status_code == 200 and answer.json()["result"]["serverInfo"]["name"] == "nethack-webmcp"
    assert answer.headers["cache-control"] == "no-store"
    port = instance.url.rsplit(":", 1)[1]
    assert post(instance, {"Host": f"localhost:{port}"}).status_code == 200
    assert post(instance, {"Origin": instance.url}).status_code == 200
    assert httpx.get(f"{instance.url}/health", timeout=30).status_code == 200


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",
        "127.0.0.1.evil.example:{port}",
        "127.0.0.1:{port}.evil.example",
        "127.0.0.1",
        "127.0.0.1:1",
        "localhost",
        "0.0.0.0:{port}",
        "[::1]:1",
        "",
        "127.0.0.1:{port}@evil.example",
    ],
)
def test_hostile_host_is_refused(instance: Instance, host: str) -> None:
    port = instance.url.rsplit(":", 1)[1]
    value = host.format(port=port)
    for url in (instance.mcp_url, f"{instance.url}/api/recent", f"{instance.url}/"):
        answer = httpx.request(
            "POST" if url == instance.mcp_url else "GET",
            url,
            headers={**MCP_HEADERS, "Host": value},
            content=json.dumps(INIT).encode() if url == instance.mcp_url else None,
            timeout=30,
        )
        assert answer.status_code == 421, (value, url, answer.status_code)
        assert answer.json()["error"] == "hostNotAllowed"
        assert value not in answer.text or not value


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "null",
        "https://127.0.0.1:{port}",
        "http://127.0.0.1:{port}.evil.example",
        "http://localhost:1",
        "file://",
        "http://127.0.0.1",
    ],
)
def test_hostile_origin_is_refused(instance: Instance, origin: str) -> None:
    port = instance.url.rsplit(":", 1)[1]
    answer = post(instance, {"Origin": origin.format(port=port)})
    assert answer.status_code == 403 and answer.json()["error"] == "originNotAllowed"
    spectator = httpx.get(f"{instance.url}/api/recent", headers={"Origin": origin.format(port=port)}, timeout=30)
    assert spectator.status_code == 403


def test_forwarded_headers_are_not_trusted(instance: Instance) -> None:
    # a forged forwarded host changes nothing (never read); the Host check still applies
    answer = post(
        instance,
        {"X-Forwarded-Host": "evil.example", "Forwarded": "host=evil.example", "X-Forwarded-For": "203.0.113.9"},
    )
    assert answer.status_code == 200
    assert post(instance, {"Host": "evil.example", "X-Forwarded-Host": f"{instance.url[7:]}"}).status_code == 421


def test_oversized_body_is_refused(instance: Instance) -> None:
    big = json.dumps({**INIT, "padding": "x" * 5000}).encode()
    answer = post(instance, {}, big)
    assert answer.status_code == 413 and answer.json()["error"] == "requestTooLarge"

    def chunks() -> object:
        yield big[:2000]
        yield big[2000:]

    chunked = httpx.post(instance.mcp_url, content=chunks(), headers=MCP_HEADERS, timeout=30)  # type: ignore[arg-type]
    assert chunked.status_code == 413 and chunked.json()["error"] == "requestTooLarge"
    assert chunked.headers["connection"] == "close"  # the rest of the body is never read
