"""config.py - the service's limits and listener rules: one named, validated structure.

Every limit is startup configuration (command-line flags, each with an
environment default; see docs/SERVICE.md), checked once at start: zero or
negative durations and capacities are refused there, not discovered later.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass


class ConfigError(ValueError):
    """A configuration value is invalid; the message names it."""


@dataclass(frozen=True)
class ServiceConfig:
    #: games loaded at once in this instance (creation and resumption past it: tooManyGames)
    max_games: int = 16
    #: live games one client (remote address) may have created in this instance (tooManyGamesForClient)
    games_per_client: int = 4
    #: a game with no authorized agent call for this long ends (end_reason idle_timeout)
    idle_timeout_s: float = 600.0
    #: a game ends this long after its creation, whatever its activity (end_reason time_limit)
    max_lifetime_s: float = 86400.0
    #: how often the deadlines are swept (calls also check them before they are admitted)
    sweep_s: float = 15.0
    #: an MCP request body larger than this is refused (413) before it is read further
    max_body_bytes: int = 1_048_576
    #: Host header values accepted (host or host:port, lowercase); empty = the listener's own address
    allowed_hosts: tuple[str, ...] = ()
    #: Origin values accepted from browsers (scheme://host[:port]); requests without Origin are not browsers
    allowed_origins: tuple[str, ...] = ()
    #: the client address comes from X-Forwarded-For only when the peer is one of these (a reverse proxy)
    trusted_proxies: tuple[str, ...] = ()
    #: a connection that has not sent a whole request head this long after its first byte is closed (408)
    header_timeout_s: float = 10.0
    #: a request body not received whole this long after its head is refused (408) and its connection closed
    body_timeout_s: float = 30.0
    #: open TCP connections past this get 503 tooManyConnections (with Retry-After) and are closed
    max_connections: int = 1024
    #: open event streams (spectator /api/games/<id>/events, GET /mcp) past this get 503 tooManyStreams
    max_streams: int = 256
    #: the clients (addresses or networks) /metrics answers; default loopback only
    metrics_clients: tuple[str, ...] = ("127.0.0.1/8", "::1/128")
    #: the public base URL for viewer links (e.g. https://my.domain); default: the listener's own URL
    public_url: str | None = None

    def __post_init__(self) -> None:
        for name in ("max_games", "games_per_client", "max_body_bytes", "max_connections", "max_streams"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) <= 0:
                raise ConfigError(f"{name} must be a positive integer, not {getattr(self, name)!r}")
        for name in ("idle_timeout_s", "max_lifetime_s", "sweep_s", "header_timeout_s", "body_timeout_s"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"{name} must be a positive number of seconds, not {getattr(self, name)!r}")
        if self.games_per_client > self.max_games:
            raise ConfigError("games_per_client cannot exceed max_games")
        if self.max_streams > self.max_connections:
            raise ConfigError("max_streams cannot exceed max_connections (each stream holds a connection)")
        for network in self.metrics_clients:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ConfigError(f"metrics_clients wants addresses or networks, not {network!r}") from None
        if self.public_url is not None and not self.public_url.startswith(("http://", "https://")):
            raise ConfigError(f"public_url must be an http(s) URL, not {self.public_url!r}")


def parse_listen(text: str) -> tuple[str, int]:
    """HOST:PORT (IPv6 as [::1]:PORT) -> (host, port). Raises ConfigError."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ConfigError(f"--http wants HOST:PORT, e.g. 127.0.0.1:8080, not {text!r}")
    return host.strip("[]"), int(port)
