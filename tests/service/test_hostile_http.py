"""test_hostile_http.py - the HTTP edge under hostile clients, one test per case, against real servers.

Forged X-Forwarded-For, an endless chunked body, invalid UTF-8, malformed
JSON, JSON nested 1,000 deep, slow-loris heads, a slow body, too many
connections and too many event streams: each gets a clear answer, the
server reads no more than it must, no traceback reaches stderr, and the
server goes on serving.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support.raw_mcp import MCP_HEADERS, initialize_request
from support.service_instance import Instance

INIT = initialize_request("hostile-test")
BODY_LIMIT = 65536
HEADER_TIMEOUT_S = 1.0
BODY_TIMEOUT_S = 1.5


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    with Instance.start(
        None,
        tmp_path_factory.mktemp("hostile"),
        "--max-body-bytes",
        str(BODY_LIMIT),
        "--header-timeout",
        str(HEADER_TIMEOUT_S),
        "--body-timeout",
        str(BODY_TIMEOUT_S),
    ) as running:
        yield running


def address(instance: Instance) -> tuple[str, int]:
    host, port = instance.url.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def connect(instance: Instance) -> socket.socket:
    sock = socket.create_connection(address(instance), timeout=30)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def head(instance: Instance, method: str, path: str, extra: str = "") -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: {instance.url.removeprefix('http://')}\r\n{extra}\r\n".encode()


def read_all(sock: socket.socket, limit_s: float = 30.0) -> bytes:
    """Everything the server sends until it closes the connection (or a reset)."""
    sock.settimeout(limit_s)
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except ConnectionResetError:
        pass
    return got


def call_tool(instance: Instance, name: str, arguments: dict, headers: dict[str, str] | None = None) -> httpx.Response:
    """One stateless JSON-RPC tools/call over plain HTTP (the edge's view: status and headers too)."""
    message = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    return httpx.post(
        instance.mcp_url,
        json=message,
        headers={**MCP_HEADERS, "MCP-Protocol-Version": "2025-06-18", **(headers or {})},
        timeout=120,
    )


def status(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def still_serving(instance: Instance) -> None:
    answer = httpx.post(instance.mcp_url, content=json.dumps(INIT).encode(), headers=MCP_HEADERS, timeout=30)
    assert answer.status_code == 200 and answer.json()["result"]["serverInfo"]["name"] == "nethack-webmcp"


def no_traceback(instance: Instance) -> None:
    log = instance.log()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log


# --- forwarded headers --------------------------------------------------------------------------


def create(instance: Instance, forwarded_for: str) -> dict:
    answer = call_tool(instance, "session", {"action": "create", "seed": 5}, {"X-Forwarded-For": forwarded_for})
    return answer.json()["result"]


def test_forged_forwarded_for_gets_no_extra_games(tmp_path: Path) -> None:
    # no --trusted-proxy: the client is the TCP peer, whatever X-Forwarded-For says
    with Instance.start(None, tmp_path / "a", "--games-per-client", "1", "--max-games", "4") as running:
        first = create(running, "203.0.113.1")
        assert not first["isError"], first
        for forged in ("203.0.113.2", "198.51.100.7", "127.0.0.2"):
            refused = create(running, forged)
            assert refused["isError"], refused
            assert refused["structuredContent"]["error"]["code"] == "tooManyGamesForClient", refused
    # with the peer as a --trusted-proxy, the forwarded address names the client
    with Instance.start(
        None, tmp_path / "b", "--games-per-client", "1", "--max-games", "4", "--trusted-proxy", "127.0.0.1"
    ) as proxied:
        assert not create(proxied, "203.0.113.1")["isError"]
        assert not create(proxied, "203.0.113.2")["isError"]
        again = create(proxied, "203.0.113.1")
        assert again["isError"] and again["structuredContent"]["error"]["code"] == "tooManyGamesForClient", again


# --- bodies -------------------------------------------------------------------------------------


def test_endless_chunked_body_gets_413_early_and_is_not_drained(instance: Instance) -> None:
    sock = connect(instance)
    sock.sendall(
        head(
            instance,
            "POST",
            "/mcp",
            "Content-Type: application/json\r\nAccept: application/json\r\nTransfer-Encoding: chunked\r\n",
        )
    )
    chunk = b"x" * 65536
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    sent = 0
    failed: list[BaseException] = []

    def send() -> None:
        nonlocal sent
        try:
            while sent < 100 * 2**20:
                sock.sendall(framed)
                sent += len(chunk)
        except OSError as exc:
            failed.append(exc)

    started = time.monotonic()
    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    response = read_all(sock)
    answered_s = time.monotonic() - started
    sender.join(30)
    sock.close()
    assert status(response) == 413, response[:200]
    assert b'"requestTooLarge"' in response and b"connection: close" in response.lower()
    assert answered_s < 5, answered_s
    # the server closed the connection: the sender failed long before 100 MB
    assert failed, f"the server read the whole {sent} bytes"
    assert sent < 20 * 2**20, sent
    still_serving(instance)
    no_traceback(instance)


def test_declared_oversized_body_is_refused_unread(instance: Instance) -> None:
    sock = connect(instance)
    sock.sendall(head(instance, "POST", "/mcp", f"Content-Type: application/json\r\nContent-Length: {10**9}\r\n"))
    response = read_all(sock)
    sock.close()
    assert status(response) == 413 and b"connection: close" in response.lower()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "\xff\xfe"}}', -32700),  # not UTF-8
        (b"\xc3\x28", -32700),  # an invalid UTF-8 sequence and nothing else
        (b'{"jsonrpc": "2.0", "id": 1, "method": ', -32700),  # cut off
        (b"{'jsonrpc': '2.0'}", -32700),  # not JSON
        (b"[" * 1000 + b"]" * 1000, -32600),  # nested 1,000 deep (arrays)
        (b'{"a":' * 1000 + b"1" + b"}" * 1000, -32600),  # nested 1,000 deep (objects)
        (json.dumps({**INIT, "params": {"deep": json.loads("[" * 100 + "]" * 100)}}).encode(), -32600),
        (b"42", -32600),  # JSON, not a message
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', -32600),  # a batch
    ],
)
def test_unparseable_mcp_body_gets_a_jsonrpc_error(instance: Instance, body: bytes, code: int) -> None:
    answer = httpx.post(instance.mcp_url, content=body, headers=MCP_HEADERS, timeout=30)
    assert answer.status_code == 400, (answer.status_code, answer.text)
    error = answer.json()
    assert error["jsonrpc"] == "2.0" and error["id"] is None and error["error"]["code"] == code
    still_serving(instance)
    no_traceback(instance)


