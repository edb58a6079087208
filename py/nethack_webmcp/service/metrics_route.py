"""metrics_route.py - GET /metrics on the HTTP service: the instance's numbers for a Prometheus scraper.

Who may read it: clients within `--metrics-client` (default loopback only),
judged on the client address of edge.client_address - the TCP peer, or,
behind a `--trusted-proxy`, the address the proxy forwarded - so a proxy
on loopback does not open /metrics to the internet as long as it sends
X-Forwarded-For. Anyone else gets 403 metricsNotAllowed. The page holds
counts only (games, calls, error codes, latencies, processes): no session
id, token, seed or client address.
"""

from __future__ import annotations

import ipaddress

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..session import GameRegistry
from ..watch.connections import count_refusals_with, open_connections
from .config import ServiceConfig
from .edge import client_address
from .metrics import CONTENT_TYPE, METRICS, engine_processes

METRICS_PATH = "/metrics"


def _allowed(address: str, networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in networks)


def metrics_route(games: GameRegistry, config: ServiceConfig) -> Route:
    """The /metrics route; registers the gauges read from `games` and the listener at scrape time,
    and the counter of the listener's own refusals (header timeouts, the connection cap)."""
    METRICS.set_gauge("live_games", "games loaded in this instance now", lambda: len(games.sessions()))
    METRICS.set_gauge("engine_processes", "native engine (nhdriver) processes alive now", engine_processes)
    METRICS.set_gauge("open_connections", "HTTP connections open now", open_connections)
    count_refusals_with(METRICS.count_refusal)
    networks = tuple(ipaddress.ip_network(n, strict=False) for n in config.metrics_clients)

    async def metrics(request: Request) -> Response:
        if not _allowed(client_address(dict(request.scope), config.trusted_proxies), networks):
            METRICS.count_refusal("metricsNotAllowed")
            return JSONResponse(
                {"error": "metricsNotAllowed", "message": "/metrics answers only --metrics-client addresses"},
                403,
                headers={"cache-control": "no-store"},
            )
        return Response(METRICS.render(), 200, {"cache-control": "no-store"}, media_type=CONTENT_TYPE)

    return Route(METRICS_PATH, metrics, methods=["GET"])
