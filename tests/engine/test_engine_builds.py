"""test_engine_builds.py - the two WebAssembly builds: picked by feature
detection, refused when forced without JSPI, and described by identity.json
with the native twin's game identity (the rules), each with its own build
identity (diagnostics)."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess

import pytest
from engine_client import (
    JSPI_FLAG,
    NATIVE_DRIVER,
    ROOT,
    WASM_BUILDS,
    WASM_ENGINE,
    WASM_SCRIPT,
    dumps,
    native_command,
    node24,
)

CREATE = dumps(
    {"version": 1, "method": "session.create", "params": {"seed": 9, "sessionId": "builds", "createdAt": 1700000000}}
)


def run_launcher(node: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*node, str(WASM_SCRIPT), *args], input=CREATE + "\n", capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def native_create() -> str:
    return subprocess.run(
        native_command(), input=CREATE + "\n", capture_output=True, text=True, timeout=60, check=True
    ).stdout


@pytest.mark.wasm
def test_jspi_is_picked_where_webassembly_suspending_exists() -> None:
    with_jspi = run_launcher([node24(), JSPI_FLAG])
    assert with_jspi.returncode == 0, with_jspi.stderr
    assert "wasm-driver: jspi build" in with_jspi.stderr
    assert with_jspi.stdout == native_create()


@pytest.mark.wasm
def test_asyncify_is_the_fallback_without_jspi() -> None:
    without = run_launcher([node24()])  # Node 24 without the flag has no WebAssembly.Suspending
    assert without.returncode == 0, without.stderr
    assert "wasm-driver: asyncify build" in without.stderr
    assert without.stdout == native_create()
    system_node = shutil.which("node")
    if system_node:  # an older Node (Debian's 18/20) has at most the old, incompatible JSPI API
        older = run_launcher([system_node])
        assert older.returncode == 0, older.stderr
        assert older.stdout == native_create()


@pytest.mark.wasm
def test_forcing_jspi_without_it_is_refused_clearly() -> None:
    forced = run_launcher([node24()], "--build", "jspi")
    assert forced.returncode == 2
    assert "no JSPI" in forced.stderr and forced.stdout == ""


@pytest.mark.wasm
def test_every_build_shares_the_game_identity_of_the_rules() -> None:
    native = json.loads((NATIVE_DRIVER.parent / "identity.json").read_text())
    web = json.loads((WASM_ENGINE / "identity.json").read_text())
    assert native["gameIdentity"].startswith("rules-sha256:")
    assert web["gameIdentity"] == native["gameIdentity"]
    assert web["rules"] == native["rules"]
    # the rules name NetHack's sources, the options, the driver and the hooks patch
    assert web["rules"][0].startswith("nethack-3.6.7 ") and web["rules"][1].startswith("defines ")
    assert any(line.endswith("wasm/driver/nnh_main.c") for line in web["rules"])
    assert any(line.endswith("wasm/patches/nnh-hooks.patch") for line in web["rules"])
    # each build keeps its own identity, over the files it ships
    identities = {native["builds"]["native"]["buildIdentity"]}
    for build in WASM_BUILDS:
        described = web["builds"][build]
        for name, digest in described["files"].items():
            assert hashlib.sha256((WASM_ENGINE / build / name).read_bytes()).hexdigest() == digest, (build, name)
        identities.add(described["buildIdentity"])
    assert len(identities) == 3


@pytest.mark.wasm
def test_the_jspi_download_fits_the_budget() -> None:
    """What a browser with JSPI downloads for the engine (gzip at a static
    host's usual level 6): at most 1.3 MB; and the JSPI build is the smaller."""

    def gzipped(build: str) -> int:
        return sum(
            len(gzip.compress((WASM_ENGINE / build / name).read_bytes(), 6)) for name in ("nethack.js", "nethack.wasm")
        )

    assert gzipped("jspi") <= 1_300_000, gzipped("jspi")
    assert gzipped("jspi") < gzipped("asyncify")