def test_brackets_inside_strings_are_not_nesting(instance: Instance) -> None:
    # 1,000 brackets in a string value are text, not structure: the message is served
    message = json.loads(json.dumps(INIT))
    message["params"]["clientInfo"] = {"name": "[" * 1000, "version": "{" * 1000}
    answer = httpx.post(instance.mcp_url, content=json.dumps(message).encode(), headers=MCP_HEADERS, timeout=30)
    assert answer.status_code == 200, answer.text


def test_slow_body_is_cut_off(instance: Instance) -> None:
    sock = connect(instance)
    sock.sendall(head(instance, "POST", "/mcp", "Content-Type: application/json\r\nContent-Length: 1000\r\n"))
    started = time.monotonic()
    sock.sendall(b'{"jsonrpc"')  # and then nothing more
    response = read_all(sock)
    elapsed = time.monotonic() - started
    sock.close()
    assert status(response) == 408 and b'"requestTimeout"' in response, response[:200]
    assert BODY_TIMEOUT_S - 0.2 < elapsed < BODY_TIMEOUT_S + 3, elapsed
    no_traceback(instance)


# --- slow heads, connection and stream caps -----------------------------------------------------


def test_slow_loris_heads_are_cut_off(instance: Instance) -> None:
    clients = [connect(instance) for _ in range(20)]
    silent = connect(instance)  # connects and never sends a byte
    stop = threading.Event()

    def dribble() -> None:
        # one header byte per client every 0.2 s: each stays "active", none finishes its head
        for sock in clients:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: " + instance.url.removeprefix("http://").encode() + b"\r\n")
        while not stop.wait(0.2):
            for sock in clients:
                try:
                    sock.sendall(b"X")
                except OSError:
                    pass

    started = time.monotonic()
    threading.Thread(target=dribble, daemon=True).start()
    time.sleep(0.3)
    still_serving(instance)  # an honest client is served meanwhile
    answers = [read_all(sock, 10) for sock in [*clients, silent]]
    elapsed = time.monotonic() - started
    stop.set()
    for sock in [*clients, silent]:
        sock.close()
    assert all(status(answer) == 408 for answer in answers), [answer[:40] for answer in answers]
    assert elapsed < HEADER_TIMEOUT_S + 3, elapsed
    still_serving(instance)
    no_traceback(instance)


