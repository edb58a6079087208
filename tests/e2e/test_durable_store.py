"""test_durable_store.py - the IndexedDB store inside the site's worker, in real Chromium.

The Store contract (tests/durability/store_contract.py, the same checks
SQLite and the memory store pass) runs in the worker's Pyodide against
IndexedDBStore on scratch databases; then what only IndexedDB has: the
schema version is the database version, writes ask for strict durability,
a database newer than the page is refused, an upgrade blocked by another
tab's open connection is reported and succeeds once that tab lets go, and
the ownership fence stops a writer whose game was taken over.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .durable_harness import context, open_site, python

CONTRACT = Path(__file__).resolve().parents[1] / "durability" / "store_contract.py"

RUN_CONTRACT = """
import json, sys, types
source = {source!r}
module = types.ModuleType("store_contract")
exec(compile(source, "store_contract.py", "exec"), module.__dict__)
from nethack_webmcp.store.indexeddb import IndexedDBStore
results = await module.run_all(lambda name: IndexedDBStore(database="contract-" + name))
json.dumps(results)
"""


@pytest.fixture(scope="module")
def store_page(plain_browser: Browser, site_url: str) -> Iterator[Page]:
    ctx = context(plain_browser)
    try:
        yield open_site(ctx, site_url)
    finally:
        ctx.close()


def test_indexeddb_store_passes_the_store_contract(store_page: Page) -> None:
    results = python(store_page, RUN_CONTRACT.format(source=CONTRACT.read_text()))
    assert len(results) >= 6
    failed = {name: error for name, error in results if error}
    assert failed == {}, "\n".join(f"{name}:\n{error}" for name, error in failed.items())


def test_schema_version_and_strict_durability(store_page: Page) -> None:
    found = python(
        store_page,
        """
import json
from nethack_webmcp.store import SCHEMA_VERSION
from nethack_webmcp.store.indexeddb import IndexedDBStore
store = IndexedDBStore(database="schema-check")
await store.list_sessions()
before = await store.schema()
await store.put_record({"sessionId": "r", "characterName": "A", "harnessName": "", "modelName": "",
                        "startedAt": 1, "endedAt": 2, "endTimeKind": "observed", "endReason": "quit",
                        "how": "quit", "death": "quit", "score": 0, "turns": 1, "lastDepth": 1, "deepestDepth": 1})
after = await store.schema()
await store.close()
json.dumps({"expected": SCHEMA_VERSION, "before": before, "after": after, "durability": store.durability})""",
    )
    assert found["before"]["version"] == found["expected"] == 3
    assert sorted(found["before"]["stores"]) == ["journal", "owners", "receipts", "records", "sessions"]
    assert found["after"]["lastDurability"] == "strict", "every write transaction asks for strict durability"
    assert found["durability"] == "indexeddb-strict"


HOLD_OPEN = """(name) => new Promise((resolve, reject) => {
  const request = indexedDB.open(name);
  request.onsuccess = () => { window.__held = request.result; resolve(request.result.version); };
  request.onerror = () => reject(request.error);
})"""


def test_blocked_upgrade_is_reported_then_succeeds_and_newer_is_refused(store_page: Page) -> None:
    python(
        store_page,
        """
from nethack_webmcp.store.indexeddb import IndexedDBStore
store = IndexedDBStore(database="upgrade-check")
await store.list_sessions()
await store.close()
"1"
""",
    )
    # another tab of an older site: it keeps the database open and ignores versionchange
    assert store_page.evaluate(HOLD_OPEN, "upgrade-check") == 3
    blocked = python(
        store_page,
        """
import json
from nethack_webmcp.store.indexeddb import IndexedDBStore
newer = IndexedDBStore(database="upgrade-check", extra_migrations=1)
try:
    await newer.list_sessions()
    outcome = {"ok": True}
except Exception as exc:
    outcome = {"error": type(exc).__name__, "code": getattr(exc, "code", None), "message": str(exc)}
json.dumps(outcome)""",
    )
    assert blocked["error"] == "IndexedDBError" and blocked["code"] == "blocked", blocked
    assert "another tab" in blocked["message"]

    store_page.evaluate("() => { window.__held.close(); }")  # the other tab lets go
    recovered = python(
        store_page,
        """
import json
from nethack_webmcp.store.indexeddb import IndexedDBStore
store = IndexedDBStore(database="upgrade-check", extra_migrations=1)
sessions = await store.list_sessions()
schema = await store.schema()
await store.close()
json.dumps({"sessions": sessions, "version": schema["version"]})""",
    )
    assert recovered == {"sessions": [], "version": 4}

    newer = python(
        store_page,
        """
import json
from nethack_webmcp.store.indexeddb import IndexedDBStore
old = IndexedDBStore(database="upgrade-check")
try:
    await old.list_sessions()
    outcome = {"ok": True}
except Exception as exc:
    outcome = {"code": getattr(exc, "code", None), "message": str(exc)}
json.dumps(outcome)""",
    )
    assert newer["code"] == "newer" and "newer schema" in newer["message"], newer


def test_a_closed_store_fails_loudly_and_conflicts_write_nothing(store_page: Page) -> None:
    found = python(
        store_page,
        """
import json
from nethack_webmcp.store import StoreError
from nethack_webmcp.store.indexeddb import IndexedDBStore
store = IndexedDBStore(database="closed-check")
await store.close()
try:
    await store.list_sessions()
    closed = "no error"
except StoreError as exc:
    closed = str(exc)
json.dumps({"closed": closed})""",
    )
    assert "closed" in found["closed"]


def test_the_ownership_fence_stops_a_writer_that_lost_its_game(store_page: Page) -> None:
    """A game's writes carry its owner token; once another owner's token is
    recorded (a takeover), this worker's writes for it are refused."""
    found = python(
        store_page,
        """
import json, js
from nethack_webmcp.store import StoreError
from nethack_webmcp.store.indexeddb import IndexedDBStore
from nethack_webmcp.store.indexeddb import WebLockOwnership
store = IndexedDBStore()
owners = WebLockOwnership()
lease = await owners.acquire("fence-game")
info = {"sessionId": "fence-game", "create": {}, "metadata": {}, "createdSummary": {"revision": 0, "decision": None,
        "ended": False, "end": None}, "profile": 1, "engineIdentity": None, "viewNonce": "n", "startedAt": 1.0,
        "updatedAt": 1.0, "endedAt": None, "status": "active", "lastDepth": None, "deepestDepth": None}
await store.create_session(info)
holder = await owners.holder("fence-game")
# another tab's worker records itself as the owner (as its steal would)
await js.nethackStorage.store.claim("fence-game", "someone-else", js.JSON.parse('{"tabId": "other"}'))
try:
    await store.update_session("fence-game", {"updatedAt": 2.0})
    refused = None
except StoreError as exc:
    refused = {"code": getattr(exc, "code", None), "message": str(exc)}
lost = lease.lost
await lease.release()
stored = await store.get_session("fence-game")
json.dumps({"refused": refused, "lost": lost, "updatedAt": stored["updatedAt"], "holder": holder})""",
    )
    assert found["refused"]["code"] == "lostOwnership", found
    assert found["lost"] is True
    assert found["updatedAt"] == 1.0, "the refused write wrote nothing"
    assert found["holder"]["lock"] == "nethack:session:fence-game"
    assert json.dumps(found["holder"]["tabId"])
