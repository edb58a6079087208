#!/usr/bin/env python3
"""spectator_pollers.py - N spectators of one game, polling or streaming (for bench-spectators).

    python scripts/spectator_pollers.py STATE_URL N [--mode poll|stream] [--interval-ms 250]

Each spectator keeps one loopback HTTP/1.1 connection. `poll`: one
conditional GET of the state at a time (If-None-Match with the last ETag),
then a pause of the interval. `stream`: what the server-mode page does,
one GET of .../events (server-sent events), reading the pushed states.
Raw asyncio streams keep the spectators' own cost small (they share the
machine with the server). They run until a line arrives on stdin, then
print one JSON object: poll latencies (ms, request written to response
read), status counts (a pushed state counts as a 200), errors, the
seconds they ran, and for streams the receipts [revision, monotonic time]
(CLOCK_MONOTONIC is one clock for every process of the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import AsyncIterator
from urllib.parse import urlsplit


async def poller(
    host: str,
    port: int,
    path: str,
    interval: float,
    stop: asyncio.Event,
    latencies: list[float],
    statuses: dict[int, int],
    errors: list[str],
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    etag = None
    try:
        while not stop.is_set():
            conditional = f"If-None-Match: {etag}\r\n" if etag else ""
            started = time.perf_counter()
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{conditional}\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
            length = int(headers.get("content-length", "0"))
            if length:
                await reader.readexactly(length)
            latencies.append((time.perf_counter() - started) * 1000)
            statuses[status] = statuses.get(status, 0) + 1
            etag = headers.get("etag", etag)
            try:
                async with asyncio.timeout(interval):
                    await stop.wait()
            except TimeoutError:
                pass
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        errors.append(repr(exc))
    finally:
        writer.close()


async def chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """The chunks of a chunked HTTP/1.1 body."""
    while True:
        size = int((await reader.readline()).split(b";")[0], 16)
        if size == 0:
            return
        chunk = await reader.readexactly(size)
        await reader.readexactly(2)
        yield chunk


async def watcher(
    host: str,
    port: int,
    path: str,
    stop: asyncio.Event,
    receipts: list[list[float]],
    statuses: dict[int, int],
    errors: list[str],
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n")[0] or b"chunked" not in head.lower():
            raise ValueError(f"not a stream: {head[:80]!r}")
        buffer = b""
        body = chunks(reader)
        while not stop.is_set():
            next_chunk = asyncio.ensure_future(body.__anext__())
            halted = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({next_chunk, halted}, return_when=asyncio.FIRST_COMPLETED)
            if next_chunk not in done:
                next_chunk.cancel()
                break
            halted.cancel()
            buffer += next_chunk.result()
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                for line in event.split(b"\n"):
                    if line.startswith(b"id: "):
                        receipts.append([int(line.rsplit(b"/", 1)[1].rstrip(b'"')), time.monotonic()])
                        statuses[200] = statuses.get(200, 0) + 1
    except (OSError, asyncio.IncompleteReadError, ValueError, StopAsyncIteration) as exc:
        errors.append(repr(exc))
    finally:
        writer.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("count", type=int)
    parser.add_argument("--mode", choices=("poll", "stream"), default="poll")
    parser.add_argument("--interval-ms", type=float, default=250.0)
    args = parser.parse_args()
    if not 0 < args.count <= 1000:
        raise SystemExit("between 1 and 1000 pollers")
    url = urlsplit(args.url)
    if url.hostname not in ("127.0.0.1", "::1", "localhost"):
        raise SystemExit("pollers poll loopback addresses only")
    stop = asyncio.Event()
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors: list[str] = []
    receipts: list[list[float]] = []
    host, port = url.hostname, url.port or 80
    if args.mode == "poll":
        tasks = [
            asyncio.create_task(
                poller(host, port, url.path, args.interval_ms / 1000, stop, latencies, statuses, errors)
            )
            for _ in range(args.count)
        ]
    else:
        events = url.path.removesuffix("/state") + "/events"
        tasks = [
            asyncio.create_task(watcher(host, port, events, stop, receipts, statuses, errors))
            for _ in range(args.count)
        ]
    print("ready", flush=True)
    started = time.perf_counter()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    stop.set()
    await asyncio.gather(*tasks)
    print(
        json.dumps(
            {
                "latencies": latencies,
                "statuses": statuses,
                "errors": errors,
                "seconds": time.perf_counter() - started,
                "receipts": receipts,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    asyncio.run(main())
