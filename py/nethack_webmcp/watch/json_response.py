"""json_response.py - one whole JSON response sent straight over ASGI.

For the refusals made below any framework (the listener's connection cap, the
service edge): they answer before a route runs, so they cannot use Starlette's
responses, and every one must carry its exact length."""

from __future__ import annotations

from starlette.types import Send


async def send_json(send: Send, status: int, body: bytes, *headers: tuple[bytes, bytes]) -> None:
    """`body` (already JSON) with its type and length, then `headers` in order."""
    start = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers]
    await send({"type": "http.response.start", "status": status, "headers": start})
    await send({"type": "http.response.body", "body": body})
