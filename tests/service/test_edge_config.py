"""test_edge_config.py - the edge's flags reach ServiceConfig, and bad values are refused at start."""

from __future__ import annotations

import argparse

import pytest
from nethack_webmcp.service.config import ConfigError, ServiceConfig
from nethack_webmcp.service.options import add_service_options, service_config


def config_of(*argv: str) -> ServiceConfig:
    parser = argparse.ArgumentParser()
    add_service_options(parser)
    return service_config(parser.parse_args(["--http", "127.0.0.1:0", *argv]))


def test_edge_flags_reach_the_config() -> None:
    config = config_of(
        "--header-timeout", "2.5", "--body-timeout", "7", "--max-connections", "50", "--max-streams", "9",
        "--metrics-client", "10.0.0.0/8", "--metrics-client", "::1",
    )  # fmt: skip
    assert (config.header_timeout_s, config.body_timeout_s) == (2.5, 7.0)
    assert (config.max_connections, config.max_streams) == (50, 9)
    assert config.metrics_clients == ("10.0.0.0/8", "::1")
    default = config_of()
    assert default.trusted_proxies == ()  # forwarded headers: nobody's by default
    assert default.metrics_clients == ("127.0.0.1/8", "::1/128")


@pytest.mark.parametrize(
    "argv",
    [
        ("--header-timeout", "0"),
        ("--body-timeout", "-1"),
        ("--max-connections", "0"),
        ("--max-streams", "0"),
        ("--max-connections", "10", "--max-streams", "11"),
        ("--metrics-client", "not-an-address"),
    ],
)
def test_bad_edge_values_are_refused(argv: tuple[str, ...]) -> None:
    with pytest.raises(ConfigError):
        config_of(*argv)
