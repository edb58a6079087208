#!/usr/bin/env python3
"""spectator_pollers.py - N spectators of one game, as the page polls (for bench-spectators).

    python scripts/spectator_pollers.py URL N [--interval-ms 250]

Each poller keeps one loopback HTTP/1.1 connection and does what the
server-mode page does: one conditional GET at a time (If-None-Match with
the last ETag), then a pause of the interval. Raw asyncio streams keep
the pollers' own cost small (they share the machine with the server).
They run until a line arrives on stdin, then print one JSON object:
latencies (ms, request written to response read), status counts, errors,
and the seconds they polled.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from urllib.parse import urlsplit


async def poller(host: str, port: int, path: str, interval: float, stop: asyncio.Event,
                 latencies: list[float], statuses: dict[int, int], errors: list[str]) -> None:
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
                await asyncio.wait_for(stop.wait(), interval)
            except asyncio.TimeoutError:
                pass
    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
        errors.append(repr(exc))
    finally:
        writer.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("count", type=int)
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
    tasks = [asyncio.create_task(poller(url.hostname, url.port or 80, url.path, args.interval_ms / 1000, stop,
                                        latencies, statuses, errors)) for _ in range(args.count)]
    print("ready", flush=True)
    started = time.perf_counter()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    stop.set()
    await asyncio.gather(*tasks)
    print(json.dumps({"latencies": latencies, "statuses": statuses, "errors": errors,
                      "seconds": time.perf_counter() - started}), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