def test_too_many_connections_get_503_with_retry_after(tmp_path: Path) -> None:
    with Instance.start(None, tmp_path, "--max-connections", "5", "--max-streams", "5") as running:
        held = [connect(running) for _ in range(5)]
        time.sleep(0.2)
        answer = httpx.get(f"{running.url}/health", timeout=30)
        assert answer.status_code == 503 and answer.json()["error"] == "tooManyConnections"
        assert answer.headers["retry-after"] == "5" and answer.headers["connection"] == "close"
        for sock in held:
            sock.close()
        time.sleep(0.2)
        assert httpx.get(f"{running.url}/health", timeout=30).status_code == 200
        # the listener's own refusal is counted in the service's /metrics
        page = httpx.get(f"{running.url}/metrics", timeout=30).text.splitlines()
        assert 'nethack_webmcp_http_refusals_total{reason="tooManyConnections"} 1' in page, page


@pytest.mark.asyncio
async def test_too_many_event_streams_get_503_with_retry_after(tmp_path: Path) -> None:
    with Instance.start(None, tmp_path, "--max-streams", "2") as running:
        game = call_tool(running, "session", {"action": "create", "seed": 3}).json()["result"]["structuredContent"]
        events = f"{running.url}/api/games/{game['basis']['sessionId']}/events"
        async with httpx.AsyncClient(timeout=30) as client:
            async with client.stream("GET", events) as one, client.stream("GET", events) as two:
                assert one.status_code == two.status_code == 200
                third = await client.get(events)
                assert third.status_code == 503 and third.json()["error"] == "tooManyStreams"
                assert third.headers["retry-after"] == "5"
                assert (await client.get(f"{running.url}/health")).status_code == 200  # other requests go on
            await_free = time.monotonic() + 10
            while time.monotonic() < await_free:
                async with client.stream("GET", events) as again:
                    if again.status_code == 200:
                        break
            else:
                raise AssertionError("closed streams were never given back")


def test_client_leaving_mid_body_runs_nothing(instance: Instance) -> None:
    message = json.dumps(
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "help", "arguments": {}}}
    ).encode()

    def help_calls() -> str:
        page = httpx.get(f"{instance.url}/metrics", timeout=30).text
        return "\n".join(
            line for line in page.splitlines() if line.startswith('nethack_webmcp_tool_calls_total{tool="help"}')
        )

    before = help_calls()
    sock = connect(instance)
    extra = (
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(message)}\r\n"
    )
    sock.sendall(head(instance, "POST", "/mcp", extra) + message[: len(message) // 2])
    time.sleep(0.2)
    sock.close()  # half a call, then gone: the half is never run as a call
    time.sleep(0.3)
    assert help_calls() == before
    # the same call sent whole is run (the check above can fail)
    whole = connect(instance)
    whole.sendall(head(instance, "POST", "/mcp", extra) + message)
    whole.settimeout(30)
    assert status(whole.recv(65536)) == 200
    whole.close()
    assert help_calls() != before
    still_serving(instance)
    no_traceback(instance)
