"""options.py - the service's command-line flags (each with an environment default) -> ServiceConfig."""

from __future__ import annotations

import argparse
import os

from .config import ConfigError, ServiceConfig, parse_listen

DEFAULTS = ServiceConfig()


def _env(name: str, default: object) -> str | None:
    value = os.environ.get(name)
    return value if value is not None else (None if default is None else str(default))


def add_service_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("HTTP service (with --http)")
    group.add_argument(
        "--http",
        metavar="HOST:PORT",
        default=os.environ.get("NNH_HTTP"),
        help="serve MCP over Streamable HTTP at /mcp (and the spectator) on HOST:PORT instead "
        "of stdio; PORT 0 picks a free one ($NNH_HTTP)",
    )
    group.add_argument(
        "--store",
        metavar="URL",
        default=os.environ.get("NNH_STORE"),
        help="postgresql://... to keep games in PostgreSQL (several instances share it); "
        "default the SQLite database of the state directory ($NNH_STORE)",
    )
    limits = [
        ("--max-games", "NNH_MAX_GAMES", int, DEFAULTS.max_games, "games loaded at once in this instance"),
        (
            "--games-per-client",
            "NNH_GAMES_PER_CLIENT",
            int,
            DEFAULTS.games_per_client,
            "live games one client address may have created here",
        ),
        (
            "--idle-timeout",
            "NNH_IDLE_TIMEOUT",
            float,
            DEFAULTS.idle_timeout_s,
            "seconds without an authorized agent call before a game ends (idle_timeout)",
        ),
        (
            "--max-lifetime",
            "NNH_MAX_LIFETIME",
            float,
            DEFAULTS.max_lifetime_s,
            "seconds after creation when a game ends (time_limit)",
        ),
        ("--sweep-interval", "NNH_SWEEP_INTERVAL", float, DEFAULTS.sweep_s, "seconds between deadline sweeps"),
        ("--max-body-bytes", "NNH_MAX_BODY_BYTES", int, DEFAULTS.max_body_bytes, "largest MCP request body accepted"),
        (
            "--header-timeout",
            "NNH_HEADER_TIMEOUT",
            float,
            DEFAULTS.header_timeout_s,
            "seconds a connection has to send a whole request head (slow clients get 408 and are closed)",
        ),
        (
            "--body-timeout",
            "NNH_BODY_TIMEOUT",
            float,
            DEFAULTS.body_timeout_s,
            "seconds a request has to send its whole body after its head (408, connection closed)",
        ),
        (
            "--max-connections",
            "NNH_MAX_CONNECTIONS",
            int,
            DEFAULTS.max_connections,
            "open TCP connections at once; past it: 503 tooManyConnections with Retry-After",
        ),
        (
            "--max-streams",
            "NNH_MAX_STREAMS",
            int,
            DEFAULTS.max_streams,
            "open event streams (spectator events, GET /mcp) at once; past it: 503 tooManyStreams",
        ),
    ]
    for flag, env, kind, default, text in limits:
        group.add_argument(
            flag,
            type=kind,
            default=kind(_env(env, default)),
            help=f"{text} (default {default}; ${env})",
        )
    group.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help="a Host header value to answer (repeatable); default the listen address (and localhost:PORT on loopback)",
    )
    group.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a browser Origin to accept (repeatable); default http://<each allowed host>",
    )
    group.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address whose X-Forwarded-For names the client (repeatable); "
        "default none: forwarded headers are ignored",
    )
    group.add_argument(
        "--metrics-client",
        action="append",
        default=[],
        metavar="ADDRESS[/BITS]",
        help="a client address or network /metrics answers (repeatable); default loopback only "
        "(judged on the client address, so behind a --trusted-proxy the forwarded one)",
    )
    group.add_argument(
        "--public-url",
        default=os.environ.get("NNH_PUBLIC_URL"),
        help="the public base URL for viewer links, e.g. https://my.domain ($NNH_PUBLIC_URL)",
    )


def service_config(opts: argparse.Namespace) -> ServiceConfig:
    """Raises ConfigError."""
    if opts.http is not None:
        parse_listen(opts.http)
    if opts.store is not None and not opts.store.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"--store wants a postgresql:// URL, not {opts.store.split(':', 1)[0]}:...")
    return ServiceConfig(
        max_games=opts.max_games,
        games_per_client=opts.games_per_client,
        idle_timeout_s=opts.idle_timeout,
        max_lifetime_s=opts.max_lifetime,
        sweep_s=opts.sweep_interval,
        max_body_bytes=opts.max_body_bytes,
        allowed_hosts=tuple(h.lower() for h in opts.allowed_host),
        allowed_origins=tuple(opts.allowed_origin),
        trusted_proxies=tuple(opts.trusted_proxy),
        header_timeout_s=opts.header_timeout,
        body_timeout_s=opts.body_timeout,
        max_connections=opts.max_connections,
        max_streams=opts.max_streams,
        metrics_clients=tuple(opts.metrics_client) or DEFAULTS.metrics_clients,
        public_url=opts.public_url.rstrip("/") if opts.public_url else None,
    )
